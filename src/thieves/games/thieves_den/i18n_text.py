"""Thieves Den in English, French and German for the web interface: ability
texts on the board, button texts (``describe``), the prompt and log lines
(``translate``).

Names of cards and treasures come from ``data/i18n.yaml`` (``terms`` and
``names``); the sentences around them are here. "Player N" stays as it is in
every language: the server puts the seat's name in its place.
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from .components import TREASURES, load_data, load_i18n

LANGS = ("en", "fr", "de")


@lru_cache(maxsize=None)
def _tr(lang: str) -> tuple[dict[str, str], dict[str, str]]:
    i18n = load_i18n()
    lg = getattr(i18n, lang if lang in LANGS else "en")
    return dict(lg.terms), dict(lg.names)


def term(lang: str, key: str) -> str:
    terms, names = _tr(lang)
    return terms.get(key) or names.get(key) or _tr("en")[0].get(key) or key


def treasure(lang: str, t: str) -> str:
    """A treasure as a word inside a sentence (French in lower case)."""
    if t not in TREASURES and t != "joker":
        return t
    w = term(lang, t)
    return w.lower() if lang in ("en", "fr") else w


@lru_cache(maxsize=1)
def _english_names() -> dict[str, str]:
    """English card and tile names -> ids (log lines name powers by name only)."""
    d = load_data()
    out = {}
    for items in (d.locations, d.fences, d.powers):
        for cid, c in items.items():
            out[c.name] = cid
    return out


_LABEL = re.compile(r"([^,;:\s][^,;:]*?) \(([LF]\d\d)\)")
_TREASURE = re.compile(r"\b(" + "|".join(TREASURES) + r")\b")


def names(s: str, lang: str) -> str:
    """Card labels ("Bank (L53)"), tile names and treasures inside ``s`` said in ``lang``."""
    if lang == "en":
        return s
    s = _LABEL.sub(lambda m: f"{term(lang, m.group(2))} ({m.group(2)})", s)
    if s in _english_names():
        return term(lang, _english_names()[s])
    return _TREASURE.sub(lambda m: treasure(lang, m.group(1)), s)


# ------------------------------------------------------------------ ability texts on cards
STEPS: dict[str, dict[str, str]] = {
    "en": {"gain": "gain {0}", "pay": "pay {0}", "gain_any": "gain {0} treasure(s) of your choice",
           "thieves": "gain {0} thief(s)", "prestige": "gain {0} prestige", "pay_any": "pay {0} treasure(s) of your choice",
           "pay_thieves": "return {0} thief(s) to the Forest", "take_treasure": "take a treasure from an opponent",
           "take_thief": "take a thief from an opponent", "destroy": "return an opponent's treasure to the supply",
           "then": ", then ", "none": "none"},
    "fr": {"gain": "gagnez {0}", "pay": "payez {0}", "gain_any": "gagnez {0} trésor(s) au choix",
           "thieves": "gagnez {0} voleur(s)", "prestige": "gagnez {0} prestige", "pay_any": "payez {0} trésor(s) au choix",
           "pay_thieves": "remettez {0} voleur(s) dans la Forêt", "take_treasure": "prenez un trésor à un adversaire",
           "take_thief": "prenez un voleur à un adversaire",
           "destroy": "remettez un trésor d'un adversaire dans la réserve", "then": ", puis ", "none": "aucun"},
    "de": {"gain": "erhalte {0}", "pay": "zahle {0}", "gain_any": "erhalte {0} Schatz/Schätze nach Wahl",
           "thieves": "erhalte {0} Dieb(e)", "prestige": "erhalte {0} Ansehen", "pay_any": "zahle {0} Schatz/Schätze nach Wahl",
           "pay_thieves": "setze {0} Dieb(e) in den Wald zurück", "take_treasure": "nimm einem Gegner einen Schatz",
           "take_thief": "nimm einem Gegner einen Dieb",
           "destroy": "lege einen Schatz eines Gegners in den Vorrat zurück", "then": ", dann ", "none": "keiner"},
}


def step_text(kind: str, value: Any, lang: str) -> str:
    st = STEPS.get(lang, STEPS["en"])
    if isinstance(value, dict):
        value = " + ".join(f"{n} {treasure(lang, t)}" for t, n in value.items())
    return st.get(kind, kind + " {0}").format(value)


def ability_text(steps: Any, lang: str) -> str:
    st = STEPS.get(lang, STEPS["en"])
    return st["then"].join(step_text(s.kind, s.value, lang) for s in steps) or st["none"]


# ------------------------------------------------------------------ words of the board and buttons
WORDS: dict[str, dict[str, str]] = {
    "en": {"clockwise": "clockwise", "counter-clockwise": "counter-clockwise", "passed": "passed",
           "keep": "Keep {0}", "loc": "Place a thief on {0}: {1}", "recall": "Recall a thief from {0}",
           "sell": "Sell to {0}: {1} for {2} prestige", "power": "Pay 1 {1} to use the power {0}",
           "witch": "Deliver 1 {0} to the Witch for prestige", "steal": "Send 2 thieves to steal 1 {0} from the City",
           "steal_empty": "Send 2 thieves to steal from the City (it is empty)",
           "recruit": "Pay {0} and {1} to recruit 1 thief from the Forest", "rob": "Target {0}",
           "rob_t": "Target the {1} of {0}", "move": "Move a thief from {0} to use {1}",
           "swap": "Exchange your {0} for {1}", "return": "Put {0} under the fence deck",
           "give": "Give the direction tile to {0}", "pass": "Pass for the rest of the round",
           "done": "Skip the optional follow-up action", "take": "Take 1 {0} from the City", "pay": "Pay 1 {0}",
           "discard": "Discard 1 {0} (treasure limit 8)",
           "prompt.draft": "Scouting: keep 1 card", "prompt.thieving": "Thieving: your action",
           "prompt.handover": "Maintenance", "prompt.end": "Game over"},
    "fr": {"clockwise": "sens horaire", "counter-clockwise": "sens antihoraire", "passed": "a passé",
           "keep": "Garder {0}", "loc": "Placer un voleur sur {0} : {1}", "recall": "Rappeler un voleur de {0}",
           "sell": "Vendre à {0} : {1} pour {2} prestige", "power": "Payer 1 {1} pour utiliser le pouvoir {0}",
           "witch": "Livrer 1 {0} à la Sorcière contre du prestige",
           "steal": "Envoyer 2 voleurs voler 1 {0} à la Ville",
           "steal_empty": "Envoyer 2 voleurs voler à la Ville (elle est vide)",
           "recruit": "Payer {0} et {1} pour recruter 1 voleur de la Forêt", "rob": "Cibler {0}",
           "rob_t": "Cibler : {1} de {0}", "move": "Déplacer un voleur de {0} pour utiliser {1}",
           "swap": "Échanger : {0} contre {1}", "return": "Mettre {0} sous le deck des receleurs",
           "give": "Donner la tuile Sens à {0}", "pass": "Passer pour le reste de la manche",
           "done": "Ne pas faire l'action facultative", "take": "Prendre 1 {0} à la Ville", "pay": "Payer 1 {0}",
           "discard": "Défausser 1 {0} (limite de 8 trésors)",
           "prompt.draft": "Reconnaissance : gardez 1 carte", "prompt.thieving": "Voleurs : à vous d'agir",
           "prompt.handover": "Maintenance", "prompt.end": "Fin de partie"},
    "de": {"clockwise": "im Uhrzeigersinn", "counter-clockwise": "gegen den Uhrzeigersinn", "passed": "hat gepasst",
           "keep": "{0} behalten", "loc": "Einen Dieb auf {0} setzen: {1}", "recall": "Einen Dieb von {0} zurückholen",
           "sell": "An {0} verkaufen: {1} für {2} Ansehen", "power": "1 {1} zahlen, um die Macht {0} zu nutzen",
           "witch": "1 {0} der Hexe für Ansehen liefern", "steal": "2 Diebe schicken, um 1 {0} aus der Stadt zu stehlen",
           "steal_empty": "2 Diebe in die Stadt schicken (sie ist leer)",
           "recruit": "{0} und {1} zahlen, um 1 Dieb aus dem Wald anzuwerben", "rob": "{0} als Ziel",
           "rob_t": "{1} von {0} als Ziel", "move": "Einen Dieb von {0} versetzen, um {1} zu nutzen",
           "swap": "Tauschen: {0} gegen {1}", "return": "{0} unter den Hehlerstapel legen",
           "give": "Das Richtungsplättchen an {0} geben", "pass": "Für den Rest der Runde passen",
           "done": "Die freiwillige Folgeaktion auslassen", "take": "1 {0} aus der Stadt nehmen", "pay": "1 {0} zahlen",
           "discard": "1 {0} abwerfen (Schatzlimit 8)",
           "prompt.draft": "Auskundschaften: behalte 1 Karte", "prompt.thieving": "Diebeszug: deine Aktion",
           "prompt.handover": "Aufräumen", "prompt.end": "Spielende"},
}


def word(lang: str, key: str) -> str:
    return WORDS.get(lang, WORDS["en"]).get(key) or WORDS["en"].get(key, key)


def _label(lang: str, cid: str) -> str:
    return f"{term(lang, cid)}"


def describe(action: str, obs: dict[str, Any], lang: str) -> str:
    """Words for an action in ``lang`` (the notation itself when it is not known)."""
    d = load_data()
    parts = action.split()
    if not parts:
        return action
    v, args = parts[0], parts[1:]
    w = WORDS.get(lang, WORDS["en"])
    try:
        if v in ("keep", "loc") and args and args[0] in d.locations:
            c = d.locations[args[0]]
            if v == "keep":
                return w["keep"].format(_label(lang, c.id))
            return w["loc"].format(_label(lang, c.id), ability_text(c.ability, lang))
        if v == "recall":
            return w["recall"].format(_label(lang, args[0]))
        if v == "sell":
            f = d.fences[args[0]]
            return w["sell"].format(_label(lang, f.id), " + ".join(treasure(lang, t) for t in f.wants), f.prestige)
        if v == "power":
            tile_id = None
            stacks = obs.get("powers") or []
            i = int(args[0]) - 1
            if 0 <= i < len(stacks) and isinstance(stacks[i], dict):
                tile_id = stacks[i].get("tile")
            name = term(lang, tile_id) if tile_id else args[0]
            return w["power"].format(name, treasure(lang, args[1]))
        if v == "steal":
            return w["steal"].format(treasure(lang, args[0])) if args else w["steal_empty"]
        if v == "recruit":
            return w["recruit"].format(treasure(lang, args[0]), treasure(lang, args[1]))
        if v == "rob":
            who = f"Player {args[0]}"
            return w["rob_t"].format(who, treasure(lang, args[1])) if len(args) > 1 else w["rob"].format(who)
        if v == "move":
            return w["move"].format(_label(lang, args[0]), _label(lang, args[1]))
        if v == "swap":
            return w["swap"].format(_label(lang, args[0]), _label(lang, args[1]))
        if v == "return":
            return w["return"].format(_label(lang, args[0]))
        if v == "give":
            return w["give"].format(f"Player {args[0]}")
        if v in ("witch", "take", "pay", "discard") and args:
            return w[v].format(treasure(lang, args[0]))
        if v in ("pass", "done") and not args:
            return w[v]
    except (KeyError, IndexError, ValueError):
        return action
    return action


def prompt(obs: dict[str, Any], lang: str) -> str:
    phase = obs.get("phase") or ""
    return word(lang, "prompt." + phase) if "prompt." + phase in WORDS["en"] else term(lang, phase)


# ------------------------------------------------------------------ log lines
_P = r"(Player \d+)"
EVENTS: list[tuple[str, dict[str, str]]] = [
    (rf"^{_P} takes the direction tile \(face 1,3: (clockwise|counter-clockwise)\)\.$",
     {"fr": "{0} prend la tuile Sens (face 1,3 : {1}).", "de": "{0} nimmt das Richtungsplättchen (Seite 1,3: {1})."}),
    (r"^You are dealt (.+)\.$", {"fr": "Vous recevez {0}.", "de": "Du erhältst {0}."}),
    (r"^Round (\d+): scouting\. Each player keeps 1 card and passes the rest (clockwise|counter-clockwise)\.$",
     {"fr": "Manche {0} : reconnaissance. Chacun garde 1 carte et passe le reste dans le {1}.",
      "de": "Runde {0}: Auskundschaften. Jeder behält 1 Karte und gibt den Rest {1} weiter."}),
    (rf"^{_P} has chosen a card\.$", {"fr": "{0} a choisi une carte.", "de": "{0} hat eine Karte gewählt."}),
    (r"^You keep (.+)\.$", {"fr": "Vous gardez {0}.", "de": "Du behältst {0}."}),
    (rf"^{_P} reveals (.+) \(instant\) and uses it\.$",
     {"fr": "{0} révèle {1} (instantané) et l'utilise.", "de": "{0} deckt {1} auf (sofort) und nutzt es."}),
    (rf"^{_P} reveals (.+)\.$", {"fr": "{0} révèle {1}.", "de": "{0} deckt {1} auf."}),
    (r"^You receive (.+)\.$", {"fr": "Vous recevez {0}.", "de": "Du bekommst {0}."}),
    (r"^(.+) is laid face up beside the board for both players\.$",
     {"fr": "{0} est posé face visible à côté du plateau pour les deux joueurs.",
      "de": "{0} wird für beide Spieler offen neben den Plan gelegt."}),
    (rf"^Round (\d+): thieving phase; {_P} starts\.$",
     {"fr": "Manche {0} : phase des voleurs ; {1} commence.", "de": "Runde {0}: Diebeszug; {1} beginnt."}),
    (r"^Round (\d+): maintenance done\.$",
     {"fr": "Manche {0} : maintenance terminée.", "de": "Runde {0}: Aufräumen beendet."}),
    (rf"^{_P} takes the direction tile and flips it\.$",
     {"fr": "{0} prend la tuile Sens et la retourne.", "de": "{0} nimmt das Richtungsplättchen und dreht es um."}),
    (r"^Final scores: (.+)$", {"fr": "Scores finaux : {0}", "de": "Endwertung: {0}"}),
    (rf"^{_P} passes\.$", {"fr": "{0} passe.", "de": "{0} passt."}),
    (rf"^{_P} delivers 1 (\w+) to the Witch for (\d+) prestige\.$",
     {"fr": "{0} livre 1 {1} à la Sorcière pour {2} prestige.", "de": "{0} liefert der Hexe 1 {1} für {2} Ansehen."}),
    (rf"^{_P} sends 2 thieves to steal 1 (\w+)\.$",
     {"fr": "{0} envoie 2 voleurs voler 1 {1}.", "de": "{0} schickt 2 Diebe, um 1 {1} zu stehlen."}),
    (rf"^{_P} sends 2 thieves to steal, but the City is empty\.$",
     {"fr": "{0} envoie 2 voleurs voler, mais la Ville est vide.",
      "de": "{0} schickt 2 Diebe zum Stehlen, aber die Stadt ist leer."}),
    (rf"^{_P} pays (\w+) and (\w+) to recruit a thief\.$",
     {"fr": "{0} paie {1} et {2} pour recruter un voleur.", "de": "{0} zahlt {1} und {2}, um einen Dieb anzuwerben."}),
    (rf"^{_P} activates (.+) of {_P}\.$",
     {"fr": "{0} active {1} de {2}.", "de": "{0} aktiviert {1} von {2}."}),
    (rf"^{_P} activates (.+)\.$", {"fr": "{0} active {1}.", "de": "{0} aktiviert {1}."}),
    (rf"^{_P} sells to (.+) for (\d+) prestige\.$",
     {"fr": "{0} vend à {1} pour {2} prestige.", "de": "{0} verkauft an {1} für {2} Ansehen."}),
    (r"^(.+) joins the fence row\.$",
     {"fr": "{0} rejoint la ligne des receleurs.", "de": "{0} kommt in die Hehlerreihe."}),
    (rf"^{_P} pays 1 (\w+) for the power (.+)\.$",
     {"fr": "{0} paie 1 {1} pour le pouvoir {2}.", "de": "{0} zahlt 1 {1} für die Macht {2}."}),
    (rf"^{_P} gains (\d+) prestige\.$", {"fr": "{0} gagne {1} prestige.", "de": "{0} erhält {1} Ansehen."}),
    (rf"^{_P} takes (\d+) thie(?:f|ves) from the Forest\.$",
     {"fr": "{0} prend {1} voleur(s) dans la Forêt.", "de": "{0} nimmt {1} Dieb(e) aus dem Wald."}),
    (rf"^{_P} draws (.+) above their board\.$",
     {"fr": "{0} pioche {1} au-dessus de son plateau.", "de": "{0} zieht {1} über sein Tableau."}),
    (rf"^{_P} recalls a thief from (.+); the card goes on the location deck\.$",
     {"fr": "{0} rappelle un voleur de {1} ; la carte va sur le deck des lieux.",
      "de": "{0} holt einen Dieb von {1} zurück; die Karte kommt auf den Ortsstapel."}),
    (rf"^{_P} swaps (.+) for (.+) of {_P}\.$",
     {"fr": "{0} échange {1} contre {2} de {3}.", "de": "{0} tauscht {1} gegen {2} von {3}."}),
    (rf"^{_P} gains (\d+) thie(?:f|ves)\.$", {"fr": "{0} gagne {1} voleur(s).", "de": "{0} erhält {1} Dieb(e)."}),
    (rf"^{_P} returns (\d+) thie(?:f|ves) to the Forest\.$",
     {"fr": "{0} remet {1} voleur(s) dans la Forêt.", "de": "{0} setzt {1} Dieb(e) in den Wald zurück."}),
    (rf"^{_P} takes 1 (\w+) from {_P}\.$", {"fr": "{0} prend 1 {1} à {2}.", "de": "{0} nimmt {2} 1 {1}."}),
    (rf"^{_P} takes a thief from {_P}\.$", {"fr": "{0} prend un voleur à {1}.", "de": "{0} nimmt {1} einen Dieb."}),
    (rf"^{_P} destroys 1 (\w+) of {_P}\.$",
     {"fr": "{0} remet 1 {1} de {2} dans la réserve.", "de": "{0} legt 1 {1} von {2} in den Vorrat zurück."}),
    (rf"^{_P} discards 1 (\w+) \(treasure limit\)\.$",
     {"fr": "{0} défausse 1 {1} (limite de trésors).", "de": "{0} wirft 1 {1} ab (Schatzlimit)."}),
    (rf"^{_P} takes (.+)\.$", {"fr": "{0} prend {1}.", "de": "{0} nimmt {1}."}),
    (rf"^{_P} gains (.+)\.$", {"fr": "{0} gagne {1}.", "de": "{0} erhält {1}."}),
    (rf"^{_P} pays (.+)\.$", {"fr": "{0} paie {1}.", "de": "{0} zahlt {1}."}),
]
_COMPILED = [(re.compile(p), t) for p, t in EVENTS]
_SCORE_WORDS = {"fr": (("fences", "receleurs"), ("scheme", "objectif"), (" for ", " pour "), (" sets)", " lots)"),
                       (" set)", " lot)")),
                "de": (("fences", "Hehler"), ("scheme", "Plan"), (" for ", " für "), (" sets)", " Sets)"),
                       (" set)", " Set)"))}


def translate(text: str, lang: str) -> str:
    """A log line in ``lang``; a line no pattern knows stays as it is."""
    if lang not in ("fr", "de"):
        return text
    for rx, tr in _COMPILED:
        m = rx.match(text)
        if not m:
            continue
        parts = []
        for g in m.groups():
            g = g or ""
            if g in ("clockwise", "counter-clockwise"):
                g = word(lang, g)
            elif not g.startswith("Player "):
                g = names(g, lang)
            parts.append(g)
        out = tr[lang].format(*parts)
        if text.startswith("Final scores: "):
            for en, other in _SCORE_WORDS[lang]:
                out = out.replace(en, other)
        return out
    return text
