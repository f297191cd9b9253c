"""Input formats: puzzle text, the JSON Lines log, the JSON tree dump, per-move value lines.

One reader per format, each refusing bad input with a ParseError that names the line. May import
``common``, the model, selection and simultaneous (pyarrow and numpy on the fast paths)."""

from ...common.input_rules import MAX_MOVES, MAX_PLAYOUTS, ParseError, decode_text
from .move_values import KEYWORDS, annotated_values, parse_move_values
from .text import format_playouts, parse_playouts

__all__ = [
    "KEYWORDS",
    "MAX_MOVES",
    "MAX_PLAYOUTS",
    "ParseError",
    "annotated_values",
    "decode_text",
    "format_playouts",
    "parse_move_values",
    "parse_playouts",
]
