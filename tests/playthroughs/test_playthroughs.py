"""Recorded seeded games, compared on every run (OpenSpiel's playthroughs).

Each file reads as a game: per decision the seat that acts, its legal actions,
the action played and the public log lines it wrote (a spectator's English
log; see :func:`thieves.testing.playthrough`). A difference means a game now
plays, observes or logs differently. If that is intended, record again on
purpose with ``make playthroughs`` and review the diff like code.
"""
from __future__ import annotations

import difflib
from pathlib import Path

import pytest

from thieves.testing import PLAYTHROUGHS, playthrough

HERE = Path(__file__).parent
CASES = [(slug, n, seed) for slug, runs in PLAYTHROUGHS.items() for n, seed in runs]


def path_of(slug: str, n: int, seed: int) -> Path:
    return HERE / f"{slug}-{n}p-seed{seed}.txt"


@pytest.mark.parametrize("slug,n,seed", CASES)
def test_playthrough_is_unchanged(slug: str, n: int, seed: int) -> None:
    recorded = path_of(slug, n, seed).read_text(encoding="utf-8")
    now = playthrough(slug, n, seed)
    if now != recorded:
        diff = "".join(list(difflib.unified_diff(recorded.splitlines(True), now.splitlines(True),
                                                 "recorded", "now", n=1))[:40])
        pytest.fail(f"{slug} {n}p seed {seed} plays differently (make playthroughs if intended):\n{diff}")


if __name__ == "__main__":  # make playthroughs
    for slug, n, seed in CASES:
        path_of(slug, n, seed).write_text(playthrough(slug, n, seed), encoding="utf-8")
        print("wrote", path_of(slug, n, seed).name)
