# Rotations in space for the compiled kernels (theory: Spatial beams): SO(3) as inline functions.
#
# Vectors are double[3]; matrices double[9], row-major (M[3 * i + j]). For a rotation vector p
# with angle a = |p| and skew matrix P = p^ (P x = p x x):
#   exp(P) = I + s1(a) P + c1(a) P^2,            s1 = sin a / a,  c1 = (1 - cos a) / a^2
#   J_l(p) = I + c1(a) P + c2(a) P^2,            c2 = (a - sin a) / a^3
#   J_l(p)^-1 = I - P / 2 + c3(a) P^2,           c3 = 1 / a^2 - (1 + cos a) / (2 a sin a)
# J_l is the left Jacobian: the spatial angular velocity of exp(p^) is J_l(p) p'. Below
# a = SMALL = 0.25 the coefficients are their Taylor series to a^10 (truncation below 1e-16
# relative); above it, the closed forms (1 - cos a written 2 sin^2(a/2), cot(a/2) as
# cos(a/2) / sin(a/2), so that neither cancels near 0 or pi) lose to cancellation at most,
# relative, just above SMALL: 1e-14 (c2), 1e-13 (d1, c3), 5e-12 (d2), 5e-11 (d3), 5e-8 (e3)
# (s1 and c1 about 4e-16). The rates d2, d3, e3 multiply higher powers of p than c1 and c3,
# so that each term of J_l's rate and of the beam's Hessian keeps about 1e-14 relative.

from libc.math cimport atan2, cos, sin, sqrt

cdef extern from *:
    """
    #define RANCF_ROTATION_SMALL 0.25
    """
    const double SMALL "RANCF_ROTATION_SMALL"


cdef inline void skew(const double* p, double* P) noexcept nogil:
    """P = p^, the cross-product matrix: P x = p x x."""
    P[0] = 0.0
    P[1] = -p[2]
    P[2] = p[1]
    P[3] = p[2]
    P[4] = 0.0
    P[5] = -p[0]
    P[6] = -p[1]
    P[7] = p[0]
    P[8] = 0.0


cdef inline void cross(const double* a, const double* b, double* c) noexcept nogil:
    """c = a x b (c must not alias a or b)."""
    c[0] = a[1] * b[2] - a[2] * b[1]
    c[1] = a[2] * b[0] - a[0] * b[2]
    c[2] = a[0] * b[1] - a[1] * b[0]


cdef inline double dot(const double* a, const double* b) noexcept nogil:
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


cdef inline void matvec(const double* M, const double* x, double* y) noexcept nogil:
    """y = M x (y must not alias x)."""
    y[0] = M[0] * x[0] + M[1] * x[1] + M[2] * x[2]
    y[1] = M[3] * x[0] + M[4] * x[1] + M[5] * x[2]
    y[2] = M[6] * x[0] + M[7] * x[1] + M[8] * x[2]


cdef inline void matTvec(const double* M, const double* x, double* y) noexcept nogil:
    """y = M^T x (y must not alias x)."""
    y[0] = M[0] * x[0] + M[3] * x[1] + M[6] * x[2]
    y[1] = M[1] * x[0] + M[4] * x[1] + M[7] * x[2]
    y[2] = M[2] * x[0] + M[5] * x[1] + M[8] * x[2]


cdef inline void matmul(const double* A, const double* B, double* C) noexcept nogil:
    """C = A B (C must not alias A or B)."""
    cdef int i, j
    for i in range(3):
        for j in range(3):
            C[3 * i + j] = A[3 * i] * B[j] + A[3 * i + 1] * B[3 + j] + A[3 * i + 2] * B[6 + j]


cdef inline void matTmul(const double* A, const double* B, double* C) noexcept nogil:
    """C = A^T B (C must not alias A or B)."""
    cdef int i, j
    for i in range(3):
        for j in range(3):
            C[3 * i + j] = A[i] * B[j] + A[3 + i] * B[3 + j] + A[6 + i] * B[6 + j]


cdef inline void matmulT(const double* A, const double* B, double* C) noexcept nogil:
    """C = A B^T (C must not alias A or B)."""
    cdef int i, j
    for i in range(3):
        for j in range(3):
            C[3 * i + j] = A[3 * i] * B[3 * j] + A[3 * i + 1] * B[3 * j + 1] \
                + A[3 * i + 2] * B[3 * j + 2]


cdef inline void coefficients(double a, double* s1, double* c1, double* c2) noexcept nogil:
    """s1 = sin a / a, c1 = (1 - cos a) / a^2, c2 = (a - sin a) / a^3 (a >= 0, rad)."""
    cdef double a2 = a * a, h, s
    if a < SMALL:
        s1[0] = 1.0 - a2 * (1.0 / 6.0 - a2 * (1.0 / 120.0 - a2 * (1.0 / 5040.0 - a2 * (
            1.0 / 362880.0 - a2 / 39916800.0))))
        c1[0] = 0.5 - a2 * (1.0 / 24.0 - a2 * (1.0 / 720.0 - a2 * (1.0 / 40320.0 - a2 * (
            1.0 / 3628800.0 - a2 / 479001600.0))))
        c2[0] = 1.0 / 6.0 - a2 * (1.0 / 120.0 - a2 * (1.0 / 5040.0 - a2 * (1.0 / 362880.0 - a2 * (
            1.0 / 39916800.0 - a2 / 6227020800.0))))
    else:
        h = sin(0.5 * a)
        s = sin(a)
        s1[0] = s / a
        c1[0] = 2.0 * h * h / a2        # 1 - cos a without its cancellation at small a
        c2[0] = (a - s) / (a2 * a)


cdef inline void rates_of(double a, double s1, double c1, double c2, double* d1,
                          double* d2) noexcept nogil:
    """d1 = c1'(a) / a, d2 = c2'(a) / a from the coefficients s1, c1, c2 of the same a (rad):
    ``d1 = (s1 - 2 c1) / a^2``, ``d2 = (c1 - 3 c2) / a^2`` above SMALL (no trigonometric call:
    a kernel that has the coefficients gets the rates for a few flops), the series below."""
    cdef double a2 = a * a
    if a < SMALL:
        d1[0] = -1.0 / 12.0 + a2 * (1.0 / 180.0 - a2 * (1.0 / 6720.0 - a2 * (
            1.0 / 453600.0 - a2 * (1.0 / 47900160.0 - a2 / 7264857600.0))))
        d2[0] = -1.0 / 60.0 + a2 * (1.0 / 1260.0 - a2 * (1.0 / 60480.0 - a2 * (
            1.0 / 4989600.0 - a2 * (1.0 / 622702080.0 - a2 / 108972864000.0))))
    else:
        d1[0] = (s1 - 2.0 * c1) / a2
        d2[0] = (c1 - 3.0 * c2) / a2


cdef inline void coefficient_rates(double a, double* d1, double* d2) noexcept nogil:
    """d1 = c1'(a) / a, d2 = c2'(a) / a: with a' = p . p' / a, ``c1(a)' = d1 (p . p')``."""
    cdef double s1, c1, c2
    coefficients(a, &s1, &c1, &c2)
    rates_of(a, s1, c1, c2, d1, d2)


cdef inline void add_series(double c0, double c1, double c2, const double* P,
                            double* M) noexcept nogil:
    """M = c0 I + c1 P + c2 P^2 for a skew P."""
    cdef int i, j
    cdef double P2
    for i in range(3):
        for j in range(3):
            P2 = P[3 * i] * P[j] + P[3 * i + 1] * P[3 + j] + P[3 * i + 2] * P[6 + j]
            M[3 * i + j] = c1 * P[3 * i + j] + c2 * P2
        M[4 * i] += c0


cdef inline void expm(const double* p, double* R) noexcept nogil:
    """R = exp(p^) (Rodrigues' formula), p a rotation vector (rad)."""
    cdef double P[9]
    cdef double s1, c1, c2
    coefficients(sqrt(dot(p, p)), &s1, &c1, &c2)
    skew(p, P)
    add_series(1.0, s1, c1, P, R)


cdef inline void left_jacobian(const double* p, double* J) noexcept nogil:
    """J = J_l(p) = I + c1 P + c2 P^2: ``w = J_l(p) p'`` for ``R = exp(p^)``, ``R' R^T = w^``."""
    cdef double P[9]
    cdef double s1, c1, c2
    coefficients(sqrt(dot(p, p)), &s1, &c1, &c2)
    skew(p, P)
    add_series(1.0, c1, c2, P, J)


cdef inline void left_jacobian_rate(const double* p, const double* pd,
                                    double* Jd) noexcept nogil:
    """Jd = d/dt J_l(p) for p' = pd:
    ``c1' P + c1 P' + c2' P^2 + c2 (P' P + P P')`` with ``ck' = dk (p . p')``."""
    cdef double P[9]
    cdef double Pd[9]
    cdef double s1, c1, c2, d1, d2, a = sqrt(dot(p, p)), pp = dot(p, pd)
    cdef int i, j, k
    coefficients(a, &s1, &c1, &c2)
    rates_of(a, s1, c1, c2, &d1, &d2)
    skew(p, P)
    skew(pd, Pd)
    for i in range(3):
        for j in range(3):
            Jd[3 * i + j] = d1 * pp * P[3 * i + j] + c1 * Pd[3 * i + j]
            for k in range(3):
                Jd[3 * i + j] += d2 * pp * P[3 * i + k] * P[3 * k + j] \
                    + c2 * (Pd[3 * i + k] * P[3 * k + j] + P[3 * i + k] * Pd[3 * k + j])


cdef inline void left_jacobian_gradient(const double* p, const double* x, double sign,
                                        double* G) noexcept nogil:
    """G (3 x 3, row-major) = d(J x)/dp for a fixed vector x, with ``J = I + sign c1 P + c2
    P^2``: J_l(p) for sign = 1, its transpose ``J_l(p)^T = J_l(-p)`` for sign = -1. With
    ``P x = p x x``, ``P^2 x = p (p . x) - a^2 x`` and ``dc_k/dp = d_k p^T`` (:func:`rates_of`)::

        G = (sign d1 p x x + d2 (p (p . x) - a^2 x) - 2 c2 x) p^T - sign c1 X
            + c2 ((p . x) I + p x^T)

    (X = x^). Why: the column k of G is ``(dJ/dp_k) x``, which :func:`left_jacobian_rate`
    along e_k gives as a whole 3 x 3 matrix before its product with x (27 terms a column, where
    this takes a few): the turning of a rotation vector's motion subspace in statics' matrix
    needs ``x^T dJ_l/dp_k`` for one x (rancf/formulations/_spatial_implicit.pyx,
    ``_turning_columns``)."""
    cdef double s1, c1, c2, d1, d2, a2 = dot(p, p), px = dot(p, x)
    cdef double y[3]
    cdef double u[3]
    cdef int i, k
    coefficients(sqrt(a2), &s1, &c1, &c2)
    rates_of(sqrt(a2), s1, c1, c2, &d1, &d2)
    cross(p, x, y)
    for i in range(3):
        u[i] = sign * d1 * y[i] + d2 * (p[i] * px - a2 * x[i]) - 2.0 * c2 * x[i]
    for i in range(3):
        for k in range(3):
            G[3 * i + k] = u[i] * p[k] + c2 * p[i] * x[k]
        G[4 * i] += c2 * px
    # - sign c1 X
    G[1] += sign * c1 * x[2]
    G[2] -= sign * c1 * x[1]
    G[3] -= sign * c1 * x[2]
    G[5] += sign * c1 * x[0]
    G[6] += sign * c1 * x[1]
    G[7] -= sign * c1 * x[0]


cdef inline void inverse_coefficients(double a, double* c3, double* d3, double* e3) noexcept nogil:
    """The coefficient of J_l^-1 and its rates (a >= 0, rad; |a| < 2 pi):
    ``c3 = 1/a^2 - (1 + cos a) / (2 a sin a) = 1/a^2 - t / (2 a)``, ``t = cot(a / 2)``,
    ``d3 = c3'(a) / a = -2/a^4 + t / (2 a^3) + (1 + t^2) / (4 a^2)``,
    ``e3 = d3'(a) / a = 8/a^6 - 3 t / (2 a^5) - 3 (1 + t^2) / (4 a^4) - t (1 + t^2) / (4 a^3)``
    (``t' = -(1 + t^2) / 2``), so that with a' = p . p' / a, ``c3' = d3 (p . p')`` and
    ``d3' = e3 (p . p')``: the gradients of the strain of a spatial beam and their Hessian need
    them. Below a = SMALL = 0.25 the Taylor series to a^10 (truncation below 1e-16 relative: the
    series converge for a < 2 pi, each term about (a / 2 pi)^2 of the one before); above it the
    closed forms, which cancel to about 1e-13 (c3), 5e-11 (d3) and 5e-8 (e3) relative at
    a = SMALL; d3 and e3 multiply terms of order a^2 and a^4 smaller than c3's, so each term
    keeps about 1e-14 relative."""
    cdef double a2 = a * a, t, u
    if a < SMALL:
        c3[0] = 1.0 / 12.0 + a2 * (1.0 / 720.0 + a2 * (1.0 / 30240.0 + a2 * (
            1.0 / 1209600.0 + a2 * (1.0 / 47900160.0 + a2 * (691.0 / 1307674368000.0)))))
        d3[0] = 1.0 / 360.0 + a2 * (1.0 / 7560.0 + a2 * (1.0 / 201600.0 + a2 * (
            1.0 / 5987520.0 + a2 * (691.0 / 130767436800.0 + a2 / 6227020800.0))))
        e3[0] = 1.0 / 3780.0 + a2 * (1.0 / 50400.0 + a2 * (1.0 / 997920.0 + a2 * (
            691.0 / 16345929600.0 + a2 * (1.0 / 622702080.0 + a2 * (
                3617.0 / 63515612160000.0)))))
    else:
        t = cos(0.5 * a) / sin(0.5 * a)     # (1 + cos a) / sin a, exact also near pi
        u = 1.0 + t * t
        c3[0] = 1.0 / a2 - t / (2.0 * a)
        d3[0] = (-2.0 / a2 + t / (2.0 * a) + u / 4.0) / a2
        e3[0] = (8.0 / (a2 * a2) - 1.5 * t / (a2 * a) - 0.75 * u / a2 - 0.25 * t * u / a) / a2


cdef inline void left_jacobian_inverse(const double* p, double* Ji) noexcept nogil:
    """Ji = J_l(p)^-1 = I - P / 2 + c3 P^2 (|p| < 2 pi)."""
    cdef double P[9]
    cdef double c3, d3, e3
    inverse_coefficients(sqrt(dot(p, p)), &c3, &d3, &e3)
    skew(p, P)
    add_series(1.0, -0.5, c3, P, Ji)


cdef inline void logm(const double* R, double* p) noexcept nogil:
    """p = log(R): the rotation vector of R with |p| <= pi, through the unit quaternion of R
    (Shepperd's choice of the largest component), so that it is accurate at every angle,
    including near 0 and pi."""
    cdef double tr = R[0] + R[4] + R[8], w, x, y, z, s, n, a, f
    if tr >= R[0] and tr >= R[4] and tr >= R[8]:
        s = 2.0 * sqrt(1.0 + tr)
        w = 0.25 * s
        x = (R[7] - R[5]) / s
        y = (R[2] - R[6]) / s
        z = (R[3] - R[1]) / s
    elif R[0] >= R[4] and R[0] >= R[8]:
        s = 2.0 * sqrt(1.0 + R[0] - R[4] - R[8])
        w = (R[7] - R[5]) / s
        x = 0.25 * s
        y = (R[1] + R[3]) / s
        z = (R[2] + R[6]) / s
    elif R[4] >= R[8]:
        s = 2.0 * sqrt(1.0 + R[4] - R[0] - R[8])
        w = (R[2] - R[6]) / s
        x = (R[1] + R[3]) / s
        y = 0.25 * s
        z = (R[5] + R[7]) / s
    else:
        s = 2.0 * sqrt(1.0 + R[8] - R[0] - R[4])
        w = (R[3] - R[1]) / s
        x = (R[2] + R[6]) / s
        y = (R[5] + R[7]) / s
        z = 0.25 * s
    if w < 0.0:
        w, x, y, z = -w, -x, -y, -z
    n = sqrt(x * x + y * y + z * z)
    a = 2.0 * atan2(n, w)
    # p = (a / n) (x, y, z), a = 2 atan(n / w) = (2 n / w) (1 - n^2 / (3 w^2) + ...)
    if n < 1e-8:
        f = 2.0 / w * (1.0 - n * n / (3.0 * w * w))
    else:
        f = a / n
    p[0] = f * x
    p[1] = f * y
    p[2] = f * z
