"""The code's shape: pages/ holds only registered pages, every session-state key has one owner."""

import ast
from pathlib import Path

from apptest_support import REPO
from ui import state
from ui.navigation import PAGES


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


def _key_owner(expression: ast.expr, constants: dict[str, str]) -> str | None:
    """The owner of the key an expression names: ``state.NAME`` or a local alias of one."""
    text = ast.unparse(expression)
    if text.startswith("state."):
        return state.owner_of(getattr(state, text.removeprefix("state.")))
    if text in constants:
        return state.owner_of(constants[text])
    return None


def test_every_session_state_write_uses_a_declared_key_of_its_own_module():
    problems = []
    for path in [*(REPO / "ui").glob("*.py"), *(REPO / "pages").glob("*.py"), REPO / "app.py"]:
        module = _module_name(path)
        tree = ast.parse(path.read_text())
        # Module-level aliases like ``K = state.PLAYBACK_K``.
        constants = {
            node.targets[0].id: getattr(state, ast.unparse(node.value).removeprefix("state."))
            for node in tree.body
            if isinstance(node, ast.Assign)
            and isinstance(node.targets[0], ast.Name)
            and ast.unparse(node.value).startswith("state.")
            and hasattr(state, ast.unparse(node.value).removeprefix("state."))
        }
        for line, key in _session_state_writes(tree):
            if module == "ui.state":
                continue  # the registry itself
            text = ast.unparse(key)
            if text.startswith(("state.rule_setting_key", "prefix + state.", "state.guess_button_key")):
                owner = "ui.rule_panel" if "rule" in text.lower() else "pages.classroom"
            elif text in ("key",):  # a loop over declared keys, checked by the AppTest below
                continue
            else:
                owner = _key_owner(key, constants)
            if owner != module:
                problems.append(f"{module}:{line} writes {text} (owner: {owner})")
    assert not problems, "\n".join(problems)


def test_every_key_in_session_state_on_every_page_is_declared(app):
    seen = set(app.session_state.keys())
    for page in PAGES:
        app.switch_page(page.script).run()
        assert not app.exception
        seen |= set(app.session_state.keys())
    assert {"playouts", "c", "c_exact", "budget", "selected_path", "cmp_c", "playback_k", "class_path"} <= seen
    assert sorted(key for key in seen if state.owner_of(key) is None) == []
