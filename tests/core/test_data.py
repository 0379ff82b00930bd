"""Component data: shipped files, the user's data directory, clear errors."""
import pytest
from pydantic import BaseModel, ConfigDict, Field

from thieves import DataError
from thieves.core.data import load_model


class Card(BaseModel):
    model_config = ConfigDict(extra="forbid")
    id: str
    cost: int = Field(ge=0)
    reconstructed: bool = False


class Cards(BaseModel):
    cards: list[Card]


def test_shipped_file_loads():
    cards = load_model("tests.core", "cards.yaml", Cards)
    assert [c.id for c in cards.cards] == ["lockpick", "rope"]
    assert cards.cards[1].reconstructed


def test_user_file_replaces_shipped_one(tmp_path):
    (tmp_path / "cards.yaml").write_text("cards:\n  - {id: crowbar, cost: 4}\n")
    cards = load_model("tests.core", "cards.yaml", Cards, str(tmp_path))
    assert [c.id for c in cards.cards] == ["crowbar"]


def test_user_dir_without_the_file_keeps_shipped_one(tmp_path):
    cards = load_model("tests.core", "cards.yaml", Cards, str(tmp_path))
    assert len(cards.cards) == 2


def test_error_names_file_entry_and_field(tmp_path):
    (tmp_path / "cards.yaml").write_text("cards:\n  - {id: crowbar, cost: 4}\n  - {id: sack, cost: -1}\n")
    with pytest.raises(DataError) as info:
        load_model("tests.core", "cards.yaml", Cards, str(tmp_path))
    msg = str(info.value)
    assert "cards.yaml" in msg and "[1] (sack)" in msg and "cost" in msg


def test_unknown_field_is_an_error(tmp_path):
    (tmp_path / "cards.yaml").write_text("cards:\n  - {id: crowbar, cost: 4, colour: red}\n")
    with pytest.raises(DataError, match="colour"):
        load_model("tests.core", "cards.yaml", Cards, str(tmp_path))


def test_bad_yaml_and_missing_dir(tmp_path):
    (tmp_path / "cards.yaml").write_text("cards: [\n")
    with pytest.raises(DataError, match="not valid YAML"):
        load_model("tests.core", "cards.yaml", Cards, str(tmp_path))
    with pytest.raises(DataError, match="does not exist"):
        load_model("tests.core", "cards.yaml", Cards, str(tmp_path / "nope"))
    with pytest.raises(DataError, match="missing"):
        load_model("tests.core", "absent.yaml", Cards)
