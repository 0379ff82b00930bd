"""Thief's Market in the web interface: every text a French or German player sees comes
from the templates of data/i18n.yaml in their language (i18n keys the server reads, button
texts, the prompt, log lines, the board, the rules and the score table), with the seats'
own names and no regex translator anywhere."""
from __future__ import annotations

import importlib
import re

import pytest

from ..web_texts_helpers import LANGS, random_positions, raw_texts, server_view, web_option_names  # noqa: F401

SLUG = "thiefs-market"
ENGLISH = re.compile(r"\b(the|takes|steals|buys|gains|pile|a die|dice|center|round|gold coin)\b")


def test_every_key_the_server_reads_exists_in_three_languages():
    texts = raw_texts(SLUG)
    seen, _ = random_positions(SLUG, 3, seeds=2)
    phases = {obs["phase"] for _ph, _p, obs, _a in seen} | {"over"}
    keys = ["name", "summary", "rules"] + [f"option.{o}" for o in web_option_names(SLUG)] \
        + [f"phase.{p}" for p in phases]
    for lang in LANGS:
        for k in keys:
            assert texts[lang].get(k), (lang, k)
    for k in keys[2:]:
        assert texts["fr"][k] != texts["en"][k] and texts["de"][k] != texts["en"][k], k


def test_no_regex_translator_is_left():
    from thieves.games import thiefs_market
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("thieves.games.thiefs_market.render")
    from pathlib import Path
    for path in Path(thiefs_market.__file__).parent.glob("*.py"):
        code = path.read_text(encoding="utf-8")
        assert "translate_event" not in code and "_VERBS" not in code and "event_text" not in code, path
        assert "log.append" not in code, path


@pytest.mark.parametrize("lang", ["fr", "de"])
def test_button_texts_prompts_and_log_along_random_games(lang):
    from thieves.core.registry import load_game
    game = load_game(SLUG)
    names = ["Alice", "Bruno", "Clara", "Dora"]
    seen, _ = random_positions(SLUG, 4, seeds=2)
    kinds = set()
    for _ph, p, obs, acts in seen[::3]:
        pres = game.presentation(p, names, lang)
        for a in acts:
            kinds.add(a.split()[0])
            text = pres.action_text(obs, a)
            en = game.presentation(p, names, "en").action_text(obs, a)
            assert text != a and text != en, (lang, a, text)
        prompt = pres.prompt(obs)
        assert prompt and not ENGLISH.search(prompt), (lang, prompt)
    assert {"take", "steal", "buy", "end", "done"} <= kinds
    from thieves.testing import random_game
    s = random_game(SLUG, 4, 7)
    for viewer in (None, 0):
        lines = game.presentation(viewer, names, lang).log(s.visible_events(viewer))
        assert lines and all("Player" not in ln for ln in lines)
        english = [ln for ln in lines if ENGLISH.search(ln.replace("Alice", ""))]
        assert not english, english[:3]


@pytest.mark.parametrize("lang,word", [("fr", "Prendre"), ("de", "nehmen")])
def test_server_view_in_french_and_german(tmp_path, lang, word):
    v, lobby = server_view(tmp_path, SLUG, 3, lang)
    assert "Alice" in v["svg"] and "Player 1" not in v["svg"] and "Player 2" not in v["svg"]
    legal = v["legal"]
    assert legal and all(a["text"] != a["action"] for a in legal)
    assert any(word in a["text"] for a in legal)
    assert v["prompt"] and not ENGLISH.search(v["prompt"])
    assert v["rules"] and v["rules"] == raw_texts(SLUG)[lang]["rules"]
    assert v["log"] and all("Player" not in line for line in v["log"])
    assert len(v["log_refs"]) == len(v["log"])
    # the roll and the token were named since this seat's last decision: they glow
    recent = v["observation"]["recent"]
    assert any(r.startswith("seat:") for r in recent)
    assert re.search(r'class="[^"]*\brecent\b', v["svg"])
    assert lobby["options"] and all(o["label"] != o["name"].replace("_", " ") for o in lobby["options"])
