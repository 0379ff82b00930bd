"""The table chat: short messages from seats and spectators, kept with the table.

A message is ``{"id", "at", "ply", "seat", "spectator", "name", "text"}``:
``seat`` is the author's seat (None for a spectator, then ``spectator`` is
true and ``name`` is what they typed, "" for none), ``ply`` the public move number
on the table when it was written (the replay shows it at that move), ``at``
the server's time. Chat is public to everyone who may watch the table, so it
carries nothing of the game: no view, no observation, only what its author
typed and who they are.

Text is checked here (:func:`clean_text`): control characters go, an empty
message or one over the length limit is refused (never cut: the author keeps
it and is told why). The page shows it as text, never as markup.
"""
from __future__ import annotations

import math
import time
import unicodedata
from typing import Any

from .limits import Limits, RateLimit
from .errors import BadRequest, Conflict, TooMany
from .tables import LiveTable, clean_name

#: characters that are not control characters but steer the display of the
#: text around them (bidirectional overrides and isolates): removed
_STEERING = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c")
#: characters read as a line or paragraph break: a chat line is one line
_BREAKS = frozenset("\n\r\t\v\f\u0085\u2028\u2029")


def clean_text(text: Any) -> str:
    """The text as it is kept: breaks become spaces, control and
    direction-steering characters are removed, ends trimmed (not cut to a length)."""
    if not isinstance(text, str):
        raise BadRequest("malformed", "a chat message's text must be a string")
    out = []
    for ch in unicodedata.normalize("NFC", text):
        if ch in _BREAKS:
            out.append(" ")
        elif ch in _STEERING or unicodedata.category(ch) in ("Cc", "Cs"):
            continue
        else:
            out.append(ch)
    return "".join(out).strip()


class Chat:
    """Checks a message and its sender against the limits (the caller stores and sends it)."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.rate = RateLimit(limits.chat_messages, limits.chat_window)

    def compose(self, table: LiveTable, seat: int | None, text: Any, name: Any = None) -> dict[str, Any]:
        """The message ``seat`` (None: a spectator, called ``name``) writes now,
        without ``id`` and ``at``; raises for an empty or too long text."""
        body = clean_text(text)
        if not body:
            raise BadRequest("chat_empty", "an empty message is not sent")
        if len(body) > self.limits.chat_chars:
            raise BadRequest("chat_too_long", f"messages are at most {self.limits.chat_chars} characters "
                             f"(this one has {len(body)}); nothing was sent")
        if seat is None:
            author = clean_name(name, "")
        else:
            # a seat that kept its default name is named by each reader's page, in its language
            own = str(table.rec.seats[seat].get("name") or "")
            author = "" if own == f"Player {seat + 1}" else own
        return {"ply": table.state.public_ply, "seat": seat, "spectator": seat is None, "name": author, "text": body}

    def check_rate(self, sender: str, now: float | None = None) -> None:
        """Count one message of ``sender``, or refuse it (``chat_rate``, 429, with Retry-After)."""
        try:
            self.rate.check(sender, "", now)
        except TooMany as exc:
            wait = exc.retry_after or 1
            raise TooMany("chat_rate", f"at most {self.limits.chat_messages} messages every "
                          f"{self.limits.chat_window:g} s; try again in {wait} s", retry_after=wait) from None

    def full(self) -> Conflict:
        return Conflict("chat_full", f"this table's chat is full: it keeps at most "
                        f"{self.limits.chat_stored} messages")


def sender_key(table_id: str, seat: int | None, address: str) -> str:
    """Whose rate a message counts in: a seat at its table, a spectator by address."""
    return f"{table_id}:seat:{seat}" if seat is not None else f"spectator:{address}"


def as_message(raw: Any) -> dict[str, Any] | None:
    """A message as another process sent it, keeping only the known fields of
    the right types (None: not a message)."""
    if not isinstance(raw, dict):
        return None
    msg_id, at, ply, seat = raw.get("id"), raw.get("at"), raw.get("ply"), raw.get("seat")
    name, text = raw.get("name"), raw.get("text")
    if not (isinstance(msg_id, int) and isinstance(at, (int, float)) and isinstance(ply, int)
            and (seat is None or isinstance(seat, int)) and isinstance(name, str) and isinstance(text, str)):
        return None
    if not math.isfinite(at):
        return None
    return {"id": msg_id, "at": float(at), "ply": ply, "seat": seat, "spectator": seat is None,
            "name": name[:64], "text": text[:4000]}


def now() -> float:
    """The time a message is stamped with, to the second (the order is its id's)."""
    return float(round(time.time()))
