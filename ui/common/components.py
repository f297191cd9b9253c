"""Our custom components (components v2, no iframe): each one's script and style beside the module that mounts it.

Nothing is loaded from the network: a component is its HTML, ``ui/<asset>.js`` and, when it has one,
``ui/<asset>.css`` (after any shared style sheets it names); ``asset`` names the file from ``ui/``,
``"picture/tree_view"``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import streamlit as st

UI = Path(__file__).resolve().parent.parent


def strict_json(data: Any) -> Any:
    """``data`` with every non-finite float as its name: ``"Infinity"``, ``"-Infinity"`` or ``"NaN"``.

    Streamlit sends a component's data through ``json.dumps``, which writes ``Infinity`` and ``NaN``;
    the browser's ``JSON.parse`` refuses them and the component shows an error instead of itself. Our
    scripts read these names back with ``Number``.
    """
    if isinstance(data, float):
        if math.isfinite(data):
            return data
        return "NaN" if math.isnan(data) else ("Infinity" if data > 0 else "-Infinity")
    if isinstance(data, dict):
        return {key: strict_json(value) for key, value in data.items()}
    if isinstance(data, (list, tuple)):
        return [strict_json(value) for value in data]
    return data


def asset_component(
    name: str, asset: str, html: str | None = None, shared_styles: tuple[str, ...] = ()
) -> Callable[..., Any]:
    """The component ``name`` built from ``ui/<asset>.js`` and its style: the ``shared_styles``
    (``ui/<name>.css`` each), then ``ui/<asset>.css`` if there is one. Its ``data`` is sent
    as strict JSON (:func:`strict_json`)."""
    sheets = [UI / f"{sheet}.css" for sheet in (*shared_styles, asset)]
    css = "\n".join(sheet.read_text(encoding="utf-8") for sheet in sheets if sheet.exists())
    component = st.components.v2.component(
        name,
        html=html,
        css=css or None,
        js=(UI / f"{asset}.js").read_text(encoding="utf-8"),
    )

    def mount(*, data: Any = None, **options: Any) -> Any:
        return component(data=strict_json(data), **options)

    return mount
