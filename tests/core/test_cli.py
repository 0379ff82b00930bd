"""The `thieves` command on the small test game."""
import io
import json

from rich.console import Console

from thieves import load_game
from thieves.cli.main import main
from thieves.cli.play import play
from thieves.core.replay import Replay

from . import toy_game  # noqa: F401


def test_list_and_bench(capsys):
    assert main(["list"]) == 0
    assert main(["bench", "toy-bids", "--seconds", "0.2", "--players", "3"]) == 0
    out = capsys.readouterr().out
    assert "decisions/s" in out and "decisions/game: 9.0" in out


def test_errors_are_reported_not_raised(capsys):
    assert main(["bench", "no-such-game", "--seconds", "0.1"]) == 2
    assert main(["play", "toy-bids", "--players", "9"]) == 2
    assert main(["bench", "toy-bids", "-o", "rounds=99", "--seconds", "0.1"]) == 2
    out = capsys.readouterr().out
    assert "unknown game" in out and "2 to 4 players" in out and "must be one of" in out


def test_terminal_play_with_a_person_and_saved_replay():
    answers = iter(["nonsense", "bid 9", "3", "1", "2"])
    console = Console(file=io.StringIO(), width=100)
    state = load_game("toy-bids").new_game(2, seed=4, options={"rounds": 3})
    out = io.StringIO()
    final = play(state, humans=1, bot="random", seed=4, console=console, ask=lambda _: next(answers),
                 replay_out=out)
    text = console.file.getvalue()
    assert final.is_terminal()
    assert "Not allowed" in text and "Winner(s)" in text
    replay = Replay.from_json(out.getvalue())
    assert [a for p, a in replay.actions if p == 0] == ["bid 3", "bid 1", "bid 2"]
    assert replay.final_state().to_json() == final.to_json()


def test_quit_leaves_game_unfinished():
    console = Console(file=io.StringIO())
    state = load_game("toy-bids").new_game(2, seed=4)
    final = play(state, humans=1, bot="random", seed=4, console=console, ask=lambda _: "q")
    assert not final.is_terminal() and "unfinished" in console.file.getvalue()


def test_replay_command(tmp_path, capsys):
    state = load_game("toy-bids").new_game(2, seed=1)
    for p, a in [(0, "bid 1"), (1, "bid 2")] * 3:
        state.apply_action(p, a)
    path = tmp_path / "game.json"
    path.write_text(Replay.of(state).to_json())
    assert main(["replay", str(path)]) == 0
    assert "Winner(s)" in capsys.readouterr().out
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"format": "thieves-replay/1", "game": "toy-bids", "num_players": 2,
                               "seed": 1, "actions": [[0, "bid 7"]]}))
    assert main(["replay", str(bad)]) == 2
    assert "replay action 1" in capsys.readouterr().out


def test_bot_names_and_brackets_are_printed_literally():
    console = Console(file=io.StringIO(), width=100)
    state = load_game("toy-bids").new_game(2, seed=4)
    play(state, humans=0, bot="random", seed=4, console=console)
    assert "Player 1 [random bot]:" in console.file.getvalue()


def test_terminal_help_and_info_come_from_the_game():
    from thieves.core.registry import load_game
    state = load_game("thiefs-market").new_game(3, 5)
    answers = iter(["help", "info A13", "info Q9", "rules", "q"])
    console = Console(record=True, width=140)
    play(state, humans=3, bot="random", seed=1, console=console, ask=lambda _: next(answers))
    out = console.export_text()
    assert "info <card>" in out                                  # the game's help
    assert "Philosopher's Stone" in out and "turn one green die" in out   # info A13
    assert "Nothing here is called 'Q9'" in out
    assert "# Goal" in out                                       # the rules summary
    assert "Center:" in out and "red" in out and "Take a" in out  # dice as words, actions in words


def test_terminal_play_does_not_ask_a_decision_with_one_answer():
    """A person at the terminal is not asked a decision whose only answer is legal:
    it is played for them and said."""
    state = load_game("cadwallon").new_game(2, seed=4)
    asked: list[int] = []

    def ask(_prompt: str) -> str:
        acts = final_state.legal_actions(final_state.players_to_act()[0])
        asked.append(len(acts))
        if len(asked) > 60:
            return "q"
        return "1"

    final_state = state
    console = Console(file=io.StringIO(), width=120)
    play(state, humans=2, bot="random", seed=4, console=console, ask=ask)
    assert asked and min(asked) > 1
    assert "only one answer, played for you" in console.file.getvalue()
