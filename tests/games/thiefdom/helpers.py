"""Building small positions for Thiefdom rules tests."""
from __future__ import annotations

from thieves.core.registry import load_game
from thieves.games.thiefdom.goods import empty_inv
from thieves.games.thiefdom import thief, townsfolk

GAME = load_game("thiefdom")


def to_action(n: int = 2, seed: int = 0, options: dict | None = None):
    """A game played with first choices (buying nothing) up to the action phase."""
    s = GAME.new_game(n, seed, options)
    while s.phase != "action":
        p = s.players_to_act()[0]
        acts = s.legal_actions(p)
        s.apply_action(p, "done" if "done" in acts else acts[0])
    return s


def plan(s, p: int, order: str) -> None:
    """Lay player ``p``'s planning tiles in ``order`` ("3P21"), one slot per decision
    (the last tile fills the last slot by itself)."""
    for tile in order[:-1]:
        s.apply_action(p, f"plan {tile}")
    assert s.plans[p] == order


def clear(s):
    """Everyone at home, no turn running, nobody robbed anything yet."""
    s.turn = None
    s.tmove = None
    s.queue = []
    for p, ts in enumerate(s.thieves):
        for th in ts:
            th["pos"] = s.hideout[p]
            th["inv"] = empty_inv()
            th["used"], th["robbed"], th["blind"] = [], [], []
            th["wanted"] = False
    s._legal_cache = None
    return s


def park_townsfolk(s, keep=()):
    """Move every townsfolk not in ``keep`` to far-away free lanterns (west column edge)."""
    city = s.city
    taken = {f["cell"] for k, f in s.tf.items() if k in keep}
    spots = [i for i in range(city.W * city.H) if city.lantern[i] and i % city.W >= city.W - 7]
    for fig in s.tf:
        if fig in keep:
            continue
        cell = next(c for c in spots if c not in taken)
        taken.add(cell)
        s.tf[fig]["cell"] = cell
    s._legal_cache = None


def turn(s, p: int, t: int, ap: int = 3):
    thief.start_turn(s, p, t)
    s.turn["ap"] = ap
    s._legal_cache = None
    return s


def cross(city):
    """A lantern with four straight 2-square arms, each ending on a lantern."""
    for c in range(city.W * city.H):
        if not city.lantern[c] or city.section_of[c] in (4, 8):
            continue
        ok = True
        for d in range(4):
            a = city.nbr[c][d]
            b = city.nbr[a][d] if a >= 0 else -1
            if a < 0 or b < 0 or city.lantern[a] or not city.lantern[b]:
                ok = False
        if ok:
            return c
    raise AssertionError("no cross in this city")


def step(city, c: int, d: int, k: int = 1) -> int:
    for _ in range(k):
        c = city.nbr[c][d]
    return c


def free_lanterns_far(s, avoid, n):
    city = s.city
    occ = townsfolk.occupancy(s)
    out = []
    for i in range(city.W * city.H):
        if city.lantern[i] and i not in occ and all(abs(i % city.W - a % city.W) + abs(i // city.W - a // city.W) > 6
                                                    for a in avoid):
            out.append(i)
            if len(out) == n:
                return out
    return out


def place_thief(s, pos, equip=(), ally=None, p=0, t=0, **inv):
    """Put thief t of player p on ``pos`` with the given cards and goods, and start its turn."""
    th = s.thieves[p][t]
    th["pos"] = pos
    th["equip"] = list(equip)
    th["ally"] = ally
    th["inv"].update(inv)
    turn(s, p, t)
    return th


def at_location(kind, n=2, seed=0, p=0, t=0, **inv):
    """A cleared action phase with thief t of player p inside the first building of ``kind``."""
    s = clear(to_action(n, seed))
    park_townsfolk(s)
    bid = s.city.by_type[kind][0]
    th = s.thieves[p][t]
    th["pos"] = bid
    th["inv"].update(inv)
    turn(s, p, t)
    return s, th, bid
