"""Implicit RANCF's factorization makes each element matrix inside the elimination's sweep
as it meets the element (rancf.formulations._recursive ``eliminate`` with ``fused``, by
rancf.formulations._forces ``element_matrix``), sums its diagonal node blocks into the
elimination's blocks there, and reads the element mass matrices as ``kron(m, I2)``: checked
against the unfused paths, the 8 x 8 mass matrices and the assembled Newton matrix factored by
a sparse LU."""

import numpy as np

import rancf
from rancf.formulations._forces import ForceKernel
from test_implicit_recursive_fallback import block_and_lu_runs


def chain():
    """The scaling case's chain (validation/cases/scaling.py: the reference pendulum's bodies of
    five Shabana elements on revolute joints), three bodies long."""
    return rancf.pendulum(n_bodies=3, elements_per_body=5, body_length=5.0, E=21e6, rho=7800.0,
                          side=0.03, joint="revolute", gravity=9.81).build()


def test_element_matrices_read_the_mass_as_kron_m_i2():
    """With c_k = c_c = 0 the element matrices are c_m times the stored 8 x 8 mass matrices,
    exactly (the kron factor holds the same numbers, the other entries are exact zeros), and
    the tangent part is unchanged by it: ``(c_m, c_k)`` is the sum of ``(c_m, 0)`` and
    ``(0, c_k)`` to rounding."""
    A = chain()
    forces = ForceKernel(A)
    n_el = A.n_elements
    x = A.x0 + 1e-3 * np.random.default_rng(1).standard_normal(A.n_x)
    v = np.random.default_rng(2).standard_normal(A.n_x)
    out = np.zeros((n_el, 64))
    c_m = 0.37
    forces.element_blocks(x, v, c_m, 0.0, 0.0, out)
    assert np.array_equal(out, c_m * np.reshape(A.element_mass, (n_el, 64)))
    both, tangent = np.zeros((n_el, 64)), np.zeros((n_el, 64))
    forces.element_blocks(x, v, c_m, 2e-4, 0.0, both)
    forces.element_blocks(x, v, 0.0, 2e-4, 0.0, tangent)
    # one addition's rounding of numbers up to |both|
    assert np.abs(both - (out + tangent)).max() <= 4e-16 * np.abs(both).max()


def test_full_newton_on_the_scaling_chain_takes_the_steps_of_the_sparse_lu():
    """Full Newton (a factorization at every iteration, as the scaling case runs it) on the
    scaling case's chain swinging from rest: the fused elimination and the sparse LU of the
    matrix assembled from the element matrices (``_always_lu``: no fused sums, no
    elimination) take the same steps, to Newton's tolerance (1e-12 m; the increments differ by
    the solves' rounding, below it). Bound stated before the run: 1e-12."""
    runs = [sol for sol, _ in block_and_lu_runs(chain(), 0.02, jacobian="every-iteration")]
    for sol in runs:
        assert sol.status == "ok"
        assert sol.stats["nlu"] >= sol.stats["newton_iterations"]
    assert np.abs(runs[0].q - runs[1].q).max() < 1e-12
    assert np.abs(runs[0].q[-1] - runs[0].q[0]).max() > 1e-4      # it swings
