"""The core's map: every package says what it holds and may import, README's layout names every module."""

import ast
import re

from apptest_support import REPO

CORE = REPO / "mcts_core"


def _packages():
    return sorted(path.parent for path in CORE.rglob("__init__.py"))


def test_every_core_package_says_what_it_holds_and_what_it_may_import():
    vague = []
    for package in _packages():
        docstring = ast.get_docstring(ast.parse((package / "__init__.py").read_text())) or ""
        if len(docstring) < 80 or not re.search(r"\bMay import\b|\bImports only\b", docstring):
            vague.append(str(package.relative_to(REPO)))
    assert not vague, f"these packages' docstrings do not say what they hold and may import: {vague}"


def test_core_top_level_holds_only_stage_folders_and_the_entry_points():
    modules = sorted(path.name for path in CORE.glob("*.py"))
    assert modules == ["__init__.py", "__main__.py", "defaults.py", "puzzle.py"], modules


def test_module_file_names_are_unique_across_the_core():
    # A twin name (two decoupled.py) makes a reader open the wrong file.
    names = [path.name for path in CORE.rglob("*.py") if path.name != "__init__.py"]
    assert sorted({name for name in names if names.count(name) > 1}) == []


def test_readme_layout_names_every_module():
    # The layout section is the map a newcomer reads first: a module missing from it is hidden.
    readme = (REPO / "README.md").read_text()
    layout = readme[readme.index("## Layout") :]
    folders = [REPO / "pages", *sorted(path.parent for path in (REPO / "ui").rglob("__init__.py")), *_packages()]
    missing = [
        str(path.relative_to(REPO))
        for folder in folders
        for path in sorted(folder.glob("*.py"))
        if path.name != "__init__.py" and path.name not in layout
    ]
    assert not missing, f"README's Layout does not name {missing}"
    named_folders = [f"{package.name}/" for package in [*_packages(), *(REPO / "ui").glob("*/")] if package not in (CORE,)]
    assert all(name in layout for name in named_folders)


def test_pages_and_ui_import_the_core_through_its_package_inits():
    # A package's __init__ is its public API: a page reaching into a module ties itself to the layout.
    deep = []
    for path in [REPO / "app.py", *sorted((REPO / "pages").glob("*.py")), *sorted((REPO / "ui").rglob("*.py"))]:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("mcts_core"):
                if node.module.count(".") > 1:
                    deep.append(f"{path.relative_to(REPO)}:{node.lineno} from {node.module}")
    assert deep == []
