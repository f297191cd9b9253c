"""Drawing the tree: graphviz DOT with the selected path marked, laid out once and tagged for the viewer.

:mod:`.dot` chooses what is drawn (budget, depth, top-k), writes the DOT and runs ``dot``;
:mod:`.layout` places the nodes with the selected path straight, for graphviz to draw as placed;
:mod:`.graphviz_run` runs ``dot`` on it; :mod:`.tagged_svg` tags the laid-out SVG with each
node's path so a browser can highlight it without a new layout. Imports graphviz, so ``mcts_core``
does not import this package. May import model and selection.
"""

from .dot import (
    ACROSS_PAGE,
    BESIDE_TABLE,
    BESIDE_TABLE_STACKED,
    COLOURINGS,
    LEFT_TO_RIGHT,
    INSPECTED_COLOR,
    MEAN_PALETTE,
    PATH_COLOR,
    PATH_FILL,
    SECOND_PATH_COLOR,
    SECOND_PATH_FILL,
    SHARED_COLOR,
    SHARED_FILL,
    VISITS_PALETTE,
    Arrangement,
    arrange,
    colour_key,
    colour_scale,
    dot_available,
    drawn_nodes,
    hidden_count,
    layout_svg,
    node_fills,
    path_neighbourhood,
    render_tree,
    visible_nodes,
)
from .graphviz_run import DotRun, dot_svg
from .tagged_svg import NodeInfo, SvgTagger, node_infos, path_json, tag_svg, tagged_svg

__all__ = [
    "ACROSS_PAGE", "Arrangement", "BESIDE_TABLE", "BESIDE_TABLE_STACKED", "COLOURINGS", "DotRun", "LEFT_TO_RIGHT", "INSPECTED_COLOR", "MEAN_PALETTE", "PATH_COLOR", "PATH_FILL", "SECOND_PATH_COLOR",
    "SECOND_PATH_FILL", "SHARED_COLOR", "SHARED_FILL", "VISITS_PALETTE", "NodeInfo", "SvgTagger", "colour_key",
    "colour_scale", "dot_available", "dot_svg", "drawn_nodes", "arrange", "hidden_count", "layout_svg",
    "node_fills", "node_infos", "path_json", "path_neighbourhood", "render_tree", "tag_svg",
    "tagged_svg", "visible_nodes",
]
