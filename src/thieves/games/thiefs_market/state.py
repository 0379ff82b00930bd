"""Thief's Market rules: the state machine of one game.

Rulebook sections are those of the French rulebook (seed 001): "Mise en
place", "Phase 1: diviser le butin", "Phase 2: effectuer des achats",
"Fin du tour", "Fin du jeu", and the card list. Card effects are driven by
the effect kinds of ``data/cards.yaml``; the few hooks that fire at fixed
moments are in ``effects.py`` and the final scoring in ``scoring.py``.

Position (all plain JSON in ``FIELDS``). Dice are counted by face, as dice
showing the same face are interchangeable: ``center`` and each of
``piles[p]`` are six counts in the order R W B G Y P. The start player
token is at ``token``: -1 center, -2 being returned by a thief, else the
player holding it. Cards are integer indices into ``self.data.ids``.
"""
from __future__ import annotations

from typing import Any, Callable, cast

from thieves.core.decisions import Steps
from thieves.core.game import State
from thieves.core.rng import BATCH as _BATCH, BATCH_STEP as _BATCH_STEP, Below, Rng, splitmix_batch

from . import effects, scoring, text
from .components import FACES, GEMS, Tables
from .observation import Phase, Step
from .text import dice_list

TAKE = [f"take {f}" for f in FACES]
RETURN = [f"return {f}" for f in FACES]
REROLL = [f"reroll {f}" for f in FACES]
PAY = [f"pay {g}" for g in GEMS]
GOLD = [f"gold {g}" for g in GEMS]
FREE = [f"free {g}" for g in GEMS]
TAKE_T, TAKE_ALL, RETURN_T, DONE, END, KEEP = "take T", "take all", "return T", "done", "end", "keep"
CENTER, RETURNING = -1, -2
#: SplitMix64's constants (``core/rng.py``) for the playout's inline draws
_GOLDEN, _MASK, _TWO64 = 0x9E3779B97F4A7C15, (1 << 64) - 1, 1 << 64
_MAX_LIMIT = 256
#: ``Rng.below(k)`` rejects draws from ``_LIMITS[k]`` on (the last whole multiple of k)
_LIMITS = [0] + [_TWO64 - _TWO64 % k for k in range(1, _MAX_LIMIT)]


#: dice read per table look-up in :meth:`MarketState._roll`, and its table: for ``r`` digits,
#: the face counts of each number below 6**r written in base 6, packed 8 bits a face
_CHUNK = 5
_CHUNK_BASE = 6 ** _CHUNK
_PACKED_COUNTS = [[0]]
for _r in range(1, _CHUNK + 1):
    _PACKED_COUNTS.append([q + (1 << 8 * f) for q in _PACKED_COUNTS[-1] for f in range(6)])
#: rolls of more dice than this count them die by die (a face count stays below 256)
_MAX_ROLL = 255
_SIX_POWERS = [6 ** k for k in range(_MAX_ROLL + 1)]


def _limit(k: int) -> int:
    """``_LIMITS[k]`` for any bound (``Rng.below``'s error for none)."""
    if k <= 0:
        raise ValueError("below() needs a positive bound")
    return _TWO64 - _TWO64 % k


#: action kind (see ``components.action_table``) -> what it does, ``handler(state, player, arg)``:
#: each registered where it is written (``@VERBS("take")``)
VERBS: Steps[Callable[[Any, int, Any], None]] = Steps("Thief's Market's action kinds")


class MarketState(State):
    #: the largest number a snapshot's fields may hold (core/snapshot.py): every count,
    #: score and index of a real game is far below it, and a count of 10**9 would make
    #: a loop over it run for ever
    SNAPSHOT_MAX_INT = 1000
    FIELDS = ("phase", "step", "round", "current", "start_player", "token", "center", "piles",
              "has_pile", "returning", "victim", "moved", "gold", "infamy", "tableau", "rows",
              "decks", "box", "discarded", "active_row", "p1_mask", "p1_objects", "turns_done",
              "buys", "used", "paying", "pay_card", "waived", "lucky_queue", "num_dice")

    data: Tables
    phase: Phase
    step: Step
    #: every decision is made in the open (dice taken, thefts, purchases, payments), so a
    #: bot's copy keeps the whole history (``_bought_this_round`` reads it back)
    public_history = True
    #: :meth:`_random_playout` mixes its generator's batches inline
    draws_ahead = False

    # ------------------------------------------------------------------ setup
    def _setup(self) -> None:
        """Rulebook "Matériel & mise en place"."""
        t, n = self.data, self.num_players
        if n not in t.dice_by_players:
            raise ValueError(f"setup.yaml gives no dice count for {n} players")
        self.num_dice = t.dice_by_players[n]          # 13 / 11 / 10 dice for 5 / 4 / 3 players
        self.gold = [t.setup.start_gold] * n          # one gold coin each
        self.infamy = [0] * n
        self.tableau: list[list[int]] = [[] for _ in range(n)]
        self.decks: list[list[int]] = []
        self.box: list[int] = []
        self.discarded: list[int] = []
        for d in range(3):                            # shuffle each deck, keep 13 / 12 / 11
            cards = list(t.deck_cards[d])
            self.rng.shuffle(cards)
            keep = t.deck_sizes[d]
            self.decks.append(cards[:keep])           # top of a deck = last element
            self.box.extend(cards[keep:])             # back in the box unseen
        self.rows: list[list[int]] = [[], [], []]
        self.active_row = 0
        deck = self.decks[0]
        for _ in range(t.setup.market_row):           # deal 5 cards beside deck A
            if deck:
                self.rows[0].append(deck.pop())
        # the token goes to "whoever stole something most recently": chosen at random here
        self.start_player = 0 if self.options["start_player"] == "first" else self.rng.below(n)
        self.round = 1
        self.event("start_token", player=self.start_player)
        self._start_round()

    def _start_round(self) -> None:
        """Phase 1 begins: the start player rolls every die into the center and puts the
        token with them (rulebook "Phase 1: diviser le butin")."""
        n = self.num_players
        center = [0] * 6
        self._roll(center, self.num_dice)
        self.center = center
        self.piles = [[0] * 6 for _ in range(n)]   # all dice, used or not, in the roll
        self.returning = [0] * 6
        self.token = CENTER
        self.has_pile = [False] * n
        self.phase, self.step = "split", ""
        self.current = self.start_player
        self.victim, self.moved = -1, 0
        self.p1_mask, self.p1_objects = [0] * n, [0] * n
        self.turns_done, self.buys = 0, 0
        self.used: list[int] = []
        self.paying, self.pay_card, self.waived = [0, 0, 0, 0], -1, 0
        self.lucky_queue: list[int] = []
        if self.recording:  # its dice lists cost more than the rest of the move
            self.event("roll", round=self.round, player=self.current, n=self.num_dice, dice=dice_list(center))

    def _roll(self, counts: list[int], k: int) -> None:
        """Roll ``k`` dice into the face counts: one draw below 6**k, read in base 6
        (five digits at a time, from a table of their face counts)."""
        if not k:
            return
        if k > _MAX_ROLL:
            x = self.rng.below(6 ** k)
            for _ in range(k):
                x, f = divmod(x, 6)
                counts[f] += 1
            return
        x = self.rng.below(_SIX_POWERS[k])
        packed = 0
        while k > _CHUNK:
            x, v = divmod(x, _CHUNK_BASE)
            packed += _PACKED_COUNTS[_CHUNK][v]
            k -= _CHUNK
        packed += _PACKED_COUNTS[k][x]
        counts[0] += packed & 255
        counts[1] += packed >> 8 & 255
        counts[2] += packed >> 16 & 255
        counts[3] += packed >> 24 & 255
        counts[4] += packed >> 32 & 255
        counts[5] += packed >> 40 & 255

    # --------------------------------------------------------------- contract
    def _players_to_act(self) -> list[int]:
        return [] if self.phase == "over" else [self.current]

    def _is_terminal(self) -> bool:
        return self.phase == "over"

    def _legal_actions(self, p: int) -> list[str]:
        phase = self.phase
        if phase == "split":
            return self._split_actions(p)
        if phase == "buy":
            return self._pay_actions(p) if self.step == "pay" else self._buy_actions(p)
        if phase == "lucky":
            pile = self.piles[p]
            return [REROLL[f] for f in range(6) if pile[f]] + [KEEP]
        return []

    def _apply(self, p: int, action: str) -> None:
        fn, arg = self.data.dispatch[action]
        fn(self, p, arg)

    def _random_playout(self, rng: Below, max_decisions: int) -> int:
        """:meth:`State.random_playout` (the same moves as the checked loop), with this
        game's turn structure built in: one player acts at a time (``current``), so no seat
        is drawn, and each phase's action list and each action's method are called directly.
        A SplitMix64 generator of its own is drawn ahead, :data:`_BATCH` outputs at a time
        (:func:`thieves.core.rng.splitmix_batch`: the very outputs of :meth:`Rng.next64`, used as
        :meth:`Rng.below` uses them); any other generator through its methods."""
        if type(rng) is not Rng or rng is self.rng:
            return self._random_playout_with(rng.below, max_decisions)
        history = self.history
        dispatch = self.data.dispatch
        split, buy, pay = self._split_actions, self._buy_actions, self._pay_actions
        batch = splitmix_batch
        base = rng.state                 # the state before the first draw of ``zs``
        zs, j = batch(base), 0           # ``j``: draws of ``zs`` used
        n = 0
        try:
            while n < max_decisions:
                phase, p = self.phase, self.current
                if phase == "split":
                    acts = split(p)
                elif phase == "buy":
                    acts = pay(p) if self.step == "pay" else buy(p)
                elif phase == "over":
                    break
                else:
                    acts = self._legal_actions(p)
                if j == _BATCH:
                    base = (base + _BATCH_STEP) & _MASK
                    zs, j = batch(base), 0
                z = zs[j]
                j += 1
                k = len(acts)
                if k == 1:   # Rng.below(1): one draw, always kept
                    action = acts[0]
                else:        # Rng.below(k): draws from the last whole multiple of k on are rejected
                    limit = _LIMITS[k] if 0 < k < _MAX_LIMIT else _limit(k)
                    while z >= limit:
                        if j == _BATCH:
                            base = (base + _BATCH_STEP) & _MASK
                            zs, j = batch(base), 0
                        z = zs[j]
                        j += 1
                    action = acts[z % k]
                fn, arg = dispatch[action]
                fn(self, p, arg)
                history.append([p, action])
                self.ply += 1
                n += 1
        finally:
            rng.state = (base + j * _GOLDEN) & _MASK
        self._legal_cache = None
        return n

    def _random_playout_with(self, below: Callable[[int], int], max_decisions: int) -> int:
        """:meth:`_random_playout` drawing through ``below``."""
        history = self.history
        dispatch = self.data.dispatch
        split, buy, pay = self._split_actions, self._buy_actions, self._pay_actions
        n = 0
        while n < max_decisions:
            phase, p = self.phase, self.current
            if phase == "split":
                acts = split(p)
            elif phase == "buy":
                acts = pay(p) if self.step == "pay" else buy(p)
            elif phase == "over":
                break
            else:
                acts = self._legal_actions(p)
            action = acts[below(len(acts))]
            fn, arg = dispatch[action]
            fn(self, p, arg)
            history.append([p, action])
            self.ply += 1
            n += 1
        self._legal_cache = None
        return n

    def _scores(self) -> list[float]:
        return scoring.scores(self)

    def _winners(self) -> list[int]:
        return scoring.winners(self)

    def _observe(self, player: int | None) -> dict[str, Any]:
        # the engine's contract types every observation as a plain dict: the one place the
        # typed observation (observation.py) is handed over as one (docs/engine.md)
        return cast(dict[str, Any], text.observe(self, player))

    def _explain(self, player: int, action: str) -> str | None:
        return text.explain(self, player, action)

    def describe_action(self, action: str) -> str:
        """The action in English words (the presentation's text; the notation if it is none)."""
        try:
            pres = self.game.presentation(None, data_dir=self.options.get("data_dir"))
            words: str = pres.action_text(self.observation_without_log(None), action)
            return words
        except Exception:  # noqa: BLE001 - not notation: say it as it is
            return action

    def render_text(self, player: int | None) -> str:
        """The position as ``player`` sees it, in English (the presentation's terminal view)."""
        obs = self.observation(player)
        view: str = self.game.presentation(player, data_dir=self.options.get("data_dir")).text_view(obs)
        return view

    def determinize(self, player: int, seed: int) -> "MarketState":
        """Unseen cards (deck contents and the cards left in the box at setup) are
        reshuffled, each behind its own deck letter (rulebook "Mise en place": the decks
        are sorted by the letter on the card backs, so an A card is never in deck C);
        every infamy gain comes from a public act, so counts are kept."""
        from thieves.core.rng import BATCH as _BATCH, BATCH_STEP as _BATCH_STEP, Rng, splitmix_batch
        new = self.clone()
        new.rng = Rng.from_seed(seed)
        deck_of = self.data.deck_of
        box: list[int] = []
        for r, d in enumerate(new.decks):
            pool = sorted(d + [c for c in new.box if deck_of[c] == r])  # not the real order
            new.rng.shuffle(pool)
            d[:] = pool[:len(d)]
            box.extend(pool[len(d):])
        new.box = box
        return new

    # ------------------------------------------------------ phase 1: splitting
    def objects(self, p: int) -> int:
        """Objects in front of ``p``: dice plus the start player token."""
        return sum(self.piles[p]) + (self.token == p)

    def _split_actions(self, p: int) -> list[str]:
        step, center, token = self.step, self.center, self.token
        if step == "take":
            r, w, b, g, y, pu = center
            key = (r > 0, w > 0, b > 0, g > 0, y > 0, pu > 0, token == CENTER, True)
            acts = _SPLIT_LISTS.get(key)
            return acts if acts is not None else _split_list(key, TAKE, TAKE_T)
        if step == "return":
            r, w, b, g, y, pu = self.piles[p]
            key = (r > 0, w > 0, b > 0, g > 0, y > 0, pu > 0, token == p, self.moved > 0)
            acts = _RETURN_LISTS.get(key)
            return acts if acts is not None else _split_list(key, RETURN, RETURN_T)
        acts = _NO_ACTIONS
        if token == CENTER or any(center):
            # Rulebook "Remarque": the last player without a pile who takes must take everything
            if self.has_pile.count(False) == 1:
                acts = _TAKE_ALL
            else:
                r, w, b, g, y, pu = center
                key = (r > 0, w > 0, b > 0, g > 0, y > 0, pu > 0, token == CENTER, False)
                acts = _SPLIT_LISTS.get(key) or _split_list(key, TAKE, TAKE_T)
        has_pile = self.has_pile
        if True not in has_pile:
            return acts
        steal, piles, steals = self.data.steal_action, self.piles, None
        for q, has in enumerate(has_pile):
            # a pile of a single object cannot be stolen: the thief keeps one and returns one
            if has and q != p and sum(piles[q]) + (token == q) >= 2:
                if steals is None:
                    steals = acts.copy()
                steals.append(steal[q])
        return acts if steals is None else steals

    def _pile_objects(self, p: int) -> list[str]:
        """The objects of ``p``'s pile as ids for an event: one face letter per die, ``T``
        for the start player token."""
        return text.dice_list(self.piles[p], self.token == p)

    @VERBS("take")
    def _do_take(self, p: int, f: int) -> None:
        """Take one object from the center (part of a take; ``done`` ends it)."""
        if f < 0:
            self.token = p
        else:
            self.center[f] -= 1
            self.piles[p][f] += 1
        self.has_pile[p] = True
        self.step = "take"
        self.moved += 1
        if self.token != CENTER and not any(self.center):
            self._end_split_action(p)

    @VERBS("take_all")
    def _do_take_all(self, p: int, _: int) -> None:
        pile, center = self.piles[p], self.center
        for f in range(6):
            pile[f] += center[f]
            center[f] = 0
        if self.token == CENTER:
            self.token = p
        self.has_pile[p] = True
        if self.recording:  # its dice lists cost more than the rest of the move
            self.event("take_all", player=p, objects=self._pile_objects(p))
        self._end_split_action(p)

    @VERBS("steal")
    def _do_steal(self, p: int, q: int) -> None:
        """Rulebook "Phase 1": take another player's whole pile, then return at least one object."""
        mine, theirs = self.piles[p], self.piles[q]
        for f in range(6):
            mine[f] += theirs[f]
            theirs[f] = 0
        if self.token == q:
            self.token = p
        self.has_pile[q], self.has_pile[p] = False, True
        self.victim, self.step, self.moved = q, "return", 0
        self.event("steal", player=p, victim=q)
        effects.on_stolen(self, q)

    @VERBS("return")
    def _do_return(self, p: int, f: int) -> None:
        if f < 0:
            self.token = RETURNING
        else:
            self.piles[p][f] -= 1
            self.returning[f] += 1
        self.moved += 1
        if sum(self.piles[p]) + (self.token == p) == 1:   # the thief keeps at least one object
            self._end_split_action(p)

    @VERBS("done")
    def _do_done(self, p: int, _: int) -> None:
        self._end_split_action(p)

    def _end_split_action(self, p: int) -> None:
        if self.step == "take":
            if self.recording:
                self.event("take", player=p, objects=dice_list(self.piles[p], self.token == p))
        elif self.step == "return":
            # returned dice are rerolled (not when the victim owns Lucky Animal Appendage)
            ret, center = self.returning, self.center
            if effects.keeps_faces(self, self.victim):
                for f in range(6):
                    center[f] += ret[f]
            else:
                self._roll(center, sum(ret))
            back = dice_list(ret, self.token == RETURNING) if self.recording else []
            if self.token == RETURNING:
                self.token = CENTER
            self.returning = [0] * 6
            if self.recording:
                self.event("return", player=p, victim=self.victim, kept=dice_list(self.piles[p], self.token == p),
                           returned=back, center=dice_list(self.center, self.token == CENTER))
        self.step, self.moved, self.victim = "", 0, -1
        n, has_pile = self.num_players, self.has_pile
        for i in range(1, n + 1):         # clockwise, skipping players who have a pile
            q = (p + i) % n
            if not has_pile[q]:
                self.current = q
                return
        self._end_split()

    def _end_split(self) -> None:
        """End of phase 1: note each final pile (extra purchases, Big Haul) and run the hooks."""
        n, piles, token = self.num_players, self.piles, self.token
        masks, objects = self.p1_mask, self.p1_objects
        for p, pile in enumerate(piles):
            masks[p] = ((pile[0] > 0) | (pile[1] > 0) << 1 | (pile[2] > 0) << 2
                        | (pile[3] > 0) << 3 | (pile[4] > 0) << 4 | (pile[5] > 0) << 5)
            objects[p] = sum(pile) + (token == p)
        effects.end_of_split(self)
        rerolls, queue = effects.rerolls, []
        for i in range(n):              # from the token holder, clockwise
            q = (token + i) % n
            if any(piles[q]) and rerolls(self, q):
                queue.append(q)
        self.lucky_queue = queue
        self.step, self.moved = "", 0
        if self.lucky_queue:
            self.phase = "lucky"
            self.current = self.lucky_queue[0]
        else:
            self._start_purchases()

    # ------------------------------------------------- start of phase 2: reroll
    @VERBS("reroll")
    def _do_reroll(self, p: int, f: int) -> None:
        """Lucky Animal Appendage: reroll a die of your final pile at the start of phase 2."""
        pile = self.piles[p]
        pile[f] -= 1
        g = self.rng.below(6)
        pile[g] += 1
        self.event("reroll", player=p, face=FACES[f], result=FACES[g])
        self.moved += 1
        if self.moved >= effects.rerolls(self, p):
            self._next_lucky()

    @VERBS("keep")
    def _do_keep(self, p: int, _: int) -> None:
        self._next_lucky()

    def _next_lucky(self) -> None:
        self.lucky_queue.pop(0)
        self.moved = 0
        if self.lucky_queue:
            self.current = self.lucky_queue[0]
        else:
            self._start_purchases()

    # ------------------------------------------------------ phase 2: purchases
    def _start_purchases(self) -> None:
        """Rulebook "Phase 2": from the token holder, clockwise, one purchase turn each."""
        self.phase, self.step = "buy", ""
        self.current = self.token
        self.turns_done, self.buys = 0, 0

    def _buy_actions(self, p: int) -> list[str]:
        """Rulebook "Phase 2": one card per turn (more with extra-purchase cards); a card is
        affordable when gold coins cover every gem its dice cannot pay (less the Racket's)."""
        t = self.data
        pile, gold, tab = self.piles[p], self.gold[p], self.tableau[p]
        mine = t.holdings_memo.get(tuple(tab))
        if mine is None:
            mine = t.holdings(tab)
        allowed, waiver = effects.purchase_terms(self, p, mine)
        if self.buys < allowed:
            # gold stands in for any gem its dice cannot pay, the Racket waives some more
            budget = gold + waiver
            key = (pile[0], pile[1], pile[2], pile[3], budget)
            ok = t.affordable_raw.get(key)
            if ok is None:
                ok = t.afford(key)
            buy = t.buy_action
            acts = []
            for row in self.rows:
                for c in row:
                    if ok >> c & 1:
                        acts.append(buy[c])
        else:
            acts = []
        if mine.uses:
            used = self.used
            for c, face, notations in mine.uses:
                if face < 0:                      # gold for infamy, any number of times
                    if gold:
                        acts.append(notations[0])
                elif c not in used and pile[face]:  # once per round, with a die of its face
                    acts.extend(notations)
        acts.append(END)
        return acts

    @VERBS("buy")
    def _do_buy(self, p: int, c: int) -> None:
        """Take the card from the market and pay its cost gem by gem (``pay``/``gold``/``free``)."""
        for row in self.rows:
            if c in row:
                row.remove(c)
                break
        self.buys += 1
        self.pay_card, self.paying, self.waived = c, list(self.data.cost[c]), 0
        self.step = "pay"
        self._settle(p)

    def _pay_actions(self, p: int) -> list[str]:
        return self._pay_choices(p, effects.discount(self, p))

    def _pay_choices(self, p: int, discount: int) -> list[str]:
        """How the next gem of the card may be paid (``discount``: the Racket's gems)."""
        need = self.paying
        i = 0
        while not need[i]:
            i += 1
        pile, gold = self.piles[p], self.gold[p]
        free_left = discount - self.waived
        acts = []
        if pile[i]:
            acts.append(PAY[i])                   # a die showing that gem
        need[i] -= 1
        if gold and _feasible(need, pile, gold - 1, free_left):
            acts.append(GOLD[i])                  # a gold coin in place of the gem
        if free_left > 0 and _feasible(need, pile, gold, free_left - 1):
            acts.append(FREE[i])                  # Insurance Racket: one gem less
        need[i] += 1
        return acts

    def _settle(self, p: int) -> None:
        """Make the payment steps that leave no choice; gain the card once paid."""
        discount = effects.discount(self, p)   # the tableau does not change while paying
        parse = self.data.parse
        while True:
            if not any(self.paying):
                c, self.pay_card, self.step = self.pay_card, -1, ""
                effects.gain(self, p, c, bought=True)
                return
            acts = self._pay_choices(p, discount)
            if len(acts) != 1:
                return
            kind, arg = parse[acts[0]]
            self._pay(p, kind, arg)

    def _pay(self, p: int, kind: str, i: int) -> None:
        self.paying[i] -= 1
        if kind == "pay":
            self.piles[p][i] -= 1
            self.center[i] += 1                   # spent dice go back to the center
        elif kind == "gold":
            self.gold[p] -= 1                     # spent gold goes back to the bank
        else:
            self.waived += 1

    @VERBS("pay")
    def _do_pay(self, p: int, i: int) -> None:
        self._pay(p, "pay", i)
        self._settle(p)

    @VERBS("gold")
    def _do_gold(self, p: int, i: int) -> None:
        self._pay(p, "gold", i)
        self._settle(p)

    @VERBS("free")
    def _do_free(self, p: int, i: int) -> None:
        self._pay(p, "free", i)
        self._settle(p)

    @VERBS("use")
    def _do_use(self, p: int, arg: list[int]) -> None:
        effects.use(self, p, arg[0], arg[1])

    @VERBS("end")
    def _do_end(self, p: int, _: int) -> None:
        self.turns_done += 1
        if self.turns_done >= self.num_players:
            self._end_round()
        else:
            self.current = (p + 1) % self.num_players
            self.buys = 0

    # ------------------------------------------------------------ end of round
    def _end_round(self) -> None:
        """Rulebook "Fin du tour": bags -> gold, purple faces -> infamy, dice back, refill."""
        effects.end_of_round(self)
        if self._refill():
            # all dice, used or not, back to the center (the next round would roll them all)
            self.center = [sum(f) for f in zip(self.center, *self.piles)]
            self.piles = [[0] * 6 for _ in range(self.num_players)]
            self.phase, self.step, self.current = "over", "", -1
            self.event("game_end")
            return
        self.round += 1
        self.start_player = self.token
        self._start_round()

    def _refill(self) -> bool:
        """Rulebook "Fin du tour": refill the newest row to 5 from its deck; when that deck
        runs out, deal 5 from the next deck in a new row (older rows are never refilled).
        True when deck C cannot complete its row: the game ends ("Fin du jeu"); with the
        option ``game_end: all_bought``, also when deck C holds fewer cards than were bought
        this round from any row (the literal French "Fin du jeu")."""
        size = self.data.setup.market_row
        r = self.active_row
        if r == 2 and self.options["game_end"] == "all_bought" \
                and len(self.decks[2]) < self._bought_this_round():
            return True
        need = size - len(self.rows[r])
        while need > 0:
            deck, row = self.decks[r], self.rows[r]
            # "si le deck B n'a plus assez de cartes": its last cards are dealt first (option)
            if r != 1 or len(deck) >= need or self.options["deal_last_b_cards"]:
                while need and deck:
                    row.append(deck.pop())
                    need -= 1
            if need == 0:
                break
            if r == 2:
                return True
            r += 1
            self.active_row = r
            self.event("row_opens", deck="ABC"[r - 1], row="ABC"[r])
            need = size - len(self.rows[r])
        return False

    def _bought_this_round(self) -> int:
        """Market cards bought in this round's purchase phase (read back from the history)."""
        parse, n = self.data.parse, 0
        for _, action in reversed(self.history):
            kind = parse[action][0]
            if kind == "buy":
                n += 1
            elif kind not in ("pay", "gold", "free", "use", "end"):
                break
        return n


#: legal action lists of the splitting steps, by the position parts they depend on (see
#: :func:`_split_list`); shared by every state and never mutated (``State.legal_actions``
#: hands out copies)
_SPLIT_LISTS: dict[tuple[bool, ...], list[str]] = {}
_RETURN_LISTS: dict[tuple[bool, ...], list[str]] = {}
_NO_ACTIONS: list[str] = []
_TAKE_ALL = [TAKE_ALL]
_NO_CARDS: list[int] = []


def _split_list(key: tuple[bool, ...], one: list[str], token_action: str) -> list[str]:
    """The taking (or returning) choices for ``key``: whether each face is there (six),
    whether the token is, and whether ``done`` is allowed; remembered in the table of ``one``
    (at most 2**8 lists each)."""
    acts = [one[f] for f in range(6) if key[f]]
    if key[6]:
        acts.append(token_action)
    if key[7]:
        acts.append(DONE)
    (_SPLIT_LISTS if one is TAKE else _RETURN_LISTS)[key] = acts
    return acts


def _feasible(need: list[int], pile: list[int], gold: int, free: int) -> bool:
    deficit = 0
    for i in range(4):
        if need[i] > pile[i]:
            deficit += need[i] - pile[i]
    return deficit - free <= gold




def attach_dispatch(tables: Tables) -> Tables:
    """Give the tables ``dispatch``: notation -> (method, argument), for ``_apply``."""
    tables.dispatch = {a: (VERBS[kind], arg) for a, (kind, arg) in tables.parse.items()}
    return tables
