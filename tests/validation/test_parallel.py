"""validation.parallel and ``python -m validation --workers``: a case's untimed study on a local
dask cluster gives the serial run's tables (wall times aside); map_runs keeps the order and the
values, and reports a failed run or Ctrl-C as a serial loop would."""
import json
from functools import partial

import numpy as np
import pandas as pd
import pytest

from validation import parallel
from validation.__main__ import main


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
