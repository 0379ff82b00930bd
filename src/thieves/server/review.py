"""Learn and review at the table: a hint for a seated player, a post-game review on the replay page.

* ``POST /api/tables/<id>/hint`` ``{"token"}``: the search's best moves for the seat the token
  opens, from that seat's own information (:func:`thieves.bots.review.evaluate`), with a short
  fixed budget (:data:`HINT_BUDGET`) in a worker thread. Refused (403) to spectators and in a
  table that may count in the ratings (a seat linked to a profile), refused (409) to a seat that
  is not to act; a seat may ask :data:`HINTS_PER_WINDOW` times per :data:`HINT_WINDOW` seconds
  (429). The same position gives the same hint (its seed is the table, move number and seat).
* ``GET /api/tables/<id>/review``: once the game is over, its review
  (:func:`thieves.bots.review.review` at :data:`REVIEW_BUDGET` iterations, seeded by the table):
  made in a background thread as soon as a game with a person at the table ends (or
  when first asked; ``THIEVES_REVIEW_AT_END=0`` waits for the first request), then kept
  in storage; ``{"status": "running", "done", "total"}``
  until then; refused (409) before the end.

The page side is static/hint.js. Texts: ``hint_*`` and ``review_*`` in server/i18n.py.
"""
from __future__ import annotations

import asyncio
import json
import logging
import math
import os
import queue
import threading
from typing import Any


from ..bots.fair import bot_seed
from ..bots.review import MARKS, evaluate, review
from ..core.replay import Replay
from ..core.svg import Svg, escape, seat_color
from ..core.game import State, engine_observes
from .i18n import ui
from .limits import RateLimit
from .errors import Conflict, Forbidden, Unavailable
from .tables import LiveTable

log = logging.getLogger("thieves.review")

#: iterations of a hint's search (short: the player waits for it)
HINT_BUDGET = 120
#: hints one seat may ask for per window (each is a search in a worker thread)
HINTS_PER_WINDOW = 6
HINT_WINDOW = 60.0
#: hint searches running at once in this process; more are told to try again (503)
HINT_SEARCHES = 2
#: iterations per decision of the post-game review (docs/review.md "Speed")
REVIEW_BUDGET = 100
#: candidates a hint names
HINT_TOP = 3
#: marked decisions listed per seat under its graph
LISTED = 5


class Reviewer:
    """Hints and post-game reviews of one server process."""

    def __init__(self, storage: Any) -> None:
        self.storage = storage
        self.hints = RateLimit(HINTS_PER_WINDOW, HINT_WINDOW)
        self._searching = 0
        #: reviews being made: table id -> [done, total]
        self.progress: dict[str, list[int]] = {}
        #: tables whose review is kept in storage, and those whose review failed
        self._made: set[str] = set()
        self._failed: set[str] = set()
        self._lock = threading.Lock()
        #: reviews waiting for the worker thread (one at a time: a review is long, and a daemon
        #: thread, so that stopping the server never waits for one)
        self._queue: queue.Queue[tuple[str, Replay]] = queue.Queue()
        self._worker: threading.Thread | None = None
        #: start each review as soon as its game ends, where a person sat at the table
        #: (``THIEVES_REVIEW_AT_END=0``: only when the replay page first asks for it)
        self.at_end = os.environ.get("THIEVES_REVIEW_AT_END", "1") != "0"

    # -- the hint ------------------------------------------------------------------------------
    def check_hint(self, table: LiveTable, seat: int | None, linked: bool) -> State:
        """The position a hint is asked for (a copy), or the refusal (``linked``: a seat of the
        table is linked to a profile, so the table may count in the ratings)."""
        if seat is None:
            raise Forbidden("hint_spectator", "hints are for the players seated at the table")
        if linked:
            raise Forbidden("hint_rated", "no hints at a table that may count in the ratings")
        state = table.state
        if table.broken or state.is_terminal() or seat not in state.players_to_act() \
                or len(state.legal_actions(seat)) < 2:
            raise Conflict("hint_not_to_act", "a hint is for a decision of yours, when you have a choice")
        self.hints.check(f"{table.id}:{seat}", "you have asked for many hints just now")
        return state.clone()

    async def hint(self, table: LiveTable, seat: int | None, lang: str) -> dict[str, Any]:
        if seat is None:
            self.check_hint(table, seat, False)
        linked = bool(await asyncio.to_thread(self.storage.seat_profile_ids, table.id))
        async with table.lock:
            state = self.check_hint(table, seat, linked)
        assert seat is not None
        if self._searching >= HINT_SEARCHES:
            raise Unavailable("hint_busy", "the server is thinking about other hints; try again in a moment",
                              retry_after=2)
        self._searching += 1
        try:
            ev = await asyncio.to_thread(evaluate, state, seat, HINT_BUDGET, bot_seed("hint", table.id))
        finally:
            self._searching -= 1
        top = [c for c in ev.top(HINT_TOP) if not math.isnan(c.chance)]
        texts = action_texts(table, state, seat, lang, [c.action for c in top])
        t = ui(lang)
        cands = [{"action": c.action, "text": text, "chance": round(c.chance, 3), "percent": _pct(c.chance)}
                 for c, text in zip(top, texts)]
        words = ""
        if cands:
            words = t["hint_first"].format(action=cands[0]["text"], pct=cands[0]["percent"])
            for c in cands[1:]:
                words += t["hint_then"].format(action=c["text"], pct=c["percent"])
        return {"ply": state.shown_ply(seat), "candidates": cands, "text": words, "budget": HINT_BUDGET}

    # -- the post-game review ------------------------------------------------------------------
    def game_over(self, table: LiveTable) -> None:
        """A table changed: once it is over, start its review (with :attr:`at_end`)."""
        if (self.at_end and table.state.is_terminal()
                and any(seat.get("kind") == "human" for seat in table.rec.seats)):
            self.start(table)

    def start(self, table: LiveTable) -> None:
        """Queue the review of a finished table for the worker thread (once; nothing if kept)."""
        if not table.state.is_terminal() or table.broken:
            return
        with self._lock:
            if table.id in self.progress or table.id in self._made or table.id in self._failed:
                return
            self.progress[table.id] = [0, 0]
            self._queue.put((table.id, Replay.of(table.state)))
            if self._worker is None:
                self._worker = threading.Thread(target=self._work, name="review", daemon=True)
                self._worker.start()

    def _work(self) -> None:
        while True:
            table_id, replay = self._queue.get()
            self._make(table_id, replay)

    def _make(self, table_id: str, replay: Replay) -> None:
        try:
            if self.storage.review(table_id) is None:
                def step(done: int, total: int) -> None:
                    self.progress[table_id] = [done, total]

                result = review(replay, REVIEW_BUDGET, bot_seed("review", table_id), 1, progress=step)
                self.storage.save_review(table_id, REVIEW_BUDGET, json.dumps(result))
            self._made.add(table_id)
        except Exception:  # noqa: BLE001 - not tried again by this process (no loop of failures)
            log.exception("review of table %s failed", table_id)
            self._failed.add(table_id)
        finally:
            with self._lock:
                self.progress.pop(table_id, None)

    async def review(self, table: LiveTable, lang: str) -> dict[str, Any]:
        if not table.state.is_terminal():
            raise Conflict("review_not_over", "the review is made once the game is over")
        body = await asyncio.to_thread(self.storage.review, table.id)
        if body is None:
            if table.broken or table.id in self._failed:
                return {"status": "none"}  # no review of a table that cannot be replayed
            self.start(table)
            done, total = self.progress.get(table.id, [0, 0])
            return {"status": "running", "done": done, "total": total}
        return await asyncio.to_thread(page_review, table, json.loads(body), lang)


def _pct(x: float) -> str:
    return f"{round(100 * x)}%"


def action_texts(table: LiveTable, state: State, seat: int, lang: str, actions: list[str]) -> list[str]:
    """The actions as the table shows them to ``seat`` in ``state`` (its own observation)."""
    from . import views
    pres = views.presentation(state, seat, table.display_names(lang), lang)
    obs = state.observation_without_log(seat) if engine_observes(state) else state.observation(seat)
    board_obs = {k: v for k, v in obs.items() if k != "log"}
    return [pres.action_text(board_obs, a) for a in actions]


def page_review(table: LiveTable, result: dict[str, Any], lang: str) -> dict[str, Any]:
    """The review as the replay page shows it: per seat a graph and its marked decisions in words."""
    from .replays import steps
    t = ui(lang)
    names = table.display_names(lang)
    listed = {s["seat"]: sorted((d for d in s["decisions"] if d["mark"]),
                                key=lambda d: (-d["drop"], d["index"]))[:LISTED] for s in result["seats"]}
    wanted = {d["index"]: seat for seat, ds in listed.items() for d in ds}
    words: dict[int, tuple[str, str]] = {}
    replay = Replay.of(table.state)
    for i, state in enumerate(replay.states()):
        if i in wanted:
            d = next(d for d in listed[wanted[i]] if d["index"] == i)
            played, best = action_texts(table, state, wanted[i], lang, [d["played"], d["best"]])
            words[i] = (played, best)
        if i >= max(wanted, default=-1):
            break
    at = steps(table.state)  # the replay page's step of each decision
    seats = []
    for s in result["seats"]:
        seat = s["seat"]
        marks = []
        for d in sorted(listed[seat], key=lambda d: d["index"]):
            played, best = words[d["index"]]
            step = _step_of(at, d["index"])
            marks.append({"index": d["index"], "step": step, "mark": d["mark"], "label": t[f"review_{d['mark']}"],
                          "text": t["review_line"].format(
                              n=d["index"] + 1, played=played, pct=_pct(d["played_chance"]), best=best,
                              best_pct=_pct(d["best_chance"]))})
        name = names[seat] if seat < len(names) else s["name"]
        seats.append({"seat": seat, "name": name,
                      "svg": graph(s["decisions"], seat, name, t, 1.0 / max(result["num_players"], 1)),
                      "marks": marks, "counts": s["marks"],
                      "summary": t["review_counts"].format(**{k: s["marks"][k] for k, _ in MARKS})})
    return {"status": "ready", "budget": result["budget"], "seats": seats,
            "about": t["review_about"].format(n=result["budget"])}


def _step_of(at: list[int], index: int) -> int:
    """The replay page's step that shows the position before decision ``index``."""
    for k, ply in enumerate(at):
        if ply >= index:
            return k
    return len(at) - 1


#: colours of the marks on the graph
MARK_COLORS = {"blunder": "#b3261e", "mistake": "#e0801c", "inaccuracy": "#d9b400"}


def graph(decisions: list[dict[str, Any]], seat: int, name: str, t: dict[str, str], fair: float = 0.5) -> str:
    """A seat's win chance before each of its decisions as an inline SVG line, marks as dots; the
    dashed line is the fair share (1 / players)."""
    w, h, left, top, bottom = 280.0, 120.0, 40.0, 8.0, 22.0
    svg = Svg(w, h, title=t["review_graph"].format(name=name))
    inner_w, inner_h = w - left - 8, h - top - bottom
    svg.rect(left, top, inner_w, inner_h, fill="#fbf8f1", stroke="#cfc6b3", rx=0, width=1)
    for frac in (0.0, fair, 1.0):
        y = top + inner_h * (1 - frac)
        svg.add(f'<line x1="{left:g}" y1="{y:.1f}" x2="{left + inner_w:g}" y2="{y:.1f}" stroke="#cfc6b3" '
                f'stroke-dasharray="{"4 3" if frac == fair else "none"}"/>')
        svg.text(left - 4, y + 4, f"{round(100 * frac)}%", size=11, anchor="end", color="#5b5346")
    points = [(k, d) for k, d in enumerate(decisions) if d["chance"] is not None]
    n = max(len(decisions) - 1, 1)

    def xy(k: int, chance: float) -> tuple[float, float]:
        return left + inner_w * k / n, top + inner_h * (1 - chance)

    if points:
        line = " ".join("%.1f,%.1f" % xy(k, d["chance"]) for k, d in points)
        svg.add(f'<polyline points="{line}" fill="none" stroke="{seat_color(seat)}" stroke-width="2"/>')
        for k, d in points:
            if d["mark"]:
                x, y = xy(k, d["chance"])
                svg.add(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="4.5" fill="{MARK_COLORS[d["mark"]]}" stroke="#fff" '
                        f'stroke-width="1"><title>{escape(t["review_" + d["mark"]])}</title></circle>')
    svg.text(left, h - 6, t["review_axis"], size=11, color="#5b5346")
    return svg.done()
