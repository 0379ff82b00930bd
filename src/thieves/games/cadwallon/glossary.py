"""Cadwallon's glossary: every character, talent, arcana card, treasure, mission,
adventure and room, named and explained as the table writes them (server:
``/api/games/<slug>/glossary``)."""
from __future__ import annotations

from typing import Any


def _stats(p: Any, c: Any) -> list[str]:
    out = [f"{p.t('ui.combat')} {c.combat}"]
    if getattr(c, "movement", None) is not None:
        out += [f"{p.t('ui.movement')} {c.movement}", f"{p.t('ui.spirit')} {c.spirit}"]
    return out


def glossary(p: Any) -> list[dict[str, Any]]:
    """The public component list in ``p``'s language (``p``: a CadwallonPresentation)."""
    d = p.data
    out: list[dict[str, Any]] = []
    for gid in d.gang_ids:
        out.append({"id": gid, "kind": "gang", "name": p.term("gang", gid), "text": "",
                    "facts": [p.term("char", c) for c in d.gang_chars[gid]]})
    for cid, c in d.char.items():
        tal = c.talent
        out.append({"id": cid, "kind": "character", "name": p.term("char", cid),
                    "text": f"{p.term('talent', tal)}: {p.t(f'talent.{tal}.effect')}",
                    "facts": [p.term("gang", d.gang_of[cid]), *_stats(p, c)]})
    for group in (d.heroine, d.militia):
        for cid, c in group.items():
            out.append({"id": cid, "kind": "character", "name": p.term("char", cid), "text": "",
                        "facts": _stats(p, c)})
    for tal in d.talent:
        out.append({"id": tal, "kind": "talent", "name": p.term("talent", tal),
                    "text": p.t(f"talent.{tal}.effect"), "facts": []})
    for kind, card in d.card.items():
        out.append({"id": kind, "kind": "card", "name": p.term("card", kind), "text": p.t(f"card.{kind}.effect"),
                    "facts": [f"{card.count} ×"]})
    for tid, t in d.ttype.items():
        out.append({"id": tid, "kind": "treasure", "name": p.term("treasure", tid), "text": "",
                    "facts": [" / ".join(str(v) for v in t.set_values[:3]) + " " + p.t("ui.ducats")]})
    for mid, m in d.mission.items():
        need = ", ".join(f"{n} × {p.term('treasure', t)}" for t, n in m.needs.items())
        facts = [p.t("ui.spirit_test")] if m.spirit_test else []
        out.append({"id": mid, "kind": "mission", "name": p.term("mission", mid),
                    "text": f"{need} → {p.t('ui.reward', n=m.reward)}", "facts": facts})
    for aid, a in d.adventure.items():
        events = [f"{ev.round}: {p.t(f'event.{aid}_{ev.round}')}" for ev in a.events]
        out.append({"id": aid, "kind": "adventure", "name": p.term("adv", aid), "text": " · ".join(events),
                    "facts": []})
    for rid in d.rooms:
        out.append({"id": rid, "kind": "room", "name": p.term("room", rid), "text": "", "facts": []})
    return out
