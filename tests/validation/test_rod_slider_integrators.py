"""The implicit integrators on the rod-slider of the generalized-alpha paper (the validation
case's system: configuration-dependent mass) against its two minimal coordinates, and the
rod-slider system's own derivatives against the complex step."""
import numpy as np
import pytest

from unittest import mock

from rancf.formulations._problem import PythonProblem
from rancf.integrators.implicit import METHODS, integrate
from validation.cases.rod_slider import ConstantMassRodSlider, LinearAcceleration, RodSlider, run_scheme

CASES = [("newmark", {}), ("hht", {"alpha": 0.9}), ("hht", {"alpha": 2 / 3}),
         ("generalized-alpha", {"rho_inf": 0.8}), ("generalized-alpha-s", {"rho_inf": 0.8})]
STEPS = (0.01, 0.005, 0.0025, 0.00125)


def _last_order(method, params, projection=False, t_end=1.0):
    """Observed order of the last step halving of the largest (theta, s) error over t <= t_end
    against the minimal-coordinate solution (full Newton at tol 1e-12: its error stays far below
    the scheme's)."""
    model = RodSlider()
    q0, v0 = model.initial_state()
    grid = np.round(np.arange(0.0, t_end + 1e-9, STEPS[0]), 10)
    ref = model.reference(grid)[:, :2]
    err = []
    for h in STEPS:
        sol = integrate(model, q0, v0, t_end, h, method=method, projection=projection, tol=1e-12,
                        jacobian="every-iteration", output_every=round(STEPS[0] / h), **params)
        assert sol.status == "ok", sol.message
        err.append(np.abs(sol.q[:, 4:] - ref).max())
    return np.log2(err[-2] / err[-1])


@pytest.mark.parametrize("method,params,order", [
    ("newmark", {}, 2.0), ("generalized-alpha-s", {"rho_inf": 0.8}, 2.0),
    ("generalized-alpha-s", {"rho_inf": 0.0}, 2.0),
    ("hht", {"alpha": 0.9}, 2.0), ("generalized-alpha", {"rho_inf": 0.8}, 2.0)])
def test_rod_slider_order_against_minimal_coordinates(method, params, order):
    """Configuration-dependent mass, the paper's point (section 1): the weighted equilibrium of
    HHT-I3 and generalized-alpha (eq. 9, 12) drops to first order when M depends on q (measured
    0.99-1.00 over these steps), which is why rancf runs them in Arnold and Bruls' form (the
    equation at t_n+1, rancf/integrators/implicit.py): second order, as Newmark and
    generalized-alpha-S (eq. 14) are (measured 2.00 for all five); margin 0.05."""
    assert _last_order(method, params) == pytest.approx(order, abs=0.05)


@pytest.mark.parametrize("projection,order", [("euclidean", 1.0), ("mass", 2.0)])
def test_projection_metric_decides_the_order(projection, order):
    """The paper's projection (eq. 15-17, Euclidean metric) drops Newmark to first order; the
    kinetic-energy metric keeps its second order (measured 0.99 and 2.00; margin 0.05)."""
    assert _last_order("newmark", {}, projection) == pytest.approx(order, abs=0.05)


def test_projection_reaches_round_off_and_is_needed():
    model = RodSlider()
    q0, v0 = model.initial_state()
    kw = dict(method="generalized-alpha", rho_inf=0.9, jacobian="every-iteration")
    free = integrate(model, q0, v0, 2.0, 0.01, **kw)
    proj = integrate(model, q0, v0, 2.0, 0.01, projection=True, **kw)
    vf, vp = free.violations.max(axis=0), proj.violations.max(axis=0)
    # Without projection the index-3 schemes keep Phi only (measured 8e-16); Phi' and Phi''
    # drift (5.7e-4, 0.11); projected, all three stay at round-off (measured <= 1.8e-15).
    assert vf[0] < 1e-14 and vf[1] > 1e-4 and vf[2] > 1e-2
    assert np.all(vp < 1e-14), vp


def test_newton_failure_is_reported_and_keeps_results():
    model = RodSlider()
    q0, v0 = model.initial_state()
    # at dt itself (max_cuts=0): one iteration reaches no tolerance at any step
    sol = integrate(model, q0, v0, 1.0, 0.01, method="newmark", max_iter=1, tol=1e-16,
                    max_cuts=0)
    assert sol.status == "failed"
    assert "Newton did not converge" in sol.message and "t = 0.01" in sol.message
    assert len(sol.t) == 1 and sol.t[0] == 0.0  # the initial state is kept


def test_newton_converges_fast_with_exact_matrix():
    """Work-counter bounds: full Newton with the exact matrix needs at most 3 iterations a step;
    modified Newton (the default) factors a matrix in about one step of four (measured 24-27 in
    100 steps, at 4.7 iterations a step) and, a factorization counted as the problem's
    ``factor_cost`` iterations, costs a fifth of full Newton (measured 0.17; bound 0.25), for the
    same trajectory (measured within 2e-9 of it: tol 1e-10 over 100 steps; bound 2e-8)."""
    model = RodSlider()
    q0, v0 = model.initial_state()
    for method, params in CASES:
        full = integrate(model, q0, v0, 1.0, 0.01, method=method, jacobian="every-iteration", **params)
        assert full.newton_iterations.max() <= 3, method
        assert full.stats["steps"] == 100 and full.stats["nlu"] == full.stats["newton_iterations"] + 1
        kept = integrate(model, q0, v0, 1.0, 0.01, method=method, **params)
        assert kept.stats["nlu"] <= 30, method
        cost = PythonProblem(model).factor_cost
        work = {k: s.stats["newton_iterations"] + cost * s.stats["nlu"]
                for k, s in (("kept", kept), ("full", full))}
        assert work["kept"] < 0.25 * work["full"], (method, work)
        assert np.abs(kept.q - full.q).max() < 2e-8, method


def test_rod_slider_derivatives_against_complex_step():
    model = RodSlider()
    rng = np.random.default_rng(0)
    q, v, a = rng.standard_normal(6), rng.standard_normal(6), rng.standard_normal(6)

    def cs(fun, x):
        return np.array([fun(x + 1e-30j * u).imag / 1e-30 for u in np.eye(6)]).T

    assert np.allclose(model.mass_derivative(q, a), cs(lambda x: model.mass(x) @ a, q), atol=1e-12)
    assert np.allclose(model.stiffness(q, v, 0.0), -cs(lambda x: model.force(x, v, 0.0), q), atol=1e-11)
    assert np.allclose(model.damping(q, v, 0.0), -cs(lambda x: model.force(q, x, 0.0), v), atol=1e-12)
    # the mass matrix is the kinetic energy's: T = 1/2 m_B |r_B'|^2 + 1/2 m_A |r_C'|^2 + 1/2 J_C w^2
    t, n = np.array([np.cos(q[4]), np.sin(q[4])]), np.array([-np.sin(q[4]), np.cos(q[4])])
    vb = v[:2] + v[5] * t + q[5] * v[4] * n
    T = 0.5 * model.m_b * vb @ vb + 0.5 * model.m_a * v[2:4] @ v[2:4] + 0.5 * model.j_c * v[4] ** 2
    assert np.isclose(0.5 * v @ model.mass(q) @ v, T)
    # energy(): kinetic part 1/2 v^T M v, potential part (the spring) whose -gradient is the force
    # at rest, vectorised over a stack of states
    Q, V = rng.standard_normal((3, 6)), rng.standard_normal((3, 6))
    H = model.energy(Q, V)
    for qi, vi, h in zip(Q, V, H):
        assert np.isclose(h - model.energy(qi, np.zeros(6)), 0.5 * vi @ model.mass(qi) @ vi)
        assert np.allclose(-cs(lambda x: model.energy(x, np.zeros(6))[None], qi)[0],
                           model.force(qi, np.zeros(6), 0.0), atol=1e-10)


def test_mass_projection_is_kinetic_energy_orthogonal():
    """projection='mass': the projected v satisfies Phi_q v = 0, never has more kinetic energy,
    and the removed part is M-orthogonal to every admissible velocity."""
    model = RodSlider()
    q0, v0 = model.initial_state(theta=0.4, s=1.2)
    rng = np.random.default_rng(3)
    v_raw, a_raw = rng.standard_normal(6), rng.standard_normal(6)
    q, v, a = PythonProblem(model, "mass").projected(q0, v_raw, a_raw, 0.0)
    J, M = model.constraint_jacobian(q, 0.0), model.mass(q)
    assert np.abs(J @ v).max() < 1e-13
    assert np.abs(J @ a + model.acceleration_bias(q, v, 0.0)).max() < 1e-12
    assert v @ M @ v <= v_raw @ M @ v_raw
    null = np.linalg.svd(J)[2][4:]        # admissible velocities span the null space of J
    assert np.abs(null @ M @ (v_raw - v)).max() < 1e-12


@pytest.mark.parametrize("rod_inertia,about_o", [("centre", 1.0 / 3.0), ("printed", 7.0 / 12.0)])
def test_rod_inertia_about_the_pivot(rod_inertia, about_o):
    """A rod turning about its end has the inertia m l^2 / 3 there; the paper's printed entry
    (eq. 23: m_A l^2 / 3 beside the centre's translation) counts the rod twice, 7/12 m_A l^2. With
    the slider at the pivot and the spring at rest, H is the rod's kinetic energy."""
    model = RodSlider(s0=0.0, rod_inertia=rod_inertia)
    q, v = model.initial_state(theta=0.7, s=0.0, omega=3.0)
    assert model.energy(q, v) == pytest.approx(0.5 * about_o * model.m_a * model.l ** 2 * 9.0, rel=1e-14)
    assert np.abs(model.constraint(q, 0.0)).max() < 1e-15
    assert np.abs(model.constraint_jacobian(q, 0.0) @ v).max() < 1e-15


def test_minimal_coordinates_conserve_energy_and_angular_momentum():
    """The reference (DOP853 at 1e-13) keeps H and the angular momentum about O,
    (J_O + m_B s^2) theta', to 1e-10 relative over 5 s (both are invariants of the rod-slider
    without gravity; measured 1e-12); the DAE's H formula, on the same states embedded in its six
    coordinates, gives the same H."""
    model = RodSlider()
    t = np.linspace(0.0, 5.0, 501)
    th, x, om, xd = model.reference(t).T
    j_o = model.j_c + model.m_a * model.l ** 2 / 4
    H = 0.5 * (j_o + model.m_b * x ** 2) * om ** 2 + 0.5 * model.m_b * xd ** 2 + 0.5 * model.k * (x - model.s0) ** 2
    momentum = (j_o + model.m_b * x ** 2) * om
    assert np.abs(H / H[0] - 1).max() < 1e-10
    assert np.abs(momentum / momentum[0] - 1).max() < 1e-10
    assert np.ptp(x) > 0.1 and np.ptp(om) > 0.5          # the slider and the rotation really exchange energy
    q, v = np.zeros((len(t), 6)), np.zeros((len(t), 6))
    q[:, 2], q[:, 3], q[:, 4], q[:, 5] = np.cos(th), np.sin(th), th, x
    v[:, 2], v[:, 3], v[:, 4], v[:, 5] = -np.sin(th) * om, np.cos(th) * om, om, xd
    np.testing.assert_allclose(model.energy(q, v), H, rtol=1e-13)


def test_linear_acceleration_newmark_is_lent_for_one_call():
    """Newmark beta = 1/6 (ours) runs through rancf's integrator without staying registered; with
    the kinetic-energy projection it is second order; without projection it fails at once (at
    index 3 the scheme amplifies the constraint forces for beta < 1/4: measured 0.22 s)."""
    assert LinearAcceleration.beta == pytest.approx(1 / 6) and LinearAcceleration.gamma == 0.5
    sol, de, _ = run_scheme(LinearAcceleration.name, {}, False, 1.0)
    assert sol.status != "ok" and sol.t[-1] < 0.5
    assert LinearAcceleration.name not in METHODS
    # the energy error of a second-order scheme falls by 2^2 per halving of h (3 for the
    # pre-asymptotic range; the kinetic-energy projection adds no energy)
    errors = []
    for h in (0.01, 0.005):
        sol, de, _ = run_scheme(LinearAcceleration.name, {}, "mass", 1.0, h)
        assert sol.status == "ok"
        errors.append(np.abs(de).max())
    assert errors[0] / errors[1] > 3.0, errors
    with mock.patch.dict(METHODS, {LinearAcceleration.name: LinearAcceleration}):
        assert _last_order(LinearAcceleration.name, {}, "mass") == pytest.approx(2.0, abs=0.05)


def test_constant_mass_rod_slider_derivatives_against_complex_step():
    """The body-coordinate rod-slider: stiffness, constraint Jacobian, curvature and acceleration
    bias against complex steps of force and constraint; its energy and state agree with the
    six-coordinate model's for the same motion."""
    model = ConstantMassRodSlider()
    rng = np.random.default_rng(1)
    q, v, lam = rng.standard_normal(5), rng.standard_normal(5), rng.standard_normal(3)

    def cs(fun, x):
        return np.array([fun(x + 1e-30j * u).imag / 1e-30 for u in np.eye(5)]).T

    assert np.allclose(model.stiffness(q, v, 0.0), -cs(lambda x: model.force(x, v, 0.0), q), atol=1e-10)
    J = model.constraint_jacobian(q, 0.0)
    assert np.allclose(J, cs(lambda x: model.constraint(x, 0.0), q), atol=1e-12)
    # d(J^T lam)/dq, written out with the constraint's second derivatives
    second = [np.array([[0, 0, 0, 0, 0], [0, 0, 0, 0, 0], [0, 0, np.cos(q[2]), 0, 0], [0] * 5, [0] * 5]),
              np.array([[0] * 5, [0] * 5, [0, 0, np.sin(q[2]), 0, 0], [0] * 5, [0] * 5])]
    H = model.constraint_curvature(q, lam, 0.0)
    c, s = np.cos(q[2]), np.sin(q[2])
    phi3 = np.zeros((5, 5))
    phi3[2, 2] = q[3] * s - q[4] * c
    phi3[2, 3] = phi3[3, 2] = -c
    phi3[2, 4] = phi3[4, 2] = -s
    assert np.allclose(H, 0.5 * model.l * (lam[0] * second[0] + lam[1] * second[1]) + lam[2] * phi3, atol=1e-12)
    # bias = (dJ/dt) v, J differentiated along v by central differences (O(eps^2) = 1e-12)
    eps = 1e-6
    dJ = (model.constraint_jacobian(q + eps * v, 0.0) - model.constraint_jacobian(q - eps * v, 0.0)) / (2 * eps)
    assert np.allclose(model.acceleration_bias(q, v, 0.0), dJ @ v, atol=1e-8)
    # the potential's -gradient is the force
    assert np.allclose(-cs(lambda x: model.energy(x, np.zeros(5))[None], q)[0],
                       model.force(q, np.zeros(5), 0.0), atol=1e-10)
    # the same state in both coordinate sets: equal energies, consistent constraints
    exact = RodSlider()
    for state in ({}, {"theta": 0.4, "s": 1.3, "omega": -1.1, "s_dot": 0.6}):
        qc, vc = model.initial_state(**state)
        qe, ve = exact.initial_state(**state)
        assert np.isclose(model.energy(qc, vc), exact.energy(qe, ve), rtol=1e-14)
        assert np.allclose(model.constraint(qc, 0.0), 0.0, atol=1e-15)
        assert np.allclose(model.constraint_jacobian(qc, 0.0) @ vc, 0.0, atol=1e-14)
        assert np.allclose(model.minimal(qc), exact.minimal(qe))


@pytest.mark.parametrize("method,params", CASES)
def test_constant_mass_schemes_are_second_order(method, params):
    """With a constant M, the paper's HHT-I3 and generalized-alpha (eq. 9, 12) are second order
    (Arnold & Brüls 2007), Newmark and generalized-alpha-S too: the error in (theta, s) against
    the minimal-coordinate solution falls by 4 per halving of h."""
    model = ConstantMassRodSlider()
    q0, v0 = model.initial_state()
    grid = np.round(np.arange(0.0, 1.0 + 1e-9, STEPS[0]), 10)
    ref = model.reference(grid)[:, :2]
    err = []
    for h in STEPS[1:]:
        sol = integrate(model, q0, v0, 1.0, h, method=method, tol=1e-12, jacobian="every-iteration",
                        output_every=round(STEPS[0] / h), **params)
        assert sol.status == "ok", sol.message
        err.append(np.abs(model.minimal(sol.q) - ref).max())
    assert np.log2(err[-2] / err[-1]) == pytest.approx(2.0, abs=0.1)


def test_one_run_by_names_is_run_scheme_on_a_fresh_model():
    # the case hands its runs to map_runs by names (model, scheme index, projection); each must be
    # the direct call's run, bit for bit (a second path to the same integration)
    from validation.cases.rod_slider import SCHEMES, one_run

    label, method, params, _ = SCHEMES[7]
    sol, de, _ = run_scheme(method, params, "euclidean", 0.5, 0.01, RodSlider(rod_inertia="printed"),
                            (3.0, 1.0))
    r = one_run("printed", 7, "euclidean", 0.5, 0.01, omega=3.0, s=1.0)
    assert label == "generalized-alpha-S rho=1" and r["status"] == sol.status == "ok"
    np.testing.assert_array_equal(r["t"], sol.t)
    np.testing.assert_array_equal(r["de"], de)
    np.testing.assert_array_equal(r["violations"], sol.violations)
    np.testing.assert_array_equal(r["minimal"], RodSlider().minimal(sol.q))
    assert r["h0"] == RodSlider(rod_inertia="printed").energy(sol.q[0], sol.v[0])
    constant = one_run("constant", 0, "False", 0.5, 0.01)
    sol, de, _ = run_scheme("newmark", {}, False, 0.5, 0.01, ConstantMassRodSlider())
    np.testing.assert_array_equal(constant["de"], de)
