"""The process-wide store of loaded inputs: bounded by count and by bytes, newest always kept."""

from mcts_core.inputs.loading import read_input
from mcts_core.common.memory import columns_bytes
from ui.common.lru import BoundedLRU
from ui.setup.inputs import LoadedInput, _input_bytes


def loaded(text: str, key: str) -> LoadedInput:
    read = read_input(text)
    return LoadedInput(key, "text box", read, {}, read.playouts.score_range())


def test_the_store_evicts_the_oldest_inputs_beyond_its_byte_budget():
    inputs = [loaded("".join(f"{'ab'[i % 2]}{'abc'[j % 3]} {j}\n" for j in range(200 + i)), f"k{i}") for i in range(4)]
    size = max(columns_bytes(x.tree, x.playouts) for x in inputs)
    store = BoundedLRU(8, 2 * size, _input_bytes)
    for entry in inputs:
        store.put(entry.key, entry)
    assert list(store.entries) == ["k2", "k3"]  # two fit in the budget
    assert store.get("k0") is None and store.get("k3") is inputs[3]


def test_the_newest_input_is_kept_even_when_it_alone_exceeds_the_budget():
    big = loaded("".join(f"a{'bc'[j % 2]} {j}\n" for j in range(500)), "big")
    store = BoundedLRU(8, 10, _input_bytes)
    store.put("small", loaded("a 1\n", "small"))
    store.put("big", big)
    assert list(store.entries) == ["big"]


def test_the_store_keeps_at_most_its_capacity_and_a_read_makes_an_entry_recent():
    store = BoundedLRU(2, 10**9, len)
    store.put("a", "1")
    store.put("b", "2")
    assert store.get("a") == "1"  # now b is the least recently used
    store.put("c", "3")
    assert list(store.entries) == ["a", "c"]


def test_a_simultaneous_inputs_replay_cache_counts_in_its_bytes_and_growing_it_evicts_older_inputs():
    from test_simultaneous_formats import RPS

    simultaneous = LoadedInput("rps", "text box", read_input(RPS), {}, (-1.0, 1.0))
    decoupled = simultaneous.read.simultaneous.decoupled
    before = _input_bytes(simultaneous)
    assert before > columns_bytes(simultaneous.tree, simultaneous.playouts)  # the decoupled columns too
    other = loaded("a 1\nb 2\n", "other")
    store = BoundedLRU(8, before + _input_bytes(other) + 100, _input_bytes)
    store.put("other", other)
    store.put("rps", simultaneous)
    assert list(store.entries) == ["other", "rps"]
    decoupled.cache["replay"] = list(range(2_000))  # a page replayed regret matching
    assert _input_bytes(simultaneous) == before + decoupled.cache_bytes() > before + 100
    assert store.get("rps") is simultaneous and list(store.entries) == ["rps"]  # counted anew: the older input left
