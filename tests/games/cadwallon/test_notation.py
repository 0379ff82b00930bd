"""The notation is parsed once into a typed Action (python-chess's Move model): every legal
action round-trips, malformed text is refused with a reason and changes nothing."""
from __future__ import annotations

import doctest
import random
import re

import pytest

from thieves.core.errors import IllegalAction
from thieves.games.cadwallon import notation
from thieves.games.cadwallon.notation import Action

from .helpers import GAME


def test_doctests():
    assert doctest.testmod(notation).failed == 0


def test_every_legal_action_round_trips_through_the_typed_action():
    verbs = set()
    for seed in range(3):
        s = GAME.new_game(3, seed)
        rng = random.Random(seed)
        while not s.is_terminal():
            p = s.players_to_act()[0]
            legal = s.legal_actions(p)
            for a in legal:
                act = Action.parse(a)
                assert str(act) == a and Action.parse(str(act)) is act
                verbs.add(act.verb)
            s.apply_action(p, rng.choice(legal))
    assert verbs >= {"gang", "deploy", "at", "militia", "mm", "act", "move", "end", "attack",
                     "card", "nocard", "flee", "open", "force", "play"}


def test_typed_fields():
    a = Action.parse("drop red c2")
    assert (a.verb, a.arg, a.target) == ("drop", "red", "c2")
    assert Action.parse("mission 3").slot == 2
    assert Action.parse("play reinforced_lock c2").seat is None
    assert Action.parse("end") == Action("end")


@pytest.mark.parametrize("text, reason", [
    ("", "empty action"), ("dance", "unknown action 'dance'"),
    ("drop red", "'drop' takes 2 word(s) after it, not 1"), ("end now", "'end' takes 0 word(s)"),
    ("mission two", "slot number"), ("play", "'play' takes 1 to 2 word(s)"),
])
def test_malformed_text_is_refused_with_a_reason_and_changes_nothing(text, reason):
    with pytest.raises(IllegalAction, match=re.escape(reason)):
        Action.parse(text)
    s = GAME.new_game(2, 1)
    before = s.to_json()
    with pytest.raises(IllegalAction, match=re.escape(reason)):
        s.apply_action(s.players_to_act()[0], text)
    assert s.to_json() == before
