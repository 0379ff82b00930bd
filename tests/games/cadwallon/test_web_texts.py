"""Cadwallon in the web interface: name, summary, options and phases in French and German,
seat names on the board, deploying by clicking the board, room names in full; adventure
events, talents, arcana, missions, adventures and treasures named in every language."""
from __future__ import annotations

import re

import pytest

from thieves.core.registry import load_game

from ..web_texts_helpers import LANGS, random_positions, raw_texts, server_view, web_option_names  # noqa: F401


SLUG = "cadwallon"
from thieves.games.cadwallon import render as R  # noqa: E402


def _deploy_state(players=2, seed=1):
    s = load_game(SLUG).new_game(players, seed, {})
    while s.phase != "deploy":
        p = s.players_to_act()[0]
        s.apply_action(p, s.legal_actions(p)[0])
    return s


def test_every_key_the_server_reads_exists_in_three_languages():
    texts = raw_texts(SLUG)
    seen, _ = random_positions(SLUG, 2, seeds=2, max_plies=300)
    phases = {obs["phase"] for _ph, _p, obs, _a in seen} | {"over"}
    assert {"deploy", "main"} <= phases
    g = load_game(SLUG)
    keys = ["name", "summary"] + [f"phase.{p}" for p in phases]
    for o in g.all_options():
        if o.name == "data_dir":
            continue
        keys += [f"option.{o.name}", f"option.{o.name}.help"]
        keys += [f"option.{o.name}.{c}" for c in o.choices or [] if isinstance(c, str)]
    for z in R._data().board.zones:
        if z.name:
            keys.append(f"room_{z.id}")
    for lang in LANGS:
        for k in keys:
            assert texts[lang].get(k), (lang, k)
    for k in keys:
        if k.startswith(("phase.", "summary", "option.")) and not k.endswith(".random"):
            assert texts["fr"][k] != texts["en"][k] and texts["de"][k] != texts["en"][k], k
    assert texts["fr"]["name"] == "Cadwallon : la Cité des Voleurs"


def test_the_board_names_seats_player_n_and_never_p1():
    s = _deploy_state()
    for lang in LANGS:
        svg = R.render_svg(s.observation(0), lang)
        assert "Player 1: " in svg and not re.search(r"\bP1\b", svg)


def test_deploying_can_be_done_by_clicking_the_board():
    s = _deploy_state()
    p = s.players_to_act()[0]
    svg = R.render_svg(s.observation(p), "fr")
    clickable = set(re.findall(r'data-action="([^"]+)"', svg))
    assert set(s.legal_actions(p)) <= clickable          # the characters to deploy
    s.apply_action(p, s.legal_actions(p)[0])
    svg = R.render_svg(s.observation(p), "de")
    clickable = set(re.findall(r'data-action="([^"]+)"', svg))
    assert set(s.legal_actions(p)) <= clickable          # the free deployment zones
    assert all(a.startswith("at ") for a in s.legal_actions(p))
    assert "Aufstellungszone" in svg


def test_room_names_are_drawn_whole_in_every_language():
    s = _deploy_state()
    texts = raw_texts(SLUG)
    for lang in LANGS:
        svg = R.render_svg(s.observation(0), lang)
        drawn = " ".join(re.findall(r">([^<]*)</text>", svg)).replace("&#x27;", "'")
        for z in R._data().board.zones:
            if z.name:
                assert all(w in drawn for w in texts[lang][f"room_{z.id}"].split()), (lang, z.id)


@pytest.mark.parametrize("lang", ["fr", "de"])
def test_server_view_in_french_and_german(tmp_path, lang):
    v, lobby = server_view(tmp_path, SLUG, 2, lang)
    texts = raw_texts(SLUG)[lang]
    assert v["game_name"] == texts["name"] and lobby["name"] == texts["name"]
    assert lobby["summary"] == texts["summary"]
    assert all(o["label"] == texts[f"option.{o['name']}"] for o in lobby["options"])
    assert v["prompt"] == texts[f"phase.{v['observation']['phase']}"]
    assert "Alice" in v["svg"] and "Player 1" not in v["svg"]


def test_describe_action_gives_words_for_every_action_kind():
    seen, _ = random_positions(SLUG, 3, seeds=3, max_plies=900)
    kinds = {}
    for _ph, _p, obs, acts in seen:
        for a in acts:
            kinds.setdefault(a.split()[0], (a, obs))
    assert {"gang", "deploy", "at", "act", "move", "end"} <= set(kinds)
    for kind, (a, obs) in kinds.items():
        fr, de = R.describe_action(a, obs, "fr"), R.describe_action(a, obs, "de")
        assert fr != a and de != a and fr != de, (kind, a, fr, de)


def test_translate_event_turns_each_english_pattern_into_french_and_german():
    from thieves.games.cadwallon import i18n_text as T
    for _p, texts in T.EVENTS:
        assert set(texts) == {"fr", "de"}
    _, lines = random_positions(SLUG, 3, seeds=3, max_plies=900)
    assert len(lines) > 50
    missing = [ln for ln in lines if R.translate_event(ln, "fr") == ln or R.translate_event(ln, "de") == ln]
    assert not missing, missing[:5]
    assert R.translate_event("Player 2 ends the turn.", "fr") == "Player 2 termine son tour."
    assert R.translate_event("Player 1 takes The Cursed Ones.", "de") == "Player 1 nimmt Die Verfluchten."


# ------------------------------------------------------------------ names and adventure events
def _names_by_kind():
    """(i18n key, English name) for every talent, arcana card, mission and adventure."""
    d = R._data()
    return {
        "talent": [(f"talent_{t.id}", t.name) for t in d.characters.talents],
        "arcana": [(f"arcana_{c.kind}", c.name) for c in d.arcana.cards],
        "mission": [(f"mission_{m.id}", m.name) for m in d.missions.missions],
        "adventure": [(f"adv_{a.id}", a.name) for a in d.adventures.adventures]
                     + [(f"option.adventure.{a.id}", a.name) for a in d.adventures.adventures],
        "treasure": [(f"treasure_{t.id}", t.name) for t in d.treasures.types],
    }


def test_every_event_text_of_every_adventure_has_french_and_german():
    texts = raw_texts(SLUG)
    n = 0
    for a in R._data().adventures.adventures:
        for e in a.events:
            key = f"event_{a.id}_{e.round}"
            assert texts["en"].get(key) == e.text, key            # the English key says what the data says
            for lang in ("fr", "de"):
                assert texts[lang].get(key) and texts[lang][key] != e.text, (lang, key)
                line = R.translate_event(f"Event: {e.text}", lang)
                assert line.endswith(texts[lang][key]) and e.text not in line, (lang, line)
            n += 1
    assert n == sum(len(a.events) for a in R._data().adventures.adventures) > 8
    assert R.translate_event("Event: The alarm sounds.", "fr") == "Événement : L'alarme retentit."
    assert R.translate_event("Event: More gates close.", "de") == "Ereignis: Weitere Tore schließen sich."
    assert (R.translate_event("Player 2 completes The lost grimoire for 12 ducats.", "fr")
            == "Player 2 remplit la mission « Le grimoire perdu » pour 12 ducats.")
    assert (R.translate_event("Player 1 fails the Spirit test of Ransom note (6).", "de")
            == "Player 1 besteht die Geistprobe der Mission „Lösegeldforderung“ nicht (6).")


@pytest.mark.parametrize("kind", ["talent", "arcana", "mission", "adventure", "treasure"])
def test_every_name_has_french_and_german_texts(kind):
    texts = raw_texts(SLUG)
    pairs = _names_by_kind()[kind]
    assert pairs
    for key, name in pairs:
        assert texts["en"].get(key) == name, key
        for lang in ("fr", "de"):
            assert texts[lang].get(key), (lang, key)
            # "Bracelet" is the same word in French
            if not (kind == "treasure" and lang == "fr" and name == "Bracelet"):
                assert texts[lang][key] != name, (lang, key)
    for lang in ("fr", "de"):                   # two things never share a name
        assert len({texts[lang][k] for k, _ in pairs if not k.startswith("option.")}) == \
            len([k for k, _ in pairs if not k.startswith("option.")]), (kind, lang)


def _english_names(lang):
    """English names whose text in ``lang`` differs: none may stay in a translated line."""
    texts = raw_texts(SLUG)
    out = set()
    for pairs in _names_by_kind().values():
        for key, name in pairs:
            if texts[lang][key] != name:
                out.add(name)
    return out


ADVENTURES = [a.id for a in R._data().adventures.adventures]


@pytest.mark.parametrize("adventure", ADVENTURES)
def test_translate_event_leaves_no_english_line_in_random_games_of_every_adventure(adventure):
    import random as _random
    g = load_game(SLUG)
    texts = raw_texts(SLUG)
    adv = R._data().adventure[adventure]
    lines, events = set(), set()
    for seed, players in ((0, 2), (1, 3), (2, 4), (3, 2), (4, 3)):
        s = g.new_game(players, seed, {"adventure": adventure})
        rng = _random.Random(seed)
        for _ in range(4000):
            if s.is_terminal():
                break
            p = s.players_to_act()[0]
            s.apply_action(p, rng.choice(s.legal_actions(p)))
        assert s.is_terminal()
        lines |= {text for _to, text in s.log}
        events |= {text for _to, text in s.log if text.startswith("Event: ")}
    # every event of the adventure fired (the games reach the end of the turn track)
    assert events == {f"Event: {e.text}" for e in adv.events if e.text}
    english = {lang: _english_names(lang) for lang in ("fr", "de")}
    for ln in sorted(lines):
        for lang in ("fr", "de"):
            tr = R.translate_event(ln, lang)
            assert tr != ln, (lang, ln)
            left = [n for n in english[lang] if re.search(r"(?<!\w)" + re.escape(n) + r"(?!\w)", tr)]
            assert not left, (lang, ln, tr, left)
    first = next(ln for ln in lines if ln.startswith("Adventure: "))
    for lang in ("fr", "de"):
        assert texts[lang][f"adv_{adventure}"] in R.translate_event(first, lang)


def test_buttons_name_missions_talents_arcana_and_treasures_in_every_language():
    texts = raw_texts(SLUG)
    d = R._data()
    obs = {"missions": ["M09", "M01", None], "active": "N1"}
    for lang in ("fr", "de"):
        tx = texts[lang]
        assert tx["mission_M09"] in R.describe_action("mission 1", obs, lang)
        assert tx["mission_M01"] in R.describe_action("mission 2", obs, lang)
        gang = R.describe_action("gang N", obs, lang)
        assert all(tx["talent_" + c.talent] in gang for c in d.gang["N"].characters), gang
        assert tx["talent_shadow_step"] in R.describe_action("act N1", obs, lang)
        assert tx["talent_shadow_step"] in R.describe_action("deploy N1", obs, lang)
        step = R.describe_action("talent c3", obs, lang)
        sleight = R.describe_action("talent fury", {"active": "N4"}, lang)
        assert tx["talent_shadow_step"] in step and tx["room_c3"] in step
        assert tx["talent_sleight"] in sleight and tx["arcana_fury"] in sleight
        assert R.describe_action("play pickpocket P2", obs, lang) != R.describe_action("play pickpocket P3", obs, lang)
        assert tx["arcana_reinforced_lock"] in R.describe_action("play reinforced_lock c2", obs, lang)
        assert tx["treasure_scroll"] in R.describe_action("take scroll", obs, lang)
        assert tx["treasure_red"] in R.describe_action("drop red c2", obs, lang)
        for a in ("mission 1", "gang N", "act N1", "talent c3", "talent fury", "take scroll", "drop red c2"):
            out = R.describe_action(a, {**obs, "active": "N4"} if a == "talent fury" else obs, lang)
            left = [n for n in _english_names(lang) if re.search(r"(?<!\w)" + re.escape(n) + r"(?!\w)", out)]
            assert not left, (lang, a, out, left)


@pytest.mark.parametrize("adventure", ADVENTURES)
def test_the_board_names_the_adventure_missions_and_hand_in_every_language(adventure):
    texts = raw_texts(SLUG)
    s = load_game(SLUG).new_game(3, 5, {"adventure": adventure})
    obs = s.observation(1)
    assert obs["hand"] and obs["missions"]
    for lang in LANGS:
        tx = texts[lang]
        svg = R.render_svg(obs, lang).replace("&#x27;", "'")
        assert tx[f"adv_{adventure}"] in svg
        assert all(tx[f"mission_{m}"] in svg for m in obs["missions"] if m)
        assert all(tx[f"arcana_{k}"] in svg for k in obs["hand"])
        if lang != "en":
            drawn = " ".join(re.findall(r">([^<]*)<", svg))
            left = [n for n in _english_names(lang) if re.search(r"(?<!\w)" + re.escape(n) + r"(?!\w)", drawn)]
            assert not left, (lang, left)
    spectator = R.render_svg(s.observation(None), "fr")     # a spectator sees no hand
    assert texts["fr"]["hand"] not in spectator
