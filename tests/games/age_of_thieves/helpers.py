"""Building small positions for the Age of Thieves rules tests."""
from __future__ import annotations

from thieves.core.registry import load_game

GAME = load_game("age-of-thieves")


def act(s, p: int, action: str) -> None:
    assert action in s.legal_actions(p), f"{action!r} not in {s.legal_actions(p)}"
    s.apply_action(p, action)


def fresh(thieves: str = "zain,jasmine", seed: int = 0, die: int = 8, **opts):
    """A game at the start of the first planning phase, board cleared of pieces."""
    n = len(thieves.split(","))
    s = GAME.new_game(n, seed, {"thieves": thieves, **opts})
    while s.phase != "plan" or s.pending:
        p = s.players_to_act()[0]
        s.apply_action(p, s.legal_actions(p)[0])
    s.guards, s.tokens, s.gems, s.features = {}, {}, {}, {}
    s.guard_supply = [f"g{i}" for i in range(1, 21)]
    for t in s.thieves:
        t["hand"] = []
    s.start = 0
    s.die = die  # the watch initiative of this round
    s._legal_cache = None
    return s


def path(s, a: str, length: int, avoid: set[str] = frozenset()) -> list[str]:
    """A shortest path of ``length`` steps from ``a`` over plain spaces (each farther than the last)."""
    d = s.data

    def walk(out: list[str]) -> list[str] | None:
        if len(out) > length:
            return out
        here = out[-1]
        for n in d.adj[here]:
            if d.dist[a][n] == d.dist[a][here] + 1 and n not in avoid and d.kind[n] is None:
                got = walk(out + [n])
                if got:
                    return got
        return None

    got = walk([a])
    assert got, f"no plain path of {length} from {a}"
    return got


def plan(s, p: int, cards: list[tuple[str, int]]) -> None:
    """Plan ``[(card, ap), ...]`` for player p ("move", "ambush", a general id, or "special:<id>")."""
    for card, ap in cards:
        if card.startswith("special:"):
            act(s, p, f"special {card.split(':')[1]}")
        else:
            act(s, p, f"plan {card}")
        act(s, p, f"ap {ap}")
        if "next" in s.legal_actions(p):
            act(s, p, "next")
    act(s, p, "done")


def give(s, p: int, *types: str) -> None:
    """Put general cards of these types into p's hand (taken from the deck)."""
    for typ in types:
        c = next(c for c in s.deck if c.rstrip("0123456789") == typ)
        s.deck.remove(c)
        s.thieves[p]["hand"].append(c)
    s._legal_cache = None


def events(s, key: str | None = None) -> list[dict]:
    """The structured events recorded so far (of one key)."""
    return [e for e in s.log if key is None or e["key"] == key]


def watch_acted(s) -> bool:
    return bool(events(s, "watch_acts"))
