"""Taking back one's own decisions, decided generically for every game.

A player may undo back to the start of their own turn when undoing cannot
be used to learn anything or to change what others have done:

* the last decisions of the game are theirs (no other seat has acted since),
  and the game is not over;
* nothing random happened meanwhile: the generator's state is the same as
  at the start of those decisions (no die rolled, no card shuffled);
* nothing hidden was revealed to them: the same decisions, made from copies
  of the starting position in which what the player could not see is
  re-dealt (``State.determinize``), show the player exactly what they see
  now. A decision that turned up a card from a deck would show another card
  in a re-dealt copy, so it cannot be taken back.

Nothing here knows a game: only the engine contract is used.
"""
from __future__ import annotations

from typing import Any

from .errors import ThievesError
from .game import State

#: re-dealt copies tried for hidden information (each a different re-deal)
SAMPLES = 3


def state_at(state: State, ply: int) -> State:
    """The position after the first ``ply`` decisions of ``state``'s game."""
    again = state.game.new_game(state.num_players, state.seed, state.options, rng=state.rng_kind)
    for player, action in state.history[:ply]:
        again.apply_action(player, action)
    return again


def own_run_start(state: State, player: int) -> int | None:
    """Where the last run of ``player``'s own decisions began (None: the last
    decision is someone else's, or there is none)."""
    history = state.history
    if not history or history[-1][0] != player:
        return None
    start = len(history)
    while start > 0 and history[start - 1][0] == player:
        start -= 1
    return start


def _rng_state(state: State) -> Any:
    return state.rng.to_json()


def undo_point(state: State, player: int, before: State | None = None) -> int | None:
    """The move number ``player`` may go back to (their decisions from there on
    are taken back), or None when undoing is not allowed now.

    ``before``: the position at the start of the run, when the caller has it
    (else it is rebuilt from the seed and the history).
    """
    if state.is_terminal():
        return None
    start = own_run_start(state, player)
    if start is None:
        return None
    if before is None:
        before = state_at(state, start)
    # something random was drawn: undoing would let the player draw again
    if _rng_state(before) != _rng_state(state):
        return None
    mine = state.history[start:]
    seen = state.observation(player)
    for k in range(SAMPLES):
        try:
            other = before.determinize(player, 0x5EED + k)
        except Exception:  # noqa: BLE001 - a game's re-deal failed: be safe, refuse
            return None
        if other.observation(player) != before.observation(player):
            return None  # this game's re-deal is not faithful to the player's view: refuse
        try:
            for p, action in mine:
                other.apply_action(p, action)
        except ThievesError:
            return None  # the decisions depended on what the player could not see
        if other.observation(player) != seen:
            return None  # they showed the player something hidden
    return start
