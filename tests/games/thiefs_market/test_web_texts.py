"""Thief's Market in the web interface: every text a French or German player sees is in
their language (i18n keys the server reads, button texts, log lines, seat names on the board)."""
from __future__ import annotations

import pytest

from ..web_texts_helpers import LANGS, random_positions, raw_texts, server_view, web_option_names  # noqa: F401


SLUG = "thiefs-market"
from thieves.games.thiefs_market import render as R  # noqa: E402


def test_every_key_the_server_reads_exists_in_three_languages():
    texts = raw_texts(SLUG)
    seen, _ = random_positions(SLUG, 3, seeds=2)
    phases = {obs["phase"] for _ph, _p, obs, _a in seen} | {"over"}
    keys = ["name", "summary"] + [f"option.{o}" for o in web_option_names(SLUG)] + [f"phase.{p}" for p in phases]
    for lang in LANGS:
        for k in keys:
            assert texts[lang].get(k), (lang, k)
    for k in keys[2:]:
        assert texts["fr"][k] != texts["en"][k] and texts["de"][k] != texts["en"][k], k


def test_describe_action_gives_words_for_every_action_kind():
    seen, _ = random_positions(SLUG, 4, seeds=3)
    kinds = {}
    for _ph, _p, obs, acts in seen:
        for a in acts:
            kinds.setdefault(a.split()[0] + ("T" if a.endswith(" T") else ""), (a, obs))
    assert {"take", "takeT", "steal", "buy", "end", "done"} <= set(kinds)
    for kind, (a, obs) in kinds.items():
        en, fr, de = (R.describe_action(a, obs, lg) for lg in LANGS)
        assert fr != a and de != a and en != a, (kind, a)
        assert fr != en and de != en, (kind, a, fr, de)
    # every notation of the rules, also those a random game rarely reaches
    for a in ["take R", "take T", "take all", "done", "steal 2", "return G", "return T", "reroll P", "keep",
              "pay W", "gold B", "free R", "end", "buy A7", "use A1 W", "use A3"]:
        for lg in ("fr", "de"):
            assert R.describe_action(a, {}, lg) not in (a, R.describe_action(a, {}, "en")), (a, lg)
    assert R.describe_action("take R", {}, "fr") == "Prendre un dé rouge"
    assert R.describe_action("steal 2", {}, "de") == "Haufen von Player 2 stehlen"  # seat name put in by the server


def test_translate_event_turns_each_english_pattern_into_french_and_german():
    for pattern, texts in R.EVENTS:
        assert set(texts) == {"fr", "de"}, pattern
    _, lines = random_positions(SLUG, 4, seeds=3)
    for line in set(lines):
        for lg in ("fr", "de"):
            assert R.translate_event(line, lg) != line, (lg, line)


def test_the_board_draws_player_n_so_the_server_can_put_seat_names_in():
    seen, _ = random_positions(SLUG, 3, seeds=1, max_plies=30)
    for _ph, _p, obs, acts in seen[:5]:
        for lg in LANGS:
            svg = R.render_svg({**obs, "legal": acts}, lg)
            assert "Player 1" in svg and "Joueur 1" not in svg and "Spieler 1" not in svg


@pytest.mark.parametrize("lang,word", [("fr", "Prendre"), ("de", "nehmen")])
def test_server_view_in_french_and_german(tmp_path, lang, word):
    v, lobby = server_view(tmp_path, SLUG, 3, lang)
    assert "Alice" in v["svg"] and "Player 1" not in v["svg"] and "Player 2" not in v["svg"]
    legal = v["legal"]
    if legal:
        assert all(a["text"] != a["action"] for a in legal)
    assert any(word in a["text"] for a in legal) or not legal
    assert v["prompt"] not in ("split", "take", "buy")
    assert lobby["options"] and all(o["label"] != o["name"].replace("_", " ") for o in lobby["options"])
