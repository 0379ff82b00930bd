"""Words for people: observations, plain-text board, action descriptions, reasons."""
from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

from . import effects, scoring
from .components import FACE_NAMES, FACES, GEMS, load_i18n

if TYPE_CHECKING:
    from .state import MarketState

ROWS = "ABC"


_FACES_STR: dict[tuple[int, ...], str] = {}


def faces_str(counts: list[int]) -> str:
    """``[2, 0, 1, 0, 0, 0]`` -> ``"R R B"`` (``"nothing"`` when empty); cached."""
    key = tuple(counts)
    out = _FACES_STR.get(key)
    if out is None:
        out = " ".join(f for f, k in zip(FACES, counts) for _ in range(k)) or "nothing"
        if len(_FACES_STR) < 100_000:
            _FACES_STR[key] = out
    return out


def face_dict(counts: list[int]) -> dict[str, int]:
    return {f: k for f, k in zip(FACES, counts)}


def pile_str(s: "MarketState", p: int) -> str:
    out = faces_str(s.piles[p])
    if s.token == p:
        out = "T" if out == "nothing" else out + " T"
    return out


def center_str(s: "MarketState") -> str:
    out = faces_str(s.center)
    if s.token == -1:
        out = "T" if out == "nothing" else out + " T"
    return out


# ------------------------------------------------------------------ observation
def observe(s: "MarketState", viewer: int | None) -> dict[str, Any]:
    """Everything is public except the infamy counts of the other players (rulebook
    "Matériel": infamy tokens are hidden under the player aid) and the unseen cards
    (deck order, cards left in the box at setup)."""
    t = s.data
    ids = t.ids
    n = s.num_players
    obs: dict[str, Any] = {
        "phase": s.phase, "step": s.step, "round": s.round, "current": s.current,
        "start_player": s.start_player, "token": s.token,
        "center": face_dict(s.center), "returning": face_dict(s.returning),
        "piles": [face_dict(pile) for pile in s.piles], "has_pile": list(s.has_pile),
        "objects": [s.objects(p) for p in range(n)],
        "victim": s.victim, "dice_in_play": s.num_dice,
        "gold": list(s.gold),
        "infamy": [s.infamy[p] if p == viewer else None for p in range(n)],
        "tableau": [[ids[c] for c in tab] for tab in s.tableau],
        "henchmen": [scoring.henchmen(s, p) for p in range(n)],
        "market": {ROWS[r]: [ids[c] for c in row] for r, row in enumerate(s.rows)},
        "deck_sizes": {ROWS[r]: len(d) for r, d in enumerate(s.decks)},
        "active_row": ROWS[s.active_row],
        "discarded": [ids[c] for c in s.discarded], "box_count": len(s.box),
        "used": [ids[c] for c in s.used],
        "buys_made": s.buys if s.phase == "buy" else 0,
        "buys_allowed": effects.allowed_buys(s, s.current) if s.phase == "buy" else 0,
        "paying": ({"card": ids[s.pay_card], "remaining": faces_str(s.paying + [0, 0])}
                   if s.pay_card >= 0 else None),
        "legal": s.legal_actions(viewer) if viewer is not None else [],
    }
    if s.phase == "over":
        obs["final"] = [scoring.breakdown(s, p) for p in range(n)]
        obs["infamy"] = list(s.infamy)   # the tokens are revealed at the end
    return obs


# ------------------------------------------------------------------ descriptions
@lru_cache(maxsize=8)
def _english(data_dir: str | None) -> dict[str, str]:
    return load_i18n(data_dir).en


def effect_text(s: "MarketState", c: int) -> str:
    """The short English effect text of card ``c`` (from ``data/i18n.yaml``)."""
    return _english(s.options.get("data_dir")).get(f"{s.data.ids[c]}.effect", "")


def describe_action(s: "MarketState", action: str) -> str:
    t = s.data
    parsed = t.parse.get(action)
    if parsed is None:
        return action
    kind, arg = parsed
    if kind == "take":
        return "take the start player token" if arg < 0 else f"take a {FACE_NAMES[FACES[arg]]} die"
    if kind == "take_all":
        return "take every object left in the center"
    if kind == "steal":
        return f"steal the pile of {s.player_name(arg)} ({pile_str(s, arg)})"
    if kind == "return":
        what = "the start player token" if arg < 0 else f"a {FACE_NAMES[FACES[arg]]} die"
        return f"return {what} to the center"
    if kind == "done":
        return "stop taking" if s.step == "take" else "stop returning"
    if kind == "reroll":
        return f"reroll a {FACE_NAMES[FACES[arg]]} die (Lucky Animal Appendage)"
    if kind == "keep":
        return "keep your dice as they are"
    if kind == "buy":
        return f"buy {t.names[arg]} (cost {t.cards[arg].cost}): {effect_text(s, arg)}"
    if kind == "use":
        c, face = arg
        if face >= 0:
            return f"use {t.names[c]}: turn a {t.cards[c].effect.face} die to {FACES[face]}"
        return f"use {t.names[c]}: {effect_text(s, c)}"
    gem = FACE_NAMES[GEMS[arg]]
    if kind == "pay":
        return f"pay the {gem} with a die"
    if kind == "gold":
        return f"pay the {gem} with a gold coin"
    if kind == "free":
        return f"leave out the {gem} (Insurance Racket)"
    return "end your purchase turn"


def explain(s: "MarketState", p: int, action: str) -> str | None:
    """Why a well-formed action is illegal now (None: the generic message)."""
    t = s.data
    parsed = t.parse.get(action)
    if parsed is None:
        return (f"{action!r} is not Thief's Market notation (e.g. 'take R', 'steal 2', "
                f"'buy A7', 'use A1 W', 'pay R', 'end')")
    kind, arg = parsed
    phase, step = s.phase, s.step
    if phase != "split" and kind in ("take", "take_all", "steal", "return", "done"):
        return "the loot has been split; this is the purchase phase"
    if kind in ("reroll", "keep") and phase != "lucky":
        return "rerolls happen only at the start of the purchase phase (Lucky Animal Appendage)"
    if phase == "split":
        if kind in ("buy", "use", "pay", "gold", "free", "end"):
            return "splitting the loot comes first; buying is in the purchase phase"
        if step == "return" and kind != "return":
            return "return at least one object of the stolen pile first (keep at least one)"
        if step == "take" and kind not in ("take", "done"):
            return "you are taking from the center: take more or say 'done'"
        if kind == "steal":
            if arg >= s.num_players or arg == p:
                return "there is no such other player"
            if not s.has_pile[arg]:
                return f"{s.player_name(arg)} has no pile to steal"
            return f"the pile of {s.player_name(arg)} holds only one object: it cannot be stolen"
        if kind == "take" and step == "" and s.has_pile.count(False) == 1:
            return "you are the last player without a pile: take everything ('take all') or steal"
        if kind == "take":
            return "the center holds no such object"
        if kind == "take_all":
            if step == "" and not (any(s.center) or s.token == -1):
                return "the center is empty: steal a pile"
            return "only the last player without a pile takes everything at once; take objects one by one"
        if kind == "return":
            return "your pile holds no such object" if step == "return" else "you have stolen nothing"
        if kind == "done":
            return "take at least one object first" if step == "" else None
        return "you cannot do that while splitting the loot"
    if phase == "lucky":
        if kind == "reroll":
            return "your pile holds no die with that face"
        return "choose a die of your pile to reroll ('reroll R') or 'keep'"
    if step == "pay":
        return "finish paying for the card first ('pay', 'gold' or 'free' the gem asked)"
    if kind == "buy":
        if not any(arg in row for row in s.rows):
            return f"{t.names[arg]} is not in the market"
        if s.buys >= effects.allowed_buys(s, p):
            return "you have made every purchase you may this round"
        return f"you cannot pay {t.cards[arg].cost} with your dice and gold"
    if kind == "use":
        c = arg[0]
        if c not in s.tableau[p]:
            return f"you do not own {t.names[c]}"
        if c in s.used:
            return f"{t.names[c]} has already been used this round"
        return f"{t.names[c]} needs something you do not have now"
    return None


# ------------------------------------------------------------------ terminal view
def render_text(s: "MarketState", viewer: int | None) -> str:
    t = s.data
    n = s.num_players
    lines = [f"Round {s.round} - {'over' if s.phase == 'over' else s.phase}"
             + (f", {s.player_name(s.current)} to act" if s.phase != "over" else "")]
    if s.phase == "split":
        lines.append(f"Center: {center_str(s)}")
        if s.step == "return":
            back = faces_str(s.returning) + (" T" if s.token == -2 else "")
            lines.append(f"{s.player_name(s.current)} stole the pile of {s.player_name(s.victim)}; "
                         f"returning: {back} (return at least one object, keep at least one)")
        elif s.step == "take":
            lines.append(f"{s.player_name(s.current)} is taking objects ('done' to stop)")
    elif s.phase == "buy" and s.current >= 0:
        lines.append(f"Purchases made: {s.buys} of {effects.allowed_buys(s, s.current)}")
    for r, row in enumerate(s.rows):
        if row or r <= s.active_row:
            cards = ", ".join(f"{t.ids[c]} {t.names[c]} [{t.cards[c].cost}]"
                              + (f" {t.points[c]}NP" if t.points[c] else "") for c in row) or "-"
            lines.append(f"Market {ROWS[r]} (deck {len(s.decks[r])}): {cards}")
    final = s.phase == "over"
    for p in range(n):
        inf = s.infamy[p] if (p == viewer or final) else "?"
        mark = " *token*" if s.token == p else ""
        pile = pile_str(s, p) if (s.has_pile[p] or s.phase != "split") else "(no pile)"
        tab = ", ".join(t.names[c] for c in s.tableau[p]) or "-"
        lines.append(f"{s.player_name(p)}{mark}: gold {s.gold[p]}, infamy {inf}, pile {pile}")
        lines.append(f"   cards: {tab}")
    if s.step == "pay":
        lines.append(f"Paying for {t.names[s.pay_card]}: still {faces_str(s.paying + [0, 0])}")
    if final:
        sc = s.scores()
        lines.append("Final: " + ", ".join(f"{s.player_name(p)} {sc[p]}" for p in range(n))
                     + f"; winner(s): {', '.join(s.player_name(w) for w in s.winners())}")
    return "\n".join(lines)
