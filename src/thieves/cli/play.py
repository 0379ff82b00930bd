"""Terminal play: people and bots around one table."""
from __future__ import annotations

from typing import Any, Callable, TextIO

from rich.console import Console
from rich.markup import escape
from rich.panel import Panel
from rich.text import Text

from ..bots import Bot, choose_fairly, make_bot
from ..bots.fair import bot_seed
from ..core.errors import IllegalAction
from ..core.game import State
from ..core.replay import Replay


class TerminalTable:
    """Runs a game in the terminal; seats in ``humans`` are asked, the others are bots."""

    def __init__(self, state: State, humans: list[int], bots: dict[int, Bot],
                 console: Console | None = None, ask: Callable[[str], str] = input,
                 names: list[str] | None = None, seed: int = 0) -> None:
        self.state = state
        self.seed = seed  # seeds the fair views the bots decide on
        self.humans = humans
        self.bots = bots
        self.console = console or Console()
        self.ask = ask
        self.names = names or [state.player_name(p) for p in range(state.num_players)]
        self.seen_log = {p: 0 for p in humans}

    def presentation(self, viewer: int | None) -> Any:
        """The game's presentation for ``viewer`` in English (None if the game has none yet)."""
        return self.state.game.presentation(viewer, self.names, "en", self.state.options.get("data_dir"))

    def show_news(self, viewer: int | None) -> None:
        key = viewer if viewer is not None else -1
        start = self.seen_log.get(key, 0)
        lines = self.state.visible_log(viewer, start, names=self.names)
        self.seen_log[key] = len(self.state.log)
        for line in lines:
            self.console.print(f"  [dim]·[/dim] {escape(line)}", highlight=False)

    def board_text(self, viewer: int | None) -> str:
        """The position as text: the presentation's terminal view, else the game's own."""
        pres = self.presentation(viewer)
        view = pres.text_view(self.state.observation(viewer)) if pres is not None else None
        return view if view is not None else self.state.render_text(viewer)

    def describe(self, viewer: int, action: str) -> str:
        pres = self.presentation(viewer)
        if pres is not None:
            return str(pres.action_text(self.state.observation(viewer), action))
        return self.state.describe_action(action)

    def command(self, player: int, answer: str) -> bool:
        """``help``, ``rules`` and ``info <id>``: answered from the game's presentation.
        True when ``answer`` was one of them."""
        words = answer.split()
        if not words or words[0] not in ("help", "?", "rules", "info"):
            return False
        pres = self.presentation(player)
        if words[0] == "info" and len(words) == 2:
            text = pres.info(self.state.observation(player), words[1]) if pres is not None else None
            text = text or f"Nothing here is called {words[1]!r}."
        elif words[0] == "rules":
            text = (pres.rules() if pres is not None else None) or "No rules summary for this game yet."
        else:
            text = (pres.help() if pres is not None else None) or \
                "Type the number of an action or its notation; info <id> describes a piece; q quits."
        self.console.print(Text(text), highlight=False)
        return True

    def human_turn(self, player: int) -> bool:
        """Ask a person for one decision; False when they quit. A decision with one
        legal answer is not asked: it is played for them, and said."""
        state = self.state
        self.show_news(player)
        only = state.legal_actions(player)
        if len(only) == 1:
            desc = self.describe(player, only[0])
            self.console.print(Text(f"  {self.names[player]}: only one answer, played for you: {desc}"),
                               highlight=False)
            state.apply_action(player, only[0])
            return True
        self.console.print(Panel(Text(self.board_text(player)), title=escape(f"{self.names[player]} to act"),
                                 expand=False), highlight=False)
        actions = state.legal_actions(player)
        for i, action in enumerate(actions, 1):
            desc = self.describe(player, action)
            extra = f"  {desc}" if desc != action else ""
            self.console.print(f"  [bold]{i:>3}[/bold]  {escape(action)}{escape(extra)}", highlight=False)
        while True:
            try:
                answer = self.ask("choice (number or notation; help, info <id>; q to quit)> ").strip()
            except EOFError:
                return False
            if answer in ("q", "quit", "exit"):
                return False
            if self.command(player, answer):
                continue
            if answer.isdigit() and 1 <= int(answer) <= len(actions):
                answer = actions[int(answer) - 1]
            try:
                state.apply_action(player, answer)
                return True
            except IllegalAction as exc:
                self.console.print(f"[red]Not allowed:[/red] {escape(str(exc))}", highlight=False)

    def run(self) -> State:
        state = self.state
        while not state.is_terminal():
            to_act = state.players_to_act()
            humans_now = [p for p in to_act if p in self.humans]
            if humans_now:
                if not self.human_turn(humans_now[0]):
                    self.console.print("Game left unfinished.")
                    return state
            else:
                p = to_act[0]
                state.apply_action(p, choose_fairly(self.bots[p], state, p, self.seed))
        viewer = self.humans[0] if self.humans else None
        self.show_news(viewer)
        self.console.print(Panel(Text(self.board_text(viewer)), title="Final position", expand=False),
                           highlight=False)
        scores = state.scores()
        for p in range(state.num_players):
            self.console.print(Text(f"  {self.names[p]}: {scores[p]}"))
        winners = state.winners()
        self.console.print(Text("Winner(s): " + (", ".join(self.names[w] for w in winners) if winners
                                                 else "nobody")))
        return state


def play(state: State, humans: int, bot: str, seed: int, console: Console | None = None,
         ask: Callable[[str], str] = input, replay_out: TextIO | None = None) -> State:
    human_seats = list(range(humans))
    bots = {p: make_bot(bot, state.game.slug, bot_seed(seed, p)) for p in range(humans, state.num_players)}
    names = [f"You ({state.player_name(p)})" if humans == 1 and p == 0 else
             (state.player_name(p) if p in human_seats else f"{state.player_name(p)} [{bot} bot]")
             for p in range(state.num_players)]
    table = TerminalTable(state, human_seats, bots, console, ask, names, seed=seed)
    final = table.run()
    if replay_out is not None:
        replay_out.write(Replay.of(final, names).to_json())
    return final
