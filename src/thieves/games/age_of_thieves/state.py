"""Age of Thieves: the position, the five phases and the planning phase.

The round loop lives in :meth:`AgeState._advance`: it runs every automatic
step (event, draw, reveal, initiative order, guards, clean-up) until some
player must decide. Movement and card effects are in ``actions.py``; the city
guard and the dungeon in ``guards.py``; planning in ``planning.py``.
"""
from __future__ import annotations

from operator import itemgetter
from typing import Any, cast

from ...core.game import State
from ...core.rng import Below
from . import actions, guards, planning, view
from .components import COMPASS, AotData, Event
from .notation import ctype, figure_kind, parse_action


#: the planned cards that are no general card
BASIC_CARDS = frozenset(("move", "ambush", "special"))

#: a planned card's AP (the key of the execution order)
SLOT_AP = itemgetter("ap")

#: the thief's flags that last one round, all lowered in the clean-up (§5)
ROUND_FLAGS_CLEARED = dict.fromkeys(("escaped", "arrested", "cloak", "protected", "marker", "robbed",
                                     "immobile", "resolved", "strong"), False)


class Playout:
    """What :meth:`AgeState._random_playout` keeps between decisions: nothing but what the
    position itself decides, worked out once instead of at every step.

    ``ex``, ``lanes``: the execution phase (its ``exec`` dict) whose face-down cards
    ``lanes`` holds, as (seat, cards) per thief (see :meth:`AgeState._exec_queued`).
    ``listing``: the last movement choices :func:`actions.auto_finish` listed, as
    ``(act, actions)``; ``pending``: the choices of the pending decision the round loop
    stopped at, as ``(decision, actions)``."""

    __slots__ = ("ex", "lanes", "listing", "pending")

    def __init__(self) -> None:
        self.ex: dict[str, Any] | None = None
        self.lanes: list[tuple[int, list[dict[str, Any]]]] = []
        self.listing: tuple[dict[str, Any], list[str]] | None = None
        self.pending: tuple[dict[str, Any], list[str]] | None = None


class AgeState(State):
    #: the largest number a snapshot's fields may hold (core/snapshot.py): every count,
    #: score and index of a real game is far below it, and a count of 10**9 would make
    #: a loop over it run for ever
    SNAPSHOT_MAX_INT = 1000
    FIELDS = ("round", "phase", "estep", "start", "thieves", "guards", "guard_supply", "captain_supply",
              "gems", "tokens", "features", "box_tokens", "spent_tokens", "smoke", "fire",
              "yellow_supply", "green_supply", "deck", "discard", "calm_deck", "alarm_deck", "ev",
              "district_deck", "alarm_district", "jewel_taken", "alarm", "die", "exec", "turn", "act",
              "pending", "gq", "left_count", "ended", "emperor_winner")
    data: AotData
    # -- the fields (FIELDS), plain JSON data
    round: int
    phase: str                               # "event", "draw", "plan", "exec", "cleanup", "over"
    estep: int                               # the step reached in the event phase
    start: int                               # the start player
    thieves: list[dict[str, Any]]            # per seat: the thief's sheet (see _new_thief)
    guards: dict[str, str]                   # figure ("g4", "c1") -> space
    guard_supply: list[str]
    captain_supply: list[str]
    gems: dict[str, list[str]]               # space -> jewels on it
    tokens: dict[str, str]                   # space -> face-down city token
    features: dict[str, str]                 # space -> alley, manhole or ladder
    box_tokens: list[str]
    spent_tokens: list[str]
    smoke: list[str]
    fire: list[str]
    yellow_supply: int
    green_supply: int
    deck: list[str]
    discard: list[str]
    calm_deck: list[str]
    alarm_deck: list[str]
    ev: str | None                           # the round's event card
    district_deck: list[str]
    alarm_district: str | None
    jewel_taken: bool
    alarm: bool
    die: int                                 # the watch's initiative
    exec: dict[str, Any]                     # the execution phase's bookkeeping
    turn: int | None
    act: dict[str, Any] | None               # the card being resolved (actions.py, cards.py)
    pending: list[dict[str, Any]]            # one-off decisions (planning.py)
    gq: dict[str, Any] | None                # the watch at work (guards.py)
    left_count: int
    ended: str | None
    emperor_winner: int | None

    # -- setup (Rulebook §"Spielaufbau", in its order) ------------------------------
    def _setup(self) -> None:
        d, n, rng = self.data, self.num_players, self.rng
        pieces = d.tokens.pieces
        self.round, self.phase, self.estep = 1, "event", 0
        self.gq = self.act = self.turn = None
        self.pending, self.exec = [], {}
        self.left_count, self.ended, self.emperor_winner = 0, None, None
        # 2. one guard on each of the 12 guardhouses with swords
        swords = d.of_kind["sword"]
        self.guards = {f"g{i + 1}": s for i, s in enumerate(swords)}
        self.guard_supply = [f"g{i + 1}" for i in range(len(swords), pieces["guards"])]
        self.captain_supply = [f"c{i + 1}" for i in range(pieces["captains"])]
        # 3. city tokens face down on every guardhouse outside the Palace and under every sword guard
        pool = [t.id for t in d.tokens.city_tokens for _ in range(t.count)]
        rng.shuffle(pool)
        self.tokens = {}
        for s in d.guardhouses:
            if d.district[s] == "palace" and d.kind[s] != "sword":
                continue
            self.tokens[s] = pool.pop()
        self.box_tokens, self.spent_tokens, self.features = pool, [], {}
        # 4. the Emperors' Jewel in the treasury, a green jewel on each marked space
        self.gems = {d.of_kind["treasury"][0]: ["emperor"]}
        for s in d.of_kind["green"]:
            self.gems[s] = ["green"]
        self.yellow_supply, self.green_supply = pieces["yellow_jewels"], 0
        self.smoke, self.fire = [], []
        # 6./7. thieves: random sheets (option), start player by die roll, start spaces
        ids = list(d.thief_ids)
        chosen = self.options.get("thieves")
        if chosen:
            ids = chosen.split(",")
        else:
            rng.shuffle(ids)
        ids = ids[:n]
        self.start = self._roll_start_player()
        self.thieves = [self._new_thief(ids[p]) for p in range(n)]
        # start spaces: the start player, then clockwise, choose; we ask them (pending "startspace")
        for k in range(n):
            self.pending.append({"kind": "startspace", "p": (self.start + k) % n})
        # 9. action deck, 2 cards each
        self.deck = [f"{c.id}{i + 1}" for c in d.cards.general for i in range(c.copies)]
        rng.shuffle(self.deck)
        self.discard = []
        for p in range(n):
            for _ in range(pieces["start_hand"]):
                self.thieves[p]["hand"].append(self.deck.pop())
        # 10. district deck; 11. 10 calm and 5 alarm events
        self.district_deck = list(COMPASS.values())
        rng.shuffle(self.district_deck)
        calm = [e.id for e in d.events.calm]
        alarm = [e.id for e in d.events.alarm]
        rng.shuffle(calm)
        rng.shuffle(alarm)
        self.calm_deck = calm[:pieces["calm_events"]]
        self.alarm_deck = alarm[:pieces["alarm_events"]]
        self.ev = None
        self.alarm_district, self.jewel_taken, self.alarm, self.die = None, False, False, 0
        self.event("start_player", player=self.start)

    def _roll_start_player(self) -> int:
        """Rulebook §setup 7: everyone rolls; ties among the highest roll again."""
        tied = list(range(self.num_players))
        while len(tied) > 1:
            rolls = {p: self.rng.die(8) for p in tied}
            top = max(rolls.values())
            tied = [p for p in tied if rolls[p] == top]
        return tied[0]

    def _new_thief(self, tid: str) -> dict[str, Any]:
        return {"id": tid, "pos": None, "hand": [], "yellow": 0, "green": 0, "emperor": False,
                "best": False, "sheet": [], "blue": self.data.tokens.pieces["blue_ap"], "red": 0,
                "violet": 0, "violet_new": 0, "poison": 0, "plan": [], "cur": None, "done": False,
                "dungeon": False, "escaped": False, "arrested": False, "cloak": False,
                "protected": False, "marker": False, "robbed": False, "immobile": False,
                "resolved": False, "strong": False, "left": None, "ap_next": None}

    # -- names -------------------------------------------------------------------------
    def tname(self, p: int) -> str:
        return self.data.thieves[self.thieves[p]["id"]].name if hasattr(self, "thieves") else f"Player {p + 1}"

    def player_name(self, p: int) -> str:
        return f"{self.tname(p)} (P{p + 1})"

    # -- who acts ------------------------------------------------------------------------
    def _players_to_act(self) -> list[int]:
        if self.ended:
            return []
        if self.pending:
            return [self.pending[0]["p"]]
        if self.act:
            return [self.act["p"]]
        if self.phase == "plan":
            return [p for p, t in enumerate(self.thieves) if not t["done"]]
        if self.turn is not None:
            return [self.turn]
        return []

    def _is_terminal(self) -> bool:
        return self.ended is not None

    def _legal_actions(self, p: int) -> list[str]:
        if self.pending:
            return planning.pending_actions(self, self.pending[0])
        if self.act:
            return actions.act_actions(self, self.act)
        if self.phase == "plan":
            return planning.plan_actions(self, p)
        return actions.turn_actions(self, p)

    def _apply(self, p: int, text: str) -> None:
        action = parse_action(text)  # parsed once; every step below reads its fields
        if self.pending:
            planning.pending_apply(self, self.pending[0], action)
        elif self.act:
            actions.act_apply(self, self.act, action)
        elif self.phase == "plan":
            planning.plan_apply(self, p, action)
        else:
            actions.turn_apply(self, p, action)
        self._advance()

    # -- the trusted fast path (State.random_playout) ------------------------------------
    #: what a trusted playout keeps between its decisions (None outside one)
    _playout: Playout | None = None

    def _random_playout(self, rng: Below, max_decisions: int) -> int:
        """:meth:`State.random_playout` (the same moves as the checked loop) with this game's
        turn structure built in: outside planning one seat decides at a time (the first
        pending decision's, the resolving card's, the turn's), so no seat is drawn, and the
        listing and apply are those of :meth:`_legal_actions` and :meth:`_apply` without the
        dispatch (a turn's planned cards are looked up once for both; a movement's choices,
        listed at the end of a step to see whether it goes on, and a pending decision's,
        listed by the round loop to see whether it must stop, are not listed again for the
        decision); planning is played by :func:`planning.plan_playout`. :class:`Playout` keeps
        these and the execution order meanwhile."""
        below = rng.below
        history = self.history
        advance = self._advance
        n = 0
        self._playout = kept = Playout()
        listed = None   # a movement's choices listed by its last step, if still its choices
        try:
            while n < max_decisions and self.ended is None:
                pending = self.pending
                if pending:
                    pd = pending[0]
                    p = pd["p"]
                    waiting = kept.pending   # as the round loop listed them when it stopped
                    kept.pending = None
                    acts = waiting[1] if waiting is not None and waiting[0] is pd else \
                        planning.pending_actions(self, pd)
                    action = acts[below(len(acts))]
                    planning.pending_apply(self, pd, parse_action(action))
                else:
                    act = self.act
                    if act:
                        p = act["p"]
                        acts = listed[1] if listed is not None and listed[0] is act else \
                            actions.act_actions(self, act)
                        action = acts[below(len(acts))]
                        actions.act_apply(self, act, parse_action(action))
                    elif self.phase == "plan":
                        n += planning.plan_playout(self, below, max_decisions - n)
                        listed = None
                        continue
                    else:
                        turn = self.turn
                        assert turn is not None   # a decision is due: the turn's
                        p = turn
                        slots = actions.my_slots(self, p)
                        acts = actions.turn_actions(self, p, slots)
                        action = acts[below(len(acts))]
                        actions.turn_apply(self, p, parse_action(action), slots)
                # a movement's choices listed by auto_finish at the end of this decision (the
                # only place that lists them; it runs in decisions only) are the next
                # decision's if nothing else is to be decided first (the round loop then
                # changes nothing)
                listed = kept.listing
                if listed is not None:
                    kept.listing = None
                    if listed[0] is not self.act or self.pending:
                        listed = None
                advance()
                history.append([p, action])
                self.ply += 1
                n += 1
        finally:
            del self._playout
        self._legal_cache = None
        return n

    # -- the round loop ------------------------------------------------------------------
    def _advance(self) -> None:
        """Run automatic steps until a decision is needed or the game ends."""
        while not self.ended:
            if self.act is None and self.jewel_taken and self.alarm_district is None:
                actions.draw_escape_district(self)
            if self.pending:
                acts = planning.pending_actions(self, self.pending[0])
                if len(acts) > 1:
                    if self._playout is not None:  # the next decision's choices (a playout's)
                        self._playout.pending = self.pending[0], acts
                    return
                if not acts:  # nothing left to choose (e.g. an empty hand): skip
                    self.pending.pop(0)
                else:  # a forced choice is made for the player
                    planning.pending_apply(self, self.pending[0], parse_action(acts[0]))
                continue
            if self.act:
                return
            if self.gq is not None:
                if not guards.guards_run(self):
                    return
                continue
            ph = self.phase
            if ph == "event":
                if not self._event_phase():
                    return
            elif ph == "draw":
                self._draw_phase()
            elif ph == "plan":
                for t in self.thieves:
                    if not t["done"]:
                        return   # someone is still planning
                self._reveal_plans()
            elif ph == "exec":
                if self.turn is not None:
                    return
                if not self._exec_next():
                    self.phase = "cleanup"
                elif self.turn is not None:
                    return  # what the loop would find next: nothing else changed
            elif ph == "cleanup":
                self._cleanup()

    # -- 1. event phase (Rulebook §"1. Phase: Ereignis") --------------------------------
    def current_event(self) -> Event | None:
        if self.ev is None:
            return None
        return (self.data.alarm_event if self.alarm else self.data.calm_event).get(self.ev)

    def _event_phase(self) -> bool:
        """Returns False when it stopped for a decision."""
        d = self.data
        if self.estep == 0:
            if self.on_board() == []:
                self._finish("all_left")
                return False
            # Rulebook §"Den Alarm auslösen": the round after the jewel was taken
            if self.jewel_taken and not self.alarm:
                self._raise_alarm()
            self.estep = 1
            if self.pending:
                return False
        if self.estep == 1:
            deck = self.alarm_deck if self.alarm else self.calm_deck
            self.ev = deck.pop(0)
            ev = self.current_event()
            assert ev is not None   # the card just drawn
            if ev.direction:
                self.event("event_calm", round=self.round, event=ev.id, district=COMPASS[ev.direction])
            else:
                self.event("event_alarm", round=self.round, event=ev.id)
            self.estep = 2
            for _ in range(ev.reinforce):
                self.pending.append({"kind": "place_guard", "p": self.start, "why": "event"})
            for p in self.on_board():
                if ev.violet:
                    self.thieves[p]["violet"] += ev.violet
                for _ in range(ev.draw):
                    self.draw_card(p)
            if self.pending:
                return False
        if self.estep == 2:
            self.estep = 3
            ev = self.current_event()
            assert ev is not None   # this round's card
            # b) a yellow jewel in the compass district, chosen by the start player (calm only)
            if not self.alarm and ev.direction and self.yellow_supply > 0:
                spots = self.jewel_spots(COMPASS[ev.direction])
                if spots:
                    self.pending.append({"kind": "jewel", "p": self.start, "spots": spots})
                    return False
                self.event("no_jewel_spot")
        if self.estep == 3:
            # c) guard initiative: 1 die, 2 dice (take the higher) once alarmed
            sheet = d.sheet["alarm" if self.alarm else "calm"]
            rolls = [self.rng.die(8) for _ in range(int(sheet["dice"]))]
            self.die = max(rolls)
            if self.recording:
                self.event("initiative", die=self.die, rolls=", ".join(map(str, rolls)))
            self.estep = 0
            self.phase = "draw"
        return True

    def jewel_spots(self, district: str) -> list[str]:
        """Empty spaces of the district at least 6 spaces from every thief (§1b)."""
        d = self.data
        cands = d.jewel_candidate_set.get(district)  # the district without its dungeon
        if not cands:
            return []
        # d.too_near[s]: the spaces less than pieces["jewel_distance"] away from s (distances
        # along the paths are symmetric: a space too near a thief has the thief too near it)
        too_near = d.too_near
        spots = cands.difference(self.occupied(), *[too_near[t["pos"]] for t in self.thieves
                                                    if t["pos"] is not None])
        return sorted(spots, key=d.board_index.__getitem__)

    def is_empty(self, s: str) -> bool:
        """Rulebook §"leeres Feld": no component at all on the space."""
        return not (self.gems.get(s) or s in self.tokens or s in self.features or s in self.smoke
                    or s in self.fire or self.guard_at(s) or self.thieves_at(s))

    def occupied(self) -> set[str]:
        """Every space that is not empty (the test of ``is_empty``, for all spaces at once)."""
        busy = {s for s, gems in self.gems.items() if gems}
        busy.update(self.tokens, self.features, self.smoke, self.fire, self.guards.values())
        busy.update(t["pos"] for t in self.thieves if t["left"] is None)
        return busy

    def _raise_alarm(self) -> None:
        """Rulebook §"Den Alarm auslösen": flip the sheet, captains and guards, alarm deck."""
        self.alarm = True
        dist = self.alarm_district
        self.event("alarm", district=dist)
        for s in self.data.of_kind["captain_alarm"]:
            if self.data.district[s] == dist and self.captain_supply:
                self.put_figure(self.captain_supply.pop(0), s)
        for s in self.data.of_kind["guard_alarm"]:
            if self.data.district[s] == dist:
                self.pending.append({"kind": "place_guard", "p": self.start, "why": "alarm", "at": s})
        self.calm_deck = []

    # -- 2. draw phase -----------------------------------------------------------------
    def _draw_phase(self) -> None:
        for k in range(self.num_players):
            p = (self.start + k) % self.num_players
            if self.thieves[p]["left"] is None:
                self.draw_card(p)
        self.phase = "plan"
        planning.begin_planning(self)

    def draw_card(self, p: int) -> None:
        """Draw 1 general card; the hand limit of 5 applies at once (§2)."""
        if not self.deck and self.discard:
            self.deck = self.discard
            self.discard = []
            self.rng.shuffle(self.deck)
            self.event("reshuffle")
        if not self.deck:
            return
        c = self.deck.pop()
        if not self.deck and self.discard:
            # Rulebook §2: when the last card is drawn, the discard pile becomes the new deck
            self.deck = self.discard
            self.discard = []
            self.rng.shuffle(self.deck)
            self.event("reshuffle")
        self.thieves[p]["hand"].append(c)
        if self.recording:
            self.event("draw", to=[p], secret={"card": ctype(c)}, player=p)
        if len(self.thieves[p]["hand"]) > self.data.tokens.pieces["hand_limit"]:
            self.pending.append({"kind": "discard", "p": p, "why": "limit"})

    # -- 4. execution order (Rulebook §"4. Phase: Ausführung", ties) ---------------------
    def _exec_next(self) -> bool:
        """Find who acts next; False when the phase is over."""
        ex = self.exec
        # the highest AP among the cards still face down, and the thieves who planned it
        if self._playout is None:
            top: int | None = None
            players: set[int] = set()
            for p, t in enumerate(self.thieves):
                for s in t["plan"]:
                    if not s["shown"]:
                        ap = s["ap"]
                        if top is None or ap > top:
                            top, players = ap, {p}
                        elif ap == top:
                            players.add(p)
        else:
            top, players = self._exec_queued(ex)
        if not ex["guards_done"]:
            # calm: thieves win ties against the watch; alarm: the watch wins them
            if top is None or self.die > top or (self.die == top and self.alarm):
                guards.begin_guards(self, None, "exec")
                return True
        if top is None:
            return False
        if len(players) == 1:
            (self.turn,) = players
        else:
            n = self.num_players
            # ties between thieves: start player then clockwise; equal cards alternate
            last = ex["last"]
            base = last[1] + 1 if last and last[0] == top else self.start
            for k in range(n):
                q = (base + k) % n
                if q in players:
                    self.turn = q
                    break
        ex["value"] = top
        return True

    def _exec_queued(self, ex: dict[str, Any]) -> tuple[int | None, set[int]]:
        """``_exec_next``'s highest AP still face down and its thieves, from what a trusted
        playout keeps: each thief's face-down cards of this phase by AP, highest last, made
        at the phase's first call (``ex`` is the phase's own dict); a card turned up (it
        stays so until the clean-up) is dropped when it comes last: only each thief's
        highest card is looked at."""
        kept = self._playout
        assert kept is not None
        if kept.ex is not ex:
            lanes = []
            for p, t in enumerate(self.thieves):
                lane = [s for s in t["plan"] if not s["shown"]]
                if lane:
                    lane.sort(key=SLOT_AP)
                    lanes.append((p, lane))
            kept.ex, kept.lanes = ex, lanes
        top = -1   # AP are never negative
        players: set[int] = set()
        emptied = False
        for p, lane in kept.lanes:
            s = lane[-1]
            if s["shown"]:
                lane.pop()
                while lane and lane[-1]["shown"]:
                    lane.pop()
                if not lane:
                    emptied = True
                    continue
                s = lane[-1]
            ap = s["ap"]
            if ap > top:
                top, players = ap, {p}
            elif ap == top:
                players.add(p)
        if emptied:
            kept.lanes = [x for x in kept.lanes if x[1]]
        return (top, players) if players else (None, players)

    def _reveal_plans(self) -> None:
        """All screens are lifted at once: AP on each card become public."""
        for p in range(self.num_players):
            t = self.thieves[p]
            for s in t["plan"]:
                s["shown"] = False
                if s["tok"]:
                    for tok in s["tok"]:  # AP tokens now lie on the card, off the sheet
                        t["sheet"].remove(tok)
            if t["left"] is None and t["plan"] and self.recording:
                self.event("planned", player=p, n=len(t["plan"]),
                           aps=", ".join(str(s["ap"]) for s in t["plan"]))
        self.exec = {"guards_done": False, "last": None, "value": None}
        self.phase = "exec"

    # -- 5. clean-up (Rulebook §"5. Phase: Aufräumen", in its order) ----------------------
    def _cleanup(self) -> None:
        n = self.num_players
        pieces = self.data.tokens.pieces
        discard = self.discard
        for t in self.thieves:
            # a) general cards planned this round are discarded, used or not
            for s in t["plan"]:
                c = s["card"]
                if c and c not in BASIC_CARDS:
                    discard.append(c)
                c = s.get("under")
                if c and c not in BASIC_CARDS:
                    discard.append(c)
                if s["tok"]:
                    self.spent_tokens.extend(s["tok"])
            t["plan"] = []
        # b) effect tokens leave the board
        self.smoke, self.fire = [], []
        # c) AP for next round
        after_arrest = self.options.get("dungeon_ap") == "after_arrest"
        for t in self.thieves:
            # Rulebook §"Verlies" / §"Aufräumen c)": a thief in the dungeon keeps only 2 blue AP
            # (option dungeon_ap="after_arrest": only in the round right after the arrest)
            jailed = t["arrested"] if after_arrest else (t["dungeon"] and t["left"] is None)
            if jailed:
                t["ap_next"] = 4 if t["id"] == "jasmine" else pieces["dungeon_ap"]
            else:
                t["ap_next"] = None
            t["red"] = n - 1 if t["emperor"] else 0
            t["violet"], t["violet_new"] = t["violet_new"], 0
            t.update(ROUND_FLAGS_CLEARED)
        # d) the event goes to the box; the last card of a deck ends the game
        if not self.alarm and not self.calm_deck:
            if not self.jewel_taken:
                self._finish("defeat")
                return
            if self.options.get("last_calm_round") == "end":
                # option: the 10th calm card ends the game even though the jewel was taken
                self._finish("calm_over")
                return
        if self.alarm and not self.alarm_deck:
            self._finish("dawn")
            return
        # e) the start player token passes to the left
        self.start = (self.start + 1) % n
        self.round += 1
        self.phase, self.estep, self.ev = "event", 0, None
        self.exec = {}

    def _finish(self, how: str) -> None:
        self.ended = how
        self.phase = "over"
        self.pending, self.act, self.turn, self.gq = [], None, None, None
        w = self._winners()
        if w:
            self.event("game_over", how=how, player=w)
        else:
            self.event("game_over_none", how=how)

    # -- end of game (Rulebook §"Spielende") -----------------------------------------------
    def vp(self, p: int) -> int:
        t, v = self.thieves[p], self.data.tokens.values
        points: int = (v["best_thief"] * t["best"] + v["green"] * t["green"] + v["yellow"] * t["yellow"]
                       + v["trinket"] * t["sheet"].count("trinket"))
        return points

    def _scores(self) -> list[float]:
        return [float(self.vp(p)) for p in range(self.num_players)]

    def _winners(self) -> list[int]:
        if self.emperor_winner is not None:
            return [self.emperor_winner]
        out = [p for p, t in enumerate(self.thieves) if t["left"] is not None]
        if not out:
            return []  # defeat of all thieves
        # most VP, then more green jewels, then who left the city earlier
        best = min(out, key=lambda p: (-self.vp(p), -self.thieves[p]["green"], self.thieves[p]["left"]))
        return [best]

    # -- helpers --------------------------------------------------------------------------
    def on_board(self) -> list[int]:
        return [p for p, t in enumerate(self.thieves) if t["left"] is None]

    def guard_at(self, s: str) -> str | None:
        if s not in self.guards.values():  # the usual answer, without a loop
            return None
        for g, gs in self.guards.items():
            if gs == s:
                return g
        return None

    def thieves_at(self, s: str) -> list[int]:
        return [p for p, t in enumerate(self.thieves) if t["pos"] == s and t["left"] is None]

    def put_figure(self, g: str, s: str) -> None:
        """Place a guard or captain; an occupied space sends it to the nearest free one."""
        if self.guard_at(s) or s in self.fire:
            s = self.nearest_free(s)
        self.guards[g] = s
        self.event("figure_placed", fig=g, figure=figure_kind(g), space=s)
        if self.options.get("placement_arrests") == "all":
            guards.catch_on(self, s)  # option: any figure placed on a thief's space arrests

    def nearest_free_all(self, s: str) -> list[str]:
        """All free spaces (no figure, no fire, no dungeon) at the smallest distance from s."""
        d = self.data
        cands = [q for q in d.dist[s] if not self.guard_at(q) and q not in self.fire
                 and d.kind[q] != "dungeon"]
        best = min(d.dist[s][q] for q in cands)
        return sorted((q for q in cands if d.dist[s][q] == best), key=d.order_key)

    def nearest_free(self, s: str) -> str:
        d = self.data
        cands = [q for q in d.dist[s] if not self.guard_at(q) and q not in self.fire
                 and d.kind[q] != "dungeon"]
        return min(cands, key=lambda q: (d.dist[s][q], d.order_key(q)))

    def is_hidden(self, p: int) -> bool:
        """Rulebook §"verborgen": hideout, Dark Alley, smoke, Cloak, dungeon escape (+ Nikolai)."""
        t = self.thieves[p]
        s = t["pos"]
        if t["cloak"] or t["escaped"]:
            return True
        if self.data.kind.get(s) == "hideout" or self.features.get(s) == "alley" or s in self.smoke:
            return True
        if t["id"] == "nikolai" and not self.alarm and self.data.district.get(s) == "palace":
            return True  # reconstructed ability "architect"
        return False

    def _after_load(self) -> None:
        pass

    # -- what each player may see (view.py) ---------------------------------------------------
    def _secret_step(self, player: int, action: str) -> bool:
        """Every planning decision but "done" is made behind the screen (Rulebook
        §"3. Phase: Planung": "gleichzeitig und geheim"): the others see only that
        the thief is done, so these steps are secret (``State._secret_step``)."""
        return action != "done" and self.phase == "plan" and not self.pending and not self.act

    def _observe(self, viewer: int | None) -> dict[str, Any]:
        return cast("dict[str, Any]", view.observe(self, viewer))

    def _explain(self, p: int, text: str) -> str | None:
        return view.explain(self, p, text)

    def render_text(self, player: int | None) -> str:
        return view.render_text(self, player)

    def describe_action(self, action: str) -> str:
        return view.describe_action(self, action)

    def determinize(self, player: int, seed: int) -> AgeState:
        """Re-deal everything ``player`` cannot see (:func:`view.determinize`)."""
        return view.determinize(self, player, seed)
