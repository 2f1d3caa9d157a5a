"""O(n) kernels of the recursive formulation on trees (theory: The O(n) recursion).

Vertices are the beam nodes and the rigid bodies, four coordinates each. The first vertex of
a body (a beam's first node, a rigid body) hangs on its parent's point through its tree
joint, ``V_c = chi V_p + eps eta + bh qd`` and ``A_c = chi A_p + eps eta' + c``. The joint's
map is composed of its primitives (theory: Joints in the recursion): a place (the child's
point at the parent's point, or on the rail ``R(axis) ph`` at a slide that is a rate or
driven) and a turn (the child's slope or axis free, or held at the angle coordinate q or at
theta0, a held beam slope in the polar form ``s R(angle) ph``), so every composition of the
kinds' primitives runs (:func:`_first_vertex`). A beam's other nodes have their own four
rates. The generalized velocities ``beta`` are, vertex by vertex root to leaves, the eta of a
first vertex and the four rates of every other node.

The passes, each a ``noexcept nogil`` kernel on a :c:type:`Tree`:

``kinematics`` (root to leaves)
    rebuilds every first vertex from its parent and its recovered joint coordinate (so the
    joints hold exactly: a polar slope ``s R(q(t)) ph``, a body's ``u`` and centre), and gives
    the joint maps ``chi, eps, bh``, the velocities V and the bias accelerations c.
``factorize`` (leaves to root)
    block elimination of ``Omega = B^T M B`` from the leaves: a free node k is eliminated into
    its beam predecessor (``H_{k-1} -= M12 H_k^-1 M21``), a first vertex into its parent
    (``H_p += chi^T (H - H eps D^-1 eps^T H) chi``, ``D = eps^T H eps``); siblings add into the node
    they hang on. Constant for trees of beams on revolute joints (chi, eps constant): then it
    runs once. Works on any element matrices (the mass, or a Newton matrix).
``solve`` (leaves to root, then root to leaves)
    reduces the node forces with the stored factors and returns the accelerations
    ``A_k = H_k^-1 f_k - H_k^-1 M21 A_{k-1}``, ``eta' = D^-1 (eps^T f - eps^T H (chi A_p + c))``.

No matrix of size n is formed; the cost is O(n) for any tree. The reaction of a fixed or
driven joint (the torque or force that holds its coordinate) is ``bh^T (H A - f)`` at the child.
"""
cimport numpy as cnp
from libc.math cimport sqrt, atan2, isfinite, fabs
from libc.string cimport memset, memcpy

import numpy as np

from rancf.formulations._forces cimport (ModelData, P_GROUND, P_NODE, P_BODY,
                                         applied_forces, element_forces, element_matrix,
                                         joint_coordinates,
                                         spring_forces,
                                         bind_model)
from rancf.formulations._forces cimport mass_times as block_mass_times
from rancf.formulations._inputs cimport call_inputs
from rancf.elements._beam cimport DIM, NODE, ELEMENT, NODE_BLOCK, ELEMENT_BLOCK
from rancf.elements._planar cimport direction, point_map, point_map_rows, rotate
from rancf.formulations._forces import checked, model_arrays
from rancf.utilities.workspace import pack

# the most rates eta a joint gives (three: a slot's beam child, the slide and the slope's two),
# typed as NODE is: the room of the kernels' local blocks. The blocks kept per first vertex
# (eps, HE, EH, W, Dinv) have the vertex's own nb columns (Tree.joff), not RATES: a stride of
# RATES left most of them empty and spread every first vertex over twice the cache lines
cdef extern from *:
    """
    #define RANCF_RECURSIVE_RATES 3
    """
    const long RATES "RANCF_RECURSIVE_RATES"

# p[0:4] = (a0, a1, a2, a3) as two 16-byte stores (GCC's vector extension, SSE2), so that a
# 16-byte load of either pair (a copy, a vectorized loop) is served from one store
cdef extern from *:
    """
    #include <string.h>
    typedef double rancf_recursive_pair __attribute__((vector_size(16)));
    static inline void rancf_recursive_store4(double* p, double a0, double a1, double a2,
                                              double a3) {
        rancf_recursive_pair lo = {a0, a1};
        rancf_recursive_pair hi = {a2, a3};
        memcpy(p, &lo, sizeof(lo));
        memcpy(p + 2, &hi, sizeof(hi));
    }
    """
    void _store4 "rancf_recursive_store4"(double* p, double a0, double a1, double a2,
                                          double a3) noexcept nogil

cnp.import_array()


# --- small dense blocks (row-major) ----------------------------------------------------------
cdef inline void _mv(const double* M, const double* x, double* y, int n, int k) noexcept nogil:
    """y (n) = M (n x k) x (k)."""
    cdef int i, j
    for i in range(n):
        y[i] = 0.0
        for j in range(k):
            y[i] += M[k * i + j] * x[j]


cdef inline void _mtv(const double* M, const double* x, double* y, int n, int k) noexcept nogil:
    """y (k) = M^T x, M (n x k)."""
    cdef int i, j
    for j in range(k):
        y[j] = 0.0
    for i in range(n):
        for j in range(k):
            y[j] += M[k * i + j] * x[i]


cdef inline void _block(const double* M8, int r, int c, double* B) noexcept nogil:
    """B = the 4 x 4 block (r, c) of an 8 x 8 matrix (r, c in {0, 1})."""
    cdef int i, j
    for i in range(NODE):
        for j in range(NODE):
            B[NODE * i + j] = M8[ELEMENT * (NODE * r + i) + NODE * c + j]


cdef int _inv4(const double* A, double* X) noexcept nogil:
    """X = A^-1 (4 x 4); 1 if singular.

    A block couples positions (m) and slopes (1): its slope entries are ``l^2`` times its
    position entries for elements of length l, 1e-12 for l = 1 um. So the inverse is taken of
    the symmetrically scaled ``S A S``, ``S = diag(1 / sqrt|A_ii|)`` (a mass block's scaled
    entries are at most 1, its diagonal 1), by Gauss-Jordan elimination with partial pivoting,
    a pivot below 1e-14 of the scaled block's largest entry counting as singular; then
    ``X = S (S A S)^-1 S``."""
    cdef double M[NODE_BLOCK]
    cdef double S[NODE]
    cdef double t, big, scale
    cdef int i, j, k, p
    for i in range(NODE):
        S[i] = 1.0 / sqrt(fabs(A[(NODE + 1) * i])) if A[(NODE + 1) * i] != 0.0 else 1.0
    scale = 0.0
    for i in range(NODE):
        for j in range(NODE):
            M[NODE * i + j] = S[i] * A[NODE * i + j] * S[j]
            scale = max(scale, fabs(M[NODE * i + j]))
    memset(X, 0, NODE_BLOCK * sizeof(double))
    X[0] = X[5] = X[10] = X[15] = 1.0
    for k in range(NODE):
        p = k
        big = fabs(M[NODE * k + k])
        for i in range(k + 1, NODE):
            if fabs(M[NODE * i + k]) > big:
                big = fabs(M[NODE * i + k])
                p = i
        if not big > 1e-14 * scale:
            return 1
        if p != k:
            for j in range(NODE):
                t = M[NODE * k + j]; M[NODE * k + j] = M[NODE * p + j]; M[NODE * p + j] = t
                t = X[NODE * k + j]; X[NODE * k + j] = X[NODE * p + j]; X[NODE * p + j] = t
        t = 1.0 / M[NODE * k + k]
        for j in range(NODE):
            M[NODE * k + j] *= t
            X[NODE * k + j] *= t
        for i in range(NODE):
            if i != k and M[NODE * i + k] != 0.0:
                t = M[NODE * i + k]
                for j in range(NODE):
                    M[NODE * i + j] -= t * M[NODE * k + j]
                    X[NODE * i + j] -= t * X[NODE * k + j]
    for i in range(NODE):
        for j in range(NODE):
            X[NODE * i + j] *= S[i] * S[j]
    return 0


cdef inline void _zero_rates(double* eps, int nb) noexcept nogil:
    """eps (NODE x nb) = 0: a store of fixed size for each nb, which the compiler writes out
    (a loop of NODE nb stores it may leave to a call)."""
    if nb == 1:
        memset(eps, 0, NODE * sizeof(double))
    elif nb == 2:
        memset(eps, 0, 2 * NODE * sizeof(double))
    elif nb == 3:
        memset(eps, 0, 3 * NODE * sizeof(double))


cdef inline void _add_eps(const double* eps, int nb, const double* eta, double* y) noexcept nogil:
    """y (NODE) += eps eta for a first vertex's eps (NODE x nb, row stride nb) and rates eta
    (nb), each row's terms added k = 0, 1, ... in turn; a loop of fixed size for each nb, which
    the compiler unrolls (eta read once: y may overlap it for all the compiler knows)."""
    cdef double e0, e1, e2
    cdef int i
    if nb == 1:
        e0 = eta[0]
        for i in range(NODE):
            y[i] += eps[i] * e0
    elif nb == 2:
        e0, e1 = eta[0], eta[1]
        for i in range(NODE):
            y[i] = y[i] + eps[2 * i] * e0 + eps[2 * i + 1] * e1
    elif nb == 3:
        e0, e1, e2 = eta[0], eta[1], eta[2]
        for i in range(NODE):
            y[i] = y[i] + eps[3 * i] * e0 + eps[3 * i + 1] * e1 + eps[3 * i + 2] * e2


# --- kinematics ------------------------------------------------------------------------------
cdef void _polar_slope(double angle, const double* ph, const double* slope, double* s_coord,
                      bint given, double sd, double om_c, double accel, const double* nrow,
                      int col, int nb, double* X, double* chi, double* eps, double* bh,
                      double* c) noexcept nogil:
    """A beam child's slope held at ``angle`` to the parent's direction (the polar form of
    a drive; theory: Drives as polar slopes): ``r'_c = s ch``, ``ch = R(angle) ph``; s is
    ``*s_coord`` when ``given``, else it is recovered from the stored slope and written to
    ``*s_coord``; its rate sd is the eta of column ``col`` of eps (nb columns). Slope rows:
    chi ``(s/rho) J ch n^T D`` (``nrow`` is ``n^T D / rho``), eps ``ch``, bh ``s J ch`` (not
    written if NULL), bias ``2 s' om_c J ch - s om_c^2 ch + s accel J ch`` with
    ``accel = q'' - 2 om_p sig``."""
    cdef double ch[2]
    cdef double Jch[2]
    cdef double s
    cdef int i, k
    rotate(angle, ph, ch)
    Jch[0] = -ch[1]
    Jch[1] = ch[0]
    if given:
        s = s_coord[0]
    else:
        s = ch[0] * slope[0] + ch[1] * slope[1]
        s_coord[0] = s
    X[2] = s * ch[0]
    X[3] = s * ch[1]
    for k in range(NODE):
        chi[2 * NODE + k] = s * Jch[0] * nrow[k]
        chi[3 * NODE + k] = s * Jch[1] * nrow[k]
    eps[2 * nb + col] = ch[0]
    eps[3 * nb + col] = ch[1]
    if bh != NULL:
        bh[2] = s * Jch[0]
        bh[3] = s * Jch[1]
    for i in range(2):
        c[2 + i] = 2.0 * sd * om_c * Jch[i] - s * om_c * om_c * ch[i] + s * accel * Jch[i]


cdef void _held_body(double angle, const double* ph, const double* dc, const double* point,
                     double om_c, double accel, const double* nrow, double* X, double* chi,
                     double* bh, double* c) noexcept nogil:
    """A rigid child whose axis is held at ``angle`` to the parent's direction, its joint point
    (``dc`` in the body frame) at ``point``: ``u = R(angle) ph``, ``r_G = point - A(dc) u``. With
    ``K = J u n^T D / rho``: chi's position rows get ``-A(dc) K`` (added to their parent part),
    its direction rows are K; bh ``[-A(dc) J u; J u]`` (not written if NULL); the bias gets
    ``[-A(dc) k; k]``, ``k = accel J u - om_c^2 u`` (its position rows added)."""
    cdef double u[2]
    cdef double Ju[2]
    cdef double Au[2]
    cdef double AJu[2]
    cdef double kk[2]
    cdef double Ak[2]
    cdef int i, k
    rotate(angle, ph, u)
    Ju[0] = -u[1]
    Ju[1] = u[0]
    point_map(dc, u, Au)
    point_map(dc, Ju, AJu)
    X[0] = point[0] - Au[0]
    X[1] = point[1] - Au[1]
    X[2] = u[0]
    X[3] = u[1]
    for k in range(NODE):
        chi[k] -= AJu[0] * nrow[k]
        chi[NODE + k] -= AJu[1] * nrow[k]
        chi[2 * NODE + k] = Ju[0] * nrow[k]
        chi[3 * NODE + k] = Ju[1] * nrow[k]
    if bh != NULL:
        bh[0] = -AJu[0]
        bh[1] = -AJu[1]
        bh[2] = Ju[0]
        bh[3] = Ju[1]
    for i in range(2):
        kk[i] = accel * Ju[i] - om_c * om_c * u[i]
    point_map(dc, kk, Ak)
    c[0] -= Ak[0]
    c[1] -= Ak[1]
    c[2] = kk[0]
    c[3] = kk[1]


cdef inline void _check_polar(Tree* d, int v, double s) noexcept nogil:
    """Note the first held slope whose length s is not positive: ``s ch`` with s <= 0 points
    against the held direction ch (the beam's first element compressed through zero length),
    a state the polar form reaches but that is not the joint (the angle reads pi off)."""
    if not s > 0.0 and d.inverted == 0:
        d.inverted = v + 1


cdef void _first_vertex(Tree* d, int v, const double* y, const double* beta) noexcept nogil:
    """Rebuild first vertex v from its parent; joint maps, velocity and bias (module docstring).

    The map is composed of the joint's two parts (theory: Joints in the recursion): its place
    (``d.place``: the child's point at the parent's point, or at ``r_a + g a`` on the rail with
    the slide g a rate or driven) gives the joint point z, its chi rows, bias and the slide's
    eps column (or reaction row); its turn (``d.turn``: free, or held at q or theta0) then hangs
    the beam's slope or the body on z. The rates eta are the slide's (if a rate) then the
    turn's.

    The joint's position coordinates (the ones whose rates are its eta: a slide, a free beam
    slope, a polar slope's s, a body's angle) come from ``d.theta_in`` when it is set, else they
    are recovered from the stored coordinates y (and written to ``d.theta_out`` when that is
    set)."""
    cdef ModelData* m = d.m
    cdef int j = d.joint[v], pv = d.parent[v], place = d.place[v], turn = d.turn[v]
    cdef int b = d.boff[v], nb = d.nb[v], i, k, col
    cdef bint node = d.code[v] == FIRST_NODE
    cdef const double* Xp
    cdef const double* Vp
    cdef const double* yc = y + NODE * v
    cdef const double* dq = m.drive + 3 * j
    cdef const double* dc = m.c_offset + 2 * j
    cdef const double* z
    cdef double* X = d.X + NODE * v
    cdef double* chi = d.chi + NODE_BLOCK * v
    cdef double* eps = d.eps + NODE * d.joff[v]
    cdef double* bh = d.bh + NODE * v
    cdef double* c = d.c + NODE * v
    cdef double* V = d.V + NODE * v
    cdef double P[DIM * NODE]
    cdef double nrow[NODE]
    cdef double ra[2]
    cdef double p[2]
    cdef double w[2]
    cdef double ph[2]
    cdef double n[2]
    cdef double ah[2]
    cdef double Jah[2]
    cdef double u[2]
    cdef double Ju[2]
    cdef double tmp[2]
    cdef double AJu[2]
    cdef double zpos[2]
    cdef double rho, om_p, sig, g, gd, gdd, phi, phid, qv, qd, qdd
    cdef double th[RATES]
    if d.theta_in != NULL:
        for k in range(nb):
            th[k] = d.theta_in[b + k]
    memset(P, 0, DIM * NODE * sizeof(double))
    memset(nrow, 0, NODE * sizeof(double))
    memset(chi, 0, NODE_BLOCK * sizeof(double))
    _zero_rates(eps, nb)
    memset(bh, 0, NODE * sizeof(double))
    memset(c, 0, NODE * sizeof(double))
    w[0] = w[1] = 0.0
    if pv < 0:
        ra[0] = m.p_offset[2 * j]
        ra[1] = m.p_offset[2 * j + 1]
        direction(m.p_angle[j], p)
    else:
        Xp = d.X + NODE * pv
        Vp = d.V + NODE * pv
        P[0] = P[5] = 1.0
        if m.p_kind[j] == P_BODY:
            # the joint point r_G + A(d) u through its Jacobian P = [I, A(d)] (the sum's order
            # is the kinematics', _planar.body_point)
            point_map_rows(m.p_offset + 2 * j, P + DIM, NODE)
            point_map(m.p_offset + 2 * j, Xp + 2, ra)
            ra[0] += Xp[0]
            ra[1] += Xp[1]
        else:
            ra[0] = Xp[0]
            ra[1] = Xp[1]
        p[0] = Xp[2]
        p[1] = Xp[3]
        w[0] = Vp[2]
        w[1] = Vp[3]
    rho = sqrt(p[0] * p[0] + p[1] * p[1])
    ph[0] = p[0] / rho
    ph[1] = p[1] / rho
    n[0] = -ph[1]
    n[1] = ph[0]
    om_p = (n[0] * w[0] + n[1] * w[1]) / rho
    sig = (ph[0] * w[0] + ph[1] * w[1]) / rho
    if pv >= 0:
        nrow[2] = n[0] / rho
        nrow[3] = n[1] / rho
    # position rows of chi start from P
    for k in range(NODE):
        chi[k] = P[k]
        chi[NODE + k] = P[NODE + k]
    qv, qd, qdd = dq[0], dq[1], dq[2]
    # --- place: the joint point z, its chi rows and bias; col, the turn's first rate ---
    z = ra
    col = 0
    if place != AT_POINT:
        rotate(m.j_axis[j], ph, ah)
        Jah[0] = -ah[1]
        Jah[1] = ah[0]
        if place == AT_DRIVEN_SLIDE:
            g, gd, gdd = dq[0], dq[1], dq[2]
        else:
            if d.theta_in != NULL:
                g = th[0]
            else:
                # the child's joint point from the stored state
                if node:
                    tmp[0] = yc[0]
                    tmp[1] = yc[1]
                else:
                    point_map(dc, yc + 2, tmp)
                    tmp[0] += yc[0]
                    tmp[1] += yc[1]
                g = (tmp[0] - ra[0]) * ah[0] + (tmp[1] - ra[1]) * ah[1]
                th[0] = g
            gd = beta[b]
            gdd = 0.0
            col = 1
        # rail turning with the parent
        for i in range(2):
            zpos[i] = ra[i] + g * ah[i]
            c[i] = (2.0 * gd * om_p * Jah[i] - g * om_p * om_p * ah[i]
                    - 2.0 * g * om_p * sig * Jah[i] + gdd * ah[i])
            for k in range(NODE):
                chi[NODE * i + k] += g * Jah[i] * nrow[k]
        if place == AT_DRIVEN_SLIDE:
            bh[0] = ah[0]
            bh[1] = ah[1]
        else:
            eps[0] = ah[0]
            eps[nb] = ah[1]
        z = zpos
    # --- turn: the slope or the body hung on z ---
    if node:
        X[0] = z[0]
        X[1] = z[1]
        if turn == TURN_FREE:
            if d.theta_in == NULL:
                th[col], th[col + 1] = yc[2], yc[3]
            X[2] = th[col]
            X[3] = th[col + 1]
            eps[2 * nb + col] = 1.0      # eps = [0; I2] in the turn's columns
            eps[3 * nb + col + 1] = 1.0
        elif turn == HELD_AT_Q:
            _polar_slope(qv, ph, yc + 2, th + col, d.theta_in != NULL, beta[b + col], om_p + qd,
                         qdd - 2.0 * om_p * sig, nrow, col, nb, X, chi, eps, bh, c)
            _check_polar(d, v, th[col])
        else:
            _polar_slope(m.j_theta0[j], ph, yc + 2, th + col, d.theta_in != NULL, beta[b + col],
                         om_p, -2.0 * om_p * sig, nrow, col, nb, X, chi, eps, NULL, c)
            _check_polar(d, v, th[col])
    elif turn == TURN_FREE:
        if d.theta_in != NULL:
            phi = th[col]
        else:
            phi = atan2(yc[3], yc[2])
            th[col] = phi
        direction(phi, u)
        Ju[0] = -u[1]
        Ju[1] = u[0]
        phid = beta[b + col]
        point_map(dc, u, tmp)
        X[0] = z[0] - tmp[0]
        X[1] = z[1] - tmp[1]
        X[2] = u[0]
        X[3] = u[1]
        point_map(dc, Ju, AJu)
        eps[col] = -AJu[0]
        eps[nb + col] = -AJu[1]
        eps[2 * nb + col] = Ju[0]
        eps[3 * nb + col] = Ju[1]
        if place == AT_POINT:
            c[0] = phid * phid * tmp[0]
            c[1] = phid * phid * tmp[1]
        else:
            c[0] += phid * phid * tmp[0]
            c[1] += phid * phid * tmp[1]
        c[2] = -phid * phid * u[0]
        c[3] = -phid * phid * u[1]
    elif turn == HELD_AT_Q:
        _held_body(qv, ph, dc, z, om_p + qd, qdd - 2.0 * om_p * sig, nrow, X, chi, bh, c)
    else:
        _held_body(m.j_theta0[j], ph, dc, z, om_p, -2.0 * om_p * sig, nrow, X, chi, NULL, c)
    if d.theta_out != NULL:
        for k in range(nb):
            d.theta_out[b + k] = th[k]
    # V = chi V_p + eps eta + bh qd
    for i in range(NODE):
        V[i] = bh[i] * qd
        if pv >= 0:
            for k in range(NODE):
                V[i] += chi[NODE * i + k] * Vp[k]
    _add_eps(eps, nb, beta + b, V)


cdef void kinematics(Tree* d, const double* y, const double* beta) noexcept nogil:
    """Root-to-leaves pass: consistent X, joint maps, V and c of every vertex; ``d.inverted``
    notes a held slope turned over (:func:`_check_polar`)."""
    cdef int idx, v
    d.inverted = 0
    for idx in range(d.n_v):
        v = d.order[idx]
        if d.code[v] == FREE:
            if d.theta_in != NULL:
                memcpy(d.X + NODE * v, d.theta_in + d.boff[v], NODE * sizeof(double))
            else:
                memcpy(d.X + NODE * v, y + NODE * v, NODE * sizeof(double))
                if d.theta_out != NULL:
                    memcpy(d.theta_out + d.boff[v], y + NODE * v, NODE * sizeof(double))
            memcpy(d.V + NODE * v, beta + d.boff[v], NODE * sizeof(double))
        else:
            _first_vertex(d, v, y, beta)


# --- factorization and solve ----------------------------------------------------------------
cdef void bind_factors(Tree* d, dict a) except *:
    """Point d's matrices (``Mel``, ``Mbody``), accelerations and forces (``A``, ``f``) and the
    elimination's workspace (``H`` ... ``chiTHa``) at the arrays of a (sized as
    :class:`RecursiveKernel`'s): a second set of factors over the same kinematics."""
    d.Mel = <const double*>cnp.PyArray_DATA(a["Mel"])
    d.fused = 0
    d.Mbody = <const double*>cnp.PyArray_DATA(a["Mbody"])
    d.A = <double*>cnp.PyArray_DATA(a["A"])
    d.f = <double*>cnp.PyArray_DATA(a["f"])
    d.H = <double*>cnp.PyArray_DATA(a["H"])
    d.Hinv = <double*>cnp.PyArray_DATA(a["Hinv"])
    d.G = <double*>cnp.PyArray_DATA(a["G"])
    d.L = <double*>cnp.PyArray_DATA(a["L"])
    d.HE = <double*>cnp.PyArray_DATA(a["HE"])
    d.EH = <double*>cnp.PyArray_DATA(a["EH"])
    d.Dinv = <double*>cnp.PyArray_DATA(a["Dinv"])
    d.T = <double*>cnp.PyArray_DATA(a["T"])
    d.W = <double*>cnp.PyArray_DATA(a["W"])
    d.chiTHa = <double*>cnp.PyArray_DATA(a["chiTHa"])


cdef inline bint _coupled(const Tree* d, int v) noexcept nogil:
    """First vertex v (with a parent vertex) has Newton blocks coupling it to its parent."""
    return d.E != NULL and d.m.j_has_effort[d.joint[v]]


cdef void _couple(Tree* d, int v, int pv, int nb) noexcept nogil:
    """The coupling blocks of first vertex v with its parent pv (``N_cp`` child rows x parent
    columns, ``N_pc`` parent rows x child columns, in d.E) in the blocks pulled back to the
    parent, after the uncoupled W, T and chiTHa of v are made and before ``H_p += chiTHa chi``.

    With ``A_c = chi A_p + eps eta + c`` the rows of the child and its parent read
    ``H A_c + N_cp A_p - f`` and ``N_pc A_c + ...``; eliminating eta gives, with
    ``X = N_pc eps D^-1``: ``W += X``, ``T -= X eps^T``, ``chiTHa += N_pc - X eps^T H`` and
    ``H_p += chiTHa chi + T N_cp``; the forward sweep subtracts ``eps^T N_cp A_p`` from eta's
    right-hand side (:func:`solve`)."""
    cdef const double* Ncp = d.E + 3 * NODE_BLOCK * v + NODE_BLOCK
    cdef const double* Npc = d.E + 3 * NODE_BLOCK * v + 2 * NODE_BLOCK
    cdef const double* eps = d.eps + NODE * d.joff[v]
    cdef const double* Di = d.Dinv + NODE * d.joff[v]
    cdef const double* EH = d.EH + NODE * d.joff[v]
    cdef double* W = d.W + NODE * d.joff[v]
    cdef double ED[NODE * RATES]
    cdef double X[NODE * RATES]
    cdef int i, j, k
    for i in range(NODE):
        for k in range(nb):
            ED[nb * i + k] = 0.0
            for j in range(nb):
                ED[nb * i + k] += eps[nb * i + j] * Di[nb * j + k]
    for i in range(NODE):
        for k in range(nb):
            X[nb * i + k] = 0.0
            for j in range(NODE):
                X[nb * i + k] += Npc[NODE * i + j] * ED[nb * j + k]
            W[nb * i + k] += X[nb * i + k]
        for j in range(NODE):
            d.chiTHa[NODE_BLOCK * v + NODE * i + j] += Npc[NODE * i + j]
            for k in range(nb):
                d.T[NODE_BLOCK * v + NODE * i + j] -= X[nb * i + k] * eps[nb * j + k]
                d.chiTHa[NODE_BLOCK * v + NODE * i + j] -= X[nb * i + k] * EH[NODE * k + j]
    for i in range(NODE):
        for j in range(NODE):
            for k in range(NODE):
                d.H[NODE_BLOCK * pv + NODE * i + j] += \
                    d.T[NODE_BLOCK * v + NODE * i + k] * Ncp[NODE * k + j]


cdef inline void _pivot_scale(const double* H, const double* eps, int nb,
                              double* S) noexcept nogil:
    """S (nb x nb, row stride nb) = |eps|^T |H| |eps|: the size of the terms summed into
    ``D = eps^T H eps``, which bounds its rounding errors (about 1e-16 S)."""
    cdef double AE[NODE * RATES]
    cdef int i, j, k
    for i in range(NODE):
        for k in range(nb):
            AE[nb * i + k] = 0.0
            for j in range(NODE):
                AE[nb * i + k] += fabs(H[NODE * i + j]) * fabs(eps[nb * j + k])
    for i in range(nb):
        for k in range(nb):
            S[nb * i + k] = 0.0
            for j in range(NODE):
                S[nb * i + k] += fabs(eps[nb * j + i]) * AE[nb * j + k]


cdef int _inv3(const double* D, const double* S, double* X) noexcept nogil:
    """X = D^-1 for a 3 x 3 block D (D, S and X row-major) by its adjugate; 1 when the determinant
    is not above 1e-14 of the size of its terms (the permanent of S, :func:`_pivot_scale`), or
    is not finite. A slot's beam child has three rates (the slide and the slope's two)."""
    cdef double C[9]
    cdef double det, size
    cdef int i, k
    C[0] = D[4] * D[8] - D[5] * D[7]
    C[1] = D[2] * D[7] - D[1] * D[8]
    C[2] = D[1] * D[5] - D[2] * D[4]
    C[3] = D[5] * D[6] - D[3] * D[8]
    C[4] = D[0] * D[8] - D[2] * D[6]
    C[5] = D[2] * D[3] - D[0] * D[5]
    C[6] = D[3] * D[7] - D[4] * D[6]
    C[7] = D[1] * D[6] - D[0] * D[7]
    C[8] = D[0] * D[4] - D[1] * D[3]
    det = D[0] * C[0] + D[1] * C[3] + D[2] * C[6]
    size = (S[0] * (S[4] * S[8] + S[5] * S[7])
            + S[1] * (S[3] * S[8] + S[5] * S[6])
            + S[2] * (S[3] * S[7] + S[4] * S[6]))
    if not fabs(det) > 1e-14 * size or not isfinite(det):
        return 1
    for i in range(9):
        X[i] = C[i] / det
    return 0


cdef int factorize(Tree* d) noexcept nogil:
    """Leaves-to-root block elimination of B^T Mel B (plus the blocks of d.E); returns 0 or
    vertex + 1 if a pivot block is singular: a free node's 4 x 4 block by :func:`_inv4`'s test,
    a first vertex's ``D = eps^T H eps`` (1 x 1 to 3 x 3) when its determinant is not above
    1e-14 of its terms' size (:func:`_pivot_scale`: what is left is rounding). The block
    inverses are pivoted, not Cholesky: an indefinite matrix passes, only a singular pivot
    stops the elimination. Its first pass sums the elements' diagonal node blocks into H;
    :func:`eliminate` does the rest."""
    cdef int s, v, u, i, j
    cdef const double* M8
    memset(d.H, 0, NODE_BLOCK * d.n_v * sizeof(double))
    for s in range(d.m.n_el):
        M8 = d.Mel + ELEMENT_BLOCK * s
        u = d.m.el_vertices[2 * s]
        v = d.m.el_vertices[2 * s + 1]
        for i in range(NODE):
            for j in range(NODE):
                d.H[NODE_BLOCK * u + NODE * i + j] += M8[ELEMENT * i + j]
                d.H[NODE_BLOCK * v + NODE * i + j] += M8[ELEMENT * (NODE + i) + NODE + j]
    return eliminate(d)


cdef int eliminate(Tree* d) noexcept nogil:
    """:func:`factorize` once the elements' diagonal node blocks of d.Mel are summed into d.H
    (zeroed first), or, where ``d.fused``, with d.H zeroed alone: adds the rigid bodies'
    diagonals (where the model has any) and d.E, then eliminates. Fused, each element's matrix
    ``c_m M + c_k K + c_c C`` is made when the sweep meets the free node v it ends at (the
    element between pred[v] and v, ``elem[v]``; every element is one of these) and its
    diagonal node blocks are added to H_v and H_pred there: the leaves-to-root order has
    already added every other term of H_v (the elements and children beyond v), and adds no
    term of H_pred that is read before pred is met. A long chain's element matrices are then
    never written to memory and read back (Newton's matrix of the implicit formulation;
    the sums' order differs from the unfused one's: H_v's terms summed in another order,
    results equal to rounding). Fused, each H_v is zeroed once read, so that an elimination
    that succeeds leaves H zero for the next (no pass of its own to zero it: H_v is then
    written where the sweep has it in cache, not streamed from memory once more)."""
    cdef int v, idx, u, i, j, k, nb, pv
    cdef const double* M8
    cdef double Mloc[ELEMENT_BLOCK]
    cdef double B[NODE_BLOCK]
    cdef double Ha[NODE_BLOCK]
    cdef double tmp[NODE_BLOCK]
    cdef double Dm[RATES * RATES]
    cdef double Ds[RATES * RATES]
    cdef double det
    cdef double* H
    cdef double* Hu
    cdef double* HE
    cdef double* EH
    cdef double* Di
    cdef double* W
    cdef const double* eps
    cdef const double* chi
    if d.m.body_mass != NULL:       # else d.Mbody is zero (rancf.formulations._forces bind_model)
        for v in range(d.n_v):
            for i in range(NODE):
                d.H[NODE_BLOCK * v + (NODE + 1) * i] += d.Mbody[NODE * v + i]
    if d.E != NULL:
        for v in range(d.n_v):
            for i in range(NODE_BLOCK):
                d.H[NODE_BLOCK * v + i] += d.E[3 * NODE_BLOCK * v + i]
    for idx in range(d.n_v - 1, -1, -1):
        v = d.order[idx]
        H = d.H + NODE_BLOCK * v
        if d.code[v] == FREE:
            u = d.pred[v]
            Hu = d.H + NODE_BLOCK * u
            if d.fused:
                element_matrix(d.m, d.elem[v], d.X, d.V, d.c_m, d.c_k, d.c_c, Mloc)
                M8 = Mloc
                for i in range(NODE):
                    for j in range(NODE):
                        Hu[NODE * i + j] += M8[ELEMENT * i + j]
                        H[NODE * i + j] += M8[ELEMENT * (NODE + i) + NODE + j]
            else:
                M8 = d.Mel + ELEMENT_BLOCK * d.elem[v]
            if _inv4(H, d.Hinv + NODE_BLOCK * v):
                return v + 1
            if d.fused:
                memset(H, 0, NODE_BLOCK * sizeof(double))
            _block(M8, 1, 0, B)     # M21
            for i in range(NODE):
                for j in range(NODE):
                    d.G[NODE_BLOCK * v + NODE * i + j] = 0.0
                    for k in range(NODE):
                        d.G[NODE_BLOCK * v + NODE * i + j] += \
                            d.Hinv[NODE_BLOCK * v + NODE * i + k] * B[NODE * k + j]
            _block(M8, 0, 1, B)     # M12
            for i in range(NODE):
                for j in range(NODE):
                    d.L[NODE_BLOCK * v + NODE * i + j] = 0.0
                    for k in range(NODE):
                        d.L[NODE_BLOCK * v + NODE * i + j] += \
                            B[NODE * i + k] * d.Hinv[NODE_BLOCK * v + NODE * k + j]
                        Hu[NODE * i + j] -= B[NODE * i + k] * d.G[NODE_BLOCK * v + NODE * k + j]
            continue
        nb = d.nb[v]
        eps = d.eps + NODE * d.joff[v]
        chi = d.chi + NODE_BLOCK * v
        HE = d.HE + NODE * d.joff[v]
        EH = d.EH + NODE * d.joff[v]
        Di = d.Dinv + NODE * d.joff[v]
        W = d.W + NODE * d.joff[v]
        memcpy(Ha, H, NODE_BLOCK * sizeof(double))
        if nb:
            for i in range(NODE):
                for k in range(nb):
                    HE[nb * i + k] = 0.0
                    EH[NODE * k + i] = 0.0
                    for j in range(NODE):
                        HE[nb * i + k] += H[NODE * i + j] * eps[nb * j + k]
                        EH[NODE * k + i] += eps[nb * j + k] * H[NODE * j + i]
            for i in range(nb):
                for k in range(nb):
                    Dm[nb * i + k] = 0.0
                    for j in range(NODE):
                        Dm[nb * i + k] += eps[nb * j + i] * HE[nb * j + k]
            _pivot_scale(H, eps, nb, Ds)
            if nb == 1:
                if not fabs(Dm[0]) > 1e-14 * Ds[0] or not isfinite(Dm[0]):
                    return v + 1
                Di[0] = 1.0 / Dm[0]
            elif nb == 2:
                det = Dm[0] * Dm[3] - Dm[1] * Dm[2]
                if (not fabs(det) > 1e-14 * (Ds[0] * Ds[3] + Ds[1] * Ds[2])
                        or not isfinite(det)):
                    return v + 1
                Di[0] = Dm[3] / det
                Di[1] = -Dm[1] / det
                Di[2] = -Dm[2] / det
                Di[3] = Dm[0] / det
            elif _inv3(Dm, Ds, Di):
                return v + 1
            # tmp (4 x nb) = HE Dinv; Ha = H - tmp EH
            for i in range(NODE):
                for k in range(nb):
                    tmp[nb * i + k] = 0.0
                    for j in range(nb):
                        tmp[nb * i + k] += HE[nb * i + j] * Di[nb * j + k]
            for i in range(NODE):
                for j in range(NODE):
                    for k in range(nb):
                        Ha[NODE * i + j] -= tmp[nb * i + k] * EH[NODE * k + j]
        if d.fused:
            memset(H, 0, NODE_BLOCK * sizeof(double))
        pv = d.parent[v]
        if pv < 0:
            continue
        # W = chi^T HE Dinv (4 x nb); T = chi^T - W eps^T; chiTHa = chi^T Ha; H_p += chiTHa chi
        for i in range(NODE):
            for k in range(nb):
                W[nb * i + k] = 0.0
                for j in range(NODE):
                    W[nb * i + k] += chi[NODE * j + i] * tmp[nb * j + k]
            for j in range(NODE):
                d.T[NODE_BLOCK * v + NODE * i + j] = chi[NODE * j + i]
                for k in range(nb):
                    d.T[NODE_BLOCK * v + NODE * i + j] -= \
                        W[nb * i + k] * eps[nb * j + k]
                d.chiTHa[NODE_BLOCK * v + NODE * i + j] = 0.0
                for k in range(NODE):
                    d.chiTHa[NODE_BLOCK * v + NODE * i + j] += chi[NODE * k + i] * Ha[NODE * k + j]
        if _coupled(d, v):
            _couple(d, v, pv, nb)
        for i in range(NODE):
            for j in range(NODE):
                for k in range(NODE):
                    d.H[NODE_BLOCK * pv + NODE * i + j] += \
                        d.chiTHa[NODE_BLOCK * v + NODE * i + k] * chi[NODE * k + j]
    return 0


cdef inline void _gemv4(const double* M, const double* x, double s, double* y) noexcept nogil:
    """y += s M x for a 4 x 4 block M (row-major); x is read once into registers (the blocks and
    vectors all live in the tree's arrays, which the compiler must assume may overlap)."""
    cdef double x0 = x[0], x1 = x[1], x2 = x[2], x3 = x[3]
    cdef int i
    for i in range(NODE):
        y[i] += s * (M[NODE * i] * x0 + M[NODE * i + 1] * x1
                     + M[NODE * i + 2] * x2 + M[NODE * i + 3] * x3)


cdef inline double _row4(const double* m, double x0, double x1, double x2,
                        double x3) noexcept nogil:
    """m . x for a row m (4) of a block, summed as :func:`_gemv4` sums it."""
    return m[0] * x0 + m[1] * x1 + m[2] * x2 + m[3] * x3


cdef void solve(Tree* d, const double* g, bint bias, double* out) noexcept nogil:
    """Accelerations of ``B^T Mel B beta' = B^T f + g`` (f in d.f, reduced in place).

    ``g`` (n_beta, or NULL) adds generalized forces on the rates; ``bias`` includes the joint
    bias accelerations c (off for a pure matrix solve). Node accelerations go to d.A, the
    generalized ones to ``out`` (n_beta).
    """
    cdef int idx, v, pv, i, k, nb, b
    cdef double y4[NODE]
    cdef double z[NODE]
    cdef double r[RATES]
    cdef double eta[RATES]
    cdef double* f
    cdef double* A
    cdef const double* W
    cdef const double* H
    cdef const double* M
    cdef const double* p
    cdef const double* eps
    cdef const double* EH
    cdef const double* Di
    cdef double x0, x1, x2, x3, p0, p1, p2, p3, a0, a1, a2, a3
    # leaves to root
    for idx in range(d.n_v - 1, -1, -1):
        v = d.order[idx]
        f = d.f + NODE * v
        b = d.boff[v]
        if d.code[v] == FREE:
            if g != NULL:
                for i in range(NODE):
                    f[i] += g[b + i]
            _gemv4(d.L + NODE_BLOCK * v, f, -1.0, d.f + NODE * d.pred[v])
            continue
        pv = d.parent[v]
        if pv < 0:
            continue
        _gemv4(d.T + NODE_BLOCK * v, f, 1.0, d.f + NODE * pv)
        if bias:
            _gemv4(d.chiTHa + NODE_BLOCK * v, d.c + NODE * v, -1.0, d.f + NODE * pv)
        if g != NULL:
            nb = d.nb[v]
            W = d.W + NODE * d.joff[v]
            for i in range(NODE):
                for k in range(nb):
                    d.f[NODE * pv + i] -= W[nb * i + k] * g[b + k]
    # root to leaves
    for idx in range(d.n_v):
        v = d.order[idx]
        f = d.f + NODE * v
        A = d.A + NODE * v
        b = d.boff[v]
        if d.code[v] == FREE:
            # A = (0 + Hinv f) - G A_pred, each row summed as _gemv4 sums it, in registers, then
            # stored as pairs to A and out: the next node reads A_pred and the stepping loop
            # reads out soon after, and a load that spans two narrower stores still in flight
            # waits for them to retire
            H = d.Hinv + NODE_BLOCK * v
            M = d.G + NODE_BLOCK * v
            p = d.A + NODE * d.pred[v]
            x0, x1, x2, x3 = f[0], f[1], f[2], f[3]
            p0, p1, p2, p3 = p[0], p[1], p[2], p[3]
            a0 = (0.0 + _row4(H, x0, x1, x2, x3)) - _row4(M, p0, p1, p2, p3)
            a1 = (0.0 + _row4(H + NODE, x0, x1, x2, x3)) - _row4(M + NODE, p0, p1, p2, p3)
            a2 = (0.0 + _row4(H + 2 * NODE, x0, x1, x2, x3)) - _row4(M + 2 * NODE, p0, p1, p2, p3)
            a3 = (0.0 + _row4(H + 3 * NODE, x0, x1, x2, x3)) - _row4(M + 3 * NODE, p0, p1, p2, p3)
            _store4(A, a0, a1, a2, a3)
            _store4(out + b, a0, a1, a2, a3)
            continue
        pv = d.parent[v]
        for i in range(NODE):
            y4[i] = d.c[NODE * v + i] if bias else 0.0
        if pv >= 0:
            _gemv4(d.chi + NODE_BLOCK * v, d.A + NODE * pv, 1.0, y4)
        nb = d.nb[v]
        eps = d.eps + NODE * d.joff[v]
        EH = d.EH + NODE * d.joff[v]
        Di = d.Dinv + NODE * d.joff[v]
        for k in range(nb):
            r[k] = 0.0 if g == NULL else g[b + k]
            for i in range(NODE):
                r[k] += eps[nb * i + k] * f[i] - EH[NODE * k + i] * y4[i]
        if pv >= 0 and _coupled(d, v):
            z[0] = z[1] = z[2] = z[3] = 0.0
            _gemv4(d.E + 3 * NODE_BLOCK * v + NODE_BLOCK, d.A + NODE * pv, 1.0, z)
            for k in range(nb):
                for i in range(NODE):
                    r[k] -= eps[nb * i + k] * z[i]
        for k in range(nb):
            eta[k] = 0.0
            for i in range(nb):
                eta[k] += Di[nb * k + i] * r[i]
            out[b + k] = eta[k]
        for i in range(NODE):
            A[i] = y4[i]
        _add_eps(eps, nb, eta, A)


cdef double drive_power(Tree* d) noexcept nogil:
    """Reactions bh^T (H A - f) of the fixed and driven joints (into d.reaction) and the
    power of the drives (W). Call after :func:`solve` (f holds the reduced forces)."""
    cdef int idx, v, i, k, j
    cdef double z, tau, power = 0.0
    for idx in range(d.n_v):
        v = d.order[idx]
        if d.code[v] == FREE:
            continue
        j = d.joint[v]
        tau = 0.0
        for i in range(NODE):
            z = -d.f[NODE * v + i]
            for k in range(NODE):
                z += d.H[NODE_BLOCK * v + NODE * i + k] * d.A[NODE * v + k]
            tau += d.bh[NODE * v + i] * z
        d.reaction[j] = tau
        if d.m.j_driven[j]:
            power += tau * d.m.drive[3 * j + 1]
    return power


cdef void apply_B(Tree* d, const double* beta, double* V, bint bias,
                  double scale=1.0) noexcept nogil:
    """V = B (scale beta) (n_x) at the last kinematics (root to leaves): node velocities of the
    rates beta without the drives' terms, or, with ``bias``, the node accelerations
    ``A_c = chi A_p + eps beta_c + c`` of the generalized accelerations beta. The rates are
    scaled as they are read (``scale beta`` rounded as a separate product would round it): a
    caller's pass over the rates to scale them first would be one more trip to memory on a
    long chain."""
    cdef int idx, v, pv, i, b, nb
    cdef double* Vv
    cdef const double* eps
    cdef double eta[RATES]
    for idx in range(d.n_v):
        v = d.order[idx]
        b = d.boff[v]
        Vv = V + NODE * v
        if d.code[v] == FREE:
            for i in range(NODE):
                Vv[i] = scale * beta[b + i]
            continue
        pv = d.parent[v]
        nb = d.nb[v]
        eps = d.eps + NODE * d.joff[v]
        for i in range(NODE):
            Vv[i] = d.c[NODE * v + i] if bias else 0.0
        for i in range(nb):
            eta[i] = scale * beta[b + i]
        _add_eps(eps, nb, eta, Vv)
        if pv >= 0:
            _gemv4(d.chi + NODE_BLOCK * v, V + NODE * pv, 1.0, Vv)


cdef void apply_BT(Tree* d, double* F, double* out) noexcept nogil:
    """out = B^T F (n_beta): generalized forces of the node forces F (n_x, overwritten by the
    leaves-to-root accumulation ``F_p += chi^T F_c``) at the last kinematics."""
    cdef int idx, v, pv, i, k, b, nb
    cdef double f0, f1, f2, f3
    cdef const double* chi
    cdef const double* eps
    for idx in range(d.n_v - 1, -1, -1):
        v = d.order[idx]
        b = d.boff[v]
        if d.code[v] == FREE:
            memcpy(out + b, F + NODE * v, NODE * sizeof(double))
            continue
        f0, f1, f2, f3 = F[NODE * v], F[NODE * v + 1], F[NODE * v + 2], F[NODE * v + 3]
        nb = d.nb[v]
        eps = d.eps + NODE * d.joff[v]
        for k in range(nb):
            out[b + k] = (eps[k] * f0 + eps[nb + k] * f1 + eps[2 * nb + k] * f2
                          + eps[3 * nb + k] * f3)
        pv = d.parent[v]
        if pv >= 0:
            chi = d.chi + NODE_BLOCK * v
            for i in range(NODE):
                F[NODE * pv + i] += chi[i] * f0 + chi[NODE + i] * f1 \
                    + chi[2 * NODE + i] * f2 + chi[3 * NODE + i] * f3


cdef void mass_times(Tree* d, const double* a, double* V, double* f, double* out) noexcept nogil:
    """out = Omega a = B^T M B a (n_beta) with work arrays V, f (n_x)."""
    apply_B(d, a, V, False)
    block_mass_times(d.m, V, f)
    apply_BT(d, f, out)


cdef void newton_times(Tree* d, const double* beta, double* V, double* f,
                       double* out) noexcept nogil:
    """out = B^T N B beta (n_beta): the operator that :func:`factorize` eliminates and
    :func:`solve` inverts, at the last kinematics, with work arrays V, f (n_x).

    N is the node-space matrix of d's blocks: every element matrix ``Mel`` (8 x 8) on its two
    vertices, the rigid bodies' diagonals ``Mbody`` and, when ``d.E`` is set, each vertex's own
    block of the moments and efforts and, at a first vertex c whose joint has an effort, the
    couplings with its parent p: ``N_cp`` in c's rows and p's columns, ``N_pc`` in p's rows and
    c's columns (:func:`_couple`)."""
    cdef int s, u, v, i, j, pv
    cdef const double* M8
    cdef const double* Ev
    apply_B(d, beta, V, False)
    memset(f, 0, d.n_x * sizeof(double))
    for s in range(d.m.n_el):
        M8 = d.Mel + ELEMENT_BLOCK * s
        u = NODE * d.m.el_vertices[2 * s]
        v = NODE * d.m.el_vertices[2 * s + 1]
        for i in range(NODE):
            for j in range(NODE):
                f[u + i] += M8[ELEMENT * i + j] * V[u + j] + M8[ELEMENT * i + NODE + j] * V[v + j]
                f[v + i] += M8[ELEMENT * (NODE + i) + j] * V[u + j] \
                    + M8[ELEMENT * (NODE + i) + NODE + j] * V[v + j]
    for i in range(d.n_x):
        f[i] += d.Mbody[i] * V[i]
    if d.E != NULL:
        for v in range(d.n_v):
            Ev = d.E + 3 * NODE_BLOCK * v
            _gemv4(Ev, V + NODE * v, 1.0, f + NODE * v)
            pv = d.parent[v]
            if d.code[v] != FREE and pv >= 0 and _coupled(d, v):
                _gemv4(Ev + NODE_BLOCK, V + NODE * pv, 1.0, f + NODE * v)
                _gemv4(Ev + 2 * NODE_BLOCK, V + NODE * v, 1.0, f + NODE * pv)
    apply_BT(d, f, out)


cdef int evaluate(Tree* d, double t, const double* y, double* F, double* power) noexcept nogil:
    """Inputs at t, kinematics, joint coordinates and the node forces into d.f.

    power[0] receives the power of loads and efforts, power[1] the dissipated power.
    Returns ODE_OK, or ODE_INPUT_RAISED when a Python input raised.
    """
    cdef double U
    cdef const double* beta = y + d.n_x
    if d.callbacks and call_inputs(d.inputs, 0, t):
        return ODE_INPUT_RAISED
    kinematics(d, y, beta)
    if d.need_q:
        joint_coordinates(d.m, d.X, d.V, d.qref, d.q, d.qd)
        memcpy(d.qref, d.q, d.m.n_joints * sizeof(double))
        if d.effort_callbacks and call_inputs(d.inputs, 1, t):
            return ODE_INPUT_RAISED
    power[0] = applied_forces(d.m, d.X, d.V, d.q, d.qd, F, True)
    power[1] = element_forces(d.m, d.X, d.V, F, &U)
    power[1] += spring_forces(d.m, d.X, d.V, d.q, d.qd, F)
    return ODE_OK


cdef void track_joints(Tree* d) noexcept nogil:
    """Joint coordinates at the last evaluation's state; their angles become the branch
    ``qref`` (the stepping loops call it once per accepted step)."""
    joint_coordinates(d.m, d.X, d.V, d.qref, d.q, d.qd)
    memcpy(d.qref, d.q, d.m.n_joints * sizeof(double))


cdef int rhs(Tree* d, double t, const double* y, double* ydot) noexcept nogil:
    """ydot = [V, beta', P_ext, P_diss] for y = [x, beta, W_ext, W_diss] (module docstring).

    Returns an ODEStatus: ODE_OK, ODE_SINGULAR (the generalized mass), ODE_INPUT_RAISED (a
    Python input) or ODE_TURNED_OVER (a held slope, ``d.inverted``).
    """
    cdef double power[2]
    cdef int status = evaluate(d, t, y, d.f, power)
    if status:
        return status
    if d.inverted:
        return ODE_TURNED_OVER
    if not d.constant:
        if factorize(d):
            return ODE_SINGULAR
    solve(d, NULL, True, ydot + d.n_x)
    memcpy(ydot, d.V, d.n_x * sizeof(double))
    ydot[d.n_x + d.n_beta] = power[0] + (drive_power(d) if d.has_drives else 0.0)
    ydot[d.n_x + d.n_beta + 1] = power[1]
    return ODE_OK


cdef class RecursiveKernel(ODEProblem):
    """The kernels' view of a model: constants, tree tables and a preallocated workspace.

    Built once per model by :class:`rancf.formulations.recursive.Recursive` (its ``owner``);
    not thread-safe (the workspace is shared by every call). ``arrays`` keeps every buffer the
    struct points to. It is the recursive formulation's
    :class:`~rancf.formulations._problem.ODEProblem`: the state ``y = [x, beta, W_ext, W_diss]``,
    the right-hand side :func:`rhs`, the branch of the joint angles ``qref``.
    """

    formulation = "recursive"

    def __init__(self, assembly, tables):
        nv, nx, nb = assembly.n_vertices, assembly.n_x, tables["n_beta"]
        self.arrays = model_arrays(assembly)
        bind_model(&self.model, self.arrays)
        self.model.n_v = nv
        self.model.n_el = assembly.n_elements
        self.model.n_joints = assembly.n_joints
        self.model.n_loads = len(assembly.loads)
        self.model.model = assembly.model_code
        nj = max(assembly.n_joints, 1)
        # the first vertices' blocks of their joint rates, packed (Tree.joff)
        nr = NODE * max(tables["n_joint_rates"], 1)
        work = dict(X=nv * NODE, V=nv * NODE, A=nv * NODE, f=nv * NODE, H=nv * NODE_BLOCK,
                    Hinv=nv * NODE_BLOCK, G=nv * NODE_BLOCK, L=nv * NODE_BLOCK, chi=nv * NODE_BLOCK,
                    eps=nr, bh=nv * NODE, c=nv * NODE, HE=nr, EH=nr, Dinv=nr, T=nv * NODE_BLOCK,
                    W=nr, chiTHa=nv * NODE_BLOCK, q=nj, qd=nj, qref=nj, reaction=nj)
        self.arrays.update(pack({**{name: np.zeros(size) for name, size in work.items()},
                                 **{name: np.asarray(tables[name], dtype=np.intc)
                                    for name in ("order", "code", "place", "turn", "pred", "elem",
                                                 "parent", "joint", "boff", "nb", "joff")}}))
        self.arrays["qref"][:assembly.n_joints] = assembly.joint_q0
        self.arrays["Mel"] = self.arrays["el_mass"]
        self.arrays["Mbody"] = self.arrays["body_mass"]
        self._bind()
        self.data.m = &self.model
        self.data.E = NULL
        self.data.n_v = nv
        self.data.n_x = nx
        self.data.n_beta = nb
        self.n_x, self.n_beta, self.n_y = nx, nb, nx + nb + 2
        self.n_branch = nj
        self.data.theta_in = NULL
        self.data.theta_out = NULL
        self.data.need_q = int(any(j.effort is not None for j in assembly.joints)
                               or len(assembly.torsions) > 0)
        self.data.has_drives = int(any(j.driven for j in assembly.joints))
        self.data.constant = 0
        self.data.inverted = 0
        self.data.callbacks = self.data.effort_callbacks = 0

    # --- the ODE contract (rancf.formulations._problem.ODEProblem) ------------------------------
    cdef int rate(self, double t, const double* y, double* ydot) noexcept nogil:
        return rhs(&self.data, t, y, ydot)

    cdef int check(self, const double* y, double bound) noexcept nogil:
        cdef int i
        for i in range(self.n_y):
            if not isfinite(y[i]):
                return ODE_NONFINITE
        for i in range(self.data.n_v):
            if fabs(y[NODE * i]) > bound or fabs(y[NODE * i + 1]) > bound:
                return ODE_UNBOUNDED
        return ODE_OK

    cdef void accept(self) noexcept nogil:
        track_joints(&self.data)

    cdef void keep_branch(self, double* out) noexcept nogil:
        memcpy(out, self.data.qref, self.n_branch * sizeof(double))

    @property
    def keeps_inputs(self):
        """Whether the explicit loop keeps the input functions' values at its outputs
        (:meth:`keep_inputs`): the model has drives, loads of t or effort functions."""
        return self.inputs is not None and bool(self.data.callbacks or self.data.effort_callbacks)

    def failure(self, int status, double t):
        """What a status of :func:`rhs` at time t (s) means, in words."""
        if status == ODE_INPUT_RAISED:
            return f"an input function raised at t = {t:.6g} s: {self.inputs.failure()}"
        if status == ODE_TURNED_OVER:
            return self.inverted_message(t)
        return ODEProblem.failure(self, status, t)

    def stiffness(self, y):
        """The highest natural frequency and fastest decay rate at the state y, in words (by
        the owning formulation's power iteration)."""
        return "" if self.owner is None else self.owner.stiffness(y)

    def observe(self, t, Y, branches, kept=None):
        """Node coordinates and velocities, joint coordinates, rates and reactions, work,
        dissipated energy and the generalized velocities ``beta`` at the outputs (by the owning
        formulation, :meth:`rancf.formulations.recursive.Recursive.observe`), all but the
        state's own deferred to when the Result is asked for them (developer: Results, files and
        sweeps; the input values ``kept`` by the loop played back)."""
        return self.owner.observe(t, Y, branches, deferred=True, kept=kept)

    def frames(self, t, Y, branches, bint held):
        """The model-level arrays of the states Y (n_out, n_y) at the times t (n_out,) in one
        loop: ``(X, V, q, qd, reaction)``, (n_out, n_x) twice and (n_out, n_joints) three
        times. ``branches[i]`` (a row of the joint angles' branch, or None: from output
        i - 1's) picks the branch at output i; the rows the compiled loop kept, an array
        (n_out, n_branch), are copied without a Python call an output. With ``held`` (a
        driven or fixed joint) each output takes the forward dynamics, whose reactions it
        keeps; otherwise a kinematics pass, and the reactions are zero. An input function's
        exception is raised as it was (a Ctrl-C inside it stays a KeyboardInterrupt); a state
        at which another evaluation fails is handed to the owner's
        :meth:`~rancf.formulations.recursive.Recursive.outputs`, which raises what the failure
        means."""
        cdef double[::1] tt = np.ascontiguousarray(t, dtype=float)
        cdef double[:, ::1] YY = np.ascontiguousarray(Y, dtype=float).reshape(-1, self.n_y)
        cdef Py_ssize_t k, n_out = tt.shape[0]
        cdef int nx = self.n_x, nj = self.model.n_joints, status, n_rows = 0
        cdef double[::1] ydot = np.empty(max(self.n_y, 1))
        cdef double[::1] row
        cdef double[:, ::1] rows = None
        X, V = np.empty((n_out, nx)), np.empty((n_out, nx))
        q, qd, reaction = np.empty((n_out, nj)), np.empty((n_out, nj)), np.zeros((n_out, nj))
        cdef double[:, ::1] Xv = X, Vv = V, qv = q, qdv = qd, rv = reaction
        if isinstance(branches, np.ndarray) and branches.ndim == 2 and len(branches) == n_out:
            rows = np.ascontiguousarray(branches, dtype=float)
            n_rows = min(<int>rows.shape[1], nj)
        for k in range(n_out):
            if rows is not None:
                if n_rows:
                    memcpy(self.data.qref, &rows[k, 0], n_rows * sizeof(double))
            elif branches is not None and branches[k] is not None and len(branches[k]):
                row = np.ascontiguousarray(branches[k], dtype=float)
                memcpy(self.data.qref, &row[0], min(<int>row.shape[0], nj) * sizeof(double))
            if held:
                with nogil:
                    status = rhs(&self.data, tt[k], &YY[k, 0], &ydot[0])
            elif self.data.callbacks and call_inputs(self.data.inputs, 0, tt[k]):
                status = ODE_INPUT_RAISED
            else:
                with nogil:
                    kinematics(&self.data, &YY[k, 0], &YY[k, 0] + nx)
                status = ODE_OK
            if status == ODE_INPUT_RAISED and self.inputs.error is not None:
                # the input's own exception, as it was raised: evaluated again, a Ctrl-C that
                # arrived inside the function would be gone
                raise self.inputs.error
            if status != ODE_OK:
                self.owner.outputs(tt[k], np.asarray(YY[k]))
                raise RuntimeError(f"output {k}: status {status} at t = {tt[k]:.6g} s")
            with nogil:
                track_joints(&self.data)
                if held:
                    drive_power(&self.data)
                    memcpy(&rv[k, 0], self.data.reaction, nj * sizeof(double))
                memcpy(&Xv[k, 0], self.data.X, nx * sizeof(double))
                memcpy(&Vv[k, 0], self.data.V, nx * sizeof(double))
                memcpy(&qv[k, 0], self.data.q, nj * sizeof(double))
                memcpy(&qdv[k, 0], self.data.qd, nj * sizeof(double))
        return X, V, q, qd, reaction

    def set_inputs(self, inputs):
        """The object whose ``at_time(t)`` and ``efforts(t)`` write the model's Python inputs
        into ``arrays`` (:class:`rancf.formulations.inputs.Inputs`); kept alive here."""
        self.inputs = inputs
        self.data.inputs = <void*>inputs
        self.data.callbacks = int(inputs.time_dependent)
        self.data.effort_callbacks = int(inputs.effort_dependent)

    cdef void _bind(self):
        a = self.arrays
        cdef Tree* d = &self.data
        d.order = <const int*>cnp.PyArray_DATA(a["order"])
        d.code = <const int*>cnp.PyArray_DATA(a["code"])
        d.place = <const int*>cnp.PyArray_DATA(a["place"])
        d.turn = <const int*>cnp.PyArray_DATA(a["turn"])
        d.pred = <const int*>cnp.PyArray_DATA(a["pred"])
        d.elem = <const int*>cnp.PyArray_DATA(a["elem"])
        d.parent = <const int*>cnp.PyArray_DATA(a["parent"])
        d.joint = <const int*>cnp.PyArray_DATA(a["joint"])
        d.boff = <const int*>cnp.PyArray_DATA(a["boff"])
        d.nb = <const int*>cnp.PyArray_DATA(a["nb"])
        d.joff = <const int*>cnp.PyArray_DATA(a["joff"])
        d.X = <double*>cnp.PyArray_DATA(a["X"])
        d.V = <double*>cnp.PyArray_DATA(a["V"])
        d.chi = <double*>cnp.PyArray_DATA(a["chi"])
        d.eps = <double*>cnp.PyArray_DATA(a["eps"])
        d.bh = <double*>cnp.PyArray_DATA(a["bh"])
        d.c = <double*>cnp.PyArray_DATA(a["c"])
        bind_factors(d, a)
        d.q = <double*>cnp.PyArray_DATA(a["q"])
        d.qd = <double*>cnp.PyArray_DATA(a["qd"])
        d.qref = <double*>cnp.PyArray_DATA(a["qref"])
        d.reaction = <double*>cnp.PyArray_DATA(a["reaction"])

    def set_constant(self, bint constant):
        """Factor the generalized mass now and keep it (chi and eps constant), or refactor at
        every evaluation. Returns 0, or vertex + 1 if it is singular."""
        cdef int status = 0
        if constant:
            with nogil:
                status = factorize(&self.data)
        self.data.constant = constant and status == 0
        return status

    def rhs(self, double t, cnp.ndarray y, cnp.ndarray ydot):
        """ydot = f(t, y) (n_y,); returns the status (0, 3 singular mass, 5 input error, 7 a
        held slope turned over)."""
        cdef int status
        cdef double* yp
        cdef double* yd
        y = checked("y", y, self.n_y, finite=False)
        ydot = checked("ydot", ydot, self.n_y, output=True)
        yp = <double*>cnp.PyArray_DATA(y)
        yd = <double*>cnp.PyArray_DATA(ydot)
        with nogil:
            status = rhs(&self.data, t, yp, yd)
        return status

    def kinematics(self, double t, cnp.ndarray y, bint joints=True):
        """Inputs at t and the root-to-leaves pass at y; the rebuilt coordinates and velocities
        are in ``arrays['X']``, ``arrays['V']`` and, if ``joints``, the joint coordinates in
        ``arrays['q']``, ``arrays['qd']``. Returns ODE_OK or ODE_INPUT_RAISED."""
        cdef double* yp
        y = checked("y", y, self.n_y, finite=False)
        yp = <double*>cnp.PyArray_DATA(y)
        if self.data.callbacks and call_inputs(self.data.inputs, 0, t):
            return ODE_INPUT_RAISED
        with nogil:
            kinematics(&self.data, yp, yp + self.n_x)
            if joints:
                joint_coordinates(self.data.m, self.data.X, self.data.V, self.data.qref,
                                  self.data.q, self.data.qd)
                memcpy(self.data.qref, self.data.q, self.data.m.n_joints * sizeof(double))
        return ODE_OK

    def inverted_message(self, double t):
        """What it means that a held slope turned over at the last kinematics, at time t (s)
        (status 7), and what to change; None if none did."""
        if not self.data.inverted:
            return None
        j = self.data.joint[self.data.inverted - 1]
        return (f"the slope held by joint {j} turned over at t = {t:.6g} s: its length passed "
                "through zero (the "
                "beam's first element compressed to nothing), which no beam model describes; "
                "the beam is too soft for its load (stiffen it or refine it near the joint), or "
                "the step too large")

    def joint_coordinates(self):
        """Joint coordinates at the last kinematics into ``arrays['q']``, ``arrays['qd']`` (the
        angles on the branch nearest ``arrays['qref']``, which then follows them)."""
        track_joints(&self.data)

    def factorize(self):
        """Factor B^T Mel B at the last kinematics; 0 or vertex + 1 if singular."""
        cdef int status
        with nogil:
            status = factorize(&self.data)
        return status

    def solve(self, cnp.ndarray f, cnp.ndarray g, bint bias, cnp.ndarray out):
        """Solve with the last factorization: node forces f (n_x, copied), generalized forces g
        (n_beta) and the bias c if asked; generalized accelerations into ``out`` (n_beta), node
        accelerations in ``arrays['A']``."""
        cdef double* gp = NULL
        cdef double* op
        f = checked("f", f, self.n_x, finite=False)
        g = checked("g", g, self.n_beta, finite=False)
        out = checked("out", out, self.n_beta, output=True)
        self.arrays["f"][:] = f
        if self.n_beta:
            gp = <double*>cnp.PyArray_DATA(g)
        op = <double*>cnp.PyArray_DATA(out)
        with nogil:
            solve(&self.data, gp, bias, op)

    def transpose(self, cnp.ndarray f, cnp.ndarray out):
        """out = B^T f (n_beta): generalized forces of the node forces f (n_x) at the last
        kinematics."""
        cdef double[::1] F
        f = checked("f", f, self.n_x, finite=False)
        out = checked("out", out, self.n_beta, output=True)
        F = f.copy()
        apply_BT(&self.data, &F[0], <double*>cnp.PyArray_DATA(out))

    def velocities(self, cnp.ndarray beta, cnp.ndarray out):
        """out = B beta (n_x): node velocities of the rates beta at the last kinematics, without
        the drives' terms."""
        beta = checked("beta", beta, self.n_beta, finite=False)
        out = checked("out", out, self.n_x, output=True)
        apply_B(&self.data, <const double*>cnp.PyArray_DATA(beta), <double*>cnp.PyArray_DATA(out), False)

    def mass_action(self, cnp.ndarray a, cnp.ndarray out):
        """out = Omega a = B^T M B a (n_beta,): the generalized mass times rates a (no matrix
        formed)."""
        cdef double[::1] V = np.empty(self.n_x)
        cdef double[::1] f = np.empty(self.n_x)
        a = checked("a", a, self.n_beta, finite=False)
        out = checked("out", out, self.n_beta, output=True)
        mass_times(&self.data, <const double*>cnp.PyArray_DATA(a), &V[0], &f[0],
                   <double*>cnp.PyArray_DATA(out))

    def set_element_matrices(self, cnp.ndarray Mel):
        """Factor with these element matrices (n_el x 64) instead of the mass (None: the mass)."""
        if Mel is None:
            self.arrays["Mel"] = self.arrays["el_mass"]
        else:
            if not (Mel.dtype == np.float64 and Mel.flags.c_contiguous
                    and Mel.size == self.arrays["el_mass"].size):
                raise ValueError("Mel must be a C-contiguous float64 array of the element mass shape")
            self.arrays["Mel"] = Mel
        self.data.Mel = <const double*>cnp.PyArray_DATA(self.arrays["Mel"])

    def reactions(self):
        """Reactions of the fixed and driven joints after a solve (n_joints,) and the drives'
        power (W)."""
        power = drive_power(&self.data)
        return self.arrays["reaction"][:self.model.n_joints].copy(), power
