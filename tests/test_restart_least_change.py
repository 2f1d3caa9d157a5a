"""The recursions take a start's velocities as the joint rates of their least change in the
kinetic-energy metric (rancf.formulations.start_check (1)): the rates beta minimizing
``(E beta + V_d - v)^T M (E beta + V_d - v)``, which they find by the forward dynamics' O(n)
solve of the normal equations. Checked against a dense weighted least-squares solve on small
random trees, E and V_d from the kinematics itself (V is linear in the rates: V_d at zero
rates, E's columns the change a unit rate makes), M assembled densely, the problem solved by
``lstsq`` of ``L^T E beta = L^T (v - V_d)`` (``M = L L^T``), not by the normal equations.

The bound: the normal equations' solution has a relative error at most about
``cond(E^T M E)`` times the rounding (1e-16); these trees' generalized masses have condition
numbers below 1e6 (9e4 to 5e5), so 1e-10 of the largest rate is the bound, the brief's."""
import numpy as np
import pytest

import rancf
from rancf.formulations import recursive, spatial

RUBBER = dict(E=1e7, rho=1100.0, A=1e-3, I=1e-8)
RUBBER_3D = dict(E=3e6, rho=1000.0, A=2.5e-3, I=(5.2e-7, 5.2e-7), J=8.8e-7, G=1e6)


def _dense_fit(E, V_d, v, M):
    L = np.linalg.cholesky(M)
    return np.linalg.lstsq(L.T @ E, L.T @ (v - V_d), rcond=None)[0]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_planar_recursions_rates_are_the_dense_weighted_least_squares(seed):
    """A beam on a pin to the ground, a rigid body pinned to its end, a beam on the body
    turned by a drive (0.3 rad/s at t = 0: V_d is not zero) and a slider on the body:
    random masses and random velocities v, most of them off the joints."""
    rng = np.random.default_rng(seed)
    m = rancf.Model(gravity=(0.0, 0.0))
    b1 = m.add_beam(0.6, 2, **RUBBER)
    body = m.add_rigid_body(rng.uniform(0.1, 2.0), rng.uniform(1e-3, 1e-1), position=(0.8, 0.0))
    b2 = m.add_beam(0.5, 2, start=(1.0, 0.0), **RUBBER)
    block = m.add_rigid_body(rng.uniform(0.1, 2.0), rng.uniform(1e-3, 1e-1),
                             position=(0.8, 0.0))
    m.add_joint("revolute", m.ground.point(0.0, 0.0), b1.start)
    m.add_joint("revolute", b1.end, body.point(-0.2, 0.0))
    m.add_joint("revolute", body.point(0.2, 0.0), b2.start, drive=lambda t: (0.3 * t, 0.3, 0.0))
    m.add_joint("prismatic", body.point(0.0, 0.0), block.point(0.0, 0.0), axis=0.0)
    A = m.build()
    rec = recursive.Recursive(A)
    x = A.x0.copy()
    v = rng.standard_normal(A.n_x)
    M = A.mass_matrix()
    beta = rec._rates_of(0.0, x, v, M)

    def velocities(b):
        rec._kinematics(0.0, np.concatenate([x, b, np.zeros(2)]))
        return rec.kernel.arrays["V"].copy()

    V_d = velocities(np.zeros(rec.n_dof))
    E = np.column_stack([velocities(e) - V_d for e in np.eye(rec.n_dof)])
    assert np.abs(V_d).max() > 0.1                   # the drive's part is there
    reference = _dense_fit(E, V_d, v, M.toarray())
    assert np.abs(beta - reference).max() <= 1e-10 * np.abs(reference).max()


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_spatial_recursions_rates_are_the_dense_weighted_least_squares(seed):
    """Rigid bodies of random masses and inertias on a spherical, a revolute, a universal, a
    prismatic and a driven revolute (0.4 rad/s at t = 0), and a rubber beam (its element
    links) on the first body: random velocities v."""
    rng = np.random.default_rng(seed)

    def inertia():
        # principal moments a + b, b + c, c + a (second moments a, b, c >= 0 of a mass
        # distribution), turned by a random rotation
        a = rng.uniform(1e-3, 5e-2, 3)
        Q = np.linalg.qr(rng.standard_normal((3, 3)))[0]
        return Q @ np.diag(a + np.roll(a, -1)) @ Q.T

    m = rancf.Model(dim=3, gravity=(0.0, 0.0, 0.0))
    bodies = [m.add_rigid_body(rng.uniform(0.1, 2.0), inertia(), position=(0.5 * (k + 1), 0, 0))
              for k in range(5)]
    m.add_joint("spherical", m.ground.point(0, 0, 0), bodies[0].point(-0.5, 0, 0))
    m.add_joint("revolute", bodies[0].point(0.25, 0, 0), bodies[1].point(-0.25, 0, 0),
                axis=(0, 0.6, 0.8))
    m.add_joint("universal", bodies[1].point(0.25, 0, 0), bodies[2].point(-0.25, 0, 0),
                axes=[(0, 1.0, 0), (0, 0, 1.0)])
    m.add_joint("prismatic", bodies[0].point(0.25, 0, 0), bodies[3].point(-1.25, 0, 0),
                axis=(1.0, 0, 0))
    m.add_joint("revolute", bodies[3].point(0.25, 0, 0), bodies[4].point(-0.25, 0, 0),
                axis=(0, 0, 1.0), drive=lambda t: (0.4 * t, 0.4, 0.0))
    beam = m.add_beam(0.5, 2, start=(0.5, 0, 0), direction=(0, 1.0, 0), up=(0, 0, 1.0),
                      **RUBBER_3D)
    m.add_joint("fixed", bodies[0].point(0, 0, 0), beam.start)
    S = spatial.of_model(m)
    x = np.concatenate([np.concatenate([r, A.ravel()]) for r, A in zip(
        *S.kinematics(S.initial_state())[:2])])
    n = S.tree.n_bodies
    v = rng.standard_normal(6 * n)
    y = S.state_of(x, v, check=False)

    def velocities(qd):
        return S.kinematics(np.concatenate([y[:S.n_free], qd]))[2].ravel()

    V_d = velocities(np.zeros(S.n_free))
    E = np.column_stack([velocities(e) - V_d for e in np.eye(S.n_free)])
    assert np.abs(V_d).max() > 0.1
    frames = x.reshape(n, 12)[:, 3:].reshape(n, 3, 3)
    M = np.zeros((6 * n, 6 * n))
    for i in range(n):
        M[6 * i:6 * i + 3, 6 * i:6 * i + 3] = S.tree.mass[i] * np.eye(3)
        M[6 * i + 3:6 * i + 6, 6 * i + 3:6 * i + 6] = frames[i] @ S.tree.inertia[i] @ frames[i].T
    reference = _dense_fit(E, V_d, v, M)
    qd = y[S.n_free:]
    assert np.abs(qd - reference).max() <= 1e-10 * np.abs(reference).max()
