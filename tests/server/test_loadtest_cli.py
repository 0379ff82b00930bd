"""`thieves loadtest` refuses an unknown game and an unreachable server with
a clear message and a non-zero exit, before it starts anything."""
from __future__ import annotations

import socket

from thieves.cli.main import main


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_an_unknown_game_is_refused(capsys):
    assert main(["loadtest", "--game", "no-such-game", "--seconds", "0.1", "--warmup", "0"]) != 0
    out = capsys.readouterr().out
    assert "no game 'no-such-game'" in out and "thiefs-market" in out


def test_a_wrong_number_of_players_is_refused(capsys):
    assert main(["loadtest", "--game", "thiefs-market", "--players", "9", "--seconds", "0.1"]) != 0
    assert "not 9" in capsys.readouterr().out


def test_an_unreachable_server_is_refused(capsys):
    url = f"http://127.0.0.1:{_closed_port()}"
    assert main(["loadtest", "--url", url, "--seconds", "0.1", "--warmup", "0"]) != 0
    out = capsys.readouterr().out
    assert "does not answer" in out and url in out
