"""Spatial ANCF cables that start from a given state, curved cables and the cables' section
forces (issue 23), each against something independent: the energy of the state given, the
joints' rows, the analytic curvature of a circle, rigid motions, finite differences, statics
(the weight below a section, the moment of a tip load)."""
import numpy as np
import pytest

import rancf
from rancf.elements import _ancf_cable as kernels
from rancf.elements import ancf_cable

CABLE = dict(E=1e7, rho=1000.0, A=1e-4, I=1e-9, element="ancf-cable")


def _hung_body():
    """A cable hung from the ground with a rigid body on its end, swinging out of plane."""
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -9.81))
    c = m.add_beam(1.0, 4, **CABLE)
    body = m.add_rigid_body(0.5, np.eye(3) * 1e-3, position=(1.05, 0.0, 0.0))
    m.add_joint("spherical", m.ground.point(0.0, 0.0, 0.0), c.start)
    m.add_joint("spherical", c.end, body.point(-0.05, 0.0, 0.0))
    return m, c, body


def _circle(radius, angles):
    """Points and unit tangents of a circle in the x-y plane at the angles."""
    P = radius * np.column_stack([np.cos(angles), np.sin(angles), 0.0 * angles])
    T = np.column_stack([-np.sin(angles), np.cos(angles), 0.0 * angles])
    return P, T


def test_state_holds_the_cable_coordinates_and_a_restart_carries_the_stretch():
    """``Result.state(i)``: the body's pose and velocity, then the cable nodes' ``[r, r']`` and
    rates exactly as the run kept them; a run started from it starts with the same strain
    energy (measured: the same to the last digit), which the slopes' lengths carry (the drawn
    poses hold only their directions: with the same positions and unit slopes, undoing the
    stretch of 9e-5, the energy is 0.4 % higher)."""
    m, c, body = _hung_body()
    first = rancf.simulate(m, 0.02, 1e-3, method="generalized-alpha")
    assert first.status == "ok", first.message
    s = first.state(-1)
    n_bodies = 1
    assert s.x.shape == (12 * n_bodies + 6 * c.n_nodes,)
    assert s.v.shape == (6 * n_bodies + 6 * c.n_nodes,)
    assert np.array_equal(s.x[:12], first.nodes[-1, 0])
    assert np.array_equal(s.x[12:], first.extra["cable_nodes"][-1].ravel())
    assert np.array_equal(s.v[6:], first.extra["cable_velocities"][-1].ravel())
    slopes = s.x[12:].reshape(-1, 6)[:, 3:]
    assert np.abs(np.linalg.norm(slopes, axis=1) - 1.0).max() > 1e-5     # stretched
    rest = rancf.simulate(m, 0.01, 1e-3, method="generalized-alpha", state=s)
    assert rest.status == "ok", rest.message
    assert np.allclose(rest.state(0).x, s.x, rtol=0.0, atol=1e-12)
    before, after = first.energy().elastic.iloc[-1], rest.energy().elastic.iloc[0]
    assert before > 0.0
    assert abs(after - before) <= 1e-9 * before


def test_a_saved_result_keeps_the_cable_coordinates(tmp_path):
    """A file keeps ``extra``: the Result loaded without its model gives the same State, with
    its model the same section forces."""
    m, c, body = _hung_body()
    res = rancf.simulate(m, 0.005, 1e-3, method="generalized-alpha")
    res.save(tmp_path / "run.npz")
    alone, with_model = rancf.load(tmp_path / "run.npz"), rancf.load(tmp_path / "run.npz", m)
    for i in (0, -1):
        assert np.array_equal(alone.state(i).x, res.state(i).x)
        assert np.array_equal(alone.state(i).v, res.state(i).v)
    assert np.array_equal(with_model.internal_forces(c), res.internal_forces(c))


def test_a_state_off_the_joints_or_of_the_wrong_size_is_refused():
    m, c, body = _hung_body()
    s = rancf.simulate(m, 0.005, 1e-3, method="generalized-alpha").state(-1)
    x = s.x.copy()
    x[12 + 2] += 1e-3                      # the cable's first node off its spherical joint
    with pytest.raises(ValueError, match="state: the poses do not satisfy the joints \\(a "
                                         "constraint off by 0.001"):
        rancf.simulate(m, 0.005, 1e-3, state=rancf.State(x, s.v))
    with pytest.raises(ValueError, match="then the coordinates \\[r, r'\\] of its 5 cable nodes "
                                         "\\(6 a node\\) and their rates: 42 and 36 numbers, got "
                                         "12 and 6"):
        rancf.simulate(m, 0.005, 1e-3, state=rancf.State(s.x[:12], s.v[:6]))


@pytest.mark.parametrize("formulation", ["auto", "dae"])
@pytest.mark.parametrize("slope", [(0.0, 0.0, 0.0), (1e-4, 0.0, 0.0), (0.0, -9e-4, 0.0)])
def test_a_state_with_a_vanishing_or_undefined_cable_slope_is_refused(slope, formulation):
    """A cable node whose slope is zero or near zero (the strains divide by
    ``|r'|``; such a start ran to NaN before) is refused by name and value, by the recursion
    and by the spatial DAE; the joints' rows do not see an interior node's slope, so this check
    is the only one that can."""
    m, c, body = _hung_body()
    s = rancf.simulate(m, 0.002, 1e-3, method="generalized-alpha").state(-1)
    x = s.x.copy()
    x[12 + 6 * 2 + 3:12 + 6 * 2 + 6] = slope      # the middle node of the cable
    with pytest.raises(ValueError, match=r"state: cable node 2 .* a cable slope must be finite "
                                         r"with \|r'\| >= 0.001"):
        rancf.simulate(m, 0.005, 1e-3, state=rancf.State(x, s.v), formulation=formulation)


def test_a_static_result_gives_its_cable_coordinates_to_a_run():
    """``rancf.static``'s frame keeps the cable coordinates too: a run from it starts at rest
    in equilibrium, where its positions stay (to the Newton tolerance of the run)."""
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -9.81))
    c = m.add_beam(1.0, 4, **CABLE)
    m.add_joint("fixed", m.ground.point(0.0, 0.0, 0.0), c.start)
    eq = rancf.static(m)
    assert eq.status == "ok", eq.message
    run = rancf.simulate(m, 0.01, 1e-3, method="generalized-alpha", state=eq.state(0))
    moved = np.abs(run.extra["cable_nodes"] - eq.extra["cable_nodes"][0]).max()
    assert moved <= 1e-8


def test_rest_curvature_of_a_circle_converges_at_the_elements_order():
    """Elements on a circle of radius 2 m: their rest curvature (the reference's, at the bending
    Gauss points) tends to 1/R at second order, the cubic Hermite interpolant's order for a
    second derivative, within its bound theta^2 / 12 + O(theta^3); the elements' arc lengths
    sum to 2 pi R at fourth order (the interpolant's position error, squared in the
    chord-to-arc difference)."""
    R = 2.0
    curvature, length = [], []
    for n in (8, 16, 32, 64):
        P, T = _circle(R, np.linspace(0.0, 2 * np.pi, n + 1))
        lengths = ancf_cable.element_lengths(P, T)
        x0 = np.column_stack([P, T])
        k0 = np.array([ancf_cable.rest_state(np.concatenate([x0[k], x0[k + 1]]), l)[5:]
                       for k, l in enumerate(lengths)])
        curvature.append(np.abs(k0 * R - 1.0).max())
        theta = lengths.max() / R          # the interpolation's bound (test_ancf_cable.py's)
        assert curvature[-1] <= theta**2 / 12 + theta**3
        length.append(abs(lengths.sum() - 2 * np.pi * R))
    assert np.all(np.abs(np.log2(np.array(curvature[:-1]) / curvature[1:]) - 2.0) < 0.1)
    assert np.all(np.abs(np.log2(np.array(length[:-1]) / length[1:]) - 4.0) < 0.2)


@pytest.mark.parametrize("R1", [1.25, 0.8])
def test_a_ring_bent_to_another_radius_has_the_analytic_energy_and_moment(R1):
    """Elements of a circle of radius R0 = 1 m (arc length L = 1 m) placed on a circle of
    radius R1 at the same arc lengths (opened up and closed in): the exact rod has ``U = EI/2
    (1/R1 - 1/R0)^2 L`` and the moment ``M = EI (1/R1 - 1/R0) e_z`` (``kappa = r' x r'' =
    e_z / R`` on a circle turning about +z), no normal force. The moment at the elements'
    middles converges at second order, the cubic's order for r''; the energy at fourth (the
    curvature error, of second order, enters the Gauss sum of ``(|kappa| - k0)^2`` linearly
    through a term that averages to zero over the element: measured 4.00 and 2.00). An error
    converging at an order is an error converging to zero: the limits are the analytic ones.
    The normal force and the in-plane moment (zero in the exact rod) vanish at least at
    second order too."""
    R0, L, EA, EI = 1.0, 1.0, 1e4, 2.0
    U_exact, M_exact = EI / 2 * (1 / R1 - 1 / R0) ** 2 * L, EI * (1 / R1 - 1 / R0)
    error_U, error_M, spurious = [], [], []
    for n in (8, 16, 32):
        P0, T0 = _circle(R0, np.linspace(0.0, L / R0, n + 1))
        lengths = ancf_cable.element_lengths(P0, T0)
        P1, T1 = _circle(R1, np.concatenate([[0.0], np.cumsum(lengths)]) / R1)
        x0, x1 = np.column_stack([P0, T0]), np.column_stack([P1, T1])
        U, sections = 0.0, []
        for k, l in enumerate(lengths):
            e0 = np.concatenate([x0[k], x0[k + 1]])
            e = np.concatenate([x1[k], x1[k + 1]])
            U += kernels.force(e, np.zeros(12), l, EA, EI, 0.0, np.empty(12),
                               ancf_cable.rest_state(e0, l))[0]
            sections.append(ancf_cable.section_forces(e, 0.5, l, EA, EI, rest=e0))
        sections = np.array(sections)
        error_U.append(abs(U / U_exact - 1.0))
        error_M.append(np.abs(sections[:, 3] / M_exact - 1.0).max())
        spurious.append(np.abs(sections[:, :3]).max())
    assert np.all(np.log2(np.array(spurious[:-1]) / spurious[1:]) > 1.9)
    assert np.all(np.abs(np.log2(np.array(error_U[:-1]) / error_U[1:]) - 4.0) < 0.1)
    assert np.all(np.abs(np.log2(np.array(error_M[:-1]) / error_M[1:]) - 2.0) < 0.05)


def test_a_curved_element_is_stress_free_in_every_rigid_placement_of_its_reference():
    """Energy and force of a curved element moved rigidly (a rotation out of its plane and a
    translation) from its reference, against its rest state: zero to round-off, relative to
    those of a 1 % stretch (the bending law compares curvature magnitudes, which a rotation
    keeps; the curvature vector itself turns)."""
    P, T = _circle(1.5, np.array([0.3, 0.8]))
    e0 = np.concatenate([P[0], T[0], P[1], T[1]])
    l = ancf_cable.element_lengths(P, T)[0]
    rest = ancf_cable.rest_state(e0, l)
    a = np.array([0.3, -1.1, 0.7])
    angle = np.linalg.norm(a)
    K = np.array([[0, -a[2], a[1]], [a[2], 0, -a[0]], [-a[1], a[0], 0]]) / angle
    Q = np.eye(3) + np.sin(angle) * K + (1 - np.cos(angle)) * K @ K
    d = np.array([0.4, -2.0, 1.0])
    e = np.concatenate([Q @ P[0] + d, Q @ T[0], Q @ P[1] + d, Q @ T[1]])
    args = (np.zeros(12), l, 1e3, 10.0, 0.0)
    f, f_stretch = np.empty(12), np.empty(12)
    U = kernels.force(e, *args, f, rest)[0]
    U_stretch = kernels.force(1.01 * e, *args, f_stretch, rest)[0]
    assert abs(U) <= 1e-12 * U_stretch
    assert np.abs(f).max() <= 1e-12 * np.abs(f_stretch).max()


@pytest.mark.parametrize("damping", [0.0, 1e-2])
def test_curved_element_forces_and_tangents_match_finite_differences(damping):
    """With a rest state: f = -dU/de (undamped), K = -df/de and C = -df/de' by central
    differences, at a state bent off the reference in and out of its plane."""
    P, T = _circle(1.0, np.array([0.0, 0.4]))
    e0 = np.concatenate([P[0], T[0], P[1], T[1]])
    l = ancf_cable.element_lengths(P, T)[0]
    rest = ancf_cable.rest_state(e0, l)
    rng = np.random.default_rng(5)
    e = e0 + 0.05 * rng.standard_normal(12)
    ed = rng.standard_normal(12)
    EA, EI = 1e3, 10.0

    def force(x, xd):
        out = np.empty(12)
        U = kernels.force(x, xd, l, EA, EI, damping, out, rest)[0]
        return out, U

    f, K, C = np.empty(12), np.empty((12, 12)), np.empty((12, 12))
    kernels.force_tangent(e, ed, l, EA, EI, damping, f, K, C, rest)
    h = 1e-6
    unit = np.eye(12)
    if damping == 0.0:
        grad = np.array([(force(e + h * u, ed)[1] - force(e - h * u, ed)[1]) / (2 * h)
                         for u in unit])
        assert np.abs(f + grad).max() <= 1e-7 * np.abs(grad).max()
    K_fd = -np.array([(force(e + h * u, ed)[0] - force(e - h * u, ed)[0]) / (2 * h)
                      for u in unit]).T
    assert np.abs(K - K_fd).max() <= 1e-7 * np.abs(K).max()
    C_fd = -np.array([(force(e, ed + h * u)[0] - force(e, ed - h * u)[0]) / (2 * h)
                      for u in unit]).T
    assert np.abs(C - C_fd).max() <= 1e-7 * max(np.abs(C).max(), 1.0)


@pytest.mark.parametrize("axis", [(1.0, 0.0, 0.0), (0.3, -0.8, 0.5), (0.0, 0.0, 1.0)])
def test_a_curved_element_turning_rigidly_dissipates_nothing(axis):
    """A curved element at its reference turning rigidly (``r_dot = w x r``) about an axis in,
    across and out of its plane: its curvature's magnitude keeps still, so the damping force,
    the dissipated power and the section moment vanish to round-off, relative to those of the
    same element in a straight-cable rest state (no reference), which damps the whole curvature
    vector's rate (``2 D = c EI int |w x kappa|^2 dx`` off the plane's normal)."""
    P, T = _circle(1.0, np.array([0.0, 0.5]))
    e0 = np.concatenate([P[0], T[0], P[1], T[1]])
    l = ancf_cable.element_lengths(P, T)[0]
    rest = ancf_cable.rest_state(e0, l)
    w = np.array(axis)
    ed = np.concatenate([np.cross(w, v) for v in e0.reshape(4, 3)])
    EA, EI, c = 1e3, 10.0, 0.1
    f, f_straight = np.empty(12), np.empty(12)
    U, power = kernels.force(e0, ed, l, EA, EI, c, f, rest)
    power_straight = kernels.force(e0, ed, l, EA, EI, c, f_straight, None)[1]
    scale = EI * rest[5:].max()          # the bending stress's size, N m
    assert abs(U) <= 1e-14 * scale and abs(power) <= 1e-14 * scale
    assert np.abs(f).max() <= 1e-12 * scale
    M = ancf_cable.section_forces(e0, np.array([0.0, 0.3, 1.0]), l, EA, EI, ed, c, rest=e0)
    assert np.abs(M).max() <= 1e-12 * scale
    off_normal = np.linalg.norm(np.cross(w, (0.0, 0.0, 1.0)))
    if off_normal > 0.0:
        # the straight law's 2 D, by the same Gauss rule the kernel uses, from |w x kappa|
        # with kappa = k0 e_z at the bending points
        x, wg = np.polynomial.legendre.leggauss(3)
        expected = c * EI * l * np.sum(wg / 2 * rest[5:] ** 2) * off_normal ** 2
        assert np.isclose(power_straight, expected, rtol=1e-9)


def test_curved_damping_acts_on_the_rate_of_the_curvature_magnitude():
    """At a curved element bent and moving off its reference: the section's damping moment is
    ``c EI (d|kappa|/dt) u``, u = kappa / |kappa|, with d|kappa|/dt by central differences of
    |r' x r''| / |r'|^2 along e' (numpy, independent of the kernels); the kernel's damping
    force does work ``-f_D . e' = P``, its reported dissipated power, which is ``>= 0``."""
    P, T = _circle(1.0, np.array([0.0, 0.4]))
    e0 = np.concatenate([P[0], T[0], P[1], T[1]])
    l = ancf_cable.element_lengths(P, T)[0]
    rest = ancf_cable.rest_state(e0, l)
    rng = np.random.default_rng(7)
    e = e0 + 0.03 * rng.standard_normal(12)
    ed = rng.standard_normal(12)
    EA, EI, c = 1e3, 10.0, 1e-2
    xi = np.array([0.2, 0.7])

    def kappa(x):
        s1, s2 = (np.array([[6 * t**2 - 6 * t, l * (1 - 4 * t + 3 * t**2), 6 * t - 6 * t**2,
                             l * (3 * t**2 - 2 * t)] for t in xi]) / l,
                  np.array([[12 * t - 6, l * (6 * t - 4), 6 - 12 * t, l * (6 * t - 2)]
                            for t in xi]) / l**2)
        nodes = x.reshape(4, 3)
        a, b = s1 @ nodes, s2 @ nodes
        return np.cross(a, b) / np.einsum("id,id->i", a, a)[:, None]

    h = 1e-6
    k = kappa(e)
    u = k / np.linalg.norm(k, axis=1)[:, None]
    rate = (np.linalg.norm(kappa(e + h * ed), axis=1)
            - np.linalg.norm(kappa(e - h * ed), axis=1)) / (2 * h)
    damped = ancf_cable.section_forces(e, xi, l, EA, EI, ed, c, rest=e0)
    elastic = ancf_cable.section_forces(e, xi, l, EA, EI, rest=e0)
    expected = c * EI * rate[:, None] * u
    gap = np.abs(damped[:, 1:] - elastic[:, 1:] - expected).max()
    assert gap <= 1e-7 * np.abs(expected).max()
    f, f0 = np.empty(12), np.empty(12)
    power = kernels.force(e, ed, l, EA, EI, c, f, rest)[1]
    kernels.force(e, ed, l, EA, EI, 0.0, f0, rest)
    assert power > 0.0
    assert np.isclose(-(f - f0) @ ed, power, rtol=1e-10)


def _plane_arc(ends):
    """A quarter circle of unit radius in the xy plane under plane gravity, clamped at one or
    both ends: the model, its cable, node positions and tangents."""
    a = np.linspace(0.0, np.pi / 2, 9)
    P, T = _circle(1.0, a)
    m = rancf.Model(dim=3, gravity=(0.0, -9.81, 0.0))
    c = m.add_beam(n_elements=8, points=P, tangents=T, **CABLE)
    m.add_joint("fixed", m.ground.point(1.0, 0.0, 0.0), c.start)
    if ends == "both":
        m.add_joint("fixed", m.ground.point(0.0, 1.0, 0.0), c.end)
    return m, c, P, T


@pytest.mark.parametrize("ends", ["one", "both"])
def test_static_of_a_plane_arc_says_why_its_matrix_is_singular(ends):
    """A quarter circle clamped at one or both ends, in plane gravity: its tangent in the
    reference has a zero block out of the plane on every element (the kernels' own K, checked
    here by its out-of-plane rows), so its interior nodes are free out of the plane and
    ``rancf.static`` raises a ValueError naming the cable and the reason, not the
    factorization's generic message."""
    m, c, P, T = _plane_arc(ends)
    x0 = np.column_stack([P, T])
    for k, l in enumerate(c.element_lengths()):
        e0 = np.concatenate([x0[k], x0[k + 1]])
        K, C = np.empty((12, 12)), np.empty((12, 12))
        kernels.tangent(e0, np.zeros(12), l, 1e3, 1e-2, 0.0, K, C, ancf_cable.rest_state(e0, l))
        z = np.arange(2, 12, 3)          # the out-of-plane coordinates (z and z')
        assert np.abs(K[np.ix_(z, z)]).max() <= 1e-12 * np.abs(K).max()
    with pytest.raises(ValueError, match=r"singular in the reference configuration, and it holds "
                                         r"the plane curved cable cable\[0\]"):
        rancf.static(m)


@pytest.mark.parametrize("ends", ["one", "both"])
def test_the_plane_arcs_first_load_step_fails_with_the_reason_singular(ends):
    """The arc of the test above in the static loop itself, on the recursion (one clamp: a
    tree) and on the spatial DAE (both: a loop): the first load step's StepFailure carries the
    code ``reason == "singular"`` (Newton's matrix singular at its start, the reference), what
    ``rancf.static`` explains by the plane curved cable."""
    from rancf.formulations import spatial
    from rancf.formulations._problem import PythonProblem
    from rancf.formulations.problem import StepFailure
    from rancf.formulations.spatial_dae import SpatialDAE
    from rancf.integrators._implicit import Stepper
    from rancf.integrators.implicit import Static

    m, c, P, T = _plane_arc(ends)
    scheme = Static()
    size = m.build().size
    if ends == "one":
        formulation = spatial.of_model(m)
        problem = spatial.implicit_problem(formulation, static=True)
        q, lam = formulation.initial_state()[:formulation.n_free], np.zeros(0)
        problem.load_factor = 0.1
    else:
        dae = SpatialDAE(m.build(), *spatial.model_inputs(m))
        q = dae.initial_state()[0]
        lam = np.zeros(dae.n_constraints)
        problem = PythonProblem(dae)
        dae.load_factor = 0.1
    stepper = Stepper(problem, scheme.alpha_m, scheme.alpha_f, scheme.gamma, scheme.beta,
                      scheme.intermediate, scheme.bdf1, 1.0, 1e-10 * size, 50, False,
                      static=scheme.static)
    stepper.start_at_rest(0.0, q, lam)
    with pytest.raises(StepFailure) as caught:
        stepper.advance()
    assert caught.value.reason == "singular" and caught.value.status == "failed"


def test_static_solves_a_plane_cable_whose_curved_element_straight_legs_hold():
    """An L of two straight legs (2 elements each, one off the axes) and a 60 degree corner
    element, clamped at both ends: the legs hold the corner element's nodes out of the plane,
    so the matrix is regular and the static solve runs (not refused); the legs' rest curvature
    is zero, not round-off (the magnitude law at k0 -> 0 would make them singular too)."""
    R, turn = 0.2, np.pi / 3
    t = np.array([np.cos(turn), np.sin(turn), 0.0])
    corner = np.array([0.5, R, 0.0]) + R * np.array([np.sin(turn), -np.cos(turn), 0.0])
    P = np.array([[0.0, 0, 0], [0.25, 0, 0], [0.5, 0, 0], corner, corner + 0.25 * t,
                  corner + 0.5 * t])
    T = np.array([[1.0, 0, 0]] * 3 + [t] * 3)
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -9.81))
    c = m.add_beam(n_elements=5, points=P, tangents=T, **CABLE)
    k0 = c.rest_state()[:, 5:]
    assert np.all(k0[[0, 1, 3, 4]] == 0.0) and np.all(k0[2] > 0.0)
    m.add_joint("fixed", m.ground.point(0.0, 0.0, 0.0), c.start)
    m.add_joint("fixed", m.ground.point(*P[-1]), c.end)
    eq = rancf.static(m)
    assert eq.status == "ok", eq.message
    assert eq.position(c.node(3))[0, 2] < 0.0            # it sags


def test_a_straight_cable_given_by_points_off_the_axes_is_the_straight_cable_in_statics():
    """Points on a line along (0.6, 0.8, 0): no rest curvature (the round-off of r' x r'' is
    dropped), and ``rancf.static`` gives the straight cable's sag under its weight (the same
    cable given by length and direction, whose rest state is zero by construction), to
    round-off. Before, the round-off k0 left the tangent singular."""
    d = np.array([0.6, 0.8, 0.0])
    s = np.linspace(0.0, 1.0, 5)
    tips = []
    for geometry in (dict(points=s[:, None] * d, tangents=np.tile(d, (5, 1))),
                     dict(length=1.0, direction=d)):
        m = rancf.Model(dim=3, gravity=(0.0, 0.0, -9.81))
        c = m.add_beam(n_elements=4, **geometry, **CABLE)
        assert np.all(c.rest_state()[:, 5:] == 0.0)
        m.add_joint("fixed", m.ground.point(0.0, 0.0, 0.0), c.start)
        eq = rancf.static(m)
        assert eq.status == "ok", eq.message
        tips.append(eq.position(c.end)[0])
    assert np.abs(tips[0] - tips[1]).max() <= 1e-12
    assert tips[0][2] < 0.0


def test_a_curved_cable_under_no_load_stays_put():
    """A half circle clamped at one end, no gravity: the reference is its rest state, so its
    nodes stay where they are (measured: exactly) and it stores no energy."""
    n = 12
    P, T = _circle(1.0, np.linspace(0.0, np.pi, n + 1))
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, 0.0))
    c = m.add_beam(n_elements=n, points=P, tangents=T, **CABLE)
    m.add_joint("fixed", m.ground.point(1.0, 0.0, 0.0), c.start)
    res = rancf.simulate(m, 0.05, 1e-3, method="generalized-alpha")
    assert res.status == "ok", res.message
    x0 = np.column_stack([P, T]).ravel()
    assert np.abs(res.extra["cable_nodes"] - x0).max() <= 1e-14
    assert np.abs(res.energy().elastic).max() <= 1e-20
    assert c.curved and abs(c.length - np.pi) <= 1e-4 * np.pi


def test_a_curved_cable_swinging_in_its_plane_conserves_energy_at_newmarks_order():
    """A half circle of radius 0.3 m pinned at one end, released under gravity in its plane, no
    damping: Newmark (trapezoidal) keeps ``kinetic + elastic + gravity`` to an error of order
    dt^2 (ratio of the drifts at 4 and 2 ms within [3, 5]; measured 4.2): the curved element's
    force is the gradient of the energy the Result reports, rest state included. (Out of its
    plane a curved cable is stiff beyond first order only, and unstable where it is bent less
    than at rest: the theory page, Curved cables.)"""
    P, T = _circle(0.3, np.linspace(0.0, np.pi, 9))
    drifts = []
    for dt in (4e-3, 2e-3):
        m = rancf.Model(dim=3, gravity=(0.0, -9.81, 0.0))
        c = m.add_beam(n_elements=8, points=P, tangents=T, **{**CABLE, "I": 1e-7})
        m.add_joint("spherical", m.ground.point(0.3, 0.0, 0.0), c.start)
        res = rancf.simulate(m, 0.5, dt, method="newmark")
        assert res.status == "ok", res.message
        e = res.energy()
        assert e.elastic.max() > 1e-2 * e.kinetic.max()      # it bends as it swings
        drifts.append(float(np.abs(e.total - e.total[0]).max()))
    assert 3.0 <= drifts[0] / drifts[1] <= 5.0


def test_a_ring_of_two_curved_cables_closing_on_itself_stays_put():
    """Two half circles joined end to end by spherical joints into a ring (a joint joins two
    items, so a ring is two cables), hung from the ground, no gravity: it stays put to the
    round-off of its closing point (sin 2 pi is 2.4e-16, not 0)."""
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, 0.0))
    halves = [m.add_beam(n_elements=8, points=P, tangents=T, **CABLE)
              for P, T in (_circle(1.0, np.linspace(a, a + np.pi, 9)) for a in (0.0, np.pi))]
    m.add_joint("spherical", halves[0].end, halves[1].start)
    m.add_joint("spherical", halves[1].end, halves[0].start)
    m.add_joint("spherical", m.ground.point(1.0, 0.0, 0.0), halves[0].start)
    res = rancf.simulate(m, 0.05, 1e-3, method="generalized-alpha")
    assert res.status == "ok", res.message
    assert np.abs(res.extra["cable_nodes"] - res.extra["cable_nodes"][0]).max() <= 1e-13


def test_a_straight_cable_given_by_points_is_the_straight_cable():
    """Points on a line with its direction as tangents: the same element lengths, no rest
    strain, the same swing as the straight cable's (to round-off)."""
    runs = []
    for curved in (False, True):
        m = rancf.Model(dim=3, gravity=(0.0, 0.0, -9.81))
        if curved:
            s = np.linspace(0.0, 1.0, 5)
            c = m.add_beam(n_elements=4, points=np.column_stack([s, 0 * s, 0 * s]),
                           tangents=np.tile([1.0, 0.0, 0.0], (5, 1)), **CABLE)
            assert np.allclose(c.element_lengths(), 0.25, rtol=0, atol=1e-15)
            assert np.abs(c.rest_state()).max() <= 1e-15
        else:
            c = m.add_beam(1.0, 4, **CABLE)
        m.add_joint("spherical", m.ground.point(0.0, 0.0, 0.0), c.start)
        runs.append(rancf.simulate(m, 0.05, 1e-3, method="generalized-alpha"))
    assert np.abs(runs[0].extra["cable_nodes"] - runs[1].extra["cable_nodes"]).max() <= 1e-12


def test_hanging_cable_carries_the_weight_below_each_section():
    """A cable hung from its top: the normal force at s is the weight of the cable below,
    ``rho A g (L - s)`` (the exact axial strain is linear in s, which the cubic elements
    hold exactly), no moment; the default is the element midpoints."""
    rhoA, EA, g, L = 0.5, 1e5, 9.81, 2.0
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -g))
    c = m.add_beam(L, 8, E=EA / 1e-4, rho=rhoA / 1e-4, A=1e-4, I=1e-9, direction=(0, 0, -1),
                   element="ancf-cable")
    m.add_joint("spherical", m.ground.point(0.0, 0.0, 0.0), c.start)
    eq = rancf.static(m)
    assert eq.status == "ok", eq.message
    s = np.array([0.0, 0.3, 1.0, 1.9])
    sections = eq.internal_forces(c, s)
    assert sections.shape == (1, 4, 4)
    assert np.allclose(sections[0, :, 0], rhoA * g * (L - s), rtol=1e-9, atol=0)
    assert np.abs(sections[0, :, 1:]).max() <= 1e-9 * rhoA * g * L
    middle = (np.arange(8) + 0.5) * L / 8
    assert np.allclose(eq.internal_forces(c)[0, :, 0], rhoA * g * (L - middle), rtol=1e-9)


def test_cantilever_cable_root_moment_is_the_tip_load_times_its_arm():
    """A cable clamped at its root, a small tip load P along -z: the moment the part beyond s
    exerts on the part before it is ``P (L - s)`` about +y (``(L - s) e_x x (-P e_z)``), the
    small-deflection limit (deflection 1.7e-6 L: the geometric correction is of its square)."""
    L, P = 1.0, 1e-3
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, 0.0))
    c = m.add_beam(L, 8, E=2e11, rho=7800.0, A=1e-4, I=1e-9, element="ancf-cable")
    m.add_joint("fixed", m.ground.point(0.0, 0.0, 0.0), c.start)
    m.add_force(c.end, force=(0.0, 0.0, -P))
    eq = rancf.static(m)
    assert eq.status == "ok", eq.message
    s = np.array([0.0, 0.5])
    M = eq.internal_forces(c, s)[0, :, 1:]
    assert np.allclose(M[:, 1], P * (L - s), rtol=1e-9, atol=0)
    assert np.abs(M[:, [0, 2]]).max() <= 1e-9 * P * L


def test_section_forces_damping_part_is_the_strain_rate_times_c():
    """``N(e, e') - N(e, 0) = c EA d eps/dt`` and the moment's likewise with the curvature,
    the rates by central differences along e'."""
    rng = np.random.default_rng(2)
    e = np.array([0.0, 0, 0, 1, 0, 0, 0.5, 0.01, 0.02, 1, 0, 0]) + 0.02 * rng.standard_normal(12)
    ed = rng.standard_normal(12)
    l, EA, EI, c = 0.5, 1e3, 10.0, 1e-2
    xi = np.array([0.2, 0.7])
    damped = ancf_cable.section_forces(e, xi, l, EA, EI, ed, c)
    elastic = ancf_cable.section_forces(e, xi, l, EA, EI)
    h = 1e-6
    rate = (ancf_cable.section_forces(e + h * ed, xi, l, EA, EI)
            - ancf_cable.section_forces(e - h * ed, xi, l, EA, EI)) / (2 * h)
    assert np.allclose(damped - elastic, c * rate, rtol=1e-6, atol=1e-9 * np.abs(rate).max())
