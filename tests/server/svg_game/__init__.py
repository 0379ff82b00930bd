"""The toy sealed-bids game with what a real game brings to the web: a
layered :class:`~thieves.core.presentation.Presentation` (``presentation.py``:
an unchanging frame, a public layer with clickable bids, and the seat's own
layer with its secret bid) and ``data/i18n.yaml``. Registered as ``toy-svg``
when imported."""
from thieves.core.registry import register_game

from tests.core.toy_game import BidGame, BidState
from tests.server.svg_game.presentation import BidPresentation


class SvgBidState(BidState):
    def _observe(self, player):
        obs = super()._observe(player)
        # what the seat may do, as the real games show it on their boards
        obs["legal"] = self.legal_actions(player) if player is not None else []
        return obs


class SvgBidGame(BidGame):
    slug = "toy-svg"
    name = "Sealed Bids (drawn)"
    presentation_class = BidPresentation
    state_class = SvgBidState


GAME = SvgBidGame()
register_game(GAME, __name__)
