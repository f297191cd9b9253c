"""A game string tried in a child process before this process loads it.

On some parameters OpenSpiel crashes the process (``connect_four(rows=0)`` and ``pig(players=0)``
segfault when their moves are listed), grows without bound (``breakthrough(rows=100000,
columns=100000)``) or prints to stderr before raising. In a child process such a game costs a
sentence, not the command line's output or the app's server with every session on it.

The child loads the game, makes its first position and lists and names that position's moves (a
name that is not UTF-8 text is not a problem: :func:`mcts_core.search.move_names.action_name`
names such a move by its id). It imports only the standard library and ``pyspiel`` (this file runs
by its path, without the package), so a probe costs about 0.3 s; each process probes a string once.
"""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import threading

PROBE_SECONDS = 20.0  # the child's time to set up the game's first position
PROBE_MEMORY = 2 << 30  # bytes of address space the child may use (where the OS can limit it)
_CHECK = re.compile(r"^\S+\.(?:cc|h):\d+ (.*)$")  # a failed SPIEL_CHECK: "/path/file.cc:124 rows_ > 1"

REMEMBERED = 1024  # verdicts kept per process (a server hears many strings); then they are forgotten
_probed: dict[str, str | None] = {}  # game string -> its problem (None: fine), per process
_lock = threading.Lock()


def game_problem(text: str) -> str | None:
    """Why OpenSpiel cannot set up the game ``text`` names (a sentence), or None when it can.

    The first call for a string runs the child; later calls answer from memory (a game that took
    too long is tried again, as the machine may have been busy).
    """
    with _lock:
        if text in _probed:
            return _probed[text]
    try:
        done = subprocess.run([sys.executable, "-P", __file__, text], capture_output=True, text=True,
                              timeout=PROBE_SECONDS, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return (f"OpenSpiel did not set up {text} within {PROBE_SECONDS:g} s; its parameters make the game "
                "too large to play")
    except OSError:  # no child process can be started here: load it in this process, as before the probe
        return None
    problem = _answer(text, done)
    with _lock:
        if len(_probed) >= REMEMBERED:
            _probed.clear()
        _probed[text] = problem
    return problem


def _answer(text: str, done: subprocess.CompletedProcess) -> str | None:
    """The child's verdict: its own line, or what its death says."""
    if done.returncode == 0:
        try:
            return json.loads(done.stdout.strip().splitlines()[-1])["problem"]
        except (IndexError, ValueError, KeyError, TypeError):  # no verdict: load it in this process, as before
            return None
    if done.returncode < 0:
        try:
            how = signal.Signals(-done.returncode).name
        except ValueError:
            how = f"signal {-done.returncode}"
        return (f"OpenSpiel crashed ({how}) setting up {text}: the game does not support these parameters; "
                "try other values")
    last = (done.stderr.strip().splitlines() or ["it stopped without a word"])[-1]
    return f"OpenSpiel failed setting up {text}: {last}"


def spiel_reason(error: BaseException) -> str:
    """OpenSpiel's message in one line, a failed internal check said as such (its source path dropped)."""
    first = (str(error).strip().splitlines() or [type(error).__name__])[0]
    check = _CHECK.match(first)
    return f"its check `{check.group(1)}` failed" if check else first


def _probe(text: str) -> str | None:
    """(In the child.) Sets up the game ``text`` names; None, or why it cannot be."""
    import pyspiel

    try:
        game = pyspiel.load_game(text)
        state = game.new_initial_state()
        if state.is_terminal():
            return None
        if state.is_chance_node():
            moves = [(pyspiel.PlayerId.CHANCE, [action for action, _ in state.chance_outcomes()])]
        elif state.is_simultaneous_node():
            moves = [(player, state.legal_actions(player)) for player in range(game.num_players())]
        else:
            moves = [(state.current_player(), state.legal_actions())]
        for player, actions in moves:
            if not actions:
                return (f"{text} cannot be played: its first position has no legal moves"
                        + (f" for player {player}" if len(moves) > 1 else "") + ", yet the game is not over")
            for action in actions:
                try:
                    state.action_to_string(player, action)
                except UnicodeDecodeError:
                    pass  # named by its id instead
    except MemoryError:
        return f"OpenSpiel ran out of memory setting up {text}: its parameters make the game too large"
    except (pyspiel.SpielError, ValueError, RuntimeError, IndexError) as error:
        return f"OpenSpiel cannot set up {text}: {spiel_reason(error)}"
    return None


def _limit_memory() -> None:
    """(In the child.) At most :data:`PROBE_MEMORY` of address space, where the system lets it be limited."""
    try:
        import resource

        _, hard = resource.getrlimit(resource.RLIMIT_AS)
        limit = PROBE_MEMORY if hard == resource.RLIM_INFINITY else min(PROBE_MEMORY, hard)
        resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    except (ImportError, ValueError, OSError):  # no resource module (Windows), or no such limit (macOS)
        pass


if __name__ == "__main__":
    _limit_memory()
    print(json.dumps({"problem": _probe(sys.argv[1])}))
