"""Classroom: predict which child UCB1 picks, then reveal the terms and why, node by node to a leaf."""

import pandas as pd
import streamlit as st

from mcts_core import RULES, ROOT, UCB1, Scoring, score_children
from mcts_core.analysis import explain_choice, ucb1_latex
from mcts_core.model import Playback
from mcts_core.drawing import drawn_nodes
from ui.c import c_control, selected_path
from ui.common import state
from ui.common.markdown import code, escape
from ui.common.wording import mean_header
from ui.common.wording import node_markdown, plural, why_sentence
from ui.picture.drawn_nodes import cached_visible_nodes
from ui.picture.tree_view import Picture, show_tree
from ui.room import live_room
from ui.share import share, share_panel
from ui.shell import sidebar

# Session-state keys this module owns.
PATH = state.key("class_path")  # moves from the root to the node the class is looking at
GUESS = state.key("class_guess")  # the move the student clicked at that node, None before the guess
SCORE = state.key("class_score")  # (right guesses, guesses)
CLASS_PRESENTATION = state.key("class_presentation")
CLASS_NEXT = state.key("class_next")
CLASS_RESTART = state.key("class_restart")
CLASS_TREE = state.key("class_tree_view")
CLASS_TERMS = state.key("class_terms")  # the container of the terms' table (sized for the presentation view)
# The presentation view's picture has its own key, so it opens on its own view at the larger labels
# instead of keeping the small-label view the normal picture was left at.
CLASS_PROJECTOR_TREE = state.key("class_projector_tree_view")
GUESS_BUTTON = state.key_family("class_guess_{}")
GUESS_MENU = state.key("class_guess_menu")  # the guess among more children than buttons can show

STORY_STEPS = 4
MOST_BUTTONS = 12  # more children than this are guessed from a menu (a joint node can have thousands)
MOST_REVEALED = 10  # the reveal's table shows the best children, and the guess wherever it ranks
PROJECTOR_LABEL_PX = 18  # the picture's smallest label in the presentation view, as large as its text

# Static CSS, no user text: bigger type for a projector. The reveal table is an st.table (HTML),
# so it scales with the page, unlike the canvas of st.dataframe.
PRESENTATION_CSS = """
<style>
.stMainBlockContainer p, .stMainBlockContainer li { font-size: 1.3rem; line-height: 1.45; }
.stMainBlockContainer h2 { font-size: 2.1rem; padding-top: 0; }
.stMainBlockContainer table { font-size: 1.25rem; }
/* The terms' table sits in the narrower column beside the picture: every column stays in it. */
.stMainBlockContainer .st-key-class_terms table { font-size: 1.05rem; }
.stMainBlockContainer .st-key-class_terms :is(th, td) { padding: 0.25rem 0.375rem; }
.stMainBlockContainer .stButton button p { font-size: 1.3rem; white-space: normal; }
.stMainBlockContainer .katex { font-size: 1.5em; }
.stMainBlockContainer code { font-size: 1em; }
</style>
"""


def restart() -> None:
    st.session_state[PATH] = ""
    st.session_state[GUESS] = None
    st.session_state[GUESS_MENU] = None
    st.session_state[SCORE] = (0, 0)


def guess(move: str, right: bool) -> None:
    st.session_state[GUESS] = move
    hits, asked = st.session_state[SCORE]
    st.session_state[SCORE] = (hits + right, asked + 1)


def next_node(path_text: str) -> None:
    st.session_state[PATH] = path_text
    st.session_state[GUESS] = None
    st.session_state[GUESS_MENU] = None


def guess_from_menu(children) -> None:
    move = st.session_state[GUESS_MENU]
    if move is not None:
        guess(move, next(child.selected for child in children if child.move == move))


def open_linked_node(tree) -> None:
    """A link's node, once: the class looks at it (a node the tree lacks is refused, the walk restarts)."""
    linked = share.take("node")
    if linked is None:
        return
    try:
        tree.find(linked)
    except KeyError as missing:
        st.warning(escape(f"The link's node was ignored: {missing.args[0]}"), icon="🔗")
        return
    next_node(tree.format_path(linked))


def node_name(tree, node: int) -> str:
    return node_markdown(tree.path(node), root="the root")


def subject(tree, node: int) -> str:
    """The node as the subject of a sentence."""
    return f"Node {node_name(tree, node)}" if node != ROOT else "The root"


def question(tree, node: int, choice) -> None:
    """The question at this node (or that it is a leaf)."""
    if choice is None:
        st.markdown(f"## {subject(tree, node)} is a leaf")
    else:
        st.markdown(f"## Which child does UCB1 pick at {node_name(tree, node)}?")


def facts(tree, node: int, c: float) -> None:
    """The node's facts at this C, and the score so far."""
    hits, asked = st.session_state[SCORE]
    st.caption(
        f"C = {c:.6g}. {subject(tree, node)}: {plural(tree.visits[node], 'visit')}, mean {tree.mean(node):.4g}. "
        f"Score so far: {hits} of {asked} right."
    )


def ask(tree, node: int, choice, children, guessed: str | None, *, per_row: int) -> None:
    """A button per child (``per_row`` at most in a row), or at a leaf the path selection ends with."""
    if choice is None:
        st.success(
            f"Selection stops here. The selected path is {code(tree.path(node))}."
            if node != ROOT else "The root has no children: the selected path is empty."
        )
    else:
        guess_buttons(children, guessed, per_row)


def child_words(child) -> str:
    """A child as a guess names it: its move, visits and mean (plain text)."""
    return f"{child.move} · {plural(child.visits, 'visit')}" + (
        f" · mean {child.terms['mean']:.3g}" if child.visits else " · unvisited")


def guess_buttons(children, guessed: str | None, per_row: int) -> None:
    """One button per child, in move order, never in rank order: the order must not give the answer
    away. More children than :data:`MOST_BUTTONS` are one menu (in move order too)."""
    by_move = sorted(children, key=lambda child: child.move)
    if len(by_move) > MOST_BUTTONS:
        words = {child.move: child_words(child) for child in by_move}
        st.selectbox(
            f"Choose the child you think UCB1 picks among its {len(by_move):,} children (type to find one):",
            list(words), index=None, format_func=words.__getitem__, key=GUESS_MENU, placeholder="Your guess…",
            on_change=guess_from_menu, args=(children,), disabled=guessed is not None,
        )
        return
    st.markdown("Click the child you think UCB1 picks:" if guessed is None else "Your guess:")
    buttons = st.columns(min(len(by_move), per_row))
    for index, child in enumerate(by_move):
        chosen = child.move == guessed
        # Disabled buttons all look grey whatever their type: the guess is marked in its label too.
        buttons[index % len(buttons)].button(
            ("Your guess: " if chosen else "")
            + f"**{escape(child.move)}** · {plural(child.visits, 'visit')}"
            + (f" · mean {child.terms['mean']:.3g}" if child.visits else " · unvisited"),
            key=GUESS_BUTTON.format(index),
            on_click=guess,
            args=(child.move, child.selected),
            disabled=guessed is not None,
            type="primary" if chosen else "secondary",
            icon=":material/check_circle:" if chosen else None,
            width="stretch",
        )


def lesson(tree, node: int, choice, children, guessed: str | None, *, narrow: bool) -> None:
    """After a guess: right or not, the step to the next node (beside the verdict, or under it in a
    ``narrow`` column), the terms and why; always the way back to the root."""
    if choice is not None and guessed is not None:
        winner = choice.winner
        said, step = (st.container(), st.container()) if narrow else st.columns([3, 2], vertical_alignment="center")
        if guessed == winner.move:
            said.success(f"Right: UCB1 picks {code(winner.move)}.")
        else:
            said.error(f"Not this time: you picked {code(guessed)}, UCB1 picks {code(winner.move)}.")
        step.button(
            f"Next node: {escape(winner.move)} ▶", key=CLASS_NEXT, on_click=next_node,
            args=(tree.path(winner.node),), type="primary", width="stretch",
        )
        shown = [child for child in children if child.rank <= MOST_REVEALED or child.move == guessed]  # best first
        with st.container(key=CLASS_TERMS):
            st.table(
                pd.DataFrame(
                    {
                        "move": code(child.move) + (" ✔" if child.selected else ""),
                        "visits": f"{child.visits:,}",
                        mean_header(tree, node): f"{child.terms['mean']:.3f}",
                        "exploration": f"{child.terms['exploration']:.3f}",
                        "UCB1": f"{child.value:.3f}",
                    }
                    for child in shown
                ),
            )
            if len(shown) < len(children):
                st.caption(f"The best {MOST_REVEALED} of {len(children):,} children and your guess; the "
                           "Explorer's table has them all.")
        st.markdown(why_sentence(choice))
    st.button("↺ Restart from the root", key=CLASS_RESTART, on_click=restart)


def walked_picture(setup, node: int, scoring, presentation: bool) -> None:
    """The tree with the path walked so far and the node choosing now (hovers: UCB1 at this C),
    laid out along the walk (then the most visited line), opening on the node and its children. Not
    along UCB1's path: the child on the walk's straight row would give the answer away."""
    tree = setup.tree
    walked = tree.path_nodes(node)
    visible = cached_visible_nodes(setup.input.key, tree, 40 if presentation else 300)
    picture = Picture(
        tree,
        drawn_nodes(tree, visible, walked, inspected=node),
        layout_key=setup.input.key,
        path=walked,
        path_follows_c=False,  # the walk so far; a new C restarts it
        opening="inspected",
        inspected=node,
        scoring=scoring,
        height=340 if presentation else 480,
        label_px=PROJECTOR_LABEL_PX if presentation else 12,
    )
    show_tree(picture, key=CLASS_PROJECTOR_TREE if presentation else CLASS_TREE)


def legend(tree, node: int, choice, children, guessed: str | None, c: float, presentation: bool) -> None:
    """The picture's legend and UCB1's formula, filled in at this node (and per child after a guess)."""
    with st.expander("Legend and formula", expanded=presentation):
        st.markdown(
            ":red[**Red**]: the path walked so far, from the root. :blue[**Blue double outline**]: the "
            "node choosing now. Each box: the move, n = visits, μ = mean score."
        )
        st.latex(r"\mathrm{UCB1}(M) = " + RULES[UCB1].formula)
        if choice is None:
            return
        st.caption(f"At {node_name(tree, node)}, N.v = {tree.visits[node]:,} and C = {c:.6g}:")
        st.latex(r"\mathrm{UCB1}(M) = " + ucb1_latex(tree.visits[node], c=c))
        if guessed is not None:
            for child in children:
                st.caption(f"Child {code(child.move)}:")
                st.latex(ucb1_latex(tree.visits[node], child.visits, child.total, c=c))


def story_line(tree, step) -> str:
    """One playout of the story: what it walked through, what it created, the root after it."""
    walked_through = [node_name(tree, n) for n in step.path[1:] if n != step.created]
    through = f" walked through {', '.join(walked_through)} and" if walked_through else ""
    if step.created is None:
        outcome = " found its whole word already in the tree and created nothing"
    else:
        outcome = f" created node {node_name(tree, step.created)} with 1 visit and mean {step.score:g}"
    root_after = step.after[0]
    return (
        f"1. Playout {step.k} {code(f'{step.word} {step.score:g}')}{through}{outcome}. "
        f"The root now has {plural(root_after.visits, 'visit')}, mean {root_after.mean:.4g}."
    )


def story(tree, playouts) -> None:
    """How MCTS built this tree: its first playouts, one line each."""
    with st.expander("How MCTS builds this tree", expanded=False):
        if playouts is None:
            st.markdown("This input is a finished tree (a JSON tree dump): it does not record how it was built.")
            return
        steps = Playback(playouts, tree).first_steps(min(STORY_STEPS, tree.playouts))
        st.markdown(
            "Every playout adds one visit and its score to the root and to each node on its word that "
            "already exists, creates the first missing node, and stops there.\n\n"
            + "\n".join(story_line(tree, step) for step in steps)
        )
        if tree.playouts > len(steps):
            st.markdown(f"… and so on for all {tree.playouts:,} playouts. The Playback page replays every one.")
        st.markdown(
            "Then selection starts at the root and repeatedly steps into the child with the largest UCB1 "
            "value until it reaches a node with no children."
        )


def presentation_toggle(setup, scoring) -> None:
    """The toggle at the left, the room and share buttons at the right, each as wide as its label:
    in the presentation view's larger type the buttons move under the toggle rather than be cut."""
    with st.container(horizontal=True, horizontal_alignment="distribute", vertical_alignment="center"):
        st.toggle("Presentation view (large text for a projector)", key=CLASS_PRESENTATION, persist_state="session")
        with st.container(horizontal=True, width="content", vertical_alignment="center"):
            live_room.open_button(setup, setup.tree.find(st.session_state[PATH]), scoring.c)
            live_room.join_box()
            share_panel.render(setup.input, scoring, "classroom", inspected=setup.tree.split_path(st.session_state[PATH]))


@st.fragment
def classroom_page(setup) -> None:
    """The whole exercise: C, guesses and steps rerun only this."""
    tree = setup.tree
    presentation = st.session_state.get(CLASS_PRESENTATION, False)
    # The control names the answer (the path, the ranked children, where they change) only while C
    # is dragged. It never folds away: a teacher works with it between questions.
    scoring = selected_path.select(setup, reveal_at_rest=False).scoring
    c = scoring.c
    # A new input or another C is a new exercise: the walk so far may not be UCB1's path any more.
    if state.first_run_for_input("classroom", f"{setup.input.key}|{c!r}"):
        restart()
    open_linked_node(tree)
    presentation_toggle(setup, scoring)
    if presentation:
        st.html(PRESENTATION_CSS)

    node = tree.find(st.session_state[PATH])
    children = score_children(tree, node, Scoring(UCB1, c))
    choice = explain_choice(children, UCB1, tree.ties)
    guessed = st.session_state[GUESS]
    # The exercise is at the committed C (a commit restarts it): dimmed while C is dragged.
    with c_control.at_committed_c("selected", "question"):
        question(tree, node, choice)
        if not presentation:
            facts(tree, node, c)
            ask(tree, node, choice, children, guessed, per_row=4)
    if presentation:
        # On a projector everything but the title stands beside the picture, which gets the wider
        # column and the window's height below the title: a small tree shows whole at the large
        # labels. After the guess the verdict says what was guessed: its buttons make room.
        left, picture = st.columns([2, 3], gap="large")
        with left, c_control.at_committed_c("selected", "lesson"):
            facts(tree, node, c)
            if guessed is None:
                ask(tree, node, choice, children, guessed, per_row=1)
            lesson(tree, node, choice, children, guessed, narrow=True)
    else:
        picture, right = st.columns([1, 1], gap="large")
        with right, c_control.at_committed_c("selected", "lesson"):
            lesson(tree, node, choice, children, guessed, narrow=False)
    with picture:
        walked_picture(setup, node, Scoring(UCB1, c), presentation)
    with c_control.at_committed_c("selected", "legend"):
        legend(tree, node, choice, children, guessed, c, presentation)
    story(tree, setup.input.playouts)


room = live_room.link_code()
if room is not None:  # a live room's page: the teacher's view or a student's
    live_room.show(room)
else:
    setup = sidebar.require()
    st.caption("Predict which child UCB1 picks, then see the terms that decided, node by node down to a leaf.")
    classroom_page(setup)
