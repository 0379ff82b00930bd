"""Thiefdom observation layout (docs/rl.md, "Observation tensors")."""
from __future__ import annotations

import marshal
from collections import defaultdict
from typing import Any, Callable

import numpy as np

from thieves.core.game import State
from thieves.games.thiefdom import setup

from ..hashing import CACHE_BYTES, Blocks, FoldedDetail, Paths, accumulate, dense, vector
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


def _tables(data: Any, n: int) -> tuple[int, int, dict[str, int], int, dict[str, int], int, dict[str, int], int]:
    """What both encoders index by: the city's squares, its sections, the equipment
    and clients by column, a thief's width, the blocks' offsets and the size."""
    cells = _tf_cells(data)
    sections = len({s.section for s in data.sections.values()})
    equip = {e: i for i, e in enumerate(data.equipment)}
    clients = {c: i for i, c in enumerate(data.clients)}
    thief = (cells + 2) + len(GOODS) + 1 + len(equip) + 2
    offs, size = offsets(tf_layout(n, data))
    return cells, sections, equip, len(equip), clients, thief, offs, size


def encoder(state: State) -> tuple[int, Callable[[dict[str, Any], int], np.ndarray]]:
    """The tensor size and the function that fills it from an observation."""
    data = state.data
    n = state.num_players
    cells, sections, equip, E, clients, thief, offs, size = _tables(data, n)
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


def fast_encoder(state: State) -> Callable[[State, int], np.ndarray]:
    """The tensor of :func:`encoder` written straight from the state (the fields the
    layout reads, hidden as ``_observe`` hides them: the others' brawl cards, their
    plans while planning, their draft hands, another's artwork draw, the solo pile)."""
    data = state.data
    n = state.num_players
    cells, sections, equip, E, clients, thief, offs, size = _tables(data, n)
    detail = FoldedDetail(n, frozenset({"plans", "missions_done", "thieves"}), TF_DETAIL)
    o_phase, o_round, o_first, o_order = offs["phase"], offs["round/6"], offs["first"], offs["order"]
    o_to_act, o_terminal, o_vp, o_layout = offs["to_act"], offs["terminal"], offs["vp"], offs["layout"]
    o_hideout, o_thieves, o_stash, o_stamina = offs["hideout"], offs["thieves"], offs["stash"], offs["stamina"]
    o_done, o_figures, o_badges, o_purses = offs["missions_done"], offs["figures"], offs["badges"], offs["purses"]
    o_dungeon, o_display, o_decks = offs["dungeon"], offs["display"], offs["decks"]
    o_discard, o_detail = offs["client_discard"], offs["detail"]
    phase_col = {ph: i for i, ph in enumerate(TF_PHASES)}
    NG = len(GOODS)
    goods = tuple(enumerate(GOODS))
    figures = tuple(enumerate(TF_FIGURES))
    equip_of: dict[str, int | None] = {}
    blocks = Blocks()
    made: dict[tuple[int | bytes, ...], np.ndarray] = {}                   # the folded detail by its sources
    made_limit = max(64, CACHE_BYTES // (4 * TF_DETAIL))

    def equip_col(e: str) -> int | None:
        try:
            return equip_of[e]
        except KeyError:
            got = equip_of[e] = equip.get(e.split(".")[0])
            return got

    def detail_of(s: Any, viewer: int) -> dict[str, Any]:
        """The observation's parts that the detail block hashes, hidden as ``_observe`` hides them."""
        revealed_plans = s.phase != "plan"
        plans = [s.plans[p] if (revealed_plans or p == viewer) else
                 ("placed" if s.plans[p] is not None else None) for p in range(n)]
        dr = s.draft
        draft = None if dr is None else {
            "stage": dr["stage"], "hand": list(dr["hands"][viewer]), "kept": list(dr["kept"][viewer]),
            "hand_sizes": [len(h) for h in dr["hands"]], "kept_sizes": [len(k) for k in dr["kept"]]}
        tu = s.turn
        sub = tu.get("sub") if tu else None
        if sub and sub.get("kind") == "artdraw" and tu["p"] != viewer:
            # the two equipment cards drawn for an artwork reward are seen by their drawer only
            tu = {**tu, "sub": {**sub, "cards": len(sub["cards"])}}
        solo = None if not s.solo else {k: (len(x) if k == "pile" else x) for k, x in s.solo.items()}
        villas = {sp: {"villa": x["villa"], "locked": data.villas[x["villa"]].locked, "art": x["art"]}
                  for sp, x in s.villas.items()}
        # a brawl card is tucked face down: only its owner knows which client it was
        thieves = [[{"ally": th.get("ally"), "used": th.get("used"), "robbed": th.get("robbed"),
                     "blind": th.get("blind"),
                     "brawled": "hidden" if q != viewer and th.get("brawled") is not None else th.get("brawled")}
                    for th in ts] for q, ts in enumerate(s.thieves)]
        return {"plans": plans, "draft": draft, "turn": tu, "tmove": s.tmove, "solo": solo, "final": s.final,
                "villas": villas, "smugglers": s.smugglers, "stacks": s.stacks, "revealed": list(s.revealed),
                "patrol": list(s.patrol), "missions_done": s.missions_done, "hand": None, "allies": None,
                "thieves": thieves}

    def encode(s: Any, viewer: int) -> np.ndarray:
        v: dict[int, float] = {}
        get = v.get
        bcells = s.city.building_cells()

        def cell_of(pos: Any) -> int:
            if type(pos) is int:
                return pos if 0 <= pos < cells else -1
            got = bcells.get(pos) if isinstance(pos, str) else None
            return got[0] if got else -1

        def rel(q: int) -> int:
            return (q - viewer) % n

        v[o_phase + phase_col.get(s.phase, len(TF_PHASES))] = 1.0
        v[o_round] = s.round / 6
        if s.first is not None:
            v[o_first + rel(s.first)] = 1.0
        for k, q in enumerate(setup.turn_order(s)):
            if k < n:
                v[o_order + n * k + rel(q)] = 1.0
        for q in s._players_to_act():
            v[o_to_act + rel(q)] = 1.0
        v[o_terminal] = float(s.is_terminal())
        vp = s.vp
        for q in range(n):
            v[o_vp + rel(q)] = vp[q]
        layout_key = marshal.dumps(s.layout)

        def fill_layout(b: dict[int, float]) -> None:
            for k, entry in enumerate(s.layout[:sections]):
                sec, face, rot = entry
                o = (sections + 6) * k
                b[o + (int(sec) - 1) % sections] = 1.0
                b[o + sections + (face == "B")] = 1.0
                b[o + sections + 2 + int(rot) % 4] = 1.0

        layout_block = blocks.get(("layout", layout_key), sections * (sections + 6), fill_layout)
        for q, h in enumerate(s.hideout):
            c = cell_of(h)
            v[o_hideout + (cells + 1) * rel(q) + (c if c >= 0 else cells)] = 1.0
        seat_bytes: list[bytes] = []
        seat_blocks = []
        for q, ts in enumerate(s.thieves):

            def fill(b: dict[int, float], ts: list[dict[str, Any]] = ts) -> None:
                for t, th in enumerate(ts[:3]):
                    o = thief * t
                    pos = th["pos"]
                    c = cell_of(pos)
                    b[o + (c if c >= 0 else cells)] = 1.0
                    b[o + cells + 1] = float(isinstance(pos, str))          # inside a building
                    o += cells + 2
                    inv = th["inv"]
                    for k, gd in goods:
                        x = inv.get(gd, 0)
                        if x:
                            b[o + k] = x
                    if inv.get("art"):
                        b[o + NG] = len(inv["art"])
                    o += NG + 1
                    for e in th["equip"]:
                        col = equip_col(e)
                        if col is not None:
                            b[o + col] = b.get(o + col, 0.0) + 1.0
                    o += E
                    b[o], b[o + 1] = float(th["brawl"]), float(th["wanted"])

            tb = marshal.dumps(ts)
            seat_bytes.append(tb)
            seat_blocks.append((o_thieves + 3 * thief * rel(q), blocks.get(("thieves", layout_key, tb), 3 * thief, fill)))
        for q, st in enumerate(s.stash):
            o = o_stash + (NG + 1) * rel(q)
            for k, gd in goods:
                x = st.get(gd, 0)
                if x:
                    v[o + k] = x
            if st.get("art"):
                v[o + NG] = len(st["art"])
        for q, x in enumerate(s.stamina):
            if x:
                v[o_stamina + rel(q)] = 1.0
        for q, done in enumerate(s.missions_done):
            v[o_done + rel(q)] = len(done)
        tf = s.tf

        def fill_figures(b: dict[int, float]) -> None:
            for i, fig in figures:
                f = tf.get(fig)
                o = (cells + 5) * i
                c = cell_of(f["cell"]) if f else -1
                b[o + (c if c >= 0 else cells)] = 1.0
                if f and f.get("face") is not None:
                    b[o + cells + 1 + int(f["face"]) % 4] = 1.0

        figs = blocks.get(("figures", layout_key, marshal.dumps(tf)), len(TF_FIGURES) * (cells + 5), fill_figures)
        badges, purses = s.badges, s.purses
        for i, fig in figures[:4]:
            x = badges.get(fig, 0)
            if x:
                v[o_badges + i] = x
            if purses.get(TF_FIGURES[4 + i]):
                v[o_purses + i] = 1.0
        dg = s.dungeon or {}
        for k, gd in goods:
            x = dg.get(gd, 0)
            if x:
                v[o_dungeon + k] = x
        if dg.get("art"):
            v[o_dungeon + NG] = len(dg["art"])
        for e in s.display:
            col = equip_col(e)
            if col is not None:
                v[o_display + col] = get(o_display + col, 0.0) + 1.0
        v[o_decks] = len(s.equip_deck)
        v[o_decks + 1] = len(s.client_deck)
        v[o_decks + 2] = len(s.mission_pile)
        for c in s.client_discard:
            col = clients.get(c)
            if col is not None:
                v[o_discard + col] = get(o_discard + col, 0.0) + 1.0
        # the hashed detail, hidden as _observe hides it; cached by what it is made from
        try:
            raw: tuple[int | bytes, ...] | None = (viewer, marshal.dumps((
                s.phase, s.plans, s.draft, s.turn, s.tmove, s.solo, s.final, s.villas, s.smugglers, s.stacks,
                s.revealed, s.patrol, s.missions_done)), *seat_bytes)
        except ValueError:
            raw = None
        folded = made.get(raw) if raw is not None else None
        if folded is None:
            folded = detail.folded(detail_of(s, viewer), viewer)
            if raw is not None:
                if len(made) >= made_limit:
                    made.clear()
                made[raw] = folded
        out = vector(v, size)
        for o, block in seat_blocks:
            out[o:o + 3 * thief] = block
        out[o_figures:o_figures + len(TF_FIGURES) * (cells + 5)] = figs
        out[o_layout:o_layout + sections * (sections + 6)] = layout_block
        out[o_detail:o_detail + TF_DETAIL] = folded
        return out

    return encode
