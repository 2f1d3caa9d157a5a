"""The adaptive-modal paper's systems (validation.mechanisms); the quick runs of the cases
``modal`` and ``rrr`` are read in tests/validation/test_validation.py."""
import numpy as np
import pytest

import rancf
from rancf.formulations.dae import DAE
from rancf.integrators.implicit import integrate
from validation.mechanisms import pendulum, three_rrr


def test_pendulum_is_the_papers():
    A = pendulum().build()
    assert A.n_x == 644 and A.elastic_model == "berzeri"
    assert A.element_EI[0] == pytest.approx(7e5 * 1.333e-8)


def test_three_rrr_initial_state_is_consistent():
    """The rigid kinematics at t = 0 and its rate satisfy every joint of the model, positions and
    velocities (the DAE checks both when given the state)."""
    rrr = three_rrr(n_elements=4)
    A = rrr.model.build()
    assert A.n_x == 3 * 4 * 5 + 16 and not A.is_tree
    dae = DAE(A)
    x, v = rrr.state.x, rrr.state.v
    assert np.abs(dae.constraint(x, 0.0)).max() <= 1e-14
    assert np.abs(dae.constraint_jacobian(x, 0.0) @ v + dae.velocity_bias(x, 0.0)).max() <= 1e-13
    assert np.allclose(rrr.platform_pose(rancf.simulate(
        rrr.model, 1e-3, 1e-3, method="backward-euler", output_every=1, state=rrr.state))[0],
        [0.1, 0.0, 0.0])


@pytest.mark.parametrize("t", [0.0, 0.31, 0.77])
def test_three_rrr_drives_against_central_differences(t):
    """q', q'' of each drive (closed form) against central differences of q (error O(d^2))."""
    geo = three_rrr(n_elements=2).geometry
    d = 1e-4
    for i in range(3):
        drive = geo.drive(i)
        q, qd, qdd = drive(t)
        qp, qm = drive(t + d)[0], drive(t - d)[0]
        assert qd == pytest.approx((qp - qm) / (2 * d), rel=1e-6, abs=1e-6)
        assert qdd == pytest.approx((qp - 2 * q + qm) / d**2, rel=1e-4, abs=1e-3)


def test_step_matrix_is_the_jacobian_on_three_rrr():
    """The adaptive strategy needs the exact Jacobian of the step equations: ``eq.matrix``
    against central differences of ``eq.residual`` at a rotated, deformed state (the platform
    joints and the unit-axis constraints are nonlinear). The residual is a cubic polynomial in
    (a, lambda) (Berzeri forces, quadratic constraints), so a wide difference step leaves only
    d^2 f'''/6 and little round-off (the constraint rows are divided by h^2)."""
    rrr = three_rrr(n_elements=3)
    dae = DAE(rrr.model.build())
    x0, v0 = dae.initial_state(rrr.state.x, rrr.state.v)
    rng = np.random.default_rng(2)
    errors = []

    class Check:
        def solve(self, eq, a, lam):
            a = a + rng.standard_normal(a.size)
            lam = lam + rng.standard_normal(lam.size)
            J = eq.matrix(a, lam, factor=False).toarray()
            z, n = np.concatenate([a, lam]), a.size
            fd = np.empty_like(J)
            for j in range(z.size):
                dz = np.zeros(z.size)
                dz[j] = 0.1
                fd[:, j] = (np.concatenate(eq.residual(*np.split(z + dz, [n])))
                            - np.concatenate(eq.residual(*np.split(z - dz, [n])))) / (2 * dz[j])
            errors.append(np.abs(J - fd).max() / np.abs(J).max())
            return a, lam, 1

    integrate(dae.compiled, x0, v0, 0.002, 1e-3, method="backward-euler", solver=Check())
    assert len(errors) == 2 and max(errors) <= 1e-8



def test_fig9_magnifies_the_links_deflection_from_their_chords():
    """Liu fig. 9's drawing: nodes on circular arcs keep their place along the chord, and their
    distance from it (the arc's sagitta at the middle, R (1 - cos(phi / 2))) grows by the scale."""
    from types import SimpleNamespace

    from validation.cases.rrr import link_shapes

    n, R, phi = 21, 0.5, 0.2
    angles = np.linspace(-phi / 2, phi / 2, n)
    arc = np.column_stack([R * np.sin(angles), R * np.cos(angles)])  # chord along x at y = R cos
    links = [arc + offset for offset in ([0.0, 0.0], [1.0, 2.0], [-3.0, 0.5])]
    nodes = np.hstack([np.vstack(links), np.zeros((3 * n, 2))])
    rrr = SimpleNamespace(passive=[SimpleNamespace(n_nodes=n)] * 3)
    np.testing.assert_allclose(link_shapes(rrr, nodes, 1.0), np.array(links), atol=1e-15)
    shapes = link_shapes(rrr, nodes, 10.0)
    sagitta = R * (1.0 - np.cos(phi / 2))
    for shape, link in zip(shapes, links):
        np.testing.assert_allclose(shape[:, 0], link[:, 0], atol=1e-14)
        assert np.abs(shape[:, 1] - shape[0, 1]).max() == pytest.approx(10 * sagitta, rel=1e-12)
