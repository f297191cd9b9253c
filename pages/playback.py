"""Playback: watch the tree grow playout by playout, and the root children's statistics race; on
request, the path the sidebar's rule selects at C in each frame's tree, with C's live slider; the
search over time at a node (its children against its visits), which a click moves k to. An engine's
file has nothing to replay: the page shows its search over time, update by update, a click showing
that update."""

import io
from dataclasses import replace

import pandas as pd
import streamlit as st

from mcts_core import ROOT, ParseError, Scoring
from mcts_core.analysis import (
    NAMED_CHILDREN,
    OTHERS,
    Convergence,
    GroupedSeries,
    NoOrder,
    convergence,
    selected_over_time,
    update_series,
)
from mcts_core.model import Playback, default_stride, race
from mcts_core.drawing import drawn_nodes, hidden_count, visible_nodes
from ui.c import c_control, live_text, selected_path
from ui.c.rule_sweep import rule_key
from ui.charts.convergence_charts import PICK, over_time_specs, with_k
from ui.charts.playback_charts import race_chart
from ui.common import counted_steps, state
from ui.common.markdown import escape
from ui.common.metric_row import metric_row
from ui.common.wording import RunWords, folded_caption, mean_header, node_file_stem, node_label, run_words
from ui.picture.drawn_nodes import BUDGET_HELP, LIMIT_RANGES
from ui.picture.tree_view import Picture, show_tree
from ui.setup import input_panel
from ui.setup.inputs import LoadedInput
from ui.share import share, share_panel
from ui.shell import sidebar

# Session-state keys this module owns.
K = state.key("playback_k")
PLAYING = state.key("playback_playing")
PLAYBACK_STRIDE = state.key("playback_stride")
PLAYBACK_DELAY = state.key("playback_delay")
PLAYBACK_BUDGET = state.key("playback_budget")
PLAYBACK_PLAY = state.key("playback_play")
PLAYBACK_PREVIOUS = state.key("playback_prev")
PLAYBACK_NEXT = state.key("playback_next")
STEP_GROUP = "playback"  # Previous and Next: one count of clicks
PLAYBACK_PATH_TABLE = state.key("playback_path_table")
PLAYBACK_TREE = state.key("playback_tree_view")
PLAYBACK_RULE_PATH = state.key("playback_rule_path")  # the toggle: draw the path the rule selects at C
SHARED_VIEW = state.key("playback_shared_view")  # (k, C, rule path shown) as the Share link holds them
OVER_TIME_NODE = state.key("playback_over_time_node")  # the path of the node whose search over time is shown
OVER_TIME_SHARE = state.key("playback_over_time_share")  # the charts: a click on either moves k
OVER_TIME_VALUE = state.key("playback_over_time_value")
OVER_TIME_CSV = state.key("playback_over_time_csv")

ENGINE_VALUE_TITLE = "value (the mover's)"  # an engine's winrate, Q or utility, for the player who makes the move
DELAYS = [0.25, 0.5, 1.0, 2.0, 3.0]  # seconds per step; a step draws a new tree in the browser


@st.cache_resource(max_entries=2, show_spinner="Preparing the playback…")
def cached_playback(key: str, _playouts, _tree) -> Playback:
    """One Playback (its kept state and recent frames) per input, shared by sessions."""
    return Playback(_playouts, _tree)


@st.cache_data(max_entries=4, show_spinner=False)
def cached_race(key: str, _playback: Playback) -> pd.DataFrame:
    return pd.DataFrame(race(_playback.tree, _playback.playouts).columns())


def keep_k_in_range(count: int) -> None:
    """k starts at 1 (or a link's k) and stays within the input (a shorter input may have come in)."""
    if (linked_k := share.take("k")) is not None:
        st.session_state[K] = linked_k
    if (linked_rule_path := share.take("rule_path")) is not None:
        st.session_state[PLAYBACK_RULE_PATH] = linked_rule_path
    st.session_state.setdefault(K, 1)
    st.session_state[K] = min(max(st.session_state[K], 1), count)


def stride_for_input(input_key: str, count: int) -> None:
    """Each input starts at its own playouts per step (a whole replay in about a minute); the user's
    own choice stays while the input does."""
    if state.first_run_for_input("playback", input_key) or PLAYBACK_STRIDE not in st.session_state:
        st.session_state[PLAYBACK_STRIDE] = default_stride(count)


def move_k(steps: int, count: int) -> None:
    st.session_state[K] = min(max(st.session_state[K] + steps * st.session_state[PLAYBACK_STRIDE], 1), count)


def toggle_play(count: int) -> None:
    playing = not st.session_state.get(PLAYING, False)
    st.session_state[PLAYING] = playing
    if playing and st.session_state[K] >= count:  # play again from the start
        st.session_state[K] = 1


def shown_view() -> tuple[int, float, bool]:
    """What the frame shows that the Share link holds: k, C and whether the rule's path is drawn."""
    return st.session_state[K], c_control.current_c(), st.session_state.get(PLAYBACK_RULE_PATH, False)


def controls(setup, count: int, playing: bool, words: RunWords) -> tuple[float, int]:
    """Play, speed, stride (a whole replay in about a minute by default), drawing budget and share;
    returns (seconds per step, budget)."""
    row = st.columns([1.1, 2, 1.7, 2.3, 1.2], vertical_alignment="bottom")
    row[0].button(
        "Pause" if playing else "Play", key=PLAYBACK_PLAY, on_click=toggle_play, args=(count,), width="stretch",
        icon=":material/pause:" if playing else ":material/play_arrow:",
        disabled=count == 1, type="primary",
    )
    delay = row[1].select_slider(
        "Speed (seconds per step)", DELAYS, value=1.0, key=PLAYBACK_DELAY, persist_state="session",
        help="How long each tree stays on screen while playing.",
    )
    # Made with the value in effect: a box made with another one shows that one for a frame first.
    row[2].number_input(
        f"{words.runs_title} per step", 1, max(count, 1), st.session_state[PLAYBACK_STRIDE], key=PLAYBACK_STRIDE,
        persist_state="session",
        help="How far Previous, Next and Play move k: by default a whole replay takes about a minute; "
        "lower it for a finer step.",
    )
    budget = row[3].number_input(
        "Most nodes drawn", *LIMIT_RANGES["budget"], 300, step=50, key=PLAYBACK_BUDGET, persist_state="session",
        help=BUDGET_HELP,
    )
    with row[4]:  # outside the frame's fragment: playing must not add a browser history entry per step
        st.session_state[SHARED_VIEW] = k, c, rule_path = shown_view()
        share_panel.render(setup.input, Scoring(setup.rule, c, setup.settings), "playback", k=k, rule_path=rule_path)
    return delay, budget


def stepper(count: int, words: RunWords) -> int:
    """Previous, the k slider and Next (every click counts, however fast); returns k."""
    if (clicked := counted_steps.clicked((PLAYBACK_PREVIOUS, PLAYBACK_NEXT), STEP_GROUP)) is not None:
        st.session_state[K] = min(max(clicked, 1), count)
    row = st.columns([1.3, 7, 1.3], vertical_alignment="bottom")  # "◀ Previous" fits at 1366 px
    k, stride = st.session_state[K], st.session_state[PLAYBACK_STRIDE]
    with row[0]:
        counted_steps.button("◀ Previous", key=PLAYBACK_PREVIOUS, group=STEP_GROUP, step=-stride, value=k, low=1,
                             high=count)
    if count > 1:
        row[1].slider(f"{words.runs_title} replayed (k)", 1, count, key=K, persist_state="session")
    else:
        row[1].caption(f"The input has a single {words.run}.")
    with row[2]:
        counted_steps.button("Next ▶", key=PLAYBACK_NEXT, group=STEP_GROUP, step=stride, value=k, low=1, high=count)
    return k


def what_run_k_did(tree, step, k: int, count: int, rule: selected_path.SelectedPath | None, words: RunWords) -> None:
    """The playout's (or simulation's) metrics (and the rule's path at C when it is drawn), then a sentence."""
    new_node = words.new_node_of(step)
    metrics = [
        (words.run.capitalize(), f"{k:,} / {count:,}"),
        (words.path, escape(step.word) or "(empty)", f"Input line {step.line}."),
        words.returns_metric(step.returns),
        (words.new_node, escape(node_label(tree.path(new_node))) if new_node is not None else "none"),
    ]
    if rule is not None:  # follows a drag of C
        metrics.append(("Path at C", live_text.metric_value("playback_rule_path", "second", "path", tree, rule.path,
                                                            rule.scoring.c),
                        f"Teal, dashed in the picture: the path the sidebar's rule selects at C in the tree after "
                        f"{words.runs(k)} (not this {words.run}'s)."))
    metric_row(metrics)
    st.markdown(words.sentence(tree, step))


def frame_picture(tree, step, budget: int, layout_key: str, rule_path: tuple[int, ...] | None, words: RunWords) -> None:
    """The tree after playout k, with the path it updated, the node it created (a simulation's: the
    node it visited first) and, when asked, the path the rule selects at C."""
    new_node = words.new_node_of(step)
    drawn = drawn_nodes(tree, visible_nodes(tree, budget=budget), step.path, rule_path or (), inspected=new_node)
    st.caption(
        f"Red: the nodes this {words.run} updated, root first. Blue outline: the node it "
        f"{'visited first' if words.log else 'created'}. "
        + ("Teal, dashed: the rule's path at C. Purple: on both. " if rule_path is not None else "")
        + folded_caption(hidden_count(tree, drawn))
    )
    show_tree(Picture(tree, drawn, layout_key=layout_key, path=step.path, second_path=rule_path or (),
                      inspected=new_node, height=500), key=PLAYBACK_TREE)


def path_table(tree, step, words: RunWords) -> None:
    """Each node on the updated path, before and after the playout."""
    st.subheader("The path it updated")
    rows = [
        {
            "node": node_label(tree.path(node)),
            "visits before": before.visits,
            "visits after": after.visits,
            "mean before": "–" if before.mean is None else f"{before.mean:.3f}",  # not "None"
            "mean after": after.mean,
        }
        for node, before, after in zip(step.path, step.before, step.after)
    ]
    st.dataframe(
        pd.DataFrame(rows),
        hide_index=True,
        key=PLAYBACK_PATH_TABLE,
        # Short headers and narrow columns: the whole table fits beside the picture at 1366 px.
        column_config={
            "node": st.column_config.TextColumn("node", width="small"),
            "visits before": st.column_config.NumberColumn("n before", width="small"),
            "visits after": st.column_config.NumberColumn("n after", width="small"),
            "mean before": st.column_config.TextColumn(
                "μ before", width="small", help=f"–: no visit before this {words.run} (a new node, or the root at k = 1)."
            ),
            "mean after": st.column_config.NumberColumn("μ after", format="%.3f", width="small"),
        },
    )
    added = "the return of the player who moved into it" if words.log else "the playout's score"
    st.caption(f"Each node on the path gets one more visit and {added} added to its total.")


def frame_input(loaded: LoadedInput, tree, k: int) -> LoadedInput:
    """The input as its first k playouts built it, for the C control: the control's caches (where the
    path changes) key on the input's key, so k joins it; the score range stays the whole input's,
    so the slider keeps its range while k moves."""
    return replace(loaded, key=f"{loaded.key}:{k}", read=replace(loaded.read, tree=tree))


def rule_path_panel(setup, tree, k: int, words: RunWords) -> selected_path.SelectedPath | None:
    """The toggle; when on, the C control (its live slider moves the picture's teal path), a sentence
    naming the path, and the path the sidebar's rule selects at the committed C in the tree after k
    playouts (None when off)."""
    if not st.toggle(
        "Show the path the rule selects at C", key=PLAYBACK_RULE_PATH, persist_state="session",
        help="Draws, in the tree after k playouts, the path the sidebar's rule selects at C (teal, dashed), "
        "with C's slider: drag it, or play, and watch the choice change as the tree grows.",
    ):
        return None
    selected = selected_path.choose(setup, frame_input(setup.input, tree, k), show_changes=False, role="second",
                                    path_label="Path at C")
    # Its bold "C = x" follows a drag of C; the path itself is the "Path at C" metric's, which follows too.
    live_text.text("playback_rule_path_caption", [
        live_text.plain("Teal, dashed: the path the sidebar's rule ("), *live_text.described(selected.scoring, "second"),
        live_text.plain(f") selects in the tree after {words.runs(k)} (Path at C, above)."),
    ], cs={"second": selected.scoring.c})
    return selected


def show_frame(playback: Playback, setup, budget: int) -> None:
    """The tree after k playouts and what playout k changed; re-run alone on every play tick."""
    count = len(playback)
    if st.session_state.get(PLAYING, False):
        move_k(1, count)
        if st.session_state[K] >= count:
            st.session_state[PLAYING] = False
            st.rerun()  # the whole page: drop the timer and turn Pause back into Play
    words = run_words(setup.input.read.kind)
    k = stepper(count, words)
    if not st.session_state.get(PLAYING, False) and shown_view() != st.session_state[SHARED_VIEW]:
        st.rerun()  # the whole page, so that the Share link (outside this fragment) follows k, C and the toggle
    frame = playback.frame(k)  # the Playback keeps its last state and recent frames: memory stays flat
    metrics = st.container()  # filled once the C control below has said C: the answer on top
    picture, numbers = st.columns([5, 4], gap="medium")
    with numbers:  # beside the picture, not above it: the picture's top stays where it was
        rule = rule_path_panel(setup, frame.tree, k, words)
        rule_path = None if rule is None else rule.path
    with metrics:
        what_run_k_did(frame.tree, frame.step, k, count, rule, words)
    with picture:  # each k is another tree
        frame_picture(frame.tree, frame.step, budget, f"{setup.input.key}:{k}", rule_path, words)
    with numbers:
        path_table(frame.tree, frame.step, words)
    show_race(playback, setup.input.key, k, words)
    show_over_time(setup, frame.tree, k, rule, words)


def show_race(playback: Playback, input_key: str, k: int, words: RunWords) -> None:
    """The root children's race up to the end, marked at k (part of the frame: the mark follows play)."""
    st.divider()
    st.subheader("How the root's children race")
    frame_race = cached_race(input_key, playback)
    share, mean = st.columns(2)
    with share:
        st.caption("Share of the root's visits through each child. Red: k now.")
        st.altair_chart(race_chart(frame_race, "share", "share of the root's visits", ".0%", k, words.run), width="stretch",
                        height=280)
    with mean:
        st.caption("Mean score of each root child (UCB1's exploitation term). Red: k now.")
        st.altair_chart(race_chart(frame_race, "mean", "mean score", ".3g", k, words.run), width="stretch",
                        height=280)


@st.cache_resource(max_entries=4, show_spinner="Replaying the search over time…")
def cached_over_time(key: str, node: int, _tree, _playouts) -> tuple[Convergence, GroupedSeries]:
    """The node's search over time and its chart rows, once per input and node (C never changes them)."""
    series = convergence(_tree, _playouts, node)
    return series, series.grouped(NAMED_CHILDREN)


@st.cache_resource(max_entries=16, show_spinner=False)
def cached_over_time_specs(key: str, node: int, rule: str | None, c: float | None, _tree, _series: Convergence,
                           _grouped: GroupedSeries, _scoring: Scoring | None, value_title: str,
                           k_title: str) -> tuple[dict, dict]:
    """The share and value charts' specs, k left out, once per input, node, rule and C (None: no rule
    shown): the selected-at-C changes and building the charts cost more than a Play step may."""
    selected = None if _scoring is None else _series.change_points(selected_over_time(_tree, _series, _scoring))
    return over_time_specs(_grouped, _series.change_points(_series.most_visited), selected,
                           _tree.path(node) or "the root", value_title, k_title)


def over_time_node(tree) -> int:
    """The node the box names (the root when empty); a path that leaves the tree says so and shows the
    deepest node on it that exists."""
    st.text_input("Node", key=OVER_TIME_NODE, persist_state="session", placeholder="root",
                  help="The node's path: moves from the root (`ba`, or `e4 e5` for named moves); empty for the root.")
    wanted = st.session_state.get(OVER_TIME_NODE, "")
    try:
        return tree.find(wanted)
    except KeyError as missing:
        st.error(escape(f"{missing.args[0]}; showing the deepest node that exists on that path."))
        return tree.deepest(wanted)[0]


def visits_at_k(frame_tree, path: str) -> int:
    """The node's visits in the tree after k playouts (0 before it exists)."""
    try:
        return frame_tree.visits[frame_tree.find(path)]
    except KeyError:
        return 0


def picked_k(chart_key: str) -> int | None:
    """The ``playouts`` (Playback's k) of the sample a click on the chart picked, None if none."""
    picked = st.session_state[chart_key].selection.get(PICK) or []
    return int(picked[0]["playouts"]) if picked and "playouts" in picked[0] else None


def go_to_picked(chart_key: str, count: int) -> None:
    """A click on the chart: k becomes the playouts read at the picked sample."""
    if (k := picked_k(chart_key)) is not None:
        st.session_state[K] = min(max(k, 1), count)
        st.session_state[PLAYING] = False


def show_picked_update(chart_key: str, count: int) -> None:
    """A click on an engine's chart: the picked update becomes the analysis shown."""
    if (number := picked_k(chart_key)) is not None:
        input_panel.show_analysis(min(max(number, 1), count))


def show_over_time(setup, frame_tree, k: int, rule: selected_path.SelectedPath | None, words: RunWords) -> None:
    """The search over time at a node: its children's share of its visits and their values against its
    visits, where the choice changed, k marked; a click moves k; the series as CSV."""
    st.divider()
    st.subheader("The search over time")
    tree = setup.tree
    node = over_time_node(tree)
    path = tree.path(node)
    name = path or "the root"
    series, grouped = cached_over_time(setup.input.key, node, tree, setup.input.playouts)
    if not grouped.groups:
        st.info(f"{node_label(path).capitalize()} has no children: there is nothing to follow over time.")
        return
    scoring = None if rule is None else rule.scoring
    specs = cached_over_time_specs(setup.input.key, node, None if scoring is None else rule_key(scoring),
                                   None if scoring is None else scoring.c, tree, series, grouped, scoring,
                                   mean_header(tree, node), f"{words.run}s read")
    st.caption(
        f"Each child of {escape(name)} against its visits (log axis): the {NAMED_CHILDREN} most visited in the "
        f"end named, the rest as {OTHERS}. Red: k now. Grey rules: the most visited child changed"
        + ("; teal dashed: the child the rule selects at C changed. " if rule is not None else
           " (with the rule's path on, above, teal dashed rules mark where its choice at C changed). ")
        + "Hover for the numbers; click to move k there."
    )
    count = len(setup.input.playouts)
    over_time_charts(series, specs, visits_at_k(frame_tree, path), rule is not None, path,
                     lambda chart_key: go_to_picked(chart_key, count))


def over_time_charts(series: Convergence, specs: tuple[dict, dict], visits_now: int, at_c: bool, path: str,
                     on_pick) -> None:
    """The share and value charts side by side, the red rule at ``visits_now``, a click handed to
    ``on_pick`` with the chart's key; the series as CSV. With ``at_c``, the charts are dimmed while C
    is dragged (their teal rules are the committed C's)."""
    charts = c_control.at_committed_c("second", "over_time") if at_c else st.container()
    for column, chart_key, spec in zip(charts.columns(2), (OVER_TIME_SHARE, OVER_TIME_VALUE), specs):
        column.vega_lite_chart(spec=with_k(spec, visits_now), width="stretch", height=300, key=chart_key,
                               selection_mode=PICK, on_select=lambda chart_key=chart_key: on_pick(chart_key))
    st.download_button(
        "Download the series (CSV)", lambda: csv_of(series), file_name=f"over_time_{node_file_stem(path)}.csv",
        mime="text/csv", key=OVER_TIME_CSV,
        on_click="ignore",  # no rerun: it would give the file made on click a new id (see the Explorer's)
    )


@st.cache_resource(max_entries=4, show_spinner="Reading the engine's updates…")
def cached_update_series(key: str, _read) -> tuple[Convergence, GroupedSeries]:
    """The root over the updates of one search of an engine's file, and its chart rows, once per file
    and search (every analysis of the search shows the same series).

    Raises:
        NoOrder: the search is a single snapshot.
        ParseError: an update's numbers do not make a tree.
    """
    series = update_series(*_read.search_updates())
    return series, series.grouped(NAMED_CHILDREN)


def show_engine_search(setup) -> None:
    """An engine's file has no simulations to replay: the search over time of the shown analysis's
    search, one sample per update the engine printed; a click shows that update."""
    read = setup.input.read
    st.subheader("The search over time")
    try:
        series, grouped = cached_update_series(f"{setup.input.input_id}:{read.engine.search}", read)
    except NoOrder:
        st.info(
            "This analysis is a single snapshot of the engine's search (no other update of the same search is in "
            "the file): it has no order of updates to show. Playback follows an engine's search through a stream "
            "of its updates: an lz-analyze or kata-analyze stream, KataGo's reportDuringSearchEvery reports, "
            "lc0's repeated move stats."
        )
        return
    except ParseError as error:
        st.error(escape(str(error)))
        return
    selected = selected_path.choose(setup, setup.input, show_changes=False, role="second", path_label="Path at C")
    scoring = selected.scoring
    share_panel.render(setup.input, scoring, "playback")  # the link names the analysis shown and C
    specs = cached_over_time_specs(f"{setup.input.input_id}:{read.engine.search}", ROOT, rule_key(scoring),
                                   scoring.c, setup.tree, series, grouped, scoring, ENGINE_VALUE_TITLE,
                                   "analysis (in the file)")
    st.caption(
        f"The root's children at each of the {len(series.visits):,} updates the engine printed of this search "
        f"(analyses {series.playouts[0]:,} to {series.playouts[-1]:,} of the file), against the root's visits "
        f"(log axis): the {NAMED_CHILDREN} most visited at the end named, the rest as {OTHERS}; values as the "
        "engine reported them, for the player who makes the move. Red: the analysis shown. Grey rules: the most "
        "visited child changed; teal dashed: the child the sidebar's rule selects at C changed. Hover for the "
        "numbers; click to show that update."
    )
    count = len(read.analyses)
    over_time_charts(series, specs, setup.tree.visits[ROOT], True, "",
                     lambda chart_key: show_picked_update(chart_key, count))


def csv_of(series: Convergence) -> str:
    out = io.StringIO()
    series.write_csv(out)
    return out.getvalue()


setup = sidebar.require()
if setup.input.read.engine is not None:
    st.caption("An engine's analysis reports its search; it holds no simulations to replay. What it shows over "
               "time is the search as the engine reported it, update by update.")
    show_engine_search(setup)
    st.stop()
if setup.input.playouts is None or not len(setup.input.playouts):
    st.info(
        "This input is a finished tree (a JSON tree dump): it has no simulations to replay, nor a search over "
        "time to follow. Playback needs puzzle text or a JSON Lines log, which record each simulation in order."
    )
    st.stop()
words = run_words(setup.input.read.kind)
st.caption(f"The tree after the first k {words.run}s: what {words.run} k "
           f"{'visited first' if words.log else 'created'} and updated, and how the root's children race.")
playback = cached_playback(setup.input.key, setup.input.playouts, setup.tree)
keep_k_in_range(len(playback))
stride_for_input(setup.input.key, len(playback))
playing = st.session_state.get(PLAYING, False)
delay, budget = controls(setup, len(playback), playing, words)
st.fragment(show_frame, run_every=delay if playing else None)(playback, setup, budget)
