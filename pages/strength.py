"""C and strength: our MCTS at each C of a grid plays games against an opponent; score and tree statistics vs C.

The games run in a background thread (:class:`ArenaJob`, which runs :func:`mcts_core.strength.arena`
with its worker processes) so the page stays responsive: a fragment polls it for the progress bar
and draws the rows as each C finishes, and its Stop button sets an event the arena polls. Every
finished C is stored at once (:class:`~mcts_core.search.ResultStore`, SQLite in the data folder)
under the game, position, rule, budget, opponent and seed, so a finished grid reappears at once
and an interrupted one resumes where it stopped.
"""

from __future__ import annotations

import os
import re
import time
from typing import Any

import altair as alt
import pandas as pd
import streamlit as st

from mcts_core import RULES, parse_c
from mcts_core.search import format_moves, parse_moves
from mcts_core.strength import ArenaRow, ResultStore, arena
from ui import jobs, sidebar, state
from ui.markdown import code, escape
from ui.jobs import BackgroundJob
from ui.wording import core_sentence

# Session-state keys this module owns.
STRENGTH_GAME = state.key("strength_game")
STRENGTH_GAME_NAME = state.key("strength_game_name")
STRENGTH_MOVES = state.key("strength_moves")
STRENGTH_FROM_SEARCH = state.key("strength_from_search")
STRENGTH_C_VALUES = state.key("strength_c_values")
STRENGTH_GAMES = state.key("strength_games")
STRENGTH_SIMULATIONS = state.key("strength_simulations")
STRENGTH_OPPONENT = state.key("strength_opponent")
STRENGTH_OPPONENT_C = state.key("strength_opponent_c")
STRENGTH_SEED = state.key("strength_seed")
STRENGTH_WORKERS = state.key("strength_workers")
STRENGTH_RUN = state.key("strength_run")
STRENGTH_STOP = state.key("strength_stop")
STRENGTH_TABLE = state.key("strength_table")
STRENGTH_CSV = state.key("strength_csv")

# Two-player games of perfect information (the arena pits two players); others can be typed.
GAMES = {
    "connect_four": "Connect Four",
    "tic_tac_toe": "Tic-tac-toe (mostly draws)",
    "breakthrough": "Breakthrough",
    "hex(board_size=5)": "Hex 5×5",
}
OTHER = "other"
DEFAULT_C_VALUES = "0.1, 0.5, 1, 1.4, 2, 4, 10"
POLL_SECONDS = 0.5
COLUMNS = ("c", "games", "wins", "draws", "losses", "score", "low", "high", "entropy", "depth", "top_share")

sidebar.ensure_app_shell()


class ArenaJob(BackgroundJob):
    """An arena grid playing in the background (:class:`ui.jobs.BackgroundJob`); ``result`` holds its rows.

    Attributes:
        settings: the keyword arguments given to :func:`arena` (but the callbacks and the store).
    """

    def __init__(self, settings: dict[str, Any]):
        self.settings = settings
        super().__init__(
            lambda progress, should_stop: arena(
                **settings, store=ResultStore(), progress=progress, should_stop=should_stop
            ),
            name="mcts-explorer-arena",
        )


def parse_c_values(text: str) -> list[float]:
    """C values separated by commas or spaces.

    Raises:
        ValueError: a value that is not a C (the message names it).
    """
    values = []
    for token in re.split(r"[,\s;]+", text.strip()):
        if token:
            try:
                values.append(parse_c(token))
            except ValueError as error:
                raise ValueError(f"C value {token!r}: {error}") from None
    if not values:
        raise ValueError("type at least one C value, like 0.5, 1.4, 4")
    return values


def take_last_search(game: str, moves: str) -> None:
    """Use the Search page's last game and position."""
    if game in GAMES:
        st.session_state[STRENGTH_GAME] = game
    else:
        st.session_state[STRENGTH_GAME] = OTHER
        st.session_state[STRENGTH_GAME_NAME] = game
    st.session_state[STRENGTH_MOVES] = moves


def settings_panel() -> dict[str, Any] | None:
    """The game, position and grid controls; the arena's settings, or None (the problem shown)."""
    for key, default in ((STRENGTH_GAME, next(iter(GAMES))), (STRENGTH_GAME_NAME, ""),
                         (STRENGTH_MOVES, ""), (STRENGTH_C_VALUES, DEFAULT_C_VALUES),
                         (STRENGTH_GAMES, 20), (STRENGTH_SIMULATIONS, 100),
                         (STRENGTH_OPPONENT, "mcts"), (STRENGTH_OPPONENT_C, 1.4),
                         (STRENGTH_SEED, 1), (STRENGTH_WORKERS, min(2, os.cpu_count() or 1))):
        st.session_state.setdefault(key, default)
    persist = {"persist_state": "session"}

    row = st.columns([2, 2, 3], vertical_alignment="bottom")
    choice = row[0].selectbox("Game", [*GAMES, OTHER], key=STRENGTH_GAME, **persist,
                              format_func=lambda name: GAMES.get(name, "Another OpenSpiel game…"))
    if choice == OTHER:
        game = row[1].text_input("OpenSpiel game string", key=STRENGTH_GAME_NAME, **persist,
                                 placeholder="e.g. clobber or connect_four(rows=5)").strip()
    else:
        game = choice
        row[1].caption(f"OpenSpiel's {code(choice)}")
    typed_moves = row[2].text_input(
        "Start position (moves from the start)", key=STRENGTH_MOVES, **persist,
        help="Action ids or names separated by spaces, as on the Search page and the CLI's `--moves`; "
        "empty = the initial position. Every game of the grid starts here.",
    )
    last = jobs.latest("search")
    if last is not None:
        from_search = (last.game, format_moves(last.moves))
        if from_search != (game, typed_moves):
            st.button(f"Use the last search's game and position: {last.label()}", key=STRENGTH_FROM_SEARCH,
                      icon=":material/play_arrow:", on_click=take_last_search, args=from_search)

    row = st.columns([4, 2, 2], vertical_alignment="bottom")
    c_text = row[0].text_input("C values", key=STRENGTH_C_VALUES, **persist,
                               help="The MCTS side's exploration constants, separated by commas.")
    games = row[1].number_input("Games per C", 1, 10_000, step=10, key=STRENGTH_GAMES, **persist,
                                help="The MCTS side plays first in half of them.")
    simulations = row[2].number_input("Simulations per move", 1, 100_000, step=50, key=STRENGTH_SIMULATIONS,
                                      **persist, help="Each search's budget, for every move of both MCTS players.")
    row = st.columns([2, 2, 2, 2], vertical_alignment="bottom")
    kind = row[0].segmented_control(
        "Opponent", ["mcts", "random"], key=STRENGTH_OPPONENT, **persist, required=True,
        format_func=lambda kind: {"mcts": "MCTS at a fixed C", "random": "Random"}[kind],
        help="Random plays uniformly random legal moves; MCTS is the same search, rule and budget at the "
        "opponent's C.",
    )
    opponent_c = row[1].number_input(
        "Opponent's C", min_value=0.0, step=0.1, format="%.4g", key=STRENGTH_OPPONENT_C, **persist,
        disabled=kind != "mcts",
    )
    seed = row[2].number_input("Seed", 0, step=1, key=STRENGTH_SEED, **persist,
                               help="With C and the game number, seeds each game: the same settings give the same games.")
    workers = row[3].number_input("Processes", 1, max(os.cpu_count() or 1, 1), step=1, key=STRENGTH_WORKERS,
                                  **persist, help="Worker processes playing games at once (one per core).")
    rule, settings = sidebar.rule_choice()
    st.caption(f"Rule: **{escape(RULES[rule].name)}** with the sidebar's settings (C is the grid's). Score = "
               "(wins + draws / 2) / games, from the MCTS side's view.")
    problems = []
    if not game:
        problems.append("type the name of an OpenSpiel game")
    try:
        c_values = parse_c_values(c_text)
    except ValueError as error:
        problems.append(str(error))
        c_values = []
    try:
        moves = parse_moves(typed_moves)
    except ValueError as error:
        problems.append(str(error).removeprefix("--moves: "))
        moves = []
    if problems:
        for problem in problems:
            st.error(core_sentence(problem), icon="⚠️")
        return None
    return dict(game=game, moves=moves, c_values=c_values, games=int(games), simulations=int(simulations),
                rule=rule, settings=settings, opponent=f"mcts:{opponent_c!r}" if kind == "mcts" else "random",
                seed=int(seed), workers=int(workers))


def stored_rows(settings: dict[str, Any]) -> list[ArenaRow]:
    """The rows the store holds for these settings, checking them as a run would (ValueError if bad).

    An arena call told to stop before its first game plays nothing: it returns the stored rows.
    """
    return arena(**{**settings, "workers": 1}, store=ResultStore(), should_stop=lambda: True)


def show_problem(message: str) -> None:
    """The arena's refusal: a game kind it cannot play is information, anything else an error."""
    if "simultaneous" in message:
        st.info(f"{core_sentence(message)}. The arena plays turn-taking games; on a simultaneous-move matrix "
                "game the Simultaneous page shows what C does to the strategy and its exploitability.",
                icon=":material/info:")
        st.page_link("pages/simultaneous.py", label="Open the Simultaneous page", icon=":material/group:")
    elif "imperfect information" in message or "not a sequential game" in message:
        st.info(f"{core_sentence(message)}. That needs another kind of search, not available in the app yet.",
                icon=":material/info:")
    else:
        st.error(core_sentence(message), icon="⚠️")


def rows_frame(rows: list[ArenaRow]) -> pd.DataFrame:
    return pd.DataFrame([{name: getattr(row, name) for name in COLUMNS} for row in rows], columns=list(COLUMNS))


def c_axis(grid: list[float]) -> alt.X:
    """C on a log axis over the whole grid (symlog when C = 0 is in it: log has no 0), ticks at its values.

    The domain is the grid's, not the finished rows', so the axis stays put while rows come in.
    """
    low, high = min(grid), max(grid)
    if low > 0:
        scale = alt.Scale(type="log", domain=[low / 1.3, high * 1.3], nice=False)
    else:
        scale = alt.Scale(type="symlog", constant=0.1, domain=[0, max(high, 0.1) * 1.3], nice=False)
    return alt.X("c:Q", scale=scale, title="C (log scale)", axis=alt.Axis(values=sorted(grid), format="~g"))


def score_chart(frame: pd.DataFrame, grid: list[float]) -> alt.LayerChart:
    """Score vs C with its 95% Wilson interval as a band; the counts in the tooltip."""
    tooltip = [alt.Tooltip("c:Q", title="C", format="~g"), alt.Tooltip("games:Q"), alt.Tooltip("wins:Q"),
               alt.Tooltip("draws:Q"), alt.Tooltip("losses:Q"), alt.Tooltip("score:Q", format=".3f"),
               alt.Tooltip("low:Q", title="95% interval from", format=".3f"),
               alt.Tooltip("high:Q", title="95% interval to", format=".3f")]
    base = alt.Chart(frame).encode(x=c_axis(grid))
    band = base.mark_area(opacity=0.2, color="#4c78a8").encode(y=alt.Y("low:Q"), y2="high:Q", tooltip=tooltip)
    line = base.mark_line(color="#4c78a8", point=alt.OverlayMarkDef(size=70, filled=True, color="#4c78a8")).encode(
        y=alt.Y("score:Q", title="score", scale=alt.Scale(domain=[0, 1])), tooltip=tooltip
    )
    even = alt.Chart(pd.DataFrame({"y": [0.5]})).mark_rule(strokeDash=[4, 4], color="#888888").encode(y="y:Q")
    return alt.layer(band, even, line).properties(height=320)


STATISTICS = {
    "entropy": ("Root visit entropy", "nats", "How evenly the root's visits spread: 0 = all on one move."),
    "depth": ("Depth reached", "moves", "The deepest node the search reached."),
    "top_share": ("Share on the best move", "share", "The most visited root move's share of the visits."),
}


def statistic_chart(frame: pd.DataFrame, grid: list[float], column: str) -> alt.Chart:
    title, unit, _ = STATISTICS[column]
    share = column == "top_share"
    return alt.Chart(frame).mark_line(color="#f58518", point=alt.OverlayMarkDef(size=50, filled=True, color="#f58518")).encode(
        x=c_axis(grid),
        y=alt.Y(f"{column}:Q", title=unit, scale=alt.Scale(domain=[0, 1]) if share else alt.Scale(zero=True),
                axis=alt.Axis(format="%") if share else alt.Axis()),
        tooltip=[alt.Tooltip("c:Q", title="C", format="~g"), alt.Tooltip(f"{column}:Q", title=title, format=".3f"),
                 alt.Tooltip("games:Q")],
    ).properties(height=220)


def stop_job(job: ArenaJob) -> None:
    job.stop.set()


def results(settings: dict[str, Any] | None) -> None:
    """Progress and Stop while the grid plays (a fragment polling it), then the charts and the table."""
    job = jobs.latest("strength")
    if job is not None and job.running:
        bar, stop = st.columns([5, 1], vertical_alignment="center")
        elapsed = time.monotonic() - job.started
        total = job.total or len(job.settings["c_values"]) * job.settings["games"]
        bar.progress(job.done / total if total else 0.0,
                     text=f"Playing: {job.done:,} of {total:,} games, {elapsed:.0f} s "
                          f"(each C is stored as soon as its games are done)")
        stop.button("Stop", key=STRENGTH_STOP, icon=":material/stop:", on_click=stop_job, args=(job,),
                    width="stretch", disabled=job.stop.is_set(),
                    help="Cancels the games not started; finished C values stay stored and a new Run resumes.")
    elif job is not None and job.error is not None and job.settings == settings:
        show_problem(job.error)
    if settings is None:
        return
    try:
        rows = stored_rows(settings)
    except ValueError as error:
        show_problem(str(error))
        return
    wanted = settings["c_values"]
    if job is not None and not job.running and job.settings == settings and job.stop.is_set() and len(rows) < len(wanted):
        st.warning(f"Stopped with {len(rows)} of {len(wanted)} C values finished; Run plays the rest.",
                   icon=":material/stop:")
    elif not rows and job is not None and job.running:
        return  # the progress bar says it all until the first C is done
    elif not rows:
        games = len(wanted) * settings["games"]
        st.info(f"Nothing stored for these settings yet: Run plays {games:,} games "
                f"({len(wanted)} C values × {settings['games']:,}).", icon=":material/info:")
        return
    elif len(rows) < len(wanted) and not (job is not None and job.running):
        st.info(f"{len(rows)} of {len(wanted)} C values are stored for these settings; Run plays the other "
                f"{len(wanted) - len(rows)}.", icon=":material/info:")
    elif job is not None and job.running:
        st.caption(f"{len(rows)} of {len(wanted)} C values finished so far (each is stored as it finishes).")
    elif job is None or job.settings != settings:
        st.caption("From the result store: these settings were played before.")
    if not rows:
        return
    frame = rows_frame(rows).sort_values("c")
    opponent = "a random player" if settings["opponent"] == "random" else (
        f"MCTS at C = {float(settings['opponent'].removeprefix('mcts:')):g}")
    st.subheader(f"Score against {opponent}")
    st.altair_chart(score_chart(frame, wanted), width="stretch")
    best = frame.loc[frame["score"].idxmax()]
    st.caption(
        f"Band: the 95% Wilson interval of each score ({int(frame['games'].iloc[0]):,} games per C; hover for the "
        f"counts). Dashed: an even match. Best here: C = {best['c']:g} with {best['score']:.2f}"
        + (" — intervals this wide overlap: more games per C would separate the values." if
           (frame["high"] - frame["low"]).max() > 0.3 else ".")
    )
    st.subheader("What C does to the trees")
    for column, place in zip(STATISTICS, st.columns(3, gap="medium")):
        title, _, meaning = STATISTICS[column]
        place.markdown(f"**{title}**", help=meaning)
        place.altair_chart(statistic_chart(frame, wanted, column), width="stretch")
    st.caption(
        "Means over each game's first search by the MCTS side. A small C piles the visits on the first move "
        "that looks good (low entropy, a large share on one move, deep lines); a large C spreads them evenly "
        "(high entropy, shallow trees). Playing strength sits between the two."
    )
    st.subheader("The rows")
    st.dataframe(
        frame, hide_index=True, key=STRENGTH_TABLE,
        column_config={
            "c": st.column_config.NumberColumn("C", format="%g"),
            "score": st.column_config.NumberColumn(format="%.3f"),
            "low": st.column_config.NumberColumn("95% low", format="%.3f"),
            "high": st.column_config.NumberColumn("95% high", format="%.3f"),
            "entropy": st.column_config.NumberColumn("entropy (nats)", format="%.3f"),
            "depth": st.column_config.NumberColumn(format="%.2f"),
            "top_share": st.column_config.NumberColumn("top share", format="%.3f"),
        },
    )
    st.download_button("Download the rows (CSV)", frame.to_csv(index=False), file_name="c_strength.csv",
                       mime="text/csv", key=STRENGTH_CSV, on_click="ignore")


st.title("C and playing strength")
st.caption(
    "Our MCTS plays a series of games at each C against an opponent: how its score moves with C, and what "
    "the trees look like that explain it. Finished C values are stored, so a grid you played before "
    "reappears at once and an interrupted one resumes."
)
arena_settings = settings_panel()
job = jobs.latest("strength")
busy = job is not None and job.running
if st.button("Run the grid", key=STRENGTH_RUN, type="primary", icon=":material/play_arrow:",
             disabled=busy or arena_settings is None):
    job = ArenaJob(arena_settings)
    jobs.keep("strength", job)
    job.thread.join(0.3)
    if job.running:
        st.rerun()  # draw the page again with Run disabled, and poll


@st.fragment(run_every=POLL_SECONDS)
def poll(settings: dict[str, Any] | None) -> None:
    """While the grid plays: progress, Stop and the rows so far, redrawn every half second."""
    job = jobs.latest("strength")
    if job is not None and not job.running:
        st.rerun()  # the grid ended: the whole page again, to stop polling and enable Run
    results(settings)


if busy:
    poll(arena_settings)
else:
    results(arena_settings)
