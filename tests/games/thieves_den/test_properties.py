"""Property tests over random play: no crash, tokens conserved, limits kept, exact snapshots,
replays, illegal input, and no hidden card in another player's observation."""
import json

import pytest
from hypothesis import given, settings, strategies as st

from thieves.core.errors import IllegalAction
from thieves.core.replay import Replay
from thieves.core.rng import Rng

from .helpers import GAME, total_thieves, total_treasures


def strings(obj, out):
    if isinstance(obj, dict):
        for k, v in obj.items():
            out.add(k)
            strings(v, out)
    elif isinstance(obj, list):
        for v in obj:
            strings(v, out)
    elif isinstance(obj, str):
        out.add(obj)
    return out


def check_invariants(s, tre0, th0):
    assert total_treasures(s) == tre0
    assert total_thieves(s) == th0
    assert all(v >= 0 for v in s.city.values()) and s.forest >= 0
    front = s.pending[0] if s.pending else None
    for p in range(s.num_players):
        assert 0 <= s.thieves[p] <= 6
        assert all(v >= 0 for v in s.treasures[p].values())
        if sum(s.treasures[p].values()) > 8:   # only while that player is choosing a discard
            assert front and front["k"] == "discard" and front["p"] == p


def check_no_leak(s, seen):
    for p in range(s.num_players):
        obs = s.observation(p)
        obs.pop("log")
        visible = strings(obs, set())
        events = s.visible_events(p)
        words = strings([ev["args"] for ev in events], set())   # every id an event names to p
        lines = " ".join(s.visible_log(p, lang="en"))
        svg = GAME.presentation(p).svg(obs)                     # the board p sees
        for q in range(s.num_players):
            if q == p:
                continue
            assert s.scheme[q] not in visible
            for c in s.hands[q]:
                assert c not in visible, f"hand card {c} of {q} in observation of {p}"
                if c not in seen[p]:
                    name = s.data.locations[c].name
                    assert c not in words, f"hand card {c} of {q} in log of {p}"
                    assert name not in lines, f"hand card {name} of {q} in log of {p}"
                    assert c not in svg and f">{name}<" not in svg, f"hand card {c} of {q} on the board of {p}"
            for c in s.left[q] + s.right[q]:
                assert c not in visible
    spect = strings({k: v for k, v in s.observation(None).items() if k != "log"}, set())
    for q in range(s.num_players):
        assert not set(s.hands[q]) & spect and s.scheme[q] not in spect


def walk(n, seed, max_steps, leak_every=0):
    s = GAME.new_game(n, seed)
    rng = Rng.from_seed(seed + 77)
    tre0, th0 = total_treasures(s), total_thieves(s)
    seen = [set(h) for h in s.hands]
    steps = 0
    while not s.is_terminal() and steps < max_steps:
        check_invariants(s, tre0, th0)
        if leak_every and steps % leak_every == 0:
            check_no_leak(s, seen)
        to_act = s.players_to_act()
        p = to_act[rng.below(len(to_act))]
        acts = s.legal_actions(p)
        assert acts and len(acts) == len(set(acts))
        s.apply_action(p, acts[rng.below(len(acts))])
        public = set(s.neutral).union(*s.above)   # face-up cards are known to all
        for q in range(n):
            seen[q] |= set(s.hands[q]) | public
        steps += 1
    check_invariants(s, tre0, th0)
    return s, steps


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_thousands_of_random_decisions(n):
    total = 0
    seed = 0
    while total < 2500:
        s, steps = walk(n, 1000 * n + seed, 10_000)
        assert s.is_terminal()
        assert len(s.winners()) >= 1
        total += steps
        seed += 1


@pytest.mark.parametrize("n", [2, 3, 5])
def test_no_hidden_card_leaks(n):
    walk(n, 31 + n, 400, leak_every=3)


def test_terminal_observation_reveals_everything():
    s, _ = walk(3, 5, 10_000)
    obs = s.observation(0)
    assert [pl["scheme"] for pl in obs["players"]] == s.scheme


@settings(max_examples=8, deadline=None)
@given(st.integers(2, 5), st.integers(0, 10_000), st.integers(0, 120))
def test_json_round_trip_and_clone_exact(n, seed, steps):
    s, _ = walk(n, seed, steps)
    snap = s.to_json()
    r = GAME.state_from_json(snap)
    assert r.to_json() == snap
    assert json.loads(snap)["fields"]["pending"] == s.pending
    for p in range(n):
        assert r.legal_actions(p) == s.legal_actions(p)
        assert r.observation(p) == s.observation(p)
    c = s.clone()
    if not s.is_terminal():
        p = c.players_to_act()[0]
        c.apply_action(p, c.legal_actions(p)[0])
        assert s.to_json() == snap


def test_replay_determinism():
    for n in (2, 4):
        s, _ = walk(n, 99 + n, 10_000)
        again = Replay.from_json(Replay.of(s).to_json()).final_state()
        assert again.to_json() == s.to_json()
        assert again.scores() == s.scores()


def test_illegal_actions_change_nothing():
    s = GAME.new_game(4, 8)
    rng = Rng.from_seed(3)
    pool = set()
    for _ in range(300):
        if s.is_terminal():
            break
        to_act = s.players_to_act()
        p = to_act[0]
        legal = s.legal_actions(p)
        pool |= set(legal)
        before = s.to_json()
        for bad in list(pool - set(legal))[:15]:
            with pytest.raises(IllegalAction) as e:
                s.apply_action(p, bad)
            assert str(e.value)
            assert s.to_json() == before
        s.apply_action(p, legal[rng.below(len(legal))])


def test_determinize_keeps_what_the_player_knows():
    s = GAME.new_game(4, 12)
    d = s.determinize(0, 5)
    assert d.hands[0] == s.hands[0] and d.scheme[0] == s.scheme[0]
    assert d.observation(0)["players"] == s.observation(0)["players"]
    assert sorted(d.loc_deck + sum(d.hands[1:], [])) == sorted(s.loc_deck + sum(s.hands[1:], []))


def test_every_action_has_a_description_and_text_view():
    s = GAME.new_game(3, 21)
    rng = Rng.from_seed(4)
    kinds = set()
    while not s.is_terminal():
        p = s.players_to_act()[0]
        acts = s.legal_actions(p)
        for a in acts:
            d = s.describe_action(a)
            assert d and isinstance(d, str)
            kinds.add(a.split()[0])
        assert s.render_text(p)
        s.apply_action(p, acts[rng.below(len(acts))])
    assert {"keep", "pass", "loc", "steal"} <= kinds
