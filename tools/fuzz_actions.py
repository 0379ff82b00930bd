"""Feed junk and mutated action strings to every game's ``apply_action``.

Each string must either be legal or raise IllegalAction and change nothing.
Prints, per game, how many strings were tried and how many crashed (any other
exception) or changed a refused state. Not a test: a bigger, slower run of
what ``tests/core/test_action_fuzz.py`` checks.

    PYTHONPATH=src python tools/fuzz_actions.py --strings 200000
"""
from __future__ import annotations

import argparse
import collections
import random
import re
import sys
import time

from thieves.core.errors import IllegalAction
from thieves.core.registry import load_game
from thieves.testing import random_step
from thieves.core.rng import Rng

SLUGS = ["thiefs-market", "thieves-den", "age-of-thieves", "thiefdom", "cadwallon"]
ODD = ["", " ", "\t", "\x00", "é", "ß", "\u202e", "🂡", "-", "+", ":", ",", "/", "=", "*", "#", "0",
       "-1", "99", "999999999999999999999", "1e9", "NaN", "None", "null", "x" * 300]


def mutate(legal: list[str], pool: list[str], r: random.Random) -> str:
    """One junk string: random characters, or a legal action (or other tokens) mutated."""
    base = r.choice(legal) if legal and r.random() < 0.8 else r.choice(pool or ["x"])
    toks = base.split(" ")
    how = r.randrange(16)
    if how >= 12:
        i = r.randrange(len(toks))
        t = toks[i]
        if how == 12:    # two tokens glued together ("take WB")
            other = r.choice(pool).split(" ") if pool else ["x"]
            toks[i] = t + r.choice(other)
        elif how == 13 and t:   # a character dropped, doubled or changed inside a token
            j = r.randrange(len(t))
            toks[i] = r.choice([t[:j] + t[j + 1:], t[:j] + t[j] + t[j:],
                                t[:j] + r.choice("0123456789²٣-+_.ABCPZazé ") + t[j + 1:]])
        elif how == 14:  # its digits changed to a number out of range
            toks[i] = re.sub(r"[0-9]+", lambda m: r.choice(["0", "-1", "99", "4" * 5000, "٣", "²", "10000000000"]), t) \
                if re.search(r"[0-9]", t) else t + r.choice(["0", "99", "²"])
        else:            # a prefix of a token
            toks[i] = t[:r.randrange(len(t) + 1)]
        return " ".join(toks)
    if how == 0:
        return "".join(r.choice("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 -:+,./=*#é")
                       for _ in range(r.randrange(1, 16)))
    if how == 1 and len(toks) > 1:
        i, j = r.randrange(len(toks)), r.randrange(len(toks))
        toks[i], toks[j] = toks[j], toks[i]
    elif how == 2 and toks:
        del toks[r.randrange(len(toks))]
    elif how == 3 and toks:
        i = r.randrange(len(toks))
        toks.insert(i, toks[i])
    elif how == 4:
        toks = [t.upper() if r.random() < 0.5 else t.lower() for t in toks]
    elif how == 5:
        i = r.randrange(len(toks))
        toks[i] = r.choice(["-1", "0", "99", "100000000000000000000", "1.5", "٣", "²", "1_0"])
    elif how == 6:
        i = r.randrange(len(toks))
        toks[i] = r.choice(ODD)
    elif how == 7:
        other = r.choice(pool).split(" ") if pool else ["x"]
        toks[r.randrange(len(toks))] = r.choice(other)
    elif how == 8:
        toks.append(r.choice(pool).split(" ")[-1] if pool else "x")
    elif how == 9:
        s = " ".join(toks)
        if s:
            i = r.randrange(len(s))
            s = s[:i] + r.choice(ODD) + s[i + 1:]
        return s
    elif how == 10:
        return base * r.randrange(2, 200)
    else:
        s = " ".join(toks)
        i = r.randrange(len(s) + 1)
        return s[:i] + s[i + 1:] if r.random() < 0.5 else s[:i] + " " + s[i:]
    return " ".join(toks)


def fuzz(slug: str, strings: int, seed: int, per_position: int = 200) -> tuple[int, collections.Counter]:
    game = load_game(slug)
    r = random.Random(seed)
    crashes: collections.Counter = collections.Counter()
    tried = 0
    pool: list[str] = []
    g = 0
    while tried < strings:
        n = game.min_players + g % (game.max_players - game.min_players + 1)
        state = game.new_game(n, seed * 1000 + g)
        rng = Rng.from_seed(seed * 1000 + g)
        g += 1
        step = 0
        while not state.is_terminal() and tried < strings:
            if step % 7 == 0:
                to_act = state.players_to_act()
                before = state.to_json()
                for p in to_act[:2]:
                    legal = state.legal_actions(p)
                    pool.extend(legal[:5])
                    del pool[:-2000]
                    for _ in range(per_position // max(1, len(to_act[:2]))):
                        s = mutate(legal, pool, r)
                        tried += 1
                        if s in legal:
                            continue
                        try:
                            state.apply_action(p, s)
                        except IllegalAction:
                            if state.to_json() != before:
                                crashes["changed state"] += 1
                                print(f"{slug}: {s!r} changed the state", file=sys.stderr)
                                state = game.state_from_json(before)
                        except Exception as exc:  # noqa: BLE001
                            key = f"{type(exc).__name__}"
                            if crashes[key] < 3:
                                print(f"{slug}: {s[:80]!r} -> {type(exc).__name__}: {str(exc)[:100]}", file=sys.stderr)
                            crashes[key] += 1
                            if state.to_json() != before:
                                state = game.state_from_json(before)
                        else:
                            crashes["accepted illegal"] += 1
                            print(f"{slug}: {s!r} accepted though not in legal", file=sys.stderr)
                            state = game.state_from_json(before)
            random_step(state, rng)
            step += 1
    return tried, crashes


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--strings", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("games", nargs="*", default=SLUGS)
    args = ap.parse_args()
    for slug in args.games:
        t = time.time()
        tried, crashes = fuzz(slug, args.strings, args.seed)
        print(f"{slug}: {tried} strings, {sum(crashes.values())} failures {dict(crashes)} "
              f"({time.time() - t:.0f} s)", flush=True)


if __name__ == "__main__":
    main()
