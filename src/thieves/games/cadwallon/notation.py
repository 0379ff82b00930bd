"""Legal actions, applying them, and explanations (a mixin of the game state).

Action notation (see docs/cadwallon.md):
  deploy E1, at b1    choose character E1, then put it on deployment zone b1 (setup)
  militia kornak      choose the militiaman to move (his die is rolled at once)
  mm e5 / mm stay     move the chosen militiaman to e5 (a zone with a thief = attack him)
  act E1              activate character E1 (the previous one is finished)
  move c2             move the active character to c2 (1 AP)
  leave               the active character leaves the district (1 AP, after the alarm)
  open / force        try to open (1 AP) / force (2 AP) the chest in the active character's zone
  attack N2           the active character attacks N2 in an adjacent zone (1 AP)
  talent c3 / talent fury   use the active character's talent (shadow step / sleight of hand)
  play run            play an arcana card (targets: play pickpocket P2, play niggling_injury N2,
                      play reinforced_lock c2)
  mission 2           use the mission in slot 2 (3 AP)
  end                 end the turn
  card fury / nocard  in a fight: play a combat arcana card or none
  take scroll         the winner of a fight takes a scroll from the loser
  drop red c2         put a treasure over the carrying limit down in empty room c2
  flee e5             move a beaten character to e5 (end of its flight)
"""
from __future__ import annotations

from .constants import ATTACK_AP, FORCE_AP, MISSION_AP, MOVE_AP, OPEN_AP, OPEN_DUCATS

ACT_CARDS = {"run": "move", "secret_passage": "move", "rooftops": "move",
             "skeleton_key": "action", "hidden_purse": "action"}


class ActionsMixin:
    # -- legal actions --------------------------------------------------------------------
    def _legal_actions(self, p: int) -> list[str]:
        if self.queue:
            return self._pending_actions(self.queue[0])
        ph = self.phase
        if ph == "deploy":
            if self.deploy_sel is None:
                return [f"deploy {c}" for c in self.to_deploy[p]]
            occupied = self._occupied_zones()
            return [f"at {z}" for z in self.data.deployment if z not in occupied and z not in self.tokens]
        if ph == "militia":
            return [f"militia {m}" for m in sorted(self.data.militia)]
        if ph == "militia_move":
            return ["mm stay"] + [f"mm {z}" for z in
                                  self._militia_targets(self.militia_sel, self.militia_roll, p)]
        return self._main_actions(p)

    def _pending_actions(self, task: dict) -> list[str]:
        kind = task["kind"]
        if kind == "card":
            return self._combat_cards(task["player"])
        if kind == "take":
            return [f"take {k}" for k in sorted({self._ttype(t) for t in self.carried[task["from"]]})]
        if kind == "drop":
            kinds = sorted({self._ttype(t) for t in self.carried[task["char"]]})
            return [f"drop {k} {r}" for k in kinds for r in self._drop_rooms()]
        if kind == "flee":
            return [f"flee {z}" for z in self._flee_options(task["char"])]
        return []

    def _main_actions(self, p: int) -> list[str]:
        out = []
        ap = self.ap[p]
        c = self.active
        act = self.act
        hand = set(self.hands[p])
        if c is not None:
            if not act["moved"] and ap >= MOVE_AP:
                targets = self._move_targets(c)
                out += [f"move {z}" for z in sorted(targets)]
                if self._can_leave(c, targets):
                    out.append("leave")
            if not act["acted"]:
                chest = self.chests.get(self.pos[c])
                if chest is not None:
                    if ap >= OPEN_AP and not chest["sealed"]:
                        out.append("open")
                    if ap >= FORCE_AP:
                        out.append("force")
                if ap >= ATTACK_AP:
                    out += [f"attack {t}" for t in self._attack_targets(c)]
            if not act["talent"]:
                tal = self._talent(c)
                if tal == "shadow_step" and ap >= self.data.talent[tal].cost:
                    occupied = self._occupied_zones()
                    here = self.pos[c]
                    zs = set(self.data.adj[here]) | set(self.data.wall_adj[here])
                    out += [f"talent {z}" for z in sorted(zs) if self._free(z, occupied)]
                elif tal == "sleight":
                    out += [f"talent {k}" for k in sorted(hand)]
            for k, step in ACT_CARDS.items():
                if k in hand and k not in act["cards"] and not act["moved" if step == "move" else "acted"]:
                    out.append(f"play {k}")
        if ap >= 1:  # no AP left: no more characters can be activated
            out += [f"act {x}" for x in self._thieves_of(p) if x not in self.activated]
        if "second_wind" in hand:
            out.append("play second_wind")
        if "niggling_injury" in hand:
            out += [f"play niggling_injury {x}" for x in sorted(self.pos)
                    if self._is_thief(x) and self._owner(x) != p and not self.injured.get(x)]
        if "pickpocket" in hand:
            out += [f"play pickpocket P{q + 1}" for q in range(self.num_players) if q != p]
        if "reinforced_lock" in hand:
            out += [f"play reinforced_lock {z}" for z in sorted(self.chests) if not self.chests[z]["sealed"]]
        if ap >= MISSION_AP:
            have: dict[str, int] = {}
            for x in self._thieves_of(p):
                for t in self.carried[x]:
                    k = self._ttype(t)
                    have[k] = have.get(k, 0) + 1
            if have:
                mission = self.data.mission
                out += [f"mission {i + 1}" for i, m in enumerate(self.missions) if m is not None
                        and all(have.get(k, 0) >= n for k, n in mission[m].needs.items())]
        out.append("end")
        return out

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
        parts = action.split()
        verb = parts[0]
        if self.queue:
            self._apply_pending(p, self.queue[0], parts)
        elif verb == "deploy":
            self.deploy_sel = parts[1]
        elif verb == "at":
            self._do_deploy(p, self.deploy_sel, parts[1])
        elif verb == "militia":
            self._do_militia(parts[1])
        elif verb == "mm":
            self._do_militia_move(p, parts[1])
        elif verb == "end":
            self.event(f"{self.player_name(p)} ends the turn.")
            self._end_turn()
        elif verb == "act":
            self.active = parts[1]
            self.act = {"moved": False, "acted": False, "cards": [], "talent": False}
            self.activated.append(parts[1])
            self.event(f"{self.player_name(p)} activates {self._name(parts[1])}.")
        elif verb == "move":
            self._do_move(p, parts[1])
        elif verb == "leave":
            self._do_leave(p)
        elif verb in ("open", "force"):
            self._do_chest(p, verb)
        elif verb == "attack":
            self.ap[p] -= ATTACK_AP  # attacking is the action (1 AP) and ends the character's movement
            self.act["acted"] = self.act["moved"] = True
            self._start_combat(self.active, parts[1], p)
        elif verb == "talent":
            self._do_talent(p, parts[1])
        elif verb == "play":
            self._do_play(p, parts[1], parts[2] if len(parts) > 2 else None)
        elif verb == "mission":
            self._do_mission(p, int(parts[1]) - 1)
        self._continue()

    def _apply_pending(self, p: int, task: dict, parts: list[str]) -> None:
        self.queue.pop(0)
        kind = task["kind"]
        if kind == "card":
            self._play_combat_card(p, task["side"], None if parts[0] == "nocard" else parts[1])
        elif kind == "take":
            self._take_from(task["char"], task["from"], parts[1])
        elif kind == "drop":
            c, k, room = task["char"], parts[1], parts[2]
            tid = next(t for t in self.carried[c] if self._ttype(t) == k)
            self.carried[c].remove(tid)
            self.chests[room] = {"t": tid, "sealed": False}
            self.event(f"{self._name(c)} puts a {self.data.ttype[k].name} down in {room}.")
        elif kind == "flee":
            self._flee(task["char"], parts[1])

    def _continue(self) -> None:
        """Run the automatic steps (dice, forced flights) until someone must decide."""
        while self.queue:
            task = self.queue[0]
            if task["kind"] == "resolve":
                self.queue.pop(0)
                self._resolve_combat()
            elif task["kind"] == "flee":
                opts = self._flee_options(task["char"])
                if len(opts) > 1:
                    break
                self.queue.pop(0)
                if opts:
                    self._flee(task["char"], opts[0])
                else:
                    self.event(f"{self._name(task['char'])} cannot flee and stays put.")
            elif task["kind"] == "drop" and not self._drop_rooms():
                self.queue.pop(0)
            else:
                break
        if not self.queue:
            self.combat = None

    # -- the actions ----------------------------------------------------------------------------
    def _do_deploy(self, p: int, c: str, z: str) -> None:
        """§"Mise en place" step 10: one character at a time, clockwise, in an empty zone."""
        self.to_deploy[p].remove(c)
        self.deploy_sel = None
        self.pos[c] = z
        self.event(f"{self.player_name(p)} deploys {self._name(c)} in {z}.")
        if any(self.to_deploy):
            q = (p + 1) % self.num_players
            while not self.to_deploy[q]:
                q = (q + 1) % self.num_players
            self.current = q
        else:
            self.current = self.first
            self.event("Round 1 begins.")
            self._start_turn()

    def _do_militia(self, m: str) -> None:
        """§"Déplacer un milicien": one die; the 'distracted' face means he stays put."""
        roll = self.rng.die(6)
        self.event(f"{self.player_name(self.current)} rolls {roll} for {self._name(m)}.")
        if roll == self.options["militia_still_face"]:
            self.event(f"{self._name(m)} is distracted and does not move.")
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
            self.event(f"{self._name(m)} stays in {self.pos[m]}.")
            return
        victim = next((c for c, cz in self.pos.items()
                       if cz == z and self._is_thief(c) and self._owner(c) != p), None)
        if victim is None:
            self.pos[m] = z
            self.event(f"{self._name(m)} moves to {z}.")
        else:  # entering a character's zone starts a fight and ends his move
            self._start_combat(m, victim, p)

    def _do_move(self, p: int, z: str) -> None:
        c = self.active
        self.ap[p] -= MOVE_AP
        self.act["moved"] = True
        self.event(f"{self._name(c)} moves from {self.pos[c]} to {z}.")
        self.pos[c] = z
        self._arrive(c, z)

    def _do_leave(self, p: int) -> None:
        """§"Quitter le quartier": the character and its treasures are out of play, safe."""
        c = self.active
        self.ap[p] -= MOVE_AP
        del self.pos[c]
        self.escaped.append(c)
        self.banked[p] += self.carried[c]
        self.event(f"{self._name(c)} leaves the district with {len(self.carried[c])} treasures.")
        self.carried[c] = []
        self.active, self.act = None, None

    def _do_chest(self, p: int, how: str) -> None:
        """§"Ouvrir un coffre": open = 1 AP and a die <= Spirit; force = 2 AP, automatic."""
        c = self.active
        zone = self.pos[c]
        self.act["acted"] = True
        if how == "force":
            self.ap[p] -= FORCE_AP
            self.event(f"{self._name(c)} forces the chest in {zone}.")
        else:
            self.ap[p] -= OPEN_AP
            spirit = self.data.char[c].spirit
            if self._talent(c) == "locksmith":
                spirit += 1
            if "skeleton_key" in self.act["cards"]:
                spirit += 2
            roll = self.rng.die(6)
            if roll > spirit and self._talent(c) == "lucky_hands":
                self.event(f"{self._name(c)} rolls {roll} and tries again (lucky hands).")
                roll = self.rng.die(6)
            if roll > spirit:
                self.event(f"{self._name(c)} rolls {roll} against Spirit {spirit}: the chest stays shut.")
                return
            self.event(f"{self._name(c)} rolls {roll} against Spirit {spirit}: the chest opens.")
        chest = self.chests.pop(zone)
        self.carried[c].append(chest["t"])
        # §"Les trésors": the player also takes 1 ducat from the bank
        gain = OPEN_DUCATS + (2 if "hidden_purse" in self.act["cards"] else 0)
        gain = min(gain, self.bank)
        self.bank -= gain
        self.ducats[p] += gain
        self.event(f"{self._name(c)} takes a {self.data.ttype[self._ttype(chest['t'])].name} and {gain} ducats.")
        self._check_carry(c)

    def _do_talent(self, p: int, arg: str) -> None:
        c = self.active
        self.act["talent"] = True
        if arg in self.data.zone:  # shadow step: 1 AP, one zone, even through a red wall
            self.ap[p] -= self.data.talent["shadow_step"].cost
            self.event(f"{self._name(c)} shadow-steps from {self.pos[c]} to {arg}.")
            self.pos[c] = arg
            self._arrive(c, arg)
        else:  # sleight of hand: discard an arcana card for 1 AP
            self.hands[p].remove(arg)
            self.discard.append(arg)
            self.ap[p] += 1
            self.event(f"{self._name(c)} discards {self.data.card[arg].name} for 1 Action Point.")

    def _do_play(self, p: int, kind: str, arg: str | None) -> None:
        """Arcana cards cost no AP; their effects are documented in data/arcana.yaml."""
        self.hands[p].remove(kind)
        self.discard.append(kind)
        name = self.data.card[kind].name
        if kind in ACT_CARDS:
            self.act["cards"].append(kind)
            self.event(f"{self.player_name(p)} plays {name} on {self._name(self.active)}.")
        elif kind == "second_wind":
            self.ap[p] += 1
            self.event(f"{self.player_name(p)} plays {name}: +1 Action Point.")
        elif kind == "niggling_injury":
            self.injured[arg] = 2
            self.event(f"{self.player_name(p)} plays {name} on {self._name(arg)}: -2 Movement this round.")
        elif kind == "pickpocket":
            q = int(arg[1:]) - 1
            got = min(2, self.ducats[q])
            self.ducats[q] -= got
            self.ducats[p] += got
            self.event(f"{self.player_name(p)} plays {name}: takes {got} ducats from {self.player_name(q)}.")
        elif kind == "reinforced_lock":
            self.chests[arg]["sealed"] = True
            self.event(f"{self.player_name(p)} plays {name}: the chest in {arg} shows its chest face.")

    def _do_mission(self, p: int, slot: int) -> None:
        """§"Cartes mission": 3 AP, hand in the treasures, take the reward; refill the slot."""
        mid = self.missions[slot]
        m = self.data.mission[mid]
        self.ap[p] -= MISSION_AP
        if m.spirit_test:  # reconstructed: one die <= the best Spirit in the gang
            best = max(self.data.char[c].spirit for c in self._thieves_of(p))
            roll = self.rng.die(6)
            if roll > best:
                self.event(f"{self.player_name(p)} fails the Spirit test of {m.name} ({roll}).")
                return
        for c, t in self._mission_items(p, mid):
            self.carried[c].remove(t)
            self.handed_in.append(t)
        reward = min(m.reward + self.adv.special.mission_bonus, self.bank)
        self.bank -= reward
        self.ducats[p] += reward
        self.event(f"{self.player_name(p)} completes {m.name} for {reward} ducats.")
        self.mission_discard.append(mid)
        self.missions[slot] = self.mission_deck.pop() if self.mission_deck else None
