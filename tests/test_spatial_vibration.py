"""``rancf.modes`` of spatial models (issue 25 on the spatial model, DECISIONS 30): a
cantilever's bending frequencies in its two planes and its torsion frequency against beam
theory, a rigid spherical pendulum's two frequencies from gravity, free-free rigid-body modes,
the shapes' normalization, a free vibration run, and bad states."""
import matplotlib
import numpy as np
import pytest

import rancf
from rancf.elements.spatial_beam import SpatialBeam

matplotlib.use("Agg")

E, RHO, AREA, G, L = 2.1e11, 7800.0, 1e-4, 8.1e10, 1.0
IY, IZ, J = 1e-9, 4e-9, 2e-9
#: beta_1 L of a cantilever (Euler-Bernoulli)
BETA1 = 1.8751040687


def cantilever(n, direction=(1.0, 0.0, 0.0), up=(0.0, 0.0, 1.0)):
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, 0.0))
    b = m.add_beam(L, n, E=E, rho=RHO, A=AREA, I=(IY, IZ), J=J, G=G, shear=False,
                   direction=direction, up=up)
    m.add_joint("fixed", m.ground.point(0.0, 0.0, 0.0), b.start)
    return m, b


def test_cantilever_bending_in_both_planes_and_torsion_converge_to_beam_theory():
    """The first bending frequency in each plane, ``1.8751^2 sqrt(E I / (rho A L^4)) /
    (2 pi)`` with I_y (motion along the section's z) and I_z (along y), and the first
    torsion frequency ``pi / (2 L) sqrt(G J / (rho I_p)) / (2 pi)``, I_p = I_y + I_z (the
    nodes' rotary inertia about the axis). The elements are of constant strain with lumped
    masses: second order, so halving the mesh divides the error by about 4. Each mode is
    told by its shape (the share of its motion along the section axis or about the beam
    axis), on a beam along an oblique direction."""
    direction = np.array([1.0, 2.0, -2.0]) / 3.0
    exact = {"y": BETA1**2 * np.sqrt(E * IZ / (RHO * AREA * L**4)) / (2 * np.pi),
             "z": BETA1**2 * np.sqrt(E * IY / (RHO * AREA * L**4)) / (2 * np.pi),
             "torsion": np.pi / (2 * L) * np.sqrt(G * J / (RHO * (IY + IZ))) / (2 * np.pi)}
    errors = []
    for n in (8, 16):
        m, b = cantilever(n, direction=direction, up=(0.0, 1.0, 1.0))
        found = rancf.modes(m, n=12)
        assert not found.rigid.any() and np.all(np.diff(found.frequencies) >= 0.0)
        shapes = found.shapes.reshape(len(found), -1, 6)
        frame = b.frames[0]
        share = lambda part, axis: (np.einsum("mbi,i->mb", shapes[:, :, part], axis)**2).sum(1) \
            / (shapes[:, :, part]**2).sum((1, 2))
        along_y, along_z = share(slice(0, 3), frame[:, 1]), share(slice(0, 3), frame[:, 2])
        twist = (np.einsum("mbi,i->mb", shapes[:, :, 3:], frame[:, 0])**2).sum(1) \
            / (shapes**2).sum((1, 2))
        picked = {"y": int(np.flatnonzero(along_y > 0.99)[0]),
                  "z": int(np.flatnonzero(along_z > 0.99)[0]),
                  "torsion": int(np.flatnonzero(twist > 0.99)[0])}
        assert picked["z"] == 0 and picked["y"] == 1          # I_y < I_z: z bends first
        errors.append({k: found.frequencies[i] / exact[k] - 1.0 for k, i in picked.items()})
    for k in exact:
        assert abs(errors[1][k]) < 2e-3, (k, errors)
        assert 3.5 < errors[0][k] / errors[1][k] < 4.5, (k, errors)


def test_a_slow_mode_of_a_long_boom_is_not_taken_for_a_rigid_body_mode():
    """A 20 m steel boom of 64 elements: its first bending mode (0.0224 Hz, omega^2 = 0.02)
    is 1e-12 of its elements' shear-rotation omega^2 (3e10 (rad/s)^2), yet it is elastic: it
    matches Euler-Bernoulli to the mesh's error (second order: 0.11 % at 16 elements, 7e-5
    at 64) in both planes (a double eigenvalue, which the ill-conditioned mass matrix of the
    long chain makes hard for the eigensolver) and is not marked rigid."""
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, 0.0))
    b = m.add_beam(20.0, 64, E=E, rho=RHO, A=AREA, I=(IY, IY), J=J, G=G, shear=False)
    m.add_joint("fixed", m.ground.point(0.0, 0.0, 0.0), b.start)
    found = rancf.modes(m, n=2)
    assert not found.rigid.any()
    exact = BETA1**2 * np.sqrt(E * IY / (RHO * AREA * 20.0**4)) / (2 * np.pi)
    np.testing.assert_allclose(found.frequencies, exact, rtol=1.5e-4)


def test_a_drive_is_frozen_like_a_clamp():
    """A cantilever held by a driven revolute joint (the drive turning it at t = 0) vibrates
    as the clamped one: modes freeze drives at their value at t = 0."""
    m, _ = cantilever(6)
    driven = rancf.Model(dim=3, gravity=(0.0, 0.0, 0.0))
    b = driven.add_beam(L, 6, E=E, rho=RHO, A=AREA, I=(IY, IZ), J=J, G=G, shear=False)
    driven.add_joint("revolute", driven.ground.point(0.0, 0.0, 0.0), b.start, axis=(0, 0, 1),
                     drive=lambda t: (2.0 * t, 2.0, 0.0))
    np.testing.assert_allclose(rancf.modes(driven, n=6).omega, rancf.modes(m, n=6).omega,
                               rtol=1e-7)


def test_a_rigid_spherical_pendulum_has_its_two_frequencies_from_gravity():
    """A body hanging at d below a spherical joint: small swings about the body's x and y
    axes at ``omega^2 = m g d / (I + m d^2)`` with its moments I_x, I_y about its centre
    (the restoring stiffness is gravity's, through the recursion's kinematics), and a
    rigid-body mode about the vertical, listed first."""
    mass, d, g = 2.0, 0.4, 9.81
    inertia = np.diag([0.03, 0.05, 0.02])
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -g))
    body = m.add_rigid_body(mass, inertia, position=(0.0, 0.0, -d))
    m.add_joint("spherical", m.ground.point(0.0, 0.0, 0.0), body.point(0.0, 0.0, d))
    found = rancf.modes(m)
    assert len(found) == 3 and list(found.rigid) == [True, False, False]
    expected = np.sqrt(mass * g * d / (np.diag(inertia)[[1, 0]] + mass * d * d))
    np.testing.assert_allclose(found.omega[1:], np.sort(expected), rtol=1e-7)
    assert found.frequencies[0] == 0.0


def test_a_cantilever_loses_stability_at_the_lateral_torsional_buckling_load():
    """A cantilever bent about its strong axis by a tip force at the centroid buckles
    sideways and twists at Prandtl's ``P_cr = 4.013 sqrt(E I_weak G J) / L^2`` (EI_strong
    large: the pre-buckling deflection raises it by about ``1 / sqrt((1 - EI_y / EI_z) (1 -
    GJ / EI_z))``, 0.9 % here; the mesh's error is of the order of 1 / n^2). The load
    stiffness of the tip force is what lowers the lateral-torsional frequency, so the
    modes about the statics' planar equilibrium are stable at 0.95 P_cr, and at 1.05 P_cr
    the planar equilibrium is unstable: statics' stability test (the first omega^2
    negative, the rule rancf.modes refuses by) finds it so and leaves it for a stable one
    buckled sideways, about which the modes are stable again."""
    iy, iz = 1e-9, 1e-7                          # section y is global z (up): bending about z
    critical = 4.013 * np.sqrt(E * iy * G * J) / L**2

    def loaded(fraction):
        m = rancf.Model(dim=3, gravity=(0.0, 0.0, 0.0))
        b = m.add_beam(L, 16, E=E, rho=RHO, A=1e-3, I=(iy, iz), J=J, G=G, shear=False)
        m.add_joint("fixed", m.ground.point(0.0, 0.0, 0.0), b.start)
        m.add_force(b.end, force=(0.0, 0.0, -fraction * critical))
        return m

    below = rancf.modes(loaded(0.95), n=2)
    assert not below.rigid.any() and below.omega[0] > 0.0
    assert below.omega[0] < 0.5 * rancf.modes(loaded(0.0), n=1).omega[0]
    above = rancf.static(loaded(1.05))
    assert above.status == "ok" and "was unstable" in above.message, above.message
    assert rancf.modes(loaded(1.05), n=2).omega[0] > 0.0


def test_a_hanging_flexible_pendulum_swings_as_its_lumped_masses():
    """A stiff beam hanging from a spherical joint under gravity (a mechanism, which
    rancf.static refuses: modes take its reference configuration, drawn hanging, which is its
    equilibrium but for the stretch under its weight, 4e-10 m): one rigid-body mode
    (the turn about the vertical), then the two swings at the compound pendulum's
    ``omega^2 = g sum m_i d_i / sum (m_i d_i^2 + I_i)`` of its lumped node masses m_i at
    depths d_i and their rotary inertias I_i about each swing axis. The beam's flexibility
    lowers them by about omega^2 / omega_bending^2 = 2e-6."""
    g = 9.81
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -g))
    b = m.add_beam(L, 8, E=100 * E, rho=RHO, A=AREA, I=(IY, IZ), J=J, G=100 * G,
                   direction=(0.0, 0.0, -1.0), up=(1.0, 0.0, 0.0))
    m.add_joint("spherical", m.ground.point(0.0, 0.0, 0.0), b.start)
    found = rancf.modes(m, n=3)
    assert list(found.rigid) == [True, False, False]
    mass, inertia = b.node_masses()
    depth = np.linspace(0.0, L, 9)
    expected = [g * (mass * depth).sum() / ((mass * depth**2).sum() + inertia[:, k, k].sum())
                for k in (1, 2)]
    np.testing.assert_allclose(found.omega[1:]**2, np.sort(expected), rtol=1e-5)


def test_a_spherical_pendulum_drawn_off_its_equilibrium_takes_the_hanging_one():
    """A body drawn at d beside a spherical joint (its arm horizontal): the reference
    configuration is no equilibrium (gravity's moment ``m g d`` about the joint is
    unbalanced, and no stiffness resists the swing there), and plain Newton's matrix is
    singular there; statics' damped steps (rancf/integrators/static.py ``_damped_newton``)
    reach the hanging one, a family turned about the vertical, whose modes (state=None) are
    those of the hanging pose given as a state: a rigid spin about the vertical and two swings
    at the closed form's ``omega^2 = m g d / (I + m d^2)`` of the body's axes turned with it
    (invariant to the turn about the vertical)."""
    mass, d, g = 2.0, 0.5, 9.81
    inertia = np.diag([0.1, 0.2, 0.3])
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -g))
    body = m.add_rigid_body(mass, inertia, position=(d, 0.0, 0.0))
    m.add_joint("spherical", m.ground.point(0.0, 0.0, 0.0), body.point(-d, 0.0, 0.0))
    expected = np.sort(mass * g * d / (np.diag(inertia)[[1, 2]] + mass * d * d))
    found = rancf.modes(m, n=3)
    assert list(found.rigid) == [True, False, False]
    np.testing.assert_allclose(found.omega[1:]**2, expected, rtol=1e-7)
    # the hanging pose: the body turned by a quarter turn about y, its x axis down
    pose = np.concatenate([[0.0, 0.0, -d], [[0.0, 0.0, 1.0], [0.0, 1.0, 0.0], [-1.0, 0.0, 0.0]]],
                          axis=None)
    hanging = rancf.modes(m, state=rancf.State(pose, np.zeros(SpatialBeam.node_size)))
    assert list(hanging.rigid) == [True, False, False]
    np.testing.assert_allclose(hanging.omega[1:]**2, expected, rtol=1e-7)


def test_a_free_free_body_lists_six_rigid_body_modes_first():
    """A rigid body floating on a free joint with a beam clamped to it, no gravity: six
    zero frequencies (translations and rotations), then the beam's bending, positive."""
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, 0.0))
    hub = m.add_rigid_body(5.0, np.diag([0.1, 0.2, 0.3]), position=(0.1, 0.2, 0.3))
    m.add_joint("free", m.ground.point(0.1, 0.2, 0.3), hub.centre)
    b = m.add_beam(L, 6, E=E, rho=RHO, A=AREA, I=(IY, IZ), J=J, G=G, start=(0.2, 0.2, 0.3))
    m.add_joint("fixed", hub.point(0.1, 0.0, 0.0), b.start)
    found = rancf.modes(m, n=9)
    assert list(found.rigid) == [True] * 6 + [False] * 3
    np.testing.assert_array_equal(found.frequencies[:6], 0.0)
    assert found.frequencies[6] > 1.0
    # a rigid-body mode moves every body as one: each body's displacement is the hub's
    # translation plus its rotation about the hub's centre
    r = found.equilibrium.x.reshape(-1, 12)[:, :3]
    for shape in found.shapes[:6].reshape(6, -1, 6):
        moved = shape[0, :3] + np.cross(shape[0, 3:], r - r[0])
        np.testing.assert_allclose(shape[:, :3], moved, atol=1e-8 * np.abs(shape).max())
        np.testing.assert_allclose(shape[:, 3:], np.tile(shape[0, 3:], (len(r), 1)),
                                   atol=1e-8 * np.abs(shape).max())


def test_shapes_have_unit_modal_mass_and_are_mass_orthogonal():
    """``sum_i m_i dr_i . dr_j + dth_i . (A I A^T) dth_j = delta_ij`` with the bodies' masses
    and inertias of the model (not the tree's assembled matrix)."""
    m, b = cantilever(6)
    found = rancf.modes(m, n=5)
    tree = m.build()
    frames = found.equilibrium.x.reshape(-1, 12)[:, 3:].reshape(-1, 3, 3)
    inertia = np.einsum("nij,njk,nlk->nil", frames, tree.inertia, frames)
    s = found.shapes.reshape(5, -1, 6)
    gram = np.einsum("n,anj,bnj->ab", tree.mass, s[:, :, :3], s[:, :, :3]) + \
        np.einsum("anj,njk,bnk->ab", s[:, :, 3:], inertia, s[:, :, 3:])
    np.testing.assert_allclose(gram, np.eye(5), atol=1e-9)


def test_a_free_vibration_run_started_in_the_first_mode_has_its_period():
    """The first mode's motion (``Modes.motion``) at its zero crossing, taken as the start of
    a run: the tip swings with the mode's period (zero crossings of its displacement along
    the mode's, by interpolation) to the run's accuracy, the amplitude small (1e-3 of
    the length) so that the motion stays linear, the step a 400th of the period."""
    m, b = cantilever(6)
    found = rancf.modes(m, n=1)
    period = 1.0 / found.frequencies[0]
    start = found.motion(0, scale=1e-3, n_frames=4).state(0)
    res = rancf.simulate(m, t_end=4 * period, dt=period / 400, method="newmark",
                         output_every=1, state=start)
    assert res.status == "ok", res.message
    along = found.shapes[0].reshape(-1, 6)[-1, :3]
    z = (res.position(b.end) - b.positions[-1]) @ along
    up = np.flatnonzero((z[:-1] < 0.0) & (z[1:] >= 0.0))
    crossings = res.t[up] - z[up] * (res.t[up + 1] - res.t[up]) / (z[up + 1] - z[up])
    # the trapezoidal rule (Newmark 1/4, 1/2) lengthens a period by (omega dt)^2 / 12
    assert len(crossings) >= 3
    elongation = (2 * np.pi / 400) ** 2 / 12
    np.testing.assert_allclose(np.diff(crossings), period * (1 + elongation), rtol=2e-6)


def test_a_given_equilibrium_gives_the_static_solves_modes_and_others_are_refused():
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -9.81))
    b = m.add_beam(L, 4, E=E, rho=RHO, A=AREA, I=(IY, IZ), J=J, G=G)
    m.add_joint("fixed", m.ground.point(0.0, 0.0, 0.0), b.start)
    equilibrium = rancf.static(m, tol=1e-12).state(0)
    found, given = rancf.modes(m, n=4), rancf.modes(m, state=equilibrium, n=4)
    np.testing.assert_allclose(given.omega, found.omega, rtol=1e-8)
    with pytest.raises(ValueError, match="not an equilibrium"):
        tree = m.build()          # the unloaded shape under gravity
        rancf.modes(m, state=rancf.State(
            np.concatenate([tree.r0, tree.A0.reshape(-1, 9)], axis=1).ravel(),
            np.zeros(6 * tree.n_bodies)))
    with pytest.raises(TypeError, match="state must be a rancf.State"):
        rancf.modes(m, state=equilibrium.x)
    held = rancf.Model(dim=3)
    body = held.add_rigid_body(1.0, np.eye(3))
    held.add_joint("fixed", held.ground.point(0, 0, 0), body.centre)
    with pytest.raises(ValueError, match="no free coordinate"):
        rancf.modes(held)


def test_a_spatial_mode_is_drawn_and_animated(tmp_path):
    m, _ = cantilever(4)
    found = rancf.modes(m, n=2)
    ax = found.plot(1)
    assert "mode 1" in ax.get_title()
    motion = found.motion(0, n_frames=6)
    assert motion.nodes.shape == (7, 5, 12) and motion.method == "modes"
    found.animate(0, str(tmp_path / "mode.gif"), n_frames=4)
    assert (tmp_path / "mode.gif").stat().st_size > 0


def test_modes_at_a_state_of_a_driven_model_hold_the_drives_there():
    """A beam turned by a driven revolute joint, given the state of its final pose (the drive
    at 60 degrees, not at its t = 0 value): the drive is held at the angle the state has, so
    the modes equal those of the same beam built in that pose on a fixed joint (no gravity:
    both poses are equilibria)."""
    turn = np.pi / 3
    direction = (np.cos(turn), np.sin(turn), 0.0)
    driven = rancf.Model(dim=3, gravity=(0.0, 0.0, 0.0))
    b = driven.add_beam(L, 6, E=E, rho=RHO, A=AREA, I=(IY, IZ), J=J, G=G, shear=False,
                        direction=(1.0, 0.0, 0.0), up=(0.0, 0.0, 1.0))
    driven.add_joint("revolute", driven.ground.point(0, 0, 0), b.start, axis=(0, 0, 1),
                     drive=lambda t: (turn * t, turn, 0.0))
    fixed, _ = cantilever(6, direction=direction, up=(0.0, 0.0, 1.0))
    at_pose = rancf.static(fixed).state(0)
    held = rancf.modes(driven, state=at_pose, n=6)
    expected = rancf.modes(fixed, n=6)
    np.testing.assert_allclose(held.frequencies, expected.frequencies, rtol=1e-9)


def test_an_inverted_rigid_pendulum_is_refused_with_its_negative_omega_squared():
    """A body balanced at d above a revolute joint about x: the equilibrium is unstable with
    ``omega^2 = -m g d / (I_x + m d^2)`` (-16.35 (rad/s)^2 here). Its K + sigma M is not
    positive definite (sigma, the shift of the modes' solver, is 1e-6 of K's scale, gravity's
    stiffness), so this takes the pencil's QZ: the value named in the message (6 digits)
    must be the closed form's. The drawn (inverted) configuration at rest is given as the
    state: by default statics, whose Newton matrix has gravity's turning, finds the balanced
    equilibrium, leaves it as unstable and hangs the body below the joint, where the one mode
    is the closed form's ``omega^2 = m g d / (I_x + m d^2)``, positive (to the eigensolver's
    1e-9)."""
    mass, d, g = 2.0, 0.5, 9.81
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -g))
    body = m.add_rigid_body(mass, np.diag([0.1, 0.2, 0.3]), position=(0.0, 0.0, d))
    m.add_joint("revolute", m.ground.point(0.0, 0.0, 0.0), body.point(0.0, 0.0, -d),
                axis=(1, 0, 0))
    drawn = rancf.simulate(m, t_end=1e-3, dt=1e-3, method="rk4").state(0)
    with pytest.raises(ValueError, match="unstable: mode 0") as refused:
        rancf.modes(m, state=drawn, n=1)
    named = float(str(refused.value).split("omega^2 = ")[1].split()[0])
    closed = mass * g * d / (0.1 + mass * d * d)
    assert np.isclose(named, -closed, rtol=1e-5)
    hanging = rancf.modes(m, n=1)
    assert np.isclose((2.0 * np.pi * hanging.frequencies[0]) ** 2, closed, rtol=1e-9)
