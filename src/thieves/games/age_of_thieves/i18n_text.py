"""Age of Thieves in French and German for the web interface: button texts
(``describe_action``) and log lines (``translate_event``).

Names of cards, tokens, jewels, districts and events come from
``data/i18n.yaml`` (``card.*``, ``token.*``, ``gem.*``, ``district.*``,
``event.*``); the sentences around them are here.
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, Callable

LANGS = ("en", "fr", "de")


@lru_cache(maxsize=None)
def texts(lang: str) -> dict[str, str]:
    """The game's texts in ``lang`` with English filling gaps (read once)."""
    from thieves.core.data import read_yaml
    raw, _ = read_yaml("thieves.games.age_of_thieves", "i18n.yaml")
    return {**raw.get("en", {}), **raw.get(lang, {})}


_NAME_PREFIXES = ("special.", "card.", "token.", "gem.", "district.", "event.", "exit.", "kind.")


@lru_cache(maxsize=None)
def _name_map(lang: str) -> tuple[tuple[str, str], ...]:
    """English names -> names in ``lang``, longest first (for replacing inside a phrase)."""
    en, tr = texts("en"), texts(lang)
    pairs = {}
    for k, v in en.items():
        if k.startswith(_NAME_PREFIXES) and tr.get(k) and tr[k] != v:
            pairs.setdefault(v, tr[k])
            pairs.setdefault(v[:1].upper() + v[1:], tr[k][:1].upper() + tr[k][1:])
    return tuple(sorted(pairs.items(), key=lambda kv: -len(kv[0])))


def names(s: str, lang: str) -> str:
    """Every known English name inside ``s`` said in ``lang``."""
    if lang == "en" or not s:
        return s
    pairs = _name_map(lang)
    for en, tr in pairs:
        if s == en:
            return tr
    out = s
    for en, tr in pairs:
        if len(en) > 3 and en in out:
            out = re.sub(r"(?<![\w-])" + re.escape(en) + r"(?![\w-])", lambda _m, t=tr: t, out)
    return out


# ------------------------------------------------------------------ small words
WORDS: dict[str, dict[str, str]] = {
    "en": {},
    "fr": {"your_special": "votre carte spéciale", "thief": "voleur", "yellow": "joyau jaune", "green": "joyau vert", "emperor": "Joyau de l'Empereur",
           "trinket": "babiole", "token": "jeton", "guard": "garde", "captain": "capitaine",
           "on": "sur", "AP": "PA", "nothing": "rien", "nobody: the thieves all lose": "personne : les voleurs perdent tous",
           "all_left": "tous partis", "defeat": "défaite",
           "calm_over": "fin de la nuit calme", "dawn": "l'aube"},
    "de": {"your_special": "deine Spezialkarte", "thief": "Dieb", "yellow": "gelben Juwel", "green": "grünen Juwel", "emperor": "Juwel des Kaisers",
           "trinket": "Schmuckstück", "token": "Plättchen", "guard": "Wächter", "captain": "Hauptmann",
           "on": "auf", "AP": "AP", "nothing": "nichts", "nobody: the thieves all lose": "niemand: alle Diebe verlieren",
           "all_left": "alle fort", "defeat": "Niederlage",
           "calm_over": "ruhige Nacht vorbei", "dawn": "Morgengrauen"},
}


def word(w: str, lang: str) -> str:
    return WORDS.get(lang, {}).get(w, w)


def _on(s: str, lang: str) -> str:
    """"Firebomb (on Confusing Gas) 2 AP" with the names and small words translated."""
    s = names(s, lang)
    if lang != "en":
        s = s.replace("(on ", f"({word('on', lang)} ").replace(" AP", " " + word("AP", lang))
    return s


# ------------------------------------------------------------------ button texts
ACTIONS: dict[str, dict[str, str]] = {
    "en": {"start": "Start on {0}", "jewel": "Put the new yellow jewel on {0}", "place": "Place a guard on {0}",
           "take_guard": "Take {0} from the board (the supply is empty)", "take": "Take the {0}",
           "take_token": "Take the city token", "discard": "Discard {0}", "lose": "Lose your {0}",
           "plan": "Plan {0}", "special_on": "Plan your special card on {0}",
           "special": "Use your thief's special action", "ap": "Put {0} AP on this card",
           "add": "Add the AP token {0}", "next": "Finish this card", "done": "Finish planning",
           "sneak": "{move}: {0} (up to 4 spaces, may pick up and steal)",
           "sprint": "{move}: {0} (up to 6 spaces, movement only)", "cleverness": "{ambush}: {0} (draw 1 card)",
           "cunning": "{ambush}: {0} (draw 2 cards, +2 AP next round)", "play": "Play {0}", "decline": "Decline {0}",
           "to": "Move to {0}", "sewer": "Go through the sewers to {0}", "steal": "Steal the {1} of {0}",
           "know": "Use Know the City (+1 space)", "leave": "Leave Hadria by {0}", "stop": "End this movement",
           "guard": "Target {0}", "thief": "Target {0}", "at": "Target space {0}",
           "token": "Take {1} from {0}", "nothing": "No target", "gstep": "Move the guard to {0}",
           "gstop": "The guard stops here", "assign": "The watch chases: {0}", "first": "{0} moves first"},
    "fr": {"start": "Commencer sur {0}", "jewel": "Poser le nouveau joyau jaune sur {0}",
           "place": "Placer un garde sur {0}", "take_guard": "Prendre {0} sur le plateau (la réserve est vide)",
           "take": "Prendre le {0}", "take_token": "Prendre le jeton de ville", "discard": "Défausser {0}",
           "lose": "Perdre votre {0}", "plan": "Planifier {0}", "special_on": "Planifier votre carte spéciale sur {0}",
           "special": "Utiliser l'action spéciale de votre voleur", "ap": "Mettre {0} PA sur cette carte",
           "add": "Ajouter le jeton PA {0}", "next": "Terminer cette carte", "done": "Terminer la planification",
           "sneak": "{move} : {0} (jusqu'à 4 cases, ramasser et voler permis)",
           "sprint": "{move} : {0} (jusqu'à 6 cases, déplacement seul)", "cleverness": "{ambush} : {0} (piochez 1 carte)",
           "cunning": "{ambush} : {0} (piochez 2 cartes, +2 PA à la manche suivante)", "play": "Jouer {0}", "decline": "Refuser {0}",
           "to": "Aller sur {0}", "sewer": "Passer par les égouts jusqu'à {0}", "steal": "Voler le {1} de {0}",
           "know": "Utiliser « Connaître la ville » (+1 case)", "leave": "Quitter Hadria par {0}",
           "stop": "Terminer ce déplacement", "guard": "Cibler {0}", "thief": "Cibler {0}",
           "at": "Cibler la case {0}", "token": "Prendre {1} à {0}", "nothing": "Aucune cible",
           "gstep": "Déplacer le garde sur {0}", "gstop": "Le garde s'arrête ici",
           "assign": "Le guet poursuit : {0}", "first": "{0} se déplace en premier"},
    "de": {"start": "Auf {0} beginnen", "jewel": "Den neuen gelben Juwel auf {0} legen",
           "place": "Einen Wächter auf {0} stellen", "take_guard": "{0} vom Plan nehmen (der Vorrat ist leer)",
           "take": "Den {0} nehmen", "take_token": "Das Stadtplättchen nehmen", "discard": "{0} abwerfen",
           "lose": "{0} verlieren", "plan": "{0} planen", "special_on": "Deine Spezialkarte auf {0} planen",
           "special": "Die Spezialaktion deines Diebs nutzen", "ap": "{0} AP auf diese Karte legen",
           "add": "AP-Plättchen {0} hinzufügen", "next": "Diese Karte abschließen", "done": "Planung beenden",
           "sneak": "{move}: {0} (bis zu 4 Felder, Aufheben und Stehlen erlaubt)",
           "sprint": "{move}: {0} (bis zu 6 Felder, nur Bewegung)", "cleverness": "{ambush}: {0} (1 Karte ziehen)",
           "cunning": "{ambush}: {0} (2 Karten ziehen, +2 AP nächste Runde)", "play": "{0} spielen", "decline": "{0} ablehnen",
           "to": "Nach {0} ziehen", "sewer": "Durch die Kanalisation nach {0}", "steal": "{0} den {1} stehlen",
           "know": "„Wie meine Westentasche“ nutzen (+1 Feld)", "leave": "Hadria über {0} verlassen",
           "stop": "Diese Bewegung beenden", "guard": "{0} als Ziel", "thief": "{0} als Ziel",
           "at": "Feld {0} als Ziel", "token": "{0} das Plättchen {1} nehmen", "nothing": "Kein Ziel",
           "gstep": "Den Wächter nach {0} ziehen", "gstop": "Der Wächter bleibt hier stehen",
           "assign": "Die Wache verfolgt: {0}", "first": "{0} zieht zuerst"},
}


def _thief(obs: dict[str, Any], n: str, lang: str) -> str:
    """Seat ``n`` (numbered from 1) as its thief's name."""
    try:
        t = obs["thieves"][int(n) - 1]
        return texts(lang).get("thief." + t["thief"], t.get("name") or t["thief"])
    except (KeyError, IndexError, ValueError, TypeError):
        return f"Player {n}"


def _figure(g: str, lang: str) -> str:
    return f"{word('captain' if g.startswith('c') else 'guard', lang)} {g}"


def describe(action: str, obs: dict[str, Any], lang: str) -> str:
    """Words for an action in ``lang`` (the notation itself when it is not known)."""
    tx = texts(lang)
    a = ACTIONS.get(lang, ACTIONS["en"])
    verb, _, arg = action.partition(" ")
    parts = arg.split()

    def card(c: str) -> str:
        return tx.get("card." + c, c)

    def space(s: str) -> str:
        return s
    if not arg:
        if verb in ("sneak", "sprint", "cleverness", "cunning"):
            return a[verb].format(card(verb), move=card("move"), ambush=card("ambush"))
        if verb in a:
            return a[verb]
        return action
    if verb in ("start", "jewel", "place", "to", "sewer", "gstep", "at"):
        return a[verb].format(space(arg))
    if verb == "take":
        if arg[:1] in ("g", "c") and arg[1:].isdigit():
            return a["take_guard"].format(_figure(arg, lang))
        if arg == "token":
            return a["take_token"]
        return a["take"].format(tx.get("gem." + arg, word(arg, lang)))
    if verb in ("discard", "plan", "play", "decline"):
        return a[verb].format(WORDS.get(lang, {}).get("your_special", "your special card")
                              if arg == "special" else card(arg))
    if verb == "special":
        return a["special_on"].format(card(arg))
    if verb == "lose":
        return a["lose"].format(tx.get("gem." + arg, tx.get("token." + arg, word(arg, lang))))
    if verb == "ap":
        return a["ap"].format(arg)
    if verb == "add":
        return a["add"].format(tx.get("token." + arg, arg))
    if verb == "steal" and len(parts) == 2:
        return a["steal"].format(_thief(obs, parts[0], lang), tx.get("gem." + parts[1], word(parts[1], lang)))
    if verb == "leave":
        return a["leave"].format(arg)
    if verb == "guard":
        return a["guard"].format(_figure(arg, lang))
    if verb == "thief":
        return a["thief"].format(_thief(obs, arg, lang))
    if verb == "token" and len(parts) == 2:
        return a["token"].format(_thief(obs, parts[0], lang), tx.get("token." + parts[1], parts[1]))
    if verb == "assign":
        return a["assign"].format(", ".join(p.replace(">", " → ") for p in parts))
    if verb == "first":
        out = a["first"].format(_figure(arg, lang))
        return out[:1].upper() + out[1:]
    return action


# ------------------------------------------------------------------ log lines
_T = r"(.+?)"      # a thief's name (proper names stay)
_S = r"(\S+)"      # a space
EVENTS: list[tuple[str, dict[str, str], str]] = [
    # pattern, texts, how each group is translated: n = names, w = small word, d = an action, - = as is
    (rf"^{_T} rolled highest and is start player\.$",
     {"fr": "{0} a fait le plus haut score et devient premier joueur.",
      "de": "{0} hat am höchsten gewürfelt und ist Startspieler."}, "-"),
    (rf"^{_T} starts on {_S}\.$", {"fr": "{0} commence sur {1}.", "de": "{0} beginnt auf {1}."}, "--"),
    (r"^Round (\d+): event (.+) \(compass (\w+)\)\.$",
     {"fr": "Manche {0} : événement {1} (boussole {2}).", "de": "Runde {0}: Ereignis {1} (Kompass {2})."}, "-n-"),
    (r"^Round (\d+): event (.+)\.?$",
     {"fr": "Manche {0} : événement {1}.", "de": "Runde {0}: Ereignis {1}."}, "-n"),
    (rf"^A yellow jewel is placed on {_S}\.$",
     {"fr": "Un joyau jaune est posé sur {0}.", "de": "Ein gelber Juwel wird auf {0} gelegt."}, "-"),
    (r"^No space qualifies for the new yellow jewel\.$",
     {"fr": "Aucune case ne convient au nouveau joyau jaune.",
      "de": "Kein Feld kommt für den neuen gelben Juwel in Frage."}, ""),
    (r"^Guard initiative (\d+) \(rolled (.+)\)\.$",
     {"fr": "Initiative des gardes {0} (dés : {1}).", "de": "Initiative der Wache {0} (gewürfelt: {1})."}, "--"),
    (rf"^{_T} draws an action card\.$",
     {"fr": "{0} pioche une carte action.", "de": "{0} zieht eine Aktionskarte."}, "-"),
    (r"^You draw (.+)\.$", {"fr": "Vous piochez {0}.", "de": "Du ziehst {0}."}, "n"),
    (rf"^{_T} has finished planning\.$",
     {"fr": "{0} a fini sa planification.", "de": "{0} hat die Planung beendet."}, "-"),
    (r"^Your plan: nothing\.$", {"fr": "Votre plan : rien.", "de": "Dein Plan: nichts."}, ""),
    (r"^Your plan: (.+)\.$", {"fr": "Votre plan : {0}.", "de": "Dein Plan: {0}."}, "o"),
    (rf"^{_T} planned (\d+) card\(s\) with (.+) AP\.$",
     {"fr": "{0} a planifié {1} carte(s) avec {2} PA.", "de": "{0} hat {1} Karte(n) mit {2} AP geplant."}, "---"),
    (rf"^{_T} reveals a city token on {_S}: (.+)\.$",
     {"fr": "{0} révèle un jeton de ville sur {1} : {2}.", "de": "{0} deckt ein Stadtplättchen auf {1} auf: {2}."},
     "--n"),
    (rf"^{_T} reveals (.+) \((\d+) AP\): (.+?)(\.?)$",
     {"fr": "{0} révèle {1} ({2} PA) : {3}{4}", "de": "{0} deckt {1} auf ({2} AP): {3}{4}"}, "-o-d-"),
    (rf"^{_T} reveals (.+) and declines it\.$",
     {"fr": "{0} révèle {1} et y renonce.", "de": "{0} deckt {1} auf und verzichtet darauf."}, "-o"),
    (r"^The card has no possible target\.$",
     {"fr": "La carte n'a aucune cible possible.", "de": "Die Karte hat kein mögliches Ziel."}, ""),
    (rf"^The (guard|captain) on {_S} detects (.+)\.$",
     {"fr": "Le {0} sur {1} repère {2}.", "de": "Der {0} auf {1} entdeckt {2}."}, "w-a"),
    (r"^The city watch acts\.$", {"fr": "Le guet de la ville agit.", "de": "Die Stadtwache handelt."}, ""),
    (rf"^A guard is repositioned to {_S}\.$",
     {"fr": "Un garde est déplacé sur {0}.", "de": "Ein Wächter wird nach {0} versetzt."}, "-"),
    (rf"^Smoke covers {_S} and the spaces next to it\.$",
     {"fr": "La fumée couvre {0} et les cases voisines.", "de": "Rauch bedeckt {0} und die Nachbarfelder."}, "-"),
    (rf"^Fire blocks {_S} until the end of the round\.$",
     {"fr": "Le feu bloque {0} jusqu'à la fin de la manche.", "de": "Feuer sperrt {0} bis zum Ende der Runde."},
     "-"),
    (rf"^A (captain|guard) is placed on {_S}\.$",
     {"fr": "Un {0} est placé sur {1}.", "de": "Ein {0} wird auf {1} gestellt."}, "w-"),
    (r"^ALARM! The watch turns out in (.+)\.$",
     {"fr": "ALERTE ! Le guet sort dans {0}.", "de": "ALARM! Die Wache rückt in {0} aus."}, "n"),
    (r"^Game over \((.+)\)\. Winner: (.+)\.$",
     {"fr": "Fin de la partie ({0}). Gagnant : {1}.", "de": "Spielende ({0}). Sieger: {1}."}, "ww"),
    (r"^The Emperors' Jewel is put on (.+)\.$",
     {"fr": "Le Joyau de l'Empereur est posé sur {0}.", "de": "Der Juwel des Kaisers wird auf {0} gelegt."}, "-"),
    (r"^The district card drawn is (.+): its exits are open\.$",
     {"fr": "La carte de quartier tirée est {0} : ses sorties sont ouvertes.",
      "de": "Die gezogene Bezirkskarte ist {0}: seine Ausgänge sind offen."}, "n"),
    (rf"^The (guard|captain|thief) {_S} cannot move this round\.$",
     {"fr": "Le {0} {1} ne peut pas bouger cette manche.", "de": "Der {0} {1} kann sich diese Runde nicht bewegen."},
     "w-"),
    (rf"^{_T} will have fewer AP next round\.$",
     {"fr": "{0} aura moins de PA à la prochaine manche.", "de": "{0} hat nächste Runde weniger AP."}, "-"),
    (rf"^{_T} goes through the sewers to {_S}\.$",
     {"fr": "{0} passe par les égouts jusqu'à {1}.", "de": "{0} geht durch die Kanalisation nach {1}."}, "--"),
    (rf"^{_T} is arrested on {_S} and thrown into the dungeon of (.+)\.$",
     {"fr": "{0} est arrêté sur {1} et jeté au cachot de {2}.",
      "de": "{0} wird auf {1} verhaftet und in den Kerker von {2} geworfen."}, "--n"),
    (rf"^{_T} is repositioned to {_S}\.$", {"fr": "{0} est déplacé sur {1}.", "de": "{0} wird nach {1} versetzt."},
     "--"),
    (rf"^{_T} leaves Hadria by {_S}\.$", {"fr": "{0} quitte Hadria par {1}.", "de": "{0} verlässt Hadria über {1}."},
     "--"),
    (rf"^{_T} loses a (.+)\.$", {"fr": "{0} perd : {1}.", "de": "{0} verliert: {1}."}, "-w"),
    (rf"^{_T} steals the Emperors' Jewel!$",
     {"fr": "{0} vole le Joyau de l'Empereur !", "de": "{0} stiehlt den Juwel des Kaisers!"}, "-"),
    (rf"^{_T} steals a (\w+) from {_T}\.$", {"fr": "{0} vole : {1} à {2}.", "de": "{0} stiehlt {2}: {1}."}, "-w-"),
    (rf"^{_T} takes a (.+) token from {_T}\.$",
     {"fr": "{0} prend le jeton {1} à {2}.", "de": "{0} nimmt {2} das Plättchen {1}."}, "-n-"),
    (rf"^{_T} takes the (\w+) jewel on {_S}\.$",
     {"fr": "{0} prend le {1} sur {2}.", "de": "{0} nimmt den {1} auf {2}."}, "-w-"),
    (rf"^{_T} uses Know the City \(\+1 space\)\.$",
     {"fr": "{0} utilise « Connaître la ville » (+1 case).", "de": "{0} nutzt „Wie meine Westentasche“ (+1 Feld)."},
     "-"),
    (rf"^{_T} gets a theft marker\.$", {"fr": "{0} reçoit un marqueur de vol.", "de": "{0} erhält einen Diebstahlmarker."},
     "-"),
    (rf"^{_T} discards (.+)\.$", {"fr": "{0} défausse {1}.", "de": "{0} wirft {1} ab."}, "-n"),
    (r"^The discard pile is shuffled into a new action deck\.$",
     {"fr": "La défausse est mélangée pour former une nouvelle pioche d'actions.",
      "de": "Der Ablagestapel wird zu einem neuen Aktionsstapel gemischt."}, ""),
]
_COMPILED = [(re.compile(p), t, how) for p, t, how in EVENTS]


def translate(text: str, lang: str) -> str:
    """A log line in ``lang``; a line no pattern knows stays as it is."""
    if lang not in ("fr", "de"):
        return text
    for rx, tr, how in _COMPILED:
        m = rx.match(text)
        if not m:
            continue
        parts = []
        for g, h in zip(m.groups(), how.ljust(len(m.groups()), "-")):
            g = g or ""
            fn: Callable[[str], str] = {
                "n": lambda s: names(s, lang),
                "w": lambda s: names(word(s, lang), lang),
                "o": lambda s: _on(s, lang),
                "d": lambda s: describe(s, {}, lang),
                "a": lambda s: s.replace(" and ", " et " if lang == "fr" else " und "),
            }.get(h, lambda s: s)
            parts.append(fn(g))
        return tr[lang].format(*parts)
    return text
