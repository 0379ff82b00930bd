"""Rulebook "Matériel & mise en place" and the card data."""
import os

import pytest
import yaml

from thieves.core.errors import DataError, GameSetupError
from thieves.core.registry import load_game
from thieves.games.thiefs_market.components import load_tables

from .util import GAME


def test_card_data_has_the_49_cards():
    t = load_tables(None)
    assert len(t.ids) == 49 and len(set(t.ids)) == 49
    assert [len(d) for d in t.deck_cards] == [16, 19, 14]
    assert sum(t.henchmen) == 18                      # 17 henchman cards, one with two icons
    assert sum(1 for c in t.cards if "magic" in c.icons) == 10
    assert all(not c.reconstructed for c in t.cards)  # every value is known
    assert len({c.name for c in t.cards}) == 48       # Treasure Map exists twice


@pytest.mark.parametrize("n,dice", [(3, 10), (4, 11), (5, 13)])
def test_setup_by_player_count(n, dice):
    s = GAME.new_game(n, 1)
    assert s.num_dice == dice and sum(s.center) == dice
    assert [len(d) for d in s.decks] == [13 - 5, 12, 11]
    assert len(s.rows[0]) == 5 and s.rows[1] == s.rows[2] == []
    assert len(s.box) == 3 + 7 + 3
    assert s.gold == [1] * n and s.infamy == [0] * n


def test_player_counts_and_options_are_checked():
    with pytest.raises(GameSetupError):
        GAME.new_game(2, 0)
    with pytest.raises(GameSetupError):
        GAME.new_game(6, 0)
    with pytest.raises(GameSetupError):
        GAME.new_game(3, 0, {"start_player": "oldest"})


def test_start_player_is_random_by_default():
    assert len({GAME.new_game(4, seed).start_player for seed in range(20)}) > 1
    assert GAME.new_game(4, 3, {"start_player": "first"}).current == 0


def test_load_game_by_slug():
    assert load_game("thiefs-market") is GAME


def test_data_dir_override_is_validated(tmp_path):
    src = os.path.join(os.path.dirname(__file__), "../../../src/thieves/games/thiefs_market/data")
    with open(os.path.join(src, "cards.yaml"), encoding="utf-8") as fh:
        raw = yaml.safe_load(fh)
    raw["cards"][0]["effect"] = {"kind": "turn_die", "face": "R"}     # "to" is missing
    (tmp_path / "cards.yaml").write_text(yaml.safe_dump(raw), encoding="utf-8")
    with pytest.raises(DataError, match="A1"):
        load_tables(str(tmp_path))
    raw["cards"][0]["effect"] = {"kind": "turn_die", "face": "R", "to": ["Y"]}
    raw["cards"][0]["name"] = "My Lab"
    (tmp_path / "cards.yaml").write_text(yaml.safe_dump(raw), encoding="utf-8")
    s = GAME.new_game(3, 0, {"data_dir": str(tmp_path)})
    assert s.data.names[0] == "My Lab"


def test_every_effect_kind_is_used_by_a_card():
    from thieves.games.thiefs_market.components import EFFECT_PARAMS
    t = load_tables(None)
    assert set(t.kind) == set(EFFECT_PARAMS)
