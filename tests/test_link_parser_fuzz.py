"""A link's query is untrusted: whatever it holds, the parser answers with values and problem sentences,
never an exception (huge integers, deep nesting, long strings, any text)."""

import json

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from mcts_core import RULES
from ui.share.share import parse_link

NAMES = ("page", "input", "c", "rule", "node", "budget", "depth", "topk", "unvisited", "colour", "settings",
         "c_b", "rule_b", "settings_b", "k")

huge_integers = st.integers(min_value=310, max_value=6000).map(lambda digits: "9" * digits)  # beyond a float: 10**309 and up
deep = st.integers(min_value=1, max_value=20_000).flatmap(
    lambda depth: st.sampled_from(["[" * depth + "]" * depth, '{"a":' * depth + "1" + "}" * depth, "[" * depth]))
json_values = st.recursive(
    st.none() | st.booleans() | st.floats() | st.integers() | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=12,
).map(lambda value: json.dumps(value, allow_nan=True))
settings_objects = st.dictionaries(
    st.sampled_from(["cap", "normalise", "priors", "w", "t", "eta", "low", "high", "heuristic", "x"]),
    st.one_of(st.floats(), st.integers(), st.text(max_size=20), st.integers(min_value=300, max_value=4000).map(lambda digits: 10**digits),
              st.dictionaries(st.text(max_size=5), st.floats() | st.text(max_size=5), max_size=3)),
    max_size=4,
).map(lambda value: json.dumps(value, allow_nan=True))
long_strings = st.tuples(st.text(min_size=1, max_size=4, alphabet='ab[{1"'), st.integers(5_000, 25_000)).map(
    lambda piece_length: piece_length[0] * (piece_length[1] // len(piece_length[0])))  # around the length limit
values = st.one_of(st.text(max_size=60), long_strings, huge_integers,
                   deep, json_values, settings_objects)
queries = st.dictionaries(st.sampled_from(NAMES), values, max_size=6).flatmap(
    lambda query: st.sampled_from([None, *RULES]).map(
        lambda rule: {**query, "rule": rule} if rule is not None and "rule" not in query else query))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.large_base_example])
@given(queries)
# Found by this test: a rule setting's refusal quoted the value whole (a 320-digit prior, a long name).
@example({"settings": json.dumps({"priors": 10**320}), "rule": "puct"})
@example({"settings": json.dumps({"normalise": "z" * 19_000}), "rule": "puct"})
def test_any_query_gives_values_and_problem_sentences_never_an_exception(query):
    values, problems = parse_link(query)
    assert set(values) <= set(query)
    for name in query:  # each given name is either taken or refused in one sentence naming it
        assert (name in values) != any(problem.startswith(f"The link's {name} was ignored: ") for problem in problems)
    assert all(problem.endswith(".") and "\n" not in problem and len(problem) < 400 for problem in problems)


@given(huge_integers)
def test_an_integer_too_long_for_python_is_refused_in_every_place_a_number_goes(digits):
    values, problems = parse_link({"c": digits, "k": digits, "node": f"[{digits}]", "rule": "ucb1_tuned",
                                   "settings": f'{{"cap": {digits}}}', "budget": digits})
    assert set(values) == {"rule"} and len(problems) == 5
