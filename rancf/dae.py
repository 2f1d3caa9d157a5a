"""The classical ANCF formulation of a chain: all node coordinates and joint constraints
(DESIGN.md section 4), the baseline the recursive formulation is compared against.

Coordinates ``q = nodes.ravel()`` (4 n_nodes), exactly the layout of :attr:`rancf.State.nodes`
(joint nodes duplicated, one copy per body). The index-3 DAE::

    M q'' + Phi_q^T lambda = F_G - F_K(q),        Phi(q) = 0

with the constant mass ``M = sum_s A_s^T M_s A_s`` (block diagonal per body, banded), the
constant gravity force F_G and the elastic force F_K (element kernels of :mod:`rancf.element`).
Constraints, two per joint (units: m for positions, m^2 for cross products):

* pin (body 1): ``r_1 = 0`` (the first node at the origin);
* revolute (body k+1 on body k): ``r_c - r_p = 0`` (child's first, parent's last node);
* prismatic: ``(r_c - r_p) x r'_p = 0`` (on the parent's end tangent) and ``r'_c x r'_p = 0``
  (parallel slopes), with ``a x b = a_x b_y - a_y b_x``.

Pin and revolute constraints are linear; a prismatic one is bilinear, ``Phi = a^T R b`` with
``R = [[0, 1], [-1, 0]]``, so its acceleration bias is ``xi = 2 a' x b'`` and its curvature
``d(Phi_q^T lambda)/dq`` is constant times lambda.

Residual and Newton matrix are assembled by the Cython kernels of ``rancf/_dae.pyx``;
``linear_solver="dense"`` factors the Newton matrix with LAPACK (O(n^3)),
``"sparse"`` with SuperLU (``scipy.sparse.linalg.splu``) on a sparsity pattern built once.
"""
import numpy as np
import scipy.sparse as sp

from . import _dae
from .implicit import LINEAR_SOLVERS, IndexThreeDAE, NewtonFactor, integrate
from .result import Result

# Bilinear prismatic constraints a^T R b: the (row, col) entries of R = [[0, 1], [-1, 0]].
_R_ENTRIES = ((0, 1, 1.0), (1, 0, -1.0))


def _cross(a, b):
    return a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0]


class ChainDAE(IndexThreeDAE):
    """A :class:`rancf.Chain` as an index-3 DAE (see the module docstring).

    Parameters
    ----------
    chain : Chain
    linear_solver : {"dense", "sparse"}
    """

    def __init__(self, chain, linear_solver="dense"):
        if linear_solver not in LINEAR_SOLVERS:
            raise ValueError(f"linear_solver must be one of {list(LINEAR_SOLVERS)}, got {linear_solver!r}")
        self.chain = chain
        self.linear_solver = linear_solver
        n = 4 * chain.n_nodes
        self.n_coordinates = n
        self.n_constraints = 2 * chain.n_bodies
        self._en = np.ascontiguousarray(chain.element_nodes, dtype=np.intc)
        self._el = (chain.model_code, self._en, np.ascontiguousarray(chain.element_length),
                    np.ascontiguousarray(chain.element_EA), np.ascontiguousarray(chain.element_EI))
        self._Me = np.ascontiguousarray(chain.mass_matrices())
        dofs = (4 * self._en[:, :, None] + np.arange(4)).reshape(-1, 8)
        self._el_rows = np.repeat(dofs, 8, axis=1).ravel()
        self._el_cols = np.tile(dofs, (1, 8)).ravel()
        self._M = sp.csr_matrix((self._Me.ravel(), (self._el_rows, self._el_cols)), shape=(n, n))
        self._FG = np.zeros(n)
        np.add.at(self._FG, dofs.ravel(), chain.gravity_forces().ravel())
        self._work = np.empty(n)

        # Linear constraints (pin, revolute): constant triplets of Phi_q.
        rows, cols, vals = [0, 1], [0, 1], [1.0, 1.0]
        prism = []
        for k in range(1, chain.n_bodies):
            c = int(chain.body_first_node[k])
            if chain.bodies[k].joint == "revolute":
                for i in range(2):
                    rows += [2 * k + i, 2 * k + i]
                    cols += [4 * c + i, 4 * (c - 1) + i]
                    vals += [1.0, -1.0]
            else:
                prism.append((c - 1, c, 2 * k))
        self._lin = (np.array(rows), np.array(cols), np.array(vals))
        self._prism = np.array(prism, dtype=int).reshape(-1, 3)
        p, c, r = (self._prism[:, j] for j in range(3))
        # Prismatic Jacobian pattern, 10 entries per joint (values in _prismatic_values).
        self._pj_rows = np.stack([r, r, r, r, r, r, r + 1, r + 1, r + 1, r + 1], axis=1).ravel()
        self._pj_cols = np.stack([4 * c, 4 * c + 1, 4 * p, 4 * p + 1, 4 * p + 2, 4 * p + 3,
                                  4 * c + 2, 4 * c + 3, 4 * p + 2, 4 * p + 3], axis=1).ravel()
        # Prismatic curvature pattern: d^2 Phi_1 couples (r_c, r'_p) with R and (r_p, r'_p)
        # with -R; d^2 Phi_2 couples (r'_c, r'_p) with R; each block and its transpose.
        hr, hc, hv, hl = [], [], [], []
        for which, first, sign in ((0, 4 * c, 1.0), (0, 4 * p, -1.0), (1, 4 * c + 2, 1.0)):
            for i, j, v in _R_ENTRIES:
                hr += [first + i, 4 * p + 2 + j]
                hc += [4 * p + 2 + j, first + i]
                hv += [np.full(len(p), sign * v)] * 2
                hl += [np.full(len(p), which)] * 2
        self._h_rows = np.concatenate(hr) if len(p) else np.zeros(0, int)
        self._h_cols = np.concatenate(hc) if len(p) else np.zeros(0, int)
        self._h_vals = np.concatenate(hv) if len(p) else np.zeros(0)
        self._h_lam = (np.concatenate(hl) + np.tile(r, len(hl))) if len(p) else np.zeros(0, int)
        self._revolute = np.array([(int(chain.body_first_node[k]), 2 * k) for k in range(1, chain.n_bodies)
                                   if chain.bodies[k].joint == "revolute"], dtype=int).reshape(-1, 2)
        # Pin and revolute joints only: Phi_q is constant, built once.
        self._jacobian_cache = None if len(p) else self._jacobian(None)
        self._G = None if len(p) else self.constraint_jacobian(None)
        if linear_solver == "sparse":
            self._build_sparse_pattern()

    # --- model --------------------------------------------------------------------------
    def mass(self, q):
        return self._M

    def mass_action(self, q, a):
        return self._M @ a

    def force(self, q, v, t):
        _dae.elastic_forces(*self._el, np.ascontiguousarray(q), self._work)
        return self._FG - self._work

    def strain_energy(self, q):
        """U(q), J."""
        return _dae.elastic_forces(*self._el, np.ascontiguousarray(q), self._work)

    def constraint(self, q):
        nodes = q.reshape(-1, 4)
        phi = np.empty(self.n_constraints)
        phi[:2] = nodes[0, :2]
        c, r = self._revolute.T
        phi[r] = nodes[c, 0] - nodes[c - 1, 0]
        phi[r + 1] = nodes[c, 1] - nodes[c - 1, 1]
        if len(self._prism):
            p, c, r = self._prism.T
            phi[r] = _cross(nodes[c, :2] - nodes[p, :2], nodes[p, 2:])
            phi[r + 1] = _cross(nodes[c, 2:], nodes[p, 2:])
        return phi

    def _prismatic_values(self, q):
        nodes = q.reshape(-1, 4)
        p, c = self._prism[:, 0], self._prism[:, 1]
        d = nodes[c, :2] - nodes[p, :2]
        s, sc = nodes[p, 2:], nodes[c, 2:]
        return np.stack([s[:, 1], -s[:, 0], -s[:, 1], s[:, 0], -d[:, 1], d[:, 0],
                         s[:, 1], -s[:, 0], -sc[:, 1], sc[:, 0]], axis=1).ravel()

    def _jacobian(self, q):
        rows, cols, vals = self._lin
        if len(self._prism):
            rows = np.concatenate([rows, self._pj_rows])
            cols = np.concatenate([cols, self._pj_cols])
            vals = np.concatenate([vals, self._prismatic_values(q)])
        return rows, cols, vals

    def constraint_jacobian(self, q):
        if self._jacobian_cache is not None and getattr(self, "_G", None) is not None:
            return self._G
        rows, cols, vals = self._jacobian_cache or self._jacobian(q)
        return sp.csr_matrix((vals, (rows, cols)), shape=(self.n_constraints, self.n_coordinates))

    def constraint_curvature(self, q, lam):
        if not len(self._prism):
            return None
        return sp.csr_matrix((self._h_vals * lam[self._h_lam], (self._h_rows, self._h_cols)),
                             shape=(self.n_coordinates,) * 2)

    def acceleration_bias(self, q, v):
        xi = np.zeros(self.n_constraints)
        if len(self._prism):
            vel = v.reshape(-1, 4)
            p, c, r = self._prism.T
            xi[r] = 2.0 * _cross(vel[c, :2] - vel[p, :2], vel[p, 2:])
            xi[r + 1] = 2.0 * _cross(vel[c, 2:], vel[p, 2:])
        return xi

    def energy(self, q, v):
        return 0.5 * v @ (self._M @ v) + self.strain_energy(q) - self._FG @ q

    # --- Newton matrix -------------------------------------------------------------------
    def _build_sparse_pattern(self):
        """CSC pattern of [[M + K + H, G^T], [G, 0]] and where each contribution lands."""
        n, N = self.n_coordinates, self.n_coordinates + self.n_constraints
        gr, gc, _ = self._jacobian(np.zeros(n) if len(self._prism) else None)
        rows = np.concatenate([self._el_rows, self._h_rows, n + gr, gc])
        cols = np.concatenate([self._el_cols, self._h_cols, gc, n + gr])
        key = cols.astype(np.int64) * N + rows
        uniq, inverse = np.unique(key, return_inverse=True)
        self._csc_indices = (uniq % N).astype(np.int32)
        self._csc_indptr = np.concatenate([[0], np.cumsum(np.bincount(uniq // N, minlength=N))]).astype(np.int32)
        k0, k1, k2 = len(self._el_rows), len(self._el_rows) + len(self._h_rows), len(self._el_rows) + len(self._h_rows) + len(gr)
        self._pos_el = np.ascontiguousarray(inverse[:k0].reshape(-1, 64), dtype=np.intc)
        self._pos_h, self._pos_g, self._pos_gt = inverse[k0:k1], inverse[k1:k2], inverse[k2:]

    def newton_matrix(self, q_e, a_e, lam, v_e, t_e, q_new, c_m, c_mq, c_k, c_c, w):
        """Assemble (Cython) and factor the Newton matrix of :mod:`rancf.implicit`.

        M is constant and F does not depend on v, so ``c_mq`` and ``c_c`` drop out.
        """
        n, m = self.n_coordinates, self.n_constraints
        q_e = np.ascontiguousarray(q_e)
        _, _, g_e = self._jacobian_cache or self._jacobian(q_e)
        _, _, g_new = self._jacobian_cache or self._jacobian(q_new)
        h_vals = self._h_vals * lam[self._h_lam] * c_k
        if self.linear_solver == "sparse":
            data = np.zeros(len(self._csc_indices))
            _dae.newton_blocks_sparse(*self._el, self._Me, q_e, c_m, c_k, self._pos_el, data)
            np.add.at(data, self._pos_h, h_vals)
            np.add.at(data, self._pos_g, g_new)
            np.add.at(data, self._pos_gt, w * g_e)
            S = sp.csc_matrix((data, self._csc_indices, self._csc_indptr), shape=(n + m, n + m))
            return NewtonFactor(S, m, True)
        S = np.zeros((n + m, n + m))
        _dae.newton_blocks_dense(*self._el, self._Me, q_e, c_m, c_k, S)
        np.add.at(S, (self._h_rows, self._h_cols), h_vals)
        rows, cols, _ = self._jacobian_cache or self._jacobian(q_e)
        np.add.at(S, (n + rows, cols), g_new)
        np.add.at(S, (cols, n + rows), w * g_e)
        return NewtonFactor(S, m, False)


def chain_result(chain, sol, method, formulation, to_nodes):
    """A :class:`rancf.Result` from an :class:`rancf.implicit.ImplicitSolution`.

    ``to_nodes(q, v) -> (nodes (n_nodes, 4), velocities (n_nodes, 4), beta or None)``.
    ``extra``: ``constraint_violation`` (n_out, 3) = max over the steps since the previous
    output of (|Phi|, |Phi'|, |Phi''|) (infinity norms; m, m/s, m/s^2), ``newton_iterations``
    (n_out,) the largest per-step count over the same steps.
    """
    nodes, vel, beta = zip(*(to_nodes(q, v) for q, v in zip(sol.q, sol.v)))
    return Result(chain, sol.t, np.array(nodes), np.array(vel),
                  beta=None if beta[0] is None else np.array(beta), status=sol.status,
                  message=sol.message, method=method, formulation=formulation, stats=sol.stats,
                  extra={"constraint_violation": sol.violations, "newton_iterations": sol.newton_iterations},
                  wall_time=sol.wall_time)


def simulate(chain, t_end, dt, method, output_every, state, projection=False,
             linear_solver="dense", tol=1e-10, max_iter=25, **parameters):
    """``rancf.simulate(..., formulation="dae")``: see :func:`rancf.simulate`."""
    from .recursive import node_velocities
    problem = ChainDAE(chain, linear_solver)
    q0 = state.nodes.ravel().copy()
    v0 = node_velocities(chain, state).ravel()
    sol = integrate(problem, q0, v0, t_end, dt, method=method, output_every=output_every,
                    projection=projection, tol=tol, max_iter=max_iter, **parameters)
    return chain_result(chain, sol, method, "dae",
                        lambda q, v: (q.reshape(-1, 4), v.reshape(-1, 4), None))
