"""Inventories: 4 loot slots and 4 gold slots per thief, +2 flexible with the Sack.

Rulebook "Les biens": loot (badges, gems, brandy, wine, artworks) goes in the
loot slots, gold in the gold slots; an artwork fills all 4 loot slots.
Equipment "Sac": +2 slots for loot and/or gold.
"""
from __future__ import annotations

LOOT = ("gem", "brandy", "wine", "badge")
GOODS = ("gold",) + LOOT


def empty_inv() -> dict:
    return {"gold": 0, "gem": 0, "brandy": 0, "wine": 0, "badge": 0, "art": []}


def loot_used(inv: dict) -> int:
    return inv["gem"] + inv["brandy"] + inv["wine"] + inv["badge"] + 4 * len(inv["art"])


def extra_slots(thief: dict) -> int:
    return 2 if "sack" in thief["equip"] else 0


def room(thief: dict, good: str) -> int:
    """How many more of ``good`` (or artworks, 4 slots each) the thief can carry."""
    inv = thief["inv"]
    # loot_used and extra_slots, written out (this runs often)
    loot = inv["gem"] + inv["brandy"] + inv["wine"] + inv["badge"] + 4 * len(inv["art"])
    free_extra = (2 if "sack" in thief["equip"] else 0) - max(0, loot - 4) - max(0, inv["gold"] - 4)
    if good == "gold":
        return max(0, 4 - inv["gold"]) + free_extra
    free = max(0, 4 - loot) + free_extra
    if good == "art":
        return free // 4
    return free


def add(thief: dict, good: str, n: int) -> int:
    """Add up to ``n`` of a good; what does not fit stays in the supply. Returns the amount added."""
    k = min(n, room(thief, good))
    if k > 0:
        thief["inv"][good] += k
    return max(k, 0)


def total_goods(inv: dict) -> int:
    return sum(inv[g] for g in GOODS) + len(inv["art"])


def merge_into(dst: dict, src: dict) -> None:
    for g in GOODS:
        dst[g] += src[g]
    dst["art"].extend(src["art"])


def goods_vp(inv: dict) -> int:
    """Final scoring of goods (rulebook "Fin de la partie" 1)."""
    return inv["gold"] // 4 + inv["gem"] // 2 + inv["brandy"] // 2 + inv["badge"] + inv["wine"] + 3 * len(inv["art"])
