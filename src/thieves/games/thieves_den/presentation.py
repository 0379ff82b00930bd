"""Thieves Den as people see it: the board SVG, action texts, prompts, the end-of-game
table, the rules summary and the terminal view, in English, French and German.

Everything is drawn from an observation (never the state, so nothing hidden leaks) with the
shared kit (:mod:`thieves.core.svg`) and the texts of ``data/i18n.yaml``; nothing is read from
files per view (the component data and the texts are the game's cached copies).
"""
from __future__ import annotations

import marshal
from functools import partial
from typing import Any, Callable, Sequence

from thieves.core.presentation import Presentation
from thieves.core.svg import (INK, MUTED, NARROW_WIDTH, SEAT_INK, BoundedMemo, Layer, Svg, escape, memo,
                              seat_color, wrap)
from thieves.core.texts import plural_index, seat_names

from .components import FENCE_TYPES, TREASURES, LOCATION_TYPES
from .notation import DenAction, NotationError

W = 940
#: a seat's column: at least this wide (3 across at 940, 1 on a phone), this far apart
COLUMN, GAP = 290, 8
#: between two rows of seat columns (on a phone, between one seat and the next)
ROW_GAP = 16
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
#: the viewers' own layers (a scheme and a hand), by what they show
_SEATS = memo(1024)


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

    def labelled(self, label: str, text: str) -> str:
        """"Label: text" with the language's colon ("Votre objectif : ...")."""
        return self.t("ui.label", label=label, text=text)

    def tile_text(self, tid: str) -> str:
        return self.term("tile_text", tid)

    def log(self, events: Sequence[dict[str, Any]]) -> list[str]:
        """The log lines; a gain of thieves that brought none says why ("Limite de la
        Réserve": the Forest is empty) instead of "takes 0 thieves"."""
        return super().log([_none_gained(ev) for ev in events])

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
        points: int = self.data.board.majority.values.get(ftype, 0)
        return points

    def _majority_line(self) -> str:
        return self.labelled(self.t("ui.majorities"), ", ".join(
            f"{self.term('ftype', ft)} {self._maj(ft)}" for ft in FENCE_TYPES))

    def _sets_line(self) -> str:
        vals = self.data.board.scheme_sets.values
        return self.labelled(self.t("ui.sets"), ", ".join(
            self.t("ui.sets_row", n=i, v=v) + ("+" if i == len(vals) - 1 else "") for i, v in enumerate(vals) if i))

    # -- the board, in layers (docs/engine.md, "Layers") -------------------------------------
    #: the board is drawn as a layer every viewer shares (the seats in seat order, the fence
    #: row, the supply, the Witch, the power tiles) and a small one of the viewer's own (their
    #: secret scheme, their hand while scouting, the two clicks of a Relocate or a Switch)
    layered = True

    def board_public(self, obs: dict[str, Any]) -> Layer:
        """What every viewer sees alike, from the public fields only: the actions anyone may
        take are offers, clickable for the viewer to whom they are legal."""
        self._names(obs)
        return _Board(self, obs, None, NARROW_WIDTH if self.narrow else W).public()

    def board_seat(self, obs: dict[str, Any], public: Layer) -> Layer | None:
        """The viewer's scheme and hand in the places the public layer keeps for them, and
        the pickers and targets of their Relocate or Switch over the cards; nothing for a
        spectator."""
        me = self.viewer
        if me is None:
            return None
        self._names(obs)
        legal = set(obs.get("legal") or ()) if me in (obs.get("to_act") or []) else set()
        width = NARROW_WIDTH if self.narrow else W
        dec = obs.get("decision") or {}
        if legal and dec.get("kind") in ("relocate", "swap"):
            return _Board(self, obs, legal, width).seat(public)
        # else it shows the scheme and the hand only: kept by what they show
        hand = tuple(obs.get("hand") or ())
        recent = set(obs.get("recent") or ())
        at = public.anchors
        key = (self.data, self.texts, self.lang, tuple(self.names), width, me, public.width, public.height,
               at.get("line"), tuple((at.get("hand") or {}).items()), obs["players"][me].get("scheme"), hand,
               obs.get("pick"), obs["phase"], bool(dec), tuple(f"keep {c}" in legal for c in hand),
               tuple(c in recent for c in hand))
        kept: Layer | None = _SEATS.get(key)
        if kept is None:
            kept = _SEATS.put(key, _Board(self, obs, legal, width).seat(public) or Layer())
        return kept if kept.parts else None


class _Board:
    """One layer of the table. ``live`` None: the layer every viewer shares, drawn from the
    public fields with offers (what the seat or seats to act may click); else the viewer's own
    layer, with the set of their actions to make clickable."""

    def __init__(self, pres: DenPresentation, obs: dict[str, Any], live: set[str] | None,
                 width: float = W) -> None:
        self.W = width
        #: the phone layout: this drawing is the narrow column (hand, dens, legend)
        self.narrow = width < W
        self.p = pres
        self.obs = obs
        self.d = pres.data
        #: the layer every viewer shares: nobody's in particular
        self.shared = live is None
        self.me = None if self.shared else pres.viewer
        dec = obs.get("decision") or {}
        #: whether the actions drawn are anyone's (shared) or this viewer's
        self.acting = bool(obs.get("to_act")) if self.shared else bool(live)
        self.svg = Svg(self.W, 100, legal=live or (), recent=() if self.shared else obs.get("recent") or (),
                       title=pres.texts.get(pres.lang, "name"), offers=self.shared)
        self.dec = dec if self.acting else {}
        self.turn = self.acting and not dec and obs["phase"] == "thieving"
        #: who pays or takes with the actions drawn: the seat deciding, else the seat whose turn it is
        self.actor: int | None = dec.get("player", obs.get("turn")) if self.acting else None
        #: where the last seat column drawn has its band (below the cards above it)
        self.split: float = 0
        #: the location cards drawn: (card, x, y, width, height), in their column's coordinates
        self.boxes: list[tuple[str, float, float, float, float]] = []
        #: what the viewer's layer needs to know of the shared one (:meth:`public`)
        self.anchors: dict[str, Any] = {}

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
        live = s.open(action, None, label, "treasure-count")
        if action:  # a finger-sized target (golden where this drawing is one viewer's)
            s.rect(x - 3, cy - 15, 52, 30, fill="#fff7e0" if live else "transparent",
                   stroke="#e8a317" if live else "none", rx=6, width=2)
        self.treasure(x + 11, cy, t)
        s.text(x + 25, cy + 5, f"×{n}", 14, "bold", MUTED if dim or not n else INK)
        s.close()
        return x + 56

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

    # -- sections --------------------------------------------------------------------------------------
    # The table at 1280x900 shows, in one window: the header, your line (your scheme; your
    # hand while scouting), the seats in seat order (each with the location cards above its
    # den, where you act), the fence row, the supply, the Witch and the power tiles. On a
    # phone (``narrow``) the same sections stack in one column at full size, so every target
    # keeps its size.
    def public(self) -> Layer:
        """The layer every viewer shares; its anchors say where the viewer's own parts go."""
        y = self.header(6)
        y = self.yours(y + 6)
        y = self.seats(y + 6)
        y = self.fences(y + 6)
        y = self.supply(y + 6)
        y = self.witch(y + 6)
        y = self.powers(y + 6)
        y = self.legend(y + 10)
        self.svg.height = y + 8
        return self.svg.layer(self.anchors)

    def seat(self, public: Layer) -> Layer | None:
        """The viewer's own layer over ``public``: their scheme and hand where it keeps their
        place, and the two clicks of their Relocate or Switch over the cards it drew."""
        s, obs, at = self.svg, self.obs, public.anchors
        s.width, s.height = public.width, public.height
        pl = obs["players"][self.me]
        hand = obs.get("hand") or []
        if "line" in at:
            self.own_line(at["line"], pl.get("scheme"), bool(hand))
        if "hand" in at and hand:
            self.hand(at["hand"])
        if self.dec.get("kind") in ("relocate", "swap"):
            for c, (x, y, w, h) in (at.get("cards") or {}).items():
                self.two_click(x, y, w, h, c)
        return s.layer() if s.parts else None

    def columns(self) -> tuple[int, float]:
        """How many seat columns fit, and their width (3 at 940, 1 on a phone)."""
        cols = max(1, int((self.W - 20 + GAP) // (COLUMN + GAP)))
        return cols, (self.W - 20 - GAP * (cols - 1)) / cols

    def _seat_order(self) -> list[int]:
        """The seats from the viewer's (the shared layer: from the first seat)."""
        n = self.obs["num_players"]
        me = self.me if self.me is not None else 0
        return [(me + i) % n for i in range(n)]

    # -- the viewer's line: kept here for every viewer, filled by their own layer ---------------------
    def yours(self, y: float) -> float:
        """The place of the viewer's line (their secret scheme; while scouting, the title of
        their hand) and of their hand, each card on the back of a card of the hands (all
        hands hold as many cards; a spectator sees the backs). The same for every viewer:
        their own layer draws into it (:meth:`own_line`, :meth:`hand`)."""
        obs = self.obs
        held = max((pl["hand_count"] for pl in obs["players"]), default=0)
        if obs["phase"] != "end" or held:
            self.anchors["line"] = y
            y += 20 if held and self.narrow else 0
            y += 24 if held else 20
        if held:
            cols, cw = self.columns()
            h = self.hand_height(cw)
            self.anchors["hand"] = {"y": y, "h": h}
            for i in range(held):
                self.card_back(10 + (i % cols) * (cw + GAP), y + (i // cols) * (h + 6), cw, h)
            y += ((held + cols - 1) // cols) * (h + 6)
        return y - 6

    def hand_height(self, w: float) -> float:
        """The height of every card in a hand: the tallest location card's at width ``w``
        (a hand's place must not tell which cards it holds)."""
        key = ("hand height", self.d, self.p.texts, self.p.lang, tuple(self.p.names), w)
        h: float | None = _KEPT.get(key)
        if h is None:
            h = _KEPT.put(key, max(self.card_height(c, w) for c in self.d.locations))
        return h

    def card_back(self, x: float, y: float, w: float, h: float) -> None:
        """A location card face down, where a hand's card lies."""
        def draw(s: Svg) -> None:
            s.rect(x, y, w, h, fill="#6b5a45", stroke=INK)
            s.rect(x + 6, y + 6, w - 12, h - 12, fill="none", stroke="#c9b48f", rx=4, width=1)
            s.text(x + w / 2, y + h / 2 + 6, "?", 18, "bold", "#c9b48f", "middle")
        self.svg.piece(_KEPT, ("card back", x, y, w, h), draw)

    def own_line(self, y: float, scheme: str | None, scouting: bool) -> None:
        """The viewer's line: their secret scheme; while scouting, after their hand's title
        (on a phone, the title on a line of its own)."""
        p, s = self.p, self.svg
        if scouting:
            s.text(10, y + 14, p.t("ui.hand"), 14, "bold")
            if self.narrow:
                y += 20
        if scheme is None:
            return
        text = p.labelled(p.t("ui.scheme"), p._scheme(scheme))
        if scouting and not self.narrow:
            s.text(self.W - 10, y + 14, _fit(text, self.W / 2, 14), 13, "bold", INK, "end")
        else:
            s.text(10, y + 14, _fit(text, self.W - 20, 14), 13, "bold")

    def header(self, y: float) -> float:
        p, obs, s = self.p, self.obs, self.svg
        phase = p.texts.get(p.lang, "phase." + obs["phase"]) or obs["phase"]
        s.text(10, y + 17, f"{p.t('ui.round', round=obs['round'], rounds=self.d.board.rounds)} · {phase}", 16, "bold")
        arrow = "↻" if obs["direction"] == "clockwise" else "↺"
        s.circle(self.W - 24, y + 13, 13, "#efe6d2")
        s.text(self.W - 24, y + 19, arrow, 16, "bold", INK, "middle")
        direction = p.t("ui.direction", direction=obs["direction"], player=obs["holder"])
        if self.narrow:
            s.para(10, y + 36, direction, self.W - 20, 13)
            return y + 36 + 16 * len(wrap(direction, self.W - 20, 13))
        s.text(self.W - 44, y + 19, direction, 13, "normal", INK, "end")
        return y + 26

    # -- the seats: your den first, the others' summarised, the cards above each --------------------------
    def seats(self, y: float) -> float:
        """Each seat's column (the location cards above its den, as on the table, then its
        band and den), in seat order, then the cards beside the board (2 players); rows of
        columns standing on one line, so every den is right above the fence row. Each
        column is drawn from its own top left and moved into place, so its markup is kept
        wherever it stands. In a Relocate or a Switch the anchors say where each card is."""
        cols, cw = self.columns()
        blocks: list[Callable[[], float]] = [partial(self.panel, q, cw) for q in range(self.obs["num_players"])]
        if self.obs["neutral"]:
            blocks.append(partial(self.neutral, cw))
        s = self.svg
        cards: dict[str, list[float]] = {}
        for row in range(0, len(blocks), cols):
            placed = []
            for i, block in enumerate(blocks[row:row + cols]):
                at, drawn = len(s.parts), len(self.boxes)
                height = self.placed(0, 0, block)
                placed.append((at, drawn, 10 + i * (cw + GAP), height, self.split))
            line = max(split for *_, split in placed)
            for at, drawn, x, _, split in placed:  # each column moved down: the bands on one line
                s.parts[at] = f'<g transform="translate({x:g} {y + line - split:g})">'
                for c, cx, cy, w, h in self.boxes[drawn:]:
                    cards[c] = [x + cx, y + line - split + cy, w, h]
            y += max(line - split + height for _, _, _, height, split in placed) + ROW_GAP
        if self.dec.get("kind") in ("relocate", "swap"):
            self.anchors["cards"] = cards
        return y - ROW_GAP

    def placed(self, x: float, y: float, draw: Callable[[], float]) -> float:
        """What ``draw()`` draws from its own top left (0, 0), moved to ``(x, y)`` by a
        translated group, so its markup is the same wherever the sections around it leave
        it and it is kept once for every place. ``draw`` returns its height; returns the y
        below it."""
        s = self.svg
        s.add(f'<g transform="translate({x:g} {y:g})">')
        height = draw()
        s.close()
        return y + height

    def panel(self, q: int, w: float) -> float:
        """A seat's column from its own top: the cards above its den, then its band and den
        (moved below the cards, so their markup does not depend on them); returns its
        height. Its parts (the cards, the band, the den) are each kept by what they show,
        the actions they offer included."""
        y = self.cards(q, w, 0)
        self.split = y + 2 if y else 0
        return self.placed(0, self.split, partial(self.seat_board, q, w))

    def seat_board(self, q: int, w: float) -> float:
        """The seat's band and den from their own top; returns their height."""
        return self.den(q, w, self.band(q, w))

    def _band_words(self, q: int) -> tuple[str, str, str, str | None, str]:
        """The band's heading, its prestige, its line (status, cards collected), the action it
        offers (giving the direction tile) and its label (the seat's summary: details on
        hover for the others' dens)."""
        p, obs = self.p, self.obs
        pl = obs["players"][q]
        status = []
        if obs["phase"] == "draft" and not obs.get("decision"):
            status.append(p.t("ui.picked") if pl["has_picked"] else p.t("ui.picking"))
        elif q in (obs.get("to_act") or []):
            status.append(p.t("ui.your_turn"))
        if pl["passed"] and obs["phase"] == "thieving":
            status.append(p.t("ui.passed"))
        head = p.name(q)
        if obs["holder"] == q:
            head += " ↻" if obs["direction"] == "clockwise" else " ↺"
        line = p.t("ui.collected", a=pl["left_count"], b=pl["right_count"])
        give = f"give {q + 1}" if self.dec.get("kind") == "give" else None
        summary = "; ".join([head, p.t("ui.prestige", n=pl["prestige"]), p.t("ui.thieves", n=pl["thieves"]),
                             p.treasures_text({t: pl["treasures"][t] for t in TREASURES if pl["treasures"][t]})
                             or p.t("step.none"), line] + status)
        return head, p.t("ui.prestige", n=pl["prestige"]), " · ".join(status + [line]), give, \
            p.action_text(obs, give) if give else summary

    def band(self, q: int, w: float) -> float:
        """The seat's band (name, prestige, direction tile, status, cards collected), kept
        by its words; returns the y below it."""
        words = self._band_words(q)
        s = self.svg
        key = ("band", w, q, *words, words[3] in s.legal, f"seat:{q}" in s.recent)
        end: float = self.kept(key, lambda: self.draw_band(q, w, *words))
        return end

    def draw_band(self, q: int, w: float, head: str, prestige: str, line: str, give: str | None,
                  label: str) -> float:
        s = self.svg
        ink = SEAT_INK[q % len(SEAT_INK)]
        if not s.open(give, f"seat:{q}", label, "seat"):
            s.add(f"<title>{escape(label)}</title>")
        s.rect(0.5, 0.5, w - 1, 40, fill=seat_color(q), stroke=INK, rx=8)
        s.text(w - 8, 17, prestige, 14, "bold", ink, "end")
        s.text(8, 17, _fit(head, w - 24 - len(prestige) * 8.4, 15), 14, "bold", ink)
        s.text(8, 34, _fit(line, w - 16, 13), 13, "normal", ink)
        s.close()
        return 45

    def den(self, q: int, w: float, y: float) -> float:
        """The seat's den: thieves, how many treasures it holds of its limit, the treasures
        it holds (at the end, its scheme); kept by what it holds unless the decision pending
        takes or pays from a den."""
        if self.dec.get("kind") in ("rob", "robthief", "payany", "discard"):
            return self.draw_den(q, w, y)
        pl = self.obs["players"][q]
        key = ("den", w, y, q, pl["thieves"], tuple(pl["treasures"][t] for t in TREASURES), self._scheme_of(q))
        end: float = self.kept(key, lambda: self.draw_den(q, w, y))
        return end

    def _scheme_of(self, q: int) -> str | None:
        """Seat ``q``'s scheme if every viewer sees it (at the end of the game)."""
        return self.obs["players"][q].get("scheme") if self.obs["phase"] == "end" else None

    def draw_den(self, q: int, w: float, y: float) -> float:
        p, obs, s = self.p, self.obs, self.svg
        pl = obs["players"][q]
        actor = q == self.actor
        kind = self.dec.get("kind")
        rob = f"rob {q + 1}" if kind == "robthief" else None
        live = s.open(rob, None, p.action_text(obs, rob) if rob else None, "den-thieves")
        if rob:    # a finger-sized target round the thieves
            s.rect(2, y + 2, max(60, 15 * min(pl["thieves"], 6) + 22), 30, fill="#fff7e0" if live else "transparent",
                   stroke="#e8a317" if live else "none", rx=8, width=2)
        x = self.thieves(4, y + 17, pl["thieves"], 15, 9, where=f"den{q + 1}")
        s.close()
        scheme = self._scheme_of(q)
        if scheme:      # everybody's at the end: beside the thieves when it fits
            scheme = p.labelled(p.t("ui.scheme_other"), p._scheme(scheme))
            if x + 8 + len(scheme) * 7.8 <= w - 4:
                s.text(w - 4, y + 22, scheme, 13, "bold", INK, "end")
                scheme = None
        else:
            total = sum(pl["treasures"].values())
            s.text(w - 3, y + 22, f"{total}/{self.d.board.treasure_limit}", 13, "bold",
                   "#b00020" if total > self.d.board.treasure_limit else MUTED, "end")
        shown = [t for t in TREASURES if pl["treasures"][t]]
        x = max(x + 6, 110.0)
        if self._scheme_of(q) or x + 54 * len(shown) > w - 44:
            x, y = 0.0, y + 34
        for t in shown:
            act = None
            if kind == "rob" and not actor:
                act = f"rob {q + 1} {t}"
            elif kind in ("payany", "discard") and actor:
                act = ("pay " if kind == "payany" else "discard ") + t
            if x + 54 > w:
                x, y = 0.0, y + 34
            x = self.treasure_count(x + 4, y + 17, t, pl["treasures"][t], act,
                                    p.action_text(obs, act) if act else p.term("treasure", t), where=f"den{q + 1}") - 6
        if scheme:
            y = s.para(4, y + 50, scheme, w - 8, 13, INK, weight="bold") - 50 + 4
        return y + 36

    def cards(self, q: int, w: float, y: float) -> float:
        """The location cards and sold fences above the seat's den, kept by what they show
        and the actions they offer (their labels included), unless a Relocate or a Switch
        puts its picks and targets on them."""
        obs, s = self.obs, self.svg
        pl = obs["players"][q]
        cards, fences = pl["above"], pl["fences_above"]
        if not cards and not fences:
            return y
        if self.dec.get("kind") in ("relocate", "swap"):
            return self.draw_cards(q, w, y)
        acts = [self._loc_action(c) for c in cards]
        if self.dec.get("kind") == "sub" and self.dec.get("mode") == "extra":
            acts += [f"sell {f}" for f in fences]
        key = ("cards", w, y, tuple(cards), tuple(fences), tuple(acts),
               tuple((a in s.legal, self.p.action_text(obs, a)) if a else None for a in acts),
               tuple(c in s.recent for c in cards), tuple(f in s.recent for f in fences),
               tuple(obs["loc_thieves"].get(c, 0) for c in cards),
               tuple(obs["fence_thieves"].get(f, 0) for f in fences),
               marshal.dumps([obs["fence_treasures"].get(f) for f in fences], 2))
        end: float = self.kept(key, lambda: self.draw_cards(q, w, y), _PANELS)
        return end

    def draw_cards(self, q: int, w: float, y: float) -> float:
        """The cards above a seat's den (:meth:`cards` calls it only when there are some)."""
        obs = self.obs
        pl = obs["players"][q]
        extra = self.dec.get("kind") == "sub" and self.dec.get("mode") == "extra"
        for c in pl["above"]:
            y = self.location_card(0.5, y, w - 1, c, self._loc_action(c)) + 5
        for fid in pl["fences_above"]:
            y = self.sold_fence(0.5, y, w - 1, fid, f"sell {fid}" if extra else None) + 5
        return y

    def neutral(self, w: float) -> float:
        """The cards beside the board (2 players: nobody's, anybody may use them), over
        their label."""
        s = self.svg
        y = 0.0
        for c in self.obs["neutral"]:
            y = self.location_card(0.5, y, w - 1, c, self._loc_action(c)) + 5
        self.split = y + 2
        s.rect(0.5, y + 2, w - 1, 40, fill="#efe6d2", stroke=INK, rx=8)
        s.para(8, y + 19, self.p.t("ui.beside"), w - 16, 13, weight="bold")
        return y + 42

    def sold_fence(self, x: float, y: float, w: float, fid: str, action: str | None) -> float:
        """A fence sold in front of a seat this round: a line with its name, prestige, the
        thief on it and the treasures paid (they go back at maintenance)."""
        p, s, obs = self.p, self.svg, self.obs
        f = self.d.fences[fid]
        label = p.action_text(obs, action) if action else p.term("fence", fid)
        with s.moving(f"fence-{fid}"):
            live = s.open(action, fid, label, "card fence")
            s.rect(x, y, w, 32, fill="#fbf7ee", stroke="#e8a317" if live else INK, width=3 if live else 1.2)
            s.add(f'<rect x="{x:g}" y="{y:g}" width="8" height="32" rx="3" fill="#6b4f2a"/>')
            s.text(x + 14, y + 21, _fit(f"{p.term('fence', fid)} · {p.t('ui.sold')}", w - 150, 14.5), 13, "bold")
            s.text(x + w - 8, y + 21, str(f.prestige), 14, "bold", "#9a6b00", "end")
            s.close()
        xx = x + w - 34
        i = 0
        for t, k in (obs["fence_treasures"].get(fid) or {}).items():
            for _ in range(k):
                i += 1
                if xx > x + w - 110:
                    with s.moving(f"treasure-fence-{fid}-{i}", f"treasure-{t}"):
                        self.treasure(xx, y + 16, t, 7)
                    xx -= 16
        n = obs["fence_thieves"].get(fid, 0)
        if n:
            self.thieves(x + w - 140, y + 16, n, 12, 8, where=f"fence-{fid}")
        return y + 32

    # -- location cards ----------------------------------------------------------------------------------
    def card_height(self, c: str, w: float) -> float:
        """A location card's height at width ``w``: its band and its text."""
        p = self.p
        lines = min(4, len(wrap(p.ability(c), w - 70, 13)))
        if self.d.locations[c].owner_bonus:
            lines += min(2, len(wrap(p.labelled(p.t("ui.owner_bonus"), p.bonus(c)), w - 70, 13)))
        return max(72.0, 32 + lines * 15.86 + 6)

    def location_card(self, x: float, y: float, w: float, c: str, action: str | None = None,
                      mark: str = "", space: bool = True, height: float | None = None) -> float:
        """A location card: name band in its type's colour (with the type), ability and owner
        bonus, and its action space at the right, where thieves stand (click the card to use
        it). ``height``: its height, else as its text needs. In a Relocate or a Switch, the
        card is also where a thief or a card is picked from, or where it goes (the viewer's
        layer draws those over it, where :attr:`boxes` says it is). Returns the y below it."""
        p, s, obs = self.p, self.svg, self.obs
        label = p.action_text(obs, action) if action else p.term("loc", c)
        n = obs["loc_thieves"].get(c, 0) if space else 0
        h = self.card_height(c, w) if height is None else height
        with s.moving(f"loc-{c}"):
            self.kept(("location", x, y, w, h, c, action, label, mark, space, n, action in s.legal,
                       c in s.recent), lambda: self.draw_location_card(x, y, w, h, c, action, label, mark, space, n))
        self.boxes.append((c, x, y, w, h))
        return y + h

    def draw_location_card(self, x: float, y: float, w: float, h: float, c: str, action: str | None, label: str,
                           mark: str, space: bool, n: int) -> None:
        p, s = self.p, self.svg
        loc = self.d.locations[c]
        live_card = s.open(action, c, label, "card location")
        s.rect(x, y, w, h, fill="#fbf7ee", stroke="#e8a317" if live_card else INK, width=3 if live_card else 1.2)
        s.add(f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="22" rx="6" fill="{TYPE_COLORS[loc.type]}"/>')
        sub = p.term("type", loc.type) + (" ⚡" if loc.instant else "") + (f" · {mark}" if mark else "")
        s.text(x + w - 6, y + 16, sub, 13, "bold", "#fff", "end")
        s.text(x + 6, y + 16, _fit(p.term("loc", c), w - 20 - len(sub) * 8, 14), 13, "bold", "#fff")
        yy = s.para(x + 6, y + 38, p.ability(c), w - 70, 13, max_lines=4)
        if loc.owner_bonus:
            s.para(x + 6, yy, p.labelled(p.t("ui.owner_bonus"), p.bonus(c)), w - 70, 13, MUTED, max_lines=2)
        if space:
            s.rect(x + w - 58, y + 28, 52, h - 34, fill="#efe6d2" if not n else "#d9cdb3", stroke="#9a8c74", rx=10)
            if n:
                self.thieves(x + w - 58, y + 28 + (h - 34) / 2, n, 16, 9, 2, where=f"loc-{c}")
            else:
                s.add(f'<title>{escape(p.t("ui.action_space"))}</title>')
                self.thief(x + w - 32, y + 28 + (h - 34) / 2, 9, "#e4dccb")
        s.close()

    def two_click(self, x: float, y: float, w: float, h: float, c: str) -> None:
        """Relocate (``move A B``) and Switch (``swap A B``) name two cards: the card a thief
        or a card comes from is a picker, and each card it may go to holds one target per
        source, shown while that source is picked (docs/engine.md, "Gestures")."""
        verb = {"relocate": "move", "swap": "swap"}.get(self.dec.get("kind") or "")
        if verb is None:
            return
        s, p, obs = self.svg, self.p, self.obs
        sources = self.sources(verb)
        if c in sources:
            s.picker(f"{verb}:{c}", p.t(f"ui.pick_{verb}", card=c), default=c == self.default_source(verb, sources))
            s.add(f'<rect x="{x + 2:g}" y="{y + 2:g}" width="{w - 4:g}" height="{h - 4:g}" rx="6" fill="#ffcf3f" '
                  f'fill-opacity="0.12" stroke="#c77700" stroke-width="3" stroke-dasharray="8 5"/>')
            s.close()
        for a in sources:
            act = f"{verb} {a} {c}"
            if s.open(act, None, p.action_text(obs, act), "target", needs=f"{verb}:{a}"):
                s.add(f'<rect x="{x + 2:g}" y="{y + 2:g}" width="{w - 4:g}" height="{h - 4:g}" rx="6" '
                      f'fill="#ffcf3f" fill-opacity="0.18" stroke="#e8a317" stroke-width="3"/>')
            s.close()

    def sources(self, verb: str) -> list[str]:
        """The cards a Relocate's thief or a Switch's card may come from (from the legal actions)."""
        seen: dict[str, None] = {}
        for a in sorted(self.svg.legal):
            parts = a.split()
            if parts[0] == verb and len(parts) == 3:
                seen[parts[1]] = None
        return list(seen)

    def default_source(self, verb: str, sources: list[str]) -> str | None:
        """The source picked at first: the only one; else, for Relocate, a thief on one of
        your own cards (you take it back anyway), else the first card in table order; for
        Switch, your first card."""
        if not sources:
            return None
        if verb == "move" and self.me is not None:
            mine: list[str] = [c for c in self.obs["players"][self.me]["above"] if c in sources]
            if mine:
                return mine[0]
        order = self._all_cards()
        first: str = min(sources, key=lambda c: order.index(c) if c in order else len(order))
        return first

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

    def _all_cards(self) -> list[str]:
        out: list[str] = []
        for q in self._seat_order():
            out += self.obs["players"][q]["above"]
        return out + list(self.obs["neutral"])

    def hand(self, place: dict[str, float]) -> None:
        """The viewer's hand over the backs the shared layer drew at ``place`` (its top and
        the height of every card); while scouting, click a card to keep it."""
        obs, p, s = self.obs, self.p, self.svg
        pick = obs.get("pick")
        drafting = self.acting and obs["phase"] == "draft" and not self.dec
        cols, cw = self.columns()
        h = place["h"]
        for i, c in enumerate(obs.get("hand") or []):
            x, y = 10 + (i % cols) * (cw + GAP), place["y"] + (i // cols) * (h + 6)
            self.location_card(x, y, cw, c, f"keep {c}" if drafting else None,
                               mark=p.t("ui.pick_mark") if pick == c else "", space=False, height=h)
            if pick == c:
                s.rect(x - 3, y - 3, cw + 6, h + 6, fill="none", stroke=seat_color(self.me or 0), rx=8, width=4)

    # -- the shared board -------------------------------------------------------------------------------
    def fences(self, y: float) -> float:
        """The fence row under its title and the decks' counts, kept by what it shows and
        the actions it offers."""
        obs, dec = self.obs, self.dec
        key = ("fence row", self.W, y, tuple(obs["row"]), obs["loc_deck_count"], obs["fence_deck_count"],
               self.turn, dec.get("kind"), dec.get("mode"))
        end: float = self.kept(key, lambda: self.draw_fences(y))
        return end

    def draw_fences(self, y: float) -> float:
        p, obs, s = self.p, self.obs, self.svg
        s.text(10, y + 14, p.t("ui.fences"), 13, "bold")
        if not self.narrow:
            s.text(self.W - 10, y + 14, p.t("ui.decks", a=obs["loc_deck_count"], b=obs["fence_deck_count"]),
                   13, "normal", MUTED, "end")
        else:
            y = s.para(10, y + 32, p.t("ui.decks", a=obs["loc_deck_count"], b=obs["fence_deck_count"]),
                       self.W - 20, 13, MUTED) - 18
        y += 20
        row = obs["row"]
        per = len(row) if not self.narrow else 3
        fw = (self.W - 20 - 6 * (per - 1)) / per
        h = 94
        sell = self.turn or (self.dec.get("kind") == "sub" and self.dec.get("mode") == "normal")
        refresh = self.dec.get("kind") == "refresh"
        for i, fid in enumerate(row):
            x = 10 + (i % per) * (fw + 6)
            yy = y + (i // per) * (h + 6)
            if fid is None:
                s.rect(x, yy, fw, h, fill="#eee", stroke="#bbb")
                continue
            act = f"return {fid}" if refresh else f"sell {fid}" if sell else None
            label = p.action_text(self.obs, act) if act else p.term("fence", fid)
            with s.moving(f"fence-{fid}"):
                self.kept(("fence", x, yy, fw, h, fid, act, label, act in s.legal, fid in s.recent),
                          lambda: self.fence_face(x, yy, fw, h, fid, act, label))
        return y + ((len(row) + per - 1) // per) * (h + 6) - 6

    def fence_face(self, x: float, y: float, w: float, h: float, fid: str, action: str | None, label: str) -> None:
        """A fence card as printed: name, prestige, type, wants, majority."""
        p, s = self.p, self.svg
        f = self.d.fences[fid]
        live = s.open(action, fid, label, "card fence")
        if not live:
            s.add(f"<title>{escape(p.term('fence', fid) + ': ' + p.t('ui.wants') + ' ' + p.wants(fid))}</title>")
        s.rect(x, y, w, h, fill="#fbf7ee", stroke="#e8a317" if live else INK, width=3 if live else 1.2)
        s.add(f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="22" rx="6" fill="#6b4f2a"/>')
        s.text(x + 6, y + 16, _fit(p.term("fence", fid), w - 30, 14.5), 13, "bold", "#fff")
        s.text(x + w - 6, y + 16, str(f.prestige), 14, "bold", "#ffd75e", "end")
        s.text(x + 6, y + 38, _fit(p.term("ftype", f.type), w - 10, 14.5), 13, "bold", MUTED)
        step = min(25.0, (w - 22) / max(1, len(f.wants) - 1)) if len(f.wants) > 1 else 25.0
        for k, t in enumerate(f.wants):
            self.treasure(x + 15 + k * step, y + 58, t, 10)
        s.text(x + 6, y + h - 9, _fit(p.t("ui.majority", n=self.p._maj(f.type)), w - 10, 13), 13, "normal", MUTED)
        s.close()

    def box(self, x: float, y: float, w: float, h: float, title: str, fill: str = "#f4ede0") -> None:
        self.svg.rect(x, y, w, h, fill=fill, stroke="#9a8c74", rx=8)
        if title:
            self.svg.text(x + 8, y + 17, _fit(title, w - 12, 13), 13, "bold", INK)

    def supply(self, y: float) -> float:
        """The City, the Forest, the steal and recruit slots: one row, or three on a phone
        (kept by what they show and the actions they offer); in a thieving turn, the pairs
        of treasures its seat may recruit with."""
        obs = self.obs
        key = ("supply", self.W, y, tuple(obs["city"].items()), obs["forest"], obs["steal_slot"],
               tuple(obs["recruit_slot"].items()), self.turn, self.dec.get("kind"))
        y = self.kept(key, lambda: self.draw_supply(y))
        if self.turn:
            y = self.recruit_pairs(y + 6)
        return y

    def draw_supply(self, y: float) -> float:
        p, obs, s = self.p, self.obs, self.svg
        h = 64
        W = self.W
        if self.narrow:
            city, forest, steal, recruit = (10, y, W - 20), (10, y + h + 6, 96), (112, y + h + 6, W - 122), \
                (10, y + 2 * (h + 6), W - 20)
        else:
            city, forest, steal, recruit = (10, y, 316), (332, y, 88), (428, y, 244), (680, y, W - 690)
        x, yy, w = city
        self.box(x, yy, w, h, p.t("ui.city"))
        take = self.dec.get("kind") == "take"
        for i, t in enumerate(TREASURES):
            n = obs["city"][t]
            act = (f"take {t}" if take else f"steal {t}" if self.turn else None) if n else None
            self.treasure_count(x + 8 + min(64.0, (w - 16) / 5) * i, yy + 44, t, n, act, p.term("treasure", t), where="city")
        x, yy, w = forest
        self.box(x, yy, w, h, p.t("ui.forest"))
        with s.moving("thief-forest", "thief", obs["forest"]):
            self.thief(x + 20, yy + 42, 12)
        s.text(x + 38, yy + 49, f"×{obs['forest']}", 15, "bold")
        x, yy, w = steal
        self.box(x, yy, w, h, p.t("ui.steal"))
        s.open("steal" if self.turn else None, None, p.t("ui.steal_empty"), "slot")
        s.rect(x + 6, yy + 26, w - 12, 32, fill="#fff", stroke="#9a8c74", rx=6)
        self.thieves(x + 8, yy + 43, obs["steal_slot"], 15, 9, max(1, int((w - 50) // 15)), where="steal")
        s.close()
        x, yy, w = recruit
        self.box(x, yy, w, h, p.t("ui.recruit"))
        xx: float = x + 8
        for t in TREASURES:
            if obs["recruit_slot"][t]:
                xx = self.treasure_count(xx, yy + 44, t, obs["recruit_slot"][t], where="recruit") - 8
        return recruit[1] + h

    def recruit_pairs(self, y: float) -> float:
        """The pairs of treasures the seat whose turn it is may pay to recruit: click a pair."""
        p, s = self.p, self.svg
        if self.actor is None:
            return y - 6
        mine = self.obs["players"][self.actor]["treasures"]
        owned = [t for t in TREASURES if mine[t]]
        pairs = [(a, b) for i, a in enumerate(owned) for b in owned[i:] if a != b or mine[a] >= 2]
        if not pairs:
            return y - 6
        label = p.t("ui.recruit_pairs")
        s.text(10, y + 21, label, 13, "bold")
        x0 = min(10 + len(label) * 7.4 + 8, 160.0)
        x, y0 = x0, y
        for a, b in pairs:
            if x + 54 > self.W - 6:
                x, y0 = x0, y0 + 36
            act = f"recruit {a} {b}"
            live = s.open(act, None, p.action_text(self.obs, act), "pair")
            s.rect(x, y0 + 1, 52, 32, fill="#fff7e0", stroke="#e8a317" if live else "#9a8c74", rx=8,
                   width=2 if live else 1.2)
            self.treasure(x + 14, y0 + 17, a, 9)
            self.treasure(x + 38, y0 + 17, b, 9)
            s.close()
            x += 56
        return y0 + 34

    def witch(self, y: float) -> float:
        """The Witch's slots: a row (on a phone, under its title), kept by what it shows and
        whether they offer deliveries (in a thieving turn)."""
        key = ("witch", self.W, y, tuple(self.obs["witch_used"]), self.turn)
        end: float = self.kept(key, lambda: self.draw_witch(y))
        return end

    def draw_witch(self, y: float) -> float:
        p, obs, s = self.p, self.obs, self.svg
        slots = self.d.board.witch.slots
        if self.narrow:
            h, x0, sy, sh = 76, 16.0, y + 26, 44
            self.box(10, y, self.W - 20, h, p.t("ui.witch"))
        else:
            h, x0, sy, sh = 44, 176.0, y + 5, 34
            self.box(10, y, self.W - 20, h, "")
            s.para(18, y + 18, p.t("ui.witch"), 150, 13, weight="bold", max_lines=2)
        sw = (self.W - 16 - x0 - 5 * (len(slots) - 1)) / len(slots)
        for j, slot in enumerate(slots):
            used = obs["witch_used"][j]
            x = x0 + j * (sw + 5)
            act = f"witch {slot.treasure}" if self.turn and not used else None
            s.open(act, None, p.action_text(obs, act) if act else p.term("treasure", slot.treasure), "witch-slot")
            s.rect(x, sy, sw, sh, fill="#e6e1d8" if used else "#fff", stroke="#9a8c74", rx=8)
            worth = p.t("ui.used") if used else f"+{slot.prestige}"
            with s.moving(f"treasure-witch{j + 1}" if used else None, f"treasure-{slot.treasure}"):
                self.treasure(x + 14, sy + 17, slot.treasure, 9)   # a delivered treasure slides here
            if self.narrow:
                s.text(x + 28, sy + 22, worth, 13, "bold", MUTED if used else INK)
                s.text(x + 5, sy + 39, _fit(p.term("treasure", slot.treasure), sw - 8, 13), 13, "normal", MUTED)
            else:
                words = worth if used else f"{p.term('treasure', slot.treasure)} · {worth}"
                s.text(x + 28, sy + 22, _fit(words, sw - 32, 14), 13, "bold", MUTED if used else INK)
            s.close()
        return y + h

    def powers(self, y: float) -> float:
        """The three power tiles (a row, or stacked on a phone); in a thieving turn each
        offers one payment per treasure type its seat holds, drawn on its band. Kept by
        what they show and offer."""
        held = self.obs["players"][self.actor]["treasures"] if self.turn and self.actor is not None else {}
        key = ("powers", self.W, y, tuple((pw["tile"], pw["left"], pw["paid"]) for pw in self.obs["powers"]),
               tuple(t for t in TREASURES if held.get(t)))
        end: float = self.kept(key, lambda: self.draw_powers(y))
        return end

    def draw_powers(self, y: float) -> float:
        p, obs, s = self.p, self.obs, self.svg
        s.text(10, y + 14, p.t("ui.powers"), 13, "bold")
        y += 20
        per = 1 if self.narrow else 3
        tw = (self.W - 20 - 8 * (per - 1)) / per
        texts = [p.tile_text(pw["tile"]) if pw["tile"] else "" for pw in obs["powers"]]
        lines = max([len(wrap(t, tw - 12, 13)) for t in texts] + [1])
        h = 30 + lines * 15.86 + 4
        for i, pw in enumerate(obs["powers"]):
            x = 10 + (i % per) * (tw + 8)
            yy = y + (i // per) * (h + 6)
            if pw["tile"] is None:
                s.rect(x, yy, tw, h, fill="#eee", stroke="#bbb")
                s.text(x + 10, yy + 20, f"{i + 1}. {p.t('ui.gone')}", 13, "normal", MUTED)
                continue
            self.power_tile(x, yy, tw, h, i, pw)
        return y + ((len(obs["powers"]) + per - 1) // per) * (h + 6) - 6

    def power_tile(self, x: float, y: float, w: float, h: float, i: int, pw: dict[str, Any]) -> None:
        p, s, obs = self.p, self.svg, self.obs
        tid = pw["tile"]
        paid = pw["paid"]
        s.open(None, tid)
        s.add(f"<title>{escape(p.term('tile', tid) + ': ' + p.tile_text(tid))}</title>")
        s.rect(x, y, w, h, fill="#e6e1d8" if paid else "#fbf7ee", stroke=INK)
        s.add(f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="24" rx="6" fill="#7a4f9e"/>')
        s.para(x + 6, y + 40, p.tile_text(tid), w - 12, 13, MUTED if paid else INK)
        right = x + w - 6
        left = p.t("ui.left", n=pw["left"])
        s.text(right, y + 17, left, 13, "normal", "#fff", "end")
        right -= len(left) * 7.2 + 8
        if paid:    # the treasure paid lies on the tile till maintenance (it slides there)
            with s.moving(f"treasure-power{i + 1}", f"treasure-{paid}"):
                self.treasure(right - 8, y + 12, paid, 8)
            s.text(right - 20, y + 17, p.t("ui.used"), 13, "bold", "#fff", "end")
            right -= 22 + len(p.t("ui.used")) * 7.2
        elif self.turn and self.actor is not None:   # a payment per treasure its seat holds
            mine = obs["players"][self.actor]["treasures"]
            for t in reversed(TREASURES):
                act = f"power {i + 1} {t}"
                if mine[t]:
                    right -= 30
                    live = s.open(act, None, p.action_text(obs, act), "pay-slot")
                    s.rect(right, y + 2, 28, 28, fill="#fff7e0", stroke="#e8a317" if live else "#9a8c74", rx=6,
                           width=2 if live else 1.2)
                    self.treasure(right + 14, y + 16, t, 9)
                    s.close()
            right -= 4
        s.text(x + 6, y + 17, _fit(f"{i + 1}. {p.term('tile', tid)}", right - x - 8, 14.5), 13, "bold", "#fff")
        s.close()

    def legend(self, y: float) -> float:
        """The same in every position: kept per width, drawn from its own top and
        moved to ``y``."""
        return self.placed(0, y, lambda: self.kept(("legend", self.W), lambda: self.draw_legend(0)))

    def draw_legend(self, y: float) -> float:
        p, s = self.p, self.svg
        s.rect(10, y, self.W - 20, 10, fill="none", stroke="none")
        y = s.fold("legend", p.t("ui.legend"), 10, y, size=14) + 2
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
        s.end_fold()
        return y


def _none_gained(ev: dict[str, Any]) -> dict[str, Any]:
    """A ``forest`` or ``thieves`` event that gained no thief, as its ``_none`` text."""
    if ev.get("key") in ("forest", "thieves") and (ev.get("args") or {}).get("n") == 0:
        return {**ev, "key": ev["key"] + "_none"}
    return ev


def _fit(text: str, width: float, size: float) -> str:
    """``text`` cut with an ellipsis to fit ``width`` (a name band on a card)."""
    most = max(4, int(width / (size * 0.58)))
    return text if len(text) <= most else text[: most - 1].rstrip() + "…"
