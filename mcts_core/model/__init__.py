"""The tree model: playouts as columns, the tree they build with the puzzle's rule, and replay.

Holds :class:`Playouts` (what was read), :func:`build_tree` (the puzzle's rule: walk, create the
first missing node, stop), :class:`Tree` (flat arrays with CSR children) and :class:`Playback`
(the tree after the first k playouts). May import the standard library, numpy and ``common``;
never selection, analysis, drawing or the readers (which import it).

Five tree classes, one job each (docs/DESIGN.md, "Five trees"): :class:`Tree`, a finished tree (every
input reads into one; pages, tables, the sweep and drawing read it); ``search``'s ``LiveTree``, the
tree a sequential search grows, readable as a Tree; its ``JointLiveTree``, the same with
simultaneous nodes (DUCT); its ``PlayerTree``, one player's own-move tree in Smitsimax; and
``simultaneous``'s ``DecoupledTree``, each player's own-move statistics that a simultaneous node
read from a log adds to its joint Tree. What they share is in :mod:`.tree_protocol`: the protocols
:class:`NodeStatistics`, :class:`SelectableTree` (what selection reads) and :class:`GrowingTree`
(what the search loop grows), and which class shares which.
"""

from .build import build_tree, next_player
from .playback import Playback, race
from .playouts import Fact, Playouts, join_path, path_json, split_path
from .tree import CHANCE, DECLARED, NO_PARENT, NO_PLAYOUT, ROOT, TERMINAL, NodeKinds, Tree
from .tree_protocol import GrowingTree, NodeStatistics, SelectableTree

__all__ = [
    "CHANCE", "DECLARED", "NO_PARENT", "NO_PLAYOUT", "ROOT", "TERMINAL",
    "Fact", "GrowingTree", "NodeKinds", "NodeStatistics", "Playback", "Playouts", "SelectableTree", "Tree",
    "build_tree", "next_player", "join_path", "path_json", "race", "split_path",
]
