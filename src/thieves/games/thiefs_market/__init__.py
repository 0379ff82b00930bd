"""Thief's Market (Dave Chalker, Tasty Minstrel Games 2016), 3 to 5 players.

Roll the loot dice, split them by taking from the center or stealing
another player's pile, then spend gems and gold on market cards. See
``docs/thiefs_market.md`` for the rules-to-code map and the notation.
"""
from .game import GAME, ThiefsMarket
from .state import MarketState

__all__ = ["GAME", "ThiefsMarket", "MarketState"]
