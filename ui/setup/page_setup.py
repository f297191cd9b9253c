"""What the sidebar decides for a page: the input, and the selection rule with its settings except C."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ui.setup.inputs import LoadedInput


@dataclass(frozen=True)
class Setup:
    """What the sidebar decides: the input, and the selection rule with its settings except C (C is
    chosen on each page: :class:`ui.c.selected_path.SelectedPath` holds what it decides)."""

    input: LoadedInput
    rule: str
    settings: dict[str, Any] = field(default_factory=dict)

    @property
    def tree(self):
        return self.input.tree
