"""Helpers to build Thieves Den positions for rules tests."""
from __future__ import annotations

from thieves.core.registry import load_game
from thieves.games.thieves_den.components import TREASURES

GAME = load_game("thieves-den")


def new(n: int = 3, seed: int = 0, options: dict | None = None):
    return GAME.new_game(n, seed, options)


def loc(state, name: str) -> str:
    return next(c.id for c in state.data.locations.values() if c.name == name)


def thieving(n: int = 3, seed: int = 0, options: dict | None = None):
    """A game skipped straight to round 1's thieving phase, Player 1 to act, no cards in play."""
    s = new(n, seed, options)
    for p in range(n):
        s.loc_deck.extend(s.hands[p])
        s.hands[p] = []
        s.picks[p] = None
    s.phase = "thieving"
    s.holder = s.turn = 0
    s.face = "13"
    s.pending = []
    s._legal_cache = None
    return s


def place(state, p, card: str) -> None:
    """Put a location card from the deck above player p's board (p None: beside the board)."""
    for pile in [state.loc_deck] + state.hands + state.above + state.left + [state.neutral]:
        if card in pile:
            pile.remove(card)
    (state.neutral if p is None else state.above[p]).append(card)
    state._legal_cache = None


def give(state, p: int, **treasures: int) -> None:
    """Move treasures from the City to player p (keeps treasures conserved)."""
    for t, k in treasures.items():
        assert state.city[t] >= k
        state.city[t] -= k
        state.treasures[p][t] += k
    state._legal_cache = None


def set_thieves(state, p: int, k: int) -> None:
    state.forest += state.thieves[p] - k
    state.thieves[p] = k
    state._legal_cache = None


def total_treasures(state) -> dict:
    """Every treasure token in play, wherever it is (must stay constant)."""
    out = dict(state.city)
    for p in range(state.num_players):
        for t in TREASURES:
            out[t] += state.treasures[p][t]
    for load in state.fence_treasures.values():
        for t, k in load.items():
            out[t] += k
    for t in state.power_paid:
        if t is not None:
            out[t] += 1
    for j, used in enumerate(state.witch_used):
        if used:
            out[state.data.board.witch.slots[j].treasure] += 1
    for t, k in state.recruit_slot.items():
        out[t] += k
    return out


def total_thieves(state) -> int:
    return (state.forest + sum(state.thieves) + sum(state.loc_thieves.values())
            + sum(state.fence_thieves.values()) + state.steal_slot)


def play(state, p: int, *actions: str) -> None:
    for a in actions:
        state.apply_action(p, a)
