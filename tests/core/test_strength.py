"""The strength benchmark's win matrix (python -m thieves.bots.strength --matrix)."""
from __future__ import annotations

from pathlib import Path

import pytest

from thieves.bots.strength import main, strength_matrix


def test_heads_up_matrix_takes_both_cells_from_one_match() -> None:
    m = strength_matrix("thieves-den", ["random", "greedy"], games=4, seed=3)
    assert m.players == 2 and set(m.cells) == {("random", "greedy"), ("greedy", "random")}
    ab, ba = m.cells[("random", "greedy")], m.cells[("greedy", "random")]
    assert ab.games == ba.games == 4
    # one match: the two shares cannot add up to more games than were played
    assert ab.wins + ba.wins <= 4
    table = m.markdown().splitlines()
    assert table[0] == "| row wins against column | random | greedy |"
    assert table[2].startswith("| random | – | ") and table[3].endswith("| – |")


def test_full_table_matrix_plays_each_direction() -> None:
    m = strength_matrix("thiefs-market", ["random", "greedy"], games=3, seed=3)
    assert m.players == 3
    # one random bot among two greedy ones, and one greedy among two random ones
    assert m.cells[("random", "greedy")].games == m.cells[("greedy", "random")].games == 3


def test_matrix_needs_two_different_bots(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        main(["--matrix", "greedy,greedy", "thieves-den"])
    assert e.value.code == 2
    assert "--matrix needs at least two different bots" in capsys.readouterr().err


def test_records_keep_each_match_and_a_later_run_goes_on_from_them(tmp_path, capsys) -> None:
    from thieves.bots.match import read_records, run_match
    argv = ["--budget", "5", "--games", "2", "--records", str(tmp_path), "thieves-den"]
    assert main(argv) == 0
    path = tmp_path / "thieves-den--mcts-5--greedy--2p--seed1000.jsonl"
    first = path.read_text().splitlines()
    assert len(first) == 2
    assert main(argv[:3] + ["4"] + argv[4:]) == 0  # 4 games: only games 2 and 3 are played
    lines = path.read_text().splitlines()
    assert lines[:2] == first and len(lines) == 4
    assert "| thieves-den | heads-up | " in capsys.readouterr().out
    fresh = run_match("thieves-den", ["mcts:5", "greedy"], games=4, players=2, seed=1000)
    kept = sorted(read_records(str(path)), key=lambda r: r.index)
    assert [r.as_dict() for r in kept] == [r.as_dict() for r in fresh.records]
    m = strength_matrix("thieves-den", ["random", "greedy"], games=2, seed=3, records=str(tmp_path))
    assert (tmp_path / "thieves-den--random--greedy--2p--seed3.jsonl").exists()
    assert m.cells[("random", "greedy")].games == 2


STRENGTH_RECORDS = sorted((Path(__file__).parents[2] / "docs" / "strength").glob("*.jsonl"))


@pytest.mark.parametrize("path", STRENGTH_RECORDS, ids=lambda p: p.name)
def test_published_records_are_the_games_their_file_name_says(path: Path) -> None:
    """The records behind the docs' strength figures: every game is one of the match the
    file is named after (bots, players, deal and seats), so `--records` can go on from it."""
    from thieves.bots.match import check_done, read_records
    from thieves.bots.strength import records_file

    records = read_records(str(path))
    assert records, f"{path.name} holds no game"
    slug = path.name.split("--")[0]
    n = len(records[0].lineup)
    first = next(r for r in records if r.rotation == 0)
    labels = list(dict.fromkeys(first.lineup))
    seed = first.seed - first.index // n
    assert records_file(slug, labels, n, seed) == path.name
    check_done(records, labels, n, max(r.index for r in records) + 1, seed, {}, slug)

