"""Thieves Den: the state (its fields, the setup and the engine contract).

Rule sections cited as in the French rulebook (seed 003, "Les Voleurs d'Amarynth"):
"Mise en Place" (setup), "Fin de Partie" (the winners). The rules live in modules of
functions taking the state first: rounds.py (scouting, thieving, maintenance, final
scoring), actions.py (the thieving-turn actions and the power tiles), effects.py (the
supply and the effects' frames), choices.py (the pending decisions and the frame runner)
and view.py (what each player sees, reasons for illegal actions).
"""
from __future__ import annotations

from typing import Any, cast

from thieves.core.errors import GameSetupError
from thieves.core.game import Game, State
from thieves.core.rng import Below, Rng

from .actions import apply_turn, turn_actions, turn_dispatch
from .choices import apply_choice, choices, run
from .components import TREASURES, DenData, PlayerCount
from .effects import LIMIT_VERBS
from .notation import parse_action
from .observation import FinalScores
from .rounds import END_TURN, auto_end_turn, pick, start_scouting, stock
from .view import explain, observe


def copy_json(value: Any) -> Any:
    """A copy of plain JSON data with every list and dict new (the strings shared)."""
    if type(value) is dict:
        return {k: copy_json(v) for k, v in value.items()}
    if type(value) is list:
        return [copy_json(v) for v in value]
    return value


class DenState(State):
    #: the largest number a snapshot's fields may hold (core/snapshot.py): every count,
    #: score and index of a real game is far below it, and a count of 10**9 would make
    #: a loop over it run for ever
    SNAPSHOT_MAX_INT = 1000
    FIELDS = (
        "phase", "round", "holder", "face", "turn", "passed", "draft_kept",
        "prestige", "treasures", "thieves", "scheme",
        "hands", "picks", "above", "left", "neutral", "loc_thieves",
        "fences_above", "right", "fence_thieves", "fence_treasures",
        "row", "fence_deck", "loc_deck",
        "power_stacks", "power_gone", "power_paid", "witch_used", "steal_slot", "recruit_slot",
        "city", "forest", "pending", "final",
    )
    data: DenData
    # -- the fields (FIELDS), plain JSON data
    phase: str                               # "draft", "thieving", "handover", "end"
    round: int
    holder: int                              # seat holding the direction tile
    face: str                                # the tile's face up: "13" or "2"
    turn: int
    passed: list[bool]
    draft_kept: int
    prestige: list[int]
    treasures: list[dict[str, int]]          # per seat: treasure type -> count
    thieves: list[int]
    scheme: list[str]
    hands: list[list[str]]
    picks: list[str | None]
    above: list[list[str]]
    left: list[list[str]]
    neutral: list[str]
    loc_thieves: dict[str, int]
    fences_above: list[list[str]]
    right: list[list[str]]
    fence_thieves: dict[str, int]
    fence_treasures: dict[str, dict[str, int]]
    row: list[str | None]
    fence_deck: list[str]
    loc_deck: list[str]
    power_stacks: list[list[str]]
    power_gone: list[str]
    power_paid: list[str | None]
    witch_used: list[bool]
    steal_slot: int
    recruit_slot: dict[str, int]
    city: dict[str, int]
    forest: int
    pending: list[dict[str, Any]]            # frames, see effects.py and choices.py
    final: FinalScores | None
    # -- the options read once (_read_options), not fields
    _counter_clockwise: bool                 # option first_direction
    _closed_locations: bool                  # option passed_locations = "closed"
    _short_supply_allowed: bool              # option empty_supply = "allowed"

    # -- the options, read once per state (they never change) ---------------------------------
    def _init(self, game: Game, num_players: int, seed: int, options: dict[str, Any],
              rng_kind: str = "splitmix") -> None:
        super()._init(game, num_players, seed, options, rng_kind)
        self._read_options()

    def _after_load(self) -> None:
        self._read_options()

    def _check_snapshot(self) -> None:
        """A location card's count of thieves is there only while a thief is on it (the rules
        delete it at zero, and test ``card in loc_thieves`` for an occupied card)."""
        for card, k in self.loc_thieves.items():
            if type(k) is not int or k < 1:
                raise GameSetupError(f"loc_thieves[{card!r}] must be a number of thieves from 1, not {k!r}")

    def _read_options(self) -> None:
        """The options the rules ask at every turn, as flags: ``first_direction``
        (:attr:`direction`), ``passed_locations`` (``_open_to``) and ``empty_supply``
        (``_short_supply_ok``)."""
        options = self.options
        self._counter_clockwise = options.get("first_direction") == "counter-clockwise"
        self._closed_locations = options.get("passed_locations", "open") != "open"
        self._short_supply_allowed = options.get("empty_supply", "allowed") == "allowed"

    def clone(self) -> "DenState":
        """:meth:`State.clone` with the fields copied by hand: the same independent copy
        (every list and dict new), sharing the strings instead of making them again (a
        search copies a position per iteration; the rules then find the data's own id
        objects in it). tests/games/thieves_den/test_fast_paths.py holds it to the engine's."""
        new = self._clone_contract()
        # the options read once (as _after_load)
        new._counter_clockwise = self._counter_clockwise
        new._closed_locations = self._closed_locations
        new._short_supply_allowed = self._short_supply_allowed
        # FIELDS
        new.phase = self.phase
        new.round = self.round
        new.holder = self.holder
        new.face = self.face
        new.turn = self.turn
        new.passed = self.passed[:]
        new.draft_kept = self.draft_kept
        new.prestige = self.prestige[:]
        new.treasures = list(map(dict.copy, self.treasures))
        new.thieves = self.thieves[:]
        new.scheme = self.scheme[:]
        new.hands = list(map(list.copy, self.hands))
        new.picks = self.picks[:]
        new.above = list(map(list.copy, self.above))
        new.left = list(map(list.copy, self.left))
        new.neutral = self.neutral[:]
        new.loc_thieves = self.loc_thieves.copy()
        new.fences_above = list(map(list.copy, self.fences_above))
        new.right = list(map(list.copy, self.right))
        new.fence_thieves = self.fence_thieves.copy()
        new.fence_treasures = dict(zip(self.fence_treasures, map(dict.copy, self.fence_treasures.values())))
        new.row = self.row[:]
        new.fence_deck = self.fence_deck[:]
        new.loc_deck = self.loc_deck[:]
        new.power_stacks = list(map(list.copy, self.power_stacks))
        new.power_gone = self.power_gone[:]
        new.power_paid = self.power_paid[:]
        new.witch_used = self.witch_used[:]
        new.steal_slot = self.steal_slot
        new.recruit_slot = self.recruit_slot.copy()
        new.city = self.city.copy()
        new.forest = self.forest
        new.pending = list(map(copy_json, self.pending))
        new.final = copy_json(self.final)
        return new

    # -- setup: rulebook "Mise en Place" ----------------------------------------------
    def _setup(self) -> None:
        b = self.data.board
        n = self.num_players
        two = n == 2
        rng = self.rng
        self.phase = "draft"
        self.round = 1
        self.passed = [False] * n
        self.draft_kept = 0
        self.prestige = [0] * n                                   # step 2: score markers on 0
        self.treasures = [{t: 0 for t in TREASURES} for _ in range(n)]
        self.thieves = [b.start_thieves] * n                      # step 2: 3 thieves on the seats
        schemes = list(self.data.scheme_ids)                      # step 3: one secret scheme each
        rng.shuffle(schemes)
        self.scheme = schemes[:n]
        # step 4: location deck (2 players: moon cards only); top of a deck = end of the list
        locs = [cid for cid, c in self.data.locations.items() if c.moon or not two]
        rng.shuffle(locs)
        self.loc_deck = locs
        # step 5: fence deck and 6 face-up fences (2 players: moon cards only)
        fences = [fid for fid, c in self.data.fences.items() if c.moon or not two]
        rng.shuffle(fences)
        self.fence_deck = fences
        self.row = [self.fence_deck.pop() if self.fence_deck else None for _ in range(b.fence_row)]
        row = b.setup[cast(PlayerCount, str(n))]
        self.forest = row.forest                                  # step 6
        self.city = {t: row.treasures_each for t in TREASURES}    # step 7
        # step 8: 3 stacks of 3 power tiles, top tile face up (last element); the rest to the box
        powers = list(self.data.power_ids)
        rng.shuffle(powers)
        k = b.power_stack_size
        self.power_stacks = [powers[i * k:(i + 1) * k] for i in range(b.power_stacks)]
        self.power_gone = []                                      # face-up tiles put back in the box
        self.power_paid = [None] * b.power_stacks
        self.witch_used = [False] * len(b.witch.slots)
        self.steal_slot = 0
        self.recruit_slot = {t: 0 for t in TREASURES}
        # step 9: the first player takes the direction tile, face "1,3" up (seat drawn by lot)
        self.holder = rng.below(n)
        self.face = "13"
        self.turn = self.holder
        self.hands = [[] for _ in range(n)]
        self.picks = [None] * n
        self.above = [[] for _ in range(n)]
        self.left = [[] for _ in range(n)]
        self.right = [[] for _ in range(n)]
        self.fences_above = [[] for _ in range(n)]
        self.neutral = []
        self.loc_thieves = {}
        self.fence_thieves = {}
        self.fence_treasures = {}
        self.pending = []
        self.final = None
        self.event("first_player", player=self.holder, direction=self._direction_word())
        start_scouting(self)

    # -- helpers --------------------------------------------------------------------------
    @property
    def direction(self) -> int:
        """Direction tile: face "1,3" = clockwise (+1), face "2" = counter-clockwise (-1)
        [reconstructed]; option ``first_direction`` turns both faces round."""
        d = 1 if self.face == "13" else -1
        return -d if self._counter_clockwise else d

    def _direction_word(self) -> str:
        return "clockwise" if self.direction == 1 else "counter-clockwise"

    def order_from(self, start: int) -> list[int]:
        n, d = self.num_players, self.direction
        return [(start + d * i) % n for i in range(n)]

    # -- the contract --------------------------------------------------------------------------------
    def _players_to_act(self) -> list[int]:
        if self.pending:
            return [self.pending[0]["p"]]
        if self.phase == "draft":
            return [p for p in range(self.num_players) if self.picks[p] is None]
        if self.phase == "thieving":
            return [self.turn]
        return []

    def _legal_actions(self, player: int) -> list[str]:
        if self.pending:
            return choices(self, self.pending[0])
        if self.phase == "draft":
            return list(map(self.data.keep_actions.__getitem__, sorted(self.hands[player])))
        return turn_actions(self, player)

    def _apply(self, player: int, action: str) -> None:
        # only the decisions of LIMIT_VERBS add treasures (or leave a discard to finish): the
        # treasure limit needs no look after the others
        if self.pending:
            act = parse_action(action)
            apply_choice(self, player, act)
            run(self, check=act.verb in LIMIT_VERBS)
        elif self.phase == "draft":
            pick(self, player, parse_action(action).named_card)
            run(self, check=False)
        else:
            run(self, check=apply_turn(self, player, action))

    def _random_playout(self, rng: Below, max_decisions: int) -> int:
        """:meth:`State.random_playout` (the same moves as the checked loop) with this game's
        turn structure built in: a pending frame's player, else the scouting pickers (a seat
        drawn among those who have not picked, as the checked loop draws it), else the
        player whose thieving turn it is; each list and each apply is called directly (a
        turn action by its :func:`~.actions.turn_dispatch` entry, as :meth:`_apply` does)."""
        below = rng.below
        history = self.history
        pend = self.pending                 # edited in place, never replaced
        picks = self.picks                  # likewise
        seats = range(self.num_players)
        keep = self.data.keep_actions
        dispatch = turn_dispatch(self.data)
        n = 0
        while n < max_decisions:
            phase = self.phase
            if phase == "end":
                break
            if pend:
                p = pend[0]["p"]
                acts = choices(self, pend[0])
                action = acts[below(len(acts))]
                act = parse_action(action)
                apply_choice(self, p, act)
                run(self, act.verb in LIMIT_VERBS)
            elif phase == "thieving":
                p = self.turn
                acts = turn_actions(self, p)
                action = acts[below(len(acts))]
                fn, arg, limit = dispatch[action]   # = apply_turn, then run
                fn(self, p, arg)
                if pend or limit:
                    pend.append({"k": "end_turn"})
                    run(self, limit)
                else:                                # nothing to run before the turn ends
                    auto_end_turn(self, END_TURN)
                    if pend:                         # the tile holder's choice at maintenance
                        run(self, False)
            elif phase == "draft":
                to_act = [q for q in seats if picks[q] is None]
                p = to_act[0] if len(to_act) == 1 else to_act[below(len(to_act))]
                hand = sorted(self.hands[p])
                card = hand[below(len(hand))]
                action = keep[card]
                pick(self, p, card)
                if pend:                    # the picks revealed (a pick adds no treasure)
                    run(self, False)
            else:                           # not reached: every other phase has a frame pending
                return n + State._random_playout(self, rng, max_decisions - n)
            history.append([p, action])
            self.ply += 1
            n += 1
        self._legal_cache = None
        return n

    def _observe(self, player: int | None) -> dict[str, Any]:
        # a DenView (observation.py): a TypedDict is not a dict[str, Any] to mypy
        return cast("dict[str, Any]", observe(self, player))

    def _explain(self, player: int, action: str) -> str | None:
        return explain(self, player, action)

    # -- people: the words come from the presentation (presentation.py), in English here ----------
    def describe_action(self, action: str) -> str:
        pres = self.game.presentation(None, data_dir=self.options.get("data_dir"))
        text: str = pres.action_text(self.observation(None), action)
        return text

    def render_text(self, player: int | None) -> str:
        pres = self.game.presentation(player, data_dir=self.options.get("data_dir"))
        text: str = pres.text_view(self.observation(player))
        return text

    def _is_terminal(self) -> bool:
        return self.phase == "end"

    def _scores(self) -> list[float]:
        return [float(x) for x in self.prestige]

    def _winners(self) -> list[int]:
        """Most prestige; tie: most treasures + thieves; still tied: shared victory."""
        best = max(self.prestige)
        tied = [p for p in range(self.num_players) if self.prestige[p] == best]
        most = max(stock(self, p) for p in tied)
        return [p for p in tied if stock(self, p) == most]

    def determinize(self, player: int, seed: int) -> "DenState":
        """Reshuffle what ``player`` cannot know: the location deck with the other players' hands
        (and their hidden picks), the fence deck, the face-down power tiles (with the ones left
        in the box), and the other players' schemes."""
        new = self.clone()
        new.rng = Rng.from_seed(seed)
        rng = new.rng
        others = [q for q in range(self.num_players) if q != player]
        pool = list(new.loc_deck)
        for q in others:
            pool.extend(new.hands[q])
        pool.sort()  # sorted first: the re-deal must not depend on the real order
        rng.shuffle(pool)
        for q in others:
            k = len(new.hands[q])
            new.hands[q] = pool[:k]
            pool = pool[k:]
            if new.picks[q] is not None:
                new.picks[q] = new.hands[q][0]
        new.loc_deck = pool
        new.fence_deck.sort()
        rng.shuffle(new.fence_deck)
        # the face-down power tiles under each face-up one, and the 3 left in the box unseen
        seen = set(new.power_gone) | {st[-1] for st in new.power_stacks if st}
        hidden = [t for t in self.data.power_ids if t not in seen]
        rng.shuffle(hidden)
        for st in new.power_stacks:
            if st:
                st[:-1] = [hidden.pop() for _ in range(len(st) - 1)]
        if new.phase != "end":
            free = [s for s in self.data.scheme_ids if s != new.scheme[player]]
            rng.shuffle(free)
            for q in range(self.num_players):
                if q != player:
                    new.scheme[q] = free.pop()
        return new

