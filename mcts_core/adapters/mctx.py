"""google-deepmind/mctx search trees (``mctx.Tree``) as our "MCTS tree, JSON" dump.

mctx keeps a batch of trees in flat arrays: node ``n`` of batch element ``b`` is index ``[b, n]``,
its edge for action ``a`` is ``[b, n, a]``, the root is node 0 and a missing child is ``-1``
(``Tree.ROOT_INDEX``, ``Tree.UNVISITED``; mctx/_src/tree.py lines 76-78). This module reads those
arrays and nothing else, so it never imports jax or mctx: any object with the same array attributes
works (jax or numpy arrays, or nested lists, e.g. a JSON dump loaded into a ``SimpleNamespace``).

The numbers follow mctx's own arithmetic (mctx 0.0.71):

- A child's ``value`` is mctx's Q of the edge, ``children_rewards + children_discounts *
  children_values`` (``_unbatched_qvalues``, mctx/_src/tree.py lines 137-142), computed in the
  arrays' own dtype: given mctx's float32 arrays it is bitwise the ``tree.qvalues`` mctx returns.
  It is from the view of the player to move at the parent, which is the player who moved into the
  child, as docs/DESIGN.md's perspective rule wants. An unvisited child's Q is 0 (all three arrays start
  at 0), which is also our PUCT convention for unvisited children.
- The root's ``value`` is ``node_values[root]``, as in ``Tree.summary()`` (tree.py line 101), from
  the view of the player to move at the root.
- ``visits``: ``children_visits`` of the edge for a child, ``node_visits`` for the root. mctx counts
  the root's own evaluation as a visit, so the root has one visit more than its children together
  (every expanded node does, unless a ``max_depth`` cut-off re-evaluated it).
- ``prior``: ``softmax(children_prior_logits[parent])`` over all the parent's actions, invalid ones
  included with whatever logit the tree holds, as ``muzero_action_selection`` computes it
  (action_selection.py line 78). The policies store ``finfo.min`` for invalid root actions
  (``_mask_invalid_actions``, policies.py lines 374-384), so those get 0. Computed in float64: XLA's
  float32 ``exp`` and its divide-by-reciprocal make mctx's own float32 numbers differ from any numpy
  softmax by 1-2 float32 ulps, so bitwise agreement is not on offer and the more exact value is kept.

Players: a negative discount on an expanded edge is the two-player convention (mctx's docs and
pgx's AlphaZero use discount -1 so that values alternate perspective), so ``players`` is 2 if any
expanded edge of the chosen batch element has a negative discount, else 1. With 2 players every
node carries ``player``: 0 at the root, and a child's is its parent's when the edge's discount is
positive (the same player moves again), the other player otherwise (discount 0 covers terminal
edges in pgx's convention and never-expanded edges, whose discount mctx leaves at 0).

Children: in action order. At the root, actions with ``root_invalid_actions`` set are left out;
elsewhere every action is a child, as mctx has no interior mask (a masked logit shows as prior 0).
A child mctx never expanded (``children_index == -1``) appears with 0 visits and no children; an
expanded node lists all its valid actions, visited or not.
"""

from __future__ import annotations

import math

ROOT_INDEX = 0
UNVISITED = -1

_FIELDS = (
    "node_visits",
    "node_values",
    "children_index",
    "children_prior_logits",
    "children_visits",
    "children_rewards",
    "children_discounts",
    "children_values",
)


def tree_dump(tree, batch_index=0, *, action_names=None, c=None) -> dict:
    """Converts one batch element of an mctx search tree into docs/DESIGN.md's "MCTS tree, JSON" dict.

    See the module docstring for what each number is and the mctx source lines it follows.

    Args:
        tree: an ``mctx.Tree`` (e.g. ``policy_output.search_tree``) or any object with its array
            attributes ``node_visits``, ``node_values``, ``children_index``,
            ``children_prior_logits``, ``children_visits``, ``children_rewards``,
            ``children_discounts``, ``children_values`` and, optionally, ``root_invalid_actions``;
            batched (``[B, N]``, ``[B, N, A]``) or, as inside mctx's vmapped code, unbatched.
        batch_index: which tree of the batch to convert (0 for an unbatched tree).
        action_names: ``action_names[a]`` names action ``a`` (a list or a dict); default ``str(a)``.
        c: the exploration constant to record in the header; left out when None.

    Returns:
        ``{"mcts_tree": 1, "players": 1 or 2, "ties": "first", ["c": c,] "root": NODE}``, each NODE
        ``{"move", "visits", "value", ["prior",] ["player",] "children"}``; ``move`` is None at the
        root. ``ties`` is "first": mctx breaks exact ties by argmax, the first action.

    Raises:
        ValueError: bad ``batch_index``, ``c`` or ``action_names``, or arrays that do not form a tree.
    """
    import numpy as np  # lazily: the core's other modules do not need numpy

    arrays = {name: np.asarray(getattr(tree, name)) for name in _FIELDS}
    invalid = getattr(tree, "root_invalid_actions", None)
    batched = arrays["node_values"].ndim == 2
    if arrays["node_values"].ndim not in (1, 2):
        raise ValueError("node_values must be [B, N] (batched) or [N]")
    size = arrays["node_values"].shape[0] if batched else 1
    if isinstance(batch_index, bool) or not isinstance(batch_index, (int, np.integer)):
        raise ValueError(f"batch_index must be an int, got {batch_index!r}")
    if not 0 <= batch_index < size:
        raise ValueError(f"batch_index {batch_index} is outside the batch of {size}")
    if batched:
        arrays = {name: value[batch_index] for name, value in arrays.items()}
    node_visits = arrays["node_visits"]
    node_values = arrays["node_values"]
    children_index = arrays["children_index"]
    num_nodes, num_actions = children_index.shape
    for name in _FIELDS[3:]:
        if arrays[name].shape != children_index.shape:
            raise ValueError(f"{name} has shape {arrays[name].shape}, not {children_index.shape}")
    if node_visits.shape != (num_nodes,) or node_values.shape != (num_nodes,):
        raise ValueError("node_visits and node_values must have one entry per node")

    if invalid is None:
        root_invalid = np.zeros(num_actions, dtype=bool)
    else:
        root_invalid = np.asarray(invalid)
        if batched:
            root_invalid = root_invalid[batch_index]
        root_invalid = root_invalid.astype(bool)
        if root_invalid.shape != (num_actions,):
            raise ValueError(f"root_invalid_actions must have {num_actions} entries per tree")

    names = [_action_name(action_names, a) for a in range(num_actions)]
    if len(set(names)) != num_actions:
        raise ValueError("action_names must give every action a different name")
    if c is not None:
        c = float(c)
        if not math.isfinite(c) or c < 0:
            raise ValueError(f"c must be a finite number >= 0, got {c!r}")

    # mctx's Q, in the arrays' dtype (tree.py lines 137-142): bitwise tree.qvalues for float32 input.
    qvalues = arrays["children_rewards"] + arrays["children_discounts"] * arrays["children_values"]
    priors = _softmax(arrays["children_prior_logits"].astype(np.float64))
    discounts = arrays["children_discounts"]
    expanded = children_index != UNVISITED
    if ((children_index < UNVISITED) | (children_index >= num_nodes)).any():
        raise ValueError("children_index holds a node index outside the tree")
    players = 2 if (discounts[expanded] < 0).any() else 1

    root = {"move": None, "visits": int(node_visits[ROOT_INDEX]),
            "value": float(node_values[ROOT_INDEX])}
    if players == 2:
        root["player"] = 0
    root["children"] = []
    seen = {ROOT_INDEX}
    stack = [(ROOT_INDEX, root)]
    while stack:  # iterative: a search can be as deep as its number of simulations
        index, node = stack.pop()
        for action in range(num_actions):
            if index == ROOT_INDEX and root_invalid[action]:
                continue
            child = {
                "move": names[action],
                "visits": int(arrays["children_visits"][index, action]),
                "value": float(qvalues[index, action]),
                "prior": float(priors[index, action]),
            }
            if players == 2:
                same = discounts[index, action] > 0
                child["player"] = node["player"] if same else 1 - node["player"]
            if not (math.isfinite(child["value"]) and math.isfinite(child["prior"])):
                # e.g. a Stochastic MuZero chance node: its decision logits are all -inf.
                raise ValueError(f"node {index}, action {action}: Q or prior is not a finite number")
            child["children"] = []
            node["children"].append(child)
            child_index = int(children_index[index, action])
            if child_index != UNVISITED:
                if child_index in seen:
                    raise ValueError(f"node {child_index} is reached twice: not a tree")
                seen.add(child_index)
                stack.append((child_index, child))

    dump = {"mcts_tree": 1, "players": players, "ties": "first"}
    if c is not None:
        dump["c"] = c
    dump["root"] = root
    return dump


def _action_name(action_names, action):
    """The move name of one action."""
    if action_names is None:
        return str(action)
    try:
        name = action_names[action]
    except (IndexError, KeyError):
        raise ValueError(f"action_names has no name for action {action}") from None
    if not isinstance(name, str) or not name:
        raise ValueError(f"action {action}'s name must be a non-empty string, got {name!r}")
    return name


def _softmax(logits):
    """Softmax over the last axis, shifted by the maximum as jax.nn.softmax does."""
    import numpy as np

    with np.errstate(invalid="ignore"):  # an all -inf row gives NaN, which tree_dump rejects
        unnormalised = np.exp(logits - logits.max(axis=-1, keepdims=True))
        return unnormalised / unnormalised.sum(axis=-1, keepdims=True)
