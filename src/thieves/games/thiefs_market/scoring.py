"""Final scoring (rulebook "Fin du jeu") and the tie-breakers."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .observation import FinalScore

if TYPE_CHECKING:
    from .state import MarketState


def card_points(s: "MarketState", p: int) -> int:
    """Notoriety printed on or computed by the cards ``p`` owns."""
    t = s.data
    tab = s.tableau[p]
    total = 0
    for c in tab:
        total += t.points[c]
        kind = t.kind[c]
        if kind == "none":
            continue
        e: Any = t.effect[c]  # the fields its kind requires are set (checked on load)
        if kind == "set_points":                  # Safehouses: one card of the icon / two or more
            n = sum(1 for o in tab if t.icon_count[o][e.icon])
            total += e.one if n == 1 else e.more
        elif kind == "points_per_icon_group":     # Collecting Golem: per two magic icons
            icons = sum(t.icon_count[o][e.icon] for o in tab)
            total += icons // e.group * e.amount
        elif kind == "points_per_other_card":     # Loyalty Program
            total += (len(tab) - 1) * e.amount
        elif kind == "points_per_infamy_group":   # Political Campaign
            total += s.infamy[p] // e.group * e.amount
        elif kind == "points_unless_rival_icon":  # Treasure Map: less if a rival owns a map icon
            rival = any(t.icon_count[o][e.icon] for q in range(s.num_players) if q != p
                        for o in s.tableau[q])
            total += e.reduced if rival else e.amount
    return total


def henchmen(s: "MarketState", p: int) -> int:
    h = s.data.henchmen
    return sum(h[c] for c in s.tableau[p])


def _award(counts: list[int], values: list[int], penalty: int, second_after_tie: bool,
           zero_scores: bool) -> list[int]:
    """Majority awards: first place ``values[0]``, second ``values[1]`` (if any);
    every tied player gets the value minus ``penalty``."""
    out = [0] * len(counts)
    left = [p for p, c in enumerate(counts) if c > 0 or zero_scores]
    for place, value in enumerate(values):
        if not left:
            break
        top = max(counts[p] for p in left)
        tied = [p for p in left if counts[p] == top]
        for p in tied:
            out[p] += value if len(tied) == 1 else max(0, value - penalty)
        if len(tied) > 1 and not second_after_tie:
            break
        left = [p for p in left if p not in tied]
    return out


def awards(s: "MarketState") -> tuple[list[int], list[int]]:
    """(henchmen award, gold award) per player."""
    setup, opt, n = s.data.setup, s.options, s.num_players
    hench = _award([henchmen(s, p) for p in range(n)], setup.henchmen_award, setup.tie_penalty,
                   opt["second_award_after_tie"], opt["zero_counts_score"])
    gold = _award(list(s.gold), [setup.gold_award], setup.tie_penalty, False, opt["zero_counts_score"])
    return hench, gold


def breakdown(s: "MarketState", p: int) -> FinalScore:
    hench, gold = awards(s)
    cards, infamy = card_points(s, p), s.infamy[p]
    return {"cards": cards, "infamy": infamy, "henchmen_award": hench[p], "gold_award": gold[p],
            "total": cards + infamy + hench[p] + gold[p]}


def scores(s: "MarketState") -> list[float]:
    hench, gold = awards(s)
    return [card_points(s, p) + s.infamy[p] + hench[p] + gold[p] for p in range(s.num_players)]


def winners(s: "MarketState") -> list[int]:
    """Most notoriety; ties go to the most cards, then the most tokens (infamy + gold);
    the rulebook's last tie-breaker is a joke (grab the token and run), so a shared win."""
    sc = scores(s)
    keys = [(sc[p], len(s.tableau[p]), s.infamy[p] + s.gold[p]) for p in range(s.num_players)]
    best = max(keys)
    return [p for p in range(s.num_players) if keys[p] == best]
