"""Implicit RANCF as a compiled :class:`~rancf.formulations._problem.StepProblem`, for any tree.

Coordinates. The implicit schemes need positions whose rates are the generalized velocities
beta of the recursion: the joints' position coordinates theta (a revolute beam child's slope,
a polar slope's length s, a slide, a rigid body's angle) and the four coordinates of every other
beam node (theory: The state of the recursive formulation). Every evaluation rebuilds the node
coordinates ``x(theta, t)`` from the ground out (the recursion's kinematics with theta given,
drives at t), so the joints hold exactly. The motion is the ODE ``Omega(theta) theta'' = g(theta,
theta', t)`` with ``Omega = B^T M B`` and ``g = B^T (F - M A_b)``, ``A_b`` the node accelerations
of the joints' bias terms (theory: Implicit RANCF); ``Omega a - g = B^T (M (B a + A_b) - F)`` is
evaluated by sweeps, without forming Omega.

Newton's matrix ``c_m Omega + B^T (c_k K + c_c C + N) B + W^T K_s W`` with the element
tangents and damping matrices, the blocks N of the moments, joint efforts and spring-dampers to
the ground (``load_tangents`` of rancf/formulations/_forces.pyx: an effort couples its child's
first vertex with its parent's vertex) and the spring-dampers between two vertices: ``K_s``
their 2 x 2 blocks in the relative position of their points (``spring_tangents``), ``W = D B``
(2 rows a spring, D the map of x to that relative position; a spring-damper with a point at an
arc length is one of these too, its point on two nodes). Their coupling of two vertices
anywhere in the tree is outside the elimination's pattern: the elimination factors
``N_0 = c_m Omega + B^T (c_k K + c_c C + N) B`` with the element matrices
``c_m M_s + c_k K_s + c_c C_s`` and solves by its two sweeps (O(n)), and the springs enter by
the Woodbury identity ``N^-1 = N_0^-1 - Z (I + K_s W Z)^-1 K_s W N_0^-1``, ``Z = N_0^-1 W^T``:
2 solves a spring per factorization and O(n) a spring per solve. The derivatives of an
effort function come from central differences (:meth:`Inputs.effort_slopes
<rancf.formulations.inputs.Inputs.effort_slopes>`, four calls per factorization). The terms of
the state dependence of B (chi and eps turning with the parents) and of the bias are left out
(developer: Newton matrix of implicit RANCF): the residual is exact, only the convergence rate
changes; for a tree of beams on revolute joints B is constant and the matrix is exact.

Where the elimination meets a singular pivot block (developer: Newton matrix of implicit RANCF; its
block inverses are pivoted Gauss-Jordan, not Cholesky, so an indefinite matrix passes and only a
singular pivot stops it) while the whole matrix is regular, which an effort of negative
stiffness or a compressed element's geometric stiffness can cause, the matrix is assembled
(:meth:`RecursiveProblem.matrix`) and factored by a sparse LU instead, until the next
factorization, with a warning: O(n^2) to assemble, a rare fallback.

The reactions of fixed and driven joints (the drives' power, :meth:`RecursiveProblem.observe`)
are those of the state (q, v, t): from its true accelerations, one forward-dynamics
factorization and solve of the generalized mass (O(n)) in a second workspace.

Where Omega depends on theta (rigid bodies, fixed, driven and prismatic joints), HHT and
generalized-alpha in Chung and Hulbert's weighted equilibrium (Ding & Pan eq. 9, 12) drop to
first order; the loop runs them in Arnold and Bruls' form (rancf.integrators.implicit), second
order as Newmark and generalized-alpha-S are.
"""
cimport numpy as cnp
from libc.math cimport fabs
from libc.string cimport memcpy, memset

import warnings

import numpy as np
import scipy.linalg
import scipy.sparse
import scipy.sparse.linalg

from rancf.formulations._forces cimport (ModelData, ForceKernel, applied_forces,
                                         element_forces,
                                         element_matrices, joint_coordinates, load_tangents,
                                         powers, spring_forces, spring_map_transposed,
                                         spring_tangents, two_ended, SPRING_BLOCK)
from rancf.joints._codes cimport HELD_AT_Q, P_ARC, P_GROUND
from rancf.formulations._problem cimport StepProblem
from rancf.formulations._recursive cimport (Tree, RecursiveKernel, apply_B,
                                            apply_BT, bind_factors, drive_power, eliminate,
                                            factorize,
                                            kinematics, mass_times, newton_times, solve)
from rancf.formulations._forces cimport mass_times as block_mass_times
from rancf.elements._beam cimport NODE_BLOCK, ELEMENT_BLOCK
from rancf.formulations._forces import checked
from rancf.utilities.workspace import arena

cnp.import_array()


cdef inline double _dot(const double* a, const double* b, int n) noexcept nogil:
    cdef double s = 0.0
    cdef int i
    for i in range(n):
        s += a[i] * b[i]
    return s


cdef class RecursiveProblem(StepProblem):
    """A tree in its joints' position coordinates theta (module docstring).

    Parameters
    ----------
    kernel : RecursiveKernel
        Its own kernel (the explicit formulation keeps the mass factorization of its own).
    forces : ForceKernel
        Force kernels on the same model; their input buffers are the ones ``inputs`` writes.
    inputs : rancf.formulations.inputs.Inputs
    q0 : ndarray (n_joints,)
        The joints' initial coordinates (the branch of the angles).
    constant : bool
        Whether the joints' maps chi and eps are constant (the joint kinds say so:
        :func:`rancf.formulations.recursive.tree_tables`).

    Attributes
    ----------
    _always_lu : bool
        For tests only: factor every Newton matrix by the sparse LU fallback, as if the block
        elimination had failed (False).
    """

    formulation = "recursive"

    cdef RecursiveKernel kernel
    cdef ForceKernel forces
    cdef object inputs
    cdef bint timed, effort_timed, driven, held, powerless, constant, loaded
    cdef Tree* d
    cdef Tree dyn          # the forward dynamics of the state (reactions): d's kinematics
    cdef dict dyn_arrays   # and its own factors
    cdef ModelData* md
    cdef double[::1] y, beta, A, F, f, q, qd, qref, blocks, scratch, g, zero, body, body_mass
    cdef double[::1] E, tau_q, tau_qd, acc
    cdef double last_t
    cdef list kept_rows     # the input values at the run's outputs (keep_inputs)
    cdef object lu          # None, or the sparse LU of the scaled matrix, until the next factor
    cdef double[::1] lu_scale
    # the spring-dampers between two vertices (module docstring): their numbers, W^T by rows
    # (2 a spring, n each), their 2 x 2 blocks, Z^T by rows, the LU of I + K_s W Z (its pivots)
    cdef int n_pair
    cdef bint coupled       # the last blocks hold the springs' term (c_k or c_c nonzero)
    cdef bint h_zero        # the kernel's H is zero: its last fused elimination succeeded
    cdef int[::1] pairs, pivots
    cdef double[:, ::1] WT, ZT
    cdef double[::1] Ks, Kpair, cap, small, node
    cdef bint warned
    cdef public bint _always_lu

    def __init__(self, RecursiveKernel kernel, ForceKernel forces, inputs, q0, bint constant):
        self.kernel, self.forces, self.inputs = kernel, forces, inputs
        self.d = &kernel.data
        self.md = &forces.data
        self.n, self.m = kernel.n_beta, 0
        n_x = kernel.n_x
        n = max(self.n, 1)
        # A and f, the residual's node accelerations and forces, are the kernel's, which the
        # solve uses as its work arrays: each is dead when the other pass starts, and one pair
        # of n_x arrays instead of two keeps a long chain's working set smaller
        w = arena(dict(y=kernel.n_y, beta=n, zero=n, g=n, acc=n, F=n_x, scratch=n_x,
                       E=3 * NODE_BLOCK * max(self.md.n_v, 1)))
        self.y, self.beta, self.zero, self.g, self.acc = w["y"], w["beta"], w["zero"], w["g"], w["acc"]
        self.F, self.scratch, self.E = w["F"], w["scratch"], w["E"]
        self.A, self.f = kernel.arrays["A"], kernel.arrays["f"]
        nj = max(self.md.n_joints, 1)
        self.q, self.qd, self.qref = np.zeros(nj), np.zeros(nj), np.zeros(nj)
        np.asarray(self.qref)[:len(q0)] = q0
        self.n_branch = self.md.n_joints
        self.blocks = np.zeros(max(self.md.n_el, 1) * ELEMENT_BLOCK)
        self.timed, self.effort_timed = inputs.time_dependent, inputs.effort_dependent
        self.driven = bool(np.asarray(forces.arrays["j_driven"])[:self.md.n_joints].any())
        # joints with a reaction: driven, or holding their angle coordinate (fixed)
        self.held = self.driven or bool((np.asarray(kernel.arrays["turn"]) == HELD_AT_Q).any())
        # no loads, efforts, drives, damping or spring-dampers: no work done and nothing
        # dissipated
        springs = bool(self.md.n_springs
                       or np.asarray(forces.arrays["t_law"]).reshape(-1, 3)[:, :2].any())
        self.powerless = not (self.driven or self.md.n_loads or springs
                              or np.asarray(forces.arrays["j_has_effort"])[:self.md.n_joints].any()
                              or np.asarray(forces.arrays["el_damping"])[:self.md.n_el].any())
        self.constant = constant
        # moments, efforts and spring-dampers: their blocks in Newton's matrix
        self.loaded = bool(self.md.n_loads or springs
                           or np.asarray(forces.arrays["j_has_effort"])[:self.md.n_joints].any())
        self.tau_q, self.tau_qd = np.zeros(nj), np.zeros(nj)
        self.last_t = np.nan
        self.kept_rows = []
        self.lu, self.warned, self._always_lu = None, False, False
        kinds = np.asarray(forces.arrays["s_kind"]).reshape(-1, 2)[:self.md.n_springs]
        # two_ended of _forces.pyx: both points on items, or one at an arc length (two nodes)
        self.pairs = np.flatnonzero((kinds != P_GROUND).all(axis=1)
                                    | (kinds == P_ARC).any(axis=1)).astype(np.intc)
        self.n_pair = self.pairs.shape[0]
        self.coupled = False
        r = 2 * max(self.n_pair, 1)
        self.WT, self.ZT = np.zeros((r, n)), np.zeros((r, n))
        self.Ks = np.zeros(SPRING_BLOCK * max(self.md.n_springs, 1))
        self.Kpair, self.cap = np.zeros(2 * r), np.zeros(r * r)
        self.small, self.pivots, self.node = np.zeros(r), np.zeros(r, dtype=np.intc), np.zeros(n_x)
        # element tangents and the leaves-first elimination against the residual's forces and
        # sweeps, all O(n): about 7 iterations' worth (factor_cost in _problem.pyx)
        self.factor_cost = 7.0
        # drives, loads and efforts come from the force kernels' input buffers
        self.d.m = self.md
        kernel.arrays["Mel"] = np.asarray(self.blocks)
        self.d.Mel = &self.blocks[0]
        # and the rigid bodies' diagonals c_m diag(m, m, I, I), set by each factor
        self.body_mass = kernel.arrays["body_mass"]
        self.body = np.zeros(self.body_mass.shape[0])
        kernel.arrays["Mbody"] = np.asarray(self.body)
        self.d.Mbody = &self.body[0]
        self._bind_dynamics(kernel.arrays)

    cdef void _bind_dynamics(self, dict arrays):
        """The workspace of the forward dynamics: d's kinematics (X, V, joint maps, bias),
        the mass's element matrices, its own factors, forces and accelerations."""
        self.dyn = self.d[0]
        self.dyn.E = NULL
        self.dyn_arrays = arena({name: np.asarray(arrays[name]).size
                                 for name in ("A", "f", "H", "Hinv", "G", "L", "HE", "EH", "Dinv", "T",
                                              "W", "chiTHa")})
        self.dyn_arrays["Mel"], self.dyn_arrays["Mbody"] = arrays["el_mass"], arrays["body_mass"]
        bind_factors(&self.dyn, self.dyn_arrays)

    def theta(self, y):
        """The joints' position coordinates theta (n,) of a recursive state y (``Recursive``'s
        layout), recovered by the kinematics at t = 0."""
        cdef double[::1] yy = checked("y", y, self.d.n_x + self.d.n_beta + 2)
        out = np.zeros(max(self.n, 1))
        cdef double[::1] o = out
        self._at_time(0.0)
        self.d.theta_in = NULL
        self.d.theta_out = &o[0]
        kinematics(self.d, &yy[0], &yy[self.d.n_x])
        self.d.theta_out = NULL
        return out[:self.n].copy()

    cdef int _at_time(self, double t) except -1:
        if self.timed and t != self.last_t:
            self.inputs.at_time(t)
            self.last_t = t
        return 0

    cdef int _kinematics(self, const double* theta, const double* v, double t) except -1:
        """x(theta, t), the joint maps, V = B v + bh q'(t) and the bias at (theta, v, t)."""
        self._at_time(t)
        self.d.theta_in = theta
        kinematics(self.d, &self.y[0], v)
        self.d.theta_in = NULL
        return 0

    cdef int accept(self, const double* q, const double* v, double t) except -1:
        """The branch of the joint angles follows the accepted state (theory: Joint coordinates),
        whose held slopes must not have turned over (``ArithmeticError``)."""
        self._kinematics(q if self.n else &self.zero[0], v if self.n else &self.zero[0], t)
        if self.d.inverted:
            raise ArithmeticError(self.kernel.inverted_message(t))
        joint_coordinates(self.md, self.d.X, self.d.V, &self.qref[0], &self.q[0], &self.qd[0])
        memcpy(&self.qref[0], &self.q[0], self.md.n_joints * sizeof(double))
        return 0

    cdef int _joints(self, double t) except -1:
        """Joint coordinates at the last kinematics, on the branch of the last accepted state,
        and the efforts at them."""
        joint_coordinates(self.md, self.d.X, self.d.V, &self.qref[0], &self.q[0], &self.qd[0])
        if self.effort_timed:
            np.asarray(self.inputs.q)[:] = np.asarray(self.q)
            np.asarray(self.inputs.qd)[:] = np.asarray(self.qd)
            self.inputs.efforts(t)
        return 0

    cdef int _forces(self, double t) except -1:
        """F = applied + internal node forces at the last kinematics (efforts evaluated)."""
        cdef double U
        self._joints(t)
        applied_forces(self.md, self.d.X, self.d.V, &self.q[0], &self.qd[0], &self.F[0], True)
        element_forces(self.md, self.d.X, self.d.V, &self.F[0], &U)
        spring_forces(self.md, self.d.X, self.d.V, &self.q[0], &self.qd[0], &self.F[0])
        return 0

    cdef int mass_action(self, const double* q, double t, const double* a, double* out) except -1:
        self._kinematics(q, &self.zero[0], t)
        mass_times(self.d, a, &self.A[0], &self.f[0], out)
        return 0

    cdef int force(self, const double* q, const double* v, double t, double* out) except -1:
        """g = B^T (F - M A_b)."""
        return self.dynamic_residual(q, v, t, &self.zero[0], 0.0, -1.0, out)

    cdef int dynamic_residual(self, const double* q, const double* v, double t, const double* a,
                              double c_m, double c_f, double* out) except -1:
        """``c_m Omega a - c_f g = B^T (M (c_m B a + c_f A_b) - c_f F)`` in one kinematics pass
        and one pair of sweeps."""
        cdef int i, n = self.n
        cdef double s
        if c_f == 0.0:
            self.mass_action(q, t, a, out)
            for i in range(n):
                out[i] *= c_m
            return 0
        self._kinematics(q, v, t)
        self._forces(t)
        s = c_m / c_f
        with nogil:
            # A = B (c_m / c_f) a + A_b, f = c_f (M A - F), out = B^T f
            apply_B(self.d, a, &self.A[0], True, s)
            block_mass_times(self.md, &self.A[0], &self.f[0])
            for i in range(self.d.n_x):
                self.f[i] = c_f * (self.f[i] - self.F[i])
            apply_BT(self.d, &self.f[0], out)
        return 0

    cdef int _newton_blocks(self, const double* q_e, const double* v_e, double t_e, double c_m,
                            double c_k, double c_c, bint fused) except -1:
        """The blocks of Newton's matrix at (q_e, v_e, t_e): kinematics, the bodies' diagonals
        and the blocks of moments and efforts (module docstring); where ``fused``, H zero (as
        the last fused elimination left it, else zeroed here) and the coefficients set for
        :func:`eliminate` to make each element matrix as it meets it (its sweep the only pass
        over the elements), else the whole element matrices (``blocks``: the assembled
        matrix's)."""
        cdef int i
        self._kinematics(q_e, v_e, t_e)
        if self.md.body_mass != NULL:       # else zeros, as they were made
            for i in range(self.body.shape[0]):
                self.body[i] = c_m * self.body_mass[i]
        self.d.E = NULL
        if self.loaded and (c_k != 0.0 or c_c != 0.0):
            self._joints(t_e)
            if self.effort_timed:
                self.inputs.effort_slopes(t_e, np.asarray(self.tau_q), np.asarray(self.tau_qd))
            load_tangents(self.md, self.d.X, self.d.V, &self.q[0], &self.qd[0], &self.tau_q[0],
                          &self.tau_qd[0], c_k, c_c,
                          &self.E[0])
            self.d.E = &self.E[0]
        self.coupled = self.n_pair > 0 and (c_k != 0.0 or c_c != 0.0)
        self.d.c_m, self.d.c_k, self.d.c_c = c_m, c_k, c_c
        with nogil:
            if not fused:
                element_matrices(self.md, self.d.X, self.d.V, c_m, c_k, c_c, &self.blocks[0])
            elif not self.h_zero:
                memset(self.d.H, 0, NODE_BLOCK * self.d.n_v * sizeof(double))
            if self.coupled:
                self._spring_rows(c_k, c_c)
        return 0

    cdef void _spring_rows(self, double c_k, double c_c) noexcept nogil:
        """The springs' term at the last kinematics: their blocks K_s (``Kpair``, 4 a spring)
        and the rows of W^T = B^T D^T (``WT``, 2 a spring), each ``apply_BT`` of the node
        forces of a unit relative force between the spring's points."""
        cdef int p, i, k
        cdef double e[2]
        spring_tangents(self.md, self.d.X, self.d.V, c_k, c_c, &self.Ks[0])
        for p in range(self.n_pair):
            k = self.pairs[p]
            for i in range(SPRING_BLOCK):
                self.Kpair[SPRING_BLOCK * p + i] = self.Ks[SPRING_BLOCK * k + i]
            for i in range(2):
                e[0] = 1.0 if i == 0 else 0.0
                e[1] = 1.0 - e[0]
                memset(&self.node[0], 0, self.d.n_x * sizeof(double))
                spring_map_transposed(self.md, k, e, &self.node[0])
                apply_BT(self.d, &self.node[0], &self.WT[2 * p + i, 0])

    cdef int factor(self, const double* q_e, const double* a_e, const double* lam,
                    const double* v_e, double t_e, const double* q_new, double t_new, double c_m,
                    double c_mq, double c_k, double c_c, double w) except -1:
        """The block elimination of Newton's matrix (O(n)); where it meets a singular pivot,
        the sparse LU of the assembled matrix (:meth:`_fall_back`), from the whole element
        matrices computed again."""
        cdef int status
        self._newton_blocks(q_e, v_e, t_e, c_m, c_k, c_c, True)
        self.lu = None
        with nogil:
            self.d.fused = 1
            status = eliminate(self.d)
            self.d.fused = 0
        # a fused elimination that succeeds leaves H zero (eliminate), one that stops does not
        self.h_zero = status == 0
        with nogil:
            if status == 0 and self.coupled and self._capacitance():
                status = -1
        if status or self._always_lu:
            self._newton_blocks(q_e, v_e, t_e, c_m, c_k, c_c, False)
            self._fall_back(status, t_e)
        return 0

    cdef int _capacitance(self) noexcept nogil:
        """Z^T (rows ``N_0^-1 w``, w the rows of W^T) and the LU with partial pivoting of the
        capacitance ``I + K_s W Z`` (2 P x 2 P for P springs) of the Woodbury identity (module
        docstring); 1 if a pivot is below 1e-14 of its largest entry (singular)."""
        cdef int r = 2 * self.n_pair, a, b, c, i, piv
        cdef double big = 0.0, t
        cdef double* S = &self.cap[0]
        for a in range(r):
            memset(self.d.f, 0, self.d.n_x * sizeof(double))
            memcpy(&self.g[0], &self.WT[a, 0], self.n * sizeof(double))
            solve(self.d, &self.g[0], False, &self.ZT[a, 0])
        # S[a, b] = delta_ab + sum_c K_s[a, c] (w_c . z_b), K_s block diagonal (2 x 2 a spring)
        for a in range(r):
            for b in range(r):
                t = 0.0
                for c in range(2 * (a // 2), 2 * (a // 2) + 2):
                    t += self.Kpair[2 * a + c - 2 * (a // 2)] * _dot(&self.WT[c, 0],
                                                                    &self.ZT[b, 0], self.n)
                S[r * a + b] = (1.0 if a == b else 0.0) + t
                big = max(big, fabs(S[r * a + b]))
        for c in range(r):
            piv = c
            for i in range(c + 1, r):
                if fabs(S[r * i + c]) > fabs(S[r * piv + c]):
                    piv = i
            self.pivots[c] = piv
            if not fabs(S[r * piv + c]) > 1e-14 * big:
                return 1
            if piv != c:
                for b in range(r):
                    t = S[r * c + b]
                    S[r * c + b] = S[r * piv + b]
                    S[r * piv + b] = t
            for i in range(c + 1, r):
                S[r * i + c] /= S[r * c + c]
                for b in range(c + 1, r):
                    S[r * i + b] -= S[r * i + c] * S[r * c + b]
        return 0

    cdef void _woodbury(self, double* x) noexcept nogil:
        """x = N^-1 b from x = N_0^-1 b: ``x -= Z (I + K_s W Z)^-1 K_s W x``."""
        cdef int r = 2 * self.n_pair, a, c, i
        cdef double t
        cdef double* S = &self.cap[0]
        cdef double* y = &self.small[0]
        for a in range(r):
            y[a] = 0.0
            for c in range(2 * (a // 2), 2 * (a // 2) + 2):
                y[a] += self.Kpair[2 * a + c - 2 * (a // 2)] * _dot(&self.WT[c, 0], x, self.n)
        for a in range(r):             # the rows swapped as the factorization swapped them
            i = self.pivots[a]
            if i != a:
                t = y[a]
                y[a] = y[i]
                y[i] = t
        for a in range(r):
            for c in range(a):
                y[a] -= S[r * a + c] * y[c]
        for a in range(r - 1, -1, -1):
            for c in range(a + 1, r):
                y[a] -= S[r * a + c] * y[c]
            y[a] /= S[r * a + a]
        for a in range(r):
            for i in range(self.n):
                x[i] -= self.ZT[a, i] * y[a]

    cdef object _assembled(self):
        """The Newton matrix of the last blocks (scipy.sparse CSC, n x n), column by column:
        ``newton_times`` of the unit vectors, only their nonzeros kept. O(n^2) (n columns of
        O(n) each): for the fallback and for tests, never in a normal step."""
        cdef int j, n = self.n, nnz = 0
        cdef double[::1] e = np.zeros(max(n, 1))
        cdef double[::1] col = np.zeros(max(n, 1))
        column = np.asarray(col)[:n]
        rows, values, starts = [], [], [0]
        for j in range(n):
            e[j] = 1.0
            with nogil:
                newton_times(self.d, &e[0], &self.A[0], &self.f[0], &col[0])
            e[j] = 0.0
            nonzero = np.flatnonzero(column)
            rows.append(nonzero)
            values.append(column[nonzero])
            nnz += nonzero.size
            starts.append(nnz)
        N = scipy.sparse.csc_matrix(
            (np.concatenate(values) if n else np.zeros(0), np.concatenate(rows) if n else
             np.zeros(0, dtype=np.intc), np.asarray(starts)), shape=(n, n))
        if self.coupled:
            W = np.asarray(self.WT)[:2 * self.n_pair, :n]
            K = scipy.linalg.block_diag(
                *np.asarray(self.Kpair)[:SPRING_BLOCK * self.n_pair].reshape(-1, 2, 2))
            N = (N + scipy.sparse.csc_matrix(W.T @ K @ W)).tocsc()
        return N

    cdef int _fall_back(self, int status, double t) except -1:
        """Factor the assembled Newton matrix N by a sparse LU (SuperLU), symmetrically scaled
        as the elimination's blocks are (``S N S``, ``S = diag(1 / sqrt|N_ii|)``): positions and
        slopes differ in scale by the elements' squared lengths. A pivot of U below 1e-14 of
        the scaled matrix's largest entry counts as singular (``ArithmeticError``). Warns the
        first time (``RuntimeWarning``)."""
        where = (f"met a singular pivot at vertex {status - 1}" if status > 0 else
                 "with the spring-dampers' term met a singular capacitance" if status < 0 else
                 "was bypassed (the tests' switch _always_lu)")
        N = self._assembled()
        diagonal = np.abs(N.diagonal())
        scale = np.ones(self.n)
        scale[diagonal > 0.0] = 1.0 / np.sqrt(diagonal[diagonal > 0.0])
        N = scipy.sparse.diags(scale) @ N @ scipy.sparse.diags(scale)
        big = np.abs(N.data).max() if N.nnz else 0.0
        try:
            if not np.isfinite(big):
                raise RuntimeError("non-finite entries")
            lu = scipy.sparse.linalg.splu(N.tocsc())
            if not np.abs(lu.U.diagonal()).min() > 1e-14 * big:
                raise RuntimeError("a pivot below 1e-14 of the largest entry")
        except RuntimeError as exc:
            raise ArithmeticError(
                f"Newton matrix singular: the block elimination {where}, and its sparse LU "
                f"failed ({exc})") from None
        if not self.warned:
            warnings.warn(f"implicit RANCF: the block elimination {where} (t = {t:.6g} s); "
                          "solving this Newton matrix by a sparse LU of the assembled matrix "
                          f"(O(n^2) to assemble, n = {self.n}) instead, until the elimination "
                          "succeeds again", RuntimeWarning)
            self.warned = True
        self.lu, self.lu_scale = lu, scale
        return 0

    def matrix(self, q_e, a_e, lam, v_e, double t_e, q_new, double t_new, double c_m,
               double c_mq, double c_k, double c_c, double w):
        """Newton's matrix at these arguments of ``factor`` (scipy.sparse CSC, n x n), assembled
        (O(n^2), :meth:`_assembled`): the operator the block elimination factors. It rebuilds
        the blocks, as ``factor`` would at the same arguments."""
        cdef double[::1] qq = checked("q_e", q_e, self.n)
        cdef double[::1] vv = checked("v_e", v_e, self.n)
        # the solve of the last factorization reads the springs' rows: kept as they were
        kept = (np.asarray(self.WT).copy(), np.asarray(self.Kpair).copy(), self.coupled)
        self._newton_blocks(&qq[0] if self.n else &self.zero[0],
                            &vv[0] if self.n else &self.zero[0], t_e, c_m, c_k, c_c, False)
        try:
            return self._assembled()
        finally:
            np.asarray(self.WT)[:], np.asarray(self.Kpair)[:] = kept[0], kept[1]
            self.coupled = kept[2]

    cdef int solve(self, double* x) except -1:
        if self.lu is not None:
            return self._lu_solve(x)
        memset(self.d.f, 0, self.d.n_x * sizeof(double))
        # x is both the right-hand side and the result: the leaves-to-root sweep reads all of
        # it before the root-to-leaves sweep writes any, and a first vertex's rows are read
        # before they are written (no copy: one pass fewer over n)
        solve(self.d, x, False, x)
        if self.coupled:
            self._woodbury(x)
        return 0

    cdef int _lu_solve(self, double* x) except -1:
        """x = N^-1 x by the fallback's LU: ``S (S N S)^-1 S x``."""
        xx = np.asarray(<double[:self.n]> x)
        scale = np.asarray(self.lu_scale)
        xx[:] = scale * self.lu.solve(scale * xx)
        return 0

    cdef int constraint(self, const double* q, double t, double* out) except -1:
        return 0

    cdef int constraint_force(self, const double* q, const double* lam, double t,
                              double* out) except -1:
        memset(out, 0, self.n * sizeof(double))
        return 0

    cdef int acceleration_bias(self, const double* q, const double* v, double t,
                               double* out) except -1:
        return 0

    cdef double _reactions(self, double t) except? -1.0:
        """The torque or force holding each fixed or driven joint at the state of the last
        kinematics and forces (into ``kernel.arrays['reaction']``) and the drives' power (W):
        the true accelerations of the state by the forward dynamics (the mass factored and
        solved in its own workspace), then ``bh^T (H A - f)`` at every child (theory:
        Reactions)."""
        cdef int status
        cdef double power
        memcpy(self.dyn.f, &self.F[0], self.d.n_x * sizeof(double))
        with nogil:
            status = factorize(&self.dyn)
            if status == 0:
                solve(&self.dyn, NULL, True, &self.acc[0])
                power = drive_power(&self.dyn)
        if status:
            raise ArithmeticError(f"the generalized mass is singular at vertex {status - 1} "
                                  f"at t = {t:.6g} s")
        return power

    cdef int power(self, const double* q, const double* v, const double* a, double t,
                   const double* lam, double* p) except -1:
        if self.powerless:
            p[0] = p[1] = 0.0
            return 0
        self._kinematics(q, v, t)
        if self.driven:
            self._forces(t)     # the reactions of the drives need the node forces
        else:
            self._joints(t)
        powers(self.md, self.d.X, self.d.V, &self.qd[0], &self.scratch[0], p)
        if self.driven:
            p[0] += self._reactions(t)
        return 0

    def newton_advice(self):
        """Newton's matrix leaves out the turning of the joint maps (developer: Newton matrix of
        implicit RANCF), exact only for trees of beams on free revolute joints: elsewhere Newton
        converges linearly, slowly at large steps, where the DAE's exact matrix converges
        quadratically."""
        if self.constant:
            return ""
        return ("this formulation's Newton matrix leaves out the turning of its fixed, driven "
                "and prismatic joints and rigid bodies: formulation='dae' has the exact one")

    def state_at(self, q, v, t):
        """``(x, V)`` (n_x,) at theta = q, theta' = v and time t."""
        cdef double[::1] qq = checked("q", q, self.n)
        cdef double[::1] vv = checked("v", v, self.n)
        self._kinematics(&qq[0] if self.n else &self.zero[0], &vv[0] if self.n else &self.zero[0], t)
        return (np.asarray(<double[:self.d.n_x]> self.d.X).copy(),
                np.asarray(<double[:self.d.n_x]> self.d.V).copy())

    cdef void keep_branch(self, double* out) noexcept:
        """The branch of the joint angles, those of the last accepted state."""
        memcpy(out, &self.qref[0], self.md.n_joints * sizeof(double))

    cdef void use_branch(self, const double* row) noexcept:
        memcpy(&self.qref[0], row, self.md.n_joints * sizeof(double))

    cdef int _observe_at(self, const double* q, const double* v, double t) except -1:
        """Kinematics, joint coordinates (on the branch in ``qref``) and, where joints are
        held, the reactions at the state (q, v, t)."""
        self._kinematics(q if self.n else &self.zero[0], v if self.n else &self.zero[0], t)
        if self.held:
            # the reactions need the node forces (a residual's worth of element forces)
            self._forces(t)
            self._reactions(t)
        else:
            joint_coordinates(self.md, self.d.X, self.d.V, &self.qref[0], &self.q[0], &self.qd[0])
        return 0

    def observe(self, q, v, a, t, lam):
        """Node coordinates and velocities, joint coordinates and the reactions of the fixed and
        driven joints at an output (those of the state (q, v, t): the loop's accelerations ``a``
        are not used), and the generalized velocities ``beta`` (= v)."""
        cdef double[::1] qq = checked("q", q, self.n)
        cdef double[::1] vv = checked("v", v, self.n)
        cdef int nj = self.md.n_joints
        self._observe_at(&qq[0], &vv[0], t)
        return {"nodes": np.asarray(<double[:self.d.n_x]> self.d.X).copy(),
                "velocities": np.asarray(<double[:self.d.n_x]> self.d.V).copy(),
                "joint_q": np.asarray(self.q)[:nj].copy(),
                "joint_qd": np.asarray(self.qd)[:nj].copy(),
                "reactions": np.asarray(<double[:max(nj, 1)]> self.d.reaction)[:nj].copy(),
                "beta": np.asarray(vv).copy()}

    def keep_inputs(self, long k, double t, const double[::1] q, const double[::1] v):
        """Keeps the values the model's input functions give at the implicit loop's output k,
        the converged state (q, v) (n) at t (a :class:`~rancf.formulations.inputs.Recorded`
        row, :meth:`rancf.formulations.inputs.Inputs.keep`). The loop's power took the
        kinematics and efforts there: the arrays hold them (copied, no function called); the
        efforts are called again only where their arguments (time, joint coordinates and
        rates, from a kinematics pass at the output) are not those of their last call
        (generalized-alpha-S takes its power at the intermediate point). Output 0 starts a new
        run's record."""
        cdef int j, nj = self.md.n_joints
        cdef bint same
        cdef double[::1] held_q, held_qd
        if k == 0:
            self.kept_rows = []
        if not (self.timed or self.effort_timed):
            return
        self._at_time(t)
        if self.effort_timed:
            self._kinematics(&q[0] if self.n else &self.zero[0],
                             &v[0] if self.n else &self.zero[0], t)
            joint_coordinates(self.md, self.d.X, self.d.V, &self.qref[0], &self.q[0],
                              &self.qd[0])
            held_q, held_qd = self.inputs.q, self.inputs.qd
            same = t == self.inputs.effort_t
            for j in range(nj):
                same = same and held_q[j] == self.q[j] and held_qd[j] == self.qd[j]
            if not same:
                self._joints(t)
        del self.kept_rows[k:]
        self.kept_rows.append(self.inputs.keep())

    def _played_frames(self, recorded, t, q, v, branches):
        """:meth:`frames` with the values ``recorded`` at the outputs (a
        :class:`~rancf.formulations.inputs.Recorded`) in place of the input functions."""
        self.inputs.played, self.last_t = recorded, np.nan
        try:
            return self.frames(t, q, v, branches)
        finally:
            self.inputs.played, self.last_t = None, np.nan

    def observe_frames(self, t, q, v, a, lam, branches):
        """:meth:`observe` of every output, deferred to when the Result is first asked for
        them (a stored frame holds the state; developer: Results, files and sweeps): ``nodes``
        is a :class:`~rancf.formulations.recursive.StoredFrames` of :meth:`frames` of the kept
        states and branches, ``reactions`` its reactions; ``beta`` (= v) is the state's own.
        The values of the input functions at the outputs, kept by the loop
        (:meth:`keep_inputs`), are played back, and given as ``inputs`` (a
        :class:`~rancf.formulations.inputs.Recorded`, or None) for the Result's other
        outputs."""
        from rancf.formulations.recursive import StoredFrames
        from rancf.formulations.inputs import Recorded
        m = len(t)
        recorded = None
        if (self.timed or self.effort_timed) and len(self.kept_rows) >= m:
            recorded = Recorded(np.array(t, dtype=float), self.kept_rows[:m])
            frames = StoredFrames(self._played_frames, recorded, t, q, v, branches)
        else:
            frames = StoredFrames(self.frames, t, q, v, branches,
                                  now=self.timed or self.effort_timed)
        # ``inputs``: for the outputs the Result computes later (Solution.inputs)
        return {"nodes": frames, "reactions": frames.reactions, "beta": np.asarray(v),
                "inputs": recorded}

    def frames(self, t, q, v, branches):
        """The node coordinates and velocities (n_out, n_x), joint coordinates, rates and
        reactions (n_out, n_joints) of the states (q, v) (n_out, n) at the times t (n_out,),
        each on its branch (``branches`` (n_out, n_joints) kept by the loop), in one loop:
        about a kinematics pass an output (and a residual where joints are held)."""
        cdef double[::1] tt = np.ascontiguousarray(t, dtype=float)
        cdef double[:, ::1] qq = np.ascontiguousarray(q, dtype=float)
        cdef double[:, ::1] vv = np.ascontiguousarray(v, dtype=float)
        cdef double[:, ::1] bb = np.ascontiguousarray(branches, dtype=float)
        cdef Py_ssize_t k, n_out = tt.shape[0]
        cdef int nj = self.md.n_joints, n_x = self.d.n_x
        nodes, velocities = np.empty((n_out, n_x)), np.empty((n_out, n_x))
        joint_q, joint_qd, reactions = (np.empty((n_out, nj)) for _ in range(3))
        cdef double[:, ::1] X = nodes, V = velocities
        cdef double[:, ::1] Q = joint_q, QD = joint_qd, R = reactions
        cdef double[::1] now = np.asarray(self.qref).copy()
        if (qq.shape[0] != n_out or vv.shape[0] != n_out or bb.shape[0] != n_out
                or (n_out and (qq.shape[1] != self.n or vv.shape[1] != self.n
                               or bb.shape[1] != nj))):
            raise ValueError(f"frames: {n_out} outputs of {self.n} coordinates and "
                             f"{nj} branch numbers expected, got q {np.shape(q)}, v "
                             f"{np.shape(v)}, branches {np.shape(branches)}")
        try:
            for k in range(n_out):
                if nj:
                    self.use_branch(&bb[k, 0])
                self._observe_at(&qq[k, 0] if self.n else NULL, &vv[k, 0] if self.n else NULL,
                                 tt[k])
                memcpy(&X[k, 0], self.d.X, n_x * sizeof(double))
                memcpy(&V[k, 0], self.d.V, n_x * sizeof(double))
                if nj:
                    memcpy(&Q[k, 0], &self.q[0], nj * sizeof(double))
                    memcpy(&QD[k, 0], &self.qd[0], nj * sizeof(double))
                    memcpy(&R[k, 0], self.d.reaction, nj * sizeof(double))
        finally:
            self.use_branch(&now[0])
        return nodes, velocities, joint_q, joint_qd, reactions
