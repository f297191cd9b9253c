"""Building the tree from playouts, playout by playout, with the puzzle's rule.

The rule: every playout adds its score and one visit to the root, walks down its word while the
next node exists (updating each node it enters), and creates the first missing node with that one
visit and score, then stops. A playout whose whole word exists creates nothing. Scores are summed
in playout order, node by node, so every total is the same float a straightforward implementation
of the rule gets.
"""

from __future__ import annotations

from .formats.text import Playouts
from .tree import NO_PARENT, NO_PLAYOUT, ROOT, Tree


def build_tree(playouts: Playouts, upto: int | None = None) -> Tree:
    """Build the tree from the first ``upto`` playouts (all of them when None).

    Args:
        playouts: parsed input.
        upto: number of playouts to use, 0 <= upto <= len(playouts).

    Returns:
        The tree after those playouts.
    """
    count = len(playouts) if upto is None else upto
    if not 0 <= count <= len(playouts):
        raise ValueError(f"upto must be between 0 and {len(playouts)}, got {upto}")
    # Both builders give identical trees (tests/test_tree.py checks it); the level-by-level numpy
    # one is faster once numpy's fixed costs are paid (bench/RESULTS.md).
    build = _build_levels if count >= LEVELS_THRESHOLD else _build_sequential
    return build(playouts, count)


# Below this many playouts the sequential builder takes milliseconds and spares a fresh process
# (the CLI on puzzle-sized input) numpy's import; above it the level builder wins (bench/RESULTS.md).
LEVELS_THRESHOLD = 5_000
# Group a level's (node, move) keys with a direct-address table while it has at most this many
# slots (or 4 per playout); beyond that, sort them (np.unique).
DENSE_KEYS = 1 << 16


def _build_sequential(playouts: Playouts, count: int) -> Tree:
    """The statement's rule, playout by playout (the reference shape of the algorithm)."""
    parent, move, depth = [NO_PARENT], [""], [0]
    visits, total, total_sq = [0], [0.0], [0.0]
    created_by, children, reached = [NO_PLAYOUT], [[]], []
    # Prefix -> node: one dict probe per step instead of a scan of the children.
    index = {"": ROOT}
    words, scores = playouts.words, playouts.scores
    for p in range(count):
        word, score = words[p], scores[p]
        square = score * score
        node = ROOT
        visits[ROOT] += 1
        total[ROOT] += score
        total_sq[ROOT] += square
        for k in range(1, len(word) + 1):
            prefix = word[:k]
            kid = index.get(prefix)
            if kid is None:  # expand: the first missing node is created and the playout stops
                kid = len(parent)
                index[prefix] = kid
                parent.append(node)
                move.append(word[k - 1])
                depth.append(k)
                visits.append(1)
                total.append(score)
                total_sq.append(square)
                created_by.append(p)
                children.append([])
                children[node].append(kid)
                node = kid
                break
            visits[kid] += 1
            total[kid] += score
            total_sq[kid] += square
            node = kid
        reached.append(node)
    return Tree(parent, move, depth, visits, total, total_sq, created_by, children, reached)


def _build_levels(playouts: Playouts, count: int) -> Tree:
    """The same tree, computed one depth at a time over all playouts at once (numpy).

    Why this is the same tree: node P (a prefix, parent Q) is created by the first playout that has
    P as a prefix and comes after Q's creator, because only such a playout walks past Q; every
    later playout with prefix P enters P. So at depth k the playouts still walking (those that
    neither created a node nor ended their word above k) are grouped by (node at depth k-1, k-th
    move): each group is one node, its first playout creates it, all of them enter it. A node's
    visits and scores come only from its own group, added in playout order by ``np.bincount``
    (a sequential loop), so totals are the same floats as the sequential build. Nodes are named
    by their creating playout while building and numbered in creation order at the end.
    """
    import numpy as np

    words = playouts.words[:count]
    joined = "".join(words)
    if joined.isascii():
        codes = np.frombuffer(joined.encode("ascii"), dtype=np.uint8)
    else:
        codes = np.frombuffer(joined.encode("utf-32-le"), dtype=np.uint32)
    lengths = np.fromiter(map(len, words), dtype=np.int64, count=count)
    starts = np.cumsum(lengths) - lengths
    scores = np.fromiter(playouts.scores[:count], dtype=np.float64, count=count)
    squares = scores * scores
    # A sum that starts from a node's first score keeps a -0.0; bincount's sums start from +0.0.
    negative_zero = (scores == 0.0) & np.signbit(scores)
    has_negative_zero = bool(negative_zero.any())

    # Per node, indexed by the creating playout.
    is_creator = np.zeros(count, dtype=bool)
    node_parent = np.empty(count, dtype=np.int64)
    node_move = np.empty(count, dtype=codes.dtype)
    node_depth = np.empty(count, dtype=np.int64)
    node_visits = np.empty(count, dtype=np.int64)
    node_total = np.empty(count, dtype=np.float64)
    node_total_sq = np.empty(count, dtype=np.float64)
    reached = np.full(count, NO_PLAYOUT, dtype=np.int64)  # creator of the deepest node; -1 = root

    walking = np.flatnonzero(lengths > 0)  # playouts still walking, in playout order
    at = np.zeros(walking.size, dtype=np.int64)  # their node at depth k-1, as an index into level
    level = np.array([NO_PLAYOUT], dtype=np.int64)  # creators of the nodes at depth k-1
    k = 0
    while walking.size:
        k += 1
        size = walking.size
        moves = codes[starts[walking] + (k - 1)]
        if codes.dtype == np.uint8:
            seen = np.bincount(moves, minlength=256) > 0
            letters = int(seen.sum())
            letter = (np.cumsum(seen) - 1)[moves]
        else:
            letters_seen, letter = np.unique(moves, return_inverse=True)
            letters = letters_seen.size
        key = at * letters + letter
        space = level.size * letters
        if space <= max(4 * size, DENSE_KEYS):
            first = np.full(space, size, dtype=np.int64)
            np.minimum.at(first, key, np.arange(size))
            used = np.flatnonzero(first < size)
            group_of_key = np.empty(space, dtype=np.int64)
            group_of_key[used] = np.arange(used.size)
            group = group_of_key[key]
            first = first[used]
        else:
            _, first, group = np.unique(key, return_index=True, return_inverse=True)
            group = group.reshape(-1)
        groups = first.size
        creators = walking[first]
        is_creator[creators] = True
        node_parent[creators] = level[at[first]]
        node_move[creators] = moves[first]
        node_depth[creators] = k
        node_visits[creators] = np.bincount(group, minlength=groups)
        totals = np.bincount(group, weights=scores[walking], minlength=groups)
        if has_negative_zero:
            zeros = np.bincount(group, weights=negative_zero[walking], minlength=groups)
            totals[zeros == node_visits[creators]] = -0.0
        node_total[creators] = totals
        node_total_sq[creators] = np.bincount(group, weights=squares[walking], minlength=groups)
        stops = lengths[walking] == k
        stops[first] = True  # a creator stops at the node it created
        reached[walking[stops]] = creators[group[stops]]
        goes_on = ~stops
        walking = walking[goes_on]
        at = group[goes_on]
        level = creators

    created = np.flatnonzero(is_creator)  # creation order = playout order of the creators
    nodes = created.size + 1
    number = np.empty(count + 1, dtype=np.int64)  # creator -> node number; number[-1] = ROOT
    number[:count] = np.cumsum(is_creator)
    number[count] = ROOT

    def with_root(root_value, values):
        out = np.empty(nodes, dtype=values.dtype)
        out[0] = root_value
        out[1:] = values
        return out.tolist()

    parents = number[node_parent[created]]
    if codes.dtype == np.uint8:
        move_text = node_move[created].tobytes().decode("ascii")
    else:
        move_text = node_move[created].astype("<u4").tobytes().decode("utf-32-le")
    # The root's sums start from 0.0: 0.0 + s0 + s1 + ... (cumsum is a sequential loop).
    root_total = float(np.cumsum(scores)[-1]) + 0.0 if count else 0.0
    root_total_sq = float(np.cumsum(squares)[-1]) + 0.0 if count else 0.0

    # Children in creation order: node numbers sorted by (parent, number), one sort of unique keys.
    kids = (np.sort(parents * nodes + np.arange(1, nodes)) % nodes).tolist()
    sizes = np.bincount(parents, minlength=nodes)
    inner = np.flatnonzero(sizes)
    ends = np.cumsum(sizes[inner])
    children: list[list[int]] = [[] for _ in range(nodes)]
    begin = 0
    for node, end in zip(inner.tolist(), ends.tolist()):
        children[node] = kids[begin:end]
        begin = end

    return Tree(
        parent=with_root(NO_PARENT, parents),
        move=["", *move_text],
        depth=with_root(0, node_depth[created]),
        visits=with_root(count, node_visits[created]),
        total=with_root(root_total, node_total[created]),
        total_sq=with_root(root_total_sq, node_total_sq[created]),
        created_by=with_root(NO_PLAYOUT, created),
        children=children,
        reached=number[reached].tolist(),
    )
