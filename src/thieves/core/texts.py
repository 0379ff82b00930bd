"""Structured events and the templates that turn them into words.

A game records what happens as *events*: a key and arguments that are ids
(seat numbers, card ids, zone ids, counts), never display names::

    self.event("steal", player=p, victim=q, gold=3)

Each game's ``data/i18n.yaml`` holds, per language (``en``, ``fr``,
``de``), a template for every key under ``log.<key>`` (action texts and
prompts use the same syntax under other prefixes). One formatter renders an
event for a viewer in a language with explicit seat names, so the terminal,
the server and replays all print the same words.

Template syntax (Board Game Arena and lila keep messages as keys with
arguments in the same way):

``{name}``
    the argument as it is (numbers, or already readable text);
``{name:player}``
    the display name of seat ``name``;
``{name:NS}``
    the game's text ``NS.<value>`` in the viewer's language (``{card:card}``
    reads ``card.A13``); a list argument is joined as a list ("a, b and c"),
    and a run of equal items reads ``NS.<value>.many`` where the game has it
    (``obj.P.many: "# purple dice"``: ``["P", "P", "R"]`` reads "2 purple dice
    and a red die");
``{name|one form|other form}``
    the plural form for the number ``name`` (``#`` stands for the number):
    ``{n|# coin|# coins}``. French treats 0 and 1 as singular.

Secrets. ``event(key, to=[p], **args)`` is seen by the players in ``to``
only. ``event(key, to=[p], secret={"card": c}, **args)`` is seen by
everybody: the players in ``to`` read ``log.<key>`` with every argument,
the others read ``log.<key>.public`` with the public arguments only, so a
secret never reaches a viewer who may not know it.
"""
from __future__ import annotations

import re
from typing import Any, Callable, Iterable, Mapping, Sequence

LANGS = ("en", "fr", "de")

#: a placeholder: {name}, {name:kind} or {name|one|other}
PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)(?::([A-Za-z_][A-Za-z0-9_.]*)|\|([^{}]*))?\}")

_AND = {"en": " and ", "fr": " et ", "de": " und "}


class TextError(LookupError):
    """A template or a text that a strict render could not find."""


def public_key(key: str) -> str:
    """The template others read for an event with secret arguments."""
    return key + ".public"


def make_event(key: str, to: Sequence[int] | None, secret: Mapping[str, Any] | None,
               args: dict[str, Any], ply: int = 0) -> dict[str, Any]:
    """The stored form of an event: ``{"key", "args", "ply"}`` plus ``to``/``secret``
    when set; ``ply`` is the number of the decision that caused it."""
    ev: dict[str, Any] = {"key": key, "args": args, "ply": ply}
    if to is not None:
        # a game argument called "to" would land here: refuse it rather than hide the event
        if isinstance(to, (str, bytes)) or not all(type(p) is int for p in to):
            raise ValueError(f"event {key!r}: to= names the seats who may read it, not {to!r}")
        ev["to"] = list(to)
    if secret:
        if to is None:
            raise ValueError("an event with secret arguments must say who may read them (to=...)")
        ev["secret"] = dict(secret)
    return ev


def visible_event(entry: Mapping[str, Any], viewer: int | None) -> dict[str, Any] | None:
    """What ``viewer`` may read of one log entry (None: nothing):
    ``{"key", "args", "ply"}``, the secret arguments added or the public key used."""
    to = entry.get("to")
    inside = to is None or (viewer is not None and viewer in to)
    secret = entry.get("secret")
    if secret is None:
        return {"key": entry["key"], "args": entry["args"], "ply": entry["ply"]} if inside else None
    if inside:
        return {"key": entry["key"], "args": {**entry["args"], **secret}, "ply": entry["ply"]}
    return {"key": public_key(entry["key"]), "args": entry["args"], "ply": entry["ply"]}


def plural_index(lang: str, n: Any) -> int:
    """0 for the singular form, 1 for the plural (CLDR for en, fr and de)."""
    try:
        value = abs(float(n))
    except (TypeError, ValueError):
        return 1
    if lang == "fr":
        return 0 if value < 2 else 1
    return 0 if value == 1 else 1


def join_list(items: Sequence[str], lang: str) -> str:
    """"a", "a and b", "a, b and c" in the language."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + _AND.get(lang, _AND["en"]) + items[-1]


class Texts:
    """A game's texts in every language, with English as the fallback.

    ``table`` maps a language to a flat mapping ``key -> template``.
    """

    def __init__(self, table: Mapping[str, Mapping[str, str]]) -> None:
        self.table = {lang: dict(table.get(lang, {})) for lang in LANGS}

    def get(self, lang: str, key: str) -> str | None:
        """The text in ``lang``, else English, else None."""
        value = self.table.get(lang, {}).get(key)
        if value is None and lang != "en":
            value = self.table["en"].get(key)
        return value

    def has(self, lang: str, key: str) -> bool:
        return key in self.table.get(lang, {})

    def keys(self, lang: str = "en") -> list[str]:
        return list(self.table.get(lang, {}))

    def format(self, lang: str, key: str, args: Mapping[str, Any], names: Sequence[str],
               strict: bool = False) -> str:
        """Render template ``key`` in ``lang`` with ``args`` and seat ``names``.

        ``strict`` raises :class:`TextError` on anything that would fall back
        (a template missing in ``lang``, an unknown argument, a text id with
        no name); without it the formatter falls back to English, then to the
        raw value, and never fails.
        """
        template = self.table.get(lang, {}).get(key)
        if template is None:
            if strict:
                raise TextError(f"no {lang} template for {key!r}")
            template = self.table["en"].get(key)
            if template is None:
                return key + (" " + " ".join(f"{k}={v}" for k, v in args.items()) if args else "")
        return self.fill(lang, template, args, names, strict, key)

    def fill(self, lang: str, template: str, args: Mapping[str, Any], names: Sequence[str],
             strict: bool = False, where: str = "") -> str:
        """Replace the placeholders of ``template`` (see the module docstring)."""
        def one(m: re.Match[str]) -> str:
            name, kind, forms = m.group(1), m.group(2), m.group(3)
            if name not in args:
                if strict:
                    raise TextError(f"{where or template!r}: no argument {name!r}")
                return m.group(0)
            value = args[name]
            if forms is not None:
                choices = forms.split("|")
                form = choices[min(plural_index(lang, value), len(choices) - 1)]
                return form.replace("#", str(value))
            if kind is None:
                return str(value)
            if isinstance(value, (list, tuple)):
                return join_list(self._terms(lang, kind, value, names, strict), lang)
            return self._term(lang, kind, value, names, strict)
        return PLACEHOLDER.sub(one, template)

    def _terms(self, lang: str, kind: str, values: Sequence[Any], names: Sequence[str], strict: bool) -> list[str]:
        """The names of a list's items; a run of equal items reads ``NS.<value>.many``
        with ``#`` as the count when the game has that text ("3 purple dice")."""
        out: list[str] = []
        i = 0
        while i < len(values):
            j = i
            while j + 1 < len(values) and values[j + 1] == values[i]:
                j += 1
            many = self.table.get(lang, {}).get(f"{kind}.{values[i]}.many") if j > i else None
            if many is not None:
                out.append(many.replace("#", str(j - i + 1)))
                i = j + 1
            else:
                out.append(self._term(lang, kind, values[i], names, strict))
                i += 1
        return out

    def _term(self, lang: str, kind: str, value: Any, names: Sequence[str], strict: bool) -> str:
        if kind == "player":
            if type(value) is int and 0 <= value < len(names):
                return names[value]
            if type(value) is int and value >= 0 and not strict:
                return f"Player {value + 1}"
            if strict:
                raise TextError(f"no seat {value!r}")
            return str(value)
        text = self.get(lang, f"{kind}.{value}")
        if text is None or (strict and not self.has(lang, f"{kind}.{value}")):
            if strict:
                raise TextError(f"no {lang} text for {kind}.{value}")
            return str(value)
        return text

    def event(self, ev: Mapping[str, Any], lang: str, names: Sequence[str], strict: bool = False) -> str:
        """One visible event (from :func:`visible_event`) as a line of text."""
        return self.format(lang, "log." + ev["key"], ev["args"], names, strict)


def placeholders(template: str) -> dict[str, str]:
    """The placeholders of a template: name -> kind ('' raw, '|' plural)."""
    out: dict[str, str] = {}
    for m in PLACEHOLDER.finditer(template):
        out[m.group(1)] = m.group(2) or ("|" if m.group(3) is not None else "")
    return out


def flatten(raw: Any) -> dict[str, dict[str, str]]:
    """Read an ``i18n.yaml``: ``{lang: {key: text}}``, where nested sections
    (``{log: {steal: ...}}``) become dotted keys (``log.steal``)."""
    out: dict[str, dict[str, str]] = {lang: {} for lang in LANGS}
    if not isinstance(raw, dict):
        return out

    def walk(node: Any, path: list[str], lang: str | None) -> None:
        if isinstance(node, dict):
            for k, v in node.items():
                k = str(k)
                if lang is None and k in LANGS:
                    walk(v, path, k)
                else:
                    walk(v, path + [k], lang)
        elif lang is not None and path and node is not None and not isinstance(node, list):
            out[lang][".".join(path)] = str(node)
    walk(raw, [], None)
    return out


def seat_names(num_players: int, names: Iterable[str] | None = None) -> list[str]:
    """Explicit seat names, defaulting to "Player 1", "Player 2", ..."""
    given = list(names) if names is not None else []
    return [given[p] if p < len(given) and given[p] else f"Player {p + 1}" for p in range(num_players)]


Renderer = Callable[[Mapping[str, Any], str, Sequence[str]], str]
