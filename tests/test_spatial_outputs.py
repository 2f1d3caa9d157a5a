"""Outputs of spatial runs: the beams' section forces (``Result.internal_forces`` and the VTK
cell data) and the efforts of spherical and free joints, each against something independent:
statics of a cantilever, of a bar and of a shaft by hand, the centrifugal force of a spinning
beam summed over its lumped masses, the clamp's reaction of the recursion against the cut's
balance, central differences of the node motion, energy conservation and closed-form motion.
"""
import numpy as np
import pytest
from scipy.spatial.transform import Rotation

import rancf
from rancf.elements import spatial_beam

STEEL = dict(E=2e11, rho=7800.0, A=1e-4, I=(1e-9, 2e-9), J=2e-9, G=8e10)


def cantilever(n, direction=(1.0, 0.0, 0.0), up=(0.0, 0.0, 1.0), length=2.0, **section):
    """A beam of n elements clamped at its start, no gravity."""
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, 0.0))
    b = m.add_beam(length, n, start=(0.1, -0.2, 0.3), direction=direction, up=up,
                   **(section or STEEL))
    clamp = m.add_joint("fixed", m.ground.point(0.1, -0.2, 0.3), b.start)
    return m, b, clamp


# --- section forces ----------------------------------------------------------------------------
@pytest.mark.parametrize("n", [2, 3, 7])
@pytest.mark.parametrize("plane", [1, 2])
def test_cantilever_under_a_tip_force(n, plane):
    """Small deflection, tip force F along the section's y (plane 1) or z (plane 2) axis of a
    beam along an oblique direction. Each element carries the force the nodes beyond it
    receive, F, and the moment about its midpoint of the tip force, ``x x F`` with
    ``x = (L - s_mid) e_x``: M_z = F (L - s_mid) for a force along y, M_y = -F (L - s_mid)
    along z. Exact in linear theory for any mesh (the balance of the nodes beyond the
    element, whatever the stiffness: DESIGN.md 7's B^T sigma = H^T W with small p); the
    geometric terms are of the order of the rotations, theta = F L^2 / (2 E I) = 1e-5 here,
    so the checks allow 1e-4. The normal force is F sin(theta) (the section turns), below
    1e-4 F."""
    direction = np.array([1.0, 2.0, -0.5]) / np.linalg.norm([1.0, 2.0, -0.5])
    m, b, _ = cantilever(n, direction=direction, up=(0.3, -0.2, 1.0))
    L, F = b.length, 2e-3 * (1.0 if plane == 1 else 2.0)
    axis = b.frames[0][:, plane]
    m.add_force(b.end, force=F * axis)
    res = rancf.static(m)
    assert res.status == "ok", res.message
    sigma = res.internal_forces(b)[-1]
    h = L / n
    arm = L - (np.arange(n) + 0.5) * h
    shear = np.zeros((n, 2))
    shear[:, plane - 1] = F
    bending = np.zeros((n, 2))
    bending[:, 2 - plane] = F * arm * (1.0 if plane == 1 else -1.0)
    np.testing.assert_allclose(sigma[:, 1:3], shear, rtol=1e-4, atol=1e-4 * F)
    np.testing.assert_allclose(sigma[:, 4:6], bending, rtol=1e-4, atol=1e-4 * F * L)
    assert np.abs(sigma[:, 0]).max() <= 1e-4 * F and np.abs(sigma[:, 3]).max() <= 1e-4 * F * L
    # an arc length picks its element: a node the element that starts there, the end the last
    nodes = np.concatenate([[0.0], np.cumsum(b.element_lengths())])
    at = res.internal_forces(b, s=nodes)[-1]
    np.testing.assert_array_equal(at, sigma[np.minimum(np.arange(n + 1), n - 1)])
    assert res.internal_forces(b, s=0.4 * h).shape == (1, 1, 6)
    # a node's own moment differs from its element's by F h / 2: the midpoint is the place
    assert abs(abs(sigma[0, 4 if plane == 2 else 5]) - F * L) == pytest.approx(F * h / 2,
                                                                              rel=1e-3)


def test_axial_stretch_and_pure_torsion_are_exact():
    """A bar pulled by P along its axis carries N = P, a shaft twisted by T about its axis
    carries torsion T, in every element, whatever the mesh and the size of the deformation
    (the SE(3) strain is exact for constant strain): the other components vanish. The twist
    here is T L / (G J) = 0.75 rad, the stretch P / EA = 5e-7 (statics' full tangent, the
    load stiffness of a global force in relative coordinates included, takes larger pulls
    too: tests/test_spatial_implicit.py pulls a beam at T L^2 / EI = 120)."""
    direction = np.array([-1.0, 0.5, 2.0]) / np.linalg.norm([-1.0, 0.5, 2.0])
    P, T = 10.0, 60.0
    m, b, _ = cantilever(5, direction=direction, up=(1.0, 0.0, 0.0))
    m.add_force(b.end, force=P * direction)
    sigma = rancf.static(m).internal_forces(b)[-1]
    np.testing.assert_allclose(sigma[:, 0], P, rtol=1e-8)
    assert np.abs(sigma[:, 1:]).max() <= 1e-8 * P
    m, b, _ = cantilever(5, direction=direction, up=(1.0, 0.0, 0.0))
    m.add_force(b.end, moment=T * direction)
    res = rancf.static(m)
    q = np.linalg.norm(Rotation.from_matrix(res.orientation(b.end)[-1]
                                            @ b.frames[-1].T).as_rotvec())
    assert q == pytest.approx(T * b.length / (STEEL["G"] * STEEL["J"]), rel=1e-9)
    sigma = res.internal_forces(b)[-1]
    np.testing.assert_allclose(sigma[:, 3], T, rtol=1e-10)
    assert np.abs(np.delete(sigma, 3, axis=1)).max() <= 1e-10 * T


def test_roll_up_carries_the_end_moment_everywhere():
    """A quarter roll-up (end moment M = (pi / 2) E I_z / L about the section's z, a fixed
    global direction that stays the section's z as the beam bends in its plane): the moment
    is M in every element and the forces vanish, exactly for large rotation (the arc is the
    element's constant-strain shape)."""
    m, b, _ = cantilever(8, up=(0.0, 1.0, 0.0))
    M = np.pi / 2 * STEEL["E"] * STEEL["I"][1] / b.length
    m.add_force(b.end, moment=M * b.frames[0][:, 2])
    res = rancf.static(m, load_steps=4)
    assert res.status == "ok", res.message
    sigma = res.internal_forces(b)[-1]
    np.testing.assert_allclose(sigma[:, 5], M, rtol=1e-8)
    assert np.abs(sigma[:, :5]).max() <= 1e-8 * M


def test_spinning_beam_centrifugal_force():
    """A beam turned about a fixed axis at constant rate w (a drive spinning it up smoothly,
    damping settling it) carries the centrifugal force rho A w^2 (L^2 - s^2) / 2. The lumped
    masses beyond element k's start a sum to ``rho A w^2 (L^2 - a^2 - a h) / 2`` (the
    trapezoid rule is exact for the linear integrand, plus the half mass at the element's
    far node): the midpoint value plus ``rho A w^2 h^2 / 8``, second order in h. Checked at
    the element midpoints against both: the error is that term within 1 % (the rest is the
    beam's stretch and what is left of the spin-up), on three meshes."""
    L, w, tau, rho, area = 1.0, 10.0, 0.2, 1000.0, 1e-3

    def drive(t):
        decay = np.exp(-t / tau)
        return w * (t - tau * (1.0 - decay)), w * (1.0 - decay), w / tau * decay

    errors = []
    for n in (4, 8, 16):
        m = rancf.Model(dim=3, gravity=(0.0, 0.0, 0.0))
        b = m.add_beam(L, n, E=1e11, rho=rho, A=area, I=(1e-7, 1e-7), J=2e-7, G=4e10,
                       damping=0.01)
        m.add_joint("revolute", m.ground.point(0, 0, 0), b.start, axis=(0, 0, 1), drive=drive)
        res = rancf.simulate(m, t_end=3.0, dt=2e-3, method="generalized-alpha",
                             output_every=500)
        assert res.status == "ok", res.message
        h = L / n
        mid = (np.arange(n) + 0.5) * h
        N = res.internal_forces(b)[-1, :, 0]
        error = N - rho * area * w**2 * (L**2 - mid**2) / 2
        np.testing.assert_allclose(error, rho * area * w**2 * h**2 / 8, rtol=1e-2)
        errors.append(np.abs(error).max())
    assert errors[0] / errors[1] > 3.8 and errors[1] / errors[2] > 3.8


def _cut_wrench(sigma, r0, A0, r1, A1):
    """The force and the moment about node 0 (global) that element 0 exerts on node 0, from
    its section forces sigma (6): sigma is the average over the element of the section
    forces along its SE(3) curve, ``r(x) = r0 + A0 int_0^x exp(t p^) dt g``,
    ``A(x) = A0 exp(x p^)`` (x in [0, 1], ``p = log(A0^T A1)``, g from ``r(1) = r1``), which
    carries a constant spatial force F and moment M0 - (r(x) - r0) x F: solved for (F, M0)
    by Gauss quadrature (independent of the element's closed forms, J_l and its inverse)."""
    p = Rotation.from_matrix(A0.T @ A1).as_rotvec()
    x, w = np.polynomial.legendre.leggauss(16)
    x, w = (x + 1) / 2, w / 2

    def integral(upto):
        return np.einsum("k,kij->ij", w * upto, Rotation.from_rotvec(np.outer(x * upto, p))
                         .as_matrix())

    g = np.linalg.solve(integral(1.0), A0.T @ (r1 - r0))
    turns = Rotation.from_rotvec(np.outer(x, p)).as_matrix()
    mean_back = np.einsum("k,kji->ij", w, turns)        # mean of exp(x p^)^T
    F = np.linalg.solve(mean_back, sigma[:3])         # in node 0's frame
    lever = np.array([integral(xi) @ g for xi in x])
    moment_of_F = np.einsum("k,kji,kj->i", w, turns, -np.cross(lever, F))
    M0 = np.linalg.solve(mean_back, sigma[3:] - moment_of_F)
    return A0 @ F, A0 @ M0


def test_clamp_reaction_balances_the_first_section():
    """At every output of a dynamic run (gravity, a tip force and moment, Kelvin-Voigt
    damping, rotations of 0.3 rad per element), the clamp's reaction from the recursion (the
    articulated force of the subtree, ``res.reaction``) equals what the cut just beyond the
    clamped node requires from the first element's section forces (from its strains and
    strain rates): the node is at rest, so reaction + m_0 g + the element's wrench on it = 0."""
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -9.81))
    b = m.add_beam(1.0, 4, E=1e6, rho=1000.0, A=1e-3, I=(1e-7, 2e-7), J=2e-7, G=4e5,
                   up=(0.0, 1.0, 0.0), damping=2e-3)
    clamp = m.add_joint("fixed", m.ground.point(0, 0, 0), b.start)
    m.add_force(b.end, force=lambda t: (0.0, 2.0 * np.sin(20.0 * t), 1.0), moment=(0.3, 0, 0))
    res = rancf.simulate(m, t_end=0.4, dt=2e-5, method="rk4", output_every=1000)
    assert res.status == "ok", res.message
    tree = m.build()
    first, second = tree.node_body[0], tree.node_body[1]
    turned = Rotation.from_matrix(np.einsum("kji,kjl->kil", res.orientation(b.node(0)),
                                            res.orientation(b.node(1)))).magnitude()
    assert turned.max() > 0.3
    sigma = res.internal_forces(b)[:, 0]
    reaction = res.reaction(clamp)
    for k in range(len(res.t)):
        pose0, pose1 = res.nodes[k, first], res.nodes[k, second]
        F, M0 = _cut_wrench(sigma[k], pose0[:3], pose0[3:].reshape(3, 3), pose1[:3],
                            pose1[3:].reshape(3, 3))
        expected = np.concatenate([-F - tree.mass[first] * tree.gravity, -M0])
        np.testing.assert_allclose(reaction[k], expected, rtol=0,
                                   atol=1e-10 * np.abs(reaction).max())


def test_section_forces_from_node_motion_match_the_element():
    """The compiled map from node poses and velocities to section forces recovers the element
    coordinates and their rates: against ``element_force``'s sigma at coordinates e and rates
    ed, with node 1's pose built from them and its velocity by central differences of the
    poses along the motion (node 0 moving and turning too)."""
    rng = np.random.default_rng(3)
    s, Q = np.array([0.3, 0.02, -0.01]), Rotation.from_rotvec([0.05, -0.1, 0.2]).as_matrix()
    l, strain0 = spatial_beam.reference_strain(s, Q)
    C, c = np.array([3e3, 1e3, 2e3, 5.0, 7.0, 9.0]), 0.05
    e, ed = np.r_[0.01, -0.02, 0.015, 0.2, -0.3, 0.25], rng.standard_normal(6)
    r0, A0 = rng.standard_normal(3), Rotation.from_rotvec(rng.standard_normal(3)).as_matrix()
    v0, w0 = rng.standard_normal(3), rng.standard_normal(3)

    def poses(t):
        Ar = Rotation.from_rotvec(t * w0).as_matrix() @ A0
        rr = r0 + t * v0
        et = e + t * ed
        A1 = Ar @ Rotation.from_rotvec(et[3:]).as_matrix() @ Q
        return rr, Ar, rr + Ar @ (s + et[:3]), A1

    h = 1e-6
    plus, minus = poses(h), poses(-h)
    r0_, A0_, r1, A1 = poses(0.0)
    v1 = (plus[2] - minus[2]) / (2 * h)
    W = (plus[3] - minus[3]) / (2 * h) @ A1.T
    w1 = np.array([W[2, 1], W[0, 2], W[1, 0]])
    sigma = spatial_beam.section_forces(np.r_[r0_, A0_.ravel()][None], np.r_[r1, A1.ravel()][None],
                                        np.r_[v0, w0][None], np.r_[v1, w1][None], s[None],
                                        Q[None], [l], C[None], strain0[None], [c])[0]
    expected = spatial_beam.element_force(s, Q, e, ed, l, C, strain0, c)[2]
    np.testing.assert_allclose(sigma, expected, rtol=1e-7, atol=1e-7 * np.abs(expected).max())


def test_internal_forces_refuse_bad_input():
    m, b, _ = cantilever(3)
    res = rancf.static(m)
    other, b_other, _ = cantilever(3)
    with pytest.raises(ValueError, match=r"beam must be a beam of the result's model .*beam\[0\]"):
        res.internal_forces(b_other)
    with pytest.raises(ValueError, match=r"index in \[0, 0\], got 1"):
        res.internal_forces(1)
    with pytest.raises(ValueError, match=r"arc lengths in \[0, 2\] m .* got s\[0\] = 2\.5"):
        res.internal_forces(b, s=2.5)
    with pytest.raises(ValueError, match=r"s must be arc lengths .* got s\[1\] = -0\.1"):
        res.internal_forces(b, s=[0.5, -0.1])
    with pytest.raises(ValueError, match=r"s must be .* 1-d .* shape \(1, 2\)"):
        res.internal_forces(b, s=[[0.5, 1.0]])
    with pytest.raises(TypeError, match="s must be arc lengths"):
        res.internal_forces(b, s="middle")
    planar = rancf.pendulum(n_bodies=1, elements_per_body=2, body_length=1.0)
    res = rancf.simulate(planar, t_end=1e-3, dt=1e-4)
    with pytest.raises(TypeError, match=r"beam must be a beam of the model"):
        res.internal_forces(0)      # a spatial beam's index means nothing in a planar model


def test_vtk_cell_data_are_the_section_forces(tmp_path):
    """Each beam line of the VTK files carries its element's section forces, six named
    scalars equal to internal_forces at the midpoints; a rigid body's vertex carries NaN."""
    meshio = pytest.importorskip("meshio")
    m = rancf.Model(dim=3)
    b = m.add_beam(1.0, 3, E=1e7, rho=1000.0, A=1e-3, I=(1e-7, 1e-7), J=2e-7, G=4e6)
    m.add_joint("fixed", m.ground.point(0, 0, 0), b.start)
    tip = m.add_rigid_body(0.5, np.eye(3) * 1e-3, position=(1.05, 0.0, 0.0))
    m.add_joint("fixed", b.end, tip.point(-0.05, 0, 0))
    res = rancf.simulate(m, t_end=0.02, dt=1e-5, method="rk4", output_every=1000)
    res.to_vtk(tmp_path, name="arm")
    sections = res.internal_forces(b)
    names = ("normal_force", "shear_force_y", "shear_force_z", "torsion", "bending_moment_y",
             "bending_moment_z")
    for k in range(len(res.t)):
        mesh = meshio.read(tmp_path / f"arm_{k:05d}.vtu")
        kinds = [block.type for block in mesh.cells]
        line, vertex = kinds.index("line"), kinds.index("vertex")
        for j, name in enumerate(names):
            np.testing.assert_array_equal(mesh.cell_data[name][line], sections[k, :, j])
            assert np.isnan(mesh.cell_data[name][vertex]).all()
    assert np.abs(sections[-1, :, 5]).max() > 1e-2      # it bends under its weight


# --- efforts of spherical and free joints ------------------------------------------------------
def test_spherical_spring_conserves_its_energy():
    """A heavy rigid body on a ball joint with the effort tau = -k q (q the rotation vector,
    torque in the parent's frame): its generalized force is ``J_l(q)^T (-k q) = -k q`` (J_l(q)
    q = q), a potential k |q|^2 / 2, so kinetic + gravity + k |q|^2 / 2 is conserved; RK4's
    drift falls by 2^4 with the step (> 12 asserted). |q| stays below pi (no re-centring)."""
    k, drifts = 3.0, []
    for dt in (2e-3, 1e-3):
        m = rancf.Model(dim=3, gravity=(0.0, 0.0, -9.81))
        r = m.add_rigid_body(2.0, np.diag([0.02, 0.03, 0.05]), position=(0.4, 0.1, -0.3))
        ball = m.add_joint("spherical", m.ground.point(0, 0, 0), r.point(-0.4, -0.1, 0.3),
                           effort=lambda t, q, qd: -k * q)
        res = rancf.simulate(m, t_end=2.0, dt=dt, method="rk4", output_every=round(0.01 / dt))
        assert res.status == "ok", res.message
        q, _ = res.joint(ball)
        assert 1.0 < np.linalg.norm(q, axis=1).max() < np.pi
        e = res.energy()
        total = e.kinetic + e.gravity + 0.5 * k * (q**2).sum(axis=1)
        drifts.append(np.abs(total - total[0]).max() / e.kinetic.max())
    assert drifts[0] < 1e-9 and drifts[0] / drifts[1] > 12.0


def test_free_joint_force_and_torque():
    """A body on a free joint from the ground, pulled to the origin by the force -k x (x its
    centre's position) and turned by a constant torque Mz about its principal axis z
    (parent frame: global): its centre follows ``x0 cos(sqrt(k / m) t)`` and its rotation
    vector ``(0, 0, Mz t^2 / (2 I_z))``."""
    k, mass, x0, Mz, Iz = 8.0, 2.0, np.array([0.3, -0.2, 0.5]), 0.01, 0.05
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, 0.0))
    r = m.add_rigid_body(mass, np.diag([0.02, 0.03, Iz]), position=x0)
    base = m.add_joint("free", m.ground.point(*x0), r.centre,
                       effort=lambda t, q, qd: np.r_[-k * (x0 + q[:3]), 0.0, 0.0, Mz])
    res = rancf.simulate(m, t_end=3.0, dt=1e-3, method="rk4", output_every=100)
    assert res.status == "ok", res.message
    np.testing.assert_allclose(res.position(r.centre),
                               np.outer(np.cos(np.sqrt(k / mass) * res.t), x0), atol=1e-10)
    q, _ = res.joint(base)
    np.testing.assert_allclose(q[:, 3:], np.outer(Mz * res.t**2 / (2 * Iz), [0, 0, 1]),
                               atol=1e-10)


def test_efforts_of_the_wrong_size_are_named():
    m = rancf.Model(dim=3)
    r = m.add_rigid_body(1.0, np.eye(3) * 0.01, position=(0.0, 0.0, -0.5))
    ball = m.add_joint("spherical", m.ground.point(0, 0, 0), r.point(0, 0, 0.5),
                       effort=lambda t, q, qd: (1.0, 2.0))
    words = "effort of joint 0 (spherical) must return 3 finite numbers"
    try:
        res = rancf.simulate(m, t_end=1e-3, dt=1e-4, method="rk4")
    except ValueError as exc:       # checked before the run
        assert words in str(exc)
    else:
        assert res.status == "failed" and words in res.message
        assert isinstance(res.error, ValueError)
    ball.effort = lambda t, q, qd: [np.nan, 0.0, 0.0]
    with pytest.raises(ValueError, match=r"joint 0 \(spherical\) must return 3 .* got \[nan"):
        ball.effort_value(0.0, np.zeros(3), np.zeros(3))
    m = rancf.Model(dim=3)
    r = m.add_rigid_body(1.0, np.eye(3) * 0.01, position=(0.0, 0.0, -0.5))
    with pytest.raises(ValueError, match=r"effort of a free joint must be 6 finite numbers"):
        m.add_joint("free", m.ground.point(0, 0, -0.5), r.centre, effort=(1.0, 2.0, 3.0))
    with pytest.raises(ValueError, match="universal joint takes no effort"):
        m.add_joint("universal", m.ground.point(0, 0, 0), r.point(0, 0, 0.5),
                    axes=((1, 0, 0), (0, 1, 0)), effort=lambda t, q, qd: (0.0, 0.0))



def test_beam_held_at_an_inner_node_reads_in_its_own_direction():
    """A beam clamped at its middle node under gravity: the half towards its start is a chain
    of reversed element links in the tree, yet its section forces are given in the beam's
    direction like the other half's. By the mirror symmetry of the load the two halves carry
    the same normal force and bending moment M_y and opposite shear V_z, element for element
    from the clamp out; and each element of the outer half carries the weight of the lumped
    nodes beyond it, V_z = -W (small deflection: rtol 1e-4)."""
    n, L = 6, 2.0
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -9.81))
    b = m.add_beam(L, n, start=(-L / 2, 0.0, 0.0), up=(0.0, 1.0, 0.0), **STEEL)
    m.add_joint("fixed", m.ground.point(0, 0, 0), b.node(n // 2))
    res = rancf.static(m)
    assert res.status == "ok", res.message
    sigma = res.internal_forces(b)[-1]
    inner, outer = sigma[:n // 2][::-1], sigma[n // 2:]
    mirror = np.array([1.0, 1.0, -1.0, 1.0, 1.0, 1.0])
    np.testing.assert_allclose(inner * mirror, outer, rtol=1e-8,
                               atol=1e-8 * np.abs(sigma).max())
    mass, _ = b.node_masses()
    beyond = np.cumsum(mass[::-1])[::-1][n // 2 + 1:] * 9.81
    np.testing.assert_allclose(outer[:, 2], -beyond, rtol=1e-4)
    assert np.all(outer[:, 4] > 0.0)
