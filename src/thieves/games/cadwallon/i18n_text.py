"""Cadwallon in French and German for the web interface: button texts
(``describe``) and log lines (``translate``).

Names of gangs, arcana, treasures, rooms, adventures, missions and talents, and the
adventure events' texts, come from ``data/i18n.yaml``; the sentences around them are here. Characters keep their
names, and "Player N" stays as it is: the server puts the seat's name in its place.
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from . import components


@lru_cache(maxsize=None)
def texts(lang: str) -> dict[str, str]:
    from thieves.core.data import read_yaml
    raw, _ = read_yaml(components.PKG, "i18n.yaml")
    return {**raw.get("en", {}), **(raw.get(lang) or {})}


@lru_cache(maxsize=1)
def _data() -> components.CadwallonData:
    return components.load()


_PREFIXES = ("gang_", "arcana_", "treasure_", "adv_", "room_", "token_", "mission_", "talent_")


@lru_cache(maxsize=None)
def _name_map(lang: str) -> tuple[tuple[str, str], ...]:
    en, tr = texts("en"), texts(lang)
    pairs: dict[str, str] = {}
    for k, v in en.items():
        if k.startswith(_PREFIXES) and "." not in k and tr.get(k) and tr[k] != v:
            pairs.setdefault(v, tr[k])
    d = _data()
    for z in d.board.zones:            # rooms without a text of their own keep the board's name
        if z.name and tr.get("room_" + z.id):
            pairs.setdefault(z.name, tr["room_" + z.id])
    return tuple(sorted(pairs.items(), key=lambda kv: -len(kv[0])))


def names(s: str, lang: str) -> str:
    """Known English names (gangs, arcana, treasures, rooms, adventures, missions, talents)
    inside ``s`` in ``lang``."""
    if lang == "en" or not s:
        return s
    for en, tr in _name_map(lang):
        if en in s:
            s = re.sub(r"(?<!\w)" + re.escape(en) + r"(?!\w)", lambda _m, t=tr: t, s)
    return s


@lru_cache(maxsize=None)
def event_texts(lang: str) -> dict[str, str]:
    """English adventure event text -> its text in ``lang`` (keys ``event_<adventure>_<round>``)."""
    tr = texts(lang)
    out: dict[str, str] = {}
    for a in _data().adventures.adventures:
        for e in a.events:
            t = tr.get(f"event_{a.id}_{e.round}")
            if e.text and t:
                out.setdefault(e.text, t)
    return out


def talent_name(c: str | None, lang: str) -> str:
    """The talent of character ``c`` in ``lang`` ("" when it has none)."""
    tal = _data().talent_of.get(c or "")
    if not tal:
        return ""
    return texts(lang).get("talent_" + tal) or _data().talent[tal].name


def _who_talent(c: str | None, lang: str) -> str:
    tal = talent_name(c, lang)
    return f"{_who(c)} ({tal})" if tal else _who(c)


def _treasure(kind: str, lang: str) -> str:
    t = _data().ttype.get(kind)
    return texts(lang).get("treasure_" + kind) or (t.name if t is not None else kind)


def mission_name(mid: str | None, lang: str) -> str:
    m = _data().mission.get(mid or "")
    return texts(lang).get("mission_" + (mid or "")) or (m.name if m is not None else (mid or "?"))


# ------------------------------------------------------------------ button texts
ACTIONS: dict[str, dict[str, str]] = {
    "en": {"gang": "Take {0}: {1}", "deploy": "Deploy {0}", "at": "Deploy {0} in {1}",
           "militia": "Roll the die and move {0}", "mm_stay": "The militiaman stays where he is",
           "mm_attack": "The militiaman attacks {0} in {1}", "mm": "The militiaman moves to {0}",
           "act": "Activate {0}", "move": "Move to {0} for 1 AP", "attack": "Attack {0} (1 AP)",
           "open": "Try to open the chest (1 AP)", "force": "Force the chest open (2 AP)",
           "leave": "Leave the district with everything carried (1 AP)", "play": "Play {0}",
           "card": "Play {0} in the fight", "mission": "Hand in mission {0}: {1} (3 AP)",
           "stay": "The injured character stays where it is", "no": "Let it happen (play no card)",
           "nocard": "Play no card", "talent": "Use the talent of {0}", "end": "End your turn",
           "talent_step": "{0} ({1}): jump to {2} (1 AP)", "talent_card": "{0} ({1}): discard {2} for 1 AP",
           "flee": "Flee to {0}", "play_player": "Play {0}: take up to 2 ducats from {1}",
           "play_zone": "Play {0} on the chest in {1}", "take": "Take the {0}", "drop": "Put the {0} down in {1}"},
    "fr": {"gang": "Prendre {0} : {1}", "deploy": "Déployer {0}", "at": "Déployer {0} en {1}",
           "militia": "Lancer le dé et déplacer {0}", "mm_stay": "Le milicien reste sur place",
           "mm_attack": "Le milicien attaque {0} en {1}", "mm": "Le milicien va en {0}",
           "act": "Activer {0}", "move": "Aller en {0} pour 1 PA", "attack": "Attaquer {0} (1 PA)",
           "open": "Tenter d'ouvrir le coffre (1 PA)", "force": "Forcer le coffre (2 PA)",
           "leave": "Quitter le quartier avec tout ce qui est porté (1 PA)", "play": "Jouer {0}",
           "card": "Jouer {0} dans le combat", "mission": "Remplir la mission {0} : {1} (3 PA)",
           "stay": "Le personnage blessé reste sur place", "no": "Laisser faire (aucune carte)",
           "nocard": "Ne jouer aucune carte", "talent": "Utiliser le talent de {0}", "end": "Finir votre tour",
           "talent_step": "{0} ({1}) : sauter en {2} (1 PA)", "talent_card": "{0} ({1}) : défausser {2} pour 1 PA",
           "flee": "Fuir en {0}", "play_player": "Jouer {0} : prendre jusqu'à 2 ducats à {1}",
           "play_zone": "Jouer {0} sur le coffre en {1}", "take": "Prendre : {0}", "drop": "Déposer : {0} en {1}"},
    "de": {"gang": "{0} nehmen: {1}", "deploy": "{0} aufstellen", "at": "{0} auf {1} aufstellen",
           "militia": "Würfeln und {0} bewegen", "mm_stay": "Der Milizionär bleibt stehen",
           "mm_attack": "Der Milizionär greift {0} auf {1} an", "mm": "Der Milizionär zieht nach {0}",
           "act": "{0} aktivieren", "move": "Nach {0} ziehen für 1 AP", "attack": "{0} angreifen (1 AP)",
           "open": "Versuchen, die Truhe zu öffnen (1 AP)", "force": "Die Truhe aufbrechen (2 AP)",
           "leave": "Das Viertel mit allem Getragenen verlassen (1 AP)", "play": "{0} spielen",
           "card": "{0} im Kampf spielen", "mission": "Mission {0} abgeben: {1} (3 AP)",
           "stay": "Die verletzte Figur bleibt stehen", "no": "Geschehen lassen (keine Karte)",
           "nocard": "Keine Karte spielen", "talent": "Das Talent von {0} nutzen", "end": "Zug beenden",
           "talent_step": "{0} ({1}): nach {2} springen (1 AP)", "talent_card": "{0} ({1}): {2} für 1 AP abwerfen",
           "flee": "Nach {0} fliehen", "play_player": "{0} spielen: bis zu 2 Dukaten von {1} nehmen",
           "play_zone": "{0} auf die Truhe auf {1} spielen", "take": "{0} nehmen", "drop": "{0} in {1} ablegen"},
}


def _who(c: str | None) -> str:
    return _data().name_of.get(c, c or "?") if c else "?"


def _zone(z: str, lang: str) -> str:
    zone = _data().zone.get(z)
    room = texts(lang).get("room_" + z) or (zone.name if zone is not None and zone.name else "")
    return f"{z} ({room})" if room else z


def describe(action: str, obs: dict[str, Any], lang: str) -> str:
    a = ACTIONS.get(lang, ACTIONS["en"])
    tx = texts(lang)
    parts = action.split()
    v = parts[0] if parts else ""
    arg = parts[1] if len(parts) > 1 else None
    d = _data()
    try:
        if v == "gang" and arg:
            g = d.gang[arg]
            return a["gang"].format(tx.get("gang_" + arg, g.name),
                                    ", ".join(_who_talent(c.id, lang) for c in g.characters))
        if v in ("deploy", "act") and arg:
            return a[v].format(_who_talent(arg, lang))
        if v in ("attack", "militia") and arg:
            return a[v].format(_who(arg))
        if v == "at" and arg:
            return a["at"].format(_who(obs.get("deploy_selected")), arg)
        if v == "mm" and arg:
            if arg == "stay":
                return a["mm_stay"]
            victim = next((c for c, z in (obs.get("positions") or {}).items()
                           if z == arg and c not in d.militia), None)
            return a["mm_attack"].format(_who(victim), arg) if victim else a["mm"].format(arg)
        if v in ("move", "flee") and arg:
            return a[v].format(_zone(arg, lang))
        if v == "play" and arg and len(parts) > 2:
            target = parts[2]
            if target in d.zone:
                return a["play_zone"].format(tx.get("arcana_" + arg, arg), _zone(target, lang))
            return a["play_player"].format(tx.get("arcana_" + arg, arg), f"Player {int(target[1:])}")
        if v in ("play", "card") and arg:
            return a[v].format(tx.get("arcana_" + arg, arg))
        if v == "take" and arg:
            return a["take"].format(_treasure(arg, lang))
        if v == "drop" and arg and len(parts) > 2:
            return a["drop"].format(_treasure(arg, lang), _zone(parts[2], lang))
        if v == "mission" and arg:
            return a["mission"].format(arg, mission_name((obs.get("missions") or [])[int(arg) - 1], lang))
        if v == "talent":
            c = obs.get("active")
            if arg in d.card:                      # sleight of hand: discard a card for 1 AP
                return a["talent_card"].format(_who(c), talent_name(c, lang), tx.get("arcana_" + arg, arg))
            if arg in d.zone:                      # shadow step: a jump to a zone
                return a["talent_step"].format(_who(c), talent_name(c, lang), _zone(arg, lang))
            return a["talent"].format(_who(c))
        if v in a and arg is None:
            return a[v]
    except (KeyError, IndexError, ValueError, TypeError):
        return action
    return action


# ------------------------------------------------------------------ log lines
_P = r"(Player \d+)"
_X = r"(.+?)"
EVENTS: list[tuple[str, dict[str, str]]] = [
    (rf"^Adventure: {_X}\. {_X} is first player\.$",
     {"fr": "Aventure : {0}. {1} est premier joueur.", "de": "Abenteuer: {0}. {1} ist Startspieler."}),
    (rf"^{_P} deploys {_X} in (\w+)\.$", {"fr": "{0} déploie {1} en {2}.", "de": "{0} stellt {1} auf {2} auf."}),
    (r"^Round (\d+) begins\.$", {"fr": "Le tour {0} commence.", "de": "Runde {0} beginnt."}),
    (rf"^{_P} draws an arcana card\.$", {"fr": "{0} pioche une carte Arcane.", "de": "{0} zieht eine Arkanakarte."}),
    (rf"^You draw {_X}\.$", {"fr": "Vous piochez {0}.", "de": "Du ziehst {0}."}),
    (rf"^{_P} rolls (\d+) for {_X}\.$", {"fr": "{0} obtient {1} pour {2}.", "de": "{0} würfelt {1} für {2}."}),
    (rf"^{_P} plays {_X}: the chest in (\w+) shows its chest face\.$",
     {"fr": "{0} joue {1} : le coffre en {2} montre sa face coffre.",
      "de": "{0} spielt {1}: die Truhe auf {2} zeigt ihre Truhenseite."}),
    (rf"^{_P} plays {_X}: takes (\d+) ducats from {_P}\.$",
     {"fr": "{0} joue {1} : prend {2} ducats à {3}.", "de": "{0} spielt {1}: nimmt {3} {2} Dukaten."}),
    (rf"^{_P} plays {_X} in the fight\.$", {"fr": "{0} joue {1} dans le combat.", "de": "{0} spielt {1} im Kampf."}),
    (rf"^{_P} plays {_X} on {_X}\.$", {"fr": "{0} joue {1} sur {2}.", "de": "{0} spielt {1} auf {2}."}),
    (rf"^{_P} activates {_X}\.$", {"fr": "{0} active {1}.", "de": "{0} aktiviert {1}."}),
    (rf"^{_P} ends the turn\.$", {"fr": "{0} termine son tour.", "de": "{0} beendet den Zug."}),
    (rf"^{_X} sets off from (\w+) to (\w+)\.$",
     {"fr": "{0} part de {1} vers {2}.", "de": "{0} bricht von {1} nach {2} auf."}),
    (rf"^{_X} moves from (\w+) to (\w+)\.$", {"fr": "{0} va de {1} à {2}.", "de": "{0} zieht von {1} nach {2}."}),
    (rf"^{_X} shadow-steps from (\w+) to (\w+)\.$",
     {"fr": "{0} passe par les ombres de {1} à {2}.", "de": "{0} gleitet durch die Schatten von {1} nach {2}."}),
    (rf"^{_X} moves to (\w+)\.$", {"fr": "{0} va en {1}.", "de": "{0} zieht nach {1}."}),
    (rf"^{_X} rolls (\d+) against Spirit (\d+): the chest opens\.$",
     {"fr": "{0} obtient {1} contre Esprit {2} : le coffre s'ouvre.",
      "de": "{0} würfelt {1} gegen Geist {2}: die Truhe geht auf."}),
    (rf"^{_X} rolls (\d+) against Spirit (\d+): the chest stays shut\.$",
     {"fr": "{0} obtient {1} contre Esprit {2} : le coffre reste fermé.",
      "de": "{0} würfelt {1} gegen Geist {2}: die Truhe bleibt zu."}),
    (rf"^{_X} takes an? {_X} and (\d+) ducats\.$",
     {"fr": "{0} prend : {1} et {2} ducats.", "de": "{0} nimmt: {1} und {2} Dukaten."}),
    (rf"^{_X} attacks {_X} in (\w+)\.$", {"fr": "{0} attaque {1} en {2}.", "de": "{0} greift {1} auf {2} an."}),
    (rf"^{_X} rolls \[(.*)\], {_X} rolls \[(.*)\]\.$",
     {"fr": "{0} obtient [{1}], {2} obtient [{3}].", "de": "{0} würfelt [{1}], {2} würfelt [{3}]."}),
    (rf"^{_X} wins the fight\.$", {"fr": "{0} gagne le combat.", "de": "{0} gewinnt den Kampf."}),
    (rf"^{_X} flees to (\w+)\.$", {"fr": "{0} fuit en {1}.", "de": "{0} flieht nach {1}."}),
    (rf"^{_X} is distracted and does not move\.$",
     {"fr": "{0} est distrait et ne bouge pas.", "de": "{0} ist abgelenkt und bewegt sich nicht."}),
    (r"^The alarm is raised: characters may now leave the district\.$",
     {"fr": "L'alarme est donnée : les personnages peuvent maintenant quitter le quartier.",
      "de": "Der Alarm ist ausgelöst: die Figuren dürfen jetzt das Viertel verlassen."}),
    (r"^Game over: The turn track is finished\.$",
     {"fr": "Fin de la partie : la piste des tours est terminée.", "de": "Spielende: die Rundenleiste ist zu Ende."}),
    (rf"^{_X} stays in (\w+)\.$", {"fr": "{0} reste en {1}.", "de": "{0} bleibt auf {1}."}),
    (rf"^{_P} plays {_X}: \+(\d+) Action Points?\.$",
     {"fr": "{0} joue {1} : +{2} point(s) d'action.", "de": "{0} spielt {1}: +{2} Aktionspunkt(e)."}),
    (rf"^{_P} plays {_X}: the roll is made again\.$",
     {"fr": "{0} joue {1} : le jet est refait.", "de": "{0} spielt {1}: der Wurf wird wiederholt."}),
    (rf"^{_P} lets the roll stand\.$", {"fr": "{0} laisse le jet tel quel.", "de": "{0} lässt den Wurf gelten."}),
    (rf"^{_X} leaves the district with (\d+) treasures?\.$",
     {"fr": "{0} quitte le quartier avec {1} trésor(s).", "de": "{0} verlässt das Viertel mit {1} Schatz/Schätzen."}),
    (rf"^{_X} discards {_X} for (\d+) Action Points?\.$",
     {"fr": "{0} défausse {1} pour {2} point(s) d'action.", "de": "{0} wirft {1} für {2} Aktionspunkt(e) ab."}),
    (rf"^{_X} forces the chest in (\w+)\.$", {"fr": "{0} force le coffre en {1}.", "de": "{0} bricht die Truhe auf {1} auf."}),
    (r"^Portcullises drop on (.+)\.$", {"fr": "Des herses tombent en {0}.", "de": "Fallgitter fallen auf {0}."}),
    (r"^Final ducats: (.+)$", {"fr": "Ducats finaux : {0}", "de": "Dukaten am Ende: {0}"}),
    (rf"^{_P} pays (\d+) ducats to the bank\.$",
     {"fr": "{0} paie {1} ducats à la banque.", "de": "{0} zahlt {1} Dukaten an die Bank."}),
    (rf"^{_X} slips away with everything it carries\.$",
     {"fr": "{0} s'échappe avec tout ce qu'il porte.", "de": "{0} entwischt mit allem, was er trägt."}),
    (rf"^{_X} cannot go that far: {_P} plots the move again\.$",
     {"fr": "{0} ne peut pas aller si loin : {1} refait le déplacement.",
      "de": "{0} kann nicht so weit: {1} plant die Bewegung neu."}),
    (rf"^{_X} takes (\d+) ducats from {_X}\.$", {"fr": "{0} prend {1} ducats à {2}.", "de": "{0} nimmt {2} {1} Dukaten."}),
    (rf"^{_X} takes an? {_X} from {_X}\.$", {"fr": "{0} prend : {1} à {2}.", "de": "{0} nimmt {2}: {1}."}),
    (rf"^{_X} sets off from (\w+) out of the district\.$",
     {"fr": "{0} part de {1} pour quitter le quartier.", "de": "{0} bricht von {1} aus dem Viertel auf."}),
    (rf"^{_P} completes {_X} for (\d+) ducats\.$",
     {"fr": "{0} remplit la mission « {1} » pour {2} ducats.",
      "de": "{0} erfüllt die Mission „{1}“ für {2} Dukaten."}),
    (rf"^{_P} takes {_X}\.$", {"fr": "{0} prend {1}.", "de": "{0} nimmt {1}."}),
    (rf"^{_X} picks up (\d+) ducats in (\w+)\.$",
     {"fr": "{0} ramasse {1} ducats en {2}.", "de": "{0} hebt {1} Dukaten auf {2} auf."}),
    (rf"^{_X} puts an? {_X} down in {_X}\.$",
     {"fr": "{0} dépose : {1} en {2}.", "de": "{0} legt ab: {1} in {2}."}),
    (rf"^{_X} rolls (\d+) and tries again \(lucky hands\)\.$",
     {"fr": "{0} obtient {1} et retente sa chance (mains chanceuses).",
      "de": "{0} würfelt {1} und versucht es noch einmal (Glückshände)."}),
    (rf"^{_X}: -2 Movement for this move\.$",
     {"fr": "{0} : -2 en Mouvement pour ce déplacement.", "de": "{0}: -2 Bewegung für diese Bewegung."}),
    (rf"^{_X} rolls \[(.*)\]\.$", {"fr": "{0} obtient [{1}].", "de": "{0} würfelt [{1}]."}),
    (rf"^{_X} has nothing to give\.$", {"fr": "{0} n'a rien à donner.", "de": "{0} hat nichts abzugeben."}),
    (rf"^{_X} cannot flee and stays put\.$",
     {"fr": "{0} ne peut pas fuir et reste sur place.", "de": "{0} kann nicht fliehen und bleibt stehen."}),
    (rf"^{_P} fails the Spirit test of {_X} \((\d+)\)\.$",
     {"fr": "{0} rate le test d'Esprit de la mission « {1} » ({2}).",
      "de": "{0} besteht die Geistprobe der Mission „{1}“ nicht ({2})."}),
    (rf"^{_P} passes the Spirit test of {_X} \((\d+)\)\.$",
     {"fr": "{0} réussit le test d'Esprit de la mission « {1} » ({2}).",
      "de": "{0} besteht die Geistprobe der Mission „{1}“ ({2})."}),
    (rf"^{_P} pays (\d+) ducats, put in {_X}\.$",
     {"fr": "{0} paie {1} ducats, posés en {2}.", "de": "{0} zahlt {1} Dukaten, die in {2} gelegt werden."}),
    (rf"^{_P} plays no arcana card in the fight\.$",
     {"fr": "{0} ne joue aucune carte Arcane dans le combat.", "de": "{0} spielt keine Arkanakarte im Kampf."}),
]
_COMPILED = [(re.compile(p), t) for p, t in EVENTS]
_EVENT = re.compile(r"^Event: (.+)$")     # an adventure event's own text (data/i18n.yaml)


def translate(text: str, lang: str) -> str:
    """A log line in ``lang``; a line no pattern knows stays as it is."""
    if lang not in ("fr", "de"):
        return text
    m = _EVENT.match(text)
    if m:
        return f"{texts(lang)['event']}{' :' if lang == 'fr' else ':'} {event_texts(lang).get(m[1], m[1])}"
    for rx, tr in _COMPILED:
        m = rx.match(text)
        if m:
            return tr[lang].format(*(names(g or "", lang) for g in m.groups()))
    return text
