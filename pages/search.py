"""Search: run our MCTS live on an OpenSpiel game; the finished search becomes every page's input.

The search runs in a background thread (:class:`SearchJob`) so the page stays responsive: a
fragment polls it a few times a second for the progress bar, and its Stop button sets an event the
search polls after every simulation (``should_stop``). A Streamlit button cannot reach into a
script that is busy computing (its click only queues a rerun), which is why the work is not done
in the script itself. When the search ends, its JSON Lines log is loaded through the process-wide
input store and handed to the sidebar (:func:`ui.setup.input_panel.keep_input`).
"""

from __future__ import annotations

import math
import time
from dataclasses import replace
from typing import Any

import streamlit as st

from mcts_core import RULES, Scoring, defaults
from mcts_core.inputs import input_id
from mcts_core.search import (
    MAX_SECONDS, format_moves, legal_moves, load_game, parse_moves, play_moves, position_picture, search)
from ui.charts.search_charts import TOP_BARS, root_shares_chart
from ui.common import jobs, state
from ui.common.jobs import BackgroundJob
from ui.common.markdown import escape
from ui.common.metric_row import metric_row
from ui.common.wording import core_sentence
from ui.setup import input_panel
from ui.setup.game_picker import game_picker
from ui.setup.inputs import InputError, load
from ui.shell import sidebar

# Session-state keys this module owns.
SEARCH_GAME = state.key("search_game")
SEARCH_GAME_NAME = state.key("search_game_name")
SEARCH_MOVES = state.key("search_moves")
SEARCH_UNDO = state.key("search_undo")
SEARCH_RESET = state.key("search_reset")
SEARCH_C = state.key("search_c")
SEARCH_BUDGET_KIND = state.key("search_budget_kind")
SEARCH_SIMULATIONS = state.key("search_simulations")
SEARCH_SECONDS = state.key("search_seconds")
SEARCH_SEED = state.key("search_seed")
SEARCH_SOLVE = state.key("search_solve")
SEARCH_RUN = state.key("search_run")
SEARCH_STOP = state.key("search_stop")
SEARCH_USE_AGAIN = state.key("search_use_again")
SEARCH_DOWNLOAD_LOG = state.key("search_download_log")
MOVE_BUTTON = state.key_family("search_move_{}")

# (game string, menu label): the curated games first; any other OpenSpiel game can be typed.
GAMES = {
    "tic_tac_toe": "Tic-tac-toe",
    "connect_four": "Connect Four",
    "breakthrough": "Breakthrough",
    "hex(board_size=5)": "Hex 5×5",
    "hex": "Hex 11×11",
    "catch": "Catch (one player, starts with a chance move)",
}
MAX_SIMULATIONS = 200_000  # the log is kept in memory; the CLI goes to 1,000,000 (upload its log)
POLL_SECONDS = 0.25  # the progress fragment's rerun interval while a search runs
FIRST_WAIT = 0.4  # seconds the run that starts a search waits for it: small searches end at once
GRID_ACTIONS = 150  # games with at most this many distinct actions get a full grid of buttons
MAX_BUTTONS = 400  # move buttons drawn at most (Go 19x19 has 362 moves)

sidebar.ensure_app_shell()


class SearchJob(BackgroundJob):
    """One search running in the background (:class:`ui.common.jobs.BackgroundJob`).

    Attributes:
        game, moves, scoring, simulations, seconds, seed: what :func:`search` was given.
        root_player: who moves at the root (at a chance root, player 0, as the log says).
        adopted: the log has been handed to the sidebar; key: its key in the input store then.
    """

    def __init__(self, game: str, moves: list, scoring: Scoring, simulations: int | None, seconds: float | None,
                 seed: int, root_player: int, solve: bool = False):
        self.game, self.moves, self.scoring, self.root_player = game, moves, scoring, root_player
        self.simulations, self.seconds, self.seed = simulations, seconds, seed
        self.adopted = False
        self.key: str | None = None
        super().__init__(
            lambda progress, should_stop: search(
                game, moves=moves, scoring=scoring, simulations=simulations, seconds=seconds, seed=seed,
                solve=solve, progress=progress, should_stop=should_stop,
            ),
            name="mcts-explorer-search",
        )

    def fraction(self) -> float:
        """How far the search is, 0..1: by simulations, or by time for a time budget."""
        parts = []
        if self.simulations:
            parts.append(self.done / self.simulations)
        if self.seconds:
            parts.append((time.monotonic() - self.started) / self.seconds)
        return min(max(parts, default=0.0), 1.0)

    def label(self) -> str:
        """The game and position in words."""
        return self.game + (f" after {format_moves(self.moves)}" if self.moves else "")


@st.cache_resource(max_entries=32, show_spinner=False)
def cached_game(game: str) -> Any:
    """The loaded game (pyspiel games are immutable); a bad string raises ValueError (not cached)."""
    return load_game(game)


def set_moves(tokens: list[int | str]) -> None:
    st.session_state[SEARCH_MOVES] = format_moves(tokens)


def new_game() -> None:
    """A different game: start from its initial position."""
    st.session_state[SEARCH_MOVES] = ""


def choose_game() -> str | None:
    """The game picker; the game string in use, or None (with the reason shown) when there is none."""
    st.session_state.setdefault(SEARCH_GAME, next(iter(GAMES)))
    st.session_state.setdefault(SEARCH_GAME_NAME, "")
    picker = st.columns([2, 3], vertical_alignment="bottom")
    game, typed = game_picker(picker[0], picker[1], GAMES, game_key=SEARCH_GAME, name_key=SEARCH_GAME_NAME,
                              placeholder="e.g. othello, clobber or connect_four(rows=5,columns=6)", on_change=new_game)
    if typed and not game:
        st.info("Type the name of an OpenSpiel game, with parameters if you like: `connect_four(rows=5)`.")
        return None
    return game


def show_game_problem(message: str) -> None:
    """The core's refusal of a game: a game kind our search does not play is information, not an error."""
    if "simultaneous" in message:
        st.info(f"{core_sentence(message)}: each player selects its own move at a node. The Simultaneous "
                "page searches such games (decoupled UCT or Smitsimax).", icon=":material/info:")
        st.page_link("pages/simultaneous.py", label="Search it on the Simultaneous page", icon=":material/group:")
        return
    if "imperfect information" in message:
        needs = "a search over what each player can see (information-set MCTS)"
    elif "not a sequential game" in message:
        needs = "another kind of search"
    else:
        st.error(core_sentence(message), icon="⚠️")
        return
    st.info(
        f"{core_sentence(message)}.\n\nThat needs {needs}, not available in the app yet; logs of such searches "
        "from other engines already open in the Explorer.",
        icon=":material/info:",
    )


def board_layout(game: Any, position: Any) -> tuple[list[int], dict[int, str], set[int], int]:
    """(actions in grid order, their labels, the legal ones, columns) of the move buttons.

    A game with few distinct actions gets all of them, illegal ones greyed, so the grid keeps the
    board's shape (3 × 3 for tic-tac-toe, 7 columns for Connect Four); others get the legal moves.
    """
    actions, names = legal_moves(position)
    labels = dict(zip(actions, names))
    grid = actions
    if not position.is_chance_node() and game.num_distinct_actions() <= GRID_ACTIONS:
        try:
            player = position.current_player()
            labels |= {a: position.action_to_string(player, a) for a in range(game.num_distinct_actions())
                       if a not in labels}
            grid = list(range(game.num_distinct_actions()))
        except Exception:  # noqa: BLE001 - a game that cannot name an illegal action: legal moves only
            grid = actions
    side = math.isqrt(len(grid))
    columns = side if side * side == len(grid) and side > 1 else min(len(grid), 8)
    return grid, labels, set(actions), columns


def board_buttons(layout: tuple[list[int], dict[int, str], set[int], int], played: list[int | str]) -> None:
    """The move buttons, row by row; a click appends the move to the typed moves. A game with more
    than :data:`MAX_BUTTONS` moves gets a sentence instead (thousands of buttons take minutes to draw)."""
    grid, labels, legal, columns = layout
    if len(grid) > MAX_BUTTONS:
        st.caption(f"{len(legal):,} legal moves, too many for buttons: type moves in “Moves from the start”, by "
                   "name or action id.")
        return
    for start in range(0, len(grid), columns):
        row = st.columns(columns, gap="small")
        for cell, action in zip(row, grid[start:start + columns]):
            name = labels[action]
            token = action if name.isdigit() else name  # a digit-only name would read as an action id
            cell.button(
                name, key=MOVE_BUTTON.format(action), disabled=action not in legal, width="stretch",
                on_click=set_moves, args=(played + [token],),
            )


def position_panel(game: Any) -> Any | None:
    """The board picture, the move buttons, Undo/Reset and the typed moves; the position, or None."""
    st.session_state.setdefault(SEARCH_MOVES, "")
    typed = st.session_state[SEARCH_MOVES]
    problem = None
    try:
        tokens = parse_moves(typed)
    except ValueError as error:
        tokens, problem = [], str(error)
    played = tokens
    try:
        position = play_moves(game, tokens)
    except ValueError as error:
        problem = str(error)
        # Show the longest playable beginning, so the board and Undo still make sense.
        played = next(tokens[:k] for k in range(len(tokens) - 1, -1, -1) if _playable(game, tokens[:k]))
        position = play_moves(game, played)

    st.text_input(
        "Moves from the start",
        key=SEARCH_MOVES, persist_state="session",
        help="Action ids or names separated by spaces, as the command line's `--moves` takes them: `4 0` or "
        "`x(1,1) o(0,0)`. Names with spaces need a JSON array: `[\"Initialized ball to 2\", \"LEFT\"]`.",
    )
    if problem is not None:
        st.error(core_sentence(problem) + (" The board shows the position before it." if played != tokens else ""),
                 icon="⚠️")
    layout = None if position.is_terminal() else board_layout(game, position)
    wide = layout is not None and layout[3] > 7  # e.g. hex's 11 columns: the buttons get the page's width
    picture, moves = (st.container(), st.container()) if wide else st.columns([2, 3], gap="medium")
    with picture:
        st.code(position_picture(position) or "(the game draws no picture of this state)", language=None)
        undo, reset = st.columns(2) if not wide else st.columns([1, 1, 4])[:2]
        undo.button("Undo", key=SEARCH_UNDO, icon=":material/undo:", width="stretch",
                    disabled=not tokens, on_click=set_moves, args=(played[:-1] if played == tokens else played,))
        reset.button("Reset", key=SEARCH_RESET, icon=":material/restart_alt:", width="stretch",
                     disabled=not tokens, on_click=set_moves, args=([],))
    with moves:
        if layout is None:
            st.warning(f"The game is over here (returns {', '.join(f'{r:g}' for r in position.returns())}): "
                       "Undo a move to search.", icon=":material/flag:")
        elif position.is_chance_node():
            st.markdown("**Chance moves next.** Click the outcome to play, or search from here: the search "
                        "first draws the outcome with its probability (seeded) and searches the position after it.")
            board_buttons(layout, played)
        else:
            st.markdown(f"**Player {position.current_player()} to move.** Click a move to play it:")
            board_buttons(layout, played)
    return None if problem is not None or position.is_terminal() else position


def _playable(game: Any, tokens: list[int | str]) -> bool:
    try:
        play_moves(game, tokens)
        return True
    except ValueError:
        return False


def budget_panel() -> tuple[Scoring | None, int | None, float | None, int, Any]:
    """Rule (the sidebar's), C, budget and seed; returns (scoring or None if bad, simulations, seconds, seed,
    the place for the Run button at the end of their row)."""
    rule, settings = sidebar.rule_choice()
    st.session_state.setdefault(SEARCH_C, defaults.SEARCH_C)
    st.session_state.setdefault(SEARCH_BUDGET_KIND, "simulations")
    st.session_state.setdefault(SEARCH_SIMULATIONS, defaults.SEARCH_SIMULATIONS)
    st.session_state.setdefault(SEARCH_SECONDS, defaults.SEARCH_SECONDS)
    st.session_state.setdefault(SEARCH_SEED, defaults.SEARCH_SEED)
    # Run at the end of the row: below it, it was under a 768-pixel projector's fold.
    row = st.columns([2, 2, 2, 1, 2], vertical_alignment="bottom")
    # The boxes are made with the values in effect: a box made with another one shows that one first
    # (its minimum: C = 0, Simulations = 1) each time the page opens.
    c = row[0].number_input(
        RULES[rule].c_label if rule in RULES else "C", min_value=0.0, value=st.session_state[SEARCH_C], step=0.1,
        format="%.4g",
        key=SEARCH_C, persist_state="session",
        help="The exploration constant of this search. When the search is loaded, the C slider on the "
        "other pages starts at it too.",
    )
    kind = row[1].segmented_control(
        "Budget", ["simulations", "seconds"], key=SEARCH_BUDGET_KIND, persist_state="session",
        required=True,
    )
    if kind == "seconds":
        seconds = row[2].number_input(
            "Seconds", min_value=0.1, max_value=MAX_SECONDS, value=st.session_state[SEARCH_SECONDS], step=1.0, format="%g",
            key=SEARCH_SECONDS, persist_state="session",
            help=f"Stops after this long, or at {MAX_SIMULATIONS:,} simulations.",
        )
        simulations = MAX_SIMULATIONS
    else:
        simulations = row[2].number_input(
            "Simulations", min_value=1, max_value=MAX_SIMULATIONS, value=st.session_state[SEARCH_SIMULATIONS], step=500,
            key=SEARCH_SIMULATIONS, persist_state="session",
            help=f"Up to {MAX_SIMULATIONS:,} here (the log is kept in memory). For longer searches run "
            "`python -m mcts_core search` and upload its log.",
        )
        seconds = None
    seed = row[3].number_input("Seed", min_value=0, value=st.session_state[SEARCH_SEED], step=1, key=SEARCH_SEED,
                               persist_state="session",
                               help="The same seed and simulation budget give the same search, byte for byte.")
    st.checkbox("Solve (MCTS-Solver)", key=SEARCH_SOLVE, persist_state="session",
                help="Prove won, lost and drawn positions from the game's ends, as OpenSpiel's MCTSBot(solve=True): "
                "proven nodes carry their outcome, the best move prefers proven wins and avoids proven losses, and "
                "the search stops once the root is proven.")
    try:
        scoring = Scoring(rule, float(c), settings)
    except (ValueError, TypeError) as error:
        st.error(escape(f"The sidebar's rule settings cannot be used: {error}"), icon="⚠️")
        return None, simulations, seconds, int(seed), row[4]
    st.caption(
        f"Rule: **{escape(scoring.describe())}** (the sidebar's rule and settings; change them there). "
        "Each simulation selects down the tree, adds one node (and lists its moves as children not "
        "visited yet), plays random moves to the end, and backs the result up."
    )
    return scoring, int(simulations), seconds, int(seed), row[4]


def start(game: str, position: Any, scoring: Scoring, simulations: int | None, seconds: float | None, seed: int) -> None:
    """The Run button: a new search (the previous result stays the input until this one ends)."""
    moves = parse_moves(st.session_state[SEARCH_MOVES])
    player = 0 if position.is_chance_node() else position.current_player()
    jobs.keep("search", SearchJob(game, moves, scoring, simulations, seconds, seed, player,
                                  bool(st.session_state.get(SEARCH_SOLVE))))


def source_of(job: SearchJob) -> str:
    """How the sidebar names the search."""
    result = job.result
    return f"search of {job.label()} ({result.simulations:,} simulations, {job.scoring.describe()}, seed {job.seed})"


def adopt(job: SearchJob) -> None:
    """Load a finished search's log as the current input of every page, then rerun the whole app."""
    log = job.result.log
    job.key = input_id(log.encode())
    loaded = load(job.key, source_of(job), lambda: log)
    job.result = replace(job.result, tree=None)  # the tree's statistics are in the log: free the live tree
    job.adopted = True
    if isinstance(loaded, InputError):  # cannot happen for our own log; say so rather than hide it
        job.error = f"the search's log could not be read back: {loaded.message()}"
        return
    input_panel.keep_input(log, loaded.source)
    st.rerun()  # the sidebar, drawn before this page, shows the new input


def stop_job(job: SearchJob) -> None:
    job.stop.set()


def job_panel() -> None:
    """Progress and Stop while the search runs (a fragment polling it); its summary when it ended."""
    job = jobs.latest("search")
    if job is None:
        return
    if job.running:
        bar, stop = st.columns([5, 1], vertical_alignment="center")
        elapsed = time.monotonic() - job.started
        of = f" of {job.simulations:,}" if job.seconds is None else ""
        bar.progress(job.fraction(), text=f"Searching {escape(job.label())}: {job.done:,}{of} simulations, "
                                          f"{elapsed:.1f} s")
        stop.button("Stop", key=SEARCH_STOP, icon=":material/stop:", on_click=stop_job, args=(job,),
                    width="stretch", disabled=job.stop.is_set(),
                    help="Ends the search after the current simulation; what it found so far is kept.")
        return
    if job.error is not None:
        st.error(core_sentence(job.error), icon="⚠️")
        return
    if not job.adopted:
        adopt(job)
    summary(job)


def summary(job: SearchJob) -> None:
    """What the search found: best move, root visit shares, depth, speed; links to the other pages."""
    result = job.result
    st.subheader("What the search found")
    st.caption(escape(f"{job.label()}: {job.scoring.describe()}, seed {job.seed}."))
    if result.stopped:
        st.warning(f"Stopped after {result.simulations:,} simulations; this is the tree so far.", icon=":material/stop:")
    if result.sampled:
        st.info(escape(f"The position is a chance node: the search drew {', '.join(result.sampled)} (seed {job.seed}) "
                       "and searched the position after it."), icon=":material/casino:")
    if result.outcome is not None:
        worth = ", ".join(f"{value:+g} to player {player}" for player, value in enumerate(result.outcome))
        st.success(f"Proven (MCTS-Solver): the position is worth {worth}.", icon=":material/verified:")
    rate = result.simulations / result.elapsed if result.elapsed > 0 else math.inf
    metric_row([
        ("Best move", escape(result.best_move), "The most visited root move."),
        ("Simulations", f"{result.simulations:,}"),
        ("Depth reached", result.depth, "The deepest node a simulation reached (rollouts not counted)."),
        ("Simulations / s", f"{rate:,.0f}", f"{result.elapsed:.2f} s in all."),
        ("Root value", f"{result.root_total / result.root_visits:+.3f}" if result.root_visits else "–",
         f"The mean return over all simulations for the player to move at the root, player {job.root_player}."),
    ])
    if not result.children:
        return
    root_shares(result)
    hand_over(job)


def root_shares(result) -> None:
    """Each root move's share of the visits, the best move in red (the most visited when there are many)."""
    st.altair_chart(root_shares_chart(result), width="stretch")
    moves = len(result.children)
    st.caption(
        "Red: the best move. "
        + (f"The {TOP_BARS} most visited of {moves} root moves. " if moves > TOP_BARS else "")
        + "A larger C spreads the visits over more moves; a smaller one piles them on the best-looking."
    )


def hand_over(job: SearchJob) -> None:
    """Links to the pages that show the search (it is the input now), or a button making it the input again;
    the log's download."""
    result = job.result
    if input_panel.kept_key() == job.key:
        st.success("This search is now the input of every page (the sidebar says so).", icon=":material/check:")
        links = st.columns(3)
        links[0].page_link("pages/explorer.py", label="See its tree in the Explorer", icon=":material/account_tree:")
        links[1].page_link("pages/playback.py", label="Watch it grow in Playback", icon=":material/play_circle:")
        links[2].page_link("pages/sweep.py", label="Where C changes its path", icon=":material/timeline:")
    else:
        st.button("Use this search as the input again", key=SEARCH_USE_AGAIN, icon=":material/input:",
                  on_click=input_panel.keep_input, args=(result.log, source_of(job)))
    st.download_button(
        "Download the log (JSON Lines)", lambda: result.log, file_name=f"search_{job.game.split('(')[0]}.jsonl",
        mime="application/jsonl", key=SEARCH_DOWNLOAD_LOG, on_click="ignore",
        help="Upload it later, or read it with `python -m mcts_core tree`.",
    )


st.title("Search a real game")
st.caption(
    "Run our MCTS on an OpenSpiel game from any position, with the sidebar's selection rule. The finished "
    "search, logged simulation by simulation, becomes the input of every page: its tree in the Explorer, "
    "its growth in Playback, its C sweep."
)
game_text = choose_game()
game = position = None
if game_text is not None:
    try:
        game = cached_game(game_text)
    except ValueError as error:
        show_game_problem(str(error))
if game is not None:
    position = position_panel(game)
st.divider()
scoring, simulations, seconds, seed, run_slot = budget_panel()
job = jobs.latest("search")
busy = job is not None and job.running
if run_slot.button("Run the search", key=SEARCH_RUN, type="primary", icon=":material/play_arrow:",
             disabled=busy or position is None or scoring is None):
    start(game_text, position, scoring, simulations, seconds, seed)
    jobs.latest("search").thread.join(FIRST_WAIT)
    if jobs.latest("search").running:
        st.rerun()  # draw the page again with Run disabled, and poll
st.fragment(job_panel, run_every=POLL_SECONDS if busy else None)()
