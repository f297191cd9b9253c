"""What every stage shares: the input limits and ParseError, reading a user's JSON, one rule for numbers
a person types (C included), SQLite files shared between processes, handing freed memory back
to the system, and Gauss-Jordan elimination (``linear``).

Imports only the standard library.
"""

from .input_rules import MAX_MOVES, MAX_PLAYERS, MAX_PLAYOUTS, ParseError, decode_text
from .json_input import load_json
from .memory import columns_bytes, return_free_memory
from .numbers import C_RULE, is_finite_number, is_valid_c, parse_c, parse_number
from .sqlite_files import StoreError, use_wal

__all__ = [
    "C_RULE", "MAX_MOVES", "MAX_PLAYERS", "MAX_PLAYOUTS", "ParseError", "decode_text", "columns_bytes", "is_finite_number", "is_valid_c",
    "load_json", "parse_c", "parse_number", "return_free_memory", "StoreError", "use_wal"]
