"""Any accepted input -> its tree: puzzle text, a JSON Lines log, a JSON tree dump or an engine's
analysis (KataGo, Leela Zero, lc0), told apart by content."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..common.input_rules import ParseError
from ..model.build import TooManyNodes, build_tree
from .formats.engine_analysis import EngineAnalysis, engine_tree
from .formats.engine_readers import engine_reader
from .formats.log import FactsTooLarge, looks_like_log, read_log
from .formats.text import parse_playouts
from .formats.tree_json import looks_like_tree, read_tree_dump
from .memory_bound import Reading, check_building, check_reading, fact_budget, too_much_in_facts, too_many_nodes
from ..model.playouts import Playouts
from ..selection.registry import RULES
from ..model.tree import Tree

if TYPE_CHECKING:
    from ..simultaneous.joint import SimultaneousLog
    from ..simultaneous.reading import SimultaneousInput

TEXT, LOG, TREE, ENGINE = "text", "log", "tree", "engine"


@dataclass(frozen=True, eq=False)
class Input:
    """A read input.

    Attributes:
        tree: its tree.
        playouts: the playouts the tree was built from; None for a tree dump (a finished tree).
        kind: ``"text"``, ``"log"`` or ``"tree"``.
        c: the C the input states (a header's), None when it states none.
        rule: the selection rule the input says it was searched with (a name), None if it does not say
            or names a rule for simultaneous nodes only (``simultaneous.rule`` keeps it).
        settings: that rule's settings besides C, as the input states them.
        simultaneous: for a log or dump with simultaneous moves, the decoupled tree and the
            Smitsimax view (:class:`~mcts_core.simultaneous.reading.SimultaneousInput`); None
            otherwise. ``tree`` is then the joint tree: every joint move one move named ``R|P``, so
            every sequential page can show it; a joint child's total is from the view of its
            parent's ``player``.
        engine: for an engine's analysis, the one the tree shows (None otherwise).
        analyses: for an engine's analysis, every analysis in the file in file order (several
            positions, queries or updates of a stream); ``engine`` is one of them.
    """

    tree: Tree
    playouts: Playouts | None
    kind: str
    c: float | None
    rule: str | None
    settings: dict = field(default_factory=dict)
    simultaneous: SimultaneousInput | None = None
    engine: EngineAnalysis | None = None
    analyses: tuple[EngineAnalysis, ...] = ()

    @property
    def analysis_number(self) -> int | None:
        """Which of its file's analyses ``engine`` is (1-based), None when the file has one or none."""
        if len(self.analyses) < 2:
            return None
        return next(number for number, analysis in enumerate(self.analyses, 1) if analysis is self.engine)

    def search_updates(self) -> tuple[tuple[Tree, ...], tuple[int, ...], tuple[dict, ...]]:
        """The analyses of the search the shown one reports (its file's analyses with its ``search``, in
        file order): their trees (the root and its children), their numbers among the file's analyses (1-based) and the settings
        each states (:func:`~mcts_core.analysis.update_series`'s arguments); nothing for an input
        that is not an engine's.

        Raises:
            ParseError: on an analysis's line, when its numbers do not make a tree.
        """
        if self.engine is None:
            return (), (), ()
        numbers = tuple(number for number, analysis in enumerate(self.analyses, 1)
                        if analysis.search == self.engine.search)
        updates = [self.analyses[number - 1] for number in numbers]
        # The root and its children only: the series and the root's selection read nothing below.
        trees = tuple(analysis_tree(analysis, lines=False) for analysis in updates)
        return trees, numbers, tuple(dict(analysis.settings) for analysis in updates)


def input_kind(text: str) -> str:
    """Which format ``text`` is in, from its first characters."""
    if looks_like_tree(text):
        return TREE
    if engine_reader(text) is not None:
        return ENGINE
    if looks_like_log(text):
        return LOG
    return TEXT


def read_input(text: str) -> Input:
    """Parse ``text`` in whichever format it is and build its tree.

    Raises:
        ParseError: the first problem, naming its line (and key); or, on line 1, that reading or
            building it would take more memory than the bound allows (:mod:`.memory_bound`),
            said before it is read or built.
    """
    kind = input_kind(text)
    reading = check_reading(text, kind)
    if kind == ENGINE:
        analyses = engine_reader(text).read(text)
        return engine_input(analyses, len(analyses) - 1)
    if kind == TREE:
        tree, c, rule, settings, dumped = read_tree_dump(text)
        simultaneous = None
        if dumped is not None:
            from ..simultaneous.reading import simultaneous_input

            decoupled, meta = dumped
            simultaneous = simultaneous_input(decoupled, meta, None, rule, settings)
            if rule not in RULES:
                rule, settings = None, {}
        return Input(tree, None, kind, c, rule, settings, simultaneous)
    if kind == TEXT:
        playouts = parse_playouts(text)
        return Input(bounded_tree(reading, playouts), playouts, kind, playouts.c, playouts.rule, playouts.settings)
    try:
        playouts, log = read_log(text, max_fact_bytes=fact_budget(reading))
    except FactsTooLarge as over:
        raise too_much_in_facts(reading, over.line, over.kept) from None
    tree = bounded_tree(reading, playouts, log)
    simultaneous = None
    if log is not None:
        from ..simultaneous.decoupled_tree import build_decoupled
        from ..simultaneous.reading import simultaneous_input

        decoupled = build_decoupled(playouts, log, tree=tree)
        simultaneous = simultaneous_input(decoupled, log, playouts, playouts.rule, playouts.settings)
    return Input(tree, playouts, kind, playouts.c, playouts.rule, playouts.settings, simultaneous)


def engine_input(analyses: tuple[EngineAnalysis, ...], index: int) -> Input:
    """The input of an engine's file showing its analysis number ``index`` (0-based, file order), with
    the engine's rule, the settings the file states and its C (the rule's default C when it states none).

    Raises:
        ParseError: on that analysis's line, when its numbers do not make a tree (a child with more
            visits than the root).
    """
    analysis = analyses[index]
    tree = analysis_tree(analysis)
    # The engine's C: the file's, else its rule's default (what the engine ran with unless told),
    # never the C of whatever the user looked at before.
    c = analysis.c if analysis.c is not None else RULES[analysis.rule].defaults["c"]
    return Input(tree, None, ENGINE, c, analysis.rule, dict(analysis.settings), engine=analysis, analyses=analyses)


def analysis_tree(analysis: EngineAnalysis, *, lines: bool = True) -> Tree:
    """The tree ``analysis`` describes (``lines``: with each child's PV, :func:`engine_tree`).

    Raises:
        ParseError: on its line, when its numbers do not make a tree (a child with more visits than the root).
    """
    try:
        return engine_tree(analysis, lines=lines)
    except ValueError as problem:
        raise ParseError(analysis.line, str(problem)) from None


def bounded_tree(reading: Reading, playouts: Playouts, log: SimultaneousLog | None = None) -> Tree:
    """The tree of ``playouts``, refused before it is built when building it would exceed the memory
    bound (a log's node facts: when the build reaches the nodes the bound allows).

    Raises:
        ParseError: on line 1, how much memory it would take, the limit and why.
    """
    budget = check_building(reading, playouts, decoupled_moves(playouts, log))
    try:
        return build_tree(playouts, max_nodes=budget)
    except TooManyNodes:
        raise too_many_nodes(reading, budget) from None


def decoupled_moves(playouts: Playouts, log: SimultaneousLog | None) -> int:
    """How many own moves a simultaneous log's decoupled tree keeps statistics for, at most: those its
    facts declare, and one per player for each simulation's new node (0 without simultaneous moves)."""
    if log is None:
        return 0
    declared = sum(len(moves) for fact in log.facts if fact.moves for moves in fact.moves)
    return declared + playouts.players * len(playouts)
