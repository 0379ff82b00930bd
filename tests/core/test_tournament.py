"""``thieves tournament``: schedules with every seat played equally, forfeits named and never
fatal, time limits, fair views only, the same results on worker processes, ratings."""
from __future__ import annotations

import json
import threading
import time

import pytest

from thieves import ThievesError
from thieves.bots import RandomBot
from thieves.bots import tournament as tm
from thieves.bots.base import Bot
from thieves.bots.tournament import places, round_robin, run_tournament
from thieves.cli.main import main
from thieves.core.game import State
from thieves.core.registry import load_game

SLUG = "thieves-den"  # 2 to 5 players, quick games


class Crashy(RandomBot):
    """Plays at random, then raises on its third decision."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.asked = 0

    def choose(self, state, player):
        self.asked += 1
        if self.asked == 3:
            raise RuntimeError("the bug on the third decision")
        return super().choose(state, player)


class Cheater(Bot):
    """Answers an action that is never legal."""

    def choose(self, state, player):
        return "take everything"


class Unbuildable(Bot):
    def __init__(self, seed: int = 0) -> None:
        raise ValueError("no configuration file")


class Quitter(RandomBot):
    """Ends the program on its first decision."""

    def choose(self, state, player):
        raise SystemExit("bye")


class Sleepy(RandomBot):
    """Sleeps longer than the test's time limit on its first decision."""

    def choose(self, state, player):
        time.sleep(0.4)
        return super().choose(state, player)


class Spinning(RandomBot):
    """Never answers: a busy loop (a bot's own ``except Exception`` does not save it)."""

    def choose(self, state, player):
        while True:
            try:
                pass
            except Exception:  # noqa: BLE001
                pass


def _game(t, bot: str):
    return [g for g in t.games if any(f.bot == bot for f in g.failures)]


def test_round_robin_plays_every_table_and_every_seat_equally():
    schedule = round_robin(4, 3, games=5, seed=1)  # 5 games rounded up to 2 deals x 3 seats
    tables = {tuple(sorted(entries)) for _, _, entries, _, _ in schedule}
    assert tables == {(0, 1, 2), (0, 1, 3), (0, 2, 3), (1, 2, 3)}
    assert len(schedule) == 4 * 6 and [i for i, *_ in schedule] == list(range(24))
    for e in range(4):
        seats = [entries.index(e) for _, _, entries, _, _ in schedule if e in entries]
        assert sorted(seats) == [0] * 6 + [1] * 6 + [2] * 6
    deals = [deal for *_, deal, _ in schedule]
    assert len(set(deals)) == 8  # each deal played from every seat, no deal twice otherwise


def test_places_put_forfeits_last_and_winners_first():
    assert places([5, 9, 9, 1], [1, 2], set()) == [3, 1, 1, 4]
    assert places([5, 9, 9, 1], [1, 2], {2}) == [2, 1, 4, 3]


def test_a_tournament_is_reproducible_and_rates_the_stronger_bot_higher():
    a = run_tournament(SLUG, ["random", "greedy", "random"], games_per_pairing=6, seed=4)
    b = run_tournament(SLUG, ["random", "greedy", "random"], games_per_pairing=6, seed=4)
    assert a.as_dict() == b.as_dict()
    other = run_tournament(SLUG, ["random", "greedy", "random"], games_per_pairing=6, seed=5)
    assert [g.deal for g in other.games] != [g.deal for g in a.games]
    top = a.standings()[0]
    assert top.bot == "greedy" and top.games == 6 and top.wins > 3 and top.forfeits == 0
    lo, hi = top.win_interval
    assert 0 < lo < top.win_share <= hi <= 1
    assert top.mu > 25 > a.standings()[-1].mu  # OpenSkill starts every bot at 25


def test_worker_processes_give_the_same_results():
    kw = dict(games_per_pairing=2, seed=7, players=2)
    one = run_tournament(SLUG, ["random", "greedy", "random", f"{__name__}:Crashy"], **kw)
    two = run_tournament(SLUG, ["random", "greedy", "random", f"{__name__}:Crashy"], jobs=2, **kw)
    assert len(one.games) == 6 * 2 and one.as_dict() == two.as_dict()
    s1 = run_tournament(SLUG, ["random", "greedy", "random", "greedy"], "swiss", 2, rounds=3, players=2, seed=1)
    s2 = run_tournament(SLUG, ["random", "greedy", "random", "greedy"], "swiss", 2, rounds=3, players=2, seed=1,
                        jobs=2)
    assert len(s1.games) == 3 * 2 * 2 and s1.as_dict() == s2.as_dict()


def test_a_bot_that_raises_forfeits_its_games_by_name_seat_and_move():
    t = run_tournament(SLUG, ["greedy", f"{__name__}:Crashy", "random"], games_per_pairing=3, seed=2)
    assert len(t.games) == 3
    for g in t.games:
        (f,) = g.failures
        seat = g.lineup.index("Crashy")
        assert (f.bot, f.seat, f.reason) == ("Crashy", seat, "exception")
        assert "RuntimeError: the bug on the third decision" in f.detail
        assert f.move >= 3  # its third decision: the number of the decision in the whole game
        assert g.ranks[seat] == 3 and seat not in g.winners  # last, whatever its score
        assert g.decisions > 20  # the game went on to its end, the random bot in the seat
    crashy = next(s for s in t.standings() if s.bot == "Crashy")
    assert crashy.forfeits == 3 and crashy.wins == 0 and crashy.failures["exception"] == 3


def test_a_bot_that_ends_the_program_only_forfeits():
    t = run_tournament(SLUG, ["random", Quitter], games_per_pairing=2, players=2, seed=1)
    fails = [(f["bot"], f["reason"], f["detail"]) for f in t.failures()]
    assert fails == [("Quitter", "exception", "SystemExit: bye")] * 2


def test_illegal_answers_and_unbuildable_bots_forfeit_with_their_reason():
    t = run_tournament(SLUG, ["greedy", Cheater, Unbuildable], games_per_pairing=3, seed=3)
    for g in t.games:
        why = {f.bot: f for f in g.failures}
        assert set(why) == {"Cheater", "Unbuildable"}
        assert why["Cheater"].reason == "illegal" and "take everything" in why["Cheater"].detail
        assert why["Cheater"].move >= 1 and why["Cheater"].seat == g.lineup.index("Cheater")
        assert why["Unbuildable"].move == 0 and "no configuration file" in why["Unbuildable"].detail
        assert g.winners == [g.lineup.index("greedy")] and g.ranks[g.lineup.index("greedy")] == 1
    assert [s.bot for s in t.standings()][0] == "greedy"
    assert len(t.failures()) == 6


@pytest.mark.parametrize("slow", [Sleepy, Spinning])
def test_a_bot_over_the_time_limit_is_stopped_and_forfeits(slow):
    start = time.perf_counter()
    t = run_tournament(SLUG, ["random", slow], games_per_pairing=2, players=2, move_time=0.1, seed=1)
    assert time.perf_counter() - start < 3  # interrupted at the limit, not waited for
    for g in t.games:
        (f,) = g.failures
        assert (f.bot, f.reason, f.seat) == (slow.__name__, "time", g.lineup.index(slow.__name__))
        assert "0.1 s" in f.detail and g.ranks[f.seat] == 2


def test_outside_the_main_thread_the_time_is_checked_when_the_bot_answers():
    out = {}

    def run():
        out["t"] = run_tournament(SLUG, ["random", Sleepy], games_per_pairing=2, players=2, move_time=0.1, seed=1)
    worker = threading.Thread(target=run)
    worker.start()
    worker.join(30)
    fails = out["t"].failures()
    assert len(fails) == 2 and all(f["reason"] == "time" and "answered after" in f["detail"] for f in fails)


class Spy(RandomBot):
    """Keeps every object it is handed (instead of the fast path's legal actions)."""

    reads_only_legal_actions = False
    seen: list = []

    def choose(self, state, player):
        Spy.seen.append(state)
        return super().choose(state, player)


def test_no_bot_ever_receives_the_real_state(monkeypatch):
    real: list[State] = []
    game = load_game(SLUG)

    class Recording:
        def __getattr__(self, name):
            return getattr(game, name)

        def new_game(self, *args, **kwargs):
            real.append(game.new_game(*args, **kwargs))
            return real[-1]
    monkeypatch.setattr(tm, "load_game", lambda slug: Recording())
    Spy.seen = []
    run_tournament(SLUG, [Spy, "greedy"], games_per_pairing=2, players=2, seed=6)
    assert real and len(Spy.seen) > 20
    assert not any(x is r for x in Spy.seen for r in real)
    assert all(x.seed == 0 != r.seed for x in Spy.seen for r in real[:1])


def test_the_servers_stand_in_bot_decides_on_a_fair_view_too(tmp_path, monkeypatch):
    pytest.importorskip("sqlalchemy")
    from thieves.server import tables
    from thieves.server.storage import Storage

    manager = tables.TableManager(Storage(f"sqlite:///{tmp_path / 's.db'}"))
    table, _tokens = manager.create("thiefs-market", 3, [{"kind": "bot", "bot": "greedy"}] * 3)
    real = table.state
    Spy.seen = []
    monkeypatch.setattr(tables, "make_bot", lambda name, slug, seed=0: Cheater() if name != "random" else Spy())
    seat = table.bot_to_act()
    _ply, action = manager.bot_choice(table, seat)  # the bot answers nonsense: the stand-in plays
    assert action in real.legal_actions(seat)
    (seen,) = Spy.seen
    assert seen is not real and seen.seed == 0 and real.seed != 0


def test_bad_arguments_are_refused_before_any_game():
    with pytest.raises(ThievesError, match="no bot"):
        run_tournament(SLUG, ["random", "nobody"])
    with pytest.raises(ThievesError, match="format"):
        run_tournament(SLUG, ["random", "greedy"], "knockout")
    with pytest.raises(ThievesError, match="at least two bots"):
        run_tournament(SLUG, ["random"])
    with pytest.raises(ThievesError, match="give at least 3 bots"):
        run_tournament(SLUG, ["random", "greedy"], players=3)
    with pytest.raises(ThievesError, match="time per move"):
        run_tournament(SLUG, ["random", "greedy"], move_time=0)


def test_cli_prints_the_ratings_table_and_writes_every_game(tmp_path, capsys):
    out = tmp_path / "t.json"
    assert main(["tournament", SLUG, "--bots", f"random,greedy,{__name__}:Cheater", "--players", "2",
                 "--games-per-pairing", "2", "--seed", "1", "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "μ ± 2σ" in text and "Cheater" in text and "illegal" in text
    data = json.loads(out.read_text())
    assert [s["bot"] for s in data["standings"]][-1] == "Cheater"
    assert len(data["games"]) == 6 and len(data["failures"]) == 4
    assert {"bot", "seat", "move", "reason", "detail", "game"} <= set(data["failures"][0])
    assert main(["tournament", SLUG, "--bots", "random,greedy", "--rounds", "0", "--format", "swiss"]) == 2
