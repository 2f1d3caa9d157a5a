"""Three mechanisms a new user writes first (issue 25): a flexible double pendulum, a two-link
flexible arm with motors and a payload, and a cantilever, each built as the README teaches and
run from ``method="auto"`` (and ``state="static"`` where it applies), each checked against
something independent of the code: the energy balance and the DAE formulation, the static
moment of the arm's weights about its motors, and beam theory's tip deflection."""
import numpy as np
import pytest

import rancf

G = 9.81                          # m/s^2
RHO, AREA = 2700.0, 1e-4          # aluminium, kg/m^3 and m^2: 0.27 kg/m


def double_pendulum(angle):
    """Two 1 m flexible links on free revolute joints, drawn straight at ``angle`` (rad)."""
    m = rancf.Model(gravity=(0.0, -G))
    along = np.array([np.cos(angle), np.sin(angle)])
    upper = m.add_beam(length=1.0, n_elements=4, E=2e9, rho=RHO, A=AREA, I=1e-9, angle=angle)
    lower = m.add_beam(length=1.0, n_elements=4, E=2e9, rho=RHO, A=AREA, I=1e-9,
                       start=tuple(along), angle=angle)
    m.add_joint("revolute", m.ground.point(0.0, 0.0), upper.start)
    m.add_joint("revolute", upper.end, lower.start)
    return m, lower


def test_a_double_pendulum_released_horizontal_keeps_its_energy_and_agrees_with_the_dae():
    """Released from horizontal, the pendulum falls through large angles: its energy balance
    (a conservation law) closes to generalized-alpha's numerical dissipation at rho_inf 0.9,
    and the recursive run's tip follows the DAE's (a second formulation)."""
    m, lower = double_pendulum(0.0)
    res = rancf.simulate(m, 1.0, 1e-3)
    assert res.status == "ok", res.message
    assert res.method in ("rk4", "generalized-alpha") and res.message
    # energy_drift is relative to the largest kinetic energy (about 10 J here)
    assert res.energy_drift() < 1e-4
    dae = rancf.simulate(m, 1.0, 1e-3, method=res.method if res.method != "rk4"
                         else "generalized-alpha", formulation="dae")
    assert dae.status == "ok", dae.message
    # the two formulations' time errors differ: 1 mm on a 2 m pendulum that falls 2 m
    assert np.abs(res.position(lower.end) - dae.position(lower.end)).max() < 1e-3


@pytest.mark.parametrize("angle", [0.0, -np.pi / 2])
def test_a_double_pendulum_starts_hanging_whether_drawn_horizontal_or_hanging(angle):
    """A free joint under gravity alone is held only hanging, a quarter turn from the
    horizontal drawing: out of plain Newton's reach, which statics' damped steps (K + mu M,
    rancf/integrators/static.py) reach. Drawn either way, the static start is the hanging
    pendulum, stretched by its weight, and stays at rest."""
    m, lower = double_pendulum(angle)
    res = rancf.simulate(m, 0.2, 1e-3, state="static")
    assert res.status == "ok", res.message
    # the tip hangs 2 m below the pin, lower by the links' stretch under their weight:
    # int_0^2 w (2 - s) / EA ds over both links (w = rho A g per metre, EA = 2e5 N)
    stretch = RHO * AREA * G * 2.0**2 / 2.0 / (2e9 * AREA)
    np.testing.assert_allclose(res.position(lower.end),
                               np.tile([0.0, -2.0 - stretch], (len(res.t), 1)), atol=1e-9)


def test_a_two_link_arm_with_motors_and_a_payload_holds_its_weights_from_rest():
    """Two stiff 0.5 m links held horizontal by two motors, a 0.4 kg payload welded at the
    tip: started from the static equilibrium the arm stays at rest, and each motor's torque
    is the static moment of the weights outboard of it (links at their midpoints, the payload
    at the tip; the arm's sag, 2.3e-3 of its length, shortens the moment arms by a relative
    amount of its square's order, 1e-5)."""
    L, payload = 0.5, 0.4
    m = rancf.Model(gravity=(0.0, -G))
    upper = m.add_beam(length=L, n_elements=4, E=7e10, rho=RHO, A=AREA, I=1e-8)
    lower = m.add_beam(length=L, n_elements=4, E=7e10, rho=RHO, A=AREA, I=1e-8, start=(L, 0.0))
    shoulder = m.add_joint("revolute", m.ground.point(0.0, 0.0), upper.start,
                           drive=lambda t: (0.0, 0.0, 0.0))
    elbow = m.add_joint("revolute", upper.end, lower.start, drive=lambda t: (0.0, 0.0, 0.0))
    body = m.add_rigid_body(mass=payload, inertia=1e-4, position=(2 * L, 0.0))
    m.add_joint("fixed", lower.end, body.centre)
    res = rancf.simulate(m, 0.5, 1e-3, state="static")
    assert res.status == "ok", res.message
    assert res.message
    link = RHO * AREA * L * G                                  # N, one link's weight
    np.testing.assert_allclose(res.reaction(elbow, "torque"),
                               link * L / 2 + payload * G * L, rtol=1e-4)
    np.testing.assert_allclose(res.reaction(shoulder, "torque"),
                               link * L / 2 + link * 3 * L / 2 + payload * G * 2 * L, rtol=1e-4)
    # at rest: the payload stays where statics put it
    drift = res.position(body.centre) - res.position(body.centre)[0]
    assert np.abs(drift).max() < 1e-9


def test_a_cantilever_starts_at_its_beam_theory_deflection_and_stays_there():
    """A steel cantilever clamped at the ground under a tip force: the static start's tip
    deflection is beam theory's P L^3 / (3 E I) plus the sag of its own weight,
    w L^4 / (8 E I) (deflection / L = 1.4e-3: the nonlinear terms are of order 1e-6), and the
    run from it stays at rest."""
    L, E, A, I, P = 1.0, 2.1e11, 1e-4, 1e-8, 6.0
    m = rancf.Model(gravity=(0.0, -G), elastic_model="reissner")
    beam = m.add_beam(length=L, n_elements=8, E=E, rho=7800.0, A=A, I=I)
    m.add_joint("fixed", m.ground.point(0.0, 0.0), beam.start)
    m.add_force(beam.end, force=(0.0, -P))
    res = rancf.simulate(m, 0.05, 1e-4, state="static")
    assert res.status == "ok", res.message
    assert res.message
    w = 7800.0 * A * G
    expected = P * L**3 / (3 * E * I) + w * L**4 / (8 * E * I)
    tip = res.position(beam.end)
    assert -tip[0, 1] == pytest.approx(expected, rel=1e-4)
    assert np.abs(tip - tip[0]).max() < 1e-3 * expected
