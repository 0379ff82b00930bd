"""Age of Thieves in the web interface: phase texts, button texts and log lines in French
and German (i18n keys the server reads, describe_action, translate_event)."""
from __future__ import annotations

import pytest

from ..web_texts_helpers import LANGS, random_positions, raw_texts, server_view, web_option_names  # noqa: F401


SLUG = "age-of-thieves"
from thieves.games.age_of_thieves import i18n_text as T  # noqa: E402
from thieves.games.age_of_thieves import render as R  # noqa: E402


@pytest.fixture(scope="module")
def games():
    return random_positions(SLUG, 3, seeds=4, max_plies=700)


def test_every_key_the_server_reads_exists_in_three_languages(games):
    texts = raw_texts(SLUG)
    seen, _ = games
    phases = {obs["phase"] for _ph, _p, obs, _a in seen} | {"draw", "cleanup", "over"}
    assert {"event", "plan", "exec"} <= phases
    keys = ["name", "summary"] + [f"phase.{p}" for p in phases]
    for lang in LANGS:
        for k in keys:
            assert texts[lang].get(k), (lang, k)
    for p in phases:
        assert texts["fr"][f"phase.{p}"] != p and texts["de"][f"phase.{p}"] != p
    assert texts["fr"]["phase.event"] != texts["en"]["phase.event"]


def test_describe_action_gives_words_for_every_action_kind(games):
    seen, _ = games
    kinds = {}
    for _ph, _p, obs, acts in seen:
        for a in acts:
            kinds.setdefault(a.split()[0], (a, obs))
    assert {"start", "jewel", "plan", "ap", "done", "to", "sneak", "stop"} <= set(kinds)
    rare = {"place": "place E20", "take": "take yellow", "discard": "discard beacon", "lose": "lose trinket",
            "special": "special cloak", "add": "add informer", "next": "next", "sprint": "sprint",
            "cleverness": "cleverness", "cunning": "cunning", "play": "play beacon", "decline": "decline move",
            "sewer": "sewer S17", "steal": "steal 2 green", "know": "know", "leave": "leave S-ship1",
            "guard": "guard g4", "thief": "thief 2", "at": "at E30", "token": "token 2 informer",
            "nothing": "nothing", "gstep": "gstep E31", "gstop": "gstop", "assign": "assign g1>E30 g2>E12",
            "first": "first g3"}
    obs = seen[-1][2]
    for kind, a in rare.items():
        kinds.setdefault(kind, (a, obs))
    for kind, (a, o) in kinds.items():
        en, fr, de = (R.describe_action(a, o, lg) for lg in LANGS)
        assert fr != a and de != a and en != a, (kind, a)
        assert fr != en and de != en, (kind, a, fr, de)
    assert R.describe_action("jewel N1", {}, "fr") == "Poser le nouveau joyau jaune sur N1"
    assert R.describe_action("start E25", {}, "de") == "Auf E25 beginnen"


def test_translate_event_turns_each_english_pattern_into_french_and_german(games):
    for _p, texts, _how in T.EVENTS:
        assert set(texts) == {"fr", "de"}
    _, lines = games
    lines = set(lines)
    assert len(lines) > 50
    missing = [ln for ln in lines if R.translate_event(ln, "fr") == ln or R.translate_event(ln, "de") == ln]
    assert not missing, missing[:5]
    # English words left in the French lines are only names and notation
    for ln in lines:
        fr = R.translate_event(ln, "fr")
        assert not any(w in fr.split() for w in ("the", "and", "draws", "reveals", "planned")), fr
    assert R.translate_event("You draw Smoke Grenade.", "fr") == "Vous piochez Grenade fumigène." \
        or R.translate_event("You draw Smoke Grenade.", "fr").startswith("Vous piochez ")
    assert R.translate_event("Round 2: event Black Market (compass E).", "de").startswith("Runde 2: Ereignis ")


@pytest.mark.parametrize("lang", ["fr", "de"])
def test_server_view_in_french_and_german(tmp_path, lang):
    v, lobby = server_view(tmp_path, SLUG, 3, lang)
    texts = raw_texts(SLUG)[lang]
    assert v["game_name"] == texts["name"] and v["prompt"] == texts["phase.event"]
    assert v["legal"] and all(a["text"] != a["action"] for a in v["legal"])
    start = {"fr": "devient premier joueur", "de": "ist Startspieler"}[lang]
    assert any(start in line for line in v["log"]) and not any("rolled highest" in ln for ln in v["log"])
