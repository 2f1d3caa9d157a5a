"""The spatial ANCF cable element against independent computations: central differences of
the energy, of the force and of the dissipation, numerical integration of the defining
integrals with shape functions built here from their Hermite conditions, closed-form kinetic
energies of rigid motions, rigid-motion invariance, uniform stretch, the curvature of a
circular arc within the cubic's interpolation bound, the planar beam's Reissner model, and
two statics: Exudyn's 3D cable test and the inextensible catenary (theory: The spatial ANCF
cable)."""
import numpy as np
import pytest
from scipy.linalg import eigh
from scipy.optimize import brentq
from scipy.spatial.transform import Rotation

from rancf.elements import _ancf_cable as kernels
from rancf.elements import ancf_cable as cable
from rancf.elements import beam
# one BLAS thread: a 200 x 200 solve's threads only wait for each other on a busy machine
from rancf.formulations.spatial_dae import one_blas_thread

L, E, A, I = 0.8, 2.1e7, 9e-4, 6.75e-8


def straight(l=L, direction=(1.0, 0.0, 0.0), stretch=1.0, origin=(0.0, 0.0, 0.0)):
    t = np.asarray(direction, dtype=float)
    t = t / np.linalg.norm(t)
    ra = np.asarray(origin, dtype=float)
    return np.concatenate([ra, stretch * t, ra + stretch * l * t, stretch * t])


def random_deformed(rng, scale=0.3):
    return straight(direction=rng.standard_normal(3)) + scale * rng.standard_normal(12)


def rotate(R, e):
    """The element e moved by the rotation R: every node vector turned."""
    return (np.asarray(e).reshape(4, 3) @ R.T).ravel()


def central_differences(f, e):
    """Columns d f / d e_j (f scalar or vector) by central differences, step 1e-6 max|e|."""
    h = 1e-6 * np.abs(e).max()
    return np.array([(np.asarray(f(e + h * u)) - np.asarray(f(e - h * u))) / (2 * h)
                     for u in np.eye(e.size)]).T


def hermite(l):
    """The four cubic shape functions of an element of length l as polynomial coefficient
    arrays in x, from their definition: value and slope 1 or 0 at x = 0 and x = l."""
    V = np.array([[1, 0, 0, 0], [0, 1, 0, 0], [1, l, l**2, l**3], [0, 1, 2 * l, 3 * l**2]])
    return np.linalg.solve(V, np.eye(4)).T        # row k: coefficients of S_k (ascending)


def gauss(f, a, b, n=20):
    """int_a^b f(x) dx by n-point Gauss-Legendre (independent of the kernels' rules)."""
    x, w = np.polynomial.legendre.leggauss(n)
    return sum(wi * (b - a) / 2 * f(a + (xi + 1) * (b - a) / 2) for xi, wi in zip(x, w))


# --- force and tangents against differences ------------------------------------------------

def test_force_is_minus_the_gradient_of_the_energy():
    rng = np.random.default_rng(1)
    for _ in range(5):
        e = random_deformed(rng)
        f = cable.elastic_force(e, L, E, A, I)
        g = central_differences(lambda x: cable.elastic_energy(x, L, E, A, I), e)
        assert np.abs(f + g).max() <= 1e-6 * np.abs(f).max()


def test_tangent_is_minus_the_jacobian_of_the_force():
    rng = np.random.default_rng(2)
    for damping in (0.0, 1e-3):
        for _ in range(5):
            e, ed = random_deformed(rng), rng.standard_normal(12)
            K, C = cable.SpatialANCFCable().tangents(e, L, E, A, I, ed, damping)
            J = central_differences(
                lambda x: cable.internal_force(x, ed, L, E, A, I, damping)[0], e)
            assert np.abs(K + J).max() <= 1e-6 * np.abs(K).max()
            Jd = central_differences(
                lambda v: cable.internal_force(e, v, L, E, A, I, damping)[0], ed)
            if damping:
                assert np.abs(C + Jd).max() <= 1e-6 * np.abs(C).max()
            else:
                assert not C.any() and not Jd.any()


def test_undamped_tangent_is_symmetric_and_the_hessian_of_the_energy():
    rng = np.random.default_rng(3)
    for _ in range(5):
        e = random_deformed(rng)
        K = cable.tangent_stiffness(e, L, E, A, I)
        assert np.abs(K - K.T).max() <= 1e-12 * np.abs(K).max()
        # second differences of U, independent of the force kernel's output
        h = 1e-4 * np.abs(e).max()
        Ie = np.eye(12)
        H = np.array([[(cable.elastic_energy(e + h * (Ie[i] + Ie[j]), L, E, A, I)
                        - cable.elastic_energy(e + h * (Ie[i] - Ie[j]), L, E, A, I)
                        - cable.elastic_energy(e - h * (Ie[i] - Ie[j]), L, E, A, I)
                        + cable.elastic_energy(e - h * (Ie[i] + Ie[j]), L, E, A, I))
                       / (4 * h * h) for j in range(12)] for i in range(12)])
        assert np.abs(K - H).max() <= 1e-5 * np.abs(K).max()


@pytest.mark.parametrize("damping", [0.0, 1e-3])
@pytest.mark.parametrize("curved", [False, True])
def test_kernel_paths_agree_and_keep_translation_invariance(damping, curved):
    """The force alone (its cross-product form) and the force with its tangents (through
    d kappa / dz) are two evaluations of one formula: equal to 1e-13. A translation changes
    nothing: the forces on r_A and r_B cancel to the bit (the kernel sums them on ``r_A -
    r_B``) and K and C times a translation vanish; K and C match central differences of the
    force, off the origin (where ``r_A - r_B`` rounds)."""
    rng = np.random.default_rng(11)
    e0 = straight() + 0.2 * rng.standard_normal(12) if curved else None
    rest = cable.rest_state(e0, L) if curved else None
    EA, EI = E * A, E * I
    for _ in range(3):
        e, ed = random_deformed(rng, 0.1), rng.standard_normal(12)
        e[[0, 1, 2, 6, 7, 8]] += 3.0
        f_alone, f = np.empty(12), np.empty(12)
        K, C = np.empty((12, 12)), np.empty((12, 12))
        U_alone, P_alone = kernels.force(e, ed, L, EA, EI, damping, f_alone, rest)
        U, P = kernels.force_tangent(e, ed, L, EA, EI, damping, f, K, C, rest)
        assert np.abs(f - f_alone).max() <= 1e-13 * np.abs(f).max()
        assert abs(U - U_alone) <= 1e-13 * U and abs(P - P_alone) <= 1e-13 * max(P, 1.0)
        assert np.array_equal(f[:3], -f[6:9])
        translation = np.tile(np.concatenate([rng.standard_normal(3), np.zeros(3)]), 2)
        assert np.abs(K @ translation).max() <= 1e-12 * np.abs(K).max()
        assert np.abs(C @ translation).max() <= 1e-12 * max(np.abs(C).max(), 1.0)
        if damping == 0.0:
            assert not C.any()
        J = central_differences(lambda x: _force(x, ed, EA, EI, damping, rest), e)
        assert np.abs(K + J).max() <= 1e-6 * np.abs(K).max()
        if damping:
            Jd = central_differences(lambda v: _force(e, v, EA, EI, damping, rest), ed)
            assert np.abs(C + Jd).max() <= 1e-6 * np.abs(C).max()


def _force(e, ed, EA, EI, damping, rest):
    """The kernel's force (12,) at e, ed."""
    f = np.empty(12)
    kernels.force(np.ascontiguousarray(e), np.ascontiguousarray(ed), L, EA, EI, damping, f,
                  rest)
    return f


def test_damping_force_is_minus_the_gradient_of_the_dissipation_function():
    """D = P/2 is the dissipation function: f_D = -dD/dedot, and P = -f_D . edot >= 0."""
    rng = np.random.default_rng(4)
    c = 2e-3
    for _ in range(5):
        e, ed = random_deformed(rng), rng.standard_normal(12)
        f, P = cable.internal_force(e, ed, L, E, A, I, c)
        fD = f - cable.elastic_force(e, L, E, A, I)
        gD = central_differences(lambda v: 0.5 * cable.internal_force(e, v, L, E, A, I, c)[1],
                                 ed)
        assert np.abs(fD + gD).max() <= 1e-6 * np.abs(fD).max()
        assert P > 0.0 and np.isclose(P, -fD @ ed, rtol=1e-12)
        C = cable.damping_matrix(e, ed, L, E, A, I, c)
        assert np.linalg.eigvalsh(0.5 * (C + C.T)).min() >= -1e-12 * np.abs(C).max()


def test_rigid_motion_of_a_straight_element_is_not_damped():
    rng = np.random.default_rng(5)
    R = Rotation.random(random_state=6).as_matrix()
    e = rotate(R, straight(stretch=1.02))
    w, v = rng.standard_normal(3), rng.standard_normal(3)
    nodes = e.reshape(4, 3)
    ed = np.concatenate([v + np.cross(w, nodes[0]), np.cross(w, nodes[1]),
                         v + np.cross(w, nodes[2]), np.cross(w, nodes[3])])
    f, P = cable.internal_force(e, ed, L, E, A, I, 1e-2)
    assert abs(P) <= 1e-12 * E * A * np.abs(ed).max() ** 2 * L
    assert np.abs(f - cable.elastic_force(e, L, E, A, I)).max() <= 1e-12 * E * A


# --- mass and gravity -------------------------------------------------------------------------

def test_mass_matrix_is_the_integral_of_the_shape_functions():
    rho, l = 7800.0, 0.3
    coefficients = hermite(l)

    def S(x):
        s = [np.polynomial.polynomial.polyval(x, c) for c in coefficients]
        return np.hstack([sk * np.eye(3) for sk in s])

    M = gauss(lambda x: rho * A * S(x).T @ S(x), 0.0, l)
    assert np.allclose(cable.mass_matrix(rho, A, l), M, rtol=1e-13, atol=1e-15 * np.abs(M).max())
    for xi in (0.0, 0.3, 1.0):                       # and the shape functions themselves
        assert np.allclose(cable.shape_functions(xi, l), S(xi * l), atol=1e-15)


def test_mass_gives_the_kinetic_energy_of_rigid_motions():
    """A straight element moving rigidly: translation v and rotation w about its end A, in
    closed form T = m |v_c|^2 / 2 + (m l^2 / 12) |w x t|^2 / 2 (a thin rod), v_c the velocity
    of its midpoint."""
    rho, l = 7800.0, 0.3
    m = rho * A * l
    M = cable.mass_matrix(rho, A, l)
    rng = np.random.default_rng(7)
    for _ in range(5):
        t = rng.standard_normal(3)
        t /= np.linalg.norm(t)
        e = straight(l, t, origin=rng.standard_normal(3))
        v, w = rng.standard_normal(3), rng.standard_normal(3)
        nodes = e.reshape(4, 3)
        ed = np.concatenate([v, np.cross(w, nodes[1]), v + np.cross(w, nodes[2] - nodes[0]),
                             np.cross(w, nodes[3])])
        vc = v + np.cross(w, 0.5 * l * t)
        T = 0.5 * m * vc @ vc + 0.5 * m * l**2 / 12 * np.cross(w, t) @ np.cross(w, t)
        assert np.isclose(0.5 * ed @ M @ ed, T, rtol=1e-13)
        translation = np.concatenate([v, np.zeros(3), v, np.zeros(3)])
        assert np.isclose(translation @ M @ translation, m * v @ v, rtol=1e-13)
    assert np.linalg.eigvalsh(M).min() > 0.0


def test_gravity_force_is_the_work_of_the_weight():
    """F_G . e = int rho A g . r dx: for the straight element r(x) = p + x t the integral is
    rho A l g . (p + l t / 2)."""
    rho, l, g = 7800.0, 0.3, np.array([0.3, -9.81, 1.2])
    rng = np.random.default_rng(8)
    F = cable.gravity_force(rho, A, l, g)
    for _ in range(3):
        p, t = rng.standard_normal(3), rng.standard_normal(3)
        t /= np.linalg.norm(t)
        e = np.concatenate([p, t, p + l * t, t])
        assert np.isclose(F @ e, rho * A * l * g @ (p + 0.5 * l * t), rtol=1e-13)


# --- strains: rigid motion, stretch, arc, planar --------------------------------------------

def test_rigid_motion_is_stress_free_and_the_energy_objective():
    rng = np.random.default_rng(9)
    for seed in range(5):
        R = Rotation.random(random_state=seed).as_matrix()
        p = rng.standard_normal(3)
        e = straight(origin=p, direction=R[:, 0])
        assert abs(cable.elastic_energy(e, L, E, A, I)) <= 1e-24 * E * A * L
        assert np.abs(cable.elastic_force(e, L, E, A, I)).max() <= 1e-12 * E * A
        # a deformed element moved rigidly: U unchanged, f and K turned with it
        d = random_deformed(rng)
        moved = rotate(R, d) + np.tile(np.concatenate([p, np.zeros(3)]), 2)
        U0, U1 = (cable.elastic_energy(x, L, E, A, I) for x in (d, moved))
        assert np.isclose(U1, U0, rtol=1e-12)
        RR = np.kron(np.eye(4), R)
        assert np.allclose(cable.elastic_force(moved, L, E, A, I),
                           RR @ cable.elastic_force(d, L, E, A, I), rtol=0,
                           atol=1e-11 * np.abs(cable.elastic_force(d, L, E, A, I)).max())
        K0, K1 = (cable.tangent_stiffness(x, L, E, A, I) for x in (d, moved))
        assert np.abs(K1 - RR @ K0 @ RR.T).max() <= 1e-11 * np.abs(K0).max()


@pytest.mark.parametrize("strain", [1e-3, -2e-2, 0.1])
def test_uniform_stretch(strain):
    """U = EA eps^2 L / 2; the nodes carry the normal force EA eps along the axis, the slopes
    nothing (int S_2' dx = int S_4' dx = 0)."""
    t = np.array([1.0, 2.0, -2.0]) / 3.0
    e = straight(direction=t, stretch=1.0 + strain, origin=(0.1, 0.2, 0.3))
    assert np.isclose(cable.elastic_energy(e, L, E, A, I), E * A * strain**2 * L / 2,
                      rtol=1e-12)
    f = cable.elastic_force(e, L, E, A, I).reshape(4, 3)
    N = E * A * strain
    expected = np.array([N * t, np.zeros(3), -N * t, np.zeros(3)])
    assert np.abs(f - expected).max() <= 1e-12 * abs(N)
    assert np.allclose(cable.section_forces(e, np.linspace(0, 1, 5), L, E * A, E * I),
                       np.column_stack([np.full(5, N), np.zeros((5, 3))]), rtol=1e-12,
                       atol=1e-12 * abs(N))


def arc(R, theta, plane=np.eye(3)):
    """An element on a circle of radius R over the angle theta, x its arc length: nodes on the
    circle with their unit tangents as slopes, in the plane of plane[:, 0], plane[:, 1]
    (the circle's binormal plane[:, 2])."""
    u, v = plane[:, 0], plane[:, 1]

    def r(a):
        return R * np.sin(a) * u + R * (1 - np.cos(a)) * v

    def t(a):
        return np.cos(a) * u + np.sin(a) * v

    return np.concatenate([r(0.0), t(0.0), r(theta), t(theta)])


def test_circular_arc_has_the_curvature_of_its_circle():
    """The bending energy alone (EA = 0) gives the mean square curvature along the element,
    kappa_rms = sqrt(2 U / (EI l)). The cubic Hermite interpolant of the circle has r'' within
    l^2 max|r''''| / 12 = l^2 / (12 R^3) of the circle's and r' within O(l^3), so
    |R kappa - 1| <= theta^2 / 12 + O(theta^3), theta = l / R: second order, which the errors
    show as theta halves. The curvature vector is normal to the circle's plane, and the section
    moment is EI kappa along it."""
    R, EI = 0.7, 3.0
    plane = Rotation.random(random_state=11).as_matrix()
    errors = []
    thetas = [0.8, 0.4, 0.2, 0.1]
    for theta in thetas:
        l = R * theta
        e = arc(R, theta, plane)
        U = kernels.force(e, np.zeros(12), l, 0.0, EI, 0.0, np.empty(12))[0]
        error = abs(R * np.sqrt(2 * U / (EI * l)) - 1.0)
        assert error <= theta**2 / 12 + theta**3
        errors.append(error)
        M = cable.section_forces(e, np.linspace(0, 1, 7), l, 1.0, EI)[:, 1:]
        assert np.abs(np.cross(M, plane[:, 2])).max() <= 1e-12 * EI / R
        assert np.abs(M @ plane[:, 2] * R / EI - 1.0).max() <= theta**2 / 12 + theta**3
    orders = np.log2(np.array(errors[:-1]) / errors[1:])
    assert orders.min() >= 1.9


def test_damping_of_a_bent_cable_turning_rigidly_is_that_of_the_curvature_vector():
    """The stated caveat (module docstring): the bending damping acts on the rate of the
    curvature vector, as Exudyn's does, which a rigid rotation w turns: kappadot = w x kappa.
    A plane arc turning about its binormal is not damped; turning about an axis in its plane
    (normal to kappa) it dissipates P = c EI int |w x kappa|^2 dx = 2 c |w|^2 U."""
    R, theta, EI, c = 0.7, 0.5, 3.0, 1e-2
    plane = Rotation.random(random_state=14).as_matrix()
    e = arc(R, theta, plane)
    U = kernels.force(e, np.zeros(12), R * theta, 0.0, EI, 0.0, np.empty(12))[0]
    for axis, expected in ((plane[:, 2], 0.0), (plane[:, 0], 2 * c * 4.0 * U)):
        w = 2.0 * axis
        ed = np.concatenate([np.cross(w, v) for v in e.reshape(4, 3)])
        P = kernels.force(e, ed, R * theta, 1e4, EI, c, np.empty(12))[1]
        assert abs(P - expected) <= 1e-12 * 2 * c * 4.0 * U


def to_spatial(e2):
    """The planar element's coordinates [x, y, x', y'] per node vector as [x, y, 0]."""
    return np.column_stack([np.asarray(e2).reshape(4, 2), np.zeros(4)]).ravel()


XY = np.array([i for i in range(12) if i % 3 != 2])
Z = np.arange(2, 12, 3)


@pytest.mark.parametrize("damping", [0.0, 1e-3])
def test_a_cable_in_a_plane_is_the_planar_reissner_beam(damping):
    """In the x-y plane the cable's strains are those of the planar beam's "reissner" model
    (Exudyn's ANCFCable2D) and its rules the same: energy, force (of the opposite sign: the
    planar kernel returns dU/de), tangents and dissipation agree to round-off, and nothing
    acts out of the plane."""
    rng = np.random.default_rng(12)
    for _ in range(5):
        e2 = np.concatenate([[0.0, 0.0], [1.0, 0.0], [L, 0.0], [1.0, 0.0]]) \
            + 0.3 * rng.standard_normal(8)
        ed2 = rng.standard_normal(8)
        e3, ed3 = to_spatial(e2), to_spatial(ed2)
        f2, P2 = beam.internal_force(e2, ed2, L, E, A, I, damping, "reissner")
        f3, P3 = cable.internal_force(e3, ed3, L, E, A, I, damping)
        U2 = beam.elastic_energy(e2, L, E, A, I, "reissner")
        assert np.isclose(cable.elastic_energy(e3, L, E, A, I), U2, rtol=1e-13)
        assert np.abs(f3[XY] + f2).max() <= 1e-12 * np.abs(f2).max()
        assert not f3[Z].any()
        assert np.isclose(P3, P2, rtol=1e-12, atol=1e-14 * abs(P2))
        K2, C2 = beam.PlanarANCFBeam("reissner").tangents(e2, L, E, A, I, ed2, damping)
        K3, C3 = cable.SpatialANCFCable().tangents(e3, L, E, A, I, ed3, damping)
        assert np.abs(K3[np.ix_(XY, XY)] - K2).max() <= 1e-11 * np.abs(K2).max()
        assert not K3[np.ix_(XY, Z)].any() and not K3[np.ix_(Z, XY)].any()
        assert np.abs(C3[np.ix_(XY, XY)] - C2).max() <= 1e-11 * max(np.abs(C2).max(), 1.0)


# --- the kind: gather, scatter, energies, shape, input checks -------------------------------

def test_kind_gather_scatter_energies_and_shape():
    kind = cable.SpatialANCFCable()
    rng = np.random.default_rng(13)
    n_nodes, vertices = 4, np.array([[0, 1], [1, 2], [2, 3]], dtype=np.intc)
    x = rng.standard_normal(6 * n_nodes)
    y = rng.standard_normal(6 * n_nodes)
    for v in vertices:                              # gather and scatter are transposes
        f = rng.standard_normal(12)
        assert np.isclose(kind.gather(y, v) @ f, y @ kind.scatter(f, v, np.zeros_like(y)))
    lengths, EA, EI = np.array([0.3, 0.4, 0.5]), np.full(3, 1e4), np.full(3, 2.0)
    M = np.array([kind.mass(7800.0, A, l) for l in lengths])
    xs = np.stack([x, 1.1 * x])
    vs = np.stack([y, -y])
    out = kind.energies(vertices, lengths, EA, EI, M, xs.reshape(2, n_nodes, 6),
                        vs.reshape(2, n_nodes, 6))
    for t in range(2):
        kinetic = sum(0.5 * kind.gather(vs[t], v) @ M[s] @ kind.gather(vs[t], v)
                      for s, v in enumerate(vertices))
        elastic = sum(kernels.force(np.ascontiguousarray(kind.gather(xs[t], v)), np.zeros(12),
                                    lengths[s], EA[s], EI[s], 0.0, np.empty(12))[0]
                      for s, v in enumerate(vertices))
        assert np.allclose(out[t], [kinetic, elastic], rtol=1e-13)
    coordinates = np.array([kind.gather(x, v) for v in vertices])
    damping = np.array([0.0, 1e-3, 2e-3])
    K, C = kind.element_tangents(coordinates, lengths, EA, EI, damping)
    for s in range(3):
        Ks, Cs = np.empty((12, 12)), np.empty((12, 12))
        kernels.tangent(coordinates[s], np.zeros(12), lengths[s], EA[s], EI[s], damping[s], Ks,
                        Cs)
        assert np.array_equal(K[s], Ks) and np.array_equal(C[s], Cs)
    # the one-pass force and tangent of a Newton iteration: both kernels' outputs, bitwise
    ed = rng.standard_normal(12)
    f1, K1, C1 = np.empty(12), np.empty((12, 12)), np.empty((12, 12))
    f2, K2, C2 = np.empty(12), np.empty((12, 12)), np.empty((12, 12))
    both = kernels.force_tangent(coordinates[1], ed, 0.4, 1e4, 2.0, 1e-3, f1, K1, C1)
    assert both == kernels.force(coordinates[1], ed, 0.4, 1e4, 2.0, 1e-3, f2)
    kernels.tangent(coordinates[1], ed, 0.4, 1e4, 2.0, 1e-3, K2, C2)
    assert np.array_equal(f1, f2) and np.array_equal(K1, K2) and np.array_equal(C1, C2)
    e = kind.gather(x, vertices[0])
    drawn = kind.shape(e, 0.3, 5)
    assert np.allclose(drawn[0], e[:3]) and np.allclose(drawn[-1], e[6:9])


@pytest.mark.parametrize("call,match", [
    (lambda: cable.elastic_energy(np.zeros(11), L, E, A, I), "e must have 12"),
    (lambda: cable.elastic_energy(np.full(12, np.nan), L, E, A, I), "e must be finite"),
    (lambda: cable.elastic_force(straight(), -1.0, E, A, I), "l must be"),
    (lambda: cable.internal_force(straight(), np.zeros(12), L, E, A, I, -1.0), "damping"),
    (lambda: cable.mass_matrix(0.0, A, L), "rho must be"),
    (lambda: cable.gravity_force(1.0, A, L, (0.0, -9.81)), "gravity must have 3"),
    (lambda: cable.shape_functions(1.5, L), "xi must be"),
    (lambda: cable.rest_state(np.zeros(12), L), r"e0: the slope r' of node 0 .* norm 0"),
    (lambda: cable.element_lengths([[0.0, 0, 0], [1, 0, 0]], [[2.0, 0, 0], [1, 0, 0]]),
     r"tangents must be unit vectors .* tangents\[0\] = \[2.0, 0.0, 0.0\]"),
    (lambda: cable.element_lengths([[0.0, 0, 0], [1, 0, 0]], [[0.0, 0, 0], [1, 0, 0]]),
     r"tangents must be unit vectors .* of norm 0"),
    (lambda: cable.element_lengths(np.zeros((3, 3)), np.tile([1.0, 0, 0], (2, 1))),
     r"positions and tangents must have the same shape .* \(3, 3\) and \(2, 3\)"),
    (lambda: cable.element_lengths([[0.0, 0, 0], [np.nan, 0, 0]], np.tile([1.0, 0, 0], (2, 1))),
     "positions must be finite, got a non-finite entry at row 1"),
    (lambda: cable.element_lengths([0.0, 0, 0], [1.0, 0, 0]),
     r"positions must have shape \(n_nodes, 3\) with n_nodes >= 2, got shape \(3,\)"),
    (lambda: cable.element_lengths(np.zeros((2, 3)), np.tile([1.0, 0, 0], (2, 1)), max_iter=0),
     r"max_iter must be an integer in \[1, inf\], got 0"),
    (lambda: cable.element_lengths(np.zeros((2, 3)), np.tile([1.0, 0, 0], (2, 1)), tol=0.0),
     r"tol must be finite and in \(0, 1\), got 0.0"),
    (lambda: cable.section_forces(straight()[:11], 0.3, L, E * A, E * I),
     r"e must have 12 coordinates an element on its last axis, got shape \(11,\)"),
    (lambda: cable.section_forces(straight(), 1.5, L, E * A, E * I),
     r"xi must be in \[0, 1\], got array\(1.5\)"),
    (lambda: cable.section_forces(straight(), 0.3, np.inf, E * A, E * I),
     "l must be finite and > 0, got array\\(inf\\)"),
    (lambda: cable.section_forces(straight(), 0.3, L, E * A, E * I, np.zeros(12), -1.0),
     r"damping must be finite and in \[0, inf\), got -1.0"),
    (lambda: cable.section_forces(np.stack([straight()] * 2), 0.3, L, E * A, E * I,
                                  rest=np.stack([straight()] * 3)),
     r"rest must broadcast to e's shape \(2, 12\), got \(3, 12\)"),
    (lambda: cable.section_forces(straight(), 0.3, L, E * A, E * I, rest=np.zeros(12)),
     r"rest: the slope r' of node 0 .* norm 0"),
])
def test_bad_input_is_named(call, match):
    with pytest.raises(ValueError, match=match):
        call()


# --- statics --------------------------------------------------------------------------------

def static_equilibrium(x, free, lengths, EA, EI, load, steps, tol=1e-12):
    """Newton's method on the assembled cable (a dense solve): elements between consecutive
    nodes, nodal coordinates x (6 per node), the constant load vector scaled from 1/steps to 1;
    ``free`` the coordinates not held. Returns the equilibrium and the last relative
    increment."""
    with one_blas_thread():
        return _newton(x, free, lengths, EA, EI, load, steps, tol)


def _newton(x, free, lengths, EA, EI, load, steps, tol):
    n = len(lengths)
    x = x.copy()
    zero = np.zeros(12)
    for step in range(1, steps + 1):
        for _ in range(50):
            r = step / steps * load.copy()
            K = np.zeros((x.size, x.size))
            for s in range(n):
                dofs = slice(6 * s, 6 * s + 12)
                f, Ks, Cs = np.empty(12), np.empty((12, 12)), np.empty((12, 12))
                e = np.ascontiguousarray(x[dofs])
                kernels.force(e, zero, lengths[s], EA, EI, 0.0, f)
                kernels.tangent(e, zero, lengths[s], EA, EI, 0.0, Ks, Cs)
                r[dofs] += f
                K[dofs, dofs] += Ks
            dx = np.linalg.solve(K[np.ix_(free, free)], r[free])
            x[free] += dx
            if np.abs(dx).max() <= tol * np.abs(x).max():
                break
        else:
            raise AssertionError(f"Newton did not converge at load step {step}")
    return x, np.abs(dx).max() / np.abs(x).max()


def test_exudyn_3d_cable_cantilever_under_gravity():
    """Exudyn's ObjectANCFCable test (jgerstmayr/EXUDYN 1.11.0, commit e44aca1b,
    main/pythonDev/TestModels/MiniExamples/ObjectANCFCable.py): L = 2 m along x, 32 elements,
    rho A = 78 kg/m, EA = 1e6 N, EI = 833.3333333333333 N m^2, gravity 9.81 m/s^2 along -y,
    node 0 held in r and in the slope's y and z (its x slope free: fixedConstraintsNode0 =
    [1,1,1, 0,1,1]). Exudyn's tip x displacement is -0.5013058140308919 m
    (main/pythonDev/TestModels/runTestSuiteRefSol.py). Exudyn's static Newton stops when the
    residual has fallen by its relativeTolerance 1e-8 (one load step, its defaults), which
    bounds its value to about 1e-8 of the displacement: the tolerance is 1e-8 m, set before
    running. Our Newton runs to a relative increment of 1e-12."""
    n, length, rhoA, EA, EI = 32, 2.0, 78.0, 1e6, 833.3333333333333
    l = length / n
    x0 = np.concatenate([[k * l, 0.0, 0.0, 1.0, 0.0, 0.0] for k in range(n + 1)])
    load = np.zeros_like(x0)
    for s in range(n):
        load[6 * s:6 * s + 12] += cable.gravity_force(rhoA, 1.0, l, (0.0, -9.81, 0.0))
    free = np.setdiff1d(np.arange(x0.size), [0, 1, 2, 4, 5])
    x, increment = static_equilibrium(x0, free, np.full(n, l), EA, EI, load, steps=4)
    assert increment <= 1e-12
    tip_x = x[6 * n] - length
    assert abs(tip_x - -0.5013058140308919) <= 1e-8
    assert np.abs(x[2::6]).max() == 0.0 and np.abs(x[5::6]).max() == 0.0   # stays in its plane


def test_inextensible_catenary():
    """A cable of length 1 m pinned at both ends (r held, slopes free) 0.9 m apart at the same
    height, rho A = 1 kg/m, gravity 9.81 m/s^2 along -y, against the catenary
    y = a cosh((x - D/2)/a) - a cosh(D/(2a)), 2 a sinh(D/(2a)) = L (sag 0.19 m, horizontal
    tension H = rho A g a = 5.5 N). The limits are approached with EA = 1e7 N (the stretch,
    T/EA < 1e-6, lengthens the cable and deepens the sag by about 7e-7 m: d sag / d L of
    the catenary times the mean stretch) and EI falling to
    1e-6 N m^2 (its bending moment against H times the sag: about 1e-6 of it). Estimated
    error 1e-5 of the sag; the tolerance, set before running, is 1e-4 of it, for the sag, the
    shape and H. Newton follows EI down from 0.1 N m^2 (a continuation: from the initial
    circular arc, a nearly bending-free cable has unstable equilibria too, the arc compressed
    straight), and the error of the sag falls as EI falls. The pins' vertical reactions carry
    half the weight each (global balance, to round-off: an element's force is EA times a
    strain ``|r'| - 1`` computed to the machine's epsilon, so each of the n elements can leave
    ``EA eps`` in the residuals the reactions are read from: n EA eps = 7e-8 N here)."""
    length, span, rhoA, g, EA, n = 1.0, 0.9, 1.0, 9.81, 1e7, 32
    a = brentq(lambda a: 2 * a * np.sinh(span / (2 * a)) - length, 0.05, 10.0)
    sag = a * (np.cosh(span / (2 * a)) - 1)
    # the start: the circular arc of the cable's length through both pins, sagging
    R = brentq(lambda R: 2 * R * np.sin(length / (2 * R)) - span, length / np.pi, 100.0)
    l = length / n
    phi = length / R * (np.arange(n + 1) / n - 0.5)
    x = np.column_stack([span / 2 + R * np.sin(phi), R * (np.cos(phi[0]) - np.cos(phi)),
                         np.zeros(n + 1), np.cos(phi), np.sin(phi), np.zeros(n + 1)]).ravel()
    x[[0, 1, 6 * n, 6 * n + 1]] = 0.0, 0.0, span, 0.0
    load = np.zeros_like(x)
    for s in range(n):
        load[6 * s:6 * s + 12] += cable.gravity_force(rhoA, 1.0, l, (0.0, -g, 0.0))
    held = [0, 1, 2, 6 * n, 6 * n + 1, 6 * n + 2]
    free = np.setdiff1d(np.arange(x.size), held)
    errors = []
    for EI in (1e-1, 1e-2, 1e-3, 1e-4, 1e-5, 1e-6):
        x, increment = static_equilibrium(x, free, np.full(n, l), EA, EI, load, steps=1)
        assert increment <= 1e-12
        errors.append(abs(-x[6 * (n // 2) + 1] - sag))
    assert np.all(np.diff(errors) < 0.0)
    assert errors[-1] <= 1e-4 * sag
    xs, ys = x[0::6], x[1::6]
    catenary = a * np.cosh((xs - span / 2) / a) - a * np.cosh(span / (2 * a))
    assert np.abs(ys - catenary).max() <= 1e-4 * sag
    # reactions: minus the residual of the held coordinates
    r = load.copy()
    for s in range(n):
        f = np.empty(12)
        kernels.force(np.ascontiguousarray(x[6 * s:6 * s + 12]), np.zeros(12), l, EA, EI, 0.0,
                      f)
        r[6 * s:6 * s + 12] += f
    reaction0, reaction1 = -r[0:3], -r[6 * n:6 * n + 3]
    H = rhoA * g * a
    assert abs(reaction0[0] + H) <= 1e-4 * H and abs(reaction1[0] - H) <= 1e-4 * H
    roundoff = n * EA * np.finfo(float).eps
    assert np.abs(np.array([reaction0[1], reaction1[1]]) - rhoA * g * length / 2).max() \
        <= roundoff


def test_linear_modes_of_a_clamped_cable_are_those_of_the_euler_bernoulli_cantilever():
    """The tangent and the mass at the straight reference: the generalized eigenvalues of a
    cable clamped at node 0 as Exudyn clamps it (r, r'_y, r'_z held; r'_x free, since a bar's
    strain at a clamp is not zero) are the cantilever's bending frequencies
    beta_i^2 sqrt(EI / (rho A L^4)), twice each (y and z alike: one EI), and the fixed-free
    bar's (pi / 2) sqrt(EA / rho A) / L. Cubic Hermite elements converge in the eigenvalues at
    order 2 (p + 1 - m): 4 in bending (m = 2), 6 in the axial mode (m = 1), once the mesh
    resolves the mode (the second bending mode from 4 elements on: 2 elements do not resolve
    it yet, order 2.9 from 2 to 4)."""
    length, rhoA, EA, EI = 2.0, 78.0, 1e6, 833.3333333333333
    beta = np.array([1.8751040687119611, 4.6940911329741745])
    bending = beta**2 * np.sqrt(EI / (rhoA * length**4))
    axial = np.pi / 2 * np.sqrt(EA / rhoA) / length
    errors = []
    for n in (2, 4, 8, 16):
        l = length / n
        x0 = np.concatenate([[k * l, 0.0, 0.0, 1.0, 0.0, 0.0] for k in range(n + 1)])
        K, M = np.zeros((x0.size, x0.size)), np.zeros((x0.size, x0.size))
        for s in range(n):
            dofs = slice(6 * s, 6 * s + 12)
            Ks, Cs = np.empty((12, 12)), np.empty((12, 12))
            kernels.tangent(np.ascontiguousarray(x0[dofs]), np.zeros(12), l, EA, EI, 0.0, Ks,
                            Cs)
            K[dofs, dofs] += Ks
            M[dofs, dofs] += cable.mass_matrix(rhoA, 1.0, l)
        free = np.setdiff1d(np.arange(x0.size), [0, 1, 2, 4, 5])
        with one_blas_thread():
            w = np.sqrt(eigh(K[np.ix_(free, free)], M[np.ix_(free, free)], eigvals_only=True))
        assert np.isclose(w[0], w[1], rtol=1e-9) and np.isclose(w[2], w[3], rtol=1e-9)
        errors.append([abs(w[0] / bending[0] - 1), abs(w[2] / bending[1] - 1),
                       np.abs(w / axial - 1).min()])
    orders = np.log2(np.array(errors[:-1]) / errors[1:])
    assert orders[:, 0].min() >= 3.8 and orders[1:, 1].min() >= 3.8
    assert orders[:, 2].min() >= 5.0
