"""First-order BDF time stepping of the adaptive-modal paper (eq. 33-35) and its Newton solver.

Each step solves for ``x = (q_t, lam_hat_t)`` the residual

    R_dyn = eta [ M (q_t - q_{t-1} - h v_{t-1}) + h^2 (F_K(q_t) - F_G) ] + C_q(q_t)^T lam_hat
    R_con = C(q_t, t)

which is the paper's eq. 33 with the BDF-1 acceleration ``a_t = (q_t - q_{t-1} - h v_{t-1})/h^2``
(eq. 34) multiplied by ``h^2``; ``eta = 1 / mean(diag M)`` (1/kg) makes the dynamic rows
displacement-like (m), comparable to the constraint rows, and ``lam_hat = eta h^2 lambda``.
Then ``v_t = (q_t - q_{t-1}) / h``. The Jacobian is the sparse saddle-point matrix

    [[eta (M + h^2 K_T(q)) + d(C_q^T lam_hat)/dq, C_q^T], [C_q, 0]].

One time loop (:func:`integrate`) serves every step solver: the full model's Newton iteration
(:class:`NewtonStep`, sparse LU by SuperLU) and the adaptive modal method
(:class:`rancf.modal.adaptive.AdaptiveModalStep`). Work is timed in the categories of the
paper's table 2: ``update`` (elastic forces, stiffness, constraints, residual and Jacobian
assembly), ``matrix`` (factorizations, solves, least squares, modal projections) and ``total``.
"""
from __future__ import annotations

import contextlib
import time
from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as spla

try:
    from threadpoolctl import threadpool_limits
except ImportError:  # optional: without it BLAS keeps its default thread count
    threadpool_limits = None


class Timer:
    """Accumulated wall time (s) per category; ``with timer("update"): ...``."""

    def __init__(self):
        self.seconds = {"update": 0.0, "matrix": 0.0}
        self._category = None

    def __call__(self, category):
        self._category = category
        return self

    def __enter__(self):
        self._start = time.perf_counter()

    def __exit__(self, *exc):
        self.seconds[self._category] += time.perf_counter() - self._start


class BDF1Equations:
    """Residual and Jacobian of one BDF-1 step of ``system`` with step ``h`` (s).

    Call :meth:`set_step` with the previous state before evaluating; unknowns
    ``x = (q, lam_hat)`` of size ``N = n + m``. The saddle-point Jacobian has a fixed sparsity
    pattern (element blocks, constraint Jacobian, constraint Hessian), computed once here, so
    each evaluation only sums values into it.
    """

    def __init__(self, system, h, timer=None):
        self.system = system
        self.h = float(h)
        self.n, self.m = system.n, system.m
        self.N = self.n + self.m
        self.eta = 1.0 / float(np.mean(system.mass.diagonal()))
        self.timer = timer if timer is not None else Timer()
        n, N = self.n, self.N
        q0 = np.zeros(n)
        cr, cc, _ = system.constraint_triplets(q0)
        hr, hc, _ = system.constraint_hessian_triplets(q0, np.ones(self.m))
        mrow = np.repeat(np.arange(n), np.diff(system.pattern_indptr))
        rows = np.concatenate([mrow, hr, n + cr, cc])
        cols = np.concatenate([system.pattern_indices, hc, cc, n + cr])
        keys = cols.astype(np.int64) * N + rows  # column-major: CSC order
        ukeys, self._positions = np.unique(keys, return_inverse=True)
        self._indices = (ukeys % N).astype(np.int32)
        self._indptr = np.searchsorted(ukeys // N, np.arange(N + 1)).astype(np.int32)
        self._nnz = ukeys.size

    @property
    def jacobian_pattern(self):
        """``(indices, indptr)`` of the CSC Jacobian (N, N): the same at every evaluation, so a
        Jacobian's ``data`` lists its values in this pattern's order."""
        return self._indices, self._indptr

    def set_step(self, q_prev, v_prev, t):
        self.q_pred = q_prev + self.h * v_prev
        self.t = t

    def residual(self, x, with_jacobian=False):
        """``R(x)`` (N,) and, if asked, the Jacobian (N, N) CSC."""
        with self.timer("update"):
            s, n, h2 = self.system, self.n, self.h**2
            q, lam = x[:n], x[n:]
            force, tangent, _ = s.elastic(q, with_tangent=with_jacobian)
            cr, cc, cv = s.constraint_triplets(q)
            R = np.empty(self.N)
            R[:n] = self.eta * (s.mass @ (q - self.q_pred) + h2 * (force - s.gravity_force))
            R[:n] += np.bincount(cc, cv * lam[cr], minlength=n)
            R[n:] = s.constraint(q, self.t)
            if not with_jacobian:
                return R
            hv = s.constraint_hessian_triplets(q, lam)[2]
            values = np.concatenate([self.eta * (s.mass_data + h2 * tangent), hv, cv, cv])
            data = np.bincount(self._positions, values, minlength=self._nnz)
            J = sp.csc_matrix((data, self._indices, self._indptr), shape=(self.N, self.N))
            return R, J


class NewtonStep:
    """Newton's method on the full BDF-1 equations, sparse LU each iteration.

    Converged when the position update satisfies ``max |dq| <= tol`` (m); fails after
    ``max_iter`` iterations.
    """

    def __init__(self, tol=1e-11, max_iter=25):
        if not tol > 0:
            raise ValueError(f"tol must be > 0, got {tol}")
        if int(max_iter) < 1:
            raise ValueError(f"max_iter must be >= 1, got {max_iter}")
        self.tol, self.max_iter = float(tol), int(max_iter)

    def setup(self, equations):
        self.eq = equations

    def solve(self, x):
        eq = self.eq
        for it in range(1, self.max_iter + 1):
            R, J = eq.residual(x, with_jacobian=True)
            with eq.timer("matrix"):
                dx = spla.splu(J).solve(-R)
            x = x + dx
            if np.max(np.abs(dx[:eq.n])) <= self.tol:
                return x, {"iterations": it, "converged": True}
        return x, {"iterations": self.max_iter, "converged": False}


@dataclass
class ModalResult:
    """Output of :func:`integrate`.

    ``t`` (n_out,) s; ``q``, ``v`` (n_out, n) coordinates and velocities; ``status`` "ok" or
    "diverged" (the results so far are kept); ``timing`` dict of seconds (``update``,
    ``matrix``, ``total`` of the time stepping, and ``setup`` before it); ``stats`` (steps, iterations); ``extra`` per-output arrays from the
    step solver (e.g. selected modes).
    """

    t: np.ndarray
    q: np.ndarray
    v: np.ndarray
    status: str = "ok"
    message: str = ""
    timing: dict = field(default_factory=dict)
    stats: dict = field(default_factory=dict)
    extra: dict = field(default_factory=dict)


def integrate(system, step, q0, v0, t_end, h, output_every=1, t0=0.0, blas_threads=1):
    """Integrate ``system`` from ``(q0, v0)`` at ``t0`` to ``t_end`` with BDF-1 steps ``h``.

    ``step`` is a step solver (:class:`NewtonStep` or an adaptive modal step) with ``setup``
    and ``solve``. Output every ``output_every`` steps (and the initial state).
    ``blas_threads`` limits the BLAS threads during the run (threadpoolctl; None: leave as
    is): the adaptive step does many small dense QR factorizations and products, which on a
    shared 2-core machine ran 40 times slower with OpenBLAS's default threads competing with
    other processes.
    """
    limit = (threadpool_limits(limits=blas_threads, user_api="blas")
             if blas_threads is not None and threadpool_limits is not None
             else contextlib.nullcontext())
    with limit:
        return _integrate(system, step, q0, v0, t_end, h, output_every, t0)


def _integrate(system, step, q0, v0, t_end, h, output_every, t0):
    h = float(h)
    if not h > 0:
        raise ValueError(f"h must be > 0, got {h}")
    if not t_end > t0:
        raise ValueError(f"t_end must be > t0 = {t0}, got {t_end}")
    if int(output_every) < 1:
        raise ValueError(f"output_every must be >= 1, got {output_every}")
    q = np.array(q0, dtype=float)
    v = np.array(v0, dtype=float)
    if q.shape != (system.n,) or v.shape != (system.n,):
        raise ValueError(f"q0 and v0 must have shape ({system.n},)")
    n_steps = int(round((t_end - t0) / h))
    timer = Timer()
    setup_start = time.perf_counter()
    eq = BDF1Equations(system, h, timer)
    step.setup(eq)  # the Craig-Bampton bases, sampling and saddle-point pattern
    setup = time.perf_counter() - setup_start
    x = np.concatenate([q, np.zeros(system.m)])
    ts, qs, vs, extras = [t0], [q.copy()], [v.copy()], []
    record = getattr(step, "record", None)
    if record is not None:
        extras.append(record(x, None))
    iterations, status, message = 0, "ok", ""
    start = time.perf_counter()
    for k in range(1, n_steps + 1):
        t = t0 + k * h
        eq.set_step(q, v, t)
        x_guess = np.concatenate([eq.q_pred, x[system.n:]])
        x_new, info = step.solve(x_guess)
        iterations += info["iterations"]
        if not info["converged"] or not np.all(np.isfinite(x_new)):
            status = "diverged"
            message = f"step solver did not converge at t = {t:.6g} s ({info})"
            break
        q_new = x_new[:system.n]
        v = (q_new - q) / h
        q, x = q_new, x_new
        if k % output_every == 0:
            ts.append(t); qs.append(q.copy()); vs.append(v.copy())
            if record is not None:
                extras.append(record(x, info))
    total = time.perf_counter() - start
    extra = {}
    if extras:
        extra = {key: np.array([e[key] for e in extras]) for key in extras[0]}
    return ModalResult(np.array(ts), np.array(qs), np.array(vs), status, message,
                       {**timer.seconds, "total": total, "setup": setup},
                       {"steps": k if status == "ok" else k - 1, "iterations": iterations},
                       extra)
