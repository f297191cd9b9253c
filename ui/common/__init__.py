"""What every room of the app side uses: session-state keys and their owners, our custom
components, safe markdown, the shared words and number formats, colours, bounded caches, background
jobs, a row of metrics, the page list and the guard that runs the app shell.

May import no other folder of ui/ (every other folder may import this one).
"""
