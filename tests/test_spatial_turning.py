"""The spatial recursion's Newton matrix with the turning of the link wrenches (the module
docstring of rancf/formulations/_spatial_implicit.pyx, "The turning of the link wrenches")
against central differences of the step residual itself, and Newton's iterations on a long
chain (the ``scaling`` case's spatial chain)."""
import numpy as np
import pytest

import importlib

import rancf
from rancf.formulations import spatial
from rancf.integrators.implicit import integrate
from models import every_joint_kind
from validation.cases.scaling import DT, spatial_chain

#: the module (``rancf.simulate`` names the function): its spatial start state
simulate_module = importlib.import_module("rancf.simulate")

#: generalized-alpha at rho_inf = 0.9 (rancf.implicit.GeneralizedAlpha)
RHO = 0.9
AM, AF = 1.0 - (2.0 * RHO - 1.0) / (RHO + 1.0), 1.0 - RHO / (RHO + 1.0)
GAMMA, BETA = 0.5 + AM - AF, (1.0 + AM - AF) ** 2 / 4.0


def spherical_chain():
    """Three rigid bodies (1.5 kg, unequal inertias), each on a spherical joint at the end of
    the one before, from the ground, under gravity."""
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -9.81))
    prev = m.ground.point(0, 0, 0)
    for k in range(3):
        b = m.add_rigid_body(1.5, np.diag([0.01, 0.02, 0.03]), position=(0.8 * k + 0.4, 0.0, 0.0))
        m.add_joint("spherical", prev, b.point(-0.4, 0.0, 0.0))
        prev = b.point(0.4, 0.0, 0.0)
    return m


def beam_tree():
    """A soft beam of 6 elements (2 m) on a spherical joint, a rigid body fixed to its end and
    a second body on a revolute hinge at that body, under gravity: the element links'
    translations and rotation vectors, a ball joint's, a fixed and a revolute link."""
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -9.81))
    beam = m.add_beam(2.0, 6, E=2e8, rho=7800.0, A=1e-4, I=(8.3e-10, 1.7e-9), J=2e-9, G=8e7,
                      direction=(1.0, 0.0, 0.0), up=(0.0, 0.6, 0.8))
    m.add_joint("spherical", m.ground.point(0, 0, 0), beam.start)
    tip = m.add_rigid_body(0.4, np.diag([1e-3, 2e-3, 3e-3]), position=(2.1, 0.0, 0.0))
    m.add_joint("fixed", beam.end, tip.point(-0.1, 0.0, 0.0))
    arm = m.add_rigid_body(0.3, np.diag([1e-3, 1e-3, 2e-3]), position=(2.1, 0.0, -0.3))
    m.add_joint("revolute", tip.centre, arm.point(0.0, 0.0, 0.3), axis=(0.0, 1.0, 0.0))
    return m


def joint_kinds():
    """The beam of :func:`beam_tree` with a chain of rigid bodies below its end on a universal,
    a cylindrical, a prismatic, a revolute and a free joint (as in
    tests/test_spatial_point_outputs.py), under gravity."""
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -9.81))
    b = m.add_beam(0.8, 4, E=5e7, rho=1000.0, A=1e-3, I=(2e-8, 3e-8), J=4e-8, G=2e7,
                   direction=(1.0, 0.0, -1.0), up=(0.0, 1.0, 0.0))
    m.add_joint("spherical", m.ground.point(0, 0, 0), b.start)
    parent, below = b.end, b.positions[-1]
    axis = (0.0, 0.6, 0.8)
    for kind, options in [("universal", dict(axes=((1, 0, 0), (0, 1, 0)))),
                          ("cylindrical", dict(axis=axis)), ("prismatic", dict(axis=axis)),
                          ("revolute", dict(axis=axis)), ("free", {})]:
        body = m.add_rigid_body(0.3, np.diag([1e-3, 2e-3, 3e-3]), position=below - (0, 0, 0.1))
        m.add_joint(kind, parent, body.point(0.0, 0.0, 0.1), **options)
        parent, below = body.point(0.0, 0.0, -0.1), below - (0, 0, 0.2)
    return m


def step_matrices(m, scale, h, seed):
    """At a random configuration (coordinates ``scale`` times standard normal), zero rates and
    random accelerations a: the step residual ``R(x) = am M(q) x - af F(q, v)`` with ``q = q0 +
    h^2 beta (x - a)``, ``v = h gamma (x - a)`` (generalized-alpha's dependence on its unknown),
    its Jacobian J at a by central differences, and the Newton matrices with and without the
    turning (dense, each the inverse of the loop's solve applied to the unit vectors)."""
    f = spatial.of_model(m)
    p = spatial.implicit_problem(f)
    p.turning = True
    n = f.n_free
    rng = np.random.default_rng(seed)
    q, v, a = scale * rng.standard_normal(n), np.zeros(n), rng.standard_normal(n)
    hb, hg = h * h * BETA, h * GAMMA

    def R(x):
        return p.residual(q + hb * (x - a), v + hg * (x - a), 0.0, x, AM, AF)

    step = 1e-4
    J = np.column_stack([(R(a + step * e) - R(a - step * e)) / (2.0 * step) for e in np.eye(n)])

    def newton(turning):
        p.turning = turning
        return np.linalg.inv(np.column_stack([
            p.step_solve(q, v, 0.0, a, e, AM, AF, AM, AF * hb, AF * hg) for e in np.eye(n)]))

    return J, newton(True), newton(False)


@pytest.mark.parametrize("model, scale, h", [(spherical_chain, 0.4, 0.05), (beam_tree, 0.1, 0.01),
                                             (joint_kinds, 0.2, 0.01)])
def test_newton_matrix_is_the_step_residual_s_derivative_at_rest(model, scale, h):
    """At zero rates the Newton matrix with the turning of the link wrenches is the whole
    derivative of the step residual: what it still leaves out (the velocity terms, quadratic
    in the rates; element damping, loads' own turning and spring-dampers, none here) vanishes
    there. Bound, stated before the run: 1e-6 of max |J|, the central differences' error
    (step 1e-4 in the accelerations: truncation of order 1e-8 relative, round-off of the
    residual's 1e-16 over the step) with a hundredfold margin. Without the turning the matrix
    misses the turning of gravity and of the inertia forces, of the order of ``h^2 beta m g
    L``: by more than ten times the bound (measured: 1.8e-3, 1.3e-4 and 8.7e-5 of max |J|)."""
    J, S, S_plain = step_matrices(model(), scale, h, seed=7)
    bound = 1e-6 * np.abs(J).max()
    assert np.abs(S - J).max() <= bound
    assert np.abs(S_plain - J).max() > 10.0 * bound


@pytest.mark.parametrize("seed", [3, 11])
def test_newton_matrix_at_rates_is_the_derivative_but_for_the_rates_slope(seed):
    """The chain of every joint kind at rates of 4 rad/s (and m/s) a coordinate (bodies up to
    25 rad/s) and accelerations of 1000 (as the chain of tests/test_spatial_point_outputs.py
    reaches where the turning at the last step's accelerations stopped contracting), 0.2 ms
    steps: with the turning at the step's own accelerations, Newton's matrix is the step
    residual's derivative through q and a (the rates held: their slope dF/dv, gyroscopic and
    Coriolis, S leaves out by design, module docstring) but for the velocity terms' own
    turning. Bound on ``rho(I - S^-1 J)``: 1e-3, where without the turning it exceeds 1 (the
    inertia forces' turning at these accelerations) and the velocity terms' turning is about
    ``h^2 beta omega^2 = 7e-6`` of the mass term at 25 rad/s."""
    h, m = 2e-4, joint_kinds()
    f = spatial.of_model(m)
    p = spatial.implicit_problem(f)
    n = f.n_free
    rng = np.random.default_rng(seed)
    q, v, a = (s * rng.standard_normal(n) for s in (0.2, 4.0, 1000.0))
    hb, hg = h * h * BETA, h * GAMMA

    def R(x):
        return p.residual(q + hb * (x - a), v, 0.0, x, AM, AF)

    J = np.column_stack([(R(a + 1e-2 * e) - R(a - 1e-2 * e)) / 2e-2 for e in np.eye(n)])

    def contraction(turning):
        p.turning = turning
        S = np.linalg.inv(np.column_stack([
            p.step_solve(q, v, 0.0, a, e, AM, AF, AM, AF * hb, AF * hg) for e in np.eye(n)]))
        return np.abs(np.linalg.eigvals(np.eye(n) - np.linalg.solve(S, J))).max()

    assert contraction(True) <= 1e-3
    assert contraction(False) > 1.0


def test_every_joint_kind_chain_converges_with_the_turning():
    """The run of tests/test_spatial_point_outputs.py's chain of every joint kind (a whipping
    end: about 3000 rad/s^2 changing by 400 rad/s^2 a step) with the turning on: a matrix made
    within a step turns at the iterate's accelerations, so the loop's refactorization contracts
    as the exact derivative does (before, the turning at the last step's accelerations
    contracted by 0.66 an iteration and the step at t = 0.975 s failed)."""
    m = every_joint_kind()
    f = spatial.of_model(m)
    y0 = simulate_module.spatial_start(m, f, None)
    p = spatial.implicit_problem(f)
    p.turning = True
    sol = integrate(p, y0[:f.n_free], y0[f.n_free:], 1.0, 2e-4, method="generalized-alpha-s",
                    output_every=5000)
    assert sol.status == "ok", sol.message


@pytest.mark.slow
def test_newton_iterations_on_a_long_chain_stay_at_three():
    """The ``scaling`` case's spatial chain of 10,000 elements (60,003 DOF) from rest, 20
    steps of 1 ms with full Newton and the turning on: at most 3 iterations a step after the
    first (which has no accepted accelerations and keeps the symmetric matrix). Reason
    (stated before the run): with the turning in Newton's matrix only the velocity terms are
    left out, whose
    contraction ``h gamma |omega|`` is about 1e-4 here, so the second increment is the
    curvature's ``C e_0^2`` (e_0 ~ 2e-6 m, the start's miss) and the third is below 1e-3 of
    it, under the tolerance 1e-10 m once the second is below 1e-7 m. Without the turning the
    matrix's contraction on the root's rotations grows like the chain's length squared (0.375
    at 100 elements, 37.7 at 1000: a mode Newton would diverge on if the residual excited it)
    and steps here took 4."""
    m = spatial_chain(10_000)
    f = spatial.of_model(m)
    y0 = simulate_module.spatial_start(m, f, None)
    p = spatial.implicit_problem(f)
    p.turning = True
    sol = integrate(p, y0[:f.n_free], y0[f.n_free:], 20 * DT, DT, method="generalized-alpha",
                    jacobian="every-iteration", output_every=1)
    assert sol.status == "ok"
    assert sol.newton_iterations[2:].max() <= 3
