"""Our custom components (components v2, no iframe): each one's script and style from ui/assets/.

Nothing is loaded from the network: a component is its HTML, ``assets/<asset>.js`` and, when it
has one, ``assets/<asset>.css`` (after any shared style sheets it names).
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

ASSETS = Path(__file__).resolve().parent / "assets"


def asset_component(name: str, asset: str, html: str | None = None, shared_styles: tuple[str, ...] = ()):
    """The component ``name`` built from ``assets/<asset>.js`` and its style: the ``shared_styles``
    (``assets/<name>.css`` each), then ``assets/<asset>.css`` if there is one."""
    sheets = [ASSETS / f"{sheet}.css" for sheet in (*shared_styles, asset)]
    css = "\n".join(sheet.read_text(encoding="utf-8") for sheet in sheets if sheet.exists())
    return st.components.v2.component(
        name,
        html=html,
        css=css or None,
        js=(ASSETS / f"{asset}.js").read_text(encoding="utf-8"),
    )
