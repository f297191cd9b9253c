"""Bundles: everything about a view in one zip, and reading it back to the same input and settings."""

import csv
import io
import json
import subprocess
import sys
import zipfile

import pytest

from mcts_core import ParseError, Scoring
from mcts_core.inputs.bundle import View, is_bundle, node_rows, picture_dot, read_bundle, write_bundle
from mcts_core.inputs.examples import C_FLIPS_CHOICE
from mcts_core.inputs.loading import read_input


def bundle_bytes(text: str, view: View) -> bytes:
    read = read_input(text)
    out = io.BytesIO()
    write_bundle(out, input_bytes=text.encode(), read=read, view=view, dot=picture_dot(read, view), svg=b"<svg/>")
    return out.getvalue()


def test_a_bundle_reads_back_to_the_same_input_and_view():
    view = View(Scoring.of("puct", c=2.5, normalise="minmax"), page="compare", inspected=("a", "b"), limits={"budget": 77})
    data = bundle_bytes(C_FLIPS_CHOICE, view)
    assert is_bundle(data)
    bundle = read_bundle(data)
    assert bundle.input_bytes == C_FLIPS_CHOICE.encode() and bundle.input_name == "input.txt"
    assert bundle.view == view


def test_a_bundle_holds_the_tree_the_node_table_and_the_picture():
    data = bundle_bytes(C_FLIPS_CHOICE, View(Scoring(c=4.0)))
    archive = zipfile.ZipFile(io.BytesIO(data))
    assert set(archive.namelist()) == {
        "input.txt", "tree.json", "nodes.csv", "picture.dot", "picture.svg", "settings.json", "README.txt",
    }
    dump = json.loads(archive.read("tree.json"))
    assert dump["root"]["selected"] == "b" and dump["c"] == 4.0  # C = 4: exploration picks b
    rows = list(csv.DictReader(io.StringIO(archive.read("nodes.csv").decode())))
    assert len(rows) == len(read_input(C_FLIPS_CHOICE).tree)
    assert [row["path"] for row in rows if row["on_path"] == "True"] == ["[]", '["b"]']
    assert "uploading" in archive.read("README.txt").decode().lower() or "upload" in archive.read("README.txt").decode()


def test_node_rows_give_each_childs_value_under_the_rule():
    read = read_input(C_FLIPS_CHOICE)
    rows = {tuple(json.loads(row["path"])): row for row in node_rows(read, Scoring(c=0.5))}
    assert rows[()]["value"] == "" and rows[("a",)]["selected"] and not rows[("b",)]["selected"]
    assert rows[("a", "a")]["on_path"] and rows[("a", "a")]["mean"] == 10.0


def test_pandas_reads_the_node_tables_root_as_the_root_and_every_path_as_its_moves():
    import pandas as pd

    text = "\n".join(json.dumps(record) for record in [
        {"mcts_log": 1, "c": 1.0}, {"path": ["e2 e4", "a,b"], "score": 1}, {"path": ["e2 e4"], "score": 0},
        {"path": ["NA"], "score": 1}])
    read = read_input(text)
    archive = zipfile.ZipFile(io.BytesIO(bundle_bytes(text, View(Scoring(c=1.0)))))
    table = pd.read_csv(io.BytesIO(archive.read("nodes.csv")))
    assert not table["path"].isna().any()
    assert [tuple(json.loads(path)) for path in table["path"]] == [read.tree.path_moves(node) for node in range(len(read.tree))]
    assert table["path"][0] == "[]" and table["depth"][0] == 0


@pytest.mark.parametrize(
    "data, fragment",
    [
        (b"PK\x03\x04broken", "cannot be read as a zip"),
        (None, "not an MCTS Explorer bundle"),
    ],
)
def test_bad_bundles_are_refused_with_a_message(data, fragment):
    if data is None:
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w") as archive:
            archive.writestr("other.txt", "x")
        data = out.getvalue()
    with pytest.raises(ParseError, match=fragment):
        read_bundle(data)


def test_tampered_settings_are_refused():
    data = bundle_bytes(C_FLIPS_CHOICE, View(Scoring(c=1.0)))
    archive = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as copy:
        for name in archive.namelist():
            content = archive.read(name)
            if name == "settings.json":
                content = content.replace(b'"c": 1.0', b'"c": -3')
            copy.writestr(name, content)
    with pytest.raises(ParseError, match="C must be a finite number >= 0"):
        read_bundle(out.getvalue())


def test_cli_export_writes_the_bundle_and_reports_a_bad_path(tmp_path):
    target = tmp_path / "view.zip"
    result = subprocess.run(
        [sys.executable, "-m", "mcts_core", "export", "--out", str(target), "--c", "4"],
        input=C_FLIPS_CHOICE.encode(), capture_output=True,
    )
    assert result.returncode == 0, result.stderr
    assert read_bundle(target.read_bytes()).view.scoring == Scoring(c=4.0)
    bad = subprocess.run(
        [sys.executable, "-m", "mcts_core", "export", "--out", str(tmp_path / "no" / "dir.zip")],
        input=C_FLIPS_CHOICE.encode(), capture_output=True,
    )
    assert bad.returncode == 2 and bad.stderr.decode().startswith("error: cannot write") and bad.stderr.count(b"\n") == 1
