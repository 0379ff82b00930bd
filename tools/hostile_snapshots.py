"""Load hostile snapshots (real ones with one field mutated) and use what loads.

Each snapshot must either be refused with GameSetupError or give a state whose
next decision works within a time bound: legal actions of every seat to act, a
legal action applied, every seat's observation. Prints the counts per game.
``tests/core/test_snapshots.py`` runs a bounded part of the same corpus.

    PYTHONPATH=src python tools/hostile_snapshots.py --per-game 1000
"""
from __future__ import annotations

import argparse
import collections
import os
import signal
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests", "core"))

from hostile import SLUGS, corpus, try_snapshot  # noqa: E402


class Hang(Exception):
    pass


def _alarm(signum: int, frame: object) -> None:
    raise Hang()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--per-game", type=int, default=700)
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("games", nargs="*", default=SLUGS)
    args = ap.parse_args()
    signal.signal(signal.SIGALRM, _alarm)
    total: collections.Counter = collections.Counter()
    for slug in args.games:
        counts: collections.Counter = collections.Counter()
        t0 = time.time()
        for label, text in corpus(slug, args.per_game):
            signal.setitimer(signal.ITIMER_REAL, args.seconds)
            try:
                outcome = try_snapshot(slug, text)
            except Hang:
                outcome = "hang"
            except Exception as exc:  # noqa: BLE001
                outcome = f"crash {type(exc).__name__}"
                if args.verbose:
                    print(f"{slug} {label}: {type(exc).__name__}: {str(exc)[:150]}", file=sys.stderr)
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
            if outcome == "hang" and args.verbose:
                print(f"{slug} {label}: hang", file=sys.stderr)
            counts[outcome] += 1
        total += counts
        print(f"{slug}: {sum(counts.values())} snapshots {dict(sorted(counts.items()))} ({time.time() - t0:.0f} s)",
              flush=True)
    print(f"all: {sum(total.values())} snapshots {dict(sorted(total.items()))}")


if __name__ == "__main__":
    main()
