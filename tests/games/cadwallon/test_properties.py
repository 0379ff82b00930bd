"""Property tests: long random walks with cheap invariants, round trips, replays, secrecy."""
import json

import pytest

from thieves.core.errors import IllegalAction
from thieves.core.replay import Replay
from thieves.core.rng import Rng

from .helpers import GAME


def walk(n: int, seed: int, keen: float = 0.9, options: dict | None = None):
    """A random game that rarely ends its turn early, so fights, chests and exits happen."""
    st = GAME.new_game(n, seed, options)
    rng = Rng.from_seed(seed + 77)
    states = []
    while not st.is_terminal():
        p = st.players_to_act()[0]
        acts = st.legal_actions(p)
        busy = [a for a in acts if a != "end"]
        if busy and rng.random() < keen:
            hot = [a for a in busy if a.split()[0] in ("attack", "open", "force", "leave", "mission", "mm")]
            a = rng.choice(hot) if hot and rng.random() < 0.5 else rng.choice(busy)
        else:
            a = rng.choice(acts)
        st.apply_action(p, a)
        states.append(st)
        yield st


def conserved(st) -> None:
    tids = [c["t"] for c in st.chests.values()] + [t for ts in st.carried.values() for t in ts]
    tids += [t for b in st.banked for t in b] + st.handed_in + st.box
    assert len(tids) == 24 and len(set(tids)) == 24, "treasures not conserved"
    total = st.bank + sum(st.ducats) + sum(st.room_ducats.values())
    assert total == st.data.treasures.ducats_in_bank, "ducats not conserved"
    assert min(st.ducats) >= 0 and st.bank >= 0
    cards = len(st.deck) + len(st.discard) + sum(len(h) for h in st.hands)
    assert cards == 60, "arcana cards not conserved"
    for c, ts in st.carried.items():
        if c in st.pos:
            assert len(ts) <= st.data.treasures.carry_limit or st.queue, f"{c} carries {ts}"
    # at most two figures share a zone, and only during a fight
    zones = list(st.pos.values())
    if st.combat is None:
        # (a beaten figure boxed in with no flight at all stays in the fight's zone)
        assert len(zones) == len(set(zones)) or any(
            ev["key"] == "cannot_flee" for ev in st.log), "two figures share a zone"
    for z in st.portcullis:
        assert st.data.zone[z].deployment


@pytest.mark.parametrize("n", [2, 3, 4])
def test_thousands_of_random_decisions_keep_the_invariants(n):
    decisions = 0
    for seed in range(12):
        for st in walk(n, seed):
            conserved(st)
            decisions += 1
        assert st.winners()
    assert decisions > 2000


def test_fights_exits_and_missions_happen_in_random_walks():
    verbs = set()
    for seed in range(10):
        for st in walk(4, seed):
            pass
        verbs |= {a.split()[0] for _, a in st.history}
    assert {"attack", "flee", "open", "force", "leave", "mission", "card", "nocard", "mm", "talent", "play", "no"} <= verbs


@pytest.mark.parametrize("n", [2, 3, 4])
def test_exact_json_round_trip_and_replay(n):
    for seed in range(3):
        for i, st in enumerate(walk(n, 100 + seed)):
            if i % 7 == 0:
                snap = st.to_json()
                again = GAME.state_from_json(snap)
                assert again.to_json() == snap
                assert json.loads(snap)["fields"]["pos"] == st.pos
        replay = Replay.from_json(Replay.of(st).to_json())
        assert replay.final_state().to_json() == st.to_json()


def test_illegal_actions_change_nothing():
    probes = ["move a1", "move g3", "attack kornak", "attack valrut", "leave", "open", "force",
              "mission 1", "play fury", "act E1", "act N1", "flee a1", "take red", "drop red c2",
              "deploy E1 e5", "at e5", "deploy Z9", "mm a1", "talent z9", "card fury", "end now", "move"]
    checked = 0
    for seed in range(4):
        for i, st in enumerate(walk(3, 200 + seed)):
            if i % 5 or st.is_terminal():
                continue
            p = st.players_to_act()[0]
            legal = set(st.legal_actions(p))
            before = st.to_json()
            for a in probes:
                if a in legal:
                    continue
                with pytest.raises(IllegalAction) as exc:
                    st.apply_action(p, a)
                assert str(exc.value)
                checked += 1
            assert st.to_json() == before
    assert checked > 500


def test_no_hidden_card_leaks_into_another_players_view():
    for seed in range(3):
        for i, st in enumerate(walk(4, 300 + seed)):
            if i % 9:
                continue
            for p in range(4):
                obs = st.observation(p)
                twin = st.clone()
                # change everything p may not know: other hands and the deck order
                pool = twin.deck + [k for q in range(4) if q != p for k in twin.hands[q]]
                pool = sorted(pool, reverse=True)
                for q in range(4):
                    if q != p:
                        k = len(twin.hands[q])
                        twin.hands[q], pool = sorted(pool[:k]), pool[k:]
                twin.deck = pool
                twin.mission_deck = list(reversed(twin.mission_deck))
                twin.box = list(reversed(twin.box))
                assert twin.observation(p) == obs
                text = json.dumps(obs)
                for q in range(4):
                    if q != p and st.hands[q] != twin.hands[q]:
                        assert "hands" not in obs
            # the draw events name the card only to the player who drew it
            for ev in st.log:
                if ev["key"] == "draw":
                    assert ev["to"] == [ev["args"]["player"]] and "card" not in ev["args"]
                    assert set(ev["secret"]) == {"card"}


def test_determinize_keeps_own_hand_and_counts():
    for st in walk(3, 5):
        if st.ply == 120:
            break
    d = st.determinize(0, 1)
    assert d.hands[0] == st.hands[0]
    assert [len(h) for h in d.hands] == [len(h) for h in st.hands]
    assert sorted(d.deck + d.hands[1] + d.hands[2]) == sorted(st.deck + st.hands[1] + st.hands[2])
