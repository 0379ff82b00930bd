"""Conformance kit, long random walks with invariants, hidden information, bots."""
from __future__ import annotations

import json

import pytest

from thieves.bots import make_bot, play_game
from thieves.core.errors import IllegalAction
from thieves.core.replay import Replay
from thieves.core.rng import Rng
from thieves.testing import check_game_run, check_illegal_rejected, random_game

from .helpers import GAME, act, fresh, plan

SLUG = "age-of-thieves"


@pytest.mark.parametrize("n", [2, pytest.param(3, marks=pytest.mark.slow), pytest.param(4, marks=pytest.mark.slow)])
def test_conformance_kit(n):
    """The kit, at every player count (the rulebook lets every thief lose: GAME.all_may_lose)."""
    for seed in range(3):
        final = check_game_run(SLUG, n, seed, deep_every=4)
        if not final.winners():
            assert final.ended in ("defeat", "dawn", "all_left")


def ctype(c: str) -> str:
    return c.rstrip("0123456789")


def check_invariants(s) -> None:
    """Gems, city tokens, cards and figures are conserved; one figure per space at rest."""
    t = s.thieves
    board = [k for v in s.gems.values() for k in v]
    assert s.yellow_supply + board.count("yellow") + sum(x["yellow"] for x in t) == 10
    assert s.green_supply + board.count("green") + sum(x["green"] for x in t) == 4
    assert board.count("emperor") + sum(x["emperor"] for x in t) == 1
    on_cards = [k for x in t for sl in x["plan"] for k in sl["tok"]] if s.phase != "plan" else []
    tokens = (len(s.tokens) + len(s.box_tokens) + len(s.features) + len(s.spent_tokens)
              + sum(len(x["sheet"]) for x in t) + len(on_cards))
    assert tokens == 51
    planned = [c for x in t for sl in x["plan"] + ([x["cur"]] if x["cur"] else [])
               for c in (sl["card"], sl.get("under")) if c and c not in ("move", "ambush", "special")]
    assert len(s.deck) + len(s.discard) + sum(len(x["hand"]) for x in t) + len(planned) == 70
    assert len(set(s.deck + s.discard + planned + [c for x in t for c in x["hand"]])) == 70
    assert len(s.guards) + len(s.guard_supply) + len(s.captain_supply) == 22
    if s.act is None and s.gq is None and not s.pending:
        spots = list(s.guards.values())
        assert len(spots) == len(set(spots)), "two figures ended on one space"
    for x in t:
        if x["dungeon"]:
            assert s.data.kind[x["pos"]] == "dungeon"


def walk(n: int, seed: int, greedy_seats: tuple[int, ...]) -> int:
    s = GAME.new_game(n, seed)
    bots = [make_bot("greedy" if p in greedy_seats else "random", SLUG, seed * 7 + p) for p in range(n)]
    rng = Rng.from_seed(seed)
    steps = 0
    while not s.is_terminal():
        to_act = s.players_to_act()
        p = to_act[rng.below(len(to_act))]
        s.apply_action(p, bots[p].choose(s, p))
        steps += 1
        check_invariants(s)
        if steps % 40 == 0:
            snap = s.to_json()
            assert GAME.state_from_json(snap).to_json() == snap
            assert s.clone().to_json() == snap
            json.dumps([s.observation(q) for q in [None, *range(n)]])
    assert s.winners() == [] or all(s.thieves[w]["left"] for w in s.winners())
    return steps


def test_long_walks_keep_every_invariant():
    total = 0
    reached_alarm = 0
    for n in (2, 3, 4):
        for seed in range(10):
            total += walk(n, seed, greedy_seats=(0, 2) if seed % 2 else (1,))
    for seed in range(4):
        s = play_game(GAME.new_game(3, 100 + seed), [make_bot("greedy", SLUG, seed + k) for k in range(3)])
        reached_alarm += s.alarm
    assert total > 5000
    assert reached_alarm >= 1


def test_no_hidden_card_or_plan_leaks():
    """What a player sees does not change when everything hidden from them is reshuffled."""
    for n in (2, 3, 4):
        s = GAME.new_game(n, 11 + n)
        bots = [make_bot("greedy" if p == 0 else "random", SLUG, p) for p in range(n)]
        rng = Rng.from_seed(n)
        for step in range(800):
            if s.is_terminal():
                break
            if step % 7 == 0:
                for p in range(n):
                    twin = s.determinize(p, step)
                    assert twin.observation(p) == s.observation(p), (n, step, p)
            to_act = s.players_to_act()
            p = to_act[rng.below(len(to_act))]
            s.apply_action(p, bots[p].choose(s, p))


def test_planning_is_secret_from_the_others():
    s = fresh("zain,jasmine,joanne")
    s.thieves[0]["sheet"] = ["informer"]
    plan(s, 0, [("move", 7)])
    text = json.dumps(s.observation(1)) + json.dumps(s.observation(None))
    assert '"move"' not in text and "my_slot" not in text
    assert s.observation(1)["thieves"][0]["plan"] == []
    assert "Your plan: Move with 7 AP." in s.visible_log(0)


def test_illegal_actions_change_nothing():
    s = fresh("zain,jasmine", die=1)
    s.thieves[0]["pos"] = "E43"
    plan(s, 0, [("move", 5)])
    plan(s, 1, [])
    act(s, 0, "sneak")
    before = s.to_json()
    for bad in ("to P0", "take emperor", "leave S-ship1", "steal 2 green", "sewer N29"):
        with pytest.raises(IllegalAction) as err:
            s.apply_action(0, bad)
        assert str(err.value)
        assert s.to_json() == before
    with pytest.raises(IllegalAction, match="not next to"):
        s.apply_action(0, "to P0")
    check_illegal_rejected(s)


def test_greedy_clearly_beats_random():
    wins = {"greedy": 0, "random": 0}
    for seed in range(24):
        n = 2 + seed % 3
        s = GAME.new_game(n, seed)
        bots = [make_bot("greedy" if p == 0 else "random", SLUG, seed * 10 + p) for p in range(n)]
        play_game(s, bots)
        for w in s.winners():
            wins["greedy" if w == 0 else "random"] += 1
    assert wins["greedy"] >= 12 and wins["greedy"] >= 6 * wins["random"], wins  # about 79 %


def test_data_dir_override_is_validated(tmp_path):
    (tmp_path / "cards.yaml").write_text("basic: {move: {}, ambush: {}}\ngeneral: []\n")
    from thieves.core.errors import DataError
    with pytest.raises(DataError, match="general"):
        GAME.load_data(str(tmp_path))


def test_clear_reasons_for_common_mistakes():
    s = fresh("zain,jasmine", die=1)
    s.thieves[0]["pos"] = "S50"
    plan(s, 0, [("move", 5)])
    plan(s, 1, [])
    act(s, 0, "sprint")
    with pytest.raises(IllegalAction, match="before the Emperors' Jewel"):
        s.apply_action(0, "leave S-ship1")
    with pytest.raises(IllegalAction, match="not next to"):
        s.apply_action(0, "to N8")


def test_user_data_missing_a_count_is_refused_by_name(tmp_path):
    import yaml
    from importlib import resources

    from thieves import DataError

    raw = yaml.safe_load(resources.files("thieves.games.age_of_thieves").joinpath("data/tokens.yaml").read_text())
    del raw["pieces"]["jewel_distance"]
    (tmp_path / "tokens.yaml").write_text(yaml.safe_dump(raw))
    with pytest.raises(DataError, match="tokens.yaml.*jewel_distance"):
        GAME.new_game(2, 0, {"data_dir": str(tmp_path)})
