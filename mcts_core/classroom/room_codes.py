"""Join codes, the teacher's secret, and the digests the room store keeps instead of secrets.

A code is :data:`CODE_LENGTH` characters from :data:`CODE_ALPHABET` (no 0/O, 1/I/L to misread on a
projector): 31**6, about 887 million codes. With 50 rooms open at once, a guess finds one with
odds of about 1 in 18 million, and the store lets an address check a code only every
:data:`~mcts_core.classroom.room_store.ADDRESS_PAUSE_SECONDS` seconds once it tried
:data:`~mcts_core.classroom.room_store.ADDRESS_FREE_CODES` wrong ones lately: years of guessing per
room found, and a room expires after a few idle hours. The code only lets a student in; what only the
teacher may do needs the room's secret (256 random bits), which the teacher's browser keeps and the
store knows only as a SHA-256 digest; a teacher link carries a token of the same form, used once. A student is a random token their browser keeps; the store
keeps its digest salted with the room's code, so tokens say nothing across rooms.
"""

from __future__ import annotations

import hashlib
import re
import secrets

CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
CODE_LENGTH = 6
_TOKEN = re.compile(r"[0-9a-f]{32}")  # a student's token: 128 random bits, hex (the browser makes it)
_SECRET = re.compile(r"[A-Za-z0-9_-]{43}")  # new_secret's form: 32 bytes, URL-safe base64 without padding
_SEPARATORS = re.compile(r"[\s\-_.]+")


def new_code() -> str:
    """A fresh join code (random; the store retries the rare one already in use)."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def read_code(text: str) -> str | None:
    """A code as a person types it (any case, spaces or dashes between): the code, or None when it
    cannot be one (wrong length or characters)."""
    code = _SEPARATORS.sub("", text or "").upper()
    if len(code) != CODE_LENGTH or any(char not in CODE_ALPHABET for char in code):
        return None
    return code


def new_secret() -> str:
    """A teacher's secret for a new room: 256 random bits, URL-safe text."""
    return secrets.token_urlsafe(32)


def is_link_token(text: object) -> bool:
    """Whether ``text`` has the form of a teacher link's token (:func:`new_secret`'s)."""
    return isinstance(text, str) and _SECRET.fullmatch(text) is not None


def is_student_token(text: object) -> bool:
    """Whether ``text`` has the form of a student's token (32 lowercase hex digits)."""
    return isinstance(text, str) and _TOKEN.fullmatch(text) is not None


def digest(*parts: str) -> str:
    """SHA-256 (hex) of ``parts`` joined by NUL: what the store keeps of a secret or a token."""
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()
