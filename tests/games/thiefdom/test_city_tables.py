"""The city's tables, built from kept section pieces and worked out when first asked,
equal the same tables worked out square by square (the plain reading of the
rules' geometry), for seeded cities at 1-4 players."""
from __future__ import annotations

import pytest

from thieves.core.registry import load_game
from thieves.games.thiefdom.city import HOUSES, City

GAME = load_game("thiefdom")


def _plain_neighbours(city: City) -> list[list[int]]:
    return [[nb if city.alley[idx] and nb >= 0 and city.alley[nb] and (idx, nb) not in city.walls else -1
             for nb in city.steps[idx]] for idx in range(city.W * city.H)]


def _plain_line(nbr: list[list[int]], idx: int, d: int) -> list[int]:
    got = []
    idx = nbr[idx][d]
    while idx >= 0:
        got.append(idx)
        idx = nbr[idx][d]
    return got


def _plain_door(city: City, idx: int, d: int) -> str | None:
    nb = city.steps[idx][d]
    if nb < 0:
        return "enter" if idx in {city.entrance_cell[s] for s in city.villa_sections} else None
    if city.alley[nb]:
        return "alley" if (idx, nb) not in city.walls else "walled"
    b = city.buildings[city.building_at[nb]]
    return "enter" if (idx, nb) not in city.walls and idx in b["entrances"] else "climb"


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_city_tables_equal_the_square_by_square_reading(n):
    for seed in range(6):
        state = GAME.new_game(n, seed)
        city = City(state.data, state.layout, state.ncols)
        size = city.W * city.H
        nbr = _plain_neighbours(city)
        assert [list(row) for row in city.nbr] == nbr
        for idx in range(size):
            ways = tuple((d, nb) for d, nb in enumerate(nbr[idx]) if nb >= 0)
            assert city.ways[idx] == ways
            for d in range(4):
                assert city.lines[idx * 4 + d] == _plain_line(nbr, idx, d)
                assert city.sight[idx * 4 + d] == frozenset(_plain_line(nbr, idx, d))
                assert city.door[idx * 4 + d] == _plain_door(city, idx, d)
                assert city.forward[idx * 4 + d] == tuple(w for w in ways if w[0] != (d + 2) % 4)
        for bid, b in city.buildings.items():
            if b["type"] == "villa":
                continue
            assert all(city.building_at[c] == bid for c in b["cells"])
            near = {nb for c in b["cells"] for nb in city.steps[c] if nb >= 0 and city.alley[nb]}
            open_ = {nb for c in b["cells"] for nb in city.steps[c]
                     if nb >= 0 and city.alley[nb] and (c, nb) not in city.walls}
            assert b["all_adjacent"] == sorted(near)
            assert b["adjacent"] == sorted(open_)
            if b["type"] in HOUSES:
                assert b["entrances"] == sorted(open_)
        assert sum(len(b["cells"]) for b in city.buildings.values()) + sum(city.alley) == size
