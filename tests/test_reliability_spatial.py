"""The reliability guarantees (issue 26) on spatial models: the spatial recursion (explicit and
implicit), the spatial DAE (a closed loop, or ``formulation="dae"``), the ANCF cable and statics.

- Threads: one model run from 4 threads at once equals a serial run bit for bit.
- Ctrl-C: inside a drive, effort or load function a run returns "interrupted" with a prefix of
  the uninterrupted run; statics returns a Result, also when the Ctrl-C lands while its
  equilibrium is mapped to the outputs (it raised KeyboardInterrupt there).
- Memory: ten million coordinates are refused before the build (the spatial recursion and
  statics were not checked and died of numpy's MemoryError); the estimates bound what a run
  allocates (tracemalloc).
- Parameters named; user functions' numbers real and finite.
- ``one_blas_thread`` holds in any thread (threadpoolctl ignored a worker thread's limit).

The interrupts are real SIGINTs sent by this process: from inside a user function, at a chosen
call, or from a timer thread."""
import functools
import importlib
import os
import re
import signal
import threading
import time
import tracemalloc

import numpy as np
import pytest

import rancf
from concurrent_runs import in_threads
from user_function_models import (assert_a_prefix, first_call_interrupts,
                                  never_interrupts, run_with_timer)
from validation.spherical_four_bar import SphericalFourBar

simulate_module = importlib.import_module("rancf.simulate")
GIB = 2.0**30
CABLE = dict(E=1e7, rho=1000.0, A=1e-4, I=1e-9, element="ancf-cable")


def beam(m, length, n, start=(0.0, 0.0, 0.0), E=2e8):
    """A soft steel-like spatial beam along x from ``start``."""
    return m.add_beam(length, n, E=E, rho=7800.0, A=1e-4, I=(8.3e-10, 1.7e-9), J=2e-9,
                      G=E / 2.6, start=start, direction=(1.0, 0.0, 0.0), up=(0.0, 0.6, 0.8))


def chain():
    """A pendulum of three beams (spherical at the ground, revolutes between them), a tip
    force growing with t (a function: evaluated at every stage)."""
    m = rancf.Model(dim=3)
    prev, beams = m.ground.point(0, 0, 0), []
    for k in range(3):
        b = beam(m, 0.5, 2, start=(0.5 * k, 0.0, 0.0))
        m.add_joint("spherical" if k == 0 else "revolute", prev, b.start,
                    **({} if k == 0 else dict(axis=(0, 1, 0))))
        prev = b.end
        beams.append(b)
    m.add_force(beams[-1].end, force=lambda t: (0.0, 0.5 * t, 0.0))
    return m


def branched():
    """A hub on a revolute held by a spring-damper effort function, two beams clamped to it,
    a rigid body hanging from each beam's end by a spherical joint, gravity."""
    m = rancf.Model(dim=3, gravity=(0.0, -3.0, -9.81))
    hub = m.add_rigid_body(1.0, np.diag([0.01, 0.02, 0.03]), position=(0, 0, 0))
    m.add_joint("revolute", m.ground.point(0, 0, 0), hub.centre, axis=(0, 0, 1),
                effort=lambda t, q, qd: -0.1 * q - 0.01 * qd)
    for d in ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0)):
        d = np.array(d)
        b = m.add_beam(0.4, 2, E=5e7, rho=1000.0, A=3e-4, I=(7e-9, 7e-9), J=1.4e-8, G=2e7,
                       start=tuple(0.1 * d), direction=tuple(d), up=(0, 0, 1))
        m.add_joint("fixed", hub.point(*(0.1 * d)), b.start)
        body = m.add_rigid_body(0.2, np.diag([1e-4, 2e-4, 3e-4]),
                                position=tuple(0.5 * d + [0, 0, -0.05]))
        m.add_joint("spherical", b.end, body.point(0, 0, 0.05))
    return m


def cable(n=64, joint="spherical"):
    """A cable of ``n`` elements hanging from the ground (or clamped), gravity."""
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -9.81))
    c = m.add_beam(1.0, n, **CABLE)
    m.add_joint(joint, m.ground.point(0, 0, 0), c.start)
    return m


def cantilever(n=40):
    """A steel cantilever of 1 m under an end moment and a tip force."""
    E, I = 2.07e11, 0.1**4 / 12
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, 0.0))
    b = m.add_beam(1.0, n, E=E, rho=7800.0, A=0.01, I=(I, I), J=2 * I, G=E / 2.6,
                   direction=(1.0, 0.0, 0.0), up=(0.0, 1.0, 0.0))
    m.add_joint("fixed", m.ground.point(0.0, 0.0, 0.0), b.start)
    m.add_force(b.end, moment=(0.0, 0.0, np.pi / 2 * E * I), force=(0.0, 0.0, 1e5))
    return m


def pinned_twice(n=20):
    """A steel beam clamped at one end and pinned at the other (a spherical joint), under gravity: a
    closed loop (the spatial DAE)."""
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -9.81))
    b = beam(m, 1.0, n, E=2e11)
    m.add_joint("fixed", m.ground.point(0, 0, 0), b.start)
    m.add_joint("spherical", m.ground.point(1, 0, 0), b.end)
    return m


# --- threads -----------------------------------------------------------------------------------
THREAD_RUNS = {
    "chain-rk4": (chain, dict(t_end=0.1, dt=5e-5, method="rk4", output_every=100)),
    "chain-dopri5": (chain, dict(t_end=0.1, dt=5e-5, method="dopri5", output_every=100)),
    "chain-scipy": (chain, dict(t_end=0.05, dt=5e-5, method="scipy:RK45", output_every=100)),
    "chain-generalized-alpha-s": (chain, dict(t_end=0.5, dt=1e-3,
                                              method="generalized-alpha-s")),
    "branched-rk4": (branched, dict(t_end=0.1, dt=2e-5, method="rk4", output_every=100)),
    "branched-newmark": (branched, dict(t_end=1.0, dt=1e-3, method="newmark")),
    "branched-hht-dae": (branched, dict(t_end=0.5, dt=1e-3, method="hht",
                                        formulation="dae")),
    "four-bar-dae": (lambda: SphericalFourBar().rigid()[0],
                     dict(t_end=1.0, dt=2e-3, method="newmark")),
    # the dense LU factors and solves (Newton's and the projection's) without the GIL
    "four-bar-dae-projected": (lambda: SphericalFourBar().flexible()[0],
                               dict(t_end=0.1, dt=4e-3, method="newmark", formulation="dae",
                                    projection="mass", tol=1e-11)),
    "cable-rk4": (cable, dict(t_end=1e-3, dt=1e-6, method="rk4", output_every=100)),
    "cable-newmark": (cable, dict(t_end=1.0, dt=1e-3, method="newmark")),
    "cable-newmark-dae": (cable, dict(t_end=0.2, dt=1e-3, method="newmark",
                                      formulation="dae")),
    "cantilever-static": (cantilever, dict(load_steps=20)),
    "cable-static": (lambda: cable(128, "fixed"), dict(load_steps=5)),
    "loop-static": (pinned_twice, dict(load_steps=5)),
}


@pytest.mark.parametrize("name", list(THREAD_RUNS))
def test_one_spatial_model_in_four_threads_equals_a_serial_run(name):
    """The same model object run by 4 threads released together (a barrier) gives the serial
    run's status, times, poses, velocities, joint coordinates and reactions bit for bit: every
    run allocates its own workspace and the model's arrays are read-only."""
    make, options = THREAD_RUNS[name]
    m = make()
    if "load_steps" in options:
        run = lambda: rancf.static(m, **options)            # noqa: E731
    else:
        run = lambda: rancf.simulate(m, check_stability=False, **options)   # noqa: E731
    serial = run()
    assert serial.status == "ok", serial.message
    for res in in_threads(run):
        assert res.status == serial.status, res.message
        for array in ("t", "nodes", "velocities", "joint_q", "reactions"):
            np.testing.assert_array_equal(getattr(res, array), getattr(serial, array))


# --- Ctrl-C ------------------------------------------------------------------------------------
T_STOP = 0.01005                # s: the functions below send SIGINT at the first call after it

#: (method, formulation): every stepping loop that calls a spatial model's functions
RUNS = [("rk4", "auto"), ("dopri5", "auto"), ("scipy:RK45", "auto"),
        ("generalized-alpha", "auto"), ("newmark", "dae")]


def interrupting(value):
    """A function of t (and q, qd for an effort) returning ``value`` (or its value at the
    arguments, if callable) that sends SIGINT to this process at its first call after
    T_STOP."""
    sent = []

    def f(t, *state):
        if t > T_STOP and not sent:
            sent.append(t)
            os.kill(os.getpid(), signal.SIGINT)
        return value(t, *state) if callable(value) else value
    return f


def with_function(where, make, with_cable):
    """A beam (or a cable clamped to a hub) on a revolute about z whose ``where`` ("drive",
    "effort", "force") function is ``make(value)``, under gravity."""
    m = rancf.Model(dim=3, gravity=(0, 0, -9.81))
    root = m.ground.point(0, 0, 0)
    if with_cable:
        c = m.add_beam(1.0, 4, **CABLE)
        hub = m.add_rigid_body(1.0, np.diag([0.01, 0.02, 0.03]), position=(0, 0, 0))
        m.add_joint("fixed", hub.centre, c.start)
        start, end = hub.centre, c.end
    else:
        b = m.add_beam(1.0, 2, E=5e6, rho=7800.0, A=1e-4, I=(1e-9, 1e-9), J=2e-9, G=2e6,
                       direction=(1, 0, 0), up=(0, 0, 1))
        start, end = b.start, b.end
    options = {"drive": make(lambda t: (0.5 * t * t, t, 1.0))} if where == "drive" else \
        {"effort": make(lambda t, q, qd: -0.01 * qd)} if where == "effort" else {}
    m.add_joint("revolute", root, start, axis=(0, 0, 1), **options)
    if where == "force":
        m.add_force(end, force=make((0.0, -1.0, 0.0)))
    return m


@pytest.mark.parametrize("with_cable", [False, True], ids=["beam", "cable"])
@pytest.mark.parametrize("where", ["drive", "effort", "force"])
@pytest.mark.parametrize("method, formulation", RUNS, ids=[f"{m}-{f}" for m, f in RUNS])
def test_ctrl_c_in_a_spatial_user_function_interrupts_the_run(where, method, formulation,
                                                              with_cable):
    """Status "interrupted" (no error kept) with the outputs before the Ctrl-C, which are those
    of the same model run to their last time (its functions send nothing before T_STOP)."""
    def run(t_end):
        return rancf.simulate(with_function(where, interrupting, with_cable), t_end, 1e-4,
                              method=method, formulation=formulation, output_every=10,
                              check_stability=False)
    res = run(0.03)
    assert res.status == "interrupted", res.message
    assert "Ctrl-C" in res.message and res.error is None
    assert 1 < len(res.t) and res.t[-1] <= T_STOP + 1e-4
    if method not in ("dopri5", "scipy:RK45"):       # adaptive: steps depend on t_end
        full = run(round(float(res.t[-1]), 10))
        assert full.status == "ok", full.message
        np.testing.assert_array_equal(res.nodes, full.nodes[:len(res.t)])


@pytest.mark.parametrize("with_cable", [False, True], ids=["beam", "cable"])
@pytest.mark.parametrize("where", ["drive", "effort", "force"])
@pytest.mark.parametrize("method, formulation", RUNS, ids=[f"{m}-{f}" for m, f in RUNS])
def test_ctrl_c_during_a_spatial_set_up_leaves_the_model_whole(where, method, formulation,
                                                               with_cable):
    """Ctrl-C at the first evaluation of an input (the set-up: the formulation, the initial
    state; or the loop's first evaluation): KeyboardInterrupt, or a Result "interrupted" with
    at most the initial state. Either way the same model object then runs to the outputs of a
    fresh model whose function never interrupts, bit for bit."""
    args = dict(t_end=0.002, dt=1e-4, method=method, formulation=formulation, output_every=5,
                check_stability=False)
    m = with_function(where, first_call_interrupts, with_cable)
    try:
        cut = rancf.simulate(m, **args)
    except KeyboardInterrupt:
        cut = None
    again = rancf.simulate(m, **args)
    fresh = rancf.simulate(with_function(where, never_interrupts, with_cable), **args)
    assert again.status == fresh.status == "ok", (again.message, fresh.message)
    for array in ("t", "nodes", "velocities"):
        np.testing.assert_array_equal(getattr(again, array), getattr(fresh, array))
    if cut is not None:
        assert cut.status == "interrupted" and len(cut.t) <= 1, cut.message
        np.testing.assert_array_equal(cut.nodes, fresh.nodes[:len(cut.t)])
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


@pytest.mark.parametrize("method, formulation", [("rk4", "auto"), ("scipy:RK45", "auto"),
                                                 ("generalized-alpha", "auto"),
                                                 ("newmark", "dae")])
def test_ctrl_c_at_random_moments_of_a_spatial_run(method, formulation):
    """Python's Ctrl-C handler called by a CPU-time timer (ITIMER_PROF: where it fires does not
    depend on the machine's load) at random fractions of the CPU a clean run of the cable on a
    hub takes, from the set-up to past its end: KeyboardInterrupt, or "interrupted" with the
    clean run's first outputs, or (too late) the clean run."""
    make = lambda: with_function("force", never_interrupts, True)      # noqa: E731
    args = dict(t_end=0.2, dt=1e-4, method=method, formulation=formulation, output_every=100,
                check_stability=False)
    clean = rancf.simulate(make(), **args)
    assert clean.status == "ok", clean.message
    cpu = time.process_time()
    rancf.simulate(make(), **args)
    cpu = time.process_time() - cpu
    for u in np.random.default_rng(11).uniform(0.0, 1.2, 6):
        assert_a_prefix(run_with_timer(make(), args, max(u * cpu, 1e-6)), clean)
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def counted_cantilever(send_at=None, with_cable=False):
    """A spatial cantilever (beam or cable) under gravity and a load function at its middle
    node that counts its calls and sends SIGINT at call number ``send_at``; and the calls."""
    m = rancf.Model(dim=3, gravity=(0.0, -9.81, 0.0))
    if with_cable:
        b = m.add_beam(1.0, 6, **CABLE)
    else:
        b = m.add_beam(1.0, 6, E=2e8, rho=7800.0, A=1e-3, I=(1e-7, 1e-7), J=2e-7, G=2e8 / 2.6,
                       direction=(1.0, 0.0, 0.0), up=(0.0, 1.0, 0.0))
    m.add_joint("fixed", m.ground.point(0.0, 0.0, 0.0), b.start)
    calls = []

    def force(t):
        calls.append(t)
        if len(calls) == send_at:
            os.kill(os.getpid(), signal.SIGINT)
        return (0.0, 0.0, 0.1)
    m.add_force(b.node(3), force=force)
    return m, calls


@pytest.mark.parametrize("with_cable", [False, True], ids=["beam", "cable"])
def test_ctrl_c_in_a_load_while_a_spatial_equilibrium_is_mapped_keeps_it(with_cable):
    """The last calls of the load function of a spatial static solve come after its load
    steps, while the equilibrium is mapped to the outputs (poses, reactions, energies): a
    Ctrl-C at the last of them returns the equilibrium of a clean solve bit for bit with status
    "interrupted" (it raised KeyboardInterrupt, losing the equilibrium)."""
    clean_model, calls = counted_cantilever(with_cable=with_cable)
    clean = rancf.static(clean_model, load_steps=4)
    assert clean.status == "ok" and len(calls) > 1
    m, _ = counted_cantilever(send_at=len(calls), with_cable=with_cable)
    res = rancf.static(m, load_steps=4)
    assert res.status == "interrupted" and "Ctrl-C" in res.message, res.message
    assert float(res.extra["load_factor"][0]) == 1.0
    for array in ("nodes", "joint_q", "reactions"):
        np.testing.assert_array_equal(getattr(res, array), getattr(clean, array))


@pytest.mark.parametrize("kind", ["planar", "spatial loop"])
def test_ctrl_c_while_a_dae_equilibrium_is_mapped_keeps_it(monkeypatch, kind):
    """The same on the planar DAE and the spatial DAE (a closed loop), whose functions are not
    called again after the load steps: the SIGINT is sent as their ``observe`` begins."""
    if kind == "planar":
        from rancf.formulations.dae import DAE as formulation
        m = rancf.Model(gravity=(0.0, -9.81), elastic_model="reissner")
        b = m.add_beam(1.0, 4, 2e8, 7800.0, 1e-3, 1e-7)
        m.add_joint("fixed", m.ground.point(0, 0), b.start)
    else:
        from rancf.formulations.spatial_dae import SpatialDAE as formulation
        m = pinned_twice(6)
    clean = rancf.static(m, load_steps=2)
    observe = formulation.observe

    def interrupting_observe(self, *args, **kwargs):
        os.kill(os.getpid(), signal.SIGINT)
        return observe(self, *args, **kwargs)

    monkeypatch.setattr(formulation, "observe", interrupting_observe)
    res = rancf.static(m, load_steps=2)
    assert clean.status == "ok" and res.status == "interrupted", res.message
    for array in ("nodes", "joint_q", "reactions"):
        np.testing.assert_array_equal(getattr(res, array), getattr(clean, array))


@pytest.mark.parametrize("make", [lambda: counted_cantilever()[0],
                                  lambda: counted_cantilever(with_cable=True)[0],
                                  lambda: pinned_twice(40)],
                         ids=["recursion", "cable", "loop"])
def test_ctrl_c_from_a_timer_during_spatial_statics_returns_a_result(make):
    """A SIGINT from a timer thread lands wherever a long spatial static solve is (Newton,
    GMRES, a kernel, between load steps): a Result "interrupted" whose load factor counts the
    load steps whose iterations it records, at a finite equilibrium."""
    m = make()
    timer = threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    try:
        res = rancf.static(m, load_steps=100000)
    finally:
        timer.cancel()
    assert res.status == "interrupted", res.message
    s = float(res.extra["load_factor"][0])
    done = round(s * 100000)
    assert s == done / 100000 and np.count_nonzero(res.extra["iterations"][0]) == done
    assert np.all(np.isfinite(res.nodes))


# --- memory ------------------------------------------------------------------------------------
def estimate_in(message):
    """The total estimate (bytes) a MemoryError names."""
    found = re.search(r"needs about ([\d.e+]+) GiB", str(message))
    assert found, message
    return float(found.group(1)) * GIB


def ten_million(element="beam", loop=False):
    """Two beams (or cables) of 833,333 elements end to end, 1,666,668 nodes: 10,000,008
    coordinates in the spatial recursion (6 a node), not built; ``loop`` pins the far end."""
    m = rancf.Model(dim=3)
    prev = m.ground.point(0, 0, 0)
    for k in range(2):
        if element == "beam":
            b = beam(m, 1.0, 833_333, start=(k, 0.0, 0.0))
        else:
            b = m.add_beam(1.0, 833_333, start=(k, 0.0, 0.0), **CABLE)
        m.add_joint("spherical" if element != "beam" or not k else "fixed", prev, b.start)
        prev = b.end
    if loop:
        m.add_joint("spherical", m.ground.point(2, 0, 0), prev)
    return m


@functools.lru_cache(maxsize=1)
def huge(model):
    """:func:`ten_million` of ``model`` ("beam", "cable", "loop"), kept for the next test (the
    cases below come model by model: one such model, hundreds of MB of items, alive at a
    time)."""
    return ten_million("cable") if model == "cable" else ten_million(loop=model == "loop")


@pytest.fixture(scope="module")
def huge_models():
    """:func:`huge`, its last model let go after the module's tests."""
    yield huge
    huge.cache_clear()


@pytest.mark.parametrize("model, method, formulation, coordinates", [
    ("beam", "rk4", "auto", "10,000,008"), ("beam", "dopri5", "auto", "10,000,008"),
    ("beam", "generalized-alpha-s", "auto", "10,000,008"),
    ("beam", "newmark", "dae", "11,666,676"), ("beam", "static", None, "10,000,008"),
    ("cable", "rk4", "auto", "10,000,008"), ("cable", "newmark", "auto", "10,000,008"),
    ("cable", "static", None, "10,000,008"), ("loop", "newmark", "auto", "11,666,676"),
    ("loop", "static", None, "11,666,676")])
def test_ten_million_spatial_coordinates_are_refused_before_the_build(
        monkeypatch, huge_models, model, method, formulation, coordinates):
    """The MemoryError names the coordinates and an estimate at least the state's own size
    (6 or 7 coordinates and 6 velocities a node, 8 bytes each: a lower bound counted here), and
    comes before the model is built (the build alone allocates gigabytes: the recursion's runs
    and statics died of numpy's MemoryError after it). Statics, which has no max_memory, is
    refused against the memory available, here said to be 16 GiB."""
    m = huge_models(model)
    with pytest.raises(MemoryError, match=f"{coordinates} coordinates") as info:
        if method == "static":
            monkeypatch.setattr(simulate_module, "available_memory", lambda: 16 * GIB)
            rancf.static(m)
        else:
            rancf.simulate(m, 1e-3, 1e-4, method=method, formulation=formulation,
                           check_stability=False, max_memory=4 * GIB)
    assert estimate_in(info.value) >= 8.0 * 12 * 1_666_668
    assert ("only 16 GiB are available" if method == "static" else
            "max_memory allows 4 GiB") in str(info.value)
    assert m._assembly is None


@pytest.mark.parametrize("element", ["beam", "cable"])
@pytest.mark.parametrize("method", ["rk4", "newmark", "static"])
def test_the_spatial_recursions_estimate_bounds_what_it_allocates(element, method):
    """The estimate of a run on the spatial recursion (and of its statics) against the peak
    of what it allocates, its tree's build included (tracemalloc), on 2,000 elements."""
    m = rancf.Model(dim=3)
    if element == "beam":
        b = beam(m, 1.0, 2000)
    else:
        b = m.add_beam(1.0, 2000, **CABLE)
    m.add_joint("fixed" if method == "static" else "spherical", m.ground.point(0, 0, 0),
                b.start)
    nodes = 2001
    n_out = 1 if method == "static" else 3          # as simulate counts them: at least those kept
    estimate = (simulate_module.spatial_workspace_memory(nodes, "newton" if method == "static"
                                                         else method, False)
                + 2 * 8 * n_out * (18 * nodes + 3 * 6 + 8))
    tracemalloc.start()
    try:
        if method == "static":
            res = rancf.static(m, load_steps=1, max_iter=2)
        else:
            res = rancf.simulate(m, 2e-9, 1e-9, method=method, output_every=1000,
                                 check_stability=False)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert 1 <= len(res.t) <= n_out
    assert peak <= estimate, (peak, estimate)


def cable_with_a_body(clamped, n=500):
    """A cable of n elements on a spherical joint to the ground with a 1 kg body at its far
    end: ``clamped`` by a fixed joint (the recursion runs no body clamped to a cable point:
    the spatial DAE runs it) or on a spherical joint (the recursion runs it); one size."""
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -9.81))
    c = m.add_beam(1.0, n, **CABLE)
    m.add_joint("spherical", m.ground.point(0, 0, 0), c.start)
    b = m.add_rigid_body(1.0, np.eye(3) * 1e-3, position=(1.0, 0.0, 0.0))
    m.add_joint("fixed" if clamped else "spherical", c.end, b.centre)
    return m


@pytest.mark.parametrize("method", ["newmark", "static"])
def test_a_cable_model_that_runs_the_dae_is_refused_on_the_daes_estimate(monkeypatch, method):
    """``formulation="auto"`` with an implicit method (and statics) on a cable model the
    recursion cannot run (a body clamped to a cable point) runs the spatial DAE, about twice
    the recursion's memory: under a limit between the two estimates (read from the
    MemoryErrors at 1 byte) the same-size model the recursion runs passes the check and runs,
    and this one is refused on the DAE's estimate before the model is built and before any
    SpatialDAE is made (it ran the DAE past a check of the recursion's before)."""
    def limited(m, limit):
        if method == "static":
            monkeypatch.setattr(simulate_module, "available_memory", lambda: limit)
            return rancf.static(m, load_steps=1)
        return rancf.simulate(m, 1e-3, 1e-3, method=method, max_memory=limit)

    with pytest.raises(MemoryError, match="spatial recursion") as info:
        limited(cable_with_a_body(False), 1)
    recursion = estimate_in(info.value)
    with pytest.raises(MemoryError, match="spatial DAE") as info:
        limited(cable_with_a_body(True), 1)
    dae = estimate_in(info.value)
    assert dae >= 1.5 * recursion
    limit = np.sqrt(recursion * dae)
    if method != "static":
        assert limited(cable_with_a_body(False), limit).status == "ok"
    m = cable_with_a_body(True)

    def no_dae(*args, **kwargs):
        raise AssertionError("a SpatialDAE was made past the memory check")

    monkeypatch.setattr(simulate_module, "SpatialDAE", no_dae)
    with pytest.raises(MemoryError, match="spatial DAE"):
        limited(m, limit)
    assert m._assembly is None
    assert rancf.formulations.spatial.cable_refusal(m.build())      # it does run the DAE


def cable_models():
    """Spatial models with cables, each joined as its name says."""
    def body(m, x):
        return m.add_rigid_body(1.0, np.eye(3) * 1e-3, position=(x, 0.0, 0.0))

    def hung(kind="spherical"):
        m = rancf.Model(dim=3)
        c = m.add_beam(1.0, 4, **CABLE)
        m.add_joint(kind, m.ground.point(0, 0, 0), c.start)
        return m, c

    def clamped():
        return hung("fixed")[0]

    def body_hung(kind):
        m, c = hung()
        m.add_joint(kind, c.end, body(m, 1.0).centre)
        return m

    def from_a_body():
        m = rancf.Model(dim=3)
        b = body(m, 0.0)
        m.add_joint("spherical", m.ground.point(0, 0, 0), b.centre)
        m.add_joint("fixed", b.centre, m.add_beam(1.0, 4, **CABLE).start)
        return m

    def on_a_cable():
        m, c = hung()
        m.add_joint("spherical", c.end, m.add_beam(1.0, 4, start=(1, 0, 0), **CABLE).start)
        return m

    def both_ends():
        m, c = hung()
        m.add_joint("spherical", m.ground.point(1, 0, 0), c.end)
        return m

    def ring():
        m = rancf.Model(dim=3)
        s = np.linspace(0, 2 * np.pi, 9)
        c = m.add_beam(n_elements=8, points=np.column_stack([np.cos(s), np.sin(s), 0 * s]),
                       tangents=np.column_stack([-np.sin(s), np.cos(s), 0 * s]), **CABLE)
        m.add_joint("spherical", m.ground.point(1, 0, 0), c.start)
        m.add_joint("spherical", c.start, c.end)
        return m

    def hung_body_held():
        m, c = hung()
        b = body(m, 1.0)
        m.add_joint("spherical", c.end, b.centre)
        m.add_joint("spherical", m.ground.point(1, 0, 0), b.centre)
        return m

    return {"clamped": clamped, "body on a spherical": lambda: body_hung("spherical"),
            "body clamped": lambda: body_hung("fixed"), "from a body": from_a_body,
            "on a cable": on_a_cable, "both ends": both_ends, "ring": ring,
            "hung body held": hung_body_held}


@pytest.mark.parametrize("name", list(cable_models()))
def test_whether_a_cable_model_runs_the_dae_is_read_from_its_items(name):
    """``spatial_dae_likely`` (the items, before the build) against the built tree: a closed
    loop, or a cable joint the recursion refuses (``cable_refusal``)."""
    m = cable_models()[name]()
    tree = m.build()
    runs_dae = bool(len(tree.loop_joint) or rancf.formulations.spatial.cable_refusal(tree))
    assert simulate_module.spatial_dae_likely(m) == runs_dae


# --- parameters --------------------------------------------------------------------------------
@pytest.mark.parametrize("make, base", [
    (chain, dict(method="rk4")), (chain, dict(method="generalized-alpha-s")),
    (chain, dict(method="newmark", formulation="dae")), (lambda: cable(4), dict(method="rk4")),
    (lambda: SphericalFourBar().rigid()[0], dict(method="newmark"))],
    ids=["rk4", "implicit", "dae", "cable", "loop"])
@pytest.mark.parametrize("option, value", [
    ("rtol", -5.0), ("atol", float("nan")), ("max_memory", -1.0), ("max_memory", 1),
    ("max_displacement", -1.0), ("check_stability", "nonsense"), ("output_every", 0),
    ("t_end", 1e308), ("dt", 5e-324), ("tol", 1e308), ("max_iter", 0), ("rho_inf", 2.0),
    ("projection", 1), ("formulation", "nonsense"), ("method", "nonsense")])
def test_every_option_is_checked_on_spatial_models(make, base, option, value):
    """A ValueError or TypeError naming the parameter (a MemoryError for a max_memory too
    small: one byte), whichever run the option applies to, or does not."""
    options = dict(t_end=0.01, dt=1e-4, output_every=1, **base)
    options[option] = value
    with pytest.raises((ValueError, TypeError, MemoryError)) as info:
        rancf.simulate(make(), **options)
    assert option in str(info.value) or (info.type is MemoryError and value == 1)


def test_statics_checks_its_linear_solver_on_spatial_models():
    """A spatial model's static solve names an unknown linear solver (it ignored it)."""
    with pytest.raises(ValueError, match="linear_solver"):
        rancf.static(cantilever(4), linear_solver="nonsense")
    with pytest.raises(ValueError, match="linear_solver"):
        rancf.static(pinned_twice(4), linear_solver="nonsense")


@pytest.mark.parametrize("with_cable", [False, True], ids=["beam", "cable"])
@pytest.mark.parametrize("where", ["drive", "effort", "force"])
@pytest.mark.parametrize("bad", ["complex", "nan", "text"])
@pytest.mark.parametrize("method, formulation", [("rk4", "auto"), ("newmark", "auto"),
                                                 ("newmark", "dae")])
def test_a_spatial_function_returning_no_real_number_fails_the_run_clearly(
        where, bad, method, formulation, with_cable):
    """A complex, a NaN or a numeric string from a drive, effort or load function (after
    T_STOP): status "failed" with a ValueError saying the function must return finite numbers;
    the outputs before it are kept."""
    turn = {"complex": lambda v: np.asarray(v, dtype=float) + 1j,
            "nan": lambda v: np.asarray(v, dtype=float) * np.nan,
            "text": lambda v: tuple(str(x) for x in np.atleast_1d(v))}[bad]

    def make(value):
        def f(t, *state):
            v = value(t, *state) if callable(value) else value
            return turn(v) if t > T_STOP else v
        return f
    res = rancf.simulate(with_function(where, make, with_cable), 0.02, 1e-4, method=method,
                         formulation=formulation, output_every=10, check_stability=False)
    assert res.status == "failed"
    assert isinstance(res.error, ValueError) and "must return" in str(res.error)
    assert "finite number" in str(res.error)
    assert 1 < len(res.t) and res.t[-1] <= T_STOP + 1e-4


# --- BLAS threads ------------------------------------------------------------------------------
def test_one_blas_thread_holds_in_a_worker_thread():
    """The real libraries (threadpoolctl's controllers): once a run in this thread has set and
    restored BLAS's count, a run in another thread still gets one thread, and the count is
    restored after it (threadpoolctl ignored the other thread's limit: it let the first thread
    to set OpenBLAS's count keep the control)."""
    from threadpoolctl import ThreadpoolController, threadpool_limits

    from rancf.formulations.spatial_dae import one_blas_thread
    libs = ThreadpoolController().select(user_api="blas").lib_controllers
    if not libs:
        pytest.skip("no BLAS library that threadpoolctl controls")
    with threadpool_limits(limits=2, user_api="blas"):
        before = [lib.get_num_threads() for lib in libs]
        assert before == [2] * len(libs)
        with one_blas_thread():
            pass
        seen = []

        def worker():
            with one_blas_thread():
                seen.append([lib.get_num_threads() for lib in libs])
            seen.append([lib.get_num_threads() for lib in libs])

        thread = threading.Thread(target=worker)
        thread.start()
        thread.join()
        assert seen == [[1] * len(libs), before]
