"""The audit's small findings, fixed (issues 22, 25): messages that say what the user must
change, loaded results that keep their joints' layout and tell a model of other parameters,
output times that end at t_end. Each test compares against something independent of the
code it checks: the run the message advises, the run before it was saved, the model's own
parameters, the integer number of steps."""
import math

import numpy as np
import pytest

import rancf
from rancf.simulate import rounded_down


@pytest.mark.parametrize("x", [6.636e-5, 6.6349999e-5, 6.63e-5, 1.0, 9.9999e-3, 2.1e-4,
                               math.nextafter(1e-3, 0.0), 123456.0])
def test_rounded_down_prints_no_more_than_the_limit(x):
    """The advised step, as printed (3 digits) and read back, must not exceed the limit, and
    lies within one unit of its third digit below it."""
    printed = float(f"{rounded_down(x):.3g}")
    assert printed <= x
    assert x - printed <= 10.0 ** (math.floor(math.log10(x)) - 2) * (1 + 1e-12)


def test_planar_rk4_refusal_advice_runs():
    """The planar steel pendulum (RK4 limit ~57 us at its initial state, the integrators
    guide): the step the refusal advises runs."""
    import re
    stiff = rancf.pendulum(n_bodies=1, elements_per_body=4, E=2.1e11)
    with pytest.raises(ValueError, match="stability limit") as err:
        rancf.simulate(stiff, 1e-3, 1e-3, method="rk4")
    advised = float(re.search(r"use dt <= ([0-9.e+-]+) s", str(err.value)).group(1))
    assert rancf.simulate(stiff, 3e-3, advised, method="rk4").status == "ok"


def test_auto_refusal_of_a_ratio_says_the_method_was_chosen_and_what_divides():
    """A planar model beyond RK4's limit: method "auto" chooses generalized-alpha, which needs
    t_end / dt an integer. The message names the choice, and the dt it offers divides
    t_end and runs."""
    import re
    stiff = rancf.pendulum(n_bodies=1, elements_per_body=4, E=2.1e11)
    with pytest.raises(ValueError, match="generalized-alpha \\(method 'auto'\\)") as err:
        rancf.simulate(stiff, 0.01, 3e-4)
    offered = float(re.search(r"dt = ([0-9.e+-]+) s, (\d+) steps", str(err.value)).group(1))
    assert rancf.simulate(stiff, 0.01, offered).status == "ok"


@pytest.mark.parametrize("method, t_end, dt, every",
                         [("rk4", 0.7, 1e-4, 10), ("generalized-alpha", 0.2, 1e-3, 7),
                          ("generalized-alpha", 0.3, 1e-3, 10), ("dopri5", 0.7, 1e-4, 10)])
def test_last_output_time_is_t_end(method, t_end, dt, every):
    """t_end / dt is an integer: the last output is at t_end exactly (sums or products of dt
    missed it by 1e-16 s), and every output time is a whole number of steps, ``k dt``,
    to the rounding of that product."""
    m = rancf.pendulum(n_bodies=1, elements_per_body=2, body_length=1.0)
    res = rancf.simulate(m, t_end, dt, method=method, output_every=every)
    assert res.t[-1] == t_end
    k = np.rint(res.t / dt)
    assert np.all(np.abs(res.t - k * dt) <= 1e-15 * t_end)


def test_spatial_last_output_time_is_t_end():
    """The same on the spatial recursion's implicit loop (0.2 s in 200 steps ended at
    0.20000000000000015)."""
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -9.81))
    b = m.add_rigid_body(1.0, np.eye(3) * 1e-2, position=(1, 0, 0))
    m.add_joint("spherical", m.ground.point(0, 0, 0), b.point(-1, 0, 0))
    res = rancf.simulate(m, 0.2, 1e-3, method="generalized-alpha-s")
    assert res.t[-1] == 0.2
