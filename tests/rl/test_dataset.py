"""``thieves dataset``: the Parquet schema, a round trip replayed from the seed, reproducibility."""
from __future__ import annotations

import pytest

pytest.importorskip("numpy", reason="the rl extra (numpy) is not installed")
pa = pytest.importorskip("pyarrow", reason="the rl extra (pyarrow) is not installed")
import numpy as np
import pyarrow.parquet as pq

import thieves
from thieves.cli.main import main
from thieves.rl.dataset import schema, write_dataset
from thieves.rl.driver import Table
from thieves.rl.observe import observation_shape, observation_tensor
from thieves.rl.spaces import action_space

BOTS = ["greedy", "greedy", "random"]


def test_schema_columns_types_and_widths(tmp_path):
    out = tmp_path / "td.parquet"
    write_dataset("thieves-den", BOTS, 1, str(out), seed=2)
    got = pq.read_schema(out)
    assert got.names == ["game_id", "seed", "decision", "ply", "seat", "bot", "observation",
                         "legal_mask", "num_legal", "action", "action_tokens", "action_notation",
                         "score", "rank", "win"]
    assert got.field("observation").type == pa.list_(pa.float32(), observation_shape("thieves-den", 3)[0])
    assert got.field("legal_mask").type == pa.list_(pa.int8(), action_space("thieves-den").n)
    assert got.remove_metadata() == schema("thieves-den", 3)
    assert got.metadata[b"thieves.bots"] == b"greedy,greedy,random"


@pytest.mark.parametrize("slug", ["thiefs-market", "thieves-den"])
def test_round_trip_replays_from_the_seed(tmp_path, slug):
    out = tmp_path / "d.parquet"
    rows = write_dataset(slug, BOTS, 2, str(out), seed=7)
    t = pq.read_table(out)
    assert t.num_rows == rows > 0
    obs = t.column("observation").combine_chunks().flatten().to_numpy().reshape(rows, -1)
    mask = t.column("legal_mask").combine_chunks().flatten().to_numpy().reshape(rows, -1)
    d = t.drop(["observation", "legal_mask"]).to_pylist()
    space = action_space(slug)
    game = thieves.load_game(slug)
    state = None
    for i, r in enumerate(d):
        if r["decision"] == 0:
            assert r["seed"] == 7 + r["game_id"]
            state = game.new_game(3, r["seed"])
        assert mask[i, r["action"]] == 1 and r["action"] == r["action_tokens"][0]
        assert state.players_to_act()[0] == r["seat"] and state.ply == r["ply"]
        assert r["num_legal"] == len(state.legal_actions(r["seat"]))
        assert r["action_notation"] in state.legal_actions(r["seat"])
        assert space.split(r["action_notation"])[0] == r["action"]
        assert np.array_equal(obs[i], observation_tensor(state, r["seat"]))
        assert r["bot"] == BOTS[r["seat"]]
        # the integers of the action, given to a Table in turn, make the recorded action
        table = Table(slug, 3, state=state.clone())
        done = [table.step(tok) for tok in r["action_tokens"]]
        assert done[-1] == r["action_notation"] and all(a is None for a in done[:-1])
        state.apply_action(r["seat"], r["action_notation"])
        if i + 1 == len(d) or d[i + 1]["decision"] == 0:   # the game's last decision
            assert state.is_terminal()
            mine = [x for x in d if x["game_id"] == r["game_id"]]
            scores, winners = state.scores(), state.winners()
            assert all(x["score"] == scores[x["seat"]] and x["win"] == (x["seat"] in winners)
                       for x in mine)
            assert all(x["rank"] == 1 for x in mine if x["win"])
            assert all(x["rank"] > 1 for x in mine if not x["win"])
    assert {r["game_id"] for r in d} == {0, 1}


def test_same_seed_same_file_whatever_the_jobs(tmp_path):
    a, b, c, e = (tmp_path / f"{x}.parquet" for x in "abce")
    assert main(["dataset", "thieves-den", "--games", "3", "--bots", "greedy,random", "--seed", "4",
                 "--out", str(a)]) == 0
    write_dataset("thieves-den", ["greedy", "random"], 3, str(b), seed=4)
    write_dataset("thieves-den", ["greedy", "random"], 3, str(c), seed=4, jobs=2)
    assert a.read_bytes() == b.read_bytes() == c.read_bytes()
    write_dataset("thieves-den", ["greedy", "random"], 3, str(e), seed=5)
    assert pq.read_table(e).column("action_notation") != pq.read_table(a).column("action_notation")


def test_cli_refuses_bad_input(tmp_path):
    out = str(tmp_path / "x.parquet")
    assert main(["dataset", "thieves-den", "--bots", "greedy", "--out", out]) == 2        # 1 seat
    assert main(["dataset", "thieves-den", "--bots", "greedy,nobody", "--out", out]) == 2
    assert main(["dataset", "thieves-den", "--bots", "greedy,greedy", "--games", "0", "--out", out]) == 2
