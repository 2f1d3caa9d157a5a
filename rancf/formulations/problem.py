"""The problem an implicit integrator solves: an index-3 DAE of multibody dynamics.

``M(q) q'' + Phi_q(q, t)^T lambda = F(q, q', t)``, ``Phi(q, t) = 0``: :class:`IndexThreeDAE` lists
what a formulation offers the integrators of :mod:`rancf.integrators.implicit` (mass, forces and
their Jacobians, constraints and their derivatives, the Newton matrix of a step and its
factorization), with dense and sparse defaults that a formulation overrides where it knows
better. :class:`NewtonFactor` holds the LU factors of a Newton matrix.
"""
import warnings

import numpy as np
import scipy.linalg as sla
import scipy.sparse as sp
import scipy.sparse.linalg as spla

LINEAR_SOLVERS = ("dense", "sparse")


class IndexThreeDAE:
    """The contract a problem offers the integrators (override what your problem has).

    Attributes
    ----------
    n_coordinates : int
        n, the number of coordinates q.
    n_constraints : int
        m, the number of constraint equations.
    linear_solver : {"dense", "sparse"}
        How the default :meth:`newton_matrix` assembles and factors (LAPACK LU or SuperLU).
    """

    n_coordinates: int = 0
    n_constraints: int = 0
    linear_solver: str = "dense"

    # --- model -------------------------------------------------------------------------
    def mass(self, q):
        """M(q), (n, n) ndarray or scipy.sparse matrix."""
        raise NotImplementedError

    def mass_action(self, q, a):
        """M(q) a, shape (n,); override when M is applied without forming it."""
        return self.mass(q) @ a

    def mass_derivative(self, q, a):
        """d(M(q) a)/dq, (n, n); None when M is constant (the default)."""
        return None

    def force(self, q, v, t):
        """Applied, elastic and velocity-dependent forces F(q, v, t), shape (n,)."""
        raise NotImplementedError

    def stiffness(self, q, v, t):
        """K = -dF/dq, (n, n) (ndarray or sparse); None when F does not depend on q."""
        return None

    def damping(self, q, v, t):
        """C = -dF/dv, (n, n); None when F does not depend on v (the default)."""
        return None

    def constraint(self, q, t):
        """Phi(q, t), shape (m,)."""
        return np.zeros(0)

    def constraint_jacobian(self, q, t):
        """Phi_q(q, t), (m, n) ndarray or sparse."""
        return np.zeros((0, self.n_coordinates))

    def constraint_force(self, q, lam, t):
        """``Phi_q(q, t)^T lam``, shape (n,); override when it is cheaper than forming Phi_q."""
        return self.constraint_jacobian(q, t).T @ lam

    def constraint_rate(self, q, v, t):
        """``Phi_q(q, t) v``, shape (m,); override when it is cheaper than forming Phi_q."""
        return self.constraint_jacobian(q, t) @ v

    def constraint_curvature(self, q, lam, t):
        """d(Phi_q^T lam)/dq, (n, n); None for linear constraints (the default)."""
        return None

    def velocity_bias(self, q, t):
        """Phi_t, shape (m,): Phi' = Phi_q v + Phi_t. Zero for scleronomic constraints."""
        return np.zeros(self.n_constraints)

    def acceleration_bias(self, q, v, t):
        """xi = (Phi_q v)_q v + 2 Phi_qt v + Phi_tt, shape (m,): Phi'' = Phi_q a + xi."""
        return np.zeros(self.n_constraints)

    def power(self, q, v, t, lam):
        """``(P_ext, P_diss)`` (W): power of the external forces and drives, and the dissipated
        power; None (the default) when the problem does not track work."""
        return None

    # --- linear algebra ----------------------------------------------------------------
    def newton_matrix(self, q_e, a_e, lam, v_e, t_e, q_new, t_new, c_m, c_mq, c_k, c_c, w,
                      factor=True):
        """Factor the Newton matrix of the module docstring and return an object whose
        ``solve(r_dyn, r_con)`` returns ``(da, dlam)`` with ``S [da; dlam] = [r_dyn; r_con]``.

        ``q_e, a_e, lam, v_e, t_e`` is the point where the equation of motion is evaluated,
        ``q_new, t_new`` where the constraints are; ``c_m, c_mq, c_k, c_c, w`` the scheme's
        weights (mass, mass derivative, stiffness and constraint curvature, damping, multiplier
        column). ``factor=False`` returns the assembled matrix instead (ndarray or CSC).
        """
        n, m = self.n_coordinates, self.n_constraints
        terms = ((c_mq, self.mass_derivative(q_e, a_e) if c_mq else None),
                 (c_k, self.stiffness(q_e, v_e, t_e) if c_k else None),
                 (c_k, self.constraint_curvature(q_e, lam, t_e) if c_k and m else None),
                 (c_c, self.damping(q_e, v_e, t_e) if c_c else None))
        B = self.constraint_jacobian(q_new, t_new) if m else None
        # Phi_q is evaluated once when both blocks sit at the same point (every scheme but -S).
        G = (B if q_e is q_new else self.constraint_jacobian(q_e, t_e)) if m else None
        if self.linear_solver == "sparse":
            A = c_m * sp.csr_matrix(self.mass(q_e))
            for c, mat in terms:
                if mat is not None:
                    A = A + c * sp.csr_matrix(mat)
            S = sp.csc_matrix(A) if m == 0 else \
                sp.bmat([[A, (sp.csr_matrix(G) * w).T], [sp.csr_matrix(B), None]], format="csc")
            return NewtonFactor(S, m, True) if factor else S
        # The terms in the same order as in the sparse branch (same round-off); built on
        # contiguous arrays, as numpy's per-call overhead dominates at these sizes.
        A = c_m * _dense(self.mass(q_e))
        for c, mat in terms:
            if mat is not None:
                A += c * _dense(mat)
        S = np.zeros((n + m, n + m))
        S[:n, :n] = A
        if m:
            S[:n, n:] = (_dense(G) * w).T
            S[n:, :n] = _dense(B)
        return NewtonFactor(S, m, False) if factor else S

    def gram_solver(self, J):
        """Return ``solve(r) = (J J^T)^{-1} r`` for the projections (J = Phi_q, full row rank)."""
        if sp.issparse(J):
            lu = spla.splu(sp.csc_matrix(J @ J.T))
            return lu.solve
        # LAPACK directly: scipy.linalg.cho_factor's argument checks cost more than the
        # factorization of an m x m Gram matrix.
        c, info = _potrf(J @ J.T, lower=False, clean=False)
        if info:
            raise np.linalg.LinAlgError(f"J J^T is not positive definite (LAPACK potrf info = {info})")
        return lambda r: _potrs(c, r, lower=False)[0]


def _dense(mat):
    if isinstance(mat, np.ndarray):
        return mat
    return mat.toarray() if sp.issparse(mat) else np.asarray(mat, dtype=float)


_getrf, _getrs, _potrf, _potrs = sla.get_lapack_funcs(("getrf", "getrs", "potrf", "potrs"),
                                                       dtype=np.float64)


class NewtonFactor:
    """LU factors (LAPACK or SuperLU) of a Newton matrix; ``solve`` splits the solution into (da, dlam).

    A dense S is handed to LAPACK's getrf/getrs directly (as :func:`scipy.linalg.lu_factor`
    does, without its argument checks, which dominate on the small systems of rigid-body
    models).
    """

    def __init__(self, S, m, sparse):
        self.m = m
        self.sparse = sparse
        if sparse:
            self.lu = spla.splu(sp.csc_matrix(S))
            return
        self.lu, self.piv, info = _getrf(S)
        if info > 0:
            # as scipy.linalg.lu_factor: the solve then gives non-finite increments
            warnings.warn(f"Diagonal number {info} is exactly zero. Singular matrix.",
                          sla.LinAlgWarning, stacklevel=2)

    def solve(self, r_dyn, r_con):
        r = np.concatenate([r_dyn, r_con]) if self.m else r_dyn
        x = self.lu.solve(r) if self.sparse else _getrs(self.lu, self.piv, r)[0]
        n = x.size - self.m
        return x[:n], x[n:]
