"""Newton's stopping test in the implicit loop (rancf/integrators/_implicit.pyx, module
docstring): a step stops when its position increment ``dq = h^2 beta max |da|`` is at most tol
(and, from a run's fourth step on, its velocities' estimated error is within the velocity
tolerance, which the closed form's single step does not reach), and its positions are then within
tol of the solution of the step's equations. Checked on a
linear spring whose Newton matrix is off by a chosen factor (the contraction is then a known
constant, and the loop's iterations and error follow in closed form), and, step by step against
each step's equations solved to round-off, on hardening springs, a planar and a spatial model.

These checks also hold the loop to tol against a stopping test on the error estimated from the
contraction of the last two increments, ``theta / (1 - theta) dq`` (Hairer and Wanner, Solving
ODEs II, IV.8, eq. 8.14), which the module docstring says why the loop does not use: with Newton's
matrix kept, it stopped steps of the hardening springs 2.9 times tol and of the spatial chain 15
times tol from their solutions."""
import numpy as np
import pytest

import rancf
from rancf.formulations import recursive, spatial
from rancf.integrators._implicit import Stepper, StepEquations

H = 1e-2                    # s
HB = H * H / 4.0            # Newmark's h^2 beta
K = 0.5 / HB                # N/m on a unit mass: k h^2 beta = 1/2
Q0 = 1e-3                   # m, from rest


class Spring(rancf.implicit.IndexThreeDAE):
    """``q'' = -K q`` (unit mass) whose Newton matrix takes the stiffness ``k_matrix``, not K:
    with Newmark (``alpha_m = alpha_f = 1``) the step's residual ``r(a) = a + K (q_pred + HB a)``
    has the slope ``J = 1 + K HB`` and the loop's matrix is ``J' = 1 + k_matrix HB``, so every
    iteration multiplies the error in a by ``theta = 1 - J / J'`` and the increments by |theta|."""

    n_coordinates = 1

    def __init__(self, k_matrix, k=K):
        self.k_matrix, self.k = k_matrix, k

    def mass(self, q):
        return np.eye(1)

    def force(self, q, v, t):
        return -self.k * q

    def stiffness(self, q, v, t):
        return np.array([[self.k_matrix]])


def matrix_for(theta):
    """The Newton matrix's stiffness that gives the contraction theta:
    ``1 - (1 + K HB) / (1 + k HB) = theta``."""
    return ((1.0 + K * HB) / (1.0 - theta) - 1.0) / HB


def one_step(theta, tol, max_iter=2000):
    """One Newmark step of :class:`Spring` from ``Q0`` at rest: the Result's Newton iterations
    and the error left in the new position (m), against the exact step."""
    assert rancf.implicit.Newmark.alpha_m == rancf.implicit.Newmark.alpha_f == 1.0
    sol = rancf.implicit.integrate(Spring(matrix_for(theta)), [Q0], [0.0], H, H, method="newmark",
                                   tol=tol, max_iter=max_iter)
    a0 = -K * Q0                                        # the consistent start
    q_pred = Q0 + H * H * (0.5 - 0.25) * a0
    a_exact = -K * q_pred / (1.0 + K * HB)
    return sol, sol.q[-1, 0] - (q_pred + HB * a_exact), q_pred, a0, a_exact


def increment_test_iterations(theta, tol, e0):
    """The first k with ``dq_k = |1 - theta| |theta|^(k-1) e0 <= tol``: the iterations of the
    increment test on a start ``e0`` (m) away from the solution."""
    k = 1
    while abs(1.0 - theta) * abs(theta) ** (k - 1) * e0 > tol:
        k += 1
    return k


def start_error(q_pred, a0, a_exact):
    """The first iterate's distance from the step's solution (m): the first step starts at
    ``a_0`` and its first iteration also tries ``q_1 = q_0`` with the same matrix, going on from
    the one whose increment, ``(1 - theta)`` times its distance, is the smaller."""
    a_q = (Q0 - q_pred) / HB
    return HB * min(abs(a0 - a_exact), abs(a_q - a_exact))


@pytest.mark.parametrize("theta", [0.1, 0.3, 0.5, -0.2, 0.9, 0.99])
def test_the_step_stops_on_its_increment(theta):
    """The Result's Newton iterations are those of the increment test on the closed-form
    increments, and the error left is the one the constant contraction leaves then,
    ``|theta|^k e0``, at most ``|theta| / |1 - theta|`` times tol: within tol for ``|theta| <=
    1/2``, the contraction the loop keeps by renewing its matrix (here the renewed matrix is the
    same), up to 99 times tol at theta = 0.99. An estimate of the error from the contraction
    would stop it earlier for ``theta < 1/2`` (where it is below the increment)."""
    tol = 1e-10
    sol, error, q_pred, a0, a_exact = one_step(theta, tol)
    assert sol.status == "ok", sol.message
    e0 = start_error(q_pred, a0, a_exact)
    k = increment_test_iterations(theta, tol, e0)
    assert sol.stats["newton_iterations"] == k
    assert abs(error) == pytest.approx(abs(theta) ** k * e0, rel=1e-4)
    assert abs(error) <= abs(theta) / abs(1.0 - theta) * tol
    if abs(theta) <= 0.5:
        assert abs(error) <= tol


def test_a_diverging_iteration_is_not_stopped():
    """A stiffer spring (``k h^2 beta = 2``) with ``k_matrix = 0``: ``theta = -2``, the
    increments double (``theta_k = 2``, where ``theta / (1 - theta) dq = -2 dq`` would pass
    any tol). The step fails, after the loop's retry with full Newton (the same matrix), as
    diverging."""
    # at H itself (max_cuts=0): the stop test on a diverging iteration is the point, and at
    # H / 2 the same matrix contracts (k h^2 beta = 1/2)
    sol = rancf.implicit.integrate(Spring(0.0, k=2.0 / HB), [Q0], [0.0], H, H, method="newmark",
                                   tol=1e-10, max_iter=100, max_cuts=0)
    assert sol.status == "failed"
    assert "diverging" in sol.message
    assert sol.stats["newton_iterations"] > 2


def stepper(problem, q0, v0, tol):
    """The implicit loop of :func:`rancf.implicit.integrate` (generalized-alpha, Newton's
    matrix kept while the iteration contracts), started at ``(q0, v0)``."""
    g = rancf.implicit.GeneralizedAlpha()
    s = Stepper(problem, g.alpha_m, g.alpha_f, g.gamma, g.beta, g.intermediate, g.bdf1, 1e-3, tol,
                25, True)
    s.start(0.0, q0, v0)
    return s


def solved_to_roundoff(s):
    """The last step's equations (the loop keeps them until its next step), solved by Newton
    in Python from the loop's solution, with a Jacobian by central differences of the residual
    (its own error only slows this Newton, whose root is the residual's) until the position
    increment is at rounding. Returns the loop's unknowns (the pseudo-accelerations of Arnold
    and Bruls' generalized-alpha) and the solved ones."""
    eq = StepEquations(s)
    a_loop = s.pseudo_acceleration()
    a, lam = a_loop.copy(), np.zeros(0)
    n = a.size
    d = 1e-7 / eq.hb            # moves the positions by 1e-7 m (rad)
    for _ in range(30):
        r = eq.residual(a, lam)[0]
        J = np.empty((n, n))
        for j in range(n):
            e = np.zeros(n)
            e[j] = d
            J[:, j] = (eq.residual(a + e, lam)[0] - eq.residual(a - e, lam)[0]) / (2.0 * d)
        da = np.linalg.solve(J, -r)
        a = a + da
        if eq.hb * np.abs(da).max() <= 1e-15 * max(1.0, np.abs(s.state()[1]).max()):
            return a_loop, a
    raise AssertionError("the round-off solve did not converge")


def check_steps(s, steps, tol):
    """Every step's positions within tol of its equations' solution; the Newton iterations."""
    iterations = []
    for _ in range(steps):
        iterations.append(s.advance())
        a_loop, a = solved_to_roundoff(s)
        assert StepEquations(s).hb * np.abs(a_loop - a).max() <= tol
    return iterations


def test_planar_steps_are_within_tol_of_their_solution():
    """Implicit RANCF (a chain of two flexible bodies released horizontally, Newton's matrix kept
    across steps): each of 40 steps of 1 ms is within tol of the same step solved to round-off."""
    A = rancf.pendulum(n_bodies=2, elements_per_body=2, body_length=1.0).build()
    with recursive.checkout(A) as rec:
        y0 = rec.initial_state()
        v0 = y0[rec.n_x:rec.n_x + rec.n_dof].copy()
    problem = recursive.implicit_problem(A, y0)
    tol = 1e-10
    iterations = check_steps(stepper(problem, problem.theta(y0), v0, tol), 40, tol)
    assert max(iterations) >= 2


def test_spatial_steps_are_within_tol_of_their_solution():
    """The spatial tree (the scaling case's steel chain on a spherical joint, 8 elements, S as
    Newton's matrix, which contracts linearly): each of 30 steps of 1 ms within tol of the same
    step solved to round-off."""
    side = 0.03
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -9.81))
    beam = m.add_beam(8.0, 8, E=210e9, rho=7800.0, A=side**2, I=(side**4 / 12, side**4 / 12),
                      J=0.141 * side**4, G=210e9 / 2.6, direction=(1.0, 0.0, 0.0),
                      up=(0.0, 1.0, 0.0))
    m.add_joint("spherical", m.ground.point(0.0, 0.0, 0.0), beam.start)
    formulation = spatial.of_model(m)
    y0 = formulation.initial_state()
    n = formulation.n_free
    tol = 1e-10
    iterations = check_steps(stepper(spatial.implicit_problem(formulation), y0[:n], y0[n:], tol),
                             30, tol)
    assert max(iterations) >= 2


@pytest.mark.parametrize("k, s", [(1e4, 0.05), (400.0, 0.02)])
def test_hardening_spring_steps_are_within_tol_of_their_solution(k, s):
    """The three hardening springs of tests/test_newton_matrix_renewal.py (Newton's matrix
    renewed at almost every step's predictor, kept within the step): each of their 400 steps of
    1 ms within tol of the same step solved to round-off."""
    from test_newton_matrix_renewal import COST, Q0 as Q0_SPRINGS, STEPS, Hardening
    from rancf.formulations._problem import PythonProblem
    problem = PythonProblem(Hardening(k, s))
    problem.factor_cost = COST
    tol = 1e-10
    check_steps(stepper(problem, np.array(Q0_SPRINGS), np.zeros(3), tol), STEPS, tol)
