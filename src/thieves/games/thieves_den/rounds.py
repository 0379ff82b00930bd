"""Thieves Den: the round structure (scouting, thieving, maintenance) and the final scoring.

Rule sections cited as in the French rulebook (seed 003, "Les Voleurs d'Amarynth"):
"Phase Reconnaissance" (scouting draft), "Phase Voleurs" (thieving), "Phase Maintenance"
(cleanup), "Fin de Partie" (end of game). Each function takes the position (:class:`DenState`)
first; the two automatic frames of a round are registered in :data:`~.effects.AUTO_FRAMES`.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .components import FENCE_TYPES, TREASURES
from .effects import AUTO_FRAMES, ability_frames

if TYPE_CHECKING:
    from .state import DenState

#: the frame that ends a thieving turn (see auto_end_turn)
END_TURN: dict[str, Any] = {"k": "end_turn"}


# -- scouting phase: rulebook "Phase Reconnaissance" -----------------------------------
def start_scouting(state: DenState) -> None:
    b = state.data.board
    state.phase = "draft"
    state.draft_kept = 0
    state.passed = [False] * state.num_players   # a new round: nobody has passed
    for p in range(state.num_players):               # step 1: deal 4 cards face down
        hand = []
        for _ in range(b.draft_hand):
            if state.loc_deck:
                hand.append(state.loc_deck.pop())
        state.hands[p] = hand
        state.picks[p] = None
        # the hand is secret: its owner reads the cards, the others how many were dealt
        if state.recording:
            state.event("dealt", to=[p], secret={"cards": list(hand)}, player=p, n=len(hand))
    if state.recording:
        state.event("scouting", round=state.round, direction=state._direction_word())


def reveal_picks(state: DenState) -> None:
    """Step 3: everyone reveals at once; instant cards resolve at once, in turn order from
    the direction-tile holder [interpretation], then go face down to the left."""
    instant = state.data.instant
    for p in state.order_from(state.holder):
        card = state.picks[p]
        assert card is not None   # everyone has picked
        state.hands[p].remove(card)
        state.picks[p] = None
        if card in instant:
            state.left[p].append(card)
            if state.recording:
                state.event("reveal_instant", player=p, card=card)
            state.pending.extend(ability_frames(state, p, card))
        else:
            state.above[p].append(card)
            if state.recording:
                state.event("reveal", player=p, card=card)
    state.draft_kept += 1
    state.pending.append({"k": "after_reveal"})


@AUTO_FRAMES("after_reveal")
def auto_after_reveal(state: DenState, f: dict[str, Any]) -> None:
    n = state.num_players
    if state.draft_kept < state.data.board.draft_keep:
        # step 2: pass the rest face down in the tile's direction
        d = state.direction
        new: list[list[str]] = [[] for _ in range(n)]
        for p in range(n):
            new[(p + d) % n] = state.hands[p]
        state.hands = new
        if state.recording:
            for p in range(n):
                state.event("receive", to=[p], secret={"cards": list(new[p])}, player=p, n=len(new[p]))
        return
    # step 4: leftovers go under the location deck; 2 players: face up beside the board,
    # except instant cards, which go under the deck
    instant = state.data.instant
    for p in range(n):
        for c in state.hands[p]:
            if n == 2 and c not in instant:
                state.neutral.append(c)
                if state.recording:
                    state.event("neutral", card=c)
            else:
                state.loc_deck.insert(0, c)
        state.hands[p] = []
    start_thieving(state)


# -- thieving phase: rulebook "Phase Voleurs" ----------------------------------------------
def start_thieving(state: DenState) -> None:
    state.phase = "thieving"
    state.passed = [False] * state.num_players
    state.turn = state.holder
    if state.recording:
        state.event("thieving", round=state.round, player=state.turn)


@AUTO_FRAMES("end_turn")
def auto_end_turn(state: DenState, f: dict[str, Any]) -> None:
    """One action per turn, in the tile's direction, skipping passed players."""
    if all(state.passed):
        maintenance(state)
        return
    t, d, n, passed = state.turn, state.direction, state.num_players, state.passed
    for _ in range(n):
        t = (t + d) % n
        if not passed[t]:
            state.turn = t
            return


# -- maintenance: rulebook "Phase Maintenance", steps 1 to 7 in order ---------------------------
def maintenance(state: DenState) -> None:
    n = state.num_players
    lim = state.data.thief_limit
    # 1. thieves on the locations above each board go to that board (max 6, excess to the
    #    Forest); the cards go face down to the left. 2 players: the neutral cards' thieves
    #    go to the Forest and the cards under the location deck.
    loc_thieves = state.loc_thieves
    for p in range(n):
        got = 0
        for c in state.above[p]:
            got += loc_thieves.pop(c, 0)
        room = lim - state.thieves[p]
        keep = got if got < room else room if room > 0 else 0   # = min(got, max(0, room))
        state.thieves[p] += keep
        state.forest += got - keep
        state.left[p] += state.above[p]
        state.above[p] = []
    for c in state.neutral:
        state.forest += state.loc_thieves.pop(c, 0)
        state.loc_deck.insert(0, c)
    state.neutral = []
    # 2. treasures and thieves on the fences above the boards go to the supply; the fences
    #    go face down to the right
    for p in range(n):
        for fid in state.fences_above[p]:
            state.forest += state.fence_thieves.pop(fid, 0)
            for t, k in state.fence_treasures.pop(fid, {}).items():
                state.city[t] += k
            state.right[p].append(fid)
        state.fences_above[p] = []
    # 3. power tile payments to the City; the top tile of each stack to the box; reveal the next
    for i, paid in enumerate(state.power_paid):
        if paid is not None:
            state.city[paid] += 1
        state.power_paid[i] = None
        if state.power_stacks[i]:
            state.power_gone.append(state.power_stacks[i].pop())
    # 4. the Witch's treasures to the City
    for i, used in enumerate(state.witch_used):
        if used:
            state.city[state.data.witch_treasures[i]] += 1
            state.witch_used[i] = False
    # 5. thieves used to steal a treasure to the Forest
    state.forest += state.steal_slot
    state.steal_slot = 0
    # 6. treasures used to recruit a thief to the City
    for t in TREASURES:
        state.city[t] += state.recruit_slot[t]
        state.recruit_slot[t] = 0
    if state.recording:
        state.event("maintenance", round=state.round)
    if state.round >= state.data.board.rounds:
        final_scoring(state)
        return
    # 7. the direction tile goes to the lowest prestige
    low = min(state.prestige)
    tied = [p for p in range(n) if state.prestige[p] == low]
    if len(tied) > 1:   # tie: fewest treasures + thieves on the board
        least = min(stock(state, p) for p in tied)
        tied = [p for p in tied if stock(state, p) == least]
    if len(tied) > 1:   # still tied: the tile holder chooses among them
        state.pending.append({"k": "give", "p": state.holder, "among": tied})
        state.phase = "handover"
        return
    hand_over(state, tied[0])


def stock(state: DenState, p: int) -> int:
    return sum(state.treasures[p].values()) + state.thieves[p]


def hand_over(state: DenState, q: int) -> None:
    state.holder = q
    state.face = "2" if state.face == "13" else "13"   # the new holder flips the tile
    state.round += 1
    if state.recording:
        state.event("hand_over", player=q, direction=state._direction_word())
    start_scouting(state)


# -- end of game: rulebook "Fin de Partie" ----------------------------------------------------
def final_scoring(state: DenState) -> None:
    n = state.num_players
    data = state.data
    b = data.board
    majority = [0] * n
    # step 1: strict majority of each fence type; a tie for the most scores nothing
    fence_type = data.fence_type
    tally: dict[str, list[int]] = {}   # fence type -> how many each player holds
    for p in range(n):
        for f in state.right[p]:
            counts = tally.get(fence_type[f])
            if counts is None:
                counts = tally[fence_type[f]] = [0] * n
            counts[p] += 1
    for ft in FENCE_TYPES:
        counts = tally.get(ft)
        if counts is not None:         # (a type nobody holds scores nothing)
            top = max(counts)
            if counts.count(top) == 1:
                majority[counts.index(top)] += b.majority.values.get(ft, 0)
    # step 2: scheme sets = the smaller count of the scheme's two location types
    scheme_pts, sets = [0] * n, [0] * n
    vals = b.scheme_sets.values
    loc_type = data.loc_type
    for p in range(n):
        a, c = data.scheme_types[state.scheme[p]]
        types = list(map(loc_type.__getitem__, state.left[p]))
        has_a, has_c = types.count(a), types.count(c)
        sets[p] = has_a if has_a < has_c else has_c
        scheme_pts[p] = vals[sets[p] if sets[p] < len(vals) else len(vals) - 1]
    # step 3: add to the prestige track
    for p in range(n):
        state.prestige[p] += majority[p] + scheme_pts[p]
    state.final = {"majority": majority, "scheme": scheme_pts, "sets": sets}
    state.phase = "end"
    for p in range(n if state.recording else 0):
        state.event("final", player=p, n=state.prestige[p], majority=majority[p],
                   scheme=scheme_pts[p], sets=sets[p])


def pick(state: DenState, p: int, card: str) -> None:
    """Scouting step 2: a hidden, simultaneous pick; revealed when everyone has picked."""
    state.picks[p] = card
    if state.recording:
        state.event("pick", to=[p], secret={"card": card}, player=p)
    if None not in state.picks:
        reveal_picks(state)
