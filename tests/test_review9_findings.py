"""Review 9's findings on the merges e3d5281..b1eb6b8 (statics' damped steps on the spatial
DAE, the curvature rule off a maximum, ``chart_step``, the descent tried first), each a strict
xfail against something independent of the code under review (an analytic equilibrium, the
modes' own eigenproblem).
"""
import numpy as np
import pytest

import rancf
from test_static_dae_mechanisms import at, rod

G = 9.81

#: The apex of test_static_dae_mechanisms.py's triangle and its rods' centres where it hangs:
#: two rigid rods from (0, 0, 0) and (1, 0, 0) to the apex drawn at (0.5, 0.6, 0),
#: hanging in the vertical plane of the pivots, the apex at (0.5, 0, -0.6) (the rods rigid:
#: exact whatever the loads at the apex, all vertical).
HANGING_CENTRES = ([0.25, 0.0, -0.3], [0.75, 0.0, -0.3])


def triangle_with_cable(EA, rho_A, mass):
    """test_static_dae_mechanisms.py's ``triangle(cable=True)`` with the cable's axial
    stiffness ``EA`` (N), its mass per length ``rho_A`` (kg/m) and the rods' ``mass`` (kg)
    as parameters (there 1e5 N, 1 kg/m, 1 kg): the triangle of rods on ball joints (a loop:
    the spatial DAE), a 1 m ANCF cable (4 elements) on a ball joint at the apex, drawn
    horizontal along +y, gravity along -z. Its equilibrium: the triangle hanging in the
    vertical plane of its pivots (:data:`HANGING_CENTRES`), the cable straight down from the
    apex; a family along the rods' two spins."""
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -G))
    P1, P2, B = np.zeros(3), np.array([1.0, 0.0, 0.0]), np.array([0.5, 0.6, 0.0])
    rods = rod(m, P1, B, mass), rod(m, P2, B, mass)
    m.add_joint("spherical", m.ground.point(*P1), at(rods[0], P1))
    m.add_joint("spherical", m.ground.point(*P2), at(rods[1], P2))
    m.add_joint("spherical", at(rods[0], B), at(rods[1], B))
    A = 1e-4
    c = m.add_beam(1.0, 4, E=EA / A, rho=rho_A / A, A=A, I=1e-3 * A / 1e5, start=B,
                   direction=(0.0, 1.0, 0.0), element="ancf-cable")
    m.add_joint("spherical", at(rods[0], B), c.start)
    return m, rods, c


@pytest.mark.parametrize("EA, rho_A, mass", [(1e9, 1.0, 1.0), (1e9, 0.01, 0.01),
                                              (1e11, 0.01, 1.0)])
def test_a_stiff_cable_on_the_triangle_hangs_to_the_loops_tolerance(EA, rho_A, mass):
    """The triangle with a stiff cable of axial stiffness ``EA`` (N), ``rho_A`` (kg/m), on
    rods of ``mass`` (kg): the same equilibrium as test_static_dae_mechanisms.py's at EA =
    1e5 N, the rods' centres at :data:`HANGING_CENTRES` to that test's bound, 1e-9 m (the
    loop's tolerance, 1e-10 of the size; the rods are rigid, so the bound holds whatever the
    cable). The cable's tip at ``(0.5, 0, -0.6 - (L + rho A g L^2 / (2 EA)))`` to 1e-9 m
    too (the strain measure's second order ``eps^2 L`` is 1e-16 m at eps = 1e-8).

    - EA 1e9 N, 1 kg/m, rods of 1 kg: the stiff cable of review 9.
    - EA 1e9 N, 0.01 kg/m, rods of 0.01 kg (the cable's stretch by its weight 5e-11, E / rho
      1e11 m^2/s^2, 4000 times steel's): scaled from the passing EA = 1e7 N, it differs only
      in the ratio of the cable's stretch stiffness to the weights. Before, the damped steps
      stalled: the first straight step stretched the cable (residual 3.5e4 N from 0.14 N),
      mu rose 500-fold and then alternated between 2.4e4 and 2.4e5 1/s^2, the residual
      between 0.25 and 25 N (rancf/integrators/static.py ``_damped_newton``: such a step is
      now solved).
    - EA 1e11 N, 0.01 kg/m, rods of 1 kg (E / rho 1e13 m^2/s^2): it failed as the light
      rods did."""
    m, rods, c = triangle_with_cable(EA, rho_A, mass)
    res = rancf.static(m)
    assert res.status == "ok", res.message
    for body, centre in zip(rods, HANGING_CENTRES):
        np.testing.assert_allclose(res.position(body.centre)[0], centre, rtol=0, atol=1e-9)
    np.testing.assert_allclose(res.position(c.end)[0],
                               [0.5, 0.0, -0.6 - (1.0 + rho_A * G / (2.0 * EA))], rtol=0,
                               atol=1e-9)


def cable_on_ball(EA, rho_A):
    """:func:`triangle_with_cable`'s cable (1 m, 4 ANCF cable elements, axial stiffness
    ``EA`` (N), ``rho_A`` (kg/m)) alone, on a ball joint at the origin, drawn horizontal along
    +y, gravity along -z: a tree, solved on the recursion (its statics runs GMRES on the
    residual's differences: a cable takes it off the direct matrix). Its equilibrium:
    straight down, the tip at ``(0, 0, -(L + rho A g L^2 / (2 EA)))`` (each section
    stretched by the weight below it)."""
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -G))
    A = 1e-4
    c = m.add_beam(1.0, 4, E=EA / A, rho=rho_A / A, A=A, I=1e-3 * A / 1e5,
                   start=(0.0, 0.0, 0.0), direction=(0.0, 1.0, 0.0), element="ancf-cable")
    m.add_joint("spherical", m.ground.point(0.0, 0.0, 0.0), c.start)
    return m, c


@pytest.mark.parametrize("EA", [1e9, 1e11])
def test_a_light_stiff_cable_on_a_ball_joint_hangs_to_its_stretch(EA):
    """:func:`cable_on_ball` at ``EA`` (N) and 0.01 kg/m (E / rho 1e11 and 1e13 m^2/s^2):
    the tip at its analytic stretch, bound 1e-9 m. Before the damped steps solved a step
    whose residual was its chord's error, statics failed at EA 1e9 N (the 500 damped steps
    allowed stalled), as at EA 1e7 N and at 1 kg/m.

    At EA 1e11 N it stalled after that too (a strict xfail, 513 damped iterations): GMRES's
    products were central differences of the residual, whose error along the cable's rigid
    swing, ``EA h^2 / 2`` at the step h = 2e-6 m (the stretch ``|r'| - 1`` quadratic in the
    turn), is a false tension of 0.2 N, twice the cable's weight: each Newton step's curvature
    along the swing was 75 to 88 1/s^2 where the residual's own differences gave 14 to 21
    (``3 g cos(theta) / (2 L)``, 13.6 at 0.38 rad), each step turned it by a sixth of the
    angle left, and the steps solved near the end took up to 31 iterations or failed after
    50. With differences of fourth order (rancf/formulations/_spatial_implicit.pyx,
    ``_jacobian_action``) it hangs in 80 damped iterations."""
    rho_A = 0.01
    m, c = cable_on_ball(EA, rho_A)
    res = rancf.static(m)
    assert res.status == "ok", res.message
    np.testing.assert_allclose(res.position(c.end)[0],
                               [0.0, 0.0, -(1.0 + rho_A * G / (2.0 * EA))], rtol=0, atol=1e-9)


def rssr_four_bar(phi):
    """A spatial four-bar of three 1 kg rods (rod's inertia): a crank from the ground point
    (0, 0, 0) and a rocker from (1, 0, 0), both 0.5 m on revolute joints about y, joined by
    a 1 m coupler on ball joints at both ends, drawn with crank and rocker at ``phi`` (rad)
    from +x in the x-z plane (a parallelogram), gravity along -z. The coupler spins freely
    about the line of its two ball joints (no stiffness, no load: a family of equilibria at
    every state). Its least potential: crank and rocker hanging straight down, the centres
    at (0, 0, -0.25), (0.5, 0, -0.5), (1, 0, -0.25)."""
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -G))
    O, Q = np.zeros(3), np.array([1.0, 0.0, 0.0])
    u = 0.5 * np.array([np.cos(phi), 0.0, np.sin(phi)])
    A, B = O + u, Q + u
    crank, coupler, rocker = rod(m, O, A, 1.0), rod(m, A, B, 1.0), rod(m, Q, B, 1.0)
    m.add_joint("revolute", m.ground.point(*O), at(crank, O), axis=(0.0, 1.0, 0.0))
    m.add_joint("spherical", at(crank, A), at(coupler, A))
    m.add_joint("revolute", m.ground.point(*Q), at(rocker, Q), axis=(0.0, 1.0, 0.0))
    m.add_joint("spherical", at(rocker, B), at(coupler, B))
    return m, (crank, coupler, rocker)


def test_the_rssr_four_bar_reached_by_the_damped_steps_is_called_a_family():
    """Drawn 1e-3 rad above horizontal, the load steps fail and the damped steps reach the
    hanging state (its centres exact, bound 1e-9 m). The coupler's spin about the line of
    its ball joints is free at every state (structural: no stiffness, no load along it), so
    the equilibria are a family; rancf.modes (its own eigenproblem) lists it as a rigid mode.
    docs/user_guide/statics.rst: "the result is one of them and its message says so"."""
    m, bodies = rssr_four_bar(1e-3)
    res = rancf.static(m)
    assert res.status == "ok" and "damped Newton iterations" in res.message, res.message
    for body, centre in zip(bodies, ([0.0, 0.0, -0.25], [0.5, 0.0, -0.5], [1.0, 0.0, -0.25])):
        np.testing.assert_allclose(res.position(body.centre)[0], centre, rtol=0, atol=1e-9)
    assert rancf.modes(m, n=2).rigid.sum() == 1
    assert "family of equilibria" in res.message, res.message


def test_a_model_with_no_equilibrium_says_the_damped_steps_were_tried():
    """A 1 m beam on a free pin under a 3.8 N m moment at its end, no gravity (test_static.py's
    model without an equilibrium: nothing resists the turn, analytically). The load steps
    fail and so do the damped steps after them; the message says both (review 9: it said
    only that the load steps failed and that no equilibrium lies near the drawn
    configuration, which the damped steps, when they stall, do not establish)."""
    m = rancf.Model(gravity=(0.0, 0.0))
    b = m.add_beam(1.0, 4, E=2e9, rho=7800.0, A=1e-4, I=1e-9)
    m.add_joint("revolute", m.ground.point(0.0, 0.0), b.start)
    m.add_force(b.end, moment=3.8)
    res = rancf.static(m)
    assert res.status == "failed", res.message
    assert "damped Newton steps (K + mu M) tried at the full load" in res.message, res.message
    assert "near the drawn configuration" not in res.message, res.message
