"""Bot games as per-decision records in Parquet: ``thieves dataset`` (docs/rl.md, "Datasets").

One row per engine decision: who decided, what it saw (the observation tensor of
:func:`thieves.rl.observe.observation_tensor`), what was legal (the mask of the
first integer of the decision, as in the wrappers), what it did (the integers an
agent gives for that action, and its notation) and how the game ended for that
seat (score, rank, win). Bots decide on fair views (:func:`choose_fairly`), as in
every simulation. Game ``g`` deals seed ``seed + g``; bot ``s`` is seeded
``bot_seed(deal, s, "bot")`` and its views ``bot_seed(deal, "views")``, so a file
is the same for a seed whatever the number of worker processes.
"""
from __future__ import annotations

import json
from concurrent.futures import ProcessPoolExecutor
from contextlib import ExitStack
from typing import Any, Iterator, Mapping, Sequence

import numpy as np
# no stubs; the pyproject's mypy section is left to its owners, hence the codes here
import pyarrow as pa  # type: ignore[import-not-found, import-untyped, unused-ignore]
import pyarrow.parquet as pq  # type: ignore[import-not-found, import-untyped, unused-ignore]

import thieves
from thieves.bots import choose_fairly, make_bot
from thieves.bots.fair import bot_seed

from .driver import Table
from .observe import observation_shape, observation_tensor
from .spaces import action_space

__all__ = ["schema", "play_records", "write_dataset", "ROWS_PER_GROUP"]

#: rows gathered before a Parquet row group is written (whole games; same for every -j)
ROWS_PER_GROUP = 4096


def schema(slug: str, num_players: int, data_dir: str | None = None) -> pa.Schema:
    """The columns of a dataset of ``slug`` at ``num_players`` (widths fixed per game and count)."""
    k = observation_shape(slug, num_players, data_dir)[0]
    n = action_space(slug, data_dir).n
    return pa.schema([
        ("game_id", pa.int32()),
        ("seed", pa.int64()),
        ("decision", pa.int32()),
        ("ply", pa.int32()),
        ("seat", pa.int8()),
        ("bot", pa.string()),
        ("observation", pa.list_(pa.float32(), k)),
        ("legal_mask", pa.list_(pa.int8(), n)),
        ("num_legal", pa.int32()),
        ("action", pa.int32()),
        ("action_tokens", pa.list_(pa.int32())),
        ("action_notation", pa.string()),
        ("score", pa.float64()),
        ("rank", pa.int8()),
        ("win", pa.bool_()),
    ])


def _ranks(scores: Sequence[float], winners: Sequence[int]) -> list[int]:
    """1 for the winners (after the game's tie-breakers), then by score; equal seats share."""
    won = set(winners)
    key = [(p in won, scores[p]) for p in range(len(scores))]
    return [1 + sum(1 for q in key if q > key[p]) for p in range(len(scores))]


def play_records(task: tuple[str, Sequence[str], int, int, Mapping[str, Any]]) -> dict[str, Any]:
    """Play game ``g`` of a dataset and return its rows as columns (run in workers too)."""
    slug, bots, seed0, g, options = task
    n = len(bots)
    deal = seed0 + g
    game = thieves.load_game(slug)
    players = [make_bot(name, slug, seed=bot_seed(deal, s, "bot")) for s, name in enumerate(bots)]
    views = bot_seed(deal, "views")
    state = game.new_game(n, deal, dict(options))
    table = Table(slug, n, state=state, options=options)
    space = table.space
    obs: list[np.ndarray] = []
    masks: list[np.ndarray] = []
    cols: dict[str, list[Any]] = {k: [] for k in ("ply", "seat", "num_legal", "action",
                                                   "action_tokens", "action_notation")}
    while not state.is_terminal():
        dec = table.decision
        assert dec is not None  # the game goes on
        p = dec.player
        obs.append(observation_tensor(state, p))
        masks.append(table.mask())
        action = choose_fairly(players[p], state, p, views)
        tokens = table.steps_for(action)
        cols["ply"].append(state.ply)
        cols["seat"].append(p)
        cols["num_legal"].append(len(state.legal_actions(p)))
        cols["action"].append(tokens[0])
        cols["action_tokens"].append(tokens)
        cols["action_notation"].append(action)
        state.apply_action(p, action)
        table._refresh()
    scores = [float(x) for x in state.scores()]
    winners = list(state.winners())
    ranks = _ranks(scores, winners)
    rows = len(obs)
    seats = cols["seat"]
    width = observation_shape(slug, n, options.get("data_dir"))[0]
    return {
        "game_id": [g] * rows, "seed": [deal] * rows, "decision": list(range(rows)),
        "ply": cols["ply"], "seat": seats, "bot": [bots[p] for p in seats],
        "observation": np.stack(obs) if obs else np.zeros((0, width), np.float32),
        "legal_mask": np.stack(masks) if masks else np.zeros((0, space.n), np.int8),
        "num_legal": cols["num_legal"], "action": cols["action"],
        "action_tokens": cols["action_tokens"], "action_notation": cols["action_notation"],
        "score": [scores[p] for p in seats], "rank": [ranks[p] for p in seats],
        "win": [p in winners for p in seats],
    }


def _table(parts: list[dict[str, Any]], sch: pa.Schema) -> pa.Table:
    """One Arrow table from the rows of several games (in game order)."""
    arrays = []
    for field in sch:
        name = field.name
        if isinstance(field.type, pa.FixedSizeListType):
            flat = np.concatenate([p[name] for p in parts]).astype(field.type.value_type.to_pandas_dtype())
            arrays.append(pa.FixedSizeListArray.from_arrays(pa.array(flat.reshape(-1)), field.type.list_size))
        else:
            arrays.append(pa.array([x for p in parts for x in p[name]], type=field.type))
    return pa.Table.from_arrays(arrays, schema=sch)


def write_dataset(slug: str, bots: Sequence[str], games: int, out: str, seed: int = 0,
                  jobs: int = 1, options: Mapping[str, Any] | None = None) -> int:
    """Play ``games`` games of ``slug`` with one bot per seat and write their decisions to the
    Parquet file ``out``; returns the number of rows. The same for every ``jobs``."""
    opts = dict(options or {})
    game = thieves.load_game(slug)
    n = len(bots)
    if not game.min_players <= n <= game.max_players:
        raise ValueError(f"{game.name} is played by {game.min_players} to {game.max_players} "
                         f"players: give one bot per seat, not {n}")
    for name in bots:
        make_bot(name, slug)  # a bad name fails here, before any game is played
    if games < 1 or jobs < 1:
        raise ValueError("--games and -j must be at least 1")
    sch = schema(slug, n, opts.get("data_dir")).with_metadata({
        "thieves.game": slug, "thieves.players": str(n), "thieves.bots": ",".join(bots),
        "thieves.seed": str(seed), "thieves.games": str(games),
        "thieves.options": json.dumps(opts, sort_keys=True),
        "thieves.action_tokens": json.dumps(list(action_space(slug, opts.get("data_dir")).tokens)),
    })
    tasks = [(slug, list(bots), seed, g, opts) for g in range(games)]
    rows = 0
    pending: list[dict[str, Any]] = []
    with ExitStack() as stack:
        if jobs > 1:
            pool = stack.enter_context(ProcessPoolExecutor(max_workers=jobs))
            # every task submitted (and so every worker forked) before Arrow's writer starts
            # any thread; the games come back in order
            parts: Iterator[dict[str, Any]] = pool.map(play_records, tasks)
        else:
            parts = map(play_records, tasks)
        writer = stack.enter_context(pq.ParquetWriter(out, sch, compression="zstd"))
        for part in parts:
            pending.append(part)
            if sum(len(p["seat"]) for p in pending) >= ROWS_PER_GROUP:
                writer.write_table(_table(pending, sch))
                rows += sum(len(p["seat"]) for p in pending)
                pending = []
        if pending:
            writer.write_table(_table(pending, sch))
            rows += sum(len(p["seat"]) for p in pending)
    return rows
