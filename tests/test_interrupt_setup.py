"""Ctrl-C during a run's set-up and inside a dense factorization (issue 26, finding 2).

Before the stepping loop there is no Result to return: Ctrl-C raises KeyboardInterrupt, and the
model is left whole (a second run of it equals a run of a fresh copy, bit for bit); a static
start (``state="static"``) interrupted raises KeyboardInterrupt too, not the ValueError of an
equilibrium not found. Once the loop has begun, the run returns "interrupted" with a prefix of
the clean run's outputs. A dense LU of thousands of unknowns looks at Ctrl-C between its blocks.

The interrupts are real signals at controlled points, never a wall-clock delay: SIGINT sent by a
user function at a chosen call (its first, in the set-up or the loop's first evaluation; or
halfway through a static solve), SIGINT sent by this process to a child once the child reports
its first step begun, and a CPU-time timer (``ITIMER_PROF``: it counts the process's own CPU,
so where it fires does not depend on the machine's load) calling Python's Ctrl-C handler.
"""
import os
import signal
import subprocess
import sys
import textwrap
import time
import traceback
from pathlib import Path

import numpy as np
import pytest
import scipy.linalg as sla

import rancf
from rancf.formulations._dae import lu_factor
from user_function_models import (RUNS, assert_a_prefix, first_call_interrupts, model,
                                  never_interrupts, run_with_timer)

ROOT = Path(__file__).resolve().parent.parent


def cantilever(make):
    """A beam held on a revolute joint by a stiff spring, ``make(spring)``: a function of
    (t, q, qd) that returns the spring's effort ``-1e3 q`` (N m), under gravity: its static
    equilibrium is found in the default load steps (a start for ``state="static"``)."""
    m = rancf.Model(gravity=(0.0, -9.81), elastic_model="reissner")
    b = m.add_beam(1.0, 4, 2e8, 7800.0, 1e-3, 1e-7)
    m.add_joint("revolute", m.ground.point(0, 0), b.start,
                effort=make(lambda t, q, qd: -1e3 * q))
    return m


def interrupted_run(m, args):
    """Run ``m``, whose input sends SIGINT at its first call: None when the run raised
    KeyboardInterrupt (the call was in the set-up), else its Result, which must be
    "interrupted" (the call was the stepping loop's first evaluation)."""
    try:
        res = rancf.simulate(m, **args)
    except KeyboardInterrupt:
        return None
    assert res.status == "interrupted" and "Ctrl-C" in res.message, res.message
    return res


def assert_same_run(a, b):
    assert a.status == b.status == "ok", (a.message, b.message)
    np.testing.assert_array_equal(a.t, b.t)
    np.testing.assert_array_equal(a.nodes, b.nodes)
    np.testing.assert_array_equal(a.velocities, b.velocities)


@pytest.mark.parametrize("where", ["drive", "effort", "force"])
@pytest.mark.parametrize("method, formulation", RUNS, ids=[f"{m}-{f}" for m, f in RUNS])
def test_ctrl_c_during_set_up_raises_and_leaves_the_model_whole(where, method, formulation):
    """Ctrl-C at the first evaluation of an input: in the set-up (the initial state, the
    stability check) KeyboardInterrupt, not a failed Result; in the loop's first evaluation a
    Result "interrupted" holding at most the initial state. Either way the same model object
    then runs (its function sends no more) to the outputs of a fresh model whose function never
    interrupts, bit for bit, which start with the interrupted run's."""
    m = model(where, first_call_interrupts)
    args = dict(t_end=0.002, dt=1e-4, method=method, formulation=formulation, output_every=5)
    cut = interrupted_run(m, args)
    again, fresh = rancf.simulate(m, **args), rancf.simulate(model(where, never_interrupts), **args)
    assert_same_run(again, fresh)
    if cut is not None:
        assert len(cut.t) <= 1
        np.testing.assert_array_equal(cut.nodes, fresh.nodes[:len(cut.t)])
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def call_interrupts(k):
    """``make(value)`` of a function that sends SIGINT to this process at its k-th call."""
    def make(value):
        def f(t, *state):
            f.calls += 1
            if f.calls == k:
                os.kill(os.getpid(), signal.SIGINT)
            return value(t, *state)
        f.calls = 0
        return f
    return make


@pytest.mark.parametrize("method, formulation", RUNS, ids=[f"{m}-{f}" for m, f in RUNS])
def test_ctrl_c_during_the_static_start_raises_keyboard_interrupt(method, formulation):
    """``state="static"``: Ctrl-C halfway through the search of the equilibrium (at the
    spring's call halfway through the calls of a clean ``rancf.static``) raises
    KeyboardInterrupt (it raised the ValueError of an equilibrium not found); the model then
    starts from its equilibrium as a fresh one does."""
    counted = cantilever(call_interrupts(0))
    assert rancf.static(counted).status == "ok"
    half = counted.joints[0].effort.calls // 2
    m = cantilever(call_interrupts(half))
    args = dict(t_end=0.002, dt=1e-4, method=method, formulation=formulation, output_every=5,
                state="static")
    with pytest.raises(KeyboardInterrupt):
        rancf.simulate(m, **args)
    assert_same_run(rancf.simulate(m, **args), rancf.simulate(cantilever(never_interrupts),
                                                              **args))


def spatial_cantilever(make):
    """A spatial cantilever under gravity and a tip force ``make(force)(t)``, a function of t
    returning 0.1 N along z."""
    m = rancf.Model(dim=3, gravity=(0.0, -9.81, 0.0))
    b = m.add_beam(1.0, 4, E=2e8, rho=7800.0, A=1e-3, I=(1e-7, 1e-7), J=2e-7, G=2e8 / 2.6,
                   direction=(1.0, 0.0, 0.0), up=(0.0, 1.0, 0.0))
    m.add_joint("fixed", m.ground.point(0.0, 0.0, 0.0), b.start)
    m.add_force(b.end, force=make(lambda t: (0.0, 0.0, 0.1)))
    return m


@pytest.mark.parametrize("method", ["rk4", "generalized-alpha"])
def test_ctrl_c_during_a_spatial_static_start_raises_keyboard_interrupt(method):
    """The spatial static start (``state="static"``) under Ctrl-C at the force's first call,
    inside its first load step: KeyboardInterrupt (it was the ValueError of an equilibrium
    not found); the model then runs as a fresh one."""
    args = dict(t_end=0.002, dt=1e-4, method=method, output_every=5, state="static")
    m = spatial_cantilever(call_interrupts(1))
    with pytest.raises(KeyboardInterrupt):
        rancf.simulate(m, **args)
    assert_same_run(rancf.simulate(m, **args),
                    rancf.simulate(spatial_cantilever(never_interrupts), **args))


@pytest.mark.parametrize("n", [300, 2049])
def test_dense_lu_factors_as_lapack_does(n):
    """The factors of dense_lu (one dgetrf call up to 2048 unknowns; by blocks beyond: 2049 is
    eight panels and a last one of one column) against an independent check: ``P A = L U``
    rebuilt from them to rounding, the same pivots as scipy's dgetrf (the matrix is random: no
    ties), and the solve of a system against numpy's; a singular matrix reports its first zero
    pivot (here in the last panel)."""
    rng = np.random.default_rng(n)
    A = rng.standard_normal((n, n))
    lu, piv, info = lu_factor(A)
    assert info == 0
    L, U = np.tril(lu, -1) + np.eye(n), np.triu(lu)
    PA = A.copy()
    for i, p in enumerate(piv):
        PA[[i, p]] = PA[[p, i]]
    assert np.abs(PA - L @ U).max() <= 1e-13 * np.abs(A).max() * n
    np.testing.assert_array_equal(piv, sla.lu_factor(A, check_finite=False)[1])
    b = rng.standard_normal(n)
    x, y = sla.lu_solve((lu, piv), b), np.linalg.solve(A, b)
    # two solves, each exact for A and b perturbed by its normwise backward error
    # eta = |b - A x| / (|A| |x| + |b|) (inf-norms, Higham 2002, thm. 7.1), each within
    # 2 kappa eta / (1 - kappa eta) of the exact solution (thm. 7.2, E = A and f = b)
    kappa = np.linalg.cond(A, np.inf)
    norm_A = np.abs(A).sum(axis=1).max()

    def forward_error(z):
        eta = np.abs(b - A @ z).max() / (norm_A * np.abs(z).max() + np.abs(b).max())
        return 2 * kappa * eta / (1 - kappa * eta)
    gap = forward_error(x) + forward_error(y)
    np.testing.assert_allclose(x, y, rtol=0, atol=gap * np.abs(x).max() / (1 - forward_error(x)))
    A[:, n - 40] = 0.0
    assert lu_factor(A)[2] == n - 39


def test_ctrl_c_inside_a_large_dense_factorization_stops_it():
    """A KeyboardInterrupt raised by a signal handler after 0.05 s of this process's CPU
    (ITIMER_PROF), within a factorization of 3000 unknowns (about 18 GFlop, a second or more
    of CPU), comes out of dense_lu itself, between two of its blocks (a single dgetrf call
    would have run to its end)."""
    A = np.random.default_rng(1).standard_normal((3000, 3000))
    old = signal.signal(signal.SIGPROF, signal.default_int_handler)
    try:
        signal.setitimer(signal.ITIMER_PROF, 0.05)
        with pytest.raises(KeyboardInterrupt) as caught:
            lu_factor(A)
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0.0)
        signal.signal(signal.SIGPROF, old)
    assert traceback.extract_tb(caught.tb)[-1].name.endswith("dense_lu")


CHILD = textwrap.dedent("""
    import sys
    import rancf

    def drive(t):
        # the first call of a step: the step's Newton matrix (dense, 2,400 unknowns) follows
        if t > 0 and not drive.told:
            drive.told = True
            print("step", flush=True)
        return 0.5 * t * t, t, 1.0
    drive.told = False
    m = rancf.Model(gravity=(0.0, -9.81))
    b = m.add_beam(1.0, 600, 2e8, 7800.0, 1e-3, 1e-7)
    m.add_joint("revolute", m.ground.point(0, 0), b.start, drive=drive)
    res = rancf.simulate(m, 0.002, 1e-3, method="generalized-alpha", formulation="dae",
                         linear_solver="dense", jacobian="every-iteration")
    print(res.status, res.stats["nlu"], res.stats["newton_iterations"], len(res.t), flush=True)
""")


def test_sigint_during_a_dense_step_interrupts_it_before_its_factorization_ends():
    """A child process runs a dense DAE of 2,400 unknowns; SIGINT is sent once it reports its
    first step begun (its drive's first call there, just before the step's factorization): the
    run returns status "interrupted" with its initial output, having made only the start's
    factorization (the step's was stopped inside: before, it ran to its end and the step's
    first Newton iteration was counted)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), OPENBLAS_NUM_THREADS="1")
    child = subprocess.Popen([sys.executable, "-c", CHILD], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, cwd=ROOT, env=env)
    try:
        assert child.stdout.readline().strip() == "step", child.stderr.read()
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=600)
    finally:
        if child.poll() is None:
            child.kill()
    assert child.returncode == 0, err
    status, nlu, iterations, outputs = out.split()
    assert (status, int(nlu), int(iterations), int(outputs)) == ("interrupted", 1, 0, 1)


def plain_force(value):
    """A load function returning ``value``: nothing interrupts it."""
    def f(t, *state):
        return value
    return f


@pytest.mark.parametrize("method, formulation", [
    ("rk4", "recursive"), ("scipy:RK45", "recursive"), ("generalized-alpha", "recursive"),
    ("generalized-alpha", "dae")])
def test_ctrl_c_at_random_moments_gives_a_prefix_or_a_clean_interrupt(method, formulation):
    """Ctrl-C at random moments of a run (Python's Ctrl-C handler called by a CPU-time timer,
    at random fractions of the CPU a clean run takes, from the set-up to past the last
    output): the run raises KeyboardInterrupt, or returns "interrupted" with outputs equal to
    the first outputs of the clean run, or (the timer too late) equals the clean run."""
    args = dict(t_end=1.0, dt=1e-4, method=method, formulation=formulation, output_every=100)
    clean = rancf.simulate(model("force", plain_force), **args)    # caches filled
    cpu = time.process_time()
    assert rancf.simulate(model("force", plain_force), **args).status == "ok"
    cpu = time.process_time() - cpu
    assert clean.status == "ok", clean.message
    for u in np.random.default_rng(7).uniform(0.0, 1.2, 6):
        assert_a_prefix(run_with_timer(model("force", plain_force), args, max(u * cpu, 1e-6)),
                        clean)
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_ctrl_c_inside_a_load_while_outputs_are_computed_is_a_ctrl_c():
    """A Ctrl-C that arrives inside a load function while the recursion computes the outputs
    after an explicit run (the function's second call at t_end: RK4's last stage, then the
    last output) comes out as KeyboardInterrupt or an "interrupted" Result, not as the
    kernel's status error: evaluated again, the function would not raise."""
    t_end, calls = 0.01, []

    def make(value):
        def f(t, *state):
            if t == t_end:
                calls.append(t)
                if len(calls) == 2:
                    raise KeyboardInterrupt
            return value
        return f

    try:
        res = rancf.simulate(model("force", make), t_end, 1e-3, method="rk4",
                             formulation="recursive")
    except KeyboardInterrupt:
        res = None
    assert len(calls) >= 2
    assert res is None or res.status == "interrupted"
