"""The 45-degree bend of Bathe and Bolourchi (issue 22, Published): an arc of radius 100 over 45
degrees in the x-y plane, clamped at the origin along +x, curving towards +y, unit square
section, E = 1e7, nu = 0, shear factor 5/6, J = 1/6, a tip force of 600 along +z.

Reference: DESIGN.md section 7's tip displacement (-23.561, -13.604, 53.476), extrapolated from a
numpy prototype at 8, 16, 32 elements and met by Exudyn 1.13's geometrically exact beam within
1e-3; neither shares code with rancf.

Pass lines, fixed from theory before the runs: the element is second order, so the error
falls by 4 per halved element, read within [3, 5] (the ratio of two successive errors of a
second-order method is 4 up to higher-order terms; the prototype's own went 0.33, 0.087, 0.023:
ratios 3.8, 3.8); at 16 elements the error is below half the prototype's error at 8 elements
(0.332 there; a second-order element would be at a quarter of it, half leaves room for another
element's error constant).

The convergence test solves rancf's own residual with its full tangent by a Newton-GMRES written
here (scipy's GMRES, central-difference Jacobian products, the O(n) elimination of the
elements' stiffness as its preconditioner); rancf.static, whose compiled Newton solve is a GMRES
of its own (rancf/formulations/_spatial_implicit.pyx), must reach the same equilibrium with its
default load steps.
"""
import numpy as np
import pytest
from scipy.sparse.linalg import LinearOperator, gmres

import rancf
from rancf.formulations import spatial

R, E = 100.0, 1e7
REFERENCE = np.array([-23.561, -13.604, 53.476])
PROTOTYPE_8 = np.array([-23.41, -13.63, 53.77])
TIP0 = np.array([R * np.sin(np.pi / 4), R * (1 - np.cos(np.pi / 4)), 0.0])


def bend(n):
    phi = np.linspace(0.0, np.pi / 4, n + 1)
    points = np.column_stack([R * np.sin(phi), R * (1 - np.cos(phi)), 0 * phi])
    tangents = np.column_stack([np.cos(phi), np.sin(phi), 0 * phi])
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, 0.0))
    b = m.add_beam(n_elements=n, points=points, tangents=tangents, E=E, rho=1.0, A=1.0,
                   I=(1 / 12, 1 / 12), J=1 / 6, G=E / 2, up=(0.0, 0.0, 1.0))
    m.add_joint("fixed", m.ground.point(0, 0, 0), b.start)
    m.add_force(b.end, force=(0.0, 0.0, 600.0))
    return m, b


def full_newton_tip(n, load_steps=10):
    """The tip displacement of rancf's discrete equilibrium: Newton on the residual of
    SpatialProblem (load steps as rancf.static's), each step by GMRES with central-difference
    Jacobian products, preconditioned by the elements' stiffness; stops at max |dq| <= 1e-10
    times the model's size, rancf.static's criterion."""
    m, b = bend(n)
    f = spatial.of_model(m)
    p = spatial.implicit_problem(f, static=True)
    size, zero = m.build().size, np.zeros(f.n_free)
    res = lambda q: p.residual(q, zero, 0.0, zero, 0.0, 1.0)  # noqa: E731
    q = zero.copy()
    for k in range(1, load_steps + 1):
        p.load_factor = k / load_steps
        for _ in range(30):
            h = lambda v: 1e-6 / max(np.abs(v).max(), 1e-300)  # noqa: E731
            J = LinearOperator((q.size,) * 2, matvec=lambda v, q=q: (res(q + h(v) * v) - res(q - h(v) * v)) / (2 * h(v)))
            M = LinearOperator((q.size,) * 2, matvec=lambda x, q=q: p.newton_solve(q, zero, 0.0, x, 0.0, 1.0, 0.0))
            dq, _ = gmres(J, -res(q), M=M, rtol=1e-8, atol=0.0, restart=60, maxiter=5)
            q = q + dq
            if np.abs(dq).max() <= 1e-10 * size:
                break
        else:
            raise AssertionError(f"load step {k} did not converge")
    nodes = p.observe(q, zero, zero, 0.0, np.zeros(0))["nodes"]
    return nodes[-12:-9] - TIP0


def test_bend_tip_converges_at_second_order_to_the_reference():
    errors = [np.linalg.norm(full_newton_tip(n) - REFERENCE) for n in (8, 16, 32)]
    ratios = np.array(errors[:-1]) / errors[1:]
    assert np.all((3.0 <= ratios) & (ratios <= 5.0)), (errors, ratios)
    assert errors[1] <= 0.5 * np.linalg.norm(PROTOTYPE_8 - REFERENCE), errors


@pytest.mark.parametrize("n", [8, 16, 32, 64])
def test_rancf_static_reaches_the_full_load_at_the_full_newton_tip(n):
    """rancf.static with its default load steps (10) reaches load factor 1, and its tip is the
    Newton-GMRES's of this file to 1e-8: both stop at increments below 1e-10 of the model's
    size (about 1e-8 here) after converging quadratically, so their iterates differ by far
    less than that."""
    m, b = bend(n)
    res = rancf.static(m)
    assert res.status == "ok", res.message
    assert res.extra["load_factor"][0] == 1.0
    tip = res.position(b.end)[0] - TIP0
    np.testing.assert_allclose(tip, full_newton_tip(n), rtol=0, atol=1e-8)
