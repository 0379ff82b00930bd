"""Every relative link in the README and the docs leads to a file that exists
(pages move: measurement histories go to docs/benchmarks/)."""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LINK = re.compile(r"\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")


def relative_links(page: Path) -> list[str]:
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
    return [t for t in LINK.findall(text) if not re.match(r"[a-z]+:", t) and not t.startswith("#")]


def test_every_relative_link_in_the_docs_resolves() -> None:
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    broken = [f"{page.relative_to(ROOT)}: {target}" for page in pages for target in relative_links(page)
              if not (page.parent / target.split("#")[0]).exists()]
    assert sum(len(relative_links(p)) for p in pages) > 10, "no links found: is the pattern right?"
    assert not broken, "links that lead nowhere:\n" + "\n".join(broken)
