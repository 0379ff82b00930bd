"""The import circles among the modules of a package.

    python tools/import_cycles.py [src/thieves] [--deferred] [--check]

Reads every module under the package folder with :mod:`ast` (nothing is
imported) and draws the graph of its imports of its own modules, in three
kinds:

* runtime: run when the module is imported (the module's body, its classes,
  ``try``/``if`` blocks at module level);
* typing: under ``if TYPE_CHECKING:``, read by the type checker only;
* deferred: inside a function, run when it is called (left out unless
  ``--deferred``).

``from pkg import name`` counts as an import of ``pkg.name`` where that is a
module, else of ``pkg``. A package's ``__init__`` that runs on the way (the
parents of the module named) is not counted as an edge: every module would
then sit in a circle with the package that re-exports it.

It prints every strongly connected component of the runtime graph (modules
that import one another, directly or not), then those that appear only once
the typing edges are added (circles the type checker sees but Python does
not run), each with its edges and one shortest circle through it.

A runtime circle of module imports (``from . import cards`` both ways: rule
modules that call each other, resolved when a function runs) imports in
any order. One in which a module takes a *name* out of another while being
imported (``from .cards import play``) breaks as soon as the other one is
imported first; ``--check`` exits with 1 when there is such a circle.
"""
from __future__ import annotations

import argparse
import ast
import sys
from collections import deque
from pathlib import Path

RUNTIME, TYPING, DEFERRED = "runtime", "typing", "deferred"
Edges = dict[str, dict[str, set[str]]]  # module -> imported module -> kinds


def module_names(root: Path) -> dict[str, Path]:
    """Every module under the package folder ``root``, by dotted name."""
    base = root.name
    out = {}
    for path in sorted(root.rglob("*.py")):
        parts = [base, *path.relative_to(root).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imports(tree: ast.Module) -> list[tuple[ast.Import | ast.ImportFrom, str]]:
    """Every import statement of a module with its kind."""
    found: list[tuple[ast.Import | ast.ImportFrom, str]] = []

    def walk(node: ast.AST, kind: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                found.append((child, kind))
            elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                walk(child, DEFERRED)
            elif isinstance(child, ast.If) and _is_type_checking(child.test) and kind == RUNTIME:
                for stmt in child.body:
                    walk(ast.Module(body=[stmt], type_ignores=[]), TYPING)
                for stmt in child.orelse:
                    walk(ast.Module(body=[stmt], type_ignores=[]), RUNTIME)
            else:
                walk(child, kind)
    walk(tree, RUNTIME)
    return found


def _targets(node: ast.Import | ast.ImportFrom, module: str, is_package: bool, known: set[str]) -> list[str]:
    """The package's own modules an import statement names."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names if a.name in known]
    if node.level:
        here = module.split(".") if is_package else module.split(".")[:-1]
        up = here[:len(here) - (node.level - 1)] if node.level > 1 else here
        origin = ".".join(up + ([node.module] if node.module else []))
    else:
        origin = node.module or ""
    out = []
    for alias in node.names:
        name = f"{origin}.{alias.name}"
        if name in known:
            out.append(name)
        elif origin in known:
            out.append(origin)
    return out


def import_graph(root: Path) -> Edges:
    """module -> the package's modules it imports -> the kinds of those imports."""
    modules = module_names(root)
    known = set(modules)
    graph: Edges = {m: {} for m in modules}
    for module, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node, kind in _imports(tree):
            for target in _targets(node, module, path.name == "__init__.py", known):
                if target != module:
                    graph[module].setdefault(target, set()).add(kind)
    return graph


def binding_edges(root: Path) -> set[tuple[str, str]]:
    """(module, imported module) where the module's runtime import takes a name
    that is not a module out of the other (``from .a import x``)."""
    modules = module_names(root)
    known = set(modules)
    out: set[tuple[str, str]] = set()
    for module, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node, kind in _imports(tree):
            if kind != RUNTIME or not isinstance(node, ast.ImportFrom):
                continue
            for alias in node.names:   # each name alone: a module, or a name out of one
                single = ast.ImportFrom(module=node.module, names=[alias], level=node.level)
                for target in _targets(single, module, path.name == "__init__.py", known):
                    if target != module and not target.endswith("." + alias.name):
                        out.add((module, target))
    return out


def components(graph: Edges, kinds: set[str]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's, without recursion)."""
    succ = {m: sorted(t for t, k in out.items() if k & kinds) for m, out in graph.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(succ):
        if start in index:
            continue
        work = [(start, 0)]
        while work:
            node, i = work.pop()
            if i == 0:
                index[node] = low[node] = len(index)
                stack.append(node)
                on_stack.add(node)
            if i < len(succ[node]):
                work.append((node, i + 1))
                nxt = succ[node][i]
                if nxt not in index:
                    work.append((nxt, 0))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            if low[node] == index[node]:
                comp = []
                while True:
                    m = stack.pop()
                    on_stack.discard(m)
                    comp.append(m)
                    if m == node:
                        break
                if len(comp) > 1:
                    found.append(sorted(comp))
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
    return sorted(found)


def shortest_cycle(graph: Edges, comp: list[str], kinds: set[str]) -> list[str]:
    """One shortest circle inside a component (breadth first from each module)."""
    inside = set(comp)
    best: list[str] = []
    for start in comp:
        prev: dict[str, str] = {}
        queue = deque([start])
        while queue:
            node = queue.popleft()
            for nxt in sorted(t for t, k in graph[node].items() if k & kinds and t in inside):
                if nxt == start:
                    path = [node]
                    while path[-1] != start:
                        path.append(prev[path[-1]])
                    cycle = [start, *reversed(path[:-1]), start]
                    if not best or len(cycle) < len(best):
                        best = cycle
                    queue.clear()
                    break
                if nxt not in prev:
                    prev[nxt] = node
                    queue.append(nxt)
    return best


def report(graph: Edges, comps: list[list[str]], kinds: set[str], title: str) -> None:
    print(f"{title}: {len(comps)}")
    for n, comp in enumerate(comps, 1):
        print(f"\n  [{n}] {len(comp)} modules: {' '.join(comp)}")
        print("      circle: " + " -> ".join(shortest_cycle(graph, comp, kinds)))
        inside = set(comp)
        for m in comp:
            for t, k in sorted(graph[m].items()):
                if t in inside and k & kinds:
                    print(f"      {m} -> {t} ({', '.join(sorted(k & kinds))})")
    print()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("root", nargs="?", default="src/thieves", help="the package folder")
    parser.add_argument("--deferred", action="store_true", help="count imports inside functions too")
    parser.add_argument("--check", action="store_true",
                        help="exit with 1 when a runtime circle takes a name out of a module being imported")
    args = parser.parse_args(argv)
    graph = import_graph(Path(args.root))
    runtime = {RUNTIME, DEFERRED} if args.deferred else {RUNTIME}
    run_comps = components(graph, runtime)
    report(graph, run_comps, runtime, "runtime circles" + (" (deferred imports counted)" if args.deferred else ""))
    seen = {frozenset(c) for c in run_comps}
    typing_only = [c for c in components(graph, runtime | {TYPING}) if frozenset(c) not in seen]
    report(graph, typing_only, runtime | {TYPING}, "circles closed only by TYPE_CHECKING imports")
    binding = binding_edges(Path(args.root))
    unsafe = [c for c in run_comps if any((m, t) in binding for m in c for t in c)]
    print(f"runtime circles that take a name out of a module being imported: {len(unsafe)}")
    for comp in unsafe:
        print("  " + " ".join(comp))
    return 1 if args.check and unsafe else 0


if __name__ == "__main__":
    sys.exit(main())
