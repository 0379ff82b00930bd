"""Setup, planning, initiative order and clean-up (Rulebook §"Spielaufbau", phases 1-5)."""
from __future__ import annotations

from thieves.games.age_of_thieves import planning
from thieves.games.age_of_thieves.notation import ctype

from .helpers import GAME, act, events, fresh, give, plan, watch_acted


def test_setup_follows_the_rulebook():
    s = GAME.new_game(3, 5, {})
    d = s.data
    assert sorted(s.guards.values()) == sorted(d.of_kind["sword"])  # 12 guards with swords
    assert len(s.guards) == 12 and len(s.guard_supply) == 8 and len(s.captain_supply) == 2
    # a face-down token on every guardhouse outside the Palace and under every sword guard
    expected = [x for x in d.guardhouses if not (d.district[x] == "palace" and d.kind[x] != "sword")]
    assert sorted(s.tokens) == sorted(expected)
    assert len(s.tokens) + len(s.box_tokens) == 51
    assert s.gems[d.of_kind["treasury"][0]] == ["emperor"]
    assert all(s.gems[g] == ["green"] for g in d.of_kind["green"])
    assert all(len(t["hand"]) == 2 for t in s.thieves)
    assert len(s.calm_deck) == 10 and len(s.alarm_deck) == 5
    assert len(s.deck) == 70 - 6
    # start spaces: the start player chooses first, then clockwise; one thief per start space
    first = s.players_to_act()[0]
    assert first == s.start
    act(s, first, s.legal_actions(first)[0])
    second = s.players_to_act()[0]
    assert second == (first + 1) % 3
    assert len(s.legal_actions(second)) == 3


def test_event_phase_places_a_jewel_far_from_thieves_and_rolls():
    s = GAME.new_game(2, 3, {"thieves": "zain,jasmine"})
    while s.pending and s.pending[0]["kind"] == "startspace":
        act(s, s.players_to_act()[0], s.legal_actions(s.players_to_act()[0])[0])
    ev = s.current_event()
    pd = s.pending[0]
    assert pd["kind"] == "jewel" and pd["p"] == s.start
    for spot in pd["spots"]:
        assert s.data.district[spot] == {"N": "golden_domes", "E": "empty_pot", "S": "salty_docks",
                                         "W": "hammerblow"}[ev.direction]
        assert all(s.data.dist[spot][t["pos"]] >= 6 for t in s.thieves)
    act(s, s.start, f"jewel {pd['spots'][0]}")
    assert "yellow" in s.gems[pd["spots"][0]] and s.yellow_supply == 9
    assert 1 <= s.die <= 8 and s.phase == "plan"
    assert all(len(t["hand"]) == 3 for t in s.thieves)  # phase 2: one card each


def test_zain_plans_three_cards_rulebook_example():
    s = fresh("zain,jasmine")
    give(s, 0, "smoke")
    plan(s, 0, [("ambush", 1), ("move", 3), ("smoke", 5)])
    z = s.thieves[0]
    assert [(x["card"] if x["card"] in ("move", "ambush") else ctype(x["card"]), x["ap"]) for x in z["plan"]] == \
        [("ambush", 1), ("move", 3), ("smoke", 5)]
    assert planning.markers_free(s, 0) == 1  # the last marker stays unused
    # the plan is secret while the others are still planning
    seen = s.observation(1)["thieves"][0]
    # every card counts as held while behind the screen: Smoke, Move, Ambush and the special
    assert seen["plan"] == [] and "hand" not in seen and seen["hand_count"] == 4
    assert 1 in s.players_to_act() and 0 not in s.players_to_act()
    act(s, 1, "done")
    # screens lifted: the three planned cards lie face down, the special is still in hand
    assert s.observation(1)["thieves"][0]["hand_count"] == 1
    seen = s.observation(1)["thieves"][0]["plan"]
    assert [x["ap"] for x in seen] == [1, 3, 5] and all("card" not in x for x in seen)


def test_planning_needs_one_ap_per_card_and_ap_tokens_work():
    s = fresh("zain,jasmine")
    s.thieves[0]["sheet"] = ["agent"]
    s._legal_cache = None
    act(s, 0, "plan move")
    assert "ap 0" in s.legal_actions(0)
    act(s, 0, "ap 0")
    assert "next" not in s.legal_actions(0)  # a card needs at least 1 AP
    act(s, 0, "add agent")  # the Guild Agent counts 2 AP, never split
    assert s.thieves[0]["plan"][0]["ap"] == 2
    assert s.observation(1)["thieves"][0]["sheet"] == ["agent"]  # behind the screen: unseen
    act(s, 0, "done")
    act(s, 1, "done")
    assert s.thieves[0]["sheet"] == []


def _run_exec(s, prefer=("cleverness", "sneak", "stop")):
    """Resolve the execution phase, recording (player, AP) and 'watch'."""
    order = []
    acted = False
    while s.phase == "exec":
        if watch_acted(s) and not acted:
            order.append("watch")
            acted = True
        p = s.players_to_act()[0]
        legal = s.legal_actions(p)
        if s.turn is not None and not s.act and not s.pending:
            order.append((p, s.exec["value"]))
        choice = next((a for a in prefer if a in legal), legal[0])
        s.apply_action(p, choice)
        if s.phase != "exec" and watch_acted(s) and not acted:
            order.append("watch")
            acted = True
    return order


def test_initiative_morius_noiron_rulebook_example():
    s = fresh("morius,noiron", die=6)
    plan(s, 0, [("move", 4), ("ambush", 1)])
    plan(s, 1, [("ambush", 10)])
    assert _run_exec(s) == [(1, 10), "watch", (0, 4), (0, 1)]


def test_tie_example_calm_and_alarm():
    for alarm, expected in ((False, [(0, 4), (1, 4), (0, 4), (1, 2), "watch"]),
                            (True, [(0, 4), (1, 4), (0, 4), "watch", (1, 2)])):
        s = fresh("morius,noiron", die=2)
        s.alarm = alarm
        s.start = 0  # Morius is start player
        plan(s, 0, [("move", 4), ("ambush", 4)])
        plan(s, 1, [("move", 4), ("ambush", 2)])
        assert _run_exec(s) == expected, alarm


def test_thieves_win_ties_in_calm_guards_in_alarm():
    for alarm, first in ((False, (0, 5)), (True, "watch")):
        s = fresh("morius,noiron", die=5)
        s.alarm = alarm
        plan(s, 0, [("ambush", 5)])
        plan(s, 1, [])
        assert _run_exec(s)[0] == first


def test_sprint_and_cunning_plan_only_without_other_actions():
    s = fresh("zain,jasmine", die=1)
    plan(s, 0, [("ambush", 5), ("move", 3)])
    plan(s, 1, [])
    assert "cunning" in s.legal_actions(0)
    act(s, 0, "cleverness")
    assert s.legal_actions(0) == ["sneak", "decline move"]  # Sprint no longer possible
    s2 = fresh("zain,jasmine", die=1)
    plan(s2, 0, [("ambush", 5), ("move", 3)])
    plan(s2, 1, [])
    act(s2, 0, "cunning")
    assert s2.thieves[0]["violet_new"] == 2
    assert s2.legal_actions(0) == ["decline move"]  # the strong effect forbids any other action


def test_declining_keeps_the_strong_effect_open_noiron_fishing_rod_example():
    s = fresh("noiron,zain", die=8)
    give(s, 0, "rod")
    plan(s, 0, [("ambush", 1), ("rod", 6)])
    plan(s, 1, [])
    act(s, 0, "decline rod")
    while s.turn is None or s.players_to_act() != [0]:
        p = s.players_to_act()[0]
        s.apply_action(p, s.legal_actions(p)[0])
    assert "cunning" in s.legal_actions(0)


def test_special_action_with_a_general_card_on_it():
    s = fresh("zain,jasmine", die=1)
    give(s, 0, "cloak")
    plan(s, 0, [("special:cloak", 7)])
    plan(s, 1, [])
    assert set(s.legal_actions(0)) == {"special", "play cloak", "decline special"}
    plan_left = s.round
    act(s, 0, "play cloak")
    assert any(e["args"]["card"] == "sp_zain" and e["args"]["played"] == "cloak" for e in events(s, "reveal_play"))
    assert s.round == plan_left + 1  # round over: the card went to the discard pile
    while s.phase != "event" and s.phase != "plan":
        p = s.players_to_act()[0]
        s.apply_action(p, s.legal_actions(p)[0])
    assert any(ctype(c) == "cloak" for c in s.discard)  # discarded at clean-up


def test_hand_limit_five():
    s = fresh("zain,jasmine")
    give(s, 0, "cloak", "cloak", "fire", "bola", "gas")
    s.draw_card(0)
    assert s.pending[-1]["kind"] == "discard"
    s._advance()
    assert s.players_to_act() == [0]
    act(s, 0, "discard cloak")
    assert len(s.thieves[0]["hand"]) == 5


def test_cleanup_passes_start_player_and_resets():
    s = fresh("zain,jasmine")
    plan(s, 0, [("ambush", 2)])
    plan(s, 1, [])
    s.fire = [s.data.of_kind["hideout"][0]]
    while s.phase not in ("plan",) or s.round == 1:
        p = s.players_to_act()[0]
        s.apply_action(p, s.legal_actions(p)[0])
    assert s.round == 2 and s.start == 1 and s.fire == []
