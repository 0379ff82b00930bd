"""Bots for Age of Thieves.

``greedy`` is a hand-written policy: it plans a strong Move every round, walks
toward the Emperors' Jewel (or the nearest jewel), avoids stepping onto guards,
takes everything it can and leaves the city through an open exit. It reads
only its own observation, the public board data and its legal actions.
"""
from __future__ import annotations

from ...bots.base import Bot
from ...core.game import State


class GreedyBot(Bot):
    name = "greedy"

    def choose(self, state: State, player: int) -> str:
        acts = state.legal_actions(player)
        if len(acts) == 1:
            return acts[0]
        obs = state.observation(player)
        me = obs["thieves"][player]
        data = state.data
        pick = self._pick(acts, obs, me, data)
        if pick in acts:
            return pick
        return acts[self.rng.below(len(acts))]

    # -- the policy ------------------------------------------------------------------------------
    def _goal(self, obs: dict, me: dict, data) -> list[str]:
        if obs["escape_district"] and (me["emperor"] or obs["alarm"]):
            return [e.space for e in data.exits.values() if e.district == obs["escape_district"]]
        jewel = [s for s, v in obs["gems"].items() if "emperor" in v]
        if jewel:
            return jewel
        gems = list(obs["gems"])
        return gems or [data.of_kind["treasury"][0]]

    def _field(self, obs: dict, me: dict, data) -> dict[str, int]:
        """Walking distance to the goal, around guards (unless hidden) and fire."""
        blocked = set(obs["fire"]) | set(data.of_kind["dungeon"])
        if not me["hidden"]:
            blocked |= set(obs["guards"].values())
        goal = self._goal(obs, me, data)
        dist = {g: 0 for g in goal}
        queue = list(goal)
        for c in queue:
            for n in data.adj[c]:
                if n not in dist and n not in blocked:
                    dist[n] = dist[c] + 1
                    queue.append(n)
        return dist

    def _pick(self, acts: list[str], obs: dict, me: dict, data) -> str:
        has = set(acts)
        # planning: Move with most AP, Ambush with 1, Cloak first if held
        if "done" in has or any(a.startswith("ap ") for a in acts) or "next" in has:
            b = me.get("building")
            if b is not None:
                free = me.get("ap_free", 0)
                want = 1 if b["card"] != "move" else max(1, free - (0 if obs["alarm"] else 2))
                if b["card"] not in ("move", "ambush"):
                    want = min(free, 2) or 1
                if f"ap {want}" in has:
                    return f"ap {want}"
                return "next" if "next" in has else acts[-1]
            planned = {s.get("card") for s in me["plan"]}
            if "move" not in planned and "plan move" in has:
                return "plan move"
            if obs["alarm"]:
                return "done"  # escape: everything on one Sprint
            if "cloak" not in planned and "plan cloak" in has and me.get("ap_free", 0) > 3:
                return "plan cloak"
            if "ambush" not in planned and "plan ambush" in has:
                return "plan ambush"
            return "done"
        if obs["alarm"] and "sprint" in has:
            return "sprint"
        for a in ("sneak", "play cloak", "cleverness"):
            if a in has:
                return a
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
        if "take token" in has:
            return "take token"
        steps = [a for a in acts if a.startswith("to ")]
        if steps and me["pos"]:
            dist = self._field(obs, me, data)
            here = dist.get(me["pos"], 999)
            best = min(steps, key=lambda a: (dist.get(a[3:], 999), self.rng.below(1000)))
            if dist.get(best[3:], 999) < here:
                return best
        sewers = [a for a in acts if a.startswith("sewer ")]
        if sewers:
            dist = self._field(obs, me, data)
            here = dist.get(me["pos"], 999)
            best = min(sewers, key=lambda a: dist.get(a[6:], 999))
            if dist.get(best[6:], 999) + 3 < here:
                return best
        if "stop" in has:
            return "stop"
        if "gstop" in has:
            return "gstop"
        if "nothing" in has:
            return "nothing"
        return acts[0]


BOTS = {"greedy": GreedyBot}
