"""AppTest tour: every page with every kind of input a user brings and every rule the page offers.

The inputs are tests/user_inputs.py's (the text box's statement, then uploads: playouts, logs, a
dump, the engines' real analyses). Each is
opened once, then every page is visited in the menu's order and every rule the page offers chosen:
on the Explorer each rule on both tabs, on Playback with the rule's path shown (an engine's file: its
search over time, which says it has no simulations to replay). A step fails on an
exception, an error box, or a custom component's data that is not strict JSON (a number the
browser's ``JSON.parse`` refuses: the component would show an error in its place); every failing
step of an input is reported together. Where a page cannot show an input it must say so in a
sentence. What only a browser shows is the browser tour's (tests/browser/test_browser_every_input.py).
"""

from __future__ import annotations

import json
import math
from types import SimpleNamespace

import pytest

import required

required.module("pyspiel")  # the OpenSpiel inputs are made by OpenSpiel

from apptest_support import plain, start_app  # noqa: E402
from user_inputs import BIG_INPUTS, INPUT_NAMES, PAGE_SCRIPTS, PAGE_TITLES, USER_INPUTS, UserInput, offered_rules  # noqa: E402

TIMEOUT = 60  # s a script run may take before AppTest gives up (it tells a hang from slow work)
BIG_INPUT_TIMEOUT = 300  # 200,000 playouts are read and built on a busy 2-core machine
EXPLORER_TABS = ["Children", "Outline (any size)"]
CANNOT_SHOW = {"Playback": "no simulations to replay", "Simultaneous": "no simultaneous moves"}


def _refuse(constant: str):
    raise ValueError(f"{constant} is not JSON")


def strict_json_problem(element) -> str | None:
    """What keeps a custom component's data from the browser's ``JSON.parse`` (None: nothing)."""
    kind = element.proto.WhichOneof("data")
    if kind == "json":
        text = element.proto.json
    elif kind == "bytes":  # a tree picture: its strict JSON, then a line break and its SVG (picture_payload)
        text = element.proto.bytes.partition(b"\n")[0]
    elif kind is None:
        return None
    else:
        return f"its data is sent as {kind}"
    try:
        json.loads(text, parse_constant=_refuse)
    except ValueError as error:
        return str(error)[:300]
    return None


def test_the_check_refuses_what_json_parse_refuses_in_either_kind_of_component_data():
    from streamlit.proto.BidiComponent_pb2 import BidiComponent

    from ui.picture.tree_view import picture_payload

    def element(**data):
        return SimpleNamespace(proto=BidiComponent(**data))

    assert strict_json_problem(element(json='{"c": 1.5, "best": "Infinity"}')) is None
    assert "Infinity is not JSON" in strict_json_problem(element(json='{"c": Infinity}'))
    assert "NaN is not JSON" in strict_json_problem(element(json='{"rows": [NaN]}'))
    assert strict_json_problem(element(bytes=picture_payload({"c": math.inf}, b"<svg>NaN</svg>"))) is None
    assert "-Infinity is not JSON" in strict_json_problem(element(bytes=b'{"c": -Infinity}\n<svg/>'))


class Tour:
    """One session going through the app, remembering every step that went wrong."""

    def __init__(self, app, timeout: float):
        self.app, self.timeout = app, timeout
        self.problems: list[str] = []

    def run(self, where: str, element=None) -> None:
        """Run the script (through ``element``'s change when given) and note what is wrong, as ``where``."""
        (element or self.app).run(timeout=self.timeout)
        app = self.app
        wrong = [f"exception: {error.proto.message} {list(error.proto.stack_trace)[-2:]}" for error in app.exception]
        wrong += [f"error box: {plain(error.value)[:300]}" for error in app.error]
        for component in app.get("bidi_component"):
            if (problem := strict_json_problem(component)) is not None:
                wrong.append(f"component {component.proto.id.rsplit('-', 1)[-1]}: {problem}")
        self.problems += [f"{where}: {problem}" for problem in wrong]

    def says(self, title: str, words: str) -> None:
        """Note if no info box or caption on the page holds ``words``."""
        if not any(words in plain(sentence.value) for sentence in [*self.app.info, *self.app.caption]):
            self.problems.append(f"{title}: no sentence saying {words!r}")

    def every_rule(self, title: str, key: str, rules: tuple[str, ...], after_each=None) -> None:
        """Every rule in ``rules``, from the one the page opened with (seen without a run of its own)."""
        start = rules.index(self.app.selectbox(key=key).value)
        for rule in rules[start:] + rules[:start]:
            box = self.app.selectbox(key=key)
            if box.value != rule:
                self.run(f"{title} with {rule}", box.select(rule))
            if after_each is not None:
                after_each(rule)


def open_input(tour: Tour, given: UserInput, uploads) -> None:
    if given.upload:
        file = uploads[given.name]
        tour.run("opening the input",
                 tour.app.file_uploader(key="upload").set_value((file.name, file.read_bytes(), "text/plain")))
        tour.says("opening the input", f"Using the uploaded file {file.name}")
    else:
        tour.run("opening the input")  # the text box holds the statement's example


@pytest.mark.parametrize("given", USER_INPUTS, ids=INPUT_NAMES)
def test_every_page_shows_this_input_with_every_rule_without_an_error(monkeypatch, user_uploads, given):
    tour = Tour(start_app(monkeypatch), BIG_INPUT_TIMEOUT if given.name in BIG_INPUTS else TIMEOUT)
    app = tour.app
    open_input(tour, given, user_uploads)
    tabs = list(EXPLORER_TABS)

    def both_tabs(rule: str) -> None:
        """The rule was chosen on the tab the last one ended on: the other tab too, with one switch."""
        tabs.reverse()
        app.session_state["details_tab"] = tabs[0]
        tour.run(f"Explorer's {tabs[0].split()[0].lower()} tab with {rule}")

    for title in PAGE_TITLES:
        if title != "Explorer":
            tour.run(title, app.switch_page(PAGE_SCRIPTS[title]))
        rules = offered_rules(given, title)
        if title in CANNOT_SHOW and not rules:
            tour.says(title, CANNOT_SHOW[title])
        if not rules:
            continue
        if title == "Playback" and given.engine:  # its search over time, nothing to replay
            tour.says(title, CANNOT_SHOW[title])
        elif title == "Playback":
            tour.run("Playback with the rule's path", app.toggle(key="playback_rule_path").set_value(True))
        if title == "Simultaneous":
            tour.every_rule(title, "sim_rule", rules)
        else:
            tour.every_rule(title, "rule", rules, both_tabs if title == "Explorer" else None)
    assert not tour.problems, "\n".join(tour.problems)
