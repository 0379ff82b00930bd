"""The position as plain text for the terminal: the gangs, the chests, the missions, the
viewer's hand and a map of the district with its walls, doors and deployment zones.

Map key (printed under it): each zone is three characters; between two zones side by side
' ' is an open way (street to street), 'D' a door, '#' a red wall and '|' no way through;
between two rows the same marks fill the gap ('   ', ' D ', '###', '---'). In a zone:
two letters name a figure, '$' and a letter a chest (its treasure), '$X' a chest face,
'^' a deployment zone, '=' a portcullis, '::' a roofed building, '+' a room, '.' a street.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .look import COLS, labels

if TYPE_CHECKING:
    from .presentation import CadwallonPresentation

LETTER = {"red": "r", "green": "g", "key": "k", "scroll": "s", "bracelet": "b", "purse": "p"}


def _tt(tid: str) -> str:
    return tid.rstrip("0123456789")


def text_view(p: "CadwallonPresentation", obs: dict[str, Any]) -> str:
    d, t = p.data, p.t

    def seat(q: int) -> str:
        return p.texts.fill(p.lang, "{q:player}", {"q": q}, p.names)

    lines = [t("ui.adventure_is", adventure=obs.get("adventure")) + " · "
             f"{t('ui.round_of', round=obs.get('round'), track=obs.get('track'))}"
             + (f" · {t('ui.alarm')}" if obs.get("alarm") else "") + f" · {t('ui.bank', n=obs.get('bank'))}"]
    if obs.get("portcullis"):
        lines.append(t("ui.term_def", name=t("ui.portcullis"), text=", ".join(obs["portcullis"])))
    pos = obs.get("positions") or {}
    carried = obs.get("carried") or {}
    for q, g in enumerate(obs.get("gangs") or []):
        if g is None:
            continue
        mark = ">" if q in (obs.get("to_act") or []) else " "
        lines.append(mark + t("ui.term_def", name=f"{seat(q)} — {p.term('gang', g)}",
                                   text=f"{obs['ducats'][q]} {t('ui.ducats')}, {t('ui.ap_left', n=obs['ap'][q])}, "
                                        f"{t('ui.cards', n=obs['hand_counts'][q])}"))
        for c in d.gang_chars[g]:
            ch = d.char[c]
            where = (t("ui.escaped") if c in (obs.get("escaped") or []) else
                     p.term("zone", pos[c]) if c in pos else t("ui.not_deployed"))
            flag = "*" if c == obs.get("active") else ("-" if c in (obs.get("activated") or []) else " ")
            loot = ", ".join(p.term("treasure", _tt(x)) for x in carried.get(c, []))
            lines.append(f"   {flag}{labels(d)[c]:<3}{ch.name:<15} {t('ui.combat')} {ch.combat} "
                         f"{t('ui.movement')} {ch.movement + (ch.talent == 'nimble')} {t('ui.spirit')} {ch.spirit} "
                         f"({p.term('talent', ch.talent)}) {where}" + (f" [{loot}]" if loot else ""))
    others = [f"{labels(d)[c]} {d.name_of[c]} {p.term('zone', z)}" for c, z in sorted(pos.items())
              if c not in d.char]
    if others:
        lines.append(" · ".join(others))
    chests = [t("ui.term_def", name=p.term("zone", z),
                text=t("ui.chest_face") if v["sealed"] else p.term("treasure", _tt(v["t"])))
              for z, v in sorted((obs.get("chests") or {}).items())]
    lines.append("$ " + "; ".join(chests))
    for i, mid in enumerate(obs.get("missions") or []):
        if mid:
            m = d.mission[mid]
            needs = ", ".join(f"{n} × {p.term('treasure', k)}" for k, n in m.needs.items())
            lines.append(t("ui.term_def", name=f"{t('ui.missions')} {i + 1}",
                           text=f"{p.term('mission', mid)} — {needs} → {t('ui.reward', n=m.reward)}")
                         + (f" ({t('ui.spirit_test')})" if m.spirit_test else ""))
    if obs.get("hand") is not None:
        lines.append(t("ui.hand_is", n=len(obs["hand"])))
        for k in obs["hand"]:
            lines.append("  " + t("ui.term_def", name=p.term("card", k), text=p.term("card", k + ".effect")))
    return "\n".join(lines + [""] + district_map(p, obs))


def district_map(p: "CadwallonPresentation", obs: dict[str, Any]) -> list[str]:
    d = p.data
    b = d.board
    link: dict[frozenset[str], str] = {}
    for c in b.connections:
        link[frozenset((c.a, c.b))] = "line" if c.kind == "line" else "door"
    for a, z in b.walls:
        link[frozenset((a, z))] = "wall"
    at = {z: c for c, z in (obs.get("positions") or {}).items()}
    chests = obs.get("chests") or {}
    tokens = obs.get("tokens") or {}
    port = set(obs.get("portcullis") or [])

    def cell(z: str) -> str:
        if z not in d.zone:
            return ":::"
        if z in at:
            return f"{labels(d)[at[z]]:<3}"
        if z in chests:
            ch = chests[z]
            return "$X " if ch["sealed"] else f"${LETTER.get(_tt(ch['t']), '?')} "
        if z in tokens:
            return f"{tokens[z][:3]:<3}"
        if z in port:
            return "== "
        if d.zone[z].deployment:
            return " ^ "
        return " + " if d.is_room[z] else " . "

    def between(a: str, z: str, vertical: bool) -> str:
        kind = link.get(frozenset((a, z)), "")  # "": not joined
        if vertical:
            return {"line": "   ", "door": " D ", "wall": "###"}.get(kind, "---")
        return {"line": " ", "door": "D", "wall": "#"}.get(kind, "|")

    rows = ["    " + " ".join(f"{COLS[c]:^3}" for c in range(b.columns))]
    for r in range(b.rows):
        zs = [f"{COLS[c]}{r + 1}" for c in range(b.columns)]
        line = f"{r + 1:>3} "
        for c, z in enumerate(zs):
            line += cell(z)
            if c + 1 < b.columns:
                line += between(z, zs[c + 1], False)
        rows.append(line)
        if r + 1 < b.rows:
            below = [f"{COLS[c]}{r + 2}" for c in range(b.columns)]
            rows.append("    " + " ".join(between(z, w, True) for z, w in zip(zs, below)))
    names = sorted({f"{labels(d)[c]}={d.name_of[c]}" for c in at.values()})
    rows.append(" ".join(names))
    rows.append("' ' " + p.t("ui.line") + " · D " + p.t("ui.door") + " · # " + p.t("ui.wall")
                + " · ^ " + p.t("ui.deployment") + " · == " + p.t("ui.portcullis") + " · :: " + p.t("ui.roofed")
                + " · $X " + p.t("ui.chest_face") + " · "
                + ", ".join(f"${v} {p.term('treasure', k)}" for k, v in LETTER.items() if k in d.ttype))
    return rows
