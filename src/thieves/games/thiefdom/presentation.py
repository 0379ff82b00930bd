"""What a person sees of Thiefdom: the city, the panels, action texts, prompts,
the end-of-game table and the terminal view, drawn from an observation only.

Every word comes from data/i18n.yaml (en, fr, de); names of buildings,
clients and smuggling missions are made from the component data by
:func:`generated_texts`. Squares are named by the board's margins: a row
letter (A at the north edge) and a column number ("D12").
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from thieves.core.presentation import Presentation
from thieves.core.svg import Layer, PAPER, compose
from thieves.core.texts import LANGS, Texts

from .city import VILLA_SECTIONS, square_label
from .notation import STEPS, Action
from .palette import DXY, GOODS

if TYPE_CHECKING:
    from .routes import Route



# ----------------------------------------------------------------------------- names from data
def generated_texts(data: Any, texts: Texts) -> dict[str, dict[str, str]]:
    """``building.<id>``, ``client.<id>`` and ``mission.<id>`` in every language:
    a building is named by its type and section ("Tower 3", "Forge 2a" where a
    section face has two), a villa by its section, a mission by its goods."""
    out: dict[str, dict[str, str]] = {lang: {} for lang in LANGS}
    for lang in LANGS:
        def word(key: str) -> str:
            return texts.get(lang, key) or key
        names = out[lang]
        for face, sec in data.sections.items():
            counts: dict[str, int] = {}
            for b in sec.buildings:
                counts[b.type] = counts.get(b.type, 0) + 1
            seen: dict[str, int] = {}
            for b in sec.buildings:
                title = word(b.type)
                title = title[:1].upper() + title[1:]
                suffix = ""
                if counts[b.type] > 1:
                    suffix = "abcdefg"[seen.get(b.type, 0)]
                    seen[b.type] = seen.get(b.type, 0) + 1
                names[f"building.{face}{b.id}"] = f"{title} {sec.section}{suffix}"
        villa = word("villa")
        for s in VILLA_SECTIONS:
            names[f"building.villa{s}"] = f"{villa[:1].upper()}{villa[1:]} {s}"
        for cid, c in data.clients.items():
            names[f"client.{cid}"] = c.name
        for mid, m in data.missions.items():
            give = ", ".join(f"{n} {word('good.' + g)}" for g, n in m.deliver.items())
            get = ", ".join(f"{n} {word('vp') if g == 'vp' else word('good.' + g)}" for g, n in m.reward.items())
            names[f"mission.{mid}"] = f"{give} → {get}"
    return out


def _cell_of(text: str, w: int) -> int:
    r, c = text.split(".")
    return int(r) * w + int(c)


class ThiefdomPresentation(Presentation):
    """Thiefdom for one viewer in one language."""

    # -- names ------------------------------------------------------------------------
    def seat(self, p: int) -> str:
        return self.names[p] if p < len(self.names) and self.names[p] else f"Player {p + 1}"

    def thief(self, p: int, t: int) -> str:
        return self.term("thief", f"p{p}t{t}")

    def place(self, bid: str) -> str:
        return self.term("building", bid)

    def fig(self, fig: str) -> str:
        return self.term("fig", fig)

    def good(self, g: str) -> str:
        return self.term("good", g)

    def card_name(self, e: str) -> str:
        return self.term("equipment", e)

    def client_power(self, c: str) -> str:
        power: str = self.data.power.get(c, c)
        return power

    def thing(self, x: str) -> str:
        """A word of the notation that names a good, an artwork, equipment or a client."""
        if x in GOODS:
            return self.good(x)
        if x == "gems":
            return self.good("gem")
        if x == "art":
            return self.t("artwork")
        if x.startswith("art") and x[3:].isdigit():
            return self.term("art", x)
        if x in self.data.equipment:
            return self.card_name(x)
        if x in self.data.clients:
            return self.term("client", x)
        return x

    def where(self, obs: dict[str, Any], pos: Any) -> str:
        if isinstance(pos, int):
            w = obs["city"]["w"]
            return square_label(*divmod(pos, w))
        if isinstance(pos, str):
            return self.place(pos)
        return "—"

    # -- action texts -------------------------------------------------------------------
    def action_text(self, obs: dict[str, Any], action: str) -> str:
        try:
            act = Action.parse(action)
        except ValueError:
            return action
        # the verbs that read a word always have it (notation.ARITY); "" stands for none
        v, a, b = act.verb, act.arg or "", act.arg2 or ""
        w = obs.get("city", {}).get("w", 28)
        t = self.t
        if v in STEPS:
            return t("do.step", dir=self.term("dirto", v), sq=self._step_square(obs, v))
        if v == "climb":
            return t("do.climb", dir=self.term("dirto", a))
        if v == "go":
            return t("do.go", dir=self.term("dir", a))
        if v == "plan":
            return t("do.plan_tile", slot=len(obs.get("planning") or "") + 1, tile=self.term("tile", a))
        if v == "rob":
            if b == "pay":
                return t("do.rob_pay", fig=self.fig(a))
            if b:
                return t("do.rob_goods", fig=self.fig(a), good=self.good(b))
            return t("do.rob", fig=self.fig(a))
        if v in ("exit", "jin"):
            return t(f"do.{v}", sq=square_label(*divmod(_cell_of(a, w), w)))
        if v == "tp":
            place = square_label(*divmod(_cell_of(a, w), w)) if "." in a else self.place(a)
            return t("do.tp", place=place)
        if v in ("hook", "svenja", "hideout"):
            return t(f"do.{v}", place=self.place(a))
        if v == "cata":
            cell = (obs.get("city", {}).get("catacombs") or {}).get(a)
            return t("do.cata", sq=square_label(*divmod(cell, w)) if isinstance(cell, int) else a)
        if v in ("pigeon", "samuel", "lentz"):
            return t(f"do.{v}", n=a)
        if v in ("crossbow", "stars", "bernhard"):
            return t(f"do.{v}", fig=self.fig(a))
        if v == "buy":
            if b:
                return t("do.buy_for", card=self.card_name(a), n=b)
            return t("do.buy", card=self.thing(a))
        if v == "take" and b:
            return t("do.take_from", good=self.thing(b), n=a)
        if v == "hand":
            return t("do.hand", good=self.thing(b), n=a)
        if v == "burn":
            return t("do.burn")
        if act.arg is not None:
            return t(f"do.{v}", good=self.thing(a))
        return t(f"do.{v}")

    def _step_square(self, obs: dict[str, Any], d: str) -> str:
        tu = obs.get("turn") or {}
        try:
            pos = obs["thieves"][tu["p"]][tu["t"]]["pos"]
        except (KeyError, IndexError, TypeError):
            return "?"
        if not isinstance(pos, int):
            return "?"
        w = obs["city"]["w"]
        r, c = divmod(pos, w)
        dx, dy = DXY["nesw".index(d)]
        if 0 <= r + dy < obs["city"]["h"] and 0 <= c + dx < w:
            return square_label(r + dy, c + dx)
        return self.t("villa")

    # -- routes -------------------------------------------------------------------------
    def route_place(self, obs: dict[str, Any], route: "Route") -> str:
        return self.where(obs, route.goal)

    def route_text(self, obs: dict[str, Any], route: "Route") -> str:
        """A route's words (its button's label): where it goes and for how many AP."""
        if route.ap:
            return self.t("route.go", place=self.route_place(obs, route), ap=route.ap)
        return self.t("route.go_on", place=self.route_place(obs, route))

    def route_question(self, obs: dict[str, Any], route: "Route", first_ap: int) -> str | None:
        """What a costly route asks first: into a guard's view, VP lost, or more
        action points than one move; None for an ordinary move."""
        costs = []
        if route.seen:
            costs.append(self.t("route.cost.sight", guards=", ".join(self.fig(g) for g in route.watchers)))
        if route.vp:
            costs.append(self.t("route.cost.vp", vp=route.vp))
        if route.ap > max(first_ap, 1):
            costs.append(self.t("route.cost.ap", ap=route.ap))
        if not costs:
            return None
        return self.t("route.ask", place=self.route_place(obs, route), cost=" ".join(costs))

    # -- prompt -------------------------------------------------------------------------
    def prompt(self, obs: dict[str, Any]) -> str | None:
        if obs.get("terminal"):
            return self.t("prompt.over")
        viewer = obs.get("viewer")
        phase = obs.get("phase")
        night = {"night": obs.get("round", 1), "nights": obs.get("nights", 6)}
        acting = viewer is not None and viewer in obs.get("to_act", [])
        waiting = ", ".join(self.seat(p) for p in obs.get("to_act", []))
        if phase == "draft":
            return self.t("prompt.draft", n=len((obs.get("draft") or {}).get("hand") or [])) if acting \
                else self.t("prompt.wait", who=waiting, **night)
        if phase == "buy":
            gold = obs["stash"][viewer]["gold"] if viewer is not None else 0
            return self.t("prompt.buy", gold=gold) if acting else self.t("prompt.wait", who=waiting, **night)
        if phase == "hideout":
            return self.t("prompt.hideout") if acting else self.t("prompt.wait", who=waiting, **night)
        if phase == "plan":
            if acting:
                slots = 3 if obs.get("solo") else 4
                return self.t("prompt.plan", slot=len(obs.get("planning") or "") + 1, slots=slots, **night)
            return self.t("prompt.plan_wait", **night)
        tm = obs.get("tmove")
        if tm:
            return self.t("prompt.tmove", who=self.seat(tm["mover"]), fig=self.fig(tm["fig"]), **night)
        tu = obs.get("turn")
        if tu:
            text = self.t("prompt.turn", thief=self.thief(tu["p"], tu["t"]), player=self.seat(tu["p"]),
                          ap=tu.get("ap", 0), **night)
            if acting:
                text += " — " + self._turn_instruction(obs, tu)
            return text
        return self.t(f"phase.{phase}")

    def _turn_instruction(self, obs: dict[str, Any], tu: dict[str, Any]) -> str:
        """What the acting thief's player does now, in a few words."""
        legal = set(obs.get("legal") or ())
        sub = (tu.get("sub") or {}).get("kind")
        if tu.get("over"):
            return self.t("prompt.do.over")
        if tu.get("moving"):
            return self.t("prompt.moving", mp=tu.get("mp", 0))
        if sub in ("clients", "artdraw", "pigeon", "lentz"):   # these say what to choose
            return self.t(f"prompt.sub.{sub}")
        if sub:   # at a location: its own choices
            return self.t(f"prompt.sub.{sub}") + ": " + self.t("prompt.do.sub")
        if "use" in legal:
            return self.t("prompt.do.use")
        if "move" in legal:
            return self.t("prompt.do.turn")
        return self.t("prompt.do.no_ap")

    # -- end of the game ------------------------------------------------------------------
    def score_table(self, obs: dict[str, Any], scores: list[float], winners: list[int]) -> dict[str, Any] | None:
        final = obs.get("final")
        if not final:
            return None
        n = len(final)
        vp = obs["vp"]
        during = [vp[p] - final[p]["goods"] - final[p]["allies"] - final[p]["home"] for p in range(n)]
        rows = [[self.t("score.during"), *during],
                [self.t("score.goods"), *(f["goods"] for f in final)],
                [self.t("score.allies"), *(f["allies"] for f in final)],
                [self.t("score.home"), *(f["home"] for f in final)],
                [self.t("score.total"), *vp]]
        return {"columns": [self.seat(p) for p in range(n)], "rows": rows,
                "tiebreak": self._tiebreak(obs, winners)}

    def _tiebreak(self, obs: dict[str, Any], winners: list[int]) -> str | None:
        """Which tie-breaker decided (rulebook "Victoire"), if the VP were tied."""
        vp = obs["vp"]
        if not winners or len(vp) < 2:
            return None
        top = [p for p in range(len(vp)) if vp[p] == max(vp)]
        if len(top) < 2:
            return None
        final = obs["final"]
        for key, crit in (("goods", "total_goods"), ("art", "art"), ("badge", "badge"), ("wine", "wine")):
            values = [final[p][crit] for p in top]
            best = max(values)
            if values.count(best) == 1:
                return self.t(f"tiebreak.{key}")
            top = [p for p in top if final[p][crit] == best]
        return self.t("tiebreak.late")

    # -- terminal -----------------------------------------------------------------------------
    def text_view(self, obs: dict[str, Any]) -> str:
        city = obs["city"]
        w, h = city["w"], city["h"]
        grid = [[" ." if ch == "." else " *" if ch == "L" else " " + ch.lower() for ch in row]
                for row in city["rows"]]
        for fig, f in obs["townsfolk"].items():
            r, c = divmod(f["cell"], w)
            grid[r][c] = {"g": "!", "n": "$", "c": "&"}[fig[0]] + ("&" if fig == "car" else fig[1])
        for p, ts in enumerate(obs["thieves"]):
            for t, th in enumerate(ts):
                if isinstance(th["pos"], int):
                    r, c = divmod(th["pos"], w)
                    grid[r][c] = f"{p + 1}{t + 1}"
        lines = [self.prompt(obs) or ""]
        lines.append("    " + "".join(f"{c + 1:>2}" for c in range(w)))
        for r in range(h):
            lines.append(f"  {square_label(r, 0)[0]} " + "".join(grid[r]) + " ~")
        lines.append("  . alley  * lantern  ~ river | t tower g garden f forge s stable c church m market "
                     "d dealer v tavern j dungeon x smuggler | !A guard  $A noble  && carriage  "
                     "12 = thief 2 of seat 1")
        lines.append("  " + "; ".join(f"{self.place(b)} {self.where(obs, cells[0])}"
                                      for b, (_ty, cells) in sorted(obs["buildings"].items()) if cells))
        for fig, f in sorted(obs["townsfolk"].items()):
            extra = ""
            if fig[0] == "g":
                extra = f", {self.term('dir', 'nesw'[f['face']])}, " + \
                    (self.t("ui.badge") if obs["badges"].get(fig) else self.t("ui.no_badge"))
            elif fig[0] == "n":
                extra = ", " + (self.t("ui.purse_full") if obs["purses"].get(fig) else self.t("ui.purse_empty"))
            lines.append(f"  {self.fig(fig)}: {self.where(obs, f['cell'])}{extra}")
        for p in range(len(obs["vp"])):
            hide = obs["hideouts"][p]
            lines.append(f"{self.seat(p)}: {self.t('ui.vp', vp=obs['vp'][p])}, "
                         f"{self.t('hideout')} {self.place(hide) if hide else '—'}, "
                         f"{self.t('ui.hideout_stash')} {self._inv_text(obs['stash'][p])}"
                         + (f", {self.t('ui.plan')}: {self._plan_text(obs['plans'][p])}" if obs["plans"][p] else ""))
            for t, th in enumerate(obs["thieves"][p]):
                eq = ", ".join(self.card_name(e) for e in th["equip"]) or self.t("ui.no_equipment")
                ally = self.term("client", th["ally"]) if th["ally"] else self.t("ui.no_ally")
                lines.append(f"   {self.thief(p, t)} {self.t('ui.at', place=self.where(obs, th['pos']))}: "
                             f"{self._inv_text(th['inv'])}; {eq}; {ally}"
                             + (f"; {self.t('ui.wanted')}" if th["wanted"] else ""))
        lines.append(self.t("ui.display", n=obs["equip_deck"]) + ": "
                     + ", ".join(self.card_name(c.split(".")[0]) for c in obs["display"]))
        return "\n".join(lines)

    def _inv_text(self, inv: dict[str, Any]) -> str:
        parts = [f"{inv[g]} {self.good(g)}" for g in GOODS if inv.get(g)]
        parts += [self.term("art", a) for a in inv.get("art", [])]
        return ", ".join(parts) or self.t("ui.empty")

    def _plan_text(self, plan: str) -> str:
        if plan == "placed":
            return self.t("ui.plan_secret")
        return ", ".join(self.term("tile", x) for x in plan)

    # -- the board, in layers (docs/engine.md, "Layers"; board.py) -------------------------------
    layered = True

    def board_static(self, obs: dict[str, Any]) -> Layer | None:
        """The printed city: its ground, squares, buildings, walls, river and gates."""
        from .board import draw_static
        return draw_static(self, obs)

    def board_public(self, obs: dict[str, Any]) -> Layer:
        """What every viewer sees alike: the pieces, the night, the plans, the
        guilds, the townsfolk, the display (drawn from the public fields only)."""
        from .board import draw_public
        return draw_public(self, obs)

    def board_seat(self, obs: dict[str, Any], public: Layer) -> Layer | None:
        """The viewer's own: its targets on the city, its hand, its guild."""
        from .board import draw_seat
        return draw_seat(self, obs, public)

    def board(self, obs: dict[str, Any], public: Layer, static: str | None = None) -> str:
        """The layers put together for this viewer. The viewer's own panels (the
        choices of the moment, the hand, the guild) come right under the public
        upper part (the city, the night, the plans): the public lower part
        (the guilds, the townsfolk, the display) is moved down by their height,
        given by the seat layer (``anchors["dy"]``)."""
        seat = self.board_seat(obs, public)
        if static is None:
            layer = self.board_static(obs)
            static = layer.render() if layer is not None else ""
        # only the viewer who must act has legal actions; none once the game is over
        legal = set() if obs.get("terminal") or obs.get("viewer") is None else set(obs.get("legal") or ())
        recent = set(obs.get("recent") or ())
        from .board import render_part
        dy = seat.anchors.get("dy", 0) if seat is not None else 0
        height = public.height + dy
        parts = [f'<rect x="0" y="0" width="{public.width:g}" height="{height:g}" fill="{PAPER}"/>',
                 static, render_part(public, "upper", legal, recent)]
        if seat is not None:
            parts.append(seat.render(legal, recent))
        # the seat's cover over its own entry in the public list of guilds comes after that list
        cover = seat.anchors.get("over_lower", "") if seat is not None else ""
        if dy:
            parts += [f'<g transform="translate(0 {dy:g})">', render_part(public, "lower", legal, recent), cover,
                      "</g>"]
        else:
            parts += [render_part(public, "lower", legal, recent), cover]
        return compose(parts, public.width, height, self.texts.get(self.lang, "name"))
