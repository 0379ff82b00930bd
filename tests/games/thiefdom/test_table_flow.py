"""The table's flow: a purchase is a card, then the thief who takes it (two
clicks); no card text is ever cut; every prompt of a decision says what to do."""
from __future__ import annotations

import html
import random
import re

from thieves.core.registry import load_game
from thieves.core.texts import LANGS

GAME = load_game("thiefdom")
#: a word that asks the player to do something, per language
DO = {"en": re.compile(r"\b(click|choose|keep|pass|trade|buy|move)\b", re.I),
      "fr": re.compile(r"\b(cliquez|choisissez|gardez|passez|échangez|achetez|déplacez)\b", re.I),
      "de": re.compile(r"\b(klicke|wähle|behalte|gib|tausche|kaufe|verschiebe)\b", re.I)}


def _svg(obs, lang="en", layout="wide"):
    return GAME.presentation(obs["viewer"], None, lang, layout=layout).svg(obs)


def _at_buy(n: int = 3, seed: int = 5):
    s = GAME.new_game(n, seed, {})
    while s.phase == "draft":
        p = s.players_to_act()[0]
        s.apply_action(p, s.legal_actions(p)[0])
    assert s.phase == "buy"
    return s


def test_a_purchase_is_a_card_then_the_thief_who_takes_it():
    s = _at_buy()
    p = s.players_to_act()[0]
    legal = [a for a in s.legal_actions(p) if a.startswith("buy ")]
    assert legal
    for layout in ("wide", "narrow"):
        svg = _svg(s.observation(p), "fr", layout)
        picks = dict(re.findall(r'data-pick="([^"]*)"[^>]*data-ref="([^"]*)"', svg))
        assert picks, "the kept cards are pickers"
        targets = re.findall(r'<g class="taker clickable" data-action="([^"]*)"[^>]*data-needs="([^"]*)"', svg)
        assert {a for a, _ in targets} == set(legal)
        for a, key in targets:   # each thief target needs the picker of its own card
            assert picks[key] == a.split()[1]
        assert "pour le voleur" not in svg   # no row of "for thief n" buttons any more


def test_no_card_text_is_cut():
    rnd = random.Random(3)
    s = GAME.new_game(3, 8, {})
    shown = 0
    for _ in range(400):
        if s.is_terminal():
            break
        p = s.players_to_act()[0]
        if rnd.random() < 0.1:
            for lang in LANGS:
                for layout in ("wide", "narrow"):
                    texts = re.findall(r"<text[^>]*>([^<]*)</text>", _svg(s.observation(p), lang, layout))
                    assert not [t for t in texts if t.endswith("…")], (lang, layout)
                    shown += 1
        acts = s.legal_actions(p)
        s.apply_action(p, rnd.choice(acts))
    assert shown > 30


def test_every_prompt_of_a_decision_says_what_to_do_in_three_languages():
    seen = set()
    rnd = random.Random(9)
    s = GAME.new_game(3, 9, {})
    for _ in range(600):
        if s.is_terminal():
            break
        p = s.players_to_act()[0]
        obs = s.observation(p)
        tu = obs.get("turn") or {}
        kind = (obs["phase"], bool(obs.get("tmove")), (tu.get("sub") or {}).get("kind"), tu.get("moving"),
                "use" in obs["legal"], "move" in obs["legal"])
        if kind not in seen:
            seen.add(kind)
            for lang in LANGS:
                text = html.unescape(GAME.presentation(p, None, lang).prompt(obs) or "")
                assert DO[lang].search(text), (lang, kind, text)
        acts = s.legal_actions(p)
        pref = [a for a in acts if a.split()[0] in ("move", "use", "n", "e", "s", "w", "exit", "rob")]
        s.apply_action(p, rnd.choice(pref if pref and rnd.random() < 0.6 else acts))
    assert len(seen) > 8
