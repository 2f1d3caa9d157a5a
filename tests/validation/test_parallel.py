"""validation.parallel and ``python -m validation --workers``: a case's untimed study on a local
dask cluster gives the serial run's tables (wall times aside); map_runs keeps the order and the
values, and reports a failed run or Ctrl-C as a serial loop would; a timed case's untimed part
(Case.prepare) runs beside the untimed cases."""
import json
import subprocess
import sys
from functools import partial
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from validation import parallel
from validation.__main__ import main

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.slow  # two quick rigid-limit runs and a dask cluster: a minute under load
def test_rigid_limit_with_two_workers_equals_the_serial_run(tmp_path):
    # the quick rigid-limit case runs its E sweep (3 moduli) through validation.parallel
    assert main(["rigid-limit", "--quick", "--out", str(tmp_path / "serial")]) == 0
    assert main(["rigid-limit", "--quick", "--workers", "2", "--out", str(tmp_path / "workers")]) == 0
    serial, workers = tmp_path / "serial" / "rigid-limit", tmp_path / "workers" / "rigid-limit"
    tables = sorted(p.name for p in serial.glob("*.csv"))
    assert tables == ["errors_vs_E.csv", "tip_series.csv"]
    for name in tables:
        a, b = pd.read_csv(serial / name), pd.read_csv(workers / name)
        timed = [c for c in a.columns if "wall time" in c]
        assert timed == ([] if name == "tip_series.csv" else ["wall time (s)"])
        pd.testing.assert_frame_equal(b.drop(columns=timed), a.drop(columns=timed), check_exact=True)
    checks = [json.loads((folder / "result.json").read_text())["checks"] for folder in (serial, workers)]
    assert checks[0] == checks[1]


def squares(x, offset):
    return {"x": x, "square": np.array([x * x + offset])}


def test_map_runs_keeps_order_and_values():
    runs = parallel.map_runs(squares, [{"x": 3, "offset": 0.5}, {"x": -1, "offset": 0.25}])
    assert [r["x"] for r in runs] == [3, -1]
    assert [r["square"].tolist() for r in runs] == [[9.5], [1.25]]


def test_a_function_that_does_not_pickle_is_refused_serially_too():
    import threading

    assert parallel.map_runs(partial(squares, offset=0.0), [{"x": 2}])[0]["x"] == 2
    with pytest.raises(TypeError, match="squares with its bound arguments does not"):
        parallel.map_runs(partial(squares, offset=threading.Lock()), [{"x": 2}])


def fails(x):
    if x == 2:
        raise ValueError(f"x = {x} refused")
    return x


def test_a_failed_run_raises_with_its_parameters():
    with pytest.raises(RuntimeError, match=r"fails\(\*\*\{'x': 2\}\): ValueError: x = 2 refused"):
        parallel.map_runs(fails, [{"x": 1}, {"x": 2}, {"x": 3}])


def interrupted(x):
    raise KeyboardInterrupt


def test_ctrl_c_in_a_run_stops_the_case():
    with pytest.raises(KeyboardInterrupt):
        parallel.map_runs(interrupted, [{"x": 1}])


def test_engine_takes_workers_or_scheduler_not_both():
    with pytest.raises(ValueError, match="give workers or scheduler, not both"):
        with parallel.engine(2, "tcp://localhost:8786"):
            pass
    with pytest.raises(ValueError, match="workers must be an integer >= 1, got 0"):
        with parallel.engine(0):
            pass
    with pytest.raises(SystemExit) as bad:
        main(["--workers", "0", "rigid-limit"])
    assert bad.value.code == 2


def test_a_cluster_on_first_use_starts_only_for_map_runs_and_gives_the_serial_values():
    """What ``python -m validation`` gives its timed cases: no cluster until a study asks."""
    serial = parallel.map_runs(squares, [{"x": 3, "offset": 0.5}, {"x": -1, "offset": 0.25}])
    with parallel.engine(1, on_first_use=True):
        assert isinstance(parallel._scheduler, parallel._OnFirstUse)  # nothing started yet
    assert parallel._scheduler == "serial"
    with parallel.engine(1, on_first_use=True):
        runs = parallel.map_runs(squares, [{"x": 3, "offset": 0.5}, {"x": -1, "offset": 0.25}])
        assert not isinstance(parallel._scheduler, parallel._OnFirstUse)  # a client now
    assert parallel._scheduler == "serial"
    assert [r["square"].tolist() for r in runs] == [r["square"].tolist() for r in serial]


def test_untimed_cases_start_longest_first_by_their_last_run_of_the_same_mode(tmp_path):
    from validation.__main__ import longest_first

    stored = {"a": (3.0, False), "b": (200.0, False), "c": (50.0, False), "d": (900.0, True)}
    for name, (seconds, quick) in stored.items():
        (tmp_path / name).mkdir()
        (tmp_path / name / "result.json").write_text(json.dumps({"seconds": seconds, "quick": quick}))
    # "d" ran only in the other mode and "e" never: their length is unknown, they go first in order
    assert longest_first(["a", "b", "c", "d", "e"], tmp_path, quick=False) == ["d", "e", "b", "c", "a"]
    assert longest_first(["d", "a"], tmp_path, quick=True) == ["a", "d"]


PREPARE_SCRIPT = """
import json, os, sys, time
from pathlib import Path

import validation.__main__ as runner
from validation.case import Case, Check, Outcome

out, jobs, mode = Path(sys.argv[1]), sys.argv[2], sys.argv[3]

def prepare(quick):
    if mode == "raises":
        # tells the untimed case that prepare has ended, so it does not wait out its minute
        (out / "prepare raised").write_text("")
        raise ValueError("no valgrind here")
    if mode == "late":  # ends after every untimed case
        while not all((out / name / "result.json").exists() for name in ("untimed", "other")):
            time.sleep(0.05)
        # a runner that did not wait would start "early" meanwhile
        deadline = time.monotonic() + 10.0
        while not (out / "early started").exists() and time.monotonic() < deadline:
            time.sleep(0.05)
    (out / "prepared").write_text(str(time.time()))
    return {"pid": os.getpid(), "quick": quick}

def outcome():
    return Outcome(checks=[Check("x", "claim", value=1.0, limit=2.0, source="measured")])

def untimed(quick):
    if jobs == "2" and mode != "late":  # the parallel phase: prepare runs beside this case
        deadline = time.monotonic() + 60.0
        while (not (out / "prepared").exists() and not (out / "prepare raised").exists()
               and time.monotonic() < deadline):
            time.sleep(0.05)
        (out / "seen by the untimed case").write_text(str((out / "prepared").exists()))
    return outcome()

def timed(quick, prepared):
    (out / "timed.json").write_text(json.dumps({"prepared": prepared, "pid": os.getpid()}))
    return outcome()

def early(quick):
    (out / "early started").write_text(str(time.time()))
    return outcome()

cases = {"early": Case("early", "Early", "claims", early, timed=True),
         "timed": Case("timed", "Timed", "claims", timed, timed=True, prepare=prepare),
         "untimed": Case("untimed", "Untimed", "claims", untimed),
         "other": Case("other", "Other", "claims", lambda quick: outcome())}
runner.discover = lambda: cases
sys.exit(runner.main(["--out", str(out), "--jobs", jobs]))
"""


@pytest.mark.parametrize("jobs", ["2", "1"])
def test_a_timed_cases_untimed_part_runs_beside_the_untimed_cases(tmp_path, jobs):
    """Case.prepare: with --jobs 2 in a process of its own during the parallel phase (the
    untimed case sees its marker before it ends), its value handed to the timed run; with
    --jobs 1 (no parallel phase) in the runner's process just before the run."""
    proc = subprocess.run([sys.executable, "-c", PREPARE_SCRIPT, str(tmp_path), jobs, "fine"], cwd=REPO,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    timed = json.loads((tmp_path / "timed.json").read_text())
    assert timed["prepared"]["quick"] is False
    if jobs == "2":
        assert (tmp_path / "seen by the untimed case").read_text() == "True"
        assert timed["prepared"]["pid"] != timed["pid"]
    else:
        assert timed["prepared"]["pid"] == timed["pid"]


def test_the_timed_cases_start_when_every_untimed_part_has_ended(tmp_path):
    """The timed cases run alone: the first ("early", without an untimed part of its own) starts
    after the untimed part of a later one ("timed"), which ends after the untimed cases."""
    proc = subprocess.run([sys.executable, "-c", PREPARE_SCRIPT, str(tmp_path), "2", "late"], cwd=REPO,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert float((tmp_path / "early started").read_text()) >= float((tmp_path / "prepared").read_text())


def test_an_untimed_part_that_raises_is_the_timed_cases_error(tmp_path):
    proc = subprocess.run([sys.executable, "-c", PREPARE_SCRIPT, str(tmp_path), "2", "raises"], cwd=REPO,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 1
    record = json.loads((tmp_path / "timed" / "result.json").read_text())
    assert record["status"] == "error" and "no valgrind here" in record["traceback"]
    assert json.loads((tmp_path / "other" / "result.json").read_text())["status"] == "pass"
