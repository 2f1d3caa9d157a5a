"""Steps cut where Newton fails (rancf/integrators/_implicit.pyx, the module docstring's step
cuts): a forced, damped pendulum ``theta'' = -omega^2 sin(theta) + f0 sin(Omega t) - c theta'``
released at a large angle, whose step equations at ``omega h`` of 4 to 24 are beyond Newton's
reach from the start at dt (and, where the level is 2, at dt / 2), within it at the sub-step.
The cut run is checked against the same scheme run at that sub-step from the start (measured:
at dt and at each coarser level the first step fails, at the sub-step the run of 10 steps of
dt goes through), fewer steps than the loop makes at a sub-step before it tries a coarser one,
so that the two runs take the same sub-steps."""
import numpy as np
import pytest

import rancf
from rancf.integrators._implicit import Stepper
from rancf.formulations._problem import PythonProblem


class ForcedPendulum(rancf.implicit.IndexThreeDAE):
    """The pendulum in its angle (rad), unit inertia, with the power of the forcing and of the
    damping for the loop's work integrals."""

    n_coordinates = 1

    def __init__(self, omega, c=0.5, big_omega=7.0):
        self.w2, self.f0, self.big_omega, self.c = omega * omega, 0.2 * omega * omega, big_omega, c

    def mass(self, q):
        return np.eye(1)

    def _forcing(self, t):
        return self.f0 * np.sin(self.big_omega * t)

    def force(self, q, v, t):
        return -self.w2 * np.sin(q) + self._forcing(t) - self.c * v

    def stiffness(self, q, v, t):
        return self.w2 * np.cos(q)[:, None]

    def damping(self, q, v, t):
        return self.c * np.eye(1)

    def power(self, q, v, t, lam):
        return float(self._forcing(t) * v[0]), float(self.c * v[0] ** 2)


#: (method, dt (s), omega (rad/s), release angle (rad), the level that runs: dt / 2**level)
CASES = [("newmark", 0.1, 60.0, 2.0, 1), ("generalized-alpha", 0.16, 40.0, 2.0, 2),
         ("hht", 0.16, 40.0, 1.5, 2), ("generalized-alpha-s", 0.2, 120.0, 1.5, 2)]


def run(method, dt, omega, angle, h, **options):
    return rancf.implicit.integrate(ForcedPendulum(omega), [angle], [0.0], 10 * dt, h,
                                    method=method, **options)


@pytest.mark.parametrize("method, dt, omega, angle, level", CASES)
def test_a_cut_run_is_the_run_at_its_sub_step_on_the_grid_of_dt(method, dt, omega, angle, level):
    """At dt (and at dt / 2 where level is 2) Newton fails on the first step (``max_cuts=0``);
    the default cuts run the ten steps at ``dt / 2**level`` and keep the outputs at the steps of
    dt: the times ``k dt`` exactly (no sum of sub-steps), and the state, the accelerations
    and the work integrals (the forcing's and the damping's: trapezoids over every sub-step)
    those of the run at the sub-step from the start at its every ``2**level``-th output, to
    what the rounding of the sub-steps' times leaves (the two runs' Newton iterations are the
    same). HHT and generalized-alpha go back to the step's start with Arnold and Bruls'
    pseudo-accelerations and the true ones; -S integrates the power through its intermediate
    points."""
    fixed = run(method, dt, omega, angle, dt, max_cuts=0)
    assert fixed.status == "failed" and fixed.t[-1] == 0.0, fixed.message
    cut = run(method, dt, omega, angle, dt)
    assert cut.status == "ok", cut.message
    h = dt / 2**level
    fine = run(method, dt, omega, angle, h, max_cuts=0)
    assert fine.status == "ok", fine.message
    assert cut.stats["step_cuts"] == level
    assert cut.stats["smallest_step"] == h
    assert cut.stats["steps"] == 10
    assert f"steps cut {level} times" in cut.message and f"(dt / {2**level})" in cut.message
    assert list(cut.t) == [k * dt for k in range(11)]
    every = slice(None, None, 2**level)
    for name in ("q", "v", "a"):
        x, y = getattr(cut, name), getattr(fine, name)[every]
        assert np.abs(x - y).max() <= 1e-9 * max(1.0, np.abs(y).max()), name
    for name in ("work", "dissipated"):
        x, y = getattr(cut, name), getattr(fine, name)[every]
        assert np.abs(y).max() > 1.0            # J: the integrals are not trivially zero
        assert np.abs(x - y).max() <= 1e-9 * np.abs(y).max(), name


def test_a_run_cut_back_to_dt_keeps_the_grid():
    """Over 200 steps of dt the run makes its sub-steps, tries dt again after ten steps of dt
    and whenever a try fails cuts again: every output still at ``k dt`` exactly, none lost."""
    method, dt, omega, angle, _ = CASES[1]
    res = rancf.implicit.integrate(ForcedPendulum(omega), [angle], [0.0], 200 * dt, dt,
                                   method=method)
    assert res.status == "ok", res.message
    assert res.stats["step_cuts"] > 2          # the first step's two, and cuts after tries
    assert list(res.t) == [k * dt for k in range(201)]


def test_max_cuts_0_fails_at_dt_as_without_cuts():
    """``max_cuts=0`` is the loop without cuts: the first step fails with Newton's message and
    its advice, nothing about cuts, the state at the start."""
    method, dt, omega, angle, _ = CASES[0]
    res = run(method, dt, omega, angle, dt, max_cuts=0)
    assert res.status == "failed"
    assert res.message.startswith(f"Newton did not converge at t = {dt:.6g} s")
    assert "reduce dt" in res.message and "cut" not in res.message
    assert res.stats["step_cuts"] == 0 and res.stats["smallest_step"] == dt
    assert len(res.t) == 1


def test_a_step_that_fails_at_the_smallest_sub_step_says_what_was_tried():
    """With one cut allowed where two are needed, the run fails at dt / 2 and its message adds
    to Newton's that the step was cut down to that size; the outputs end at the start, the
    state the step's start."""
    method, dt, omega, angle, level = CASES[1]
    assert level == 2
    res = run(method, dt, omega, angle, dt, max_cuts=1)
    assert res.status == "failed"
    assert res.message.startswith(f"Newton did not converge at t = {dt / 2:.6g} s")
    assert f"cut down to {dt / 2:.6g} s (dt / 2)" in res.message
    assert res.stats["step_cuts"] == 1 and len(res.t) == 1


@pytest.mark.parametrize("value", [-1, 31])
def test_max_cuts_out_of_range_is_refused(value):
    """``max_cuts`` outside [0, 30]: a ValueError naming it, its value and the range, from
    simulate and from integrate; not an integer: a TypeError."""
    m = rancf.pendulum(n_bodies=1, elements_per_body=2, body_length=1.0)
    with pytest.raises(ValueError, match=rf"max_cuts must be an integer in \[0, 30\], got {value}"):
        rancf.simulate(m, 0.01, 1e-3, method="generalized-alpha", max_cuts=value)
    with pytest.raises(ValueError, match=rf"max_cuts .*\[0, 30\], got {value}"):
        run("newmark", 0.1, 60.0, 2.0, 0.1, max_cuts=value)
    with pytest.raises(TypeError, match="max_cuts must be an integer"):
        run("newmark", 0.1, 60.0, 2.0, 0.1, max_cuts=2.5)


def test_statics_and_explicit_methods_take_no_cuts_of_the_loop():
    """Statics cuts its load steps itself: its stepper refuses cuts of its own; an explicit
    method refuses the option as it does every implicit one."""
    problem = PythonProblem(ForcedPendulum(10.0), False)
    with pytest.raises(ValueError, match="max_cuts must be in"):
        Stepper(problem, 0.0, 1.0, 0.0, 1.0, False, True, 1.0, 1e-10, 25, True, static=True,
                max_cuts=6)
    m = rancf.pendulum(n_bodies=1, elements_per_body=2, body_length=1.0)
    with pytest.raises(TypeError, match="max_cuts"):
        rancf.simulate(m, 0.01, 1e-4, method="rk4", max_cuts=3)


class InterruptedInASubStep(ForcedPendulum):
    """The pendulum of the Newmark case, Ctrl-C pressed (a KeyboardInterrupt raised) in the
    second sub-step of the first step, once the first sub-step, to dt / 2, was accepted."""

    def __init__(self, omega, dt):
        super().__init__(omega)
        self.half, self.seen_half = dt / 2, False

    def force(self, q, v, t):
        if self.seen_half and t > self.half:
            raise KeyboardInterrupt
        self.seen_half |= bool(np.isclose(t, self.half))
        return super().force(q, v, t)


def test_ctrl_c_inside_a_cut_step_names_the_last_whole_step():
    """Interrupted inside a step the loop cut (the first: Newton fails at dt = 0.1 s, runs at
    0.05 s), the run keeps the states up to its last whole step, t = 0, and its message names
    that time, not the sub-step's 0.05 s where the loop was."""
    dt = 0.1
    res = rancf.implicit.integrate(InterruptedInASubStep(60.0, dt), [2.0], [0.0], 10 * dt, dt,
                                   method="newmark")
    assert res.status == "interrupted"
    assert list(res.t) == [0.0]
    assert res.message == "interrupted (Ctrl-C) at t = 0 s"
