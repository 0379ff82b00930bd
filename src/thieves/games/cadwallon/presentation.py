"""What a person sees of Cadwallon: the board, the words of the actions, the prompt, the
end-of-game table and the text map, drawn from an observation only (never the state).

The board is drawn in layers (docs/engine.md, "Layers"; ``board_svg``): on a desktop the
district's ground never changes; the pieces, the adventure, every gang in seat order, the
missions and the discard are the same for every viewer; the viewer's answers, gang and hand
(beside the district) and what they may click on the pieces are theirs alone. On a phone the
stacked table is scaled to the width, the viewer's answers above it and their gang and hand
at full size below. Everything a decision needs is clickable there, one intention one
gesture (activate and move, go and open, a move's path, a question before the last AP).
"""
from __future__ import annotations

from typing import Any

from ...core.presentation import Presentation
from ...core.svg import Layer
from ...core.texts import seat_names
from . import board_svg, look
from .constants import STAY_INSIDE_PENALTY
from .notation import Action


def _ttype(tid: str) -> str:
    return tid.rstrip("0123456789")


class CadwallonPresentation(Presentation):
    """Cadwallon for one viewer in one language."""

    # -- small helpers ----------------------------------------------------------------
    def owner(self, obs: dict[str, Any], c: str) -> int | None:
        return look.owner(self.data, obs, c)

    def fill_of(self, obs: dict[str, Any], c: str) -> str:
        return look.fill_of(self.data, obs, c)

    def ink_of(self, obs: dict[str, Any], c: str) -> str:
        """Text colour on a figure's token (dark on the light seat colours)."""
        return look.ink_of(self.data, obs, c)

    def spirit(self, obs: dict[str, Any], c: str | None) -> int:
        """The Spirit an opening roll of ``c`` is made against now."""
        if c is None or c not in self.data.char:
            return 0
        s: int = self.data.char[c].spirit + (1 if self.data.talent_of[c] == "locksmith" else 0)
        act = obs.get("act") or {}
        return s + (2 if "skeleton_key" in act.get("cards", []) else 0)

    # -- action texts -------------------------------------------------------------------
    def action_text(self, obs: dict[str, Any], action: str) -> str:
        try:
            a = Action.parse(action)
        except Exception:  # noqa: BLE001 - a button never breaks the table
            return action
        d, t, v = self.data, self.t, a.verb
        active = obs.get("active")
        pending = obs.get("pending") or {}
        if v == "gang":
            return t("act.gang", gang=a.arg)
        if v in ("deploy", "act"):
            return t("act." + v, char=a.arg, talent=d.talent_of.get(a.arg, ""))
        if v == "at":
            return t("act.at", char=obs.get("deploy_selected"), zone=a.arg)
        if v == "militia":
            return t("act.militia", militia=a.arg)
        if v == "mm":
            m = obs.get("militia_selected")
            pos = obs.get("positions") or {}
            if a.arg == "stay":
                return t("act.mm_stay", militia=m, zone=pos.get(m, ""))
            victim = next((c for c, z in pos.items() if z == a.arg and c not in d.militia), None)
            if victim:
                return t("act.mm_attack", militia=m, target=victim, zone=a.arg)
            return t("act.mm", militia=m, zone=a.arg)
        char = pending.get("char") or active
        if v == "move":
            return t("act.move", char=char, zone=a.arg)
        if v == "leave":
            return t("act.leave", char=char)
        if v == "open":
            return t("act.open", spirit=self.spirit(obs, active))
        if v in ("force", "end", "nocard", "no"):
            return t("act." + v)
        if v == "attack":
            return t("act.attack", target=a.arg)
        if v == "talent":
            kind = "talent_card" if a.arg in d.card else "talent_step"
            return t("act." + kind, char=active, talent=d.talent_of.get(active or "", ""),
                     card=a.arg, zone=a.arg)
        if v == "play" and a.seat is not None:
            return t("act.play_seat", card=a.arg, seat=a.seat)
        if v == "play" and a.target:
            return t("act.play_zone", card=a.arg, zone=a.target)
        if v in ("play", "card"):
            return t("act." + v, card=a.arg)
        if v == "mission":
            missions = obs.get("missions") or []
            mid = missions[a.slot] if 0 <= a.slot < len(missions) else None
            adv = d.adventure.get(obs.get("adventure"))
            bonus = adv.special.mission_bonus if adv else 0
            return t("act.mission", mission=mid, n=(d.mission[mid].reward + bonus) if mid else 0)
        if v == "stay":
            return t("act.stay", char=char)
        if v == "take":
            return t("act.take", treasure=a.arg)
        if v == "drop":
            return t("act.drop", treasure=a.arg, zone=a.target)
        if v == "flee":
            return t("act.flee", char=char, zone=a.arg)
        return action

    # -- prompt ----------------------------------------------------------------------------
    def prompt(self, obs: dict[str, Any]) -> str | None:
        viewer = obs.get("viewer")
        phase = obs.get("phase")
        if obs.get("terminal"):
            return self.texts.get(self.lang, "phase.over")
        if viewer is None or viewer not in (obs.get("to_act") or []):
            return self.texts.get(self.lang, f"phase.{phase}")
        pending = obs.get("pending")
        t = self.t
        if pending:
            kind = pending["kind"]
            fight = obs.get("combat") or {}
            if kind == "card":
                return t("prompt.card", char=fight.get("att"), target=fight.get("def"))
            if kind == "take":
                return t("prompt.take", target=pending.get("from"))
            if kind in ("reroll", "jinx"):
                return t("prompt." + kind)
            return t("prompt." + kind, char=pending.get("char"))
        if phase == "gang":
            return t("prompt.gang")
        if phase == "deploy":
            if obs.get("deploy_selected"):
                return t("prompt.deploy_zone", char=obs["deploy_selected"])
            return t("prompt.deploy", n=len((obs.get("to_deploy") or [[]])[viewer]))
        if phase == "militia":
            return t("prompt.militia")
        if phase == "militia_move":
            return t("prompt.militia_move", militia=obs.get("militia_selected"), roll=obs.get("militia_roll"))
        ap = (obs.get("ap") or [0])[viewer]
        if obs.get("active"):
            return t("prompt.main_active", char=obs["active"], n=ap)
        return t("prompt.main", n=ap)

    # -- the end ---------------------------------------------------------------------------
    def score_table(self, obs: dict[str, Any], scores: list[float], winners: list[int]) -> dict[str, Any] | None:
        d = self.data
        n = obs.get("num_players", len(scores))
        rows: dict[str, list[Any]] = {k: [] for k in ("ducats", "sets", "red", "inside", "escaped", "total")}
        for p in range(n):
            counts: dict[str, int] = {}
            for tid in (obs.get("banked") or [[]] * n)[p]:
                counts[_ttype(tid)] = counts.get(_ttype(tid), 0) + 1
            red = d.set_value("red", counts.pop("red", 0))
            sets = sum(d.set_value(k, c) for k, c in counts.items())
            g = (obs.get("gangs") or [None] * n)[p]
            members = d.gang_chars.get(g, [])
            inside = sum(1 for c in members if c in (obs.get("positions") or {}))
            inside += len((obs.get("to_deploy") or [[]] * n)[p])
            rows["ducats"].append(obs["ducats"][p])
            rows["sets"].append(sets)
            rows["red"].append(red)
            rows["inside"].append(-STAY_INSIDE_PENALTY * inside)
            rows["total"].append(int(scores[p]))
            rows["escaped"].append(sum(1 for c in obs.get("escaped") or [] if c in members))
        tiebreak = None
        best = max(scores) if scores else 0
        tied = [p for p in range(n) if scores[p] == best]
        if len(tied) > 1:
            tiebreak = self.t("score.tiebreak" if len(winners) < len(tied) else "score.shared")
        return {"columns": seat_names(n, self.names),
                "rows": [[self.t(f"score.{k}"), *v] for k, v in rows.items()],
                "tiebreak": tiebreak}

    # -- the terminal's text map ------------------------------------------------------------
    def text_view(self, obs: dict[str, Any]) -> str:
        from .textmap import text_view
        return text_view(self, obs)

    # -- the board, in layers (docs/engine.md, "Layers") ------------------------------------
    layered = True

    def board_static(self, obs: dict[str, Any]) -> Layer | None:
        return board_svg.static_layer(self, obs)

    def board_public(self, obs: dict[str, Any]) -> Layer:
        return board_svg.public_layer(self, obs)

    def board_seat(self, obs: dict[str, Any], public: Layer) -> Layer | None:
        return board_svg.seat_layer(self, obs, public)
