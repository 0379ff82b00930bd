"""Owner tools: export -> check -> load round trip, and diff."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from thieves.cli import data
from thieves.cli.main import main
from thieves.core.errors import DataError, ThievesError
from thieves.core.registry import load_game

SLUGS = ["thiefs-market", "thieves-den", "age-of-thieves", "thiefdom", "cadwallon"]


@pytest.mark.parametrize("slug", SLUGS)
def test_export_check_load_round_trip(slug: str, tmp_path: Path) -> None:
    written = data.export(slug, str(tmp_path))
    assert {Path(p).name for p in written} == set(data.shipped_files(slug))
    models = data.models_of(slug)
    for name in models:  # every component file explains its fields
        head = (tmp_path / name).read_text(encoding="utf-8").split("\n\n", 1)[0]
        assert "Fields:" in head and "required" in head
    assert data.check(slug, str(tmp_path), games=1)
    game = load_game(slug)
    # unchanged exported data plays exactly like the shipped data
    state = game.new_game(game.min_players, 5, {"data_dir": str(tmp_path)})
    shipped = game.new_game(game.min_players, 5)
    assert state.observation(None) == shipped.observation(None)
    p = shipped.players_to_act()[0]
    assert state.legal_actions(p) == shipped.legal_actions(p)


def test_check_names_the_file_and_entry(tmp_path: Path) -> None:
    data.export("thieves-den", str(tmp_path))
    raw = yaml.safe_load((tmp_path / "fences.yaml").read_text(encoding="utf-8"))
    raw["fences"][3]["prestige"] = -2
    (tmp_path / "fences.yaml").write_text(yaml.safe_dump(raw), encoding="utf-8")
    with pytest.raises(DataError) as err:
        data.check("thieves-den", str(tmp_path))
    assert "fences.yaml" in str(err.value) and raw["fences"][3]["id"] in str(err.value)


def test_check_refuses_a_stranger_file(tmp_path: Path) -> None:
    (tmp_path / "cardz.yaml").write_text("x: 1\n", encoding="utf-8")
    with pytest.raises(ThievesError, match="cardz.yaml"):
        data.check("thiefs-market", str(tmp_path))


def test_diff_shows_each_change_by_entry(tmp_path: Path) -> None:
    data.export("thieves-den", str(tmp_path))
    raw = yaml.safe_load((tmp_path / "fences.yaml").read_text(encoding="utf-8"))
    first = raw["fences"][0]
    old = first["prestige"]
    first["prestige"] = old + 1
    gone = raw["fences"].pop()
    raw["fences"].append({**first, "id": "F99"})
    (tmp_path / "fences.yaml").write_text(yaml.safe_dump(raw), encoding="utf-8")
    lines = data.diff("thieves-den", str(tmp_path))
    assert f"  ~ fences[{first['id']}].prestige: {old} -> {old + 1}" in lines
    assert f"  - fences[{gone['id']}] removed" in lines
    assert "  + fences[F99] added" in lines
    assert "board.yaml: same as shipped" in lines


def test_cli_data_commands(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["data", "export", "thiefs-market", str(tmp_path / "box")]) == 0
    assert main(["data", "check", "thiefs-market", str(tmp_path / "box"), "--games", "1"]) == 0
    assert main(["data", "diff", "thiefs-market", str(tmp_path / "box")]) == 0
    assert "same as shipped" in capsys.readouterr().out
    assert main(["data", "check", "thiefs-market", str(tmp_path / "nothing")]) == 2
