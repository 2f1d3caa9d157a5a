"""Statics where a model's input function fails (raises: rancf.UserFunctionError; returns what
is not a value: rancf.ReturnedValueError) on every path of the solve: the solve stops at once,
status "failed", the message naming the function, the last equilibrium kept as the result
and mapped to the outputs without calling the function again (its values there played back).
References: the spring/gravity balance of a pendulum (brentq), the upright equilibrium of a
body standing on a pin, the reaction of the weight."""
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
    pin's reaction the weight s m g and the moment s m g l cos q it balances about the pin
    (through the spring and the effort, those played back) within 1e-8 of them (spatial:
    a planar Result computes its reactions when they are read, by the model's functions)."""
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
    if dim == 3:
        # (a planar Result's reactions are computed when read, by the model's functions)
        reaction = np.asarray(res.reaction(pin)[0], dtype=float)
        weight, moment = s * MASS * G, s * MASS * G * ARM * np.cos(theta)
        assert abs(np.linalg.norm(reaction[:3]) - weight) <= 1e-8 * weight
        assert abs(abs(reaction[5]) - moment) <= 1e-8 * moment


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
