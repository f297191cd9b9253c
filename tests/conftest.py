"""Shared pytest setup: the repository root on sys.path, markers, small helpers."""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

STATEMENT_EXAMPLE = "3 0.1\nbaa 30\nab 20\nbbb 4\n"


def pytest_configure(config):
    config.addinivalue_line("markers", "browser: drives the app in a real chromium (Playwright)")
