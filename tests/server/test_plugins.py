"""The game plug-in interface: a presentation (a layered board) and data/i18n.yaml."""
from __future__ import annotations

from thieves.server.i18n import game_text, game_texts


def _table(client, lang="en"):
    r = client.post("/api/tables", json={"game": "toy-svg", "players": 2, "lang": lang,
                                          "seats": [{"kind": "human"}, {"kind": "human"}]})
    assert r.status_code == 201
    return r.json()


def test_i18n_yaml_shape_and_fallback():
    texts = game_texts("toy-svg")
    assert set(texts) == {"en", "fr", "de"} and texts["de"]["name"] == "Verdeckte Gebote"
    assert game_text("toy-svg", "fr", "option.rounds") == "Manches"
    assert game_text("toy-svg", "de", "missing", "x") == "x"
    # a game without the file still works: it has only the log templates its code gives
    assert {k for lang in game_texts("toy-bids").values() for k in lang} == {"log.bid", "log.my_bid", "log.round_won"}
    assert game_text("toy-bids", "fr", "name") is None


def test_lobby_uses_the_games_texts(client):
    assert "Enchères scellées" in client.get("/", params={"lang": "fr"}).text
    assert "Verdeckte Gebote" in client.get("/", params={"lang": "de"}).text
    assert client.get("/api/games/toy-svg/texts", params={"lang": "de"}).json()["bid"] == "Bieten"


def test_svg_board_marks_legal_actions_and_the_presentation_translates(client):
    t = _table(client)
    tid, tok0, tok1 = t["id"], t["tokens"]["0"], t["tokens"]["1"]
    v = client.get(f"/api/tables/{tid}/view", params={"token": tok0, "lang": "fr"}).json()
    assert 'data-action="bid 2"' in v["svg"] and "Miser 2" in v["svg"]
    assert v["legal"][1] == {"action": "bid 2", "text": "Miser 2"}
    assert v["prompt"] == "misez en secret" and v["game_name"] == "Enchères scellées"
    client.post(f"/api/tables/{tid}/actions", json={"token": tok1, "action": "bid 1"})
    v = client.get(f"/api/tables/{tid}/view", params={"token": tok0, "lang": "fr"}).json()
    assert "Joueur 2 a misé." in v["log"]  # the made-up seat name is said in French too
    spectator = client.get(f"/api/tables/{tid}/view").json()
    assert spectator["legal"] == [] and "svg" in spectator["svg"]


def test_nested_i18n_sections_are_read_as_dotted_keys(tmp_path, monkeypatch):
    import sys

    from thieves.core import registry
    from thieves.core.registry import GAME_MODULES
    from thieves.server import i18n
    pkg = tmp_path / "nested_texts_game"
    (pkg / "data").mkdir(parents=True)
    # a game of its own (the toy game's rules): its texts are read by the engine, as every game's
    (pkg / "__init__.py").write_text(
        "from thieves.core.game import Game\nfrom tests.core.toy_game import BidGame\n\n\n"
        "class NestedTexts(BidGame):\n    slug = 'nested-texts'\n    texts = Game.texts\n\n\n"
        "GAME = NestedTexts()\n", encoding="utf-8")
    (pkg / "data" / "i18n.yaml").write_text(
        "en: {name: Nested}\nui: {fr: {buy: Acheter}, en: {buy: Buy}}\n"
        "cards: {A1: {de: {name: Labor}, en: {name: Lab}}}\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setitem(GAME_MODULES, "nested-texts", "nested_texts_game")
    i18n.game_texts.cache_clear()
    try:
        texts = i18n.game_texts("nested-texts")
        assert texts["en"] == {"name": "Nested", "ui.buy": "Buy", "cards.A1.name": "Lab"}
        assert texts["fr"] == {"ui.buy": "Acheter"} and texts["de"] == {"cards.A1.name": "Labor"}
    finally:
        i18n.game_texts.cache_clear()
        registry._loaded.pop("nested-texts", None)
        sys.modules.pop("nested_texts_game", None)
