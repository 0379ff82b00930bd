"""Thief's Market's glossary: every card, die face and the start player token,
named and explained as the table writes them (server: ``/api/games/<slug>/glossary``)."""
from __future__ import annotations

from typing import Any

from .components import FACES, TOKEN


def glossary(p: Any) -> list[dict[str, Any]]:
    """The public component list in ``p``'s language (``p``: a MarketPresentation)."""
    out: list[dict[str, Any]] = []
    for cid in p.data.ids:
        c = p.data.cards[p.data.index[cid]]
        facts = [f"{p.t('ui.cost')}: " + ", ".join(p.term("face", g) for g in c.cost)]
        if c.points:
            facts.append(f"{c.points} {p.t('ui.points')}")
        if c.icons:
            facts.append(p.icons(cid))
        out.append({"id": cid, "kind": "card", "name": p.card_name(cid), "text": p.effect(cid), "facts": facts})
    for face in FACES + TOKEN:
        out.append({"id": face, "kind": "token" if face == TOKEN else "die_face",
                    "name": p.term("face", face), "text": p.t(f"legend.{face}"), "facts": []})
    return out
