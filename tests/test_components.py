"""What our components get: strict JSON, which the browser's JSON.parse reads."""

import json
import math

import numpy as np

from ui.common.components import strict_json


def test_non_finite_numbers_reach_a_component_as_their_names_and_the_rest_unchanged():
    data = {"value": math.inf, "rows": [{"mean": math.nan, "low": -math.inf, "n": 3, "move": "Infinity"}],
            "pair": (np.float64("inf"), 0.5), "flag": True, "none": None}
    sent = strict_json(data)
    assert sent == {"value": "Infinity", "rows": [{"mean": "NaN", "low": "-Infinity", "n": 3, "move": "Infinity"}],
                    "pair": ["Infinity", 0.5], "flag": True, "none": None}
    json.dumps(sent, allow_nan=False)  # what JSON.parse accepts: no bare Infinity or NaN


def test_the_tree_picture_gets_its_json_then_its_svg_as_sent():
    """The picture's data is strict JSON on one line, then the SVG as it is (its own line breaks,
    quotes and "μ" untouched); without an SVG, the JSON alone."""
    from ui.picture.tree_view import picture_payload, read_picture_payload

    svg = '<svg font-size="12.00"\n viewBox="0 0 1 1"><g data-path=\'["a\\nb"]\'><text>μ=2</text></g></svg>\n'.encode()
    data = {"layout": "L", "values": {'["a\\nb"]': "UCB1 1 (rank 1)"}, "lines": {"[]": [math.inf, -0.5]}, "pv": None}
    payload = picture_payload(data, svg)
    head, _, rest = payload.partition(b"\n")
    assert rest == svg and json.loads(head) == strict_json(data)
    assert read_picture_payload(payload) == {**strict_json(data), "svg": svg.decode()}
    assert read_picture_payload(picture_payload(data, None)) == {**strict_json(data), "svg": None}
    assert b"\n" not in picture_payload(data, None)
