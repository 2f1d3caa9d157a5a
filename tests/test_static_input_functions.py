"""Statics where a model's input function fails (raises: rancf.UserFunctionError; returns what
is not a value: rancf.ReturnedValueError) on every path of the solve: the solve stops at once,
status "failed", the message naming the function, the last equilibrium kept as the result
and mapped to the outputs without calling the function again (its values there played back).
References: the spring/gravity balance of a pendulum (brentq), the upright equilibrium of a
body standing on a pin, the reaction of the weight."""
import warnings

import numpy as np
import pytest
from scipy.optimize import brentq

import rancf
from rancf.formulations import spatial
from rancf.formulations.spatial_dae import SpatialDAE
from rancf.integrators.static import _pseudo_transient_first_step

MASS, ARM, K, T0, G = 0.78, 0.5, 20.0, 10.0, 9.81


def failing(calls, bound, fault, value, sticky):
    """An effort ``value`` that fails (raises KeyError, or returns NaN) where ``|q| > bound``,
    and, ``sticky``, on every call after its first failure (a table that is closed then);
    ``calls`` gets each call's q."""
    def effort(t, q, qd):
        calls.append(q)
        if any(abs(c) > bound for c in calls) if sticky else abs(q) > bound:
            if fault == "raises":
                raise KeyError("beyond the table")
            return float("nan")
        return value
    return effort


def pendulum(dim, loop, effort):
    """A body of MASS kg, its centre ARM m out along x from a pin about z at the origin, with
    a torsion spring K N m/rad and the effort, gravity -y; ``loop``: a free joint at the pin
    too, so that the spatial model runs the spatial DAE (a loop), else the recursion."""
    if dim == 2:
        m = rancf.Model(gravity=(0.0, -G))
        body = m.add_rigid_body(MASS, 0.01, position=(ARM, 0.0))
        pin = m.add_joint("revolute", m.ground.point(0.0, 0.0), body.point(-ARM, 0.0),
                          effort=effort)
    else:
        m = rancf.Model(dim=3, gravity=(0.0, -G, 0.0))
        body = m.add_rigid_body(MASS, np.diag([0.01, 0.01, 0.01]), position=(ARM, 0.0, 0.0))
        if loop:
            m.add_joint("free", m.ground.point(0.0, 0.0, 0.0), body.point(-ARM, 0.0, 0.0))
        pin = m.add_joint("revolute", m.ground.point(0.0, 0.0, 0.0), body.point(-ARM, 0.0, 0.0),
                          axis=(0.0, 0.0, 1.0), effort=effort)
    m.add_rotational_spring_damper(pin, K)
    return m, body, pin


FORMULATIONS = [(2, False, "dae"), (3, False, "spatial"), (3, True, "dae")]


@pytest.mark.parametrize("dim, loop, formulation", FORMULATIONS)
@pytest.mark.parametrize("fault", ["raises", "returns nan"])
def test_an_input_functions_error_keeps_the_spatial_equilibrium(dim, loop, formulation, fault):
    """The pendulum with a constant effort -T0 (down, with the weight) that fails beyond
    |q| = 0.3 rad and on every call after: the load steps stop at s = 0.5, whose root
    passes 0.3 (``K q = s (T0 + m g l cos q)``: 0.274 rad at s = 0.4, 0.340 at 0.5), and the
    outputs at s = 0.4 are mapped with the effort's values kept there (called again, it
    fails and the equilibrium was lost: raised out of rancf.static on the recursion and the
    spatial DAE). The result is the equilibrium at s = 0.4: its angle the brentq root within
    1e-8 rad (Newton's tolerance, 1e-10 of the 1 m size, times the stiffness ratio), the
    pin's reaction the weight s m g, and no moment about the pin within 1e-8 of the weight's
    s m g l cos q: the spring and the effort (those played back) balance it, applied torques
    that a reaction leaves out (test_a_statics_results_outputs_call_no_input_function)."""
    calls = []
    m, body, pin = pendulum(dim, loop, failing(calls, 0.3, fault, -T0, sticky=True))
    res = rancf.static(m, load_steps=10)
    assert res.status == "failed" and res.formulation == formulation
    error = rancf.UserFunctionError if fault == "raises" else rancf.ReturnedValueError
    assert isinstance(res.error, error) and res.error.function == "effort"
    assert "load step 5 of 10" in res.message and f"effort of joint {pin.index}" in res.message
    assert abs(calls[-1]) > 0.3 and all(abs(q) <= 0.3 for q in calls[:-1])
    s = 0.4
    assert res.extra["load_factor"][0] == s
    theta = brentq(lambda q: K * q - s * (T0 + MASS * G * ARM * np.cos(q)), 0.0, 1.0)
    assert abs(abs(res.joint(pin)[0][0]) - theta) <= 1e-8
    made = len(calls)
    with warnings.catch_warnings():
        # (planar: the warning that reaction(joint) is the full reaction now)
        warnings.simplefilter("ignore", FutureWarning)
        reaction = np.asarray(res.reaction(pin)[0], dtype=float)
    assert len(calls) == made
    weight, moment = s * MASS * G, s * MASS * G * ARM * np.cos(theta)
    assert abs(np.linalg.norm(reaction[:dim]) - weight) <= 1e-8 * weight
    # the spring and the effort (played back) balance the weight's moment about the pin:
    # applied torques, not the pin's reaction, which holds none about its axis
    assert abs(reaction[-1]) <= 1e-8 * moment


def standing(dim, loop, effort):
    """A 1 kg body (0.01 kg m^2) standing on a pin at the origin, its centre 0.5 m above it,
    gravity -y, a torsion spring of 2 N m/rad (below m g l = 4.9: upright is unstable) and
    the effort: upright, an equilibrium at every load factor."""
    if dim == 2:
        m = rancf.Model(gravity=(0.0, -G))
        body = m.add_rigid_body(mass=1.0, inertia=0.01, position=(0.0, 0.5))
        pin = m.add_joint("revolute", m.ground.point(0.0, 0.0), body.point(0.0, -0.5),
                          effort=effort)
    else:
        m = rancf.Model(dim=3, gravity=(0.0, -G, 0.0))
        body = m.add_rigid_body(1.0, np.diag([0.01, 0.01, 0.01]), position=(0.0, 0.5, 0.0))
        if loop:
            m.add_joint("free", m.ground.point(0.0, 0.0, 0.0), body.point(0.0, -0.5, 0.0))
        pin = m.add_joint("revolute", m.ground.point(0.0, 0.0, 0.0), body.point(0.0, -0.5, 0.0),
                          axis=(0.0, 0.0, 1.0), effort=effort)
    m.add_rotational_spring_damper(pin, 2.0)
    return m, body, pin


@pytest.mark.parametrize("dim, loop, formulation", FORMULATIONS)
@pytest.mark.parametrize("fault", ["raises", "returns nan"])
def test_an_input_functions_error_stops_the_escape_from_an_unstable_equilibrium(
        dim, loop, formulation, fault):
    """The body standing on its pin: the load steps stay upright, an unstable equilibrium,
    and the continuation off it turns the body, where the effort (zero) fails beyond 0.5
    rad. Before, each continuation step that met it was refused and retried with a larger
    mu (hundreds of failing calls), and the solve ended "failed" as if the continuation had
    found nothing, without the error. Now it stops at the first failing call, "failed", the
    error and its function in the result, the result the upright equilibrium, exactly
    (analytic: the body drawn there, which no load moves), its reaction the weight
    (spatial)."""
    calls = []
    m, body, pin = standing(dim, loop, failing(calls, 0.5, fault, 0.0, sticky=False))
    res = rancf.static(m)
    assert res.status == "failed" and res.formulation == formulation
    error = rancf.UserFunctionError if fault == "raises" else rancf.ReturnedValueError
    assert isinstance(res.error, error) and res.error.function == "effort"
    assert f"effort of joint {pin.index}" in res.message and "unstable" in res.message
    assert abs(calls[-1]) > 0.5 and all(abs(q) <= 0.5 for q in calls[:-1])
    assert res.extra["load_factor"][0] == 1.0
    assert abs(res.joint(pin)[0][0]) <= 1e-12
    np.testing.assert_allclose(res.position(body.centre)[0][:2], [0.0, 0.5], rtol=0, atol=1e-12)
    if dim == 3:
        assert abs(np.linalg.norm(np.asarray(res.reaction(pin)[0])[:3]) - G) <= 1e-9 * G


@pytest.mark.parametrize("fault", ["raises", "returns nan"])
def test_the_pseudo_transient_continuation_raises_an_input_functions_error_at_once(fault):
    """The continuation that starts statics of plane curved cables (and leaves an unstable
    equilibrium), on the spatial DAE of the pendulum at the full load from its reference:
    its equilibrium is at 0.66 rad (``K q = T0 + m g l cos q``), past the effort's 0.3 rad.
    The first step whose iterate goes there raises the function's error out of the
    continuation, which calls it no more: before, the step was refused as one whose
    residual is not finite, mu raised tenfold and the step retried (the function called
    again, up to 20 max_iter steps)."""
    calls = []
    m, body, pin = pendulum(3, True, failing(calls, 0.3, fault, -T0, sticky=False))
    dae = SpatialDAE(m.build(), *spatial.model_inputs(m))
    dae.load_factor = 1.0
    x = dae.consistent_state(dae.initial_state()[0], np.zeros(dae.n_coordinates))[0]
    J = dae.constraint_jacobian(x, 0.0)
    J = J.toarray() if hasattr(J, "toarray") else np.asarray(J)
    lam = np.linalg.solve(J @ J.T, J @ dae.force(x, np.zeros_like(x), 0.0))
    error = rancf.UserFunctionError if fault == "raises" else rancf.ReturnedValueError
    with pytest.raises(error):
        _pseudo_transient_first_step(dae, x, lam, 1e-10, 50)
    assert abs(calls[-1]) > 0.3 and all(abs(q) <= 0.3 for q in calls[:-1])


F = 3.0         # N, the load function's force on the body's centre, down


def closing(calls, kind, dim, after):
    """The input function of ``kind`` of the pendulum: ``"effort"`` -T0, ``"force"`` F down
    on the body's centre, ``"drive"`` the pin held at its drawn angle 0; it appends each
    call's arguments to ``calls`` and raises KeyError on every call after its first
    ``after`` (a table closed then)."""
    def function(*args):
        calls.append(args)
        if len(calls) > after:
            raise KeyError("the table is closed")
        if kind == "effort":
            return -T0
        if kind == "drive":
            return 0.0, 0.0, 0.0
        return (0.0, -F) if dim == 2 else (0.0, -F, 0.0)
    return function


def pendulum_with(dim, loop, kind, function):
    """:func:`pendulum` with ``function`` as its pin's effort, its pin's drive (then no
    spring: a driven joint takes none) or a load on the body's centre."""
    if kind == "effort":
        return pendulum(dim, loop, function)
    origin, lever = ((0.0, 0.0), (-ARM, 0.0)) if dim == 2 else ((0.0,) * 3, (-ARM, 0.0, 0.0))
    if dim == 2:
        m = rancf.Model(gravity=(0.0, -G))
        body = m.add_rigid_body(MASS, 0.01, position=(ARM, 0.0))
    else:
        m = rancf.Model(dim=3, gravity=(0.0, -G, 0.0))
        body = m.add_rigid_body(MASS, np.diag([0.01, 0.01, 0.01]), position=(ARM, 0.0, 0.0))
        if loop:
            m.add_joint("free", m.ground.point(*origin), body.point(*lever))
    axis = {} if dim == 2 else {"axis": (0.0, 0.0, 1.0)}
    drive = {"drive": function} if kind == "drive" else {}
    pin = m.add_joint("revolute", m.ground.point(*origin), body.point(*lever), **axis, **drive)
    if kind == "force":
        m.add_force(body.centre, force=function)
        m.add_rotational_spring_damper(pin, K)
    return m, body, pin


@pytest.mark.parametrize("dim, loop, formulation", FORMULATIONS)
@pytest.mark.parametrize("kind", ["effort", "force", "drive"])
def test_a_statics_results_outputs_call_no_input_function(dim, loop, formulation, kind):
    """A statics Result's outputs computed when asked (the reactions, planar by a saddle-point
    solve at the stored frame; the accelerations; the energies, joints, frames) play back
    the values the run's input functions gave at the equilibrium kept, and call none of
    them: the effort fails from its call half way through the solve on (the solve stops,
    the equilibrium kept that of the last load step), the force and the drive from their
    first call after the solve on (a successful solve; before, the planar reaction and
    acceleration called them again and raised). The values are the free body's: the angle
    the root of the moments about the pin (brentq: ``K q = s (T0 + m g l cos q)``, ``K q =
    s (m g + F) l cos q``, 0 driven), the pin's force the weight and load ``s (m g + F)`` up,
    its moment about the pin that of the weight and load less the spring's and effort's
    (applied torques, not the reaction's: zero but for the drive's, in both dimensions),
    within 1e-8 of them (Newton's tolerance 1e-10 of the 1 m size); the accelerations zero
    (an equilibrium)."""
    calls = []
    rancf.static(pendulum_with(dim, loop, kind, closing(calls, kind, dim, np.inf))[0])
    after = len(calls) // 2 if kind == "effort" else len(calls)
    calls = []
    m, body, pin = pendulum_with(dim, loop, kind, closing(calls, kind, dim, after))
    res = rancf.static(m)
    assert res.formulation == formulation
    if kind == "effort":
        assert res.status == "failed" and isinstance(res.error, rancf.UserFunctionError)
        assert res.error.function == "effort" and len(calls) == after + 1
    else:
        assert res.status == "ok" and len(calls) == after
    made = len(calls)
    s = float(res.extra["load_factor"][0])
    assert 0.0 < s <= 1.0
    with warnings.catch_warnings():
        # (planar: the warning that reaction(joint) is the full reaction now)
        warnings.simplefilter("ignore", FutureWarning)
        reaction = np.asarray(res.reaction(pin))[0]
    torque = res.reaction(pin, "torque")[0]
    acceleration = res.acceleration(body.centre)[0]
    res.energy(), res.joint(pin), res.to_frame(), res.state(0), res.reactions
    assert len(calls) == made
    # the free body's values
    weight = s * (MASS * G + (F if kind == "force" else 0.0))
    if kind == "drive":
        theta = 0.0
    else:
        applied = s * T0 if kind == "effort" else 0.0
        theta = -brentq(lambda q: K * q - applied - weight * ARM * np.cos(q), 0.0, 1.0)
    assert abs(res.joint(pin)[0][0] - theta) <= 1e-8
    about_pin = weight * ARM * np.cos(theta)        # the reaction's, against weight and load
    force = reaction[:dim]
    np.testing.assert_allclose(force, np.eye(dim)[1] * weight, rtol=0, atol=1e-8 * weight)
    # the spring's and effort's torques on the child are applied, not the reaction's (both
    # dimensions): the pin holds the moment of the weight and load less theirs
    springs = 0.0 if kind == "drive" else -K * theta + (-s * T0 if kind == "effort" else 0.0)
    held = about_pin - springs
    moment = reaction[2:] if dim == 2 else reaction[3:]
    np.testing.assert_allclose(moment, [held] if dim == 2 else [0.0, 0.0, held], rtol=0,
                               atol=1e-8 * about_pin)
    assert abs(torque - held) <= 1e-8 * about_pin
    if dim == 2 or res.status == "ok":
        # (the spatial accelerations of a failed statics are NaN, its frame not tested)
        np.testing.assert_allclose(acceleration, 0.0, rtol=0, atol=1e-7)


def test_a_result_that_kept_no_input_values_refuses_to_call_the_one_that_failed():
    """A Result whose run an input function stopped and which kept no values of the
    functions to play back (a run that keeps none: its Solution's ``inputs`` None) refuses
    the outputs that would call them at its frames again: a RuntimeError naming the
    function, and no call."""
    from rancf.integrators.static import static
    from rancf.results.result import result_of
    calls = []
    m, body, pin = pendulum(2, False, failing(calls, 0.3, "raises", -T0, sticky=True))
    solution = static(m)
    assert isinstance(solution.error, rancf.UserFunctionError) and solution.inputs is not None
    solution.inputs = None
    res = result_of(m, solution)
    made = len(calls)
    with pytest.raises(RuntimeError, match="call the effort function again"), \
            warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        res.reaction(pin)
    with pytest.raises(RuntimeError, match="call the effort function again"):
        res.acceleration(body.centre)
    assert len(calls) == made
