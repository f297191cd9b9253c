"""C and strength: our MCTS at each C plays games against an opponent; Elo, score and tree statistics vs C.

Five modes share the settings: a C grid (Elo with its 95% interval vs C, W/D/L, LOS and the pairs'
pentanomial, the score with the curve fitted against log C and the best C it names; for one- and
many-player games the mean return and win share), an SPRT per C (fishtest's LLR against games with
both bounds, in logistic or normalised Elo), a budget x C map (a heatmap of Elo with each budget's
best C, and each budget's fitted best C), a tuner (successive halving over the grid, its rounds
shown while it runs, then the fit over every C it played) and SPSA (fishtest's, from a start C within
the grid's range: C over the iterations beside the best C fitted to the grid's stored games). A Dask
scheduler address in the Cluster field runs the games on that cluster. Run folds the settings panel
(a line beside Run sums them up) and scrolls back to the top, so that on a 1366x768 screen the
progress, then the verdict or the first chart, sit in view right below it.

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

import pandas as pd
import streamlit as st

from mcts_core import RULES, defaults, parse_c
from mcts_core.common import StoreError
from mcts_core.search import format_moves, parse_moves
from mcts_core.strength import (
    ArenaRow, BestC, BestCAnswer, HalvingRound, ResultStore, SpsaPlan, SprtSettings, answers_by_budget, arena,
    columns, describe_answer, games_each, games_per_iteration, llr_curve, parse_budgets, plan, spsa_columns,
    spsa_plan, spsa_rows, spsa_run, stored_grid, tunable_settings, tune, tune_rounds,
)
from ui.charts.strength_charts import (
    STATISTICS, best_c_chart, best_per_budget, fit_chart, heatmap, interval_chart, llr_chart, score_chart,
    spsa_chart, spsa_constant_chart, statistic_chart,
)
from ui.common import jobs, scroll_to_top, state
from ui.common.jobs import BackgroundJob
from ui.common.markdown import escape
from ui.common.wording import core_sentence
from ui.setup.game_picker import OTHER, game_picker
from ui.shell import sidebar

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
STRENGTH_MODE = state.key("strength_mode")
STRENGTH_BUDGETS = state.key("strength_budgets")
STRENGTH_CLUSTER = state.key("strength_cluster")
STRENGTH_SPRT_ELO0 = state.key("strength_sprt_elo0")
STRENGTH_SPRT_ELO1 = state.key("strength_sprt_elo1")
STRENGTH_SPRT_ALPHA = state.key("strength_sprt_alpha")
STRENGTH_SPRT_BETA = state.key("strength_sprt_beta")
STRENGTH_SPRT_MODEL = state.key("strength_sprt_model")
STRENGTH_SPSA_START = state.key("strength_spsa_start")
STRENGTH_SPSA_CSV = state.key("strength_spsa_csv")
STRENGTH_SPSA_SECOND = state.key("strength_spsa_second")  # also tune the rule's second constant
STRENGTH_SPSA_AGAINST = state.key("strength_spsa_against_opponent")  # SPSA's sides each play the opponent
STRENGTH_SETTINGS_OPEN = state.key("strength_settings_open")  # the settings panel is open (Run folds it)
STRENGTH_FOLDED = state.key("_strength_folded")  # Run has folded the settings once this session
STRENGTH_TOP = state.key("strength_top")  # the component that scrolls to the top when a run starts


# Two-player games of perfect information (the arena pits two players); others can be typed.
GAMES = {
    "connect_four": "Connect Four",
    "tic_tac_toe": "Tic-tac-toe (mostly draws)",
    "breakthrough": "Breakthrough",
    "hex(board_size=5)": "Hex 5×5",
}
DEFAULT_C_VALUES = ", ".join(f"{c:g}" for c in defaults.ARENA_C_VALUES)
DEFAULT_BUDGETS = "50, 100, 200"
POLL_SECONDS = 0.5
MODES = {"grid": "C grid", "sprt": "SPRT per C", "map": "Budget × C map", "tune": "Tuner", "spsa": "SPSA"}
ELO_MODELS = {"logistic": "Logistic", "normalized": "Normalised"}

sidebar.ensure_app_shell()


class ArenaJob(BackgroundJob):
    """An arena run in the background (:class:`ui.common.jobs.BackgroundJob`); ``result`` holds its rows (or the tuner's result).

    Attributes:
        mode: a key of :data:`MODES`.
        settings: the keyword arguments given to :func:`arena` or :func:`tune` (but the callbacks and the store);
            for SPSA the page's settings :func:`spsa_settings` reads.
        rounds: the tuner's finished rounds, one sentence each, as they end.
    """

    def __init__(self, mode: str, settings: dict[str, Any]):
        self.mode, self.settings, self.rounds = mode, settings, []

        def work(progress, should_stop):
            if mode == "spsa":
                return spsa_run(spsa_settings(settings), store=ResultStore(), progress=progress,
                                should_stop=should_stop)
            if mode == "tune":
                tuned = {name: value for name, value in settings.items() if name != "sprt"}
                return tune(**tuned, store=ResultStore(), progress=progress, should_stop=should_stop,
                            on_round=self.round_done)
            return arena(**settings, store=ResultStore(), progress=progress, should_stop=should_stop)

        super().__init__(work, name="mcts-explorer-arena")

    def round_done(self, number: int, rounds: int, ranked: list[ArenaRow]) -> None:
        kept = ", ".join(f"{row.c:g}" for row in ranked[: -(-len(ranked) // 2)])
        self.rounds.append(f"Round {number} of {rounds}: {len(ranked)} C values with {games_each(ranked)} games each; "
                           f"best so far C = {ranked[0].c:g}" + (f"; going on: {kept}." if number < rounds else "."))


def spsa_settings(settings: dict[str, Any]) -> SpsaPlan:
    """The page's settings as an SPSA run: from the start C within the C values' range, the games field's
    iterations (ValueError: settings it cannot run, in one sentence)."""
    return spsa_plan(settings["game"], start_c=settings["start_c"], c_range=settings["c_values"],
                     iterations=settings["games"], simulations=settings["simulations"],
                     tune_setting=settings["tune_setting"], head_to_head=settings["head_to_head"],
                     **{name: settings[name] for name in ("moves", "rule", "settings", "opponent", "seed", "workers",
                                                          "cluster")})


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


def set_defaults() -> None:
    """The settings' first values (the CLI's defaults), before the summary beside Run and the widgets read them."""
    for key, default in ((STRENGTH_GAME, next(iter(GAMES))), (STRENGTH_GAME_NAME, ""),
                         (STRENGTH_MOVES, ""), (STRENGTH_C_VALUES, DEFAULT_C_VALUES),
                         (STRENGTH_GAMES, defaults.ARENA_GAMES),
                         (STRENGTH_SIMULATIONS, defaults.ARENA_SIMULATIONS),
                         (STRENGTH_OPPONENT, defaults.ARENA_OPPONENT.split(":")[0]),
                         (STRENGTH_OPPONENT_C, float(defaults.ARENA_OPPONENT.split(":")[-1])),
                         (STRENGTH_SEED, defaults.ARENA_SEED),
                         (STRENGTH_WORKERS, min(defaults.ARENA_WORKERS, os.cpu_count() or 1)),
                         (STRENGTH_MODE, "grid"), (STRENGTH_BUDGETS, DEFAULT_BUDGETS),
                         (STRENGTH_SPSA_START, defaults.SPSA_START_C),
                         (STRENGTH_CLUSTER, os.environ.get(defaults.ARENA_CLUSTER_VARIABLE, "")),
                         (STRENGTH_SPRT_ELO0, defaults.ARENA_SPRT_ELO0),
                         (STRENGTH_SPRT_ELO1, defaults.ARENA_SPRT_ELO1),
                         (STRENGTH_SPRT_ALPHA, defaults.ARENA_SPRT_ALPHA),
                         (STRENGTH_SPRT_BETA, defaults.ARENA_SPRT_BETA),
                         (STRENGTH_SPRT_MODEL, defaults.ARENA_SPRT_MODEL)):
        st.session_state.setdefault(key, default)


def settings_summary() -> str:
    """The settings in one line, beside Run: what it plays, and with the panel folded what the results are of."""
    state = st.session_state
    mode, game = state[STRENGTH_MODE], state[STRENGTH_GAME]
    parts = [MODES.get(mode, ""), escape(GAMES.get(game) or state[STRENGTH_GAME_NAME].strip() or "no game yet")]
    if state[STRENGTH_MOVES].strip():
        parts.append(f"after {escape(state[STRENGTH_MOVES].strip())}")
    games = int(state[STRENGTH_GAMES])
    if mode == "spsa":
        parts.append(f"from C = {float(state[STRENGTH_SPSA_START]):g} within {escape(state[STRENGTH_C_VALUES].strip())}")
        parts.append(f"{games:,} iterations of {games_per_iteration(not state.get(STRENGTH_SPSA_AGAINST))} games")
    else:
        parts.append(f"C = {escape(state[STRENGTH_C_VALUES].strip())}")
        parts.append(f"{games:,} games in all" if mode == "tune" else f"at most {games:,} games per C"
                     if mode == "sprt" else f"{games:,} games per C")
    parts.append(f"budgets {escape(state[STRENGTH_BUDGETS].strip())}" if mode == "map"
                 else f"{int(state[STRENGTH_SIMULATIONS]):,} simulations per move")
    if mode == "spsa" and not state.get(STRENGTH_SPSA_AGAINST):
        parts.append("C+ against C−")
    else:
        parts.append(f"against MCTS at C = {float(state[STRENGTH_OPPONENT_C]):g}" if state[STRENGTH_OPPONENT] == "mcts"
                     else "against a random player")
    return " · ".join(parts)


def fold_settings() -> None:
    """Run folds the settings away, so that the progress and then the results are in view."""
    st.session_state[STRENGTH_SETTINGS_OPEN] = False
    st.session_state[STRENGTH_FOLDED] = True


def settings_panel() -> tuple[str, dict[str, Any]] | None:
    """The mode, game, position and grid controls; ``(mode, the arena's settings)``, or None (the problem shown)."""
    persist = {"persist_state": "session"}

    mode = st.segmented_control(
        "What to measure", list(MODES), key=STRENGTH_MODE, **persist, required=True,
        format_func=MODES.get,
        help="C grid: a fixed number of games per C. SPRT per C: each C stops as soon as its test decides. "
        "Budget × C map: the grid at several simulation budgets. Tuner: successive halving finds the best C. "
        "SPSA: C moves from a start towards the better of two nearby C values, iteration by iteration, as "
        "fishtest tunes engines.",
    )
    row = st.columns([2, 2, 3], vertical_alignment="bottom")
    game, _ = game_picker(row[0], row[1], GAMES, game_key=STRENGTH_GAME, name_key=STRENGTH_GAME_NAME,
                          placeholder="e.g. catch, pig(players=3) or connect_four(rows=5)")
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

    row = st.columns([4, 2, 2] if mode != "spsa" else [3, 2, 2, 2], vertical_alignment="bottom")
    c_text = row[0].text_input(
        "C values", key=STRENGTH_C_VALUES, **persist,
        help="SPSA keeps C between the smallest (above 0) and the largest, and its chart marks the best C "
        "fitted to the games these C values have stored." if mode == "spsa"
        else "The MCTS side's exploration constants, separated by commas.")
    start_c = None
    if mode == "spsa":
        start_c = row.pop(1).number_input(
            "Start C", min_value=0.0, step=0.1, format="%.4g", key=STRENGTH_SPSA_START, **persist,
            help="Where SPSA starts; each iteration plays a C above it and one below it, and C moves towards "
            "the better.")
    games = row[1].number_input(
        "Iterations" if mode == "spsa" else "Games in all" if mode == "tune" else "Most games per C" if mode == "sprt"
        else "Games per C",
        1, 100_000, step=10, key=STRENGTH_GAMES, **persist,
        help="A multiple of the number of players: two-player games are played in pairs (same seed, seats "
        "swapped), others in groups that rotate the seats. The tuner shares this many games among its rounds; "
        "SPSA plays this many iterations of 2 games (4 when each side plays the opponent).")
    if mode == "map":
        budget_text = row[2].text_input("Simulation budgets", key=STRENGTH_BUDGETS, **persist,
                                        help="Simulations per move, separated by commas: one row of the map each.")
    else:
        simulations = row[2].number_input("Simulations per move", 1, 100_000, step=50,
                                          key=STRENGTH_SIMULATIONS, **persist,
                                          help="Each search's budget, for every move of both MCTS players.")
    head_to_head = False
    if mode == "spsa":
        head_to_head = not st.checkbox(
            "Each side plays the opponent", key=STRENGTH_SPSA_AGAINST, **persist,
            help="Off (fishtest's way): each iteration's pair is the side at the higher C against the side at the "
            "lower, 2 games. On: each side plays the opponent, a pair each, so SPSA answers the grid's question "
            "(the best C against it); for the same games it ends farther from the best C.")
    row = st.columns([5, 4, 4, 4], vertical_alignment="bottom")  # room for both opponents inside the panel at 1366 px
    kind = row[0].segmented_control(
        "Opponent", ["mcts", "random"], key=STRENGTH_OPPONENT, **persist, required=True, disabled=head_to_head,
        format_func=lambda kind: {"mcts": "MCTS at a fixed C", "random": "Random"}[kind],
        help="Random plays uniformly random legal moves; MCTS is the same search, rule and budget at the "
        "opponent's C. It takes every seat but the tested one.",
    )
    opponent_c = row[1].number_input(
        "Opponent's C", min_value=0.0, step=0.1, format="%.4g", key=STRENGTH_OPPONENT_C, **persist,
        disabled=kind != "mcts" or head_to_head,
    )
    seed = row[2].number_input("Seed", 0, step=1, key=STRENGTH_SEED, **persist,
                               help="With the pair's number, seeds each game: the same settings give the same games.")
    workers = row[3].number_input("Processes", 1, max(os.cpu_count() or 1, 1), step=1, key=STRENGTH_WORKERS,
                                  **persist, help="Local worker processes playing games at once (one per core).")
    cluster = st.text_input(
        "Dask cluster (optional)", key=STRENGTH_CLUSTER, **persist, placeholder="tcp://HOST:8786",
        help="A Dask scheduler's address: the games run on its workers instead of local processes, with the "
        f"same results. Empty: local processes. Its default comes from ${defaults.ARENA_CLUSTER_VARIABLE}.",
    ).strip()
    problems = []
    sprt = None
    if mode == "sprt":
        row = st.columns([4, 3, 3, 3, 3], vertical_alignment="bottom")
        model = row[0].segmented_control(
            "Elo model", list(ELO_MODELS), key=STRENGTH_SPRT_MODEL, **persist, required=True, format_func=ELO_MODELS.get,
            help="As fishtest: logistic Elo is the Elo of the expected score; normalised Elo is the score's "
            "t-value ((score − ½) / its standard deviation per game × 800 / ln 10), which does not change "
            "with the draw ratio. elo0 and elo1 are in the chosen model.")
        elo0 = row[1].number_input("elo0 (H0)", step=5.0, key=STRENGTH_SPRT_ELO0, **persist)
        elo1 = row[2].number_input("elo1 (H1)", step=5.0, key=STRENGTH_SPRT_ELO1, **persist)
        alpha = row[3].number_input("alpha", step=0.01, format="%.3g", key=STRENGTH_SPRT_ALPHA, **persist)
        beta = row[4].number_input("beta", step=0.01, format="%.3g", key=STRENGTH_SPRT_BETA, **persist)
        try:
            sprt = SprtSettings(elo0=float(elo0), elo1=float(elo1), alpha=float(alpha), beta=float(beta), model=model)
        except ValueError as error:
            problems.append(str(error))
    rule, settings = sidebar.rule_choice()
    st.caption(f"Rule: **{escape(RULES[rule].name)}** with the sidebar's settings (C is "
               f"{'SPSA' if mode == 'spsa' else 'the grid'}'s). Score = "
               "(wins + draws / 2) / games and Elo, from the tested side's view.")
    tune_setting = None
    tunable = tunable_settings(rule) if mode == "spsa" else {}
    if tunable:  # the rule's second constant, such as KataGo's cpuct base
        name, label = next(iter(tunable.items()))
        if st.checkbox(f"Also tune {label}", key=STRENGTH_SPSA_SECOND, **persist,
                       help=f"SPSA moves {label} beside C, in log scale, from the sidebar's value."):
            tune_setting = name
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
    budgets: Any = int(simulations) if mode != "map" else None
    if mode == "map":
        try:
            budgets = parse_budgets(budget_text)
        except ValueError as error:
            problems.append(str(error))
    if problems:
        for problem in problems:
            st.error(core_sentence(problem), icon="⚠️")
        return None
    chosen = dict(game=game, moves=moves, c_values=c_values, games=int(games), simulations=budgets,
                  rule=rule, settings=settings, opponent=f"mcts:{opponent_c!r}" if kind == "mcts" else "random",
                  seed=int(seed), workers=int(workers), cluster=cluster or None, sprt=sprt)
    return mode, chosen if start_c is None else {**chosen, "start_c": float(start_c), "tune_setting": tune_setting,
                                                 "head_to_head": head_to_head}


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


def rows_frame(rows: list[ArenaRow], names: tuple[str, ...]) -> pd.DataFrame:
    return pd.DataFrame([{name: getattr(row, name) for name in names} for row in rows], columns=list(names))


def stop_job(job: ArenaJob) -> None:
    job.stop.set()


def signed_elo(value: float) -> str:
    return "+∞" if value == float("inf") else "−∞" if value == -float("inf") else f"{value:+.0f}"


def elo_and_interval(row: Any) -> str:
    """A row's Elo and its 95% interval, "−120 [−388, +147]" (the score interval in Elo)."""
    return f"{signed_elo(row.elo)} [{signed_elo(row.elo_low)}, {signed_elo(row.elo_high)}]"


ELO_INTERVAL_HELP = "The 95% interval of the Elo: the score's 95% interval (score low to high) in Elo."
COLUMNS = {
    "c": st.column_config.NumberColumn("C", format="%g"),
    "low": st.column_config.NumberColumn("score low", format="%.3f", help="The score's 95% Wilson interval."),
    "high": st.column_config.NumberColumn("score high", format="%.3f", help="The score's 95% Wilson interval."),
    "elo": st.column_config.NumberColumn("Elo", format="%+.1f"),
    "elo_low": st.column_config.NumberColumn("Elo low", format="%+.1f", help=ELO_INTERVAL_HELP),
    "elo_high": st.column_config.NumberColumn("Elo high", format="%+.1f", help=ELO_INTERVAL_HELP),
    "los": st.column_config.NumberColumn("LOS", format="%.3f"),
}
# cutechess-cli's and fishtest's symmetric "±": in the CSV, not in the table, which shows one interval per row.
CSV_ONLY = ("elo_error", "pair_elo_error")


def rows_table(frame: pd.DataFrame) -> None:
    """The rows as a table: the Elo interval next to the Elo, the symmetric "±" columns left to the CSV."""
    order = [name for name in frame.columns if name not in (*CSV_ONLY, "elo_low", "elo_high")]
    if "elo" in order:
        order[order.index("elo") + 1:order.index("elo") + 1] = ["elo_low", "elo_high"]
    st.dataframe(frame, hide_index=True, key=STRENGTH_TABLE, column_order=order, column_config=COLUMNS)


def running(job: ArenaJob) -> None:
    """The progress bar, Stop and (for the tuner) the finished rounds."""
    bar, stop = st.columns([5, 1], vertical_alignment="center")
    elapsed = time.monotonic() - job.started
    if job.total and job.mode == "spsa":
        bar.progress(min(job.done / job.total, 1.0), text=f"Playing: {job.done:,} of {job.total:,} iterations, "
                     f"{elapsed:.0f} s (each is stored as it ends)")
    elif job.total:  # known from the start of the games (the arena reports 0 of them first)
        what = "this round's" if job.mode == "tune" else "the"
        bar.progress(min(job.done / job.total, 1.0), text=f"Playing: {job.done:,} of {what} {job.total:,} games, "
                     f"{elapsed:.0f} s (games are stored as they finish)")
    else:  # the game is loading and the store is read: the games to play are not counted yet
        bar.progress(0.0, text=f"Starting: loading the game and the games stored for these settings, {elapsed:.0f} s")
    stop.button("Stop", key=STRENGTH_STOP, icon=":material/stop:", on_click=stop_job, args=(job,),
                width="stretch", disabled=job.stop.is_set(),
                help="Cancels the games not finished; finished games stay stored and a new Run resumes.")
    for sentence in job.rounds:
        st.caption(sentence)


def round_plan(planned: list[HalvingRound]) -> str:
    """The rounds in words: "6 C values × 2 games, 3 × 6, then 2 × 8 and 2 more for the best so far"."""
    parts = [f"{one.c_values} C values × {one.games:,} games" if number == 0 else f"{one.c_values} × {one.games:,}"
             for number, one in enumerate(planned)]
    last = planned[-1]
    if last.extra:  # one group each, the best first (with one round: the first listed)
        whom = "the first C listed" if len(planned) == 1 else "the best so far" if last.extra == 1 else (
            f"the {last.extra} best so far")
        parts[-1] += f" and {last.extra * last.players:,} more for {whom}"
    return ", ".join(parts[:-1]) + (", then " if len(parts) > 1 else "") + parts[-1]


def tuner_plan(settings: dict[str, Any]) -> None:
    """What Run will play: every game asked for, round by round (or why it cannot)."""
    try:
        planned = tune_rounds(**{name: value for name, value in settings.items() if name != "sprt"})
    except ValueError as error:
        show_problem(str(error))
        return
    st.info(f"Run plays {settings['games']:,} games in all over {len(settings['c_values'])} C values at "
            f"{settings['simulations']:,} simulations per move, in {len(planned)} successive-halving "
            f"round{'s' if len(planned) > 1 else ''}: {round_plan(planned)}.", icon=":material/info:")


def tuned(job: ArenaJob) -> None:
    """The tuner's answer: the best C with its interval, the games spent, and every C's row."""
    result = job.result
    if result is None or result.best is None:
        st.warning("Stopped before the first round ended; Run starts again from the stored games.",
                   icon=":material/stop:")
        return
    best = result.best  # the answer first: in view below the folded settings
    if best.players == 2:
        st.success(f"Best C = {best.c:g}: Elo {elo_and_interval(best)} against the opponent (with its 95% interval), "
                   f"score {best.score:.3f}, from {best.games:,} games; {result.games:,} games in all.",
                   icon=":material/emoji_events:")
    else:
        st.success(f"Best C = {best.c:g}: mean return {best.mean_return:.3f} (95% interval {best.return_low:.3f} "
                   f"to {best.return_high:.3f}) from {best.games:,} games; {result.games:,} games in all.",
                   icon=":material/emoji_events:")
    if best.players == 2:
        answer = answers_by_budget(result.rows)[best.simulations]
        st.markdown(f"Fitted over every C's games: {escape(describe_answer(answer))}.")
    for sentence in job.rounds:
        st.caption(sentence)
    names = columns(best.players)
    frame = rows_frame(result.rows, names).assign(round=[result.rounds[row.c] for row in result.rows])
    rows_table(frame.sort_values("c"))
    if best.players == 2 and isinstance(answer.fit, BestC):
        st.altair_chart(fit_chart(frame, job.settings["c_values"], answer.fit, answer), width="stretch")
        st.caption("The tuner's C values with their scores and 95% intervals (C values dropped early played fewer "
                   "games; green rings: not significantly below the best measured score), the quadratic fitted "
                   "against log C over all of them (dashed where its shape does not fit), its conservative C (purple "
                   "triangle), and the best C with its 95% interval (green).")


def results(choice: tuple[str, dict[str, Any]] | None) -> None:
    """Progress and Stop while the games play (a fragment polling them), then the charts and the table."""
    job = jobs.latest("strength")
    if job is not None and job.running:
        running(job)
    elif job is not None and job.error is not None and (job.mode, job.settings) == choice:
        show_problem(job.error)
    if choice is None:
        return
    mode, settings = choice
    if mode == "spsa":
        spsa_section(job, settings)
        return
    if mode == "tune":
        if job is not None and not job.running and (job.mode, job.settings) == choice and job.error is None:
            tuned(job)
        elif not (job is not None and job.running):
            tuner_plan(settings)
        return
    try:
        rows = stored_rows(settings)
    except (ValueError, StoreError) as error:  # StoreError: the result store cannot be opened or read
        show_problem(str(error))
        return
    budgets = settings["simulations"] if isinstance(settings["simulations"], list) else [settings["simulations"]]
    wanted = len(settings["c_values"]) * len(budgets)
    same = job is not None and (job.mode, job.settings) == choice
    if same and not job.running and job.stop.is_set() and len(rows) < wanted:
        st.warning(f"Stopped with {len(rows)} of {wanted} C values finished; Run plays the rest.",
                   icon=":material/stop:")
    elif not rows and job is not None and job.running:
        return  # the progress bar says it all until the first C is done
    elif not rows:
        most = "at most " if mode == "sprt" else ""
        st.info(f"No C value is finished for these settings yet: Run plays {most}{wanted * settings['games']:,} "
                f"games ({wanted} C values × {settings['games']:,}), none already stored again.", icon=":material/info:")
        return
    elif len(rows) < wanted and not (job is not None and job.running):
        st.info(f"{len(rows)} of {wanted} C values are stored for these settings; Run plays the other "
                f"{wanted - len(rows)}.", icon=":material/info:")
    elif job is not None and job.running:
        st.caption(f"{len(rows)} of {wanted} C values finished so far (games are stored as they finish).")
    elif not same:
        st.caption("From the result store: these settings were played before.")
    if rows:
        show_rows(mode, settings, rows)


def spsa_section(job: ArenaJob | None, settings: dict[str, Any]) -> None:
    """SPSA's path so far (from the store) with its end point, beside the best C fitted to the grid's stored games."""
    try:
        run = spsa_settings(settings)
        store = ResultStore()
        steps = store.load_spsa_steps(run.run_key())[: run.iterations]
        grid = stored_grid(run.arena, settings["c_values"], run.simulations, store)
    except (ValueError, StoreError) as error:
        if job is None or job.error != str(error):  # a run of these settings said it already
            show_problem(str(error))
        return
    same = job is not None and (job.mode, job.settings) == ("spsa", settings)
    busy = job is not None and job.running
    if not steps:
        if not busy:
            st.info(f"No iteration is stored for these settings yet: Run plays {run.iterations:,} iterations of "
                    f"{run.games_per_iteration} games ({run.games_per_iteration * run.iterations:,} games).",
                    icon=":material/info:")
        return
    rows = spsa_rows(run, steps)
    end = rows[-1]["after"]
    if len(steps) < run.iterations:
        if same and not busy and job.stop.is_set():
            st.warning(f"Stopped after {len(steps):,} of {run.iterations:,} iterations; Run goes on from there.",
                       icon=":material/stop:")
        elif not busy:
            st.info(f"{len(steps):,} of {run.iterations:,} iterations are stored for these settings; Run plays the "
                    "rest.", icon=":material/info:")
        st.markdown(f"**SPSA: C = {end:.3g} after {len(steps):,} of {run.iterations:,} iterations.**")
    else:
        games = run.games_per_iteration * run.iterations
        st.success(f"SPSA: C = {end:.3g} after {run.iterations:,} iterations ({games:,} games), "
                   f"from C = {settings['start_c']:g}.", icon=":material/emoji_events:")
    answer = answers_by_budget(grid).get(run.simulations) if grid else None
    if answer is not None:
        st.markdown(f"The grid's stored games ({len(grid)} C values): {escape(describe_answer(answer))}.")
    else:
        st.caption("No grid of these C values is stored for these settings: run the C grid to draw its best C "
                   "beside SPSA's path.")
    frame = pd.DataFrame(rows, columns=list(spsa_columns(run)))
    st.altair_chart(spsa_chart(frame, settings["c_values"], answer), width="stretch")
    played = ("one game pair against each other" if run.head_to_head
              else "a game pair each against the opponent on the same seeds")
    st.caption("Orange: C after each iteration; faint dots: the two C values each iteration played, "
               f"{played}; C moves towards the one that did better, by steps "
               "that shrink as fishtest's schedules shrink (in log C)." + (
                   " Green shading: the 95% interval of the best C fitted to the grid's games, with a dashed line at "
                   "that best C once the grid tells it." if answer is not None else ""))
    if run.setting is not None:
        label = tunable_settings(run.arena.rule)[run.setting]
        st.markdown(f"**{escape(label)}** ends at {rows[-1][run.setting + '_after']:.4g}, tuned beside C: each side "
                    f"played its own {escape(label)} as well as its own C (on a log scale, as C).")
        st.altair_chart(spsa_constant_chart(frame, run.setting, label), width="stretch")
    st.download_button("Download the iterations (CSV)", lambda: frame.to_csv(index=False), file_name="c_spsa.csv",
                       mime="text/csv", key=STRENGTH_SPSA_CSV, on_click="ignore")


def show_rows(mode: str, settings: dict[str, Any], rows: list[ArenaRow]) -> None:
    players = rows[0].players
    names = columns(players, mode == "sprt")
    frame = rows_frame(rows, names).sort_values(["simulations", "c"])
    grid = settings["c_values"]
    opponent = "a random player" if settings["opponent"] == "random" else (
        f"MCTS at C = {float(settings['opponent'].removeprefix('mcts:')):g}")
    if players == 2 and mode == "map":
        st.subheader(f"Elo against {opponent}, budget × C")
        st.altair_chart(heatmap(frame), width="stretch")
        best = best_per_budget(frame)
        st.caption("★ marks each budget's best C: " + "; ".join(
            f"{int(row.simulations):,} simulations: C = {row.c:g}, Elo {elo_and_interval(row)}"
            for row in best.itertuples()) + " (with 95% intervals; colours clipped at ±800).")
        fitted_per_budget(rows, grid)
    if players == 2 and mode == "sprt":
        sprt_section(settings, rows)  # the verdicts first: in view below the folded settings
    if players == 2:
        st.subheader(f"Elo against {opponent}")
        st.altair_chart(interval_chart(frame, grid, "elo", "elo_low", "elo_high", "Elo",
                                       ["elo", "elo_low", "elo_high", "los", "games"]), width="stretch")
        st.caption("Error bars: the 95% interval of the Elo difference, the score's 95% interval in Elo (so the "
                   "two charts agree). It is wider towards a score of 0 or 1, and open only on a side where no "
                   "game was lost (or none won): that end, like an infinite Elo, is left out. LOS, the draw ratio "
                   "and the pairs' pentanomial view are in the table; the CSV adds cutechess-cli's symmetric ± "
                   "(elo_error).")
        answers = answers_by_budget(rows) if len(set(frame["simulations"])) == 1 else {}
        answer = next(iter(answers.values()), None)
        if answer is not None and isinstance(answer.fit, BestC):
            score_with_fit(frame, grid, answer, opponent)
        else:
            st.subheader(f"Score against {opponent}")
            st.altair_chart(score_chart(frame, grid), width="stretch")
            if answer is not None:
                st.caption(f"No fitted best C: {escape(str(answer.fit))}.")
    else:
        title = "Mean return" if players == 1 else f"Mean return and win share against {opponent}"
        st.subheader(title)
        st.altair_chart(interval_chart(frame, grid, "mean_return", "return_low", "return_high", "mean return",
                                       ["mean_return", "return_low", "return_high", "games"]), width="stretch")
        if players > 2:
            st.altair_chart(interval_chart(frame, grid, "win_share", "win_low", "win_high", "win share",
                                           ["win_share", "win_low", "win_high", "games"]), width="stretch")
            st.caption("The tested side takes each seat in turn; a win shared by k seats counts 1/k.")
    st.subheader("What C does to the trees")
    for column, place in zip(STATISTICS, st.columns(3, gap="medium")):
        title, _, meaning = STATISTICS[column]
        place.markdown(f"**{title}**", help=meaning)
        place.altair_chart(statistic_chart(frame, grid, column), width="stretch")
    st.caption(
        "Means over each game's first search by the tested side. A small C piles the visits on the first move "
        "that looks good (low entropy, a large share on one move, deep lines); a large C spreads them evenly "
        "(high entropy, shallow trees). Playing strength sits between the two."
    )
    st.subheader("The rows")
    rows_table(frame)
    # Made on click, as every download here: a file made with the page is dropped by the next poll's
    # run, and the page, still asking for it, logged a 404.
    st.download_button("Download the rows (CSV)", lambda: frame.to_csv(index=False), file_name="c_strength.csv",
                       mime="text/csv", key=STRENGTH_CSV, on_click="ignore")


def score_with_fit(frame: pd.DataFrame, grid: list[float], answer: BestCAnswer, opponent: str) -> None:
    """The score chart with the fitted curve, and the best C in words above it."""
    st.subheader(f"Score against {opponent}, and the best C fitted to it")
    st.markdown(f"**Fit: {escape(describe_answer(answer))}.**")
    st.altair_chart(fit_chart(frame, grid, answer.fit, answer), width="stretch")
    st.caption(
        "Dots: each C's score with its 95% interval; green rings: the C values whose score is not significantly "
        "below the best measured one (paired, corrected for the number of comparisons). Orange: the score fitted "
        "against log C over the grid (a quadratic through a logistic link, weighted by each C's games) with its "
        "95% band, dashed when its shape does not fit the points. Green shading: the best C's 95% interval, from a "
        "curve fitted only to the points around the best measured C (it holds on lopsided curves too), with a "
        "line at the best C once the data tell it. Purple triangle: the conservative C, whose fitted score has the "
        "highest 95% lower bound. Uncertainty is measured from the game pairs themselves; C = 0 is left out of the "
        "fits (log C).")


def fitted_per_budget(rows: list[ArenaRow], grid: list[float]) -> None:
    """The budget x C map's best C for each budget: in words, and as a chart when two or more are found."""
    answers = answers_by_budget(rows)
    st.markdown("**Fitted best C per budget** (the score against log C at each budget):\n" + "".join(
        f"\n- {budget:,} simulations: {escape(describe_answer(answer))}." for budget, answer in sorted(answers.items())))
    found = {budget: answer for budget, answer in answers.items() if answer.found}
    if len(found) >= 2:
        st.altair_chart(best_c_chart(found, grid), width="stretch")


def sprt_section(settings: dict[str, Any], rows: list[ArenaRow]) -> None:
    """The LLR of each C's pairs against games played, with both bounds, and the verdicts."""
    sprt: SprtSettings = settings["sprt"]
    store, key = ResultStore(), plan(**{name: settings[name] for name in (
        "game", "moves", "rule", "settings", "opponent", "seed")}).key()
    curves = []
    for row in rows:
        games = [game for index, game in sorted(store.load(key, row.simulations, row.c).items()) if index < row.games]
        curves.append((row.c, llr_curve(games, sprt)))
    elo = "Elo" if sprt.model == "logistic" else "normalised Elo"
    verdicts = {"H1": f"better than {sprt.elo0:g} {elo} (H1 accepted) after {{:,}} games",
                "H0": f"not {sprt.elo1:g} {elo} better (H0 accepted) after {{:,}} games",
                "inconclusive": "no verdict after {:,} games (the most allowed)"}
    st.subheader(f"SPRT: H0 {elo} = {sprt.elo0:g} against H1 {elo} = {sprt.elo1:g}")
    st.markdown("; ".join(f"C = {row.c:g}: {verdicts[row.sprt].format(row.games)}" for row in rows) + ".")
    st.altair_chart(llr_chart(curves, sprt.bounds), width="stretch")
    st.caption(f"The exact generalised LLR of each C's game pairs after every pair, decided as fishtest decides "
               f"(alpha = {sprt.alpha:g}, beta = {sprt.beta:g}): a line stops where it passes a bound. The LLR moves "
               "in jumps, so fishtest moves each bound in by the overshoot it expects (estimated from the jumps to "
               "the line's new highs or lows): a line can stop a little inside the dashed bound. The tooltip and the "
               "table's llr_low and llr_high give the bounds in effect.")


st.title("C and playing strength")
st.caption(
    "Our MCTS plays games at each C against an opponent, in pairs with the seats swapped: Elo with its 95% interval, "
    "LOS and score, as engine testers measure them, and the trees that explain them. Finished games are stored: "
    "settings played before reappear at once, a stopped run resumes."
)
set_defaults()
job = jobs.latest("strength")
# Open until the first run of the session; Run folds it, so that the results fill the screen below it.
# Its label stays "Settings": a label that changed with the settings would redraw the panel on every
# commit, and the field the user had tabbed to would lose its focus and what was typed into it.
# Its default changes in Run's callback, not with the job made later in that run: a default that
# changed one run after the fold made the browser fold it again when a click next opened it.
with st.expander("Settings", expanded=not st.session_state.get(STRENGTH_FOLDED), key=STRENGTH_SETTINGS_OPEN,
                 on_change="rerun", icon=":material/tune:"):
    choice = settings_panel()
busy = job is not None and job.running
run_row = st.container(horizontal=True, vertical_alignment="center", gap="medium")
if run_row.button("Run", key=STRENGTH_RUN, type="primary", icon=":material/play_arrow:",
                  disabled=busy or choice is None, on_click=fold_settings):
    job = ArenaJob(*choice)
    jobs.keep("strength", job)
    job.thread.join(0.3)
    if job.running:
        st.rerun()  # draw the page again with Run disabled, and poll
run_row.caption(settings_summary())
# A new run: back to the top, where its progress and results now sit under the folded settings.
scroll_to_top.render(key=STRENGTH_TOP, mark=None if job is None else repr(job.started))


def poll(choice: tuple[str, dict[str, Any]] | None, polling: bool) -> None:
    """While games play: progress, Stop and the rows so far, redrawn every half second."""
    job = jobs.latest("strength")
    if polling and job is not None and not job.running:
        st.rerun()  # the run ended: the whole page again, to stop polling and enable Run
    results(choice)


# One fragment in every run, polling only while games play: a poll the browser sent just before the
# run that stopped polling then finds its fragment (Streamlit logs one it cannot find).
st.fragment(poll, run_every=POLL_SECONDS if busy else None)(choice, busy)
