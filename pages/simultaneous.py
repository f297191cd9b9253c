"""Simultaneous: a decoupled node's per-player tables and joint children, the Smitsimax trees, and what
C does to a matrix game's root strategy and its exploitability."""

from __future__ import annotations

import json

import pandas as pd
import streamlit as st

from mcts_core import ROOT
from mcts_core.inputs import input_id
from mcts_core.drawing import render_tree, visible_nodes
from mcts_core.search import default_c_values, matrix_game, search_simultaneous, strategy_sweep
from mcts_core.simultaneous import (
    ALL_RULES,
    SIMULTANEOUS_RULES,
    JointScoring,
    candidate_games,
    fits,
    is_one_shot,
    measure,
    players_draw,
    profile_rows,
    root_profiles,
    select_joint,
    selected_moves,
    smitsimax_path,
    starting_c,
    sweep_rows,
)
from mcts_core.selection import DEFAULT_RULE, RULE_REGISTRY
from mcts_core.tables import joint_children_table, own_moves_table
from ui.charts.simultaneous_charts import exploitability_chart, strategy_chart
from ui.common import state
from ui.common.colours import highlight_rows
from ui.common.markdown import code, escape
from ui.setup import input_panel
from ui.setup.inputs import InputError, load
from ui.shell import sidebar

# Session-state keys this module owns.
SIM_RULE = state.key("sim_rule")
SIM_C = state.key("sim_c")
SIM_GAMMA = state.key("sim_gamma")
SIM_NODE = state.key("_sim_node")  # the inspected node's path, as JSON (joint moves as arrays)
SIM_ROOT = state.key("sim_root")
SIM_UP = state.key("sim_up")
SIM_STEP = state.key("sim_step")
SIM_CHILD = state.key("sim_child")
SIM_JOINT_TABLE = state.key("sim_joint_table")
SIM_SMITSIMAX = state.key("sim_smitsimax")
SIM_MATRIX_GAME = state.key("sim_matrix_game")
SIM_STRATEGY_TABLE = state.key("sim_strategy_table")
SIM_SWEEP_RULES = state.key("sim_sweep_rules")
SIM_SWEEP_SIMULATIONS = state.key("sim_sweep_simulations")
SIM_DEMO_GAME = state.key("sim_demo_game")
SIM_DEMO_ALGORITHM = state.key("sim_demo_algorithm")
SIM_DEMO_RULE = state.key("sim_demo_rule")
SIM_DEMO_C = state.key("sim_demo_c")
SIM_DEMO_SIMULATIONS = state.key("sim_demo_simulations")
SIM_DEMO_SEED = state.key("sim_demo_seed")
SIM_DEMO_RUN = state.key("sim_demo_run")
OWN_TABLE = state.key_family("sim_own_table_{}")
SMITSIMAX_TABLE = state.key_family("sim_smitsimax_table_{}")

DEMO_GAMES = {
    "matrix_rps": "Rock-paper-scissors (matrix_rps)",
    "matrix_brps": "Biased rock-paper-scissors (matrix_brps)",
    "oshi_zumo": "Oshi-Zumo (oshi_zumo)",
}
ALGORITHM_NAMES = {"duct": "Decoupled UCT", "smitsimax": "Smitsimax"}
DEMO_LIMIT = 50_000  # simulations of a search run from this page (its log is kept in memory)
SWEEP_LIMIT = 20_000
SMITSIMAX_BUDGET = 40  # nodes drawn per player's tree
PLAYER_COLUMNS = 3  # player tables side by side at most


# --- helpers -------------------------------------------------------------------------------------


def in_effect(key: str, default):
    """The value the widget keyed ``key`` is made with: the one in effect, else ``default``.

    The page's widgets keep their values across page switches (``persist_state``) and are made with
    the value in effect: a widget made with another one shows that first (a number box its minimum,
    C = 0 and Simulations = 1, until the run's value arrives).
    """
    return st.session_state.get(key, default)


def index_of(options: list, key: str) -> int:
    """A select's index of the value in effect for ``key`` (the first option when there is none or it is gone)."""
    value = in_effect(key, options[0])
    return options.index(value) if value in options else 0


@st.cache_data(max_entries=16, show_spinner=False)
def cached_matrix(name: str):
    """The payoffs of a matrix game (None when ``name`` is not one)."""
    try:
        return matrix_game(name)
    except ValueError:
        return None


@st.cache_data(max_entries=64, show_spinner="Searching at each C…")
def cached_sweep(game: str, rule: str, simulations: int, seed: int) -> list:
    return strategy_sweep(game, rule, default_c_values(rule), simulations=simulations, seed=seed)


def node_text(elements: list) -> str:
    return json.dumps(elements, ensure_ascii=False) if elements else "the root"


def go_to(elements: list) -> None:
    st.session_state[SIM_NODE] = json.dumps(elements, ensure_ascii=False)


def step_into(dtree, node: int, elements: list) -> None:
    """The "Step into a child" menu: its value is the child's move (joint moves by their ``R|P`` name)."""
    chosen = st.session_state.get(SIM_CHILD)
    kid = dtree.tree.child(node, chosen) if chosen is not None else None
    if kid is not None:
        st.session_state[SIM_NODE] = json.dumps([*elements, dtree.element(kid)], ensure_ascii=False)
    st.session_state[SIM_CHILD] = None  # the next node offers its own children


def demo_rule_changed() -> None:
    st.session_state[SIM_DEMO_C] = 1.4 if st.session_state[SIM_DEMO_RULE] not in SIMULTANEOUS_RULES else 0.1


def page_rule_changed() -> None:
    rule = st.session_state[SIM_RULE]
    if rule in SIMULTANEOUS_RULES:
        st.session_state[SIM_GAMMA] = JointScoring.of(rule).c


# --- no simultaneous input: offer a search -------------------------------------------------------


def demo_controls() -> tuple[str, str, str, float, int, int]:
    """The demo search's game, algorithm, rule, C, simulations and seed."""
    games, algorithms, rules = list(DEMO_GAMES), list(ALGORITHM_NAMES), list(ALL_RULES)
    # Two rows: on one, the selects were cut at 1366 px ("Rock-paper-scissors (mat", "Decoupled U").
    row = st.columns([5, 3, 4], vertical_alignment="bottom")
    game = row[0].selectbox("Game", games, index_of(games, SIM_DEMO_GAME), format_func=DEMO_GAMES.get, key=SIM_DEMO_GAME,
                            persist_state="session")
    algorithm = row[1].selectbox("Search", algorithms, index_of(algorithms, SIM_DEMO_ALGORITHM),
                                 format_func=ALGORITHM_NAMES.get, key=SIM_DEMO_ALGORITHM, persist_state="session")
    rule = row[2].selectbox("Rule (each player)", rules, index_of(rules, SIM_DEMO_RULE), format_func=lambda key: RULE_REGISTRY[key].name,
                            key=SIM_DEMO_RULE, on_change=demo_rule_changed, persist_state="session")
    row = st.columns(4, vertical_alignment="bottom")
    c = row[0].number_input(RULE_REGISTRY[rule].c_label, min_value=0.0, value=in_effect(SIM_DEMO_C, 1.4), step=0.1, format="%.4g",
                            key=SIM_DEMO_C, persist_state="session")
    simulations = row[1].number_input("Simulations", 1, DEMO_LIMIT, in_effect(SIM_DEMO_SIMULATIONS, 5000), step=1000,
                                      key=SIM_DEMO_SIMULATIONS, persist_state="session")
    seed = row[2].number_input("Seed", min_value=0, value=in_effect(SIM_DEMO_SEED, 0), step=1, key=SIM_DEMO_SEED, persist_state="session")
    return game, algorithm, rule, float(c), int(simulations), int(seed)


def run_demo(game: str, algorithm: str, rule: str, c: float, simulations: int, seed: int) -> None:
    """Search, and make the search's log every page's input (as the Search page hands over its searches)."""
    try:
        scoring = JointScoring(rule, c)
        with st.spinner(f"Searching {game}…"):
            result = search_simultaneous(game, algorithm=algorithm, scoring=scoring, simulations=simulations, seed=seed)
    except ValueError as error:
        st.error(escape(str(error)), icon="⚠️")
        return
    log = result.log
    source = f"{'DUCT' if algorithm == 'duct' else 'Smitsimax'} search of {game} " \
             f"({result.simulations:,} simulations, {scoring.describe()}, seed {seed})"
    found = load(input_id(log.encode()), source, lambda: log)
    if isinstance(found, InputError):  # our own log: cannot happen; say so rather than hide it
        st.error(escape(found.message()), icon="⚠️")
        return
    input_panel.keep_input(log, found.source)
    st.rerun()


def demo_panel(kind: str) -> None:
    """A small DUCT (or Smitsimax) search whose log becomes every page's input."""
    st.info(
        "The sidebar's input has no simultaneous moves: it is a "
        + ("tree dump" if kind == "tree" else "sequential log or puzzle text")
        + ". Open a log with joint moves (`\"path\": [[\"R\", \"P\"]]`), or run a small decoupled search here: "
        "its log becomes the input of every page.",
        icon=":material/info:",
    )
    st.caption(
        "Exact ties between a player's own moves are broken at random (seeded), as DUCT implementations do; "
        "the tables rank tied moves in the engine's order, so the move a simulation played may be any of the tied best."
    )
    settings = demo_controls()
    if st.button("Run the search", key=SIM_DEMO_RUN, type="primary", icon=":material/play_arrow:"):
        run_demo(*settings)


# --- the input and the rule ----------------------------------------------------------------------


def start_for_input(setup, simultaneous) -> None:
    """A new input: the root inspected, the rule and C it states (else the sidebar's), its view."""
    read = setup.input.read
    if state.first_run_for_input("simultaneous", setup.input.key):
        st.session_state[SIM_NODE] = "[]"
        rule = simultaneous.rule or setup.rule
        st.session_state[SIM_RULE] = rule
        st.session_state[SIM_C], st.session_state[SIM_GAMMA] = starting_c(rule, read.c)
        st.session_state[SIM_SMITSIMAX] = simultaneous.algorithm == "smitsimax"
    st.session_state.setdefault(SIM_NODE, "[]")
    st.session_state.setdefault(SIM_C, 1.0)
    st.session_state.setdefault(SIM_GAMMA, 0.1)


def input_facts(simultaneous) -> None:
    """Which search made the input, of which game, and its size."""
    dtree = simultaneous.decoupled
    searched = {"duct": "A decoupled UCT search", "smitsimax": "A Smitsimax search"}.get(simultaneous.algorithm)
    st.markdown(
        (searched or "A search (the input does not say which)")
        + (f" of {code(simultaneous.game)}" if simultaneous.game else "")
        + (": a tree dump, without its simulations." if simultaneous.playouts is None else ".")
    )
    facts = st.columns(3)
    facts[0].metric("Simulations", f"{dtree.tree.playouts:,}" if simultaneous.playouts is not None else "–")
    facts[1].metric("Joint-tree nodes", f"{len(dtree.tree):,}")
    facts[2].metric("Players", dtree.players)


def rule_settings(setup, simultaneous, rule: str) -> dict:
    """Settings besides C: the sidebar's when it has this rule, else the input's when it states it."""
    if rule == setup.rule and rule not in SIMULTANEOUS_RULES:
        return dict(setup.settings)
    return dict(simultaneous.settings) if rule == simultaneous.rule else {}


def rule_panel(setup, simultaneous) -> JointScoring | None:
    """The rule every player uses here, its C (or γ) and settings; None (with the reason shown) when unusable."""
    row = st.columns([3, 2, 5], vertical_alignment="bottom")
    rules = list(ALL_RULES)
    rule = row[0].selectbox("Rule (each player, on its own moves)", rules, index_of(rules, SIM_RULE),
                            format_func=lambda key: RULE_REGISTRY[key].name,
                            key=SIM_RULE, on_change=page_rule_changed, persist_state="session",
                            help="Every registered rule, applied per player, plus regret matching and EXP3, "
                            "which exist only at simultaneous nodes.")
    if rule in SIMULTANEOUS_RULES:
        c = row[1].number_input(RULE_REGISTRY[rule].c_label, min_value=0.0, max_value=1.0, value=st.session_state[SIM_GAMMA],
                                step=0.05, format="%.4g", key=SIM_GAMMA, persist_state="session")
    else:
        c = row[1].number_input(RULE_REGISTRY[rule].c_label, min_value=0.0, value=st.session_state[SIM_C], step=0.1,
                                format="%.4g", key=SIM_C, persist_state="session")
    try:
        scoring = JointScoring(rule, float(c), rule_settings(setup, simultaneous, rule))
    except (ValueError, TypeError) as error:
        st.error(escape(f"This rule cannot be used with these settings: {error}"), icon="⚠️")
        return None
    stated = f" The input says it was searched with {escape(RULE_REGISTRY[simultaneous.rule].name)}." if simultaneous.rule else ""
    row[2].caption(f"**{escape(scoring.describe())}**.{stated} Settings besides C come from the sidebar when it "
                   "has this rule, else from the input.")
    return scoring


def selected_path_line(dtree, scoring: JointScoring) -> None:
    try:
        shown = selected_moves(dtree, scoring)
    except ValueError as error:
        st.caption(escape(str(error)))
        return
    st.markdown(f"**Selected path** ({escape(RULE_REGISTRY[scoring.rule].name)}): {code(json.dumps(shown, ensure_ascii=False))}"
                if shown else "**Selected path**: the root is a leaf.")


# --- a node --------------------------------------------------------------------------------------


def inspected_node(dtree) -> tuple[list, int]:
    """(path elements, node) of the inspected node; the root when the kept path no longer exists."""
    try:
        elements = json.loads(st.session_state[SIM_NODE])
        return elements, dtree.find(elements)
    except (KeyError, ValueError, TypeError):
        st.session_state[SIM_NODE] = "[]"
        return [], ROOT


def navigation(dtree, node: int, elements: list) -> None:
    tree = dtree.tree
    row = st.columns([1, 1, 5], vertical_alignment="bottom")
    row[0].button("⌂ Root", key=SIM_ROOT, on_click=go_to, args=([],), disabled=node == ROOT, width="stretch")
    row[1].button("↑ Up", key=SIM_UP, on_click=go_to, args=(elements[:-1],), disabled=node == ROOT,
                  width="stretch")
    kids = [kid for kid in tree.ranked_children(node) if tree.visits[kid]]
    visits = {tree.move[kid]: tree.visits[kid] for kid in kids}
    row[2].selectbox("Step into a child", list(visits), index=None, placeholder="Choose a child (most visited first)…",
                     format_func=lambda move: f"{move} ({visits.get(move, 0):,} visits)", key=SIM_CHILD,
                     on_change=step_into, args=(dtree, node, elements), disabled=not kids)


def node_sentence(dtree, node: int, elements: list) -> str:
    tree = dtree.tree
    parts = [f"Node {code(node_text(elements)) if elements else '**root**'}: {tree.visits[node]:,} visits"]
    if dtree.is_simultaneous(node):
        parts.append(f"a simultaneous node, {dtree.choices(node):,} simulations chose a joint move here")
    elif tree.is_chance(node):
        parts.append("a chance node")
    elif tree.is_terminal(node):
        parts.append("the game ended here")
    elif len(tree.children[node]):
        parts.append(f"player {tree.player[node]} moves alone here")
    return ", ".join(parts) + "."


def own_moves_panel(dtree, node: int, player: int, joint, scoring: JointScoring) -> None:
    """One player's own moves at ``node``: visits, mean (that player's view), the rule's terms."""
    st.markdown(f"**Player {player}**: picks {code(joint[player]) if joint else '–'}")
    table = own_moves_table(dtree, node, player, scoring)
    st.dataframe(
        highlight_rows(table, table["selected"]), hide_index=True, key=OWN_TABLE.format(player),
        column_order=[name for name in table.columns if name not in ("selected", "rank", "total")],
        column_config={
            name: st.column_config.NumberColumn(RULE_REGISTRY[scoring.rule].label(name), format="%.4g")
            for name in RULE_REGISTRY[scoring.rule].terms if name in table.columns
        } | {"mean": st.column_config.NumberColumn(f"mean for player {player}", format="%.4f")},
    )


def player_tables(dtree, node: int, scoring: JointScoring) -> tuple[str, ...] | None:
    """One table per player, side by side; returns the joint pick (None when the rule cannot pick)."""
    try:
        joint = select_joint(dtree, node, scoring)
    except ValueError as error:
        st.warning(escape(str(error)), icon=":material/info:")
        return None
    st.latex(RULE_REGISTRY[scoring.rule].formula)
    players = dtree.players
    for first in range(0, players, PLAYER_COLUMNS):
        columns = st.columns(min(PLAYER_COLUMNS, players - first))
        for column, player in zip(columns, range(first, players)):
            with column:
                own_moves_panel(dtree, node, player, joint, scoring)
    if players_draw(dtree, node, scoring) if joint is not None else scoring.regret_based:
        st.caption("The players draw their moves here (σ, or below a sample threshold): the pick shown is each "
                   "player's most likely move.")
    return joint


def joint_children(dtree, node: int, joint: tuple[str, ...] | None, elements: list) -> None:
    tree = dtree.tree
    if not len(tree.children[node]):
        return
    table = joint_children_table(dtree, node, joint)
    st.markdown("**Its children**" + (" (joint moves, one move per player)" if dtree.is_simultaneous(node) else ""))
    st.dataframe(
        highlight_rows(table, table["selected"]), hide_index=True, key=SIM_JOINT_TABLE,
        column_order=[name for name in table.columns if name != "selected"],
        column_config={
            "share": st.column_config.NumberColumn("share of the choices", format="%.3f"),
            "mean": st.column_config.NumberColumn(f"mean for player {tree.player[node]}", format="%.4f",
                                                  help="The joint tree keeps one total per node: from the view of "
                                                  "the node's player. The tables above have every player's view."),
        },
    )
    if joint is not None:
        child = dtree.joint_child(node, joint)
        if child is None:
            st.caption(f"No simulation has played the joint move {code(json.dumps(list(joint)))} here yet.")
        else:
            st.button("Follow the selected joint move", key=SIM_STEP, icon=":material/south:",
                      on_click=go_to, args=([*elements, list(joint)],))


def node_panel(dtree, scoring: JointScoring) -> None:
    """The inspected node: navigation, what it is, each player's moves, its children."""
    elements, node = inspected_node(dtree)
    selected_path_line(dtree, scoring)
    st.subheader("Inspect a node")
    navigation(dtree, node, elements)
    st.markdown(node_sentence(dtree, node, elements))
    joint = player_tables(dtree, node, scoring) if dtree.is_simultaneous(node) else None
    joint_children(dtree, node, joint, elements)


# --- Smitsimax -----------------------------------------------------------------------------------


def smitsimax_tree(tree, player: int, scoring: JointScoring) -> None:
    """One player's Smitsimax tree, drawn small, and its root's children."""
    st.markdown(f"**Player {player}'s tree** ({len(tree):,} nodes)")
    visible = visible_nodes(tree, budget=SMITSIMAX_BUDGET, max_depth=3, top_k=4)
    path = smitsimax_path(tree, scoring)
    st.graphviz_chart(render_tree(tree, visible, path=path, tooltips=False), width="stretch")
    rows = [{"move": tree.move[kid], "visits": tree.visits[kid], "mean": tree.mean(kid)}
            for kid in tree.ranked_children(ROOT)]
    st.dataframe(pd.DataFrame(rows, columns=["move", "visits", "mean"]), hide_index=True,
                 key=SMITSIMAX_TABLE.format(player),
                 column_config={"mean": st.column_config.NumberColumn(f"mean for player {player}", format="%.4f")})


def smitsimax_panel(simultaneous, scoring: JointScoring) -> None:
    try:
        trees = simultaneous.smitsimax()
    except ValueError as error:
        st.info(escape(str(error)), icon=":material/info:")
        return
    st.caption(
        "Smitsimax: each player's own tree over its own moves; the others' moves and chance are not branched on, "
        "so a node merges every history with those own moves. Built from the same log: each simulation's path "
        f"projected on the player's moves, with the puzzle's rule. Red: the path the rule selects "
        f"({'most visited' if scoring.regret_based else escape(RULE_REGISTRY[scoring.rule].name)}). At most "
        f"{SMITSIMAX_BUDGET} nodes, 3 levels, 4 children each."
    )
    columns = st.columns(min(len(trees), PLAYER_COLUMNS))
    for player, tree in enumerate(trees):
        with columns[player % len(columns)]:
            smitsimax_tree(tree, player, scoring)


# --- matrix games: strategies, exploitability, what C does ---------------------------------------


def matching_game(simultaneous):
    """The matrix game this root is (the input's game, else one whose moves match), or None."""
    dtree = simultaneous.decoupled
    fitting = [name for name in candidate_games(simultaneous.game)
               if (game := cached_matrix(name)) is not None and fits(dtree, game)]
    if not fitting:
        return None
    if simultaneous.game in fitting:
        return cached_matrix(simultaneous.game)
    if len(fitting) == 1:
        return cached_matrix(fitting[0])
    chosen = st.selectbox("Which matrix game is this? (the input does not say; these fit its moves)", fitting,
                          index_of(fitting, SIM_MATRIX_GAME), key=SIM_MATRIX_GAME, persist_state="session")
    return cached_matrix(chosen)


def strategy_table(game, profiles) -> None:
    table = pd.DataFrame(profile_rows(game, profiles)).pivot_table(
        index=["strategy", "player"], columns="move", values="probability", sort=False).reset_index()
    st.dataframe(table, hide_index=True, key=SIM_STRATEGY_TABLE,
                 column_config={move: st.column_config.NumberColumn(format="%.3f")
                                for move in set(game.actions[0]) | set(game.actions[1])})


def exploitability_metrics(measured) -> None:
    for label, result in measured.items():
        if result.per_player is not None:
            cells = st.columns(2)
            for player in range(2):
                cells[player].metric(f"Player {player} ({label})", f"{result.per_player[player]:.3f}",
                                     help="Exploitability of this player's strategy.")
        else:
            st.metric(f"NashConv ({label})", f"{result.nash_conv:.3f}",
                      help="A general-sum game: the players' total gain from best responses.")


def matrix_panel(simultaneous, scoring: JointScoring) -> None:
    """A one-shot root as its matrix game: the strategies, their exploitability, and what C does."""
    dtree = simultaneous.decoupled
    if not is_one_shot(dtree):
        return
    st.subheader("The root as a matrix game: strategies and exploitability")
    game = matching_game(simultaneous)
    if game is None:
        st.caption("The root looks like a one-shot game, but no OpenSpiel matrix game has these moves.")
        return
    profiles, problem = root_profiles(dtree, scoring)
    if problem is not None:
        st.caption(escape(problem))
    st.caption(
        f"{code(game.name)}: payoffs from the game itself. Exploitability of a player's strategy: what a "
        "best-responding opponent wins against it beyond the game's value (0 at an equilibrium)."
        + (" Regret matching and EXP3 recommend their **average σ**, not the visit shares." if scoring.regret_based
           else "")
    )
    columns = st.columns([3, 2])
    with columns[0]:
        strategy_table(game, profiles)
    with columns[1]:
        exploitability_metrics(measure(game, profiles))
    what_c_does(game, scoring)


def sweep_controls(scoring: JointScoring) -> tuple[list[str], int]:
    """The rules to sweep (the page's and one of the other kind) and the simulations per search."""
    # Always something to compare with: a rule of the other kind.
    other = DEFAULT_RULE if scoring.regret_based else next(iter(SIMULTANEOUS_RULES))
    st.session_state.setdefault(SIM_SWEEP_RULES, list(dict.fromkeys([scoring.rule, other])))
    st.session_state.setdefault(SIM_SWEEP_SIMULATIONS, 4000)
    row = st.columns([4, 2], vertical_alignment="bottom")
    rules = row[0].multiselect("Rules", list(ALL_RULES), st.session_state[SIM_SWEEP_RULES],
                               format_func=lambda key: RULE_REGISTRY[key].name, key=SIM_SWEEP_RULES, persist_state="session")
    simulations = row[1].number_input("Simulations per search", 100, SWEEP_LIMIT, st.session_state[SIM_SWEEP_SIMULATIONS],
                                      step=1000, key=SIM_SWEEP_SIMULATIONS, persist_state="session")
    return rules, int(simulations)


def swept_rows(game, rules: list[str], simulations: int) -> tuple[list[dict], list[dict]]:
    """Every rule's sweep as rows (a rule that cannot run is named in a warning and left out)."""
    exploitabilities, probabilities = [], []
    for rule in rules:
        try:
            points = cached_sweep(game.name, rule, simulations, 0)
        except ValueError as error:
            st.warning(escape(f"{RULE_REGISTRY[rule].name}: {error}"))
            continue
        more = sweep_rows(RULE_REGISTRY[rule].name, points)
        exploitabilities += more[0]
        probabilities += more[1]
    return exploitabilities, probabilities


def what_c_does(game, scoring: JointScoring) -> None:
    st.subheader("What C does here")
    rules, simulations = sweep_controls(scoring)
    if not rules:
        st.caption("Choose a rule or two.")
        return
    exploitabilities, probabilities = swept_rows(game, rules, simulations)
    if not exploitabilities:
        return
    st.altair_chart(exploitability_chart(exploitabilities), width="stretch")
    st.altair_chart(strategy_chart(probabilities))
    st.caption(
        f"One seeded decoupled search of {code(game.name)} per point, {simulations:,} simulations, C on a log "
        "scale. UCB1 and its kin pick deterministic best responses: in a cyclic game the two players chase each "
        "other and the visit shares stay near uniform whatever C is. Regret matching and EXP3 keep regrets; their "
        "average σ moves towards the equilibrium, and γ (their C) is the uniform exploration they cannot shed."
    )


# --- the page ------------------------------------------------------------------------------------


def simultaneous_page(setup, simultaneous) -> None:
    start_for_input(setup, simultaneous)
    input_facts(simultaneous)
    scoring = rule_panel(setup, simultaneous)
    if scoring is None:
        return
    node_panel(simultaneous.decoupled, scoring)
    st.divider()
    if st.toggle("Show the Smitsimax trees (one per player, side by side)", in_effect(SIM_SMITSIMAX, False), key=SIM_SMITSIMAX,
                 persist_state="session"):
        smitsimax_panel(simultaneous, scoring)
    matrix_panel(simultaneous, scoring)


setup = sidebar.require(joint_tree_note=False)
st.title("Simultaneous moves")
st.caption(
    "Decoupled UCT: at a simultaneous node each player picks one of its own moves with the rule, on its own "
    "statistics (visits and totals from its own view); the joint move is the tuple of their picks."
)
if setup.input.read.simultaneous is None:
    demo_panel(setup.input.read.kind)
else:
    simultaneous_page(setup, setup.input.read.simultaneous)
