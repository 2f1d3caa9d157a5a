"""Cython kernels of the planar two-node ANCF beam element (theory: The ANCF beam element).

Element coordinates ``e = [r_A, r'_A, r_B, r'_B]`` (8, SI: m and dimensionless slopes), their
rates ``edot`` (m/s, 1/s), length ``l`` (m), axial stiffness ``EA`` (N), bending stiffness
``EI`` (N m^2), Kelvin-Voigt damping time ``c`` (s).

Every elastic model is a pair of strain measures (axial ``eps``, bending ``kappa``) at Gauss
points with ``U = 1/2 int (EA eps^2 + EI kappa^2) ds``. Material damping adds the dissipation
function ``D = c/2 int (EA epsdot^2 + EI kappadot^2) ds`` of the same strains, so the force
``F = dU/de + dD/dedot`` is the elastic force with the stresses ``EA (eps + c epsdot)`` and
``EI (kappa + c kappadot)``; the dissipated power is ``2 D = F_D . edot >= 0``.

Each elastic model lists its strains at its Gauss points with their gradients and Hessians in
e (written out in the model's routine, the Hessians as sums of symmetric terms); one
accumulation (:c:func:`_strain`, the Hessian terms :c:func:`_hsym`, :c:func:`_hpair` and
:c:func:`_tangent`) turns
them into the force ``F``, the tangent ``K = dF/de``, the damping matrix ``C = dF/dedot``, the
energy and the dissipated power, so the force and its tangents come from one description of
each model. The symmetric parts of K and C are summed on their upper triangles and mirrored
once per element.
"""
from libc.math cimport sqrt
from libc.string cimport memcpy, memset

from rancf.elements._hermite cimport DDS3, DDS5, DS3, DS5, G3W, G5W, hermite_derivatives

import numpy as np

# The kernels' arithmetic on the pairs (x, y) of a plane vector, in packed SSE2 operations
# (GCC's vector extension, baseline on x86-64): each lane computes the scalar expression in
# the same order, so the bits are those of the scalar code, with half the floating-point
# instructions, which bound the time of an element's force. Unaligned loads and stores go
# through memcpy.
cdef extern from *:
    """
    #include <string.h>
    typedef double rancf_beam_pair __attribute__((vector_size(16)));
    static inline rancf_beam_pair rancf_beam_load(const double* p) {
        rancf_beam_pair x;
        memcpy(&x, p, sizeof(x));
        return x;
    }
    /* out = (a0, a1) / b: two correctly rounded quotients in one division */
    static inline void rancf_beam_quotients(double a0, double a1, double b, double* out) {
        rancf_beam_pair x = {a0, a1};
        rancf_beam_pair y = {b, b};
        x = x / y;
        memcpy(out, &x, sizeof(x));
    }
    /* r = ((s0 e_0 + s1 e_1) + s2 e_2) + s3 e_3, e_k = (e[2k], e[2k+1]) */
    static inline void rancf_beam_interpolate(const double* e, const double* s, double* r) {
        rancf_beam_pair x = ((s[0] * rancf_beam_load(e) + s[1] * rancf_beam_load(e + 2))
                             + s[2] * rancf_beam_load(e + 4)) + s[3] * rancf_beam_load(e + 6);
        memcpy(r, &x, sizeof(x));
    }
    /* out (8) = S^T v: (out[2k], out[2k+1]) = s_k v */
    static inline void rancf_beam_spread(const double* s, const double* v, double* out) {
        rancf_beam_pair w = rancf_beam_load(v);
        int k;
        for (k = 0; k < 4; k++) {
            rancf_beam_pair x = s[k] * w;
            memcpy(out + 2 * k, &x, sizeof(x));
        }
    }
    /* f (8) += a g */
    static inline void rancf_beam_add_scaled(double* f, double a, const double* g) {
        int k;
        for (k = 0; k < 4; k++) {
            rancf_beam_pair x = rancf_beam_load(f + 2 * k) + a * rancf_beam_load(g + 2 * k);
            memcpy(f + 2 * k, &x, sizeof(x));
        }
    }
    """
    void _quotients "rancf_beam_quotients"(double a0, double a1, double b,
                                           double* out) noexcept nogil
    void _interpolate "rancf_beam_interpolate"(const double* e, const double* s,
                                               double* r) noexcept nogil
    void _spread "rancf_beam_spread"(const double* s, const double* v, double* out) noexcept nogil
    void _add_scaled "rancf_beam_add_scaled"(double* f, double a, const double* g) noexcept nogil


cdef struct Sums:
    double* f          # 8: F = dU/de + dD/dedot
    double* K          # 64 or NULL: dF/de (its symmetric part summed on the upper triangle)
    double* C          # 64 or NULL: dF/dedot (upper triangle)
    double* Kd         # 64: the damping's non-symmetric part of K (read when c != 0)
    const double* ed   # 8, read when c != 0
    double c           # Kelvin-Voigt damping time (s)
    double U           # strain energy (J)
    double P           # dissipated power (W)
    double ws          # w sigma of the current strain
    double wk          # w k of the current strain
    double Hed[8]      # H edot of the current strain (damped)


cdef inline void _strain(Sums* a, double w, double k, double value, const double* g) noexcept nogil:
    """One strain (value, gradient g) at one Gauss point of weight w (m), stiffness k (EA or EI):
    ``U += w k value^2/2``; with the rate ``r = g . edot`` and the stress
    ``sigma = k (value + c r)``: ``F += w sigma g``, ``P += w c k r^2``. For the tangents, the
    strain's Hessian H (if it is not linear in e) follows as terms (:c:func:`_hsym`,
    :c:func:`_hpair`) that add ``w sigma H`` to K, then :c:func:`_tangent` adds the rest.
    (Pointers are copied to locals throughout: Python's -fno-strict-aliasing would otherwise
    reload them after every store.)"""
    cdef double rate = 0.0, wk = w * k, ws
    cdef double* f = a.f
    cdef const double* ed = a.ed
    cdef int i
    if a.c != 0.0:
        for i in range(8):
            rate += g[i] * ed[i]
            a.Hed[i] = 0.0
        a.P += wk * a.c * rate * rate
    ws = wk * (value + a.c * rate)
    a.ws, a.wk = ws, wk
    a.U += 0.5 * wk * value * value
    _add_scaled(f, ws, g)


cdef inline void _tangent(Sums* a, const double* g) noexcept nogil:
    """After the Hessian terms of the strain with gradient g: ``K += w k g g^T`` and, damped,
    ``C += w c k g g^T`` and ``K += w c k g (H edot)^T``."""
    cdef double* K = a.K
    cdef double* C = a.C
    cdef double* Kd = a.Kd
    cdef double wk = a.wk, wck = a.wk * a.c, x
    cdef int i, j
    for i in range(8):
        x = wk * g[i]
        for j in range(i, 8):
            K[8 * i + j] += x * g[j]
    if a.c == 0.0:
        return
    for i in range(8):
        x = wck * g[i]
        for j in range(8):
            Kd[8 * i + j] += x * a.Hed[j]
        if C != NULL:
            for j in range(i, 8):
                C[8 * i + j] += x * g[j]


cdef inline void _hsym(Sums* a, const double* u, const double* v, double coef) noexcept nogil:
    """The strain's Hessian has the term ``coef (u v^T + v u^T)`` (8 x 8)."""
    cdef double x = a.ws * coef, ue = 0.0, ve = 0.0, ux, vx
    cdef double* K = a.K
    cdef const double* ed = a.ed
    cdef int i, j
    for i in range(8):
        ux = x * u[i]
        vx = x * v[i]
        for j in range(i, 8):
            K[8 * i + j] += ux * v[j] + vx * u[j]
    if a.c != 0.0:
        for i in range(8):
            ue += u[i] * ed[i]
            ve += v[i] * ed[i]
        for i in range(8):
            a.Hed[i] += coef * (u[i] * ve + v[i] * ue)


cdef inline void _hpair(Sums* a, const double* s, const double* t, const double* A,
                        double coef) noexcept nogil:
    """The strain's Hessian has the term ``coef (S^T A T + T^T A^T S)`` for shape-function
    derivatives s, t (4,) and A (2 x 2): entry (2k+i, 2l+j) is
    ``coef (s_k t_l A_ij + t_k s_l A_ji)`` (``S^T A S`` is the pair with coef 1/2)."""
    cdef double x = a.ws * coef
    cdef double* K = a.K
    cdef const double* ed = a.ed
    cdef double se[2]
    cdef double te[2]
    cdef double B[4]
    cdef int r, c, k, l, i, j
    for i in range(2):
        for j in range(2):
            B[2 * i + j] = x * A[2 * i + j]
    for r in range(8):
        k, i = r >> 1, r & 1
        for c in range(r, 8):
            l, j = c >> 1, c & 1
            K[8 * r + c] += s[k] * t[l] * B[2 * i + j] + t[k] * s[l] * B[2 * j + i]
    if a.c != 0.0:
        for j in range(2):
            se[j] = te[j] = 0.0
            for l in range(4):
                se[j] += s[l] * ed[2 * l + j]
                te[j] += t[l] * ed[2 * l + j]
        for k in range(4):
            for i in range(2):
                a.Hed[2 * k + i] += coef * (s[k] * (A[2 * i] * te[0] + A[2 * i + 1] * te[1])
                                            + t[k] * (A[i] * se[0] + A[2 + i] * se[1]))


cdef inline void _shabana(const double* e, double l, double EA, double EI, Sums* a,
                          bint hess) noexcept nogil:
    """Local-frame model (RANCF paper eq. 5-7), 3 Gauss points (integrand degree 4).

    Chord d = r_B - r_A, t = d/|d|, n = J t; ``gv = Dd^T n/|d|``, ``hv = Dd^T t/|d|`` (Dd = dd/de),
    so dt/de = n gv^T, dn/de = -t gv^T, d gv/de = -(hv gv^T + gv hv^T). Strains and derivatives:
    ``eps = t.r' - 1``, ``g = S'^T t + (n.r') gv``,
    ``H = S'^T n gv^T + gv n^T S' - (t.r') gv gv^T - (n.r')(hv gv^T + gv hv^T)``;
    ``kappa = n.r''``, ``g = S''^T n - (t.r'') gv``,
    ``H = -S''^T t gv^T - gv t^T S'' - (n.r'') gv gv^T + (t.r'')(hv gv^T + gv hv^T)``.
    Both Hessians are ``p gv^T + gv p^T``: one symmetric term each.
    """
    cdef double il = 1.0 / l
    cdef double sp[4]
    cdef double spp[4]
    cdef double r1[2]
    cdef double r2[2]
    cdef double tv[2]
    cdef double nv[2]
    cdef double gv[8]
    cdef double hv[8]
    cdef double g[8]
    cdef double p[8]
    cdef double d0 = e[4] - e[0], d1 = e[5] - e[1]
    cdef double chord = sqrt(d0 * d0 + d1 * d1)
    cdef double tr, nr, w
    cdef int gp, i
    tv[0] = d0 / chord
    tv[1] = d1 / chord
    nv[0] = -tv[1]
    nv[1] = tv[0]
    memset(gv, 0, 8 * sizeof(double))
    memset(hv, 0, 8 * sizeof(double))
    gv[0], gv[1], gv[4], gv[5] = -nv[0] / chord, -nv[1] / chord, nv[0] / chord, nv[1] / chord
    hv[0], hv[1], hv[4], hv[5] = -tv[0] / chord, -tv[1] / chord, tv[0] / chord, tv[1] / chord
    for gp in range(3):
        hermite_derivatives(DS3[gp], DDS3[gp], il, sp, spp)
        w = G3W[gp] * l
        _interpolate(e, sp, r1)
        _interpolate(e, spp, r2)
        # axial
        tr = tv[0] * r1[0] + tv[1] * r1[1]
        nr = nv[0] * r1[0] + nv[1] * r1[1]
        _spread(sp, tv, g)
        g[0] += nr * gv[0]      # gv is zero on the slopes
        g[1] += nr * gv[1]
        g[4] += nr * gv[4]
        g[5] += nr * gv[5]
        _strain(a, w, EA, tr - 1.0, g)
        if hess:
            # H = sym(S'^T n - (t.r'/2) gv - (n.r') hv, gv)
            _spread(sp, nv, p)
            for i in range(8):
                p[i] -= 0.5 * tr * gv[i] + nr * hv[i]
            _hsym(a, p, gv, 1.0)
            _tangent(a, g)
        # bending
        tr = tv[0] * r2[0] + tv[1] * r2[1]
        nr = nv[0] * r2[0] + nv[1] * r2[1]
        _spread(spp, nv, g)
        g[0] -= tr * gv[0]
        g[1] -= tr * gv[1]
        g[4] -= tr * gv[4]
        g[5] -= tr * gv[5]
        _strain(a, w, EI, nr, g)
        if hess:
            # H = sym(-S''^T t - (n.r''/2) gv + (t.r'') hv, gv)
            _spread(spp, tv, p)
            for i in range(8):
                p[i] = -p[i] - 0.5 * nr * gv[i] + tr * hv[i]
            _hsym(a, p, gv, 1.0)
            _tangent(a, g)


cdef inline void _berzeri(const double* e, double l, double EA, double EI, Sums* a,
                          bint hess) noexcept nogil:
    """Continuum model (adaptive-modal paper eq. 8-16), 5 Gauss points (integrand degree 8).

    ``eps = (r'.r' - 1)/2``, ``g = S'^T r'``, ``H = S'^T S'``; bending by the vector r'' (U has
    ``EI r''.r''/2``): two strains linear in e, ``r''_x`` and ``r''_y``, gradients ``S''^T e_x``,
    ``S''^T e_y``.
    """
    cdef double il = 1.0 / l
    cdef double sp[4]
    cdef double spp[4]
    cdef double r1[2]
    cdef double r2[2]
    cdef double g[8]
    cdef double ex[2]
    cdef double I2[4]
    cdef double w
    cdef int gp, i
    I2[0], I2[1], I2[2], I2[3] = 1.0, 0.0, 0.0, 1.0
    for gp in range(5):
        hermite_derivatives(DS5[gp], DDS5[gp], il, sp, spp)
        w = G5W[gp] * l
        _interpolate(e, sp, r1)
        _interpolate(e, spp, r2)
        _spread(sp, r1, g)
        _strain(a, w, EA, 0.5 * (r1[0] * r1[0] + r1[1] * r1[1] - 1.0), g)
        if hess:
            _hpair(a, sp, sp, I2, 0.5)
            _tangent(a, g)
        for i in range(2):
            ex[0] = 1.0 - i
            ex[1] = <double>i
            _spread(spp, ex, g)
            _strain(a, w, EI, r2[i], g)
            if hess:
                _tangent(a, g)


cdef inline void _reissner(const double* e, double l, double EA, double EI, Sums* a,
                          bint hess) noexcept nogil:
    """Reissner / Euler-Bernoulli model of Exudyn's ANCFCable2D.

    ``eps = |r'| - 1`` (5 Gauss points): ``g = S'^T r'/|r'|``,
    ``H = S'^T (I/|r'| - r' r'^T/|r'|^3) S'``. ``kappa = c/q``, ``c = r' x r''``, ``q = r'.r'``
    (3 Gauss points): with ``c1 = dc/dr' = (r''_y, -r''_x)``, ``c2 = dc/dr'' = (-r'_y, r'_x)``:
    ``dk/dr' = c1/q - 2 kappa r'/q``, ``dk/dr'' = c2/q``;
    ``d2k/dr'2 = -2 (c1 r'^T + r' c1^T)/q^2 + 8 c r' r'^T/q^3 - 2 c I/q^2``,
    ``d2k/dr'dr'' = J^T/q - 2 r' c2^T/q^2``, ``d2k/dr''2 = 0``.
    """
    cdef double il = 1.0 / l
    cdef double sp[4]
    cdef double spp[4]
    cdef double r1[2]
    cdef double r2[2]
    cdef double da[2]
    cdef double db[2]
    cdef double c1[2]
    cdef double c2[2]
    cdef double g[8]
    cdef double gb[8]
    cdef double t[2]
    cdef double A11[4]
    cdef double A12[4]
    cdef double norm, q, cc, kappa, w
    cdef int gp, i, j
    for gp in range(5):
        hermite_derivatives(DS5[gp], DDS5[gp], il, sp, spp)
        w = G5W[gp] * l
        _interpolate(e, sp, r1)
        norm = sqrt(r1[0] * r1[0] + r1[1] * r1[1])
        _quotients(r1[0], r1[1], norm, da)
        _spread(sp, da, g)
        _strain(a, w, EA, norm - 1.0, g)
        if hess:
            for i in range(2):
                for j in range(2):
                    A11[2 * i + j] = ((1.0 if i == j else 0.0) - da[i] * da[j]) / norm
            _hpair(a, sp, sp, A11, 0.5)
            _tangent(a, g)
    for gp in range(3):
        hermite_derivatives(DS3[gp], DDS3[gp], il, sp, spp)
        w = G3W[gp] * l
        _interpolate(e, sp, r1)
        _interpolate(e, spp, r2)
        q = r1[0] * r1[0] + r1[1] * r1[1]
        cc = r1[0] * r2[1] - r1[1] * r2[0]
        kappa = cc / q
        c1[0], c1[1] = r2[1], -r2[0]
        c2[0], c2[1] = -r1[1], r1[0]
        _quotients(c1[0], c1[1], q, da)
        _quotients(2.0 * kappa * r1[0], 2.0 * kappa * r1[1], q, t)
        da[0] -= t[0]
        da[1] -= t[1]
        _quotients(c2[0], c2[1], q, db)
        _spread(sp, da, g)
        _spread(spp, db, gb)
        for i in range(8):
            g[i] += gb[i]
        _strain(a, w, EI, kappa, g)
        if hess:
            for i in range(2):
                for j in range(2):
                    A11[2 * i + j] = (-2.0 * (c1[i] * r1[j] + r1[i] * c1[j]) / (q * q)
                                      + 8.0 * cc * r1[i] * r1[j] / (q * q * q)
                                      - (2.0 * cc / (q * q) if i == j else 0.0))
                    A12[2 * i + j] = -2.0 * r1[i] * c2[j] / (q * q)
            A12[1] += 1.0 / q      # J^T = [[0, 1], [-1, 0]]
            A12[2] -= 1.0 / q
            _hpair(a, sp, sp, A11, 0.5)
            _hpair(a, sp, spp, A12, 1.0)   # with its transpose, the d2k/dr''dr' block
            _tangent(a, g)


cdef inline void _model(int model, const double* e, double l, double EA, double EI, Sums* a,
                        bint hess) noexcept nogil:
    """The strains of the elastic model into a's sums, with their Hessians when ``hess``.

    Inline, with ``hess`` an argument: :func:`beam_force` passes a constant False, so the
    compiler drops the Hessian terms from its copy and keeps its sums local."""
    if model == SHABANA:
        _shabana(e, l, EA, EI, a, hess)
    elif model == BERZERI:
        _berzeri(e, l, EA, EI, a, hess)
    else:
        _reissner(e, l, EA, EI, a, hess)


cdef void _sums(int model, const double* e, const double* edot, double l, double EA, double EI,
                double c, double* f, double* K, double* C, double* U, double* P) noexcept nogil:
    cdef Sums a
    cdef double Kd[64]
    cdef int i, j
    memset(f, 0, 8 * sizeof(double))
    if K != NULL:
        memset(K, 0, 64 * sizeof(double))
        if c != 0.0:
            memset(Kd, 0, 64 * sizeof(double))
    if C != NULL:
        memset(C, 0, 64 * sizeof(double))
    a.f, a.K, a.C, a.Kd, a.ed, a.c, a.U, a.P = f, K, C, Kd, edot, c, 0.0, 0.0
    _model(model, e, l, EA, EI, &a, K != NULL)
    # the symmetric parts were summed on the upper triangles
    for i in range(8):
        for j in range(i):
            if K != NULL:
                K[8 * i + j] = K[8 * j + i]
            if C != NULL:
                C[8 * i + j] = C[8 * j + i]
    if K != NULL and c != 0.0:
        for i in range(64):
            K[i] += Kd[i]
    U[0] = a.U
    P[0] = a.P


cdef double beam_force(int model, const double* e, const double* edot, double l, double EA,
                       double EI, double c, double* f, double* dissipation) noexcept nogil:
    """F = F_K + F_D (8, N and N m) into ``f``; returns the strain energy U (J).

    ``dissipation`` receives the dissipated power ``F_D . edot`` (W). ``edot`` is read only
    when ``c != 0`` (it may be NULL for an undamped beam).
    """
    cdef Sums a
    cdef double acc[8]     # f summed here: a local that the compiler knows e does not alias
    memset(acc, 0, 8 * sizeof(double))
    a.f, a.K, a.C, a.Kd, a.ed, a.c, a.U, a.P = acc, NULL, NULL, NULL, edot, c, 0.0, 0.0
    _model(model, e, l, EA, EI, &a, False)
    memcpy(f, acc, 8 * sizeof(double))
    dissipation[0] = a.P
    return a.U


cdef void beam_tangent(int model, const double* e, const double* edot, double l, double EA,
                       double EI, double c, double* K, double* C) noexcept nogil:
    """K = dF/de and, when C is not NULL, C = dF/dedot (8 x 8 row-major), exact (the strains'
    gradients and Hessians written out; see the model routines).

    K in N/m (N for slope columns), C in N s/m; C is zero for an undamped beam.
    """
    cdef double f[8]
    cdef double U, P
    _sums(model, e, edot, l, EA, EI, c, f, K, C, &U, &P)


cdef _check_element(int model, e, edot, double l, out):
    """The kernels' contract: a known model, 8-vectors, l > 0, an output of 8 or 8 x 8."""
    if model not in (SHABANA, BERZERI, REISSNER):
        raise ValueError(f"model must be 0, 1 or 2, got {model}")
    if e.shape[0] != 8 or edot.shape[0] != 8:
        raise ValueError("e and edot must have 8 entries")
    if not l > 0.0:
        raise ValueError(f"l must be > 0, got {l}")


def force(int model, const double[::1] e, const double[::1] edot, double l, double EA,
          double EI, double c, double[::1] f):
    """Python entry to :c:func:`beam_force`: returns ``(U, dissipated power)``."""
    cdef double P = 0.0
    _check_element(model, e, edot, l, f)
    if f.shape[0] != 8:
        raise ValueError("f must have 8 entries")
    cdef double U = beam_force(model, &e[0], &edot[0], l, EA, EI, c, &f[0], &P)
    return U, P


def tangent(int model, const double[::1] e, const double[::1] edot, double l, double EA,
            double EI, double c, double[:, ::1] K, double[:, ::1] C):
    """Python entry to :c:func:`beam_tangent`: K and C (8, 8)."""
    _check_element(model, e, edot, l, K)
    if K.shape[0] != 8 or K.shape[1] != 8 or C.shape[0] != 8 or C.shape[1] != 8:
        raise ValueError("K and C must have shape (8, 8)")
    beam_tangent(model, &e[0], &edot[0], l, EA, EI, c, &K[0, 0], &C[0, 0])


def beam_energies(int model, const int[:, ::1] element_nodes, const double[::1] length,
                  const double[::1] EA, const double[::1] EI, const double[:, :, ::1] M,
                  const double[:, :, ::1] nodes, const double[:, :, ::1] velocities):
    """Kinetic and elastic energy (J) of the beam elements at n_out instants, (n_out, 2).

    Kinetic ``1/2 sum V_E^T M_E V_E``, elastic ``sum U(e)``, from node coordinates and node
    velocities (n_out, n_nodes, 4) of any formulation.
    """
    cdef int n_out = nodes.shape[0], n_el = element_nodes.shape[0], t, s, i, j
    cdef double[:, ::1] out = np.zeros((n_out, 2))
    cdef double e[8]
    cdef double v[8]
    cdef double f[8]
    cdef double P
    if model not in (SHABANA, BERZERI, REISSNER):
        raise ValueError(f"model must be 0, 1 or 2, got {model}")
    if (nodes.shape[2] != 4 or velocities.shape[0] != n_out or velocities.shape[1] != nodes.shape[1]
            or velocities.shape[2] != 4 or element_nodes.shape[1] != 2
            or length.shape[0] < n_el or EA.shape[0] < n_el or EI.shape[0] < n_el
            or M.shape[0] < n_el or M.shape[1] != 8 or M.shape[2] != 8):
        raise ValueError("beam_energies: inconsistent array shapes")
    if n_el and (np.min(element_nodes) < 0 or np.max(element_nodes) >= nodes.shape[1]):
        raise ValueError("beam_energies: element_nodes out of range")
    with nogil:
        for t in range(n_out):
            for s in range(n_el):
                gather(&nodes[t, 0, 0], &element_nodes[s, 0], e)
                gather(&velocities[t, 0, 0], &element_nodes[s, 0], v)
                out[t, 1] += beam_force(model, e, v, length[s], EA[s], EI[s], 0.0, f, &P)
                for i in range(8):
                    for j in range(8):
                        out[t, 0] += 0.5 * v[i] * M[s, i, j] * v[j]
    return np.asarray(out)
