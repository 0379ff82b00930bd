"""No empty questions: the table answers a person's decision that has one legal
answer, and lets reaction windows go by for a seat that switched them to "not
this round", without telling anyone else which it was."""
from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

import thieves.server.platform as platform_module
from thieves.core.rng import Rng
from thieves.server.platform import Platform
from thieves.server.i18n import LANGS, ui
from thieves.server.limits import Limits
from thieves.server.storage import Storage
from thieves.server.tables import ANSWER_DELAY, LiveTable, TableManager
from thieves.server.views import build_view

NAMES = ("Ann", "Bob")


def _cadwallon(manager: TableManager, seed: int) -> LiveTable:
    table, _ = manager.create("cadwallon", 2, [{"kind": "human", "name": n} for n in NAMES], seed=seed)
    return table


def _play_to_injury_window(manager: TableManager, table: LiveTable, seed: int) -> tuple[int, str, int]:
    """Random decisions of both people (the table answering as it does) until the
    seat to act has a move that opens a Niggling injury window for the other seat:
    returns (mover, that move, the seat asked)."""
    rng = Rng.from_seed(seed)
    manager.play_bots_now(table)
    for _ in range(400):
        s = table.state
        assert not s.is_terminal()
        p = s.players_to_act()[0]
        acts = s.legal_actions(p)
        assert len(acts) > 1, f"the person was asked an empty question: {acts}"
        if s.phase == "main":
            for a in acts:
                if a.startswith("move "):
                    trial = s.clone()
                    trial.apply_action(p, a)
                    if trial.queue and trial.queue[0]["kind"] == "injury":
                        return p, a, trial.queue[0]["player"]
        manager.act(table, p, acts[rng.below(len(acts))])
        manager.play_bots_now(table)
    raise AssertionError("no Niggling injury window came")


def _set_injury(table: LiveTable, seat: int, held: bool) -> None:
    """Give ``seat`` a Niggling injury in hand (``held``) or none, swapping one of its
    cards with one of the deck: only hidden things change (the hand, the deck's order)."""
    s = table.state.clone()
    hand, deck = s.hands[seat], s.deck
    if held and "niggling_injury" not in hand:
        j = deck.index("niggling_injury")
        deck[j], hand[0] = hand[0], deck[j]
    while not held and "niggling_injury" in hand:
        i = hand.index("niggling_injury")
        j = next(k for k, c in enumerate(deck) if c != "niggling_injury")
        deck[j], hand[i] = hand[i], deck[j]
    s._legal_cache = None
    table.state = s
    table.version += 1


def _public(view: dict[str, Any]) -> str:
    """A view as a frame's content, without the table's random id (also in the
    address of the board's unchanging layer)."""
    text = json.dumps({k: v for k, v in view.items() if k != "table"}, sort_keys=True)
    return text.replace(view["table"], "<table>")


def test_a_forced_answer_is_taken_by_the_table_and_said_in_the_log(tmp_path):
    manager = TableManager(Storage(f"sqlite:///{tmp_path / 'f.db'}"))
    table = _cadwallon(manager, 3)
    mover, move, asked = _play_to_injury_window(manager, table, 3)
    _set_injury(table, asked, held=False)
    rows = table.rows
    manager.act(table, mover, move)
    # the window is open for a seat without the card: its only answer is "no"
    assert table.state.players_to_act() == [asked]
    assert table.state.legal_actions(asked) == ["no"]
    assert table.answering(asked) == "no" and table.seat_to_answer() == asked
    # meanwhile the seat is asked nothing: its page says what the table does
    mine = build_view(table, table.state, asked, "en")
    assert mine["legal"] == [] and mine["answering"]["action"] == "no"
    assert "The table plays it for you" in mine["prompt"]
    assert build_view(table, table.state, mover, "en")["answering"] is None
    manager.play_bots_now(table)
    assert table.state.history[-1] == [asked, "no"]
    assert table.rows == rows + 2  # stored like the seat's own decision
    char = table.state.history[-2][1]
    own = build_view(table, table.state, asked, "en")["log"]
    other = build_view(table, table.state, mover, "en")["log"]
    spectator = build_view(table, table.state, None, "fr")["log"]
    name = NAMES[asked]
    assert any(line.startswith(f"{name} lets ") and line.endswith("(no Niggling injury in hand).")
               for line in own), own[-4:]
    assert any(line.startswith(f"{name} lets ") and line.endswith("move on.") for line in other), other[-4:]
    assert not any("in hand" in line for line in other)
    assert any(line.startswith(f"{name} laisse ") for line in spectator), (char, spectator[-4:])


@pytest.mark.slow
def test_a_person_is_never_asked_an_empty_question(tmp_path):
    """Along random games of every game, every decision a person sees has at least
    two answers: the table takes the others."""
    manager = TableManager(Storage(f"sqlite:///{tmp_path / 'e.db'}"))
    for slug in ("thiefs-market", "thieves-den", "age-of-thieves", "thiefdom", "cadwallon"):
        table, _ = manager.create(slug, 3, [{"kind": "human"}] * 3, seed=11)
        rng = Rng.from_seed(11)
        answered = manager.play_bots_now(table)
        for _ in range(120):
            s = table.state
            if s.is_terminal():
                break
            for p in s.players_to_act():
                assert len(s.legal_actions(p)) > 1, (slug, s.ply, p, s.legal_actions(p))
                assert build_view(table, s, p, "en")["answering"] is None
            p = s.players_to_act()[0]
            acts = s.legal_actions(p)
            manager.act(table, p, acts[rng.below(len(acts))])
            answered += manager.play_bots_now(table)
        assert answered > 0, slug


async def _frames_of_others(tmp_path, name: str, held: bool, how: str) -> tuple[list[str], list[str]]:
    """The frames the mover's seat and a spectator get, one per change, from the
    mover's move that opens the window until the window is answered: by the
    table (``how`` "table"), or by hand ("person")."""
    platform = Platform(Storage(f"sqlite:///{tmp_path / name}"), 0.01, Limits())
    manager = platform.manager
    table = _cadwallon(manager, 3)
    mover, move, asked = _play_to_injury_window(manager, table, 3)
    _set_injury(table, asked, held)
    if how == "table" and held:
        manager.set_reactions(table, asked, True)
    frames: dict[int | None, list[str]] = {mover: [], None: []}
    sent = {"version": table.version}

    def notify(t: LiveTable) -> None:  # what a socket of each viewer is sent
        if t.version != sent["version"]:
            sent["version"] = t.version
            for viewer in frames:
                frames[viewer].append(_public(build_view(t, t.state, viewer, "en")))

    platform.hub.notify = notify  # type: ignore[method-assign]
    rng_before = table.state.rng.to_json()
    await platform.act(table, mover, move)
    if how == "person":
        assert table.seat_to_answer() is None
        await platform.act(table, asked, "no")
    else:
        assert table.seat_to_answer() == asked
        await platform._bot_tasks[table.id]
    assert table.state.history[-1] == [asked, "no"]
    assert table.state.rng.to_json() == rng_before  # the pause drew nothing from the game
    await platform.stop()
    return frames[mover], frames[None]


def test_a_forced_answer_leaves_every_other_seats_frames_as_a_chosen_one(tmp_path, monkeypatch):
    """Two positions that differ only in the asked seat's hidden hand: with the card
    (reactions switched off, or let go by hand) and without it (the only answer):
    the other seat and a spectator get the same frames, as many and the same."""
    monkeypatch.setattr(platform_module, "ANSWER_DELAY", (0.001, 0.002))
    runs = {
        (held, how): asyncio.run(_frames_of_others(tmp_path, f"{int(held)}{how}.db", held, how))
        for held, how in ((False, "table"), (True, "table"), (True, "person"))
    }
    forced = runs[False, "table"]
    assert len(forced[0]) == 2  # the window opening, then its answer
    for key, frames in runs.items():
        assert frames == forced, key


def test_the_answer_waits_a_pause_drawn_in_one_fixed_range():
    platform = Platform.__new__(Platform)
    pauses = [platform.answer_pause() for _ in range(200)]
    lo, hi = ANSWER_DELAY
    assert all(lo <= x <= hi for x in pauses)
    assert len(set(pauses)) > 100  # drawn, not one fixed number
    assert isinstance(platform_module._SYSTEM_RANDOM, __import__("random").SystemRandom)


def test_not_this_round_lets_reactions_go_until_the_next_round(tmp_path):
    manager = TableManager(Storage(f"sqlite:///{tmp_path / 'r.db'}"))
    table = _cadwallon(manager, 3)
    mover, move, asked = _play_to_injury_window(manager, table, 3)
    _set_injury(table, asked, held=True)
    version = table.version
    assert manager.set_reactions(table, asked, True) is True
    assert table.version == version  # nobody else is sent anything
    assert table.reactions_off(asked)
    assert build_view(table, table.state, asked, "en")["reactions"] == {"off": True}
    assert "reactions_off" not in json.dumps(build_view(table, table.state, mover, "en")["seats"])
    manager.act(table, mover, move)
    assert table.state.legal_actions(asked) == ["no", "play niggling_injury"]
    mine = build_view(table, table.state, asked, "de")
    assert mine["legal"] == [] and mine["answering"] == {"action": "no", "text": mine["answering"]["text"],
                                                         "forced": False}
    assert mine["prompt"].startswith("Reaktionen diese Runde aus")
    manager.play_bots_now(table)
    assert table.state.history[-1] == [asked, "no"]
    assert "niggling_injury" in table.state.hands[asked]
    # kept with the seat: a restart reads it back
    again = TableManager(manager.storage).get(table.id)
    assert again.reactions_off(asked)
    # the next round brings reactions back
    s = table.state.clone()
    s.round += 1
    table.state = s
    assert not table.reactions_off(asked)
    # and a person switches them back on by hand
    manager.set_reactions(table, asked, False)
    assert REACTIONS_KEY not in table.rec.seats[asked]


REACTIONS_KEY = "reactions_off"


def test_not_this_round_is_checked(tmp_path):
    manager = TableManager(Storage(f"sqlite:///{tmp_path / 'c.db'}"))
    table = _cadwallon(manager, 3)
    from thieves.server.tables import ServerError
    with pytest.raises(ServerError) as exc:
        manager.set_reactions(table, None, True)
    assert exc.value.code == "not_a_player"
    with pytest.raises(ServerError) as exc:
        manager.set_reactions(table, 0, "yes")
    assert exc.value.code == "bad_request"
    other, _ = manager.create("thiefs-market", 3, [{"kind": "human"}] * 3, seed=1)
    with pytest.raises(ServerError) as exc:
        manager.set_reactions(other, 0, True)
    assert exc.value.code == "no_reactions"
    assert build_view(other, other.state, 0, "en")["reactions"] is None


def test_not_this_round_through_the_api(client):
    r = client.post("/api/tables", json={"game": "cadwallon", "players": 2,
                                         "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}]})
    tid, token = r.json()["id"], r.json()["tokens"]["0"]
    r = client.post(f"/api/tables/{tid}/reactions", json={"token": token, "off": True})
    assert r.status_code == 200 and r.json() == {"seat": 0, "off": True}
    assert client.get(f"/api/tables/{tid}/view", params={"token": token}).json()["reactions"] == {"off": True}
    assert client.get(f"/api/tables/{tid}/view").json()["reactions"] is None
    r = client.post(f"/api/tables/{tid}/reactions", json={"off": True})
    assert r.status_code == 403


def test_the_answer_texts_exist_in_every_language():
    for lang in LANGS:
        t = ui(lang)
        for key in ("answer_only", "answer_reactions_off"):
            assert "{action}" in t[key], (lang, key)
        for key in ("reactions_off", "reactions_on", "reactions_help"):
            assert t[key], (lang, key)
