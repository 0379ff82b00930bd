"""Rulebook "Mise en Place" and "Matériel": component data and the starting position."""
import pytest

from thieves.core.errors import DataError, GameSetupError
from thieves.games.thieves_den.components import load_data

from .helpers import GAME, new


def test_component_counts_and_names():
    d = load_data()
    assert len(d.locations) == 60 and len(d.fences) == 42
    assert len(d.powers) == 12 and len(d.schemes) == 10
    names = {c.name for c in d.locations.values()}
    for known in ("Market", "Potion Shop", "Witch's Hut", "Guild", "Laboratory", "Customs House"):
        assert known in names
    assert {c.type for c in d.fences.values()} == {"noble", "representative", "collector", "sorcerer",
                                                  "mercenary", "peddler", "tinkerer"}
    assert sorted(d.board.majority.values.values()) == [3, 3, 4, 4, 4, 5, 5]
    # the 10 schemes are the 10 pairs of the 5 location types
    assert len({frozenset(s.types) for s in d.schemes.values()}) == 10
    assert all(c.reconstructed for c in d.locations.values())
    assert all(c.reconstructed for c in d.fences.values())


@pytest.mark.parametrize("n,each,forest", [(2, 5, 6), (3, 7, 9), (4, 9, 12), (5, 11, 15)])
def test_setup_table(n, each, forest):
    s = new(n, 3)
    assert s.city == {t: each for t in s.city}
    assert s.forest == forest
    assert s.thieves == [3] * n and s.prestige == [0] * n
    assert len(set(s.scheme)) == n
    assert len([f for f in s.row if f]) == 6
    assert [len(st) for st in s.power_stacks] == [3, 3, 3]
    assert s.face == "13"
    assert all(len(h) == 4 for h in s.hands)
    assert sorted(s.players_to_act()) == list(range(n))


def test_two_players_use_moon_cards_only():
    s = new(2, 1)
    d = s.data
    cards = s.loc_deck + [c for h in s.hands for c in h]
    assert len(cards) == sum(1 for c in d.locations.values() if c.moon)
    assert all(d.locations[c].moon for c in cards)
    fences = s.fence_deck + s.row
    assert all(d.fences[f].moon for f in fences)
    assert len(fences) == sum(1 for f in d.fences.values() if f.moon)
    s3 = new(3, 1)
    assert len(s3.loc_deck) + 12 == 60 and len(s3.fence_deck) + 6 == 42


def test_bad_player_counts():
    for n in (1, 6):
        with pytest.raises(GameSetupError):
            GAME.new_game(n, 0)


def test_data_dir_override_is_validated(tmp_path):
    (tmp_path / "fences.yaml").write_text("fences:\n- {id: F01, name: X, type: baker, wants: [book], prestige: 1, moon: true}\n")
    with pytest.raises(DataError) as e:
        load_data(str(tmp_path))
    assert "fences.yaml" in str(e.value) and "type" in str(e.value)


def test_data_dir_override_replaces_a_file(tmp_path):
    import thieves.games.thieves_den as pkg
    board = open(pkg.__path__[0] + "/data/board.yaml", encoding="utf-8").read()
    (tmp_path / "board.yaml").write_text(board.replace("values: [0, 3, 7, 12, 18]", "values: [0, 1, 2, 3, 4]"))
    d = load_data(str(tmp_path))
    assert d.board.scheme_sets.values == [0, 1, 2, 3, 4]
    s = GAME.new_game(3, 0, {"data_dir": str(tmp_path)})
    assert s.data.board.scheme_sets.values == [0, 1, 2, 3, 4]


def test_i18n_names_every_component_in_three_languages():
    d, texts = load_data(), GAME.texts()
    for lang in ("en", "fr", "de"):
        for kind, ids in (("loc", d.locations), ("fence", d.fences), ("tile", d.powers), ("tile_text", d.powers)):
            for cid in ids:
                assert texts.has(lang, f"{kind}.{cid}"), (lang, kind, cid)
        for t in ("book", "jewel", "artifact", "fossil", "potion"):
            assert texts.has(lang, f"treasure.{t}") and texts.has(lang, f"treasures.{t}")
        for t in ("village", "shadow_valley", "ruins", "sanctuary", "city"):
            assert texts.has(lang, f"type.{t}")
        for t in ("noble", "tinkerer"):
            assert texts.has(lang, f"ftype.{t}")
    cid = next(c.id for c in d.locations.values() if c.name == "Customs House")
    assert texts.get("fr", f"loc.{cid}") == "Douane"
    # English names come from the same file as the data's names
    assert all(texts.get("en", f"loc.{c.id}") == c.name for c in d.locations.values())


def test_board_svg_from_observation():
    import xml.dom.minidom
    s = new(3, 2)
    for lang in ("en", "fr", "de"):
        svg = GAME.presentation(0, lang=lang).svg(s.observation(0))
        xml.dom.minidom.parseString(svg)
        for c in s.hands[0]:
            assert f'data-action="keep {c}"' in svg
        for c in s.hands[1]:
            assert c not in svg
    spect = GAME.presentation(None).svg(s.observation(None))
    assert "data-action" not in spect and "clickable" not in spect


def test_text_views():
    s = new(4, 1)
    txt = s.render_text(0)
    assert "Your hand" in txt and "Your scheme" in txt
    assert all(c not in txt for c in s.hands[0] + s.hands[1])       # names, never ids
    assert all(s.data.locations[c].name in txt for c in s.hands[0])
    assert all(s.data.locations[c].name not in txt for c in s.hands[1]
               if c not in s.hands[0])
    for a in s.legal_actions(0):
        assert s.describe_action(a).startswith("Keep ")


def test_docs_list_every_reconstructed_card():
    import pathlib
    doc = (pathlib.Path(__file__).parents[3] / "docs" / "thieves_den.md").read_text()
    d = load_data()
    for c in list(d.locations.values()) + list(d.fences.values()):
        if c.reconstructed:
            assert f"| {c.id} | {c.name}" in doc, c.id
