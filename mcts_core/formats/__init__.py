"""Input formats: puzzle text (playouts) and per-move value lines."""

from .move_values import KEYWORDS, annotated_values, parse_move_values
from .text import (
    MAX_MOVES,
    MAX_PLAYOUTS,
    ParseError,
    Playouts,
    decode_text,
    format_playouts,
    parse_playouts,
)

__all__ = [
    "KEYWORDS",
    "MAX_MOVES",
    "MAX_PLAYOUTS",
    "ParseError",
    "Playouts",
    "annotated_values",
    "decode_text",
    "format_playouts",
    "parse_move_values",
    "parse_playouts",
]
