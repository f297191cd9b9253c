"""What the tests need installed, required: where a piece is missing, the test file that needs it
fails in one sentence saying what is missing and how to install it. Never a skip: each piece is a
plain requirement (requirements.txt, or graphviz from the system), so a broken install must not pass
as skipped tests.
"""

from __future__ import annotations

import importlib
import shutil
from types import ModuleType

import pytest

PIP_INSTALL = "pip install -r requirements.txt"

# A module the tests import -> the requirement that provides it.
PACKAGES = {"pyspiel": "open-spiel", "distributed": "dask distributed"}

# A program the tests run -> how to install it.
PROGRAMS = {
    "dot": "graphviz's `dot` (apt-get install -y graphviz)",
    "leelaz": "Leela Zero 0.17's `leelaz` (apt-get install -y leela-zero)",
}
GAMES = "/usr/games"  # where Debian puts games' programs (leelaz), often not on a user's PATH


def module(name: str) -> ModuleType:
    """The module ``name``, imported; where it does not import, the caller fails in a sentence."""
    try:
        return importlib.import_module(name)
    except ImportError as error:
        problem = str(error)
    pytest.fail(f"{name} does not import ({problem}): {PACKAGES[name]} is a requirement, `{PIP_INSTALL}` installs it", pytrace=False)


def program(name: str) -> str:
    """Where the program ``name`` is on PATH (or in Debian's /usr/games); where it is not, the caller
    fails in a sentence."""
    found = shutil.which(name) or shutil.which(name, path=GAMES)
    if found is None:
        pytest.fail(f"{name} is not on PATH nor in {GAMES}: the tests need {PROGRAMS[name]}", pytrace=False)
    return found
