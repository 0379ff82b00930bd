"""thieves: five thief board games played exactly by their rules.

>>> import thieves
>>> game = thieves.load_game("thiefs-market")
>>> state = game.new_game(4, seed=1)
>>> state.players_to_act(), state.legal_actions(state.players_to_act()[0])[:3]  # doctest: +SKIP
"""
from .core.errors import DataError, GameSetupError, IllegalAction, ThievesError, UnknownGame
from .core.game import Game, Option, State
from .core.registry import list_games, load_game
from .core.replay import Replay
from .core.rng import Rng

__all__ = ["list_games", "load_game", "Game", "State", "Option", "Replay", "Rng",
           "IllegalAction", "GameSetupError", "DataError", "ThievesError", "UnknownGame"]
__version__ = "0.1.0"
