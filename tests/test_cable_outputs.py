"""Outputs of models with spatial ANCF cables (issue 23): point accelerations
(``Result.acceleration``, from the forward dynamics of the formulation that ran), vibration
modes (``rancf.modes`` on the recursion) and the cables' section forces in ParaView files
(``Result.to_vtk``), each against something independent: finite differences of the stored
velocities, the hanging chain's Bessel-function frequencies, the files read back."""
import numpy as np
import pytest

import rancf

CABLE = dict(E=1e7, rho=1000.0, A=1e-4, I=1e-9, element="ancf-cable")


def _hub():
    """A cable clamped to a hub on a revolute joint, a rigid payload hung from its end by a
    spherical joint (off its centre), a load on an inner node, gravity: every kind of cable
    link of the recursion."""
    m = rancf.Model(dim=3, gravity=(0.0, -3.0, -9.81))
    hub = m.add_rigid_body(1.0, np.diag([0.01, 0.02, 0.03]), position=(0, 0, 0))
    m.add_joint("revolute", m.ground.point(0, 0, 0), hub.centre, axis=(0, 0, 1))
    c = m.add_beam(1.0, 3, start=(0.2, 0, 0), **CABLE)
    m.add_joint("fixed", hub.point(0.2, 0, 0), c.start)
    r = m.add_rigid_body(0.2, np.diag([1e-4, 2e-4, 3e-4]), position=(1.3, 0.05, 0))
    m.add_joint("spherical", c.end, r.point(-0.1, -0.05, 0))
    m.add_force(c.node(1), force=(0.3, 0.2, -1.0))
    return m, c, r


def _pinned_twice():
    """A cable pinned at both ends (a loop: the spatial DAE runs it) under gravity and a
    side load on its middle node."""
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -9.81))
    c = m.add_beam(1.0, 4, **CABLE)
    m.add_joint("spherical", m.ground.point(0, 0, 0), c.start)
    m.add_joint("spherical", m.ground.point(1, 0, 0), c.end)
    m.add_force(c.node(2), force=(0.0, 3.0, 0.0))
    return m, c


def _difference_errors(res, points, every):
    """The largest gap, over the points and the interior frames, between
    ``Result.acceleration`` and the central difference of ``Result.velocity`` over the
    outputs ``every`` apart, relative to the largest acceleration."""
    gaps = []
    for p in points:
        a, v, t = res.acceleration(p)[::every], res.velocity(p)[::every], res.t[::every]
        fd = (v[2:] - v[:-2]) / (t[2:] - t[:-2])[:, None]
        gaps.append(np.abs(a[1:-1] - fd).max() / np.abs(a).max())
    return max(gaps)


@pytest.mark.parametrize("which", ["recursion", "dae"])
def test_accelerations_are_the_limit_of_differences_of_the_velocities(which):
    """On the recursion (the hub, RK4 at 2e-5 s: cable nodes, the payload's centre and a point
    off it) and on the spatial DAE (the cable pinned at both ends, Newmark at 1e-5 s), the
    accelerations of the stored states equal central differences of the stored velocities
    to the differences' own error: it falls by 3.5 to 4.5 as their spacing halves (second
    order), to below 2e-4 of the largest acceleration."""
    if which == "recursion":
        m, c, r = _hub()
        res = rancf.simulate(m, 0.02, 2e-5, method="rk4", output_every=1)
        points = [c.node(1), c.end, r.centre, r.point(0.1, 0.2, 0.0)]
        assert res.formulation == "spatial"
    else:
        m, c = _pinned_twice()
        res = rancf.simulate(m, 0.02, 1e-5, method="newmark", output_every=1, tol=1e-12)
        points = [c.node(1), c.node(2)]
        assert res.formulation == "dae"
    assert res.status == "ok", res.message
    errors = [_difference_errors(res, points, every) for every in (16, 8, 4)]
    for a, b in zip(errors, errors[1:]):
        assert 3.5 <= a / b <= 4.5, errors
    assert errors[-1] <= 5e-4, errors


def test_cable_frames_angular_accelerations_are_the_limit_of_differences():
    """Every body's and cable node's ``(a, alpha)`` row (a cable node's alpha that of its drawn
    frame, ``t x t''``) against central differences of the stored velocities and angular
    velocities: second order in the spacing, below 1e-3 of the largest."""
    from rancf.results.outputs import spatial_accelerations
    m, c, r = _hub()
    res = rancf.simulate(m, 0.02, 2e-5, method="rk4", output_every=1)
    acc = spatial_accelerations(res)
    assert acc.shape == (len(res.t), 2 + c.n_nodes, 6)
    errors = []
    for every in (16, 8, 4):
        A, V, t = acc[::every], res.velocities[::every], res.t[::every]
        fd = (V[2:] - V[:-2]) / (t[2:] - t[:-2])[:, None, None]
        errors.append(np.abs(A[1:-1] - fd).max() / np.abs(A).max())
    for a, b in zip(errors, errors[1:]):
        assert 3.5 <= a / b <= 4.5, errors
    assert errors[-1] <= 5e-4, errors


def _hanging_chain(n_elements, length=1.0, g=9.81):
    """A cable hanging from a pin at the origin, straight down: rho A = 1 kg/m, EA = 1e8 N
    (the weight stretches it by 5e-8), EI = 1e-10 N m^2 (the soft-bending limit: the bending
    length ``(EI / (rho A g))^(1/3)`` is 2e-4 of the length)."""
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -g))
    c = m.add_beam(length, n_elements, direction=(0, 0, -1), E=1e11, rho=1000.0, A=1e-3,
                   I=1e-21, element="ancf-cable")
    m.add_joint("spherical", m.ground.point(0, 0, 0), c.start)
    return m, c


def test_hanging_chain_frequencies_converge_to_the_bessel_roots():
    """``rancf.modes`` of the hanging chain on the recursion: its frequencies come in pairs
    (two planes of swing, equal to 1e-9) converging with the mesh to the inextensible chain's
    ``omega_n = j_{0,n} / 2 sqrt(g / L)`` (j_{0,n} the zeros of J0): the third and fourth
    pairs' errors fall by more than 16 from 8 to 16 elements, and at 32 the first four pairs
    are within 1e-6 of the formula (the stretch and the bending stiffness shift them by less)."""
    from scipy.special import jn_zeros

    g, L = 9.81, 1.0
    exact = jn_zeros(0, 4) / 2.0 * np.sqrt(g / L) / (2.0 * np.pi)
    errors = []
    for n_elements in (8, 16, 32):
        m, c = _hanging_chain(n_elements, L, g)
        found = rancf.modes(m, n=8)
        f = found.frequencies
        assert not found.rigid.any()
        assert np.abs(f[0::2] - f[1::2]).max() <= 1e-9 * f.max()
        errors.append(np.abs(f[0::2] - exact) / exact)
    assert (errors[0][2:] / errors[1][2:] > 16.0).all(), errors
    assert errors[-1].max() <= 1e-6, errors


def test_hanging_chain_shapes_are_the_bessel_function_with_unit_modal_mass():
    """The first mode's shape at the cable nodes (``Modes.shapes``: 6 numbers a cable node,
    its ``[dr, dr']``) is the inextensible chain's ``J0(j_{0,1} sqrt(x / L))`` (x up from the
    free end) in a vertical plane (to 1e-6), to 1e-5 of its largest; it has unit modal mass in the
    cable's consistent mass assembled here in absolute coordinates; a mode from the State of
    ``rancf.static`` gives the same frequencies (to 1e-6)."""
    from scipy.special import j0, jn_zeros

    from rancf.elements import ancf_cable

    L = 1.0
    m, c = _hanging_chain(16, L)
    found = rancf.modes(m, n=4)
    shape = found.shapes[0].reshape(-1, 6)
    assert shape.shape == (c.n_nodes, 6)
    swing = shape[:, :2]
    # the swing's direction in the horizontal plane (the pair's modes span both)
    direction = swing[-1] / np.linalg.norm(swing[-1])
    along = swing @ direction
    x = L - np.linspace(0.0, L, c.n_nodes)         # up from the free end
    expected = j0(jn_zeros(0, 1)[0] * np.sqrt(x / L))
    assert np.abs(along / along[-1] - expected).max() <= 1e-5
    assert np.abs(swing - np.outer(along, direction)).max() <= 1e-6 * np.abs(along).max()
    M = np.zeros((6 * c.n_nodes, 6 * c.n_nodes))
    h = L / c.n_elements
    for k in range(c.n_elements):
        M[6 * k:6 * k + 12, 6 * k:6 * k + 12] += ancf_cable.mass_matrix(1000.0, 1e-3, h)
    for i in range(len(found)):
        s = found.shapes[i]
        assert abs(s @ M @ s - 1.0) <= 1e-9
    eq = rancf.static(m)
    again = rancf.modes(m, state=eq.state(0), n=4)
    assert np.abs(again.frequencies - found.frequencies).max() <= 1e-6 * found.frequencies.max()
    assert again.equilibrium.x.shape == (6 * c.n_nodes,)


@pytest.mark.parametrize("curved", [False, True])
def test_modes_cable_stiffness_equals_differences_of_the_generalized_forces(curved):
    """The stiffness ``rancf.modes`` linearizes a cable model in (the cables' elastic share
    written out from the elements' tangent stiffness and the curvature of the map to their
    coordinates, the rest by differences: ``rancf.studies.vibration._cable_stiffness``) equals
    central differences of the whole generalized force (its own Newton-Euler residual) to 1e-6
    of its largest entry, at a state 0.01 off the reference: on the hub (a clamp on a turning
    body and a payload), or a curved cable on the hub."""
    from rancf.studies import vibration
    from rancf.formulations import spatial

    m, c, r = _hub()
    if curved:
        m = rancf.Model(dim=3, gravity=(0.0, -3.0, -9.81))
        hub = m.add_rigid_body(1.0, np.diag([0.01, 0.02, 0.03]), position=(0, 0, 0))
        m.add_joint("revolute", m.ground.point(0, 0, 0), hub.centre, axis=(0, 0, 1))
        a = np.linspace(0.0, np.pi / 2, 5)
        c = m.add_beam(n_elements=4, points=np.column_stack([0.2 + np.sin(a), 1 - np.cos(a),
                                                             0 * a]),
                       tangents=np.column_stack([np.cos(a), np.sin(a), 0 * a]), **CABLE)
        m.add_joint("fixed", hub.point(0.2, 0, 0), c.start)
    full = vibration._frozen(m)
    bare = vibration._frozen(m, elastic_cables=False)
    n = full.n_free
    q = 0.01 * np.random.default_rng(2).standard_normal(n)
    lengths = np.where(vibration._length_coordinates(full.tree, full.cables)[
        full.kernel.arrays["smap"][:full.n_q] >= 0], m.build().size, 1.0)
    Jc = np.zeros((m.build().n_cable_nodes, 6, n))
    y = np.concatenate([q, np.zeros(n)])
    for k in range(n):
        y[n + k] = 1.0
        full.kinematics(y)
        Jc[:, :, k] = full.cable_coordinates()[1]
        y[n + k] = 0.0
    written = vibration._stiffness(spatial.implicit_problem(bare), q, lengths)[0] + \
        vibration._cable_stiffness(full, q, Jc)
    differences = vibration._stiffness(spatial.implicit_problem(full), q, lengths)[0]
    assert np.abs(written - differences).max() <= 1e-6 * np.abs(differences).max()


def _taut_string(n_elements, tension, length=1.0):
    """A cable pinned at both ends, no gravity: its start to the ground, its end to a small
    body on a prismatic joint along the cable pulled by the effort ``tension`` (N), so the
    end is held across the cable and the cable stretches to carry the tension (a loop: the
    spatial DAE runs it). rho A = 1 kg/m, EA = 1e6 N, EI = 1e-6 N m^2."""
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, 0.0))
    c = m.add_beam(length, n_elements, E=1e9, rho=1000.0, A=1e-3, I=1e-15,
                   element="ancf-cable")
    m.add_joint("spherical", m.ground.point(0, 0, 0), c.start)
    b = m.add_rigid_body(0.1, np.eye(3) * 1e-4, position=(length, 0, 0))
    m.add_joint("spherical", c.end, b.centre)
    m.add_joint("prismatic", m.ground.point(length, 0, 0), b.centre, axis=(1, 0, 0),
                effort=tension)
    return m, c


def test_taut_string_frequencies_converge_to_the_string_formula_on_the_dae():
    """``rancf.modes`` of the taut string (pinned both ends, tension T = 100 N from the
    effort, on the spatial DAE): the equilibrium's normal force is T all along, and its
    transverse frequencies, in pairs (two planes, equal to 1e-9), converge with the mesh to
    the string's ``n / (2 L) sqrt(T / (rho A))``, here taken with the stretch ``eps = T /
    EA`` (length ``L (1 + eps)``, mass per length ``rho A / (1 + eps)``: a factor ``1 /
    sqrt(1 + eps)``, 5e-5) and the bending stiffness of a pinned beam (``omega^2 = (k^2 T +
    k^4 EI) / (rho A / (1 + eps))``, ``k = n pi / (L (1 + eps))``: 1e-7 and below): the
    fourth pair's error falls by more than 16 from 8 to 16 elements and at 32 the first four
    pairs are within 1e-7. The first mode's shape is ``sin(pi x / L)`` across the string."""
    L, T, rhoA, EA, EI = 1.0, 100.0, 1.0, 1e6, 1e-6
    eps = T / EA
    k = np.arange(1, 5) * np.pi / (L * (1.0 + eps))
    exact = np.sqrt((k**2 * T + k**4 * EI) / (rhoA / (1.0 + eps))) / (2.0 * np.pi)
    assert np.abs(exact * np.sqrt(1 + eps) / (np.arange(1, 5) / (2 * L) * np.sqrt(T / rhoA))
                  - 1.0).max() < 1e-6
    errors = []
    for n_elements in (8, 16, 32):
        m, c = _taut_string(n_elements, T, L)
        found = rancf.modes(m, n=8)
        f = found.frequencies
        assert not found.rigid.any()
        assert np.abs(f[0::2] - f[1::2]).max() <= 1e-9 * f.max()
        errors.append(np.abs(f[0::2] - exact) / exact)
    assert errors[0][3] / errors[1][3] > 16.0, errors
    assert errors[-1].max() <= 1e-7, errors
    period = found.motion(0, n_frames=4)
    assert period.formulation == "dae"
    assert np.abs(period.internal_forces(c)[0, :, 0] - T).max() <= 1e-6 * T
    shape = found.shapes[0, 6:].reshape(c.n_nodes, 6)[:, :3]      # after the body's six
    across = shape[:, 1:]
    direction = across[c.n_nodes // 2] / np.linalg.norm(across[c.n_nodes // 2])
    x = np.linspace(0.0, 1.0, c.n_nodes)
    assert np.abs(across @ direction / (across @ direction).max() - np.sin(np.pi * x)).max() \
        <= 1e-4


def test_vtk_files_carry_the_cables_section_forces(tmp_path):
    """``Result.to_vtk`` of a model with an SE(3) beam, two cables (the second hung from the
    first's end) and a rigid payload, read back with meshio, every frame: each cable a
    polyline through its nodes' stored positions (``extra["cable_nodes"]``), its line cells
    carrying ``normal_force`` and ``cable_bending_moment`` equal to
    ``Result.internal_forces(cable)`` (its N and global moment vector at the element
    midpoints); the beam's lines its six components and a NaN moment vector, the payload's
    vertex NaN. A round trip of the file writer: the section forces themselves are checked
    against statics (weight below a point, P L at a root, the analytic ring) in
    tests/test_cable_state.py."""
    meshio = pytest.importorskip("meshio")
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -9.81))
    b = m.add_beam(0.5, 2, E=1e8, rho=1000.0, A=1e-4, I=(1e-9, 1e-9), J=2e-9, G=4e7)
    m.add_joint("spherical", m.ground.point(0, 0, 0), b.start)
    c = m.add_beam(1.0, 4, start=(0.5, 0, 0), **CABLE)
    m.add_joint("spherical", b.end, c.start)
    d = m.add_beam(0.5, 2, start=(1.5, 0, 0), **{**CABLE, "damping": 1e-3})
    m.add_joint("spherical", c.end, d.start)
    r = m.add_rigid_body(0.1, np.diag([1e-4, 2e-4, 2e-4]), position=(2.1, 0, 0))
    m.add_joint("spherical", d.end, r.point(-0.1, 0, 0))
    res = rancf.simulate(m, 0.02, 1e-3, method="newmark", output_every=5)
    assert res.status == "ok" and res.formulation == "spatial", res.message
    res.to_vtk(tmp_path, name="run")
    tree = m.build()
    n_bodies = tree.n_bodies
    cable_nodes = res.extra["cable_nodes"].reshape(len(res.t), -1, 6)
    for k in range(len(res.t)):
        mesh = meshio.read(tmp_path / f"run_{k:05d}.vtu")
        lines = mesh.cells_dict["line"]
        assert len(lines) == b.n_elements + c.n_elements + d.n_elements
        assert np.array_equal(mesh.points[n_bodies:], cable_nodes[k, :, :3])
        data = {name: mesh.cell_data[name][0] for name in ("beam", "normal_force", "torsion",
                                                           "cable_bending_moment")}
        first = b.n_elements
        for cable, start in ((c, 0), (d, c.n_nodes)):
            cells = slice(first, first + cable.n_elements)
            nodes = n_bodies + start + np.arange(cable.n_nodes)
            assert np.array_equal(lines[cells], np.column_stack([nodes[:-1], nodes[1:]]))
            assert (data["beam"][cells] == cable.index).all()
            expected = res.internal_forces(cable)[k]
            assert np.array_equal(data["normal_force"][cells], expected[:, 0])
            assert np.array_equal(data["cable_bending_moment"][cells], expected[:, 1:])
            assert np.isnan(data["torsion"][cells]).all()
            first += cable.n_elements
        assert np.array_equal(data["torsion"][:b.n_elements], res.internal_forces(b)[k, :, 3])
        assert np.isnan(data["cable_bending_moment"][:b.n_elements]).all()
        vertex = mesh.cell_data["cable_bending_moment"][1]
        assert vertex.shape == (1, 3) and np.isnan(vertex).all()
    # the first cable carries the second and the payload: in tension all along
    assert (res.internal_forces(c)[-1, :, 0] > 0.0).all()
