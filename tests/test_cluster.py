"""The arena on a real Dask cluster (a `dask scheduler` and `dask worker` processes on 127.0.0.1).

Same seeds give the same rows (and SPSA steps) as local processes; a worker killed mid-run has its games played
by another; Stop cancels the games on the cluster; an unreachable scheduler is one sentence; a
cluster whose every worker died gives up after its wait with one sentence, the finished games stored.
"""

import csv
import io
import os
import re
import subprocess
import sys
import threading
import time

import pytest

import required

required.module("pyspiel")
required.module("distributed")

from bench.harness.dask_processes import REPO, dask_cluster, start_scheduler, start_worker, stop, wait_for_workers  # noqa: E402
from distributed import Client  # noqa: E402

from mcts_core.strength import ResultStore, arena, plan, spsa_plan, spsa_run  # noqa: E402


@pytest.fixture(scope="module")
def cluster():
    with dask_cluster(workers=2) as (address, workers):
        yield address


def test_the_cluster_gives_the_same_rows_as_local_processes(cluster):
    settings = dict(c_values=[0.5, 2.0], games=12, simulations=20, opponent="mcts:1.4", seed=5)
    assert arena("tic_tac_toe", cluster=cluster, **settings) == arena("tic_tac_toe", workers=2, **settings)


def test_one_and_three_player_games_run_on_the_cluster_too(cluster):
    for game, games in (("catch", 4), ("pig(players=3,winscore=10)", 3)):
        settings = dict(c_values=[1.0], games=games, simulations=10, opponent="random")
        assert arena(game, cluster=cluster, **settings) == arena(game, workers=1, **settings)


def test_spsa_plays_its_iterations_on_the_cluster_as_in_this_process(cluster):
    settings = dict(iterations=6, simulations=20, opponent="mcts:1.4", seed=2)
    assert spsa_run(spsa_plan("tic_tac_toe", cluster=cluster, **settings)) == spsa_run(
        spsa_plan("tic_tac_toe", workers=1, **settings))


def test_a_killed_worker_has_its_games_played_by_another(cluster, tmp_path):
    victim = start_worker(cluster, "victim")
    try:
        wait_for_workers(cluster, 3)
        settings = dict(c_values=[0.5, 1.0, 2.0], games=32, simulations=100, opponent="mcts:1.4", seed=3)
        finished = {}
        run = threading.Thread(target=lambda: finished.setdefault("rows", arena("tic_tac_toe", cluster=cluster,
                                                                                     **settings)))
        run.start()
        with Client(cluster, set_as_default=False) as client:
            deadline = time.monotonic() + 60
            while True:  # the victim is playing games of this run
                busy = {client.scheduler_info()["workers"][address]["name"]: keys
                        for address, keys in client.processing().items()}
                if busy.get("victim"):
                    break
                assert time.monotonic() < deadline and run.is_alive(), "the victim never got a game"
                time.sleep(0.02)
            victim.kill()
            victim.wait()
            run.join(timeout=300)
            assert "victim" not in {w["name"] for w in client.scheduler_info()["workers"].values()}
        assert not run.is_alive()
        assert finished["rows"] == arena("tic_tac_toe", workers=2, **settings)
    finally:
        stop([victim])


def test_stop_cancels_the_games_left_on_the_cluster_and_keeps_the_finished_ones(cluster, tmp_path):
    store = ResultStore(tmp_path / "arena.sqlite3")
    done = []
    settings = dict(c_values=[0.5, 1.0, 2.0], games=200, simulations=100, opponent="random", store=store)
    rows = arena("tic_tac_toe", cluster=cluster, progress=lambda d, total: done.append(d),
                 should_stop=lambda: len(done) >= 20, **settings)
    assert max(done) < 600 and all(row.games == 200 for row in rows)
    with Client(cluster, set_as_default=False) as client:
        deadline = time.monotonic() + 30
        while any(client.processing().values()):  # running chunks end, the queued ones are gone
            assert time.monotonic() < deadline, "games were left running on the cluster"
            time.sleep(0.1)
    kept = store.load(plan("tic_tac_toe", opponent="random").key(), 100, 0.5)
    assert len(kept) >= 20  # what finished is stored: a rerun resumes from it


def test_a_gather_cut_short_by_the_pools_own_close_prints_no_traceback(cluster, caplog):
    """Closing with results in flight (Ctrl-C) can make tornado report the cut gather with its traceback
    (seen once in CI on the CLI's stderr); once a pool has closed, such a report is dropped, others are not."""
    import logging

    from distributed.comm.core import CommClosedError

    from mcts_core.strength.cluster import DaskPool

    DaskPool(cluster, 30).close()
    log = logging.getLogger("tornado.application")
    for error in (CommClosedError("in <TCP (closed) ConnectionPool.gather>: Stream is closed"), KeyError("other")):
        try:
            raise error
        except Exception:
            log.error("Exception in callback", exc_info=True)
    reported = [type(record.exc_info[1]).__name__ for record in caplog.records if record.name == "tornado.application"]
    assert reported == ["KeyError"]


def test_an_unreachable_scheduler_is_one_sentence(monkeypatch):
    monkeypatch.setattr("mcts_core.strength.cluster.CONNECT_SECONDS", 1)  # how long is not what is tested
    with pytest.raises(ValueError) as error:
        arena("tic_tac_toe", c_values=[1.0], games=2, simulations=5, cluster="tcp://127.0.0.1:9")
    assert str(error.value).startswith("cannot reach the Dask scheduler at tcp://127.0.0.1:9")
    assert "\n" not in str(error.value)


def cli(tmp_path, *args, environment=()):
    env = {**os.environ, "MCTS_EXPLORER_DATA": str(tmp_path), **dict(environment)}
    return subprocess.run([sys.executable, "-m", "mcts_core", "arena", *args], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=300)


def test_cli_cluster_option_and_variable_print_the_local_rows(cluster, tmp_path):
    common = ["--game", "tic_tac_toe", "--c", "0.5,2", "--games", "6", "--simulations", "20", "--no-store"]
    local = cli(tmp_path, *common, "--workers", "1")
    by_option = cli(tmp_path, *common, "--cluster", cluster)
    by_variable = cli(tmp_path, *common, environment={"MCTS_EXPLORER_CLUSTER": cluster})
    assert local.returncode == by_option.returncode == by_variable.returncode == 0
    assert by_option.stdout == local.stdout == by_variable.stdout
    assert len(list(csv.DictReader(io.StringIO(local.stdout)))) == 2


def test_cli_unreachable_scheduler_exits_2_with_one_line(tmp_path):
    result = cli(tmp_path, "--game", "tic_tac_toe", "--c", "1", "--games", "2", "--cluster", "tcp://127.0.0.1:9")
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr.count("\n") == 1 and result.stderr.startswith(
        "error: cannot reach the Dask scheduler at tcp://127.0.0.1:9")


def test_the_page_runs_the_grid_on_the_cluster_named_in_its_field(cluster, tmp_path, monkeypatch):
    from apptest_support import start_app, wait_for_job

    monkeypatch.setenv("MCTS_EXPLORER_DATA", str(tmp_path))
    app = start_app(monkeypatch, "pages/strength.py")
    app.text_input(key="strength_c_values").input("0.5, 2").run()
    app.number_input(key="strength_games").set_value(6).run()
    app.number_input(key="strength_simulations").set_value(20).run()
    app.text_input(key="strength_cluster").input(cluster).run()
    app.button(key="strength_run").click().run()
    job = wait_for_job(app, "_strength_job")
    assert job.error is None
    local = arena("connect_four", c_values=[0.5, 2.0], games=6, simulations=20, workers=1)
    table = app.dataframe[0].value
    assert table["elo"].tolist() == [row.elo for row in local] and table["wins"].tolist() == [row.wins for row in local]


def test_cli_ctrl_c_cancels_the_cluster_games_and_exits_130(cluster, tmp_path):
    import signal

    env = {**os.environ, "MCTS_EXPLORER_DATA": str(tmp_path)}
    process = subprocess.Popen(
        [sys.executable, "-m", "mcts_core", "arena", "--game", "tic_tac_toe", "--c", "0.5,1,2", "--games", "400",
         "--simulations", "200", "--cluster", cluster, "--progress"],
        cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    seen = ""
    while not re.search(r"arena: [1-9]", seen):  # games are coming back from the cluster ("arena: 0/..." comes first)
        seen += process.stderr.read(1)
    os.killpg(process.pid, signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130 and out == "" and "Traceback" not in err
    assert err.rstrip("\n").splitlines()[-1].startswith("interrupted; finished games are stored")
    with Client(cluster, set_as_default=False) as client:
        deadline = time.monotonic() + 30
        while any(client.processing().values()):
            assert time.monotonic() < deadline, "games were left running on the cluster"
            time.sleep(0.1)


@pytest.fixture(scope="module")
def scheduler_alone(tmp_path_factory):
    """A scheduler without workers: each test starts its own and kills them all."""
    scheduler, address = start_scheduler(tmp_path_factory.mktemp("scheduler"))
    yield address
    stop([scheduler])


def start_workers(address: str, count: int = 2) -> list[subprocess.Popen]:
    started = [start_worker(address, f"doomed-{number}") for number in range(count)]
    wait_for_workers(address, count)
    return started


def kill(workers: list[subprocess.Popen]) -> None:
    for worker in workers:
        worker.kill()
    for worker in workers:
        worker.wait()


def test_cli_gives_up_when_every_worker_died_and_keeps_the_finished_games(scheduler_alone, tmp_path):
    workers = start_workers(scheduler_alone)
    try:
        process = subprocess.Popen(
            [sys.executable, "-m", "mcts_core", "arena", "--game", "tic_tac_toe", "--c", "0.5,1,2", "--games", "400",
             "--simulations", "100", "--cluster", scheduler_alone, "--cluster-wait", "3", "--progress"],
            cwd=REPO, env={**os.environ, "MCTS_EXPLORER_DATA": str(tmp_path)}, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True)
        seen = ""
        while not re.search(r"arena: [1-9]", seen):  # games are coming back from the cluster (not just "0/...")
            char = process.stderr.read(1)
            assert char, f"the arena ended before a game came back: {seen}"
            seen += char
        kill(workers)
        out, err = process.communicate(timeout=120)  # waits on the arena's own exit
    finally:
        stop(workers)
    assert (process.returncode, out) == (2, "")
    said = [line for line in err.splitlines() if line and not line.startswith("arena: ")]  # besides the progress
    assert said == [(f"error: the Dask cluster at {scheduler_alone} has had no live worker for 3 s (every worker died "
                    f"or left): the finished games are stored and a rerun resumes from them; start workers with "
                    f"`dask worker {scheduler_alone}` and run again")]
    reported = max(int(line.split()[1].split("/")[0].replace(",", "")) for line in (seen + err).splitlines()
                   if line.startswith("arena: ") and line != "arena: ")  # the progress lines (\r reads as a line end)
    store = ResultStore(tmp_path / "arena.sqlite3")
    key = plan("tic_tac_toe").key()
    assert sum(len(store.load(key, 100, c)) for c in (0.5, 1.0, 2.0)) >= reported > 0


def test_the_page_says_so_when_every_worker_of_its_cluster_died(scheduler_alone, tmp_path, monkeypatch):
    from apptest_support import plain, start_app, wait_for_job

    monkeypatch.setenv("MCTS_EXPLORER_DATA", str(tmp_path))
    monkeypatch.setenv("MCTS_EXPLORER_CLUSTER_WAIT", "3")
    workers = start_workers(scheduler_alone)
    try:
        app = start_app(monkeypatch, "pages/strength.py")
        app.selectbox(key="strength_game").select("tic_tac_toe").run()
        app.text_input(key="strength_c_values").input("0.5, 1, 2").run()
        app.number_input(key="strength_games").set_value(400).run()
        app.text_input(key="strength_cluster").input(scheduler_alone).run()
        app.button(key="strength_run").click().run()
        job = app.session_state["_strength_job"]
        deadline = time.monotonic() + 60
        while not job.done:  # games are coming back from the cluster
            assert job.running and time.monotonic() < deadline, job.error
            time.sleep(0.02)
        kill(workers)
        wait_for_job(app, "_strength_job")
    finally:
        stop(workers)
    assert job.error.startswith(f"the Dask cluster at {scheduler_alone} has had no live worker for 3 s")
    shown = [plain(error.value) for error in app.error]
    assert any(text.startswith(f"The Dask cluster at {scheduler_alone} has had no live worker for 3 s") and
               "the finished games are stored" in text for text in shown), shown

