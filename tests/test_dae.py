"""The classical DAE formulation of a chain (rancf.dae) against independent computations:
the recursive formulation (RK4), finite differences of its own residual, and the joint
conditions of the recursion's state validation."""
import numpy as np
import pytest

import rancf
from rancf.dae import ChainDAE
from chains import mixed_chain, random_state

JOINTS = ("revolute", "prismatic", "revolute", "prismatic")


def test_dae_matches_recursive_formulation():
    """5 x 5, E = 21 MPa pendulum: tip within 1e-6 L of the recursive RK4 run over 0.5 s."""
    chain = rancf.pendulum()
    ref = rancf.simulate(chain, 0.5, 1e-4, method="rk4", output_every=100)
    res = rancf.simulate(chain, 0.5, 1e-3, method="generalized-alpha", rho_inf=0.9,
                         formulation="dae", output_every=10)
    assert res.status == "ok" and res.formulation == "dae"
    assert np.allclose(res.t, ref.t)
    assert np.abs(res.tip() - ref.tip()).max() < 1e-6 * chain.total_length
    # the DAE's free node velocities equal the recursion's at the output times
    assert np.abs(res.velocities - ref.velocities).max() < 1e-3 * np.abs(ref.velocities).max()
    assert res.extra["constraint_violation"].shape == (len(res.t), 3)
    assert res.extra["constraint_violation"][:, 0].max() < 1e-12


def test_prismatic_chain_converges_to_recursive_formulation():
    """Mixed revolute/prismatic chain from a random moving state: the DAE trajectory converges
    at second order to the recursive RK4 one (the constraints against the recursion's joints)."""
    chain = mixed_chain("shabana", JOINTS)
    state = random_state(chain, np.random.default_rng(1), amplitude=0.02)
    ref = rancf.simulate(chain, 0.05, 1e-5, method="rk4", output_every=500, state=state,
                         check_stability=False)
    err = []
    for dt in (5e-4, 2.5e-4):
        res = rancf.simulate(chain, 0.05, dt, method="newmark", formulation="dae", state=state,
                             output_every=int(round(5e-3 / dt)), projection=True)
        assert res.status == "ok", res.message
        err.append(np.abs(res.nodes[..., :2] - ref.nodes[..., :2]).max())
    assert 1.8 < np.log2(err[0] / err[1]) < 2.2, err
    assert err[1] < 1e-3 * chain.total_length


def test_dense_and_sparse_give_the_same_trajectory():
    chain = mixed_chain("reissner", JOINTS)
    state = random_state(chain, np.random.default_rng(2), amplitude=0.02)
    kw = dict(method="hht", alpha=0.9, formulation="dae", state=state, output_every=5)
    a = rancf.simulate(chain, 0.02, 1e-3, linear_solver="dense", **kw)
    b = rancf.simulate(chain, 0.02, 1e-3, linear_solver="sparse", **kw)
    assert a.status == b.status == "ok"
    assert np.abs(a.nodes - b.nodes).max() < 1e-11


def _fd(fun, x, h=1e-6):
    return np.array([(fun(x + h * u) - fun(x - h * u)) / (2 * h) for u in np.eye(x.size)]).T


@pytest.mark.parametrize("linear_solver", ["dense", "sparse"])
def test_newton_solve_equals_dense_solve_of_finite_difference_jacobian(linear_solver):
    """One Newton solve with the assembled matrix equals a dense solve with the
    finite-difference Jacobian of the step residual (module docstring of rancf.implicit)."""
    chain = mixed_chain("shabana", JOINTS)
    state = random_state(chain, np.random.default_rng(3))
    p = ChainDAE(chain, linear_solver)
    n, m = p.n_coordinates, p.n_constraints
    rng = np.random.default_rng(4)
    q_pred = state.nodes.ravel()
    v_pred = rng.standard_normal(n)
    am, af, hb, hg = 0.7, 0.6, 2.5e-3, 0.05

    def residual(x):
        a, lam = x[:n], x[n:]
        q, v = q_pred + hb * a, v_pred + hg * a
        r1 = am * (p.mass(q) @ a) + af * (p.constraint_jacobian(q).T @ lam - p.force(q, v, 0.0))
        return np.concatenate([r1, p.constraint(q) / hb])

    x = np.concatenate([rng.standard_normal(n), 10 * rng.standard_normal(m)])
    J = _fd(residual, x, h=1e-5)
    q1 = q_pred + hb * x[:n]
    fac = p.newton_matrix(q1, x[:n], x[n:], v_pred + hg * x[:n], 0.0, q1, am, 0.0, af * hb, af * hg, af)
    r = residual(x)
    da, dl = fac.solve(r[:n], r[n:])
    expected = np.linalg.solve(J, r)
    assert np.abs(np.concatenate([da, dl]) - expected).max() < 1e-6 * np.abs(expected).max()


def test_constraint_derivatives():
    chain = mixed_chain("shabana", JOINTS)
    state = random_state(chain, np.random.default_rng(5))
    p = ChainDAE(chain)
    q = state.nodes.ravel()
    # the chain's states satisfy every joint (rancf.Chain.state checks them independently)
    assert np.abs(p.constraint(q)).max() < 1e-12
    J = p.constraint_jacobian(q).toarray()
    assert np.allclose(J, _fd(p.constraint, q), atol=1e-8)
    lam = np.random.default_rng(6).standard_normal(p.n_constraints)
    H = p.constraint_curvature(q, lam).toarray()
    assert np.allclose(H, _fd(lambda x: p.constraint_jacobian(x).T @ lam, q), atol=1e-8)
    v = np.random.default_rng(7).standard_normal(q.size)
    # xi = d/dt (Phi_q v) along q' = v; Phi is quadratic so the central difference is exact
    xi = (p.constraint_jacobian(q + 1e-3 * v) @ v - p.constraint_jacobian(q - 1e-3 * v) @ v) / 2e-3
    assert np.allclose(p.acceleration_bias(q, v), xi, atol=1e-9)


@pytest.mark.parametrize("projection", [True, "mass"])
def test_projection_brings_violations_to_round_off(projection):
    chain = mixed_chain("shabana", JOINTS)
    state = random_state(chain, np.random.default_rng(8), amplitude=0.02)
    kw = dict(method="generalized-alpha", rho_inf=0.8, formulation="dae", state=state, output_every=1)
    free = rancf.simulate(chain, 0.05, 1e-3, **kw)
    proj = rancf.simulate(chain, 0.05, 1e-3, projection=projection, **kw)
    vf = free.extra["constraint_violation"].max(axis=0)
    vp = proj.extra["constraint_violation"].max(axis=0)
    assert vf[1] > 1e-8 and vf[2] > 1e-6          # index-3 schemes leave Phi', Phi'' violated
    assert vp[0] < 1e-13 and vp[1] < 1e-11 and vp[2] < 1e-9, vp


def test_newton_failure_is_reported():
    chain = rancf.pendulum(n_bodies=2, elements_per_body=2)
    res = rancf.simulate(chain, 0.1, 1e-2, method="newmark", formulation="dae", max_iter=1,
                         tol=1e-16)
    assert res.status == "failed" and "Newton did not converge" in res.message
    assert len(res.t) == 1


@pytest.mark.parametrize("kwargs,name", [
    (dict(formulation="dae", method="rk4"), "method"),
    (dict(formulation="dae", method="newmark", linear_solver="cholmod"), "linear_solver"),
    (dict(formulation="dae", method="hht", alpha=0.2), "alpha"),
    (dict(formulation="dae", method="generalized-alpha", rho_inf=-1), "rho_inf"),
    (dict(method="rk4", projection=True), "implicit"),
])
def test_bad_input(kwargs, name):
    with pytest.raises((ValueError, TypeError), match=name):
        rancf.simulate(rancf.pendulum(n_bodies=2, elements_per_body=2), 0.1, 1e-2, **kwargs)
