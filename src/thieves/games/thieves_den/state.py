"""Thieves Den: the state, the round structure (scouting, thieving, maintenance) and scoring.

Rule sections cited as in the French rulebook (seed 003, "Les Voleurs d'Amarynth"):
"Mise en Place" (setup), "Phase Reconnaissance" (scouting draft), "Phase Voleurs" (thieving),
"Phase Maintenance" (cleanup), "Fin de Partie" (end of game), "Plateau de Joueur" (limits),
"Limite de la Réserve" (supply). The actions and effects live in actions.py and effects.py.
"""
from __future__ import annotations

from typing import Any, cast

from thieves.core.errors import GameSetupError
from thieves.core.game import Game, State
from thieves.core.rng import Below, Rng

from .actions import ActionsMixin, turn_dispatch
from .components import FENCE_TYPES, TREASURES, DenData, PlayerCount
from .effects import AUTO_FRAMES, LIMIT_VERBS, EffectsMixin
from .notation import parse_action
from .view import ViewMixin


def copy_json(value: Any) -> Any:
    """A copy of plain JSON data with every list and dict new (the strings shared)."""
    if type(value) is dict:
        return {k: copy_json(v) for k, v in value.items()}
    if type(value) is list:
        return [copy_json(v) for v in value]
    return value


#: the frame that ends a thieving turn (see _auto_end_turn)
END_TURN = {"k": "end_turn"}


class DenState(ViewMixin, ActionsMixin, EffectsMixin, State):
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
        self._start_scouting()

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

    # -- scouting phase: rulebook "Phase Reconnaissance" -----------------------------------
    def _start_scouting(self) -> None:
        b = self.data.board
        self.phase = "draft"
        self.draft_kept = 0
        self.passed = [False] * self.num_players   # a new round: nobody has passed
        for p in range(self.num_players):               # step 1: deal 4 cards face down
            hand = []
            for _ in range(b.draft_hand):
                if self.loc_deck:
                    hand.append(self.loc_deck.pop())
            self.hands[p] = hand
            self.picks[p] = None
            # the hand is secret: its owner reads the cards, the others how many were dealt
            if self.recording:
                self.event("dealt", to=[p], secret={"cards": list(hand)}, player=p, n=len(hand))
        if self.recording:
            self.event("scouting", round=self.round, direction=self._direction_word())

    def _reveal_picks(self) -> None:
        """Step 3: everyone reveals at once; instant cards resolve at once, in turn order from
        the direction-tile holder [interpretation], then go face down to the left."""
        instant = self.data.instant
        for p in self.order_from(self.holder):
            card = self.picks[p]
            assert card is not None   # everyone has picked
            self.hands[p].remove(card)
            self.picks[p] = None
            if card in instant:
                self.left[p].append(card)
                if self.recording:
                    self.event("reveal_instant", player=p, card=card)
                self.pending.extend(self._ability_frames(p, card))
            else:
                self.above[p].append(card)
                if self.recording:
                    self.event("reveal", player=p, card=card)
        self.draft_kept += 1
        self.pending.append({"k": "after_reveal"})

    @AUTO_FRAMES("after_reveal")
    def _auto_after_reveal(self, f: dict) -> None:
        n = self.num_players
        if self.draft_kept < self.data.board.draft_keep:
            # step 2: pass the rest face down in the tile's direction
            d = self.direction
            new: list[list[str]] = [[] for _ in range(n)]
            for p in range(n):
                new[(p + d) % n] = self.hands[p]
            self.hands = new
            if self.recording:
                for p in range(n):
                    self.event("receive", to=[p], secret={"cards": list(new[p])}, player=p, n=len(new[p]))
            return
        # step 4: leftovers go under the location deck; 2 players: face up beside the board,
        # except instant cards, which go under the deck
        instant = self.data.instant
        for p in range(n):
            for c in self.hands[p]:
                if n == 2 and c not in instant:
                    self.neutral.append(c)
                    if self.recording:
                        self.event("neutral", card=c)
                else:
                    self.loc_deck.insert(0, c)
            self.hands[p] = []
        self._start_thieving()

    # -- thieving phase: rulebook "Phase Voleurs" ----------------------------------------------
    def _start_thieving(self) -> None:
        self.phase = "thieving"
        self.passed = [False] * self.num_players
        self.turn = self.holder
        if self.recording:
            self.event("thieving", round=self.round, player=self.turn)

    @AUTO_FRAMES("end_turn")
    def _auto_end_turn(self, f: dict) -> None:
        """One action per turn, in the tile's direction, skipping passed players."""
        if all(self.passed):
            self._maintenance()
            return
        t, d, n, passed = self.turn, self.direction, self.num_players, self.passed
        for _ in range(n):
            t = (t + d) % n
            if not passed[t]:
                self.turn = t
                return

    # -- maintenance: rulebook "Phase Maintenance", steps 1 to 7 in order ---------------------------
    def _maintenance(self) -> None:
        n = self.num_players
        lim = self.data.thief_limit
        # 1. thieves on the locations above each board go to that board (max 6, excess to the
        #    Forest); the cards go face down to the left. 2 players: the neutral cards' thieves
        #    go to the Forest and the cards under the location deck.
        loc_thieves = self.loc_thieves
        for p in range(n):
            got = 0
            for c in self.above[p]:
                got += loc_thieves.pop(c, 0)
            room = lim - self.thieves[p]
            keep = got if got < room else room if room > 0 else 0   # = min(got, max(0, room))
            self.thieves[p] += keep
            self.forest += got - keep
            self.left[p] += self.above[p]
            self.above[p] = []
        for c in self.neutral:
            self.forest += self.loc_thieves.pop(c, 0)
            self.loc_deck.insert(0, c)
        self.neutral = []
        # 2. treasures and thieves on the fences above the boards go to the supply; the fences
        #    go face down to the right
        for p in range(n):
            for fid in self.fences_above[p]:
                self.forest += self.fence_thieves.pop(fid, 0)
                for t, k in self.fence_treasures.pop(fid, {}).items():
                    self.city[t] += k
                self.right[p].append(fid)
            self.fences_above[p] = []
        # 3. power tile payments to the City; the top tile of each stack to the box; reveal the next
        for i, paid in enumerate(self.power_paid):
            if paid is not None:
                self.city[paid] += 1
            self.power_paid[i] = None
            if self.power_stacks[i]:
                self.power_gone.append(self.power_stacks[i].pop())
        # 4. the Witch's treasures to the City
        for i, used in enumerate(self.witch_used):
            if used:
                self.city[self.data.witch_treasures[i]] += 1
                self.witch_used[i] = False
        # 5. thieves used to steal a treasure to the Forest
        self.forest += self.steal_slot
        self.steal_slot = 0
        # 6. treasures used to recruit a thief to the City
        for t in TREASURES:
            self.city[t] += self.recruit_slot[t]
            self.recruit_slot[t] = 0
        if self.recording:
            self.event("maintenance", round=self.round)
        if self.round >= self.data.board.rounds:
            self._final_scoring()
            return
        # 7. the direction tile goes to the lowest prestige
        low = min(self.prestige)
        tied = [p for p in range(n) if self.prestige[p] == low]
        if len(tied) > 1:   # tie: fewest treasures + thieves on the board
            least = min(self._stock(p) for p in tied)
            tied = [p for p in tied if self._stock(p) == least]
        if len(tied) > 1:   # still tied: the tile holder chooses among them
            self.pending.append({"k": "give", "p": self.holder, "among": tied})
            self.phase = "handover"
            return
        self._hand_over(tied[0])

    def _stock(self, p: int) -> int:
        return sum(self.treasures[p].values()) + self.thieves[p]

    def _hand_over(self, q: int) -> None:
        self.holder = q
        self.face = "2" if self.face == "13" else "13"   # the new holder flips the tile
        self.round += 1
        if self.recording:
            self.event("hand_over", player=q, direction=self._direction_word())
        self._start_scouting()

    # -- end of game: rulebook "Fin de Partie" ----------------------------------------------------
    def _final_scoring(self) -> None:
        n = self.num_players
        data = self.data
        b = data.board
        majority = [0] * n
        # step 1: strict majority of each fence type; a tie for the most scores nothing
        fence_type = data.fence_type
        tally: dict[str, list[int]] = {}   # fence type -> how many each player holds
        for p in range(n):
            for f in self.right[p]:
                counts = tally.get(fence_type[f])
                if counts is None:
                    counts = tally[fence_type[f]] = [0] * n
                counts[p] += 1
        for ft in FENCE_TYPES:
            counts = tally.get(ft)
            if counts is not None:         # (a type nobody holds scores nothing)
                top = max(counts)
                if counts.count(top) == 1:
                    majority[counts.index(top)] += b.majority.values.get(ft, 0)
        # step 2: scheme sets = the smaller count of the scheme's two location types
        scheme_pts, sets = [0] * n, [0] * n
        vals = b.scheme_sets.values
        loc_type = data.loc_type
        for p in range(n):
            a, c = data.scheme_types[self.scheme[p]]
            types = list(map(loc_type.__getitem__, self.left[p]))
            has_a, has_c = types.count(a), types.count(c)
            sets[p] = has_a if has_a < has_c else has_c
            scheme_pts[p] = vals[sets[p] if sets[p] < len(vals) else len(vals) - 1]
        # step 3: add to the prestige track
        for p in range(n):
            self.prestige[p] += majority[p] + scheme_pts[p]
        self.final = {"majority": majority, "scheme": scheme_pts, "sets": sets}
        self.phase = "end"
        for p in range(n if self.recording else 0):
            self.event("final", player=p, n=self.prestige[p], majority=majority[p],
                       scheme=scheme_pts[p], sets=sets[p])

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
            return self._choices(self.pending[0])
        if self.phase == "draft":
            return list(map(self.data.keep_actions.__getitem__, sorted(self.hands[player])))
        return self._turn_actions(player)

    def _apply(self, player: int, action: str) -> None:
        # only the decisions of LIMIT_VERBS add treasures (or leave a discard to finish): the
        # treasure limit needs no look after the others
        if self.pending:
            act = parse_action(action)
            self._apply_choice(player, act)
            self._run(check=act.verb in LIMIT_VERBS)
        elif self.phase == "draft":
            self._pick(player, parse_action(action).named_card)
            self._run(check=False)
        else:
            self._run(check=self._apply_turn(player, action))

    def _pick(self, p: int, card: str) -> None:
        """Scouting step 2: a hidden, simultaneous pick; revealed when everyone has picked."""
        self.picks[p] = card
        if self.recording:
            self.event("pick", to=[p], secret={"card": card}, player=p)
        if None not in self.picks:
            self._reveal_picks()

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
        choices, turn_actions = self._choices, self._turn_actions
        apply_choice, run, end_turn = self._apply_choice, self._run, self._auto_end_turn
        n = 0
        while n < max_decisions:
            phase = self.phase
            if phase == "end":
                break
            if pend:
                p = pend[0]["p"]
                acts = choices(pend[0])
                action = acts[below(len(acts))]
                act = parse_action(action)
                apply_choice(p, act)
                run(act.verb in LIMIT_VERBS)
            elif phase == "thieving":
                p = self.turn
                acts = turn_actions(p)
                action = acts[below(len(acts))]
                fn, arg, limit = dispatch[action]   # = _apply_turn, then _run
                fn(self, p, arg)
                if pend or limit:
                    pend.append({"k": "end_turn"})
                    run(limit)
                else:                                # nothing to run before the turn ends
                    end_turn(END_TURN)
                    if pend:                         # the tile holder's choice at maintenance
                        run(False)
            elif phase == "draft":
                to_act = [q for q in seats if picks[q] is None]
                p = to_act[0] if len(to_act) == 1 else to_act[below(len(to_act))]
                hand = sorted(self.hands[p])
                card = hand[below(len(hand))]
                action = keep[card]
                self._pick(p, card)
                if pend:                    # the picks revealed (a pick adds no treasure)
                    run(False)
            else:                           # not reached: every other phase has a frame pending
                return n + State._random_playout(self, rng, max_decisions - n)
            history.append([p, action])
            self.ply += 1
            n += 1
        self._legal_cache = None
        return n

    def _is_terminal(self) -> bool:
        return self.phase == "end"

    def _scores(self) -> list[float]:
        return [float(x) for x in self.prestige]

    def _winners(self) -> list[int]:
        """Most prestige; tie: most treasures + thieves; still tied: shared victory."""
        best = max(self.prestige)
        tied = [p for p in range(self.num_players) if self.prestige[p] == best]
        most = max(self._stock(p) for p in tied)
        return [p for p in tied if self._stock(p) == most]

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

