"""Static equilibrium against analytic solutions: the inextensible elastica of a cantilever under
a tip force, Euler-Bernoulli's sag under a small one, the semicircle of a beam under a pure end
moment, and equilibrium of forces."""
import numpy as np
import pytest

import rancf

L, E, RHO = 2.0, 2.07e11, 7800.0
# Inextensible elastica, cantilever with a tip force of fixed direction (CASES.md, solve_bvp):
# k = P L^2 / EI -> (shortening u_x / L, deflection u_y / L, end rotation in rad)
ELASTICA = {1: (0.056433, 0.301721, 0.461352), 3: (0.254420, 0.603253, 0.986017)}


def cantilever(n_elements, A, I, elastic_model="reissner"):
    m = rancf.Model(gravity=(0.0, 0.0), elastic_model=elastic_model)
    b = m.add_beam(L, n_elements, E, RHO, A, I)
    clamp = m.add_joint("fixed", m.ground.point(0.0, 0.0), b.start)
    return m, b, clamp


@pytest.mark.parametrize("k", sorted(ELASTICA))
def test_cantilever_approaches_the_inextensible_elastica(k):
    """The elastica is inextensible; the beam's axial stretch falls as 1/EA, so the distance to
    the elastica must fall about 10x when EA grows 10x at fixed EI (and be small: a 16-element
    Reissner beam is converged to better than 1e-4 L in bending)."""
    I = 8.333e-6
    errors = []
    for A in (0.01, 0.1):
        m, b, clamp = cantilever(16, A, I)
        P = k * E * I / L**2
        m.add_force(b.end, force=(0.0, -P))
        eq = rancf.static(m, load_steps=5)
        assert eq.status == "ok"
        tip = eq.position(b.end)[0]
        slope = eq.nodes[0, -1, 2:]
        ux, uy, rot = ELASTICA[k]
        errors.append(max(abs((L - tip[0]) / L - ux), abs(-tip[1] / L - uy),
                          abs(-np.arctan2(slope[1], slope[0]) - rot)))
        # the clamp holds the moment of the tip force about the origin
        assert eq.reaction(clamp, "torque")[0] == pytest.approx(P * tip[0], rel=1e-8)
    assert errors[1] < 0.2 * errors[0] and errors[1] < 1e-4



@pytest.mark.parametrize("elastic_model", ["shabana", "berzeri", "reissner"])
def test_small_tip_load_gives_the_euler_bernoulli_sag(elastic_model):
    """k = P L^2 / EI = 1e-3: tip deflection P L^3 / (3 EI) and end rotation P L^2 / (2 EI) of
    linear Euler-Bernoulli theory, which the cubic interpolation represents exactly; what is left is
    the geometric nonlinearity, relative -0.11 k^2 (the elastica's), here 1.2e-7 with 4 elements."""
    I = 8.333e-6
    m, b, _ = cantilever(4, 0.01, I, elastic_model)
    P = 1e-3 * E * I / L**2
    m.add_force(b.end, force=(0.0, -P))
    eq = rancf.static(m)
    assert eq.status == "ok"
    slope = eq.nodes[0, -1, 2:]
    assert -eq.position(b.end)[0][1] == pytest.approx(P * L**3 / (3 * E * I), rel=3e-7)
    assert -np.arctan2(slope[1], slope[0]) == pytest.approx(P * L**2 / (2 * E * I), rel=3e-7)

def test_pure_end_moment_bends_a_semicircle():
    """M = pi E I / L: a circle of radius L / pi, tip at (0, 2 L / pi) (Reissner model: its
    curvature is the exact bending strain, so the error is the discretization's, fourth order)."""
    errors = []
    for n in (8, 16):
        m, b, _ = cantilever(n, 0.01, 8.333e-6)
        m.add_force(b.end, moment=np.pi * E * 8.333e-6 / L)
        eq = rancf.static(m, load_steps=10)
        assert eq.status == "ok"
        errors.append(np.linalg.norm(eq.position(b.end)[0] - [0.0, 2 * L / np.pi]) / L)
    assert errors[1] < 1e-4 and errors[0] / errors[1] > 8.0


def test_hanging_rigid_body_and_beam_under_gravity():
    """A rigid body hanging from a revolute joint at its top point: equilibrium with the centre
    straight below the pin; the pin carries the weight, the free joint no moment."""
    m = rancf.Model(gravity=(0.0, -9.81))
    r = m.add_rigid_body(2.0, 0.1, position=(0.0, -0.5), angle=-np.pi / 2)
    j = m.add_joint("revolute", m.ground.point(0.0, 0.0), r.point(-0.5, 0.0))
    eq = rancf.static(m)
    assert eq.status == "ok", eq.message      # the reference is its equilibrium
    np.testing.assert_allclose(eq.position(r.centre)[0], [0.0, -0.5], atol=1e-12)
    assert eq.reaction(j, "torque")[0] == 0.0
    assert eq.energy().gravity.iloc[0] == pytest.approx(-2.0 * 9.81 * 0.5)   # m g y, y = -0.5 m


def test_failed_load_step_is_reported_with_the_last_equilibrium():
    m, b, _ = cantilever(4, 0.01, 8.333e-6)
    m.add_force(b.end, force=(0.0, -10 * E * 8.333e-6 / L**2))
    eq = rancf.static(m, load_steps=1, max_iter=2)
    assert eq.status == "failed" and "load step 1 of 1" in eq.message and "raise load_steps" in eq.message
    assert eq.extra["load_factor"][0] == 0.0
    np.testing.assert_allclose(eq.nodes[0].ravel(), m.build().x0)
    # the unloaded, unstressed reference holds no force: Newton's start is not reported
    assert not np.any(eq.extra["lambda"]) and not np.any(eq.reactions)


@pytest.mark.parametrize("kwargs,error,match", [
    (dict(load_steps=0), ValueError, "load_steps"), (dict(tol=-1.0), ValueError, "tol"),
    (dict(max_iter=1.5), TypeError, "max_iter"), (dict(linear_solver="cg"), ValueError, "linear_solver"),
])
def test_bad_static_arguments_are_named(kwargs, error, match):
    m, b, _ = cantilever(2, 0.01, 8.333e-6)
    with pytest.raises(error, match=match):
        rancf.static(m, **kwargs)


def test_driven_joint_is_held_at_its_angle_at_t_0():
    """Statics holds drives at t = 0 (its load steps do not advance time): a cantilever on a
    driven pin whose drive turns at 0.5 rad/s sags as the clamped one, P L^3 / (3 EI), and the
    drive holds the moment of the tip force about the pin."""
    I = 8.333e-6
    m = rancf.Model(gravity=(0.0, 0.0), elastic_model="reissner")
    b = m.add_beam(L, 4, E, RHO, 0.01, I)
    pin = m.add_joint("revolute", m.ground.point(0.0, 0.0), b.start,
                      drive=lambda t: (0.5 * t, 0.5, 0.0))
    P = 1e-3 * E * I / L**2
    m.add_force(b.end, force=(0.0, -P))
    eq = rancf.static(m)
    assert eq.status == "ok"
    tip = eq.position(b.end)[0]
    assert -tip[1] == pytest.approx(P * L**3 / (3 * E * I), rel=3e-7)
    assert eq.reaction(pin, "torque")[0] == pytest.approx(P * tip[0], rel=1e-8)


@pytest.mark.parametrize("formulation", ["recursive", "dae"])
def test_equilibrium_is_the_limit_of_a_damped_motion(formulation):
    """A beam on a damped torsion-spring pin under gravity and a tip force, released from its
    straight reference: backward Euler's motion (mass, Kelvin-Voigt and pin damping, in either
    formulation) settles on the static equilibrium. The slowest mode, the pin's, is critically
    damped (c = 2 sqrt(k J), J = m L^2 / 3): after 2 s what is left of the transient is below
    Newton's tolerances (1e-10 m)."""
    I, k = 8.333e-6, 2e6
    J = RHO * 0.01 * L * L**2 / 3

    def model():
        m = rancf.Model(gravity=(0.0, -9.81), elastic_model="reissner")
        b = m.add_beam(L, 8, E, RHO, 0.01, I, damping=1e-3)
        m.add_joint("revolute", m.ground.point(0.0, 0.0), b.start,
                    effort=lambda t, q, qd: -k * q - 2 * np.sqrt(k * J) * qd)
        m.add_force(b.end, force=(0.0, -0.3 * E * I / L**2))
        return m
    eq = rancf.static(model())
    assert eq.status == "ok"
    res = rancf.simulate(model(), 2.0, 0.005, method="backward-euler", formulation=formulation,
                         output_every=400)
    assert res.status == "ok"
    np.testing.assert_allclose(res.nodes[-1], eq.nodes[0], rtol=0, atol=1e-9)
    assert np.abs(eq.nodes[0] - res.nodes[0]).max() > 0.1        # the load moved it


def test_pendulum_under_a_sideways_load_finds_its_equilibrium():
    """A pendulum under gravity and a sideways force has an equilibrium (docs/user_guide/
    statics.rst): turned until the moments about the pin balance. A rigid body pinned at its
    top end, default load steps: tan(theta) = F l / (m g l / 2) for a force F at the far end
    of a body of length l. A pinned steel beam (100 load steps): the moments about the pin of
    the tip force and of the weight of the deformed beam cancel, the weight's from the exact
    integral of the cubic shape, int_0^l x ds = l (x_A + x_B) / 2 + l^2 (x'_A - x'_B) / 12."""
    F, g = 5.0, 9.81
    m = rancf.Model(gravity=(0.0, -g))
    r = m.add_rigid_body(2.0, 0.1, position=(0.0, -0.5), angle=-np.pi / 2)
    m.add_joint("revolute", m.ground.point(0.0, 0.0), r.point(-0.5, 0.0))
    m.add_force(r.point(0.5, 0.0), force=(F, 0.0))
    eq = rancf.static(m)
    assert eq.status == "ok", eq.message
    theta = np.arctan2(F * 1.0, 2.0 * g * 0.5)
    np.testing.assert_allclose(eq.position(r.centre)[0], 0.5 * np.array([np.sin(theta), -np.cos(theta)]),
                               atol=1e-10)

    length, n, A = 1.0, 8, 1e-4
    m = rancf.Model(gravity=(0.0, -g), elastic_model="reissner")
    b = m.add_beam(length, n, E=2e11, rho=RHO, A=A, I=1e-9, angle=-np.pi / 2)
    m.add_joint("revolute", m.ground.point(0.0, 0.0), b.start)
    m.add_force(b.end, force=(F, 0.0))
    eq = rancf.static(m, load_steps=100)
    assert eq.status == "ok", eq.message
    nodes, l = eq.nodes[0], length / n
    x, slope = nodes[:, 0], nodes[:, 2]
    weight = -RHO * A * g * np.sum(l * (x[:-1] + x[1:]) / 2 + l**2 * (slope[:-1] - slope[1:]) / 12)
    tip_force = -nodes[-1, 1] * F
    assert nodes[-1, 0] > 0.5 * length           # turned well away from hanging straight
    assert abs(tip_force + weight) <= 1e-9 * tip_force


def test_mechanism_is_reported():
    """A pinned rigid body under a constant moment that nothing resists has no equilibrium
    at all: the stiffness matrix is singular (docs/user_guide/statics.rst), the damped steps
    after the load steps reach nothing, the run fails at the first load step and keeps the
    reference configuration. (Under a sideways gravity alone it has one, a quarter turn
    away, which the damped steps reach: tests/test_static_mechanisms.py.)"""
    m = rancf.Model(gravity=(0.0, 0.0))
    r = m.add_rigid_body(2.0, 0.1, position=(0.0, -0.5), angle=-np.pi / 2)
    m.add_joint("revolute", m.ground.point(0.0, 0.0), r.point(-0.5, 0.0))
    m.add_force(r.centre, moment=1.0)
    eq = rancf.static(m)
    assert eq.status == "failed" and "load step 1 of 10" in eq.message
    assert "mechanism: joint 0 (revolute) turns freely" in eq.message
    assert "raise load_steps" not in eq.message and eq.extra["load_factor"][0] == 0.0
    np.testing.assert_allclose(eq.nodes[0].ravel(), m.build().x0)


@pytest.mark.parametrize("kind, load_steps", [("revolute", 10), ("revolute", 100),
                                               ("prismatic", 10)])
def test_a_free_joint_under_load_is_named_and_more_load_steps_not_advised(kind, load_steps):
    """A 1 m beam (0.78 kg, E = 2e9 Pa) on a free pin under a 3.8 N m moment at its end, no
    gravity: the moment drives a turn nothing resists, with no equilibrium at all; on a free
    prismatic joint along the beam a 5 N axial force drives a slide nothing resists, with no
    equilibrium either. Raising load_steps from 10 to 100 fails the same way, and so do the
    damped steps after the load steps, so the message must say it is a mechanism, name the
    joint, and not advise raising load_steps (a cantilever whose steps are too few keeps
    that advice: test_failed_load_step_is_reported_with_the_last_equilibrium). The result
    is the reference, load factor 0. (Under gravity, drawn horizontal, a body on a pin has
    an equilibrium a quarter turn away, which the damped steps reach:
    tests/test_static_mechanisms.py.)"""
    m = rancf.Model(gravity=(0.0, 0.0))
    b = m.add_beam(1.0, 4, E=2e9, rho=RHO, A=1e-4, I=1e-9)
    m.add_joint(kind, m.ground.point(0.0, 0.0), b.start)
    if kind == "prismatic":
        m.add_force(b.end, force=(5.0, 0.0))
    else:
        m.add_force(b.end, moment=3.8)
    eq = rancf.static(m, load_steps=load_steps)
    assert eq.status == "failed" and eq.extra["load_factor"][0] == 0.0
    verb = "turns" if kind == "revolute" else "slides"
    assert f"mechanism: joint 0 ({kind}) {verb} freely" in eq.message, eq.message
    assert "no static equilibrium" in eq.message and "help only by chance" in eq.message
    assert "raise load_steps" not in eq.message and "spring" in eq.message
    np.testing.assert_allclose(eq.nodes[0].ravel(), m.build().x0)


def test_a_regular_matrix_that_does_not_converge_fails_without_a_reason():
    """A cantilever's large tip load in one load step of one Newton iteration: the load step
    fails (no convergence) with no reason code: its Newton matrix is regular (``rancf.static``
    looks for the cause of a singular one only, ``reason == "singular"``: the plane curved
    cable of tests/test_cable_state.py)."""
    from rancf.formulations.dae import DAE
    from rancf.integrators._implicit import Stepper
    from rancf.integrators.implicit import Static
    from rancf.integrators.static import _least_squares_multipliers, step_loads

    m, b, clamp = cantilever(4, 0.01, 8.333e-6)
    m.add_force(b.end, force=(0.0, -5e6))
    A = m.build()
    dae, scheme = DAE(A, "sparse"), Static()
    stepper = Stepper(dae.compiled, scheme.alpha_m, scheme.alpha_f, scheme.gamma, scheme.beta,
                      scheme.intermediate, scheme.bdf1, 1.0, 1e-10 * A.size, 1, False,
                      static=scheme.static)
    x = dae.initial_state()[0]
    stepper.start_at_rest(0.0, x, _least_squares_multipliers(dae, x, 1.0))
    status, message, _, reached, _, reason, _ = step_loads(stepper, dae.kernel.set_load_factor, 1)
    assert status == "failed" and "did not converge" in message
    assert reached == 0.0 and reason is None


@pytest.mark.parametrize("method, formulation, dt", [
    ("rk4", "recursive", 1e-4), ("newmark", "recursive", 5e-3),
    ("generalized-alpha", "recursive", 5e-3), ("newmark", "dae", 5e-3),
    ("generalized-alpha", "dae", 5e-3)])
def test_a_static_start_keeps_the_angle_statics_turned_past_pi(method, formulation, dt):
    """A free beam on a pin with a torsion spring (k = 1 N m/rad, rest angle 2.5 rad) and a
    moment of 1.5 N m at the pinned node, no gravity: the beam turns unstressed to the spring's
    equilibrium ``2.5 + 1.5 / k = 4`` rad, past pi, which the load steps reach by continuing
    the angle (DECISIONS 4). The run from ``state="static"`` stays there, in both formulations:
    its springs see the equilibrium's continuous angle, not the angle wrapped to ``4 - 2 pi``
    (where the spring pushed the other way: the beam turned by 0.9 to 1.1 rad in 0.2 s)."""
    m = rancf.Model(gravity=(0.0, 0.0))
    b = m.add_beam(1.0, 2, E=2e9, rho=7800.0, A=1e-4, I=1e-9)
    pin = m.add_joint("revolute", m.ground.point(0.0, 0.0), b.start)
    m.add_rotational_spring_damper(pin, 1.0, 0.0, rest_angle=2.5)
    m.add_force(b.start, moment=1.5)
    eq = rancf.static(m)
    assert eq.status == "ok"
    assert eq.joint(pin)[0][0] == pytest.approx(4.0, abs=1e-9)
    res = rancf.simulate(m, 0.2, dt, method=method, formulation=formulation, state="static",
                         output_every=round(0.02 / dt))
    assert res.status == "ok" and res.formulation == formulation and len(res.t) == 11
    assert np.abs(res.joint(pin)[0] - 4.0).max() <= 1e-8
    # the geometry, independent of how the angle is counted: the straight beam along 4 rad
    tip = np.broadcast_to([np.cos(4.0), np.sin(4.0)], res.position(b.end).shape)
    np.testing.assert_allclose(res.position(b.end), tip, rtol=0, atol=1e-8)
    assert res.energy()["elastic"].to_numpy() == pytest.approx(0.5 * 1.5**2, abs=1e-8)


@pytest.mark.parametrize("offset, load_steps", [(0.0, 10), (0.3, 10), (0.3, 40), (0.3, 200)])
def test_a_pre_stressed_torsion_spring_is_stepped_with_the_loads(offset, load_steps):
    """A rigid body pinned at its centre (or 0.3 m off it) with a torsion spring (k = 1 N m/rad,
    rest angle 2.5 rad, the reference angle 0) and a moment of 1.5 N m, no gravity: the
    analytic equilibrium is ``2.5 + 1.5 / k = 4`` rad, the body turned rigidly about the pin,
    no reaction. The spring's pre-stress is stepped with the loads (each load step turns the
    body by 0.4 rad or less): with it whole, the first load step had to turn it by 2.5 rad
    and Newton failed there at 10 and (off-centre) 200 load steps. The reaction is the
    equilibrium's, on its angle's branch: on the reference branch the spring's angle was
    4 - 2 pi, and the off-centre pin reacted with 13.5 N to the spurious torque 2 pi k."""
    k, rest, moment = 1.0, 2.5, 1.5
    m = rancf.Model(gravity=(0.0, 0.0))
    r = m.add_rigid_body(2.0, 0.1, position=(offset, 0.0))
    pin = m.add_joint("revolute", m.ground.point(0.0, 0.0), r.point(-offset, 0.0))
    m.add_rotational_spring_damper(pin, k, 0.0, rest_angle=rest)
    m.add_force(r.centre, moment=moment)
    eq = rancf.static(m, load_steps=load_steps)
    angle = rest + moment / k
    assert eq.status == "ok", eq.message
    assert eq.joint(pin)[0][0] == pytest.approx(angle, abs=1e-9)
    np.testing.assert_allclose(eq.position(r.centre)[0],
                               offset * np.array([np.cos(angle), np.sin(angle)]), atol=1e-9)
    np.testing.assert_allclose(eq.reaction(pin)[0], 0.0, atol=1e-9)
    assert eq.energy()["elastic"].to_numpy() == pytest.approx(0.5 * k * (angle - rest)**2,
                                                               abs=1e-9)


def turned(axis, angle, v):
    """v turned by angle about the unit axis (Rodrigues' formula)."""
    axis, v = np.asarray(axis), np.asarray(v)
    return (v * np.cos(angle) + np.cross(axis, v) * np.sin(angle)
            + axis * (axis @ v) * (1.0 - np.cos(angle)))


@pytest.mark.parametrize("item", ["body", "beam"])
@pytest.mark.parametrize("loop", [False, True])
@pytest.mark.parametrize("load_steps", [10, 40])
def test_a_pre_stressed_spatial_joint_spring_is_stepped_with_the_loads(item, loop, load_steps):
    """A rigid body pinned 0.3 m off its centre, or a 2-element beam pinned at its start, on a
    revolute joint about a skew axis with a spring-damper (k = 1 N m/rad, rest angle 2.5 rad,
    the reference angle 0) and a moment of 1.5 N m about the axis, no gravity: the analytic
    equilibrium turns the item rigidly about the axis by ``2.5 + 1.5 / k = 4`` rad (past pi;
    the beam unstressed, the joint carrying the moment), the spring's energy ``1.125`` J. The
    tree runs the spatial recursion; with a free joint at the pin closing a loop, the spatial
    DAE, whose spring's rest angle is stepped with the loads (``ramp_rest``, as the planar
    statics'): left whole, the first load step had to turn the beam by 2.65 rad, and Newton
    failed there at 10 and 40 load steps."""
    k, rest, moment = 1.0, 2.5, 1.5
    axis = np.array([0.3, 1.0, 0.2]) / np.linalg.norm([0.3, 1.0, 0.2])
    d = np.cross(axis, [1.0, 0.0, 0.0])
    d /= np.linalg.norm(d)
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, 0.0))
    if item == "body":
        it = m.add_rigid_body(2.0, np.diag([0.1, 0.12, 0.15]), position=tuple(0.3 * d))
        pin, loaded, far = it.point(*(-0.3 * d)), it.centre, it.centre
    else:
        it = m.add_beam(1.0, 2, E=2e9, G=8e8, rho=7800.0, A=1e-4, I=(1e-9, 1e-9), J=2e-9,
                        direction=tuple(d))
        pin, loaded, far = it.start, it.start, it.end
    if loop:
        m.add_joint("free", m.ground.point(0.0, 0.0, 0.0), pin)
    j = m.add_joint("revolute", m.ground.point(0.0, 0.0, 0.0), pin, axis=tuple(axis))
    m.add_rotational_spring_damper(j, k, 0.0, rest_angle=rest)
    m.add_force(loaded, moment=tuple(moment * axis))
    eq = rancf.static(m, load_steps=load_steps)
    angle = rest + moment / k
    assert eq.status == "ok", eq.message
    assert eq.formulation == ("dae" if loop else "spatial")
    assert eq.joint(j)[0][0] == pytest.approx(angle, abs=1e-9)
    reach = 0.3 if item == "body" else 1.0
    np.testing.assert_allclose(eq.position(far)[0], turned(axis, angle, reach * d), rtol=0,
                               atol=1e-9)
    assert eq.energy()["elastic"].to_numpy() == pytest.approx(0.5 * k * (angle - rest)**2,
                                                               abs=1e-9)


def standing_body(k):
    """A 1 kg body (0.01 kg m^2 about its centre) standing on a free pin at the origin, its
    centre 0.5 m above it, gravity -y, with a torsion spring of k N m/rad at the pin (0:
    none): the audit's model (tests/test_audit2_findings.py), upright an equilibrium at
    every load factor, unstable for ``k < m g l = 4.905`` N m/rad."""
    m = rancf.Model(gravity=(0.0, -9.81))
    body = m.add_rigid_body(mass=1.0, inertia=0.01, position=(0.0, 0.5))
    pin = m.add_joint("revolute", m.ground.point(0.0, 0.0), body.point(0.0, -0.5))
    if k:
        m.add_rotational_spring_damper(pin, k)
    return m, body, pin


@pytest.mark.parametrize("k", [0.0, 2.0, 4.0])
def test_a_body_standing_on_a_pin_leaves_it_for_the_stable_equilibrium(k):
    """Statics must not return the upright equilibrium (``V'' = k - m g l < 0``) but the
    stable one: turned by theta from upright where ``k theta = m g l sin theta`` (brentq;
    theta = pi hanging, without a spring), either way (the model is symmetric). Closed
    forms: the centre at ``l (-sin theta, cos theta)``, the gravity energy ``m g l cos
    theta``; and rancf.modes there (the dense linearization on the constraints' null space)
    finds the one mode, ``omega^2 = (k - m g l cos theta) / (I + m l^2)``. Bounds: 1e-9 m
    and rad from Newton's tolerance (1e-10 of the 1 m size) and round-off; 1e-6 for the
    frequency (the eigenproblem's round-off, the equilibrium's error squared). The message
    says the load steps' equilibrium was left as unstable."""
    from scipy.optimize import brentq
    m, body, pin = standing_body(k)
    mgl, l, inertia = 9.81 * 0.5, 0.5, 0.01 + 0.5**2
    theta = brentq(lambda t: k * t - mgl * np.sin(t), 0.1, np.pi) if k else np.pi
    eq = rancf.static(m)
    assert eq.status == "ok" and "unstable" in eq.message, eq.message
    turned = eq.joint(pin)[0][0]
    assert abs(turned) == pytest.approx(theta, abs=1e-9)
    side = np.sign(turned) if k else 1.0
    np.testing.assert_allclose(eq.position(body.centre)[0],
                               [-side * l * np.sin(theta), l * np.cos(theta)], rtol=0,
                               atol=1e-9)
    assert eq.energy().gravity.iloc[0] == pytest.approx(mgl * np.cos(theta), abs=1e-8)
    found = rancf.modes(m, state=eq.state(0), n=1)
    omega = np.sqrt((k - mgl * np.cos(theta)) / inertia)
    assert found.frequencies[0] == pytest.approx(omega / (2 * np.pi), rel=1e-6)


def test_planar_statics_says_so_where_it_cannot_leave_an_unstable_equilibrium(monkeypatch):
    """Where the continuations off the unstable equilibrium find nothing (patched to fail),
    statics returns the upright body as 'failed', its message saying it is unstable;
    rancf.modes there refuses it as unstable, and ``state="static"`` refuses to start a run
    from it."""
    from rancf.integrators import static as statics
    monkeypatch.setattr(statics, "_pseudo_transient_first_step", lambda *args: None)
    # and the damped steps, the descent tried first
    monkeypatch.setattr(statics, "_damped_newton", lambda *args: None)
    m, body, _ = standing_body(0.0)
    eq = rancf.static(m)
    assert eq.status == "failed" and "unstable" in eq.message, eq.message
    np.testing.assert_allclose(eq.position(body.centre)[0], [0.0, 0.5], rtol=0, atol=1e-12)
    with pytest.raises(ValueError, match="unstable"):
        rancf.modes(m, state=eq.state(0), n=1)
    with pytest.raises(ValueError, match="unstable"):
        rancf.simulate(m, t_end=0.01, dt=1e-3, state="static")


def standing_column(n_elements, side):
    """A steel column (1 m, ``side`` m square, E = 210 GPa, rho = 7800 kg/m^3) standing on a
    free pin at the origin, along +y, gravity -y: upright an equilibrium at every load
    factor, whose swing has the geometric stiffness ``-m g L / 2`` alone, 1e-9 of the
    elements' axial stiffness EA / l; ``omega^2 = -3 g / (2 L)`` as a rigid bar's."""
    m = rancf.Model(gravity=(0.0, -9.81))
    b = m.add_beam(1.0, n_elements, E=2.1e11, rho=RHO, A=side**2, I=side**4 / 12,
                   angle=np.pi / 2)
    m.add_joint("revolute", m.ground.point(0.0, 0.0), b.start)
    return m, b


@pytest.mark.parametrize("n_elements", [2, 4, 8])
def test_a_steel_column_on_a_pin_is_unstable_by_its_swing_omega_squared(n_elements,
                                                                        monkeypatch):
    """The stability test must flag the standing steel column (the continuation patched to
    find nothing, so that statics returns the equilibrium it tested): 'failed', its message
    saying it is unstable, and rancf.modes there (the dense eigenproblem on the
    constraints' null space) refuses it with ``omega^2 = -3 g / (2 L) = -14.715`` (rad/s)^2,
    the rigid bar's. Bound 1e-4: the bending it couples to lowers it by about the ratio of
    the swing's omega^2 to the first bending one's (``22.4^2 sqrt(EI / (rho A L^4))``
    squared, 1e6 (rad/s)^2), 1.5e-5. A threshold that is a share of ``|K|`` (the stretch,
    EA / l = 1.5e9 N/m at 8 elements) misses it: the swing's stiffness on its unit vector
    is 3 N/m."""
    import re

    from rancf.integrators import static as statics
    monkeypatch.setattr(statics, "_pseudo_transient_first_step", lambda *args: None)
    # and the damped steps, the descent tried first
    monkeypatch.setattr(statics, "_damped_newton", lambda *args: None)
    m, _ = standing_column(n_elements, 0.03)
    eq = rancf.static(m)
    assert eq.status == "failed" and "unstable" in eq.message, eq.message
    with pytest.raises(ValueError, match="unstable") as refused:
        rancf.modes(m, state=eq.state(0), n=1)
    omega2 = float(re.search(r"omega\^2 = (\S+)", str(refused.value)).group(1))
    assert omega2 == pytest.approx(-1.5 * 9.81 / 1.0, rel=1e-4)


@pytest.mark.parametrize("n_elements, side", [(2, 0.01), (2, 0.03), (2, 0.1), (4, 0.03),
                                              (8, 0.03), (8, 0.1)])
def test_a_steel_column_on_a_pin_comes_back_hanging(n_elements, side):
    """Statics leaves the standing column for the hanging one: the tip at ``(0, -(L + rho g
    L^2 / (2 E)))``, the stretch under its own weight (the axial force falls linearly to
    the tip, a quadratic displacement that cubic elements hold exactly), to 1e-9 m (Newton's
    tolerance, 1e-10 of the 1 m size, and round-off), and rancf.modes there finds the swing
    of a hanging rigid bar, ``omega^2 = 3 g / (2 L)``, to 1e-4 (the bending it couples to,
    as above). The push along the unstable mode is a straight line in the ANCF
    coordinates, which stretches the beam (its slopes are coordinates): the continuation
    from there must still descend, not climb back."""
    m, b = standing_column(n_elements, side)
    eq = rancf.static(m)
    assert eq.status == "ok" and "unstable" in eq.message, eq.message
    np.testing.assert_allclose(eq.position(b.end)[0],
                               [0.0, -(1.0 + RHO * 9.81 / (2 * 2.1e11))], rtol=0, atol=1e-9)
    found = rancf.modes(m, state=eq.state(0), n=1)
    assert (2 * np.pi * found.frequencies[0])**2 == pytest.approx(1.5 * 9.81, rel=1e-4)


def test_a_hanging_steel_beam_is_stable_at_once():
    """No false alarm: the same column drawn hanging (8 elements, 0.03 m square) is a stable
    equilibrium (its swing ``omega^2 = +3 g / (2 L)``), which statics returns as the load
    steps reach it, its message saying nothing of instability."""
    m = rancf.Model(gravity=(0.0, -9.81))
    b = m.add_beam(1.0, 8, E=2.1e11, rho=RHO, A=0.03**2, I=0.03**4 / 12, angle=-np.pi / 2)
    m.add_joint("revolute", m.ground.point(0.0, 0.0), b.start)
    eq = rancf.static(m)
    assert eq.status == "ok" and "unstable" not in eq.message, eq.message


def test_a_static_start_of_a_body_standing_on_a_pin_hangs_it():
    """``state="static"`` starts a run from the stable equilibrium statics finds (hanging),
    where the body stays: its centre within 1e-9 m of (0, -0.5) over the run (the start's
    residual, 1e-10 of the size, accelerates it by at most ~1e-9 m/s^2 over 0.1 s)."""
    m, body, _ = standing_body(0.0)
    res = rancf.simulate(m, t_end=0.1, dt=1e-3, state="static")
    assert res.status == "ok", res.message
    np.testing.assert_allclose(res.position(body.centre), np.tile([0.0, -0.5], (len(res.t), 1)),
                               rtol=0, atol=1e-9)


def test_above_the_stability_rows_the_message_says_the_test_was_not_run(monkeypatch):
    """Above STABILITY_ROWS constraint rows statics does not test stability (the test is
    O(m^3)): the body standing on a pin (its DAE: 2 joint rows and a norm row) then stays
    upright, status 'ok', and the message must say the stability was not tested, so no
    user reads the upright state as tested stable; rancf.modes there refuses it."""
    from rancf.integrators import static as static_module
    monkeypatch.setattr(static_module, "STABILITY_ROWS", 1)
    m, body, _ = standing_body(0.0)
    eq = rancf.static(m)
    assert eq.status == "ok" and "stability not tested" in eq.message, eq.message
    np.testing.assert_allclose(eq.position(body.centre)[0], [0.0, 0.5], atol=1e-9)
    with pytest.raises(ValueError, match="unstable"):
        rancf.modes(m, eq.state(0))


@pytest.mark.parametrize("kind", ["revolute", "prismatic"])
def test_spatial_dae_statics_names_the_free_joint_its_loads_drive(kind):
    """The spatial DAE's statics (a free joint at the pin closes a loop: it holds nothing)
    of a 1 kg body on a free revolute joint about z, its arm of 0.5 m drawn horizontal,
    under a moment of 1 N m about z, or on a free prismatic joint along the arm under an
    axial force of 5 N (no gravity; no equilibrium at all, which the damped steps after the
    load steps do not find either): the first load step's Newton matrix is singular, and
    the message says it is a mechanism, naming the joint that moves (not the free joint,
    which any motion moves), as planar statics does, with no advice to raise load_steps.
    The result is the drawn configuration, load factor 0. (Under gravity -y instead the
    body has an equilibrium a quarter turn away, which the damped steps reach:
    tests/test_static_dae_mechanisms.py.)"""
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, 0.0))
    body = m.add_rigid_body(1.0, np.diag([0.01, 0.01, 0.01]), position=(0.5, 0.0, 0.0))
    m.add_joint("free", m.ground.point(0.0, 0.0, 0.0), body.point(-0.5, 0.0, 0.0))
    axis = (0.0, 0.0, 1.0) if kind == "revolute" else (1.0, 0.0, 0.0)
    m.add_joint(kind, m.ground.point(0.0, 0.0, 0.0), body.point(-0.5, 0.0, 0.0), axis=axis)
    if kind == "prismatic":
        m.add_force(body.centre, force=(5.0, 0.0, 0.0))
    else:
        m.add_force(body.centre, moment=(0.0, 0.0, 1.0))
    eq = rancf.static(m)
    assert eq.status == "failed" and eq.formulation == "dae"
    verb = "turns" if kind == "revolute" else "slides"
    assert f"mechanism: joint 1 ({kind}) {verb} freely" in eq.message, eq.message
    assert "raise load_steps" not in eq.message and eq.extra["load_factor"][0] == 0.0
    np.testing.assert_allclose(eq.position(body.centre)[0], [0.5, 0.0, 0.0], rtol=0,
                               atol=1e-15)
