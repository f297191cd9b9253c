"""The import rules, read from the code itself: no cycle between the core's files, each core package
imports only what its docstring's "May import ..." sentence names, and bench/ imports nothing from
tests/ (what both need to drive the app lives in bench/harness/).

Every import counts, those inside functions too: a function-local import is an import that runs.
"""

import ast
from pathlib import Path

from apptest_support import REPO
from import_graph import import_cycles, imports_of, module_name, package_modules
from import_graph import may_import as _may_import

CORE = REPO / "mcts_core"
# The stages a "May import" sentence can name: the core's packages and its top-level modules.
STAGES = sorted({path.parent.name for path in CORE.glob("*/__init__.py")} | {"defaults", "puzzle"})
# common is what every stage shares (its docstring says so) and imports only the standard library.
SHARED = {"common"}


def test_no_import_cycle_between_the_cores_files():
    cycles = import_cycles(package_modules("mcts_core"))
    assert not cycles, "import cycles:\n" + "\n\n".join("\n".join(cycle) for cycle in cycles)


def test_the_cycle_finder_sees_a_function_local_relative_import(tmp_path):
    # The finder itself: a cycle made only by an import inside a function is still a cycle.
    package = tmp_path / "mcts_core" / "stage"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "first.py").write_text("from .second import b\n")
    (package / "second.py").write_text("def b():\n    from . import first\n")
    (tmp_path / "mcts_core" / "__init__.py").write_text("")
    cycles = import_cycles(package_modules("mcts_core", tmp_path))
    assert cycles == [["mcts_core.stage.first:1 imports mcts_core.stage.second",
                       "mcts_core.stage.second:2 imports mcts_core.stage.first"]]


def may_import(docstring: str, own: str) -> set[str] | None:
    """The core stages a package's "May import ..." sentence allows (:func:`import_graph.may_import`)."""
    return _may_import(docstring, own, STAGES)


def _packages() -> list[Path]:
    return sorted(path.parent for path in CORE.rglob("__init__.py"))


def _stage_of(module: str) -> str:
    """The stage a core module belongs to: its package under mcts_core, or its own name for a
    top-level module (``defaults``, ``puzzle``); ``mcts_core`` for the top-level package itself."""
    return module.split(".")[1] if module.count(".") else "mcts_core"


def test_every_package_imports_only_what_its_docstring_allows():
    modules = package_modules("mcts_core")
    problems = []
    for package in _packages():
        docstring = ast.get_docstring(ast.parse((package / "__init__.py").read_text())) or ""
        own = "mcts_core" if package == CORE else _stage_of(module_name(package / "__init__.py"))
        allowed = may_import(docstring, own)
        if allowed is None:
            problems.append(f"{package.relative_to(REPO)}/__init__.py has no 'May import ...' sentence")
            continue
        # The top-level package's rule governs its own files; a subpackage's, every file under it.
        files = sorted(package.glob("*.py")) if package == CORE else sorted(package.rglob("*.py"))
        for path in files:
            if path.name == "__main__.py":
                continue  # `python -m mcts_core` runs the command line: that is its one job
            for line, target in imports_of(path, modules):
                stage = _stage_of(target)
                if stage == "mcts_core" and package != CORE:
                    problems.append(f"{path.relative_to(REPO)}:{line} imports the top-level mcts_core package")
                elif stage not in {own, "mcts_core"} | allowed | SHARED:
                    problems.append(f"{path.relative_to(REPO)}:{line} imports {target}, which "
                                    f"{package.relative_to(REPO)}'s docstring does not allow (May import: "
                                    f"{', '.join(sorted(allowed)) or 'nothing of the core'})")
    assert not problems, "\n".join(problems)


def test_may_import_reads_the_sentences_the_packages_use():
    # The reader of the rule: a stage named after "never" or "but" is refused, not allowed.
    assert may_import("Holds x. May import the model and selection; never drawing or tables.", "analysis") == {
        "model", "selection"}
    assert may_import("Imports only the standard library.", "common") == set()
    assert "search" not in may_import("May import every stage but tables, search and cli.", "mcts_core")
    assert "inputs" in may_import("May import every other part of the core, lazily.", "cli")
    assert may_import("Holds x and nothing about imports.", "model") is None
def _bench_imports(path: Path) -> list[str]:
    """What a bench script imports that lives in tests/: a ``tests`` module, a module found only in
    tests/ (reached through sys.path), or a sys.path entry naming tests."""
    test_modules = {p.stem for p in (REPO / "tests").rglob("*.py")} - {p.stem for p in (REPO / "bench").glob("*.py")}
    found = []
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        names = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level:
            names = [node.module or ""]
        for name in names:
            top = name.split(".")[0]
            if top == "tests" or top in test_modules:
                found.append(f"{path.relative_to(REPO)}:{node.lineno} imports {name}")
        if isinstance(node, ast.Call) and "sys.path" in ast.unparse(node.func) and "tests" in ast.unparse(node):
            found.append(f"{path.relative_to(REPO)}:{node.lineno} puts tests/ on sys.path")
        if isinstance(node, ast.Assign) and "sys.path" in ast.unparse(node.targets[0]) and "tests" in ast.unparse(node.value):
            found.append(f"{path.relative_to(REPO)}:{node.lineno} puts tests/ on sys.path")
    return found


def test_bench_imports_nothing_from_tests():
    # A benchmark that reaches into tests/ breaks when a test is renamed, and ships test code as a tool.
    problems = [problem for path in sorted((REPO / "bench").glob("*.py")) for problem in _bench_imports(path)]
    assert not problems, "\n".join(problems)
