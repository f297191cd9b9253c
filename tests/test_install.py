"""`pip install .` in a fresh virtual environment gives a CLI and an app that work from any folder."""

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

import required
from apptest_support import REPO

STATEMENT = "3 0.1\nbaa 30\nab 20\nbbb 4\n"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def venv_seeing(python: str | Path, venv: Path, *, with_pip: bool = True) -> Path:
    """A new venv at ``venv`` that sees the libraries ``python`` sees, and nothing of this checkout.

    ``--system-site-packages`` alone gives the *base* interpreter's libraries: when ``python`` runs
    in a venv of its own (the README's fresh venv), the libraries installed there would be missing.
    A ``.pth`` file in the new venv adds ``python``'s own site-packages after the venv's.
    """
    subprocess.run([str(python), "-m", "venv", "--system-site-packages", *([] if with_pip else ["--without-pip"]),
                    str(venv)], check=True)
    seen = subprocess.run([str(python), "-c", "import site; print('\\n'.join(site.getsitepackages()))"],
                          check=True, capture_output=True, text=True).stdout
    purelib = subprocess.run([str(venv / "bin" / "python"), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                             check=True, capture_output=True, text=True).stdout.strip()
    (Path(purelib) / "creator_site_packages.pth").write_text(seen)
    return venv


def test_a_venv_made_from_inside_a_venv_sees_the_outer_venvs_libraries(tmp_path):
    """What the README's fresh venv does: its libraries live in it, not in the base interpreter."""
    outer = venv_seeing(sys.executable, tmp_path / "outer", with_pip=False)
    outer_purelib = subprocess.run([str(outer / "bin" / "python"), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                                   check=True, capture_output=True, text=True).stdout.strip()
    (Path(outer_purelib) / "only_in_the_outer_venv.py").write_text("HERE = True\n")
    script = f"import sys; sys.path[:0] = [{str(REPO)!r}, {str(REPO / 'tests')!r}]; from pathlib import Path; " \
             f"from test_install import venv_seeing; venv_seeing(sys.executable, Path({str(tmp_path / 'inner')!r}), with_pip=False)"
    subprocess.run([str(outer / "bin" / "python"), "-c", script], check=True, cwd=tmp_path)
    seen = subprocess.run([str(tmp_path / "inner" / "bin" / "python"), "-c", "import only_in_the_outer_venv"],
                          capture_output=True, text=True, cwd=tmp_path)
    assert seen.returncode == 0, seen.stderr


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """A venv that sees this environment's libraries but gets mcts-explorer only by installing it."""
    venv = venv_seeing(sys.executable, tmp_path_factory.mktemp("venv"))
    # --no-deps: the dependencies are this environment's (the same pins); the package itself is new.
    subprocess.run([str(venv / "bin" / "pip"), "install", "-q", "--no-deps", str(REPO)], check=True,
                   cwd=tmp_path_factory.mktemp("elsewhere"), capture_output=True)
    return venv


def run_elsewhere(venv, tmp_path, *command, stdin=""):
    environment = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    return subprocess.run([str(venv / "bin" / command[0]), *command[1:]], input=stdin, text=True,
                          capture_output=True, cwd=tmp_path, env=environment, timeout=120)


def test_the_installed_command_solves_the_puzzle_from_any_folder(installed, tmp_path):
    done = run_elsewhere(installed, tmp_path, "mcts-explorer", stdin=STATEMENT)
    assert (done.returncode, done.stdout, done.stderr) == (0, "a\n", "")
    module = run_elsewhere(installed, tmp_path, "python", "-m", "mcts_core", "sweep", "--c-max", "10", stdin=STATEMENT)
    assert module.returncode == 0 and module.stdout.splitlines()[0].startswith("0.0 ")
    # The installed copy, not the checkout, answered.
    where = run_elsewhere(installed, tmp_path, "python", "-c", "import mcts_core; print(mcts_core.__file__)")
    assert str(installed) in where.stdout


def test_help_names_the_command_as_invoked_and_lists_app(installed, tmp_path):
    for command, name in ((["mcts-explorer"], "mcts-explorer"), (["python", "-m", "mcts_core"], "python -m mcts_core")):
        done = run_elsewhere(installed, tmp_path, *command, "--help")
        assert done.returncode == 0 and done.stdout.startswith(f"usage: {name} [-h]")
        app_line = next(line for line in done.stdout.splitlines() if line.split()[:1] == ["app"])
        assert "serve the app" in app_line  # one line of help, as each command has


# What a bot author's script has before the README's adapter example: a game, a position and OpenSpiel's bot.
BOT_SETUP = """
import json
import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts
game = pyspiel.load_game("tic_tac_toe")
state = game.new_initial_state()
rng = np.random.RandomState(0)
bot = mcts.MCTSBot(game, 1.4, 200, mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng), random_state=rng)
"""


def test_the_readmes_engine_example_runs_from_a_script_outside_the_checkout_after_the_step_it_names(installed, tmp_path):
    required.module("pyspiel")
    readme = (REPO / "README.md").read_text()
    section = readme[readme.index("### Load from an engine"):readme.index("## Solve the puzzle")]
    before, example = section.split("```python\n", 1)
    assert "`pip install .`" in before  # the step a script outside the checkout needs, said before the example
    done = run_elsewhere(installed, tmp_path, "python", "-c", BOT_SETUP + example.split("```", 1)[0])
    assert done.returncode == 0, done.stderr[-2000:]
    tree = run_elsewhere(installed, tmp_path, "mcts-explorer", "tree", stdin=(tmp_path / "search.jsonl").read_text())
    assert tree.returncode == 0 and '"mcts_tree": 1' in tree.stdout
    assert run_elsewhere(installed, tmp_path, "mcts-explorer", stdin=(tmp_path / "tree.json").read_text()).returncode == 0


def test_the_installed_command_refuses_bad_input_with_one_line(installed, tmp_path):
    done = run_elsewhere(installed, tmp_path, "mcts-explorer", stdin="2 0.1\nab 1\nab x\n")
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and done.stderr.startswith("error: line 3: score")


def test_mcts_explorer_app_serves_the_app_from_any_folder(installed, tmp_path):
    port = free_port()
    environment = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    environment["MCTS_EXPLORER_DATA"] = str(tmp_path / "data")
    server = subprocess.Popen(
        [str(installed / "bin" / "mcts-explorer"), "app", "--server.headless", "true", "--server.port", str(port)],
        cwd=tmp_path, env=environment, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2) as answer:
                    assert answer.read() == b"ok"
                    break
            except OSError:
                assert server.poll() is None, server.stdout.read()
                assert time.monotonic() < deadline, "the app did not start within 60 s"
                time.sleep(0.5)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as page:
            assert b"<noscript>" in page.read()  # Streamlit's page shell
    finally:
        server.terminate()
        server.wait(timeout=20)


def test_the_installed_app_runs_its_pages_with_the_installed_core(installed, tmp_path):
    # The app's files live in <venv>/share/mcts-explorer, beside each other as in the checkout.
    script = (
        "import sys; from pathlib import Path; from streamlit.testing.v1 import AppTest\n"
        "app = Path(sys.prefix) / 'share' / 'mcts-explorer' / 'app.py'\n"
        "at = AppTest.from_file(str(app), default_timeout=60).run()\n"
        "assert not at.exception, at.exception\n"
        "import mcts_core; print(at.session_state['selected_path'], mcts_core.__file__)\n"
    )
    environment = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    environment["MCTS_EXPLORER_DATA"] = str(tmp_path / "data")
    done = subprocess.run([str(installed / "bin" / "python"), "-c", script], cwd=tmp_path, env=environment,
                          capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr[-2000:]
    path, core = done.stdout.split()
    assert path and str(installed) in core
    # Every file of ui/ (its folders' modules, scripts and styles) is installed beside app.py.
    shared = installed / "share" / "mcts-explorer"
    wanted = {str(path.relative_to(REPO)) for path in (REPO / "ui").rglob("*") if path.suffix in (".py", ".js", ".css")}
    assert sorted(name for name in wanted if not (shared / name).exists()) == []
