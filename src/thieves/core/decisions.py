"""Pending decisions: what a multi-step turn still has to do, and who does it.

A turn often asks more than one question (a card whose effect takes a
treasure, then asks where a thief goes; a round that moves the guards between
two choices). The games keep what is still to happen as a **stack of
frames** in the state: a list whose first item is the next step, each a
plain dict ``{"k": kind, "p": seat, ...}``. Frames are plain data, so a
position copies, saves, compares and replays as data, and a reader sees
what is pending by printing the list.

What a kind of frame *does* is one function, registered under its kind in a
:class:`Steps` table of the game (the explicit registry of TAG's extended
action sequences, without a class per step): a frame that runs by itself is
``handler(state, frame)``; an action verb is ``handler(state, player, arg)``.
Nothing is found by a method's name, so one search for the kind finds its
rule, and a tool (a type checker, a reader) sees every handler.

>>> STEPS: Steps = Steps("example frames")
>>> @STEPS("gain")
... def gain(state: dict, frame: dict) -> None:
...     state["gold"] += frame["n"]
>>> state, pending = {"gold": 1}, [{"k": "gain", "p": 0, "n": 2}, {"k": "choose", "p": 0}]
>>> run_steps(state, pending, STEPS, waits=lambda f: f["k"] == "choose")
{'k': 'choose', 'p': 0}
>>> state["gold"], pending
(3, [{'k': 'choose', 'p': 0}])
>>> STEPS["lose"]
Traceback (most recent call last):
...
KeyError: "example frames: no step 'lose' (known: gain)"
"""
from __future__ import annotations

from typing import Any, Callable, Generic, Iterator, TypeVar

#: a frame: plain data, its kind under "k" and its seat under "p"
Frame = dict[str, Any]

H = TypeVar("H", bound=Callable[..., Any])


class Steps(Generic[H]):
    """The handlers of one game's steps, by kind (``@STEPS("gain")``).

    A kind is registered once; asking for a kind nobody registered names
    the table and the kinds it knows."""

    __slots__ = ("what", "handlers")

    def __init__(self, what: str) -> None:
        self.what = what
        self.handlers: dict[str, H] = {}

    def __call__(self, kind: str) -> Callable[[H], H]:
        """A decorator registering its function as the handler of ``kind``."""
        def register(handler: H) -> H:
            self.add(kind, handler)
            return handler
        return register

    def add(self, kind: str, handler: H) -> None:
        if kind in self.handlers:
            raise ValueError(f"{self.what}: the step {kind!r} is registered twice")
        self.handlers[kind] = handler

    def __getitem__(self, kind: str) -> H:
        try:
            return self.handlers[kind]
        except KeyError:
            raise KeyError(f"{self.what}: no step {kind!r} (known: {', '.join(sorted(self.handlers))})") from None

    def __contains__(self, kind: object) -> bool:
        return kind in self.handlers

    def __iter__(self) -> Iterator[str]:
        return iter(self.handlers)

    def __len__(self) -> int:
        return len(self.handlers)


def run_steps(state: Any, pending: list[Frame], steps: Steps[Any],
              waits: Callable[[Frame], bool]) -> Frame | None:
    """Run the frames that run by themselves, first to last, until one waits
    for a decision (``waits(frame)``; it stays first and is returned) or none
    is left (None). A handler may push new frames to the front of ``pending``."""
    while pending:
        frame = pending[0]
        if waits(frame):
            return frame
        pending.pop(0)
        steps[frame["k"]](state, frame)
    return None
