"""Rulebook, "Mise en place" 11: the nobles start on the lantern nearest each catacomb."""
from __future__ import annotations

import pytest

from thieves.games.thiefdom import GAME


def alley_distance(city, a: int, b: int) -> int:
    seen, frontier, d = {a}, [a], 0
    while frontier:
        if b in frontier:
            return d
        nxt = [nb for i in frontier for nb in city.nbr[i] if nb >= 0 and nb not in seen]
        seen.update(nxt)
        frontier, d = nxt, d + 1
    return 10 ** 6


@pytest.mark.parametrize("players", [1, 2, 3, 4])
@pytest.mark.parametrize("seed", range(12))
def test_nobles_start_on_the_nearest_lantern_and_leave_the_catacombs_free(players: int, seed: int) -> None:
    s = GAME.new_game(players, seed)
    city = s.city
    nobles = sorted(k for k in s.tf if k.startswith("n"))
    assert len(nobles) == len(city.catacombs)
    cells = [s.tf[n]["cell"] for n in nobles]
    assert not set(cells) & set(city.catacombs), "a noble blocks the square in front of a catacomb"
    assert len(set(cells)) == len(cells) and all(city.lantern[c] for c in cells)
    lanterns = [i for i, lit in enumerate(city.lantern) if lit and i not in city.catacombs]
    for cat, start in zip(city.catacombs, city.noble_starts):
        nearest = min(alley_distance(city, cat, lamp) for lamp in lanterns)
        taken_by_others = [x for x in city.noble_starts if x != start]
        free = [lamp for lamp in lanterns if lamp not in taken_by_others]
        assert alley_distance(city, cat, start) == min(alley_distance(city, cat, lamp) for lamp in free) >= nearest
