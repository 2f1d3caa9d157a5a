"""O(n) dynamics of a spatial tree (theory: Spatial trees).

The tree is :class:`rancf.model.spatial_tree.SpatialTree`: bodies (rigid bodies and beam nodes
with lumped masses), each on a link to its parent with coordinates q_i, a
``rancf.joints._codes.Motion``. The state is ``y = (q, qd)`` of the free coordinates (all
but those of driven one-coordinate joints, whose ``q, qd, qdd`` are prescribed); ``y' = (qd,
qdd)``. A driven link enters the recursion with no unknown: its ``H qdd`` joins the bias c.

Body i's origin r_i and frame A_i follow from its parent p (``A_p = I``, ``r_p = 0`` for the
ground) by ``A_i = A_p R(q) Q``, ``r_i = r_p + A_p (anchor + t(q)) - A_i offset``. With
``V = (v, w)`` the velocity of the origin and the angular velocity (global), ``d = r_i - r_p``,
``o = A_i offset``, the link's translation Jacobian T (t' = T qd, constant) and rotation
Jacobian Jr (the relative angular velocity in the parent's frame is Jr qd: the axis, ``[a0,
exp(q0 a0^) a1]`` for a universal joint, ``J_l(q)`` for a rotation vector), all global vectors:

    V_i  = X_i V_p + H_i qd,     X_i = [[I, -d^], [0, I]],
    H_i  = [[A_p T + o^ A_p Jr], [A_p Jr]],
    V_i' = X_i V_p' + H_i qdd + c_i,  with u = A_p T qd, w_r = A_p Jr qd, ud = A_p Jr' qd:
    c_ang = w_p x w_r + ud,
    c_lin = w_p x (v_i - v_p) + w_p x u + (w_i x o) x w_r + o x c_ang

(``-(d')^ w_p`` from X', ``d' = v_i - v_p``; the rest from H' with ``A_p' = w_p^ A_p`` and
``o' = w_i x o``). Each body's equation at its origin, ``M_i V_i' = f_i + W_i - sum_children
X_c^T W_c`` with ``M_i = diag(m I, A J A^T)``, the applied wrench ``f_i`` (gravity ``m g``, the
gyroscopic moment ``-w x (A J A^T) w``, loads moved to the origin) and the link wrench W_i from
the parent, held by ``H_i^T W_i = tau_i`` (efforts and element forces), is solved by the
articulated-body recursion (Featherstone), the blocks 6 x 6:

leaves to root
    ``U = I^A H``, ``D = H^T U`` (n_i x n_i, LDL^T), ``u = tau - H^T p^A - U^T c``;
    ``I^A_p += X^T (I^A - U D^-1 U^T) X``, ``p^A_p += X^T (p^A + I^A c + U D^-1 u)``, from
    ``I^A = M``, ``p^A = -f``;
root to leaves
    ``qdd = D^-1 (u - U^T X V_p')``, ``V_i' = X V_p' + H qdd + c``.

No matrix of size n is formed: the cost is linear in the number of bodies for any tree.
An element link (M_ELEMENT) adds the beam element's elastic and damping force
(rancf/elements/_spatial_beam.pyx ``element_force``) to its tau. A spring-damper between two
points adds its force to their bodies' applied wrenches f, one on a joint's coordinate its
generalized force to that link's tau (:func:`spring_forces`).
"""
cimport numpy as cnp
from libc.math cimport M_PI, fabs, isfinite, sqrt
from libc.string cimport memcpy, memset

import numpy as np

from rancf.elements._rotation cimport (cross, dot, expm, left_jacobian, left_jacobian_inverse,
                                       left_jacobian_rate, logm, matmul, matmulT, matTvec,
                                       matvec)
from rancf.elements._spatial_beam cimport (SPATIAL_BLOCK, SPATIAL_NODE, element_energy,
                                          element_force)
from rancf.elements._ancf_cable cimport (CABLE_DIM, CABLE_ELEMENT, CABLE_ELEMENT_BLOCK,
                                         CABLE_NODE, cable_force_rest)
from rancf.formulations._inputs cimport call_inputs
from rancf.formulations._spatial_arc cimport arc_motion, arc_wrenches
from rancf.joints._codes cimport (M_ELEMENT, R_AXIS, R_TWO_AXES, R_VECTOR, T_AXIS, T_FREE,
                                  motion_rotation, motion_translation, translation_size)
from rancf.formulations._forces import checked
from rancf.utilities.workspace import pack

cnp.import_array()

# the cable node motions (``CableMotion`` of _spatial.pxd) as module names, for the layout
globals().update(CableMotion.__members__)

# a link's axes a0, a1 (``SpatialData.axes``): two vectors of 3
cdef extern from *:
    """
    #define RANCF_SPATIAL_AXES (2 * 3)
    """
    const long AXES "RANCF_SPATIAL_AXES"

cdef double[9] EYE = [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0]
cdef double[SPATIAL_NODE] ZERO6 = [0.0, 0.0, 0.0, 0.0, 0.0, 0.0]


# --- one link --------------------------------------------------------------------------------
cdef inline void link(int motion, const double* ax, const double* q, const double* qd,
                      bint rates, double* t, double* R, double* T, double* J,
                      double* jd) noexcept nogil:
    """The link's translation t(q) and rotation R(q), each of its primitive
    (``rancf.joints._codes.Translation``, ``Rotation``; the translation's coordinates first),
    and if ``rates`` its Jacobians T, Jr (3 x n_i, row stride 6, parent frame) and
    ``jd = Jr' qd``."""
    cdef double p[3]
    cdef double R0[9]
    cdef double R1[9]
    cdef double Jl[9]
    cdef double Jd[9]
    cdef double b1[3]
    cdef int i, j
    cdef int tk = motion_translation(motion), rk = motion_rotation(motion)
    cdef int n = translation_size(tk)     # the rotation's first coordinate
    memset(t, 0, 3 * sizeof(double))
    memcpy(R, EYE, 9 * sizeof(double))
    if rates:
        memset(T, 0, 18 * sizeof(double))
        memset(J, 0, 18 * sizeof(double))
        memset(jd, 0, 3 * sizeof(double))
    if tk == T_AXIS:
        for i in range(3):
            t[i] = q[0] * ax[i]
        if rates:
            for i in range(3):
                T[SPATIAL_NODE * i] = ax[i]
    elif tk == T_FREE:
        memcpy(t, q, 3 * sizeof(double))
        if rates:
            for i in range(3):
                T[SPATIAL_NODE * i + i] = 1.0
    if rk == R_AXIS:
        for i in range(3):
            p[i] = q[n] * ax[i]
        expm(p, R)
        if rates:
            for i in range(3):
                J[SPATIAL_NODE * i + n] = ax[i]
    elif rk == R_TWO_AXES:
        for i in range(3):
            p[i] = q[n] * ax[i]
        expm(p, R0)
        for i in range(3):
            p[i] = q[n + 1] * ax[3 + i]
        expm(p, R1)
        matmul(R0, R1, R)
        if rates:
            matvec(R0, ax + 3, b1)
            for i in range(3):
                J[SPATIAL_NODE * i + n] = ax[i]
                J[SPATIAL_NODE * i + n + 1] = b1[i]
            # d/dt (exp(q0 a0^) a1) = q0' a0 x b1
            cross(ax, b1, p)
            for i in range(3):
                jd[i] = qd[n] * qd[n + 1] * p[i]
    elif rk == R_VECTOR:
        expm(q + n, R)
        if rates:
            left_jacobian(q + n, Jl)
            # jd = J_l' qd is zero at rest (statics: every iterate), left zeroed above
            if qd[n] != 0.0 or qd[n + 1] != 0.0 or qd[n + 2] != 0.0:
                left_jacobian_rate(q + n, qd + n, Jd)
                matvec(Jd, qd + n, jd)
            for i in range(3):
                for j in range(3):
                    J[SPATIAL_NODE * i + n + j] = Jl[3 * i + j]


cdef inline void pose(SpatialData* d, int i, const double* Ap, const double* rp, const double* R,
                      const double* t, double* o) noexcept nogil:
    """Body i's frame, origin and ``d = r_i - r_p`` from its parent's (Ap, rp) and its link's
    R, t; o receives ``A_i offset``."""
    cdef double RQ[9]
    cdef double x[3]
    cdef double y[3]
    cdef double* A = d.A + 9 * i
    cdef double* dd = d.d + 3 * i
    cdef int k
    matmul(R, d.relative + 9 * i, RQ)
    matmul(Ap, RQ, A)
    for k in range(3):
        x[k] = d.anchor[3 * i + k] + t[k]
    matvec(Ap, x, y)
    matvec(A, d.offset + 3 * i, o)
    for k in range(3):
        dd[k] = y[k] - o[k]
        d.r[3 * i + k] = rp[k] + dd[k]


cdef void poses(SpatialData* d, const double* q) noexcept nogil:
    """Frames and origins only (root to leaves)."""
    cdef double t[3]
    cdef double R[9]
    cdef double o[3]
    cdef int s, i, p
    for s in range(d.n):
        i = d.order[s]
        p = d.parent[i]
        if i >= d.nb:
            cable_node(d, i, q, NULL, False)
            continue
        link(d.motion[i], d.axes + AXES * i, q + d.q_offset[i], NULL, False, t, R, NULL, NULL, NULL)
        if p >= 0:
            pose(d, i, d.A + 9 * p, d.r + 3 * p, R, t, o)
        else:
            pose(d, i, EYE, ZERO6, R, t, o)


cdef void cable_node(SpatialData* d, int i, const double* q, const double* qd,
                     bint rates) noexcept nogil:
    """Cable node i (>= nb): its coordinates ``ce = [r, r']`` from its parent's and its link's
    q (the C_* motions of _spatial.pxd), its frame the identity, and if ``rates`` its rates
    ``V = (r', r'')`` (6), motion subspace H (6 x n_i) and bias acceleration c, with
    ``V = X V_p + H qd`` (:func:`_link_X`). On a body p with ``o = A_p anchor``:
    ``r = r_p + o``, ``r' = v_p + w_p x o``, ``c_r = w_p x (w_p x o)``; a clamp's slope
    ``s = (1 + q) b``, ``b = A_p a``, has ``s' = q' b + w_p x s`` and
    ``c_s = 2 q' w_p x b + w_p x (w_p x s)``. An element's node (C_NODE) is linear in q:
    ``e = e_p + (e0 - e0_p) + q``, ``V = V_p + qd``, ``c = 0``."""
    cdef double* e = d.ce + CABLE_NODE * i
    cdef double* V = d.V + SPATIAL_NODE * i
    cdef double* c = d.c + SPATIAL_NODE * i
    cdef double* H = d.H + SPATIAL_BLOCK * i
    cdef double* o = d.d + 3 * i
    cdef double* sl = d.cs + 3 * i
    cdef const double* x0 = d.c_x0 + CABLE_NODE * i
    cdef const double* Ap = EYE
    cdef const double* rp = ZERO6
    cdef const double* vp = ZERO6
    cdef const double* wp = ZERO6
    cdef double b[3]
    cdef double x[3]
    cdef double y[3]
    cdef int m = d.motion[i]
    cdef int p = d.parent[i]
    cdef int off = d.q_offset[i]
    cdef int k
    memcpy(d.A + 9 * i, EYE, 9 * sizeof(double))
    if rates:
        memset(H, 0, SPATIAL_BLOCK * sizeof(double))
        memset(c, 0, SPATIAL_NODE * sizeof(double))
    if m == C_NODE:
        for k in range(CABLE_NODE):
            e[k] = d.ce[CABLE_NODE * p + k] + x0[k] - d.c_x0[CABLE_NODE * p + k] + q[off + k]
            if rates:
                V[k] = d.V[SPATIAL_NODE * p + k] + qd[off + k]
                H[(SPATIAL_NODE + 1) * k] = 1.0
    else:
        if p >= d.nb:
            rp, vp = d.ce + CABLE_NODE * p, d.V + SPATIAL_NODE * p
        elif p >= 0:
            Ap, rp = d.A + 9 * p, d.r + 3 * p
            vp, wp = d.V + SPATIAL_NODE * p, d.V + SPATIAL_NODE * p + 3
        matvec(Ap, d.anchor + 3 * i, o)
        for k in range(3):
            e[k] = rp[k] + o[k]
        if m == C_CLAMP:
            matvec(Ap, d.c_axis + 3 * i, b)
            for k in range(3):
                sl[k] = (1.0 + q[off]) * b[k]
                e[3 + k] = sl[k]
        else:
            for k in range(3):
                sl[k] = 0.0
                e[3 + k] = x0[3 + k] + q[off + k]
        if rates:
            cross(wp, o, x)
            for k in range(3):
                V[k] = vp[k] + x[k]
            cross(wp, x, c)
            if m == C_CLAMP:
                cross(wp, sl, x)
                cross(wp, x, y)
                cross(wp, b, x)
                for k in range(3):
                    V[3 + k] = qd[off] * b[k] + (1.0 + q[off]) * x[k]
                    H[SPATIAL_NODE * (3 + k)] = b[k]
                    c[3 + k] = 2.0 * qd[off] * x[k] + y[k]
            else:
                for k in range(3):
                    V[3 + k] = qd[off + k]
                    H[SPATIAL_NODE * (3 + k) + k] = 1.0
    for k in range(3):
        d.r[3 * i + k] = e[k]


cdef void _link_X(const SpatialData* d, int i, int p, double* X) noexcept nogil:
    """X (6 x 6, row-major) of a link that touches a cable node (parent p >= 0): on a cable
    node p its point's rows ``[I, 0]`` (an element's node: X = I); a cable node on a body
    ``[[I, -o^], [0, -s^]]`` (o = A_p anchor, s a clamp's slope, zero on a spherical joint),
    the velocity map of :func:`cable_node`."""
    cdef const double* o = d.d + 3 * i
    cdef const double* sl = d.cs + 3 * i
    cdef int k
    memset(X, 0, SPATIAL_BLOCK * sizeof(double))
    for k in range(3):
        X[(SPATIAL_NODE + 1) * k] = 1.0
    if p >= d.nb:
        if d.motion[i] == C_NODE:
            for k in range(3, SPATIAL_NODE):
                X[(SPATIAL_NODE + 1) * k] = 1.0
        return
    X[4], X[5] = o[2], -o[1]
    X[9], X[11] = -o[2], o[0]
    X[15], X[16] = o[1], -o[0]
    X[22], X[23] = sl[2], -sl[1]
    X[27], X[29] = -sl[2], sl[0]
    X[33], X[34] = sl[1], -sl[0]


cdef inline bint _standard(const SpatialData* d, int i, int p) noexcept nogil:
    """True for a link between bodies (or from the ground): X = [[I, -d^], [0, I]]."""
    return i < d.nb and p < d.nb


cdef void _add_force(SpatialData* d, int i, int p, const double* pa) noexcept nogil:
    """``p^A_p += X_i^T pa`` (p >= 0)."""
    cdef double X[SPATIAL_BLOCK]
    cdef double x[3]
    cdef int k, r
    if _standard(d, i, p):
        cross(d.d + 3 * i, pa, x)
        for k in range(3):
            d.pA[SPATIAL_NODE * p + k] += pa[k]
            d.pA[SPATIAL_NODE * p + 3 + k] += pa[3 + k] + x[k]
        return
    _link_X(d, i, p, X)
    for k in range(SPATIAL_NODE):
        for r in range(SPATIAL_NODE):
            d.pA[SPATIAL_NODE * p + k] += X[SPATIAL_NODE * r + k] * pa[r]


cdef void _add_inertia(SpatialData* d, int i, int p, const double* S) noexcept nogil:
    """``I^A_p += X_i^T S X_i`` (p >= 0)."""
    cdef double X[SPATIAL_BLOCK]
    cdef double Y[SPATIAL_BLOCK]
    cdef int a, b, k
    if _standard(d, i, p):
        add_transformed(S, d.d + 3 * i, d.IA + SPATIAL_BLOCK * p)
        return
    _link_X(d, i, p, X)
    for a in range(SPATIAL_NODE):
        for b in range(SPATIAL_NODE):
            Y[SPATIAL_NODE * a + b] = 0.0
            for k in range(SPATIAL_NODE):
                Y[SPATIAL_NODE * a + b] += S[SPATIAL_NODE * a + k] * X[SPATIAL_NODE * k + b]
    for a in range(SPATIAL_NODE):
        for b in range(SPATIAL_NODE):
            for k in range(SPATIAL_NODE):
                d.IA[SPATIAL_BLOCK * p + SPATIAL_NODE * a + b] += (X[SPATIAL_NODE * k + a]
                                                                   * Y[SPATIAL_NODE * k + b])


cdef const double* _cable_block(const SpatialData* d, int el, double* scratch) noexcept nogil:
    """The element's matrix in :func:`factor` (12 x 12, parent side first): ``d.c_blocks``'
    or ``d.c_m`` times its mass (written into scratch unless c_m is 1)."""
    cdef int k
    if d.c_blocks != NULL:
        return d.c_blocks + CABLE_ELEMENT_BLOCK * el
    if d.c_m == 1.0:
        return d.c_mass + CABLE_ELEMENT_BLOCK * el
    for k in range(CABLE_ELEMENT_BLOCK):
        scratch[k] = d.c_m * d.c_mass[CABLE_ELEMENT_BLOCK * el + k]
    return scratch


cdef int kinematics(SpatialData* d, const double* q, const double* qd) noexcept nogil:
    """Root to leaves: frames, origins, velocities V, the motion subspaces H and the bias
    accelerations c (module docstring). Returns 0."""
    cdef double t[3]
    cdef double R[9]
    cdef double T[18]
    cdef double o[3]
    cdef double jd[3]
    cdef double tq[3]
    cdef double jq[3]
    cdef double u[3]
    cdef double wr[3]
    cdef double ud[3]
    cdef double x[3]
    cdef double y[3]
    cdef double col[3]
    cdef const double* Ap
    cdef const double* rp
    cdef const double* vp
    cdef const double* wp
    cdef double* J
    cdef double* H
    cdef double* V
    cdef double* c
    cdef double* dd
    cdef int s, i, p, k, j, n_i, off
    for s in range(d.n):
        i = d.order[s]
        p = d.parent[i]
        if i >= d.nb:
            cable_node(d, i, q, qd, True)
            continue
        off = d.q_offset[i]
        n_i = d.q_offset[i + 1] - off
        J = d.Jr + 18 * i
        link(d.motion[i], d.axes + AXES * i, q + off, qd + off, True, t, R, T, J, jd)
        if p >= d.nb:
            # on a cable node: its point r moves the child, its slope does not turn it
            Ap, rp, vp, wp = EYE, d.r + 3 * p, d.V + SPATIAL_NODE * p, ZERO6
        elif p >= 0:
            Ap, rp = d.A + 9 * p, d.r + 3 * p
            vp, wp = d.V + SPATIAL_NODE * p, d.V + SPATIAL_NODE * p + 3
        else:
            Ap, rp, vp, wp = EYE, ZERO6, ZERO6, ZERO6
        pose(d, i, Ap, rp, R, t, o)
        dd = d.d + 3 * i
        H = d.H + SPATIAL_BLOCK * i
        V = d.V + SPATIAL_NODE * i
        c = d.c + SPATIAL_NODE * i
        # H columns: (A_p T_j + o x A_p Jr_j, A_p Jr_j)
        for j in range(n_i):
            for k in range(3):
                x[k] = T[SPATIAL_NODE * k + j]
                y[k] = J[SPATIAL_NODE * k + j]
            matvec(Ap, x, u)
            matvec(Ap, y, wr)
            cross(o, wr, col)
            for k in range(3):
                H[SPATIAL_NODE * k + j] = u[k] + col[k]
                H[SPATIAL_NODE * (3 + k) + j] = wr[k]
        # relative rates u = A_p T qd, w_r = A_p Jr qd, ud = A_p Jr' qd
        for k in range(3):
            tq[k] = 0.0
            jq[k] = 0.0
            for j in range(n_i):
                tq[k] += T[SPATIAL_NODE * k + j] * qd[off + j]
                jq[k] += J[SPATIAL_NODE * k + j] * qd[off + j]
        matvec(Ap, tq, u)
        matvec(Ap, jq, wr)
        matvec(Ap, jd, ud)
        # V = X V_p + H qd
        cross(wp, dd, x)
        cross(o, wr, y)
        for k in range(3):
            V[k] = vp[k] + x[k] + u[k] + y[k]
            V[3 + k] = wp[k] + wr[k]
        # c_ang = w_p x w_r + ud
        cross(wp, wr, x)
        for k in range(3):
            c[3 + k] = x[k] + ud[k]
        # c_lin = w_p x (v_i - v_p) + w_p x u + (w_i x o) x w_r + o x c_ang
        for k in range(3):
            x[k] = V[k] - vp[k] + u[k]
        cross(wp, x, c)
        cross(V + 3, o, x)
        cross(x, wr, y)
        cross(o, c + 3, col)
        for k in range(3):
            c[k] += y[k] + col[k]
        if n_i == 1 and d.smap[off] < 0:
            for k in range(SPATIAL_NODE):
                c[k] += H[SPATIAL_NODE * k] * d.drive[3 * off + 2]
    return 0


cdef inline int free_size(SpatialData* d, int i) noexcept nogil:
    """The unknown accelerations of body i's link: its coordinates, none if driven."""
    cdef int off = d.q_offset[i]
    if d.q_offset[i + 1] - off == 1 and d.smap[off] < 0:
        return 0
    return d.q_offset[i + 1] - off


cdef void rotated_inertias(SpatialData* d) noexcept nogil:
    """The bodies' rotational inertias about their origins in global axes, ``Ig = A J A^T``,
    after :func:`kinematics` (or :func:`poses`); a cable node's stays zero (it has no inertia
    of its own: its element's mass is the cable's, and the workspace starts at zero)."""
    cdef double AJ[9]
    cdef const double* A
    cdef int i, j, k
    for i in range(d.nb):
        A = d.A + 9 * i
        matmul(A, d.inertia + 9 * i, AJ)
        for j in range(3):
            for k in range(3):
                d.Ig[9 * i + 3 * j + k] = AJ[3 * j] * A[3 * k] + AJ[3 * j + 1] * A[3 * k + 1] \
                    + AJ[3 * j + 2] * A[3 * k + 2]


cdef void arc_load(const SpatialData* d, int j, double* Wa, double* Wb) noexcept nogil:
    """Wa, Wb (6 each): the wrenches on the two nodes (bodies ``load_body[j]``,
    ``load_arc[j]``) of load j's element that do the virtual work of its force and moment at
    the element's point xi (``arc_wrenches`` of rancf/formulations/_spatial_arc.pxd), at the
    last :func:`kinematics`."""
    cdef int a = d.load_body[j], b = d.load_arc[j]
    arc_wrenches(d.r + 3 * a, d.A + 9 * a, d.r + 3 * b, d.A + 9 * b, d.load_offset[3 * j],
                 d.load_force + 3 * j, d.load_moment + 3 * j, d.load_follower[j], Wa, Wb)


def arc_point_motion(ra, Aa, rb, Ab, Va, Vb, double xi):
    """Position and velocity (3,) each of the point at xi of an element (origins r (3,),
    frames A (3, 3), velocities ``V = (v, w)`` (6,) of its nodes a and b, global):
    ``arc_motion`` of rancf/formulations/_spatial_arc.pxd, for the tests."""
    cdef double[::1] pa = checked("ra", ra, 3), pb = checked("rb", rb, 3)
    cdef double[::1] fa = checked("Aa", np.ravel(Aa), 9), fb = checked("Ab", np.ravel(Ab), 9)
    cdef double[::1] va = checked("Va", Va, SPATIAL_NODE)
    cdef double[::1] vb = checked("Vb", Vb, SPATIAL_NODE)
    out = np.zeros((2, 3))
    cdef double[:, ::1] o = out
    arc_motion(&pa[0], &fa[0], &pb[0], &fb[0], &va[0], &vb[0], xi, &o[0, 0], &o[1, 0])
    return out


def arc_point_wrenches(ra, Aa, rb, Ab, double xi, force, moment, bint follower):
    """The wrenches (2, 6) on the nodes a and b of an element (origins r (3,), frames A (3, 3),
    global) that do the virtual work of a force and a moment (3,) at its point xi, global or
    (``follower``) in the point's frame: ``arc_wrenches`` of rancf/formulations/_spatial_arc.pxd,
    for the spatial DAE and the tests."""
    cdef double[::1] pa = checked("ra", ra, 3), pb = checked("rb", rb, 3)
    cdef double[::1] fa = checked("Aa", np.ravel(Aa), 9), fb = checked("Ab", np.ravel(Ab), 9)
    cdef double[::1] fo = checked("force", force, 3), mo = checked("moment", moment, 3)
    out = np.zeros((2, SPATIAL_NODE))
    cdef double[:, ::1] W = out
    arc_wrenches(&pa[0], &fa[0], &pb[0], &fb[0], xi, &fo[0], &mo[0], follower, &W[0, 0],
                 &W[1, 0])
    return out


cdef int forces(SpatialData* d, const double* q, const double* qd) noexcept nogil:
    """Applied wrenches f at the origins (gravity, gyroscopic, loads: global) and generalized
    link forces tau (efforts; spherical and free links' force and torque vectors in the
    parent's frame through T^T and Jr^T; an element link's elastic and damping force
    ``element_force`` of rancf/elements/_spatial_beam.pyx, with its Hessian into
    ``d.element_K`` where that is not NULL), after :func:`kinematics`, and the power the
    elements' damping dissipates, ``d.dissipation`` (W; the energy balance's, from the same
    evaluation). Returns ODE_OK, or ODE_TURNED_OVER (``d.failed`` = body + 1) if an
    element's rotation reached pi."""
    cdef double P
    cdef double Iw[3]
    cdef double g[3]
    cdef double x[3]
    cdef double F[3]
    cdef double Mo[3]
    cdef double Wa[SPATIAL_NODE]
    cdef double Wb[SPATIAL_NODE]
    cdef double* f
    cdef const double* A
    cdef const double* w
    cdef const double* Jr
    cdef int i, j, k, b, off, n_i, m, n
    rotated_inertias(d)
    for i in range(d.nb):
        A = d.A + 9 * i
        w = d.V + SPATIAL_NODE * i + 3
        f = d.f + SPATIAL_NODE * i
        matvec(d.Ig + 9 * i, w, Iw)
        cross(w, Iw, x)
        for k in range(3):
            f[k] = d.mass[i] * d.gravity[k]
            f[3 + k] = -x[k]
    # a cable node has no mass of its own: its elements' weight follows
    memset(d.f + SPATIAL_NODE * d.nb, 0, SPATIAL_NODE * (d.n - d.nb) * sizeof(double))
    for j in range(d.n_loads):
        if d.load_arc[j] >= 0:
            arc_load(d, j, Wa, Wb)
            for k in range(SPATIAL_NODE):
                d.f[SPATIAL_NODE * d.load_body[j] + k] += Wa[k]
                d.f[SPATIAL_NODE * d.load_arc[j] + k] += Wb[k]
            continue
        f = d.f + SPATIAL_NODE * d.load_body[j]
        load_vectors(d, j, F, Mo, g)
        cross(g, F, x)
        for k in range(3):
            f[k] += F[k]
            f[3 + k] += Mo[k] + x[k]
    d.dissipation = 0.0
    for b in range(d.n_cable_elements):
        # the cables' weight F_G, a load like the bodies' (statics scales it)
        for k in range(SPATIAL_NODE):
            d.f[SPATIAL_NODE * d.c_nodes[2 * b] + k] += d.c_gravity[CABLE_ELEMENT * b + k]
            d.f[SPATIAL_NODE * d.c_nodes[2 * b + 1] + k] += \
                d.c_gravity[CABLE_ELEMENT * b + CABLE_NODE + k]
    for i in range(d.n):
        off = d.q_offset[i]
        n_i = d.q_offset[i + 1] - off
        m = d.motion[i]
        Jr = d.Jr + 18 * i
        if m == M_ELEMENT:
            b = d.element[i]
            if element_force(d.anchor + 3 * i, d.relative + 9 * i, q + off, qd + off,
                             d.length[b], d.stiffness + SPATIAL_NODE * b,
                             d.strain0 + SPATIAL_NODE * b, d.damping[b], d.tau + off,
                             d.element_K + SPATIAL_BLOCK * i if d.element_K != NULL else NULL,
                             NULL, &P):
                d.failed = i + 1
                return ODE_TURNED_OVER
            d.dissipation += P
        elif i < d.nb and motion_rotation(m) == R_VECTOR:
            # the translation's efforts as they are, the rotation vector's a torque vector in
            # the parent's frame: Jr^T times it
            n = n_i - 3
            for j in range(n):
                d.tau[off + j] = d.effort[off + j]
            for j in range(3):
                d.tau[off + n + j] = Jr[n + j] * d.effort[off + n] \
                    + Jr[SPATIAL_NODE + n + j] * d.effort[off + n + 1] \
                    + Jr[SPATIAL_NODE * 2 + n + j] * d.effort[off + n + 2]
        else:
            for j in range(n_i):
                d.tau[off + j] = d.effort[off + j]
    return ODE_OK


cdef void cable_forces(SpatialData* d) noexcept nogil:
    """Each cable element's elastic and damping force (``cable_force_rest`` of
    rancf/elements/_ancf_cable.pyx, relative to its rest state) on its two nodes' f (6 each, on ``[r, r']``), its
    dissipated power to ``d.dissipation``; after :func:`kinematics` (by
    :func:`spring_forces`: not a load, never scaled)."""
    cdef double e[CABLE_ELEMENT]
    cdef double ed[CABLE_ELEMENT]
    cdef double fe[CABLE_ELEMENT]
    cdef double P
    cdef int el, a, b, k
    for el in range(d.n_cable_elements):
        a, b = d.c_nodes[2 * el], d.c_nodes[2 * el + 1]
        memcpy(e, d.ce + CABLE_NODE * a, CABLE_NODE * sizeof(double))
        memcpy(e + CABLE_NODE, d.ce + CABLE_NODE * b, CABLE_NODE * sizeof(double))
        memcpy(ed, d.V + CABLE_NODE * a, CABLE_NODE * sizeof(double))
        memcpy(ed + CABLE_NODE, d.V + CABLE_NODE * b, CABLE_NODE * sizeof(double))
        P = 0.0
        cable_force_rest(e, ed, d.c_length[el], d.c_EA[el], d.c_EI[el], d.c_damping[el],
                         cable_rest(d, el), fe, NULL, NULL, &P)
        d.dissipation += P
        for k in range(SPATIAL_NODE):
            d.f[SPATIAL_NODE * a + k] += fe[k]
            d.f[SPATIAL_NODE * b + k] += fe[CABLE_NODE + k]


# --- spring-dampers --------------------------------------------------------------------------
cdef void spring_point(const SpatialData* d, int s, int e, double* x, double* o) noexcept nogil:
    """Point e (0 or 1) of spring-damper s after :func:`kinematics` (or :func:`poses`): its
    position x and its offset from its body's origin ``o = A offset`` (global, m; zero for a
    ground point; for a point between two nodes, ``x - r`` of its element's first node, the
    point on the element's curve, ``arc_motion``)."""
    cdef int b = d.s_body[2 * s + e], c = d.s_arc[2 * s + e]
    cdef const double* off = d.s_offset + 3 * (2 * s + e)
    cdef int k
    if b < 0:
        for k in range(3):
            x[k] = off[k]
            o[k] = 0.0
        return
    if c >= 0:
        arc_motion(d.r + 3 * b, d.A + 9 * b, d.r + 3 * c, d.A + 9 * c, NULL, NULL, off[0], x,
                   NULL)
        for k in range(3):
            o[k] = x[k] - d.r[3 * b + k]
        return
    matvec(d.A + 9 * b, off, o)
    for k in range(3):
        x[k] = d.r[3 * b + k] + o[k]


cdef void spring_velocity(const SpatialData* d, const double* V, int s, int e,
                          const double* o, double* u) noexcept nogil:
    """u (3) <- the velocity of point e of spring-damper s (not on the ground) under the body
    velocities V (6 per body): ``v + w x o`` of a body point (o from :func:`spring_point`),
    the element curve's rate for a point between two nodes (``arc_motion``)."""
    cdef int b = d.s_body[2 * s + e], c = d.s_arc[2 * s + e], k
    cdef double x[3]
    if c >= 0:
        arc_motion(d.r + 3 * b, d.A + 9 * b, d.r + 3 * c, d.A + 9 * c, V + SPATIAL_NODE * b,
                   V + SPATIAL_NODE * c,
                   d.s_offset[3 * (2 * s + e)], x, u)
        return
    cross(V + SPATIAL_NODE * b + 3, o, u)
    for k in range(3):
        u[k] += V[SPATIAL_NODE * b + k]


cdef void spring_wrenches(const SpatialData* d, int s, int e, const double* o,
                          const double* F, double* W) noexcept nogil:
    """W (6 per body) += the wrenches of the point force F at point e of spring-damper s (not
    on the ground): ``(F, o x F)`` on its body, or for a point between two nodes the two
    nodes' wrenches that do its virtual work (``arc_wrenches``)."""
    cdef int b = d.s_body[2 * s + e], c = d.s_arc[2 * s + e], k
    cdef double Wa[SPATIAL_NODE]
    cdef double Wb[SPATIAL_NODE]
    cdef double zero[3]
    cdef double m[3]
    if c >= 0:
        zero[0] = zero[1] = zero[2] = 0.0
        arc_wrenches(d.r + 3 * b, d.A + 9 * b, d.r + 3 * c, d.A + 9 * c,
                     d.s_offset[3 * (2 * s + e)], F, zero, False, Wa, Wb)
        for k in range(SPATIAL_NODE):
            W[SPATIAL_NODE * b + k] += Wa[k]
            W[SPATIAL_NODE * c + k] += Wb[k]
        return
    cross(o, F, m)
    for k in range(3):
        W[SPATIAL_NODE * b + k] += F[k]
        W[SPATIAL_NODE * b + 3 + k] += m[k]


cdef double spring_line(const SpatialData* d, int s, double* n, double* l,
                        double* ldot) noexcept nogil:
    """Spring-damper s after :func:`kinematics`: the unit vector n from its first point to its
    second, their distance l (m) and its rate ``l' = n . (v_2 - v_1)`` (m/s, a point's velocity
    ``v + w x o``); returns its force ``f = k (l - l0) + c l'`` (N). Points that meet (l = 0)
    have no line of action: n, l' and f are zero there."""
    cdef double x1[3]
    cdef double x2[3]
    cdef double o[3]
    cdef double w[3]
    cdef double u[3]
    cdef const double* law = d.s_law + 3 * s
    cdef int e, b, k
    for k in range(3):
        w[k] = 0.0
    for e in range(2):
        if e:
            spring_point(d, s, e, x2, o)
        else:
            spring_point(d, s, e, x1, o)
        b = d.s_body[2 * s + e]
        if b < 0:
            continue
        spring_velocity(d, d.V, s, e, o, u)
        for k in range(3):
            w[k] += u[k] if e else -u[k]
    for k in range(3):
        n[k] = x2[k] - x1[k]
    l[0] = sqrt(dot(n, n))
    if l[0] == 0.0:
        for k in range(3):
            n[k] = 0.0
        ldot[0] = 0.0
        return 0.0
    for k in range(3):
        n[k] /= l[0]
    ldot[0] = dot(n, w)
    return law[0] * (l[0] - law[2]) + law[1] * ldot[0]


cdef void spring_forces(SpatialData* d) noexcept nogil:
    """Add the spring-dampers' forces after :func:`kinematics` and :func:`forces`: ``f n`` on a
    spring-damper's first point and ``-f n`` on its second (:func:`spring_line`), as wrenches
    at their bodies' origins in f (a ground point's force is the ground's); each joint
    spring-damper's ``-k (q - q0) - c q'`` to its link's tau (a spherical link's
    :func:`ball_spring`). Their damping power (``c l'^2``, ``c q'^2``, ``c |w|^2``) joins
    ``d.dissipation``; ``d.spring_power`` is the power of the joint springs' generalized forces
    in tau, which the energy balance's :func:`applied_power` takes out again (a potential and a
    dissipation, not a work). The cables' elastic and damping forces (:func:`cable_forces`)
    join f here too: forces of the model, not loads."""
    cdef double n[3]
    cdef double x[3]
    cdef double o[3]
    cdef double F[3]
    cdef double l, ldot, f, g
    cdef const double* law
    cdef int s, e, b, k, i
    if d.n_cable_elements:
        cable_forces(d)
    for s in range(d.n_springs):
        f = spring_line(d, s, n, &l, &ldot)
        d.dissipation += d.s_law[3 * s + 1] * ldot * ldot
        for e in range(2):
            b = d.s_body[2 * s + e]
            if b < 0:
                continue
            spring_point(d, s, e, x, o)
            for k in range(3):
                F[k] = -f * n[k] if e else f * n[k]
            spring_wrenches(d, s, e, o, F, d.f)
    d.spring_power = 0.0
    for s in range(d.n_joint_springs):
        i = d.q_offset[d.js_body[s]]
        law = d.js_law + 3 * s
        if motion_rotation(d.motion[d.js_body[s]]) == R_VECTOR:
            # on a link's rotation vector, after its translation's coordinates (a spherical
            # joint's; rancf.model.spatial_joints.SpatialJointSpringDamper)
            i += translation_size(motion_translation(d.motion[d.js_body[s]]))
            ball_spring(d.q + i, d.qd + i, d.js_rest + 3 * s, law, F, &g)
            d.dissipation += g
            for k in range(3):
                d.tau[i + k] += F[k]
                d.spring_power += F[k] * d.qd[i + k]
            continue
        g = -law[0] * (d.q[i] - law[2]) - law[1] * d.qd[i]
        d.tau[i] += g
        d.dissipation += law[1] * d.qd[i] * d.qd[i]
        d.spring_power += g * d.qd[i]


cdef double spring_energy(const SpatialData* d) noexcept nogil:
    """The spring-dampers' potential (J) after :func:`poses` at ``d.q``: ``1/2 k (l - l0)^2``
    of those between points and ``1/2 k (q - q0)^2`` of those on joints (``1/2 k |theta|^2``
    on a spherical one: :func:`ball_spring`)."""
    cdef double x1[3]
    cdef double x2[3]
    cdef double o[3]
    cdef double U = 0.0
    cdef double l, e
    cdef int s, k, i
    for s in range(d.n_springs):
        spring_point(d, s, 0, x1, o)
        spring_point(d, s, 1, x2, o)
        for k in range(3):
            x2[k] -= x1[k]
        l = sqrt(dot(x2, x2)) - d.s_law[3 * s + 2]
        U += 0.5 * d.s_law[3 * s] * l * l
    for s in range(d.n_joint_springs):
        i = d.q_offset[d.js_body[s]]
        if motion_rotation(d.motion[d.js_body[s]]) == R_VECTOR:
            i += translation_size(motion_translation(d.motion[d.js_body[s]]))
            U += ball_spring(d.q + i, NULL, d.js_rest + 3 * s, d.js_law + 3 * s, x1, &e)
            continue
        e = d.q[i] - d.js_law[3 * s + 2]
        U += 0.5 * d.js_law[3 * s] * e * e
    return U


cdef double ball_spring(const double* q, const double* qd, const double* rest,
                        const double* law, double* g, double* P) noexcept nogil:
    """A spherical joint's spring-damper (law ``(k, c, -)``, rest rotation vector ``rest``;
    rancf.model.spatial_joints.SpatialJointSpringDamper) at its rotation vector q and rate qd
    (3 each; qd NULL: zero): returns its potential ``U = k/2 |theta|^2`` (J), ``theta =
    log(R(q) R(rest)^T)``, puts its generalized force ``g = -J_l(q)^T (k theta + c w)``
    (3, N m on q) in g, ``w = J_l(q) qd`` the relative angular velocity (parent's frame), and
    its dissipated power ``c |w|^2`` (W) in P. The spring's part is ``-dU/dq``: a turn dq
    turns R by ``J_l(q) dq`` on the left, and theta by ``J_l(theta)^-1 J_l(q) dq``, whose
    ``J_l(theta)^-T theta = theta``."""
    cdef double R[9]
    cdef double R0[9]
    cdef double T[9]
    cdef double J[9]
    cdef double th[3]
    cdef double w[3]
    cdef double M[3]
    cdef int k
    expm(q, R)
    expm(rest, R0)
    matmulT(R, R0, T)
    logm(T, th)
    left_jacobian(q, J)
    if qd != NULL:
        matvec(J, qd, w)
    else:
        w[0] = w[1] = w[2] = 0.0
    for k in range(3):
        M[k] = law[0] * th[k] + law[1] * w[k]
    matTvec(J, M, g)
    for k in range(3):
        g[k] = -g[k]
    P[0] = law[1] * dot(w, w)
    return 0.5 * law[0] * dot(th, th)


cdef void ball_spring_block(const double* q, const double* rest, const double* law,
                            double c_k, double c_c, double* E) noexcept nogil:
    """E (3 x 3 at row stride 6) += ``c_k K + c_c C`` of a spherical joint's spring-damper
    (:func:`ball_spring`) at its rotation vector q: ``C = c J_l(q)^T J_l(q)``, the derivative
    of ``-g`` in the rates, and ``K = d^2 U / dq^2``, the derivative of the spring's
    ``k J_l(q)^T theta``: ::

        K = k (J_l(q)^T J_l(theta)^-1 J_l(q) + G),   G e_j = (dJ_l(q)/dq_j)^T theta

    (a turn dq moves theta by ``J_l(theta)^-1 J_l(q) dq``; ``dJ_l/dq_j`` is
    ``left_jacobian_rate(q, e_j)``), made symmetric against rounding; ``K = k I`` at ``rest =
    0``, ``|q| < pi``. The damping force's derivative in q is left out, as for the elements'
    (zero at rest)."""
    cdef double R[9]
    cdef double R0[9]
    cdef double T[9]
    cdef double J[9]
    cdef double Ji[9]
    cdef double A[9]
    cdef double K[9]
    cdef double Jd[9]
    cdef double th[3]
    cdef double e[3]
    cdef double col[3]
    cdef int i, j, m
    left_jacobian(q, J)
    if c_k != 0.0 and law[0] != 0.0:
        expm(q, R)
        expm(rest, R0)
        matmulT(R, R0, T)
        logm(T, th)
        left_jacobian_inverse(th, Ji)
        matmul(Ji, J, A)
        for j in range(3):
            e[0], e[1], e[2] = 0.0, 0.0, 0.0
            e[j] = 1.0
            left_jacobian_rate(q, e, Jd)
            matTvec(Jd, th, col)
            for i in range(3):
                K[3 * i + j] = col[i]
                for m in range(3):
                    K[3 * i + j] += J[3 * m + i] * A[3 * m + j]
        for i in range(3):
            for j in range(3):
                E[SPATIAL_NODE * i + j] += c_k * law[0] * 0.5 * (K[3 * i + j] + K[3 * j + i])
    if c_c != 0.0 and law[1] != 0.0:
        for i in range(3):
            for j in range(3):
                E[SPATIAL_NODE * i + j] += c_c * law[1] * (J[i] * J[j] + J[3 + i] * J[3 + j]
                                                + J[6 + i] * J[6 + j])


# --- 6 x 6 blocks (row-major) ----------------------------------------------------------------
cdef inline void add_transformed(const double* S, const double* dd, double* out) noexcept nogil:
    """out += X^T S X for ``X = [[I, -d^], [0, I]]`` and a 6 x 6 S."""
    cdef double Y[SPATIAL_BLOCK]
    cdef double D[9]
    cdef int i, j, k
    # d^ (row-major)
    D[0], D[1], D[2] = 0.0, -dd[2], dd[1]
    D[3], D[4], D[5] = dd[2], 0.0, -dd[0]
    D[6], D[7], D[8] = -dd[1], dd[0], 0.0
    # Y = S X: the right column block S_:,3: - S_:,:3 d^
    for i in range(SPATIAL_NODE):
        for j in range(3):
            Y[SPATIAL_NODE * i + j] = S[SPATIAL_NODE * i + j]
            Y[SPATIAL_NODE * i + 3 + j] = S[SPATIAL_NODE * i + 3 + j]
            for k in range(3):
                Y[SPATIAL_NODE * i + 3 + j] -= S[SPATIAL_NODE * i + k] * D[3 * k + j]
    # X^T Y: the bottom row block Y_3:,: + d^ Y_:3,:
    for i in range(3):
        for j in range(SPATIAL_NODE):
            out[SPATIAL_NODE * i + j] += Y[SPATIAL_NODE * i + j]
            out[SPATIAL_NODE * (3 + i) + j] += Y[SPATIAL_NODE * (3 + i) + j] + D[3 * i] * Y[j] \
                + D[3 * i + 1] * Y[SPATIAL_NODE + j] + D[3 * i + 2] * Y[SPATIAL_NODE * 2 + j]


cdef inline int ldl(double* D, int n, bint positive) noexcept nogil:
    """D (n x n, row stride 6, symmetric; its lower triangle is read) <- its factors
    ``D = L diag(p) L^T``: L unit lower triangular below the diagonal, the pivots p on it
    (no pivoting: the blocks are symmetric, and positive definite for a mass). -1 if a pivot
    is not finite, or not positive (``positive``), or not above 1e-13 of its diagonal
    entry's magnitude (a singular block: an indefinite one passes)."""
    cdef int i, j, k
    cdef double s, p
    for j in range(n):
        p = D[SPATIAL_NODE * j + j]
        for k in range(j):
            p -= D[SPATIAL_NODE * j + k] * D[SPATIAL_NODE * j + k] * D[SPATIAL_NODE * k + k]
        if not isfinite(p) or (positive and not p > 0.0) or \
                not fabs(p) > 1e-13 * fabs(D[SPATIAL_NODE * j + j]):
            return -1
        D[SPATIAL_NODE * j + j] = p
        for i in range(j + 1, n):
            s = D[SPATIAL_NODE * i + j]
            for k in range(j):
                s -= D[SPATIAL_NODE * i + k] * D[SPATIAL_NODE * j + k] * D[SPATIAL_NODE * k + k]
            D[SPATIAL_NODE * i + j] = s / p
    return 0


cdef inline void ldl_solve(const double* L, int n, double* x) noexcept nogil:
    """x <- (L diag(p) L^T)^-1 x with the factors of :func:`ldl`."""
    cdef int i, k
    for i in range(n):
        for k in range(i):
            x[i] -= L[SPATIAL_NODE * i + k] * x[k]
    for i in range(n):
        x[i] /= L[SPATIAL_NODE * i + i]
    for i in range(n - 1, -1, -1):
        for k in range(i + 1, n):
            x[i] -= L[SPATIAL_NODE * k + i] * x[k]


cdef inline int lu(double* D, int n) noexcept nogil:
    """D (n x n, row stride 6, unsymmetric) <- its factors ``D = L U`` without pivoting (L unit
    lower triangular below the diagonal, U on and above it): the joint blocks of
    :func:`factor` with ``d.tangent``, whose unsymmetric part (the turning of the link wrenches)
    is small beside their symmetric one. -1 if a pivot is not finite or not above 1e-13 of the
    block's largest entry (a singular block)."""
    cdef int i, j, k
    cdef double p, scale = 0.0
    for i in range(n):
        for j in range(n):
            scale = max(scale, fabs(D[SPATIAL_NODE * i + j]))
    for k in range(n):
        p = D[(SPATIAL_NODE + 1) * k]
        if not isfinite(p) or not fabs(p) > 1e-13 * scale:
            return -1
        for i in range(k + 1, n):
            D[SPATIAL_NODE * i + k] /= p
            for j in range(k + 1, n):
                D[SPATIAL_NODE * i + j] -= D[SPATIAL_NODE * i + k] * D[SPATIAL_NODE * k + j]
    return 0


cdef inline void lu_solve(const double* F, int n, double* x) noexcept nogil:
    """x <- (L U)^-1 x with the factors of :func:`lu`."""
    cdef int i, k
    for i in range(n):
        for k in range(i):
            x[i] -= F[SPATIAL_NODE * i + k] * x[k]
    for i in range(n - 1, -1, -1):
        for k in range(i + 1, n):
            x[i] -= F[SPATIAL_NODE * i + k] * x[k]
        x[i] /= F[(SPATIAL_NODE + 1) * i]


cdef inline int _link_block(const double* IA, const double* H, const double* Z, const double* Ei,
                            const double* R, double* U, double* L, double* W, double* S, int n,
                            bint tangent, bint positive, bint parent) noexcept nogil:
    """A link's step of :func:`factor` (n its free coordinates): ``U = I^A Z + u`` (6 x n; Z =
    H and no u without ``tangent``), ``D = H^T U + R Z + E_i`` (Ei, R or NULL) factored into L
    (:func:`lu` with ``tangent``, else :func:`ldl`, ``positive`` as it asks), ``W = D^-1 U^T``
    (or ``D^-1 (H^T I^A + R)``), and with ``parent`` ``S = I^A - U W`` (6 x 6), which
    :func:`factor` moves to the parent. Returns -1 where D is singular (not positive definite),
    else 0.

    Inline, so that :func:`factor`'s call with ``n = SPATIAL_NODE`` (an element link, a free
    joint's) has loops of known length, which the compiler unrolls; the sums run in a local,
    not in the output through its pointer, which the compiler must otherwise assume may alias
    the inputs (the same terms in the same order either way)."""
    cdef double col[SPATIAL_NODE]
    cdef double t
    cdef int r, j, k
    for r in range(SPATIAL_NODE):
        for j in range(n):
            # u, the second block of d.tangent's body entry
            t = Z[SPATIAL_BLOCK + SPATIAL_NODE * r + j] if tangent else 0.0
            for k in range(SPATIAL_NODE):
                t += IA[SPATIAL_NODE * r + k] * Z[SPATIAL_NODE * k + j]
            U[SPATIAL_NODE * r + j] = t
    for j in range(n):
        for k in range(n):
            t = 0.0 if Ei == NULL else Ei[SPATIAL_NODE * j + k]
            for r in range(SPATIAL_NODE):
                t += H[SPATIAL_NODE * r + j] * U[SPATIAL_NODE * r + k]
                if R != NULL:
                    t += R[SPATIAL_NODE * j + r] * Z[SPATIAL_NODE * r + k]
            L[SPATIAL_NODE * j + k] = t
    if (lu(L, n) if tangent else ldl(L, n, positive)):
        return -1
    for r in range(SPATIAL_NODE):
        if not tangent:
            for j in range(n):
                col[j] = U[SPATIAL_NODE * r + j]
            ldl_solve(L, n, col)
        else:
            for j in range(n):
                t = 0.0 if R == NULL else R[SPATIAL_NODE * j + r]
                for k in range(SPATIAL_NODE):
                    t += H[SPATIAL_NODE * k + j] * IA[SPATIAL_NODE * k + r]
                col[j] = t
            lu_solve(L, n, col)
        for j in range(n):
            W[SPATIAL_NODE * j + r] = col[j]
    if parent:
        for r in range(SPATIAL_NODE):
            for k in range(SPATIAL_NODE):
                t = IA[SPATIAL_NODE * r + k]
                for j in range(n):
                    t -= U[SPATIAL_NODE * r + j] * W[SPATIAL_NODE * j + k]
                S[SPATIAL_NODE * r + k] = t
    return 0


cdef int factor(SpatialData* d, double c_m, const double* E) noexcept nogil:
    """The leaves-to-root factorization of ``c_m B^T M B + E`` (the generalized mass for
    ``c_m = 1`` and no E; an implicit step's Newton matrix otherwise), after
    :func:`kinematics` and :func:`rotated_inertias`: from ``I^A = c_m M``, ``U = I^A H``,
    ``D = H^T U + E_i`` (E: n_i x n_i blocks at row stride 6, 36 per body, or NULL), ``L``
    its factors (:func:`ldl`), ``W = D^-1 U^T``, and ``I^A_p += X^T (I^A - U W) X``; with
    ``d.body_blocks`` those 6 x 6 blocks are added to each body's ``c_m M`` (a Newton matrix's
    spring-dampers to the ground, symmetric: ``J_b^T P^T K P J_b`` is a body's term). Keeps
    I^A, U, L and W per body for :func:`sweeps`. Returns 0, or body + 1 whose D is not
    positive definite (without E: a mass) or is singular (with E: a Newton matrix's block,
    which the element stiffness of a strained element may make indefinite).

    With ``d.tangent`` (a body's Z and u, 6 x n_i each; not on cable nodes) the matrix is the
    unsymmetric ``B^T I B~ + E`` whose entry for links i, j is ``H_i^T I^c_k Z_j`` (I^c_k the
    composite inertia beyond the deeper of the two) plus ``H_i^T u_j`` where j is i or beyond
    it: the same elimination with ``U = I^A Z + u``, D factored by :func:`lu`, and ``W = D^-1
    H^T I^A``, since the body accelerations are then ``a_i = X_i a_p + Z_i qdd_i`` and the link
    wrenches ``W_i = I_i a_i + u_i qdd_i + sum_c X_c^T W_c``. With ``d.rows`` too (R, n_i x 6
    a link) link i's row has ``R_i a_i`` beside ``H_i^T W_i``: its entry for link j (i itself
    or a link before it) is ``R_i X_ij Z_j`` (X_ij the motion transform from body j to i), the
    coupling of a link's coordinates with its body's twist that statics' loads between two
    nodes have (rancf/formulations/_spatial_implicit.pyx, ``_arc_blocks``); it enters link i's
    own equation only, so the elimination takes ``W = D^-1 (H^T I^A + R)`` and ``D = H^T U +
    R Z + E_i``, the sweeps unchanged."""
    cdef double S[SPATIAL_BLOCK]
    cdef double M[CABLE_ELEMENT_BLOCK]
    cdef double* IA
    cdef double* H
    cdef double* W
    cdef double* U
    cdef double* L
    cdef const double* Z
    cdef const double* Ei
    cdef const double* R
    cdef const double* Me
    cdef int s, i, j, k, r, p, n_i, el
    memset(d.IA, 0, SPATIAL_BLOCK * d.n * sizeof(double))
    d.c_m = c_m
    for i in range(d.nb, d.n):
        # an element's node starts from the element's own block on it
        el = d.c_element[i]
        if el >= 0:
            Me = _cable_block(d, el, M)
            for r in range(SPATIAL_NODE):
                for k in range(SPATIAL_NODE):
                    d.IA[SPATIAL_BLOCK * i + SPATIAL_NODE * r + k] = \
                        Me[CABLE_ELEMENT * (CABLE_NODE + r) + CABLE_NODE + k]
    for i in range(d.nb):
        IA = d.IA + SPATIAL_BLOCK * i
        for k in range(3):
            IA[(SPATIAL_NODE + 1) * k] = c_m * d.mass[i]
            for j in range(3):
                IA[SPATIAL_NODE * (3 + k) + 3 + j] = c_m * d.Ig[9 * i + 3 * k + j]
        if d.body_blocks != NULL:
            for k in range(SPATIAL_BLOCK):
                IA[k] += d.body_blocks[SPATIAL_BLOCK * i + k]
    for s in range(d.n - 1, -1, -1):
        i = d.order[s]
        IA = d.IA + SPATIAL_BLOCK * i
        H = d.H + SPATIAL_BLOCK * i
        W = d.W + SPATIAL_BLOCK * i
        U = d.U + SPATIAL_BLOCK * i
        L = d.L + SPATIAL_BLOCK * i
        p = d.parent[i]
        n_i = free_size(d, i)
        Ei = E + SPATIAL_BLOCK * i if E != NULL else NULL
        if i >= d.nb and d.motion[i] == C_NODE:
            # an element's node: H = I, so U = I^A and D = I^A + E_i
            for k in range(SPATIAL_BLOCK):
                U[k] = IA[k]
                L[k] = IA[k] if Ei == NULL else Ei[k] + IA[k]
            if ldl(L, n_i, E == NULL):
                return i + 1
            _cable_eliminate(d, i, p, M)
            continue
        # a link: its block's products, sizes known to the compiler where n_i is a node's
        Z = H if d.tangent == NULL else d.tangent + 2 * SPATIAL_BLOCK * i
        R = d.rows + SPATIAL_BLOCK * i if d.tangent != NULL and d.rows != NULL else NULL
        if (_link_block(IA, H, Z, Ei, R, U, L, W, S, SPATIAL_NODE, d.tangent != NULL,
                        E == NULL, p >= 0) if n_i == SPATIAL_NODE else
                _link_block(IA, H, Z, Ei, R, U, L, W, S, n_i, d.tangent != NULL, E == NULL,
                            p >= 0)):
            return i + 1
        if p >= 0:
            # to the parent: X^T (I^A - U W) X
            _add_inertia(d, i, p, S)
    return 0


cdef void _cable_eliminate(SpatialData* d, int i, int p, double* scratch) noexcept nogil:
    """The elimination of an element's node i (C_NODE, H = X = I) after D = I^A_i is factored:
    with its element's 6 x 6 blocks M_pp, M_pc, M_cp (parent side p, child side c; M the
    element's matrix, :func:`_cable_block`), ``a_i = z - G a_p`` with ``G = D^-1 M_cp``, so
    ``W = G + I`` (``qdd = z - W a_p``) and ``I^A_p += M_pp - M_pc G``: the consistent mass
    coupling e_p and e_i (theory: The cable in the recursion), absorbed as the planar recursion
    absorbs its
    8 x 8 element mass."""
    cdef double col[SPATIAL_NODE]
    cdef double* W = d.W + SPATIAL_BLOCK * i
    cdef double* IA = d.IA + SPATIAL_BLOCK * p
    cdef double s
    cdef int j, r, k
    cdef const double* M = _cable_block(d, d.c_element[i], scratch)
    for r in range(SPATIAL_NODE):
        for j in range(SPATIAL_NODE):
            col[j] = M[CABLE_ELEMENT * (CABLE_NODE + j) + r]
        ldl_solve(d.L + SPATIAL_BLOCK * i, SPATIAL_NODE, col)
        for j in range(SPATIAL_NODE):
            W[SPATIAL_NODE * j + r] = col[j]
    for r in range(SPATIAL_NODE):
        for k in range(SPATIAL_NODE):
            s = M[CABLE_ELEMENT * r + k]
            for j in range(SPATIAL_NODE):
                s -= M[CABLE_ELEMENT * r + CABLE_NODE + j] * W[SPATIAL_NODE * j + k]
            IA[SPATIAL_NODE * r + k] += s
    for j in range(SPATIAL_NODE):
        W[(SPATIAL_NODE + 1) * j] += 1.0


cdef inline void _sweep_up(const double* H, const double* U, const double* IA, const double* L,
                           const double* pA, const double* c, const double* tau, double* z,
                           double* pa, int n, bint bias, bint tangent, bint parent) noexcept nogil:
    """A link's step of the leaves-to-root sweep of :func:`sweeps` (n its free coordinates,
    tau its own): ``z = D^-1 (tau - H^T p^A - U^T c)`` (c with ``bias``; D's factors L by
    :func:`lu` with ``tangent``, else :func:`ldl`) and with ``parent`` the wrench ``pa = p^A
    + I^A c + U z`` that :func:`sweeps` moves to the parent. Inline, called with ``n =
    SPATIAL_NODE`` where it is, for the reasons of :func:`_link_block`."""
    cdef double t
    cdef int j, k, r
    for j in range(n):
        t = tau[j]
        for r in range(SPATIAL_NODE):
            t -= H[SPATIAL_NODE * r + j] * pA[r]
            if bias:
                t -= U[SPATIAL_NODE * r + j] * c[r]
        z[j] = t
    if tangent:
        lu_solve(L, n, z)
    else:
        ldl_solve(L, n, z)
    if parent:
        for r in range(SPATIAL_NODE):
            t = pA[r]
            if bias:
                for k in range(SPATIAL_NODE):
                    t += IA[SPATIAL_NODE * r + k] * c[k]
            for j in range(n):
                t += U[SPATIAL_NODE * r + j] * z[j]
            pa[r] = t


cdef inline void _sweep_down(const double* W, const double* H, const double* c, const double* z,
                             const double* xa, double* qdd, double* acc, int n, bint bias,
                             bint parent) noexcept nogil:
    """A link's step of the root-to-leaves sweep of :func:`sweeps` (n its free coordinates,
    qdd and acc its own): ``qdd = z - W X a_p`` (``xa = X a_p``; z alone at the root, without
    ``parent``) and ``acc = X a_p + H qdd + c`` (c with ``bias``; H is Z with
    ``d.tangent``). Inline, called with ``n = SPATIAL_NODE`` where it is, as
    :func:`_link_block`."""
    cdef double t
    cdef int j, k, r
    for j in range(n):
        t = z[j]
        if parent:
            for k in range(SPATIAL_NODE):
                t -= W[SPATIAL_NODE * j + k] * xa[k]
        qdd[j] = t
    for r in range(SPATIAL_NODE):
        t = xa[r] + (c[r] if bias else 0.0)
        for j in range(n):
            t += H[SPATIAL_NODE * r + j] * qdd[j]
        acc[r] = t


cdef void sweeps(SpatialData* d, const double* tau, bint bias, double* qdd) noexcept nogil:
    """The two sweeps of the factorization of :func:`factor`: link accelerations qdd (n_q)
    and body accelerations ``acc`` of the generalized forces tau (n_q), and with ``bias`` of
    the applied wrenches f and the bias accelerations c (the forward dynamics; without it the
    solve of the factored matrix). Leaves to root, from ``p^A = -f`` (or 0):
    ``u = tau - H^T p^A - U^T c``, ``z = D^-1 u``, ``p^A_p += X^T (p^A + I^A c + U z)``; root
    to leaves: ``qdd = z - W X a_p``, ``a = X a_p + H qdd + c`` (Z for H with ``d.tangent``,
    bias off only: :func:`factor`). A driven link's qdd is its
    drive's (bias) or left as it is."""
    cdef double pa[SPATIAL_NODE]
    cdef double xa[SPATIAL_NODE]
    cdef double x[3]
    cdef double* IA
    cdef double* pA
    cdef double* H
    cdef double* W
    cdef double* U
    cdef double* z
    cdef const double* c
    cdef const double* Me
    cdef double M[CABLE_ELEMENT_BLOCK]
    cdef int s, i, j, k, r, p, n_i, off
    for i in range(d.n):
        for k in range(SPATIAL_NODE):
            d.pA[SPATIAL_NODE * i + k] = -d.f[SPATIAL_NODE * i + k] if bias else 0.0
    for s in range(d.n - 1, -1, -1):
        i = d.order[s]
        IA = d.IA + SPATIAL_BLOCK * i
        pA = d.pA + SPATIAL_NODE * i
        U = d.U + SPATIAL_BLOCK * i
        z = d.z + SPATIAL_NODE * i
        c = d.c + SPATIAL_NODE * i
        p = d.parent[i]
        off = d.q_offset[i]
        n_i = free_size(d, i)
        if not (i >= d.nb and d.motion[i] == C_NODE):
            # a link: sizes known to the compiler where n_i is a node's (_link_block)
            if n_i == SPATIAL_NODE:
                _sweep_up(d.H + SPATIAL_BLOCK * i, U, IA, d.L + SPATIAL_BLOCK * i, pA, c,
                          tau + off, z, pa, SPATIAL_NODE, bias, d.tangent != NULL, p >= 0)
            else:
                _sweep_up(d.H + SPATIAL_BLOCK * i, U, IA, d.L + SPATIAL_BLOCK * i, pA, c,
                          tau + off, z, pa, n_i, bias, d.tangent != NULL, p >= 0)
            if p >= 0:
                _add_force(d, i, p, pa)
            continue
        # an element's node: H = I, c = 0 (cable_node), so u = tau - p^A
        for j in range(SPATIAL_NODE):
            z[j] = tau[off + j] - pA[j]
        ldl_solve(d.L + SPATIAL_BLOCK * i, n_i, z)
        if p < 0:
            continue
        # the node's link force tau and the element's parent side M_pc z (_cable_eliminate)
        Me = _cable_block(d, d.c_element[i], M)
        for r in range(SPATIAL_NODE):
            d.pA[SPATIAL_NODE * p + r] += tau[off + r]
            for j in range(SPATIAL_NODE):
                d.pA[SPATIAL_NODE * p + r] += Me[CABLE_ELEMENT * r + CABLE_NODE + j] * z[j]
    for s in range(d.n):
        i = d.order[s]
        p = d.parent[i]
        off = d.q_offset[i]
        n_i = free_size(d, i)
        if bias and n_i == 0 and d.q_offset[i + 1] > off:
            qdd[off] = d.drive[3 * off + 2]
        _transform_acceleration(d, i, p, xa)
        W = d.W + SPATIAL_BLOCK * i
        # the body accelerations by Z with d.tangent (factor)
        H = d.H + SPATIAL_BLOCK * i if d.tangent == NULL else d.tangent + 2 * SPATIAL_BLOCK * i
        if i >= d.nb and d.motion[i] == C_NODE:
            # H = I, c = 0: a = a_p + qdd
            for j in range(SPATIAL_NODE):
                qdd[off + j] = d.z[SPATIAL_NODE * i + j]
                for k in range(SPATIAL_NODE):
                    qdd[off + j] -= W[SPATIAL_NODE * j + k] * xa[k]
                d.acc[SPATIAL_NODE * i + j] = xa[j] + qdd[off + j]
            continue
        if n_i == SPATIAL_NODE:
            _sweep_down(W, H, d.c + SPATIAL_NODE * i, d.z + SPATIAL_NODE * i, xa, qdd + off,
                        d.acc + SPATIAL_NODE * i, SPATIAL_NODE, bias, p >= 0)
        else:
            _sweep_down(W, H, d.c + SPATIAL_NODE * i, d.z + SPATIAL_NODE * i, xa, qdd + off,
                        d.acc + SPATIAL_NODE * i, n_i, bias, p >= 0)


cdef int articulated(SpatialData* d, double* qdd) noexcept nogil:
    """The articulated-body recursion (module docstring) after :func:`kinematics` and
    :func:`forces`: :func:`factor` of the generalized mass and the :func:`sweeps` of the
    forces, giving the link accelerations qdd (n_q) and body accelerations ``acc``. Returns
    ODE_OK, or ODE_SINGULAR (``d.failed`` = body + 1) if a D is not positive definite."""
    cdef int failed = factor(d, 1.0, NULL)
    if failed:
        d.failed = failed
        return ODE_SINGULAR
    sweeps(d, d.tau, True, qdd)
    return ODE_OK


cdef void inverse_dynamics(SpatialData* d, const double* qdd, double c_m, double c_f,
                           double* out) noexcept nogil:
    """``out = c_m B^T M B qdd - c_f (B^T (f - M c) + tau)`` (n_q; a driven link's entries
    are zero), the residual of the equations of motion, after :func:`kinematics` and
    :func:`forces` (or :func:`rotated_inertias` alone when ``c_f = 0``: f, c and tau are not
    read then), by the Newton-Euler recursion (O(n), no factorization): root to leaves the
    body accelerations ``a_i = X_i a_p + c_m H_i qdd + c_f c_i``, leaves to root the link
    wrenches ``W_i = M_i a_i - c_f f_i + sum_children X_c^T W_c`` (into ``pA``), and
    ``out_i = H_i^T W_i - c_f tau_i``. The term whose coefficient is zero is not evaluated
    (with ``c_m = 0`` qdd is not read)."""
    cdef double xa[SPATIAL_NODE]
    cdef double x[3]
    cdef double* a
    cdef double* w
    cdef const double* Ig
    cdef int s, i, j, k, r, p, n_i, off, el
    for s in range(d.n):
        i = d.order[s]
        off = d.q_offset[i]
        n_i = free_size(d, i)
        _transform_acceleration(d, i, d.parent[i], xa)
        a = d.acc + SPATIAL_NODE * i
        w = d.pA + SPATIAL_NODE * i
        el = d.c_element[i] if i >= d.nb else -1
        if el >= 0:
            # an element's node: H = I, c = 0 (cable_node), no mass of its own
            for r in range(SPATIAL_NODE):
                a[r] = xa[r] + c_m * qdd[off + r] if c_m != 0.0 else xa[r]
        else:
            for r in range(SPATIAL_NODE):
                a[r] = xa[r]
                if c_f != 0.0:
                    a[r] += c_f * d.c[SPATIAL_NODE * i + r]
                if c_m != 0.0:
                    for j in range(n_i):
                        a[r] += c_m * d.H[SPATIAL_BLOCK * i + SPATIAL_NODE * r + j] * qdd[off + j]
            Ig = d.Ig + 9 * i
            for k in range(3):
                w[k] = d.mass[i] * a[k]
                w[3 + k] = Ig[3 * k] * a[3] + Ig[3 * k + 1] * a[4] + Ig[3 * k + 2] * a[5]
        if el >= 0:
            # an element's node: its child side ``M_cp a_p + M_cc a_i``
            _cable_mass_rows(d.c_mass + CABLE_ELEMENT_BLOCK * el, 2,
                             d.acc + SPATIAL_NODE * d.parent[i], a, w)
        if c_f != 0.0:
            for k in range(SPATIAL_NODE):
                w[k] -= c_f * d.f[SPATIAL_NODE * i + k]
    for s in range(d.n - 1, -1, -1):
        i = d.order[s]
        w = d.pA + SPATIAL_NODE * i
        off = d.q_offset[i]
        n_i = free_size(d, i)
        p = d.parent[i]
        if i >= d.nb and d.motion[i] == C_NODE:
            # H = I
            for j in range(SPATIAL_NODE):
                out[off + j] = w[j] - c_f * d.tau[off + j] if c_f != 0.0 else w[j]
        else:
            for k in range(d.q_offset[i + 1] - off):
                out[off + k] = 0.0
            for j in range(n_i):
                for r in range(SPATIAL_NODE):
                    out[off + j] += d.H[SPATIAL_BLOCK * i + SPATIAL_NODE * r + j] * w[r]
                if c_f != 0.0:
                    out[off + j] -= c_f * d.tau[off + j]
        if p < 0:
            continue
        if i >= d.nb and d.motion[i] == C_NODE:
            # and the element's parent side ``M_pp a_p + M_pc a_i``
            _cable_mass_rows(d.c_mass + CABLE_ELEMENT_BLOCK * d.c_element[i], 0,
                             d.acc + SPATIAL_NODE * p, d.acc + SPATIAL_NODE * i, xa)
            for r in range(SPATIAL_NODE):
                d.pA[SPATIAL_NODE * p + r] += w[r] + xa[r]
            continue
        _add_force(d, i, p, w)


cdef inline void _cable_mass_rows(const double* M, int side, const double* ap,
                                  const double* a, double* out) noexcept nogil:
    """out (6) = the rows of one side (0 parent, 2 child: the element's vector index of its
    r) of an element's mass M (12 x 12, parent side first) times the accelerations
    ``(a_p, a)`` of its two nodes. The consistent mass is ``m C x I3`` (C 4 x 4 over the
    vectors r_p, r'_p, r, r'), so each 3 x 3 block is a multiple of I3: 24 products, not 72."""
    cdef int v, b, k
    cdef double s
    for v in range(2):
        for k in range(3):
            s = 0.0
            for b in range(2):
                s += M[CABLE_DIM * CABLE_ELEMENT * (side + v) + 3 * b] * ap[3 * b + k] \
                    + M[CABLE_DIM * CABLE_ELEMENT * (side + v) + 3 * (2 + b)] * a[3 * b + k]
            out[3 * v + k] = s


cdef inline void _transform_acceleration(SpatialData* d, int i, int p, double* xa) noexcept nogil:
    """xa = X_i a_p (zero for the ground): ``(a_lin + a_ang x d, a_ang)``, or
    :func:`_link_X`'s by a link that touches a cable node."""
    cdef const double* ap
    cdef double x[3]
    cdef double X[SPATIAL_BLOCK]
    cdef int k, r
    if p < 0:
        memset(xa, 0, SPATIAL_NODE * sizeof(double))
        return
    ap = d.acc + SPATIAL_NODE * p
    if i >= d.nb and d.motion[i] == C_NODE:
        memcpy(xa, ap, SPATIAL_NODE * sizeof(double))
        return
    if not _standard(d, i, p):
        _link_X(d, i, p, X)
        for r in range(SPATIAL_NODE):
            xa[r] = 0.0
            for k in range(SPATIAL_NODE):
                xa[r] += X[SPATIAL_NODE * r + k] * ap[k]
        return
    cross(ap + 3, d.d + 3 * i, x)
    for k in range(3):
        xa[k] = ap[k] + x[k]
        xa[3 + k] = ap[3 + k]


cdef void accelerations(SpatialData* d, const double* qdd) noexcept nogil:
    """Body accelerations ``acc`` of given link accelerations qdd (n_q; a driven link's are
    in c already), after :func:`kinematics`: ``V_i' = X_i V_p' + H_i qdd + c_i`` root to
    leaves."""
    cdef double xa[SPATIAL_NODE]
    cdef int s, i, r, j, off, n_i
    for s in range(d.n):
        i = d.order[s]
        off = d.q_offset[i]
        n_i = free_size(d, i)
        _transform_acceleration(d, i, d.parent[i], xa)
        for r in range(SPATIAL_NODE):
            d.acc[SPATIAL_NODE * i + r] = xa[r] + d.c[SPATIAL_NODE * i + r]
            for j in range(n_i):
                d.acc[SPATIAL_NODE * i + r] += (d.H[SPATIAL_BLOCK * i + SPATIAL_NODE * r + j]
                                                * qdd[off + j])


cdef void gather(SpatialData* d, const double* y) noexcept nogil:
    """Every link coordinate and rate (``d.q``, ``d.qd``) from the state y and the drives."""
    cdef int k, s
    for k in range(d.n_q):
        s = d.smap[k]
        if s >= 0:
            d.q[k] = y[s]
            d.qd[k] = y[d.n_free + s]
        else:
            d.q[k] = d.drive[3 * k]
            d.qd[k] = d.drive[3 * k + 1]


cdef int rhs(SpatialData* d, double t, const double* y, double* ydot) noexcept nogil:
    """``ydot = (qd, qdd)`` for ``y = (q, qd)`` (free coordinates): inputs, kinematics, forces
    (and the spring-dampers'), the recursion. Returns an ODEStatus (ODE_OK, ODE_SINGULAR,
    ODE_INPUT_RAISED, ODE_TURNED_OVER)."""
    cdef int status, k, s
    d.failed = 0
    if d.callbacks and call_inputs(d.inputs, 0, t):
        return ODE_INPUT_RAISED
    gather(d, y)
    if d.effort_callbacks and call_inputs(d.inputs, 1, t):
        return ODE_INPUT_RAISED
    kinematics(d, d.q, d.qd)
    status = forces(d, d.q, d.qd)
    if status:
        return status
    spring_forces(d)
    status = articulated(d, d.qdd)
    if status:
        return status
    for k in range(d.n_q):
        s = d.smap[k]
        if s >= 0:
            ydot[s] = d.qd[k]
            ydot[d.n_free + s] = d.qdd[k]
    return ODE_OK


cdef int recentre(SpatialData* d, double* y) noexcept nogil:
    """Re-centre the rotation vectors (links of rotation ``R_VECTOR``: spherical, free, not an
    element's) in y (SpatialKernel.recentre); 1 if one changed."""
    cdef double J[9]
    cdef double w[3]
    cdef double* p
    cdef double* pd
    cdef double a, s
    cdef int i, k, m, changed = 0
    for i in range(d.n):
        m = d.motion[i]
        if i >= d.nb or m == M_ELEMENT or motion_rotation(m) != R_VECTOR:
            continue
        # links of a rotation vector are never driven: their coordinates are the state's
        p = y + d.smap[d.q_offset[i] + translation_size(motion_translation(m))]
        pd = p + d.n_free
        a = sqrt(dot(p, p))
        if a <= M_PI:
            continue
        left_jacobian(p, J)
        matvec(J, pd, w)
        s = 1.0 - 2.0 * M_PI / a
        for k in range(3):
            p[k] *= s
        left_jacobian_inverse(p, J)
        matvec(J, w, pd)
        changed = 1
    return changed


cdef double _cable_energy(SpatialData* d) noexcept nogil:
    """The cables' strain energy (J) after :func:`poses` (``cable_force_rest`` without rates)."""
    cdef double e[CABLE_ELEMENT]
    cdef double fe[CABLE_ELEMENT]
    cdef double P, U = 0.0
    cdef int el, a, b
    for el in range(d.n_cable_elements):
        a, b = d.c_nodes[2 * el], d.c_nodes[2 * el + 1]
        memcpy(e, d.ce + CABLE_NODE * a, CABLE_NODE * sizeof(double))
        memcpy(e + CABLE_NODE, d.ce + CABLE_NODE * b, CABLE_NODE * sizeof(double))
        U += cable_force_rest(e, NULL, d.c_length[el], d.c_EA[el], d.c_EI[el], 0.0,
                              cable_rest(d, el), fe, NULL, NULL, &P)
    return U


cdef inline const void* _ptr(dict a, str name):
    return <const void*>cnp.PyArray_DATA(a[name])


cdef class SpatialKernel(ODEProblem):
    """A spatial tree's :class:`~rancf.formulations._problem.ODEProblem`: constants, a
    preallocated workspace and the recursion (module docstring); ``y = (q, qd)``.

    Built by :class:`rancf.formulations.spatial.Spatial` (its ``owner``, which gives
    ``observe`` and ``stiffness``); not thread-safe (one workspace per kernel). ``arrays``
    keeps every buffer the struct points to; ``load_force``, ``load_moment`` (l, 3),
    ``effort`` (n_q,) and ``drive`` (n_q, 3) are the inputs Python writes. After every
    accepted step of the compiled loop the rotation vectors are re-centred (:meth:`recentre`).

    Parameters
    ----------
    tree : rancf.model.spatial_tree.SpatialTree
    cables : dict, optional
        A tree with spatial ANCF cables: the per-node arrays of its bodies and cable nodes
        (``parent``, ``motion``, ``q_offset``, ``element``, ``mass``, ``inertia``,
        ``anchor``, ``offset``, ``relative``, ``axes``, n = bodies + cable nodes) and the
        cable arrays (``order``, ``c_element``, ``c_nodes``, ``c_flip``, ``c_x0``,
        ``c_axis``, ``c_mass``, ``c_gravity``, ``c_length``, ``c_EA``, ``c_EI``,
        ``c_damping``), as :func:`rancf.formulations.spatial.cable_layout` makes them.
    """

    formulation = "spatial"

    def __init__(self, tree, cables=None):
        nl = len(tree.load_body)
        source = {name: getattr(tree, name) for name in (
            "parent", "motion", "q_offset", "element", "mass", "inertia", "anchor", "offset",
            "relative", "axes")}
        nb = tree.n_bodies
        if cables is not None:
            source.update({k: cables[k] for k in source})
        n = len(source["parent"])
        nq = int(np.max(source["q_offset"]))     # the last: offsets do not decrease
        ints = {name: np.asarray(source[name] if name in source else getattr(tree, name),
                                 dtype=np.intc)
                for name in ("parent", "motion", "q_offset", "element", "load_body")}
        ints["load_follower"] = np.asarray(tree.load_follower, dtype=np.intc)
        ints["load_arc"] = np.asarray(tree.load_arc, dtype=np.intc)
        ints["s_body"] = np.asarray(tree.spring_body, dtype=np.intc).ravel()
        ints["s_arc"] = np.asarray(tree.spring_arc, dtype=np.intc).ravel()
        ints["js_body"] = np.asarray(tree.joint_spring_body, dtype=np.intc)
        floats = {name: np.asarray(source[name] if name in source else getattr(tree, name),
                                   dtype=float).ravel()
                  for name in ("mass", "inertia", "anchor", "offset", "relative", "axes",
                               "length", "stiffness", "strain0", "damping", "gravity",
                               "load_offset")}
        cable = cables or {}
        ints["order"] = np.asarray(cable.get("order", np.arange(n)), dtype=np.intc)
        for name in ("c_element", "c_nodes", "c_flip", "c_curved"):
            ints[name] = np.asarray(cable.get(name, np.zeros(0)), dtype=np.intc).ravel()
        for name in ("c_x0", "c_axis", "c_mass", "c_gravity", "c_length", "c_EA", "c_EI",
                     "c_damping", "c_rest"):
            floats[name] = np.asarray(cable.get(name, np.zeros(0)), dtype=float).ravel()
        floats["s_offset"] = np.asarray(tree.spring_offset, dtype=float).ravel()
        floats["s_law"] = np.asarray(tree.spring_law, dtype=float).ravel()
        floats["js_law"] = np.asarray(tree.joint_spring_law, dtype=float).ravel()
        floats["js_rest"] = np.asarray(tree.joint_spring_rest, dtype=float).ravel()
        ints["smap"] = np.arange(nq, dtype=np.intc)
        work = dict(load_force=3 * nl, load_moment=3 * nl, effort=nq, drive=3 * nq, q=nq, qd=nq,
                    qdd=nq, r=3 * n,
                    A=9 * n, V=SPATIAL_NODE * n, acc=SPATIAL_NODE * n, c=SPATIAL_NODE * n,
                    d=3 * n, H=SPATIAL_BLOCK * n, Jr=3 * SPATIAL_NODE * n, Ig=9 * n,
                    f=SPATIAL_NODE * n, IA=SPATIAL_BLOCK * n, pA=SPATIAL_NODE * n,
                    W=SPATIAL_BLOCK * n, U=SPATIAL_BLOCK * n, L=SPATIAL_BLOCK * n,
                    z=SPATIAL_NODE * n,
                    tau=nq, ce=CABLE_NODE * n, cs=3 * n)
        # every array at least one entry, so that every pointer is valid
        self.arrays = pack({**{k: v if v.size else np.zeros(1, v.dtype) for k, v in ints.items()},
                            **{k: v if v.size else np.zeros(1) for k, v in floats.items()},
                            **{k: np.zeros(max(s, 1)) for k, s in work.items()}})
        a = self.arrays
        cdef SpatialData* d = &self.data
        d.n, d.n_q, d.n_loads = n, nq, nl
        d.callbacks = d.effort_callbacks = d.failed = 0
        d.inputs = NULL
        d.parent = <const int*>_ptr(a, "parent")
        d.motion = <const int*>_ptr(a, "motion")
        d.q_offset = <const int*>_ptr(a, "q_offset")
        d.element = <const int*>_ptr(a, "element")
        d.load_body = <const int*>_ptr(a, "load_body")
        d.load_follower = <const int*>_ptr(a, "load_follower")
        d.load_arc = <const int*>_ptr(a, "load_arc")
        d.mass = <const double*>_ptr(a, "mass")
        d.inertia = <const double*>_ptr(a, "inertia")
        d.anchor = <const double*>_ptr(a, "anchor")
        d.offset = <const double*>_ptr(a, "offset")
        d.relative = <const double*>_ptr(a, "relative")
        d.axes = <const double*>_ptr(a, "axes")
        d.length = <const double*>_ptr(a, "length")
        d.stiffness = <const double*>_ptr(a, "stiffness")
        d.strain0 = <const double*>_ptr(a, "strain0")
        d.damping = <const double*>_ptr(a, "damping")
        d.gravity = <const double*>_ptr(a, "gravity")
        d.load_offset = <const double*>_ptr(a, "load_offset")
        d.load_force = <const double*>_ptr(a, "load_force")
        d.load_moment = <const double*>_ptr(a, "load_moment")
        d.effort = <const double*>_ptr(a, "effort")
        d.smap = <const int*>_ptr(a, "smap")
        d.drive = <const double*>_ptr(a, "drive")
        d.q = <double*>_ptr(a, "q")
        d.qd = <double*>_ptr(a, "qd")
        d.qdd = <double*>_ptr(a, "qdd")
        d.r = <double*>_ptr(a, "r")
        d.A = <double*>_ptr(a, "A")
        d.V = <double*>_ptr(a, "V")
        d.acc = <double*>_ptr(a, "acc")
        d.c = <double*>_ptr(a, "c")
        d.d = <double*>_ptr(a, "d")
        d.H = <double*>_ptr(a, "H")
        d.Jr = <double*>_ptr(a, "Jr")
        d.Ig = <double*>_ptr(a, "Ig")
        d.f = <double*>_ptr(a, "f")
        d.IA = <double*>_ptr(a, "IA")
        d.pA = <double*>_ptr(a, "pA")
        d.W = <double*>_ptr(a, "W")
        d.U = <double*>_ptr(a, "U")
        d.L = <double*>_ptr(a, "L")
        d.z = <double*>_ptr(a, "z")
        d.tau = <double*>_ptr(a, "tau")
        d.n_springs, d.n_joint_springs = len(tree.spring_body), len(tree.joint_spring_body)
        d.s_body = <const int*>_ptr(a, "s_body")
        d.s_offset = <const double*>_ptr(a, "s_offset")
        d.s_arc = <const int*>_ptr(a, "s_arc")
        d.s_law = <const double*>_ptr(a, "s_law")
        d.js_body = <const int*>_ptr(a, "js_body")
        d.js_law = <const double*>_ptr(a, "js_law")
        d.js_rest = <const double*>_ptr(a, "js_rest")
        d.spring_power = 0.0
        d.body_blocks = NULL
        d.rows = NULL
        d.tangent = NULL
        d.element_K = NULL
        d.nb = nb
        d.order = <const int*>_ptr(a, "order")
        d.n_cable_elements = len(cable.get("c_length", ()))
        d.c_element = <const int*>_ptr(a, "c_element")
        d.c_nodes = <const int*>_ptr(a, "c_nodes")
        d.c_flip = <const int*>_ptr(a, "c_flip")
        d.c_curved = <const int*>_ptr(a, "c_curved")
        d.c_rest = <const double*>_ptr(a, "c_rest")
        d.c_x0 = <const double*>_ptr(a, "c_x0")
        d.c_axis = <const double*>_ptr(a, "c_axis")
        d.c_mass = <const double*>_ptr(a, "c_mass")
        d.c_gravity = <const double*>_ptr(a, "c_gravity")
        d.c_length = <const double*>_ptr(a, "c_length")
        d.c_EA = <const double*>_ptr(a, "c_EA")
        d.c_EI = <const double*>_ptr(a, "c_EI")
        d.c_damping = <const double*>_ptr(a, "c_damping")
        d.ce = <double*>_ptr(a, "ce")
        d.cs = <double*>_ptr(a, "cs")
        d.c_m = 1.0
        d.c_blocks = NULL
        self.n_q, self.n_bodies, self.n_free = nq, n, nq
        d.n_free = nq
        self.n_y = 2 * nq
        self.n_branch = 0

    # --- the ODE contract (rancf.formulations._problem.ODEProblem) --------------------------
    cdef int rate(self, double t, const double* y, double* ydot) noexcept nogil:
        return rhs(&self.data, t, y, ydot)

    cdef int check(self, const double* y, double bound) noexcept nogil:
        """Non-finite entries, or a body origin farther than ``bound`` (m) from the origin
        along x, y or z (the frames of y, rebuilt here)."""
        cdef int i
        for i in range(self.n_y):
            if not isfinite(y[i]):
                return ODE_NONFINITE
        gather(&self.data, y)
        poses(&self.data, self.data.q)
        for i in range(3 * self.data.n):
            if fabs(self.data.r[i]) > bound:
                return ODE_UNBOUNDED
        return ODE_OK

    cdef int recentre(self, double* y) noexcept nogil:
        """The rotation vector q of a spherical or free link with ``|q| > pi`` becomes
        ``q (1 - 2 pi / |q|)`` (the same rotation, angle below pi), its rate
        ``J_l(q_new)^-1 J_l(q) qd`` (the same angular velocity): J_l is singular at
        ``|q| = 2 pi``, which a spinning link would otherwise reach. Returns 1 if y changed."""
        return recentre(&self.data, y)

    @property
    def keeps_inputs(self):
        """Whether the explicit loop keeps the input functions' values at its outputs
        (:meth:`keep_inputs`): the model has functions of t or effort functions."""
        return self.inputs is not None and bool(self.data.callbacks or self.data.effort_callbacks)

    def recentred(self, y):
        """A copy of the state y (n_y,) with its rotation vectors re-centred (as after an
        accepted step of the compiled loop)."""
        cdef double[::1] yy = state_buffer(y, self.n_y)
        recentre(&self.data, &yy[0])
        return np.asarray(yy)[:self.n_y]

    def failure(self, int status, double t):
        """What a status of :func:`rhs` at time t (s) means, in words."""
        if status == ODE_INPUT_RAISED and self.inputs is not None:
            return f"an input function raised at t = {t:.6g} s: {self.inputs.failure()}"
        if status == ODE_TURNED_OVER and self.data.failed:
            return (f"the rotation of the element ending at body {self.data.failed - 1} reached "
                    f"pi at t = {t:.6g} s (the element turned by half a turn: refine the beam "
                    "or shorten the step)")
        if status == ODE_SINGULAR and self.data.failed:
            return (f"the articulated inertia of body {self.data.failed - 1} seen through its "
                    f"link (D = H^T I^A H) is not positive definite at t = {t:.6g} s")
        return ODEProblem.failure(self, status, t)

    def stiffness(self, y):
        return "" if self.owner is None else self.owner.stiffness(y)

    def observe(self, t, Y, branches, kept=None):
        """Body poses and velocities, joint coordinates and rates and energies at the outputs
        (by the owning formulation, :meth:`rancf.formulations.spatial.Spatial.observe`), the
        reactions deferred to when the Result is asked for them (the input values ``kept``
        by the loop played back)."""
        return self.owner.observe(t, Y, branches, deferred=True, kept=kept)

    def set_inputs(self, inputs):
        """The object whose ``at_time(t)`` and ``efforts(t)`` write the loads and efforts into
        ``arrays`` (:class:`rancf.formulations.spatial.Inputs`); kept alive here."""
        self.inputs = inputs
        self.data.inputs = <void*>inputs
        self.data.callbacks = int(inputs.time_dependent)
        self.data.effort_callbacks = int(inputs.effort_dependent)

    def set_drives(self, coordinates):
        """Prescribe these link coordinates (of one-coordinate links; their ``q, qd, qdd`` in
        ``arrays['drive']``, 3 per coordinate): the state keeps the others, so ``n_y`` becomes
        ``2 (n_q - len(coordinates))``."""
        cdef SpatialData* d = &self.data
        smap = self.arrays["smap"]
        driven = np.zeros(self.n_q, bool)
        driven[np.asarray(coordinates, dtype=int)] = True
        smap[:self.n_q] = np.where(driven, -1, np.cumsum(~driven) - 1)
        self.n_free = d.n_free = int(self.n_q - driven.sum())
        self.n_y = 2 * self.n_free

    # --- Python access to the passes (tests, outputs) ---------------------------------------
    def full(self, y):
        """Every link coordinate and rate ``(q, qd)`` (n_q,) at the state y, the driven ones
        from the drive values last written."""
        cdef double[::1] yy = state_buffer(y, self.n_y)
        gather(&self.data, &yy[0])
        return self.arrays["q"][:self.n_q].copy(), self.arrays["qd"][:self.n_q].copy()

    def kinematics(self, y, qdd=None):
        """The root-to-leaves pass at y (n_y,): ``arrays['r']``, ``['A']``, ``['V']``,
        ``['H']``, ``['c']``; with qdd (n_free,) also the body accelerations
        ``arrays['acc']`` (``V_i' = X_i V_p' + H_i qdd + c_i``)."""
        cdef double[::1] yy = state_buffer(y, self.n_y)
        cdef SpatialData* d = &self.data
        gather(d, &yy[0])
        with nogil:
            kinematics(d, d.q, d.qd)
        if qdd is not None:
            a = checked("qdd", qdd, self.n_free)
            smap = self.arrays["smap"][:self.n_q]
            full = self.arrays["qdd"]
            # the driven coordinates' from the drives (accelerations reads them there); a
            # tree may have no free coordinate at all, and a is then empty
            free = smap >= 0
            full[:self.n_q] = 0.0
            full[:self.n_q][free] = a[smap[free]]
            with nogil:
                accelerations(d, d.qdd)

    def mass_solve(self, f):
        """The free link rates x (n_free,, the state's order) of ``B^T M B x = B^T f`` at the
        last :meth:`kinematics`: f (6 n,) a wrench per node (a body's force and moment at its
        origin, global, N and N m; a cable node's generalized force on ``[r, r']``), B the map
        from the free link rates to the nodes' velocities (V = B qd without the drives' part),
        M the block mass. The articulated-body factorization of the generalized mass
        (:func:`factor`) and its sweeps (:func:`sweeps`) with f as the applied wrenches, the
        bias accelerations c set to zero and no link forces: the forward dynamics' O(n) solve.
        With ``f = M (V - V_d)`` it gives the rates whose velocities are nearest V in the
        kinetic-energy metric (``min (B x + V_d - V)^T M (B x + V_d - V)``). Overwrites the
        last evaluation's f, c and accelerations. ValueError where a pivot D is not positive
        definite (a body without mass in a direction its link moves), naming the body."""
        cdef SpatialData* d = &self.data
        cdef double[::1] tau = np.zeros(max(self.n_q, 1))
        cdef int failed
        a = checked("f", f, SPATIAL_NODE * d.n)
        self.arrays["f"][:SPATIAL_NODE * d.n] = a
        self.arrays["c"][:SPATIAL_NODE * d.n] = 0.0
        with nogil:
            rotated_inertias(d)
            failed = factor(d, 1.0, NULL)
            if not failed:
                sweeps(d, &tau[0], True, d.qdd)
        d.failed = failed
        if failed:
            raise ValueError(f"the articulated inertia of body {failed - 1} seen through its "
                             "link (D = H^T I^A H) is not positive definite at these poses")
        smap = self.arrays["smap"][:self.n_q]
        out = np.zeros(self.n_free)
        out[smap[smap >= 0]] = self.arrays["qdd"][:self.n_q][smap >= 0]
        return out

    def frames(self, const double[:, ::1] Y, double[:, ::1] q, double[:, ::1] qd,
               double[:, :, ::1] x, double[:, :, ::1] v):
        """The kinematics of many states at once, for the outputs: for each row k of Y
        (n_out, n_y), every link's coordinates and rates ``q[k]``, ``qd[k]`` (n_q), and per
        node (bodies, then cable nodes) its pose ``x[k]`` (12: the origin r then the frame A
        row-major; a cable node's coordinates ``[r, r']`` in its first 6) and velocity ``v[k]``
        (6: ``(v, w)``, a cable node's ``(r', r'')``). The drives' values are those last
        written (:meth:`rancf.formulations.spatial.Inputs.at_time`): constant across the rows."""
        cdef SpatialData* d = &self.data
        cdef Py_ssize_t m = Y.shape[0], k, i
        if (Y.shape[1] != self.n_y or q.shape[0] != m or qd.shape[0] != m or x.shape[0] != m
                or v.shape[0] != m or q.shape[1] != d.n_q or qd.shape[1] != d.n_q
                or x.shape[1] != d.n or x.shape[2] != 3 + 9 or v.shape[1] != d.n
                or v.shape[2] != SPATIAL_NODE):
            raise ValueError(f"frames: Y (m, {self.n_y}), q and qd (m, {d.n_q}), x (m, {d.n}, "
                             f"12) and v (m, {d.n}, 6) of one m; got Y "
                             f"{(Y.shape[0], Y.shape[1])}, q {(q.shape[0], q.shape[1])}, "
                             f"qd {(qd.shape[0], qd.shape[1])}, "
                             f"x {(x.shape[0], x.shape[1], x.shape[2])}, "
                             f"v {(v.shape[0], v.shape[1], v.shape[2])}")
        if self.n_y == 0:
            Y = np.zeros((m, 1))
        with nogil:
            for k in range(m):
                gather(d, &Y[k, 0])
                kinematics(d, d.q, d.qd)
                if d.n_q:
                    memcpy(&q[k, 0], d.q, d.n_q * sizeof(double))
                    memcpy(&qd[k, 0], d.qd, d.n_q * sizeof(double))
                for i in range(d.nb):
                    memcpy(&x[k, i, 0], d.r + 3 * i, 3 * sizeof(double))
                    memcpy(&x[k, i, 3], d.A + 9 * i, 9 * sizeof(double))
                for i in range(d.nb, d.n):
                    memcpy(&x[k, i, 0], d.ce + CABLE_NODE * i, CABLE_NODE * sizeof(double))
                memcpy(&v[k, 0, 0], d.V, SPATIAL_NODE * d.n * sizeof(double))

    def elastic_energy(self, y):
        """The elastic energy (J) at the state y (n_y,): the elements' strain energy
        (``element_energy``) and the spring-dampers' potential (:func:`spring_energy`)."""
        cdef double[::1] yy = state_buffer(y, self.n_y)
        cdef SpatialData* d = &self.data
        cdef double U = 0.0
        cdef int i, b, off
        gather(d, &yy[0])
        for i in range(d.n):
            if d.motion[i] == M_ELEMENT:
                b, off = d.element[i], d.q_offset[i]
                U += element_energy(d.anchor + 3 * i, d.relative + 9 * i, d.q + off,
                                    d.length[b], d.stiffness + SPATIAL_NODE * b,
                                    d.strain0 + SPATIAL_NODE * b)
        if d.n_cable_elements:
            poses(d, d.q)
            U += _cable_energy(d)
        if d.n_springs or d.n_joint_springs:
            poses(d, d.q)
            U += spring_energy(d)
        return U

    def evaluate(self, double t, y):
        """The whole evaluation at (t, y): ``(status, ydot)``; the workspace (forces ``f``,
        ``tau``, accelerations ``acc``) is left in ``arrays``."""
        cdef double[::1] yy = state_buffer(y, self.n_y)
        cdef double[::1] ydot = np.zeros(max(self.n_y, 1))
        cdef int status
        with nogil:
            status = rhs(&self.data, t, &yy[0], &ydot[0])
        return status, np.asarray(ydot)[:self.n_y].copy()
