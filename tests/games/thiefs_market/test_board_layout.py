"""The board's layout: what a player looks at first is on the first screen even with five
players late in the game; the other seats are compact (cards named, their text on hover);
pieces keep stable ids; a phone keeps dice big enough for a finger."""
import html
import re
import xml.dom.minidom

import pytest

from thieves.core.rng import Rng

from .util import GAME, buy_phase, fresh

NAMES = ["Alice", "Bruno", "Clara", "Dora", "Emil"]
#: the part of the board a 1280x900 window shows under the prompt and the action bar
FIRST_SCREEN = 600


def late_five_player_purchase(seed: int = 3):
    """Seat 1's purchase decision once deck C supplies the market, tableaux grown by buying."""
    s = GAME.new_game(5, seed)
    rng = Rng.from_seed(seed)
    found = None
    while not s.is_terminal():
        p = s.players_to_act()[0]
        acts = s.legal_actions(p)
        if p == 0 and s.phase == "buy" and s.step == "" and s.active_row == 2 \
                and any(a.startswith("buy") for a in acts):
            found = s.clone()
        buys = [a for a in acts if a.startswith("buy")]
        s.apply_action(p, buys[rng.below(len(buys))] if buys and rng.below(3) else acts[rng.below(len(acts))])
    assert found is not None
    return found


def board(s, viewer=0, lang="en", layout="wide"):
    return GAME.presentation(viewer, NAMES[:s.num_players], lang, layout=layout).svg(s.observation(viewer))


def shapes(svg, pid_prefix, tag="rect"):
    """The first ``tag`` drawn inside the piece ``pid_prefix`` (every piece whose id starts
    with it when it ends with "-")."""
    out = []
    for g in xml.dom.minidom.parseString(svg).getElementsByTagName("g"):
        pid = g.getAttribute("data-pid")
        if pid == pid_prefix or pid_prefix.endswith("-") and pid.startswith(pid_prefix):
            found = g.getElementsByTagName(tag)
            if found:
                out.append(found[0])
    return out


def moved(node):
    """How far down the groups around ``node`` move it (``translate(0 dy)``)."""
    dy = 0.0
    while node is not None and node.nodeType == node.ELEMENT_NODE:
        m = re.match(r"translate\(([-0-9.]+)[ ,]+([-0-9.]+)\)", node.getAttribute("transform"))
        dy += float(m.group(2)) if m else 0.0
        node = node.parentNode
    return dy


def top_of(svg, pid_prefix):
    """The lowest y on the board of the pieces whose id starts with ``pid_prefix``."""
    ys = [float(r.getAttribute("y")) + moved(r) for r in shapes(svg, pid_prefix)]
    assert ys, pid_prefix
    return max(ys)


@pytest.mark.parametrize("seed", [3, 8])
def test_pile_and_market_are_on_the_first_screen_with_five_players_late(seed):
    s = late_five_player_purchase(seed)
    svg = board(s)
    xml.dom.minidom.parseString(svg)
    market = [c for row in s.observation(0)["market"].values() for c in row]
    assert market and s.piles[0] != [0] * 6
    assert top_of(svg, "die-pile1-") + 42 < FIRST_SCREEN
    for cid in market:
        assert top_of(svg, f"card-{cid}") < FIRST_SCREEN
    height = float(re.search(r'viewBox="0 0 [0-9.]+ ([0-9.]+)"', svg).group(1))
    assert height < 1400, height   # every seat drawn in full took over 2,000 px


def test_other_seats_name_their_cards_and_tell_them_on_hover():
    s = buy_phase(["RWT", "B", "G"], market=("A11",), cards={0: ["A16"], 1: ["B13", "A2", "A15"]})
    s.apply_action(s.players_to_act()[0], "keep") if s.phase == "lucky" else None
    svg = board(s, 0)
    words = " ".join(re.findall(r">([^<>]+)</text>", svg))
    titles = [html.unescape(t) for t in re.findall(r"<title>([^<]*)</title>", svg)]
    # the viewer's own card in full; another's named, its effect in its title only
    assert "Once per round: spend one red die of your" in words
    assert "Bondsman" in words and "turn one red die of your pile to the bag face" not in words
    assert any(t.startswith("Bondsman (henchman): Once per round: turn one red die") for t in titles)
    assert "Shadowy Hood (magic, 2 NP): Worth 2 NP." in titles
    assert '<g class="chip" data-ref="A2">' in svg


def test_piece_ids_are_unique_and_a_card_keeps_its_id_from_market_to_chip():
    s = buy_phase(["RWT", "WW", "G"], market=("A11", "A16"), token=1)
    pids = re.findall(r'data-pid="([^"]*)"', board(s, 0))
    assert len(pids) == len(set(pids)) and "card-A11" in pids
    s.apply_action(s.players_to_act()[0], "keep") if s.phase == "lucky" else None
    s.apply_action(1, "buy A11")
    pids = re.findall(r'data-pid="([^"]*)"', board(s, 0))
    assert len(pids) == len(set(pids)) and "card-A11" in pids   # now a chip of seat 2


def test_empty_old_market_rows_are_left_out():
    s = late_five_player_purchase(3)
    obs = s.observation(0)
    words = " ".join(re.findall(r">([^<>]+)</text>", board(s)))
    for row in "AB":
        assert (f"Market {row}" in words) == bool(obs["market"][row])
    assert "Market C" in words


@pytest.mark.parametrize("n", [3, 5])
def test_the_phone_center_keeps_finger_sized_dice_in_lines(n):
    s = fresh(n)
    svg = board(s, 0, layout="narrow")
    dice = shapes(svg, "die-center-")
    sizes = [float(r.getAttribute("width")) for r in dice]
    assert len(sizes) == s.num_dice and min(sizes) >= 26
    assert max(float(r.getAttribute("x")) for r in dice) + min(sizes) <= 380
    token = re.search(r'data-action="take T"[^>]*>(?:<title>[^<]*</title>)?<circle [^>]*?r="([0-9.]+)"', svg)
    assert token and float(token.group(1)) >= 13
