"""The tree picture's description (ui.picture.tree_view.Picture): fixed once made, and laid out
again only when what the layout depends on changes."""

from mcts_core import Scoring, build_tree, parse_playouts, selected_nodes
from mcts_core.drawing import ACROSS_PAGE, BESIDE_TABLE, BESIDE_TABLE_STACKED, LEFT_TO_RIGHT, arrange, drawn_nodes, visible_nodes
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


def two_level_tree(first: str, second: str) -> str:
    """Playouts that grow every two-move word over the two alphabets (the first letters first)."""
    words = [a + second[0] for a in first] + [a + b for a in first for b in second]
    return f"{len(words)} 1.4\n" + "".join(f"{word} {k % 7}\n" for k, word in enumerate(words))


def test_a_picture_is_arranged_by_what_fits_at_1366_unless_given():
    wide = build_tree(parse_playouts(deep_tree(1500, 7)))
    drawn = drawn_nodes(wide, visible_nodes(wide, budget=300))
    assert arrange(wide, drawn) == LEFT_TO_RIGHT  # deep: depth along the page's width
    assert Picture(wide, drawn, layout_key="wide").direction == "LR"
    assert picture().arrangement == BESIDE_TABLE and picture().direction == "TB"
    assert picture(arrangement=LEFT_TO_RIGHT).direction == "LR"
    # 21 nodes, 16 leaves two moves down: left to right they stood 950 points tall in a picture of
    # 340 px at 1366x768; top down, one fact a label line, they fit the page's width at 12 px.
    leaves16 = build_tree(parse_playouts(two_level_tree("abcd", "abcd")))
    assert len(leaves16) == 21 and arrange(leaves16, range(21)) == ACROSS_PAGE
    # Narrower levels sit beside the table (the table's rows above the fold), seven children one
    # fact a label line; a level too wide even so goes left to right.
    assert arrange(*_whole(two_level_tree("ab", "ab"))) == BESIDE_TABLE
    assert arrange(*_whole("".join(f"{move} {k}\n" for k, move in enumerate("abcdefg")))) == BESIDE_TABLE_STACKED
    assert arrange(*_whole(two_level_tree("abcdef", "abcdef"))) == LEFT_TO_RIGHT


def _whole(text: str):
    tree = build_tree(parse_playouts(text))
    return tree, range(len(tree))


def test_only_the_drawing_and_its_straight_line_lay_the_picture_out_again():
    plain = picture(path=PATH)
    marked = picture(path=PATH, second_path=PATH[:1], inspected=PATH[-1], scoring=Scoring(c=3.0),
                     principal_variation=PATH, path_follows_c=False, opening="inspected", label_px=18)
    assert marked.layout_id == plain.layout_id  # highlights and hovers move in the browser
    assert picture(path=PATH[:1], line=PATH).layout_id == plain.layout_id  # the line, not the path, is straight
    for other in (picture(path=PATH[:1]), picture(path=PATH, colouring="mean"), picture(path=PATH, arrangement=LEFT_TO_RIGHT),
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
