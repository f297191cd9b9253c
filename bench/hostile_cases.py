"""Representative hostile inputs for the reliability probes (bench_load.py --reliability): malformed
JSON inputs, malformed bundles and crafted links. Each case is (name, value); none needs a server."""

from __future__ import annotations

import io
import json
import zipfile

from mcts_core import Scoring
from mcts_core.inputs import View, bundle_bytes, read_input
from mcts_core.inputs.examples import C_FLIPS_CHOICE

HUGE = "1" + "0" * 400  # beyond a float
LONGEST = "7" * 5000  # beyond Python's int-string limit (4,300 digits)
DEEP = 50_000  # beyond the recursion limit
MARKDOWN = "[click](https://evil.example/) ![p](https://evil.example/p.png) <span style='color:red'>RED</span> **bold**"
LOG_HEADER = '{"mcts_log": 1, "players": 2, "c": 1.4}'
RECORD = '{"path": ["a", "b"], "score": 1}'


def _log(*lines: str) -> bytes:
    return ("\n".join(lines) + "\n").encode()


def malformed_json() -> list[tuple[str, bytes]]:
    """JSON Lines logs and JSON tree dumps, each broken in one way."""
    bad_records = {
        "truncated record": '{"path": ["a"], "score": 1',
        "path a string": '{"path": "a", "score": 1}',
        "score a string": '{"path": ["a"], "score": "x"}',
        "score NaN": '{"path": ["a"], "score": NaN}',
        "score Infinity": '{"path": ["a"], "score": Infinity}',
        "score 1e400": '{"path": ["a"], "score": 1e400}',
        "score 400 digits": f'{{"path": ["a"], "score": {HUGE}}}',
        "score 5000 digits": f'{{"path": ["a"], "score": {LONGEST}}}',
        "path nested deeply": '{"path": ' + "[" * DEEP + "]" * DEEP + ', "score": 1}',
        "record nested deeply": '{"a": ' * DEEP + "1" + "}" * DEEP,
        "repeated key": '{"path": ["a"], "path": ["b"], "score": 1}',
        "numeric moves": '{"path": [1, 2], "score": 1}',
        "empty move": '{"path": [""], "score": 1}',
        "no score": '{"path": ["a"]}',
        "no path": '{"score": 1}',
        "a list": "[]",
        "a number": "1",
        "null": "null",
        "a string": '"text"',
        "score true": '{"path": ["a"], "score": true}',
        "returns of strings": '{"path": ["a"], "returns": ["x", 1]}',
        "returns too many": '{"path": ["a"], "returns": [1, 2, 3]}',
        "returns 5000 digits": f'{{"path": ["a"], "returns": [{LONGEST}, 1]}}',
        "joint move in a sequential log": '{"path": [["R", "P"]], "returns": [0, 0]}',
        "facts of the wrong type": '{"node": "a", "simultaneous": "yes"}',
        "fact moves not a list": '{"node": [], "simultaneous": true, "moves": "RPS"}',
        "control character": '{"path": ["a\u0000"], "score": 1}',
        "markdown move": json.dumps({"path": [MARKDOWN], "score": 1}) + "\n" + '{"path": ["a"], "score": "x"}',
        "long move": json.dumps({"path": ["m" * 100_000], "score": 1}) + "\n{",
        "unterminated string": '{"path": ["a], "score": 1}',
        "trailing comma": '{"path": ["a"], "score": 1,}',
        "single quotes": "{'path': ['a'], 'score': 1}",
    }
    bad_headers = {
        "header version 2": '{"mcts_log": 2}',
        "header truncated": '{"mcts_log": 1',
        "players 0": '{"mcts_log": 1, "players": 0}',
        "players 400 digits": f'{{"mcts_log": 1, "players": {HUGE}}}',
        "players 5000 digits": f'{{"mcts_log": 1, "players": {LONGEST}}}',
        "c negative": '{"mcts_log": 1, "c": -1}',
        "c a string": '{"mcts_log": 1, "c": "x"}',
        "c 400 digits": f'{{"mcts_log": 1, "c": {HUGE}}}',
        "rule unknown": '{"mcts_log": 1, "rule": "nope"}',
        "rule markdown": json.dumps({"mcts_log": 1, "rule": MARKDOWN}),
        "settings cap 400 digits": f'{{"mcts_log": 1, "rule": "ucb1_tuned", "settings": {{"cap": {HUGE}}}}}',
        "settings cap markdown": json.dumps({"mcts_log": 1, "rule": "ucb1_tuned", "settings": {"cap": MARKDOWN}}),
        "settings key markdown": json.dumps({"mcts_log": 1, "rule": "ucb1_tuned", "settings": {MARKDOWN: 1}}),
        "ties unknown": '{"mcts_log": 1, "ties": "random"}',
        "repeated header key": '{"mcts_log": 1, "players": 2, "players": 3}',
        "header nested deeply": '{"mcts_log": 1, "x": ' + "[" * DEEP + "]" * DEEP + "}",
    }
    cases = [(f"log, {name}", _log(LOG_HEADER, RECORD, line)) for name, line in bad_records.items()]
    cases += [(f"log, {name}", _log(header, RECORD)) for name, header in bad_headers.items()]
    root = {"move": None, "visits": 3, "total": 2}
    bad_trees = {
        "tree without root": {"mcts_tree": 1},
        "tree version 9": {"mcts_tree": 9, "root": root},
        "negative visits": {"mcts_tree": 1, "root": {**root, "visits": -1}},
        "total a string": {"mcts_tree": 1, "root": {**root, "total": "x"}},
        "children an object": {"mcts_tree": 1, "root": {**root, "children": {}}},
        "child without move": {"mcts_tree": 1, "root": {**root, "children": [{"visits": 1, "total": 1}]}},
        "repeated child move": {"mcts_tree": 1, "root": {**root, "children": [{"move": "a", "visits": 1, "total": 1}] * 2}},
        "child visits beyond the parent's": {"mcts_tree": 1, "root": {**root, "children": [{"move": "a", "visits": 9, "total": 1}]}},
        "markdown child move": {"mcts_tree": 1, "root": {**root, "children": [{"move": MARKDOWN, "visits": -1, "total": 1}]}},
    }
    cases += [(f"tree dump, {name}", json.dumps(tree).encode()) for name, tree in bad_trees.items()]
    cases += [
        ("tree dump, visits 5000 digits", f'{{"mcts_tree": 1, "root": {{"visits": {LONGEST}, "total": 1}}}}'.encode()),
        ("tree dump, nested deeply", ('{"mcts_tree": 1, "root": ' + '{"children": [' * 5000 + "]}" * 5000 + "}").encode()),
        ("tree dump, truncated", b'{"mcts_tree": 1, "root": {"visits": 3'),
        ("tree dump, NaN total", b'{"mcts_tree": 1, "root": {"visits": 3, "total": NaN}}'),
        ("log, not UTF-8", LOG_HEADER.encode() + b"\n\xff\xfe\xfa\n"),
        ("log, UTF-8 BOM then a bad record", b"\xef\xbb\xbf" + _log(LOG_HEADER, '{"path": 1}')),
        ("log, header only then garbage", _log(LOG_HEADER, "not json at all")),
        ("json, empty object", b"{}"),
        ("json, empty", b""),
        ("json, whitespace", b"  \n\n "),
        ("json, null bytes", b"\x00" * 64),
    ]
    return cases


def _zip(members: dict[str, bytes | str]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def malformed_bundles() -> list[tuple[str, bytes]]:
    """Zips that look like bundles (or claim to), each broken in one way."""
    good = bundle_bytes(C_FLIPS_CHOICE.encode(), read_input(C_FLIPS_CHOICE), View(Scoring(c=1.0)))
    with zipfile.ZipFile(io.BytesIO(good)) as archive:
        settings = json.loads(archive.read("settings.json"))

    def with_settings(**changes) -> bytes:
        return _zip({"input.txt": C_FLIPS_CHOICE, "settings.json": json.dumps({**settings, **changes})})

    return [
        ("not a zip", b"PK\x03\x04 this is not really a zip"),
        ("no settings.json", _zip({"input.txt": C_FLIPS_CHOICE})),
        ("two inputs", _zip({"input.txt": C_FLIPS_CHOICE, "input.json": "{}", "settings.json": json.dumps(settings)})),
        ("settings.json not JSON", _zip({"input.txt": C_FLIPS_CHOICE, "settings.json": "{oops"})),
        ("rule written as markdown", with_settings(rule=MARKDOWN)),
        ("c of 400 digits", _zip({"input.txt": C_FLIPS_CHOICE,
                                  "settings.json": json.dumps(settings)[:-1] + f', "c": {HUGE}}}'.replace('"c": 1.0, ', "")})),
        ("inspected node of 5000 digits", _zip({"input.txt": C_FLIPS_CHOICE,
                                                "settings.json": json.dumps({**settings, "inspected": []})
                                                .replace('"inspected": []', f'"inspected": [{LONGEST}]')})),
        ("limits and page crafted", with_settings(limits={"budget": MARKDOWN, MARKDOWN: 1}, page=MARKDOWN)),
        ("a malformed input inside", _zip({"input.jsonl": _log(LOG_HEADER, '{"path": 1}'), "settings.json": json.dumps(settings)})),
        ("settings nested deeply", _zip({"input.txt": C_FLIPS_CHOICE, "settings.json": "[" * DEEP + "]" * DEEP})),
    ]


def crafted_links() -> list[tuple[str, dict[str, str]]]:
    """Link queries a crafted URL can carry: markup, huge and long numbers, deep JSON, long text."""
    hostile = {
        "markdown": MARKDOWN,
        "400 digits": HUGE,
        "5000 digits": LONGEST,
        "NaN": "NaN",
        "negative": "-1",
        "deep JSON": "[" * DEEP + "]" * DEEP,
        "25,000 characters": "x" * 25_000,
        "unicode controls": "\u202e\u0000\ufeffa",
    }
    links: list[tuple[str, dict[str, str]]] = []
    for name in ("c", "rule", "node", "budget", "page", "k", "c_b"):
        links += [(f"{name} = {label}", {name: value}) for label, value in hostile.items() if (name, label) != ("c", "NaN")]
    settings = {
        "cap markdown": json.dumps({"cap": MARKDOWN}),
        "cap 400 digits": f'{{"cap": {HUGE}}}',
        "cap 5000 digits": f'{{"cap": {LONGEST}}}',
        "key markdown": json.dumps({MARKDOWN: 1}),
        "image key": json.dumps({"![pixel](https://evil.example/pixel.png)": 1}),
        "deep": '{"cap": ' + "[" * DEEP + "]" * DEEP + "}",
        "repeated key": '{"cap": 1, "cap": 2}',
    }
    links += [(f"settings {label}", {"rule": "ucb1_tuned", "settings": value}) for label, value in settings.items()]
    links += [(f"settings_b {label}", {"rule_b": "ucb1_tuned", "settings_b": value}) for label, value in list(settings.items())[:2]]
    return links
