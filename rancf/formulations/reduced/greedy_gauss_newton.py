"""Greedy Gauss-Newton for sparse solutions of nonlinear underdetermined systems.

Gulliksson & Oleynik, "Greedy Gauss-Newton algorithm for finding sparse solutions to nonlinear
underdetermined systems of equations", Optimization 66(7), 2017 (arXiv:1610.03095), as used by
the adaptive-modal paper (section 2.4, eq. 37, figure 3).

Problem: ``f(x) = 0``, ``f: R^N -> R^m``, with a *known support* (coordinates always free: in
the modal method the boundary coordinates and the multipliers) and *candidates* (the modal
coordinates), of which at most ``s`` per group may be non-zero. Iteration:

1. (paper's operator ``P_lambda``) keep the ``s`` largest non-zero candidates of the start
   point per group, set the others to zero; the non-zero ones form the unknown support.
2. With ``J = f'(x)`` and ``L = J[:, S]`` (S = known and unknown support), the maximum-descent
   index among each group's candidates outside S (eq. 37, written per flexible part k)

       l_max = argmax_l |f^T (I - L L^+) J_l| / ||(I - L L^+) J_l||

   is added to the support if its descent exceeds ``max(tol, rho)`` (it is the decrease of
   ||f|| that column l alone can give in the linear model; ``rho`` is the rounding of f,
   ``||f(x + e) - f(x) - L e||`` for a perturbation e of a few units in the last place,
   measured once at the start point: a smaller decrease cannot be told from rounding). One
   index per group and iteration, while the support has fewer unknowns than equations.
3. Gauss-Newton direction on the support, ``d_S = -L^+ f = -R^-1 Q^T f`` (QR ``L = Q R``),
   with a backtracking line search (halving, at most 10 times) on the least-squares merit
   ``||f||^2``. The full step decreases the merit's linear model by ``||Q^T f||^2`` (not by
   ``||f||^2``: on an overdetermined support the rest, ``||(I - Q Q^T) f||^2``, is out of
   reach), so a step ``alpha d`` is accepted when

       ||f(x + alpha d)||^2 <= ||f||^2 - 2e-4 alpha ||Q^T f||^2           (Armijo)

   or, where that decrease is below the rounding of ``||f||^2`` (near the least-squares point
   ``||Q^T f||^2`` is many orders below ``||f||^2``), when the linear model holds in the range
   of ``L``: ``||Q^T f(x + alpha d)|| <= (1 - alpha / 2) ||Q^T f||`` with ``||f(x + alpha d)||
   <= ||f|| + alpha ||Q^T f||``.
4. ``P_lambda`` again with the cap ``max_support`` (default ``s``): a group holding more
   non-zero candidates than the cap drops its smallest, so a full support exchanges a
   coordinate instead of growing. The pruned point must pass the Armijo test of step 3 too;
   if it does not, or if the coordinate just added is the one dropped, the exchange is
   rejected and the rest of the call iterates Gauss-Newton on the support only (otherwise the
   same index would be added and dropped again at every iteration, or two exchanges undo each
   other).

Stops with ``converged`` when ``||f|| <= tol`` (the paper's test: the equations solved), or when
no candidate joins the support and the Gauss-Newton decrement ``||Q^T f|| = ||L d_S||`` is at
most ``max(tol, 2 rho)``: the least-squares point on a settled support (``L^T f = 0`` to ``tol``
in the metric of ``L``, or as far as the rounding of two residual evaluations resolves it:
on stiff components ``rho`` exceeds a tolerance of 1e-11 m). The decrement is in the residual's units; on a square support it is
``||f||``, so the two tests agree there. With fewer unknowns than equations on the support, a
Gauss-Newton iteration converges to ``L^T f = 0``, not to ``f = 0``: ``||f||`` alone would never
pass. Otherwise ``no_descent`` (the line search fails; x is the last iterate) or ``max_iter``.
The returned ``residual_norm`` says how well the sparse solution satisfies the equations,
``decrement`` how close it is to the least-squares point.

The Jacobian may come as a :class:`BlockJacobian`, each group's candidate columns on the rows
where they are non-zero (the modal coordinates of separate components); the QR of ``L`` and
the projections of eq. 37 then work group by group (:class:`_SupportQR`).
"""
from __future__ import annotations

import contextlib
from dataclasses import dataclass

import numpy as np
import scipy.linalg as sla


#: the outcomes of a call (module docstring)
STATUSES = ("converged", "no_descent", "max_iter")


@dataclass
class GGNResult:
    """``x`` (N,), ``support`` (bool over the candidates), ``residual_norm`` ||f(x)||,
    ``iterations``, ``status`` ("converged" | "no_descent" | "max_iter"), ``decrement`` the
    Gauss-Newton decrement ||Q^T f|| at the last Jacobian (module docstring; same units as f)."""

    x: np.ndarray
    support: np.ndarray
    residual_norm: float
    iterations: int
    status: str
    decrement: float


def _prune(x, candidates, groups, sparsity):
    """The paper's ``P_lambda``: keep the ``sparsity[g]`` largest non-zero candidates per group."""
    values = x[candidates]
    keep = values != 0.0
    for g, s in enumerate(sparsity):
        members = np.flatnonzero(groups == g)
        nonzero = members[keep[members]]
        if nonzero.size > s:
            order = np.argsort(np.abs(values[nonzero]), kind="stable")
            keep[nonzero[order[:nonzero.size - s]]] = False
    x[candidates[~keep]] = 0.0
    return keep


@dataclass
class BlockJacobian:
    """A Jacobian ``J`` (m, N) whose candidate columns vanish outside a few rows per group.

    In modal coordinates each component's modal columns are non-zero only on that component's
    equations, so greedy Gauss-Newton works on ``J`` in this form instead of dense (m, N).

    known : (m, n_known) ``J[:, known]``, ``known`` the non-candidate indices, increasing.
    blocks : list over groups g of (len(rows[g]), n_g) arrays, ``J[rows[g]]`` restricted to the
        candidates of group g in the order they have in ``candidates``.
    rows : list over groups of row-index arrays; ``J`` is zero on the other rows of group g's
        candidate columns.
    """

    known: np.ndarray
    blocks: list
    rows: list

    @classmethod
    def from_dense(cls, J, known, candidates, groups):
        """Every group on all ``m`` rows of the dense ``J`` (m, N)."""
        members = [candidates[groups == g] for g in range(groups.max(initial=0) + 1)]
        rows = np.arange(J.shape[0])
        return cls(J[:, known], [J[:, c] for c in members], [rows] * len(members))


class _SupportQR:
    """Thin QR factors ``L[:, order] = Q R`` of the support's Jacobian ``L = J[:, S]`` (m, |S|),
    ``S = (known, candidates[inside])``, that keep the block structure of a BlockJacobian.

    With several groups on disjoint rows, each group's support columns (a panel) are factored
    on its rows only (Householder, m_g x k_g instead of m x |S|), and the known columns, on all
    rows, are orthogonalized against the panels (classical Gram-Schmidt, twice) and factored.
    Otherwise (one group, or groups sharing rows) a single panel on all rows holds the known
    columns first and every support column: the Householder QR of ``L`` itself. Appended
    columns join the dense part. ``Q`` is held as the panels' ``Q_p`` (m_p, k_p) and the dense
    ``Q_d`` (m, k_d); ``order`` gives the position in S of each column of ``R``; ``within[g]``
    selects group g's rows in its panel.
    """

    def __init__(self, J, inside, groups, local):
        m, n_known = J.known.shape
        rows = J.rows
        joined = np.concatenate(rows)
        if len(rows) > 1 and np.unique(joined).size == joined.size:
            self.panel_rows, self.panel_of = list(rows), np.arange(len(rows))
            self.within = [slice(None)] * len(rows)
            lead = 0  # known columns in the panel
        else:
            self.panel_rows, self.panel_of = [np.arange(m)], np.zeros(len(rows), dtype=np.int64)
            # a contiguous row range as a slice: views instead of copies of Q's rows
            self.within = [slice(r[0], r[-1] + 1) if r.size and r[-1] - r[0] + 1 == r.size
                           else r for r in rows]
            lead = n_known
        g_in = groups[inside]
        self.Qp, Rp, order, self.offsets = [], [], [], [0]
        for p, prow in enumerate(self.panel_rows):
            members = np.flatnonzero(self.panel_of[g_in] == p)
            B = np.zeros((prow.size, lead + members.size))
            if lead:
                B[:, :lead] = J.known
            for g in np.flatnonzero(self.panel_of == p):
                mine = np.flatnonzero(g_in[members] == g)
                w, cols = self.within[g], lead + mine
                if cols.size and cols[-1] - cols[0] + 1 == cols.size:
                    cols = slice(cols[0], cols[-1] + 1)  # one group per panel: no 2-d fancy index
                B[(w, cols) if isinstance(w, slice) or isinstance(cols, slice)
                  else np.ix_(w, cols)] = J.blocks[g][:, local[inside[members[mine]]]]
            Q, R = sla.qr(B, mode="economic", check_finite=False) if B.size else (B, B[:0])
            self.Qp.append(Q)
            Rp.append(R)
            order.append(np.concatenate([np.arange(lead), n_known + members]))
            self.offsets.append(self.offsets[-1] + B.shape[1])
        n_panels = self.offsets[-1]
        K = np.array(J.known[:, lead:])
        C = np.zeros((n_panels, K.shape[1]))
        for _ in range(2):  # the second pass restores orthogonality lost to cancellation
            for p, prow in enumerate(self.panel_rows):
                coef = self.Qp[p].T @ K[prow]
                K[prow] -= self.Qp[p] @ coef
                C[self.offsets[p]:self.offsets[p + 1]] += coef
        self.Qd, Rk = sla.qr(K, mode="economic", check_finite=False) if K.size else (K, K[:0])
        self.R = np.zeros((n_panels + K.shape[1], n_panels + K.shape[1]))
        for p, Rblock in enumerate(Rp):
            panel = slice(self.offsets[p], self.offsets[p + 1])
            self.R[panel, panel] = Rblock
        self.R[:n_panels, n_panels:] = C
        self.R[n_panels:, n_panels:] = Rk
        self.order = np.concatenate(order + [np.arange(lead, n_known)])

    def Qt(self, v):
        """``Q^T v`` (k,) of ``v`` (m,)."""
        return np.concatenate([Q.T @ v[prow] for Q, prow in zip(self.Qp, self.panel_rows)]
                              + [self.Qd.T @ v])

    def Q(self, y):
        """``Q y`` (m,) of ``y`` (k,)."""
        out = self.Qd @ y[self.offsets[-1]:]
        for p, prow in enumerate(self.panel_rows):
            out[prow] += self.Qp[p] @ y[self.offsets[p]:self.offsets[p + 1]]
        return out

    def Qt_group(self, g, V):
        """``Q^T V`` split into the panel and the dense part, for ``V`` (len(rows_g), k) group
        g's columns on its rows ``rows_g`` (zero elsewhere, so other panels give zero)."""
        p, w = self.panel_of[g], self.within[g]
        return self.Qp[p][w].T @ V, self.Qd[self.panel_rows[p][w]].T @ V

    def append(self, g, column, Qt_parts, position):
        """Append a column of group g, ``column`` (len(rows_g),) on its rows, at S position
        ``position`` (one Gram-Schmidt step), given its :meth:`Qt_group` parts."""
        p = self.panel_of[g]
        Qtv = np.zeros(self.R.shape[0])
        Qtv[self.offsets[p]:self.offsets[p + 1]] = Qt_parts[0]
        Qtv[self.offsets[-1]:] = Qt_parts[1]
        w = -self.Q(Qtv)
        w[self.panel_rows[p][self.within[g]]] += column
        rho = np.linalg.norm(w)
        self.Qd = np.column_stack([self.Qd, w / rho])
        self.R = np.block([[self.R, Qtv[:, None]], [np.zeros((1, self.R.shape[1])), rho]])
        self.order = np.append(self.order, position)

    def solve(self, Qtf):
        """Least-squares ``d`` (|S|,) minimising ``||L d - f||`` in S order, from ``Q^T f``
        (:meth:`Qt`)."""
        d = np.empty(self.order.size)
        d[self.order] = sla.solve_triangular(self.R, Qtf, check_finite=False)
        return d


def _rounding(residual, x, f, S, qr):
    """The rounding of the residual at x, ``||f(x + e) - f(x) - L e||`` (units of f), for a
    perturbation ``e`` on the support (S order) of four units of round-off of the support's
    largest coordinate (the scale of the terms whose rounding f carries) on every coordinate."""
    e = np.zeros(x.size)
    e[S] = (4.0 * np.finfo(float).eps * np.abs(x[S]).max(initial=0.0)
            * np.where(np.arange(S.size) % 2, 1.0, -1.0))
    return np.linalg.norm(residual(x + e, False) - f - qr.Q(qr.R @ e[S][qr.order]))


def greedy_gauss_newton(residual, x0, candidates, sparsity, groups=None, tol=1e-11,
                        max_iter=50, timer=None, max_support=None):
    """Sparse solution of ``f(x) = 0`` by greedy Gauss-Newton (module docstring).

    Parameters
    ----------
    residual : callable ``(x, with_jacobian) -> f`` or ``(f, J)``, ``f`` (m,), ``J`` the
        Jacobian (m, N), dense or as a :class:`BlockJacobian`.
    x0 : (N,) start point.
    candidates : int array, indices of the sparse coordinates; the rest is the known support.
    sparsity : int or sequence of int, the maximum number of non-zero candidates per group.
    groups : int array (len(candidates),) group of each candidate (default: one group).
    tol : tolerance on ``||f||`` and on the Gauss-Newton decrement (units of f).
    max_iter : iteration limit.
    timer : optional :class:`~rancf.formulations.reduced.timing.Timer`; linear algebra is
        charged to "matrix".
    max_support : int or sequence, optional
        Cap on the non-zero candidates per group during the iteration (step 4); default
        ``sparsity``. A larger cap lets the support grow beyond the initial ``sparsity`` until
        the tolerance is met (the literal reading of the paper's figure 3).
    """
    x = np.array(x0, dtype=float)
    candidates = np.asarray(candidates, dtype=np.int64)
    groups = np.zeros(candidates.size, dtype=np.int64) if groups is None else np.asarray(groups)
    sparsity = np.atleast_1d(np.asarray(sparsity, dtype=np.int64))
    if groups.shape != candidates.shape:
        raise ValueError("groups must have the shape of candidates")
    if sparsity.size != groups.max(initial=0) + 1 or np.any(sparsity < 0):
        raise ValueError(f"sparsity must give one non-negative count per group, got {sparsity}")
    cap = sparsity if max_support is None else np.broadcast_to(
        np.asarray(max_support, dtype=np.int64), sparsity.shape)
    if np.any(cap < sparsity):
        raise ValueError(f"max_support must be >= sparsity, got {max_support}")
    if not tol > 0 or int(max_iter) < 1:
        raise ValueError(f"need tol > 0 and max_iter >= 1, got {tol}, {max_iter}")
    clock = (lambda: timer("matrix")) if timer is not None else contextlib.nullcontext
    known = np.setdiff1d(np.arange(x.size), candidates)
    # column of each candidate in its group's block of the BlockJacobian
    local = np.empty(candidates.size, dtype=np.int64)
    for g in range(sparsity.size):
        members = groups == g
        local[members] = np.arange(np.count_nonzero(members))
    support = _prune(x, candidates, groups, sparsity)
    status = "max_iter"
    growing = np.ones(sparsity.size, dtype=bool)  # per group: eq. 37 still adds to its support
    reuse = None  # (f, J) at x when a rejected exchange left x where it was
    rounding = None  # of the residual, estimated at the first iteration
    for it in range(1, int(max_iter) + 1):
        f, J = residual(x, True) if reuse is None else reuse
        reuse = None
        norm = np.linalg.norm(f)
        if norm <= tol:
            return GGNResult(x, support, norm, it - 1, "converged", norm)
        before = support.copy()
        added = []
        with clock():
            if not isinstance(J, BlockJacobian):
                J = BlockJacobian.from_dense(J, known, candidates, groups)
            inside = np.flatnonzero(support)
            S = np.concatenate([known, candidates[inside]])
            qr = _SupportQR(J, inside, groups, local)
            Qtf = qr.Qt(f)
        if rounding is None:  # outside the clock: the residual charges its own time
            rounding = _rounding(residual, x, f, S, qr)
        with clock():
            outside = np.flatnonzero(~support)
            # eq. 37 for each group (the paper's flexible part k) on the rows where its columns
            # are non-zero; the least-squares problem on the support stays overdetermined
            r = f - qr.Q(Qtf) if growing.any() and S.size < f.size else None
            for g, (block, rows) in enumerate(zip(J.blocks, J.rows)):
                mine = outside[groups[outside] == g]
                if r is None or not growing[g] or not mine.size or S.size >= f.size:
                    continue
                Jo = block[:, local[mine]]
                QtJo = qr.Qt_group(g, Jo)
                norms2 = np.einsum("ij,ij->j", Jo, Jo)
                residual2 = (norms2 - np.einsum("ij,ij->j", QtJo[0], QtJo[0])
                             - np.einsum("ij,ij->j", QtJo[1], QtJo[1]))  # ||(I - L L^+) J_l||^2
                gain = np.abs(r[rows] @ Jo) / np.sqrt(np.maximum(residual2, 1e-300))
                gain[residual2 <= 1e-24 * norms2] = 0.0  # columns already in span(L)
                best = int(np.argmax(gain))
                if gain[best] > max(tol, rounding):  # a decrease above the rounding
                    support[mine[best]] = True
                    column = Jo[:, best]
                    # columns appended before this one (other groups') are in Q now
                    parts = qr.Qt_group(g, column[:, None]) if added else \
                        (QtJo[0][:, best:best + 1], QtJo[1][:, best:best + 1])
                    qr.append(g, column, (parts[0][:, 0], parts[1][:, 0]), S.size)
                    S = np.append(S, candidates[mine[best]])
                    added.append(mine[best])
            if added:
                Qtf = qr.Qt(f)
            decrement = np.linalg.norm(Qtf)
            if not added and decrement <= max(tol, 2.0 * rounding):
                # the least-squares point on a settled support, to tol or to the rounding of
                # two residuals
                return GGNResult(x, support, norm, it - 1, "converged", decrement)
            d = -qr.solve(Qtf)
        # the merit is ||f||^2; the full step d decreases its linear model by ||Q^T f||^2
        alpha, accepted = 1.0, False
        while alpha >= 2.0**-10:
            trial = x.copy()
            trial[S] += alpha * d
            f_trial = residual(trial, False)
            norm_trial = np.linalg.norm(f_trial)
            if norm_trial**2 <= norm**2 - 2e-4 * alpha * decrement**2 or (
                    norm_trial <= norm + alpha * decrement
                    and np.linalg.norm(qr.Qt(f_trial)) <= (1.0 - 0.5 * alpha) * decrement):
                accepted = True
                break
            alpha *= 0.5
        if not accepted:
            status = "no_descent"
            break
        pruned = trial.copy()
        support = _prune(pruned, candidates, groups, cap)
        if not np.array_equal(pruned, trial):
            # P_lambda zeroed coordinates the step had moved: the pruned point must descend too
            f_trial = residual(pruned, False)
            if added and np.linalg.norm(f_trial)**2 > norm**2 - 2e-4 * alpha * decrement**2:
                # the exchanges are rejected
                support, reuse = before, (f, J)
                growing[groups[added]] = False
                continue
        x, f = pruned, f_trial
        for index in added:
            if not support[index]:
                growing[groups[index]] = False  # the exchange was rejected
    return GGNResult(x, support, np.linalg.norm(f), it, status, decrement)
