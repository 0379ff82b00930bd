"""Thief's Market components: pydantic models for the YAML data and the
precomputed integer tables the rules use in their hot path.

Die faces are integers 0..5 in the order ``FACES`` (R W B G gems, Y yellow
bag, P purple infamy face). Cards are referred to by their index in
``Tables.ids`` inside the state, and by their id (``A7``) in the notation.
"""
from __future__ import annotations

from typing import Any, Literal, Optional, cast

from pydantic import BaseModel, ConfigDict, Field, model_validator

from thieves.core.data import load_model, refuse_duplicates
from thieves.core.errors import DataError

from .actions import MarketAction
# the faces are read here and, as before, from here (``components.FACES``)
from .faces import FACES as FACES, GEMS as GEMS, TOKEN as TOKEN
from .faces import B as B, G as G, P as P, R as R, W as W, Y as Y
#: entries a memo of :class:`Tables` holds before it starts again (a memory bound)
MEMO_LIMIT = 50_000

Face = Literal["R", "W", "B", "G", "Y", "P"]
Icon = Literal["henchman", "magic", "building", "finery", "map", "scheme"]
ICONS: tuple[Icon, ...] = ("henchman", "magic", "building", "finery", "map", "scheme")

#: effect kind -> parameters it requires
EFFECT_PARAMS: dict[str, tuple[str, ...]] = {
    "none": (),
    "turn_die": ("face", "to"),                   # once per round: turn a die of `face` to one of `to`
    "spend_die": ("face", "gain", "amount"),      # once per round: spend a die of `face` to gain
    "gold_for_infamy": ("amount",),               # any number of times: 1 gold -> `amount` infamy
    "extra_buy_if_face": ("face",),               # extra purchase if pile had `face` after phase 1
    "extra_buy_discount": ("amount",),            # extra purchase, each card costs `amount` gem less
    "infamy_on_buy_gem": ("face", "amount"),      # buying a card whose cost shows `face` -> infamy
    "infamy_if_token": ("amount",),               # end of phase 1 with the start token -> infamy
    "infamy_when_stolen": ("amount",),            # your pile is stolen -> infamy
    "lucky_charm": ("amount",),                   # stolen: dice not rerolled; reroll `amount` die
    "round_bonus": ("face", "gain", "amount"),    # end of round, turning in 1+ `face` dice -> bonus
    "infamy_per_pile_object": (),                 # on gain: infamy = objects in pile this round
    "gain_top_card": (),                          # on buy: discard it, gain the top deck card
    "set_points": ("icon", "one", "more"),        # end: `one` with 1 card of `icon`, `more` with 2+
    "points_per_icon_group": ("icon", "group", "amount"),
    "points_per_other_card": ("amount",),
    "points_per_infamy_group": ("group", "amount"),
    "points_unless_rival_icon": ("icon", "amount", "reduced"),
}


class Effect(BaseModel):
    model_config = ConfigDict(extra="forbid")
    kind: Literal[tuple(EFFECT_PARAMS)]  # type: ignore[valid-type]
    face: Optional[Face] = None
    to: Optional[list[Face]] = None
    gain: Optional[Literal["infamy", "gold"]] = None
    amount: Optional[int] = Field(None, ge=0)
    icon: Optional[Icon] = None
    one: Optional[int] = Field(None, ge=0)
    more: Optional[int] = Field(None, ge=0)
    group: Optional[int] = Field(None, ge=1)
    reduced: Optional[int] = Field(None, ge=0)

    @model_validator(mode="after")
    def _params(self) -> "Effect":
        needed = EFFECT_PARAMS[self.kind]
        for name in needed:
            if getattr(self, name) is None:
                raise ValueError(f"effect kind {self.kind!r} needs parameter {name!r}")
        for name in ("face", "to", "gain", "amount", "icon", "one", "more", "group", "reduced"):
            if name not in needed and getattr(self, name) is not None:
                raise ValueError(f"effect kind {self.kind!r} takes no parameter {name!r}")
        refuse_duplicates(self.to or [], "face")   # each is one "use" action
        return self


class Card(BaseModel):
    model_config = ConfigDict(extra="forbid")
    id: str = Field(pattern=r"^[A-Z][0-9]{1,2}$")
    name: str
    deck: Literal["A", "B", "C"]
    icons: list[Icon]
    cost: str = Field(pattern=r"^[RWBG]{1,4}$")
    points: int = Field(ge=0)
    effect: Effect
    reconstructed: bool = False
    note: Optional[str] = None


class CardSet(BaseModel):
    model_config = ConfigDict(extra="forbid")
    cards: list[Card]

    @model_validator(mode="after")
    def _unique(self) -> "CardSet":
        ids = [c.id for c in self.cards]
        dup = {i for i in ids if ids.count(i) > 1}
        if dup:
            raise ValueError(f"duplicate card ids: {sorted(dup)}")
        return self


class Setup(BaseModel):
    model_config = ConfigDict(extra="forbid")
    total_dice: int = Field(ge=1)
    dice_by_players: dict[int, int]
    deck_sizes: dict[Literal["A", "B", "C"], int]
    market_row: int = Field(ge=1)
    start_gold: int = Field(ge=0)
    henchmen_award: list[int] = Field(min_length=2, max_length=2)
    gold_award: int
    tie_penalty: int


class Tables:
    """Plain lists derived once from the data; shared by every state, never mutated."""

    def __init__(self, cards: CardSet, setup: Setup) -> None:
        self.cards = cards.cards
        self.setup = setup
        self.ids = [c.id for c in self.cards]
        self.index = {c.id: i for i, c in enumerate(self.cards)}
        self.names = [c.name for c in self.cards]
        self.deck_of = ["ABC".index(c.deck) for c in self.cards]
        self.deck_cards = [[i for i, c in enumerate(self.cards) if c.deck == d] for d in "ABC"]
        self.deck_sizes = [setup.deck_sizes.get(d, 0) for d in ("A", "B", "C")]
        for d, size in zip("ABC", self.deck_sizes):
            if size > len(self.deck_cards["ABC".index(d)]):
                raise DataError(f"setup.yaml: deck {d} needs {size} cards but cards.yaml has fewer")
        # cost as gem counts [R, W, B, G]
        self.cost = [[c.cost.count(g) for g in GEMS] for c in self.cards]
        self.points = [c.points for c in self.cards]
        self.kind = [c.effect.kind for c in self.cards]
        self.effect = [c.effect for c in self.cards]
        self.face = [FACES.index(c.effect.face) if c.effect.face else -1 for c in self.cards]
        self.amount = [c.effect.amount or 0 for c in self.cards]
        self.henchmen = [c.icons.count("henchman") for c in self.cards]
        self.icon_count = [{i: c.icons.count(i) for i in ICONS} for c in self.cards]
        # "use" actions each card offers: (notation, target face or -1)
        self.use_actions: list[list[tuple[str, int]]] = []
        for c in self.cards:
            k = c.effect.kind
            if k == "turn_die":
                self.use_actions.append([(f"use {c.id} {t}", FACES.index(t)) for t in c.effect.to or []])
            elif k in ("spend_die", "gold_for_infamy"):
                self.use_actions.append([(f"use {c.id}", -1)])
            else:
                self.use_actions.append([])
        self.buy_action = [f"buy {i}" for i in self.ids]
        self.dice_by_players = dict(setup.dice_by_players)
        self.steal_action = [f"steal {q + 1}" for q in range(max(self.dice_by_players, default=5))]
        #: notation -> typed action (:class:`~.actions.MarketAction`), every notation of the game
        self.actions: dict[str, MarketAction] = {}
        self.parse = action_table(self)
        #: notation -> (state method, argument); filled in by ``state.attach_dispatch``
        self.dispatch: dict[str, tuple[Any, Any]] = {}
        #: tableau (as a tuple of cards) -> its :class:`Holdings` (see :meth:`holdings`;
        #: the hot paths read it directly, and call ``holdings`` only when it is not there)
        self.holdings_memo: dict[tuple[int, ...], Holdings] = {}
        #: (dice R W B G, budget) -> cards affordable (see :meth:`affordable`)
        self.affordable_memo: dict[tuple[int, ...], int] = {}
        #: the same, by the dice and budget as they are (one look-up; see :meth:`afford`)
        self.affordable_raw: dict[tuple[int, ...], int] = {}
        self.max_gem = max((max(k) for k in self.cost), default=0)
        self.max_cost = max((sum(k) for k in self.cost), default=0)

    def affordable(self, red: int, white: int, blue: int, green: int, budget: int) -> int:
        """The cards (a bit mask over card indices) whose cost these dice pay with at most
        ``budget`` gems paid otherwise (gold coins, gems the Racket waives). Remembered by
        :meth:`afford_key` (dice beyond the largest cost of a gem, or a budget beyond the
        largest cost, change nothing)."""
        key = self.afford_key(red, white, blue, green, budget)
        red, white, blue, green, budget = key
        mask = self.affordable_memo.get(key)
        if mask is None:
            mask = 0
            for c, k in enumerate(self.cost):
                missing = (max(0, k[0] - red) + max(0, k[1] - white) + max(0, k[2] - blue)
                           + max(0, k[3] - green))
                if missing <= budget:
                    mask |= 1 << c
            if len(self.affordable_memo) >= MEMO_LIMIT:
                self.affordable_memo.clear()
            self.affordable_memo[key] = mask
        return mask

    def afford(self, key: tuple[int, int, int, int, int]) -> int:
        """:meth:`affordable` of (dice R W B G, budget) not capped, remembered in
        :attr:`affordable_raw` (the purchase phase looks it up once per decision)."""
        mask = self.affordable(*key)
        if len(self.affordable_raw) >= MEMO_LIMIT:
            self.affordable_raw.clear()
        self.affordable_raw[key] = mask
        return mask

    def afford_key(self, red: int, white: int, blue: int, green: int, budget: int) -> tuple[int, ...]:
        """The key of :attr:`affordable_memo`: the dice and budget, capped."""
        g, c = self.max_gem, self.max_cost
        return (red if red < g else g, white if white < g else g, blue if blue < g else g,
                green if green < g else g, budget if budget < c else c)

    def by_kind(self, tableau: list[int]) -> dict[str, list[int]]:
        """The cards of a tableau by effect kind, each list in tableau order, plus
        ``"usable"``: the cards with an ability to use, in tableau order. Remembered per
        tableau (see :meth:`holdings`); the result is shared: never mutate it."""
        return self.holdings(tableau).kinds

    def holdings(self, tableau: list[int]) -> "Holdings":
        """The tableau's :class:`Holdings`, remembered per tableau (the effects ask at
        every decision of the purchase phase); shared: never mutate it. A tableau only
        grows, so a new one is mostly the last one and a card: that one is extended."""
        key = tuple(tableau)
        out = self.holdings_memo.get(key)
        if out is None:
            before = self.holdings_memo.get(key[:-1]) if key else None
            out = before.plus(self, key[-1]) if before is not None else Holdings(self, key)
            if len(self.holdings_memo) >= MEMO_LIMIT:
                self.holdings_memo.clear()
            self.holdings_memo[key] = out
        return out


class Holdings:
    """One tableau's cards sorted for the questions the rules ask of it (derived once
    from the cards, each list in tableau order; shared, never mutated)."""

    __slots__ = ("kinds", "uses", "rackets", "waiver", "extra_faces", "lucky")

    def __init__(self, t: Tables, cards: tuple[int, ...]) -> None:
        #: effect kind -> the cards of that kind (``"usable"``: cards with an ability)
        self.kinds: dict[str, list[int]] = {}
        #: per usable card: (card, face its die must show or -1 for gold, its notations)
        self.uses: list[tuple[int, int, list[str]]] = []
        #: extra purchases the Insurance Rackets give, and the gems they waive per card
        self.rackets = self.waiver = 0
        #: the faces of the extra-purchase cards (one purchase each if in the pile)
        self.extra_faces: list[int] = []
        #: dice the Lucky Animal Appendages reroll
        self.lucky = 0
        for c in cards:
            self._add(t, c)

    def plus(self, t: Tables, c: int) -> "Holdings":
        """These holdings and card ``c`` after them (a new object sharing the lists it does
        not change; this one is unchanged)."""
        new = Holdings.__new__(Holdings)
        new.kinds = self.kinds.copy()
        new.uses, new.extra_faces = self.uses, self.extra_faces
        new.rackets, new.waiver, new.lucky = self.rackets, self.waiver, self.lucky
        new._add(t, c)
        return new

    def _add(self, t: Tables, c: int) -> None:
        """Card ``c`` after the others (every list it changes is a new one: lists may be
        shared with the holdings this was extended from)."""
        kind, kinds = t.kind[c], self.kinds
        kinds[kind] = kinds.get(kind, []) + [c]
        if t.use_actions[c]:
            kinds["usable"] = kinds.get("usable", []) + [c]
            self.uses = self.uses + [(c, -1 if kind == "gold_for_infamy" else t.face[c],
                                      [s for s, _ in t.use_actions[c]])]
        if kind == "extra_buy_discount":
            self.rackets += 1
            self.waiver += t.amount[c]
        elif kind == "extra_buy_if_face":
            self.extra_faces = self.extra_faces + [t.face[c]]
        elif kind == "lucky_charm":
            self.lucky += t.amount[c]


def action_table(t: "Tables") -> dict[str, tuple[str, Any]]:
    """Every action notation -> (kind, argument), read once by :meth:`MarketAction.parse`,
    so applying an action is a dict look-up. Fills ``t.actions`` (notation -> typed action)."""
    notations = ["take T", "take all", "return T", "done", "keep", "end"]
    notations += [f"{verb} {face}" for face in FACES for verb in ("take", "return", "reroll")]
    notations += [f"{verb} {gem}" for gem in GEMS for verb in ("pay", "gold", "free")]
    notations += t.steal_action + t.buy_action + [s for uses in t.use_actions for s, _ in uses]
    t.actions = {s: MarketAction.parse(s) for s in notations}
    table: dict[str, tuple[str, object]] = {}
    for s, a in t.actions.items():
        if a.kind == "steal":
            arg: object = a.seat
        elif a.kind in ("buy", "use"):
            c = t.index[cast(str, a.card)]  # buy and use actions name a card
            arg = c if a.kind == "buy" else [c, a.face_index]
        elif a.face is not None:
            arg = a.face_index
        else:
            arg = 0
        table[s] = (a.kind, arg)
    return table


def load_tables(data_dir: str | None) -> Tables:
    pkg = "thieves.games.thiefs_market"
    return Tables(load_model(pkg, "cards.yaml", CardSet, data_dir),
                  load_model(pkg, "setup.yaml", Setup, data_dir))


Lang = Literal["en", "fr", "de"]


class I18n(BaseModel):
    """``data/i18n.yaml``: per language a flat mapping key -> text (the server's shape).

    Every language must name every card (``card.A7``) and give its effect text
    (``effect.A7``), every face (``face.R``, ``face.T``) and icon (``icon.magic``), and
    have every key English has (log templates, action texts, prompts, words).
    """
    model_config = ConfigDict(extra="forbid")
    en: dict[str, str]
    fr: dict[str, str]
    de: dict[str, str]

    def lang(self, lang: str) -> dict[str, str]:
        return getattr(self, lang) if lang in ("en", "fr", "de") else self.en

    @model_validator(mode="after")
    def _complete(self) -> "I18n":
        need = set(self.en) | {f"face.{f}" for f in FACES + TOKEN} | {f"icon.{i}" for i in ICONS}
        need |= {f"obj.{f}" for f in FACES + TOKEN} | {f"gem.{g}" for g in GEMS}
        for lang in ("en", "fr", "de"):
            missing = sorted(need - set(getattr(self, lang)))
            if missing:
                raise ValueError(f"language {lang!r} lacks {', '.join(missing[:5])}")
        return self


def load_i18n(data_dir: str | None = None, card_ids: list[str] | None = None) -> I18n:
    """Load the texts; with ``card_ids``, also check each card has a name and an effect text."""
    i18n = load_model("thieves.games.thiefs_market", "i18n.yaml", I18n, data_dir)
    for lang in ("en", "fr", "de"):
        texts = i18n.lang(lang)
        for cid in card_ids or []:
            if f"card.{cid}" not in texts or f"effect.{cid}" not in texts:
                raise DataError(f"i18n.yaml: language {lang!r} has no name or effect for card {cid}")
    return i18n
