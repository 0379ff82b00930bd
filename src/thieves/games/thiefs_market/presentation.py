"""What a person sees of Thief's Market: the board, action texts, prompts, the
log, the end-of-game score table, the rules summary and the terminal view.

Everything is drawn from the observation (never the state, so nothing hidden
can leak) with the texts of ``data/i18n.yaml`` in the viewer's language. Dice
are drawn as dice: their colour and an icon per face (a gem, a bag, an
infamy skull), with a legend; the start player token is a star. Every part a
player may click carries ``data-action``: dice and the token in the center
(take), a pile (steal, or keep it as it is), dice of your own pile (put back,
reroll, pay), the center (take everything), market cards (buy), owned cards
and the dice drawn on them (use), and the gold coin or "one gem less" mark
under a gem still to pay.
"""
from __future__ import annotations

import marshal
from html import escape
from typing import Any, Callable, Sequence

from thieves.core.presentation import Presentation
from thieves.core.texts import join_list
from thieves.core.svg import INK, MUTED, NARROW_WIDTH, BoundedMemo, Svg, memo, seat_color, wrap

from .actions import MarketAction
from .components import FACES, GEMS, Tables

W = 920                     # the board's natural width (the board area is ~920 px at 1280)
NARROW_W = NARROW_WIDTH      # the phone board (core.svg): fits a 420 px window at full size
PAD = 8
FONT = 13                   # smallest text on the board (renders >= 12 px at 1280)
CARD_W, CARD_GAP = 174, 7
CHIP_W, CHIP_H = 142, 24     # another seat's card, named (its text on hover)
DIE, SMALL_DIE = 42, 20
COLORS = {"R": "#d2352b", "W": "#f4f1e8", "B": "#2f64c8", "G": "#2f9e44", "Y": "#e8b923", "P": "#8a3fb0"}
ICON_INK = {"R": "#fff", "W": "#3a3a3a", "B": "#fff", "G": "#fff", "Y": "#5a3a10", "P": "#fff"}
DECK_BAND = {"A": "#6b4f2a", "B": "#2f5d62", "C": "#5b2a6b"}
TOKEN_FILL, GOLD_FILL = "#5b3a1a", "#d9a520"
#: pieces of the board already drawn (dice faces, dice, cards, the legend), by what they show
_KEPT = memo(8192)
#: the seats' panels (larger pieces: fewer kept)
_PANELS = memo(1024)
#: the words of an action, by the action and the step
_WORDS = memo(4096)


# ------------------------------------------------------------------ drawing helpers
def _gem(svg: Svg, cx: float, cy: float, s: float, ink: str) -> None:
    """A cut gem: a flat top and a point below."""
    pts = [(cx - .30 * s, cy - .08 * s), (cx - .15 * s, cy - .27 * s), (cx + .15 * s, cy - .27 * s),
           (cx + .30 * s, cy - .08 * s), (cx, cy + .30 * s)]
    svg.add('<polygon points="' + " ".join(f"{x:.1f},{y:.1f}" for x, y in pts)
            + f'" fill="none" stroke="{ink}" stroke-width="{max(1.2, s * .06):.1f}" stroke-linejoin="round"/>')
    svg.add(f'<line x1="{cx - .30 * s:.1f}" y1="{cy - .08 * s:.1f}" x2="{cx + .30 * s:.1f}" y2="{cy - .08 * s:.1f}" '
            f'stroke="{ink}" stroke-width="{max(1, s * .04):.1f}"/>')


def _bag(svg: Svg, cx: float, cy: float, s: float, ink: str) -> None:
    """A money bag: a round sack with a tied neck."""
    svg.add(f'<circle cx="{cx:.1f}" cy="{cy + .08 * s:.1f}" r="{.22 * s:.1f}" fill="{ink}"/>')
    pts = [(cx - .09 * s, cy - .12 * s), (cx + .09 * s, cy - .12 * s), (cx + .17 * s, cy - .30 * s),
           (cx - .17 * s, cy - .30 * s)]
    svg.add('<polygon points="' + " ".join(f"{x:.1f},{y:.1f}" for x, y in pts) + f'" fill="{ink}"/>')


def _skull(svg: Svg, cx: float, cy: float, s: float, ink: str, back: str) -> None:
    """The infamy face: a small skull."""
    svg.add(f'<circle cx="{cx:.1f}" cy="{cy - .05 * s:.1f}" r="{.22 * s:.1f}" fill="{ink}"/>')
    svg.add(f'<rect x="{cx - .12 * s:.1f}" y="{cy + .08 * s:.1f}" width="{.24 * s:.1f}" height="{.16 * s:.1f}" '
            f'rx="{.03 * s:.1f}" fill="{ink}"/>')
    for dx in (-.08, .08):
        svg.add(f'<circle cx="{cx + dx * s:.1f}" cy="{cy - .05 * s:.1f}" r="{.055 * s:.1f}" fill="{back}"/>')


def _star(svg: Svg, cx: float, cy: float, r: float, fill: str) -> None:
    if cx and cy:   # kept by its arguments (zero is never a key)
        svg.piece(_KEPT, ("star", cx, cy, r, fill), lambda s: _draw_star(s, cx, cy, r, fill))
    else:
        _draw_star(svg, cx, cy, r, fill)


def _draw_star(svg: Svg, cx: float, cy: float, r: float, fill: str) -> None:
    import math
    pts = []
    for k in range(10):
        rr = r if k % 2 == 0 else r * .45
        a = -math.pi / 2 + k * math.pi / 5
        pts.append(f"{cx + rr * math.cos(a):.1f},{cy + rr * math.sin(a):.1f}")
    svg.add(f'<polygon points="{" ".join(pts)}" fill="{fill}"/>')


def draw_face(svg: Svg, x: float, y: float, size: float, face: str, dim: bool = False,
              outline: bool = False) -> None:
    """A die (no group): its colour and the icon of its face; ``outline``: an empty slot."""
    if x and y:   # kept by its arguments (zero is never a key: 0 and -0.0 print differently)
        svg.piece(_KEPT, ("face", x, y, size, face, dim, outline),
                  lambda s: _draw_face(s, x, y, size, face, dim, outline))
    else:
        _draw_face(svg, x, y, size, face, dim, outline)


def _draw_face(svg: Svg, x: float, y: float, size: float, face: str, dim: bool, outline: bool) -> None:
    fill = "#ffffff00" if outline else COLORS[face]
    dash = ' stroke-dasharray="4 3"' if outline else ""
    op = ' opacity="0.5"' if dim else ""
    svg.add(f'<g{op}>')
    svg.rect(x, y, size, size, fill=fill, stroke=COLORS[face] if outline else INK, rx=size * .18,
             width=2 if outline else 1.3, extra=dash)
    ink = COLORS[face] if outline else ICON_INK[face]
    cx, cy = x + size / 2, y + size / 2
    if face in GEMS:
        _gem(svg, cx, cy, size, "#555" if outline and face == "W" else ink)
    elif face == "Y":
        _bag(svg, cx, cy, size, ink)
    else:
        _skull(svg, cx, cy, size, ink, "#ffffff00" if outline else COLORS[face])
    svg.add("</g>")


# ------------------------------------------------------------------ the purchase gesture
def cheapest_payment(cost: Sequence[str], pile: dict[str, int], gold: int, waiver: int
                     ) -> tuple[dict[str, int], dict[str, int], dict[str, int]] | None:
    """How to pay a card's ``cost`` (gem letters) spending what is least useful:
    ``(waived, dice, gold)`` per gem, or None when it cannot be paid.

    Rulebook "Phase 2: effectuer des achats": a die showing a gem pays that gem and goes
    back to the center; "les Pièces d'Or peuvent être utilisées à la place d'un joyau"; at
    "Fin du tour" every die goes back to the center anyway, while gold is kept (the most
    gold scores 3 NP, "Fin du jeu"). So a gem die is worth nothing after this round and a
    coin is: dice pay every gem they can, gold only the gems no die shows. Insurance
    Racket ("tous vos achats coûtent un dé de moins, celui de votre choix") waives gems of
    this card only, so its waiver is never kept: it goes first to gems that would cost
    gold, then to gems a die would pay (that die stays for another purchase or a card's
    ability this round), in the cost's order."""
    waived, dice, coins = {}, {}, {}
    free = waiver
    for g in GEMS:                       # gems no die shows: waived, else gold
        need = cost.count(g)
        short = max(0, need - pile.get(g, 0))
        w = min(free, short)
        free -= w
        waived[g], dice[g], coins[g] = w, need - short, short - w
    for g in GEMS:                       # the waiver left spares dice
        w = min(free, dice[g])
        free -= w
        waived[g] += w
        dice[g] -= w
    if sum(coins.values()) > gold:
        return None
    return waived, dice, coins


def payment_steps(cost: Sequence[str], pile: dict[str, int], gold: int, waiver: int) -> list[str] | None:
    """The steps (``pay R``, ``gold W``, ``free B``) a player would choose to pay ``cost``
    as :func:`cheapest_payment` says, in the order the table asks for them (the gems of
    the cost in R W B G order, one at a time); a step the table takes by itself (the
    only legal way to pay that gem, ``MarketState._settle``) is left out. None: the card
    cannot be paid."""
    plan = cheapest_payment(cost, pile, gold, waiver)
    if plan is None:
        return None
    waived, dice, coins = (dict(part) for part in plan)
    need = {g: cost.count(g) for g in GEMS}
    have = {g: pile.get(g, 0) for g in GEMS}
    free_left, steps = waiver, []
    while any(need.values()):
        g = next(x for x in GEMS if need[x])
        need[g] -= 1
        # the ways the table offers for this gem (MarketState._pay_choices)
        deficit = sum(max(0, need[x] - have[x]) for x in GEMS)
        ways = [kind for kind, ok in (("pay", have[g] > 0),
                                      ("gold", gold > 0 and deficit - free_left <= gold - 1),
                                      ("free", free_left > 0 and deficit - free_left + 1 <= gold)) if ok]
        kind = "free" if waived[g] else "pay" if dice[g] else "gold"
        if kind == "free":
            waived[g] -= 1
            free_left -= 1
        elif kind == "pay":
            dice[g] -= 1
            have[g] -= 1
        else:
            coins[g] -= 1
            gold -= 1
        if kind not in ways:             # never with a plan that pays: the rest by hand
            break
        if len(ways) > 1:
            steps.append(f"{kind} {g}")
    return steps


class MarketPresentation(Presentation):
    """Thief's Market for one viewer in one language."""

    data: Tables

    # -------------------------------------------------------------- words
    def card_name(self, cid: str) -> str:
        return self.term("card", cid)

    def effect(self, cid: str) -> str:
        return self.term("effect", cid)

    def icons(self, cid: str) -> str:
        c = self.data.cards[self.data.index[cid]]
        return " · ".join(self.term("icon", i) for i in c.icons)

    def cost(self, cid: str) -> list[str]:
        return list(self.data.cards[self.data.index[cid]].cost)

    def action_text(self, obs: dict[str, Any], action: str) -> str:
        # the words read only the action, the data, the texts and (for "done") the step
        key = (self.data, self.texts, self.lang, tuple(self.names), action, obs.get("step"))
        text = _WORDS.get(key)
        if text is None:
            text = _WORDS.put(key, self._action_text(obs, action))
        return text

    def _action_text(self, obs: dict[str, Any], action: str) -> str:
        try:
            a = MarketAction.parse(action)
        except Exception:  # noqa: BLE001 - not notation: show it as it is
            return action
        k = a.kind
        if k in ("take", "return") and a.face is not None:
            text = self.t(f"act.{k}", face=a.face)
        elif k == "take_all":
            text = self.t("act.take_all")
        elif k == "steal":
            text = self.t("act.steal", seat=a.seat)
        elif k == "done":
            text = self.t("act.done_return" if obs.get("step") == "return" else "act.done_take")
        elif k == "reroll":
            text = self.t("act.reroll", face=a.face)
        elif k in ("keep", "end"):
            text = self.t(f"act.{k}")
        elif k == "buy":
            if a.card not in self.data.index:
                return action
            text = self.t("act.buy", card=a.card, cost=self.cost(a.card))
        elif k == "use":
            if a.card not in self.data.index:
                return action
            if a.face is not None:
                c = self.data.index[a.card]
                text = self.t("act.use_turn", card=a.card, face=self.data.cards[c].effect.face, to=a.face)
            else:
                text = self.t("act.use", card=a.card)
        else:                                  # pay / gold / free a gem
            text = self.t(f"act.{k}", gem=a.face)
        return text[:1].upper() + text[1:]

    def purchase(self, obs: dict[str, Any], cid: str) -> tuple[list[str], str | None]:
        """The gesture of buying market card ``cid``: the payment steps after ``buy``
        (:func:`payment_steps`, from what the viewer holds) and the question the page
        asks first, naming the whole payment (None when the table leaves no choice:
        buying is then one click)."""
        me = self.viewer
        if me is None:
            return [], None
        tab = [self.data.index[x] for x in obs["tableau"][me]]
        waiver = self.data.holdings(tab).waiver
        cost, pile, gold = self.cost(cid), obs["piles"][me], obs["gold"][me]
        steps = payment_steps(cost, pile, gold, waiver)
        plan = cheapest_payment(cost, pile, gold, waiver)
        if not steps or plan is None:
            return [], None
        waived, dice, coins = plan
        parts = [self.term("obj", g) if k == 1 else self.t(f"obj.{g}.many").replace("#", str(k))
                 for g, k in dice.items() if k]
        if sum(coins.values()):
            parts.append(self.t("confirm.gold", n=sum(coins.values())))
        left_out = [g for g in GEMS for _ in range(waived[g])]
        if not parts:
            return steps, self.t("confirm.buy_free", card=cid, gems=left_out)
        key = "confirm.buy_waive" if left_out else "confirm.buy"
        return steps, self.t(key, card=cid, payment=join_list(parts, self.lang), gems=left_out)

    def prompt(self, obs: dict[str, Any]) -> str | None:
        phase, step = obs["phase"], obs.get("step") or ""
        if phase == "over":
            return self.t("prompt.over")
        current = obs.get("current", -1)
        if self.viewer is None or current != self.viewer:
            return self.t("prompt.wait", player=current, phase=phase)
        me = self.viewer
        if phase == "split":
            if step == "take":
                return self.t("prompt.take", n=obs["objects"][me])
            if step == "return":
                return self.t("prompt.return", victim=obs["victim"])
            last = obs["has_pile"].count(False) == 1
            return self.t("prompt.split_last" if last else "prompt.split_first")
        if phase == "lucky":
            return self.t("prompt.lucky")
        paying = obs.get("paying")
        if paying:
            return self.t("prompt.pay", card=paying["card"], gems=paying["remaining"])
        return self.t("prompt.buy", made=obs.get("buys_made", 0), allowed=obs.get("buys_allowed", 1))

    def info(self, obs: dict[str, Any], ident: str) -> str | None:
        """A card's (or a die face's) full text, for ``info A13`` in the terminal."""
        if ident in self.data.index:
            c = self.data.cards[self.data.index[ident]]
            cost = ", ".join(self.term("face", g) for g in c.cost)
            pts = f" · {c.points} {self.t('ui.points')}" if c.points else ""
            icons = f" · {self.icons(ident)}" if c.icons else ""
            return (f"{ident} {self.card_name(ident)} ({self.t('ui.cost')}: {cost}{pts}{icons})\n"
                    f"  {self.effect(ident)}")
        if ident in FACES or ident == "T":
            return self.t(f"legend.{ident}")
        return None

    # -------------------------------------------------------------- score table
    def score_table(self, obs: dict[str, Any], scores: list[float], winners: list[int]) -> dict[str, Any] | None:
        final = obs.get("final")
        if not final:
            return None
        n = obs["num_players"]
        names = [self.term("player", p) for p in range(n)]
        # the awards show the count they were decided on: "3 (5)" is 3 NP for 5 icons
        rows = [
            [self.t("score.henchmen"), *[f"{f['henchmen_award']} ({h})" for f, h in zip(final, obs["henchmen"])]],
            [self.t("score.gold"), *[f"{f['gold_award']} ({g})" for f, g in zip(final, obs["gold"])]],
            [self.t("score.cards"), *[f["cards"] for f in final]],
            [self.t("score.infamy"), *[f["infamy"] for f in final]],
            [self.t("score.total"), *[f["total"] for f in final]],
        ]
        return {"columns": names, "rows": rows, "tiebreak": self._tiebreak(obs, final)}

    def _tiebreak(self, obs: dict[str, Any], final: list[dict[str, int]]) -> str | None:
        """Which tie-breaker decided (rulebook "Fin du jeu": most cards, then most tokens)."""
        totals = [f["total"] for f in final]
        top = [p for p, t in enumerate(totals) if t == max(totals)]
        if len(top) < 2:
            return None
        cards = {p: len(obs["tableau"][p]) for p in top}
        top = [p for p in top if cards[p] == max(cards.values())]
        if len(top) < 2:
            return self.t("score.tiebreak_cards")
        tokens = {p: obs["infamy"][p] + obs["gold"][p] for p in top}
        top = [p for p in top if tokens[p] == max(tokens.values())]
        return self.t("score.tiebreak_tokens" if len(top) < 2 else "score.tiebreak_shared")

    # -------------------------------------------------------------- terminal
    def dice_words(self, counts: dict[str, int], token: bool = False) -> str:
        parts = [self.term("face", f) + (f" ×{k}" if k > 1 else "") for f, k in counts.items() if k]
        if token:
            parts.append("★ " + self.term("face", "T"))
        return ", ".join(parts) or "-"

    def text_view(self, obs: dict[str, Any]) -> str:
        t = self.data
        n, phase = obs["num_players"], obs["phase"]
        me = self.viewer
        lines = [f"{self.t('ui.round')} {obs['round']} · {self.term('phase', phase)}"]
        if phase != "over" and obs["current"] >= 0:
            lines[0] += f" · {self.term('player', obs['current'])} {self.t('ui.to_act')}"
        if phase == "split":
            lines.append(f"{self.t('ui.center')}: {self.dice_words(obs['center'], obs['token'] == -1)}")
            if obs["step"] == "return":
                lines.append(f"  {self.t('ui.being_returned')}: "
                             f"{self.dice_words(obs['returning'], obs['token'] == -2)}")
        for row in "ABC":
            cards = obs["market"][row]
            if not cards and row > obs["active_row"]:
                continue
            lines.append(f"{self.t('ui.market')} {row} ({self.t('ui.deck')} {obs['deck_sizes'][row]}):")
            for cid in cards:
                c = t.cards[t.index[cid]]
                pts = f" · {c.points} {self.t('ui.points')}" if c.points else ""
                lines.append(f"  {cid:<4} {self.card_name(cid)} ({self.t('ui.cost')}: "
                             f"{', '.join(self.term('face', g) for g in c.cost)}{pts})")
        paying = obs.get("paying")
        if paying:
            lines.append(f"{self.t('ui.paying')} {self.card_name(paying['card'])}: {self.t('ui.still_to_pay')} "
                         + self.term("gems", paying["remaining"]))
        for p in range(n):
            inf = obs["infamy"][p]
            star = " ★" if obs["token"] == p else ""
            you = f" ({self.t('ui.you')})" if p == me and self.t("ui.you").lower() not in \
                self.term("player", p).lower() else ""
            stats = (f"{self.t('ui.gold')} {obs['gold'][p]}, {self.t('ui.henchmen')} {obs['henchmen'][p]}, "
                     f"{self.t('ui.infamy')} {'?' if inf is None else inf}")
            has = obs["has_pile"][p] or phase != "split"
            pile = self.dice_words(obs["piles"][p], obs["token"] == p) if has else self.t("ui.no_pile")
            lines.append(f"{self.term('player', p)}{you}{star}: {stats}")
            lines.append(f"   {self.t('ui.pile')}: {pile}")
            owned = [f"{cid} {self.card_name(cid)}" + (f" ({self.t('ui.used')})" if cid in obs["used"] else "")
                     for cid in obs["tableau"][p]]
            lines.append(f"   {self.t('ui.cards')}: {', '.join(owned) or '-'}")
        if obs.get("final"):
            table = self.score_table(obs, [], [])
            if table:
                for row in table["rows"]:
                    lines.append(f"{row[0]}: " + ", ".join(f"{self.term('player', p)} {v}"
                                                           for p, v in enumerate(row[1:])))
                if table["tiebreak"]:
                    lines.append(table["tiebreak"])
        return "\n".join(lines)

    # -------------------------------------------------------------- the board
    def svg(self, obs: dict[str, Any]) -> str | None:
        return _Board(self, obs).draw()


class _Board:
    """One drawing of the board (kept apart from the words to stay short)."""

    def __init__(self, pres: MarketPresentation, obs: dict[str, Any]) -> None:
        self.p = pres
        self.obs = obs
        self.t = pres.data
        self.legal = obs.get("legal", [])
        narrow = pres.narrow
        # the phone board: one column as wide as the window, cards two by two
        self.W = NARROW_W if narrow else W
        self.per_row = 2 if narrow else 5
        self.card_w = (self.W - 2 * PAD - CARD_GAP) / 2 if narrow else CARD_W
        self.die_size = 32 if narrow else DIE
        self.svg = Svg(self.W, 100, legal=self.legal, recent=obs.get("recent", ()),
                       title=pres.t("name"))
        self.y = 0.0

    def kept(self, key: tuple[Any, ...], draw: Callable[[], Any], store: BoundedMemo | None = None) -> Any:
        """What ``draw()`` adds to the drawing, drawn once and kept under ``key``
        (with the data, texts and language it reads); ``key`` names everything
        else it depends on, the legal actions and recent refs it reads included."""
        return self.svg.piece_of(self, _KEPT if store is None else store,
                                 (self.t, self.p.texts, self.p.lang, *key), draw)

    # ---- pieces
    def die(self, x: float, y: float, face: str, action: str | None = None, size: float | None = None,
            dim: bool = False, pid: str | None = None) -> None:
        with self.svg.moving(pid, f"die-{face}"):
            self._die(x, y, face, action, size, dim)

    def _die(self, x: float, y: float, face: str, action: str | None, size: float | None, dim: bool) -> None:
        size = self.die_size if size is None else size
        label = self.p.action_text(self.obs, action) if action else None
        if x and y:
            self.kept(("die", x, y, face, action, label, size, dim, action in self.svg.legal),
                      lambda: self.draw_die(x, y, face, action, label, size, dim))
        else:
            self.draw_die(x, y, face, action, label, size, dim)

    def draw_die(self, x: float, y: float, face: str, action: str | None, label: str | None, size: float,
                 dim: bool) -> None:
        live = self.svg.open(action, None, label, "die")
        if live:
            self.svg.rect(x - 3, y - 3, size + 6, size + 6, fill="#ffe9a8", stroke="#e8a317", rx=size * .25, width=2)
        draw_face(self.svg, x, y, size, face, dim=dim)
        self.svg.close()

    def token(self, cx: float, cy: float, r: float = 18, action: str | None = None, pid: str | None = None) -> None:
        with self.svg.moving(pid):
            live = self.svg.open(action, None, self.p.action_text(self.obs, action) if action else None, "token")
            self.svg.circle(cx, cy, r, TOKEN_FILL, "#e8a317" if live else INK, 3 if live else 1.2)
            _star(self.svg, cx, cy, r * .7, "#f5c542")
            self.svg.close()

    def coin(self, cx: float, cy: float, r: float, label: str) -> None:
        self.svg.circle(cx, cy, r, GOLD_FILL, "#8a6410", 1.5)
        self.svg.text(cx, cy + FONT * .36, label, FONT, "bold", "#3b2a05", "middle")

    def dice_row(self, x: float, y: float, counts: dict[str, int], verb: str | None = None,
                 size: float | None = None, dim: bool = False, where: str | None = None, gap: float = 6) -> float:
        """The dice of ``counts`` in a row; ``where`` names the place in their
        stable ids (``die-center-R-2``: the second red die in the centre)."""
        size = self.die_size if size is None else size
        for f in FACES:
            for k in range(counts.get(f, 0)):
                self.die(x, y, f, f"{verb} {f}" if verb else None, size, dim,
                         f"die-{where}-{f}-{k + 1}" if where else None)
                x += size + gap
        return x

    # ---- cards
    def card_layout(self, cid: str, w: float, show_cost: bool) -> tuple[list[str], list[str], float]:
        key = ("layout", self.t, self.p.texts, self.p.lang, cid, w, show_cost)
        out: tuple[list[str], list[str], float] | None = _KEPT.get(key)
        if out is None:
            out = _KEPT.put(key, self._card_layout(cid, w, show_cost))
        return out

    def _card_layout(self, cid: str, w: float, show_cost: bool) -> tuple[list[str], list[str], float]:
        name = wrap(self.p.card_name(cid), w - 14, (FONT + 1) * 1.12)[:2]   # bold runs wider
        body = wrap(self.p.effect(cid), w - 12, FONT)
        h = 8 + len(name) * 17 + 6 + (24 if show_cost else 0) + 18 + len(body) * 16 + 6
        return name, body, h

    def card(self, x: float, y: float, w: float, h: float, cid: str, action: str | None,
             show_cost: bool, used: bool = False, targets: Sequence[tuple[str, str]] = ()) -> None:
        label = self.p.action_text(self.obs, action) if action else self.p.card_name(cid)
        then, confirm = self.purchase(action, cid)
        with self.svg.moving(f"card-{cid}"):
            self.kept(("card", x, y, w, h, cid, action, label, show_cost, used, action in self.svg.legal,
                       cid in self.svg.recent, tuple(then), confirm),
                      lambda: self.card_face(x, y, w, h, cid, action, label, show_cost, used, then, confirm))
        # a turn-die ability: one die per face it may turn to, drawn on the card
        if targets:
            tx = x + w - 6 - len(targets) * (SMALL_DIE + 10)
            for action, face in targets:
                self.die(tx, y + h - SMALL_DIE - 8, face, action, SMALL_DIE + 4)
                tx += SMALL_DIE + 10

    def purchase(self, action: str | None, cid: str) -> tuple[list[str], str | None]:
        """A legal ``buy`` carries its payment (one gesture: :meth:`MarketPresentation.purchase`)."""
        if action is None or not action.startswith("buy ") or action not in self.svg.legal:
            return [], None
        return self.p.purchase(self.obs, cid)

    def card_face(self, x: float, y: float, w: float, h: float, cid: str, action: str | None, label: str,
                  show_cost: bool, used: bool, then: Sequence[str] = (), confirm: str | None = None) -> None:
        """A card as printed: name, cost, points or "used", icons and effect."""
        svg, t = self.svg, self.t
        c = t.cards[t.index[cid]]
        name, body, _ = self.card_layout(cid, w, show_cost)
        live = svg.open(action, cid, label, "card", then=then, confirm=confirm)
        svg.rect(x, y, w, h, fill="#e3ddd2" if used else "#fffaf0", stroke="#e8a317" if live else "#8a7d6a",
                 width=3 if live else 1.2)
        band_h = 8 + len(name) * 17
        svg.add(f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{band_h:g}" rx="6" '
                f'fill="{DECK_BAND[c.deck]}"/>')
        for i, line in enumerate(name):
            svg.text(x + 7, y + 18 + i * 17, line, FONT + 1, "bold", "#fff")
        yy = y + band_h + 4
        if show_cost:
            cx = x + 6
            for g in c.cost:
                draw_face(svg, cx, yy, SMALL_DIE, g)
                cx += SMALL_DIE + 3
            yy += 24
        if used:
            svg.rect(x + w - 10 - len(self.p.t("ui.used")) * FONT * .6, yy, len(self.p.t("ui.used")) * FONT * .6 + 6,
                     18, fill="#fbe3e3", stroke="#8b0000", rx=4, width=1.2)
            svg.text(x + w - 7, yy + 13, self.p.t("ui.used"), FONT, "bold", "#8b0000", "end")
        elif c.points:
            svg.text(x + w - 7, yy + 13, f"{c.points} {self.p.t('ui.points')}", FONT + 1, "bold", "#8b0000", "end")
        icons = self.p.icons(cid) or "—"
        if used:   # the mark takes the right of the line: keep the icons short
            icons = wrap(icons, w - 24 - len(self.p.t("ui.used")) * FONT * .6, FONT)[0]
        svg.text(x + 7, yy + 13, icons, FONT, "normal", MUTED)
        yy += 18
        for i, line in enumerate(body):
            svg.text(x + 6, yy + 13 + i * 16, line, FONT, "normal", MUTED if used else INK)
        svg.close()

    def card_grid(self, x0: float, y: float, cards: list[str], action_of: Any, show_cost: bool,
                  used: Sequence[str] = (), per_row: int | None = None) -> float:
        """Cards in rows of ``per_row``; returns the y below them."""
        per_row = per_row or self.per_row
        CARD_W = self.card_w
        for start in range(0, len(cards), per_row):
            row = cards[start:start + per_row]
            extra = {cid: self.targets(cid) for cid in row}
            h = max(self.card_layout(cid, CARD_W, show_cost)[2] + (SMALL_DIE + 10 if extra[cid] else 0)
                    for cid in row)
            for k, cid in enumerate(row):
                self.card(x0 + k * (CARD_W + CARD_GAP), y, CARD_W, h, cid, action_of(cid), show_cost,
                          cid in used, extra[cid])
            y += h + CARD_GAP
        return y

    def targets(self, cid: str) -> list[tuple[str, str]]:
        """``(action, face)`` for each legal "turn a die to" use of an owned card."""
        out = []
        for a in self.legal:
            if a.startswith(f"use {cid} "):
                out.append((a, a.rsplit(" ", 1)[1]))
        return out

    # ---- sections
    def header(self) -> None:
        o, p = self.obs, self.p
        self.y = 26
        head = f"{p.t('ui.round')} {o['round']} · {p.term('phase', o['phase'])}"
        self.svg.text(PAD, self.y, head, 18, "bold")
        cur = o.get("current", -1)
        if o["phase"] != "over" and cur is not None and cur >= 0:
            if self.p.narrow:   # the phone board: who acts goes on a line of its own
                self.y += 22
                self.svg.text(PAD, self.y, f"{p.term('player', cur)} {p.t('ui.to_act')}", 16, "bold",
                              seat_color(cur))
            else:
                self.svg.text(self.W - PAD, self.y, f"{p.term('player', cur)} {p.t('ui.to_act')}", 16, "bold",
                              seat_color(cur), "end")
        self.y += 12

    def legend(self) -> None:
        """The same in every position: kept per width and place."""
        self.y = self.kept(("legend", self.W, self.y), self.draw_legend)

    def draw_legend(self) -> float:
        svg, x, y = self.svg, float(PAD), float(self.y)
        y = svg.fold("legend", self.p.t("ui.legend"), x, y, size=FONT) + 2
        for f in [*FACES, "T"]:
            words = self.p.t(f"legend.{f}")
            w = 26 + len(words) * FONT * .56 + 14
            if x + w > self.W - PAD:
                x, y = PAD, y + 26
            if f == "T":
                self.token(x + 10, y + 10, 10)
            else:
                draw_face(svg, x, y, 20, f)
            svg.text(x + 25, y + 15, words, FONT)
            x += w
        svg.end_fold()
        return y + 34

    def center(self) -> None:
        """The center: while splitting, the dice (and the token) to take, in as many
        lines as the width needs (a phone keeps its dice big enough for a finger), and
        those being put back; in the purchase phase, one line of the dice spent."""
        o, svg, p = self.obs, self.svg, self.p
        split = o["phase"] == "split"
        y = self.y
        count = sum(o["center"].values()) + (o["token"] == -1)
        returning = sum(o.get("returning", {}).values()) + (o["token"] == -2)
        if not split and not count:
            return
        size = self.die_size if split else 24
        title = p.t("ui.center") if split else p.t("ui.spent")
        right = self.W - PAD - 10
        x0: float = PAD + 12
        if split:
            top = y + 28
        else:   # the spent dice beside their title when they fit there
            x0 = PAD + 20 + len(title) * (FONT + 1) * .6
            top = y + 6
            if x0 + count * (size + 6) > right:
                x0, top = PAD + 12, y + 26
        label_w = 12 + len(p.t("ui.being_returned")) * FONT * .6
        mark = len(svg.parts)            # the dice first, to know the lines they take
        at: tuple[float, float] = (x0, top)
        at = self.dice_flow(at, x0, right, o["center"], "take" if split else None, size, not split, "center")
        if o["token"] == -1:
            at = self.flow_place(at, x0, right, size, size)
            self.token(at[0] + size / 2, at[1] + size / 2, size / 2, "take T", pid="token-T")
            at = (at[0] + size + 6, at[1])
        if returning:
            at = self.flow_place(at, x0, right, label_w, size)
            svg.text(at[0] + 4, at[1] + size * .6, p.t("ui.being_returned"), FONT, "bold", MUTED)
            at = (at[0] + label_w, at[1])
            at = self.dice_flow(at, x0, right, o["returning"], None, size, False, "returning")
            if o["token"] == -2:
                at = self.flow_place(at, x0, right, size, size)
                self.token(at[0] + size / 2, at[1] + size / 2, size / 2, pid="token-T")
        pieces = svg.parts[mark:]
        del svg.parts[mark:]
        h = at[1] - y + size + 10 if count or returning else top - y + size + 4
        svg.open("take all", "center", p.action_text(o, "take all") if "take all" in self.legal else None, "zone")
        svg.rect(PAD, y, self.W - 2 * PAD, h, fill="#efe4cc", stroke="#8a7d6a", rx=10)
        svg.text(PAD + 10, y + 20 if split else y + 6 + size * .7, title, FONT + 1, "bold")
        svg.close()
        svg.parts.extend(pieces)
        if not count and split:
            svg.text(PAD + 12, top + size * .6, "—", FONT, "normal", MUTED)
        self.y = y + h + 10

    @staticmethod
    def flow_place(at: tuple[float, float], x0: float, right: float, w: float, size: float) -> tuple[float, float]:
        """Where a piece ``w`` wide goes in lines of dice of ``size``: at ``at``, or at
        the start of the next line."""
        x, y = at
        if x + w > right and x > x0:
            return x0, y + size + 6
        return at

    def dice_flow(self, at: tuple[float, float], x0: float, right: float, counts: dict[str, int],
                  verb: str | None, size: float, dim: bool, where: str) -> tuple[float, float]:
        """:meth:`dice_row` in lines from ``x0`` to ``right``; returns where the next piece goes."""
        for f in FACES:
            for k in range(counts.get(f, 0)):
                x, y = self.flow_place(at, x0, right, size, size)
                self.die(x, y, f, f"{verb} {f}" if verb else None, size, dim, f"die-{where}-{f}-{k + 1}")
                at = (x + size + 6, y)
        return at

    def paying(self) -> None:
        o, svg, p = self.obs, self.svg, self.p
        pay = o.get("paying")
        if not pay:
            return
        y = self.y
        h = 104
        svg.rect(PAD, y, self.W - 2 * PAD, h, fill="#fff3cf", stroke="#c98a0b", rx=10, width=2)
        svg.text(PAD + 10, y + 20, p.t("ui.paying_for", card=pay["card"]), FONT + 2, "bold")
        # one slot per gem still to pay; the gem asked now (the first) takes a die of your
        # pile (clicked there), a gold coin (under the slot) or "one gem less" (the Racket)
        x = PAD + 12
        for i, g in enumerate(pay["remaining"]):
            draw_face(svg, x, y + 30, 34, g, outline=True)
            gold = f"gold {g}"
            if i == 0 and gold in self.legal:
                svg.open(gold, None, p.action_text(o, gold), "coin")
                self.coin(x + 17, y + 86, 15, "1")
                svg.close()
                svg.text(x + 38, y + 91, p.t("ui.gold_coin"), FONT, "bold", "#6b4e0a")
            x += 48 if i else 48 + 30
        free = f"free {pay['remaining'][0]}" if pay["remaining"] else ""
        if free in self.legal:
            label = p.t("ui.waive")
            bw = 24 + len(label) * FONT * .62
            svg.open(free, None, p.action_text(o, free), "waive")
            svg.rect(x + 10, y + 36, bw, 26, fill="#e9f3e1", stroke="#2f8f4e", rx=13)
            svg.text(x + 10 + bw / 2, y + 54, label, FONT, "bold", "#1f5f34", "middle")
            svg.close()
        self.y = y + h + 10

    def market(self) -> None:
        """The market rows, each under its title; an older row that is empty (its deck
        is used up: rulebook "Fin du tour", older rows are never refilled) is left out,
        and rows short enough share a line."""
        o, svg, p = self.obs, self.svg, self.p
        rows = [r for r in "ABC" if o["market"][r] or r == o["active_row"]]
        lines: list[list[str]] = []
        for row in rows:
            if lines and sum(len(o["market"][r]) or 1 for r in lines[-1]) + len(o["market"][row]) <= self.per_row:
                lines[-1].append(row)
            else:
                lines.append([row])
        for line in lines:
            x = float(PAD)
            y = self.y + 24
            bottom = y + 22
            for row in line:
                cards = o["market"][row]
                width = max(1, len(cards)) * (self.card_w + CARD_GAP) - CARD_GAP
                title = f"{p.t('ui.market')} {row} — {p.t('ui.deck')} {row}: {o['deck_sizes'][row]} {p.t('ui.left')}"
                if len(title) * (FONT + 1) * .6 > width:
                    title = f"{p.t('ui.market')} {row}"
                svg.text(x, self.y + 16, title, FONT + 1, "bold")
                if cards:
                    bottom = max(bottom, self.card_grid(x, y, cards, lambda cid: f"buy {cid}", True) + 4)
                else:
                    svg.text(x + 10, y + 14, "—", FONT, "normal", MUTED)
                x += width + CARD_GAP
            self.y = bottom

    def player(self, q: int) -> None:
        """A seat's panel, kept by everything it shows: its counts, pile and
        cards, the legal actions it can hold (every one for the viewer's own
        panel) and which of its parts a recent event named."""
        o, p, legal, recent = self.obs, self.p, self.legal, self.svg.recent
        phase = o["phase"]
        owned = o["tableau"][q]
        if q == p.viewer:
            actions: tuple[Any, ...] = tuple(legal)
        else:
            actions = (f"steal {q + 1}" in legal, tuple(a for a in legal if a.startswith("use ")))
        key = ("player", tuple(p.names), self.W, self.die_size, p.narrow, self.y, q, q == p.viewer, phase,
               o.get("step"), bool(o.get("paying")), o.get("current") == q, o["token"] == q, o["infamy"][q],
               o["gold"][q], o["henchmen"][q], o["has_pile"][q], marshal.dumps(o["piles"][q], 2), tuple(owned),
               tuple(o.get("used", ())) if phase != "over" else (), f"seat:{q}" in recent,
               tuple(cid in recent for cid in owned), actions)
        draw = self.draw_player if q == p.viewer else self.draw_rival
        self.y = self.kept(key, lambda: draw(q), _PANELS)

    def seat_band(self, q: int, y0: float) -> float:
        """A seat's coloured band: its name, the start player token it holds, then gold,
        henchmen and infamy (hidden for the others); returns the y below it."""
        o, svg, p = self.obs, self.svg, self.p
        phase, me = o["phase"], p.viewer
        band = 52 if p.narrow else 30     # the phone board: the counts on a second line
        svg.add(f'<rect x="{PAD:g}" y="{y0:g}" width="{self.W - 2 * PAD:g}" height="{band}" rx="8" '
                f'fill="{seat_color(q)}"/>')
        name = p.term("player", q)
        if q == me and p.t("ui.you").lower() not in name.lower():
            name += f" ({p.t('ui.you')})"
        svg.text(PAD + 10, y0 + 21, name, FONT + 3, "bold", "#fff")
        x = PAD + 22 + len(name) * (FONT + 3) * .6
        if o["token"] == q:
            self.token(x + 12, y0 + 15, 12, pid="token-T-mark")
            svg.text(x + 28, y0 + 20, p.t("ui.holds_token"), FONT, "bold", "#fff")
        inf = o["infamy"][q]
        stats = [f"{p.t('ui.gold')} {o['gold'][q]}", f"{p.t('ui.henchmen')} {o['henchmen'][q]}"]
        if inf is not None:
            stats.append(f"{p.t('ui.your_infamy') if q == me and phase != 'over' else p.t('ui.infamy')} {inf}")
        else:
            stats.append(p.t("ui.infamy_hidden"))
        if p.narrow:
            svg.text(PAD + 10, y0 + 43, " · ".join(stats), FONT + 1, "bold", "#fff")
        else:
            svg.text(self.W - PAD - 10, y0 + 20, "  ·  ".join(stats), FONT + 1, "bold", "#fff", "end")
        return y0 + band

    def draw_rival(self, q: int) -> float:
        """Another seat at a glance: its band, its pile (the steal target) and its cards
        as named chips, each with its full text on hover (``<title>``)."""
        o, svg, p = self.obs, self.svg, self.p
        phase = o["phase"]
        svg.open(None, f"seat:{q}", None, "seat")
        cur = o.get("current") == q and phase != "over"
        y = self.seat_band(q, self.y) + 5
        has = o["has_pile"][q] or phase != "split"
        frame = f"steal {q + 1}" if f"steal {q + 1}" in self.legal else None
        size = 26 if p.narrow else 24
        objects = sum(o["piles"][q].values()) + (o["token"] == q)
        label_w = len(p.t("ui.pile")) * FONT * .62
        inner = max(objects, 1) * (size + 5) if has else len(p.t("ui.no_pile")) * FONT * .6
        ph = size + 10
        pw = self.W - 2 * PAD - 8 if p.narrow else min(self.W - 2 * PAD - 8, 24 + label_w + inner + 8)
        live = svg.open(frame, None, p.action_text(o, frame) if frame else None, "pile")
        svg.rect(PAD + 4, y, pw, ph, fill="#fffdf8" if live else "#f6f1e6", stroke=seat_color(q) if cur else "#b9ad98",
                 rx=8, width=2.5 if cur else 1, extra=' stroke-dasharray="5 3"' if not has else "")
        svg.text(PAD + 12, y + ph / 2 + 5, p.t("ui.pile"), FONT, "bold", MUTED)
        svg.close()
        x = PAD + 18 + label_w
        if has:
            x = self.dice_row(x, y + 5, o["piles"][q], None, size, where=f"pile{q + 1}", gap=5)
            if o["token"] == q:
                self.token(x + size / 2, y + 5 + size / 2, size / 2 - 1, pid="token-T")
        else:
            svg.text(x, y + ph / 2 + 5, p.t("ui.no_pile"), FONT, "normal", MUTED)
        owned = o["tableau"][q]
        if p.narrow and not owned:    # the phone board: "no cards yet" inside the pile's line
            svg.text(self.W - PAD - 12, y + ph / 2 + 5, p.t("ui.no_cards"), FONT, "normal", MUTED, "end")
            y += ph
        elif p.narrow:
            y = self.chips(PAD, y + ph + 5, owned, o.get("used", ()) if phase != "over" else (), 0)
        else:
            y = self.chips(PAD + 4 + pw + 8, y, owned, o.get("used", ()) if phase != "over" else (), ph)
        svg.close()
        return y + 8

    def chips(self, x0: float, y: float, cards: list[str], used: Sequence[str], min_h: float) -> float:
        """Cards as named chips in lines from ``x0`` (the card's full text in its title);
        returns the y below them (at least ``min_h`` below ``y``)."""
        svg, p, t = self.svg, self.p, self.t
        if not cards:
            svg.text(x0 + 6, y + 20, p.t("ui.no_cards"), FONT, "normal", MUTED)
            return y + min_h
        area = self.W - PAD - x0 + CARD_GAP
        per_line = max(1, int(area // ((self.W - 2 * PAD) / 2 if p.narrow else CHIP_W + CARD_GAP)))
        # the chips share the width (longer names fit), a few of them up to a card's width
        w = min(area / min(per_line, len(cards)) - CARD_GAP, CARD_W + 60)
        for k, cid in enumerate(cards):
            cx = x0 + (k % per_line) * (w + CARD_GAP)
            cy = y + (k // per_line) * (CHIP_H + 4)
            c = t.cards[t.index[cid]]
            pts = f"{c.points}" if c.points else ""
            name = p.card_name(cid)
            room = w - 14 - (len(pts) * FONT * .7 + 8 if pts else 0)
            fits = max(4, int(room / (FONT * .68)))   # characters of bold text that fit
            line = name if len(name) <= fits else name[:fits - 1].rstrip(" ,") + "…"
            off = cid in used
            title = f"{name} ({p.icons(cid) or '—'}{', ' + str(c.points) + ' ' + p.t('ui.points') if pts else ''}): " \
                    f"{p.effect(cid)}" + (f" — {p.t('ui.used')}" if off else "")
            with svg.moving(f"card-{cid}"):
                svg.open(None, cid, None, "chip")
                svg.add(f"<title>{escape(title)}</title>")
                svg.rect(cx, cy, w, CHIP_H, fill="#e3ddd2" if off else DECK_BAND[c.deck], stroke="#8a7d6a",
                         rx=6, width=1)
                svg.text(cx + 7, cy + CHIP_H - 7, line, FONT, "bold", MUTED if off else "#fff")
                if pts:
                    svg.text(cx + w - 6, cy + CHIP_H - 7, pts, FONT, "bold", "#8b0000" if off else "#ffe08a", "end")
                svg.close()
        lines = (len(cards) + per_line - 1) // per_line
        return y + max(min_h, lines * (CHIP_H + 4) - 4)

    def draw_player(self, q: int) -> float:
        o, svg, p = self.obs, self.svg, self.p
        y0 = self.y
        phase, me = o["phase"], p.viewer
        color = seat_color(q)
        svg.open(None, f"seat:{q}", None, "seat")
        cur = o.get("current") == q and phase != "over"
        y = self.seat_band(q, y0) + 6
        # the pile: steal it (another's), keep it as it is (yours, Lucky Animal Appendage)
        has = o["has_pile"][q] or phase != "split"
        frame = None
        if f"steal {q + 1}" in self.legal:
            frame = f"steal {q + 1}"
        elif q == me:                      # your own pile: keep it as it is, or stop taking / putting back
            frame = next((a for a in ("keep", "done") if a in self.legal), None)
        DIE = self.die_size
        ph = DIE + 16
        live = svg.open(frame, None, p.action_text(o, frame) if frame else None, "pile")
        svg.rect(PAD + 4, y, self.W - 2 * PAD - 8, ph, fill="#fffdf8" if live else "#f6f1e6",
                 stroke=color if cur else "#b9ad98", rx=8, width=2.5 if cur else 1, extra=' stroke-dasharray="5 3"'
                 if not has else "")
        svg.text(PAD + 14, y + ph / 2 + 5, p.t("ui.pile"), FONT + 1, "bold", MUTED)
        svg.close()
        verb = None
        if q == me:
            if phase == "split" and o["step"] == "return":
                verb = "return"
            elif phase == "lucky":
                verb = "reroll"
            elif o.get("paying"):
                verb = "pay"
        x = PAD + 24 + len(p.t("ui.pile")) * (FONT + 1) * .62
        if has:
            x = self.dice_row(x, y + 8, o["piles"][q], verb, where=f"pile{q + 1}")
            if o["token"] == q:
                self.token(x + DIE / 2, y + 8 + DIE / 2, DIE / 2 - 2, "return T" if verb == "return" else None,
                           pid="token-T")
                x += DIE + 6
        else:
            svg.text(x, y + ph / 2 + 5, p.t("ui.no_pile"), FONT, "normal", MUTED)
        # gold coins beside the pile
        gx = self.W - PAD - 30
        self.coin(gx, y + ph / 2, 16, str(o["gold"][q]))
        y += ph + 6
        owned = o["tableau"][q]
        if owned:
            uses = {}
            for a in self.legal:
                if a.startswith("use ") and a.count(" ") == 1:
                    uses[a[4:]] = a
            used = o.get("used", ()) if phase != "over" else ()
            y = self.card_grid(PAD, y, owned, lambda cid: uses.get(cid), False, used)
        else:
            svg.text(PAD + 14, y + 14, p.t("ui.no_cards"), FONT, "normal", MUTED)
            y += 24
        svg.close()
        return y + 10

    def draw(self) -> str:
        """What a player looks at first comes first. Splitting the loot (and rerolling):
        the center, the viewer's own pile and cards, the others' piles (to steal), then
        the market; purchases: the spent dice, the payment, the market, then the seats;
        at the end, the seats' cards before what is left of the market.
        The others' seats take one compact band each (their cards named, each card's
        text on hover); the dice legend, the same all game, closes the board."""
        o = self.obs
        self.header()
        if o["phase"] in ("split", "lucky", "buy"):
            self.center()
        self.paying()
        seats_first = o["phase"] in ("split", "lucky", "over")
        if not seats_first:
            self.market()
        n, me = o["num_players"], self.p.viewer
        order = [(me + i) % n for i in range(n)] if me is not None else list(range(n))
        for q in order:
            self.player(q)
        if seats_first:
            self.market()
        self.legend()
        self.svg.height = self.y + 6
        return self.svg.done()
