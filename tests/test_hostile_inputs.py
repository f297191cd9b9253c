"""Hostile inputs (huge numbers, deep nesting, long names, repeated keys, odd zips): one ParseError
sentence naming the line or key, exit 2 and one line from the CLI, and a picture that still draws."""

import io
import json
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mcts_core import ParseError, Scoring
from mcts_core.drawing import render_tree, visible_nodes
from mcts_core.drawing.dot import layout_svg
from mcts_core.inputs.bundle import View, bundle_bytes, read_bundle
from mcts_core.inputs.loading import read_input

ROOT = Path(__file__).resolve().parent.parent
HUGE = "9" * 4_400  # past Python's 4,300-digit int-string limit
LOG = '{"mcts_log": 1}\n'


def dump(root: dict, **header) -> str:
    return json.dumps({"mcts_tree": 1, **header, "root": root})


def nested_dump(levels: int) -> str:
    """A dump whose root has a chain of ``levels`` nodes below it."""
    return ('{"mcts_tree": 1, "root": {"move": null, "visits": 1, "children": ['
            + '{"move": "a", "visits": 1, "children": [' * levels + "]}" * levels + "]}}")


CASES = [
    pytest.param(LOG + '{"path": ["a"], "score": %s}\n' % HUGE, 2, 'key "score": must be a finite number', id="log-score-4400-digits"),
    pytest.param('{"mcts_log": 1, "c": %s}\n{"path": ["a"], "score": 1}\n' % HUGE, 1, 'key "c"', id="log-c-4400-digits"),
    pytest.param('{"mcts_tree": 1,\n"root": {"move": null, "visits": 1, "total": %s}}' % HUGE, 2, 'key "total"', id="dump-total-4400-digits"),
    pytest.param('{"mcts_log": 1, "players": 2, "rule": "exp3", "settings": {"eta": %s}}\n{"path": [["a", "b"]], "score": 1}\n'
                 % ("9" * 400), 1, 'key "settings": eta must be a finite number', id="settings-400-digits"),
    pytest.param('{"mcts_log": 1, "rule": "ucb1_tuned", "settings": {"cap": %s}}\n{"path": ["a"], "score": 1}\n'
                 % ("9" * 400), 1, 'key "settings": cap must be a finite number', id="settings-cap-400-digits"),
    pytest.param(dump({"move": None, "visits": 2**63}), 1, 'key "visits": expected a whole number from 0 to', id="dump-visits-2**63"),
    pytest.param(nested_dump(1_001), 1, "deeper than 1,000 moves", id="dump-1001-levels"),
    pytest.param(nested_dump(5_000), 1, "nested too deeply", id="dump-5000-levels"),
    pytest.param('{"mcts_tree": 1, "root": {"move": null, "visits": 1,\n"children": [\n{"move": "a", "visits": 2}]}}', 3,
                 'key "visits": 2 is more than its parent\'s 1', id="dump-child-more-visits-than-parent"),
    pytest.param('{"mcts_log": 1, "c": 1, "c": 2}\n{"path": ["a"], "score": 1}\n', 1, 'key "c" is given twice', id="log-repeated-header-key"),
    pytest.param(LOG + '{"path": ["a"], "score": 1, "score": 2}\n', 2, 'key "score" is given twice', id="log-repeated-record-key"),
    pytest.param(LOG + '{"node": [], "priors": {"a": 0.5, "a": 0.1}}\n', 2, 'key "a" is given twice', id="log-repeated-nested-key"),
    pytest.param('{"mcts_tree": 1, "root": {"move": null, "visits": 1, "visits": 2}}', 1, 'key "visits" is given twice', id="dump-repeated-key"),
    pytest.param(LOG + '{"path": ["a"], "score": 1, "x\\ny": 1}\n', 2, 'unknown key "x\\ny"', id="key-with-a-line-break"),
    pytest.param(LOG + '{"x\\ny": 1}\n', 2, 'got keys x\\ny', id="keys-with-a-line-break"),
    pytest.param(LOG + '{"path": ' + "[" * 100_000 + "]" * 100_000 + ', "score": 1}\n', 2, "nested too deeply", id="log-100000-deep"),
    pytest.param(dump({"move": None, "visits": 1, "value": 1e300, "children": []}).replace('"visits": 1', '"visits": %d' % 10**10),
                 1, "is not a finite total", id="dump-mean-times-visits-overflows"),
]


@pytest.mark.parametrize("text, line, fragment", CASES)
def test_hostile_input_is_one_parse_error_naming_its_line_and_key(text, line, fragment):
    with pytest.raises(ParseError) as caught:
        read_input(text)
    assert caught.value.line == line and fragment in caught.value.message, caught.value
    assert "\n" not in str(caught.value) and len(str(caught.value)) < 300


@pytest.mark.parametrize("command", [[], ["tree"], ["export", "--out"]])
@pytest.mark.parametrize("text, line, fragment", CASES[:3] + CASES[5:10])
def test_the_cli_exits_2_with_one_line_on_hostile_input(command, text, line, fragment, tmp_path):
    command = command + [str(tmp_path / "unused.zip")] if "export" in command else command
    done = subprocess.run([sys.executable, "-m", "mcts_core", *command], input=text.encode(), capture_output=True,
                          cwd=ROOT, timeout=120)
    assert done.returncode == 2 and done.stdout == b""
    assert done.stderr.decode().startswith(f"error: line {line}: ") and done.stderr.decode().count("\n") == 1
    assert not (tmp_path / "unused.zip").exists()


def test_a_1001_level_dump_is_refused_from_deep_inside_a_call_stack():
    def at_depth(levels: int):
        return at_depth(levels - 1) if levels else read_input(nested_dump(1_001))

    with pytest.raises(ParseError, match="deeper than 1,000 moves"):
        at_depth(sys.getrecursionlimit() - 100)


def test_a_move_name_longer_than_dot_takes_draws_shortened():
    name = "x" * 40_000
    text = LOG + json.dumps({"path": [name], "score": 1}) + "\n" + json.dumps({"path": [name, "y"], "score": 1}) + "\n"
    tree = read_input(text).tree
    svg = layout_svg(render_tree(tree, visible_nodes(tree, budget=10)).source).decode()  # real dot
    assert ">" + "x" * 1_000 + "… (+39,000 characters)</text>" in svg  # the label
    assert "x" * 2_000 + "… (+38,000 characters)" in svg and "x" * 2_001 not in svg  # the tooltip


# --- bundles ------------------------------------------------------------------------------------


def a_bundle(settings_text: str | None = None, method: int | None = None) -> bytes:
    """A real bundle, its settings.json replaced by ``settings_text`` and every member's compression
    method number set to ``method`` (as another zip tool could write it)."""
    text = "2 1.0\na 1\nb 2\n"
    data = bundle_bytes(text.encode(), read_input(text), View(Scoring(c=1.0)), dot="digraph {}")
    if settings_text is not None:
        source = zipfile.ZipFile(io.BytesIO(data))
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w") as archive:
            for name in source.namelist():
                archive.writestr(name, settings_text if name == "settings.json" else source.read(name))
        data = out.getvalue()
    if method is not None:
        raw = bytearray(data)
        for signature, offset in ((b"PK\x03\x04", 8), (b"PK\x01\x02", 10)):
            at = raw.find(signature)
            while at >= 0:
                raw[at + offset : at + offset + 2] = method.to_bytes(2, "little")
                at = raw.find(signature, at + 4)
        data = bytes(raw)
    return data


def settings_json(**changes) -> str:
    settings = {"mcts_bundle": 1, "page": "", "c": 1.0, "rule": "ucb1", "settings": {}, "inspected": [], "limits": {}}
    text = json.dumps({**settings, **{key: "@" + key for key in changes}})
    for key, raw in changes.items():
        text = text.replace(f'"@{key}"', raw)
    return text


@pytest.mark.parametrize("data, fragment", [
    pytest.param(a_bundle(settings_json(c=HUGE)), 'key "c": C must be a finite number', id="c-4400-digits"),
    pytest.param(a_bundle(settings_json(c="9" * 400)), 'key "c": C must be a finite number', id="c-400-digits"),
    pytest.param(a_bundle(settings_json(rule='"ucb1_tuned"', settings='{"cap": %s}' % ("9" * 400))), "cap must be a finite number",
                 id="cap-400-digits"),
    pytest.param(a_bundle(settings_json(limits='{"depth": ' * 100_000 + "1" + "}" * 100_000)), "nested too deeply", id="limits-100000-deep"),
    pytest.param(a_bundle(settings_json(limits='{"budget": [1]}')), 'key "limits/budget": expected a whole number', id="limits-not-a-number"),
    pytest.param(a_bundle(method=99), "cannot be read as a zip file", id="unknown-compression-method"),
    pytest.param(a_bundle('{"mcts_bundle": 1, "c": 1, "c": 2}'), 'key "c" is given twice', id="repeated-key"),
    pytest.param(a_bundle(b"\xff\xfe{".decode("latin-1")), "settings.json in the bundle", id="not-json"),
])
def test_a_hostile_bundle_is_one_parse_error(data, fragment):
    with pytest.raises(ParseError) as caught:
        read_bundle(data)
    assert fragment in caught.value.message and len(str(caught.value)) < 300, caught.value


# --- fuzz: nothing but ParseError comes out ------------------------------------------------------

_keys = st.sampled_from(["mcts_log", "mcts_tree", "mcts_bundle", "path", "score", "returns", "node", "player", "children",
                         "priors", "root", "move", "visits", "total", "value", "c", "rule", "settings", "limits", "cap",
                         "inspected", "page", "budget", "players", "ties", "x" * 20_000, "a\nb", 'q"\u2028'])
_scalars = (st.none() | st.booleans() | st.integers() | st.integers(min_value=10**300, max_value=10**400)
            | st.sampled_from([HUGE, "-" + HUGE, "1e400", "-0.0", str(2**63)]).map(lambda s: _Raw(s))
            | st.floats() | st.text(max_size=5) | st.sampled_from(["x" * 20_000, "ucb1", "puct", "first"]))


class _Raw(str):
    """A number literal written as is (too long for Python's int)."""


def _dumps(value) -> str:
    if isinstance(value, _Raw):
        return str(value)
    if isinstance(value, list):
        return "[" + ", ".join(_dumps(item) for item in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{json.dumps(key)}: {_dumps(item)}" for key, item in value.items()) + "}"
    return json.dumps(value)


_json = st.recursive(_scalars, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_keys, inner, max_size=4),
                     max_leaves=10)
_deep = st.integers(1, 3_000).map(lambda depth: _Raw("[" * depth + "]" * depth))
_headers = st.sampled_from(['{"mcts_log": 1, "players": 2}', '{"mcts_log": 1}', '{"mcts_tree": 1, "root": ', "3 1.0"])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(_headers, st.lists(_json | _deep, max_size=4))
def test_read_input_raises_only_parse_error(header, records):
    if header.endswith(": "):
        text = header + (_dumps(records[0]) if records else "{}") + "}"
    else:
        text = "\n".join([header, *(_dumps(record) for record in records)])
    try:
        read_input(text)
    except ParseError as error:
        assert "\n" not in str(error)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.dictionaries(_keys, _json | _deep, max_size=6), st.booleans())
def test_read_bundle_raises_only_parse_error(fields, as_bundle):
    fields = {"mcts_bundle": 1, **fields} if as_bundle else fields
    try:
        read_bundle(fuzz_bundle(_dumps(fields)))
    except ParseError as error:
        assert "\n" not in str(error)


def fuzz_bundle(settings_text: str) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr("input.txt", "1 1.0\na 1\n")
        archive.writestr("settings.json", settings_text)
    return out.getvalue()


def test_the_cli_exports_a_bundle_whose_picture_has_a_move_too_long_for_dot(tmp_path):
    text = LOG + json.dumps({"path": ["x" * 40_000], "score": 1}) + "\n"
    out = tmp_path / "bundle.zip"
    done = subprocess.run([sys.executable, "-m", "mcts_core", "export", "--out", str(out), "--c", "1"], input=text.encode(),
                          capture_output=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0 and done.stderr == b""
    svg = zipfile.ZipFile(out).read("picture.svg").decode()
    assert "… (+39,000 characters)" in svg


@pytest.mark.parametrize("repeated", ['{"path": ["a"], "score": 1, "score": 2}', '{"path": ["a"], "path": ["b"], "score": 2}'])
def test_a_large_logs_repeated_key_is_refused_on_its_line(repeated):
    lines = ['{"mcts_log": 1}'] + ['{"path": ["a", "b"], "score": 1}'] * 3_000  # large enough for pyarrow's reader
    with pytest.raises(ParseError) as caught:
        read_input("\n".join(lines[:100] + [repeated] + lines[100:]) + "\n")
    assert caught.value.line == 101 and "is given twice" in caught.value.message
