"""The app around every page: the sidebar (input and rule), the page style, and the server
process's care (frozen libraries, what closed sessions left behind).

May import common, setup, share and c.
"""
