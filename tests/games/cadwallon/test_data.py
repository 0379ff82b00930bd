"""The component data: counts from the rulebook, board constraints, validation, overrides."""
import os
import shutil

import pytest

from thieves.core.errors import DataError, GameSetupError
from thieves.games.cadwallon import components

from .helpers import GAME


@pytest.fixture(scope="module")
def data():
    return components.load()


def test_component_counts(data):
    assert sum(c.count for c in data.arcana.cards) == 60
    assert len(data.missions.missions) == 15
    assert len(data.adventures.adventures) == 8
    assert len(data.char) == 16 and len(data.militia) == 2 and len(data.heroine) == 2
    assert {m.name for m in data.characters.militiamen} == {"Kornak", "Valrut"}
    assert {h.name for h in data.characters.heroines} == {"Sienne", "Isabeau"}
    for mix in data.treasures.mixes.values():
        assert sum(mix.values()) == 24
    assert data.treasures.ducats_in_bank == 40 * 1 + 20 * 5 + 20 * 10
    for ch in data.char.values():  # every thief: Combat 2, Movement 4, Spirit 4
        assert (ch.combat, ch.movement, ch.spirit) == (2, 4, 4)
    assert all(h.combat == 3 for h in data.heroine.values())


def test_board_meets_the_rulebook_constraints(data):
    b = data.board
    assert b.reconstructed
    assert len(data.deployment) >= 16
    assert 4 <= len(data.rooms) <= 24
    assert set(data.role) == {"vault", "guard_room", "library", "magister"}
    assert all(len(data.dist[z]) == len(data.zone) for z in data.zone_ids[:1]), "district not connected"
    kinds = {z.id: z.kind for z in b.zones}
    for c in b.connections:  # rooms are entered only through green arrows
        if "room" in (kinds[c.a], kinds[c.b]):
            assert c.kind == "arrow"
    for r in data.rooms:
        assert 1 <= len(data.adj[r]) <= 2
    for z in data.deployment:  # deployment zones lie on the board edge
        c, r = data.zone[z].cell
        assert c in (0, b.columns - 1) or r in (0, b.rows - 1)
    for a in data.adventures.adventures:
        assert len([z for e in a.events for z in e.zones]) <= 9  # 9 portcullis tokens


def test_every_unknown_component_is_marked_reconstructed(data):
    assert all(c.reconstructed for c in data.arcana.cards)
    assert all(m.reconstructed for m in data.missions.missions)
    assert all(a.reconstructed for a in data.adventures.adventures)
    assert all(t.reconstructed for t in data.characters.talents)
    assert all(c.reconstructed for c in data.char.values())


def test_data_dir_override_is_validated(tmp_path):
    src = os.path.join(os.path.dirname(components.__file__), "data", "arcana.yaml")
    text = open(src, encoding="utf-8").read().replace("count: 10", "count: 11")
    (tmp_path / "arcana.yaml").write_text(text, encoding="utf-8")
    with pytest.raises(DataError, match="60 cards"):
        GAME.new_game(2, 0, {"data_dir": str(tmp_path)})


def test_data_dir_override_replaces_a_file(tmp_path):
    src = os.path.join(os.path.dirname(components.__file__), "data", "missions.yaml")
    text = open(src, encoding="utf-8").read().replace("reward: 7,", "reward: 70,")
    (tmp_path / "missions.yaml").write_text(text, encoding="utf-8")
    st = GAME.new_game(2, 0, {"data_dir": str(tmp_path)})
    assert st.data.mission["M01"].reward == 70


def test_bad_board_is_rejected(tmp_path):
    src = os.path.join(os.path.dirname(components.__file__), "data", "board.yaml")
    shutil.copy(src, tmp_path / "board.yaml")
    text = (tmp_path / "board.yaml").read_text().replace("role: vault", "role: library")
    (tmp_path / "board.yaml").write_text(text)
    with pytest.raises(DataError, match="vault"):
        GAME.new_game(2, 0, {"data_dir": str(tmp_path)})


def test_options_are_checked():
    with pytest.raises(GameSetupError):
        GAME.new_game(2, 0, {"adventure": "nowhere"})
    with pytest.raises(GameSetupError):
        GAME.new_game(5, 0)
    st = GAME.new_game(2, 0, {"adventure": "lockdown"})
    assert st.adventure == "lockdown"


def test_setup_follows_the_rulebook():
    st = GAME.new_game(3, 4, {"adventure": "quiet_night"})
    d = st.data
    assert st.pos["kornak"] == d.role["guard_room"] and st.pos["valrut"] == d.role["vault"]
    assert set(st.chests) == set(d.rooms) and not any(c["sealed"] for c in st.chests.values())
    assert len(st.box) == 24 - len(d.rooms)
    assert [len(h) for h in st.hands] == [5, 5, 5] and len(st.deck) == 45
    assert len(st.missions) == 3 and len(st.mission_deck) == 12
    assert st.round == 1 and st.phase == "gang" and st.players_to_act() == [0]
    # step 2: each player chooses a gang (seat order); a gang taken is no longer offered
    assert st.legal_actions(0) == ["gang E", "gang N", "gang K", "gang C"]
    st.apply_action(0, "gang K")
    assert st.players_to_act() == [1] and "gang K" not in st.legal_actions(1)
    st.apply_action(1, "gang E")
    st.apply_action(2, "gang C")
    assert st.gangs == ["K", "E", "C"] and st.to_deploy[0] == ["K1", "K2", "K3", "K4"]
    assert st._owner("K1") == 0 and st._owner("N1") is None
    assert st.phase == "deploy" and st.current == st.first
    # deployment: one character at a time, clockwise from the first player, on empty zones
    order = []
    while st.phase == "deploy":
        p = st.players_to_act()[0]
        st.apply_action(p, st.legal_actions(p)[0])
        assert st.players_to_act() == [p] and all(a.startswith("at ") for a in st.legal_actions(p))
        order.append(p)
        st.apply_action(p, st.legal_actions(p)[0])
    f = st.first
    assert order == [(f + i) % 3 for i in range(12)]
    assert all(st.pos[c] in d.deployment for c in d.char if c in st.pos)
    assert len(set(st.pos.values())) == len(st.pos)
    # the first turn: draw 1 arcana card, then move a militiaman
    assert st.phase == "militia" and len(st.hands[f]) == 6


def test_arcana_timing_must_match_the_engine(tmp_path):
    src = os.path.join(os.path.dirname(components.__file__), "data", "arcana.yaml")
    text = open(src, encoding="utf-8").read().replace(
        "kind: jinx, name: Jinx, count: 3, timing: reroll", "kind: jinx, name: Jinx, count: 3, timing: turn")
    (tmp_path / "arcana.yaml").write_text(text, encoding="utf-8")
    with pytest.raises(DataError, match="jinx is played at timing 'reroll'"):
        GAME.new_game(2, 0, {"data_dir": str(tmp_path)})
