"""Conformance kit that every game's test suite runs.

Modelled on OpenSpiel's random-simulation tests and TAG's forward-model
tester: seeded random games at every player count, checking at every step
that the engine contract holds. Use it from a game's tests::

    from thieves.testing import check_conformance
    def test_conformance():
        check_conformance("thiefs-market", games_per_count=5)

Each check raises ``AssertionError`` with the seed and step that failed.
"""
from __future__ import annotations

import json
from typing import Any, Iterable, Iterator

from .core.errors import IllegalAction
from .core.game import State
from .core.registry import GAME_MODULES, load_game
from .core.replay import Replay
from .core.rng import Rng

JUNK_ACTIONS = ["", " ", "???", "pass pass pass", "x" * 200, "\u00e9\u0000", "-1", "999999"]


def random_step(state: State, rng: Rng) -> tuple[int, str]:
    """Apply one random legal decision; returns (player, action)."""
    to_act = state.players_to_act()
    assert to_act, f"non-terminal state with nobody to act at ply {state.ply}"
    player = to_act[rng.below(len(to_act))]
    actions = state.legal_actions(player)
    assert actions, f"player {player} must act but has no legal action at ply {state.ply}"
    assert len(actions) == len(set(actions)), f"duplicate legal actions at ply {state.ply}: {actions}"
    action = actions[rng.below(len(actions))]
    state.apply_action(player, action)
    return player, action


def positions_along(state: State, seed: int, every: int = 1, end: bool = False) -> Iterator[State]:
    """Every ``every``-th position of ``state`` played on by seeded random decisions
    (:func:`random_step`; the same state object, moved on between yields), and its end
    too with ``end``."""
    rng = Rng.from_seed(seed)
    k = 0
    while not state.is_terminal():
        if k % every == 0:
            yield state
        random_step(state, rng)
        k += 1
    if end:
        yield state


def checked_playout(state: State, rng: Rng, max_decisions: int = 1_000_000) -> int:
    """A random playout through the public, checked contract (the reference
    that :meth:`State.random_playout` must match move for move)."""
    n = 0
    while n < max_decisions and not state.is_terminal():
        to_act = state.players_to_act()
        p = to_act[0] if len(to_act) == 1 else to_act[rng.below(len(to_act))]
        actions = state.legal_actions(p)
        state.apply_action(p, actions[rng.below(len(actions))])
        n += 1
    return n


def check_fast_playout(start: State, seed: int, limit: int = 1_000_000) -> tuple[State, State, int]:
    """Play copies of ``start`` out by the checked loop (:func:`checked_playout`)
    and by the trusted :meth:`State.random_playout`, muted and recording, with the same
    picking seed, and assert they end alike: the decisions, every field, both generators,
    the log where recorded, and a fast copy that records again. Returns the checked copy,
    the muted fast copy and the number of decisions, for a game's own checks."""
    checked, fast, logged = start.clone(), start.clone(), start.clone()
    r_checked, r_fast, r_logged = Rng.from_seed(seed), Rng.from_seed(seed), Rng.from_seed(seed)
    played = checked_playout(checked, r_checked, limit)
    assert fast.random_playout(r_fast, limit) == played
    assert logged.random_playout(r_logged, limit, keep_log=True) == played
    assert fast.history == checked.history
    assert fast.to_dict(log=False) == checked.to_dict(log=False)
    assert logged.to_json() == checked.to_json()
    assert r_fast.state == r_checked.state == r_logged.state
    assert fast.rng.state == checked.rng.state
    assert fast.recording and "event" not in vars(fast)
    return checked, fast, played


def random_game(slug: str, num_players: int, seed: int, options: dict[str, Any] | None = None,
                max_decisions: int = 20_000) -> State:
    """Play a whole game by uniformly random decisions."""
    game = load_game(slug)
    state = game.new_game(num_players, seed, options)
    rng = Rng.from_seed(seed ^ 0x5EED)
    while not state.is_terminal():
        random_step(state, rng)
        assert state.ply <= max_decisions, f"{slug} seed {seed}: no end after {max_decisions} decisions"
    return state


def assert_json_safe(obj: Any, where: str) -> None:
    text = json.dumps(obj, allow_nan=False)
    assert json.loads(text) == obj, f"{where}: not plain JSON data (tuples or non-str keys?)"


def check_illegal_rejected(state: State) -> None:
    """Junk, out-of-turn and non-player actions raise IllegalAction and change nothing."""
    before = state.to_json()
    to_act = state.players_to_act()
    legal = {p: set(state.legal_actions(p)) for p in to_act}
    probes: list[tuple[Any, Any]] = [(p, a) for p in to_act for a in JUNK_ACTIONS if a not in legal[p]]
    probes += [(-1, "pass"), (state.num_players, "pass"), (None, "pass"), (True, "pass")]
    for p in to_act:
        probes.append((p, 12345))  # not a string
    idle = [p for p in range(state.num_players) if p not in to_act]
    if idle and to_act:
        some = next(iter(legal[to_act[0]]), "pass")
        probes.append((idle[0], some))
    for player, action in probes:
        try:
            state.apply_action(player, action)
        except IllegalAction as exc:
            assert str(exc), "IllegalAction without a reason"
        else:
            raise AssertionError(f"illegal action {action!r} by {player!r} was accepted at ply {state.ply}")
        assert state.to_json() == before, f"illegal action {action!r} changed the state"


def secret_actions(state: State, player: int) -> list[str]:
    """``player``'s legal actions that are secret steps (``State._secret_step``)."""
    if not state.has_secret_steps or player not in state.players_to_act():
        return []
    return [a for a in state.legal_actions(player) if state._secret_step(player, a)]


def _play_secretly(state: State, player: int, rng: Rng, most: int) -> int:
    """Up to ``most`` random secret steps of ``player`` on ``state``; how many were played."""
    n = 0
    while n < most:
        acts = secret_actions(state, player)
        if not acts:
            break
        state.apply_action(player, acts[rng.below(len(acts))])
        n += 1
    return n


def check_secret_steps(state: State, seed: int, tries: int = 2) -> int:
    """The rule of secret simultaneous phases: from ``state``, two different random
    sequences of one seat's secret steps leave every other seat (and a spectator)
    the same observation (public move number included), the same visible events
    and the same legal actions. Checked for every seat that may take a secret step
    now; returns how many pairs of sequences were compared."""
    compared = 0
    base_public = state.public_ply
    for p in state.players_to_act():
        if not secret_actions(state, p):
            continue
        for k in range(tries):
            rng = Rng.from_seed(seed * 131 + p * 17 + k)
            one, two = state.clone(), state.clone()
            n1 = _play_secretly(one, p, rng, 1 + rng.below(8))
            n2 = _play_secretly(two, p, rng, rng.below(8))
            where = f"{state.game.slug} ply {state.ply}: seat {p}'s secret steps ({n1} and {n2})"
            assert one.public_ply == two.public_ply == base_public, f"{where} moved the public move number"
            for q in [None, *range(state.num_players)]:
                if q == p:
                    continue
                assert one.observation(q) == two.observation(q), f"{where} changed what {q} sees"
                assert one.visible_events(q) == two.visible_events(q), f"{where} changed {q}'s events"
                if q is not None:
                    assert one.legal_actions(q) == two.legal_actions(q), \
                        f"{where} changed what {q} may do"
            compared += 1
    return compared


def check_game_run(slug: str, num_players: int, seed: int, options: dict[str, Any] | None = None,
                   max_decisions: int = 20_000, deep_every: int = 1) -> State:
    """One seeded random game with every contract check along the way."""
    game = load_game(slug)
    state = game.new_game(num_players, seed, options)
    again = game.new_game(num_players, seed, options)
    assert state.to_json() == again.to_json(), "new_game is not deterministic for a seed"
    rng = Rng.from_seed(seed ^ 0x5EED)
    step = 0
    written: list[str] = []   # each log entry as it read when it was written
    while True:
        where = f"{slug} {num_players}p seed {seed} ply {state.ply}"
        written.extend(json.dumps(e, sort_keys=True) for e in state.log[len(written):])
        if step % deep_every == 0:
            snap = state.to_json()
            restored = game.state_from_json(snap)
            assert restored.to_json() == snap, f"{where}: to_json round trip differs"
            for p in state.players_to_act():  # the same order, so index-picking bots agree
                assert restored.legal_actions(p) == state.legal_actions(p), \
                    f"{where}: restored legal actions differ (order included) for player {p}"
            for p in [None, *range(num_players)]:
                obs = state.observation(p)
                assert_json_safe(obs, f"{where} observation({p})")
                assert restored.observation(p) == obs, f"{where}: restored observation differs"
            # what a player cannot see may change in a determinized copy; what they see may not
            # (a hidden card that shows up in observation(p) would differ here: a leak)
            for p in range(num_players):
                guess = state.determinize(p, seed * 7919 + step)
                assert guess.observation(p) == state.observation(p), \
                    f"{where}: determinize({p}) changed what player {p} sees"
            twin = state.clone()
            assert twin.to_json() == snap, f"{where}: clone differs from its original"
            check_secret_steps(state, seed * 7919 + step)
            assert state.to_json() == snap, f"{where}: checking secret steps changed the state"
            if not state.is_terminal():
                check_illegal_rejected(state)
                # a clone moves on without touching its original
                random_step(twin, Rng.from_seed(step))
                assert state.to_json() == snap, f"{where}: playing a clone changed the original"
        if state.is_terminal():
            break
        assert state.players_to_act(), f"{where}: nobody to act"
        for p in range(num_players):
            if p not in state.players_to_act():
                assert state.legal_actions(p) == [], f"{where}: player {p} has actions out of turn"
        random_step(state, rng)
        step += 1
        assert state.ply <= max_decisions, f"{where}: no end after {max_decisions} decisions"
    # a log line is history: nothing the game does later may change it (an event that
    # holds a list the game goes on changing would rewrite what was dealt or said)
    for i, e in enumerate(state.log[:len(written)]):
        assert json.dumps(e, sort_keys=True) == written[i], \
            f"{slug} seed {seed}: log entry {i} changed after it was written: {written[i]}"
    scores = state.scores()
    assert len(scores) == num_players
    winners = state.winners()
    assert winners or game.all_may_lose, f"{slug}: nobody won, but the rules always make a winner"
    assert all(0 <= w < num_players for w in winners), f"{slug}: bad winners {winners}"
    # replay determinism
    replay = Replay.from_json(Replay.of(state).to_json())
    assert replay.final_state().to_json() == state.to_json(), f"{slug} seed {seed}: replay differs"
    return state


def check_conformance(slug: str, games_per_count: int = 3, player_counts: Iterable[int] | None = None,
                      options: dict[str, Any] | None = None, deep_every: int = 1,
                      first_seed: int = 0) -> list[State]:
    """Run :func:`check_game_run` for several seeds at every allowed player count."""
    game = load_game(slug)
    counts = list(player_counts) if player_counts is not None else list(
        range(game.min_players, game.max_players + 1))
    finals = []
    for n in counts:
        for seed in range(first_seed, first_seed + games_per_count):
            finals.append(check_game_run(slug, n, seed, options, deep_every=deep_every))
    return finals


# ---------------------------------------------------------------- texts and events
def emitted_events(slug: str) -> dict[str, set[str]]:
    """Every event key a game's code can record, with its argument names
    (secret ones included), read statically from ``.event("key", ...)`` calls.

    A call with ``secret=`` adds the key's public variant (``key.public``)
    with the public arguments only.
    """
    import ast
    import importlib
    from pathlib import Path

    from .core.registry import GAME_MODULES
    from .core.texts import public_key

    pkg = importlib.import_module(GAME_MODULES[slug])
    out: dict[str, set[str]] = {}
    for path in sorted(Path(pkg.__file__ or "").parent.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr == "event" and node.args
                    and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
                continue
            key = node.args[0].value
            public = {kw.arg for kw in node.keywords if kw.arg not in (None, "to", "secret")}
            secret: set[str] = set()
            for kw in node.keywords:
                if kw.arg == "secret" and isinstance(kw.value, ast.Dict):
                    secret = {k.value for k in kw.value.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)}
            out.setdefault(key, set()).update(public | secret)
            if any(kw.arg == "secret" for kw in node.keywords):
                out.setdefault(public_key(key), set()).update(public)
    return out


def check_templates(slug: str) -> None:
    """Statically: every event key the game can record has a ``log.<key>``
    template in English, French and German, with the same placeholders in
    each language, naming only arguments the code passes."""
    from .core.texts import LANGS, placeholders

    texts = load_game(slug).texts()
    problems = []
    for key, arg_names in sorted(emitted_events(slug).items()):
        found = {}
        for lang in LANGS:
            template = texts.table[lang].get("log." + key)
            if template is None:
                problems.append(f"log.{key}: no {lang} template")
                continue
            found[lang] = placeholders(template)
            unknown = set(found[lang]) - arg_names
            if unknown:
                problems.append(f"log.{key} ({lang}): placeholders {sorted(unknown)} are not passed")
        if "en" in found:
            for lang, ph in found.items():
                if set(ph) != set(found["en"]):
                    problems.append(f"log.{key} ({lang}): placeholders {sorted(ph)} differ from "
                                    f"English {sorted(found['en'])}")
    assert not problems, f"{slug} templates:\n" + "\n".join(problems)


def check_rendered_texts(slug: str, num_players: int, seeds: Iterable[int], langs: Iterable[str] = ("fr", "de"),
                         options: dict[str, Any] | None = None) -> int:
    """Dynamically: along random games, every event every seat (and a
    spectator) may read renders strictly in each language: no English
    fallback, no id without a name, no placeholder left. Returns the number
    of lines checked."""
    from .core.texts import seat_names

    game = load_game(slug)
    texts = game.texts()
    names = seat_names(num_players)
    n = 0
    for seed in seeds:
        state = random_game(slug, num_players, seed, options)
        for viewer in [None, *range(num_players)]:
            for ev in state.visible_events(viewer):
                for lang in langs:
                    line = texts.event(ev, lang, names, strict=True)
                    assert "{" not in line and "}" not in line, f"{slug} {lang}: unfilled {line!r}"
                    n += 1
    return n


# ---------------------------------------------------------------- recorded playthroughs
#: the seeded games recorded per game under tests/playthroughs (like OpenSpiel's)
PLAYTHROUGHS: dict[str, list[tuple[int, int]]] = {
    slug: list(load_game(slug).playthroughs) for slug in GAME_MODULES}  # each game declares its own


#: up to this many legal actions a playthrough lists them all; above, their count,
#: a digest and the first few
PLAYTHROUGH_LISTED = 40
PLAYTHROUGH_FIRST = 12


def _digest(obj: Any) -> str:
    import hashlib
    return hashlib.sha1(json.dumps(obj, sort_keys=True, separators=(",", ":")).encode()).hexdigest()[:12]


def _legal_line(legal: list[str]) -> str:
    """A decision's legal actions, in the engine's order: all of them, or when
    very many, their count, a digest of them all and the first few."""
    if len(legal) <= PLAYTHROUGH_LISTED:
        return f"legal ({len(legal)}): " + ", ".join(legal)
    return (f"legal ({len(legal)}, digest {_digest(legal)}), the first {PLAYTHROUGH_FIRST}: "
            + ", ".join(legal[:PLAYTHROUGH_FIRST]) + ", ...")


def playthrough(slug: str, num_players: int, seed: int, options: dict[str, Any] | None = None) -> str:
    """A seeded random game as readable text. The public log of the setup, then
    at every decision: the move number, the seat that acts (of those who may),
    a digest of that seat's observation (its log left out), every legal action,
    the action played and the lines of the log it wrote, as a spectator reads
    them in English (secrets never show: the viewer is nobody). Compared on
    every test run; a change that alters a game shows here line by line."""
    game = load_game(slug)
    state = game.new_game(num_players, seed, options)
    rng = Rng.from_seed(seed ^ 0x5EED)
    names = [state.player_name(p) for p in range(num_players)]

    def public_log(start: int) -> list[str]:
        return [f"  · {line}" for line in state.visible_log(None, start, names=names)]

    lines = [f"game {slug} players {num_players} seed {seed} options {json.dumps(options or {}, sort_keys=True)}",
             *(f"seat {p}: {name}" for p, name in enumerate(names)), "setup", *public_log(0)]
    while not state.is_terminal():
        to_act = state.players_to_act()
        player = to_act[rng.below(len(to_act))]
        legal = state.legal_actions(player)
        action = legal[rng.below(len(legal))]
        obs = {k: v for k, v in state.observation(player).items() if k != "log"}
        waiting = f" (to act: {', '.join(names[p] for p in to_act)})" if len(to_act) > 1 else ""
        lines += [f"move {state.ply}: {names[player]}{waiting}, observation {_digest(obs)}",
                  f"  {_legal_line(legal)}",
                  f"  plays: {action}"]
        start = len(state.log)
        state.apply_action(player, action)
        lines += public_log(start)
    lines.append(f"scores {state.scores()} winners {[names[w] for w in state.winners()]}")
    return "\n".join(lines) + "\n"
