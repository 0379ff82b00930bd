"""Every action string that is not legal is refused with IllegalAction and changes nothing.

A property test for all five games: random strings and mutations of legal actions
(tokens swapped, dropped, doubled or glued together, case changed, numbers out of
range, unicode digits, very long strings) are fed to ``apply_action`` at positions
reached by seeded random play. ``tools/fuzz_actions.py`` runs the same check on
hundreds of thousands of strings.
"""
from __future__ import annotations

import functools
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from thieves.core.errors import IllegalAction
from thieves.core.game import State
from thieves.core.registry import load_game
from thieves.core.rng import Rng
from thieves.testing import random_step

SLUGS = ["thiefs-market", "thieves-den", "age-of-thieves", "thiefdom", "cadwallon"]


@functools.lru_cache(maxsize=None)
def positions(slug: str) -> tuple[State, ...]:
    """Positions along a few seeded random games (every player count), each with someone to act."""
    game = load_game(slug)
    out: list[State] = []
    for seed in range(3):
        for n in range(game.min_players, game.max_players + 1):
            state = game.new_game(n, seed)
            rng = Rng.from_seed(seed)
            step = 0
            while not state.is_terminal() and step < 400:
                if step % 23 == 0:
                    out.append(state.clone())
                random_step(state, rng)
                step += 1
    return tuple(out)


ODD = ["", " ", "  ", "\t", "\n", "\x00", "é", "ß", "İ", "\u202e", "🂡", "²", "٣", "½", "-1", "0", "+1",
       "99", "1e3", "4" * 5000, "10" * 30, "None", "all", ">", ">>", "x" * 10_000]


def glue(words: list[str], i: int, other: str) -> list[str]:
    return words[:i] + [words[i] + other] + words[i + 1:]


@st.composite
def mutated(draw: Any, legal: list[str]) -> str:
    """A legal action mutated the way a careless or hostile client would."""
    words = draw(st.sampled_from(legal)).split(" ")
    other = draw(st.sampled_from(legal)).split(" ")
    i = draw(st.integers(0, len(words) - 1))
    how = draw(st.sampled_from(["swap", "drop", "double", "glue", "case", "odd", "other", "append",
                                "char", "prefix", "repeat", "space"]))
    j = draw(st.integers(0, len(words) - 1))
    word = words[i]
    k = draw(st.integers(0, max(0, len(word) - 1)))
    if how == "swap":
        words[i], words[j] = words[j], words[i]
    elif how == "drop":
        del words[i]
    elif how == "double":
        words.insert(i, words[i])
    elif how == "glue":
        words = glue(words, i, other[-1])   # "take W" + "take B": "take WB"
    elif how == "case":
        words[i] = draw(st.sampled_from([word.upper(), word.lower(), word.swapcase(), word.title()]))
    elif how == "odd":
        words[i] = draw(st.sampled_from(ODD))
    elif how == "other":
        words[i] = draw(st.sampled_from(other))
    elif how == "append":
        words.append(draw(st.sampled_from(other + ODD)))
    elif how == "char":
        words[i] = word[:k] + draw(st.sampled_from(ODD + list("0123456789ABPZaz>"))) + word[k + 1:]
    elif how == "prefix":
        words[i] = word[:k]
    elif how == "repeat":
        return " ".join(words) * draw(st.integers(2, 300))
    else:
        return " " + " ".join(words) if k % 2 else " ".join(words) + " "
    return " ".join(words)


def strings(legal: list[str]) -> st.SearchStrategy[str]:
    junk = st.one_of(st.text(max_size=40), st.text(alphabet="abcdeglnoprstuwy0123456789 >²", max_size=20))
    return st.one_of(junk, mutated(legal), mutated(legal), mutated(legal))


@settings(max_examples=200, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
@pytest.mark.parametrize("slug", SLUGS)
def test_an_action_is_legal_or_refused_without_change(slug: str, data: st.DataObject) -> None:
    pos = positions(slug)
    state = pos[data.draw(st.integers(0, len(pos) - 1), label="position")]
    to_act = state.players_to_act()
    player = to_act[data.draw(st.integers(0, len(to_act) - 1))]
    legal = state.legal_actions(player)
    action = data.draw(strings(legal), label="action")
    if action in legal:
        return
    before = state.to_json()
    with pytest.raises(IllegalAction) as err:
        state.apply_action(player, action)
    assert str(err.value)
    assert state.to_json() == before


def sweep(legal: list[str]) -> set[str]:
    """Every simple mutation of every legal action (a few dozen strings per action)."""
    lasts = sorted({a.split(" ")[-1] for a in legal})[:12]
    out: set[str] = set()
    for action in legal[:40]:
        words = action.split(" ")
        for i, word in enumerate(words):
            out.add(" ".join(words[:i] + words[i + 1:]))
            out.add(" ".join(words[:i] + [word, word] + words[i + 1:]))
            out.update(" ".join(glue(words, i, last)) for last in lasts)
            for odd in ("²", "٣", "0", "-1", "99", "4" * 5000, word.upper(), word.lower(), word[:-1], ""):
                out.add(" ".join(words[:i] + [odd] + words[i + 1:]))
                out.add(" ".join(words[:i] + [re.sub("[0-9]+", odd, word)] + words[i + 1:]))
            if i:
                out.add(" ".join(words[:i - 1] + [words[i], words[i - 1]] + words[i + 1:]))
        out.update((action + " " + action, action + " 1", " " + action, action.upper()))
    return out - set(legal)


@pytest.mark.parametrize("slug", SLUGS)
def test_every_simple_mutation_of_a_legal_action_is_refused(slug: str) -> None:
    for state in positions(slug):
        before = state.to_json()
        for player in state.players_to_act():
            for action in sorted(sweep(state.legal_actions(player))):
                with pytest.raises(IllegalAction):
                    state.apply_action(player, action)
        assert state.to_json() == before


@pytest.mark.parametrize("slug,action", [
    ("thiefs-market", "take WB"), ("thiefs-market", "return GY"), ("thiefs-market", "steal ²"),
    ("thiefs-market", "steal " + "4" * 5000), ("thieves-den", "power ² jewel"),
    ("age-of-thieves", "ap ²"), ("age-of-thieves", "steal ² green"), ("cadwallon", "mission ²"),
    ("cadwallon", "play pickpocket P²"),
])
def test_the_malformed_actions_found_by_fuzzing_are_refused(slug: str, action: str) -> None:
    for state in positions(slug)[:8]:
        for p in state.players_to_act():
            before = state.to_json()
            with pytest.raises(IllegalAction):
                state.apply_action(p, action)
            assert state.to_json() == before
