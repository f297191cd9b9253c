"""The app side's import rules, read from the code: no cycle between ui/'s files, each folder of ui/
imports only the folders its docstring's "May import ..." sentence names, and the pages import the
core through its package __init__s and ui/ through its modules (never a page from ui/)."""

import ast

from apptest_support import REPO
from import_graph import import_cycles, imports_of, may_import, module_name, package_modules

UI = REPO / "ui"
ROOMS = sorted(path.parent.name for path in UI.glob("*/__init__.py"))


def _room_of(module: str) -> str:
    """The folder of ui/ a module belongs to (``ui`` for the package itself)."""
    return module.split(".")[1] if module.count(".") else "ui"


def test_ui_is_in_folders_each_saying_what_it_holds_and_may_import():
    assert sorted(path.name for path in UI.glob("*.py")) == ["__init__.py"], "ui/ holds folders, not modules"
    top = ast.get_docstring(ast.parse((UI / "__init__.py").read_text()))
    vague = []
    for room in ROOMS:
        docstring = ast.get_docstring(ast.parse((UI / room / "__init__.py").read_text())) or ""
        if len(docstring) < 80 or may_import(docstring, room, ROOMS) is None:
            vague.append(room)
        assert f"``{room}/``" in top, f"ui/__init__.py's map does not name {room}/"
    assert not vague, f"these folders' docstrings do not say what they hold and may import: {vague}"


def test_no_import_cycle_between_the_ui_files():
    cycles = import_cycles(package_modules("ui"))
    assert not cycles, "import cycles:\n" + "\n\n".join("\n".join(cycle) for cycle in cycles)


def test_every_ui_folder_imports_only_what_its_docstring_allows():
    modules = package_modules("ui")
    problems = []
    for room in ROOMS:
        allowed = may_import(ast.get_docstring(ast.parse((UI / room / "__init__.py").read_text())) or "", room, ROOMS)
        for path in sorted((UI / room).rglob("*.py")):
            for line, target in imports_of(path, modules):
                if _room_of(target) not in {room} | (allowed or set()):
                    problems.append(f"{path.relative_to(REPO)}:{line} imports {target}, which ui/{room}'s docstring "
                                    f"does not allow (May import: {', '.join(sorted(allowed or ())) or 'nothing of ui'})")
    assert not problems, "\n".join(problems)


def test_common_is_imported_by_every_folder_and_imports_none():
    # The base every room stands on: were it to import a room, that room could not import it back.
    modules = package_modules("ui")
    assert may_import(ast.get_docstring(ast.parse((UI / "common" / "__init__.py").read_text())), "common", ROOMS) == set()
    assert all(_room_of(target) == "common" for path in (UI / "common").glob("*.py") for _, target in imports_of(path, modules))


def test_no_ui_module_imports_a_page():
    # A page is a script Streamlit runs; code a page and ui/ share belongs in ui/.
    found = [f"{path.relative_to(REPO)}:{node.lineno}" for path in sorted(UI.rglob("*.py"))
             for node in ast.walk(ast.parse(path.read_text()))
             if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "pages"]
    assert found == []


def test_the_room_finder_reads_a_file_path():
    assert _room_of(module_name(UI / "c" / "c_control.py")) == "c"
    assert _room_of(module_name(UI / "__init__.py")) == "ui"
