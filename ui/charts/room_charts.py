"""The live room's charts of the answers, after Reveal: a bar per child, or the answered C values as dots
coloured by their verdict over the band of Cs that count as right."""

from __future__ import annotations

import altair as alt
import pandas as pd

from mcts_core.classroom import ANSWER_RANGE, FLIP_TOLERANCE, Question, Tally, is_right_c, right_band
from ui.charts.axes import linear_c_scale
from ui.common.colours import CURRENT_COLOUR
from ui.common.wording import plural

RIGHT_COLOUR = "#2e7d32"  # the right answer's bar: green, darker than the others' grey in both themes
OTHER_COLOUR = "#9e9e9e"


def choice_chart(question: Question, counted: Tally, most_bars: int) -> alt.Chart:
    """A bar per child (the answered ones and the right one, at most ``most_bars`` when there are more),
    the right one green."""
    counts = list(counted.counts)
    if len(counts) > most_bars:
        kept = sorted((item for item in counts if item[1] or item[0] == question.answer), key=lambda item: -item[1])
        counts = [item for item in counts if item in kept[:most_bars]]
    frame = pd.DataFrame({
        "move": [move for move, _ in counts],
        "answers": [count for _, count in counts],
        "answer": ["right" if move == question.answer else "other" for move, _ in counts],
    })
    bars = alt.Chart(frame).mark_bar().encode(
        x=alt.X("move:N", sort=None, title=None, axis=alt.Axis(labelAngle=0, labelFontSize=16, labelLimit=120)),
        y=alt.Y("answers:Q", title="answers", axis=alt.Axis(tickMinStep=1, format="d")),
        color=alt.Color("answer:N", scale=alt.Scale(domain=["right", "other"], range=[RIGHT_COLOUR, OTHER_COLOUR]),
                        legend=alt.Legend(title=None, orient="top", labelFontSize=14)),
    )
    numbers = bars.mark_text(dy=-10, fontSize=16).encode(text="answers:Q", color=alt.value("currentColor"))
    return (bars + numbers).properties(height=200)


def flip_chart(question: Question, counted: Tally) -> alt.Chart:
    """The answers as dots along C (equal ones stacked), each green when right and grey when wrong,
    over the band of Cs that count as right (green, faint); the exact C where the choice flips as a red line.

    The axis runs to twice the flip (or the question's C) and the answers up to the slider's top;
    answers beyond it (a wild guess) sit at the axis's end, counted in the title, so that one of
    them never squeezes the class's answers into one dot.
    """
    right, wrong = f"right (within {FLIP_TOLERANCE:.0%})", "wrong"
    top = question.most_c / ANSWER_RANGE  # the slider's top
    high = max([question.breakpoint * 2, question.c, *(value for value in counted.values if value <= top)]) * 1.05
    step = high / 100  # answers this close stack in one column
    levels: dict[int, int] = {}
    rows = []
    for value in counted.values:
        column = round(min(value, high) / step)
        levels[column] = levels.get(column, 0) + 1
        rows.append({"C": min(value, high), "answers": levels[column],
                     "verdict": right if is_right_c(question, value) else wrong})
    beyond = sum(value > high for value in counted.values)
    scale = linear_c_scale(0, high)
    dots = alt.Chart(pd.DataFrame(rows, columns=["C", "answers", "verdict"])).mark_circle(size=140, opacity=0.9).encode(
        x=alt.X("C:Q", scale=scale, title="C"),
        y=alt.Y("answers:Q", title="answers", axis=alt.Axis(tickMinStep=1, format="d"),
                scale=alt.Scale(domainMin=0, domainMax=max(levels.values(), default=1) + 1)),
        color=alt.Color("verdict:N", scale=alt.Scale(domain=[right, wrong], range=[RIGHT_COLOUR, OTHER_COLOUR]),
                        legend=alt.Legend(title=None, orient="top", labelFontSize=14)),
    )
    low_right, high_right = right_band(question)
    band = alt.Chart(pd.DataFrame({"from": [low_right], "to": [min(high_right, high)]})).mark_rect(
        color=RIGHT_COLOUR, opacity=0.3).encode(x=alt.X("from:Q", scale=scale), x2="to:Q")
    exact = pd.DataFrame({"C": [question.breakpoint], "label": [f"flips at C = {question.breakpoint:.6g}"]})
    line = alt.Chart(exact).mark_rule(color=CURRENT_COLOUR, size=3).encode(x=alt.X("C:Q", scale=scale))
    label = alt.Chart(exact).mark_text(align="left", baseline="top", dx=6, fontSize=14, color=CURRENT_COLOUR).encode(
        x=alt.X("C:Q", scale=scale), y=alt.value(4), text="label:N")
    # The band over the dots (the dots stay the first layer): only right dots sit in it, green under green.
    chart = (dots + band + line + label).properties(height=200)
    return chart.properties(title=f"{plural(beyond, 'answer')} above C = {high:.3g}, drawn at the right end") if beyond else chart
