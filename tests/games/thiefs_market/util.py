"""Helpers to set up Thief's Market positions for rules tests."""
from __future__ import annotations

from thieves.core.registry import load_game
from thieves.games.thiefs_market.components import FACES

GAME = load_game("thiefs-market")


def fresh(n: int = 4, seed: int = 0, **options):
    """A new game where player 0 (seat 1) holds the start player token."""
    return GAME.new_game(n, seed, {"start_player": "first", **options})


def counts(faces: str) -> list[int]:
    """``"RRB"`` -> six face counts."""
    return [faces.count(f) for f in FACES]


def card(s, card_id: str) -> int:
    return s.data.index[card_id]


def give(s, p: int, *card_ids: str) -> None:
    """Put cards in front of ``p`` (taken out of wherever they were)."""
    for cid in card_ids:
        c = card(s, cid)
        for place in [*s.decks, *s.rows, s.box, *s.tableau]:
            if c in place:
                place.remove(c)
        s.tableau[p].append(c)


def to_market(s, card_id: str, row: int = 0) -> None:
    c = card(s, card_id)
    for place in [*s.decks, *s.rows, s.box, *s.tableau]:
        if c in place:
            place.remove(c)
    s.rows[row].append(c)


def set_center(s, faces: str, token_in_center: bool = True) -> None:
    """Replace the rolled dice by the given faces (the rest of the dice go to nobody)."""
    s.center = counts(faces)
    s.num_dice = len(faces)
    s.token = -1 if token_in_center else s.token
    s._legal_cache = None


def split_done(s, piles: list[str], token: int) -> None:
    """End phase 1 with these final piles (``"RRBT"``: T is the start player token)."""
    s.center = [0] * 6
    s.piles = [counts(p) for p in piles]
    s.num_dice = sum(map(sum, s.piles))
    s.token = token
    s.has_pile = [True] * s.num_players
    s.step = ""
    s._legal_cache = None
    s._end_split()


def play(s, *actions: str) -> None:
    """Apply actions in order, each by whoever is to act."""
    for a in actions:
        s.apply_action(s.players_to_act()[0], a)


def legal(s) -> list[str]:
    return s.legal_actions(s.players_to_act()[0])


def dice_total(s) -> int:
    return sum(s.center) + sum(map(sum, s.piles)) + sum(s.returning)


def buy_phase(piles, token=0, n=3, market=("A11", "A16", "A4"), gold=None, cards=None):
    s = fresh(n)
    s.rows = [[], [], []]
    for cid in market:
        to_market(s, cid)
    for p, ids in (cards or {}).items():
        give(s, p, *ids)
    s.gold = list(gold) if gold is not None else [0] * n   # no gold: dice pay without a choice
    split_done(s, piles, token)
    return s


def end_purchases(s) -> None:
    """Every player still to buy ends their purchase turn."""
    while s.phase == "buy":
        play(s, "end")
