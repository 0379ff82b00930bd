"""Thieves Den's glossary: every location, fence, power tile, scheme and treasure,
named and explained as the table writes them (server: ``/api/games/<slug>/glossary``)."""
from __future__ import annotations

from typing import Any

from .components import TREASURES


def glossary(p: Any) -> list[dict[str, Any]]:
    """The public component list in ``p``'s language (``p``: a DenPresentation)."""
    d = p.data
    out: list[dict[str, Any]] = []
    for c, loc in d.locations.items():
        facts = [p.term("type", loc.type)] + ([p.t("ui.instant")] if loc.instant else [])
        out.append({"id": c, "kind": "location", "name": p.term("loc", c), "facts": facts,
                    "text": f"{p.ability(c)} · {p.t('ui.owner_bonus')}: {p.bonus(c)}"})
    for fid, f in d.fences.items():
        out.append({"id": fid, "kind": "fence", "name": p.term("fence", fid),
                    "facts": [p.term("ftype", f.type), p.t("ui.majority", n=p._maj(f.type))],
                    "text": f"{p.t('ui.wants')} {p.wants(fid)} → {p.t('ui.prestige', n=f.prestige)}"})
    for tid in d.powers:
        out.append({"id": tid, "kind": "power", "name": p.term("tile", tid), "text": p.tile_text(tid), "facts": []})
    for sid in d.schemes:
        out.append({"id": sid, "kind": "scheme", "name": f"{p.t('ui.scheme_other')} {sid}",
                    "text": p._scheme(sid), "facts": []})
    for t in TREASURES:
        out.append({"id": t, "kind": "treasure", "name": p.term("treasure", t), "text": "", "facts": []})
    return out
