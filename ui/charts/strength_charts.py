"""The C and strength page's charts: a value with its 95% interval against C on a log axis, the score
with its fitted curve and best C, each budget's fitted best C, the SPRT's LLR, the budget x C map, the
trees' statistics, and SPSA's C over its iterations."""

from __future__ import annotations

import math

import altair as alt
import pandas as pd

from mcts_core.strength import MISFIT, BestC, BestCAnswer
from ui.common.colours import MOVE_PALETTE

# Mid tones that read on the light and the dark theme alike.
FIT_COLOUR, BEST_COLOUR, SAFE_COLOUR, POINT_COLOUR = "#f58518", "#2ca02c", "#b279a2", "#4a90d9"


def c_domain(grid: list[float]) -> tuple[float, float]:
    """The C axis's ends: the grid's with a margin (from 0 when C = 0 is in it)."""
    low, high = min(grid), max(grid)
    return (low / 1.3, high * 1.3) if low > 0 else (0.0, max(high, 0.1) * 1.3)


def c_scale(grid: list[float]) -> alt.Scale:
    """C on a log scale over the whole grid (symlog when C = 0 is in it: log has no 0).

    The domain is the grid's, not the finished rows', so the axis stays put while rows come in.
    """
    if min(grid) > 0:
        return alt.Scale(type="log", domain=list(c_domain(grid)), nice=False)
    return alt.Scale(type="symlog", constant=0.1, domain=list(c_domain(grid)), nice=False)


def c_axis(grid: list[float]) -> alt.X:
    """C on :func:`c_scale`'s axis, ticks at the grid's values."""
    return alt.X("c:Q", scale=c_scale(grid), title="C (log scale)", axis=alt.Axis(values=sorted(grid), format="~g"))


def interval_chart(frame: pd.DataFrame, grid: list[float], value: str, low: str, high: str, title: str,
                   tooltip: list[str]) -> alt.LayerChart:
    """A value vs C with its 95 % interval as error bars, one colour per budget; infinite ends are left out."""
    data = frame.assign(
        **{name: frame[name].where(frame[name].abs() != float("inf")) for name in (value, low, high)},
        budget=frame["simulations"].astype(str),
    )
    base = alt.Chart(data).encode(x=c_axis(grid), color=alt.Color("budget:N", title="simulations"))
    tips = [alt.Tooltip("c:Q", title="C", format="~g"), *(alt.Tooltip(f"{name}:Q", format=".4~g") for name in tooltip)]
    bars = base.mark_errorbar(ticks=True).encode(y=alt.Y(f"{low}:Q", title=title), y2=f"{high}:Q", tooltip=tips)
    line = base.mark_line(point=alt.OverlayMarkDef(size=70, filled=True)).encode(y=f"{value}:Q", tooltip=tips)
    return alt.layer(bars, line).properties(height=320)


def even_score_rule() -> alt.Chart:
    """A dashed grey line at the score of an even match, 0.5."""
    return alt.Chart(pd.DataFrame({"y": [0.5]})).mark_rule(strokeDash=[4, 4], color="#888888").encode(y="y:Q")


def score_chart(frame: pd.DataFrame, grid: list[float]) -> alt.LayerChart:
    """Score vs C with its 95% Wilson interval as a band; the counts in the tooltip."""
    tooltip = [alt.Tooltip("c:Q", title="C", format="~g"), alt.Tooltip("games:Q"), alt.Tooltip("wins:Q"),
               alt.Tooltip("draws:Q"), alt.Tooltip("losses:Q"), alt.Tooltip("score:Q", format=".3f"),
               alt.Tooltip("low:Q", title="95% interval from", format=".3f"),
               alt.Tooltip("high:Q", title="95% interval to", format=".3f")]
    base = alt.Chart(frame).encode(x=c_axis(grid))
    band = base.mark_area(opacity=0.2, color="#4c78a8").encode(y=alt.Y("low:Q"), y2="high:Q", tooltip=tooltip)
    line = base.mark_line(color="#4c78a8", point=alt.OverlayMarkDef(size=70, filled=True, color="#4c78a8")).encode(
        y=alt.Y("score:Q", title="score", scale=alt.Scale(domain=[0, 1])), tooltip=tooltip
    )
    even = even_score_rule()
    return alt.layer(band, even, line).properties(height=320)


def fit_chart(frame: pd.DataFrame, grid: list[float], fit: BestC, answer: BestCAnswer) -> alt.LayerChart:
    """Each C's score with its 95% interval (a green ring on the C values not significantly below the best
    measured one), the quadratic fitted over the grid with its 95% band and its conservative C (a triangle on
    the curve), and the answer's best C (a line, when found) with its 95% interval (shaded, cut at the axis's
    ends)."""
    x = c_axis(grid)
    curve = pd.DataFrame(fit.curve.points(), columns=["c", "fit", "fit_low", "fit_high"])
    fitted_tips = [alt.Tooltip("c:Q", title="C", format=".3~g"), alt.Tooltip("fit:Q", title="fitted score", format=".3f"),
                   alt.Tooltip("fit_low:Q", title="95% band from", format=".3f"),
                   alt.Tooltip("fit_high:Q", title="95% band to", format=".3f")]
    layers = []
    low, high = answer.interval
    if not math.isnan(low):  # there is a local fit
        first, last = c_domain(grid)
        best = answer.best if answer.found else None
        shade = pd.DataFrame({"from": [max(low, first if first > 0 else 0.0)], "to": [min(high, last)],
                              "best": [best], "low": [low], "high": [high], "verdict": [answer.verdict]})
        best_tips = [alt.Tooltip("verdict:N", title="best C"), alt.Tooltip("best:Q", title="best C", format=".3~g"),
                     alt.Tooltip("low:Q", title="95% interval from", format=".3~g"),
                     alt.Tooltip("high:Q", title="95% interval to", format=".3~g")]
        layers.append(alt.Chart(shade).mark_rect(opacity=0.12, color=BEST_COLOUR).encode(
            x=alt.X("from:Q", scale=c_scale(grid)), x2="to:Q", tooltip=best_tips))
        if best is not None:
            layers.append(alt.Chart(shade).mark_rule(color=BEST_COLOUR, strokeWidth=2).encode(
                x=alt.X("best:Q", scale=c_scale(grid)), tooltip=best_tips))
    even = even_score_rule()
    score = alt.Scale(domain=[0, 1])
    band = alt.Chart(curve).mark_area(opacity=0.2, color=FIT_COLOUR).encode(
        x=x, y=alt.Y("fit_low:Q", title="score", scale=score), y2="fit_high:Q", tooltip=fitted_tips)
    line = alt.Chart(curve).mark_line(color=FIT_COLOUR, strokeWidth=2, strokeDash=[6, 4] if answer.shape == MISFIT
                                      else [1, 0]).encode(x=x, y=alt.Y("fit:Q", title="score", scale=score),
                                                          tooltip=fitted_tips)
    safe = pd.DataFrame({"c": [fit.conservative], "fit": [fit.curve.score_at(fit.conservative)[0]],
                         "floor": [fit.conservative_low]})
    triangle = alt.Chart(safe).mark_point(shape="triangle-up", size=160, filled=True, color=SAFE_COLOUR, opacity=1).encode(
        x=x, y="fit:Q", tooltip=[alt.Tooltip("c:Q", title="conservative C", format=".3~g"),
                                 alt.Tooltip("floor:Q", title="score at least (95%)", format=".3f")])
    data = frame.assign(near_best=frame["c"].isin(answer.near_best).map({True: "yes", False: "no"}))
    tips = [alt.Tooltip("c:Q", title="C", format="~g"), alt.Tooltip("games:Q"), alt.Tooltip("score:Q", format=".3f"),
            alt.Tooltip("low:Q", title="95% interval from", format=".3f"),
            alt.Tooltip("high:Q", title="95% interval to", format=".3f"),
            alt.Tooltip("near_best:N", title="not significantly below the best")]
    bars = alt.Chart(data).mark_errorbar(ticks=True, color=POINT_COLOUR).encode(
        x=x, y=alt.Y("low:Q", title="score", scale=score), y2="high:Q", tooltip=tips)
    points = alt.Chart(data).mark_point(filled=True, size=70, color=POINT_COLOUR, opacity=1).encode(
        x=x, y=alt.Y("score:Q", title="score", scale=score), tooltip=tips)
    rings = alt.Chart(data[data["near_best"] == "yes"]).mark_point(size=260, color=BEST_COLOUR, strokeWidth=2,
                                                                    opacity=1).encode(
        x=x, y=alt.Y("score:Q", title="score", scale=score), tooltip=tips)
    return alt.layer(*layers, even, band, line, bars, points, rings, triangle).properties(height=320)


def best_c_chart(answers: dict[int, BestCAnswer], grid: list[float]) -> alt.LayerChart:
    """Each budget's best C found with its 95% interval (cut at the grid's ends), budgets on a log axis."""
    first, last = c_domain(grid)
    data = pd.DataFrame([{"simulations": budget, "best": answer.best, "from": max(answer.interval[0], first),
                          "to": min(answer.interval[1], last), "low": answer.interval[0], "high": answer.interval[1]}
                         for budget, answer in answers.items()])
    x = alt.X("simulations:Q", scale=alt.Scale(type="log", domain=[min(answers) / 1.3, max(answers) * 1.3], nice=False),
              title="simulations per move", axis=alt.Axis(values=sorted(answers), format="~g"))
    scale = alt.Scale(type="log", domain=[first, last], nice=False)
    axis = alt.Axis(values=sorted(c for c in grid if c > 0), format="~g")
    tips = [alt.Tooltip("simulations:Q"), alt.Tooltip("best:Q", title="best C", format=".3~g"),
            alt.Tooltip("low:Q", title="95% interval from", format=".3~g"),
            alt.Tooltip("high:Q", title="95% interval to", format=".3~g")]
    base = alt.Chart(data).encode(x=x, tooltip=tips)
    bars = base.mark_errorbar(ticks=True, color=BEST_COLOUR).encode(
        y=alt.Y("from:Q", scale=scale, axis=axis, title="best C (log scale)"), y2="to:Q")
    line = base.mark_line(color=BEST_COLOUR, point=alt.OverlayMarkDef(size=70, filled=True, color=BEST_COLOUR)).encode(
        y=alt.Y("best:Q", scale=scale))
    return alt.layer(bars, line).properties(height=240)


def llr_chart(curves: list[tuple[float, list]], bounds: tuple[float, float]) -> alt.LayerChart:
    """LLR against games played, one line per C (``curves``: each C with its points from
    :func:`mcts_core.strength.llr_curve`), with Wald's lower and upper bounds (the tooltip: those in effect)."""
    frame = pd.DataFrame([{"C": f"{c:g}", **point._asdict()} for c, points in curves for point in points],
                         columns=["C", "games", "llr", "lower", "upper"])
    # The legend in C's order (as text "10" sorts before "2") and neighbouring Cs in distinct colours.
    order = [f"{c:g}" for c in sorted({c for c, _ in curves})]
    colour = alt.Color("C:N", sort=order, scale=alt.Scale(domain=order, range=MOVE_PALETTE))
    tooltip = ["C:N", "games:Q", alt.Tooltip("llr:Q", title="LLR", format=".3f"),
               alt.Tooltip("lower:Q", title="lower bound in effect", format=".3f"),
               alt.Tooltip("upper:Q", title="upper bound in effect", format=".3f")]
    lines = alt.Chart(frame).mark_line(point=alt.OverlayMarkDef(size=12, filled=True)).encode(
        x=alt.X("games:Q", title="games played", axis=alt.Axis(format="d", tickMinStep=1)),  # whole games only
        y=alt.Y("llr:Q", title="LLR"), color=colour, tooltip=tooltip)
    limits = pd.DataFrame({"llr": list(bounds), "bound": [f"lower {bounds[0]:.3f} (H0)", f"upper {bounds[1]:.3f} (H1)"]})
    rules = alt.Chart(limits).mark_rule(strokeDash=[6, 4], color="#d62728").encode(y="llr:Q", tooltip=["bound:N"])
    return alt.layer(rules, lines).properties(height=320)


def best_per_budget(frame: pd.DataFrame) -> pd.DataFrame:
    """Each budget's row with the largest Elo (ties: the smaller C)."""
    ordered = frame.sort_values(["simulations", "elo", "c"], ascending=[True, False, True])
    return ordered.groupby("simulations", as_index=False).head(1)


def heatmap(frame: pd.DataFrame) -> alt.LayerChart:
    """Elo over budget x C, each budget's best C marked with a star."""
    data = frame.assign(C=frame["c"].map(lambda c: f"{c:g}"), shown=frame["elo"].clip(-800, 800))
    order = [f"{c:g}" for c in sorted(frame["c"].unique())]
    encode = dict(x=alt.X("C:O", sort=order, title="C"), y=alt.Y("simulations:O", title="simulations per move"))
    tips = ["C:N", "simulations:Q",
            *(alt.Tooltip(f"{name}:Q", format="+.1f") for name in ("elo", "elo_low", "elo_high")), "games:Q"]
    cells = alt.Chart(data).mark_rect().encode(
        **encode, color=alt.Color("shown:Q", title="Elo", scale=alt.Scale(scheme="redblue", domainMid=0)), tooltip=tips)
    best = best_per_budget(data)
    stars = alt.Chart(best).mark_text(text="★", size=20, color="black").encode(**encode, tooltip=tips)
    # A band per budget: a fixed total height left the rows no room in Streamlit's fit-to-width chart (0 px tall).
    return alt.layer(cells, stars).properties(height=alt.Step(40))


# The trees' statistics charted against C, by column: (title, unit, meaning); the page heads each chart with them.
STATISTICS = {
    "entropy": ("Root visit entropy", "nats", "How evenly the root's visits spread: 0 = all on one move."),
    "depth": ("Depth reached", "moves", "The deepest node the search reached."),
    "top_share": ("Share on the best move", "share", "The most visited root move's share of the visits."),
}


def statistic_chart(frame: pd.DataFrame, grid: list[float], column: str) -> alt.Chart:
    """One of :data:`STATISTICS` (a mean over the tested side's first searches) against C."""
    title, unit, _ = STATISTICS[column]
    share = column == "top_share"
    return alt.Chart(frame).mark_line(color="#f58518", point=alt.OverlayMarkDef(size=50, filled=True, color="#f58518")).encode(
        x=c_axis(grid),
        y=alt.Y(f"{column}:Q", title=unit, scale=alt.Scale(domain=[0, 1]) if share else alt.Scale(zero=True),
                axis=alt.Axis(format="%") if share else alt.Axis()),
        tooltip=[alt.Tooltip("c:Q", title="C", format="~g"), alt.Tooltip(f"{column}:Q", title=title, format=".3f"),
                 alt.Tooltip("games:Q")],
    ).properties(height=220)


def spsa_chart(frame: pd.DataFrame, grid: list[float], answer: BestCAnswer | None) -> alt.LayerChart:
    """SPSA's C over its iterations (``frame``: :func:`mcts_core.strength.spsa_rows`' rows): C after each
    iteration as a line, the two C values each iteration played faint, and the grid's answer (``answer``, None
    without a grid): its best C's 95% interval shaded (cut at the axis's ends), a rule at its best C once found."""
    first, last = c_domain(grid)
    played = frame[["plus", "minus"]]
    domain = [min(first, float(played.min().min())), max(last, float(played.max().max()))]
    scale = alt.Scale(type="log", domain=domain, nice=False)
    y_title = "C (log scale)"
    y_axis = alt.Axis(values=sorted(c for c in grid if c > 0), format="~g")  # ticks at the grid's C values
    layers = []
    low, high = answer.interval if answer is not None else (math.nan, math.nan)
    if not math.isnan(low):
        best = answer.best if answer.found else None
        shade = pd.DataFrame({"from": [max(low, domain[0])], "to": [min(high, domain[1])], "best": [best],
                              "low": [low], "high": [high if math.isfinite(high) else None],  # open: no end
                              "verdict": [answer.verdict]})
        best_tips = [alt.Tooltip("verdict:N", title="the grid's best C"),
                     alt.Tooltip("best:Q", title="the grid's best C", format=".3~g"),
                     alt.Tooltip("low:Q", title="95% interval from", format=".3~g"),
                     alt.Tooltip("high:Q", title="95% interval to", format=".3~g")]
        layers.append(alt.Chart(shade).mark_rect(opacity=0.12, color=BEST_COLOUR).encode(
            y=alt.Y("from:Q", scale=scale, title=y_title, axis=y_axis), y2="to:Q", tooltip=best_tips))
        if best is not None:
            layers.append(alt.Chart(shade).mark_rule(color=BEST_COLOUR, strokeWidth=2, strokeDash=[6, 4]).encode(
                y=alt.Y("best:Q", scale=scale, title=y_title, axis=y_axis), tooltip=best_tips))
    layers += spsa_path(frame, ("theta", "plus", "minus", "after"), "C", scale, y_title, y_axis)
    return alt.layer(*layers).properties(height=320)


def spsa_constant_chart(frame: pd.DataFrame, name: str, label: str) -> alt.LayerChart:
    """A second constant's path under SPSA (its columns in ``frame`` named after ``name``), on a log axis."""
    columns = (name, f"{name}_plus", f"{name}_minus", f"{name}_after")
    scale = alt.Scale(type="log", zero=False)
    # The label alone as the title: with "(log scale)" a long one (cpuctExplorationBase) was cut at this height.
    return alt.layer(*spsa_path(frame, columns, label, scale, label, alt.Axis(format="~g"))).properties(height=240)


def spsa_path(frame: pd.DataFrame, columns: tuple[str, str, str, str], what: str, scale: alt.Scale, title: str,
              axis: alt.Axis) -> list[alt.Chart]:
    """One tuned value's path: after each iteration as a line, the two values each iteration played faint.

    ``columns``: the value before each iteration, the plus and minus sides' and the value after.
    """
    before, plus, minus, after = columns
    x = alt.X("k:Q", title="iteration", axis=alt.Axis(format="d", tickMinStep=1))
    sides = frame.rename(columns={plus: "plus side", minus: "minus side"}).melt(
        id_vars=["k"], value_vars=["plus side", "minus side"], var_name="side", value_name="played")
    faint = alt.Chart(sides).mark_point(size=24, filled=True, opacity=0.35, color=POINT_COLOUR).encode(
        x=x, y=alt.Y("played:Q", scale=scale, title=title, axis=axis),
        tooltip=[alt.Tooltip("k:Q", title="iteration"), alt.Tooltip("side:N"),
                 alt.Tooltip("played:Q", title=f"{what} played", format=".4~g")])
    tips = [alt.Tooltip("k:Q", title="iteration"), alt.Tooltip(f"{before}:Q", title=f"{what} before", format=".4~g"),
            alt.Tooltip(f"{plus}:Q", title=f"{what}+ played", format=".4~g"),
            alt.Tooltip(f"{minus}:Q", title=f"{what}− played", format=".4~g"),
            alt.Tooltip("result:Q", title="the plus side did better by (W − L)"),
            alt.Tooltip(f"{after}:Q", title=f"{what} after", format=".4~g")]
    line = alt.Chart(frame).mark_line(color=FIT_COLOUR, strokeWidth=2).encode(
        x=x, y=alt.Y(f"{after}:Q", scale=scale, title=title, axis=axis), tooltip=tips)
    return [faint, line]
