"""A tiny game used to test the engine core on its own.

Sealed bids: for 3 rounds every player secretly bids 1-3 at the same
time; once all have bid, the bids are revealed, a die is rolled and the
highest unique bid scores bid + die. Hidden information: bids made this
round are secret until everyone has bid.

It records structured events like the real games; its log templates are
given here in code (:data:`LOG`), the texts of the package it lives in (a
``data/i18n.yaml``, as ``toy-svg`` has) added on top.
"""
from __future__ import annotations

from thieves.core.game import Game, Option, State
from thieves.core.registry import register_game
from thieves.core.texts import LANGS, Texts

#: the log templates (a real game keeps them in its data/i18n.yaml)
LOG = {
    "en": {"log.bid": "{player:player} bids.", "log.my_bid": "You bid {bid}.",
           "log.round_won": "{player:player} wins round {round} with {bid} (die {die})."},
    "fr": {"log.bid": "{player:player} a misé.", "log.my_bid": "Vous misez {bid}.",
           "log.round_won": "{player:player} gagne la manche {round} avec {bid} (dé {die})."},
    "de": {"log.bid": "{player:player} bietet.", "log.my_bid": "Du bietest {bid}.",
           "log.round_won": "{player:player} gewinnt Runde {round} mit {bid} (Würfel {die})."},
}


class BidState(State):
    FIELDS = ("round", "bids", "points")

    def _setup(self) -> None:
        self.round = 1
        self.bids = [None] * self.num_players
        self.points = [0] * self.num_players

    def _players_to_act(self):
        if self.round > self.options["rounds"]:
            return []
        return [p for p in range(self.num_players) if self.bids[p] is None]

    def _legal_actions(self, player):
        return [f"bid {b}" for b in (1, 2, 3)]

    def _apply(self, player, action):
        self.bids[player] = int(action.split()[1])
        self.event("bid", player=player)
        self.event("my_bid", to=[player], bid=self.bids[player])
        if all(b is not None for b in self.bids):
            die = self.rng.die(6)
            counts = {b: self.bids.count(b) for b in self.bids}
            unique = [b for b in self.bids if counts[b] == 1]
            if unique:
                top = max(unique)
                winner = self.bids.index(top)
                self.points[winner] += top + die
                self.event("round_won", player=winner, round=self.round, bid=top, die=die)
            self.round += 1
            self.bids = [None] * self.num_players

    def _is_terminal(self):
        return self.round > self.options["rounds"]

    def _scores(self):
        return list(self.points)

    def _observe(self, player):
        return {"round": self.round, "points": list(self.points),
                "bid_made": [b is not None for b in self.bids],
                "my_bid": self.bids[player] if player is not None else None}


class BidGame(Game):
    slug = "toy-bids"
    name = "Sealed Bids"
    min_players = 2
    max_players = 4
    options = (Option("rounds", 3, "number of rounds", choices=[1, 2, 3, 4, 5]),)
    state_class = BidState

    def texts(self, data_dir: str | None = None) -> Texts:
        """:data:`LOG` under the package's own texts (cached like the engine's)."""
        if data_dir not in self._texts_cache:
            found = super().texts(data_dir).table
            self._texts_cache[data_dir] = Texts({lang: {**LOG[lang], **found[lang]} for lang in LANGS})
        return self._texts_cache[data_dir]


GAME = BidGame()
register_game(GAME, __name__)
