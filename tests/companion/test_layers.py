"""The companion's modules import one way: no cycles, even through local imports."""
from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import companion

PKG = Path(companion.__file__).parent


def _graph() -> dict[str, set[str]]:
    """module -> companion modules it imports anywhere in its source (top level or local)."""
    names = {p.stem for p in PKG.glob("*.py")}
    graph = {}
    for path in PKG.glob("*.py"):
        deps = set()
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.ImportFrom):
                if node.level == 1 and node.module:
                    deps.add(node.module.split(".")[0])
                elif node.level == 1:
                    deps.update(a.name for a in node.names)
                elif node.module and node.module.startswith("companion."):
                    deps.add(node.module.split(".")[1])
            elif isinstance(node, ast.Import):
                deps.update(a.name.split(".")[1] for a in node.names if a.name.startswith("companion."))
        graph[path.stem] = deps & names - {path.stem}
    return graph


def _cycle(graph):
    state, stack = {}, []

    def visit(m):
        state[m] = "open"
        stack.append(m)
        for d in sorted(graph[m]):
            if state.get(d) == "open":
                return stack[stack.index(d):] + [d]
            if d not in state:
                found = visit(d)
                if found:
                    return found
        state[m] = "done"
        stack.pop()
        return None

    for m in sorted(graph):
        if m not in state:
            found = visit(m)
            if found:
                return found
    return None


def test_the_import_graph_has_no_cycle():
    graph = _graph()
    assert {"explain", "position", "notation", "powers"} <= set(graph)
    assert _cycle(graph) is None, " -> ".join(_cycle(graph))


def test_the_layers_read_one_way():
    graph = _graph()
    assert "position" not in graph["explain"] and "notation" not in graph["explain"]
    assert "notation" not in graph["position"]
    assert "position" in graph["notation"]


def test_the_cycle_finder_finds_a_cycle():
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None


def test_every_module_imports_first_in_a_fresh_interpreter():
    modules = sorted(p.stem for p in PKG.glob("*.py") if p.stem != "__init__")
    code = ("import importlib, subprocess, sys\n"
            "for m in sys.argv[1:]:\n"
            "    r = subprocess.run([sys.executable, '-c', f'import companion.{m}'], capture_output=True, text=True)\n"
            "    if r.returncode: print(m, r.stderr.strip().splitlines()[-1])\n")
    out = subprocess.run([sys.executable, "-c", code, *modules], capture_output=True, text=True,
                         timeout=120, cwd=PKG.parent)
    assert out.returncode == 0 and out.stdout == "", out.stdout + out.stderr
