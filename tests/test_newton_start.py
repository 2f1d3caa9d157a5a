"""Newton's first iterate in the implicit loop (rancf/integrators/_implicit.pyx ``_start``):
a hanging flexible double pendulum displaced 1 mm along its first mode, whose start excites
its axial modes (omega h about 2300 at h = 4 ms), run by the implicit schemes at 4 ms against
RK4 at a step within its stability limit."""
import numpy as np
import pytest

import rancf
from rancf.formulations import spatial
from rancf.integrators._implicit import Stepper, StepEquations

T, H = 0.12, 4e-3


def double_pendulum():
    """Gallery 15's model: two aluminium beams of 0.5 m, pinned to each other and the ground."""
    m = rancf.Model(gravity=(0.0, -9.81), elastic_model="reissner")
    upper = m.add_beam(0.5, 6, E=7e10, rho=2700.0, A=1e-4, I=2e-10, angle=-np.pi / 2)
    lower = m.add_beam(0.5, 6, E=7e10, rho=2700.0, A=1e-4, I=2e-10, start=(0.0, -0.5),
                       angle=-np.pi / 2)
    m.add_joint("revolute", m.ground.point(0.0, 0.0), upper.start)
    m.add_joint("revolute", upper.end, lower.start)
    return m, lower


@pytest.fixture(scope="module")
def reference():
    """The model, its initial state (the equilibrium displaced 1 mm along the first mode) and
    the lower tip's x (m) every 4 ms by RK4 at 4 us (its stability limit is 4.8 us)."""
    m, lower = double_pendulum()
    found = rancf.modes(m, n=1)
    shape = found.shapes[0] / np.abs(found.shapes[0]).max()
    x0 = found.equilibrium.x + 1e-3 * shape
    state = rancf.State(x0, np.zeros_like(x0))
    res = rancf.simulate(m, T, 4e-6, method="rk4", output_every=1000, state=state)
    assert res.status == "ok"
    return m, lower, state, res.position(lower.end)[:, 0]


@pytest.mark.parametrize("formulation", ["recursive", "dae"])
@pytest.mark.parametrize("method", ["generalized-alpha", "newmark", "hht"])
def test_displaced_double_pendulum_runs_at_4_ms(reference, method, formulation):
    """The run completes (before, Newton started each step at ``a_{n+1} = a_n``, which holds
    the axial modes at omega^2 times their amplitude: the first step converged to a turned-over
    configuration, 1.67 rad away, and Newton failed at t = 0.028 s) and its lower tip follows
    RK4's within 1e-6 m. Pass line, set before the run: a second-order scheme's phase error
    on the first mode (omega = 3.79 rad/s) is ``omega t (omega h)^2 / 12`` = 8.7e-6 rad at
    t = 0.12 s, 7e-9 m on the 0.85 mm amplitude; the second mode (10.2 rad/s) and the
    start's transient carry less than a hundred times that. A wrong root or a failed step is
    off by the amplitude or more."""
    m, lower, state, x_ref = reference
    res = rancf.simulate(m, T, H, method=method, formulation=formulation, output_every=1,
                         state=state)
    assert res.status == "ok", res.message
    assert np.abs(res.position(lower.end)[:, 0] - x_ref).max() < 1e-6


def solved_closely(s, tol):
    """The last step's equations (the loop keeps them until its next step) solved by Newton in
    Python from the loop's solution with a Jacobian by central differences of the residual,
    until the position increment is below ``1e-3 tol`` (a cable's residual rounds at about
    5e-15 m, above the 1e-15 relative of tests/test_newton_stop.py's solve). Returns the loop's
    unknowns (the pseudo-accelerations of Arnold and Bruls' generalized-alpha) and the solved
    ones."""
    eq = StepEquations(s)
    a_loop = s.pseudo_acceleration()
    a, lam = a_loop.copy(), np.zeros(0)
    n = a.size
    d = 1e-7 / eq.hb            # moves the positions by 1e-7 m
    for _ in range(10):
        J = np.empty((n, n))
        for j in range(n):
            e = np.zeros(n)
            e[j] = d
            J[:, j] = (eq.residual(a + e, lam)[0] - eq.residual(a - e, lam)[0]) / (2.0 * d)
        da = np.linalg.solve(J, -eq.residual(a, lam)[0])
        a = a + da
        if eq.hb * np.abs(da).max() <= 1e-3 * tol:
            return a_loop, a
    raise AssertionError("the step's equations were not solved")


def test_cable_steps_from_the_repeated_increment_are_within_tol():
    """An ANCF cable on a spherical joint (Exudyn's cable section of the ``peers3d`` pendulum,
    32 elements, released straight from rest): the acceleration of its root slope alternates in
    sign from step to step, so the last step's increment repeated, ``q_{n+1} = 2 q_n -
    q_{n-1}``, misses a step's solution by less than ``a_{n+1} = a_n`` does (``_start``'s
    reason to offer it) on most of 30 steps of 1 ms, and each step the loop takes, started so
    where that start missed the last step by the least, is within tol of the same step's
    equations solved closely."""
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -9.81))
    cable = m.add_beam(2.0, 32, E=1e6, rho=78.0, A=1.0, I=833.3333333333333 / 1e6,
                       element="ancf-cable")
    m.add_joint("spherical", m.ground.point(0.0, 0.0, 0.0), cable.start)
    formulation = spatial.of_model(m)
    y0 = formulation.initial_state()
    n = formulation.n_free
    tol = 1e-10
    g = rancf.implicit.GeneralizedAlpha()
    s = Stepper(spatial.implicit_problem(formulation), g.alpha_m, g.alpha_f, g.gamma, g.beta,
                g.intermediate, g.bdf1, 1e-3, tol, 25, True)
    s.start(0.0, y0[:n], y0[n:])
    hb = 1e-3**2 * g.beta
    q, a = [s.state()[1]], [s.pseudo_acceleration()]
    closer = 0
    for k in range(30):
        s.advance()
        a_loop, a_solved = solved_closely(s, tol)
        assert hb * np.abs(a_loop - a_solved).max() <= tol
        q_solved = s.state()[1] + hb * (a_solved - a_loop)
        if k >= 1:
            closer += (np.abs(q_solved - 2.0 * q[-1] + q[-2]).max()
                       < hb * np.abs(a_solved - a[-1]).max())
        q.append(s.state()[1])
        a.append(s.pseudo_acceleration())
    assert closer > 29 / 2
