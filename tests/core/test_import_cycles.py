"""``tools/import_cycles.py``: the circles among a package's imports, by kind."""
from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("import_cycles", ROOT / "tools" / "import_cycles.py")
assert _spec is not None and _spec.loader is not None
cycles = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(cycles)

RUNTIME, TYPING, DEFERRED = cycles.RUNTIME, cycles.TYPING, cycles.DEFERRED


def _package(tmp_path: Path, files: dict[str, str]) -> Path:
    root = tmp_path / "pkg"
    for name, text in {"__init__.py": "", **files}.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def test_imports_are_told_apart_by_when_they_run(tmp_path):
    root = _package(tmp_path, {
        "a.py": "from . import b\nfrom .sub.c import thing\n",
        "b.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .a import A\n"
                "else:\n    import pkg.d\n",
        "d.py": "def f():\n    from pkg import a\n    return a\n",
        "sub/__init__.py": "",
        "sub/c.py": "from .. import b\nfrom ..a import name_not_a_module\n",
    })
    graph = cycles.import_graph(root)
    assert graph["pkg.a"] == {"pkg.b": {RUNTIME}, "pkg.sub.c": {RUNTIME}}
    assert graph["pkg.b"] == {"pkg.a": {TYPING}, "pkg.d": {RUNTIME}}
    assert graph["pkg.d"] == {"pkg.a": {DEFERRED}}
    assert graph["pkg.sub.c"] == {"pkg.b": {RUNTIME}, "pkg.a": {RUNTIME}}
    # a -> sub.c -> a runs on import; b -> a only for the type checker; d -> a when called
    assert cycles.components(graph, {RUNTIME}) == [["pkg.a", "pkg.sub.c"]]
    assert cycles.components(graph, {RUNTIME, TYPING}) == [["pkg.a", "pkg.b", "pkg.sub.c"]]
    assert cycles.components(graph, {RUNTIME, DEFERRED}) == [["pkg.a", "pkg.b", "pkg.d", "pkg.sub.c"]]
    assert cycles.shortest_cycle(graph, ["pkg.a", "pkg.sub.c"], {RUNTIME}) == ["pkg.a", "pkg.sub.c", "pkg.a"]


def test_check_fails_on_a_runtime_circle_that_binds_a_name_only(tmp_path, capsys):
    typing_only = _package(tmp_path / "t", {
        "a.py": "from . import b\n",
        "b.py": "import typing\nif typing.TYPE_CHECKING:\n    from . import a\n",
    })
    assert cycles.main([str(typing_only), "--check"]) == 0
    assert "pkg.a -> pkg.b -> pkg.a" in capsys.readouterr().out
    runtime = _package(tmp_path / "r", {"a.py": "from . import b\n", "b.py": "from .a import x\n"})
    assert cycles.main([str(runtime), "--check"]) == 1
    # modules that call each other through module objects import in any order
    modules = _package(tmp_path / "m", {"a.py": "from . import b\n", "b.py": "from . import a\n"})
    assert cycles.main([str(modules), "--check"]) == 0
    assert "runtime circles: 1" in capsys.readouterr().out


def test_the_project_imports_no_module_back_when_it_is_imported():
    assert cycles.main([str(ROOT / "src" / "thieves"), "--check"]) == 0
