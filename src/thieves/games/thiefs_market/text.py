"""The observation of a position, and the reasons an action is illegal.

Words for people (action texts, the board, the log, the terminal view) are
in ``presentation.py``, from the templates of ``data/i18n.yaml``.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from thieves.core.errors import IllegalAction

from . import effects, scoring
from .actions import MarketAction
from .components import FACES
from .observation import MarketFields, Paying, Row

if TYPE_CHECKING:
    from .state import MarketState

ROWS: tuple[Row, Row, Row] = ("A", "B", "C")


#: dice lists without the token and with it, by face counts
_DICE_LISTS: tuple[dict[tuple[int, ...], list[str]], dict[tuple[int, ...], list[str]]] = ({}, {})


def dice_list(counts: list[int], token: bool = False) -> list[str]:
    """``[2, 0, 1, 0, 0, 0]`` -> ``["R", "R", "B"]``: one face letter per die (event ids),
    then ``"T"`` for the start player token. Cached: the same list object is shared by
    events (log entries are never mutated)."""
    table = _DICE_LISTS[token]
    out = table.get(tuple(counts))
    if out is None:
        out = [f for f, k in zip(FACES, counts) for _ in range(k)] + (["T"] if token else [])
        if len(table) < 100_000:
            table[tuple(counts)] = out
    return out


def face_dict(counts: list[int]) -> dict[str, int]:
    return {f: k for f, k in zip(FACES, counts)}


# ------------------------------------------------------------------ observation
def observe(s: "MarketState", viewer: int | None) -> MarketFields:
    """Everything is public except the infamy counts of the other players (rulebook
    "Matériel": infamy tokens are hidden under the player aid) and the unseen cards
    (deck order, cards left in the box at setup). Its keys and their types:
    :class:`~.observation.MarketFields`."""
    t = s.data
    ids = t.ids
    n = s.num_players
    paying: Paying | None = None
    if s.pay_card >= 0:
        paying = {"card": ids[s.pay_card], "remaining": dice_list(s.paying + [0, 0]),
                  "free_left": effects.discount(s, s.current) - s.waived}
    obs: MarketFields = {
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
        "paying": paying,
        "legal": s.legal_actions(viewer) if viewer is not None else [],
    }
    if s.phase == "over":
        obs["final"] = [scoring.breakdown(s, p) for p in range(n)]
        obs["infamy"] = list(s.infamy)   # the tokens are revealed at the end
    return obs


# ------------------------------------------------------------------ reasons
def explain(s: "MarketState", p: int, action: str) -> str | None:
    """Why a well-formed action is illegal now (None: the generic message)."""
    t = s.data
    try:
        typed = MarketAction.parse(action)
    except IllegalAction as exc:
        return str(exc)
    if typed.card is not None and typed.card not in t.index:
        return f"there is no card {typed.card} in Thief's Market"
    parsed = t.parse.get(action)
    if parsed is None:   # a card with an ability it does not have, or a seat out of range
        if typed.kind == "steal":
            return "there is no such other player"
        return f"{t.names[t.index[typed.card]]} has no such ability"  # type: ignore[index]
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
