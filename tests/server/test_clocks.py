"""The clock module on its own: a fake time, passed in."""
from __future__ import annotations

import pytest

from thieves.server.clocks import Clock, TimeControl


def test_realtime_runs_only_for_who_must_act_and_adds_the_increment():
    c = Clock(TimeControl.parse({"kind": "realtime", "base": 60, "increment": 5}), 3)
    c.start([0], now=100.0)
    assert c.remaining(0, 130.0) == 30.0 and c.remaining(1, 130.0) == 60.0
    c.decided(0, [1], now=140.0)  # 40 s used, 5 s back
    assert c.remaining(0, 500.0) == 25.0 and c.remaining(1, 150.0) == 50.0
    assert c.expired(199.0) == [] and c.expired(200.0) == [1]
    assert c.next_expiry(150.0) == 200.0


def test_simultaneous_choices_run_several_clocks_each_stopping_alone():
    c = Clock(TimeControl.parse({"kind": "realtime", "base": 30}), 3)
    c.start([0, 1, 2], now=0.0)
    c.decided(1, [0, 2], now=10.0)
    assert [c.remaining(p, 20.0) for p in range(3)] == [10.0, 20.0, 10.0]
    assert c.expired(30.0) == [0, 2]
    assert c.snapshot(20.0) == {"kind": "realtime", "increment": 0.0, "per_move": 0.0,
                                "left": [10.0, 20.0, 10.0], "running": [0, 2], "since": 20.0}


def test_turn_based_gives_each_decision_its_own_time():
    c = Clock(TimeControl.parse({"kind": "turn", "per_move": 86400}), 2)
    c.start([0], now=0.0)
    c.decided(0, [1], now=86000.0)
    assert c.remaining(0, 90000.0) == 86400.0 and c.remaining(1, 90000.0) == 82400.0
    c.decided(1, [0], now=90000.0)
    c.decided(0, [0], now=100000.0)  # a second decision in the same turn: a fresh day
    assert c.remaining(0, 100000.0) == 86400.0
    assert c.expired(186399.0) == [] and c.expired(186400.0) == [0]
    c.stop(100001.0)
    assert c.expired(10**9) == [] and c.next_expiry(10**9) is None


def test_no_clock_never_runs_out():
    c = Clock(TimeControl.parse(None), 2)
    c.start([0, 1], now=0.0)
    c.decided(0, [1], now=5.0)
    assert c.expired(10**9) == [] and not c.control.active


@pytest.mark.parametrize("raw", [{"kind": "blitz"}, {"kind": "realtime", "base": 0},
                                 {"kind": "realtime", "base": -3}, {"kind": "turn"},
                                 {"kind": "turn", "per_move": "1d"}, {"kind": "realtime", "base": True},
                                 {"kind": "realtime", "base": 10**9}, [1, 2]])
def test_bad_time_controls_are_refused_with_a_reason(raw):
    with pytest.raises(ValueError, match=r"\w"):
        TimeControl.parse(raw)
