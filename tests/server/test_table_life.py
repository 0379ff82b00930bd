"""Table life around the game: waiting for players before the start."""
from __future__ import annotations

from tests.server.conftest import new_table
from thieves.bots import bot_names


def view(client, tid, token=None):
    return client.get(f"/api/tables/{tid}/view", params={"token": token} if token else {}).json()


def act(client, tid, token, action, **extra):
    return client.post(f"/api/tables/{tid}/actions", json={"token": token, "action": action, **extra})


def test_a_table_with_an_open_seat_waits_for_it(client):
    t = new_table(client, 3, [{"kind": "human"}, {"kind": "open"}, {"kind": "bot", "bot": "random"}])
    tid, tok0 = t["id"], t["tokens"]["0"]
    v = view(client, tid, tok0)
    assert v["status"] == "open" and v["waiting"] == [1] and v["host"] and v["ply"] == 0
    assert v["to_act"] == []  # nobody acts before the start
    assert [b["bot"] for b in v["fill_bots"]] == bot_names("toy-bids")
    r = act(client, tid, tok0, "bid 1")
    assert r.status_code == 409 and r.json()["error"] == "waiting"
    assert view(client, tid)["ply"] == 0  # the bot did not play either
    # taking the last open seat starts the game: the bot plays at once (bot_delay 0)
    tok1 = client.post(f"/api/tables/{tid}/seats/1/claim", json={"name": "Bea"}).json()["token"]
    v = view(client, tid, tok1)
    assert v["status"] == "playing" and v["waiting"] == [] and not v["host"] and v["fill_bots"] == []
    assert v["ply"] == 1 and v["to_act"] == [0, 1]
    assert act(client, tid, tok0, "bid 1").status_code == 200


def test_the_creator_fills_open_seats_with_bots(client):
    t = new_table(client, 3, [{"kind": "human"}, {"kind": "open"}, {"kind": "open"}], options={"rounds": 1})
    tid, tok0 = t["id"], t["tokens"]["0"]
    tok1 = client.post(f"/api/tables/{tid}/seats/1/claim", json={"name": "Bea"}).json()["token"]
    # only the creator may: another player, a spectator and a wrong bot are refused
    r = client.post(f"/api/tables/{tid}/fill", json={"token": tok1, "bot": "random"})
    assert r.status_code == 403 and r.json()["error"] == "not_host"
    r = client.post(f"/api/tables/{tid}/fill", json={"bot": "random"})
    assert r.status_code == 403 and r.json()["error"] == "not_host"
    r = client.post(f"/api/tables/{tid}/fill", json={"token": tok0, "bot": "nobody"})
    assert r.status_code == 400 and r.json()["error"] == "bad_request"
    assert view(client, tid)["waiting"] == [2]
    r = client.post(f"/api/tables/{tid}/fill", json={"token": tok0, "bot": "random"})
    assert r.status_code == 200 and r.json() == {"filled": [2]}
    v = view(client, tid, tok0)
    assert v["status"] == "playing" and v["seats"][2]["kind"] == "bot" and v["seats"][2]["bot"] == "random"
    assert v["ply"] == 1 and v["to_act"] == [0, 1]  # the bot chose already
    r = client.post(f"/api/tables/{tid}/fill", json={"token": tok0})
    assert r.status_code == 409 and r.json()["error"] == "seat_taken"
    assert act(client, tid, tok0, "bid 1").status_code == 200
    assert act(client, tid, tok1, "bid 2").status_code == 200
    assert view(client, tid)["terminal"]


def test_filled_seats_and_waiting_survive_a_restart(db_url):
    from fastapi.testclient import TestClient

    from thieves.server.app import create_app

    with TestClient(create_app(db_url, bot_delay=0), base_url="http://127.0.0.1") as c:
        t = new_table(c, 2, [{"kind": "human"}, {"kind": "open"}])
        other = new_table(c, 2, [{"kind": "human"}, {"kind": "open"}])
        assert c.post(f"/api/tables/{t['id']}/fill", json={"token": t["tokens"]["0"]}).status_code == 200
    with TestClient(create_app(db_url, bot_delay=0), base_url="http://127.0.0.1") as c:
        v = view(c, t["id"], t["tokens"]["0"])
        assert v["seats"][1]["kind"] == "bot" and v["ply"] == 1 and v["waiting"] == []
        w = view(c, other["id"], other["tokens"]["0"])
        assert w["waiting"] == [1] and w["host"] and w["ply"] == 0
        assert act(c, other["id"], other["tokens"]["0"], "bid 1").json()["error"] == "waiting"


def test_the_waiting_texts_exist_in_every_language(client):
    from thieves.server.i18n import ERRORS, LANGS, ui

    for lang in LANGS:
        texts = ui(lang)
        assert "{seats}" in texts["waiting_players"] and texts["fill_bots"] and texts["fill_bot_level"]
        assert ERRORS[lang]["waiting"] and ERRORS[lang]["not_host"]
    assert len({ui(lang)["fill_bots"] for lang in LANGS}) == 3


# -- leaving, substitutes, taking the seat back -------------------------------------
def seat_post(client, tid, what, token, **body):
    return client.post(f"/api/tables/{tid}/{what}", json={"token": token, **body})


def test_a_player_leaves_a_bot_plays_on_and_the_player_comes_back(client):
    t = new_table(client, 2, options={"rounds": 4})
    tid, tok0, tok1 = t["id"], t["tokens"]["0"], t["tokens"]["1"]
    assert act(client, tid, tok0, "bid 1").status_code == 200
    # seat 1 leaves: its substitute decides at once (bot_delay 0), for round 1
    # and for round 2; seat 0 goes on
    r = seat_post(client, tid, "leave", tok1, bot="random")
    assert r.status_code == 200 and r.json() == {"seat": 1, "sub": "random"}
    v = view(client, tid, tok0)
    assert v["seats"][1]["sub"] == "random" and v["seats"][1]["kind"] == "human"
    assert v["to_act"] == [0] and v["ply"] == 3 and v["substitute_moves"] == [0, 2]
    # while the bot plays it, the player's own moves are refused
    r = act(client, tid, tok1, "bid 1")
    assert r.status_code == 409 and r.json()["error"] == "substituted"
    assert act(client, tid, tok0, "bid 2").status_code == 200  # round 3: the bot bids at once
    assert view(client, tid)["substitute_moves"] == [0, 3]
    # back with the seat's link: the person decides again from the next round on
    assert seat_post(client, tid, "back", tok1).json() == {"seat": 1, "sub": None}
    assert view(client, tid)["seats"][1]["sub"] is None
    assert act(client, tid, tok0, "bid 1").status_code == 200
    v = view(client, tid, tok1)
    assert v["to_act"] == [0, 1] and v["legal"] and v["ply"] == 6
    assert act(client, tid, tok1, "bid 3").status_code == 200
    assert act(client, tid, tok0, "bid 1").status_code == 200
    v = view(client, tid)
    assert v["terminal"] and v["substitute_moves"] == [0, 3]
    # the replay says who decided each move
    bys = [client.get(f"/api/tables/{tid}/replay/{p}").json()["last_action"]["by"] for p in range(1, 9)]
    assert bys == [None, "random", "random", None, "random", None, None, None]


def test_leaving_and_coming_back_are_checked(client):
    t = new_table(client, 2, options={"rounds": 2})
    tid, tok0, tok1 = t["id"], t["tokens"]["0"], t["tokens"]["1"]
    assert seat_post(client, tid, "leave", None).json()["error"] == "not_a_player"
    assert seat_post(client, tid, "back", tok0).json()["error"] == "bad_request"  # never left
    assert seat_post(client, tid, "leave", tok0, bot="nobody").json()["error"] == "bad_request"
    assert seat_post(client, tid, "leave", "forged").json()["error"] == "bad_token"
    assert view(client, tid)["seats"][0]["sub"] is None
    # conceding: the bot plays to the end and the seat cannot be taken back
    assert seat_post(client, tid, "concede", tok1).status_code == 200
    v = view(client, tid)
    assert v["seats"][1]["conceded"] and v["seats"][1]["sub"] == "random"
    r = seat_post(client, tid, "back", tok1)
    assert r.status_code == 409 and r.json()["error"] == "conceded"
    while not (v := view(client, tid, tok0))["terminal"]:
        assert act(client, tid, tok0, v["legal"][0]["action"], ply=v["ply"]).status_code == 200
    assert v["substitute_moves"] == [0, 2]
    assert seat_post(client, tid, "leave", tok0).json()["error"] == "game_over"


def test_substitutes_and_who_decided_survive_a_restart(db_url):
    from fastapi.testclient import TestClient

    from thieves.server.app import create_app
    from thieves.server.storage import Storage

    with TestClient(create_app(db_url, bot_delay=0), base_url="http://127.0.0.1") as c:
        t = new_table(c, 2, options={"rounds": 3})
        tid, tok0, tok1 = t["id"], t["tokens"]["0"], t["tokens"]["1"]
        assert seat_post(c, tid, "leave", tok1).status_code == 200
        assert act(c, tid, tok0, "bid 1").status_code == 200
    assert Storage(db_url).deciders(tid) == {0: "sub:random", 2: "sub:random"}
    with TestClient(create_app(db_url, bot_delay=0), base_url="http://127.0.0.1") as c:
        v = view(c, tid, tok1)
        assert v["seats"][1]["sub"] == "random" and v["substitute_moves"] == [0, 2] and v["ply"] == 3
        assert seat_post(c, tid, "back", tok1).status_code == 200
        assert act(c, tid, tok0, "bid 1").status_code == 200
        v = view(c, tid, tok1)
        assert v["to_act"] == [0, 1] and v["legal"] and v["substitute_moves"] == [0, 2]


def test_an_older_database_learns_the_decider_column(tmp_path):
    import sqlalchemy as sa

    from thieves.server.storage import Storage

    url = f"sqlite:///{tmp_path / 'old.db'}"
    Storage(url).close()
    engine = sa.create_engine(url)
    with engine.begin() as c:  # as made before substitutes, clocks and rematches existed
        for table, col in (("thieves_actions", "decider"), ("thieves_actions", "at"),
                           ("thieves_tables", "timing"), ("thieves_tables", "rematch")):
            c.execute(sa.text(f"ALTER TABLE {table} DROP COLUMN {col}"))
    storage = Storage(url)
    insp = sa.inspect(storage.engine)
    assert {"decider", "at"} <= {col["name"] for col in insp.get_columns("thieves_actions")}
    assert {"timing", "rematch"} <= {col["name"] for col in insp.get_columns("thieves_tables")}


def test_the_leaving_texts_exist_in_every_language():
    from thieves.server.i18n import ERRORS, LANGS, ui

    keys = ("leave", "concede", "leave_confirm", "concede_confirm", "sub_level", "take_back",
            "you_left", "you_conceded", "left", "conceded", "sub_moves")
    for key in keys:
        assert len({ui(lang)[key] for lang in LANGS}) == 3, key
    for lang in LANGS:
        assert "{bot}" in ui(lang)["you_left"] and "{n}" in ui(lang)["sub_moves"]
        assert ERRORS[lang]["substituted"] and ERRORS[lang]["conceded"]


# -- undo ------------------------------------------------------------------------------
def test_undo_goes_back_to_the_start_of_ones_turn_and_is_stored_as_a_record(db_url):
    from fastapi.testclient import TestClient

    from thieves.server.app import create_app
    from thieves.server.storage import Storage

    with TestClient(create_app(db_url, bot_delay=0), base_url="http://127.0.0.1") as c:
        t = new_table(c, 3, options={"rounds": 1})
        tid, toks = t["id"], [t["tokens"][str(i)] for i in range(3)]
        assert act(c, tid, toks[0], "bid 2").status_code == 200
        v = view(c, tid, toks[0])
        assert v["undo"] == 0 and view(c, tid, toks[1])["undo"] is None and view(c, tid)["undo"] is None
        r = seat_post(c, tid, "undo", toks[1])
        assert r.status_code == 409 and r.json()["error"] == "no_undo"  # seat 1 has not decided
        assert seat_post(c, tid, "undo", None).json()["error"] == "not_a_player"
        r = seat_post(c, tid, "undo", toks[0])
        assert r.status_code == 200 and r.json() == {"ply": 0}
        v = view(c, tid, toks[0])
        assert v["ply"] == 0 and 0 in v["to_act"] and v["legal"] and v["undo"] is None
        assert v["chosen"] == []
        assert act(c, tid, toks[0], "bid 1").status_code == 200
        assert act(c, tid, toks[1], "bid 3").status_code == 200
        # another seat acted since: seat 0 may not undo any more
        r = seat_post(c, tid, "undo", toks[0])
        assert r.status_code == 409 and r.json()["error"] == "no_undo"
    stored = Storage(db_url).load_actions(tid)
    assert stored == [[0, "bid 2"], [0, "!undo 0"], [0, "bid 1"], [1, "bid 3"]]
    # a restart replays the undo record exactly
    with TestClient(create_app(db_url, bot_delay=0), base_url="http://127.0.0.1") as c:
        v = view(c, tid, toks[1])
        assert v["ply"] == 2 and v["to_act"] == [2] and v["undo"] == 1
        assert act(c, tid, toks[2], "bid 1").status_code == 200
        v = view(c, tid)
        # the last bid rolled the die: the game is over, nothing can be taken back
        assert v["terminal"] and v["undo"] is None
        replay = c.get(f"/api/tables/{tid}/replay.json").json()
        # the replay file holds the line that was played (the undone bid is not in it)
        assert replay["actions"] == [[0, "bid 1"], [1, "bid 3"], [2, "bid 1"]]
        assert c.get(f"/api/tables/{tid}/replay/1").json()["last_action"]["action"] == "bid 1"


def test_undo_after_a_die_roll_is_refused(client):
    t = new_table(client, 2, options={"rounds": 2})
    tid, tok0, tok1 = t["id"], t["tokens"]["0"], t["tokens"]["1"]
    assert act(client, tid, tok0, "bid 1").status_code == 200
    assert act(client, tid, tok1, "bid 2").status_code == 200  # the round ends: a die is rolled
    assert view(client, tid, tok1)["undo"] is None
    r = seat_post(client, tid, "undo", tok1)
    assert r.status_code == 409 and r.json()["error"] == "no_undo"
    assert view(client, tid)["ply"] == 2


def test_turn_ending_moves_are_marked_for_confirmation(tmp_path):
    import random

    from thieves.server.storage import Storage
    from thieves.server.tables import TableManager
    from thieves.server.views import build_view

    manager = TableManager(Storage(f"sqlite:///{tmp_path / 'c.db'}"))
    table, _ = manager.create("thiefs-market", 3, [{"kind": "bot", "bot": "random"}] * 3)
    rnd = random.Random(1)
    marked = unmarked = 0
    for _ in range(200):
        state = table.state
        if state.is_terminal():
            break
        seat = state.players_to_act()[0]
        legal = build_view(table, state, seat, "en")["legal"]
        for a in legal:
            if a["action"].split()[0] in ("end", "done", "pass"):
                assert a.get("ends_turn") is True
                marked += 1
            else:
                assert "ends_turn" not in a
                unmarked += 1
        state.apply_action(seat, rnd.choice(state.legal_actions(seat)))
    assert marked and unmarked
    assert all("ends_turn" not in a for a in build_view(table, table.state, None, "en")["legal"])


def test_the_undo_and_confirmation_texts_exist_in_every_language():
    from thieves.server.i18n import ERRORS, LANGS, ui

    for key in ("undo", "undo_help", "confirm_end", "ask_confirm", "you_timed_out", "clock",
                "clock_none", "clock_realtime", "clock_turn", "timed_out", "time_left"):
        assert len({ui(lang)[key] for lang in LANGS}) == 3, key
    for lang in LANGS:
        assert "{action}" in ui(lang)["confirm_end"]
        assert ERRORS[lang]["no_undo"] and ERRORS[lang]["out_of_time"]


# -- rematch -----------------------------------------------------------------------
def test_rematch_with_the_same_seats_and_options(client):
    t = new_table(client, 3, [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bea"},
                              {"kind": "bot", "bot": "random"}], options={"rounds": 1})
    tid, tok0, tok1 = t["id"], t["tokens"]["0"], t["tokens"]["1"]
    r = seat_post(client, tid, "rematch", tok0)
    assert r.status_code == 409 and r.json()["error"] == "not_finished"
    assert act(client, tid, tok0, "bid 1").status_code == 200
    assert act(client, tid, tok1, "bid 2").status_code == 200
    assert view(client, tid)["terminal"] and view(client, tid)["rematch"] is None
    assert seat_post(client, tid, "rematch", None).json()["error"] == "not_a_player"
    # one click by Bea: the new table, her seat taken, Ann's kept for her, the bot again
    r = seat_post(client, tid, "rematch", tok1)
    assert r.status_code == 201, r.text
    new = r.json()
    assert new["seat"] == 1 and new["url"] == f"/t/{new['id']}/s/{new['token']}"
    assert view(client, tid)["rematch"] == new["id"]
    v = view(client, new["id"], new["token"])
    assert v["viewer"] == 1 and v["host"] and v["waiting"] == [0] and v["ply"] == 0
    assert [s["name"] for s in v["seats"]] == ["Ann", "Bea", "Random bot 3"]
    assert v["seats"][2]["kind"] == "bot" and v["seats"][2]["bot"] == "random"
    # a stranger cannot take Ann's kept seat
    r = client.post(f"/api/tables/{new['id']}/seats/0/claim", json={"name": "Eve"})
    assert r.status_code == 409 and r.json()["error"] == "reserved"
    # Ann's click takes it: the game starts (the same options: one round)
    r = seat_post(client, tid, "rematch", tok0)
    assert r.status_code == 201 and r.json()["id"] == new["id"] and r.json()["seat"] == 0
    ann = r.json()["token"]
    v = view(client, new["id"], ann)
    assert v["status"] == "playing" and v["seats"][0]["name"] == "Ann" and v["legal"]
    assert seat_post(client, tid, "rematch", tok0).json()["error"] == "seat_taken"
    assert act(client, new["id"], ann, "bid 3").status_code == 200
    assert act(client, new["id"], new["token"], "bid 1").status_code == 200
    assert view(client, new["id"])["terminal"]  # one round, as before


def test_a_rematch_keeps_the_time_control(db_url):
    from fastapi.testclient import TestClient

    from thieves.server.app import create_app

    with TestClient(create_app(db_url, bot_delay=0), base_url="http://127.0.0.1") as c:
        r = c.post("/api/tables", json={"game": "toy-bids", "players": 2, "options": {"rounds": 1},
                                        "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}],
                                        "clock": {"kind": "turn", "per_move": 600}})
        t = r.json()
        assert act(c, t["id"], t["tokens"]["0"], "bid 1").status_code == 200
        new = seat_post(c, t["id"], "rematch", t["tokens"]["0"]).json()
        v = view(c, new["id"], new["token"])
        assert v["clock"]["kind"] == "turn" and v["clock"]["left"] == [600, 600] and v["status"] == "playing"
    # the link between the two tables is stored
    with TestClient(create_app(db_url, bot_delay=0), base_url="http://127.0.0.1") as c:
        assert view(c, t["id"])["rematch"] == new["id"]


def test_the_rematch_texts_exist_in_every_language():
    from thieves.server.i18n import ERRORS, LANGS, ui

    for key in ("rematch", "join_rematch", "watch_rematch", "alert_sound", "alert_notify"):
        assert len({ui(lang)[key] for lang in LANGS}) == 3, key
    assert all(ERRORS[lang]["reserved"] for lang in LANGS)


def test_undo_is_bounded_per_seat_in_time_and_per_game(db_url):
    """One seat looping act + undo stored about 1,000 undo rows a minute: a rate per seat, and a cap per game."""
    from fastapi.testclient import TestClient

    from thieves.server.app import create_app
    from thieves.server.limits import Limits
    from thieves.server.storage import Storage

    def loop(c, tid, tok, times):
        codes = []
        for _ in range(times):
            assert act(c, tid, tok, "bid 1").status_code == 200
            r = seat_post(c, tid, "undo", tok)
            codes.append(r.json().get("error", r.status_code))
            if r.status_code != 200:
                break
        return codes

    limits = Limits(undos_per_seat=3, undos_window=600, undos_per_game=0)
    with TestClient(create_app(db_url, bot_delay=0, limits=limits), base_url="http://127.0.0.1") as c:
        t = new_table(c, 2, options={"rounds": 1})
        tid, tok0 = t["id"], t["tokens"]["0"]
        assert loop(c, tid, tok0, 10) == [200, 200, 200, "rate_limited"]
    assert sum(a.startswith("!undo") for _p, a in Storage(db_url).load_actions(tid)) == 3
    limits = Limits(undos_per_seat=0, undos_per_game=2)
    with TestClient(create_app(db_url, bot_delay=0, limits=limits), base_url="http://127.0.0.1") as c:
        # the three records already stored count (replayed at load): one more is refused
        r = seat_post(c, tid, "undo", tok0)
        assert r.json()["error"] == "no_undo" and "2 times" in r.json()["message"]
        t = new_table(c, 2, options={"rounds": 1})
        assert loop(c, t["id"], t["tokens"]["0"], 10) == [200, 200, "no_undo"]
# -- waiting and spectating say who is doing what -----------------------------------
def test_before_the_start_no_move_is_offered_and_the_open_seats_are_named(client):
    t = new_table(client, 3, [{"kind": "human"}, {"kind": "open"}, {"kind": "bot", "bot": "random"}])
    host = view(client, t["id"], t["tokens"]["0"])
    assert host["host"] and host["fill_bots"]          # the host may start with bots...
    assert host["legal"] == [] and host["to_act"] == []  # ...but is offered no move
    assert host["doing"] is None and host["waiting"] == [1]
    assert view(client, t["id"])["legal"] == []


def test_a_waiting_seat_and_a_spectator_read_who_is_playing_once(client):
    t = new_table(client, 2, [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bea"}],
                  options={"rounds": 1})
    tid = t["id"]
    assert act(client, tid, t["tokens"]["0"], "bid 1").status_code == 200
    ann, watcher = view(client, tid, t["tokens"]["0"]), view(client, tid)
    assert ann["to_act"] == [1] and ann["legal"] == []
    for v in (ann, watcher):
        assert v["doing"] == "Bea is playing"
        assert v["doing"].count("Bea") == 1            # never the same name twice
    assert view(client, tid, t["tokens"]["1"])["doing"] is None  # Bea is to act: her own prompt
    fr = client.get(f"/api/tables/{tid}/view", params={"lang": "fr"}).json()
    de = client.get(f"/api/tables/{tid}/view", params={"lang": "de"}).json()
    assert fr["doing"] == "Bea joue" and de["doing"] == "Bea ist am Zug"


def test_the_game_prompt_that_names_the_seat_to_act_is_said_alone():
    from types import SimpleNamespace

    from thieves.server.views import doing_text

    table = SimpleNamespace(rec=SimpleNamespace(game="thieves-den", seats=[{"kind": "human"}, {"kind": "bot"}, {"kind": "human"}]),
                            digests={0: "x"})
    names = ["Ann", "Greedy bot 2", "Player 3"]
    assert doing_text(names, table, [1], "Greedy bot 2 is deciding: buy.", "en") == "Greedy bot 2 is deciding: buy."
    assert doing_text(names, table, [1], "Choose your gang", "en") == "Greedy bot 2 is playing"
    assert doing_text(names, table, [0, 1], None, "fr") == "Ann et Greedy bot 2 jouent"
    assert doing_text(names, table, [2], None, "en") == "Player 3 (open seat) is playing"
    # the game's own sentence for the decision or the phase comes first, in every language
    draft = {"phase": "draft", "decision": None}
    assert doing_text(names, table, [1], None, "en", draft) == "Greedy bot 2 is choosing a card to keep"
    assert doing_text(names, table, [0, 1], None, "en", draft) == "Ann and Greedy bot 2 are choosing a card to keep"
    assert doing_text(names, table, [1], None, "de", draft) == "Greedy bot 2 wählt eine Karte zum Behalten"
    assert doing_text(names, table, [1], None, "fr", {"phase": "thieving", "decision": {"kind": "payany"}}) \
        == "Greedy bot 2 choisit comment payer"
    assert doing_text(names, table, [1], None, "en", {"phase": "nothing known"}) == "Greedy bot 2 is playing"


def test_every_games_doing_sentences_name_who_in_every_language():
    from thieves.server.i18n import LANGS, game_texts
    from thieves.core.registry import GAME_MODULES

    for slug in GAME_MODULES:
        texts = game_texts(slug)
        keys = {k for k in texts.get("en", {}) if k.startswith("doing.")}
        for lang in LANGS:
            for key in keys:
                assert "{who}" in texts[lang][key], (slug, lang, key)
