"""An SVG board for the toy game, drawn from an observation only.

From the second round on it draws the gestures of docs/engine.md (for the
page's tests): bid 1 is a route that goes on with bid 2 (``data-then``,
``data-path``), bid 2 shows only while its picker is picked (``data-needs``),
bid 3 asks first (``data-confirm``)."""
from __future__ import annotations

from html import escape

from thieves.core.svg import gesture_attrs

TEXTS = {"en": {"bid": "Bid", "points": "Points", "round": "Round", "sure": "Sure? That is a high bid",
                "two": "Two"},
         "fr": {"bid": "Miser", "points": "Points", "round": "Manche", "sure": "Sûr ? C'est une grosse mise",
                "two": "Deux"},
         "de": {"bid": "Bieten", "points": "Punkte", "round": "Runde", "sure": "Sicher? Das ist ein hohes Gebot",
                "two": "Zwei"}}


def _gesture(b: int, t: dict[str, str]) -> str:
    """The attributes of bid ``b`` from the second round on."""
    if b == 1:
        return gesture_attrs(["bid 2"], [(80, 80), (190, 80)])
    if b == 2:
        return ' data-needs="two"'
    return gesture_attrs(confirm=t["sure"])


def render_svg(observation: dict, lang: str = "en") -> str:
    t = TEXTS.get(lang, TEXTS["en"])
    gestures = observation["round"] >= 2
    parts = ['<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 160">',
             f'<text x="10" y="24" font-size="18">{escape(t["round"])} {observation["round"]}</text>']
    if gestures:
        parts.append(f'<g class="pickable" data-pick="two" tabindex="0" role="button" aria-pressed="false">'
                     f'<rect x="300" y="6" width="90" height="26" rx="6" fill="#dbe6f7"/>'
                     f'<text x="345" y="24" text-anchor="middle" font-size="14">{escape(t["two"])}</text></g>')
    for i, b in enumerate((1, 2, 3)):
        x = 80 + i * 110
        more = _gesture(b, t) if gestures else ""
        parts.append(f'<g data-action="bid {b}"{more}><circle cx="{x}" cy="80" r="34" fill="#e7b53c"/>'
                     f'<text x="{x}" y="86" text-anchor="middle" font-size="16">{escape(t["bid"])} {b}</text></g>')
    pts = ", ".join(str(p) for p in observation["points"])
    parts.append(f'<text x="10" y="145" font-size="14">{escape(t["points"])}: {escape(pts)}</text></svg>')
    return "".join(parts)


def describe_action(action: str, observation: dict, lang: str) -> str:
    return f'{TEXTS.get(lang, TEXTS["en"])["bid"]} {action.split()[1]}'


def translate_event(text: str, lang: str) -> str:
    if lang == "fr":
        return text.replace(" bids.", " a misé.")
    return text


def prompt(observation: dict, lang: str) -> str:
    return {"fr": "misez en secret", "de": "geheim bieten"}.get(lang, "bid in secret")
