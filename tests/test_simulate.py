"""Time integration against conservation laws, analytic solutions (among them Euler-Bernoulli's
cantilever frequencies), convergence orders, a second integrator and the stability theory of RK4;
failure modes."""
import re
import time

import numpy as np
import pytest
from scipy.special import ellipk

import rancf
from rancf.formulations import recursive
from rancf.integrators.explicit import SCHEMES
from rancf.integrators.progress import RunProgress
from models import AREA, INERTIA, RHO, branched_tree, four_bar


@pytest.fixture(scope="module")
def pendulum():
    return rancf.pendulum(n_bodies=5, elements_per_body=5, body_length=5.0, E=21e6,
                          rho=7800.0, side=0.03)


def test_reference_pendulum_layout(pendulum):
    A = pendulum.build()
    assert recursive.of(A).n_dof == 110          # 4 Nbar + 2 N
    assert A.n_vertices == 30 and A.size == pytest.approx(25.0)


@pytest.mark.parametrize("scheme", SCHEMES.values())
def test_tableau_identities(scheme):
    assert np.allclose(scheme.A.sum(axis=1), scheme.c)
    assert scheme.b.sum() == pytest.approx(1.0)
    assert np.allclose(np.triu(scheme.A), 0.0)
    if scheme.b_err.size:
        assert scheme.b_err.sum() == pytest.approx(0.0, abs=1e-15)


def test_rk4_energy_drift_is_fourth_order(pendulum):
    """Conservative system: the total energy drift falls 2^4 = 16x per halving of dt."""
    coarse = rancf.simulate(pendulum, 4.0, 1e-3, output_every=10).energy_drift()
    fine = rancf.simulate(pendulum, 4.0, 5e-4, output_every=20).energy_drift()
    assert coarse / fine >= 16.0


def test_energy_balance_with_loads_drives_efforts_and_damping():
    """kinetic + elastic + gravity - work + dissipated is conserved (theory: The energy balance):
    the work of forces, moments, efforts and drives and the dissipation are integrated with the
    motion, so the balance closes at the integrator's order (RK4: 16x per halving)."""
    m = branched_tree()
    drifts = []
    for dt in (2e-4, 1e-4):
        res = rancf.simulate(m, 0.4, dt, output_every=round(0.01 / dt))
        e = res.energy()
        assert res.status == "ok"
        assert np.abs(e.work).max() > 0.05 and e.dissipated.iloc[-1] > 0.05
        assert np.all(np.diff(e.dissipated) >= 0.0)
        drifts.append(res.energy_drift())
    assert drifts[0] / drifts[1] >= 12.0 and drifts[1] < 1e-8


def test_dissipated_energy_is_the_loss_of_a_damped_free_vibration():
    """A damped beam swinging without loads or drives: the mechanical energy lost equals the
    dissipated energy (no work is done), and without damping nothing is dissipated."""
    for damping in (0.0, 0.005):
        m = rancf.Model(gravity=(0.0, -9.81))
        b = m.add_beam(1.0, 4, 2e6, RHO, AREA, INERTIA, damping=damping)
        m.add_joint("revolute", m.ground.point(0, 0), b.start)
        e = rancf.simulate(m, 0.5, 5e-5, output_every=1000).energy()
        mechanical = e.kinetic + e.elastic + e.gravity
        assert np.abs(e.work).max() == 0.0
        if damping == 0.0:
            assert np.abs(e.dissipated).max() == 0.0
        else:
            assert e.dissipated.iloc[-1] > 1e-3 * e.kinetic.max()
        np.testing.assert_allclose(mechanical.iloc[0] - mechanical, e.dissipated,
                                   rtol=0, atol=1e-9 * e.kinetic.max())


@pytest.mark.parametrize("length", [1.0, 2.0])
def test_rigid_body_released_horizontally_has_the_elliptic_period(length):
    """A uniform bar pinned at one end, released horizontal: T = 4 sqrt(I_O/(m g d)) K(1/2),
    I_O = m L^2/3, d = L/2 (complete elliptic integral with parameter m = 1/2)."""
    g, mass = 9.81, 3.0
    period = 4.0 * np.sqrt(2.0 * length / (3.0 * g)) * ellipk(0.5)
    m = rancf.Model(gravity=(0.0, -g))
    bar = m.add_rigid_body(mass, mass * length**2 / 12.0, position=(length / 2, 0.0))
    j = m.add_joint("revolute", m.ground.point(0.0, 0.0), bar.point(-length / 2, 0.0))
    res = rancf.simulate(m, 1.1 * period, 1e-3, method="dopri5", rtol=1e-11, atol=1e-11,
                         output_every=1)
    q, qd = res.joint(j)
    # the bar returns to rest at q = 0 after one period: the last zero of qd from - to +
    k = np.flatnonzero((qd[:-1] > 0.0) & (qd[1:] <= 0.0))[-1]
    t0 = res.t[k] - qd[k] * (res.t[k + 1] - res.t[k]) / (qd[k + 1] - qd[k])
    assert t0 == pytest.approx(period, rel=1e-6)
    assert abs(np.interp(t0, res.t, q)) < 1e-5



@pytest.mark.parametrize("elastic_model", ["shabana", "berzeri", "reissner"])
def test_cantilever_vibrates_at_the_euler_bernoulli_frequencies(elastic_model):
    """A steel cantilever (1 m, 0.01 m square, 8 elements) released from the sag of a small tip
    load vibrates in its modes, each as cos(Omega_j t) (it starts at rest). Omega_j, fitted to the
    tip over 5 periods, are Newmark's (average acceleration) discrete frequencies, which map back
    to the continuous ones exactly by omega = (2 / h) tan(Omega h / 2); these must be Euler-
    Bernoulli's beta_j^2 sqrt(EI / (rho A L^4)) (beta = 1.87510, 4.69409): 2.1e-6 and 6.3e-5
    relative are achieved, the cubic elements' discretization error."""
    from scipy.optimize import least_squares

    length, E, side = 1.0, 2.1e11, 0.01
    A, I = side**2, side**4 / 12
    omega = np.array([1.8751040687119611, 4.6940911329741746, 7.8547574382376126])**2 \
        * np.sqrt(E * I / (RHO * A * length**4))

    def cantilever():
        m = rancf.Model(gravity=(0.0, 0.0), elastic_model=elastic_model)
        b = m.add_beam(length, 8, E, RHO, A, I)
        m.add_joint("fixed", m.ground.point(0.0, 0.0), b.start)
        return m, b
    m, b = cantilever()
    m.add_force(b.end, force=(0.0, -1e-3 * E * I / length**2))
    x0 = rancf.static(m).nodes[0].ravel()
    free, b = cantilever()
    h = 2 * np.pi / omega[0] / 400
    res = rancf.simulate(free, 10 * np.pi / omega[0], h, method="newmark", output_every=1,
                         state=rancf.State(x0, np.zeros_like(x0)))
    assert res.status == "ok"
    y = res.position(b.end).reshape(len(res.t), -1)[:, 1]

    def misfit(p):
        return (np.cos(np.outer(res.t, p[:3])) @ p[3:] - y) / np.abs(y).max()
    start = np.linalg.lstsq(np.cos(np.outer(res.t, omega)), y, rcond=None)[0]
    fit = least_squares(misfit, np.concatenate([omega, start]), xtol=1e-15, ftol=1e-15, gtol=1e-15)
    continuous = 2 / h * np.tan(fit.x[:3] * h / 2)
    assert continuous[0] == pytest.approx(omega[0], rel=1e-5)
    assert continuous[1] == pytest.approx(omega[1], rel=2e-4)

def test_driven_joint_follows_its_drive_exactly():
    """The polar parametrization holds q(t) to round-off (theory: Drives as polar slopes), and the
    result's joint history unwraps through several turns (theory: Joint coordinates)."""
    m = rancf.Model(gravity=(0.0, 0.0))
    b = m.add_beam(1.0, 3, 5e6, RHO, AREA, INERTIA)
    w = 20.0
    j = m.add_joint("revolute", m.ground.point(0, 0), b.start,
                    drive=lambda t: (0.5 * w * t**2, w * t, w))
    res = rancf.simulate(m, 1.0, 2e-5, output_every=500)
    q, qd = res.joint(j)
    np.testing.assert_allclose(q, 0.5 * w * res.t**2, rtol=0, atol=1e-12)
    np.testing.assert_allclose(qd, w * res.t, rtol=0, atol=1e-9)
    assert q[-1] > 3 * np.pi   # more than one and a half turns, unwrapped
    slope = res.nodes[:, 0, 2:]
    np.testing.assert_allclose(np.unwrap(np.arctan2(slope[:, 1], slope[:, 0])), q, atol=1e-12)


@pytest.mark.parametrize("method,tol", [("dopri5", 1e-8), ("scipy:DOP853", 1e-8)])
def test_adaptive_methods_agree_with_fine_rk4(pendulum, method, tol):
    ref = rancf.simulate(pendulum, 0.5, 1e-4, output_every=500)
    r = rancf.simulate(pendulum, 0.5, 1e-3, method=method, output_every=50, rtol=tol, atol=tol)
    assert r.status == "ok"
    np.testing.assert_allclose(r.t, ref.t)
    assert np.abs(r.tip() - ref.tip()).max() < 1e3 * tol * pendulum.build().size


def test_scipy_radau_runs_short(pendulum):
    r = rancf.simulate(pendulum, 0.02, 1e-3, method="scipy:Radau", output_every=5)
    ref = rancf.simulate(pendulum, 0.02, 1e-4, output_every=50)
    assert r.status == "ok" and np.abs(r.tip() - ref.tip()).max() < 1e-5


def test_rk4_step_beyond_stability_limit_is_rejected_in_advance():
    with pytest.raises(ValueError, match="dt = 0.001 s exceeds the rk4 stability limit"):
        rancf.simulate(rancf.pendulum(E=210e9), 1.0, 1e-3, method="rk4")


def test_stability_limit_is_sharp_for_the_stiff_chain():
    """Below the estimated limit RK4 is stable, 5 % above it diverges: the estimate is the
    real linear limit 2 sqrt(2)/omega_max, not an arbitrary safety margin."""
    stiff = rancf.pendulum(E=210e9)
    rec = recursive.of(stiff.build())
    limit = 2 * np.sqrt(2) / rec.highest_frequency(rec.initial_state())
    assert rancf.simulate(stiff, 0.05, 0.95 * limit, output_every=100).status == "ok"
    r = rancf.simulate(stiff, 0.05, 1.05 * limit, method="rk4", check_stability=False,
                       output_every=100)
    assert r.status == "diverged"


@pytest.mark.parametrize("damping", [0.0, 1e-6, 1e-4], ids=["undamped", "underdamped",
                                                               "overdamped"])
def test_stability_limit_is_sharp_with_damping(damping):
    """With Kelvin-Voigt damping the top mode's eigenvalue leaves the imaginary axis
    (``s^2 + c omega^2 s + omega^2 = 0``; c omega = 0.85 and 85 here): the limit is where the
    ray of that eigenvalue leaves RK4's stability region (up to 10 times smaller than
    2 sqrt(2)/omega); 5 % below it RK4 is stable for 2,000 steps, 5 % above it diverges."""
    def model():
        m = rancf.Model()
        b = m.add_beam(0.1, 4, 1e10, 2000.0, 1e-6, 1e-12 / 12, damping=damping)
        m.add_joint("revolute", m.ground.point(0.0, 0.0), b.start)
        return m
    rec = recursive.of(model().build())
    y = rec.initial_state()
    omega, decay = rec.highest_frequency(y), rec.highest_decay_rate(y)
    lam = -0.5 * decay - np.sqrt(complex(0.25 * decay ** 2 - omega ** 2))
    # RK4's stability polynomial along the ray of lam, by bisection (independent of simulate)
    R = lambda h: abs(1 + h * lam + (h * lam) ** 2 / 2 + (h * lam) ** 3 / 6 + (h * lam) ** 4 / 24)
    lo, hi = 0.0, 10.0 / abs(lam)
    for _ in range(100):
        lo, hi = (lo, 0.5 * (lo + hi)) if R(0.5 * (lo + hi)) > 1.0 else (0.5 * (lo + hi), hi)
    assert rancf.simulate(model(), 2000 * lo, 0.95 * lo, output_every=100).status == "ok"
    r = rancf.simulate(model(), 2000 * lo, 1.05 * lo, method="rk4", check_stability=False,
                       output_every=100)
    assert r.status == "diverged"
    with pytest.raises(ValueError, match="exceeds the rk4 stability limit"):
        rancf.simulate(model(), 2000 * lo, 1.05 * lo, method="rk4")


def test_a_step_below_the_floor_says_the_model_is_too_stiff():
    """DOPRI5's step floor (1e-14 s) is met where the element damping makes the motion too
    stiff for an explicit step (a 1 mm beam, E = 1e13 Pa, damping time 0.1 ms: decay rate
    c omega^2 of 8e14 1/s, a stable step below 4e-15 s; the random runs' step-floor failures
    were all of this kind): the message says so and names an implicit method."""
    m = rancf.Model()
    b = m.add_beam(1e-3, 3, 1e13, 2000.0, 4e-10, 1.6e-19 / 12, damping=1e-4)
    m.add_joint("revolute", m.ground.point(0.0, 0.0), b.start)
    r = rancf.simulate(m, 1e-7, 1e-9, method="dopri5")
    assert r.status == "failed" and "fell below its floor" in r.message
    assert "too stiff for an explicit method" in r.message and "generalized-alpha" in r.message


def test_divergence_stops_and_keeps_results():
    r = rancf.simulate(rancf.pendulum(E=210e9), 1.0, 2e-4, method="rk4", check_stability=False,
                       output_every=5)
    assert r.status == "diverged" and "at t = " in r.message
    assert 1 < len(r.t) < 1000 and np.all(np.isfinite(r.nodes))
    assert r.t[-1] <= float(r.message.split("t = ")[1].split()[0])


def test_an_input_function_that_raises_stops_the_run_with_its_message():
    m = rancf.Model()
    b = m.add_beam(1.0, 2, 5e6, RHO, AREA, INERTIA)

    def effort(t, q, qd):
        if t > 0.01:
            raise RuntimeError("sensor lost")
        return 0.0
    m.add_joint("revolute", m.ground.point(0, 0), b.start, effort=effort)
    for method in ("rk4", "generalized-alpha"):
        r = rancf.simulate(m, 0.05, 1e-4, method=method, formulation="auto")
        assert r.status == "failed" and "sensor lost" in r.message
        assert 0.009 < r.t[-1] <= 0.011


def test_released_hanging_chain_falls_freely(pendulum):
    """A chain released hanging straight down, stress-free: by symmetry it stays on the
    vertical, and the tip falls freely, y = -L - g t^2 / 2, until the stress wave from the
    pin reaches it (L / sqrt(E / rho) = 0.48 s)."""
    A = pendulum.build()
    x = A.x0.reshape(-1, 4).copy()
    down = np.array([[0.0, -1.0], [1.0, 0.0]])
    x[:, :2], x[:, 2:] = x[:, :2] @ down, x[:, 2:] @ down
    state = rancf.State(x.ravel(), np.zeros(A.n_x))
    r = rancf.simulate(pendulum, 0.25, 1e-3, state=state, output_every=50)
    assert np.abs(r.nodes[:, :, 0]).max() < 1e-12
    fall = -25.0 - 9.81 * r.t**2 / 2
    assert np.abs(r.tip()[:, 1] - fall).max() < 1e-3 * np.abs(fall + 25.0).max()


def test_inconsistent_initial_state_is_refused(pendulum):
    A = pendulum.build()
    x = A.x0.copy()
    x[4 * 6] += 0.1                                   # body 2's first node off its joint
    with pytest.raises(ValueError, match="do not satisfy the joints"):
        rancf.simulate(pendulum, 0.01, 1e-3, state=rancf.State(x, np.zeros(A.n_x)))
    v = np.zeros(A.n_x)
    v[0] = 1.0                                        # the pinned node moving
    with pytest.raises(ValueError, match="velocities do not satisfy"):
        rancf.simulate(pendulum, 0.01, 1e-3, state=rancf.State(A.x0, v))
    with pytest.raises(ValueError, match="state.x must have"):
        rancf.simulate(pendulum, 0.01, 1e-3, state=rancf.State(A.x0[:-1], v))


@pytest.mark.parametrize("kwargs,error,match", [
    (dict(t_end=-1.0), ValueError, "t_end"), (dict(dt=0.0), ValueError, "dt"),
    (dict(dt=2.0, t_end=1.0), ValueError, "dt"), (dict(t_end="1"), TypeError, "t_end"),
    (dict(method="euler"), ValueError, "method must be one of"),
    (dict(output_every=0), ValueError, "output_every"), (dict(output_every=1.5), TypeError, "output_every"),
    (dict(formulation="lagrange"), ValueError, "formulation"), (dict(rtol=-1.0), ValueError, "rtol"),
    (dict(max_displacement=0.0), ValueError, "max_displacement"),
    (dict(method="rk4", formulation="dae"), ValueError, "formulation 'dae' takes the implicit"),
    (dict(method="newmark", max_displacement=10.0), TypeError, "max_displacement"),
    (dict(method="rk4", rho_inf=0.5), TypeError, "implicit methods"),
    (dict(state=(1, 2)), TypeError, "state must be a rancf.State"),
])
def test_bad_simulate_arguments_are_named(pendulum, kwargs, error, match):
    args = dict(t_end=1.0, dt=1e-3)
    args.update(kwargs)
    with pytest.raises(error, match=match):
        rancf.simulate(pendulum, **args)


def test_tolerances_apply_to_the_adaptive_methods_only():
    """rtol and atol: DOPRI5 uses them (a looser rtol takes fewer steps: its step grows as
    rtol^(1/5)), every fixed-step method refuses them, named, also when method "auto" chose
    it (then with its reason) and on a reduced model (backward Euler)."""
    m = rancf.Model(gravity=(0.0, -9.81))
    body = m.add_rigid_body(1.0, 0.01, position=(0.5, 0.0))
    m.add_joint("revolute", m.ground.point(0.0, 0.0), body.point(-0.5, 0.0))
    loose, tight = (rancf.simulate(m, 1.0, 1e-3, method="dopri5", rtol=r, atol=1e-12)
                    for r in (1e-3, 1e-9))
    assert loose.stats["steps"] < tight.stats["steps"], (loose.stats, tight.stats)
    for method in ("rk4", "newmark", "generalized-alpha"):
        with pytest.raises(TypeError, match=r"\['atol'\] apply to the adaptive methods"):
            rancf.simulate(m, 0.01, 1e-3, method=method, atol=1e-9)
    with pytest.raises(TypeError, match=r"\['rtol', 'atol'\].*method 'auto'"):
        rancf.simulate(m, 0.01, 1e-3, rtol=1e-9, atol=1e-9)
    assert rancf.simulate(m, 0.01, 1e-3).status == "ok"


def test_a_reduced_model_refuses_the_tolerances():
    m = rancf.Model(gravity=(0.0, -9.81), elastic_model="berzeri")
    b = m.add_beam(1.0, 8, 2e8, RHO, AREA, INERTIA)
    m.add_joint("revolute", m.ground.point(0.0, 0.0), b.start)
    reduced = rancf.reduce(m, sparsity=4, n_samples=8)
    with pytest.raises(TypeError, match=r"\['rtol'\] apply to the adaptive methods"):
        rancf.simulate(reduced, 0.01, 1e-3, rtol=1e-9)


def test_simulate_needs_a_model():
    with pytest.raises(TypeError, match="model must be a rancf.Model"):
        rancf.simulate("pendulum", 1.0, 1e-3)


@pytest.mark.parametrize("method, formulation", [
    *[(m, "auto") for m in ("rk4", "dopri5", "scipy:RK45", "scipy:DOP853", "scipy:Radau",
                            "scipy:BDF", "scipy:LSODA")],
    *[(m, f) for m in ("newmark", "hht", "generalized-alpha", "generalized-alpha-s",
                       "backward-euler") for f in ("auto", "dae")]])
def test_ctrl_c_returns_the_partial_result(pendulum, method, formulation):
    """SIGINT (Ctrl-C) sent during a long run stops it within half a second (developer: Ctrl-C and
    progress in compiled loops) with status "interrupted" and the outputs so far: the explicit loop
    and the implicit one on both compiled formulations."""
    import os
    import signal
    import threading
    import time
    sent = []

    def interrupt():
        sent.append(time.perf_counter())
        os.kill(os.getpid(), signal.SIGINT)
    # SciPy's implicit solvers difference the Jacobian of the stiff pendulum column by column in
    # Python (seconds per output of 1 s): they run a small pendulum with outputs every 0.01 s
    model, t_end, every = ((rancf.pendulum(1, 2), 1e3, 10) if method.startswith("scipy:")
                           else (pendulum, 1e4, 1000))
    timer = threading.Timer(0.3, interrupt)
    timer.start()
    try:
        r = rancf.simulate(model, t_end, 1e-3, method=method, output_every=every,
                           formulation=formulation)
    finally:
        timer.cancel()
    stopped = time.perf_counter()
    assert r.status == "interrupted" and "Ctrl-C" in r.message
    assert stopped - sent[0] < 0.5
    assert 1 < len(r.t) and r.t[-1] < t_end and np.all(np.isfinite(r.nodes))


@pytest.mark.parametrize("method", ["rk4", "generalized-alpha", "scipy:RK45"])
def test_progress_bar_shows_simulated_time_and_rate(pendulum, method, capsys):
    """progress="always": a tqdm bar on stderr, ending at t_end with the rate; none by default."""
    rancf.simulate(pendulum, 0.05, 1e-3, method=method)
    assert capsys.readouterr().err == ""
    res = rancf.simulate(pendulum, 0.05, 1e-3, method=method, progress="always")
    last = capsys.readouterr().err.replace("\r", "\n").strip().splitlines()[-1]
    assert res.status == "ok"
    assert last.startswith(method) and "100%" in last and "0.05/0.05 s simulated" in last
    assert re.search(r"[\d,]+ (steps|evaluations)/s", last), last


@pytest.mark.parametrize("method", ["rk4", "generalized-alpha"])
def test_compiled_loops_feed_the_progress_every_tenth_of_a_second(pendulum, method, monkeypatch):
    """The compiled loops report (t, steps) at their Ctrl-C checks, every 0.1 s of wall time
    (rancf.integrators._interrupt), and the steps they report are t / dt."""
    calls = []
    report = RunProgress.report

    def spy(self, t, steps):
        calls.append((time.perf_counter(), t, steps))
        report(self, t, steps)
    monkeypatch.setattr(RunProgress, "report", spy)
    start = time.perf_counter()
    rancf.simulate(pendulum, 30.0, 1e-3, method=method, progress="always", output_every=1000)
    wall = time.perf_counter() - start
    during = np.array(calls[:-1]).reshape(-1, 3)      # the last report is the run's end
    assert len(during) >= min(3, int(wall / 0.1) - 2), (wall, len(during))
    assert np.all(np.diff(during[:, 0]) >= 0.099) and np.all(np.diff(during[:, 1]) > 0)
    assert np.allclose(during[:, 2], np.round(during[:, 1] / 1e-3))
    assert calls[-1][1:] == (pytest.approx(30.0), 30000)


def test_a_failing_progress_report_warns_and_the_run_goes_on(pendulum, monkeypatch):
    def broken(self, t, steps):
        raise OSError("stream closed")
    monkeypatch.setattr(RunProgress, "report", broken)
    monkeypatch.setattr(RunProgress, "close", lambda self, t, steps=None: None)
    # 20,000 steps: longer than the 0.1 s between reports on any machine
    with pytest.warns(RuntimeWarning, match="progress report raised OSError"):
        res = rancf.simulate(pendulum, 20.0, 1e-3, method="rk4", progress="always")
    assert res.status == "ok" and res.t[-1] == pytest.approx(20.0)


def test_bad_progress_is_named(pendulum):
    with pytest.raises(ValueError, match="progress must be True, False or 'always', got 'yes'"):
        rancf.simulate(pendulum, 0.01, 1e-3, progress="yes")


def test_outputs_that_do_not_fit_in_memory_are_refused_up_front(pendulum):
    with pytest.raises(MemoryError, match=r"GiB .*raise output_every"):
        rancf.simulate(pendulum, 1e6, 1e-3, output_every=1)
    with pytest.raises(MemoryError, match="max_memory allows"):
        rancf.simulate(pendulum, 1.0, 1e-3, output_every=1, max_memory=1e5)
    assert rancf.simulate(pendulum, 0.01, 1e-3, max_memory=1e7).status == "ok"


@pytest.mark.parametrize("method, formulation", [
    ("rk4", "recursive"), ("dopri5", "recursive"), ("scipy:RK45", "recursive"),
    ("generalized-alpha", "recursive"), ("generalized-alpha", "dae")])
def test_concurrent_runs_of_one_model_equal_a_serial_run(method, formulation):
    """Runs of one model in threads (the kernels release the GIL) each get their own kernel
    and workspace: every thread's trajectory equals the serial run's exactly, for every
    formulation and family of methods. Sharing the cached kernel, explicit runs wrote into each
    other's arrays (nodes 0.2-0.3 m off, false joint errors)."""
    import threading

    m = rancf.pendulum(n_bodies=3, elements_per_body=4)
    m.add_force(m.beams[-1].end, force=lambda t: (0.0, -10.0 * t))
    dt = 1e-4 if method == "rk4" else 1e-3
    run_options = dict(method=method, formulation=formulation, output_every=10)
    serial = rancf.simulate(m, 0.1, dt, **run_options)
    results = [None] * 4

    def run(k):
        results[k] = rancf.simulate(m, 0.1, dt, **run_options)

    threads = [threading.Thread(target=run, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert serial.status == "ok", serial.message
    for res in results:
        assert res.status == "ok", res.message
        np.testing.assert_array_equal(res.nodes, serial.nodes)
        np.testing.assert_array_equal(res.reactions, serial.reactions)


@pytest.mark.parametrize("what", ["static", "reduced", "scipy:Radau", "newmark-dense-dae"])
def test_statics_reduced_and_other_runs_of_one_model_in_four_threads_equal_serial(what):
    """The issue's "every formulation and method" beyond the test above: statics, a reduced
    model, SciPy's implicit Radau and the dense DAE, one model in four threads at once
    (released together), each equal to the serial call bit for bit."""
    from concurrent_runs import in_threads

    m = rancf.Model(gravity=(0.0, -9.81), elastic_model="berzeri")
    b = m.add_beam(1.0, 8, 2e8, RHO, AREA, INERTIA)
    m.add_joint("fixed" if what == "static" else "revolute", m.ground.point(0.0, 0.0),
                b.start)
    m.add_force(b.end, force=lambda t: (0.0, -1.0 - t))
    if what == "static":
        call = lambda: rancf.static(m)                                  # noqa: E731
    elif what == "reduced":
        reduced = rancf.reduce(m, sparsity=4, n_samples=8)
        call = lambda: rancf.simulate(reduced, 0.02, 1e-3,            # noqa: E731
                                      method="backward-euler", output_every=5)
    elif what == "scipy:Radau":
        call = lambda: rancf.simulate(m, 0.02, 1e-3, method="scipy:Radau",  # noqa: E731
                                      output_every=5)
    else:
        call = lambda: rancf.simulate(m, 0.02, 1e-3, method="newmark",  # noqa: E731
                                      formulation="dae", linear_solver="dense", output_every=5)
    serial = call()
    assert serial.status == "ok", serial.message
    for res in in_threads(call):
        assert res.status == "ok", res.message
        np.testing.assert_array_equal(np.asarray(res.nodes), np.asarray(serial.nodes))


@pytest.mark.parametrize("projection, linear_solver", [("euclidean", "sparse"),
                                                       ("mass", "dense")])
def test_projected_dae_runs_in_threads_equal_a_serial_run(projection, linear_solver):
    """The DAE's forces, LU factors and solves, which its projection shares with Newton's
    iterations, run without the GIL, the drives evaluated before them: a driven closed four-bar
    projected after every step, run by four threads at once, equals the serial run bit for
    bit (each run its own kernel, factors and work arrays). 8 elements a link: the forces, the
    factors and the solves are all above NOGIL_FLOPS."""
    from concurrent_runs import in_threads
    from rancf.formulations._problem import ELEMENT_FORCE_FLOPS, NOGIL_FLOPS
    from rancf.formulations.dae import DAE

    m, _ = four_bar(n_elements=8)
    crank0 = np.pi / 2 - 0.3           # the crank's angle in four_bar's reference configuration
    m.joints[0].drive = lambda t: (crank0 + 2.0 * t, 2.0, 0.0)
    A = m.build()
    assert A.n_elements * ELEMENT_FORCE_FLOPS >= NOGIL_FLOPS
    assert min(DAE(A, linear_solver).compiled.linear_system.flops()) >= NOGIL_FLOPS
    call = lambda: rancf.simulate(m, 0.05, 1e-3, method="generalized-alpha",  # noqa: E731
                                  formulation="dae", projection=projection,
                                  linear_solver=linear_solver, output_every=5)
    serial = call()
    assert serial.status == "ok", serial.message
    # projected: |Phi| <= 1e-15 (1 + max |q|) after each step, |q| < 2 m here (1.3e-12 without)
    assert serial.extra["constraint_violation"][1:, 0].max() < 1e-14
    np.testing.assert_allclose(serial.joint_q[:, 0], crank0 + 2.0 * serial.t, atol=1e-9)
    for res in in_threads(call):
        assert res.status == "ok", res.message
        np.testing.assert_array_equal(np.asarray(res.nodes), np.asarray(serial.nodes))
        np.testing.assert_array_equal(res.velocities, serial.velocities)
        np.testing.assert_array_equal(res.reactions, serial.reactions)


def test_a_built_model_is_read_only():
    """A built model's arrays cannot be written (DECISIONS 33): a run cannot change the model
    another run reads."""
    m = rancf.pendulum(n_bodies=2, elements_per_body=2)
    body = m.add_rigid_body(1.0, 0.1, position=(12.0, 0.0))
    m.add_joint("revolute", m.beams[-1].end, body.point(-2.0, 0.0))
    m.add_force(body.centre, force=(1.0, 0.0))
    A = m.build()
    arrays = {name: value for name, value in vars(A).items()
              if isinstance(value, np.ndarray) and value.size}
    assert len(arrays) > 20
    for name, value in arrays.items():
        with pytest.raises(ValueError, match="read-only"):
            value.flat[0] = value.flat[0]
    assert rancf.simulate(m, 0.01, 1e-4).status == "ok"

