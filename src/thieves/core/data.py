"""Loading and validating component data files (cards, boards, tables).

Each game ships its data as YAML files in ``thieves/games/<pkg>/data``.
A user who owns the physical game may pass a ``data_dir`` holding files of
the same names; each file found there replaces the shipped one and goes
through the same validation. Errors name the file, the entry and the field.
"""
from __future__ import annotations

import os
from importlib import resources
from typing import Any, TypeVar

import yaml
from pydantic import BaseModel, ConfigDict, ValidationError

from .errors import DataError

M = TypeVar("M", bound=BaseModel)

#: libyaml's C loader where PyYAML was built with it (4-8x faster), else the pure-Python one
_BASE_LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


#: the most nodes aliases (``*name``) may repeat in one file (shipped files use none;
#: PyYAML's ``safe_dump`` writes a few for values a script shared)
MAX_ALIASED_NODES = 10_000


def _alias_error(node: Any, problem: str) -> yaml.YAMLError:
    return yaml.constructor.ConstructorError(None, None, problem, node.start_mark)


def _node_size(node: Any, sizes: dict[int, int]) -> int:
    """The number of nodes under ``node`` with every alias written out (memoized per node;
    a node that contains itself is refused)."""
    busy: set[int] = set()
    stack = [node]
    while stack:
        top = stack[-1]
        if id(top) in sizes:
            stack.pop()
            continue
        kids: list[Any] = []
        if isinstance(top, yaml.SequenceNode):
            kids = list(top.value)
        elif isinstance(top, yaml.MappingNode):
            kids = [x for pair in top.value for x in pair]
        todo = [k for k in kids if id(k) not in sizes]
        if todo and id(top) not in busy:
            busy.add(id(top))
            for k in todo:
                if id(k) in busy:
                    raise _alias_error(k, "an alias (*name) inside its own anchor is not allowed")
            stack.extend(todo)
            continue
        if todo:
            raise _alias_error(top, "an alias (*name) inside its own anchor is not allowed")
        busy.discard(id(top))
        sizes[id(top)] = 1 + sum(sizes[id(k)] for k in kids)
        stack.pop()
    return sizes[id(node)]


class StrictLoader(_BASE_LOADER):  # type: ignore[misc]
    """The safe loader, refusing what a data file never needs and an attacker uses:

    * aliases (``*name``) that repeat more than :data:`MAX_ALIASED_NODES` nodes in all:
      a few lines of nested aliases ("billion laughs") make a structure of billions
      of nodes that every later walk over the data follows;
    * an alias inside its own anchor (a structure that contains itself);
    * a key given twice in one mapping (YAML would silently keep the last one).
    """

    def __init__(self, stream: Any) -> None:
        super().__init__(stream)
        self.aliased_nodes = 0
        self.node_sizes: dict[int, int] = {}

    def construct_object(self, node: Any, deep: bool = False) -> Any:
        # each node is built once; meeting a built one again means an alias points at it
        if node in self.constructed_objects or node in self.recursive_objects:
            self.aliased_nodes += _node_size(node, self.node_sizes)
            if self.aliased_nodes > MAX_ALIASED_NODES:
                raise _alias_error(node, f"aliases (*name) repeat more than {MAX_ALIASED_NODES} "
                                         "values in this file: write the values out")
        return super().construct_object(node, deep=deep)

    def construct_mapping(self, node: Any, deep: bool = False) -> Any:
        if isinstance(node, yaml.MappingNode):
            seen: dict[str, Any] = {}
            for key_node, _ in node.value:
                if isinstance(key_node, yaml.ScalarNode):
                    if key_node.value in seen:
                        raise yaml.constructor.ConstructorError(
                            "in the mapping", node.start_mark,
                            f"the key {key_node.value!r} is given twice "
                            f"(first on line {seen[key_node.value].line + 1})", key_node.start_mark)
                    seen[key_node.value] = key_node.start_mark
        return super().construct_mapping(node, deep=deep)


#: the loader every data and text file goes through
SAFE_LOADER: Any = StrictLoader


def load_yaml(text: Any) -> Any:
    """Parse YAML text (or an open file) safely, with the fastest loader available;
    aliases and keys given twice are refused (``yaml.YAMLError``)."""
    return yaml.load(text, Loader=SAFE_LOADER)


def read_yaml(package: str, filename: str, data_dir: str | None = None) -> tuple[Any, str]:
    """Return the parsed YAML and the path it came from (the user's copy first)."""
    if data_dir is not None:
        if not os.path.isdir(data_dir):
            raise DataError(f"data directory {data_dir!r} does not exist")
        path = os.path.join(data_dir, filename)
        if os.path.exists(path):
            try:
                with open(path, encoding="utf-8") as fh:
                    return load_yaml(fh), path
            except yaml.YAMLError as exc:
                raise DataError(f"{path}: not valid YAML: {exc}") from None
    ref = resources.files(package).joinpath("data").joinpath(filename)
    try:
        text = ref.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise DataError(f"{package}: data file {filename!r} is missing") from None
    try:
        return load_yaml(text), f"{package.replace('.', '/')}/data/{filename}"
    except yaml.YAMLError as exc:  # pragma: no cover - shipped files are tested
        raise DataError(f"{filename}: not valid YAML: {exc}") from None


def _entry_label(raw: Any, loc: tuple[Any, ...]) -> str:
    """Describe the entry a pydantic error location points at, by id or name."""
    parts: list[str] = []
    node = raw
    for key in loc:
        try:
            node = node[key]
        except (KeyError, IndexError, TypeError):
            parts.append(str(key))
            node = None
            continue
        if isinstance(key, int) and isinstance(node, dict):
            ident = node.get("id", node.get("name"))
            parts.append(f"[{key}] ({ident})" if ident is not None else f"[{key}]")
        else:
            parts.append(str(key))
    return ".".join(parts).replace(".[", "[")


class StrictModel(BaseModel):
    """A component model that refuses fields it does not know (a misspelt
    field in a user's file is an error, never silently ignored)."""

    model_config = ConfigDict(extra="forbid")


#: numbers in component data beyond this are refused as absurd (a typo, or hostile)
MAX_NUMBER = 10 ** 6


def check_raw(raw: Any, source: str) -> None:
    """Checks every data file gets before its model: no absurd numbers, ids unique
    within each list and keys unique within each mapping once read as text (``2`` and
    ``"2"`` name the same player count); the error names the file and the entry."""
    stack: list[tuple[Any, str]] = [(raw, "")]
    while stack:
        node, at = stack.pop()
        if isinstance(node, bool):
            continue
        if isinstance(node, (int, float)):
            if not abs(node) <= MAX_NUMBER:
                raise DataError(f"{source}: entry {at or '(top level)'}: the number {node} is out of range")
        elif isinstance(node, dict):
            keys: dict[str, Any] = {}
            for k in node:
                if str(k) in keys:
                    raise DataError(f"{source}: entry {at or '(top level)'}: the key {str(k)!r} is given twice "
                                    f"(as {keys[str(k)]!r} and {k!r})")
                keys[str(k)] = k
            stack.extend((v, f"{at}.{k}" if at else str(k)) for k, v in node.items())
        elif isinstance(node, list):
            seen: dict[Any, int] = {}
            for i, item in enumerate(node):
                ident = item.get("id") if isinstance(item, dict) else None
                if isinstance(ident, (str, int)) and not isinstance(ident, bool):
                    if ident in seen:
                        raise DataError(f"{source}: entry {at}[{i}] ({ident}): duplicate id {ident!r} "
                                        f"(also at [{seen[ident]}])")
                    seen[ident] = i
                stack.append((item, f"{at}[{i}]"))


def refuse_duplicates(values: Any, what: str) -> None:
    """For a model validator: raise ValueError naming the first value given twice
    (ids that are not an ``id`` field: a section's number and face, a card's kind)."""
    seen: set[Any] = set()
    for v in values:
        if v in seen:
            raise ValueError(f"duplicate {what} {v!r}")
        seen.add(v)


def validate(model: type[M], raw: Any, source: str) -> M:
    """Validate ``raw`` against ``model``; raise :class:`DataError` naming the bad field."""
    check_raw(raw, source)
    if isinstance(raw, dict):
        for name, value in raw.items():
            spec = model.model_fields.get(name)
            if value == [] and spec is not None and spec.is_required():
                raise DataError(f"{source}: entry {name}: the list must not be empty")
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        lines = []
        for err in exc.errors()[:10]:
            where = _entry_label(raw, tuple(err["loc"])) or "(top level)"
            lines.append(f"{source}: entry {where}: {err['msg']}")
        raise DataError("\n".join(lines)) from None


def load_model(package: str, filename: str, model: type[M], data_dir: str | None = None) -> M:
    """Read one data file and validate it against ``model``."""
    raw, source = read_yaml(package, filename, data_dir)
    return validate(model, raw, source)
