"""The playtest figures on a known tiny input, and the command end to end."""
import json

import pytest

from thieves import ThievesError, load_game
from thieves.cli.main import main
from thieves.bots.stats import wilson
from thieves.cli.playtest import GameRecord, play_records, summarise

from . import toy_game  # noqa: F401


def _records():
    one = GameRecord(num_players=2, decisions=5, scores=[10, 4], winners=[0], first_player=0,
                     events=[("buy", {"player": 0, "card": "X"}),
                             ("buy", {"player": 1, "card": "Y", "aps": "8, 1"}),
                             ("buy", {"player": 0, "card": "X"}),
                             ("refill", {"card": "Y", "dice": ["R", "R", "B"], "n": 3})],
                     bots=["greedy", "random"], catalogue={"card": ["X", "Y", "Z"]})
    two = GameRecord(num_players=2, decisions=7, scores=[7, 7], winners=[0, 1], first_player=1,
                     events=[("buy", {"player": 1, "card": "X"})], bots=["random", "greedy"],
                     measures={"stuck": 2.0})
    return [one, two]


def test_first_player_share_leaves_out_games_nobody_won():
    won = GameRecord(num_players=2, decisions=5, scores=[3, 1], winners=[0], first_player=0, events=[])
    lost = GameRecord(num_players=2, decisions=5, scores=[1, 3], winners=[1], first_player=0, events=[])
    nobody = GameRecord(num_players=2, decisions=5, scores=[0, 0], winners=[], first_player=0, events=[])
    r = summarise([won, lost, nobody, nobody])
    assert r["first_player"] == {"win_share": 0.5, "fair_share": 0.5, "games": 2,
                                 "low": pytest.approx(0.0945, abs=1e-4), "high": pytest.approx(0.9055, abs=1e-4)}
    assert r["winners"]["nobody"] == 0.5


def test_summary_of_two_known_games():
    r = summarise(_records())
    assert r["games"] == 2 and r["players"] == [2]
    assert r["length"] == {"mean": 6.0, "min": 5.0, "max": 7.0, "sd": 1.0}
    assert r["winners"] == {"shared": 0.5, "nobody": 0.0}
    # game 1: the first player wins; game 2: the first player shares the win
    fp = r["first_player"]
    assert (fp["win_share"], fp["fair_share"], fp["games"]) == (0.75, 0.5, 2)
    assert (fp["low"], fp["high"]) == pytest.approx(wilson(1.5, 2))  # the interval simulate gives
    assert [s["win_share"] for s in r["seats"]] == [0.75, 0.25]
    assert (r["seats"][1]["low"], r["seats"][1]["high"]) == pytest.approx(wilson(0.5, 2))
    assert [s["mean_score"] for s in r["seats"]] == [8.5, 5.5]
    assert r["scores"]["spread"]["mean"] == 3.0 and r["scores"]["winner_margin"]["max"] == 6.0
    # greedy won game 1 from seat 1 and shared game 2 from seat 2
    assert {b: (v["seats"], v["win_share"]) for b, v in r["bots"].items()} == {"greedy": (2, 0.75),
                                                                                 "random": (2, 0.25)}
    assert r["measures"]["stuck"]["mean"] == 2.0
    assert r["events_per_game"] == {"buy": 2.0, "refill": 0.5}


def test_component_figures_credit_the_acting_seat():
    cards = summarise(_records())["components"]["card"]
    x, y, z = cards["X"], cards["Y"], cards["Z"]
    assert list(cards) == ["X", "Y", "Z"]  # busiest first, unused ones listed
    assert (x["mentions"], x["by_key"], x["games"], x["acted"]) == (3, {"buy": 3}, 1.0, 3)
    # every mention of X is by a winner; by chance 1/2, 1/2 and 2/2 of them would be
    assert x["winner_share"] == 1.0 and x["fair_share"] == pytest.approx(2 / 3)
    assert x["lift"] == pytest.approx(1.5)
    assert (y["mentions"], y["by_key"], y["games"], y["acted"]) == (2, {"buy": 1, "refill": 1}, 0.5, 1)
    assert y["winner_share"] == 0.0 and y["lift"] == 0.0
    assert z["mentions"] == 0 and z["winner_share"] is None and z["lift"] is None
    # a list of ids counts each item; readable text ("8, 1") and numbers are not ids
    dice = summarise(_records())["components"]["dice"]
    assert dice["R"]["mentions"] == 2 and dice["B"]["mentions"] == 1
    assert "aps" not in summarise(_records())["components"]


def test_no_games_is_an_error():
    from thieves.core.errors import ThievesError
    with pytest.raises(ThievesError):
        summarise([])


def test_playtest_command_writes_json(tmp_path, capsys):
    out = tmp_path / "r.json"
    assert main(["playtest", "toy-bids", "--games", "3", "--players", "2", "--bots", "random",
                 "--out", str(out)]) == 0
    report = json.loads(out.read_text())
    assert report["games"] == 3 and report["game"] == "toy-bids"
    assert sum(s["win_share"] for s in report["seats"]) + report["winners"]["nobody"] == pytest.approx(1.0)
    assert "first player wins" in capsys.readouterr().out
    assert main(["playtest", "toy-bids", "--games", "2", "--bots", "random,random,random,random,random"]) == 2


def test_a_game_hook_adds_its_measures_and_catalogue():
    recs = play_records("thieves-den", 2, ["random"], 3, seed=5)
    r = summarise(recs)
    sold = r["measures"]["fences sold"]["mean"]
    assert sold == sum(r["measures"][f"{k}-treasure fences sold"]["mean"] for k in (2, 3, 4))
    assert all(0 <= r["measures"][f"{k}-treasure fences: sold / shown"]["max"] <= 1 for k in (2, 3, 4))
    assert len(r["components"]["fence"]) == 42  # every fence listed, sold or not
    assert {rec.first_player for rec in recs} <= {0, 1, 2}


def test_playtest_bots_decide_on_fair_views_never_on_the_real_state():
    from .test_fair_bots import Spy
    spies = []

    def spy(seed):
        spies.append(Spy(seed))
        return spies[-1]

    play_records("thieves-den", 1, [spy], 3, seed=4)
    seen = [x for s in spies for x in s.seen]
    # a fair view has no game seed; the real state's is 4
    assert len(spies) >= 3 and seen and all(seed == 0 for _, seed, _ in seen)


def test_playtest_plays_the_games_simulate_plays_and_their_figures_agree():
    from thieves.bots.match import run_match
    recs = play_records("thieves-den", 6, ["greedy", "random", "random"], 3, seed=7)
    s = run_match("thieves-den", ["greedy", "random", "random"], games=6, players=3, seed=7).summary()
    r = summarise(recs)
    fp = r["first_player"]
    assert (fp["win_share"], fp["games"], fp["low"], fp["high"]) == pytest.approx(
        (s.first_player.rate, s.first_player.games, *s.first_player.interval))
    assert fp["fair_share"] == pytest.approx(s.fair_share)
    assert [v for x in r["seats"] for v in (x["win_share"], x["low"], x["high"])] == pytest.approx(
        [v for x in s.seats for v in (x.rate, *x.interval)])
    assert r["winners"]["nobody"] == s.no_winner / s.games and r["length"]["mean"] == pytest.approx(s.lengths.mean)
    # playtest names a bot as it was given, simulate tells two of one name apart
    assert r["bots"]["greedy"]["win_share"] == pytest.approx(s.entries[0].share.rate)


def test_playtest_on_two_processes_gives_the_same_records_as_on_one():
    args = ("thiefs-market", 4, ["greedy", "random", "random"], 3)
    assert play_records(*args, seed=3, jobs=2) == play_records(*args, seed=3)
    with pytest.raises(ThievesError):
        play_records(*args, jobs=0)


def test_component_figures_test_each_use_and_adjust_for_the_many_compared():
    cards = summarise(_records())["components"]["card"]
    x, y, z = cards["X"], cards["Y"], cards["Z"]
    # X: seat 1 of game 1 (won) and seat 2 of game 2 (half a win): 1.5 of 2 seat-games, the
    # other two 0.5 of 2; pooled 1/2, standard error 1/2, z = 0.5 / 0.5 = 1, p = 0.3173
    assert (x["seat_games"], x["used_win_share"], x["unused_win_share"]) == (2, 0.75, 0.25)
    assert (x["used_low"], x["used_high"]) == pytest.approx(wilson(1.5, 2))
    assert x["p"] == pytest.approx(0.3173, abs=1e-4)
    # three components tested (X, Y and the dice's R, B are not acted): BH over all of them
    assert y["seat_games"] == 1 and y["used_win_share"] == 0.0
    assert z["seat_games"] == 0 and z["p"] is None and z["p_adjusted_bh"] is None
    tested = [c for kind in summarise(_records())["components"].values() for c in kind.values() if c["p"]]
    assert all(c["p_adjusted_bh"] >= c["p"] for c in tested)
