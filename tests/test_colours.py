"""Colours a reader must be able to read on: every highlight pair meets WCAG's 4.5 contrast ratio."""

import pytest

from mcts_core.drawing.dot import FILLED_TEXT, MEAN_PALETTE, VISITS_PALETTE
from ui.common.colours import CHANGED_COLOURS, SECOND_ROW_COLOURS, SELECTED_ROW_COLOURS


def luminance(colour: str) -> float:
    """WCAG relative luminance of a #rrggbb colour."""
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


@pytest.mark.parametrize("background, text", [SELECTED_ROW_COLOURS, SECOND_ROW_COLOURS, CHANGED_COLOURS])
def test_table_highlights_are_readable_in_both_themes(background, text):
    # Both colours are set explicitly, so the theme's own text colour never lands on the highlight.
    assert contrast(background, text) >= 4.5


@pytest.mark.parametrize("fill", [*MEAN_PALETTE, *VISITS_PALETTE])
def test_node_colourings_keep_their_labels_readable(fill):
    assert contrast(fill, FILLED_TEXT) >= 4.5


def test_the_old_pale_row_with_dark_themes_white_text_was_unreadable():
    # What the issue saw: white text on the pale pink path fill.
    assert contrast("#fde0dd", "#fafafa") < 1.5
