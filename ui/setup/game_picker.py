"""The OpenSpiel game picker the Search and C and strength pages share: a menu of the page's games,
then "Another OpenSpiel game…", which opens a box for any game string."""

from __future__ import annotations

from collections.abc import Callable

from ui.common.markdown import code

OTHER = "other"  # the menu entry for a typed game string
ANOTHER = "Another OpenSpiel game…"


def game_picker(menu_column, name_column, games: dict[str, str], *, game_key: str, name_key: str,
                placeholder: str, on_change: Callable[[], None] | None = None) -> tuple[str, bool]:
    """The menu in ``menu_column`` and, beside it, the chosen game's name or the box for another one.

    Args:
        games: game string -> menu label, the page's curated games.
        game_key, name_key: the page's keys of the menu and of the typed game string.
        placeholder: the typed box's example games.
        on_change: called when the game changes (the menu or the typed string).

    Returns:
        ``(game string, typed)``: the chosen game, or the typed string stripped ("" while none is typed).
    """
    choice = menu_column.selectbox("Game", [*games, OTHER], key=game_key, persist_state="session",
                                   on_change=on_change, format_func=lambda name: games.get(name, ANOTHER))
    if choice != OTHER:
        name_column.caption(f"OpenSpiel's {code(choice)}. Any other game: choose “{ANOTHER}”.")
        return choice, False
    typed = name_column.text_input(
        "OpenSpiel game string", key=name_key, persist_state="session", on_change=on_change,
        placeholder=placeholder,
        help="A name from `pyspiel.registered_names()`, optionally with parameters in brackets.",
    ).strip()
    return typed, True
