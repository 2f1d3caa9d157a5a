"""The adaptive modal reduction (rancf.reduce): Craig-Bampton, sampling, greedy Gauss-Newton and
the adaptive step in the shared implicit loop.

Each test compares against something independent: an exact bending energy, a dense solve, a
known synthetic solution, the full Newton step, and a second formulation (implicit RANCF).
"""
import numpy as np
import pytest

import rancf
from rancf.formulations.dae import DAE
from rancf.formulations.reduced import (AdaptiveModalSolver, CraigBampton, Timer,
                                        greedy_gauss_newton, latin_hypercube_rows)
from rancf.formulations.reduced.greedy_gauss_newton import STATUSES, BlockJacobian
from rancf.formulations.reduced.reductor import beam_matrices
from rancf.simulate import simulate_timed

from models import UnitOscillator

PEND = dict(length=1.0, E=7e5, rho=7200.0, A=4e-4, I=1.333e-8)


def pendulum(n_elements, elastic_model="berzeri"):
    """The adaptive-modal paper's pendulum (table 1) with n_elements."""
    m = rancf.Model(gravity=(0.0, -9.81), elastic_model=elastic_model)
    b = m.add_beam(PEND["length"], n_elements, E=PEND["E"], rho=PEND["rho"], A=PEND["A"],
                   I=PEND["I"])
    m.add_joint("revolute", m.ground.point(0.0, 0.0), b.start)
    return m


def deformed_state(model, t_end=0.05):
    """A deformed, moving state (every modal coordinate non-zero): the full model after t_end."""
    res = rancf.simulate(model, t_end, 1e-3, method="backward-euler", formulation="dae",
                         output_every=50, tol=1e-12)
    assert res.status == "ok"
    return res.state(-1)


def test_bending_stiffness_is_the_exact_bending_energy():
    """K_t of the element kernel (Berzeri tangent with EA = 0): for r(s) = (s, c s^2 / 2), which
    the cubic Hermite shape functions hold exactly, e^T K_t e / 2 = EI c^2 L / 2."""
    model = pendulum(6)
    M, K = beam_matrices(model.build(), 0)
    s = np.linspace(0.0, PEND["length"], 7)[:, None]
    c = 0.7
    e = np.hstack([s, c * s**2 / 2, np.ones_like(s), c * s]).ravel()
    EI = PEND["E"] * PEND["I"]
    assert 0.5 * e @ K @ e == pytest.approx(0.5 * EI * c**2 * PEND["length"], rel=1e-12)
    assert np.abs(K @ model.build().x0).max() <= 1e-12 * np.abs(K).max()  # straight: no bending
    assert np.allclose(M, M.T) and np.allclose(K, K.T)


def test_craig_bampton_all_modes_reproduces_linear_solve():
    """With all modes T is square and invertible, the modes are mass-orthonormal eigenvectors,
    and the transformed system (T^T A T) p = T^T f reproduces the solution of A e = f."""
    model = pendulum(8)
    M, K = beam_matrices(model.build(), 0)
    cb = CraigBampton(M, K, np.arange(4))
    n = M.shape[0]
    assert cb.T.shape == (n, n) and np.linalg.matrix_rank(cb.T) == n
    Maa, Kaa, Phi = M[4:, 4:], K[4:, 4:], cb.normal_modes
    assert np.allclose(Phi.T @ Maa @ Phi, np.eye(n - 4), atol=1e-9)
    assert np.allclose(Kaa @ Phi, Maa @ Phi * cb.frequencies**2, atol=1e-8 * np.abs(Kaa).max())
    A = M + 1e-6 * K  # the backward-Euler step matrix M + h^2 K_t
    f = np.random.default_rng(1).standard_normal(n)
    red = cb.reduce()
    p = np.linalg.solve(red.mass + 1e-6 * red.stiffness, red.basis.T @ f)
    assert np.allclose(cb.reconstruct(p), np.linalg.solve(A, f), rtol=1e-9, atol=0)


def test_reduced_model_reconstruct_and_project_are_inverse():
    model = pendulum(10)
    reduced = rancf.reduce(model, 20, 24)
    x = deformed_state(model).x
    c = reduced.project(x)
    assert np.abs(reduced.reconstruct(c) - x).max() <= 1e-13
    assert np.abs(reduced.project(reduced.reconstruct(c)) - c).max() <= 1e-11 * np.abs(c).max()
    # only interior coordinates change; every beam coordinate is a candidate or a boundary one
    assert np.array_equal(c[:4], x[:4]) and reduced.candidates.size == model.build().n_x - 4
    with pytest.raises(ValueError, match="c must have shape"):
        reduced.reconstruct(c[:-1])


def test_adaptive_all_modes_and_rows_is_the_newton_step():
    """Sparsity = all interior modes and all rows sampled: the system is square and greedy
    Gauss-Newton is Newton's method in modal coordinates; one step from a deformed, moving state
    equals the full model's Newton step."""
    model = pendulum(12)
    state = deformed_state(model)
    na = model.build().n_x - 4
    full = rancf.simulate(model, 1e-3, 1e-3, method="backward-euler", formulation="dae",
                          output_every=1, state=state, tol=1e-12)
    reduced = rancf.reduce(model, na, na, tol=1e-12, max_iter=20)
    step = rancf.simulate(reduced, 1e-3, 1e-3, method="backward-euler", output_every=1,
                          state=state)
    assert step.status == "ok" and step.stats["greedy_converged"] == 1
    assert np.abs(step.nodes[-1] - full.nodes[-1]).max() <= 1e-11
    assert np.abs(step.velocities[-1] - full.velocities[-1]).max() <= 1e-8  # (q1 - q0) / h
    assert step.extra["selected"][-1].all()


def test_reduced_problem_in_the_loop_is_the_full_newton_run():
    """The reduced model as a problem of the implicit loop (``ReducedModel.equations``, run by
    ``rancf.implicit.integrate`` as a full formulation's problem is) with all modes and all rows:
    greedy Gauss-Newton on the modal coordinates is Newton's method in another basis, so 20
    steps from a deformed, moving state follow the full DAE run by the loop's own compiled
    Newton, each step converged to tol in both (velocities are (q1 - q0) / h)."""
    model = pendulum(12)
    state = deformed_state(model)
    na = model.build().n_x - 4
    tol, h, n_steps = 1e-12, 1e-3, 20
    problem, x0, v0 = rancf.reduce(model, na, na, tol=tol, max_iter=20).equations(state)
    sol = rancf.implicit.integrate(problem, x0, v0, n_steps * h, h, method="backward-euler",
                                   tol=tol, max_iter=20, output_every=4)
    dae = DAE(model.build(), "sparse")
    q0, qd0 = dae.initial_state(state.x, state.v)
    full = rancf.implicit.integrate(dae.compiled, q0, qd0, n_steps * h, h,
                                    method="backward-euler", tol=tol, output_every=4)
    assert sol.status == full.status == "ok" and sol.formulation == "reduced"
    assert sol.stats["steps"] == n_steps and sol.stats["greedy_converged"] == n_steps
    # the full run's outputs are mapped when asked (Solution.nodes a callable, DECISIONS 32)
    frames = full.nodes()
    assert np.abs(sol.nodes - frames["nodes"]).max() <= n_steps * tol
    assert np.abs(sol.velocities - frames["velocities"]).max() <= n_steps * tol / h
    assert sol.extra["selected"][1:].all() and not sol.extra["selected"][0].any()


def test_reduced_outputs_are_those_of_the_output_time():
    """What the reduced problem adds at an output is that of the step ending at the output's
    time, whenever it is asked: observing the stored states again after the run, in another
    order, gives the run's own outputs (the loop may map its states during or after a run)."""
    model = pendulum(10)
    reduced = rancf.reduce(model, 12, 24, seed=1)
    problem, x0, v0 = reduced.equations()
    sol = rancf.implicit.integrate(problem, x0, v0, 0.01, 1e-3, method="backward-euler",
                                   tol=reduced.tol, max_iter=reduced.max_iter, output_every=5)
    assert sol.status == "ok" and len(sol.t) == 3
    for k in (2, 0, 1):  # out of order: nothing depends on the order of the calls
        seen = problem.observe(sol.q[k], sol.v[k], sol.a[k], sol.t[k], sol.lam[k])
        assert np.array_equal(seen["nodes"], sol.nodes[k])
        for name in ("selected", "modal_coordinates", "residual_norm",
                     "gauss_newton_iterations"):
            assert np.array_equal(seen[name], sol.extra[name][k]), name
    assert not sol.extra["selected"][0].any() and sol.extra["selected"][1:].sum(axis=1).max() <= 12


def test_problem_supplies_its_step_solver_and_counters():
    """A problem's ``step_solver`` replaces the loop's Newton unless ``solver=`` is given, and
    its ``run_stats`` joins the Solution's stats: a linear oscillator ``q'' = -q`` whose solver
    is one exact linear solve per step (it counts its calls) gives the loop's Newton trajectory
    and one call per step."""
    class Counting:
        def __init__(self):
            self.calls = 0

        def solve(self, eq, a, lam):
            self.calls += 1
            r_dyn, r_con = eq.residual(a, lam)
            da, dlam = eq.matrix(a, lam).solve(-r_dyn, -r_con)
            return a + da, lam + dlam, 1

    class Oscillator(UnitOscillator):
        def __init__(self, step_solver=None):
            if step_solver is not None:
                self.step_solver = step_solver

        def run_stats(self):
            return {"solver_calls": self.step_solver.calls} if hasattr(self, "step_solver") \
                else {}

    run = dict(t_end=1.0, dt=0.01, method="newmark", tol=1e-13)
    own = Oscillator(Counting())
    mine = rancf.implicit.integrate(own, [1.0], [0.0], **run)
    newton = rancf.implicit.integrate(Oscillator(), [1.0], [0.0], **run)
    assert mine.stats["solver_calls"] == mine.stats["steps"] == 100
    assert np.abs(mine.q - newton.q).max() <= 1e-13
    given = Counting()
    rancf.implicit.integrate(Oscillator(own.step_solver), [1.0], [0.0], solver=given, **run)
    assert given.calls == 100 and own.step_solver.calls == 100


def test_adaptive_run_result_and_timing(tmp_path):
    """A short adaptive run: an ordinary Result of reconstructed nodes, the selected modes within
    the sparsity, modal coordinates that reconstruct the nodes, the time split; it is saved and
    loaded like any Result."""
    model = pendulum(10)
    reduced = rancf.reduce(model, 12, 24, seed=1)
    res = rancf.simulate(reduced, 0.01, 1e-3, method="backward-euler", output_every=5)
    assert res.status == "ok" and res.formulation == "reduced" and len(res.t) == 3
    assert res.nodes.shape == (3, 11, 4)
    assert res.extra["selected"].shape == (3, 40)
    assert not res.extra["selected"][0].any() and res.extra["selected"].sum(axis=1).max() <= 12
    x = res.nodes[-1].ravel()
    c = np.zeros(x.size)
    c[:4] = x[:4]
    c[reduced.candidates] = res.extra["modal_coordinates"][-1]
    assert np.abs(reduced.reconstruct(c) - x).max() <= 1e-13
    assert res.stats["steps"] == 10 and sum(res.stats[f"greedy_{k}"] for k in STATUSES) == 10
    assert 0 < res.stats["time_update"] + res.stats["time_matrix"] <= res.wall_time
    res.save(tmp_path / "reduced.npz")
    loaded = rancf.load(tmp_path / "reduced.npz")
    assert np.array_equal(loaded.nodes, res.nodes) and loaded.stats == res.stats
    assert np.array_equal(loaded.extra["selected"], res.extra["selected"])


def test_timed_full_run_equals_the_compiled_run():
    """The timed full model (DAE called from Python, SuperLU) and rancf.simulate (compiled DAE):
    the same loop and equations, so the same trajectory up to the Newton tolerance."""
    model = pendulum(8)
    timed = simulate_timed(model, 0.02, 1e-3, output_every=5, tol=1e-12)
    compiled = rancf.simulate(model, 0.02, 1e-3, method="backward-euler", formulation="dae",
                              output_every=5, tol=1e-12)
    assert timed.status == "ok" and np.abs(timed.nodes - compiled.nodes).max() <= 20 * 1e-12
    assert 0 < timed.stats["time_update"] + timed.stats["time_matrix"] <= timed.wall_time


def test_dae_backward_euler_equals_recursive_backward_euler():
    """The same discrete equations in two formulations: absolute coordinates with a multiplier
    for the pin, and RANCF's relative coordinates. The pin is linear, so the constrained and the
    eliminated backward Euler give the same trajectory (to the Newton tolerance per step)."""
    model = pendulum(12)
    runs = [rancf.simulate(model, 0.2, 1e-3, method="backward-euler", formulation=f,
                           output_every=10, tol=1e-12) for f in ("dae", "recursive")]
    assert all(r.status == "ok" for r in runs) and np.allclose(runs[0].t, runs[1].t)
    assert np.abs(runs[0].nodes - runs[1].nodes).max() <= 200 * 1e-12


def test_reduce_needs_the_berzeri_model():
    for elastic_model in ("shabana", "reissner"):
        with pytest.raises(ValueError, match="elastic_model='berzeri'"):
            rancf.reduce(pendulum(4, elastic_model), 4, 8)


def test_reduced_simulate_takes_backward_euler_only():
    reduced = rancf.reduce(pendulum(4), 4, 8)
    with pytest.raises(ValueError, match="method"):
        rancf.simulate(reduced, 0.01, 1e-3, method="rk4")
    with pytest.raises(ValueError, match="formulation"):
        rancf.simulate(reduced, 0.01, 1e-3, method="backward-euler", formulation="recursive")


def test_reduced_run_starts_from_the_full_models_equilibrium_it_is_pointed_to():
    # state="static" is refused, pointing to the full model's equilibrium as a State: that
    # start is taken as it is (its first output is the equilibrium's tip, up to statics'
    # tolerance 1e-10 m and the DAE's consistency projection of the same order). The run's
    # status is not the point: this hanging beam's reduced run diverges from the reference
    # configuration too (the method's validated case is the swinging pendulum)
    m = rancf.Model(gravity=(0.0, -9.81), elastic_model="berzeri")
    b = m.add_beam(1.0, 10, E=7e5, rho=7200.0, A=4e-4, I=1.333e-8, angle=-np.pi / 2)
    m.add_joint("revolute", m.ground.point(0.0, 0.0), b.start)
    reduced = rancf.reduce(m, 10, 20, seed=0)
    with pytest.raises(ValueError, match=r"state='static' is not offered for a reduced model.*"
                       r"state=rancf\.static\(reduced\.model\)\.state\(0\)"):
        rancf.simulate(reduced, 0.01, 1e-3, state="static")
    eq = rancf.static(reduced.model)
    res = rancf.simulate(reduced, 0.01, 1e-3, state=eq.state(0))
    assert eq.status == "ok"
    assert np.abs(res.tip()[0] - eq.tip()[-1]).max() < 1e-9


def test_latin_hypercube_rows_distinct_and_seeded():
    rows = latin_hypercube_rows(640, 308, 0)
    assert rows.size == 308 and np.unique(rows).size == 308
    assert np.array_equal(rows, latin_hypercube_rows(640, 308, 0))
    # one row in each stratum of 640/308 rows
    strata = np.floor(rows * 308 / 640).astype(int)
    assert np.array_equal(np.sort(strata), np.arange(308))
    with pytest.raises(ValueError, match="n_samples"):
        latin_hypercube_rows(10, 11, 0)


@pytest.mark.parametrize("kwargs,error,name", [
    ({"sparsity": 16, "n_samples": 12}, ValueError, "sparsity"),
    ({"sparsity": 4, "n_samples": 10}, ValueError, "n_samples"),
    ({"sparsity": 4, "n_samples": 20}, ValueError, "n_samples"),
    ({"sparsity": 4, "n_samples": 0}, ValueError, "n_samples"),
    ({"sparsity": 2, "n_samples": 3, "sample": "row", "free_ends": True}, ValueError, "free ends"),
    ({"sparsity": 4, "n_samples": 8, "sample": "element"}, ValueError, "sample"),
    ({"sparsity": 4, "n_samples": 8, "free_ends": "yes"}, TypeError, "free_ends"),
    ({"sparsity": 4.0, "n_samples": 8}, TypeError, "sparsity"),
    ({"sparsity": [4, 4], "n_samples": 8}, TypeError, "sparsity"),
    ({"sparsity": 4, "n_samples": 8, "max_support": 3}, ValueError, "max_support"),
    ({"sparsity": 4, "n_samples": 8, "tol": 0.0}, ValueError, "tol"),
    ({"sparsity": 4, "n_samples": 8, "max_iter": 0}, ValueError, "max_iter"),
    ({"sparsity": 4, "n_samples": 8, "seed": True}, TypeError, "seed"),
    ({"sparsity": 4, "n_samples": 8, "seed": np.int64(-2)}, ValueError, "seed")])
def test_reduce_rejects_bad_parameters(kwargs, error, name):
    model = pendulum(4)  # 4 interior nodes, 16 interior equations
    with pytest.raises(error, match=name):
        rancf.reduce(model, **kwargs)


def test_reduce_takes_every_documented_kind_of_seed():
    # the sample is NumPy's for the same generator stream: an integer of any type seeds
    # default_rng alike, and a Generator given is used as it is (default_rng returns it)
    model = pendulum(10)
    rows = rancf.reduce(model, 8, 20, seed=5).rows
    assert np.array_equal(rancf.reduce(model, 8, 20, seed=np.int64(5)).rows, rows)
    assert np.array_equal(rancf.reduce(model, 8, 20, seed=np.random.default_rng(5)).rows, rows)
    assert rancf.reduce(model, 8, 20, seed=None).rows.size == rows.size


def test_row_sampling_count_and_free_end():
    """Row sampling keeps exactly n_samples interior rows; with free_ends the tip's four rows
    are among them."""
    model = pendulum(40)
    n = model.build().n_x
    tip = np.arange(n - 4, n)
    for free_ends in (False, True):
        reduced = rancf.reduce(model, 20, 81, seed=3, sample="row", free_ends=free_ends)
        assert np.isin(np.arange(4, n), reduced.rows).sum() == 81
    assert np.isin(tip, reduced.rows).all()


def test_node_sampling_keeps_whole_nodes_and_every_other_row():
    model = pendulum(40)
    n = model.build().n_x
    reduced = rancf.reduce(model, 20, 80, seed=3)
    interior = np.arange(4, n)  # the pinned node is the boundary
    sampled = np.isin(interior, reduced.rows).reshape(-1, 4)
    assert sampled.sum() == 80 and np.all(sampled.all(axis=1) | ~sampled.any(axis=1))
    assert np.isin(np.arange(4), reduced.rows).all()
    dae = DAE(model.build())
    solver = AdaptiveModalSolver(reduced, dae.M.diagonal(), dae.n_constraints, Timer())
    assert np.isin(n + np.arange(dae.n_constraints), solver.rows).all()


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


def _least_squares_problem(noise=0.0):
    """60 equations, 3 known and 40 candidate unknowns, a 6-sparse truth, data with noise (no
    sparse x gives f = 0), and optionally a rounding-like term of amplitude ``noise`` that a
    change of x in its last bits changes entirely (not in the Jacobian, as rounding is not)."""
    rng = np.random.default_rng(3)
    m, nk, N, k = 60, 3, 43, 6
    A = rng.standard_normal((m, N)) / np.sqrt(m)
    B = rng.standard_normal((m, N)) / np.sqrt(m)
    C = rng.standard_normal((m, N))
    truth = np.zeros(N)
    truth[:nk] = rng.uniform(1, 2, nk)
    support = nk + rng.choice(N - nk, k, replace=False)
    truth[support] = rng.uniform(1, 2, k) * rng.choice([-1, 1], k)
    b = A @ truth + 0.2 * (B @ truth) ** 2 + 1e-3 * rng.standard_normal(m)

    def residual(x, with_jacobian, noise=noise):
        f = A @ x + 0.2 * (B @ x) ** 2 - b + noise * np.sin(1e17 * (C @ x))
        return (f, A + 0.4 * (B @ x)[:, None] * B) if with_jacobian else f

    return residual, np.arange(nk), np.arange(nk, N), set(support), k


def _scipy_least_squares(residual, S, N):
    """scipy.optimize.least_squares (Levenberg-Marquardt, its own stopping rules) on the
    unknowns S from zero, and the residual there."""
    from scipy.optimize import least_squares

    def on_support(z, with_jacobian=False):
        x = np.zeros(N)
        x[S] = z
        out = residual(x, with_jacobian, noise=0.0)
        return out[1][:, S] if with_jacobian else out

    reference = least_squares(on_support, np.zeros(S.size), jac=lambda z: on_support(z, True),
                              method="lm", xtol=1e-15, ftol=1e-15, gtol=1e-15)
    return reference.x, np.linalg.norm(reference.fun)


def test_greedy_gauss_newton_finds_the_least_squares_point():
    """Overdetermined on every support: no sparse x gives f = 0, so a step ends at the
    least-squares point of its support. Greedy Gauss-Newton reports 'converged' there with the
    true support; scipy's least_squares on the same support finds the same point, and the
    gradient J_S^T f of the test's own Jacobian vanishes to ||J_S|| tol (the decrement test's
    bound)."""
    residual, known, candidates, support, k = _least_squares_problem()
    N, tol = known.size + candidates.size, 1e-12
    result = greedy_gauss_newton(residual, np.zeros(N), candidates, k, tol=tol, max_iter=100)
    assert result.status == "converged" and result.decrement <= tol
    assert set(candidates[result.support]) == support
    S = np.concatenate([known, candidates[result.support]])
    x_ref, norm_ref = _scipy_least_squares(residual, S, N)
    f, J = residual(result.x, True)
    assert norm_ref > 1e-4  # a least-squares point, not a solution
    assert result.residual_norm == pytest.approx(norm_ref, rel=1e-12)
    assert np.abs(result.x[S] - x_ref).max() <= 1e-8  # scipy's own |J^T f| is ~1e-10
    assert np.linalg.norm(J[:, S].T @ f) <= 2.0 * np.linalg.norm(J[:, S], 2) * tol


def test_greedy_gauss_newton_stops_at_the_rounding_of_the_residual():
    """The same problem with a rounding-like term of 1e-9 per equation, far above tol = 1e-12:
    the decrement cannot fall below that term's size, so the test on tol alone never passes.
    Greedy Gauss-Newton measures the rounding, reports 'converged' with a decrement of the
    rounding's order (below 2 ||noise|| <= 2e-9 sqrt(60)), keeps the true support (no column
    chosen for a decrease at the rounding) and ends within 1e-8 of the noise-free
    least-squares point (scipy)."""
    residual, known, candidates, support, k = _least_squares_problem(noise=1e-9)
    N = known.size + candidates.size
    x0 = np.zeros(N)
    x0[known] = 1.0  # the rounding is that of coordinates of order 1
    result = greedy_gauss_newton(residual, x0, candidates, k, tol=1e-12, max_iter=100)
    assert result.status == "converged"
    assert 1e-12 < result.decrement <= 2 * 1e-9 * np.sqrt(60)
    assert set(candidates[result.support]) == support
    S = np.concatenate([known, candidates[result.support]])
    x_ref, _ = _scipy_least_squares(residual, S, N)
    assert np.abs(result.x[S] - x_ref).max() <= 1e-8


def test_adaptive_step_jacobian_and_least_squares_point(monkeypatch):
    """The adaptive step's sampled residual on a deformed, moving pendulum (30 sampled rows, 18
    unknowns on the support: overdetermined). Its Jacobian (modal columns, scaled rows) agrees
    with central differences to their truncation error, which falls 100-fold per 10-fold
    smaller difference step (second order: the Jacobian is exact); and each step ends
    'converged' at the least-squares point of its support: the Gauss-Newton decrement
    ||Q^T f|| with Q from the difference Jacobian is within the tolerance."""
    from rancf.formulations.reduced import adaptive

    model = pendulum(10)
    state = deformed_state(model)
    reduced = rancf.reduce(model, 12, 24, seed=1)
    real, steps = adaptive.greedy_gauss_newton, []

    def checking(residual, c0, candidates, sparsity, groups, tol, *args):
        result = real(residual, c0, candidates, sparsity, groups, tol, *args)
        x = result.x
        f, J = residual(x, True)
        known = np.setdiff1d(np.arange(x.size), candidates)
        dense = np.zeros((f.size, x.size))
        dense[:, known] = J.known
        for g, (block, rows) in enumerate(zip(J.blocks, J.rows)):
            dense[np.ix_(rows, candidates[groups == g])] = block
        S = np.concatenate([known, candidates[result.support]])
        errors = []
        for eps in (1e-4, 1e-5):
            differences = np.empty((f.size, S.size))
            for j, column in enumerate(S):
                e = np.zeros(x.size)
                e[column] = eps * max(1.0, abs(x[column]))
                differences[:, j] = (residual(x + e, False) - residual(x - e, False)) / (2 * e[column])
            errors.append(np.abs(differences - dense[:, S]).max() / np.abs(dense[:, S]).max())
        Q = np.linalg.qr(differences)[0]
        steps.append((result.status, errors, np.linalg.norm(Q.T @ f), result.residual_norm,
                      S.size, f.size, tol))
        return result

    monkeypatch.setattr(adaptive, "greedy_gauss_newton", checking)
    res = rancf.simulate(reduced, 0.005, 1e-3, method="backward-euler", output_every=5,
                         state=state)
    assert res.status == "ok" and len(steps) == 5
    for status, (coarse, fine), decrement, norm, unknowns, rows, tol in steps:
        assert fine <= 1e-8 and fine <= coarse / 50
        assert unknowns < rows and norm > 1e3 * tol  # overdetermined: f = 0 is out of reach
        assert status == "converged" and decrement <= tol
