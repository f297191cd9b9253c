"""The tree picture's description (ui.picture.tree_view.Picture): fixed once made, and laid out
again only when what the layout depends on changes."""

from mcts_core import Scoring, build_tree, parse_playouts, selected_nodes
from mcts_core.drawing import drawn_nodes, fits_top_down, visible_nodes
from mcts_core.inputs.examples import STATEMENT_EXAMPLE, deep_tree
from ui.common.lru import BoundedLRU
from ui.picture.tree_view import Picture

TREE = build_tree(parse_playouts(STATEMENT_EXAMPLE))
PATH = selected_nodes(TREE, Scoring())


def picture(**marks) -> Picture:
    return Picture(TREE, set(range(len(TREE))), layout_key="example", **marks)


def test_a_picture_keeps_its_own_copies_of_the_callers_nodes():
    drawn, path = set(range(len(TREE))), list(PATH)
    made = Picture(TREE, drawn, layout_key="example", path=path, line=path, principal_variation=path)
    drawn.clear()
    path.append(0)
    assert made.drawn == frozenset(range(len(TREE)))
    assert made.path == made.line == made.principal_variation == tuple(PATH)


def test_the_direction_is_top_down_when_the_drawing_fits_unless_given():
    wide = build_tree(parse_playouts(deep_tree(1500, 7)))
    drawn = drawn_nodes(wide, visible_nodes(wide, budget=300))
    assert not fits_top_down(wide, drawn)
    assert Picture(wide, drawn, layout_key="wide").direction == "LR"
    assert picture().direction == "TB"
    assert picture(direction="LR").direction == "LR"


def test_only_the_drawing_and_its_straight_line_lay_the_picture_out_again():
    plain = picture(path=PATH)
    marked = picture(path=PATH, second_path=PATH[:1], inspected=PATH[-1], scoring=Scoring(c=3.0),
                     principal_variation=PATH, path_follows_c=False, opening="inspected", label_px=18)
    assert marked.layout_id == plain.layout_id  # highlights and hovers move in the browser
    assert picture(path=PATH[:1], line=PATH).layout_id == plain.layout_id  # the line, not the path, is straight
    for other in (picture(path=PATH[:1]), picture(path=PATH, colouring="mean"), picture(path=PATH, direction="LR"),
                  Picture(TREE, PATH, layout_key="example", path=PATH), Picture(TREE, plain.drawn, layout_key="other", path=PATH)):
        assert other.layout_id != plain.layout_id


def test_the_values_go_as_lines_in_c_from_the_rule_at_c_one():
    assert picture().at_one is None  # no rule, no values
    assert picture(scoring=Scoring.of("puct", c=3.0)).at_one == Scoring.of("puct", c=1.0)


def test_a_cache_makes_a_missing_value_once():
    cache, made = BoundedLRU(2), []
    for _ in range(3):
        assert cache.get_or_make("key", lambda: made.append(1) or {}) == {}
    assert made == [1]  # an empty value is kept too
