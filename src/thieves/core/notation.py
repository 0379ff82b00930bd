"""Small helpers the games' notation parsers share.

A notation string may come from anyone (a web client, a file, a fuzzer): a
parser must turn every malformed one into :class:`~thieves.core.errors.IllegalAction`,
never another exception. ``str.isdigit`` is not enough to call ``int``: it accepts
``"²"`` and other digits ``int`` refuses, and ``int`` refuses (slowly) strings of
more than 4,300 digits.

>>> small_number("12"), small_number("²"), small_number("-1"), small_number("9" * 5000)
(12, None, None, None)
"""
from __future__ import annotations

#: the most digits a number in a notation may have (seats, slots, counts)
MAX_DIGITS = 6


def small_number(word: str) -> int | None:
    """The whole number ``word`` spells in ASCII digits (at most :data:`MAX_DIGITS`), else None."""
    if not 0 < len(word) <= MAX_DIGITS or not word.isascii() or not word.isdigit():
        return None
    return int(word)
