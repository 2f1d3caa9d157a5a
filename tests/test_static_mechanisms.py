"""Statics of mechanisms that only their loads hold (rancf/integrators/static.py
``_damped_newton``): beams and bodies on ball and universal joints under gravity, whose Newton
matrix is singular at the drawn configuration (gravity's stiffness is zero there) or at every
state (a neutral spin, a family of equilibria), and models with no equilibrium at all, which
must still fail."""
import numpy as np
import pytest

import rancf

G, E, RHO, W = 9.81, 2e11, 7800.0, 0.01


def beam_on(kind):
    """A 1 m steel beam of 1 cm square section drawn horizontal along x on a ball or
    universal joint at the origin, under gravity along -z."""
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -G))
    b = m.add_beam(1.0, 8, E=E, rho=RHO, A=W * W, I=(W**4 / 12, W**4 / 12), J=0.141 * W**4,
                   G=8e10, direction=(1.0, 0.0, 0.0), up=(0.0, 0.0, 1.0))
    if kind == "spherical":
        m.add_joint("spherical", m.ground.point(0, 0, 0), b.start)
    else:
        m.add_joint("universal", m.ground.point(0, 0, 0), b.start,
                    axes=((0.0, 1.0, 0.0), (0.0, 0.0, 1.0)))
    return m, b


@pytest.mark.parametrize("kind", ["spherical", "universal"])
def test_a_beam_on_a_ball_or_universal_joint_hangs_straight_down(kind):
    """The beam hangs straight down, stretched by its weight: the tip at ``z = -L (1 + rho g L
    / (2 E))`` (the axial force ``rho A g (L - s)`` integrated, to the stretch's first order;
    its second order, 1e-14 of L, is below the bound). Bound 1e-9 m: the loop's tolerance
    (1e-10 of the size) on the few coordinates the tip sums, with the round-off of the
    stretch (1e-7) of a beam 1e9 times stiffer axially than against the swing."""
    m, b = beam_on(kind)
    res = rancf.static(m)
    assert res.status == "ok", res.message
    # on the ball joint the spin about its own axis (vertical) is neutral: a family of
    # equilibria, reported as such; on the universal joint the equilibrium is isolated
    assert ("family of equilibria" in res.message) == (kind == "spherical"), res.message
    L = 1.0
    expected = [0.0, 0.0, -L * (1.0 + RHO * G * L / (2.0 * E))]
    np.testing.assert_allclose(res.position(b.end)[0], expected, rtol=0, atol=1e-9)


def body_on_ball(angle, inertia=(0.02, 0.03, 0.04), mass=2.0, d=0.5):
    """A rigid body of ``mass`` on a ball joint ``d`` from its centre along its body x axis,
    drawn at ``angle`` (rad) below horizontal (its frame turned about y with it)."""
    c, s = np.cos(angle), np.sin(angle)
    R = np.array([[c, 0.0, s], [0.0, 1.0, 0.0], [-s, 0.0, c]])
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -G))
    body = m.add_rigid_body(mass, np.diag(inertia), position=(d * c, 0.0, -d * s),
                            orientation=R)
    m.add_joint("spherical", m.ground.point(0, 0, 0), body.point(-d, 0.0, 0.0))
    return m, body


@pytest.mark.parametrize("angle", [0.3, 0.8])
def test_a_rigid_body_on_a_ball_joint_ends_hanging_below_its_pivot(angle):
    """Drawn at 0.3 or 0.8 rad below horizontal, the body's centre ends 0.5 m straight below
    the pivot (its spin about the vertical a neutral direction: a family of equilibria, any
    of which is the answer); bound 1e-9 m, the loop's tolerance."""
    m, body = body_on_ball(angle)
    res = rancf.static(m)
    assert res.status == "ok", res.message
    np.testing.assert_allclose(res.position(body.centre)[0], [0.0, 0.0, -0.5], rtol=0,
                               atol=1e-9)


def test_a_chain_of_three_bodies_on_ball_joints_hangs_vertical():
    """Three rigid bodies, each 0.5 m long on a ball joint at the last one's end, drawn
    horizontal: they hang in a vertical line, centres at z = -0.25, -0.75, -1.25 (the drawn
    chain's equilibria include folded ones, unstable, which statics leaves)."""
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -G))
    parent, bodies = m.ground.point(0, 0, 0), []
    for k in range(3):
        b = m.add_rigid_body(1.0, np.diag([0.02, 0.03, 0.04]), position=(0.25 + 0.5 * k, 0, 0))
        m.add_joint("spherical", parent, b.point(-0.25, 0.0, 0.0))
        parent = b.point(0.25, 0.0, 0.0)
        bodies.append(b)
    res = rancf.static(m)
    assert res.status == "ok", res.message
    for k, b in enumerate(bodies):
        np.testing.assert_allclose(res.position(b.centre)[0], [0.0, 0.0, -0.25 - 0.5 * k],
                                   rtol=0, atol=1e-9)


def test_modes_of_a_ball_jointed_pendulum_from_its_hanging_equilibrium():
    """rancf.modes at the static equilibrium (state=None) of the body drawn at 0.3 rad: the
    two swings about the horizontal axes, ``sqrt(m g d / (I + m d^2)) / 2 pi`` with I the
    body's moment about each (its z and y axes, the x axis hanging along the arm), and the
    spin about the vertical, a rigid mode. Bound 1e-6 relative: the equilibrium's error
    (1e-9 m over 0.5 m) moves the frequencies at second order, the eigensolver far less."""
    mass, d, inertia = 2.0, 0.5, (0.02, 0.03, 0.04)
    m, _ = body_on_ball(0.3, inertia, mass, d)
    found = rancf.modes(m, n=3)
    assert found.rigid[0] and not found.rigid[1:].any()
    expected = sorted(np.sqrt(mass * G * d / (np.array(inertia[1:]) + mass * d**2))
                      / (2.0 * np.pi))
    np.testing.assert_allclose(found.frequencies[1:], expected, rtol=1e-6)


def test_a_planar_pendulum_drawn_horizontal_hangs():
    """A planar rigid body on a pin, drawn exactly horizontal (gravity's stiffness about the
    pin is zero there): its centre ends 0.5 m below the pin, to the loop's tolerance."""
    m = rancf.Model(gravity=(0.0, -G))
    body = m.add_rigid_body(2.0, 0.05, position=(0.5, 0.0))
    m.add_joint("revolute", m.ground.point(0.0, 0.0), body.point(-0.5, 0.0))
    res = rancf.static(m)
    assert res.status == "ok", res.message
    np.testing.assert_allclose(res.position(body.centre)[0], [0.0, -0.5], rtol=0, atol=1e-9)


def test_a_free_body_under_gravity_still_fails_clearly():
    """A model with no equilibrium at all: a body on a free joint under gravity (its
    residual, the weight, never falls). The damped steps reach nothing; statics fails at the
    first load step, the result the drawn configuration (load factor 0). A body on a pin or
    a ball joint under a moment that nothing resists: test_static.py's
    test_mechanism_is_reported, test_spatial_implicit.py's
    test_static_of_a_mechanism_fails_clearly."""
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -G))
    body = m.add_rigid_body(1.0, np.diag([0.01, 0.02, 0.03]), position=(0.5, 0.0, 0.0))
    m.add_joint("free", m.ground.point(0.5, 0.0, 0.0), body.centre)
    res = rancf.static(m)
    assert res.status == "failed" and "load factor 0" in res.message, res.message
    np.testing.assert_allclose(res.position(body.centre)[0], [0.5, 0.0, 0.0], atol=1e-15)


def beam_drawn(tilt):
    """The steel beam of :func:`beam_on` (4 elements) on a ball joint, drawn straight at
    ``tilt`` (rad) from the upward vertical in the x-z plane."""
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -G))
    b = m.add_beam(1.0, 4, E=E, rho=RHO, A=W * W, I=(W**4 / 12, W**4 / 12), J=0.141 * W**4,
                   G=8e10, direction=(np.sin(tilt), 0.0, np.cos(tilt)), up=(0.0, 1.0, 0.0))
    m.add_joint("spherical", m.ground.point(0, 0, 0), b.start)
    return m, b


@pytest.mark.parametrize("tilt", [0.3, 1.2, 2.0, 2.5, 3.0])
def test_the_hanging_beam_is_stable_whatever_it_is_drawn_at(tilt):
    """Drawn anywhere off upright, the beam ends hanging straight down (tip as above, bound
    1e-9 m), "ok", and the message never calls an equilibrium unstable: the load steps stop
    near the drawn state (no stiffness against the swing but gravity's), the damped steps
    reach the hanging beam directly, a minimum of the potential (gravity's swing stiffness
    m g L / 2 > 0), its spin about its own axis neutral (the forces do not change along it at
    all; a K by single-coordinate differences gave it omega^2 = -0.13 1/s^2, an instability,
    before the stability test measured each unstable mode's curvature along the mode)."""
    m, b = beam_drawn(tilt)
    res = rancf.static(m)
    assert res.status == "ok", res.message
    np.testing.assert_allclose(res.position(b.end)[0], [0.0, 0.0, -(1.0 + RHO * G / (2 * E))],
                               rtol=0, atol=1e-9)
    assert "unstable" not in res.message, res.message


def test_the_beam_standing_upright_is_not_returned_as_an_equilibrium():
    """Drawn exactly upright the beam is an equilibrium at every load factor, a maximum of
    the potential (its swings' stiffness -m g L / 2): the stability test must still call it
    unstable (the check along the mode keeps a real negative curvature: the swings measure
    -14.27 1/s^2 along themselves, to 1e-4). Either statics leaves it and ends hanging (bound
    1e-9 m), or it fails saying the equilibrium is unstable; never "ok" standing."""
    m, b = beam_drawn(0.0)
    res = rancf.static(m)
    if res.status == "ok":
        np.testing.assert_allclose(res.position(b.end)[0],
                                   [0.0, 0.0, -(1.0 + RHO * G / (2 * E))], rtol=0, atol=1e-9)
    else:
        assert res.status == "failed" and "unstable" in res.message, res.message


def test_a_body_standing_upright_on_a_ball_joint_hangs_and_says_so_in_order():
    """A rigid body standing exactly upright on a ball joint: the load steps stop at once
    (Newton's matrix singular: the spin about the vertical), the damped steps stay there (an
    equilibrium, the residual zero), the stability test finds it unstable (a maximum of the
    potential, its swings' omega^2 -m g d / (I + m d^2)) and leaves it: the centre ends 0.5 m
    below the pivot (bound 1e-9 m). The message tells that in order: the upright state
    reached at load factor 1 was unstable and left; it does not say the load steps reached
    it (they reached nothing), and a note that the result is one of a family of equilibria,
    if any, comes after, about the result."""
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -G))
    body = m.add_rigid_body(2.0, np.diag([0.04, 0.03, 0.02]), position=(0.0, 0.0, 0.5))
    m.add_joint("spherical", m.ground.point(0, 0, 0), body.point(0.0, 0.0, -0.5))
    res = rancf.static(m)
    assert res.status == "ok", res.message
    np.testing.assert_allclose(res.position(body.centre)[0], [0.0, 0.0, -0.5], rtol=0,
                               atol=1e-9)
    assert "was unstable" in res.message and "load steps reached" not in res.message, \
        res.message
    if "family of equilibria" in res.message:
        assert res.message.index("family of equilibria") > res.message.index("was unstable")
