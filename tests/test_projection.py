"""The one projection onto the constraints (StepProblem.project_positions and least_change:
entered by IndexThreeDAE.consistent_state at initial states, by StepProblem.project after a
step), checked against references it does not use: the nearest point of a circle and its
tangent velocity in closed form, the constrained least-squares solution through an SVD null
space, and the nearest point of a loop's manifold from SciPy's root of its optimality system."""
import numpy as np
import pytest
import scipy.linalg as sla
import scipy.optimize as so

from rancf.formulations import spatial
from rancf.formulations._problem import PythonProblem
from rancf.formulations.dae import DAE
from rancf.formulations.problem import IndexThreeDAE
from rancf.formulations.spatial_dae import SpatialDAE
from models import branched_tree, four_bar
from validation.spherical_four_bar import SphericalFourBar

EPS = np.finfo(float).eps


class GrowingCircle(IndexThreeDAE):
    """A point q = (x, y) of anisotropic mass diag(m1, m2) on a circle of radius L(t) = 1 + t / 2:
    ``Phi = (q . q - L^2) / 2``, ``Phi_q = q^T``, ``Phi_t = -L L'``, ``xi = v . v - L'^2``."""

    n_coordinates, n_constraints, linear_solver = 2, 1, "dense"
    masses = np.array([1.0, 3.0])

    def radius(self, t):
        return 1.0 + 0.5 * t, 0.5

    def mass(self, q):
        return np.diag(self.masses)

    def force(self, q, v, t):
        return np.zeros(2)

    def constraint(self, q, t):
        return np.array([0.5 * (q @ q - self.radius(t)[0] ** 2)])

    def constraint_jacobian(self, q, t):
        return q[None, :].copy()

    def velocity_bias(self, q, t):
        L, Ld = self.radius(t)
        return np.array([-L * Ld])

    def acceleration_bias(self, q, v, t):
        return np.array([v @ v - self.radius(t)[1] ** 2])


def constrained_least_change(J, b, x, W):
    """argmin (x' - x)^T W (x' - x) subject to J x' = -b, through the null space N of J (SVD):
    ``x' = x_p + N z`` with x_p the minimum-norm solution, z from the reduced normal equations.
    Returns x' and the condition number of ``N^T W N`` (what its error scales with)."""
    J = J.toarray() if hasattr(J, "toarray") else np.asarray(J)
    W = W.toarray() if hasattr(W, "toarray") else np.asarray(W)
    N = sla.null_space(J)
    xp = np.linalg.lstsq(J, -b, rcond=None)[0]
    G = N.T @ W @ N
    return xp + N @ np.linalg.solve(G, N.T @ W @ (x - xp)), np.linalg.cond(G)


def test_circle_positions_and_velocities_in_closed_form():
    """Gauss-Newton's minimum-norm steps on a circle are radial, so their limit is the nearest
    point ``L q0 / |q0|``; the Euclidean velocity is v minus its part along q that breaks
    ``q . v = L L'``; the mass-metric one moves v along ``M^-1 q`` instead. Round-off of a few
    operations on numbers of order 1: within 10 eps."""
    p, t = GrowingCircle(), 0.4
    L, Ld = p.radius(t)
    q0, v0 = np.array([1.7, -0.9]), np.array([0.3, 2.0])
    q, v = p.consistent_state(q0, v0, t, tol=1e-15)
    assert np.abs(q - L * q0 / np.linalg.norm(q0)).max() <= 10 * EPS
    assert np.abs(v - (v0 - q * (q @ v0 - L * Ld) / (q @ q))).max() <= 10 * EPS
    _, vm = p.consistent_state(q0, v0, t, metric="mass", tol=1e-15)
    Minv_q = q / p.masses
    assert np.abs(vm - (v0 - Minv_q * (q @ v0 - L * Ld) / (q @ Minv_q))).max() <= 10 * EPS


def nearest_point(problem, q0, t):
    """The nearest point of ``Phi(q, t) = 0`` to q0: SciPy's root (MINPACK's hybrid method,
    from q0) of the optimality system ``q - q0 + Phi_q^T mu = 0``, ``Phi = 0``, with its
    residual (MINPACK reports "no progress" once it is at round-off, so it is judged by that)."""
    n, m = problem.n_coordinates, problem.n_constraints

    def kkt(z):
        return np.concatenate([z[:n] - q0 + problem.constraint_jacobian(z[:n], t).T @ z[n:],
                               problem.constraint(z[:n], t)])
    z = so.root(kkt, np.concatenate([q0, np.zeros(m)]), tol=1e-15).x
    return z[:n], np.abs(kkt(z)).max()


def test_linear_rows_projected_to_their_nearest_point():
    """The planar four-bar of beams: its rows (points that coincide) are linear in the ANCF
    coordinates, so one Gauss-Newton step is the exact nearest point; within 100 eps of
    SciPy's, Phi at round-off."""
    d = DAE(four_bar()[0].build())
    n = d.n_coordinates
    q0 = d.assembly.x0 + 4e-3 * np.random.default_rng(7).standard_normal(n)
    q, _ = d.consistent_state(q0, np.zeros(n), tol=1e-14)
    assert np.abs(d.constraint(q, 0.0)).max() <= 1e-14
    ref, residual = nearest_point(d, q0, 0.0)
    assert residual <= 1e-13
    assert np.abs(q - ref).max() <= 100 * EPS


def test_curved_rows_projected_near_their_nearest_point():
    """The flexible spherical four-bar (rows nonlinear in the Euler parameters): Phi at
    round-off, and the Gauss-Newton limit within second order of the nearest point (SciPy's):
    the gap falls by at least 16 when the perturbation falls by 4 (asked: more than 8), and the
    limit is no farther from q0 than the nearest point by more than that gap."""
    m = SphericalFourBar().flexible(2)[0]
    dae = SpatialDAE(m.build(), *spatial.model_inputs(m))
    x, _ = dae.initial_state()
    n = dae.n_coordinates
    direction = np.random.default_rng(7).standard_normal(n)
    gaps = []
    for delta in (4e-3, 1e-3):
        q0 = x + delta * direction
        q, _ = dae.consistent_state(q0, np.zeros(n), 0.0, tol=1e-14 / dae.tree.size)
        assert np.abs(dae.constraint(q, 0.0)).max() <= 1e-14
        ref, residual = nearest_point(dae, q0, 0.0)
        assert residual <= 1e-13
        gaps.append(np.abs(q - ref).max())
        assert np.linalg.norm(q - q0) <= np.linalg.norm(ref - q0) + gaps[-1]
    assert gaps[0] / gaps[1] > 8.0, gaps


@pytest.mark.parametrize("metric", ["euclidean", "mass"])
def test_velocities_are_the_constrained_least_squares_solution(metric):
    """The driven branched tree (drives with a rate at t = 0.3): velocities projected in the
    metric W (I or M) against the null-space solution, within 100 eps times the condition of
    the reduced metric and the size of v."""
    d = DAE(branched_tree().build())
    n, t = d.n_coordinates, 0.0
    x = d.assembly.x0
    v0 = np.random.default_rng(2).standard_normal(n)
    _, v = d.consistent_state(x, v0, t, metric=metric, positions=False)
    W = d.mass(x) if metric == "mass" else np.eye(n)
    ref, cond = constrained_least_change(d.constraint_jacobian(x, t), d.velocity_bias(x, t),
                                         v0, W)
    assert np.abs(d.velocity_bias(x, t)).max() > 0.1
    assert np.abs(v - ref).max() <= 100 * EPS * cond * np.abs(v0).max()


def test_initial_velocities_are_the_least_kinetic_energy_motion_of_the_drives():
    """DAE.initial_state from rest: the least ``v^T M v`` with ``Phi_q v = -Phi_t``."""
    d = DAE(branched_tree().build())
    x, v = d.initial_state()
    ref, cond = constrained_least_change(d.constraint_jacobian(x, 0.0), d.velocity_bias(x, 0.0),
                                         np.zeros(d.n_coordinates), d.mass(x))
    assert np.abs(ref).max() > 0.1
    assert np.abs(v - ref).max() <= 100 * EPS * cond * np.abs(ref).max()


@pytest.mark.parametrize("metric", ["euclidean", "mass"])
def test_compiled_step_projection_matches_the_reference(metric):
    """The planar DAE's compiled projection (its own LU of the saddle-point matrix) after a
    perturbation: Phi at its bound ``1e-15 (1 + max |q|)``; v and a on their rows as the
    null-space solution in the metric, at the projected q."""
    d = DAE(four_bar()[0].build(), projection=metric)
    n, t = d.n_coordinates, 0.2
    rng = np.random.default_rng(4)
    q0 = d.assembly.x0 + 1e-5 * rng.standard_normal(n)
    v0, a0 = rng.standard_normal(n), rng.standard_normal(n)
    q, v, a = d.compiled.projected(q0, v0, a0, t)
    assert np.abs(d.constraint(q, t)).max() <= 1e-15 * (1 + np.abs(q).max())
    W = d.mass(q) if metric == "mass" else np.eye(n)
    J = d.constraint_jacobian(q, t)
    v_ref, cond = constrained_least_change(J, d.velocity_bias(q, t), v0, W)
    a_ref, _ = constrained_least_change(J, d.acceleration_bias(q, v, t), a0, W)
    assert np.abs(v - v_ref).max() <= 100 * EPS * cond * np.abs(v0).max()
    assert np.abs(a - a_ref).max() <= 100 * EPS * cond * (np.abs(a0).max() + np.abs(a_ref).max())
    # the same routine through the Python-level problem (Gram matrix, Newton matrix)
    qp, vp, ap = PythonProblem(d, metric).projected(q0, v0, a0, t)
    assert np.abs(qp - q).max() <= 1e-13 and np.abs(vp - v).max() <= 1e-12 * np.abs(v).max()


def test_spatial_loop_state_projected_onto_its_rows():
    """The flexible spherical four-bar (a drive of t): a perturbed moving state onto its rows
    (Phi within the tolerance of the model size, Phi_q v + Phi_t at round-off), velocities the
    Euclidean least change (null-space reference)."""
    m = SphericalFourBar().flexible(2)[0]
    dae = SpatialDAE(m.build(), *spatial.model_inputs(m))
    x, _ = dae.initial_state()
    rng = np.random.default_rng(3)
    t, n = 0.2, dae.n_coordinates
    v0 = rng.standard_normal(n)
    q, v = dae.consistent_state(x + 0.02 * rng.standard_normal(n), v0, t)
    assert np.abs(dae.constraint(q, t)).max() <= 1e-12 * dae.tree.size
    J = dae.constraint_jacobian(q, t)
    ref, cond = constrained_least_change(J, dae.velocity_bias(q, t), v0, np.eye(n))
    assert np.abs(v - ref).max() <= 100 * EPS * cond * np.abs(v0).max()


def test_projection_refuses_what_it_cannot_do():
    p = GrowingCircle()
    with pytest.raises(ValueError, match=r"off by 0\.5.* after 0 Gauss-Newton steps"):
        p.consistent_state(np.zeros(2) + [0.0, 1e-300], np.zeros(2), 0.0, max_iter=0)
    with pytest.raises(ValueError, match="metric must be 'euclidean' or 'mass', got 'l2'"):
        p.consistent_state(np.ones(2), np.zeros(2), metric="l2")
    with pytest.raises(ValueError, match="max_iter must be >= 0, got -1"):
        p.consistent_state(np.ones(2), np.zeros(2), max_iter=-1)
