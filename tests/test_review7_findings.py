"""Review of the day's merged change (Arnold and Bruls' generalized-alpha and HHT in the one
implicit loop; spatial statics on the exact O(n) tangent with the pivots deciding stability;
full Newton where kept-matrix steps cost more; recentre's return value), each check against
something independent of the code under review.

Expected before measuring, with reasons:
- Arnold and Bruls' form (Multibody Syst Dyn 18 (2007) 185-202, section 4) on an index-3 DAE
  started with ``a'_0 = a_0``: q, v second order, the true accelerations and multipliers
  second order at a fixed end time once the initial layer (damped as ``rho_inf^n``) is gone;
  at rho_inf = 1 (``am = af = 1/2``) the pseudo-accelerations equal the true ones at every
  step (``a'_{n+1} - a_{n+1} = a'_n - a_n = 0``), so the scheme is Newmark's, to round-off.
  Reference: the pendulum's angle ODE by DOP853 at 1e-13.
- The loop's Newton matrix in the pseudo path is the derivative of its own step residual in
  (a', lambda): central differences at 1e-6 agree to the differences' error (the same
  agreement Newmark's path has, measured alongside).
- Statics' "stable by the pivots" shortcut assumes a symmetric tangent: every model it takes
  (conservative loads, no effort functions, spring-dampers or cables) must have a symmetric,
  positive definite static Jacobian (central differences) where it answers True.
- Projection (paper eq. 15-17) moves q, v and a onto the constraint manifolds; had it kept the
  multipliers Newton found for the unprojected state, ``M a + Phi_q^T lambda = F`` would fail
  at the output by the projection's O(h) change of a, and lambda (and every reaction read from
  it) would drop to first order while q, v, a stay second order.
"""
import numpy as np
import pytest
from scipy.integrate import solve_ivp

import rancf
from rancf.formulations import spatial
from rancf.formulations.dae import DAE
from models import RigidPendulum, static_jacobian
from rancf.integrators.implicit import integrate


#: gravity of tests/models.py's RigidPendulum, the unit point mass on a unit rod (m/s^2)
G = RigidPendulum().g

PHI0, T_END = -0.3, 1.0


def _reference():
    """q, v, a, lambda at T_END from the angle ODE (DOP853, 1e-13): with ``Phi = (q.q - 1)/2``
    the multiplier is ``lambda = q.F + v.v`` and ``a = F - q lambda``."""
    s = solve_ivp(lambda _, y: [y[1], -G * np.cos(y[0])], (0.0, T_END), [PHI0, 0.0],
                  method="DOP853", rtol=1e-13, atol=1e-13)
    phi, w = s.y[:, -1]
    q = np.array([np.cos(phi), np.sin(phi)])
    v = w * np.array([-np.sin(phi), np.cos(phi)])
    F = np.array([0.0, -G])
    lam = q @ F + v @ v
    return q, v, F - q * lam, lam


def _errors(method, steps, projection=False, **params):
    """Rows (q, v, a, lambda) of end-point errors, one per number of steps."""
    q_ref, v_ref, a_ref, lam_ref = _reference()
    q0 = np.array([np.cos(PHI0), np.sin(PHI0)])
    rows = []
    for n in steps:
        sol = integrate(RigidPendulum(), q0, np.zeros(2), T_END, T_END / n, method=method, tol=1e-13,
                        projection=projection, **params)
        assert sol.status == "ok", sol.message
        rows.append([np.abs(sol.q[-1] - q_ref).max(), np.abs(sol.v[-1] - v_ref).max(),
                     np.abs(sol.a[-1] - a_ref).max(), abs(sol.lam[-1][0] - lam_ref)])
    return np.array(rows)


@pytest.mark.parametrize("method, params", [("generalized-alpha", {"rho_inf": 0.0}),
                                            ("generalized-alpha", {"rho_inf": 0.9}),
                                            ("hht", {"alpha": 2.0 / 3.0})])
def test_arnold_bruls_true_accelerations_and_multipliers_second_order(method, params):
    """Bound, stated before the run: every step-halving ratio of the q, v, a and lambda errors
    within [3.4, 4.8] (second order; the next term of the expansion at 100 to 400 steps over
    about a quarter swing, and rho_inf = 0's first layer). Measured: 3.6 to 4.6."""
    err = _errors(method, (100, 200, 400), **params)
    ratios = err[:-1] / err[1:]
    assert np.all((ratios > 3.4) & (ratios < 4.8)), ratios


def test_rho_inf_one_is_newmark():
    """At rho_inf = 1 Arnold and Bruls' form is Newmark's scheme (module docstring): the runs
    agree to the Newton tolerance's effect (1e-13 m) times the steps, far below the error."""
    a = _errors("generalized-alpha", (100,), rho_inf=1.0)
    b = _errors("newmark", (100,))
    assert np.abs(a - b).max() <= 1e-9 * np.abs(b).max() + 1e-11


def _matrix_against_differences(method, **params):
    """The largest relative gap between the loop's Newton matrix and central differences (step
    1e-6) of its own step residual in (a, lambda), on the ANCF pendulum's DAE at two steps."""
    gaps = []

    class Checked:
        steps = 0

        def solve(self, eq, a, lam):
            self.steps += 1
            if self.steps in (3, 10):
                n, m = len(a), len(lam)
                A = eq.matrix(a, lam, factor=False)
                A = A.toarray() if hasattr(A, "toarray") else np.asarray(A)
                x0 = np.concatenate([a, lam])

                def r(x):
                    return np.concatenate(eq.residual(x[:n], x[n:]))
                J = np.column_stack([(r(x0 + 1e-6 * e) - r(x0 - 1e-6 * e)) / 2e-6
                                     for e in np.eye(n + m)])
                gaps.append(np.abs(A - J).max() / np.abs(J).max())
            for k in range(1, 40):
                r_dyn, r_con = eq.residual(a, lam)
                da, dlam = eq.matrix(a, lam).solve(-r_dyn, -r_con)
                a, lam = a + da, lam + dlam
                eq.count_iteration()
                if np.abs(eq.hb * da).max() <= 1e-12:
                    return a, lam, k
            raise rancf.implicit.StepFailure("failed", "no convergence")

    m = rancf.pendulum(n_bodies=2, elements_per_body=2, body_length=1.0)
    dae = DAE(m.build(), "sparse")
    q0, v0 = dae.initial_state()
    sol = integrate(dae.compiled, q0, v0, 0.02, 1e-3, method=method, solver=Checked(), **params)
    assert sol.status == "ok", sol.message
    return max(gaps)


@pytest.mark.parametrize("method, params", [("generalized-alpha", {"rho_inf": 0.5}),
                                            ("hht", {"alpha": 0.8})])
def test_pseudo_path_matrix_is_its_residual_s_derivative(method, params):
    """Bound, stated before the run: the pseudo path's gap at most twice Newmark's own on the
    same model (the differences' error and whatever the DAE's matrix leaves out alike; a
    wrong coefficient, am for af in d(M a)/dq or the constraint column's weight, would be
    O(1)). Measured: 1.9e-5 and 1.1e-5 against Newmark's 5.1e-5."""
    assert _matrix_against_differences(method, **params) <= 2.0 * max(
        _matrix_against_differences("newmark"), 1e-6)


def _every_allowed_kind():
    """What statics' direct matrix takes (exact_static): a beam on a spherical joint with a
    rotational spring at a rest rotation, rigid bodies below on a universal, a driven
    revolute, a prismatic with a spring and a plain revolute; gravity and a force of fixed
    direction at an offset point. Drawn bent so that the springs hold it."""
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -9.81))
    b = m.add_beam(0.8, 4, E=5e5, rho=1000.0, A=1e-3, I=(2e-8, 3e-8), J=4e-8, G=2e5,
                   direction=(1.0, 0.0, -1.0), up=(0.0, 1.0, 0.0))
    root = m.add_joint("spherical", m.ground.point(0, 0, 0), b.start)
    m.add_rotational_spring_damper(root, 20.0, rest_angle=(0.1, -0.2, 0.05))
    parent, below = b.end, b.positions[-1]
    axis = (0.0, 0.6, 0.8)
    joints = [("universal", dict(axes=((1, 0, 0), (0, 1, 0)))),
              ("revolute", dict(axis=axis, drive=lambda t: (0.0, 0.0, 0.0))),
              ("prismatic", dict(axis=axis)), ("revolute", dict(axis=(1.0, 0.0, 0.0)))]
    bodies = []
    for kind, options in joints:
        body = m.add_rigid_body(0.3, np.diag([1e-3, 2e-3, 3e-3]), position=below - (0, 0, 0.1))
        joint = m.add_joint(kind, parent, body.point(0.0, 0.0, 0.1), **options)
        if kind == "prismatic":
            m.add_rotational_spring_damper(joint, 40.0, rest_angle=0.02)
        bodies.append(body)
        parent, below = body.point(0.0, 0.0, -0.1), below - (0, 0, 0.2)
    m.add_force(bodies[-1].point(0.05, 0.02, -0.03), force=(1.0, -2.0, 0.5))
    return m


def test_pivots_decide_stability_only_on_a_symmetric_positive_tangent(spatial_dae_builds):
    """Where statics decides an equilibrium stable by the pivots (no spatial DAE built for the
    test), the static residual's Jacobian there (central differences, step 1e-6) is symmetric
    to 1e-6 of its largest entry (the differences' error, as
    tests/test_spatial_static_tangent.py bounds it) and positive definite: Sylvester's law,
    which the shortcut relies on, applies."""
    from rancf.integrators import static as static_module
    built = spatial_dae_builds
    m = _every_allowed_kind()
    f = spatial.of_model(m)
    p = spatial.implicit_problem(f, static=True)
    assert p.exact_static
    res = static_module.static(m, load_steps=10)     # the Solution: its link coordinates
    assert res.status == "ok", res.message
    assert not built                                  # the pivots decided
    J = static_jacobian(p, res.q[-1][:f.n_free])
    assert np.abs(J - J.T).max() <= 1e-6 * np.abs(J).max()
    assert np.linalg.eigvalsh(0.5 * (J + J.T)).min() > 0.0


@pytest.mark.parametrize("method, params", [("newmark", {}),
                                            ("generalized-alpha", {"rho_inf": 0.9})])
def test_projection_keeps_the_multipliers_second_order(method, params):
    """Bound, stated before the run: lambda's step-halving ratio above 3.4, as without
    projection (measured there: 4.0), since the projected q, v, a are second order (their
    ratios 3.9 to 4.1) and lambda is a smooth function of them (the projection takes the
    multipliers of the projected state; with Newton's it measured 2.0 to 2.1)."""
    err = _errors(method, (100, 200, 400), projection=True, **params)
    ratios = err[:-1] / err[1:]
    assert np.all(ratios[:, :3] > 3.4), ratios      # q, v, a second order (they are)
    assert np.all(ratios[:, 3] > 3.4), ratios
