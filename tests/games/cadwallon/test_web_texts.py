"""Cadwallon at the table in three languages: the log from templates (no English left in
French or German, plurals, no raw ids), action texts, prompts that say what a choice is for
and are never doubled, the board (named characters in their seat colour, the hand as cards,
clicks only on legal actions), the end-of-game table, the rules summary, the text map, and
hidden hands that never reach another seat's log or board."""
from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET

import pytest

from thieves.core.registry import load_game
from thieves.core.svg import SEAT_COLORS
from thieves.core.texts import TextError
from thieves.testing import check_rendered_texts, check_templates

from ..web_texts_helpers import LANGS, raw_texts, server_view

SLUG = "cadwallon"
GAME = load_game(SLUG)
DATA = GAME.data()
NAMES = ["Ann", "Bruno", "Clara", "Dora"]
ADVENTURES = [a.id for a in DATA.adventures.adventures]


def pres(viewer, lang="en", n=4):
    return GAME.presentation(viewer, NAMES[:n], lang)


def walk(n, seed, options=None, max_plies=4000):
    """States along a random game (the state is the same object, moved on)."""
    s = GAME.new_game(n, seed, options or {})
    rng = random.Random(seed)
    for _ in range(max_plies):
        yield s
        if s.is_terminal():
            return
        p = s.players_to_act()[0]
        s.apply_action(p, rng.choice(s.legal_actions(p)))


def english_names(lang):
    """English names (talents, arcana, missions, adventures, treasures, gangs, rooms) whose
    text in ``lang`` differs: none may stay in a line in that language."""
    en, tr = GAME.texts().table["en"], GAME.texts().table[lang]
    prefixes = ("talent.", "card.", "mission.", "adv.", "treasure.", "gang.", "room.", "event.")
    return {v for k, v in en.items() if k.startswith(prefixes) and not k.endswith(".effect")
            and tr.get(k) != v and len(v) > 3}


def leftovers(text, lang):
    return [n for n in english_names(lang) if re.search(r"(?<!\w)" + re.escape(n) + r"(?!\w)", text)]


RAW_IDS = re.compile(r"\b([ENKC][1-4]|M\d\d|P\d|kornak|valrut|sienne|isabeau|niggling_injury|second_wind|"
                     r"pickpocket|reinforced_lock|skeleton_key|hidden_purse|secret_passage|dukes_treasure|"
                     r"shadow_step|lucky_hands)\b")


# ------------------------------------------------------------------ templates and the log
def test_every_event_has_templates_in_three_languages():
    check_templates(SLUG)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_every_logged_event_renders_strictly_in_french_and_german(n):
    assert check_rendered_texts(SLUG, n, seeds=range(2)) > 200


def test_no_english_event_text_and_no_regex_translator_left():
    from pathlib import Path
    pkg = Path(__import__("thieves.games.cadwallon", fromlist=["x"]).__file__).parent
    assert not (pkg / "i18n_text.py").exists() and not (pkg / "render.py").exists()
    code = " ".join(p.read_text() for p in pkg.glob("*.py"))
    assert "event_text(" not in code and "log.append" not in code


@pytest.mark.parametrize("adventure", ADVENTURES)
def test_every_adventure_logs_in_three_languages_with_no_english_left(adventure):
    texts = GAME.texts()
    adv = DATA.adventure[adventure]
    keys, lines = set(), {lang: [] for lang in LANGS}
    for seed, n in ((0, 2), (1, 3), (2, 4)):
        for s in walk(n, seed, {"adventure": adventure}):
            pass
        assert s.is_terminal()
        for viewer in (None, 0):
            for ev in s.visible_events(viewer):
                keys.add(ev["key"])
                for lang in LANGS:
                    lines[lang].append(texts.event(ev, lang, NAMES[:n], strict=lang != "en"))
    fired = {ln for ln in lines["en"] if ln.startswith("Event: ")}
    assert fired == {f"Event: {e.text}" for e in adv.events if e.text}   # every event of the track
    assert keys & {"over_track", "over_empty"} and "final" in keys
    for lang in ("fr", "de"):
        for ln in lines[lang]:
            assert not leftovers(ln, lang), (lang, ln)
            assert not RAW_IDS.search(ln), (lang, ln)
            assert "(s)" not in ln and "/" not in ln.replace("-", ""), (lang, ln)   # real plurals
    assert texts.format("fr", "log.over_empty", {}, NAMES) == \
        "Fin de la partie : il ne reste aucun voleur dans le quartier."


def test_plurals_and_german_word_order():
    t = GAME.texts()
    assert t.format("fr", "log.leaves", {"char": "N1", "n": 1}, NAMES) == "Silk quitte le quartier avec 1 trésor."
    assert t.format("fr", "log.leaves", {"char": "N1", "n": 2}, NAMES) == "Silk quitte le quartier avec 2 trésors."
    assert t.format("de", "log.leaves", {"char": "N1", "n": 1}, NAMES) == "Silk verlässt das Viertel mit 1 Schatz."
    assert t.format("de", "log.leaves", {"char": "N1", "n": 3}, NAMES) == "Silk verlässt das Viertel mit 3 Schätzen."
    # German: the victim before the object ("nimmt Bruno 2 Dukaten ab")
    assert t.format("de", "log.pickpocket", {"player": 0, "card": "pickpocket", "n": 2, "victim": 1}, NAMES) \
        == "Ann spielt Taschendieb und nimmt Bruno 2 Dukaten ab."
    assert t.format("de", "log.deploy", {"player": 0, "char": "E1", "zone": "b1"}, NAMES) \
        == "Ann stellt Leona auf b1 auf."
    assert t.format("en", "log.moves", {"char": "E1", "zone": "b1", "dest": "c3"}, NAMES) \
        == "Leona moves from b1 to Library (c3)."
    with pytest.raises(TextError):
        t.format("fr", "log.moves", {"char": "ZZ", "zone": "b1", "dest": "c3"}, NAMES, strict=True)


# ------------------------------------------------------------------ action texts and prompts
def _positions(n=3, seeds=3):
    for seed in range(seeds):
        for s in walk(n, seed):
            if s.is_terminal():
                break
            p = s.players_to_act()[0]
            yield s, p


def test_every_action_kind_has_words_in_three_languages_without_ids():
    kinds = {}
    for s, p in _positions():
        obs = s.observation(p)
        for a in s.legal_actions(p):
            kinds.setdefault(a.split()[0], (a, obs, p))
    assert {"gang", "deploy", "at", "militia", "mm", "act", "move", "end", "card", "nocard", "play",
            "flee", "open", "force", "attack"} <= set(kinds)
    for kind, (a, obs, p) in kinds.items():
        words = {lang: pres(p, lang, 3).action_text(obs, a) for lang in LANGS}
        assert len(set(words.values())) == 3 and a not in words.values(), (a, words)
        for lang in LANGS:
            assert not RAW_IDS.search(words[lang]), (lang, a, words[lang])
        for lang in ("fr", "de"):
            assert not leftovers(words[lang], lang), (lang, a, words[lang])


def test_prompts_say_what_the_choice_is_for_and_are_never_doubled():
    seen = {}
    for s, p in _positions(seeds=2):
        obs = s.observation(p)
        key = (obs["pending"] or {}).get("kind") or obs["phase"] + ("+" if obs.get("active") else "")
        if key in seen:
            continue
        seen[key] = {lang: pres(p, lang, 3).prompt(obs) for lang in LANGS}
        other = pres((p + 1) % 3, "fr", 3).prompt(s.observation((p + 1) % 3))
        assert other == GAME.texts().get("fr", f"phase.{obs['phase']}")   # a waiting seat: the phase
    assert {"gang", "deploy", "militia", "militia_move", "main", "main+", "card"} <= set(seen)
    for key, words in seen.items():
        assert len(set(words.values())) == 3, (key, words)
        for lang, text in words.items():
            assert text and not re.match(r"(Your turn|À vous|Du bist dran)", text), (key, text)
            assert "{" not in text and not RAW_IDS.search(text), (key, text)
    assert "AP" in seen["main"]["en"] and "PA" in seen["main"]["fr"]       # the AP left are said


def test_server_view_prompt_is_not_doubled_and_names_the_seats(tmp_path):
    for lang in ("fr", "de"):
        v, lobby = server_view(tmp_path / lang, SLUG, 2, lang)
        texts = raw_texts(SLUG)[lang]
        assert v["game_name"] == texts["name"] and lobby["summary"] == texts["summary"]
        # the page puts "your turn" before the prompt: the prompt never says it again
        assert v["prompt"] == texts["prompt.gang"]
        assert not re.search(r"Your turn|À vous|Du bist (dran|am Zug)", v["prompt"])
        assert "Alice" in v["svg"] and "Player 1" not in v["svg"]
        assert v["rules"] and v["rules"] != raw_texts(SLUG)["en"]["rules"]
        assert all(item["text"] != item["action"] for item in v["legal"])


# ------------------------------------------------------------------ the board
def _main_state(n=3, seed=4, plies=140):
    for s in walk(n, seed):
        if s.ply >= plies and s.phase == "main" and not s.queue:
            return s
    raise AssertionError("no main-phase position")


def test_board_names_characters_in_their_seat_colour_and_shows_the_hand_as_cards():
    s = _main_state()
    p = s.players_to_act()[0]
    for lang in LANGS:
        svg = pres(p, lang, 3).svg(s.observation(p))
        root = ET.fromstring(svg)
        drawn = " ".join(t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text"))
        for q, g in enumerate(s.gangs):
            for c in DATA.gang_chars[g]:
                assert DATA.char[c].name in drawn                    # names, never N1
            assert SEAT_COLORS[q] in svg                             # the panel colour of the seat
            assert NAMES[q] in drawn
        assert not re.search(r">[ENKC][1-4]<", svg)
        for k in s.hands[p]:                                         # the hand: names and effects
            assert GAME.texts().get(lang, f"card.{k}") in drawn
            effect = GAME.texts().get(lang, f"card.{k}.effect")
            assert effect.split()[0] in drawn
        clicks = {e.get("data-action") for e in root.iter() if e.get("data-action")}
        assert clicks and clicks <= set(s.legal_actions(p))         # only legal actions clickable
        for size in re.findall(r'font-size="([\d.]+)"', svg):
            assert float(size) >= 13


def test_most_decisions_can_be_made_on_the_board():
    total = on_board = 0
    for s, p in _positions(n=2, seeds=2):
        root = ET.fromstring(pres(p, "en", 2).svg(s.observation(p)))
        clicks = {e.get("data-action") for e in root.iter() if e.get("data-action")}
        legal = s.legal_actions(p)
        if len(legal) == 1:   # the table answers it itself
            continue
        total += len(legal)
        on_board += sum(a in clicks for a in legal)
    assert on_board / total > 0.8, on_board / total


def test_fight_shows_both_sides_dice_cards_and_result():
    for s in walk(3, 7):
        if s.fight and not s.queue:
            break
    f = s.fight
    svg = pres(None, "de", 3).svg(s.observation(None))
    drawn = " ".join(re.findall(r">([^<]*)</text>", svg))
    assert "Letzter Kampf" in drawn or "Kampf" in drawn
    assert DATA.name_of[f["att"]] in drawn and DATA.name_of[f["def"]] in drawn
    assert ("gewinnt" in drawn) and ("verliert" in drawn)
    assert svg.count('class="die"') == len(f["ratt"]) + len(f["rdef"])


# ------------------------------------------------------------------ hidden information
def test_hidden_hands_never_reach_another_seats_log_or_board():
    for seed in range(1):
        for i, s in enumerate(walk(4, 40 + seed, max_plies=700)):
            if i % 29:
                continue
            for p in range(4):
                twin = s.clone()
                pool = [k for q in range(4) if q != p for k in twin.hands[q]] + twin.deck
                random.Random(i).shuffle(pool)
                for q in range(4):
                    if q != p:
                        k = len(twin.hands[q])
                        twin.hands[q], pool = sorted(pool[:k]), pool[k:]
                twin.deck = pool
                for lang in ("en", "fr"):
                    a, b = pres(p, lang), pres(p, lang)
                    assert a.svg(s.observation(p)) == b.svg(twin.observation(p))
                    assert s.visible_log(p, lang=lang) == twin.visible_log(p, lang=lang)
                    assert a.text_view(s.observation(p)) == b.text_view(twin.observation(p))
            for ev in s.visible_events(1):
                if ev["key"] == "draw":
                    assert ev["args"]["player"] == 1 and "card" in ev["args"]
                if ev["key"] == "draw.public":
                    assert ev["args"]["player"] != 1 and "card" not in ev["args"]


# ------------------------------------------------------------------ the end, the rules, the text map
def test_end_of_game_table_by_the_rulebooks_categories():
    for seed in range(12):
        for s in walk(3, seed):
            pass
        table = pres(None, "fr", 3).score_table(s.observation(None), s.scores(), s.winners())
        assert table["columns"] == NAMES[:3]
        labels = [r[0] for r in table["rows"]]
        assert labels[0] == "Ducats" and any("Gemmes rouges" in x for x in labels)
        assert any("restés" in x for x in labels) and any("départage" in x for x in labels)
        total = next(r for r in table["rows"] if r[0].startswith("Total"))
        assert total[1:] == [int(x) for x in s.scores()]
        assert table["rows"][-1] is total                          # the total comes last
        for q in range(3):
            raw = sum(r[1 + q] for r in table["rows"][:4])
            assert total[1 + q] == max(0, raw)
        tied = s.scores().count(max(s.scores())) > 1
        assert (table["tiebreak"] is not None) == tied
        if tied:
            break


def test_rules_summary_in_three_languages():
    rules = {lang: pres(0, lang).rules() for lang in LANGS}
    assert len(set(rules.values())) == 3
    for lang, text in rules.items():
        assert text.count("# ") >= 5 and len(text) > 1200, lang
    assert "ducats" in rules["fr"] and "Dukaten" in rules["de"]


def test_text_map_shows_walls_doors_and_deployment_zones():
    s = _main_state()
    text = s.render_text(0)
    grid = text.split("\n")[-22:]
    assert any("#" in row and "D" in row for row in grid)                    # red walls and doors
    assert "^" in text or "==" in text                                        # deployment zones
    assert "Door" in text and "Red wall" in text and "Deployment zone" in text
    assert "Your hand" in text and "Your hand" not in s.render_text(None)
    assert "N1" not in text and "Silk" in text or "Leona" in text


def test_room_names_are_drawn_whole_on_two_lines_that_fit_their_zone():
    from thieves.games.cadwallon.board_svg import room_lines
    s = _main_state()
    for lang in LANGS:
        svg = pres(0, lang, 3).svg(s.observation(0))
        drawn = " ".join(re.findall(r">([^<]*)</text>", svg)).replace("&#x27;", "'")
        for z in DATA.rooms:
            name = GAME.texts().get(lang, f"room.{z}")
            lines = room_lines(name)
            assert len(lines) <= 2 and all(len(ln) <= 13 for ln in lines), (lang, z, lines)
            squeeze = lambda t: t.replace(" ", "").replace("\u00ad", "").replace("-", "")  # noqa: E731
            assert squeeze("".join(lines)) == squeeze(name), (lang, z, lines)
            assert all(ln in drawn for ln in lines), (lang, z, lines)
