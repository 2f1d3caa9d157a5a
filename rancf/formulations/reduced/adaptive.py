"""Adaptive modal selection (adaptive-modal paper section 2, DESIGN.md section 5).

Per flexible component: boundary coordinates ``b`` are the nodes that appear in a constraint
(joint nodes), the interior ``a`` the rest; the Craig-Bampton transform of the component's
mass and constant bending stiffness ``K_t`` (the nonlinear axial force is the pseudo-load of
eq. 23) with *all* interior modes kept gives the sparse basis

    x = (q, lam_hat) = Phi c,   c = (all non-interior coordinates, xi for every component, lam_hat)

(eq. 29). Latin-hypercube sampling (``scipy.stats.qmc.LatinHypercube``, seedable) picks
``n_samples`` rows Omega of each component's interior equations (eq. 30-32); every other row
(boundary, rigid bodies, constraints) is kept. Two choices the paper leaves open are made so
that the sampled system keeps the physics of a beam (``sample`` and ``free_ends`` restore the
plain reading):

* the sampling draws interior *nodes* and keeps all four equations of each: the equations of
  x and y at a node then turn together with the beam;
* the equations of a free beam end (an end node without a joint, an interior node of the
  Craig-Bampton split) are always kept and count in ``n_samples``. A uniform axial stress
  gives no force at interior nodes; only the end equations (the natural boundary condition)
  fix the stretch, and the stretch is carried by the boundary slopes through the constraint
  modes, which are not sparse.

On the paper's pendulum (308 of 640 rows) a sample without the x- and y-equations of the free
end lets the stretch drift: the sampled residual stays near 1e-8 while the unsampled one grows
to O(1) and the beam runs away (row sampling for every seed tried, once the beam swings
towards the vertical; node sampling exactly for the seeds whose sample misses the tip node).
Validation case ``modal`` measures both. Each BDF-1 step (eq. 33-35) then solves the
sampled residual for a solution with at most ``sparsity`` non-zero modal coordinates per
component (eq. 36) by greedy Gauss-Newton (:mod:`rancf.modal.greedy_gauss_newton`, eq. 37,
figure 3), starting from the forward-difference predictor ``q_{t-1} + h v_{t-1}`` and the
previous multipliers (the paper's step 2). The selected modes of every recorded step are
returned. With ``sparsity`` equal to all interior modes and ``n_samples`` equal to all
interior rows the system is square and greedy Gauss-Newton is Newton's method in the modal
coordinates (a linear change of variables of the full step).
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np
import scipy.sparse as sp
from scipy.stats import qmc

from rancf.modal.craig_bampton import CraigBampton
from rancf.modal.greedy_gauss_newton import BlockJacobian, greedy_gauss_newton


#: interior equations per sampling unit: a whole ANCF node (x, y, x', y') or a single row
SAMPLE_UNITS = {"node": 4, "row": 1}


def latin_hypercube_rows(n_rows, n_samples, seed):
    """``n_samples`` distinct row indices in ``[0, n_rows)`` by Latin-hypercube sampling.

    The LHS puts one point ``u`` in each stratum ``[j/n, (j+1)/n)`` of ``[0, 1)``. Row stratum
    ``j`` is the rows ``ceil(j N / n) <= i < ceil((j+1) N / n)`` (disjoint, non-empty for
    ``N >= n``); the point's position inside its stratum picks the row, so the rows are
    distinct (flooring ``u N`` alone can pick the same row from two neighbouring strata).
    """
    if not 1 <= n_samples <= n_rows:
        raise ValueError(f"n_samples must be in [1, {n_rows}], got {n_samples}")
    u = qmc.LatinHypercube(d=1, seed=seed).random(n_samples)[:, 0] * n_samples
    j = np.minimum(np.floor(u).astype(np.int64), n_samples - 1)
    lo = -((-j * n_rows) // n_samples)  # ceil(j N / n) in integers
    hi = -((-(j + 1) * n_rows) // n_samples)
    return np.sort(lo + np.floor((u - j) * (hi - lo)).astype(np.int64))


class _Block(NamedTuple):
    """One flexible component's part of ``Phi`` and of the sampled modal Jacobian.

    ``a``, ``b``: interior and boundary indices in x; ``own``: positions in ``rows`` of the
    component's equations; ``b_known``: positions of ``b`` among the known columns; ``Ja_map``:
    (positions in J.data, indices, indptr, shape) of the CSR ``J[rows][own][:, a]``;
    ``Phi_nc`` = ``[Phi_n, Phi_c]`` (n_a, n_a + n_b) (one product gives the modal and the
    boundary columns); ``Phi_n_T`` the C-contiguous transpose of ``Phi_n``; ``Phi_c`` (n_a, n_b);
    ``projector`` ``Phi_n^T M_aa`` (n_a, n_a).
    """

    a: np.ndarray
    b: np.ndarray
    own: np.ndarray
    b_known: np.ndarray
    Ja_map: tuple
    Phi_nc: np.ndarray
    Phi_n_T: np.ndarray
    Phi_c: np.ndarray
    projector: np.ndarray


class AdaptiveModalStep:
    """Step solver of the adaptive modal method, for :func:`rancf.modal.bdf.integrate`.

    Parameters
    ----------
    sparsity : int or sequence (one per flexible component): modal coordinates kept per step.
    n_samples : int or sequence: interior equations kept per component (Latin hypercube).
    tol : greedy Gauss-Newton tolerance (residual norm and step, see its module).
    seed : seed of the Latin-hypercube sampling (int or numpy Generator).
    sample : "node" (default: whole interior nodes, ``n_samples`` a multiple of 4) or "row"
        (single interior equations, the literal reading of eq. 30; see the module docstring).
    free_ends : keep the equations of the free beam ends in every sample (default True; they
        count in ``n_samples``; see the module docstring). False is the paper's plain sampling.
    max_iter : greedy Gauss-Newton iterations per step.
    max_support : int or sequence, optional: cap on the support during a step (default
        ``sparsity``; see :func:`rancf.modal.greedy_gauss_newton.greedy_gauss_newton`).

    Attributes after :meth:`setup`: ``reductors`` (one :class:`CraigBampton` per flexible
    component), ``rows`` (sampled equation indices), ``candidates`` (positions of the modal
    coordinates in ``c``), ``statuses`` (count of each greedy Gauss-Newton outcome).
    """

    def __init__(self, sparsity, n_samples, tol=1e-11, seed=0, max_iter=50, max_support=None,
                 sample="node", free_ends=True):
        if sample not in SAMPLE_UNITS:
            raise ValueError(f"sample must be one of {sorted(SAMPLE_UNITS)}, got {sample!r}")
        self.sparsity, self.n_samples, self.max_support = sparsity, n_samples, max_support
        self.sample, self.free_ends = sample, bool(free_ends)
        self.tol, self.seed, self.max_iter = float(tol), seed, int(max_iter)
        if not self.tol > 0 or self.max_iter < 1:
            raise ValueError(f"need tol > 0 and max_iter >= 1, got {tol}, {max_iter}")

    def setup(self, equations):
        self.eq = eq = equations
        system = eq.system
        beams = system.beams
        if not beams:
            raise ValueError("the system has no flexible component")
        sparsity, n_samples = (np.broadcast_to(np.asarray(v, dtype=np.int64), (len(beams),))
                               for v in (self.sparsity, self.n_samples))
        Cq_cols = set(system.constraint_triplets(np.zeros(system.n))[1].tolist())
        K = system.bending_stiffness()
        M = system.mass
        rows = np.ones(eq.N, dtype=bool)
        candidates, groups, self.reductors, parts = [], [], [], []
        rng = np.random.default_rng(self.seed)
        for g, k in enumerate(beams):
            comp = system.components[k]
            glob = system.index(k, np.arange(comp.n_coordinates))
            joint_nodes = sorted({(i - glob[0]) // 4 for i in Cq_cols if glob[0] <= i <= glob[-1]})
            if not joint_nodes:
                raise ValueError(f"flexible component {k} has no joint node (no boundary)")
            boundary = np.concatenate([4 * j + np.arange(4) for j in joint_nodes])
            cb = CraigBampton(M[glob][:, glob], K[glob][:, glob], boundary)
            a, b = glob[cb.interior], glob[cb.boundary]
            na = a.size
            unit = SAMPLE_UNITS[self.sample]
            if not unit <= n_samples[g] <= na or n_samples[g] % unit:
                raise ValueError(f"n_samples must be in [{unit}, {na}] (interior equations of "
                                 f"component {k}) and a multiple of {unit} with sample="
                                 f"{self.sample!r}, got {n_samples[g]}")
            if not 0 <= sparsity[g] <= min(na, n_samples[g]):
                raise ValueError(f"sparsity must be in [0, min(interior coordinates {na}, "
                                 f"n_samples {n_samples[g]})] for component {k}, got "
                                 f"{sparsity[g]} (the sampled rows determine the kept modes)")
            rows[a] = False
            # interior nodes are whole (the boundary is joint nodes), so units never straddle
            units = a.reshape(-1, unit)
            free = np.zeros(units.shape[0], dtype=bool)
            if self.free_ends:
                ends = [4 * j for j in (0, comp.n_elements) if j not in joint_nodes]
                free = np.isin(units[:, 0] - glob[0], [e + i for e in ends for i in range(4)])
            n_draw = (int(n_samples[g]) - unit * int(free.sum())) // unit
            if n_draw < 0:
                raise ValueError(f"n_samples must be >= {unit * free.sum()} for component {k}: "
                                 f"the equations of its free ends are always kept, got "
                                 f"{n_samples[g]}")
            rest = units[~free]
            picked = rest[latin_hypercube_rows(rest.shape[0], n_draw, rng)] if n_draw else rest[:0]
            rows[np.concatenate([units[free].ravel(), picked.ravel()])] = True
            candidates.append(a)
            groups.append(np.full(na, g))
            self.reductors.append(cb)
            parts.append((a, b, glob, cb))
        self.rows = np.flatnonzero(rows)
        self.candidates = np.concatenate(candidates)
        self.groups = np.concatenate(groups)
        self.sparsity_per_group = np.asarray(sparsity)
        self.statuses = {}
        # Phi is the identity but for each component's interior rows a (Phi[a, b] = Phi_c,
        # Phi[a, a] = Phi_n), so it is applied block by block. Interior coordinates appear in
        # no constraint: the columns a of the Jacobian are non-zero only on the component's own
        # equations, the rows ``own`` (positions in ``rows``) of the modal Jacobian's blocks.
        # The Jacobian's pattern is fixed, so its sampled parts are gathered from its values
        # through index maps (``position``: 1 + index into J.data) built here once.
        self._known = np.setdiff1d(np.arange(eq.N), self.candidates)
        indices, indptr = eq.jacobian_pattern
        position = sp.csc_matrix((np.arange(1.0, indices.size + 1), indices, indptr),
                                 shape=(eq.N, eq.N)).tocsr()[self.rows]
        known = position[:, self._known].tocoo()
        self._known_map = (known.row, known.col, known.data.astype(np.int64) - 1)
        self._blocks = []
        for a, b, glob, cb in parts:
            own = np.flatnonzero(np.isin(self.rows, glob))
            Ja = position[own][:, a].tocsr()
            self._blocks.append(_Block(a, b, own, np.searchsorted(self._known, b),
                                       (Ja.data.astype(np.int64) - 1, Ja.indices, Ja.indptr,
                                        Ja.shape),
                                       np.hstack([cb.normal_modes, cb.constraint_modes]),
                                       np.ascontiguousarray(cb.normal_modes.T),
                                       cb.constraint_modes, cb.modal_projector))

    def to_modal(self, x):
        """``c = Phi^{-1} x`` (N,): interior coordinates replaced by modal coordinates."""
        c = np.array(x, dtype=float)
        for k in self._blocks:
            c[k.a] = k.projector @ (x[k.a] - k.Phi_c @ x[k.b])
        return c

    def to_physical(self, c):
        """``x = Phi c`` (N,): ``x_a = Phi_c c_b + Phi_n xi`` per component, the rest as is
        (the greedy Gauss-Newton iterates have few non-zero ``xi``)."""
        with self.eq.timer("matrix"):
            x = np.array(c, dtype=float)
            for k in self._blocks:
                xi = c[k.a]
                nz = np.flatnonzero(xi)
                x[k.a] = k.Phi_c @ c[k.b] + xi[nz] @ k.Phi_n_T[nz]
            return x

    def _residual(self, c, with_jacobian):
        """Sampled residual ``R(Phi c)[rows]`` and, if asked, its Jacobian ``J[rows] Phi`` as a
        :class:`BlockJacobian` (the known columns dense, each component's modal columns on its
        own rows only)."""
        x = self.to_physical(c)
        if not with_jacobian:
            return self.eq.residual(x)[self.rows]
        R, J = self.eq.residual(x, with_jacobian=True)
        with self.eq.timer("matrix"):
            known = np.zeros((self.rows.size, self._known.size))
            r, col, pos = self._known_map
            known[r, col] = J.data[pos]
            blocks, own_rows = [], []
            for k in self._blocks:
                pos, ind, ptr, shape = k.Ja_map
                Ja = sp.csr_matrix((J.data[pos], ind, ptr), shape=shape)  # J[rows][own][:, a]
                Y = Ja @ k.Phi_nc
                blocks.append(Y[:, :k.a.size])
                own_rows.append(k.own)
                known[np.ix_(k.own, k.b_known)] += Y[:, k.a.size:]
        return R[self.rows], BlockJacobian(known, blocks, own_rows)

    def solve(self, x):
        c = self.to_modal(x)
        # the basis change leaves round-off (~1e-16 |x|) on modes that are zero in exact
        # arithmetic; P_lambda keeps only non-zero coordinates, so these count as zero
        xi = c[self.candidates]
        xi[np.abs(xi) <= 1e-13 * max(1.0, np.max(np.abs(x)))] = 0.0
        c[self.candidates] = xi
        result = greedy_gauss_newton(self._residual, c, self.candidates,
                                     self.sparsity_per_group, self.groups, self.tol,
                                     self.max_iter, self.eq.timer, self.max_support)
        self.statuses[result.status] = self.statuses.get(result.status, 0) + 1
        self._last = result
        finite = np.all(np.isfinite(result.x))
        return self.to_physical(result.x), {"iterations": result.iterations, "converged": finite,
                                     "residual_norm": result.residual_norm}

    def record(self, x, info):
        """Per output step: modal coordinates, selected modes, greedy Gauss-Newton residual."""
        if info is None:
            xi = self.to_modal(x)[self.candidates]
            selected = np.zeros(xi.size, dtype=bool)
        else:  # the solver's own modal coordinates: exact zeros off the support
            xi, selected = self._last.x[self.candidates], self._last.support.copy()
        return {"modal_coordinates": xi, "selected": selected,
                "residual_norm": info["residual_norm"] if info is not None else 0.0,
                "iterations": info["iterations"] if info is not None else 0}
