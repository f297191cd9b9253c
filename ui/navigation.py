"""The app's pages: one entry per file in pages/, in menu order (app.py registers exactly these)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

APP_DIR = Path(__file__).resolve().parent.parent
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


PAGES: tuple[PageSpec, ...] = (
    PageSpec("pages/explorer.py", "Explorer", ":material/account_tree:", ""),
    PageSpec("pages/sweep.py", "C sweep", ":material/timeline:", "sweep"),
    PageSpec("pages/compare.py", "Compare", ":material/compare_arrows:", "compare"),
    PageSpec("pages/playback.py", "Playback", ":material/play_circle:", "playback"),
    PageSpec("pages/classroom.py", "Classroom", ":material/school:", "classroom"),
    PageSpec("pages/search.py", "Search", ":material/play_arrow:", "search"),
    PageSpec("pages/strength.py", "C and strength", ":material/trending_up:", "strength"),
    PageSpec("pages/simultaneous.py", "Simultaneous", ":material/group:", "simultaneous"),
)
