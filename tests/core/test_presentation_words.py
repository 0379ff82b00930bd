"""Presentation.t keeps filled templates, list arguments included: a kept text
equals a fresh one, and values that print differently never share a key."""
from __future__ import annotations

from thieves.core.presentation import Presentation
from thieves.core.svg import clear_memos
from thieves.core.texts import Texts


def _pres() -> Presentation:
    pres = Presentation.__new__(Presentation)
    pres.texts = Texts({"en": {"raw": "got {x}", "gems": "pay {x:gem}", "gem.red": "a ruby",
                               "gem.red.many": "# rubies", "gem.blue": "a sapphire"}})
    pres.lang, pres.names = "en", []
    return pres


def test_list_arguments_kept_equal_fresh() -> None:
    pres = _pres()
    cases = [("raw", [True]), ("raw", [1]), ("raw", (1,)), ("raw", [1, "1"]), ("raw", ["1", 1]),
             ("gems", ["red", "red", "blue"]), ("gems", ("red", "blue")), ("gems", [])]
    clear_memos()
    fresh = [pres.texts.format("en", key, {"x": value}, []) for key, value in cases]
    for _ in range(2):  # the second round reads kept texts
        assert [pres.t(key, x=value) for key, value in cases] == fresh
    assert fresh[:3] == ["got [True]", "got [1]", "got (1,)"]
    assert fresh[5] == "pay 2 rubies and a sapphire"


def test_a_changed_list_is_formatted_anew() -> None:
    pres = _pres()
    gems = ["red"]
    assert pres.t("gems", x=gems) == "pay a ruby"
    gems.append("blue")
    assert pres.t("gems", x=gems) == "pay a ruby and a sapphire"
