"""Implicit RANCF (rancf.implicit_recursive) against the classical DAE with the same scheme,
the explicit recursive RK4 run, and a dense solve with the finite-difference Jacobian."""
import numpy as np
import pytest

import rancf
from rancf.implicit_recursive import RecursiveImplicit
from chains import mixed_chain, random_state


# Newton starts from a_{n+1} = a_n: the first guess of q_{n+1} is off by h^2 beta da, four
# times more for backward Euler (beta = 1) than for the beta = 1/4 schemes, hence one iteration more
@pytest.mark.parametrize("method,params,iterations", [
    ("newmark", {}, 3), ("hht", {"alpha": 0.8}, 3), ("generalized-alpha-s", {"rho_inf": 0.6}, 3),
    ("backward-euler", {}, 4)])
def test_same_steps_as_the_dae(method, params, iterations):
    """Revolute constraints are linear, so the scheme commutes with the elimination
    nodes = nodes_0 + B q: both formulations give the same discrete trajectory."""
    chain = mixed_chain("reissner", ("revolute",) * 3)
    state = random_state(chain, np.random.default_rng(0), amplitude=0.05)
    kw = dict(method=method, state=state, output_every=5, **params)
    a = rancf.simulate(chain, 0.05, 1e-3, formulation="recursive", **kw)
    b = rancf.simulate(chain, 0.05, 1e-3, formulation="dae", **kw)
    assert a.status == b.status == "ok"
    assert np.abs(a.nodes - b.nodes).max() < 1e-10
    assert np.abs(a.velocities - b.velocities).max() < 1e-7 * np.abs(b.velocities).max()
    assert a.beta is not None and a.extra["newton_iterations"][1:].max() <= iterations


def test_newton_solve_equals_dense_solve_of_finite_difference_jacobian():
    chain = mixed_chain("shabana", ("revolute",) * 3)
    state = random_state(chain, np.random.default_rng(1), amplitude=0.05)
    p = RecursiveImplicit(chain, state.nodes)
    n = chain.n_dof
    rng = np.random.default_rng(2)
    q_pred, v_pred = 0.01 * rng.standard_normal(n), rng.standard_normal(n)
    am, af, hb, hg = 0.7, 0.6, 2.5e-5, 0.005   # h = 1e-2

    def residual(a):
        return am * p.mass_action(None, a) - af * p.force(q_pred + hb * a, v_pred + hg * a, 0.0)

    a = rng.standard_normal(n)
    h = 1e-3   # the residual is nearly linear in a at this step: truncation error ~1e-9
    J = np.array([(residual(a + h * u) - residual(a - h * u)) / (2 * h) for u in np.eye(n)]).T
    q1 = q_pred + hb * a
    fac = p.newton_matrix(q1, a, None, v_pred + hg * a, 0.0, q1, am, 0.0, af * hb, af * hg, af)
    r = residual(a)
    x, _ = fac.solve(r, None)
    expected = np.linalg.solve(J, r)
    assert np.abs(x - expected).max() < 1e-5 * np.abs(expected).max()   # cond(S) ~ 3e4
    # the matrix itself: S^{-1} applied to unit vectors, inverted, equals J
    S = np.linalg.inv(np.array([fac.solve(u, None)[0] for u in np.eye(n)]).T)
    assert np.abs(S - J).max() < 1e-7 * np.abs(J).max()
    # ... and the stiffness part is not negligible in it
    assert np.abs(S - am * np.linalg.inv(np.array([p.newton_matrix(q1, a, None, v_pred, 0.0, q1, 1.0,
                  0.0, 0.0, 0.0, 1.0).solve(u, None)[0] for u in np.eye(n)]).T)).max() > 1e-2 * np.abs(J).max()


def test_stiff_pendulum_at_large_step_matches_explicit_rk4():
    """5 x 5, E = 210 GPa: implicit at dt = 1e-3 (100 x the RK4 step) vs RK4 at 1e-5; 0.2 s
    here (the 4 s run is in the validation layer)."""
    chain = rancf.pendulum(E=210e9)
    ref = rancf.simulate(chain, 0.2, 1e-5, method="rk4", output_every=1000)
    res = rancf.simulate(chain, 0.2, 1e-3, method="generalized-alpha", rho_inf=0.9,
                         formulation="recursive", output_every=10)
    assert res.status == "ok"
    assert np.abs(res.tip() - ref.tip()).max() < 1e-3 * chain.total_length


def test_prismatic_chain_is_refused():
    chain = mixed_chain("shabana", ("revolute", "prismatic"))
    with pytest.raises(ValueError, match="revolute"):
        rancf.simulate(chain, 0.1, 1e-3, method="newmark", formulation="recursive")
