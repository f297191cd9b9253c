"""The import rules, read from the code itself: no cycle between the core's files, each core package
imports only what its docstring's "May import ..." sentence names, and bench/ imports nothing from
tests/ (what both need to drive the app lives in bench/harness/).

Every import counts, those inside functions too: a function-local import is an import that runs.
"""

import ast
import re
from pathlib import Path

from apptest_support import REPO

CORE = REPO / "mcts_core"
# The stages a "May import" sentence can name: the core's packages and its top-level modules.
STAGES = sorted({path.parent.name for path in CORE.glob("*/__init__.py")} | {"defaults", "puzzle"})
# common is what every stage shares (its docstring says so) and imports only the standard library.
SHARED = {"common"}


def _module_name(path: Path, root: Path = REPO) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def core_modules(root: Path = REPO) -> dict[str, Path]:
    """Every module of the core under ``root``: dotted name -> file."""
    return {_module_name(path, root): path for path in sorted((root / "mcts_core").rglob("*.py"))}


def imports_of(path: Path, modules: dict[str, Path]) -> list[tuple[int, str]]:
    """(line, module) of every core module ``path`` imports, at any depth (inside functions too).

    Relative imports are resolved; ``from package import name`` counts the submodule ``name`` when
    there is one, else the package.
    """
    name = next(name for name, file in modules.items() if file == path)
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - (node.level - 1)]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            targets = [f"{source}.{alias.name}" if f"{source}.{alias.name}" in modules else source for alias in node.names]
        else:
            continue
        found += [(node.lineno, target) for target in targets if target in modules]
    return sorted(set(found))


def import_cycles(modules: dict[str, Path]) -> list[list[str]]:
    """The import cycles between ``modules``: each group of modules that import each other (a
    strongly connected group), as "a:LINE imports b" lines."""
    imports = {name: imports_of(path, modules) for name, path in modules.items()}
    graph = {name: sorted({target for _, target in found}) for name, found in imports.items()}
    order, low, stack, on_stack, groups = {}, {}, [], set(), []

    def visit(name):  # Tarjan's strongly connected components
        order[name] = low[name] = len(order)
        stack.append(name)
        on_stack.add(name)
        for target in graph[name]:
            if target not in order:
                visit(target)
                low[name] = min(low[name], low[target])
            elif target in on_stack:
                low[name] = min(low[name], order[target])
        if low[name] == order[name]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == name:
                    break
            if len(group) > 1 or name in graph[name]:
                groups.append(set(group))

    for name in graph:
        if name not in order:
            visit(name)
    return sorted(
        sorted({f"{name}:{line} imports {target}" for name in group for line, target in imports[name] if target in group})
        for group in groups
    )


def test_no_import_cycle_between_the_cores_files():
    cycles = import_cycles(core_modules())
    assert not cycles, "import cycles:\n" + "\n\n".join("\n".join(cycle) for cycle in cycles)


def test_the_cycle_finder_sees_a_function_local_relative_import(tmp_path):
    # The finder itself: a cycle made only by an import inside a function is still a cycle.
    package = tmp_path / "mcts_core" / "stage"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "first.py").write_text("from .second import b\n")
    (package / "second.py").write_text("def b():\n    from . import first\n")
    (tmp_path / "mcts_core" / "__init__.py").write_text("")
    cycles = import_cycles(core_modules(tmp_path))
    assert cycles == [["mcts_core.stage.first:1 imports mcts_core.stage.second",
                       "mcts_core.stage.second:2 imports mcts_core.stage.first"]]


def may_import(docstring: str, own: str) -> set[str] | None:
    """The stages a package's "May import ..." (or "Imports only ...") sentence allows; None without one.

    The stages named before a "never" count; "every stage" or "every other part" means every stage
    but those named after "but".
    """
    match = re.search(r"\b(May import|Imports only)\b(.*?)(\.\s|\.$)", docstring, re.S)
    if match is None:
        return None
    sentence = match.group(2)
    allowed_part = re.split(r"\bnever\b", sentence)[0]

    def named(text):
        return {stage for stage in STAGES if re.search(rf"\b{stage}\b", text)}

    if re.search(r"\bevery (stage|other part)\b", allowed_part):
        excluded = allowed_part.partition(" but ")[2]
        return set(STAGES) - named(excluded) - {own}
    return named(allowed_part)


def _packages() -> list[Path]:
    return sorted(path.parent for path in CORE.rglob("__init__.py"))


def _stage_of(module: str) -> str:
    """The stage a core module belongs to: its package under mcts_core, or its own name for a
    top-level module (``defaults``, ``puzzle``); ``mcts_core`` for the top-level package itself."""
    return module.split(".")[1] if module.count(".") else "mcts_core"


def test_every_package_imports_only_what_its_docstring_allows():
    modules = core_modules()
    problems = []
    for package in _packages():
        docstring = ast.get_docstring(ast.parse((package / "__init__.py").read_text())) or ""
        own = "mcts_core" if package == CORE else _stage_of(_module_name(package / "__init__.py"))
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
