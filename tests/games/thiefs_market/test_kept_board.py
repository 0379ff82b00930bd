"""The board's kept sections (the market, the center, each seat's band and panel,
the acting seat's pile and cards, the viewer's layer) are kept by small keys of
what they show: drawn along a game with every memo warm, each layer must be what a
fresh drawing (every memo emptied) gives."""
import pytest

from thieves.core.svg import clear_memos

from .test_layers import LAYOUTS, NAMES, positions, shape
from .util import GAME


def layers(pres, obs):
    """Every layer of each viewer of one position: the public one and each seat's."""
    spectator = pres[None]
    public = spectator.board_public(obs[None])
    seats = [pres[v].board_seat(obs[v], public) for v in pres if v is not None]
    return shape(public), [None if s is None else (s.render(obs[v].get("legal", ())), s.width, s.height)
                           for v, s in zip([v for v in pres if v is not None], seats)]


@pytest.mark.parametrize("n,seed", [(3, 4), (4, 5), (5, 6)])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_kept_sections_draw_what_a_fresh_board_draws(n, seed, layout):
    pres = {v: GAME.presentation(v, NAMES[:n], "en", layout=layout) for v in [None, *range(n)]}
    seen = [{v: s.observation(v) for v in pres} for s in positions(n, seed, every=1)]
    warm = [layers(pres, obs) for obs in seen]   # each position drawn with the memos of all before it
    for k in range(0, len(seen), 9):
        clear_memos()
        assert layers(pres, seen[k]) == warm[k], (layout, k)
