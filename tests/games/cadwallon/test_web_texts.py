"""Cadwallon in the web interface: name, summary, options and phases in French and German,
seat names on the board, deploying by clicking the board, room names in full."""
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
    lines = {ln for ln in lines if not ln.startswith("Event: ")}   # adventure event texts stay English
    assert len(lines) > 50
    missing = [ln for ln in lines if R.translate_event(ln, "fr") == ln or R.translate_event(ln, "de") == ln]
    assert not missing, missing[:5]
    assert R.translate_event("Player 2 ends the turn.", "fr") == "Player 2 termine son tour."
    assert R.translate_event("Player 1 takes The Cursed Ones.", "de") == "Player 1 nimmt Die Verfluchten."
