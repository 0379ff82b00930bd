"""How Cadwallon explains itself: reasons for illegal actions, action descriptions and the
plain-text board for terminal play (a mixin of the game state)."""
from __future__ import annotations

from .constants import FORCE_AP, OPEN_AP


class ViewMixin:
    # -- explanations -----------------------------------------------------------------------------
    def _explain(self, p: int, action: str) -> str | None:
        parts = action.split()
        if not parts:
            return "empty action"
        verb = parts[0]
        if self.queue:
            kind = self.queue[0]["kind"]
            hint = {"card": "play a combat arcana card ('card fury') or 'nocard'",
                    "take": "choose the treasure to take ('take scroll')",
                    "drop": "put a treasure down in an empty room ('drop red c2')",
                    "flee": "choose where the beaten character flees ('flee e5')",
                    "reroll": "after the dice: play a re-roll card ('card second_chance', "
                              "'card jinx') or 'nocard'",
                    "injury": "an enemy thief is moving: 'play niggling_injury' or 'no'",
                    "jinx": "an opponent's roll succeeded: 'play jinx' or 'no'",
                    "replot": "the move was cut by a Niggling injury: plot it again within the "
                              "reduced Movement ('move c2', 'leave' or 'stay'; 'play run' first if you hold Run)"}.get(kind, "")
            if kind in ("injury", "jinx", "replot"):
                return f"waiting for an answer to an interrupt: {hint}"
            return f"a fight is being settled: {hint}"
        if self.phase == "gang":
            return "choose a gang first: " + ", ".join(f"'gang {g}'" for g in self.data.gang_ids
                                                       if g not in self.gangs)
        if self.phase == "deploy" and self.deploy_sel is None and verb != "deploy":
            return "choose a character to deploy first ('deploy E1')"
        if self.phase == "deploy" and self.deploy_sel is not None and verb != "at":
            return f"choose an empty deployment zone for {self.deploy_sel} ('at b1')"
        if self.phase == "militia" and verb != "militia":
            return "first move a militiaman: 'militia kornak' or 'militia valrut'"
        if self.phase == "militia_move" and verb != "mm":
            return "move the militiaman: 'mm <zone>' or 'mm stay'"
        if verb == "deploy":
            return f"{parts[1] if len(parts) > 1 else '?'} is not one of your characters waiting to be deployed"
        if verb == "at":
            return "characters deploy on an empty deployment zone"
        if verb in ("move", "leave", "open", "force", "attack", "talent") and self.active is None:
            return "activate a character first ('act E1')"
        if verb == "act" and len(parts) == 2:
            if parts[1] in self.activated:
                return f"{parts[1]} has already been activated this round"
            if self.ap[p] < 1:
                return "no Action Points left: no more characters can be activated"
            return f"{parts[1]} is not one of your characters in the district"
        if verb in ("move", "leave") and self.act and self.act["moved"]:
            return "this character has already used its move this activation"
        if verb == "leave" and not self.alarm:
            return "nobody may leave the district before the alarm is raised"
        if verb == "leave":
            return "leaving needs an open deployment zone in reach with one Movement point to spare"
        if verb in ("open", "force", "attack") and self.act and self.act["acted"]:
            return "this character has already used its action this activation"
        if verb in ("open", "force"):
            chest = self.chests.get(self.pos.get(self.active, ""))
            if chest is None:
                return "there is no chest in this character's zone"
            if verb == "open" and chest["sealed"]:
                return "a chest showing its chest face can only be forced"
            return f"not enough Action Points to {verb} ({OPEN_AP if verb == 'open' else FORCE_AP} needed)"
        if verb == "attack" and len(parts) == 2:
            if parts[1] in self.data.militia:
                return "a character can never attack a militiaman"
            if (self.options["attack_needs_movement"] and self.act and self.act["moved"]
                    and self.act.get("left", 1) < 1):
                return ("entering an enemy's zone to attack is a step of the move, and this "
                        "character has no Movement point left")
            return f"{parts[1]} is not an enemy in an adjacent zone (or no AP left)"
        if verb == "move" and len(parts) == 2:
            if self.ap[p] < 1:
                return "a move costs 1 Action Point"
            return f"{parts[1]} is not an empty zone within this character's Movement"
        if verb == "mission":
            return "a mission needs 3 AP and the treasures it names on your characters in the district"
        if verb == "play" and len(parts) > 1 and parts[1] in ("niggling_injury", "jinx"):
            return (f"{parts[1]} is an interrupt: it is offered when its moment comes "
                    "(an enemy thief's move, an opponent's successful roll)")
        if verb == "play":
            return "you do not hold that card, or it cannot be played now"
        return None

    # -- presentation ---------------------------------------------------------------------------
    def describe_action(self, action: str) -> str:
        parts = action.split()
        d = self.data
        v = parts[0] if parts else ""
        try:
            if v == "gang":
                g = d.gang[parts[1]]
                return f"Take {g.name}: " + ", ".join(
                    f"{c.name} ({d.talent[c.talent].name})" for c in g.characters)
            if v == "deploy":
                ch = d.char[parts[1]]
                return f"Deploy {ch.name} ({d.talent[ch.talent].name}: {d.talent[ch.talent].text})"
            if v == "at":
                return f"Deploy {self._name(self.deploy_sel)} in {parts[1]}"
            if v == "militia":
                return f"Roll the die and move {self._name(parts[1])}"
            if v == "mm":
                if parts[1] == "stay":
                    return "The militiaman stays where he is"
                victim = next((c for c, z in self.pos.items() if z == parts[1]), None)
                return (f"Militiaman attacks {self._name(victim)} in {parts[1]}" if victim
                        else f"Militiaman moves to {parts[1]}")
            if v == "act":
                ch = d.char[parts[1]]
                return f"Activate {ch.name} ({d.talent[ch.talent].name})"
            if v == "move":
                z = d.zone[parts[1]]
                return f"Move to {parts[1]}" + (f" ({z.name})" if z.name else "") + " for 1 AP"
            if v == "attack":
                return f"Attack {self._name(parts[1])} (1 AP)"
            if v == "open":
                return "Try to open the chest: one die, at most Spirit (1 AP)"
            if v == "force":
                return "Force the chest open (2 AP)"
            if v == "leave":
                return "Leave the district with everything carried (1 AP)"
            if v == "play":
                return f"Play {d.card[parts[1]].name}: {d.card[parts[1]].text}"
            if v == "card":
                return f"Play {d.card[parts[1]].name} in the fight: {d.card[parts[1]].text}"
            if v == "mission":
                m = d.mission[self.missions[int(parts[1]) - 1]]
                return f"Mission {m.name}: hand in {m.needs} for {m.reward} ducats (3 AP)"
            if v == "stay":
                return "The injured character stays where it is (its move is used)"
            if v == "no":
                return "Let it happen (play no card)"
            if v == "talent":
                return f"Use the talent of {self._name(self.active)}"
        except (KeyError, IndexError, ValueError, TypeError):
            pass
        return action

    def render_text(self, player: int | None) -> str:
        d = self.data
        lines = [f"{self.adv.name} - round {self.round}/{self.adv.track}"
                 + ("  ALARM" if self.alarm else "") + f"  bank {self.bank}"]
        if self.portcullis:
            lines.append("Portcullises: " + " ".join(self.portcullis))
        for p in range(self.num_players):
            if self.gangs[p] is None:
                lines.append(f" {self.player_name(p)}: no gang yet")
                continue
            g = d.gang[self.gangs[p]]
            mark = ">" if p == self.current else " "
            lines.append(f"{mark}{self.player_name(p)} {g.name}: {self.ducats[p]} ducats, {self.ap[p]} AP, "
                         f"{len(self.hands[p])} cards, banked {len(self.banked[p])} treasures")
            for c in [x.id for x in g.characters]:
                where = self.pos.get(c, "escaped" if c in self.escaped else "not deployed")
                loot = ",".join(self._ttype(t) for t in self.carried.get(c, []))
                flag = "*" if c == self.active else ("-" if c in self.activated else " ")
                lines.append(f"   {flag}{c} {d.char[c].name:<15} {where:<12} {loot}")
        others = [f"{self._name(c)} {z}" for c, z in sorted(self.pos.items()) if not self._is_thief(c)]
        lines.append("Neutral: " + ", ".join(others))
        lines.append("Chests: " + " ".join(f"{z}:{self._ttype(v['t'])}{'(shut)' if v['sealed'] else ''}"
                                           for z, v in sorted(self.chests.items())))
        if self.room_ducats:
            lines.append("Loose ducats: " + " ".join(f"{z}:{n}" for z, n in self.room_ducats.items()))
        if self.tokens:
            lines.append("Tokens: " + " ".join(f"{z}:{k}" for z, k in sorted(self.tokens.items())))
        lines.append("Missions: " + " | ".join(
            f"{i + 1}. {d.mission[m].name} {d.mission[m].needs} -> {d.mission[m].reward}"
            for i, m in enumerate(self.missions) if m))
        if player is not None:
            lines.append("Your hand: " + ", ".join(d.card[k].name for k in self.hands[player]))
        return "\n".join(lines + self._ascii_map())

    def _ascii_map(self) -> list[str]:
        """A small map: figures by id, '$' chest, '#' roofed, '+' room, '.' street, '|' portcullis."""
        d = self.data
        b = d.board
        at = {z: c for c, z in self.pos.items()}
        short = {"kornak": "KO", "valrut": "VA", "sienne": "SI", "isabeau": "IS"}
        rows = ["    " + " ".join(f"{chr(97 + c):^3}" for c in range(b.columns))]
        for r in range(b.rows):
            cells = []
            for c in range(b.columns):
                z = f"{chr(97 + c)}{r + 1}"
                if z not in d.zone:
                    cells.append("###")
                elif z in at:
                    cells.append(f"{short.get(at[z], at[z]):^3}")
                elif z in self.tokens:
                    cells.append(f"{self.tokens[z][:3]:^3}")
                elif z in self.chests:
                    cells.append(" $ ")
                elif z in self.portcullis:
                    cells.append("|||")
                else:
                    cells.append(" + " if d.is_room[z] else " . ")
            rows.append(f"{r + 1:>3} " + " ".join(cells))
        return rows
