"""Information-set Monte Carlo tree search (IS-MCTS) for every game of the contract.

One search tree is grown over many *determinizations*: each iteration draws a
copy of the position consistent with what the searching player knows
(``state.determinize(player, seed)``: other players' hidden cards re-dealt,
the generator re-seeded so the real future dice stay unknown), walks down the
tree by UCB, adds one node, plays the game on with a playout policy for at most
``max_depth`` decisions and backs up one reward per player.

This is the single-observer IS-MCTS of Cowling, Powley & Whitehouse (2012):
an edge counts how often its action was *available* as well as how often it
was chosen, so actions that exist only in some determinizations are judged
fairly. Simultaneous secret choices (several players in ``players_to_act()``)
use decoupled selection: each of those players picks with its own statistics,
as if it did not know the others' choices, and the joint move is one edge.

Games tune the search with a :class:`SearchSpec` named ``SEARCH`` in their
``bots`` module: a heuristic for playouts cut before the end, a cheaper or
greedier playout policy, and *move groups* (Childs, Brodeur & Kocsis 2008) so
that a turn made of many tiny decisions first chooses the kind of move. With a
``prior`` bot and a ``prior_margin``, the search keeps the prior's choice unless its own
clearly wins more often (Age of Thieves: greedy playouts to the end of the game, so the
search is greedy with one step of lookahead).

Budgets: ``mcts:200`` runs 200 iterations per decision (same seed, same
choice: good for reproducible simulations), ``mcts:1s`` or ``mcts:250ms``
searches for that long. A search stops early once no other action can catch up
with its choice in the iterations left (:meth:`MCTSBot._decided`), so an
iteration budget chooses exactly what it would with every iteration run.
"""
from __future__ import annotations

import json
import math
import re
import time
from dataclasses import dataclass
from typing import Callable, Optional

from ..core.errors import ThievesError
from ..core.game import State
from ..core.rng import Rng
from .base import Bot
from .fair import HIDDEN  # another player's hidden choice, as the searcher's tree keys it

#: heuristic value of a position for one player (higher is better)
Heuristic = Callable[[State, int], float]
#: playout policy: ``(state, player, legal_actions, rng) -> action``
Rollout = Callable[[State, int, list[str], Rng], str]


@dataclass(frozen=True)
class SearchSpec:
    """How IS-MCTS plays one game.

    ``heuristic(state, p)`` values a position for ``p`` when a playout is cut
    after ``max_depth`` decisions (default: the scores). Player ``p``'s reward
    is then the mean over rivals ``q`` of ``sigmoid((h_p - h_q) / scale)``, a
    soft "am I ahead of q". ``rollout`` picks playout decisions (default:
    uniform random). ``group(action)`` names the move group of an action
    (``None``: no groups). ``horizon(state)`` ends a playout early where its value
    changes (Age of Thieves: the round number, so every playout runs to the end of its
    round), and ``tree_depth`` caps how deep the tree grows (1: flat Monte Carlo over the
    root's actions). Both default to ``None``, which changes nothing.
    """

    heuristic: Optional[Heuristic] = None
    scale: float = 1.0
    rollout: Optional[Rollout] = None
    group: Optional[Callable[[str], str]] = None
    max_depth: int = 60
    exploration: float = 0.7
    #: consecutive own decisions after which the bot prefers actions that hand over the turn
    #: (guards against free actions that undo each other, e.g. stash / fetch)
    long_turn: int = 40
    #: a bot class (taking ``seed``) whose choice at the root counts as ``prior_weight`` times
    #: the iterations in extra visits: the search leaves that choice only on clear evidence
    prior: Optional[Callable[..., Bot]] = None
    prior_weight: float = 0.25
    #: a playout also ends (valued by ``heuristic``) as soon as ``horizon(state)`` differs from
    #: its value where the playout began: the round number plays each playout to the end of
    #: its round (``None``: only ``max_depth`` cuts)
    horizon: Optional[Callable[[State], object]] = None
    #: the tree grows at most this many decisions below the root (1: flat Monte Carlo, each
    #: root action valued by its playouts alone; ``None``: no limit)
    tree_depth: Optional[int] = None
    #: in a simultaneous step the searching player does not see the others' choices: its
    #: tree does not branch on them (Cowling, Powley & Whitehouse's partially observable
    #: moves), so its own later choices in the tree cannot depend on them. Without it, a
    #: plan laid one tile a step beside a rival's lets the searcher's second tile answer
    #: the rival's first, which no player can do at the table. Off in every game: it also
    #: stops branching on those choices once they are revealed (measured in docs/engine.md).
    hide_simultaneous: bool = False
    #: with a ``prior``: the search plays its own choice instead of the prior's only where that
    #: choice's mean reward beats the prior's by more than this many standard errors (of the
    #: difference of the two means, from the rewards' spread); otherwise it keeps the prior's
    #: choice. ``None``: the most visited action, as without a prior.
    prior_margin: Optional[float] = None
    #: flat search with common random numbers: each iteration draws one determinization and one
    #: playout seed and plays *every* root action out from them, so two actions are compared on
    #: the same hidden cards, dice and playout choices (the differences of paired playouts vary
    #: far less than two independent means). The prior's choice stands unless another action's
    #: mean paired gain over it exceeds ``prior_margin`` (default 1) standard errors; without a
    #: prior, the best mean. The budget counts playouts. Replaces the tree and its UCB.
    paired: bool = False


DEFAULT_SPEC = SearchSpec()


@dataclass(frozen=True)
class Budget:
    """Iterations per decision, or seconds per decision (exactly one is set)."""

    iterations: int | None = None
    seconds: float | None = None

    def __str__(self) -> str:
        if self.iterations is not None:
            return str(self.iterations)
        return f"{self.seconds:g}s"


_BUDGET = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(s|ms)?\s*$")


def parse_budget(text: str | int | float | None, default: Budget = Budget(seconds=1.0)) -> Budget:
    """``"200"`` -> 200 iterations; ``"1s"``, ``"0.5s"``, ``"250ms"`` -> seconds per decision."""
    if text is None or text == "":
        return default
    if isinstance(text, int) and not isinstance(text, bool):
        text = str(text)
    m = _BUDGET.match(str(text))
    if not m:
        raise ThievesError(f"an mcts budget is a number of iterations (mcts:200) or a time "
                           f"(mcts:1s, mcts:250ms), not {text!r}")
    number, unit = m.groups()
    if unit is None:
        if "." in number or int(number) < 1:
            raise ThievesError(f"the iterations of an mcts budget must be a whole number >= 1, not {text!r}")
        return Budget(iterations=int(number))
    seconds = float(number) / (1000.0 if unit == "ms" else 1.0)
    if seconds <= 0:
        raise ThievesError(f"an mcts time budget must be positive, not {text!r}")
    return Budget(seconds=seconds)


class _Node:
    """Edges keyed ``(player, action)`` (or ``(player, "#group")``) ->
    ``[visits, reward, available, reward squared]``;
    children keyed by the decision made: ``(player, action)`` or a tuple of them (joint move)."""

    __slots__ = ("edges", "children")

    def __init__(self) -> None:
        self.edges: dict[tuple[int, str], list[float]] = {}
        self.children: dict[object, _Node] = {}


def _fresh(state: State, player: int, seed: int) -> State:
    """A determinization whose legal-action cache cannot carry the real position's answers."""
    d = state.determinize(player, seed)
    d._legal_cache = None
    d.mute()  # a throwaway copy: nobody reads the log of its iteration
    return d


def rewards(state: State, spec: SearchSpec = DEFAULT_SPEC) -> list[float]:
    """One reward in [0, 1] per player: the win share once the game is over, else a soft
    comparison of the heuristic values (see :class:`SearchSpec`)."""
    n = state.num_players
    if state.is_terminal():
        winners = state.winners()
        share = 1.0 / len(winners) if winners else 0.0
        return [share if p in winners else 0.0 for p in range(n)]
    if spec.heuristic is None:
        h = [float(x) for x in state.scores()]
    else:
        h = [spec.heuristic(state, p) for p in range(n)]
    if n == 1:
        return [0.5]
    scale = spec.scale or 1.0
    out = []
    for p in range(n):
        total = 0.0
        for q in range(n):
            if q != p:
                x = (h[p] - h[q]) / scale
                total += 1.0 / (1.0 + math.exp(-x)) if x > -30 else 0.0
        out.append(total / (n - 1))
    return out


class MCTSBot(Bot):
    """Information-set MCTS with decoupled selection for simultaneous choices."""

    name = "mcts"
    #: stop a search once its choice can no longer change (see :meth:`_decided`)
    stop_when_decided = True

    def __init__(self, seed: int = 0, budget: str | Budget | None = None,
                 spec: SearchSpec | None = None) -> None:
        super().__init__(seed)
        self.budget = budget if isinstance(budget, Budget) else parse_budget(budget)
        self.spec = spec or DEFAULT_SPEC
        #: iterations run by the last ``choose`` (for tests and benchmarks)
        self.last_iterations = 0
        #: the iterations of every search this bot ran (a decision with one sensible
        #: action is no search); match records report them
        self.searches: list[int] = []
        #: positions (as this player saw them) already met in this game, to avoid cycles
        self._seen: set[str] = set()
        self._last_len = -1
        self._prior: Bot | None = None
        #: the player whose decision is being searched
        self._player = -1
        #: the root of the last search, read by :mod:`thieves.bots.review` (never by the
        #: choice): the tree's root node, or for a paired search each action's rewards;
        #: ``None`` after a decision that needed no search
        self.last_root: _Node | dict[str, list[float]] | None = None
        #: the prior's choice at the last search's root (``None``: no prior)
        self.last_prior: str | None = None

    # -- the search -------------------------------------------------------------------------
    def choose(self, state: State, player: int) -> str:
        self.last_root = self.last_prior = None
        actions = state.legal_actions(player)
        if len(actions) == 1:
            self.last_iterations = 0
            return actions[0]
        actions = self._without_cycles(state, player, actions)
        if len(actions) == 1:
            self.last_iterations = 0
            return actions[0]
        self._player = player
        prior = self.last_prior = self._prior_choice(state, player)
        if self.spec.paired:
            return self._choose_paired(state, player, actions, prior)
        root = self.last_root = _Node()
        budget = self.budget
        start = time.perf_counter()
        deadline = None if budget.seconds is None else start + budget.seconds
        limit = budget.iterations
        n = planned = 0
        while True:
            self._iterate(root, _fresh(state, player, self.rng.next64()))
            n += 1
            if limit is not None:
                if n >= limit:
                    planned = n
                    break
                left = limit - n
            else:
                now = time.perf_counter()
                if now >= deadline:  # type: ignore[operator]
                    planned = n
                    break
                # iterations the rest of the time would run at the pace so far, with a margin
                left = math.ceil(1.25 * n * (deadline - now) / max(now - start, 1e-9))  # type: ignore[operator]
            if self.stop_when_decided and n % 8 == 0 and self._decided(root, player, actions, prior, n + left, left):
                planned = n + left
                break
        self.last_iterations = n
        self.searches.append(n)
        bonus = {prior: self.spec.prior_weight * planned} if prior is not None else {}
        choice = self.best(root, player, actions, bonus)
        if prior is not None and self.spec.prior_margin is not None and choice != prior:
            if not self.clearly_better(root, player, choice, prior, self.spec.prior_margin):
                return prior
        return choice

    def _choose_paired(self, state: State, player: int, actions: list[str], prior: str | None) -> str:
        """The search of :attr:`SearchSpec.paired`: rounds of one playout per root action, all
        from the same determinization and playout seed, until the budget of playouts is spent
        (a time budget stops before a round it has no time left to finish)."""
        budget, k = self.budget, len(actions)
        start = time.perf_counter()
        samples: dict[str, list[float]] = {a: [] for a in actions}
        self.last_root = samples
        rounds = 0
        while True:
            if budget.iterations is not None:
                if rounds and (rounds + 1) * k > budget.iterations:
                    break
            elif rounds:
                spent = time.perf_counter() - start
                if spent * (rounds + 1) / rounds > budget.seconds:  # type: ignore[operator]
                    break
            # a seed for the copy and one for the playouts' choices: the default copy gives
            # the game's generator its seed, and the two streams must not be the same
            seed, choices = self.rng.next64(), self.rng.next64()
            for a in actions:
                d = _fresh(state, player, seed)
                d.apply_trusted(player, a)
                values = rewards(d, self.spec) if d.is_terminal() else self._playout(d, Rng.from_seed(choices))
                samples[a].append(values[player])
            rounds += 1
        self.last_iterations = rounds * k
        self.searches.append(rounds * k)
        return self.paired_choice(samples, prior, 1.0 if self.spec.prior_margin is None
                                  else self.spec.prior_margin)

    @staticmethod
    def paired_choice(samples: dict[str, list[float]], prior: str | None, margin: float) -> str:
        """The choice of a paired search from each action's rewards, sample ``i`` of every action
        played from the same determinization: without a prior the best mean (ties: listed
        order); with one, the action of largest mean gain over the prior among those whose gain
        exceeds ``margin`` standard errors of the paired differences, else the prior."""
        if prior is None or prior not in samples:
            return max(samples, key=lambda a: sum(samples[a]))
        base = samples[prior]
        n = len(base)
        best, best_gain = prior, 0.0
        if n < 2:
            return prior
        for a, xs in samples.items():
            diffs = [x - y for x, y in zip(xs, base)]
            gain = sum(diffs) / n
            var = sum((x - gain) ** 2 for x in diffs) / (n - 1)
            if gain > best_gain and gain * gain * n > margin * margin * var:
                best, best_gain = a, gain
        return best

    @staticmethod
    def clearly_better(root: _Node, player: int, a: str, b: str, margin: float) -> bool:
        """True when ``a``'s mean reward at the root beats ``b``'s by more than ``margin``
        standard errors of the difference (Welch's; an action tried fewer than twice has no
        spread to judge by, so nothing beats it and it beats nothing)."""
        ea, eb = root.edges.get((player, a)), root.edges.get((player, b))
        if ea is None or eb is None or ea[0] < 2 or eb[0] < 2:
            return False
        va = max(ea[3] / ea[0] - (ea[1] / ea[0]) ** 2, 0.0) / (ea[0] - 1)
        vb = max(eb[3] / eb[0] - (eb[1] / eb[0]) ** 2, 0.0) / (eb[0] - 1)
        diff = ea[1] / ea[0] - eb[1] / eb[0]
        return diff > 0 and diff * diff > margin * margin * (va + vb)

    def _prior_choice(self, state: State, player: int) -> str | None:
        """The prior bot's choice at the root (``None`` when the game's search has no prior)."""
        if self.spec.prior is None:
            return None
        if self._prior is None:
            self._prior = self.spec.prior(seed=self.rng.next64() >> 1)
        return self._prior.choose(state, player)

    def _decided(self, root: _Node, player: int, actions: list[str], prior: str | None,
                 planned: int, left: int) -> bool:
        """True when no other action can overtake the leader in the ``left`` iterations still
        to run: each iteration adds one visit to one root action of ``player``, so a lead of
        more than ``left`` visits (the prior's extra visits counted for the whole ``planned``
        budget) stands whatever they bring. :meth:`best` then names the same action as the
        whole budget would. With a ``prior_margin`` that holds only while the prior leads:
        a leader against the prior still has its means to be judged by."""
        edges = root.edges
        first = second = -1.0
        bonus = self.spec.prior_weight * planned
        for a in actions:
            e = edges.get((player, a))
            v = (e[0] if e is not None else 0.0) + (bonus if a == prior else 0.0)
            if v > first:
                first, second = v, first
            elif v > second:
                second = v
        if self.spec.prior_margin is not None and prior is not None:
            e = edges.get((player, prior))
            lead = (e[0] if e is not None else 0.0) + bonus
            if lead < first:
                return False
        return first - second > left

    @staticmethod
    def _key(state: State, player: int) -> str:
        obs = state.observation(player)
        for k in ("ply", "log"):
            obs.pop(k, None)
        return json.dumps(obs, sort_keys=True, default=str)

    def _without_cycles(self, state: State, player: int, actions: list[str]) -> list[str]:
        """Drop actions that lead back to a position this bot has already seen in this game
        (free actions undoing each other), and after a long run of own decisions keep only
        the actions that hand over the turn, where there are such."""
        if len(state.history) < self._last_len:
            self._seen.clear()  # a new game
        self._last_len = len(state.history)
        self._seen.add(self._key(state, player))
        fresh, passing = [], []
        for a in actions:
            t = state.clone()
            t.apply_action(player, a)
            if self._key(t, player) not in self._seen:
                fresh.append(a)
            if t.players_to_act() != [player]:
                passing.append(a)
        run = 0
        for q, _ in reversed(state.history):
            if q != player:
                break
            run += 1
        if run >= self.spec.long_turn and passing:
            return passing
        return fresh or actions

    def best(self, root: _Node, player: int, actions: list[str],
             bonus: dict[str, float] | None = None) -> str:
        """The most visited root action of ``player`` (plus the prior's extra visits; ties:
        higher mean reward, then listed order)."""
        best, key = actions[0], (-1.0, -1.0)
        bonus = bonus or {}
        for a in actions:
            e = root.edges.get((player, a))
            if e is None:
                if a in bonus:
                    k = (bonus[a], 0.0)
                    if k > key:
                        best, key = a, k
                continue
            k = (e[0] + bonus.get(a, 0.0), e[1] / e[0] if e[0] else 0.0)
            if k > key:
                best, key = a, k
        return best

    def _iterate(self, root: _Node, d: State) -> None:
        spec = self.spec
        path: list[tuple[_Node, list[tuple[int, str]]]] = []
        node = root
        expanded = False
        depth = spec.tree_depth
        while not d.is_terminal():
            if depth is not None and len(path) >= depth:
                break
            to_act = d.players_to_act()
            if len(to_act) == 1:
                p = to_act[0]
                used, a, new = self._select(node, p, d.legal_actions(p))
                d.apply_trusted(p, a)  # one of this position's legal actions
                key: object = (p, a)
            else:
                # decoupled: every player to act chooses on its own statistics, then all apply
                picks, used, new = [], [], False
                for p in to_act:
                    u, a, nw = self._select(node, p, d.legal_actions(p))
                    picks.append((p, a))
                    used.extend(u)
                    new = new or nw
                joint = []
                for p, a in picks:
                    legal = d.legal_actions(p)
                    if not legal:
                        continue
                    if a not in legal:  # an earlier choice changed this player's options
                        a = legal[self.rng.below(len(legal))]
                    d.apply_trusted(p, a)
                    joint.append((p, a))
                key = tuple(joint)
                if spec.hide_simultaneous:
                    key = tuple((p, a if p == self._player else HIDDEN) for p, a in joint)
            path.append((node, used))
            child = node.children.get(key)
            if child is None:
                child = node.children[key] = _Node()
                expanded = True
            node = child
            if expanded or new:
                break
        values = self._playout(d) if not d.is_terminal() else rewards(d, spec)
        for nd, used in path:
            edges = nd.edges
            for p, a in used:
                e = edges[(p, a)]
                v = values[p]
                e[0] += 1
                e[1] += v
                e[3] += v * v

    def _select(self, node: _Node, p: int, acts: list[str]) -> tuple[list[tuple[int, str]], str, bool]:
        """UCB choice of ``p`` among ``acts`` (by move group first when the game has groups).
        Returns the edges used, the action and whether an untried edge was taken."""
        group = self.spec.group
        if group is None or len(acts) < 3:
            a, new = self._ucb(node, p, acts)
            return [(p, a)], a, new
        groups: dict[str, list[str]] = {}
        for a in acts:
            groups.setdefault("#" + group(a), []).append(a)
        if len(groups) == 1:
            a, new = self._ucb(node, p, acts)
            return [(p, a)], a, new
        g, new_g = self._ucb(node, p, list(groups))
        a, new_a = self._ucb(node, p, groups[g])
        return [(p, g), (p, a)], a, new_g or new_a

    def _ucb(self, node: _Node, p: int, acts: list[str]) -> tuple[str, bool]:
        edges = node.edges
        untried = []
        best, best_v = acts[0], -1.0
        c = self.spec.exploration
        for a in acts:
            e = edges.get((p, a))
            if e is None:
                untried.append(a)
                continue
            e[2] += 1
            if not untried:
                v = e[1] / e[0] + c * math.sqrt(math.log(e[2]) / e[0]) if e[0] else 1e9
                if v > best_v:
                    best, best_v = a, v
        if untried:
            a = untried[self.rng.below(len(untried))]
            edges[(p, a)] = [0, 0.0, 1, 0.0]
            return a, True
        return best, False

    def _playout(self, d: State, rng: Rng | None = None) -> list[float]:
        """Play on from ``d`` by the game's rollout policy (default: the trusted random
        playout, :meth:`State.random_playout`) for at most ``max_depth`` decisions, drawing
        with ``rng`` (default: the bot's own generator)."""
        spec = self.spec
        rollout = spec.rollout
        rng = rng or self.rng
        horizon = spec.horizon
        if rollout is None and horizon is None:
            d.random_playout(rng, spec.max_depth)
            return rewards(d, spec)
        mark = horizon(d) if horizon is not None else None
        for _ in range(spec.max_depth):
            if d.is_terminal():
                break
            if horizon is not None and horizon(d) != mark:
                break
            to_act = d.players_to_act()
            p = to_act[0] if len(to_act) == 1 else to_act[rng.below(len(to_act))]
            acts = d.legal_actions(p)
            if len(acts) == 1:
                a = acts[0]
            else:
                a = rollout(d, p, acts, rng) if rollout is not None else acts[rng.below(len(acts))]
            d.apply_trusted(p, a)
        return rewards(d, spec)


def sampled_greedy_rollout(heuristic: Heuristic, sample: int = 3, greedy: float = 0.5) -> Rollout:
    """A playout policy: with probability ``greedy`` try up to ``sample`` random legal actions
    one ply ahead and keep the best by ``heuristic``; otherwise play at random."""

    def rollout(state: State, player: int, acts: list[str], rng: Rng) -> str:
        if len(acts) == 1 or rng.random() >= greedy:
            return acts[rng.below(len(acts))]
        best, best_v = acts[0], float("-inf")
        for _ in range(min(sample, len(acts))):
            a = acts[rng.below(len(acts))]
            trial = state.clone()
            trial.apply_trusted(player, a)
            v = heuristic(trial, player)
            if v > best_v:
                best, best_v = a, v
        return best

    return rollout


def verb_group(action: str) -> str:
    """Move group of an action: its first word (``"buy A11"`` -> ``"buy"``)."""
    return action.split(" ", 1)[0]
