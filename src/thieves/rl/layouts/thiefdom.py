"""Thiefdom observation layout (docs/rl.md, "Observation tensors")."""
from __future__ import annotations

from collections import defaultdict
from typing import Any, Callable

import numpy as np

from thieves.core.game import State

from ..hashing import Paths, accumulate, dense
from . import offsets

GOODS = ("gold", "gem", "brandy", "wine", "badge")
TF_PHASES = ("draft", "buy", "hideout", "plan", "action", "over")
TF_DETAIL = 512          # hashed: plans, the turn and move in progress, draft, allies, missions...
TF_FIGURES = ("gA", "gB", "gC", "gD", "nA", "nB", "nC", "nD", "car")


def tf_layout(num_players: int, data: Any) -> list[tuple[str, int]]:
    """(feature block, width) of the Thiefdom tensor, in order (docs/rl.md)."""
    n = num_players
    cells = _tf_cells(data)
    sections = len({s.section for s in data.sections.values()})
    E, CL = len(data.equipment), len(data.clients)
    thief = (cells + 2) + len(GOODS) + 1 + E + 2
    return [
        ("phase", len(TF_PHASES) + 1), ("round/6", 1), ("first", n), ("order", n * n),
        ("to_act", n), ("terminal", 1), ("vp", n), ("layout", sections * (sections + 2 + 4)),
        ("hideout", n * (cells + 1)), ("thieves", n * 3 * thief),
        ("stash", n * (len(GOODS) + 1)), ("stamina", n), ("missions_done", n),
        ("figures", len(TF_FIGURES) * (cells + 1 + 4)), ("badges", 4), ("purses", 4),
        ("dungeon", len(GOODS) + 1), ("display", E), ("decks", 3), ("client_discard", CL),
        ("detail", TF_DETAIL),
    ]


def _tf_cells(data: Any) -> int:
    sections = len({s.section for s in data.sections.values()})
    return (2 * 7) * ((sections // 2) * 7)       # the assembled city: 2 rows of sections of 7 x 7


def encoder(state: State) -> tuple[int, Callable[[dict[str, Any], int], np.ndarray]]:
    """The tensor size and the function that fills it from an observation."""
    data = state.data
    n = state.num_players
    cells = _tf_cells(data)
    sections = len({s.section for s in data.sections.values()})
    equip = {e: i for i, e in enumerate(data.equipment)}
    E = len(equip)
    clients = {c: i for i, c in enumerate(data.clients)}
    thief = (cells + 2) + len(GOODS) + 1 + E + 2
    offs, size = offsets(tf_layout(n, data))
    detail_paths = Paths()
    detail_seats = frozenset({"plans", "missions_done", "thieves"})

    def encode(obs: dict[str, Any], viewer: int) -> np.ndarray:
        v: defaultdict[int, float] = defaultdict(float)

        def rel(q: int) -> int:
            return (q - viewer) % n

        bcells = obs["bcells"]

        def cell_of(pos: Any) -> int:
            """A square index, a building's first square, or -1."""
            if type(pos) is int:
                return pos if 0 <= pos < cells else -1
            got = bcells.get(pos) if isinstance(pos, str) else None
            return got[0] if got else -1

        ph = obs["phase"]
        v[offs["phase"] + (TF_PHASES.index(ph) if ph in TF_PHASES else len(TF_PHASES))] = 1.0
        v[offs["round/6"]] = obs["round"] / 6
        if obs["first"] is not None:
            v[offs["first"] + rel(obs["first"])] = 1.0
        for k, q in enumerate(obs["order"]):
            if k < n:
                v[offs["order"] + n * k + rel(q)] = 1.0
        for q in obs["to_act"]:
            v[offs["to_act"] + rel(q)] = 1.0
        v[offs["terminal"]] = float(obs["terminal"])
        for q in range(n):
            v[offs["vp"] + rel(q)] = obs["vp"][q]
        for k, entry in enumerate(obs["city"]["layout"][:sections]):
            sec, face, rot = entry
            o = offs["layout"] + (sections + 6) * k
            v[o + (int(sec) - 1) % sections] = 1.0
            v[o + sections + (face == "B")] = 1.0
            v[o + sections + 2 + int(rot) % 4] = 1.0
        for q, h in enumerate(obs["hideouts"]):
            c = cell_of(h)
            v[offs["hideout"] + (cells + 1) * rel(q) + (c if c >= 0 else cells)] = 1.0
        for q, ts in enumerate(obs["thieves"]):
            for t, th in enumerate(ts[:3]):
                o = offs["thieves"] + thief * (3 * rel(q) + t)
                pos = th["pos"]
                c = cell_of(pos)
                v[o + (c if c >= 0 else cells)] = 1.0
                v[o + cells + 1] = float(isinstance(pos, str))          # inside a building
                o += cells + 2
                inv = th["inv"]
                for k, gd in enumerate(GOODS):
                    v[o + k] = inv.get(gd, 0)
                v[o + len(GOODS)] = len(inv.get("art", ()))
                o += len(GOODS) + 1
                for e in th["equip"]:
                    e = e.split(".")[0]
                    if e in equip:
                        v[o + equip[e]] += 1.0
                o += E
                v[o], v[o + 1] = float(th["brawl"]), float(th["wanted"])
        for q, st in enumerate(obs["stash"]):
            o = offs["stash"] + (len(GOODS) + 1) * rel(q)
            for k, gd in enumerate(GOODS):
                v[o + k] = st.get(gd, 0)
            v[o + len(GOODS)] = len(st.get("art", ()))
        for q, x in enumerate(obs["stamina"]):
            v[offs["stamina"] + rel(q)] = float(bool(x))
        for q, done in enumerate(obs["missions_done"]):
            v[offs["missions_done"] + rel(q)] = len(done)
        for i, fig in enumerate(TF_FIGURES):
            f = obs["townsfolk"].get(fig)
            o = offs["figures"] + (cells + 5) * i
            c = cell_of(f["cell"]) if f else -1
            v[o + (c if c >= 0 else cells)] = 1.0
            if f and f.get("face") is not None:
                v[o + cells + 1 + int(f["face"]) % 4] = 1.0
        for i, fig in enumerate(TF_FIGURES[:4]):
            v[offs["badges"] + i] = obs["badges"].get(fig, 0) or 0
            v[offs["purses"] + i] = float(bool(obs["purses"].get(TF_FIGURES[4 + i])))
        dg = obs["dungeon"] or {}
        for k, gd in enumerate(GOODS):
            v[offs["dungeon"] + k] = dg.get(gd, 0)
        v[offs["dungeon"] + len(GOODS)] = len(dg.get("art", ()))
        for e in obs["display"]:
            e = e.split(".")[0]
            if e in equip:
                v[offs["display"] + equip[e]] += 1.0
        v[offs["decks"]] = obs["equip_deck"]
        v[offs["decks"] + 1] = obs["client_deck"]
        v[offs["decks"] + 2] = obs["missions_left"]
        for c in obs["client_discard"]:
            if c in clients:
                v[offs["client_discard"] + clients[c]] += 1.0
        detail = {k: obs.get(k) for k in ("plans", "draft", "turn", "tmove", "solo", "final",
                                          "villas", "smugglers", "stacks", "revealed", "patrol",
                                          "missions_done", "hand", "allies")}
        detail["thieves"] = [[{k: th.get(k) for k in ("ally", "used", "robbed", "blind", "brawled")}
                              for th in ts] for ts in obs["thieves"]]
        o = offs["detail"]
        for i, x in accumulate(detail, n, viewer, detail_seats, detail_paths).items():
            v[o + i % TF_DETAIL] += x
        return dense(v, size)

    return size, encode
