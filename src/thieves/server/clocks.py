"""Game clocks: pure logic, the time is always passed in (tests use a fake clock).

Three time controls, chosen when a table is created:

* ``none``: no clock.
* ``realtime``: each player has ``base`` seconds for the whole game and gains
  ``increment`` seconds after each of their decisions (Fischer).
* ``turn``: each decision has ``per_move`` seconds (e.g. 24 h), whatever was
  left before.

A clock runs only for the players who must act now: several at once during
simultaneous secret choices, each stopping when that player has chosen.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Iterable

KINDS = ("none", "realtime", "turn")
#: the longest time a control may give (one week), so a typo is not a forever-clock
MAX_SECONDS = 7 * 24 * 3600.0


@dataclass(frozen=True)
class TimeControl:
    kind: str = "none"
    #: realtime: seconds each player has for the game
    base: float = 0.0
    #: realtime: seconds added after each of a player's decisions
    increment: float = 0.0
    #: turn-based: seconds for each decision
    per_move: float = 0.0

    @classmethod
    def parse(cls, raw: Any) -> "TimeControl":
        """A time control from JSON (``None``: no clock); ValueError says what is wrong."""
        if raw is None or raw == {} or raw == "none":
            return cls()
        if not isinstance(raw, dict):
            raise ValueError("the time control must be an object with a kind")
        kind = raw.get("kind", "none")
        if kind not in KINDS:
            raise ValueError(f"the time control's kind must be one of {', '.join(KINDS)}")
        nums = {}
        for key in ("base", "increment", "per_move"):
            value = raw.get(key, 0)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= MAX_SECONDS:
                raise ValueError(f"{key} must be a number of seconds between 0 and {MAX_SECONDS:.0f}")
            nums[key] = float(value)
        if kind == "realtime" and nums["base"] <= 0:
            raise ValueError("a real-time clock needs a base time above 0 seconds")
        if kind == "turn" and nums["per_move"] <= 0:
            raise ValueError("a turn-based clock needs a time per move above 0 seconds")
        if kind == "none":
            return cls()
        if kind == "realtime":
            return cls(kind, nums["base"], nums["increment"], 0.0)
        return cls(kind, 0.0, 0.0, nums["per_move"])

    @property
    def active(self) -> bool:
        return self.kind != "none"

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


class Clock:
    """The players' remaining times at one table."""

    def __init__(self, control: TimeControl, num_players: int,
                 pauses: Iterable[Iterable[float]] = ()) -> None:
        self.control = control
        #: (from, to): times the server was down, charged to nobody (see :meth:`restart`)
        self.pauses: list[tuple[float, float]] = [(float(a), float(b)) for a, b in pauses]
        start = control.base if control.kind == "realtime" else control.per_move
        #: seconds left per seat, as of ``since`` for the running ones
        self.left = [start] * num_players
        #: the seats whose time runs now (those who must act)
        self.running: set[int] = set()
        self.since = 0.0

    def start(self, to_act: Iterable[int], now: float) -> None:
        """The game starts (every seat taken): the clocks of those to act run."""
        self.running = set(to_act)
        self.since = now

    def _elapsed(self, now: float) -> float:
        """Seconds from ``since`` to ``now``, less the pauses between them."""
        elapsed = max(0.0, now - self.since)
        for a, b in self.pauses:
            elapsed -= max(0.0, min(b, now) - max(a, self.since))
        return max(0.0, elapsed)

    def _charge(self, now: float) -> None:
        elapsed = self._elapsed(now)
        for p in self.running:
            self.left[p] -= elapsed
        self.since = max(self.since, now)

    def decided(self, seat: int, to_act: Iterable[int], now: float) -> None:
        """``seat`` made a decision at ``now``; ``to_act``: who must act after it."""
        if not self.control.active:
            return
        self._charge(now)
        after = set(to_act)
        if self.control.kind == "realtime":
            self.left[seat] += self.control.increment  # Fischer: after each own decision
        else:
            # turn-based: every decision has its own time, for whoever must act next
            self.left[seat] = self.control.per_move
            for p in after - self.running:
                self.left[p] = self.control.per_move
        self.running = after

    def resume(self, to_act: Iterable[int], now: float) -> None:
        """Decisions were taken back: the time spent stays spent, and the clocks
        of those who must act again run (no increment: nothing was decided)."""
        if not self.control.active:
            return
        self._charge(now)
        self.running = set(to_act)

    def restart(self, now: float) -> tuple[float, float] | None:
        """The server starts again at ``now``: the time since the last change
        (the server was down) is charged to nobody. Returns the pause to keep
        (so that the clock is rebuilt the same later), None when none runs."""
        if not self.control.active or not self.running or now <= self.since:
            return None
        pause = (self.since, now)
        self.pauses.append(pause)
        return pause

    def stop(self, now: float) -> None:
        """The game is over: nothing runs any more."""
        self._charge(now)
        self.running = set()

    def remaining(self, seat: int, now: float) -> float:
        """Seconds ``seat`` has left at ``now`` (may be below 0 once run out)."""
        left = self.left[seat]
        if seat in self.running:
            left -= self._elapsed(now)
        return left

    def expired(self, now: float) -> list[int]:
        """The seats who must act and whose time has run out."""
        if not self.control.active:
            return []
        return sorted(p for p in self.running if self.remaining(p, now) <= 0)

    def next_expiry(self, now: float) -> float | None:
        """When the first running clock runs out (None: none runs)."""
        if not self.control.active or not self.running:
            return None
        return now + min(self.remaining(p, now) for p in self.running)

    def snapshot(self, now: float) -> dict[str, Any]:
        """For a view: the time control, each seat's seconds left, and who runs."""
        return {"kind": self.control.kind, "increment": self.control.increment,
                "per_move": self.control.per_move,
                "left": [round(max(0.0, self.remaining(p, now)), 1) for p in range(len(self.left))],
                "running": sorted(self.running), "since": round(now, 3)}
