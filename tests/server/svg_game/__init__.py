"""The toy sealed-bids game with the web plug-ins a real game brings:
``render.py`` (an SVG board with clickable bids and the optional hooks)
and ``data/i18n.yaml``. Registered as ``toy-svg`` when imported."""
from thieves.core.registry import register_game

from tests.core.toy_game import BidGame


class SvgBidGame(BidGame):
    slug = "toy-svg"
    name = "Sealed Bids (drawn)"


GAME = SvgBidGame()
register_game(GAME, __name__)
