"""The app's pages as app.py registers them, for the code that links to them (share links, tests)."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

APP_DIR = Path(__file__).resolve().parents[2]
APP_PATH = APP_DIR / "app.py"


@dataclass(frozen=True)
class PageSpec:
    """A page: its script (relative to the app folder), menu title, icon and URL path."""

    script: str
    title: str
    icon: str
    url_path: str

    @property
    def default(self) -> bool:
        """The page served at the app's root URL."""
        return self.url_path == ""


def _registered_pages() -> tuple[PageSpec, ...]:
    """The ``st.Page(script, title=..., icon=..., url_path=...)`` calls in app.py, in menu order.

    Read from app.py's source (importing it would run the app): app.py stays the one list of pages.
    """
    calls = [
        node
        for node in ast.walk(ast.parse(APP_PATH.read_text(encoding="utf-8")))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "Page"
    ]
    pages = []
    for call in sorted(calls, key=lambda node: (node.lineno, node.col_offset)):
        options = {keyword.arg: ast.literal_eval(keyword.value) for keyword in call.keywords}
        script = ast.literal_eval(call.args[0])
        pages.append(PageSpec(script, options["title"], options["icon"], options.get("url_path", "")))
    return tuple(pages)


PAGES: tuple[PageSpec, ...] = _registered_pages()
