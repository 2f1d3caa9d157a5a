"""Review 11's findings on the merges 2c4501b..85af10d (the implicit loop's step cuts, the
spatial GMRES products' stencil, the noise intervals), each against something independent of
the code under review: the loop without cuts, the dense derivative by Richardson extrapolation.
"""
import numpy as np
import pytest

import rancf
from rancf.formulations import spatial
from test_review9_findings import cable_on_ball
from test_step_cuts import CASES, ForcedPendulum

G = 9.81


def spatial_beam():
    """A steel beam of 1 m in 4 elements on a spherical joint under gravity (the ball spring
    of tests/test_spatial_ball_spring.py without its spring): a run Newton never fails."""
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -G))
    w, E = 0.015, 2.1e11
    b = m.add_beam(1.0, 4, E=E, rho=7800.0, A=w * w, I=(w**4 / 12, w**4 / 12),
                   J=0.141 * w**4, G=E / 2.6, direction=(1.0, 0.0, 0.0), up=(0.0, 0.6, 0.8))
    m.add_joint("spherical", m.ground.point(0, 0, 0), b.start)
    return m


def planar_pendulum():
    return rancf.pendulum(n_bodies=2, elements_per_body=3, body_length=1.0)


METHODS = ["newmark", "hht", "generalized-alpha", "generalized-alpha-s", "backward-euler"]


@pytest.mark.parametrize("make, formulation", [(planar_pendulum, "dae"),
                                               (spatial_beam, "recursive")])
@pytest.mark.parametrize("method", METHODS)
def test_a_run_without_failures_is_bitwise_that_of_the_loop_without_cuts(make, formulation,
                                                                          method):
    """Where Newton never fails, the default cuts (6) change nothing: the outputs, the work
    integrals, the energies and the monitors equal bit for bit those of ``max_cuts=0`` (the
    loop as it was; measured also against a build of 2c4501b, both formulations of both
    dimensions and all five schemes: 21 runs bitwise equal)."""
    runs = [rancf.simulate(make(), 0.05, 1e-3, method=method, formulation=formulation,
                           output_every=3, max_cuts=cuts) for cuts in (0, 6)]
    a, b = runs
    assert a.status == b.status == "ok" and b.stats["step_cuts"] == 0 and b.message == ""
    for name in ("t", "nodes", "velocities", "work", "dissipated"):
        assert np.array_equal(getattr(a, name), getattr(b, name)), name
    assert np.array_equal(a.energy().to_numpy(), b.energy().to_numpy())
    for name in ("constraint_violation", "newton_iterations", "lambda"):
        if name in a.extra:
            assert np.array_equal(a.extra[name], b.extra[name]), name


@pytest.mark.parametrize("method, dt, omega, angle, level", CASES)
@pytest.mark.parametrize("n_steps, every", [(37, 5), (41, 3)])
def test_a_cut_run_keeps_the_outputs_of_simulate_s_grid(method, dt, omega, angle, level,
                                                        n_steps, every):
    """With cuts, an odd number of steps and ``output_every`` > 1: the outputs at
    :func:`rancf.simulate.output_times` exactly (``k every dt`` and t_end), t_end reached
    exactly."""
    from rancf.simulate import output_times
    t_end = n_steps * dt
    res = rancf.implicit.integrate(ForcedPendulum(omega), [angle], [0.0], t_end, dt,
                                   method=method, output_every=every)
    assert res.status == "ok" and res.stats["step_cuts"] >= level, res.message
    assert np.array_equal(res.t, output_times(t_end, dt, every))
    assert res.t[-1] == t_end


class RaisingPendulum(ForcedPendulum):
    """:class:`ForcedPendulum` whose forcing (an input function) raises ``error`` past
    ``t_bad`` (s)."""

    def __init__(self, omega, t_bad, error):
        super().__init__(omega)
        self.t_bad, self.error = t_bad, error

    def _forcing(self, t):
        if np.max(t) > self.t_bad:
            raise self.error(f"the input broke at t = {np.max(t)}")
        return super()._forcing(t)


@pytest.mark.parametrize("error", [ValueError, RuntimeError])
def test_an_input_function_raising_inside_a_cut_step_fails_the_run_with_its_message(error):
    """A step of the generalized-alpha case is cut into sub-steps of dt / 4; the forcing
    raises inside the fourth step, after its first sub-step was accepted: status "failed",
    the outputs up to the step's start kept, the function's message, no further cut."""
    method, dt, omega, angle, level = CASES[1]
    p = RaisingPendulum(omega, 3 * dt + 0.3 * dt, error)
    res = rancf.implicit.integrate(p, [angle], [0.0], 10 * dt, dt, method=method)
    assert res.status == "failed"
    assert list(res.t) == [k * dt for k in range(4)]
    assert "the input broke" in res.message and "cut down" not in res.message
    assert res.stats["step_cuts"] == level


def test_an_arithmetic_error_of_a_problem_is_a_refused_state_and_says_so():
    """The same as above with a ZeroDivisionError from the forcing of a problem written for
    :func:`rancf.implicit.integrate`: by the loop's contract an ArithmeticError of a problem is
    a state it refuses (rancf/formulations/_problem.pyx, ``accept``; a model's own input
    functions come wrapped in UserFunctionError, a RuntimeError, which fails the run at once),
    so the step is cut down to dt / 64 before the run fails. The run keeps its outputs up to
    the step's start and the function's message, and the note on the cuts says the step
    failed, not that Newton did (review 11 found it said Newton failed)."""
    method, dt, omega, angle, level = CASES[1]
    p = RaisingPendulum(omega, 3 * dt + 0.3 * dt, ZeroDivisionError)
    res = rancf.implicit.integrate(p, [angle], [0.0], 10 * dt, dt, method=method)
    assert res.status == "failed" and "the input broke" in res.message
    assert list(res.t) == [k * dt for k in range(4)]
    assert "Newton failed" not in res.message and "(dt / 64) where the step failed" in res.message
    assert res.stats["step_cuts"] == 6


def test_a_model_s_input_function_arithmetic_error_fails_the_run_uncut():
    """A model's effort function that raises ZeroDivisionError past 0.0105 s, in an implicit
    run of a pinned beam: UserFunctionError (a RuntimeError, rancf/utilities/errors.py) stops
    the run at that step with no cut, its cause the function's own exception."""
    m = rancf.Model()
    b = m.add_beam(1.0, 2, E=2e9, rho=7800.0, A=1e-4, I=1e-9)

    def effort(t, q, qd):
        if t > 0.0105:
            return 1.0 / 0.0
        return 0.0
    m.add_joint("revolute", m.ground.point(0, 0), b.start, effort=effort)
    res = rancf.simulate(m, 0.05, 1e-3, method="generalized-alpha", output_every=1)
    assert res.status == "failed" and isinstance(res.error.__cause__, ZeroDivisionError)
    assert res.stats.get("step_cuts", 0) == 0 and "cut down" not in res.message
    assert res.t[-1] == pytest.approx(0.010)


def richardson(R, x, z, h0, steps=6, levels=4):
    """The derivative of R at x along z by Richardson extrapolation of central differences
    with the steps ``h0 / 2**k``, k < steps (``levels`` eliminations of h^2, h^4, ...), and
    the change made by its last level (an estimate of its error)."""
    table = [(R(x + h * z) - R(x - h * z)) / (2.0 * h) for h in (h0 / 2**k for k in range(steps))]
    for level in range(1, levels + 1):
        table = [(4**level * table[i + 1] - table[i]) / (4**level - 1)
                 for i in range(len(table) - 1)]
    return table[-1], np.abs(table[-1] - table[-2]).max()


def test_gmres_products_along_a_stiff_cable_s_turn_are_of_fourth_order():
    """The light stiff cable on a ball joint (review 9: EA 1e11 N, 0.01 kg/m, 4 elements),
    straight and at rest, in a generalized-alpha step of 10 ms with GMRES
    (:attr:`krylov`): the Newton step ``J^-1 r`` for ``r = J z``, z the softest direction of
    J (the cable's turn about the ball: there the central difference's error, a false
    tension ``EA h^2 / 2``, is largest against the derivative, measured 7.7e-4 relative at
    the loop's step 1e-6 m, the fourth-order stencil's 1.7e-7), J and ``J z`` by Richardson
    extrapolation of central differences (its last level changes ``J z`` by 2.6e-7 of it,
    which moves ``J^-1 (J z)`` by about as much: the smallest eigenvalue is 1e-3, ``|J z|``
    9.5e-4). The step returns z to 1e-6 (measured 1.1e-8; with products of the central
    stencil it would miss z by about their error, 7.7e-4)."""
    m, _ = cable_on_ball(1e11, 0.01)
    f = spatial.of_model(m)
    p = spatial.implicit_problem(f)
    p.krylov = True
    n = f.n_free
    q, v, a = f.initial_state()[:n], np.zeros(n), np.zeros(n)
    h, beta, gamma, am, af = 0.01, 0.3, 0.6, 0.4, 0.55
    hb, hg = h * h * beta, h * gamma

    def R(x):
        return p.residual(q + hb * (x - a), v + hg * (x - a), 0.0, x, am, af)

    J = np.column_stack([richardson(R, a, e, 1e-3 / hb)[0] for e in np.eye(n)])
    z = np.linalg.eigh(0.5 * (J + J.T))[1][:, 0]
    Jz, change = richardson(R, a, z, 1e-3 / hb)
    assert change < 1e-6 * np.abs(Jz).max()
    x = p.step_solve(q, v, 0.0, a, Jz, am, af, am, af * hb, af * hg)
    assert p.krylov_iterations > 0
    assert np.abs(x - z).max() < 1e-6


def test_a_try_that_fails_soon_after_it_held_a_step_doubles_the_span():
    """The beam on a stiff ball spring (tests/test_spatial_ball_spring.py ``rooted(300)``,
    generalized-alpha, 0.5 ms, 0.2 s: 400 steps) needs sub-steps of dt / 16 from its second
    step on (4 cuts); each try of dt / 8 holds for one step and fails at the next. The
    module's rule, a failed try doubles the steps before the next (10, 20, 40, ...), allows
    ``k`` failed tries with ``10 (2**k - 1) <= 400``: k <= 5, and so at most 4 + 6 cuts
    (one try may be under way). Before, a try that held one step counted as held, its span
    back to 10: 34 cuts (30 failed tries, one every 11 steps); now 9."""
    from test_spatial_ball_spring import rooted
    m, _ = rooted(300.0)
    res = rancf.simulate(m, 0.2, 0.5e-3, method="generalized-alpha", output_every=10)
    assert res.status == "ok", res.message
    assert res.stats["smallest_step"] == 0.5e-3 / 16
    assert res.stats["step_cuts"] <= 4 + 6
