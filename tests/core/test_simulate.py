"""``thieves simulate`` and ``run_match``: statistics on known inputs, seats, workers, files, errors."""
from __future__ import annotations

import base64
import csv
import json
import os
import re
import struct

import pytest

from thieves import ThievesError
from thieves.bots.match import GameRecord, load_bot, run_match
from thieves.bots.stats import Spread, summarize, wilson
from thieves.cli.main import main
from thieves.cli.simulate import parse_sweeps

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.mark.parametrize("k, n, lo, hi", [
    (5, 10, 0.2366, 0.7634),   # textbook values (Wilson 1927; Newcombe 1998)
    (0, 10, 0.0, 0.2775),
    (10, 10, 0.7225, 1.0),
    (0, 50, 0.0, 0.0713),      # k = 0: upper bound z^2 / (n + z^2)
])
def test_wilson_interval_values(k, n, lo, hi):
    a, b = wilson(k, n)
    assert round(a, 4) == lo and round(b, 4) == hi


def test_wilson_refuses_impossible_counts():
    with pytest.raises(ValueError):
        wilson(11, 10)
    assert wilson(0, 0) == (0.0, 1.0)


def _rec(i, lineup, entries, scores, winners, decisions, first=0):
    return GameRecord(i, i, 0, lineup, entries, scores, winners, decisions, first)


def test_first_player_share_is_over_the_games_with_a_winner():
    # the first player wins 118 and the second 117 of 300 games, 65 without a winner:
    # about half of the won games, against a fair share of one half
    recs = ([_rec(i, ["A", "B"], [0, 1], [1, 0], [0], 9) for i in range(118)]
            + [_rec(i, ["A", "B"], [0, 1], [0, 1], [1], 9) for i in range(117)]
            + [_rec(i, ["A", "B"], [0, 1], [0, 0], [], 9) for i in range(65)])
    s = summarize(recs, ["A", "B"])
    assert (s.first_player.wins, s.first_player.games) == (118, 235) and s.no_winner == 65
    assert s.first_player.rate == pytest.approx(118 / 235) and s.fair_share == 0.5


def test_simulate_names_the_first_player_the_rules_choose_as_playtest_does():
    from thieves import load_game
    from thieves.cli.playtest import play_records
    # Cadwallon rolls dice for its first player (the seat that decides first is always seat 1):
    # the records name the seat the dice chose at setup
    res = run_match("cadwallon", ["random", "random"], games=8, players=2, seed=3)
    rolled = [load_game("cadwallon").new_game(2, r.seed).first for r in res.records]
    assert [r.first_player for r in res.records] == rolled and set(rolled) == {0, 1}
    played = play_records("cadwallon", 8, ["random", "random"], 2, seed=3)
    assert [rec.first_player for rec in played] == rolled


def test_old_records_get_their_first_player_recomputed_from_the_deal(tmp_path):
    from thieves.bots.first import first_player_at_start
    from thieves.bots.match import read_records, write_records
    res = run_match("thieves-den", ["random", "random"], games=6, players=2, seed=1)
    path = str(tmp_path / "old.jsonl")
    write_records(res.records, path)
    with open(path) as fh:  # as an older version wrote them: the first decision's seat
        lines = [json.loads(line) for line in fh]
    with open(path, "w") as fh:
        for d in lines:
            del d["first_by"]
            d["first_player"] = 0
            fh.write(json.dumps(d) + "\n")
    assert {r.first_by for r in read_records(path)} == {"first decision"}
    again = read_records(path, "thieves-den")
    assert [r.first_player for r in again] == [r.first_player for r in res.records]
    assert {r.first_by for r in again} == {"rules"}
    assert all(r.first_player == first_player_at_start("thieves-den", 2, r.seed) for r in again)
    assert {r.first_player for r in again} == {0, 1}


def test_summary_counts_shared_wins_no_winner_games_seats_and_spreads():
    # two bots A (entry 0) and B (entry 1) at 2 seats
    recs = [
        _rec(0, ["A", "B"], [0, 1], [10, 4], [0], 20, first=0),     # A wins from seat 1
        _rec(1, ["B", "A"], [1, 0], [6, 6], [0, 1], 30, first=0),   # shared: half each
        _rec(2, ["A", "B"], [0, 1], [2, 3], [], 40, first=1),       # nobody wins
        _rec(3, ["B", "A"], [1, 0], [9, 1], [0], 50, first=1),      # B wins from seat 1
    ]
    s = summarize(recs, ["A", "B"])
    assert s.games == 4 and s.no_winner == 1
    a, b = s.entries
    assert (a.share.wins, a.share.games) == (1.5, 4) and (b.share.wins, b.share.games) == (1.5, 4)
    assert [x.wins for x in s.seats] == [2.5, 0.5]
    assert [x.wins for x in a.by_seat] == [1.0, 0.5] and [x.games for x in a.by_seat] == [2, 2]
    # first player, over the games with a winner: seat 1 in games 0 and 1 (wins 1 and 0.5),
    # seat 2 in game 3 (0); game 2 had no winner
    assert (s.first_player.wins, s.first_player.games) == (1.5, 3)
    assert a.scores.mean == pytest.approx((10 + 6 + 2 + 1) / 4)
    assert s.lengths.mean == 35 and s.lengths.median == 35 and s.lengths.q1 == 27.5 and s.lengths.q3 == 42.5
    assert s.lengths.sd == pytest.approx(12.9099, abs=1e-4)


def test_spread_of_one_or_no_values():
    assert Spread.of([3]).sd == 0 and Spread.of([3]).median == 3
    assert Spread.of([]).n == 0


def test_players_are_honoured_and_seats_rotate():
    r = run_match("thieves-den", ["greedy", "random"], games=6, players=3, seed=2)
    assert all(len(g.lineup) == 3 for g in r.records)
    # the first bot sits at each seat in turn, the last fills the table
    assert [g.lineup.index("greedy") for g in r.records] == [0, 1, 2, 0, 1, 2]
    assert all(g.lineup.count("random") == 2 for g in r.records)
    # each deal is played from every seat
    assert [g.seed for g in r.records] == [2, 2, 2, 3, 3, 3]
    s = r.summary()
    assert s.entries[1].share.games == 12 and s.num_players == 3


def test_two_workers_give_the_same_records_as_one():
    args = dict(game="thieves-den", bots=["mcts:6", "greedy", "random"], games=4, seed=11)
    one = run_match(**args)
    two = run_match(**args, jobs=2)
    assert [g.as_dict() for g in one.records] == [g.as_dict() for g in two.records]


@pytest.mark.slow  # Ray's start-up
def test_local_ray_gives_the_same_records_as_one_process():
    pytest.importorskip("ray", reason="Ray is an optional extra: pip install 'thieves[ray]'")
    args = dict(game="thieves-den", bots=["greedy", "random"], games=4, seed=5)
    one = run_match(**args)
    on_ray = run_match(**args, ray_address=None)
    assert [g.as_dict() for g in one.records] == [g.as_dict() for g in on_ray.records]


def test_bring_your_own_bot_by_file_module_or_class():
    path = os.path.join(ROOT, "examples", "score_bot.py")
    bot = load_bot(f"{path}:ScoreBot", "thieves-den", 1)
    assert type(bot).__name__ == "ScoreBot"
    r = run_match("thieves-den", [type(bot), "random"], games=2)
    assert r.labels == ["ScoreBot", "random"] and len(r.records) == 2
    with pytest.raises(ThievesError, match="no class 'Nope'"):
        load_bot(f"{path}:Nope", "thieves-den")
    with pytest.raises(ThievesError, match="cannot import"):
        load_bot("no_such_module_here:Bot", "thieves-den")


@pytest.mark.parametrize("argv, message", [
    (["--games", "0"], "at least 1"),
    (["--games", "-3"], "at least 1"),
    (["-j", "0"], "at least 1"),
    (["--bots", "greedy,genius"], "no bot 'genius'"),
    (["--bots", "greedy,,random"], "comma-separated"),
    (["--bots", "greedy,random,random,random", "--players", "3"], "at most one bot per seat"),
    (["--players", "9"], "2 to 5 players"),
    (["--sweep", "nonsense"], "option=value1,value2"),
    (["--sweep", "no_such_option=1,2"], "no option 'no_such_option'"),
    (["--out", "records.txt"], ".jsonl or .csv"),
    (["--bots", "greedy,mcts:soon"], "budget"),
])
def test_bad_arguments_get_clear_errors(argv, message, capsys):
    assert main(["simulate", "thieves-den", "--no-progress", *argv]) == 2
    out = capsys.readouterr().out
    assert "error" in out and message in " ".join(out.split())


def test_sweeps_are_every_combination():
    assert parse_sweeps(["a=1,2", "b=x,true"]) == [{"a": 1, "b": "x"}, {"a": 1, "b": True},
                                                   {"a": 2, "b": "x"}, {"a": 2, "b": True}]
    assert parse_sweeps(None) == [{}]


def test_cli_prints_statistics_and_writes_records(tmp_path, capsys):
    out_jsonl, out_csv = tmp_path / "r.jsonl", tmp_path / "r.csv"
    assert main(["simulate", "thieves-den", "--bots", "greedy,random", "--games", "4", "--no-progress",
                 "--out", str(out_jsonl)]) == 0
    text = " ".join(capsys.readouterr().out.split())
    for words in ("95% CI", "seat 2", "first player", "no winner: 0 of 4 games", "game length"):
        assert words in text
    lines = [json.loads(x) for x in out_jsonl.read_text().splitlines()]
    assert len(lines) == 4 and {"scores", "winners", "lineup", "decisions", "no_winner"} <= set(lines[0])
    assert main(["simulate", "thieves-den", "--bots", "greedy,random", "--games", "2", "--no-progress",
                 "--out", str(out_csv)]) == 0
    rows = list(csv.DictReader(out_csv.open()))
    assert len(rows) == 2 and {"seat1_bot", "seat2_score", "seat2_win"} <= set(rows[0])


@pytest.mark.slow  # matplotlib draws a dozen charts twice
def test_cli_sweep_and_report(tmp_path, capsys):
    pytest.importorskip("matplotlib", reason="--report needs the 'report' extra")
    report = tmp_path / "report.html"
    assert main(["simulate", "thieves-den", "--bots", "greedy,random", "--games", "2", "--no-progress",
                 "--sweep", "players_order=x", "--report", str(report)]) == 2  # no such option
    assert main(["simulate", "age-of-thieves", "--bots", "greedy,random", "--games", "2", "--no-progress",
                 "--sweep", "specials=false,true", "--report", str(report)]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "specials=False" in text and "specials=True" in text
    page = report.read_text()
    # the two points side by side, their differences tested with Holm-adjusted p-values
    assert "Sweep side by side" in page and "p adjusted (Holm)" in page and "p adjusted (BH)" in page
    # 3 plots for each of the 2 sweep points, and one per kind of component used
    charts = 6 + page.count("<img alt='Win share by ")
    assert page.count("<img alt=") == charts
    assert page.count("<img alt='Win share by action card used'") == 2
    # each chart also drawn narrow for a phone, where the wide one's text would shrink
    assert page.count("<source media='(max-width: 40rem)'") == charts
    assert page.count("data:image/png;base64,") == 2 * charts
    narrow, wide = re.search(r"srcset='data:image/png;base64,([^']+)'><img alt='Scores' "
                             r"src='data:image/png;base64,([^']+)'", page).groups()
    width = [struct.unpack(">I", base64.b64decode(x)[16:20])[0] for x in (narrow, wide)]  # PNG header
    assert 300 < width[0] < 0.7 * width[1]


# -- records written as games end, and a match resumed from them ---------------------------

def _lines(path):
    return [json.loads(x) for x in path.read_text().splitlines()]


def test_each_record_is_saved_before_progress_is_reported(tmp_path):
    from thieves.bots.match import RecordWriter
    path = tmp_path / "r.jsonl"
    seen = []
    with RecordWriter(str(path), 2) as out:
        run_match("thieves-den", ["greedy", "random"], games=3, seed=7, on_record=out.write,
                  progress=lambda k: seen.append((k, len(path.read_text().splitlines()))))
    assert seen == [(1, 1), (2, 2), (3, 3)]
    assert sorted(r["index"] for r in _lines(path)) == [0, 1, 2]


def test_a_match_resumed_from_its_records_plays_only_the_missing_games():
    args = dict(game="thieves-den", bots=["mcts:6", "greedy"], games=4, seed=3)
    full = run_match(**args)
    played = []
    resumed = run_match(**args, done=[full.records[1], full.records[3]], on_record=played.append)
    assert sorted(r.index for r in played) == [0, 2]
    assert [g.as_dict() for g in resumed.records] == [g.as_dict() for g in full.records]
    # a finished match grows: only the new games are played
    more = []
    bigger = run_match(**{**args, "games": 6}, done=full.records, on_record=more.append)
    assert sorted(r.index for r in more) == [4, 5] and len(bigger.records) == 6


@pytest.mark.parametrize("change, message", [
    (dict(seed=4), "from another match"),
    (dict(bots=["greedy", "mcts:6"]), "from another match"),
    (dict(players=3, bots=["mcts:6", "greedy", "greedy"]), "from another match"),
    (dict(games=1), "ask for at least 2"),
    (dict(options={"first_direction": "counter-clockwise"}), "played with options"),
])
def test_records_of_another_match_are_refused(change, message):
    args = dict(game="thieves-den", bots=["mcts:6", "greedy"], games=2, seed=3)
    full = run_match(**args)
    with pytest.raises(ThievesError, match=message):
        run_match(**{**args, **change}, done=full.records)
    with pytest.raises(ThievesError, match="twice"):
        run_match(**args, done=[full.records[0], full.records[0]])
    # an option given at its default value is the same match
    same = run_match(**args, options={"first_direction": "clockwise"}, done=full.records)
    assert [g.as_dict() for g in same.records] == [g.as_dict() for g in full.records]


def test_reading_records_back(tmp_path):
    from thieves.bots.match import RecordWriter, read_records, write_records
    r = run_match("thieves-den", ["greedy", "random"], games=3, seed=2).records
    path = tmp_path / "r.jsonl"
    write_records(r, str(path))
    assert [g.as_dict() for g in read_records(str(path))] == [g.as_dict() for g in r]
    text = path.read_text()
    path.write_text(text + text.splitlines()[0][:40])  # killed while writing a line: dropped
    assert len(read_records(str(path))) == 3
    with RecordWriter(str(path), 2, append=True) as out:  # and cut before new records go on
        out.write(r[0])
    assert path.read_text() == text + text.splitlines()[0] + "\n"
    path.write_text(text.replace(text.splitlines()[1], '{"index": 1}'))
    with pytest.raises(ThievesError, match="line 2: not a game record"):
        read_records(str(path))
    with pytest.raises(ThievesError, match=".jsonl"):
        read_records(str(tmp_path / "r.csv"))


STOPPER = '''
import os
import re
import struct
from thieves.bots import RandomBot
PLAYING = []

class Stopper(RandomBot):
    """Plays at random; in the third game it plays (in its process), it stops the run as
    Ctrl-C does. Each game it starts is noted in games.log beside this file."""
    def choose(self, state, player):
        if self not in PLAYING:
            PLAYING.append(self)
            with open(os.path.join(os.path.dirname(__file__), "games.log"), "a") as fh:
                fh.write("game\\n")
        if PLAYING.index(self) == 2:
            raise KeyboardInterrupt
        return super().choose(state, player)
'''


def test_cli_stopped_run_keeps_its_records_and_resumes(tmp_path, capsys):
    bot = tmp_path / "stopper.py"
    bot.write_text(STOPPER)
    out = tmp_path / "r.jsonl"
    argv = ["simulate", "thieves-den", "--bot", f"{bot}:Stopper", "--bots", "greedy", "--games", "4",
            "--no-progress", "--out", str(out)]
    assert main(argv) == 130
    text = " ".join(capsys.readouterr().out.split())
    assert "stopped: 2 new game records" in text and "--resume" in text
    assert sorted(r["index"] for r in _lines(out)) == [0, 1]
    # the stopping bot is spent now (its module counts on): the same command goes on
    assert main(argv + ["--resume"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "2 game records written" in text and "after the 2 already there" in text
    assert "4 games" in text and sorted(r["index"] for r in _lines(out)) == [0, 1, 2, 3]
    before = out.read_text()
    assert main(argv + ["--resume", "--seed", "9"]) == 2  # another match: refused, file untouched
    assert "another match" in " ".join(capsys.readouterr().out.split())
    assert out.read_text() == before


@pytest.mark.parametrize("extra, message", [
    (["--resume"], "--out FILE.jsonl"),
    (["--resume", "--out", "r.csv"], "--out FILE.jsonl"),
])
def test_resume_needs_a_jsonl_file(extra, message, capsys):
    assert main(["simulate", "thieves-den", "--no-progress", *extra]) == 2
    assert message in " ".join(capsys.readouterr().out.split())


def test_cli_resume_with_a_sweep_splits_the_records_by_option(tmp_path, capsys):
    out = tmp_path / "r.jsonl"
    argv = ["simulate", "age-of-thieves", "--bots", "greedy,random", "--games", "2", "--no-progress",
            "--sweep", "specials=false,true", "--out", str(out)]
    assert main(argv) == 0
    full = sorted(out.read_text().splitlines())
    out.write_text("\n".join(x for x in full if '"specials": true' not in x or '"index": 1' not in x) + "\n")
    assert main(argv + ["--resume"]) == 0
    assert "1 game records written" in " ".join(capsys.readouterr().out.split())
    assert sorted(out.read_text().splitlines()) == full
    assert main(argv[:-4] + ["--sweep", "specials=true", "--out", str(out), "--resume"]) == 2
    assert "does not play" in " ".join(capsys.readouterr().out.split())


def test_a_run_on_processes_that_stops_drops_its_queued_games(tmp_path, capsys):
    # in each worker process the third game raises KeyboardInterrupt, as Ctrl-C does there
    bot = tmp_path / "stopper.py"
    bot.write_text(STOPPER)
    out = tmp_path / "r.jsonl"
    assert main(["simulate", "thieves-den", "--bot", f"{bot}:Stopper", "--bots", "random", "--games", "60",
                 "-j", "2", "--no-progress", "--out", str(out)]) == 130
    assert "stopped:" in capsys.readouterr().out
    assert 2 <= len(_lines(out)) <= 4
    started = len((tmp_path / "games.log").read_text().splitlines())
    assert started <= 12, f"{started} games started: the queued games were played out after the stop"


def test_two_bot_files_of_the_same_name_are_two_bots(tmp_path):
    for folder, name in (("a", "First"), ("b", "Second")):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "bot.py").write_text(f"from thieves.bots import RandomBot\nclass Bot(RandomBot):\n"
                                                  f"    name = {name!r}\n")
    assert load_bot(f"{tmp_path / 'a' / 'bot.py'}:Bot", "thieves-den").name == "First"
    assert load_bot(f"{tmp_path / 'b' / 'bot.py'}:Bot", "thieves-den").name == "Second"


def test_search_effort_is_recorded_per_seat_and_summed_per_bot(capsys):
    r = run_match("thieves-den", ["mcts:7", "greedy"], games=2, seed=5)
    for g in r.records:
        mcts_seat = g.lineup.index("mcts:7")
        effort = g.search[mcts_seat]
        assert g.search[1 - mcts_seat] is None  # greedy does not search
        # every search runs at most its 7 iterations (fewer once its choice is settled)
        assert 0 < effort["decisions"] <= g.decisions and effort["iterations"] <= 7 * effort["decisions"]
    m = r.summary().entries[0].search
    assert m.games == 2 and m.decisions == sum(g.search[g.lineup.index("mcts:7")]["decisions"] for g in r.records)
    assert r.summary().entries[1].search is None
    # known inputs: totals add up over games, seats of other bots are left out
    recs = [GameRecord(0, 0, 0, ["a", "b"], [0, 1], [1.0, 0.0], [0], 10, 0, {}, [],
                       [{"decisions": 4.0, "iterations": 40.0}, None]),
            GameRecord(1, 0, 1, ["b", "a"], [1, 0], [1.0, 0.0], [0], 10, 0, {}, [],
                       [None, {"decisions": 6.0, "iterations": 20.0}])]
    e = summarize(recs, ["a", "b"]).entries[0].search
    assert (e.games, e.per_game, e.iterations_per_decision) == (2, 5.0, 6.0)
    assert main(["simulate", "thieves-den", "--bots", "mcts:7,greedy", "--games", "2", "--seed", "5",
                 "--no-progress"]) == 0
    assert f"mcts:7 searched {m.per_game:.0f} decisions a game" in " ".join(capsys.readouterr().out.split())


CRASHER = '''
from thieves.bots import RandomBot
PLAYING = []

class Crasher(RandomBot):
    """Plays at random; in the third game it plays (in its process) it raises at its
    third decision."""
    def choose(self, state, player):
        if self not in PLAYING:
            PLAYING.append(self)
            self.decisions = 0
        self.decisions += 1
        if PLAYING.index(self) == 2 and self.decisions == 3:
            raise ValueError("boom")
        return super().choose(state, player)
'''


def test_a_failing_bot_is_named_with_its_seat_game_and_move_and_the_records_are_kept(tmp_path, capsys):
    bot = tmp_path / "crasher.py"
    bot.write_text(CRASHER)
    out = tmp_path / "r.jsonl"
    argv = ["simulate", "thiefs-market", "--bot", f"{bot}:Crasher", "--bots", "random", "--players", "3",
            "--games", "5", "--no-progress", "--out", str(out)]
    assert main(argv) == 2
    text = " ".join(capsys.readouterr().out.split())
    assert re.search(r"game 3 of the match \(deal \d+\): '[^']*Crasher', the bot in seat \d failed at move \d+: "
                     r"ValueError: boom", text), text
    assert "2 new game records" in text
    assert sorted(r["index"] for r in _lines(out)) == [0, 1]


def test_with_forfeit_a_failing_bot_loses_that_game_and_the_match_goes_on(tmp_path, capsys):
    bot = tmp_path / "crasher2.py"
    bot.write_text(CRASHER)
    out = tmp_path / "r.jsonl"
    argv = ["simulate", "thiefs-market", "--bot", f"{bot}:Crasher", "--bots", "random", "--players", "3",
            "--games", "5", "--no-progress", "--out", str(out), "--forfeit"]
    assert main(argv) == 0
    records = _lines(out)
    assert sorted(r["index"] for r in records) == [0, 1, 2, 3, 4]
    lost = [r for r in records if r["forfeit"] is not None]
    assert len(lost) == 1 and lost[0]["index"] == 2
    seat = lost[0]["forfeit"]
    assert "Crasher" in lost[0]["lineup"][seat]
    assert sorted(lost[0]["winners"]) == [s for s in range(3) if s != seat]
    assert GameRecord.from_dict(lost[0]).forfeit == seat


@pytest.mark.parametrize("values", [[5, 5, 5], [3, 4, 7], list(range(100, 161)), [168, 211, 177, 192]])
def test_length_histogram_bins_fall_between_whole_numbers(values):
    from thieves.cli.report import whole_bins
    edges = whole_bins(values)
    assert len(edges) - 1 <= 30 and edges[0] < min(values) and edges[-1] > max(values)
    assert all(e % 1 == 0.5 for e in edges)  # halfway between two whole numbers
    widths = {b - a for a, b in zip(edges, edges[1:])}
    assert len(widths) == 1 and widths.pop() % 1 == 0  # the same whole count in every bin


# -- tests of differences, adjusted for many comparisons ---------------------------------

#: Benjamini & Hochberg (1995), section 4.1: 15 p-values of a clinical trial; at 0.05 their
#: procedure rejects the 4 smallest, Holm's (a Bonferroni step-down) the 3 smallest
BH_1995 = [0.0001, 0.0004, 0.0019, 0.0095, 0.0201, 0.0278, 0.0298, 0.0344, 0.0459, 0.3240,
           0.4262, 0.5719, 0.6528, 0.7590, 1.000]


def test_adjusted_p_values_on_the_published_example():
    from thieves.bots.stats import benjamini_hochberg, holm
    bh, hm = benjamini_hochberg(BH_1995), holm(BH_1995)
    assert sum(q <= 0.05 for q in bh) == 4 and sum(q <= 0.05 for q in hm) == 3
    # by hand: BH p_(k) m / k, the smallest from the top down; Holm p_(k) (m - k + 1), the largest so far
    assert bh[:4] == pytest.approx([0.0015, 0.003, 0.0095, 0.035625])
    assert hm[:4] == pytest.approx([0.0015, 0.0056, 0.0247, 0.114])
    assert bh[-1] == 1.0 and hm[-1] == 1.0
    # order kept, a missing test left out of the count
    assert benjamini_hochberg([0.04, None, 0.01]) == pytest.approx([0.04, None, 0.02])
    assert holm([0.04, None, 0.01]) == pytest.approx([0.04, None, 0.02])


def test_benjamini_hochberg_matches_scipy():
    stats = pytest.importorskip("scipy.stats")
    from thieves.bots.stats import benjamini_hochberg
    ps = [0.3, 0.001, 0.04, 0.04, 0.2, 0.9, 0.012]
    assert benjamini_hochberg(ps) == pytest.approx(list(stats.false_discovery_control(ps)))


def test_two_proportion_test():
    from thieves.bots.stats import Share, two_proportion_p
    # 30 of 100 against 45 of 100: z = -2.19
    assert two_proportion_p(Share(30, 100), Share(45, 100)) == pytest.approx(0.02846, abs=1e-5)
    assert two_proportion_p(Share(5, 10), Share(5, 10)) == pytest.approx(1.0)
    assert two_proportion_p(Share(0, 10), Share(0, 10)) is None and two_proportion_p(Share(1, 2), Share(0, 0)) is None


def test_items_show_adjusted_p_values_in_text_csv_and_report(tmp_path, capsys):
    pytest.importorskip("matplotlib", reason="--report needs the 'report' extra")
    items, report = tmp_path / "items.csv", tmp_path / "r.html"
    assert main(["simulate", "thiefs-market", "--bots", "greedy,random", "--players", "3", "--games", "3",
                 "--no-progress", "--items", str(items), "--report", str(report)]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "adj." in text and "adjusted for the" in text and "Benjamini-Hochberg" in text
    rows = list(csv.DictReader(items.open()))
    assert rows and {"name", "p", "p_adjusted_bh", "flag_bh_05", "used_low95"} <= set(rows[0])
    tested = [r for r in rows if r["p"]]
    assert tested and all(float(r["p_adjusted_bh"]) >= float(r["p"]) for r in tested)
    # names from the game's texts, two cards of one name told apart by their ids
    names = [r["name"] for r in rows]
    assert len(set(names)) == len(names) and not any(re.fullmatch(r"C\d+", n) for n in names)
    page = report.read_text()
    assert "p adjusted (BH)" in page and page.count("<tr>") > len(rows)
    assert main(["simulate", "thiefs-market", "--games", "1", "--items", "x.txt"]) == 2


def test_a_sweep_sets_its_points_side_by_side_and_tests_the_differences(tmp_path, capsys):
    from thieves.cli.simulate import sweep_tests
    points = [{"first_direction": d} for d in ("clockwise", "counter-clockwise", "clockwise")]
    results = [(p, run_match("thieves-den", ["greedy", "random"], games=4, seed=1, options=p)) for p in points]
    tests = sweep_tests(results)
    # 3 points: 3 pairs, for each bot and for the first player
    assert [(t[0], t[1], t[2]) for t in tests][:3] == [("greedy", 0, 1), ("greedy", 0, 2), ("greedy", 1, 2)]
    assert len(tests) == 9 and {t[0] for t in tests} == {"greedy", "random", "first player"}
    # points 0 and 2 are the same games: no difference at all
    same = [t[3] for t in tests if t[1:3] == (0, 2) and t[3] is not None]
    assert same and same == pytest.approx([1.0] * len(same))
    assert all(t[4] is None or t[4] >= t[3] for t in tests)  # Holm never lowers a p-value
    assert main(["simulate", "thieves-den", "--bots", "greedy,random", "--games", "2", "--no-progress",
                 "--sweep", "first_direction=clockwise,counter-clockwise"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "sweep side by side" in text and "Holm" in text and "differences between sweep points" in text


def test_the_csv_names_each_seats_components_used(tmp_path):
    out = tmp_path / "r.csv"
    assert main(["simulate", "thiefs-market", "--bots", "greedy,random", "--players", "3", "--games", "2",
                 "--no-progress", "--out", str(out)]) == 0
    rows = list(csv.DictReader(out.open()))
    uses = [json.loads(r[f"seat{s}_uses"]) for r in rows for s in (1, 2, 3)]
    bought = [name for u in uses for name in u.get("card", {})]
    assert bought and not any(re.fullmatch(r"C\d+", n) for n in bought)


def test_the_first_player_is_the_one_the_rules_name():
    from thieves import load_game
    # Thief's Market with the start player token given to seat 1: always seat 1, whoever sits there
    res = run_match("thiefs-market", ["greedy", "random"], games=4, players=3, seed=2,
                    options={"start_player": "first"})
    assert [r.first_player for r in res.records] == [0, 0, 0, 0]
    # by default the token goes to a seat drawn at setup: the record names that seat
    res = run_match("thiefs-market", ["random"], games=6, players=3, seed=2)
    drawn = [load_game("thiefs-market").new_game(3, r.seed).start_player for r in res.records]
    assert [r.first_player for r in res.records] == drawn


def test_resume_refuses_records_played_in_seat_order(tmp_path, capsys):
    """Records from before the order drawn from the deal (no ``order`` field)
    would mix two ways of playing simultaneous choices: refused, file untouched."""
    out = tmp_path / "r.jsonl"
    argv = ["simulate", "thieves-den", "--bots", "random,random", "--games", "2", "--no-progress", "--out", str(out)]
    assert main(argv) == 0
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    assert all(r["order"] == "dealt" for r in lines)
    for r in lines:
        del r["order"]
    out.write_text("".join(json.dumps(r) + "\n" for r in lines))
    before = out.read_text()
    capsys.readouterr()
    assert main(argv + ["--games", "3", "--resume"]) == 2
    assert "seat order" in " ".join(capsys.readouterr().out.split())
    assert out.read_text() == before
