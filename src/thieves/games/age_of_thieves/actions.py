"""Phase 4 for the thieves: resolving planned cards, movement, card effects.

A resolving card becomes ``self.act`` (a small dict) and the acting player
answers its decisions one by one: ``to N12``, ``take yellow``, ``at S3``...
"""
from __future__ import annotations

from typing import Any

from .notation import AotAction
from .fields import MixinBase

GEM_KINDS = ("emperor", "green", "yellow")
#: the planned card a turn action resolves (``play X`` and ``decline X`` name it themselves)
TURN_SLOT = {"sneak": "move", "sprint": "move", "cleverness": "ambush", "cunning": "ambush",
             "special": "special"}


class ActionsMixin(MixinBase):
    # -- choosing which planned card to resolve (and which effect) ----------------------
    def _my_slots(self, p: int) -> list[dict[str, Any]]:
        v = self.exec["value"]
        return [s for s in self.thieves[p]["plan"] if not s["shown"] and s["ap"] == v]

    def _turn_actions(self, p: int, slots: list[dict[str, Any]] | None = None) -> list[str]:
        """The choices of the thief whose planned cards resolve now; ``slots`` are its
        :meth:`_my_slots` when the caller has them already."""
        t = self.thieves[p]
        d = self.data
        if slots is None:
            slots = self._my_slots(p)
        # the usual: one or two cards at this AP; the choices depend on these alone (each
        # card's type and the type of the card under a special)
        ct: dict[Any, str] = d.card_type  # (.get(None) is None: no card under)
        if len(slots) == 1:
            s = slots[0]
            c = s["card"]
            key: tuple[Any, ...] = (t["strong"], t["resolved"], t["dungeon"], ct.get(c, c),
                                    ct.get(s.get("under")))
        elif len(slots) == 2:
            s, s2 = slots
            c, c2 = s["card"], s2["card"]
            key = (t["strong"], t["resolved"], t["dungeon"], ct.get(c, c), ct.get(s.get("under")),
                   ct.get(c2, c2), ct.get(s2.get("under")))
        else:
            return self._turn_choices(t, slots)
        known = d.turn_choices.get(key)
        if known is None:
            known = d.turn_choices[key] = tuple(self._turn_choices(t, slots))
        return list(known)

    def _turn_choices(self, t: dict[str, Any], slots: list[dict[str, Any]]) -> list[str]:
        """:meth:`_turn_actions` worked out, for thief ``t`` and its ``slots``."""
        d = self.data
        card_type = d.card_type  # a general card's type; move, ambush and special are themselves
        out: list[str] = []
        seen = set()
        for s in slots:
            c = s["card"]
            key = card_type.get(c, c)
            if key in seen:
                continue
            seen.add(key)
            # Rulebook §"Verlies": the first action after an arrest must be Move
            jailed = t["dungeon"] and c != "move"
            # Rulebook §"Basisaktionen": the lower effect only if no other action is resolved
            strong_ok = not t["resolved"]
            if c == "move":
                if not t["strong"]:
                    out.append("sneak")
                    if strong_ok:
                        out.append("sprint")
            elif c == "ambush":
                if not t["strong"] and not jailed:
                    out.append("cleverness")
                    if strong_ok:
                        out.append("cunning")
            elif c == "special":
                if not t["strong"] and not jailed:
                    out.append("special")
                    out.append(d.play_action[card_type[s["under"]]])
            elif not t["strong"] and not jailed:
                out.append(d.play_action[key])
            out.append(d.decline_action[key])
        return list(dict.fromkeys(out)) if len(out) > 2 else out

    def _find_slot(self, slots: list[dict[str, Any]], key: str) -> dict[str, Any]:
        """The slot among ``slots`` (a thief's :meth:`_my_slots`) that an action names by
        ``key``: a card of that type first, else a special action over one."""
        if len(slots) == 1:
            return slots[0]   # the action was listed for it
        card_type = self.data.card_type
        for s in slots:
            if card_type.get(s["card"], s["card"]) == key:
                return s
        for s in slots:
            if s["card"] == "special" and card_type[s["under"]] == key:
                return s
        raise AssertionError("slot checked as legal")  # pragma: no cover

    def _turn_apply(self, p: int, action: "AotAction", slots: list[dict[str, Any]] | None = None) -> None:
        """Resolve or decline one of the cards listed by :meth:`_turn_actions` (``slots`` as
        there)."""
        word, arg = action.verb, action.arg
        t = self.thieves[p]
        ex = self.exec
        if slots is None:
            slots = self._my_slots(p)
        self.turn = None
        ex["last"] = [ex["value"], p]
        if word == "decline":
            s = self._find_slot(slots, arg)
            s["shown"] = True
            if self.recording:
                self.event("decline", player=p, card=self.slot_card(s, p))
            return
        s = self._find_slot(slots, TURN_SLOT.get(word, arg))
        s["shown"] = True
        t["resolved"] = True
        if word in ("sprint", "cunning"):
            t["strong"] = True
        if self.recording:
            if word == "play":
                self.event("reveal_play", player=p, card=self.slot_card(s, p), ap=s["ap"], played=arg)
            else:
                self.event("reveal", player=p, card=self.slot_card(s, p), ap=s["ap"], how=word)
        if word == "sneak":
            steps = self.data.cards.basic.move["upper_steps"] + (t["id"] == "noiron")
            self.start_move(p, int(steps), pick=True)
        elif word == "sprint":
            steps = self.data.cards.basic.move["lower_steps"] + (t["id"] == "noiron")
            self.start_move(p, int(steps), pick=False)
        elif word == "cleverness":
            for _ in range(int(self.data.cards.basic.ambush["upper_draw"])):
                self.draw_card(p)
        elif word == "cunning":
            amb = self.data.cards.basic.ambush
            for _ in range(int(amb["lower_draw"])):
                self.draw_card(p)
            t["violet_new"] += int(amb["lower_violet"])
        elif word == "special":
            self.start_special(p)
        else:
            self.start_general(p, arg)

    # -- movement (Rulebook §"Bewegen", §"Die Kanalisation nutzen", §"Juwelen") ----------
    def start_move(self, p: int, steps: int, pick: bool, safe: bool = False) -> None:
        t = self.thieves[p]
        if t["immobile"]:
            steps = 0
        self.act = {"kind": "move", "p": p, "left": steps, "pick": pick, "safe": safe,
                    "entered": False, "sewered": False, "know": False, "route": [t["pos"]]}
        self._auto_finish()

    def can_enter(self, p: int, s: str) -> bool:
        d = self.data
        if d.kind[s] == "dungeon":
            return False  # no figure may move into a dungeon voluntarily
        if s in self.fire and self.thieves[p]["id"] != "zain":
            return False  # fire blocks the space (Zain: reconstructed ability)
        return True

    def stealable(self, q: int) -> bool:
        """Rulebook §"Diebstahl": a theft marker, or standing in smoke; once per round."""
        t = self.thieves[q]
        return (t["marker"] or t["pos"] in self.smoke) and not t["robbed"] and not t["dungeon"] \
            and t["left"] is None

    def loot_of(self, q: int) -> list[str]:
        t = self.thieves[q]
        out = [k for k in GEM_KINDS if (t[k] if k != "emperor" else t["emperor"])]
        if "trinket" in t["sheet"]:
            out.append("trinket")
        return out

    def _move_actions(self, a: dict[str, Any]) -> list[str]:
        p = a["p"]
        t = self.thieves[p]
        here = t["pos"]
        d = self.data
        acts = []
        if a["left"] > 0 and not t["immobile"]:
            acts += [f"to {n}" for n in d.adj[here] if self.can_enter(p, n)]
            if self.alarm_district:
                acts += [f"leave {e}" for e in d.exits_from.get(here, [])
                         if d.exits[e].district == self.alarm_district]
        if a["entered"] and not a["sewered"] and self.is_sewer_in(here):
            acts += [f"sewer {s}" for s in self.sewer_exits() if s != here and self.can_enter(p, s)]
        if a["pick"]:
            for k in GEM_KINDS:
                if k in self.gems.get(here, []):
                    acts.append(f"take {k}")
            if here in self.tokens:
                acts.append("take token")
            # Rulebook §"Diebstahlplättchen": a thief steals "indem er sich auf oder durch dessen
            # Feld bewegt", i.e. on a space entered during this movement (option steal_in_place)
            may_steal = a.get("moved_in") or self.options.get("steal_in_place")
            for q in (self.thieves_at(here) if may_steal else []):
                if q != p and self.stealable(q):
                    acts += [f"steal {q + 1} {k}" for k in self.loot_of(q)]
        if not a["know"] and "knowcity" in t["sheet"] and not t["immobile"]:
            acts.append("know")
        acts.append("stop")
        return acts

    def is_sewer_in(self, s: str) -> bool:
        return self.data.kind[s] == "sewer_in" or self.features.get(s) == "manhole"

    def sewer_exits(self) -> list[str]:
        return self.data.of_kind["sewer_out"] + sorted(s for s, f in self.features.items() if f == "ladder")

    def _move_apply(self, a: dict[str, Any], action: "AotAction") -> None:
        p = a["p"]
        t = self.thieves[p]
        word, arg = action.verb, action.arg
        if word == "to":
            a["left"] -= 1
            a["entered"] = True
            if t["dungeon"]:
                # Rulebook §"Verlies": leaving the dungeon; hidden for the rest of the round
                t["dungeon"], t["escaped"] = False, True
            t["pos"] = arg
            a["moved_in"] = True
            a["route"].append(arg)
            self.event("moves", player=p, space=arg)
            self.thief_entered(p, arg, safe=a["safe"])
        elif word == "sewer":
            t["pos"] = arg
            a["route"].append(arg)
            a["moved_in"] = True
            self.event("sewer", player=p, space=arg)
            a["entered"] = False
            if t["id"] != "morius":  # the sewer ends the movement (Morius: reconstructed ability)
                a["left"] = 0
                a["sewered"] = True
            self.thief_entered(p, arg, safe=a["safe"])
        elif word == "leave":
            self.leave_city(p, arg)
        elif word == "take":
            self.pick_up(p, arg)
        elif word == "steal":
            self.steal(p, action.named_seat, action.named_kind)
        elif word == "know":
            t["sheet"].remove("knowcity")
            self.spent_tokens.append("knowcity")
            a["left"] += 1
            a["know"] = True
            self.event("know", player=p)
        elif word == "stop":
            self.act = None

    def thief_entered(self, p: int, s: str, safe: bool = False) -> None:
        """A thief walking onto a guard's space is arrested at once (§"Diebe festnehmen")."""
        if self.guard_at(s) and not safe and self.catchable(p):
            self.arrest(p, s)

    def leave_city(self, p: int, exit_id: str) -> None:
        """Rulebook §"Den Alarm auslösen": leave through an open gate or onto a ship."""
        t = self.thieves[p]
        self.left_count += 1
        t["left"], t["pos"] = self.left_count, None
        for s in t["plan"]:
            s["shown"] = True
        self.act = None
        self.event("leave", player=p, exit=exit_id)
        if t["emperor"]:
            self.emperor_winner = p
            self._finish("emperor")

    def pick_up(self, p: int, what: str) -> None:
        t = self.thieves[p]
        here = t["pos"]
        if what == "token":
            self.reveal_token(p, here)
            return
        self.gems[here].remove(what)
        if not self.gems[here]:
            del self.gems[here]
        self.event("take_jewel", player=p, gem=what, space=here)
        if what == "emperor":
            t["emperor"] = True
            if not self.jewel_taken:
                # Rulebook §"In die Schatzkammer eindringen": the game pauses; best-thief token and
                # (players - 1) red AP at once. The district card is drawn only after this thief's
                # action has ended (``draw_escape_district``, called from the round loop).
                self.jewel_taken = True
                t["best"] = True
                t["red"] = self.num_players - 1
                self.event("emperor_taken", player=p)
        else:
            t[what] += 1

    def draw_escape_district(self) -> None:
        """Rulebook §"In die Schatzkammer eindringen": after the thief who took the jewel has
        finished that action, the start player shuffles the district deck and draws 1 card; from
        now on thieves may leave through that district's exits."""
        self.alarm_district = self.district_deck.pop(self.rng.below(len(self.district_deck)))
        self.event("escape_district", district=self.alarm_district)

    def steal(self, p: int, q: int, kind: str) -> None:
        """Rulebook §"Diebstahl": exactly 1 jewel; a thief is robbed at most once a round."""
        v, t = self.thieves[q], self.thieves[p]
        if kind == "trinket":
            v["sheet"].remove("trinket")
            t["sheet"].append("trinket")
        elif kind == "emperor":
            v["emperor"], t["emperor"] = False, True
        else:
            v[kind] -= 1
            t[kind] += 1
        v["robbed"], v["marker"] = True, False
        self.event("steal", player=p, victim=q, gem=kind)

    def mark_theft(self, p: int, space: str, marker: bool = True) -> None:
        """A theft-symbol effect on a space: same space steals at once, else a theft marker."""
        victims = [q for q in self.thieves_at(space) if q != p and not self.thieves[q]["robbed"]
                   and not self.thieves[q]["dungeon"]]
        if not victims:
            return
        if space == self.thieves[p]["pos"]:
            opts = [f"steal {q + 1} {k}" for q in victims for k in self.loot_of(q)]
            if opts:
                self.act = {"kind": "choose", "p": p, "opts": opts + ["nothing"], "then": "steal"}
            return
        for q in victims if marker else []:  # smoke needs no marker: it makes them stealable itself
            self.thieves[q]["marker"] = True
            self.event("theft_marker", player=q)

    # -- city tokens (Rulebook §"Die Stadtplättchen im Detail") ----------------------------
    def reveal_token(self, p: int, s: str) -> None:
        tok = self.tokens.pop(s)
        t = self.thieves[p]
        self.event("token_revealed", player=p, token=tok, space=s)
        if tok == "stash":
            self.spent_tokens.append(tok)
            self.draw_card(p)
        elif tok == "citizens":
            self.spent_tokens.append(tok)
            dist = self.data.district[s]
            for q in self.on_board():
                tq = self.thieves[q]
                if not tq["dungeon"] and self.data.district[tq["pos"]] == dist and tq["hand"]:
                    self.pending.append({"kind": "discard", "p": q, "why": "citizens"})
        elif tok == "plainclothes":
            self.spent_tokens.append(tok)
            # on this space; if a figure stands there, the nearest possible space (start player's pick)
            spots = [s] if not self.guard_at(s) else self.nearest_free_all(s)
            self.pending.append({"kind": "place_guard", "p": self.start, "why": "plainclothes", "opts": spots,
                                 "on": s})
        elif tok in ("alley", "manhole", "ladder"):
            self.features[s] = tok
        else:
            t["sheet"].append(tok)

    # -- dispatch -----------------------------------------------------------------------------
    def _act_actions(self, a: dict[str, Any]) -> list[str]:
        k = a["kind"]
        if k == "move":
            return self._move_actions(a)
        if k == "gmove":
            return self._gmove_actions(a)
        return list(a["opts"])

    def _act_apply(self, a: dict[str, Any], action: "AotAction") -> None:
        k = a["kind"]
        if k == "move":
            self._move_apply(a, action)
        elif k == "gmove":
            self._gmove_apply(a, action)
        else:
            self._choose_apply(a, action)
        self._auto_finish()

    def _auto_finish(self) -> None:
        """End a movement when nothing but 'stop' is left to do."""
        a = self.act
        if a is None:
            return
        if a["kind"] == "move":
            if self.thieves[a["p"]]["pos"] is None:
                self.act = None
                return
            acts = self._move_actions(a)
            if acts == ["stop"]:
                self.act = None
            elif self._playout is not None:
                self._playout.listing = a, acts  # the next decision's choices, if it is this act's
        elif a["kind"] == "gmove" and self._gmove_actions(a) == ["gstop"]:
            self._gmove_apply(a, AotAction("gstop"))
            self._auto_finish()
