"""The elements against independent computations: finite differences of the energy and of
the dissipation function, numerical integration of the defining integrals, rigid-motion
invariance, uniform stretch."""
import numpy as np
import pytest

from rancf.elements import beam as el

L, E, A, I = 0.8, 2.1e7, 9e-4, 6.75e-8
MODELS = sorted(el.MODELS)


def straight(l=L, angle=0.0, stretch=1.0, origin=(0.0, 0.0)):
    t = np.array([np.cos(angle), np.sin(angle)])
    ra = np.asarray(origin, dtype=float)
    return np.concatenate([ra, stretch * t, ra + stretch * l * t, stretch * t])


def random_deformed(rng):
    return straight() + 0.3 * rng.standard_normal(8)


def gauss(f, n=20):
    """int_0^1 f(xi) dxi by 20-point Gauss-Legendre (independent of the kernels' rules)."""
    x, w = np.polynomial.legendre.leggauss(n)
    return sum(wi / 2 * f((xi + 1) / 2) for xi, wi in zip(x, w))


def central_differences(f, e):
    """Columns d f / d e_j (f scalar or vector) by central differences, step 1e-6 max|e|."""
    h = 1e-6 * np.abs(e).max()
    return np.array([(np.asarray(f(e + h * u)) - np.asarray(f(e - h * u))) / (2 * h)
                     for u in np.eye(e.size)]).T


@pytest.mark.parametrize("model", MODELS)
def test_force_is_gradient_of_energy(model):
    rng = np.random.default_rng(1)
    for _ in range(5):
        e = random_deformed(rng)
        f = el.elastic_force(e, L, E, A, I, model)
        fd = central_differences(lambda x: el.elastic_energy(x, L, E, A, I, model), e)
        assert np.abs(f - fd).max() <= 1e-6 * np.abs(f).max()


@pytest.mark.parametrize("model", MODELS)
def test_tangent_is_jacobian_of_force(model):
    rng = np.random.default_rng(2)
    for _ in range(5):
        e = random_deformed(rng)
        K = el.tangent_stiffness(e, L, E, A, I, model)
        fd = central_differences(lambda x: el.elastic_force(x, L, E, A, I, model), e)
        assert np.abs(K - fd).max() <= 1e-6 * np.abs(K).max()
        # a conservative force has a symmetric tangent
        assert np.abs(K - K.T).max() <= 1e-10 * np.abs(K).max()


@pytest.mark.parametrize("model", MODELS)
def test_rigid_motion_of_straight_element_is_stress_free(model):
    rng = np.random.default_rng(3)
    for _ in range(5):
        e = straight(angle=rng.uniform(-np.pi, np.pi), origin=rng.uniform(-5, 5, 2))
        assert abs(el.elastic_energy(e, L, E, A, I, model)) < 1e-20
        assert np.abs(el.elastic_force(e, L, E, A, I, model)).max() < 1e-9


@pytest.mark.parametrize("model,strain", [
    ("shabana", lambda s: s - 1), ("reissner", lambda s: s - 1),
    ("berzeri", lambda s: (s * s - 1) / 2)])
def test_uniform_stretch_energy(model, strain):
    for stretch in (0.9, 1.01, 1.3):
        eps = strain(stretch)
        e = straight(angle=0.7, stretch=stretch)
        assert el.elastic_energy(e, L, E, A, I, model) == pytest.approx(
            E * A * L * eps**2 / 2, rel=1e-12)



def circular_arc(k, length, n):
    """Node coordinates (n + 1, 4) of a beam of the given length bent into a circular arc of
    curvature k (1/m), unstretched: r(s) = (sin ks, 1 - cos ks) / k, r'(s) = (cos ks, sin ks)."""
    s = np.linspace(0.0, length, n + 1)
    return np.column_stack([np.sin(k * s) / k, (1 - np.cos(k * s)) / k, np.cos(k * s), np.sin(k * s)])


def bending_energy(nodes, l, model):
    """The bending part of the beam's energy: U is EA/2 int eps^2 + EI/2 int kappa^2 in every
    model, affine in I, so U(2 I) - U(I) is its bending energy at I."""
    def energy(inertia):
        return sum(el.elastic_energy(np.concatenate([a, b]), l, E, A, inertia, model)
                   for a, b in zip(nodes[:-1], nodes[1:]))
    return energy(2 * I) - energy(I)


@pytest.mark.parametrize("model", MODELS)
def test_bending_energy_of_a_circular_arc(model):
    """A semicircle (k L = pi) against E I k^2 L / 2, the Reissner model's exact bending energy
    (its strain is the curvature); the Berzeri model's |r''| is the curvature of a unit-speed curve,
    the same; the Shabana model measures n.r'' in each element's chord frame, k cos(phi) with
    phi = k (s - l/2) the tangent's angle to the chord, so its energy is
    E I k^2 L / 2 * (1 + sin(k l) / (k l)) / 2. The Hermite interpolant of the arc converges to it
    at fourth order in k l: 3.3e-5 relative with 8 elements, 16x less per halving."""
    k, length = np.pi / L, L
    errors = []
    for n in (8, 16):
        kl = k * length / n
        exact = E * I * k**2 * length / 2
        if model == "shabana":
            exact *= (1 + np.sin(kl) / kl) / 2
        errors.append(abs(bending_energy(circular_arc(k, length, n), length / n, model) / exact - 1))
    assert errors[0] < 5e-5 and errors[0] / errors[1] > 14.0

def test_mass_matrix_is_integral_of_shape_functions():
    rho = 7800.0
    M = gauss(lambda xi: rho * A * L * el.shape_functions(xi, L).T @ el.shape_functions(xi, L))
    assert np.allclose(el.mass_matrix(rho, A, L), M, rtol=1e-13, atol=1e-13 * np.abs(M).max())


def test_gravity_force_is_integral_of_weight():
    rho, g = 7800.0, np.array([1.3, -9.81])
    F = gauss(lambda xi: L * el.shape_functions(xi, L).T @ (rho * A * g))
    assert np.allclose(el.gravity_force(rho, A, L, g), F, rtol=1e-13, atol=1e-12)


def test_shape_functions_interpolate_nodes():
    e = np.arange(8.0)
    assert np.allclose(el.shape_functions(0.0, L) @ e, e[0:2])
    assert np.allclose(el.shape_functions(1.0, L) @ e, e[4:6])


@pytest.mark.parametrize("call,match", [
    (lambda: el.elastic_force(np.zeros(7), L, E, A, I), "shape"),
    (lambda: el.elastic_force(straight(), -1.0, E, A, I), "l must be"),
    (lambda: el.elastic_force(straight(), L, 0.0, A, I), "E must be"),
    (lambda: el.elastic_force(straight(), L, E, A, I, "timoshenko"), "elastic_model"),
    (lambda: el.mass_matrix(7800.0, -A, L), "A must be"),
    (lambda: el.gravity_force(7800.0, A, L, (0.0, np.nan)), "gravity"),
    (lambda: el.internal_force(straight(), straight(), L, E, A, I, -1.0), "damping"),
    (lambda: el.shape_functions(1.5, L), "xi"),
])
def test_bad_input_is_named(call, match):
    with pytest.raises(ValueError, match=match):
        call()


# --- material damping ------------------------------------------------------------------------
C_DAMP = 0.02   # s


@pytest.mark.parametrize("model", MODELS)
def test_damping_force_is_gradient_of_dissipation_rate(model):
    """F_D = dD/dedot and D is quadratic in edot, so D(edot) = F_D(edot) . edot / 2: the
    dissipated power F_D . edot equals 2 D, and F_D is the central-difference gradient in edot
    of P/2 = F_D . edot / 2 (a homogeneous quadratic)."""
    rng = np.random.default_rng(2)
    for _ in range(3):
        e, edot = random_deformed(rng), rng.standard_normal(8)
        undamped = el.elastic_force(e, L, E, A, I, model)
        f, power = el.internal_force(e, edot, L, E, A, I, C_DAMP, model)
        fd = f - undamped
        assert power == pytest.approx(fd @ edot, rel=1e-12)
        assert power >= 0.0
        half_power = lambda v: el.internal_force(e, v, L, E, A, I, C_DAMP, model)[1] / 2
        grad = central_differences(half_power, edot)
        assert np.allclose(grad, fd, rtol=1e-6, atol=1e-7 * np.abs(fd).max())


@pytest.mark.parametrize("model", MODELS)
def test_damping_is_the_strain_rate_stiffness(model):
    """Kelvin-Voigt: the damping matrix C = dF_D/dedot is c times the material part of the
    tangent stiffness, i.e. the Hessian of U minus the terms with second derivatives of the
    strains; both parts are symmetric, and C is positive semi-definite with the rigid motions of
    a straight element in its null space."""
    rng = np.random.default_rng(3)
    e, edot = random_deformed(rng), rng.standard_normal(8)
    C = el.damping_matrix(e, edot, L, E, A, I, C_DAMP, model)
    assert np.allclose(C, C.T, atol=1e-9 * np.abs(C).max())
    assert np.linalg.eigvalsh(0.5 * (C + C.T)).min() > -1e-9 * np.abs(C).max()
    # linear in edot: C edot = F_D
    fd = el.internal_force(e, edot, L, E, A, I, C_DAMP, model)[0] - el.elastic_force(e, L, E, A, I, model)
    assert np.allclose(C @ edot, fd, rtol=1e-10, atol=1e-10 * np.abs(fd).max())
    s = straight(angle=0.4)
    rigid = np.array([0.0, 0.0, -np.sin(0.4), np.cos(0.4), -L * np.sin(0.4), L * np.cos(0.4),
                      -np.sin(0.4), np.cos(0.4)])     # rotation rate about the first node
    for v in (np.tile([1.0, 0.0, 0.0, 0.0], 2), np.tile([0.0, 1.0, 0.0, 0.0], 2), rigid):
        f, power = el.internal_force(s, v, L, E, A, I, C_DAMP, model)
        assert abs(power) < 1e-12 * E * A
        assert np.abs(f).max() < 1e-6


@pytest.mark.parametrize("model", MODELS)
def test_damped_tangent_is_jacobian_of_damped_force(model):
    rng = np.random.default_rng(4)
    e, edot = random_deformed(rng), rng.standard_normal(8)
    K = el.tangent_stiffness(e, L, E, A, I, model, edot=edot, damping=C_DAMP)
    fd = central_differences(lambda x: el.internal_force(x, edot, L, E, A, I, C_DAMP, model)[0], e)
    assert np.allclose(K, fd, rtol=1e-5, atol=1e-6 * np.abs(K).max())


def test_rigid_body_point_map_and_mass():
    """A point d of the body frame: r + A(d) u is the rotation of d by the body angle."""
    from rancf.elements import planar, rigid
    phi, d = 0.7, np.array([0.3, -0.2])
    u = np.array([np.cos(phi), np.sin(phi)])
    R = np.array([[np.cos(phi), -np.sin(phi)], [np.sin(phi), np.cos(phi)]])
    assert np.allclose(planar.point_map(d) @ u, R @ d)
    # kinetic energy 1/2 m |r'|^2 + 1/2 I phi'^2 = 1/2 X'^T M X' with u' = phi' J u
    m, Ig, rdot, phid = 2.0, 0.3, np.array([0.5, -1.0]), 1.7
    Xdot = np.concatenate([rdot, phid * np.array([-u[1], u[0]])])
    assert Xdot @ rigid.mass_matrix(m, Ig) @ Xdot / 2 == pytest.approx(0.5 * m * rdot @ rdot + 0.5 * Ig * phid**2)


@pytest.mark.parametrize("model", MODELS)
def test_undamped_tangent_is_the_symmetric_hessian_of_the_energy(model):
    """Without damping K = d^2 U / de^2: symmetric, and equal to second differences of U."""
    rng = np.random.default_rng(5)
    e = random_deformed(rng)
    K = el.tangent_stiffness(e, L, E, A, I, model)
    assert np.allclose(K, K.T, rtol=0, atol=1e-12 * np.abs(K).max())
    h = 1e-4 * np.abs(e).max()
    U = lambda x: el.elastic_energy(x, L, E, A, I, model)
    for i, j in ((0, 0), (2, 5), (3, 7), (1, 6)):
        ei, ej = h * np.eye(8)[i], h * np.eye(8)[j]
        second = (U(e + ei + ej) - U(e + ei - ej) - U(e - ei + ej) + U(e - ei - ej)) / (4 * h * h)
        assert second == pytest.approx(K[i, j], rel=1e-4, abs=1e-6 * np.abs(K).max())


# --- the element kind (issue 27): the class states its sizes and delegates -------------------

@pytest.mark.parametrize("model", MODELS)
def test_kind_forces_and_tangents_against_differences(model):
    """The kind's damped force is the gradient of its energy plus the damping force, its
    tangents the Jacobians of that force in e and in edot (central differences)."""
    kind = el.PlanarANCFBeam(model)
    assert kind.element_size == kind.nodes_per_element * kind.node_size
    rng = np.random.default_rng(11)
    e, edot = random_deformed(rng), rng.standard_normal(kind.element_size)
    c = 2e-3
    f, power = kind.forces(e, edot, L, E, A, I, c)
    K, C = kind.tangents(e, L, E, A, I, edot=edot, damping=c)
    assert f.shape == (kind.element_size,) and K.shape == C.shape == (kind.element_size,) * 2
    grad = central_differences(lambda x: kind.energy(x, L, E, A, I), e)
    assert np.allclose(f, grad + C @ edot, rtol=1e-6, atol=1e-6 * np.abs(f).max())
    assert power == pytest.approx(edot @ C @ edot, rel=1e-9)
    fd = central_differences(lambda x: kind.forces(x, edot, L, E, A, I, c)[0], e)
    assert np.allclose(K, fd, rtol=1e-5, atol=1e-6 * np.abs(K).max())
    fd = central_differences(lambda x: kind.forces(e, x, L, E, A, I, c)[0], edot)
    assert np.allclose(C, fd, rtol=1e-6, atol=1e-8 * np.abs(C).max())


def test_kind_mass_and_gravity_are_the_integrals():
    """The kind's mass and gravity force against Gauss integration of S^T S and S^T g."""
    kind = el.PlanarANCFBeam()
    rho, g = 2700.0, np.array([0.4, -9.81])
    M = gauss(lambda xi: el.shape_functions(xi, L).T @ el.shape_functions(xi, L)) * rho * A * L
    F = gauss(lambda xi: el.shape_functions(xi, L).T @ g) * rho * A * L
    assert np.allclose(kind.mass(rho, A, L), M, rtol=1e-12, atol=1e-12 * np.abs(M).max())
    assert np.allclose(kind.gravity_force(rho, A, L, g), F, rtol=1e-12, atol=1e-12 * np.abs(F).max())


def test_kind_gather_and_scatter_are_transposes():
    """gather picks an element's nodes one after the other; scatter is its transpose:
    ``gather(x) . f = x . scatter(f)`` for every x and f."""
    kind = el.PlanarANCFBeam()
    rng = np.random.default_rng(3)
    n_vertices, ns = 5, kind.node_size
    x = rng.standard_normal(n_vertices * ns)
    vertices = np.array([[0, 1], [1, 2], [3, 4]])
    nodes = x.reshape(n_vertices, ns)
    for v in vertices:
        assert np.array_equal(kind.gather(x, v), np.concatenate([nodes[v[0]], nodes[v[1]]]))
    E_all = kind.gather(x, vertices)
    assert E_all.shape == (3, kind.element_size)
    f = rng.standard_normal((3, kind.element_size))
    out = kind.scatter(f, vertices, np.zeros_like(x))
    assert float(np.sum(E_all * f)) == pytest.approx(float(x @ out), rel=1e-13)
    # a batch of states gathers each state alike
    X = rng.standard_normal((4, x.size))
    assert np.array_equal(kind.gather(X, vertices[1])[2], kind.gather(X[2], vertices[1]))


def test_kind_shape_runs_through_the_nodes():
    """The drawn centreline starts at node A's position and ends at node B's (S(0), S(1)), and a
    straight element's centreline is the straight segment."""
    kind = el.PlanarANCFBeam()
    rng = np.random.default_rng(4)
    e = random_deformed(rng)
    r = kind.shape(e, L, 7)
    assert r.shape == (7, kind.dimension)
    assert np.allclose(r[0], e[:2]) and np.allclose(r[-1], e[kind.node_size:kind.node_size + 2])
    s = straight(angle=0.3)
    t = np.array([np.cos(0.3), np.sin(0.3)])
    assert np.allclose(kind.shape(s, L, 5), np.outer(np.linspace(0, L, 5), t), atol=1e-15)
    with pytest.raises(ValueError, match="n_points"):
        kind.shape(e, L, 1)


def test_kind_energies_against_element_by_element_sums():
    """The compiled energies of a small chain: kinetic 1/2 V_E^T M_E V_E and the elastic energy
    of each element summed in Python."""
    kind = el.PlanarANCFBeam("berzeri")
    rng = np.random.default_rng(6)
    n_out, n_vertices = 2, 3
    vertices = np.array([[0, 1], [1, 2]], dtype=np.intc)
    nodes = np.stack([np.concatenate([straight(), straight(origin=(L, 0.0))[4:]])
                      + 0.05 * rng.standard_normal(n_vertices * 4) for _ in range(n_out)])
    nodes = nodes.reshape(n_out, n_vertices, kind.node_size)
    vel = rng.standard_normal(nodes.shape)
    M = np.array([kind.mass(7800.0, A, L)] * 2)
    lengths = np.full(2, L)
    out = kind.energies(vertices, lengths, np.full(2, E * A), np.full(2, E * I), M, nodes, vel)
    for k in range(n_out):
        e = [kind.gather(nodes[k].ravel(), v) for v in vertices]
        ed = [kind.gather(vel[k].ravel(), v) for v in vertices]
        kinetic = sum(0.5 * d @ M[0] @ d for d in ed)
        elastic = sum(kind.energy(x, L, E, A, I) for x in e)
        assert out[k] == pytest.approx([kinetic, elastic], rel=1e-12)


def test_rigid_body_kind():
    from rancf.elements import rigid
    kind = rigid.RigidBody()
    M = kind.mass(2.0, 0.3)
    assert M.shape == (kind.node_size, kind.node_size)
    assert np.array_equal(M, np.diag([2.0, 2.0, 0.3, 0.3]))    # diag(m, m, I_G, I_G)
    assert np.array_equal(kind.gravity_force(2.0, (0.0, -9.81)), [0.0, -19.62, 0.0, 0.0])
