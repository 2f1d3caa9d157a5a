"""Newton matrix of the implicit recursive formulation, factored by the recursion's block LDL^T.

For a revolute chain the node velocities are ``V = B beta`` with a constant B (DESIGN.md
section 2), and the generalized mass is ``Omega = B^T diag(M_s) B``, which the recursion's
``factorize`` kernel builds from the element mass matrices (tau, upsilon) and factors in
O(n). The Newton matrix of a generalized-alpha step (``rancf.implicit``) is
``c_m Omega + c_k B^T diag(K_s) B`` with the element tangents ``K_s = dF_K,s/de_s``: the
same congruence, so the same kernel assembles and factors it when handed the element
matrices ``A_s = c_m M_s + c_k K_s`` in place of ``M_s`` (the result is block tridiagonal
because element s depends on beta_{s-1} and beta_s only). ``solve_mass`` then solves with it
by the forward and backward sweeps.

:class:`NewtonMatrix` keeps its own copy of the kernels' workspace, so the cached
:class:`rancf._recursive.RecursiveModel` (and its constant factorization of Omega) is left
untouched.
"""
import numpy as np

from rancf._recursive cimport (ChainData, RecursiveModel, bind_arrays, factorize,
                               generalized_forces, kinematics, solve_mass)


cdef class NewtonMatrix:
    """``c_m Omega + c_k B^T diag(K_s) B`` of a revolute chain, factored in O(n).

    Parameters
    ----------
    model : RecursiveModel
        The chain's kernel model (:func:`rancf.recursive.model_of`).
    """

    cdef ChainData data
    cdef object arrays
    cdef const double* mass

    def __init__(self, RecursiveModel model):
        cdef int nel = model.data.n_el
        self.data = model.data       # constants shared; workspace replaced below
        self.mass = model.data.M
        self.arrays = {k: np.zeros_like(v) for k, v in model.arrays.items()
                       if k in ("M", "e", "VE", "bias", "kappa", "U", "gam", "tau", "ups", "Pinv", "Psi", "z")}
        self.arrays["chi"] = model.arrays["chi"].copy()
        self.arrays["eps"] = model.arrays["eps"].copy()
        bind_arrays(&self.data, self.arrays)

    def factor(self, const double[:, :, ::1] K, double c_m, double c_k):
        """Factor ``c_m Omega + c_k B^T diag(K_s) B``; K (n_el, 8, 8) element tangents.

        Returns 0, or s + 1 when the pivot block of element s is not positive definite.
        """
        cdef int s, i, status
        cdef double* A = self.data.M
        with nogil:
            for s in range(self.data.n_el):
                for i in range(64):
                    A[64 * s + i] = c_m * self.mass[64 * s + i] + c_k * K[s, i // 8, i % 8]
            status = factorize(&self.data)
        return status

    def solve(self, const double[::1] r, double[::1] x):
        """x = S^{-1} r with the last factorization (forward and backward sweeps)."""
        cdef int i
        with nogil:
            for i in range(self.data.n_dof):
                self.data.gam[i] = r[i]
            solve_mass(&self.data, &x[0])

    def omega_times(self, const double[::1] q, const double[::1] a, double[::1] out):
        """out = Omega a = B^T diag(M_s) (B a) (n_dof,), by the kinematic and force sweeps."""
        cdef int s, i, j
        cdef double acc
        with nogil:
            kinematics(&self.data, &q[0], &a[0], NULL)
            for s in range(self.data.n_el):
                for i in range(8):
                    acc = 0.0
                    for j in range(8):
                        acc = acc + self.mass[64 * s + 8 * i + j] * self.data.VE[8 * s + j]
                    self.data.kappa[8 * s + i] = acc
            generalized_forces(&self.data)
            for i in range(self.data.n_dof):
                out[i] = -self.data.gam[i]
