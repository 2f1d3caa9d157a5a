"""Run functions for tests/test_sweep.py, in a module of their own: dask workers import a run
function by its module, and this folder is on their sys.path (pytest puts it on the test
process's, and the spawned worker processes inherit it)."""
import os
import time

import rancf

#: (E, length) at which :func:`pendulum_or_stop` raises KeyboardInterrupt (row 4, the fifth of the
#: tests' grid). Worker processes see this value; a serial sweep may change it (monkeypatch).
stop_at = (1e7, 0.5)


def pendulum(E, length, check_stability=True):
    """A 2 x 2 pendulum falling for 0.2 s (RK4, dt = 0.1 ms): its tip at the end, lowest point,
    steps and energy drift, with the Result's status and message.

    An ``E`` too stiff for the step is refused by simulate (a ValueError: an "error" row);
    ``check_stability=False`` runs it anyway and the run diverges (status "diverged")."""
    m = rancf.pendulum(n_bodies=2, elements_per_body=2, body_length=length, E=E, side=0.02)
    res = rancf.simulate(m, 0.2, 1e-4, method="rk4", output_every=100,
                         check_stability=check_stability)
    tip = res.tip()
    return {"tip_x": tip[-1, 0], "tip_y": tip[-1, 1], "lowest": tip[:, 1].min(),
            "steps": res.stats["steps"],
            "drift": res.energy_drift() if res.status == "ok" else float("nan"),
            "status": res.status, "message": res.message}


def pendulum_or_stop(E, length):
    """:func:`pendulum`, or KeyboardInterrupt (as Ctrl-C would) at ``stop_at``."""
    if (E, length) == stop_at:
        raise KeyboardInterrupt
    return pendulum(E, length)


def where(x):
    """The process that ran the row."""
    return {"pid": os.getpid()}


def malloc_trim(x):
    """The process's MALLOC_TRIM_THRESHOLD_ (None when unset)."""
    return {"malloc_trim": os.environ.get("MALLOC_TRIM_THRESHOLD_")}


def echo(a, b, c):
    """The parameters as run received them."""
    return {"a_seen": a, "b_seen": b, "c_seen": c}


def refuse(**row):
    raise RuntimeError("refused")


def wrong_return(a, b, c):
    return [a, b, c]


def wait(path):
    """Write this process's id to ``path``, then run for two minutes (a row still running when
    its sweep's process is killed)."""
    with open(path, "w") as f:
        f.write(str(os.getpid()))
    time.sleep(120.0)
    return {"pid": os.getpid()}


def crash(x):
    """Row x = 2 kills its worker process at once (as a segmentation fault would)."""
    if x == 2:
        os._exit(1)
    return {"y": 2 * x}


def exits(a, code=3):
    """Row a = 2 calls ``sys.exit(code)`` (as a command-line tool's main called from a run
    does); the others return y = 10 a."""
    import sys

    if a == 2:
        if code is None:
            sys.exit()
        sys.exit(code)
    return {"y": 10.0 * a}
