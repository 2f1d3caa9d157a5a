"""The drawn cable frames of :func:`rancf.static` where a tangent turns past 120 degrees from
its reference: carried from load step to load step as a run carries them from output to
output (``carry_cable_frames``), against the frame transported along a plane path (its normal
kept: no spin about the tangent), the other formulation's statics and a damped run's settled
state."""
import numpy as np
import pytest

import rancf
from rancf.integrators.static import _spatial_dae_static

CABLE = dict(E=1e7, rho=10.0, A=1e-4, I=1e-9, element="ancf-cable")


def bent_cantilever(damping=0.0, ramp=None):
    """A cable of 1 m along x clamped at the origin (EI = 0.01 N m^2, EA = 1e3 N), a tip force
    of 1 N in the x-z plane pointing 30 degrees below -x: the cable bends in that plane until
    its end tangent nears the force's direction, past 120 degrees from x. ``ramp``: the force
    grows linearly to its value over that time (s)."""
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, 0.0))
    c = m.add_beam(1.0, 8, damping=damping, **CABLE)
    m.add_joint("fixed", m.ground.point(0, 0, 0), c.start)
    f = np.array([-np.cos(np.radians(30.0)), 0.0, -np.sin(np.radians(30.0))])
    m.add_force(c.end, force=f if ramp is None else (lambda t: f * min(t / ramp, 1.0)))
    return m, c


def rolled_cable(theta=2.6):
    """The cable clamped along x with a rigid body welded to its end, a moment ``EI theta``
    about y on the body: pure bending rolls the cable into an arc in the x-z plane, its
    tangent at s turned by ``theta s / L`` about y (the end by 2.6 rad, 149 degrees). The weld
    at a cable point runs the spatial DAE."""
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, 0.0))
    c = m.add_beam(1.0, 8, **CABLE)
    m.add_joint("fixed", m.ground.point(0, 0, 0), c.start)
    r = m.add_rigid_body(0.001, np.eye(3) * 1e-7, position=(1.0, 0.0, 0.0))
    m.add_joint("fixed", c.end, r.point(0, 0, 0))
    m.add_force(r.centre, moment=(0.0, 1e7 * 1e-9 * theta, 0.0))
    return m, c


def cable_frames_of(res, k=-1):
    """The drawn frames (c, 3, 3) and unit tangents (c, 3) of the cable nodes at output k."""
    nc = res.extra["cable_nodes"].shape[1] // 6
    F = np.asarray(res.nodes)[k, -nc:, 3:].reshape(nc, 3, 3)
    e = res.extra["cable_nodes"][k].reshape(nc, 6)
    return F, e[:, 3:] / np.linalg.norm(e[:, 3:], axis=1)[:, None]


def assert_plane_transport(F, t):
    """The frames of a cable bent in the x-z plane from its reference frame (the identity):
    transported along the tangent's plane path without spin about it, each keeps the plane's
    normal y and turns about it, ``F = [t, y, t x y]``, whatever the angle (the frame turned
    from the reference's half turn, where the tangent passed 120 degrees from x, has -y); and
    the end tangent is past 120 degrees from x."""
    y = np.array([0.0, 1.0, 0.0])
    assert (t[:, 0] < -0.5).any()
    np.testing.assert_allclose(F[:, :, 0], t, rtol=0, atol=1e-12)
    np.testing.assert_allclose(F[:, :, 1], np.broadcast_to(y, t.shape), rtol=0, atol=1e-12)
    np.testing.assert_allclose(F[:, :, 2], np.cross(t, y), rtol=0, atol=1e-12)


@pytest.mark.parametrize("load_steps", [20, 40])
def test_recursion_statics_carries_cable_frames_past_120_degrees(load_steps):
    """The recursion's statics of the bent cantilever (its end tangent 150 degrees from x):
    the frames are the plane transport's (the first load step turns the end tangent by 111
    degrees of 20 steps, 70 of 40, the others by less: within the 120 degrees a carried frame
    may turn between two states; 10 load steps turn it by 135 the first), the spatial DAE's
    statics' to 1e-12 (same equilibrium, frames carried by the DAE's own path), and a damped
    run's settled state's (the load ramped over 2 s,
    generalized-alpha, an output every 10 steps: nodes and frames to 1e-9, measured 3e-12,
    velocities below 1e-8)."""
    m, c = bent_cantilever()
    eq = rancf.static(m, load_steps=load_steps)
    assert eq.status == "ok" and eq.formulation == "spatial"
    F, t = cable_frames_of(eq)
    assert_plane_transport(F, t)
    dae = _spatial_dae_static(m, load_steps, 1e-10, 50)
    assert dae.status == "ok" and dae.formulation == "dae"
    np.testing.assert_allclose(dae.nodes[0], np.asarray(eq.nodes)[0].ravel(), rtol=0,
                               atol=1e-12)
    if load_steps == 20:
        md, _ = bent_cantilever(damping=0.05, ramp=2.0)
        res = rancf.simulate(md, 4.0, 1e-3, method="generalized-alpha", output_every=10)
        assert res.status == "ok" and np.abs(res.velocities[-1]).max() <= 1e-8
        np.testing.assert_allclose(np.asarray(res.nodes)[-1], np.asarray(eq.nodes)[0],
                                   rtol=0, atol=1e-9)


def test_dae_statics_carries_cable_frames_past_120_degrees():
    """The spatial DAE's statics of the rolled cable (a weld at its end: the DAE): the
    tangents turned by ``theta s / L`` (pure bending, to 1e-3 rad with 8 elements) and the
    frames the plane transport's, the end's 149 degrees from its reference."""
    m, c = rolled_cable()
    eq = rancf.static(m, load_steps=20)
    assert eq.status == "ok" and eq.formulation == "dae"
    F, t = cable_frames_of(eq)
    s = np.linspace(0.0, 1.0, 9)
    np.testing.assert_allclose(np.arctan2(-t[:, 2], t[:, 0]), 2.6 * s, rtol=0, atol=1e-3)
    assert_plane_transport(F, t)
