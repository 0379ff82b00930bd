"""The state of a game of Cadwallon and its rules (setup, round, turn, actions).

Section names refer to the French rulebook (seed text) and to the English fact
sheet: §"Mise en place" (setup), §"Le tour de jeu" (round), §"Déplacer un
milicien", §"Activer les personnages", §"Se déplacer", §"Quitter le quartier",
§"Ouvrir un coffre", §"Les trésors", §"Cartes mission", §"Tableau d'aventure",
§"Fin de la partie". The rules of each part are module functions taking the state:
what a player may do in :mod:`.legal`, applying it in :mod:`.actions`, where figures may go
and whom they may attack in :mod:`.movement`, the turn, the round and the end in
:mod:`.turns`, fights in :mod:`.combat`, reasons and texts in :mod:`.view`; the zone
graph's searches in :mod:`.board`. The state keeps the position, setup, scoring, the
observation and the engine's hooks.
"""
from __future__ import annotations

from operator import itemgetter
from typing import Any, Sequence

from ...core.game import State
from ...core.rng import BATCH, BATCH_STEP, Below, Rng, splitmix_batch
from . import view
from .actions import (apply_action, do_act, do_end, do_militia, do_militia_move, do_move, let_go,
                      reaction_pass, reaction_round, run_automatic_steps, take_gang)
from .components import Adventure, CadwallonData
from .constants import AP_PER_ROUND, START_HAND, STAY_INSIDE_PENALTY
from .legal import (ACT_CARD_PLAYS, INJURY_PLAY, NO_PLAY, legal_actions, main_listing,
                    militia_move_actions, pending_actions)


_GOLDEN, _MASK, _TWO64 = 0x9E3779B97F4A7C15, (1 << 64) - 1, 1 << 64
#: ``Rng.below(k)`` rejects draws from ``_LIMITS[k]`` on (the last whole multiple of k below
#: 2**64); an empty listing (never met) takes a draw and raises ZeroDivisionError
_MAX_LIMIT = 256
_LIMITS = [_TWO64] + [_TWO64 - _TWO64 % k for k in range(1, _MAX_LIMIT)]


def _limit(k: int) -> int:
    """``_LIMITS[k]`` for any bound (``Rng.below``'s error for none)."""
    if k <= 0:
        raise ValueError("below() needs a positive bound")
    return _TWO64 - _TWO64 % k


#: how deep each field of the position nests (every field once): :meth:`CadwallonState.clone`
#: copies each as deep as that, sharing only strings, numbers, booleans and None
SHARED_FIELDS = ("adventure", "phase", "round", "first", "current", "turns_done", "deploy_sel",
                 "bank", "active", "alarm", "militia_left", "militia_sel", "militia_roll", "over")
LIST_FIELDS = ("gangs", "ap", "ducats", "escaped", "handed_in", "box", "deck", "discard",
               "missions", "mission_deck", "mission_discard", "activated", "portcullis")
DICT_FIELDS = ("pos", "room_ducats", "tokens", "injured")
LISTS_FIELDS = ("to_deploy", "banked", "hands")              # lists of lists
NESTED_FIELDS = ("carried", "chests", "act", "combat", "fight", "queue")  # copied one by one
_shared, _lists, _dicts = itemgetter(*SHARED_FIELDS), itemgetter(*LIST_FIELDS), itemgetter(*DICT_FIELDS)
_list_copy, _dict_copy = list.copy, dict.copy


def _record_copy(record: Any) -> Any:
    """A copy of a record whose values are plain values or lists and dicts of them."""
    if record is None:
        return None
    out = record.copy()
    for k, v in record.items():
        if type(v) is list or type(v) is dict:
            out[k] = v.copy()
    return out


class CadwallonState(State):
    #: the largest number a snapshot's fields may hold (core/snapshot.py): every count,
    #: score and index of a real game is far below it, and a count of 10**9 would make
    #: a loop over it run for ever
    SNAPSHOT_MAX_INT = 100_000
    data: CadwallonData
    # -- the position (``CadwallonState.FIELDS``) -----------------------------------------
    adventure: str
    phase: str
    round: int
    first: int
    current: int
    turns_done: int
    gangs: list[str | None]
    to_deploy: list[list[str]]
    deploy_sel: Any               # the character chosen to deploy (a str), else None
    ap: list[int]
    pos: dict[str, str]           # figure -> zone
    carried: dict[str, list[str]]
    chests: dict[str, dict[str, Any]]
    room_ducats: dict[str, int]
    tokens: dict[str, str]
    ducats: list[int]
    bank: int
    banked: list[list[str]]
    escaped: list[str]
    handed_in: list[str]
    box: list[str]
    hands: list[list[str]]
    deck: list[str]
    discard: list[str]
    missions: list[str | None]
    mission_deck: list[str]
    mission_discard: list[str]
    activated: list[str]
    active: Any                   # the active character (a str) during an activation, else None
    act: Any                      # that activation's record (a dict) while it lasts, else None
    injured: dict[str, int]
    portcullis: list[str]
    alarm: bool
    militia_left: int
    militia_sel: Any              # the militiaman being moved (a str), else None
    militia_roll: int
    combat: Any                   # the fight being settled (a dict), else None
    fight: dict[str, Any] | None
    queue: list[dict[str, Any]]
    over: bool

    FIELDS = ("adventure", "phase", "round", "first", "current", "turns_done", "gangs", "to_deploy", "deploy_sel",
              "ap", "pos", "carried", "chests", "room_ducats", "tokens", "ducats", "bank",
              "banked", "escaped", "handed_in", "box", "hands", "deck", "discard", "missions",
              "mission_deck", "mission_discard", "activated", "active", "act", "injured",
              "portcullis", "alarm", "militia_left", "militia_sel", "militia_roll", "combat",
              "fight", "queue", "over")

    #: :meth:`_random_playout` draws its picks from SplitMix64 batches itself
    draws_ahead = False
    #: the last :func:`reach_now` answer with its inputs (derived, never serialized)
    _reach_memo: tuple[tuple[Any, ...], dict[str, int]] | None = None
    #: the last :func:`flee_options` answer with its inputs (derived, never serialized)
    _flee_memo: tuple[tuple[Any, ...], list[str]] | None = None

    # -- the engine's hooks, answered by the rule modules -----------------------------
    _legal_actions = legal_actions
    _apply = apply_action
    _explain = view.explain
    describe_action = view.describe_action
    render_text = view.render_text
    reaction_pass = reaction_pass
    reaction_round = reaction_round

    # -- setup: §"Mise en place" ------------------------------------------------------
    def _setup(self) -> None:
        d, rng, n = self.data, self.rng, self.num_players
        adv = self.options["adventure"]
        if adv == "random":
            adv = d.adventures.adventures[rng.below(len(d.adventures.adventures))].id
        self.adventure = adv
        self.round = 1
        self.phase = "deploy"
        self.turns_done = 0
        self.ap = [AP_PER_ROUND] * n
        self.pos, self.carried, self.chests = {}, {}, {}
        self.room_ducats, self.tokens = {}, {}
        self.ducats, self.bank = [0] * n, d.treasures.ducats_in_bank
        self.banked, self.escaped = [[] for _ in range(n)], []
        self.handed_in = []
        self.activated, self.active, self.act = [], None, None
        self.injured, self.portcullis, self.alarm = {}, [], False
        self.militia_left, self.militia_sel, self.militia_roll = 0, None, 0
        self.combat, self.queue, self.over = None, [], False
        self.fight = None  # the last fight settled, shown until the next one
        # step 2: each player chooses a gang and takes its 4 characters (option gang_choice:
        # "seat" hands them out in seat order instead)
        self.gangs = [None] * n
        self.to_deploy = [[] for _ in range(n)]
        self.deploy_sel = None
        if self.options["gang_choice"] == "seat":
            for p in range(n):
                take_gang(self, p, d.gang_ids[p])
        else:
            self.phase = "gang"
        # step 5: the militiamen start in the guard room and in the vault
        for m in d.characters.militiamen:
            self.pos[m.id] = d.role[m.start]
        # step 6: one chest token at random in each room, then flipped to its treasure face
        mix = d.treasures.mixes[self.options["treasure_mix"]]
        tokens = [f"{t}{i + 1}" for t in mix for i in range(mix[t])]
        rng.shuffle(tokens)
        for room in d.rooms:
            self.chests[room] = {"t": tokens.pop(), "sealed": False}
        self.box = tokens  # the tokens left over stay in the box, unseen
        # step 7: missions, 3 face up
        self.mission_deck = [m.id for m in d.missions.missions]
        rng.shuffle(self.mission_deck)
        self.missions = [self.mission_deck.pop() for _ in range(3)]
        self.mission_discard = []
        # step 8: arcana deck, 5 cards each
        self.deck = [c.kind for c in d.arcana.cards for _ in range(c.count)]
        rng.shuffle(self.deck)
        self.discard = []
        self.hands = [[] for _ in range(n)]
        for p in range(n):
            for _ in range(START_HAND):
                self.hands[p].append(self.deck.pop())
            self.hands[p].sort()
        # adventure setup (ducats in rooms, tokens, heroines)
        a = self.adv
        for z, amount in a.setup.ducats.items():
            zone = d.zone_of(z)
            self.room_ducats[zone] = self.room_ducats.get(zone, 0) + amount
            self.bank -= amount
        for z, kind in a.setup.tokens.items():
            self.tokens[d.zone_of(z)] = kind
        for h, z in a.setup.heroines.items():
            self.pos[h] = d.zone_of(z)
            self.carried[h] = [self.box.pop()] if self.box else []
        # step 9: two dice each, highest total starts (ties re-rolled)
        contenders = list(range(n))
        while len(contenders) > 1:
            rolls = {p: rng.die(6) + rng.die(6) for p in contenders}
            top = max(rolls.values())
            contenders = [p for p in contenders if rolls[p] == top]
        self.first = self.current = contenders[0]
        self.event("setup", adventure=adv, player=self.first)
        if self.phase == "gang":
            self.current = 0

    @property
    def adv(self) -> Adventure:
        return self.data.adventure[self.adventure]

    # -- who acts ------------------------------------------------------------------
    def _players_to_act(self) -> list[int]:
        if self.over:
            return []
        if self.queue:
            return [self.queue[0]["player"]]
        return [self.current]

    def _is_terminal(self) -> bool:
        return self.over

    def _random_playout(self, rng: Below, max_decisions: int) -> int:
        """:meth:`State.random_playout` (the same moves as the checked loop), with this
        game's turn structure built in: one player decides at a time (the first pending
        task's, else the current player), so no seat is drawn; each phase's listing is
        called directly; an activation, a move (with the targets and Movement its listing
        worked out), the end of a turn, the militia's roll and move and a passed window are
        applied directly, read from tables of the notation, the rest through :func:`apply_action`;
        after an activation, or an arcana card played on it, the next listing reuses the
        actions outside the activation. The picks are drawn from SplitMix64 batches in the
        loop (:func:`~thieves.core.rng.splitmix_batch`: the very outputs of
        :meth:`Rng.next64`, kept or rejected as :meth:`Rng.below` does); any other generator,
        or the state's own, plays the engine's loop."""
        if type(rng) is not Rng or rng is self.rng:
            return State._random_playout(self, rng, max_decisions)
        history = self.history
        # the rule modules' functions, each called with the state first
        legal, apply, cont = legal_actions, apply_action, run_automatic_steps
        listing, pending = main_listing, pending_actions
        militia_move = militia_move_actions
        d = self.data
        militia_actions = d.militia_actions
        # the word after the verb of the actions applied here, by the notation
        acted, moved, rolled, led = d.act_char, d.move_zone, d.militia_of, d.mm_zone
        act_card_plays = ACT_CARD_PLAYS
        limits = _LIMITS
        batch = splitmix_batch
        base = rng.state       # the generator's state before the first draw of ``zs``
        zs, j = batch(base), 0  # ``j``: draws of ``zs`` used
        acts: Sequence[str]
        listed: list[str] = []  # the last main-phase listing
        rest: list[str] | None = None
        split = 0
        targets: dict[str, int] | None = None
        mv = 0
        recording = self.recording
        n = 0
        try:
            while n < max_decisions and not self.over:
                queue = self.queue
                if queue:
                    rest = None
                    task = queue[0]
                    p = task["player"]
                    if task["kind"] == "injury":  # :func:`pending_actions`, its usual case
                        acts = INJURY_PLAY if "niggling_injury" in self.hands[p] else NO_PLAY
                    else:
                        acts = pending(self, task)
                    phase = "pending"
                else:
                    p = self.current
                    phase = self.phase
                    if phase == "main":
                        listed, targets, mv, split = listing(self, p, rest)
                        acts, rest = listed, None
                    elif phase == "militia":
                        acts = militia_actions
                    elif phase == "militia_move":
                        acts = militia_move(self, p)
                    else:
                        acts = legal(self, p)
                # Rng.below(len(acts)): a draw from the last whole multiple of k on is rejected
                if j == BATCH:
                    base = (base + BATCH_STEP) & _MASK
                    zs, j = batch(base), 0
                z = zs[j]
                j += 1
                k = len(acts)
                if k == 1:
                    action = acts[0]
                else:
                    try:
                        limit = limits[k]
                    except IndexError:
                        limit = _limit(k)
                    while z >= limit:
                        if j == BATCH:
                            base = (base + BATCH_STEP) & _MASK
                            zs, j = batch(base), 0
                        z = zs[j]
                        j += 1
                    action = acts[z % k]
                # apply it (as :func:`apply_action` would)
                if phase == "main":
                    obj = acted.get(action)
                    if obj is not None:  # act <character>
                        # the next decision lists the same actions outside the activation,
                        # but this one (see :func:`main_listing`)
                        rest = listed[split:]
                        rest.remove(action)
                        do_act(self, p, obj)
                        self.combat = None
                    elif action in act_card_plays:  # an arcana card on the active character
                        rest = listed[split:]
                        apply(self, p, action)
                    else:
                        obj = moved.get(action)
                        if obj is not None:  # move <zone>
                            do_move(self, p, obj, targets, mv)
                            if self.queue:
                                cont(self)
                            else:
                                self.combat = None
                        elif action == "end":
                            do_end(self, p)
                            if self.queue:
                                cont(self)
                            else:
                                self.combat = None
                        else:
                            apply(self, p, action)
                elif phase == "militia":
                    do_militia(self, rolled[action])
                    self.combat = None
                elif phase == "militia_move":
                    do_militia_move(self, p, led[action])
                    if self.queue:
                        cont(self)
                    else:
                        self.combat = None
                elif phase == "pending" and action == "no":  # a window passed (Niggling injury, Jinx)
                    if recording:
                        let_go(self, p, task)
                    queue.pop(0)
                    if queue:
                        cont(self)
                    else:
                        self.combat = None
                else:
                    apply(self, p, action)
                history.append([p, action])
                if recording:  # an event records the ply it happened at
                    self.ply += 1
                n += 1
        finally:
            rng.state = (base + j * _GOLDEN) & _MASK
            if not recording:
                self.ply += n
        self._legal_cache = None
        return n

    # -- small helpers -------------------------------------------------------------------
    def _is_thief(self, c: str) -> bool:
        return c in self.data.char

    def _is_militia(self, c: str) -> bool:
        return c in self.data.militia

    def _is_heroine(self, c: str) -> bool:
        return c in self.data.heroine

    def _owner(self, c: str) -> int | None:
        g = self.data.gang_of.get(c)
        gangs = self.gangs
        return gangs.index(g) if g in gangs else None

    def _player(self, c: str) -> int:
        """The player of thief ``c`` (a thief on the board always has one)."""
        p = self._owner(c)
        assert p is not None, f"{c} belongs to no player"
        return p

    def _name(self, c: str) -> str:
        return self.data.name_of[c]

    def _talent(self, c: str) -> str | None:
        return self.data.talent_of.get(c)

    def _combat_value(self, c: str) -> int:
        return self.data.combat_of[c]

    def _ttype(self, tid: str) -> str:
        ttype = self.data.ttype_of.get(tid)
        return ttype if ttype is not None else tid.rstrip("0123456789")

    def _thieves_of(self, p: int) -> list[str]:
        """Characters of player p on the board, in card order."""
        g = self.gangs[p]
        if g is None:
            return []
        pos = self.pos
        return [c for c in self.data.gang_chars[g] if c in pos]

    def _occupied_zones(self) -> set[str]:
        return set(self.pos.values())

    # -- scoring: §"Fin de la partie" -------------------------------------------------------------
    def treasure_value(self, tids: list[str]) -> int:
        """Set values per gang: 1/2/3 of a kind = 2/5/8 ducats, red gems 2 each."""
        counts: dict[str, int] = {}
        for t in tids:
            k = self._ttype(t)
            counts[k] = counts.get(k, 0) + 1
        return sum(self.data.set_value(k, n) for k, n in counts.items())

    def _scores(self) -> list[float]:
        out = []
        for p in range(self.num_players):
            inside = len(self._thieves_of(p)) + len(self.to_deploy[p])
            total = self.ducats[p] + self.treasure_value(self.banked[p])
            out.append(float(max(0, total - STAY_INSIDE_PENALTY * inside)))
        return out

    def _winners(self) -> list[int]:
        """Most ducats; tie-break (reconstructed): most characters escaped, else shared."""
        sc = self._scores()
        best = max(sc)
        tied = [p for p in range(self.num_players) if sc[p] == best]
        esc = {p: sum(1 for c in self.escaped if self._owner(c) == p) for p in tied}
        top = max(esc.values())
        return [p for p in tied if esc[p] == top]

    # -- observation -------------------------------------------------------------------------------
    def _observe(self, player: int | None) -> dict[str, Any]:
        d = self.data
        return {
            "adventure": self.adventure, "round": self.round, "track": self.adv.track,
            "phase": self.phase, "first": self.first, "current": self.current,
            "alarm": self.alarm, "portcullis": list(self.portcullis),
            "ap": list(self.ap), "ducats": list(self.ducats), "bank": self.bank,
            "gangs": list(self.gangs),
            "positions": dict(self.pos), "to_deploy": [list(x) for x in self.to_deploy],
            "deploy_selected": self.deploy_sel,
            "carried": {c: list(t) for c, t in self.carried.items()},
            "chests": {z: dict(v) for z, v in self.chests.items()},
            "room_ducats": dict(self.room_ducats), "tokens": dict(self.tokens),
            "banked": [list(b) for b in self.banked], "escaped": list(self.escaped),
            "handed_in": list(self.handed_in), "box_count": len(self.box),
            "hand": list(self.hands[player]) if player is not None else None,
            "hand_counts": [len(h) for h in self.hands],
            "deck_count": len(self.deck), "discard": list(self.discard),
            "missions": list(self.missions), "mission_deck_count": len(self.mission_deck),
            "activated": list(self.activated), "active": self.active,
            "act": None if self.act is None else {k: (list(v) if isinstance(v, list) else v)
                                                  for k, v in self.act.items()},
            "injured": dict(self.injured), "militia_left": self.militia_left,
            "militia_selected": self.militia_sel, "militia_roll": self.militia_roll,
            "combat": None if self.combat is None else dict(self.combat),
            "fight": self.fight,
            "pending": None if not self.queue else {k: v for k, v in self.queue[0].items()},
            "scores": self._scores(),
            # the viewer's own choices now (so the board can make them clickable)
            "legal": self.legal_actions(player) if player is not None else [],
        }

    def clone(self) -> "CadwallonState":
        """:meth:`State.clone`, each field copied as deep as it nests (see
        :data:`SHARED_FIELDS` and the next tables) instead of through ``marshal``: the same
        independent copy, sharing only immutable values."""
        new = self._clone_contract()
        old, nd = self.__dict__, new.__dict__
        nd.update(zip(SHARED_FIELDS, _shared(old)))
        nd.update(zip(LIST_FIELDS, map(_list_copy, _lists(old))))
        nd.update(zip(DICT_FIELDS, map(_dict_copy, _dicts(old))))
        for f in LISTS_FIELDS:
            nd[f] = list(map(_list_copy, old[f]))
        carried, chests = self.carried, self.chests
        new.carried = dict(zip(carried, map(_list_copy, carried.values())))
        new.chests = dict(zip(chests, map(_dict_copy, chests.values())))
        new.act = _record_copy(self.act)
        new.combat = _record_copy(self.combat)
        new.fight = _record_copy(self.fight)
        new.queue = [_record_copy(t) for t in self.queue] if self.queue else []
        new._after_load()
        return new

    def determinize(self, player: int, seed: int) -> "CadwallonState":
        """Reshuffle what ``player`` cannot see: other hands, the decks and the box."""
        from ...core.rng import Rng
        new = self.clone()
        new.rng = Rng.from_seed(seed)
        pool = list(new.deck)
        for p in range(new.num_players):
            if p != player:
                pool += new.hands[p]
        pool.sort()  # sorted first: the re-deal must not depend on the real order
        new.rng.shuffle(pool)
        for p in range(new.num_players):
            if p != player:
                k = len(new.hands[p])
                new.hands[p] = sorted(pool[:k])
                pool = pool[k:]
        new.deck = pool
        new.mission_deck.sort()
        new.rng.shuffle(new.mission_deck)
        new.box.sort()
        new.rng.shuffle(new.box)
        return new
