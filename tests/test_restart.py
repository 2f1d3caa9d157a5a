"""Continuing a run from a state it left (``simulate(..., state=res.state(-1))``): a state a
run left is off its joints by what its scheme leaves (the position rows by its Newton
tolerance, the velocity rows by its step's error: rancf/formulations/start_check.py) and is
moved onto them, the Result's message saying by how much; a state further off is refused
naming the joint and, if driven, its drive. Checked against what is independent of the
projection: the joint points' coincidence read from the output positions, central
differences of the constraints along the velocities, the mass-metric optimality of the
correction by a dense least-squares solve, and the drives' closed forms."""
import re

import numpy as np
import pytest

import rancf
from rancf.formulations.dae import DAE

from test_audit3_findings import _parallelogram


def _pins(res, m):
    """The largest gap (m) between the two points of the parallelogram's coupler pins, read
    from the outputs' positions (independent of the constraint rows)."""
    crank, rocker, coupler = m.rigid_bodies
    l, d = 0.5, 0.8
    a = np.abs(res.position(crank.point(l / 2, 0.0)) - res.position(coupler.point(-d / 2, 0.0)))
    b = np.abs(res.position(rocker.point(l / 2, 0.0)) - res.position(coupler.point(d / 2, 0.0)))
    return max(a.max(), b.max())


def test_a_backward_euler_state_is_moved_onto_the_velocity_rows_by_least_kinetic_change():
    """Backward Euler on the parallelogram leaves its velocity rows off by h omega / 2 of the
    velocities (2e-4 m/s after 3 s at dt = 1e-3 s). The continued run starts from velocities
    that hold the rows (central differences of the constraints along them, to 1e-9 m/s: the
    differences' own error, h^2 |Phi'''| with h = 1e-6 s, is far below), changed by the least
    kinetic energy: M dv lies in the range of Phi_x^T (its residual against a dense
    least-squares fit below 1e-9 of |M dv|), and the message states the change."""
    m, _ = _parallelogram()
    first = rancf.simulate(m, 3.0, 1e-3, method="backward-euler")
    state = first.state(-1)
    more = rancf.simulate(m, 0.1, 1e-3, method="backward-euler", output_every=1, state=state)
    assert more.status == "ok" and "moved onto the joints" in more.message, more.message
    assert "velocities by" in more.message and "coordinates" not in more.message
    dae = DAE(m.build())
    x, v = more.nodes[0].ravel(), more.velocities[0].ravel()
    np.testing.assert_allclose(x, state.x, atol=0.0)        # the positions held: not moved
    h = 1e-6
    rate = (dae.constraint(x + h * v, 0.0) - dae.constraint(x - h * v, 0.0)) / (2 * h)
    assert np.abs(rate).max() <= 1e-9
    dv = v - state.v
    assert 1e-5 <= np.abs(dv).max() <= 1e-3                 # m/s: the drift it removed
    J = dae.constraint_jacobian(x, 0.0).toarray()
    Mdv = dae.M @ dv
    fit = np.linalg.lstsq(J.T, Mdv, rcond=None)[0]
    assert np.abs(J.T @ fit - Mdv).max() <= 1e-9 * np.abs(Mdv).max()


def _axes(x):
    """The largest ``| |u|^2 - 1 |`` of the three bodies' axes u in the coordinates x (the
    rigid bodies' ``[x, y, u_x, u_y]``, read with numpy: independent of the rows)."""
    u = np.asarray(x).reshape(-1, 4)[:, 2:]
    return np.abs((u * u).sum(axis=1) - 1.0).max()


def test_a_state_within_the_newton_tolerance_is_moved_onto_the_position_rows():
    """A run with tol = 1e-6 m may leave the loop's rows off by a fraction of it: here the
    last state's body axes are stretched by 1.5e-8 (|u|^2 - 1 = 3e-8, above the strict 1e-8 of
    the model size, 8e-9, and within the tol). Continued with the same tol, the state is moved
    onto the rows (the message says so) by Gauss-Newton to 1e-12: its axes are unit to 1e-12
    at the new start, and no coordinate moved by more than the axes' change of length,
    1.5e-8 (bound 5e-8)."""
    m, _ = _parallelogram()
    first = rancf.simulate(m, 3.0, 1e-3, method="generalized-alpha", tol=1e-6)
    last = first.state(-1)
    x = last.x.copy().reshape(-1, 4)
    x[:, 2:] *= 1.0 + 1.5e-8                            # the bodies' axes [u_x, u_y]
    state = rancf.State(x.ravel(), last.v, joint_q=last.joint_q)
    assert _axes(state.x) > 1e-8 * 0.8                  # the strict check would refuse it
    more = rancf.simulate(m, 0.01, 1e-3, method="generalized-alpha", tol=1e-6, output_every=1,
                          state=state)
    assert more.status == "ok" and "coordinates by" in more.message, more.message
    assert _axes(more.nodes[0].ravel()) <= 1e-12
    assert _pins(more, m) <= 1e-6                 # the run holds them to its tol from there
    assert np.abs(more.nodes[0].ravel() - state.x).max() <= 5e-8


@pytest.mark.parametrize("level", ["coordinates", "velocities"])
def test_a_state_far_off_a_loop_is_refused_naming_the_joint(level):
    """Velocities off by 0.5 m/s (the coupler's, against 0.47 m/s of motion) or a coupler
    moved by 1 cm are no run's state: refused, naming the pin they break."""
    m, _ = _parallelogram()
    state = rancf.simulate(m, 0.5, 1e-3, method="generalized-alpha").state(-1)
    x, v = state.x.copy(), state.v.copy()
    coupler = -4                                  # the coupler's [x, y, u_x, u_y], the last body
    if level == "coordinates":
        x[coupler] += 0.01
    else:
        v[coupler] += 0.5
    with pytest.raises(ValueError,
                       match=rf"the {level} do not satisfy the joints: joint [12] \(revolute\)"):
        rancf.simulate(m, 0.1, 1e-3, method="generalized-alpha", state=rancf.State(x, v))


def _spun(q, formulation):
    """A body on a revolute whose drive is ``q(t) = (q, q', q'')``, run 1 s; then continued
    from its last state (times restart at 0). Returns the ValueError's message."""
    m = rancf.Model(gravity=(0.0, -9.81))
    body = m.add_rigid_body(1.0, 0.01, position=(0.5, 0.0))
    m.add_joint("revolute", m.ground.point(0.0, 0.0), body.point(-0.5, 0.0), drive=q)
    res = rancf.simulate(m, 1.0, 1e-3, method="generalized-alpha", formulation=formulation)
    with pytest.raises(ValueError) as err:
        rancf.simulate(m, 0.1, 1e-3, method="generalized-alpha", formulation=formulation,
                       state=res.state(-1))
    return str(err.value)


@pytest.mark.parametrize("formulation", ["dae", "recursive"])
def test_a_restart_off_its_drive_gives_the_drive_and_the_state(formulation):
    """q = 2 t: the state's angle is 2 rad, the drive's at the restart's t = 0 is 0 (closed
    form); q = 2 pi t^2: the angle meets the drive modulo 2 pi, but the rate is 4 pi rad/s
    against the drive's 0. Both messages name joint 0, the drive, the two values and the
    time origin."""
    text = _spun(lambda t: (2.0 * t, 2.0, 0.0), formulation)
    assert "coordinates do not satisfy the joints: joint 0 (revolute)" in text, text
    assert "drive gives q = 0 rad at t = 0 s" in text and "the state has q = 2 rad" in text
    assert "t + t0" in text
    text = _spun(lambda t: (2 * np.pi * t * t, 4 * np.pi * t, 4 * np.pi), formulation)
    assert "velocities do not satisfy the joints: joint 0 (revolute)" in text, text
    assert "drive gives qd = 0 rad/s" in text
    # the state's rate is the drive's at t = 1 s to the scheme's error on the velocity rows
    # (O(h^2); 1e-3 of the rate is far above it)
    given = float(re.search(r"the state has qd = (\S+) rad/s", text).group(1))
    assert given == pytest.approx(4 * np.pi, rel=1e-3)


def test_a_dae_state_of_a_tree_continues_on_the_recursion():
    """A pendulum of two rigid links run on the DAE by backward Euler (velocity rows off by
    its h omega / 2), continued by RK4 on the recursion (which refused such a state before):
    its joint rates are the least-squares fit of the velocities, the message says it moved
    them, and the continued run ends where backward Euler on the DAE continues the first run
    to, within backward Euler's own error over the 0.1 s: ``(h / 2) |a| t``, with the tip's
    acceleration below 4 g, 2e-3 m; the bound is 5e-3 m."""
    m = rancf.Model(gravity=(0.0, -9.81))
    a = m.add_rigid_body(1.0, 1.0 / 12, position=(0.5, 0.0))
    b = m.add_rigid_body(1.0, 1.0 / 12, position=(1.5, 0.0))
    m.add_joint("revolute", m.ground.point(0.0, 0.0), a.point(-0.5, 0.0))
    m.add_joint("revolute", a.point(0.5, 0.0), b.point(-0.5, 0.0))
    first = rancf.simulate(m, 0.3, 1e-3, method="backward-euler", formulation="dae")
    more = rancf.simulate(m, 0.1, 1e-3, method="rk4", state=first.state(-1))
    assert more.status == "ok" and "velocities by" in more.message, more.message
    whole = rancf.simulate(m, 0.4, 1e-3, method="backward-euler", formulation="dae")
    np.testing.assert_allclose(more.position(b.centre)[-1], whole.position(b.centre)[-1],
                               atol=5e-3)


def test_the_timed_run_continues_a_closed_loop_and_says_so():
    """``simulate_timed`` (the adaptive-modal paper's timed full model, backward Euler on the
    DAE) starts from a state the same way: the parallelogram's backward-Euler state is moved
    onto the velocity rows, and its Result says so."""
    from rancf.simulate import simulate_timed
    m, _ = _parallelogram()
    first = rancf.simulate(m, 3.0, 1e-3, method="backward-euler")
    timed = simulate_timed(m, 0.01, 1e-3, state=first.state(-1))
    assert timed.status == "ok" and "velocities by" in timed.message, timed.message


# --- spatial ----------------------------------------------------------------------------------
def test_a_spatial_loop_continues_from_a_backward_euler_state():
    """The passive rigid spherical four-bar falling for 1 s by backward Euler (dt = 1e-2 s:
    velocity rows off by h omega / 2, 9e-3 m/s measured, within 0.05 of its velocities),
    continued on the spatial DAE: the message states the change, and the continued run's
    first state holds the velocity rows (central differences of the constraints along its
    coordinates' rates, h = 1e-6 s: to 1e-8, the differences' own error far below)."""
    from rancf.formulations.spatial import model_inputs
    from rancf.formulations.spatial_dae import SpatialDAE
    from validation.spherical_four_bar import SphericalFourBar
    fb = SphericalFourBar()
    fb.drive = None
    m = fb.rigid()[0]
    first = rancf.simulate(m, 1.0, 1e-2, method="backward-euler")
    more = rancf.simulate(m, 0.02, 1e-2, method="backward-euler", output_every=1,
                          state=first.state(-1))
    assert more.status == "ok" and "velocities by" in more.message, more.message
    dae = SpatialDAE(m.build(), *model_inputs(m))
    s = more.state(0)
    q, qd = dae.state_of_poses(s.x, s.v)
    h = 1e-6
    rate = (dae.constraint(q + h * qd, 0.0) - dae.constraint(q - h * qd, 0.0)) / (2 * h)
    assert np.abs(rate).max() <= 1e-8


@pytest.mark.parametrize("formulation", ["recursive", "dae"])
def test_a_spatial_restart_off_its_drive_gives_the_drive_and_the_state(formulation):
    """A spatial motor turning a body about z at q = 2 t for 1 s, continued from its last state:
    the state's angle 2 rad (its joint_q) against the drive's 0 at the restart's t = 0 (closed
    form), named with the joint, as in the plane."""
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -9.81))
    body = m.add_rigid_body(1.0, np.eye(3) * 1e-2, position=(0.5, 0.0, 0.0))
    m.add_joint("revolute", m.ground.point(0, 0, 0), body.point(-0.5, 0, 0), axis=(0, 0, 1),
                drive=lambda t: (2.0 * t, 2.0, 0.0))
    res = rancf.simulate(m, 1.0, 1e-3, method="generalized-alpha-s", formulation=formulation)
    with pytest.raises(ValueError) as err:
        rancf.simulate(m, 0.1, 1e-3, method="generalized-alpha-s", formulation=formulation,
                       state=res.state(-1))
    text = str(err.value)
    assert "poses do not satisfy the joints: joint 0 (revolute)" in text, text
    assert "drive gives q = 0 rad at t = 0 s" in text and "the state has q = 2 rad" in text


def test_a_spatial_dae_state_of_a_tree_continues_on_the_recursion():
    """A spatial double pendulum (two rigid links on revolutes about y, released horizontal)
    run on the spatial DAE by backward Euler, continued by RK4 on the recursion, which took
    the joint rates within 1e-8 of the velocities before: it runs, its message states the
    change of the velocities, which is below 0.05 of them (the bound)."""
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -9.81))
    a = m.add_rigid_body(1.0, np.diag([1e-3, 1.0 / 12, 1.0 / 12]), position=(0.5, 0.0, 0.0))
    b = m.add_rigid_body(1.0, np.diag([1e-3, 1.0 / 12, 1.0 / 12]), position=(1.5, 0.0, 0.0))
    m.add_joint("revolute", m.ground.point(0, 0, 0), a.point(-0.5, 0, 0), axis=(0, 1, 0))
    m.add_joint("revolute", a.point(0.5, 0, 0), b.point(-0.5, 0, 0), axis=(0, 1, 0))
    first = rancf.simulate(m, 0.3, 1e-3, method="backward-euler", formulation="dae")
    more = rancf.simulate(m, 0.01, 1e-3, method="rk4", state=first.state(-1))
    assert more.status == "ok" and "velocities by" in more.message, more.message
    change = np.abs(more.velocities[0] - first.velocities[-1]).max()
    assert 0.0 < change <= 0.05 * np.abs(first.velocities[-1]).max()
