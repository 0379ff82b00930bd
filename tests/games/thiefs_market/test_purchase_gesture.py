"""The purchase gesture: a market card's clickable carries ``buy`` and, in ``data-then``,
the payment the player would choose (dice first, gold for the gems no die shows, the
Racket's waiver where it saves the most), with a question naming it."""
import html
import json
import re

import pytest

from thieves.core.rng import Rng
from thieves.games.thiefs_market.presentation import cheapest_payment, payment_steps

from .util import GAME, buy_phase, card, play

NAMES = ["Alice", "Bruno", "Clara", "Dora", "Emil"]


def gestures(s, viewer, lang="en"):
    """``{action: (then, confirm)}`` of the clickable groups of ``viewer``'s board."""
    svg = GAME.presentation(viewer, NAMES[:s.num_players], lang).svg(s.observation(viewer))
    out = {}
    for m in re.finditer(r"<g ([^>]*data-action=[^>]*)>", svg):
        attrs = {k: a or b for k, a, b in re.findall(r"""([\w-]+)=(?:"([^"]*)"|'([^']*)')""", m.group(1))}
        then = json.loads(html.unescape(attrs["data-then"])) if "data-then" in attrs else []
        confirm = html.unescape(attrs["data-confirm"]) if "data-confirm" in attrs else None
        out[html.unescape(attrs["data-action"])] = (then, confirm)
    return out


def test_dice_pay_first_and_gold_only_what_no_die_shows():
    # A1 costs R R: one red die and one gold coin, the coin only for the gem no die shows;
    # the second gem has one way left (gold): the table pays it by itself
    s = buy_phase(["RWT", "B", "G"], gold=[3, 0, 0], market=("A1", "A16", "A11"))
    then, confirm = gestures(s, 0)["buy A1"]
    assert then == ["pay R"]
    assert confirm == "Buy Alchemical Lab paying a red die and 1 gold coin?"
    play(s, "buy A1", *then)
    assert s.step == "" and card(s, "A1") in s.tableau[0] and s.gold[0] == 2 and s.piles[0][0] == 0


def test_a_payment_without_a_choice_is_one_click_and_asks_nothing():
    s = buy_phase(["WWRT", "B", "G"], gold=[0, 0, 0])      # no gold: the dice pay, no choice
    assert gestures(s, 0)["buy A11"] == ([], None)


def test_the_racket_waives_the_gem_gold_would_pay_then_spares_dice():
    # Insurance Racket (C7) waives one gem per card: the one no die shows, so no gold is spent
    s = buy_phase(["RT", "B", "G"], gold=[2, 0, 0], market=("A1", "A16", "A11"), cards={0: ["C7"]})
    then, confirm = gestures(s, 0)["buy A1"]
    play(s, "buy A1", *then)
    assert s.step == "" and s.gold[0] == 2 and s.piles[0][0] == 0
    assert confirm == "Buy Alchemical Lab paying a red die, leaving out 1 red gem?"
    # A4 costs W: no die, a coin or the waiver: the waiver
    s = buy_phase(["RT", "B", "G"], gold=[1, 0, 0], market=("A4", "A16", "A11"), cards={0: ["C7"]})
    assert gestures(s, 0)["buy A4"] == (["free W"], "Buy Corrupt Official, leaving out 1 white gem?")
    # every die there: the waiver keeps one for later
    assert cheapest_payment("RR", {"R": 2}, 0, 1) == ({"R": 1, "W": 0, "B": 0, "G": 0},
                                                      {"R": 1, "W": 0, "B": 0, "G": 0},
                                                      {"R": 0, "W": 0, "B": 0, "G": 0})


def test_the_question_names_the_payment_in_each_language_with_its_counts():
    # B6 costs W W G, B1 R R W
    s = buy_phase(["WRRRT", "B", "G"], gold=[3, 0, 0], market=("B6", "B1", "A1"))
    fr, de = gestures(s, 0, "fr"), gestures(s, 0, "de")
    assert fr["buy B6"] == (["pay W"], "Acheter Noble Facilement Impressionnable en payant un dé blanc "
                                       "et 2 pièces d'or ?")
    assert fr["buy B1"] == (["pay R", "pay R", "pay W"],
                            "Acheter Buffle anthropomorphe en payant 2 dés rouges et un dé blanc ?")
    assert de["buy B1"][1] == "Menschenähnlicher Wasserbüffel kaufen und dafür 2 rote Würfel und " \
                              "einen weißen Würfel abgeben?"
    s = buy_phase(["RT", "B", "G"], gold=[2, 0, 0], market=("B6", "B1", "A1"), cards={0: ["C7"]})
    assert gestures(s, 0, "de")["buy B6"] == (["free W"], "Leicht zu beeindruckender Adliger kaufen und dafür "
                                              "2 Goldmünzen abgeben (weggelassen: 1 weißer Edelstein)?")
    assert gestures(s, 0, "fr")["buy B1"][1] == "Acheter Buffle anthropomorphe en payant un dé rouge et " \
                                                "1 pièce d'or, sans payer 1 gemme rouge ?"


def test_only_the_viewers_cards_carry_a_gesture_and_others_see_none():
    s = buy_phase(["RT", "B", "G"], gold=[3, 0, 0], market=("A1", "A16", "A11"))
    assert all(then == [] and confirm is None for then, confirm in gestures(s, 1).values())
    assert "data-then" not in GAME.presentation(None, NAMES[:3]).svg(s.observation(None))


def test_unpayable_costs_have_no_plan():
    assert cheapest_payment("RRW", {"R": 1}, 1, 0) is None
    assert payment_steps("RRW", {"R": 1}, 1, 0) is None


@pytest.mark.parametrize("seed", range(12))
def test_the_proposed_steps_are_legal_in_order_and_complete_the_purchase(seed):
    """From every purchase decision of random games: ``buy`` and then each step is
    legal when it comes, the last one completes the purchase, and no more gold is spent
    than the gems no die shows, less the waiver."""
    rng = Rng.from_seed(seed)
    s = GAME.new_game(3 + seed % 3, seed)
    checked = 0
    while not s.is_terminal():
        p = s.players_to_act()[0]
        acts = s.legal_actions(p)
        if s.phase == "buy" and s.step == "" and checked < 40:
            marks = gestures(s, p)
            for a in acts:
                if not a.startswith("buy "):
                    continue
                then, _ = marks[a]
                trial = s.clone()
                gold, pile = trial.gold[p], list(trial.piles[p])
                cost = trial.data.cost[card(trial, a[4:])]
                waiver = trial.data.holdings(trial.tableau[p]).waiver
                trial.apply_action(p, a)
                for step in then:
                    assert step in trial.legal_actions(p), (a, then, step)
                    trial.apply_action(p, step)
                assert trial.step == "" and trial.current == p, (a, then)
                short = sum(max(0, k - pile[i]) for i, k in enumerate(cost))
                assert gold - trial.gold[p] == max(0, short - waiver), (a, then)
                checked += 1
        s.apply_action(p, acts[rng.below(len(acts))])
    assert checked


def test_after_the_last_purchase_only_the_end_is_left_and_nothing_is_drawn_to_click():
    """A decision with one possibility is answered by the table itself (the server's
    ANSWER_DELAY): after the last purchase, with no ability to use, only 'end' is legal and
    the board offers nothing to click (it does not ask an empty question)."""
    s = buy_phase(["WWRT", "B", "G"], gold=[0, 0, 0])
    then, _ = gestures(s, 0)["buy A11"]
    play(s, "buy A11", *then)
    assert s.legal_actions(0) == ["end"]
    assert gestures(s, 0) == {}
