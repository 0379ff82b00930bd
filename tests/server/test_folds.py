"""Foldable parts of a drawing (Svg.fold): every game's legend folds, its
header in the viewer's language, and Age of Thieves' starts folded on a phone."""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from thieves.core.rng import Rng
from thieves.core.svg import Svg
from thieves.server.storage import Storage
from thieves.server.tables import TableManager
from thieves.server.views import build_view
from thieves.testing import random_step

NS = "{http://www.w3.org/2000/svg}"


def _folds(svg: str) -> list[ET.Element]:
    return [g for g in ET.fromstring(svg).iter(NS + "g") if "fold" in (g.get("class") or "").split()]


def test_a_fold_is_a_header_and_a_body():
    s = Svg(200, 100)
    y = s.fold("notes", "Notes & more", 10, 20, folded=True)
    s.text(10, y + 14, "inside")
    s.end_fold()
    s.text(10, 90, "after")
    (fold,) = _folds(s.done())
    head, body = list(fold)
    assert fold.get("data-fold") == "notes" and fold.get("data-fold-default") == "1"
    assert head.get("class") == "fold-head" and head.get("role") == "button" and head.get("aria-expanded") == "false"
    assert "".join(head.itertext()) == "▸Notes & more" and y > 20
    assert body.get("class") == "fold-body" and "".join(body.itertext()) == "inside"   # "after" is outside


@pytest.mark.parametrize("slug", ["thiefs-market", "thieves-den", "cadwallon", "age-of-thieves", "thiefdom"])
def test_every_games_legend_folds_with_its_title_in_three_languages(slug, tmp_path):
    table, _ = TableManager(Storage(f"sqlite:///{tmp_path / 'f.db'}")).create(slug, 3, [{"kind": "human"}] * 3, seed=2)
    rng = Rng.from_seed(2)
    for _ in range(6):
        state = table.state.clone()
        random_step(state, rng)
        table.state = state
        table.version += 1
    titles = set()
    for layout in ("wide", "narrow"):
        for lang in ("en", "fr", "de"):
            svg = build_view(table, table.state, 0, lang, layout=layout)["svg"]
            legends = [f for f in _folds(svg) if f.get("data-fold") == "legend"]
            assert len(legends) == 1, (slug, layout, lang)
            head = legends[0].find(NS + "g")
            title = re.sub(r"^[▸▾]", "", "".join(head.itertext())).strip()
            assert title and legends[0].find(f"{NS}g[@class='fold-body']") is not None
            titles.add((layout, title))
            phone_folded = slug == "age-of-thieves" and layout == "narrow"
            assert legends[0].get("data-fold-default") == ("1" if phone_folded else "0")
    assert len({t for _, t in titles}) == 3, titles   # no language falls back to another
