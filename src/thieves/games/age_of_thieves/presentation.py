"""Age of Thieves at the table: the board of Hadria, your hand and secret plan,
action texts, prompts, the end-of-game table and the text view.

Everything is drawn from an observation (never the state), so a player's
plan, hand and AP reach only that player. Words come from ``data/i18n.yaml``
(``act.*``, ``prompt.*``, ``ui.*``, ``cardtext.*`` ...) in the viewer's language.
"""
from __future__ import annotations

from typing import Any, Callable

from ...core.presentation import Presentation
from ...core.svg import Layer
from .components import COMPASS
from .notation import SPACE_VERBS, AotAction, figure_kind
from .svg_board import Board, layer_width, text_view


class AotPresentation(Presentation):
    # ------------------------------------------------------------------ words
    def _slot(self, card: str) -> str:
        return self.term("card", card)

    def action_text(self, obs: dict[str, Any], action: str) -> str:
        try:
            a = AotAction.parse(action)
        except Exception:  # noqa: BLE001 - a foreign string reads as itself
            return action
        d = self.data
        v, arg = a.verb, a.arg
        dec = obs.get("deciding") or {}
        me = obs["thieves"][obs["viewer"]] if obs.get("viewer") is not None else None
        if v == "to" and dec.get("then") == "orders_to":
            return self.t("act.orders_to", space=arg)
        if v in ("to", "gstep"):
            here = self._mover_space(obs, v)
            way = self._direction(here, arg)
            if way:
                return self.t("act.to_dir" if v == "to" else "act.gstep_dir", dir=way, space=arg)
        if v in SPACE_VERBS:
            return self.t("act." + v, space=arg)
        if v == "take" and arg[:1] in "gc" and arg[1:].isdigit():
            return self.t("act.take_guard", space=obs["guards"].get(arg, ""), figure=figure_kind(arg))
        if v == "take":
            return self.t("act.take_token") if arg == "token" else self.t("act.take", gem=arg)
        if v in ("guard", "first"):
            return self.t("act." + v, figure=figure_kind(arg), space=obs["guards"].get(arg, ""))
        if v == "plan" and arg == "move":
            return self.t("act.plan_move", sneak=self._steps(me, "upper"), sprint=self._steps(me, "lower"))
        if v == "plan":
            return self.t("act.plan", card=arg)
        if v == "special" and arg:
            return self.t("act.special_on", card="sp_" + me["thief"] if me else arg, under=arg)
        if v == "special":
            return self.t("act.special", card="sp_" + me["thief"] if me else "move")
        if v in ("sneak", "sprint"):
            return self.t("act." + v, n=self._steps(me, "upper" if v == "sneak" else "lower"))
        if v == "ap":
            return self.t("act.ap", n=a.count)
        if v == "add":
            return self.t("act.add", token=arg, n=d.ap_value.get(arg) or 0)
        if v in ("play", "decline", "discard"):
            return self.t("act." + v, card=arg)
        if v == "lose":
            return self.t("act.lose", gem=arg)
        if v == "leave":
            return self.t("act.leave", exit=arg)
        if v == "steal":
            return self.t("act.steal", victim=a.seat, gem=a.kind)
        if v == "thief":
            return self.t("act.thief", victim=a.seat)
        if v == "token":
            return self.t("act.token", victim=a.seat, token=a.kind)
        if v == "assign":
            return "; ".join(self.t("act.assign", figure=figure_kind(g), space=obs["guards"].get(g, ""),
                                    target=s) for g, s in sorted(a.assignment.items()))
        return self.t("act." + v)

    @staticmethod
    def _mover_space(obs: dict[str, Any], verb: str) -> str | None:
        """Where the thief (``to``) or the guard (``gstep``) that moves now stands."""
        dec = obs.get("deciding") or {}
        if verb == "gstep":
            space: str | None = obs["guards"].get(dec.get("figure", ""))
            return space
        viewer = obs.get("viewer")
        return obs["thieves"][viewer]["pos"] if viewer is not None else None

    def _direction(self, here: str | None, there: str) -> str | None:
        """``n``, ``e``, ``s`` or ``w`` for a step to a neighbouring space."""
        sp = self.data.space
        if here not in sp or there not in sp or there not in self.data.adj.get(here, []):
            return None
        dx, dy = sp[there].x - sp[here].x, sp[there].y - sp[here].y
        return {(0, -1): "n", (1, 0): "e", (0, 1): "s", (-1, 0): "w"}.get((dx, dy))

    def _steps(self, me: dict[str, Any] | None, which: str) -> int:
        base = int(self.data.cards.basic.move[which + "_steps"])
        return base + (1 if me and me["thief"] == "noiron" else 0)  # Noiron: reconstructed ability

    def prompt(self, obs: dict[str, Any]) -> str | None:
        viewer = obs.get("viewer")
        if obs.get("terminal") or viewer is None or viewer not in obs.get("to_act", []):
            return None
        dec = obs.get("deciding") or {}
        me = obs["thieves"][viewer]
        kind = dec.get("kind")
        if obs["phase"] == "plan" and not dec:
            b = me.get("building")
            free = me.get("ap_free", 0)
            if b is None:
                return self.t("prompt.plan", n=free)
            card = b["card"] if b["card"] in ("move", "ambush") else \
                ("sp_" + me["thief"] if b["card"] == "special" else b["card"].rstrip("0123456789"))
            if b.get("stage") == "ap":
                return self.t("prompt.plan_ap", card=card, n=free)
            return self.t("prompt.plan_tokens", card=card)
        if kind == "jewel":
            return self.t("prompt.jewel", district=dec.get("district", "palace"))
        if kind == "discard":
            return self.t("prompt.discard_" + dec.get("why", "arrest"), n=len(me.get("hand", [])))
        if kind == "place_guard":
            return self.t("prompt.place_guard_" + dec.get("why", "event"))
        if kind == "move":
            return self.t("prompt.sprint" if dec.get("sprint") else "prompt.move", n=dec.get("steps_left", 0))
        if kind == "gmove":
            return self.t("prompt.gmove", n=dec.get("steps_left", 0))
        if kind == "choose":
            return self.t("prompt.choose_" + dec.get("then", "steal"))
        if kind == "turn":
            return self.t("prompt.turn", n=dec.get("ap") or 0)
        if kind:
            return self.t("prompt." + kind)
        return None

    def score_table(self, obs: dict[str, Any], scores: list[float], winners: list[int]) -> dict[str, Any]:
        values = self.data.tokens.values
        thieves = obs["thieves"]
        cols = [self.names[p] if p < len(self.names) else f"Player {p + 1}" for p in range(len(thieves))]

        def row(label: str, f: Callable[[dict[str, Any]], Any]) -> list[Any]:
            return [label] + [f(t) for t in thieves]
        rows = [
            row(self.t("ui.escaped"), lambda t: self.t("ui.left_nth", n=t["left"]) if t["left"]
                else self.t("ui.dungeon") if t["dungeon"] else self.t("ui.still_in_city")),
            row(self.t("ui.emperor"), lambda t: "★" if t["emperor"] else "–"),
            row(self.t("ui.best_thief", n=values["best_thief"]), lambda t: values["best_thief"] * t["best"]),
            row(self.t("ui.green_vp", n=values["green"]), lambda t: values["green"] * t["green"]),
            row(self.t("ui.yellow_vp", n=values["yellow"]), lambda t: values["yellow"] * t["yellow"]),
            row(self.t("ui.trinket_vp", n=values["trinket"]),
                lambda t: values["trinket"] * t["sheet"].count("trinket")),
            row(self.t("ui.total"), lambda t: t["vp"]),
        ]
        how = obs.get("result") or ""
        if not winners:
            tiebreak = self.t("ui.all_lose_" + how) if how else None
        elif how == "emperor":
            tiebreak = self.t("ui.won_emperor", player=winners[0])
        else:
            escaped = [p for p, t in enumerate(thieves) if t["left"]]
            top = max(thieves[p]["vp"] for p in escaped)
            tied = [p for p in escaped if thieves[p]["vp"] == top]
            if len(tied) == 1:
                tiebreak = self.t("ui.won_vp", player=winners[0])
            elif len({thieves[p]["green"] for p in tied}) > 1:
                tiebreak = self.t("ui.tie_green", player=winners[0])
            else:
                tiebreak = self.t("ui.tie_left", player=winners[0])
        return {"columns": cols, "rows": rows, "tiebreak": tiebreak}

    def event_effect(self, ev: dict[str, Any] | None) -> str:
        """The effect of the current event card in words."""
        if not ev:
            return ""
        e = (self.data.alarm_event if ev.get("alarm") else self.data.calm_event).get(ev["id"]) \
            or self.data.calm_event.get(ev["id"]) or self.data.alarm_event.get(ev["id"])
        parts = []
        if e.direction:
            parts.append(self.t("effect.jewel", district=COMPASS[e.direction]))
        if e.vigilance:
            parts.append(self.t("effect.vigilance_up" if e.vigilance > 0 else "effect.vigilance_down",
                                n=abs(e.vigilance)))
        if e.movement:
            parts.append(self.t("effect.movement", n=e.movement))
        if e.draw:
            parts.append(self.t("effect.draw", n=e.draw))
        if e.violet:
            parts.append(self.t("effect.violet", n=e.violet))
        if e.reinforce:
            parts.append(self.t("effect.reinforce", n=e.reinforce))
        if not parts:
            parts.append(self.t("effect.none"))
        return " ".join(parts)

    # ------------------------------------------------------------------ the board
    #: drawn in layers (docs/engine.md, "Layers"): the streets once per game, the
    #: pieces and the seats once per change for everyone, the viewer's hand, plan
    #: and targets for each viewer
    layered = True

    def board_static(self, obs: dict[str, Any]) -> Layer:
        return Board(self, obs, layer_width(self), shared=True).static_layer()

    def board_public(self, obs: dict[str, Any]) -> Layer:
        return Board(self, obs, layer_width(self), shared=True).public_layer()

    def board_seat(self, obs: dict[str, Any], public: Layer) -> Layer:
        return Board(self, obs, layer_width(self)).seat_layer(public)

    def text_view(self, obs: dict[str, Any]) -> str:
        return text_view(self, obs)
