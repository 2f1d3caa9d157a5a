# cython: language_level=3
"""Cython kernels of the Berzeri-Shabana elastic force by tensor contraction.

The axial part of every element is evaluated from the precomputed fourth-order tensor
``D_ijkl = a int_0^l S1_ij S1_kl dx`` (adaptive-modal paper eq. 20-22, ``a = E A / 2``,
``S1 = S'^T S'``) and ``c_ij = a int_0^l S1_ij dx``, so that the stiffness update is a
contraction with the element coordinates and no quadrature is done inside a time step:

    K_l(e)_ij = D_ijkl e_k e_l - c_ij                  (the paper's K_l(e), eq. 13 / 20)
    F(e)      = (K_l(e) + K_t) e                       (elastic force)
    dF/de     = K_l(e) + K_t + 2 D_ijkm e_j e_k        (tangent stiffness)
    U(e)      = 1/4 (D_ijkl e_i e_j e_k e_l - 2 c_ij e_i e_j + a l) + 1/2 e^T K_t e

Python wrappers and the tensor construction live in :mod:`rancf.modal.berzeri`.
"""
cdef double element_berzeri(const double* e, const double* d, const double* c,
                            const double* Kt, double a_l, double* f, double* K,
                            bint with_tangent) noexcept nogil:
    """Force ``f[8]``, tangent ``K[64]`` (row-major, if ``with_tangent``) and energy of one element.

    ``d[256]`` and ``c[16]`` are the scalar factors of ``D = d (x) I2 (x) I2`` and
    ``c = c_s (x) I2`` (the shape functions act on x and y alike, so S1 = (s' s'^T) (x) I2):
    with the Gram matrix ``G_KL = r_K . r_L`` of the four nodal vectors, ``K_l = w (x) I2``
    with ``w = d:G - c_s``, and ``V_im = sum_JK d_IJKM e_(2J+p_i) e_(2K+p_m)``.
    ``a_l`` is ``a l = E A l / 2``, the constant term of the axial energy.
    """
    cdef double G[16]
    cdef double w[16]
    cdef double quartic = 0.0, quad = 0.0, bend = 0.0, s, s00, s01, s10, s11
    cdef int I, J, Kk, M, i, j, p
    cdef const double* dIJ
    for I in range(4):
        for J in range(I, 4):
            G[I * 4 + J] = e[2 * I] * e[2 * J] + e[2 * I + 1] * e[2 * J + 1]
            G[J * 4 + I] = G[I * 4 + J]
    for I in range(4):
        for J in range(I, 4):
            dIJ = d + (I * 4 + J) * 16
            s = 0.0
            for Kk in range(16):
                s += dIJ[Kk] * G[Kk]
            w[I * 4 + J] = s - c[I * 4 + J]
            w[J * 4 + I] = w[I * 4 + J]
    for I in range(16):
        quartic += (w[I] + c[I]) * G[I]
        quad += c[I] * G[I]
    for i in range(8):
        s = 0.0
        for j in range(8):
            s += Kt[i * 8 + j] * e[j]
        bend += s * e[i]
        p = i & 1
        for J in range(4):
            s += w[(i >> 1) * 4 + J] * e[2 * J + p]
        f[i] = s
    if with_tangent:
        for i in range(64):
            K[i] = Kt[i]
        for I in range(4):
            for M in range(4):
                s00 = 0.0; s01 = 0.0; s10 = 0.0; s11 = 0.0
                for J in range(4):
                    for Kk in range(4):
                        s = d[((I * 4 + J) * 4 + Kk) * 4 + M]
                        s00 += s * e[2 * J] * e[2 * Kk]
                        s01 += s * e[2 * J] * e[2 * Kk + 1]
                        s10 += s * e[2 * J + 1] * e[2 * Kk]
                        s11 += s * e[2 * J + 1] * e[2 * Kk + 1]
                K[(2 * I) * 8 + 2 * M] += w[I * 4 + M] + 2.0 * s00
                K[(2 * I) * 8 + 2 * M + 1] += 2.0 * s01
                K[(2 * I + 1) * 8 + 2 * M] += 2.0 * s10
                K[(2 * I + 1) * 8 + 2 * M + 1] += w[I * 4 + M] + 2.0 * s11
    return 0.25 * (quartic - 2.0 * quad + a_l) + 0.5 * bend


def assemble(const double[::1] q, const int[:, ::1] dofs, const int[::1] etype,
             const double[:, ::1] d, const double[:, ::1] c, const double[:, ::1] Kt,
             const double[::1] a_l, double[::1] force, double[::1] tangent_data,
             const int[:, ::1] positions, bint with_tangent):
    """Assemble the elastic force (and tangent) of all elements; return the elastic energy.

    Parameters
    ----------
    q : (n,) global coordinates.
    dofs : (n_el, 8) global index of each element coordinate.
    etype : (n_el,) row of ``d``, ``c``, ``Kt``, ``a_l`` holding the element's constants.
    d, c, Kt : (n_types, 256), (n_types, 16), (n_types, 64): scalar axial tensor ``d`` and
        matrix ``c_s`` (see :func:`element_berzeri`) and the bending stiffness ``K_t``.
    a_l : (n_types,) ``E A l / 2``.
    force : (n,) output, overwritten at the element coordinates only (added, so zero it first).
    tangent_data : output, CSR data array of the global pattern; element entries are added.
    positions : (n_el, 64) index into ``tangent_data`` of each element tangent entry.
    with_tangent : assemble the tangent too.
    """
    cdef Py_ssize_t n_el = dofs.shape[0], el
    cdef int i, t
    cdef double e[8]
    cdef double f[8]
    cdef double K[64]
    cdef double energy = 0.0
    with nogil:
        for el in range(n_el):
            t = etype[el]
            for i in range(8):
                e[i] = q[dofs[el, i]]
            energy += element_berzeri(e, &d[t, 0], &c[t, 0], &Kt[t, 0], a_l[t], f, K,
                                      with_tangent)
            for i in range(8):
                force[dofs[el, i]] += f[i]
            if with_tangent:
                for i in range(64):
                    tangent_data[positions[el, i]] += K[i]
    return energy
