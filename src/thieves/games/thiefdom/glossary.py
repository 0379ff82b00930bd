"""Thiefdom's glossary: every equipment card, client, smuggling mission, artwork,
patrol board and good, named and explained as the table writes them (server:
``/api/games/<slug>/glossary``)."""
from __future__ import annotations

from typing import Any

from .components import GOODS


def _gold(p: Any, n: int) -> str:
    return f"{n} {p.good('gold')}"


def _reward(p: Any, reward: dict[str, int]) -> str:
    parts = []
    for what, n in reward.items():
        if what == "vp":
            parts.append(p.t("ui.vp", vp=n))
        elif what == "equipment":
            parts.append(f"{n} {p.t('ui.equipment')}")
        else:
            parts.append(f"{n} {p.good(what)}")
    return ", ".join(parts)


def glossary(p: Any) -> list[dict[str, Any]]:
    """The public component list in ``p``'s language (``p``: a ThiefdomPresentation)."""
    d = p.data
    out: list[dict[str, Any]] = []
    for eid, e in d.equipment.items():
        out.append({"id": eid, "kind": "equipment", "name": p.card_name(eid), "text": p.t(f"effect.{eid}"),
                    "facts": [_gold(p, e.cost), p.t("ui.vp", vp=e.vp)]})
    for cid, c in d.clients.items():
        power = p.client_power(cid)
        out.append({"id": cid, "kind": "client", "name": p.term("client", cid), "text": p.t(f"effect.{power}"),
                    "facts": [_gold(p, c.cost), p.t("ui.vp", vp=c.vp)]})
    for mid in d.missions:
        out.append({"id": mid, "kind": "mission", "name": p.term("mission", mid), "text": "", "facts": []})
    for aid, art in d.artworks.items():
        out.append({"id": aid, "kind": "artwork", "name": p.term("art", aid), "text": _reward(p, art.reward),
                    "facts": []})
    for pid in d.patrols:
        out.append({"id": pid, "kind": "patrol", "name": p.term("patrol", pid), "text": "",
                    "facts": [p.fig(f) for f in d.patrols[pid].figures]})
    for g in GOODS:
        out.append({"id": g, "kind": "good", "name": p.good(g), "text": "", "facts": []})
    return out
