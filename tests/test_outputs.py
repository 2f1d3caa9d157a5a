"""Outputs of planar results computed from the stored frames (rancf.results.outputs): the joints'
full reactions, the velocities and accelerations of points, the internal forces of beams. Each
is checked against something the code under test does not compute: Newton's law on a body's
centre of mass or on the momentum of a beam, the balance of a cantilever's loads, the other
formulation at the same states, central differences of the stored positions, a rigid pendulum's
analytic motion, a cantilever's statics and a rotating beam's centrifugal normal force."""
import warnings

import numpy as np
import pytest

import rancf
from rancf.formulations import recursive
from rancf.formulations.dae import DAE
from rancf.results import result as result_module

G = 9.81


def torque_free_reactions(res, model):
    """The full reactions of every joint, (n_out, n_joints, 3), without the once-only warning of
    the call whose meaning changed (tested on its own below)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        return np.stack([res.reaction(j) for j in model.joints], axis=1)


# --- reactions -------------------------------------------------------------------------------
def rigid_pendulum(mass=2.0, inertia=0.05, d=0.4, angle=0.3):
    """A rigid body on a pin at its point (-d, 0), its centre at distance d from the pin."""
    m = rancf.Model(gravity=(0.0, -G))
    pin_at = np.array([0.1, 0.2])
    centre = pin_at + d * np.array([np.cos(angle), np.sin(angle)])
    r = m.add_rigid_body(mass, inertia, position=tuple(centre), angle=angle)
    pin = m.add_joint("revolute", m.ground.point(*pin_at), r.point(-d, 0.0))
    return m, r, pin, pin_at


@pytest.mark.parametrize("formulation,method", [("recursive", "rk4"),
                                                ("dae", "generalized-alpha")])
def test_pin_force_of_a_rigid_pendulum_is_newtons_law_on_its_centre(formulation, method):
    """m a_G = F + m g, with a_G of the analytic motion at the stored angle and rate
    (phi'' = -m g d cos(phi) / I_O, I_O = I_G + m d^2): the pin force from the formulation's
    articulated forces or multipliers, against the body's Newton law. The pin's moment is 0."""
    mass, inertia, d = 2.0, 0.05, 0.4
    m, r, pin, pin_at = rigid_pendulum(mass, inertia, d)
    res = rancf.simulate(m, 1.0, 1e-3, method=method, formulation=formulation, output_every=50)
    assert res.status == "ok"
    phi, w = res.joint(pin)
    alpha = -mass * G * d * np.cos(phi) / (inertia + mass * d * d)
    e = np.stack([np.cos(phi), np.sin(phi)], axis=1)           # pin to centre
    n = np.stack([-np.sin(phi), np.cos(phi)], axis=1)
    a_centre = d * (alpha[:, None] * n - (w * w)[:, None] * e)
    expected = mass * a_centre - mass * np.array([0.0, -G])
    F = torque_free_reactions(res, m)[:, 0]
    scale = mass * G
    assert np.abs(F[:, :2] - expected).max() < 1e-9 * scale
    assert np.abs(F[:, 2]).max() < 1e-12 * scale * d


def beam_momentum(res, beam):
    """Linear momentum of a beam (n_out, 2), ``int rho A r' ds`` of the cubic interpolation:
    ``rho A l [v_A/2 + l v'_A/12 + v_B/2 - l v'_B/12]`` per element."""
    l = beam.length / beam.n_elements
    v = res.velocities[:, :beam.n_nodes]
    per = (v[:, :-1, :2] / 2 + l * v[:, :-1, 2:] / 12 + v[:, 1:, :2] / 2 - l * v[:, 1:, 2:] / 12)
    return beam.rho * beam.A * l * per.sum(axis=1)


def test_pin_force_of_a_flexible_pendulum_is_the_rate_of_its_momentum():
    """A flexible beam on a pin: F + m g = dP/dt, P the beam's momentum of the stored
    velocities, differentiated by central differences (O(h^2): 1e-4 of the weight at h = 1 ms)."""
    m = rancf.Model(gravity=(0.0, -G), elastic_model="reissner")
    b = m.add_beam(1.0, 4, E=5e7, rho=1000.0, A=1e-3, I=1e-8)
    pin = m.add_joint("revolute", m.ground.point(0.0, 0.0), b.start)
    res = rancf.simulate(m, 0.4, 1e-4, method="rk4", output_every=10)
    assert res.status == "ok"
    P = beam_momentum(res, b)
    h = res.t[1] - res.t[0]
    rate = (P[2:] - P[:-2]) / (2 * h)
    weight = b.rho * b.A * b.length * G
    F = torque_free_reactions(res, m)[1:-1, 0]
    assert np.abs(F[:, :2] + np.array([0.0, -weight]) - rate).max() < 1e-3 * weight
    assert np.abs(F[:, 2]).max() < 1e-9 * weight


@pytest.mark.parametrize("elastic_model", ["shabana", "berzeri", "reissner"])
def test_clamp_of_a_loaded_cantilever_balances_its_loads(elastic_model):
    """Statics: the clamp's force and moment balance the tip force, the tip moment and the
    beam's weight in the deformed configuration (the weight's moment ``-rho A g int x ds`` of the
    cubic interpolation)."""
    L, n_el, rho, A = 1.5, 6, 7800.0, 1e-3
    m = rancf.Model(gravity=(0.0, -G), elastic_model=elastic_model)
    b = m.add_beam(L, n_el, E=2e9, rho=rho, A=A, I=2e-7)
    clamp = m.add_joint("fixed", m.ground.point(0.0, 0.0), b.start)
    force, moment = np.array([30.0, -120.0]), 25.0
    m.add_force(b.end, force=tuple(force), moment=moment)
    eq = rancf.static(m, load_steps=4)
    assert eq.status == "ok"
    x = eq.nodes[0]
    tip = x[-1, :2]
    assert np.linalg.norm(tip - [L, 0.0]) > 0.05              # a large deflection
    l = L / n_el
    int_x = l * (x[:-1, 0] / 2 + l * x[:-1, 2] / 12 + x[1:, 0] / 2 - l * x[1:, 2] / 12).sum()
    weight = rho * A * L * G
    F = torque_free_reactions(eq, m)[0, 0]
    load_force = force + [0.0, -weight]
    load_moment = moment + (tip[0] * force[1] - tip[1] * force[0]) - rho * A * G * int_x
    scale = np.abs(load_force).max()
    assert np.abs(F[:2] + load_force).max() < 1e-8 * scale
    assert abs(F[2] + load_moment) < 1e-8 * scale * L
    assert eq.reaction(clamp, "torque")[0] == pytest.approx(F[2], rel=1e-12)


def every_kind_model():
    """A tree with every planar joint kind, beam and body children, a drive and an effort."""
    m = rancf.Model(gravity=(0.0, -G), elastic_model="reissner")
    b = m.add_beam(1.0, 3, E=2e7, rho=7800.0, A=1e-4, I=1e-9)
    m.add_joint("revolute", m.ground.point(0.0, 0.0), b.start)
    r = m.add_rigid_body(2.0, 0.05, position=(1.3, 0.0))
    m.add_joint("fixed", b.end, r.point(-0.3, 0.0))
    b2 = m.add_beam(0.5, 2, E=2e7, rho=7800.0, A=1e-4, I=1e-9, start=(1.6, 0.0))
    m.add_joint("revolute", r.point(0.3, 0.0), b2.start,
                drive=lambda t: (0.3 * t * t, 0.6 * t, 0.6))
    b3 = m.add_beam(0.5, 2, E=2e7, rho=7800.0, A=1e-4, I=1e-9, start=(2.1, 0.0))
    m.add_joint("prismatic", b2.end, b3.start, effort=lambda t, q, qd: -50.0 * q)
    r2 = m.add_rigid_body(0.5, 0.01, position=(1.3, -0.2), angle=-np.pi / 2)
    m.add_joint("revolute", r.centre, r2.point(-0.2, 0.0), effort=lambda t, q, qd: -0.2 * qd)
    r3 = m.add_rigid_body(0.3, 0.01, position=(2.6, 0.0))
    m.add_joint("prismatic", b3.end, r3.point(0.0, 0.0), axis=-np.pi / 2)
    return m


def test_recursive_and_dae_reactions_agree_at_the_same_states():
    """At the states of a recursive run, the articulated forces (Recursive.motion) and the
    DAE's multipliers of the same states give the same reactions and accelerations (both are
    the exact dynamics of the state; 1e-8 of the largest force), for every joint kind."""
    m = every_kind_model()
    res = rancf.simulate(m, 0.3, 2e-4, method="rk4", output_every=300)
    assert res.status == "ok"
    A = m.build()
    rec, dae = recursive.Recursive(A), DAE(A)
    weight = G * (sum(b.rho * b.A * b.length for b in m.beams)
                  + sum(r.mass for r in m.rigid_bodies))
    for i in range(len(res.t)):
        x, v = res.nodes[i].ravel(), res.velocities[i].ravel()
        y = np.concatenate([x, res.extra["beta"][i], [0.0, 0.0]])
        acc_r, wrench_r = rec.motion(res.t[i], y, res.joint_q[i])
        dae.accept(x, v, res.t[i])
        acc_d, lam = dae.motion(x, v, res.t[i])
        wrench_d = dae.joint_reactions(x, lam, res.t[i])
        assert np.abs(wrench_r - wrench_d).max() < 1e-8 * weight
        assert np.abs(acc_r - acc_d).max() < 1e-8 * np.abs(acc_d).max()
    # the held and driven angles' moments are the torques the run kept (fixed: joint 1,
    # driven: joint 2)
    full = torque_free_reactions(res, m)
    for j in (1, 2):
        np.testing.assert_allclose(full[:, j, 2], res.reaction(j, "torque"), rtol=1e-10,
                                   atol=1e-12 * np.abs(full).max())


def test_the_changed_call_warns_once_and_the_torque_call_not():
    m = rancf.Model(gravity=(0.0, -G), elastic_model="reissner")
    b = m.add_beam(1.0, 2, E=2e9, rho=7800.0, A=1e-4, I=1e-8)
    clamp = m.add_joint("fixed", m.ground.point(0.0, 0.0), b.start)
    eq = rancf.static(m)
    saved = list(result_module._warned)
    result_module._warned.clear()
    try:
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            eq.reaction(clamp, "torque")
            eq.reaction(clamp, "angle")
            assert not seen
            assert eq.reaction(clamp).shape == (1, 3)
            eq.reaction(clamp)
        assert len(seen) == 1 and issubclass(seen[0].category, FutureWarning)
        assert 'reaction(joint, "torque")' in str(seen[0].message)
    finally:
        result_module._warned[:] = saved
    with pytest.raises(ValueError, match="what"):
        eq.reaction(clamp, "slide")


# --- velocities and accelerations ------------------------------------------------------------
def test_point_velocity_and_acceleration_are_the_rates_of_the_stored_positions():
    """Central differences of res.position over the outputs: their error is O(H^2) in the
    output spacing H (RK4's own error, O(h^4) at h = H / 10, is far below), so halving H
    divides it by 4."""
    m = every_kind_model()
    points = [m.beams[1].node(1), m.rigid_bodies[0].point(0.1, 0.2), m.beams[2].end,
              m.rigid_bodies[2].centre]
    errors = []
    for every in (20, 10):
        res = rancf.simulate(m, 0.2, 1e-4, method="rk4", output_every=every)
        H = res.t[1] - res.t[0]
        err = []
        for p in points:
            x = res.position(p)
            v, a = res.velocity(p), res.acceleration(p)
            err.append(max(np.abs((x[2:] - x[:-2]) / (2 * H) - v[1:-1]).max()
                           / np.abs(v).max(),
                           np.abs((x[2:] - 2 * x[1:-1] + x[:-2]) / H**2 - a[1:-1]).max()
                           / np.abs(a).max()))
        errors.append(max(err))
        assert np.all(res.velocity(m.ground.point(0.0, 0.0)) == 0.0)
    assert errors[1] < 1e-2
    assert 3.0 < errors[0] / errors[1] < 5.0


@pytest.mark.parametrize("formulation,method", [("recursive", "rk4"),
                                                ("dae", "generalized-alpha")])
def test_rigid_pendulum_accelerations_are_centripetal_and_tangential(formulation, method):
    """A point at distance rho from the pin: ``a = rho (phi'' n - phi'^2 e)`` with
    ``phi'' = -m g d cos(phi) / I_O`` at the stored angle and rate."""
    mass, inertia, d = 2.0, 0.05, 0.4
    m, r, pin, pin_at = rigid_pendulum(mass, inertia, d)
    # the DAE's velocities projected onto the joints' (an index-3 step holds positions only)
    kw = dict(projection=True) if formulation == "dae" else {}
    res = rancf.simulate(m, 1.0, 1e-3, method=method, formulation=formulation, output_every=50,
                         **kw)
    phi, w = res.joint(pin)
    alpha = -mass * G * d * np.cos(phi) / (inertia + mass * d * d)
    point = r.point(0.3, -0.1)            # (d + 0.3, -0.1) from the pin in the body frame
    rel = np.array([d + 0.3, -0.1])
    c, s = np.cos(phi), np.sin(phi)
    arm = np.stack([c * rel[0] - s * rel[1], s * rel[0] + c * rel[1]], axis=1)
    turned = np.stack([-arm[:, 1], arm[:, 0]], axis=1)
    expected_a = alpha[:, None] * turned - (w * w)[:, None] * arm
    expected_v = w[:, None] * turned
    assert np.abs(res.acceleration(point) - expected_a).max() < 1e-9 * G
    assert np.abs(res.velocity(point) - expected_v).max() < 1e-9 * np.abs(expected_v).max()
    np.testing.assert_allclose(res.position(point), pin_at + arm, atol=1e-9)


# --- internal forces -------------------------------------------------------------------------
@pytest.mark.parametrize("elastic_model", ["shabana", "berzeri", "reissner"])
def test_cantilever_internal_forces_under_a_small_tip_load(elastic_model):
    """Linear statics (k = P L^2 / EI = 1e-3): ``M(s) = -P (L - s)`` and ``Q = -P``, which
    the cubic elements represent exactly (the rest is the geometric nonlinearity, O(k)); N is
    the load's axial component in the deformed beam (at most P times the end slope, 5e-4 P)
    plus the cubic element's parasitic axial strain under bending, which oscillates within the
    elements (2e-3 to 6e-3 P at 4 elements). Solved to a tight tolerance: N is EA (2e9 N)
    times a strain of 1e-9."""
    L, E, I = 2.0, 2.07e11, 8.333e-6
    m = rancf.Model(gravity=(0.0, 0.0), elastic_model=elastic_model)
    b = m.add_beam(L, 4, E, 7800.0, 0.01, I)
    m.add_joint("fixed", m.ground.point(0.0, 0.0), b.start)
    P = 1e-3 * E * I / L**2
    m.add_force(b.end, force=(0.0, -P))
    eq = rancf.static(m, tol=1e-14)
    s = np.linspace(0.0, L, 13)
    N, Q, M = eq.internal_forces(b, s)[0].T
    assert np.abs(M + P * (L - s)).max() < 3e-3 * P * L
    assert np.abs(Q + P).max() < 3e-3 * P
    assert np.abs(N).max() < 1e-2 * P


@pytest.mark.parametrize("elastic_model", ["shabana", "berzeri", "reissner"])
def test_large_deflection_moment_is_the_tip_force_moment_converging_with_the_mesh(elastic_model):
    """Any deflection: equilibrium of the part beyond s gives ``M(s) = (r_L - r(s)) x F`` in the
    deformed geometry (r(s) of the interpolation); the element's M converges to it with the mesh
    (the moment of a cubic element is linear in s within it)."""
    L, E, I = 2.0, 2.07e11, 8.333e-6
    errors = []
    for n_el in (4, 16):
        m = rancf.Model(gravity=(0.0, 0.0), elastic_model=elastic_model)
        b = m.add_beam(L, n_el, E, 7800.0, 0.1, I)
        m.add_joint("fixed", m.ground.point(0.0, 0.0), b.start)
        P = 1.0 * E * I / L**2
        m.add_force(b.end, force=(0.0, -P))
        eq = rancf.static(m, load_steps=4)
        assert eq.status == "ok"
        nodes = eq.nodes[0]
        s = np.linspace(0.0, L, n_el + 1)[:-1]             # the element starts: node positions
        arm = nodes[-1, :2] - nodes[:n_el, :2]
        expected = arm[:, 0] * -P
        M = eq.internal_forces(b, s)[0, :, 2]
        errors.append(np.abs(M - expected).max() / (P * L))
    assert errors[1] < 0.3 * errors[0] and errors[1] < 2e-2


@pytest.mark.parametrize("elastic_model", ["shabana", "berzeri", "reissner"])
def test_axial_stretch_normal_force_is_exact(elastic_model):
    """A bar pulled by P at its end: N = P all along (each model's own strain conjugate), no
    shear, no moment."""
    m = rancf.Model(gravity=(0.0, 0.0), elastic_model=elastic_model)
    b = m.add_beam(1.0, 3, E=2e9, rho=7800.0, A=1e-4, I=1e-8)
    m.add_joint("fixed", m.ground.point(0.0, 0.0), b.start)
    P = 2e3                                      # a strain of 1 %
    m.add_force(b.end, force=(P, 0.0))
    eq = rancf.static(m)
    N, Q, M = eq.internal_forces(b, np.linspace(0.0, 1.0, 7))[0].T
    np.testing.assert_allclose(N, P, rtol=1e-8)
    assert np.abs(Q).max() < 1e-8 * P and np.abs(M).max() < 1e-8 * P


def spin(t, omega=10.0, T=1.0):
    """A smooth start to the rate omega over T, then omega: (q, q', q'')."""
    if t >= T:
        return omega * (T / 2 + t - T), omega, 0.0
    c = 2 * np.pi / T
    return (omega * (t * t / (2 * T) + (np.cos(c * t) - 1) / (c * c * T)),
            omega * (t / T - np.sin(c * t) / (c * T)), omega / T * (1 - np.cos(c * t)))


def test_rotating_beam_normal_force_is_centrifugal():
    """A beam spun up by a drive to omega about its start, then turning steadily (damped: the
    vibrations of the start die out; averaged over 3 s to 5 s, where they are below 1e-3):
    ``N(s) = rho A omega^2 (L^2 - s^2) / 2``, no moment. The elastic stretch changes it by
    O(rho omega^2 L^2 / E) = 4e-5. One element and eight: the error falls with the mesh.
    The tip's deflection along the beam is the rod's stretch ``rho omega^2 L^3 / (3 E)``."""
    L, rho, A, omega, E = 1.0, 7800.0, 1e-4, 10.0, 2.1e10
    s = np.linspace(0.0, L, 9)
    exact = rho * A * omega**2 * (L**2 - s**2) / 2
    errors = []
    for n_el in (1, 8):
        m = rancf.Model(gravity=(0.0, 0.0), elastic_model="reissner")
        b = m.add_beam(L, n_el, E=E, rho=rho, A=A, I=A * A / 12, damping=1e-2)
        m.add_joint("revolute", m.ground.point(0.0, 0.0), b.start, drive=spin)
        res = rancf.simulate(m, 5.0, 2e-3, method="generalized-alpha", output_every=5)
        assert res.status == "ok"
        steady = res.t >= 3.0
        N, Q, M = res.internal_forces(b, s)[steady].mean(axis=0).T
        stretch = res.deflection(b.end, b)[steady].mean(axis=0)[0]
        assert stretch == pytest.approx(rho * omega**2 * L**3 / (3 * E), rel=3e-3)
        errors.append(np.abs(N - exact).max() / exact[0])
        assert np.abs(M).max() < 1e-3 * exact[0] * L
    assert errors[1] < 0.5 * errors[0] and errors[1] < 3e-4


# --- deflections ---------------------------------------------------------------------------
@pytest.mark.parametrize("angle", [0.0, 2.0])
def test_cantilever_tip_deflection_in_its_frame_whatever_the_clamp_angle(angle):
    """Euler-Bernoulli: a transverse tip load P sags the tip by ``P L^3 / (3 E I)`` across the
    beam, in the beam's own frame (k = P L^2 / EI = 1e-3: the geometric nonlinearity is 1e-7
    of it, the shortening along the beam O(k^2) L)."""
    L, E, I = 2.0, 2.07e11, 8.333e-6
    m = rancf.Model(gravity=(0.0, 0.0), elastic_model="reissner")
    b = m.add_beam(L, 4, E, 7800.0, 0.01, I, angle=angle)
    m.add_joint("fixed", m.ground.point(0.0, 0.0, angle=angle), b.start)
    P = 1e-3 * E * I / L**2
    m.add_force(b.end, force=(P * np.sin(angle), -P * np.cos(angle)))
    along, across = rancf.static(m).deflection(b.end, b)[0]
    assert across == pytest.approx(-P * L**3 / (3 * E * I), rel=3e-7)
    assert abs(along) < 1e-5 * L


def test_rigid_motion_has_no_deflection():
    """A rigid body's points move rigidly with it: no deflection relative to it, however it
    swings; a flexible beam's deflection relative to itself vanishes at its start."""
    m, r, pin, _ = rigid_pendulum()
    res = rancf.simulate(m, 1.0, 1e-3, method="rk4", output_every=100)
    assert np.abs(res.deflection(r.point(0.3, -0.2), r)).max() < 1e-12
    m = rancf.pendulum(n_bodies=1, elements_per_body=2, body_length=1.0)
    res = rancf.simulate(m, 0.3, 1e-3, output_every=100)
    b = m.beams[0]
    assert np.abs(res.deflection(b.start, b)).max() == 0.0
    assert np.abs(res.deflection(b.end, b)).max() > 1e-6


def test_closed_loop_reactions_balance_the_weight():
    """A beam clamped at one end and pinned at the other by a joint written with the ground
    as child (stored reversed: the beam is its child), carrying a welded body: the ground's
    reactions on the beam carry the whole weight, the weld the body's weight and its moment
    about the weld point (DAE multipliers of a statically indeterminate loop)."""
    m = rancf.Model(gravity=(0.0, -G), elastic_model="reissner")
    b = m.add_beam(2.0, 6, E=2e9, rho=7800.0, A=1e-3, I=2e-7)
    m.add_joint("fixed", m.ground.point(0.0, 0.0), b.start)
    pin = m.add_joint("revolute", b.end, m.ground.point(2.0, 0.0))
    assert pin.reversed
    r = m.add_rigid_body(3.0, 0.1, position=(1.0, -0.3))
    m.add_joint("fixed", b.node(3), r.point(0.0, 0.3))
    eq = rancf.static(m)
    assert eq.status == "ok"
    R = torque_free_reactions(eq, m)[0]
    weight = G * (7800.0 * 1e-3 * 2.0 + 3.0)
    assert abs(R[0, 0] + R[1, 0]) < 1e-9 * weight
    assert R[0, 1] + R[1, 1] == pytest.approx(weight, rel=1e-10)
    lever = eq.position(r.centre)[0] - eq.position(r.point(0.0, 0.3))[0]
    np.testing.assert_allclose(R[2], [0.0, 3.0 * G, -lever[0] * -3.0 * G],
                               atol=1e-9 * 3.0 * G)


def test_planar_internal_forces_default_to_the_element_midpoints():
    m = rancf.Model(gravity=(0.0, 0.0), elastic_model="reissner")
    b = m.add_beam(2.0, 4, E=2.1e11, rho=7800.0, A=1e-2, I=1e-5)
    m.add_joint("fixed", m.ground.point(0.0, 0.0), b.start)
    m.add_force(b.end, force=(0.0, -100.0))
    res = rancf.static(m)
    midpoints = [0.25, 0.75, 1.25, 1.75]
    np.testing.assert_array_equal(res.internal_forces(b), res.internal_forces(b, midpoints))
