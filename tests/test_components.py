"""What our components get: strict JSON, which the browser's JSON.parse reads."""

import json
import math

import numpy as np

from ui.components import strict_json


def test_non_finite_numbers_reach_a_component_as_their_names_and_the_rest_unchanged():
    data = {"value": math.inf, "rows": [{"mean": math.nan, "low": -math.inf, "n": 3, "move": "Infinity"}],
            "pair": (np.float64("inf"), 0.5), "flag": True, "none": None}
    sent = strict_json(data)
    assert sent == {"value": "Infinity", "rows": [{"mean": "NaN", "low": "-Infinity", "n": 3, "move": "Infinity"}],
                    "pair": ["Infinity", 0.5], "flag": True, "none": None}
    json.dumps(sent, allow_nan=False)  # what JSON.parse accepts: no bare Infinity or NaN
