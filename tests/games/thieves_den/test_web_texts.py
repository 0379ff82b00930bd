"""Thieves Den in the web interface: the prompt, button texts, log lines and card texts in
French and German."""
from __future__ import annotations

import re
import xml.dom.minidom

import pytest

from ..web_texts_helpers import LANGS, random_positions, raw_texts, server_view, web_option_names  # noqa: F401


SLUG = "thieves-den"
from thieves.games.thieves_den import i18n_text as T  # noqa: E402
from thieves.games.thieves_den import render as R  # noqa: E402


@pytest.fixture(scope="module")
def games():
    return random_positions(SLUG, 3, seeds=3, max_plies=1500)


def test_the_prompt_says_the_phase_in_words(games):
    seen, _ = games
    phases = {obs["phase"] for _ph, _p, obs, _a in seen} | {"end"}
    assert {"draft", "thieving"} <= phases
    for ph in phases:
        en, fr, de = (R.prompt({"phase": ph}, lg) for lg in LANGS)
        assert ph not in (en, fr, de) and de != en, (ph, en, fr, de)  # "Maintenance" is French too
    assert R.prompt({"phase": "draft"}, "fr").startswith("Reconnaissance")


def test_describe_action_gives_words_for_every_action_kind(games):
    seen, _ = games
    kinds = {}
    for _ph, _p, obs, acts in seen:
        for a in acts:
            kinds.setdefault(f"{a.split()[0]}/{len(a.split())}", (a, obs))
    assert {"keep/2", "loc/2", "pass/1", "sell/2", "witch/2", "steal/2", "recruit/3"} <= set(kinds)
    obs = seen[-1][2]
    for a in ["give 2", "return F01", "swap L01 L02", "move L01 L02", "rob 2", "rob 2 jewel", "recall L05",
              "discard book", "pay potion", "take fossil", "done", "steal"]:
        kinds.setdefault(f"{a.split()[0]}/{len(a.split())}", (a, obs))
    for kind, (a, o) in kinds.items():
        en, fr, de = (R.describe_action(a, o, lg) for lg in LANGS)
        assert fr != a and de != a and en != a, (kind, a)
        assert fr != en and de != en, (kind, a, fr, de)
    assert R.describe_action("rob 2", obs, "fr") == "Cibler Player 2"   # the server puts the seat name in


def test_translate_event_turns_each_english_pattern_into_french_and_german(games):
    for _p, texts in T.EVENTS:
        assert set(texts) == {"fr", "de"}
    _, lines = games
    lines = set(lines)
    assert len(lines) > 50
    missing = [ln for ln in lines if R.translate_event(ln, "fr") == ln or R.translate_event(ln, "de") == ln]
    assert not missing, missing[:5]
    assert R.translate_event("Player 2 takes 1 jewel.", "fr") == "Player 2 prend 1 bijou."
    assert R.translate_event("You keep Bank (L53).", "de").startswith("Du behältst ")
    assert R.translate_event("Player 1 passes.", "en") == "Player 1 passes."


def _texts_of(svg):
    return [t for t in re.findall(r"<text[^>]*>([^<]*)</text>", svg)]


def test_card_texts_are_wrapped_not_cut_off(games):
    seen, _ = games
    obs = next(o for _ph, _p, o, _a in seen if o.get("hand"))
    loc = R._data().locations[obs["hand"][0]]
    for lg in LANGS:
        svg = R.render_svg(obs, lg)
        xml.dom.minidom.parseString(svg)
        drawn = " ".join(_texts_of(svg))
        words = T.ability_text(loc.ability, lg).split()
        assert all(w in drawn for w in words), (lg, words)   # every word of the ability is drawn
        for tile in obs["powers"]:
            if tile["tile"]:
                assert R._data().powers[tile["tile"]].text.split()[-1] in drawn or lg != "en"
        # no line is longer than a card can hold (154 px at 9 px per line: about 29 characters)
        assert max(len(t) for t in _texts_of(svg) if t and not t.startswith(("Player", ">"))) < 120
    fr = R.render_svg(obs, "fr")
    assert "Player 1" in fr and "(passed)" not in fr and "clockwise" not in fr
    for tile in obs["powers"]:                       # power tiles in French, not the English text
        if tile["tile"]:
            english = R._data().powers[tile["tile"]].text
            assert english.split()[-1] not in fr or english.split()[-1] in R._t("fr", "power_text." + tile["tile"])
            assert R._t("fr", "power_text." + tile["tile"]).split()[0] in fr


@pytest.mark.parametrize("lang", ["fr", "de"])
def test_server_view_in_french_and_german(tmp_path, lang):
    v, lobby = server_view(tmp_path, SLUG, 3, lang)
    assert v["prompt"] != "draft" and v["prompt"] == R.prompt({"phase": "draft"}, lang)
    assert v["legal"] and all(a["text"] != a["action"] for a in v["legal"])
    assert "Alice" in v["svg"] and "Player 1" not in v["svg"]
    english = ("takes the direction tile", "scouting", "You are dealt")
    assert v["log"] and not any(e in line for e in english for line in v["log"])


def test_lobby_name_and_option_labels_in_french():
    texts = raw_texts(SLUG)
    assert texts["fr"].get("name") == "Les Voleurs d'Amarynth"
    for o in web_option_names(SLUG):
        assert texts["fr"].get(f"option.{o}")
