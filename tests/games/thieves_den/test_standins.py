"""The stand-in fences keep their own pricing rule and match what the stand-in locations
supply (docs/thieves_den.md, "Stand-ins in play"; the redesigned cards carry a ``note``)."""
from __future__ import annotations

import statistics
from collections import Counter

from thieves.games.thieves_den.components import TREASURES

from .helpers import GAME

DATA = GAME.data()


def test_every_stand_in_fence_follows_the_pricing_rule():
    """2 prestige per treasure wanted, less 1 per joker (fences.yaml header)."""
    for f in DATA.fences.values():
        assert f.reconstructed
        assert f.prestige == 2 * len(f.wants) - f.wants.count("joker"), f.id


def test_no_fence_pays_far_above_the_median_per_treasure():
    """Issue rule: no component's value per cost above 1.5 times the median."""
    per = {f.id: f.prestige / len(f.wants) for f in DATA.fences.values()}
    median = statistics.median(per.values())
    assert max(per.values()) <= 1.5 * median
    assert min(per.values()) >= median / 1.5


def test_no_treasure_is_wanted_far_beyond_what_the_locations_give():
    """Fence demand per treasure the locations give (abilities and owner bonuses): books were
    wanted 2.3 times per book given (1.7 times the median type) before F11 and F41 changed."""
    supply: Counter[str] = Counter()
    for c in DATA.locations.values():
        for step in [*c.ability, *c.owner_bonus]:
            for kind, n in (step.gain or {}).items():
                supply[kind] += n
    demand = Counter(w for f in DATA.fences.values() for w in f.wants if w != "joker")
    ratio = {t: demand[t] / supply[t] for t in TREASURES}
    median = statistics.median(ratio.values())
    assert max(ratio.values()) <= 1.5 * median, ratio


def test_redesigned_fences_say_why():
    for fid in ("F11", "F41"):
        assert "book" not in DATA.fences[fid].wants
        assert "playtesting" in DATA.fences[fid].note
