"""The element against independent computations: finite differences of the energy,
numerical integration of the defining integrals, rigid-motion invariance, uniform stretch."""
import numpy as np
import pytest

from rancf import element as el

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


def test_mass_matrix_is_integral_of_shape_functions():
    rho = 7800.0
    M = gauss(lambda xi: rho * A * L * el.shape_functions(xi, L).T @ el.shape_functions(xi, L))
    assert np.allclose(el.mass_matrix(rho, A, L), M, rtol=1e-13, atol=1e-13 * np.abs(M).max())


def test_gravity_force_is_integral_of_weight():
    rho, g = 7800.0, 9.81
    F = gauss(lambda xi: L * el.shape_functions(xi, L).T @ np.array([0.0, -rho * A * g]))
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
    (lambda: el.gravity_force(7800.0, A, L, -9.81), "gravity"),
    (lambda: el.shape_functions(1.5, L), "xi"),
])
def test_bad_input_is_named(call, match):
    with pytest.raises(ValueError, match=match):
        call()
