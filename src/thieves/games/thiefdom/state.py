"""ThiefdomState: the fields, who acts, dispatch, observation and text view.

The rules are modules of functions taking the state: setup.py (setup, draft,
hideouts), day.py (rounds, planning, administration, the end), townsfolk.py,
thief.py, locations.py, cards.py, solo.py and view.py (what a player sees).
The state keeps the fields and the engine's contract, which calls into them.
"""
from __future__ import annotations

import marshal
from typing import Any

from thieves.core.game import State
from thieves.core.rng import Below, Rng

from . import day, setup, thief, townsfolk, view
from .city import City, city_for
from .day import PLANS4
from .notation import PARSED, Action
from .thief import STEP_DIR
from .townsfolk import GO


class ThiefdomState(State):
    #: the largest number a snapshot's fields may hold (core/snapshot.py): every count,
    #: score and index of a real game is far below it, and a count of 10**9 would make
    #: a loop over it run for ever
    SNAPSHOT_MAX_INT = 100_000
    FIELDS = ("phase", "round", "layout", "ncols", "villas", "badges", "purses", "dungeon", "smugglers",
              "stacks", "mission_pile", "missions_done", "client_deck", "client_discard", "revealed",
              "display", "equip_deck", "equip_discard", "half_pile", "tf", "vp", "stash", "thieves",
              "hideout", "stamina", "plans", "patrol", "first", "first_order", "solo", "draft", "bought",
              "done", "turn", "tmove", "queue", "queue_mover", "schedule", "act", "final", "refill",
              "hide_order", "delivered", "planning")

    # -- the snapshot's fields (FIELDS; see setup.py for their first values) ----------
    # Those that are a dict or None depending on the phase (turn, tmove, draft, solo,
    # final) are Any: the rules read them only in the phase where they are set.
    phase: str
    round: int
    layout: list[list[Any]]
    ncols: int
    villas: dict[str, dict[str, Any]]
    badges: dict[str, int]
    purses: dict[str, bool]
    dungeon: dict[str, Any]
    smugglers: dict[str, str | None]
    stacks: dict[str, list[str]]
    mission_pile: list[str]
    missions_done: list[list[str]]
    client_deck: list[str]
    client_discard: list[str]
    revealed: list[str]
    display: list[str]
    equip_deck: list[str]
    equip_discard: list[str]
    half_pile: list[str]
    tf: dict[str, dict[str, int]]
    vp: list[int]
    stash: list[dict[str, Any]]
    thieves: list[list[dict[str, Any]]]
    hideout: list[str | None]
    stamina: list[bool]
    plans: list[str | None]
    patrol: list[Any]
    first: int
    first_order: list[int]
    solo: Any
    draft: Any
    bought: list[int]
    done: list[bool]
    turn: Any
    tmove: Any
    queue: list[str]
    queue_mover: int
    schedule: list[list[Any]]
    act: int
    final: Any
    refill: bool
    hide_order: list[int]
    delivered: list[str]
    planning: list[str]
    # -- derived, not in the snapshot -----------------------------------------------------
    city: City
    #: during a random playout (and only then: nothing else runs that could edit the
    #: fields behind its back), townsfolk.occupancy_now keeps the occupancy between
    #: moves and every move of a figure updates it (townsfolk.place, run_tmove)
    _occ_live = False
    #: that kept occupancy, or None when it must be made afresh; kept only while no
    #: two figures share a square, so a figure that leaves a square leaves it empty
    _occ_cache: dict[int, str] | None = None
    #: likewise, the squares some guard sees, or None (made afresh after a guard moves)
    _watch_cache: frozenset[int] | None = None

    def _setup(self) -> None:
        setup.setup(self)

    def _after_load(self) -> None:
        self.city = city_for(self.data, self.layout, self.ncols)

    def clone(self) -> "ThiefdomState":
        """:meth:`State.clone`, each field copied as deep as it nests (the tables
        at the end of this module) instead of through ``marshal``, and the city
        (geometry only, never changed) shared: the same independent copy."""
        new = self._clone_contract()
        old, nd = self.__dict__, new.__dict__
        for f in SCALAR_FIELDS:
            nd[f] = old[f]
        for f in LIST_FIELDS:
            nd[f] = old[f].copy()
        for f in DICT_FIELDS:
            nd[f] = old[f].copy()
        nd["villas"] = {k: v.copy() for k, v in self.villas.items()}
        nd["tf"] = {k: v.copy() for k, v in self.tf.items()}
        nd["stacks"] = {k: v.copy() for k, v in self.stacks.items()}
        nd["missions_done"] = [m.copy() for m in self.missions_done]
        nd["dungeon"] = _inv_copy(self.dungeon)
        nd["stash"] = [_inv_copy(inv) for inv in self.stash]
        nd["thieves"] = [[_thief_copy(th) for th in ts] for ts in self.thieves]
        # the rest nests in ways that change with the phase: marshal, in one go
        nd.update(zip(NESTED_FIELDS, marshal.loads(marshal.dumps([old[f] for f in NESTED_FIELDS]))))
        new.city = self.city
        return new

    def _check_snapshot(self) -> None:
        """The city is 2 rows of 3 (1-2 players) or 4 (3-4 players) sections
        (rulebook, "Mise en place" 1), each a known section, side and turn."""
        from ...core.errors import GameSetupError
        want = 4 if self.num_players >= 3 else 3
        if self.ncols != want:
            raise GameSetupError(f"ncols must be {want} at {self.num_players} players, not {self.ncols!r}")
        known = self.data.sections
        if not isinstance(self.layout, list) or len(self.layout) != 2 * want:
            raise GameSetupError(f"layout must list {2 * want} city sections")
        for i, sec in enumerate(self.layout):
            if (not isinstance(sec, list) or len(sec) != 3 or sec[1] not in ("A", "B")
                    or sec[2] not in (0, 1, 2, 3) or f"{sec[0]}{sec[1]}" not in known):
                raise GameSetupError(f"layout[{i}] is not [section, side A/B, turn 0-3]: {str(sec)[:60]}")

    # -- contract ----------------------------------------------------------------------
    def _players_to_act(self) -> list[int]:
        ph = self.phase
        if ph == "action":
            if self.tmove is not None:
                return [self.tmove["mover"]]
            if self.turn is not None:
                return [self.turn["p"]]
            return []
        if ph == "draft":
            st = self.draft["stage"]
            return [p for p in range(self.num_players) if len(self.draft["kept"][p]) <= st]
        if ph == "buy":
            return [p for p in range(self.num_players) if not self.done[p]]
        if ph == "hideout":
            return [self.hide_order[0]]
        if ph == "plan":
            return [p for p in range(self.num_players) if self.plans[p] is None]
        return []

    def _legal_actions(self, p: int) -> list[str]:
        ph = self.phase
        if ph == "action":
            if self.tmove is not None:
                return townsfolk.tmove_actions(self)
            return thief.turn_actions(self)
        if ph in ("draft", "buy"):
            return setup.draft_actions(self, p)
        if ph == "hideout":
            return setup.hideout_actions(self, p)
        if ph == "plan":
            return day.plan_actions(self, p)
        return []

    def _apply(self, p: int, action: str) -> None:
        act = PARSED.get(action) or Action.parse(action)  # read once, here (legal, so well formed)
        ph = self.phase
        if ph == "action":
            if self.tmove is not None:
                townsfolk.run_tmove(self, choice=STEP_DIR[act.args[0]])
            else:
                thief.turn_apply(self, act)
        elif ph in ("draft", "buy"):
            setup.draft_apply(self, p, act)
        elif ph == "hideout":
            setup.hideout_apply(self, p, act)
        elif ph == "plan":
            day.plan_apply(self, p, act)
        day.advance(self)

    def _random_playout(self, rng: Below, max_decisions: int) -> int:
        """The engine's random playout loop with the dispatch of ``_players_to_act``,
        ``_legal_actions`` and ``_apply`` written out for the action phase (the same
        decisions, the same draws): a townsfolk's mover picks among its options
        directly, a thief's turn lists its actions and applies the one picked."""
        self._occ_live = True  # the occupancy is kept between moves (townsfolk.py)
        try:
            return self._playout_loop(rng, max_decisions)
        finally:
            self._occ_live = False
            self._occ_cache = self._watch_cache = None

    def _playout_loop(self, rng: Below, max_decisions: int) -> int:
        below = rng.below
        history = self.history
        parse, parsed = Action.parse, PARSED
        n = 0
        while n < max_decisions:
            ph = self.phase
            if ph == "action" and (self.tmove is not None or self.turn is not None):
                tm = self.tmove
                if tm is not None:
                    p = tm["mover"]
                    opts = tm["opts"]  # the "go" actions, in this order (townsfolk.tmove_actions)
                    d = opts[below(len(opts))]
                    action = GO[d]
                    townsfolk.run_tmove(self, choice=d)
                else:
                    p = self.turn["p"]
                    acts = thief.turn_actions(self)
                    action = acts[below(len(acts))]
                    thief.turn_apply(self, parsed.get(action) or parse(action))
                if self.tmove is None and self.turn is None:  # (_advance has nothing to do otherwise)
                    day.advance(self)
            elif ph == "plan":
                plans = self.plans
                to_act = [q for q in range(self.num_players) if plans[q] is None]
                p = to_act[0] if len(to_act) == 1 else to_act[below(len(to_act))]
                acts = day.plan_actions(self, p)
                action = acts[below(len(acts))]
                if day.secret_step(self, p, action):
                    self.secret_steps.append(self.ply)
                day.plan_apply(self, p, parsed.get(action) or parse(action))
                day.advance(self)
            elif ph == "over":
                break
            else:
                to_act = self._players_to_act()
                p = to_act[0] if len(to_act) == 1 else to_act[below(len(to_act))]
                acts = self._legal_actions(p)
                action = acts[below(len(acts))]
                if day.secret_step(self, p, action):
                    self.secret_steps.append(self.ply)
                self._apply(p, action)
            history.append([p, action])
            self.ply += 1
            n += 1
        self._legal_cache = None
        return n

    def _secret_step(self, player: int, action: str) -> bool:
        return day.secret_step(self, player, action)

    def _observe(self, player: int | None) -> dict[str, Any]:
        return view.observe(self, player)

    def _explain(self, p: int, action: str) -> str | None:
        return view.explain(self, p, action)

    def render_text(self, player: int | None) -> str:
        return view.render_text(self, player)

    def describe_action(self, action: str) -> str:
        return view.describe_action(self, action)

    def _winners(self) -> list[int]:
        return day.winners(self)

    def _is_terminal(self) -> bool:
        return self.phase == "over"

    def _scores(self) -> list[float]:
        return [float(v) for v in self.vp]

    def determinize(self, player: int, seed: int) -> "ThiefdomState":
        """A copy where what ``player`` cannot know is reshuffled: decks, the
        mission pile, other players' draft cards and unrevealed plans."""
        new = self.clone()
        new.rng = Rng.from_seed(seed)
        rng = new.rng
        # each pile sorted first: the re-deal must not depend on the real order
        for pile in (new.client_deck, new.equip_deck, new.mission_pile):
            pile.sort()
            rng.shuffle(pile)
        if new.draft is not None:
            pool = list(new.half_pile)
            others = [q for q in range(self.num_players) if q != player]
            for q in others:
                pool += new.draft["hands"][q] + new.draft["kept"][q]
            pool.sort()
            rng.shuffle(pool)
            for q in others:
                for key in ("hands", "kept"):
                    k = len(new.draft[key][q])
                    new.draft[key][q] = [pool.pop() for _ in range(k)]
            new.half_pile = pool
        if new.phase == "plan":
            # a placed but unrevealed plan is replaced by a random guess (still "placed"),
            # and so are the tiles another player has laid so far (as many of them)
            for q in range(self.num_players):
                if q == player:
                    continue
                guess = PLANS4[rng.below(len(PLANS4))]
                if new.plans[q] is not None:
                    new.plans[q] = guess
                elif new.planning[q]:
                    new.planning[q] = guess[:len(new.planning[q])]
        new._legal_cache = None
        return new


# -- how deep clone() copies each field -----------------------------------------------
#: numbers, words and flags: shared
SCALAR_FIELDS = ("phase", "round", "ncols", "first", "queue_mover", "act", "refill")
#: lists of numbers or words: one copy of the list
LIST_FIELDS = ("mission_pile", "client_deck", "client_discard", "revealed", "display", "equip_deck",
               "equip_discard", "half_pile", "vp", "hideout", "stamina", "plans", "patrol", "first_order",
               "bought", "done", "queue", "hide_order", "delivered", "planning")
#: dicts of numbers, words or flags: one copy of the dict
DICT_FIELDS = ("badges", "purses", "smugglers")
#: the fields copied through marshal (their nesting changes with the phase)
NESTED_FIELDS = ("layout", "schedule", "solo", "draft", "turn", "tmove", "final")


def _inv_copy(inv: dict[str, Any]) -> dict[str, Any]:
    """A copy of an inventory (goods counts and a list of artworks)."""
    new = inv.copy()
    new["art"] = inv["art"].copy()
    return new


def _thief_copy(th: dict[str, Any]) -> dict[str, Any]:
    """A copy of a thief: its inventory and its lists (cards, places used, figures
    robbed or blinded) copied, the rest (square or building, ally, flags) shared."""
    new = th.copy()
    new["inv"] = _inv_copy(th["inv"])
    new["equip"] = th["equip"].copy()
    new["used"] = th["used"].copy()
    new["robbed"] = th["robbed"].copy()
    new["blind"] = th["blind"].copy()
    return new
