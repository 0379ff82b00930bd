"""Thieves Den at the table: the two-click choices of Relocate and Switch (docs/engine.md,
"Gestures"), their texts in three languages, and a rival's hidden cards in the drawing."""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from .helpers import GAME, give, place, play, thieving
from .test_powers import with_power

NS = "{http://www.w3.org/2000/svg}"
LANGS = ("en", "fr", "de")


def _svg(s, p: int, lang: str = "en", layout: str = "wide") -> str:
    obs = {k: v for k, v in s.observation(p).items() if k != "log"}
    obs["recent"] = []
    return GAME.presentation(p, ["Ann", "Bob", "Cy"], lang, layout=layout).svg(obs)


def _two_click(svg: str) -> tuple[dict[str, bool], dict[str, str]]:
    """The pickers (key: whether picked at first) and the targets (action: the picker key
    it needs)."""
    root = ET.fromstring(svg)
    pickers = {g.get("data-pick"): g.get("data-pick-default") == "1" for g in root.iter(NS + "g")
               if g.get("data-pick")}
    targets = {g.get("data-action"): g.get("data-needs") for g in root.iter(NS + "g")
               if g.get("data-needs")}
    return pickers, targets


def _relocating():
    """Player 2 pays for Relocate with thieves on two cards and several empty ones."""
    s = thieving(3, seed=4)
    with_power(s, "P09")
    deck = list(s.loc_deck)
    for p, cards in ((0, deck[0:2]), (1, deck[2:4]), (2, deck[4:6])):
        for c in cards:
            place(s, p, c)
    for p, c in ((0, deck[2]), (1, deck[4])):   # a thief of Player 1 and one of Player 2
        s.thieves[p] -= 1
        s.loc_thieves[c] = 1
    s.turn = 1
    give(s, 1, jewel=1)
    play(s, 1, "power 1 jewel")
    return s


def _switching():
    s = thieving(3, seed=4)
    with_power(s, "P10")
    deck = list(s.loc_deck)
    for p, cards in ((0, deck[0:2]), (1, deck[2:5]), (2, deck[5:7])):
        for c in cards:
            place(s, p, c)
    s.turn = 1
    give(s, 1, book=1)
    play(s, 1, "power 1 book")
    return s


@pytest.mark.parametrize("make,verb", [(_relocating, "move"), (_switching, "swap")])
@pytest.mark.parametrize("layout", ["wide", "narrow"])
def test_relocate_and_switch_are_two_clicks_covering_exactly_the_legal_actions(make, verb, layout):
    s = make()
    legal = s.legal_actions(1)
    assert legal and all(a.startswith(verb + " ") for a in legal)
    pickers, targets = _two_click(_svg(s, 1, layout=layout))
    assert set(targets) == set(legal), "one target per legal action, nothing else"
    for action, key in targets.items():
        _, source, _ = action.split()
        assert key == f"{verb}:{source}" and key in pickers
    assert set(pickers) == {f"{verb}:{a.split()[1]}" for a in legal}
    assert sum(pickers.values()) == 1, "one source is picked at first"
    svg = _svg(s, 1, layout=layout)
    assert not re.search(rf'data-action="{verb} [^"]*"(?![^>]*data-needs)', svg), "no one-click shortcut"


def test_relocate_picks_your_own_thief_first_and_switch_your_first_card():
    s = _relocating()
    pickers, _ = _two_click(_svg(s, 1))
    mine = [c for c in s.above[1] if s.loc_thieves.get(c)]
    assert mine and pickers[f"move:{mine[0]}"]
    s = _switching()
    pickers, _ = _two_click(_svg(s, 1))
    assert pickers[f"swap:{s.above[1][0]}"]


def test_a_single_source_is_picked_at_first():
    s = _switching()
    s.above[1] = s.above[1][:1]
    s._legal_cache = None
    pickers, _ = _two_click(_svg(s, 1))
    assert list(pickers.values()) == [True]


@pytest.mark.parametrize("lang", LANGS)
def test_pickers_and_targets_say_what_they_do_in_three_languages(lang):
    words = {"en": ("Move the thief", "Exchange your"), "fr": ("Déplacer le voleur", "Échanger votre"),
             "de": ("Dieb", "tauschen")}[lang]
    for make, word in ((_relocating, words[0]), (_switching, words[1])):
        s = make()
        root = ET.fromstring(_svg(s, 1, lang))
        names = {c.id: GAME.presentation(1, None, lang).term("loc", c.id) for c in s.data.locations.values()}
        for g in root.iter(NS + "g"):
            if g.get("data-pick") or g.get("data-needs"):
                label = g.get("aria-label") or ""
                assert word in label or (g.get("data-needs") and label), (lang, label)
                assert not re.search(r"\bL\d\d\b|\{", label), label
                card = (g.get("data-pick") or g.get("data-action")).split(":")[-1].split()[-1]
                assert names[card] in label, (label, names[card])


def test_no_rivals_hidden_card_leaves_a_trace_in_your_drawing():
    """The hands, the picks, the schemes and the collected piles of the others: their
    ids and names appear nowhere in your drawing, in either layout."""
    s = GAME.new_game(3, 8)
    s.apply_action(1, s.legal_actions(1)[0])     # Player 2 has picked (hidden until all have)
    for layout in ("wide", "narrow"):
        svg = _svg(s, 0, layout=layout)
        pres = GAME.presentation(0, None, "en")
        hidden = set(s.hands[1]) | set(s.hands[2]) | {s.picks[1]}
        mine = set(s.hands[0])
        for c in hidden - mine:
            assert c not in svg and pres.term("loc", c) not in svg, (layout, c)
        for q in (1, 2):
            scheme = pres._scheme(s.scheme[q])
            assert scheme not in svg or scheme == pres._scheme(s.scheme[0])
        assert pres._scheme(s.scheme[0]) in svg


def test_recruit_is_offered_by_pairs_with_their_reason_when_no_thief_comes():
    """Rulebook "Recruter un Voleur": 2 treasures for 1 thief; a recruit that brings none
    says why on its target (the Forest is empty, or the den is full)."""
    s = thieving(3)
    give(s, 0, fossil=2)
    s.forest, s.thieves[2] = 0, s.thieves[2] + s.forest
    s._legal_cache = None
    for lang, word in (("en", "Forest is empty"), ("fr", "Forêt est vide"), ("de", "Wald ist leer")):
        svg = _svg(s, 0, lang)
        label = re.search(r'data-action="recruit fossil fossil"[^>]*aria-label="([^"]*)"', svg)
        assert label and word in label.group(1), lang


@pytest.mark.parametrize("lang,word", [("en", "Forest is empty"), ("fr", "Forêt est vide"),
                                       ("de", "Wald ist leer")])
def test_a_gain_of_no_thief_says_why_in_the_log(lang, word):
    """"Limite de la Réserve": a gain the Forest cannot give is not gained; the log
    once read "Ann takes 0 thieves from the Forest"."""
    pres = GAME.presentation(0, ["Ann", "Bob", "Cy"], lang)
    for key in ("forest", "thieves"):
        none, one = pres.log([{"key": key, "args": {"player": 0, "n": 0}},
                              {"key": key, "args": {"player": 0, "n": 1}}])
        assert word in none and "0" not in none, none
        assert "1" in one and word not in one, one
