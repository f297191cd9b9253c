"""Compare: two selection settings on the same tree (C1 vs C2, or rule A vs rule B) and where they split."""

import pandas as pd
import streamlit as st

from mcts_core import Scoring
from mcts_core.analysis import LARGEST_C, compare_paths, comparison_rows, suggest_c_range
from mcts_core.drawing import drawn_nodes, path_neighbourhood, render_tree
from ui.c import c_control, live_text, selected_path
from ui.common import state
from ui.common.colours import CHANGED_CELL, SECOND_ROW, SELECTED_ROW
from ui.common.markdown import code, escape
from ui.common.metric_row import metric_row
from ui.common.wording import node_markdown, plural, random_draw_warning
from ui.picture.drawn_nodes import BUDGET_HELP, LIMIT_RANGES, cached_visible_nodes
from ui.picture.tree_view import Picture, show_tree
from ui.setup import rule_panel
from ui.share import share, share_panel
from ui.shell import sidebar

RULE_B_PREFIX = "cmp_"  # setting B's rule widgets: the sidebar's keys with this prefix

# Session-state keys this module owns.
COMPARE_C = state.key("cmp_c")
COMPARE_AROUND_PATHS = state.key("cmp_around_paths")
COMPARE_BUDGET = state.key("cmp_budget")
COMPARE_MAX_DEPTH = state.key("cmp_max_depth")
COMPARE_TABLE = state.key("cmp_table")
COMPARE_DOWNLOAD_DOT = state.key("cmp_download_dot")
COMPARE_TREE = state.key("cmp_tree_view")
COMPARE_C_LIVE = state.key("cmp_c_live")  # B's slider that follows a drag in the browser

B_DIGITS = 6  # significant digits of B's C in its box


def set_c_b(c: float) -> None:
    st.session_state[COMPARE_C] = c


def style_rows(table: pd.DataFrame) -> pd.DataFrame:
    """Cell styles: each setting's choice in its path colour, changed ranks highlighted."""
    styles = pd.DataFrame("", index=table.index, columns=table.columns)
    styles.loc[table["rank A"] == 1, "move"] = SELECTED_ROW
    styles.loc[table["rank B"] == 1, "move"] = SECOND_ROW
    styles.loc[table["rank changed"], ["rank A", "rank B"]] = CHANGED_CELL
    return styles


def start_b(setup, setting_a: Scoring) -> None:
    """B's C on a first visit, or for an input that states its C (it sets A's): B explores twice as
    much as A, a comparison that often already shows something."""
    new_input = state.first_run_for_input("compare", setup.input.key)
    if COMPARE_C not in st.session_state or (new_input and setup.input.read.c is not None):
        doubled = 2 * setting_a.c
        set_c_b(doubled if 0 < doubled <= LARGEST_C else setting_a.c or 1.0)


def open_linked_b() -> None:
    """A link's setting B, once (after :func:`start_b`: the link is the newer word)."""
    rule_b, settings_b, c_b = share.take("rule_b"), share.take("settings_b"), share.take("c_b")
    if rule_b is not None:
        rule_panel.adopt_rule(rule_b, settings_b or {}, reset_others=True, prefix=RULE_B_PREFIX)
    if c_b is not None:
        set_c_b(c_b)


def setting_a_panel(setting_a: Scoring) -> None:
    st.subheader("Setting A: the sidebar's rule, the C above")
    # Its bold "C = x" follows a drag of A's C.
    live_text.text("compare_setting_a", live_text.described(setting_a, "selected"), cs={"selected": setting_a.c},
                   look="text", highlight="red")
    st.latex(setting_a.spec.formula)
    st.caption("Change A's rule in the sidebar and its C above; they drive every page.")


def b_slider_range(loaded, c_b: float) -> tuple[float, float]:
    """(max, step) of B's C slider: a few score spreads, and B's C (any rule: no UCB1 narrowing)."""
    return suggest_c_range(loaded.score_range, c_b)


def setting_b_panel(setup) -> Scoring:
    """B's rule, settings and C; returns B's scoring."""
    st.subheader("Setting B")
    # B's C first, over its rule: on a 768-pixel projector it is on screen with the picture and the verdict.
    c_slot = st.container()
    rule_b, settings_b = rule_panel.render(setup.input.annotations, set_c=set_c_b, prefix=RULE_B_PREFIX)
    max_c, step = b_slider_range(setup.input, st.session_state[COMPARE_C])
    scoring_b = Scoring(rule_b, st.session_state[COMPARE_C], settings_b)
    with c_slot:
        # Dragged, B's path (teal), the verdict and the box follow before release.
        c_control.live_slider(setup.input, scoring_b, max_c=max_c, step=step, key=COMPARE_C_LIVE,
                              on_commit=set_c_b, role="second", label=scoring_b.spec.c_label + " (B)",
                              path_label="Path B", exact=COMPARE_C, exact_digits=B_DIGITS)
        c_b = st.number_input(
            Scoring(rule_b).spec.c_label + " (B)",
            min_value=0.0,
            # Made with B's C in effect: a box made with another value shows that one for a frame first.
            value=st.session_state[COMPARE_C],
            step=max_c / 100,  # coarser than the sidebar slider: the +/- buttons are for quick nudges
            format=f"%.{B_DIGITS}g",
            key=COMPARE_C, persist_state="session",
            help="Any C >= 0; type an exact value or step with +/-.",
        )
    return Scoring(rule_b, c_b, settings_b)


def summary(tree, comparison, setting_a: Scoring, setting_b: Scoring) -> None:
    """Both paths and where they part: the answer on top. Each follows its C control while it is
    dragged; the verdict and the sentence under it follow either."""
    c_a, c_b = setting_a.c, setting_b.c
    verdict, sentence = live_text.verdict("compare_verdict", tree, comparison, c_a, c_b)
    metric_row([
        ("Path A", live_text.metric_value("compare_path_a", "selected", "path", tree, comparison.path_a, c_a),
         f"A: {setting_a.describe()}"),
        ("Path B", live_text.metric_value("compare_path_b", "second", "path", tree, comparison.path_b, c_b),
         f"B: {setting_b.describe()}"),
        ("Length A", live_text.metric_value("compare_length_a", "selected", "length", tree, comparison.path_a, c_a)),
        ("Length B", live_text.metric_value("compare_length_b", "second", "length", tree, comparison.path_b, c_b)),
        ("Paths", verdict, "Where the two selected paths part: the deepest node both contain."),
    ])
    sentence.show()


def drawn_for(setup, comparison, setting_a: Scoring, setting_b: Scoring) -> set[int]:
    """What to draw: the paths and the children they chose among, or the most visited nodes; and
    every path A's and B's C sliders can select (:func:`ui.c.c_control.slider_path_nodes`), so that
    a dragged path is drawn whole at every C and a commit reuses the drawing.

    Around the paths, the children every such path chose among are drawn too when they add at most
    :data:`ui.c.c_control.SLIDER_PATHS_MAX_EXTRA` nodes: then the drawing does not change with C at all.
    """
    tree = setup.tree
    with st.expander("What to draw"):
        around = st.toggle(
            "Only the paths and the children they chose among",
            value=True,
            key=COMPARE_AROUND_PATHS, persist_state="session",
            help="On: every path A's and B's sliders can select (when they are few) and the children they chose "
            "among. Off: the most visited nodes, like the Explorer. The paths are always drawn.",
        )
        limits = st.columns(2)
        budget = limits[0].number_input(
            "Node budget", *LIMIT_RANGES["budget"], 300, step=50, help=BUDGET_HELP,
            key=COMPARE_BUDGET, persist_state="session", disabled=around,
        )
        depth_limit = limits[1].number_input(
            "Depth limit (0 = none)", *LIMIT_RANGES["depth"], 0, key=COMPARE_MAX_DEPTH, persist_state="session", disabled=around
        )
    if around:
        visible = path_neighbourhood(tree, comparison.path_a, comparison.path_b)
    else:
        visible = cached_visible_nodes(setup.input.key, tree, budget, depth_limit or None)
    slider_a = c_control.slider_path_nodes(setup.input, setting_a, visible)
    max_c_b, _ = b_slider_range(setup.input, setting_b.c)
    slider_b = c_control.slider_path_nodes(setup.input, setting_b, visible | slider_a, max_c=max_c_b)
    if around:
        # path_neighbourhood takes any union of paths: their nodes and every child of each.
        every_choice = path_neighbourhood(tree, slider_a | slider_b)
        if len(every_choice - visible) <= c_control.SLIDER_PATHS_MAX_EXTRA:
            visible |= every_choice
    return drawn_nodes(tree, visible, comparison.path_a, comparison.path_b, slider_a, slider_b)


def picture(setup, comparison, setting_a: Scoring, setting_b: Scoring) -> None:
    """Both paths drawn, the DOT download and the share panel (for setting A, the sidebar's)."""
    tree = setup.tree
    drawn = drawn_for(setup, comparison, setting_a, setting_b)
    # Its bold "C = x" parts follow a drag of A's C and of B's, as the red and teal paths do.
    live_text.text("compare_picture", [
        live_text.plain("Red: A's path ("), *live_text.described(setting_a, "selected"),
        live_text.plain("). Teal, dashed: B's path ("), *live_text.described(setting_b, "second"),
        live_text.plain("). Purple: on both. A box's “+k more” line counts its children not drawn."),
    ], cs={"selected": setting_a.c, "second": setting_b.c})
    show_tree(Picture(tree, drawn, layout_key=setup.input.key, path=comparison.path_a, second_path=comparison.path_b,
                      scoring=setting_a, height=480), key=COMPARE_TREE)
    exports = st.columns(2)
    with exports[0]:
        st.download_button(
            "Download drawn tree (DOT)",
            lambda: render_tree(
                tree, drawn, path=comparison.path_a, second_path=comparison.path_b,
                legend=("A: " + setting_a.describe("\n"), "B: " + setting_b.describe("\n")),  # one part per line
            ).source,
            file_name="mcts_compare.dot",
            mime="text/vnd.graphviz",
            key=COMPARE_DOWNLOAD_DOT,
            on_click="ignore",  # no rerun: it would give every file made on click a new id
            width="stretch",
        )
    with exports[1]:  # the link and the bundle hold setting A (the sidebar's)
        share_panel.render(setup.input, setting_a, "compare", b=setting_b)


def split_notes(comparison) -> str:
    notes = [
        "Move in red: A's choice; in teal: B's. Yellow ranks: the child's rank differs between A and B. "
        "Δ = B − A; a term without A/B is the same under both."
    ]
    if comparison.only_a:
        notes.append(f"Only A has {escape(', '.join(comparison.only_a))}.")
    if comparison.only_b:
        notes.append(f"Only B has {escape(', '.join(comparison.only_b))}.")
    return " ".join(notes)


def split_panel(tree, comparison) -> None:
    """The node where the paths part: its children under both settings."""
    st.subheader("Where the paths split")
    if comparison.identical:
        st.caption("Nothing to compare: the paths never part.")
        return
    split = comparison.split
    st.markdown(
        f"Node {node_markdown(tree.path(split))}: {plural(int(tree.visits[split]), 'visit')}, mean {tree.mean(split):.4f}. "
        f"A picks {code(tree.move[comparison.choice_a])}, B picks {code(tree.move[comparison.choice_b])}. "
        "Its children under both settings:"
    )
    table = pd.DataFrame(comparison_rows(comparison))
    terms = [name for name in table.columns if name not in ("move", "visits", "rank A", "rank B", "rank changed")]
    st.dataframe(
        table.style.apply(style_rows, axis=None),
        hide_index=True,
        key=COMPARE_TABLE,
        column_order=[name for name in table.columns if name != "rank changed"],  # the highlight says it
        column_config={name: st.column_config.NumberColumn(format="%.4f") for name in terms},
    )
    st.caption(split_notes(comparison))
    for side, scores in (("A", [child.a for child in comparison.children]), ("B", [child.b for child in comparison.children])):
        if scores[0].random:
            st.warning(random_draw_warning(scores, whose=f"this node (setting {side})"))


@st.fragment
def compare_page(setup) -> None:
    """The whole page: moving A's C or B's settings reruns only this."""
    tree = setup.tree
    setting_a = selected_path.select(setup).scoring
    start_b(setup, setting_a)
    open_linked_b()
    summary_slot = st.container()  # filled once B is known, but shown first: the answer on top
    # The settings beside the picture, not above it: on a 768-pixel projector the picture starts on screen.
    settings, drawing = st.columns([2, 3], gap="large")
    with settings:
        # B first: A's rule and C are the sidebar's and the C control's above, B's are set here.
        with st.container(border=True):
            setting_b = setting_b_panel(setup)
        with st.container(border=True):
            setting_a_panel(setting_a)
    comparison = compare_paths(tree, setting_a, setting_b)
    with summary_slot:
        summary(tree, comparison, setting_a, setting_b)
    with drawing:
        picture(setup, comparison, setting_a, setting_b)
    with c_control.at_committed_c("any", "split"):
        split_panel(tree, comparison)


setup = sidebar.require()
st.caption("Two selection settings on the same tree: where their paths part, and which terms made the difference.")
compare_page(setup)
