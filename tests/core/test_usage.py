"""Component use against winning (``thieves.bots.usage``): counting, statistics, games, CLI."""
from __future__ import annotations

from types import SimpleNamespace

import pytest

from thieves.bots import make_bot, play_game
from thieves.bots.match import GameRecord, run_match
from thieves.bots.usage import item_label, item_names, item_stats, seat_uses
from thieves.cli.main import main
from thieves.core.registry import load_game
from thieves.core.texts import make_event, placeholders

GAMES = ["thiefs-market", "thieves-den", "age-of-thieves", "thiefdom", "cadwallon"]
USAGE = (("buy", "card", "card"), ("visit", "places", "place"), ("buy", "extra", "bonus"))


def _log(*events):
    return SimpleNamespace(num_players=3, log=list(events))


def test_uses_count_the_public_arguments_of_the_named_events_by_seat():
    state = _log(
        {"key": "buy", "args": {"player": 0, "card": "A1"}, "ply": 0},
        {"key": "buy", "args": {"player": 0, "card": "A1", "extra": "gem"}, "ply": 1},
        {"key": "visit", "args": {"player": 2, "places": ["inn", "inn", "docks"]}, "ply": 2},
        {"key": "sell", "args": {"player": 1, "card": "A1"}, "ply": 3},       # not a usage event
        {"key": "buy", "args": {"card": "B2"}, "ply": 4},                     # no seat
        {"key": "buy", "args": {"player": 7, "card": "B2"}, "ply": 5},        # no such seat
    )
    assert seat_uses(state, USAGE) == [{"card": {"A1": 2}, "bonus": {"gem": 1}}, {},
                                       {"place": {"inn": 2, "docks": 1}}]


def test_secret_and_private_arguments_never_count():
    state = _log(
        make_event("buy", [1], {"card": "C3"}, {"player": 1}, 0),   # others read it without the card
        make_event("buy", [2], None, {"player": 2, "card": "C4"}, 1),  # seat 2 alone reads it
        make_event("buy", [0], {"extra": "gold"}, {"player": 0, "card": "C5"}, 2),
    )
    assert seat_uses(state, USAGE) == [{"card": {"C5": 1}}, {}, {}]


def _rec(i, winners, uses):
    return GameRecord(i, i, 0, ["a", "b"], [0, 1], [1.0, 0.0], winners, 10, 0, {}, uses)


def test_item_stats_compare_the_seats_that_used_a_component_with_the_others():
    records = [
        _rec(0, [0], [{"card": {"A": 2}}, {"card": {"B": 1}}]),
        _rec(1, [1], [{"card": {"B": 1}}, {"card": {"A": 1}}]),
        _rec(2, [0, 1], [{"card": {"A": 1}}, {}]),     # a shared win counts 1/2
        _rec(3, [], [{}, {"card": {"A": 1}}]),         # nobody won
    ]
    by_item = {s.item: s for s in item_stats(records)}
    a, b = by_item["A"], by_item["B"]
    # A: seat-games (0,0) won, (1,1) won, (2,0) half, (3,1) lost; 4 used, 4 not
    assert (a.used.games, a.used.wins, a.uses) == (4, 2.5, 5)
    assert (a.unused.games, a.unused.wins) == (4, 0.5)
    assert a.gap == pytest.approx(0.5)
    assert (b.used.games, b.used.wins, b.uses) == (2, 0.0, 2)
    assert (b.unused.games, b.unused.wins) == (6, 3.0)
    assert [s.item for s in item_stats(records)] == ["A", "B"]  # most used first
    assert item_stats([]) == []


@pytest.mark.parametrize("slug", GAMES)
def test_every_games_usage_events_name_logged_components(slug):
    game = load_game(slug)
    assert game.usage_events, f"{slug} names no component use"
    texts = game.texts()
    for key, arg, _category in game.usage_events:
        template = texts.get("en", "log." + key)
        assert template is not None, f"{slug}: no template log.{key}"
        assert placeholders(template).get("player") == "player", f"{slug}: log.{key} names no seat"
        assert placeholders(template).get(arg) not in (None, "", "|", "player"), \
            f"{slug}: log.{key} has no component argument {arg!r}"
    n = max(2, game.min_players)
    state = game.new_game(n, 3)
    play_game(state, [make_bot("greedy", slug, seed=s) for s in range(n)])
    uses = seat_uses(state, game.usage_events)
    names = item_names(game)
    used = {(c, i) for seat in uses for c, items in seat.items() for i in items}
    assert used, f"a greedy game of {slug} recorded no component use"
    unnamed = {x for x in used if item_label(names, *x) == x[1]}
    assert not unnamed, f"{slug}: components without a display name: {sorted(unnamed)}"


def test_a_secret_draft_is_not_counted_before_it_is_revealed():
    # Thieves Den: "pick" keeps a location face down (its card is secret); "reveal" shows it
    game = load_game("thieves-den")
    state = game.new_game(3, 2)
    play_game(state, [make_bot("greedy", "thieves-den", seed=s) for s in range(3)])
    picks = seat_uses(state, (("pick", "card", "location"),))
    reveals = seat_uses(state, (("reveal", "card", "location"), ("reveal_instant", "card", "location")))
    assert picks == [{}, {}, {}]
    assert all(r for r in reveals)


def test_match_records_carry_the_uses_and_the_cli_prints_them(capsys):
    r = run_match("thiefs-market", ["greedy", "random"], games=3, players=3, seed=4)
    assert all(len(g.uses) == 3 and any(g.uses) for g in r.records)
    bought = sum(k for g in r.records for seat in g.uses for k in seat.get("card", {}).values())
    assert bought >= 9
    assert main(["simulate", "thiefs-market", "--bots", "greedy,random", "--players", "3", "--games", "3",
                 "--no-progress", "--items"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "win % used" in text and "seat-games" in text
    names = item_names(load_game("thiefs-market"))
    top = item_stats(r.records)[0]
    assert item_label(names, top.category, top.item) in text


def test_components_that_share_a_name_get_distinct_labels():
    names = item_names(load_game("thiefs-market"))
    c13, c14 = item_label(names, "card", "C13"), item_label(names, "card", "C14")
    assert c13 == "Treasure Map (C13)" and c14 == "Treasure Map (C14)"
    labels = [v for (c, _), v in names.items() if c == "card"]
    assert len(labels) == len(set(labels))
    # a name no other card bears stays as it is
    assert not [v for (c, i), v in names.items() if c == "card" and i not in ("C13", "C14") and f"({i})" in v]
