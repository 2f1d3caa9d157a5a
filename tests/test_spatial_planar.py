"""Planar consistency: a spatial model that moves in a plane, the plane turned arbitrarily in
space, follows the planar model with the Reissner element (``rancf.Model(elastic_model=
"reissner")``), both converged in mesh and step.

The two are different discretizations of the same beam: the spatial element (Timoshenko on the
SE(3) strain, here ``shear=False``: its Euler-Bernoulli limit, which the planar Reissner element
has) with masses lumped at the nodes, the planar one with its own consistent mass. They agree
only in the limit of the mesh, so the checks are on how their difference shrinks, measured
first (the RANCF paper's pendulum, scaled down to 1 m to run in seconds, every run through the
public API):

======  ==========================  ============================================
n       max |tip difference| (m)    Richardson ``(4 e_2n - e_n) / 3`` (m)
======  ==========================  ============================================
4       1.470e-2
8       3.712e-3 (ratio 3.96)       4.14e-4 (from 4 and 8)
16      9.52e-4  (ratio 3.90)       7.47e-5 (from 8 and 16)
======  ==========================  ============================================

The difference falls like n^-2 (both elements are second order, the lumped mass included:
DESIGN.md 7), and what is left of it once the n^-2 term is taken out (the Richardson column: what
would remain in the limit if the two converged to different motions) is 8 % of the difference at
16 elements and falls by 5.5 from one pair to the next. Pass lines, from these orders: each
halving divides the difference by at least 3.5 (an order above 1.8), the difference at 16
elements (the finest both run within about 10 s) is below 1.5e-3 m (0.15 % of the length: the
n^-2 line through the coarsest mesh, 1.47e-2 / 16 = 9.2e-4, with a margin for the next term),
and the Richardson remainder is below a fifth of it. Both run generalized-alpha at 0.1 ms:
against RK4 at 0.02 ms the planar tip differs by at most 6.8e-7 m and the spatial one by 1.4e-7
m at 16 elements, far below the differences of the mesh.

Out of the plane the spatial motion stays at round-off: by symmetry nothing drives it, and RK4
keeps it there (1.2e-16 m measured over 0.3 s; an implicit run keeps it at its Newton tolerance,
1e-8 m, instead).
"""
import numpy as np
import pytest
from scipy.spatial.transform import Rotation

import rancf

L, SIDE, E, RHO, G = 1.0, 0.01, 2e9, 7800.0, 9.81
AREA, INERTIA = SIDE**2, SIDE**4 / 12
#: The plane's turn: an arbitrary rotation (columns: the images of the planar x, y and the
#: plane's normal), fixed so that the test is repeatable.
TURN = Rotation.random(random_state=7).as_matrix()


def planar_pendulum(n):
    """The planar beam of ``n`` Reissner elements, pinned at its start, released horizontally
    under gravity along -y."""
    m = rancf.Model(gravity=(0.0, -G), elastic_model="reissner")
    b = m.add_beam(L, n, E=E, rho=RHO, A=AREA, I=INERTIA)
    m.add_joint("revolute", m.ground.point(0.0, 0.0), b.start)
    return m, b


def spatial_pendulum(n, start=(0.3, -0.2, 0.5)):
    """The same beam in space: every position, direction, ``up`` and gravity turned by
    :data:`TURN` (the pin at ``start``, itself turned), the revolute axis the plane's normal,
    bending in the plane about the section's z axis (``I_z`` the planar I), Euler-Bernoulli
    (``shear=False``)."""
    origin = TURN @ np.asarray(start)
    m = rancf.Model(dim=3, gravity=TURN @ [0.0, -G, 0.0])
    b = m.add_beam(L, n, E=E, rho=RHO, A=AREA, I=(INERTIA, INERTIA), J=2 * INERTIA,
                   G=E / 2.6, shear=False, start=origin, direction=TURN @ [1.0, 0.0, 0.0],
                   up=TURN @ [0.0, 1.0, 0.0])
    m.add_joint("revolute", m.ground.point(*origin), b.start, axis=TURN @ [0.0, 0.0, 1.0])
    return m, b, origin


def in_plane(res, point, origin):
    """A spatial point's trajectory in the plane's coordinates (n_out, 3): ``TURN^T (p - o)``,
    the planar x, y and the distance from the plane."""
    return (res.position(point) - origin) @ TURN


def test_a_pendulum_turned_in_space_follows_the_planar_reissner_model():
    """The tip's difference from the planar model falls like n^-2 and converges to zero (the
    module docstring gives the measurements and the pass lines)."""
    diff = {}
    for n in (4, 8, 16):
        mp, bp = planar_pendulum(n)
        ms, bs, origin = spatial_pendulum(n)
        rp = rancf.simulate(mp, 0.3, 1e-4, method="generalized-alpha", output_every=50)
        rs = rancf.simulate(ms, 0.3, 1e-4, method="generalized-alpha", output_every=50)
        assert rp.status == rs.status == "ok", (rp.message, rs.message)
        diff[n] = in_plane(rs, bs.end, origin)[:, :2] - rp.position(bp.end)
    size = {n: float(np.abs(e).max()) for n, e in diff.items()}
    assert size[4] / size[8] > 3.5 and size[8] / size[16] > 3.5, size
    assert size[16] < 1.5e-3 * L, size
    remainder = float(np.abs((4.0 * diff[16] - diff[8]) / 3.0).max())
    assert remainder < 0.2 * size[16], (remainder, size)


def test_the_pendulum_stays_in_its_plane_to_round_off():
    """RK4 (no Newton tolerance in the way): the tip's distance from the plane and the
    angular velocity's part in it stay at round-off over 0.3 s (measured 1.2e-16 m)."""
    ms, bs, origin = spatial_pendulum(4)
    rs = rancf.simulate(ms, 0.3, 2e-5, method="rk4", output_every=500)
    assert rs.status == "ok", rs.message
    tip = in_plane(rs, bs.end, origin)
    assert np.abs(tip[:, :2] - tip[0, :2]).max() > 0.5          # it swings
    assert np.abs(tip[:, 2]).max() < 1e-14 * L
    w = rs.angular_velocity(bs.end) @ TURN
    assert np.abs(w[:, :2]).max() < 1e-12 * np.abs(w[:, 2]).max()


def arm_drive(t):
    """The shoulder's prescribed angle (rad) and its rates: ``4 t^3``, starting at rest."""
    return (4.0 * t**3, 12.0 * t**2, 24.0 * t)


def planar_arm(n):
    """Two beams of 0.5 m and ``n`` Reissner elements each: the shoulder driven
    (:func:`arm_drive`), the elbow free with a torsion spring of 2 N m/rad."""
    m = rancf.Model(gravity=(0.0, -G), elastic_model="reissner")
    b1 = m.add_beam(0.5, n, E=E, rho=RHO, A=AREA, I=INERTIA)
    b2 = m.add_beam(0.5, n, E=E, rho=RHO, A=AREA, I=INERTIA, start=(0.5, 0.0))
    m.add_joint("revolute", m.ground.point(0.0, 0.0), b1.start, drive=arm_drive)
    m.add_joint("revolute", b1.end, b2.start, effort=lambda t, q, qd: -2.0 * q)
    return m, b2


def spatial_arm(n, start=(0.3, -0.2, 0.5)):
    """The same arm turned by :data:`TURN` (as :func:`spatial_pendulum`)."""
    origin = TURN @ np.asarray(start)
    m = rancf.Model(dim=3, gravity=TURN @ [0.0, -G, 0.0])
    beam = dict(E=E, rho=RHO, A=AREA, I=(INERTIA, INERTIA), J=2 * INERTIA, G=E / 2.6,
                shear=False, direction=TURN @ [1.0, 0.0, 0.0], up=TURN @ [0.0, 1.0, 0.0])
    b1 = m.add_beam(0.5, n, start=origin, **beam)
    b2 = m.add_beam(0.5, n, start=origin + TURN @ [0.5, 0.0, 0.0], **beam)
    normal = TURN @ [0.0, 0.0, 1.0]
    m.add_joint("revolute", m.ground.point(*origin), b1.start, axis=normal, drive=arm_drive)
    m.add_joint("revolute", b1.end, b2.start, axis=normal, effort=lambda t, q, qd: -2.0 * q)
    return m, b2, origin


def test_a_driven_arm_turned_in_space_follows_the_planar_reissner_model():
    """A two-link arm whose shoulder is driven (the tip travels 0.53 m in 0.3 s): the tip's
    difference falls like n^-2 (measured 2.14e-2, 5.49e-3, 1.45e-3 m at 2, 4, 8 elements a
    beam: ratios 3.90, 3.80; Richardson remainder 1.7e-3, then 1.45e-4 = 0.10 of the difference
    at 8), and so does the difference of the work of the drive and the spring (the two
    formulations integrate it each its own way: 2.98e-2, 1.01e-2, 2.77e-3 J of a work of
    0.14 J, ratios 2.9, 3.65). Pass lines as for the pendulum (module docstring): halving ratios
    above 3.5, the difference at 8 elements below 2e-3 m (the n^-2 line through the coarsest
    mesh: 1.34e-3), the remainder below a fifth of it; the work's last ratio above 3 and its
    difference below 3 % of the work."""
    tip, work = {}, {}
    for n in (2, 4, 8):
        mp, bp = planar_arm(n)
        ms, bs, origin = spatial_arm(n)
        rp = rancf.simulate(mp, 0.3, 1e-4, method="generalized-alpha", output_every=50)
        rs = rancf.simulate(ms, 0.3, 1e-4, method="generalized-alpha", output_every=50)
        assert rp.status == rs.status == "ok", (rp.message, rs.message)
        tip[n] = in_plane(rs, bs.end, origin)[:, :2] - rp.position(bp.end)
        work[n] = rs.energy().work.values - rp.energy().work.values
        scale = float(np.abs(rp.energy().work).max())
    size = {n: float(np.abs(e).max()) for n, e in tip.items()}
    assert size[2] / size[4] > 3.5 and size[4] / size[8] > 3.5, size
    assert size[8] < 2e-3, size
    remainder = float(np.abs((4.0 * tip[8] - tip[4]) / 3.0).max())
    assert remainder < 0.2 * size[8], (remainder, size)
    gap = {n: float(np.abs(w).max()) for n, w in work.items()}
    assert gap[4] / gap[8] > 3.0 and gap[8] < 0.03 * scale, (gap, scale)
