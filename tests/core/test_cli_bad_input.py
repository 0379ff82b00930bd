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
