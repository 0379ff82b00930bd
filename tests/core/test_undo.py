"""Undo back to the start of one's own turn, decided by the engine for every game."""
from __future__ import annotations

import random

import pytest

import thieves
from tests.core import toy_game  # noqa: F401  (registers "toy-bids")
from thieves.core.undo import own_run_start, state_at, undo_point

GAMES = thieves.list_games()


def _play(slug: str, seed: int, steps: int = 100):
    """Random play; yields (state, player who just decided, position at the start of their run)."""
    game = thieves.load_game(slug)
    n = min(game.max_players, max(game.min_players, 3))
    state = game.new_game(n, seed)
    rnd = random.Random(seed)
    snaps = {0: state.clone()}
    for _ in range(steps):
        if state.is_terminal():
            return
        player = rnd.choice(state.players_to_act())
        state.apply_action(player, rnd.choice(state.legal_actions(player)))
        snaps[state.ply] = state.clone()
        start = own_run_start(state, player)
        yield state, player, snaps[start]


@pytest.mark.parametrize("slug", GAMES)
def test_each_game_has_allowed_and_refused_undos_and_allowed_ones_are_safe(slug):
    allowed = refused = 0
    for seed in range(2):
        for state, player, before in _play(slug, seed):
            point = undo_point(state, player, before=before)
            if point is None:
                refused += 1
                continue
            allowed += 1
            # nothing random happened since, the position there is the game's
            # own, and the first undone decision is legal there again
            assert before.rng.to_json() == state.rng.to_json()
            assert before.ply == point and before.history == state.history[:point]
            first_player, first_action = state.history[point]
            assert first_player == player and first_action in before.legal_actions(player)
            # another seat cannot undo: the last decision is not theirs
            for other in range(state.num_players):
                if other != player:
                    assert undo_point(state, other, before=before) is None
    assert allowed > 0, f"{slug}: no decision could ever be taken back"
    assert refused > 0, f"{slug}: every decision could be taken back (dice and draws too?)"


def test_rebuilding_the_start_matches_the_given_one():
    for state, player, before in _play("thiefs-market", 3, steps=30):
        point = undo_point(state, player)
        assert point == undo_point(state, player, before=before)
        if point is not None:
            assert state_at(state, point).to_dict() == before.to_dict()


def test_sealed_bids_allowed_and_refused_cases():
    state = thieves.load_game("toy-bids").new_game(3, 5)
    assert undo_point(state, 0) is None  # nothing decided yet
    state.apply_action(0, "bid 2")
    assert undo_point(state, 0) == 0  # a secret bid, nothing revealed: may be taken back
    assert undo_point(state, 1) is None  # seat 1 has not decided
    state.apply_action(1, "bid 1")
    assert undo_point(state, 0) is None  # another seat acted since
    assert undo_point(state, 1) == 1
    state.apply_action(2, "bid 3")  # the last bid reveals the bids and rolls the die
    assert undo_point(state, 2) is None


@pytest.mark.parametrize("slug", [g for g in ("thieves-den", "thiefdom", "age-of-thieves") if g in GAMES])
def test_a_decision_that_reveals_hidden_cards_cannot_be_taken_back(slug):
    # drafts and purchases show new cards: the same decision made in re-dealt
    # copies shows other cards, so it is refused although no die was rolled
    refused = [state.ply for state, player, before in _play(slug, 0, steps=60)
               if before.rng.to_json() == state.rng.to_json()
               and undo_point(state, player, before=before) is None]
    assert refused, f"{slug}: no decision was refused for revealing hidden cards"


def _undo_point_reading_whole_observations(state, player, before):
    """The rule as written first: every observation built whole, logs included."""
    from thieves.core.errors import ThievesError
    from thieves.core.undo import SAMPLES

    if state.is_terminal() or state.others_in_secret_phase(player):
        return None
    start = own_run_start(state, player)
    if start is None:
        return None
    if before.rng.to_json() != state.rng.to_json():
        return None
    seen = state.observation(player)
    for k in range(SAMPLES):
        try:
            other = before.determinize(player, 0x5EED + k)
        except Exception:  # noqa: BLE001
            return None
        if other.observation(player) != before.observation(player):
            return None
        try:
            for p, action in state.history[start:]:
                other.apply_action(p, action)
        except ThievesError:
            return None
        if other.observation(player) != seen:
            return None
    return start


@pytest.mark.parametrize("slug", GAMES)
def test_comparing_logs_from_where_copies_part_gives_the_same_answers(slug):
    """``undo_point`` reads only the log entries a position's copies do not
    share; its answers are those of whole observations, with the start of the
    run given (the server's copy, sharing its entries) or rebuilt from the
    history (new entries: the logs are read whole)."""
    seen = allowed = 0
    for seed in (1, 2):
        for state, player, before in _play(slug, seed, steps=80):
            for start in (before, None):
                expected = _undo_point_reading_whole_observations(
                    state, player, before if start is not None else state_at(state, own_run_start(state, player)))
                assert undo_point(state, player, start) == expected, (slug, seed, state.ply)
                seen += 1
                allowed += expected is not None
    assert seen and (allowed or slug == "toy-bids")


@pytest.mark.parametrize("slug", GAMES)
def test_a_run_kept_from_one_decision_to_the_next_gives_the_same_answers(slug):
    """``UndoRun`` re-deals once per run and applies each decision once to its
    copies: asked after every decision, as the server does, it answers what
    ``undo_point`` answers (asked for every seat, the one whose run it is first)."""
    from thieves.core.undo import UndoRun

    allowed = refused = 0
    for seed in (1, 2):
        runs: dict[int, UndoRun] = {}
        for state, player, before in _play(slug, seed, steps=80):
            run = runs.get(player)
            if run is None or run.before is not before:
                run = runs[player] = UndoRun(before, player)
            expected = undo_point(state, player, before=before)
            assert run.point(state) == expected, (slug, seed, state.ply)
            assert run.point(state) == expected  # asked twice: nothing applied twice
            for other in range(state.num_players):
                if other != player:
                    assert UndoRun(before, other).point(state) is None
            allowed += expected is not None
            refused += expected is None
    assert allowed and (refused or slug == "toy-bids")


def test_a_run_asked_at_an_earlier_point_or_another_run_answers_afresh():
    from thieves.core.undo import UndoRun

    plays = list((s.clone(), p, b) for s, p, b in _play("thiefs-market", 4, steps=60))
    runs = [(i, s, p, b) for i, (s, p, b) in enumerate(plays) if s.ply - b.ply >= 2]
    assert runs, "no run of two decisions"
    _, state, player, before = runs[0]
    run = UndoRun(before, player)
    assert run.point(state) == undo_point(state, player, before=before)
    earlier = state_at(state, state.ply - 1)  # the run one decision shorter
    assert run.point(earlier) == undo_point(earlier, player, before=before)
    assert run.point(state) == undo_point(state, player, before=before)
    later = plays[-1][0]  # another run altogether
    assert run.point(later) == undo_point(later, player)
