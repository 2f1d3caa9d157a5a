"""The adaptive modal step (adaptive-modal paper section 2, theory: Adaptive modal reduction): a
nonlinear solver of one backward-Euler step for :func:`rancf.integrators.implicit.integrate`,
the ``step_solver`` of :class:`~rancf.formulations.reduced.reductor.ReducedProblem`.

The stepping loop is the shared one (predictor, BDF-1 formulas of eq. 34, status, counters,
outputs); this module only replaces Newton's iterations inside a step. The loop's step equations
(:class:`rancf.integrators.implicit.StepEquations`) for backward Euler are, in the unknowns
``(a, lambda)`` with ``q_1 = q_pred + h^2 a``, ``q_pred = q_0 + h v_0``,

    r_dyn = M a + Phi_x(q_1)^T lambda - F(q_1, v_1, t_1),      r_con = Phi(q_1, t_1) / h^2.

Greedy Gauss-Newton works on the paper's unknowns ``x = (q_1, lam_hat)``, ``lam_hat = eta h^2
lambda``, and on the rows

    R_dyn = eta h^2 r_dyn = eta [M (q_1 - q_pred) - h^2 F] + Phi_x^T lam_hat,    R_con = h^2 r_con = Phi,

the residual of eq. 33 with eq. 34 multiplied by ``h^2``; ``eta = 1 / mean(diag M)`` (1/kg) makes
the dynamic rows displacement-like (m), comparable to the constraint rows. These rows and
columns are a diagonal scaling of the loop's (its exact Jacobian ``eq.matrix(a, lam,
factor=False)`` is scaled entry by entry). The column scaling changes nothing in a
least-squares solution, the row weighting does: with the sampled rows the system is
overdetermined, and the greedy selections (eq. 37) and the solution on a support depend on the
relative weight of dynamic and constraint rows. The weighting above is the one the method was
validated with; ``tol`` is an absolute tolerance on these rows (m).

In the modal coordinates ``c`` of :class:`~rancf.formulations.reduced.reductor.ReducedModel`
(``x = Phi c``: each beam's interior coordinates replaced by its Craig-Bampton modal
coordinates, eq. 29) the step solves the sampled rows (eq. 30-32: the reduced model's kept
dynamic rows and every constraint row) for at most ``sparsity`` non-zero modal coordinates per
beam (eq. 36; a count, developer: Choices of the modal method) by greedy Gauss-Newton
(:mod:`~rancf.formulations.reduced.greedy_gauss_newton`, eq. 37, figure 3), starting from the
paper's predictor ``q_1 = q_pred`` (a = 0, the forward difference ``q_0 + h v_0`` of its step 2)
and the previous multipliers. Modes are chosen anew at every step. With all modes and all rows
the system is square and greedy Gauss-Newton is Newton's method in the modal coordinates, a
linear change of variables of the full step.
"""
from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from ..problem import StepFailure
from .greedy_gauss_newton import BlockJacobian, greedy_gauss_newton


class AdaptiveModalSolver:
    """Greedy Gauss-Newton on the sampled step equations (module docstring).

    Parameters
    ----------
    reduced : ReducedModel
        Bases, sampled rows and the solver settings (``tol``, ``max_iter``, ``sparsity``,
        ``max_support``).
    mass_diagonal : ndarray (n_x,)
        Diagonal of the model's mass matrix (kg, kg m^2): ``eta = 1 / mean``.
    n_constraints : int
        m, the constraint rows of the step equations (all kept).
    timer : Timer
        Residual and Jacobian evaluations are charged to "update", modal projections and the
        least-squares work to "matrix" (the paper's table 2).
    watch : callable, optional
        ``watch(t, q, v, sampled, full)`` on every step's solution (a
        :class:`~rancf.formulations.reduced.drift.StepWatch`: raises StepFailure to stop the
        run where it leaves its model).

    Attributes
    ----------
    log : dict of lists, one entry per step solved, in time order
        ``t`` (the step's new time, s), ``support`` (bool over the modal coordinates: the
        selected modes), ``residual_norm`` (the sampled residual at the step's solution, m),
        ``decrement`` (its Gauss-Newton decrement ``||Q^T f||``, m: the distance from the
        least-squares point of the support), ``full_residual_norm`` (every row's residual
        at the step's solution, m: the sampled rows are the method's training set, the others
        a free check of it, since the full DAE computes them all), ``iterations``, ``status``
        (the greedy Gauss-Newton outcome).
    """

    def __init__(self, reduced, mass_diagonal, n_constraints, timer, watch=None):
        self.reduced, self.timer, self.watch = reduced, timer, watch
        self.n, self.m = reduced.n_x, int(n_constraints)
        self.eta = 1.0 / float(np.mean(mass_diagonal))
        self.rows = np.concatenate([reduced.rows, self.n + np.arange(self.m)])
        self.candidates = reduced.candidates
        self.known = np.setdiff1d(np.arange(self.n + self.m), self.candidates)
        self.log = {"t": [], "support": [], "residual_norm": [], "decrement": [],
                    "full_residual_norm": [], "iterations": [], "status": []}
        self._maps = None
        self._last = (None, None)  # (c, every row's residual at c) of the last evaluation

    def _build_maps(self, indices, indptr):
        """Index maps from the Jacobian's fixed CSC pattern to its sampled parts, and the
        scaling of its entries to the rows and columns of the module docstring.

        Interior coordinates appear in no constraint, so a beam's modal columns are non-zero only
        on its own equations (``own``: positions in ``rows``)."""
        N = self.n + self.m
        cols = np.repeat(np.arange(N), np.diff(indptr))
        h2 = self._h2
        row_scale = np.concatenate([np.full(self.n, self.eta * h2), np.full(self.m, h2)])
        col_scale = np.concatenate([np.full(self.n, 1.0 / h2), np.full(self.m, 1.0 / (self.eta * h2))])
        self._scale = row_scale[indices] * col_scale[cols]
        # 1 + the position of each entry in J.data, sliced like the matrix
        position = sp.csc_matrix((np.arange(1.0, indices.size + 1), indices, indptr),
                                 shape=(N, N)).tocsr()[self.rows]
        known = position[:, self.known].tocoo()
        blocks = []
        for k in self.reduced.blocks:
            own = np.flatnonzero(np.isin(self.rows, k.beam))
            Ja = position[own][:, k.a].tocsr()
            blocks.append((own, np.searchsorted(self.known, k.b), Ja.data.astype(np.int64) - 1,
                           Ja.indices, Ja.indptr, Ja.shape))
        self._maps = (known.row, known.col, known.data.astype(np.int64) - 1), blocks

    def _physical(self, c):
        """``x = Phi c`` of the step's unknowns (n + m,), the multipliers as they are."""
        with self.timer("matrix"):
            x = np.array(c, dtype=float)
            x[:self.n] = self.reduced.reconstruct(c[:self.n])
            return x

    def _loop_unknowns(self, x):
        """(a, lambda) of the loop from x = (q_1, lam_hat)."""
        return (x[:self.n] - self._q_pred) / self._h2, x[self.n:] / (self.eta * self._h2)

    def _residual(self, c, with_jacobian):
        """Sampled rows ``R(Phi c)[rows]`` and, if asked, their Jacobian ``J[rows] Phi`` as a
        :class:`BlockJacobian` (known columns dense, each beam's modal columns on its own rows)."""
        eq, h2 = self._eq, self._h2
        a, lam = self._loop_unknowns(self._physical(c))
        with self.timer("update"):
            try:
                r_dyn, r_con = eq.residual(a, lam)
            except StepFailure:
                if with_jacobian:
                    raise
                # a trial point of the line search with a non-finite residual: it is rejected
                self._last = (np.array(c), np.full(self.n + self.m, np.inf))
                return np.full(self.rows.size, np.inf)
            full = np.concatenate([self.eta * h2 * r_dyn, h2 * r_con])
            self._last = (np.array(c), full)
            f = full[self.rows]
            if not with_jacobian:
                return f
            J = eq.matrix(a, lam, factor=False)
            eq.count_iteration()
        with self.timer("matrix"):
            if self._maps is None:
                self._build_maps(J.indices, J.indptr)
            (r, col, pos), blocks = self._maps
            data = J.data * self._scale
            known = np.zeros((self.rows.size, self.known.size))
            known[r, col] = data[pos]
            modal, own_rows = [], []
            for k, (own, b_known, pos, ind, ptr, shape) in zip(self.reduced.blocks, blocks):
                Ja = sp.csr_matrix((data[pos], ind, ptr), shape=shape)  # J[rows][own][:, a]
                Y = Ja @ k.Phi_nc
                modal.append(Y[:, :k.a.size])
                own_rows.append(own)
                known[np.ix_(own, b_known)] += Y[:, k.a.size:]
        return f, BlockJacobian(known, modal, own_rows)

    def solve(self, eq, a, lam):
        """One step: ``(a, lambda, iterations)`` from the loop's :class:`StepEquations` (the
        loop's start ``a`` is not used: the step starts from the paper's predictor, a = 0)."""
        red = self.reduced
        self._eq, self._h2 = eq, eq.hb
        self._q_pred = eq.q_pred
        x = np.concatenate([self._q_pred, self.eta * self._h2 * np.asarray(lam, dtype=float)])
        c = x.copy()
        c[:self.n] = red.project(x[:self.n])
        # the basis change leaves round-off (~1e-16 |x|) on modes that are zero in exact
        # arithmetic; P_lambda keeps only non-zero coordinates, so these count as zero. The
        # modes of the last two solutions are not: q_pred = 2 q_0 - q_-1 holds them, however
        # small (a stiff mode balances its rows with a tiny amplitude)
        xi = c[self.candidates]
        small = np.abs(xi) <= 1e-13 * max(1.0, np.max(np.abs(x)))
        if self.log["support"]:
            small &= ~np.logical_or.reduce(self.log["support"][-2:])
        xi[small] = 0.0
        c[self.candidates] = xi
        result = greedy_gauss_newton(self._residual, c, self.candidates, red.sparsity,
                                     red.groups, red.tol, red.max_iter, self.timer,
                                     red.max_support)
        if not np.all(np.isfinite(result.x)):
            raise StepFailure("diverged", f"greedy Gauss-Newton left a non-finite state at "
                                          f"t = {eq.t1:.6g} s ({result.status})")
        c, full = self._last
        if c is None or not np.array_equal(c, result.x):
            self._residual(result.x, False)
            full = self._last[1]
        full_norm = float(np.linalg.norm(full))
        for key, value in (("t", eq.t1), ("support", result.support.copy()),
                           ("residual_norm", result.residual_norm),
                           ("decrement", result.decrement), ("full_residual_norm", full_norm),
                           ("iterations", result.iterations), ("status", result.status)):
            self.log[key].append(value)
        a, lam = self._loop_unknowns(self._physical(result.x))
        if self.watch is not None:
            self.watch(eq.t1, eq.q_pred + eq.hb * a, eq.v_pred + eq.hg * a,
                       result.residual_norm, full_norm)
        return a, lam, result.iterations
