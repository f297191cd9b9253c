"""Reading a package's imports from its source: every module it imports (inside functions too),
the cycles between files, and the folders a package's "May import ..." sentence allows."""

import ast
import re
from pathlib import Path

from apptest_support import REPO


def module_name(path: Path, root: Path = REPO) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def package_modules(package: str, root: Path = REPO) -> dict[str, Path]:
    """Every module of the package folder ``package`` under ``root``: dotted name -> file."""
    return {module_name(path, root): path for path in sorted((root / package).rglob("*.py"))}


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


def may_import(docstring: str, own: str, stages: list[str]) -> set[str] | None:
    """The ``stages`` (folder names) a package's "May import ..." (or "Imports only ...") sentence
    allows; None without one.

    The stages named before a "never" count; "every stage" or "every other part" means every stage
    but those named after "but".
    """
    match = re.search(r"\b(May import|Imports only)\b(.*?)(\.\s|\.$)", docstring, re.S)
    if match is None:
        return None
    sentence = match.group(2)
    allowed_part = re.split(r"\bnever\b", sentence)[0]

    def named(text):
        return {stage for stage in stages if re.search(rf"\b{stage}\b", text)}

    if re.search(r"\bevery (stage|other part)\b", allowed_part):
        excluded = allowed_part.partition(" but ")[2]
        return set(stages) - named(excluded) - {own}
    return named(allowed_part)
