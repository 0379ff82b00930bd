"""Presentation: the board SVG, action texts, prompts, the log, the score table, the
terminal view, the typed notation, and the reasons given for illegal actions."""
import re
import xml.dom.minidom

import pytest

from thieves.core.errors import IllegalAction
from thieves.core.rng import Rng
from thieves.games.thiefs_market.actions import MarketAction
from thieves.games.thiefs_market.components import load_i18n, load_tables
from thieves.testing import check_rendered_texts, check_templates, random_game, random_step

from .util import GAME, buy_phase, counts, fresh

NAMES = ["Alice", "Bruno", "Clara", "Dora", "Emil"]


def pres(viewer, lang="en", n=5):
    return GAME.presentation(viewer, NAMES[:n], lang)


def test_i18n_has_every_card_in_three_languages():
    t = load_tables(None)
    i18n = load_i18n(None, t.ids)
    for lang in ("en", "fr", "de"):
        tx = i18n.lang(lang)
        assert all(tx[f"card.{cid}"] and tx[f"effect.{cid}"] for cid in t.ids)
        assert set(tx) == set(i18n.en)
    assert [i18n.en[f"card.{cid}"] for cid in t.ids] == t.names
    assert i18n.fr["card.A4"] == "Fonctionnaire Corrompu"
    assert i18n.en["name"] == "Thief's Market" and "option.start_player" in i18n.de


def test_i18n_missing_card_is_an_error(tmp_path):
    import yaml
    from thieves.core.errors import DataError
    from thieves.games.thiefs_market import components
    raw = yaml.safe_load(open(components.__file__.replace("components.py", "data/i18n.yaml"),
                              encoding="utf-8"))
    del raw["de"]["effect.B7"]
    (tmp_path / "i18n.yaml").write_text(yaml.safe_dump(raw, allow_unicode=True), encoding="utf-8")
    with pytest.raises(DataError, match="B7"):
        load_i18n(str(tmp_path), load_tables(None).ids)


# ---------------------------------------------------------------- the notation
def test_every_notation_parses_once_and_writes_back():
    t = GAME.data()
    assert t.actions and set(t.actions) == set(t.parse)
    for text, typed in t.actions.items():
        assert MarketAction.parse(text) == typed and str(typed) == text
    assert MarketAction.parse("steal 2").seat == 1
    assert MarketAction.parse("use A1 W") == MarketAction("use", face="W", card="A1")
    assert MarketAction.parse("take T").face_index == -1


@pytest.mark.parametrize("junk", ["", "take", "take X", "reroll T", "steal 0", "steal x", "buy a7",
                                  "use A1 Q", "pay Y", "take  R", " end", "end now", "done 1"])
def test_bad_notation_is_rejected_with_a_reason(junk):
    with pytest.raises(IllegalAction, match="not Thief's Market notation"):
        MarketAction.parse(junk)


def test_well_formed_but_unknown_ids_get_a_reason_and_change_nothing():
    s = fresh(3)
    before = s.to_json()
    with pytest.raises(IllegalAction, match="no card Z9"):
        s.apply_action(0, "buy Z9")
    with pytest.raises(IllegalAction, match="no such ability"):
        s.apply_action(0, "use A11")
    with pytest.raises(IllegalAction, match="no such other player"):
        s.apply_action(0, "steal 7")
    assert s.to_json() == before


# ---------------------------------------------------------------- events and templates
def test_every_event_key_has_templates_in_three_languages():
    check_templates("thiefs-market")


def test_every_event_renders_strictly_in_french_and_german():
    assert check_rendered_texts("thiefs-market", 3, [1, 2]) > 500
    assert check_rendered_texts("thiefs-market", 5, [3]) > 500


def test_events_carry_ids_and_dice_read_as_words():
    s = random_game("thiefs-market", 4, 3)
    assert all(type(e) is dict for e in s.log)
    roll = next(e for e in s.log if e["key"] == "roll")
    assert set(roll["args"]["dice"]) <= set("RWBGYP") and roll["args"]["n"] == len(roll["args"]["dice"])
    for lang, words in (("en", ("red", "bag", "die")), ("fr", ("rouge", "bourse", "dé")),
                        ("de", ("Rot", "Beutel", "Würfel"))):
        lines = s.visible_log(0, lang=lang, names=NAMES[:4])
        text = " ".join(lines)
        assert all(w in text for w in words), (lang, words)
        # no face letter and no card id is ever shown
        for line in lines:
            # deck letters are printed on the card backs: "deck B" is the game's own word
            bare = re.sub(r"(?i)\b(deck|stapel) [ABC]\b", "", line)
            assert not re.search(r"\b[RWBGYP]\b", bare), line
            assert not re.search(r"\b[ABC][0-9]{1,2}\b", line), line


def test_infamy_never_leaks_to_other_players():
    s = random_game("thiefs-market", 4, 5)
    secret = [e for e in s.log if e["key"].startswith("infamy")]
    assert secret and all(e["to"] == [e["args"]["player"]] for e in secret)
    for viewer in [None, 0, 1, 2, 3]:
        seen = [e for e in s.visible_events(viewer) if e["key"].startswith("infamy")]
        assert all(e["args"]["player"] == viewer for e in seen)
    # while the game runs, nobody's board shows another's infamy
    s = fresh(3)
    s.infamy = [5, 987, 654]
    for lang in ("en", "fr", "de"):
        svg = GAME.presentation(0, NAMES[:3], lang).svg({**s.observation(0), "recent": []})
        shown = " ".join(re.findall(r">([^<]+)<", svg))   # what is written (not the coordinates)
        assert shown and "987" not in shown and "654" not in shown and "987" not in svg
        assert re.search(r">[^<]* 5<", svg)
    txt = s.render_text(0)
    assert "987" not in txt and "654" not in txt and "Infamy 5" in txt


# ---------------------------------------------------------------- the board
@pytest.mark.parametrize("lang", ["en", pytest.param("fr", marks=pytest.mark.slow), pytest.param("de", marks=pytest.mark.slow)])
def test_svg_is_valid_and_every_legal_action_is_clickable_on_the_board(lang):
    s = GAME.new_game(4, 21)
    rng = Rng.from_seed(21)
    step = 0
    while not s.is_terminal():
        if step % 9 == 0:
            p = s.players_to_act()[0]
            obs = {**s.observation(p), "recent": []}
            svg = GAME.presentation(p, NAMES[:4], lang).svg(obs)
            xml.dom.minidom.parseString(svg)
            actions = set(re.findall(r'data-action="([^"]*)"', svg))
            assert actions == set(s.legal_actions(p)) - {"end"}, s.legal_actions(p)
            for size in re.findall(r'font-size="([0-9.]+)"', svg):
                assert float(size) >= 13
            for bad in ("Player 1", ">R<", ">Y<", ">P<"):
                assert bad not in svg
            other = GAME.presentation((p + 1) % 4, NAMES[:4], lang).svg({**s.observation((p + 1) % 4)})
            assert not re.findall(r'data-action="', other)   # nothing to click out of turn
        random_step(s, rng)
        step += 1
    xml.dom.minidom.parseString(GAME.presentation(None, NAMES[:4], lang).svg(s.observation(None)))


def test_owned_cards_show_their_full_effect_and_used_abilities_are_marked():
    s = buy_phase(["RWT", "B", "G"], market=("A11",), cards={0: ["A16", "B13"], 1: ["A2"]})
    assert s.phase == "lucky"   # Lucky Animal Appendage: keep the dice before buying
    s.apply_action(0, "keep")
    s.apply_action(0, "use A16")
    svg = GAME.presentation(0, NAMES[:3], "en").svg(s.observation(0))
    assert "Tailor" in svg and "Anthropomorphic" not in svg
    assert "used this round" in svg
    # the effect of an owned card is printed whole, line by line
    words = " ".join(re.findall(r">([^<>]+)</text>", svg))
    assert "Dice put back from your stolen pile keep their faces" in words.replace("  ", " ")


def test_turn_die_targets_are_dice_drawn_on_the_card():
    s = buy_phase(["RWT", "B", "G"], market=("A11",), cards={0: ["A1"]})
    svg = GAME.presentation(0, NAMES[:3], "fr").svg(s.observation(0))
    for face in "WBG":
        assert f'data-action="use A1 {face}"' in svg


def test_paying_is_done_by_clicking_dice_and_gold():
    s = buy_phase(["RRWT", "B", "G"], market=("A1",), gold=[2, 0, 0], cards={0: []})
    s.apply_action(0, "buy A1")            # costs two red gems: a die or a gold coin each
    legal = s.legal_actions(0)
    assert legal == ["pay R", "gold R"]
    svg = GAME.presentation(0, NAMES[:3], "de").svg(s.observation(0))
    for a in legal:
        assert f'data-action="{a}"' in svg
    assert any(a.startswith("gold ") for a in legal)


def test_recent_moves_glow():
    s = fresh(3)
    s.apply_action(0, "take R")
    s.apply_action(0, "done")
    obs = {**s.observation(1), "recent": ["seat:0"]}
    svg = GAME.presentation(1, NAMES[:3], "en").svg(obs)
    assert re.search(r'<g class="[^"]*\brecent\b[^"]*" data-ref="seat:0"', svg)
    assert not re.search(r'<g class="[^"]*\brecent\b[^"]*" data-ref="seat:1"', svg)


# ---------------------------------------------------------------- words
@pytest.mark.parametrize("lang,text", [("en", "Take a red die"), ("fr", "Prendre un dé rouge"),
                                       ("de", "Einen roten Würfel nehmen")])
def test_action_texts(lang, text):
    p = pres(0, lang, 3)
    obs = fresh(3).observation(0)
    assert p.action_text(obs, "take R") == text
    assert "Bruno" in p.action_text(obs, "steal 2")
    assert p.action_text(obs, "nonsense") == "nonsense"


def test_action_texts_for_every_notation_in_three_languages():
    obs = fresh(3).observation(0)
    t = GAME.data()
    for lang in ("en", "fr", "de"):
        p = pres(0, lang, 3)
        for a in t.actions:
            text = p.action_text(obs, a)
            assert text and text != a and "{" not in text, (lang, a, text)
            assert not re.search(r"\b[RWBGYPT]\b", text), (lang, a, text)
    assert pres(0, "fr", 3).action_text(obs, "buy A4").startswith("Acheter Fonctionnaire Corrompu")
    assert pres(0, "en", 3).action_text(obs, "use A1 W") == "Use Alchemical Lab: turn a red die to white"


def test_prompts_say_what_the_choice_is_for():
    s = fresh(3)
    assert "steal" in pres(0, "en", 3).prompt(s.observation(0))
    assert "Alice" in pres(1, "en", 3).prompt(s.observation(1))
    s.apply_action(0, "take R")
    assert "1 object" in pres(0, "en", 3).prompt(s.observation(0))
    assert "1 objet" in pres(0, "fr", 3).prompt(s.observation(0))


def test_render_text_has_words_and_info_gives_card_effects():
    s = fresh(3)
    s.infamy = [5, 987, 654]
    txt = s.render_text(0)
    assert "Round 1" in txt and "Market A" in txt and "Center:" in txt and "987" not in txt
    assert s.describe_action("take R") == "Take a red die"
    assert "Alchemical Lab" in s.describe_action("buy A1")
    assert s.describe_action("nonsense") == "nonsense"
    p = pres(0, "de", 3)
    assert "Stein der Weisen" in p.info(s.observation(0), "A13") or p.term("card", "A13") in p.info({}, "A13")
    assert p.term("effect", "A13") in p.info({}, "A13")
    assert p.info({}, "Z1") is None and "Beutel" in p.info({}, "Y")
    assert "info" in p.help()


def test_score_table_and_tie_breakers():
    s = random_game("thiefs-market", 4, 3)
    obs = s.observation(None)
    table = pres(None, "fr", 4).score_table(obs, s.scores(), s.winners())
    assert table["columns"] == NAMES[:4]
    assert [r[1:] for r in table["rows"]][-1] == s.scores()
    assert len(table["rows"]) == 5 and table["rows"][-1][0] == "Notoriété"
    # a tie on notoriety broken by cards
    final = [{"cards": 1, "infamy": 1, "henchmen_award": 0, "gold_award": 0, "total": 2}] * 2
    tie = {**obs, "num_players": 2, "final": final, "tableau": [["A1"], ["A1", "A2"]], "infamy": [1, 1],
           "gold": [0, 0], "henchmen": [0, 0]}
    assert "cartes" in pres(None, "fr", 2).score_table(tie, [2, 2], [1])["tiebreak"]
    tie["tableau"] = [["A1"], ["A2"]]
    tie["gold"] = [0, 3]
    assert "Gold" in pres(None, "de", 2).score_table(tie, [2, 2], [1])["tiebreak"]
    tie["gold"] = [0, 0]
    assert "shared" in pres(None, "en", 2).score_table(tie, [2, 2], [0, 1])["tiebreak"]


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


def test_french_and_german_texts_have_no_known_slips():
    i18n = load_i18n(None, load_tables(None).ids)
    fr, de = i18n.fr, i18n.de
    # French colour adjectives agree with a plural "dés" (rulebook: "dés masques violets")
    for key, text in fr.items():
        assert not re.search(r"\bdés (rouge|blanc|bleu|vert|violet)\b", text), (key, text)
    # "Bezahlt" means "paid"; the label stands before the gems still to pay
    assert de["ui.paying"] != "Bezahlt"
    # a German conditional clause puts the verb first: "Liegt ... , +1"
    assert de["effect.B8"].startswith("Liegt nach jedem Aufteilen")


def test_the_presentation_reads_the_games_own_data_dir(tmp_path):
    import yaml
    from thieves.games.thiefs_market import components
    raw = yaml.safe_load(open(components.__file__.replace("components.py", "data/i18n.yaml"), encoding="utf-8"))
    raw["en"]["card.A13"] = "Stone of the Wise"
    (tmp_path / "i18n.yaml").write_text(yaml.safe_dump(raw, allow_unicode=True), encoding="utf-8")
    s = GAME.new_game(3, 0, {"data_dir": str(tmp_path)})
    assert "Stone of the Wise" in s.describe_action("buy A13")
    p = GAME.presentation(0, NAMES[:3], "en", str(tmp_path))
    assert p.card_name("A13") == "Stone of the Wise" and "Stone of the Wise" in p.info({}, "A13")
    assert pres(0).card_name("A13") == "Philosopher's Stone"


@pytest.mark.parametrize("lang,before,after", [
    ("en", "still 2 red gems and 1 white gem.", "still 1 red gem and 1 white gem."),
    ("fr", "il reste 2 gemmes rouges et 1 gemme blanche.", "il reste 1 gemme rouge et 1 gemme blanche."),
    ("de", "noch 2 rote Edelsteine und 1 weißer Edelstein.", "noch 1 roter Edelstein und 1 weißer Edelstein.")])
def test_the_gems_still_to_pay_are_counted(lang, before, after):
    # the prompt once read "still green gem": every gem still to pay is counted, plural or not
    s = buy_phase(["RRWT", "B", "G"], market=("B1",), gold=[3, 0, 0], cards={0: []})
    s.apply_action(0, "buy B1")            # costs two red gems and a white one
    p = pres(0, lang, 3)
    assert before in p.prompt(s.observation(0))
    s.apply_action(0, "pay R")
    assert after in p.prompt(s.observation(0))
    counted = after.rstrip(".").split(" ", 2 if lang == "fr" else 1)[-1]   # "1 red gem and 1 white gem"
    assert counted[0] == "1" and counted in p.text_view(s.observation(0))
