"""Spring-dampers between two vertices in the implicit recursion's Newton matrix (the Woodbury
term of rancf/formulations/_implicit_recursive.pyx): the matrix against central differences of
the step's residual, its solve against a dense solve, Newton's iterations against the same run
without the spring, and the trajectory against the DAE formulation's, whose Newton matrix
differences the springs' forces on every coordinate they touch."""
import numpy as np
import pytest

import rancf
from rancf.formulations import recursive
from rancf.formulations._forces import ForceKernel
from rancf.formulations.dae import DAE
from rancf.integrators.implicit import integrate
from models import random_state
from test_spring_damper import loaded_tree


def two_pendulums(k, c=0.0, lower=0.8):
    """Two flexible beams (1 m and ``lower`` m) hinged to the ground 0.6 m apart, both turned
    0.3 rad from hanging, a spring-damper (k, c) between their ends at its rest length. On
    revolute joints the recursion's B is constant, so its Newton matrix is exact."""
    m = rancf.Model(gravity=(0.0, -9.81), elastic_model="reissner")
    a = -np.pi / 2 + 0.3
    b1 = m.add_beam(1.0, 4, E=2e10, rho=2700.0, A=1e-4, I=1e-8, start=(0.0, 0.0), angle=a)
    b2 = m.add_beam(lower, 4, E=2e10, rho=2700.0, A=1e-4, I=1e-8, start=(0.6, 0.0), angle=a)
    m.add_joint("revolute", m.ground.point(0.0, 0.0), b1.start)
    m.add_joint("revolute", m.ground.point(0.6, 0.0), b2.start)
    if k:
        m.add_spring_damper(b1.end, b2.node(3), k, c)
    return m


def implicit(model):
    A = model.build()
    with recursive.checkout(A) as rec:
        y0 = rec.initial_state()
        qd0 = y0[rec.n_x:rec.n_x + rec.n_dof].copy()
    problem = recursive.implicit_problem(A, y0)
    return problem, problem.theta(y0), qd0


class Checked:
    """Newton on each step (the loop's residual and matrix) that, on the first ``checks``
    steps, measures the assembled Newton matrix against central differences of the residual
    in a (step ``delta`` in the positions q = q_pred + hb a) and the factored solve against a
    dense solve of the assembled matrix."""

    def __init__(self, checks=3, delta=1e-6):
        self.checks, self.delta = checks, delta
        self.matrix_error, self.solve_error = [], []

    def solve(self, eq, a, lam):
        if self.checks:
            self.checks -= 1
            N = eq.matrix(a, lam, factor=False).toarray()
            h = self.delta / eq.hb
            columns = []
            for e in np.eye(len(a)):
                columns.append((eq.residual(a + h * e, lam)[0]
                                - eq.residual(a - h * e, lam)[0]) / (2 * h))
            fd = np.array(columns).T
            self.matrix_error.append(np.abs(N - fd).max() / np.abs(fd).max())
            r = eq.residual(a, lam)[0]
            x = eq.matrix(a, lam).solve(r, np.zeros(0))[0]
            dense = np.linalg.solve(N, r)
            self.solve_error.append(np.abs(x - dense).max() / np.abs(dense).max())
        for k in range(1, 26):
            r = eq.residual(a, lam)[0]
            da = eq.matrix(a, lam).solve(-r, np.zeros(0))[0]
            a = a + da
            eq.count_iteration()
            if np.abs(eq.hb * da).max() <= 1e-12:
                return a, lam, k
        raise AssertionError(f"Newton did not converge at t = {eq.t1}")


@pytest.mark.parametrize("c", [0.0, 40.0])
def test_newton_matrix_is_the_residual_s_derivative(c):
    """Assembled Newton matrix against central differences of the step's residual, relative to
    its largest entry: below 1e-6 (the differences' truncation, delta^2 = 1e-12 m^2 times the
    residual's third derivative, and their rounding, 1e-16 |r| / delta, are both far below;
    measured 4e-11). Without the springs' coupling of the two vertices it was off by 2.8e-3
    (c = 0) and 5.0e-3 (c = 40). Its factored solve (block elimination and the springs'
    Woodbury term) against a dense solve of the assembled matrix: 1e-10 (round-off; measured
    2e-14)."""
    checked = Checked()
    problem, q0, qd0 = implicit(two_pendulums(1e5, c))
    sol = integrate(problem, q0, qd0, 0.01, 1e-3, method="generalized-alpha", solver=checked)
    assert sol.status == "ok"
    assert max(checked.matrix_error) < 1e-6
    assert max(checked.solve_error) < 1e-10


def test_woodbury_solve_on_a_tree_with_bodies():
    """On a tree whose B turns (rigid bodies, a spring from a beam's end to a body point), the
    factored solve still inverts the assembled Newton matrix it stands for (dense solve,
    1e-10), at a random state."""
    m = loaded_tree()
    problem, q0, qd0 = implicit(m)
    rng = np.random.default_rng(3)
    checked = Checked(checks=2)
    sol = integrate(problem, q0 + 0.05 * rng.standard_normal(q0.size), qd0, 0.004, 1e-3,
                    method="newmark", solver=checked)
    assert sol.status == "ok"
    assert max(checked.solve_error) < 1e-10


def test_load_blocks_hold_the_coupling_of_a_spring_between_two_vertices():
    """The dense blocks of a tree with a spring-damper from a beam's end to a body point against
    central differences of the DAE's loads in x and v (1e-7 relative, as for the springs to the
    ground in test_spring_damper)."""
    m = loaded_tree()
    A = m.build()
    dae, forces = DAE(A, "dense"), ForceKernel(A)
    t, n, nj = 0.0, A.n_x, A.n_joints
    _, x, v = random_state(m, np.random.default_rng(6), t, amplitude=0.2)
    dae.accept(x, v, t)
    q, qd = np.zeros(nj), np.zeros(nj)
    forces.joint_coordinates(x, v, A.joint_q0.copy(), q, qd)
    c_k, c_c = 0.7, 0.3
    # the efforts of loaded_tree are its torsions only (no effort functions): slopes zero
    N = forces.load_blocks(x, v, np.zeros(nj), np.zeros(nj), c_k, c_c, q, qd)
    h, expected = 1e-6, np.zeros((n, n))
    for k in range(n):
        e = np.zeros(n)
        e[k] = h
        expected[:, k] = -(c_k * (dae.loads(x + e, v, t) - dae.loads(x - e, v, t))
                           + c_c * (dae.loads(x, v + e, t) - dae.loads(x, v - e, t))) / (2 * h)
    assert np.abs(N - expected).max() < 1e-7 * np.abs(expected).max()


def test_stiff_spring_takes_the_iterations_of_no_spring_and_follows_the_dae():
    """A spring of k = 1e6 N/m between the two pendulums (about 2700 rad/s against the 0.27 kg
    ends, 2.7 rad a step of 1 ms): the implicit recursion's Newton iterations per step within
    10 % of the same run without the spring (3.975 against 3.92 measured; before the springs'
    coupling was in its matrix the run failed at its first step), and its node positions those
    of the DAE formulation's run, which solves the same step equations, to the Newton
    tolerance of 1e-10 m (measured 1e-14 m)."""
    runs = {}
    for k, formulation in ((0.0, "recursive"), (1e6, "recursive"), (1e6, "dae")):
        res = rancf.simulate(two_pendulums(k), 0.2, 1e-3, method="generalized-alpha",
                             formulation=formulation, output_every=10)
        assert res.status == "ok", res.message
        runs[k, formulation] = res
    per_step = {key: r.stats["newton_iterations"] / r.stats["steps"] for key, r in runs.items()}
    assert per_step[1e6, "recursive"] <= 1.1 * per_step[0.0, "recursive"]
    assert np.abs(runs[1e6, "recursive"].nodes - runs[1e6, "dae"].nodes).max() < 1e-10
