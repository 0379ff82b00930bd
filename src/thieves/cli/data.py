"""``thieves data``: tools for owners of a physical box who want its real data.

Many components of these games are faithful stand-ins (``reconstructed:
true``) because their real values are not public. An owner can put the real
ones in a directory and play with ``--data-dir``:

* ``thieves data export SLUG DIR`` writes the game's data files as editable
  templates, each headed by a reference of every field (type, bounds,
  default, meaning);
* ``thieves data check SLUG DIR`` validates them with the game's own rules
  and plays a few seeded games with them;
* ``thieves data diff SLUG DIR`` shows what they change, entry by entry.
"""
from __future__ import annotations

import os
import typing
from importlib import resources
from pathlib import Path
from typing import Any, Iterator

import yaml
from pydantic import BaseModel

from ..core import data as core_data
from ..core.errors import ThievesError
from ..core.registry import GAME_MODULES, load_game

#: files every game has that are texts, not components (checked, never required)
TEXT_FILES = ("i18n.yaml",)


def shipped_files(slug: str) -> list[str]:
    """The names of the game's shipped data files."""
    root = resources.files(_package(slug)).joinpath("data")
    return sorted(p.name for p in root.iterdir() if p.name.endswith((".yaml", ".yml")))


def _package(slug: str) -> str:
    if slug not in GAME_MODULES:
        raise ThievesError(f"unknown game {slug!r}; games are: {', '.join(GAME_MODULES)}")
    return GAME_MODULES[slug]


def shipped_text(slug: str, name: str) -> str:
    return resources.files(_package(slug)).joinpath("data").joinpath(name).read_text(encoding="utf-8")


def models_of(slug: str) -> dict[str, type[BaseModel]]:
    """Which model validates which data file, found by loading the game's
    data once while watching :func:`thieves.core.data.validate`."""
    seen: dict[str, type[BaseModel]] = {}
    original = core_data.validate

    def watch(model: Any, raw: Any, source: str) -> Any:
        seen.setdefault(os.path.basename(source), model)
        return original(model, raw, source)

    game = load_game(slug)
    core_data.validate = watch
    try:
        type(game)().load_data(None)  # a fresh instance: nothing cached
    finally:
        core_data.validate = original
    return seen


# -------------------------------------------------------------- field reference
def _type_name(tp: Any) -> str:
    origin = typing.get_origin(tp)
    if origin is None:
        if isinstance(tp, type):
            return tp.__name__
        return str(tp).replace("typing.", "")
    args = typing.get_args(tp)
    if origin is typing.Literal:
        return "one of " + ", ".join(repr(a) for a in args)
    if origin is typing.Union or str(origin) == "types.UnionType":
        names = [_type_name(a) for a in args if a is not type(None)]
        return " or ".join(names) + (" (may be empty)" if type(None) in args else "")
    name = getattr(origin, "__name__", str(origin))
    return f"{name}[{', '.join(_type_name(a) for a in args)}]"


def _bounds(info: Any) -> str:
    parts = []
    for m in info.metadata:
        for attr, word in (("ge", ">="), ("gt", ">"), ("le", "<="), ("lt", "<"),
                           ("min_length", "at least"), ("max_length", "at most")):
            value = getattr(m, attr, None)
            if value is not None:
                parts.append(f"{word} {value}" + (" items" if "length" in attr else ""))
    return ", ".join(parts)


def _models_in(tp: Any) -> Iterator[type[BaseModel]]:
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        yield tp
    for arg in typing.get_args(tp):
        yield from _models_in(arg)


def field_reference(model: type[BaseModel]) -> list[str]:
    """Lines describing every field of ``model`` and of the models inside it."""
    lines: list[str] = []
    done: set[type] = set()
    todo = [model]
    while todo:
        m = todo.pop(0)
        if m in done:
            continue
        done.add(m)
        doc = (m.__doc__ or "").strip().splitlines()
        lines.append(f"{m.__name__}" + (f": {doc[0]}" if doc and not doc[0].startswith("!!!") else ""))
        extra = m.model_config.get("extra")
        for name, info in m.model_fields.items():
            need = "required" if info.is_required() else f"optional, default {info.get_default(call_default_factory=True)!r}"
            bits = [_type_name(info.annotation), need]
            if _bounds(info):
                bits.append(_bounds(info))
            if info.description:
                bits.append(info.description)
            lines.append(f"  {info.alias or name}: " + "; ".join(bits))
            todo.extend(_models_in(info.annotation))
        if extra == "forbid":
            lines.append("  (no other fields are allowed)")
    return lines


# -------------------------------------------------------------- the commands
def export(slug: str, target: str) -> list[str]:
    """Write every data file of the game into ``target`` as an editable template."""
    out = Path(target)
    if out.exists() and not out.is_dir():
        raise ThievesError(f"{target} exists and is not a directory")
    out.mkdir(parents=True, exist_ok=True)
    models = models_of(slug)
    written = []
    for name in shipped_files(slug):
        head = [f"{load_game(slug).name}: {name}, exported by `thieves data export` as a template.",
                "Edit the values to those of your own box, then check them with",
                f"    thieves data check {slug} {target}",
                f"and play with them:  thieves play {slug} --data-dir {target}",
                "Entries marked `reconstructed: true` are stand-ins: their real values are not public.",
                "Delete any file you do not change: the shipped one is used instead.", ""]
        if name in models:
            head += ["Fields:"] + field_reference(models[name])
        elif name in TEXT_FILES:
            head += ["Texts in English (en), French (fr) and German (de): names, effects, log templates."]
        banner = "".join(f"# {line}\n" if line else "#\n" for line in head)
        target_file = out / name
        if target_file.exists():
            raise ThievesError(f"{target_file} exists already: export into an empty directory")
        target_file.write_text(banner + "\n" + shipped_text(slug, name), encoding="utf-8")
        written.append(str(target_file))
    return written


def check(slug: str, source: str, games: int = 3) -> list[str]:
    """Validate an owner's data directory; returns what was checked.
    Raises :class:`ThievesError` with every problem found."""
    src = Path(source)
    if not src.is_dir():
        raise ThievesError(f"{source} is not a directory")
    known = set(shipped_files(slug))
    given = sorted(p.name for p in src.iterdir() if p.suffix in (".yaml", ".yml"))
    strangers = [n for n in given if n not in known]
    if strangers:
        raise ThievesError(f"{', '.join(strangers)}: not a data file of {slug} "
                           f"(its files are {', '.join(sorted(known))})")
    if not given:
        raise ThievesError(f"{source} holds none of the data files of {slug}")
    game = type(load_game(slug))()  # fresh: no cached data
    game.load_data(str(src))         # raises DataError naming file, entry and field
    from ..testing import random_game
    n = game.min_players + (1 if game.max_players > game.min_players else 0)
    for seed in range(games):
        try:
            random_game(slug, n, seed, {"data_dir": str(src)})
        except ThievesError:
            raise
        except Exception as exc:  # noqa: BLE001 - data that breaks play is the owner's to know
            raise ThievesError(f"the data loads, but a seeded game (seed {seed}, {n} players) failed with it: "
                               f"{type(exc).__name__}: {exc}") from None
    return given


def _index(node: Any) -> dict[str, Any] | None:
    """A list of entries with ids, as a mapping id -> entry."""
    if isinstance(node, list) and node and all(isinstance(x, dict) and "id" in x for x in node):
        return {str(x["id"]): x for x in node}
    return None


def _diff(old: Any, new: Any, path: str, out: list[str]) -> None:
    if old == new:
        return
    oi, ni = _index(old), _index(new)
    if oi is not None and ni is not None:
        for key in oi:
            if key not in ni:
                out.append(f"- {path}[{key}] removed")
        for key in ni:
            if key not in oi:
                out.append(f"+ {path}[{key}] added")
            else:
                _diff(oi[key], ni[key], f"{path}[{key}]", out)
        return
    if isinstance(old, dict) and isinstance(new, dict):
        for key in old:
            if key not in new:
                out.append(f"- {path}.{key} removed (was {_short(old[key])})")
        for key in new:
            sub = f"{path}.{key}" if path else str(key)
            if key not in old:
                out.append(f"+ {sub} = {_short(new[key])}")
            else:
                _diff(old[key], new[key], sub, out)
        return
    out.append(f"~ {path}: {_short(old)} -> {_short(new)}")


def _short(value: Any) -> str:
    text = yaml.safe_dump(value, default_flow_style=True, allow_unicode=True).strip()
    text = text.removesuffix("...").strip()
    return text if len(text) <= 70 else text[:67] + "..."


def diff(slug: str, source: str) -> list[str]:
    """What an owner's data directory changes against the shipped files."""
    src = Path(source)
    if not src.is_dir():
        raise ThievesError(f"{source} is not a directory")
    out: list[str] = []
    for name in shipped_files(slug):
        mine = src / name
        if not mine.exists():
            continue
        try:
            new = core_data.load_yaml(mine.read_text(encoding="utf-8"))
        except yaml.YAMLError as exc:
            raise ThievesError(f"{mine}: not valid YAML: {exc}") from None
        changes: list[str] = []
        _diff(core_data.load_yaml(shipped_text(slug, name)), new, "", changes)
        out.append(f"{name}: " + (f"{len(changes)} change(s)" if changes else "same as shipped"))
        out += ["  " + c for c in changes]
    if not out:
        out.append(f"{source} holds none of the data files of {slug}")
    return out
