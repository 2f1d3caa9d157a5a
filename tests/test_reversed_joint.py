"""A joint written with the ground as child (``add_joint(kind, beam.start, ground_point)``) is
the same joint reversed: parent and child swapped, its coordinate the item's orientation minus
the ground's (the negative of the order written)."""
import numpy as np
import pytest

import rancf


def arm(reversed_, kind="revolute", drive=None, effort=None, angle=0.3):
    """A beam of 1 m hinged at the origin to a ground point of the given angle (rad), under
    gravity, its joint written ground first or (``reversed_``) beam first."""
    m = rancf.Model(gravity=(0.0, -9.81))
    b = m.add_beam(1.0, 3, E=1e8, rho=7800.0, A=1e-4, I=1e-9)
    g = m.ground.point(0.0, 0.0, angle=angle)
    points = (b.start, g) if reversed_ else (g, b.start)
    j = m.add_joint(kind, *points, drive=drive, effort=effort)
    return m, b, j


def slope_angle(res):
    """The orientation of the model's one beam at its start (rad, unwrapped): the angle of its
    slope r', from the stored node coordinates (independent of the joint's bookkeeping)."""
    start = res.nodes[:, 0]
    return np.unwrap(np.arctan2(start[:, 3], start[:, 2]))


def test_reversed_revolute_joint_moves_as_written_the_usual_way():
    effort = lambda t, q, qd: -5.0 * q - 0.1 * qd     # a torsion spring-damper on that q
    runs = {}
    for reversed_ in (False, True):
        m, b, j = arm(reversed_, effort=effort)
        assert j.reversed is reversed_ and j.parent.item is m.ground and j.child.item is b
        runs[reversed_] = (rancf.simulate(m, 0.2, 1e-4, method="rk4", output_every=100), b, j)
    (usual, b, ju), (rev, _, jr) = runs[False], runs[True]
    assert rev.status == "ok" and np.array_equal(rev.nodes, usual.nodes)
    q = rev.joint(jr)[0]
    assert np.array_equal(q, usual.joint(ju)[0])
    # q is the beam's orientation at its start minus the ground point's: the negative of the
    # angle the order written (ground minus beam) would give
    written = 0.3 - slope_angle(rev)
    np.testing.assert_allclose(q, -written, rtol=0, atol=1e-12)
    assert np.ptp(q) > 0.1                             # the arm swings, the test can tell


def test_a_drive_of_a_reversed_joint_prescribes_the_item_minus_the_ground():
    drive = lambda t: (-0.3 + 0.5 * t**2, t, 1.0)      # q(0): the beam's 0 minus the ground's 0.3
    m, b, j = arm(True, drive=drive)
    res = rancf.simulate(m, 0.2, 1e-4, method="rk4", output_every=100)
    assert res.status == "ok"
    # a driven revolute joint clamps the beam's start: its slope turns with the drive, from the
    # ground point's angle 0.3 rad, in the sense of +q
    np.testing.assert_allclose(slope_angle(res), 0.5 * res.t**2, rtol=0, atol=1e-9)


def test_a_loop_closed_onto_the_ground_runs_and_closes():
    """The issue's case: a beam pinned at both ends, the second pin written beam first."""
    def model(reversed_):
        m = rancf.Model(gravity=(0.0, -9.81))
        b = m.add_beam(1.0, 4, E=1e9, rho=7800.0, A=1e-4, I=1e-9)
        m.add_joint("revolute", m.ground.point(0.0, 0.0), b.start)
        far = m.ground.point(1.0, 0.0)
        m.add_joint("revolute", *((b.end, far) if reversed_ else (far, b.end)))
        return m, b
    (m, b), (mu, _) = model(True), model(False)
    res = rancf.simulate(m, 0.05, 1e-3, output_every=1)
    assert (res.method, res.formulation, res.status) == ("generalized-alpha", "dae", "ok")
    assert np.array_equal(res.nodes, rancf.simulate(mu, 0.05, 1e-3, output_every=1).nodes)
    # the beam sags under gravity while its end stays on the far pin
    assert res.position(b.node(2))[-1, 1] < -1e-4
    np.testing.assert_allclose(res.position(b.end), [[1.0, 0.0]] * len(res.t), rtol=0,
                               atol=1e-9)


def test_a_clamp_written_beam_first_is_a_clamp():
    m, b, j = arm(True, kind="fixed")
    res = rancf.simulate(m, 0.05, 1e-4, method="rk4", output_every=50)
    assert j.reversed and res.status == "ok"
    np.testing.assert_allclose(slope_angle(res), 0.0, rtol=0, atol=1e-12)
    assert repr(j) == "Joint(0: fixed reversed, ground.point(0, 0, angle=0.3) -> beam[0].node(0))"


def test_a_rail_is_not_reversed():
    with pytest.raises(ValueError, match="prismatic joint.*rail belongs to the parent"):
        arm(True, kind="prismatic")
