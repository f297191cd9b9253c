"""The sentence under a children table that says why the selected child won (shared by pages)."""

from mcts_core.explain import Choice
from pages.markdown import code, escape

# How a deciding term is named in a sentence; other terms keep their own names.
_TERM_WORDS = {"mean": "exploitation (the mean)", "exploration": "exploration"}


def why_sentence(choice: Choice) -> str:
    """Markdown: the winner against the runner-up, the term gaps, and the term that decided."""
    winner, runner_up = choice.winner, choice.runner_up
    if runner_up is None:
        return f"{code(winner.move)} is the only child: it is selected whatever C is."
    if choice.deciding == "tie":
        return (
            f"{code(winner.move)} and {code(runner_up.move)} tie exactly at {winner.value:.6g}: "
            "the smaller move wins."
        )
    gaps = ", ".join(f"{escape(name)} {gap:+.4g}" for name, gap in choice.differences.items())
    deciding = _TERM_WORDS.get(choice.deciding, choice.deciding)
    return (
        f"{code(winner.move)} beats {code(runner_up.move)} by {choice.margin:.4g} ({gaps}), "
        f"so **{escape(deciding)}** decided."
    )
