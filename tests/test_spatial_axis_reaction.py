"""``Result.reaction(joint, "torque")`` of spatial revolute and prismatic joints: the reaction
projected on the joint's axis as it turns with the parent, checked against closed-form inverse
dynamics, against the spatial DAE (a second formulation), and against the work-energy balance."""

import numpy as np
import pytest

import rancf


def cycloidal(Q, T):
    """Rest-to-rest motion by Q in T: (q, qd, qdd) at t."""
    def drive(t):
        if t >= T:
            return Q, 0.0, 0.0
        s = 2 * np.pi * t / T
        return (Q * (t / T - np.sin(s) / (2 * np.pi)), Q / T * (1 - np.cos(s)),
                Q * 2 * np.pi / T**2 * np.sin(s))
    return drive


def test_revolute_torque_is_inertia_about_the_axis_times_qdd():
    """A body turned about a tilted fixed axis a through its pivot, no gravity: the motor torque
    is ``(a . J a + m d^2) qdd``, d the centre's distance from the axis (Steiner), exactly at
    every stored state, however the body turns (a . J a is the same about its own axis)."""
    a = np.array([1.0, 2.0, 2.0]) / 3.0
    m, J = 3.0, np.diag([0.02, 0.05, 0.07])
    centre = np.array([0.3, -0.1, 0.05])
    model = rancf.Model(dim=3, gravity=(0.0, 0.0, 0.0))
    body = model.add_rigid_body(m, J, position=centre)
    drive = cycloidal(2.0, 0.5)
    joint = model.add_joint("revolute", model.ground.point(0, 0, 0), body.point(*-centre),
                            axis=a, drive=drive)
    res = rancf.simulate(model, t_end=0.6, dt=1e-3, method="rk4", output_every=7)
    d2 = centre @ centre - (a @ centre) ** 2
    qdd = np.array([drive(t)[2] for t in res.t])
    expected = (a @ J @ a + m * d2) * qdd
    np.testing.assert_allclose(res.reaction(joint, "torque"), expected, rtol=0,
                               atol=1e-12 * np.abs(expected).max())
    np.testing.assert_array_equal(res.reaction(joint, "angle"), res.reaction(joint, "torque"))


def test_prismatic_force_holds_weight_and_accelerates():
    """A body lifted along the vertical by a driven prismatic joint: ``f = m (qdd + g)``."""
    m, g = 2.5, 9.81
    model = rancf.Model(dim=3, gravity=(0.0, 0.0, -g))
    body = model.add_rigid_body(m, np.eye(3) * 0.01, position=(0.0, 0.0, 0.2))
    drive = cycloidal(0.3, 0.4)
    joint = model.add_joint("prismatic", model.ground.point(0, 0, 0), body.point(0, 0, -0.2),
                            axis=(0.0, 0.0, 1.0), drive=drive)
    res = rancf.simulate(model, t_end=0.5, dt=1e-3, method="rk4", output_every=5)
    qdd = np.array([drive(t)[2] for t in res.t])
    np.testing.assert_allclose(res.reaction(joint, "slide"), m * (qdd + g), rtol=0, atol=1e-11)


def arm():
    """A rigid three-axis arm: turret (yaw about z), upper arm (pitch about -y, an axis that
    turns with the turret), forearm (pitch about y, turning with the upper arm), every joint
    driven, gravity: a kinematic motion, so every formulation computes the same torques."""
    model = rancf.Model(dim=3, gravity=(0.0, 0.0, -9.81))
    turret = model.add_rigid_body(8.0, np.diag([0.05, 0.05, 0.04]), position=(0.0, 0.0, 0.2))
    upper = model.add_rigid_body(2.0, np.diag([1e-3, 0.17, 0.17]), position=(0.5, 0.0, 0.4))
    fore = model.add_rigid_body(1.5, np.diag([1e-3, 0.13, 0.13]), position=(1.5, 0.02, 0.4))
    joints = [
        model.add_joint("revolute", model.ground.point(0, 0, 0), turret.point(0, 0, -0.2),
                        axis=(0, 0, 1), drive=cycloidal(np.pi / 2, 0.4)),
        model.add_joint("revolute", turret.point(0, 0, 0.2), upper.point(-0.5, 0, 0),
                        axis=(0, -1, 0), drive=cycloidal(np.pi / 6, 0.4)),
        model.add_joint("revolute", upper.point(0.5, 0, 0), fore.point(-0.5, -0.02, 0),
                        axis=(0, 1, 0), drive=cycloidal(np.pi / 3, 0.4)),
    ]
    return model, joints


def test_turning_axes_recursion_against_dae():
    """The torques of the driven arm, whose shoulder and elbow axes turn with their parents,
    from the recursion (articulated forces) and from the spatial DAE (multipliers). The motion
    is the drives', so the recursion's torques are exact at every stored state (RK4 and Newmark
    give the same to round-off); the DAE holds the drives as position rows and its Newmark
    accelerations, and so its multipliers, carry the scheme's second-order error: the gap falls
    about fourfold when the step halves."""
    gaps = []
    for dt in (1e-3, 5e-4):
        model, joints = arm()
        kw = dict(t_end=0.5, dt=dt, method="newmark", output_every=round(1e-2 / dt))
        rec = rancf.simulate(model, formulation="recursive", **kw)
        dae = rancf.simulate(model, formulation="dae", **kw)
        assert rec.status == dae.status == "ok"
        model4, joints4 = arm()
        rk4 = rancf.simulate(model4, t_end=0.5, dt=dt, method="rk4", output_every=kw["output_every"])
        torques = [rec.reaction(j, "torque") for j in joints]
        scale = max(np.abs(t).max() for t in torques)
        for j, t in zip(joints4, torques):
            np.testing.assert_allclose(rk4.reaction(j, "torque"), t, rtol=0, atol=1e-13 * scale)
        gaps.append([np.abs(t - dae.reaction(j, "torque")).max() / scale
                     for j, t in zip(joints, torques)])
    gaps = np.array(gaps)
    assert ((gaps[0] / gaps[1] > 3.0) & (gaps[0] / gaps[1] < 5.0)).all()


def test_motor_work_equals_energy_change():
    """The motors' work, the time integral of ``sum_j torque_j qd_j`` (trapezoid over every
    step), equals the change of kinetic + gravity energy of the driven rigid arm; the gap is
    the quadrature's, second order: it falls about fourfold when the step halves."""
    gaps = []
    for dt in (2e-3, 1e-3):
        model, joints = arm()
        res = rancf.simulate(model, t_end=0.5, dt=dt, method="rk4", output_every=1)
        power = sum(res.reaction(j, "torque") * res.joint(j)[1] for j in joints)
        work = np.concatenate([[0.0], np.cumsum(0.5 * (power[1:] + power[:-1]) * dt)])
        e = res.energy()
        change = (e.kinetic + e.gravity).to_numpy()
        change = change - change[0]
        gaps.append(np.abs(work - change).max() / np.abs(change).max())
    assert gaps[0] < 1e-3
    assert 3.0 < gaps[0] / gaps[1] < 5.0


def test_torque_of_other_kinds_refused():
    model = rancf.Model(dim=3)
    body = model.add_rigid_body(1.0, np.eye(3) * 0.01, position=(0.0, 0.0, -0.5))
    ball = model.add_joint("spherical", model.ground.point(0, 0, 0), body.point(0, 0, 0.5))
    res = rancf.simulate(model, t_end=0.01, dt=1e-3)
    with pytest.raises(ValueError, match="revolute or prismatic"):
        res.reaction(ball, "torque")
    with pytest.raises(ValueError, match="what must be None"):
        res.reaction(ball, "force")
