"""Bad input to the ``thieves`` command: one clear line, a non-zero exit, never a traceback."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from thieves.cli.main import main


def _replay(tmp: Path, body: object) -> str:
    path = tmp / "r.json"
    path.write_text(body if isinstance(body, str) else json.dumps(body), encoding="utf-8")
    return str(path)


def _binary(tmp: Path) -> str:
    path = tmp / "b.bin"
    path.write_bytes(b"\xff\x00\xfe" * 100)
    return str(path)


GOOD = {"format": "thieves-replay/1", "game": "thiefs-market", "num_players": 3, "seed": 1,
        "options": {}, "players": ["a", "b", "c"], "actions": []}
CASES = {
    "replay: action entry not a pair": lambda t: ["replay", _replay(t, {**GOOD, "actions": [["x"]]})],
    "replay: seat not a number": lambda t: ["replay", _replay(t, {**GOOD, "actions": [["0", "take R"]]})],
    "replay: action not a string": lambda t: ["replay", _replay(t, {**GOOD, "actions": [[0, 5]]})],
    "replay: illegal action": lambda t: ["replay", _replay(t, {**GOOD, "actions": [[0, "fly"]]})],
    "replay: deeply nested": lambda t: ["replay", _replay(t, "[" * 50_000 + "]" * 50_000)],
    "replay: binary file": lambda t: ["replay", _binary(t)],
    "replay: a directory": lambda t: ["replay", str(t)],
    "replay: missing file": lambda t: ["replay", str(t / "nope.json")],
    "replay: viewer out of range": lambda t: ["replay", _replay(t, GOOD), "--viewer", "9"],
    "replay: too many players": lambda t: ["replay", _replay(t, {**GOOD, "num_players": 99})],
    "option: nested bomb": lambda t: ["bench", "thiefs-market", "--seconds", "0.01", "-o", "x=" + "[" * 5000],
    "option: unknown": lambda t: ["bench", "thiefs-market", "--seconds", "0.01", "-o", "nope=1"],
    "option: no equals": lambda t: ["bench", "thiefs-market", "--seconds", "0.01", "-o", "nope"],
    "play: zero players": lambda t: ["play", "thiefs-market", "--players", "0"],
    "play: unknown game": lambda t: ["play", "chess"],
    "serve: bad database url": lambda t: ["serve", "--database-url", "nope://x"],
    "serve: port out of range": lambda t: ["serve", "--port", "99999"],
    "bench: data dir missing": lambda t: ["bench", "thieves-den", "--data-dir", str(t / "none")],
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_bad_input_gets_one_clear_line(case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(CASES[case](tmp_path))
    out = capsys.readouterr()
    text = out.out + out.err
    assert code not in (0, 3), f"{case}: exit {code}\n{text}"   # 3 would be an internal error
    assert "Traceback" not in text and text.count("error:") == 1, text


@pytest.mark.parametrize("value", ["-1", "0", "-0.5", "nan", "inf", "1e9", "soon"])
def test_bench_refuses_a_duration_that_is_not_positive_or_absurd(
        value: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["bench", "thiefs-market", "--seconds", value])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "--seconds" in err and "Traceback" not in err


def test_a_replay_file_does_not_choose_the_data_directory(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A data_dir named inside a replay file is never read: without --data-dir the replay is
    refused saying what to do; with it, the user's directory is the one read."""
    secret = tmp_path / "elsewhere"
    secret.mkdir()
    (secret / "cards.yaml").write_text("not: [valid", encoding="utf-8")   # reading it would fail
    path = _replay(tmp_path, {**GOOD, "options": {"data_dir": str(secret)}})
    assert main(["replay", path]) == 2
    out = capsys.readouterr().out
    assert "--data-dir" in out and "does not choose" in out
    mine = tmp_path / "mine"
    mine.mkdir()
    assert main(["replay", path, "--data-dir", str(mine)]) == 0
    assert "elsewhere" not in capsys.readouterr().out


def test_serve_refuses_an_unknown_sqlite_sync_before_serving(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("THIEVES_SQLITE_SYNC", "sometimes")
    code = main(["serve", "--port", "0"])
    text = capsys.readouterr()
    said = text.out + text.err
    assert code not in (0, 3), said   # 3 would be an internal error
    assert "THIEVES_SQLITE_SYNC" in said and "NORMAL, FULL" in said and "Traceback" not in said
