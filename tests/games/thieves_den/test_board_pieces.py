"""Thieves Den's board keeps a seat's panel by what it shows, not by where it
stands: each seat's column is drawn from its own top left and moved into place
by a translated group, so when another part changes (the cards beside the
board, a panel above it on a phone) the panel's markup is the same and is not
drawn again."""
from __future__ import annotations

import re

import pytest

from thieves.core.svg import clear_memos
from thieves.games.thieves_den import presentation

from .helpers import GAME, place, thieving

PLACE = re.compile(r'<g transform="translate\([\d.]+ ([\d.]+)\)">')


def _observation(beside: int = 0, first: int = 0) -> dict:
    """Round 1's thieving phase of a 3-player game with cards above every den;
    ``beside`` more cards beside the board, ``first`` more above Player 1's den."""
    s = thieving(3, seed=4)
    deck = list(s.loc_deck)
    for p, cards in ((0, deck[0:2]), (1, deck[2:4]), (2, deck[4:5]), (None, deck[10:10 + beside]),
                     (0, deck[20:20 + first])):
        for c in cards:
            place(s, p, c)
    obs = {k: v for k, v in s.observation(None).items() if k != "log"}
    obs["recent"] = []
    return obs


def _group(svg: str, start: int) -> str:
    """The markup inside the group whose opening tag ends at ``start``."""
    depth = 1
    for tag in re.finditer(r"<(/?)g[ >]", svg[start:]):
        depth += -1 if tag.group(1) else 1
        if depth == 0:
            return svg[start:start + tag.start()]
    raise AssertionError("an unclosed group")


def _panels(svg: str) -> dict[int, tuple[float, str]]:
    """Each seat's column: where it is moved to and its markup (the outermost translated
    group holding that seat's band and no other seat's)."""
    out: dict[int, tuple[float, str]] = {}
    for start in PLACE.finditer(svg):
        body = _group(svg, start.end())
        seats = set(re.findall(r'<g class="seat" data-ref="seat:(\d+)"', body))
        if len(seats) == 1:
            q = int(seats.pop())
            if q not in out or len(body) > len(out[q][1]):
                out[q] = (float(start.group(1)), body)
    return out


def _draw_twice(monkeypatch, layout: str, before: dict, after: dict) -> tuple[list[int], dict, dict]:
    """The spectators' board of ``before``, then of ``after`` with the memos warm;
    returns the seats whose panels the second drawing drew again (a seat once
    for each part of its panel drawn: band, den, cards)."""
    pres = GAME.presentation(None, None, "en", layout=layout)
    clear_memos()
    first = pres.svg(before)
    drawn: list[int] = []
    for part in ("draw_band", "draw_den", "draw_cards"):
        def counted(board, q, *rest, draw=getattr(presentation._Board, part)):
            drawn.append(q)
            return draw(board, q, *rest)
        monkeypatch.setattr(presentation._Board, part, counted)
    second = pres.svg(after)
    return drawn, _panels(first), _panels(second)


@pytest.mark.parametrize("layout", ["wide", "narrow"])
def test_more_cards_beside_the_board_draw_no_panel_again(monkeypatch, layout):
    drawn, before, after = _draw_twice(monkeypatch, layout, _observation(), _observation(beside=5))
    assert sorted(before) == sorted(after) == [0, 1, 2]
    for q in range(3):
        assert after[q] == before[q], "the panel stays where it was, with the same markup"
    assert drawn == []


@pytest.mark.parametrize("layout", ["wide", "narrow"])
def test_a_taller_panel_draws_only_its_cards_again(monkeypatch, layout):
    drawn, before, after = _draw_twice(monkeypatch, layout, _observation(), _observation(first=4))
    assert after[0][0] == before[0][0] and after[0][1] != before[0][1]
    for q in (1, 2):
        assert after[q][1] == before[q][1], "the same markup"
        # one column: the panels below it move down; side by side: they move down to
        # stand on the same line as the taller one (the dens stay in a row)
        assert after[q][0] > before[q][0]
    assert drawn == [0], "Player 1's cards only: their band and den show the same"
