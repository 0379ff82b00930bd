"""Texts for the web interface built from data/i18n.yaml: action buttons and log lines.

Only wording lives here: the engine's English log lines are matched by the
patterns below and rebuilt from the ``ev.<id>`` templates of i18n.yaml, with
the thief, player, townsfolk, building, goods and equipment names inside them
translated too. A line no pattern knows is left as it is.
"""
from __future__ import annotations

import re

from .i18n import term, terms

COLOUR_NAMES = ("yellow", "purple", "white", "blue")
BUILDING_TYPES = ("tower", "garden", "forge", "stable", "church", "market", "dealer", "tavern", "dungeon",
                  "smuggler", "villa")
GOODS_WORDS = ("gold", "gem", "gems", "brandy", "wine", "badge", "art")

# The engine's log lines (English), one per event kind. Placeholders:
# {T} a thief ("yellow thief 1"), {P} a player ("Yellow (P1)"), {F} a townsfolk
# ("guard A", "noble B", "the carriage"), {B} a building ("the forge 1Bb"),
# {G} a good, {E} an equipment card's name, {N} a number, {X} a word, {L} a list.
EVENTS: tuple[tuple[str, str], ...] = (
    ("night", "Night {N} begins."),
    ("placed", "{P} has placed their planning tiles."),
    ("planned", "You planned {X}."),
    ("revealed", "Planning tiles revealed: {L}"),
    ("patrol", "{P} moves the townsfolk of patrol board {X}."),
    ("day", "Day {N}: administration done."),
    ("over", "The game is over: {L}"),
    ("uses", "{T} uses {B}."),
    ("mission", "{T} completes smuggling mission {X}."),
    ("artkeep", "{T} keeps {E} from the artwork reward."),
    ("artnone", "{T} can fit neither drawn equipment card."),
    ("fill", "{T} fills their purse at the market (+{N} gold)."),
    ("sell", "{T} sells 1 {G} (+{N} VP)."),
    ("clients", "{T} meets clients: {L}."),
    ("gems", "{T} fills their bag with gems at the villa (+{N})."),
    ("steal_art", "{T} steals the artwork {X} from the villa."),
    ("recover", "{T} recovers 1 {G} from the dungeon."),
    ("burn", "{T} burns their wanted poster in the dungeon (+{N} VP)."),
    ("deliver", "{T} delivers artwork {X} to the dealer."),
    ("brandy", "{T} buys 1 brandy."),
    ("buy_eq", "{T} buys {E} for {N} gold (+{M} VP)."),
    ("ally", "{T} allies with {X} (+{N} VP)."),
    ("brawl", "{T} starts a brawl (+{N} VP) and can never make an ally now."),
    ("decline", "{T} declines the clients."),
    ("keeps_card", "{P} keeps a card."),
    ("you_keep", "You keep {E}."),
    ("draft_buy", "{P} buys {E} for thief {N} (+{M} VP)."),
    ("bought", "{P} has finished buying."),
    ("hideout", "{P} sets up their hideout in {B}."),
    ("solo_turn", "Townsfolk turn: patrol board {X}, the D8 shows {N} ({D})."),
    ("rival", "The rival thief {N} goes to {B} (D8 {M})."),
    ("start", "{T} starts their turn."),
    ("end", "{T} ends their turn."),
    ("discard", "{T} discards {N} {G}."),
    ("stamina", "{T} uses the stamina marker (+{N} AP)."),
    ("trade_home", "{T} trades goods with a guildmate at home."),
    ("exchange", "{T} and a guildmate exchange goods."),
    ("slip", "{T} slips past an opposing thief (-{N} VP)."),
    ("meet", "{T} meets {N} opposing thief/thieves (-{M} VP)."),
    ("poster_home", "{T} gets rid of the wanted poster at home."),
    ("enters", "{T} enters {B}."),
    ("rob_car_m", "{T} robs the carriage with Mortana's help: 2 wine, no wanted poster."),
    ("rob_car", "{T} robs the carriage: 1 wine and a wanted poster."),
    ("badge", "{T} steals the badge of {F}."),
    ("cudgel", "{T} knocks out {F} with the cudgel (+{N} VP)."),
    ("rob", "{T} robs {F}."),
    ("escape", "{T} escapes an arrest attempt ({X})."),
    ("arrest", "{T} is arrested by {F} and sent home (-{N} VP)."),
    ("stays", "{F} cannot move and stays."),
    ("moves", "{F} moves to {S}."),
    ("crossbow", "{T} shoots {F} with the crossbow (+{N} VP)."),
    ("stars", "{T} throws stars at {F} (+{N} VP)."),
    ("fish", "{T} fishes a bottle of wine from the carriage (+{N} VP)."),
    ("hook", "{T} swings across the roofs with the grappling hook."),
    ("smoke", "{T} throws a smoke bomb (+{N} VP) and cannot be arrested this turn."),
    ("bernhard", "{T} bribes {F} through Bernhard."),
    ("samuel", "{T} swaps places with a guildmate (Samuel)."),
    ("teleport", "{T} teleports."),
    ("antonius", "{T} receives 1 wine from Antonius."),
    ("apollon", "{T} swaps brandy for wine (Apollon)."),
    ("kostanze", "{T} donates 2 gold at the church (+{N} VP)."),
    ("beatrix", "{T} escorts Beatrix to the church (+{N} VP, +{M} AP)."),
    ("ruth", "{T} trades 1 {G} from the hideout with Ruth."),
    ("pass", "{T} passes goods with a guildmate."),
)

_SLOTS = {
    "T": r"(?P<T>(?:yellow|purple|white|blue) thief \d)",
    "P": r"(?P<P>(?:Yellow|Purple|White|Blue) \(P\d\))",
    "F": r"(?P<F>the carriage|guard [A-Z]|noble [A-Z])",
    "B": r"(?P<B>the \w+ \w+)",
    "G": r"(?P<G>\w+)",
    "E": r"(?P<E>[\w' -]+?)",
    "N": r"(?P<N>\d+)",
    "M": r"(?P<M>\d+)",
    "X": r"(?P<X>[^ ()]+(?: [^ ()]+)*?)",
    "S": r"(?P<S>\d+\.\d+)",
    "D": r"(?P<D>[A-Z]+)",
    "L": r"(?P<L>.+?)",
}


def _compile(pattern: str) -> re.Pattern[str]:
    out = ""
    for part in re.split(r"(\{[A-Z]\})", pattern):
        if re.fullmatch(r"\{[A-Z]\}", part):
            out += _SLOTS[part[1]]
        else:
            out += re.escape(part)
    return re.compile(out + r"\Z")


_COMPILED = tuple((key, _compile(pat)) for key, pat in EVENTS)


def t(key: str, lang: str, **kw: object) -> str:
    text = term(key, lang)
    try:
        return text.format(**kw) if kw else text
    except (KeyError, IndexError, ValueError):
        return text


# -- names ---------------------------------------------------------------------------------
def colour(p: int, lang: str) -> str:
    return term(f"colour.{COLOUR_NAMES[p]}", lang) if 0 <= p < len(COLOUR_NAMES) else str(p + 1)


def player_name(p: int, lang: str) -> str:
    """The game's own name of a seat, e.g. "Yellow (P1)" (what the panels show beside the seat's name)."""
    return f"{colour(p, lang)} (P{p + 1})"


def thief_name(p: int, t_: int, lang: str) -> str:
    return t("name.thief", lang, colour=term(f"colour.{COLOUR_NAMES[p]}.adj", lang), n=t_ + 1)


def fig_name(fig: str, lang: str, article: bool = True) -> str:
    """A townsfolk figure id ("gA", "nB", "car") as words."""
    if fig == "car":
        return term("the.carriage" if article else "carriage", lang)
    kind = "guard" if fig[:1] == "g" else "noble"
    return t(f"name.{kind}", lang, x=fig[1:])


def place_name(kind: str, bid: str, lang: str) -> str:
    if kind == "villa" or bid.startswith("villa"):
        return t("name.villa", lang, x=bid[5:] if bid.startswith("villa") else bid)
    return f"{term(kind, lang)} {bid}"


def good_name(g: str, lang: str) -> str:
    key = {"gems": "gem", "art": "artwork"}.get(g, g)
    return term(key, lang)


def equipment_name(x: str, lang: str) -> str:
    key = f"equipment.{x}"
    text = term(key, lang)
    return text if text != key else x


_EQ_BY_EN: dict[str, str] = {}


def _equipment_from_english(name: str) -> str | None:
    if not _EQ_BY_EN:
        for k, v in terms()["en"].items():
            if k.startswith("equipment."):
                _EQ_BY_EN[v] = k[len("equipment."):]
    return _EQ_BY_EN.get(name)


# -- log lines -------------------------------------------------------------------------------
_TNAME = re.compile(r"(yellow|purple|white|blue) thief (\d)")
_PNAME = re.compile(r"(Yellow|Purple|White|Blue) \(P(\d)\)")


def _slot(kind: str, value: str, lang: str) -> str:
    if kind == "T":
        m = _TNAME.fullmatch(value)
        return thief_name(COLOUR_NAMES.index(m.group(1)), int(m.group(2)) - 1, lang) if m else value
    if kind == "P":
        m = _PNAME.fullmatch(value)
        return player_name(int(m.group(2)) - 1, lang) if m else value
    if kind == "F":
        if value == "the carriage":
            return term("the.carriage", lang)
        return fig_name(("g" if value.startswith("guard") else "n") + value.split()[-1], lang)
    if kind == "B":
        _the, btype, bid = value.split(" ", 2)
        return place_name(btype, bid, lang) if btype in BUILDING_TYPES else value
    if kind == "G":
        return good_name(value, lang) if value in GOODS_WORDS else value
    if kind == "E":
        eq = _equipment_from_english(value)
        return equipment_name(eq, lang) if eq else value
    if kind == "D":
        return "".join(term(f"dir.{c.lower()}", lang) if c in "NESW" else c for c in value)
    if kind == "L":
        return re.sub(r"\b(\d+) VP\b", lambda m: f"{m.group(1)} {term('vp', lang)}", _names_in(value, lang))
    if kind == "X":
        return _names_in(value, lang)
    return value


def _names_in(text: str, lang: str) -> str:
    """Player and thief names inside a free text (a list of scores, of plans...)."""
    text = _PNAME.sub(lambda m: player_name(int(m.group(2)) - 1, lang), text)
    return _TNAME.sub(lambda m: thief_name(COLOUR_NAMES.index(m.group(1)), int(m.group(2)) - 1, lang), text)


def translate_event(text: str, lang: str) -> str:
    if lang == "en" or not isinstance(text, str):
        return text
    for key, rx in _COMPILED:
        m = rx.match(text)
        if m:
            args = {k: _slot(k, v, lang) for k, v in m.groupdict().items() if v is not None}
            return _capital(t(f"ev.{key}", lang, **args))
    return _capital(_names_in(text, lang))


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


# -- action buttons ---------------------------------------------------------------------------
def _building_kind(bid: str, observation: dict) -> str | None:
    """The type of a building from the observation's grid (its first square)."""
    from .render import TYPE_KEY  # the grid letters
    if bid.startswith("villa"):
        return "villa"
    cells = (observation.get("bcells") or {}).get(bid) or []
    city = observation.get("city") or {}
    if not cells or not city:
        return None
    r, c = divmod(cells[0], city["w"])
    try:
        return TYPE_KEY.get(city["rows"][r][c])
    except IndexError:
        return None


def _place(bid: str, observation: dict, lang: str) -> str:
    kind = _building_kind(bid, observation)
    if kind is None:
        return bid
    return place_name(kind, bid, lang)


def _thing(x: str, lang: str) -> str:
    """A word of the notation that names a good, an artwork, an equipment card or a client."""
    if x in GOODS_WORDS:
        return good_name(x, lang)
    eq = equipment_name(x, lang)
    if eq != x:
        return eq
    if x.startswith("art") and x[3:].isdigit():
        return t("name.art", lang, x=x[3:])
    return x[:1].upper() + x[1:]


def describe_action(action: str, observation: dict, lang: str = "en") -> str:
    w = action.split()
    if not w:
        return action
    a, rest = w[0], w[1:]
    obs = observation or {}
    if a in ("n", "e", "s", "w") and not rest:
        return t("do.step", lang, dir=term(f"dirto.{a}", lang))
    if a == "climb" and rest and rest[0] in "nesw":
        return t("do.climb", lang, dir=term(f"dirto.{rest[0]}", lang))
    if a == "go" and rest:
        return t("do.go", lang, dir=term(f"dir.{rest[0]}", lang))
    if a == "plan" and rest:
        parts = [term("plan.patrol", lang) if ch == "P" else t("plan.thief", lang, n=ch) for ch in rest[0]]
        return t("do.plan", lang, order=", ".join(parts))
    if a == "rob" and rest:
        fig = fig_name(rest[0], lang)
        if rest[1:] == ["pay"]:
            return t("do.rob_pay", lang, fig=fig)
        if rest[1:]:
            return t("do.rob_goods", lang, fig=fig, good=good_name(rest[1], lang))
        return t("do.rob", lang, fig=fig)
    if a in ("exit", "jin") and rest:
        return t(f"do.{a}", lang, sq=rest[0])
    if a == "tp" and rest:
        return t("do.tp", lang, place=rest[0] if "." in rest[0] else _place(rest[0], obs, lang))
    if a in ("hook", "svenja", "hideout") and rest:
        return t(f"do.{a}", lang, place=_place(rest[0], obs, lang))
    if a in ("cata", "pigeon", "samuel", "lentz") and rest:
        return t(f"do.{a}", lang, n=rest[0])
    if a in ("crossbow", "stars", "bernhard") and rest:
        return t(f"do.{a}", lang, fig=fig_name(rest[0], lang))
    if a == "buy" and rest:
        if len(rest) > 1:
            return t("do.buy_for", lang, card=_thing(rest[0], lang), n=rest[1])
        return t("do.buy", lang, card=_thing(rest[0], lang))
    if a == "take" and len(rest) == 2:
        return t("do.take_from", lang, good=_thing(rest[1], lang), n=rest[0])
    if a == "hand" and len(rest) == 2:
        return t("do.hand", lang, good=_thing(rest[1], lang), n=rest[0])
    if a in ("keep", "fetch", "stash", "take", "drop", "give", "get", "ruth", "sell", "fill", "ally",
             "brawl", "deliver") and rest:
        return t(f"do.{a}", lang, good=_thing(rest[0], lang))
    if not rest:
        key = f"do.{a}"
        text = term(key, lang)
        if text != key:
            return text
    if a == "burn":
        return term("do.burn", lang)
    return action


def phase_prompt(observation: dict, lang: str = "en") -> str:
    """Why the viewer must act now, in ``lang``."""
    obs = observation or {}
    phase = obs.get("phase")
    viewer = obs.get("viewer")
    tm = obs.get("tmove")
    tu = obs.get("turn")
    if phase == "action" and tm:
        who = player_name(tm["mover"], lang)
        return t("prompt.tmove", lang, who=who, fig=fig_name(tm.get("fig", ""), lang)) if tm.get("fig") \
            else t("prompt.tmove_any", lang, who=who)
    if phase == "action" and tu:
        sub = (tu.get("sub") or {}).get("kind")
        text = t("prompt.turn", lang, thief=thief_name(tu["p"], tu["t"], lang), ap=tu.get("ap", 0))
        if tu.get("moving"):
            text += " - " + t("prompt.moving", lang, mp=tu.get("mp", 0))
        elif sub:
            key = f"prompt.sub.{sub}"
            extra = term(key, lang)
            text += " - " + (extra if extra != key else term(sub, lang))
        return text
    base = term(f"phase.{phase}", lang)
    night = obs.get("round")
    if phase in ("plan", "action") and night:
        return f"{t('prompt.night', lang, n=night)} - {base}"
    return base
