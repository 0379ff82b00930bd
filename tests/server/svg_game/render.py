"""An SVG board for the toy game, drawn from an observation only."""
from __future__ import annotations

from html import escape

TEXTS = {"en": {"bid": "Bid", "points": "Points", "round": "Round"},
         "fr": {"bid": "Miser", "points": "Points", "round": "Manche"},
         "de": {"bid": "Bieten", "points": "Punkte", "round": "Runde"}}


def render_svg(observation: dict, lang: str = "en") -> str:
    t = TEXTS.get(lang, TEXTS["en"])
    parts = ['<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 160">',
             f'<text x="10" y="24" font-size="18">{escape(t["round"])} {observation["round"]}</text>']
    for i, b in enumerate((1, 2, 3)):
        x = 80 + i * 110
        parts.append(f'<g data-action="bid {b}"><circle cx="{x}" cy="80" r="34" fill="#e7b53c"/>'
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
