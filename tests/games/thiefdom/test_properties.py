"""Property tests: long random walks with cheap invariant checks."""
import pytest

from thieves.bots import make_bot, play_game
from thieves.core.errors import DataError, IllegalAction
from thieves.core.rng import Rng
from thieves.games.thiefdom.components import ThiefdomData
from thieves.games.thiefdom.goods import GOODS, room
from thieves.testing import random_step

from .helpers import GAME


def render_svg(obs, lang="en"):
    return GAME.presentation(obs["viewer"], None, lang).svg(obs)


def invariants(s):
    n_art = len(s.villas)
    arts = [v["art"] for v in s.villas.values() if v["art"]] + list(s.delivered) + list(s.dungeon["art"])
    for p in range(s.num_players):
        arts += s.stash[p]["art"]
        assert s.vp[p] >= 0
        for g in GOODS:
            assert s.stash[p][g] >= 0
        for th in s.thieves[p]:
            arts += th["inv"]["art"]
            for g in GOODS:
                assert th["inv"][g] >= 0
            assert room(th, "gold") >= 0 and room(th, "gem") >= 0, th  # never over capacity
            assert len(th["equip"]) <= 2 and len(set(th["equip"])) == len(th["equip"])
    assert len(arts) == n_art and len(set(arts)) == n_art        # artworks conserved
    # one figure per alley square (a thief passing over a square is the exception)
    occupied = [f["cell"] for f in s.tf.values()]
    for ts in s.thieves:
        occupied += [th["pos"] for th in ts if isinstance(th["pos"], int)]
    over = 1 if (s.turn and s.turn["over"]) else 0
    over += 1 if s.tmove else 0
    assert len(occupied) - len(set(occupied)) <= over
    if s.tmove is None:
        for f in s.tf.values():
            assert s.city.lantern[f["cell"]]


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_random_walks_keep_invariants(n):
    steps = 0
    seed = 0
    while steps < 2500:   # thousands of random decisions at every count
        s = GAME.new_game(n, 100 + seed)
        rng = Rng.from_seed(seed)
        while not s.is_terminal():
            random_step(s, rng)
            invariants(s)
            steps += 1
        seed += 1


def test_no_hidden_plan_or_draft_leaks():
    for seed in range(3):
        s = GAME.new_game(3, seed)
        rng = Rng.from_seed(seed)
        while not s.is_terminal() and s.round == 1:
            if s.phase == "plan":
                for p in range(3):
                    obs = s.observation((p + 1) % 3)
                    if s.plans[p] is not None:
                        assert obs["plans"][p] == "placed"
                        for ev in obs["log"]:
                            if ev["args"].get("player") == p:  # p's order never reaches another seat
                                assert "order" not in ev["args"], ev
                    # only the viewer's own tiles laid so far are in its observation
                    assert obs["planning"] == s.planning[(p + 1) % 3]
            if s.draft is not None:
                for p in range(3):
                    obs = s.observation(p)
                    assert obs["draft"]["hand"] == s.draft["hands"][p]
                    assert "hands" not in obs["draft"]
            random_step(s, rng)


def test_illegal_actions_change_nothing_midgame():
    s = GAME.new_game(2, 9)
    rng = Rng.from_seed(3)
    for _ in range(120):
        random_step(s, rng)
    before = s.to_json()
    p = s.players_to_act()[0]
    for junk in ["rob car", "use", "n", "go q", "buy sack", "plan 1111", "hideout 9Zz", "tp nowhere"]:
        if junk in s.legal_actions(p):
            continue
        with pytest.raises(IllegalAction):
            s.apply_action(p, junk)
        assert s.to_json() == before


def test_greedy_beats_random():
    wins = 0
    games = 6
    for seed in range(games):
        s = GAME.new_game(2, 500 + seed)
        bots = [make_bot("greedy", "thiefdom", seed), make_bot("random", "thiefdom", seed + 1)]
        play_game(s, bots)
        wins += s.winners() == [0]
    assert wins >= 5


def test_solo_greedy_scores_more_than_random():
    g = r = 0
    games = 8
    for seed in range(games):
        s = GAME.new_game(1, 700 + seed)
        play_game(s, [make_bot("greedy", "thiefdom", seed)])
        g += s.vp[0]
        s = GAME.new_game(1, 700 + seed)
        play_game(s, [make_bot("random", "thiefdom", seed)])
        r += s.vp[0]
    assert g > r + 3 * games  # 3 VP a game more on average


def test_explain_and_describe():
    s = GAME.new_game(2, 3)
    while s.phase != "plan":
        p = s.players_to_act()[0]
        a = s.legal_actions(p)
        s.apply_action(p, "done" if "done" in a else a[0])
    with pytest.raises(IllegalAction, match="next slot"):
        s.apply_action(0, "plan 1123")
    with pytest.raises(IllegalAction, match="unknown action 'fly'"):
        s.apply_action(0, "fly")
    pres = GAME.presentation(0, ["Ann", "Bob"], "en")
    assert pres.action_text(s.observation(0), "plan P") == "Slot 1: patrol board"
    assert "north" in pres.action_text(s.observation(0), "n")


def test_render_svg_and_text():
    s = GAME.new_game(4, 1)
    rng = Rng.from_seed(1)
    for _ in range(200):
        random_step(s, rng)
    for lang in ("en", "fr", "de"):
        svg = render_svg(s.observation(0), lang)
        assert svg.startswith("<svg") and svg.endswith("</svg>")
    assert "garde" in render_svg(s.observation(None), "fr")
    text = s.render_text(0)
    assert "Night" in text and "VP" in text and "Guard A" in text
    # labelled rows and columns, and the buildings by name
    assert " 1 2 3 4 5 6 7 8 910" in text and "\n  A " in text and "\n  N " in text
    assert "Tower " in text and "Forge " in text


def test_svg_clickable_actions_are_legal():
    import re
    for seed in range(3):
        s = GAME.new_game(2, seed)
        rng = Rng.from_seed(seed)
        seen = 0
        while not s.is_terminal() and s.ply < 400:
            p = s.players_to_act()[0]
            acts = set(re.findall(r'data-action="([^"]+)"', render_svg(s.observation(p))))
            assert acts <= set(s.legal_actions(p)), acts - set(s.legal_actions(p))
            seen += len(acts)
            random_step(s, rng)
        assert seen


def test_data_dir_override_is_validated(tmp_path):
    (tmp_path / "missions.yaml").write_text("missions:\n  - {id: x, deliver: {gem: 1}}\n")
    with pytest.raises(DataError) as err:
        ThiefdomData(str(tmp_path))
    assert "missions.yaml" in str(err.value) and "reward" in str(err.value)


def test_sections_follow_the_rules():
    d = ThiefdomData()
    assert len(d.sections) == 16 and all(s.reconstructed for s in d.sections.values())
    assert len(d.equipment) == 12 and len(d.clients) == 36 and len(d.missions) == 16
    assert len([p for p in d.patrols.values() if 1 in p.players]) == 3
    for key, sec in d.sections.items():
        g = sec.grid
        # the same openings on every edge: the middle square, so any turn fits
        opens = [(0, 3), (3, 0), (6, 3)] + ([] if sec.river else [(3, 6)])
        for r, c in opens:
            assert g[r][c] in ".L", key
        # every opening sits in a 2x2 alley loop (the square clockwise of it on the
        # edge and the two behind them), so no opening is a dead end for a guard
        loops = {(0, 3): [(0, 4), (1, 4), (1, 3)], (3, 6): [(4, 6), (4, 5), (3, 5)],
                 (6, 3): [(6, 2), (5, 2), (5, 3)], (3, 0): [(2, 0), (2, 1), (3, 1)]}
        for opening in opens:
            assert all(g[r][c] in ".L" for r, c in loops[opening]), (key, opening)
        for r in range(7):
            for c in range(7):
                if g[r][c] in ".L":
                    k = sum(1 for dr, dc in ((-1, 0), (1, 0), (0, 1), (0, -1))
                            if 0 <= r + dr < 7 and 0 <= c + dc < 7 and g[r + dr][c + dc] in ".L")
                    k += 1 if (r, c) in opens else 0
                    if k >= 3 and (r, c) not in opens:
                        assert g[r][c] == "L", (key, r, c)   # every junction inside is a lantern
                    if sec.river and (r, c) == (3, 6):
                        assert g[r][c] == "." and k == 1, key  # the quay on the river (Juma)
                        continue
                    assert k >= 2, (key, r, c)               # no dead ends inside


def test_i18n_has_every_term_in_three_languages():
    t = GAME.texts().table
    assert set(t["en"]) == set(t["fr"]) == set(t["de"])
    for e in ThiefdomData().equipment:
        assert f"equipment.{e}" in t["fr"] and f"effect.{e}" in t["de"]
    for c in ThiefdomData().power.values():
        assert f"effect.{c}" in t["fr"] and f"effect.{c}" in t["de"]


def test_presentation_words():
    fr = GAME.presentation(0, ["Ann", "Bob"], "fr")
    de = GAME.presentation(0, ["Ann", "Bob"], "de")
    en = GAME.presentation(0, ["Ann", "Bob"], "en")
    assert fr.action_text({}, "go n") == "Le citadin va nord"
    assert de.action_text({}, "move").startswith("Bewegen (1 AP")
    assert en.action_text({}, "crossbow gA") == "Crossbow at Guard A (1 AP)"
    assert de.prompt({"phase": "plan", "viewer": 1, "to_act": [0], "round": 2, "nights": 6}) \
        == "Nacht 2/6: die anderen legen ihre Plättchen geheim"


