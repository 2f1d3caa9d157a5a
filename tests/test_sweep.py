"""rancf.sweep: a local dask cluster (the sweep's own, or one given by address or Client) gives
the serial table, failures are rows, an interrupted study resumes from its store to the
uninterrupted table, the progress bar counts done, failed and left, the grid and the samplers."""
import itertools
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import rancf
import sweep_runs

# ok rows, a row simulate refuses (dt beyond RK4's stability limit: "error") and the same row
# run anyway ("diverged")
CASES = pd.DataFrame({"E": [1e6, 1e7, 1e6, 1e7, 1e11, 1e11],
                      "length": [0.5, 0.5, 1.0, 1.0, 0.5, 0.5],
                      "check_stability": [True, True, True, True, True, False]},
                     index=[f"case {i}" for i in range(6)])
GRID = {"E": [1e6, 3e6, 1e7], "length": [0.5, 1.0]}


def numbers(table):
    return table.drop(columns="wall_time")


@pytest.fixture(scope="module")
def cluster():
    """A Client of a local cluster of 2 processes, one thread each (the sweep's own kind),
    shared by the tests of an existing cluster (starting one takes seconds)."""
    from distributed import Client

    with rancf.sweep.local_cluster(2) as local, Client(local) as client:
        yield client


def test_local_cluster_of_two_processes_equals_serial():
    serial = rancf.sweep(sweep_runs.pendulum, CASES, scheduler="serial", progress=False)
    local = rancf.sweep(sweep_runs.pendulum, CASES, n_workers=2, progress=False)
    pd.testing.assert_frame_equal(numbers(local), numbers(serial), check_exact=True)
    assert list(serial.index) == list(CASES.index)
    assert list(serial.status) == ["ok"] * 4 + ["error", "diverged"]
    # the sweep passes the numbers through: a direct call gives the same row
    direct = sweep_runs.pendulum(**CASES.iloc[3].to_dict())
    assert serial.iloc[3][list(direct)].to_dict() == direct


def test_cluster_runs_in_worker_processes(cluster):
    table = rancf.sweep(sweep_runs.where, {"x": list(range(8))}, scheduler=cluster, progress=False)
    assert os.getpid() not in set(table.pid) and 1 <= table.pid.nunique() <= 2


def test_a_row_that_kills_its_worker_is_the_only_row_lost():
    # With no retries a dead worker fails every row it holds, the crashing row's bystanders
    # too; the sweep reruns the lost rows alone and names only the row that crashes again.
    import dask
    from distributed import Client

    with dask.config.set({"distributed.scheduler.allowed-failures": 0}), \
            rancf.sweep.local_cluster(1) as local, Client(local) as client:
        table = rancf.sweep(sweep_runs.crash, {"x": list(range(6))}, scheduler=client,
                            progress=False)
    assert list(table.status) == ["ok", "ok", "error", "ok", "ok", "ok"]
    assert list(table.y[table.status == "ok"]) == [0, 2, 6, 8, 10]
    assert "crashed its worker process, also when run alone" in table.message[2]
    assert "{'x': 2}" in table.message[2]


def test_a_run_calling_sys_exit_is_an_error_row_on_every_scheduler(cluster):
    # the promise (every scheduler, the same table): the exit is that row's "error", the other
    # rows keep their run's y = 10 a; on a cluster the worker survives (the set of workers is
    # the same after: a worker killed and restarted by its nanny comes back at a new address)
    workers = set(cluster.scheduler_info()["workers"])
    serial = rancf.sweep(sweep_runs.exits, {"a": [0, 1, 2, 3]}, scheduler="serial",
                         progress=False)
    on_cluster = rancf.sweep(sweep_runs.exits, {"a": [0, 1, 2, 3]}, scheduler=cluster,
                             progress=False)
    assert set(cluster.scheduler_info()["workers"]) == workers
    pd.testing.assert_frame_equal(numbers(on_cluster), numbers(serial), check_exact=True)
    assert list(serial.status) == ["ok", "ok", "error", "ok"]
    assert list(serial.y[serial.status == "ok"]) == [0.0, 10.0, 30.0]
    assert serial.message[2].startswith("SystemExit: run called sys.exit(3)")


@pytest.mark.parametrize("code, call", [(None, "sys.exit()"), (0, "sys.exit(0)"),
                                        ("bad input", "sys.exit('bad input')")])
def test_the_row_message_of_sys_exit_names_the_call(code, call):
    # an exit with status 0 (success for a shell) still ends the run without outputs: "error"
    table = rancf.sweep(sweep_runs.exits, {"a": [1, 2], "code": [code]}, scheduler="serial",
                        progress=False)
    assert list(table.status) == ["ok", "error"]
    assert table.message[1].startswith(f"SystemExit: run called {call}")


def test_local_cluster_workers_keep_the_allocator_default(cluster, monkeypatch):
    # dask's nannies set MALLOC_TRIM_THRESHOLD_=65536, which doubled the time of an adaptive
    # modal run in a worker; the sweep's local cluster leaves the variable unset
    import distributed

    monkeypatch.delenv("MALLOC_TRIM_THRESHOLD_", raising=False)
    table = rancf.sweep(sweep_runs.malloc_trim, {"x": [1, 2, 3, 4]}, scheduler=cluster,
                        progress=False)
    assert table.malloc_trim.isna().all()
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1,
                                  dashboard_address=None) as plain:
        default = rancf.sweep(sweep_runs.malloc_trim, {"x": [1]}, scheduler=plain.scheduler_address,
                              progress=False)
    assert list(default.malloc_trim) == ["65536"]                  # what is avoided


def test_existing_cluster_by_address_or_client_equals_serial(cluster):
    serial = rancf.sweep(sweep_runs.pendulum, CASES, scheduler="serial", progress=False)
    by_address = rancf.sweep(sweep_runs.pendulum, CASES, scheduler=cluster.scheduler.address,
                             progress=False)
    by_client = rancf.sweep(sweep_runs.pendulum, CASES, scheduler=cluster, progress=False)
    assert cluster.status == "running"                              # a Client given stays open
    for table in (by_address, by_client):
        pd.testing.assert_frame_equal(numbers(table), numbers(serial), check_exact=True)


def bar_line(text):
    """The bar as last drawn (tqdm redraws the line after a carriage return)."""
    return text.rstrip().split("\r")[-1]


def test_progress_bar_shows_done_failed_left_and_rate(tmp_path, capsys):
    store = tmp_path / "study.parquet"
    cases = CASES.reset_index(drop=True)
    rancf.sweep(sweep_runs.pendulum, cases[:5], scheduler="serial", progress="always",
                store=store)
    assert re.fullmatch(r"sweep: 100%\|.*\| 5/5 \[.*run/s, failed=1, left=0\]",
                        bar_line(capsys.readouterr().err))
    # resumed: the five stored rows (one "error") count as done and failed from the start
    rancf.sweep(sweep_runs.pendulum, cases, scheduler="serial", progress="always", store=store)
    drawn = capsys.readouterr().err.split("\r")
    assert re.search(r" 5/6 \[.*failed=1, left=1\]", drawn[1])
    assert re.fullmatch(r"sweep: 100%\|.*\| 6/6 \[.*run/s, failed=2, left=0\]", bar_line(drawn[-1]))
    rancf.sweep(sweep_runs.pendulum, cases[:2], scheduler="serial", progress=True)
    assert capsys.readouterr().err == ""                            # stderr is not a terminal


def test_failures_are_rows_with_their_status_and_message():
    table = rancf.sweep(sweep_runs.pendulum, CASES, scheduler="serial", progress=False)
    with pytest.raises(ValueError) as refused:
        sweep_runs.pendulum(1e11, 0.5)
    error, diverged = table.iloc[4], table.iloc[5]
    assert error.status == "error" and error.message == f"ValueError: {refused.value}"
    assert np.isnan(error.tip_x) and error.wall_time > 0
    assert diverged.status == "diverged" and "displacement bound" in diverged.message
    assert (table.message[:4] == "").all()
    wrong = rancf.sweep(sweep_runs.wrong_return, {"a": [1], "b": [2], "c": [3]},
                        scheduler="serial", progress=False)
    assert wrong.status[0] == "error" and "run returned a list" in wrong.message[0]


@pytest.mark.parametrize("suffix", [".parquet", ".csv"])
def test_interrupted_sweep_resumes_to_the_uninterrupted_table(tmp_path, monkeypatch, suffix):
    store = tmp_path / f"study{suffix}"
    with pytest.warns(RuntimeWarning, match="interrupted with 4 of 6 rows done"):
        partial = rancf.sweep(sweep_runs.pendulum_or_stop, GRID, scheduler="serial",
                              progress=False, store=store, write_every=0.0)
    assert list(partial.status) == ["ok"] * 4 + ["interrupted"] * 2
    monkeypatch.setattr(sweep_runs, "stop_at", None)
    resumed = rancf.sweep(sweep_runs.pendulum_or_stop, GRID, scheduler="serial",
                          progress=False, store=store)
    whole = rancf.sweep(sweep_runs.pendulum_or_stop, GRID, scheduler="serial", progress=False)
    pd.testing.assert_frame_equal(numbers(resumed), numbers(whole), check_exact=True)
    # the four stored rows were read back, not run again
    assert list(resumed.wall_time[:4]) == list(partial.wall_time[:4])


def test_interrupted_sweep_on_a_cluster_resumes_to_the_uninterrupted_table(tmp_path, cluster):
    # a run raising KeyboardInterrupt on a worker stops the sweep as Ctrl-C would: the rows
    # running or waiting are cancelled and "interrupted", the finished ones stored
    store = tmp_path / "study.parquet"
    with pytest.warns(RuntimeWarning, match="interrupted with [0-5] of 6 rows done"):
        partial = rancf.sweep(sweep_runs.pendulum_or_stop, GRID, scheduler=cluster,
                              progress=False, store=store)
    done = partial.status == "ok"
    assert partial.status[4] == "interrupted" and set(partial.status[~done]) == {"interrupted"}
    resumed = rancf.sweep(sweep_runs.pendulum, GRID, scheduler=cluster, progress=False,
                          store=store)
    whole = rancf.sweep(sweep_runs.pendulum, GRID, scheduler="serial", progress=False)
    pd.testing.assert_frame_equal(numbers(resumed), numbers(whole), check_exact=True)
    assert list(resumed.wall_time[done]) == list(partial.wall_time[done])


def test_partial_store_resumes_on_a_cluster_by_parameter_values(tmp_path, cluster):
    store = tmp_path / "study.parquet"
    cases = CASES.reset_index(drop=True)
    first = rancf.sweep(sweep_runs.pendulum, cases[:3], scheduler="serial", progress=False,
                        store=store, write_every=0.0)
    assert len(os.listdir(store)) == 3                            # one file per write
    reordered = cases[::-1]                                       # rows found by value
    resumed = rancf.sweep(sweep_runs.pendulum, reordered, scheduler=cluster, progress=False,
                          store=store)
    whole = rancf.sweep(sweep_runs.pendulum, reordered, scheduler="serial", progress=False)
    pd.testing.assert_frame_equal(numbers(resumed), numbers(whole), check_exact=True)
    assert list(resumed.wall_time[3:]) == list(first.wall_time[::-1])


def test_stored_rows_match_whatever_the_numeric_type(tmp_path):
    store = tmp_path / "study.parquet"
    rancf.sweep(sweep_runs.echo, {"a": [1.0, 2.5], "b": [np.float32(0.1)], "c": ["x"]},
                scheduler="serial", progress=False, store=store)
    # ints for integral floats, Python floats for float32 values: the same rows, none run
    again = rancf.sweep(sweep_runs.refuse, {"a": [1, 2.5], "b": [float(np.float32(0.1))],
                                            "c": ["x"]},
                        scheduler="serial", progress=False, store=store)
    assert list(again.status) == ["ok", "ok"] and list(again.a_seen) == [1.0, 2.5]
    # another study in the same store: its rows and columns stay out of this one's table
    other = [rancf.sweep(sweep_runs.where, {"x": [1, 2]}, scheduler="serial", progress=False,
                         store=store) for _ in range(2)]
    assert list(other[1].columns) == ["x", "pid", "status", "message", "wall_time"]
    pd.testing.assert_frame_equal(other[1], other[0], check_exact=True)


@pytest.mark.parametrize("suffix", [".parquet", ".csv"])
def test_retry_errors_runs_stored_errors_again(tmp_path, suffix):
    store, grid = tmp_path / f"study{suffix}", {"a": [1, 2], "b": [3], "c": ["x"]}
    failed = rancf.sweep(sweep_runs.refuse, grid, scheduler="serial", progress=False, store=store)
    assert list(failed.message) == ["RuntimeError: refused"] * 2
    kept = rancf.sweep(sweep_runs.echo, grid, scheduler="serial", progress=False, store=store)
    assert list(kept.status) == ["error", "error"]
    retried = rancf.sweep(sweep_runs.echo, grid, scheduler="serial", progress=False, store=store,
                          retry_errors=True)
    fresh = rancf.sweep(sweep_runs.echo, grid, scheduler="serial", progress=False)
    pd.testing.assert_frame_equal(numbers(retried), numbers(fresh), check_exact=True)
    stored = rancf.sweep(sweep_runs.refuse, grid, scheduler="serial", progress=False, store=store)
    pd.testing.assert_frame_equal(numbers(stored), numbers(fresh), check_exact=True)


def test_grid_is_the_full_product_in_the_order_given():
    grid = {"a": [3, 1, 2], "b": [0.5, -0.25], "c": ["p", "q"]}
    table = rancf.sweep(sweep_runs.echo, grid, scheduler="serial", progress=False)
    product = list(itertools.product(*grid.values()))
    assert list(table[["a", "b", "c"]].itertuples(index=False, name=None)) == product
    assert list(table[["a_seen", "b_seen", "c_seen"]].itertuples(index=False, name=None)) == \
        product
    assert list(table.columns) == ["a", "b", "c", "a_seen", "b_seen", "c_seen", "status",
                                   "message", "wall_time"]


@pytest.mark.parametrize("method", ["sobol", "lhs"])
def test_sample_stays_within_bounds_one_point_per_stratum(method):
    bounds = {"E": (1e6, 1e8), "length": (0.5, 1.5), "damping": (-1.0, 0.0)}
    n = 64
    points = rancf.sweep.sample(bounds, n, method=method, seed=3)
    assert list(points.columns) == list(bounds) and len(points) == n
    for name, (low, high) in bounds.items():
        x = points[name].to_numpy()
        assert np.all((x >= low) & (x <= high))
        # Latin hypercube, and Sobol' nets of 2^6 points: each of n equal strata holds one point
        assert sorted(np.floor((x - low) / (high - low) * n).astype(int)) == list(range(n))
    pd.testing.assert_frame_equal(rancf.sweep.sample(bounds, n, method=method, seed=3), points)
    assert not rancf.sweep.sample(bounds, n, method=method, seed=4).equals(points)


def test_run_the_workers_cannot_import_is_named(tmp_path, monkeypatch, cluster):
    import importlib.util

    path = tmp_path / "local_only.py"
    path.write_text("def run(x):\n    return {'y': x}\n")
    spec = importlib.util.spec_from_file_location("local_only", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    monkeypatch.setitem(__import__("sys").modules, "local_only", module)
    with pytest.raises(TypeError, match="cannot be loaded by the dask workers"):
        rancf.sweep(module.run, {"x": [1, 2]}, scheduler=cluster, progress=False)


@pytest.mark.parametrize("kwargs, error, match", [
    (dict(parameters=np.zeros((3, 2))), TypeError, "a bare array names no parameters"),
    (dict(parameters={"a": 1.0}), TypeError, r"parameters\['a'\] must be a list"),
    (dict(parameters={"a": "abc"}), TypeError, r"parameters\['a'\] must be a list"),
    (dict(parameters={"a": []}), ValueError, r"parameters\['a'\] must hold at least one"),
    (dict(parameters={"status": [1]}), ValueError, "parameter name 'status' is taken"),
    (dict(parameters=pd.DataFrame({"a": [[1, 2]]})), TypeError, r"parameter 'a' \(row 0\)"),
    (dict(scheduler="local"), ValueError, "scheduler must be None, 'serial'"),
    (dict(scheduler=4), TypeError, "scheduler must be None, 'serial'"),
    (dict(scheduler="serial", n_workers=2), ValueError, "n_workers applies to scheduler=None"),
    (dict(scheduler=None, n_workers=0), ValueError, r"n_workers must be an integer in \[1, 4096\]"),
    (dict(progress="yes"), ValueError, "progress must be True, False or 'always'"),
    (dict(store="study.txt"), ValueError, "store must be a path ending in one of"),
    (dict(write_every=-1.0), ValueError, "write_every must be finite and in"),
    # a misspelt name (run is where(x)) or one run does not take: refused before any row runs
    (dict(parameters={"X": [1]}), ValueError,
     r"parameter\(s\) \['X'\] are not arguments of run \(where\), .* takes \['x'\]"),
    (dict(run=sweep_runs.echo, parameters={"a": [1], "c": [2]}), ValueError,
     r"run \(echo\) needs argument\(s\) \['b'\], which no parameter gives"),
])
def test_bad_input_is_named(kwargs, error, match):
    args = dict(run=sweep_runs.where, parameters={"x": [1]}, scheduler="serial") | kwargs
    with pytest.raises(error, match=match):
        rancf.sweep(**args)


@pytest.mark.parametrize("kwargs, error, match", [
    (dict(bounds={"a": (1.0, 1.0)}), ValueError, r"bounds\['a'\] must be \(low, high\)"),
    (dict(bounds={"a": (0.0, np.inf)}), ValueError, r"bounds\['a'\] must be finite"),
    (dict(bounds=[(0.0, 1.0)]), TypeError, "bounds must be a non-empty dict"),
    (dict(n=0), ValueError, r"n must be an integer in \[1, "),
    (dict(method="halton"), ValueError, r"method must be one of \['lhs', 'sobol'\]"),
])
def test_bad_sample_input_is_named(kwargs, error, match):
    args = dict(bounds={"a": (0.0, 1.0)}, n=8) | kwargs
    with pytest.raises(error, match=match):
        rancf.sweep.sample(**args)


@pytest.mark.parametrize("suffix", [".parquet", ".csv"])
def test_stored_texts_come_back_as_written(tmp_path, suffix):
    """Texts that read_csv takes for missing values by default ("NA", "nan", "null", the empty
    text) and texts with backslashes, as parameters and outputs, resume as given: the resumed
    table equals the one run in memory, with no row run again (``refuse`` would fail them)."""
    store = tmp_path / f"study{suffix}"
    texts = ["NA", "", "nan", "null", "None", "\\N", "\\", "\\\\x", " ", "n/a", "x"]
    grid = {"a": [1, 2], "b": [0.5], "c": texts}
    first = rancf.sweep(sweep_runs.echo, grid, scheduler="serial", progress=False, store=store)
    assert list(first.c_seen) == texts * 2
    resumed = rancf.sweep(sweep_runs.refuse, grid, scheduler="serial", progress=False,
                          store=store)
    assert list(resumed.status) == ["ok"] * len(first)
    assert list(resumed.c_seen) == list(first.c_seen) and list(resumed.c) == list(first.c)
    assert list(resumed.message) == [""] * len(first)


KILLED_DRIVER = """
import sys
sys.path.insert(0, "tests")
import rancf, sweep_runs
rancf.sweep(sweep_runs.wait, {"path": sys.argv[1:]}, n_workers=2, progress=False)
"""


def running(pid):
    """Whether process ``pid`` runs (a zombie, left for its new parent to reap, does not)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rpartition(")")[2].split()[0] != "Z"
    except FileNotFoundError:
        return False


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="reads /proc")
def test_the_workers_of_a_killed_sweep_stop(tmp_path):
    """kill -9 of the process running a sweep on its own local cluster: its worker processes,
    busy with a row, stop too (distributed's workers watch a pipe from the process that
    spawned them and exit when it closes; an ordinary end closes the cluster in a finally).
    The waits are bounds, so that a regression fails instead of leaving workers behind."""
    paths = [str(tmp_path / f"row{k}") for k in range(2)]
    driver = subprocess.Popen([sys.executable, "-c", KILLED_DRIVER, *paths],
                              cwd=Path(__file__).resolve().parent.parent,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(1200):
            if all(os.path.exists(p) and open(p).read() for p in paths):
                break
            time.sleep(0.1)
        else:
            pytest.fail("the rows did not start within 120 s")
        workers = [int(open(p).read()) for p in paths]
        assert all(running(pid) for pid in workers)
    finally:
        driver.kill()
        driver.wait()
    for _ in range(600):
        if not any(running(pid) for pid in workers):
            break
        time.sleep(0.1)
    assert not any(running(pid) for pid in workers), "workers outlived their sweep by 60 s"
