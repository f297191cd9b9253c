"""Reading inputs: the formats (puzzle text, JSON Lines logs, tree dumps), bundles, the store, examples.

:func:`read_input` turns any accepted text into an :class:`Input` (tree, playouts, C, rule,
settings, simultaneous part); :mod:`.formats` holds one reader per format, each refusing bad input
with a :class:`ParseError` naming the line; :mod:`.bundle` reads and writes the view's zip;
:mod:`.store` keeps inputs in SQLite under the SHA-256 of their bytes, in :func:`data_folder`.
May import model, selection and simultaneous; drawing only lazily (a bundle's picture).
"""

from .bundle import Bundle, View, bundle_bytes, is_bundle, read_bundle
from .data_folder import DATA_VARIABLE, data_folder
from .examples import C_FLIPS_CHOICE, EXACT_TIE, EXAMPLES, STATEMENT_EXAMPLE, STATEMENT_EXAMPLE_EXPLAINED, deep_tree
from .formats import (
    KEYWORDS,
    MAX_MOVES,
    MAX_PLAYOUTS,
    ParseError,
    annotated_values,
    decode_text,
    format_playouts,
    parse_move_values,
    parse_playouts,
)
from .loading import ENGINE, LOG, TEXT, TREE, Input, engine_input, input_kind, read_input
from .store import MAX_INPUT_BYTES, InputStore, StoredInput, StoreError, input_id, is_input_id

__all__ = [
    "C_FLIPS_CHOICE", "DATA_VARIABLE", "ENGINE", "EXACT_TIE", "EXAMPLES", "KEYWORDS", "LOG", "MAX_INPUT_BYTES",
    "MAX_MOVES", "MAX_PLAYOUTS", "STATEMENT_EXAMPLE", "STATEMENT_EXAMPLE_EXPLAINED", "TEXT", "TREE",
    "Bundle", "Input", "InputStore", "ParseError", "StoreError", "StoredInput", "View",
    "annotated_values", "bundle_bytes", "data_folder", "engine_input", "decode_text", "deep_tree", "format_playouts",
    "input_id", "input_kind", "is_bundle", "is_input_id", "parse_move_values", "parse_playouts",
    "read_bundle", "read_input",
]
