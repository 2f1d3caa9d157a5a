"""Statics cuts a load step's increment where Newton fails on it (issue 22): halved and retried
from the last equilibrium, down to 1/64 of the nominal ``1 / load_steps``, grown back after
each converged step. Checked on a soft cantilever under its weight (``q L^3 / EI = 980``),
which Newton does not reach in 10 equal load steps: its equilibrium at the default settings
against the same model's in 100 equal steps (no cut: a converged reference by another path)
and, for the spatial recursion, against the spatial DAE's (a second formulation of the same
SE(3) beam elements); its small-load twin against Euler-Bernoulli's sag ``q L^4 / (8 E I)``;
and the schedule itself on a stepper that fails where the increment exceeds a bound."""
import numpy as np
import pytest
from scipy.optimize import brentq

import rancf
from rancf.formulations.problem import StepFailure
from rancf.integrators.static import CUTS, step_loads

E, L, B = 1e6, 1.0, 0.01
A, I, J = B * B, B**4 / 12, 0.1406 * B**4


def soft_cantilever(kind, ratio=980.0, n_elements=8):
    """A cantilever of ``q L^3 / (E I) = ratio`` under its weight q (N/m), clamped at the
    origin along +x: ``kind`` "planar" (ANCF DAE), "spatial" (the spatial recursion, an
    Euler-Bernoulli SE(3) beam, gravity along -z) or "spatial-dae" (the same beam with a
    free joint and a clamp at its root: a closed loop, solved on the spatial DAE)."""
    rho = ratio * E * I / (A * 9.81 * L**3)
    if kind == "planar":
        m = rancf.Model(gravity=(0.0, -9.81))
        beam = m.add_beam(L, n_elements, E, rho, A, I)
        m.add_joint("fixed", m.ground.point(0.0, 0.0), beam.start)
        return m, rho * A * 9.81
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -9.81))
    beam = m.add_beam(L, n_elements, E=E, G=E / 2.6, rho=rho, A=A, I=(I, I), J=J, shear=False)
    if kind == "spatial-dae":
        m.add_joint("free", m.ground.point(0.0, 0.0, 0.0), beam.start)
    m.add_joint("fixed", m.ground.point(0.0, 0.0, 0.0), beam.start)
    return m, rho * A * 9.81


@pytest.mark.parametrize("kind", ["planar", "spatial", "spatial-dae"])
def test_a_soft_cantilever_converges_at_the_default_load_steps(kind):
    """Newton fails on the first of 10 equal load steps (the beam turns towards hanging
    there); the cut steps reach the equilibrium that 100 equal steps reach without a cut. Both
    solve the same discrete equations to ``max |dx| <= 1e-10 L``, on the same branch (the one
    continuous in the load factor from the reference), so the tips agree to about that
    tolerance times the Newton matrix's conditioning: 1e-7 L allows for it."""
    m, _ = soft_cantilever(kind)
    eq = rancf.static(m)
    assert eq.status == "ok", eq.message
    cuts = eq.stats["load_step_cuts"]
    assert cuts > 0 and f"halved {cuts} times" in eq.message
    # every converged step is counted, its factor increasing to 1 and each nominal one reached
    factors = eq.extra["load_factors"][0]
    assert eq.stats["steps"] == factors.size > 10 and np.all(np.diff(factors) > 0)
    assert factors[-1] == 1.0 and set(np.arange(1, 11) / 10) <= set(factors)
    assert np.all(eq.extra["iterations"][0] > 0)
    # every Newton iteration is counted, the failed tries' too
    assert eq.stats["newton_iterations"] > eq.extra["iterations"].sum()
    reference = rancf.static(m, load_steps=100)
    assert reference.status == "ok" and reference.stats["load_step_cuts"] == 0
    np.testing.assert_allclose(eq.tip()[0], reference.tip()[0], rtol=0, atol=1e-7 * L)
    sag = -eq.tip()[0][-1]
    assert 0.9 * L < sag < L          # hanging nearly straight down


def test_the_spatial_recursion_and_dae_reach_the_same_soft_equilibrium():
    """The recursion and the DAE discretize the beam by the same SE(3) elements: the same
    discrete equilibrium, to the solves' tolerance (1e-10 L) times conditioning (1e-7 L)."""
    recursion, dae = (rancf.static(soft_cantilever(kind)[0]) for kind in ("spatial", "spatial-dae"))
    assert (recursion.formulation, dae.formulation) == ("spatial", "dae")
    assert recursion.status == dae.status == "ok"
    np.testing.assert_allclose(recursion.tip()[0], dae.tip()[0], rtol=0, atol=1e-7 * L)


def test_a_pinned_beam_under_a_sideways_force_is_cut_to_its_equilibrium():
    """docs/user_guide/statics.rst: a mechanism its loads hold, a 1 m steel beam of 0.78 kg
    hanging from a pin under gravity and a 5 N sideways tip force, converges at the default
    ``load_steps`` with its steps cut, to the equilibrium of 100 equal steps (no cut: another
    path, tests/test_static.py checks its moment balance about the pin to 1e-9). Both solve
    the same equations to ``max |dx| <= 1e-10`` of the size; 1e-9 m allows for conditioning."""
    m = rancf.Model(gravity=(0.0, -9.81), elastic_model="reissner")
    beam = m.add_beam(1.0, 8, E=2e11, rho=7800.0, A=1e-4, I=1e-9, angle=-np.pi / 2)
    m.add_joint("revolute", m.ground.point(0.0, 0.0), beam.start)
    m.add_force(beam.end, force=(5.0, 0.0))
    eq, reference = rancf.static(m), rancf.static(m, load_steps=100)
    assert eq.status == reference.status == "ok", (eq.message, reference.message)
    assert eq.stats["load_step_cuts"] > 0 and reference.stats["load_step_cuts"] == 0
    np.testing.assert_allclose(eq.nodes[0], reference.nodes[0], rtol=0, atol=1e-9)
    assert eq.nodes[0][-1, 0] > 0.5           # turned well away from hanging straight


@pytest.mark.parametrize("kind, n_elements, bound", [
    ("planar", 8, 1e-6), ("spatial", 8, 2e-4), ("spatial", 16, 5e-5)])
def test_a_case_that_needs_no_cut_takes_the_nominal_steps(kind, n_elements, bound):
    """At ``q L^3 / EI = 1e-3`` (sag 1.25e-4 L) every load step converges: exactly the 10
    nominal ones, at ``k / 10``. The sag is Euler-Bernoulli's ``q L^4 / (8 E I)`` to the
    geometric nonlinearity (``(w/L)^2``, 2e-8) and the mesh: the planar ANCF element's cubic
    interpolation holds the quartic deflection to round-off at the nodes (bound 1e-6); the
    SE(3) element interpolates the curvature, an O(h^2) error, (L/8)^2 / 100 ~ 2e-4 at 8
    elements, a quarter of it at 16."""
    m, q = soft_cantilever(kind, ratio=1e-3, n_elements=n_elements)
    eq = rancf.static(m, load_steps=10)
    assert eq.status == "ok" and eq.message == ""
    assert eq.stats["steps"] == 10 and eq.stats["load_step_cuts"] == 0
    np.testing.assert_array_equal(eq.extra["load_factors"][0], np.arange(1, 11) / 10)
    assert eq.stats["newton_iterations"] == eq.extra["iterations"].sum()
    sag = -eq.tip()[0][-1]
    assert sag / (q * L**4 / (8 * E * I)) == pytest.approx(1.0, abs=bound)


def test_a_step_that_cannot_converge_fails_at_the_smallest_increment():
    """One Newton iteration a load step cannot meet the loop's test (the iteration from the
    last equilibrium moves the coordinates by the increment's linear response): every
    increment fails, halved CUTS times down to 1/(64 load_steps); the result keeps the
    reference and names the smallest increment tried."""
    m, _ = soft_cantilever("planar", ratio=1.0)
    eq = rancf.static(m, load_steps=10, max_iter=1)
    assert eq.status == "failed"
    assert eq.stats["load_step_cuts"] == CUTS == 6 and eq.stats["steps"] == 0
    smallest = 1.0 / (10 * 2**CUTS)
    assert "load step 1 of 10" in eq.message and f"{smallest:.4g}" in eq.message
    assert "1/64 of the nominal" in eq.message and "raise load_steps or max_iter" in eq.message
    assert eq.extra["load_factor"][0] == 0.0 and not np.any(eq.extra["iterations"])
    np.testing.assert_allclose(eq.nodes[0].ravel(), m.build().x0)
    # every try's Newton iteration is counted: one each, the nominal increment's and six cuts',
    # and the damped steps' tried after them (10 max_iter at most: static.py _damped_newton)
    assert eq.stats["newton_iterations"] == CUTS + 1 + 10


class Reach:
    """A stepper whose step converges (in 3 iterations) where the load factor's increment
    from its last equilibrium is at most ``reach`` and fails (after max_iter = 5) otherwise,
    and at its first try at the factor ``fail_at``; ``failure``: what a failed step raises
    (Newton's StepFailure, or the ArithmeticError of a state the problem refuses at its
    accept)."""

    def __init__(self, reach, fail_at=None, failure=StepFailure("failed", "did not converge")):
        self.reach, self.s, self.s_try, self.steps, self.newton_iterations = reach, 0.0, 0.0, 0, 0
        self.fail_at, self.failure = fail_at, failure

    def set(self, s):
        self.s_try = s

    def advance(self):
        if self.s_try - self.s > self.reach * (1 + 1e-12) or self.s_try == self.fail_at:
            self.fail_at = None
            self.newton_iterations += 5
            raise self.failure
        self.newton_iterations += 3
        self.s, self.steps = self.s_try, self.steps + 1
        return 3

    def state(self):
        return 0.0, np.array([self.s]), np.zeros(1), np.zeros(1), np.zeros(0)

    def start_at_rest(self, t, q, lam):
        assert q[0] == self.s           # the retry starts from the last equilibrium


def test_the_increment_is_halved_then_grown_back_to_the_nominal():
    """Nominal 1/4, Newton's reach 0.07 up to s = 1: 1/4 and 1/8 fail, 1/16 converges; then
    the increment doubles after each converged step (1/8 fails, so 1/16 again) and never
    passes a nominal factor k/4. Worked by hand: 1/16 steps throughout (16 of them), each
    after one failed try at 1/8, except the first (two: 1/4 and 1/8) and the last of each
    nominal step (1/16 left to k/4: no try at 1/8), so 4 + 3 + 3 + 3 = 13 cuts."""
    stepper = Reach(0.07)
    status, message, _, reached, iterations, _, steps = step_loads(stepper, stepper.set, 4)
    assert status == "ok" and reached == 1.0
    np.testing.assert_array_equal(steps["factors"], np.arange(1, 17) / 16)
    assert steps["cuts"] == 13 and steps["smallest"] == 1 / 16
    assert iterations == [3] * 16 and stepper.newton_iterations == 3 * 16 + 5 * 13
    assert "4 nominal load steps, 16 taken" in message and "halved 13 times" in message

    # a wide reach and one failure, the first try at s = 0.5 (k = 2 of 4): cut to 0.375, then
    # 0.5 (grown back, but not past the nominal factor), then the nominal steps again
    stepper = Reach(1.0, fail_at=0.5)
    status, _, _, _, _, _, steps = step_loads(stepper, stepper.set, 4)
    assert status == "ok" and steps["cuts"] == 1
    assert steps["factors"] == [0.25, 0.375, 0.5, 0.75, 1.0]


def test_a_refused_state_is_cut_and_fails_as_newton_does():
    """A step that converges to a state the problem refuses at its accept (ArithmeticError:
    a spatial element turned by half a turn, a clamped cable's slope turned over) is cut as
    one on which Newton failed (the schedule of the test above: 13 cuts), and where it is
    refused at the smallest increment the load steps fail as Newton's would, the refusal
    its message, no ``error`` (an input function's alone): the damped steps are tried after
    them (``_settle_mechanism``), not skipped as after an input function's error."""
    refused = ArithmeticError("joint 1 (fixed, at a cable point): turned over")
    stepper = Reach(0.07, failure=refused)
    status, _, error, reached, _, _, steps = step_loads(stepper, stepper.set, 4)
    assert status == "ok" and reached == 1.0 and steps["cuts"] == 13 and error is None
    stepper = Reach(0.0, failure=refused)
    status, message, error, reached, iterations, reason, steps = step_loads(stepper,
                                                                            stepper.set, 4)
    assert status == "failed" and error is None and reason is None and reached == 0.0
    assert steps["cuts"] == CUTS and not iterations
    assert message.startswith("load step 1 of 4 (load factor 0.003906), its increment cut")
    assert "joint 1 (fixed, at a cable point): turned over" in message, message


@pytest.mark.parametrize("fault", ["raises", "returns nan"])
def test_an_input_functions_error_stops_the_load_steps_at_once(fault):
    """An effort function that fails beyond |q| = 0.3 rad (raises, or returns NaN: a
    rancf.ReturnedValueError) stops statics at the first load step whose Newton iterate goes
    there, without a cut: no smaller increment helps, and a retry would call it again. A
    horizontal beam of mass m on a pin with a torsion spring k under its weight and a constant
    effort T0, both scaled by the load factor s: ``k |q| = s (T0 + m g L/2 cos q)``, whose
    root passes 0.3 between s = 0.4 (0.274 rad) and s = 0.5 (0.340 rad). The result is the
    equilibrium at s = 0.4, to the beam's bending (EI = 2e5 N m^2 against moments of 6 N m:
    1e-6 rad); the function is not called again after it failed (its value at the
    equilibrium is played back for the outputs)."""
    L, k, rho, A, T0, g = 1.0, 20.0, 7800.0, 1e-4, 10.0, 9.81
    calls = []

    def effort(t, q, qd):
        calls.append(q)
        if abs(q) > 0.3:
            if fault == "raises":
                raise KeyError("beyond the table")
            return float("nan")
        return -T0
    m = rancf.Model(gravity=(0.0, -g))
    b = m.add_beam(L, 2, E=2e11, rho=rho, A=A, I=1e-6)
    pin = m.add_joint("revolute", m.ground.point(0, 0), b.start, effort=effort)
    m.add_rotational_spring_damper(pin, k)
    res = rancf.static(m, load_steps=10)
    assert res.status == "failed" and res.stats["load_step_cuts"] == 0
    error = rancf.UserFunctionError if fault == "raises" else rancf.ReturnedValueError
    assert isinstance(res.error, error) and res.error.function == "effort"
    assert "load step 5 of 10" in res.message and "effort of joint 0" in res.message
    assert ("KeyError" if fault == "raises" else "nan") in res.message
    assert abs(calls[-1]) > 0.3 and all(abs(q) <= 0.3 for q in calls[:-1])
    s = 0.4
    assert res.extra["load_factor"][0] == s
    theta = brentq(lambda q: k * q - s * (T0 + rho * A * L * g * L / 2 * np.cos(q)), 0, 1)
    assert abs(abs(res.joint_q[0, 0]) - theta) < 1e-5
