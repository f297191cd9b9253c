"""Input formats: puzzle text, the JSON Lines log, the JSON tree dump, per-move value lines."""

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
