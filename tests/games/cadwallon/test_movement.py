"""Rulebook §"Se déplacer" and §"Quitter le quartier": lines, arrows, walls, blocking, leaving."""
import pytest

from thieves.core.errors import IllegalAction
from thieves.games.cadwallon.board import flee_ends

from .helpers import do, moves, position


def test_white_lines_and_green_arrows():
    st = position({"E2": "d1"})
    do(st, "act E2")
    # Movement 4 from d1 through streets (white lines) and into rooms through doors (arrows)
    got = moves(st)
    assert {"c1", "e1", "e2", "f1", "g1", "c2", "h1", "g2"} <= got
    # c1-b1 is a red wall: b1 needs the long way round, more than 4 zones
    assert "b1" not in got
    # the library (c3) is not reachable from the scriptorium (c2): only a wall between them
    st2 = position({"E2": "c2"})
    do(st2, "act E2")
    assert "c3" not in moves(st2) and moves(st2) <= {"c1", "d1", "e1", "f1", "e2"}


def test_move_costs_one_ap_and_only_once():
    st = position({"E2": "d1"})
    do(st, "act E2", "move e1")
    assert st.pos["E2"] == "e1" and st.ap[0] == 6
    assert not moves(st)
    with pytest.raises(IllegalAction, match="already used its move"):
        do(st, "move e2")


def test_red_wall_blocks_and_secret_passage_crosses_it():
    st = position({"E2": "d5"})
    do(st, "act E2")
    assert "e5" not in moves(st)  # d5|e5 is a red wall; the way round is 7 zones
    st.hands[0] = ["secret_passage"]
    st._legal_cache = None
    do(st, "play secret_passage")
    assert {"e5", "e4", "e6", "f5"} <= moves(st)


def test_a_character_blocks_a_zone_and_rooftops_pass_it():
    st = position({"E2": "d1", "N1": "e1"})
    do(st, "act E2")
    got = moves(st)
    assert "e1" not in got and "f1" not in got and "e2" not in got  # e1 is the only way east
    st.hands[0] = ["rooftops"]
    st._legal_cache = None
    do(st, "play rooftops")
    got = moves(st)
    assert "e1" not in got and {"f1", "e2"} <= got


def test_friendly_figures_block_too():
    st = position({"E2": "d1", "E3": "e1"})
    do(st, "act E2")
    assert "f1" not in moves(st)


def test_portcullis_blocks_the_zone_by_default():
    st = position({"E2": "c1"})
    st.portcullis = ["d1"]
    do(st, "act E2")
    assert "d1" not in moves(st) and "e1" not in moves(st)


def test_portcullis_option_only_closes_the_exit():
    st = position({"E2": "c1"}, portcullis_blocks_zone=False)
    st.portcullis, st.alarm = ["d1"], True
    do(st, "act E2")
    assert "d1" in moves(st)
    # d1 is closed as an exit; the nearest open exits (f1, h1...) are out of reach with 1 point spare?
    st2 = position({"E2": "c1"}, portcullis_blocks_zone=False)
    st2.alarm = True
    do(st2, "act E2")
    assert "leave" in st2.legal_actions(0)


def test_cannot_leave_before_the_alarm():
    st = position({"E2": "d1"})
    do(st, "act E2")
    assert "leave" not in st.legal_actions(0)
    with pytest.raises(IllegalAction, match="alarm"):
        do(st, "leave")


def test_leaving_after_the_alarm_banks_the_treasures():
    st = position({"E2": "d1"})
    st.alarm = True
    st.carried["E2"] = ["scroll1", "scroll2"]
    do(st, "act E2", "leave")
    assert "E2" not in st.pos and "E2" in st.escaped
    assert st.banked[0] == ["scroll1", "scroll2"] and st.carried["E2"] == []
    assert st.ap[0] == 6


def test_leaving_needs_a_movement_point_to_spare():
    # b3 (a room) -> a3 -> a2 (deployment): 2 steps, plus 1 to step off = 3 <= 4
    st = position({"E2": "b3"})
    st.alarm = True
    do(st, "act E2")
    assert "leave" in st.legal_actions(0)
    st2 = position({"E2": "b3"})
    st2.alarm, st2.injured = True, {"E2": 2}  # Movement 2: 2 steps to a2, none to spare
    do(st2, "act E2")
    assert "leave" not in st2.legal_actions(0)


def test_leaving_only_through_an_open_deployment_zone():
    st = position({"E2": "b3"})
    st.alarm = True
    st.portcullis = ["a2", "a4"]
    do(st, "act E2")
    assert "leave" not in st.legal_actions(0)


def test_fleeing_passes_occupied_zones_ends_empty_never_revisits():
    st = position({"E2": "d1", "N1": "e1", "N2": "f1", "N3": "c1"})
    data = st.data
    occ = set(st.pos.values())
    ends = flee_ends(data, "d1", 3, lambda z: True, lambda z: z not in occ)
    # through e1 and f1 (occupied) to g1, or through e1 and e2 to e3; c1-c2 is 2 zones only
    assert ends == ["e3", "g1"]
    ends_short = flee_ends(data, "c2", 3, lambda z: True, lambda z: z not in occ)
    # c2 -> c1 (occupied) -> d1 (occupied) -> e1 (occupied): no 3-zone end; 1 or 2 fail too
    assert ends_short == []


def test_roofed_buildings_are_not_zones():
    st = position()
    for r in st.data.board.roofed:
        assert r not in st.data.zone


def test_clear_reasons_for_common_mistakes():
    st = position({"E2": "d1"})
    with pytest.raises(IllegalAction, match="activate a character first"):
        st.apply_action(0, "move c1")
    do(st, "act E2")
    with pytest.raises(IllegalAction, match="not an empty zone within"):
        st.apply_action(0, "move i9")
    with pytest.raises(IllegalAction, match="no chest"):
        st.apply_action(0, "open")
    with pytest.raises(IllegalAction, match="not player 1's turn"):
        st.apply_action(1, "end")
    st2 = position()
    st2.phase, st2.militia_left = "militia", 1
    with pytest.raises(IllegalAction, match="first move a militiaman"):
        st2.apply_action(0, "end")


def test_rulebook_example_leona_moves_three_zones_for_1_ap():
    """Leona spends 1 AP and moves 3 zones: a move need not use the whole Movement."""
    st = position({"E1": "d1"})
    do(st, "act E1")
    assert st.data.dist["d1"]["g1"] == 3
    do(st, "move g1")
    assert st.pos["E1"] == "g1" and st.ap[0] == 6


def test_rulebook_example_valdur_leaves_with_a_move():
    """Valdur spends 1 AP to move and leaves the district (after the alarm)."""
    st = position({"C1": "a3"}, n=4)
    st.current, st.alarm = 3, True
    do(st, "act C1", "leave")
    assert "C1" in st.escaped and st.ap[3] == 6
