"""The engine conformance kit at 1-4 players, plus the variants."""
import pytest

from thieves.testing import check_conformance


@pytest.mark.parametrize("n", [1, 2, pytest.param(3, marks=pytest.mark.slow), pytest.param(4, marks=pytest.mark.slow)])
def test_conformance(n):
    check_conformance("thiefdom", games_per_count=2, player_counts=[n], deep_every=5)


def test_conformance_variants():
    check_conformance("thiefdom", games_per_count=1, player_counts=[2, 4], deep_every=7,
                      options={"smuggling_stacks": True, "chaotic_planning": True,
                               "stars_carriage_first_lantern": True, "exit_through_entrances": True,
                               "thieves_skip_guards": True, "bernhard_blinds_for_all": True,
                               "one_location_per_night": True, "noble_purse_fixed": True})
