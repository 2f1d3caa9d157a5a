"""The spatial DAE's per-body, per-link and per-element work compiled (theory: The spatial DAE
formulation; the equations are in rancf/formulations/spatial_dae.py, whose module docstring this
follows term by term).

:class:`LinkKernel` holds the joint links between bodies (:class:`rancf.formulations.
spatial_dae._Link`): their rows ``Phi``, the analytic Jacobian blocks ``dPhi/dx`` on each
link's columns (``[r_p, p_p, r_c, p_c]``, or ``[r_c, p_c]`` on the ground), the stencils of the
rows along a line (the velocity and acceleration biases) and the central differences of
``Phi_x^T lambda`` (the curvature), for all links in one call. :class:`CableLinkKernel` does the
same for the joints at cable points (:class:`rancf.formulations.spatial_dae._CableLink`),
:class:`ArcLinkKernel` for those at points between two nodes of a beam, both over the loops of
:class:`GatheredLinks`; the curvature's loop (:func:`_link_curvature`) is the same for all three.
:class:`ElementKernel` holds the beam elements (links of motion ``M_ELEMENT``): the map
``x -> e = (u, psi)`` with its chain rule ``B = de/dx`` (6 x 14), the element forces ``B^T f``
from the element kind's kernel (:mod:`rancf.elements._spatial_beam`), their central-difference
stiffness, the exact damping ``B^T D B``, strain energy and dissipated power.
:func:`c_cable_elements` runs the ANCF cable kernel (:mod:`rancf.elements._ancf_cable`) over all
cable elements; :func:`body_mass_action`, :func:`body_forces`, :func:`body_mass_blocks` and
:func:`c_body_tangents` give the bodies' mass action, weight and gyroscopic force, rotary mass
blocks and the gyroscopic force's central differences; :func:`rotation_logs` the rotation
vectors of many rotations and :func:`link_coordinates` the joints' coordinates of many states;
:func:`joint_wrenches`, :func:`joint_spring_values` and :func:`point_springs` the efforts' and
spring-dampers' forces of all items at their bodies' states, :func:`joint_values` the
coordinates and rates of joints of any kind (what effort functions get).

:class:`SpatialProblem` is the formulation as the implicit loop's
:class:`~rancf.formulations._problem.StepProblem`: residual, rows, biases, Newton's matrix on
the formulation's fixed pattern and its LU factors (:class:`_LU`), in C over the kernels above.

Euler parameters ``p = (p0, e)``: ``A(p) = (p0^2 - e.e) I + 2 e e^T + 2 p0 e^`` (quadratic, a
rotation where ``|p| = 1``), ``E(p) = [-e, e^ + p0 I]``, ``G(p) = [-e, -e^ + p0 I]`` (3 x 4).
The blocks are row-major; the caller (the Python formulation) makes every array with the
shapes stated when it builds the kernels, so nothing here checks them.
"""
from libc.math cimport atan2, cos, fabs, sin, sqrt
from libc.string cimport memcmp, memcpy, memset
from scipy.linalg.cython_lapack cimport dgetrf, dgetrs

import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as spla

cimport rancf.elements._rotation as rot
from rancf.elements._planar cimport wrap
from rancf.formulations._spatial_arc cimport arc_gradient, arc_local, arc_motion, arc_wrenches
from rancf.formulations._problem cimport StepProblem
from rancf.formulations._problem import NOGIL_FLOPS
from rancf.elements._spatial_beam cimport (SPATIAL_BLOCK, SPATIAL_NODE, element_damping,
                                           element_energy, element_force)
from rancf.elements._ancf_cable cimport (CABLE_ELEMENT, CABLE_ELEMENT_BLOCK, CABLE_NODE,
                                         CABLE_REST, cable_force_rest, cable_moment,
                                         cable_moment_tangent)
from rancf.joints._codes cimport (ARC_SIDE_ARC, ARC_SIDE_BODY, ARC_SIDE_GROUND, CABLE_CLAMP,
                                  CABLE_SPLICE, DRIVE_PRISMATIC, DRIVE_REVOLUTE, R_AXIS, R_NONE,
                                  R_TWO_AXES, R_VECTOR, ROT_AXIS, ROT_LOCK, ROT_NONE,
                                  ROT_UNIVERSAL, SIDE_BODY, SIDE_CABLE, SIDE_GROUND, T_AXIS,
                                  T_FREE, TR_LOCK, TR_NONE, TR_PLANE, motion_rotation,
                                  motion_translation, translation_size)

# A joint spring-damper row's kind (``SpatialDAE._joint_springs["kind"]``): on a revolute's
# angle, a prismatic's slide, or component ``kind - JS_BALL`` (0, 1, 2) of a spherical joint's
# rotation from rest ``theta = log(A_p^T A_c Q^T R_0^T)`` and relative angular velocity
# ``w = A_p^T (w_c - w_p)``, both in the parent's frame (``R_0 = exp(axis^)``, the row's
# ``axis`` its rest rotation vector): the torque ``-k theta - c w`` of
# rancf.model.spatial_joints.SpatialJointSpringDamper, one row per component.
cpdef enum JointSpringKind:
    JS_REVOLUTE = 0
    JS_PRISMATIC = 1
    JS_BALL = 2


# the kinds as module names, for spatial_dae.py
globals().update(JointSpringKind.__members__)

# the largest link: two bodies of 7 coordinates, 6 rows
cdef extern from *:
    """
    #define RANCF_EULER 4
    #define RANCF_EULER_BLOCK 16
    #define RANCF_EULER_MAP (3 * RANCF_EULER)
    #define RANCF_POSE 7
    #define RANCF_POSE_BLOCK 49
    #define RANCF_LINK_MAX_COLS (2 * RANCF_POSE)
    #define RANCF_LINK_MAX_ROWS 6
    #define RANCF_LINK_MAX_BLOCK (RANCF_LINK_MAX_COLS * RANCF_LINK_MAX_COLS)
    #define RANCF_ELEMENT_MAP (RANCF_SPATIAL_NODE * RANCF_LINK_MAX_COLS)
    #define RANCF_WRENCH 6
    #define RANCF_STENCIL 7
    #define RANCF_ARC_MAX_COLS (2 * RANCF_LINK_MAX_COLS)
    #define RANCF_FRAME (3 + 9)
    #define RANCF_TWIST 6
    """
    const long EULER "RANCF_EULER"              # Euler parameters of a body's rotation
    const long EULER_BLOCK "RANCF_EULER_BLOCK"  # a 4 x 4 matrix on them, row-major
    const long EULER_MAP "RANCF_EULER_MAP"      # E(p) or G(p): 3 x 4, row-major
    const long POSE "RANCF_POSE"                # a body's coordinates: position, Euler parameters
    const long POSE_BLOCK "RANCF_POSE_BLOCK"    # a 7 x 7 matrix on them, row-major
    # two bodies' coordinates [r_p, p_p, r_c, p_c] (the child's from POSE on): a link's, a beam
    # element's or a force item's columns
    const long MAX_COLS "RANCF_LINK_MAX_COLS"
    const long MAX_ROWS "RANCF_LINK_MAX_ROWS"
    const long MAX_BLOCK "RANCF_LINK_MAX_BLOCK"  # a matrix on those columns, row-major
    const long ELEMENT_MAP "RANCF_ELEMENT_MAP"  # B = de/dy of a beam element (6 x 14), row-major
    const long WRENCH "RANCF_WRENCH"            # a force and a moment
    const long STENCIL "RANCF_STENCIL"          # points of the seven-point stencil
    # an arc link's columns: both sides at an element's point (two poses each)
    const long ARC_MAX_COLS "RANCF_ARC_MAX_COLS"
    # a body's entries in the outputs' nodes (its origin r, then its frame A row-major) and
    # velocities (v, then the angular velocity w)
    const long FRAME "RANCF_FRAME"
    const long TWIST "RANCF_TWIST"

cdef double[4] UNIT_Q = [1.0, 0.0, 0.0, 0.0]
cdef double[3] ZERO3 = [0.0, 0.0, 0.0]
#: the ground's state (origin, unit quaternion) and rates, a force item's side on the ground
cdef double[POSE] GROUND_X = [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0]
cdef double[POSE] GROUND_V = [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]
#: The layout's sizes for the Python formulations (:mod:`rancf.formulations.spatial_dae`,
#: :mod:`rancf.formulations.spatial`) and the outputs (:mod:`rancf.results.result`): a
#: body's coordinates, a link's columns (two bodies'), a body's entries in the outputs' nodes
#: and velocities, a force and a moment (a joint's reaction).
POSE_SIZE, LINK_SIZE, FRAME_SIZE, TWIST_SIZE, WRENCH_SIZE = POSE, MAX_COLS, FRAME, TWIST, WRENCH


cdef inline const double* _pose(const double* q, long b) noexcept nogil:
    """Body b's coordinates (POSE) in q; for b < 0 the ground's (origin, unit rotation)."""
    return q + POSE * b if b >= 0 else GROUND_X


cdef inline const double* _rate(const double* v, long b) noexcept nogil:
    """Body b's rates (POSE) in v; for b < 0 the ground's (zero)."""
    return v + POSE * b if b >= 0 else GROUND_V


cdef inline void rotation(const double* p, double* A) noexcept nogil:
    """A (9) = A(p), unnormalized (quadratic in p)."""
    cdef double p0 = p[0], x = p[1], y = p[2], z = p[3]
    cdef double d = p0 * p0 - (x * x + y * y + z * z)
    A[0] = d + 2.0 * x * x
    A[1] = 2.0 * x * y - 2.0 * p0 * z
    A[2] = 2.0 * x * z + 2.0 * p0 * y
    A[3] = 2.0 * y * x + 2.0 * p0 * z
    A[4] = d + 2.0 * y * y
    A[5] = 2.0 * y * z - 2.0 * p0 * x
    A[6] = 2.0 * z * x - 2.0 * p0 * y
    A[7] = 2.0 * z * y + 2.0 * p0 * x
    A[8] = d + 2.0 * z * z


cdef inline void rotation_derivative(const double* p, int k, double* D) noexcept nogil:
    """D (9: 3 x 3 row-major, ``D[3 * i + j]``) = dA/dp_k at p: ``2 p0 I + 2 e^`` (k = 0),
    ``-2 e_m I + 2 (u_m e^T + e u_m^T) + 2 p0 u_m^`` (k = m + 1, u_m the unit vector)."""
    cdef int i, m
    cdef double u[3]
    cdef double S[9]
    if k == 0:
        rot.skew(p + 1, D)
        for i in range(9):
            D[i] *= 2.0
        for i in range(3):
            D[3 * i + i] += 2.0 * p[0]
        return
    m = k - 1
    u[0] = u[1] = u[2] = 0.0
    u[m] = 1.0
    rot.skew(u, S)
    for i in range(9):
        D[i] = 2.0 * p[0] * S[i]
    for i in range(3):
        D[3 * i + i] -= 2.0 * p[k]
        D[3 * m + i] += 2.0 * p[1 + i]
        D[3 * i + m] += 2.0 * p[1 + i]


cdef inline void euler_E(const double* p, double* E) noexcept nogil:
    """E (12, 3 x 4 row-major) = E(p) = [-e, e^ + p0 I]."""
    cdef int i
    cdef double S[9]
    rot.skew(p + 1, S)
    for i in range(3):
        E[EULER * i] = -p[1 + i]
        E[EULER * i + 1] = S[3 * i]
        E[EULER * i + 2] = S[3 * i + 1]
        E[EULER * i + 3] = S[3 * i + 2]
        E[EULER * i + 1 + i] += p[0]


cdef inline void _unit_rotation(const double* q, long b, double* A) noexcept nogil:
    """A (9) = A(p) / (p . p), body b's rotation at coordinates q (as ``SpatialDAE.poses``)."""
    cdef const double* p = q + POSE * b + 3
    cdef double pp = p[0] * p[0] + p[1] * p[1] + p[2] * p[2] + p[3] * p[3]
    cdef int i
    rotation(p, A)
    for i in range(9):
        A[i] /= pp


cdef inline void _node_wrench(const double* q, long b, const double* W,
                              double* out) noexcept nogil:
    """out += body b's generalized force of a wrench W (6: force; moment about its origin,
    global): ``F`` on its position, ``2 E(p)^T M / (p . p)`` on its Euler parameters."""
    cdef const double* p = q + POSE * b + 3
    cdef double pp = p[0] * p[0] + p[1] * p[1] + p[2] * p[2] + p[3] * p[3]
    cdef double E[EULER_MAP]
    cdef double s
    cdef int i, j
    euler_E(p, E)
    for i in range(3):
        out[POSE * b + i] += W[i]
    for j in range(EULER):
        s = 0.0
        for i in range(3):
            s += 2.0 * E[EULER * i + j] * W[3 + i]
        out[POSE * b + 3 + j] += s / pp


cdef inline void qmul(const double* a, const double* b, double* c) noexcept nogil:
    """c = a (x) b (scalar first; c must not alias a or b): ``c0 = a0 b0 - a_v . b_v``,
    ``c_v = a0 b_v + b0 a_v + a_v x b_v``."""
    c[0] = a[0] * b[0] - (a[1] * b[1] + a[2] * b[2] + a[3] * b[3])
    c[1] = a[0] * b[1] + b[0] * a[1] + (a[2] * b[3] - a[3] * b[2])
    c[2] = a[0] * b[2] + b[0] * a[2] + (a[3] * b[1] - a[1] * b[3])
    c[3] = a[0] * b[3] + b[0] * a[3] + (a[1] * b[2] - a[2] * b[1])


cdef inline void qleft(const double* a, double* L) noexcept nogil:
    """L (16) with ``a (x) b = L b``."""
    L[0], L[1], L[2], L[3] = a[0], -a[1], -a[2], -a[3]
    L[4], L[5], L[6], L[7] = a[1], a[0], -a[3], a[2]
    L[8], L[9], L[10], L[11] = a[2], a[3], a[0], -a[1]
    L[12], L[13], L[14], L[15] = a[3], -a[2], a[1], a[0]


cdef inline void qright(const double* b, double* R) noexcept nogil:
    """R (16) with ``a (x) b = R a``."""
    R[0], R[1], R[2], R[3] = b[0], -b[1], -b[2], -b[3]
    R[4], R[5], R[6], R[7] = b[1], b[0], b[3], -b[2]
    R[8], R[9], R[10], R[11] = b[2], -b[3], b[0], b[1]
    R[12], R[13], R[14], R[15] = b[3], b[2], -b[1], b[0]


cdef inline void conj(const double* a, double* c) noexcept nogil:
    c[0], c[1], c[2], c[3] = a[0], -a[1], -a[2], -a[3]


cdef class LinkKernel:
    """The joint links between bodies (see the module docstring), in the order given.

    Parameters (one row per link): ``parent`` (-1 the ground), ``body`` (int), ``rot``,
    ``tr`` (the row kinds), ``drive`` (0 none, 1 a revolute drive whose target is a quaternion,
    2 a prismatic drive whose target is a slide), ``anchor``, ``offset`` (n, 3), ``qQc`` (n, 4)
    ``conj(q_Q)``, ``a0``, ``a1c`` (n, 3), ``a01`` (n,), ``B`` (n, 6): the two complement
    vectors row after row (zeros where unused), ``n_rows`` (n,). ``row0`` and ``val0`` are the
    first row of each link in Phi and the first entry of its Jacobian block (n_rows x n_cols,
    row-major) in the value arrays, ``n_cols`` its columns (7 on the ground, else 14).
    """

    cdef readonly int n, n_rows_total, n_values, n_square
    cdef int[::1] parent, body, rot_kind, tr_kind, drive, n_rows, n_cols, row0, val0, sq0
    cdef double[:, ::1] anchor, offset, qQc, a0, a1c, B
    cdef double[::1] a01

    def __init__(self, parent, body, rot_kind, tr_kind, drive, anchor, offset, qQc, a0, a1c,
                 a01, B, n_rows):
        self.n = len(parent)
        self.parent = np.ascontiguousarray(parent, dtype=np.intc)
        self.body = np.ascontiguousarray(body, dtype=np.intc)
        self.rot_kind = np.ascontiguousarray(rot_kind, dtype=np.intc)
        self.tr_kind = np.ascontiguousarray(tr_kind, dtype=np.intc)
        self.drive = np.ascontiguousarray(drive, dtype=np.intc)
        self.anchor = np.ascontiguousarray(anchor, dtype=float).reshape(self.n, 3)
        self.offset = np.ascontiguousarray(offset, dtype=float).reshape(self.n, 3)
        self.qQc = np.ascontiguousarray(qQc, dtype=float).reshape(self.n, EULER)
        self.a0 = np.ascontiguousarray(a0, dtype=float).reshape(self.n, 3)
        self.a1c = np.ascontiguousarray(a1c, dtype=float).reshape(self.n, 3)
        self.a01 = np.ascontiguousarray(a01, dtype=float)
        self.B = np.ascontiguousarray(B, dtype=float).reshape(self.n, 6)
        self.n_rows = np.ascontiguousarray(n_rows, dtype=np.intc)
        cols = np.where(np.asarray(self.parent) >= 0, MAX_COLS, POSE).astype(np.intc)
        self.n_cols = cols
        rows = np.asarray(self.n_rows)
        square = np.where(rows > 0, cols * cols, 0)
        # each link's first row, Jacobian entry and square entry (sums of those before it)
        self.row0 = (np.cumsum(rows) - rows).astype(np.intc)
        self.val0 = (np.cumsum(rows * cols) - rows * cols).astype(np.intc)
        self.sq0 = (np.cumsum(square) - square).astype(np.intc)
        self.n_rows_total = int(rows.sum())
        self.n_values = int((rows * cols).sum())
        self.n_square = int(square.sum())

    def sizes(self):
        """``(n_rows, n_cols, val0, sq0)`` per link (arrays)."""
        return (np.asarray(self.n_rows), np.asarray(self.n_cols), np.asarray(self.val0),
                np.asarray(self.sq0))

    cdef inline void _local(self, int k, const double* x, double* y) noexcept nogil:
        """y (14) = [r_p, p_p, r_c, p_c] of link k (the ground's r = 0, p = (1, 0, 0, 0))."""
        cdef int i, p = self.parent[k], c = self.body[k]
        if p >= 0:
            memcpy(y, x + POSE * p, POSE * sizeof(double))
        else:
            memcpy(y, ZERO3, 3 * sizeof(double))
            memcpy(y + 3, UNIT_Q, EULER * sizeof(double))
        memcpy(y + POSE, x + POSE * c, POSE * sizeof(double))

    cdef int _rows(self, int k, const double* y, const double* target, double* out) noexcept nogil:
        """Link k's rows at its local coordinates y (14); returns their number."""
        cdef double cp[4]
        cdef double t1[4]
        cdef double rq[4]
        cdef double tc[4]
        cdef double v[4]
        cdef double Ap[9]
        cdef double Ac[9]
        cdef double w[3]
        cdef double d[3]
        cdef double wp[3]
        cdef double wc[3]
        cdef const double* rp = y
        cdef const double* pp = y + 3
        cdef const double* rc = y + POSE
        cdef const double* pc = y + POSE + 3
        cdef const double* b = &self.B[k, 0]
        cdef int i, n = 0, rk = self.rot_kind[k], tk = self.tr_kind[k]
        if rk == ROT_LOCK or rk == ROT_AXIS:
            conj(pp, cp)
            qmul(cp, pc, t1)
            qmul(t1, &self.qQc[k, 0], rq)
            if rk == ROT_LOCK:
                if self.drive[k] == DRIVE_REVOLUTE:
                    conj(target, tc)
                    qmul(tc, rq, v)
                    out[0], out[1], out[2] = v[1], v[2], v[3]
                else:
                    out[0], out[1], out[2] = rq[1], rq[2], rq[3]
                n = 3
            else:
                out[0] = rot.dot(b, rq + 1)
                out[1] = rot.dot(b + 3, rq + 1)
                n = 2
        elif rk == ROT_UNIVERSAL:
            rotation(pp, Ap)
            rotation(pc, Ac)
            rot.matvec(Ap, &self.a0[k, 0], wp)
            rot.matvec(Ac, &self.a1c[k, 0], wc)
            out[0] = rot.dot(wp, wc) - self.a01[k]
            n = 1
        if tk != TR_NONE:
            rotation(pc, Ac)
            rot.matvec(Ac, &self.offset[k, 0], w)
            for i in range(3):
                w[i] = (rc[i] + w[i]) - rp[i]
            if self.parent[k] >= 0:
                rotation(pp, Ap)
                rot.matTvec(Ap, w, d)
            else:
                memcpy(d, w, 3 * sizeof(double))
            for i in range(3):
                d[i] -= self.anchor[k, i]
            if tk == TR_LOCK:
                if self.drive[k] == DRIVE_PRISMATIC:
                    for i in range(3):
                        d[i] -= target[0] * self.a0[k, i]
                out[n], out[n + 1], out[n + 2] = d[0], d[1], d[2]
                n += 3
            else:
                out[n] = rot.dot(b, d)
                out[n + 1] = rot.dot(b + 3, d)
                n += 2
        return n

    cdef void _jacobian(self, int k, const double* y, const double* target,
                        double* out) noexcept nogil:
        """Link k's Jacobian block (n_rows x n_cols, row-major) at its local coordinates y."""
        cdef double full[MAX_ROWS * MAX_COLS]
        cdef double lead[4]
        cdef double cp[4]
        cdef double t1[4]
        cdef double t2[4]
        cdef double L[EULER_BLOCK]
        cdef double R[EULER_BLOCK]
        cdef double M[EULER_BLOCK]
        cdef double Ap[9]
        cdef double Ac[9]
        cdef double D[9]
        cdef double w[3]
        cdef double z[3]
        cdef double wp[3]
        cdef double wc[3]
        cdef double blk[EULER_MAP]
        cdef const double* rp = y
        cdef const double* pp = y + 3
        cdef const double* rc = y + POSE
        cdef const double* pc = y + POSE + 3
        cdef const double* b = &self.B[k, 0]
        cdef int i, j, a, r = 0, rk = self.rot_kind[k], tk = self.tr_kind[k]
        cdef int c0 = 0 if self.parent[k] >= 0 else POSE, nc = self.n_cols[k]
        memset(full, 0, MAX_ROWS * MAX_COLS * sizeof(double))
        if rk == ROT_LOCK or rk == ROT_AXIS:
            if self.drive[k] == DRIVE_REVOLUTE:
                conj(target, lead)
            else:
                memcpy(lead, UNIT_Q, EULER * sizeof(double))
            # d/dp_c: (L(lead (x) conj(pp)) R(qQc))[1:]
            conj(pp, cp)
            qmul(lead, cp, t1)
            qleft(t1, L)
            qright(&self.qQc[k, 0], R)
            _mat4(L, R, M)
            # d/dp_p: (L(lead) R(pc (x) qQc) CONJ)[1:]
            qmul(pc, &self.qQc[k, 0], t2)
            qleft(lead, L)
            qright(t2, R)
            for i in range(EULER):
                for j in range(1, EULER):
                    R[EULER * i + j] = -R[EULER * i + j]
            _mat4(L, R, R)   # R <- L R (CONJ applied to R's columns above)
            if rk == ROT_LOCK:
                for i in range(3):
                    for a in range(EULER):
                        full[MAX_COLS * i + POSE + 3 + a] = M[EULER * (1 + i) + a]
                        full[MAX_COLS * i + 3 + a] = R[EULER * (1 + i) + a]
                r = 3
            else:
                for i in range(2):
                    for a in range(EULER):
                        full[MAX_COLS * i + POSE + 3 + a] = (b[3 * i] * M[EULER + a]
                                                             + b[3 * i + 1] * M[2 * EULER + a]
                                                             + b[3 * i + 2] * M[3 * EULER + a])
                        full[MAX_COLS * i + 3 + a] = (b[3 * i] * R[EULER + a]
                                                      + b[3 * i + 1] * R[2 * EULER + a]
                                                      + b[3 * i + 2] * R[3 * EULER + a])
                r = 2
        elif rk == ROT_UNIVERSAL:
            rotation(pp, Ap)
            rotation(pc, Ac)
            rot.matvec(Ap, &self.a0[k, 0], wp)
            rot.matvec(Ac, &self.a1c[k, 0], wc)
            for a in range(EULER):
                rotation_derivative(pp, a, D)
                rot.matvec(D, &self.a0[k, 0], z)
                full[3 + a] = rot.dot(z, wc)
                rotation_derivative(pc, a, D)
                rot.matvec(D, &self.a1c[k, 0], z)
                full[POSE + 3 + a] = rot.dot(z, wp)
            r = 1
        if tk != TR_NONE:
            if self.parent[k] >= 0:
                rotation(pp, Ap)
            else:
                memset(Ap, 0, 9 * sizeof(double))
                Ap[0] = Ap[4] = Ap[8] = 1.0
            rotation(pc, Ac)
            rot.matvec(Ac, &self.offset[k, 0], w)
            for i in range(3):
                w[i] = (rc[i] + w[i]) - rp[i]
            # blk: the 3 x 4 blocks d/dp_c (Ap^T dA_a(pc) offset) then d/dp_p (dA_a(pp)^T w)
            for a in range(EULER):
                rotation_derivative(pc, a, D)
                rot.matvec(D, &self.offset[k, 0], z)
                rot.matTvec(Ap, z, wc)
                rotation_derivative(pp, a, D)
                rot.matTvec(D, w, wp)
                for i in range(3):
                    blk[EULER * i + a] = wc[i]
                    M[EULER * i + a] = wp[i]
            if tk == TR_LOCK:
                for i in range(3):
                    for j in range(3):
                        full[MAX_COLS * (r + i) + j] = -Ap[3 * j + i]
                        full[MAX_COLS * (r + i) + POSE + j] = Ap[3 * j + i]
                    for a in range(EULER):
                        full[MAX_COLS * (r + i) + 3 + a] = M[EULER * i + a]
                        full[MAX_COLS * (r + i) + POSE + 3 + a] = blk[EULER * i + a]
                r += 3
            else:
                for i in range(2):
                    for j in range(3):
                        # (B Ap^T)[i, j] = sum_l B[i, l] Ap[j, l]
                        t1[0] = b[3 * i] * Ap[3 * j] + b[3 * i + 1] * Ap[3 * j + 1] \
                            + b[3 * i + 2] * Ap[3 * j + 2]
                        full[MAX_COLS * (r + i) + j] = -t1[0]
                        full[MAX_COLS * (r + i) + POSE + j] = t1[0]
                    for a in range(EULER):
                        full[MAX_COLS * (r + i) + 3 + a] = (b[3 * i] * M[a]
                                                            + b[3 * i + 1] * M[EULER + a]
                                                            + b[3 * i + 2] * M[2 * EULER + a])
                        full[MAX_COLS * (r + i) + POSE + 3 + a] = (
                            b[3 * i] * blk[a] + b[3 * i + 1] * blk[EULER + a]
                            + b[3 * i + 2] * blk[2 * EULER + a])
                r += 2
        for i in range(r):
            for j in range(nc):
                out[nc * i + j] = full[MAX_COLS * i + c0 + j]

    cdef void c_rows(self, const double* x, const double* targets, double* out) noexcept nogil:
        """Phi's link rows (n_rows_total) into out at the coordinates x, the drives' targets
        (n, 4)."""
        cdef int k
        cdef double y[MAX_COLS]
        for k in range(self.n):
            self._local(k, x, y)
            self._rows(k, y, targets + EULER * k, out + self.row0[k])

    cdef void c_jacobian(self, const double* x, const double* targets, double* out) noexcept nogil:
        """The links' Jacobian blocks (n_values) into out at the coordinates x."""
        cdef int k
        cdef double y[MAX_COLS]
        for k in range(self.n):
            if self.n_rows[k]:
                self._local(k, x, y)
                self._jacobian(k, y, targets + EULER * k, out + self.val0[k])

    cdef void c_along(self, const double* x, const double* v, const double* targets,
                      const double* weights, const double* taus, int n_points,
                      double* out) noexcept nogil:
        """Adds ``sum_s weights[s] Phi(x + taus[s] v, targets[s])`` of the links into out at
        their rows (n_rows_total): a stencil along a line (the targets (n_points, n, 4) given
        per point)."""
        cdef int k, s, i, nr
        cdef double y[MAX_COLS]
        cdef double yv[MAX_COLS]
        cdef double r[MAX_ROWS]
        cdef double* o
        for s in range(n_points):
            if weights[s] == 0.0:
                continue
            for k in range(self.n):
                self._local(k, x, y)
                self._local(k, v, yv)
                if self.parent[k] < 0:
                    memset(yv, 0, POSE * sizeof(double))
                for i in range(MAX_COLS):
                    y[i] += taus[s] * yv[i]
                nr = self._rows(k, y, targets + EULER * (self.n * s + k), r)
                o = out + self.row0[k]
                for i in range(nr):
                    o[i] += weights[s] * r[i]

    cdef void c_curvature(self, const double* x, const double* targets, const double* lam,
                          double* out) noexcept nogil:
        """``d(Phi_x^T lambda)/dx`` of each link with rows on its columns (n_cols x n_cols,
        row-major, entry (i, j) the derivative of the i-th component along the j-th column),
        into out (n_square): :func:`_link_curvature` at the drives' targets (n, 4)."""
        _link_curvature(self, x, targets, lam, out)


cdef inline void _mat4(const double* A, const double* B, double* C) noexcept nogil:
    """C = A B (4 x 4; C may alias B)."""
    cdef double T[EULER_BLOCK]
    cdef int i, j
    for i in range(EULER):
        for j in range(EULER):
            T[EULER * i + j] = (A[EULER * i] * B[j] + A[EULER * i + 1] * B[EULER + j]
                                + A[EULER * i + 2] * B[2 * EULER + j]
                                + A[EULER * i + 3] * B[3 * EULER + j])
    memcpy(C, T, EULER_BLOCK * sizeof(double))


cdef class ElementKernel:
    """The spatial beam elements (links of motion M_ELEMENT) between two bodies.

    Parameters (one row per element): ``parent`` (-1 the ground), ``body``, ``anchor`` (n, 3)
    the reference relative position s, ``Q`` (n, 9) the reference relative orientation,
    ``length`` (n,), ``stiffness`` (n, 6) its diagonal C, ``strain0`` (n, 6), ``damping``
    (n,) the Kelvin-Voigt time c. Each element's block is n_cols x n_cols (row-major) on its
    columns ``[r_p, p_p, r_c, p_c]`` (14) or ``[r_c, p_c]`` (7) on the ground, from ``sq0``.
    """

    cdef readonly int n, n_square
    cdef int[::1] parent, body, n_cols, sq0
    cdef double[:, ::1] anchor, Q, stiff, strain0
    cdef double[::1] length, damp

    def __init__(self, parent, body, anchor, Q, length, stiffness, strain0, damping):
        self.n = len(parent)
        self.parent = np.ascontiguousarray(parent, dtype=np.intc)
        self.body = np.ascontiguousarray(body, dtype=np.intc)
        self.anchor = np.ascontiguousarray(anchor, dtype=float).reshape(self.n, 3)
        self.Q = np.ascontiguousarray(Q, dtype=float).reshape(self.n, 9)
        self.length = np.ascontiguousarray(length, dtype=float)
        self.stiff = np.ascontiguousarray(stiffness, dtype=float).reshape(self.n, SPATIAL_NODE)
        self.strain0 = np.ascontiguousarray(strain0, dtype=float).reshape(self.n, SPATIAL_NODE)
        self.damp = np.ascontiguousarray(damping, dtype=float)
        cols = np.where(np.asarray(self.parent) >= 0, MAX_COLS, POSE).astype(np.intc)
        self.n_cols = cols
        self.sq0 = (np.cumsum(cols * cols) - cols * cols).astype(np.intc)
        self.n_square = int((cols * cols).sum())

    def sizes(self):
        """``(n_cols, sq0)`` per element (arrays)."""
        return np.asarray(self.n_cols), np.asarray(self.sq0)

    cdef inline void _local(self, int k, const double* x, double* y) noexcept nogil:
        cdef int p = self.parent[k]
        if p >= 0:
            memcpy(y, x + POSE * p, POSE * sizeof(double))
        else:
            memset(y, 0, POSE * sizeof(double))
            y[3] = 1.0
        memcpy(y + POSE, x + POSE * self.body[k], POSE * sizeof(double))

    cdef void _map(self, int k, const double* y, double* e, double* B) noexcept nogil:
        """e (6) = (u, psi) and B (6 x 14) = de/dy at the local coordinates y (spatial_dae.py,
        ``_element_map``)."""
        cdef const double* rp = y
        cdef const double* pp = y + 3
        cdef const double* rc = y + POSE
        cdef const double* pc = y + POSE + 3
        cdef double Ap[9]
        cdef double Ac[9]
        cdef double T[9]
        cdef double R[9]
        cdef double Ji[9]
        cdef double S[9]
        cdef double Ep[EULER_MAP]
        cdef double Ec[EULER_MAP]
        cdef double d[3]
        cdef double np_, nc_, s
        cdef int i, j, a, l
        rotation(pp, Ap)
        rotation(pc, Ac)
        np_ = rot.dot(pp, pp) + pp[3] * pp[3]
        nc_ = rot.dot(pc, pc) + pc[3] * pc[3]
        for i in range(9):
            Ap[i] /= np_
            Ac[i] /= nc_
        for i in range(3):
            d[i] = rc[i] - rp[i]
        rot.matTvec(Ap, d, e)
        for i in range(3):
            e[i] -= self.anchor[k, i]
        # R = Ap^T Ac Q^T
        rot.matTmul(Ap, Ac, T)
        rot.matmulT(T, &self.Q[k, 0], R)
        rot.logm(R, e + 3)
        rot.left_jacobian_inverse(e + 3, Ji)
        euler_E(pp, Ep)
        euler_E(pc, Ec)
        for i in range(EULER_MAP):
            Ep[i] *= 2.0 / np_
            Ec[i] *= 2.0 / nc_
        memset(B, 0, ELEMENT_MAP * sizeof(double))
        for i in range(3):
            for j in range(3):
                B[MAX_COLS * i + j] = -Ap[3 * j + i]
                B[MAX_COLS * i + POSE + j] = Ap[3 * j + i]
        # Ap^T skew(rc - rp) Tp
        rot.skew(d, S)
        rot.matTmul(Ap, S, T)
        for i in range(3):
            for a in range(EULER):
                s = 0.0
                for l in range(3):
                    s += T[3 * i + l] * Ep[EULER * l + a]
                B[MAX_COLS * i + 3 + a] = s
        # Ji Ap^T, then times Tp (negated) and Tc
        for i in range(3):
            for j in range(3):
                s = 0.0
                for l in range(3):
                    s += Ji[3 * i + l] * Ap[3 * j + l]
                T[3 * i + j] = s
        for i in range(3):
            for a in range(EULER):
                s = 0.0
                for l in range(3):
                    s += T[3 * i + l] * Ep[EULER * l + a]
                B[MAX_COLS * (3 + i) + 3 + a] = -s
                s = 0.0
                for l in range(3):
                    s += T[3 * i + l] * Ec[EULER * l + a]
                B[MAX_COLS * (3 + i) + POSE + 3 + a] = s

    cdef int _force(self, int k, const double* y, const double* yd, double* F,
                    double* power) noexcept nogil:
        """F (14) = B^T f of element k at the local coordinates y and rates yd; -1 if its
        rotation reached pi."""
        cdef double e[SPATIAL_NODE]
        cdef double ed[SPATIAL_NODE]
        cdef double f[SPATIAL_NODE]
        cdef double B[ELEMENT_MAP]
        cdef double s
        cdef int i, j
        self._map(k, y, e, B)
        for i in range(SPATIAL_NODE):
            s = 0.0
            for j in range(MAX_COLS):
                s += B[MAX_COLS * i + j] * yd[j]
            ed[i] = s
        if element_force(&self.anchor[k, 0], &self.Q[k, 0], e, ed, self.length[k],
                         &self.stiff[k, 0], &self.strain0[k, 0], self.damp[k], f, NULL, NULL,
                         power) != 0:
            return -1
        for j in range(MAX_COLS):
            s = 0.0
            for i in range(SPATIAL_NODE):
                s += B[MAX_COLS * i + j] * f[i]
            F[j] = s
        return 0

    cdef int c_force(self, const double* x, const double* v, double* out) noexcept nogil:
        """Adds every element's ``B^T f`` into out (n_coordinates,); returns the index of an
        element whose rotation reached pi, or -1."""
        cdef int k, i, bad = -1
        cdef double y[MAX_COLS]
        cdef double yd[MAX_COLS]
        cdef double F[MAX_COLS]
        for k in range(self.n):
            self._local(k, x, y)
            self._local(k, v, yd)
            if self.parent[k] < 0:
                memset(yd, 0, POSE * sizeof(double))
            if self._force(k, y, yd, F, NULL) != 0:
                bad = k
                break
            if self.parent[k] >= 0:
                for i in range(POSE):
                    out[POSE * self.parent[k] + i] += F[i]
            for i in range(POSE):
                out[POSE * self.body[k] + i] += F[POSE + i]
        return bad

    cdef int c_stiffness(self, const double* x, const double* v, double* out) noexcept nogil:
        """``-dF/dx`` of each element on its columns (n_cols x n_cols, row-major) into out
        (n_square,): central differences with the step 1e-6; returns the index of an element
        whose rotation reached pi, or -1."""
        cdef int k, i, c, c0, nc, bad = -1
        cdef double h = 1e-6, keep
        cdef double y[MAX_COLS]
        cdef double yd[MAX_COLS]
        cdef double Fp[MAX_COLS]
        cdef double Fm[MAX_COLS]
        cdef double* o
        for k in range(self.n):
            self._local(k, x, y)
            self._local(k, v, yd)
            if self.parent[k] < 0:
                memset(yd, 0, POSE * sizeof(double))
            nc = self.n_cols[k]
            c0 = MAX_COLS - nc
            o = out + self.sq0[k]
            for c in range(nc):
                keep = y[c0 + c]
                y[c0 + c] = keep + h
                if self._force(k, y, yd, Fp, NULL) != 0:
                    bad = k
                    break
                y[c0 + c] = keep - h
                if self._force(k, y, yd, Fm, NULL) != 0:
                    bad = k
                    break
                y[c0 + c] = keep
                for i in range(nc):
                    o[nc * i + c] = -(Fp[c0 + i] - Fm[c0 + i]) / (2.0 * h)
            if bad >= 0:
                break
        return bad

    cdef void c_damping(self, const double* x, double* out) noexcept nogil:
        """``B^T D B`` of each element on its columns into out (n_square,) (zeros where the
        element has no damping)."""
        cdef int k, i, j, a, b, c0, nc
        cdef double y[MAX_COLS]
        cdef double e[SPATIAL_NODE]
        cdef double B[ELEMENT_MAP]
        cdef double D[SPATIAL_BLOCK]
        cdef double DB[ELEMENT_MAP]
        cdef double s
        cdef double* o
        for k in range(self.n):
            nc = self.n_cols[k]
            c0 = MAX_COLS - nc
            o = out + self.sq0[k]
            if self.damp[k] == 0.0:
                memset(o, 0, nc * nc * sizeof(double))
                continue
            self._local(k, x, y)
            self._map(k, y, e, B)
            element_damping(&self.anchor[k, 0], &self.Q[k, 0], e, self.length[k],
                            &self.stiff[k, 0], self.damp[k], D)
            for a in range(SPATIAL_NODE):
                for j in range(MAX_COLS):
                    s = 0.0
                    for b in range(SPATIAL_NODE):
                        s += D[SPATIAL_NODE * a + b] * B[MAX_COLS * b + j]
                    DB[MAX_COLS * a + j] = s
            for i in range(nc):
                for j in range(nc):
                    s = 0.0
                    for a in range(SPATIAL_NODE):
                        s += B[MAX_COLS * a + c0 + i] * DB[MAX_COLS * a + c0 + j]
                    o[nc * i + j] = s

    def stiffness(self, const double[::1] x, const double[::1] v, double[::1] out):
        """:meth:`c_stiffness` on arrays (the formulation's reference ``stiffness``)."""
        return self.c_stiffness(&x[0], &v[0], &out[0] if out.shape[0] else NULL)

    def damping(self, const double[::1] x, double[::1] out):
        """:meth:`c_damping` on arrays (the formulation's reference ``damping``)."""
        if out.shape[0]:
            self.c_damping(&x[0], &out[0])

    def energy(self, const double[:, ::1] X, double[::1] out):
        """The elements' strain energy (J) at each of the states X (S, n) into out (S,)."""
        cdef int k, s
        cdef double U
        cdef double y[MAX_COLS]
        cdef double e[SPATIAL_NODE]
        cdef double B[ELEMENT_MAP]
        with nogil:
            for s in range(X.shape[0]):
                U = 0.0
                for k in range(self.n):
                    self._local(k, &X[s, 0], y)
                    self._map(k, y, e, B)
                    U += element_energy(&self.anchor[k, 0], &self.Q[k, 0], e, self.length[k],
                                        &self.stiff[k, 0], &self.strain0[k, 0])
                out[s] = U

    cdef double c_dissipation(self, const double* x, const double* v) noexcept nogil:
        """The power (W) the elements' Kelvin-Voigt damping dissipates,
        ``sum ed . (l B^T C c B ed)`` (the kernel's power output)."""
        cdef int k
        cdef double P = 0.0, Pk
        cdef double y[MAX_COLS]
        cdef double yd[MAX_COLS]
        cdef double F[MAX_COLS]
        for k in range(self.n):
            if self.damp[k] == 0.0:
                continue
            self._local(k, x, y)
            self._local(k, v, yd)
            if self.parent[k] < 0:
                memset(yd, 0, POSE * sizeof(double))
            Pk = 0.0
            if self._force(k, y, yd, F, &Pk) == 0:
                P += Pk
        return P


cdef void c_cable_elements(int n, const double* x, const double* v, const long* dofs,
                           const double* length, const double* EA, const double* EI,
                           const double* damping, const double* rest,
                           const unsigned char* curved, double* f, double* U, double* P,
                           double* K, double* C) noexcept nogil:
    """The ANCF cable kernel over the n elements: force f (n, 12), strain energy U and
    dissipated power P (n,), and where K is not NULL ``K = -df/de``, ``C = -df/de'``
    (n, 12, 12), each element's coordinates ``x[dofs[k]]`` (dofs (n, 12)), relative to its
    rest state ``rest[k]`` (8) where ``curved[k]`` (else the straight cable's, passed as
    NULL)."""
    cdef int k, i
    cdef double e[CABLE_ELEMENT]
    cdef double ed[CABLE_ELEMENT]
    cdef const double* ref
    for k in range(n):
        for i in range(CABLE_ELEMENT):
            e[i] = x[dofs[CABLE_ELEMENT * k + i]]
            ed[i] = v[dofs[CABLE_ELEMENT * k + i]]
        ref = rest + CABLE_REST * k if curved[k] else NULL
        if K != NULL:
            U[k] = cable_force_rest(e, ed, length[k], EA[k], EI[k], damping[k], ref,
                                    f + CABLE_ELEMENT * k, K + CABLE_ELEMENT_BLOCK * k,
                                    C + CABLE_ELEMENT_BLOCK * k, P + k)
        else:
            U[k] = cable_force_rest(e, ed, length[k], EA[k], EI[k], damping[k], ref,
                                    f + CABLE_ELEMENT * k, NULL, NULL, P + k)


def cable_elements(const double[::1] x, const double[::1] v, const long[:, ::1] dofs,
                   const double[::1] length, const double[::1] EA, const double[::1] EI,
                   const double[::1] damping, const double[:, ::1] rest,
                   const unsigned char[::1] curved, double[:, ::1] f, double[::1] U,
                   double[::1] P, double[:, :, ::1] K, double[:, :, ::1] C, bint tangents):
    """:func:`c_cable_elements` on arrays, with ``tangents`` K and C (n_e, 12, 12)."""
    if dofs.shape[0] == 0:
        return
    with nogil:
        c_cable_elements(dofs.shape[0], &x[0], &v[0], &dofs[0, 0], &length[0], &EA[0], &EI[0],
                         &damping[0], &rest[0, 0], &curved[0], &f[0, 0], &U[0], &P[0],
                         &K[0, 0, 0] if tangents else NULL, &C[0, 0, 0] if tangents else NULL)


cdef inline void euler_G(const double* p, double* G) noexcept nogil:
    """G (12, 3 x 4 row-major) = G(p) = [-e, -e^ + p0 I]."""
    cdef int i
    cdef double S[9]
    rot.skew(p + 1, S)
    for i in range(3):
        G[EULER * i] = -p[1 + i]
        G[EULER * i + 1] = -S[3 * i]
        G[EULER * i + 2] = -S[3 * i + 1]
        G[EULER * i + 3] = -S[3 * i + 2]
        G[EULER * i + 1 + i] += p[0]


cdef inline void rotary_action(const double* G, const double* J, const double* a, double c,
                               double* out) noexcept nogil:
    """out (4) = c G^T J G a (G 3 x 4, J 3 x 3)."""
    cdef double w[3]
    cdef double Jw[3]
    cdef int i, k
    for i in range(3):
        w[i] = (G[EULER * i] * a[0] + G[EULER * i + 1] * a[1] + G[EULER * i + 2] * a[2]
                + G[EULER * i + 3] * a[3])
    rot.matvec(J, w, Jw)
    for k in range(EULER):
        out[k] = c * (G[k] * Jw[0] + G[EULER + k] * Jw[1] + G[2 * EULER + k] * Jw[2])


cdef void body_mass_action(int n, const double* x, const double* a, const double* mass,
                           const double* inertia, double* out) noexcept nogil:
    """``M(x) a`` of the n bodies into out[:7 n]: ``m a_r`` and ``4 G^T J G a_p`` per body
    (inertia (n, 3, 3))."""
    cdef int b, i
    cdef double G[EULER_MAP]
    for b in range(n):
        for i in range(3):
            out[POSE * b + i] = mass[b] * a[POSE * b + i]
        euler_G(x + POSE * b + 3, G)
        rotary_action(G, inertia + 9 * b, a + POSE * b + 3, 4.0, out + POSE * b + 3)


cdef void body_forces(int n, const double* x, const double* v, const double* mass,
                      const double* inertia, const double* g, double* out) noexcept nogil:
    """The n bodies' weight ``m g`` and gyroscopic force ``8 G(p')^T J G(p') p`` into
    out[:7 n] (x, v the coordinates and rates, 7 per body)."""
    cdef int b, i
    cdef double G[EULER_MAP]
    for b in range(n):
        for i in range(3):
            out[POSE * b + i] = mass[b] * g[i]
        euler_G(v + POSE * b + 3, G)
        rotary_action(G, inertia + 9 * b, x + POSE * b + 3, 8.0, out + POSE * b + 3)


cdef class GatheredLinks:
    """The loops shared by the link kernels whose rows and Jacobian are functions of their
    columns alone, gathered side after side (:class:`CableLinkKernel`, :class:`ArcLinkKernel`):
    the rows, their stencil along a line, the Jacobian blocks and the curvature of all links,
    each over the subclass's ``_gather``, ``_rows`` and ``_jacobian`` of one link, called
    through the type's method table as any cdef method of a class that is not final is.

    A subclass sets ``n``, ``n_rows``, ``n_cols`` (at most ``ARC_MAX_COLS``), ``row0`` (each
    link's first row in Phi), ``val0`` (its first entry in the Jacobian values, a block
    n_rows x n_cols row-major), ``sq0`` (its first entry of the curvature, n_cols x n_cols,
    none for a link without rows), ``n_values`` and ``n_square``.
    """

    cdef readonly int n, n_values, n_square
    cdef int[::1] n_rows, n_cols, row0, val0, sq0

    cdef void _gather(self, int k, const double* x, double* z) noexcept nogil:
        """z = link k's columns of x (n_cols[k]), side after side."""
        pass

    cdef void _rows(self, int k, const double* z, double* out) noexcept nogil:
        """Link k's rows (n_rows[k]) at its columns z."""
        pass

    cdef void _jacobian(self, int k, const double* z, double* out) noexcept nogil:
        """Link k's block (n_rows[k] x n_cols[k], row-major) at its columns z."""
        pass

    cdef void c_rows(self, const double* x, double* out) noexcept nogil:
        """The links' rows into out at their rows of Phi."""
        cdef int k
        cdef double z[ARC_MAX_COLS]
        for k in range(self.n):
            self._gather(k, x, z)
            self._rows(k, z, out + self.row0[k])

    cdef void c_along(self, const double* x, const double* v, const double* weights,
                      const double* taus, int n_points, double* out) noexcept nogil:
        """Adds ``sum_s weights[s] Phi(x + taus[s] v)`` of the links into out at their rows."""
        cdef int k, s, i
        cdef double z[ARC_MAX_COLS]
        cdef double zv[ARC_MAX_COLS]
        cdef double r[MAX_ROWS]
        for s in range(n_points):
            if weights[s] == 0.0:
                continue
            for k in range(self.n):
                self._gather(k, x, z)
                self._gather(k, v, zv)
                for i in range(self.n_cols[k]):
                    z[i] += taus[s] * zv[i]
                self._rows(k, z, r)
                for i in range(self.n_rows[k]):
                    out[self.row0[k] + i] += weights[s] * r[i]

    cdef void c_jacobian(self, const double* x, double* out) noexcept nogil:
        """The links' Jacobian blocks (n_values) into out."""
        cdef int k
        cdef double z[ARC_MAX_COLS]
        for k in range(self.n):
            if self.n_rows[k]:
                self._gather(k, x, z)
                self._jacobian(k, z, out + self.val0[k])

    cdef void c_curvature(self, const double* x, const double* lam, double* out) noexcept nogil:
        """``d(Phi_x^T lambda)/dx`` of each link with rows on its columns (n_cols x n_cols,
        row-major), into out (n_square): :func:`_link_curvature`."""
        _link_curvature(self, x, NULL, lam, out)

    def rows(self, const double[::1] x):
        """The links' rows (their row0 offsets from the first link's) at the coordinates x."""
        out = np.zeros(max(int(np.sum(self.n_rows)), 1))
        cdef double[::1] o = out
        cdef int k
        cdef double z[ARC_MAX_COLS]
        for k in range(self.n):
            self._gather(k, &x[0], z)
            self._rows(k, z, &o[self.row0[k] - self.row0[0]])
        return out[:int(np.sum(self.n_rows))]

    def jacobian(self, const double[::1] x):
        """The links' Jacobian blocks (list of (n_rows, n_cols)) at the coordinates x."""
        out = []
        cdef double[::1] b
        cdef int k
        cdef double z[ARC_MAX_COLS]
        for k in range(self.n):
            block = np.zeros((self.n_rows[k], self.n_cols[k]))
            b = block.reshape(-1)
            if self.n_rows[k]:
                self._gather(k, &x[0], z)
                self._jacobian(k, z, &b[0])
            out.append(block)
        return out


ctypedef fused Links:
    LinkKernel
    GatheredLinks


cdef inline void _jacobian_lambda(Links links, int k, const double* y, const double* targets,
                                  const double* lk, int nr, int nc, double* J,
                                  const double* plus, double two_h, double* out) noexcept nogil:
    """``J^T lambda`` (n_cols[k] = nc) of link k at y (:func:`_link_curvature`'s y), J its
    block's work (MAX_ROWS x ARC_MAX_COLS), lk its rows' (nr) multipliers: into out (nc) where
    ``plus`` is NULL; else the central difference ``(plus - J^T lambda) / two_h`` into out at
    the stride nc (a column of the curvature block)."""
    cdef int i, j
    cdef double s
    if Links is LinkKernel:
        links._jacobian(k, y, targets + EULER * k, J)
    else:
        links._jacobian(k, y, J)
    for i in range(nc):
        s = 0.0
        for j in range(nr):
            s += J[nc * j + i] * lk[j]
        if plus == NULL:
            out[i] = s
        else:
            out[nc * i] = (plus[i] - s) / two_h


cdef void _link_curvature(Links links, const double* x, const double* targets,
                          const double* lam, double* out) noexcept nogil:
    """``d(Phi_x^T lambda)/dx`` of each of ``links``' links with rows, on its columns (n_cols x
    n_cols, row-major, entry (i, j) the derivative of the i-th component along the j-th
    column), into out (n_square): central differences of the analytic ``J^T lambda``, O(h^2),
    with the steps ``h = 1e-6 max(1, max |x[columns]|)``. The loop of both kinds of link
    kernel, specialized at compile time (a fused type: no dispatch added): a
    :class:`LinkKernel` link's Jacobian takes its drive's target (``targets`` (n, 4)) and the
    14 entries ``[r_p, p_p, r_c, p_c]`` of which its columns are the last n_cols (a ground
    link's 7: the parent is the ground's fixed pose); a :class:`GatheredLinks` link's takes its
    gathered columns alone (``targets`` unused)."""
    cdef int k, i, c, nr, nc, c0 = 0
    cdef double h, s, keep
    cdef double y[ARC_MAX_COLS]
    cdef double J[MAX_ROWS * ARC_MAX_COLS]
    cdef double fp[ARC_MAX_COLS]
    cdef double* z
    cdef double* o
    cdef const double* lk
    for k in range(links.n):
        nr, nc = links.n_rows[k], links.n_cols[k]
        if nr == 0:
            continue
        if Links is LinkKernel:
            c0 = MAX_COLS - nc
            links._local(k, x, y)
        else:
            links._gather(k, x, y)
        z = y + c0                  # the link's columns
        s = 1.0
        for i in range(nc):
            s = max(s, fabs(z[i]))
        h = 1e-6 * s
        lk = lam + links.row0[k]
        o = out + links.sq0[k]
        for c in range(nc):
            keep = z[c]
            z[c] = keep + h
            _jacobian_lambda(links, k, y, targets, lk, nr, nc, J, NULL, 0.0, fp)
            z[c] = keep - h
            _jacobian_lambda(links, k, y, targets, lk, nr, nc, J, fp, 2.0 * h, o + c)
            z[c] = keep


cdef class CableLinkKernel(GatheredLinks):
    """The joints at cable points (:class:`rancf.formulations.spatial_dae._CableLink`): rows
    ``x_child - x_parent`` (3) of their two points and, for a clamp, ``(A(p_o) b_i) . r'``
    (i = 1, 2), for a splice (two nodes of one cable: a ring) ``r'_child - r'_parent`` (3), with
    the Jacobian blocks and the curvature as :class:`LinkKernel`'s.

    Parameters (one row per link): ``side_kind`` (n, 2) 0 the ground, 1 a body, 2 a cable
    node; ``side_col`` (n, 2) its first coordinate in x; ``offset`` (n, 2, 3) the point on the
    ground or in a body's frame; ``clamp`` (n,) 1 for a clamp, 2 for a splice (the codes of
    ``SpatialTree.cable_joint_kind``); ``slope`` (n,) the side that is
    the cable; ``B`` (n, 6) the clamp's two axes; ``row0`` (n,) each link's first row in Phi.
    A link's columns are its sides' (7 a body, 6 a cable node, none the ground), in order.
    """

    cdef int[:, ::1] side_kind, side_col
    cdef int[::1] clamp, slope
    cdef double[:, :, ::1] offset
    cdef double[:, ::1] B

    def __init__(self, side_kind, side_col, offset, clamp, slope, B, row0):
        self.n = len(clamp)
        self.side_kind = np.ascontiguousarray(side_kind, dtype=np.intc).reshape(self.n, 2)
        self.side_col = np.ascontiguousarray(side_col, dtype=np.intc).reshape(self.n, 2)
        self.offset = np.ascontiguousarray(offset, dtype=float).reshape(self.n, 2, 3)
        self.clamp = np.ascontiguousarray(clamp, dtype=np.intc)
        self.slope = np.ascontiguousarray(slope, dtype=np.intc)
        self.B = np.ascontiguousarray(B, dtype=float).reshape(self.n, 6)
        self.row0 = np.ascontiguousarray(row0, dtype=np.intc)
        size = np.array([0, POSE, CABLE_NODE])[np.asarray(self.side_kind)].sum(axis=1) \
            if self.n else np.zeros(0, int)
        rows = np.array([3, 5, 6])[np.asarray(self.clamp)]
        self.n_rows = rows.astype(np.intc)
        self.n_cols = np.asarray(size, dtype=np.intc)
        self.val0 = (np.cumsum(rows * size) - rows * size).astype(np.intc)
        self.sq0 = (np.cumsum(size * size) - size * size).astype(np.intc)
        self.n_values = int((rows * size).sum())
        self.n_square = int((size * size).sum())

    cdef inline int _width(self, int k, int s) noexcept nogil:
        cdef int kind = self.side_kind[k, s]
        return POSE if kind == SIDE_BODY else (CABLE_NODE if kind == SIDE_CABLE else 0)

    cdef void _gather(self, int k, const double* x, double* y) noexcept nogil:
        """y = the link's column coordinates, side after side."""
        cdef int s, w, c = 0
        for s in range(2):
            w = self._width(k, s)
            if w:
                memcpy(y + c, x + self.side_col[k, s], w * sizeof(double))
            c += w

    cdef void _rows(self, int k, const double* y, double* out) noexcept nogil:
        cdef double pt[2][3]
        cdef double A[9]
        cdef double Ab[3]
        cdef int s, i, c = 0, kind
        cdef const double* slope_r = NULL
        cdef const double* other_p = NULL
        for s in range(2):
            kind = self.side_kind[k, s]
            if kind == SIDE_GROUND:
                for i in range(3):
                    pt[s][i] = self.offset[k, s, i]
            elif kind == SIDE_BODY:
                rotation(y + c + 3, A)
                rot.matvec(A, &self.offset[k, s, 0], Ab)
                for i in range(3):
                    pt[s][i] = y[c + i] + Ab[i]
            else:
                for i in range(3):
                    pt[s][i] = y[c + i]
            if s == self.slope[k] and kind == SIDE_CABLE:
                slope_r = y + c + 3
            elif kind == SIDE_BODY:
                other_p = y + c + 3
            c += self._width(k, s)
        for i in range(3):
            out[i] = pt[1][i] - pt[0][i]
        if self.clamp[k] == CABLE_SPLICE:
            # both sides are cable nodes (6 columns each)
            for i in range(3):
                out[3 + i] = y[CABLE_NODE + 3 + i] - y[3 + i]
        elif self.clamp[k]:
            if self.side_kind[k, 1 - self.slope[k]] == SIDE_BODY:
                rotation(other_p, A)
            else:
                memset(A, 0, 9 * sizeof(double))
                A[0] = A[4] = A[8] = 1.0
            for i in range(2):
                rot.matvec(A, &self.B[k, 3 * i], Ab)
                out[3 + i] = rot.dot(Ab, slope_r)

    cdef double _held(self, int k, const double* x) noexcept nogil:
        """Clamp k's slope along the axis it holds, ``r' . (A(p_o) (b_1 x b_2))`` at x (o the
        side that is not the cable, ``A(p_o)`` its frame times ``p_o . p_o``, the identity
        for the ground); 1 for a link that is no clamp (a ball joint, a splice).
        ``b_1 x b_2 = a``, the cable's reference tangent in o's frame (``SpatialTree.
        cable_joint_axes``: ``b_2 = a x b_1``, b_1 a unit vector normal to a), so that the
        drawn configuration holds ``|r'_0|^2 > 0``."""
        cdef double y[ARC_MAX_COLS]
        cdef double A[9]
        cdef double axis[3]
        cdef double held[3]
        cdef int sl = self.slope[k]
        # the sides' columns in y, side 0's first: the cable node's [r, r'], the other's
        cdef int c_slope = self._width(k, 0) if sl else 0
        cdef int c_other = 0 if sl else self._width(k, 0)
        if self.clamp[k] != CABLE_CLAMP:
            return 1.0
        self._gather(k, x, y)
        rot.cross(&self.B[k, 0], &self.B[k, 3], axis)
        if self.side_kind[k, 1 - sl] == SIDE_BODY:
            rotation(y + c_other + 3, A)
            rot.matvec(A, axis, held)
        else:
            memcpy(held, axis, 3 * sizeof(double))
        return rot.dot(held, y + c_slope + 3)

    cdef int turned_over(self, const double* x) noexcept nogil:
        """The first clamp whose slope has turned over against the axis it holds at x
        (:meth:`_held` not positive), or -1: its rows ``(A(p_o) b_i) . r' = 0`` hold r'
        along that axis with either sign, and the reversed one is no state of the clamp (the
        cable's slope would have passed through zero length there: its material line
        inverted at the clamp, an equilibrium of the rows that no motion from the drawn
        configuration reaches), as the planar DAE's held angles (``_dae.pyx``, ``_held``)."""
        cdef int k
        for k in range(self.n):
            if not self._held(k, x) > 0.0:
                return k
        return -1

    def held(self, const double[::1] x):
        """:meth:`_held` of every link at the coordinates x (n,), for the tests and the
        message of a refused state."""
        out = np.ones(self.n)
        cdef int k
        for k in range(self.n):
            out[k] = self._held(k, &x[0])
        return out

    cdef void _jacobian(self, int k, const double* y, double* out) noexcept nogil:
        """The block (n_rows x n_cols, row-major) at the column coordinates y."""
        cdef int s, i, j, a, c = 0, kind, nc = self.n_cols[k], sl = self.slope[k]
        cdef double sign
        cdef double A[9]
        cdef double D[9]
        cdef double z[3]
        cdef int c_slope = 0, c_other = 0
        memset(out, 0, self.n_rows[k] * nc * sizeof(double))
        for s in range(2):
            kind = self.side_kind[k, s]
            sign = -1.0 if s == 0 else 1.0
            if kind != SIDE_GROUND:
                for i in range(3):
                    out[nc * i + c + i] = sign
            if kind == SIDE_BODY:
                for a in range(EULER):
                    rotation_derivative(y + c + 3, a, D)
                    rot.matvec(D, &self.offset[k, s, 0], z)
                    for i in range(3):
                        out[nc * i + c + 3 + a] = sign * z[i]
            if s == sl:
                c_slope = c
            else:
                c_other = c
            c += self._width(k, s)
        if not self.clamp[k]:
            return
        if self.clamp[k] == CABLE_SPLICE:
            for i in range(3):
                out[nc * (3 + i) + 3 + i] = -1.0
                out[nc * (3 + i) + CABLE_NODE + 3 + i] = 1.0
            return
        if self.side_kind[k, 1 - sl] == SIDE_BODY:
            rotation(y + c_other + 3, A)
            for a in range(EULER):
                rotation_derivative(y + c_other + 3, a, D)
                for i in range(2):
                    rot.matvec(D, &self.B[k, 3 * i], z)
                    out[nc * (3 + i) + c_other + 3 + a] = rot.dot(z, y + c_slope + 3)
        else:
            memset(A, 0, 9 * sizeof(double))
            A[0] = A[4] = A[8] = 1.0
        for i in range(2):
            rot.matvec(A, &self.B[k, 3 * i], z)
            for j in range(3):
                out[nc * (3 + i) + c_slope + 3 + j] = z[j]


cdef void arc_pose(const double* xa, const double* xb, double xi, double* y,
                   double* T) noexcept nogil:
    """The pose ``y = (X, q)`` (7) of the point at xi of the beam element joining the bodies
    of coordinates xa, xb (7 each: origin, Euler parameters), and (T not NULL) its Jacobian
    ``T = dy/d(xa, xb)`` (7 x 14, row-major).

    ``X = r_a + A_a L(psi, d)`` is the point ``Result.position(beam.at(s))`` follows
    (:func:`rancf.formulations._spatial_arc.arc_motion`: ``psi = log(A_a^T A_b)``, ``d = A_a^T
    (r_b - r_a)``, A the unit rotations ``A(p) / (p . p)``), and ``q = p_a (x) s``, ``s =
    (cos(xi |psi| / 2), sin(xi |psi| / 2) psi / |psi|)`` the quaternion of ``exp(xi psi^)``:
    ``A(q) = A(p_a) exp(xi psi^)``, the element's frame there times ``p_a . p_a``, as a body's
    ``A(p)`` is its frame times ``p . p`` (at xi = 0, y is node a's coordinates exactly).
    With global virtual rotations ``dth = 2 E(p) dp / (p . p)`` (exact off the unit sphere:
    ``E(p) p = 0``), ``dpsi = J_l(psi)^-1 A_a^T (dth_b - dth_a)``, ``dd = A_a^T (dr_b - dr_a
    + e x dth_a)``, ``e = r_b - r_a``::

        dX = dr_a + dth_a x c + A_a (G dpsi + H dd),   c = A_a L,  H = xi J_l(xi psi) J_l(psi)^-1
        dq = dp_a (x) s + p_a (x) (0, xi J_l(xi psi) dpsi / 2) (x) s

    (G = dL/dpsi, :func:`rancf.formulations._spatial_arc.arc_gradient`)."""
    cdef double Aa[9]
    cdef double Ab[9]
    cdef double R[9]
    cdef double Ji[9]
    cdef double Jx[9]
    cdef double H[9]
    cdef double G[9]
    cdef double M1[9]
    cdef double K[9]
    cdef double W1[9]
    cdef double Ea[EULER_MAP]
    cdef double Eb[EULER_MAP]
    cdef double Da[EULER_MAP]
    cdef double Db[EULER_MAP]
    cdef double Pa[EULER_MAP]
    cdef double Pb[EULER_MAP]
    cdef double Lq[16]
    cdef double Rs[16]
    cdef double Wq[16]
    cdef double psi[3]
    cdef double e[3]
    cdef double d[3]
    cdef double L[3]
    cdef double c[3]
    cdef double s[4]
    cdef double xp[3]
    cdef double na, nb, angle, half, f, v
    cdef int i, j, m
    cdef const double* pa = xa + 3
    cdef const double* pb = xb + 3
    na = pa[0] * pa[0] + pa[1] * pa[1] + pa[2] * pa[2] + pa[3] * pa[3]
    nb = pb[0] * pb[0] + pb[1] * pb[1] + pb[2] * pb[2] + pb[3] * pb[3]
    rotation(pa, Aa)
    rotation(pb, Ab)
    for i in range(9):
        Aa[i] /= na
        Ab[i] /= nb
    rot.matTmul(Aa, Ab, R)
    rot.logm(R, psi)
    for i in range(3):
        e[i] = xb[i] - xa[i]
    rot.matTvec(Aa, e, d)
    arc_local(psi, d, xi, L)
    rot.matvec(Aa, L, c)
    for i in range(3):
        y[i] = xa[i] + c[i]
    # s = exp(xi psi) as a quaternion: sin(a / 2) / a to its series below 1e-4
    angle = xi * sqrt(rot.dot(psi, psi))
    half = 0.5 * angle
    f = 0.5 * (1.0 - half * half / 6.0) if angle < 1e-4 else sin(half) / angle
    s[0] = cos(half)
    for i in range(3):
        s[1 + i] = f * xi * psi[i]
    qmul(pa, s, y + 3)
    if T == NULL:
        return
    memset(T, 0, POSE * MAX_COLS * sizeof(double))
    rot.left_jacobian_inverse(psi, Ji)
    for i in range(3):
        xp[i] = xi * psi[i]
    rot.left_jacobian(xp, Jx)
    rot.matmul(Jx, Ji, H)
    for i in range(9):
        H[i] *= xi
    arc_gradient(psi, d, xi, G)
    # M1 = A_a H A_a^T, K = A_a G J_l^-1 A_a^T
    rot.matmul(Aa, H, W1)
    rot.matmulT(W1, Aa, M1)
    rot.matmul(G, Ji, W1)
    rot.matmul(Aa, W1, K)
    rot.matmulT(K, Aa, W1)
    memcpy(K, W1, 9 * sizeof(double))
    # dth/dp = 2 E(p) / (p . p) (3 x 4 each)
    euler_E(pa, Ea)
    euler_E(pb, Eb)
    for i in range(EULER_MAP):
        Ea[i] *= 2.0 / na
        Eb[i] *= 2.0 / nb
    # dX/dth_a = -c^ + M1 e^ - K, dX/dth_b = K
    for i in range(3):
        for j in range(3):
            W1[3 * i + j] = -K[3 * i + j]
    W1[1] += c[2]
    W1[2] -= c[1]
    W1[3] -= c[2]
    W1[5] += c[0]
    W1[6] += c[1]
    W1[7] -= c[0]
    for i in range(3):
        # (M1 e^)[i, j] = sum_m M1[i, m] (e^)[m, j]: columns (M1 e^)[:, j] = M1 (e_j x e)...
        W1[3 * i + 0] += M1[3 * i + 1] * e[2] - M1[3 * i + 2] * e[1]
        W1[3 * i + 1] += M1[3 * i + 2] * e[0] - M1[3 * i + 0] * e[2]
        W1[3 * i + 2] += M1[3 * i + 0] * e[1] - M1[3 * i + 1] * e[0]
    for i in range(3):
        for j in range(3):
            T[MAX_COLS * i + j] = (1.0 if i == j else 0.0) - M1[3 * i + j]
            T[MAX_COLS * i + POSE + j] = M1[3 * i + j]
        for j in range(EULER):
            v = 0.0
            f = 0.0
            for m in range(3):
                v += W1[3 * i + m] * Ea[EULER * m + j]
                f += K[3 * i + m] * Eb[EULER * m + j]
            T[MAX_COLS * i + 3 + j] = v
            T[MAX_COLS * i + POSE + 3 + j] = f
    # dpsi/dp_a = -J_l^-1 A_a^T Ea, dpsi/dp_b = J_l^-1 A_a^T Eb; then (xi / 2) J_l(xi psi)
    rot.matmulT(Aa, Ji, W1)         # W1 = A_a Ji^T: (Ji A_a^T)[i, m] = W1[m, i]
    for i in range(3):
        for j in range(EULER):
            v = 0.0
            f = 0.0
            for m in range(3):
                v += W1[3 * m + i] * Ea[EULER * m + j]
                f += W1[3 * m + i] * Eb[EULER * m + j]
            Da[EULER * i + j] = -v
            Db[EULER * i + j] = f
    for i in range(3):
        for j in range(EULER):
            v = 0.0
            f = 0.0
            for m in range(3):
                v += Jx[3 * i + m] * Da[EULER * m + j]
                f += Jx[3 * i + m] * Db[EULER * m + j]
            Pa[EULER * i + j] = 0.5 * xi * v
            Pb[EULER * i + j] = 0.5 * xi * f
    # dq = R(s) dp_a + W [0; w], W = L(p_a) R(s)
    qleft(pa, Lq)
    qright(s, Rs)
    _mat4(Lq, Rs, Wq)
    for i in range(EULER):
        for j in range(EULER):
            v = Rs[EULER * i + j]
            f = 0.0
            for m in range(3):
                v += Wq[EULER * i + 1 + m] * Pa[EULER * m + j]
                f += Wq[EULER * i + 1 + m] * Pb[EULER * m + j]
            T[MAX_COLS * (3 + i) + 3 + j] = v
            T[MAX_COLS * (3 + i) + POSE + 3 + j] = f


cdef inline void arc_gather(const int* kind, const int* a, const int* b, const double* x,
                            double* z) noexcept nogil:
    """z = the columns of x of two sides (a link's or a spring-damper's; ``kind``, ``a``, ``b``
    its rows of ``side_kind``, ``side_a``, ``side_b``), side after side: a body's pose (POSE),
    an element point's two nodes' poses (2 POSE: ArcSide's value times POSE), the ground's
    none."""
    cdef int s, c = 0
    for s in range(2):
        if kind[s] != ARC_SIDE_GROUND:
            memcpy(z + c, x + POSE * a[s], POSE * sizeof(double))
        if kind[s] == ARC_SIDE_ARC:
            memcpy(z + c + POSE, x + POSE * b[s], POSE * sizeof(double))
        c += POSE * kind[s]


cdef class ArcLinkKernel(GatheredLinks):
    """The joints with a side at a point between two nodes of a beam (``beam.at(s)``,
    :class:`rancf.formulations.spatial_dae._ArcLink`): the rows of their kind between the
    poses of their two sides, each the ground, a body, or the point at xi of a beam element
    (:func:`arc_pose`, a function of the element's two nodes), with the Jacobian by the chain
    rule ``dPhi/dx = (dPhi/dy) (dy/dx)``: ``dPhi/dy`` the analytic blocks of
    :class:`LinkKernel` (``inner``: the same links with each side a body of coordinates y,
    anchor and offset zero at an arc side), ``dy/dx`` that of :func:`arc_pose` (the identity
    at a body side). At xi = 0 the rows and their Jacobian are the node's joint's.

    Parameters: ``inner`` (a :class:`LinkKernel` of the links, parent 0, or -1 where it is the
    ground, child 1, none driven), ``side_kind`` (n, 2) 0 the ground, 1 a body, 2 an element
    point; ``side_a``, ``side_b`` (n, 2) the body (an element's first node's) and the
    element's second node's; ``xi`` (n, 2); ``row0`` (n,) each link's first row in Phi. A
    link's columns are its sides' (7 a body, 14 an element point: its two nodes', none the
    ground), parent's first.
    """

    cdef LinkKernel inner
    cdef int[:, ::1] side_kind, side_a, side_b
    cdef double[:, ::1] xi

    def __init__(self, LinkKernel inner, side_kind, side_a, side_b, xi, row0):
        self.inner = inner
        self.n = inner.n
        self.side_kind = np.ascontiguousarray(side_kind, dtype=np.intc).reshape(self.n, 2)
        self.side_a = np.ascontiguousarray(side_a, dtype=np.intc).reshape(self.n, 2)
        self.side_b = np.ascontiguousarray(side_b, dtype=np.intc).reshape(self.n, 2)
        self.xi = np.ascontiguousarray(xi, dtype=float).reshape(self.n, 2)
        self.row0 = np.ascontiguousarray(row0, dtype=np.intc)
        rows = np.asarray(inner.n_rows)
        widths = np.array([0, POSE, MAX_COLS])
        size = widths[np.asarray(self.side_kind)].sum(axis=1) if self.n else np.zeros(0, int)
        square = np.where(rows > 0, size * size, 0)
        self.n_rows = rows.astype(np.intc)
        self.n_cols = np.asarray(size, dtype=np.intc)
        self.val0 = (np.cumsum(rows * size) - rows * size).astype(np.intc)
        self.sq0 = (np.cumsum(square) - square).astype(np.intc)
        self.n_values = int((rows * size).sum())
        self.n_square = int(square.sum())

    cdef inline int _width(self, int k, int s) noexcept nogil:
        # ArcSide's values 0, 1, 2 (ground, body, element point) give 0, POSE, 2 POSE columns
        return POSE * self.side_kind[k, s]

    cdef void _gather(self, int k, const double* x, double* z) noexcept nogil:
        """z = the link's columns of x, side after side (a body's 7, an element's 14)."""
        arc_gather(&self.side_kind[k, 0], &self.side_a[k, 0], &self.side_b[k, 0], x, z)

    cdef void _map(self, int k, const double* z, double* y, double* T) noexcept nogil:
        """y (14) = the inner link's ``[r_p, p_p, r_c, p_c]`` of the columns z, and (T not
        NULL) each side's ``dy/dz`` (7 x 14 row-major, side after side in T[98 s:])."""
        cdef int s, c = 0, kind
        for s in range(2):
            kind = self.side_kind[k, s]
            if kind == ARC_SIDE_GROUND:
                memcpy(y + POSE * s, GROUND_X, POSE * sizeof(double))
            elif kind == ARC_SIDE_BODY:
                memcpy(y + POSE * s, z + c, POSE * sizeof(double))
            else:
                arc_pose(z + c, z + c + POSE, self.xi[k, s], y + POSE * s,
                         T + POSE * MAX_COLS * s if T != NULL else NULL)
            c += self._width(k, s)

    cdef void _rows(self, int k, const double* z, double* out) noexcept nogil:
        cdef double y[MAX_COLS]
        self._map(k, z, y, NULL)
        self.inner._rows(k, y, UNIT_Q, out)

    cdef void _jacobian(self, int k, const double* z, double* out) noexcept nogil:
        """The block (n_rows x n_cols, row-major) at the columns z."""
        cdef double y[MAX_COLS]
        cdef double T[2 * POSE * MAX_COLS]
        cdef double Jy[MAX_ROWS * MAX_COLS]
        cdef int s, i, j, m, c = 0, w, kind, nr = self.n_rows[k], nc = self.n_cols[k]
        cdef int ny = self.inner.n_cols[k], cy
        cdef double v
        self._map(k, z, y, T)
        self.inner._jacobian(k, y, UNIT_Q, Jy)
        for s in range(2):
            kind = self.side_kind[k, s]
            w = self._width(k, s)
            # the side's columns in the inner block (the ground parent has none)
            cy = POSE * s - (MAX_COLS - ny)
            if kind == ARC_SIDE_BODY:
                for i in range(nr):
                    for j in range(POSE):
                        out[nc * i + c + j] = Jy[ny * i + cy + j]
            elif kind == ARC_SIDE_ARC:
                for i in range(nr):
                    for j in range(MAX_COLS):
                        v = 0.0
                        for m in range(POSE):
                            v += Jy[ny * i + cy + m] * T[POSE * MAX_COLS * s + MAX_COLS * m + j]
                        out[nc * i + c + j] = v
            c += w

    def poses(self, const double[:, ::1] X):
        """The inner links' side poses y (S, n, 14) at the coordinates X (S, n_x): where the
        joints' coordinates and reactions are read (:class:`LinkKernel`'s conventions)."""
        out = np.zeros((X.shape[0], self.n, MAX_COLS))
        cdef double[:, :, ::1] o = out
        cdef int S, k
        cdef double z[ARC_MAX_COLS]
        for S in range(X.shape[0]):
            for k in range(self.n):
                self._gather(k, &X[S, 0], z)
                self._map(k, z, &o[S, k, 0], NULL)
        return out

    def inner_jacobian(self, const double[::1] x):
        """The inner links' blocks ``dPhi/dy`` (list of (n_rows, 7 or 14)) at the sides'
        poses of the coordinates x."""
        out = []
        cdef double[::1] b
        cdef int k
        cdef double z[ARC_MAX_COLS]
        cdef double y[MAX_COLS]
        for k in range(self.n):
            block = np.zeros((self.n_rows[k], self.inner.n_cols[k]))
            b = block.reshape(-1)
            if self.n_rows[k]:
                self._gather(k, &x[0], z)
                self._map(k, z, y, NULL)
                self.inner._jacobian(k, y, UNIT_Q, &b[0])
            out.append(block)
        return out


cdef class ArcSpringKernel:
    """Spring-dampers between points with an end at a point between two nodes of a beam
    (``beam.at(s)``): the force ``f = k (l - l0) + c l'`` along the line of their ends (as
    :func:`point_spring`), an end being the ground's point, a body's point or the point at xi
    of a beam element, its position and velocity those of the element's curve
    (:func:`rancf.formulations._spatial_arc.arc_motion`, the point ``Result.position`` of
    ``beam.at(s)`` follows) and the force there the wrenches on the element's two nodes that
    do its virtual work (:func:`rancf.formulations._spatial_arc.arc_wrenches`); the tangents
    by central differences of the generalized forces in the items' own columns.

    Parameters (one row per spring-damper): ``side_kind`` (n, 2) 0 the ground, 1 a body, 2 an
    element's point; ``side_a``, ``side_b`` (n, 2) the body (an element's first node's) and
    the element's second node's; ``xi`` (n, 2); ``offset`` (n, 2, 3) the ground point or the
    point in the body's frame; ``law`` (n, 3) ``(k, c, l0)``. An item's columns are its ends'
    (7 a body, 14 an element's point, none the ground), first end's first.
    """

    cdef readonly int n, n_square
    cdef int[:, ::1] side_kind, side_a, side_b
    cdef double[:, ::1] xi, law
    cdef double[:, :, ::1] offset
    cdef int[::1] n_cols, sq0

    def __init__(self, side_kind, side_a, side_b, xi, offset, law):
        self.n = len(law)
        self.side_kind = np.ascontiguousarray(side_kind, dtype=np.intc).reshape(self.n, 2)
        self.side_a = np.ascontiguousarray(side_a, dtype=np.intc).reshape(self.n, 2)
        self.side_b = np.ascontiguousarray(side_b, dtype=np.intc).reshape(self.n, 2)
        self.xi = np.ascontiguousarray(xi, dtype=float).reshape(self.n, 2)
        self.offset = np.ascontiguousarray(offset, dtype=float).reshape(self.n, 2, 3)
        self.law = np.ascontiguousarray(law, dtype=float).reshape(self.n, 3)
        widths = np.array([0, POSE, MAX_COLS])
        size = widths[np.asarray(self.side_kind)].sum(axis=1) if self.n else np.zeros(0, int)
        self.n_cols = np.asarray(size, dtype=np.intc)
        self.sq0 = (np.cumsum(size * size) - size * size).astype(np.intc)
        self.n_square = int((size * size).sum())

    cdef inline int _width(self, int k, int s) noexcept nogil:
        # ArcSide's values 0, 1, 2 (ground, body, element point) give 0, POSE, 2 POSE columns
        return POSE * self.side_kind[k, s]

    cdef void _gather(self, int k, const double* x, double* z) noexcept nogil:
        """z = the item's columns of x, end after end (a body's 7, an element's 14)."""
        arc_gather(&self.side_kind[k, 0], &self.side_a[k, 0], &self.side_b[k, 0], x, z)

    cdef void _force(self, int k, const double* z, const double* zv, double* Q, double* U,
                     double* P) noexcept nogil:
        """Item k's generalized forces Q (n_cols) at its columns z and their rates zv, its
        potential U and dissipated power P."""
        cdef double Aa[9]
        cdef double Ab[9]
        cdef double Va[WRENCH]
        cdef double Vb[WRENCH]
        cdef double Wa[WRENCH]
        cdef double Wb[WRENCH]
        cdef double x[2][3]
        cdef double u[2][3]
        cdef double n[3]
        cdef double F[3]
        cdef double l, rate, f, pp
        cdef int s, i, c, kind
        c = 0
        for s in range(2):
            kind = self.side_kind[k, s]
            if kind == ARC_SIDE_ARC:
                body_frame(z + c, zv + c, Aa, Va + 3, &pp)
                body_frame(z + c + POSE, zv + c + POSE, Ab, Vb + 3, &pp)
                for i in range(3):
                    Va[i] = zv[c + i]
                    Vb[i] = zv[c + POSE + i]
                arc_motion(z + c, Aa, z + c + POSE, Ab, Va, Vb, self.xi[k, s], x[s], u[s])
            else:
                spring_end(kind == ARC_SIDE_BODY, z + c, zv + c, &self.offset[k, s, 0], x[s],
                           u[s])
            c += self._width(k, s)
        for i in range(3):
            n[i] = x[1][i] - x[0][i]
        l = sqrt(rot.dot(n, n))
        rate = 0.0
        if l > 0.0:
            for i in range(3):
                n[i] /= l
                u[1][i] -= u[0][i]
            rate = rot.dot(n, u[1])
        f = self.law[k, 0] * (l - self.law[k, 2]) + self.law[k, 1] * rate
        U[0] = 0.5 * self.law[k, 0] * (l - self.law[k, 2]) ** 2
        P[0] = self.law[k, 1] * rate * rate
        c = 0
        for s in range(2):
            kind = self.side_kind[k, s]
            # the first end pulled by f n, the second by -f n
            for i in range(3):
                F[i] = (f if s == 0 else -f) * n[i]
            if kind == ARC_SIDE_BODY:
                on_body(z + c, F, ZERO3, x[s], 1.0, Q + c)
            elif kind == ARC_SIDE_ARC:
                _unit_rotation(z + c, 0, Aa)
                _unit_rotation(z + c + POSE, 0, Ab)
                arc_wrenches(z + c, Aa, z + c + POSE, Ab, self.xi[k, s], F, ZERO3, False, Wa, Wb)
                on_body(z + c, Wa, Wa + 3, z + c, 1.0, Q + c)
                on_body(z + c + POSE, Wb, Wb + 3, z + c + POSE, 1.0, Q + c + POSE)
            c += self._width(k, s)

    cdef void c_force(self, const double* x, const double* v, double* out) noexcept nogil:
        """Adds the items' generalized forces into out (n)."""
        cdef int k, s, i, c, w
        cdef double z[ARC_MAX_COLS]
        cdef double zv[ARC_MAX_COLS]
        cdef double Q[ARC_MAX_COLS]
        cdef double U, P
        for k in range(self.n):
            self._gather(k, x, z)
            self._gather(k, v, zv)
            self._force(k, z, zv, Q, &U, &P)
            c = 0
            for s in range(2):
                if self.side_kind[k, s] != ARC_SIDE_GROUND:
                    for i in range(POSE):
                        out[POSE * self.side_a[k, s] + i] += Q[c + i]
                if self.side_kind[k, s] == ARC_SIDE_ARC:
                    for i in range(POSE):
                        out[POSE * self.side_b[k, s] + i] += Q[c + POSE + i]
                c += self._width(k, s)

    cdef void c_terms(self, const double* x, const double* v, double* U, double* P) noexcept nogil:
        """The items' potential U and dissipated power P, summed."""
        cdef int k
        cdef double z[ARC_MAX_COLS]
        cdef double zv[ARC_MAX_COLS]
        cdef double Q[ARC_MAX_COLS]
        cdef double u, p
        U[0] = P[0] = 0.0
        for k in range(self.n):
            self._gather(k, x, z)
            self._gather(k, v, zv)
            self._force(k, z, zv, Q, &u, &p)
            U[0] += u
            P[0] += p

    cdef void c_tangents(self, const double* x, const double* v, double hx, double hv,
                         double* K, double* C) noexcept nogil:
        """``K = -dQ/dz`` and ``C = -dQ/dz'`` of each item on its columns (n_cols x n_cols,
        row-major, from ``sq0``) by central differences with the steps hx, hv."""
        cdef int k, i, j, nc
        cdef double z[ARC_MAX_COLS]
        cdef double zv[ARC_MAX_COLS]
        cdef double Qp[ARC_MAX_COLS]
        cdef double Qm[ARC_MAX_COLS]
        cdef double U, P, keep
        for k in range(self.n):
            nc = self.n_cols[k]
            self._gather(k, x, z)
            self._gather(k, v, zv)
            for j in range(nc):
                keep = z[j]
                z[j] = keep + hx
                self._force(k, z, zv, Qp, &U, &P)
                z[j] = keep - hx
                self._force(k, z, zv, Qm, &U, &P)
                z[j] = keep
                for i in range(nc):
                    K[self.sq0[k] + nc * i + j] = -(Qp[i] - Qm[i]) / (2.0 * hx)
                keep = zv[j]
                zv[j] = keep + hv
                self._force(k, z, zv, Qp, &U, &P)
                zv[j] = keep - hv
                self._force(k, z, zv, Qm, &U, &P)
                zv[j] = keep
                for i in range(nc):
                    C[self.sq0[k] + nc * i + j] = -(Qp[i] - Qm[i]) / (2.0 * hv)

    def force(self, const double[::1] x, const double[::1] v):
        """The items' generalized forces (n,) at (x, v)."""
        out = np.zeros(x.shape[0])
        cdef double[::1] o = out
        self.c_force(&x[0], &v[0], &o[0])
        return out

    def terms(self, const double[::1] x, const double[::1] v):
        """``(U, P)``: the items' potential (J) and dissipated power (W) at (x, v)."""
        cdef double U, P
        self.c_terms(&x[0], &v[0], &U, &P)
        return U, P

    def tangents(self, const double[::1] x, const double[::1] v, double hx, double hv):
        """``(K, C)``: :meth:`c_tangents`' blocks (n_square each)."""
        K, C = np.zeros(max(self.n_square, 1)), np.zeros(max(self.n_square, 1))
        cdef double[::1] Kv = K
        cdef double[::1] Cv = C
        self.c_tangents(&x[0], &v[0], hx, hv, &Kv[0], &Cv[0])
        return K[:self.n_square], C[:self.n_square]


def arc_gradients(const double[::1] p, const double[::1] d, double xi):
    """``(L (3,), G (3, 3))``: the arc map's point in the first node's frame and its exact
    gradient in p (:func:`rancf.formulations._spatial_arc.arc_local`, ``arc_gradient``)."""
    L, G = np.zeros(3), np.zeros((3, 3))
    cdef double[::1] Lv = L
    cdef double[:, ::1] Gv = G
    arc_local(&p[0], &d[0], xi, &Lv[0])
    arc_gradient(&p[0], &d[0], xi, &Gv[0, 0])
    return L, G


def arc_poses(const double[::1] xa, const double[::1] xb, double xi):
    """:func:`arc_pose` of two bodies' coordinates (7 each): ``(y (7,), T (7, 14))``."""
    y, T = np.zeros(POSE), np.zeros((POSE, MAX_COLS))
    cdef double[::1] yv = y
    cdef double[:, ::1] Tv = T
    arc_pose(&xa[0], &xb[0], xi, &yv[0], &Tv[0, 0])
    return y, T


cdef double[:, :, ::1] _EULER_GK = np.zeros((EULER, 3, EULER))


cdef void _fill_gk() noexcept:
    """G(p) = sum_k p_k GK[k]: GK[k] = G(e_k)."""
    cdef int k
    cdef double e[4]
    cdef double G[EULER_MAP]
    for k in range(EULER):
        e[0] = e[1] = e[2] = e[3] = 0.0
        e[k] = 1.0
        euler_G(e, G)
        memcpy(&_EULER_GK[k, 0, 0], G, EULER_MAP * sizeof(double))


_fill_gk()


cdef void c_body_tangents(int n, const double* x, const double* v, const double* inertia,
                          double h_p, double h_v, double* K, double* C) noexcept nogil:
    """Central differences of each of the n bodies' gyroscopic force ``g(p, p') = 8 G(p')^T J
    G(p') p`` (4): ``K[b, :, k] = dg/dp_k`` (step h_p) and ``C[b, :, k] = -dg/dp'_k`` (step
    h_v), K and C (n, 4, 4)."""
    cdef int b, k, i
    cdef double p[4]
    cdef double pd[4]
    cdef double G[EULER_MAP]
    cdef double gp[4]
    cdef double gm[4]
    cdef double keep
    for b in range(n):
        memcpy(p, x + POSE * b + 3, EULER * sizeof(double))
        memcpy(pd, v + POSE * b + 3, EULER * sizeof(double))
        euler_G(pd, G)
        for k in range(EULER):
            keep = p[k]
            p[k] = keep + h_p
            rotary_action(G, inertia + 9 * b, p, 8.0, gp)
            p[k] = keep - h_p
            rotary_action(G, inertia + 9 * b, p, 8.0, gm)
            p[k] = keep
            for i in range(EULER):
                K[EULER_BLOCK * b + EULER * i + k] = (gp[i] - gm[i]) / (2.0 * h_p)
        for k in range(EULER):
            keep = pd[k]
            pd[k] = keep + h_v
            euler_G(pd, G)
            rotary_action(G, inertia + 9 * b, p, 8.0, gp)
            pd[k] = keep - h_v
            euler_G(pd, G)
            rotary_action(G, inertia + 9 * b, p, 8.0, gm)
            pd[k] = keep
            for i in range(EULER):
                C[EULER_BLOCK * b + EULER * i + k] = -(gp[i] - gm[i]) / (2.0 * h_v)


def body_tangents(const double[::1] x, const double[::1] v, const double[:, :, ::1] inertia,
                  double h_p, double h_v, double[:, :, ::1] K, double[:, :, ::1] C):
    """:func:`c_body_tangents` on arrays: K, C (n, 4, 4)."""
    if inertia.shape[0]:
        c_body_tangents(inertia.shape[0], &x[0], &v[0], &inertia[0, 0, 0], h_p, h_v,
                        &K[0, 0, 0], &C[0, 0, 0])


cdef void body_mass_blocks(int n, const double* x, const double* a, const double* inertia,
                           double c_m, double c_mq, double* out) noexcept nogil:
    """Adds to out (n, 4, 4) each body's ``c_m 4 G^T J G`` (its rotary mass) and ``c_mq
    d(M a)/dp = c_mq (4 (G_k^T J G a_p) e_k^T - 4 G^T J G(a_p))``."""
    cdef int b, i, j, k
    cdef double G[EULER_MAP]
    cdef double Ga[EULER_MAP]
    cdef double JG[EULER_MAP]
    cdef double JGa[3]
    cdef double w[3]
    cdef double s
    cdef const double* J
    cdef const double* ap
    cdef double* o
    cdef double* EK = &_EULER_GK[0, 0, 0]
    for b in range(n):
        J = inertia + 9 * b
        o = out + EULER_BLOCK * b
        ap = a + POSE * b + 3
        euler_G(x + POSE * b + 3, G)
        # JG = J G (3 x 4)
        for i in range(3):
            for k in range(EULER):
                JG[EULER * i + k] = (J[3 * i] * G[k] + J[3 * i + 1] * G[EULER + k]
                                     + J[3 * i + 2] * G[2 * EULER + k])
        if c_m != 0.0:
            for j in range(EULER):
                for k in range(EULER):
                    s = (G[j] * JG[k] + G[EULER + j] * JG[EULER + k]
                         + G[2 * EULER + j] * JG[2 * EULER + k])
                    o[EULER * j + k] += c_m * 4.0 * s
        if c_mq != 0.0:
            euler_G(ap, Ga)
            for i in range(3):
                JGa[i] = (JG[EULER * i] * ap[0] + JG[EULER * i + 1] * ap[1]
                          + JG[EULER * i + 2] * ap[2] + JG[EULER * i + 3] * ap[3])
            for j in range(EULER):
                for k in range(EULER):
                    # G_k^T JGa, G_k = dG/dp_k (constant)
                    s = EK[EULER_MAP * k + j] * JGa[0] \
                        + EK[EULER_MAP * k + EULER + j] * JGa[1] \
                        + EK[EULER_MAP * k + 2 * EULER + j] * JGa[2]
                    # (G^T J G(a_p))[j, k]: J G(a_p) column k
                    for i in range(3):
                        w[i] = (J[3 * i] * Ga[k] + J[3 * i + 1] * Ga[EULER + k]
                                + J[3 * i + 2] * Ga[2 * EULER + k])
                    s -= G[j] * w[0] + G[EULER + j] * w[1] + G[2 * EULER + j] * w[2]
                    o[EULER * j + k] += c_mq * 4.0 * s


# --- the formulation as a compiled StepProblem ---------------------------------------------
cdef double[STENCIL] _D1 = [-1.0 / 60.0, 9.0 / 60.0, -45.0 / 60.0, 0.0, 45.0 / 60.0,
                            -9.0 / 60.0, 1.0 / 60.0]
cdef double[STENCIL] _D2 = [2.0 / 180.0, -27.0 / 180.0, 270.0 / 180.0, -490.0 / 180.0,
                            270.0 / 180.0, -27.0 / 180.0, 2.0 / 180.0]


cdef inline void _sum_values(double* w, Py_ssize_t size, const long* at, const double* values,
                             int n_values, const long* unit_at, int n_unit) noexcept nogil:
    """w (size) = the values summed at their positions ``at``, then 1 at the n_unit positions
    ``unit_at`` (the projection's W = I)."""
    cdef int k
    memset(w, 0, size * sizeof(double))
    for k in range(n_values):
        w[at[k]] += values[k]
    for k in range(n_unit):
        w[unit_at[k]] = 1.0


cdef class _LU:
    """LU factors of an (N, N) matrix given by its values on a fixed pattern, value k summed
    at ``at[k]``: LAPACK's dense getrf/getrs (``at`` the column-major position ``row + N col``)
    up to spatial_dae.py's ``DENSE_BELOW`` unknowns, SuperLU beyond (``at`` the position in
    the CSC data of ``indices``, ``indptr``; one Python call a factorization and a solve,
    whose own work then dominates)."""

    cdef int N
    cdef bint sparse, release_factor, release_solve
    cdef long[::1] at, unit_at
    cdef double[::1] work
    cdef int[::1] ipiv
    cdef object indices, indptr, lu, data

    def __init__(self, int N, bint sparse, at, unit_at, indices, indptr):
        self.N, self.sparse = N, sparse
        self.at = np.ascontiguousarray(at, dtype=np.int_)
        self.unit_at = np.ascontiguousarray(unit_at, dtype=np.int_)
        self.indices, self.indptr = indices, indptr
        self.ipiv = np.zeros(max(N, 1), dtype=np.intc)
        self.work = np.zeros(max(len(indices) if sparse else N * N, 1))
        self.data = np.asarray(self.work)
        # the dense LU's operations (getrf 2 N^3 / 3, getrs 2 N^2) against NOGIL_FLOPS
        self.release_factor = 2.0 * N ** 3 / 3.0 >= NOGIL_FLOPS
        self.release_solve = 2.0 * N * N >= NOGIL_FLOPS

    cdef int factor(self, const double* values, int n_values, int n_unit) except -1:
        """Factor the matrix of the values (duplicates summed in their order), its first
        n_unit diagonal entries (at ``unit_at``) set to 1 (the projection's W = I, where the
        rest of that block is zero)."""
        cdef int info = 0, N = self.N
        cdef double* w = &self.work[0]
        cdef const long* at = &self.at[0]
        cdef const long* unit_at = &self.unit_at[0] if n_unit else NULL
        cdef int* ipiv = &self.ipiv[0]
        cdef Py_ssize_t size = self.work.shape[0]
        # without the GIL from NOGIL_FLOPS on (runs in other threads go on meanwhile), but for
        # SuperLU's Python call
        if self.release_factor and not self.sparse:
            with nogil:
                _sum_values(w, size, at, values, n_values, unit_at, n_unit)
                dgetrf(&N, &N, w, &N, ipiv, &info)
        else:
            _sum_values(w, size, at, values, n_values, unit_at, n_unit)
            if not self.sparse:
                dgetrf(&N, &N, w, &N, ipiv, &info)
        if self.sparse:
            self.lu = spla.splu(sp.csc_matrix((self.data, self.indices, self.indptr),
                                              shape=(N, N)))
            return 0
        if info > 0:
            # as SuperLU and rancf.formulations.problem.NewtonFactor say it
            raise RuntimeError(f"Factor is exactly singular (pivot {info} of the LU factors "
                               "is zero)")
        return 0

    cdef int solve(self, double* x) except -1:
        cdef int info = 0, one = 1, N = self.N
        cdef char trans = b'N'
        cdef double[::1] sol
        cdef double* w = &self.work[0]
        cdef int* ipiv = &self.ipiv[0]
        if self.sparse:
            sol = self.lu.solve(np.asarray(<double[:N]> x))
            memcpy(x, &sol[0], N * sizeof(double))
            return 0
        if self.release_solve:
            with nogil:
                dgetrs(&trans, &N, &one, w, &N, ipiv, x, &N, &info)
        else:
            dgetrs(&trans, &N, &one, w, &N, ipiv, x, &N, &info)
        return 0


cdef class SpatialProblem(StepProblem):
    """The spatial DAE of a :class:`rancf.formulations.spatial_dae.SpatialDAE` (its
    ``compiled``) as the implicit loop's :class:`~rancf.formulations._problem.StepProblem`:
    residual, constraint rows and their biases, Newton's matrix summed on the formulation's
    fixed pattern into preallocated arrays and factored (``_LU``), all in C over the kernels
    above (bodies, beam elements, links, joints at cable points, cable elements).

    Python runs inside a step only where a model has Python inputs: once for each new time,
    its drive functions (``inputs.at_time``, and ``SpatialDAE._loop_drive_values`` for drives
    of joints that close loops; two times kept, the residual's and the constraints' of
    generalized-alpha-S), and, in a model that has them, its load functions (``inputs.at_time``)
    and the effort functions' values (``SpatialDAE._efforts_at``). The loads' forces
    (:meth:`_loads`) and their Jacobian (:meth:`_load_tangents`), the efforts' and
    spring-dampers' forces, tangents and power
    (:func:`joint_wrench`, :func:`joint_spring`, :func:`point_spring`; the tangents by central
    differences in each item's two bodies' states, as ``SpatialDAE._item_tangents``; the
    effort functions' own slopes by the owner's ``_effort_tangents``, Python) and the
    coordinates and rates an effort function is given (:func:`link_values`) are computed in C.
    The outputs are mapped by the owner's ``observe_frames`` when the Result asks for them.
    """

    formulation = "dae"

    cdef object owner
    cdef LinkKernel links
    cdef CableLinkKernel cables
    cdef ArcLinkKernel arcs
    cdef ArcSpringKernel arc_springs
    cdef double[::1] as_K, as_C
    cdef ElementKernel elements
    cdef public double load_factor
    cdef int nb, c0, n_joint_rows, n_cable_el, n_driven, n_J, n_vals, n_items, n_item_vals
    cdef bint has_loads, has_items, damped, cable_damped, timed
    # the model's arrays (read-only; developer: Thread safety)
    cdef const double[::1] mass, gravity, cable_gravity, cable_l, cable_EA, cable_EI, cable_c
    cdef const double[::1] cable_mass_data
    cdef const int[::1] cable_mass_indptr, cable_mass_indices
    cdef const double[:, :, ::1] inertia, cable_blocks
    cdef const long[:, ::1] cable_dofs
    cdef const double[:, ::1] cable_rest
    cdef const unsigned char[::1] curved
    cdef int[::1] driven, drive_index, J_row, J_col, item_keep
    cdef const double[:, ::1] drive_values      # the tree's drives' (q, q', q'') (n_q, 3)
    cdef int n_q, n_loop_drives
    # the drives' target jets (n_links, 3, 4) at two times
    cdef double[:, :, ::1] jets0, jets1
    cdef double t0, t1
    cdef double[:, ::1] T                # the targets along a stencil (POSE * n_links, 4)
    cdef double[::1] J, G, vals, work, work2, f, U, P, Kc, Cc, Kb, Kg, Cb, D, taus
    cdef double[::1] lam_zero, el_work
    cdef double[::1] q_J, q_phi_t, phi_t
    cdef double t_J, t_phi_t
    cdef bint J_valid, phi_t_valid
    cdef _LU lu, lu_projection
    # the force items (efforts, joint spring-dampers, spring-dampers between points), in the
    # order of the owner's _item_cols: their sides' bodies (-1: the ground) and kernel data
    cdef int n_ef, n_js
    cdef bint effort_functions
    cdef const long[::1] item_parent, item_child
    cdef const long[:, ::1] item_cols
    cdef const double[:, ::1] ef_offset, ef_f, ef_mp, ef_mc
    cdef const double[:, ::1] js_offset, js_anchor, js_axis, js_law, js_f, js_mp, js_mc
    cdef const double[:, :, ::1] js_QT, sp_offsets
    cdef const unsigned char[::1] js_kind
    cdef const double[:, ::1] sp_law
    cdef const double[::1] ef_values
    cdef double[::1] ef_g, item_Q, item_K, item_C
    # the loads: body (cable nodes after the bodies), follower flag, offset, and the values
    # the owner's inputs write at each time (views of its arrays)
    cdef int n_loads
    cdef const long[::1] ld_body, ld_arc
    cdef const unsigned char[::1] ld_follower
    cdef const double[:, ::1] ld_offset, ld_force, ld_moment
    cdef double[::1] load_out, ld_q, ld_fp, ld_fm
    # the loads between two nodes (their indices) and their blocks of Newton's matrix
    cdef int n_arc_loads
    cdef const long[::1] arc_loads
    cdef double[::1] al_K
    # the loads on cable nodes and their nodes' slope blocks in the cable elements' blocks
    cdef int n_cable_loads
    cdef const long[::1] cable_loads, cable_load_slots
    # the joints of effort functions (the owner's _probe): their coordinates and rates
    cdef int n_pr
    cdef const long[::1] pr_parent, pr_child
    cdef const int[::1] pr_motion
    cdef const double[:, ::1] pr_offset, pr_anchor, pr_a0, pr_a1
    cdef const double[:, :, ::1] pr_QT
    cdef double[:, ::1] pr_q, pr_qd
    # the arguments of the last call of the effort functions (keep_inputs: was it at a state?)
    cdef double[:, ::1] last_q, last_qd
    cdef double last_effort_t
    cdef long last_effort_call       # the owner's effort_calls after that call
    # the values of the model's input functions at the run's outputs (keep_inputs)
    cdef list kept
    cdef object kept_slots
    # the owner's reference angles (``SpatialDAE._angle_ref``, this run's: the path's branch)
    cdef double[::1] branch, js_ref
    cdef double[:, ::1] pr_ref
    cdef const unsigned char[:, ::1] pr_angle
    cdef bint has_angles

    def __init__(self, owner, sparse, at, unit_at, indices, indptr, J_row, J_col, item_keep):
        cdef int N
        self.owner = owner
        self.links, self.cables, self.elements = (owner._link_kernel, owner._cable_kernel,
                                                  owner._element_kernel)
        self.arcs = owner._arc_kernel
        self.arc_springs = owner._arc_springs
        self.as_K = np.zeros(max(self.arc_springs.n_square, 1))
        self.as_C = np.zeros(max(self.arc_springs.n_square, 1))
        self.n, self.m = owner.n_coordinates, owner.n_constraints
        self.projection = False
        self.load_factor = 1.0
        tree = owner.tree
        self.nb, self.c0, self.n_joint_rows = owner.n_bodies, owner._c0, owner.n_joint_rows
        floats = lambda a: np.ascontiguousarray(a, dtype=float)
        # (a model of cables only has no body: one unused row, so that the pointers exist)
        self.mass = owner._mass if self.nb else np.zeros(1)
        self.inertia = owner._inertia if self.nb else np.zeros((1, 3, 3))
        self.gravity = floats(tree.gravity)
        self.has_loads = bool(len(tree.load_body))
        self.has_items = bool(len(owner._item_cols))
        self.n_items = len(owner._item_cols)
        self.damped = owner._damped
        # the cables
        self.n_cable_el = len(tree.cable_length)
        self.cable_dofs = owner._cable_dofs
        self.cable_l, self.cable_EA, self.cable_EI, self.cable_c = (
            owner._cable_l, owner._cable_EA, owner._cable_EI, owner._cable_c)
        self.cable_rest, self.curved = owner._cable_rest, owner._cable_curved
        self.cable_damped = bool(np.asarray(tree.cable_damping).any())
        self.cable_gravity = floats(owner._cable_gravity) if len(owner._cable_gravity) \
            else np.zeros(1)
        self.cable_blocks = floats(owner._cable_mass_blocks).reshape(-1, CABLE_ELEMENT,
                                                                      CABLE_ELEMENT)
        M = owner._cable_mass
        self.cable_mass_data = floats(M.data) if M.nnz else np.zeros(1)
        self.cable_mass_indices = np.ascontiguousarray(M.indices, dtype=np.intc) if M.nnz \
            else np.zeros(1, dtype=np.intc)
        self.cable_mass_indptr = np.ascontiguousarray(M.indptr, dtype=np.intc)
        ne = max(self.n_cable_el, 1)
        self.f, self.U, self.P = np.zeros(CABLE_ELEMENT * ne), np.zeros(ne), np.zeros(ne)
        self.Kc = np.zeros(CABLE_ELEMENT_BLOCK * ne)
        self.Cc = np.zeros(CABLE_ELEMENT_BLOCK * ne)
        # the drives
        self.driven = np.ascontiguousarray(owner._driven, dtype=np.intc) \
            if len(owner._driven) else np.zeros(1, dtype=np.intc)
        self.n_driven = len(owner._driven)
        self.drive_index = np.array([owner.links[k].driven for k in owner._driven] or [0],
                                    dtype=np.intc)
        self.n_q, self.n_loop_drives = tree.n_q, len(owner._loop_drives)
        self.drive_values = owner._drive if tree.n_q else np.zeros((1, 3))
        # Python inputs to evaluate at each new time (constant drives: once)
        self.timed = bool(owner.inputs.timed) or any(callable(value) for _, value in
                                                      owner._loop_drives)
        nl = max(self.links.n, 1)
        self.jets0, self.jets1 = np.zeros((nl, 3, EULER)), np.zeros((nl, 3, EULER))
        self.T = np.zeros((POSE * nl, EULER))
        self.t0 = self.t1 = np.nan
        # the Jacobian's values (the pattern's order: links, joints at cable points, norms)
        self.n_J = len(J_row)
        self.J_row = np.ascontiguousarray(J_row, dtype=np.intc)
        self.J_col = np.ascontiguousarray(J_col, dtype=np.intc)
        self.J, self.G = np.zeros(max(self.n_J, 1)), np.zeros(max(self.n_J, 1))
        self.q_J, self.q_phi_t = np.zeros(max(self.n, 1)), np.zeros(max(self.n, 1))
        self.phi_t = np.zeros(max(self.m, 1))
        self.J_valid = self.phi_t_valid = False
        # Newton's matrix: the values of its parts in the pattern's order
        self.item_keep = np.ascontiguousarray(item_keep, dtype=np.intc) if len(item_keep) \
            else np.zeros(1, dtype=np.intc)
        self.n_item_vals = len(item_keep)
        self.n_vals = len(at)
        self.vals = np.zeros(max(self.n_vals, 1))
        nb = max(self.nb, 1)
        self.Kb, self.Kg = np.zeros(EULER_BLOCK * nb), np.zeros(EULER_BLOCK * nb)
        self.Cb = np.zeros(EULER_BLOCK * nb)
        self.el_work = np.zeros(max(self.elements.n_square, 1))
        self.D = np.zeros(POSE * EULER * nb)
        self.work = np.zeros(max(self.n + self.m, 1))
        self.work2 = np.zeros(max(self.n + self.m, 1))
        self.taus = np.zeros(STENCIL)
        self.lam_zero = np.zeros(max(self.m, 1))
        self._item_setup(owner)
        self.n_loads = len(tree.load_body)
        self.ld_body = np.ascontiguousarray(tree.load_body, dtype=np.int64)
        self.ld_follower = np.ascontiguousarray(tree.load_follower, dtype=np.uint8)
        self.ld_arc = np.ascontiguousarray(tree.load_arc, dtype=np.int64)
        self.ld_offset = floats(tree.load_offset).reshape(-1, 3)
        self.ld_force, self.ld_moment = owner._load_force, owner._load_moment
        self.load_out = np.zeros(max(self.n, 1))
        # the loads' central differences: the bodies' coordinates perturbed, two forces
        self.ld_q, self.ld_fp = np.zeros(max(self.c0, 1)), np.zeros(max(self.c0, 1))
        self.ld_fm = np.zeros(max(self.c0, 1))
        self.arc_loads = np.ascontiguousarray(owner._arc_loads, dtype=np.int64) \
            if len(owner._arc_loads) else np.zeros(1, dtype=np.int64)
        self.n_arc_loads = len(owner._arc_loads)
        self.n_cable_loads = len(owner._cable_loads)
        self.cable_loads = np.ascontiguousarray(owner._cable_loads, dtype=np.int64) \
            if self.n_cable_loads else np.zeros(1, dtype=np.int64)
        self.cable_load_slots = owner._cable_load_slots if self.n_cable_loads \
            else np.zeros(1, dtype=np.int64)
        self.al_K = np.zeros(MAX_BLOCK * max(self.n_arc_loads, 1))
        N = self.n + self.m
        self.lu = _LU(N, sparse, at, unit_at, indices, indptr)
        self.lu_projection = _LU(N, sparse, at, unit_at, indices, indptr)
        self.n_branch = owner._n_branch
        self.has_angles = self.n_branch > 0
        self.branch = owner._angle_ref if self.has_angles else np.zeros(1)
        self.js_ref = owner._joint_springs["ref"] if self.n_js else np.zeros(1)
        self.pr_ref = owner._probe_ref if self.n_pr else np.zeros((1, 6))
        self.pr_angle = np.ascontiguousarray(owner._probe_angle, dtype=np.uint8) \
            if self.n_pr else np.zeros((1, 6), dtype=np.uint8)

    cdef int accept(self, const double* q, const double* v, double t) except -1:
        """The reference angles (the owner's ``_angle_ref``, this run's) move to the accepted
        state's (q, v) (``SpatialDAE._accept_angles``, in C): the joint spring-dampers'
        angles and the effort functions' angles continued from the last references, a
        rotation vector's its ``log(R)`` (the recursion re-centres its own after each step).
        Every evaluation until the next accepted state, Newton's iterates and a retried or
        restarted step among them, continues its angles from these.

        First, a state where a clamp at a cable point holds the cable's slope turned over
        against its axis (``CableLinkKernel.turned_over``) is refused, ``ArithmeticError``
        naming the joint (``SpatialDAE._clamp_turned_over``): its rows hold there, but it is
        not the clamp's state; a load step or a time step that converged to it is cut or
        fails as one that left an element's domain, and statics' damped steps refuse it as
        a failed step. Not Newton's iterates: they may pass through it on the way."""
        cdef int s, i, k
        cdef long a, b
        cdef double jq, jqd
        k = self.cables.turned_over(q)
        if k >= 0:
            state = np.array(<double[:self.n]> q)       # a copy: q is the loop's buffer
            raise ArithmeticError(self.owner._clamp_turned_over(k, state))
        if not self.has_angles:
            return 0
        for s in range(self.n_js):
            if self.js_kind[s] != JS_REVOLUTE:
                continue
            a, b = self.item_parent[self.n_ef + s], self.item_child[self.n_ef + s]
            joint_spring(_pose(q, a), _rate(v, a), _pose(q, b), _rate(v, b),
                         &self.js_offset[s, 0], &self.js_anchor[s, 0], &self.js_QT[s, 0, 0],
                         &self.js_axis[s, 0], JS_REVOLUTE, &self.js_law[s, 0], self.js_ref[s],
                         &jq, &jqd)
            self.js_ref[s] = jq
        for i in range(self.n_pr):
            a, b = self.pr_parent[i], self.pr_child[i]
            link_values(self.pr_motion[i], _pose(q, a), _rate(v, a), _pose(q, b), _rate(v, b),
                        &self.pr_offset[i, 0],
                        &self.pr_anchor[i, 0], &self.pr_QT[i, 0, 0], &self.pr_a0[i, 0],
                        &self.pr_a1[i, 0], &self.pr_q[i, 0], &self.pr_qd[i, 0])
            for k in range(6):
                if self.pr_angle[i, k]:
                    self.pr_ref[i, k] += wrap(self.pr_q[i, k] - self.pr_ref[i, k])
                else:
                    self.pr_ref[i, k] = self.pr_q[i, k]
        return 0

    cdef void keep_branch(self, double* out) noexcept:
        if self.has_angles:
            memcpy(out, &self.branch[0], self.n_branch * sizeof(double))

    cdef void use_branch(self, const double* row) noexcept:
        if self.has_angles:
            memcpy(&self.branch[0], row, self.n_branch * sizeof(double))

    def _item_setup(self, owner):
        """The force items' arrays (the owner's ``_efforts``, ``_joint_springs``, ``_springs``)
        and their workspaces; the efforts' constant values once where no effort is a function."""
        floats = lambda a, shape: np.ascontiguousarray(np.reshape(a, shape), dtype=float)
        longs = lambda a: np.ascontiguousarray(a, dtype=np.int64)
        e, j, sp = owner._efforts, owner._joint_springs, owner._springs
        self.n_ef, self.n_js = len(e["parent"]), len(j["parent"])
        self.item_parent = longs(np.concatenate([e["parent"], j["parent"], sp["parent"]]))
        self.item_child = longs(np.concatenate([e["child"], j["child"], sp["child"]]))
        self.item_cols = longs(np.reshape(owner._item_cols, (-1, MAX_COLS)))
        self.ef_offset, self.ef_f = floats(e["offset"], (-1, 3)), floats(e["f"], (-1, 3))
        self.ef_mp, self.ef_mc = floats(e["mp"], (-1, 3)), floats(e["mc"], (-1, 3))
        self.js_offset, self.js_anchor = floats(j["offset"], (-1, 3)), floats(j["anchor"], (-1, 3))
        self.js_axis, self.js_law = floats(j["axis"], (-1, 3)), floats(j["law"], (-1, 3))
        self.js_f, self.js_mp = floats(j["f"], (-1, 3)), floats(j["mp"], (-1, 3))
        self.js_mc, self.js_QT = floats(j["mc"], (-1, 3)), floats(j["QT"], (-1, 3, 3))
        self.js_kind = np.ascontiguousarray(j["kind"], dtype=np.uint8)
        self.sp_offsets, self.sp_law = floats(sp["offsets"], (-1, 2, 3)), floats(sp["law"], (-1, 3))
        self.effort_functions = bool(owner.inputs.effort_dependent) or any(
            callable(f) for _, _, f in owner._loop_efforts)
        # constant efforts do not depend on the state
        self.ef_values = floats(owner._effort_values(np.zeros(self.n), np.zeros(self.n), 0.0)
                                if self.n_ef and not self.effort_functions else
                                np.zeros(self.n_ef), (-1,))
        self.ef_g = np.zeros(max(self.n_ef, 1))
        d = owner._probe
        self.n_pr = len(d["parent"])
        self.pr_parent, self.pr_child = longs(d["parent"]), longs(d["child"])
        self.pr_motion = np.ascontiguousarray(d["motion"], dtype=np.intc)
        self.pr_offset, self.pr_anchor = floats(d["offset"], (-1, 3)), floats(d["anchor"], (-1, 3))
        self.pr_a0, self.pr_a1 = floats(d["f"], (-1, 3)), floats(d["mp"], (-1, 3))
        self.pr_QT = floats(d["QT"], (-1, 3, 3))
        self.pr_q, self.pr_qd = np.zeros((self.n_pr, 6)), np.zeros((self.n_pr, 6))
        self.last_q, self.last_qd = np.zeros((self.n_pr, 6)), np.zeros((self.n_pr, 6))
        self.last_effort_t = np.nan
        self.kept = []
        self.item_Q = np.zeros(MAX_COLS * max(self.n_items, 1))
        self.item_K = np.zeros(MAX_BLOCK * max(self.n_items, 1))
        self.item_C = np.zeros(MAX_BLOCK * max(self.n_items, 1))

    def project_with(self, kind):
        """Project after every step (:meth:`StepProblem.project`): False, "euclidean" or
        "mass"."""
        self.projection = kind

    def observe_frames(self, t, q, v, a, lam, branches):
        """The owner's ``observe_frames``, given the input values :meth:`keep_inputs` kept."""
        return self.owner.observe_frames(t, q, v, a, lam, branches, self.kept[:len(t)])

    def keep_inputs(self, long k, double t, const double[::1] q, const double[::1] v):
        """Keeps the values the model's input functions give at the loop's output k, the
        converged state (q, v) (n) at t (the implicit loop calls it at each output): each
        function's, as the owner's arrays hold it (``SpatialDAE._input_values``; a
        :class:`~rancf.formulations.inputs.Recorded` built from them by
        :meth:`observe_frames`). The loop's last evaluation there computed them (its power at
        the converged state): they are copied; a function is called only where that
        evaluation was at another state or time (generalized-alpha-S takes its power at the
        intermediate point). Output 0 starts a new run's record."""
        cdef int i, j
        cdef bint same
        owner = self.owner
        if k == 0:
            self.kept = []
            self.kept_slots = owner._input_slots()
        if not self.kept_slots:
            return
        self._inputs(t)
        if self.n_loop_drives:
            owner._loop_drive_values(t, again=False)
        if self.effort_functions and self.n_ef:
            self._probe(&q[0], &v[0])
            # the arrays hold the last call's values if no other call came after it
            same = t == self.last_effort_t and owner.effort_calls == self.last_effort_call
            for i in range(self.n_pr):
                for j in range(self.pr_q.shape[1]):
                    same = same and (self.pr_q[i, j] == self.last_q[i, j]
                                     and self.pr_qd[i, j] == self.last_qd[i, j])
            if not same:
                self._efforts_of_probe(t)
        self.kept.append(owner._input_values(self.kept_slots))

    # --- inputs ---------------------------------------------------------------------------
    cdef const double* _jets(self, double t) except NULL:
        """The drives' target jets (n_links, 3, 4: value, first and second time derivative)
        at t (two times kept): the inputs at t (Python: the model's drive functions, once for
        each new time), then each driven link's :meth:`_target_jet`."""
        cdef double[:, :, ::1] swap
        cdef double[:, ::1] looped
        cdef int i, k, j
        # constant drives: their jets once (t0 is NaN until then)
        if not self.n_driven or t == self.t0 or (not self.timed and self.t0 == self.t0):
            return &self.jets0[0, 0, 0]
        if t != self.t1:
            if self.timed:
                self.owner.inputs.at_time(t)
            if self.n_loop_drives:
                looped = self.owner._loop_drive_values(t)
            for i in range(self.n_driven):
                k = self.driven[i]
                j = self.drive_index[i]
                if j < self.n_q:
                    self._target_jet(k, &self.drive_values[j, 0], &self.jets1[k, 0, 0])
                else:
                    self._target_jet(k, &looped[j - self.n_q, 0], &self.jets1[k, 0, 0])
            self.t1 = t
        # the last time asked first
        swap = self.jets0
        self.jets0 = self.jets1
        self.jets1 = swap
        self.t0, self.t1 = self.t1, self.t0
        return &self.jets0[0, 0, 0]

    cdef void _target_jet(self, int k, const double* drive, double* out) noexcept:
        """Link k's target and its first two time derivatives (out (3, 4)) from its drive's
        (q, q', q''): a revolute drive's quaternion ``q_d = (cos q/2, sin q/2 a0)``, a
        prismatic drive's slide first (spatial_dae.py, ``_Link.target_jet``)."""
        cdef double c, sn, q = drive[0], qd = drive[1], qdd = drive[2]
        cdef double d1[4]
        cdef double d2[4]
        cdef int i
        if self.links.drive[k] != DRIVE_REVOLUTE:
            out[0], out[EULER], out[2 * EULER] = q, qd, qdd
            return
        c, sn = cos(q / 2), sin(q / 2)
        d1[0], d2[0] = -sn / 2, -c / 4.0
        out[0] = c
        for i in range(3):
            d1[1 + i] = c / 2 * self.links.a0[k, i]
            d2[1 + i] = -(sn * self.links.a0[k, i]) / 4.0
            out[1 + i] = sn * self.links.a0[k, i]
        for i in range(EULER):
            out[EULER + i] = d1[i] * qd
            out[2 * EULER + i] = d2[i] * (qd * qd) + d1[i] * qdd

    cdef int _inputs(self, double t) except -1:
        """The owner's inputs at t, for the loads: their functions once for each new time
        (the inputs' ``t``, the time their arrays hold)."""
        inputs = self.owner.inputs
        if inputs.t != t:
            inputs.at_time(t)
        return 0

    cdef void _targets(self, const double* jets, double* out) noexcept nogil:
        """The targets (n_links, 4) of the jets."""
        cdef int k
        for k in range(self.links.n):
            memcpy(out + EULER * k, jets + 3 * EULER * k, EULER * sizeof(double))

    # --- force items ----------------------------------------------------------------------
    cdef int _effort_g(self, const double* q, const double* v, double t) except -1:
        """The efforts' values times the load factor (ef_g) at (q, v, t): the constants, or
        with effort functions the owner's ``_efforts_at`` (Python: the functions) of their
        joints' coordinates and rates (:func:`link_values`)."""
        cdef int i
        cdef const double[::1] g
        if not self.n_ef:
            return 0
        if self.effort_functions:
            self._probe(q, v)
            g = self._efforts_of_probe(t)
        else:
            g = self.ef_values
        for i in range(self.n_ef):
            self.ef_g[i] = self.load_factor * g[i]
        return 0

    cdef void _probe(self, const double* q, const double* v) noexcept:
        """The effort functions' joints' coordinates and rates (pr_q, pr_qd) at (q, v)
        (:func:`link_values`), the angles continued from the last accepted step's
        (SpatialDAE._efforts_at continues the rotation vectors)."""
        cdef int i, k
        cdef long p, c
        for i in range(self.n_pr):
            p, c = self.pr_parent[i], self.pr_child[i]
            link_values(self.pr_motion[i], _pose(q, p), _rate(v, p), _pose(q, c),
                        _rate(v, c), &self.pr_offset[i, 0],
                        &self.pr_anchor[i, 0], &self.pr_QT[i, 0, 0], &self.pr_a0[i, 0],
                        &self.pr_a1[i, 0], &self.pr_q[i, 0], &self.pr_qd[i, 0])
            for k in range(6):
                if self.pr_angle[i, k]:
                    self.pr_q[i, k] = self.pr_ref[i, k] + wrap(
                        self.pr_q[i, k] - self.pr_ref[i, k])

    cdef object _efforts_of_probe(self, double t):
        """The owner's ``_efforts_at`` (Python: the functions) of :meth:`_probe`'s
        coordinates and rates at t, their arguments kept (:meth:`keep_inputs`)."""
        cdef Py_ssize_t size = self.pr_q.shape[0] * self.pr_q.shape[1]
        self.last_effort_t = np.nan
        g = self.owner._efforts_at(self.pr_q, self.pr_qd, t)
        self.last_effort_call = self.owner.effort_calls
        if size:
            memcpy(&self.last_q[0, 0], &self.pr_q[0, 0], size * sizeof(double))
            memcpy(&self.last_qd[0, 0], &self.pr_qd[0, 0], size * sizeof(double))
        self.last_effort_t = t
        return g

    cdef void _item_force(self, int k, const double* Xp, const double* Vp, const double* Xc,
                          const double* Vc, double* out) noexcept nogil:
        """Item k's generalized forces (14: parent's, child's) at its sides' states: an
        effort row (its value ef_g), a joint spring-damper, a spring-damper between points."""
        cdef double q, qd, g, U, P
        cdef int s = k - self.n_ef
        if k < self.n_ef:
            joint_wrench(Xp, Xc, &self.ef_offset[k, 0], &self.ef_f[k, 0], &self.ef_mp[k, 0],
                         &self.ef_mc[k, 0], self.ef_g[k], out)
        elif s < self.n_js:
            g = joint_spring(Xp, Vp, Xc, Vc, &self.js_offset[s, 0], &self.js_anchor[s, 0],
                             &self.js_QT[s, 0, 0], &self.js_axis[s, 0], self.js_kind[s],
                             &self.js_law[s, 0], self.js_ref[s], &q, &qd)
            joint_wrench(Xp, Xc, &self.js_offset[s, 0], &self.js_f[s, 0], &self.js_mp[s, 0],
                         &self.js_mc[s, 0], g, out)
        else:
            s = s - self.n_js
            point_spring(Xp, Vp, Xc, Vc, self.item_parent[k] >= 0, self.item_child[k] >= 0,
                         &self.sp_offsets[s, 0, 0], &self.sp_law[s, 0], out, &U, &P)

    cdef void _item_forces(self, const double* q, const double* v, double* Q) noexcept nogil:
        """Every item's generalized forces (n_items, 14) at (q, v), efforts at ef_g."""
        cdef int k
        cdef long p, c
        for k in range(self.n_items):
            p, c = self.item_parent[k], self.item_child[k]
            self._item_force(k, _pose(q, p), _rate(v, p), _pose(q, c), _rate(v, c),
                             Q + MAX_COLS * k)

    cdef int _item_power(self, const double* q, const double* v, double t,
                         double* p) except -1:
        """Adds the efforts' power ``Q . v`` to p[0] and the spring-dampers' dissipation
        (``c l'^2`` between points, ``c q'^2`` on joints) to p[1] (W)."""
        cdef double* acc = &self.work[0]
        cdef double* Q = &self.item_Q[0]
        cdef double s = 0.0, d = 0.0, U, P, jq, jqd
        cdef long a, b
        cdef int i, k, m
        if self.n_ef:
            self._effort_g(q, v, t)
            self._item_forces(q, v, Q)
            memset(acc, 0, self.n * sizeof(double))
            for k in range(MAX_COLS * self.n_ef):
                if self.item_cols[k // MAX_COLS, k % MAX_COLS] >= 0:
                    acc[self.item_cols[k // MAX_COLS, k % MAX_COLS]] += Q[k]
            for i in range(self.n):
                s += acc[i] * v[i]
            p[0] += s
        # the springs between points, then on joints (SpatialDAE._spring_terms' order)
        for i in range(self.n_items - self.n_ef - self.n_js):
            k = self.n_ef + self.n_js + i
            a, b = self.item_parent[k], self.item_child[k]
            point_spring(_pose(q, a), _rate(v, a), _pose(q, b), _rate(v, b), a >= 0, b >= 0,
                         &self.sp_offsets[i, 0, 0], &self.sp_law[i, 0], Q, &U, &P)
            d += P
        for i in range(self.n_js):
            k = self.n_ef + i
            a, b = self.item_parent[k], self.item_child[k]
            joint_spring(_pose(q, a), _rate(v, a), _pose(q, b), _rate(v, b),
                         &self.js_offset[i, 0], &self.js_anchor[i, 0], &self.js_QT[i, 0, 0],
                         &self.js_axis[i, 0], self.js_kind[i], &self.js_law[i, 0],
                         self.js_ref[i], &jq, &jqd)
            d += self.js_law[i, 1] * jqd * jqd
        p[1] += d
        return 0

    cdef void _item_tangents(self, const double* q, const double* v, double hx, double hv,
                             double* K, double* C) noexcept nogil:
        """The items' ``-dQ/dx`` and ``-dQ/dv`` blocks (n_items, 14 forces, 14 states) at
        (q, v) by central differences of steps hx and hv in their two bodies' states (parent's
        7, child's 7), the efforts' values held (ef_g)."""
        cdef double X[MAX_COLS]
        cdef double V[MAX_COLS]
        cdef double Qp[MAX_COLS]
        cdef double Qm[MAX_COLS]
        cdef double keep, h
        cdef double* Z
        cdef double* out
        cdef int k, i, o, side
        cdef long b
        for k in range(self.n_items):
            for side in range(2):
                b = self.item_parent[k] if side == 0 else self.item_child[k]
                memcpy(X + POSE * side, _pose(q, b), POSE * sizeof(double))
                memcpy(V + POSE * side, _rate(v, b), POSE * sizeof(double))
            for side in range(2):
                if side == 0:
                    Z, h, out = &X[0], hx, K + MAX_BLOCK * k
                else:
                    Z, h, out = &V[0], hv, C + MAX_BLOCK * k
                for i in range(MAX_COLS):
                    keep = Z[i]
                    Z[i] = keep + h
                    self._item_force(k, X, V, X + POSE, V + POSE, Qp)
                    Z[i] = keep + (-h)
                    self._item_force(k, X, V, X + POSE, V + POSE, Qm)
                    Z[i] = keep
                    for o in range(MAX_COLS):
                        out[MAX_COLS * o + i] = -(Qp[o] - Qm[o]) / (2 * h)

    cdef int _effort_tangents(self, const double* q, const double* v, double t) except -1:
        """Adds the effort functions' own slopes to the effort rows' blocks of item_K and
        item_C (the first n_ef items'): the owner's ``_effort_tangents`` (Python: the
        functions, 4 calls a coordinate), which a model without effort functions never runs."""
        cdef Py_ssize_t k
        cdef const double[::1] Ke, Ce
        Kp, Cp = self.owner._effort_tangents(np.array(<double[:self.n]> <double*> q),
                                             np.array(<double[:self.n]> <double*> v), t)
        Ke, Ce = np.ascontiguousarray(Kp).ravel(), np.ascontiguousarray(Cp).ravel()
        for k in range(Ke.shape[0]):
            self.item_K[k] += Ke[k]
            self.item_C[k] += Ce[k]
        return 0

    cdef void _loads(self, const double* q, double* out) noexcept nogil:
        """The loads' generalized forces (n) at q, their values at the time of the last
        ``inputs.at_time`` (``SpatialDAE._loads``): each load's :meth:`_load`."""
        cdef int k
        memset(out, 0, self.n * sizeof(double))
        for k in range(self.n_loads):
            self._load(k, q, out)

    cdef void _load(self, int k, const double* q, double* out) noexcept nogil:
        """Adds load k's generalized forces at q to out (n): on a body ``F`` and
        ``2 E(p)^T (M + A o x F) / (p . p)`` (follower loads turned by A), on a cable node F
        on its position and ``(M x r') / |r'|^2`` on its slope (``cable_moment``); a load
        between two nodes of a beam as the wrenches on both that do its virtual work
        (``arc_wrenches`` of rancf/formulations/_spatial_arc.pxd), each entering as a load at
        its node's origin."""
        cdef double A[9]
        cdef double Ab[9]
        cdef double W[2 * WRENCH]
        cdef double E[EULER_MAP]
        cdef double F[3]
        cdef double M[3]
        cdef double arm[3]
        cdef double z[3]
        cdef const double* p
        cdef double pp, s
        cdef long b = self.ld_body[k]
        cdef int i, j, c
        if b >= self.nb:
            # a cable node: F on r, the moment's (M x r') / |r'|^2 on r' (cable_moment)
            c = self.c0 + CABLE_NODE * (b - self.nb)
            cable_moment(q + c + 3, &self.ld_moment[k, 0], M)
            for i in range(3):
                out[c + i] += self.ld_force[k, i]
                out[c + 3 + i] += M[i]
            return
        p = q + POSE * b + 3
        pp = p[0] * p[0] + p[1] * p[1] + p[2] * p[2] + p[3] * p[3]
        rotation(p, A)
        for i in range(9):
            A[i] /= pp
        if self.ld_arc[k] >= 0:
            _unit_rotation(q, self.ld_arc[k], Ab)
            arc_wrenches(q + POSE * b, A, q + POSE * self.ld_arc[k], Ab, self.ld_offset[k, 0],
                         &self.ld_force[k, 0], &self.ld_moment[k, 0],
                         self.ld_follower[k], W, W + WRENCH)
            _node_wrench(q, b, W, out)
            _node_wrench(q, self.ld_arc[k], W + WRENCH, out)
            return
        if self.ld_follower[k]:
            rot.matvec(A, &self.ld_force[k, 0], F)
            rot.matvec(A, &self.ld_moment[k, 0], M)
        else:
            memcpy(F, &self.ld_force[k, 0], 3 * sizeof(double))
            memcpy(M, &self.ld_moment[k, 0], 3 * sizeof(double))
        rot.matvec(A, &self.ld_offset[k, 0], arm)
        for i in range(3):
            out[POSE * b + i] += F[i]
        rot.cross(arm, F, z)
        euler_E(p, E)
        for j in range(EULER):
            s = 0.0
            for i in range(3):
                s += 2.0 * E[EULER * i + j] * (M[i] + z[i])
            out[POSE * b + 3 + j] += s / pp

    cdef void _load_tangents(self, const double* q, double h, double h_arc,
                             double* D) noexcept nogil:
        """Adds to D (nb, 7, 4) the loads' ``lf dQ_b/dp_b`` (lf the load factor): each load's
        generalized forces on a body (the body of a load at a body point; both nodes of a
        load between two nodes) differentiated in that body's own Euler parameters, the
        bodies' blocks of Newton's matrix (a load between two nodes has the rest of its
        derivatives in its own block, :meth:`_arc_load_tangents`), by central differences of
        :meth:`_load`, one load at a time (O(loads)); a load on a cable node does not depend on
        the bodies. Steps: h, and
        h_arc for a load between two nodes (its force is smooth to round-off, ``arc_gradient``
        being exact, so a step larger than h leaves the quotients' truncation error small and
        their round-off smaller; tests/test_spatial_dae_forces.py checks these tangents)."""
        cdef double* z = &self.ld_q[0]
        cdef double* fp = &self.ld_fp[0]
        cdef double* fm = &self.ld_fm[0]
        cdef long node[2]
        cdef double keep, step, lf = self.load_factor
        cdef int k, s, u, j, i, ns, c
        # _load reads and writes the bodies' coordinates only (the first c0)
        memcpy(z, q, self.c0 * sizeof(double))
        for k in range(self.n_loads):
            node[0], node[1] = self.ld_body[k], self.ld_arc[k]
            if node[0] >= self.nb:
                continue
            ns = 2 if node[1] >= 0 else 1
            step = h_arc if ns == 2 else h
            for s in range(ns):
                c = POSE * node[s]
                for j in range(EULER):
                    keep = z[c + 3 + j]
                    z[c + 3 + j] = keep + step
                    for u in range(ns):
                        memset(fp + POSE * node[u], 0, POSE * sizeof(double))
                    self._load(k, z, fp)
                    z[c + 3 + j] = keep - step
                    for u in range(ns):
                        memset(fm + POSE * node[u], 0, POSE * sizeof(double))
                    self._load(k, z, fm)
                    z[c + 3 + j] = keep
                    for i in range(POSE):
                        D[EULER * (c + i) + j] += lf * (fp[c + i] - fm[c + i]) / (2.0 * step)

    cdef void _arc_load_tangents(self, const double* q, double h, double* K) noexcept nogil:
        """The blocks (n_arc_loads, 14, 14; rows and columns ``[x_a, x_b]``, the element's
        two nodes) of ``-lf dQ/dx`` (lf the load factor) of each load between two nodes that
        :meth:`_load_tangents` leaves out: its generalized forces on both nodes depend on both
        nodes' positions (the arm from a node to the point, the element's chord) and Euler
        parameters, and that method gives only each node's own Euler parameters' (its entries
        here are zero, so that each derivative is summed once). Central differences of
        :meth:`_load`, step h in each of the 14 coordinates, one load at a time; at the time
        of the last ``inputs.at_time``."""
        cdef double* z = &self.ld_q[0]
        cdef double* fp = &self.ld_fp[0]
        cdef double* fm = &self.ld_fm[0]
        cdef double* out
        cdef long node[2]
        cdef double keep, lf = self.load_factor
        cdef int a, k, s, u, i, j, c, r
        memcpy(z, q, self.c0 * sizeof(double))
        for a in range(self.n_arc_loads):
            k = self.arc_loads[a]
            node[0], node[1] = self.ld_body[k], self.ld_arc[k]
            out = K + MAX_BLOCK * a
            for s in range(2):
                for j in range(POSE):
                    c = POSE * node[s] + j
                    keep = z[c]
                    z[c] = keep + h
                    for u in range(2):
                        memset(fp + POSE * node[u], 0, POSE * sizeof(double))
                    self._load(k, z, fp)
                    z[c] = keep - h
                    for u in range(2):
                        memset(fm + POSE * node[u], 0, POSE * sizeof(double))
                    self._load(k, z, fm)
                    z[c] = keep
                    for u in range(2):
                        for i in range(POSE):
                            r = POSE * node[u] + i
                            out[MAX_COLS * (POSE * u + i) + POSE * s + j] = 0.0 \
                                if u == s and j >= 3 else -lf * (fp[r] - fm[r]) / (2.0 * h)

    cdef int _body_tangents(self, const double* q, const double* v, double t, double* D,
                            double* C) except -1:
        """Each body's ``D = dF/dp`` (nb, 7, 4) and ``C = -dg/dp'`` (nb, 4, 4) of Newton's
        matrix: the gyroscopic force's g (:func:`c_body_tangents`, steps 1e-7 and ``1e-7
        max(1, max |p'|)``) and, in a model with loads, the loads' at t
        (:meth:`_load_tangents`, steps 1e-7 and, between two nodes, 1e-4, its error named
        there; Python runs only for load functions, once for each new time)."""
        cdef int b, i
        cdef double hv = 1e-7
        for b in range(self.nb):
            for i in range(EULER):
                hv = max(hv, 1e-7 * fabs(v[POSE * b + 3 + i]))
        memset(D, 0, POSE * EULER * self.nb * sizeof(double))
        c_body_tangents(self.nb, q, v, &self.inertia[0, 0, 0], 1e-7, hv, &self.Kg[0], C)
        for b in range(self.nb):
            memcpy(D + POSE * EULER * b + 3 * EULER, &self.Kg[EULER_BLOCK * b],
                   EULER_BLOCK * sizeof(double))
        if self.has_loads:
            self._inputs(t)
            self._load_tangents(q, 1e-7, 1e-4, D)
        return 0

    # --- mass and forces ------------------------------------------------------------------
    cdef int mass_action(self, const double* q, double t, const double* a, double* out) except -1:
        cdef int r, k
        cdef double s
        body_mass_action(self.nb, q, a, &self.mass[0], &self.inertia[0, 0, 0], out)
        if self.n_cable_el:
            # the cables' constant mass, CSR (scipy's product, term by term)
            for r in range(self.n - self.c0):
                s = 0.0
                for k in range(self.cable_mass_indptr[r], self.cable_mass_indptr[r + 1]):
                    s += self.cable_mass_data[k] * a[self.c0 + self.cable_mass_indices[k]]
                out[self.c0 + r] = s
        return 0

    cdef int force(self, const double* q, const double* v, double t, double* out) except -1:
        cdef int i, k, bad
        cdef double g[3]
        cdef double lf = self.load_factor
        cdef double* loads = &self.load_out[0]
        cdef double* acc = &self.work[0]
        for i in range(3):
            g[i] = lf * self.gravity[i]
        body_forces(self.nb, q, v, &self.mass[0], &self.inertia[0, 0, 0], g, out)
        if self.has_loads:
            self._inputs(t)
            self._loads(q, loads)
            for i in range(self.c0):
                out[i] += lf * loads[i]
        bad = self.elements.c_force(q, v, out)
        if bad >= 0:
            self.owner._element_status(bad)
        if self.has_items:
            self._effort_g(q, v, t)
            self._item_forces(q, v, &self.item_Q[0])
            # summed apart on the coordinates, then added (np.bincount's order)
            memset(acc, 0, self.n * sizeof(double))
            for k in range(MAX_COLS * self.n_items):
                if self.item_cols[k // MAX_COLS, k % MAX_COLS] >= 0:
                    acc[self.item_cols[k // MAX_COLS, k % MAX_COLS]] += self.item_Q[k]
            for i in range(self.n):
                out[i] += acc[i]
        if self.arc_springs.n:
            self.arc_springs.c_force(q, v, out)
        if self.n_cable_el:
            for i in range(self.c0, self.n):
                out[i] = lf * self.cable_gravity[i - self.c0]
            if self.has_loads:
                for i in range(self.c0, self.n):
                    out[i] += lf * loads[i]
            c_cable_elements(self.n_cable_el, q, v, &self.cable_dofs[0, 0], &self.cable_l[0],
                             &self.cable_EA[0], &self.cable_EI[0], &self.cable_c[0],
                             &self.cable_rest[0, 0], &self.curved[0], &self.f[0], &self.U[0],
                             &self.P[0], NULL, NULL)
            # summed apart, then added (the order of np.bincount's sum)
            memset(acc, 0, self.n * sizeof(double))
            for k in range(CABLE_ELEMENT * self.n_cable_el):
                acc[self.cable_dofs[k // CABLE_ELEMENT, k % CABLE_ELEMENT]] += self.f[k]
            for i in range(self.n):
                out[i] += acc[i]
        return 0

    # --- constraints ----------------------------------------------------------------------
    cdef int constraint(self, const double* q, double t, double* out) except -1:
        cdef int b, i
        cdef double s
        cdef double* T = &self.T[0, 0]
        self._targets(self._jets(t), T)
        self.links.c_rows(q, T, out)
        self.cables.c_rows(q, out)
        self.arcs.c_rows(q, out)
        for b in range(self.nb):
            s = 0.0
            for i in range(EULER):
                s += q[POSE * b + 3 + i] * q[POSE * b + 3 + i]
            out[self.n_joint_rows + b] = 0.5 * (s - 1.0)
        return 0

    cdef int _jacobian(self, const double* q, double t, double* out) except -1:
        """Phi_x's values at (q, t) in the pattern's order (n_J)."""
        cdef double* T = &self.T[0, 0]
        self._targets(self._jets(t), T)
        self._jacobian_at(q, T, out)
        return 0

    cdef void _jacobian_at(self, const double* q, const double* T, double* out) noexcept nogil:
        """Phi_x's values at q and the drives' targets T (n_links, 4) in the pattern's
        order (n_J)."""
        cdef int b, i
        self.links.c_jacobian(q, T, out)
        self.cables.c_jacobian(q, out + self.links.n_values)
        self.arcs.c_jacobian(q, out + self.links.n_values + self.cables.n_values)
        b = self.links.n_values + self.cables.n_values + self.arcs.n_values
        for i in range(self.nb):
            memcpy(out + b + EULER * i, q + POSE * i + 3, EULER * sizeof(double))

    cdef const double* _kept_jacobian(self, const double* q, double t) except NULL:
        """Phi_x's values at (q, t), kept: the loop asks at one state for the constraint
        force, the rate and the matrix."""
        if not (self.J_valid and t == self.t_J
                and memcmp(q, &self.q_J[0], self.n * sizeof(double)) == 0):
            self._jacobian(q, t, &self.J[0])
            memcpy(&self.q_J[0], q, self.n * sizeof(double))
            self.t_J, self.J_valid = t, True
        return &self.J[0]

    cdef int constraint_force(self, const double* q, const double* lam, double t,
                              double* out) except -1:
        """``Phi_x^T lambda``: each column's terms summed by increasing row (the order of the
        CSR matrix's product)."""
        cdef int e
        cdef const double* J = self._kept_jacobian(q, t)
        memset(out, 0, self.n * sizeof(double))
        for e in range(self.n_J):
            out[self.J_col[e]] += J[e] * lam[self.J_row[e]]
        return 0

    cdef int _rate(self, const double* q, double t, const double* v, double* out) except -1:
        """out (m) += Phi_x v."""
        cdef int e
        cdef const double* J = self._kept_jacobian(q, t)
        for e in range(self.n_J):
            out[self.J_row[e]] += J[e] * v[self.J_col[e]]
        return 0

    cdef int _along(self, const double* q, const double* v, double t, bint second,
                    double* out) except -1:
        """A derivative (first, or second if ``second``) of ``Phi(q + tau v, t + tau)`` at
        tau = 0 by the exact seven-point stencil (spatial_dae.py's module docstring), the
        targets along their Taylor polynomials of order two; v NULL: at rest (``Phi_t``)."""
        cdef int i, k, s, b, nl = self.links.n
        cdef double scale = 0.0, h, tau, pq, c
        cdef double w[STENCIL]
        cdef const double* jets = self._jets(t)
        cdef const double* jk
        cdef double* T = &self.T[0, 0]
        cdef double* taus = &self.taus[0]
        cdef double* vz = &self.work2[0]
        if v == NULL:
            memset(vz, 0, self.n * sizeof(double))
            v = vz
        else:
            for i in range(self.n):
                scale = max(scale, fabs(v[i]))
        for i in range(self.n_driven):
            jk = jets + 3 * EULER * self.driven[i]
            for k in range(EULER):
                scale = max(scale, fabs(jk[EULER + k]))
            c = 0.0
            for k in range(EULER):
                c = max(c, fabs(jk[2 * EULER + k]))
            scale = max(scale, sqrt(c))
        if scale == 0.0:
            memset(out, 0, self.m * sizeof(double))
            return 0
        h = 0.5 / scale
        for s in range(STENCIL):
            w[s] = _D2[s] if second else _D1[s]
            taus[s] = (s - 3.0) * h
        memset(T, 0, POSE * nl * EULER * sizeof(double))
        # the link kernels add their stencils: every row from zero (out may hold earlier
        # values: velocity_bias's kept Phi_t, the violations' rate)
        memset(out, 0, self.m * sizeof(double))
        for s in range(STENCIL):
            tau = taus[s]
            for i in range(self.n_driven):
                k = self.driven[i]
                jk = jets + 3 * EULER * k
                for b in range(EULER):
                    T[EULER * (nl * s + k) + b] = (jk[b] + tau * jk[EULER + b]
                                                   + 0.5 * (tau * tau) * jk[2 * EULER + b])
        self.links.c_along(q, v, T, w, taus, STENCIL, out)
        self.cables.c_along(q, v, w, taus, STENCIL, out)
        self.arcs.c_along(q, v, w, taus, STENCIL, out)
        for b in range(self.nb):
            c = 0.0
            for s in range(STENCIL):
                pq = 0.0
                for k in range(EULER):
                    tau = q[POSE * b + 3 + k] + taus[s] * v[POSE * b + 3 + k]
                    pq += tau * tau
                c += w[s] * (0.5 * (pq - 1.0))
            out[self.n_joint_rows + b] = c
        c = h * h if second else h
        for i in range(self.m):
            out[i] /= c
        return 0

    cdef int velocity_bias(self, const double* q, double t, double* out) except -1:
        """``Phi_t`` at (q, t), kept: a step asks for it at its end twice (the violations and
        the drives' power)."""
        if not (self.phi_t_valid and t == self.t_phi_t
                and memcmp(q, &self.q_phi_t[0], self.n * sizeof(double)) == 0):
            self._along(q, NULL, t, False, &self.phi_t[0])
            memcpy(&self.q_phi_t[0], q, self.n * sizeof(double))
            self.t_phi_t, self.phi_t_valid = t, True
        memcpy(out, &self.phi_t[0], self.m * sizeof(double))
        return 0

    cdef int acceleration_bias(self, const double* q, const double* v, double t,
                               double* out) except -1:
        return self._along(q, v, t, True, out)

    # --- Newton's matrix ------------------------------------------------------------------
    cdef int _assemble(self, const double* q_e, const double* a_e, const double* lam,
                       const double* v_e, double t_e, const double* q_new, double t_new,
                       double c_m, double c_mq, double c_k, double c_c, double w) except -1:
        """vals = ``[[c_m M + c_mq d(M a)/dx + c_k (K + d(Phi_x^T lambda)/dx) + c_c C,
        w Phi_x^T], [Phi_x, 0]]``'s values in the pattern's order (spatial_dae.py,
        ``SpatialDAE._patterns``): per body its 7 x 7 block, the elements', the links'
        curvatures, the cable elements' (with the moments' tangents on cable nodes'
        slopes), the force items', the spring-dampers' and loads' between two nodes, w G,
        B."""
        cdef int b, i, j, k, bad, nb = self.nb
        cdef double s
        cdef double M3[9]
        cdef double* val = &self.vals[0]
        cdef double* blk
        cdef double* pp = &self.Kb[0]
        cdef double* D = &self.D[0]
        cdef double* Cg = &self.Cb[0]
        cdef double* o
        cdef double* T = &self.T[0, 0]
        cdef int n_el = self.elements.n_square
        cdef int n_link = self.links.n_square + self.cables.n_square + self.arcs.n_square
        # the bodies' tangents (loads' and gyroscopic), before their blocks are written
        if c_k != 0.0 or c_c != 0.0:
            self._body_tangents(q_e, v_e, t_e, D, Cg)
        for b in range(nb):
            blk = val + POSE_BLOCK * b
            memset(blk, 0, POSE_BLOCK * sizeof(double))
            if c_m != 0.0:
                for i in range(3):
                    blk[(POSE + 1) * i] = c_m * self.mass[b]
        # the rotary blocks pp (n, 4, 4)
        memset(pp, 0, EULER_BLOCK * nb * sizeof(double))
        if c_m != 0.0 or c_mq != 0.0:
            body_mass_blocks(nb, q_e, a_e, &self.inertia[0, 0, 0], c_m, c_mq, pp)
        o = val + POSE_BLOCK * nb
        if c_k != 0.0:
            for b in range(nb):
                blk = val + POSE_BLOCK * b
                for i in range(POSE):
                    for j in range(EULER):
                        blk[POSE * i + 3 + j] -= c_k * D[POSE * EULER * b + EULER * i + j]
                for i in range(EULER):
                    pp[EULER_BLOCK * b + (EULER + 1) * i] += c_k * lam[self.n_joint_rows + b]
            bad = self.elements.c_stiffness(q_e, v_e, o)
            if bad >= 0:
                self.owner._element_status(bad)
            for i in range(n_el):
                o[i] *= c_k
            self._targets(self._jets(t_e), T)
            self.links.c_curvature(q_e, T, lam, o + n_el)
            self.cables.c_curvature(q_e, lam, o + n_el + self.links.n_square)
            self.arcs.c_curvature(q_e, lam, o + n_el + self.links.n_square
                                  + self.cables.n_square)
            for i in range(n_link):
                o[n_el + i] *= c_k
        else:
            memset(o, 0, (n_el + n_link) * sizeof(double))
        if c_c != 0.0:
            for i in range(EULER_BLOCK * nb):
                pp[i] += c_c * Cg[i]
            if self.damped:
                self.elements.c_damping(q_e, &self.el_work[0])
                for i in range(n_el):
                    o[i] += c_c * self.el_work[i]
        for b in range(nb):
            blk = val + POSE_BLOCK * b
            for i in range(EULER):
                for j in range(EULER):
                    blk[POSE * (3 + i) + 3 + j] += pp[EULER_BLOCK * b + EULER * i + j]
        # the cable elements' blocks
        o = o + n_el + n_link
        if self.n_cable_el:
            if c_k != 0.0 or c_c != 0.0:
                c_cable_elements(self.n_cable_el, q_e, v_e, &self.cable_dofs[0, 0],
                                 &self.cable_l[0], &self.cable_EA[0], &self.cable_EI[0],
                                 &self.cable_c[0], &self.cable_rest[0, 0], &self.curved[0],
                                 &self.f[0], &self.U[0], &self.P[0], &self.Kc[0], &self.Cc[0])
            for k in range(CABLE_ELEMENT_BLOCK * self.n_cable_el):
                s = c_m * (&self.cable_blocks[0, 0, 0])[k]
                if c_k != 0.0 or c_c != 0.0:
                    s = s + c_k * self.Kc[k]
                    s = s + (c_c * self.Cc[k] if self.cable_damped else 0.0)
                o[k] = s
            if c_k != 0.0:
                # the moments on cable nodes' slopes: -lf dQ/dr' (inputs at t_e, as
                # _body_tangents set them)
                for i in range(self.n_cable_loads):
                    k = self.cable_loads[i]
                    b = self.c0 + CABLE_NODE * (self.ld_body[k] - nb) + 3
                    cable_moment_tangent(q_e + b, &self.ld_moment[k, 0], M3)
                    blk = o + self.cable_load_slots[i]
                    for j in range(9):
                        blk[CABLE_ELEMENT * (j // 3) + j % 3] -= c_k * self.load_factor * M3[j]
            o = o + CABLE_ELEMENT_BLOCK * self.n_cable_el
        # the force items' blocks
        if self.n_item_vals:
            if self.has_items and (c_k != 0.0 or c_c != 0.0):
                self._effort_g(q_e, v_e, t_e)
                s = 0.0
                for i in range(self.n):
                    s = max(s, fabs(v_e[i]))
                self._item_tangents(q_e, v_e, 1e-7, 1e-7 * max(1.0, s), &self.item_K[0],
                                    &self.item_C[0])
                if self.effort_functions:
                    self._effort_tangents(q_e, v_e, t_e)
                for i in range(self.n_item_vals):
                    k = self.item_keep[i]
                    o[i] = c_k * self.item_K[k] + c_c * self.item_C[k]
            else:
                memset(o, 0, self.n_item_vals * sizeof(double))
            o = o + self.n_item_vals
        # the spring-dampers with an end between two nodes
        if self.arc_springs.n_square:
            if c_k != 0.0 or c_c != 0.0:
                s = 0.0
                for i in range(self.n):
                    s = max(s, fabs(v_e[i]))
                self.arc_springs.c_tangents(q_e, v_e, 1e-7, 1e-7 * max(1.0, s), &self.as_K[0],
                                            &self.as_C[0])
                for i in range(self.arc_springs.n_square):
                    o[i] = c_k * self.as_K[i] + c_c * self.as_C[i]
            else:
                memset(o, 0, self.arc_springs.n_square * sizeof(double))
            o = o + self.arc_springs.n_square
        # the loads between two nodes (the inputs at t_e: _body_tangents set them), the step
        # of their own blocks in _body_tangents
        if self.n_arc_loads:
            if c_k != 0.0:
                self._arc_load_tangents(q_e, 1e-4, &self.al_K[0])
                for i in range(MAX_BLOCK * self.n_arc_loads):
                    o[i] = c_k * self.al_K[i]
            else:
                memset(o, 0, MAX_BLOCK * self.n_arc_loads * sizeof(double))
            o = o + MAX_BLOCK * self.n_arc_loads
        # w G, then B
        self._jacobian(q_new, t_new, &self.J[0])
        self.J_valid = False
        if q_e == q_new:
            for k in range(self.n_J):
                o[k] = w * self.J[k]
        else:
            self._jacobian(q_e, t_e, &self.G[0])
            for k in range(self.n_J):
                o[k] = w * self.G[k]
        memcpy(o + self.n_J, &self.J[0], self.n_J * sizeof(double))
        return 0

    cdef int factor(self, const double* q_e, const double* a_e, const double* lam,
                    const double* v_e, double t_e, const double* q_new, double t_new, double c_m,
                    double c_mq, double c_k, double c_c, double w) except -1:
        self._assemble(q_e, a_e, lam, v_e, t_e, q_new, t_new, c_m, c_mq, c_k, c_c, w)
        self.lu.factor(&self.vals[0], self.n_vals, 0)
        return 0

    cdef int solve(self, double* x) except -1:
        return self.lu.solve(x)

    cdef int saddle_factor(self, const double* q, double t, bint mass) except -1:
        """``[W Phi_x^T; Phi_x 0]`` at q (W = M, or I) into the projection's factors."""
        self._assemble(q, q, &self.lam_zero[0], q, t, q, t, 1.0 if mass else 0.0, 0.0, 0.0,
                       0.0, 1.0)
        self.lu_projection.factor(&self.vals[0], self.n_vals, 0 if mass else self.n)
        return 0

    cdef int saddle_solve(self, double* x) except -1:
        return self.lu_projection.solve(x)

    # --- monitors and power ---------------------------------------------------------------
    cdef int power(self, const double* q, const double* v, const double* a, double t,
                   const double* lam, double* p) except -1:
        """Loads, drives (``lambda . Phi_t``) and efforts; the elements', cables' and
        spring-dampers' dissipation (spatial_dae.py, ``SpatialDAE.power``)."""
        cdef int i
        cdef double u, d
        cdef double* r = &self.work[0]
        p[0] = p[1] = 0.0
        if self.has_loads:
            self._inputs(t)
            self._loads(q, &self.load_out[0])
            for i in range(self.n):
                p[0] += self.load_out[i] * v[i]
        if self.has_items:
            self._item_power(q, v, t, p)
        if self.arc_springs.n:
            self.arc_springs.c_terms(q, v, &u, &d)
            p[1] += d
        if self.n_joint_rows:
            self.velocity_bias(q, t, r)
            for i in range(self.n_joint_rows):
                p[0] += lam[i] * r[i]
        if self.damped:
            p[1] += self.elements.c_dissipation(q, v)
        if self.n_cable_el and self.cable_damped:
            c_cable_elements(self.n_cable_el, q, v, &self.cable_dofs[0, 0], &self.cable_l[0],
                             &self.cable_EA[0], &self.cable_EI[0], &self.cable_c[0],
                             &self.cable_rest[0, 0], &self.curved[0], &self.f[0], &self.U[0],
                             &self.P[0], NULL, NULL)
            for i in range(self.n_cable_el):
                p[1] += self.P[i]
        return 0

    cdef int violations(self, const double* q, const double* v, const double* a, double t,
                        double* out) except -1:
        """(|Phi|, |Phi_x v + Phi_t|, |Phi_x a + xi|), infinity norms."""
        cdef int i
        cdef double* r = &self.work[0]
        out[0] = out[1] = out[2] = 0.0
        if not self.m:
            return 0
        self.constraint(q, t, r)
        for i in range(self.m):
            out[0] = max(out[0], fabs(r[i]))
        self.velocity_bias(q, t, r)
        self._rate(q, t, v, r)
        for i in range(self.m):
            out[1] = max(out[1], fabs(r[i]))
        self.acceleration_bias(q, v, t, r)
        self._rate(q, t, a, r)
        for i in range(self.m):
            out[2] = max(out[2], fabs(r[i]))
        return 0

    # --- Python views (the formulation's IndexThreeDAE methods are these) -----------------
    def py_force(self, q, v, double t):
        cdef double[::1] qq = np.ascontiguousarray(q, dtype=float)
        cdef double[::1] vv = np.ascontiguousarray(v, dtype=float)
        out = np.empty(self.n)
        cdef double[::1] o = out
        self.force(&qq[0], &vv[0], t, &o[0])
        return out

    def py_mass_action(self, q, a):
        cdef double[::1] qq = np.ascontiguousarray(q, dtype=float)
        cdef double[::1] aa = np.ascontiguousarray(a, dtype=float)
        out = np.empty(self.n)
        cdef double[::1] o = out
        self.mass_action(&qq[0], 0.0, &aa[0], &o[0])
        return out

    def py_constraint(self, q, double t):
        cdef double[::1] qq = np.ascontiguousarray(q, dtype=float)
        out = np.zeros(max(self.m, 1))
        cdef double[::1] o = out
        self.constraint(&qq[0], t, &o[0])
        return out[:self.m]

    def py_jacobian_values(self, q, double t, targets=None):
        """Phi_x's values in the pattern's order (n_J,) at (q, t), or, ``targets`` given
        ((n_links, 4): a revolute drive's quaternion, a prismatic drive's slide first; the
        other links' rows unused), at q with the drives at those targets (the model's
        functions not called)."""
        cdef double[::1] qq = np.ascontiguousarray(q, dtype=float)
        cdef double[:, ::1] tt
        out = np.zeros(max(self.n_J, 1))
        cdef double[::1] o = out
        if targets is None:
            self._jacobian(&qq[0], t, &o[0])
        else:
            tt = np.zeros((max(self.links.n, 1), EULER))
            np.asarray(tt)[:self.links.n] = np.asarray(targets, dtype=float).reshape(
                self.links.n, EULER)
            self._jacobian_at(&qq[0], &tt[0, 0], &o[0])
        return out[:self.n_J]

    def py_constraint_force(self, q, lam, double t):
        cdef double[::1] qq = np.ascontiguousarray(q, dtype=float)
        cdef double[::1] ll = np.zeros(max(self.m, 1))
        np.asarray(ll)[:self.m] = lam
        out = np.empty(self.n)
        cdef double[::1] o = out
        self.constraint_force(&qq[0], &ll[0], t, &o[0])
        return out

    def py_constraint_rate(self, q, v, double t):
        cdef double[::1] qq = np.ascontiguousarray(q, dtype=float)
        cdef double[::1] vv = np.ascontiguousarray(v, dtype=float)
        out = np.zeros(max(self.m, 1))
        cdef double[::1] o = out
        self._rate(&qq[0], t, &vv[0], &o[0])
        return out[:self.m]

    def py_bias(self, q, v, double t):
        """``Phi_t`` (v None) or ``xi`` (m,)."""
        cdef double[::1] qq = np.ascontiguousarray(q, dtype=float)
        cdef double[::1] vv
        out = np.zeros(max(self.m, 1))
        cdef double[::1] o = out
        if v is None:
            self.velocity_bias(&qq[0], t, &o[0])
        else:
            vv = np.ascontiguousarray(v, dtype=float)
            self.acceleration_bias(&qq[0], &vv[0], t, &o[0])
        return out[:self.m]

    def py_curvature_values(self, q, lam, double t):
        """The links' ``d(Phi_x^T lambda)/dx`` blocks in the pattern's order."""
        cdef double[::1] qq = np.ascontiguousarray(q, dtype=float)
        cdef double[::1] ll = np.zeros(max(self.m, 1))
        np.asarray(ll)[:self.m] = lam
        cdef int n = self.links.n_square
        cdef int na = self.cables.n_square
        out = np.zeros(max(n + na + self.arcs.n_square, 1))
        cdef double[::1] o = out
        cdef double* T = &self.T[0, 0]
        self._targets(self._jets(t), T)
        self.links.c_curvature(&qq[0], T, &ll[0], &o[0])
        # the cables' blocks after the links' n (o + n: with no cable blocks, one past the
        # end, where &o[n] is an index error of the debug build)
        self.cables.c_curvature(&qq[0], &ll[0], &o[0] + n)
        self.arcs.c_curvature(&qq[0], &ll[0], &o[0] + n + na)
        return out[:n + na + self.arcs.n_square]

    def py_body_tangents(self, q, v, double t):
        """The bodies' ``(D, C)`` of Newton's matrix at (q, v, t), (n_bodies, 7, 4) and
        (n_bodies, 4, 4) (:meth:`_body_tangents`)."""
        cdef double[::1] qq = np.ascontiguousarray(q, dtype=float)
        cdef double[::1] vv = np.ascontiguousarray(v, dtype=float)
        D, C = np.zeros((max(self.nb, 1), POSE, EULER)), np.zeros((max(self.nb, 1), EULER, EULER))
        cdef double[:, :, ::1] d = D
        cdef double[:, :, ::1] c = C
        self._body_tangents(&qq[0], &vv[0], t, &d[0, 0, 0], &c[0, 0, 0])
        return D[:self.nb], C[:self.nb]

    def py_arc_load_tangents(self, q, double t):
        """The loads between two nodes' blocks (n_arc_loads, 14, 14) at (q, t)
        (:meth:`_arc_load_tangents`, the assembly's step 1e-4)."""
        cdef double[::1] qq = np.ascontiguousarray(q, dtype=float)
        out = np.zeros(MAX_BLOCK * max(self.n_arc_loads, 1))
        cdef double[::1] o = out
        self._inputs(t)
        self._arc_load_tangents(&qq[0], 1e-4, &o[0])
        return out[:MAX_BLOCK * self.n_arc_loads].reshape(-1, MAX_COLS, MAX_COLS)

    def py_values(self, q_e, a_e, lam, v_e, double t_e, q_new, double t_new, double c_m,
                  double c_mq, double c_k, double c_c, double w):
        """Newton's matrix's values in the pattern's order."""
        cdef double[::1] qe = np.ascontiguousarray(q_e, dtype=float)
        cdef double[::1] ae = np.ascontiguousarray(a_e, dtype=float)
        cdef double[::1] ve = np.ascontiguousarray(v_e, dtype=float)
        cdef double[::1] qn = qe if q_new is q_e else np.ascontiguousarray(q_new, dtype=float)
        cdef double[::1] ll = np.zeros(max(self.m, 1))
        np.asarray(ll)[:self.m] = lam
        self._assemble(&qe[0], &ae[0], &ll[0], &ve[0], t_e, &qn[0], t_new, c_m, c_mq, c_k,
                       c_c, w)
        return np.asarray(self.vals)[:self.n_vals].copy()

    def py_power(self, q, v, double t, lam):
        cdef double[::1] qq = np.ascontiguousarray(q, dtype=float)
        cdef double[::1] vv = np.ascontiguousarray(v, dtype=float)
        cdef double[::1] ll = np.zeros(max(self.m, 1))
        cdef double p[2]
        np.asarray(ll)[:self.m] = lam
        self.power(&qq[0], &vv[0], &vv[0], t, &ll[0], p)
        return p[0], p[1]


cdef inline void _frame_of(const double* X, int b, double* r, double* A) noexcept nogil:
    """Body b's origin r (3) and frame ``A = A(p) / (p . p)`` (9) in the coordinates X; the
    ground's (0, I) for b = -1."""
    cdef double pp
    cdef int i
    if b < 0:
        memset(r, 0, 3 * sizeof(double))
        memset(A, 0, 9 * sizeof(double))
        A[0] = A[4] = A[8] = 1.0
        return
    memcpy(r, X + POSE * b, 3 * sizeof(double))
    rotation(X + POSE * b + 3, A)
    pp = X[POSE * b + 3] * X[POSE * b + 3] + X[POSE * b + 4] * X[POSE * b + 4] \
        + X[POSE * b + 5] * X[POSE * b + 5] + X[POSE * b + 6] * X[POSE * b + 6]
    for i in range(9):
        A[i] /= pp


def link_coordinates(const double[:, ::1] X, const int[::1] parent, const int[::1] body,
                     const int[::1] motion, const double[:, :, ::1] QT,
                     const double[:, ::1] offset, const double[:, ::1] anchor,
                     const double[:, ::1] a0, const double[:, ::1] a1, const int[::1] col0,
                     double[:, ::1] out):
    """The coordinates of joint links between bodies (spatial_dae.py, ``SpatialDAE.
    _link_values``) at the states X (S, n): of each link's relative rotation ``R = A_p^T A_c
    Q^T`` and translation ``t = A_p^T (r_c - r_p + A_c o) - anchor``, by its motion (the
    recursion's ``_link_coordinates``: angles about and slides along its axes a0, a1, rotation
    vectors of angle at most pi), link k's from column ``col0[k]`` of out (S, n_c)."""
    cdef int s, k, i, c
    cdef double rp[3]
    cdef double rc[3]
    cdef double Ap[9]
    cdef double Ac[9]
    cdef double T[9]
    cdef double R[9]
    cdef double w[3]
    cdef double t[3]
    cdef double psi[3]
    cdef double nrm[3]
    cdef double b[3]
    cdef double cc[3]
    cdef const double* x
    cdef double* o
    with nogil:
        for s in range(X.shape[0]):
            x = &X[s, 0]
            for k in range(parent.shape[0]):
                if col0[k] >= out.shape[1]:
                    continue        # a link without coordinates (fixed) after the last column
                _frame_of(x, parent[k], rp, Ap)
                _frame_of(x, body[k], rc, Ac)
                rot.matTmul(Ap, Ac, T)
                rot.matmul(T, &QT[k, 0, 0], R)
                rot.matvec(Ac, &offset[k, 0], w)
                for i in range(3):
                    w[i] = rc[i] - rp[i] + w[i]
                rot.matTvec(Ap, w, t)
                for i in range(3):
                    t[i] -= anchor[k, i]
                o = &out[s, col0[k]]
                # the translation's coordinates, then the rotation's from o + c
                c = motion_translation(motion[k])
                if c == T_AXIS:
                    o[0] = rot.dot(t, &a0[k, 0])
                elif c == T_FREE:
                    o[0], o[1], o[2] = t[0], t[1], t[2]
                o += translation_size(c)
                c = motion_rotation(motion[k])
                if c == R_AXIS:
                    rot.logm(R, psi)
                    o[0] = rot.dot(psi, &a0[k, 0])
                elif c == R_TWO_AXES:
                    rot.cross(&a0[k, 0], &a1[k, 0], nrm)
                    rot.matTvec(R, &a0[k, 0], b)
                    rot.matvec(R, &a1[k, 0], cc)
                    o[0] = atan2(rot.dot(cc, nrm), rot.dot(cc, &a1[k, 0]))
                    o[1] = atan2(rot.dot(b, nrm), rot.dot(b, &a0[k, 0]))
                elif c == R_VECTOR:
                    rot.logm(R, o)


def rotation_logs(const double[:, :, ::1] R, double[:, ::1] out):
    """The rotation vectors ``log(R_s)`` (S, 3), angles at most pi, of rotations R (S, 3, 3)
    (the kernels' ``logm``, one call for all)."""
    cdef int s
    with nogil:
        for s in range(R.shape[0]):
            rot.logm(&R[s, 0, 0], &out[s, 0])


# --- efforts and spring-dampers --------------------------------------------------------------
cdef inline void body_frame(const double* X, const double* V, double* A, double* w,
                            double* pp) noexcept nogil:
    """The frame ``A = A(p) / (p . p)`` (9) and angular velocity ``w = 2 E(p) p' / (p . p)``
    (3) of a body state X, V (7 each)."""
    cdef double E[EULER_MAP]
    cdef int i, k
    pp[0] = X[3] * X[3] + X[4] * X[4] + X[5] * X[5] + X[6] * X[6]
    rotation(X + 3, A)
    for i in range(9):
        A[i] /= pp[0]
    euler_E(X + 3, E)
    for i in range(3):
        w[i] = 0.0
        for k in range(EULER):
            w[i] += 2.0 * E[EULER * i + k] * V[3 + k] / pp[0]


cdef inline void joint_frames(const double* Xp, const double* Vp, const double* Xc,
                              const double* Vc, double* Ap, double* wp, double* Ac,
                              double* wc) noexcept nogil:
    """What every joint kernel starts from: the parent's and the child's frames Ap, Ac (9) and
    angular velocities wp, wc (3) (:func:`body_frame` of the states Xp, Vp and Xc, Vc)."""
    cdef double pp
    body_frame(Xp, Vp, Ap, wp, &pp)
    body_frame(Xc, Vc, Ac, wc, &pp)


cdef inline void joint_point(const double* Xc, const double* Ac, const double* offset,
                             double* o, double* X) noexcept nogil:
    """The joint point's arm ``o = A_c offset`` and the point ``X = r_c + o`` (3, global) of a
    child of state Xc and frame Ac (the kernels that need it: a revolute's angle does not)."""
    cdef int i
    rot.matvec(Ac, offset, o)
    for i in range(3):
        X[i] = o[i] + Xc[i]


cdef inline void on_body(const double* X, const double* F, const double* M,
                         const double* point, double sign, double* out) noexcept nogil:
    """out (7) = sign ``[F, 2 E(p)^T (M + (point - r) x F) / (p . p)]``: the generalized force
    of the force F at a point and the moment M (global) on a body of state X."""
    cdef double E[EULER_MAP]
    cdef double d[3]
    cdef double m[3]
    cdef double pp = X[3] * X[3] + X[4] * X[4] + X[5] * X[5] + X[6] * X[6]
    cdef int i, k
    for i in range(3):
        d[i] = point[i] - X[i]
    rot.cross(d, F, m)
    for i in range(3):
        m[i] += M[i]
        out[i] = sign * F[i]
    euler_E(X + 3, E)
    for k in range(EULER):
        out[3 + k] = sign * 2.0 * (E[k] * m[0] + E[EULER + k] * m[1] + E[2 * EULER + k] * m[2]) / pp


cdef void joint_wrench(const double* Xp, const double* Xc, const double* offset,
                       const double* f, const double* mp, const double* mc, double g,
                       double* out) noexcept nogil:
    """One joint force row of value g (:func:`joint_wrenches`): the generalized forces into
    out (14: parent's 7, child's 7)."""
    cdef double Ap[9]
    cdef double Ac[9]
    cdef double w[3]
    cdef double o[3]
    cdef double x[3]
    cdef double F[3]
    cdef double M[3]
    cdef double a[3]
    cdef double b[3]
    cdef int i
    # the frames only (the states' rates do not enter; w is left unused)
    joint_frames(Xp, Xp, Xc, Xc, Ap, w, Ac, w)
    joint_point(Xc, Ac, offset, o, x)
    rot.matvec(Ap, f, F)
    rot.matvec(Ap, mp, a)
    rot.matvec(Ac, mc, b)
    for i in range(3):
        F[i] *= g
        M[i] = g * (a[i] + b[i])
    on_body(Xp, F, M, x, -1.0, out)
    on_body(Xc, F, M, x, 1.0, out + POSE)


def joint_wrenches(const double[:, ::1] Xp, const double[:, ::1] Xc,
                   const double[:, ::1] offset, const double[:, ::1] f,
                   const double[:, ::1] mp, const double[:, ::1] mc, const double[::1] g,
                   double[:, ::1] out):
    """Joint force rows (spatial_dae.py ``SpatialDAE._force_setup``): for each row of value g,
    on the child (state Xc) the force ``g A_p f`` at the joint point ``X = r_c + A_c o`` and
    the moment ``g (A_p m_p + A_c m_c)``, on the parent (Xp) their opposites; the generalized
    forces into out (n, 14: parent's 7, child's 7)."""
    cdef int s
    with nogil:
        for s in range(Xp.shape[0]):
            joint_wrench(&Xp[s, 0], &Xc[s, 0], &offset[s, 0], &f[s, 0], &mp[s, 0], &mc[s, 0],
                         g[s], &out[s, 0])


cdef inline void point_rate(const double* wp, const double* wc, const double* o,
                            const double* d, const double* Vp, const double* Vc,
                            double* u) noexcept nogil:
    """u (3) = ``v_X - v_p - w_p x d`` (global): the velocity of the joint point X (arm o from
    the child's origin, d from the parent's) relative to the parent's frame, ``A_p t'``."""
    cdef double z[3]
    cdef int i
    rot.cross(wc, o, u)
    for i in range(3):
        u[i] += Vc[i] - Vp[i]
    rot.cross(wp, d, z)
    for i in range(3):
        u[i] -= z[i]


cdef inline double angle_rate(double x, double y, double xd, double yd) noexcept nogil:
    """The rate of ``atan2(y, x)``."""
    return (x * yd - y * xd) / (x * x + y * y)


cdef inline void slide_value(const double* Ap, const double* wp, const double* wc,
                             const double* o, const double* d, const double* Vp,
                             const double* Vc, const double* anchor, const double* a0,
                             double* q, double* qd) noexcept nogil:
    """A slide along a0 (:func:`link_values`' prismatic coordinate) and its rate."""
    cdef double ag[3]
    cdef double z[3]
    rot.matvec(Ap, a0, ag)
    q[0] = rot.dot(ag, d) - rot.dot(anchor, a0)
    point_rate(wp, wc, o, d, Vp, Vc, z)
    qd[0] = rot.dot(ag, z)


cdef inline void angle_value(const double* Ap, const double* Ac, const double* wp,
                             const double* wc, const double* QT, const double* a0, double* q,
                             double* qd) noexcept nogil:
    """An angle about a0 (:func:`link_values`' revolute coordinate) and its rate."""
    cdef double T[9]
    cdef double R[9]
    cdef double z[3]
    cdef double ag[3]
    cdef int i
    rot.matvec(Ap, a0, ag)
    rot.matTmul(Ap, Ac, T)
    rot.matmul(T, QT, R)
    rot.logm(R, z)
    q[0] = rot.dot(z, a0)
    for i in range(3):
        z[i] = wc[i] - wp[i]
    qd[0] = rot.dot(z, ag)


cdef int link_values(int motion, const double* Xp, const double* Vp, const double* Xc,
                     const double* Vc, const double* offset, const double* anchor,
                     const double* QT, const double* a0, const double* a1, double* q,
                     double* qd) noexcept nogil:
    """A joint's coordinates q and their rates qd (its kind's number of them, returned; 0 for a
    kind without) at its bodies' states, the map of the recursion's ``_link_coordinates``
    (rancf/formulations/spatial.py) from the relative rotation ``R = A_p^T A_c Q^T`` and
    translation ``t = A_p^T d - anchor`` (``d = X - r_p``, X the joint point), with the rates
    of ``R' = W^ R``, ``W = A_p^T (w_c - w_p)``, and ``A_p t' = v_X - v_p - w_p x d``:

the translation's primitive's coordinates, then the rotation's:

    - ``T_AXIS``: ``A_p a0 . d - anchor . a0``, rate ``A_p a0 . A_p t'``; ``T_FREE``: t, t';
    - ``R_AXIS``: ``log(R) . a0`` (within (-pi, pi]), rate ``(w_c - w_p) . A_p a0``;
    - ``R_TWO_AXES``: ``atan2(c . n, c . a1)``, ``atan2(b . n, b . a0)`` of ``c = R a1``,
      ``b = R^T a0``, ``n = a0 x a1``, rates by ``c' = W x c``, ``b' = -R^T (W x a0)``;
    - ``R_VECTOR``: ``psi = log(R)`` (angle at most pi), rate ``J_l(psi)^-1 W``.

    On the manifold a revolute's ``log(R)`` lies along a0, where ``a0 . J_l^-1 W = a0 . W``:
    the rates are those of the coordinates along the motion."""
    cdef double Ap[9]
    cdef double Ac[9]
    cdef double R[9]
    cdef double T[9]
    cdef double wp[3]
    cdef double wc[3]
    cdef double o[3]
    cdef double X[3]
    cdef double d[3]
    cdef double u[3]
    cdef double W[3]
    cdef double b[3]
    cdef double c[3]
    cdef double n[3]
    cdef double z[3]
    cdef int i, k, tk, rk
    joint_frames(Xp, Vp, Xc, Vc, Ap, wp, Ac, wc)
    joint_point(Xc, Ac, offset, o, X)
    for i in range(3):
        d[i] = X[i] - Xp[i]
    # the translation's coordinates, then the rotation's from k
    tk, rk = motion_translation(motion), motion_rotation(motion)
    k = translation_size(tk)
    if tk == T_AXIS:
        slide_value(Ap, wp, wc, o, d, Vp, Vc, anchor, a0, q, qd)
    elif tk == T_FREE:
        rot.matTvec(Ap, d, z)
        point_rate(wp, wc, o, d, Vp, Vc, u)
        rot.matTvec(Ap, u, qd)
        for i in range(3):
            q[i] = z[i] - anchor[i]
    if rk == R_NONE:
        return k
    if rk == R_AXIS:
        angle_value(Ap, Ac, wp, wc, QT, a0, q + k, qd + k)
        return k + 1
    rot.matTmul(Ap, Ac, T)
    rot.matmul(T, QT, R)
    for i in range(3):
        u[i] = wc[i] - wp[i]
    rot.matTvec(Ap, u, W)
    if rk == R_TWO_AXES:
        rot.cross(a0, a1, n)
        rot.matvec(R, a1, c)
        rot.matTvec(R, a0, b)
        q[k] = atan2(rot.dot(c, n), rot.dot(c, a1))
        q[k + 1] = atan2(rot.dot(b, n), rot.dot(b, a0))
        rot.cross(W, c, z)
        qd[k] = angle_rate(rot.dot(c, a1), rot.dot(c, n), rot.dot(z, a1), rot.dot(z, n))
        rot.cross(W, a0, u)
        rot.matTvec(R, u, z)
        qd[k + 1] = angle_rate(rot.dot(b, a0), rot.dot(b, n), -rot.dot(z, a0), -rot.dot(z, n))
        return k + 2
    # a rotation vector (spherical, free)
    rot.logm(R, q + k)
    rot.left_jacobian_inverse(q + k, T)
    rot.matvec(T, W, qd + k)
    return k + 3


def joint_values(const double[:, ::1] Xp, const double[:, ::1] Vp, const double[:, ::1] Xc,
                 const double[:, ::1] Vc, const double[:, ::1] offset,
                 const double[:, ::1] anchor, const double[:, :, ::1] QT,
                 const double[:, ::1] a0, const double[:, ::1] a1, const int[::1] motion,
                 double[:, ::1] q, double[:, ::1] qd):
    """The coordinates and rates (n, 6: each row's first ones, as many as its kind has) of
    joints of any kind at their bodies' states (:func:`link_values`): what an effort function
    gets, computed in one call for all of them."""
    cdef int s
    with nogil:
        for s in range(Xp.shape[0]):
            link_values(motion[s], &Xp[s, 0], &Vp[s, 0], &Xc[s, 0], &Vc[s, 0], &offset[s, 0],
                        &anchor[s, 0], &QT[s, 0, 0], &a0[s, 0], &a1[s, 0], &q[s, 0], &qd[s, 0])


cdef double joint_spring(const double* Xp, const double* Vp, const double* Xc,
                         const double* Vc, const double* offset, const double* anchor,
                         const double* QT, const double* axis, int kind,
                         const double* law, double ref, double* q, double* qd) noexcept nogil:
    """One joint spring-damper row (:func:`joint_spring_values`; ``kind`` as
    ``JointSpringKind``): its coordinate q and rate qd, returns its force g. A revolute's
    angle is continued from its reference angle ``ref`` (rad, the angle of the last accepted
    step): ``q = ref + wrap(log(R) . a0 - ref)``, wrap to [-pi, pi), so that it is the
    recursion's continuous angle (theory: Joint coordinates) wherever it turns by less than
    pi from the reference (a prismatic's and a spherical's ``ref`` is unused: a spherical
    spring's theta is the shortest turn from rest, ``|theta| <= pi``, as the recursion's)."""
    cdef double Ap[9]
    cdef double Ac[9]
    cdef double T[9]
    cdef double R[9]
    cdef double R0[9]
    cdef double wp[3]
    cdef double wc[3]
    cdef double o[3]
    cdef double X[3]
    cdef double d[3]
    cdef int i
    joint_frames(Xp, Vp, Xc, Vc, Ap, wp, Ac, wc)
    if kind >= JS_BALL:
        rot.matTmul(Ap, Ac, T)
        rot.matmul(T, QT, R)
        rot.expm(axis, R0)
        rot.matmulT(R, R0, T)
        rot.logm(T, d)
        q[0] = d[kind - JS_BALL]
        for i in range(3):
            o[i] = wc[i] - wp[i]
        rot.matTvec(Ap, o, X)
        qd[0] = X[kind - JS_BALL]
    elif kind == JS_PRISMATIC:
        joint_point(Xc, Ac, offset, o, X)
        for i in range(3):
            d[i] = X[i] - Xp[i]
        slide_value(Ap, wp, wc, o, d, Vp, Vc, anchor, axis, q, qd)
    else:
        angle_value(Ap, Ac, wp, wc, QT, axis, q, qd)
        q[0] = ref + wrap(q[0] - ref)
    return -law[0] * (q[0] - law[2]) - law[1] * qd[0]


def joint_spring_values(const double[:, ::1] Xp, const double[:, ::1] Vp,
                        const double[:, ::1] Xc, const double[:, ::1] Vc,
                        const double[:, ::1] offset, const double[:, ::1] anchor,
                        const double[:, :, ::1] QT, const double[:, ::1] axis,
                        const unsigned char[::1] kind, const double[:, ::1] law,
                        const double[::1] ref, double[::1] q, double[::1] qd, double[::1] g):
    """Joint spring-damper rows: coordinate q, rate qd (:func:`link_values` of a revolute or
    prismatic joint of that axis, a component of a spherical joint's rotation from rest and
    relative angular velocity: ``JointSpringKind``) and force ``g = -k (q - q0) - c q'`` (law
    ``(k, c, q0)``) of each. A revolute's angle is continued from its reference angle ``ref``
    (rad, the angle of the last accepted step: :func:`joint_spring`)."""
    cdef int s
    with nogil:
        for s in range(Xp.shape[0]):
            g[s] = joint_spring(&Xp[s, 0], &Vp[s, 0], &Xc[s, 0], &Vc[s, 0], &offset[s, 0],
                                &anchor[s, 0], &QT[s, 0, 0], &axis[s, 0], kind[s],
                                &law[s, 0], ref[s], &q[s], &qd[s])


cdef inline void spring_end(bint on_body, const double* X, const double* V, const double* o,
                            double* x, double* u) noexcept nogil:
    """A spring-damper's end: its position x and velocity u (3, global), ``r + A o`` and
    ``v + w x A o`` on a body of state X, V, the ground point o at rest otherwise."""
    cdef double A[9]
    cdef double w[3]
    cdef double a[3]
    cdef double pp
    cdef int i
    if not on_body:
        for i in range(3):
            x[i] = o[i]
            u[i] = 0.0
        return
    body_frame(X, V, A, w, &pp)
    rot.matvec(A, o, a)
    rot.cross(w, a, u)
    for i in range(3):
        x[i] = X[i] + a[i]
        u[i] += V[i]


cdef void point_spring(const double* X1, const double* V1, const double* X2,
                       const double* V2, bint on1, bint on2, const double* offsets,
                       const double* law, double* out, double* U, double* P) noexcept nogil:
    """One spring-damper between points (:func:`point_springs`): its generalized forces into
    out (14), its potential into U and its dissipated power into P."""
    cdef double x1[3]
    cdef double x2[3]
    cdef double u1[3]
    cdef double u2[3]
    cdef double n[3]
    cdef double F[3]
    cdef double l, rate, f
    cdef int i
    spring_end(on1, X1, V1, offsets, x1, u1)
    spring_end(on2, X2, V2, offsets + 3, x2, u2)
    for i in range(3):
        n[i] = x2[i] - x1[i]
    l = sqrt(rot.dot(n, n))
    rate = 0.0
    if l > 0.0:
        for i in range(3):
            n[i] /= l
            u2[i] -= u1[i]
        rate = rot.dot(n, u2)
    f = law[0] * (l - law[2]) + law[1] * rate
    for i in range(3):
        F[i] = f * n[i]
    on_body(X1, F, ZERO3, x1, 1.0, out)
    on_body(X2, F, ZERO3, x2, -1.0, out + POSE)
    U[0] = 0.5 * law[0] * (l - law[2]) ** 2
    P[0] = law[1] * rate * rate


def point_springs(const double[:, ::1] X1, const double[:, ::1] V1,
                  const double[:, ::1] X2, const double[:, ::1] V2,
                  const long[::1] b1, const long[::1] b2, const double[:, :, ::1] offsets,
                  const double[:, ::1] law, double[:, ::1] out, double[::1] U, double[::1] P):
    """Spring-dampers between points (a body's ``r + A o``, or the ground point o where its
    body is -1): the force ``f = k (l - l0) + c l'`` (law ``(k, c, l0)``) pulls the first point
    by ``f n`` and the second by ``-f n`` (n the unit vector from the first to the second;
    none where they meet); their generalized forces into out (n, 14), potentials
    ``k (l - l0)^2 / 2`` into U and dissipated powers ``c l'^2`` into P."""
    cdef int s
    with nogil:
        for s in range(X1.shape[0]):
            point_spring(&X1[s, 0], &V1[s, 0], &X2[s, 0], &V2[s, 0], b1[s] >= 0, b2[s] >= 0,
                         &offsets[s, 0, 0], &law[s, 0], &out[s, 0], &U[s], &P[s])
