"""Learn and review (bots/review.py, ``thieves analyze``): figures from the seat's own knowledge,
reproducible from their seed, and the JSON of docs/review.md."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from thieves import load_game
from thieves.bots import make_bot, play_game
from thieves.bots.review import FORMAT, MARKS, evaluate, judge, mark, review, review_budget, to_chance
from thieves.cli.main import main
from thieves.core.errors import ThievesError
from thieves.core.replay import Replay
from thieves.core.rng import Rng

DOCS = Path(__file__).resolve().parents[2] / "docs"
GAMES = [("thiefdom", 3), ("thiefs-market", 3), ("age-of-thieves", 2), ("thieves-den", 3), ("cadwallon", 3)]


def _choices(slug: str, n: int, seed: int, every: int):
    """Positions of a seeded random game where the seat to act has a choice (every ``every``-th)."""
    s = load_game(slug).new_game(n, seed)
    rng = Rng.from_seed(seed)
    k = 0
    while not s.is_terminal():
        to_act = s.players_to_act()
        p = to_act[rng.below(len(to_act))]
        acts = s.legal_actions(p)
        if len(acts) > 1 and k % every == 0:
            yield s, p
        k += 1
        s.apply_action(p, acts[rng.below(len(acts))])


def _other_world(s, p: int, k: int):
    """The same position as ``p`` knows it, the others' hidden cards re-dealt, another future."""
    w = s.determinize(p, 5000 + k)
    w._legal_cache = None
    return w


@pytest.mark.parametrize("slug, n", GAMES)
def test_a_seats_figures_do_not_depend_on_what_it_cannot_know(slug, n):
    checked, wanted = 0, 2 if slug == "age-of-thieves" else 4  # its search plays every game out
    for s, p in _choices(slug, n, seed=11, every=17):
        other = _other_world(s, p, checked)
        assert other.observation(p) == s.observation(p)
        assert other.to_json() != s.to_json() or checked  # some position differs in hidden facts
        played = s.legal_actions(p)[-1]
        a, b = evaluate(s, p, 6, seed=4), evaluate(other, p, 6, seed=4)
        assert repr(a) == repr(b), f"{slug} ply {s.ply}: the figures depend on hidden facts"
        assert judge(a, played) == judge(b, played)
        checked += 1
        if checked == wanted:
            break
    assert checked == wanted


def _record(slug: str = "thieves-den", n: int = 2, seed: int = 2) -> Replay:
    s = load_game(slug).new_game(n, seed)
    play_game(s, [make_bot("greedy", slug, i) for i in range(n)], seed=seed)
    return Replay.of(s)


def test_a_review_is_the_same_from_the_same_seed_with_any_number_of_processes():
    record = _record()
    one = review(record, 5, seed=5)
    assert review(record.to_json(), 5, seed=5) == one
    assert review(record, 5, seed=5, jobs=2) == one
    assert review(record, 5, seed=6, seats=[0])["seats"][0] != one["seats"][0]  # the seed fixes it
    assert one["format"] == FORMAT and one["finished"] and one["winners"]
    decisions = [d for s in one["seats"] for d in s["decisions"]]
    assert decisions and all(d["played"] == record.actions[d["index"]][1] for d in decisions)
    for s in one["seats"]:
        assert all(record.actions[d["index"]][0] == s["seat"] for d in s["decisions"])
        marked = [d for d in s["decisions"] if d["mark"]]
        assert sum(s["marks"].values()) == len(marked)
        assert set(s["worst"]) <= {d["index"] for d in marked}


def test_marks_follow_the_documented_thresholds():
    assert [m for m, _ in MARKS] == ["blunder", "mistake", "inaccuracy"]
    assert mark(0.04, 0.001) is None
    assert mark(0.05, 0.001) == "inaccuracy"
    assert mark(0.12, 0.01) == "mistake"
    assert mark(0.30, 0.01) == "blunder"
    assert mark(0.30, 0.2) is None      # within two standard errors: noise, no mark
    assert mark(0.30, None) is None     # a move tried once has no spread: no mark


def test_a_review_budget_is_iterations_never_a_time():
    assert review_budget("mcts:50").iterations == 50 and review_budget(7).iterations == 7
    with pytest.raises(ThievesError, match="iterations"):
        review_budget("mcts:1s")


def test_the_win_chance_map_keeps_the_order_of_the_values():
    values = [0.05, 0.2, 0.5, 0.8, 0.95]
    for slug, n in GAMES:
        mapped = [to_chance(v, slug, n) for v in values]
        assert mapped == sorted(mapped) and all(0 <= x <= 1 for x in mapped)


def test_the_cli_writes_the_documented_json(tmp_path, capsys):
    jsonschema = pytest.importorskip("jsonschema")
    path = tmp_path / "game.json"
    path.write_text(_record().to_json())
    out = tmp_path / "review.json"
    assert main(["analyze", str(path), "--budget", "mcts:6", "--seed", "3", "--out", str(out)]) == 0
    result = json.loads(out.read_text())
    schema = json.loads((DOCS / "review.schema.json").read_text())
    jsonschema.validate(result, schema)
    assert result["budget"] == 6 and result["review_seed"] == 3
    # without --out the same JSON goes to the standard output
    capsys.readouterr()
    assert main(["analyze", str(path), "--budget", "mcts:6", "--seed", "3"]) == 0
    assert json.loads(capsys.readouterr().out) == result
    assert main(["analyze", str(path), "--budget", "mcts:1s"]) == 2


def test_calibration_reports_brier_scores_against_the_fair_share(tmp_path):
    out = tmp_path / "cal.json"
    assert main(["analyze", "--calibrate", "thieves-den", "--players", "3", "--games", "2", "--per-game", "2",
                 "--budget", "mcts:6", "--out", str(out)]) == 0
    r = json.loads(out.read_text())
    assert r["samples"] == 4 and r["test_samples"] == 2
    assert 0 <= r["brier_raw"] <= 1 and r["brier_fair_share"] is not None and len(r["map"]) == 2
    assert r["brier_raw_test"] is not None and r["brier_heldout"] is not None


def test_a_map_is_kept_only_where_it_beat_the_raw_value_on_unseen_games(tmp_path):
    from thieves.bots.review import write_map
    path = tmp_path / "cal.json"
    result = {"game": "g", "players": 3, "games": 10, "per_game": 4, "budget": 5, "seed": 1, "samples": 40,
              "brier_fair_share_test": 0.22, "brier_raw_test": 0.30, "brier_heldout": 0.20, "map": [0.5, -1.0]}
    assert write_map(result, path)
    assert json.loads(path.read_text())["games"]["g"]["3"]["map"] == [0.5, -1.0]
    assert not write_map({**result, "brier_heldout": 0.31}, path)  # worse than the value as it is
    assert "g" not in json.loads(path.read_text())["games"]
