"""The five tree classes against the protocols they share (mcts_core/model/tree_protocol.py): every
member present, an attribute as an attribute, a method as a method with the same parameter names;
and what selection and the search loop read of a tree is in their protocol, so a member one of them
starts reading fails here until every tree that shares the protocol has it."""

import ast
import inspect
import typing

import pytest

from apptest_support import REPO
from mcts_core.model import GrowingTree, NodeStatistics, SelectableTree, Tree, build_tree
from mcts_core.inputs import parse_playouts
from mcts_core.search.decoupled_search import JointLiveTree
from mcts_core.search.live_tree import LiveTree
from mcts_core.search.smitsimax_search import PlayerTree
from mcts_core.simultaneous.decoupled_tree import DecoupledTree

PROTOCOLS = (NodeStatistics, SelectableTree, GrowingTree)

# Each tree, made the simplest way, and the protocols it shares (the module's docstring says why).
TREES = {
    "Tree": (lambda: build_tree(parse_playouts("ab 1\nb 2\n")), (NodeStatistics, SelectableTree)),
    "LiveTree": (lambda: LiveTree(2, 0), (NodeStatistics, SelectableTree, GrowingTree)),
    "JointLiveTree": (lambda: JointLiveTree(2, 0), (NodeStatistics, GrowingTree)),
    "PlayerTree": (PlayerTree, (NodeStatistics,)),
    "DecoupledTree": (None, ()),
}


def members(protocol) -> dict[str, list[str] | None]:
    """The protocol's members, its bases' included: an attribute -> None, a method -> its parameter names."""
    found = {}
    for cls in reversed(protocol.__mro__):
        if cls not in PROTOCOLS:
            continue
        found.update(dict.fromkeys(cls.__annotations__))
        for name, value in vars(cls).items():
            if inspect.isfunction(value) and value.__qualname__ == f"{cls.__qualname__}.{name}":
                found[name] = list(inspect.signature(value).parameters)[1:]
    return found


def mismatches(tree, protocol) -> list[str]:
    """How ``tree`` (an instance) falls short of ``protocol``, one sentence a member."""
    problems = []
    for name, parameters in members(protocol).items():
        if not hasattr(tree, name):
            problems.append(f"{name} is missing")
            continue
        on_class = inspect.getattr_static(type(tree), name, None)
        is_method = inspect.isfunction(on_class)
        if parameters is None and is_method:
            problems.append(f"{name} is a method, the protocol's is an attribute")
        elif parameters is not None and not is_method:
            problems.append(f"{name} is an attribute, the protocol's is a method")
        elif parameters is not None and list(inspect.signature(on_class).parameters)[1:] != parameters:
            problems.append(f"{name} takes {list(inspect.signature(on_class).parameters)[1:]}, the protocol's {parameters}")
    return problems


@pytest.mark.parametrize("name", [name for name, (_, shared) in TREES.items() if shared])
def test_each_tree_has_every_member_of_the_protocols_it_shares(name):
    make, shared = TREES[name]
    tree = make()
    problems = {protocol.__name__: mismatches(tree, protocol) for protocol in shared}
    assert not any(problems.values()), f"{name}: {problems}"


def test_the_protocols_name_each_tree_that_shares_them():
    docstring = inspect.getmodule(NodeStatistics).__doc__
    for protocol in PROTOCOLS:
        line = next(part for part in docstring.split("\n- ") if part.startswith(f":class:`{protocol.__name__}`"))
        sharing = [name for name, (_, shared) in TREES.items() if protocol in shared]
        assert all(f"``{name}``" in line for name in sharing), (protocol.__name__, sharing)


def test_the_decoupled_tree_shares_none_and_holds_a_joint_tree():
    # Its statistics are each player's own moves' (slot_visits, slot_total); a node's are its tree's.
    assert typing.get_type_hints(DecoupledTree)["tree"] is Tree
    assert "visits" not in typing.get_type_hints(DecoupledTree)


# Where a tree is read through a protocol: each ``tree.<member>`` there must be one of its members.
READERS = {
    "mcts_core/selection": SelectableTree,  # scoring, the rules' fast loops (lambdas on a TreeLoop)
    "mcts_core/search/skeleton.py": GrowingTree,  # the loop reads its Specialisation's tree
}


def reads_of_tree(path, default) -> list[tuple[int, str, type]]:
    """(line, member, protocol) for each ``tree.member`` in functions whose ``tree`` is a protocol:
    annotated so, or unannotated (a lambda, a local) where the file's default applies."""
    found = []
    named = {protocol.__name__: protocol for protocol in PROTOCOLS}

    def visit(node, protocol):
        if isinstance(node, (ast.FunctionDef, ast.Lambda)):
            for arg in node.args.args:
                if arg.arg == "tree":
                    annotation = ast.unparse(arg.annotation) if arg.annotation is not None else None
                    protocol = default if annotation is None else named.get(annotation)
        if (protocol is not None and isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                and node.value.id == "tree"):
            found.append((node.lineno, node.attr, protocol))
        for child in ast.iter_child_nodes(node):
            visit(child, protocol)

    visit(ast.parse(path.read_text()), default)
    return found


def test_what_selection_and_the_search_loop_read_of_a_tree_is_in_their_protocol():
    outside = []
    for where, protocol in READERS.items():
        paths = sorted((REPO / where).rglob("*.py")) if (REPO / where).is_dir() else [REPO / where]
        for path in paths:
            for line, member, read_as in reads_of_tree(path, protocol):
                if member not in members(read_as):
                    outside.append(f"{path.relative_to(REPO)}:{line} tree.{member} ({read_as.__name__})")
    assert not outside, "add these to the protocol (and to every tree that shares it): " + ", ".join(outside)
