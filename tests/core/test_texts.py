"""The event formatter: placeholders, plurals, lists, secrets, seat names."""
from __future__ import annotations

import pytest

from thieves.core.texts import Texts, TextError, make_event, placeholders, visible_event

TEXTS = Texts({
    "en": {"log.steal": "{thief:player} steals {n|# coin|# coins} from {victim:player}.",
           "log.draw": "You draw {card:card}.", "log.draw.public": "{player:player} draws a card.",
           "log.dice": "{player:player} rolls {dice:face}.",
           "card.A1": "Alchemical Lab", "face.R": "red", "face.W": "white", "face.B": "blue"},
    "fr": {"log.steal": "{thief:player} vole {n|# pièce|# pièces} à {victim:player}.",
           "log.dice": "{player:player} lance {dice:face}.",
           "card.A1": "Laboratoire", "face.R": "rouge", "face.W": "blanc", "face.B": "bleu"},
    "de": {"log.steal": "{thief:player} stiehlt {victim:player} {n|# Münze|# Münzen}."},
})
NAMES = ["Ann", "Bob", "Cy"]


@pytest.mark.parametrize("lang,n,expected", [
    ("en", 1, "Ann steals 1 coin from Bob."),
    ("en", 0, "Ann steals 0 coins from Bob."),
    ("fr", 0, "Ann vole 0 pièce à Bob."),      # French: 0 is singular
    ("fr", 2, "Ann vole 2 pièces à Bob."),
    ("de", 3, "Ann stiehlt Bob 3 Münzen."),     # German word order from the template
])
def test_plural_forms_and_word_order(lang: str, n: int, expected: str) -> None:
    assert TEXTS.format(lang, "log.steal", {"thief": 0, "victim": 1, "n": n}, NAMES) == expected


def test_lists_are_joined_in_the_language() -> None:
    args = {"player": 2, "dice": ["R", "W", "B"]}
    assert TEXTS.format("en", "log.dice", args, NAMES) == "Cy rolls red, white and blue."
    assert TEXTS.format("fr", "log.dice", args, NAMES) == "Cy lance rouge, blanc et bleu."


def test_runs_of_equal_items_read_as_a_count_where_the_game_says_how() -> None:
    texts = Texts({"en": {"log.take": "{player:player} takes {dice:obj}.", "obj.R": "a red die",
                          "obj.R.many": "# red dice", "obj.W": "a white die"}})
    args = {"player": 0, "dice": ["R", "R", "R", "W", "W"]}
    assert texts.format("en", "log.take", args, NAMES) == "Ann takes 3 red dice, a white die and a white die."
    assert texts.format("en", "log.take", {"player": 0, "dice": ["R", "W", "R"]}, NAMES) == \
        "Ann takes a red die, a white die and a red die."


def test_strict_rendering_refuses_fallbacks() -> None:
    with pytest.raises(TextError):
        TEXTS.format("de", "log.dice", {"player": 0, "dice": ["R"]}, NAMES, strict=True)  # no de template
    with pytest.raises(TextError):
        TEXTS.format("en", "log.draw", {"card": "Z9"}, NAMES, strict=True)  # an id with no name
    # without strict, the formatter falls back and never fails
    assert TEXTS.format("de", "log.dice", {"player": 0, "dice": ["R"]}, NAMES) == "Ann rolls red."


def test_secret_arguments_reach_only_their_reader() -> None:
    ev = make_event("draw", [1], {"card": "A1"}, {"player": 1}, ply=4)
    mine = visible_event(ev, 1)
    theirs = visible_event(ev, 0)
    spectator = visible_event(ev, None)
    assert TEXTS.event(mine, "en", NAMES) == "You draw Alchemical Lab."
    assert TEXTS.event(theirs, "en", NAMES) == "Bob draws a card."
    assert theirs == spectator and "card" not in theirs["args"] and "A1" not in str(theirs)
    private = make_event("draw", [1], None, {"card": "A1"})
    assert visible_event(private, 0) is None and visible_event(private, 1) is not None


def test_placeholders_are_typed() -> None:
    assert placeholders("{a:player} {b} {n|x|y} {c:card}") == {"a": "player", "b": "", "n": "|", "c": "card"}


def test_seats_are_named_explicitly_without_rewriting() -> None:
    ten = [f"Seat{i}" for i in range(12)]
    assert TEXTS.format("en", "log.steal", {"thief": 10, "victim": 1, "n": 2}, ten) == \
        "Seat10 steals 2 coins from Seat1."


def test_every_game_reads_the_texts_of_its_own_package():
    """A game class defined in its package's __init__ (not in a submodule) still
    finds its package's data/i18n.yaml: its name is there in every language."""
    import thieves

    for slug in ("thiefs-market", "thieves-den", "age-of-thieves", "thiefdom", "cadwallon"):
        texts = thieves.load_game(slug).texts()
        for lang in ("en", "fr", "de"):
            assert texts.has(lang, "name"), (slug, lang)


def test_an_event_refuses_a_to_that_is_not_a_list_of_seats() -> None:
    # a game's own argument called "to" would otherwise hide the event from everyone
    with pytest.raises(ValueError, match="seats"):
        make_event("turn", "W", None, {})
    with pytest.raises(ValueError, match="seats"):
        make_event("turn", ["W"], None, {})
    assert make_event("turn", (1,), None, {})["to"] == [1]
