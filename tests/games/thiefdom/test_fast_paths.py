"""The shortcuts that make playouts cheap answer exactly as the plain rules code.

Townsfolk options use remembered "first lanterns ahead" instead of searching,
occupancy is written out per thief, and during a random playout the
occupancy and the guards' fields of view are kept between moves; here they
are compared with the plain definitions on the positions of seeded random games.
"""
from thieves.core.rng import Rng
from thieves.testing import positions_along
from thieves.games.thiefdom.townsfolk import REV, THIEF_REFS, _tf_reach
from thieves.games.thiefdom import townsfolk

from .helpers import GAME


def plain_occ(s, without=None):
    occ = {}
    for p, ts in enumerate(s.thieves):
        for t, th in enumerate(ts):
            if isinstance(th["pos"], int):
                occ[th["pos"]] = THIEF_REFS[p][t]
    for fig, f in s.tf.items():
        if fig != without:
            occ[f["cell"]] = fig
    return occ


def plain_options(s, tm, occ):
    """Rulebook "Déplacement des citadins": every way (no 180-degree turn, not the
    way already gone) from which the search reaches the stop."""
    city = s.city
    back = REV[tm["head"]] if tm["head"] >= 0 else -1
    been = {tuple(x) for x in tm["seen"]}
    out = []
    for d, nb in enumerate(city.nbr[tm["cell"]]):
        if d != back and nb >= 0 and _tf_reach(city.forward, city.lantern, nb, d, tm["passed"], tm["stop"],
                                               tm["start"], occ, set(been)):
            out.append(d)
    return out


def seeded_positions(players, seed, every=3):
    """Every ``every``-th position of a seeded random game, to its end."""
    return positions_along(GAME.new_game(players, seed), seed, every)


def test_occupancy_is_the_plain_one():
    checked = 0
    for players, seed in ((4, 1), (2, 2), (1, 3)):
        for s in seeded_positions(players, seed, every=7):
            assert townsfolk.occupancy(s) == plain_occ(s)
            for fig in s.tf:
                assert townsfolk.occupancy(s, without=fig) == plain_occ(s, without=fig)
            checked += 1
    assert checked > 50


def test_townsfolk_options_match_the_plain_search():
    """At every townsfolk decision, and for every figure starting a move anywhere
    in the game (guards, nobles, the carriage's two lanterns)."""
    paused = started = 0
    for players, seed in ((4, 4), (3, 5), (2, 6), (1, 7)):
        for s in seeded_positions(players, seed, every=1):
            if s.tmove is not None:
                tm = s.tmove
                occ = townsfolk.occupancy(s, without=tm["fig"])
                assert townsfolk.tf_options(s, tm, occ) == plain_options(s, tm, occ) == tm["opts"]
                paused += 1
            elif s.ply % 5 == 0:
                for fig, f in s.tf.items():
                    tm = {"fig": fig, "cell": f["cell"], "start": f["cell"], "head": f.get("face", -1),
                          "passed": 0, "stop": 2 if fig == "car" else 1, "seen": []}
                    occ = townsfolk.occupancy(s, without=fig)
                    assert townsfolk.tf_options(s, tm, occ) == plain_options(s, tm, occ)
                    started += 1
    assert paused > 20 and started > 200


def guard_sight(s):
    seen = set()
    for fig, f in s.tf.items():
        if fig[0] == "g":
            seen.update(s.city.line(f["cell"], f["face"]))
    return seen


def test_kept_occupancy_follows_every_move_of_a_playout():
    """During a random playout the occupancy and the squares the guards see are
    kept between moves: after every decision they are the plain ones (a townsfolk
    waiting for its mover's choice is kept where its move began)."""
    kept = watched = 0
    for players, seed in ((4, 8), (3, 9), (2, 10), (1, 11)):
        s = GAME.new_game(players, seed, {"thieves_skip_guards": seed % 2 == 0})
        rng = Rng.from_seed(seed)
        s._occ_live = True
        while not s.is_terminal():
            s._playout_loop(rng, 1)
            if s._occ_cache is not None:
                tm = s.tmove
                want = plain_occ(s) if tm is None else {**plain_occ(s, without=tm["fig"]), tm["start"]: tm["fig"]}
                assert s._occ_cache == want
                kept += 1
            if s._watch_cache is not None:
                assert s._watch_cache == guard_sight(s)
                watched += 1
    assert kept > 500 and watched > 100


def test_random_playout_leaves_nothing_kept():
    s = GAME.new_game(4, 12)
    s.random_playout(Rng.from_seed(12), max_decisions=200)
    assert not s._occ_live and s._occ_cache is None and s._watch_cache is None
