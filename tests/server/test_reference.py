"""Rules rendered as HTML, the glossary of every component, and the lobby's
options in words (table standard, parts 21 and 22)."""
from __future__ import annotations

import re

import pytest

from thieves.core.registry import load_game
from thieves.server.lobby import games_catalog, quick_setup, web_options
from thieves.server.i18n import GLOSSARY_KINDS, game_texts
from thieves.server.reference import glossary, render_markdown, rules_html

GAMES = ["thiefs-market", "thieves-den", "age-of-thieves", "thiefdom", "cadwallon"]
LANGS = ["en", "fr", "de"]
#: what a template key or an unfilled placeholder looks like when it leaks into a text
RAW_KEY = re.compile(r"\b(card|effect|loc|fence|tile|tile_text|ui|option|talent|event|cardtext|char|room|adv|"
                     r"mission|client|equipment|patrol|art|good|token|thief|ability|gang|treasure|face|legend)"
                     r"\.[A-Za-z0-9_-]+|\{[A-Za-z_]+[^}]*\}")


# -- rules -------------------------------------------------------------------------------
def _list_items(markdown: str) -> int:
    return sum(1 for line in markdown.splitlines() if re.match(r"\s*(\d+\.|[-*])\s", line))


@pytest.mark.parametrize("slug", GAMES)
@pytest.mark.parametrize("lang", LANGS)
def test_the_rules_summary_is_headings_paragraphs_and_lists(slug, lang):
    source = load_game(slug).presentation(None, None, lang).rules()
    html = rules_html(slug, lang)
    headings = sum(1 for line in source.splitlines() if line.startswith("#"))
    assert headings and html.count("<h4>") == headings  # every "# Goal" is a heading under the dialog's title
    assert html.count("<li>") == _list_items(source)    # every numbered step is a list item
    assert _list_items(source) == 0 or "<ol>" in html or "<ul>" in html
    text = re.sub(r"<[^>]+>", "\n", html)
    assert not [line for line in text.splitlines() if line.strip().startswith("#")]
    assert "<p>" in html


def test_the_numbered_steps_of_a_round_are_one_list_in_every_language():
    for lang in LANGS:
        html = rules_html("thiefs-market", lang)
        assert html.count("<ol>") == 1 and html.count("<li>") == 3


def test_raw_html_in_a_rules_text_is_shown_as_text():
    html = render_markdown("# Goal\n<script>alert(1)</script>\n\n<img src=x onerror=alert(1)>\n\n"
                           "[link](javascript:alert(1)) ![x](y.png)")
    assert "<script" not in html and "<img" not in html and 'href="javascript' not in html
    assert "&lt;script&gt;" in html and html.startswith("<h4>Goal</h4>")


def test_the_rules_endpoint(client):
    r = client.get("/api/games/thiefs-market/rules?lang=de")
    assert r.status_code == 200 and "<h4>Ziel</h4>" in r.json()["html"]
    assert client.get("/api/games/chess/rules").status_code == 404


def test_the_table_page_carries_the_rules_rendered(client):
    r = client.post("/api/tables", json={"game": "thiefs-market", "players": 3,
                                         "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"},
                                                   {"kind": "bot", "bot": "random"}], "lang": "fr"})
    page = client.get(r.json()["urls"]["0"] + "?lang=fr").text
    body = page.split('class="rules-body')[1].split("</div>")[0]
    assert "<h4>But</h4>" in body and "<ol>" in body
    assert 'data-tab="glossary"' in page and "/static/glossary.js" in page


# -- glossary ----------------------------------------------------------------------------
def _expected_counts(slug: str) -> dict[str, int]:
    """How many of each kind the game's data holds (read from the data, not the glossary)."""
    d = load_game(slug).data()
    if slug == "thiefs-market":
        from thieves.games.thiefs_market.components import FACES
        return {"card": len(d.cards), "die_face": len(FACES), "token": 1}
    if slug == "thieves-den":
        from thieves.games.thieves_den.components import TREASURES
        return {"location": len(d.locations), "fence": len(d.fences), "power": len(d.powers),
                "scheme": len(d.schemes), "treasure": len(TREASURES)}
    if slug == "age-of-thieves":
        return {"card": 2 + len(d.general), "thief": len(d.thieves), "special": len(d.thieves),
                "event": len(d.calm_event) + len(d.alarm_event), "token": len(d.tokens.city_tokens)}
    if slug == "thiefdom":
        from thieves.games.thiefdom.components import GOODS
        return {"equipment": len(d.equipment), "client": len(d.clients), "mission": len(d.missions),
                "artwork": len(d.artworks), "patrol": len(d.patrols), "good": len(GOODS)}
    return {"gang": len(d.gang_ids), "character": len(d.char) + len(d.heroine) + len(d.militia),
            "talent": len(d.talent), "card": len(d.card), "treasure": len(d.ttype),
            "mission": len(d.mission), "adventure": len(d.adventure), "room": len(d.rooms)}


@pytest.mark.parametrize("slug", GAMES)
def test_the_glossary_holds_every_component_of_the_data_in_three_languages(client, slug):
    expected = _expected_counts(slug)
    by_lang = {}
    for lang in LANGS:
        r = client.get(f"/api/games/{slug}/glossary?lang={lang}")
        assert r.status_code == 200
        entries = r.json()["entries"]
        counts: dict[str, int] = {}
        for e in entries:
            counts[e["kind"]] = counts.get(e["kind"], 0) + 1
        assert counts == expected, (lang, counts)
        assert len({e["id"] for e in entries}) == len(entries)
        for e in entries:
            assert e["name"], e
            assert e["kind_label"] == GLOSSARY_KINDS[lang][e["kind"]]
            for words in [e["name"], e["text"], *e["facts"]]:
                assert not RAW_KEY.search(words), (lang, e)
        by_lang[lang] = entries
    # a name, never the id (an English word may be its own id: "gold"; not in all three languages)
    for i, e in enumerate(by_lang["en"]):
        assert {by_lang[lang][i]["name"] for lang in LANGS} != {e["id"]}, e
    # the same components in the same order, in words of each language
    assert [e["id"] for e in by_lang["fr"]] == [e["id"] for e in by_lang["en"]] == [e["id"] for e in by_lang["de"]]
    for lang in ("fr", "de"):
        texts = [(a["text"], b["text"]) for a, b in zip(by_lang["en"], by_lang[lang]) if a["text"]]
        assert texts and sum(a != b for a, b in texts) >= 0.9 * len(texts), lang


def test_the_glossary_uses_the_cards_own_words():
    texts = game_texts("thiefs-market")
    a1 = next(e for e in glossary("thiefs-market", "fr") if e["id"] == "A1")
    assert a1["name"] == texts["fr"]["card.A1"] and a1["text"] == texts["fr"]["effect.A1"]
    loc = next(e for e in glossary("thieves-den", "de") if e["id"] == "L01")
    assert loc["name"] == game_texts("thieves-den")["de"]["loc.L01"]


def test_the_glossary_is_public_and_refuses_unknown_games(client):
    r = client.get("/api/games/cadwallon/glossary?lang=xx")
    assert r.status_code == 200 and r.json()["entries"] == glossary("cadwallon", "en")
    assert client.get("/api/games/chess/glossary").status_code == 404
    # a game without a glossary module has an empty one
    assert client.get("/api/games/toy-bids/glossary").json()["entries"] == []


# -- lobby -------------------------------------------------------------------------------
@pytest.mark.parametrize("lang", LANGS)
def test_every_lobby_option_and_choice_has_a_text_in_the_language(lang):
    for slug in GAMES:
        texts = game_texts(slug)[lang]
        for o in web_options(slug):
            assert f"option.{o.name}" in texts and f"option.{o.name}.help" in texts, (slug, o.name)
            for c in o.choices or []:
                assert f"option.{o.name}.{c}" in texts, (slug, lang, o.name, c)
    for g in games_catalog(lang):
        if g["slug"] not in GAMES:
            continue
        texts = game_texts(g["slug"])[lang]
        for o in g["options"]:
            assert o["label"] == texts[f"option.{o['name']}"]
            assert "_" not in o["label"], o
            for c, label in zip(o["choices"] or [], o["choice_labels"]):
                # the help never explains a choice by its raw value ("c_row: ..."), unless that is its word
                if label != str(c):
                    assert not re.search(rf"(^|[;(,]\s*){re.escape(str(c))}\s?:", o["help"]), (g["slug"], lang, o)
            assert o["choice_labels"] == [texts[f"option.{o['name']}.{c}"] for c in o["choices"] or []]


def test_the_lobby_shows_labels_not_ids_and_folds_the_rare_options(client):
    page = client.get("/?lang=fr").text
    for raw in ("c_row", "all_bought"):
        assert f">{raw}<" not in page  # values stay in value="...", never shown
    assert "deck C ne peut plus compléter la ligne C" in page
    cadwallon = page.split('data-slug="cadwallon"')[1].split("</article>")[0]
    main, folded = cadwallon.split('<details class="more-options">')
    assert 'name="opt_adventure"' in main and 'name="opt_fines_room"' in folded
    market = page.split('data-slug="thiefs-market"')[1].split("</article>")[0]
    assert "<fieldset" not in market.split("<details")[0]  # no main variant: every option folded


def test_play_now_makes_a_table_of_you_against_bots_with_the_default_options(client):
    r = client.post("/tables", data={"game": "thieves-den", "quick": "1", "name": "Ann", "lang": "en",
                                     "players": "5", "seat_1": "open", "opt_passed_locations": "closed"},
                    follow_redirects=False)
    assert r.status_code == 303 and "/s/" in r.headers["location"]
    tid = r.headers["location"].split("/")[2]
    summary = {x["id"]: x for x in client.get("/api/tables").json()}[tid]
    players, bot = quick_setup("thieves-den")
    assert summary["num_players"] == players and summary["status"] == "playing"
    assert summary["seats"][0]["name"] == "Ann"
    assert [s["bot"] for s in summary["seats"][1:]] == [bot] * (players - 1)
    table = client.app.state.platform.manager.tables[tid]
    assert table.rec.options == {} or all(
        table.rec.options.get(o.name, o.default) == o.default for o in web_options("thieves-den"))


def test_the_lobby_script_gets_the_seat_link_as_json(client):
    r = client.post("/tables", data={"game": "toy-bids", "players": "2", "seat_0": "you", "seat_1": "you",
                                     "name": "Ann"}, headers={"Accept": "application/json"})
    assert r.status_code == 201 and r.headers["cache-control"] == "no-store"
    body = r.json()
    assert body["url"] is None and [link["seat"] for link in body["links"]] == [0, 1]
    assert all(link["url"].startswith(f"/t/{body['id']}/s/") for link in body["links"])
    one = client.post("/tables", data={"game": "toy-bids", "quick": "1"}, headers={"Accept": "application/json"})
    assert one.status_code == 201 and one.json()["url"] == one.json()["links"][0]["url"]
    bad = client.post("/tables", data={"game": "toy-bids", "players": "9"}, headers={"Accept": "application/json"})
    assert bad.status_code == 400 and bad.json()["error"] == "bad_setup" and bad.json()["message"]


def test_the_lists_alone_for_the_lobby_to_patch(client):
    r = client.post("/api/tables", json={"game": "toy-bids", "players": 2,
                                         "seats": [{"kind": "human"}, {"kind": "open"}]})
    tid = r.json()["id"]
    lists = client.get("/lobby/lists?lang=en")
    assert lists.status_code == 200 and lists.headers["cache-control"] == "no-store"
    assert f'data-key="{tid}:open:' in lists.text and f"/t/{tid}/join/1" in lists.text
    assert "<form" in lists.text and 'class="game-card"' not in lists.text  # never the game forms


def test_a_broken_glossary_leaves_the_table_without_one(monkeypatch, caplog):
    import thieves.games.thieves_den.glossary as den
    from thieves.server import reference

    monkeypatch.setattr(den, "glossary", lambda p: [{"id": "L01", "kind": "location", "name": "x", "text": ""}] * 2)
    reference._glossary.cache_clear()
    try:
        assert glossary("thieves-den", "en") == []
        assert "names 'L01' twice" in caplog.text
    finally:
        reference._glossary.cache_clear()
