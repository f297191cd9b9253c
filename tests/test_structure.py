"""The code's shape: pages/ holds only registered pages, every session-state key has one owner."""

import ast
import re
from pathlib import Path

from apptest_support import REPO
from ui.common.navigation import PAGES


def test_pages_folder_holds_exactly_the_registered_pages():
    # Streamlit serves every .py file in pages/ as a route: a helper there becomes a blank page.
    files = {f"pages/{path.name}" for path in (REPO / "pages").glob("*.py")}
    assert files == {page.script for page in PAGES}
    assert not (REPO / "pages" / "__init__.py").exists()


def test_the_page_list_is_read_from_app_py():
    source = (REPO / "app.py").read_text()
    assert len(PAGES) == source.count("st.Page(") == 8
    assert all(f'st.Page("{page.script}", title="{page.title}"' in source for page in PAGES)
    assert PAGES[0].default and PAGES[0].title == "Explorer"


def test_page_urls_are_unique_and_one_page_is_the_default():
    assert len({page.url_path for page in PAGES}) == len(PAGES)
    assert [page.default for page in PAGES].count(True) == 1


def _module_name(path: Path) -> str:
    return ".".join(path.relative_to(REPO).with_suffix("").parts)


STREAMLIT_MODULES = sorted([*(REPO / "ui").rglob("*.py"), *(REPO / "pages").glob("*.py"), REPO / "app.py"])
def _declarations(path: Path) -> dict[str, tuple[str, str]]:
    """A module's key declarations, ``NAME = state.key("name")`` or ``state.key_family("pattern_{}")``:
    constant name -> (kind, key or pattern)."""
    prefix = "" if _module_name(path) == "ui.common.state" else "state."  # ui/common/state.py calls its own functions
    declared = {}
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
            kind = ast.unparse(node.value.func).removeprefix(prefix)
            if kind in ("key", "key_family") and ast.unparse(node.value.func) == prefix + kind:
                declared[node.targets[0].id] = (kind, ast.literal_eval(node.value.args[0]))
    return declared


DECLARED = {_module_name(path): _declarations(path) for path in STREAMLIT_MODULES}


def _family_regex(pattern: str) -> str:
    return "[A-Za-z0-9_]*".join(re.escape(part) for part in pattern.split("{}"))


def owner_of(key: str) -> str | None:
    """The module that declares ``key`` (a key of its own first, else a family it matches), None for none."""
    for wanted in ("key", "key_family"):
        for module, declared in DECLARED.items():
            for kind, value in declared.values():
                if kind == wanted and (value == key if kind == "key" else re.fullmatch(_family_regex(value), key)):
                    return module
    return None


def _session_state_writes(tree: ast.AST):
    """(line, key expression) of every write to st.session_state: item assignment, setdefault, pop."""
    for node in ast.walk(tree):
        targets = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        for target in targets:
            for item in ast.walk(target):
                if isinstance(item, ast.Subscript) and ast.unparse(item.value).endswith("session_state"):
                    yield item.lineno, item.slice
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in ("setdefault", "pop")
            and ast.unparse(node.func.value).endswith("session_state")
        ):
            yield node.lineno, node.args[0]


def _declared_constant(expression: ast.expr) -> str | None:
    """The constant a key expression is made from: ``NAME`` or ``NAME.format(...)``."""
    if isinstance(expression, ast.Name):
        return expression.id
    if isinstance(expression, ast.Call) and isinstance(expression.func, ast.Attribute) and expression.func.attr == "format":
        return _declared_constant(expression.func.value)
    return None


def test_every_key_is_declared_by_one_module():
    keys = [(value, module) for module, declared in DECLARED.items() for kind, value in declared.values() if kind == "key"]
    assert len(keys) > 100  # the declarations were found: each page and panel declares its own
    owners = {}
    for value, module in keys:
        owners.setdefault(value, []).append(module)
    assert {key: modules for key, modules in owners.items() if len(modules) > 1} == {}
    assert {owner_of(key) for key in ("playouts", "upload", "c", "c_exact", "budget", "selected_path")} == {
        "ui.setup.input_panel", "ui.c.c_control", "pages.explorer", "ui.c.selected_path"}


def test_every_session_state_write_uses_a_key_its_module_declares():
    problems = []
    for path in STREAMLIT_MODULES:
        module = _module_name(path)
        for line, key in _session_state_writes(ast.parse(path.read_text())):
            if ast.unparse(key) == "key":
                continue  # a loop over the module's declared keys; the AppTest below checks the values
            if _declared_constant(key) not in DECLARED[module]:
                problems.append(f"{module}:{line} writes {ast.unparse(key)}, which it does not declare")
    assert not problems, "\n".join(problems)


def test_every_key_in_session_state_on_every_page_is_declared(app):
    seen = set(app.session_state.keys())
    for page in PAGES:
        app.switch_page(page.script).run()
        assert not app.exception
        seen |= set(app.session_state.keys())
    assert {"playouts", "c", "c_exact", "budget", "selected_path", "cmp_c", "playback_k", "class_path"} <= seen
    assert sorted(key for key in seen if owner_of(key) is None) == []


def _module_variables(tree: ast.Module) -> set[str]:
    """Names a module's top level assigns, except CONSTANTS and _private ones."""
    names = set()
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, (ast.AnnAssign, ast.AugAssign)) else []
        names |= {name.id for target in targets for name in ast.walk(target) if isinstance(name, ast.Name)}
    return {name for name in names if not name.isupper() and not name.startswith("_")}


def test_page_functions_take_what_they_use_as_arguments():
    # A function that reads the page's run-time variables (its setup, tree, input) hides what it
    # depends on and cannot move to the core: pages pass them in.
    problems = []
    for path in sorted((REPO / "pages").glob("*.py")):
        tree = ast.parse(path.read_text())
        variables = _module_variables(tree)
        for function in (node for node in ast.walk(tree) if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))):
            own = {arg.arg for arg in ast.walk(function.args) if isinstance(arg, ast.arg)}
            own |= {node.id for node in ast.walk(function) if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store)}
            read = {node.id for node in ast.walk(function) if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)}
            problems += [f"{path.name}: {function.name} reads {name}" for name in sorted((read & variables) - own)]
    assert problems == []


def test_no_test_skips_a_missing_requirement():
    # A broken install must fail, not pass as skips: tests/required.py fails in a sentence instead. The one
    # skip left is chromium's outside CI (tests/browser/conftest.py), as README says.
    found = [f"{path.relative_to(REPO)}:{number}" for path in sorted((REPO / "tests").rglob("*.py"))
             for number, line in enumerate(path.read_text().splitlines(), 1)
             if "importorskip(" in line and path.name != "test_structure.py"]
    assert found == []
