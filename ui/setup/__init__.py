"""Choosing what a page looks at: the input (examples, the text box, the uploader, the Recent list),
loading it once per content, the selection rule's panel, the game picker, and what the sidebar
decided (``Setup``).

May import common and share (a link or a bundle names the input to open).
"""
