"""Point velocities, accelerations and deflections of spatial runs (issue 25 on the spatial
model): against the closed-form motion of a spinning and of a free-falling body, a beam
turning at a constant rate, central differences of the stored velocities, the cantilever's
beam theory and rigid motions."""
import numpy as np
import pytest
from scipy.spatial.transform import Rotation

import rancf
from models import every_joint_kind

STEEL = dict(E=2.1e11, rho=7800.0, A=1e-4, I=(1e-9, 4e-9), J=2e-9, G=8.1e10)


def test_a_body_spun_about_a_fixed_axis_has_the_rigid_velocity_and_acceleration():
    """A body driven about an oblique axis through a ground point at the rate w: every point
    has ``v = w x r`` and ``a = w x (w x r)`` (r from the axis point), whatever its offset."""
    axis = np.array([1.0, -2.0, 2.0]) / 3.0
    pin, w = np.array([0.2, 0.1, -0.3]), 3.0
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -9.81))
    body = m.add_rigid_body(2.0, np.diag([0.01, 0.02, 0.03]), position=pin + (0.5, 0.0, 0.0))
    m.add_joint("revolute", m.ground.point(*pin), body.point(-0.5, 0.0, 0.0), axis=axis,
                drive=lambda t: (w * t, w, 0.0))
    res = rancf.simulate(m, t_end=1.0, dt=1e-3, method="rk4", output_every=50)
    assert res.status == "ok", res.message
    omega = w * axis
    for point in (body.centre, body.point(0.1, 0.2, 0.05), body.point(-0.5, 0.0, 0.0)):
        r = res.position(point) - pin
        np.testing.assert_allclose(res.velocity(point), np.cross(omega, r), atol=1e-12)
        np.testing.assert_allclose(res.acceleration(point), np.cross(omega, np.cross(omega, r)),
                                   atol=1e-11)
    assert res.acceleration(body.centre).shape == (len(res.t), 3)
    np.testing.assert_array_equal(res.acceleration(m.ground.point(1, 2, 3)), 0.0)


def test_a_free_falling_spinning_body_accelerates_with_gravity_plus_centripetal():
    """A body on a free joint, released with a spin about its principal axis z: its centre
    falls with g, its rotation stays uniform, so a point at o from the centre accelerates by
    ``g + w x (w x o)``."""
    g = np.array([0.0, -3.0, -9.81])
    inertia = np.diag([0.02, 0.03, 0.05])
    turn = Rotation.from_rotvec([0.3, -0.4, 0.2]).as_matrix()
    m = rancf.Model(dim=3, gravity=tuple(g))
    body = m.add_rigid_body(1.5, inertia, position=(0.0, 0.0, 1.0), orientation=turn)
    m.add_joint("free", m.ground.point(0.0, 0.0, 1.0), body.centre)
    w = 4.0 * turn[:, 2]                                   # about the body's z axis
    v0 = np.array([0.5, 0.0, 1.0])
    state = rancf.State(np.r_[0.0, 0.0, 1.0, turn.ravel()], np.r_[v0, w])
    res = rancf.simulate(m, t_end=0.5, dt=1e-3, method="rk4", output_every=50, state=state)
    assert res.status == "ok", res.message
    np.testing.assert_allclose(res.acceleration(body.centre), np.tile(g, (len(res.t), 1)),
                               atol=1e-10)
    np.testing.assert_allclose(res.velocity(body.centre), v0 + np.outer(res.t, g), atol=1e-10)
    point = body.point(0.1, -0.2, 0.3)
    o = res.position(point) - res.position(body.centre)
    np.testing.assert_allclose(res.acceleration(point), g + np.cross(w, np.cross(w, o)),
                               atol=1e-9)
    # and no deflection relative to its own rigid motion
    np.testing.assert_allclose(res.deflection(point, body), 0.0, atol=1e-14)


def test_a_beam_turning_at_a_constant_rate_has_centripetal_accelerations():
    """A flexible beam spun up smoothly about z to the rate w (the drive's rate ``w (1 -
    exp(-t / tau))``) and settled by its damping: every node then turns rigidly with the
    stretched beam, ``v = w x r`` and ``a = w' x r + w x (w x r)`` (r its current position
    from the axis; ``w'`` the drive's acceleration, 1.5e-7 of the centripetal part at the
    end). The elastic transient is gone (the slowest mode decays as exp(-t / c) or faster,
    c = 0.01 s the Kelvin-Voigt time); two things bound the agreement of a node at r, the
    node's mass m = rho A h (h/2 at the tip) and its elements' stiffnesses EA / h, k G A:

    * round-off: the output is the forward dynamics at the stored state, whose coordinates
      are rounded to u |x| (u = 2^-53), and an elongation read back from them carries
      ``u (|r_k-1| + |r_k| + 3 h)`` (the nodes' rounding and the rotation into the parent's
      frame; shear is softer than EA, so this bounds every direction); the node's two
      elements (the tip's one, of half the mass) turn it into
      ``u E (4 |r| + 6 h) / (rho h^2)``; the frames' rounding (``sqrt(3) u`` each, three in
      an element's shear strain) adds ``6 sqrt(3) u k G / (rho h)``; the velocities' rounding
      (``u w |r|``) the Kelvin-Voigt share ``c w`` of both: ``(1 + c w) u / (rho h^2) (E (4
      |r| + 6 h) + 6 sqrt(3) k G h)``, 4.1e-8 to 6.8e-8 of ``w^2 |r|`` (E / (rho h^2) = 6.4e9
      1/s^2: u |r| more in a node's radius moves its acceleration by 1.4e-8 of it);
    * the non-rigid motion left: the quasi-static bending under the drive's acceleration
      (the load ``rho A w' x``), at most the tip's ``d = 11 rho A w' L^5 / (120 E I)`` =
      1.4e-10 m, decays with w', so the node's acceleration relative to the rigid motion,
      ``d'' + 2 w d'``, is at most ``d (1 / tau^2 + 2 w / tau)`` (1.8e-10 to 7e-10 of ``w^2
      |r|``; its rate ``d / tau`` is the velocities' measured 7e-11 of ``w |r|``).

    The step's error is far below both: in the turning frame the elastic coordinates vary
    only as exp(-t / tau). The sum is still below the ``w' x r`` term, 1.5e-7 of ``w^2 |r|``,
    that the check resolves."""
    w, tau = 10.0, 0.2

    def drive(t):
        decay = np.exp(-t / tau)
        return w * (t - tau * (1.0 - decay)), w * (1.0 - decay), w / tau * decay

    L, E, rho, A, I, damping = 1.0, 1e11, 1000.0, 1e-3, 1e-7, 0.01
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, 0.0))
    b = m.add_beam(L, 8, E=E, rho=rho, A=A, I=(I, I), J=2e-7, G=4e10, damping=damping)
    m.add_joint("revolute", m.ground.point(0, 0, 0), b.start, axis=(0, 0, 1), drive=drive)
    res = rancf.simulate(m, t_end=3.0, dt=2e-3, method="generalized-alpha", output_every=500)
    assert res.status == "ok", res.message
    _, rate, spin_up = drive(res.t[-1])
    h, kG = L / 8, b.stiffness()[:, 1:3].max() / A
    bending = 11 * rho * A * spin_up * L**5 / (120 * E * I) * (1 / tau**2 + 2 * w / tau)
    rate, spin_up = np.array([0.0, 0.0, rate]), np.array([0.0, 0.0, spin_up])
    for i in (2, 5, 8):
        r = res.position(b.node(i))[-1]
        rigid = np.cross(spin_up, r) + np.cross(rate, np.cross(rate, r))
        np.testing.assert_allclose(res.velocity(b.node(i))[-1], np.cross(rate, r),
                                   rtol=0, atol=1e-8 * w * np.linalg.norm(r))
        round_off = (1 + damping * w) * 2.0**-53 / (rho * h * h) * (
            E * (4 * np.linalg.norm(r) + 6 * h) + 6 * np.sqrt(3) * kG * h)
        np.testing.assert_allclose(res.acceleration(b.node(i))[-1], rigid, rtol=0,
                                   atol=round_off + bending)


def test_accelerations_are_the_rates_of_the_stored_velocities():
    """A flexible spatial pendulum with a payload (gravity, a spherical joint, a tip load
    turning with time) on a fine RK4 step with an output every step: the accelerations from
    the forward dynamics equal the central differences of the stored velocities to the
    differences' error, ``dt^2 / 6`` times the third derivative of the velocity."""
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -9.81))
    b = m.add_beam(0.8, 4, E=5e7, rho=1000.0, A=1e-3, I=(2e-8, 3e-8), J=4e-8, G=2e7,
                   direction=(1.0, 0.0, -1.0), up=(0.0, 1.0, 0.0))
    m.add_joint("spherical", m.ground.point(0, 0, 0), b.start)
    tip = b.positions[-1]
    payload = m.add_rigid_body(0.3, np.diag([1e-3, 2e-3, 3e-3]), position=tip + (0.0, 0.0, -0.1))
    m.add_joint("fixed", b.end, payload.point(0.0, 0.0, 0.1))
    m.add_force(b.node(2), force=lambda t: (0.0, 2.0 * np.sin(15.0 * t), 0.0))
    dt = 1e-5
    res = rancf.simulate(m, t_end=0.02, dt=dt, method="rk4", output_every=1)
    assert res.status == "ok", res.message
    for point in (b.node(2), b.end, payload.point(0.05, 0.0, -0.1)):
        v, a = res.velocity(point), res.acceleration(point)
        differences = (v[2:] - v[:-2]) / (2 * dt)
        # the third derivative of v by differences of a: the differences' own error bound
        jerk2 = np.abs(np.diff(a, 2, axis=0)).max() / dt**2
        error = np.abs(differences - a[1:-1]).max()
        assert error <= 2 * dt**2 / 6 * jerk2 + 1e-9 * np.abs(a).max(), (error, jerk2)
        assert np.abs(a).max() > 1.0


def test_link_states_of_the_stored_frames_are_those_of_the_per_frame_inverse():
    """The vectorized inverse of the kinematics that the accelerations start from
    (:func:`rancf.results.outputs.link_states`: closed forms per joint kind) against
    ``Spatial.state_of`` (a least-squares solve of each link's rates, per frame), on a chain
    of every joint kind (spherical, element, universal, cylindrical, driven revolute,
    prismatic, revolute, free with a spring) in motion."""
    from rancf.formulations import spatial
    from rancf.results.outputs import link_states

    m = every_joint_kind()
    res = rancf.simulate(m, t_end=1.0, dt=2e-4, method="generalized-alpha-s", output_every=500)
    assert res.status == "ok", res.message
    formulation = spatial.of_model(m)
    n_out = len(res.t)
    Y = link_states(formulation, res.nodes.reshape(n_out, -1), res.velocities.reshape(n_out, -1))
    for i in range(n_out):
        y = formulation.state_of(res.nodes[i].ravel(), res.velocities[i].ravel(), res.t[i])
        np.testing.assert_allclose(Y[i], y, rtol=0, atol=1e-12 * max(1.0, np.abs(y).max()))
    assert np.abs(Y[-1]).max() > 1.0


@pytest.mark.parametrize("n", [4, 8, 16])
@pytest.mark.parametrize("plane", [1, 2])
def test_cantilever_tip_deflection_is_beam_theory_in_its_frame(n, plane):
    """A cantilever along an oblique direction under a small tip force P along its section's
    y (plane 1, bending about z: I_z) or z axis (plane 2, I_y): its tip deflection in the
    clamp's frame is ``P L^3 / (3 E I)`` (Euler-Bernoulli) in the force's direction and
    nothing else to the order of the rotations (P L^2 / (2 E I) = 1e-5). The elements have a
    constant strain, so each bends into an arc with the curvature of the moment at its
    midpoint: the sum ``P / (E I) sum h (L - s_mid)^2 = P L^3 / (3 E I) (1 - 1 / (4 n^2))``
    (the midpoint rule of L^2 - ... exactly), plus the shear part ``P L / (k G A)`` of the
    element's shear stiffness (``shear=False``: the penalty of SpatialBeam.stiffness, or the
    section's own where stiffer)."""
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, 0.0))
    direction = np.array([1.0, 2.0, -0.5]) / np.linalg.norm([1.0, 2.0, -0.5])
    b = m.add_beam(1.0, n, start=(0.1, -0.2, 0.3), direction=direction, up=(0.3, -0.2, 1.0),
                   shear=False, **STEEL)
    m.add_joint("fixed", m.ground.point(0.1, -0.2, 0.3), b.start)
    P, L, E = 1e-3, b.length, STEEL["E"]
    I = STEEL["I"][1] if plane == 1 else STEEL["I"][0]
    m.add_force(b.end, force=P * b.frames[0][:, plane])
    res = rancf.static(m)
    assert res.status == "ok", res.message
    deflection = res.deflection(b.end, b)
    assert deflection.shape == (1, 3)
    euler_bernoulli = P * L**3 / (3 * E * I)
    shear = P * L / b.stiffness()[0, plane]
    expected = np.zeros(3)
    expected[plane] = euler_bernoulli * (1.0 - 1.0 / (4 * n * n)) + shear
    np.testing.assert_allclose(deflection[0], expected, rtol=0, atol=1e-5 * euler_bernoulli)
    assert abs(deflection[0, plane] / euler_bernoulli - 1.0) < 0.3 / n**2
    # an equilibrium is at rest
    assert res.acceleration(b.end).shape == (1, 3) and not res.acceleration(b.end).any()


def test_a_floating_beam_spinning_about_its_axis_has_no_deflection():
    """A beam on a free joint with a body welded on its axis, in space without gravity,
    released moving at v and spinning at s about its own axis (a principal axis of every
    node and of the body, all centres on it): the exact motion is rigid, so the deflection
    of every node and of the body's points relative to the beam (and to the body) stays zero
    while the positions move and the frames turn by a radian."""
    direction = np.array([1.0, 2.0, 2.0]) / 3.0
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, 0.0))
    b = m.add_beam(1.0, 4, start=(0.2, 0.0, 0.0), direction=direction, up=(0.0, 0.0, 1.0),
                   E=1e5, rho=1000.0, A=1e-3, I=(1e-7, 2e-7), J=2e-7, G=4e4)
    m.add_joint("free", m.ground.point(0.2, 0.0, 0.0), b.start)
    frame = b.frames[0]
    body = m.add_rigid_body(1.0, np.diag([0.01, 0.02, 0.03]),
                            position=b.positions[-1] + 0.1 * direction, orientation=frame)
    m.add_joint("fixed", b.end, body.point(-0.1, 0.0, 0.0))
    v, spin = np.array([0.3, -0.1, 0.2]), 1.0
    tree = m.build()
    x = np.concatenate([tree.r0, tree.A0.reshape(-1, 9)], axis=1).ravel()
    V = np.tile(np.r_[v, spin * direction], tree.n_bodies)
    res = rancf.simulate(m, t_end=1.0, dt=1e-3, method="rk4", output_every=100,
                         state=rancf.State(x, V))
    assert res.status == "ok", res.message
    assert np.linalg.norm(res.position(b.end)[-1] - b.positions[-1]) > 0.3
    for point in (b.node(1), b.end, body.point(0.1, 0.2, 0.3)):
        np.testing.assert_allclose(res.deflection(point, b), 0.0, atol=1e-12)
        np.testing.assert_allclose(res.deflection(point, body), 0.0, atol=1e-12)


def test_deflection_refuses_what_is_not_a_body_of_the_model():
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, 0.0))
    b = m.add_beam(1.0, 2, **STEEL)
    m.add_joint("fixed", m.ground.point(0, 0, 0), b.start)
    other = rancf.Model(dim=3)
    c = other.add_beam(1.0, 2, **STEEL)
    res = rancf.static(m)
    with pytest.raises(TypeError, match="body must be a beam or rigid body"):
        res.deflection(b.end, b.end)
    with pytest.raises(ValueError, match="belongs to another model"):
        res.deflection(b.end, c)
    with pytest.raises(ValueError, match="belongs to another model"):
        res.acceleration(c.end)
