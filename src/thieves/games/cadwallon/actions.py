"""Legal actions, applying them (a mixin of the game state); the notation and its typed
parse are in :mod:`.notation`."""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from .notation import Action
from .constants import ATTACK_AP, FORCE_AP, MISSION_AP, MOVE_AP, OPEN_AP, OPEN_DUCATS
from .base import CadwallonBase

ACT_CARDS = {"run": "move", "secret_passage": "move", "rooftops": "move",
             "skeleton_key": "action", "hidden_purse": "action"}
# played on the active character before its move / before its action
MOVE_CARDS = tuple(k for k, step in ACT_CARDS.items() if step == "move")
ACTION_CARDS = tuple(k for k, step in ACT_CARDS.items() if step == "action")
PLAY = {k: f"play {k}" for k in ACT_CARDS}
ACT_CARD_PLAYS = frozenset(PLAY.values())
ACT_CARD_SET = frozenset(ACT_CARDS)
# played in the main phase, outside an activation
HAND_CARD_SET = frozenset(("second_wind", "pickpocket", "reinforced_lock"))
# shared answers (a listing is never changed by its callers: legal_actions hands out copies)
NO_PLAY = ["no"]
INJURY_PLAY = ["no", "play niggling_injury"]
JINX_PLAY = ["no", "play jinx"]
MISSION = [f"mission {i + 1}" for i in range(9)]


@lru_cache(maxsize=None)
def _pickpockets(n: int, p: int) -> tuple[str, ...]:
    return tuple(f"play pickpocket P{q + 1}" for q in range(n) if q != p)


@lru_cache(maxsize=None)
def seats_after(n: int, p: int) -> tuple[int, ...]:
    """The other seats of an ``n``-player game, clockwise from the left of seat ``p``."""
    return tuple((p + i) % n for i in range(1, n))


def pickpockets(n: int, p: int) -> tuple[str, ...]:
    """``play pickpocket P<q>`` for every other seat q of an ``n``-player game, in seat order."""
    return _pickpockets(n, p)


class ActionsMixin(CadwallonBase):
    # -- legal actions --------------------------------------------------------------------
    def _legal_actions(self, p: int) -> list[str]:
        if self.queue:
            return self._pending_actions(self.queue[0])
        ph = self.phase
        if ph == "main":
            return self._main_actions(p)
        if ph == "militia":
            return list(self.data.militia_actions)
        if ph == "militia_move":
            return self._militia_move_actions(p)
        if ph == "gang":
            return [f"gang {g}" for g in self.data.gang_ids if g not in self.gangs]
        if ph == "deploy":
            if self.deploy_sel is None:
                return [f"deploy {c}" for c in self.to_deploy[p]]
            occupied = self._occupied_zones()
            return [f"at {z}" for z in self.data.deployment if z not in occupied and z not in self.tokens]
        return self._main_actions(p)

    def _militia_move_actions(self, p: int) -> list[str]:
        """Where player ``p`` may move the militiaman rolled for (or leave him)."""
        out = ["mm stay"]
        out += map(self.data.mm_action.__getitem__,
                   self._militia_targets(self.militia_sel, self.militia_roll, p))
        return out

    def _pending_actions(self, task: dict) -> list[str]:
        kind = task["kind"]
        if kind == "injury":
            return INJURY_PLAY if "niggling_injury" in self.hands[task["player"]] else NO_PLAY
        if kind == "card":
            return self._combat_cards(task["player"])
        if kind == "reroll":
            return self._reroll_cards(task["player"])
        if kind == "jinx":
            return JINX_PLAY if "jinx" in self.hands[task["player"]] else NO_PLAY
        if kind == "replot":
            c = task["char"]
            targets = self._move_targets(c)
            out = [f"move {z}" for z in sorted(targets)]
            if self._can_leave(c, targets):
                out.append("leave")
            out.append("stay")
            # Run is played during your own character's move, so it may answer the injury
            if "run" in self.hands[task["player"]] and "run" not in self.act["cards"]:
                out.append("play run")
            return out
        if kind == "take":
            return [f"take {k}" for k in sorted({self._ttype(t) for t in self.carried[task["from"]]})]
        if kind == "drop":
            kinds = sorted({self._ttype(t) for t in self.carried[task["char"]]})
            return [f"drop {k} {r}" for k in kinds for r in self._drop_rooms()]
        if kind == "flee":
            flee = self.data.flee_action
            return [flee[z] for z in self._flee_options(task["char"])]
        return []

    def _main_actions(self, p: int) -> list[str]:
        return self._main_listing(p)[0]

    def _main_listing(self, p: int, rest: list[str] | None = None
                      ) -> tuple[list[str], dict[str, int] | None, int, int]:
        """The main phase's actions of player ``p``, with what the active character's move
        was worked out from: its targets (:meth:`_move_targets`, None when it may not move)
        and its Movement (:meth:`_movement`), for the playout to hand to :meth:`_do_move`;
        and where the actions outside the activation begin (``act``, the hand's own cards,
        missions, ``end``). ``rest``: those actions when the caller knows them already (an
        activation, or an arcana card played on it, changes none of them but the ``act``
        of the character activated)."""
        d = self.data
        out: list[str] = []
        ap = self.ap[p]
        c = self.active
        hand = self.hands[p]
        pos = self.pos
        targets = None
        mv = 0
        if c is not None:
            act = self.act
            played = act["cards"]
            if not act["moved"] and ap >= MOVE_AP:
                # :meth:`_move_targets` and :meth:`_movement`, written out
                mv = d.move_of[c]
                if played:
                    if "run" in played:
                        mv += 2
                    walls = 1 if "secret_passage" in played else 0
                    rooftops = "rooftops" in played
                else:
                    walls, rooftops = 0, False
                injured = self.injured
                if injured:
                    mv -= injured.get(c, 0)
                if mv < 0:
                    mv = 0
                targets = self._reach(pos[c], mv, walls, rooftops)
                if targets:
                    move = d.move_action
                    for z in sorted(targets):
                        out.append(move[z])
                if self.alarm and self._can_leave(c, targets, mv):
                    out.append("leave")
            if not act["acted"]:
                here = pos[c]
                chest = self.chests.get(here)
                if chest is not None:
                    if ap >= OPEN_AP and not chest["sealed"]:
                        out.append("open")
                    if ap >= FORCE_AP:
                        out.append("force")
                # :meth:`_attack_targets` only when someone is next door
                if ap >= ATTACK_AP and not d.adj_set[here].isdisjoint(pos.values()):
                    for t in self._attack_targets(c):
                        out.append(d.attack_action[t])
            if not act["talent"]:
                tal = d.talent_of[c]
                if tal == "shadow_step":
                    if ap >= d.talent[tal].cost:
                        blocked = self._blocked()
                        talent = d.talent_action
                        for z in d.step_or_wall[pos[c]]:
                            if z not in blocked:
                                out.append(talent[z])
                elif tal == "sleight":
                    out.extend(map(d.talent_action.__getitem__, sorted(set(hand))))
            if hand and not ACT_CARD_SET.isdisjoint(hand):
                if not act["moved"]:
                    for k in MOVE_CARDS:
                        if k in hand and k not in played:
                            out.append(PLAY[k])
                if not act["acted"]:
                    for k in ACTION_CARDS:
                        if k in hand and k not in played:
                            out.append(PLAY[k])
        split = len(out)
        if rest is not None:
            out += rest
            return out, targets, mv, split
        g = self.gangs[p]
        held: list[str] = []  # the treasures the gang's characters in the district carry
        if g is not None and ap >= 1:  # no AP left: no more characters can be activated
            activated, act_action = self.activated, d.act_action
            if ap >= MISSION_AP:
                carried = self.carried
                for x in d.gang_chars[g]:
                    if x in pos:
                        if x not in activated:
                            out.append(act_action[x])
                        if carried[x]:
                            held += carried[x]
            else:
                for x in d.gang_chars[g]:
                    if x in pos and x not in activated:
                        out.append(act_action[x])
        if hand and not HAND_CARD_SET.isdisjoint(hand):
            if "second_wind" in hand:
                out.append("play second_wind")
            if "pickpocket" in hand:
                out += pickpockets(self.num_players, p)
            if "reinforced_lock" in hand:
                chests, lock = self.chests, d.lock_action
                for z in sorted(chests):
                    if not chests[z]["sealed"]:
                        out.append(lock[z])
        if held:  # missions (3 AP)
            out += self._missions_met(held)
        out.append("end")
        return out, targets, mv, split

    def _missions_met(self, held: list[str]) -> tuple[str, ...]:
        """``mission <slot>`` for each face-up mission the treasures ``held`` (token ids)
        meet. Answers are remembered by the tokens and the missions (a few hundred kinds
        in a game; the memo is emptied when it grows past 4096)."""
        missions = self.missions
        key = (tuple(held), tuple(missions))
        memo = self.data.missions_memo
        met = memo.get(key)
        if met is None:
            kinds = [self._ttype(t) for t in held]
            count, needs = kinds.count, self.data.mission_needs
            out = []
            for i, m in enumerate(missions):
                if m is not None:
                    for k, n in needs[m]:
                        if count(k) < n:
                            break
                    else:
                        out.append(MISSION[i])
            met = tuple(out)
            if len(memo) >= 4096:
                memo.clear()
            memo[key] = met
        return met

    def _mission_items(self, p: int, mid: str) -> list[list[str]] | None:
        """[character, treasure] pairs handed in for mission ``mid``, or None if unmet."""
        need = dict(self.data.mission[mid].needs)
        picked = []
        for c in self._thieves_of(p):
            for t in self.carried[c]:
                k = self._ttype(t)
                if need.get(k, 0) > 0:
                    need[k] -= 1
                    picked.append([c, t])
        return picked if not any(need.values()) else None

    # -- applying ----------------------------------------------------------------------------
    def _apply(self, p: int, action: str) -> None:
        queue = self.queue
        if queue:
            self._apply_pending(p, queue[0], action)
            if self.queue:
                self._continue()
            else:
                self.combat = None
            return
        # a legal action: its verb and the word after it are read straight from the
        # notation (play and mission read the typed Action for their target and slot)
        verb, _, obj = action.partition(" ")
        obj = self.data.same.get(obj, obj)
        if verb == "act":
            self._do_act(p, obj)
        elif verb == "militia":
            self._do_militia(obj)
        elif verb == "end":
            self._do_end(p)
        elif verb == "move":
            self._do_move(p, obj)
        elif verb == "mm":
            self._do_militia_move(p, obj)
        elif verb == "gang":
            self._do_gang(p, obj)
        elif verb == "deploy":
            self.deploy_sel = obj
        elif verb == "at":
            self._do_deploy(p, self.deploy_sel, obj)
        elif verb == "leave":
            self._do_move(p, "leave")
        elif verb in ("open", "force"):
            self._do_chest(p, verb)
        elif verb == "attack":
            self.ap[p] -= ATTACK_AP  # attacking is the action (1 AP) and ends the character's movement
            self.act["acted"] = self.act["moved"] = True
            self._start_combat(self.active, obj, p)
        elif verb == "talent":
            self._do_talent(p, obj)
        elif verb == "play":
            a = Action.parse(action)
            self._do_play(p, a.arg or "", a)
        elif verb == "mission":
            self._do_mission(p, Action.parse(action).slot)
        if self.queue:
            self._continue()
        else:
            self.combat = None

    def _apply_pending(self, p: int, task: dict[str, Any], action: str) -> None:
        self.queue.pop(0)
        kind = task["kind"]
        if kind == "injury":  # "no" or "play niggling_injury"
            if action != "no":
                self._play_injury(p, task["char"])
            elif self.recording:
                self._let_go(p, task)
            return
        a = Action.parse(action)
        obj = a.arg or ""  # the word after the verb, for the answers that have one
        obj = self.data.same.get(obj, obj)
        if kind == "card":
            self._play_combat_card(p, task["side"], None if a.verb == "nocard" else a.arg)
        elif kind == "reroll":
            self._play_reroll_card(p, task["side"], None if a.verb == "nocard" else a.arg)
        elif kind == "jinx":
            if a.verb == "play":
                self._play_jinx(p)
            elif self.recording:
                self._let_go(p, task)
        elif kind == "replot":
            if a.verb == "play":  # Run during the move: the move is still to be plotted
                self.queue.insert(0, task)
                self._do_play(p, "run", a)
                return
            dest = None if a.verb == "stay" else ("leave" if a.verb == "leave" else a.arg)
            self._complete_move(task["char"], dest)
        elif kind == "take":
            self._take_from(task["char"], task["from"], obj)
        elif kind == "drop":
            c, k, room = task["char"], obj, a.target or ""
            tid = next(t for t in self.carried[c] if self._ttype(t) == k)
            self.carried[c].remove(tid)
            self.chests[room] = {"t": tid, "sealed": False}
            if self.recording:
                self.event("drop", char=c, treasure=k, zone=room)
        elif kind == "flee":
            self._flee(task["char"], obj)

    def _let_go(self, p: int, task: dict[str, Any]) -> None:
        """The log line of a window let go by (Niggling injury, Jinx): the same for everybody,
        whatever the hand; only its player reads whether they held the card."""
        card = "niggling_injury" if task["kind"] == "injury" else "jinx"
        held = "kept" if card in self.hands[p] else "none"
        if task["kind"] == "injury":
            self.event("lets_move", to=[p], secret={"held": held}, player=p, char=task["char"])
        else:
            self.event("lets_roll", to=[p], secret={"held": held}, player=p)

    def reaction_pass(self, player: int) -> str | None:
        """A window answering another player's move: Niggling injury, Jinx, and a fight's
        arcana card or re-roll card on another player's turn (the defender's). Decided only
        from what everybody sees (the pending task, whose turn it is), never from a hand."""
        if self.over or not self.queue:
            return None
        task = self.queue[0]
        if task.get("player") != player:
            return None
        kind = task["kind"]
        if kind in ("injury", "jinx"):
            return "no"
        if kind in ("card", "reroll") and player != self.current:
            return "nocard"
        return None

    def reaction_round(self) -> int | None:
        """Reactions switched off "for this round" come back with the next round marker."""
        return int(self.round)

    def _continue(self) -> None:
        """Run the automatic steps (dice, forced flights) until someone must decide."""
        while self.queue:
            task = self.queue[0]
            kind = task["kind"]
            if kind == "injury":  # a window someone answers (the usual case)
                break
            if kind == "resolve":
                self.queue.pop(0)
                self._resolve_combat()
            elif kind == "outcome":
                self.queue.pop(0)
                self._combat_outcome()
            elif kind == "move_end":
                c, dest = task["char"], task["dest"]
                targets = None
                if self.injured.get(c):
                    targets = self._move_targets(c)
                    if not (self._can_leave(c, targets) if dest == "leave" else dest in targets):
                        # the designer's ruling: the move is plotted again within the cut Movement
                        self.queue[0] = {"kind": "replot", "player": task["player"], "char": c}
                        if self.recording:
                            self.event("replot", char=c, player=task["player"])
                        break
                self.queue.pop(0)
                self._complete_move(c, dest, targets)
            elif kind == "roll_end":
                self.queue.pop(0)
                self._roll_end(task)
            elif kind == "flee":
                opts = self._flee_options(task["char"])
                if len(opts) > 1:
                    break
                self.queue.pop(0)
                if opts:
                    self._flee(task["char"], opts[0])
                elif self.recording:
                    self.event("cannot_flee", char=task["char"])
            elif kind == "drop" and not self._drop_rooms():
                self.queue.pop(0)
            else:
                break
        if not self.queue:
            self.combat = None

    # -- the actions ----------------------------------------------------------------------------
    def _do_act(self, p: int, c: str) -> None:
        """§"Activer les personnages": character ``c`` becomes the active one."""
        self.active = c
        self.act = {"moved": False, "acted": False, "cards": [], "talent": False}
        self.activated.append(c)
        if self.recording:
            self.event("activate", player=p, char=c)

    def _do_end(self, p: int) -> None:
        """Player ``p`` ends the turn (:meth:`_end_turn`)."""
        if self.recording:
            self.event("end_turn", player=p)
        self._end_turn()

    def _do_gang(self, p: int, g: str) -> None:
        """§"Mise en place" step 2: each player chooses a gang (in seat order)."""
        self._take_gang(p, g)
        self.event("gang", player=p, gang=g)
        if p + 1 < self.num_players:
            self.current = p + 1
        else:  # step 10: the first player deploys first
            self.phase, self.current = "deploy", self.first

    def _do_deploy(self, p: int, c: str, z: str) -> None:
        """§"Mise en place" step 10: one character at a time, clockwise, in an empty zone."""
        self.to_deploy[p].remove(c)
        self.deploy_sel = None
        self.pos[c] = z
        self.event("deploy", player=p, char=c, zone=z)
        if any(self.to_deploy):
            q = (p + 1) % self.num_players
            while not self.to_deploy[q]:
                q = (q + 1) % self.num_players
            self.current = q
        else:
            self.current = self.first
            self.event("round", round=1)
            self._start_turn()

    def _do_militia(self, m: str) -> None:
        """§"Déplacer un milicien": one die; the 'distracted' face means he stays put."""
        roll = self.rng.die(6)
        if self.recording:
            self.event("militia_roll", player=self.current, militia=m, roll=roll)
        if roll == self.options["militia_still_face"]:
            if self.recording:
                self.event("militia_still", militia=m)
            self._militia_done()
        else:
            self.phase, self.militia_sel, self.militia_roll = "militia_move", m, roll

    def _militia_done(self) -> None:
        self.militia_left -= 1
        self.militia_sel, self.militia_roll = None, 0
        self.phase = "militia" if self.militia_left > 0 else "main"

    def _do_militia_move(self, p: int, z: str) -> None:
        m = self.militia_sel
        self._militia_done()
        if z == "stay":
            if self.recording:
                self.event("militia_stay", militia=m, zone=self.pos[m])
            return
        victim = None
        if z in self.pos.values():  # someone is there: a figure he may attack (a target)
            foes = self._foes(p)  # the figures he may attack (:meth:`_militia_may_attack`)
            for c, cz in self.pos.items():
                if cz == z and c in foes:
                    victim = c
                    break
        if victim is None:
            self.pos[m] = z
            if self.recording:
                self.event("militia_move", militia=m, zone=z)
        else:  # entering a character's zone starts a fight and ends his move
            self._start_combat(m, victim, p)

    def _do_move(self, p: int, dest: str, targets: dict[str, int] | None = None,
                 mv: int | None = None) -> None:
        """§"Se déplacer": a move costs 1 AP. ``dest`` is a zone or "leave" (§"Quitter le
        quartier": leaving is part of a move). Opponents may interrupt it with Niggling
        injury before it is completed. ``targets`` and ``mv``: :meth:`_move_targets` and
        :meth:`_movement` of the active character when the caller has them already."""
        c = self.active
        self.ap[p] -= MOVE_AP
        self.act["moved"] = True
        if targets is None:
            targets = self._move_targets(c)
        if mv is None:
            mv = self._movement(c)
        hands = self.hands
        holders = [q for q in seats_after(self.num_players, p) if hands[q]]
        if holders and self._injury_bites(c, dest, targets, mv):
            if self.recording:
                if dest == "leave":
                    self.event("sets_off_leave", char=c, zone=self.pos[c])
                else:
                    self.event("sets_off", char=c, zone=self.pos[c], dest=dest)
            queue = self.queue
            for q in holders:
                queue.append({"kind": "injury", "player": q, "char": c, "dest": dest})
            queue.append({"kind": "move_end", "player": p, "char": c, "dest": dest})
            return
        self._complete_move(c, dest, targets, mv)

    def _card_holders_after(self, p: int) -> list[int]:
        """The opponents of ``p``, clockwise from its left, who hold at least one arcana card.
        Each is offered the window whatever its cards, so that a pass never tells what a hand
        holds; an empty hand is public, so its player is not asked."""
        hands = self.hands
        return [q for q in seats_after(self.num_players, p) if hands[q]]

    def _injury_bites(self, c: str, dest: str, targets: dict[str, int], mv: int) -> bool:
        """Niggling injury (designer's ruling): played at the start, during or at the end of an
        enemy thief's move, it cuts that move's Movement by 2. The window opens only when the
        cut would change something (the declared move, or the Movement point an attack after
        it needs, would exceed the cut Movement), which everybody can see. ``mv``: the
        character's :meth:`_movement`."""
        if "niggling_injury" not in self.data.card or self.injured.get(c):
            return False
        if dest == "leave":
            need = min((0 if z == self.pos[c] else targets[z]) + 1 for z in self.data.deployment
                       if z not in self.portcullis and (z == self.pos[c] or z in targets))
            return need > mv - 2
        spare = 1 if self.options["attack_needs_movement"] and not self.act["acted"] else 0
        return targets[dest] + spare > mv - 2

    def _play_injury(self, q: int, c: str) -> None:
        self.hands[q].remove("niggling_injury")
        self.discard.append("niggling_injury")
        self.injured[c] = 2
        # one Niggling injury per move: the other opponents' windows close
        self.queue = [t for t in self.queue if t["kind"] != "injury"]
        if self.recording:
            self.event("injury", player=q, card="niggling_injury", char=c)

    def _complete_move(self, c: str, dest: str | None, targets: dict[str, int] | None = None,
                       mv: int | None = None) -> None:
        """The move ends in ``dest`` (a zone, "leave", or None: the character stays put).
        ``targets`` and ``mv``: :meth:`_move_targets` and :meth:`_movement` of ``c`` when the
        caller has them already."""
        if dest == "leave":
            self.injured.pop(c, None)
            self._do_leave(self._player(c), c)
            return
        if dest is None:
            self.act["left"] = self._movement(c)
            if self.recording:
                self.event("stays", char=c, zone=self.pos[c])
        else:
            if targets is None:
                targets = self._move_targets(c)
            if mv is None:
                mv = self._movement(c)
            self.act["left"] = mv - targets[dest]
            if self.recording:
                self.event("moves", char=c, zone=self.pos[c], dest=dest)
            self.pos[c] = dest
            if dest in self.room_ducats:
                self._arrive(c, dest)
        if self.injured:
            self.injured.pop(c, None)

    def _do_leave(self, p: int, c: str) -> None:
        """§"Quitter le quartier": the character and its treasures are out of play, safe."""
        del self.pos[c]
        self.escaped.append(c)
        self.banked[p] += self.carried[c]
        if self.recording:
            self.event("leaves", char=c, n=len(self.carried[c]))
        self.carried[c] = []
        self.active, self.act = None, None

    def _do_chest(self, p: int, how: str) -> None:
        """§"Ouvrir un coffre": open = 1 AP and a die <= Spirit; force = 2 AP, automatic."""
        c = self.active
        zone = self.pos[c]
        self.act["acted"] = True
        if how == "force":
            self.ap[p] -= FORCE_AP
            if self.recording:
                self.event("forces", char=c, zone=zone)
        else:
            self.ap[p] -= OPEN_AP
            spirit = self.data.char[c].spirit
            if self._talent(c) == "locksmith":
                spirit += 1
            if "skeleton_key" in self.act["cards"]:
                spirit += 2
            if not self._open_roll(c, spirit):
                return
            if self._jinx_window(p, {"what": "open", "char": c, "spirit": spirit}):
                return
        self._open_chest(p, c)

    def _open_roll(self, c: str, spirit: int) -> bool:
        """§"Ouvrir un coffre": one die, at most Spirit (Lucky hands: one re-roll per activation)."""
        roll = self.rng.die(6)
        if roll > spirit and self._talent(c) == "lucky_hands" and not self.act.get("lucky"):
            self.act["lucky"] = True
            if self.recording:
                self.event("lucky", char=c, roll=roll)
            roll = self.rng.die(6)
        if roll > spirit:
            if self.recording:
                self.event("open_fail", char=c, roll=roll, spirit=spirit)
            return False
        if self.recording:
            self.event("open_ok", char=c, roll=roll, spirit=spirit)
        return True

    def _jinx_window(self, p: int, roll: dict) -> bool:
        """After a successful roll of player ``p`` (opening a chest, a Spirit test), each
        opponent holding cards may play Jinx to have it rolled again. True if a window opens."""
        if "jinx" not in self.data.card:
            return False
        holders = self._card_holders_after(p)
        if not holders:
            return False
        for q in holders:
            self.queue.append({"kind": "jinx", "player": q})
        self.queue.append({"kind": "roll_end", "player": p, "ok": True, **roll})
        return True

    def _play_jinx(self, q: int) -> None:
        self.hands[q].remove("jinx")
        self.discard.append("jinx")
        self.queue = [t for t in self.queue if t["kind"] != "jinx"]
        task = self.queue[0]  # the roll_end task
        if self.recording:
            self.event("jinx", player=q, card="jinx")
        if task["what"] == "open":
            task["ok"] = self._open_roll(task["char"], task["spirit"])
        else:
            task["ok"] = self._spirit_test(task["player"], task["mission"], task["spirit"])

    def _roll_end(self, task: dict) -> None:
        p = task["player"]
        if task["what"] == "open":
            if task["ok"]:
                self._open_chest(p, task["char"])
        elif task["ok"]:
            self._mission_reward(p, task["slot"])

    def _open_chest(self, p: int, c: str) -> None:
        zone = self.pos[c]
        chest = self.chests.pop(zone)
        self.carried[c].append(chest["t"])
        # §"Les trésors": the player also takes 1 ducat from the bank
        gain = OPEN_DUCATS + (2 if "hidden_purse" in self.act["cards"] else 0)
        gain = min(gain, self.bank)
        self.bank -= gain
        self.ducats[p] += gain
        if self.recording:
            self.event("chest_taken", char=c, treasure=self._ttype(chest["t"]), n=gain, zone=zone)
        self._check_carry(c)

    def _do_talent(self, p: int, arg: str) -> None:
        c = self.active
        self.act["talent"] = True
        if arg in self.data.zone:  # shadow step: 1 AP, one zone, even through a red wall
            self.ap[p] -= self.data.talent["shadow_step"].cost
            if self.recording:
                self.event("shadow_step", char=c, zone=self.pos[c], dest=arg)
            self.pos[c] = arg
            self._arrive(c, arg)
        else:  # sleight of hand: discard an arcana card for 1 AP
            self.hands[p].remove(arg)
            self.discard.append(arg)
            self.ap[p] += 1
            if self.recording:
                self.event("sleight", char=c, card=arg)

    def _do_play(self, p: int, kind: str, a: Action) -> None:
        """Arcana cards cost no AP; their effects are documented in data/arcana.yaml."""
        self.hands[p].remove(kind)
        self.discard.append(kind)
        if kind in ACT_CARDS:
            self.act["cards"].append(kind)
            if self.recording:
                self.event("play_on", player=p, card=kind, char=self.active)
        elif kind == "second_wind":
            self.ap[p] += 1
            if self.recording:
                self.event("second_wind", player=p, card=kind)
        elif kind == "pickpocket":
            q = a.seat
            assert q is not None  # the notation names the seat robbed
            got = min(2, self.ducats[q])
            self.ducats[q] -= got
            self.ducats[p] += got
            if self.recording:
                self.event("pickpocket", player=p, card=kind, n=got, victim=q)
        elif kind == "reinforced_lock":
            assert a.target is not None  # the notation names the chest's room
            self.chests[a.target]["sealed"] = True
            if self.recording:
                self.event("reinforced_lock", player=p, card=kind, zone=a.target)

    def _do_mission(self, p: int, slot: int) -> None:
        """§"Cartes mission": 3 AP, hand in the treasures, take the reward; refill the slot."""
        mid = self.missions[slot]
        assert mid is not None  # a mission is used only from a filled slot
        m = self.data.mission[mid]
        self.ap[p] -= MISSION_AP
        if m.spirit_test:  # reconstructed: one die <= the best Spirit in the gang
            best = max(self.data.char[c].spirit for c in self._thieves_of(p))
            if not self._spirit_test(p, mid, best):
                return
            if self._jinx_window(p, {"what": "mission", "slot": slot, "mission": mid, "spirit": best}):
                return
        self._mission_reward(p, slot)

    def _spirit_test(self, p: int, mid: str, spirit: int) -> bool:
        roll = self.rng.die(6)
        if roll > spirit:
            if self.recording:
                self.event("spirit_fail", player=p, mission=mid, roll=roll, spirit=spirit)
            return False
        if self.recording:
            self.event("spirit_ok", player=p, mission=mid, roll=roll, spirit=spirit)
        return True

    def _mission_reward(self, p: int, slot: int) -> None:
        """Hand in the treasures, take the reward; the slot is refilled at once."""
        mid = self.missions[slot]
        items = self._mission_items(p, mid) if mid is not None else None
        assert mid is not None and items is not None  # met when the mission was offered
        m = self.data.mission[mid]
        for c, t in items:
            self.carried[c].remove(t)
            self.handed_in.append(t)
        reward = min(m.reward + self.adv.special.mission_bonus, self.bank)
        self.bank -= reward
        self.ducats[p] += reward
        if self.recording:
            self.event("mission_done", player=p, mission=mid, n=reward)
        self.mission_discard.append(mid)
        self.missions[slot] = self.mission_deck.pop() if self.mission_deck else None
