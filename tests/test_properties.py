"""Property-based tests of the public API with hypothesis (issue 14).

Random valid models (tests/property_models.py: chains and trees of beams and rigid bodies on
revolute, prismatic, fixed and driven joints, branches off interior nodes, spring-damper and
constant efforts, constant and timed loads; four-bar loops, which run on the DAE), with E from
1e5 to 1e13 Pa and lengths from 1e-3 to 1e3 m, and random invalid arguments:

(a) on trees the recursive accelerations equal the DAE's dense saddle-point solve to 1e-9
    relative (at the initial state, which every formulation starts from);
(b) a short run of any method either finishes with finite results or stops with status
    "diverged" or "failed" and a message, within a time limit (no hang);
(b') such a run made by three threads at once gives each the serial run's outcome bit for bit
    (issue 26: one model shared by threads);
(c) an invalid argument to a public entry point raises ``ValueError`` or ``TypeError`` whose
    message names the parameter, never another exception and never a crash; a damaged result
    file raises a ``ValueError`` naming its path.

Profiles (select with the environment variable ``HYPOTHESIS_PROFILE``):

* ``ci`` (the default): 60 examples per property (120 for the cheap invalid-argument ones),
  derandomized (the same examples on every run, so CI is reproducible), no example database;
  the module runs in about 20 s.
* ``nightly``: 10,000 random examples per property (20,000 for the invalid arguments), about
  half an hour on one core, e.g.
  ``HYPOTHESIS_PROFILE=nightly python -m pytest -q tests/test_properties.py``; a failure prints
  the spec of the model (Python that rebuilds it) and a blob for ``@reproduce_failure``.

Defects the properties found are kept at the end as regression tests, each with its minimal
reproducer. A new one goes there as an ``xfail(strict=True)`` test, with the value class it
covers left out of the property (an ``assume``) until it is fixed; then both go.
"""
import functools
import io
import json
import math
import os
import re
import signal
import subprocess
import sys
import tempfile
import zipfile
from contextlib import contextmanager

import numpy as np
import pytest
from scipy.linalg import eigh
from hypothesis import HealthCheck, Phase, event, given, note, settings
from hypothesis import strategies as st

import rancf
from rancf.formulations import recursive
from rancf.formulations.dae import DAE
from run_contract import check_status, simulate_or_refused
from property_models import Item, Load, LoopSpec, ModelSpec, build

settings.register_profile(
    "ci", max_examples=60, deadline=None, derandomize=True, database=None,
    phases=[Phase.explicit, Phase.generate, Phase.shrink],
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.register_profile(
    "nightly", max_examples=10000, deadline=None, print_blob=True, database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

#: Examples of the cheap invalid-argument properties, relative to the profile's.
MANY = settings(max_examples=2 * settings.default.max_examples)


# --- random valid models ------------------------------------------------------------------------
def log_uniform(low, high):
    """Floats spread evenly in log between low and high (shrinking towards their geometric mean)."""
    a, b = math.log10(low), math.log10(high)
    mid = 0.5 * (a + b)
    return st.floats(a - mid, b - mid).map(lambda e: 10.0 ** (mid + e))


ANGLES = st.floats(-math.pi, math.pi)
#: Item lengths are the scale times a factor in [0.25, 4]: the scale keeps them in [1e-3, 1e3] m.
SCALES = log_uniform(4e-3, 250.0)


@st.composite
def items(draw, n_max=5):
    """Items jointed to the ground or to earlier items (the first, a beam, to the ground)."""
    out = []
    n = draw(st.integers(1, n_max))
    for i in range(n):
        kind = "beam" if i == 0 else draw(st.sampled_from(["beam", "body"]))
        parent = draw(st.integers(-1, i - 1)) if i else -1
        joint = draw(st.sampled_from(["revolute", "prismatic", "fixed"]))
        parent_is_node = parent >= 0 and out[parent].kind == "beam"
        drivable = joint == "revolute" or (joint == "prismatic" and not parent_is_node)
        driven = drivable and draw(st.booleans())
        effort = 0.0
        if joint != "fixed" and not driven:
            effort = draw(st.sampled_from([0.0, 0.0, 1.0, 10.0, -0.5, 2.0]))
        axis = draw(st.one_of(st.none(), ANGLES)) if joint == "prismatic" else None
        out.append(Item(kind=kind, parent=parent, at=draw(st.floats(0.0, 1.0)), joint=joint,
                        driven=driven, effort=effort, angle=draw(ANGLES),
                        size=draw(st.floats(0.25, 4.0)), n_elements=draw(st.integers(1, 3)),
                        axis=axis))
    return tuple(out)


@st.composite
def loads(draw, n_items):
    n = draw(st.integers(0, 2))
    return tuple(Load(item=draw(st.integers(0, n_items - 1)), at=draw(st.floats(0.0, 1.0)),
                      fx=draw(st.floats(-3.0, 3.0)), fy=draw(st.floats(-3.0, 3.0)),
                      moment=draw(st.floats(-1.0, 1.0)), timed=draw(st.booleans()))
                 for _ in range(n))


GRAVITY = st.one_of(st.just((0.0, -9.81)), st.just((0.0, 0.0)),
                    st.tuples(st.floats(-20.0, 20.0), st.floats(-20.0, 20.0)))


@st.composite
def trees(draw, n_max=5):
    """A :class:`ModelSpec` of a tree (chains are the trees without branches)."""
    its = draw(items(n_max))
    return ModelSpec(scale=draw(SCALES), E=draw(log_uniform(1e5, 1e13)),
                     rho=draw(log_uniform(300.0, 2e4)), slenderness=draw(log_uniform(3e-3, 0.1)),
                     elastic_model=draw(st.sampled_from(["shabana", "berzeri", "reissner"])),
                     gravity=draw(GRAVITY), damping=draw(st.sampled_from([0.0, 0.0, 1e-4])),
                     items=its, loads=draw(loads(len(its))))


@st.composite
def loops(draw):
    """A :class:`LoopSpec`: a four-bar linkage (closed loop), maybe driven, maybe with a mass."""
    return LoopSpec(scale=draw(SCALES), E=draw(log_uniform(1e5, 1e13)),
                    rho=draw(log_uniform(300.0, 2e4)), slenderness=draw(log_uniform(3e-3, 0.1)),
                    elastic_model=draw(st.sampled_from(["shabana", "berzeri", "reissner"])),
                    gravity=draw(GRAVITY), base=draw(st.floats(0.5, 2.0)),
                    crank=draw(st.floats(0.25, 1.0)), crank_angle=draw(st.floats(0.3, 2.8)),
                    rocker=draw(st.floats(0.25, 1.0)), rocker_angle=draw(st.floats(0.3, 2.8)),
                    n_elements=draw(st.integers(1, 3)), driven=draw(st.booleans()),
                    speed=draw(st.floats(-5.0, 5.0)), mass=draw(st.sampled_from([0.0, 3.0])))


# --- (a) accelerations ---------------------------------------------------------------------------
def dae_accelerations(dae, x, v, t):
    """Node accelerations of the index-3 DAE at a consistent state, and the scale of the terms
    that make them up (m/s^2 for positions, 1/s^2 for slopes).

    The accelerations solve the saddle-point system ``[[M, G^T], [G, 0]] [a, lambda] = [F, -xi]``
    (the DAE's Newton matrix at c_m = 1), equilibrated before a dense LU: the mass block to a
    unit diagonal, then each constraint row to a unit largest entry. Without that the system of
    a millimetre model (slope inertias of 1e-17 kg m^2 beside constraint rows of 1) defeats
    partial pivoting (see ``test_dae_solve_of_a_millimetre_tree``).

    The scale is the largest entry of a, ``M^-1 F``, ``M^-1 G^T lambda``, the least-norm a with
    ``G a = -xi``, and the centripetal and Coriolis terms ``w (w max(1 m, size) + |r'|)`` of
    the fastest turning direction (w = |u'| / |u| of a slope or body axis u) that a formulation
    in relative coordinates sums: round-off is relative to it, not to |a|, which cancellation may
    leave near 0 (a chain held against gravity; a drive's centripetal terms balanced by the
    stretch of a slope).
    """
    F = dae.force(x, v, t)
    xi = dae.acceleration_bias(x, v, t)
    S = dae.newton_matrix(x, np.zeros_like(x), np.zeros(dae.n_constraints), v, t, x, t,
                          1.0, 0.0, 0.0, 0.0, 1.0, factor=False).toarray()
    n = len(x)
    d = np.ones(len(S))
    d[:n] = 1.0 / np.sqrt(np.diag(S)[:n])
    d[n:] = 1.0 / np.abs(S[n:, :n] * d[:n]).max(axis=1)
    a, lam = np.split(d * np.linalg.solve(d[:, None] * S * d, d * np.concatenate([F, -xi])), [n])
    M, G = S[:n, :n], S[n:, :n]
    X, V = x.reshape(-1, 4), v.reshape(-1, 4)
    w = (np.hypot(V[:, 2], V[:, 3]) / np.hypot(X[:, 2], X[:, 3])).max()
    kinematic = w * (w * max(1.0, dae.assembly.size) + np.hypot(V[:, 0], V[:, 1]).max())
    terms = [a, np.linalg.solve(M, F), np.linalg.solve(M, G.T @ lam), [kinematic],
             np.linalg.lstsq(G, xi, rcond=None)[0] if len(xi) else [0.0]]
    return a, max(np.abs(term).max() for term in terms)


def consistent_state(rec, rng, t):
    """A random state y of the recursive formulation that satisfies every joint at t: node
    coordinates moved by 5 % of an element's length (slopes by 0.05), random rates of a
    frequency scale of 1/s, the first vertex of every item rebuilt from its parent."""
    A = rec.assembly
    step = np.tile([1.0, 1.0, 0.0, 0.0], A.n_vertices) * A.element_length.min(initial=A.size) \
        + np.tile([0.0, 0.0, 1.0, 1.0], A.n_vertices)
    y = np.concatenate([A.x0 + 0.05 * step * rng.standard_normal(A.n_x),
                        rng.standard_normal(rec.n_dof), [0.0, 0.0]])
    for _ in range(2):      # rebuild the first vertices, then the velocities at the rebuilt x
        rec.kernel.kinematics(t, y)
        y[:A.n_x] = rec.kernel.arrays["X"]
    return y


@given(spec=trees(), seed=st.integers(0, 2**32 - 1))
def test_recursive_accelerations_equal_the_dense_dae_solve(spec, seed):
    """(a) On random trees, at the initial state (the drives' velocities included) and at a
    random consistent state (strained, moving), to 1e-9 of the scale of the equations' terms."""
    note(f"spec = {spec!r}")
    A = build(spec).build()
    rec, dae = recursive.of(A), DAE(A, "dense")
    for t, y in ((0.0, rec.initial_state()),
                 (0.3, consistent_state(rec, np.random.default_rng(seed), 0.3))):
        rec.kernel.kinematics(t, y)
        x, v = rec.kernel.arrays["X"].copy(), rec.kernel.arrays["V"].copy()
        expected, scale = dae_accelerations(dae, x, v, t)
        assert np.abs(rec.accelerations(t, y) - expected).max() <= 1e-9 * scale, t


# --- (b) short runs ------------------------------------------------------------------------------
class Hang(BaseException):
    """Raised by the alarm of :func:`time_limit` (a BaseException, so no ``except Exception`` in
    rancf swallows it; the compiled loops see it as a signal and stop as "interrupted")."""


@contextmanager
def time_limit(seconds):
    def alarm(signum, frame):
        raise Hang(f"still running after {seconds} s")
    previous = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0.0)
        signal.signal(signal.SIGALRM, previous)


#: A short run of a model of a few items takes well under a second; 60 s is a hang.
RUN_LIMIT = 60.0
EXPLICIT = ["rk4", "dopri5", "scipy:RK45", "scipy:DOP853", "scipy:Radau", "scipy:BDF",
            "scipy:LSODA"]
IMPLICIT = ["newmark", "hht", "generalized-alpha", "generalized-alpha-s", "backward-euler"]


def element_frequency(model):
    """An upper bound of a model's highest natural frequency (rad/s): the largest free-free
    frequency of its elements at the reference configuration (the assembled spectrum lies
    within the elements' spectra; joints and rigid bodies only lower it)."""
    best = 0.0
    for b in model.beams:
        l = b.length / b.n_elements
        e = np.array([0.0, 0.0, 1.0, 0.0, l, 0.0, 1.0, 0.0])
        K = rancf.elements.beam.tangent_stiffness(e, l, b.E, b.A, b.I, model.elastic_model)
        M = rancf.elements.beam.mass_matrix(b.rho, b.A, l)
        best = max(best, float(np.sqrt(eigh(K, M, eigvals_only=True).max())))
    return best


def explicit_limit(model):
    """An explicit step of the order of the stability limit of the stiffest element (s):
    ``2 sqrt(2) / omega`` (RK4's on the imaginary axis), or where the element damping c makes
    the top mode decay faster than it oscillates (c omega > 1), ``2.78 / (c omega^2)``
    (RK4's on the real axis); with omega of :func:`element_frequency`."""
    omega = element_frequency(model)
    c = max((b.damping for b in model.beams), default=0.0)
    damped = 2.78 / (c * omega ** 2) if c * omega > 1.0 else np.inf
    return min(2.0 * math.sqrt(2.0) / omega, damped)


def check_outcome(res, model, t_end):
    """The contract of a finished short run (property (b)): status "ok" with results at t_end,
    or "diverged"/"failed" with a message and the outputs before; whatever the status, the
    outputs kept are finite and, but for a divergence, their held joints hold (a fixed joint's
    coordinate stays at its initial value, on the same branch, theory: Joint coordinates; a driven
    one follows its drive)."""
    check_status(res, t_end)
    if res.status == "diverged":
        return
    size = model.build().size
    for j in model.joints:
        if not (j.kind == "fixed" or j.driven):
            continue
        q = res.joint(j)[0]
        held = np.array([j.drive(t)[0] for t in res.t]) if j.driven else q[0]
        off = q - held
        assert np.abs(off).max() <= 1e-6 * (size if j.kind == "prismatic" else 1.0), j


@st.composite
def runs(draw):
    """(spec, method, formulation, dt, n_steps, output_every): a few steps of any method on a
    random tree, or of an implicit method on a random loop. The step is a factor times the
    explicit stability limit of the stiffest element, its damping included (beyond 1 for some
    explicit runs, which must then be refused or diverge; up to 100 for the implicit methods;
    a step of the undamped limit on a model whose damping decays 1e5 times faster made
    SciPy's RK45 take minutes: no hang, the physics)."""
    loop = draw(st.booleans()) and draw(st.booleans())
    spec = draw(loops()) if loop else draw(trees(n_max=4))
    method = draw(st.sampled_from(IMPLICIT if loop else EXPLICIT + IMPLICIT))
    implicit = method in IMPLICIT
    formulation = draw(st.sampled_from(["auto", "dae"])) if implicit else "auto"
    factor = draw(log_uniform(0.05, 100.0) if implicit else log_uniform(0.05, 2.0))
    return (spec, method, formulation, factor, draw(st.integers(1, 12)),
            draw(st.integers(1, 4)))


@given(run=runs())
def test_short_runs_finish_or_stop_with_a_clear_status(run):
    """(b) Finite results at t_end, or status "diverged"/"failed" with a message; within
    RUN_LIMIT s. An explicit step beyond the stability limit may be refused (a ValueError
    naming dt) before the run."""
    spec, method, formulation, factor, n_steps, output_every = run
    model = build(spec)
    dt = factor * explicit_limit(model)
    t_end = n_steps * dt
    with time_limit(RUN_LIMIT):
        res = simulate_or_refused(model, t_end, dt, method, formulation, output_every)
    if res is None:
        return
    event(f"{method}: {res.status}")
    note(f"spec = {spec!r}")
    check_outcome(res, model, t_end)


#: Threads the threads property runs one model in at once, and its share of the examples (each
#: costs that many runs and the serial one).
THREADS = 3
FEWER = settings(max_examples=max(1, settings.default.max_examples // 4))


@FEWER
@given(run=runs())
def test_a_random_run_in_threads_equals_the_serial_run(run):
    """(b') Issue 26, threads: one random model run by :data:`THREADS` threads at once
    (released together) gives each thread the serial run's outcome bit for bit: the same
    refusal, or the same status, times and node coordinates (NaN where the serial run's are),
    whatever the method, formulation and status."""
    from concurrent_runs import in_threads

    spec, method, formulation, factor, n_steps, output_every = run
    model = build(spec)
    dt = factor * explicit_limit(model)
    options = dict(method=method, formulation=formulation, output_every=output_every)

    def outcome():
        try:
            res = rancf.simulate(model, n_steps * dt, dt, **options)
        except ValueError as exc:
            return str(exc), None, None
        return res.status, np.asarray(res.t), np.asarray(res.nodes)

    serial = outcome()
    event(f"{method}: {serial[0][:40]}")
    note(f"spec = {spec!r}")
    for status, t, nodes in in_threads(outcome, THREADS):
        assert status == serial[0]
        np.testing.assert_array_equal(t, serial[1])
        np.testing.assert_array_equal(nodes, serial[2])


# --- (c) invalid arguments -----------------------------------------------------------------------
NAN, INF = float("nan"), float("inf")
#: Not numbers at all (TypeError expected).
NOT_NUMBERS = st.sampled_from(["1.0", "", None, [1.0], (1.0,), {}, {"a": 1}, object(), 1j,
                               b"1", np.array([1.0, 2.0]), rancf, print])
BOOLS = st.sampled_from([True, False, np.bool_(True)])
NON_FINITE = st.sampled_from([NAN, INF, -INF, np.float64(NAN), np.float32(INF)])
#: Integers beyond the largest float (float() of them raises OverflowError).
HUGE = st.sampled_from([10**400, -10**400, 2**1024])


def bad_real():
    """Values no finite real parameter accepts."""
    return st.one_of(NON_FINITE, NOT_NUMBERS, BOOLS, HUGE)


def bad_positive():
    return st.one_of(bad_real(), st.floats(max_value=0.0, allow_nan=False),
                     st.integers(max_value=0), st.just(-0.0), st.just(np.float64(-1e-300)))


def bad_non_negative():
    return st.one_of(bad_real(), st.floats(max_value=-1e-300, allow_nan=False),
                     st.integers(max_value=-1))


def bad_integer(low, high=None):
    out = [st.integers(max_value=low - 1), NOT_NUMBERS, BOOLS, NON_FINITE,
           st.floats(allow_nan=False).filter(lambda f: f != int(f) if math.isfinite(f) else True),
           st.sampled_from([1.0, 2.0, np.float64(3.0)])]
    if high is not None:
        out.append(st.integers(min_value=high + 1))
    return st.one_of(*out)


def bad_vector():
    """Not a finite 2-vector."""
    floats = st.floats(-1e3, 1e3)
    return st.one_of(
        st.lists(floats, max_size=5).filter(lambda v: len(v) != 2), st.tuples(floats, NON_FINITE),
        st.tuples(NON_FINITE, floats), st.tuples(floats, st.sampled_from(["a", None, [1.0]])),
        st.tuples(floats, HUGE),
        st.sampled_from([None, "ab", 1.0, 0, np.zeros(3), np.zeros((2, 2)), np.zeros((2, 1)),
                         np.array(["a", "b"]), {}, object(), [[1.0, 2.0]], np.float64(1.0)]))


def bad_choice(options):
    return st.one_of(st.text(max_size=12).filter(lambda s: s not in options), st.none(),
                     st.integers(), st.just([options[0]]), st.just(options[0].upper()),
                     st.just(options[0] + " "), st.just(options[0].encode()))


def bad_point():
    """Not a point (a point of another model is tested apart)."""
    return st.one_of(st.sampled_from([None, (0.0, 0.0), [0.0, 0.0], "start", 0, object(),
                                      np.zeros(2)]),
                     st.just("beam"))


def other_model_point():
    other = rancf.Model()
    return other.add_beam(1.0, 1, 1e7, 1e3, 1e-4, 1e-9).start


def small_model():
    """A one-beam pendulum and its beam (fresh: models freeze when simulated)."""
    m = rancf.Model()
    b = m.add_beam(1.0, 2, 1e7, 1e3, 1e-4, 1e-9)
    m.add_joint("revolute", m.ground.point(0.0, 0.0), b.start)
    return m, b


def body_model():
    m = rancf.Model()
    r = m.add_rigid_body(1.0, 0.1, position=(0.5, 0.0))
    return m, r


#: Entry points: name -> (call(**kwargs), valid keyword arguments). Each call builds what it
#: needs afresh, so that a model frozen by one call is not reused.
def _simulate(**kw):
    return rancf.simulate(kw.pop("model") if "model" in kw else small_model()[0], **kw)


def _static(**kw):
    return rancf.static(kw.pop("model") if "model" in kw else small_model()[0], **kw)


def _joint(**kw):
    m, b = small_model()
    other = m.add_beam(1.0, 1, 1e7, 1e3, 1e-4, 1e-9, start=(1.0, 0.0))
    return m.add_joint(**{"parent": b.end, "child": other.start, **kw})


def _force(**kw):
    m, b = small_model()
    return m.add_force(**{"point": b.end, **kw})


def _state(**kw):
    m, _ = small_model()
    n_x = m.build().n_x
    x, v = kw.get("x", m.build().x0), kw.get("v", np.zeros(n_x))
    return rancf.simulate(m, 0.002, 0.001, state=rancf.State(x, v))


@functools.lru_cache(maxsize=None)
def small_result():
    """A short run of :func:`small_model` and its model, and a second model's joint."""
    m, _ = small_model()
    other, _ = small_model()
    return rancf.simulate(m, 0.002, 0.001), m, other.joints[0]


def _result_call(method):
    def call(**kw):
        res, m, _ = small_result()
        return getattr(res, method)(**kw)
    return call


def _load(**kw):
    res, m, _ = small_result()
    path = os.path.join(result_folder(), "result.npz")
    res.save(path)
    return rancf.load(**{"path": path, "model": m, **kw})


@functools.lru_cache(maxsize=None)
def result_folder():
    return tempfile.mkdtemp(prefix="rancf-properties-")


ENTRIES = {
    "Model": (lambda **kw: rancf.Model(**kw), {}),
    "add_beam": (lambda **kw: rancf.Model().add_beam(**kw),
                 dict(length=1.0, n_elements=2, E=1e7, rho=1e3, A=1e-4, I=1e-9)),
    "add_rigid_body": (lambda **kw: rancf.Model().add_rigid_body(**kw),
                       dict(mass=1.0, inertia=0.1)),
    "add_joint": (_joint, dict(kind="revolute")),
    "add_joint-prismatic": (_joint, dict(kind="prismatic")),
    "add_force": (_force, {}),
    "ground.point": (lambda **kw: rancf.Model().ground.point(**kw), dict(x=0.0, y=0.0)),
    "beam.node": (lambda **kw: small_model()[1].node(**kw), dict(i=1)),
    "body.point": (lambda **kw: body_model()[1].point(**kw), {}),
    "simulate": (_simulate, dict(t_end=0.002, dt=0.001)),
    "simulate-implicit": (_simulate, dict(t_end=0.002, dt=0.001, method="generalized-alpha")),
    "simulate-hht": (_simulate, dict(t_end=0.002, dt=0.001, method="hht")),
    "simulate-dae": (_simulate, dict(t_end=0.002, dt=0.001, method="newmark", formulation="dae")),
    "static": (_static, {}),
    "State": (_state, {}),
    "pendulum": (lambda **kw: rancf.pendulum(**kw), {}),
    "Result.position": (_result_call("position"), dict(point=small_result()[1].beams[0].end)),
    "Result.joint": (_result_call("joint"), dict(joint=0)),
    "Result.reaction": (_result_call("reaction"), dict(joint=small_result()[1].joints[0])),
    "load": (_load, {}),
}

#: (entry, parameter, strategy of invalid values, words of which the message must contain one).
CASES = [
    ("Model", "gravity", bad_vector()), ("Model", "elastic_model",
                                         bad_choice(["shabana", "berzeri", "reissner"])),
    *[("add_beam", p, bad_positive()) for p in ("length", "E", "rho", "A", "I")],
    # an element constant beyond the normal floats (with the other parameters of the valid
    # call: l = length / 2, rho A l = 5e-5 rho, E A / l = 2e-4 E, E I / l^3 = 8e-9 E = 8e7 I)
    ("add_beam", "length", st.one_of(st.floats(5e-324, 1e-306), st.floats(1e305, 1.7e308))),
    ("add_beam", "rho", st.floats(5e-324, 1e-304)),
    ("add_beam", "A", st.one_of(st.floats(5e-324, 1e-310), st.floats(1e301, 1.7e308))),
    ("add_beam", "E", st.floats(5e-324, 1e-301)),
    ("add_beam", "I", st.one_of(st.floats(5e-324, 1e-317), st.floats(1e301, 1.7e308))),
    ("add_beam", "n_elements", bad_integer(1, 10**6)), ("add_beam", "start", bad_vector()),
    ("add_beam", "angle", bad_real()), ("add_beam", "damping", bad_non_negative()),
    ("add_rigid_body", "mass", bad_positive()), ("add_rigid_body", "inertia", bad_positive()),
    *[("add_rigid_body", p, st.floats(5e-324, 2.2e-308)) for p in ("mass", "inertia")],
    ("add_rigid_body", "position", bad_vector()), ("add_rigid_body", "angle", bad_real()),
    ("add_joint", "kind", bad_choice(["revolute", "prismatic", "fixed"])),
    ("add_joint", "parent", bad_point()), ("add_joint", "child", bad_point()),
    ("add_joint-prismatic", "axis", bad_real().filter(lambda v: v is not None)),
    ("add_joint", "axis", st.just(0.5)),
    ("add_joint", "drive", st.one_of(bad_real().filter(lambda v: v is not None and not callable(v)),
                                     st.sampled_from([1.0, "sin", (1.0, 0.0, 0.0)]))),
    ("add_joint", "effort", st.one_of(NON_FINITE, st.sampled_from(["1", [1.0], {}, 1j, True]))),
    ("add_force", "point", bad_point()), ("add_force", "force", bad_vector()),
    ("add_force", "moment", st.one_of(NON_FINITE, NOT_NUMBERS.filter(lambda v: not callable(v)),
                                      BOOLS)),
    ("ground.point", "x", bad_real()), ("ground.point", "y", bad_real()),
    ("ground.point", "angle", bad_real()),
    ("beam.node", "i", bad_integer(-3, 2)),
    ("body.point", "dx", bad_real()), ("body.point", "dy", bad_real()),
    ("simulate", "model", st.sampled_from([None, "model", 1.0, rancf.pendulum, object()])),
    ("simulate", "t_end", bad_positive()), ("simulate", "dt", bad_positive()),
    ("simulate", "dt", st.floats(0.00201, 1e300)),
    ("simulate", "dt", st.floats(5e-324, 1.9e-18)), ("simulate", "t_end", st.floats(1.1e12, 1e308)),
    ("simulate", "method", bad_choice(["rk4", "dopri5", "scipy:RK45", "scipy:DOP853",
                                       "scipy:Radau", "scipy:BDF", "scipy:LSODA", *IMPLICIT,
                                       "auto"])),
    ("simulate", "output_every", bad_integer(1, 10**9)),
    ("simulate", "state", st.sampled_from([np.zeros(12), (np.zeros(12), np.zeros(12)), "x", 1])),
    ("simulate", "formulation", bad_choice(["auto", "recursive", "dae"])),
    # None is their default
    ("simulate", "rtol", bad_positive().filter(lambda v: v is not None)),
    ("simulate", "atol", bad_positive().filter(lambda v: v is not None)),
    ("simulate", "max_displacement", bad_positive().filter(lambda v: v is not None)),
    ("simulate", "max_memory", bad_positive().filter(lambda v: v is not None)),
    ("simulate", "projection", st.sampled_from([True, "mass"])),
    ("simulate-implicit", "rho_inf", st.one_of(bad_real(), st.floats(1.0001, 1e9),
                                               st.floats(-1e9, -1e-9))),
    ("simulate-hht", "alpha", st.one_of(bad_real(), st.floats(1.0001, 1e9),
                                        st.floats(-1e9, 0.666))),
    ("simulate-implicit", "tol", bad_positive()),
    ("simulate-implicit", "tol", st.floats(0.0101, 1e308)),
    ("simulate-implicit", "max_iter", bad_integer(1, 10**6)),
    ("simulate-implicit", "jacobian", bad_choice(["reuse", "every-iteration"])),
    ("simulate-implicit", "max_displacement", st.just(1.0)),
    # the adaptive methods' tolerances, valid but given to a fixed-step method: refused
    *[(entry, tolerance, st.just(1e-3)) for entry in ("simulate-implicit", "simulate-dae")
      for tolerance in ("rtol", "atol")],
    ("simulate-implicit", "projection", st.sampled_from([True, "mass"])),
    ("simulate-dae", "projection", st.one_of(bad_choice(["euclidean", "mass"]).filter(
        lambda v: not (isinstance(v, int) and v in (0, 1))), st.just(2))),
    ("simulate-dae", "linear_solver", bad_choice(["dense", "sparse"])),
    ("simulate-dae", "projection", st.sampled_from([0, 1, np.int64(1), 1.0])),
    ("static", "model", st.sampled_from([None, "model", 1.0, object()])),
    ("static", "load_steps", bad_integer(1, 10**6)), ("static", "tol", bad_positive()),
    ("static", "tol", st.floats(0.0101, 1e308)),
    ("static", "max_iter", bad_integer(1, 10**6)),
    ("static", "linear_solver", bad_choice(["dense", "sparse"])),
    ("State", "x", st.one_of(bad_vector(), st.just(np.full(12, NAN)), st.just(np.zeros(11)))),
    ("State", "v", st.one_of(bad_vector(), st.just(np.full(12, INF)), st.just(np.zeros(13)))),
    ("pendulum", "n_bodies", bad_integer(1, 10**5)),
    ("pendulum", "elements_per_body", bad_integer(1, 10**6)),
    *[("pendulum", p, bad_positive()) for p in ("body_length", "E", "rho", "side")],
    ("pendulum", "joint", bad_choice(["revolute", "prismatic"])),
    ("pendulum", "gravity", bad_non_negative()),
    ("pendulum", "elastic_model", bad_choice(["shabana", "berzeri", "reissner"])),
    ("Result.position", "point", bad_point()),
    # the small result has one joint: -1 counts from the end (as state(-1) does), -2 is out
    *[(f"Result.{e}", "joint", st.one_of(
        st.integers(max_value=-2), st.integers(min_value=1), BOOLS, NON_FINITE,
        st.sampled_from([0.0, "0", None, [0], np.zeros(1), "other model"])))
      for e in ("joint", "reaction")],
    ("load", "path", st.sampled_from([None, 123, 1.5, [], object(), "/nonexistent/result.npz",
                                      "", "/", "result-missing.npz"])),
    ("load", "model", st.sampled_from(["model", 1, object(), [], "other model"])),
]



def small_spatial_model(loop=False):
    """A spatial beam of two elements on a spherical joint (``loop``: clamped at its start and
    pinned at its end, a closed loop that runs the spatial DAE); fresh, as small_model."""
    m = rancf.Model(dim=3)
    b = m.add_beam(1.0, 2, E=1e7, rho=1e3, A=1e-4, I=(1e-9, 1e-9), J=2e-9, G=4e6,
                   direction=(1.0, 0.0, 0.0), up=(0.0, 0.0, 1.0))
    m.add_joint("fixed" if loop else "spherical", m.ground.point(0.0, 0.0, 0.0), b.start)
    if loop:
        m.add_joint("spherical", m.ground.point(1.0, 0.0, 0.0), b.end)
    return m


def _spatial(call, loop=False):
    return lambda **kw: call(model=small_spatial_model(loop), **kw)


#: The options of simulate and static on spatial models (the recursion, explicit and implicit;
#: the spatial DAE of a loop; statics of a tree and of a loop), checked as on planar ones.
ENTRIES.update({
    "simulate-spatial": (_spatial(_simulate), dict(t_end=0.002, dt=0.001, method="rk4",
                                                   check_stability=False)),
    "simulate-spatial-implicit": (_spatial(_simulate), dict(t_end=0.002, dt=0.001,
                                                            method="generalized-alpha-s")),
    "simulate-spatial-dae": (_spatial(_simulate, loop=True), dict(t_end=0.002, dt=0.001,
                                                                  method="newmark")),
    "static-spatial": (_spatial(_static), {}),
    "static-spatial-loop": (_spatial(_static, loop=True), {}),
})
CASES += [
    *[(entry, "t_end", bad_positive()) for entry in ("simulate-spatial",
                                                     "simulate-spatial-dae")],
    ("simulate-spatial", "dt", bad_positive()),
    ("simulate-spatial", "dt", st.floats(0.00201, 1e300)),
    ("simulate-spatial", "dt", st.floats(5e-324, 1.9e-18)),
    ("simulate-spatial", "t_end", st.floats(1.1e12, 1e308)),
    ("simulate-spatial", "method", bad_choice(["rk4", "dopri5", "scipy:RK45", "scipy:DOP853",
                                               "scipy:Radau", "scipy:BDF", "scipy:LSODA",
                                               *IMPLICIT, "auto"])),
    *[(entry, "output_every", bad_integer(1, 10**9))
      for entry in ("simulate-spatial", "simulate-spatial-implicit", "simulate-spatial-dae")],
    *[(entry, "formulation", bad_choice(["auto", "recursive", "dae"]))
      for entry in ("simulate-spatial", "simulate-spatial-dae")],
    # None is their default
    ("simulate-spatial", "rtol", bad_positive().filter(lambda v: v is not None)),
    ("simulate-spatial", "atol", bad_positive().filter(lambda v: v is not None)),
    ("simulate-spatial", "max_displacement", bad_positive().filter(lambda v: v is not None)),
    *[(entry, "max_memory", bad_positive().filter(lambda v: v is not None))
      for entry in ("simulate-spatial", "simulate-spatial-implicit", "simulate-spatial-dae")],
    *[(entry, "rho_inf", st.one_of(bad_real(), st.floats(1.0001, 1e9), st.floats(-1e9, -1e-9)))
      for entry in ("simulate-spatial-implicit", "simulate-spatial-dae")],
    *[(entry, "tol", st.one_of(bad_positive(), st.floats(0.0101, 1e308)))
      for entry in ("simulate-spatial-implicit", "simulate-spatial-dae", "static-spatial",
                    "static-spatial-loop")],
    *[(entry, "max_iter", bad_integer(1, 10**6))
      for entry in ("simulate-spatial-implicit", "simulate-spatial-dae", "static-spatial",
                    "static-spatial-loop")],
    *[(entry, "jacobian", bad_choice(["reuse", "every-iteration"]))
      for entry in ("simulate-spatial-implicit", "simulate-spatial-dae")],
    *[(entry, "max_displacement", st.just(1.0))
      for entry in ("simulate-spatial-implicit", "simulate-spatial-dae")],
    *[(entry, tolerance, st.just(1e-3))
      for entry in ("simulate-spatial", "simulate-spatial-implicit", "simulate-spatial-dae")
      for tolerance in ("rtol", "atol")],
    ("simulate-spatial-implicit", "projection", st.sampled_from([True, "mass"])),
    ("simulate-spatial-dae", "projection", st.one_of(bad_choice(["euclidean", "mass"]).filter(
        lambda v: not (isinstance(v, int) and v in (0, 1))), st.just(2))),
    # None is its default (the spatial DAE's one solver)
    ("simulate-spatial-dae", "linear_solver",
     bad_choice(["sparse"]).filter(lambda v: v is not None)),
    *[(entry, "load_steps", bad_integer(1, 10**6))
      for entry in ("static-spatial", "static-spatial-loop")],
    *[(entry, "linear_solver", bad_choice(["dense", "sparse"]))
      for entry in ("static-spatial", "static-spatial-loop")],
]

#: How a message names a parameter where that is not the parameter's own name.
MESSAGE_NAMES = {("State", "x"): "state.x", ("State", "v"): "state.v"}


def named_error(call, *names):
    """Call; it must raise ValueError or TypeError whose message names one of ``names`` (as a
    word). Returns the exception."""
    try:
        call()
    except (ValueError, TypeError) as exc:
        assert any(re.search(rf"(?<![\w.]){re.escape(n)}(?![\w])", str(exc)) for n in names), \
            (type(exc).__name__, str(exc))
        return exc
    except MemoryError:
        raise AssertionError(f"MemoryError for an invalid {names[0]}") from None
    raise AssertionError(f"an invalid {names[0]} was accepted")


@pytest.mark.parametrize("entry", sorted(ENTRIES))
def test_the_valid_calls_of_the_invalid_argument_cases_are_accepted(entry):
    """The baseline of property (c): each entry point with its valid arguments runs."""
    call, valid = ENTRIES[entry]
    call(**valid)


@pytest.mark.parametrize("entry, name, values", CASES, ids=[f"{e}-{n}" for e, n, _ in CASES])
@MANY
@given(data=st.data())
def test_an_invalid_argument_raises_a_named_error(entry, name, values, data):
    """(c) One invalid argument, the others valid: ValueError or TypeError naming it."""
    value = data.draw(values, label=name)
    call, valid = ENTRIES[entry]
    kwargs = {**valid, name: value}
    if isinstance(value, str) and value == "beam":
        kwargs[name] = other_model_point()      # a point of another model: ValueError
    if isinstance(value, str) and value == "other model":
        kwargs[name] = small_result()[2] if name == "joint" else rancf.pendulum(2, 1)
    names = [MESSAGE_NAMES.get((entry, name), name)]
    if entry == "load" and name == "path" and isinstance(value, str):
        names.append(value)             # a file's error names the file
    named_error(lambda: call(**kwargs), *names)


# --- (c) damaged result files --------------------------------------------------------------------
ARRAYS = ["t", "nodes", "velocities", "joint_q", "joint_qd", "reactions", "work", "dissipated",
          "kinetic", "elastic", "gravity", "extra__beta"]
META_KEYS = ["format", "status", "message", "method", "formulation", "stats", "wall_time"]
JSON = st.recursive(st.none() | st.booleans() | st.floats(allow_nan=False) | st.text(max_size=5),
                    lambda inner: st.lists(inner, max_size=3)
                    | st.dictionaries(st.text(max_size=5), inner, max_size=3), max_leaves=6)
DAMAGE = st.one_of(
    st.tuples(st.just("truncate"), st.floats(0.0, 1.0)),
    st.tuples(st.just("flip"), st.floats(0.0, 1.0), st.integers(1, 255)),
    st.tuples(st.just("bytes"), st.binary(max_size=200)),
    st.tuples(st.just("npy"), st.just(None)), st.tuples(st.just("empty"), st.just(None)),
    st.tuples(st.just("drop"), st.sampled_from(ARRAYS + ["meta"])),
    st.tuples(st.just("reshape"), st.sampled_from(ARRAYS),
              st.lists(st.integers(0, 5), max_size=4).map(tuple)),
    st.tuples(st.just("dtype"), st.sampled_from(ARRAYS), st.sampled_from(["U1", "c16", "?", "i8",
                                                                          "f4", "O"])),
    st.tuples(st.just("meta"), JSON),
    st.tuples(st.just("meta-drop"), st.sampled_from(META_KEYS)),
    st.tuples(st.just("meta-set"), st.sampled_from(META_KEYS), JSON))


def damaged_file(path, damage):
    """Write at ``path`` a Result file of :func:`small_result` damaged as ``damage`` says."""
    res = small_result()[0]
    res.save(path)
    kind, *how = damage
    with open(path, "rb") as f:
        raw = f.read()
    if kind in ("truncate", "flip", "bytes", "npy"):
        if kind == "truncate":
            raw = raw[:int(how[0] * len(raw))]
        elif kind == "flip":
            raw = bytearray(raw)
            raw[min(int(how[0] * len(raw)), len(raw) - 1)] ^= how[1]
        elif kind == "bytes":
            raw = how[0]
        else:
            buffer = io.BytesIO()
            np.save(buffer, res.nodes)
            raw = buffer.getvalue()
        with open(path, "wb") as f:
            f.write(bytes(raw))
        return
    with np.load(path, allow_pickle=False) as f:
        arrays = {k: f[k] for k in f.files}
    meta = json.loads(str(arrays["meta"]))
    if kind == "empty":
        arrays = {k: a if k == "meta" else a[:0] for k, a in arrays.items()}
    elif kind == "drop":
        arrays.pop(how[0], None)
    elif kind == "reshape":
        arrays[how[0]] = np.zeros(how[1])
    elif kind == "dtype":
        arrays[how[0]] = arrays[how[0]].astype(how[1])
    elif kind == "meta":
        arrays["meta"] = np.array(json.dumps(how[0]))
    elif kind == "meta-drop":
        meta.pop(how[0])
        arrays["meta"] = np.array(json.dumps(meta))
    else:
        meta[how[0]] = how[1]
        arrays["meta"] = np.array(json.dumps(meta))
    with open(path, "wb") as f:
        np.savez(f, **arrays)


@MANY
@given(damage=DAMAGE)
def test_a_damaged_result_file_is_refused_naming_it(damage):
    """(c) A damaged file either loads into a consistent Result or raises ValueError/TypeError
    naming the file, never another exception."""
    path = os.path.join(result_folder(), "damaged.npz")
    damaged_file(path, damage)
    res, m, _ = small_result()
    try:
        loaded = rancf.load(path, model=m)
    except (ValueError, TypeError) as exc:
        assert path in str(exc), (type(exc).__name__, str(exc))
        return
    n = len(loaded.t)
    assert loaded.nodes.shape == res.nodes.shape[:0] + (n,) + res.nodes.shape[1:]
    assert loaded.energy().shape == (n, 7)


# --- defects the properties found (regression tests, each with its minimal reproducer) --------
def test_a_file_claiming_an_unknown_zip_version_is_refused_naming_it():
    """A byte flipped in the archive's central directory made zipfile raise NotImplementedError
    ("zip file version 10.9") out of rancf.load (found by the property above): here the first
    central-directory record's "version needed to extract" (offset 6 of its ``PK\\1\\2``
    signature) is set to 10.9, past what zipfile reads."""
    path = os.path.join(result_folder(), "zip_version.npz")
    small_result()[0].save(path)
    with open(path, "rb") as f:
        raw = bytearray(f.read())
    at = raw.index(b"PK\x01\x02") + 6
    raw[at:at + 2] = (109).to_bytes(2, "little")
    with open(path, "wb") as f:
        f.write(raw)
    with pytest.raises(NotImplementedError):        # the damage is what zipfile refuses so
        zipfile.ZipFile(path)
    with pytest.raises(ValueError, match=re.escape(path)):
        rancf.load(path, model=small_result()[1])


@pytest.mark.parametrize("value", ["no", np.zeros(2)], ids=["str", "array"])
def test_check_stability_must_be_a_bool(value):
    named_error(lambda: _simulate(t_end=0.002, dt=0.001, check_stability=value),
                "check_stability")


@pytest.mark.parametrize("method, name", [("hht", "alpha"), ("generalized-alpha", "rho_inf")])
@pytest.mark.parametrize("value", ["1.0", True, None, "x"])
def test_scheme_parameters_are_checked_by_type(method, name, value):
    named_error(lambda: _simulate(t_end=0.002, dt=0.001, method=method, **{name: value}), name)


@pytest.mark.parametrize("value", ["ab", {}], ids=["str", "dict"])
def test_a_state_of_non_numbers_is_named(value):
    named_error(lambda: _state(x=value), "state.x")


@pytest.mark.parametrize("name, value", [("path", 123), ("model", "model")])
def test_load_names_a_wrong_argument(name, value):
    named_error(lambda: _load(**{name: value}), name)


@pytest.mark.parametrize("damage", [
    ("meta-drop", "status"), ("meta", [1, 2]), ("meta-set", "status", "weird"),
    ("meta-set", "wall_time", "x"), ("meta-set", "stats", [1]), ("dtype", "t", "U1"),
    ("dtype", "nodes", "U1"), ("empty", None), ("npy", None), ("flip", 0.59375, 1)],
    ids=lambda d: "-".join(map(str, d)))
def test_load_names_the_file_for_every_damage(damage):
    path = os.path.join(result_folder(), "damaged.npz")
    damaged_file(path, damage)
    named_error(lambda: rancf.load(path, model=small_result()[1]), path)


def test_load_refuses_a_model_with_other_joints():
    m = rancf.Model()
    b = m.add_beam(1.0, 1, 1e7, 1e3, 1e-4, 1e-9)
    r = m.add_rigid_body(1.0, 0.1, position=(1.5, 0.0))
    m.add_joint("revolute", m.ground.point(0.0, 0.0), b.start)
    m.add_joint("revolute", b.end, r.point(-0.5, 0.0))
    assert m.build().n_vertices == small_result()[1].build().n_vertices
    named_error(lambda: _load(model=m), "joints", "joint")


def null_space_accelerations(M, G, F, xi):
    """The accelerations of ``M a + G^T lambda = F``, ``G a = -xi`` by the null-space method:
    ``a = a_p + Z y`` with ``a_p`` the least-norm solution of the constraints and Z an
    orthonormal basis of G's null space (SVD), ``(Z^T M Z) y = Z^T (F - M a_p)``; an algorithm
    independent of the saddle-point LU (no multipliers, no pivoting on the whole system)."""
    _, sv, Vt = np.linalg.svd(G)
    Z = Vt[int((sv > sv[0] * 1e-12).sum()):].T
    a_p = np.linalg.lstsq(G, -xi, rcond=None)[0]
    return a_p + Z @ np.linalg.solve(Z.T @ M @ Z, Z.T @ (F - M @ a_p))


@pytest.mark.parametrize("linear_solver", ["dense", "sparse"])
def test_dae_solve_of_a_millimetre_tree(linear_solver):
    """The DAE's LU of a 6 mm tree (slope inertias of 1e-17 kg m^2 beside constraint rows of
    1, condition number 5.5e18) equals a null-space solve. Without the equilibration of
    ``LinearSystem`` the dense LU was 3 % of the acceleration scale off, the sparse one (by the
    luck of its ordering) 2.5e-14; both are now within 1e-14 of a 50-digit solve of the same
    system (mpmath), the null-space solve within 1e-12: the tolerance 1e-10 of the scale is
    100 times the reference's own error."""
    spec = ModelSpec(scale=0.005623413251903491, E=1e9, rho=2449.489742783179,
                     slenderness=0.017320508075688777, gravity=(0.0, -9.81), items=(
                         Item(joint="fixed", angle=1.0, size=0.25, n_elements=3),
                         *[Item(parent=0, driven=True, n_elements=1)] * 3,
                         Item(parent=0, n_elements=1)))
    A = build(spec).build()
    rec, dae = recursive.of(A), DAE(A, linear_solver)
    y = rec.initial_state()
    rec.kernel.kinematics(0.0, y)
    x, v = rec.kernel.arrays["X"].copy(), rec.kernel.arrays["V"].copy()
    _, scale = dae_accelerations(dae, x, v, 0.0)
    args = (x, np.zeros_like(x), np.zeros(dae.n_constraints), v, 0.0, x, 0.0, 1.0, 0.0, 0.0, 0.0,
            1.0)
    S = dae.newton_matrix(*args, factor=False).toarray()
    F, xi = dae.force(x, v, 0.0), dae.acceleration_bias(x, v, 0.0)
    n = len(x)
    expected = null_space_accelerations(S[:n, :n], S[n:, :n], F, xi)
    a = dae.newton_matrix(*args).solve(F, -xi)[0]
    assert np.abs(rec.accelerations(0.0, y) - expected).max() <= 1e-10 * scale
    assert np.abs(a - expected).max() <= 1e-10 * scale


def test_dae_joint_coordinate_keeps_its_branch():
    """A held crank (its slope at 1 rad throughout) reads 1 rad at every output. Newton's
    iterates at 90 times the explicit limit turn the crank's direction through half turns;
    the branch used to follow every evaluation and read 1 + 2 pi after the first step; it
    follows the accepted states now (StepProblem.accept)."""
    spec = LoopSpec(scale=1.0, E=1e8, rho=2449.489742783179, slenderness=0.005477225575051662,
                    crank=1.0, crank_angle=1.0, rocker=1.0, rocker_angle=1.0, n_elements=1,
                    driven=True, speed=0.0)
    model = build(spec)
    dt = 90.0 * 2.0 * math.sqrt(2.0) / element_frequency(model)
    res = rancf.simulate(model, 2 * dt, dt, method="newmark", output_every=1)
    X = res.nodes[:, 0]
    assert res.status == "ok" and np.allclose(np.arctan2(X[:, 3], X[:, 2]), 1.0)
    assert np.abs(res.joint(0)[0] - 1.0).max() <= 1e-6


def test_a_drive_turning_more_than_pi_in_a_step_keeps_its_branch():
    """A crank driven at 1 rad/s stepped by 12 s (Newmark, 22 times the explicit limit): its
    coordinate reads the drive's 13 rad, not 13 - 4 pi (the branch followed from the last
    accepted state cannot see a turn of more than pi; a driven joint's follows its drive)."""
    spec = LoopSpec(scale=31.622776601683793, E=1e5, rho=2449.489742783179,
                    slenderness=0.017320508075688777, gravity=(0.0, 0.0), base=1.0, crank=1.0,
                    crank_angle=1.0, rocker=0.5, rocker_angle=1.0, n_elements=1, driven=True,
                    speed=1.0, mass=3.0)
    model = build(spec)
    dt = 22.360679774997894 * 2.0 * math.sqrt(2.0) / element_frequency(model)
    res = rancf.simulate(model, dt, dt, method="newmark", output_every=1)
    assert res.status == "ok" and dt > math.pi
    assert res.joint(0)[0] == pytest.approx([1.0, 1.0 + dt], abs=1e-9)


DEGENERATE_DAE_RUNS = {
    # a driven revolute joint on a clamped beam's start, 9.4 times the explicit limit, 5 steps
    "driven-revolute": (ModelSpec(E=1e5, rho=2449.489742783179, slenderness=0.017320508075688777,
                                  elastic_model="berzeri", gravity=(3.0, 0.0), items=(
                                      Item(joint="fixed", angle=0.75, size=3.0, n_elements=2),
                                      Item(parent=0, driven=True, size=1.75, n_elements=1),
                                      Item(kind="body", parent=0, at=0.5, driven=True))),
                        9.42942047540283, 5),
    # a prismatic joint on a beam's end node, 2.2 times the explicit limit, 1 step
    "prismatic": (ModelSpec(scale=100.0, E=1e5, rho=2449.489742783179,
                            slenderness=0.017320508075688777, items=(
                                Item(n_elements=1), Item(parent=0, size=0.25, n_elements=1),
                                Item(parent=0, at=1.0, joint="prismatic", angle=0.25,
                                     n_elements=1),
                                Item(parent=0, joint="fixed", n_elements=1)),
                            loads=(Load(item=2, at=0.0, fx=1.0, fy=0.0),)),
                  2.2360679774997894, 1),
}


@pytest.mark.parametrize("case", sorted(DEGENERATE_DAE_RUNS))
def test_dae_ok_run_has_finite_joint_rates(case):
    """Newton (Newmark, large steps) converged to a state where a joint's direction is exactly
    (0, 0) (a driven beam's slope at its joint: the angle row |p||c| sin(...) = 0 then holds
    trivially; the slope of a prismatic joint's parent node: the rail row likewise) or the
    child turned half a turn (the same row's other root); the run said "ok" with NaN joint
    coordinates or a held joint pi off. It stops as "failed" now, saying which joint and what
    to change, with the steps before."""
    spec, factor, n_steps = DEGENERATE_DAE_RUNS[case]
    model = build(spec)
    dt = factor * 2.0 * math.sqrt(2.0) / element_frequency(model)
    res = rancf.simulate(model, n_steps * dt, dt, method="newmark", output_every=1)
    check_outcome(res, model, n_steps * dt)


@pytest.mark.parametrize("method", ["rk4", "dopri5", "scipy:RK45", "scipy:Radau", "scipy:BDF",
                                    "scipy:LSODA", "newmark"])
def test_an_inverted_slope_is_not_ok(method):
    """A fixed joint's slope is polar (its length s free); in a soft 240 m beam under gravity s
    passes through zero at t = 2.2 s (DOPRI5 at rtol = 1e-9: |r'| = 0.008 at 2.19 s), the
    clamped slope inverts, and the run said "ok" with the joint reading pi off (DOPRI5's
    per-step branch tracking then added 2 pi). Every method stops as "failed" now, naming the
    joint, and keeps the steps before (the DAE's methods: see also
    test_dae_ok_run_has_finite_joint_rates)."""
    spec = ModelSpec(scale=109.81123621921365, E=1e5, rho=2429.3895574730295, slenderness=0.01,
                     elastic_model="berzeri", items=(
                         Item(at=0.730636933710605, joint="fixed", angle=-1.8374007530629481,
                              size=2.1641349874445357, n_elements=3),),
                     loads=(Load(at=0.9163765347080632, fx=1.323162512764955,
                                 fy=2.038418022950249),))
    model = build(spec)
    dt = 0.912739889561313 * 2.0 * math.sqrt(2.0) / element_frequency(model)
    res = rancf.simulate(model, 5 * dt, dt, method=method, output_every=1)
    assert res.status == "failed" and "turned over" in res.message, res.message
    assert np.abs(res.joint(0)[0] - res.joint(0)[0][0]).max() <= 1e-6


# --- defects the fuzz runs found (compiled kernels' Python entries) -----------------------------
KERNEL_CALLS = {
    "DAE.force": "dae.force(np.zeros(1), np.zeros(1), 0.0)",
    "DAE.constraint": "dae.constraint(np.zeros(1), 0.0)",
    "DAE.newton_matrix": "dae.newton_matrix(*[np.zeros(1)] * 4, 0.0, np.zeros(1), 0.0, "
                         "1.0, 0.0, 0.0, 0.0, 1.0)",
    "DAE.newton_matrix.solve": "dae.newton_matrix(A.x0, np.zeros(A.n_x), np.zeros("
                               "dae.n_constraints), np.zeros(A.n_x), 0.0, A.x0, 0.0, 1.0, 0.0, "
                               "0.0, 0.0, 1.0).solve(np.zeros(1), np.zeros(0))",
    "implicit_problem.theta": "problem.theta(np.zeros(1))",
    "implicit_problem.state_at": "problem.state_at(np.zeros(1), np.zeros(1), 0.0)",
    "implicit_problem.observe": "problem.observe(*[np.zeros(1)] * 3, 0.0, np.zeros(0))",
    "DAE.force-nan": "dae.force(np.full(A.n_x, np.nan), np.zeros(A.n_x), 0.0)",
    "DAE.force-strings": "dae.force(np.array(['a'] * A.n_x), np.zeros(A.n_x), 0.0)",
}


@functools.lru_cache(maxsize=None)
def kernel_call_outcomes():
    """Every call of KERNEL_CALLS in one subprocess (a crash is a return code, and leaves the
    calls after it without an outcome): {call: the exception's type name, or "accepted"}."""
    code = ("import json, numpy as np, rancf\n"
            "from rancf.formulations import recursive\n"
            "from rancf.formulations.dae import DAE\n"
            "A = rancf.pendulum(1, 2, 1.0).build()\n"
            "dae = DAE(A, 'dense')\n"
            "problem = recursive.implicit_problem(A, recursive.of(A).initial_state())\n"
            f"for name, call in {KERNEL_CALLS!r}.items():\n"
            "    try:\n"
            "        eval(call)\n"
            "        outcome = 'accepted'\n"
            "    except Exception as exc:\n"
            "        outcome = type(exc).__name__\n"
            "    print(json.dumps([name, outcome]), flush=True)\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    outcomes = dict(json.loads(line) for line in proc.stdout.splitlines())
    return outcomes, proc.returncode, proc.stderr[-500:]


@pytest.mark.parametrize("call", sorted(KERNEL_CALLS))
def test_kernel_views_refuse_arrays_of_the_wrong_size(call):
    """A ValueError or TypeError, not a result or a crash."""
    outcomes, code, stderr = kernel_call_outcomes()
    assert outcomes.get(call) in ("ValueError", "TypeError"), (outcomes.get(call), code, stderr)


@pytest.mark.parametrize("length", [1e-3, 1e-6, 1e-8], ids=["1mm", "1um", "10nm"])
def test_short_elements_have_a_regular_mass(length):
    """The 4 x 4 block inversion of the recursion refused a pivot below 1e-14 of the block's
    largest entry, which mixes positions and slopes: a beam of elements shorter than about
    2 um was reported as a singular generalized mass. The blocks are scaled first now;
    accelerations at a random state equal the DAE's equilibrated dense solve to 1e-12 of the
    scale (achieved: 2e-15 for all three element lengths)."""
    m = rancf.Model()
    b = m.add_beam(10 * length, 10, 1e7, 1e3, (length ** 2), length ** 4 / 12.0)
    m.add_joint("revolute", m.ground.point(0.0, 0.0), b.start)
    A = m.build()
    rec = recursive.of(A)
    y = consistent_state(rec, np.random.default_rng(1), 0.3)
    rec.kernel.kinematics(0.3, y)
    x, v = rec.kernel.arrays["X"].copy(), rec.kernel.arrays["V"].copy()
    expected, scale = dae_accelerations(DAE(A, "dense"), x, v, 0.3)
    assert np.abs(rec.accelerations(0.3, y) - expected).max() <= 1e-12 * scale
