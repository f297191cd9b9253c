"""Drawing: caps, folds, highlighting and escaping of user text."""

import re
import subprocess

import pytest

import required
from mcts_core import ROOT, Scoring, build_tree, parse_playouts, selected_nodes
from mcts_core.inputs.examples import STATEMENT_EXAMPLE, deep_tree
from mcts_core.drawing.dot import PATH_COLOR, render_tree, visible_nodes

required.program("dot")


def drawn_ids(graph):
    return set(re.findall(r"^\s*n(\d+) \[", graph.source, flags=re.M))


def test_small_tree_draws_every_node_with_move_visits_and_mean():
    tree = build_tree(parse_playouts(STATEMENT_EXAMPLE))
    graph = render_tree(tree, visible_nodes(tree), path=selected_nodes(tree, Scoring(c=0.1)))
    assert drawn_ids(graph) == {"0", "1", "2", "3"}
    assert 'label="b\\nn=2  μ=17.00"' in graph.source
    assert "more" not in graph.source


def test_selected_path_is_red_and_thick():
    tree = build_tree(parse_playouts(STATEMENT_EXAMPLE))
    a = tree.find("a")
    graph = render_tree(tree, visible_nodes(tree), path=[ROOT, a])
    assert re.search(rf'n0 -> n{a} \[color="{PATH_COLOR}" penwidth=3\]', graph.source)
    assert re.search(r"n0 -> n1\s*$", graph.source, flags=re.M)  # b's edge stays plain


def test_budget_top_k_and_depth_limit_cap_the_picture_and_fold_the_rest():
    tree = build_tree(parse_playouts(deep_tree()))
    assert len(tree) > 300
    capped = visible_nodes(tree, budget=40)
    assert len(capped) == 40
    assert max(tree.depth[n] for n in visible_nodes(tree, max_depth=2)) == 2
    top2 = visible_nodes(tree, top_k=2)
    assert all(sum(1 for kid in tree.children[n] if kid in top2) <= 2 for n in top2)
    graph = render_tree(tree, capped)
    folds = dict(re.findall(r'^\s*n(\d+) \[label="[^"]*\\n\+(\d+) more, \d+ visits?"', graph.source, flags=re.M))
    # each drawn node with children left out counts exactly those children on its last line
    expected = {
        str(node): str(sum(1 for kid in tree.children[node] if kid not in capped))
        for node in capped
        if any(kid not in capped for kid in tree.children[node])
    }
    assert folds and folds == expected
    assert "more" not in graph.source.replace(" more, ", "")  # no fold boxes of their own


def test_path_and_inspected_node_are_drawn_even_beyond_the_cap():
    tree = build_tree(parse_playouts(deep_tree()))
    path = selected_nodes(tree, Scoring(c=50.0))
    deepest = max(range(len(tree)), key=tree.depth.__getitem__)
    graph = render_tree(tree, visible_nodes(tree, budget=5), path=path, inspected=deepest)
    assert {str(n) for n in path} | {str(n) for n in tree.path_nodes(deepest)} <= drawn_ids(graph)
    assert f'n{deepest} [label=' in graph.source and "peripheries=2" in graph.source


@pytest.mark.parametrize("move", ['"', "\\", "<", ">", "{", "&", "]"])
def test_user_moves_are_escaped_and_dot_renders_them_literally(move):
    tree = build_tree(parse_playouts(f"1 1\n{move}x 5\n"))
    graph = render_tree(tree, visible_nodes(tree))
    svg = subprocess.run(["dot", "-Tsvg"], input=graph.source.encode(), capture_output=True, check=True).stdout
    text = svg.decode()
    escaped = {"<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;"}.get(move, move)
    assert f">{escaped}</text>" in text
    assert "n=1" in text


# Two paths in one picture (the Compare page).
from mcts_core.inputs.examples import C_FLIPS_CHOICE  # noqa: E402  (appended section)
from mcts_core.drawing.dot import SECOND_PATH_COLOR, SHARED_COLOR, path_neighbourhood  # noqa: E402


def flips_paths():
    """C_FLIPS_CHOICE with the UCB1 path at C = 0.5 ("aa") and a bias path that takes "abb"."""
    tree = build_tree(parse_playouts(C_FLIPS_CHOICE))
    first = selected_nodes(tree, Scoring(c=0.5))
    second = selected_nodes(tree, Scoring.of("progressive_bias", c=0.5, w=1.0, heuristic={"b": 1.0}))
    assert [tree.path(n) for n in first] == ["", "a", "aa"]
    assert [tree.path(n) for n in second] == ["", "a", "ab", "abb"]
    return tree, first, second


def node_line(graph, node):
    return re.search(rf"^\s*n{node} \[.*$", graph.source, flags=re.M).group(0)


def edge_line(graph, parent, node):
    return re.search(rf"^\s*n{parent} -> n{node}\b.*$", graph.source, flags=re.M).group(0)


def test_second_path_is_teal_and_dashed_and_shared_part_is_purple():
    tree, first, second = flips_paths()
    graph = render_tree(tree, visible_nodes(tree), path=first, second_path=second)
    a, aa, ab, abb = (tree.find(p) for p in ("a", "aa", "ab", "abb"))
    for node in (ROOT, a):
        assert f'color="{SHARED_COLOR}"' in node_line(graph, node)
    assert f'color="{SHARED_COLOR}"' in edge_line(graph, ROOT, a)
    assert f'color="{PATH_COLOR}"' in node_line(graph, aa)
    assert re.search(rf'n{a} -> n{aa} \[color="{PATH_COLOR}" penwidth=3\]', graph.source)  # A: solid red
    for parent, node in ((a, ab), (ab, abb)):
        assert f'color="{SECOND_PATH_COLOR}"' in node_line(graph, node) and "dashed" in node_line(graph, node)
        assert re.search(
            rf'n{parent} -> n{node} \[color="{SECOND_PATH_COLOR}" penwidth=3 style=dashed\]', graph.source
        )
    b, aba = tree.find("b"), tree.find("aba")
    assert "color=" not in node_line(graph, b) and "color=" not in node_line(graph, aba)
    assert re.search(rf"n{ROOT} -> n{b}\s*$", graph.source, flags=re.M)  # off both paths: plain
    assert "legend" not in graph.source


def test_without_a_second_path_the_drawing_is_unchanged():
    tree, first, _ = flips_paths()
    visible = visible_nodes(tree)
    assert render_tree(tree, visible, path=first).source == render_tree(tree, visible, path=first, second_path=()).source
    assert SHARED_COLOR not in render_tree(tree, visible, path=first).source


def test_second_path_reaches_beyond_the_cap():
    tree = build_tree(parse_playouts(deep_tree()))
    second = selected_nodes(tree, Scoring(c=50.0))
    graph = render_tree(tree, visible_nodes(tree, budget=5), path=selected_nodes(tree, Scoring(c=0.0)), second_path=second)
    assert {str(n) for n in second} <= drawn_ids(graph)


@pytest.mark.parametrize("name", ['A: "x"', "B <b>&\\", "{rule}|[c]", "two\nlines\\"])
def test_legend_names_the_paths_and_is_escaped(name):
    tree, first, second = flips_paths()
    graph = render_tree(tree, visible_nodes(tree), path=first, second_path=second, legend=(name, "other"))
    assert "subgraph cluster_legend" in graph.source
    for colour in (PATH_COLOR, SECOND_PATH_COLOR, SHARED_COLOR):
        assert re.search(rf'legend_\d \[label=.* color="{colour}"', graph.source)
    svg = subprocess.run(["dot", "-Tsvg"], input=graph.source.encode(), capture_output=True, check=True).stdout
    text = svg.decode()
    for line in name.split("\n"):  # a newline in a name is a line break in the picture
        shown = line.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
        assert f">{shown}</text>" in text
    assert ">other</text>" in text and ">on both paths</text>" in text


def test_path_neighbourhood_is_the_paths_and_the_children_they_chose_among():
    tree, first, second = flips_paths()
    around = path_neighbourhood(tree, first, second)
    # aa, ab, abb are leaves or on B's path; aba is a child of ab (on B's path), b a child of the root.
    assert {tree.path(n) for n in around} == {"", "a", "b", "aa", "ab", "aba", "abb"}
    deep = build_tree(parse_playouts(deep_tree()))
    path = selected_nodes(deep, Scoring(c=1.4))
    around = path_neighbourhood(deep, path)
    assert around == set(path) | {kid for node in path for kid in deep.children[node]}
    assert len(around) < 30 < len(deep)
    graph = render_tree(deep, around, path=path)
    assert drawn_ids(graph) == {str(n) for n in around}


def test_proven_nodes_are_marked_with_their_outcome_for_the_player_who_moved():
    import json

    from mcts_core.inputs import read_input

    log = "\n".join(json.dumps(record) for record in [
        {"mcts_log": 1, "players": 2},
        {"node": [], "player": 0, "children": ["a", "b"]},
        {"node": ["a"], "outcome": [1, -1]},
        {"node": ["b"], "terminal": True, "outcome": [0, 0]},
        {"path": ["a"], "score": 1}, {"path": ["b"], "score": 0},
    ]) + "\n"  # fmt: skip
    tree = read_input(log).tree
    source = render_tree(tree, visible_nodes(tree)).source
    assert "a  ✓ proven win for P0" in source
    assert "b  ■ end  ✓ proven draw for P0" in source
    assert source.count("proven") == 2  # the root is not proven


@pytest.mark.parametrize("label", ["root\\nn=3  μ=18.00", 'a "quoted" move', "x"])
@pytest.mark.parametrize("centre, size", [((31.93, -23653.0), (64.0, 47.6)), ((0.004, 12.5), (36.0, 36.0))])
def test_a_plain_box_written_at_once_is_the_statement_the_general_writer_makes(label, centre, size):
    """A big drawing's plain boxes skip the general statement writer (a third of the DOT's time):
    the line must be the same, or graphviz would draw them elsewhere."""
    from mcts_core.drawing.dot import _placed, _placed_statement, _statement

    assert _placed_statement("n7", label, centre, size) == _statement("n7", {**_placed(centre, size), "label": label})
