"""The turn and the round (§"Le tour de jeu"), the adventure board's events (§"Tableau
d'aventure") and the end of the game (§"Fin de la partie"), as module functions taking the
state."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .constants import AP_PER_ROUND

if TYPE_CHECKING:
    from .rules import CadwallonState


def draw(state: CadwallonState, p: int, count: int = 1) -> None:
    """Player ``p`` draws ``count`` arcana cards (the discard pile is shuffled into a new deck
    when the deck runs out); the card is secret to the others."""
    for _ in range(count):
        if not state.deck and state.discard:
            state.deck = state.discard
            state.discard = []
            state.rng.shuffle(state.deck)
        if not state.deck:
            return
        kind = state.deck.pop()
        state.hands[p].append(kind)
        state.hands[p].sort()
        if state.recording:
            state.event("draw", to=[p], secret={"card": kind}, player=p)


def start_turn(state: CadwallonState) -> None:
    """§"Le tour de jeu": the current player's turn begins."""
    p = state.current
    state.active, state.act = None, None
    draw(state, p)  # step 1: draw 1 arcana card
    # step 2: move a militiaman (twice after the alarm on some adventures)
    state.militia_left = state.adv.special.militia_moves_after_alarm if state.alarm else 1
    state.phase = "militia"


def end_turn(state: CadwallonState) -> None:
    """The current player's turn ends: the next player's begins, or the round ends (or the
    game, when no thief is left in the district)."""
    state.active, state.act = None, None
    state.turns_done += 1
    thieves = state.data.char
    for c in state.pos:
        if c in thieves:
            break
    else:
        finish(state, "empty")  # no thief is left in the district
        return
    if state.turns_done >= state.num_players:
        end_round(state)
        if state.over:
            return
    else:
        state.current = (state.current + 1) % state.num_players
    start_turn(state)


def end_round(state: CadwallonState) -> None:
    """The first player advances the round marker; its event applies at once; AP come back."""
    state.turns_done = 0
    state.activated = []
    state.injured = {}
    # §"Le tour de jeu": the players take back the Action Points they spent
    state.ap = [AP_PER_ROUND] * state.num_players
    if state.round >= state.adv.track:
        finish(state, "track")  # the turn track is finished
        return
    state.round += 1
    state.current = state.first
    if state.recording:
        state.event("round", round=state.round)
    for e in state.adv.events:
        if e.round == state.round:
            apply_event(state, e)


def apply_event(state: CadwallonState, e: Any) -> None:
    """§"Tableau d'aventure": events apply as soon as the marker reaches their space."""
    d = state.data
    if e.text:
        if state.recording:
            state.event("adventure_event", event=f"{state.adventure}_{e.round}")
    if e.effect == "alarm":
        state.alarm = True
        if state.recording:
            state.event("alarm")
    if e.effect in ("alarm", "portcullis"):
        for z in e.zones:
            if z not in state.portcullis:
                state.portcullis.append(z)
        if state.recording:
            state.event("portcullis", zones=list(e.zones))
    elif e.effect == "ducats":
        zone = d.zone_of(e.zone)
        amount = min(e.amount, state.bank)
        state.bank -= amount
        state.room_ducats[zone] = state.room_ducats.get(zone, 0) + amount
    elif e.effect == "draw":
        for p in range(state.num_players):
            draw(state, p, e.amount)
    elif e.effect == "reseal":
        for ch in state.chests.values():
            ch["sealed"] = True
    elif e.effect == "new_missions":
        for i, m in enumerate(state.missions):
            if m is not None:
                state.mission_discard.append(m)
            state.missions[i] = state.mission_deck.pop() if state.mission_deck else None
    elif e.effect == "remove_tokens":
        state.tokens = {z: k for z, k in state.tokens.items() if k != e.token}


def finish(state: CadwallonState, why: str) -> None:
    """§"Fin de la partie": the game ends (``why``: "empty" district, or "track" finished)."""
    state.over = True
    state.phase = "over"
    state.queue = []
    if why == "empty":
        if state.recording:
            state.event("over_empty")
    else:
        if state.recording:
            state.event("over_track")
    if state.recording:
        sc = state._scores()
        for p in range(state.num_players):
            state.event("final", player=p, n=int(sc[p]))
