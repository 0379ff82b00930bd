"""Thiefdom in the web interface: texts in en/fr/de, log lines, prompt, clickable board."""
from __future__ import annotations

import random
import re

import pytest

from thieves.core.registry import load_game
from thieves.games.thiefdom import render
from thieves.games.thiefdom.i18n import terms
from thieves.games.thiefdom.i18n_text import EVENTS
from thieves.server.i18n import game_text

LANGS = ("en", "fr", "de")
PHASES = ("draft", "buy", "hideout", "plan", "action", "over")

# one example of each action kind of the notation (docs/thiefdom.md)
SAMPLE_ACTIONS = (
    "n", "e", "s", "w", "climb e", "go s", "plan 12P3", "plan 312", "rob car", "rob car pay", "rob gA",
    "rob nB", "rob nB gold", "exit 1.2", "jin 3.4", "tp 2Bb", "tp 1.20", "hook 2Bb", "svenja 3Bb",
    "hideout 2Bb", "cata 3", "pigeon 2", "samuel 1", "lentz 3", "crossbow gA", "stars nC", "stars car",
    "bernhard gB", "buy crossbow", "buy crossbow 2", "take 1 gold", "hand 2 wine", "keep sack",
    "fetch gem", "stash art1", "take gems", "take art", "take brandy", "drop badge", "give brandy",
    "get wine", "ruth gem", "sell wine", "fill gold", "ally jin", "brawl ruth", "deliver art2",
    "burn poster", "end", "stamina", "move", "stop", "use", "done", "decline", "clients", "smoke", "fish",
    "antonius", "kostanze", "beatrix", "apollon",
)

# a value for each placeholder of the engine's log patterns
SAMPLE_SLOTS = {"T": "purple thief 2", "P": "White (P3)", "F": "guard B", "B": "the forge 2Bb", "G": "wine",
                "E": "Grappling Hook", "N": "3", "M": "2", "X": "m05", "S": "4.12", "D": "NE",
                "L": "Yellow (P1) 12 VP, Purple (P2) 9 VP"}
ENGLISH_WORDS = re.compile(r"\b(thief|guard|carriage|the|moves|robs|turn|their|goods|patrol|VP)\b")


@pytest.fixture(scope="module")
def game():
    return load_game("thiefdom")


def _play(game, n: int, seed: int, steps: int):
    """Positions of a random game: (state, acting player) before each decision."""
    s = game.new_game(n, seed, {})
    rnd = random.Random(seed)
    for _ in range(steps):
        if s.is_terminal():
            break
        p = s.players_to_act()[0]
        yield s, p
        acts = s.legal_actions(p)
        pref = [a for a in acts if a.split()[0] in ("move", "use", "rob", "n", "e", "s", "w", "go")]
        s.apply_action(p, rnd.choice(pref if pref and rnd.random() < 0.7 else acts))
    yield s, None


@pytest.fixture(scope="module")
def played(game):
    """Two short random games (solo and 2 players) with their positions."""
    out = []
    for n, seed in ((1, 3), (2, 5)):
        for s, p in _play(game, n, seed, 900):
            if p is None:
                out.append((s, None, None, None))
            else:
                out.append((s, p, s.observation(p), s.legal_actions(p)))
    return out


def test_every_key_the_server_reads_exists_in_every_language(game):
    keys = ["name", "summary"] + [f"phase.{ph}" for ph in PHASES]
    for opt in game.options:
        keys += [f"option.{opt.name}", f"option.{opt.name}.help"]
    t = terms()
    for lang in LANGS:
        for key in keys:
            assert t[lang].get(key), (lang, key)
            assert game_text("thiefdom", lang, key) == t[lang][key]
    # the French and German texts are real translations of the labels
    for opt in game.options:
        key = f"option.{opt.name}"
        assert t["fr"][key] != t["en"][key] and t["de"][key] != t["en"][key], key


def test_every_text_key_is_in_french_and_german(game):
    t = terms()
    for key in t["en"]:
        assert key in t["fr"] and key in t["de"], key
    assert set(t["fr"]) == set(t["de"])
    for key, _pattern in EVENTS:
        assert f"ev.{key}" in t["fr"] and f"ev.{key}" in t["de"], key
    for lang in ("fr", "de"):  # the placeholders of a template are those of its pattern
        for key, pattern in EVENTS:
            assert set(re.findall(r"\{(\w)\}", t[lang][f"ev.{key}"])) <= set(re.findall(r"\{(\w)\}", pattern)), \
                (lang, key)


def test_describe_action_gives_words_for_each_action_kind(played):
    obs = next(o for s, p, o, la in played if o is not None)
    for action in SAMPLE_ACTIONS:
        texts = {lang: render.describe_action(action, obs, lang) for lang in LANGS}
        for lang, text in texts.items():
            assert text and text != action and "{" not in text, (lang, action, text)
        assert texts["fr"] != texts["en"] and texts["de"] != texts["en"], (action, texts)
    assert render.describe_action("hook 2Bb", obs, "fr").endswith("(1 PA)")
    assert "Norden" in render.describe_action("n", obs, "de")
    assert render.describe_action("e", obs, "fr") == "Aller vers l'est"


def test_every_action_offered_in_play_has_words(played):
    kinds = {a.split()[0] for a in SAMPLE_ACTIONS}
    for s, p, obs, legal in played:
        for a in legal or []:
            assert a.split()[0] in kinds, f"new action kind {a!r}: add it to i18n_text.describe_action"
            for lang in ("fr", "de"):
                text = render.describe_action(a, obs, lang)
                assert text != a and text != render.describe_action(a, obs, "en"), (lang, a)


def test_translate_event_handles_each_pattern():
    for key, pattern in EVENTS:
        line = re.sub(r"\{(\w)\}", lambda m: SAMPLE_SLOTS[m.group(1)], pattern)
        assert render.translate_event(line, "en") == line
        for lang in ("fr", "de"):
            out = render.translate_event(line, lang)
            assert out != line and "{" not in out, (lang, key, out)
            assert not ENGLISH_WORDS.search(out.replace("Grappling", "")), (lang, key, out)
    fr = render.translate_event("purple thief 2 is arrested by guard B and sent home (-2 VP).", "fr")
    assert fr == "Voleur violet 2 est arrêté par le garde B et renvoyé au repaire (-2 PV)."
    de = render.translate_event("The game is over: Yellow (P1) 12 VP, Purple (P2) 9 VP", "de")
    assert de == "Das Spiel ist vorbei: Gelb (P1) 12 SP, Lila (P2) 9 SP"
    assert render.translate_event("the carriage moves to 3.4.", "de") == "Die Kutsche bewegt sich nach 3.4."


def test_every_log_line_of_a_game_is_translated(played):
    final = [s for s, p, o, la in played if p is None]
    assert final
    for s in final:
        for line in s.observation(0)["log"]:
            for lang in ("fr", "de"):
                assert render.translate_event(line, lang) != line, (lang, line)


def test_clickable_board_elements_are_legal_actions(played):
    seen = set()
    for s, p, obs, legal in played:
        if p is None:
            continue
        svg = render.render_svg(obs, "en")
        for action in re.findall(r'data-action="([^"]*)"', svg):
            assert action in legal, (action, obs["phase"], legal)
            seen.add(action.split()[0])
        # another seat (or a spectator) never gets anything to click
        other = s.observation(None)
        assert "data-action" not in render.render_svg(other, "en")
    assert {"hideout", "go"} <= seen and seen & {"n", "e", "s", "w"}, seen


def test_board_legend_names_the_players_as_the_panels_do(played, game):
    s = game.new_game(2, 1, {})
    obs = s.observation(0)
    svg = render.render_svg(obs, "en")
    for p in range(2):
        # the server shows state.player_name beside each seat's name: the board uses the same name
        assert f"{s.player_name(p)}" in svg
        assert f"{s.player_name(p)} (you)" in svg or p != 0
        assert render.SEAT_DOTS[p] in svg and render.COLOURS[p] in svg
    assert f"{obs['vp'][0]} VP" in svg and "Player 1" not in svg
    solo = game.new_game(1, 3, {})
    bid = next(b for b in solo.observation(0)["bcells"] if not b.startswith("villa"))
    solo.solo["rivals"] = {"1": bid}  # a rival thief standing in a location is drawn there
    assert ">R1</text>" in render.render_svg(solo.observation(0), "en")
    end = dict(solo.observation(0), terminal=True, solo_stars=2)  # the solo rating once it is over
    assert "Solo-Wertung: 2 Stern(e) &#9733;&#9733;<" in render.render_svg(end, "de")
    fr = render.render_svg(obs, "fr")
    assert "Jaune (P1) (vous)" in fr and "Violet (P2)" in fr and "PV" in fr


def test_prompt_says_why_in_each_language(played):
    seen = set()
    for s, p, obs, legal in played:
        if obs is None:
            continue
        key = (obs["phase"], bool(obs.get("turn")), bool(obs.get("tmove")))
        if key in seen:
            continue
        seen.add(key)
        texts = {lang: render.prompt(obs, lang) for lang in LANGS}
        for lang, text in texts.items():
            assert text and "phase." not in text and "prompt." not in text and "{" not in text, (lang, text)
        assert texts["fr"] != texts["en"] and texts["de"] != texts["en"], texts
    assert {k[0] for k in seen} >= {"draft", "buy", "hideout", "plan", "action"}
