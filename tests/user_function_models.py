"""The model and runs shared by the tests of user functions that raise (test_user_functions.py)
and that are interrupted (test_interrupt.py, test_interrupt_setup.py,
test_reliability_spatial.py), and the functions that send the interrupt."""
import os
import signal

import numpy as np
import pytest

import rancf

E, RHO, AREA, INERTIA = 5e6, 7800.0, 1e-4, 1e-9

#: (method, formulation): every family of stepping loop that calls user functions.
RUNS = [("rk4", "recursive"), ("dopri5", "recursive"), ("scipy:RK45", "recursive"),
        ("generalized-alpha", "recursive"), ("generalized-alpha", "dae"),
        ("backward-euler", "dae")]
#: Where :func:`model` puts the user function.
WHERE = ["drive", "effort", "force", "moment"]


def every_run(test):
    """Parametrize ``test(where, method, formulation)`` over every place of the user function
    (:data:`WHERE`) and every run (:data:`RUNS`)."""
    test = pytest.mark.parametrize("method, formulation", RUNS,
                                   ids=[f"{m}-{f}" for m, f in RUNS])(test)
    return pytest.mark.parametrize("where", WHERE)(test)


def run(where, make, method, formulation, t_end=0.03):
    """The run of :func:`model` the tests make: steps of 0.1 ms to ``t_end`` (s), an output
    every 1 ms."""
    return rancf.simulate(model(where, make), t_end, 1e-4, method=method,
                          formulation=formulation, output_every=10)


def model(where, make):
    """A pinned beam of two elements whose ``where`` ("drive", "effort", "force", "moment")
    function is ``make(value)``: a function of t (and of q, qd for an effort) meant to return
    ``value`` (None for the drive, whose motion is t^2 / 2 rad)."""
    m = rancf.Model()
    b = m.add_beam(1.0, 2, E, RHO, AREA, INERTIA)
    if where == "drive":
        hub = make(None)
        drive = lambda t: (hub(t) or (0.5 * t * t, t, 1.0))     # noqa: E731
        m.add_joint("revolute", m.ground.point(0, 0), b.start, drive=drive)
    elif where == "effort":
        m.add_joint("revolute", m.ground.point(0, 0), b.start, effort=make(0.0))
    else:
        m.add_joint("revolute", m.ground.point(0, 0), b.start)
        m.add_force(b.end, **{where: make((0.0, -1.0) if where == "force" else 0.5)})
    return m


def first_call_interrupts(value):
    """A function of t (and q, qd) returning ``value`` (or, if callable, its value at the
    arguments), sending SIGINT to this process at its first call only."""
    def f(t, *state):
        f.calls += 1
        if f.calls == 1:
            os.kill(os.getpid(), signal.SIGINT)
        return value(t, *state) if callable(value) else value
    f.calls = 0
    return f


def never_interrupts(value):
    """The same function, without the SIGINT."""
    def f(t, *state):
        return value(t, *state) if callable(value) else value
    return f


def run_with_timer(m, args, cpu):
    """``simulate(m, **args)`` with Python's Ctrl-C handler (KeyboardInterrupt) called after
    ``cpu`` s of this process's CPU (ITIMER_PROF); None when KeyboardInterrupt came out."""
    old = signal.signal(signal.SIGPROF, signal.default_int_handler)
    try:
        try:
            signal.setitimer(signal.ITIMER_PROF, cpu)
            return rancf.simulate(m, **args)
        finally:
            signal.setitimer(signal.ITIMER_PROF, 0.0)
            signal.signal(signal.SIGPROF, old)
    except KeyboardInterrupt:
        return None


def assert_a_prefix(res, clean):
    """``res``, a run interrupted at some moment (None: KeyboardInterrupt came out), is
    "interrupted" with the clean run's first outputs, or (the interrupt too late) the clean
    run."""
    if res is None:
        return
    assert res.status in ("ok", "interrupted"), res.message
    np.testing.assert_array_equal(res.t, clean.t[:len(res.t)])
    np.testing.assert_array_equal(res.nodes, clean.nodes[:len(res.t)])
    assert res.status == "interrupted" or len(res.t) == len(clean.t)
