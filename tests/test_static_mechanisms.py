"""Statics of mechanisms that only their loads hold (rancf/integrators/static.py
``_damped_newton``): beams and bodies on ball and universal joints under gravity, whose Newton
matrix is singular at the drawn configuration (gravity's stiffness is zero there) or at every
state (a neutral spin, a family of equilibria), and models with no equilibrium at all, which
must still fail."""
import numpy as np
import pytest

import rancf
from rancf.integrators import static as statics

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


def work_bound(size, start):
    """A bound on the Newton iterations (every loop's, ``stats["newton_iterations"]``) of
    statics on a mechanism drawn ``start`` (rad) from a maximum of its potential that it
    leaves by the damped steps of rancf/integrators/static.py ``_damped_newton`` (``size``
    the model's, m; link coordinates in rad, a swing of pi at most): twice the count of
    their ideal schedule,

    * ``CUTS + 1`` load-step tries, each failing at its first factorization (the matrix
      singular along the spin about the beam's own axis);
    * ``log2(reach / start)`` steps leaving the maximum, each doubling the distance from it
      (mu at twice the curvature along the step), up to the reach ``DAMPED_REACH size``;
    * ``pi / reach`` steps of the swing at the reach;
    * ``log10(1 / DAMPED_FLOOR)`` steps of mu falling tenfold to its floor at the bottom,
      and 3 of the last Newton step's iterations (quadratic from there).

    Why twice: the doubling holds at the maximum itself; along the swing the curvature
    changes (as the cosine of the angle) and mu follows it a step late, and a step refused
    (uphill, beyond the reach) counts too."""
    reach = statics.DAMPED_REACH * size
    ideal = (statics.CUTS + 1 + np.log2(reach / start) + np.pi / reach
             + np.log10(1.0 / statics.DAMPED_FLOOR) + 3)
    return 2.0 * ideal


def descent_start(tilt):
    """Where the damped steps start from, in rad off upright: the drawn tilt, or where the
    load steps converged to the upright state itself (Newton's iteration on ``sin theta``
    goes to its nearest zero, cubically: ``theta - tan theta``), the push off it along its
    unstable mode, ``DESCENT_PUSH`` of the size (a beam or arm of about the size's length:
    as many rad); the lesser of the two bounds the work from either."""
    return min(tilt, statics.DESCENT_PUSH)


@pytest.mark.parametrize("tilt", [1e-6, 1e-4, 1e-3, 3e-3, 0.01, 0.1])
def test_the_beam_drawn_near_upright_hangs_within_a_bounded_work(tilt):
    """Drawn within 0.1 rad of upright, the beam on a ball joint ends hanging straight down
    (tip as above, bound 1e-9 m), its Newton iterations within :func:`work_bound`. Before,
    the damped steps' mu rose with the residual, which rises as the beam leaves the maximum:
    from 1e-4 and 1e-3 rad statics failed (the 500 damped steps allowed ended short of the
    swing), from 3e-3 rad it took 127 of them; from 0.1 rad the load steps reached the
    upright state and the continuation off it took 8409 iterations."""
    m, b = beam_drawn(tilt)
    res = rancf.static(m)
    assert res.status == "ok", res.message
    np.testing.assert_allclose(res.position(b.end)[0], [0.0, 0.0, -(1.0 + RHO * G / (2 * E))],
                               rtol=0, atol=1e-9)
    assert res.stats["newton_iterations"] <= work_bound(m.build().size, descent_start(tilt)), \
        res.stats


def planar_drawn(kind, tilt):
    """A planar model on a pin at the origin under gravity along -y, drawn straight at
    ``tilt`` (rad) from the upward vertical: the steel beam of :func:`beam_drawn` (4
    elements), or a rigid body of 2 kg whose centre is 0.5 m along its arm from the pin.
    Returns the model, the point that hangs, and where it hangs: the beam's tip at ``-(1 +
    rho g L / (2 E)) L``, the body's centre 0.5 m below the pin."""
    m = rancf.Model(gravity=(0.0, -G))
    if kind == "beam":
        b = m.add_beam(1.0, 4, E=E, rho=RHO, A=W * W, I=W**4 / 12, angle=np.pi / 2 - tilt)
        m.add_joint("revolute", m.ground.point(0.0, 0.0), b.start)
        return m, b.end, [0.0, -(1.0 + RHO * G / (2 * E))]
    body = m.add_rigid_body(2.0, 0.05, position=(0.5 * np.sin(tilt), 0.5 * np.cos(tilt)),
                            angle=np.pi / 2 - tilt)
    m.add_joint("revolute", m.ground.point(0.0, 0.0), body.point(-0.5, 0.0))
    return m, body.centre, [0.0, -0.5]


@pytest.mark.parametrize("tilt", [0.0, 1e-6, 1e-3, 0.1])
@pytest.mark.parametrize("kind", ["body", "beam"])
def test_a_planar_beam_or_body_drawn_near_upright_hangs(kind, tilt):
    """The planar analogue, on the DAE: Newton's load steps converge to the upright state
    (an equilibrium at every load factor; Newton on ``sin theta`` is drawn to its nearest
    zero), the stability test finds it unstable and the damped steps leave it, from a push
    of ``DESCENT_PUSH``: the beam's tip and the body's centre end hanging (bound 1e-9 m).
    Drawn exactly upright, by symmetry on every machine, the message says the upright state
    was left; drawn off it, which zero Newton's iterates near ``sin theta``'s are drawn to is
    the round-off's (with OpenBLAS's Haswell kernels the beam's load steps from 1e-3 and 0.1
    rad reach the hanging state directly, with its SkylakeX kernels the upright one), so
    there only the end is asserted. Work: the load steps' own iterations
    (converged, not bounded here) and :func:`work_bound` for the rest, twice that for the
    ANCF beam, whose straight steps in its slopes stretch it at second order (a turn a by
    ``a^2 / 2``), so that a step of the swing is followed by one relaxing that stretch."""
    m, point, hanging = planar_drawn(kind, tilt)
    res = rancf.static(m)
    assert res.status == "ok", res.message
    np.testing.assert_allclose(res.position(point)[0], hanging, rtol=0, atol=1e-9)
    if tilt == 0.0:
        assert "was unstable" in res.message, res.message
    descent = res.stats["newton_iterations"] - int(res.extra["iterations"].sum())
    assert descent <= (2 if kind == "beam" else 1) * work_bound(
        m.build().size, statics.DESCENT_PUSH), res.stats


@pytest.mark.parametrize("tilt", [0.0, 1e-6, 1e-3, 0.1, 1.0])
def test_a_body_or_a_chain_of_two_beams_drawn_near_upright_hangs(tilt):
    """A rigid body on a ball joint (:func:`body_on_ball`'s, its arm drawn at ``tilt`` from
    upright) and two 0.5 m halves of the steel beam on ball joints end to end, drawn
    straight at ``tilt``: the body's centre ends 0.5 m below the pivot, the chain's end 1 m
    stretched by its weight, ``-(1 + rho g L / (2 E)) L`` (each half's axial force
    ``rho A g (L - s)`` as the whole beam's), bound 1e-9 m. Drawn exactly upright (tilt 0)
    each is an equilibrium at every load factor: found unstable and left. Before, the chain
    failed from 1e-3 and 0.1 rad: its lower joint's rotation vector, carried past pi by a
    damped step and re-centred by the loop, counted as a step of nearly a full turn, which
    the reach refused."""
    body_model, body = body_on_ball(tilt - np.pi / 2)
    res = rancf.static(body_model)
    assert res.status == "ok", res.message
    np.testing.assert_allclose(res.position(body.centre)[0], [0.0, 0.0, -0.5], rtol=0,
                               atol=1e-9)
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -G))
    d = np.array([np.sin(tilt), 0.0, np.cos(tilt)])
    parent, ends = m.ground.point(0, 0, 0), []
    for k in range(2):
        b = m.add_beam(0.5, 2, E=E, rho=RHO, A=W * W, I=(W**4 / 12, W**4 / 12),
                       J=0.141 * W**4, G=8e10, start=tuple(0.5 * k * d), direction=tuple(d),
                       up=(0.0, 1.0, 0.0))
        m.add_joint("spherical", parent, b.start)
        parent = b.end
        ends.append(b.end)
    res = rancf.static(m)
    assert res.status == "ok", res.message
    np.testing.assert_allclose(res.position(ends[-1])[0],
                               [0.0, 0.0, -(1.0 + RHO * G / (2 * E))], rtol=0, atol=1e-9)
