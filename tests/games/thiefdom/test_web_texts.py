"""Thiefdom's words and drawings for people: structured events with templates in
three languages, action texts, prompts, the board and the secrecy of the plan."""
from __future__ import annotations

import random
import re

import pytest

from thieves.core.registry import load_game
from thieves.core.texts import LANGS
from thieves.server.i18n import game_text
from thieves.testing import check_rendered_texts, check_templates

NAMES = ["Ann", "Bob", "Cy", "Dee"]
PHASES = ("draft", "buy", "hideout", "plan", "action", "over")
# internal ids that must never reach a person: buildings (3Ab), figures (gA, nB),
# thieves (p0t1), squares in the notation (3.11), keys (log.x, ui.x)
RAW_ID = re.compile(r"\b(\d[AB][a-g]|[gn][A-D]|p\dt\d|\d+\.\d+|villa\d|art\d|(?:log|ui|do|prompt|effect)\.\w+)\b")
DOUBLED = re.compile(r"\b(\w+) \1\b", re.IGNORECASE)
ENGLISH = re.compile(r"\b(thief|guard|carriage|the|moves|robs|turn|their|goods|patrol|VP|Night|Slot)\b")


@pytest.fixture(scope="module")
def game():
    return load_game("thiefdom")


def _play(game, n: int, seed: int, steps: int):
    """Positions of a random game that prefers moving and robbing: (state, actor)."""
    s = game.new_game(n, seed, {})
    rnd = random.Random(seed)
    for _ in range(steps):
        if s.is_terminal():
            break
        p = s.players_to_act()[0]
        yield s, p
        acts = s.legal_actions(p)
        pref = [a for a in acts if a.split()[0] in ("move", "use", "rob", "n", "e", "s", "w", "go", "exit")]
        s.apply_action(p, rnd.choice(pref if pref and rnd.random() < 0.7 else acts))
    yield s, None


@pytest.fixture(scope="module")
def played(game):
    """Two random games (solo and 3 players) with the actor's observation and legal actions."""
    out = []
    for n, seed in ((1, 3), (3, 5)):
        for s, p in _play(game, n, seed, 700):
            out.append((s, p, s.observation(p) if p is not None else None,
                        s.legal_actions(p) if p is not None else None))
    return out


def test_every_event_key_has_templates_in_three_languages():
    check_templates("thiefdom")


@pytest.mark.parametrize("n,seeds", [(1, [1]), (2, [2]), (4, [3])])
def test_every_event_renders_strictly_in_french_and_german(n, seeds):
    assert check_rendered_texts("thiefdom", n, seeds) > 100


def test_every_key_the_server_reads_exists_in_every_language(game):
    keys = ["name", "summary", "rules"] + [f"phase.{ph}" for ph in PHASES]
    for opt in game.options:
        keys += [f"option.{opt.name}", f"option.{opt.name}.help"]
    t = game.texts().table
    for lang in LANGS:
        for key in keys:
            assert t[lang].get(key), (lang, key)
            assert game_text("thiefdom", lang, key) == t[lang][key]
    for opt in game.options:
        key = f"option.{opt.name}"
        assert t["fr"][key] != t["en"][key] and t["de"][key] != t["en"][key], key
    assert set(t["en"]) == set(t["fr"]) == set(t["de"])
    # the rules summary in three languages, with headings
    for lang in LANGS:
        rules = game.presentation(0, NAMES[:2], lang).rules()
        assert rules.count("# ") >= 4 and len(rules) > 1000, lang


def test_every_action_offered_in_play_has_words_in_each_language(game, played):
    pres = {lang: game.presentation(None, NAMES, lang) for lang in LANGS}
    kinds = set()
    for s, p, obs, legal in played:
        if p is None:
            continue
        for a in legal:
            texts = {}
            for lang in LANGS:
                pres[lang].viewer = p
                texts[lang] = pres[lang].action_text(obs, a)
                assert texts[lang] and "{" not in texts[lang] and not RAW_ID.search(texts[lang]), (lang, a, texts)
                assert not DOUBLED.search(texts[lang]), (lang, a, texts)  # "Aller vers vers le nord"
            kinds.add(a.split()[0])
            if a.split()[0] not in ("ally", "brawl"):  # a client's name reads the same
                assert texts["fr"] != texts["en"] and texts["de"] != texts["en"], (a, texts)
    assert {"plan", "keep", "buy", "hideout", "move", "n", "end", "use", "done"} <= kinds, kinds


def test_action_texts_name_squares_buildings_and_tiles(game, played):
    s, p, obs, legal = next((s, p, o, la) for s, p, o, la in played if o and o["phase"] == "plan")
    fr = game.presentation(p, NAMES, "fr")
    de = game.presentation(p, NAMES, "de")
    assert fr.action_text(obs, "plan P").startswith("Case 1 : plateau de patrouille")
    assert de.action_text(obs, "plan 2") == "Feld 1: Dieb 2"
    w = obs["city"]["w"]
    assert de.action_text(obs, f"exit 3.{w - 1}") == f"Hinaus auf D{w}"
    bid = next(b for b, (ty, _c) in obs["buildings"].items() if ty == "tower")
    assert "Tour " in fr.action_text(obs, f"hideout {bid}")
    assert de.action_text(obs, "crossbow gA").startswith("Armbrust auf Wache A")


def test_prompts_say_why_once_in_each_language(game, played):
    seen = set()
    for s, p, obs, legal in played:
        if obs is None:
            continue
        tu = obs.get("turn") or {}
        key = (obs["phase"], bool(tu), bool(obs.get("tmove")), (tu.get("sub") or {}).get("kind"), tu.get("moving"))
        if key in seen:
            continue
        seen.add(key)
        texts = {lang: game.presentation(p, NAMES, lang).prompt(obs) for lang in LANGS}
        for lang, text in texts.items():
            assert text and "{" not in text and not RAW_ID.search(text), (lang, text)
            for word in ("Night", "Nuit", "Nacht"):  # never "Night 1/6 - Night 1/6"
                assert text.count(word) <= 1, text
            assert not DOUBLED.search(text) and not re.search(r"\b1 (points|Bewegungspunkte|moves)\b", text), text
        assert texts["fr"] != texts["en"] and texts["de"] != texts["en"], texts
        assert not ENGLISH.search(texts["de"]), texts
    assert {k[0] for k in seen} >= {"draft", "buy", "hideout", "plan", "action"}


def test_thief_moves_and_exits_are_in_everyones_log(game):
    s = game.new_game(2, 4, {})
    rnd = random.Random(4)
    moves = 0
    while not s.is_terminal() and moves < 12:
        p = s.players_to_act()[0]
        acts = s.legal_actions(p)
        steps = [a for a in acts if a in ("n", "e", "s", "w") or a.startswith("exit ")]
        start = len(s.log)
        a = rnd.choice(steps) if steps else rnd.choice([x for x in acts if x != "end"] or acts)
        s.apply_action(p, a)
        if a in steps:
            moves += 1
            keys = [e["key"] for e in s.log[start:]]
            assert {"step", "exit", "enter"} & set(keys), (a, keys)
            other = 1 - p
            lines = game.presentation(other, NAMES[:2], "de").log(s.visible_events(other, start))
            assert any(re.search(r"\b[A-N]\d{1,2}\b", line) or "betritt" in line for line in lines), lines
    assert moves == 12


def test_the_planned_order_never_reaches_another_seat(game):
    """Seat 0's order, half laid or whole, changes nothing that seat 1 or a spectator
    sees: observation, log lines and board are identical whatever the order."""
    def views(order: str, laid: int):
        s = game.new_game(2, 6, {})
        while s.phase != "plan":
            p = s.players_to_act()[0]
            acts = s.legal_actions(p)
            s.apply_action(p, "done" if "done" in acts else acts[0])
        for tile in order[:laid]:
            s.apply_action(0, f"plan {tile}")
        out = []
        for viewer in (1, None):
            obs = s.observation(viewer)
            pres = game.presentation(viewer, NAMES[:2], "en")
            out.append((obs, pres.log(s.visible_events(viewer)), pres.svg(obs)))
        return out, s
    for laid in (1, 2, 3):
        a, sa = views("3P21", laid)
        b, sb = views("12P3", laid)
        assert a == b, laid
    # the planner sees its own tiles in their slots
    _, s = views("3P21", 3)
    assert s.plans[0] == "3P21"
    obs = s.observation(0)
    svg = game.presentation(0, NAMES[:2], "en").svg(obs)
    assert svg.index(">thief 3<") < svg.index(">patrol board<") < svg.index(">thief 2<")


def test_board_readable_named_and_in_seat_colours(game, played):
    from thieves.core.svg import seat_color
    checked = 0
    for s, p, obs, legal in played[::25]:
        if obs is None:
            continue
        for lang in LANGS:
            svg = game.presentation(p, NAMES, lang).svg(obs)
            sizes = [float(x) for x in re.findall(r'font-size="([\d.]+)"', svg)]
            assert sizes and min(sizes) >= 12, min(sizes)
            texts = re.findall(r">([^<>]+)</text>", svg)
            assert not [t for t in texts if RAW_ID.search(t)], [t for t in texts if RAW_ID.search(t)][:5]
            for q in range(s.num_players):
                assert NAMES[q] in svg and seat_color(q) in svg
            assert "Yellow (P1)" not in svg and "Player 1" not in svg
            checked += 1
    assert checked > 20
    # the seat names are the core's: the game has no name of its own for a seat
    s = game.new_game(2, 1, {})
    assert s.player_name(0) == "Player 1"


def test_cards_show_their_effects(game):
    s = game.new_game(2, 2, {})
    obs = s.observation(0)
    e = obs["draft"]["hand"][0].split(".")[0]
    for lang in LANGS:
        pres = game.presentation(0, NAMES[:2], lang)
        svg = pres.svg(obs)
        assert pres.card_name(e) in svg
        first_words = " ".join(pres.t(f"effect.{e}").split()[:2])
        assert first_words in svg, (lang, first_words)
        assert f'data-action="keep {e}"' in svg
