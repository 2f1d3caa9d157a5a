"""The spatial DAE's Newton matrix takes an effort function's own slopes (``de/dq``,
``de/dq'`` through the joint coordinates' derivatives in the absolute coordinates,
``SpatialDAE._effort_tangents``), so that its statics solves a joint held by an effort function
alone, as the spatial recursion's does. Each test compares against a value found without the
code under test: a closed form, a brentq root of a moment balance (Newton's matrix against
central differences of the whole force: test_spatial_dae_forces)."""
import numpy as np
import pytest
from scipy.optimize import brentq

import rancf
from rancf.integrators.static import _spatial_dae_static
from test_audit5_findings import ARM, G, K, effort_held_rod
from test_spatial_dae_forces import four_bar
from validation.spherical_four_bar import SphericalFourBar, rotation


@pytest.mark.parametrize("kind", ["revolute", "spherical", "prismatic"])
def test_dae_statics_finds_the_equilibrium_of_a_joint_held_by_an_effort(kind):
    """audit5's rods on the spatial DAE's statics (before: refused as "a mechanism: joint 0
    ... no stiffness, spring, drive or effort holds it"): ``K q = m g l cos q`` (brentq), the
    spherical joint's rotation vector along y, the prismatic joint at ``-m g / K``. Newton's
    tolerance (1e-10 of the model's size) bounds the error far below 1e-8."""
    m, joint = effort_held_rod(kind)
    sol = _spatial_dae_static(m, 10, 1e-10, 50)
    assert sol.status == "ok", sol.message
    assert sol.formulation == "dae"
    if kind == "prismatic":
        expected = [-G / K]
    else:
        angle = brentq(lambda a: K * a - G * ARM * np.cos(a), 0.0, 1.0)
        expected = [angle] if kind == "revolute" else [0.0, angle, 0.0]
    np.testing.assert_allclose(sol.joint_q[-1], expected, rtol=0, atol=1e-8)


@pytest.mark.parametrize("kind", ["revolute", "spherical"])
def test_dae_statics_of_a_cable_hung_from_an_effort_held_rod(kind):
    """audit5's rod (its joint held by the effort ``-K q`` alone) with a cable of mass m_c hung
    by a ball joint at its far end (2 ARM from the joint; the cable's end on the ball, the
    DAE's joint at a cable point): the cable hangs straight, its weight a vertical force on
    the tip, so ``K q = g cos q (m ARM + m_c 2 ARM)`` (brentq), whatever the cable's stretch.
    On the DAE's statics directly (the recursion runs this tree too); the bound as for the
    rod alone."""
    m, joint = effort_held_rod(kind)
    rod = m.rigid_bodies[0]
    rho, A, L = 500.0, 1e-4, 0.8
    cable = m.add_beam(L, 4, E=1e8, rho=rho, A=A, I=1e-10, element="ancf-cable",
                       start=(2 * ARM, 0.0, -L), direction=(0.0, 0.0, 1.0))
    m.add_joint("spherical", rod.point(ARM, 0.0, 0.0), cable.end)
    sol = _spatial_dae_static(m, 10, 1e-10, 50)
    assert sol.status == "ok", sol.message
    angle = brentq(lambda a: K * a - G * np.cos(a) * (ARM + rho * A * L * 2 * ARM), 0.0, 1.0)
    q = sol.joint_q[-1][[0]] if kind == "revolute" else sol.joint_q[-1][:3]
    expected = [angle] if kind == "revolute" else [0.0, angle, 0.0]
    np.testing.assert_allclose(q, expected, rtol=0, atol=1e-8)


def test_a_joint_nothing_holds_is_still_a_mechanism_on_the_dae():
    """The rod without its effort, under a moment about its axis that nothing resists (no
    gravity: under gravity it has an equilibrium, hanging, which the damped steps after the
    load steps reach): no equilibrium at all, and the DAE's statics still names the free
    joint."""
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, 0.0))
    rod = m.add_rigid_body(1.0, np.diag([1e-4, 0.03, 0.03]), position=(ARM, 0.0, 0.0))
    m.add_joint("revolute", m.ground.point(0.0, 0.0, 0.0), rod.point(-ARM, 0.0, 0.0),
                axis=(0.0, 1.0, 0.0))
    m.add_force(rod.centre, moment=(0.0, G * ARM, 0.0))
    sol = _spatial_dae_static(m, 10, 1e-10, 50)
    assert sol.status == "failed"
    assert "a mechanism: joint 0 (revolute) turns freely" in sol.message, sol.message


def four_bar_potential(theta, on_crank, k):
    """The spherical four-bar's (tests/test_spatial_dae_forces.py, without its springs)
    potential at the crank angle theta: the rods' weights (masses 1, 1.5, 1.2 kg, centres the
    midpoints of A-B, B-C, D-C with ``u_B = R(u_A, theta) u_B0``, ``u_C = R(u_D, phi) u_C0``,
    phi the closed-form output) plus ``k c^2 / 2`` of the effort ``-k c`` on the crank's angle
    (c = theta) or the rocker's (c = phi)."""
    fb = SphericalFourBar()
    phi = fb.output([theta])[0]
    B = fb.R * rotation(fb.uA, theta) @ fb.uB
    Cp = fb.R * rotation(fb.uD, phi) @ fb.uC
    z = [(fb.P["A"] + B)[2] / 2, (B + Cp)[2] / 2, (fb.P["D"] + Cp)[2] / 2]
    c = theta if on_crank else phi
    return 9.81 * np.dot([1.0, 1.5, 1.2], z) + 0.5 * k * c ** 2


@pytest.mark.parametrize("on_crank", [True, False], ids=["tree-joint", "loop-closing-joint"])
def test_static_four_bar_held_by_an_effort_balances_its_weight(on_crank):
    """The spherical four-bar (a closed loop: statics runs the DAE) under gravity, held only by
    the effort ``-k q`` on the crank's revolute (a joint of the tree) or on the rocker's (the
    one that closes the loop): the crank angle where the potential's derivative (central
    differences of the closed form, step 1e-5: error ~1e-10 of its terms) vanishes, by brentq.
    The bound 1e-7 rad: that derivative's error over the potential's curvature (~k). With the
    effort's slope in Newton's matrix the 10 load steps need no cut and converge from the last
    equilibrium in 2 iterations a step at most (quadratic convergence; with the value held,
    the loop-closing case took 37 iterations and a cut, the tree-joint case failed)."""
    k = 20.0
    effort = lambda t, q, qd: -k * q
    m, a, d = four_bar(True, None if on_crank else effort, springs=False,
                       crank_effort=effort if on_crank else None)
    eq = rancf.static(m)
    assert eq.status == "ok", eq.message
    assert eq.formulation == "dae"
    assert eq.stats["load_step_cuts"] == 0 and eq.stats["newton_iterations"] <= 2 * 10
    h = 1e-5
    slope = lambda th: (four_bar_potential(th + h, on_crank, k)
                        - four_bar_potential(th - h, on_crank, k)) / (2 * h)
    theta = float(eq.joint(a)[0][-1])
    expected = brentq(slope, theta - 0.3, theta + 0.3)
    assert abs(theta) > 0.02                         # the weight turned it
    assert abs(theta - expected) <= 1e-7, (theta, expected)
