"""Statics of spatial models on the spatial DAE (closed loops, cables the recursion cannot
run) that only their loads hold (rancf/integrators/static.py ``_spatial_dae_static``, with
the damped Newton steps ``_damped_newton`` after the load steps, as the recursion's and the
planar DAE's statics): loops of rigid rods on ball and revolute joints and a cable hanging
from one, drawn away from their hanging state under gravity. Their first Newton matrix is
singular (a rod's spin about the line of its two ball joints is neutral at every state) or
Newton's iterates diverge; before the damped steps ran on the spatial DAE each failed at its
first load step. Each is checked against its analytic hanging state or the minimum of its
potential over the mechanism's coordinate (scipy, on a parametrization written here), and
the static residual and stability of the equilibrium returned against the DAE's own
matrices, densely. Models with no equilibrium must still fail."""
import functools

import numpy as np
import pytest
from scipy.optimize import brentq

import rancf
from rancf.formulations import spatial
from rancf.formulations.spatial_dae import SpatialDAE
from test_cable_straight_rest import constrained_check
from validation.spherical_four_bar import SphericalFourBar, rotation

G, TOL = 9.81, 1e-10


def rod(m, a, b, mass):
    """A slender rigid rod of ``mass`` (kg) from point a to point b, its centre midway: the
    inertia ``mass L^2 / 12`` about the axes across it, 1e-4 kg m^2 more about every axis
    (so its spin about its own axis has inertia, and no load)."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    L = np.linalg.norm(b - a)
    e = (b - a) / L
    J = mass * L**2 / 12.0 * (np.eye(3) - np.outer(e, e)) + 1e-4 * np.eye(3)
    return m.add_rigid_body(mass, J, position=(a + b) / 2.0)


def at(body, point):
    """The body's point drawn at ``point`` (global, in the reference configuration)."""
    return body.point(*(np.asarray(point, dtype=float) - body.position))


def check_equilibrium(m, res, neutral):
    """The equilibrium returned, against the model's spatial DAE built here, at the poses of
    the Result (x: their Euler parameters, whose signs the poses do not keep, so that the
    multipliers are found here, not taken from the Result): the part of the forces F(x) that
    no multipliers balance, ``F - Phi_x^T lambda`` with lambda the least-squares ones
    (exactly zero at an equilibrium, whatever the signs), below ``|K|_inf tol size`` (the
    stiffness times the bound of Newton's last increment, the loop's test, or the damped
    steps' at their end); the constraints to 1e-12 of the size; and the stiffness on the
    motions the joints allow, ``Z^T K Z`` (Z an orthonormal basis, dense; K Newton's with
    these multipliers): ``neutral`` eigenvalues within ``1e-9 |K|_inf`` of zero (the rods'
    spins; K's curvature rows come from a stencil of unit step, whose round-off measured up
    to 2.4e-12 |K|_inf here), every other above it: a stable equilibrium, a family along
    the spins alone."""
    dae = SpatialDAE(m.build(), *spatial.model_inputs(m))
    state = res.state(0)
    x, _ = dae.state_of_poses(state.x, state.v)
    F = dae.force(x, np.zeros_like(x), 0.0)
    lam = np.linalg.lstsq(dae.constraint_jacobian(x, 0.0).toarray().T, F, rcond=None)[0]
    residual, violation, w, scale = constrained_check(dae, x, lam)
    size = dae.tree.size
    assert residual <= scale * TOL * size, (residual, scale)
    assert violation <= 1e-12 * size
    assert np.sum(np.abs(w) <= 1e-9 * scale) == neutral and w[neutral] > 1e-9 * scale, w


def parallelogram(draw):
    """Three 1 kg rods on four ball joints: cranks of 0.5 m from the ground points (0, 0, 0)
    and (1, 0, 0), a coupler of 1 m between their ends, drawn horizontal (``draw`` =
    "horizontal": the ends at y = 0.5) or standing upright (z = 0.5), gravity along -z. It
    has three neutral spins (each rod about its own axis) and one motion that gravity
    drives: the swing of the parallelogram about the x axis."""
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -G))
    A, D = np.zeros(3), np.array([1.0, 0.0, 0.0])
    out = np.array([0.0, 0.5, 0.0] if draw == "horizontal" else [0.0, 0.0, 0.5])
    B, C = A + out, D + out
    rods = rod(m, A, B, 1.0), rod(m, B, C, 1.0), rod(m, D, C, 1.0)
    m.add_joint("spherical", m.ground.point(*A), at(rods[0], A))
    m.add_joint("spherical", at(rods[0], B), at(rods[1], B))
    m.add_joint("spherical", at(rods[1], C), at(rods[2], C))
    m.add_joint("spherical", m.ground.point(*D), at(rods[2], D))
    return m, rods


@pytest.mark.parametrize("draw", ["horizontal", "upright"])
def test_a_parallelogram_of_rods_on_ball_joints_hangs_below_its_pivots(draw):
    """The parallelogram hangs in the vertical plane through its pivots, the cranks straight
    down: the centres at (0, 0, -0.25), (0.5, 0, -0.5) and (1, 0, -0.25) (bound 1e-9 m, the
    loop's tolerance 1e-10 of the size). Drawn horizontal, the load steps stop at once (the
    spins make Newton's matrix singular; before, statics failed there: "the model is a
    mechanism: joints 0, 1, 2, 3 move freely") and the damped steps reach it, a family of
    equilibria (the spins), said so. Drawn upright, the load steps stop on the upright
    state, which is an equilibrium at every load factor, a maximum of the potential: the
    stability test leaves it, the message says it was unstable."""
    m, rods = parallelogram(draw)
    res = rancf.static(m)
    assert res.status == "ok" and res.formulation == "dae", res.message
    for body, centre in zip(rods, ([0.0, 0.0, -0.25], [0.5, 0.0, -0.5], [1.0, 0.0, -0.25])):
        np.testing.assert_allclose(res.position(body.centre)[0], centre, rtol=0, atol=1e-9)
    assert "damped Newton iterations" in res.message, res.message
    if draw == "horizontal":
        assert "family of equilibria" in res.message and "unstable" not in res.message, \
            res.message
    else:
        assert "was unstable" in res.message, res.message
    check_equilibrium(m, res, neutral=3)


class FreeFourBar(SphericalFourBar):
    """The spherical four-bar of validation/spherical_four_bar.py undriven, its crank drawn
    turned by ``theta`` (rad) from the class's reference (the rocker by the closed form's
    output there), with a spherical joint at C instead of the universal one (an RSSR
    linkage: 5 + 3 + 5 + 3 rows, the four-bar's one motion and the coupler's spin about
    the line BC, neutral: its centre is on that line)."""

    drive = None

    def __init__(self, theta):
        super().__init__()
        # the output angle from the reference's u_B and u_C, before they turn
        phi = self.output(np.linspace(0.0, theta, 200))[-1]
        self.uB = rotation(self.uA, theta) @ self.uB
        self.uC = rotation(self.uD, phi) @ self.uC
        self.P = {k: self.R * getattr(self, "u" + k) for k in "ABCD"}

    def joints(self, m, crank, coupler, rocker, at):
        P = self.P
        j_in = m.add_joint("revolute", m.ground.point(*P["A"]), at(crank, "A"), axis=self.uA)
        m.add_joint("spherical", at(crank, "B"), at(coupler, "B"))
        j_out = m.add_joint("revolute", m.ground.point(*P["D"]), at(rocker, "D"), axis=self.uD)
        loop = m.add_joint("spherical", at(coupler, "C"), at(rocker, "C"))
        return j_in, j_out, loop


#: The rods' masses of :meth:`SphericalFourBar.rigid` (kg): crank, coupler, rocker.
MASSES = (1.0, 1.5, 1.2)


def four_bar_centres(theta):
    """The centres (3, 3) of the crank, coupler and rocker of the spherical four-bar at the
    input angle theta (rad, from the class's reference): each rod's centre midway between its
    joint points ``R u`` (A, B; B, C; D, C), u_B turned about u_A by theta and u_C about u_D
    by the closed form's output angle (followed from 0 by continuity)."""
    fb = SphericalFourBar()
    phi = fb.output(np.linspace(0.0, theta, 200))[-1]
    A, D = fb.R * fb.uA, fb.R * fb.uD
    B = fb.R * rotation(fb.uA, theta) @ fb.uB
    C = fb.R * rotation(fb.uD, phi) @ fb.uC
    return np.array([(A + B) / 2.0, (B + C) / 2.0, (D + C) / 2.0])


@functools.lru_cache(maxsize=None)
def four_bar_minimum():
    """The input angle (rad) of the least potential ``V = g sum m_i z_i`` of the four-bar:
    V on a grid of 5 degree steps over a turn (it has one minimum there), then the root of
    its central difference derivative (step 1e-5 rad: truncation and round-off both about
    1e-10 J/rad) between the grid's neighbours of the least, by brentq. Kept once found
    (seconds of closed-form evaluations)."""
    def V(theta):
        return G * np.dot(MASSES, four_bar_centres(theta)[:, 2])

    grid = np.linspace(-np.pi, np.pi, 73)
    k = int(np.argmin([V(t) for t in grid]))
    h = 1e-5
    return brentq(lambda t: (V(t + h) - V(t - h)) / (2.0 * h), grid[k - 1], grid[k + 1],
                  xtol=1e-14)


@pytest.mark.parametrize("theta", [0.0, 2.0, 3.0])
def test_a_spherical_four_bar_on_revolute_and_ball_joints_rests_at_its_least_potential(
        theta):
    """The RSSR four-bar, drawn with its crank at 0, 2 and 3 rad from the reference (before,
    statics failed at each: Newton diverging or not contracting at load factor 1/640): it
    comes to rest at the least potential over its one motion, the rods' centres those of
    the four-bar at the angle :func:`four_bar_minimum` finds (bound 1e-8 m: the minimum's
    angle to about 1e-11 rad, the closed form's positions exact, statics' to its tolerance),
    a family of equilibria (the coupler's spin), a stable one."""
    m, *_ = FreeFourBar(theta).rigid()
    res = rancf.static(m)
    assert res.status == "ok" and res.formulation == "dae", res.message
    assert "damped Newton iterations" in res.message and "family of equilibria" in res.message
    expected = four_bar_centres(four_bar_minimum())
    found = np.array([res.position(b.centre)[0] for b in m.rigid_bodies])
    np.testing.assert_allclose(found, expected, rtol=0, atol=1e-8)
    check_equilibrium(m, res, neutral=1)


def triangle(cable):
    """Two 1 kg rods from the ground points (0, 0, 0) and (1, 0, 0) on ball joints, joined by
    a ball joint at the apex B drawn at (0.5, 0.6, 0) (a loop: the triangle turns about the
    x axis, each rod spins about its own axis), gravity along -z; with ``cable``, a 1 m ANCF
    cable (4 elements, rho A = 1 kg/m, EA = 1e5 N, EI = 1e-3 N m^2) on a ball joint at B,
    drawn horizontal along +y."""
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -G))
    P1, P2, B = np.zeros(3), np.array([1.0, 0.0, 0.0]), np.array([0.5, 0.6, 0.0])
    rods = rod(m, P1, B, 1.0), rod(m, P2, B, 1.0)
    m.add_joint("spherical", m.ground.point(*P1), at(rods[0], P1))
    m.add_joint("spherical", m.ground.point(*P2), at(rods[1], P2))
    m.add_joint("spherical", at(rods[0], B), at(rods[1], B))
    if not cable:
        return m, rods, None
    EA, A = 1e5, 1e-4
    c = m.add_beam(1.0, 4, E=EA / A, rho=1.0 / A, A=A, I=1e-3 * A / EA, start=B,
                   direction=(0.0, 1.0, 0.0), element="ancf-cable")
    m.add_joint("spherical", at(rods[0], B), c.start)
    return m, rods, c


@pytest.mark.parametrize("cable", [False, True])
def test_a_triangle_of_rods_and_a_cable_from_its_apex_hang_straight_down(cable):
    """The triangle hangs in the vertical plane of its pivots, the apex at (0.5, 0, -0.6)
    (the rods rigid), their centres at (0.25, 0, -0.3) and (0.75, 0, -0.3) (bound 1e-9 m,
    the loop's tolerance); the cable hangs straight down from the apex, its tip at
    ``(0.5, 0, -0.6 - (L + rho A g L^2 / (2 EA)))``, stretched by its weight (the tension
    ``rho A g (L - s)``; bound 1e-7 m, ten times the strain measure's second order
    ``eps^2 L``, eps = 1e-4: test_cable_straight_rest.py). Before, statics failed at the
    first load step: "the model is a mechanism: joints ... move freely". The equilibrium
    is stable, a family along the rods' two spins."""
    m, rods, c = triangle(cable)
    res = rancf.static(m)
    assert res.status == "ok" and res.formulation == "dae", res.message
    assert "damped Newton iterations" in res.message and "family of equilibria" in res.message
    for body, centre in zip(rods, ([0.25, 0.0, -0.3], [0.75, 0.0, -0.3])):
        np.testing.assert_allclose(res.position(body.centre)[0], centre, rtol=0, atol=1e-9)
    if cable:
        stretch = 1.0 * G * c.length**2 / (2.0 * 1e5)
        np.testing.assert_allclose(res.position(c.end)[0],
                                   [0.5, 0.0, -0.6 - (c.length + stretch)], rtol=0, atol=1e-7)
    check_equilibrium(m, res, neutral=2)


def test_a_body_on_a_free_revolute_joint_under_gravity_hangs():
    """A 1 kg body on a revolute joint about z at the origin, its centre drawn 0.5 m along x,
    gravity along -y; a free joint at the same point closes a loop (it holds nothing), so
    statics runs the spatial DAE. The weight's moment turns it with nothing resisting at
    the drawn configuration (before, statics failed there: "joint 1 (revolute) turns
    freely"); its equilibrium hangs a quarter turn away, the centre at (0, -0.5, 0) (bound
    1e-9 m), isolated (the revolute holds every other motion). Under a moment about z
    instead it has none: test_static.py's
    test_spatial_dae_statics_names_the_free_joint_its_loads_drive."""
    m = rancf.Model(dim=3, gravity=(0.0, -G, 0.0))
    body = m.add_rigid_body(1.0, np.diag([0.01, 0.01, 0.01]), position=(0.5, 0.0, 0.0))
    m.add_joint("free", m.ground.point(0.0, 0.0, 0.0), body.point(-0.5, 0.0, 0.0))
    m.add_joint("revolute", m.ground.point(0.0, 0.0, 0.0), body.point(-0.5, 0.0, 0.0),
                axis=(0.0, 0.0, 1.0))
    res = rancf.static(m)
    assert res.status == "ok" and res.formulation == "dae", res.message
    assert "damped Newton iterations" in res.message and "family" not in res.message
    np.testing.assert_allclose(res.position(body.centre)[0], [0.0, -0.5, 0.0], rtol=0,
                               atol=1e-9)
    check_equilibrium(m, res, neutral=0)


def test_a_loop_falling_freely_still_fails_clearly():
    """A model with no equilibrium: the triangle of rods closed by a third rod between its
    pivots, that rod on a free joint (the loop holds nothing up), under gravity. The load
    steps fail at the first (the message names the joints that move freely, as before),
    the damped steps after them reach nothing (their residual, the weight, never falls) in
    at most ``10 max_iter`` steps; the result is the drawn configuration, load factor 0.
    The work is bounded: the first load step and its six cuts, twice (the retry from the
    linear statics' multipliers), at ``max_iter`` iterations each, and the damped steps'
    ``10 max_iter``: 1200 at max_iter = 50."""
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -G))
    P1, P2, B = np.zeros(3), np.array([1.0, 0.0, 0.0]), np.array([0.5, 0.6, 0.0])
    base, left, right = rod(m, P1, P2, 1.0), rod(m, P1, B, 1.0), rod(m, P2, B, 1.0)
    m.add_joint("free", m.ground.point(0.5, 0.0, 0.0), base.centre)
    m.add_joint("spherical", at(base, P1), at(left, P1))
    m.add_joint("spherical", at(base, P2), at(right, P2))
    m.add_joint("spherical", at(left, B), at(right, B))
    res = rancf.static(m)
    assert res.status == "failed" and res.formulation == "dae"
    assert "load step 1 of 10" in res.message and "mechanism" in res.message, res.message
    assert res.extra["load_factor"][0] == 0.0
    np.testing.assert_allclose(res.position(base.centre)[0], [0.5, 0.0, 0.0], atol=1e-15)
    assert res.stats["newton_iterations"] <= 2 * 7 * 50 + 10 * 50, res.stats


def clamped_at_tip(angle, mass):
    """A 1 m cable (4 elements, rho A = 0.5 kg/m, EA = 1e5 N, EI = 1e-3 N m^2) on a ball
    joint at the origin, drawn straight at ``angle`` (rad) above the horizontal in the x-z
    plane, a rod of ``mass`` (kg) and 0.4 m clamped at its tip along it (joint 1, "fixed";
    the recursion does not run a body clamped to a cable point: the spatial DAE does):
    ``(model, rod, EA)``."""
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -G))
    EA, A = 1e5, 1e-4
    d = np.array([np.cos(angle), 0.0, np.sin(angle)])
    c = m.add_beam(1.0, 4, E=EA / A, rho=0.5 / A, A=A, I=1e-3 * A / EA, direction=tuple(d),
                   element="ancf-cable")
    m.add_joint("spherical", m.ground.point(0, 0, 0), c.start)
    tip = rod(m, d, 1.4 * d, mass)
    m.add_joint("fixed", c.end, at(tip, d))
    return m, tip, EA


@pytest.mark.parametrize("angle, mass, load_steps", [
    (0.0, 1.0, 10), (np.pi / 6, 1.0, 10), (0.0, 2.0, 10), (np.pi / 18, 2.0, 5)],
    ids=["horizontal", "drawn 30 deg up", "2 kg", "2 kg drawn 10 deg up, 5 load steps"])
def test_a_cable_with_a_body_clamped_at_its_tip_hangs_straight_down(angle, mass, load_steps):
    """The cable of :func:`clamped_at_tip`, drawn horizontal with a 1 kg rod, drawn 30
    degrees up, with a 2 kg rod, or with a 2 kg rod drawn 10 degrees up in 5 load steps,
    should hang straight down, the rod's centre at ``z = -(L (1 + eps) + 0.2)`` (eps the
    cable's mean stretch, ``(rho A L / 2 + m) g / EA``; bound 1e-7 m), an equilibrium of the
    DAE built here, stable but for one neutral motion (the rod's spin about the vertical,
    which the torsion-free cable does not resist), the cable's slope at the clamp along the
    rod's axis (r' = -(1 + m g / EA) e_z). Before the clamp refused its slope turned over
    (``SpatialProblem.accept``), each returned "ok" on a state where the clamp held the
    slope reversed against the rod (the rod's centre at z = -0.917 m, -0.931 m with 2 kg):
    the first load steps' Newton iterates go 1e6 m out (the horizontal cable's first tangent
    has the bending stiffness EI alone against the weight) and landed there; refused, the
    load steps fail down to the smallest increment, and the damped steps from the drawn
    configuration at the full load reach the hanging state (or the load steps do). In the
    last, the load steps end on a refusal at the smallest increment (measured: the slope at
    the clamp -6e-8 at load factor 0.209), which fails as Newton's failure would, so that
    the damped steps run from there (``step_loads``; before, it stopped the solve, "failed"
    with the refusal as ``Result.error``)."""
    m, tip, EA = clamped_at_tip(angle, mass)
    res = rancf.static(m, load_steps=load_steps)
    assert res.status == "ok", res.message
    stretch = (0.5 * 1.0 / 2.0 + mass) * G / EA
    np.testing.assert_allclose(res.position(tip.centre)[0], [0.0, 0.0, -(1.0 + stretch + 0.2)],
                               rtol=0, atol=1e-7)
    np.testing.assert_allclose(res.extra["cable_nodes"][0][-3:],
                               [0.0, 0.0, -(1.0 + mass * G / EA)], rtol=0, atol=1e-7)
    check_equilibrium(m, res, neutral=1)


def test_a_clamp_holding_the_cable_slope_reversed_is_refused():
    """The clamp's rows ``(A(p) b_i) . r' = 0`` hold with r' along the rod's axis of either
    sign: the model of :func:`clamped_at_tip` as drawn, and with the rod turned half a turn
    about the vertical through the tip (its centre at (0.8, 0, 0), Euler parameters (0, 0,
    0, 1)), satisfy every row to round-off. The compiled kernel's measure of the slope along
    the axis the clamp holds, ``r' . (A(p) (b_1 x b_2))``, against the one written here (the
    tip node's slope on the rod's x axis, scipy's rotation of the Euler parameters; the
    cable's tangent is the rod's x axis as drawn, of unit length): 1 as drawn, -1 turned.
    The loop (statics' stepper, the dynamics' loop) takes the drawn state as a start and
    refuses the turned one, ArithmeticError naming the joint; a load step or time step that
    converges there is cut or fails so (the test above)."""
    from scipy.spatial.transform import Rotation
    from rancf.integrators.static import _static_stepper
    m, tip, _ = clamped_at_tip(0.0, 1.0)
    dae = SpatialDAE(m.build(), *spatial.model_inputs(m))
    drawn = dae.initial_state()[0]
    turned = drawn.copy()
    turned[:7] = [0.8, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0]
    for x, sign in ((drawn, 1.0), (turned, -1.0)):
        assert np.abs(dae.constraint(x, 0.0)).max() <= 1e-15
        p = x[3:7]
        axis = Rotation.from_quat([p[1], p[2], p[3], p[0]]).apply([1.0, 0.0, 0.0])
        held = x[-3:] @ axis
        assert held == pytest.approx(sign, abs=1e-15)
        np.testing.assert_allclose(dae._cable_kernel.held(x), [1.0, held], rtol=0, atol=1e-15)
    stepper = _static_stepper(dae.compiled, 1e-10, 50)
    stepper.start_at_rest(0.0, drawn, np.zeros(dae.n_constraints))
    with pytest.raises(ArithmeticError, match=r"joint 1 \(fixed, at a cable point\).*turned "
                       r"over against the axis the clamp holds \(r' along it -1,"):
        stepper.start_at_rest(0.0, turned, np.zeros(dae.n_constraints))
