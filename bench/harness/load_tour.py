"""Browser sessions that each own an input and check, on every page, that they see only their own.

A :class:`Session` drives one browser page: it pastes its own playouts (over its own letters, so
no other session's moves can appear), moves C, switches pages, and on each page checks its input's
id in the URL, its tree's nodes, its selected path, its playout count and its text, with every
console error and exception watched. :func:`run_interleaved` moves several at once.
tests/browser/test_browser_load.py (three sessions) and bench/bench_load.py (ten, timed) use it.
"""

from __future__ import annotations

import json
import random
import re
import string
from dataclasses import dataclass, field
from functools import cached_property
from urllib.parse import parse_qs, urlparse

from playwright.sync_api import Page, expect

from mcts_core import ROOT, Scoring, Tree, build_tree, parse_playouts, selected_nodes
from mcts_core.inputs.store import input_id
from mcts_core.analysis.sweep import path_intervals
from ui.common.navigation import PAGES

from bench.harness.browser import (
    LOAD_TIMEOUT,
    Watched,
    eventually,
    graph_nodes,
    metric_value,
    path_ids,
    real_nodes,
    red_nodes,
    set_text_area,
    tree_facts,
    wait_for_graph,
    wait_idle,
    wait_rendered,
    watch,
)


LETTERS = string.ascii_lowercase + string.ascii_uppercase
MOVES_PER_SESSION = 4
MAX_SESSIONS = len(LETTERS) // MOVES_PER_SESSION  # 13: every session's moves are its own letters
EXACT_C = ".st-key-c_exact input"
TOUR = ("C sweep", "Compare", "Playback", "Classroom", "Explorer")  # each session starts at its own place
URL_PATHS = {page.title: "/" + page.url_path for page in PAGES}
NO_PICTURE = {"C sweep"}  # pages that draw no tree (the sweep draws bands of C)
NO_C = {"Playback"}  # pages without the C control (the Playback replays the playouts)
CHECK_TIMEOUT = 30_000  # ms: under ten sessions on two cores a rerun can take seconds


def session_letters(index: int) -> str:
    """The moves session ``index`` uses, and no other session does."""
    assert 0 <= index < MAX_SESSIONS, f"at most {MAX_SESSIONS} sessions have letters of their own"
    return LETTERS[MOVES_PER_SESSION * index : MOVES_PER_SESSION * (index + 1)]


def session_text(index: int) -> str:
    """A small header-less input for session ``index``: 10 + index playouts over its own letters."""
    rng = random.Random(1000 + index)
    moves = session_letters(index)
    lines = [f"{''.join(rng.choices(moves, k=rng.randint(1, 3)))} {rng.randint(0, 99)}" for _ in range(10 + index)]
    return "\n".join(lines) + "\n"


@dataclass
class Own:
    """What a session's own input gives, computed here with mcts_core: what its pages must show.

    Attributes:
        text: the input (typed in the text box, or the content of the uploaded file).
        letters: the moves it uses (no other session's input uses them).
        uploaded: the uploaded file's name, None for typed text.
    """

    text: str
    letters: str
    uploaded: str | None = None

    @cached_property
    def key(self) -> str:
        """The input's id, which the page's URL names."""
        return input_id(self.text.encode())

    @cached_property
    def tree(self) -> Tree:
        return build_tree(parse_playouts(self.text))

    @property
    def count(self) -> int:
        return self.tree.playouts

    @cached_property
    def nodes(self) -> dict[str, tuple[str, int]]:
        """(label name, visits) of every node, by its path as the picture writes it (JSON)."""
        tree = self.tree
        return {
            json.dumps(list(tree.path_moves(node)) if node != ROOT else [], separators=(",", ":")): (
                "root" if node == ROOT else tree.move[node],
                tree.visits[node],
            )
            for node in range(len(tree))
        }

    def path(self, c: float) -> str:
        """The UCB1 path at ``c``, as the path metrics write it."""
        return self.tree.path(selected_nodes(self.tree, Scoring(c=c))[-1]) or "(root is a leaf)"

    def c_values(self, count: int, after: float = 0.1) -> list[float]:
        """``count`` values of C, each different from the one before (the first from ``after``, the
        C the session has), walking through the intervals where the UCB1 path differs (so a page
        left at an older C shows a wrong path)."""
        intervals = path_intervals(self.tree, 0.0, 60.0)
        middles = [round((i.c_from + i.c_to) / 2, 3) for i in intervals] or [1.0]
        values = []
        for step in range(count):
            c = round(middles[step % len(middles)] + 0.001 * (step // len(middles)), 3)
            values.append(c if c != (values[-1] if values else after) else round(c + 0.0005, 4))
        return values


@dataclass
class Session:
    """One browser session with its own input: acts on its page, then checks the page shows its own.

    ``press_c`` / ``click_page`` only send the action (so several sessions can have one in flight
    at once); ``settle_c`` / ``settle_page`` wait for its run and check what the page shows. Every
    check that another session's input could fail is counted (``path_checks``, ``labels``).
    """

    page: Page
    own: Own
    others: frozenset[str] = frozenset()  # other sessions' input ids, to name cross-talk as such
    c: float | None = None
    c_pending: bool = False
    title: str = "Explorer"
    path_checks: int = 0
    labels: int = 0
    pages_checked: set[str] = field(default_factory=set)
    watched: Watched | None = field(default=None, repr=False)  # console errors, set by go()

    def go(self, url: str) -> None:
        """Load the app's page (returns before its first run is over: several sessions can start)."""
        self.watched = watch(self.page)
        self.page.goto(url)

    def open(self, url: str | None = None) -> None:
        """Wait for the first run (after ``go``, or go to ``url`` first); type this session's input."""
        if url is not None:
            self.go(url)
        wait_idle(self.page)
        wait_rendered(self.page)
        wait_for_graph(self.page)
        if self.own.uploaded is None:
            set_text_area(self.page, self.own.text)

    def upload(self, path) -> None:
        """Send this session's input through the uploader (its text must be the file's content)."""
        self.page.locator('.st-key-upload input[type="file"]').set_input_files(path)

    def settle_input(self) -> None:
        """Wait until the page has loaded this session's input, and check it."""
        expect(tree_facts(self.page)).to_contain_text(f"The tree of {self.own.count:,} playouts,", timeout=LOAD_TIMEOUT)
        wait_idle(self.page)
        self.check()

    def press_c(self, c: float) -> bool:
        """Type an exact C and press Enter (returns once the key is sent, not when the page shows it).

        False, and nothing done, on a page without the C control.
        """
        if self.title in NO_C:
            self.c_pending = False
            return False
        self.c, self.c_pending = c, True
        box = self.page.locator(EXACT_C)
        box.fill(repr(c))
        box.press("Enter")
        return True

    def settle_c(self) -> None:
        """Wait until the page has published this session's C, then check the page."""
        if not self.c_pending:
            return
        self.page.wait_for_function(
            "c => new URLSearchParams(location.search).get('c') === c", arg=repr(self.c), timeout=LOAD_TIMEOUT
        )
        wait_idle(self.page)
        self.check()

    def click_page(self, title: str) -> None:
        """Click a page in the sidebar's menu (returns at once)."""
        self.title = title
        self.page.locator('[data-testid="stSidebarNav"]').get_by_role("link", name=title).click()

    def settle_page(self) -> None:
        """Wait until the page switched to has run and is drawn, then check it."""
        self.page.wait_for_function(
            "path => location.pathname === path", arg=URL_PATHS[self.title], timeout=LOAD_TIMEOUT
        )
        wait_idle(self.page)
        wait_rendered(self.page)
        self.check()

    # What the page shows. A glimpse of another input is cross-talk even if a later run replaces
    # it, so what could show another input is read at once; values that only lag (the URL, a
    # highlight) are awaited.

    def check(self) -> None:
        """The page shows this session's input and nothing of another's: no exception; the URL names
        this input (and C); the text box holds this text (or the uploader this file); every drawn
        node is this tree's; and the page's own facts (path at this C, playout count) are this input's."""
        page, own = self.page, self.own
        expect(page.locator('[data-testid="stException"]')).to_have_count(0)
        self._check_link()
        if own.uploaded is None:
            assert page.locator(".st-key-playouts textarea").input_value() == own.text, "the text box changed"
        else:
            expect(page.locator(".st-key-upload")).to_contain_text(own.uploaded)
        if self.title not in NO_PICTURE:
            wait_for_graph(page, timeout=CHECK_TIMEOUT)
            self._check_nodes()
        getattr(self, "_check_" + self.title.lower().replace(" ", "_"))()
        self.pages_checked.add(self.title)

    def _check_link(self) -> None:
        shown = parse_qs(urlparse(self.page.url).query).get("input", [None])[0]
        assert shown not in self.others, f"cross-talk: the URL names another session's input {shown}"
        self.page.wait_for_function(
            "key => new URLSearchParams(location.search).get('input') === key", arg=self.own.key, timeout=CHECK_TIMEOUT
        )
        if self.c is not None and self.title not in NO_C:
            expect(self.page.locator(EXACT_C)).to_have_value(repr(self.c), timeout=CHECK_TIMEOUT)

    def _check_nodes(self) -> None:
        """Every drawn node is a node of this session's tree, named by its move; its visits are the
        tree's (the Playback draws the tree part-way, so there only the names are checked)."""
        nodes = real_nodes(graph_nodes(self.page))
        assert nodes, f"{self.title}: no tree drawn"
        for node in nodes:
            assert node["id"] in self.own.nodes, f"cross-talk on {self.title}: a node {node['id']} not in this session's tree"
            name, visits = self.own.nodes[node["id"]]
            assert node["label"][0] == name, f"{self.title}: node {node['id']} is labelled {node['label']}"
            if self.title != "Playback":
                shown = re.search(r"n=([\d,]+)", " ".join(node["label"]))
                assert shown and int(shown.group(1).replace(",", "")) == visits, f"{node} should have {visits} visits"
        self.labels += len(nodes)

    def _expect_path(self, label: str) -> None:
        value = metric_value(self.page, label)
        shown = value.inner_text().strip()
        assert set(shown) <= set(self.own.letters) or shown.startswith("("), f"cross-talk: {label} shows {shown!r}"
        if self.c is not None:
            expect(value).to_have_text(self.own.path(self.c), timeout=CHECK_TIMEOUT)
        self.path_checks += 1

    def _check_explorer(self) -> None:
        expect(tree_facts(self.page)).to_contain_text(f"The tree of {self.own.count:,} playouts,")
        self._expect_path("Selected path")
        if self.c is not None and self.own.uploaded is None:
            # The highlight follows the run: the red nodes are this session's path at its C.
            eventually(lambda: red_nodes(self.page), path_ids(self.own.text, self.c), timeout=CHECK_TIMEOUT / 1000, page=self.page)

    def _check_c_sweep(self) -> None:
        self._expect_path("UCB1 path at this C")

    def _check_compare(self) -> None:
        self._expect_path("Path A")

    def _check_playback(self) -> None:
        expect(metric_value(self.page, "Playout")).to_have_text(re.compile(rf"/ {self.own.count:,}$"))
        word = metric_value(self.page, "Word").inner_text().strip()
        assert set(word) <= set(self.own.letters), f"cross-talk: the Playback replays the word {word!r}"

    def _check_classroom(self) -> None:
        tree = self.own.tree
        c = f"C = {self.c:.6g}. " if self.c is not None else ""
        expect(self.page.locator('[data-testid="stMain"]')).to_contain_text(
            f"{c}The root: {tree.visits[ROOT]:,} visits, mean {tree.mean(ROOT):.4g}."
        )


def run_interleaved(sessions: list[Session], tour: tuple[str, ...] = TOUR) -> None:
    """Each round every session moves C (all at once; not on a page without C), then switches page
    (all at once); session ``i`` starts its tour ``i`` pages further on, so the sessions are on
    different pages."""
    c_values = [session.own.c_values(len(tour)) for session in sessions]
    for step in range(len(tour)):
        for session, values in zip(sessions, c_values):
            session.press_c(values[step])
        for session in sessions:
            session.settle_c()
        for index, session in enumerate(sessions):
            session.click_page(tour[(step + index) % len(tour)])
        for session in sessions:
            session.settle_page()
