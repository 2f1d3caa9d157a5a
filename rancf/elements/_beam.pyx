"""Cython kernels of the planar two-node ANCF beam element (DESIGN.md sections 1 and 6).

Element coordinates ``e = [r_A, r'_A, r_B, r'_B]`` (8, SI: m and dimensionless slopes), their
rates ``edot`` (m/s, 1/s), length ``l`` (m), axial stiffness ``EA`` (N), bending stiffness
``EI`` (N m^2), Kelvin-Voigt damping time ``c`` (s).

Every elastic model is a pair of strain measures (axial ``eps``, bending ``kappa``) at Gauss
points with ``U = 1/2 int (EA eps^2 + EI kappa^2) ds``. Material damping adds the dissipation
function ``D = c/2 int (EA epsdot^2 + EI kappadot^2) ds`` of the same strains, so the force
``F = dU/de + dD/dedot`` is the elastic force with the stresses ``EA (eps + c epsdot)`` and
``EI (kappa + c kappadot)``; the dissipated power is ``2 D = F_D . edot >= 0``.

One force routine per elastic model, written once over the fused type ``real`` (double or
double complex): the double version is the force, the complex version gives the tangents
``K = dF/de`` and ``C = dF/dedot`` by the complex step ``K[:, j] = Im F(e + i h u_j) / h``,
exact to round-off. Square roots go through ``_sqrt``, whose complex branch is the
first-order expansion, exact for a complex step.
"""
from libc.math cimport sqrt
from libc.string cimport memset

import numpy as np

ctypedef fused real:
    double
    double complex

# Gauss-Legendre points and weights on [0, 1], and the shape-function derivatives there:
# dS_k/dxi (DS) and d2S_k/dxi2 (DDS) with the factor l of S2, S4 left out (see _shape_derivatives).
cdef double G3X[3]
cdef double G3W[3]
cdef double G5X[5]
cdef double G5W[5]
G3X[:] = [0.1127016653792583, 0.5, 0.8872983346207417]
G3W[:] = [0.2777777777777778, 0.4444444444444444, 0.2777777777777778]
G5X[:] = [0.04691007703066800, 0.2307653449471585, 0.5, 0.7692346550528415, 0.9530899229693320]
G5W[:] = [0.1184634425280945, 0.2393143352496832, 0.2844444444444444, 0.2393143352496832,
          0.1184634425280945]
cdef double DS3[3][4]
cdef double DDS3[3][4]
cdef double DS5[5][4]
cdef double DDS5[5][4]


cdef void _tabulate(const double* x, int n, double[][4] ds, double[][4] dds) noexcept:
    cdef int g
    cdef double xi
    for g in range(n):
        xi = x[g]
        ds[g][0] = -6.0 * xi + 6.0 * xi * xi
        ds[g][1] = 1.0 - 4.0 * xi + 3.0 * xi * xi
        ds[g][2] = 6.0 * xi - 6.0 * xi * xi
        ds[g][3] = 3.0 * xi * xi - 2.0 * xi
        dds[g][0] = -6.0 + 12.0 * xi
        dds[g][1] = -4.0 + 6.0 * xi
        dds[g][2] = 6.0 - 12.0 * xi
        dds[g][3] = 6.0 * xi - 2.0


_tabulate(G3X, 3, DS3, DDS3)
_tabulate(G5X, 5, DS5, DDS5)

cdef double COMPLEX_STEP = 1e-30


cdef inline real _sqrt(real x) noexcept nogil:
    cdef double r
    if real is double:
        return sqrt(x)
    else:
        r = sqrt(x.real)
        return r + (x.imag / (2.0 * r)) * 1j


cdef inline void _shape_derivatives(const double* ds, const double* dds, double il,
                                    double* sp, double* spp) noexcept nogil:
    """S_k'(s) = dS_k/ds and S_k''(s), k = 1..4, from the tabulated xi-derivatives; il = 1/l."""
    sp[0] = ds[0] * il
    sp[1] = ds[1]
    sp[2] = ds[2] * il
    sp[3] = ds[3]
    spp[0] = dds[0] * il * il
    spp[1] = dds[1] * il
    spp[2] = dds[2] * il * il
    spp[3] = dds[3] * il


cdef inline void _interpolate(const real* e, const double* s, real* r) noexcept nogil:
    """r = sum_k s_k [e_{2k}, e_{2k+1}]: a derivative of the position field."""
    r[0] = s[0] * e[0] + s[1] * e[2] + s[2] * e[4] + s[3] * e[6]
    r[1] = s[0] * e[1] + s[1] * e[3] + s[2] * e[5] + s[3] * e[7]


cdef real _shabana(const real* e, const real* ed, double l, double EA, double EI, double c,
                   real* f, real* diss) noexcept nogil:
    """Local-frame model (RANCF paper eq. 5-7), 3 Gauss points (integrand degree 4).

    eps = t.r' - 1, kappa = n.r'' in the chord frame t, n of the element (angle a);
    F = dU/de including the chord-angle terms (n.r') da/de and -(t.r'') da/de. With damping,
    epsdot = t.r'dot + (n.r') adot and kappadot = n.r''dot - (t.r'') adot.
    """
    cdef double il = 1.0 / l
    cdef double sp[4]
    cdef double spp[4]
    cdef real d0 = e[4] - e[0], d1 = e[5] - e[1]
    cdef real chord = _sqrt(d0 * d0 + d1 * d1)
    cdef real ic = 1.0 / chord
    cdef real t0 = d0 * ic, t1 = d1 * ic
    cdef real n0 = -t1, n1 = t0
    cdef real r1[2]
    cdef real r2[2]
    cdef real v1[2]
    cdef real v2[2]
    cdef real ul, ut, ul_d, ut_d, sa, sb, adot = 0.0, a_coef = 0.0, U = 0.0, P = 0.0
    cdef double w
    cdef int g, k
    cdef bint damped = c != 0.0
    memset(f, 0, 8 * sizeof(real))
    if damped:
        adot = (n0 * (ed[4] - ed[0]) + n1 * (ed[5] - ed[1])) * ic
    for g in range(3):
        _shape_derivatives(DS3[g], DDS3[g], il, sp, spp)
        w = G3W[g] * l
        _interpolate(e, sp, r1)
        _interpolate(e, spp, r2)
        ul = t0 * r1[0] + t1 * r1[1] - 1.0
        ut = n0 * r2[0] + n1 * r2[1]
        U += 0.5 * w * (EA * ul * ul + EI * ut * ut)
        sa = EA * ul
        sb = EI * ut
        if damped:
            _interpolate(ed, sp, v1)
            _interpolate(ed, spp, v2)
            ul_d = t0 * v1[0] + t1 * v1[1] + (n0 * r1[0] + n1 * r1[1]) * adot
            ut_d = n0 * v2[0] + n1 * v2[1] - (t0 * r2[0] + t1 * r2[1]) * adot
            sa = sa + c * EA * ul_d
            sb = sb + c * EI * ut_d
            P += w * c * (EA * ul_d * ul_d + EI * ut_d * ut_d)
        for k in range(4):
            f[2 * k] += w * (sa * sp[k] * t0 + sb * spp[k] * n0)
            f[2 * k + 1] += w * (sa * sp[k] * t1 + sb * spp[k] * n1)
        a_coef += w * (sa * (n0 * r1[0] + n1 * r1[1]) - sb * (t0 * r2[0] + t1 * r2[1]))
    # da/de = n^T (dr_B/de - dr_A/de) / |r_B - r_A|
    a_coef = a_coef * ic
    f[0] -= a_coef * n0
    f[1] -= a_coef * n1
    f[4] += a_coef * n0
    f[5] += a_coef * n1
    diss[0] = P
    return U


cdef real _berzeri(const real* e, const real* ed, double l, double EA, double EI, double c,
                   real* f, real* diss) noexcept nogil:
    """Continuum model (adaptive-modal paper eq. 8-16), 5 Gauss points (integrand degree 8).

    eps = (r'.r' - 1)/2 (Green strain), bending measured by the vector r'' (U = 1/2 EI r''.r'');
    epsdot = r'.r'dot, bending rate r''dot.
    """
    cdef double il = 1.0 / l
    cdef double sp[4]
    cdef double spp[4]
    cdef real r1[2]
    cdef real r2[2]
    cdef real v1[2]
    cdef real v2[2]
    cdef real eps, eps_d, sa, b0, b1, U = 0.0, P = 0.0
    cdef double w
    cdef int g, k
    cdef bint damped = c != 0.0
    memset(f, 0, 8 * sizeof(real))
    for g in range(5):
        _shape_derivatives(DS5[g], DDS5[g], il, sp, spp)
        w = G5W[g] * l
        _interpolate(e, sp, r1)
        _interpolate(e, spp, r2)
        eps = 0.5 * (r1[0] * r1[0] + r1[1] * r1[1] - 1.0)
        U += 0.5 * w * (EA * eps * eps + EI * (r2[0] * r2[0] + r2[1] * r2[1]))
        sa = EA * eps
        b0 = EI * r2[0]
        b1 = EI * r2[1]
        if damped:
            _interpolate(ed, sp, v1)
            _interpolate(ed, spp, v2)
            eps_d = r1[0] * v1[0] + r1[1] * v1[1]
            sa = sa + c * EA * eps_d
            b0 = b0 + c * EI * v2[0]
            b1 = b1 + c * EI * v2[1]
            P += w * c * (EA * eps_d * eps_d + EI * (v2[0] * v2[0] + v2[1] * v2[1]))
        for k in range(4):
            f[2 * k] += w * (sa * sp[k] * r1[0] + spp[k] * b0)
            f[2 * k + 1] += w * (sa * sp[k] * r1[1] + spp[k] * b1)
    diss[0] = P
    return U


cdef real _reissner(const real* e, const real* ed, double l, double EA, double EI, double c,
                    real* f, real* diss) noexcept nogil:
    """Reissner / Euler-Bernoulli model of Exudyn's ANCFCable2D.

    eps = |r'| - 1 (5 Gauss points), kappa = (r' x r'') / |r'|^2 (3 Gauss points),
    U = 1/2 int [EA eps^2 + EI kappa^2] ds; the rates are the strains' gradients times edot.
    """
    cdef double il = 1.0 / l
    cdef double sp[4]
    cdef double spp[4]
    cdef real r1[2]
    cdef real r2[2]
    cdef real v1[2]
    cdef real v2[2]
    cdef real norm, eps, eps_d, sa, q, kappa, kap_d, sb, dk_a0, dk_a1, dk_b0, dk_b1
    cdef real U = 0.0, P = 0.0
    cdef double w
    cdef int g, k
    cdef bint damped = c != 0.0
    memset(f, 0, 8 * sizeof(real))
    for g in range(5):
        _shape_derivatives(DS5[g], DDS5[g], il, sp, spp)
        w = G5W[g] * l
        _interpolate(e, sp, r1)
        norm = _sqrt(r1[0] * r1[0] + r1[1] * r1[1])
        eps = norm - 1.0
        U += 0.5 * w * EA * eps * eps
        sa = EA * eps
        if damped:
            _interpolate(ed, sp, v1)
            eps_d = (r1[0] * v1[0] + r1[1] * v1[1]) / norm
            sa = sa + c * EA * eps_d
            P += w * c * EA * eps_d * eps_d
        for k in range(4):
            f[2 * k] += w * sa * sp[k] * r1[0] / norm
            f[2 * k + 1] += w * sa * sp[k] * r1[1] / norm
    for g in range(3):
        _shape_derivatives(DS3[g], DDS3[g], il, sp, spp)
        w = G3W[g] * l
        _interpolate(e, sp, r1)
        _interpolate(e, spp, r2)
        q = r1[0] * r1[0] + r1[1] * r1[1]
        kappa = (r1[0] * r2[1] - r1[1] * r2[0]) / q
        # d kappa / d r' and d kappa / d r''
        dk_a0 = r2[1] / q - 2.0 * kappa * r1[0] / q
        dk_a1 = -r2[0] / q - 2.0 * kappa * r1[1] / q
        dk_b0 = -r1[1] / q
        dk_b1 = r1[0] / q
        U += 0.5 * w * EI * kappa * kappa
        sb = EI * kappa
        if damped:
            _interpolate(ed, sp, v1)
            _interpolate(ed, spp, v2)
            kap_d = dk_a0 * v1[0] + dk_a1 * v1[1] + dk_b0 * v2[0] + dk_b1 * v2[1]
            sb = sb + c * EI * kap_d
            P += w * c * EI * kap_d * kap_d
        for k in range(4):
            f[2 * k] += w * sb * (sp[k] * dk_a0 + spp[k] * dk_b0)
            f[2 * k + 1] += w * sb * (sp[k] * dk_a1 + spp[k] * dk_b1)
    diss[0] = P
    return U


cdef inline real _force(int model, const real* e, const real* ed, double l, double EA,
                        double EI, double c, real* f, real* diss) noexcept nogil:
    if model == SHABANA:
        return _shabana(e, ed, l, EA, EI, c, f, diss)
    elif model == BERZERI:
        return _berzeri(e, ed, l, EA, EI, c, f, diss)
    return _reissner(e, ed, l, EA, EI, c, f, diss)


cdef double beam_force(int model, const double* e, const double* edot, double l, double EA,
                       double EI, double c, double* f, double* dissipation) noexcept nogil:
    """F = F_K + F_D (8, N and N m) into ``f``; returns the strain energy U (J).

    ``dissipation`` receives the dissipated power ``F_D . edot`` (W). ``edot`` is read only
    when ``c != 0`` (it may be NULL for an undamped beam).
    """
    return _force(model, e, edot, l, EA, EI, c, f, dissipation)


cdef void beam_tangent(int model, const double* e, const double* edot, double l, double EA,
                       double EI, double c, double* K, double* C) noexcept nogil:
    """K = dF/de and, when C is not NULL, C = dF/dedot (8 x 8 row-major) by the complex step.

    K in N/m (N for slope columns), C in N s/m; C is zero for an undamped beam.
    """
    cdef double complex ez[8]
    cdef double complex vz[8]
    cdef double complex fz[8]
    cdef double complex pz
    cdef int i, j
    for j in range(8):
        for i in range(8):
            ez[i] = e[i]
            vz[i] = edot[i] if c != 0.0 else 0.0
        ez[j] = e[j] + COMPLEX_STEP * 1j
        _force(model, ez, vz, l, EA, EI, c, fz, &pz)
        for i in range(8):
            K[8 * i + j] = fz[i].imag / COMPLEX_STEP
    if C == NULL:
        return
    if c == 0.0:
        memset(C, 0, 64 * sizeof(double))
        return
    for j in range(8):
        for i in range(8):
            ez[i] = e[i]
            vz[i] = edot[i]
        vz[j] = edot[j] + COMPLEX_STEP * 1j
        _force(model, ez, vz, l, EA, EI, c, fz, &pz)
        for i in range(8):
            C[8 * i + j] = fz[i].imag / COMPLEX_STEP


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
    cdef int n_out = nodes.shape[0], n_el = element_nodes.shape[0], t, s, i, j, a, b
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
                a = element_nodes[s, 0]
                b = element_nodes[s, 1]
                for i in range(4):
                    e[i] = nodes[t, a, i]
                    e[4 + i] = nodes[t, b, i]
                    v[i] = velocities[t, a, i]
                    v[4 + i] = velocities[t, b, i]
                out[t, 1] += beam_force(model, e, v, length[s], EA[s], EI[s], 0.0, f, &P)
                for i in range(8):
                    for j in range(8):
                        out[t, 0] += 0.5 * v[i] * M[s, i, j] * v[j]
    return np.asarray(out)
