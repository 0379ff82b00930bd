"""The engine's conformance kit, bots and the SVG drawing."""
import re
import xml.etree.ElementTree as ET

import pytest

from thieves.bots import make_bot, play_game
from thieves.testing import check_conformance

from .helpers import GAME


def render_svg(obs, lang="en"):
    return GAME.presentation(obs["viewer"], None, lang).svg(obs)


@pytest.mark.slow
def test_conformance_kit_2_to_4_players():
    check_conformance("cadwallon", games_per_count=2, deep_every=5)


def test_conformance_kit_other_options():
    check_conformance("cadwallon", games_per_count=1, player_counts=[2, 4], deep_every=7, first_seed=50,
                      options={"militia_still_face": 1, "portcullis_blocks_zone": False,
                               "treasure_mix": "six_red_six_purses", "gang_choice": "seat",
                               "attack_needs_movement": False, "fines_room": "guard_room"})


def test_greedy_clearly_beats_random():
    wins = games = 0
    for seed in range(8):
        for n in (2, 3):
            st = GAME.new_game(n, seed)
            seat = seed % n
            bots = [make_bot("greedy" if p == seat else "random", "cadwallon", seed=seed * 10 + p)
                    for p in range(n)]
            play_game(st, bots)
            games += 1
            wins += st.winners() == [seat]
    assert wins >= 0.75 * games, f"greedy won {wins} of {games}"


def test_svg_draws_every_zone_and_figure():
    st = GAME.new_game(4, 3, {"adventure": "market_day"})
    while st.phase in ("gang", "deploy"):
        st.apply_action(st.players_to_act()[0], st.legal_actions(st.players_to_act()[0])[0])
    for lang in ("en", "fr", "de"):
        svg = render_svg(st.observation(0), lang)
        root = ET.fromstring(svg)
        refs = {e.get("data-ref") for e in root.iter() if e.get("data-ref")}
        assert set(st.data.zone) <= refs           # every zone (clickable and highlightable)
        assert set(st.pos) <= refs                 # every figure on the board
    drawn = " ".join(re.findall(r">([^<]*)</text>", render_svg(st.observation(None), "fr")))
    assert all(w in drawn for w in "Salle des coffres".split())


def test_svg_clicks_cover_the_legal_board_actions():
    from .helpers import position
    st = position({"E2": "d1", "N4": "e1"})
    st.apply_action(0, "act E2")
    svg = render_svg(st.observation(0))
    root = ET.fromstring(svg)
    clicks = {e.get("data-action") for e in root.iter() if e.get("data-action")}
    legal = {a for a in st.legal_actions(0) if a.split()[0] in ("move", "attack", "act", "open", "force",
                                                                "play", "mission", "end")}
    assert legal and legal <= clicks
    assert clicks <= set(st.legal_actions(0))      # nothing clickable that is not legal


def test_text_render_hides_other_hands():
    st = GAME.new_game(3, 2)
    text = st.render_text(1)
    names = {st.data.card[k].name for k in st.hands[1]}
    assert all(n in text for n in names)
    assert text.count("Your hand") == 1
    assert "Your hand" not in st.render_text(None)
    others = {st.data.card[k].name for k in st.hands[0] + st.hands[2]} - names
    assert not any(n + ":" in st.render_text(1) for n in others)
