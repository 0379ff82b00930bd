"""What a person reads of Thief's Market: action texts, prompts, the purchase
question, card texts, the end-of-game score table and the terminal view, in
the viewer's language (``data/i18n.yaml``), from the observation only.

The methods of :class:`~thieves.core.presentation.Presentation` take the engine's
``dict[str, Any]``; each reads it once through :func:`~.observation.as_market`
and hands the typed observation on."""
from __future__ import annotations

from typing import Any

from thieves.core.presentation import Presentation
from thieves.core.svg import memo
from thieves.core.texts import join_list

from .actions import MarketAction
from .faces import FACES, GEMS
from .components import Tables
from .observation import FinalScore, MarketObservation, as_market
from .payment import cheapest_payment, payment_steps

#: the words of an action, by the action and the step
_WORDS = memo(4096)


class MarketWords(Presentation):
    """Thief's Market's words for one viewer in one language (the board is
    :class:`~.presentation.MarketPresentation`'s)."""

    data: Tables

    # -------------------------------------------------------------- words
    def card_name(self, cid: str) -> str:
        return self.term("card", cid)

    def effect(self, cid: str) -> str:
        return self.term("effect", cid)

    def icons(self, cid: str) -> str:
        c = self.data.cards[self.data.index[cid]]
        return " · ".join(self.term("icon", i) for i in c.icons)

    def cost(self, cid: str) -> list[str]:
        return list(self.data.cards[self.data.index[cid]].cost)

    def action_text(self, obs: dict[str, Any], action: str) -> str:
        return self.action_words(as_market(obs), action)

    def action_words(self, obs: MarketObservation, action: str) -> str:
        """:meth:`action_text` of the typed observation."""
        # the words read only the action, the data, the texts and (for "done") the step
        key = (self.data, self.texts, self.lang, tuple(self.names), action, obs.get("step"))
        text: str | None = _WORDS.get(key)
        if text is None:
            text = self._action_text(obs, action)
            _WORDS.put(key, text)
        return text

    def _action_text(self, obs: MarketObservation, action: str) -> str:
        try:
            a = MarketAction.parse(action)
        except Exception:  # noqa: BLE001 - not notation: show it as it is
            return action
        k = a.kind
        if k in ("take", "return") and a.face is not None:
            text = self.t(f"act.{k}", face=a.face)
        elif k == "take_all":
            text = self.t("act.take_all")
        elif k == "steal":
            text = self.t("act.steal", seat=a.seat)
        elif k == "done":
            text = self.t("act.done_return" if obs.get("step") == "return" else "act.done_take")
        elif k == "reroll":
            text = self.t("act.reroll", face=a.face)
        elif k in ("keep", "end"):
            text = self.t(f"act.{k}")
        elif k == "buy":
            if a.card not in self.data.index:
                return action
            text = self.t("act.buy", card=a.card, cost=self.cost(a.card))
        elif k == "use":
            if a.card not in self.data.index:
                return action
            if a.face is not None:
                c = self.data.index[a.card]
                text = self.t("act.use_turn", card=a.card, face=self.data.cards[c].effect.face, to=a.face)
            else:
                text = self.t("act.use", card=a.card)
        else:                                  # pay / gold / free a gem
            text = self.t(f"act.{k}", gem=a.face)
        return text[:1].upper() + text[1:]

    def purchase(self, obs: MarketObservation, cid: str, buyer: int | None = None) -> tuple[list[str], str | None]:
        """The gesture of buying market card ``cid``: the payment steps after ``buy``
        (:func:`payment_steps`, from what the buyer holds) and the question the page
        asks first, naming the whole payment (None when the table leaves no choice:
        buying is then one click). ``buyer``: the seat who buys (the viewer when
        None); all it reads of them is public."""
        me = self.viewer if buyer is None else buyer
        if me is None:
            return [], None
        tab = [self.data.index[x] for x in obs["tableau"][me]]
        waiver = self.data.holdings(tab).waiver
        cost, pile, gold = self.cost(cid), obs["piles"][me], obs["gold"][me]
        steps = payment_steps(cost, pile, gold, waiver)
        plan = cheapest_payment(cost, pile, gold, waiver)
        if not steps or plan is None:
            return [], None
        waived, dice, coins = plan
        parts = [self.term("obj", g) if k == 1 else self.t(f"obj.{g}.many").replace("#", str(k))
                 for g, k in dice.items() if k]
        if sum(coins.values()):
            parts.append(self.t("confirm.gold", n=sum(coins.values())))
        left_out = [g for g in GEMS for _ in range(waived[g])]
        if not parts:
            return steps, self.t("confirm.buy_free", card=cid, gems=left_out)
        key = "confirm.buy_waive" if left_out else "confirm.buy"
        return steps, self.t(key, card=cid, payment=join_list(parts, self.lang), gems=left_out)

    def prompt(self, obs: dict[str, Any]) -> str | None:
        return self._prompt(as_market(obs))

    def _prompt(self, obs: MarketObservation) -> str | None:
        phase, step = obs["phase"], obs.get("step") or ""
        if phase == "over":
            return self.t("prompt.over")
        current = obs.get("current", -1)
        if self.viewer is None or current != self.viewer:
            return self.t("prompt.wait", player=current, phase=phase)
        me = self.viewer
        if phase == "split":
            if step == "take":
                return self.t("prompt.take", n=obs["objects"][me])
            if step == "return":
                return self.t("prompt.return", victim=obs["victim"])
            last = obs["has_pile"].count(False) == 1
            return self.t("prompt.split_last" if last else "prompt.split_first")
        if phase == "lucky":
            return self.t("prompt.lucky")
        paying = obs.get("paying")
        if paying:
            return self.t("prompt.pay", card=paying["card"], gems=paying["remaining"])
        return self.t("prompt.buy", made=obs.get("buys_made", 0), allowed=obs.get("buys_allowed", 1))

    def info(self, obs: dict[str, Any], ident: str) -> str | None:
        """A card's (or a die face's) full text, for ``info A13`` in the terminal."""
        if ident in self.data.index:
            c = self.data.cards[self.data.index[ident]]
            cost = ", ".join(self.term("face", g) for g in c.cost)
            pts = f" · {c.points} {self.t('ui.points')}" if c.points else ""
            icons = f" · {self.icons(ident)}" if c.icons else ""
            return (f"{ident} {self.card_name(ident)} ({self.t('ui.cost')}: {cost}{pts}{icons})\n"
                    f"  {self.effect(ident)}")
        if ident in FACES or ident == "T":
            return self.t(f"legend.{ident}")
        return None

    # -------------------------------------------------------------- score table
    def score_table(self, obs: dict[str, Any], scores: list[float], winners: list[int]) -> dict[str, Any] | None:
        return self._score_table(as_market(obs))

    def _score_table(self, obs: MarketObservation) -> dict[str, Any] | None:
        final = obs.get("final")
        if not final:
            return None
        n = obs["num_players"]
        names = [self.term("player", p) for p in range(n)]
        # the awards show the count they were decided on: "3 (5)" is 3 NP for 5 icons
        rows = [
            [self.t("score.henchmen"), *[f"{f['henchmen_award']} ({h})" for f, h in zip(final, obs["henchmen"])]],
            [self.t("score.gold"), *[f"{f['gold_award']} ({g})" for f, g in zip(final, obs["gold"])]],
            [self.t("score.cards"), *[f["cards"] for f in final]],
            [self.t("score.infamy"), *[f["infamy"] for f in final]],
            [self.t("score.total"), *[f["total"] for f in final]],
        ]
        return {"columns": names, "rows": rows, "tiebreak": self._tiebreak(obs, final)}

    def _tiebreak(self, obs: MarketObservation, final: list[FinalScore]) -> str | None:
        """Which tie-breaker decided (rulebook "Fin du jeu": most cards, then most tokens)."""
        totals = [f["total"] for f in final]
        top = [p for p, t in enumerate(totals) if t == max(totals)]
        if len(top) < 2:
            return None
        cards = {p: len(obs["tableau"][p]) for p in top}
        top = [p for p in top if cards[p] == max(cards.values())]
        if len(top) < 2:
            return self.t("score.tiebreak_cards")
        tokens = {p: final[p]["infamy"] + obs["gold"][p] for p in top}   # revealed at the end
        top = [p for p in top if tokens[p] == max(tokens.values())]
        return self.t("score.tiebreak_tokens" if len(top) < 2 else "score.tiebreak_shared")

    # -------------------------------------------------------------- terminal
    def dice_words(self, counts: dict[str, int], token: bool = False) -> str:
        parts = [self.term("face", f) + (f" ×{k}" if k > 1 else "") for f, k in counts.items() if k]
        if token:
            parts.append("★ " + self.term("face", "T"))
        return ", ".join(parts) or "-"

    def text_view(self, obs: dict[str, Any]) -> str:
        return self._text_view(as_market(obs))

    def _text_view(self, obs: MarketObservation) -> str:
        t = self.data
        n, phase = obs["num_players"], obs["phase"]
        me = self.viewer
        lines = [f"{self.t('ui.round')} {obs['round']} · {self.term('phase', phase)}"]
        if phase != "over" and obs["current"] >= 0:
            lines[0] += f" · {self.term('player', obs['current'])} {self.t('ui.to_act')}"
        if phase == "split":
            lines.append(f"{self.t('ui.center')}: {self.dice_words(obs['center'], obs['token'] == -1)}")
            if obs["step"] == "return":
                lines.append(f"  {self.t('ui.being_returned')}: "
                             f"{self.dice_words(obs['returning'], obs['token'] == -2)}")
        for row in "ABC":
            cards = obs["market"][row]
            if not cards and row > obs["active_row"]:
                continue
            lines.append(f"{self.t('ui.market')} {row} ({self.t('ui.deck')} {obs['deck_sizes'][row]}):")
            for cid in cards:
                c = t.cards[t.index[cid]]
                pts = f" · {c.points} {self.t('ui.points')}" if c.points else ""
                lines.append(f"  {cid:<4} {self.card_name(cid)} ({self.t('ui.cost')}: "
                             f"{', '.join(self.term('face', g) for g in c.cost)}{pts})")
        paying = obs.get("paying")
        if paying:
            lines.append(f"{self.t('ui.paying')} {self.card_name(paying['card'])}: {self.t('ui.still_to_pay')} "
                         + self.term("gems", paying["remaining"]))
        for p in range(n):
            inf = obs["infamy"][p]
            star = " ★" if obs["token"] == p else ""
            you = f" ({self.t('ui.you')})" if p == me and self.t("ui.you").lower() not in \
                self.term("player", p).lower() else ""
            stats = (f"{self.t('ui.gold')} {obs['gold'][p]}, {self.t('ui.henchmen')} {obs['henchmen'][p]}, "
                     f"{self.t('ui.infamy')} {'?' if inf is None else inf}")
            has = obs["has_pile"][p] or phase != "split"
            pile = self.dice_words(obs["piles"][p], obs["token"] == p) if has else self.t("ui.no_pile")
            lines.append(f"{self.term('player', p)}{you}{star}: {stats}")
            lines.append(f"   {self.t('ui.pile')}: {pile}")
            owned = [f"{cid} {self.card_name(cid)}" + (f" ({self.t('ui.used')})" if cid in obs["used"] else "")
                     for cid in obs["tableau"][p]]
            lines.append(f"   {self.t('ui.cards')}: {', '.join(owned) or '-'}")
        if obs.get("final"):
            table = self._score_table(obs)
            if table:
                for row in table["rows"]:
                    lines.append(f"{row[0]}: " + ", ".join(f"{self.term('player', p)} {v}"
                                                           for p, v in enumerate(row[1:])))
                if table["tiebreak"]:
                    lines.append(table["tiebreak"])
        return "\n".join(lines)
