"""Safe markdown for user text: Streamlit renders markdown in st.error, st.markdown, captions."""

import re

# Every character with a meaning in CommonMark or Streamlit's extensions (colours, emoji, math).
_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~$:&\"'=^])")


def escape(text: str) -> str:
    """``text`` with every markdown-special character backslash-escaped, shown literally."""
    return _SPECIAL.sub(r"\\\1", text)


def code(text: str) -> str:
    """``text`` as an inline code span, whatever backticks it contains."""
    fence = "`" * (max((len(run) for run in re.findall("`+", text)), default=0) + 1)
    return f"{fence} {text} {fence}"
