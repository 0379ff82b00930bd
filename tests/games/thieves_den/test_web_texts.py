"""Thieves Den at the table: the log, action texts, prompts, board and end-of-game table from
templates in English, French and German, with no English leftovers, no raw ids and no
"1 locations"-style plurals; hidden cards never reach another player's log or board."""
from __future__ import annotations

import random
import re
import xml.dom.minidom

import pytest

from thieves.core.texts import TextError
from thieves.testing import check_rendered_texts, check_templates

from ..web_texts_helpers import LANGS, raw_texts, server_view, web_option_names
from .helpers import GAME

SLUG = "thieves-den"
NAMES = ["Alice", "Bruno", "Clara", "Dora", "Emil"]
#: ids that must never be shown to a person (cards, fences, tiles, schemes, treasures, types)
RAW_ID = re.compile(r"\b([LF]\d\d|P\d\d|S\d\d|shadow_valley|book|jewel|artifact|fossil|potion)\b")
#: English words that would betray an untranslated text in French or German
ENGLISH = re.compile(r"\b(the|your|thief|thieves|treasure|prestige points|round|pass|sell|gain|Player)\b")
PLACEHOLDER = re.compile(r"\{[a-z_0-9:|# ]+\}|\b(act|prompt|ui|step|score|log)\.[a-z_]+")


def svg_texts(svg: str) -> list[str]:
    return re.findall(r"<text[^>]*>([^<]*)</text>", svg)


@pytest.fixture(scope="module")
def positions():
    """(observation, legal actions, viewer) along random games of 2 to 5 players, to the end."""
    out = []
    for n, seed in ((2, 1), (3, 2), (4, 3), (5, 4)):
        s = GAME.new_game(n, seed)
        rng = random.Random(seed)
        while not s.is_terminal():
            p = s.players_to_act()[rng.randrange(len(s.players_to_act()))]
            acts = s.legal_actions(p)
            out.append((s.observation(p), acts, p))
            s.apply_action(p, rng.choice(acts))
        out.append((s.observation(0), [], 0))
        out.append((s.observation(None), [], None))
    return out


def test_every_event_key_has_templates_in_three_languages():
    check_templates(SLUG)


@pytest.mark.parametrize("players", [2, 4])
def test_every_log_line_renders_strictly_in_french_and_german(players):
    assert check_rendered_texts(SLUG, players, range(2)) > 500


def test_action_texts_and_prompts_in_three_languages(positions):
    kinds = set()
    for obs, acts, p in positions[::3]:
        pres = {lang: GAME.presentation(p, NAMES, lang) for lang in LANGS}
        for a in acts:
            kinds.add(a.split()[0])
            en, fr, de = (pres[lang].action_text(obs, a) for lang in LANGS)
            for text in (en, fr, de):
                assert not RAW_ID.search(text) and not PLACEHOLDER.search(text) and "None" not in text, (a, text)
            assert fr != en and de != en, (a, en, fr, de)
            assert not ENGLISH.search(fr) and not ENGLISH.search(de), (a, fr, de)
        prompts = [pres[lang].prompt(obs) for lang in LANGS]
        assert all(prompts) and prompts[1] != prompts[0] and prompts[2] != prompts[0]
        for text in prompts:
            assert not RAW_ID.search(text) and not PLACEHOLDER.search(text), text
    assert {"keep", "loc", "sell", "witch", "steal", "recruit", "pass", "power"} <= kinds, kinds


def test_prompts_say_what_the_choice_is_for():
    s = GAME.new_game(3, 5)
    s.phase, s.turn = "thieving", 0
    s.treasures[0] = {"book": 3, "jewel": 3, "artifact": 3, "fossil": 0, "potion": 0}
    s.pending = [{"k": "discard", "p": 0}]
    s._legal_cache = None
    pres = GAME.presentation(0, NAMES, "en")
    assert pres.prompt(s.observation(0)) == ("Choose the treasure to discard (click one of yours): "
                                             "you hold 9, the limit is 8.")
    assert "vous en avez 9, la limite est 8" in GAME.presentation(0, NAMES, "fr").prompt(s.observation(0))
    svg = pres.svg(s.observation(0))
    assert 'data-action="discard book"' in svg and 'data-action="discard fossil"' not in svg
    s.pending = [{"k": "rob", "p": 0, "n": 1, "mode": "take"}]
    s.treasures[1]["jewel"] = 2
    s._legal_cache = None
    assert "take" in pres.prompt(s.observation(0))
    assert 'data-action="rob 2 jewel"' in pres.svg(s.observation(0))   # click the treasure itself


@pytest.mark.slow
def test_board_is_readable_clickable_and_in_the_viewers_language(positions):
    for obs, acts, p in positions[::7]:
        for lang in LANGS:
            svg = GAME.presentation(p, NAMES, lang).svg(obs)
            xml.dom.minidom.parseString(svg)
            sizes = [float(x) for x in re.findall(r'font-size="([\d.]+)"', svg)]
            assert min(sizes) >= 13, min(sizes)      # 940 wide in a ~920 px board: >= 12 px
            assert 'viewBox="0 0 940 ' in svg
            for text in svg_texts(svg):
                assert not RAW_ID.search(text) and not PLACEHOLDER.search(text), (lang, text)
                if lang != "en":
                    assert not ENGLISH.search(text), (lang, text)
            drawn = set(re.findall(r'data-action="([^"]+)"', svg))
            assert drawn <= set(acts), drawn - set(acts)     # nothing clickable that is not legal
        on_board = {a for a in acts if f'data-action="{a}"' in svg}
        generic = {a for a in acts if a in ("pass", "done", "steal")}
        if acts:
            assert len(on_board | generic) >= 0.9 * len(acts), set(acts) - on_board


def test_plurals_are_right():
    pres = GAME.presentation(0, NAMES, "en")
    text = pres.t("ui.collected", a=1, b=2)
    assert text == "collected 1 location, 2 fences"
    assert pres.t("log.forest", player=0, n=1) == "Alice takes 1 thief from the Forest."
    assert pres.treasures_text({"jewel": 2, "book": 1}) == "2 Jewels + 1 Book"
    fr = GAME.presentation(0, NAMES, "fr")
    assert fr.t("ui.collected", a=1, b=0) == "1 lieu acquis, 0 receleur"
    de = GAME.presentation(0, NAMES, "de")
    assert de.treasures_text({"book": 2}) == "2 Bücher"


def test_score_table_by_the_rulebook_categories(positions):
    obs = positions[-2][0]
    assert obs["terminal"]
    s_winners = [0]
    for lang in LANGS:
        table = GAME.presentation(0, NAMES, lang).score_table(obs, [0.0] * 5, s_winners)
        assert table["columns"] == NAMES[:5]
        labels = [r[0] for r in table["rows"]]
        assert len(labels) == 6
        total = table["rows"][-1][1:]
        assert total == [pl["prestige"] for pl in obs["players"]]
        for q in range(5):   # play + majorities + scheme = total
            assert table["rows"][0][1 + q] + table["rows"][2][1 + q] + table["rows"][4][1 + q] == total[q]


def test_rules_summary_in_three_languages():
    texts = [GAME.presentation(0, NAMES, lang).rules() for lang in LANGS]
    assert all(t and t.count("# ") >= 5 for t in texts)
    assert texts[0] != texts[1] != texts[2]


def test_secret_picks_read_differently_by_owner_and_others():
    s = GAME.new_game(3, 9)
    c = s.hands[1][0]
    s.apply_action(1, f"keep {c}")
    name = s.data.locations[c].name
    assert any(name in line for line in s.visible_log(1))
    for viewer in (0, 2, None):
        assert not any(name in line or c in line for line in s.visible_log(viewer))
        assert any("has picked a card" in line for line in s.visible_log(viewer))


@pytest.mark.parametrize("lang", ["fr", "de"])
def test_server_view_in_french_and_german(tmp_path, lang):
    v, _lobby = server_view(tmp_path, SLUG, 3, lang)
    assert v["prompt"] and v["prompt"] != "draft"
    assert v["legal"] and all(a["text"] != a["action"] for a in v["legal"])
    assert "Alice" in v["svg"] and "Player 1" not in v["svg"]
    assert v["rules"] and v["log"]
    for line in v["log"] + [a["text"] for a in v["legal"]] + [v["prompt"]]:
        assert not ENGLISH.search(line) and not RAW_ID.search(line), line


def test_lobby_name_and_option_labels_in_french():
    texts = raw_texts(SLUG)
    assert texts["fr"].get("name") == "Les Voleurs d'Amarynth"
    for o in web_option_names(SLUG):
        assert texts["fr"].get(f"option.{o}")


def test_strict_rendering_of_a_missing_template_fails():
    with pytest.raises(TextError):
        GAME.texts().format("fr", "log.no_such_event", {}, NAMES, strict=True)


def test_terminal_view_has_the_boards_information_in_the_players_language():
    s = GAME.new_game(3, 4)
    for lang, words in (("en", ("majority", "Scheme sets", "picking", "Witch")),
                        ("fr", ("majorité", "Séries d'objectif", "choisit", "Sorcière")),
                        ("de", ("Mehrheit", "Plan-Sets", "wählt", "Hexe"))):
        txt = GAME.presentation(0, NAMES, lang).text_view(s.observation(0))
        assert all(w in txt for w in words), (lang, txt)
        assert not RAW_ID.search(txt) and not PLACEHOLDER.search(txt), txt
        for fid in s.row:
            if fid:
                assert GAME.texts().get(lang, f"fence.{fid}") in txt
    s.apply_action(1, s.legal_actions(1)[0])
    txt = GAME.presentation(0, NAMES, "en").text_view(s.observation(0))
    assert "Bruno" in txt and "has picked" in txt
