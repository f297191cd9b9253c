"""The process-wide store of loaded inputs: bounded by count and by bytes, newest always kept."""

from mcts_core.loading import read_input
from mcts_core.memory import columns_bytes
from ui.inputs import LoadedInput, _Store


def loaded(text: str, key: str) -> LoadedInput:
    read = read_input(text)
    return LoadedInput(key, "text box", read, {}, read.playouts.score_range())


def test_the_store_evicts_the_oldest_inputs_beyond_its_byte_budget():
    inputs = [loaded("".join(f"{'ab'[i % 2]}{'abc'[j % 3]} {j}\n" for j in range(200 + i)), f"k{i}") for i in range(4)]
    size = max(columns_bytes(x.tree, x.playouts) for x in inputs)
    store = _Store(capacity=8, max_bytes=2 * size)
    for entry in inputs:
        store.put(entry.key, entry)
    assert list(store.entries) == ["k2", "k3"]  # two fit in the budget
    assert store.get("k0") is None and store.get("k3") is inputs[3]


def test_the_newest_input_is_kept_even_when_it_alone_exceeds_the_budget():
    big = loaded("".join(f"a{'bc'[j % 2]} {j}\n" for j in range(500)), "big")
    store = _Store(capacity=8, max_bytes=10)
    store.put("small", loaded("a 1\n", "small"))
    store.put("big", big)
    assert list(store.entries) == ["big"]
