"""Cython kernels of the spatial gradient-deficient ANCF cable element (theory: The spatial
ANCF cable).

Element coordinates ``e = [r_A, r'_A, r_B, r'_B]`` (12, SI: m and dimensionless slopes
``dr/dx``, x the arc length of the straight reference), their rates ``edot`` (m/s, 1/s),
length ``l`` (m), axial stiffness ``EA`` (N), bending stiffness ``EI`` (N m^2), Kelvin-Voigt
damping time ``c`` (s). The centreline is ``r(x) = sum_k S_k(x) e_k`` over the four node
vectors ``e_k`` with the cubic Hermite functions (rancf/elements/_hermite.pxd, which also holds
the Gauss rules).

The strains are those of Exudyn's ``ObjectANCFCable`` (CObjectANCFCable.cpp): the axial strain
``eps = |r'| - 1`` and the material curvature vector ``kappa = (r' x r'') / |r'|^2``, with
``U = 1/2 int (EA eps^2 + EI kappa . kappa) dx``, integrated as Exudyn does by Gauss-Legendre
rules of 5 points for the axial part and 3 for the bending part (orders 9 and 5). Kelvin-Voigt
damping adds ``D = c/2 int (EA epsdot^2 + EI kappadot . kappadot) dx``: the stresses are
``EA (eps + c epsdot)`` and ``EI (kappa + c kappadot)``.

The kernels return the generalized force the element exerts on its nodes,
``f = -(dU/de + dD/dedot)`` (N on positions, N m on slopes), the tangent ``K = -df/de`` (the
Hessian of U when undamped) and ``C = -df/dedot``. Each Gauss point's strains depend on
``z = (a, b) = (r', r'')`` (6), and z on the element's coordinates through the 9 reduced
ones ``y = T e = (r_A - r_B, r'_A, r'_B)`` (``S3 = 1 - S1``: r' and r'' do not change in a
translation), ``z = B y`` with the constant ``B = [s x I3; ss x I3]`` (6 x 9; s and ss the
derivatives of S1, S2, S4 at the point). So each point writes its force ``f_z`` (6) and its
6 x 6 matrices in z, its expansion (:c:func:`_expand_bending`, :c:func:`_expand_axial`) adds
``B^T f_z`` and ``B^T K_z B`` into 9-vectors and 9 x 9 matrices, and one scatter per element
(:c:func:`_scatter`) gives ``T^T g`` and ``T^T K_y T``: the expansions, the kernels'
largest work, sum 9 3 x 3 blocks a point where 16 over e would be (undamped, the matrices
symmetric, 7 where 10 would be). The tables give ``S3' = -S1'`` and ``S3'' = -S1''`` to the
bit, so the numbers are those of the expansion over e, to the bit, and the force on r_B is
the force on r_A negated.

In z, with ``q = a . a``, ``c = a x b``, ``kappa = c / q``, ``m`` the bending stress vector and
``N = m . c``::

    d kappa / da = -[b]x / q - 2 kappa a^T / q,   d kappa / db = [a]x / q,
    d2 (m . kappa) / da2 = -2 ((b x m) a^T + a (b x m)^T) / q^2 + 8 N a a^T / q^3 - 2 N I / q^2,
    d2 (m . kappa) / da db = -[m]x / q - 2 a (m x a)^T / q^2,     d2 (m . kappa) / db2 = 0,

and for the axial strain ``d eps / da = t = a / |a|``, ``d2 eps / da2 = (I - t t^T) / |a|``.
With damping K also has the derivative of the strain rates at fixed rates,
``EA c t (d epsdot / da)^T`` and ``EI c J^T (d kappadot / dz)``, J = d kappa / dz.

A curved cable's rest state (``reference``, 8 numbers an element, :c:func:`cable_reference` of
its reference coordinates): the axial strain ``eps0`` at the 5 axial points and the curvature
magnitude ``k0 = |kappa_0|`` at the 3 bending points, with
``U = 1/2 int (EA (eps - eps0)^2 + EI (|kappa| - k0)^2) dx``. The bending part compares
magnitudes because a cable has no section frame to carry a rest curvature's direction: it is
the energy ``EI/2 |kappa - kappa_0|^2`` of a rod whose section turns freely about its axis
(no torsional stiffness), minimised over that turn. Its stress vector is
``m = EI (1 - k0 / |kappa|) kappa`` and its material part ``J^T dm/dkappa J`` with
``dm/dkappa = EI (I - k0 / |kappa| (I - u u^T))``, u the unit curvature vector; where
``|kappa| = 0`` at a point whose ``k0 > 0`` (a curved cable pulled straight there) the
magnitude has no derivative and the point's bending stress is taken as zero. A NULL reference
(the straight cable) is ``eps0 = k0 = 0``: the first form, the same operations.

At a curved point (``k0 > 0``, ``|kappa| > 0``) the damping acts on the rate of the magnitude,
``s = u . kappadot``: ``D = c/2 int (EA epsdot^2 + EI s^2) dx``, the damping stress
``EI c s u``, ``C_z = c w EI (J^T u)(J^T u)^T``, and K gains ``c w EI (J^T u) (D^T u + J^T
(I - u u^T) kappadot / |kappa|)^T`` and ``c w EI s J^T (I - u u^T) J / |kappa|`` (the
derivatives of s and of u at fixed rates). The curvature vector of a bent cable turns with a
rigid rotation (``kappadot = w x kappa``) while its magnitude does not, so the curved cable
dissipates nothing in rigid motion, as its energy stores nothing. A straight cable (and a
point where ``k0 = 0`` or ``kappa = 0``) damps the whole vector's rate, Exudyn's law.
"""
from libc.math cimport sqrt
from libc.string cimport memset

from rancf.elements._hermite cimport DDS3, DDS5, DS3, DS5, G3W, G5W, hermite_derivatives

import numpy as np


cdef inline void _weights(const double* ds, const double* dds, double il, double* sp,
                          double* spp, double* s, double* ss) noexcept nogil:
    """At a Gauss point, from its rows of the tables (DS*, DDS*): ``sp = S_k'``, ``spp =
    S_k''`` (4 each, :c:func:`hermite_derivatives`) and the weights of the reduced coordinates
    ``y = (r_A - r_B, r'_A, r'_B)`` in r' and r'', ``s = (S1', S2', S4')`` and ``ss = (S1'',
    S2'', S4'')`` (3 each): S3 = 1 - S1, and the tables give ``S3' = -S1'`` and ``S3'' = -S1''``
    to the bit, so r_B's share of a force or a matrix is r_A's negated."""
    hermite_derivatives(ds, dds, il, sp, spp)
    s[0], s[1], s[2] = sp[0], sp[1], sp[3]
    ss[0], ss[1], ss[2] = spp[0], spp[1], spp[3]


cdef inline void _interpolate(const double* e, const double* s, double* r) noexcept nogil:
    """r (3) = sum_k s_k e_k: a derivative of the centreline from the four node vectors."""
    cdef int i
    for i in range(3):
        r[i] = s[0] * e[i] + s[1] * e[3 + i] + s[2] * e[6 + i] + s[3] * e[9 + i]


cdef inline double _dot(const double* a, const double* b) noexcept nogil:
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


cdef inline void _cross(const double* a, const double* b, double* out) noexcept nogil:
    out[0] = a[1] * b[2] - a[2] * b[1]
    out[1] = a[2] * b[0] - a[0] * b[2]
    out[2] = a[0] * b[1] - a[1] * b[0]


cdef inline void _add_skew(double* M, int stride, const double* v, double s) noexcept nogil:
    """M (3 x 3 block of row stride ``stride``) += s [v]x, ``[v]x y = v x y``."""
    M[1] -= s * v[2]
    M[2] += s * v[1]
    M[stride] += s * v[2]
    M[stride + 2] -= s * v[0]
    M[2 * stride] -= s * v[1]
    M[2 * stride + 1] += s * v[0]


cdef inline bint _needed(int k, int m, bint upper) noexcept nogil:
    """Whether block (k, m) of a 9 x 9 matrix over y is summed: all of them, or with ``upper``
    (a symmetric matrix) those that the element's blocks on and above its diagonal read
    (:c:func:`_scatter`): all but (2, 0) and (2, 1), since r'_B is the last node vector."""
    return not upper or k < 2 or m == 2


cdef inline void _expand_axial(const double* s, const double* Kz, bint upper,
                               double* Ky) noexcept nogil:
    """Ky (9 x 9) += P^T Kz P, Kz (3 x 3) over r' = P y, ``P = [s_0 I3, s_1 I3, s_2 I3]``:
    block (k, m) gains ``s_k s_m Kz``; with ``upper`` only the blocks :c:func:`_needed`.
    :c:func:`_expand_bending` with ``ss = 0`` and Kz in its first 3 x 3 block gives the same
    bits, but at four products a block entry, not one (and the padding), in the axial loop
    over five Gauss points of every element."""
    cdef double skm
    cdef double* row
    cdef int k, m, i, j
    for k in range(3):
        for m in range(3):
            if not _needed(k, m, upper):
                continue
            skm = s[k] * s[m]
            for i in range(3):
                row = Ky + 9 * (3 * k + i) + 3 * m
                for j in range(3):
                    row[j] += skm * Kz[3 * i + j]


cdef inline void _expand_bending(const double* s, const double* ss, const double* Kz,
                                 bint upper, double* Ky) noexcept nogil:
    """Ky (9 x 9) += B^T Kz B, Kz (6 x 6) over z = (r', r'') = B y, ``B = [s (x) I3; ss (x)
    I3]``: block (k, m) gains ``sum_pq w_p[k] w_q[m] Kz[3p:3p+3, 3q:3q+3]``, w_0 = s, w_1 = ss;
    with ``upper`` only the blocks :c:func:`_needed`."""
    cdef double s00, s01, s10, s11
    cdef double* row
    cdef const double* mz
    cdef int k, m, i, j
    for k in range(3):
        for m in range(3):
            if not _needed(k, m, upper):
                continue
            s00 = s[k] * s[m]
            s01 = s[k] * ss[m]
            s10 = ss[k] * s[m]
            s11 = ss[k] * ss[m]
            for i in range(3):
                row = Ky + 9 * (3 * k + i) + 3 * m
                mz = Kz + 6 * i
                for j in range(3):
                    row[j] += s00 * mz[j] + s01 * mz[3 + j] + s10 * mz[18 + j] + s11 * mz[21 + j]


cdef void _scatter(const double* Ky, bint symmetric, double* M) noexcept nogil:
    """M (12 x 12) = T^T Ky T, the element matrix of Ky (9 x 9) over ``y = T e = (r_A - r_B,
    r'_A, r'_B)``: node vector p of e (r_A, r'_A, r_B, r'_B) enters y's vector ``(0, 1, 0,
    2)[p]`` with the sign ``(1, 1, -1, 1)[p]``. ``symmetric``: the blocks on and above M's
    diagonal from Ky, those below it their transposes: M holds, to the bit, the products and
    sums of a 12 x 12 expansion over e (S3' = -S1' exactly)."""
    cdef int vec[4]
    cdef bint flip
    cdef const double* src
    cdef double* dst
    cdef int p, r, i, j
    vec[0], vec[1], vec[2], vec[3] = 0, 1, 0, 2
    for p in range(4):
        for r in range(p if symmetric else 0, 4):
            flip = (p == 2) != (r == 2)
            for i in range(3):
                src = Ky + 9 * (3 * vec[p] + i) + 3 * vec[r]
                dst = M + 12 * (3 * p + i) + 3 * r
                for j in range(3):
                    dst[j] = -src[j] if flip else src[j]
    if symmetric:
        for i in range(3, 12):
            for j in range(3 * (i // 3)):
                M[12 * i + j] = M[12 * j + i]


cdef void _axial(const double* e, const double* ed, double l, double EA, double c,
                 double cC, const double* eps0, double* g, double* Ky, double* Cy, double* U,
                 double* P) noexcept nogil:
    """The axial part, ``eps = |r'| - 1`` at 5 Gauss points, less ``eps0[gp]`` (NULL: 0), of
    the element at e (12; ed its rates, read when c != 0): ``-dU/dy`` (and ``-dD/dydot``) over
    the reduced coordinates y (module docstring) into g (9, zero on entry), the 9 x 9 matrices
    added to Ky and Cy where not NULL (Ky's upper blocks only when c = 0); Cy at the damping
    time cC (c but in :c:func:`cable_stiffness_damping`)."""
    cdef double il = 1.0 / l
    cdef double sp[4]
    cdef double spp[4]     # (r'' is not read)
    cdef double s[3]
    cdef double ss[3]
    cdef double ad[3]
    cdef double t[3]
    cdef double h[3]
    cdef double Kz[9]
    cdef double Cz[9]
    cdef double r1[15]     # r' at the 5 points, then their square roots and inverses
    cdef double norm[5]    # apart: independent, their latencies overlap
    cdef double inverse[5]
    cdef double w, n, eps, rate, ws, wk, wkc, inv
    cdef double Ul = 0.0, Pl = 0.0
    cdef int gp, i, j, k
    for gp in range(5):
        _weights(DS5[gp], DDS5[gp], il, sp, spp, s, ss)
        _interpolate(e, sp, r1 + 3 * gp)
    for gp in range(5):
        norm[gp] = sqrt(_dot(r1 + 3 * gp, r1 + 3 * gp))
    for gp in range(5):
        inverse[gp] = 1.0 / norm[gp]
    for gp in range(5):
        _weights(DS5[gp], DDS5[gp], il, sp, spp, s, ss)
        w = G5W[gp] * l
        wk = w * EA
        n = norm[gp]
        inv = inverse[gp]
        for i in range(3):
            t[i] = r1[3 * gp + i] * inv
        eps = n - 1.0
        if eps0 != NULL:
            eps -= eps0[gp]
        rate = 0.0
        ad[0] = ad[1] = ad[2] = 0.0
        wkc = wk * c
        if c != 0.0:
            _interpolate(ed, sp, ad)
            rate = _dot(t, ad)
            Pl += wkc * rate * rate
        ws = wk * (eps + c * rate)
        Ul += 0.5 * wk * eps * eps
        for k in range(3):
            for i in range(3):
                g[3 * k + i] -= s[k] * ws * t[i]
        if Ky != NULL:
            # d epsdot / da = (I - t t^T) adot / |a|, the Hessian of eps applied to adot
            for i in range(3):
                h[i] = (ad[i] - t[i] * rate) / n
            for i in range(3):
                for j in range(3):
                    Kz[3 * i + j] = (wk * t[i] * t[j]
                                     + ws * ((1.0 if i == j else 0.0) - t[i] * t[j]) / n
                                     + wk * c * t[i] * h[j])
            _expand_axial(s, Kz, c == 0.0, Ky)
        if Cy != NULL:
            for i in range(3):
                for j in range(3):
                    Cz[3 * i + j] = wk * cC * t[i] * t[j]
            _expand_axial(s, Cz, True, Cy)
    U[0] += Ul
    P[0] += Pl


cdef void _bending(const double* e, const double* ed, double l, double EI, double c,
                   double cC, const double* k0, double* gy, double* Ky, double* Cy, double* U,
                   double* P) noexcept nogil:
    """The bending part, ``kappa = (r' x r'') / |r'|^2`` at 3 Gauss points, relative to the
    rest curvature magnitude ``k0[gp]`` (NULL: 0; module docstring), as :c:func:`_axial`
    but its force added to gy."""
    cdef double il = 1.0 / l
    cdef double sp[4]
    cdef double spp[4]
    cdef double s[3]
    cdef double ss[3]
    cdef double a[3]
    cdef double b[3]
    cdef double ad[3]
    cdef double bd[3]
    cdef double cv[3]
    cdef double kap[3]
    cdef double kd[3]
    cdef double u[3]
    cdef double m[3]
    cdef double bm[3]
    cdef double ma[3]
    cdef double fz[6]
    cdef double un[3]      # u = kappa / |kappa| at a curved point
    cdef double Ju[6]      # J^T u
    cdef double g[6]       # d (u . kappadot) / dz
    cdef double J[18]      # d kappa / dz (3 x 6)
    cdef double D[18]      # d kappadot / dz at fixed rates (3 x 6)
    cdef double Kz[36]
    cdef double Cz[36]
    cdef double w, wk, iq, iq2, N, p, rest, nk, ratio, sd, v
    cdef double Ul = 0.0, Pl = 0.0
    cdef double gl[9]      # the force, summed here and then added to gy
    cdef double r1[9]      # r' and r'' at the 3 points and the inverses of |r'|^2, apart:
    cdef double r2[9]      # the divisions are independent, their latencies overlap
    cdef double inverse[3]
    cdef bint tangents = Ky != NULL or Cy != NULL
    cdef int gp, i, j, k
    memset(gl, 0, 9 * sizeof(double))
    for gp in range(3):
        _weights(DS3[gp], DDS3[gp], il, sp, spp, s, ss)
        _interpolate(e, sp, r1 + 3 * gp)
        _interpolate(e, spp, r2 + 3 * gp)
    for gp in range(3):
        inverse[gp] = 1.0 / _dot(r1 + 3 * gp, r1 + 3 * gp)
    for gp in range(3):
        rest = k0[gp] if k0 != NULL else 0.0
        _weights(DS3[gp], DDS3[gp], il, sp, spp, s, ss)
        w = G3W[gp] * l
        wk = w * EI
        for i in range(3):
            a[i] = r1[3 * gp + i]
            b[i] = r2[3 * gp + i]
        iq = inverse[gp]
        iq2 = iq * iq
        _cross(a, b, cv)
        for i in range(3):
            kap[i] = cv[i] * iq
        if tangents:
            memset(J, 0, 18 * sizeof(double))
            _add_skew(J, 6, b, -iq)
            _add_skew(J + 3, 6, a, iq)
            for i in range(3):
                for j in range(3):
                    J[6 * i + j] -= 2.0 * kap[i] * a[j] * iq
        ratio = 0.0
        nk = 0.0
        if rest != 0.0:
            nk = sqrt(_dot(kap, kap))
            if nk > 0.0:
                ratio = rest / nk
                for i in range(3):
                    un[i] = kap[i] / nk
        kd[0] = kd[1] = kd[2] = 0.0
        sd = 0.0
        if c != 0.0:
            _interpolate(ed, sp, ad)
            _interpolate(ed, spp, bd)
            if tangents:
                for i in range(3):
                    for j in range(3):
                        kd[i] += J[6 * i + j] * ad[j] + J[6 * i + 3 + j] * bd[j]
            else:
                # J (adot, bdot) = (adot x b + a x bdot - 2 kappa (a . adot)) / q
                _cross(ad, b, u)
                _cross(a, bd, g)
                p = 2.0 * _dot(a, ad)
                for i in range(3):
                    kd[i] = (u[i] + g[i] - p * kap[i]) * iq
            if ratio != 0.0:
                # a curved point damps the rate of |kappa|, u . kappadot: a rigid turn
                # (kappadot = w x kappa) leaves it zero
                sd = _dot(un, kd)
                Pl += wk * c * sd * sd
            else:
                Pl += wk * c * _dot(kd, kd)
        if rest == 0.0:
            for i in range(3):
                m[i] = wk * (kap[i] + c * kd[i])
            Ul += 0.5 * wk * _dot(kap, kap)
        elif ratio != 0.0:
            # the elastic stress (1 - k0 / |kappa|) kappa, the damping stress c (u . kappadot) u
            for i in range(3):
                m[i] = wk * ((1.0 - ratio) * kap[i] + c * sd * un[i])
            Ul += 0.5 * wk * (nk - rest) * (nk - rest)
        else:
            # kappa = 0 where k0 > 0: no elastic stress (the magnitude has no derivative); the
            # whole rate is damped, |kappadot| being the magnitude's one-sided rate there
            for i in range(3):
                m[i] = wk * (kap[i] + c * kd[i])
            Ul += 0.5 * wk * rest * rest
        if tangents:
            for j in range(6):
                fz[j] = J[j] * m[0] + J[6 + j] * m[1] + J[12 + j] * m[2]
        else:
            # J^T m: ((b x m) - 2 (kappa . m) a) / q on r', (m x a) / q on r''
            _cross(b, m, bm)
            _cross(m, a, ma)
            p = 2.0 * _dot(kap, m)
            for i in range(3):
                fz[i] = (bm[i] - p * a[i]) * iq
                fz[3 + i] = ma[i] * iq
        for k in range(3):
            for i in range(3):
                gl[3 * k + i] -= s[k] * fz[i] + ss[k] * fz[3 + i]
        if not tangents:
            continue
        # material part w EI J^T J (and the damping matrix, c times it; c w EI Ju Ju^T at a
        # curved point, Ju = J^T u, u = kappa / |kappa|)
        for i in range(6):
            for j in range(i, 6):
                v = wk * (J[i] * J[j] + J[6 + i] * J[6 + j] + J[12 + i] * J[12 + j])
                Kz[6 * i + j] = v
                Kz[6 * j + i] = v
        if ratio != 0.0:
            for j in range(6):
                Ju[j] = J[j] * un[0] + J[6 + j] * un[1] + J[12 + j] * un[2]
        if Cy != NULL:
            if ratio != 0.0:
                for i in range(6):
                    for j in range(6):
                        Cz[6 * i + j] = cC * wk * Ju[i] * Ju[j]
            else:
                for i in range(36):
                    Cz[i] = cC * Kz[i]
            _expand_bending(s, ss, Cz, True, Cy)
        if Ky == NULL:
            continue
        if ratio != 0.0:
            # a rest curvature: w EI J^T (I - k0/|kappa| (I - u u^T)) J from the elastic
            # stress, and c w EI (u . kappadot) J^T (I - u u^T) J / |kappa| from du/dz in the
            # damping stress
            p = ratio - c * sd / nk
            for i in range(6):
                for j in range(6):
                    Kz[6 * i + j] -= p * (Kz[6 * i + j] - wk * Ju[i] * Ju[j])
        # the Hessian of m . kappa
        N = _dot(m, cv)
        _cross(b, m, bm)
        _cross(m, a, ma)
        for i in range(3):
            for j in range(3):
                Kz[6 * i + j] += (-2.0 * (bm[i] * a[j] + a[i] * bm[j]) * iq2
                                  + 8.0 * N * a[i] * a[j] * iq2 * iq
                                  - (2.0 * N * iq2 if i == j else 0.0))
                Kz[6 * i + 3 + j] -= 2.0 * a[i] * ma[j] * iq2
                Kz[6 * (3 + j) + i] -= 2.0 * a[i] * ma[j] * iq2
        _add_skew(Kz + 3, 6, m, -iq)
        _add_skew(Kz + 18, 6, m, iq)        # the transpose of -[m]x / q
        if c != 0.0:
            # d kappadot / dz with u = adot x b + a x bdot, p = a . adot
            _cross(ad, b, u)
            _cross(a, bd, cv)
            for i in range(3):
                u[i] += cv[i]
            _cross(a, b, cv)
            p = _dot(a, ad)
            memset(D, 0, 18 * sizeof(double))
            _add_skew(D, 6, bd, -iq)
            _add_skew(D, 6, b, 2.0 * p * iq2)
            _add_skew(D + 3, 6, ad, iq)
            _add_skew(D + 3, 6, a, -2.0 * p * iq2)
            for i in range(3):
                for j in range(3):
                    D[6 * i + j] += (-2.0 * (u[i] * a[j] + cv[i] * ad[j]) * iq2
                                     + 8.0 * p * cv[i] * a[j] * iq2 * iq)
            if ratio != 0.0:
                # d(u . kappadot)/dz = D^T u + J^T (I - u u^T) kappadot / |kappa|, into the
                # stress's direction Ju
                for j in range(6):
                    g[j] = (D[j] * un[0] + D[6 + j] * un[1] + D[12 + j] * un[2]
                            + (J[j] * kd[0] + J[6 + j] * kd[1] + J[12 + j] * kd[2]
                               - Ju[j] * sd) / nk)
                for i in range(6):
                    for j in range(6):
                        Kz[6 * i + j] += wk * c * Ju[i] * g[j]
            else:
                for i in range(6):
                    for j in range(6):
                        Kz[6 * i + j] += wk * c * (J[i] * D[j] + J[6 + i] * D[6 + j]
                                                   + J[12 + i] * D[12 + j])
        _expand_bending(s, ss, Kz, c == 0.0, Ky)
    U[0] += Ul
    P[0] += Pl
    for k in range(9):
        gy[k] += gl[k]


cdef void _sums(const double* e, const double* edot, double l, double EA, double EI, double c,
                double cC, const double* reference, double* f, double* K, double* C, double* U,
                double* P) noexcept nogil:
    """Both parts over the reduced coordinates y (module docstring), then back to the
    element's: f = T^T g, K = T^T Ky T, C = T^T Cy T (:c:func:`_scatter`). Undamped, K is the
    Hessian of U: only its upper blocks were summed. C is that of the damping time cC (the
    kernels' c but in :c:func:`cable_stiffness_damping`)."""
    cdef double g[9]
    cdef double Ky[81]
    cdef double Cy[81]
    cdef double* pK = Ky if K != NULL else NULL
    cdef double* pC = Cy if C != NULL and cC != 0.0 else NULL
    cdef int i
    memset(g, 0, 9 * sizeof(double))
    if pK != NULL:
        memset(Ky, 0, 81 * sizeof(double))
    if pC != NULL:
        memset(Cy, 0, 81 * sizeof(double))
    U[0] = 0.0
    P[0] = 0.0
    _axial(e, edot, l, EA, c, cC, reference, g, pK, pC, U, P)
    _bending(e, edot, l, EI, c, cC, reference + 5 if reference != NULL else NULL, g, pK, pC,
             U, P)
    for i in range(3):
        f[i] = g[i]
        f[3 + i] = g[3 + i]
        f[6 + i] = -f[i]
        f[9 + i] = g[6 + i]
    if K != NULL:
        _scatter(Ky, c == 0.0, K)
    if C != NULL:
        if cC != 0.0:
            _scatter(Cy, True, C)
        else:
            memset(C, 0, 144 * sizeof(double))


cdef double cable_force(const double* e, const double* edot, double l, double EA, double EI,
                        double c, double* f, double* dissipation) noexcept nogil:
    """f = -(dU/de + dD/dedot) (12, N and N m) into ``f``; returns the strain energy U (J).

    ``dissipation`` receives the dissipated power ``-f_D . edot = 2 D`` (W). ``edot`` is read
    only when ``c != 0`` (it may be NULL for an undamped cable).
    """
    cdef double U
    _sums(e, edot, l, EA, EI, c, c, NULL, f, NULL, NULL, &U, dissipation)
    return U


cdef void cable_tangent(const double* e, const double* edot, double l, double EA, double EI,
                        double c, double* K, double* C) noexcept nogil:
    """K = -df/de and, when C is not NULL, C = -df/dedot (12 x 12 row-major), exact (module
    docstring). K in N/m (N, N m where slopes enter), C in N s/m; C is zero when c = 0 and K is
    then the Hessian of U, symmetric."""
    cdef double f[12]
    cdef double U, P
    _sums(e, edot, l, EA, EI, c, c, NULL, f, K, C, &U, &P)


cdef double cable_force_tangent(const double* e, const double* edot, double l, double EA,
                                double EI, double c, double* f, double* K, double* C,
                                double* dissipation) noexcept nogil:
    """:c:func:`cable_force` and :c:func:`cable_tangent` in one pass (what a Newton iteration
    needs): f (12), K and, when C is not NULL, C (12 x 12); returns U (J), the dissipated
    power into ``dissipation`` (W)."""
    cdef double U
    _sums(e, edot, l, EA, EI, c, c, NULL, f, K, C, &U, dissipation)
    return U


cdef double cable_force_rest(const double* e, const double* edot, double l, double EA,
                             double EI, double c, const double* reference, double* f, double* K,
                             double* C, double* dissipation) noexcept nogil:
    """:c:func:`cable_force_tangent` relative to the rest state ``reference`` (8: eps0 at the 5
    axial points, k0 at the 3 bending points; NULL the straight cable's zeros; module
    docstring); K and C may be NULL (the force only)."""
    cdef double U
    _sums(e, edot, l, EA, EI, c, c, reference, f, K, C, &U, dissipation)
    return U


cdef void cable_stiffness_damping(const double* e, double l, double EA, double EI, double c,
                                 const double* reference, double* K,
                                 double* C) noexcept nogil:
    """K of the undamped cable (the Hessian of U, symmetric, 12 x 12) and C of damping time c
    (NULL: not computed) in one pass, relative to the rest state ``reference`` (NULL: straight):
    the Newton matrix of a loop that leaves the damping force's derivative in the coordinates
    out (rancf/formulations/_spatial_implicit.pyx). C depends on the coordinates only, so the
    rates are not read; the same K and C as :c:func:`cable_force_rest` at c = 0 and at c."""
    cdef double f[12]
    cdef double U, P
    _sums(e, NULL, l, EA, EI, 0.0, c if C != NULL else 0.0, reference, f, K, C, &U, &P)


cdef void cable_reference(const double* e0, double l, double* reference) noexcept nogil:
    """The rest state (8) of an element of reference coordinates e0: ``|r'| - 1`` at the 5
    axial points, ``|r' x r''| / |r'|^2`` at the 3 bending points, the kernels' own formulas at
    their own points (so the reference itself gives eps - eps0 = 0 and |kappa| - k0 = 0
    exactly). A curvature with ``k0 l <= 1e-9`` (a turn below 1e-9 rad over the element) is
    set to 0, the straight law: a straight element off the axes gets the round-off
    ``k0 ~ 1e-16 |r| / l^2`` from ``r' x r''``, and the magnitude law at ``kappa = k0 -> 0``
    has no first-order stiffness normal to kappa, which made the straight element's tangent
    singular in its reference (its reference then carries ``EI kappa``, of round-off
    size)."""
    cdef double il = 1.0 / l
    cdef double sp[4]
    cdef double spp[4]
    cdef double s[3]
    cdef double ss[3]
    cdef double a[3]
    cdef double b[3]
    cdef double cv[3]
    cdef double q
    cdef int gp, i
    for gp in range(5):
        _weights(DS5[gp], DDS5[gp], il, sp, spp, s, ss)
        _interpolate(e0, sp, a)
        reference[gp] = sqrt(_dot(a, a)) - 1.0
    for gp in range(3):
        _weights(DS3[gp], DDS3[gp], il, sp, spp, s, ss)
        _interpolate(e0, sp, a)
        _interpolate(e0, spp, b)
        q = 1.0 / _dot(a, a)
        _cross(a, b, cv)
        for i in range(3):
            cv[i] *= q
        reference[5 + gp] = sqrt(_dot(cv, cv))
        if reference[5 + gp] * l <= 1e-9:
            reference[5 + gp] = 0.0


cdef _check_element(e, edot, double l):
    if e.shape[0] != 12 or edot.shape[0] != 12:
        raise ValueError(f"e and edot must have 12 entries, got {e.shape[0]} and "
                         f"{edot.shape[0]}")
    if not l > 0.0:
        raise ValueError(f"l must be > 0, got {l}")


cdef const double* _rest(reference) except? NULL:
    """The address of a rest state (8,) given to a Python entry, NULL for None."""
    cdef const double[::1] r
    if reference is None:
        return NULL
    r = reference
    if r.shape[0] != 8:
        raise ValueError(f"reference must have 8 entries (eps0 at 5 points, k0 at 3), got "
                         f"{r.shape[0]}")
    return &r[0]


def moment_force(slope, moment):
    """Python entry to :c:func:`cable_moment`: the generalized force (3,) on a cable node's
    slope (3,) of a moment (3,, N m, global) at the node, ``(M x r') / |r'|^2``."""
    cdef double[::1] s = np.ascontiguousarray(slope, dtype=np.float64)
    cdef double[::1] M = np.ascontiguousarray(moment, dtype=np.float64)
    if s.shape[0] != 3 or M.shape[0] != 3:
        raise ValueError(f"slope and moment must have 3 entries, got {s.shape[0]} and "
                         f"{M.shape[0]}")
    out = np.empty(3)
    cdef double[::1] Q = out
    cable_moment(&s[0], &M[0], &Q[0])
    return out


def moment_tangent(slope, moment):
    """Python entry to :c:func:`cable_moment_tangent`: ``d/dr' [(M x r') / |r'|^2]`` (3, 3),
    the moment held."""
    cdef double[::1] s = np.ascontiguousarray(slope, dtype=np.float64)
    cdef double[::1] M = np.ascontiguousarray(moment, dtype=np.float64)
    if s.shape[0] != 3 or M.shape[0] != 3:
        raise ValueError(f"slope and moment must have 3 entries, got {s.shape[0]} and "
                         f"{M.shape[0]}")
    out = np.empty((3, 3))
    cdef double[:, ::1] T = out
    cable_moment_tangent(&s[0], &M[0], &T[0, 0])
    return out


def force(const double[::1] e, const double[::1] edot, double l, double EA, double EI,
          double c, double[::1] f, reference=None):
    """Python entry to :c:func:`cable_force_rest` (``reference`` None: the straight cable's
    :c:func:`cable_force`): f (12) in place; returns ``(U, dissipated power)``."""
    cdef double P = 0.0
    _check_element(e, edot, l)
    if f.shape[0] != 12:
        raise ValueError(f"f must have 12 entries, got {f.shape[0]}")
    cdef const double* rest = _rest(reference)
    cdef double U = cable_force_rest(&e[0], &edot[0], l, EA, EI, c, rest, &f[0], NULL, NULL,
                                     &P)
    return U, P


def tangent(const double[::1] e, const double[::1] edot, double l, double EA, double EI,
            double c, double[:, ::1] K, double[:, ::1] C, reference=None):
    """Python entry to :c:func:`cable_force_rest`'s K and C (12, 12) in place
    (``reference`` None: the straight cable's :c:func:`cable_tangent`)."""
    cdef double f[12]
    cdef double P = 0.0
    _check_element(e, edot, l)
    if K.shape[0] != 12 or K.shape[1] != 12 or C.shape[0] != 12 or C.shape[1] != 12:
        raise ValueError("K and C must have shape (12, 12)")
    cdef const double* rest = _rest(reference)
    cable_force_rest(&e[0], &edot[0], l, EA, EI, c, rest, f, &K[0, 0], &C[0, 0], &P)


def force_tangent(const double[::1] e, const double[::1] edot, double l, double EA, double EI,
                  double c, double[::1] f, double[:, ::1] K, double[:, ::1] C, reference=None):
    """Python entry to :c:func:`cable_force_rest` (``reference`` None: the straight cable's
    :c:func:`cable_force_tangent`): f (12), K and C (12, 12) in place; returns ``(U,
    dissipated power)``."""
    cdef double P = 0.0
    _check_element(e, edot, l)
    if (f.shape[0] != 12 or K.shape[0] != 12 or K.shape[1] != 12 or C.shape[0] != 12
            or C.shape[1] != 12):
        raise ValueError("f must have 12 entries and K and C the shape (12, 12)")
    cdef const double* rest = _rest(reference)
    cdef double U = cable_force_rest(&e[0], &edot[0], l, EA, EI, c, rest, &f[0], &K[0, 0],
                                     &C[0, 0], &P)
    return U, P


def reference_state(const double[::1] e0, double l):
    """Python entry to :c:func:`cable_reference`: the rest state (8,) of an element of
    reference coordinates e0 (12) and length l (m): ``eps0`` at the 5 axial Gauss points,
    ``k0`` (1/m) at the 3 bending ones."""
    out = np.empty(8)
    cdef double[::1] o = out
    if e0.shape[0] != 12:
        raise ValueError(f"e0 must have 12 entries, got {e0.shape[0]}")
    if not l > 0.0:
        raise ValueError(f"l must be > 0, got {l}")
    cable_reference(&e0[0], l, &o[0])
    return out


def cable_energies(const int[:, ::1] element_nodes, const double[::1] length,
                   const double[::1] EA, const double[::1] EI, const double[:, :, ::1] M,
                   const double[:, :, ::1] nodes, const double[:, :, ::1] velocities,
                   reference=None):
    """Kinetic and elastic energy (J) of cable elements at n_out instants, (n_out, 2).

    Kinetic ``1/2 sum V_E^T M_E V_E``, elastic ``sum U(e)``, from node coordinates and node
    velocities (n_out, n_nodes, 6); ``reference`` (n_elements, 8) the elements' rest states
    (:func:`reference_state`; None: straight).
    """
    cdef const double[:, ::1] rest
    cdef bint curved = reference is not None
    if curved:
        rest = reference
        if rest.shape[0] != element_nodes.shape[0] or rest.shape[1] != 8:
            raise ValueError(f"cable_energies: reference must have shape (n_elements, 8) = "
                             f"({element_nodes.shape[0]}, 8), one row an element, got "
                             f"({rest.shape[0]}, {rest.shape[1]})")
    cdef int n_out = nodes.shape[0], n_el = element_nodes.shape[0], t, s, i, j
    cdef double[:, ::1] out = np.zeros((n_out, 2))
    cdef double e[12]
    cdef double v[12]
    cdef double f[12]
    cdef double P
    if (nodes.shape[2] != 6 or velocities.shape[0] != n_out
            or velocities.shape[1] != nodes.shape[1] or velocities.shape[2] != 6
            or element_nodes.shape[1] != 2 or length.shape[0] < n_el or EA.shape[0] < n_el
            or EI.shape[0] < n_el or M.shape[0] < n_el or M.shape[1] != 12
            or M.shape[2] != 12):
        raise ValueError("cable_energies: inconsistent array shapes")
    if n_el and (np.min(element_nodes) < 0 or np.max(element_nodes) >= nodes.shape[1]):
        raise ValueError("cable_energies: element_nodes out of range")
    if n_el and not np.all(np.asarray(length[:n_el]) > 0.0):
        raise ValueError("cable_energies: lengths must be > 0")
    with nogil:
        for t in range(n_out):
            for s in range(n_el):
                cable_gather(&nodes[t, 0, 0], &element_nodes[s, 0], e)
                cable_gather(&velocities[t, 0, 0], &element_nodes[s, 0], v)
                out[t, 1] += cable_force_rest(e, v, length[s], EA[s], EI[s], 0.0,
                                              &rest[s, 0] if curved else NULL, f, NULL, NULL,
                                              &P)
                for i in range(12):
                    for j in range(12):
                        out[t, 0] += 0.5 * v[i] * M[s, i, j] * v[j]
    return np.asarray(out)


#: The cosine below which a cable node's tangent has turned too far from its base frame's x
#: axis (120 degrees) for the smallest rotation between them (:func:`cable_bases`): it is
#: defined down to -1 exclusive, and well conditioned (``1 / (1 + c) <= 2``) above this.
cdef double BASE_COS = -0.5


cdef double cable_frame(const double* base, const double* s, const double* sd, double* F,
                        double* w) noexcept nogil:
    """The frame F (3 x 3, row-major) of a cable node of slope ``s = r'`` (3): its base frame
    ``base`` (3 x 3, row-major; x axis b, its first column) turned by the smallest rotation
    that takes b to the unit tangent ``t = s / |s|``, ``F = R base`` with ``R = c I + k^ + k
    k^T / (1 + c)``, ``k = b x t``, ``c = b . t`` (Rodrigues' formula: the rotation about k
    by the angle between b and t, defined for c > -1). A cable has no section frame: its
    drawn frame's x is t, its y and z the base's turned with it by that least rotation. With the slope's rate sd (3; NULL: none) it writes w (3), the tangent's
    angular velocity ``t x t'``, ``t' = (I - t t^T) sd / |s|``, and returns F's spin about t,
    ``-(k . t') / (1 + c)``, so that F's angular velocity (``F' F^T = W^``, base fixed) is
    ``W = w + spin t``; 0 without sd."""
    cdef double t[3]
    cdef double b[3]
    cdef double k[3]
    cdef double td[3]
    cdef double R[9]
    cdef double norm = sqrt(_dot(s, s)), cs, inv, along
    cdef int a, j
    for a in range(3):
        t[a] = s[a] / norm
        b[a] = base[3 * a]
    _cross(b, t, k)
    cs = _dot(b, t)
    inv = 1.0 / (1.0 + cs)
    for a in range(3):
        for j in range(3):
            R[3 * a + j] = k[a] * k[j] * inv + (cs if a == j else 0.0)
    R[1] -= k[2]
    R[2] += k[1]
    R[3] += k[2]
    R[5] -= k[0]
    R[6] -= k[1]
    R[7] += k[0]
    for a in range(3):
        for j in range(3):
            F[3 * a + j] = R[3 * a] * base[j] + R[3 * a + 1] * base[3 + j] \
                + R[3 * a + 2] * base[6 + j]
    if sd == NULL:
        return 0.0
    along = _dot(t, sd)
    for a in range(3):
        td[a] = (sd[a] - t[a] * along) / norm
    _cross(t, td, w)
    return -_dot(k, td) * inv


def cable_bases(const double[::1] t, const double[:, :, ::1] e, const double[:, :, ::1] frame0,
                double[:, :, :, ::1] bases, previous=None):
    """The base frames (m, c, 3, 3) of the cable nodes at m successive outputs of a run, from
    which :func:`node_frames` turns each node's frame to its tangent (:c:func:`cable_frame`):
    the smallest rotation from a fixed frame to the tangent is undefined where the tangent
    points opposite the frame's x (a cable end swung over, through a half turn), and no
    frame that is a function of the tangent alone is continuous everywhere (the hairy ball
    theorem), so the base follows the run. A node's base is its reference frame while its
    tangent stays within 120 degrees of that frame's x (the frames are then the reference
    turned by the smallest rotation, as a state alone gives them); where it turns further
    (``b . t < -1/2``, b the base's x), the base becomes the frame of the output before, so
    the frame moves on continuously, by the smallest rotation from there, and stays the base
    until the tangent turns 120 degrees from it in turn. Without an output before (or one
    whose time is not earlier: outputs at one time, such as mode shapes, are not a motion,
    and start again from ``frame0``), or where the tangent turned more than 120 degrees
    since it, the base turns by a half turn about its z axis (x and y reversed). A frame is
    thus a function of the state alone wherever the tangent has stayed within 120 degrees of
    the reference's x. Frames so carried from output to output converge, as the outputs get
    denser, to the frame transported along the tangent's path without spin about the
    tangent, and differ from the reference's smallest rotation by a turn about the tangent
    (the area the tangent's path encloses on the unit sphere).

    Parameters
    ----------
    t : (m,) the outputs' times (s).
    e : (m, c, 6) the nodes' coordinates ``[r, r']`` at them, in order.
    frame0 : (c, 3, 3) the bases to start from: the reference frames, or (a run observed
        output by output) the bases of the output before the first.
    bases : (m, c, 3, 3) written.
    previous : (c, 3, 3) or None: the frames of the output before the first (None: none).
    """
    cdef Py_ssize_t m = e.shape[0], c = e.shape[1], i, k, a
    cdef const double[:, :, ::1] prev
    cdef bint has_previous = previous is not None, moving
    if has_previous:
        prev = previous
    cdef double B[9]
    cdef double F[9]
    cdef double b[3]
    cdef double norm
    if (t.shape[0] != m or e.shape[2] != 6 or frame0.shape[0] != c or frame0.shape[1] != 3
            or frame0.shape[2] != 3 or bases.shape[0] != m or bases.shape[1] != c
            or bases.shape[2] != 3 or bases.shape[3] != 3
            or (has_previous and (prev.shape[0] != c or prev.shape[1] != 3
                                  or prev.shape[2] != 3))):
        raise ValueError("cable_bases: t (m,), e (m, c, 6), frame0 (c, 3, 3), bases (m, c, 3, "
                         f"3) and previous (c, 3, 3) of one m and c; got t {(t.shape[0],)}, e "
                         f"{(e.shape[0], e.shape[1], e.shape[2])}, frame0 "
                         f"{(frame0.shape[0], frame0.shape[1], frame0.shape[2])}, bases "
                         f"{(bases.shape[0], bases.shape[1], bases.shape[2], bases.shape[3])}"
                         + ("" if not has_previous else
                            f", previous {(prev.shape[0], prev.shape[1], prev.shape[2])}"))
    with nogil:
        for k in range(c):
            for a in range(9):
                B[a] = frame0[k, a // 3, a % 3]
                F[a] = prev[k, a // 3, a % 3] if has_previous else B[a]
            for i in range(m):
                moving = (t[i] > t[i - 1]) if i > 0 else has_previous
                if i > 0 and not moving:
                    for a in range(9):
                        B[a] = frame0[k, a // 3, a % 3]
                norm = sqrt(_dot(&e[i, k, 3], &e[i, k, 3]))
                b[0], b[1], b[2] = B[0], B[3], B[6]
                if _dot(b, &e[i, k, 3]) < BASE_COS * norm:
                    if moving:
                        for a in range(9):
                            B[a] = F[a]
                        b[0], b[1], b[2] = B[0], B[3], B[6]
                    if _dot(b, &e[i, k, 3]) < BASE_COS * norm:
                        for a in range(3):
                            B[3 * a] = -B[3 * a]
                            B[3 * a + 1] = -B[3 * a + 1]
                for a in range(9):
                    bases[i, k, a // 3, a % 3] = B[a]
                cable_frame(B, &e[i, k, 3], NULL, F, NULL)


def node_frames(const double[:, ::1] e, const double[:, ::1] ed, const double[:, :, ::1] frame0,
                double[:, ::1] poses, double[:, ::1] rates, spins=None):
    """The drawn poses and velocities of cable nodes (the layout of a body's in
    ``Result.nodes`` and ``Result.velocities``): for each node of coordinates ``e = [r, r']``
    and rates ed (c, 6), poses (c, 12) ``[r, F]`` with F (row-major) its base frame
    ``frame0`` (c, 3, 3) turned by the smallest rotation that takes the base's x axis to the
    unit tangent ``t = r' / |r'|`` (a cable has no section frame: :c:func:`cable_frame`; the
    reference frame, or the base at the run's output, :func:`cable_bases`), and rates (c, 6)
    ``[r', t x t']``, ``t' = (I - t t^T) r'' / |r'|``, the tangent's angular velocity (no spin
    about t). With ``spins`` (c, 3) it also writes F's angular velocity, its spin about t
    included (``F' F^T = W^`` at a fixed base)."""
    cdef Py_ssize_t n = e.shape[0], i, a
    cdef double[:, ::1] W
    cdef bint spin = spins is not None
    if spin:
        W = spins
    cdef double B[9]
    cdef double F[9]
    cdef double w[3]
    cdef double about
    if (e.shape[1] != 6 or ed.shape[0] != n or ed.shape[1] != 6 or frame0.shape[0] != n
            or frame0.shape[1] != 3 or frame0.shape[2] != 3 or poses.shape[0] != n
            or poses.shape[1] != 12 or rates.shape[0] != n or rates.shape[1] != 6
            or (spin and (W.shape[0] != n or W.shape[1] != 3))):
        raise ValueError("node_frames: e, ed (c, 6), frame0 (c, 3, 3), poses (c, 12), rates "
                         f"(c, 6) and spins (c, 3) of one c; got e {(e.shape[0], e.shape[1])}, "
                         f"ed {(ed.shape[0], ed.shape[1])}, frame0 "
                         f"{(frame0.shape[0], frame0.shape[1], frame0.shape[2])}, "
                         f"poses {(poses.shape[0], poses.shape[1])}, rates "
                         f"{(rates.shape[0], rates.shape[1])}"
                         + (f", spins {(W.shape[0], W.shape[1])}" if spin else ""))
    with nogil:
        for i in range(n):
            for a in range(9):
                B[a] = frame0[i, a // 3, a % 3]
            about = cable_frame(B, &e[i, 3], &ed[i, 3], F, w)
            for a in range(3):
                poses[i, a] = e[i, a]
                rates[i, a] = ed[i, a]
                rates[i, 3 + a] = w[a]
            for a in range(9):
                poses[i, 3 + a] = F[a]
            if spin:
                for a in range(3):
                    W[i, a] = w[a] + about * e[i, 3 + a] / sqrt(_dot(&e[i, 3], &e[i, 3]))
