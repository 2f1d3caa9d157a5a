"""The DAE formulation compiled: a :class:`~rancf.formulations._problem.StepProblem` whose every
operation is C (theory: The DAE formulation; the equations are in rancf/formulations/dae.py).

Constraint rows are the terms of :class:`rancf.formulations.dae.ConstraintTable`:
``coef f(q_j(t)) x_i`` (linear), ``coef f x_i x_k`` (quadratic) and ``coef f`` (constant), with
``f`` one of 1, cos q, sin q, q of a driven joint j; their time derivatives follow from the
drive's (q, qd, qdd). Newton's matrix ``[[c_m M + c_k (K + d(Phi_x^T lam)/dx) + c_c C,
w Phi_x^T], [Phi_x, 0]]`` is summed on a pattern fixed when the formulation is built and
factored by LAPACK: ``"dense"`` (dgetrf; by blocks beyond 2048 unknowns, with a look at Ctrl-C
between them: :c:func:`dense_lu`) or ``"sparse"``: the rows and columns renumbered once
by reverse Cuthill-McKee (scipy.sparse.csgraph) so that the matrix is banded, then the banded
LU with partial pivoting (dgbtrf), O(n b^2) for bandwidth b: the ordering and the bandwidth are
the symbolic analysis, done once. The projection of paper eq. 15-17 solves saddle-point systems
``[W Phi_x^T; Phi_x 0]`` (W = I or M) with the same solver and its own factors.

The Jacobians of loads and efforts are central differences on the coordinates they touch.

The arithmetic runs without the GIL, so that runs in threads go on together: the forces, the
element blocks of Newton's matrix and every LU factorization and solve (Newton's and the
projection's; a dense matrix factored by blocks excepted, which looks at Ctrl-C between them),
each from ``NOGIL_FLOPS`` operations on (a small model's keep it: releasing it would cost more
than the threads gain). What needs Python is done before it, with the GIL: the model's input
functions (drives and load functions of t, ``_at``; efforts at the joint coordinates,
``_joints``). The projection calls no effort; its drives at t are evaluated by its first
constraint evaluation and kept for the rest of it.
"""
cimport numpy as cnp
from libc.math cimport cos, sin, fabs, sqrt, isfinite
from libc.string cimport memcpy, memset
from cpython.exc cimport PyErr_CheckSignals
from scipy.linalg.cython_blas cimport dgemm, dtrsm
from scipy.linalg.cython_lapack cimport dgetrf, dgetrs, dgbtrf, dgbtrs, dlaswp

import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import reverse_cuthill_mckee

from rancf.formulations._forces cimport (ModelData, ForceKernel, ANGLE, DIRECTION_FREE,
                                         attachment,
                                         applied_forces, element_forces,
                                         element_matrices, joint_coordinates, mass_times, powers,
                                         spring_forces)
from rancf.formulations._problem cimport StepProblem
from rancf.elements._beam cimport ELEMENT_BLOCK
from rancf.elements._planar cimport rotate
from rancf.formulations._forces import checked
from rancf.formulations._problem import ELEMENT_FORCE_FLOPS, NOGIL_FLOPS, factor_cost

cnp.import_array()

from rancf.joints._codes cimport CONSTANT, COS, SIN, LINEAR


#: Unknowns above which dense_lu factors by blocks. Up to it one dgetrf call, whose factors
#: stay LAPACK's own, bit for bit, at its speed, and which is short enough (about a second on
#: 2 cores) for a second Ctrl-C to wait for it; beyond it the blocks let Ctrl-C in between them,
#: at about dgetrf's cost on idle cores, more on busy ones, where threaded BLAS waits for its
#: threads at every call.
cdef int BLOCKED_ABOVE = 2048
#: Columns of a panel; floating-point operations of a chunk of the update right of it (0.05 s
#: at 20 GFlop/s): the longest stretch without a look at the signals.
cdef int PANEL = 256
cdef double CHUNK_FLOPS = 1e9


cdef int dense_lu(int n, double* a, int* ipiv) except -1:
    """LU factors with partial pivoting of the (n, n) column-major matrix ``a`` in place, as
    LAPACK's dgetrf (``P A = L U``, ``ipiv`` 1-based); the index of the first zero pivot
    (1-based), or 0.

    Up to ``BLOCKED_ABOVE`` unknowns one dgetrf call. Beyond, the right-looking blocked
    algorithm of dgetrf (Golub and Van Loan, Matrix Computations, 3.4.9): each panel of
    ``PANEL`` columns is factored by dgetrf, its row interchanges applied left and right of
    it, and the columns right of it updated, ``A12 <- L11^-1 A12`` (dtrsm) and ``A22 <- A22 -
    A21 A12`` (dgemm), in chunks of columns of ``CHUNK_FLOPS`` operations, with a look at the
    signals (Ctrl-C) before the first panel and after each panel and each chunk: a
    KeyboardInterrupt, or any exception a signal handler raises, propagates (-1) and leaves
    ``a`` half factored. The flops are dgetrf's, ``2 n^3 / 3``, and
    the factors equal dgetrf's to rounding (BLAS blocks the products differently).
    """
    cdef int info = 0, j, jb, i, c, nc, chunk, m, k1, k2, one = 1, panel_info = 0
    cdef double done = 1.0, minus = -1.0
    cdef char side = b'L', lower = b'L', notrans = b'N', unit = b'U'
    if n <= BLOCKED_ABOVE:
        dgetrf(&n, &n, a, &n, ipiv, &info)
        return info
    PyErr_CheckSignals()        # a Ctrl-C during the assembly (n^2 numbers written)
    for j in range(0, n, PANEL):
        jb = min(n - j, PANEL)
        m = n - j
        dgetrf(&m, &jb, a + j + <long>j * n, &n, ipiv + j, &panel_info)
        if panel_info > 0 and info == 0:
            info = panel_info + j
        for i in range(j, j + jb):
            ipiv[i] += j
        k1, k2 = j + 1, j + jb
        if j > 0:
            dlaswp(&j, a, &n, &k1, &k2, ipiv, &one)
        PyErr_CheckSignals()
        m = n - j - jb
        chunk = max(PANEL, <int>min(CHUNK_FLOPS / (2.0 * jb * max(m, 1)), <double>n))
        for c in range(j + jb, n, chunk):
            nc = min(n - c, chunk)
            dlaswp(&nc, a + <long>c * n, &n, &k1, &k2, ipiv, &one)
            dtrsm(&side, &lower, &notrans, &unit, &jb, &nc, &done, a + j + <long>j * n, &n,
                  a + j + <long>c * n, &n)
            if m > 0:
                dgemm(&notrans, &notrans, &m, &nc, &jb, &minus, a + j + jb + <long>j * n, &n,
                      a + j + <long>c * n, &n, &done, a + j + jb + <long>c * n, &n)
            PyErr_CheckSignals()
    return info


def lu_factor(matrix):
    """The LU factors of a square matrix by :c:func:`dense_lu`, as
    :func:`scipy.linalg.lu_factor` gives them.

    Parameters
    ----------
    matrix : array_like (n, n)

    Returns
    -------
    lu : ndarray (n, n)
        U in the upper triangle, L (unit diagonal) below it.
    piv : ndarray (n,)
        Row i was interchanged with row ``piv[i]`` (0-based).
    info : int
        The first zero pivot (1-based), or 0.
    """
    cdef double[::1, :] a = np.array(matrix, dtype=float, order="F", copy=True)
    cdef int n = a.shape[0]
    cdef int[::1] ipiv = np.zeros(max(n, 1), dtype=np.intc)
    if a.shape[1] != n:
        raise ValueError(f"matrix must be square, got shape {a.shape[0]} x {a.shape[1]}")
    info = dense_lu(n, &a[0, 0], &ipiv[0]) if n else 0
    return np.asarray(a), np.asarray(ipiv)[:n] - 1, info


cdef class LinearSystem:
    """LU factors of an (N, N) saddle-point matrix ``[[A, B^T], [C, 0]]`` (A: n x n) given on a
    fixed sparsity pattern: dense (dgetrf) or, after a reverse Cuthill-McKee renumbering
    computed once, banded (dgbtrf).

    The matrix is equilibrated before the LU, ``D S D`` with D diagonal: ``1 / sqrt|A_ii|``
    for the first n unknowns (the mass or Newton block to a unit diagonal), then for each
    constraint row ``1 / max_j |C_ij D_j|`` (its largest scaled entry to 1). Partial pivoting
    alone fails on the raw system of a small model: a millimetre beam's slope inertias
    (1e-17 kg m^2) beside constraint entries of 1 make its condition number about 1e17; the
    scaled system's condition number is that of the physics. ``solve`` undoes the scaling
    (``x = D (D S D)^-1 D b``).
    """

    cdef int N, n, kl, ku, ldab
    cdef bint banded, release_factor, release_solve
    cdef int[::1] rows, cols, iperm, ipiv
    cdef double[::1] work, rhs, scale

    def __init__(self, int N, int n, rows, cols, bint banded):
        self.N, self.n, self.banded = N, n, banded
        self.rows = np.ascontiguousarray(rows, dtype=np.intc)
        self.cols = np.ascontiguousarray(cols, dtype=np.intc)
        self.ipiv = np.zeros(max(N, 1), dtype=np.intc)
        self.rhs = np.zeros(max(N, 1))
        self.scale = np.ones(max(N, 1))
        if banded:
            pattern = sp.csr_matrix((np.ones(len(rows)), (rows, cols)), shape=(N, N))
            perm = reverse_cuthill_mckee((pattern + pattern.T).tocsr(), symmetric_mode=True)
            iperm = np.empty(N, dtype=np.intc)
            iperm[perm] = np.arange(N, dtype=np.intc)
            self.iperm = iperm
            d = iperm[np.asarray(rows)] - iperm[np.asarray(cols)]
            self.kl = max(int(d.max()) if len(d) else 0, 0)
            self.ku = max(int(-d.min()) if len(d) else 0, 0)
            self.ldab = 2 * self.kl + self.ku + 1
            self.work = np.zeros(self.ldab * max(N, 1))
        else:
            self.iperm = np.arange(max(N, 1), dtype=np.intc)
            self.work = np.zeros(max(N * N, 1))
        factor_flops, solve_flops = self.flops()
        self.release_factor = factor_flops >= NOGIL_FLOPS
        self.release_solve = solve_flops >= NOGIL_FLOPS

    def flops(self):
        """(factorization, solve) floating-point operations: banded ``2 N kl (kl + ku + 1)``,
        ``2 N (2 kl + ku + 1)``; dense ``2 N^3 / 3``, ``2 N^2``."""
        cdef double N = self.N
        if self.banded:
            return 2.0 * N * self.kl * (self.kl + self.ku + 1), 2.0 * N * (2 * self.kl + self.ku + 1)
        return 2.0 * N ** 3 / 3.0, 2.0 * N * N

    @property
    def bandwidth(self):
        """(kl, ku) of the renumbered matrix (banded), or None (dense)."""
        return (self.kl, self.ku) if self.banded else None

    cdef void _equilibrate(self, const double* values) noexcept nogil:
        """The scaling D of the class docstring from the values (duplicates summed on the
        diagonal; a constraint row's largest entry taken term by term, which is as good a
        scale)."""
        cdef int k, r, c, N = self.N, n = self.n
        cdef double* d = &self.scale[0]
        cdef double a
        memset(d, 0, N * sizeof(double))
        for k in range(self.rows.shape[0]):
            r, c = self.rows[k], self.cols[k]
            if r == c and r < n:
                d[r] += values[k]
        for r in range(n):
            d[r] = 1.0 / sqrt(fabs(d[r])) if d[r] != 0.0 else 1.0
        for k in range(self.rows.shape[0]):
            r, c = self.rows[k], self.cols[k]
            if r >= n and c < n:
                a = fabs(values[k]) * d[c]
                if a > d[r]:
                    d[r] = a
        for r in range(n, N):
            d[r] = 1.0 / d[r] if d[r] > 0.0 else 1.0

    cdef int factor(self, const double* values) except -1:
        """Factor the matrix with ``values[k]`` at ``(rows[k], cols[k])`` (duplicates summed),
        equilibrated. Without the GIL (C and LAPACK only; runs in other threads go on meanwhile)
        from ``NOGIL_FLOPS`` on, but for a dense matrix factored by blocks, whose looks at Ctrl-C
        need it."""
        cdef int info = 0, N = self.N
        if not self.banded and N > BLOCKED_ABOVE:
            self._scatter(values)
            # by blocks, with a look at Ctrl-C between them
            info = dense_lu(N, &self.work[0], &self.ipiv[0])
        elif self.release_factor:
            with nogil:
                info = self._factor(values)
        else:
            info = self._factor(values)
        if info > 0:
            raise ArithmeticError(f"the matrix is singular (LAPACK pivot {info} is zero)")
        return 0

    cdef void _scatter(self, const double* values) noexcept nogil:
        """The equilibrated matrix into ``work``: banded (LAPACK's band storage, rows and columns
        renumbered) or dense (column-major)."""
        cdef int k, r, c, N = self.N, kl = self.kl, ku = self.ku, ldab = self.ldab
        cdef double* w = &self.work[0]
        cdef const double* d = &self.scale[0]
        self._equilibrate(values)
        if self.banded:
            memset(w, 0, ldab * N * sizeof(double))
            for k in range(self.rows.shape[0]):
                r, c = self.iperm[self.rows[k]], self.iperm[self.cols[k]]
                w[kl + ku + r - c + c * ldab] += values[k] * d[self.rows[k]] * d[self.cols[k]]
        else:
            memset(w, 0, N * N * sizeof(double))
            for k in range(self.rows.shape[0]):
                r, c = self.rows[k], self.cols[k]
                w[r + c * N] += values[k] * d[r] * d[c]

    cdef int _factor(self, const double* values) noexcept nogil:
        """:meth:`factor` of a banded matrix or a dense one of at most ``BLOCKED_ABOVE``
        unknowns (one dgetrf call): LAPACK's info."""
        cdef int info = 0, N = self.N, kl = self.kl, ku = self.ku, ldab = self.ldab
        self._scatter(values)
        if self.banded:
            dgbtrf(&N, &N, &kl, &ku, &self.work[0], &ldab, &self.ipiv[0], &info)
        else:
            dgetrf(&N, &N, &self.work[0], &N, &self.ipiv[0], &info)
        return info

    cdef int solve(self, double* x) except -1:
        """x <- S^-1 x with the last factors, without the GIL from ``NOGIL_FLOPS`` on."""
        if self.release_solve:
            with nogil:
                self._solve(x)
        else:
            self._solve(x)
        return 0

    cdef void _solve(self, double* x) noexcept nogil:
        cdef int i, info = 0, N = self.N, kl = self.kl, ku = self.ku, ldab = self.ldab, one = 1
        cdef char trans = b'N'
        cdef const double* d = &self.scale[0]
        if self.banded:
            for i in range(N):
                self.rhs[self.iperm[i]] = x[i] * d[i]
            dgbtrs(&trans, &N, &kl, &ku, &one, &self.work[0], &ldab, &self.ipiv[0], &self.rhs[0],
                   &N, &info)
            for i in range(N):
                x[i] = self.rhs[self.iperm[i]] * d[i]
        else:
            for i in range(N):
                x[i] *= d[i]
            dgetrs(&trans, &N, &one, &self.work[0], &N, &self.ipiv[0], x, &N, &info)
            for i in range(N):
                x[i] *= d[i]


cdef class DAEKernel(StepProblem):
    """The DAE formulation of a model, compiled (module docstring).

    Built by :class:`rancf.formulations.dae.DAE`, which gives the constraint terms (``table``),
    the Newton matrix pattern (``parts``: name -> (rows, cols), in the order the values are
    summed; ``diagonal``: positions in ``el``/``body`` of the diagonal entries), the load
    difference pattern and the projection mode.
    """

    formulation = "dae"

    cdef ForceKernel forces
    cdef object inputs
    cdef ModelData* md
    cdef readonly bint timed, effort_timed, rheonomic
    cdef int n_lin, n_quad, n_const, n_g, n_el, n_body, n_fdx, n_fdv
    cdef int[::1] lin_row, lin_col, lin_mode, lin_joint
    cdef int[::1] quad_row, quad_i, quad_k, quad_mode, quad_joint
    cdef int[::1] const_row, const_mode, const_joint
    cdef double[::1] lin_coef, quad_coef, const_coef
    cdef double[:, ::1] fl, fq, fc
    cdef double terms_t
    cdef bint terms_valid
    cdef int[::1] g_rows, g_cols
    cdef double[::1] gvals, body_diag, values, blocks, xs, vs, Fp, Fm, scratch
    cdef double[::1] no_lam         # zeros (m): the multipliers of the projection's matrix
    cdef bint release_forces        # the forces run without the GIL (NOGIL_FLOPS)
    cdef int[::1] fdx_cols, fdx_ptr, fdx_rows, fdv_cols, fdv_ptr, fdv_rows
    cdef int off_el, off_body, off_fdx, off_fdv, off_curv, off_B, off_G, nnz_parts
    cdef int[::1] diag_pos
    cdef LinearSystem lu, lu_proj
    cdef readonly object csc_indices, csc_indptr, csc_map
    cdef double[::1] q_j, qd_j, qref
    cdef double last_t
    cdef list kept                  # the input functions' values at the run's outputs
    cdef tuple kept_names           # the inputs' arrays those functions write
    cdef public object owner

    def __init__(self, ForceKernel forces, inputs, table, parts, diagonal, fd_x, fd_v, qref0,
                 bint banded, projection=False):
        self.forces, self.inputs = forces, inputs
        self.md = &forces.data
        self.n, self.m = forces.n_x, table.n_rows
        self.projection = projection
        self.timed, self.effort_timed = inputs.time_dependent, inputs.effort_dependent
        ints = lambda a: np.ascontiguousarray(a, dtype=np.intc)
        floats = lambda a: np.ascontiguousarray(a, dtype=float)
        L, Q, C = table.lin, table.quad, table.const
        self.n_lin, self.n_quad, self.n_const = len(L["row"]), len(Q["row"]), len(C["row"])
        pad = lambda a, f: f(np.concatenate([np.asarray(a), np.zeros(1, dtype=np.asarray(a).dtype)]))
        self.lin_row, self.lin_col = pad(L["row"], ints), pad(L["col"], ints)
        self.lin_mode, self.lin_joint, self.lin_coef = pad(L["mode"], ints), pad(L["joint"], ints), pad(L["coef"], floats)
        self.quad_row, self.quad_i, self.quad_k = pad(Q["row"], ints), pad(Q["i"], ints), pad(Q["k"], ints)
        self.quad_mode, self.quad_joint, self.quad_coef = pad(Q["mode"], ints), pad(Q["joint"], ints), pad(Q["coef"], floats)
        self.const_row, self.const_mode = pad(C["row"], ints), pad(C["mode"], ints)
        self.const_joint, self.const_coef = pad(C["joint"], ints), pad(C["coef"], floats)
        self.fl = np.ones((3, self.n_lin + 1))
        self.fq = np.ones((3, self.n_quad + 1))
        self.fc = np.ones((3, self.n_const + 1))
        self.rheonomic = bool(np.any(np.asarray(L["mode"]) != 0) or np.any(np.asarray(Q["mode"]) != 0)
                              or np.any(np.asarray(C["mode"]) != 0))
        self.terms_valid = False
        self.n_g = self.n_lin + 2 * self.n_quad
        self.g_rows = pad(np.concatenate([L["row"], Q["row"], Q["row"]]), ints)
        self.g_cols = pad(np.concatenate([L["col"], Q["i"], Q["k"]]), ints)
        self.gvals = np.zeros(self.n_g + 1)
        # Newton matrix: the parts in a fixed order, one value each
        order = ("el", "body", "fd_x", "fd_v", "curv", "B", "G")
        sizes = [len(parts[k][0]) for k in order]
        offsets = np.concatenate([[0], np.cumsum(sizes)])
        (self.off_el, self.off_body, self.off_fdx, self.off_fdv, self.off_curv, self.off_B,
         self.off_G) = (int(o) for o in offsets[:-1])
        self.nnz_parts = int(offsets[-1])
        rows = np.concatenate([np.asarray(parts[k][0], dtype=np.int64) for k in order])
        cols = np.concatenate([np.asarray(parts[k][1], dtype=np.int64) for k in order])
        N = self.n + self.m
        self.lu = LinearSystem(N, self.n, rows, cols, banded)
        self.factor_cost = factor_cost(self.md.n_el, *self.lu.flops())
        self.lu_proj = LinearSystem(N, self.n, rows, cols, banded) if projection else None
        keys = cols * N + rows
        uniq, inverse = np.unique(keys, return_inverse=True)
        self.csc_indices = (uniq % N).astype(np.int32)
        self.csc_indptr = np.concatenate([[0], np.cumsum(np.bincount(uniq // N, minlength=N))]).astype(np.int32)
        self.csc_map = inverse
        self.values = np.zeros(max(self.nnz_parts, 1))
        self.n_el = self.md.n_el
        self.blocks = np.zeros(max(self.n_el, 1) * ELEMENT_BLOCK)
        self.body_diag = floats(parts["body_diag"]) if len(parts["body_diag"]) else np.zeros(1)
        self.n_body = len(parts["body_diag"])
        self.diag_pos = ints(diagonal)
        self.n_fdx, self.n_fdv = len(fd_x[0]), len(fd_v[0])
        self.fdx_cols, self.fdx_ptr, self.fdx_rows = (ints(a) for a in fd_x[2:])
        self.fdv_cols, self.fdv_ptr, self.fdv_rows = (ints(a) for a in fd_v[2:])
        n = self.n
        self.xs, self.vs, self.Fp, self.Fm, self.scratch = (np.zeros(n) for _ in range(5))
        self.no_lam = np.zeros(max(self.m, 1))
        self.release_forces = self.n_el * ELEMENT_FORCE_FLOPS >= NOGIL_FLOPS
        nj = max(self.md.n_joints, 1)
        self.q_j, self.qd_j, self.qref = np.zeros(nj), np.zeros(nj), np.zeros(nj)
        np.asarray(self.qref)[:len(qref0)] = qref0
        self.n_branch = self.md.n_joints
        self.last_t = np.nan
        self.kept = []
        self.kept_names = ((("drive",) if inputs.driven else ()) +
                           (("load_force", "load_moment") if inputs.timed else ()) +
                           (("effort",) if inputs.effort_joints else ()))

    @property
    def linear_system(self):
        return self.lu

    cdef void keep_branch(self, double* out) noexcept:
        """The branch of the joint angles, those of the last accepted state."""
        memcpy(out, &self.qref[0], self.md.n_joints * sizeof(double))

    cdef void use_branch(self, const double* row) noexcept:
        memcpy(&self.qref[0], row, self.md.n_joints * sizeof(double))

    def observe(self, q, v, a, t, lam):
        """Joint coordinates and reactions at an output (by the owning DAE, from the state's own
        multipliers, not the scheme's ``lam``)."""
        return self.owner.observe(q, v, t)

    def observe_frames(self, t, q, v, a, lam, branches):
        """:meth:`observe` of every output, deferred to when the Result is first asked for
        them (a stored frame holds the state; developer: Results, files and sweeps): ``nodes`` a
        :class:`~rancf.formulations.recursive.StoredFrames` of :meth:`frames` of the kept
        states and branches, on a DAE of the assembly made then
        (:func:`~rancf.formulations.dae.stored_frames`: the run's kernel and factors are not
        kept); the reactions of held joints (a saddle-point solve per output for the state's
        multipliers) a :class:`~rancf.formulations.dae.HeldReactions`, zeros where no joint
        is held. Both play back the values the model's input functions gave at the outputs,
        kept by the loop (:meth:`keep_inputs`), which are ``inputs`` too (a
        :class:`~rancf.formulations.inputs.Recorded`, or None), for the Result's other
        outputs."""
        from rancf.formulations.dae import HeldReactions, stored_frames
        cdef Py_ssize_t n_out = len(t)
        t = np.array(t, dtype=float)
        branches = np.ascontiguousarray(branches, dtype=float).reshape(n_out, self.n_branch)
        table = self.owner.table
        recorded = self.recorded(t)
        nodes = stored_frames(self.owner.assembly, t, q, v, branches, recorded)
        if ((np.asarray(table.slide_row) >= 0) | (np.asarray(table.angle_row) >= 0)).any():
            reactions = HeldReactions(self.owner.assembly, t, np.asarray(q).reshape(n_out, -1),
                                      np.asarray(v).reshape(n_out, -1), branches, recorded)
        else:
            reactions = np.zeros((n_out, self.md.n_joints))
        return {"nodes": nodes, "reactions": reactions, "inputs": recorded}

    def frames(self, t, q, v, branches):
        """The node coordinates and velocities (n_out, n: copies of q and v) and the joint
        coordinates and rates (n_out, n_joints) of the states (q, v) at the times t (n_out,),
        each on its branch (``branches`` (n_out, n_branch): the rows the loop kept), in one
        loop; the current branch restored after."""
        cdef double[::1] tt = np.ascontiguousarray(t, dtype=float)
        cdef double[:, ::1] qq = np.ascontiguousarray(q, dtype=float).reshape(-1, self.n)
        cdef double[:, ::1] vv = np.ascontiguousarray(v, dtype=float).reshape(-1, self.n)
        cdef double[:, ::1] bb = np.ascontiguousarray(branches, dtype=float).reshape(
            tt.shape[0], self.n_branch)
        cdef Py_ssize_t k, n_out = tt.shape[0]
        cdef int nj = self.md.n_joints
        cdef double[::1] now = np.asarray(self.qref).copy()
        joint_q, joint_qd = np.empty((n_out, nj)), np.empty((n_out, nj))
        cdef double[:, ::1] Q = joint_q, QD = joint_qd
        try:
            for k in range(n_out):
                if nj:
                    self.use_branch(&bb[k, 0])
                self._at(tt[k])
                self._joints(&qq[k, 0], &vv[k, 0], tt[k])
                if nj:
                    memcpy(&Q[k, 0], &self.q_j[0], nj * sizeof(double))
                    memcpy(&QD[k, 0], &self.qd_j[0], nj * sizeof(double))
        finally:
            self.use_branch(&now[0])
        return np.array(qq), np.array(vv), joint_q, joint_qd

    def frame_multipliers(self, t, q, v, branches):
        """The multipliers (n_out, n_constraints) of the states (q, v) (n_out, n) at times t
        (n_out,), each on its branch (``branches`` (n_out, n_branch): the rows the loop kept
        with them): :meth:`rancf.formulations.dae.DAE.multipliers` of each, the current
        branch restored after."""
        cdef double[:, ::1] bb = np.ascontiguousarray(branches, dtype=float).reshape(
            len(t), self.n_branch)
        cdef double[::1] now = np.asarray(self.qref).copy()
        cdef Py_ssize_t k
        out = np.empty((len(t), self.m))
        try:
            for k in range(len(t)):
                if self.md.n_joints:
                    self.use_branch(&bb[k, 0])
                out[k] = self.owner.multipliers(q[k], v[k], t[k])
        finally:
            self.use_branch(&now[0])
        return out

    # --- inputs, terms, forces ----------------------------------------------------------------
    cdef int _at(self, double t) except -1:
        """Drives and load functions at t, and the constraint terms' time factors."""
        if self.timed and t != self.last_t:
            self.inputs.at_time(t)
            self.last_t = t
        if not self.terms_valid or (self.rheonomic and t != self.terms_t):
            self._factors(self.fl, self.lin_mode, self.lin_joint, self.n_lin)
            self._factors(self.fq, self.quad_mode, self.quad_joint, self.n_quad)
            self._factors(self.fc, self.const_mode, self.const_joint, self.n_const)
            self.terms_t, self.terms_valid = t, True
        return 0

    cdef void _factors(self, double[:, ::1] f, int[::1] mode, int[::1] joint, int n) noexcept:
        """f, df/dt, d2f/dt2 of each term's coefficient from its drive's q, qd, qdd."""
        cdef int k
        cdef double q, qd, qdd, c, s
        cdef const double* dr = self.md.drive
        for k in range(n):
            if mode[k] == CONSTANT:
                f[0, k], f[1, k], f[2, k] = 1.0, 0.0, 0.0
                continue
            q, qd, qdd = dr[3 * joint[k]], dr[3 * joint[k] + 1], dr[3 * joint[k] + 2]
            c, s = cos(q), sin(q)
            if mode[k] == COS:
                f[0, k], f[1, k], f[2, k] = c, -s * qd, -c * qd * qd - s * qdd
            elif mode[k] == SIN:
                f[0, k], f[1, k], f[2, k] = s, c * qd, -s * qd * qd + c * qdd
            else:
                f[0, k], f[1, k], f[2, k] = q, qd, qdd

    cdef int _joints(self, const double* x, const double* v, double t) except -1:
        """q_j, qd_j at (x, v), the angles on the branch of the last accepted state (qref), and
        the efforts at them."""
        joint_coordinates(self.md, x, v, &self.qref[0], &self.q_j[0], &self.qd_j[0])
        if self.effort_timed:
            np.asarray(self.inputs.q)[:] = np.asarray(self.q_j)
            np.asarray(self.inputs.qd)[:] = np.asarray(self.qd_j)
            self.inputs.efforts(t)
        return 0

    def recorded(self, t):
        """The input values :meth:`keep_inputs` kept at the outputs of times t (n_out,), s: a
        :class:`~rancf.formulations.inputs.Recorded`, or None where the model has no input
        function."""
        from rancf.formulations.inputs import Recorded
        return Recorded(t, self.kept[:len(t)]) if self.kept_names else None

    def keep_inputs(self, long k, double t, const double[::1] x, const double[::1] v):
        """Keeps the values the model's input functions give at the loop's output k, the
        converged state (x, v) (n) at t (the implicit loop calls it at each output): the drive,
        load and effort arrays they write (:class:`~rancf.formulations.inputs.Recorded`, built
        from them by :meth:`observe_frames`). The loop's last evaluation there computed them
        (its power at the converged state, after :meth:`accept`'s): they are copied; a function
        is called only where that evaluation was at another state or time (generalized-alpha-S
        takes its power at the intermediate point). Output 0 starts a new run's record."""
        cdef int j, nj = self.md.n_joints
        cdef double[::1] held_q, held_qd
        cdef bint same
        if k == 0:
            self.kept = []
        if not self.kept_names:
            return
        self._at(t)
        if self.effort_timed:
            joint_coordinates(self.md, &x[0], &v[0], &self.qref[0], &self.q_j[0], &self.qd_j[0])
            held_q, held_qd = self.inputs.q, self.inputs.qd
            # the inputs' arrays hold the values of their last call, at their q, qd
            same = t == self.inputs.effort_t
            for j in range(nj):
                same = same and held_q[j] == self.q_j[j] and held_qd[j] == self.qd_j[j]
            if not same:
                self._joints(&x[0], &v[0], t)
        self.kept.append({name: getattr(self.inputs, name).copy() for name in self.kept_names})

    cdef int _loads(self, const double* x, const double* v, double t, double* out) except -1:
        """Loads, efforts and spring-dampers (no gravity, no element forces) at (x, v, t): the
        forces whose Newton blocks are differenced (the load groups)."""
        cdef ModelData e = self.md[0]
        self._joints(x, v, t)
        e.gravity = NULL
        memset(out, 0, self.n * sizeof(double))
        applied_forces(&e, x, v, &self.q_j[0], &self.qd_j[0], out)
        spring_forces(&e, x, v, &self.q_j[0], &self.qd_j[0], out)
        return 0

    cdef int accept(self, const double* q, const double* v, double t) except -1:
        """The branch of the joint angles follows the accepted state (theory: Joint coordinates),
        which must hold its joints as meant (:meth:`_held`): ``ArithmeticError`` otherwise."""
        cdef int j
        self._at(t)
        self._joints(q, v, t)
        for j in range(self.md.n_joints):
            if not (isfinite(self.q_j[j]) and isfinite(self.qd_j[j]) and self._held(q, j)):
                raise ArithmeticError(self._degenerate(q, j))
        memcpy(&self.qref[0], &self.q_j[0], self.md.n_joints * sizeof(double))
        return 0

    cdef bint _held(self, const double* x, int j) noexcept:
        """Whether joint j's held angle holds on its branch: ``(R(q) p) . c > 0`` for the
        parent's and child's directions p, c and the held angle q (a fixed joint's or a
        prismatic joint's initial one, a driven revolute joint's drive). The constraint row
        ``p^T B(q) c = |p| |c| sin(phi_c - phi_p - q) = 0`` also holds with the child turned
        half a turn, or with p or c of zero length, which Newton's iterations may reach at a
        large step (the child's direction passing through zero); neither is the joint."""
        cdef double ra[2]
        cdef double p[2]
        cdef double rc[2]
        cdef double c[2]
        cdef double rp[2]
        cdef double held
        cdef bint driven_angle
        cdef const ModelData* d = self.md
        driven_angle = d.j_driven[j] and d.j_coordinate[j] == ANGLE
        if d.j_direction[j] == DIRECTION_FREE and not driven_angle:
            return True
        held = d.drive[3 * j] if driven_angle else d.j_theta0[j]
        attachment(d, d.p_kind[j], d.p_vertex[j], d.p_offset + 2 * j, d.p_angle[j], x, NULL,
                   ra, p, NULL, NULL)
        attachment(d, d.c_kind[j], d.c_vertex[j], d.c_offset + 2 * j, 0.0, x, NULL, rc, c,
                   NULL, NULL)
        rotate(held, p, rp)
        return rp[0] * c[0] + rp[1] * c[1] > 0.0

    cdef str _degenerate(self, const double* x, int j):
        """What is wrong with joint j at the state x, and what to change, in words."""
        cdef double ra[2]
        cdef double p[2]
        cdef double rc[2]
        cdef double c[2]
        cdef const ModelData* d = self.md
        attachment(d, d.p_kind[j], d.p_vertex[j], d.p_offset + 2 * j, d.p_angle[j], x, NULL,
                   ra, p, NULL, NULL)
        attachment(d, d.c_kind[j], d.c_vertex[j], d.c_offset + 2 * j, 0.0, x, NULL, rc, c,
                   NULL, NULL)
        kind = self.owner.assembly.joints[j].kind
        if p[0] == 0.0 and p[1] == 0.0 or c[0] == 0.0 and c[1] == 0.0:
            side = "parent" if p[0] == 0.0 and p[1] == 0.0 else "child"
            what = (f"the direction of its {side} (a beam's slope or a body's axis) has "
                    "collapsed to zero length, so the joint's angle (a prismatic joint's rail) is "
                    "undefined")
        else:
            what = ("its child turned over against the held angle (half a turn: its direction "
                    "passed through zero length)")
        return (f"joint {j} ({kind}): {what}; the step is too large for this model (reduce dt) "
                "or its beams too soft for their load (stiffen them, or refine them near the "
                "joint)")

    cdef int mass_action(self, const double* q, double t, const double* a, double* out) except -1:
        mass_times(self.md, a, out)
        return 0

    cdef int force(self, const double* q, const double* v, double t, double* out) except -1:
        """The model's Python inputs first (drives and loads of t, efforts at the joint
        coordinates), then the forces in C, without the GIL from ``NOGIL_FLOPS`` on."""
        self._at(t)
        self._joints(q, v, t)
        if self.release_forces:
            with nogil:
                self._forces(q, v, out)
        else:
            self._forces(q, v, out)
        return 0

    cdef void _forces(self, const double* q, const double* v, double* out) noexcept nogil:
        """out (n) = applied, element and spring-damper forces at (q, v), the inputs and joint
        coordinates where :meth:`force` left them."""
        cdef double U
        memset(out, 0, self.n * sizeof(double))
        applied_forces(self.md, q, v, &self.q_j[0], &self.qd_j[0], out)
        element_forces(self.md, q, v, out, &U)
        spring_forces(self.md, q, v, &self.q_j[0], &self.qd_j[0], out)

    # --- constraints --------------------------------------------------------------------------
    cdef void _phi(self, const double* q, int which, double* out) noexcept:
        """out = sum of the terms' d^which/dt^which f times their coordinates (m,)."""
        cdef int k
        memset(out, 0, self.m * sizeof(double))
        for k in range(self.n_lin):
            out[self.lin_row[k]] += self.lin_coef[k] * self.fl[which, k] * q[self.lin_col[k]]
        for k in range(self.n_quad):
            out[self.quad_row[k]] += (self.quad_coef[k] * self.fq[which, k] * q[self.quad_i[k]]
                                      * q[self.quad_k[k]])
        for k in range(self.n_const):
            out[self.const_row[k]] += self.const_coef[k] * self.fc[which, k]

    cdef void _jacobian(self, const double* q, int which) noexcept:
        """gvals = the entries of d/dt^which Phi_x at q (pattern g_rows, g_cols)."""
        cdef int k, nl = self.n_lin, nq = self.n_quad
        for k in range(nl):
            self.gvals[k] = self.lin_coef[k] * self.fl[which, k]
        for k in range(nq):
            self.gvals[nl + k] = self.quad_coef[k] * self.fq[which, k] * q[self.quad_k[k]]
            self.gvals[nl + nq + k] = self.quad_coef[k] * self.fq[which, k] * q[self.quad_i[k]]

    cdef void _rate(self, const double* x, double* out) noexcept:
        """out (m) += gvals x (the Jacobian of the last _jacobian times x)."""
        cdef int k
        for k in range(self.n_g):
            out[self.g_rows[k]] += self.gvals[k] * x[self.g_cols[k]]

    cdef int constraint(self, const double* q, double t, double* out) except -1:
        self._at(t)
        self._phi(q, 0, out)
        return 0

    cdef int constraint_force(self, const double* q, const double* lam, double t,
                              double* out) except -1:
        cdef int k
        self._at(t)
        self._jacobian(q, 0)
        memset(out, 0, self.n * sizeof(double))
        for k in range(self.n_g):
            out[self.g_cols[k]] += self.gvals[k] * lam[self.g_rows[k]]
        return 0

    cdef int acceleration_bias(self, const double* q, const double* v, double t,
                               double* out) except -1:
        """xi = (Phi_x v)_x v + 2 Phi_xt v + Phi_tt."""
        cdef int k
        self._at(t)
        self._phi(q, 2, out)
        for k in range(self.n_quad):
            out[self.quad_row[k]] += (2.0 * self.quad_coef[k] * self.fq[0, k] * v[self.quad_i[k]]
                                      * v[self.quad_k[k]])
        if self.rheonomic:
            self._jacobian(q, 1)
            for k in range(self.n_g):
                out[self.g_rows[k]] += 2.0 * self.gvals[k] * v[self.g_cols[k]]
        return 0

    cdef int velocity_bias(self, const double* q, double t, double* out) except -1:
        self._at(t)
        self._phi(q, 1, out)
        return 0

    # --- Newton matrix ------------------------------------------------------------------------
    cdef int _difference(self, const double* x, const double* v, double t, bint in_x,
                         double* out) except -1:
        """Central differences of -loads in x (or v) on the pattern of the load groups."""
        cdef int[::1] cols = self.fdx_cols if in_x else self.fdv_cols
        cdef int[::1] ptr = self.fdx_ptr if in_x else self.fdv_ptr
        cdef int[::1] rows = self.fdx_rows if in_x else self.fdv_rows
        cdef const double* base = x if in_x else v
        cdef double h
        cdef int c, j, col
        cdef double* moved = &self.xs[0] if in_x else &self.vs[0]
        memcpy(&self.xs[0], x, self.n * sizeof(double))
        memcpy(&self.vs[0], v, self.n * sizeof(double))
        for c in range(cols.shape[0]):
            col = cols[c]
            h = 1e-7 * max(1.0, fabs(base[col]))
            moved[col] = base[col] + h
            self._loads(&self.xs[0], &self.vs[0], t, &self.Fp[0])
            moved[col] = base[col] - h
            self._loads(&self.xs[0], &self.vs[0], t, &self.Fm[0])
            moved[col] = base[col]
            for j in range(ptr[c], ptr[c + 1]):
                out[j] = -(self.Fp[rows[j]] - self.Fm[rows[j]]) / (2.0 * h)
        return 0

    cdef int _assemble(self, const double* q_e, const double* a_e, const double* lam,
                       const double* v_e, double t_e, const double* q_new, double t_new,
                       double c_m, double c_k, double c_c, double w) except -1:
        """values = the entries of Newton's matrix, part by part."""
        cdef int i, k
        cdef double* val = &self.values[0]
        self._at(t_e)
        with nogil:
            element_matrices(self.md, q_e, v_e, c_m, c_k, c_c, val + self.off_el)
            for i in range(self.n_body):
                val[self.off_body + i] = c_m * self.body_diag[i]
        for i in range(self.off_fdx, self.off_curv):
            val[i] = 0.0
        if c_k != 0.0 and self.n_fdx:
            self._difference(q_e, v_e, t_e, True, val + self.off_fdx)
            for i in range(self.n_fdx):
                val[self.off_fdx + i] *= c_k
        if c_c != 0.0 and self.n_fdv:
            self._difference(q_e, v_e, t_e, False, val + self.off_fdv)
            for i in range(self.n_fdv):
                val[self.off_fdv + i] *= c_c
        if self.m:
            self._at(t_e)
            for k in range(self.n_quad):
                val[self.off_curv + k] = c_k * lam[self.quad_row[k]] * self.quad_coef[k] * self.fq[0, k]
                val[self.off_curv + self.n_quad + k] = val[self.off_curv + k]
            self._jacobian(q_e, 0)
            for k in range(self.n_g):
                val[self.off_G + k] = w * self.gvals[k]
            self._at(t_new)
            self._jacobian(q_new, 0)
            for k in range(self.n_g):
                val[self.off_B + k] = self.gvals[k]
        return 0

    cdef int factor(self, const double* q_e, const double* a_e, const double* lam,
                    const double* v_e, double t_e, const double* q_new, double t_new, double c_m,
                    double c_mq, double c_k, double c_c, double w) except -1:
        self._assemble(q_e, a_e, lam, v_e, t_e, q_new, t_new, c_m, c_k, c_c, w)
        self.lu.factor(&self.values[0])
        return 0

    cdef int solve(self, double* x) except -1:
        return self.lu.solve(x)

    def _newton_arguments(self, q_e, a_e, lam, v_e, q_new):
        """The checked arrays of :meth:`matrix` and :meth:`py_factor` (lam padded to >= 1)."""
        ll = np.zeros(max(self.m, 1))
        ll[:self.m] = checked("lam", lam, self.m)
        return (checked("q_e", q_e, self.n), checked("a_e", a_e, self.n), ll,
                checked("v_e", v_e, self.n), checked("q_new", q_new, self.n))

    def matrix(self, q_e, a_e, lam, v_e, t_e, q_new, t_new, c_m, c_mq, c_k, c_c, w):
        """The assembled Newton matrix (CSC, on the fixed pattern ``csc_indices, csc_indptr``)."""
        cdef double[::1] qe, ae, ll, ve, qn
        qe, ae, ll, ve, qn = self._newton_arguments(q_e, a_e, lam, v_e, q_new)
        self._assemble(&qe[0], &ae[0], &ll[0], &ve[0], t_e, &qn[0], t_new, c_m, c_k, c_c, w)
        data = np.bincount(self.csc_map, np.asarray(self.values)[:self.nnz_parts],
                           minlength=len(self.csc_indices))
        N = self.n + self.m
        return sp.csc_matrix((data, self.csc_indices, self.csc_indptr), shape=(N, N))

    # --- monitors, power, projection ----------------------------------------------------------
    cdef int power(self, const double* q, const double* v, const double* a, double t,
                   const double* lam, double* p) except -1:
        """Loads and efforts, drives (lambda . Phi_t), and the dissipated power."""
        cdef int k
        self._at(t)
        self._joints(q, v, t)
        powers(self.md, q, v, &self.qd_j[0], &self.scratch[0], p)
        if self.rheonomic and self.m:
            self.velocity_bias(q, t, &self.Fp[0])
            for k in range(self.m):
                p[0] += lam[k] * self.Fp[k]
        return 0

    cdef int violations(self, const double* q, const double* v, const double* a, double t,
                        double* out) except -1:
        cdef int i
        cdef double* r = &self.Fp[0]
        if not self.m:
            out[0] = out[1] = out[2] = 0.0
            return 0
        self.constraint(q, t, r)
        out[0] = 0.0
        for i in range(self.m):
            out[0] = max(out[0], fabs(r[i]))
        self.velocity_bias(q, t, r)
        self._jacobian(q, 0)
        self._rate(v, r)
        out[1] = 0.0
        for i in range(self.m):
            out[1] = max(out[1], fabs(r[i]))
        self.acceleration_bias(q, v, t, r)
        self._jacobian(q, 0)
        self._rate(a, r)
        out[2] = 0.0
        for i in range(self.m):
            out[2] = max(out[2], fabs(r[i]))
        return 0

    cdef int saddle_factor(self, const double* q, double t, bint mass) except -1:
        """Factor [W Phi_x^T; Phi_x 0] at q (W = M, or I) into the projection's factors (the
        projection is :meth:`StepProblem.project`)."""
        cdef int i
        cdef double* val = &self.values[0]
        self._assemble(q, q, &self.no_lam[0], q, t, q, t, 1.0 if mass else 0.0, 0.0, 0.0, 1.0)
        if not mass:
            for i in range(self.diag_pos.shape[0]):
                val[self.diag_pos[i]] = 1.0
        self.lu_proj.factor(val)
        return 0

    cdef int saddle_solve(self, double* x) except -1:
        return self.lu_proj.solve(x)

    # --- Python views (the DAE class and the static solver use these) -------------------------
    def py_force(self, q, v, t):
        cdef double[::1] qq = checked("q", q, self.n)
        cdef double[::1] vv = checked("v", v, self.n)
        out = np.empty(self.n)
        cdef double[::1] o = out
        self.force(&qq[0], &vv[0], t, &o[0])
        return out

    def py_loads(self, q, v, t):
        cdef double[::1] qq = checked("x", q, self.n)
        cdef double[::1] vv = checked("v", v, self.n)
        out = np.empty(self.n)
        cdef double[::1] o = out
        self._loads(&qq[0], &vv[0], t, &o[0])
        return out

    def py_phi(self, q, t, int which):
        """d^which Phi / dt^which at (q, t) with q fixed (0: Phi, 1: Phi_t, 2: Phi_tt)."""
        cdef double[::1] qq = checked("q", q, self.n)
        out = np.zeros(max(self.m, 1))
        cdef double[::1] o = out
        self._at(t)
        self._phi(&qq[0], which, &o[0])
        return out[:self.m].copy()

    def py_acceleration_bias(self, q, v, t):
        cdef double[::1] qq = checked("q", q, self.n)
        cdef double[::1] vv = checked("v", v, self.n)
        out = np.zeros(max(self.m, 1))
        cdef double[::1] o = out
        self.acceleration_bias(&qq[0], &vv[0], t, &o[0])
        return out[:self.m].copy()

    def py_jacobian(self, q, t):
        """Phi_x(q, t) as CSR (m, n)."""
        cdef double[::1] qq = checked("q", q, self.n)
        self._at(t)
        self._jacobian(&qq[0], 0)
        return sp.csr_matrix((np.asarray(self.gvals)[:self.n_g].copy(),
                              (np.asarray(self.g_rows)[:self.n_g], np.asarray(self.g_cols)[:self.n_g])),
                             shape=(self.m, self.n))

    def py_curvature(self, lam, t):
        """d(Phi_x^T lam)/dx (constant in x: the constraints are quadratic), CSR (n, n)."""
        lam = checked("lam", lam, self.m)
        self._at(t)
        nq = self.n_quad
        vals = (lam[np.asarray(self.quad_row)[:nq]] * np.asarray(self.quad_coef)[:nq]
                * np.asarray(self.fq)[0, :nq])
        i, k = np.asarray(self.quad_i)[:nq], np.asarray(self.quad_k)[:nq]
        return sp.csr_matrix((np.concatenate([vals, vals]), (np.concatenate([i, k]), np.concatenate([k, i]))),
                             shape=(self.n, self.n))

    def py_factor(self, q_e, a_e, lam, v_e, t_e, q_new, t_new, c_m, c_mq, c_k, c_c, w):
        """Factor Newton's matrix; returns an object with ``solve(r_dyn, r_con)``."""
        cdef double[::1] qe, ae, ll, ve, qn
        qe, ae, ll, ve, qn = self._newton_arguments(q_e, a_e, lam, v_e, q_new)
        self.factor(&qe[0], &ae[0], &ll[0], &ve[0], t_e, &qn[0], t_new, c_m, c_mq, c_k, c_c, w)
        return _Factor(self)

    def py_power(self, q, v, t, lam):
        cdef double[::1] qq = checked("q", q, self.n)
        cdef double[::1] vv = checked("v", v, self.n)
        cdef double[::1] ll = np.zeros(max(self.m, 1))
        cdef double p[2]
        np.asarray(ll)[:self.m] = checked("lam", lam, self.m)
        self.power(&qq[0], &vv[0], &vv[0], t, &ll[0], p)
        return p[0], p[1]

    def joints(self, q, v, t):
        """Joint coordinates (q, qd) at (q, v, t), angles on the running branch."""
        cdef double[::1] qq = checked("q", q, self.n)
        cdef double[::1] vv = checked("v", v, self.n)
        nj = self.md.n_joints
        self._at(t)
        self._joints(&qq[0], &vv[0], t)
        return np.asarray(self.q_j)[:nj].copy(), np.asarray(self.qd_j)[:nj].copy()

    def py_accept(self, q, v, t):
        """Advance the branch of the joint angles to the accepted state (q, v) at t."""
        cdef double[::1] qq = checked("q", q, self.n)
        cdef double[::1] vv = checked("v", v, self.n)
        self.accept(&qq[0], &vv[0], t)

    def set_load_factor(self, double s):
        """Scale gravity, loads and efforts by s (statics' load stepping)."""
        self.forces.set_load_factor(s)


cdef class _Factor:
    cdef DAEKernel k

    def __init__(self, DAEKernel kernel):
        self.k = kernel

    def solve(self, r_dyn, r_con):
        cdef int n = self.k.n, m = self.k.m
        cdef double[::1] x = np.concatenate([checked("r_dyn", r_dyn, n),
                                             checked("r_con", r_con, m)])
        self.k.solve(&x[0])
        out = np.asarray(x)
        return out[:n].copy(), out[n:].copy()
