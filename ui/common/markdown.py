"""Safe markdown for user text: Streamlit renders markdown in st.error, st.markdown, captions."""

import re

# Every character with a meaning in CommonMark or Streamlit's extensions (colours, emoji, math).
_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~$:&\"'=^])")
# GFM turns URL-like text into links after parsing, escaped or not: "http://", "www.", "x@y.z".
_AUTOLINK = re.compile(r"(?i)(https?|ftp|mailto|xmpp)(?=:)|(www)(?=\.)|(@)")
WORD_JOINER = "\u2060"  # invisible; splits what the autolinker looks for


def escape(text: str) -> str:
    """``text`` shown literally: every markdown-special character backslash-escaped, and URL-like
    parts split by an invisible word joiner so that they do not become links."""
    return _SPECIAL.sub(r"\\\1", _AUTOLINK.sub(lambda found: found.group(0) + WORD_JOINER, text))


def code(text: str) -> str:
    """``text`` as an inline code span, whatever backticks it contains."""
    fence = "`" * (max((len(run) for run in re.findall("`+", text)), default=0) + 1)
    return f"{fence} {text} {fence}"
