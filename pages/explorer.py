"""Explorer: the tree with the selected path, and the inspected node's children with their terms."""

import streamlit as st

from mcts_core import ROOT, score_children
from mcts_core.inputs import TEXT
from mcts_core.analysis import explain_choice, principal_variation
from mcts_core.drawing import COLOURINGS, arrange, drawn_nodes, hidden_count, path_json, render_tree
from mcts_core.tables import VISITS_TO_FLIP, children_table, engine_table, next_flip
from ui.c import c_control, live_text, selected_path
from ui.common import state
from ui.common.markdown import code, escape
from ui.common.metric_row import metric_row
from ui.common.wording import folded_caption, node_file_stem, node_sentence, random_draw_warning, tree_counts, why_sentence
from ui.common.wording import flip_sentence, mean_header, total_format
from ui.picture.drawn_nodes import BUDGET_HELP, LIMIT_RANGES, cached_visible_nodes
from ui.picture.outline import show_outline
from ui.picture.term_table import Column, csv_text, show_term_table
from ui.picture.tree_view import Picture, show_tree
from ui.share import share, share_panel
from ui.shell import sidebar

# Session-state keys this module owns.
BUDGET = state.key("budget")  # a contract key (docs/DESIGN.md)
MAX_DEPTH = state.key("max_depth")
TOP_K = state.key("top_k")
SHOW_UNVISITED = state.key("show_unvisited")
SHOW_PV = state.key("show_pv")
LIMITS_OPEN = state.key("limits_open")
DETAILS_TAB = state.key("details_tab")
COLOUR_BY = state.key("colour_by")
EXPLORER_TREE = state.key("tree_view")
INSPECT = state.key("inspect")
INSPECT_ROOT = state.key("inspect_root")
INSPECT_UP = state.key("inspect_up")
INSPECT_STEP_IN = state.key("inspect_step_in")
CHILDREN_TABLE = state.key("children_table")
ENGINE_TABLE = state.key("engine_table")  # the root's children as the engine printed them
DOWNLOAD_CSV = state.key("download_csv")
DOWNLOAD_DOT = state.key("download_dot")

# The Explorer's part of a link or a bundle: the drawing limits and the inspected node.
LINK_LIMITS = {"budget": BUDGET, "depth": MAX_DEPTH, "topk": TOP_K, "unvisited": SHOW_UNVISITED, "colour": COLOUR_BY}
LIMIT_DEFAULTS = {BUDGET: 300, MAX_DEPTH: 0, TOP_K: 0, SHOW_UNVISITED: False, COLOUR_BY: "none"}
PICTURE_HEIGHT = 560  # px: the picture and the table side by side fit a 768 px projector
WIDE_PICTURE_HEIGHT = 620  # a tree drawn across the page (wide or left to right) takes its width


def open_linked_view(tree) -> None:
    """A link's or a bundle's drawing limits and inspected node, once."""
    for name, key in LINK_LIMITS.items():
        if (value := share.take(name)) is not None:
            st.session_state[key] = value
    if (linked_node := share.take("node")) is not None:
        st.session_state[INSPECT] = tree.format_path(linked_node)


def set_inspect(path_text: str) -> None:
    st.session_state[INSPECT] = path_text


def explain(choice, children) -> None:
    """One sentence above the table: why the selected child won, or that the choice is a draw."""
    if choice is None:
        st.info("This node is a leaf: selection stops here.")
    elif choice.winner.sampled:
        st.info(
            f"A chance node: its outcomes are sampled, not selected. The path follows the most "
            f"visited one, {code(choice.winner.move)} ({choice.winner.terms['share']:.0%} of the visits)."
        )
    elif choice.winner.random:
        st.warning(random_draw_warning(children))
    else:
        st.caption(why_sentence(choice))


def tree_facts(tree, kind: str) -> str:
    """Markdown: what the tree's numbers count, its depth and root mean (what C never changes)."""
    return f"{tree_counts(tree, kind)}, depth **{tree.max_depth}**, root mean **{tree.mean(ROOT):.3f}**"


def answer_row(tree, selected):
    """The answer first, big (what a teacher points at), then the Share button and the most visited
    line's toggle; returns (the slot for the Share button, the most visited line or None when it is off)."""
    path = selected.path
    row = metric_row([
        (
            "Selected path",
            # Follows the C control while it is dragged.
            live_text.metric_value("selected_path", "selected", "path", tree, path, selected.scoring.c),
            "The moves the selection rule follows from the root to a leaf at the current C; also in "
            "st.session_state['selected_path'].",
        ),
    ])
    share_slot = row.container(width="content")  # filled once the picture is known
    # The toggle and the line's words share one box, where the words wrap beside the toggle.
    pv_box = row.container(horizontal=True, wrap=False, vertical_alignment="center", gap="medium")
    return share_slot, pv_toggle(pv_box, tree, path)


def pv_default(read) -> None:
    """The most visited line is marked by default for an engine's log or tree, not for puzzle text
    (there the selected path is the point); set again for each new input."""
    if state.first_run_for_input("explorer", read.key):
        st.session_state[SHOW_PV] = read.read.kind != TEXT


def pv_sentence(tree, pv, path) -> str:
    """Markdown: the most visited line in moves, and where it leaves the selected path."""
    if len(pv) == 1:
        return "Most visited line: none (no child of the root has a visit)."
    shared = next((depth for depth, (a, b) in enumerate(zip(pv, path)) if a != b), min(len(pv), len(path)))
    if pv == tuple(path):
        where = "the same as the selected path"
    elif shared == 1:
        where = "it leaves the selected path at the root"
    else:
        where = f"it leaves the selected path after {code(tree.path(pv[shared - 1]))}"
    return f"{code(tree.path(pv[-1]))} (principal variation, orange in the picture): {where}."


def drawing_limits() -> tuple:
    """(budget, depth limit, top-k, unvisited) as the limit widgets hold them, read before they are
    drawn: the layout depends on the drawing."""
    for key, default in LIMIT_DEFAULTS.items():
        st.session_state.setdefault(key, default)
    return (
        st.session_state[BUDGET],
        st.session_state[MAX_DEPTH] or None,
        st.session_state[TOP_K] or None,
        st.session_state[SHOW_UNVISITED],
    )


def inspected_node(tree) -> tuple[int, str | None]:
    """The node the path box names (the deepest existing one on a path that leaves the tree) and,
    for such a path, what is wrong with it."""
    st.text_input(
        "Inspect node",
        key=INSPECT, persist_state="session", placeholder="root",
        help="The node's path: moves from the root, `ba` when every move is one character, else separated by "
        "spaces (`e4 e5`); empty for the root.",
    )
    wanted = st.session_state.get(INSPECT, "")
    try:
        return tree.find(wanted), None
    except KeyError as missing:
        return tree.deepest(wanted)[0], f"{missing.args[0]}; showing the deepest node that exists on that path."


def inspect_buttons(tree, inspected: int, children) -> None:
    """Root, Up, and Step in (into the child the rule picks)."""
    at_root = inspected == ROOT
    up = tree.path(tree.parent[inspected]) if not at_root else ""
    step_in = tree.path(children[0].node) if children else tree.path(inspected)
    st.button("⌂ Root", key=INSPECT_ROOT, on_click=set_inspect, args=("",), disabled=at_root)
    st.button("↑ Up", key=INSPECT_UP, on_click=set_inspect, args=(up,), disabled=at_root)
    st.button("↓ Step in", key=INSPECT_STEP_IN, on_click=set_inspect, args=(step_in,),
              disabled=not children, help="Step into the child the rule picks here.")


def table_columns(tree, inspected: int, table, rule) -> list[Column]:
    """The children table's columns as shown: the rule's value right after the move and its visits,
    so it is in view however many terms the rule has; rows come best first and the selected one is
    coloured, so rank and selected stay in the CSV only. Headers are short enough to show whole, so
    the rule's value fits a 1366-pixel page beside the picture."""
    first = ["move", "visits", "value"]
    names = first + [name for name in table.columns if name not in (*first, *rule.node_terms, "selected", "rank")]
    special = {
        "move": Column("move", "move", "text"),
        "visits": Column("visits", "visits", "int"),
        "total": Column("total", "total", total_format(table["total"])),
        "declared prior": Column("declared prior", "prior", "%.3f", "The prior the log declared."),
        "terminal": Column("terminal", "end", "flag", "The game ended at this child."),
        "mean": Column("mean", mean_header(tree, inspected), "%.4f"),
        "outcome": Column("outcome", rule.label("outcome"), "%+g", "A proven outcome for the player to move here."),
        VISITS_TO_FLIP: Column(VISITS_TO_FLIP, "to flip", "int",
                               "Visits to flip: how many more visits the selected child takes before this child's "
                               "value passes it, every mean and prior held (∞: never). Follows C when it is set."),
    }
    return [special.get(name) or Column(name, rule.label(name), "%.4f") for name in names]


def engine_panel(engine, selected: str | None, on_inspect) -> None:
    """The root's children as the engine printed them (its own columns and names), below ours; the
    child the rule picks in red as there."""
    table = engine_table(engine, selected)
    # As many digits as the engine printed; N and order are counts.
    columns = [Column("move", "move", "text")] + [
        Column(name, name, "int" if name in ("N", "order") else "%.6g", f"As {engine.engine} printed it.")
        for name in engine.columns
    ]
    st.caption(f"As {escape(engine.engine)} printed them (its own columns; a click inspects the child):")
    show_term_table(table, columns, row_keys=[path_json((move,)) for move in table["move"]],
                    label=f"The root's children as {engine.engine} printed them", key=ENGINE_TABLE,
                    on_inspect=on_inspect)


def children_panel(tree, inspected: int, children, scoring, engine) -> None:
    """The inspected node's children under the rule: why the best won, the table, the formula, the CSV."""
    rule = scoring.spec
    at_node = [f"{rule.label(term)} = {children[0].terms[term]:.6g}" for term in rule.node_terms
               if children and term in children[0].terms]
    st.markdown(node_sentence(tree, inspected) + f" Children under {escape(rule.name)} at C = {scoring.c:.6g}"
                + (f" ({escape(', '.join(at_node))} here)" if at_node else "") + ":")
    # Why first, then the terms that say it: both above the fold on a projector; the formula after them.
    explain(explain_choice(children, scoring.rule, tree.ties), children)
    table = children_table(tree, inspected, scoring, flips=True)
    rows = {path_json(tree.path_moves(child.node)): child.node for child in children}  # in the table's order

    def inspect_child(row_key: str) -> None:
        if row_key in rows:  # a key the browser made up inspects nothing
            set_inspect(tree.path(rows[row_key]))

    columns = table_columns(tree, inspected, table, rule)
    show_term_table(
        table, columns, row_keys=list(rows),
        label=f"Children of {tree.path(inspected) or 'the root'} under {rule.name}",
        key=CHILDREN_TABLE, on_inspect=inspect_child,
    )
    if (flip := next_flip(table)) is not None:
        st.caption(flip_sentence(*flip))
    if engine is not None and inspected == ROOT:
        engine_panel(engine, children[0].move if children else None, inspect_child)
    st.latex(rule.formula)
    st.download_button(
        "Download table (CSV)",
        lambda: csv_text(table, columns, extra=(*(t for t in rule.node_terms if t in table.columns), "rank", "selected")),
        file_name=f"children_{node_file_stem(tree.path(inspected))}.csv",
        mime="text/csv",
        key=DOWNLOAD_CSV,
        # No rerun: Streamlit's button sends the click's rerun before it asks for a file made on click,
        # and that run gives the file a new id; on a busy server the old one was gone (no download).
        on_click="ignore",
    )


def inspect_panel(tree, selected, loaded) -> int:
    """The inspected node, its buttons, and its children or the whole tree as an outline; returns the node."""
    # The path box and its buttons share one row: the children's table and why its first child won
    # stay above a 768-pixel projector's fold beside the picture.
    with st.container(horizontal=True, vertical_alignment="bottom", gap="small"):
        inspected, problem = inspected_node(tree)
        children = score_children(tree, inspected, selected.scoring)
        inspect_buttons(tree, inspected, children)
    if problem is not None:
        st.error(escape(problem))
    # Kept across runs (a row click reruns the page) and run only when shown: the outline of a big tree
    # costs nothing while the table is in front.
    children_tab, outline_tab = st.tabs(["Children", "Outline (any size)"], key=DETAILS_TAB, on_change="rerun")
    if children_tab.open:
        with children_tab, c_control.at_committed_c("selected", "children"):
            children_panel(tree, inspected, children, selected.scoring, loaded.read.engine)
    if outline_tab.open:
        with outline_tab, c_control.at_committed_c("selected", "outline"):
            show_outline(
                tree, selected.scoring, input_key=loaded.key, path=selected.path, inspected=inspected,
                on_select=lambda node: set_inspect(tree.path(node)),
            )
    return inspected


def pv_toggle(box, tree, path):
    """The most visited line's toggle in ``box`` and, when on, the line in words beside it; returns
    the line (None: off)."""
    box.toggle(
        "Most visited line", key=SHOW_PV, persist_state="session", width="content",
        help="Mark the principal variation (at each node the most visited child) in orange, with a button to show it.",
    )
    if not st.session_state[SHOW_PV]:
        return None
    pv = tuple(principal_variation(tree))
    box.markdown(pv_sentence(tree, pv, path))
    return pv


def limits_panel() -> None:
    """The drawing limits' widgets (their values were read before, by :func:`drawing_limits`)."""
    # Keyed, with its state kept: an edit reruns the page, which must not close it under the user.
    # Its widgets are drawn only while it is open (their values persist in the session): a commit
    # of C, which reruns this fragment, then sends and renders 11 fewer elements.
    limits_box = st.expander("Drawing limits (the table always uses the full tree)", key=LIMITS_OPEN, on_change="rerun")
    if not limits_box.open:
        return
    with limits_box:
        limits = st.columns(3)
        # Made with the page's default budget, not the minimum: a box whose value differs from the one it is
        # made with shows that one for a frame first (10, when Drawing limits opened on a budget of 300).
        limits[0].number_input("Node budget", *LIMIT_RANGES["budget"], value=LIMIT_DEFAULTS[BUDGET], step=50,
                               help=BUDGET_HELP, key=BUDGET, persist_state="session")
        limits[1].number_input("Depth limit (0 = none)", *LIMIT_RANGES["depth"], key=MAX_DEPTH, persist_state="session")
        limits[2].number_input("Top-k children (0 = all)", *LIMIT_RANGES["topk"], key=TOP_K, persist_state="session")
        toggles = st.columns([1, 1])
        toggles[0].toggle(
            "Draw unvisited children",
            key=SHOW_UNVISITED, persist_state="session",
            help="Children a log declared but no simulation has entered yet (0 visits).",
        )
        toggles[1].selectbox(
            "Colour nodes by",
            COLOURINGS,
            key=COLOUR_BY,
            persist_state="session",
            help="Fill each node by its mean (orange low, purple high) or by its visits; a key is drawn.",
        )


def picture_panel(tree, layout_key: str, drawn, selected, inspected: int, arrangement, pv):
    """The tree view of ``drawn`` and its DOT download; returns the function that makes the DOT."""
    scoring, path = selected.scoring, selected.path
    # Its bold "C = x" follows a drag of C, as the red path does.
    live_text.text("explorer_picture", [
        live_text.plain("Red: the selected path at "), live_text.c_part("selected", scoring.c),
        live_text.plain(". Blue outline: the inspected node (click a node to inspect it; arrow keys move). "
                        + folded_caption(hidden_count(tree, drawn))),
    ], cs={"selected": scoring.c})
    picture = Picture(
        tree,
        drawn,
        layout_key=layout_key,
        arrangement=arrangement,
        colouring=st.session_state[COLOUR_BY],
        path=path,
        inspected=inspected,
        principal_variation=pv,
        scoring=scoring,
        height=PICTURE_HEIGHT if arrangement.beside else WIDE_PICTURE_HEIGHT,
    )
    show_tree(picture, key=EXPLORER_TREE, on_click=lambda node: set_inspect(tree.path(node)))

    def drawn_dot() -> str:
        return render_tree(tree, drawn, path=path, inspected=inspected).source

    st.download_button(
        "Download drawn tree (DOT)", drawn_dot, file_name="mcts_tree.dot",  # made on click
        mime="text/vnd.graphviz", key=DOWNLOAD_DOT,
        on_click="ignore",  # no rerun: it would give every file made on click a new id (see the CSV's)
    )
    return drawn_dot


@st.fragment
def explore(setup) -> None:
    """Everything C changes: a C change reruns only this (the sidebar and the layout stay)."""
    tree = setup.tree
    selected = selected_path.select(setup)
    share_slot, pv = answer_row(tree, selected)
    visible = cached_visible_nodes(setup.input.key, tree, *drawing_limits())
    arrangement = arrange(tree, visible)
    if arrangement.beside:
        picture, details = st.columns([1, 1], gap="medium")
    else:  # a wide or deep tree needs the page's full width to stay readable
        picture, details = st.container(), st.container()
    with details:
        inspected = inspect_panel(tree, selected, setup.input)
    with picture:
        limits_panel()
        slider_paths = c_control.slider_path_nodes(setup.input, selected.scoring, visible)
        drawn = drawn_nodes(tree, visible, selected.path, slider_paths, inspected=inspected)
        drawn_dot = picture_panel(tree, setup.input.key, drawn, selected, inspected, arrangement, pv)
    with share_slot:
        share_panel.render(
            setup.input, selected.scoring, "", inspected=tree.path_moves(inspected), dot=drawn_dot,
            limits={name: st.session_state[key] for name, key in LINK_LIMITS.items()},
        )


setup = sidebar.require()
open_linked_view(setup.tree)
pv_default(setup.input)
# The tree's facts sit outside the fragment: a commit of C, which reruns it, need not send them again.
engine = setup.input.read.engine
st.caption(
    (f"**{escape(engine.title)}**. " if engine is not None else "")
    + f"The tree of {tree_facts(setup.tree, setup.input.read.kind)}, the path the selection rule follows at this C, and why each "
    "node picks the child it picks."
)
explore(setup)
