"""The companion's modules import one way: no cycles, even through local imports."""
from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import companion

PKG = Path(companion.__file__).parent


def _module_name(path: Path) -> str:
    """companion/families/pegs/position.py -> 'families.pegs.position' (a package: its folder)."""
    parts = list(path.relative_to(PKG).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> list[Path]:
    """Every module of the package, subfolders included (rglob: families/... too)."""
    return sorted(p for p in PKG.rglob("*.py") if "__pycache__" not in p.parts)


def _resolve(name: str, names: set[str]) -> str | None:
    """The longest known module that `name` (dotted, relative to companion) is or lies in."""
    parts = name.split(".")
    while parts:
        candidate = ".".join(parts)
        if candidate in names:
            return candidate
        parts.pop()
    return None


def _is_type_checking(node) -> bool:
    return isinstance(node, ast.If) and (
        (isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING")
        or (isinstance(node.test, ast.Attribute) and node.test.attr == "TYPE_CHECKING"))


def _graph() -> dict[str, set[str]]:
    """module -> companion modules it imports anywhere in its source (top level or local).

    Names are dotted paths below companion/ ('game', 'families.pegs.position'); the package
    itself is ''."""
    names = {_module_name(p) for p in _modules()}
    graph = {}
    for path in _modules():
        me = _module_name(path)
        package = me if path.name == "__init__.py" else me.rpartition(".")[0]
        deps = set()
        tree = ast.parse(path.read_text(), str(path))
        typing_only = {id(n) for block in ast.walk(tree) if _is_type_checking(block)
                       for stmt in block.body for n in ast.walk(stmt)}
        for node in ast.walk(tree):
            if id(node) in typing_only:
                continue  # `if TYPE_CHECKING:` imports are for mypy only, never run
            targets = []
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".") if package else []
                    base = base[:len(base) - (node.level - 1)] if node.level > 1 else base
                    stem = ".".join(base + ([node.module] if node.module else []))
                    targets = [f"{stem}.{a.name}" if stem else a.name for a in node.names]
                    targets.append(stem)
                elif node.module and (node.module == "companion" or node.module.startswith("companion.")):
                    stem = node.module[len("companion."):] if node.module != "companion" else ""
                    targets = [f"{stem}.{a.name}" if stem else a.name for a in node.names] + [stem]
            elif isinstance(node, ast.Import):
                targets = [a.name[len("companion."):] for a in node.names if a.name.startswith("companion.")]
            for t in targets:
                found = _resolve(t, names) if t else ""
                if found is not None:
                    deps.add(found)
        graph[me] = deps - {me}
    # a package's __init__ running before its modules is not a cycle through them
    return {m: {d for d in deps if not (d and m.startswith(d + ".")) and d != ""}
            for m, deps in graph.items()}


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
    assert {"explain", "families.pegs.position", "families.tock.position", "notation", "powers",
            "state", "families"} <= set(graph)
    assert _cycle(graph) is None, " -> ".join(_cycle(graph))


def test_the_layers_read_one_way():
    graph = _graph()
    pegs, tock = "families.pegs.position", "families.tock.position"
    assert pegs not in graph["explain"] and "notation" not in graph["explain"]
    for gen in (pegs, tock):
        assert "notation" not in graph[gen] and "game" not in graph[gen]
        assert "state" in graph[gen]  # both generators stand on the shared peg state
    assert pegs not in graph[tock] and tock not in graph[pegs]  # siblings, not parent and child
    assert "families" in graph["notation"]  # notation asks the registry for the position class
    # the registry sits low: it names the families' upper parts, it doesn't import them
    for low in ("families", "families.base", "families.pegs", "families.tock"):
        assert not graph[low] & {"game", "notation", "strong", "hints", pegs, tock}, low


def test_the_graph_walks_subfolders(tmp_path):
    """Modules in subfolders are in the graph, so a family's modules are checked too."""
    graph = _graph()
    nested = [m for m in graph if "." in m]
    assert nested, "no module below a subfolder: rglob is not walking companion/families/"
    assert all(isinstance(d, str) for deps in graph.values() for d in deps)


def test_the_cycle_finder_finds_a_cycle():
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None


def test_every_module_imports_first_in_a_fresh_interpreter():
    modules = [m for m in (_module_name(p) for p in _modules()) if m]
    code = ("import importlib, subprocess, sys\n"
            "for m in sys.argv[1:]:\n"
            "    r = subprocess.run([sys.executable, '-c', f'import companion.{m}'], capture_output=True, text=True)\n"
            "    if r.returncode: print(m, r.stderr.strip().splitlines()[-1])\n")
    out = subprocess.run([sys.executable, "-c", code, *modules], capture_output=True, text=True,
                         timeout=120, cwd=PKG.parent)
    assert out.returncode == 0 and out.stdout == "", out.stdout + out.stderr
