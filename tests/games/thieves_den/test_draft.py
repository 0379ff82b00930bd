"""Rulebook "Phase Reconnaissance": the simultaneous hidden draft."""
import json

import pytest

from thieves.core.errors import IllegalAction

from .helpers import new


def non_instant(s, hand):
    return [c for c in hand if not s.data.locations[c].instant]


def test_picks_are_simultaneous_and_hidden():
    s = new(3, 5)
    assert sorted(s.players_to_act()) == [0, 1, 2]
    card = s.hands[0][0]
    s.apply_action(0, f"keep {card}")
    assert s.players_to_act() == [1, 2]
    assert s.legal_actions(0) == []
    for p in (1, 2):
        obs = s.observation(p)
        assert obs["players"][0]["has_picked"] is True
        assert card not in json.dumps(obs)
    assert s.observation(0)["pick"] == card
    with pytest.raises(IllegalAction):
        s.apply_action(0, f"keep {s.hands[0][1]}")   # no second pick


def test_reveal_pass_direction_and_three_kept():
    s = new(3, 2)
    s.holder = 0
    s.face = "13"           # clockwise: pass to the next seat number
    hands = [list(h) for h in s.hands]
    picks = [sorted(h)[0] for h in hands]
    for p in range(3):
        s.apply_action(p, f"keep {picks[p]}")
    for p in range(3):
        loc = s.data.locations[picks[p]]
        assert picks[p] in (s.left[p] if loc.instant else s.above[p])
    # the remaining 3 cards of player 1 went to player 2
    rest0 = sorted(c for c in hands[0] if c != picks[0])
    if not s.pending:
        assert sorted(s.hands[1]) == rest0
    # finish the draft
    while s.phase == "draft" or s.pending and s.phase == "draft":
        p = s.players_to_act()[0]
        s.apply_action(p, s.legal_actions(p)[0])
    assert s.phase == "thieving"
    for p in range(3):
        assert len(s.above[p]) + len(s.left[p]) == 3
        assert s.hands[p] == []
    # the leftover cards went under the deck (front of the list)
    assert len(s.loc_deck) == 60 - 12 + 3


def test_counter_clockwise_face_passes_the_other_way():
    s = new(4, 9)
    s.face = "2"
    hands = [list(h) for h in s.hands]
    for p in range(4):
        s.apply_action(p, f"keep {hands[p][0]}")
    while s.pending:
        q = s.players_to_act()[0]
        s.apply_action(q, s.legal_actions(q)[0])
    assert sorted(s.hands[0]) == sorted(hands[1][1:])   # player 2 passed to player 1


def test_instant_card_resolves_at_once_and_goes_left():
    s = new(3, 0)
    d = s.data
    inst = next(c.id for c in d.locations.values() if c.instant and c.ability[0].kind == "prestige")
    for pile in s.hands + [s.loc_deck]:
        if inst in pile:
            pile.remove(inst)
    s.hands[0][0] = inst
    for p in range(3):
        s.apply_action(p, f"keep {s.hands[p][0]}")
    assert inst in s.left[0] and inst not in s.above[0]
    assert s.prestige[0] == d.locations[inst].ability[0].prestige


def test_two_player_leftovers_lie_face_up_except_instants():
    s = new(2, 4)
    while s.phase == "draft":
        p = s.players_to_act()[0]
        s.apply_action(p, s.legal_actions(p)[0])
    left_over = 2 - len(s.neutral)
    assert len(s.neutral) + left_over == 2
    assert all(not s.data.locations[c].instant for c in s.neutral)
    # a neutral card can be activated by either player, with no owner bonus
    if s.neutral:
        p = s.turn
        c = s.neutral[0]
        if f"loc {c}" in s.legal_actions(p):
            others = [s.thieves[q] for q in range(2) if q != p]
            s.apply_action(p, f"loc {c}")
            while s.pending:
                q = s.players_to_act()[0]
                s.apply_action(q, s.legal_actions(q)[0])
            assert s.loc_thieves[c] == 1


def test_draft_explain():
    s = new(3, 0)
    with pytest.raises(IllegalAction, match="not in your hand"):
        s.apply_action(0, "keep L99")
    with pytest.raises(IllegalAction, match="scouting"):
        s.apply_action(0, "pass")
