"""A search copy (``determinize``) knows only what its seat may know.

During the execution the screens are lifted: every planned card's AP is public, and
whether it is a special action card (laid open behind the screen), but not which card
it is nor which city tokens lie on it until it is resolved (Rulebook §"Planung",
§"Ausführung", §"Spezialaktionen"). A copy made for another seat must therefore be the
same whatever the face-down cards really are.
"""
from __future__ import annotations

from collections import Counter

from hypothesis import HealthCheck, given, settings, strategies as st

from thieves.bots.fair import fair_view
from thieves.core.rng import Rng

from .helpers import GAME, act, fresh, give

#: three plans of seat 0 that seat 1 cannot tell apart: AP 3, 2 and 1 (the last on the
#: special action card), two general cards among them, an Informer and a Guild Agent
#: spread over the cards, and as many decisions each
PLANS = {
    "move_first": ["plan move", "ap 1", "add agent", "next", "plan beacon", "ap 1", "add informer",
                   "special smoke", "ap 1", "done"],
    "smoke_first": ["plan smoke", "ap 2", "add informer", "next", "plan move", "ap 0", "add agent",
                    "special rod", "ap 1", "done"],
    "ambush_first": ["plan ambush", "ap 2", "add informer", "next", "plan rod", "ap 0", "add agent",
                     "special beacon", "ap 1", "done"],
    # the card with 3 AP is the same as in move_first (it will be shown first), the rest differs
    "move_first_2": ["plan move", "ap 1", "add agent", "next", "plan smoke", "ap 1", "add informer",
                     "special beacon", "ap 1", "done"],
}


def _executing(plan: list[str]):
    """Seat 0 plans ``plan`` with Beacon, Smoke Grenade and Fishing Rod in hand; seat 1 plans
    Move with 4 AP and a Cloak with 1; the watch's initiative is 1, so seat 1 acts first."""
    s = fresh("zain,jasmine", seed=3, die=1)
    s.thieves[0]["sheet"] = ["informer", "agent"]
    give(s, 0, "beacon", "smoke", "rod")
    give(s, 1, "cloak")
    for a in plan:
        act(s, 0, a)
    for a in ("plan move", "ap 4", "plan cloak", "ap 1", "done"):
        act(s, 1, a)
    assert s.phase == "exec" and s.players_to_act() == [1]
    return s


def _fields(s) -> dict:
    d = s.to_dict(log=False)
    return {"fields": d["fields"], "rng": d["rng"]}


def test_a_rivals_face_down_cards_are_not_kept_in_the_copy() -> None:
    states = {k: _executing(p) for k, p in PLANS.items()}
    first = states["move_first"]
    for k, s in states.items():
        assert s.observation(1) == first.observation(1), k  # seat 1 cannot tell them apart
        assert s.thieves[0]["plan"] != first.thieves[0]["plan"] or k == "move_first"
    for seed in range(12):
        want = _fields(first.determinize(1, seed))
        view = fair_view(first, 1, seed).to_json()
        for k, s in states.items():
            assert _fields(s.determinize(1, seed)) == want, (k, seed)
            assert fair_view(s, 1, seed).to_json() == view, (k, seed)


def test_a_shown_card_stays_and_only_the_face_down_ones_are_made_up() -> None:
    a, b = _executing(PLANS["move_first"]), _executing(PLANS["move_first_2"])
    for s in (a, b):
        act(s, 1, "sneak")
        act(s, 1, "stop")
        assert s.players_to_act() == [0]
        act(s, 0, "decline move")  # the card with 3 AP is shown: Move with the Guild Agent
    assert a.observation(1) == b.observation(1)
    kinds = Counter()
    for seed in range(40):
        ca, cb = a.determinize(1, seed), b.determinize(1, seed)
        assert _fields(ca) == _fields(cb)
        shown, *hidden = ca.thieves[0]["plan"]
        assert shown == a.thieves[0]["plan"][0]
        assert [s["ap"] for s in hidden] == [2, 1] and hidden[1]["card"] == "special"
        assert hidden[0]["card"] not in ("move", "ambush")  # Move is shown; two general cards
        assert sorted(x for s in hidden for x in s["tok"]) == ["informer"]
        kinds[hidden[0]["card"].rstrip("0123456789")] += 1
    assert len(kinds) >= 4  # drawn from every card seat 1 has not seen, not only seat 0's


def test_the_copy_spreads_cards_and_tokens_over_the_face_down_slots() -> None:
    s = _executing(PLANS["move_first"])
    seen_cards, seen_tokens = Counter(), Counter()
    for seed in range(80):
        plan = s.determinize(1, seed).thieves[0]["plan"]
        assert [x["ap"] for x in plan] == [3, 2, 1] and plan[2]["card"] == "special"
        basics = [x["card"] for x in plan if x["card"] in ("move", "ambush")]
        assert len(basics) == 1  # two general cards (one under the special card), as planned
        for i, x in enumerate(plan):
            assert x["m"] + sum(s.data.ap_value[t] for t in x["tok"]) == x["ap"] and x["m"] >= 0
            seen_tokens[i, tuple(x["tok"])] += 1
            seen_cards[i, x["card"] if x["card"] in ("move", "ambush", "special") else "general"] += 1
    assert {k for k in seen_cards if k[1] in ("move", "ambush")} == {
        (0, "move"), (0, "ambush"), (1, "move"), (1, "ambush")}
    assert (0, ("agent",)) in seen_tokens and (1, ("agent",)) in seen_tokens
    assert (2, ("informer",)) in seen_tokens  # an Informer may lie on the 1-AP card too


def test_the_event_decks_are_drawn_from_the_cards_not_seen() -> None:
    # which calm and alarm cards were put back in the box unseen at the setup is hidden
    s = fresh("zain,jasmine", seed=4)
    boxed = sorted(set(e.id for e in s.data.events.calm) - set(s.calm_deck) - {s.ev})
    other = s.clone()
    other.calm_deck[0], other.calm_deck[1] = boxed  # two cards of the deck swapped with the box
    other.alarm_deck[0] = next(e.id for e in s.data.events.alarm if e.id not in s.alarm_deck)
    assert other.observation(0) == s.observation(0)
    assert _fields(other.determinize(0, 5)) == _fields(s.determinize(0, 5))
    copies = [set(s.determinize(0, k).calm_deck) for k in range(30)]
    assert s.ev not in set().union(*copies) and len(set().union(*copies)) == 11
    # a copy whose log was cut (a muted search copy) only reshuffles what it holds
    s.log = []
    assert sorted(s.determinize(0, 1).calm_deck) == sorted(s.calm_deck)


def _cards_accounted(s) -> Counter:
    held = list(s.deck) + list(s.discard)
    for t in s.thieves:
        held += t["hand"]
        for x in t["plan"] + ([t["cur"]] if t["cur"] else []):
            held += [c for c in (x["card"], x.get("under")) if c and c not in ("move", "ambush", "special")]
    return Counter(held)


def _check_plans(s) -> None:
    for t in s.thieves:
        cards = [x["card"] for x in t["plan"]]
        for one in ("move", "ambush", "special"):
            assert cards.count(one) <= 1
        for x in t["plan"]:
            assert x["ap"] >= 1 and x["m"] >= 0
            assert x["m"] + sum(s.data.ap_value[k] for k in x["tok"]) == x["ap"]
            assert (x["card"] == "special") == bool(x.get("under"))


def _face_down(s) -> bool:
    return any(x["shown"] is False for t in s.thieves for x in t["plan"])


def _walk(n: int, seed: int, steps: int, to_execution: bool):
    """A random game's position after ``steps`` decisions, or the first one after them with
    a face-down planned card (random games end after about 300 decisions)."""
    s = GAME.new_game(n, seed)
    rng = Rng.from_seed(seed)
    k = 0
    while not s.is_terminal() and (k < steps or (to_execution and not _face_down(s))):
        to_act = s.players_to_act()
        p = to_act[rng.below(len(to_act))]
        acts = s.legal_actions(p)
        s.apply_action(p, acts[rng.below(len(acts))])
        k += 1
    return s


@settings(max_examples=25, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(2, 4), seed=st.integers(0, 10_000), steps=st.integers(0, 250),
       to_execution=st.sampled_from([True, True, False]), view_seed=st.integers(0, 2**32))
def test_copies_look_the_same_and_play_to_the_end(n, seed, steps, to_execution, view_seed) -> None:
    s = _walk(n, seed, steps, to_execution)
    cards = _cards_accounted(s)
    for p in range(n):
        copy = s.determinize(p, view_seed)
        assert copy.observation(p) == s.observation(p)
        assert _cards_accounted(copy) == cards
        assert copy.thieves[p] == s.thieves[p]
        _check_plans(copy)
        if p == 0:  # the copy is a legal position: a checked random game to its end
            rng = Rng.from_seed(view_seed)
            while not copy.is_terminal():
                to_act = copy.players_to_act()
                q = to_act[rng.below(len(to_act))]
                acts = copy.legal_actions(q)
                copy.apply_action(q, acts[rng.below(len(acts))])
                _check_plans(copy)
