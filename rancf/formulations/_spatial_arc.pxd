# A load at a point between two nodes of a spatial beam (``beam.at(s)``) as the wrenches on the
# two nodes that do its virtual work (theory: Loads between the nodes of a spatial beam), shared
# by the spatial recursion's forces and its power (_spatial.pyx, _spatial_energy.pyx) and the
# spatial DAE (through _spatial.arc_point_wrenches).
from libc.math cimport sqrt

from rancf.elements._rotation cimport (cross, dot, expm, left_jacobian, left_jacobian_inverse,
                                       left_jacobian_rate, logm, matTmul, matTvec, matvec)


cdef inline void arc_local(const double* p, const double* d, double xi,
                           double* L) noexcept nogil:
    """L = J_l(xi p) xi J_l(p)^-1 d: the point at xi of an element whose second node is at d
    (m) in the first node's frame, turned by p (rad) from it (its constant-strain SE(3)
    curve; rancf.results.outputs._arc_local)."""
    cdef double J[9]
    cdef double w[3]
    cdef double z[3]
    cdef double xp[3]
    cdef int k
    left_jacobian_inverse(p, J)
    matvec(J, d, w)
    for k in range(3):
        xp[k] = xi * p[k]
        w[k] *= xi
    left_jacobian(xp, J)
    matvec(J, w, z)
    for k in range(3):
        L[k] = z[k]


cdef inline void arc_gradient(const double* p, const double* d, double xi,
                              double* G) noexcept nogil:
    """G (3 x 3, row-major) = dL/dp of :func:`arc_local`, exact: with ``w = J_l(p)^-1 d``,
    ``J_l'(p)[e]`` the rate of J_l along e (``left_jacobian_rate``) and ``d(J^-1) = -J^-1 dJ
    J^-1``, column j is ``xi (J_l'(xi p)[xi e_j] w - J_l(xi p) J_l(p)^-1 J_l'(p)[e_j] w)``.
    Smooth to round-off, so that the forces it enters (loads and spring-dampers between nodes)
    are, and Newton's iterations on them reach round-off."""
    cdef double Ji[9]
    cdef double Jx[9]
    cdef double Jd[9]
    cdef double w[3]
    cdef double xp[3]
    cdef double e[3]
    cdef double a[3]
    cdef double b[3]
    cdef double c[3]
    cdef int i, j
    left_jacobian_inverse(p, Ji)
    matvec(Ji, d, w)
    for i in range(3):
        xp[i] = xi * p[i]
    left_jacobian(xp, Jx)
    for j in range(3):
        for i in range(3):
            e[i] = 1.0 if i == j else 0.0
        left_jacobian_rate(p, e, Jd)
        matvec(Jd, w, a)
        matvec(Ji, a, b)
        matvec(Jx, b, c)
        e[j] = xi
        left_jacobian_rate(xp, e, Jd)
        matvec(Jd, w, a)
        for i in range(3):
            G[3 * i + j] = xi * (a[i] - c[i])


cdef inline void arc_motion(const double* ra, const double* Aa, const double* rb,
                            const double* Ab, const double* Va, const double* Vb, double xi,
                            double* r, double* v) noexcept nogil:
    """Position r and (Va, Vb not NULL) velocity v (global) of the point at xi of the element
    joining nodes a and b (origins, frames, velocities ``(v, w)`` at the origins): ``r = ra +
    c``, ``c = Aa L``, and ``v = va + wa x c + Aa (G p' + H d')`` with ``p' = J_l(p)^-1 Aa^T
    (wb - wa)``, ``d' = Aa^T (vb - va - wa x e)`` (:func:`arc_wrenches` names the rest; the
    rate of rancf.results.outputs.spatial_arc_motion)."""
    cdef double R[9]
    cdef double Jl[9]
    cdef double Ji[9]
    cdef double G[9]
    cdef double p[3]
    cdef double e[3]
    cdef double d[3]
    cdef double L[3]
    cdef double c[3]
    cdef double w[3]
    cdef double z[3]
    cdef double pd[3]
    cdef double dd[3]
    cdef double xp[3]
    cdef int i, j
    matTmul(Aa, Ab, R)
    logm(R, p)
    for i in range(3):
        e[i] = rb[i] - ra[i]
    matTvec(Aa, e, d)
    arc_local(p, d, xi, L)
    matvec(Aa, L, c)
    for i in range(3):
        r[i] = ra[i] + c[i]
    if Va == NULL:
        return
    left_jacobian_inverse(p, Ji)
    for i in range(3):
        w[i] = Vb[3 + i] - Va[3 + i]
    matTvec(Aa, w, z)
    matvec(Ji, z, pd)
    cross(Va + 3, e, w)
    for i in range(3):
        w[i] = Vb[i] - Va[i] - w[i]
    matTvec(Aa, w, dd)
    # H d' = xi J_l(xi p) J_l(p)^-1 d'
    for i in range(3):
        xp[i] = xi * p[i]
    left_jacobian(xp, Jl)
    matvec(Ji, dd, w)
    matvec(Jl, w, z)
    arc_gradient(p, d, xi, G)
    for i in range(3):
        w[i] = xi * z[i]
        for j in range(3):
            w[i] += G[3 * i + j] * pd[j]
    matvec(Aa, w, z)
    cross(Va + 3, c, w)
    for i in range(3):
        v[i] = Va[i] + w[i] + z[i]


cdef inline void arc_wrenches(const double* ra, const double* Aa, const double* rb,
                              const double* Ab, double xi, const double* f, const double* m,
                              bint follower, double* Wa, double* Wb) noexcept nogil:
    """The wrenches Wa, Wb (6 each: force, N; moment about the node's origin, N m; global) on
    the nodes a (origin ra, frame Aa, row-major) and b of an element that do the virtual work
    of a force f and a moment m at its point xi (global, or in the point's frame if
    ``follower``).

    The element's point is ``r = ra + Aa L(p, d)`` and its frame ``A = Aa exp(xi p^)``, with
    ``p = log(Aa^T Ab)``, ``d = Aa^T e``, ``e = rb - ra`` and L of :func:`arc_local` (theory:
    Loads between the nodes of a spatial beam; the output ``Result.position(beam.at(s))``).
    With global virtual rotations, ``delta p = J_l(p)^-1 Aa^T (dth_b - dth_a)``, ``delta d =
    Aa^T (delta e + e x dth_a)``, ``delta th(xi) = dth_a + Aa xi J_l(xi p) delta p`` and
    ``delta r = delta ra + dth_a x c + Aa (G delta p + H delta d)``, ``c = Aa L``, ``H =
    dL/dd = xi J_l(xi p) J_l(p)^-1``, ``G = dL/dp``. With ``h = Aa H^T Aa^T f`` and
    ``k = Aa J_l(p)^-T (G^T Aa^T f + xi J_l(xi p)^T Aa^T m)``::

        Wa = (f - h,  m + c x f + h x e - k),   Wb = (h,  k)

    (their sum about ra is f at r and m, as a rigid motion of the element requires); G is
    :func:`arc_gradient`'s, exact."""
    cdef double R[9]
    cdef double Jl[9]
    cdef double Ji[9]
    cdef double Ax[9]
    cdef double E[9]
    cdef double p[3]
    cdef double e[3]
    cdef double d[3]
    cdef double L[3]
    cdef double c[3]
    cdef double F[3]
    cdef double M[3]
    cdef double u[3]
    cdef double mu[3]
    cdef double w[3]
    cdef double z[3]
    cdef double g[3]
    cdef double h[3]
    cdef double kk[3]
    cdef double xp[3]
    cdef double G[9]
    cdef int i
    matTmul(Aa, Ab, R)
    logm(R, p)
    for i in range(3):
        e[i] = rb[i] - ra[i]
    matTvec(Aa, e, d)
    arc_local(p, d, xi, L)
    matvec(Aa, L, c)
    if follower:
        for i in range(3):
            xp[i] = xi * p[i]
        expm(xp, E)
        # A(xi) = Aa exp(xi p^): the load in the point's frame, turned to global
        matvec(E, f, w)
        matvec(Aa, w, F)
        matvec(E, m, w)
        matvec(Aa, w, M)
    else:
        for i in range(3):
            F[i] = f[i]
            M[i] = m[i]
    matTvec(Aa, F, u)
    matTvec(Aa, M, mu)
    for i in range(3):
        xp[i] = xi * p[i]
    left_jacobian(xp, Jl)
    left_jacobian_inverse(p, Ji)
    # h = Aa H^T u, H = xi Jl Ji: H^T u = xi Ji^T (Jl^T u)
    matTvec(Jl, u, w)
    matTvec(Ji, w, z)
    for i in range(3):
        z[i] *= xi
    matvec(Aa, z, h)
    # G^T u
    arc_gradient(p, d, xi, G)
    matTvec(G, u, g)
    # k = Aa Ji^T (G^T u + xi Jl^T mu)
    matTvec(Jl, mu, w)
    for i in range(3):
        w[i] = g[i] + xi * w[i]
    matTvec(Ji, w, z)
    matvec(Aa, z, kk)
    cross(c, F, w)
    cross(h, e, z)
    for i in range(3):
        Wa[i] = F[i] - h[i]
        Wb[i] = h[i]
        Wa[3 + i] = M[i] + w[i] + z[i] - kk[i]
        Wb[3 + i] = kk[i]
