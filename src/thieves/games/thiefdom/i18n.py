"""Names and terms in en/fr/de (data/i18n.yaml)."""
from __future__ import annotations

from functools import lru_cache

from pydantic import RootModel

from thieves.core.data import load_model

from .components import PKG


class Terms(RootModel[dict[str, dict[str, str]]]):
    pass


@lru_cache(maxsize=1)
def terms() -> dict[str, dict[str, str]]:
    return load_model(PKG, "i18n.yaml", Terms).root


def term(key: str, lang: str = "en") -> str:
    t = terms()
    return t.get(lang, t["en"]).get(key, t["en"].get(key, key))
