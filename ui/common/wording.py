"""Words and number formats the pages share: node names, counts, a run's words, why a child won, draws, folded
nodes, column headers."""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from mcts_core import ROOT, ChildScore, Tree
from mcts_core.analysis import ONLY_CHILD, TIE, UNVISITED, Choice
from mcts_core.inputs import ENGINE, LOG, TEXT, Input
from mcts_core.model import Step
from ui.common.markdown import code, escape

# How a deciding term is named in a sentence; other terms keep their own names.
_TERM_WORDS = {"mean": "exploitation (the mean)", "exploration": "exploration", "q": "exploitation (Q)",
               "bias": "the progressive bias", "value": "the value"}
# Who wins an exact tie, by the tree's tie order.
_TIE_WORDS = {"smaller": "the smaller move wins", "first": "the first child in the node's order wins"}


def plural(count: int, noun: str) -> str:
    """``1 visit``, ``2 visits``, ``1,500 visits``."""
    return f"{count:,} {noun}{'' if count == 1 else 's'}"


def flip_sentence(selected: str, first: str, count: float) -> str:
    """Markdown: which child passes the selected one first, after how many more visits to it (every
    mean and prior held: the children table's "visits to flip")."""
    if math.isinf(count):
        return (f"No other child passes {code(selected)}, however many more visits it takes (up to 2^53), "
                "every mean and prior held.")
    return f"{code(first)} is next after {plural(int(count), 'more visit')} to {code(selected)}, every mean and prior held."


def tree_counts(tree: Tree, kind: str) -> str:
    """Markdown: what the tree's numbers count. Puzzle text: its playouts and nodes. A log: its
    simulations; a dump: its root's visits (it records no playouts). Where a log or dump declared
    children no simulation reached, the visited nodes and those children apart."""
    if kind == TEXT:
        made = f"**{tree.playouts:,}** playouts"
    elif kind == LOG:
        made = f"**{tree.playouts:,}** simulations"
    elif kind == ENGINE:
        made = f"an engine's analysis (the root with **{tree.visits[ROOT]:,}** visits, its children and their lines)"
    else:
        made = f"a finished search (a tree dump: the root has **{tree.visits[ROOT]:,}** visits)"
    unvisited = len(tree) - tree.visited_nodes
    if not unvisited:
        return f"{made}, **{len(tree):,}** nodes"
    children = "child" if unvisited == 1 else "children"
    return f"{made}, **{tree.visited_nodes:,}** visited nodes and **{unvisited:,}** declared {children} not visited yet"


def input_summary(read: Input) -> str:
    """What an input is, from its content alone (no one's file name): its kind, what its numbers
    count, its players and the game when it names one. Plain text."""
    tree = read.tree
    game = read.simultaneous.game if read.simultaneous is not None else None
    if read.kind == TEXT:
        parts = [f"puzzle text, {plural(tree.playouts, 'playout')}"]
    elif read.kind == LOG:
        parts = [f"JSON Lines log{f' of {game}' if game else ''}, {plural(tree.playouts, 'simulation')}"]
    elif read.engine is not None:
        parts = [read.engine.title]
        if read.analysis_number is not None:
            parts.append(f"analysis {read.analysis_number:,} of {len(read.analyses):,}")
    else:
        parts = [f"tree dump{f' of {game}' if game else ''}, the root with {plural(tree.visits[ROOT], 'visit')}"]
    parts.append(plural(len(tree), "node"))
    if tree.players > 1:
        parts.append(f"{tree.players} players")
    if read.simultaneous is not None:
        parts.append("simultaneous moves")
    return ", ".join(parts)


@dataclass(frozen=True)
class RunWords:
    """How an input names one run down its tree: puzzle text's playout (a word and a score), a log's
    simulation (a path and each player's return, as the log records them)."""

    run: str  # "playout"
    path: str  # "Word"
    new_node: str  # the metric naming the node the run visited first
    log: bool  # an engine's log: a run may stop at the root or first visit a declared child

    def runs(self, count: int) -> str:
        """``1 playout``, ``2,000 simulations``."""
        return plural(count, self.run)

    @property
    def runs_title(self) -> str:
        """``Playouts``, ``Simulations``."""
        return f"{self.run.capitalize()}s"

    def returns_metric(self, returns: Sequence[float]) -> tuple[str, str]:
        """The metric's label and value for a run's returns: puzzle text's score, a log's return, or
        one return per player (``Returns (P0 / P1)``, ``-1 / 1``)."""
        if not self.log:
            return "Score", f"{returns[0]:g}"
        if len(returns) == 1:
            return "Return", f"{returns[0]:g}"
        players = " / ".join(f"P{player}" for player in range(len(returns)))
        return f"Returns ({players})", " / ".join(f"{value:g}" for value in returns)


    def new_node_of(self, step: Step) -> int | None:
        """The node the metric names: the one the playout created; the one a simulation visited first."""
        return step.new_node if self.log else step.created

    def sentence(self, tree: Tree, step: Step) -> str:
        """Markdown: what playout k did in the puzzle's words, or what simulation k did in a log's."""
        k = f"{step.k:,}"
        if self.log:
            if step.at_root:
                return f"**Simulation {k} stopped at the root** (its path is empty): the root alone got the visit and the return."
            if step.new_node is None:
                return (f"Simulation {k} went down {code(step.word)}, where every node already had visits: each one on "
                        "it was updated.")
            return (f"Simulation {k} went down {code(step.word)} and **gave node "
                    f"{code(node_label(tree.path(step.new_node)))} its first visit** (mean {step.after[-1].mean:g} for "
                    "the player who moved into it); then it stopped.")
        if step.created is None:
            return f"**No new node:** its whole word {code(step.word)} existed, so every node on it was updated."
        return (f"Playout {k} walked down {code(step.word)} while the nodes existed and **created node "
                f"{code(node_label(tree.path(step.created)))}** with 1 visit and mean {step.score:g}; then it stopped.")


PLAYOUT_WORDS = RunWords("playout", "Word", "Created node", log=False)
SIMULATION_WORDS = RunWords("simulation", "Path", "New node", log=True)


def run_words(kind: str) -> RunWords:
    """The words for an input of this kind (``inputs.TEXT``, ``LOG``): the puzzle's for puzzle text."""
    return PLAYOUT_WORDS if kind == TEXT else SIMULATION_WORDS


def node_markdown(path: str, root: str = "**root**") -> str:
    """A node for markdown: its path as code, or ``root`` for the root."""
    return code(path) if path else root


def node_label(path: str) -> str:
    """A node as plain text (tables, metrics): its path, or ``(root)``."""
    return path or "(root)"


FILE_STEM_LENGTH = 100  # characters of a node's path kept in a file name


def node_file_stem(path: str) -> str:
    """A node as part of a file name: its path with each run of characters other than ASCII letters,
    digits, "." and "-" as one "_" (``o1 x2`` -> ``o1_x2``), at most :data:`FILE_STEM_LENGTH`
    characters; ``root`` for the root."""
    stem = re.sub(r"[^A-Za-z0-9.-]+", "_", path)
    return (stem.strip("_") or stem)[:FILE_STEM_LENGTH] or "root"


def why_sentence(choice: Choice) -> str:
    """Markdown: the winner against the runner-up, the gaps of the terms that add up to the value,
    and the term that decided (or the tie order, or that the winner is unvisited)."""
    winner, runner_up = choice.winner, choice.runner_up
    if choice.deciding == ONLY_CHILD or runner_up is None:
        return f"{code(winner.move)} is the only child: it is selected whatever C is."
    tie_order = _TIE_WORDS[choice.ties]
    if choice.deciding == TIE:
        if math.isinf(winner.value):
            return f"{code(winner.move)} and {code(runner_up.move)} are both unvisited (infinite values): {tie_order}."
        return f"{code(winner.move)} and {code(runner_up.move)} tie exactly at {winner.value:.6g}: {tie_order}."
    if choice.deciding == UNVISITED:
        return (f"{code(winner.move)} has no visits yet: its value is infinite, so it is tried before "
                f"{code(runner_up.move)}.")
    gaps = ", ".join(f"{escape(name)} {gap:+.4g}" for name, gap in choice.differences.items())
    deciding = _TERM_WORDS.get(choice.deciding, choice.deciding)
    return (
        f"{code(winner.move)} beats {code(runner_up.move)} by {choice.margin:.4g}"
        + (f" ({gaps})" if gaps else "")
        + f", so **{escape(deciding)}** decided."
    )


def random_draw_warning(children: Sequence[ChildScore], whose: str = "this node") -> str:
    """Markdown: the node draws a child at random; the path follows the most likely one."""
    odds = ", ".join(f"{code(child.move)} {child.probability:.0%}" for child in children)
    return (
        f"Below the sample threshold {whose} draws a child at random ({odds}); the path "
        "follows the most likely one, ties to the smaller move."
    )


def folded_caption(hidden: int) -> str:
    """How many nodes the picture leaves out; each box's “+k more” line counts its own."""
    return f"{hidden:,} nodes not drawn: a box's “+k more” line counts its children left out." if hidden > 0 else "All nodes drawn."


def node_sentence(tree: Tree, node: int) -> str:
    """Markdown: the node, its visits and mean, who moves there, and whether it is special."""
    path = tree.path(node)
    visits = tree.visits[node]
    parts = [f"Node {node_markdown(path)}: {plural(visits, 'visit')}"]
    if visits:
        view = f" for player {tree.mover(node)}" if tree.players > 1 else ""
        parts.append(f"mean{view} {tree.mean(node):.4f}")
    if tree.players > 1:
        parts.append(f"player {tree.player[node]} to move")
    if tree.is_chance(node):
        parts.append("a chance node")
    if tree.is_terminal(node):
        parts.append("the game ended here")
    outcome = tree.outcome_of(node)
    if outcome is not None:
        parts.append(f"proven value {outcome:.4g}")
    return ", ".join(parts) + "."


def core_sentence(message: str) -> str:
    """A core error message as markdown: capitalised, unless it starts with a name (``connect_four has``)."""
    first = message.split(" ", 1)[0]
    return escape(message[:1].upper() + message[1:] if first.isalpha() and first.islower() else message)


def full_sentence(words: str) -> str:
    """A refusal's or failure's words (plain text, a sentence's end) as a sentence: capitalised,
    with a full stop."""
    return words[:1].upper() + words[1:] + "."


def mean_header(tree: Tree, node: int) -> str:
    """The children's mean column header, short enough to show whole: whose view the means take."""
    return f"mean (P{tree.player[node]})" if tree.players > 1 else "mean"


def total_format(values: Iterable[float], significant: int = 6) -> str:
    """A fixed-point format showing the largest of ``values`` with ``significant`` digits (76,095.4
    as 76095.4, not 7.61e+04 or 76100), and at least 1 decimal (never more than 4) for the small ones."""
    largest = max((abs(value) for value in values if math.isfinite(value)), default=0.0)
    integer_digits = len(str(int(largest))) if largest >= 1 else 1
    return f"%.{min(max(significant - integer_digits, 1), 4)}f"
