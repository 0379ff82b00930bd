"""Taking back one's own decisions, decided generically for every game.

A player may undo back to the start of their own turn when undoing cannot
be used to learn anything or to change what others have done:

* the last decisions of the game are theirs (no other seat has acted since),
  and the game is not over;
* no other seat may take a secret step now (``State._secret_step``): whether
  one did is not the player's to know, so it may not decide whether they can undo;
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
from .game import State, engine_observes

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
    # another seat may take secret steps now: whether one did must not change what
    # this player may do (it would end their run), so nobody undoes until they are public
    if state.others_in_secret_phase(player):
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
    seen = _View(state, player)
    saw = _View(before, player)
    for k in range(SAMPLES):
        try:
            other = before.determinize(player, 0x5EED + k)
        except Exception:  # noqa: BLE001 - a game's re-deal failed: be safe, refuse
            return None
        if not saw.same(other):
            return None  # this game's re-deal is not faithful to the player's view: refuse
        try:
            for p, action in mine:
                other.apply_action(p, action)
        except ThievesError:
            return None  # the decisions depended on what the player could not see
        if not seen.same(other):
            return None  # they showed the player something hidden
    return start


class UndoRun:
    """:func:`undo_point` for one run of ``player``'s decisions from ``before``
    (the position where the run began), asked again after each decision of
    the run: the same answers, for less work.

    :func:`undo_point` re-deals its copies of ``before`` and replays the whole
    run in each of them every time it is asked. Here each copy is re-dealt
    (and checked against ``before``) once, when first needed, and kept: a
    later question applies to it only the decisions made since the last one.
    A copy in which a decision was refused stays refused (the same decisions
    from the same re-deal are refused again), as does a re-deal that failed
    or was not faithful to ``before``. Nothing else is kept: the position's
    view is compared with each copy's afresh every time.

    The copies are the table's, never shown to anybody; they go with the run."""

    __slots__ = ("before", "player", "_copies", "_applied", "_done")

    def __init__(self, before: State, player: int) -> None:
        self.before = before
        self.player = player
        #: per re-deal, in order: the copy, or None where it failed for good
        self._copies: list[State | None] = []
        #: per copy, how many decisions of the run it has had applied
        self._applied: list[int] = []
        #: the run's decisions applied to some copy so far (the longest such prefix)
        self._done: list[Any] = []

    def point(self, state: State) -> int | None:
        """``undo_point(state, self.player, before=self.before)``."""
        player = self.player
        if state.is_terminal() or state.others_in_secret_phase(player):
            return None
        start = own_run_start(state, player)
        if start is None:
            return None
        if start != self.before.ply:  # not this run: ask afresh
            return undo_point(state, player)
        if _rng_state(self.before) != _rng_state(state):
            return None
        mine = state.history[start:]
        done = self._done
        if mine[:len(done)] != done:
            if done[:len(mine)] == mine:  # an earlier point of the run: what is kept is past it
                return undo_point(state, player, before=self.before)
            self._copies, self._applied = [], []  # another run from the same start
        self._done = mine
        seen = _View(state, player)
        saw: _View | None = None
        for k in range(SAMPLES):
            if k == len(self._copies):  # re-dealt when first needed, and checked once
                saw = saw or _View(self.before, player)
                self._copies.append(self._deal(k, saw))
                self._applied.append(0)
            other = self._copies[k]
            if other is None:
                return None
            applied = self._applied[k]
            try:
                while applied < len(mine):
                    p, action = mine[applied]
                    other.apply_action(p, action)
                    applied += 1
            except ThievesError:
                self._copies[k] = None
                return None  # the decisions depended on what the player could not see
            except BaseException:
                self._copies, self._applied, self._done = [], [], []  # nothing half applied is kept
                raise
            self._applied[k] = applied
            if not seen.same(other):
                return None  # they showed the player something hidden
        return start

    def _deal(self, k: int, saw: "_View") -> State | None:
        """The ``k``-th re-dealt copy of the run's start (None: the re-deal failed
        or shows the player something else than ``before``: refuse)."""
        try:
            other = self.before.determinize(self.player, 0x5EED + k)
        except Exception:  # noqa: BLE001 - a game's re-deal failed: be safe, refuse
            return None
        return other if saw.same(other) else None


class _View:
    """What ``player`` sees of ``state``, to compare with other positions:
    ``same(other)`` is ``other.observation(player) == state.observation(player)``.

    Copies of one position share its log entries (they are never changed), and
    one entry always reads the same to one player: so where the engine builds
    the observations, the log entries both positions share are not read
    again, only the observations without their log and the events of the
    entries after the shared ones (an observation's log is most of its cost)."""

    def __init__(self, state: State, player: int) -> None:
        self.state = state
        self.player = player
        self.engine = engine_observes(state)
        self.obs = state.observation_without_log(player) if self.engine else state.observation(player)

    def same(self, other: State) -> bool:
        if not (self.engine and engine_observes(other)):
            full = self.state.observation(self.player) if self.engine else self.obs
            return other.observation(self.player) == full
        if other.observation_without_log(self.player) != self.obs:
            return False
        mine, theirs = self.state.log, other.log
        n = min(len(mine), len(theirs))
        while n and mine[n - 1] is not theirs[n - 1]:  # the entries written since they parted
            n -= 1
        if mine[:n] != theirs[:n]:  # not one shared list (e.g. read back from storage)
            n = 0
        return self.state.visible_events(self.player, n) == other.visible_events(self.player, n)
