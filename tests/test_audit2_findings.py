"""Defects found by the second audit of the public API (modes, planar statics, sweeps, the
reduced model, result files and drawings), each a failing test marked ``xfail(strict=True)``
with the defect named: the fix turns it into a pass and the strict mark into a failure that
asks to remove it. Each compares against something independent of the code under test: a
closed form, or the library's own documented promise checked by a second route."""
import numpy as np
import pytest

import rancf

G = 9.81


@pytest.mark.xfail(strict=True, reason="defect: rancf.modes reports a steel beam pendulum's "
                   "swing (0.61 Hz) as a rigid-body mode of 0 Hz once the mesh is fine (64 "
                   "elements): RIGID_BODY = 1e-12 of the largest omega^2 (the axial modes, "
                   "which grow as 1/h^2) exceeds gravity's omega^2 = 3 g / (2 L)")
def test_modes_of_a_fine_pendulum_beam_keep_its_gravity_frequency():
    """A 1 m steel beam (rho A = 7.8 kg/m, EI = 2e4 N m^2) hanging from a pin: its lowest mode
    is the swing of a rigid bar, ``omega^2 = (m g L / 2) / (m L^2 / 3) = 3 g / (2 L)``
    (0.6105 Hz), the bending correction ``(0.61 / 124)^2 ~ 2e-5`` below it. 8 to 32
    elements give 0.61052 Hz; 64 must too (to 1e-4: the mesh changes it by less than 1e-6).
    Gravity resists the swing, so it is not a zero-frequency mode; the dense eigensolver's
    error, 1e-16 of the largest omega^2 (about 1.5e13 (rad/s)^2 here), is 1e-3 (rad/s)^2,
    four orders below the swing's 14.7."""
    m = rancf.Model(gravity=(0.0, -G))
    b = m.add_beam(1.0, 64, E=2e11, rho=7800.0, A=1e-3, I=1e-7, angle=-np.pi / 2)
    m.add_joint("revolute", m.ground.point(0.0, 0.0), b.start)
    found = rancf.modes(m, n=2)
    exact = np.sqrt(1.5 * G / 1.0) / (2 * np.pi)
    assert not found.rigid[0]
    assert abs(found.frequencies[0] / exact - 1.0) < 1e-4


@pytest.mark.xfail(strict=True, reason="defect: planar rancf.static returns status 'ok' and an "
                   "empty message for an unstable equilibrium (a rigid body balanced upright "
                   "on a free pin; a parallelogram four-bar standing up on a weak spring), "
                   "which rancf.modes then refuses as unstable; state='static' starts runs "
                   "from it")
@pytest.mark.parametrize("case", ["upright-body", "four-bar"])
def test_static_does_not_report_an_unstable_equilibrium_as_ok(case):
    """Two planar mechanisms whose reference configuration is an equilibrium that gravity
    makes unstable, checked by the potential energy's second derivative along the one motion
    the joints allow: a 1 kg body standing on a free pin, its centre 0.5 m above it
    (``V'' = -m g l = -4.9 N m``), and a parallelogram of three 1 m steel bars of 7.8 kg
    standing upright with a 50 N m/rad spring at its crank (``V'' = k - 2 m g = -103 N m``,
    the bars rigid: their bending only lowers it). Statics finds *an* equilibrium (the
    docs), but one that the least disturbance leaves must not read as a plain success: the
    status or the message must say it is unstable (or statics must find a stable one)."""
    m = rancf.Model(gravity=(0.0, -G))
    if case == "upright-body":
        body = m.add_rigid_body(mass=1.0, inertia=0.01, position=(0.0, 0.5))
        m.add_joint("revolute", m.ground.point(0.0, 0.0), body.point(0.0, -0.5))
    else:
        kw = dict(E=2e11, rho=7800.0, A=1e-3, I=1e-7)
        left = m.add_beam(1.0, 2, angle=np.pi / 2, **kw)
        top = m.add_beam(1.0, 2, start=(0.0, 1.0), **kw)
        right = m.add_beam(1.0, 2, start=(1.0, 0.0), angle=np.pi / 2, **kw)
        crank = m.add_joint("revolute", m.ground.point(0.0, 0.0), left.start)
        m.add_joint("revolute", left.end, top.start)
        m.add_joint("revolute", top.end, right.end)
        m.add_joint("revolute", m.ground.point(1.0, 0.0), right.start)
        m.add_rotational_spring_damper(crank, 50.0)
    res = rancf.static(m)
    assert res.status != "ok" or "unstable" in res.message
