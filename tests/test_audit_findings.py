"""Defects found by the audit of the spatial public API (issues 22, 23), each a failing test
marked ``xfail(strict=True)`` with the defect named: the fix turns it into a pass and the strict
mark into a failure that asks to remove it. Each compares against something independent: the
recursive formulation of the same tree, the run before it was saved, the one stable equilibrium
of a hanging cable, or the advice of the library's own message."""
import os

import numpy as np
import pytest

import rancf


def _cable_on_driven_slider(n_elements):
    """A 1 kg body on a prismatic joint along y driven at 1 m/s^2 from rest, an ANCF cable of
    1 m (EA = 1e3 N, rho A = 0.1 kg/m) hanging from it by a spherical joint: a tree, so both
    formulations run it (8 elements showed the defect; 4 did not)."""
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -9.81))
    body = m.add_rigid_body(1.0, np.eye(3) * 1e-3)
    slide = m.add_joint("prismatic", m.ground.point(0, 0, 0), body.centre, axis=(0, 1, 0),
                        drive=lambda t: (0.5 * t**2, t, 1.0))
    cable = m.add_beam(1.0, n_elements, E=1e6, rho=100.0, A=1e-3, I=1e-9,
                       element="ancf-cable")
    m.add_joint("spherical", body.centre, cable.start)
    return m, slide, cable


@pytest.mark.parametrize("projection", [False, True], ids=["index-3", "projected"])
def test_dae_drive_work_with_a_cable_matches_the_recursion(projection):
    """The drive's work (``energy()["work"]``) of the spatial DAE against the recursion's on the
    same tree, same scheme and step. The two runs' cable tips agree to 1e-11 m (measured), so
    the work, the same integral of the same motion, must agree to the schemes' O(dt^2) error:
    1e-3 of the work (about 0.05 J) is a bound with a wide margin. The DAE's velocity-level
    constraint violation must stay finite and small: the drive's rows are held to the Newton
    tolerance at the position level, so their rate's violation is O(dt) at most (1e-2 m/s at
    dt = 1e-3 s for this drive, of rate up to 0.3 m/s). The projected scheme holds the rates
    too, and must run the same tree as the index-3 one does (it does without the cable, or
    without the drive)."""
    m, _, cable = _cable_on_driven_slider(8)
    kw = dict(method="generalized-alpha-s", output_every=20)
    rec = rancf.simulate(m, 0.3, 1e-3, formulation="recursive", **kw)
    dae = rancf.simulate(m, 0.3, 1e-3, formulation="dae", projection=projection, **kw)
    assert rec.status == dae.status == "ok"
    assert np.abs(dae.position(cable.end) - rec.position(cable.end)).max() < 1e-8
    w_rec = rec.energy()["work"].to_numpy()
    w_dae = dae.energy()["work"].to_numpy()
    assert np.all(np.isfinite(w_dae))
    assert np.abs(w_dae - w_rec).max() <= 1e-3 * np.abs(w_rec).max()
    assert np.all(dae.extra["constraint_violation"][:, 1] < 1e-2)


def _sphere_and_hinge_run(tmp_path):
    """A body on a spherical joint (3 coordinates) and a second body on a revolute joint (1
    coordinate) at its end; RK4 for 0.1 s; saved."""
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -9.81))
    b = m.add_rigid_body(1.0, np.eye(3) * 1e-2, position=(1, 0, 0))
    m.add_joint("spherical", m.ground.point(0, 0, 0), b.point(-1, 0, 0))
    c = m.add_rigid_body(1.0, np.eye(3) * 1e-2, position=(2, 0, 0))
    hinge = m.add_joint("revolute", b.point(1, 0, 0), c.point(0, 0, 0), axis=(0, 1, 0))
    res = rancf.simulate(m, 0.1, 1e-3, method="rk4")
    path = os.path.join(tmp_path, "run.npz")
    res.save(path)
    return res, hinge, path


@pytest.mark.parametrize("index", [0, 1], ids=["spherical", "revolute"])
def test_loaded_spatial_result_without_model_gives_the_joint_it_was_asked_for(tmp_path, index):
    """``rancf.load(path)`` documents that the joints are there without the model. Joint
    ``index`` must then be the run's own coordinates (spherical: (n_out, 3); revolute:
    (n_out,)), or a ValueError must say that the model is needed, as position() and
    reaction() do; today joint 0 returns column 0 of ``joint_q`` and joint 1 column 1, the
    spherical joint's y rotation (here the negative of the hinge angle: silently wrong)."""
    res, _, path = _sphere_and_hinge_run(tmp_path)
    loaded = rancf.load(path)
    try:
        q, _ = loaded.joint(index)
    except ValueError as err:
        assert "model" in str(err), str(err)
        return
    assert np.array_equal(q, res.joint(index)[0])


def _joint_twice():
    """A body held by two spherical joints at the same point: the second joint's three rows
    repeat the first's."""
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -9.81))
    b = m.add_rigid_body(1.0, np.eye(3) * 1e-2, position=(1, 0, 0))
    m.add_joint("spherical", m.ground.point(0, 0, 0), b.point(-1, 0, 0))
    m.add_joint("spherical", m.ground.point(0, 0, 0), b.point(-1, 0, 0))
    return m


@pytest.mark.parametrize("run", [lambda m: rancf.simulate(m, 0.1, 1e-3),
                                 lambda m: rancf.static(m),
                                 lambda m: rancf.modes(m, n=2)],
                         ids=["simulate", "static", "modes"])
def test_redundant_joint_is_refused_naming_it(run):
    """Joint 1's rows repeat joint 0's (the constraint Jacobian has rank 3, not 6, in the
    reference configuration). The call must either handle the redundancy (a result, its
    status 'ok') or say what is wrong: a ValueError that says the joints are redundant (the
    Jacobian rank-deficient) and names joint 1, whose rows repeat, as bad input is."""
    try:
        res = run(_joint_twice())
    except ValueError as err:
        msg = str(err)
        assert "redundant" in msg and "rank" in msg, msg
        assert "3 of the 3 directions that joint 1" in msg, msg
        return
    assert getattr(res, "status", "ok") == "ok"


def test_rk4_refusal_advises_a_step_that_is_accepted():
    """The message's advice, taken literally, must run. The beam of the spatial guide's arm,
    clamped (its limit, 2 sqrt(2) / omega_max = 6.636e-5 s with omega_max from all 36 of its
    modes, is printed as 6.64e-05)."""
    import re
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -9.81))
    b = m.add_beam(0.6, 6, E=2e8, rho=950.0, A=6e-4, I=(2e-8, 4.5e-8), J=4.7e-8, G=7e7)
    m.add_joint("fixed", m.ground.point(0, 0, 0), b.start)
    with pytest.raises(ValueError, match="stability limit") as err:
        rancf.simulate(m, 0.01, 1e-3, method="rk4")
    advised = float(re.search(r"use dt <= ([0-9.e+-]+) s", str(err.value)).group(1))
    res = rancf.simulate(m, 0.01, advised, method="rk4")
    assert res.status == "ok"


def test_static_cable_on_a_pin_is_not_reported_standing_upright():
    """A 1 m cable (EA = 1e3 N, EI = 1e-3 N m^2, rho A = 0.1 kg/m) on a spherical joint under
    gravity -z: its one stable equilibrium hangs straight down, the end at z = -(1 + eps) m
    (eps = rho A g L / (2 EA) ~ 5e-4). Statics must return that, or fail saying that the
    pin leaves the cable free to swing (as it says for an SE(3) beam on the same pin); a
    status 'ok' with the end above the pin is an unstable equilibrium reported as the
    answer, and ``state="static"`` starts runs from it."""
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -9.81))
    cable = m.add_beam(1.0, 4, E=1e6, rho=100.0, A=1e-3, I=1e-9, element="ancf-cable")
    m.add_joint("spherical", m.ground.point(0, 0, 0), cable.start)
    res = rancf.static(m)
    if res.status == "ok":
        assert res.position(cable.end)[-1, 2] < -0.99


def test_auto_method_does_not_refuse_a_step_for_the_method_it_chose():
    """``rancf.simulate(m, 0.2, 3e-4)`` on the guide's arm beam, clamped (RK4 limit 6.6e-5 s):
    the user named no method. The run must go (the implicit loop shortening its last step, as
    RK4 does) or the ValueError must say that method 'auto' chose the implicit method, so the
    user knows which rule the step broke."""
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -9.81))
    b = m.add_beam(0.6, 6, E=2e8, rho=950.0, A=6e-4, I=(2e-8, 4.5e-8), J=4.7e-8, G=7e7)
    m.add_joint("fixed", m.ground.point(0, 0, 0), b.start)
    try:
        res = rancf.simulate(m, 0.2, 3e-4, output_every=100)
    except ValueError as err:
        assert "auto" in str(err), str(err)
        return
    assert res.status == "ok" and abs(res.t[-1] - 0.2) < 1e-12


def test_door_on_two_ball_joints_is_refused_naming_the_redundancy():
    """Two spherical joints on one body hold 6 rows of rank 5 (the body keeps its turn about
    the hinge line), the textbook redundant constraint. The run must handle it (status 'ok'),
    or a ValueError naming a joint (or a failed result whose message names it) must tell the
    user to make one of them, say, a cylindrical or point-on-line joint."""
    m = rancf.Model(dim=3, gravity=(0.0, -9.81, 0.0))
    door = m.add_rigid_body(10.0, np.diag([1.0, 0.5, 0.6]), position=(0.4, 0, 1.0))
    m.add_joint("spherical", m.ground.point(0, 0, 0.2), door.point(-0.4, 0, -0.8))
    m.add_joint("spherical", m.ground.point(0, 0, 1.8), door.point(-0.4, 0, 0.8))
    try:
        res = rancf.simulate(m, 0.1, 1e-3)
    except ValueError as err:
        msg = str(err)
        assert "redundant" in msg and "rank" in msg, msg
        assert "1 of the 3 directions that joint 1" in msg and "by joint 0" in msg, msg
        return
    # handled, or the redundancy and the joint named
    assert res.status == "ok" or ("redundant" in res.message and "joint 1" in res.message)
