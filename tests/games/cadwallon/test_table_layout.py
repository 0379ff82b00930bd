"""The Cadwallon table at a player's seat: where you act is beside the district (wide
layout), gestures (activate and move, go and open, a path, a question before the last AP)
whose further steps are legal in order, the two-click pick of a character, texts of the
new parts in three languages, fingers' room on a phone, and a rival's hidden hand that
leaves no trace in the drawing."""
from __future__ import annotations

import json
import random
import re
import xml.etree.ElementTree as ET

from thieves.core.registry import load_game

from ..web_texts_helpers import LANGS

GAME = load_game("cadwallon")
DATA = GAME.data()
NAMES = ["Ann", "Bruno", "Clara", "Dora"]
SVG_NS = "{http://www.w3.org/2000/svg}"


def draw(s, p, lang="en", layout="wide"):
    obs = {k: v for k, v in s.observation(p).items() if k != "log"}
    return GAME.presentation(p, NAMES[:s.num_players], lang, layout=layout).svg(obs)


def main_decisions(n=3, seeds=(1, 2, 3), limit=40):
    """(state, player) at main-phase decisions of random games (the state is a copy)."""
    for seed in seeds:
        s = GAME.new_game(n, seed, {})
        rng = random.Random(seed)
        found = 0
        while not s.is_terminal() and found < limit:
            p = s.players_to_act()[0]
            if s.phase == "main" and not s.queue:
                found += 1
                yield s.clone(), p
            s.apply_action(p, rng.choice(s.legal_actions(p)))


def gestures(svg):
    """(action, then, needs, path, confirm) of every clickable group with further steps."""
    out = []
    for g in ET.fromstring(svg).iter(SVG_NS + "g"):
        if g.get("data-then"):
            out.append((g.get("data-action"), json.loads(g.get("data-then")), g.get("data-needs"),
                        g.get("data-path"), g.get("data-confirm")))
    return out


def test_each_gesture_is_legal_step_by_step_from_the_state():
    kinds = set()
    for s, p in main_decisions():
        svg = draw(s, p)
        picks = set(re.findall(r'data-pick="([^"]+)"', svg))
        for action, then, needs, path, confirm in gestures(svg):
            t = s.clone()
            assert action in t.legal_actions(p)
            t.apply_action(p, action)
            whole = True
            for step in then:                   # each further step legal in order, the same seat
                if p not in t.players_to_act():     # a rival's reaction window: the table stops
                    whole = False
                    break
                assert step in t.legal_actions(p), (action, then, step)
                t.apply_action(p, step)
            assert path and len(path.split()) >= 2            # the way is previewed
            if needs is not None:                             # a second click: its picker is drawn
                assert needs in picks
                kinds.add("act+move")
            else:
                kinds.add("move+" + then[-1].split()[0])
            # the question comes exactly when the gesture spends the last action points
            if whole:
                assert (confirm is not None) == (t.ap[p] == 0), (action, then, confirm, t.ap[p])
                kinds.add("whole")
    assert {"act+move", "move+open", "move+attack", "whole"} <= kinds, kinds


def test_a_move_shows_its_path_and_asks_before_the_last_ap():
    for s, p in main_decisions(seeds=(4,)):
        if s.active is None or not any(a.startswith("move ") for a in s.legal_actions(p)):
            continue
        s.ap[p] = 1   # one action point left: the move spends it
        for lang in LANGS:
            svg = draw(s, p, lang)
            root = ET.fromstring(svg)
            moves = [g for g in root.iter(SVG_NS + "g") if (g.get("data-action") or "").startswith("move ")
                     and "zone" in (g.get("class") or "")]
            assert moves
            question = GAME.texts().get(lang, "ui.confirm_last_ap")
            for g in moves:
                assert len(g.get("data-path").split()) >= 2
                assert g.get("data-confirm") and g.get("data-confirm").split()[0] == question.split()[0]
        return
    raise AssertionError("no active character with a move")


def test_pick_a_character_then_its_zone_and_the_labels_in_three_languages():
    for s, p in main_decisions(seeds=(5,)):
        if s.active is not None:
            continue
        for lang in LANGS:
            svg = draw(s, p, lang)
            root = ET.fromstring(svg)
            pickers = {g.get("data-pick"): g for g in root.iter(SVG_NS + "g") if g.get("data-pick")}
            assert pickers, "each character not yet activated is picked on the district"
            routes = [g for g in root.iter(SVG_NS + "g") if g.get("data-needs")]
            for g in routes:
                c = g.get("data-action").split()[1]
                zone = json.loads(g.get("data-then"))[0].split()[1]
                assert g.get("data-needs") == f"go-{c}"
                label = g.get("aria-label")
                assert DATA.name_of[c] in label and zone in label
                if lang != "en":
                    assert label != GAME.presentation(p, NAMES[:3], "en").t("ui.act_move", char=c, zone=zone)
            # the figure is the picker (not a click that activates it at once), its line in
            # the gang still activates it where it stands
            for key in pickers:
                c = key[3:]
                assert f'data-action="act {c}"' in svg
        return
    raise AssertionError("no turn start")


def test_wide_layout_docks_the_gang_and_the_hand_beside_the_district_and_every_gang_below():
    s, p = next(main_decisions(seeds=(6,)))
    svg = draw(s, p)
    root = ET.fromstring(svg)
    district_right = 12 + 9 * 68
    hand = [g for g in root.iter(SVG_NS + "g") if (g.get("data-pid") or "").startswith("hand-")]
    assert hand
    first = min(float(r.get("y")) for r in hand[0].iter(SVG_NS + "rect"))
    assert all(float(r.get("x")) > district_right for g in hand for r in g.iter(SVG_NS + "rect"))
    assert first < 9 * 68     # the hand starts beside the district, not below it
    # the viewer's gang beside the district (where they act), its characters clickable there
    for c in DATA.gang_chars[s.gangs[p]]:
        assert any(float(r.get("x")) > district_right for g in root.iter(SVG_NS + "g")
                   if g.get("data-action") == f"act {c}" for r in g.iter(SVG_NS + "rect"))
    # every gang, the viewer's too, below the district in seat order (the layer every viewer shares)
    tops = []
    for q in range(s.num_players):
        chip = next(g for g in root.iter(SVG_NS + "g") if g.get("data-pid") == f"char-{DATA.gang_chars[s.gangs[q]][0]}")
        tops.append(float(next(chip.iter(SVG_NS + "rect")).get("y")))
    assert tops == sorted(tops) and tops[0] > 9 * 68
    assert len(re.findall(r'data-pid="([^"]+)"', svg)) == len(set(re.findall(r'data-pid="([^"]+)"', svg)))


def test_phone_targets_have_a_fingers_room():
    """At 420 px the table is scaled about 0.4: a clickable figure, chest or seat band holds a clear
    area of at least 60 drawing units (24 px) on its smaller side."""
    checked = 0
    for s, p in main_decisions(seeds=(7,), limit=15):
        root = ET.fromstring(draw(s, p, layout="narrow"))
        for g in root.iter(SVG_NS + "g"):
            cls = g.get("class") or ""
            if "clickable" not in cls or not ({"figure", "chest", "seat"} & set(cls.split())):
                continue
            sides = [min(float(r.get("width")), float(r.get("height"))) for r in g.iter(SVG_NS + "rect")]
            assert max(sides) >= 60, (g.get("data-action"), sides)
            checked += 1
    assert checked


def test_a_rivals_hand_leaves_no_trace_in_the_drawing():
    """The same position with seat 1 holding other cards (as many) draws the same for
    seat 0, in both layouts and every language, reaction windows included."""
    seen = 0
    for s, _ in main_decisions(seeds=(8, 9), limit=25):
        other = s.clone()
        pool = other.deck + other.hands[1]
        k = len(other.hands[1])
        random.Random(seen).shuffle(pool)
        other.hands[1], other.deck = sorted(pool[:k]), pool[k:]
        if other.hands[1] == s.hands[1]:
            continue
        for lang in LANGS:
            for layout in ("wide", "narrow"):
                assert draw(s, 0, lang, layout) == draw(other, 0, lang, layout)
        seen += 1
    assert seen >= 5


def test_a_decision_with_one_answer_draws_nothing_to_click():
    """The table answers it itself after a short pause (a reaction window with nothing to
    play, a forced flight): no badge glows meanwhile, in either layout."""
    seen = 0
    for seed in (10, 11):
        s = GAME.new_game(3, seed, {})
        rng = random.Random(seed)
        while not s.is_terminal() and seen < 12:
            p = s.players_to_act()[0]
            legal = s.legal_actions(p)
            if len(legal) == 1:
                for layout in ("wide", "narrow"):
                    assert "data-action" not in draw(s, p, layout=layout)
                seen += 1
            s.apply_action(p, rng.choice(legal))
    assert seen
