"""lc0's PUCT: ``S = Q + c(N) * sqrt(max(N - 1, 1)) * P / (1 + n + in-flight)``.

N is the parent's visits (lc0 counts the node's own evaluation in it, so its children have N - 1),
n the child's. ``c(N) = CPuct + CPuctFactor * FastLog((N + CPuctBase) / CPuctBase)``, with lc0's
fast logarithm (a quadratic in the float's mantissa, in float32: up to 7 % below ``ln`` near 1),
so that U equals the engine's own. Q is the child's mean for the player who makes the move; an
unvisited child's Q is the first-play value: ``root_value - FpuValue * sqrt(sum of the visited
children's priors)`` (``reduction``) or ``FpuValue`` itself (``absolute``). P is the declared prior,
else uniform ``1 / children``. ``in_flight`` adds the visits lc0 had started but not finished when
it printed (its ``(+k)``) to a move's denominator. The moves-left utility lc0 adds to S with a
moves-left network above ``MovesLeftThreshold`` is not modelled (the tree has no moves-left
estimates).

Defaults from lc0's ``src/search/classic/params.cc`` (v0.27 to v0.32: CPuct 1.745, CPuctBase
38739, CPuctFactor 3.894, FpuStrategy reduction, FpuValue 0.330; FpuStrategyAtRoot ``same``, so the
root uses them too); formula from ``src/search/classic/search.cc`` (``ComputeCpuct``, ``GetFpu``,
``GetVerboseStats``) and ``src/utils/fastmath.h`` (``FastLog``), https://github.com/LeelaChessZero/lc0.
"""

from __future__ import annotations

import math
import struct
from collections.abc import Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Any

from ..rule import Rule, Setting, c_setting
from ..terms import MoveValues, Siblings, Terms, value_of
from ..value_form import ValueForm

FPU_STRATEGIES = ("reduction", "absolute")
CPUCT, CPUCT_FACTOR, CPUCT_BASE, FPU_VALUE = 1.745, 3.894, 38739.0, 0.330


def _f32(x: float) -> float:
    """``x`` rounded to float32, as lc0 holds every number of its search."""
    return struct.unpack("<f", struct.pack("<f", x))[0]


def fast_log(a: float) -> float:
    """lc0's ``FastLog(a)`` (utils/fastmath.h), bit for bit: ln 2 times a quadratic fit of log2 on
    the float32 mantissa plus the exponent, each operation rounded to float32."""
    bits = struct.unpack("<I", struct.pack("<f", a))[0]
    exponent = bits >> 23
    mantissa = struct.unpack("<f", struct.pack("<I", (bits & 0x7FFFFF) | (0x7F << 23)))[0]
    out = _f32(mantissa - 1.0)
    log2 = _f32(_f32(_f32(out * _f32(_f32(1.3465552) - _f32(_f32(0.34655523) * out))) - 127.0) + exponent)
    return _f32(_f32(0.6931471805599453) * log2)


def cpuct_growth(parent_visits: int, factor: float, base: float) -> float:
    """``CPuctFactor * FastLog((N + CPuctBase) / CPuctBase)`` in lc0's float32: what c(N) adds to CPuct."""
    if not factor:
        return 0.0
    base32 = _f32(base)
    return _f32(_f32(factor) * fast_log(_f32(_f32(_f32(parent_visits) + base32) / base32)))


def lc0(parent_visits: int, visits: int, total: float, *, c: float, move: str, siblings: Siblings,
        prior: float | None = None, cpuct_factor: float = CPUCT_FACTOR, cpuct_base: float = CPUCT_BASE,
        fpu_strategy: str = "reduction", fpu_value: float = FPU_VALUE, root_value: float = 0.0,
        in_flight: MoveValues | None = None) -> Terms:
    """lc0's PUCT (module docstring).

    Args:
        parent_visits, visits, total: N.v, M.v and M.s (:class:`~mcts_core.selection.terms.RuleFunction`).
        c: CPuct.
        move, siblings, prior: the child's move, the children of the node choosing, its declared prior.
        cpuct_factor, cpuct_base: CPuctFactor and CPuctBase.
        fpu_strategy, fpu_value: FpuStrategy (``"reduction"`` or ``"absolute"``) and FpuValue.
        root_value: the parent's Q for the player to move there, which a reduction starts from.
        in_flight: visits started but not finished per move (lc0's ``(+k)``); None: none.

    Returns:
        ``mean``, ``q``, ``prior``, ``in_flight`` (where ``in_flight`` is given), ``cpuct`` (c(N)),
        ``exploration`` (U) and ``value`` (S).
    """
    mean = total / visits if visits else math.nan
    if visits:
        q = mean
    elif fpu_strategy == "absolute":
        q = fpu_value
    else:
        q = root_value - fpu_value * math.sqrt(siblings.visited_prior)
    if prior is None:
        prior = 1.0 / siblings.count
    cpuct = c + cpuct_growth(parent_visits, cpuct_factor, cpuct_base)
    root = math.sqrt(max(parent_visits - 1, 1))
    terms = {"mean": mean, "q": q, "prior": prior}
    flying = 0.0
    if in_flight is not None:  # a term only where the file had visits in flight: lc0's (+k)
        flying = terms["in_flight"] = value_of(in_flight, move)
    exploration = cpuct * root * prior / (1 + visits + flying)
    return {**terms, "cpuct": cpuct, "exploration": exploration, "value": q + exploration}


@dataclass(frozen=True, slots=True)
class Lc0Puct(ValueForm):
    """``q + (c + growth) * root * prior / d``: lc0's S, with growth = c(N) - CPuct,
    root = sqrt(max(N.v - 1, 1)) and d = 1 + M.v + in-flight."""

    q: float
    growth: float
    prior: float
    root: float
    d: float
    roundings = 6
    plain = False

    def __call__(self, c: float) -> float:
        return self.q + (c + self.growth) * self.root * self.prior / self.d

    def line(self) -> tuple[float, float]:
        slope = self.root * self.prior / self.d
        return self.q + self.growth * slope, slope

    def scale(self) -> float:
        return max(abs(self.q), abs(self.growth * self.root * self.prior / self.d))

    def varying(self) -> dict[str, tuple[float, float]]:
        slope = self.root * self.prior / self.d
        growth = self.growth * slope
        return {"cpuct": (self.growth, 1.0), "exploration": (growth, slope), "value": (self.q + growth, slope)}


class Lc0(Rule):
    """lc0's PUCT (module docstring): its value is the line :class:`Lc0Puct` in CPuct."""

    key = "lc0"
    name = "lc0 PUCT"
    function = staticmethod(lc0)
    # Two lines (gathered): one did not fit beside the picture on a 1366-pixel page.
    formula = (r"\begin{gathered}Q(M) + c(N)\,\frac{P(M)\sqrt{\max(N.v - 1, 1)}}{1 + M.v} \\ "
               r"c(N) = C + F \ln\frac{N.v + B}{B}\end{gathered}")
    source = ("lc0, src/search/classic/search.cc (ComputeCpuct, GetFpu, GetVerboseStats) and params.cc, "
              "https://github.com/LeelaChessZero/lc0")
    settings = (
        replace(c_setting("CPuct"), default=CPUCT),
        Setting("cpuct_factor", "CPuctFactor", "float", CPUCT_FACTOR, low=0.0, high=10.0,
                help="how fast c(N) grows with the parent's visits"),
        Setting("cpuct_base", "CPuctBase", "float", CPUCT_BASE, low=1.0, high=1e6,
                help="the visits at which c(N) has grown by CPuctFactor · ln 2"),
        Setting("fpu_strategy", "FpuStrategy", "choice", "reduction", choices=FPU_STRATEGIES,
                help="an unvisited child's Q: the parent's Q minus a reduction, or FpuValue itself"),
        Setting("fpu_value", "FpuValue", "float", FPU_VALUE, low=-100.0, high=1.0,
                help="the reduction (times √ of the visited children's priors), or the absolute Q"),
        Setting("root_value", "parent's Q (for the first-play value)", "float", 0.0, low=-1.0, high=1.0,
                help="the Q of the node choosing, for its player to move: the file's node line"),
        Setting("in_flight", "visits in flight per move", "move_values", None, low=0.0,
                help="one `move k` per line: visits lc0 had started on the move when it printed (+k)"),
    )
    inputs = ("move", "siblings", "prior")
    terms = ("mean", "q", "prior", "in_flight", "cpuct", "exploration", "value")
    addends = ("q", "exploration")
    node_terms = ("cpuct",)  # one value at a node: said once above the table
    labels = MappingProxyType({"q": "Q", "in_flight": "in flight", "cpuct": "c(N)", "exploration": "U", "value": "S"})
    reads_sibling_visits = True

    def value_form(self, terms: Terms, parent_visits: int, visits: int, total: float,
                   settings: Mapping[str, Any]) -> ValueForm:
        growth = cpuct_growth(parent_visits, settings["cpuct_factor"], settings["cpuct_base"])
        d = 1 + visits + terms.get("in_flight", 0.0)
        return Lc0Puct(terms["q"], growth, terms["prior"], math.sqrt(max(parent_visits - 1, 1)), d)


RULE = Lc0()
