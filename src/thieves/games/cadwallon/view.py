"""How Cadwallon explains itself: reasons for illegal actions (read from the typed
:class:`~.notation.Action`), and the action words and text map for the terminal, which come
from the game's presentation (module functions taking the state)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ...core.errors import IllegalAction
from .constants import FORCE_AP, OPEN_AP
from .notation import Action

if TYPE_CHECKING:
    from .presentation import CadwallonPresentation
    from .rules import CadwallonState


# -- explanations -----------------------------------------------------------------------------
def explain(state: CadwallonState, player: int, action: str) -> str | None:
    try:
        a = Action.parse(action)
    except IllegalAction as exc:
        return str(exc)
    verb = a.verb
    if state.queue:
        kind = state.queue[0]["kind"]
        hint = {"card": "play a combat arcana card ('card fury') or 'nocard'",
                "take": "choose the treasure to take ('take scroll')",
                "drop": "put a treasure down in an empty room ('drop red c2')",
                "flee": "choose where the beaten character flees ('flee e5')",
                "reroll": "after the dice: play a re-roll card ('card second_chance', "
                          "'card jinx') or 'nocard'",
                "injury": "an enemy thief is moving: 'play niggling_injury' or 'no'",
                "jinx": "an opponent's roll succeeded: 'play jinx' or 'no'",
                "replot": "the move was cut by a Niggling injury: plot it again within the "
                          "reduced Movement ('move c2', 'leave' or 'stay'; 'play run' first if you hold Run)"}.get(kind, "")
        if kind in ("injury", "jinx", "replot"):
            return f"waiting for an answer to an interrupt: {hint}"
        return f"a fight is being settled: {hint}"
    if state.phase == "gang":
        return "choose a gang first: " + ", ".join(f"'gang {g}'" for g in state.data.gang_ids
                                                   if g not in state.gangs)
    if state.phase == "deploy" and state.deploy_sel is None and verb != "deploy":
        return "choose a character to deploy first ('deploy E1')"
    if state.phase == "deploy" and state.deploy_sel is not None and verb != "at":
        return f"choose an empty deployment zone for {state.deploy_sel} ('at b1')"
    if state.phase == "militia" and verb != "militia":
        return "first move a militiaman: 'militia kornak' or 'militia valrut'"
    if state.phase == "militia_move" and verb != "mm":
        return "move the militiaman: 'mm <zone>' or 'mm stay'"
    if verb == "deploy":
        return f"{a.arg} is not one of your characters waiting to be deployed"
    if verb == "at":
        return "characters deploy on an empty deployment zone"
    if verb in ("move", "leave", "open", "force", "attack", "talent") and state.active is None:
        return "activate a character first ('act E1')"
    if verb == "act":
        if a.arg in state.activated:
            return f"{a.arg} has already been activated this round"
        if state.ap[player] < 1:
            return "no Action Points left: no more characters can be activated"
        return f"{a.arg} is not one of your characters in the district"
    if verb in ("move", "leave") and state.act and state.act["moved"]:
        return "this character has already used its move this activation"
    if verb == "leave" and not state.alarm:
        return "nobody may leave the district before the alarm is raised"
    if verb == "leave":
        return "leaving needs an open deployment zone in reach with one Movement point to spare"
    if verb in ("open", "force", "attack") and state.act and state.act["acted"]:
        return "this character has already used its action this activation"
    if verb in ("open", "force"):
        chest = state.chests.get(state.pos.get(state.active, ""))
        if chest is None:
            return "there is no chest in this character's zone"
        if verb == "open" and chest["sealed"]:
            return "a chest showing its chest face can only be forced"
        return f"not enough Action Points to {verb} ({OPEN_AP if verb == 'open' else FORCE_AP} needed)"
    if verb == "attack":
        if a.arg in state.data.militia:
            return "a character can never attack a militiaman"
        if (state.options["attack_needs_movement"] and state.act and state.act["moved"]
                and state.act.get("left", 1) < 1):
            return ("entering an enemy's zone to attack is a step of the move, and this "
                    "character has no Movement point left")
        return f"{a.arg} is not an enemy in an adjacent zone (or no AP left)"
    if verb == "move":
        if state.ap[player] < 1:
            return "a move costs 1 Action Point"
        return f"{a.arg} is not an empty zone within this character's Movement"
    if verb == "mission":
        return "a mission needs 3 AP and the treasures it names on your characters in the district"
    if verb == "play" and a.arg in ("niggling_injury", "jinx"):
        return (f"{a.arg} is an interrupt: it is offered when its moment comes "
                "(an enemy thief's move, an opponent's successful roll)")
    if verb == "play":
        return "you do not hold that card, or it cannot be played now"
    return None


# -- presentation: one place, the game's Presentation (English for the terminal) ---------
def _presentation(state: CadwallonState, viewer: int | None) -> CadwallonPresentation:
    presentation: CadwallonPresentation = state.game.presentation(viewer, None, "en",
                                                                  state.options.get("data_dir"))
    return presentation


def describe_action(state: CadwallonState, action: str) -> str:
    to_act = state._players_to_act()
    viewer = to_act[0] if to_act else None
    return _presentation(state, viewer).action_text(state.observation(viewer), action)


def render_text(state: CadwallonState, player: int | None) -> str:
    return _presentation(state, player).text_view(state.observation(player))
