"""Texts that follow a drag of C: each is a small component (``ui/c/live_text.js``, no iframe,
nothing loaded from the network, nothing sent back) that owns its own DOM.

Python sends the text at rest, so the server and AppTest know it, as parts (plain, code or bold), some
of them slots naming what C decides: ``c:<role>`` ("C = x"), ``path:<role>`` (the path in words),
``length:<role>`` (its number of moves), and for Compare's verdict on the two paths ``verdict``
("identical" / "split at X"), ``split`` (the node where they part, or "root") and ``move:<role>``
(each side's move there). The C control (``ui/c/c_control.js``) announces each frame of a drag as
the window event "mcts-c-drag"; the component rewrites only its own slots on each, and shows the text
Python sent again once the page is at the dragged C. A text with several shapes (the verdict's
sentence) takes the shape of the dragged verdict. Roles: "selected" (the page's C), "second"
(Compare's B, Playback's path at C).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from mcts_core import Scoring, Tree
from mcts_core.analysis import Comparison
from ui.common import state
from ui.common.components import asset_component

# Session-state keys this module owns: one component per live text, named by its page.
LIVE_TEXT = state.key_family("live_text_{}")

NO_PATH = "(root is a leaf)"  # an empty path in words (live_text.js writes the same)

Part = tuple[str, str, str | None]  # (style: "" plain, "code" or "strong"; the text at rest; its slot or None)

_HTML = '<div class="lt-root"></div>'

_component = asset_component("mcts_live_text", "c/live_text", _HTML)


def plain(text: str) -> Part:
    return ("", text, None)


def code(text: str, slot: str | None = None) -> Part:
    return ("code", text, slot)


def bold(text: str, slot: str | None = None) -> Part:
    return ("strong", text, slot)


def path_words(path: str) -> str:
    """A path as the live texts write it: its moves, or :data:`NO_PATH`."""
    return path or NO_PATH


def c_part(role: str, c: float) -> Part:
    """"C = x" in bold, following the ``role`` control's C."""
    return bold(f"C = {c:.6g}", f"c:{role}")


def described(scoring: Scoring, role: str) -> list[Part]:
    """:meth:`Scoring.describe` with its "C = x" part in bold, following the ``role`` control's C."""
    name, _, *others = scoring.describe("\n").split("\n")
    parts = [plain(name + ", "), c_part(role, scoring.c)]
    return parts + [plain(", " + other) for other in others]


@dataclass(frozen=True)
class LiveText:
    """One text that follows the drags of C (module docstring).

    Attributes:
        name: names its component (key ``live_text_<name>``).
        shapes: shape name -> its parts; ``shape``: the one shown at rest (a single-shape text: "rest").
        paths: the path (moves) at rest of each role whose slots the text has; ``cs``: the C at rest.
        compact: moves are single characters written together, else joined by spaces.
        look: "caption", "text" or "metric" (then ``show``'s label and help).
        boxes: shape name -> "success" or "info" for a sentence in a coloured box.
        highlight: "red": the text on a red background (Compare's setting A).
    """

    name: str
    shapes: Mapping[str, Sequence[Part]]
    paths: Mapping[str, Sequence[str]]
    cs: Mapping[str, float]
    compact: bool
    shape: str = "rest"
    look: str = "caption"
    boxes: Mapping[str, str] = field(default_factory=dict)
    highlight: str | None = None

    def __str__(self) -> str:
        """The text at rest."""
        return "".join(text for _, text, _ in self.shapes[self.shape])

    def show(self, label: str | None = None, help_text: str | None = None, **options) -> None:
        """Draw it in the current container (``options``: the component's ``width``)."""
        data = {
            "look": self.look, "label": label, "help": help_text, "highlight": self.highlight,
            "shape": self.shape, "compact": self.compact,
            "shapes": {name: {"parts": [list(part) for part in parts], "box": self.boxes.get(name)}
                       for name, parts in self.shapes.items()},
            "paths": {role: list(moves) for role, moves in self.paths.items()},
            "cs": dict(self.cs),
        }
        _component(key=LIVE_TEXT.format(self.name), data=data, height="content", **options)


def text(name: str, parts: Sequence[Part], *, cs: Mapping[str, float], look: str = "caption",
         highlight: str | None = None) -> None:
    """Draw a one-shape live text (``look`` "caption" or "text") whose "C = x" slots follow the roles of ``cs``."""
    LiveText(name, {"rest": parts}, {}, cs, True, look=look, highlight=highlight).show()


def metric_value(name: str, role: str, follows: str, tree: Tree, nodes: Sequence[int], c: float) -> LiveText:
    """A metric's value for :func:`ui.common.metric_row.metric_row` that follows the ``role``
    control's path ``nodes`` (root first) at C = ``c``: its words (``follows`` "path") or its
    number of moves ("length")."""
    shown = str(len(nodes) - 1) if follows == "length" else path_words(tree.path(nodes[-1]))
    return LiveText(name, {"rest": [("", shown, f"{follows}:{role}")]}, {role: tree.path_moves(nodes[-1])}, {role: c},
                    tree.compact, look="metric")


def _verdict_parts(tree: Tree, comparison: Comparison) -> tuple[str, dict[str, list[Part]]]:
    """The verdict sentence's shape at rest and every shape's parts (the others' slots left empty)."""
    split = tree.path(comparison.split)
    shape = "identical" if comparison.identical else "split" if split else "split_root"
    same = path_words(tree.path(comparison.path_a[-1])) if comparison.identical else ""
    node, a, b = ("", "", "") if comparison.identical else (
        split, tree.move[comparison.choice_a], tree.move[comparison.choice_b])
    takes = [plain(": A takes "), code(a, "move:selected"), plain(", B takes "), code(b, "move:second"), plain(".")]
    return shape, {
        "identical": [plain("Both settings select the same path, "), code(same, "path:selected"),
                      plain(". Change B's rule or C to see where they start to disagree.")],
        "split_root": [plain("The paths split at "), bold("root"), *takes],
        "split": [plain("The paths split at "), code(node, "split"), *takes],
    }


def verdict(name: str, tree: Tree, comparison: Comparison, c_a: float, c_b: float) -> tuple[LiveText, LiveText]:
    """Compare's verdict on the paths of roles "selected" (A) and "second" (B), following both
    controls: the metric's value ("identical" / "split at X") and the sentence under it (in a box)."""
    paths = {"selected": tree.path_moves(comparison.path_a[-1]), "second": tree.path_moves(comparison.path_b[-1])}
    cs = {"selected": c_a, "second": c_b}
    words = "identical" if comparison.identical else f"split at {tree.path(comparison.split) or 'root'}"
    value = LiveText(f"{name}_value", {"rest": [("", words, "verdict")]}, paths, cs, tree.compact, look="metric")
    shape, shapes = _verdict_parts(tree, comparison)
    sentence = LiveText(f"{name}_sentence", shapes, paths, cs, tree.compact, shape=shape, look="text",
                        boxes={"identical": "success", "split_root": "info", "split": "info"})
    return value, sentence
