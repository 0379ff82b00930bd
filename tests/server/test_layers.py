"""Boards in layers (server/boards.py) with the drawn toy game (tests/server/svg_game):
what is drawn once for every viewer is drawn from the spectator's observation
only, a seat's secret stays in that seat's view, the unchanging layer is
served at an address that names its content, and what a table keeps of its
drawings is counted and bounded."""
from __future__ import annotations

import re

from thieves.server.boards import table_bytes
from thieves.server.tables import SharedDrawings
from thieves.server.views import build_view
from tests.server.svg_game.presentation import BidPresentation

SECRET = ("my-bid-", "secret bid", "mise secrète", "geheimes Gebot")


def _table(client, names=("Ann", "Bob")):
    r = client.post("/api/tables", json={"game": "toy-svg", "players": 2,
                                         "seats": [{"kind": "human", "name": n} for n in names]})
    assert r.status_code == 201, r.text
    made = r.json()
    return made["id"], made["tokens"], client.app.state.platform.manager.get(made["id"])


def _no_secret(text):
    assert not any(word in text for word in SECRET), text


def _image(svg):
    href = re.search(r'<image href="([^"]+)"', svg)
    assert href, svg
    return href[1]


def test_a_seats_secret_never_reaches_a_shared_layer_nor_another_viewer(client):
    tid, tokens, table = _table(client)
    client.post(f"/api/tables/{tid}/actions", json={"token": tokens["0"], "action": "bid 3"})
    for lang in ("en", "fr", "de"):
        mine = client.get(f"/api/tables/{tid}/view", params={"token": tokens["0"], "lang": lang}).json()
        assert "my-bid-3" in mine["svg"]
        other = client.get(f"/api/tables/{tid}/view", params={"token": tokens["1"], "lang": lang}).json()
        spectator = client.get(f"/api/tables/{tid}/view", params={"lang": lang, "layout": "narrow"}).json()
        for view in (other, spectator):
            _no_secret(view["svg"])
        # the unchanging layer, as any browser fetches it
        for view in (mine, other, spectator):
            board = client.get(_image(view["svg"]))
            assert board.status_code == 200 and board.headers["content-type"].startswith("image/svg+xml")
            _no_secret(board.text)
    # every layer the table keeps for all its viewers, whoever's view drew it
    assert len(table.shared) >= 6
    for key, (value, _n) in table.shared._items.items():
        text = value.render() if key[0] == "public" else value[0].text if value[0] else ""
        _no_secret(text)


def test_the_unchanging_layer_is_kept_for_good_at_an_address_naming_its_content(client):
    tid, tokens, _table_ = _table(client)
    view = client.get(f"/api/tables/{tid}/view", params={"token": tokens["0"]}).json()
    href = _image(view["svg"])
    assert re.fullmatch(rf"/api/tables/{tid}/board/wide/en/[0-9a-f]{{20}}\.svg", href)
    board = client.get(href)
    assert board.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert board.text.startswith("<svg") and "Sealed bids" in board.text
    # the same address for every viewer of the table in that layout and language
    assert _image(client.get(f"/api/tables/{tid}/view").json()["svg"]) == href
    # another language or layout is another layer; a content that is not this one is not served
    assert _image(client.get(f"/api/tables/{tid}/view", params={"lang": "fr"}).json()["svg"]) != href
    for wrong in (href.replace("/wide/", "/tall/"), href.replace("/en/", "/xx/"),
                  href[:-10] + "0000000000.svg", href[:-4], f"/api/tables/nosuch/board/wide/en/{href[-24:]}"):
        assert client.get(wrong).status_code == 404, wrong
    # a process that never drew it draws it again (here: after forgetting it)
    client.app.state.platform.manager.get(tid).shared.clear()
    assert client.get(href).text == board.text


def test_the_public_layer_is_drawn_once_per_position_for_every_viewer(client, monkeypatch):
    tid, tokens, table = _table(client)
    drawn = []
    public = BidPresentation.board_public

    def counted(self, obs):
        drawn.append((self.viewer, self.lang, obs.get("my_bid")))
        return public(self, obs)

    monkeypatch.setattr(BidPresentation, "board_public", counted)
    for viewer in (0, 1, None):
        build_view(table, table.state, viewer, "en")
    assert drawn == [(None, "en", None)]
    build_view(table, table.state, 0, "fr")
    assert len(drawn) == 2
    client.post(f"/api/tables/{tid}/actions", json={"token": tokens["1"], "action": "bid 1"})
    views = {v: build_view(table, table.state, v, "en") for v in (0, 1, None)}
    assert len(drawn) == 3 and all(who is None and bid is None for who, _l, bid in drawn)
    # each viewer's own clickable bids: seat 0 may bid, seat 1 has bid, a spectator bids never
    assert 'class="clickable" data-action="bid 2"' in views[0]["svg"]
    assert "clickable" not in views[1]["svg"] and "clickable" not in views[None]["svg"]
    assert "my-bid-1" in views[1]["svg"] and "my-bid" not in views[0]["svg"]


def test_the_board_puts_the_layers_together_as_one_drawing_would(client):
    tid, tokens, table = _table(client, names=("O'Neil", "Bob"))
    client.post(f"/api/tables/{tid}/actions", json={"token": tokens["1"], "action": "bid 2"})
    view = build_view(table, table.state, 0, "en")
    pres = BidPresentation(table.game, 0, table.display_names("en"), "en")
    whole = pres.svg(view["observation"])
    static = pres.board_static(view["observation"]).render()
    # the same drawing, the unchanging layer shown as an image
    assert view["svg"] == whole.replace(static, re.search(r"<image[^>]*/>", view["svg"])[0])
    assert "Bob: has bid" in view["svg"]   # the table's seat names


def test_what_a_table_keeps_is_counted_and_bounded():
    kept = SharedDrawings(bound=1000)
    for i in range(10):
        kept.put(("public", i), "x" * 300, 300)
        assert kept.nbytes <= 1000
    assert kept.get(("public", 0)) is None and kept.get(("public", 9)) == "x" * 300
    kept.get(("public", 7))   # used: the least recently used go first
    kept.put(("public", 10), "y", 400)
    assert kept.get(("public", 7)) is not None and kept.get(("public", 8)) is None
    assert kept.nbytes == sum(n for _v, n in kept._items.values())


def test_the_figure_of_a_tables_memory_counts_its_views_and_layers(client):
    import asyncio

    tid, tokens, table = _table(client)
    platform = client.app.state.platform
    before = table_bytes(table, platform.hub.views)

    async def build():
        for viewer in (0, 1, None):
            for lang in ("en", "fr"):
                platform.hub.views.latest(table, viewer, lang, "wide")

    asyncio.run(build())
    after = table_bytes(table, platform.hub.views)
    assert after["layers"] > before["layers"] and after["views"] > before["views"]
    assert after["total"] == after["views"] + after["layers"]


def test_the_spectators_observation_is_made_once_per_change_and_never_stale(tmp_path):
    """The public layer and the spectators' view read one observation per change
    (``boards.public_obs``); every change makes a new one, and another position
    (a replay step) never reads the table's."""
    from thieves.core.rng import Rng
    from thieves.server.boards import public_obs, spectator_obs
    from thieves.server.storage import Storage
    from thieves.server.tables import TableManager
    manager = TableManager(Storage(f"sqlite:///{tmp_path / 'o.db'}"))
    table, _ = manager.create("thiefs-market", 3, [{"kind": "human"}] * 3, seed=4)
    rng = Rng.from_seed(4)
    for _ in range(30):
        if table.state.is_terminal():
            break
        view = build_view(table, table.state, None, "en")
        fresh = spectator_obs(table.state)
        assert public_obs(table, table.state) is public_obs(table, table.state)  # made once
        assert public_obs(table, table.state) == fresh
        assert view["observation"] == {**fresh, "recent": view["observation"]["recent"]}
        earlier = table.state.clone()
        seat = table.state.players_to_act()[0]
        legal = table.state.legal_actions(seat)
        manager.act(table, seat, legal[rng.below(len(legal))])
        # another position of this table (a replay's) is observed on its own
        assert public_obs(table, earlier) is not public_obs(table, table.state)
        assert public_obs(table, earlier) == spectator_obs(earlier)
