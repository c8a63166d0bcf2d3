"""The import layers, read from the source with `ast`: each layer knows only the layers below it.

Every import counts, wherever it is written: at the top, inside a function (a lazy import) or
under `if TYPE_CHECKING:`.  A module is `bgdoor.x.y`; `from bgdoor.x import y` names the
module `bgdoor.x.y` when that file exists, else the package `bgdoor.x`.
"""

from __future__ import annotations

import ast
import inspect
from collections.abc import Iterator
from pathlib import Path

import pytest

from bgdoor.service import Service

SRC = Path(__file__).resolve().parent.parent / "src"

# (layer, layers it must not import, why)
FORBIDDEN = [
    ("rules", {"bot", "cli", "config", "records", "service", "store", "term", "transport", "ui"}, "the pure engine"),
    ("term", {"rules", "service", "store", "ui"}, "knows nothing of backgammon"),
    ("store", {"records", "service", "term", "transport", "ui"}, "storage knows no screens or lines"),
    ("service", {"records", "term", "transport", "ui"}, "the service knows no screens or lines"),
]


def module_names(src: Path) -> dict[str, Path]:
    """Every module under src, by its dotted name (a package by its own name)."""
    found = {}
    for path in sorted(src.rglob("*.py")):
        parts = list(path.relative_to(src).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def imports_of(name: str, path: Path, modules: dict[str, Path]) -> Iterator[tuple[str, int]]:
    """(module imported, line) for each import in the file, at any depth."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join(anchor + ([base] if base else []))
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                yield (sub if sub in modules else base), node.lineno


def graph(src: Path) -> dict[str, dict[str, int]]:
    """module -> {bgdoor module it imports: first line}."""
    modules = module_names(src)
    edges: dict[str, dict[str, int]] = {}
    for name, path in modules.items():
        out = edges.setdefault(name, {})
        for target, line in imports_of(name, path, modules):
            if target == "bgdoor" or target.startswith("bgdoor."):
                out.setdefault(target, line)
    return edges


def layer_of(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def layer_violations(edges: dict[str, dict[str, int]]) -> list[str]:
    found = []
    for layer, banned, why in FORBIDDEN:
        for module, targets in sorted(edges.items()):
            if layer_of(module) != layer:
                continue
            for target, line in sorted(targets.items()):
                if layer_of(target) in banned:
                    found.append(f"{module} (line {line}) imports {target}: {layer}/ {why}")
    return found


def cycles(edges: dict[str, dict[str, int]]) -> list[list[str]]:
    """The strongly connected groups of more than one module, or a module importing itself (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in edges.get(v, {}):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1 or v in edges.get(v, {}):
                found.append(sorted(group))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def describe(group: list[str], edges: dict[str, dict[str, int]]) -> str:
    members = set(group)
    arrows = [
        f"{a} -> {b} (line {line})" for a in group for b, line in sorted(edges.get(a, {}).items()) if b in members
    ]
    return "; ".join(arrows)


# ---------------------------------------------------------------- the checks on bgdoor


def test_the_checker_reads_the_real_tree() -> None:
    edges = graph(SRC)
    assert "bgdoor.rules.position" in edges and "bgdoor.ui.board" in edges
    assert "bgdoor.rules.position" in edges["bgdoor.rules.moves"]  # it sees real imports


def test_each_layer_imports_only_what_is_below_it() -> None:
    assert layer_violations(graph(SRC)) == []


def test_no_two_modules_import_each_other() -> None:
    edges = graph(SRC)
    assert [describe(group, edges) for group in cycles(edges)] == []


def test_no_two_layers_import_each_other() -> None:
    """Layer by layer (rules, store, service, term, records, ui, ...), the arrows run one way."""
    layers: dict[str, dict[str, int]] = {}
    for module, targets in graph(SRC).items():
        for target in targets:
            if layer_of(target) != layer_of(module):
                layers.setdefault(layer_of(module), {})[layer_of(target)] = 0
    assert cycles(layers) == []


# ---------------------------------------------------------------- the checker itself


def _tree(tmp_path: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return tmp_path


def test_a_lazy_import_cycle_is_caught(tmp_path: Path) -> None:
    src = _tree(
        tmp_path,
        {
            "bgdoor/__init__.py": "",
            "bgdoor/ui/__init__.py": "",
            "bgdoor/ui/game.py": "import typing\nif typing.TYPE_CHECKING:\n    from bgdoor.ui.session import S\n",
            "bgdoor/ui/session.py": "def run():\n    from bgdoor.ui.game import G\n",
            "bgdoor/ui/board.py": "from . import game\n",
        },
    )
    edges = graph(src)
    assert edges["bgdoor.ui.board"] == {"bgdoor.ui.game": 1}
    assert cycles(edges) == [["bgdoor.ui.game", "bgdoor.ui.session"]]


def test_a_layer_breach_is_caught_wherever_it_is_written(tmp_path: Path) -> None:
    src = _tree(
        tmp_path,
        {
            "bgdoor/__init__.py": "",
            "bgdoor/rules/__init__.py": "",
            "bgdoor/rules/game.py": "def f():\n    import bgdoor.store.db\n",
            "bgdoor/store/__init__.py": "",
            "bgdoor/store/db.py": "",
            "bgdoor/term/__init__.py": "",
            "bgdoor/term/console.py": "from bgdoor.rules import game\n",
            "bgdoor/service/__init__.py": "",
            "bgdoor/service/core.py": "from bgdoor.transport.telnet import X\n",
            "bgdoor/transport/telnet.py": "",
        },
    )
    found = layer_violations(graph(src))
    assert [line.split(" imports ")[0] for line in found] == [
        "bgdoor.rules.game (line 2)",
        "bgdoor.term.console (line 1)",
        "bgdoor.service.core (line 1)",
    ]


@pytest.mark.parametrize("text", ["import bgdoor.ui.game\n", "from bgdoor.ui import game\n", "from .. import game\n"])
def test_every_spelling_of_an_import_is_one_edge(tmp_path: Path, text: str) -> None:
    src = _tree(
        tmp_path,
        {
            "bgdoor/__init__.py": "",
            "bgdoor/ui/__init__.py": "",
            "bgdoor/ui/game.py": "",
            "bgdoor/ui/sub/__init__.py": "",
            "bgdoor/ui/sub/x.py": text,
        },
    )
    assert graph(src)["bgdoor.ui.sub.x"] == {"bgdoor.ui.game": 1}


def test_sysop_uses_only_the_service_s_public_members() -> None:
    path = SRC / "bgdoor" / "service" / "sysop.py"
    private = sorted(
        f"line {node.lineno}: service.{node.attr}"
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Attribute)
        and node.attr.startswith("_")
        and not node.attr.startswith("__")
        and isinstance(node.value, ast.Attribute)
        and node.value.attr == "service"
    )
    assert private == []


def test_every_service_operation_says_what_it_does_and_what_it_raises() -> None:
    housekeeping = {"close", "patience", "remember_handle", "statement_count"}  # raise nothing, do no operation
    silent = [
        name
        for name, member in inspect.getmembers(Service, inspect.isfunction)
        if not name.startswith("_")
        and (not inspect.getdoc(member) or (name not in housekeeping and "Raise" not in inspect.getdoc(member)))
    ]
    assert silent == []
