"""The Streamlit side the pages share, in rooms that mirror the product.

- ``common/``: what every room uses: session-state keys, components, safe markdown, words, colours,
  caches, background jobs, the page list and the app-shell guard.
- ``picture/``: the tree picture, the outline and the children's term table, and the drawn set.
- ``setup/``: choosing the input and the rule (the sidebar's widgets), loading an input.
- ``share/``: the view in the URL, and the Share button with its bundle.
- ``c/``: choosing C (the C control and its browser side), the selected path, the live C marker.
- ``charts/``: every Altair chart the pages show.
- ``room/``: the Classroom's live room: the teacher's and the students' views.
- ``shell/``: the app around every page: the sidebar, the page style, the server process's care.

Each folder's docstring has a "May import" sentence naming the other folders it may import;
``tests/test_ui_imports.py`` checks it against every import, and that no two files import each
other, however indirectly.
"""
