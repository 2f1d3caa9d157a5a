"""Ctrl-C honoured wherever it arrives (issue 26, finding 2): inside a drive, effort or load
function of an explicit or implicit run (status "interrupted", not "failed"), in statics (a
Result with the last equilibrium instead of a KeyboardInterrupt), and in a serial sweep (the
study stops, the row stays unrun, a resume runs it).

The interrupt is a real SIGINT sent to this process: from inside the user function (its handler
then raises KeyboardInterrupt there, as a Ctrl-C arriving during the function does) or from a
timer thread."""
import os
import signal
import threading
import warnings

import numpy as np
import pytest

import rancf
from models import UnitOscillator
from user_function_models import AREA, E, INERTIA, RHO, every_run, model, run

T_STOP = 0.01005                # s: the functions below send SIGINT at the first call after it


def interrupting(value):
    """A function of t (and of q, qd for an effort) returning ``value``, that sends SIGINT to
    this process at its first call after T_STOP (Python's handler raises KeyboardInterrupt in
    the function)."""
    sent = []

    def f(t, *state):
        if t > T_STOP and not sent:
            sent.append(t)
            os.kill(os.getpid(), signal.SIGINT)
        return value
    return f


@every_run
def test_ctrl_c_in_a_user_function_interrupts_the_run(where, method, formulation):
    """Explicit and implicit alike: status "interrupted" (no error kept), the outputs before the
    Ctrl-C, and they are those of the same model run to the end (whose functions raise nothing
    before T_STOP)."""
    res = run(where, interrupting, method, formulation)
    assert res.status == "interrupted", res.message
    assert "Ctrl-C" in res.message and res.error is None
    assert 1 < len(res.t) and res.t[-1] <= T_STOP + 1e-4
    full = run(where, interrupting, method, formulation, res.t[-1]) \
        if method not in ("dopri5", "scipy:RK45") else None
    if full is not None:
        # the same steps: the interrupted run's outputs are the run's, not a failure's leftovers
        np.testing.assert_array_equal(res.nodes, full.nodes[:len(res.t)])


def cantilever(scale=1.0, n_elements=6, interrupt=None):
    """A beam on a revolute joint held by a stiff spring (its effort function), under gravity,
    gravity and spring scaled by ``scale`` (as statics scales the applied forces, efforts
    included, by its load factor); and the list of the spring's calls; ``interrupt(calls)`` is
    called at each."""
    m = rancf.Model(gravity=(0.0, -9.81 * scale), elastic_model="reissner")
    b = m.add_beam(1.0, n_elements, 2e8, RHO, 1e-3, 1e-7)
    calls = []

    def spring(t, q, qd):
        calls.append(q)
        if interrupt is not None:
            interrupt(calls)
        return -1e3 * scale * q
    m.add_joint("revolute", m.ground.point(0, 0), b.start, effort=spring)
    return m, b, calls


def test_ctrl_c_in_statics_returns_the_last_equilibrium():
    """rancf.static under Ctrl-C (inside the spring's function, halfway through its calls): a
    Result of status "interrupted" holding the equilibrium at the load factor reached, which is
    the equilibrium of the model whose applied forces are scaled by that factor, solved by the
    same increments (a second, uninterrupted run)."""
    n_steps = 10
    clean_model, _, clean_calls = cantilever()
    assert rancf.static(clean_model, load_steps=n_steps).status == "ok"
    half = len(clean_calls) // 2

    def interrupt(calls):
        if len(calls) == half:
            os.kill(os.getpid(), signal.SIGINT)
    m, _, _ = cantilever(interrupt=interrupt)
    res = rancf.static(m, load_steps=n_steps)
    assert res.status == "interrupted" and "Ctrl-C" in res.message
    s = float(res.extra["load_factor"][0])
    done = round(s * n_steps)
    assert 0 < done < n_steps and s == done / n_steps
    assert np.all(res.extra["iterations"][0, :done] > 0)
    assert np.all(res.extra["iterations"][0, done:] == 0)
    reference = rancf.static(cantilever(scale=s)[0], load_steps=done)
    assert reference.status == "ok"
    sag = abs(reference.tip()[0, 1])
    assert sag > 1e-3
    assert np.abs(res.nodes - reference.nodes).max() <= 1e-8 * sag


def test_ctrl_c_from_a_timer_during_statics_returns_a_result():
    """The SIGINT of a timer thread (started at the spring's first call, so once the load steps
    run) lands wherever statics is (in Newton, in a kernel, between load steps): a Result of
    status "interrupted" whose load factor counts the load steps whose iterations it records."""
    timers = []

    def interrupt(calls):
        if not timers:
            timers.append(threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT)))
            timers[0].start()
    m, _, _ = cantilever(n_elements=50, interrupt=interrupt)
    try:
        res = rancf.static(m, load_steps=100000)
    finally:
        timers[0].cancel()
    assert res.status == "interrupted", res.message
    s = float(res.extra["load_factor"][0])
    done = round(s * 100000)
    assert s == done / 100000 and np.count_nonzero(res.extra["iterations"][0]) == done
    assert np.all(np.isfinite(res.nodes))


def study(E, crash_at=None):
    """One row: a pendulum run whose outputs do not include its status (a run returning only
    numbers), sending SIGINT during the row whose E is ``crash_at``."""
    m = rancf.pendulum(n_bodies=1, elements_per_body=2, E=E)
    if E == crash_at:
        m.add_force(m.beams[0].end, force=_sigint_after(0.05))
    res = rancf.simulate(m, 0.1, 1e-4)
    return {"lowest": float(res.tip()[:, 1].min())}


def _sigint_after(t_stop):
    sent = []

    def force(t):
        if t > t_stop and not sent:
            sent.append(t)
            os.kill(os.getpid(), signal.SIGINT)
        return (0.0, 0.0)
    return force


def test_ctrl_c_stops_a_serial_sweep_and_the_row_is_run_on_resume(tmp_path):
    """A Ctrl-C inside the third of five rows (whose run returns its outputs without the
    Result's status): the study stops, the row is "interrupted" and not stored; a resume runs
    it and the remaining rows, ending with the table of an uninterrupted study."""
    grid = {"E": [1e6, 2e6, 3e6, 4e6, 5e6]}
    store = tmp_path / "study.csv"
    with pytest.warns(RuntimeWarning, match="interrupted with 2 of 5 rows done"):
        partial = rancf.sweep(lambda E: study(E, crash_at=3e6), grid, scheduler="serial",
                              progress=False, store=store)
    assert list(partial.status) == ["ok", "ok", "interrupted", "interrupted", "interrupted"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        resumed = rancf.sweep(study, grid, scheduler="serial", progress=False, store=store)
    fresh = rancf.sweep(study, grid, scheduler="serial", progress=False)
    assert list(resumed.status) == ["ok"] * 5
    np.testing.assert_array_equal(resumed.lowest, fresh.lowest)
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


class _Oscillator(UnitOscillator):
    """q'' = -q, whose observe sends SIGINT at its fourth output (a Ctrl-C arriving while a
    finished run's outputs are mapped)."""

    def __init__(self):
        self.seen = 0

    def observe(self, q, v, t, lam):
        self.seen += 1
        if self.seen == 4:
            os.kill(os.getpid(), signal.SIGINT)
        return {"energy": 0.5 * (q @ q + v @ v)}


def test_ctrl_c_while_the_outputs_are_mapped_keeps_the_whole_run():
    """The implicit loop keeps states and maps them after its last step: a Ctrl-C then does
    not lose the run. Every output is there, mapped, status "interrupted" saying the run is
    complete; the states are Newmark's, whose energy q^2 + v^2 the trapezoidal rule conserves
    (to the Newton tolerance), and the clock reached t_end."""
    sol = rancf.implicit.integrate(_Oscillator(), [1.0], [0.0], 1.0, 0.01, method="newmark")
    assert sol.status == "interrupted" and "the run is complete" in sol.message
    assert len(sol.t) == 101 and sol.t[-1] == pytest.approx(1.0)
    assert np.allclose(sol.extra["energy"], 0.5, atol=1e-9)


def test_ctrl_c_while_explicit_outputs_are_mapped_keeps_the_whole_run(monkeypatch):
    """The same for the explicit loop: SIGINT from the recursive formulation's mapping of the
    outputs. The outputs equal those of an uninterrupted run."""
    from rancf.formulations import recursive
    m = model("force", lambda value: (lambda t, *state: value))
    whole = rancf.simulate(m, 0.02, 1e-3, method="rk4", output_every=1)
    observe = recursive.Recursive.observe

    def interrupting_observe(self, t, Y, branches, **options):
        os.kill(os.getpid(), signal.SIGINT)
        return observe(self, t, Y, branches, **options)

    monkeypatch.setattr(recursive.Recursive, "observe", interrupting_observe)
    res = rancf.simulate(m, 0.02, 1e-3, method="rk4", output_every=1)
    assert res.status == "interrupted" and "the run is complete" in res.message
    assert np.array_equal(res.nodes, whole.nodes) and np.array_equal(res.t, whole.t)


@pytest.mark.parametrize("method, formulation", [("rk4", "recursive"),
                                                 ("generalized-alpha", "dae")])
def test_ctrl_c_while_the_result_is_built_keeps_the_whole_run(monkeypatch, method, formulation):
    """SIGINT while simulate builds the Result from the finished run (its constructor): the
    run comes back whole, status "interrupted" saying it is complete, and its arrays are those
    of an uninterrupted run of the same model."""
    from rancf.results import result
    m = model("force", lambda value: (lambda t, *state: value))
    whole = rancf.simulate(m, 0.02, 1e-3, method=method, formulation=formulation,
                           output_every=1)
    build = result.Result.__init__

    def interrupting_build(self, *args, **kwargs):
        os.kill(os.getpid(), signal.SIGINT)
        build(self, *args, **kwargs)

    monkeypatch.setattr(result.Result, "__init__", interrupting_build)
    res = rancf.simulate(m, 0.02, 1e-3, method=method, formulation=formulation, output_every=1)
    assert whole.status == "ok"
    assert res.status == "interrupted" and "the run is complete" in res.message
    for name in ("t", "nodes", "velocities", "joint_q", "reactions", "work"):
        np.testing.assert_array_equal(getattr(res, name), getattr(whole, name))


def test_ctrl_c_while_a_static_result_is_built_keeps_the_equilibrium(monkeypatch):
    """The same for rancf.static: the equilibrium found, status "interrupted"."""
    from rancf.results import result
    m, _, _ = cantilever()
    whole = rancf.static(m, load_steps=2)
    build = result.Result.__init__

    def interrupting_build(self, *args, **kwargs):
        os.kill(os.getpid(), signal.SIGINT)
        build(self, *args, **kwargs)

    monkeypatch.setattr(result.Result, "__init__", interrupting_build)
    res = rancf.static(m, load_steps=2)
    assert whole.status == "ok" and res.status == "interrupted"
    np.testing.assert_array_equal(res.nodes, whole.nodes)


def test_an_interrupt_as_the_handler_is_installed_restores_the_previous_one(monkeypatch):
    """A KeyboardInterrupt raised just as held_interrupt's handler is installed (Python runs
    pending signal handlers when the installing call returns: a Ctrl-C from a CPU timer, as in
    test_interrupt_setup's random moments, can land there) leaves SIGINT's previous handler in
    place. Before, ``note`` stayed installed, and every later Ctrl-C of the process was
    swallowed (the random-moment tests failed now and then, then every interrupt test after)."""
    from rancf.integrators.held_interrupt import held_interrupt
    install = signal.signal

    def install_then_interrupt(signum, handler):
        previous = install(signum, handler)
        if handler is not signal.default_int_handler:     # the install, not the restore
            raise KeyboardInterrupt
        return previous

    before = signal.getsignal(signal.SIGINT)
    monkeypatch.setattr(signal, "signal", install_then_interrupt)
    with pytest.raises(KeyboardInterrupt):
        with held_interrupt():
            pass
    monkeypatch.undo()
    assert signal.getsignal(signal.SIGINT) is before is signal.default_int_handler
