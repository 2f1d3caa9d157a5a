"""Cython kernels of the planar two-node ANCF beam element (DESIGN.md section 1).

Element coordinates ``e = [r_A, r'_A, r_B, r'_B]`` (8, SI: m and dimensionless slopes),
length ``l`` (m), axial stiffness ``EA`` (N), bending stiffness ``EI`` (N m^2).

One force routine per elastic model, written once over the fused type ``real``
(double or double complex): the double version is the force, the complex version gives
the tangent stiffness ``K = dF/de`` by the complex step ``K[:, j] = Im F(e + i h u_j) / h``,
exact to round-off (no subtraction, so no step-size trade-off). Square roots go through
``_sqrt``, whose complex branch is the first-order expansion, exact for a complex step.
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


cdef real _shabana(const real* e, double l, double EA, double EI, real* f) noexcept nogil:
    """Local-frame model (RANCF paper eq. 5-7), 3 Gauss points (integrand degree 4).

    U = 1/2 int [EA (t.r' - 1)^2 + EI (n.r'')^2] ds, with the chord frame t, n of the
    element; F = dU/de including the chord-angle terms (n.r') da/de and -(t.r'') da/de.
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
    cdef real ul, ut, a_coef = 0.0, U = 0.0
    cdef double w
    cdef int g, k
    memset(f, 0, 8 * sizeof(real))
    for g in range(3):
        _shape_derivatives(DS3[g], DDS3[g], il, sp, spp)
        w = G3W[g] * l
        _interpolate(e, sp, r1)
        _interpolate(e, spp, r2)
        ul = t0 * r1[0] + t1 * r1[1] - 1.0
        ut = n0 * r2[0] + n1 * r2[1]
        U += 0.5 * w * (EA * ul * ul + EI * ut * ut)
        for k in range(4):
            f[2 * k] += w * (EA * ul * sp[k] * t0 + EI * ut * spp[k] * n0)
            f[2 * k + 1] += w * (EA * ul * sp[k] * t1 + EI * ut * spp[k] * n1)
        a_coef += w * (EA * ul * (n0 * r1[0] + n1 * r1[1]) - EI * ut * (t0 * r2[0] + t1 * r2[1]))
    # da/de = n^T (dr_B/de - dr_A/de) / |r_B - r_A|
    a_coef = a_coef * ic
    f[0] -= a_coef * n0
    f[1] -= a_coef * n1
    f[4] += a_coef * n0
    f[5] += a_coef * n1
    return U


cdef real _berzeri(const real* e, double l, double EA, double EI, real* f) noexcept nogil:
    """Continuum model (adaptive-modal paper eq. 8-16), 5 Gauss points (integrand degree 8).

    U = 1/2 int [EA eps^2 + EI r''.r''] ds, eps = (r'.r' - 1)/2 (Green strain).
    """
    cdef double il = 1.0 / l
    cdef double sp[4]
    cdef double spp[4]
    cdef real r1[2]
    cdef real r2[2]
    cdef real eps, U = 0.0
    cdef double w
    cdef int g, k
    memset(f, 0, 8 * sizeof(real))
    for g in range(5):
        _shape_derivatives(DS5[g], DDS5[g], il, sp, spp)
        w = G5W[g] * l
        _interpolate(e, sp, r1)
        _interpolate(e, spp, r2)
        eps = 0.5 * (r1[0] * r1[0] + r1[1] * r1[1] - 1.0)
        U += 0.5 * w * (EA * eps * eps + EI * (r2[0] * r2[0] + r2[1] * r2[1]))
        for k in range(4):
            f[2 * k] += w * (EA * eps * sp[k] * r1[0] + EI * spp[k] * r2[0])
            f[2 * k + 1] += w * (EA * eps * sp[k] * r1[1] + EI * spp[k] * r2[1])
    return U


cdef real _reissner(const real* e, double l, double EA, double EI, real* f) noexcept nogil:
    """Reissner / Euler-Bernoulli model of Exudyn's ANCFCable2D.

    eps = |r'| - 1 (5 Gauss points), kappa = (r' x r'') / |r'|^2 (3 Gauss points),
    U = 1/2 int [EA eps^2 + EI kappa^2] ds.
    """
    cdef double il = 1.0 / l
    cdef double sp[4]
    cdef double spp[4]
    cdef real r1[2]
    cdef real r2[2]
    cdef real norm, eps, q, kappa, dk_a0, dk_a1, dk_b0, dk_b1, U = 0.0
    cdef double w
    cdef int g, k
    memset(f, 0, 8 * sizeof(real))
    for g in range(5):
        _shape_derivatives(DS5[g], DDS5[g], il, sp, spp)
        w = G5W[g] * l
        _interpolate(e, sp, r1)
        norm = _sqrt(r1[0] * r1[0] + r1[1] * r1[1])
        eps = norm - 1.0
        U += 0.5 * w * EA * eps * eps
        for k in range(4):
            f[2 * k] += w * EA * eps * sp[k] * r1[0] / norm
            f[2 * k + 1] += w * EA * eps * sp[k] * r1[1] / norm
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
        for k in range(4):
            f[2 * k] += w * EI * kappa * (sp[k] * dk_a0 + spp[k] * dk_b0)
            f[2 * k + 1] += w * EI * kappa * (sp[k] * dk_a1 + spp[k] * dk_b1)
    return U


cdef inline real _force(int model, const real* e, double l, double EA, double EI,
                        real* f) noexcept nogil:
    if model == SHABANA:
        return _shabana(e, l, EA, EI, f)
    elif model == BERZERI:
        return _berzeri(e, l, EA, EI, f)
    return _reissner(e, l, EA, EI, f)


cdef double element_force(int model, const double* e, double l, double EA, double EI,
                          double* f) noexcept nogil:
    """Elastic force F_K = dU/de (8, N) into ``f``; returns the strain energy U (J)."""
    return _force(model, e, l, EA, EI, f)


cdef void element_tangent(int model, const double* e, double l, double EA, double EI,
                          double* K) noexcept nogil:
    """Tangent stiffness K[i, j] = dF_i/de_j (8 x 8 row-major, N/m) by the complex step."""
    cdef double complex ez[8]
    cdef double complex fz[8]
    cdef int i, j
    for j in range(8):
        for i in range(8):
            ez[i] = e[i]
        ez[j] = e[j] + COMPLEX_STEP * 1j
        _force(model, ez, l, EA, EI, fz)
        for i in range(8):
            K[8 * i + j] = fz[i].imag / COMPLEX_STEP


def force(int model, const double[::1] e, double l, double EA, double EI, double[::1] f):
    """Python entry to :c:func:`element_force` (shapes checked by rancf.element)."""
    return element_force(model, &e[0], l, EA, EI, &f[0])


def tangent(int model, const double[::1] e, double l, double EA, double EI, double[:, ::1] K):
    """Python entry to :c:func:`element_tangent` (shapes checked by rancf.element)."""
    element_tangent(model, &e[0], l, EA, EI, &K[0, 0])


def chain_energies(int model, const int[:, ::1] element_nodes, const double[::1] length,
                   const double[::1] EA, const double[::1] EI, const double[:, :, ::1] M,
                   const double[:, ::1] FG, const double[:, :, ::1] nodes,
                   const double[:, :, ::1] velocities):
    """Kinetic, elastic and gravity energy (J) of a chain at n_out instants, (n_out, 3).

    Kinetic ``1/2 sum V_E^T M_E V_E``, elastic ``sum U(e)``, gravity ``-sum F_G . e``,
    from node coordinates and node velocities (n_out, n_nodes, 4): any formulation.
    """
    cdef int n_out = nodes.shape[0], n_el = element_nodes.shape[0], t, s, i, j, a, b
    cdef double[:, ::1] out = np.zeros((n_out, 3))
    cdef double e[8]
    cdef double v[8]
    cdef double f[8]
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
                out[t, 1] += element_force(model, e, length[s], EA[s], EI[s], f)
                for i in range(8):
                    out[t, 2] -= FG[s, i] * e[i]
                    for j in range(8):
                        out[t, 0] += 0.5 * v[i] * M[s, i, j] * v[j]
    return np.asarray(out)
