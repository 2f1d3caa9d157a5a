"""Newton's first iterate in the implicit loop (rancf/integrators/_implicit.pyx ``_start``):
a hanging flexible double pendulum displaced 1 mm along its first mode, whose start excites
its axial modes (omega h about 2300 at h = 4 ms), run by the implicit schemes at 4 ms against
RK4 at a step within its stability limit."""
import numpy as np
import pytest

import rancf

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
