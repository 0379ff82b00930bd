"""Errors raised by the engine.

Every error a caller may trigger with bad input is a :class:`ThievesError`,
so front ends can catch one type and show its message.
"""
from __future__ import annotations


class ThievesError(Exception):
    """Base class of every error the engine raises on purpose."""


class IllegalAction(ThievesError):
    """An action that is malformed, out of turn or against the rules.

    The state it was applied to is left exactly as it was.
    """


class GameSetupError(ThievesError, ValueError):
    """An unsupported player count, option or seed for ``new_game``."""


class DataError(ThievesError, ValueError):
    """A component data file is missing or invalid.

    The message names the file, the entry and the field that is wrong.
    """


class UnknownGame(ThievesError, KeyError):
    """``load_game`` was asked for a slug that does not exist."""

    def __str__(self) -> str:  # KeyError quotes its message; keep it readable
        return str(self.args[0]) if self.args else "unknown game"
