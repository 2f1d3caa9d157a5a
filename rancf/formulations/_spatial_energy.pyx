"""The energy balance of a spatial tree (theory: The energy balance): the power of
the applied forces and moments, the joint efforts and the drives, and the power the element
damping dissipates, at the state of the last evaluation of rancf/formulations/_spatial.pyx.

``E(t) - E(0) = W_ext(t) - W_diss(t)`` with ``E`` kinetic + elastic + gravity (gravity is a
potential, not a work) and

    P_ext  = sum_loads (F . v_x + M . w) + sum_efforts tau_k qd_k + sum_drives tau_d qd_d,
    P_diss = sum_elements ed . (l B^T C c B ed) + sum_springs c l'^2 >= 0   (``d.dissipation``),

(E's elastic part holds the spring-dampers' potentials, ``spring_energy``)

v_x the velocity of a load's point, w its body's angular velocity, tau_d the generalized force
a drive exerts (``H^T W``, W the link wrench), qd_d its rate; P_diss comes from the elements'
forces of the same evaluation (``element_force``'s power output). The explicit methods integrate
W_ext and W_diss with the motion, as two more states (:class:`TrackedKernel`: the scheme's order
for the balance); the implicit loop by the trapezoidal rule at every step
(:meth:`rancf.formulations._spatial_implicit.SpatialProblem.power`).
"""
from libc.math cimport isfinite

import numpy as np

from rancf.elements._rotation cimport cross
# a body's twist (v, w), its acceleration, a link's wrench or bias force: a node's six numbers;
# a link's 6 x 6 blocks (its motion subspace H, articulated inertia I^A)
from rancf.elements._spatial_beam cimport SPATIAL_BLOCK, SPATIAL_NODE
from rancf.formulations._problem cimport ODE_OK, ODE_NONFINITE
from rancf.joints._codes cimport M_ELEMENT


cdef double applied_power(SpatialData* d) noexcept nogil:
    """The power (W) of the loads and the joint efforts at the last :func:`kinematics` and
    :func:`forces` of ``_spatial.pyx``: a load's force F at its point, whose velocity is
    ``v + w x (A offset)``, and its moment M at the body's angular velocity w (global; a
    follower load turned by the body's frame, as ``forces`` applies it); an effort's generalized
    force ``tau_k`` (``forces`` wrote it for every link that is not an element) times its rate
    ``qd_k``. A spherical or free link's torque T enters tau as ``Jr^T T``, so that
    ``tau . qd = T . (Jr qd)``, its power at the relative angular velocity. The joint
    spring-dampers' generalized forces in tau are left out (``d.spring_power``); those between
    points are in f, not in the loads."""
    cdef double F[3]
    cdef double Mo[3]
    cdef double g[3]
    cdef double x[3]
    cdef double Wa[SPATIAL_NODE]
    cdef double Wb[SPATIAL_NODE]
    cdef const double* V
    cdef double P = 0.0
    cdef int j, k, i
    for j in range(d.n_loads):
        if d.load_arc[j] >= 0:
            # the two nodes' wrenches of a load between them, at their velocities
            arc_load(d, j, Wa, Wb)
            for k in range(SPATIAL_NODE):
                P += (Wa[k] * d.V[SPATIAL_NODE * d.load_body[j] + k]
                      + Wb[k] * d.V[SPATIAL_NODE * d.load_arc[j] + k])
            continue
        V = d.V + SPATIAL_NODE * d.load_body[j]
        load_vectors(d, j, F, Mo, g)
        cross(V + 3, g, x)
        for k in range(3):
            P += F[k] * (V[k] + x[k]) + Mo[k] * V[3 + k]
    for i in range(d.n):
        if d.motion[i] == M_ELEMENT:
            continue
        # every joint effort, of any kind, is a generalized force on its link's coordinates
        for k in range(d.q_offset[i], d.q_offset[i + 1]):
            P += d.tau[k] * d.qd[k]
    # tau holds the joint spring-dampers' forces too: a potential and a dissipation
    return P - d.spring_power


cdef double drive_power(SpatialData* d, bint articulated) noexcept nogil:
    """The power (W) of the drives: for every driven link ``(H^T W) qd``, W the wrench its
    parent exerts on it (at the child's origin): ``I^A acc + p^A`` after the articulated
    recursion (``articulated``: the forward dynamics' sweeps), the link wrench ``p^A`` after
    ``inverse_dynamics`` (the implicit loop's residual)."""
    cdef double W
    cdef double P = 0.0
    cdef const double* H
    cdef const double* IA
    cdef const double* a
    cdef int i, r, k, off
    for i in range(d.n):
        off = d.q_offset[i]
        if d.q_offset[i + 1] - off != 1 or d.smap[off] >= 0:
            continue
        H = d.H + SPATIAL_BLOCK * i
        IA = d.IA + SPATIAL_BLOCK * i
        a = d.acc + SPATIAL_NODE * i
        for r in range(SPATIAL_NODE):
            W = d.pA[SPATIAL_NODE * i + r]
            if articulated:
                for k in range(SPATIAL_NODE):
                    W += IA[SPATIAL_NODE * r + k] * a[k]
            P += H[SPATIAL_NODE * r] * W * d.drive[3 * off + 1]
    return P


cdef class TrackedKernel(ODEProblem):
    """A :class:`~rancf.formulations._spatial.SpatialKernel` whose state carries the energy
    balance: ``y = (q, qd, W_ext, W_diss)``, ``y' = (qd, qdd, P_ext, P_diss)`` (module
    docstring), ``n_y = kernel.n_y + 2``: what the explicit methods integrate, so that the
    work and the dissipation are as accurate as the motion. Everything else (checks,
    re-centring, failures, outputs) is the kernel's.

    Parameters
    ----------
    kernel : SpatialKernel
        Its ``owner`` (:class:`rancf.formulations.spatial.Spatial`) observes the outputs.
    """

    formulation = "spatial"

    def __init__(self, SpatialKernel kernel):
        self.kernel, self.inputs, self.owner = kernel, kernel.inputs, kernel.owner
        self.n_y = kernel.n_y + 2
        self.n_branch = 0

    cdef int rate(self, double t, const double* y, double* ydot) noexcept nogil:
        cdef SpatialData* d = &self.kernel.data
        cdef int n = self.kernel.n_y
        cdef int status = self.kernel.rate(t, y, ydot)
        if status:
            return status
        ydot[n] = applied_power(d) + drive_power(d, True)
        ydot[n + 1] = d.dissipation
        return ODE_OK

    cdef int check(self, const double* y, double bound) noexcept nogil:
        cdef int n = self.kernel.n_y
        if not (isfinite(y[n]) and isfinite(y[n + 1])):
            return ODE_NONFINITE
        return self.kernel.check(y, bound)

    cdef int recentre(self, double* y) noexcept nogil:
        return self.kernel.recentre(y)

    @property
    def keeps_inputs(self):
        return self.kernel.keeps_inputs

    cdef int keep_inputs(self, object kept, double t, const double* y, bint fresh) noexcept:
        # the motion's part of y is the kernel's state
        return self.kernel.keep_inputs(kept, t, y, fresh)

    def failure(self, int status, double t):
        return self.kernel.failure(status, t)

    def stiffness(self, y):
        return self.kernel.stiffness(np.asarray(y)[:self.kernel.n_y])

    def observe(self, t, Y, branches, kept=None):
        """The kernel's outputs (:meth:`rancf.formulations.spatial.Spatial.observe`, the
        reactions and the energies deferred to when the Result is asked for them, the input
        values ``kept`` by the loop played back) of the motion's part of Y, and ``work``,
        ``dissipated`` (J) the last two columns."""
        Y = np.asarray(Y)
        n = self.kernel.n_y
        out = self.owner.observe(t, Y[:, :n], branches, deferred=True, deferred_energies=True,
                                 kept=kept)
        out["work"], out["dissipated"] = Y[:, n].copy(), Y[:, n + 1].copy()
        return out
