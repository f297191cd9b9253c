"""Every session-state key the app uses, each with the one module that owns (writes) it.

Widgets own their keys through ``key=``; other values are written only by their owner. Other
modules read them through the owner's functions or, for contract keys, directly.
:func:`first_run_for_input` is the one way a page notices a new input.
"""

from __future__ import annotations

import re

import streamlit as st

# Contract keys: tests outside the project find widgets and results by these names.
PLAYOUTS = "playouts"  # the text area
UPLOAD = "upload"  # the file uploader
C = "c"  # the C slider
C_EXACT = "c_exact"  # the typed exact C
BUDGET = "budget"  # the Explorer's drawn-node budget
SELECTED_PATH = "selected_path"  # the selected move sequence after each run, as a string

# ui.input_panel
EXAMPLE = "example"
TEXT_DIGEST = "_text_digest"
UPLOAD_DIGEST = "_upload_digest"
KEPT_INPUT = "_kept_input"  # the input the pages show when no text or file is given
KEPT_INPUT_DROP = "kept_input_drop"
CURRENT_INPUT = "_current_input"  # the id of the input every page shows now
CURRENT_INPUT_DATA = "_current_input_data"  # a function giving its bytes
BUNDLE_OPENED = "_bundle_opened"
BUNDLE_PROBLEM = "_bundle_problem"
# ui.share
URL_WRITTEN = "_url_written"
HISTORY_MOVE = "_history_move"  # the back/forward listener's event
LINK_REQUEST = "_link_request"
LINK_PROBLEMS = "_link_problems"
# ui.recent
RECENT_LIST = "_recent_list"  # the browser's list of input ids (a component's state)
RECENT_CHOICE = "recent_choice"
RECENT_SEEN = "_recent_seen"  # the inputs this session opened, newest first
# ui.share_panel
SHARE_BUNDLE = "share_bundle"
# ui.c_control
C_EXACT_ERROR = "_c_exact_error"
# ui.rule_panel (a second set, for Compare's setting B, has the prefix "cmp_")
RULE = "rule"
RULE_PRESET = "rule_preset"
# ui.sidebar
SETUP = "_setup"
# ui.tree_view
TREE_VIEW_SENT = "_tree_view_sent"
# ui.state
SEEN_INPUTS = "_seen_inputs"
# pages.explorer
MAX_DEPTH = "max_depth"
TOP_K = "top_k"
SHOW_UNVISITED = "show_unvisited"
COLOUR_BY = "colour_by"
EXPLORER_TREE = "tree_view"
INSPECT = "inspect"
INSPECT_ROOT = "inspect_root"
INSPECT_UP = "inspect_up"
INSPECT_STEP_IN = "inspect_step_in"
CHILDREN_TABLE = "children_table"
DOWNLOAD_CSV = "download_csv"
DOWNLOAD_DOT = "download_dot"
# pages.sweep
SWEEP_FROM = "sweep_from"
SWEEP_TO = "sweep_to"
SWEEP_ZOOM_RANGE = "_sweep_zoom"
SWEEP_RESET = "sweep_reset"
SWEEP_ZOOM = "sweep_zoom"
SWEEP_NODE = "sweep_node"
SWEEP_NODE_PATH = "sweep_node_path"
SWEEP_STRIP = "sweep_strip"
SWEEP_LINES = "sweep_lines"
SWEEP_TABLE = "sweep_table"
SWEEP_CSV = "sweep_csv"
# pages.compare
COMPARE_PREFIX = "cmp_"
COMPARE_C = "cmp_c"
COMPARE_AROUND_PATHS = "cmp_around_paths"
COMPARE_BUDGET = "cmp_budget"
COMPARE_MAX_DEPTH = "cmp_max_depth"
COMPARE_TABLE = "cmp_table"
COMPARE_DOWNLOAD_DOT = "cmp_download_dot"
COMPARE_TREE = "cmp_tree_view"
# pages.playback
PLAYBACK_K = "playback_k"
PLAYBACK_PLAYING = "playback_playing"
PLAYBACK_STRIDE = "playback_stride"
PLAYBACK_DELAY = "playback_delay"
PLAYBACK_BUDGET = "playback_budget"
PLAYBACK_PLAY = "playback_play"
PLAYBACK_PREVIOUS = "playback_prev"
PLAYBACK_NEXT = "playback_next"
PLAYBACK_PATH_TABLE = "playback_path_table"
PLAYBACK_TREE = "playback_tree_view"
# pages.classroom
CLASS_PATH = "class_path"
CLASS_GUESS = "class_guess"
CLASS_SCORE = "class_score"
CLASS_PRESENTATION = "class_presentation"
CLASS_NEXT = "class_next"
CLASS_RESTART = "class_restart"
CLASS_TREE = "class_tree_view"
# pages.search
SEARCH_GAME = "search_game"
SEARCH_GAME_NAME = "search_game_name"
SEARCH_MOVES = "search_moves"
SEARCH_UNDO = "search_undo"
SEARCH_RESET = "search_reset"
SEARCH_C = "search_c"
SEARCH_BUDGET_KIND = "search_budget_kind"
SEARCH_SIMULATIONS = "search_simulations"
SEARCH_SECONDS = "search_seconds"
SEARCH_SEED = "search_seed"
SEARCH_SOLVE = "search_solve"
SEARCH_RUN = "search_run"
SEARCH_STOP = "search_stop"
SEARCH_USE_AGAIN = "search_use_again"
SEARCH_DOWNLOAD_LOG = "search_download_log"
SEARCH_JOB = "_search_job"
# pages.strength
STRENGTH_GAME = "strength_game"
STRENGTH_GAME_NAME = "strength_game_name"
STRENGTH_MOVES = "strength_moves"
STRENGTH_FROM_SEARCH = "strength_from_search"
STRENGTH_C_VALUES = "strength_c_values"
STRENGTH_GAMES = "strength_games"
STRENGTH_SIMULATIONS = "strength_simulations"
STRENGTH_OPPONENT = "strength_opponent"
STRENGTH_OPPONENT_C = "strength_opponent_c"
STRENGTH_SEED = "strength_seed"
STRENGTH_WORKERS = "strength_workers"
STRENGTH_RUN = "strength_run"
STRENGTH_STOP = "strength_stop"
STRENGTH_TABLE = "strength_table"
STRENGTH_CSV = "strength_csv"
STRENGTH_JOB = "_strength_job"

OWNERS: dict[str, str] = {
    PLAYOUTS: "ui.input_panel",
    UPLOAD: "ui.input_panel",
    EXAMPLE: "ui.input_panel",
    TEXT_DIGEST: "ui.input_panel",
    UPLOAD_DIGEST: "ui.input_panel",
    KEPT_INPUT: "ui.input_panel",
    KEPT_INPUT_DROP: "ui.input_panel",
    CURRENT_INPUT: "ui.input_panel",
    CURRENT_INPUT_DATA: "ui.input_panel",
    BUNDLE_OPENED: "ui.input_panel",
    BUNDLE_PROBLEM: "ui.input_panel",
    URL_WRITTEN: "ui.share",
    HISTORY_MOVE: "ui.share",
    LINK_REQUEST: "ui.share",
    LINK_PROBLEMS: "ui.share",
    SHARE_BUNDLE: "ui.share_panel",
    RECENT_LIST: "ui.recent",
    RECENT_CHOICE: "ui.recent",
    RECENT_SEEN: "ui.recent",
    C: "ui.c_control",
    C_EXACT: "ui.c_control",
    C_EXACT_ERROR: "ui.c_control",
    RULE: "ui.rule_panel",
    RULE_PRESET: "ui.rule_panel",
    SETUP: "ui.sidebar",
    TREE_VIEW_SENT: "ui.tree_view",
    SELECTED_PATH: "ui.selected_path",
    SEEN_INPUTS: "ui.state",
    BUDGET: "pages.explorer",
    MAX_DEPTH: "pages.explorer",
    TOP_K: "pages.explorer",
    SHOW_UNVISITED: "pages.explorer",
    COLOUR_BY: "pages.explorer",
    EXPLORER_TREE: "pages.explorer",
    INSPECT: "pages.explorer",
    INSPECT_ROOT: "pages.explorer",
    INSPECT_UP: "pages.explorer",
    INSPECT_STEP_IN: "pages.explorer",
    CHILDREN_TABLE: "pages.explorer",
    DOWNLOAD_CSV: "pages.explorer",
    DOWNLOAD_DOT: "pages.explorer",
    SWEEP_FROM: "pages.sweep",
    SWEEP_TO: "pages.sweep",
    SWEEP_ZOOM_RANGE: "pages.sweep",
    SWEEP_RESET: "pages.sweep",
    SWEEP_ZOOM: "pages.sweep",
    SWEEP_NODE: "pages.sweep",
    SWEEP_NODE_PATH: "pages.sweep",
    SWEEP_STRIP: "pages.sweep",
    SWEEP_LINES: "pages.sweep",
    SWEEP_TABLE: "pages.sweep",
    SWEEP_CSV: "pages.sweep",
    COMPARE_C: "pages.compare",
    COMPARE_AROUND_PATHS: "pages.compare",
    COMPARE_BUDGET: "pages.compare",
    COMPARE_MAX_DEPTH: "pages.compare",
    COMPARE_TABLE: "pages.compare",
    COMPARE_DOWNLOAD_DOT: "pages.compare",
    COMPARE_TREE: "pages.compare",
    PLAYBACK_K: "pages.playback",
    PLAYBACK_PLAYING: "pages.playback",
    PLAYBACK_STRIDE: "pages.playback",
    PLAYBACK_DELAY: "pages.playback",
    PLAYBACK_BUDGET: "pages.playback",
    PLAYBACK_PLAY: "pages.playback",
    PLAYBACK_PREVIOUS: "pages.playback",
    PLAYBACK_NEXT: "pages.playback",
    PLAYBACK_PATH_TABLE: "pages.playback",
    PLAYBACK_TREE: "pages.playback",
    CLASS_PATH: "pages.classroom",
    CLASS_GUESS: "pages.classroom",
    CLASS_SCORE: "pages.classroom",
    CLASS_PRESENTATION: "pages.classroom",
    CLASS_NEXT: "pages.classroom",
    CLASS_RESTART: "pages.classroom",
    CLASS_TREE: "pages.classroom",
    SEARCH_GAME: "pages.search",
    SEARCH_GAME_NAME: "pages.search",
    SEARCH_MOVES: "pages.search",
    SEARCH_UNDO: "pages.search",
    SEARCH_RESET: "pages.search",
    SEARCH_C: "pages.search",
    SEARCH_BUDGET_KIND: "pages.search",
    SEARCH_SIMULATIONS: "pages.search",
    SEARCH_SECONDS: "pages.search",
    SEARCH_SEED: "pages.search",
    SEARCH_SOLVE: "pages.search",
    SEARCH_RUN: "pages.search",
    SEARCH_STOP: "pages.search",
    SEARCH_USE_AGAIN: "pages.search",
    SEARCH_DOWNLOAD_LOG: "pages.search",
    SEARCH_JOB: "pages.search",
    STRENGTH_GAME: "pages.strength",
    STRENGTH_GAME_NAME: "pages.strength",
    STRENGTH_MOVES: "pages.strength",
    STRENGTH_FROM_SEARCH: "pages.strength",
    STRENGTH_C_VALUES: "pages.strength",
    STRENGTH_GAMES: "pages.strength",
    STRENGTH_SIMULATIONS: "pages.strength",
    STRENGTH_OPPONENT: "pages.strength",
    STRENGTH_OPPONENT_C: "pages.strength",
    STRENGTH_SEED: "pages.strength",
    STRENGTH_WORKERS: "pages.strength",
    STRENGTH_RUN: "pages.strength",
    STRENGTH_STOP: "pages.strength",
    STRENGTH_TABLE: "pages.strength",
    STRENGTH_CSV: "pages.strength",
    STRENGTH_JOB: "pages.strength",
}

# Keys made from a pattern, with their owners.
PATTERNS: dict[str, str] = {
    r"(cmp_)?rule_[a-z0-9_]+": "ui.rule_panel",  # rule_setting_key
    r"(cmp_)?rule(_preset)?": "ui.rule_panel",
    r"class_guess_[0-9]+": "pages.classroom",  # guess_button_key
    r"search_move_[0-9]+": "pages.search",  # search_move_key
}


def rule_setting_key(prefix: str, rule: str, setting: str) -> str:
    """The widget key of one rule setting in the rule panel with this prefix."""
    return f"{prefix}rule_{rule}_{setting}"


def guess_button_key(index: int) -> str:
    """The Classroom's guess button for the child at ``index`` in move order."""
    return f"class_guess_{index}"


def search_move_key(action: int) -> str:
    """The Search page's board button that plays ``action``."""
    return f"search_move_{action}"


def owner_of(key: str) -> str | None:
    """The module that owns ``key``, None for a key nobody declared."""
    if key in OWNERS:
        return OWNERS[key]
    return next((owner for pattern, owner in PATTERNS.items() if re.fullmatch(pattern, key)), None)


def first_run_for_input(scope: str, input_key: str) -> bool:
    """True on the first run of ``scope`` (a page) with this input, False on every later run.

    Pages reset what depends on the input (a range, a walk, a step) when this says so.
    """
    seen = st.session_state.setdefault(SEEN_INPUTS, {})
    if seen.get(scope) == input_key:
        return False
    seen[scope] = input_key
    return True


# pages.simultaneous (appended: the Simultaneous page's keys)
SIM_RULE = "sim_rule"
SIM_C = "sim_c"
SIM_GAMMA = "sim_gamma"
SIM_NODE = "_sim_node"  # the inspected node's path, as JSON (joint moves as arrays)
SIM_ROOT = "sim_root"
SIM_UP = "sim_up"
SIM_STEP = "sim_step"
SIM_CHILD = "sim_child"
SIM_JOINT_TABLE = "sim_joint_table"
SIM_SMITSIMAX = "sim_smitsimax"
SIM_MATRIX_GAME = "sim_matrix_game"
SIM_STRATEGY_TABLE = "sim_strategy_table"
SIM_SWEEP_RULES = "sim_sweep_rules"
SIM_SWEEP_SIMULATIONS = "sim_sweep_simulations"
SIM_SWEEP_TABLE = "sim_sweep_table"
SIM_DEMO_GAME = "sim_demo_game"
SIM_DEMO_ALGORITHM = "sim_demo_algorithm"
SIM_DEMO_RULE = "sim_demo_rule"
SIM_DEMO_C = "sim_demo_c"
SIM_DEMO_SIMULATIONS = "sim_demo_simulations"
SIM_DEMO_SEED = "sim_demo_seed"
SIM_DEMO_RUN = "sim_demo_run"
SIM_DEMO_ERROR = "_sim_demo_error"

OWNERS.update({
    key: "pages.simultaneous"
    for key in (
        SIM_RULE, SIM_C, SIM_GAMMA, SIM_NODE, SIM_ROOT, SIM_UP, SIM_STEP, SIM_CHILD, SIM_JOINT_TABLE, SIM_SMITSIMAX,
        SIM_MATRIX_GAME, SIM_STRATEGY_TABLE, SIM_SWEEP_RULES, SIM_SWEEP_SIMULATIONS, SIM_SWEEP_TABLE, SIM_DEMO_GAME,
        SIM_DEMO_ALGORITHM, SIM_DEMO_RULE, SIM_DEMO_C, SIM_DEMO_SIMULATIONS, SIM_DEMO_SEED, SIM_DEMO_RUN,
        SIM_DEMO_ERROR,
    )
})
PATTERNS[r"sim_own_table_[0-9]+"] = "pages.simultaneous"  # sim_own_table_key
PATTERNS[r"sim_smitsimax_table_[0-9]+"] = "pages.simultaneous"  # sim_smitsimax_table_key


def sim_own_table_key(player: int) -> str:
    """The Simultaneous page's table of player ``player``'s own moves."""
    return f"sim_own_table_{player}"


def sim_smitsimax_table_key(player: int) -> str:
    """The Simultaneous page's table of player ``player``'s Smitsimax root."""
    return f"sim_smitsimax_table_{player}"
