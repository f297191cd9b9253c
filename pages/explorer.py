"""Explorer: the tree with the selected path, and the inspected node's children with their terms."""

import streamlit as st

from mcts_core import ROOT, RULES
from mcts_core.explain import explain_choice
from mcts_core.render import fits_top_down, render_tree
from mcts_core.selection import score_children
from mcts_core.tables import children_table
from pages import input_panel
from pages.choice_text import why_sentence
from pages.markdown import code, escape

loaded = input_panel.require_input()
tree, c, path = loaded.tree, loaded.c, loaded.path
rule = RULES[loaded.rule]
scoring = {"rule": loaded.rule, "c": c, **loaded.settings}
selected = st.session_state["selected_path"]


@st.cache_resource(max_entries=64, show_spinner=False)
def cached_dot(input_key: str, visible_key: tuple, path: tuple, inspected: int, top_down: bool, _tree, _visible) -> str:
    """The DOT text of the picture: dragging C rarely moves the path, so most reruns reuse it."""
    graph = render_tree(_tree, _visible, path=path, inspected=inspected)
    if not top_down:
        graph.graph_attr["rankdir"] = "LR"
    return graph.source


def set_inspect(path_text: str) -> None:
    st.session_state["inspect"] = path_text


def explain(choice, children) -> None:
    """One sentence under the table: why the selected child won, or that the choice is a draw."""
    if choice is None:
        st.info("This node is a leaf: selection stops here.")
    elif choice.winner.random:
        odds = ", ".join(f"{code(child.move)} {child.probability:.0%}" for child in children)
        st.warning(
            f"Below the sample threshold this node draws a child at random ({odds}); the path "
            "follows the most likely one, ties to the smaller move."
        )
    else:
        st.caption(why_sentence(choice))


# The answer first, big: what a teacher points at.
columns = st.columns([3, 1, 1, 1, 1])
columns[0].metric(
    "Selected path",
    escape(selected) if selected else "(root is a leaf)",  # metric values render markdown
    help="The moves the selection rule follows from the root to a leaf at the current C; also in "
    "st.session_state['selected_path'].",
)
columns[1].metric("Playouts", f"{tree.playouts:,}")
columns[2].metric("Nodes", f"{len(tree):,}")
columns[3].metric("Depth", tree.max_depth)
columns[4].metric("Root mean", f"{tree.mean(ROOT):.3f}")

# Drawing limits are read before their widgets are drawn: the layout depends on the drawing.
for key, default in (("budget", 300), ("max_depth", 0), ("top_k", 0)):
    st.session_state.setdefault(key, default)
limits_key = (st.session_state["budget"], st.session_state["max_depth"] or None, st.session_state["top_k"] or None)
visible = input_panel.drawn_nodes(*limits_key)
top_down = fits_top_down(tree, visible)
if top_down:
    picture, details = st.columns([4, 3], gap="large")
else:  # a wide tree drawn left to right needs the page's full width to stay readable
    picture, details = st.container(), st.container()

with details:
    st.subheader("Inspect a node")
    st.text_input("Node path (empty = root)", key="inspect", help="Moves from the root, e.g. `ba`.")
    wanted = st.session_state.get("inspect", "")
    try:
        inspected = tree.find(wanted)
    except KeyError as missing:
        st.error(escape(f"{missing.args[0]}; showing the deepest node that exists on that path."))
        inspected, _ = tree.deepest(wanted)
    here = tree.path(inspected)
    children = score_children(tree, inspected, **scoring)
    buttons = st.columns(3)
    buttons[0].button("⌂ Root", on_click=set_inspect, args=("",), disabled=inspected == ROOT, width="stretch")
    buttons[1].button("↑ Up", on_click=set_inspect, args=(here[:-1],), disabled=inspected == ROOT, width="stretch")
    buttons[2].button(
        "↓ Step in",
        on_click=set_inspect,
        args=(here + children[0].move if children else here,),
        disabled=not children,
        width="stretch",
        help="Step into the child the rule picks here.",
    )

    st.markdown(
        f"Node {code(here) if here else '**root**'}: {tree.visits[inspected]:,} visits, "
        f"mean {tree.mean(inspected):.4f}. Children under {escape(rule.name)} at C = {c:.6g}:"
    )
    table = children_table(tree, inspected, **scoring)
    st.dataframe(
        table.style.apply(
            lambda row: ["background-color: #fde0dd; font-weight: bold" if row["selected"] else ""] * len(row),
            axis=1,
        ),
        hide_index=True,
        key="children_table",
        # Rows come best first and the selected one is coloured: rank and selected stay in the CSV.
        column_order=[name for name in table.columns if name not in ("selected", "rank")],
        column_config={
            "total": st.column_config.NumberColumn(format="%.4g"),
            "ucb": st.column_config.NumberColumn("UCB1" if loaded.rule == "ucb1" else "value", format="%.4f"),
            "exploration": st.column_config.NumberColumn(
                "C·√(ln N/n)" if loaded.rule == "ucb1" else "exploration", format="%.4f"
            ),
        }
        | {name: st.column_config.NumberColumn(format="%.4f") for name in rule.terms if name not in ("value", "exploration")},
    )
    explain(explain_choice(children), children)
    st.download_button(
        "Download table (CSV)",
        table.to_csv(index=False),
        file_name=f"children_{here or 'root'}.csv",
        mime="text/csv",
        key="download_csv",
    )

with picture:
    with st.expander("Drawing limits (the table always uses the full tree)"):
        limits = st.columns(3)
        limits[0].number_input("Node budget", 10, 5000, step=50, key="budget")
        limits[1].number_input("Depth limit (0 = none)", 0, 1000, key="max_depth")
        limits[2].number_input("Top-k children (0 = all)", 0, 100, key="top_k")
    dot = cached_dot(st.session_state["_input_key"], limits_key, path, inspected, top_down, tree, visible)
    hidden = len(tree) - len(visible | set(path) | set(tree.path_nodes(inspected)))
    st.caption(
        f"Red: the selected path at C = {c:.6g}. Blue outline: the inspected node. "
        + (f"{hidden:,} nodes folded into “+k more” boxes." if hidden > 0 else "All nodes drawn.")
    )
    # A wide tree is drawn left to right at a readable scale inside a scrolling box.
    with st.container(height="content" if top_down else 720, border=not top_down):
        st.graphviz_chart(dot, width="stretch")
    st.download_button(
        "Download drawn tree (DOT)",
        dot,
        file_name="mcts_tree.dot",
        mime="text/vnd.graphviz",
        key="download_dot",
    )
