"""The observation of Thief's Market, typed: every key, its type, who may see it
(docs/engine.md, "Typed observations").

``text.observe`` builds :class:`MarketFields` (the game's ``_observe``); the
engine adds its own keys (:class:`MarketObservation`); the RL reference
encoder reads :class:`MarketTensorInput`. Readers (the presentation, the
board, the encoder) take an engine observation, a ``dict[str, Any]``, and
read it through :func:`as_market`. Nothing here runs at play time but
:func:`as_market`, a cast. Seats are indices 0..n-1; faces are the letters
R W B G Y P (gems R W B G, Y the bag, P the infamy skull); rows A B C.
"""
# no ``from __future__ import annotations``: Python 3.11 reads ``NotRequired`` only from
# evaluated annotations (``__optional_keys__``, which the tests check against)
from typing import Any, Literal, Mapping, NotRequired, TypedDict, cast

#: the phases of a round (rulebook "Phase 1", the Lucky Animal Appendage rerolls,
#: "Phase 2") and the end of the game
Phase = Literal["split", "lucky", "buy", "over"]
#: "" between decisions, "take" while taking from the center, "return" while
#: returning objects of a stolen pile, "pay" while paying for a card
Step = Literal["", "take", "return", "pay"]
Row = Literal["A", "B", "C"]


class Paying(TypedDict):
    """The purchase being paid, gem by gem (public: payments are made in the open)."""

    card: str                 #: the card bought (its id, e.g. "A13")
    remaining: list[str]      #: the gems still to pay, one letter each, in cost order
    free_left: int            #: gems Insurance Racket may still waive for this card


class FinalScore(TypedDict):
    """One seat's notoriety at the end (rulebook "Fin du jeu"; public then)."""

    cards: int                #: points printed on or computed by the seat's cards
    infamy: int               #: the seat's infamy tokens (revealed at the end)
    henchmen_award: int       #: the majority award for henchmen
    gold_award: int           #: the award for the most gold
    total: int                #: the sum of the four above


class MarketFields(TypedDict):
    """What ``MarketState._observe(viewer)`` returns. Public to every viewer
    (spectator included) but ``infamy`` and ``legal``."""

    phase: Phase              #: the phase of the round; "over" at the end of the game
    step: Step                #: where the acting seat is within its decision
    round: int                #: the round, from 1
    current: int              #: the seat to act (the last one to have acted at the end)
    start_player: int         #: the seat who started this round
    token: int                #: the start player token: a seat, -1 in the center, -2 being returned
    center: dict[str, int]    #: dice in the center, counted by face letter
    returning: dict[str, int]  #: dice a thief is returning, by face (rerolled when done)
    piles: list[dict[str, int]]  #: each seat's pile of dice, by face
    has_pile: list[bool]      #: per seat: took a pile this round (phase 1)
    objects: list[int]        #: per seat: dice in its pile plus the token if it holds it
    victim: int               #: the seat just stolen from while the thief returns objects, else -1
    dice_in_play: int         #: dice in the game (more with some cards)
    gold: list[int]           #: gold coins per seat
    #: infamy tokens per seat: SECRET, the viewer's own count only (None for the others
    #: and for every seat the spectator sees) until the game is over, then all of them
    infamy: list[int | None]
    tableau: list[list[str]]  #: the cards each seat owns (ids), in the order bought
    henchmen: list[int]       #: henchmen per seat (from its cards)
    market: dict[str, list[str]]  #: the face-up cards of each row, keyed "A", "B", "C"
    deck_sizes: dict[str, int]  #: cards left in each row's deck (their order is unseen)
    active_row: Row           #: the row whose deck refills the market now
    discarded: list[str]      #: cards discarded at the end of rounds
    box_count: int            #: cards left in the box at setup (which ones is unseen)
    used: list[str]           #: cards whose ability was used this round
    buys_made: int            #: purchases of the acting seat this round (0 outside "buy")
    buys_allowed: int         #: purchases the acting seat may make this round (0 outside "buy")
    paying: Paying | None     #: the purchase being paid, None when none is
    legal: list[str]          #: the viewer's legal actions (their own; [] for the spectator)
    final: NotRequired[list[FinalScore]]  #: only when the game is over: each seat's score


class MarketTensorInput(MarketFields):
    """:class:`MarketFields` and the keys of the engine that the RL reference
    encoder gets too (``thieves.rl.observe.reference_observation_tensor``)."""

    num_players: int          #: the seats at the table
    ply: int                  #: decisions made so far
    to_act: list[int]         #: the seats to act now ([] at the end)
    terminal: bool            #: the game is over


class MarketObservation(MarketTensorInput):
    """``State.observation(viewer)``: the engine's keys too (core/game.py)."""

    game: str                 #: the game's slug, "thiefs-market"
    viewer: int | None        #: whose observation this is; None for the spectator
    #: the viewer's readable events (absent from ``observation_without_log``)
    log: NotRequired[list[dict[str, Any]]]
    #: ids named by the events since the viewer's last decision (the server's board adds it)
    recent: NotRequired[list[str]]


def as_market(obs: Mapping[str, Any]) -> MarketObservation:
    """An engine observation of Thief's Market, read with its keys' types."""
    return cast(MarketObservation, obs)
