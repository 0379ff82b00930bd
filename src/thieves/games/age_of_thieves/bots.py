"""Bots for Age of Thieves.

``greedy`` is a hand-written policy that reads only its own observation, the
public board data and its legal actions:

* it knows where the watch can strike: a space is *dangerous* while the watch
  has still to act this round and some guard or captain could walk onto it
  (path distance up to its movement) and the thief would not be hidden there;
* planning: Move every round. When the thief stands in danger, or is about to
  grab the jewel, it first plays a Cloak or Rope and Hook with high AP, else
  it puts 8 AP on Move (in calm, 8 always beats the die or ties, which thieves
  win) to get away before the watch acts. When the goal is within one Move it
  puts 1 AP on Move, so that it usually moves after the watch has acted.
  Once the alarm sounds, everything goes on one Sprint toward an open exit;
* movement: among the spaces it can still reach it aims for a safe one
  closest to its goal (the Emperors' Jewel, then the exits), taking jewels,
  tokens and loot on the way, and leaves the city as soon as it can;
* the other general cards: without a Cloak or Rope and Hook it holds off the
  watch with a card that stops or moves a guard (``STOPPERS``) the same way,
  first with high AP; AP left over go on a card against a rival (``STRIKES``:
  Fishing Rod, Poisoned Bola, Mechanical Rats, Firecrackers) when one is near.
  Targets: the guard nearest to itself (moved away from it, or onto a rival),
  the richest rival, the best jewel.

``mcts`` is tuned by :data:`SEARCH`: flat Monte Carlo over the actions of the moment, each
played on by greedy itself (:func:`greedy_playout`) to the end of the game from the same
determinizations; it keeps greedy's choice unless another action clearly wins more often.
"""
from __future__ import annotations

import heapq
from collections import deque
from typing import Any
from weakref import WeakKeyDictionary

from ...bots.base import Bot
from ...bots.mcts import SearchSpec
from ...core.game import State
from . import guards as watch, planning
from .components import AotData


#: answers a greedy bot keeps per kind before it starts afresh (see ``GreedyBot._cached``)
_CACHE_SIZE = 4096
#: general cards that hold off the watch, best first (played like a Cloak, before the watch)
STOPPERS = ("trap", "smoke", "orders", "beacon", "gas", "noise", "fire")
#: general cards against a rival, with 1 AP when AP are left over
STRIKES = ("rod", "bola", "rats", "firecrackers")
#: which jewel to take from a rival first
LOOT = ("emperor", "green", "yellow", "trinket")


class GreedyBot(Bot):
    name = "greedy"

    def choose(self, state: State, player: int) -> str:
        acts = state.legal_actions(player)
        if len(acts) == 1:
            return acts[0]
        return self._choice(state, player, acts)

    def playout_choice(self, state: State, player: int, acts: list[str], rng: Any) -> str:
        """The choice in a search playout, drawn with the playout's generator (what the bot
        keeps between decisions is keyed by what it was worked out from, see :meth:`_cached`)."""
        self.rng = rng
        return self._choice(state, player, acts)

    def _choice(self, state: State, player: int, acts: list[str]) -> str:
        obs = state.observation_without_log(player)  # the log plays no part in its choice
        pick = self._pick(acts, obs, obs["thieves"][player], state.data)
        if pick in acts:
            return pick
        return acts[self.rng.below(len(acts))]

    # -- what the bot knows of the watch -----------------------------------------------------------
    @staticmethod
    def _movement(obs: dict[str, Any], data: AotData, fig: str) -> int:
        sheet = data.sheet
        side = sheet["alarm" if obs["alarm"] else "calm"]
        key = "captain_movement" if fig[0] == "c" else "guard_movement"
        base = int(side.get(key, sheet["alarm"][key]))
        ev = obs.get("event")
        if ev:
            for e in data.events.alarm + data.events.calm:
                if e.id == ev["id"]:
                    base += e.movement
                    break
        return max(0, base)

    @staticmethod
    def _space_hides(obs: dict[str, Any], data: AotData, s: str) -> bool:
        return data.kind.get(s) == "hideout" or obs["features"].get(s) == "alley" or s in obs["smoke"]

    def _round_cover(self, obs: dict[str, Any], me: dict[str, Any], data: AotData) -> bool:
        """Hidden (Cloak, fresh escape) or protected for the whole round, wherever it stands."""
        return bool(me["protected"] or me.get("hidden_all_round"))

    def _danger(self, obs: dict[str, Any], data: AotData, s: str) -> int:
        """How many figures could reach s (0 = safe) at their next activation."""
        if self._space_hides(obs, data, s):
            return 0
        return self._watch(obs, data).get(s, 0)

    def _watch(self, obs: dict[str, Any], data: AotData) -> dict[str, int]:
        """Space -> how many guards and captains could walk onto it at their next activation.
        Kept per position of the watch (and what sets its pace), so that the many decisions of a
        round, and the search's playouts through the same positions, work it out once."""
        if obs is self._watch_of[0]:
            return self._watch_of[1]
        key = self._watch_key(obs)
        got: dict[str, int] | None = self._cached("watch", data, key)
        if got is None:
            got = {}
            for g, gs in obs["guards"].items():
                mv = self._movement(obs, data, g)
                for x, dd in data.dist[gs].items():
                    if dd <= mv:
                        got[x] = got.get(x, 0) + 1
            self._store("watch", key, got)
        self._watch_of = (obs, got)  # the observation of this decision asks again and again
        return got

    _watch_of: tuple[dict[str, Any] | None, dict[str, int]] = (None, {})

    @staticmethod
    def _watch_key(obs: dict[str, Any]) -> tuple[Any, ...]:
        """What the watch's reach depends on: its figures, the alarm and the event (its pace)."""
        ev = obs.get("event")
        return (tuple(obs["guards"].items()), obs["alarm"], ev["id"] if ev else None)

    #: worked-out answers by kind: ``(board data, {key: answer})``; a kind is dropped whole when
    #: it grows past :data:`_CACHE_SIZE` keys or the board changes
    _memo: dict[str, tuple[Any, dict[Any, Any]]]

    def _cached(self, kind: str, data: AotData, key: tuple[Any, ...]) -> Any:
        memo = self.__dict__.setdefault("_memo", {})
        got = memo.get(kind)
        if got is None or got[0] is not data or len(got[1]) > _CACHE_SIZE:
            memo[kind] = (data, {})
            return None
        return got[1].get(key)

    def _store(self, kind: str, key: tuple[Any, ...], value: Any) -> None:
        self._memo[kind][1][key] = value

    # -- where to go ----------------------------------------------------------------------------------
    def _goal(self, obs: dict[str, Any], me: dict[str, Any], data: AotData) -> list[str]:
        if obs["escape_district"] and (me["emperor"] or obs["alarm"]):
            return [e.space for e in data.exits.values() if e.district == obs["escape_district"]]
        if me["emperor"]:  # the escape district is not known yet: out of the Palace
            return [e.space for e in data.exits.values()]
        jewel = [s for s, v in obs["gems"].items() if "emperor" in v]
        if jewel:
            return jewel
        return list(obs["gems"]) or [data.of_kind["treasury"][0]]

    def _blocked(self, obs: dict[str, Any], me: dict[str, Any], data: AotData) -> set[str]:
        blocked = set(obs["fire"]) | set(data.of_kind["dungeon"])
        if not self._round_cover(obs, me, data):
            blocked |= set(obs["guards"].values())
        return blocked

    def _field(self, obs: dict[str, Any], me: dict[str, Any], data: AotData) -> dict[str, int]:
        """Walking distance to the goal, around guards (unless covered) and fire (read only:
        the same answer serves every decision with the same watch, fire, cover and goal)."""
        covered = self._round_cover(obs, me, data)
        goal = self._goal(obs, me, data)
        key = (self._watch_key(obs), tuple(obs["fire"]), tuple(obs["smoke"]),
               tuple(obs["features"].items()), covered, tuple(goal))
        got: dict[str, int] | None = self._cached("field", data, key)
        if got is None:
            got = self._walk_field(obs, me, data, covered, goal)
            self._store("field", key, got)
        return got

    def _walk_field(self, obs: dict[str, Any], me: dict[str, Any], data: AotData, covered: bool,
                    goal: list[str]) -> dict[str, int]:
        blocked = self._blocked(obs, me, data)
        # Dijkstra: a space the watch can reach costs extra, so ways bend around the guards
        watched = set() if covered else {x for x in self._watch(obs, data)
                                         if not self._space_hides(obs, data, x)}
        dist = {g: 0 for g in goal}
        heap = [(0, g) for g in goal]
        heapq.heapify(heap)
        while heap:
            dc, c = heapq.heappop(heap)
            if dc > dist.get(c, 1 << 30):
                continue
            for n in data.adj[c]:
                if n in blocked:
                    continue
                nd = dc + (3 if n in watched else 1)
                if nd < dist.get(n, 1 << 30):
                    dist[n] = nd
                    heapq.heappush(heap, (nd, n))
        return dist

    def _reach(self, obs: dict[str, Any], me: dict[str, Any], data: AotData, left: int) -> dict[str, str | None]:
        """Spaces reachable within ``left`` steps -> first step of a shortest way there
        (``self.depth`` keeps the number of steps)."""
        blocked = self._blocked(obs, me, data)
        here = me["pos"]
        first: dict[str, str | None] = {here: None}
        depth = {here: 0}
        queue = deque([here])
        while queue:
            c = queue.popleft()
            if depth[c] >= left:
                continue
            for n in data.adj[c]:
                if n not in depth and n not in blocked:
                    depth[n] = depth[c] + 1
                    first[n] = n if c == here else first[c]
                    queue.append(n)
        self.depth = depth
        return first

    def _score(self, obs: dict[str, Any], me: dict[str, Any], data: AotData, field: dict[str, int],
               s: str) -> tuple[Any, ...]:
        if obs.get("watch_acted") or self._round_cover(obs, me, data):
            # the watch has acted (or cannot catch us): next round we plan to move first
            return (0, field.get(s, 999), self._danger(obs, data, s))
        d = min(1, self._danger(obs, data, s))
        if obs["alarm"]:
            # time runs out: progress first (the way itself already bends around the watch)
            return (0, field.get(s, 999), d)
        return (d, field.get(s, 999), 0)

    # -- the policy ------------------------------------------------------------------------------------
    def _plan(self, acts: list[str], obs: dict[str, Any], me: dict[str, Any], data: AotData) -> str:
        has = set(acts)
        free = me.get("ap_free", 0)
        planned = [s.get("card") for s in me["plan"]]
        b = me.get("building")
        if b is not None:
            want = self.want.get(b["card"].rstrip("0123456789"), 1)
            want = max(1, min(want, free))
            if f"ap {want}" in has:
                return f"ap {want}"
            return "next" if "next" in has else acts[-1]
        # decide the round's plan once, when nothing is planned yet
        if not planned:
            self.want = self._decide(obs, me, data, free)
        for card in self.want:
            if card not in planned:
                act = f"plan {card}"
                if act in has:
                    return act
        return "done"

    def _decide(self, obs: dict[str, Any], me: dict[str, Any], data: AotData, free: int) -> dict[str, int]:
        hand = set(me.get("hand", []))
        if me["dungeon"]:
            return {"move": free}  # out first; escaping hides for the rest of the round
        hand_cover = next((c for c in ("cloak", "rope") if c in hand), None)
        stopper = next((c for c in STOPPERS if c in hand), None)
        if obs["alarm"]:
            # ties go to the watch now: 9 AP always come first
            field = self._field(obs, me, data)
            if hand_cover and free >= 10 and (self._danger(obs, data, me["pos"]) or
                                               field.get(me["pos"], 999) <= 10):
                return {hand_cover: 9, "move": free - 9}
            return {"move": free}  # everything on one Sprint to the exits
        here = me["pos"]
        field = self._field(obs, me, data)
        goal_dist = field.get(here, 999)
        near_goal = goal_dist <= 4 + ("knowcity" in me["sheet"])
        hunting = not me["emperor"] and any("emperor" in v for v in obs["gems"].values())
        in_danger = self._danger(obs, data, here) > 0
        if hand_cover and (in_danger or (near_goal and hunting)) and free >= 3:
            return {hand_cover: min(8, free - 1), "move": 1}
        if in_danger or goal_dist > 8:
            plan = {"move": min(8, free)}  # before the watch (calm: 8 never loses to the die)
        else:
            plan = {"move": 1}  # close in or grab after the watch has acted (usually)
        left = free - sum(plan.values())
        if "elixir" in hand and left >= 1:
            plan["elixir"] = 1
            left -= 1
        if left >= 1:
            plan["ambush"] = 1
            left -= 1
        # AP left over: a card against a rival, then one that holds off the watch before it acts
        strike = next((c for c in STRIKES if c in hand), None)
        if strike and left >= 1:
            plan[strike] = 1
            left -= 1
        if stopper and left >= 2:
            plan[stopper] = left
        return plan

    # -- the other general cards ------------------------------------------------------------------
    def _rivals(self, obs: dict[str, Any], me: dict[str, Any]) -> list[dict[str, Any]]:
        return [t for t in obs["thieves"] if t is not me and t["pos"] and not t["dungeon"]
                and t["left"] is None]

    def _strike_target(self, obs: dict[str, Any], me: dict[str, Any], data: AotData, card: str, slack: int = 0) -> bool:
        """A rival within the card's range (plus ``slack`` for the moves still to come)."""
        rng = data.general[card].range or 99
        near = [t for t in self._rivals(obs, me) if data.dist[me["pos"]].get(t["pos"], 99) <= rng + slack]
        if card == "rod":
            near = [t for t in near if t["vp"] > 0 or t["emperor"]]
        elif card == "rats":
            near = [t for t in near if t["sheet"]]
        elif card == "firecrackers":  # the woken guards must not catch us
            near = [t for t in near if not t["hidden"] and self._danger(obs, data, t["pos"])]
            near = near if not self._danger(obs, data, me["pos"]) or me["hidden"] else []
        return bool(near)

    def _play_card(self, acts: list[str], obs: dict[str, Any], me: dict[str, Any], data: AotData) -> str | None:
        """``play <card>`` for a stopper or strike whose effect is still of use."""
        for a in acts:
            card = a[5:] if a.startswith("play ") else ""
            if card in STOPPERS and card != "trap":
                return a
            if card == "trap" and (self._nearest_guard(obs, data, me, captains=False, within=4)
                                   or self._strike_target(obs, me, data, "trap")):
                return a
            if card in STRIKES and self._strike_target(obs, me, data, card):
                return a
        return None

    def _nearest_guard(self, obs: dict[str, Any], data: AotData, me: dict[str, Any], captains: bool = True,
                       within: int = 99) -> str | None:
        d = data.dist[me["pos"]]
        figs = [g for g, s in obs["guards"].items() if (captains or g[0] == "g") and d.get(s, 99) <= within]
        return min(figs, key=lambda g: (d.get(obs["guards"][g], 99), g)) if figs else None

    def _target(self, acts: list[str], obs: dict[str, Any], me: dict[str, Any], data: AotData) -> str:
        """A target for a general card's effect (``obs["deciding"]["then"]``)."""
        d = data.dist[me["pos"]]
        rich = sorted(self._rivals(obs, me), key=lambda t: (-t["emperor"], -t["vp"]))
        seats = {f"thief {obs['thieves'].index(t) + 1}": i for i, t in enumerate(rich)}
        guards = [a for a in acts if a.startswith("guard ")]
        if guards:  # the guard nearest to us
            return min(guards, key=lambda a: (d.get(obs["guards"][a[6:]], 99), a))
        if any(a in seats for a in acts):
            return min((a for a in acts if a in seats), key=seats.__getitem__)
        loot = [a for a in acts if a.startswith(("steal ", "token "))]
        if loot:  # the best jewel (a token: any)
            return min(loot, key=lambda a: (LOOT.index(a.split()[2]) if a.split()[2] in LOOT else 9, a))
        spots = [a for a in acts if a.startswith(("at ", "to "))]
        if spots:
            return self._spot(spots, obs, me, data)
        return "nothing" if "nothing" in acts else acts[0]

    def _spot(self, spots: list[str], obs: dict[str, Any], me: dict[str, Any], data: AotData) -> str:
        then = (obs["deciding"] or {}).get("then")
        d = data.dist[me["pos"]]
        g = self._nearest_guard(obs, data, me)
        gs = obs["guards"][g] if g else me["pos"]
        if then == "orders_to":  # the guard as far from us as it goes
            return max(spots, key=lambda a: (d.get(a[3:], 0), a))
        if then == "smoke" and f"at {me['pos']}" in spots:
            return f"at {me['pos']}"
        if then == "fire":  # on the guard's way to us, near us
            way = [a for a in spots if data.dist[gs].get(a[3:], 99) + d.get(a[3:], 99) <= d.get(gs, 99)]
            return min(way or spots, key=lambda a: (d.get(a[3:], 99), a))
        # noise: onto a rival to mark it, else onto the guard nearest to us
        rivals = {t["pos"] for t in self._rivals(obs, me)}
        return min(spots, key=lambda a: (a[3:] not in rivals, data.dist[gs].get(a[3:], 99), a))

    def _guard_step(self, acts: list[str], obs: dict[str, Any], me: dict[str, Any], data: AotData) -> str:
        """Move a guard with a card: onto a rival it can reach, else away from us."""
        dec = obs["deciding"] or {}
        left = dec.get("steps_left", 0)
        here = obs["guards"][dec["figure"]]
        prey = [t["pos"] for t in self._rivals(obs, me) if not t["hidden"] and not t["protected"]
                and data.dist[here].get(t["pos"], 99) <= left]

        def worth(s: str) -> tuple[Any, ...]:
            if prey:
                return (min(data.dist[s].get(x, 99) for x in prey), 0)
            return (0, -data.dist[me["pos"]].get(s, 0))

        steps = [a for a in acts if a.startswith("gstep ") and a[6:] != me["pos"]]
        best = min(steps, key=lambda a: (worth(a[6:]), a), default=None)
        if best is None or worth(best[6:]) >= worth(here):
            return "gstop"
        return best

    want: dict[str, int] = {}

    def _pick(self, acts: list[str], obs: dict[str, Any], me: dict[str, Any], data: AotData) -> str:
        has = set(acts)
        if "done" in has or any(a.startswith("ap ") for a in acts) or "next" in has:
            return self._plan(acts, obs, me, data)
        if obs["alarm"] and "sprint" in has:
            return "sprint"
        for a in ("play cloak", "play rope", "sneak", "play elixir", "cleverness"):
            if a in has:
                return a
        card = self._play_card(acts, obs, me, data)
        if card:
            return card
        kind = (obs["deciding"] or {}).get("kind")
        if kind == "choose":
            return self._target(acts, obs, me, data)
        if kind == "gmove":
            return self._guard_step(acts, obs, me, data)
        if any(a.startswith("decline ") for a in acts):
            return next(a for a in acts if a.startswith("decline "))
        # movement
        for a in acts:
            if a.startswith("leave "):
                return a
        for a in acts:
            if a.startswith("take ") and a != "take token":
                return a
            if a.startswith("steal "):
                return a
        if "take token" in has and not me["emperor"]:
            return "take token"
        steps = [a for a in acts if a.startswith("to ")]
        if steps and me["pos"]:
            left = (obs.get("deciding") or {}).get("steps_left", 1)
            field = self._field(obs, me, data)
            reach = self._reach(obs, me, data, left)
            here = me["pos"]
            jewel = [x for x in reach if "emperor" in obs["gems"].get(x, []) and x != here]
            if jewel and (obs["deciding"] or {}).get("kind") == "move" and not obs["alarm"]:
                return f"to {reach[jewel[0]]}"  # the Emperors' Jewel is worth the risk
            if obs["escape_district"] and (me["emperor"] or obs["alarm"]):
                # an open exit within reach, with a point left to step out: go
                outs = [x for x in reach if x != here and self.depth[x] < left and any(
                    e.space == x and e.district == obs["escape_district"] for e in data.exits.values())]
                if outs:
                    return f"to {reach[min(outs, key=lambda x: self.depth[x])]}"
            best = min(reach, key=lambda s: (self._score(obs, me, data, field, s),
                                             s != here, self.rng.below(1000)))
            sewers = [a[6:] for a in acts if a.startswith("sewer ")]
            if sewers:
                sb = min(sewers, key=lambda s: self._score(obs, me, data, field, s))
                if self._score(obs, me, data, field, sb) < self._score(obs, me, data, field, best):
                    return f"sewer {sb}"
            if best != here and f"to {reach[best]}" in has:
                return f"to {reach[best]}"
        sewers = [a for a in acts if a.startswith("sewer ")]
        if sewers and me["pos"]:
            field = self._field(obs, me, data)
            cur = self._score(obs, me, data, field, me["pos"])
            sb = min(sewers, key=lambda a: self._score(obs, me, data, field, a[6:]))
            if self._score(obs, me, data, field, sb[6:]) < cur:
                return sb
        for a in ("stop", "gstop", "nothing"):
            if a in has:
                return a
        return acts[0]


def _goals(s: Any, t: dict[str, Any]) -> list[str]:
    """Where thief ``t`` heads: an open exit with the Emperors' Jewel or in the alarm, else the
    Emperors' Jewel, else any jewel."""
    data = s.data
    if t["emperor"] or s.alarm:
        if s.alarm_district:
            return [e.space for e in data.exits.values() if e.district == s.alarm_district]
        return [e.space for e in data.exits.values()]
    return [x for x, g in s.gems.items() if "emperor" in g] or list(s.gems)


def _goal_dist(s: Any, t: dict[str, Any], space: str) -> int:
    dist = s.data.dist.get(space, {})
    return min((dist.get(g, 20) for g in _goals(s, t)), default=20)


def evaluate(state: State, p: int) -> float:
    """Rough worth of thief ``p`` for cut search playouts: VP, the Emperors' Jewel, being out
    of the city (the only way to win), less the dungeon and the walk still ahead."""
    s: Any = state  # an Age of Thieves state
    t = s.thieves[p]
    v = float(s.vp(p))
    emperor: bool = t["emperor"]
    if t["left"] is not None:
        return v + 10.0 + 6.0 * emperor
    jailed: bool = t["dungeon"]
    v += 6.0 * emperor - 3.0 * jailed
    pos = t["pos"]
    if pos is not None:
        v -= 0.3 * _goal_dist(s, t, pos)
    return v


# -- greedy's plan, read from the position (for search playouts) -------------------------------
#: spaces within ``r`` steps of a space, per board (built when first asked)
_BALLS: WeakKeyDictionary[Any, dict[tuple[str, int], tuple[str, ...]]] = WeakKeyDictionary()


def _ball(data: Any, space: str, r: int) -> tuple[str, ...]:
    """The spaces at most ``r`` steps from ``space`` along the paths."""
    balls = _BALLS.get(data)
    if balls is None:
        balls = _BALLS[data] = {}
    key = (space, r)
    got = balls.get(key)
    if got is None:
        got = balls[key] = tuple(x for x, dd in data.dist[space].items() if dd <= r)
    return got


def watch_reach(state: State) -> set[str]:
    """Spaces some guard or captain could walk onto when the watch acts next (empty once it
    has acted this round)."""
    s: Any = state
    if s.phase == "exec" and s.exec.get("guards_done"):
        return set()
    out: set[str] = set()
    move = {}
    for g, at in s.guards.items():
        kind = g[0]
        if kind not in move:
            move[kind] = watch.movement(s, g)
        out.update(_ball(s.data, at, move[kind]))
    return out


def _hides(s: Any, space: str) -> bool:
    """Rulebook §"verborgen": a hideout, a Dark Alley or smoke hides whoever stands there."""
    return s.data.kind.get(space) == "hideout" or s.features.get(space) == "alley" or space in s.smoke


def _covered(t: dict[str, Any]) -> bool:
    """Hidden or protected wherever the thief stands (Cloak, Rope and Hook, a fresh escape)."""
    return bool(t["protected"] or t["cloak"] or t["escaped"])


def _exposed(s: Any, t: dict[str, Any], space: str, reach: set[str]) -> bool:
    """The watch could catch thief ``t`` on ``space`` when it acts next."""
    return space in reach and not _covered(t) and not _hides(s, space)


#: cards that keep a thief from arrest, best first
COVER = ("cloak", "rope")


def _want(s: Any, p: int) -> dict[str, int]:
    """The round's plan, as greedy makes it: card -> AP (recomputed at each planning step from
    what does not change while planning)."""
    t = s.thieves[p]
    total = t["blue"] + t["red"] + t["violet"]
    if t["dungeon"]:
        return {"move": total}
    cards = {x.rstrip("0123456789") for x in t["hand"]}
    cards.update((x["under"] or x["card"]).rstrip("0123456789") for x in t["plan"])
    cur = t["cur"]
    if cur is not None:
        cards.add((cur["under"] or cur["card"]).rstrip("0123456789"))
    cover = next((c for c in COVER if c in cards), None)
    here = t["pos"]
    goal = _goal_dist(s, t, here)
    exposed = _exposed(s, t, here, watch_reach(s))
    if s.alarm:
        if cover and total >= 10 and (exposed or goal <= 10):
            return {cover: 9, "move": total - 9}
        return {"move": total}
    hunting = not t["emperor"] and any("emperor" in g for g in s.gems.values())
    if cover and (exposed or (goal <= 4 and hunting)) and total >= 3:
        return {cover: min(8, total - 1), "move": 1}
    plan = {"move": min(8, total) if exposed or goal > 8 else 1}
    left = total - plan["move"]
    if "elixir" in cards and left >= 1:
        plan["elixir"] = 1
        left -= 1
    if left >= 1:
        plan["ambush"] = 1
    return plan


def _plan_step(s: Any, p: int, acts: list[str], rng: Any) -> str:
    """The next small planning decision toward :func:`_want`'s plan."""
    t = s.thieves[p]
    cur = t["cur"]
    want = _want(s, p)
    if cur is None:
        planned = {(x["under"] or x["card"]).rstrip("0123456789") for x in t["plan"]}
        for card in want:
            if card not in planned and f"plan {card}" in acts:
                return f"plan {card}"
        return "done" if "done" in acts else acts[-1]
    if cur.get("stage") != "ap":
        return "next" if "next" in acts else acts[-1]
    free = planning.markers_free(s, p)
    k = want.get((cur["under"] or cur["card"]).rstrip("0123456789"), 1)
    return f"ap {max(1, min(k, free))}"


#: greedy as the search's playout policy: one bot for every seat of every playout
#: (:meth:`GreedyBot.playout_choice` resets what it would otherwise carry over)
_PLAYOUT_GREEDY = GreedyBot(seed=0)


def greedy_playout(state: State, p: int, acts: list[str], rng: Any) -> str:
    """Greedy's own choice for search playouts, for every thief: so a playout plays the rest of
    the game the way the rival (and the searching bot itself, outside its searches) will.
    Planning follows :func:`_want`, greedy's plan read from the position (greedy itself keeps
    its plan from the start of the round, which a playout begun mid-plan never saw); the rest is
    :meth:`GreedyBot.playout_choice`."""
    s: Any = state
    if len(acts) == 1:
        return acts[0]
    if s.phase == "plan" and s.act is None and not s.pending:
        return _plan_step(s, p, acts, rng)
    return _PLAYOUT_GREEDY.playout_choice(s, p, acts, rng)


#: IS-MCTS tuning: flat Monte Carlo over the actions of the moment, each played on by greedy
#: (:func:`greedy_playout`) for both thieves to the end of the game and valued by who wins, all
#: of them from the same determinizations and playout seeds (``paired``: common random numbers);
#: the search leaves greedy's own choice only for an action whose mean paired gain beats it by
#: more than one standard error (``prior_margin``). Rollouts of the base policy with one step of
#: lookahead (Bertsekas's rollout algorithm). See docs/age_of_thieves.md "Strength".
SEARCH = SearchSpec(heuristic=evaluate, scale=2.0, max_depth=1000, prior=GreedyBot,
                    rollout=greedy_playout, tree_depth=1, prior_margin=1.0, paired=True)

BOTS = {"greedy": GreedyBot}
