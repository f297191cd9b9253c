"""Our custom components (components v2, no iframe): each one's script and style from ui/assets/.

Nothing is loaded from the network: a component is its HTML, ``assets/<asset>.js`` and, when it
has one, ``assets/<asset>.css``.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

ASSETS = Path(__file__).resolve().parent / "assets"


def asset_component(name: str, asset: str, html: str | None = None):
    """The component ``name`` built from ``assets/<asset>.js`` (and ``.css`` if there is one)."""
    style = ASSETS / f"{asset}.css"
    return st.components.v2.component(
        name,
        html=html,
        css=style.read_text(encoding="utf-8") if style.exists() else None,
        js=(ASSETS / f"{asset}.js").read_text(encoding="utf-8"),
    )
