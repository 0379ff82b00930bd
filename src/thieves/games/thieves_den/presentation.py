"""Thieves Den as people see it: the board SVG, action texts, prompts, the end-of-game
table, the rules summary and the terminal view, in English, French and German.

Everything is drawn from an observation (never the state, so nothing hidden leaks) with the
shared kit (:mod:`thieves.core.svg`) and the texts of ``data/i18n.yaml``; nothing is read from
files per view (the component data and the texts are the game's cached copies).
"""
from __future__ import annotations

import marshal
from typing import Any, Callable

from thieves.core.presentation import Presentation
from thieves.core.svg import INK, MIN_FONT, MUTED, NARROW_WIDTH, SEAT_INK, BoundedMemo, Svg, memo, seat_color
from thieves.core.texts import plural_index, seat_names

from .components import FENCE_TYPES, TREASURES, LOCATION_TYPES
from .notation import DenAction, NotationError

W = 940
#: treasure colours (the physical tokens' colours) and the shape that tells them apart
TREASURE_COLORS = {"book": "#8d5a3b", "jewel": "#1e6fd0", "artifact": "#c79100", "fossil": "#7b7b7b",
                   "potion": "#8e24aa", "joker": "#ffffff"}
TYPE_COLORS = {"village": "#5d8a2c", "shadow_valley": "#5b3f99", "ruins": "#8a6248",
               "sanctuary": "#167f8f", "city": "#b5651d"}
THIEF = "#2b2b2b"
#: pieces of the board already drawn (treasures, thieves, cards, the legend), by what they show
_KEPT = memo(8192)
#: the seats' panels (larger pieces: fewer kept)
_PANELS = memo(1024)


class DenPresentation(Presentation):
    """Thieves Den for one viewer in one language."""

    # -- words --------------------------------------------------------------------------
    def name(self, q: int) -> str:
        return self.term("player", q)

    def _names(self, obs: dict[str, Any]) -> None:
        if len(self.names) < obs["num_players"]:
            self.names = seat_names(obs["num_players"], self.names)

    def treasures_text(self, items: dict[str, int]) -> str:
        """"2 Jewels + 1 Book" (the noun's plural form by the language's rule)."""
        out = []
        for t, n in items.items():
            kind = "treasure" if plural_index(self.lang, n) == 0 else "treasures"
            out.append(f"{n} {self.term(kind, t)}")
        return " + ".join(out)

    def step_text(self, kind: str, value: Any) -> str:
        if kind in ("gain", "pay"):
            return self.t("step." + kind, items=self.treasures_text(dict(value)))
        return self.t("step." + kind, n=value)

    def steps_text(self, steps: list[tuple[str, Any]]) -> str:
        if not steps:
            return self.t("step.none")
        text = self.step_text(*steps[0])
        for st in steps[1:]:
            text = self.t("step.then", a=text, b=self.step_text(*st))
        return text

    def ability(self, card: str) -> str:
        return self._kept_steps("ability", card)

    def bonus(self, card: str) -> str:
        return self._kept_steps("bonus", card)

    def _kept_steps(self, which: str, card: str) -> str:
        """A card's ability or owner bonus in words (kept: the same for every view)."""
        key = (which, self.data, self.texts, self.lang, tuple(self.names), card)
        text: str | None = _KEPT.get(key)
        if text is None:
            steps = self.data.ability_steps if which == "ability" else self.data.bonus_steps
            text = _KEPT.put(key, self.steps_text(steps[card]))
        return text

    def wants(self, fid: str) -> str:
        counts: dict[str, int] = {}
        for w in self.data.fences[fid].wants:
            counts[w] = counts.get(w, 0) + 1
        return self.treasures_text(counts)

    def tile_text(self, tid: str) -> str:
        return self.term("tile_text", tid)

    # -- actions and prompts ------------------------------------------------------------------
    def action_text(self, obs: dict[str, Any], action: str) -> str:
        self._names(obs)
        try:
            a = DenAction.parse(action)
        except NotationError:
            return action
        dec = obs.get("decision") or {}
        v = a.verb
        if v == "loc":
            key = "act.extra_loc" if dec.get("kind") == "sub" and dec.get("mode") == "extra" else "act.loc"
            return self.t(key, card=a.card, text=self.ability(a.named_card))
        if v == "sell":
            fence = self.data.fences.get(a.card)
            n = fence.prestige if fence else 0
            if dec.get("kind") == "sub" and dec.get("mode") == "extra":
                return self.t("act.extra_sell", fence=a.card, n=n)
            return self.t("act.sell", fence=a.card, text=self.wants(a.named_card) if fence else "", n=n)
        if v == "power":
            tiles = obs.get("powers") or []
            tile = tiles[a.named_stack]["tile"] if a.named_stack < len(tiles) else None
            return self.t("act.power", treasure=a.treasure, tile=tile, text=self.tile_text(tile) if tile else "")
        if v == "witch":
            slots = self.data.board.witch.slots
            best = max((s.prestige for j, s in enumerate(slots) if s.treasure == a.treasure
                        and not obs["witch_used"][j]), default=0)
            return self.t("act.witch", treasure=a.treasure, n=best)
        if v == "steal":
            return self.t("act.steal", treasure=a.treasure) if a.treasure else self.t("act.steal_empty")
        if v == "recruit":
            return self.t(self._recruit_key(obs), treasures=[a.treasure, a.treasure2])
        if v == "rob":
            if a.treasure is None:
                return self.t("act.rob_thief", seat=a.seat)
            key = "act.destroy" if dec.get("mode") == "destroy" else "act.rob"
            return self.t(key, treasure=a.treasure, seat=a.seat)
        if v == "swap":
            owner = next((q for q, pl in enumerate(obs["players"]) if a.card2 in pl["above"]), None)
            return self.t("act.swap", card=a.card, card2=a.card2, seat=owner)
        return self.t("act." + v, card=a.card, card2=a.card2, fence=a.card, treasure=a.treasure, seat=a.seat)

    def _recruit_key(self, obs: dict[str, Any]) -> str:
        """Rulebook "Recruter un Voleur": say when the treasures would buy no thief (the
        Forest is empty, "Limite de la Réserve"; the recruiter's den is full, "Sièges")."""
        if obs.get("forest") == 0:
            return "act.recruit_empty"
        q = obs.get("turn")
        if q is None:
            q = self.viewer
        players = obs.get("players") or []
        if q is not None and 0 <= q < len(players) and \
                players[q].get("thieves", 0) >= self.data.thief_limit:
            return "act.recruit_full"
        return "act.recruit"

    def prompt(self, obs: dict[str, Any]) -> str | None:
        self._names(obs)
        if obs.get("terminal"):
            return self.t("prompt.end")
        me = self.viewer
        to_act = obs.get("to_act") or []
        if me is None or me not in to_act:
            if obs["phase"] == "draft" and me is not None and obs.get("pick"):
                return self.t("prompt.draft_wait", players=to_act)
            return self.t("prompt.wait", players=to_act)
        dec = obs.get("decision")
        if dec is None:
            if obs["phase"] == "draft":
                return self.t("prompt.draft", round=obs["round"], n=len(obs.get("hand") or []),
                              direction=obs["direction"])
            return self.t("prompt.turn")
        k = dec["kind"]
        if k == "payany":
            if dec.get("to") not in (None, "city"):
                return self.t("prompt.payany_fence", fence=dec["to"], n=dec["left"])
            return self.t("prompt.payany", n=dec["left"])
        if k == "discard":
            return self.t("prompt.discard", held=dec["held"], limit=dec["limit"])
        if k == "rob":
            return self.t("prompt.rob_" + (dec.get("mode") or "take"))
        if k == "sub":
            mode = dec.get("mode") or "normal"
            key = "prompt.sub_" + mode + ("_opt" if mode == "normal" and dec.get("optional") else "")
            return self.t(key)
        return self.t("prompt." + k, n=dec.get("left") or 0)

    # -- end of the game -------------------------------------------------------------------------
    def score_table(self, obs: dict[str, Any], scores: list[float], winners: list[int]) -> dict[str, Any] | None:
        self._names(obs)
        fin = obs.get("final")
        if not fin:
            return None
        n = obs["num_players"]
        pl = obs["players"]
        total = [pl[q]["prestige"] for q in range(n)]
        play = [total[q] - fin["majority"][q] - fin["scheme"][q] for q in range(n)]
        rows = [
            [self.t("score.play"), *play],
            [self.t("score.fences"), *[len(pl[q].get("right") or []) for q in range(n)]],
            [self.t("score.majority"), *fin["majority"]],
            [self.t("score.sets"), *fin["sets"]],
            [self.t("score.scheme"), *fin["scheme"]],
            [self.t("score.total"), *total],
        ]
        best = max(total)
        tied = [q for q in range(n) if total[q] == best]
        tiebreak = None
        if len(tied) > 1:
            tiebreak = self.t("score.shared" if len(winners) > 1 else "score.tiebreak", players=winners)
        return {"columns": [self.name(q) for q in range(n)], "rows": rows, "tiebreak": tiebreak}

    # -- the terminal ---------------------------------------------------------------------------------
    def text_view(self, obs: dict[str, Any]) -> str:
        self._names(obs)
        d = self.data
        tre = self._tre_line
        L = [f"{self.texts.get(self.lang, 'name')} - "
             f"{self.t('ui.round', round=obs['round'], rounds=d.board.rounds)} - "
             f"{self.texts.get(self.lang, 'phase.' + obs['phase']) or obs['phase']}",
             self.t("ui.direction", direction=obs["direction"], player=obs["holder"]),
             f"{self.t('ui.city')}: {tre(obs['city'])} | {self.t('ui.forest')}: "
             f"{self.t('ui.thieves', n=obs['forest'])} | "
             + self.t("ui.decks", a=obs["loc_deck_count"], b=obs["fence_deck_count"])]
        slots = d.board.witch.slots
        L.append(self.t("ui.witch") + ": " + ", ".join(
            f"{self.term('treasure', s.treasure)} +{s.prestige}" + (f" ({self.t('ui.used')})" if obs["witch_used"][j] else "")
            for j, s in enumerate(slots)))
        L.append(f"{self.t('ui.steal')}: {self.t('ui.thieves', n=obs['steal_slot'])} | "
                 f"{self.t('ui.recruit')}: {tre(obs['recruit_slot'])}")
        L.append(self.t("ui.powers") + ":")
        for i, pw in enumerate(obs["powers"]):
            if pw["tile"] is None:
                L.append(f"  {i + 1}. {self.t('ui.gone')}")
                continue
            paid = f" [{self.t('ui.used')}: {self.term('treasure', pw['paid'])}]" if pw["paid"] else ""
            L.append(f"  {i + 1}. {self.term('tile', pw['tile'])} ({self.t('ui.left', n=pw['left'])}): "
                     f"{self.tile_text(pw['tile'])}{paid}")
        L.append(self.t("ui.fences") + ":")
        for fid in obs["row"]:
            L.append("  " + (self._fence_line(fid) if fid else "-"))
        if obs["neutral"]:
            L.append(self.t("ui.beside") + ":")
            L += ["  " + self._loc_line(c, obs) for c in obs["neutral"]]
        for q, pl in enumerate(obs["players"]):
            mark = "*" if q == self.viewer else " "
            status = []
            if pl["passed"] and obs["phase"] == "thieving":
                status.append(self.t("ui.passed"))
            if obs["phase"] == "draft" and not obs.get("decision"):
                status.append(self.t("ui.picked") if pl["has_picked"] else self.t("ui.picking"))
            L.append(f"{mark}{self.name(q)}: {self.t('ui.prestige', n=pl['prestige'])}, "
                     f"{self.t('ui.thieves', n=pl['thieves'])}, {tre(pl['treasures'])}; "
                     f"{self.t('ui.collected', a=pl['left_count'], b=pl['right_count'])}"
                     + (f" ({', '.join(status)})" if status else ""))
            L += ["    " + self._loc_line(c, obs) for c in pl["above"]]
            L += [f"    {self.t('ui.sold')}: " + self._fence_line(f) for f in pl["fences_above"]]
            if "scheme" in pl:
                label = self.t("ui.scheme") if q == self.viewer else self.t("ui.scheme_other")
                L.append(f"    {label}: {self._scheme(pl['scheme'])}")
            if pl.get("left"):
                L.append("    " + ", ".join(f"{self.term('loc', c)} ({self.term('type', d.locations[c].type)})"
                                            for c in pl["left"]))
        if obs.get("hand"):
            L.append(self.t("ui.hand") + ":")
        for c in obs.get("hand") or []:
            mark = f"  <- {self.t('ui.pick_mark')}" if obs.get("pick") == c else ""
            L.append("    " + self._loc_line(c, obs) + mark)
        L.append(self._majority_line())
        L.append(self._sets_line())
        p = self.prompt(obs)
        if p:
            L.append(p)
        return "\n".join(L)

    def _tre_line(self, d: dict[str, int]) -> str:
        return ", ".join(f"{self.term('treasure', t)} {d[t]}" for t in TREASURES if d.get(t)) or "-"

    def _fence_line(self, fid: str) -> str:
        f = self.data.fences[fid]
        return (f"{self.term('fence', fid)} ({self.term('ftype', f.type)}, {self.t('ui.majority', n=self._maj(f.type))}): "
                f"{self.t('ui.wants')} {self.wants(fid)} → {self.t('ui.prestige', n=f.prestige)}")

    def _loc_line(self, c: str, obs: dict[str, Any]) -> str:
        loc = self.data.locations[c]
        n = obs["loc_thieves"].get(c, 0)
        tail = f" [{self.t('ui.thieves', n=n)}]" if n else ""
        inst = f", {self.t('ui.instant')}" if loc.instant else ""
        return (f"{self.term('loc', c)} ({self.term('type', loc.type)}{inst}): {self.ability(c)}; "
                f"{self.t('ui.owner_bonus')}: {self.bonus(c)}{tail}")

    def _scheme(self, sid: str) -> str:
        a, b = self.data.schemes[sid].types
        return f"{self.term('type', a)} + {self.term('type', b)}"

    def _maj(self, ftype: str) -> int:
        return self.data.board.majority.values.get(ftype, 0)

    def _majority_line(self) -> str:
        return self.t("ui.majorities") + ": " + ", ".join(
            f"{self.term('ftype', ft)} {self._maj(ft)}" for ft in FENCE_TYPES)

    def _sets_line(self) -> str:
        vals = self.data.board.scheme_sets.values
        return self.t("ui.sets") + ": " + ", ".join(
            self.t("ui.sets_row", n=i, v=v) + ("+" if i == len(vals) - 1 else "") for i, v in enumerate(vals) if i)

    # -- the board --------------------------------------------------------------------------------------
    def svg(self, obs: dict[str, Any]) -> str | None:
        self._names(obs)
        me = self.viewer
        acting = me is not None and me in (obs.get("to_act") or [])
        return _Board(self, obs, set(obs.get("legal") or ()) if acting else set(),
                      NARROW_WIDTH if self.narrow else W).draw()


class _Board:
    """One drawing of the table; ``live`` is the set of actions to make clickable."""

    def __init__(self, pres: DenPresentation, obs: dict[str, Any], live: set[str], width: float = W) -> None:
        self.W = width
        #: the phone layout: this drawing is the narrow column (hand, dens, legend)
        self.narrow = width < W
        self.p = pres
        self.obs = obs
        self.d = pres.data
        self.me = pres.viewer
        self.acting = bool(live)
        self.svg = Svg(self.W, 100, legal=live, recent=obs.get("recent") or (), title=pres.texts.get(pres.lang, "name"))
        dec = obs.get("decision") or {}
        self.dec = dec if self.acting else {}
        self.turn = self.acting and not dec and obs["phase"] == "thieving"

    def kept(self, key: tuple[Any, ...], draw: Callable[[], Any], store: BoundedMemo | None = None) -> Any:
        """What ``draw()`` adds to the drawing, drawn once and kept under ``key``
        (with the data, texts and language it reads); ``key`` names everything
        else it depends on, the legal actions and recent refs it reads included."""
        return self.svg.piece_of(self, _KEPT if store is None else store,
                                 (self.d, self.p.texts, self.p.lang, *key), draw)

    # -- small pieces --------------------------------------------------------------------------
    def treasure(self, cx: float, cy: float, t: str, r: float = 10, action: str | None = None,
                 label: str | None = None, ref: str | None = None) -> None:
        s = self.svg
        if cx and cy:   # zero is never a key (0 and -0.0 print differently)
            self.kept(("treasure", cx, cy, t, r, action, label, ref, action in s.legal, ref in s.recent),
                      lambda: self.draw_treasure(cx, cy, t, r, action, label, ref))
        else:
            self.draw_treasure(cx, cy, t, r, action, label, ref)

    def draw_treasure(self, cx: float, cy: float, t: str, r: float, action: str | None,
                      label: str | None, ref: str | None) -> None:
        s = self.svg
        s.open(action, ref, label, "treasure")
        col = TREASURE_COLORS[t]
        if t == "book":
            s.rect(cx - r, cy - r * 0.8, 2 * r, 1.6 * r, fill=col, rx=2)
            s.add(f'<line x1="{cx:g}" y1="{cy - r * 0.8:g}" x2="{cx:g}" y2="{cy + r * 0.8:g}" stroke="#f3e3c3" stroke-width="1.5"/>')
        elif t == "jewel":
            s.add(f'<polygon points="{cx:g},{cy - r:g} {cx + r:g},{cy:g} {cx:g},{cy + r:g} {cx - r:g},{cy:g}" '
                  f'fill="{col}" stroke="{INK}" stroke-width="1.2"/>')
        elif t == "artifact":
            s.add(f'<polygon points="{cx:g},{cy - r:g} {cx + r:g},{cy + r * 0.8:g} {cx - r:g},{cy + r * 0.8:g}" '
                  f'fill="{col}" stroke="{INK}" stroke-width="1.2"/>')
        elif t == "fossil":
            s.circle(cx, cy, r, col)
            s.add(f'<path d="M{cx:g},{cy:g} m-{r * 0.5:g},0 a{r * 0.5:g},{r * 0.5:g} 0 1,1 {r * 0.5:g},{r * 0.5:g}" '
                  f'fill="none" stroke="#eee" stroke-width="1.5"/>')
        elif t == "potion":
            s.rect(cx - r * 0.3, cy - r, r * 0.6, r * 0.6, fill=col, rx=1)
            s.circle(cx, cy + r * 0.15, r * 0.8, col)
        else:   # joker: any treasure
            s.circle(cx, cy, r, "#fff")
            s.text(cx, cy + 4.5, "?", 13, "bold", INK, "middle")
        s.close()

    def treasure_count(self, x: float, cy: float, t: str, n: int, action: str | None = None,
                       label: str | None = None, dim: bool = False, where: str | None = None) -> float:
        """An icon with "×n"; returns the x after it. ``where`` names the pile
        in its stable id (``treasure-city-book``)."""
        with self.svg.moving(f"treasure-{where}-{t}" if where else None, f"treasure-{t}", n):
            return self._treasure_count(x, cy, t, n, action, label, dim)

    def _treasure_count(self, x: float, cy: float, t: str, n: int, action: str | None,
                        label: str | None, dim: bool) -> float:
        if x and cy:
            end: float = self.kept(("count", x, cy, t, n, action, label, dim, action in self.svg.legal),
                                   lambda: self.draw_treasure_count(x, cy, t, n, action, label, dim))
            return end
        return self.draw_treasure_count(x, cy, t, n, action, label, dim)

    def draw_treasure_count(self, x: float, cy: float, t: str, n: int, action: str | None,
                            label: str | None, dim: bool) -> float:
        s = self.svg
        live = action in s.legal
        s.open(action, None, label, "treasure-count")
        if live:
            s.rect(x - 3, cy - 14, 58, 28, fill="#fff7e0", stroke="#e8a317", rx=6, width=2)
        self.treasure(x + 11, cy, t)
        s.text(x + 25, cy + 5, f"×{n}", 14, "bold", MUTED if dim or not n else INK)
        s.close()
        return x + 60

    def thief(self, cx: float, cy: float, size: float = 11, fill: str = THIEF, action: str | None = None,
              label: str | None = None) -> None:
        """A thief figure: a head and a cloak."""
        if cx and cy:
            self.kept(("thief", cx, cy, size, fill, action, label, action in self.svg.legal),
                      lambda: self.draw_thief(cx, cy, size, fill, action, label))
        else:
            self.draw_thief(cx, cy, size, fill, action, label)

    def draw_thief(self, cx: float, cy: float, size: float, fill: str, action: str | None,
                   label: str | None) -> None:
        s = self.svg
        s.open(action, None, label, "thief")
        s.add(f'<path d="M{cx - size * 0.75:g},{cy + size:g} Q{cx:g},{cy - size * 0.55:g} {cx + size * 0.75:g},{cy + size:g} Z" '
              f'fill="{fill}" stroke="#000" stroke-width="1"/>')
        s.circle(cx, cy - size * 0.35, size * 0.38, fill, "#000", 1)
        s.close()

    def thieves(self, x: float, cy: float, n: int, per: float = 18, size: float = 10, most: int = 6,
                fill: str = THIEF, where: str | None = None) -> float:
        """``n`` thief figures in a row; ``where`` names the place in their
        stable ids (``thief-den2-1``)."""
        for i in range(min(n, most)):
            with self.svg.moving(f"thief-{where}-{i + 1}" if where else None, "thief"):
                self.thief(x + 8 + i * per, cy, size, fill)
        if n > most:
            self.svg.text(x + 8 + most * per, cy + 5, f"+{n - most}", 13, "bold")
            return x + most * per + 30
        return x + max(n, 0) * per + 6

    def box(self, x: float, y: float, w: float, h: float, title: str, fill: str = "#f4ede0") -> None:
        self.svg.rect(x, y, w, h, fill=fill, stroke="#9a8c74", rx=8)
        self.svg.text(x + 8, y + 18, title, 13, "bold", INK)

    # -- sections --------------------------------------------------------------------------------------
    def draw(self) -> str:
        if self.narrow:
            # the phone layout: the shared board (supply, witch, fences) drawn whole and
            # scaled to the width; the hand and the dens below it at full size
            board = _Board(self.p, self.obs, self.svg.legal)
            board.board(6)
            y = self.svg.inset(board.svg, 0, 0, self.W)
        else:
            y = self.board(6)
        y = self.hand(y + 8)
        for q in self._seat_order():
            y = self.player(q, y + 8)
        y = self.legend(y + 10)
        self.svg.height = y + 8
        return self.svg.done()

    def board(self, y: float) -> float:
        """The shared part of the table: round, supply, witch and powers, fences."""
        y = self.header(y)
        y = self.supply(y + 4)
        y = self.witch_and_powers(y + 8)
        y = self.fences(y + 8)
        if self.obs["neutral"]:
            y = self.neutral(y + 8)
        self.svg.height = y + 4
        return y

    def _seat_order(self) -> list[int]:
        n = self.obs["num_players"]
        me = self.me if self.me is not None else 0
        return [(me + i) % n for i in range(n)]

    def header(self, y: float) -> float:
        p, obs, s = self.p, self.obs, self.svg
        phase = p.texts.get(p.lang, "phase." + obs["phase"]) or obs["phase"]
        s.text(10, y + 18, f"{p.t('ui.round', round=obs['round'], rounds=self.d.board.rounds)} · {phase}", 17, "bold")
        s.text(10, y + 40, p.t("ui.direction", direction=obs["direction"], player=obs["holder"]), 14)
        arrow = "↻" if obs["direction"] == "clockwise" else "↺"
        s.token(self.W - 30, y + 22, 18, "#efe6d2", arrow, INK)
        s.text(self.W - 56, y + 40, p.t("ui.decks", a=obs["loc_deck_count"], b=obs["fence_deck_count"]), 13,
               "normal", MUTED, "end")
        return y + 48

    def supply(self, y: float) -> float:
        p, obs, s = self.p, self.obs, self.svg
        h = 78
        self.box(10, y, 330, h, p.t("ui.city"))
        take = self.dec.get("kind") == "take"
        for i, t in enumerate(TREASURES):
            n = obs["city"][t]
            act = (f"take {t}" if take else f"steal {t}" if self.turn else None) if n else None
            self.treasure_count(18 + 64 * i, y + 48, t, n, act, p.term("treasure", t), where="city")
        self.box(348, y, 96, h, p.t("ui.forest"))
        with s.moving("thief-forest", "thief", obs["forest"]):
            self.thief(368, y + 48, 12)
        s.text(386, y + 54, f"×{obs['forest']}", 15, "bold")
        self.box(452, y, 234, h, p.t("ui.steal"))
        s.open("steal" if self.turn else None, None, p.t("ui.steal_empty"), "slot")
        s.rect(460, y + 28, 218, 40, fill="#fff", stroke="#9a8c74", rx=6)
        self.thieves(464, y + 48, obs["steal_slot"], 16, 9, 11, where="steal")
        s.close()
        self.box(694, y, 236, h, p.t("ui.recruit"))
        x: float = 702
        for t in TREASURES:
            if obs["recruit_slot"][t]:
                x = self.treasure_count(x, y + 48, t, obs["recruit_slot"][t], where="recruit")
        y += h
        if self.turn:
            y = self.recruit_pairs(y + 6)
        return y

    def recruit_pairs(self, y: float) -> float:
        """The pairs of your treasures you can pay to recruit: click a pair."""
        p, s = self.p, self.svg
        mine = self.obs["players"][self.me]["treasures"]
        owned = [t for t in TREASURES if mine[t]]
        pairs = [(a, b) for i, a in enumerate(owned) for b in owned[i:] if a != b or mine[a] >= 2]
        if not pairs:
            return y - 6
        s.text(10, y + 14, p.t("ui.recruit") + ":", 13, "bold")
        x, y0 = 10, y + 20
        for a, b in pairs:
            if x + 62 > self.W - 6:
                x, y0 = 10, y0 + 34
            act = f"recruit {a} {b}"
            s.open(act, None, p.action_text(self.obs, act), "pair")
            s.rect(x, y0 + 2, 58, 30, fill="#fff7e0", stroke="#e8a317", rx=8, width=2)
            self.treasure(x + 16, y0 + 17, a, 9)
            self.treasure(x + 42, y0 + 17, b, 9)
            s.close()
            x += 64
        return y0 + 36

    def witch_and_powers(self, y: float) -> float:
        """The witch's slots and the power tiles; outside the viewer's own
        thieving turn they hold no action and are kept by what they show."""
        if self.turn:
            return self.draw_witch_and_powers(y)
        obs, recent = self.obs, self.svg.recent
        powers = tuple((pw["tile"], pw["left"], pw["paid"], pw["tile"] in recent) for pw in obs["powers"])
        key = ("witch_and_powers", self.W, y, tuple(obs["witch_used"]), powers)
        end: float = self.kept(key, lambda: self.draw_witch_and_powers(y))
        return end

    def draw_witch_and_powers(self, y: float) -> float:
        p, obs, s = self.p, self.obs, self.svg
        self.box(10, y, self.W - 20, 64, "")
        s.para(18, y + 26, p.t("ui.witch"), 150, 13, weight="bold")
        for j, slot in enumerate(self.d.board.witch.slots):
            used = obs["witch_used"][j]
            x: float = 176 + j * 150
            act = f"witch {slot.treasure}" if self.turn and not used else None
            s.open(act, None, p.term("treasure", slot.treasure), "witch-slot")
            s.rect(x, y + 8, 144, 48, fill="#e6e1d8" if used else "#fff", stroke="#9a8c74", rx=8)
            self.treasure(x + 20, y + 32, slot.treasure, 11)
            s.text(x + 38, y + 29, p.term("treasure", slot.treasure), 13, "bold")
            s.text(x + 38, y + 47, p.t("ui.used") if used else "+" + p.t("ui.prestige", n=slot.prestige),
                   13, "normal", MUTED if used else INK)
            s.close()
        y += 72
        s.text(10, y + 14, p.t("ui.powers"), 13, "bold")
        y += 20
        tw = (self.W - 20 - 16) / 3
        h = 132
        for i, pw in enumerate(obs["powers"]):
            x = 10 + i * (tw + 8)
            if pw["tile"] is None:
                s.rect(x, y, tw, h, fill="#eee", stroke="#bbb")
                s.text(x + 10, y + 24, f"{i + 1}. {p.t('ui.gone')}", 13, "normal", MUTED)
                continue
            tid = pw["tile"]
            s.card(x, y, tw, h, f"{i + 1}. {p.term('tile', tid)}", p.tile_text(tid), ref=tid,
                   band="#7a4f9e", corner=str(pw["left"]), used=bool(pw["paid"]), size=14)
            if pw["paid"]:
                self.treasure(x + tw - 18, y + h - 16, pw["paid"], 10)
                s.text(x + tw - 34, y + h - 11, p.t("ui.used"), 13, "normal", MUTED, "end")
            elif self.turn:
                mine = obs["players"][self.me]["treasures"]
                xx = x + 6
                for t in TREASURES:
                    if mine[t]:
                        act = f"power {i + 1} {t}"
                        s.open(act, None, p.action_text(obs, act), "pay-slot")
                        s.rect(xx, y + h - 30, 32, 26, fill="#fff7e0", stroke="#e8a317", rx=6, width=2)
                        self.treasure(xx + 16, y + h - 17, t, 9)
                        s.close()
                        xx += 36
        return y + h

    def fences(self, y: float) -> float:
        p, obs, s = self.p, self.obs, self.svg
        s.text(10, y + 14, p.t("ui.fences"), 13, "bold")
        y += 20
        n = len(obs["row"])
        fw = (self.W - 20 - 6 * (n - 1)) / n
        h = 150
        sell = self.turn or (self.dec.get("kind") == "sub" and self.dec.get("mode") == "normal")
        refresh = self.dec.get("kind") == "refresh"
        for i, fid in enumerate(obs["row"]):
            x = 10 + i * (fw + 6)
            if fid is None:
                s.rect(x, y, fw, h, fill="#eee", stroke="#bbb")
                continue
            act = f"return {fid}" if refresh else f"sell {fid}" if sell else None
            self.fence_card(x, y, fw, h, fid, act)
        return y + h

    def fence_card(self, x: float, y: float, w: float, h: float, fid: str, action: str | None,
                   thieves: int = 0) -> None:
        p, s = self.p, self.svg
        label = p.action_text(self.obs, action) if action else p.term("fence", fid)
        with s.moving(f"fence-{fid}"):
            self.kept(("fence", x, y, w, h, fid, action, label, action in s.legal, fid in s.recent),
                      lambda: self.fence_face(x, y, w, h, fid, action, label))
        if thieves:
            self.thieves(x + w - 30, y + h - 22, thieves, 14, 9, where=f"fence-{fid}")
        load = self.obs["fence_treasures"].get(fid) or {}
        xx = x + w - 16
        for t, k in load.items():
            for _ in range(k):
                if xx > x + 60:
                    self.treasure(xx, y + 42, t, 7)
                    xx -= 16

    def fence_face(self, x: float, y: float, w: float, h: float, fid: str, action: str | None, label: str) -> None:
        """A fence card as printed: name, prestige, type, wants, majority."""
        p, s = self.p, self.svg
        f = self.d.fences[fid]
        live = s.open(action, fid, label, "card fence")
        s.rect(x, y, w, h, fill="#fbf7ee", stroke="#e8a317" if live else INK, width=3 if live else 1.2)
        s.add(f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="24" rx="6" fill="#6b4f2a"/>')
        s.text(x + 6, y + 17, _fit(p.term("fence", fid), w - 40, 13), 13, "bold", "#fff")
        s.text(x + w - 6, y + 17, str(f.prestige), 14, "bold", "#ffd75e", "end")
        s.text(x + 6, y + 42, _fit(p.term("ftype", f.type), w - 10, 13), 13, "bold", MUTED)
        s.text(x + 6, y + 60, p.t("ui.wants") + ":", 13)
        for k, t in enumerate(f.wants):
            self.treasure(x + 16 + (k % 5) * 25, y + 78 + (k // 5) * 24, t, 10)
        s.text(x + 6, y + h - 28, p.t("ui.prestige", n=f.prestige), 13, "bold")
        s.text(x + 6, y + h - 10, p.t("ui.majority", n=self.p._maj(f.type)), 13, "normal", MUTED)
        s.close()

    def location_card(self, x: float, y: float, c: str, action: str | None = None, mark: str = "",
                      space: bool = True) -> None:
        """A location card: name band in its type's colour, type, ability and owner bonus, and its
        action space at the bottom, where thieves stand (click it to use the card)."""
        p, s, obs = self.p, self.svg, self.obs
        label = p.action_text(obs, action) if action else p.term("loc", c)
        n = obs["loc_thieves"].get(c, 0) if space else 0
        with s.moving(f"loc-{c}"):
            self.kept(("location", x, y, c, action, label, mark, space, n, action in s.legal, c in s.recent),
                      lambda: self.draw_location_card(x, y, c, action, label, mark, space, n))

    def draw_location_card(self, x: float, y: float, c: str, action: str | None, label: str, mark: str,
                           space: bool, n: int) -> None:
        p, s = self.p, self.svg
        loc = self.d.locations[c]
        w, h = 214, 176
        live_card = s.open(action, c, label, "card location")
        s.rect(x, y, w, h, fill="#fbf7ee", stroke="#e8a317" if live_card else INK, width=3 if live_card else 1.2)
        s.add(f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="24" rx="6" fill="{TYPE_COLORS[loc.type]}"/>')
        s.text(x + 6, y + 17, _fit(p.term("loc", c), w - 30, 13), 13, "bold", "#fff")
        if loc.instant:
            s.text(x + w - 6, y + 18, "⚡", 14, "bold", "#ffd75e", "end")
        sub = p.term("type", loc.type) + (f" · {p.t('ui.instant')}" if loc.instant else "") + (f" · {mark}" if mark else "")
        s.text(x + 6, y + 40, sub, 13, "bold", MUTED)
        yy = s.para(x + 6, y + 58, p.ability(c), w - 12, 13, max_lines=4)
        if loc.owner_bonus:
            s.para(x + 6, yy + 2, f"{p.t('ui.owner_bonus')}: {p.bonus(c)}", w - 12, 13, MUTED, max_lines=2)
        if space:
            s.rect(x + 6, y + h - 30, w - 12, 24, fill="#efe6d2" if not n else "#d9cdb3", stroke="#9a8c74", rx=12)
            if n:
                self.thieves(x + 10, y + h - 18, n, 16, 8, where=f"loc-{c}")
            else:
                s.text(x + w / 2, y + h - 13, p.t("ui.action_space"), 13, "normal", MUTED, "middle")
        s.close()

    def _loc_action(self, c: str) -> str | None:
        """What clicking card ``c`` does now (its action space), if anything."""
        if not self.acting:
            return None
        dec = self.dec
        k = dec.get("kind")
        occupied = bool(self.obs["loc_thieves"].get(c))
        if self.turn or (k == "sub" and dec.get("mode") in ("normal", "cut")):
            return None if occupied else f"loc {c}"
        if k == "sub" and dec.get("mode") == "extra":
            return f"loc {c}" if occupied else None
        if k == "recall":
            return f"recall {c}" if occupied else None
        return None

    def neutral(self, y: float) -> float:
        self.svg.text(10, y + 14, self.p.t("ui.beside"), 13, "bold")
        y += 20
        for i, c in enumerate(self.obs["neutral"]):
            self.location_card(10 + (i % 4) * 230, y + (i // 4) * 184, c, self._loc_action(c))
            self._compound_chips(10 + (i % 4) * 230, y + (i // 4) * 184, c)
        return y + ((len(self.obs["neutral"]) + 3) // 4) * 184

    def _compound_chips(self, x: float, y: float, c: str) -> None:
        """Relocate / Switch: one small target on the card per source it can come from."""
        k = self.dec.get("kind")
        if k not in ("relocate", "swap"):
            return
        p, s, obs = self.p, self.svg, self.obs
        xx = x + 6
        mine = obs["players"][self.me]["above"] if self.me is not None else []
        sources = ([a for a in self._all_cards() if obs["loc_thieves"].get(a)] if k == "relocate" else mine)
        if k == "swap" and c in mine:
            return
        for a in sources:
            act = f"move {a} {c}" if k == "relocate" else f"swap {a} {c}"
            if a == c:
                continue
            live = s.open(act, None, p.action_text(obs, act), "chip")
            if live:
                s.rect(xx, y + 26, 100, 22, fill="#fff7e0", stroke="#e8a317", rx=8, width=2)
                s.text(xx + 4, y + 42, ("← " if k == "relocate" else "⇄ ") + _fit(p.term("loc", a), 80, 13), 13, "bold")
                xx += 104
            s.close()

    def _all_cards(self) -> list[str]:
        out = list(self.obs["neutral"])
        for pl in self.obs["players"]:
            out += pl["above"]
        return out

    def hand(self, y: float) -> float:
        obs, p, s = self.obs, self.p, self.svg
        hand = obs.get("hand") or []
        if not hand:
            return y - 8
        s.text(10, y + 14, p.t("ui.hand"), 14, "bold")
        y += 20
        pick = obs.get("pick")
        drafting = self.acting and obs["phase"] == "draft" and not self.dec
        cols = max(1, min(4, int((self.W - 10) // 230)))   # 4 wide, 1 on a phone
        if self.narrow:
            x0 = (self.W - 214) / 2
        else:
            x0 = 10
        for i, c in enumerate(hand):
            x = x0 + (i % cols) * 230
            yy = y + (i // cols) * 184
            self.location_card(x, yy, c, f"keep {c}" if drafting else None,
                               mark=p.t("ui.pick_mark") if pick == c else "", space=False)
            if pick == c:
                s.rect(x - 3, yy - 3, 220, 182, fill="none", stroke=seat_color(self.me or 0), rx=8, width=4)
        return y + ((len(hand) + cols - 1) // cols) * 184

    def placed(self, y: float, draw: Callable[[], float]) -> float:
        """What ``draw()`` draws from the top (y = 0), moved down to ``y`` by a
        translated group, so its markup is the same wherever the sections above
        leave it and it is kept once for every place. ``draw`` returns its
        height; returns the y below it."""
        s = self.svg
        s.add(f'<g transform="translate(0 {y:g})">')
        height = draw()
        s.close()
        return y + height

    def player(self, q: int, y: float) -> float:
        """A seat's panel at ``y``: drawn from its own top and moved there, so
        it does not depend on where it stands (the hand and the panels above it
        change height from one view to the next)."""
        return self.placed(y, lambda: self.panel(q))

    def panel(self, q: int) -> float:
        """A seat's panel from its own top; returns its height. Its three parts
        (the band, the den, the cards above it) are each kept by what they show,
        the actions they offer included, so a change of status, of treasures or
        of cards draws one part again, not the whole panel."""
        y = self.band(q)
        y = self.den(q, y)
        return self.cards(q, y)

    def _band_words(self, q: int) -> tuple[str, str, str | None, str]:
        """The band's heading, its status line, the action it offers (giving the
        direction tile) and its label."""
        p, obs = self.p, self.obs
        pl = obs["players"][q]
        status = []
        if obs["phase"] == "draft" and not obs.get("decision"):
            status.append(p.t("ui.picked") if pl["has_picked"] else p.t("ui.picking"))
        elif q in (obs.get("to_act") or []):
            status.append(p.t("ui.your_turn"))
        if pl["passed"] and obs["phase"] == "thieving":
            status.append(p.t("ui.passed"))
        head = f"{p.name(q)} · {p.t('ui.prestige', n=pl['prestige'])}"
        if obs["holder"] == q:
            head += " · ↻" if obs["direction"] == "clockwise" else " · ↺"
        line = " · ".join(status + [p.t("ui.collected", a=pl["left_count"], b=pl["right_count"])])
        give = f"give {q + 1}" if self.dec.get("kind") == "give" else None
        return head, line, give, p.action_text(obs, give) if give else p.name(q)

    def band(self, q: int) -> float:
        """The seat's band (name, prestige, direction tile, status, cards
        collected), kept by its words; returns the y below it."""
        words = self._band_words(q)
        s = self.svg
        key = ("band", self.W, q, *words, words[2] in s.legal, f"seat:{q}" in s.recent)
        end: float = self.kept(key, lambda: self.draw_band(q, *words))
        return end

    def draw_band(self, q: int, head: str, line: str, give: str | None, label: str) -> float:
        s = self.svg
        ink = SEAT_INK[q % len(SEAT_INK)]
        s.open(give, f"seat:{q}", label, "seat")
        band = 50 if self.narrow else 30    # the phone: the status on a second line
        s.rect(10, 0, self.W - 20, band, fill=seat_color(q), stroke=INK, rx=8)
        s.text(20, 21, head, 15, "bold", ink)
        if self.narrow:
            s.text(20, 41, line, 13, "normal", ink)
        else:
            s.text(self.W - 20, 21, line, 13, "normal", ink, "end")
        s.close()
        return band + 6

    def den(self, q: int, y: float) -> float:
        """The seat's den (thieves, treasures, the scheme for its owner), kept by
        what it holds unless the decision pending takes or pays from a den."""
        if self.dec.get("kind") in ("rob", "robthief", "payany", "discard"):
            return self.draw_den(q, y)
        pl = self.obs["players"][q]
        key = ("den", self.W, y, q, q == self.me, pl["thieves"], tuple(pl["treasures"][t] for t in TREASURES),
               pl.get("scheme"))
        end: float = self.kept(key, lambda: self.draw_den(q, y))
        return end

    def draw_den(self, q: int, y: float) -> float:
        p, obs, s = self.p, self.obs, self.svg
        pl = obs["players"][q]
        den = p.t("ui.den") + ":"
        s.text(16, y + 22, den, 13, "bold")
        rob_thief = self.dec.get("kind") == "robthief"
        rob = f"rob {q + 1}" if rob_thief else None
        s.open(rob, None, p.action_text(obs, rob) if rob else None, "den-thieves")
        x = self.thieves(24 + len(den) * 8, y + 18, pl["thieves"], 18, 10, where=f"den{q + 1}")
        s.close()
        if self.narrow:     # the phone: the treasures on a line of their own
            y += 34
            x = 16.0
        else:
            x = max(x + 10, 210)
        kind = self.dec.get("kind")
        for t in TREASURES:
            n = pl["treasures"][t]
            act = None
            if n:
                if kind == "rob" and q != self.me:
                    act = f"rob {q + 1} {t}"
                elif kind in ("payany", "discard") and q == self.me:
                    act = ("pay " if kind == "payany" else "discard ") + t
            x = self.treasure_count(x, y + 18, t, n, act, p.action_text(obs, act) if act else p.term("treasure", t),
                                    dim=not n, where=f"den{q + 1}")
        total = sum(pl["treasures"].values())
        s.text(x + 4, y + 23, f"{total}/{self.d.board.treasure_limit}", 13, "normal",
               "#b00020" if total > self.d.board.treasure_limit else MUTED)
        if "scheme" in pl:
            label = p.t("ui.scheme") if q == self.me else p.t("ui.scheme_other")
            if self.narrow:
                y += 34
                s.text(16, y + 23, f"{label}: {p._scheme(pl['scheme'])}", 13, "bold", INK)
            else:
                s.text(self.W - 20, y + 23, f"{label}: {p._scheme(pl['scheme'])}", 13, "bold", INK, "end")
        return y + 40

    def cards(self, q: int, y: float) -> float:
        """The location cards and sold fences above the seat's den, kept by what
        they show and the actions they offer (their labels included), unless a
        Relocate or a Switch puts a target per source on them."""
        obs, s = self.obs, self.svg
        pl = obs["players"][q]
        cards, fences = pl["above"], pl["fences_above"]
        if not cards and not fences:
            return y
        if self.dec.get("kind") in ("relocate", "swap"):
            return self.draw_cards(q, y)
        acts = [self._loc_action(c) for c in cards]
        if self.dec.get("kind") == "sub" and self.dec.get("mode") == "extra":
            acts += [f"sell {f}" for f in fences]
        key = ("cards", self.W, y, tuple(cards), tuple(fences), tuple(acts),
               tuple((a in s.legal, self.p.action_text(obs, a)) if a else None for a in acts),
               tuple(c in s.recent for c in cards), tuple(f in s.recent for f in fences),
               tuple(obs["loc_thieves"].get(c, 0) for c in cards),
               tuple(obs["fence_thieves"].get(f, 0) for f in fences),
               marshal.dumps([obs["fence_treasures"].get(f) for f in fences], 2))
        end: float = self.kept(key, lambda: self.draw_cards(q, y), _PANELS)
        return end

    def draw_cards(self, q: int, y: float) -> float:
        """The cards above a seat's den (:meth:`cards` calls it only when there are some)."""
        obs = self.obs
        pl = obs["players"][q]
        cards = pl["above"]
        fences = pl["fences_above"]
        x, yy = 10, y
        for c in cards:
            if x + 214 > self.W:
                x, yy = 10, yy + 184
            self.location_card(x, yy, c, self._loc_action(c))
            self._compound_chips(x, yy, c)
            x += 230
        for fid in fences:
            if x + 150 > self.W:
                x, yy = 10, yy + 184
            extra = self.dec.get("kind") == "sub" and self.dec.get("mode") == "extra"
            self.fence_card(x, yy, 150, 176, fid, f"sell {fid}" if extra else None,
                            obs["fence_thieves"].get(fid, 0))
            x += 158
        return yy + 184

    def legend(self, y: float) -> float:
        """The same in every position: kept per width, drawn from its own top and
        moved to ``y``."""
        return self.placed(y, lambda: self.kept(("legend", self.W), lambda: self.draw_legend(0)))

    def draw_legend(self, y: float) -> float:
        p, s = self.p, self.svg
        s.rect(10, y, self.W - 20, 10, fill="none", stroke="none")
        s.text(10, y + 16, p.t("ui.legend"), 14, "bold")
        y += 26
        x: float = 10
        for t in TREASURES + ("joker",):
            label = p.term("treasure", t)
            if x + 24 + len(label) * 7.6 > self.W - 10:   # a narrow board: next row
                x, y = 10, y + 24
            self.treasure(x + 10, y + 10, t, 9)
            s.text(x + 24, y + 15, label, 13)
            x += 34 + len(label) * 7.6
        if x + 24 + len(p.t("ui.thief")) * 7.6 > self.W - 10:
            x, y = 10, y + 24
        self.thief(x + 10, y + 10, 10)
        s.text(x + 24, y + 15, p.t("ui.thief"), 13)
        y += 28
        x = 10
        for lt in LOCATION_TYPES:
            label = p.term("type", lt)
            if x + 22 + len(label) * 7.6 > self.W - 10:
                x, y = 10, y + 24
            s.rect(x, y + 2, 16, 16, fill=TYPE_COLORS[lt], rx=3)
            s.text(x + 22, y + 15, label, 13)
            x += 34 + len(label) * 7.6
        y += 28
        y = s.para(10, y + 12, self.p._majority_line(), self.W - 20, 13)
        y = s.para(10, y + 4, self.p._sets_line(), self.W - 20, 13)
        return y


def _fit(text: str, width: float, size: float) -> str:
    """``text`` cut with an ellipsis to fit ``width`` (a name band on a card)."""
    most = max(4, int(width / (size * 0.58)))
    return text if len(text) <= most else text[: most - 1].rstrip() + "…"
