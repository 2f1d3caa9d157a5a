"""Implicit RANCF as a compiled :class:`~rancf.formulations._problem.StepProblem`.

For a tree of beams on revolute joints every joint map chi, eps is constant, so the node
velocities are ``V = B beta`` with a constant B and the coordinates ``x = x_0 + B q`` with
``q' = beta``: the motion is the ODE ``Omega q'' = B^T F(x_0 + B q, B q', t)``, ``Omega =
B^T M B`` (DESIGN.md sections 2, 3 and 6). Every operation of the stepping loop is a sweep of the
recursion's kernels: ``Omega a`` (:c:func:`mass_times`), ``B^T F`` after the force kernels, and
Newton's matrix ``c_m Omega + B^T (c_k K + c_c C) B`` factored by the leaves-first elimination
with the element matrices ``c_m M_s + c_k K_s + c_c C_s`` (analytic element tangents) and solved
by its two sweeps: O(n) each, no Python inside a step unless the model has Python input
functions (called once per force evaluation).

The Jacobians of loads and efforts are left out of Newton's matrix (their residual is exact,
so only the convergence rate changes).
"""
cimport numpy as cnp
from libc.string cimport memcpy, memset

import numpy as np

from rancf.elements._beam cimport beam_tangent
from rancf.formulations._forces cimport (ModelData, ForceKernel, applied_forces, element_forces,
                                         joint_coordinates, powers)
from rancf.formulations._problem cimport StepProblem
from rancf.formulations._recursive cimport (Tree, RecursiveKernel, apply_B, apply_BT,
                                            factorize, mass_times, solve)

cnp.import_array()


cdef class RecursiveProblem(StepProblem):
    """A tree of beams on revolute joints in its minimal coordinates (module docstring).

    Parameters
    ----------
    kernel : RecursiveKernel
        Its own kernel, after the kinematics at the initial state (chi and eps constant).
    forces : ForceKernel
    inputs : rancf.formulations.inputs.Inputs
        Writes the Python input functions' values into ``forces.arrays``.
    x0 : ndarray (n_x,)
        The coordinates at q = 0.
    q0 : ndarray (n_joints,)
        The joints' initial coordinates (the branch of the angles).
    """

    cdef RecursiveKernel kernel
    cdef ForceKernel forces
    cdef object inputs
    cdef bint timed, effort_timed
    cdef Tree* d
    cdef ModelData* md
    cdef double[::1] x0, x, V, F, q, qd, qref, blocks, scratch, g
    cdef double last_t

    def __init__(self, RecursiveKernel kernel, ForceKernel forces, inputs, x0, q0):
        self.kernel, self.forces, self.inputs = kernel, forces, inputs
        self.d = &kernel.data
        self.md = &forces.data
        self.n, self.m = kernel.n_beta, 0
        n_x = kernel.n_x
        self.x0 = np.array(x0, dtype=float)
        self.x, self.V, self.F = np.zeros(n_x), np.zeros(n_x), np.zeros(n_x)
        self.scratch = np.zeros(n_x)
        nj = max(self.md.n_joints, 1)
        self.q, self.qd, self.qref = np.zeros(nj), np.zeros(nj), np.zeros(nj)
        np.asarray(self.qref)[:len(q0)] = q0
        self.blocks = np.zeros(max(self.md.n_el, 1) * 64)
        self.g = np.zeros(max(self.n, 1))
        self.timed, self.effort_timed = inputs.time_dependent, inputs.effort_dependent
        self.last_t = np.nan
        # factorization works on these element matrices from now on (the kernel is this
        # problem's own: the explicit one keeps its mass factorization)
        kernel.arrays["Mel"] = np.asarray(self.blocks)
        self.d.Mel = &self.blocks[0]

    cdef void _state(self, const double* q, const double* v) noexcept nogil:
        """x = x_0 + B q and V = B v."""
        cdef int i
        apply_B(self.d, q, &self.x[0])
        for i in range(self.d.n_x):
            self.x[i] += self.x0[i]
        apply_B(self.d, v, &self.V[0])

    cdef int _inputs(self, double t) except -1:
        """The model's Python input functions at t (drives and loads) and, after the joint
        coordinates, the efforts."""
        if self.timed and t != self.last_t:
            self.inputs.at_time(t)
            self.last_t = t
        joint_coordinates(self.md, &self.x[0], &self.V[0], &self.qref[0], &self.q[0], &self.qd[0])
        memcpy(&self.qref[0], &self.q[0], self.md.n_joints * sizeof(double))
        if self.effort_timed:
            np.asarray(self.inputs.q)[:] = np.asarray(self.q)
            np.asarray(self.inputs.qd)[:] = np.asarray(self.qd)
            self.inputs.efforts(t)
        return 0

    cdef int mass_action(self, const double* q, const double* a, double* out) except -1:
        mass_times(self.d, a, &self.V[0], &self.F[0], out)
        return 0

    cdef int force(self, const double* q, const double* v, double t, double* out) except -1:
        cdef double U
        self._state(q, v)
        self._inputs(t)
        memset(&self.F[0], 0, self.d.n_x * sizeof(double))
        applied_forces(self.md, &self.x[0], &self.V[0], &self.q[0], &self.qd[0], &self.F[0])
        element_forces(self.md, &self.x[0], &self.V[0], &self.F[0], &U)
        apply_BT(self.d, &self.F[0], out)
        return 0

    cdef int factor(self, const double* q_e, const double* a_e, const double* lam,
                    const double* v_e, double t_e, const double* q_new, double t_new, double c_m,
                    double c_mq, double c_k, double c_c, double w) except -1:
        cdef int s, i, a, b, status
        cdef double e[8]
        cdef double ed[8]
        cdef double K[64]
        cdef double C[64]
        cdef ModelData* md = self.md
        self._state(q_e, v_e)
        with nogil:
            for s in range(md.n_el):
                a = 4 * md.el_vertices[2 * s]
                b = 4 * md.el_vertices[2 * s + 1]
                for i in range(4):
                    e[i] = self.x[a + i]
                    e[4 + i] = self.x[b + i]
                    ed[i] = self.V[a + i]
                    ed[4 + i] = self.V[b + i]
                if c_k != 0.0 or c_c != 0.0:
                    beam_tangent(md.model, e, ed, md.el_length[s], md.el_EA[s], md.el_EI[s],
                                 md.el_damping[s], K, C)
                for i in range(64):
                    self.blocks[64 * s + i] = c_m * md.el_mass[64 * s + i]
                    if c_k != 0.0:
                        self.blocks[64 * s + i] += c_k * K[i]
                    if c_c != 0.0:
                        self.blocks[64 * s + i] += c_c * C[i]
            status = factorize(self.d)
        if status:
            raise ArithmeticError(f"Newton matrix singular at vertex {status - 1}")
        return 0

    cdef int solve(self, double* x) except -1:
        memset(self.d.f, 0, self.d.n_x * sizeof(double))
        memcpy(&self.g[0], x, self.n * sizeof(double))
        solve(self.d, &self.g[0], False, x)
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

    cdef int power(self, const double* q, const double* v, double t, const double* lam,
                   double* p) except -1:
        self._state(q, v)
        self._inputs(t)
        powers(self.md, &self.x[0], &self.V[0], &self.qd[0], &self.scratch[0], p)
        return 0

    def positions(self, q):
        """``x_0 + B q`` (n_x,)."""
        cdef double[::1] qq = np.ascontiguousarray(q, dtype=float)
        out = np.empty(self.d.n_x)
        cdef double[::1] o = out
        apply_B(self.d, &qq[0], &o[0])
        return out + np.asarray(self.x0)

    def velocities(self, v):
        """``B v`` (n_x,)."""
        cdef double[::1] vv = np.ascontiguousarray(v, dtype=float)
        out = np.empty(self.d.n_x)
        cdef double[::1] o = out
        apply_B(self.d, &vv[0], &o[0])
        return out

    def observe(self, q, v, t, lam):
        """Joint coordinates at an output (no reactions: every joint is free)."""
        cdef double[::1] qq = np.ascontiguousarray(q, dtype=float)
        cdef double[::1] vv = np.ascontiguousarray(v, dtype=float)
        cdef int nj = self.md.n_joints
        self._state(&qq[0], &vv[0])
        self._inputs(t)
        return {"joint_q": np.asarray(self.q)[:nj].copy(), "joint_qd": np.asarray(self.qd)[:nj].copy(),
                "reactions": np.zeros(nj)}
