"""Running graphviz's ``dot`` on a drawing: in its own process, measuring text with its own font metrics.

graphviz measures every label line with pango (its text-layout plugin) when that plugin is
installed: 40% of its CPU on a 5,000-node drawing (24,000 lines, 0.33 -> 0.19 s) and 28 of its 47 MB.
Our drawings are placed and sized by :mod:`.layout` (``fixedsize``), so a measured width is never
used; only the lines' spacing is, and graphviz's own metrics give it without pango (1.2 times the
font size, the same on every machine, where pango's depends on the fonts installed). So ``dot``
runs with a plugin folder of its own: the core renderer and the layouts, no text layout. Where that
folder cannot be made (graphviz does not say where its plugins are, or links are not allowed),
``dot`` runs as installed.
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

# The plugins a drawing needs: the SVG renderer and the layouts (``layout=nop2`` is neato's).
_PLUGINS = ("gvplugin_core", "gvplugin_dot_layout", "gvplugin_neato_layout")
_LIBDIR = re.compile(r'^libdir = "(.*)"$', re.MULTILINE)


@functools.cache
def _plugin_folder() -> str | None:
    """A folder holding graphviz's core and layout plugins only, with their configuration; None
    where it cannot be made."""
    try:
        probe = subprocess.run(
            ["dot", "-v", "-Tsvg", "-o", os.devnull], input=b"digraph {}", capture_output=True, timeout=30
        )
        found = _LIBDIR.search(probe.stderr.decode("utf-8", "replace"))
        if probe.returncode or not found:
            return None
        installed = Path(found.group(1))
        libraries = [path for path in installed.iterdir() if any(name in path.name for name in _PLUGINS)]
        if {name for name in _PLUGINS if any(name in path.name for path in libraries)} != set(_PLUGINS):
            return None
        folder = tempfile.mkdtemp(prefix="mcts-graphviz-")
        atexit.register(shutil.rmtree, folder, ignore_errors=True)
        for library in libraries:
            os.symlink(library, Path(folder) / library.name)
        environment = {**os.environ, "GVBINDIR": folder}
        # ``dot -c`` writes the folder's plugin configuration; a drawing then checks it works.
        configured = subprocess.run(["dot", "-c"], env=environment, capture_output=True, timeout=30)
        check = subprocess.run(
            ["dot", "-Tsvg"], input=b'digraph { layout=nop2; a [pos="0,0" label="a\\nb"] }',
            env=environment, capture_output=True, timeout=30,
        )
        if configured.returncode or check.returncode or b"<text" not in check.stdout:
            return None
        return folder
    except (OSError, subprocess.SubprocessError):
        return None


def dot_environment() -> dict[str, str]:
    """The environment ``dot`` runs in for a drawing: the plugin folder without pango where there is one."""
    folder = _plugin_folder()
    if folder is not None and not os.path.isdir(folder):  # a cleaner of temporary files took it from a server
        _plugin_folder.cache_clear()
        folder = _plugin_folder()
    return dict(os.environ) if folder is None else {**os.environ, "GVBINDIR": folder}


def dot_svg(dot: str) -> bytes:
    """graphviz's SVG of a drawing, as :class:`DotRun` has it drawn."""
    return DotRun(dot).svg()


class DotRun:
    """graphviz's ``dot -Tsvg`` on a drawing, started at once, its SVG read while it is written.

    graphviz runs in its own process, so the caller's Python can work meanwhile (a drawing's hover
    values), and then work on the SVG while graphviz still writes it (its last two thirds: at 5,000
    nodes, 130 of its 200 ms). It writes a file, not a pipe: a pipe's 64 KB would stop graphviz
    while the caller does other work. Its warnings go to stderr, as ``graphviz.Source.pipe`` writes
    them.
    """

    POLL_SECONDS = 0.002  # how long a reader waits for graphviz to write more

    def __init__(self, dot: str) -> None:
        self.folder = tempfile.TemporaryDirectory(prefix="mcts-svg-")
        source, self.target, self.messages = (
            Path(self.folder.name) / name for name in ("tree.dot", "tree.svg", "stderr.txt")
        )
        source.write_bytes(dot.encode("utf-8"))
        with self.messages.open("wb") as stderr:
            self.process = subprocess.Popen(
                ["dot", "-Kdot", "-Tsvg", "-o", str(self.target), str(source)],
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=stderr, env=dot_environment(),
            )

    def pieces(self) -> Iterator[bytes]:
        """The SVG's bytes as graphviz writes them, until it is done. Raises CalledProcessError
        (with graphviz's message) when ``dot`` fails."""
        svg = None
        try:
            while True:
                done = self.process.poll() is not None  # before reading: what it wrote by then is read
                if svg is None and self.target.exists():
                    svg = self.target.open("rb")
                piece = b"" if svg is None else svg.read()
                if piece:
                    yield piece
                elif done:
                    break
                else:
                    with contextlib.suppress(subprocess.TimeoutExpired):
                        self.process.wait(self.POLL_SECONDS)
            message = self.messages.read_bytes()
            if message:
                sys.stderr.write(message.decode("utf-8", "replace"))
                sys.stderr.flush()
            if self.process.returncode:
                raise subprocess.CalledProcessError(self.process.returncode, self.process.args, stderr=message)
        finally:
            if svg is not None:
                svg.close()
            self.process.wait()
            self.folder.cleanup()

    def svg(self) -> bytes:
        """The whole SVG, once graphviz is done (raises as :meth:`pieces` does)."""
        return b"".join(self.pieces())
