"""The toy game's board in layers (docs/engine.md, "Layers").

* unchanging: the frame and the title;
* public (every viewer alike): the round, the three bids as offers, who has
  bid, the points; from the second round on the gestures of docs/engine.md
  (bid 1 is a route that goes on with bid 2, bid 2 shows only while its
  picker is picked, bid 3 asks first);
* the seat's own: its secret bid of this round (``data-ref="my-bid-N"``, the
  words "Your secret bid"), which no other viewer may ever get.
"""
from __future__ import annotations

from typing import Any

from thieves.core.presentation import Presentation
from thieves.core.svg import Layer, Svg

TEXTS = {"en": {"bid": "Bid", "points": "Points", "round": "Round", "sure": "Sure? That is a high bid",
                "two": "Two", "mine": "Your secret bid", "made": "has bid", "prompt": "bid in secret",
                "title": "Sealed bids"},
         "fr": {"bid": "Miser", "points": "Points", "round": "Manche", "sure": "Sûr ? C'est une grosse mise",
                "two": "Deux", "mine": "Votre mise secrète", "made": "a misé", "prompt": "misez en secret",
                "title": "Enchères scellées"},
         "de": {"bid": "Bieten", "points": "Punkte", "round": "Runde", "sure": "Sicher? Das ist ein hohes Gebot",
                "two": "Zwei", "mine": "Dein geheimes Gebot", "made": "hat geboten", "prompt": "geheim bieten",
                "title": "Verdeckte Gebote"}}
WIDTH, HEIGHT = 400, 190


class BidPresentation(Presentation):
    layered = True

    @property
    def words(self) -> dict[str, str]:
        return TEXTS.get(self.lang, TEXTS["en"])

    def action_text(self, obs: dict[str, Any], action: str) -> str:
        return f'{self.words["bid"]} {action.split()[1]}'

    def prompt(self, obs: dict[str, Any]) -> str | None:
        return self.words["prompt"]

    def board_static(self, obs: dict[str, Any]) -> Layer | None:
        s = Svg(WIDTH, HEIGHT)
        s.rect(2, 2, WIDTH - 4, HEIGHT - 4, fill="#f3ead8", rx=10)
        s.text(WIDTH - 10, HEIGHT - 12, self.words["title"], 13, "bold", anchor="end")
        return s.layer()

    def board_public(self, obs: dict[str, Any]) -> Layer:
        t = self.words
        s = Svg(WIDTH, HEIGHT, offers=True)
        s.text(10, 24, f'{t["round"]} {obs["round"]}', 18)
        gestures = obs["round"] >= 2
        if gestures:
            s.picker("two", t["two"])
            s.rect(300, 6, 90, 26, fill="#dbe6f7")
            s.text(345, 24, t["two"], 14, anchor="middle")
            s.close()
        for i, b in enumerate((1, 2, 3)):
            x = 80 + i * 110
            if not gestures:
                s.open(f"bid {b}", f"bid-{b}", f'{t["bid"]} {b}')
            elif b == 1:
                s.open("bid 1", "bid-1", f'{t["bid"]} 1', then=["bid 2"], path=[(80, 80), (190, 80)])
            elif b == 2:
                s.open("bid 2", "bid-2", f'{t["bid"]} 2', needs="two")
            else:
                s.open("bid 3", "bid-3", f'{t["bid"]} 3', confirm=t["sure"])
            with s.moving(f"bid-{b}"):
                s.circle(x, 80, 34, "#e7b53c")
                s.text(x, 86, f'{t["bid"]} {b}', 16, anchor="middle")
            s.close()
        made = [self.names[p] if p < len(self.names) else f"P{p + 1}"
                for p, done in enumerate(obs["bid_made"]) if done]
        if made:
            s.text(10, 135, f'{", ".join(made)}: {t["made"]}', 13)
        pts = ", ".join(str(p) for p in obs["points"])
        s.text(10, 155, f'{t["points"]}: {pts}', 14)
        return s.layer({"mine": (250, 175)})

    def board_seat(self, obs: dict[str, Any], public: Layer) -> Layer | None:
        bid = obs.get("my_bid")
        if bid is None:
            return None
        x, y = public.anchors["mine"]
        s = Svg(WIDTH, HEIGHT)
        s.add(f'<g data-ref="my-bid-{bid}">')
        s.text(x, y, f'{self.words["mine"]}: {bid}', 14, "bold")
        s.close()
        return s.layer()
