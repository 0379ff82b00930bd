"""Age of Thieves' glossary: every action card, special action, event, city token
and thief, named and explained as the table writes them (server:
``/api/games/<slug>/glossary``)."""
from __future__ import annotations

from typing import Any


def _card_text(p: Any, cid: str) -> str:
    basic = p.data.cards.basic
    if cid == "move":
        return str(p.t("cardtext.move", sneak=basic.move["upper_steps"], sprint=basic.move["lower_steps"]))
    if cid == "ambush":
        amb = basic.ambush
        return str(p.t("cardtext.ambush", a=amb["upper_draw"], b=amb["lower_draw"], v=amb["lower_violet"]))
    return str(p.t("cardtext." + cid))


def glossary(p: Any) -> list[dict[str, Any]]:
    """The public component list in ``p``'s language (``p``: an AotPresentation)."""
    d = p.data
    out: list[dict[str, Any]] = []
    for cid in ["move", "ambush", *d.general]:
        c = d.general.get(cid)
        facts = [f"{c.copies} ×"] if c is not None else []
        out.append({"id": cid, "kind": "card", "name": p.term("card", cid), "text": _card_text(p, cid),
                    "facts": facts})
    for tid in d.thieves:
        out.append({"id": tid, "kind": "thief", "name": p.term("thief", tid), "text": p.t(f"ability.{tid}"),
                    "facts": []})
        out.append({"id": "sp_" + tid, "kind": "special", "name": p.term("card", "sp_" + tid),
                    "text": p.t(f"cardtext.sp_{tid}"), "facts": [p.term("thief", tid)]})
    for alarm, events in ((False, d.calm_event), (True, d.alarm_event)):
        for eid in events:
            out.append({"id": eid, "kind": "event", "name": p.term("event", eid),
                        "text": p.event_effect({"id": eid, "alarm": alarm}),
                        "facts": [p.t("alarm") if alarm else p.t("calm")]})
    for tok in d.tokens.city_tokens:
        out.append({"id": tok.id, "kind": "token", "name": p.term("token", tok.id), "text": "",
                    "facts": [f"{tok.count} ×"]})
    return out
