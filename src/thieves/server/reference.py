"""What a table offers to read: the rules summary as HTML and the glossary.

The rules summary is each game's text ``rules`` (Markdown: ``#`` headings,
numbered and bulleted lists, paragraphs), rendered here with markdown-it-py
with raw HTML switched off (it is shown escaped), its headings moved down
under the dialog's own title. The glossary is each game's public component
list (``thieves/games/<pkg>/glossary.py``: ``glossary(presentation)``), the
same for every viewer: nothing in it depends on a table.
"""
from __future__ import annotations

import functools
import importlib
import logging
from typing import Any

from markdown_it import MarkdownIt

from ..core.registry import GAME_MODULES, load_game
from .i18n import GLOSSARY_KINDS, LANGS

log = logging.getLogger("thieves.server")

#: headings of the summary start at <h4> (the dialog's title is an <h3>)
HEADING_SHIFT = 3


def _markdown() -> MarkdownIt:
    # commonmark without raw HTML (escaped as text) and without images
    md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False})
    md.disable("image")
    return md


_MD = _markdown()


def render_markdown(text: str) -> str:
    """Markdown as safe HTML: no raw HTML, headings from <h4> down."""
    tokens = _MD.parse(text)
    for tok in tokens:
        if tok.type in ("heading_open", "heading_close"):
            level = min(6, int(tok.tag[1:]) + HEADING_SHIFT)
            tok.tag = f"h{level}"
    return str(_MD.renderer.render(tokens, _MD.options, {}))


@functools.lru_cache(maxsize=64)
def rules_html(slug: str, lang: str) -> str | None:
    """The game's rules summary in ``lang`` as HTML (None when it has none)."""
    pres = load_game(slug).presentation(None, None, lang)
    text = pres.rules() if pres is not None else None
    if not text:
        return None
    return render_markdown(text)


def _entry(raw: Any, kinds: dict[str, str]) -> dict[str, Any]:
    """One glossary entry, checked: ``id``, ``kind``, ``name`` and ``text`` strings, ``facts`` strings."""
    if not isinstance(raw, dict):
        raise ValueError(f"a glossary entry must be a mapping, not {raw!r}")
    out = {k: raw.get(k) for k in ("id", "kind", "name", "text")}
    for k, v in out.items():
        if not isinstance(v, str) or (k != "text" and not v):
            raise ValueError(f"glossary entry {raw!r}: {k} must be a string")
    facts = raw.get("facts") or []
    if not isinstance(facts, list) or not all(isinstance(f, str) for f in facts):
        raise ValueError(f"glossary entry {raw!r}: facts must be a list of strings")
    out["facts"] = [f for f in facts if f]
    kind = str(out["kind"])
    out["kind_label"] = kinds.get(kind, kind)
    return out


@functools.lru_cache(maxsize=64)
def _glossary(slug: str, lang: str) -> tuple[dict[str, Any], ...]:
    module = GAME_MODULES.get(slug)
    if module is None:
        return ()
    try:
        mod = importlib.import_module(module + ".glossary")
    except ModuleNotFoundError:
        return ()  # a game without a glossary yet
    pres = load_game(slug).presentation(None, None, lang)
    if pres is None:
        return ()
    kinds = GLOSSARY_KINDS.get(lang, GLOSSARY_KINDS["en"])
    try:
        entries = [_entry(e, kinds) for e in mod.glossary(pres)]
        seen: set[str] = set()
        for e in entries:
            if e["id"] in seen:
                raise ValueError(f"{slug}: the glossary names {e['id']!r} twice")
            seen.add(e["id"])
    except Exception:  # noqa: BLE001 - a game's bug: the table goes on without a glossary
        log.exception("the glossary of %s could not be built", slug)
        return ()
    return tuple(entries)


def glossary(slug: str, lang: str) -> list[dict[str, Any]]:
    """The game's public component list in ``lang`` (English for an unknown language):
    ``[{"id", "kind", "kind_label", "name", "text", "facts"}]`` in the game's order."""
    return [dict(e) for e in _glossary(slug, lang if lang in LANGS else "en")]
