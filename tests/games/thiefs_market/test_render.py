"""Presentation: SVG drawing, plain-text board, action descriptions, translations."""
import re
import xml.dom.minidom

import pytest

from thieves.core.rng import Rng
from thieves.games.thiefs_market.components import load_i18n, load_tables
from thieves.games.thiefs_market.render import render_svg
from thieves.testing import random_step

from .util import GAME, card, counts, fresh, give


def test_i18n_has_every_card_in_three_languages():
    t = load_tables(None)
    i18n = load_i18n(None, t.ids)
    for lang in ("en", "fr", "de"):
        tx = i18n.lang(lang)
        assert all(tx[cid] and tx[f"{cid}.effect"] for cid in t.ids)
        assert {k for k in tx if not k[:1].isupper()} == {k for k in i18n.en if not k[:1].isupper()}
    assert [i18n.en[cid] for cid in t.ids] == t.names
    assert i18n.fr["A4"] == "Fonctionnaire Corrompu"
    assert i18n.en["name"] == "Thief's Market" and "option.start_player" in i18n.de


def test_i18n_missing_card_is_an_error(tmp_path):
    import yaml
    from thieves.core.errors import DataError
    from thieves.games.thiefs_market import components
    raw = yaml.safe_load(open(components.__file__.replace("components.py", "data/i18n.yaml"),
                              encoding="utf-8"))
    del raw["de"]["B7.effect"]
    (tmp_path / "i18n.yaml").write_text(yaml.safe_dump(raw, allow_unicode=True), encoding="utf-8")
    with pytest.raises(DataError, match="B7"):
        load_i18n(str(tmp_path), load_tables(None).ids)


def test_translated_button_texts_and_prompt():
    from thieves.games.thiefs_market.render import describe_action, prompt
    s = fresh(3)
    obs = s.observation(0)
    assert describe_action("buy A4", obs, "fr") == "Acheter: Fonctionnaire Corrompu"
    assert describe_action("use A1 W", obs, "en") == "Use: Alchemical Lab -> white"
    assert describe_action("take R", obs, "de") == "Einen Würfel Rot nehmen"
    assert prompt(obs, "de") == "Beute aufteilen"


@pytest.mark.parametrize("lang", ["en", "fr", "de"])
def test_svg_is_valid_and_every_legal_action_is_clickable(lang):
    s = GAME.new_game(4, 21)
    rng = Rng.from_seed(21)
    step = 0
    while not s.is_terminal():
        if step % 23 == 0:
            p = s.players_to_act()[0]
            obs = s.observation(p)
            svg = render_svg(obs, lang)
            xml.dom.minidom.parseString(svg)
            actions = set(re.findall(r'data-action="([^"]*)"', svg))
            assert actions == set(s.legal_actions(p))
            other = render_svg(s.observation((p + 1) % 4), lang)
            assert not re.findall(r'data-action="', other)   # nothing to click out of turn
        random_step(s, rng)
        step += 1
    xml.dom.minidom.parseString(render_svg(s.observation(None), lang))


def test_svg_hides_other_players_infamy():
    s = fresh(3)
    s.infamy = [5, 987, 654]
    svg = render_svg(s.observation(0))
    assert "Infamy: 5" in svg and "987" not in svg and "654" not in svg


def test_render_text_and_descriptions():
    s = fresh(3)
    s.infamy = [5, 987, 654]
    txt = s.render_text(0)
    assert "Round 1" in txt and "Market A" in txt and "infamy 5" in txt and "987" not in txt
    for a in s.legal_actions(0):
        assert s.describe_action(a)
    assert s.describe_action("take R") == "take a red gem die"
    assert "Alchemical Lab" in s.describe_action("buy A1")
    assert s.describe_action("nonsense") == "nonsense"


def test_junk_actions_get_a_clear_reason():
    s = fresh(3)
    with pytest.raises(Exception, match="notation"):
        s.apply_action(0, "grab everything")
    with pytest.raises(Exception, match="purchase phase|split"):
        s.apply_action(0, "end")


@pytest.mark.parametrize("setup,action,reason", [
    ([], "take all", "only the last player"),
    ([], "done", "at least one object"),
    ([], "return R", "stolen nothing"),
    ([], "buy A1", "purchase phase"),
    ([], "reroll R", "start of the purchase phase"),
    (["take R", "done"], "steal 1", "only one object"),
    (["take R", "take W", "done"], "steal 3", "no pile"),
    (["take R"], "steal 2", "taking from the center"),
])
def test_reasons_for_common_illegal_actions(setup, action, reason):
    s = fresh(4)
    s.center = counts("RRWWBBGGYYP")
    for a in setup:
        s.apply_action(s.players_to_act()[0], a)
    before = s.to_json()
    with pytest.raises(Exception, match=reason):
        s.apply_action(s.players_to_act()[0], action)
    assert s.to_json() == before


def test_reasons_in_the_purchase_phase():
    from .util import buy_phase
    s = buy_phase(["RT", "B", "G"], market=("A11",), cards={0: ["A16"], 1: ["A2"]})
    with pytest.raises(Exception, match="cannot pay"):
        s.apply_action(0, "buy A11")
    with pytest.raises(Exception, match="not in the market"):
        s.apply_action(0, "buy C3")
    with pytest.raises(Exception, match="do not own"):
        s.apply_action(0, "use A2 Y")
    s.apply_action(0, "use A16")
    with pytest.raises(Exception, match="already been used"):
        s.apply_action(0, "use A16")
    with pytest.raises(Exception, match="loot has been split"):
        s.apply_action(0, "take R")


def test_every_log_line_translates_to_french_and_german():
    from thieves.games.thiefs_market.render import translate_event
    s = GAME.new_game(5, 31)
    rng = Rng.from_seed(31)
    while not s.is_terminal():
        random_step(s, rng)
    lines = {text for _, text in s.log}
    for lang in ("fr", "de"):
        for line in lines:
            out = translate_event(line, lang)
            assert out != line, (lang, line, out)
        assert translate_event("something else", lang) == "something else"
    out = translate_event("Player 2 buys Corrupt Official.", "fr")
    assert out == "Player 2 achète Fonctionnaire Corrompu."
    assert translate_event("Player 2 buys Corrupt Official.", "en") == "Player 2 buys Corrupt Official."


def test_french_and_german_texts_have_no_known_slips():
    i18n = load_i18n(None, load_tables(None).ids)
    fr, de = i18n.fr, i18n.de
    # French colour adjectives agree with a plural "dés" (rulebook: "dés masques violets")
    for key, text in fr.items():
        assert not re.search(r"\bdés (rouge|blanc|bleu|vert|violet)\b", text), (key, text)
    # "Bezahlt" means "paid"; the label stands before the gems still to pay
    assert de["ui.paying"] != "Bezahlt"
    # a German conditional clause puts the verb first: "Liegt ... , +1"
    assert de["B8.effect"].startswith("Liegt nach jedem Aufteilen")
