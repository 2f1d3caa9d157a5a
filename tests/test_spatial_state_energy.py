"""Spatial runs from a given state (``state=res.state(i)``, ``state="static"``) and their energy
balance (``work`` and ``dissipated`` of ``res.energy()``), each against something independent:
one run against the same run split in two, the static solver, the energy conservation law
``E(t) - E(0) = W_ext - W_diss`` and the integrators' orders."""
import numpy as np
import pytest

import rancf

STEEL = dict(E=2.1e11, rho=7800.0, A=1e-4, I=(8.3e-10, 8.3e-10), J=1.7e-9, G=8.1e10)
RUBBER = dict(E=3e6, rho=1000.0, A=2.5e-3, I=(5.2e-7, 5.2e-7), J=8.8e-7, G=1e6)


def ramp(t, duration=0.05):
    """A smooth step from 0 to 1 over ``duration`` (s), flat to second order at both ends: the
    loads come on without exciting the beams' highest modes, whose RK4 error would otherwise
    hide the motion's h^4 behind its own until h omega_max is small."""
    s = min(max(t / duration, 0.0), 1.0)
    return s**3 * (10.0 - 15.0 * s + 6.0 * s * s)


def swinging_arm(damping=0.0, drive=True, gravity=9.81):
    """Two rubber-like beams of 0.5 m (every mode within an RK4 step of 0.2 ms, so that the
    motion's h^4 shows before round-off: a steel beam's stability limit would make the error
    round-off at any step it allows): the first on a revolute joint about z (driven: ``q = 10 t^3 /
    3``, or free), the second on a revolute joint about y at its end with a spring-damper
    effort, a follower force at its tip and a fixed-direction moment on the first node but
    one of the first beam, both ramped on (:func:`ramp`); Kelvin-Voigt damping time ``damping``
    (s) in both beams, gravity along -z."""
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -gravity))
    soft = dict(RUBBER, damping=damping)
    b1 = m.add_beam(0.5, 3, direction=(1.0, 0.0, 0.0), up=(0.0, 1.0, 0.0), **soft)
    b2 = m.add_beam(0.5, 3, start=(0.5, 0.0, 0.0), direction=(1.0, 0.0, 0.0),
                    up=(0.0, 1.0, 0.0), **soft)
    spin = (lambda t: (10 * t**3 / 3, 10 * t**2, 20 * t)) if drive else None
    m.add_joint("revolute", m.ground.point(0, 0, 0), b1.start, axis=(0, 0, 1.0), drive=spin)
    m.add_joint("revolute", b1.end, b2.start, axis=(0, 1.0, 0),
                effort=lambda t, q, qd: -5.0 * q - 0.1 * qd)
    m.add_force(b2.end, force=lambda t: (0.0, 3.0 * ramp(t), 1.0 * ramp(t)), follower=True)
    m.add_force(b1.node(1), moment=lambda t: (0.0, 0.3 * ramp(t), 0.0))
    return m, b1, b2


def balance_error(res):
    """``max |total(t) - total(0)|`` (J): total = kinetic + elastic + gravity - work +
    dissipated, which the exact motion conserves."""
    e = res.energy()
    return float(np.abs(e.total - e.total.iloc[0]).max())


def test_energy_balance_closes_at_rk4_order():
    """The balance of a driven, damped arm with a follower force, a moment and an effort under
    gravity: its error falls like h^4 with RK4, the work and the dissipation integrated with the
    motion as two more states (measured: 6.7e-10, 3.4e-11, 2.0e-12 J at 0.4, 0.2, 0.1 ms, ratios
    20 and 17; 3e-13 at 0.05 ms, round-off). Asserted: a ratio above 10 from 0.2 to 0.1 ms
    (an order above 3.3, which a second-order quadrature of the powers could not reach) and an
    error below 1e-9 of the largest kinetic energy, where the work, the dissipation and the
    drive's share are each far above it."""
    m, _, _ = swinging_arm(damping=3e-4)
    runs = [rancf.simulate(m, 0.5, dt, method="rk4", output_every=round(0.05 / dt))
            for dt in (2e-4, 1e-4)]
    for res in runs:
        assert res.status == "ok", res.message
    e = runs[1].energy()
    assert e.work.abs().max() > 0.01 * e.kinetic.max()
    assert e.dissipated.iloc[-1] > 1e-3 * e.kinetic.max()
    assert np.all(np.diff(e.dissipated) >= 0.0)
    errors = [balance_error(r) for r in runs]
    assert errors[1] < 1e-9 * e.kinetic.max(), errors
    assert errors[0] / errors[1] > 10.0, errors


def test_energy_balance_closes_with_the_implicit_loop():
    """Newmark's trapezoidal rule (no numerical dissipation) with the work integrated by the
    trapezoidal rule at every step: the balance error falls at second order (measured 1.2e-5,
    3.0e-6, 7.6e-7 J at 0.5, 0.25, 0.125 ms: ratios 4.0; asserted > 3), and the integrated work
    and dissipation agree with RK4's (the same integrals, to Newmark's accuracy).
    (generalized-alpha's numerical damping of the beams' high modes is first order in this
    balance: 3.1e-4, 1.6e-4 J.) Newton's matrix is refreshed every iteration, so that the
    Newton tolerance stays below the balance error."""
    m, _, _ = swinging_arm(damping=3e-4)
    runs = [rancf.simulate(m, 0.5, dt, method="newmark", output_every=round(0.05 / dt),
                           jacobian="every-iteration") for dt in (2.5e-4, 1.25e-4)]
    for res in runs:
        assert res.status == "ok", res.message
    errors = [balance_error(r) for r in runs]
    assert errors[0] / errors[1] > 3.0, errors
    e = runs[1].energy()
    assert errors[1] < 1e-6 * e.kinetic.max()
    reference = rancf.simulate(m, 0.5, 1e-4, method="rk4", output_every=500).energy()
    np.testing.assert_allclose(e.work, reference.work, rtol=0, atol=1e-5)
    np.testing.assert_allclose(e.dissipated, reference.dissipated, rtol=0, atol=1e-5)


def test_a_passive_model_does_no_work():
    """No loads, efforts, drives or damping: work and dissipation are exactly zero."""
    m = rancf.Model(dim=3)
    b = m.add_beam(0.5, 3, direction=(1.0, 0.0, 0.0), up=(0.0, 1.0, 0.0), **RUBBER)
    m.add_joint("spherical", m.ground.point(0, 0, 0), b.start)
    for method in ("rk4", "newmark"):
        e = rancf.simulate(m, 0.05, 1e-4 if method == "rk4" else 5e-4, method=method).energy()
        assert (e.work == 0.0).all() and (e.dissipated == 0.0).all()


def branched_tree():
    """Two rubber-like beams and a rigid body on a spherical, a revolute (with a spring effort)
    and a universal joint, a follower force and beam damping: nothing depends on t, so a run
    restarted at t = 0 from a state continues the same motion."""
    m = rancf.Model(dim=3)
    b1 = m.add_beam(0.5, 3, direction=(1.0, 0.0, 0.0), up=(0.0, 0.6, 0.8), damping=3e-4,
                    **RUBBER)
    b2 = m.add_beam(0.5, 3, start=(0.5, 0, 0), direction=(1.0, 0.0, 0.0), up=(0.0, 1, 0),
                    **RUBBER)
    body = m.add_rigid_body(0.5, np.diag([1e-3, 2e-3, 3e-3]), position=(1.1, 0, 0))
    m.add_joint("spherical", m.ground.point(0, 0, 0), b1.start)
    m.add_joint("revolute", b1.end, b2.start, axis=(0, 0.6, 0.8),
                effort=lambda t, q, qd: -1.0 * q)
    m.add_joint("universal", b2.end, body.point(-0.1, 0, 0), axes=[(0, 1.0, 0), (0, 0, 1.0)])
    m.add_force(b2.node(2), force=(0, 1.0, 0), follower=True)
    return m


def test_a_run_split_in_two_equals_one_run():
    """RK4 from ``first.state(-1)`` continues the run: the link coordinates rebuilt from the
    poses (rotation vectors by log, angles about the axes) give back the poses and velocities
    to round-off, and the second half equals the second half of one run to round-off
    (measured 2e-13 m and 3e-12 m/s of 12.6 m/s over 0.2 s; asserted 1e-11 of the model size
    and of the largest velocity)."""
    m = branched_tree()
    whole = rancf.simulate(m, 0.4, 1e-4, method="rk4", output_every=500)
    first = rancf.simulate(m, 0.2, 1e-4, method="rk4", output_every=500)
    rest = rancf.simulate(m, 0.2, 1e-4, method="rk4", output_every=500,
                          state=first.state(-1))
    for res in (whole, first, rest):
        assert res.status == "ok", res.message
    size, speed = 1.1, np.abs(whole.velocities).max()
    np.testing.assert_allclose(rest.nodes, whole.nodes[4:], rtol=0, atol=1e-11 * size)
    np.testing.assert_allclose(rest.velocities, whole.velocities[4:], rtol=0,
                               atol=1e-11 * speed)
    np.testing.assert_allclose(rest.joint_q, whole.joint_q[4:], rtol=0, atol=1e-11)
    # the work restarts at 0: the two halves add up to the whole
    total = first.energy().work.iloc[-1] + rest.energy().work.iloc[-1]
    assert abs(total - whole.energy().work.iloc[-1]) < 1e-9 * abs(whole.energy().work).max()


def test_a_state_of_another_model_is_refused_clearly():
    """A planar state, a state of another spatial tree of as many bodies, and velocities that
    no joint allows: each a ValueError saying what is wrong."""
    m = branched_tree()
    res = rancf.simulate(m, 0.01, 1e-4, method="rk4", output_every=50)
    planar = rancf.simulate(rancf.pendulum(1, 2, 1.0), 0.01, 1e-3)
    with pytest.raises(ValueError, match="12 numbers a body"):
        rancf.simulate(m, 0.01, 1e-4, method="rk4", state=planar.state(-1))
    moved = rancf.State(res.state(-1).x.copy(), res.state(-1).v)
    moved.x[12 * 4 + 1] += 0.01                  # the second beam's first node 1 cm off the
    # revolute that holds it to the first beam's end: the joint named
    with pytest.raises(ValueError, match=r"poses do not satisfy the joints: joint 1 \(revolute\)"):
        rancf.simulate(m, 0.01, 1e-4, method="rk4", state=moved)
    spun = rancf.State(res.state(-1).x, res.state(-1).v.copy())
    # the revolute child turning off its axis, at 3 rad/s about each axis: its least change
    # onto the joints (the spatial DAE's projection, which moves any start) is 0.12 of the
    # motion in the kinetic-energy metric, over start_check's 0.05. (At 1 rad/s it is 0.04,
    # a light node's spin the least change takes from it: moved, not refused.)
    spun.v[6 * 3 + 3:6 * 3 + 6] += 3.0
    dae = rancf.simulate(m, 1e-4, 1e-4, method="generalized-alpha-s", formulation="dae",
                         state=spun, output_every=1)
    frames = np.asarray(spun.x).reshape(-1, 12)[:, 3:].reshape(-1, 3, 3)
    tree = m.build()
    twist = lambda w: np.concatenate([tree.mass[:, None] * w.reshape(-1, 6)[:, :3], np.einsum(
        "nij,njk,nlk,nl->ni", frames, tree.inertia, frames, w.reshape(-1, 6)[:, 3:])], axis=1)
    dv = np.asarray(dae.velocities[0]).ravel() - spun.v
    assert dv @ twist(dv).ravel() > 0.05 ** 2 * (spun.v @ twist(spun.v).ravel())
    with pytest.raises(ValueError, match="velocities do not satisfy the joints"):
        rancf.simulate(m, 0.01, 1e-4, method="rk4", state=spun)
    with pytest.raises(TypeError, match="state"):
        rancf.simulate(m, 0.01, 1e-4, method="rk4", state=(1, 2))


def cantilever():
    """A clamped rubber-like beam of 0.5 m under gravity and a fixed tip force out of its
    bending planes."""
    m = rancf.Model(dim=3)
    b = m.add_beam(0.5, 4, direction=(1.0, 0.0, 0.0), up=(0.0, 0.6, 0.8), **RUBBER)
    m.add_joint("fixed", m.ground.point(0, 0, 0), b.start)
    m.add_force(b.end, force=(0.0, 0.5, 0.0))
    return m, b


@pytest.mark.parametrize("method", ["rk4", "newmark"])
def test_a_run_from_the_static_equilibrium_stays_there(method):
    """``state="static"`` starts at ``rancf.static``'s equilibrium (the tip equal: the same
    link coordinates) and at rest: the cantilever, loaded from t = 0, does not move; only the
    equilibrium's residual (Newton's tolerance, 1e-10 of the size) drives it (measured with
    both methods: the tip within 8.5e-13 m of the equilibrium over 0.1 s, velocities below
    8.7e-10 m/s and rad/s; asserted 1e-11 m and 1e-8). From the unstressed shape the same run
    swings by 12 cm."""
    m, b = cantilever()
    eq = rancf.static(m)
    assert eq.status == "ok", eq.message
    dt = 1e-4 if method == "rk4" else 1e-3
    res = rancf.simulate(m, 0.1, dt, method=method, output_every=round(0.01 / dt),
                         state="static")
    assert res.status == "ok", res.message
    tip = res.position(b.end)
    np.testing.assert_array_equal(tip[0], eq.position(b.end)[0])
    np.testing.assert_allclose(tip, np.broadcast_to(eq.position(b.end)[0], tip.shape),
                               rtol=0, atol=1e-11)
    assert np.abs(res.velocities).max() < 1e-8
    dropped = rancf.simulate(m, 0.1, dt, method=method, output_every=round(0.01 / dt))
    assert np.abs(dropped.position(b.end) - tip).max() > 1e-2
