"""Helpers to build exact Cadwallon positions for rules tests."""
from __future__ import annotations

from thieves.core.registry import load_game

GAME = load_game("cadwallon")


class Dice:
    """A stand-in generator that rolls the given dice in order (rules tests only)."""

    def __init__(self, *rolls: int) -> None:
        self.rolls = list(rolls)
        self.state = 0

    def die(self, sides: int = 6) -> int:
        assert self.rolls, "the test ran out of scripted dice"
        return self.rolls.pop(0)

    def below(self, n: int) -> int:
        return 0

    def shuffle(self, seq) -> None:
        pass


def position(pos: dict[str, str] | None = None, n: int = 2, adventure: str = "quiet_night",
             chests: dict[str, dict] | None = None, seed: int = 0, **options):
    """Player 0's activation step with the thieves exactly at ``pos`` (militiamen at
    their start unless ``pos`` moves them). Every hand is empty (the cards go back to the
    deck), so no interrupt window opens unless a test deals cards."""
    st = GAME.new_game(n, seed, {"adventure": adventure, "gang_choice": "seat", **options})
    for h in st.hands:
        st.deck += h
        h.clear()
    st.to_deploy = [[] for _ in range(n)]
    base = {m: z for m, z in st.pos.items() if m in st.data.militia or m in st.data.heroine}
    base.update(pos or {})
    st.pos = base
    if chests is not None:
        st.chests = chests
    st.phase, st.current, st.first = "main", 0, 0
    st.ap = [7] * n
    st.queue, st.active, st.act, st.activated = [], None, None, []
    st.militia_left, st.turns_done = 0, 0
    st._legal_cache = None
    return st


def do(st, *actions: str, player: int | None = None) -> None:
    for a in actions:
        p = st.players_to_act()[0] if player is None else player
        st.apply_action(p, a)


def moves(st) -> set[str]:
    return {a.split()[1] for a in st.legal_actions(st.players_to_act()[0]) if a.startswith("move ")}


def nocards(st) -> None:
    """Both sides of a fight decline to play an arcana card."""
    while st.queue and st.queue[0]["kind"] == "card":
        st.apply_action(st.queue[0]["player"], "nocard")


def passes(st) -> None:
    """Every interrupt window still open is passed ("no" / "nocard")."""
    while st.queue and st.queue[0]["kind"] in ("injury", "jinx", "card", "reroll"):
        p = st.queue[0]["player"]
        st.apply_action(p, "no" if st.queue[0]["kind"] in ("injury", "jinx") else "nocard")
