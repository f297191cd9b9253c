"""The view in the URL (a reload, the back button, a copied link) and the Share button (the link,
the bundle).

May import common, picture (the drawing limits a link carries) and setup (the input's bytes for
the bundle).
"""
