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
   index among the candidates outside S (eq. 37)

       l_max = argmax_l |f^T (I - L L^+) J_l| / ||(I - L L^+) J_l||

   is added to the support if its descent exceeds ``tol`` (it is the decrease of ||f|| that
   column l alone can give in the linear model).
3. Gauss-Newton direction on the support, ``d_S = -L^+ f`` (QR), with a backtracking line
   search on ``||f||`` (halving, sufficient decrease ``1e-4``).
4. ``P_lambda`` again with the cap ``max_support`` (default ``s``): a group holding more
   non-zero candidates than the cap drops its smallest, so a full support exchanges a
   coordinate instead of growing. If the coordinate just added is the one dropped, the
   exchange is rejected and the rest of the call iterates Gauss-Newton on the support only
   (otherwise the same index would be added and dropped again at every iteration).

Stops when ``||f|| <= tol`` (``converged``), when an iteration leaves the support unchanged and
moves ``x`` by at most ``tol`` in the max-norm (a stationary point of the least-squares problem
on the support: ``stationary``), when the line search finds no decrease (``no_descent``, x is
the last iterate), or after ``max_iter`` iterations. When the support is smaller than the
number of equations the problem on the support is overdetermined, so ``||f||`` generally stays
above ``tol`` and the iteration ends stationary or at ``max_iter``: the returned
``residual_norm`` says how well the sparse solution satisfies the equations.
"""
from __future__ import annotations

import contextlib
from dataclasses import dataclass

import numpy as np
import scipy.linalg as sla


@dataclass
class GGNResult:
    """``x`` (N,), ``support`` (bool over the candidates), ``residual_norm`` ||f(x)||,
    ``iterations``, ``status`` ("converged" | "stationary" | "max_iter" | "no_descent")."""

    x: np.ndarray
    support: np.ndarray
    residual_norm: float
    iterations: int
    status: str


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
    tol : residual and step tolerance.
    max_iter : iteration limit.
    timer : optional :class:`rancf.modal.bdf.Timer`; linear algebra is charged to "matrix".
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
    status, growing = "max_iter", True
    f_x = None  # residual(x, False) once the line search has evaluated it at x
    for it in range(1, int(max_iter) + 1):
        f, J = residual(x, True)
        norm = np.linalg.norm(f)
        if norm <= tol:
            return GGNResult(x, support, norm, it - 1, "converged")
        before = support.copy()
        added = None
        with clock():
            if not isinstance(J, BlockJacobian):
                J = BlockJacobian.from_dense(J, known, candidates, groups)
            inside = np.flatnonzero(support)
            S = np.concatenate([known, candidates[inside]])
            L = np.zeros((f.size, S.size))
            L[:, :known.size] = J.known
            for g, (block, rows) in enumerate(zip(J.blocks, J.rows)):
                mine = groups[inside] == g
                L[np.ix_(rows, known.size + np.flatnonzero(mine))] = block[:, local[inside[mine]]]
            Q, R = sla.qr(L, mode="economic", check_finite=False)
            outside = np.flatnonzero(~support)
            # keep the least-squares problem on the support overdetermined
            if growing and outside.size and S.size < f.size:
                # eq. 37 group by group, on the rows where the group's columns are non-zero
                r = f - Q @ (Q.T @ f)
                gain = np.empty(outside.size)
                parts = []
                for g, (block, rows) in enumerate(zip(J.blocks, J.rows)):
                    mine = np.flatnonzero(groups[outside] == g)
                    Jo = block[:, local[outside[mine]]]
                    QtJo = Q[rows].T @ Jo
                    norms2 = np.einsum("ij,ij->j", Jo, Jo)
                    residual2 = norms2 - np.einsum("ij,ij->j", QtJo, QtJo)  # ||(I - L L^+) J_l||^2
                    gain[mine] = np.abs(r[rows] @ Jo) / np.sqrt(np.maximum(residual2, 1e-300))
                    gain[mine[residual2 <= 1e-24 * norms2]] = 0.0  # columns already in span(L)
                    parts.append((mine, Jo, QtJo, rows))
                best = int(np.argmax(gain))
                if gain[best] > tol:
                    added = outside[best]
                    support[added] = True
                    # append the column to the QR factors (one Gram-Schmidt step)
                    mine, Jo, QtJo, rows = parts[groups[added]]
                    k = int(np.searchsorted(mine, best))
                    w = -(Q @ QtJo[:, k])
                    w[rows] += Jo[:, k]
                    rho = np.linalg.norm(w)
                    Q = np.column_stack([Q, w / rho])
                    R = np.block([[R, QtJo[:, k:k + 1]], [np.zeros((1, R.shape[1])), rho]])
                    S = np.append(S, candidates[added])
            d = -sla.solve_triangular(R, Q.T @ f, check_finite=False)
        alpha, accepted = 1.0, False
        while alpha >= 2.0**-10:
            trial = x.copy()
            trial[S] += alpha * d
            f_trial = residual(trial, False)
            if (np.linalg.norm(f_trial) <= (1.0 - 1e-4 * alpha) * norm
                    or alpha * np.max(np.abs(d)) <= tol):
                accepted = True
                break
            alpha *= 0.5
        if not accepted:
            status = "no_descent"
            break
        previous, x, f_x = x, trial, f_trial
        support = _prune(x, candidates, groups, cap)
        if added is not None and not support[added]:
            growing = False  # the exchange was rejected: Gauss-Newton on this support only
        if np.max(np.abs(x - previous)) <= tol and np.array_equal(support, before):
            status = "stationary"
            break
    norm = np.linalg.norm(residual(x, False) if f_x is None else f_x)
    if norm <= tol:
        status = "converged"
    return GGNResult(x, support, norm, it, status)
