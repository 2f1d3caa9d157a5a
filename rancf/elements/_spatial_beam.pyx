"""Cython kernels of the spatial beam element on the SE(3) strain (theory: Spatial beams;
Sonneville, Cardona and Bruls, CMAME 2014).

An element joins node k-1 to node k. Its coordinates ``e = (u, psi)`` (m, rad) are the motion
of node k seen from node k-1: the relative position ``d = s + u`` and rotation
``R = exp(psi^) Q``, with ``s`` (3, m) and ``Q`` (9, row-major) those of the reference
configuration. With ``p = log(R)`` (|p| <= pi) and ``J_l`` the left Jacobian of SO(3)
(rancf/elements/_rotation.pxd), the element's constant strains are::

    gamma = J_l(p)^-1 d / l,   kappa = p / l,   eps = (gamma, kappa)                     (1)

(the twist of the SE(3) logarithm of the relative pose, divided by the length ``l``) and its
energy, with ``C = diag(EA, k_y G A, k_z G A, G J, E I_y, E I_z)`` (N, N, N, N m^2 ...)::

    U = 1/2 l (eps - eps0)^T C (eps - eps0).                                             (2)

Derivatives. A variation of psi turns R by ``dR R^T = (J_l(psi) dpsi)^``, which is also
``(J_l(p) dp)^``, so ``dp = G dpsi`` with ``G = J_l(p)^-1 J_l(psi)``. Writing
``h(p, d) = J_l(p)^-1 d = d - p x d / 2 + c3(|p|) p x (p x d)`` and
``H = dh/dp = d^ / 2 + c3 (p d^T + (p . d) I - 2 d p^T) + d3 (p x (p x d)) p^T``
(``d3 = c3'(a) / a``), the strain map is::

    B = d eps / d e = 1/l [[J_l(p)^-1, H G], [0, G]],                                    (3)

the force ``f = -l B^T sigma`` with the section forces ``sigma = C (eps - eps0 + c B ed)``
(Kelvin-Voigt damping time ``c``, s) and the tangent, the exact Hessian of (2)::

    K = l B^T C B + d^2/de^2 [lambda . h(p(psi), s + u) + mu . p(psi)],                  (4)

``(lambda, mu) = C (eps - eps0)`` held fixed. The second term has three parts: the u-psi block
``dh^T lambda / dp G`` (``h^T = J_l(p)^-T = J_l(-p)^-1``); ``G^T (d^2 (lambda . h) / dp^2) G``,
from ``c3 q`` with ``q = (p . lambda)(p . d) - (lambda . d)(p . p)``; and the second derivative of
``p(psi)`` contracted with ``w = H^T lambda + mu``, the psi-derivative of
``(J_l(p)^-T w)^T J_l(psi)`` at fixed w: ``J_l(psi)^T (d J_l(p)^-T w / dp) G`` plus the
derivative of ``J_l(psi)^T v = v - c1 psi x v + c2 psi x (psi x v)`` at fixed
``v = J_l(p)^-T w``. Each is the derivative of a vector ``b(a) p x w + c(a) p x (p x w)``,
one function (:c:func:`_series_derivative`). The psi-psi block is symmetrized once, so K is
symmetric to the last bit.

Vectors are ``double[3]``, matrices ``double[9]`` row-major, element matrices ``double[36]``
row-major over ``(u, psi)``. The functions ``rotation_*`` and ``force``, ``energy``,
``reference`` are thin Python entries for tests (rancf.elements.spatial_beam checks the input
and wraps them).
"""
from libc.math cimport M_PI, NAN, sqrt

cimport rancf.elements._rotation as rot


cdef inline void _series_derivative(const double* p, const double* w, double b, double db,
                                    double c, double dc, double* M) noexcept nogil:
    """M (9) = d/dp [b p x w + c p x (p x w)] at fixed w, with ``b = b(|p|)``,
    ``c = c(|p|)``, ``db = b'(a) / a``, ``dc = c'(a) / a``:
    ``-b w^ + db (p x w) p^T + c (p w^T + (p . w) I - 2 w p^T) + dc (p x (p x w)) p^T``."""
    cdef double pw[3]
    cdef double ppw[3]
    cdef double W[9]
    cdef double pdw = rot.dot(p, w)
    cdef int i, j
    rot.cross(p, w, pw)
    rot.cross(p, pw, ppw)
    rot.skew(w, W)
    for i in range(3):
        for j in range(3):
            M[3 * i + j] = -b * W[3 * i + j] + db * pw[i] * p[j] \
                + c * (p[i] * w[j] - 2.0 * w[i] * p[j]) + dc * ppw[i] * p[j]
        M[4 * i] += c * pdw


cdef int _strains(const double* s, const double* Q, const double* e, double l, double* d,
                  double* p, double* eps, double* Ji, double* coef, double* Jpsi,
                  double* psi_coef) noexcept nogil:
    """The relative position d (3), the rotation vector p = log(exp(psi^) Q) (3), the strains
    eps (6) of (1), J_l(p)^-1 (9), the coefficients (c3, d3, e3) of |p| in coef (3), J_l(psi)
    (9) and the coefficients (s1, c1, c2) of |psi| in psi_coef (3) (each computed once: the
    trigonometric calls are most of the cost). Returns -1 (nothing written) if |psi| >= pi,
    else 0."""
    cdef const double* psi = e + 3
    cdef double E[9]
    cdef double R[9]
    cdef double P[9]
    cdef double a2 = rot.dot(psi, psi)
    cdef int i
    if a2 >= M_PI * M_PI:
        return -1
    for i in range(3):
        d[i] = s[i] + e[i]
    rot.coefficients(sqrt(a2), psi_coef, psi_coef + 1, psi_coef + 2)
    rot.skew(psi, P)
    rot.add_series(1.0, psi_coef[0], psi_coef[1], P, E)
    rot.add_series(1.0, psi_coef[1], psi_coef[2], P, Jpsi)
    rot.matmul(E, Q, R)
    rot.logm(R, p)
    rot.inverse_coefficients(sqrt(rot.dot(p, p)), coef, coef + 1, coef + 2)
    rot.skew(p, P)
    rot.add_series(1.0, -0.5, coef[0], P, Ji)
    rot.matvec(Ji, d, eps)
    for i in range(3):
        eps[i] /= l
        eps[3 + i] = p[i] / l
    return 0


cdef void _strain_map(const double* d, const double* p, const double* Ji, const double* coef,
                      const double* Jpsi, double* G, double* H, double* HG) noexcept nogil:
    """G = J_l(p)^-1 J_l(psi), H = dh/dp and HG = H G (9 each) of (3):
    B = 1/l [[Ji, HG], [0, G]]."""
    rot.matmul(Ji, Jpsi, G)
    _series_derivative(p, d, -0.5, 0.0, coef[0], coef[1], H)
    rot.matmul(H, G, HG)


cdef void _material_matrix(const double* Ji, const double* G, const double* HG, double l,
                           const double* C, double scale, double* K) noexcept nogil:
    """K (36) = scale l B^T C B with B of (3): the material part of (4) (scale 1) or the
    damping matrix (scale c)."""
    cdef double CJ[9]
    cdef double CHG[9]
    cdef double CG[9]
    cdef double w = scale / l, t
    cdef int i, j, k
    # rows of C_gamma Ji, C_gamma HG, C_kappa G
    for i in range(3):
        for j in range(3):
            CJ[3 * i + j] = C[i] * Ji[3 * i + j]
            CHG[3 * i + j] = C[i] * HG[3 * i + j]
            CG[3 * i + j] = C[3 + i] * G[3 * i + j]
    for i in range(3):
        for j in range(3):
            if j <= i:      # diagonal blocks mirrored: symmetric to the last bit
                t = 0.0
                for k in range(3):
                    t = t + Ji[3 * k + i] * CJ[3 * k + j]
                K[6 * i + j] = w * t
                K[6 * j + i] = w * t
            t = 0.0
            for k in range(3):
                t = t + Ji[3 * k + i] * CHG[3 * k + j]
            K[6 * i + 3 + j] = w * t
            K[6 * (3 + j) + i] = w * t
            if j <= i:
                t = 0.0
                for k in range(3):
                    t = t + HG[3 * k + i] * CHG[3 * k + j] + G[3 * k + i] * CG[3 * k + j]
                K[6 * (3 + i) + 3 + j] = w * t
                K[6 * (3 + j) + 3 + i] = w * t


cdef void _geometric_matrix(const double* e, const double* d, const double* p, const double* Ji,
                            const double* coef, const double* G, const double* H,
                            const double* Jpsi, const double* psi_coef, const double* lam,
                            const double* mu, double* K) noexcept nogil:
    """Adds to K (36) the second term of (4) for the section forces (lam, mu) (N, N m)."""
    cdef const double* psi = e + 3
    cdef double c3 = coef[0], d3 = coef[1], e3 = coef[2]
    cdef double M[9]
    cdef double MG[9]
    cdef double Hp[9]
    cdef double T[9]
    cdef double gq[3]
    cdef double w[3]
    cdef double v[3]
    cdef double pl = rot.dot(p, lam), pd = rot.dot(p, d), ld = rot.dot(lam, d)
    cdef double pp = rot.dot(p, p), q, a, d1, d2, t
    cdef int i, j
    # u-psi: d(J_l(p)^-T lam)/dp G
    _series_derivative(p, lam, 0.5, 0.0, c3, d3, M)
    rot.matmul(M, G, MG)
    for i in range(3):
        for j in range(3):
            K[6 * i + 3 + j] += MG[3 * i + j]
            K[6 * (3 + j) + i] += MG[3 * i + j]
    # psi-psi: G^T Hp G, Hp the p-Hessian of lam . h = c3 q + (terms linear in p)
    q = pl * pd - ld * pp
    for i in range(3):
        gq[i] = lam[i] * pd + d[i] * pl - 2.0 * ld * p[i]
    for i in range(3):
        for j in range(3):
            Hp[3 * i + j] = c3 * (lam[i] * d[j] + d[i] * lam[j]) \
                + d3 * (gq[i] * p[j] + p[i] * gq[j]) + q * e3 * p[i] * p[j]
        Hp[4 * i] += q * d3 - 2.0 * c3 * ld
    rot.matmul(Hp, G, M)
    rot.matTmul(G, M, T)
    # psi-psi: the second derivative of p(psi) contracted with w = d(lam . h + mu . p)/dp
    rot.matTvec(H, lam, w)
    for i in range(3):
        w[i] += mu[i]
    rot.matTvec(Ji, w, v)
    _series_derivative(p, w, 0.5, 0.0, c3, d3, M)
    rot.matmul(M, G, MG)
    rot.matTmul(Jpsi, MG, M)
    # the part through J_l(p)^-T enters transposed: it is the derivative of row b of w^T G in
    # psi_a, and K's (a, b) entry is wanted
    for i in range(3):
        for j in range(3):
            T[3 * i + j] += M[3 * j + i]
    a = sqrt(rot.dot(psi, psi))
    rot.rates_of(a, psi_coef[0], psi_coef[1], psi_coef[2], &d1, &d2)
    _series_derivative(psi, v, -psi_coef[1], -d1, psi_coef[2], d2, M)
    # symmetrized once: the exact Hessian is symmetric, round-off need not be
    for i in range(3):
        for j in range(i + 1):
            t = 0.5 * (T[3 * i + j] + T[3 * j + i] + M[3 * j + i] + M[3 * i + j])
            K[6 * (3 + i) + 3 + j] += t
            if j != i:
                K[6 * (3 + j) + 3 + i] += t


cdef int element_force(const double* s, const double* Q, const double* e, const double* ed,
                       double l, const double* C, const double* strain0, double c,
                       double* f, double* K, double* sigma, double* power) noexcept nogil:
    """The element's force, tangent, section forces and dissipated power (module docstring).

    Parameters: ``s`` (3, m) and ``Q`` (9) the reference relative position and orientation,
    ``e`` (6) the coordinates (u, psi) (m, rad), ``ed`` (6) their rates, ``l`` (m) the length,
    ``C`` (6) the diagonal stiffness (N, N, N, N m^2, N m^2, N m^2), ``strain0`` (6) the
    reference strains, ``c`` (s) the Kelvin-Voigt damping time. Outputs: ``f`` (6) the force
    ``-dU/de - l B^T C c B ed`` (N, N m); ``K`` (36, row-major) the Hessian of U (4), or NULL;
    ``sigma`` (6) the section forces ``C (eps - eps0 + c B ed)`` (N, N, N, N m, N m, N m), or
    NULL; ``power`` (1) the power the Kelvin-Voigt damping dissipates,
    ``ed . (l B^T C c B ed) = (c / l) sum_i C_i r_i^2 >= 0`` with ``r = l B ed`` (W: the energy
    balance's dissipation, the minus power of the force's damping part), or NULL. Returns -1
    (nothing written) if |psi| >= pi, else 0.
    """
    cdef double d[3]
    cdef double p[3]
    cdef double eps[6]
    cdef double rate[6]
    cdef double sel[6]
    cdef double sig[6]
    cdef double coef[3]
    cdef double psi_coef[3]
    cdef double Ji[9]
    cdef double Jpsi[9]
    cdef double G[9]
    cdef double H[9]
    cdef double HG[9]
    cdef double P
    cdef int i
    if _strains(s, Q, e, l, d, p, eps, Ji, coef, Jpsi, psi_coef) != 0:
        return -1
    _strain_map(d, p, Ji, coef, Jpsi, G, H, HG)
    # rate = l B ed
    rot.matvec(Ji, ed, rate)
    rot.matvec(HG, ed + 3, sig)
    rot.matvec(G, ed + 3, rate + 3)
    for i in range(3):
        rate[i] += sig[i]
    for i in range(6):
        sel[i] = C[i] * (eps[i] - strain0[i])
        sig[i] = sel[i] + c * C[i] * rate[i] / l
    if power != NULL:
        # here, before the assembly of f below reuses rate
        P = 0.0
        for i in range(6):
            P += C[i] * rate[i] * rate[i]
        power[0] = c * P / l
    # f = -l B^T sig
    rot.matTvec(Ji, sig, f)
    rot.matTvec(HG, sig, rate)
    rot.matTvec(G, sig + 3, f + 3)
    for i in range(3):
        f[i] = -f[i]
        f[3 + i] = -(f[3 + i] + rate[i])
    if sigma != NULL:
        for i in range(6):
            sigma[i] = sig[i]
    if K != NULL:
        _material_matrix(Ji, G, HG, l, C, 1.0, K)
        _geometric_matrix(e, d, p, Ji, coef, G, H, Jpsi, psi_coef, sel, sel + 3, K)
    return 0


cdef double element_energy(const double* s, const double* Q, const double* e, double l,
                           const double* C, const double* strain0) noexcept nogil:
    """The strain energy (2) (J); the arguments as for :c:func:`element_force`. Meant for
    |psi| < pi, where it is smooth; for larger psi it is that of the rotation log(exp(psi^) Q)."""
    cdef double d[3]
    cdef double p[3]
    cdef double eps[6]
    cdef double coef[3]
    cdef double Ji[9]
    cdef double E[9]
    cdef double R[9]
    cdef double P[9]
    cdef double U = 0.0, de
    cdef int i
    for i in range(3):
        d[i] = s[i] + e[i]
    rot.expm(e + 3, E)
    rot.matmul(E, Q, R)
    rot.logm(R, p)
    rot.left_jacobian_inverse(p, Ji)
    rot.matvec(Ji, d, eps)
    for i in range(3):
        eps[3 + i] = p[i]
    for i in range(6):
        de = eps[i] / l - strain0[i]
        U += C[i] * de * de
    return 0.5 * l * U


cdef int element_damping(const double* s, const double* Q, const double* e, double l,
                         const double* C, double c, double* D) noexcept nogil:
    """D (36, row-major) = c l B^T C B (N s/m ...): the derivative of the damping force
    ``l B^T C c B ed`` in ed (the implicit steps' damping matrix). Returns -1 (nothing written)
    if |psi| >= pi, else 0."""
    cdef double d[3]
    cdef double p[3]
    cdef double eps[6]
    cdef double coef[3]
    cdef double psi_coef[3]
    cdef double Ji[9]
    cdef double Jpsi[9]
    cdef double G[9]
    cdef double H[9]
    cdef double HG[9]
    if _strains(s, Q, e, l, d, p, eps, Ji, coef, Jpsi, psi_coef) != 0:
        return -1
    _strain_map(d, p, Ji, coef, Jpsi, G, H, HG)
    _material_matrix(Ji, G, HG, l, C, c, D)
    return 0


cdef double reference_strain(const double* s, const double* Q, double* strain0) noexcept nogil:
    """The length l (m, returned) and strains strain0 (6) of the reference relative pose
    (s, Q): l = |J_l(p0)^-1 s| with p0 = log(Q), the length of the translation part of the SE(3)
    logarithm (the chord of a straight element, the arc of a circular one), and strain0 = (1)
    with u = 0, psi = 0. Returns 0 (strain0 not written) if that translation is zero."""
    cdef double p[3]
    cdef double Ji[9]
    cdef double t[3]
    cdef double l
    cdef int i
    rot.logm(Q, p)
    rot.left_jacobian_inverse(p, Ji)
    rot.matvec(Ji, s, t)
    l = sqrt(rot.dot(t, t))
    if l > 0.0:
        for i in range(3):
            strain0[i] = t[i] / l
            strain0[3 + i] = p[i] / l
    return l


# Python entries for tests and for rancf.elements.spatial_beam (no checks here: it checks).

def force(const double[::1] s, const double[::1] Q, const double[::1] e, const double[::1] ed,
          double l, const double[::1] C, const double[::1] strain0, double c, double[::1] f,
          double[::1] K, double[::1] sigma):
    """element_force into f (6), K (36), sigma (6); returns its status (0, or -1)."""
    return element_force(&s[0], &Q[0], &e[0], &ed[0], l, &C[0], &strain0[0], c, &f[0], &K[0],
                         &sigma[0], NULL)


def damping(const double[::1] s, const double[::1] Q, const double[::1] e, double l,
            const double[::1] C, double c, double[::1] D):
    """element_damping into D (36); returns its status (0, or -1)."""
    return element_damping(&s[0], &Q[0], &e[0], l, &C[0], c, &D[0])


def energy(const double[::1] s, const double[::1] Q, const double[::1] e, double l,
           const double[::1] C, const double[::1] strain0):
    """element_energy."""
    return element_energy(&s[0], &Q[0], &e[0], l, &C[0], &strain0[0])


def reference(const double[:, ::1] s, const double[:, ::1] Q, double[::1] l,
              double[:, ::1] strain0):
    """reference_strain of e elements: s (e, 3), Q (e, 9) into l (e,) and strain0 (e, 6)."""
    cdef Py_ssize_t k
    for k in range(s.shape[0]):
        l[k] = reference_strain(&s[k, 0], &Q[k, 0], &strain0[k, 0])


def sections(const double[:, ::1] pose0, const double[:, ::1] pose1,
             const double[:, ::1] rate0, const double[:, ::1] rate1, const double[:, ::1] s,
             const double[:, ::1] Q, const double[::1] l, const double[:, ::1] C,
             const double[:, ::1] strain0, const double[::1] c, double[:, ::1] sigma):
    """Section forces of m elements from their end nodes' poses and velocities, into sigma
    (m, 6): each row's element coordinates from the poses (theory: Nodes and element
    coordinates), ``u = A0^T (r1 - r0) - s``, ``psi = log(A0^T A1 Q^T)``, and their rates
    from the velocities, ``u' = A0^T (v1 - v0 - w0 x (r1 - r0))``,
    ``psi' = J_l(psi)^-1 A0^T (w1 - w0)`` (the inverse of the velocity map
    ``v1 = v0 + w0 x (r1 - r0) + A0 u'``,
    ``w1 = w0 + A0 J_l(psi) psi'``), then :c:func:`element_force`'s sigma. ``pose`` rows are
    ``(r, A row-major)`` (12), ``rate`` rows ``(v, w)`` (6), global; s (m, 3), Q (m, 9), l (m,),
    C, strain0 (m, 6), c (m,) the element's constants. A row whose rotation psi is not below pi
    gets NaN."""
    cdef double d[3]
    cdef double x[3]
    cdef double y[3]
    cdef double e[6]
    cdef double ed[6]
    cdef double f[6]
    cdef double R[9]
    cdef double P[9]
    cdef double Ji[9]
    cdef const double* A
    cdef Py_ssize_t k
    cdef int i
    with nogil:
        for k in range(pose0.shape[0]):
            A = &pose0[k, 3]
            for i in range(3):
                d[i] = pose1[k, i] - pose0[k, i]
            # u and its rate
            rot.matTvec(A, d, e)
            rot.cross(&rate0[k, 3], d, x)
            for i in range(3):
                e[i] -= s[k, i]
                y[i] = rate1[k, i] - rate0[k, i] - x[i]
            rot.matTvec(A, y, ed)
            # psi and its rate
            rot.matTmul(A, &pose1[k, 3], R)
            rot.matmulT(R, &Q[k, 0], P)
            rot.logm(P, e + 3)
            for i in range(3):
                x[i] = rate1[k, 3 + i] - rate0[k, 3 + i]
            rot.matTvec(A, x, y)
            rot.left_jacobian_inverse(e + 3, Ji)
            rot.matvec(Ji, y, ed + 3)
            if element_force(&s[k, 0], &Q[k, 0], e, ed, l[k], &C[k, 0], &strain0[k, 0], c[k],
                             f, NULL, &sigma[k, 0], NULL) != 0:
                for i in range(6):
                    sigma[k, i] = NAN


def rotation_exp(const double[::1] p, double[::1] R):
    """R (9) = exp(p^) (_rotation.expm)."""
    rot.expm(&p[0], &R[0])


def rotation_log(const double[::1] R, double[::1] p):
    """p (3) = log(R) (_rotation.logm)."""
    rot.logm(&R[0], &p[0])


def rotation_left_jacobian(const double[::1] p, double[::1] J):
    """J (9) = J_l(p) (_rotation.left_jacobian)."""
    rot.left_jacobian(&p[0], &J[0])


def rotation_left_jacobian_rate(const double[::1] p, const double[::1] pd, double[::1] Jd):
    """Jd (9) = d J_l(p) / dt for p' = pd (_rotation.left_jacobian_rate)."""
    rot.left_jacobian_rate(&p[0], &pd[0], &Jd[0])


def rotation_left_jacobian_gradient(const double[::1] p, const double[::1] x, double sign,
                                    double[::1] G):
    """G (9) = d(J x)/dp, J = J_l(p) for sign = 1, J_l(p)^T for sign = -1
    (_rotation.left_jacobian_gradient)."""
    rot.left_jacobian_gradient(&p[0], &x[0], sign, &G[0])


def rotation_left_jacobian_inverse(const double[::1] p, double[::1] Ji):
    """Ji (9) = J_l(p)^-1 (_rotation.left_jacobian_inverse)."""
    rot.left_jacobian_inverse(&p[0], &Ji[0])


def rotation_inverse_coefficients(double a):
    """(c3, d3, e3) of _rotation.inverse_coefficients."""
    cdef double c3, d3, e3
    rot.inverse_coefficients(a, &c3, &d3, &e3)
    return c3, d3, e3


def rotation_coefficients(double a):
    """(s1, c1, c2, d1, d2) of _rotation.coefficients and coefficient_rates."""
    cdef double s1, c1, c2, d1, d2
    rot.coefficients(a, &s1, &c1, &c2)
    rot.coefficient_rates(a, &d1, &d2)
    return s1, c1, c2, d1, d2
