"""The spatial ANCF cable in the O(n) spatial recursion (rancf/formulations/_spatial.pyx, its
cable nodes; :func:`rancf.formulations.spatial.cable_layout`), each test against something
independent: the spatial DAE of the same model (absolute coordinates, constraint rows,
multipliers), Exudyn's static value, the Chrono pendulum's test-local reference (the cable's
kernels assembled in absolute coordinates, tests/test_cable_chrono.py), conservation of energy
and the schemes' orders."""
import re

import numpy as np
import pytest

import rancf
from rancf.formulations.spatial import Spatial, model_inputs, of_model
from rancf.formulations.spatial_dae import SpatialDAE, _E, quaternion
from rancf.integrators.explicit import integrate

CABLE = dict(E=1e7, rho=1000.0, A=1e-4, I=1e-9, element="ancf-cable")


def absolute_state(rec, y):
    """The spatial DAE's ``(x, v)`` of the recursion's state y: every body's position and
    Euler parameters and their rates, every cable node's ``[r, r']`` and rates, from the
    recursion's kinematics."""
    rec.kernel.kinematics(y)
    r, A, V = rec.kinematics(y)
    e, ed = rec.cable_coordinates()
    p = quaternion(A)
    pd = 0.5 * np.einsum("nia,ni->na", _E(p), V[:, 3:])
    x = np.concatenate([np.concatenate([r, p], axis=1).ravel(), e.ravel()])
    v = np.concatenate([np.concatenate([V[:, :3], pd], axis=1).ravel(), ed.ravel()])
    return x, v


def ground_pendulum():
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -9.81))
    c = m.add_beam(1.0, 4, **CABLE)
    m.add_joint("spherical", m.ground.point(0, 0, 0), c.start)
    return m


def clamped(damping=2e-3):
    m = rancf.Model(dim=3, gravity=(0.0, -9.81, 0.0))
    c = m.add_beam(1.0, 3, **{**CABLE, "damping": damping})
    m.add_joint("fixed", m.ground.point(0, 0, 0), c.start)
    m.add_force(c.end, force=(0.5, 0.2, -1.0))
    return m


def on_a_hub_with_a_payload():
    """A cable clamped to a hub on a revolute joint, a rigid payload on its end (a point off
    the payload's centre), a load on an inner node, gravity."""
    m = rancf.Model(dim=3, gravity=(0.0, -3.0, -9.81))
    hub = m.add_rigid_body(1.0, np.diag([0.01, 0.02, 0.03]), position=(0, 0, 0))
    m.add_joint("revolute", m.ground.point(0, 0, 0), hub.centre, axis=(0, 0, 1))
    c = m.add_beam(1.0, 3, start=(0.2, 0, 0), **CABLE)
    m.add_joint("fixed", hub.point(0.2, 0, 0), c.start)
    r = m.add_rigid_body(0.2, np.diag([1e-4, 2e-4, 3e-4]), position=(1.3, 0.05, 0))
    m.add_joint("spherical", c.end, r.point(-0.1, -0.05, 0))
    m.add_force(c.node(1), force=(0.3, 0.2, -1.0))
    return m


def beam_and_cables():
    """An SE(3) beam on a spherical joint, a cable hung at its inner node 2 from the beam's
    tip (its elements run both ways from there), a second cable on the first one's end, a
    beam tip load."""
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -9.81))
    b = m.add_beam(0.5, 2, E=1e8, rho=1000.0, A=1e-4, I=(1e-9, 1e-9), J=2e-9, G=4e7)
    m.add_joint("spherical", m.ground.point(0, 0, 0), b.start)
    c = m.add_beam(1.0, 4, **CABLE)
    m.add_joint("spherical", b.end, c.node(2))
    d = m.add_beam(1.0, 2, start=(1.0, 0, 0), **{**CABLE, "damping": 1e-3})
    m.add_joint("spherical", c.end, d.start)
    m.add_force(b.end, force=(0.0, 1.0, -1.0))
    return m


def curved(damping=1e-3):
    """A quarter circle of cable (its reference is its rest state: curved cables) on a ground
    spherical joint, damped, under gravity across its plane and a tip load."""
    m = rancf.Model(dim=3, gravity=(0.0, -2.0, -9.81))
    a = np.linspace(0.0, np.pi / 2, 5)
    c = m.add_beam(n_elements=4, points=np.column_stack([np.sin(a), 1 - np.cos(a), 0 * a]),
                   tangents=np.column_stack([np.cos(a), np.sin(a), 0 * a]),
                   **{**CABLE, "damping": damping})
    m.add_joint("spherical", m.ground.point(0, 0, 0), c.start)
    m.add_force(c.end, force=(0.1, 0.0, -0.2))
    return m


def with_moments():
    """Moments at cable nodes (they bend it through its slopes: ``(M x r') / |r'|^2``): a
    constant one normal to the cable at the end of a cable clamped to a hub, functions of t
    normal to the cables' reference tangent (x; their part along the tangent of a turned
    state dropped) at an inner node and at the end of a second cable on a spherical joint to
    the first one's end."""
    m = rancf.Model(dim=3, gravity=(0.0, -3.0, -9.81))
    hub = m.add_rigid_body(1.0, np.diag([0.01, 0.02, 0.03]), position=(0, 0, 0))
    m.add_joint("revolute", m.ground.point(0, 0, 0), hub.centre, axis=(0, 0, 1))
    c = m.add_beam(1.0, 3, start=(0.2, 0, 0), **CABLE)
    m.add_joint("fixed", hub.point(0.2, 0, 0), c.start)
    d = m.add_beam(0.5, 2, start=(1.2, 0, 0), **CABLE)
    m.add_joint("spherical", c.end, d.start)
    m.add_force(c.end, moment=(0.0, 2e-3, -1e-3))
    m.add_force(c.node(1), force=(0.0, 0.1, 0.0),
                moment=lambda t: (0.0, 1e-3 * np.cos(3 * t), 2e-3 * np.sin(t)))
    m.add_force(d.end, moment=lambda t: (0.0, -1e-3 * t, 1e-3))
    return m


@pytest.mark.parametrize("build", [ground_pendulum, clamped, on_a_hub_with_a_payload,
                                   beam_and_cables, curved, with_moments])
@pytest.mark.parametrize("seed", range(2))
def test_accelerations_equal_the_spatial_daes(build, seed):
    """At a random state of the recursion (its coordinates 0.1 off the reference, random
    rates), mapped to absolute coordinates (which then satisfy the DAE's rows and their
    velocity rows to round-off), the DAE's accelerations of every body and cable node (its
    multipliers' solve) equal the recursion's to 1e-10 of their largest (DECISIONS 7)."""
    m = build()
    tree = m.build()
    rec, dae = Spatial(tree, *model_inputs(m)), SpatialDAE(tree, *model_inputs(m))
    assert rec.cables is not None
    rng = np.random.default_rng(seed)
    n = rec.n_free
    y = np.concatenate([0.1 * rng.standard_normal(n), rng.standard_normal(n)])
    t = 0.2
    rec.inputs.at_time(t)
    ydot = rec.derivative(t, y)
    x, v = absolute_state(rec, y)
    assert np.abs(dae.constraint(x, t)).max() <= 1e-14
    assert np.abs(dae.constraint_jacobian(x, t) @ v + dae.velocity_bias(x, t)).max() <= 1e-13
    rec.kernel.kinematics(y, ydot[n:])
    N = tree.n_bodies + tree.n_cable_nodes
    acc = rec.kernel.arrays["acc"][:6 * N].reshape(N, 6)
    a, _ = dae.multipliers(x, v, t)
    expected = np.concatenate([dae.accelerations(x, v, a).ravel(), a[dae._c0:]]).reshape(N, 6)
    assert np.abs(expected - acc).max() <= 1e-10 * np.abs(acc).max()


def test_reactions_equal_the_spatial_daes():
    """The reactions of the clamp on the hub (its force and the moment ``r' x F_{r'}``) and of
    the payload's spherical joint equal the DAE's (from its multipliers) to 1e-10 of their
    largest, at a random state."""
    m = on_a_hub_with_a_payload()
    tree = m.build()
    rec, dae = Spatial(tree, *model_inputs(m)), SpatialDAE(tree, *model_inputs(m))
    rng = np.random.default_rng(3)
    n = rec.n_free
    y = np.concatenate([0.1 * rng.standard_normal(n), rng.standard_normal(n)])
    W = rec.reactions(0.0, y)
    x, v = absolute_state(rec, y)
    _, lam = dae.multipliers(x, v, 0.0)
    expected = dae.reactions(x, lam, 0.0)
    assert np.abs(expected - W).max() <= 1e-10 * np.abs(W).max()


def test_cable_pendulum_conserves_energy_at_rk4s_order():
    """A cable released horizontally on a spherical joint, no damping, RK4 on the recursion: ``kinetic + elastic + gravity`` drifts at RK4's fourth order (the drift
    falls by 12 to 20 when dt halves), and at dt = 1e-4 s stays within 1e-9 of the energy
    exchanged."""
    drifts = []
    for dt in (4e-4, 2e-4, 1e-4):
        m = ground_pendulum()
        res = rancf.simulate(m, t_end=0.1, dt=dt, method="rk4")
        assert res.status == "ok" and res.formulation == "spatial", res.message
        e = res.energy()
        drifts.append(float(np.abs(e.total - e.total[0]).max()))
    assert 12.0 <= drifts[0] / drifts[1] <= 20.0
    assert drifts[2] <= 1e-9 * float(np.abs(e.gravity - e.gravity[0]).max())


def test_trajectories_converge_to_each_other_at_newmarks_order():
    """The payload pendulum on the recursion (RK4 at 1e-4 s: converged) and on the DAE
    (Newmark at 2 and 1 ms): the DAE's tip and payload positions approach the recursion's at
    second order (their distance falls by 3 to 5 as the step halves); the recursion's own
    Newmark steps (implicit loop) likewise, and its Newmark and the DAE's are the same
    scheme's: their distances to the converged motion agree to a factor of 2."""
    def model():
        m = rancf.Model(dim=3, gravity=(0.0, 0.0, -9.81))
        c = m.add_beam(1.0, 4, **CABLE)
        m.add_joint("spherical", m.ground.point(0, 0, 0), c.start)
        r = m.add_rigid_body(0.2, np.diag([1e-4, 2e-4, 2e-4]), position=(1.1, 0, 0))
        m.add_joint("spherical", c.end, r.point(-0.1, 0, 0))
        return m, c, r

    def ends(res, c, r):
        return np.concatenate([res.position(c.end), res.position(r.centre)], axis=1)

    m, c, r = model()
    ref = rancf.simulate(m, t_end=0.2, dt=1e-4, method="rk4", output_every=20)
    assert ref.formulation == "spatial"
    converged = ends(ref, c, r)
    gaps = {}
    for formulation in ("dae", "recursive"):
        for dt in (2e-3, 1e-3):
            m, c, r = model()
            res = rancf.simulate(m, t_end=0.2, dt=dt, method="newmark",
                                 formulation=formulation, output_every=round(2e-3 / dt))
            assert res.status == "ok", res.message
            gaps[formulation, dt] = float(np.abs(ends(res, c, r) - converged).max())
    for formulation in ("dae", "recursive"):
        assert 3.0 <= gaps[formulation, 2e-3] / gaps[formulation, 1e-3] <= 5.0
    assert 0.5 <= gaps["dae", 1e-3] / gaps["recursive", 1e-3] <= 2.0


def test_exudyn_3d_cable_cantilever_on_the_recursion():
    """Exudyn's ObjectANCFCable static test (tests/test_spatial_cable_model.py gives the
    model: L = 2 m, 32 elements, rho A = 78 kg/m, EA = 1e6 N, EI = 833.33 N m^2, gravity
    9.81 m/s^2, a clamp) through ``rancf.static`` on the recursion: the tip's x displacement
    is Exudyn's -0.5013058140308919 m to 1e-9 m, and the clamp carries the weight."""
    m = rancf.Model(dim=3, gravity=(0.0, -9.81, 0.0))
    c = m.add_beam(2.0, 32, E=1e6, rho=78.0, A=1.0, I=833.3333333333333e-6,
                   element="ancf-cable")
    clamp = m.add_joint("fixed", m.ground.point(0, 0, 0), c.start)
    res = rancf.static(m, load_steps=4, tol=1e-12)
    assert res.status == "ok", res.message
    assert res.formulation == "spatial"
    tip = res.position(c.end)[-1]
    assert abs((tip[0] - 2.0) - -0.5013058140308919) <= 1e-9
    weight = 78.0 * 2.0 * 9.81
    assert np.allclose(res.reaction(clamp)[-1, :3], [0.0, weight, 0.0], rtol=0, atol=1e-9 * weight)


def test_chrono_pendulum_through_the_recursion():
    """Chrono's cable pendulum (tests/test_cable_chrono.py: its nodes start at -4 x m/s along
    z, its slopes at rest) started in the recursion's coordinates (each element's ``z' =
    e_k' - e_{k-1}'``) and integrated by DOP853 at rtol = atol = 1e-11: at the file's times up
    to 0.1 s node 3's y and node 5's x and z equal the test-local converged RK4 solution
    (absolute coordinates, dense mass: 2.6e-9 m from its own half step) to 1e-8 m."""
    from test_cable_chrono import Pendulum, chrono_file
    from test_cable_chrono import integrate as reference_run
    p = Pendulum()
    m = rancf.Model(dim=3, gravity=(0.0, -9.8, 0.0))
    c = m.add_beam(1.0, 4, E=p.E, rho=p.rho, A=p.A, I=p.I, element="ancf-cable")
    m.add_joint("spherical", m.ground.point(0, 0, 0), c.start)
    rec = Spatial(m.build(), *model_inputs(m))
    qd = np.zeros(rec.n_free)
    qd[3 + 2::6] = -4.0 * p.l          # node k's z-velocity less node k-1's
    y0 = rec.initial_state(qd=qd)
    t = chrono_file()["t"]
    t = t[t <= 0.1 + 1e-12]
    sol = integrate(rec.kernel, y0, t, 1e-4, "scipy:DOP853", 1e-11, 1e-11, 100.0)
    assert sol.status == "ok", sol.message
    nodes = sol.nodes.reshape(len(t), -1, 12)          # the cable's nodes after the bodies
    mine = np.column_stack([nodes[:, 2, 1], nodes[:, 4, 0], nodes[:, 4, 2]])
    expected = reference_run(p, 5e-5, t[1:], "rk4")[:, 3:6]
    assert np.abs(mine[1:] - expected).max() <= 1e-8


def test_what_the_recursion_cannot_run_is_named():
    """Two joints on one cable (both ends pinned: a loop) and a body clamped to a cable point
    are refused by the recursion with the joint named and formulation 'dae' pointed to; 'auto'
    runs them on the DAE."""
    m = rancf.Model(dim=3)
    c = m.add_beam(1.0, 2, **CABLE)
    m.add_joint("spherical", m.ground.point(0, 0, 0), c.start)
    m.add_joint("spherical", m.ground.point(1, 0, 0), c.end)
    with pytest.raises(ValueError, match="joint 1 \\(spherical\\) is a second joint on a "
                                         "cable.*formulation 'dae' runs it"):
        rancf.simulate(m, t_end=0.01, dt=1e-3, formulation="recursive")
    assert rancf.simulate(m, t_end=0.01, dt=1e-3).formulation == "dae"


@pytest.mark.parametrize("build", [ground_pendulum, clamped, on_a_hub_with_a_payload,
                                   beam_and_cables, curved])
def test_a_recursive_runs_state_continues_its_trajectory_on_the_recursion(build):
    """``Result.state(-1)`` of an RK4 run (bodies' poses, cable nodes' ``[r, r']``, rates)
    starts a second run on the recursion (``Spatial.state_of``: the cables' coordinates
    ``z = e_k - e_p`` and the roots' joint coordinates) that continues the trajectory of one
    run over both spans: every body pose and cable coordinate to 1e-12 of their size, every
    rate to 1e-12 of the largest (RK4 keeps nothing but the state between steps)."""
    m = build()
    dt = 2e-5 if build in (clamped, beam_and_cables) else 1e-4
    whole = rancf.simulate(m, 0.02, dt, method="rk4")
    m = build()
    first = rancf.simulate(m, 0.01, dt, method="rk4")
    then = rancf.simulate(m, 0.01, dt, method="rk4", state=first.state(-1))
    assert first.formulation == then.formulation == "spatial", then.message
    for key in ("cable_nodes", "cable_velocities"):
        a, b = then.extra[key][-1], whole.extra[key][-1]
        assert np.abs(a - b).max() <= 1e-12 * max(1.0, np.abs(b).max())
    assert np.abs(then.nodes[-1] - whole.nodes[-1]).max() <= 1e-12
    assert np.abs(then.velocities[-1] - whole.velocities[-1]).max() <= \
        1e-12 * np.abs(whole.velocities[-1]).max()


def _turned_cable(kind, n=4, theta=0.7, omega=1.3, stretch=2e-3, payload=False):
    """A straight cable of 1 m along x on a joint at the origin (``"spherical"``: turned
    about z by theta, turning at omega; ``"fixed"``: stretched uniformly by ``stretch``, at
    rest), with ``payload`` a rigid body of 0.2 kg on its end (spherical joint, centre 0.1 m
    beyond), and the State of it built by hand: node k at ``R (1 + s) k h e_x``, slope ``R (1 +
    s) e_x``, the body at ``R (1 + s + 0.1) e_x`` in the frame R, rates ``omega e_z x``
    those (the body's angular velocity ``omega e_z + 5 R e_x``: it spins about the cable)."""
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -9.81))
    c = m.add_beam(1.0, n, **CABLE)
    m.add_joint(kind, m.ground.point(0, 0, 0), c.start)
    if kind == "fixed":
        theta, omega, s = 0.0, 0.0, stretch
    else:
        s = 0.0
    R = np.array([[np.cos(theta), -np.sin(theta), 0], [np.sin(theta), np.cos(theta), 0],
                  [0, 0, 1]])
    h = 1.0 / n
    w = np.array([0.0, 0.0, omega])
    r = (1 + s) * np.outer(np.arange(n + 1) * h, R[:, 0])
    slope = np.tile((1 + s) * R[:, 0], (n + 1, 1))
    x = np.concatenate([r, slope], axis=1).ravel()
    v = np.concatenate([np.cross(w, r), np.cross(w, slope)], axis=1).ravel()
    if payload:
        body = m.add_rigid_body(0.2, np.diag([1e-3, 2e-3, 3e-3]), position=(1.1, 0, 0))
        m.add_joint("spherical", c.end, body.point(-0.1, 0, 0))
        centre = (1 + s + 0.1) * R[:, 0]
        # the body spins about its own axis too (the spherical joint lets it)
        spin = w + 5.0 * R[:, 0]
        x = np.concatenate([centre, R.ravel(), x])
        v = np.concatenate([np.cross(w, centre), spin, v])
    return m, c, rancf.State(x, v), (theta, omega, s, h)


@pytest.mark.parametrize("kind", ["spherical", "fixed"])
def test_a_state_built_by_hand_gives_the_relative_coordinates_by_hand(kind):
    """A straight cable turned about its pin by theta at omega (spherical joint) or
    stretched by s on a clamp: the recursion's state of that State holds, worked out by
    hand, the root's slope change ``R e_x - e_x`` and its rate ``omega e_z x R e_x``
    (spherical) or the stretch s (clamp), and for every element ``z = e_k - e_{k-1} - (e0_k
    - e0_{k-1})``: ``[R (1 + s) h e_x - h e_x, 0]``, its rate ``[omega e_z x R h e_x, 0]``."""
    m, c, state, (theta, omega, s, h) = _turned_cable(kind)
    rec = Spatial(m.build(), *model_inputs(m))
    y = rec.state_of(state.x, state.v)
    n = rec.n_free
    turn = np.array([np.cos(theta) - 1.0, np.sin(theta), 0.0])
    rate = omega * np.array([-np.sin(theta), np.cos(theta), 0.0])
    if kind == "spherical":
        root, root_rate, first = turn, rate, 3
    else:
        root, root_rate, first = np.array([s]), np.zeros(1), 1
    z = np.concatenate([(1 + s) * h * np.array([np.cos(theta), np.sin(theta), 0.0])
                        - [h, 0, 0], np.zeros(3)])
    zd = np.concatenate([h * rate, np.zeros(3)])
    expected_q = np.concatenate([root, np.tile(z, c.n_elements)])
    expected_qd = np.concatenate([root_rate, np.tile(zd, c.n_elements)])
    assert n == first + 6 * c.n_elements
    assert np.abs(y[:n] - expected_q).max() <= 1e-15
    assert np.abs(y[n:] - expected_qd).max() <= 1e-15


@pytest.mark.parametrize("kind", ["spherical", "fixed"])
def test_the_recursion_and_the_dae_from_one_state_agree_at_the_schemes_order(kind):
    """From the hand-built State (the cable turning about its pin, or stretched on its
    clamp, released under gravity) the recursion and the spatial DAE run Newmark. A cable
    alone has coordinates linear in each other's (``z = e_k - e_{k-1}``, its joint's rows
    linear in e), so the two solve the same discrete equations: their cable coordinates agree
    to 1e-8 m (Newton's tolerance) at every step. With a payload on the cable's end (its
    rotation vector against the DAE's Euler parameters) they differ by the scheme's error:
    the distance falls by 3 to 5 as the step halves."""
    for payload in (False, True):
        gaps = []
        for dt in (4e-3, 2e-3, 1e-3):
            runs = []
            for formulation in ("recursive", "dae"):
                m, c, state, _ = _turned_cable(kind, payload=payload)
                res = rancf.simulate(m, 0.1, dt, method="newmark", state=state,
                                     formulation=formulation, output_every=round(0.02 / dt))
                assert res.status == "ok", res.message
                assert res.formulation == ("spatial" if formulation == "recursive" else "dae")
                assert np.abs(res.state(0).x - state.x).max() <= 1e-14
                runs.append(res.extra["cable_nodes"])
            gaps.append(float(np.abs(runs[0] - runs[1]).max()))
        if not payload:
            assert max(gaps) <= 1e-8, gaps
        else:
            assert gaps[-1] > 1e-8
            for a, b in zip(gaps, gaps[1:]):
                assert 3.0 <= a / b <= 5.0, gaps


def test_a_state_off_the_cables_joints_is_refused_with_the_gap():
    """The recursion refuses a State its tree cannot hold, naming the cable node, its joint
    and the gap: the root node moved 1e-3 m off the pin, a clamped slope turned off the
    clamp's axis by 1e-4, the root's point moving at delta = 0.5 m/s off a ground pin: its
    least change onto the pin in the kinetic-energy metric (the spatial DAE's projection, which
    moves any start: the reference) is 0.087 of the motion, more than the 0.05 a DAE run's
    state may be off (rancf/formulations/start_check.py); at 0.1 m/s (0.018) it is moved
    onto the pin and the Result's message says so. (The least change takes the miss mostly
    from the root's light slope rates, not, as a fit of the nodes relative to the root would,
    from the whole cable.)"""
    m, c, state, _ = _turned_cable("spherical")
    x = state.x.copy()
    x[2] += 1e-3
    with pytest.raises(ValueError, match=r"state: the poses do not satisfy the joints \(a "
                                         r"constraint off by 0.001 m.*at cable node 0 .*on "
                                         r"joint 0 \(spherical\)"):
        rancf.simulate(m, 0.002, 1e-3, state=rancf.State(x, state.v), formulation="recursive")
    m, c, state, _ = _turned_cable("fixed")
    x = state.x.copy()
    x[4] += 1e-4 * np.linalg.norm(x[3:6])
    with pytest.raises(ValueError, match=r"off by 0.0001 of \|r'\|.*turned off the clamp's "
                                         r"axis\) at cable node 0 .*on joint 0 \(fixed\)"):
        rancf.simulate(m, 0.002, 1e-3, state=rancf.State(x, state.v))
    m, c, state, _ = _turned_cable("spherical")
    energy = of_model(m)._kinetic_action
    frames = np.zeros((0, 3, 3))
    for delta, share in ((0.5, 0.087), (0.1, 0.018)):
        v = state.v.copy()
        v[1] += delta
        dae = rancf.simulate(m, 1e-4, 1e-4, method="generalized-alpha-s", formulation="dae",
                             state=rancf.State(state.x, v), output_every=1)
        dv = np.asarray(dae.extra["cable_velocities"][0]) - v
        ratio = np.sqrt(dv @ energy(frames, dv) / (v @ energy(frames, v)))
        assert abs(ratio - share) < 1e-3, ratio
    v = state.v.copy()
    v[1] += 0.5
    with pytest.raises(ValueError, match=r"the velocities do not satisfy the joints at cable "
                                         r"node 0, which takes the largest share of their "
                                         r"change: .* kinetic energy dv\^T M dv / 2 = "
                                         ) as err:
        rancf.simulate(m, 0.002, 1e-3, state=rancf.State(state.x, v))
    # the ratio it judged is the DAE's least change's, 0.087 of the motion's root above
    ratio = float(re.search(r"a ratio (\S+) above", str(err.value)).group(1))
    assert abs(np.sqrt(ratio) - 0.087) < 1e-3, ratio
    v[1] -= 0.4
    res = rancf.simulate(m, 0.002, 1e-3, state=rancf.State(state.x, v))
    assert res.status == "ok" and "start state was moved onto the joints" in res.message, \
        res.message
    assert abs(res.extra["cable_velocities"][0][1] - state.v[1]) < 1e-12


@pytest.mark.parametrize("build", [ground_pendulum, lambda: clamped(damping=0.0),
                                   lambda: curved(damping=0.0)])
def test_implicit_newton_matrix_is_the_residuals_exact_jacobian(build):
    """On an undamped cable hung from the ground (spherical joint, or clamp under a tip load)
    the coordinates are linear in the nodes', so the implicit loop's Newton matrix ``S = c_m M
    + c_k K + c_c C``, factored by the O(n) elimination, is the exact derivative of the
    residual ``M a - F(q, v)`` along ``(dq, dv, da) = (c_k, c_c, c_m) z``: its solve of central
    differences of the residual (dense, step 1e-6) gives z back to 1e-6, at a random state."""
    from rancf.formulations.spatial import implicit_problem
    m = build()
    rec = Spatial(m.build(), *model_inputs(m))
    P = implicit_problem(rec)
    rng = np.random.default_rng(5)
    n = rec.n_free
    q, v, a = 0.01 * rng.standard_normal(n), rng.standard_normal(n), rng.standard_normal(n)
    c_m, c_k, c_c = 4e6, 1.0, 2e3          # Newmark's at a step of 1 ms
    z = rng.standard_normal(n)
    h = 1e-6
    Jz = (P.residual(q + h * c_k * z, v + h * c_c * z, 0.0, a + h * c_m * z)
          - P.residual(q - h * c_k * z, v - h * c_c * z, 0.0, a - h * c_m * z)) / (2 * h)
    x = P.newton_solve(q, v, 0.0, Jz, c_m, c_k, c_c)
    assert np.abs(x - z).max() <= 1e-6 * np.abs(z).max()


def pinned_cable(n, direction):
    """A 1 m cable (EA = 1e3 N, rho A = 0.1 kg/m) on a spherical joint at the origin, drawn
    along ``direction``, gravity -z: the audit's model (tests/test_audit_findings.py)."""
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -9.81))
    c = m.add_beam(1.0, n, E=1e6, rho=100.0, A=1e-3, I=1e-9, element="ancf-cable",
                   direction=direction)
    m.add_joint("spherical", m.ground.point(0, 0, 0), c.start)
    return m, c


@pytest.mark.parametrize("n", [4, 8, 16])
@pytest.mark.parametrize("direction", [(1.0, 0.0, 0.0), (0.0, 0.0, 1.0)])
def test_statics_of_a_cable_on_a_pin_hangs_it_down(n, direction):
    """Drawn horizontal (the load steps' swing lands 4 elements upright) or upright (Newton
    converges to the compressed straight cable above the pin, where it starts), the
    recursion's statics must leave that unstable equilibrium for the one it hangs in:
    straight down, tension ``T(s) = rho A g (L - s)``, so a node at arc length s sits at
    ``z = -(s + rho A g (L s - s^2 / 2) / EA)`` (the stretch is quadratic in s, which the
    cubic Hermite elements hold exactly). Bound 1e-9 m: Newton's tolerance (1e-10 of the
    1 m size) and round-off. Its stability by the other linearization: rancf.modes there
    (the recursion's dense stiffness in link coordinates) finds every omega^2 positive."""
    m, c = pinned_cable(n, direction)
    res = rancf.static(m)
    assert res.status == "ok", res.message
    rhoA, g, EA = 0.1, 9.81, 1e3
    s = np.linspace(0.0, 1.0, n + 1)
    nodes = res.extra["cable_nodes"][0].reshape(-1, 6)[:, :3]
    expected = np.stack([0 * s, 0 * s, -(s + rhoA * g * (s - s**2 / 2) / EA)], axis=1)
    np.testing.assert_allclose(nodes, expected, rtol=0, atol=1e-9)
    found = rancf.modes(m, state=res.state(0), n=3)
    assert np.all(found.frequencies > 0.0)


def test_statics_says_so_where_it_cannot_leave_an_unstable_equilibrium(monkeypatch):
    """Where the continuations off the unstable equilibrium find nothing (patched to fail),
    statics returns that equilibrium as 'failed', its message saying it is unstable and that
    the joint leaves the cable free to swing; rancf.modes there (the independent, dense
    linearization) refuses it as unstable."""
    from rancf.integrators import static as statics
    monkeypatch.setattr(statics, "_pseudo_transient_first_step", lambda *args: None)
    # and the damped steps, the descent tried first
    monkeypatch.setattr(statics, "_damped_newton", lambda *args: None)
    m, c = pinned_cable(4, (0.0, 0.0, 1.0))
    res = rancf.static(m)
    assert res.status == "failed"
    assert "unstable" in res.message and "free to swing" in res.message, res.message
    assert res.position(c.end)[0, 2] > 0.99            # the upright equilibrium, compressed
    with pytest.raises(ValueError, match="unstable"):
        rancf.modes(m, state=res.state(0), n=3)
