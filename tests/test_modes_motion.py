"""``Modes.motion``'s energies against closed forms: a motion along a mode exchanges its
kinetic energy ``1/2 omega^2 a^2`` (unit modal mass) with the potential ``1/2 a^2 shape^T K
shape`` of the same size; a rigid-body turn has the kinetic energy ``1/2 I w^2`` and no
elastic energy. Planar models and the spatial DAE (a loop) draw the mode in absolute
coordinates, where the straight line leaves the joints and stretches the beams at second
order; spatial trees draw it through their link coordinates."""
import numpy as np
import pytest

import rancf

E, RHO, AREA, INERTIA, L = 2.1e11, 7800.0, 1e-4, 1e-10, 1.0


def rises(series):
    """The change of an energy column from the first frame (J)."""
    return series.values - series.values[0]


def test_a_planar_pendulums_swing_raises_its_weight():
    """A rigid body hanging at d below a pin: at the frame of largest swing theta the weight
    has risen ``m g d (1 - cos theta)`` (the frames on the pin's circle: exact, to the
    projection's round-off, 1e-9), the kinetic energy at the equilibrium is the body's ``1/2
    (I_c + m d^2) w^2`` (w the pin's rate there: exact) and equals that rise to the
    linearization's ``theta^2 / 4`` (``1/2 sin^2`` against ``1 - cos``; bound theta^2); the
    elastic column, which the rigid body has none of, moves by the fourth-order rest,
    below ``theta^2`` of the kinetic energy. Before, the frames left the circle along its
    tangent: the weight did not rise at all."""
    mass, I_c, d, g = 2.0, 0.03, 0.4, 9.81
    m = rancf.Model(gravity=(0.0, -g))
    body = m.add_rigid_body(mass, I_c, position=(0.0, -d))
    m.add_joint("revolute", m.ground.point(0.0, 0.0), body.point(0.0, d))
    found = rancf.modes(m, n=1)
    motion = found.motion(0, scale=0.01, n_frames=8)
    e = motion.energy()
    theta = motion.joint_q[:, 0] - motion.joint_q[0, 0]
    np.testing.assert_allclose(rises(e.gravity), mass * g * d * (1.0 - np.cos(theta)),
                               rtol=1e-9, atol=1e-12 * e.kinetic[0])
    w = motion.joint_qd[0, 0]
    assert e.kinetic[0] == pytest.approx(0.5 * (I_c + mass * d * d) * w * w, rel=1e-12)
    top = np.abs(theta).max()
    assert e.kinetic[0] == pytest.approx(mass * g * d * (1.0 - np.cos(top)), rel=top**2)
    assert np.abs(rises(e.elastic)).max() <= top**2 * e.kinetic[0]


def test_a_planar_beams_rigid_turn_has_its_kinetic_energy_and_no_elastic_energy():
    """A beam on a pin, no gravity, drawn at the default scale (0.1 of its length): the rigid
    turn's kinetic energy is ``1/2 (rho A L^3 / 3) w^2`` (the consistent mass is exact for a
    rigid turn; w the pin's rate at the equilibrium frame), to the shape's error as an
    eigenvector, eps times the stretch's omega^2 over the first bending's (1e9 here: 2e-7;
    bound 1e-6). (Its elastic column is zero by construction for a rigid mode without
    gravity, :func:`rancf.studies.vibration._modal_energies`: not asserted.)"""
    m = rancf.Model(gravity=(0.0, 0.0), elastic_model="reissner")
    b = m.add_beam(L, 8, E=E, rho=RHO, A=AREA, I=INERTIA)
    m.add_joint("revolute", m.ground.point(0.0, 0.0), b.start)
    found = rancf.modes(m, n=1)
    assert found.rigid[0]
    motion = found.motion(0, n_frames=8)
    e = motion.energy()
    w = motion.joint_qd[0, 0]
    assert e.kinetic[0] == pytest.approx(0.5 * RHO * AREA * L**3 / 3.0 * w * w, rel=1e-6)


def test_a_planar_cantilevers_mode_exchanges_kinetic_and_elastic_energy():
    """The first bending mode of a slender cantilever (A / I = 1e6): the kinetic energy at
    the equilibrium is ``1/2 a^2 omega^2`` with omega^2 the Rayleigh quotient of the shape
    from the elements' own energy, ``2 U(x* + eps shape) / eps^2`` at eps = 1e-9 (the
    stretch a straight line brings, of order ``(A / I) eps^2``, is 1e-12 of it there), which
    must be Euler-Bernoulli's ``1.8751^4 E I / (rho A L^4)`` to the mesh's error (1e-4 at 8
    elements; bound 1e-3). The elastic column (the linearized potential) against the
    elements' strain energy evaluated on the frames themselves, at a scale of 1e-5 where the
    line's stretch is ``(A / I) a^2`` = 1e-4 of it (bound 1e-3): equal at every frame, and
    at the largest swing equal to the kinetic energy at the equilibrium."""
    m = rancf.Model(gravity=(0.0, 0.0), elastic_model="reissner")
    b = m.add_beam(L, 8, E=E, rho=RHO, A=AREA, I=INERTIA)
    m.add_joint("fixed", m.ground.point(0.0, 0.0), b.start)
    found = rancf.modes(m, n=1)
    A = m.build()
    eps = 1e-9
    bent = (found.equilibrium.x + eps * found.shapes[0]).reshape(1, -1, A.node_size)
    rayleigh = 2.0 * A.energies(bent, np.zeros_like(bent))[0, 1] / eps**2
    assert rayleigh == pytest.approx(1.8751040687**4 * E * INERTIA / (RHO * AREA * L**4),
                                     rel=1e-3)
    assert rayleigh == pytest.approx(found.omega[0] ** 2, rel=1e-6)
    motion = found.motion(0, n_frames=8)
    e = motion.energy()
    a = found._amplitude(0, 0.1)
    assert e.kinetic[0] == pytest.approx(0.5 * a * a * rayleigh, rel=1e-6)
    small = found.motion(0, scale=1e-5, n_frames=8)
    nodes = np.asarray(small.nodes).reshape(len(small.t), -1, A.node_size)
    strain = A.energies(nodes, np.zeros_like(nodes))[:, 1]
    e = small.energy()
    np.testing.assert_allclose(e.elastic.values, strain, rtol=1e-3,
                               atol=1e-12 * e.kinetic[0])
    assert strain[2] - strain[0] == pytest.approx(e.kinetic[0], rel=1e-3)


def test_a_spatial_loops_mode_exchanges_kinetic_and_elastic_energy():
    """A spatial beam clamped at one end and held by a spherical joint at the other (a
    loop: the spatial DAE's absolute coordinates, Euler parameters), its first bending
    mode at scale 0.01: the elastic energy at the largest swing equals the kinetic energy
    at the equilibrium (the frames' kinetic energy from their twists against the line's
    ``1/2 V^T M V``: second order in the turn, bound scale^2 = 1e-4). Before, the frames'
    stretch made the elastic energy 1.07 times the kinetic one at this scale (7.7 times at
    0.1)."""
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, 0.0))
    b = m.add_beam(L, 8, E=E, rho=RHO, A=AREA, I=(1e-9, 1e-9), J=2e-9, G=8e10, shear=False)
    m.add_joint("fixed", m.ground.point(0, 0, 0), b.start)
    m.add_joint("spherical", m.ground.point(L, 0, 0), b.end)
    found = rancf.modes(m, n=1)
    e = found.motion(0, scale=0.01, n_frames=8).energy()
    assert rises(e.elastic)[2] == pytest.approx(e.kinetic[0], rel=1e-4)
    assert e.kinetic[0] == pytest.approx(0.5 * (found._amplitude(0, 0.01) * found.omega[0])**2,
                                         rel=1e-4)


def test_a_spatial_bodys_rigid_turn_has_its_kinetic_energy():
    """A rigid body on a revolute joint about x, no gravity (a tree: the motion through its
    link coordinates): the rigid turn's kinetic energy ``1/2 (I_x + m d^2) w^2``, w the
    joint's rate at the equilibrium frame (exact)."""
    mass, d = 2.0, 0.4
    inertia = np.diag([0.03, 0.05, 0.02])
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, 0.0))
    body = m.add_rigid_body(mass, inertia, position=(0.0, 0.0, -d))
    m.add_joint("revolute", m.ground.point(0.0, 0.0, 0.0), body.point(0.0, 0.0, d),
                axis=(1, 0, 0))
    found = rancf.modes(m, n=1)
    assert found.rigid[0]
    motion = found.motion(0, n_frames=8)
    e = motion.energy()
    w = motion.joint_qd[0, 0]
    assert e.kinetic[0] == pytest.approx(0.5 * (inertia[0, 0] + mass * d * d) * w * w,
                                         rel=1e-12)


def test_a_spatial_loops_rigid_spin_has_its_kinetic_energy():
    """A spatial beam between two spherical joints (a loop: the spatial DAE) spins freely
    about the line through them: a rigid-body mode, drawn at the default scale, whose
    kinetic energy is the nodes' rotary inertia about the axis, ``1/2 rho (I_y + I_z) L
    w^2`` (w the bodies' rate about x at the equilibrium frame; no translation)."""
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, 0.0))
    b = m.add_beam(L, 4, E=E, rho=RHO, A=AREA, I=(1e-9, 1e-9), J=2e-9, G=8e10, shear=False)
    m.add_joint("spherical", m.ground.point(0, 0, 0), b.start)
    m.add_joint("spherical", m.ground.point(L, 0, 0), b.end)
    found = rancf.modes(m, n=1)
    assert found.rigid[0]
    motion = found.motion(0, n_frames=8)
    e = motion.energy()
    w = motion.velocities[0, :, 3]
    np.testing.assert_allclose(w, w[0], rtol=1e-9)
    assert e.kinetic[0] == pytest.approx(0.5 * RHO * 2e-9 * L * w[0] ** 2, rel=1e-9)


@pytest.mark.parametrize("redundant", [False, True])
def test_the_frames_least_norm_step_is_the_pseudo_inverses(redundant):
    """:func:`~rancf.studies.vibration._least_norm` (one sparse LU of ``G G^T`` for a
    Jacobian of full row rank, dense least squares else) against the dense pseudo-inverse
    ``pinv(G) r`` on a pinned-pinned beam's constraint Jacobian, and on it with its rows
    doubled (redundant joints: ``G G^T`` singular). Both are backward stable, the normal
    equations' error is cond(G)^2 eps with cond(G) of order one here: bound 1e-10."""
    from rancf.formulations.dae import DAE
    from rancf.studies.vibration import _least_norm

    m = rancf.Model()
    b = m.add_beam(L, 6, E=E, rho=RHO, A=AREA, I=INERTIA)
    m.add_joint("revolute", m.ground.point(0.0, 0.0), b.start)
    m.add_joint("revolute", m.ground.point(L, 0.0), b.end)
    dae = DAE(m.build())
    x0, _ = dae.initial_state()
    G = dae.constraint_jacobian(x0 + 0.01 * np.sin(np.arange(x0.size)), 0.0)
    G = G.toarray() if hasattr(G, "toarray") else np.asarray(G)
    if redundant:
        G = np.vstack([G, G])
    r = np.cos(np.arange(G.shape[0]) + 1.0)
    if redundant:
        r[G.shape[0] // 2:] = r[:G.shape[0] // 2]      # consistent rows
    full_rank = np.linalg.matrix_rank(G) == G.shape[0]
    assert full_rank != redundant
    step = _least_norm(G, full_rank)(r)
    np.testing.assert_allclose(step, np.linalg.pinv(G) @ r, rtol=0, atol=1e-10)
