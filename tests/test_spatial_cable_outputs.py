"""The spatial recursion's outputs of cable models computed from the stored frames (DECISIONS
32: rancf/formulations/spatial.py ``observe``), each against something independent: central
differences of the cable frames and of the joint values along the motion, the energy of one
state by the formulation's own single-state path, and the stored states' kinematics one by
one."""
import numpy as np
import pytest

import rancf
from rancf.elements._ancf_cable import node_frames
from rancf.formulations.spatial import (Spatial, cable_bases, cable_frames, cable_spins,
                                       implicit_problem, model_inputs)

CABLE = dict(E=1e7, rho=1000.0, A=1e-4, I=1e-9, element="ancf-cable")


def hung_body():
    """A cable on a spherical joint to the ground with a rigid body on a spherical joint at its
    end: two joints at cable points, one with a body on its child side."""
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -9.81))
    c = m.add_beam(1.0, 4, **CABLE)
    body = m.add_rigid_body(0.5, np.eye(3) * 1e-3, position=(1.05, 0.0, 0.0))
    m.add_joint("spherical", m.ground.point(0.0, 0.0, 0.0), c.start)
    m.add_joint("spherical", c.end, body.point(-0.05, 0.0, 0.0))
    return m


def test_cable_spins_are_the_frames_rates():
    """``cable_spins`` (closed form) against the central difference of the frames
    ``cable_frames`` draws along ``e + s ed``: ``F' F^T = w^``, spin about the tangent included
    (the drawn velocities hold the tangent's ``t x t'`` only, which differs from it)."""
    rng = np.random.default_rng(4)
    n = 6
    e = np.concatenate([rng.standard_normal((n, 3)), rng.standard_normal((n, 3))], axis=1)
    ed = rng.standard_normal((n, 6))
    frame0 = np.array([np.linalg.qr(rng.standard_normal((3, 3)))[0] for _ in range(n)])
    frame0 *= np.sign(np.linalg.det(frame0))[:, None, None]
    h = 1e-6

    def frames(s):
        return cable_frames(e + s * ed, ed, frame0)[0][:, 3:].reshape(n, 3, 3)

    F = frames(0.0)
    W = (frames(h) - frames(-h)) / (2 * h) @ np.swapaxes(F, 1, 2)
    w = 0.5 * np.stack([W[:, 2, 1] - W[:, 1, 2], W[:, 0, 2] - W[:, 2, 0],
                        W[:, 1, 0] - W[:, 0, 1]], axis=1)
    spins = cable_spins(e, ed, frame0)
    assert np.abs(spins - w).max() <= 1e-8 * np.abs(w).max()
    tangent_only = cable_frames(e, ed, frame0)[1][:, 3:]
    assert np.abs(tangent_only - w).max() > 1e-3 * np.abs(w).max()


def spinning_cable(phi=0.05, omega=6.0, n=4):
    """A straight cable of 1 m on a spherical joint at the origin without gravity, tilted by
    phi out of the x-y plane from its reference along x and spinning about z at omega: its
    tangents sweep round a circle that passes within phi of the reference's -x (the half
    turn where the smallest rotation from the reference frame is undefined), as a cable
    pendulum's end swinging over through the top does."""
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, 0.0))
    c = m.add_beam(1.0, n, **CABLE)
    m.add_joint("spherical", m.ground.point(0, 0, 0), c.start)
    d = np.array([np.cos(phi), 0.0, np.sin(phi)])
    w = np.array([0.0, 0.0, omega])
    r = np.outer(np.arange(n + 1) / n, d)
    slope = np.tile(d, (n + 1, 1))
    x = np.concatenate([r, slope], axis=1).ravel()
    v = np.concatenate([np.cross(w, r), np.cross(w, slope)], axis=1).ravel()
    return m, rancf.State(x, v)


def smallest_rotations(frame0, t):
    """The reference frames frame0 (c, 3, 3) turned by the smallest rotation taking their x
    to the unit tangents t (..., c, 3): Rodrigues' formula ``R = cos I + k^ + k k^T / (1 +
    cos)``, ``k = x0 x t``, ``cos = x0 . t``."""
    x0 = np.broadcast_to(frame0[:, :, 0], t.shape)
    k, cos = np.cross(x0, t), np.einsum("...i,...i->...", x0, t)[..., None, None]
    K = np.zeros(k.shape + (3,))
    K[..., 0, 1], K[..., 0, 2], K[..., 1, 2] = -k[..., 2], k[..., 1], -k[..., 0]
    K -= np.swapaxes(K, -1, -2)
    R = cos * np.eye(3) + K + k[..., :, None] * k[..., None, :] / (1.0 + cos)
    return R @ frame0


@pytest.mark.parametrize("formulation", ["recursive", "dae"])
def test_cable_frames_through_a_half_turn_are_defined_and_continuous(formulation):
    """The spinning cable's tangents pass within 3 degrees of the reference's -x: the drawn
    node frames stay finite, orthonormal (1e-12) with x the tangent (1e-12), and continuous
    in time: between outputs each frame turns by at most (1 + tan 60 deg) < 3 times its
    tangent's turn (a frame turned from a fixed base spins about t at ``|t'| tan(a / 2)``, a
    the tangent's angle from the base's x, at most 120 degrees: the base moves on past that).
    The smallest rotation from the reference alone spins there at ``|t'| tan(a / 2)`` with a
    up to 177 degrees, 37 times the tangent's turn on these outputs. Where every tangent has
    stayed within 120 degrees of its reference since the start, the frames are the
    reference turned by the smallest rotation (Rodrigues' formula here) to 1e-14."""
    m, state = spinning_cable()
    res = rancf.simulate(m, 1.2, 1e-3, method="generalized-alpha", formulation=formulation,
                         state=state, output_every=5)
    assert res.status == "ok" and res.formulation == {"recursive": "spatial"}.get(formulation,
                                                                                 formulation)
    n_out = len(res.t)
    F = np.asarray(res.nodes)[:, :, 3:].reshape(n_out, -1, 3, 3)
    e = res.extra["cable_nodes"].reshape(n_out, -1, 6)
    t = e[..., 3:] / np.linalg.norm(e[..., 3:], axis=2)[..., None]
    frame0 = m.build().cable_frame0
    assert np.einsum("mki,ki->mk", t, frame0[:, :, 0]).min() < np.cos(np.radians(177.0))
    assert np.isfinite(F).all()
    assert np.abs(np.swapaxes(F, 2, 3) @ F - np.eye(3)).max() <= 1e-12
    assert np.abs(np.linalg.det(F) - 1.0).max() <= 1e-12
    assert np.abs(F[..., :, 0] - t).max() <= 1e-12
    turn = np.arccos(np.clip(np.einsum("mki,mki->mk", t[1:], t[:-1]), -1.0, 1.0))
    relative = np.swapaxes(F[:-1], 2, 3) @ F[1:]
    angle = np.arccos(np.clip((np.trace(relative, axis1=2, axis2=3) - 1.0) / 2.0, -1.0, 1.0))
    assert angle.max() > 0.03
    assert (angle <= (1.0 + np.tan(np.radians(60.0))) * turn + 1e-7).all()
    # before any tangent turned 120 degrees from its reference: the smallest rotation
    within = np.minimum.accumulate(np.einsum("mki,ki->mk", t, frame0[:, :, 0]).min(axis=1))
    early = within >= -0.5
    assert 20 <= early.sum() < n_out
    assert np.abs(F[early] - smallest_rotations(frame0, t[early])).max() <= 1e-14


def test_dae_cable_frames_output_by_output_are_the_runs():
    """The spatial DAE's drawn cable frames and joint coordinates of a run past the half turn
    (all outputs in one pass, when the Result is read) equal those of its ``observe`` called
    output by output in a fresh formulation (each output's frames moving on from the one
    before it kept, the per-output path), to 1e-12; and an output at the same time again
    (not a motion) starts from the reference frames."""
    from rancf.formulations.spatial_dae import SpatialDAE
    m, state = spinning_cable()
    res = rancf.simulate(m, 1.2, 1e-3, method="generalized-alpha", formulation="dae",
                         state=state, output_every=25)
    assert res.status == "ok"
    dae = SpatialDAE(m.build(), *model_inputs(m))
    frame0 = m.build().cable_frame0
    nodes = np.asarray(res.nodes)
    for k in range(len(res.t)):
        s = res.state(k)
        q, qd = dae.state_of_poses(s.x, s.v, res.t[k], tol=np.inf)
        seen = dae.observe(q, qd, res.t[k], np.zeros(dae.n_constraints), reactions=False)
        np.testing.assert_allclose(seen["nodes"], nodes[k].ravel(), rtol=0, atol=1e-12)
        np.testing.assert_allclose(seen["joint_q"], res.joint_q[k], rtol=0, atol=1e-12)
    e = res.extra["cable_nodes"][-1].reshape(-1, 6)
    t = e[:, 3:] / np.linalg.norm(e[:, 3:], axis=1)[:, None]
    again = dae.observe(q, qd, res.t[-1], np.zeros(dae.n_constraints), reactions=False)
    F = again["nodes"].reshape(-1, 12)[:, 3:].reshape(-1, 3, 3)
    x0 = frame0[:, :, 0]
    fresh = np.where((np.einsum("ki,ki->k", t, x0) >= -0.5)[:, None, None], frame0,
                     frame0 * np.array([-1.0, -1.0, 1.0]))
    assert np.abs(F - smallest_rotations(fresh, t)).max() <= 1e-13
    assert np.abs(nodes[-1].reshape(-1, 12)[:, 3:].reshape(-1, 3, 3) - F).max() > 1e-3


def test_cable_frames_opposite_their_reference_without_an_output_before():
    """A state alone whose tangents point 150 degrees to exactly opposite their reference's
    x (no output before it to move on from, as a run started there): finite, orthonormal
    frames with x the tangent, turned from the reference by the half turn about its z and
    then by the smallest rotation (Rodrigues' formula here)."""
    rng = np.random.default_rng(11)
    c = 5
    frame0 = np.array([np.linalg.qr(rng.standard_normal((3, 3)))[0] for _ in range(c)])
    frame0 *= np.sign(np.linalg.det(frame0))[:, None, None]
    x0 = frame0[:, :, 0]
    off = np.cross(x0, rng.standard_normal((c, 3)))
    off /= np.linalg.norm(off, axis=1)[:, None]
    a = np.radians([150.0, 170.0, 179.0, 179.999, 180.0])
    t = np.cos(a)[:, None] * x0 + np.sin(a)[:, None] * off
    e = np.concatenate([rng.standard_normal((c, 3)), 1.3 * t], axis=1)
    bases = cable_bases(np.zeros(1), e[None], frame0)[0]
    F = cable_frames(e, rng.standard_normal((c, 6)), bases)[0][:, 3:].reshape(c, 3, 3)
    assert np.isfinite(F).all()
    assert np.abs(np.swapaxes(F, 1, 2) @ F - np.eye(3)).max() <= 1e-14
    assert np.abs(F[:, :, 0] - t).max() <= 1e-14
    half = frame0 * np.array([-1.0, -1.0, 1.0])
    assert np.abs(F - smallest_rotations(half, t)).max() <= 1e-13


def run(rec, t_end=0.03, every=10):
    """The implicit loop's stored states (n_out, n_y) and times of a run of the recursion."""
    problem = implicit_problem(rec)
    sol = rancf.implicit.integrate(problem, *np.split(rec.initial_state(), 2), t_end, 1e-3,
                                   output_every=every)
    assert sol.status == "ok", sol.message
    return sol


def test_cable_joint_rates_are_the_joint_values_derivative():
    """The rates of the joints at cable points (closed form) against the central difference of
    their values along the state's motion ``q + s qd``, at stored states of a run."""
    rec = Spatial(hung_body().build(), *model_inputs(hung_body()))
    sol = run(rec)
    n = rec.n_free
    states = np.concatenate([sol.q, sol.v], axis=1)[1:]
    t = sol.t[1:]
    seen = rec.observe(t, states, None)
    h = 1e-6 / np.abs(states[:, n:]).max()
    plus, minus = states.copy(), states.copy()
    plus[:, :n] += h * states[:, n:]
    minus[:, :n] -= h * states[:, n:]
    dq = (rec.observe(t, plus, None)["joint_q"] - rec.observe(t, minus, None)["joint_q"]) / (2 * h)
    assert np.abs(seen["joint_qd"] - dq).max() <= 1e-7 * np.abs(dq).max()


def test_deferred_energies_are_each_states_energy():
    """``Result.energy()`` of an implicit run (computed from the stored frames when asked,
    all frames at once) against :meth:`Spatial.energy` of each stored state (one state's
    kinematics, its own sums)."""
    m = hung_body()
    rec = Spatial(m.build(), *model_inputs(m))
    sol = run(rec, 0.02, 5)
    assert callable(sol.extra["energies"])
    energies = sol.extra["energies"]()
    for k, (q, v) in enumerate(zip(sol.q, sol.v)):
        one = rec.energy(np.concatenate([q, v]))
        for name in ("kinetic", "gravity", "elastic"):
            assert abs(energies[name][k] - one[name]) <= 1e-12 * max(1.0, abs(one[name]))


def test_deferred_outputs_are_each_states_kinematics():
    """A run's outputs are made from its stored states when the Result is first asked for them
    (nothing at the run's end): the cable coordinates in ``extra`` against the kinematics of
    each stored state one by one (:meth:`Spatial.kinematics`), and every deferred output, read
    in either order or after a pickle, equal to the formulation's outputs computed at once
    from the same states."""
    import pickle

    from rancf.results.result import result_of

    m = hung_body()
    rec = Spatial(m.build(), *model_inputs(m))
    names = ("nodes", "velocities", "joint_q", "joint_qd", "reactions")
    for first in ("extra", "nodes", "pickle"):
        sol = run(rec, 0.03, 5)
        assert callable(sol.nodes) and callable(sol.extra["cable_nodes"])
        states = np.concatenate([sol.q, sol.v], axis=1)
        res = result_of(m, sol)
        assert "extra" not in vars(res) and "nodes" not in vars(res)
        if first == "pickle":
            res = pickle.loads(pickle.dumps(res))
        elif first == "extra":
            assert set(res.extra) >= {"cable_nodes", "cable_velocities", "newton_iterations"}
            for k, y in enumerate(states):
                rec.kinematics(y)
                e, ed = rec.cable_coordinates()
                assert np.array_equal(res.extra["cable_nodes"][k], e.ravel())
                assert np.array_equal(res.extra["cable_velocities"][k], ed.ravel())
        now = rec.observe(sol.t, states, None)
        for name in names:
            assert np.array_equal(np.reshape(getattr(res, name), now[name].shape), now[name])
        for name in ("cable_nodes", "cable_velocities"):
            assert np.array_equal(res.extra[name], now[name])
        for name in ("kinetic", "gravity", "elastic"):
            assert np.array_equal(res.energy()[name], now[name])


def test_frames_are_each_states_kinematics():
    """``SpatialKernel.frames`` (all states in one call) against the kinematics of each state."""
    m = hung_body()
    rec = Spatial(m.build(), *model_inputs(m))
    rng = np.random.default_rng(7)
    Y = 1e-2 * rng.standard_normal((4, rec.n_y))
    N = rec.kernel.n_bodies
    q, qd = np.empty((4, rec.n_q)), np.empty((4, rec.n_q))
    x, v = np.empty((4, N, 12)), np.empty((4, N, 6))
    rec.kernel.frames(Y, q, qd, x, v)
    nb = rec.tree.n_bodies
    for k, y in enumerate(Y):
        r, A, V = rec.kinematics(y)
        e, ed = rec.cable_coordinates()
        assert np.array_equal(x[k, :nb, :3], r) and np.array_equal(x[k, :nb, 3:], A.reshape(-1, 9))
        assert np.array_equal(v[k, :nb], V)
        assert np.array_equal(x[k, nb:, :6], e) and np.array_equal(v[k, nb:], ed)
        assert np.array_equal((q[k], qd[k]), rec.kernel.full(y))


def test_frames_and_node_frames_name_the_shapes_they_got():
    """A wrong shape is a ValueError that gives the shapes expected and those passed."""
    m = hung_body()
    rec = Spatial(m.build(), *model_inputs(m))
    N, nq, ny = rec.kernel.n_bodies, rec.n_q, rec.n_y
    with pytest.raises(ValueError, match=rf"got Y \(2, {ny + 1}\), q \(2, {nq}\)"):
        rec.kernel.frames(np.zeros((2, ny + 1)), np.zeros((2, nq)), np.zeros((2, nq)),
                          np.zeros((2, N, 12)), np.zeros((2, N, 6)))
    with pytest.raises(ValueError, match=r"got e \(3, 5\), ed \(3, 6\), frame0 \(3, 3, 3\)"):
        node_frames(np.zeros((3, 5)), np.zeros((3, 6)), np.zeros((3, 3, 3)), np.zeros((3, 12)),
                    np.zeros((3, 6)))
