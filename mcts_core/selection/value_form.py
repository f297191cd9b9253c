"""A child's value as a line in C: how a rule computes it from C in floats, and the real line.

Every sequential rule is affine in C at each child (in real arithmetic). A rule's module says how
(its :meth:`~mcts_core.selection.rule.Rule.value_form`), with a subclass of :class:`ValueForm`
holding the constants read off the child's terms: ``form(c)`` is the float the rule computes, bit
for bit (the same operations in the same order), and ``form.line()`` is the real line
``intercept + C * slope`` the C sweep crosses (:mod:`mcts_core.analysis.envelope`).
"""

from __future__ import annotations


class ValueForm:
    """How a rule computes one child's value from C in floats.

    Attributes (class-level):
        plain: the float value is ``intercept + c * slope`` itself (compares like it for every C).
        roundings: a bound, in ulps of the largest magnitude the operations meet, on how far the
            float value can be from the real line.
    """

    __slots__ = ()
    plain: bool
    roundings: int

    def __call__(self, c: float) -> float:
        """The float the rule computes at ``c``."""
        raise NotImplementedError

    def line(self) -> tuple[float, float]:
        """``(intercept, slope)`` of the real line."""
        raise NotImplementedError

    def scale(self) -> float:
        """The largest magnitude of the parts that do not grow with C."""
        raise NotImplementedError

    def varying(self) -> dict[str, tuple[float, float]]:
        """The terms that depend on C (``value`` included) as ``(intercept, slope)``."""
        raise NotImplementedError
