"""Learn and review: a seat's win chance and best moves, read from the search's root.

:func:`evaluate` asks the game's IS-MCTS (:class:`~thieves.bots.mcts.MCTSBot`, tuned by the
game's ``SEARCH``) for one decision of one seat and reads the statistics of its root: each
candidate's mean reward, which is the seat's estimated *win share* (1 for a win, 1/k for a win
shared by k, 0 for a loss; where the game's search cuts playouts before the end, a soft "am I
ahead" of the heuristic, see :func:`~thieves.bots.mcts.rewards`). The search starts from
:func:`~thieves.bots.fair.fair_view`, exactly as a bot's decision does: the figures depend only
on what the seat may know, never on the others' hidden cards or the future dice.

:func:`review` replays a game record decision by decision and evaluates every decision of every
seat that had a choice (more than one legal action): the chance before it (the value of the
search's own choice), the chance of the move played, the best candidate, and a lichess-style
mark where the chance fell (see :data:`MARKS`). Every evaluation is seeded from the review's seed,
the decision's number and the seat: the same review twice, with any number of processes, is
identical. The JSON it returns is documented in docs/review.md.
"""
from __future__ import annotations

import functools
import json
import math
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Optional

from ..core.errors import ThievesError
from ..core.game import State
from ..core.replay import Replay
from .fair import bot_seed, fair_view, view_seed
from .mcts import Budget, MCTSBot, _Node, parse_budget

__all__ = ["Candidate", "Evaluation", "evaluate", "review", "decisions", "MARKS", "FORMAT",
           "DEFAULT_BUDGET", "review_budget"]

FORMAT = "thieves-review/1"
#: iterations per decision of a review when none is asked for (docs/review.md "Speed")
DEFAULT_BUDGET = 100
#: a drop in win share (chance before the decision minus the chance of the move played) at least
#: this large earns the mark, largest first: lichess's thresholds (its "winning chances" in
#: [-1, 1] fall by 0.3, 0.2, 0.1, i.e. 15, 10 and 5 points of win percentage)
MARKS: tuple[tuple[str, float], ...] = (("blunder", 0.15), ("mistake", 0.10), ("inaccuracy", 0.05))
#: a drop is marked only when it also exceeds this many standard errors of the difference of
#: the two means (a move the search tried a few times has a noisy mean: no mark on noise)
MARK_MARGIN = 2.0
#: the decisions with the largest marked drops listed per seat as its "worst"
WORST = 3


@dataclass(frozen=True)
class Candidate:
    """One action at the search's root: its mean reward (the seat's win share if played),
    how many iterations tried it and the standard error of the mean (``None`` below 2)."""

    action: str
    chance: float
    visits: int
    error: Optional[float] = None
    #: the search's own mean reward, before the map to a win chance (:func:`to_chance`)
    value: Optional[float] = None

    def to_json(self) -> dict[str, Any]:
        return {"action": self.action, "chance": _r(self.chance), "value": self.value, "visits": self.visits,
                "error": None if self.error is None else round(self.error, 4)}


@dataclass(frozen=True)
class Evaluation:
    """What the search says about one decision of ``seat``: ``choice`` is the action it would
    play, ``chance`` that action's win share (the value of the position), ``candidates`` every
    searched action best first (the choice, then by visits or by mean for a paired search)."""

    seat: int
    choice: str
    chance: float
    candidates: tuple[Candidate, ...]
    iterations: int
    #: the search's mean reward for its choice, before the map to a win chance
    value: Optional[float] = None

    def top(self, k: int = 3) -> list[Candidate]:
        return list(self.candidates[:k])

    def of(self, action: str) -> Optional[Candidate]:
        return next((c for c in self.candidates if c.action == action), None)


def review_budget(budget: str | int | Budget | None) -> Budget:
    """An iteration budget (``"mcts:500"``, ``"500"``, 500): a time budget would make the review
    depend on the machine's speed, so it is refused."""
    if isinstance(budget, Budget):
        b = budget
    else:
        text = str(DEFAULT_BUDGET if budget is None else budget)
        b = parse_budget(text.split(":", 1)[1] if text.startswith("mcts:") else text)
    if b.iterations is None:
        raise ThievesError("a review's budget is a number of iterations (mcts:200), not a time: "
                           "the same review must give the same figures on any machine")
    return b


# -- from the search's value to a win chance -------------------------------------------------
#: per game and number of players, ``[a, b]`` of the logistic map (Platt scaling) from the
#: search's mean reward ``v`` to a win chance: ``sigmoid(a * logit(v) + b)``, fitted by
#: ``thieves analyze --calibrate`` on seeded greedy games (docs/review.md "Calibration")
CALIBRATION_FILE = Path(__file__).with_name("review_calibration.json")
_EDGE = 0.01  # values are clipped to [_EDGE, 1 - _EDGE] before the logit


@functools.lru_cache(maxsize=1)
def calibration_table() -> dict[str, dict[str, list[float]]]:
    try:
        data = json.loads(CALIBRATION_FILE.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    return {g: {k: v["map"] for k, v in per.items()} for g, per in data.get("games", {}).items()}


def _sigmoid(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-z)) if z > -30 else 0.0


def _logit(v: float) -> float:
    v = min(max(v, _EDGE), 1 - _EDGE)
    return math.log(v / (1 - v))


def to_chance(value: float, slug: str, players: int) -> float:
    """The win chance of a search value (mean reward) in ``slug`` with ``players`` players: the
    fitted map where the game has one for that many players, else the value itself."""
    ab = calibration_table().get(slug, {}).get(str(players))
    if ab is None or math.isnan(value):
        return value
    return _sigmoid(ab[0] * _logit(value) + ab[1])


def fit_map(points: list[tuple[float, float]], steps: int = 100, ridge: float = 0.5) -> list[float]:
    """``[a, b]`` of the logistic map from search values to outcomes (win shares in [0, 1]) that
    minimises the log loss plus a ridge pulling toward ``[1, 0]`` (damped Newton steps)."""
    xs = [_logit(p) for p, _ in points]
    ys = [y for _, y in points]

    def loss(a: float, b: float) -> float:
        total = ridge / 2 * ((a - 1) ** 2 + b * b)
        for x, y in zip(xs, ys):
            z = a * x + b
            # log(1 + e^z) - y z, computed without overflow
            total += (z if z > 0 else 0.0) + math.log1p(math.exp(-abs(z))) - y * z
        return total

    a, b = 1.0, 0.0
    current = loss(a, b)
    for _ in range(steps):
        ga, gb = ridge * (a - 1), ridge * b
        gaa = gbb = ridge
        gab = 0.0
        for x, y in zip(xs, ys):
            q = _sigmoid(a * x + b)
            w = q * (1 - q)
            ga += (q - y) * x
            gb += q - y
            gaa += w * x * x
            gab += w * x
            gbb += w
        det = gaa * gbb - gab * gab
        da, db = (gbb * ga - gab * gb) / det, (gaa * gb - gab * ga) / det
        t = 1.0
        while t > 1e-6 and loss(a - t * da, b - t * db) > current:
            t /= 2
        if t <= 1e-6:
            break
        a, b = a - t * da, b - t * db
        new = loss(a, b)
        if current - new < 1e-10:
            current = new
            break
        current = new
    return [round(a, 4), round(b, 4)]


def _candidates(root: _Node | dict[str, list[float]], seat: int, slug: str, players: int) -> list[Candidate]:
    out = []
    if isinstance(root, dict):  # a paired search: every action's rewards
        for a, xs in root.items():
            if xs:
                out.append(_candidate(a, len(xs), sum(xs), sum(x * x for x in xs), slug, players))
    else:
        for (p, a), e in root.edges.items():
            if p == seat and not a.startswith("#") and e[0] > 0:  # "#buy": a move group
                out.append(_candidate(a, int(e[0]), e[1], e[3], slug, players))
    return out


def _candidate(action: str, n: int, total: float, squares: float, slug: str, players: int) -> Candidate:
    """A root action's figures, its mean and standard error carried to the win-chance scale
    (the error by the map's slope at the mean)."""
    mean = total / n
    error = math.sqrt(max(squares / n - mean * mean, 0.0) / (n - 1)) if n >= 2 else None
    chance = to_chance(mean, slug, players)
    if error is not None and chance != mean:
        h = 1e-4
        slope = abs(to_chance(min(mean + h, 1.0), slug, players) - to_chance(max(mean - h, 0.0), slug, players)) / (
            min(mean + h, 1.0) - max(mean - h, 0.0))
        error *= slope
    return Candidate(action, chance, n, error, round(mean, 4))


def evaluate(state: State, seat: int, budget: str | int | Budget | None = None, seed: int = 0) -> Evaluation:
    """The search's figures for ``seat``'s decision in ``state`` (``seat`` must be one of those
    to act), from the seat's own information only: the search starts from a fair view of the
    position (the others' hidden cards re-dealt, the future dice unknown), seeded from ``seed``,
    the decisions the seat knows of (:meth:`State.shown_ply`) and the seat. A decision with one
    legal action needs no search: its one candidate has no figures (``visits`` 0, ``chance`` NaN)."""
    if seat not in state.players_to_act():
        raise ThievesError(f"seat {seat + 1} is not to act: there is nothing to evaluate")
    b = review_budget(budget)
    from . import search_spec  # the package imports this module's neighbours
    # seeded by what the seat knows of the game so far: the others' secret steps (how many they
    # took of a secret phase) must not change its figures
    known = state.shown_ply(seat)
    bot = MCTSBot(seed=bot_seed("review", seed, known, seat), budget=b, spec=search_spec(state.game.slug))
    bot.stop_when_decided = False  # every iteration run: the figures of the other candidates count
    view = fair_view(state, seat, view_seed(seed, known, seat))
    choice = bot.choose(view, seat)
    root = bot.last_root
    if root is None:  # one sensible action: nothing was searched
        return Evaluation(seat, choice, math.nan, (Candidate(choice, math.nan, 0),), 0)
    cands = _candidates(root, seat, state.game.slug, state.num_players)
    paired = isinstance(root, dict)
    cands.sort(key=lambda c: (c.action != choice, -(c.chance if paired else c.visits), -c.chance))
    first = cands[0] if cands and cands[0].action == choice else Candidate(choice, math.nan, 0)
    return Evaluation(seat, choice, first.chance, tuple(cands), bot.last_iterations, first.value)


# -- reviewing a game ------------------------------------------------------------------------
def decisions(replay: Replay) -> Iterable[tuple[int, State, int, str]]:
    """``(index, state before, seat, action played)`` for every recorded decision of a seat
    that had a choice (one object, advanced: read it before asking for the next)."""
    states = replay.states()
    state = next(states)
    for i, (seat, action) in enumerate(replay.actions):
        if len(state.legal_actions(seat)) > 1:
            yield i, state, seat, action
        state = next(states)


def mark(drop: Optional[float], error: Optional[float]) -> Optional[str]:
    """The lichess-style mark of a fall in win share (:data:`MARKS`, :data:`MARK_MARGIN`)."""
    if drop is None or error is None or drop <= MARK_MARGIN * error:
        return None
    return next((name for name, at in MARKS if drop >= at), None)


def judge(ev: Evaluation, played: str) -> dict[str, Any]:
    """One decision of a review (docs/review.md): the figures of the choice and of the move played."""
    best, mine = ev.of(ev.choice), ev.of(played)
    drop = error = None
    if best is not None and mine is not None and mine.visits and not math.isnan(ev.chance):
        drop = max(ev.chance - mine.chance, 0.0) if played != ev.choice else 0.0
        if best.error is not None and mine.error is not None:
            error = math.sqrt(best.error ** 2 + mine.error ** 2)
        elif played == ev.choice:
            error = 0.0
    return {"chance": _r(ev.chance), "played": played, "played_chance": _r(mine.chance) if mine else None,
            "played_visits": mine.visits if mine else 0, "best": ev.choice, "best_chance": _r(ev.chance),
            "drop": _r(drop), "mark": mark(drop, error), "iterations": ev.iterations,
            "candidates": [c.to_json() for c in ev.top(3)]}


def _r(x: Optional[float]) -> Optional[float]:
    return None if x is None or math.isnan(x) else round(x, 4)


def _review_part(text: str, indices: list[int], budget: int, seed: int) -> list[tuple[int, dict[str, Any]]]:
    """Evaluate the decisions ``indices`` of the record ``text`` (one process's share)."""
    wanted, out = set(indices), []
    for i, state, seat, action in decisions(Replay.from_json(text)):
        if i in wanted:
            entry = judge(evaluate(state, seat, budget, seed), action)
            out.append((i, {"index": i, "seat": seat, **entry}))
    return out


Progress = Callable[[int, int], None]


def review(record: Replay | str, budget: str | int | Budget | None = None, seed: int = 0, jobs: int = 1,
           progress: Optional[Progress] = None, seats: Optional[list[int]] = None) -> dict[str, Any]:
    """Review every decision with a choice of a recorded game (``seats``: only theirs), with
    ``jobs`` processes; ``progress(done, total)`` after each decision (or each process's share).
    Returns the review as plain JSON (docs/review.md)."""
    replay = record if isinstance(record, Replay) else Replay.from_json(record)
    text = replay.to_json()
    b = review_budget(budget)
    assert b.iterations is not None
    todo = [i for i, _s, seat, _a in decisions(replay) if seats is None or seat in seats]
    results: dict[int, dict[str, Any]] = {}
    total = len(todo)
    if jobs <= 1 or total < 2:
        for i, state, seat, action in decisions(replay):
            if seats is not None and seat not in seats:
                continue
            results[i] = {"index": i, "seat": seat, **judge(evaluate(state, seat, b.iterations, seed), action)}
            if progress:
                progress(len(results), total)
    else:
        # small interleaved shares: every process replays the record once per share
        shares = [todo[k::jobs * 4] for k in range(min(jobs * 4, total))]
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            futures = [pool.submit(_review_part, text, share, b.iterations, seed) for share in shares]
            for f in futures:
                for i, entry in f.result():
                    results[i] = entry
                if progress:
                    progress(len(results), total)
    final = replay.final_state()
    return _assemble(replay, final, [results[i] for i in sorted(results)], b.iterations, seed)


def _assemble(replay: Replay, final: State, entries: list[dict[str, Any]], iterations: int,
              seed: int) -> dict[str, Any]:
    n = replay.num_players
    per_seat: list[dict[str, Any]] = []
    for seat in range(n):
        mine = [{k: v for k, v in e.items() if k != "seat"} for e in entries if e["seat"] == seat]
        marked = sorted((e for e in mine if e["mark"]), key=lambda e: (-e["drop"], e["index"]))
        per_seat.append({
            "seat": seat, "name": replay.players[seat] if seat < len(replay.players) else f"Player {seat + 1}",
            "decisions": mine, "worst": [e["index"] for e in marked[:WORST]],
            "marks": {name: sum(1 for e in mine if e["mark"] == name) for name, _ in MARKS}})
    over = final.is_terminal()
    return {"format": FORMAT, "game": replay.game, "num_players": n, "game_seed": replay.seed,
            "review_seed": seed, "budget": iterations,
            "thresholds": {name: at for name, at in MARKS}, "mark_margin": MARK_MARGIN,
            "finished": over, "winners": final.winners() if over else None,
            "scores": [float(x) for x in final.scores()] if over else None,
            "seats": per_seat}


# -- calibration -----------------------------------------------------------------------------
def _calibration_game(slug: str, players: int, game_seed: int, per_game: int, iterations: int,
                      seed: int) -> list[tuple[float, float]]:
    """One seeded greedy-against-greedy game: ``(search value, real win share)`` at ``per_game``
    of its decisions with a choice, drawn from the seed (the value before any map)."""
    from ..core.registry import load_game
    from ..core.rng import Rng
    from . import make_bot, play_game
    state = load_game(slug).new_game(players, game_seed)
    play_game(state, [make_bot("greedy", slug, bot_seed("calibration", game_seed, p)) for p in range(players)],
              seed=game_seed)
    replay = Replay.of(state)
    winners = state.winners()
    share = [1.0 / len(winners) if p in winners else 0.0 for p in range(players)]
    choices = [i for i, _s, _p, _a in decisions(replay)]
    rng = Rng.from_seed(bot_seed("calibration-sample", game_seed, seed))
    picked: set[int] = set()
    while len(picked) < min(per_game, len(choices)):
        picked.add(choices[rng.below(len(choices))])
    out = []
    for i, st, seat, _a in decisions(replay):
        if i in picked:
            ev = evaluate(st, seat, iterations, seed)
            if ev.value is not None and not math.isnan(ev.value):
                out.append((ev.value, share[seat]))
    return out


def _brier(points: list[tuple[float, float]], predict: Callable[[float], float]) -> Optional[float]:
    return _r(sum((predict(p) - y) ** 2 for p, y in points) / len(points)) if points else None


def calibrate(slug: str, players: int, games: int, per_game: int = 4, budget: str | int | None = None,
              seed: int = 0, jobs: int = 1, progress: Optional[Progress] = None) -> dict[str, Any]:
    """How honest the win chance is, over ``per_game`` sampled decisions of ``games`` seeded
    greedy-against-greedy games (game seeds ``seed``, ``seed + 1``...), each compared with the
    deciding seat's real win share by the Brier score (mean squared error; lower is better):

    * ``brier_fair_share``: the constant predictor 1 / players;
    * ``brier_raw``: the search's value as it is;
    * ``brier_heldout``: the logistic map (:func:`fit_map`) fitted on the even games, scored on
      the odd ones (an honest figure for a map fitted on data);
    * ``map``: the map fitted on all of them, what ``review_calibration.json`` keeps.

    docs/review.md "Calibration"."""
    b = review_budget(budget)
    assert b.iterations is not None
    per: list[list[tuple[float, float]]] = []
    args = [(slug, players, seed + g, per_game, b.iterations, seed) for g in range(games)]
    if jobs <= 1:
        for k, a in enumerate(args):
            per.append(_calibration_game(*a))
            if progress:
                progress(k + 1, games)
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            for k, part in enumerate(pool.map(_calibration_game, *zip(*args))):
                per.append(part)
                if progress:
                    progress(k + 1, games)
    points = [x for part in per for x in part]
    train = [x for g, part in enumerate(per) if g % 2 == 0 for x in part]
    test = [x for g, part in enumerate(per) if g % 2 == 1 for x in part]
    fair = 1.0 / players

    def mapped(ab: list[float]) -> Callable[[float], float]:
        return lambda v: _sigmoid(ab[0] * _logit(v) + ab[1])

    held = fit_map(train) if train else [1.0, 0.0]
    return {"game": slug, "players": players, "games": games, "per_game": per_game, "budget": b.iterations,
            "seed": seed, "samples": len(points), "test_samples": len(test),
            "brier_fair_share": _brier(points, lambda v: fair), "brier_raw": _brier(points, lambda v: v),
            "brier_fair_share_test": _brier(test, lambda v: fair), "brier_raw_test": _brier(test, lambda v: v),
            "brier_heldout": _brier(test, mapped(held)),
            "map": fit_map(points) if points else None, "bins": _bins(points),
            "points": [[round(p, 4), round(y, 4)] for p, y in points]}


def _bins(points: list[tuple[float, float]]) -> list[dict[str, Any]]:
    """Reliability of the raw values: mean value and mean outcome per fifth of [0, 1]."""
    out = []
    for k in range(5):
        lo, hi = k / 5, (k + 1) / 5
        inside = [(p, y) for p, y in points if lo <= p < hi or (k == 4 and p == 1.0)]
        if inside:
            out.append({"from": lo, "to": hi, "n": len(inside),
                        "value": round(sum(p for p, _ in inside) / len(inside), 4),
                        "observed": round(sum(y for _, y in inside) / len(inside), 4)})
    return out


def write_map(result: dict[str, Any], path: Path = CALIBRATION_FILE) -> bool:
    """Keep ``result``'s map (of :func:`calibrate`) in the calibration file, with how it was made,
    when the map fitted on the even games beat the search's value as it is on the odd ones;
    otherwise drop any map of that game and number of players (the value is shown as it is).
    Returns whether a map is kept."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        data = {"about": "docs/review.md, Calibration: sigmoid(a * logit(v) + b) per game and players",
                "games": {}}
    per = data["games"].setdefault(result["game"], {})
    held, raw = result.get("brier_heldout"), result.get("brier_raw_test")
    keep = result["map"] is not None and held is not None and (raw is None or held < raw)
    if keep:
        per[str(result["players"])] = {
            "map": result["map"], "games": result["games"], "per_game": result["per_game"],
            "budget": result["budget"], "seed": result["seed"], "samples": result["samples"],
            "brier_fair_share_test": result["brier_fair_share_test"], "brier_raw_test": raw,
            "brier_heldout": held}
    else:
        per.pop(str(result["players"]), None)
        if not per:
            del data["games"][result["game"]]
    path.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    calibration_table.cache_clear()
    return keep
