"""SVG drawing of a Thief's Market observation for the web interface.

Drawn from the observation only (never the state), so nothing hidden can
leak. Elements a person may click carry ``data-action="<notation>"``: dice
in the center (take), piles (steal), dice of your own pile (return,
reroll), market cards (buy), owned cards (use) and a row of buttons that
holds every legal action.
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from .components import FACES, I18n, Tables, load_i18n, load_tables

COLORS = {"R": "#d2352b", "W": "#f4f1e8", "B": "#2f64c8", "G": "#2f9e44", "Y": "#e8b923", "P": "#8a3fb0"}
INK = {"R": "#fff", "W": "#222", "B": "#fff", "G": "#fff", "Y": "#222", "P": "#fff"}
WIDTH = 1040


@lru_cache(maxsize=1)
def _data() -> tuple[Tables, I18n]:
    tables = load_tables(None)
    return tables, load_i18n(None, tables.ids)


class _Svg:
    def __init__(self, legal: list[str]) -> None:
        self.parts: list[str] = []
        self.legal = set(legal)

    def add(self, s: str) -> None:
        self.parts.append(s)

    def text(self, x: float, y: float, s: str, size: int = 13, weight: str = "normal",
             color: str = "#222", anchor: str = "start") -> None:
        self.add(f'<text x="{x}" y="{y}" font-size="{size}" font-weight="{weight}" fill="{color}" '
                 f'text-anchor="{anchor}">{escape(s)}</text>')

    def group(self, action: str | None) -> str:
        """Open a group, clickable when ``action`` is legal now."""
        if action and action in self.legal:
            return f'<g class="clickable" data-action={quoteattr(action)} style="cursor:pointer">'
        return "<g>"

    def die(self, x: float, y: float, face: str, action: str | None = None, size: int = 26) -> None:
        self.add(self.group(action))
        stroke = "#111" if action in self.legal else "#888"
        self.add(f'<rect x="{x}" y="{y}" width="{size}" height="{size}" rx="5" fill="{COLORS[face]}" '
                 f'stroke="{stroke}" stroke-width="1.5"/>')
        self.text(x + size / 2, y + size * 0.68, face, 13, "bold", INK[face], "middle")
        self.add("</g>")

    def token(self, x: float, y: float, action: str | None = None) -> None:
        self.add(self.group(action))
        self.add(f'<circle cx="{x + 13}" cy="{y + 13}" r="13" fill="#5b3a1a" stroke="#111"/>')
        self.text(x + 13, y + 18, "T", 13, "bold", "#fff", "middle")
        self.add("</g>")

    def button(self, x: float, y: float, label: str, action: str) -> float:
        w = 10 + 7 * len(label)
        self.add(self.group(action))
        self.add(f'<rect x="{x}" y="{y}" width="{w}" height="24" rx="6" fill="#efe6d2" stroke="#6b5b3e"/>')
        self.text(x + w / 2, y + 16, label, 12, "normal", "#222", "middle")
        self.add("</g>")
        return x + w + 6


def _dice_row(svg: _Svg, x: float, y: float, counts: dict[str, int], verb: str | None) -> float:
    for f in FACES:
        for _ in range(counts.get(f, 0)):
            svg.die(x, y, f, f"{verb} {f}" if verb else None)
            x += 30
    return x


def _card(svg: _Svg, t: Tables, tx: dict[str, str], cid: str, x: float, y: float,
          action: str | None, w: int = 150, h: int = 78) -> None:
    c = t.cards[t.index[cid]]
    label = tx.get(cid, c.name)
    svg.add(svg.group(action))
    border = "#b8860b" if action in svg.legal else "#777"
    svg.add(f'<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="6" fill="#fffaf0" stroke="{border}" '
            f'stroke-width="{2 if action in svg.legal else 1}"><title>{escape(label)}: '
            f'{escape(tx.get(cid + ".effect", ""))}</title></rect>')
    for k, gem in enumerate(c.cost):
        step = 9 if h < 60 else 15
        svg.add(f'<circle cx="{x + 10}" cy="{y + 10 + step * k}" r="{4 if h < 60 else 6}" '
                f'fill="{COLORS[gem]}" stroke="#333"/>')
    small = h < 60
    svg.text(x + 22, y + 14, f"{cid}", 10, "bold", "#555")
    svg.text(x + 22, y + (28 if small else 32), label[:16 if small else 22], 9 if small else 11, "bold")
    icons = " ".join(tx.get(f"icon.{i}", i) for i in c.icons)
    svg.text(x + 22, y + (41 if small else 48), icons[:12 if small else 24], 9 if small else 10,
             "normal", "#555")
    if c.points:
        svg.text(x + w - 8, y + h - 8, f"{c.points}", 16, "bold", "#8b0000", "end")
    svg.add("</g>")


def _seat(p: int) -> str:
    """A seat as the engine names it. Left in English on purpose: the server puts the
    seat's own name (in the viewer's language) in place of "Player N" (docs/server.md)."""
    return f"Player {p + 1}"


def render_svg(observation: dict[str, Any], lang: str = "en") -> str:
    """The board as an SVG string, in ``lang`` (en, fr or de)."""
    t, i18n = _data()
    tx = i18n.lang(lang)
    ui = {k[3:]: v for k, v in tx.items() if k.startswith("ui.")}
    obs = observation
    viewer = obs.get("viewer")
    svg = _Svg(obs.get("legal", []))
    n = obs["num_players"]
    phase = obs["phase"]
    y = 24
    current = obs.get("current", -1)
    head = f"{ui['round']} {obs['round']} - {tx.get('phase.' + phase, phase)}"
    if not obs.get("terminal") and current >= 0:
        head += f" - {_seat(current)} {ui['to_act']}"
    svg.text(12, y, head, 16, "bold")
    # ---- center (dice spent in the purchase phase are only the supply for next round)
    y += 18
    if phase == "split":
        svg.text(12, y + 18, ui["center"], 13, "bold")
        x = _dice_row(svg, 90, y, obs["center"], "take")
        if obs["token"] == -1:
            svg.token(x, y, "take T")
            x += 32
        if any(obs.get("returning", {}).values()) or obs["token"] == -2:
            svg.text(x + 10, y + 18, "<-", 13)
            x = _dice_row(svg, x + 30, y, obs["returning"], None)
            if obs["token"] == -2:
                svg.token(x, y)
    else:
        y -= 30
    # ---- market
    y += 44
    for row in "ABC":
        cards = obs["market"][row]
        if not cards and row > obs["active_row"]:
            continue
        svg.text(12, y + 20, f"{ui['market']} {row}", 13, "bold")
        svg.text(12, y + 38, f"{ui['deck']}: {obs['deck_sizes'][row]}", 11, "normal", "#555")
        x = 90
        for cid in cards:
            _card(svg, t, tx, cid, x, y, f"buy {cid}")
            x += 156
        y += 86
    # ---- players
    per_row = (WIDTH - 420) // 106
    for p in range(n):
        y += 6
        mine = p == viewer
        owned = obs["tableau"][p]
        height = max(80, 30 + 50 * -(-len(owned) // per_row))
        svg.add(f'<rect x="6" y="{y}" width="{WIDTH - 12}" height="{height}" rx="8" '
                f'fill="{"#eef6ff" if mine else "#f6f3ee"}" stroke="{"#333" if p == current else "#bbb"}"/>')
        inf = obs["infamy"][p]
        inf_s = "?" if inf is None else str(inf)
        svg.text(16, y + 20, _seat(p), 14, "bold")
        # at the right end: the seat's name put in by the server may be long
        svg.text(WIDTH - 20, y + 20, f"{ui['gold']}: {obs['gold'][p]}   {ui['infamy']}: {inf_s}   "
                 f"{ui['henchmen']}: {obs['henchmen'][p]}", 12, anchor="end")
        # the pile, stealable as a whole
        svg.add(svg.group(f"steal {p + 1}"))
        svg.add(f'<rect x="14" y="{y + 30}" width="390" height="36" rx="6" fill="#fff" fill-opacity="0.01" '
                f'stroke="#aaa" stroke-dasharray="4 3"/>')
        svg.add("</g>")
        verb = None
        if mine and phase == "split" and obs["step"] == "return":
            verb = "return"
        elif mine and phase == "lucky":
            verb = "reroll"
        has = obs["has_pile"][p] or phase != "split"
        x = _dice_row(svg, 20, y + 35, obs["piles"][p], verb) if has else 20
        if obs["token"] == p:
            svg.token(x, y + 35, "return T" if verb == "return" else None)
        if not has:
            svg.text(24, y + 54, ui["no_pile"], 11, "normal", "#777")
        # cards owned, with their abilities
        for k, cid in enumerate(owned):
            uses = [a for a in svg.legal if a == f"use {cid}" or a.startswith(f"use {cid} ")]
            cx, cy = 414 + 106 * (k % per_row), y + 28 + 50 * (k // per_row)
            _card(svg, t, tx, cid, cx, cy, uses[0] if len(uses) == 1 else None, 102, 46)
        y += height

    # ---- every legal action as a button
    y += 12
    x = 12
    for a in obs.get("legal", []):
        if x > WIDTH - 120:
            x, y = 12, y + 30
        x = svg.button(x, y, describe_action(a, obs, lang)[:40], a)
    paying = obs.get("paying")
    if paying:
        svg.text(x + 10, y + 16, f"{ui['paying']} {paying['card']}: {paying['remaining']}", 12)
    if obs.get("final"):
        y += 40
        scores = ", ".join(f"{_seat(p)}: {f['total']}" for p, f in enumerate(obs["final"]))
        svg.text(12, y, f"{ui['score']}: {scores}", 14, "bold")
    height = y + 40
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" width="{WIDTH}" '
            f'height="{height}" font-family="sans-serif">' + "".join(svg.parts) + "</svg>")


_VERBS: dict[str, dict[str, str]] = {
    "en": {"take": "Take {0}", "take T": "Take the start player token", "take all": "Take everything left",
           "done": "Done", "steal": "Steal the pile of {0}", "return": "Put back {0}",
           "return T": "Put back the start player token", "reroll": "Reroll {0}", "keep": "Keep (no reroll)",
           "pay": "Pay {0} with a die", "gold": "Pay {0} with 1 gold", "free": "Leave out {0}",
           "end": "End your purchases", "die": "a {0} die"},
    "fr": {"take": "Prendre {0}", "take T": "Prendre le pion Premier Joueur", "take all": "Tout prendre",
           "done": "Terminé", "steal": "Voler le tas de {0}", "return": "Remettre {0}",
           "return T": "Remettre le pion Premier Joueur", "reroll": "Relancer {0}", "keep": "Garder (ne pas relancer)",
           "pay": "Payer {0} avec un dé", "gold": "Payer {0} avec 1 or", "free": "Ne pas payer {0}",
           "end": "Finir vos achats", "die": "un dé {0}"},
    "de": {"take": "{0} nehmen", "take T": "Startspielerstein nehmen", "take all": "Alles Übrige nehmen",
           "done": "Fertig", "steal": "Haufen von {0} stehlen", "return": "{0} zurücklegen",
           "return T": "Startspielerstein zurücklegen", "reroll": "{0} neu würfeln", "keep": "Behalten (nicht würfeln)",
           "pay": "{0} mit einem Würfel zahlen", "gold": "{0} mit 1 Gold zahlen", "free": "{0} weglassen",
           "end": "Käufe beenden", "die": "einen Würfel {0}"},
}


def describe_action(action: str, observation: dict[str, Any], lang: str = "en") -> str:
    """Button text for an action in ``lang``: words, card names and die colours, never notation.

    A seat stays "Player N" (the server puts the seat's name in its place)."""
    t, i18n = _data()
    tx = i18n.lang(lang)
    v = _VERBS.get(lang, _VERBS["en"])
    words = action.split()
    if len(words) >= 2 and words[0] in ("buy", "use") and words[1] in t.index:
        name = tx.get(words[1], t.names[t.index[words[1]]])
        rest = f" -> {tx.get('face.' + words[2], words[2])}" if len(words) > 2 else ""
        verb = tx.get("ui.buy_card" if words[0] == "buy" else "ui.use_card", words[0])
        return f"{verb}: {name}{rest}"
    if action in v:
        return v[action]
    if len(words) == 2:
        verb, arg = words
        if verb == "steal" and arg.isdigit():
            return v["steal"].format(f"Player {arg}")
        if arg in COLORS and verb in ("take", "return", "reroll"):
            out = v[verb].format(v["die"].format(tx.get("face." + arg, arg)))
            return out[:1].upper() + out[1:]
        if arg in COLORS and verb in ("pay", "gold", "free"):
            return v[verb].format(tx.get("face." + arg, arg))
    return action


def prompt(observation: dict[str, Any], lang: str = "en") -> str:
    """What the player to act is deciding, in ``lang``."""
    _, i18n = _data()
    tx = i18n.lang(lang)
    step = observation.get("step") or ""
    return tx.get(f"ui.step_{step}" if step else f"phase.{observation['phase']}", observation["phase"])




# ------------------------------------------------------------------ log lines in fr / de
_P = r"(Player \d)"
EVENTS: list[tuple[str, dict[str, str]]] = [
    (rf"^{_P} has the start player token\.$",
     {"fr": "{0} a le pion Premier Joueur.", "de": "{0} hat den Startspielerstein."}),
    (rf"^Round (\d+): {_P} rolls (.*)\.$",
     {"fr": "Tour {0} : {1} lance {2}.", "de": "Runde {0}: {1} würfelt {2}."}),
    (rf"^{_P} takes everything left in the center\.$",
     {"fr": "{0} prend tout ce qui reste au centre.", "de": "{0} nimmt alles, was in der Mitte liegt."}),
    (rf"^{_P} takes (.*)\.$", {"fr": "{0} prend {1}.", "de": "{0} nimmt {1}."}),
    (rf"^{_P} steals the pile of {_P}\.$",
     {"fr": "{0} vole le tas de {1}.", "de": "{0} stiehlt den Haufen von {1}."}),
    (rf"^{_P} keeps (.*) and returns (.*?)( and the token)?; center: (.*)\.$",
     {"fr": "{0} garde {1} et remet {2}{3} ; centre : {4}.",
      "de": "{0} behält {1} und legt {2}{3} zurück; Mitte: {4}."}),
    (rf"^{_P} rerolls a (\w) die: (\w)\.$",
     {"fr": "{0} relance un dé {1} : {2}.", "de": "{0} wirft einen Würfel {1} neu: {2}."}),
    (rf"^{_P} turns a (\w) die to (\w) \((.*)\)\.$",
     {"fr": "{0} tourne un dé {1} sur {2} ({3}).", "de": "{0} dreht einen Würfel {1} auf {2} ({3})."}),
    (rf"^{_P} spends a (\w) die \((.*)\)\.$",
     {"fr": "{0} dépense un dé {1} ({2}).", "de": "{0} gibt einen Würfel {1} ab ({2})."}),
    (rf"^{_P} pays 1 gold \((.*)\)\.$", {"fr": "{0} paie 1 or ({1}).", "de": "{0} zahlt 1 Gold ({1})."}),
    (rf"^{_P} gains (\d+) gold \((.*)\)\.$",
     {"fr": "{0} gagne {1} or ({2}).", "de": "{0} erhält {1} Gold ({2})."}),
    (r"^You gain (\d+) infamy \((.*)\); you have (\d+)\.$",
     {"fr": "Vous gagnez {0} Infamie ({1}) ; vous en avez {2}.",
      "de": "Du erhältst {0} Schande ({1}); du hast {2}."}),
    (rf"^{_P} buys (.*) and discards it\.$",
     {"fr": "{0} achète {1} et la défausse.", "de": "{0} kauft {1} und wirft sie ab."}),
    (r"^Every deck is empty: nothing is gained\.$",
     {"fr": "Tous les decks sont vides : rien n'est gagné.",
      "de": "Alle Stapel sind leer: nichts wird erhalten."}),
    (rf"^{_P} buys (.*)\.$", {"fr": "{0} achète {1}.", "de": "{0} kauft {1}."}),
    (rf"^{_P} gains (.*)\.$", {"fr": "{0} gagne {1}.", "de": "{0} erhält {1}."}),
    (r"^Deck (\w) is exhausted: a row of deck (\w) opens\.$",
     {"fr": "Le deck {0} est épuisé : une ligne du deck {1} s'ouvre.",
      "de": "Stapel {0} ist leer: eine Reihe von Stapel {1} wird ausgelegt."}),
    (r"^The C deck cannot refill the market: the game ends\.$",
     {"fr": "Le deck C ne peut plus remplir le marché : la partie se termine.",
      "de": "Stapel C kann den Markt nicht auffüllen: das Spiel endet."}),
]
_COMPILED = [(re.compile(pattern), texts) for pattern, texts in EVENTS]
# "Player N" stays as it is: the server puts the seat's name in its place afterwards
_WORDS = {"fr": {" and the token": " et le pion", "bag dice": "dés bourse",
                 "purple dice": "dés violets", "nothing": "rien"},
          "de": {" and the token": " und den Stein", "bag dice": "Beutelwürfel",
                 "purple dice": "lila Würfel", "nothing": "nichts"}}


def translate_event(text: str, lang: str) -> str:
    """A log line in ``lang`` (card names translated too); unknown lines stay as they are."""
    if lang not in _WORDS:
        return text
    t, i18n = _data()
    tx = i18n.lang(lang)
    words = _WORDS[lang]
    if not _NAME_TO_ID:
        _NAME_TO_ID.update(_names())
    for pattern, texts in _COMPILED:
        m = pattern.match(text)
        if m:
            parts = []
            for g in m.groups():
                g = g or ""
                if g in t.index:                       # never a card id in events, but be safe
                    g = tx.get(g, g)
                elif g in _NAME_TO_ID:
                    g = tx.get(_NAME_TO_ID[g], g)
                else:
                    g = words.get(g, g)
                parts.append(g)
            return texts[lang].format(*parts)
    return text


def _names() -> dict[str, str]:
    t, _ = _data()
    return {name: cid for cid, name in zip(t.ids, t.names)}


_NAME_TO_ID: dict[str, str] = {}

__all__ = ["render_svg", "describe_action", "prompt", "translate_event"]
