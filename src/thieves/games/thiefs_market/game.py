"""The Thief's Market :class:`Game`: player counts, options and data loading."""
from __future__ import annotations

from thieves.core.game import Game, Option
from thieves.core.parts import Research

from .components import Tables, load_tables
from .presentation import MarketPresentation
from .state import MarketState, attach_dispatch


class ThiefsMarket(Game):
    slug = "thiefs-market"
    name = "Thief's Market"
    min_players = 3
    max_players = 5
    state_class = MarketState
    presentation_class = MarketPresentation
    playtest = "thieves.games.thiefs_market.playtest"
    playthroughs = ((3, 1), (5, 2))
    research = Research(
        layout="thiefs_market",
        whole_actions=True,  # every action of the notation is one token (components.action_table)
        seat_lists=frozenset({"gold", "has_pile", "henchmen", "infamy", "objects", "piles", "scores", "tableau"}),
        steps_per_player=600,
    )
    #: balance statistics: the market cards each seat took (rulebook "Achat")
    usage_events = (("buy", "card", "card"), ("buy_discard", "card", "card"), ("gain", "card", "card"))
    summary = "Roll loot, take it or steal it, buy market cards; complete, all 49 cards."
    options = (
        Option("start_player", "random",
               "Who holds the start player token first: 'random' (the rulebook says whoever "
               "stole something most recently) or 'first' (player 1).",
               choices=["random", "first"]),
        Option("second_award_after_tie", False,
               "When several players tie for most henchmen, the next player still gets the "
               "second-place award (default: no, the tied players fill both places)."),
        Option("zero_counts_score", False,
               "A player with no henchman icons, or no gold, can still win that award "
               "(default: no, a count of zero never scores)."),
        Option("extra_buys_stack", True,
               "Each extra-purchase card whose condition is met adds one purchase (default); "
               "false: at most one extra purchase per round in all."),
        Option("deal_last_b_cards", True,
               "When deck B cannot refill its row, its last cards are dealt before the row of "
               "5 C cards opens, as deck A's are (default); false: they stay in deck B, unused "
               "(rulebook \"Fin du tour\": \"si le deck B n'a plus assez de cartes\")."),
        Option("game_end", "c_row",
               "'c_row' (default): the game ends when deck C cannot refill the C row (rulebook "
               "\"Fin du tour\", English rulebook: \"the C cards that were bought\"); 'all_bought': "
               "once the C row is out, it ends when deck C holds fewer cards than were bought "
               "this round from any row (literal French \"Fin du jeu\": \"toutes les cartes achetées\").",
               choices=["c_row", "all_bought"]),
        Option("potion_deck", "current",
               "Which deck Unlabeled Potion takes \"the top card of the deck\" from: 'current' "
               "(default), the deck now supplying the market (deck B, or deck C once B is "
               "empty); 'own': only the Potion's own deck B (nothing once it is empty).",
               choices=["current", "own"]),
    )

    def load_data(self, data_dir: str | None) -> Tables:
        return attach_dispatch(load_tables(data_dir))


GAME = ThiefsMarket()
