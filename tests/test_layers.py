"""The package's modules form layers that import one way (no import circle), found by reading their source.

ABI (``_lib``) -> conversion (``_convert``) -> scoring (``_engine``) -> results
(``_arith``, ``_result``, ``_api``) -> statistics and plots -> command line.
Imports inside functions count too: a lazy import is still a dependency.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import corefscore
import pytest

PACKAGE = Path(corefscore.__file__).resolve().parent

#: Each module's layer; a module may import only modules of lower layers.
LAYERS = {
    "_version": 0,
    "_lib": 1,
    "_convert": 2,
    "_engine": 3,
    "_arith": 4,
    "_result": 5,
    "_analysis": 5,
    "_distributed": 5.5,
    "_api": 6,
    # statistics, split by job (stats is their public face): resampling -> tables -> intervals, comparison
    "_resample": 6.1,
    "_tables": 6.2,
    "_intervals": 6.3,
    "_compare": 6.3,
    "_ua": 7,
    "stats": 7,
    "torchmetrics": 7,
    "dask": 7,
    "plotting": 8,
    "_report": 8,
    "report_html": 8,
    "report": 9,
    "cli": 10,
    "__main__": 11,
}


def _imports(path: Path) -> set[str]:
    """The package modules that ``path`` imports, at any depth (``from .x import y``, ``import corefscore.x``)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom):
            if node.level == 1 and node.module:
                found.add(node.module.split(".")[0])
            elif node.level == 1:
                found.update(a.name for a in node.names)
            elif node.module and node.module.split(".")[0] == "corefscore":
                parts = node.module.split(".")
                found.update([parts[1]] if len(parts) > 1 else [a.name for a in node.names])
        elif isinstance(node, ast.Import):
            for a in node.names:
                parts = a.name.split(".")
                if parts[0] == "corefscore":
                    found.add(parts[1] if len(parts) > 1 else "__init__")
    return {m for m in found if (PACKAGE / f"{m}.py").exists() or m == "__init__"}


def _graph() -> dict[str, set[str]]:
    return {p.stem: _imports(p) for p in PACKAGE.glob("*.py") if p.stem != "__init__"}


def test_every_module_has_a_layer():
    assert set(_graph()) == set(LAYERS)


def test_imports_go_down_the_layers_only():
    wrong = [(m, d) for m, deps in _graph().items() for d in deps if d == "__init__" or LAYERS[d] >= LAYERS[m]]
    assert wrong == [], f"imports against the layers (module, imported): {wrong}"


def test_no_import_circle():
    graph = _graph()
    state: dict[str, int] = {}

    def visit(m: str, path: list[str]) -> None:
        state[m] = 1
        for d in graph.get(m, ()):
            if state.get(d) == 1:
                pytest.fail(f"import circle: {' -> '.join([*path, m, d])}")
            if d not in state:
                visit(d, [*path, m])
        state[m] = 2

    for m in graph:
        if m not in state:
            visit(m, [])


def test_results_import_neither_statistics_nor_plots():
    for module in ("_result.py", "_analysis.py"):
        assert not {"stats", "plotting"} & _imports(PACKAGE / module)


def test_submodules_are_reachable_from_the_package_in_a_fresh_interpreter():
    code = "import corefscore; print(corefscore.stats.compare.__name__, corefscore.plotting.__name__)"
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=120,
        env={"PYTHONPATH": str(PACKAGE.parent), "PATH": ""},
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["compare", "corefscore.plotting"]
