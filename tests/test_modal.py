"""Adaptive modal method: element force, Craig-Bampton, greedy Gauss-Newton, adaptive step.

Each test compares against something independent: direct quadrature and the core's element
kernels, a dense solve, a known synthetic solution, the full Newton step, and RANCF.
"""
import numpy as np
import pytest

import rancf
from rancf.modal import berzeri
from rancf.modal.adaptive import AdaptiveModalStep, latin_hypercube_rows
from rancf.modal.bdf import BDF1Equations, NewtonStep, integrate
from rancf.modal.craig_bampton import CraigBampton
from rancf.modal.greedy_gauss_newton import BlockJacobian, greedy_gauss_newton
from rancf.modal.mechanisms import pendulum, three_rrr

PEND = dict(E=7e5, A=4e-4, I=1.333e-8)


def _bent_element(rng, l=0.2):
    return np.array([0, 0, 1, 0, l, 0, 1, 0.0]) + 0.05 * rng.standard_normal(8)


def test_tensor_force_matches_quadrature_and_core():
    """Contraction with the precomputed axial tensor == 20-point quadrature of the continuum
    force == the core's Berzeri kernel; tangent == central differences."""
    rng = np.random.default_rng(0)
    l = 0.2
    e = _bent_element(rng, l)
    f, U, K = berzeri.elastic_force(e, l, PEND["E"], PEND["A"], PEND["I"], with_tangent=True)
    x, w = np.polynomial.legendre.leggauss(20)
    Uq, fq = 0.0, np.zeros(8)
    for xi, wi in zip(0.5 * (x + 1), 0.5 * w):
        _, dS, ddS = berzeri.shape_derivatives(xi, l)
        rp, rpp = dS @ e, ddS @ e
        eps = 0.5 * (rp @ rp - 1.0)
        Uq += wi * l * 0.5 * (PEND["E"] * PEND["A"] * eps**2 + PEND["E"] * PEND["I"] * rpp @ rpp)
        fq += wi * l * (PEND["E"] * PEND["A"] * eps * dS.T @ rp + PEND["E"] * PEND["I"] * ddS.T @ rpp)
    scale = np.abs(fq).max()
    assert abs(U - Uq) <= 1e-12 * abs(Uq)
    assert np.abs(f - fq).max() <= 1e-12 * scale
    core = rancf.element.elastic_force(e, l, PEND["E"], PEND["A"], PEND["I"], "berzeri")
    assert np.abs(f - core).max() <= 1e-12 * scale
    Kfd = np.empty((8, 8))
    for j in range(8):
        d = np.zeros(8)
        d[j] = 1e-6
        Kfd[:, j] = (berzeri.elastic_force(e + d, l, **PEND)[0]
                     - berzeri.elastic_force(e - d, l, **PEND)[0]) / 2e-6
    assert np.abs(K - Kfd).max() <= 1e-7 * np.abs(K).max()


def test_mass_and_gravity_match_core():
    mats = berzeri.element_matrices(0.3, 7e5, 4e-4, 1e-8, 7200.0)
    assert np.allclose(mats["mass"], rancf.element.mass_matrix(7200.0, 4e-4, 0.3), rtol=0, atol=1e-15)
    assert np.allclose(mats["gravity_shape"] @ [0.0, -9.81],
                       rancf.element.gravity_force(7200.0, 4e-4, 0.3, 9.81), rtol=0, atol=1e-13)


def test_craig_bampton_all_modes_reproduces_linear_solve():
    """With all modes T is square and invertible, and the transformed system
    (T^T A T) p = T^T f reproduces the untransformed solution of A e = f."""
    system, q0, _ = pendulum(n_elements=8)
    M, K = system.mass, system.bending_stiffness()
    cb = CraigBampton(M, K, np.arange(4))
    n = system.n
    assert cb.T.shape == (n, n)
    assert np.linalg.matrix_rank(cb.T) == n
    # modes are mass-orthonormal and the eigenproblem holds
    Maa, Kaa = M.toarray()[4:, 4:], K.toarray()[4:, 4:]
    Phi = cb.normal_modes
    assert np.allclose(Phi.T @ Maa @ Phi, np.eye(n - 4), atol=1e-9)
    assert np.allclose(Kaa @ Phi, Maa @ Phi * cb.frequencies**2, atol=1e-8 * np.abs(Kaa).max())
    A = (M + 1e-6 * K).toarray()  # the BDF-1 step matrix M + h^2 K_t
    f = np.random.default_rng(1).standard_normal(n)
    red = cb.reduce()
    p = np.linalg.solve(red.mass + 1e-6 * red.stiffness, red.basis.T @ f)
    assert np.allclose(cb.reconstruct(p), np.linalg.solve(A, f), rtol=1e-9, atol=0)
    assert np.allclose(cb.reconstruct(cb.project(q0)), q0, atol=1e-13)


def test_greedy_gauss_newton_recovers_sparse_solution():
    """A 5-sparse solution of 30 nonlinear equations in 80 unknowns, from x = 0."""
    rng = np.random.default_rng(1)
    m, N, k = 30, 80, 5
    A = rng.standard_normal((m, N)) / np.sqrt(m)
    B = rng.standard_normal((m, N)) / np.sqrt(m)
    truth = np.zeros(N)
    support = rng.choice(N, k, replace=False)
    truth[support] = rng.uniform(1, 2, k) * rng.choice([-1, 1], k)
    b = A @ truth + 0.2 * (B @ truth) ** 2

    def residual(x, with_jacobian):
        f = A @ x + 0.2 * (B @ x) ** 2 - b
        return (f, A + 0.4 * (B @ x)[:, None] * B) if with_jacobian else f

    result = greedy_gauss_newton(residual, np.zeros(N), np.arange(N), k, tol=1e-12, max_iter=100)
    assert result.status == "converged"
    assert set(np.flatnonzero(result.support)) == set(support)
    assert np.abs(result.x - truth).max() <= 1e-10


def test_latin_hypercube_rows_distinct_and_seeded():
    rows = latin_hypercube_rows(640, 308, 0)
    assert rows.size == 308 and np.unique(rows).size == 308
    assert np.array_equal(rows, latin_hypercube_rows(640, 308, 0))
    with pytest.raises(ValueError, match="n_samples"):
        latin_hypercube_rows(10, 11, 0)


def test_adaptive_all_modes_reproduces_full_step():
    """Sparsity = all interior modes, all rows sampled: the step equals the Newton step."""
    system, q0, v0 = pendulum(n_elements=12)
    ref = integrate(system, NewtonStep(1e-12), q0, v0, 0.05, 1e-3, output_every=50)
    q, v = ref.q[-1], ref.v[-1]  # a deformed, moving state: every modal coordinate non-zero
    eq = BDF1Equations(system, 1e-3)
    eq.set_step(q, v, 0.051)
    x0 = np.concatenate([eq.q_pred, np.zeros(system.m)])
    newton = NewtonStep(1e-12)
    newton.setup(eq)
    x_full, info = newton.solve(x0)
    assert info["converged"]
    na = system.n - 4
    step = AdaptiveModalStep(na, na, tol=1e-12, max_iter=20)
    step.setup(eq)
    x_ad, info_ad = step.solve(x0)
    assert step._last.status == "converged"
    assert np.abs(x_ad[:system.n] - x_full[:system.n]).max() <= 1e-11


@pytest.mark.parametrize("kwargs,name", [
    ({"sparsity": 16, "n_samples": 12}, "sparsity"), ({"sparsity": 4, "n_samples": 10}, "n_samples"),
    ({"sparsity": 4, "n_samples": 20}, "n_samples"), ({"sparsity": 4, "n_samples": 0}, "n_samples"),
    ({"sparsity": 2, "n_samples": 3, "sample": "row", "free_ends": True}, "free ends")])
def test_adaptive_rejects_bad_parameters(kwargs, name):
    system, q0, v0 = pendulum(n_elements=4)  # 4 interior nodes, 16 interior equations
    with pytest.raises(ValueError, match=name):
        AdaptiveModalStep(**kwargs).setup(BDF1Equations(system, 1e-3))


def test_adaptive_rejects_unknown_sampling_unit():
    with pytest.raises(ValueError, match="sample"):
        AdaptiveModalStep(4, 8, sample="element")


def test_row_sampling_count_and_free_end():
    """Row sampling takes exactly n_samples interior rows; with free_ends the tip's four rows
    are among them."""
    system, q0, v0 = pendulum(n_elements=40)
    tip = np.arange(system.n - 4, system.n)
    for free_ends in (False, True):
        step = AdaptiveModalStep(sparsity=20, n_samples=81, seed=3, sample="row",
                                 free_ends=free_ends)
        step.setup(BDF1Equations(system, 1e-3))
        assert np.isin(np.arange(4, system.n), step.rows).sum() == 81
    assert np.isin(tip, step.rows).all()


def test_node_sampling_keeps_whole_nodes():
    system, q0, v0 = pendulum(n_elements=40)
    step = AdaptiveModalStep(sparsity=20, n_samples=80, seed=3)
    step.setup(BDF1Equations(system, 1e-3))
    interior = np.arange(4, system.n)  # the pinned node is the boundary
    sampled = np.isin(interior, step.rows).reshape(-1, 4)
    assert sampled.sum() == 80 and np.all(sampled.all(axis=1) | ~sampled.any(axis=1))
    # boundary rows and the constraint rows are always kept
    assert np.isin(np.r_[0:4, system.n:system.n + system.m], step.rows).all()


def test_full_solver_matches_rancf_pendulum():
    """Full ANCF (BDF-1, Lagrange multipliers) vs RANCF (recursive, RK4) on the same pendulum."""
    system, q0, v0 = pendulum(n_elements=10)
    full = integrate(system, NewtonStep(1e-11), q0, v0, 0.3, 1e-3, output_every=10)
    chain = rancf.Chain([rancf.Body(length=1.0, n_elements=10, E=7e5, rho=7200.0, A=4e-4,
                                    I=1.333e-8, joint="revolute")], gravity=9.81,
                        elastic_model="berzeri")
    ref = rancf.simulate(chain, 0.3, 2e-4, method="rk4", output_every=50)
    tip = np.column_stack([np.interp(full.t, ref.t, ref.tip()[:, j]) for j in range(2)])
    assert np.linalg.norm(full.q[:, -4:-2] - tip, axis=1).max() <= 0.005


def test_full_solver_equals_implicit_rancf_with_the_same_scheme():
    """The same BDF-1 discretization in two formulations: absolute nodal coordinates with a
    Lagrange multiplier for the pin (tensor Berzeri element, sparse LU) and RANCF's relative
    coordinates (core element, O(n) Newton matrix). The pin is linear, so the eliminated and
    the constrained backward Euler give the same discrete trajectory."""
    system, q0, v0 = pendulum(n_elements=12)
    full = integrate(system, NewtonStep(1e-12), q0, v0, 0.2, 1e-3, output_every=10)
    chain = rancf.Chain([rancf.Body(length=1.0, n_elements=12, E=7e5, rho=7200.0, A=4e-4,
                                    I=1.333e-8, joint="revolute")], gravity=9.81,
                        elastic_model="berzeri")
    ref = rancf.simulate(chain, 0.2, 1e-3, method="backward-euler", output_every=10, tol=1e-12)
    assert ref.status == "ok" and np.allclose(ref.t, full.t)
    assert np.abs(full.q.reshape(len(full.t), -1, 4) - ref.nodes).max() < 1e-11


def test_three_rrr_initial_state_consistent():
    system, q0, v0, geo = three_rrr(n_elements=4)
    assert system.n == 4 * 3 + 3 * 4 * 5 + 3
    assert np.abs(system.constraint(q0, 0.0)).max() <= 1e-14
    # velocity constraint: C_q v + dC/dt = 0, dC/dt by central differences in t
    dt = 1e-6
    Ct = (system.constraint(q0, dt) - system.constraint(q0, -dt)) / (2 * dt)
    assert np.abs(system.constraint_jacobian(q0) @ v0 + Ct).max() <= 1e-7


def test_modal_case_quick():
    from validation.cases.modal import CASE
    outcome = CASE.run(True)
    assert outcome.checks[0].passed  # full ANCF vs RANCF within 0.5 % of the length
    assert set(outcome.figures) == {"configurations", "tip", "modes"}
    assert outcome.tables["timing"].shape[0] == 2


def test_rrr_case_quick():
    from validation.cases.rrr import CASE
    outcome = CASE.run(True)
    assert "platform" in outcome.tables and "timing" in outcome.tables


def test_bdf_jacobian_matches_finite_differences_three_rrr():
    """Saddle-point Jacobian (element tangents, constraint Jacobian and Hessian of the plate
    joints) against central differences of the residual, at a rotated, deformed state."""
    system, q0, v0, _ = three_rrr(n_elements=3)
    rng = np.random.default_rng(2)
    q = q0 + 1e-3 * rng.standard_normal(system.n)
    q[-1] = 0.3  # plate angle: the plate joints are nonlinear in theta
    eq = BDF1Equations(system, 1e-3)
    eq.set_step(q0, v0, 0.01)
    x = np.concatenate([q, rng.standard_normal(system.m)])
    _, J = eq.residual(x, with_jacobian=True)
    J = J.toarray()
    fd = np.empty_like(J)
    for j in range(x.size):
        d = np.zeros(x.size)
        d[j] = 1e-6
        fd[:, j] = (eq.residual(x + d) - eq.residual(x - d)) / 2e-6
    assert np.abs(J - fd).max() <= 1e-6 * np.abs(J).max()


def test_greedy_gauss_newton_block_jacobian_two_groups():
    """Two groups whose candidate columns live on disjoint rows, known columns on all rows:
    the BlockJacobian (block QR) and the dense Jacobian both recover the known sparse solution."""
    rng = np.random.default_rng(1)
    m, nk, n_g, k = 44, 4, 40, 4
    N = nk + 2 * n_g
    known = np.arange(nk)
    cols = [nk + np.arange(n_g), nk + n_g + np.arange(n_g)]
    rows = [np.arange(m // 2), np.arange(m // 2, m)]
    A, B = np.zeros((m, N)), np.zeros((m, N))
    for M in (A, B):
        M[:, known] = rng.standard_normal((m, nk)) / np.sqrt(m)
        for r, c in zip(rows, cols):
            M[np.ix_(r, c)] = rng.standard_normal((r.size, c.size)) / np.sqrt(m)
    truth = np.zeros(N)
    truth[known] = rng.uniform(1, 2, nk)
    for c in cols:
        truth[rng.choice(c, k, replace=False)] = rng.uniform(1, 2, k) * rng.choice([-1, 1], k)
    b = A @ truth + 0.2 * (B @ truth) ** 2

    def dense(x, with_jacobian):
        f = A @ x + 0.2 * (B @ x) ** 2 - b
        return (f, A + 0.4 * (B @ x)[:, None] * B) if with_jacobian else f

    def blocks(x, with_jacobian):
        if not with_jacobian:
            return dense(x, False)
        f, J = dense(x, True)
        return f, BlockJacobian(J[:, known], [J[np.ix_(r, c)] for r, c in zip(rows, cols)], rows)

    candidates, groups = np.concatenate(cols), np.repeat([0, 1], n_g)
    for residual in (dense, blocks):
        result = greedy_gauss_newton(residual, np.zeros(N), candidates, [k, k], groups,
                                     tol=1e-12, max_iter=100)
        assert result.status == "converged"
        assert set(candidates[result.support]) == set(np.flatnonzero(truth[nk:]) + nk)
        assert np.abs(result.x - truth).max() <= 1e-10
