"""When the implicit loop renews Newton's matrix at the start of a step
(rancf/integrators/_implicit.pyx, module docstring): only where a new matrix saves more
iterations than it costs, judged by what a new matrix achieved on the problem, not by an assumed
two iterations. Three hardening springs ``q'' = -k (q + q^3 / s^2)``, each run against a
full-Newton solve at a tighter tolerance: each step leaves an error of at most the tolerance,
which the oscillation carries on, so the runs differ by at most the tolerance times the steps."""
import numpy as np
import pytest

import rancf
from rancf.formulations._problem import PythonProblem

T, H = 0.4, 1e-3
STEPS = round(T / H)
Q0 = [0.3, 0.2, 0.1]
COST = 2.0  # a factorization's cost in iterations, as the spatial formulation states its own


class Hardening(rancf.implicit.IndexThreeDAE):
    """Three uncoupled hardening springs of unit mass: stiffness k (N/m), ``s`` (m) the
    displacement where the cubic term equals the linear one."""

    n_coordinates = 3

    def __init__(self, k, s):
        self.k, self.s = k, s

    def mass(self, q):
        return np.eye(3)

    def force(self, q, v, t):
        return -self.k * (q + q**3 / self.s**2)

    def stiffness(self, q, v, t):
        return np.diag(self.k * (1.0 + 3.0 * q**2 / self.s**2))


def run(k, s, tol, jacobian="reuse"):
    problem = PythonProblem(Hardening(k, s))
    problem.factor_cost = COST
    sol = rancf.implicit.integrate(problem, Q0, [0.0] * 3, T, H, tol=tol, jacobian=jacobian)
    assert sol.status == "ok"
    steps = sol.stats["steps"]
    return sol, sol.stats["newton_iterations"] / steps, sol.stats["nlu"] / steps


def test_a_matrix_that_saves_nothing_is_kept():
    """At tol = 1e-12 Newton needs three iterations a step even with the exact matrix made at
    every iteration (its quadratic term leaves more than the tolerance after one): a new
    matrix every step, as a rule assuming two would make, saves nothing. The loop keeps it
    instead and does less work (iterations plus COST per factorization) than renewing it at
    every step would (at least the full-Newton iterations plus COST a step), converged as
    tightly."""
    tol = 1e-12
    _, full_iterations, _ = run(400.0, 0.05, tol, "every-iteration")
    assert full_iterations >= 2.9
    sol, iterations, factorizations = run(400.0, 0.05, tol)
    assert factorizations <= 0.6
    assert iterations + COST * factorizations < full_iterations + COST
    ref, _, _ = run(400.0, 0.05, 1e-15, "every-iteration")
    assert np.abs(sol.q - ref.q).max() <= STEPS * tol


def test_a_matrix_stale_within_one_step_is_renewed_every_step():
    """Stiffer and more nonlinear (k = 1e4, s = 0.05): a matrix kept one step costs more
    iterations than its factorization saves, so the loop renews it at every step, and the
    run converges to the tight solve."""
    tol = 1e-10
    sol, iterations, factorizations = run(1e4, 0.05, tol)
    assert factorizations >= 0.9
    ref, _, _ = run(1e4, 0.05, 1e-15, "every-iteration")
    assert np.abs(sol.q - ref.q).max() <= STEPS * tol


@pytest.mark.parametrize("k, s", [(400.0, 0.02), (100.0, 0.01)])
def test_renewal_converges_to_the_tight_solve(k, s):
    """Other hardening springs: whatever the loop renews, its steps meet the tolerance."""
    tol = 1e-10
    sol, _, _ = run(k, s, tol)
    ref, _, _ = run(k, s, 1e-15, "every-iteration")
    assert np.abs(sol.q - ref.q).max() <= STEPS * tol


ORBIT_T = 0.2  # s: 200 steps


class Orbit(rancf.implicit.IndexThreeDAE):
    """A unit mass on a spring of stiffness k (N/m) and rest length 1 m to the origin, in the
    plane: ``q'' = -k (|q| - 1) q / |q|``."""

    n_coordinates = 2

    def __init__(self, k):
        self.k = k

    def mass(self, q):
        return np.eye(2)

    def force(self, q, v, t):
        length = np.hypot(*q)
        return -self.k * (length - 1.0) * q / length

    def stiffness(self, q, v, t):
        length = np.hypot(*q)
        n = np.outer(q, q) / length**2
        return self.k * n + self.k * (1.0 - 1.0 / length) * (np.eye(2) - n)


def orbit(jacobian, cost=COST, rate=30.0, k=4e9):
    """Newmark's iterations and factorizations a step (and the solution) of the mass sent
    round the origin at ``rate`` rad/s on the spring, over ORBIT_T at H."""
    problem = PythonProblem(Orbit(k))
    problem.factor_cost = cost
    sol = rancf.implicit.integrate(problem, [1.0, 0.0], [0.0, rate], ORBIT_T, H, tol=1e-10,
                                   method="newmark", jacobian=jacobian)
    assert sol.status == "ok"
    steps = sol.stats["steps"]
    return sol, sol.stats["newton_iterations"] / steps, sol.stats["nlu"] / steps


def test_a_matrix_that_diverges_when_kept_is_made_at_every_iteration():
    """The orbiting mass on a stiff spring (k = 4e9 N/m, 30 rad/s, 1 ms): the spring's
    direction, whose stiffness dominates Newton's matrix (``kappa = h^2 beta k / m = 1000``),
    turns by ``omega h = 0.03`` rad a step, so that a matrix made one step earlier amplifies
    the iteration's error along the spring's normal by about ``kappa omega h = 30`` an
    iteration: a kept matrix diverges where full Newton converges. Against the two fixed
    policies, counted in iterations (a factorization at COST): full Newton
    (``jacobian="every-iteration"``) and the kept matrix (a factorization so dear that the loop
    renews only within a step, when the iteration stops contracting). The premise: full Newton
    costs less than three quarters of the kept matrix. The loop then costs at most 10 % more
    than full Newton: what it pays beyond it is its first steps, before it has seen the kept
    matrix fail, and its tries of the kept matrix again, about log2 200 = 8 of the 200 steps,
    each about twice a full-Newton step (4 %)."""
    _, full_iterations, _ = orbit("every-iteration")
    full = (1.0 + COST) * full_iterations
    _, iterations, factorizations = orbit("reuse", cost=1e12)
    kept = iterations + COST * factorizations
    assert full < 0.75 * kept
    _, iterations, factorizations = orbit("reuse")
    assert iterations + COST * factorizations <= 1.1 * full


class BrakedOrbit(Orbit):
    """The orbit braked by a drag ``-c v`` (c in 1/s) between t0 and t1 (s)."""

    def __init__(self, k, c, t0, t1):
        super().__init__(k)
        self.c, self.t0, self.t1 = c, t0, t1

    def force(self, q, v, t):
        drag = self.c * v if self.t0 <= t < self.t1 else 0.0 * v
        return super().force(q, v, t) - drag

    def damping(self, q, v, t):
        return (self.c if self.t0 <= t < self.t1 else 0.0) * np.eye(2)


def test_the_kept_matrix_returns_when_the_motion_calms():
    """The orbit of the test above braked from 30 rad/s to about 1e-3 of it between 0.05 and
    0.1 s (drag 200/s, ``exp(-10)``), then free: once the mass hardly moves the kept matrix
    serves for many steps. The loop has made steps with full Newton for at most 100 steps by
    then; its stretches double, so it tries the kept matrix again within as many steps, by
    0.2 s. Over 0.2 - 0.3 s its steps then take two or three iterations with a new matrix at
    most every other step (as the in-plane chain's, validation/renewal_pay.py), at most 4
    iterations' worth a step: less than three quarters of full Newton's least, two iterations
    and two factorizations a step (6)."""
    stats = []
    for t_end in (0.2, 0.3):
        problem = PythonProblem(BrakedOrbit(4e9, 200.0, 0.05, 0.1))
        problem.factor_cost = COST
        sol = rancf.implicit.integrate(problem, [1.0, 0.0], [0.0, 30.0], t_end, H, tol=1e-10,
                                       method="newmark")
        assert sol.status == "ok"
        stats.append(sol.stats)
    steps = stats[1]["steps"] - stats[0]["steps"]
    iterations = (stats[1]["newton_iterations"] - stats[0]["newton_iterations"]) / steps
    factorizations = (stats[1]["nlu"] - stats[0]["nlu"]) / steps
    assert iterations + COST * factorizations < 0.75 * (1.0 + COST) * 2
