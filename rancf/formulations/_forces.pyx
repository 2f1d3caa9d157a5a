"""Generalized forces of a model in absolute coordinates (theory: Loads), shared by the
recursive and the DAE formulations.

Coordinates ``x`` (4 per vertex: a beam node ``[r, r']`` or a rigid body ``[r_G, u]``) and
their rates ``v``, laid out as :class:`rancf.model.Assembly` describes. The kernels:

``attachment``
    position and direction of a joint or load point and their rates: a ground point
    ``(g, (cos a, sin a))``, a beam node ``(r, r')``, a body point ``(r_G + A(d) u, u)``, a
    point at an arc length (``P_ARC``, offset ``(xi, l)``) in the element ``e = [r_k, r'_k,
    r_k+1, r'_k+1]`` of vertices k, k + 1 its centreline ``(S(xi) e, S_x(xi) e)`` with the
    cubic Hermite functions S and their x-derivatives (rancf/elements/_hermite.pxd). A point
    force f there does the virtual work ``f . S delta e``: its generalized force is ``S^T f``;
    a moment m turns the centreline's direction d = S_x e: ``m S_x^T J d / |d|^2``.
``joint_coordinates``
    q and qd of every joint: the relative angle ``atan2(p x c, p . c)`` unwrapped to the branch
    nearest ``qref`` (an ``ANGLE`` coordinate) or the slide ``(r_c - r_a) . a`` along the rail
    ``a = R(axis) p / |p|`` (a ``SLIDE``; the joint kinds' primitives, rancf.joints.kind).
``applied_forces``
    gravity, point forces (on positions), moments ``M J d / |d|^2`` on the direction ``d`` of
    the point (``delta theta = (d x delta d) / |d|^2``), joint efforts (angle: ``+tau J c/|c|^2``
    on the child's direction, ``-tau J p/|p|^2`` on the parent's; slide: ``+f a`` on the
    child's point, ``-f a`` on the parent's); returns their power (W).
``element_forces``
    ``-(F_K + F_D)`` of every beam element; returns the dissipated power (W).
``spring_forces``
    the spring-dampers: ``f n`` on a spring's first point and ``-f n`` on its second,
    ``f = k (l - l0) + c l'``; the torsion ``tau = -k (q - q0) - c q'`` in a revolute joint as
    an effort; returns their dissipated power ``c l'^2 + c q'^2`` (W). Internal forces: their
    potential is elastic energy, not work (theory: The energy balance).
``load_tangents``
    the Newton blocks ``-(c_k dQ/dx + c_c dQ/dv)`` of the moments, joint efforts and
    spring-dampers Q.
"""
cimport numpy as cnp
from libc.math cimport sqrt, cos, sin
from libc.string cimport memset

import numpy as np

from rancf.elements._beam cimport (beam_force, beam_tangent, gather, DIM, NODE, ELEMENT,
                                   NODE_BLOCK, ELEMENT_BLOCK, SHAPES)
from rancf.elements._planar cimport (body_point, direction, joint_angle, point_map,
                                     point_map_transposed,
                                     rotate, wrap)
from rancf.utilities.workspace import pack

# the coordinates of a joint's child and parent vertex (load_tangents), typed as NODE is
cdef extern from *:
    """
    #define RANCF_FORCES_PAIR (2 * RANCF_BEAM_NODE)
    """
    const long PAIR "RANCF_FORCES_PAIR"

cnp.import_array()


cdef inline void _arc_shapes(const double* offset, double* S, double* Sx) noexcept nogil:
    """The cubic Hermite functions S_k (S2, S4 in m) and their derivatives dS_k/dx (1/m on
    S1, S3) at a point at an arc length, offset ``(xi, l)`` (rancf/elements/_hermite.pxd)."""
    cdef double xi = offset[0], l = offset[1]
    S[0] = 1.0 - 3.0 * xi * xi + 2.0 * xi * xi * xi
    S[1] = l * (xi - 2.0 * xi * xi + xi * xi * xi)
    S[2] = 3.0 * xi * xi - 2.0 * xi * xi * xi
    S[3] = l * (xi * xi * xi - xi * xi)
    Sx[0] = (-6.0 * xi + 6.0 * xi * xi) / l
    Sx[1] = 1.0 - 4.0 * xi + 3.0 * xi * xi
    Sx[2] = (6.0 * xi - 6.0 * xi * xi) / l
    Sx[3] = 3.0 * xi * xi - 2.0 * xi


cdef inline void _arc_point(const double* offset, const double* X, double* r,
                            double* p) noexcept nogil:
    """r = S e, p = S_x e of the element whose coordinates e start at X (two consecutive
    vertices: ``[r_k, r'_k, r_k+1, r'_k+1]``)."""
    cdef double S[SHAPES]
    cdef double Sx[SHAPES]
    cdef int i
    _arc_shapes(offset, S, Sx)
    r[0] = r[1] = p[0] = p[1] = 0.0
    for i in range(SHAPES):
        r[0] += S[i] * X[2 * i]
        r[1] += S[i] * X[2 * i + 1]
        p[0] += Sx[i] * X[2 * i]
        p[1] += Sx[i] * X[2 * i + 1]


cdef inline void _vertex_point(int kind, const double* offset, const double* X, double* r,
                               double* p) noexcept nogil:
    """r and p of a point on a node (its position and slope), a rigid body (its point at
    ``offset``, p the body's direction) or an arc (:func:`_arc_point`), from the coordinates
    starting at X: linear in them, so of their rates the same map gives the rates."""
    if kind == P_ARC:
        _arc_point(offset, X, r, p)
        return
    p[0] = X[2]
    p[1] = X[3]
    if kind == P_NODE:
        r[0] = X[0]
        r[1] = X[1]
    else:
        body_point(X, offset, r)


cdef void attachment(const ModelData* d, int kind, int vertex, const double* offset, double angle,
                     const double* x, const double* v, double* r, double* p, double* vr,
                     double* vp) noexcept nogil:
    """Position r, direction p and their rates vr, vp of a point (rates skipped if v is NULL)."""
    if kind == P_GROUND:
        r[0] = offset[0]
        r[1] = offset[1]
        direction(angle, p)
        if v != NULL:
            vr[0] = vr[1] = vp[0] = vp[1] = 0.0
        return
    # linear in the coordinates: the rates are the same map of the velocities
    _vertex_point(kind, offset, x + NODE * vertex, r, p)
    if v != NULL:
        _vertex_point(kind, offset, v + NODE * vertex, vr, vp)


cdef void _rail(const ModelData* d, int j, const double* p, double* a) noexcept nogil:
    """Unit rail direction a = R(axis) p / |p|."""
    cdef double rho = sqrt(p[0] * p[0] + p[1] * p[1])
    cdef double w[2]
    w[0] = p[0] / rho
    w[1] = p[1] / rho
    rotate(d.j_axis[j], w, a)


cdef void joint_coordinates(const ModelData* d, const double* x, const double* v,
                            const double* qref, double* q, double* qd) noexcept nogil:
    """q, qd (n_joints) of every joint at (x, v); angles on the branch nearest qref (a driven
    joint's: nearest its drive's q at the current time)."""
    cdef double ra[2]
    cdef double p[2]
    cdef double va[2]
    cdef double vp[2]
    cdef double rc[2]
    cdef double c[2]
    cdef double vc[2]
    cdef double vcc[2]
    cdef double a[2]
    cdef double da[2]
    cdef double w[2]
    cdef double raw, rho2, pv, ref
    cdef int j
    for j in range(d.n_joints):
        attachment(d, d.p_kind[j], d.p_vertex[j], d.p_offset + 2 * j, d.p_angle[j], x, v,
                   ra, p, va, vp)
        attachment(d, d.c_kind[j], d.c_vertex[j], d.c_offset + 2 * j, 0.0, x, v, rc, c, vc, vcc)
        if d.j_coordinate[j] == SLIDE:
            _rail(d, j, p, a)
            q[j] = (rc[0] - ra[0]) * a[0] + (rc[1] - ra[1]) * a[1]
            # a' = R(axis) (p' - p (p.p')/|p|^2) / |p|
            rho2 = p[0] * p[0] + p[1] * p[1]
            pv = (p[0] * vp[0] + p[1] * vp[1]) / rho2
            raw = sqrt(rho2)
            w[0] = (vp[0] - p[0] * pv) / raw
            w[1] = (vp[1] - p[1] * pv) / raw
            rotate(d.j_axis[j], w, da)
            qd[j] = ((vc[0] - va[0]) * a[0] + (vc[1] - va[1]) * a[1]
                     + (rc[0] - ra[0]) * da[0] + (rc[1] - ra[1]) * da[1])
        else:
            # a driven joint's branch is its drive's (which may turn by more than pi in a step)
            ref = d.drive[3 * j] if d.j_driven[j] else qref[j]
            q[j] = ref + wrap(joint_angle(p, c) - ref)
            qd[j] = ((c[0] * vcc[1] - c[1] * vcc[0]) / (c[0] * c[0] + c[1] * c[1])
                     - (p[0] * vp[1] - p[1] * vp[0]) / (p[0] * p[0] + p[1] * p[1]))


cdef inline void _add_at(const double* x, double* F, int kind, int vertex, const double* offset,
                         double fx, double fy) noexcept nogil:
    """Generalized force of the point force (fx, fy) at a point: [f; A(d)^T f] on a body,
    ``S(xi)^T f`` on the element of a point at an arc length."""
    cdef double f[2]
    cdef double g[2]
    cdef double S[SHAPES]
    cdef double Sx[SHAPES]
    cdef int i
    if kind == P_GROUND:
        return
    if kind == P_ARC:
        _arc_shapes(offset, S, Sx)
        for i in range(SHAPES):
            F[NODE * vertex + 2 * i] += S[i] * fx
            F[NODE * vertex + 2 * i + 1] += S[i] * fy
        return
    F[NODE * vertex] += fx
    F[NODE * vertex + 1] += fy
    if kind == P_BODY:
        f[0] = fx
        f[1] = fy
        point_map_transposed(offset, f, g)
        F[NODE * vertex + 2] += g[0]
        F[NODE * vertex + 3] += g[1]


cdef inline void _add_moment(const double* x, double* F, int kind, int vertex,
                             const double* offset, double m) noexcept nogil:
    """A moment m on the direction coordinates d of a vertex: m J d / |d|^2; at an arc length
    on the centreline's direction d = S_x e: ``m S_x^T J d / |d|^2``."""
    cdef const double* dd
    cdef double n2
    cdef double S[SHAPES]
    cdef double Sx[SHAPES]
    cdef double r[2]
    cdef double p[2]
    cdef int i
    if kind == P_GROUND:
        return
    if kind == P_ARC:
        _arc_point(offset, x + NODE * vertex, r, p)
        n2 = p[0] * p[0] + p[1] * p[1]
        _arc_shapes(offset, S, Sx)
        for i in range(SHAPES):
            F[NODE * vertex + 2 * i] += -m * Sx[i] * p[1] / n2
            F[NODE * vertex + 2 * i + 1] += m * Sx[i] * p[0] / n2
        return
    dd = x + NODE * vertex + 2
    n2 = dd[0] * dd[0] + dd[1] * dd[1]
    F[NODE * vertex + 2] += -m * dd[1] / n2
    F[NODE * vertex + 3] += m * dd[0] / n2


cdef double applied_forces(const ModelData* d, const double* x, const double* v,
                           const double* q, const double* qd, double* F,
                           bint assign=False) noexcept nogil:
    """F += gravity, loads and efforts at (x, v); returns the power of loads and efforts (W).
    Where ``assign``, F (n_x) is first set to zero: F = gravity + loads + efforts, in the one
    pass over F that adds gravity (a caller's memset would be a second pass over n_x).

    Gravity is a potential: its power is not counted (theory: The energy balance). ``d.gravity``
    may be NULL (no gravity added).
    """
    cdef int i, j, k
    cdef double r[2]
    cdef double p[2]
    cdef double vr[2]
    cdef double vp[2]
    cdef double c[2]
    cdef double a[2]
    cdef double power = 0.0, tau, fx, fy, mz, s = d.load_factor
    if d.gravity != NULL and assign:
        for i in range(NODE * d.n_v):
            F[i] = 0.0 + s * d.gravity[i]
    elif d.gravity != NULL:
        for i in range(NODE * d.n_v):
            F[i] += s * d.gravity[i]
    elif assign:
        memset(F, 0, NODE * d.n_v * sizeof(double))
    for k in range(d.n_loads):
        attachment(d, d.l_kind[k], d.l_vertex[k], d.l_offset + 2 * k, 0.0, x, v, r, p, vr, vp)
        fx = s * d.load_force[2 * k]
        fy = s * d.load_force[2 * k + 1]
        mz = s * d.load_moment[k]
        _add_at(x, F, d.l_kind[k], d.l_vertex[k], d.l_offset + 2 * k, fx, fy)
        _add_moment(x, F, d.l_kind[k], d.l_vertex[k], d.l_offset + 2 * k, mz)
        power += fx * vr[0] + fy * vr[1]
        power += mz * (p[0] * vp[1] - p[1] * vp[0]) / (p[0] * p[0] + p[1] * p[1])
    for j in range(d.n_joints):
        if not d.j_has_effort[j]:
            continue
        tau = s * d.effort[j]
        power += tau * qd[j]
        if d.j_coordinate[j] == SLIDE:
            attachment(d, d.p_kind[j], d.p_vertex[j], d.p_offset + 2 * j, d.p_angle[j], x, NULL,
                       r, p, vr, vp)
            _rail(d, j, p, a)
            _add_at(x, F, d.c_kind[j], d.c_vertex[j], d.c_offset + 2 * j, tau * a[0], tau * a[1])
            _add_at(x, F, d.p_kind[j], d.p_vertex[j], d.p_offset + 2 * j, -tau * a[0], -tau * a[1])
        else:
            _add_moment(x, F, d.c_kind[j], d.c_vertex[j], d.c_offset + 2 * j, tau)
            _add_moment(x, F, d.p_kind[j], d.p_vertex[j], d.p_offset + 2 * j, -tau)
    return power


cdef double element_forces(const ModelData* d, const double* x, const double* v, double* F,
                           double* U) noexcept nogil:
    """F -= F_K + F_D of every element; U = total strain energy (J); returns 2 D (W)."""
    cdef double e[ELEMENT]
    cdef double ed[ELEMENT]
    cdef double f[ELEMENT]
    cdef double diss, power = 0.0, energy = 0.0
    cdef const double* k
    cdef int s, i, a, b
    for s in range(d.n_el):
        a = NODE * d.el_vertices[2 * s]
        b = NODE * d.el_vertices[2 * s + 1]
        k = d.el_kinds + KIND_WIDTH * d.el_kind[s]      # length, EA, EI, damping
        gather(x, d.el_vertices + 2 * s, e)
        if k[3] != 0.0:
            gather(v, d.el_vertices + 2 * s, ed)
        diss = 0.0
        energy += beam_force(d.model, e, ed, k[0], k[1], k[2], k[3], f, &diss)
        power += diss
        for i in range(NODE):
            F[a + i] -= f[i]
            F[b + i] -= f[NODE + i]
    U[0] = energy
    return power


cdef inline void _spring_line(const ModelData* d, int k, const double* x, const double* v,
                              double* n, double* l, double* ldot, double* w) noexcept nogil:
    """Unit vector n from spring k's first point to its second, their distance l (m), its
    rate l' (m/s) and the relative velocity w = v_2 - v_1 (v may be NULL: l' = 0)."""
    cdef double r1[2]
    cdef double r2[2]
    cdef double p[2]
    cdef double v1[2]
    cdef double v2[2]
    cdef const double* o = d.s_offset + 2 * DIM * k     # the two points' offsets
    attachment(d, d.s_kind[2 * k], d.s_vertex[2 * k], o, 0.0, x, v, r1, p, v1, p)
    attachment(d, d.s_kind[2 * k + 1], d.s_vertex[2 * k + 1], o + DIM, 0.0, x, v, r2, p, v2, p)
    n[0] = r2[0] - r1[0]
    n[1] = r2[1] - r1[1]
    l[0] = sqrt(n[0] * n[0] + n[1] * n[1])
    n[0] /= l[0]
    n[1] /= l[0]
    if v == NULL:
        w[0] = w[1] = ldot[0] = 0.0
        return
    w[0] = v2[0] - v1[0]
    w[1] = v2[1] - v1[1]
    ldot[0] = n[0] * w[0] + n[1] * w[1]


cdef inline bint two_ended(const ModelData* d, int k) noexcept nogil:
    """Whether spring-damper k couples two vertices: neither point on the ground, or a point
    at an arc length (on the two nodes of its element). Its Newton blocks are then
    ``D^T K D`` (:func:`spring_tangents`), not an own block of one vertex."""
    return ((d.s_kind[2 * k] != P_GROUND and d.s_kind[2 * k + 1] != P_GROUND)
            or d.s_kind[2 * k] == P_ARC or d.s_kind[2 * k + 1] == P_ARC)


cdef void _spring_tangent(const ModelData* d, int k, const double* x, const double* v,
                          double c_k, double c_c, double* K) noexcept nogil:
    """K (2 x 2, row-major) = ``c_k G + c_c c n n^T``: spring-damper k's Newton block in the
    relative position ``r_2 - r_1`` of its points (:func:`load_tangents`)."""
    cdef double n[2]
    cdef double wr[2]
    cdef double z[2]
    cdef double ln, ldot, fs, nw
    cdef const double* law = d.s_law + 3 * k
    cdef int i, l
    _spring_line(d, k, x, v, n, &ln, &ldot, wr)
    fs = law[0] * (ln - law[2]) + law[1] * ldot
    # w^T (I - n n^T) / l
    nw = n[0] * wr[0] + n[1] * wr[1]
    z[0] = (wr[0] - nw * n[0]) / ln
    z[1] = (wr[1] - nw * n[1]) / ln
    for i in range(2):
        for l in range(2):
            K[2 * i + l] = (c_k * (law[0] * n[i] * n[l] + fs / ln * ((i == l) - n[i] * n[l])
                                   + law[1] * n[i] * z[l])
                            + c_c * law[1] * n[i] * n[l])


cdef void spring_tangents(const ModelData* d, const double* x, const double* v, double c_k,
                          double c_c, double* K) noexcept nogil:
    """K (4 per spring-damper, 2 x 2 row-major) = ``c_k G + c_c c n n^T`` of every
    spring-damper at (x, v) (:func:`load_tangents` gives G): its Newton matrix in the node
    coordinates is ``D^T K D``, D (2 x n_x) the map of x to its points' relative position
    ``r_2 - r_1`` (:func:`spring_map_transposed`), constant in x."""
    cdef int k
    for k in range(d.n_springs):
        _spring_tangent(d, k, x, v, c_k, c_c, K + SPRING_BLOCK * k)


cdef void spring_map_transposed(const ModelData* d, int k, const double* a,
                                double* F) noexcept nogil:
    """F (n_x) += D^T a: the generalized force of the point forces ``-a`` on spring-damper k's
    first point and ``+a`` on its second (D of :func:`spring_tangents`)."""
    cdef const double* o = d.s_offset + 2 * DIM * k
    _add_at(NULL, F, d.s_kind[2 * k], d.s_vertex[2 * k], o, -a[0], -a[1])
    _add_at(NULL, F, d.s_kind[2 * k + 1], d.s_vertex[2 * k + 1], o + DIM, a[0], a[1])


cdef double spring_forces(const ModelData* d, const double* x, const double* v, const double* q,
                          const double* qd, double* F) noexcept nogil:
    """F += the forces of the spring-dampers at (x, v) and joint coordinates (q, qd); returns
    the power they dissipate (W). Not scaled by the load factor: they are internal forces."""
    cdef double n[2]
    cdef double w[2]
    cdef double l, ldot, f, tau, power = 0.0
    cdef const double* law
    cdef const double* o
    cdef int k, j
    for k in range(d.n_springs):
        law = d.s_law + 3 * k
        _spring_line(d, k, x, v, n, &l, &ldot, w)
        f = law[0] * (l - law[2]) + law[1] * ldot
        power += law[1] * ldot * ldot
        o = d.s_offset + 2 * DIM * k
        _add_at(x, F, d.s_kind[2 * k], d.s_vertex[2 * k], o, f * n[0], f * n[1])
        _add_at(x, F, d.s_kind[2 * k + 1], d.s_vertex[2 * k + 1], o + DIM, -f * n[0], -f * n[1])
    for j in range(d.n_joints):
        law = d.t_law + 3 * j
        if law[0] == 0.0 and law[1] == 0.0:
            continue
        tau = -law[0] * (q[j] - law[2]) - law[1] * qd[j]
        power += law[1] * qd[j] * qd[j]
        _add_moment(x, F, d.c_kind[j], d.c_vertex[j], d.c_offset + 2 * j, tau)
        _add_moment(x, F, d.p_kind[j], d.p_vertex[j], d.p_offset + 2 * j, -tau)
    return power


cdef void element_matrix(const ModelData* d, int s, const double* x, const double* v, double c_m,
                         double c_k, double c_c, double* o) noexcept nogil:
    """o (8 x 8, row-major) = c_m M_s + c_k K_s + c_c C_s of element s, with its tangent
    K_s = d(F_K + F_D)/de and damping matrix C_s = dF_D/dedot at (x, v).

    M_s is read as ``kron(m, I2)`` (m in ``d.el_kinds``, 16 numbers; :func:`mass_times`):
    the same numbers as ``el_mass``, a quarter of its memory. The recursive formulation's
    block elimination calls it element by element as it meets them (rancf/formulations/
    _recursive.pyx ``eliminate``), so that a long chain's element matrices are never written
    to memory and read back."""
    cdef double e[ELEMENT]
    cdef double ed[ELEMENT]
    cdef double K[ELEMENT_BLOCK]
    cdef double C[ELEMENT_BLOCK]
    cdef const double* m
    cdef int i, j, row, col
    cdef double mass, zero = c_m * 0.0
    gather(x, d.el_vertices + 2 * s, e)
    gather(v, d.el_vertices + 2 * s, ed)
    if c_k != 0.0 or c_c != 0.0:
        beam_tangent(d.model, e, ed, d.el_length[s], d.el_EA[s], d.el_EI[s], d.el_damping[s],
                     K, C)
    m = d.el_kinds + KIND_WIDTH * d.el_kind[s] + KIND_MASS
    # el_mass[DIM row + i, DIM col + j] = m[row, col] where i == j, else 0 (times c_m: zero)
    for row in range(SHAPES):
        for col in range(SHAPES):
            mass = c_m * m[SHAPES * row + col]
            for i in range(DIM):
                for j in range(DIM):
                    o[ELEMENT * (DIM * row + i) + DIM * col + j] = mass if i == j else zero
    if c_k != 0.0:
        for i in range(ELEMENT_BLOCK):
            o[i] += c_k * K[i]
    if c_c != 0.0:
        for i in range(ELEMENT_BLOCK):
            o[i] += c_c * C[i]


cdef void element_matrices(const ModelData* d, const double* x, const double* v, double c_m,
                           double c_k, double c_c, double* out) noexcept nogil:
    """out[s] = :func:`element_matrix` of every element s (n_el x 64)."""
    cdef int s
    for s in range(d.n_el):
        element_matrix(d, s, x, v, c_m, c_k, c_c, out + ELEMENT_BLOCK * s)


cdef inline void _angle_curvature(const double* dd, double sign, double* g,
                                  double* H) noexcept nogil:
    """The gradient g (2) and Hessian H (2 x 2) of ``sign`` times the angle of a direction d:
    ``g = sign J d / |d|^2``, ``H = sign [[2 d_x d_y, d_y^2 - d_x^2], [d_y^2 - d_x^2,
    -2 d_x d_y]] / |d|^4``."""
    cdef double n2 = dd[0] * dd[0] + dd[1] * dd[1]
    cdef double s = sign / (n2 * n2)
    g[0] = -sign * dd[1] / n2
    g[1] = sign * dd[0] / n2
    H[0] = 2.0 * s * dd[0] * dd[1]
    H[1] = H[2] = s * (dd[1] * dd[1] - dd[0] * dd[0])
    H[3] = -H[0]


cdef inline void _point_rows(int kind, const double* offset, const double* a, double sign,
                             double* f) noexcept nogil:
    """f (4) = sign P^T a: the generalized force of the point force ``sign a`` at a node
    (``[a; 0]``) or a body point d (``[a; A(d)^T a]``)."""
    f[0] = sign * a[0]
    f[1] = sign * a[1]
    f[2] = f[3] = 0.0
    if kind == P_BODY:
        point_map_transposed(offset, a, f + 2)
        f[2] = sign * f[2]
        f[3] = sign * f[3]


cdef inline void _arc_moment_blocks(const double* offset, const double* X, double scale,
                                    double* E) noexcept nogil:
    """E (the blocks of vertex k, then k + 1 at ``E + 3 NODE_BLOCK``) += scale ``S_x^T H S_x``
    on each of the two nodes' own coordinates, H the Hessian of the angle of the centreline's
    direction d = S_x e at a point at an arc length (offset (xi, l), the element's
    coordinates from X). The blocks coupling the two nodes do not fit the per-vertex layout
    and are left out: Newton's matrix of a moment between nodes is approximate (the
    iteration still converges to the same residual, in a few more steps)."""
    cdef double S[SHAPES]
    cdef double Sx[SHAPES]
    cdef double r[2]
    cdef double p[2]
    cdef double g[2]
    cdef double H[4]
    cdef int a, i, l, c, e
    _arc_shapes(offset, S, Sx)
    _arc_point(offset, X, r, p)
    _angle_curvature(p, 1.0, g, H)
    for a in range(2):
        for i in range(2):
            for l in range(2):
                for c in range(2):
                    for e in range(2):
                        E[3 * NODE_BLOCK * a + NODE * (DIM * i + c) + DIM * l + e] += (
                            scale * Sx[2 * a + i] * Sx[2 * a + l] * H[2 * c + e])


cdef void load_tangents(const ModelData* d, const double* x, const double* v,
                        const double* q, const double* qd, const double* tau_q,
                        const double* tau_qd, double c_k, double c_c, double* E) noexcept nogil:
    """E (48 per vertex) = the Newton blocks ``-(c_k dQ/dx + c_c dQ/dv)`` of the moments and
    joint efforts Q of :func:`applied_forces` at (x, v), the efforts' values in ``d.effort``
    and their derivatives ``tau_q = dtau/dq``, ``tau_qd = dtau/dqd`` (n_joints, zero for a
    constant effort), all scaled by the load factor; and of the spring-dampers of
    :func:`spring_forces` at the joint coordinates (q, qd) (not scaled).

    A torsion spring-damper is an effort ``tau = -k (q - q0) - c qd`` with ``tau_q = -k``,
    ``tau_qd = -c``: its blocks are the effort's below, exact. A spring-damper between points
    has ``d(f n)/dr_2 = -d(f n)/dr_1 = G = k n n^T + (f / l) (I - n n^T) + c n w^T (I - n n^T)
    / l`` (w the points' relative velocity) and ``d(f n)/dw = c n n^T``: a spring to the
    ground gets the own block ``P^T (c_k G + c_c c n n^T) P`` of its point (P the point's map,
    constant in x), exact. A spring-damper between two vertices couples them, which this block
    layout cannot hold: it is left out here whole, and its blocks come from
    :func:`spring_tangents` (the recursion adds them as a low-rank term, the dense
    :meth:`ForceKernel.load_blocks` as ``D^T K D``).

    Layout: ``E[48 k : 48 k + 16]`` is vertex k's own 4 x 4 block; for a joint with an effort,
    its child vertex c (one joint per child vertex: a tree) holds the coupling with the parent
    vertex, ``E[48 c + 16 :]`` child rows x parent columns and ``E[48 c + 32 :]`` parent rows x
    child columns (row-major). Gravity and point forces are constant in x: no block.

    A moment m on a direction d is ``m g``, ``g = J d / |d|^2`` the gradient of its angle: its
    block is ``-c_k m H`` (H the Hessian of the angle). An effort is ``tau(q, qd) f`` with the
    coordinates' f of the joint (angle: ``J c/|c|^2`` on the child's direction, ``-J p/|p|^2``
    on the parent's, which is ``g = dq/dx``; slide: ``[P_c^T a; -P_p^T a]`` on the points,
    a = R(axis) p/|p| the rail, equal to dq/dx where the joint holds, as the recursion's x
    does). With ``qd = g . v``: ``-(c_k tau_q + c_c tau_qd) f g^T - c_k tau_qd f (dqd/dx)^T
    - c_k tau df/dx``; angle: ``dqd/dx = H v``, ``df/dx = H`` (block diagonal, child and
    parent); slide: ``df/dx`` the turning of the rail with p, ``(I - ph ph^T)/|p|`` rotated,
    and ``dqd/dx`` on the points and on p (the rail turns with p)."""
    cdef double f[PAIR]
    cdef double w[PAIR]
    cdef double col[PAIR]
    cdef double G[PAIR * PAIR]
    cdef double H[4]
    cdef double a[2]
    cdef double z[2]
    cdef double ra[2]
    cdef double p[2]
    cdef double va[2]
    cdef double vp[2]
    cdef double rc[2]
    cdef double dc[2]
    cdef double vc[2]
    cdef double vdc[2]
    cdef double Da[4]
    cdef double rho, ph0, ph1, ca, sa, m, tau, cg, cw, qv, s = d.load_factor
    cdef double wr[2]
    cdef double K[4]
    cdef const double* law
    cdef const double* o
    cdef int k, j, i, l, c, pv, end
    cdef bint ground, torsion
    memset(E, 0, 3 * NODE_BLOCK * d.n_v * sizeof(double))
    for k in range(d.n_springs):
        if two_ended(d, k):
            continue
        _spring_tangent(d, k, x, v, c_k, c_c, K)
        for end in range(2):
            if d.s_kind[2 * k + end] == P_GROUND:
                continue
            c = d.s_vertex[2 * k + end]
            o = d.s_offset + 2 * DIM * k + DIM * end
            # columns P^T K P: the point rows of each column of K P
            for l in range(2):
                a[0], a[1] = K[l], K[2 + l]
                _point_rows(d.s_kind[2 * k + end], o, a, 1.0, col)
                for i in range(NODE):
                    E[3 * NODE_BLOCK * c + NODE * i + l] += col[i]
            if d.s_kind[2 * k + end] == P_BODY:
                for l in range(2):
                    # the body point's columns on u: column l of A(d)
                    wr[0], wr[1] = float(l == 0), float(l == 1)
                    point_map(o, wr, z)
                    a[0] = K[0] * z[0] + K[1] * z[1]
                    a[1] = K[2] * z[0] + K[3] * z[1]
                    _point_rows(d.s_kind[2 * k + end], o, a, 1.0, col)
                    for i in range(NODE):
                        E[3 * NODE_BLOCK * c + NODE * i + DIM + l] += col[i]
    for k in range(d.n_loads):
        m = s * d.load_moment[k]
        if d.l_kind[k] == P_GROUND or m == 0.0:
            continue
        c = d.l_vertex[k]
        if d.l_kind[k] == P_ARC:
            _arc_moment_blocks(d.l_offset + 2 * k, x + NODE * c, -c_k * m, E + 3 * NODE_BLOCK * c)
            continue
        _angle_curvature(x + NODE * c + 2, 1.0, a, H)
        for i in range(2):
            for l in range(2):
                E[3 * NODE_BLOCK * c + NODE * (DIM + i) + DIM + l] -= c_k * m * H[2 * i + l]
    for j in range(d.n_joints):
        law = d.t_law + 3 * j
        torsion = law[0] != 0.0 or law[1] != 0.0
        if not d.j_has_effort[j] and not torsion:
            continue
        tau = s * d.effort[j]
        if torsion:
            tau += -law[0] * (q[j] - law[2]) - law[1] * qd[j]
        c, pv = d.c_vertex[j], d.p_vertex[j]
        ground = d.p_kind[j] == P_GROUND
        memset(f, 0, PAIR * sizeof(double))
        memset(w, 0, PAIR * sizeof(double))
        memset(G, 0, PAIR * PAIR * sizeof(double))
        if d.j_coordinate[j] == SLIDE:
            attachment(d, d.p_kind[j], pv, d.p_offset + 2 * j, d.p_angle[j], x, v, ra, p, va, vp)
            attachment(d, d.c_kind[j], c, d.c_offset + 2 * j, 0.0, x, v, rc, dc, vc, vdc)
            _rail(d, j, p, a)
            _point_rows(d.c_kind[j], d.c_offset + 2 * j, a, 1.0, f)
            if not ground:
                _point_rows(d.p_kind[j], d.p_offset + 2 * j, a, -1.0, f + NODE)
                # the rail a = R(axis) p/|p| turns with p: da/dp = R(axis) (I - ph ph^T)/|p|
                rho = sqrt(p[0] * p[0] + p[1] * p[1])
                ph0, ph1 = p[0] / rho, p[1] / rho
                ca, sa = cos(d.j_axis[j]), sin(d.j_axis[j])
                Da[0] = (ca * (1.0 - ph0 * ph0) + sa * ph0 * ph1) / rho
                Da[1] = (-ca * ph0 * ph1 - sa * (1.0 - ph1 * ph1)) / rho
                Da[2] = (sa * (1.0 - ph0 * ph0) - ca * ph0 * ph1) / rho
                Da[3] = (-sa * ph0 * ph1 + ca * (1.0 - ph1 * ph1)) / rho
                for l in range(2):          # df/dp, column by column
                    z[0], z[1] = Da[l], Da[2 + l]
                    _point_rows(d.c_kind[j], d.c_offset + 2 * j, z, tau, col)
                    _point_rows(d.p_kind[j], d.p_offset + 2 * j, z, -tau, col + NODE)
                    for i in range(PAIR):
                        G[PAIR * i + NODE + DIM + l] = col[i]
                # qd = (v_c - v_a) . a + (r_c - r_a) . a', a' = Da p': dqd/dx on the points
                # (+-P^T a') and on p (Da^T (v_c - v_a) - q Da^T a', using a . a = 1)
                z[0] = Da[0] * vp[0] + Da[1] * vp[1]
                z[1] = Da[2] * vp[0] + Da[3] * vp[1]
                _point_rows(d.c_kind[j], d.c_offset + 2 * j, z, 1.0, w)
                _point_rows(d.p_kind[j], d.p_offset + 2 * j, z, -1.0, w + NODE)
                qv = (rc[0] - ra[0]) * a[0] + (rc[1] - ra[1]) * a[1]
                z[0] = vc[0] - va[0] - qv * z[0]
                z[1] = vc[1] - va[1] - qv * z[1]
                w[NODE + DIM] += Da[0] * z[0] + Da[2] * z[1]
                w[NODE + DIM + 1] += Da[1] * z[0] + Da[3] * z[1]
        else:
            _angle_curvature(x + NODE * c + 2, 1.0, f + 2, H)
            w[2] = H[0] * v[NODE * c + 2] + H[1] * v[NODE * c + 3]
            w[3] = H[2] * v[NODE * c + 2] + H[3] * v[NODE * c + 3]
            for i in range(2):
                for l in range(2):
                    G[PAIR * (DIM + i) + DIM + l] = tau * H[2 * i + l]
            if not ground:
                _angle_curvature(x + NODE * pv + 2, -1.0, f + NODE + DIM, H)
                w[NODE + DIM] = H[0] * v[NODE * pv + 2] + H[1] * v[NODE * pv + 3]
                w[NODE + DIM + 1] = H[2] * v[NODE * pv + 2] + H[3] * v[NODE * pv + 3]
                for i in range(2):
                    for l in range(2):
                        G[PAIR * (NODE + DIM + i) + NODE + DIM + l] = tau * H[2 * i + l]
        cg = c_k * s * tau_q[j] + c_c * s * tau_qd[j]
        cw = c_k * s * tau_qd[j]
        if torsion:     # its slopes -k, -c
            cg -= c_k * law[0] + c_c * law[1]
            cw -= c_k * law[1]
        for i in range(PAIR):
            for l in range(PAIR):
                G[PAIR * i + l] = -(cg * f[i] * f[l] + cw * f[i] * w[l] + c_k * G[PAIR * i + l])
        for i in range(NODE):
            for l in range(NODE):
                E[3 * NODE_BLOCK * c + NODE * i + l] += G[PAIR * i + l]
                if not ground:
                    E[3 * NODE_BLOCK * pv + NODE * i + l] += G[PAIR * (NODE + i) + NODE + l]
                    E[3 * NODE_BLOCK * c + NODE_BLOCK + NODE * i + l] += G[PAIR * i + NODE + l]
                    E[3 * NODE_BLOCK * c + 2 * NODE_BLOCK + NODE * i + l] += G[PAIR * (NODE + i) + l]


cdef void mass_times(const ModelData* d, const double* a, double* out) noexcept nogil:
    """out = M a (n_x): the model's block mass matrix (element mass matrices on their two
    vertices, ``diag(m, m, I_G, I_G)`` on a rigid body) times a.

    An element mass matrix is ``kron(m, I2)`` (``S = [s_k I2]``; :func:`bind_model` checks it),
    so ``m`` (16 numbers, in the element's row of ``d.el_kinds``) acts on the x and the y
    components alike: 32 multiplications an element instead of 64. The product is memory-bound
    on long chains: m is read from the table of distinct elements (one int an element; a row
    shared by a chain's equal elements stays in cache), not from 16 numbers an element."""
    cdef const double* M
    cdef const double* au
    cdef const double* av
    cdef double* ou
    cdef double* ov
    cdef double sx, sy
    cdef int s, i, k
    memset(out, 0, NODE * d.n_v * sizeof(double))
    for s in range(d.n_el):
        M = d.el_kinds + KIND_WIDTH * d.el_kind[s] + KIND_MASS
        au = a + NODE * d.el_vertices[2 * s]
        av = a + NODE * d.el_vertices[2 * s + 1]
        ou = out + NODE * d.el_vertices[2 * s]
        ov = out + NODE * d.el_vertices[2 * s + 1]
        # shape k of the element: node A's position (0) and slope (1), node B's (2, 3)
        for k in range(SHAPES):
            sx = (M[SHAPES * k] * au[0] + M[SHAPES * k + 1] * au[2] + M[SHAPES * k + 2] * av[0]
                  + M[SHAPES * k + 3] * av[2])
            sy = (M[SHAPES * k] * au[1] + M[SHAPES * k + 1] * au[3] + M[SHAPES * k + 2] * av[1]
                  + M[SHAPES * k + 3] * av[3])
            if k < 2:
                ou[DIM * k] += sx
                ou[DIM * k + 1] += sy
            else:
                ov[DIM * k - NODE] += sx
                ov[DIM * k - NODE + 1] += sy
    if d.body_mass != NULL:
        for i in range(NODE * d.n_v):
            out[i] += d.body_mass[i] * a[i]


cdef void powers(const ModelData* d, const double* x, const double* v, const double* qd,
                 double* scratch, double* p) noexcept nogil:
    """p[0] = the power of loads and efforts, p[1] = the power dissipated by the damped elements
    and the spring-dampers (W), at (x, v), without assembling the forces of undamped elements
    (scratch: n_x)."""
    cdef ModelData e = d[0]
    cdef double el[ELEMENT]
    cdef double ed[ELEMENT]
    cdef double f[ELEMENT]
    cdef double n[2]
    cdef double w[2]
    cdef double diss, l, ldot
    cdef int s, k
    e.gravity = NULL
    memset(scratch, 0, NODE * d.n_v * sizeof(double))
    p[0] = applied_forces(&e, x, v, NULL, qd, scratch)
    p[1] = 0.0
    for s in range(d.n_el):
        if d.el_damping[s] == 0.0:
            continue
        gather(x, d.el_vertices + 2 * s, el)
        gather(v, d.el_vertices + 2 * s, ed)
        diss = 0.0
        beam_force(d.model, el, ed, d.el_length[s], d.el_EA[s], d.el_EI[s], d.el_damping[s], f,
                   &diss)
        p[1] += diss
    for k in range(d.n_springs):
        if d.s_law[3 * k + 1] != 0.0:
            _spring_line(d, k, x, v, n, &l, &ldot, w)
            p[1] += d.s_law[3 * k + 1] * ldot * ldot
    for k in range(d.n_joints):
        if d.t_law[3 * k + 1] != 0.0:
            p[1] += d.t_law[3 * k + 1] * qd[k] * qd[k]


def checked(str name, object a, Py_ssize_t size, bint finite=True, bint output=False):
    """The array a kernel may take a pointer to, from what Python passed as ``name``: a
    C-contiguous float64 array of shape (size,). The one check of every array that crosses
    from Python into a compiled kernel (once per call; the kernels trust it).

    An input (``output=False``) is converted from any array_like (a copy only where needed) and
    must be finite if ``finite``; an output must already be such an array, writable (the kernel
    writes into it). ``TypeError``/``ValueError`` naming ``name``, the expected and the given
    shape otherwise. Stepping loops pass ``finite=False``: a non-finite state there only makes
    the results non-finite, which they report as a divergence.
    """
    if output:
        if not (isinstance(a, np.ndarray) and a.dtype == np.float64 and a.flags.c_contiguous
                and a.flags.writeable and a.shape == (size,)):
            got = (f"{a.dtype} array of shape {a.shape}" if isinstance(a, np.ndarray)
                   else type(a).__name__)
            raise ValueError(f"{name} must be a writable C-contiguous float64 array of shape "
                             f"({size},), got a {got}")
        return a
    try:
        arr = np.ascontiguousarray(a, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be an array of {size} real numbers, got "
                        f"{type(a).__name__}") from None
    if arr.shape != (size,):
        raise ValueError(f"{name} must have shape ({size},), got {arr.shape}")
    if finite and not np.isfinite(arr).all():
        raise ValueError(f"{name} must be finite, got {np.count_nonzero(~np.isfinite(arr))} "
                         "non-finite entries")
    # a model's frozen arrays are read-only and the kernels' memoryviews take writable
    # buffers: such an input is copied (the kernels never write into their inputs)
    return arr if arr.flags.writeable else arr.copy()


cdef inline void* _ptr(dict arrays, str name, object dtype) except NULL:
    """Data pointer of arrays[name], which must be C-contiguous of ``dtype`` and non-empty."""
    cdef cnp.ndarray a = arrays[name]
    if a.dtype != dtype or not a.flags.c_contiguous or a.size == 0:
        raise ValueError(f"kernel array {name!r} must be a non-empty C-contiguous {dtype} array")
    return cnp.PyArray_DATA(a)


cdef void bind_model(ModelData* d, dict a) except *:
    """Point the fields of ``d`` at the arrays of ``a`` (see :func:`model_arrays`); ``a`` must
    outlive ``d``. The load factor starts at 1."""
    d.load_factor = 1.0
    d.el_vertices = <const int*>_ptr(a, "el_vertices", np.intc)
    d.el_length = <const double*>_ptr(a, "el_length", np.float64)
    d.el_EA = <const double*>_ptr(a, "el_EA", np.float64)
    d.el_EI = <const double*>_ptr(a, "el_EI", np.float64)
    d.el_damping = <const double*>_ptr(a, "el_damping", np.float64)
    M = a["el_mass"].reshape(-1, SHAPES, DIM, SHAPES, DIM)
    if not (np.all(M[:, :, 0, :, 1] == 0.0) and np.all(M[:, :, 1, :, 0] == 0.0)
            and np.all(M[:, :, 0, :, 0] == M[:, :, 1, :, 1])):
        raise ValueError("element mass matrices must be kron(m, I2) (mass_times relies on it)")
    d.el_mass = <const double*>_ptr(a, "el_mass", np.float64)
    d.el_kind = <const int*>_ptr(a, "el_kind", np.intc)
    d.el_kinds = <const double*>_ptr(a, "el_kinds", np.float64)
    d.gravity = <const double*>_ptr(a, "gravity", np.float64)
    d.body_mass = <const double*>_ptr(a, "body_mass", np.float64)
    if not np.any(a["body_mass"]):
        # no rigid body: mass_times skips their diagonals (a pass over n_x zeros)
        d.body_mass = NULL
    d.j_coordinate = <const int*>_ptr(a, "j_coordinate", np.intc)
    d.j_direction = <const int*>_ptr(a, "j_direction", np.intc)
    d.j_driven = <const int*>_ptr(a, "j_driven", np.intc)
    d.j_has_effort = <const int*>_ptr(a, "j_has_effort", np.intc)
    d.p_kind = <const int*>_ptr(a, "p_kind", np.intc)
    d.p_vertex = <const int*>_ptr(a, "p_vertex", np.intc)
    d.p_offset = <const double*>_ptr(a, "p_offset", np.float64)
    d.p_angle = <const double*>_ptr(a, "p_angle", np.float64)
    d.c_kind = <const int*>_ptr(a, "c_kind", np.intc)
    d.c_vertex = <const int*>_ptr(a, "c_vertex", np.intc)
    d.c_offset = <const double*>_ptr(a, "c_offset", np.float64)
    d.j_axis = <const double*>_ptr(a, "j_axis", np.float64)
    d.j_theta0 = <const double*>_ptr(a, "j_theta0", np.float64)
    d.l_kind = <const int*>_ptr(a, "l_kind", np.intc)
    d.l_vertex = <const int*>_ptr(a, "l_vertex", np.intc)
    d.l_offset = <const double*>_ptr(a, "l_offset", np.float64)
    d.drive = <double*>_ptr(a, "drive", np.float64)
    d.effort = <double*>_ptr(a, "effort", np.float64)
    d.load_force = <double*>_ptr(a, "load_force", np.float64)
    d.load_moment = <double*>_ptr(a, "load_moment", np.float64)
    d.n_springs = (<const int*>_ptr(a, "s_count", np.intc))[0]
    d.s_kind = <const int*>_ptr(a, "s_kind", np.intc)
    d.s_vertex = <const int*>_ptr(a, "s_vertex", np.intc)
    d.s_offset = <const double*>_ptr(a, "s_offset", np.float64)
    d.s_law = <const double*>_ptr(a, "s_law", np.float64)
    d.t_law = <const double*>_ptr(a, "t_law", np.float64)


def _distinct_rows(rows):
    """The distinct rows of ``rows`` (n, w) in their first order and each row's index among
    them (n,). A chain's equal elements come in runs: only the first row of each run is
    looked up (np.unique along an axis sorts all the rows, as bytes: slow on long chains)."""
    n = rows.shape[0]
    starts = np.flatnonzero(np.concatenate([[True], (rows[1:] != rows[:-1]).any(axis=1)])) \
        if n else np.zeros(0, dtype=np.intp)
    seen, of_run = {}, np.empty(starts.size, dtype=np.intp)
    for r, i in enumerate(starts):
        of_run[r] = seen.setdefault(rows[i].tobytes(), len(seen))
    first = np.empty(len(seen), dtype=np.intp)
    first[of_run[::-1]] = starts[::-1]
    kind = np.repeat(of_run, np.diff(np.append(starts, n)))
    return rows[first], kind


def model_arrays(assembly):
    """The kernel arrays of an :class:`rancf.model.Assembly` (constants and input buffers).

    Every array is C-contiguous and has at least one entry (padded), so the kernels can take
    pointers to them; the counts in :class:`ModelData` say how many entries are used. They are
    views of one buffer (:func:`rancf.utilities.workspace.pack`: huge pages on long chains).
    """
    A = assembly
    pad = lambda arr, dtype, width=1: np.ascontiguousarray(
        np.concatenate([np.asarray(arr, dtype=dtype).reshape(-1, width),
                        np.zeros((1, width), dtype=dtype)]).reshape(-1) if np.size(arr) == 0
        else np.asarray(arr, dtype=dtype).reshape(-1), dtype=dtype)
    nj, nl = A.n_joints, len(A.loads)
    constant_effort = np.array([j.effort if (j.effort is not None and not callable(j.effort))
                                else 0.0 for j in A.joints], dtype=float)
    forces = np.array([[0.0, 0.0] if callable(l.force) else l.force for l in A.loads]).reshape(-1, 2)
    moments = np.array([0.0 if callable(l.moment) else l.moment for l in A.loads], dtype=float)
    drive = np.zeros((max(nj, 1), 3))
    drive[:nj, 0] = A.joint_q0
    # torsion spring-dampers by joint; several on one joint add up to one with the summed k and
    # c and the k-weighted rest angle (the same torque)
    torsion = np.zeros((max(nj, 1), 3))
    np.add.at(torsion[:, 0], A.torsion_joint, A.torsion_k)
    np.add.at(torsion[:, 1], A.torsion_joint, A.torsion_c)
    np.add.at(torsion[:, 2], A.torsion_joint, A.torsion_k * A.torsion_rest)
    torsion[:, 2] = np.divide(torsion[:, 2], torsion[:, 0], out=np.zeros(len(torsion)),
                              where=torsion[:, 0] != 0.0)
    springs = np.column_stack([A.spring_k, A.spring_c, A.spring_rest])
    # the elements' distinct constants (ModelData.el_kinds) and each element's row
    kron = np.reshape(A.element_mass, (-1, SHAPES, DIM, SHAPES, DIM))[:, :, 0, :, 0]
    rows = np.column_stack([np.reshape(c, (-1, 1)) for c in (A.element_length, A.element_EA,
                                                            A.element_EI, A.element_damping)]
                           + [kron.reshape(-1, SHAPES * SHAPES)]).astype(np.float64)
    if rows.shape[1] != KIND_WIDTH:
        raise AssertionError(f"element kind rows of {rows.shape[1]} numbers, not {KIND_WIDTH}")
    kinds, kind = _distinct_rows(rows)
    return pack({
        "el_vertices": pad(A.element_vertices, np.intc, 2),
        "el_length": pad(A.element_length, np.float64), "el_EA": pad(A.element_EA, np.float64),
        "el_EI": pad(A.element_EI, np.float64), "el_damping": pad(A.element_damping, np.float64),
        "el_mass": pad(A.element_mass, np.float64, ELEMENT_BLOCK),
        "el_kind": pad(np.reshape(kind, -1), np.intc),
        "el_kinds": pad(kinds, np.float64, KIND_WIDTH),
        "gravity": pad(A.gravity_force, np.float64), "body_mass": pad(A.body_mass_diagonal, np.float64),
        "j_coordinate": pad(A.joint_coordinate, np.intc),
        "j_direction": pad(A.joint_direction, np.intc), "j_driven": pad(A.joint_driven, np.intc),
        "j_has_effort": pad([j.effort is not None for j in A.joints], np.intc),
        "p_kind": pad(A.parent_kind, np.intc), "p_vertex": pad(A.parent_vertex, np.intc),
        "p_offset": pad(A.parent_offset, np.float64, 2), "p_angle": pad(A.parent_angle, np.float64),
        "c_kind": pad(A.child_kind, np.intc), "c_vertex": pad(A.child_vertex, np.intc),
        "c_offset": pad(A.child_offset, np.float64, 2),
        "j_axis": pad(A.joint_axis, np.float64), "j_theta0": pad(A.joint_theta0, np.float64),
        "l_kind": pad(A.load_kind, np.intc), "l_vertex": pad(A.load_vertex, np.intc),
        "l_offset": pad(A.load_offset, np.float64, 2),
        "drive": np.ascontiguousarray(drive.reshape(-1)),
        "effort": pad(constant_effort, np.float64),
        "load_force": pad(forces, np.float64, 2), "load_moment": pad(moments, np.float64),
        "s_count": np.array([len(A.springs)], dtype=np.intc),
        "s_kind": pad(A.spring_kind, np.intc, 2), "s_vertex": pad(A.spring_vertex, np.intc, 2),
        "s_offset": pad(A.spring_offset, np.float64, 2 * DIM),
        "s_law": pad(springs, np.float64, 3),
        "t_law": np.ascontiguousarray(torsion.reshape(-1)),
    })


cdef class ForceKernel:
    """The force kernels on a model's arrays (for the DAE and the implicit recursive problem).

    Inputs that vary in time (drive values, efforts, load values) live in ``arrays`` under
    ``drive``, ``effort``, ``load_force``, ``load_moment`` and are read at every call.
    """

    def __init__(self, assembly):
        self.arrays = model_arrays(assembly)
        bind_model(&self.data, self.arrays)
        self.data.n_v = assembly.n_vertices
        self.data.n_el = assembly.n_elements
        self.data.n_joints = assembly.n_joints
        self.data.n_loads = len(assembly.loads)
        self.data.model = assembly.model_code
        self.n_x = assembly.n_x

    def set_load_factor(self, double s):
        """Scale gravity, loads and efforts by s (statics' load stepping; 1 by default)."""
        self.data.load_factor = s

    def joint_coordinates(self, cnp.ndarray x, cnp.ndarray v, cnp.ndarray qref,
                          cnp.ndarray q, cnp.ndarray qd):
        """q, qd (n_joints,) at (x, v), angles on the branch nearest qref."""
        nj = max(self.data.n_joints, 1)
        x, v = checked("x", x, self.n_x), checked("v", v, self.n_x)
        qref = checked("qref", qref, nj)
        q, qd = checked("q", q, nj, output=True), checked("qd", qd, nj, output=True)
        joint_coordinates(&self.data, <double*>cnp.PyArray_DATA(x), <double*>cnp.PyArray_DATA(v),
                          <double*>cnp.PyArray_DATA(qref), <double*>cnp.PyArray_DATA(q),
                          <double*>cnp.PyArray_DATA(qd))

    def forces(self, cnp.ndarray x, cnp.ndarray v, cnp.ndarray qd, cnp.ndarray F, q=None):
        """F = applied + internal forces (n_x,) at (x, v) and joint coordinates (q, qd) (q only
        read by torsion spring-dampers; None: zeros); returns (U of the elements, load power,
        dissipation)."""
        cdef double U = 0.0, p_load, p_diss
        x, v = checked("x", x, self.n_x), checked("v", v, self.n_x)
        nj = max(self.data.n_joints, 1)
        q = checked("q", np.zeros(nj) if q is None else q, nj)
        qd = checked("qd", qd, nj)
        F = checked("F", F, self.n_x, output=True)
        F[:] = 0.0
        p_load = applied_forces(&self.data, <double*>cnp.PyArray_DATA(x),
                                <double*>cnp.PyArray_DATA(v), NULL, <double*>cnp.PyArray_DATA(qd),
                                <double*>cnp.PyArray_DATA(F))
        p_diss = element_forces(&self.data, <double*>cnp.PyArray_DATA(x),
                                <double*>cnp.PyArray_DATA(v), <double*>cnp.PyArray_DATA(F), &U)
        p_diss += spring_forces(&self.data, <double*>cnp.PyArray_DATA(x),
                                <double*>cnp.PyArray_DATA(v), <double*>cnp.PyArray_DATA(q),
                                <double*>cnp.PyArray_DATA(qd), <double*>cnp.PyArray_DATA(F))
        return U, p_load, p_diss

    def power(self, cnp.ndarray x, cnp.ndarray v, cnp.ndarray qd):
        """``(P_load, P_diss)`` (W) at (x, v): the power of loads and efforts and the power
        dissipated by the damped elements, without assembling any force of the undamped ones."""
        cdef double p[2]
        cdef double[::1] scratch = np.empty(self.n_x)
        x, v = checked("x", x, self.n_x), checked("v", v, self.n_x)
        qd = checked("qd", qd, max(self.data.n_joints, 1))
        powers(&self.data, <const double*>cnp.PyArray_DATA(x), <const double*>cnp.PyArray_DATA(v),
               <const double*>cnp.PyArray_DATA(qd), &scratch[0], p)
        return p[0], p[1]

    def loads(self, cnp.ndarray x, cnp.ndarray v, cnp.ndarray qd, cnp.ndarray F):
        """F = loads and efforts (n_x,) at (x, v), without gravity and element forces."""
        cdef ModelData d = self.data
        x, v = checked("x", x, self.n_x), checked("v", v, self.n_x)
        qd = checked("qd", qd, max(self.data.n_joints, 1))
        F = checked("F", F, self.n_x, output=True)
        F[:] = 0.0
        d.gravity = NULL
        applied_forces(&d, <double*>cnp.PyArray_DATA(x), <double*>cnp.PyArray_DATA(v), NULL,
                       <double*>cnp.PyArray_DATA(qd), <double*>cnp.PyArray_DATA(F))

    def element_blocks(self, cnp.ndarray x, cnp.ndarray v, double c_m, double c_k, double c_c,
                       double[:, ::1] out):
        """out[s] = c_m M_s + c_k K_s + c_c C_s (n_el, 64) at (x, v) (exact element tangents)."""
        x, v = checked("x", x, self.n_x), checked("v", v, self.n_x)
        if out.shape[0] != self.data.n_el or out.shape[1] != ELEMENT_BLOCK:
            raise ValueError(f"out must have shape ({self.data.n_el}, {ELEMENT_BLOCK})")
        element_matrices(&self.data, <const double*>cnp.PyArray_DATA(x),
                         <const double*>cnp.PyArray_DATA(v), c_m, c_k, c_c, &out[0, 0])

    def load_blocks(self, cnp.ndarray x, cnp.ndarray v, tau_q, tau_qd, double c_k, double c_c,
                    q=None, qd=None):
        """``-(c_k dQ/dx + c_c dQ/dv)`` (n_x, n_x), dense, of the moments, efforts and
        spring-dampers Q at (x, v) and joint coordinates (q, qd) (:func:`load_tangents`, and
        :func:`spring_tangents` for the spring-dampers between two vertices: the
        efforts' values in ``arrays['effort']``, their derivatives ``tau_q``, ``tau_qd``
        (n_joints,); a tree's joints, one per child vertex; q, qd None: zeros)."""
        cdef double[::1] K = np.zeros(SPRING_BLOCK * max(self.data.n_springs, 1))
        cdef double[::1] Dt = np.zeros(self.n_x)
        cdef double e[2]
        nj, nv = max(self.data.n_joints, 1), self.data.n_v
        x, v = checked("x", x, self.n_x), checked("v", v, self.n_x)
        q = checked("q", np.zeros(nj) if q is None else q, nj)
        qd = checked("qd", np.zeros(nj) if qd is None else qd, nj)
        tq, tqd = checked("tau_q", tau_q, nj), checked("tau_qd", tau_qd, nj)
        E = np.zeros((nv, 3 * NODE_BLOCK))
        load_tangents(&self.data, <const double*>cnp.PyArray_DATA(x),
                      <const double*>cnp.PyArray_DATA(v), <const double*>cnp.PyArray_DATA(q),
                      <const double*>cnp.PyArray_DATA(qd), <const double*>cnp.PyArray_DATA(tq),
                      <const double*>cnp.PyArray_DATA(tqd), c_k, c_c,
                      <double*>cnp.PyArray_DATA(E))
        out = np.zeros((self.n_x, self.n_x))
        for k in range(nv):
            out[NODE * k:NODE * k + NODE, NODE * k:NODE * k + NODE] = \
                E[k, :NODE_BLOCK].reshape(NODE, NODE)
        a = self.arrays
        for j in range(self.data.n_joints):
            c, p = a["c_vertex"][j], a["p_vertex"][j]
            torsion = a["t_law"][3 * j] != 0.0 or a["t_law"][3 * j + 1] != 0.0
            if (a["j_has_effort"][j] or torsion) and a["p_kind"][j] != P_GROUND:
                out[NODE * c:NODE * c + NODE, NODE * p:NODE * p + NODE] = \
                    E[c, NODE_BLOCK:2 * NODE_BLOCK].reshape(NODE, NODE)
                out[NODE * p:NODE * p + NODE, NODE * c:NODE * c + NODE] = \
                    E[c, 2 * NODE_BLOCK:].reshape(NODE, NODE)
        spring_tangents(&self.data, <const double*>cnp.PyArray_DATA(x),
                        <const double*>cnp.PyArray_DATA(v), c_k, c_c, &K[0])
        for k in range(self.data.n_springs):
            if not two_ended(&self.data, k):
                continue
            D = np.zeros((2, self.n_x))
            for i in range(2):
                e[0], e[1] = float(i == 0), float(i == 1)
                Dt[:] = 0.0
                spring_map_transposed(&self.data, k, e, &Dt[0])
                D[i] = Dt
            out += D.T @ np.asarray(K)[SPRING_BLOCK * k:SPRING_BLOCK * (k + 1)].reshape(2, 2) @ D
        return out
