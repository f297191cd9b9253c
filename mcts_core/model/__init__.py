"""The tree model: playouts as columns, the tree they build with the puzzle's rule, and replay.

Holds :class:`Playouts` (what was read), :func:`build_tree` (the puzzle's rule: walk, create the
first missing node, stop), :class:`Tree` (flat arrays with CSR children) and :class:`Playback`
(the tree after the first k playouts). May import the standard library, numpy and ``common``;
never selection, analysis, drawing or the readers (which import it).
"""

from .build import build_tree, next_player
from .playback import Playback, race
from .playouts import Fact, Playouts, join_path, path_json, split_path
from .tree import CHANCE, DECLARED, NO_PARENT, NO_PLAYOUT, ROOT, TERMINAL, NodeKinds, Tree

__all__ = [
    "CHANCE", "DECLARED", "NO_PARENT", "NO_PLAYOUT", "ROOT", "TERMINAL",
    "Fact", "NodeKinds", "Playback", "Playouts", "Tree",
    "build_tree", "next_player", "join_path", "path_json", "race", "split_path",
]
