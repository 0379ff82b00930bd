"""What a person sees of Thief's Market: the words (:mod:`.words`) and the
board, drawn in layers (:mod:`.board`; docs/engine.md, "Layers").

Everything is drawn from the observation (never the state, so nothing hidden
can leak) with the texts of ``data/i18n.yaml`` in the viewer's language. Dice
are drawn as dice: their colour and an icon per face (a gem, a bag, an
infamy skull), with a legend; the start player token is a star. Every part a
player may click carries ``data-action``: dice and the token in the center
(take), a pile (steal, or keep it as it is), dice of your own pile (put back,
reroll, pay), the center (take everything), market cards (buy), owned cards
and the dice drawn on them (use), and the gold coin or "one gem less" mark
under a gem still to pay.

Every viewer sees the same board but for their own infamy and their marks of
a payment: the area of the seat who acts is drawn large, so it is one
drawing for everyone (the public layer), and each viewer's layer is small.
"""
from __future__ import annotations

from typing import Any, ClassVar

from thieves.core.svg import Layer

from .board import PublicBoard, draw_face, seat_layer
from .observation import as_market
from .payment import cheapest_payment, payment_steps
from .words import MarketWords

__all__ = ["MarketPresentation", "cheapest_payment", "draw_face", "payment_steps"]


class MarketPresentation(MarketWords):
    """Thief's Market for one viewer in one language."""

    layered: ClassVar[bool] = True

    def board_public(self, obs: dict[str, Any]) -> Layer:
        """Everything on the board but the viewer's own marks, from public fields."""
        return PublicBoard(self, as_market(obs)).draw()

    def board_seat(self, obs: dict[str, Any], public: Layer) -> Layer | None:
        """The viewer's own infamy and "(you)", and their choices of a payment."""
        return seat_layer(self, as_market(obs), public)
