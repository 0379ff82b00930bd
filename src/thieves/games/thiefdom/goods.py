"""Inventories: 4 loot slots and 4 gold slots per thief, +2 flexible with the Sack.

Rulebook "Les biens": loot (badges, gems, brandy, wine, artworks) goes in the
loot slots, gold in the gold slots; an artwork fills all 4 loot slots.
Equipment "Sac": +2 slots for loot and/or gold.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .state import ThiefdomState

LOOT = ("gem", "brandy", "wine", "badge")
GOODS = ("gold",) + LOOT
#: a player's or thief's goods: a count per good and a list of artworks under "art"
Inventory = dict[str, Any]
#: a thief, as the state keeps it (square or building, inventory, cards, flags)
Thief = dict[str, Any]


def empty_inv() -> Inventory:
    return {"gold": 0, "gem": 0, "brandy": 0, "wine": 0, "badge": 0, "art": []}


def loot_used(inv: Inventory) -> int:
    used: int = inv["gem"] + inv["brandy"] + inv["wine"] + inv["badge"] + 4 * len(inv["art"])
    return used


def extra_slots(thief: Thief) -> int:
    return 2 if "sack" in thief["equip"] else 0


def room(thief: Thief, good: str) -> int:
    """How many more of ``good`` (or artworks, 4 slots each) the thief can carry."""
    inv = thief["inv"]
    # loot_used and extra_slots, written out (this runs often)
    loot: int = inv["gem"] + inv["brandy"] + inv["wine"] + inv["badge"] + 4 * len(inv["art"])
    gold: int = inv["gold"]
    free_extra = (2 if "sack" in thief["equip"] else 0) - max(0, loot - 4) - max(0, gold - 4)
    if good == "gold":
        return max(0, 4 - gold) + free_extra
    free = max(0, 4 - loot) + free_extra
    if good == "art":
        return free // 4
    return free


def add(thief: Thief, good: str, n: int) -> int:
    """Add up to ``n`` of a good; what does not fit stays in the supply. Returns the amount added."""
    k = min(n, room(thief, good))
    if k > 0:
        thief["inv"][good] += k
    return max(k, 0)


def total_goods(inv: Inventory) -> int:
    n: int = sum(inv[g] for g in GOODS) + len(inv["art"])
    return n


def merge_into(dst: Inventory, src: Inventory) -> None:
    for g in GOODS:
        dst[g] += src[g]
    dst["art"].extend(src["art"])


def goods_vp(inv: Inventory) -> int:
    """Final scoring of goods (rulebook "Fin de la partie" 1)."""
    vp: int = inv["gold"] // 4 + inv["gem"] // 2 + inv["brandy"] // 2 + inv["badge"] + inv["wine"] + 3 * len(inv["art"])
    return vp


def gain(state: ThiefdomState, p: int, n: int) -> None:
    """Player ``p`` moves ``n`` steps on the VP track, which never goes below 0."""
    state.vp[p] = max(0, state.vp[p] + n)
