"""Age of Thieves in three languages from templates: the log (structured events), action
texts, prompts, the board's words, the text view, the lobby's options; no raw ids anywhere;
and the secret plan stays behind the screen on every channel."""
from __future__ import annotations

import json
import re

import pytest

from thieves.core.texts import LANGS, placeholders, seat_names
from thieves.testing import check_rendered_texts, check_templates

from ..web_texts_helpers import random_positions, raw_texts, server_view, web_option_names
from .helpers import GAME, act, fresh, give

SLUG = "age-of-thieves"
NAMES = seat_names(3)
#: what a player must never read: space ids (N12, P3), exit and figure ids, snake_case ids, ".."
RAW = re.compile(r"\b[NSEWP]\d{1,2}\b|\b[NSEW]-(gate|ship)\d\b|\b[gc]\d{1,2}\b|[a-z]+_[a-z_]+|\.\.|\{|\}")
SVG_TEXT = re.compile(r"<text[^>]*>([^<]*)</text>")


@pytest.fixture(scope="module")
def games():
    return random_positions(SLUG, 3, seeds=3, max_plies=500)


def test_every_emitted_event_has_templates_in_three_languages():
    check_templates(SLUG)


def test_logs_render_strictly_in_french_and_german_along_random_games():
    assert check_rendered_texts(SLUG, 3, [0, 1]) > 1000
    assert check_rendered_texts(SLUG, 2, [5], options={"placement_arrests": "all"}) > 100


def test_log_lines_show_no_raw_ids_in_any_language():
    from thieves.testing import random_game
    for n, seed in ((2, 6), (4, 7)):
        s = random_game(SLUG, n, seed)
        for lang in LANGS:
            for viewer in (None, 0):
                for line in s.visible_log(viewer, lang=lang, names=seat_names(n)):
                    assert not RAW.search(line), (lang, line)


def test_table_texts_exist_in_every_language_with_the_same_placeholders():
    texts = GAME.texts().table
    prefixes = ("act.", "prompt.", "ui.", "effect.", "cardtext.", "ability.", "option.", "how.", "end.",
                "figure.", "card.", "token.", "gem.", "district.", "kind.", "event.", "log.")
    keys = [k for k in texts["en"] if k.startswith(prefixes)]
    assert len(keys) > 300
    for lang in ("fr", "de"):
        for k in keys:
            assert k in texts[lang], (lang, k)
            assert set(placeholders(texts[lang][k])) == set(placeholders(texts["en"][k])), (lang, k)
    assert texts["en"]["rules"] and texts["fr"]["rules"] != texts["en"]["rules"]


def _words(pres, obs, acts):
    out = [pres.action_text(obs, a) for a in acts]
    out.append(pres.prompt(obs) or "")
    out.append(pres.text_view(obs))
    out += SVG_TEXT.findall(pres.svg(obs))
    return out


def test_actions_prompts_board_and_text_view_show_no_raw_ids(games):
    seen, _ = games
    verbs = set()
    for i, (_ph, p, obs, acts) in enumerate(seen):
        if i % 7:
            continue  # a sample keeps it fast
        verbs |= {a.split()[0] for a in acts}
        for lang in LANGS:
            pres = GAME.presentation(p, NAMES, lang)
            for w in _words(pres, {**obs, "recent": []}, acts):
                assert not RAW.search(w), (lang, w)
        en = [GAME.presentation(p, NAMES, "en").action_text(obs, a) for a in acts]
        for lang in ("fr", "de"):
            other = [GAME.presentation(p, NAMES, lang).action_text(obs, a) for a in acts]
            assert [a for a, e, o in zip(acts, en, other) if e == o and a not in ("sprint",)] == []
    assert {"start", "plan", "ap", "done", "to", "stop"} <= verbs


def test_text_view_names_every_token_of_the_observation():
    s = fresh("zain,jasmine")
    s.features = {"E43": "alley", "E30": "manhole"}
    s.tokens = {"N13": "stash", "P1": "informer"}
    s.ev = s.calm_deck[0]
    o = s.observation(0)
    pres = GAME.presentation(0, ["A", "B"], "en")
    text = pres.text_view(o)
    assert "Dark Alley: " + pres.term("space", "E43") in text and "Manhole" in text
    line = next(x for x in text.splitlines() if x.startswith("face-down city token"))
    assert pres.term("space", "N13") in line and pres.term("space", "P1") in line
    effect = GAME.presentation(0, ["A", "B"], "en").event_effect({**o["event"], "alarm": False})
    assert effect and effect in text
    assert "Sneak 4 / Sprint 6" in GAME.presentation(0, ["A", "B"], "en").action_text(o, "plan move")


def test_your_plan_reaches_no_other_seat():
    """Planning is secret (Rulebook §3): nothing of seat 0's plan shows in the other seats'
    observation, board or log while it is made, only that seat 0 has finished."""
    s = fresh("zain,jasmine,joanne")
    s.thieves[0]["sheet"] = ["informer"]
    give(s, 0, "cloak")
    hand = sorted(s.thieves[0]["hand"])

    def seen_by(q):
        o = s.observation(q)
        o = {k: v for k, v in o.items() if k not in ("ply", "legal", "to_act", "log")}
        svg = GAME.presentation(q, NAMES, "en").svg({**o, "recent": []})
        return json.dumps(o, sort_keys=True), svg, s.visible_log(q, names=NAMES)
    before = {q: seen_by(q) for q in (1, 2, None)}
    steps = ["plan move", "ap 5", "add informer"]
    if hand:
        steps += [f"plan {hand[0].rstrip('0123456789')}", "ap 2"]
    for a in steps:
        act(s, 0, a)
        assert {q: seen_by(q) for q in (1, 2, None)} == before, a
    mine = GAME.presentation(0, NAMES, "en").svg({**s.observation(0), "recent": []})
    assert "Your secret plan" in mine and "6 AP" in mine  # 5 AP + the Informer, shown to seat 0
    act(s, 0, "done")
    for q in (1, 2, None):  # only "has finished planning" is new to the others
        o, svg, log = seen_by(q)
        assert o.replace('"planning_done": true', '"planning_done": false', 1) == before[q][0]
        assert svg.replace("planning done", "planning…", 1) == before[q][1]
        assert log == before[q][2] + [f"{NAMES[0]} has finished planning."]
    assert any("Your plan: Move with 6 AP." == line for line in s.visible_log(0, names=NAMES))


def test_lobby_options_in_three_languages(tmp_path):
    texts = raw_texts(SLUG)
    for name in web_option_names(SLUG):
        for lang in LANGS:
            assert texts[lang].get(f"option.{name}") and texts[lang].get(f"option.{name}.help"), (lang, name)
        opt = next(o for o in GAME.all_options() if o.name == name)
        for c in opt.choices or []:
            labels = [texts[lang].get(f"option.{name}.{c}") for lang in LANGS]
            assert all(labels) and len(set(labels)) == 3, (name, c, labels)
    _v, lobby = server_view(tmp_path, SLUG, 3, "de")
    shown = [o["label"] for o in lobby["options"]] + [c for o in lobby["options"] for c in o["choice_labels"]]
    assert not any("_" in x for x in shown), shown
    assert "Verhaftung beim Aufstellen" in shown


@pytest.mark.parametrize("lang", ["fr", "de"])
def test_server_view_in_french_and_german(tmp_path, lang):
    v, _lobby = server_view(tmp_path, SLUG, 3, lang)
    assert v["legal"] and all(a["text"] != a["action"] and not RAW.search(a["text"]) for a in v["legal"])
    start = {"fr": "a fait le plus haut jet", "de": "hat am höchsten gewürfelt"}[lang]
    assert any(start in line for line in v["log"]) and not any("rolled highest" in ln for ln in v["log"])
    assert v["prompt"] and not RAW.search(v["prompt"]) and v["rules"]
    assert 'data-action="start ' in v["svg"]  # the start spaces are clicked on the board
