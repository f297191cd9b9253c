"""Command line: ``mcts-explorer`` (installed) or ``python -m mcts_core`` solves the puzzle read from stdin.

Usage and help name the command as it was invoked. ``mcts-explorer app`` serves the app
(:mod:`.app_command`); help lists it with the others. Every command reads any accepted input on stdin: puzzle text, a JSON Lines log or a JSON tree dump.

* ``python -m mcts_core [--c C] [--rule R]``: the selected path. Puzzle text prints the moves run
  together (the puzzle's answer); JSON input prints them joined by single spaces; a simultaneous-
  move log prints each joint step as the players' own choices joined by ``|`` (``--rule`` may then
  be ``regret_matching`` or ``exp3`` too). ``sweep`` refuses simultaneous input.
* ``python -m mcts_core sweep --c-min A --c-max B [--rule R]``: where the rule's selected path changes
  as C goes over [A, B) (the input's C plays no part; the rule and its settings as for the other
  commands): one line per interval, ``c_from c_to path``, in order,
  floats in ``repr`` precision, a breakpoint belonging to the interval it starts (see
  :mod:`mcts_core.analysis.sweep`). An empty path (a root without children) would print as an empty last
  field, ``0.0 1.5 `` with the trailing space; input with at least one playout always gives the
  root a child.
* ``python -m mcts_core tree [--c C] [--rule R]``: the tree as a JSON tree dump, with
  ``"selected": move`` on every node with children (the child the rule picks there at that C) and
  ``"visits_to_flip"`` on every other child of a node the rule chooses at: the further visits the
  selected child takes before this one passes it, null where it never does
  (:mod:`mcts_core.analysis.flip_visits`).
* ``python -m mcts_core convergence [--node MOVES]``: CSV ``visits,move,child_visits,value``, one row
  per child of the node (the root by default) per sample of the node's visits on a log grid: the
  child's visits and mean in the tree after the node's ``visits``-th visit
  (:mod:`mcts_core.analysis.convergence`); a simultaneous log by its joint moves. A tree dump has no
  order: exit 2 and one line. An engine's stream gives one sample per update of the search the
  chosen analysis (``--analysis N``, default the last) reports, the root's numbers as printed; a
  single snapshot has no order (exit 2). ``--c`` and ``--rule`` are checked as for the other
  commands; the CSV depends on neither.
* ``python -m mcts_core export --out bundle.zip [--c C] [--rule R]``: the bundle the app's
  "Download bundle" gives (:mod:`mcts_core.inputs.bundle`): input, tree, node statistics, picture,
  settings; uploading it in the app opens that view.
* ``python -m mcts_core fit``: arena CSV on stdin, its rows with the best C's columns added, one fit
  per ``simulations`` (:mod:`mcts_core.cli.fit_command`).
* ``python -m mcts_core search --game G [--moves M] --simulations N [--seconds S] [--c C]
  [--rule R] [--seed K] [--solve] [--algorithm sequential|duct|smitsimax] [--progress]``: runs our MCTS
  on an OpenSpiel game and writes its JSON Lines log to stdout as it goes (reads no input); duct and
  smitsimax search simultaneous-move games; ``--solve`` proves outcomes (MCTS-Solver). Defaults:
  :mod:`mcts_core.defaults`. See :mod:`mcts_core.cli.game_commands`.
* ``python -m mcts_core arena --game G [--c 0.1,1,10] [--games N] [--simulations N[,N...]] [--opponent
  random|mcts:C] [--seed K] [--workers W] [--cluster tcp://HOST:8786] [--sprt ...] [--tune] [--fit] [--no-store]
  [--progress]``: playing strength at each C (and budget), as CSV with a header row (see
  :mod:`mcts_core.cli.game_commands`). Ctrl-C stops it with exit status 130.
* ``python -m mcts_core spsa --game G [--c START] [--iterations N] [--simulations S] [--opponent
  random|mcts:C] [--tune-setting NAME] [--store FILE | --no-store] [--seed K] [--workers W] [--cluster ...]``:
  C tuned by fishtest's SPSA with arena games, one CSV row per iteration and the end point on stderr
  (:mod:`mcts_core.cli.spsa_command`); a rerun resumes from the stored iterations.

C comes from ``--c``, else from the input; the rule from ``--rule``, else from the input, else UCB1;
its settings from the input when the input names that rule, else the rule's defaults. A subcommand's
``--c`` and ``--rule`` may also come before it (``--rule puct sweep``).
Bad input exits with status 2 and one line on stderr: ``error: line N: what is wrong``. Bad
arguments exit with status 2 and one line ``error: what is wrong``.
"""

from __future__ import annotations

import argparse
import sys

from .. import defaults
from ..common.input_rules import ParseError, decode_text
from ..common.numbers import parse_c

INSTALLED_COMMAND = "mcts-explorer"  # pyproject's [project.scripts] name; `python -m mcts_core` says its own


class _Parser(argparse.ArgumentParser):
    """argparse with the CLI's one-line error format."""

    def error(self, message: str):
        print(f"error: {message}", file=sys.stderr)
        raise SystemExit(2)


def _c_argument(text: str) -> float:
    """A C given on the command line: a finite number >= 0."""
    try:
        return parse_c(text)
    except ValueError as error:  # argparse would name the function instead of saying this
        raise argparse.ArgumentTypeError(str(error)) from None


def _rule_help() -> str:
    """The rules ``--rule`` takes, from the registry (regret matching and EXP3: simultaneous input only)."""
    from ..selection.registry import DEFAULT_RULE, RULES

    return "selection rule: " + ", ".join(f"{key} (default)" if key == DEFAULT_RULE else key for key in RULES)


def _selection_options(parser: argparse.ArgumentParser, *, c: bool = True, subcommand: bool = False) -> None:
    """``--c`` (unless ``c`` is False) and ``--rule``. On a subcommand they default to the values given
    before it (argparse would otherwise reset them to None)."""
    default = argparse.SUPPRESS if subcommand else None
    if c:
        parser.add_argument("--c", type=_c_argument, default=default,
                            help="exploration constant C; overrides the C of the input's header (the `N C` line, "
                            "or \"c\" in JSON)")
    parser.add_argument("--rule", default=default, help=_rule_help())
    parser.add_argument("--analysis", type=int, default=default, metavar="N",
                        help="an engine's file with several analyses (positions, queries, updates of a stream): "
                        "use the N-th (1 = the first; default: the last)")


def _chosen_analysis(read, number: int):
    """``read`` showing its engine file's analysis ``number`` (1-based).

    Raises:
        ParseError: there is no such analysis (line 1), or its numbers do not make a tree.
    """
    from ..common.input_rules import ParseError
    from ..inputs.loading import engine_input

    count = len(read.analyses) or 1
    if not 1 <= number <= count:
        what = "an engine's analyses" if read.analyses else "analyses (only an engine's file has several)"
        raise ParseError(1, f"--analysis {number}: the input has {count:,} of {what}; give 1 to {count:,}")
    return engine_input(read.analyses, number - 1) if read.analyses else read


def _input_command(commands, name: str, description: str, help: str, *, c: bool = True) -> argparse.ArgumentParser:
    """A subcommand that reads the input on stdin, with the selection options (``--c`` unless ``c`` is False)."""
    parser = commands.add_parser(name, description=description, help=help, allow_abbrev=False)
    _selection_options(parser, c=c, subcommand=True)
    return parser


def _arguments(argv: list[str] | None, prog: str) -> argparse.Namespace:
    parser = _Parser(prog=prog, description="Solve the MCTS exercise (or read a search) from stdin.")
    _selection_options(parser)
    commands = parser.add_subparsers(dest="command", parser_class=_Parser)
    # Listed for --help only: main() hands `app` and everything after it to Streamlit before parsing.
    commands.add_parser("app", add_help=False, help="serve the app in a browser; Streamlit's options follow")
    sweep_parser = _input_command(
        commands, "sweep",
        "Print the intervals of C over which the selected path is constant, under the rule (--rule, else the "
        "input's, else UCB1) and its settings (the input's for its own rule).",
        "print `c_from c_to path` for each interval of C with one selected path", c=False,
    )
    sweep_parser.add_argument("--c-min", type=_c_argument, default=0.0, help="start of the C range (default 0)")
    sweep_parser.add_argument("--c-max", type=_c_argument, required=True, help="end of the C range (excluded)")
    _input_command(commands, "tree", "Print the tree as a JSON tree dump, with each node's selected child.",
                   "print the tree as JSON with each node's selected child")
    convergence_parser = _input_command(
        commands, "convergence",
        "Print how the node's children's visits and values grow with the node's visits, as CSV "
        "visits,move,child_visits,value: one row per child per sample, the samples on a log grid of the node's "
        "visits (a few hundred at most). Needs an input with an order (playouts or a log, not a tree dump); an "
        "engine's stream gives the root at each update of the search --analysis N reports.",
        "print each child's visits and value over the node's visits as CSV",
    )
    convergence_parser.add_argument("--node", default="", metavar="MOVES",
                                    help="the moves from the root to the node (default: the root)")
    export_parser = _input_command(
        commands, "export",
        "Write the input's bundle: input, tree, node statistics, picture and settings, as a zip.",
        "write a bundle zip the app can reopen",
    )
    export_parser.add_argument("--out", required=True, help="the zip file to write")
    commands.add_parser(
        "fit", help="fit the best C to arena CSV on stdin: the rows with the fit's columns added",
        description="Read arena CSV on stdin (at least the columns c,games,wins,draws,losses,score,pairs,ll,ld,dd_wl,"
        "wd,ww,simulations) and print its rows with the fit's columns added, one fit per simulations value: "
        "the quadratic's (fit_score,fit_low,fit_high,fit_best_c,fit_best_low,fit_best_high,fit_safe_c,fit_misfit,"
        "fit_shape), the local fit's best C to trust (best_c,best_low,best_high,best_verdict,next_c) and the "
        "model-free set (set_member,set_low,set_high). An interval end the data leave open is 0 or inf; a best "
        "C the data cannot tell yet is nan, with the C values to play next.",
        allow_abbrev=False,
    )
    _search_commands(commands)
    arguments = parser.parse_args(argv)
    if arguments.command == "app":
        parser.error(f"`app` comes first, before any option: {prog} app [Streamlit's options]")
    if arguments.command == "sweep" and not arguments.c_min < arguments.c_max:
        parser.error(
            f"--c-min must be smaller than --c-max, got {arguments.c_min!r} and {arguments.c_max!r}"
        )
    if arguments.rule is not None:
        from ..selection.registry import RULES
        from ..simultaneous.rules import ALL_RULES

        # Regret matching and EXP3 score simultaneous moves only: a sequential search cannot use them.
        sequential_search = arguments.command in ("arena", "spsa") or getattr(arguments, "algorithm", "") == "sequential"
        known = RULES if sequential_search else ALL_RULES
        if arguments.rule not in known:
            parser.error(f"unknown rule {arguments.rule!r}; known: {', '.join(known)}")
    return arguments


def _search_commands(commands) -> None:
    """The ``search`` and ``arena`` subcommands: our MCTS on OpenSpiel games (no stdin)."""
    from ..selection.registry import SIMULTANEOUS_RULES
    from ..selection.rule import GAMMA

    def game_options(parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--game", required=True,
                            help="an OpenSpiel game string, e.g. tic_tac_toe or connect_four(rows=5)")
        parser.add_argument("--moves", default="",
                            help="the start position: action ids or names, space-separated, or a JSON array")
        parser.add_argument("--rule", help=_rule_help())
        parser.add_argument("--progress", action="store_true", help="progress on stderr even when it is not a terminal")

    search_parser = commands.add_parser(
        "search", help="run our MCTS on an OpenSpiel game, writing its JSON Lines log to stdout",
        description="Run MCTS with our selection rules on an OpenSpiel game; the log goes to stdout.",
        allow_abbrev=False,
    )
    game_options(search_parser)
    search_parser.add_argument(
        "--simulations", type=int,
        help=f"simulation budget (default {defaults.SEARCH_SIMULATIONS:,} unless --seconds is given; at most 1,000,000)")
    search_parser.add_argument("--seconds", type=float, help="time budget in seconds (at most 600)")
    search_parser.add_argument(
        "--c", type=_c_argument,
        help=f"exploration constant (default {defaults.SEARCH_C:g}; for {' and '.join(SIMULTANEOUS_RULES)} it is "
        f"γ, default {GAMMA.default:g})")
    search_parser.add_argument("--seed", type=int, default=defaults.SEARCH_SEED,
                               help=f"seed of every random choice (default {defaults.SEARCH_SEED})")
    search_parser.add_argument(
        "--solve", action="store_true",
        help="MCTS-Solver (sequential search): solve won, lost and drawn positions from the game's ends, as "
        "OpenSpiel's MCTSBot(solve=True); proven nodes get \"outcome\" in the log, the best move prefers proven "
        "wins and avoids proven losses, and the search stops once the root is proven")
    search_parser.add_argument(
        "--algorithm", choices=("sequential", "duct", "smitsimax"), default="sequential",
        help="sequential (default) for turn-taking games; duct (decoupled UCT) or smitsimax for "
        "simultaneous-move games such as oshi_zumo, goofspiel or matrix_rps",
    )
    arena_parser = commands.add_parser(
        "arena", help="playing strength at each C: CSV with W/D/L, Elo, its error bar, LOS and pairs",
        description="MCTS at each C (and budget) plays games against an opponent; prints one CSV row per C "
        "and budget. Two-player games are played in pairs (same seed, seats swapped): columns "
        "c,games,wins,draws,losses,score,low,high,elo,elo_error,los,draw_ratio, the pentanomial pairs "
        "(pairs,ll,ld,dd_wl,wd,ww,pair_elo,pair_elo_error,pair_los), elo_low,elo_high (the score interval low..high "
        "in Elo: infinite only where it reaches a score of 0 or 1), with --sprt llr,llr_low,llr_high,sprt, "
        "then simulations,entropy,depth,top_share (then round,best with --tune, the fit's columns with --fit, as the fit command writes them). One-player games: c,games,mean_return,return_low,return_high; "
        "three or more players (seats rotated) add win_share,win_low,win_high; then the same last four.",
        allow_abbrev=False,
    )
    game_options(arena_parser)
    _arena_options(arena_parser)
    spsa_parser = commands.add_parser(
        "spsa", help="tune C by SPSA as fishtest tunes: one CSV row per iteration, the end point on stderr",
        description="Tune C (and with --tune-setting a rule's second constant) by SPSA as fishtest tunes, in ln C "
        "with fishtest's schedules (alpha 0.602, gamma 0.101, A = iterations / 10): at iteration k our MCTS plays "
        "the arena's game pair k at C+ = C e^c_k and at C- = C e^-c_k against the opponent, on the same seeds, and C "
        "moves towards the side that did better. Prints CSV k,c_k,theta,plus,minus,result,after (c_k in ln C; "
        "theta, plus, minus and after as C; result the plus side's wins less losses less the minus side's, -4 to "
        "4; a second constant adds the same columns after its name), one row per iteration as it ends, and the end "
        "point on stderr. Iterations are stored as they end: a rerun with the same settings resumes.",
        allow_abbrev=False,
    )
    game_options(spsa_parser)
    _spsa_options(spsa_parser)


def _arena_options(parser: argparse.ArgumentParser) -> None:
    """The arena's own options; their defaults are the app's (:mod:`mcts_core.defaults`)."""
    from .. import defaults

    grid = ",".join(f"{c:g}" for c in defaults.ARENA_C_VALUES)
    parser.add_argument("--c", dest="c_values", type=_c_list, default=list(defaults.ARENA_C_VALUES),
                        help=f"C values, comma-separated (default {grid})")
    parser.add_argument("--games", type=int, default=defaults.ARENA_GAMES,
                        help=f"games per C and budget, a multiple of the players (default {defaults.ARENA_GAMES}); "
                        "with --sprt the most per C, with --tune the games in all")
    parser.add_argument("--simulations", default=str(defaults.ARENA_SIMULATIONS),
                        help="simulations per search, or several comma-separated for a budget x C map "
                        f"(default {defaults.ARENA_SIMULATIONS})")
    parser.add_argument("--opponent", default=defaults.ARENA_OPPONENT,
                        help=f"random or mcts:C, in every other seat (default {defaults.ARENA_OPPONENT})")
    _where_games_run(parser, "the games", "the finished games")
    parser.add_argument("--sprt", action="store_true",
                        help="SPRT: each C stops as soon as the LLR of its pairs passes a bound (two players), "
                        "decided as fishtest decides (the exact GSPRT after every pair, its overshoot correction)")
    parser.add_argument("--sprt-elo0", type=float, default=defaults.ARENA_SPRT_ELO0,
                        help=f"SPRT's H0 Elo (default {defaults.ARENA_SPRT_ELO0:g})")
    parser.add_argument("--sprt-elo1", type=float, default=defaults.ARENA_SPRT_ELO1,
                        help=f"SPRT's H1 Elo (default {defaults.ARENA_SPRT_ELO1:g})")
    parser.add_argument("--sprt-alpha", type=float, default=defaults.ARENA_SPRT_ALPHA,
                        help=f"SPRT's false H1 rate (default {defaults.ARENA_SPRT_ALPHA:g})")
    parser.add_argument("--sprt-beta", type=float, default=defaults.ARENA_SPRT_BETA,
                        help=f"SPRT's false H0 rate (default {defaults.ARENA_SPRT_BETA:g})")
    parser.add_argument("--sprt-model", choices=("logistic", "normalized"), default=defaults.ARENA_SPRT_MODEL,
                        help="SPRT's Elo model, as fishtest's: logistic (elo0 and elo1 are Elo of the score) or "
                        "normalized (normalised Elo: the score's t-value, the same whatever the draw ratio) "
                        f"(default {defaults.ARENA_SPRT_MODEL})")
    parser.add_argument("--fit", action="store_true",
                        help="fit the best C to the scores for each budget, as the fit command does: adds the columns "
                        # Written out, not imported: importing the strength package here would load the search
                        # for every puzzle run (tests/test_arena.py checks the list is ANSWER_COLUMNS).
                        "fit_score, fit_low, fit_high, fit_best_c, fit_best_low, fit_best_high, fit_safe_c, fit_misfit, "
                        "fit_shape, best_c, best_low, best_high, best_verdict, next_c, set_member, set_low, set_high "
                        "(the quadratic in log C through a logistic link over the grid: the fitted score at the row's "
                        "C with its 95%% band, its best C with its 95%% interval, nan when there is no peak inside the "
                        "grid, the conservative C, its lack-of-fit p and whether its shape fits; then the best C to "
                        "trust, from a local fit around the best measured C, with its 95%% interval, 0 or inf where "
                        "open, nan when the data cannot tell yet, and the C values to play next; whether the row's "
                        "C is not significantly below the best measured one, and the range that holds the best C "
                        "if the score rises then falls) and says the best C on stderr (two players, at least 3 C "
                        "values above 0)")
    parser.add_argument("--tune", action="store_true",
                        help="find the best C among --c by successive halving with --games games in all; "
                        "adds the columns round (the last round a C played) and best")
    parser.add_argument("--no-store", action="store_true",
                        help="neither reuse nor store results in the data folder")


def _where_games_run(parser: argparse.ArgumentParser, seeded: str, kept: str) -> None:
    """``--seed`` (of ``seeded``), ``--workers``, ``--cluster`` and ``--cluster-wait`` (``kept`` stored on giving up)."""
    parser.add_argument("--seed", type=int, default=defaults.ARENA_SEED,
                        help=f"seed of {seeded} (default {defaults.ARENA_SEED})")
    parser.add_argument("--workers", type=int, default=defaults.ARENA_WORKERS,
                        help=f"local worker processes (default {defaults.ARENA_WORKERS})")
    parser.add_argument("--cluster", default=None,
                        help="a Dask scheduler address, tcp://HOST:8786: the games run on that cluster "
                        f"(default: ${defaults.ARENA_CLUSTER_VARIABLE} if set, else local processes)")
    parser.add_argument("--cluster-wait", type=float, metavar="SECONDS",
                        help=f"with --cluster: give up (exit 2, {kept} stored) once the cluster has had no "
                        f"live worker for this long (default ${defaults.ARENA_CLUSTER_WAIT_VARIABLE} if set, else "
                        f"{defaults.ARENA_CLUSTER_WAIT:g})")


def _spsa_options(parser: argparse.ArgumentParser) -> None:
    """SPSA's own options; the arena's where they mean the same (:mod:`mcts_core.defaults`)."""
    low, high = defaults.SPSA_C_RANGE
    parser.add_argument("--c", dest="start_c", type=_c_argument, default=defaults.SPSA_START_C, metavar="C",
                        help=f"the C to start from (default {defaults.SPSA_START_C:g})")
    parser.add_argument("--c-range", type=_c_list, default=[low, high], metavar="LOW,HIGH",
                        help=f"the range C stays in (default {low:g},{high:g})")
    parser.add_argument("--iterations", type=int, default=defaults.SPSA_ITERATIONS,
                        help=f"iterations, 4 games each (default {defaults.SPSA_ITERATIONS})")
    parser.add_argument("--simulations", type=int, default=defaults.ARENA_SIMULATIONS,
                        help=f"simulations per search (default {defaults.ARENA_SIMULATIONS})")
    parser.add_argument("--opponent", default=defaults.ARENA_OPPONENT,
                        help=f"with --against-opponent: random or mcts:C, whom both sides play (default "
                        f"{defaults.ARENA_OPPONENT})")
    parser.add_argument("--against-opponent", action="store_true",
                        help="each side plays --opponent, a pair each an iteration (the best C against it, as the "
                        "grid asks); default: the side at C+ plays the side at C-, one pair an iteration, as "
                        "fishtest's SPSA does (--opponent plays no game)")
    parser.add_argument("--tune-setting", metavar="NAME",
                        help="also tune this constant of the rule, in log scale within its range (katago's and "
                        "lc0's cpuct_base)")
    parser.add_argument("--c-end", type=float, default=defaults.SPSA_C_END,
                        help=f"the last iteration's perturbation, in ln C (default {defaults.SPSA_C_END:g})")
    parser.add_argument("--r-end", type=float, default=defaults.SPSA_R_END,
                        help=f"the last iteration's a_k / c_k^2 (default {defaults.SPSA_R_END:g})")
    _where_games_run(parser, "the games and the perturbations", "the finished iterations")
    parser.add_argument("--store", metavar="FILE",
                        help="the result store to resume from and write to (default: arena.sqlite3 in the data folder)")
    parser.add_argument("--no-store", action="store_true", help="neither resume from nor store iterations")


def _c_list(text: str) -> list[float]:
    """Comma-separated C values."""
    return [_c_argument(part) for part in text.split(",")]


def _rule_and_settings(arguments: argparse.Namespace, read) -> tuple[str, dict]:
    """The rule the command uses and its settings: ``--rule`` at its defaults, unless it is the input's
    rule; else the input's rule with the input's settings; else UCB1."""
    from ..selection import DEFAULT_RULE

    if arguments.rule is not None and arguments.rule != read.rule:
        return arguments.rule, {}
    return read.rule or DEFAULT_RULE, read.settings


def _scoring(arguments: argparse.Namespace, read):
    """The rule and C the command uses: the options first, then the input's (with its settings)."""
    from ..selection import Scoring

    c = arguments.c if arguments.c is not None else read.c
    if c is None:
        raise ParseError(1, "no C: give --c, or a header `N C` (text) or \"c\" (JSON) in the input")
    rule, settings = _rule_and_settings(arguments, read)
    return Scoring(rule, c, settings)


def _simultaneous(arguments: argparse.Namespace, read) -> int:
    """A simultaneous-move input: the path each player's rule selects (joint moves as ``R|P``), or the dump."""
    from ..selection import DEFAULT_RULE
    from ..simultaneous import JointScoring, joint_name, selected_path, sequential_choice

    simultaneous = read.simultaneous
    c = arguments.c if arguments.c is not None else read.c
    if c is None:
        raise ParseError(1, "no C: give --c, or \"c\" in the input's header")
    if arguments.rule is not None and arguments.rule != simultaneous.rule:
        rule, settings = arguments.rule, {}
    else:
        rule, settings = simultaneous.rule or DEFAULT_RULE, simultaneous.settings
    try:
        scoring = JointScoring(rule, c, settings)
    except ValueError as error:
        raise ParseError(1, str(error)) from None
    if arguments.command == "tree":
        from ..inputs.formats.tree_json_writer import write_tree_json

        write_tree_json(
            read.tree, sys.stdout, c=c, rule=rule, settings=settings, decoupled=simultaneous.decoupled,
            selected=lambda node: sequential_choice(simultaneous.decoupled, node, scoring),
        )
        return 0
    steps = selected_path(simultaneous.decoupled, scoring)
    print(" ".join(joint_name(step.joint) if step.joint else read.tree.move[step.child]
                   for step in steps if step.child is not None or step.joint))
    return 0


def _sweep(arguments: argparse.Namespace, read) -> int:
    """``sweep``: the rule's intervals over [--c-min, --c-max), or one line saying why there are none."""
    from ..analysis.sweep import path_intervals
    from ..selection import Scoring

    rule, settings = _rule_and_settings(arguments, read)
    try:
        intervals = path_intervals(read.tree, arguments.c_min, arguments.c_max, Scoring(rule, 1.0, settings))
    except ValueError as error:  # a bad range
        print(f"error: {error}", file=sys.stderr)
        return 2
    sys.stdout.write(_format_intervals(intervals))
    return 0


def _convergence(arguments: argparse.Namespace, read) -> int:
    """``convergence``: the CSV of the node's children over its visits, or one line saying why there is none."""
    from ..analysis.convergence import NoOrder, convergence, update_series

    if read.engine is not None and arguments.node.strip():
        print("error: --node: an engine reports its search at the root only: leave --node out", file=sys.stderr)
        return 2
    try:
        node = read.tree.find(arguments.node)
    except KeyError as error:
        print(f"error: --node: {error.args[0]}", file=sys.stderr)
        return 2
    try:
        if read.engine is not None:  # the updates of the search the chosen analysis reports
            series = update_series(*read.search_updates())
        else:
            series = convergence(read.tree, read.playouts, node)
    except NoOrder as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    series.write_csv(sys.stdout)
    return 0


def _format_intervals(intervals) -> str:
    """``c_from c_to path`` lines; an empty path leaves an empty last field (``0.0 1.5 ``)."""
    return "".join(f"{part.c_from!r} {part.c_to!r} {part.path}\n" for part in intervals)


def _export(out_path: str, data: bytes, read, scoring) -> int:
    """Write the bundle of the input at this scoring; exit 2 with one line when the file cannot be written."""
    from ..inputs.bundle import View, bundle_bytes

    data = bundle_bytes(data, read, View(scoring))
    try:
        with open(out_path, "wb") as out:
            out.write(data)
    except OSError as error:
        print(f"error: cannot write {out_path}: {error.strerror}", file=sys.stderr)
        return 2
    return 0


def main(argv: list[str] | None = None, *, prog: str = INSTALLED_COMMAND) -> int:
    """Run the CLI; returns the exit status. ``prog`` is how the user invoked it (usage and help say so)."""
    given = sys.argv[1:] if argv is None else argv
    if given[:1] == ["app"]:  # the app takes Streamlit's own options, not ours
        from .app_command import run_app

        return run_app(given[1:])
    arguments = _arguments(argv, prog)
    if arguments.command in ("search", "arena", "spsa"):
        from . import game_commands

        return game_commands.run(arguments)
    try:
        if arguments.command == "fit":
            from .fit_command import run as run_fit

            return run_fit()
        data = sys.stdin.buffer.read()
        text = decode_text(data)
        if arguments.command is None and arguments.rule is None and not text.lstrip().startswith("{"):
            # The puzzle: the shortest road, which imports neither numpy nor the JSON readers. An
            # engine's analysis is never puzzle text, so it is asked about only when that fails.
            from ..puzzle import solve

            try:
                print(solve(text, c=arguments.c))
                return 0
            except ParseError:
                from ..inputs.formats.engine_readers import engine_reader

                if engine_reader(text) is None:  # not an engine's analysis either: the puzzle's error
                    raise
        from ..inputs.loading import TEXT, read_input

        read = read_input(text)
        if arguments.analysis is not None:
            read = _chosen_analysis(read, arguments.analysis)
        from ..selection.registry import RULES

        # A simultaneous log too, by its joint moves in order; the CSV depends on neither C nor the rule.
        if arguments.command == "convergence" and (read.simultaneous is not None or arguments.rule in (None, *RULES)):
            return _convergence(arguments, read)
        if read.simultaneous is not None and arguments.command == "sweep":
            print("error: the sweep is exact for turn-taking trees; this input has simultaneous moves", file=sys.stderr)
            return 2
        if read.simultaneous is not None and arguments.command != "export":
            return _simultaneous(arguments, read)
        if arguments.rule is not None and arguments.rule not in RULES:
            print(f"error: {arguments.rule} scores simultaneous moves only, and this input has none", file=sys.stderr)
            return 2
        if arguments.command == "sweep":
            return _sweep(arguments, read)
        scoring = _scoring(arguments, read)
        from ..selection import select_child, selected_nodes

        if arguments.command == "tree":
            from ..inputs.formats.tree_json_writer import write_tree_json

            from ..analysis.flip_visits import visits_to_flip

            write_tree_json(
                read.tree, sys.stdout, c=scoring.c, rule=scoring.rule, settings=scoring.settings,
                selected=lambda node: select_child(read.tree, node, scoring),
                flips=lambda node: visits_to_flip(read.tree, node, scoring),
            )
            return 0
        if arguments.command == "export":
            return _export(arguments.out, data, read, scoring)
        leaf = selected_nodes(read.tree, scoring)[-1]
        moves = read.tree.path_moves(leaf)
        print("".join(moves) if read.kind == TEXT else " ".join(moves))
    except ParseError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # the reader stopped early (`| head`): not an error worth a traceback
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # the exit's flush must not fail again
        return 1
    return 0

