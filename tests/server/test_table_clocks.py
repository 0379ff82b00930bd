"""Time controls at a table, with a fake clock: time-outs hand the seat to a bot."""
from __future__ import annotations

import time

from fastapi.testclient import TestClient

from tests.server.conftest import new_table
import thieves.server.platform as platform_module
from thieves.server.app import create_app


class FakeTime:
    """Seconds since a start near now (stored times stay plausible for expiry)."""

    def __init__(self, t: float) -> None:
        self.zero = time.time()
        self.t = t

    def __call__(self) -> float:
        return self.zero + self.t


def make(db_url, fake):
    # the server's own look at the clocks every CLOCK_EVERY seconds is pushed
    # away: the tests look themselves (check), at the fake times they choose
    platform_module.CLOCK_EVERY = 3600.0
    client = TestClient(create_app(db_url, bot_delay=0), base_url="http://127.0.0.1")
    client.__enter__()
    client.app.state.platform.manager.now = fake
    return client


def clocked_table(client, clock, seats=None, rounds=3):
    r = client.post("/api/tables", json={"game": "toy-bids", "players": 2, "options": {"rounds": rounds},
                                          "seats": seats or [{"kind": "human"}, {"kind": "human"}],
                                          "clock": clock})
    assert r.status_code == 201, r.text
    return r.json()


def view(client, tid, token=None):
    return client.get(f"/api/tables/{tid}/view", params={"token": token} if token else {}).json()


def act(client, tid, token, action):
    return client.post(f"/api/tables/{tid}/actions", json={"token": token, "action": action})


def check(client):
    platform = client.app.state.platform
    return client.portal.call(platform.check_clocks)


def test_realtime_clock_runs_for_who_must_act_and_a_time_out_hands_the_seat_to_a_bot(db_url):
    fake = FakeTime(1000.0)
    c = make(db_url, fake)
    try:
        t = clocked_table(c, {"kind": "realtime", "base": 60, "increment": 5})
        tid, tok0, tok1 = t["id"], t["tokens"]["0"], t["tokens"]["1"]
        v = view(c, tid)
        assert v["clock"]["kind"] == "realtime" and v["clock"]["left"] == [60, 60]
        assert v["clock"]["running"] == [0, 1]  # a simultaneous choice: both clocks run
        fake.t = 1030.0
        assert act(c, tid, tok0, "bid 1").status_code == 200
        v = view(c, tid)
        assert v["clock"]["left"] == [35, 30] and v["clock"]["running"] == [1]
        fake.t = 1059.0
        assert check(c) == 0 and view(c, tid)["seats"][1]["sub"] is None
        fake.t = 1060.0  # seat 1's minute is over (its clock ran since 1000)
        assert check(c) == 1
        v = view(c, tid, tok0)
        assert v["seats"][1]["sub"] and v["seats"][1]["timed_out"]
        # the game goes on: the bot made seat 1's choice, and it is round 2
        assert v["ply"] == 3 and v["to_act"] == [0] and v["substitute_moves"] == [0, 2]
        assert v["clock"]["running"] == [0]
        # the substitute's two decisions earned 2 x 5 s (Fischer): the player may come back
        assert v["clock"]["left"] == [35, 10]
        assert c.post(f"/api/tables/{tid}/back", json={"token": tok1}).status_code == 200
        fake.t = 1080.0
        assert act(c, tid, tok0, "bid 2").status_code == 200
        assert view(c, tid)["clock"] == {"kind": "realtime", "increment": 5.0, "per_move": 0.0,
                                         "left": [20, 10], "running": [0, 1],
                                         "since": round(fake(), 3)}
    finally:
        c.__exit__(None, None, None)
    # the clocks come back the same after a restart (replayed from the stored times)
    c = make(db_url, fake)
    try:
        v = view(c, tid)
        assert v["clock"]["left"] == [20, 10] and v["clock"]["running"] == [0, 1]
        fake.t = 1090.0
        assert check(c) == 1 and view(c, tid)["seats"][1]["timed_out"]
    finally:
        c.__exit__(None, None, None)


def test_turn_based_time_out_then_the_player_takes_the_seat_back(db_url):
    fake = FakeTime(0.0)
    c = make(db_url, fake)
    try:
        t = clocked_table(c, {"kind": "turn", "per_move": 3600}, rounds=4)
        tid, tok0, tok1 = t["id"], t["tokens"]["0"], t["tokens"]["1"]
        fake.t = 100.0
        assert act(c, tid, tok1, "bid 1").status_code == 200
        fake.t = 3599.0
        assert check(c) == 0
        fake.t = 3600.0
        assert check(c) == 1
        v = view(c, tid)
        assert v["seats"][0]["timed_out"] and v["ply"] == 3 and v["to_act"] == [1]
        # turn-based: the next move has its own time, so the player may come back
        assert c.post(f"/api/tables/{tid}/back", json={"token": tok0}).status_code == 200
        v = view(c, tid, tok0)
        assert not v["seats"][0]["timed_out"] and v["seats"][0]["sub"] is None
        fake.t = 4000.0
        assert act(c, tid, tok1, "bid 2").status_code == 200
        v = view(c, tid, tok0)
        assert v["to_act"] == [0, 1] and v["legal"] and v["clock"]["left"][0] == 3600
    finally:
        c.__exit__(None, None, None)


def test_the_clock_waits_for_the_open_seats_and_bots_never_time_out(db_url):
    fake = FakeTime(0.0)
    c = make(db_url, fake)
    try:
        t = clocked_table(c, {"kind": "realtime", "base": 10}, seats=[{"kind": "human"}, {"kind": "open"}])
        tid = t["id"]
        assert view(c, tid)["clock"] is None  # not started
        fake.t = 500.0
        assert check(c) == 0
        tok1 = c.post(f"/api/tables/{tid}/seats/1/claim", json={}).json()["token"]
        v = view(c, tid, tok1)
        assert v["clock"]["left"] == [10, 10] and v["clock"]["running"] == [0, 1]
        fake.t = 505.0
        assert act(c, tid, tok1, "bid 1").status_code == 200
        fake.t = 510.0
        assert check(c) == 1 and view(c, tid)["seats"][0]["timed_out"]
        assert not view(c, tid)["seats"][1]["timed_out"]
        # real time without increment: no time left, no coming back
        r = c.post(f"/api/tables/{tid}/back", json={"token": t["tokens"]["0"]})
        assert r.status_code == 409 and r.json()["error"] == "out_of_time"
        # a table of bots and a person: the bot's clock never runs out
        b = clocked_table(c, {"kind": "realtime", "base": 5},
                          seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}])
        fake.t = 10_000.0
        check(c)
        assert view(c, b["id"])["seats"][1]["sub"] is None
    finally:
        c.__exit__(None, None, None)


def test_bad_clocks_are_refused(client):
    for clock in ({"kind": "blitz"}, {"kind": "realtime"}, {"kind": "turn", "per_move": -1}):
        r = client.post("/api/tables", json={"game": "toy-bids", "players": 2,
                                             "seats": [{"kind": "human"}, {"kind": "human"}], "clock": clock})
        assert r.status_code == 400 and r.json()["error"] == "bad_request" and "clock" in r.json()["message"]
    r = client.post("/tables", data={"game": "toy-bids", "players": "2", "seat_0": "you", "seat_1": "bot:random",
                                     "clock": "realtime:600:5"}, follow_redirects=False)
    assert r.status_code == 303
    tid = r.headers["location"].split("/")[2]
    assert view(client, tid)["clock"]["kind"] == "realtime"
    assert client.post("/tables", data={"game": "toy-bids", "players": "2", "seat_0": "you",
                                        "seat_1": "bot:random", "clock": "forever"}).status_code == 400
    for lang in ("en", "fr", "de"):
        assert "realtime:180:2" in client.get(f"/?lang={lang}").text


def test_the_time_the_server_was_down_is_charged_to_nobody(db_url):
    fake = FakeTime(1000.0)
    c = make(db_url, fake)
    try:
        t = clocked_table(c, {"kind": "realtime", "base": 60, "increment": 0})
        tid, tok0, tok1 = t["id"], t["tokens"]["0"], t["tokens"]["1"]
        fake.t = 1010.0
        assert act(c, tid, tok0, "bid 1").status_code == 200
        assert view(c, tid)["clock"]["left"] == [50, 50]
    finally:
        c.__exit__(None, None, None)
    # the server is down from 1010 to 1500; it starts again (loading its tables) at 1500
    fake.t = 1500.0
    c = make(db_url, fake)
    try:
        platform = c.app.state.platform
        platform.manager.tables.clear()
        platform.manager.load_all()
        assert view(c, tid)["clock"]["left"] == [50, 50]
        fake.t = 1505.0
        clock = platform.manager.tables[tid].clock
        assert clock.remaining(0, fake()) == 50 and clock.remaining(1, fake()) == 45
        assert check(c) == 0
        assert act(c, tid, tok1, "bid 2").status_code == 200
    finally:
        c.__exit__(None, None, None)
    # a later restart rebuilds the same clocks from the stored moves and the stored pause
    fake.t = 1600.0
    c = make(db_url, fake)
    try:
        platform = c.app.state.platform
        platform.manager.tables.clear()
        platform.manager.now = fake
        platform.manager.load_all()
        assert view(c, tid)["clock"]["left"] == [50, 45]
    finally:
        c.__exit__(None, None, None)
