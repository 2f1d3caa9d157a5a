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
cdef double element_berzeri(const double* e, const double* D, const double* c,
                            const double* Kt, double a_l, double* f, double* K,
                            bint with_tangent) noexcept nogil:
    """Force ``f[8]``, tangent ``K[64]`` (row-major, if ``with_tangent``) and energy of one element.

    ``a_l`` is ``a l = E A l / 2``, the constant term of the axial energy.
    """
    cdef double W[64]
    cdef double quartic = 0.0, quad = 0.0, bend = 0.0, s, ek
    cdef int i, j, k, m
    cdef const double* Dij
    for i in range(8):
        for j in range(i, 8):
            Dij = D + (i * 8 + j) * 64
            s = 0.0
            for k in range(8):
                ek = e[k]
                for m in range(8):
                    s += Dij[k * 8 + m] * ek * e[m]
            W[i * 8 + j] = s - c[i * 8 + j]
            W[j * 8 + i] = W[i * 8 + j]
    for i in range(8):
        s = 0.0
        for j in range(8):
            s += (W[i * 8 + j] + Kt[i * 8 + j]) * e[j]
            quad += c[i * 8 + j] * e[i] * e[j]
            bend += Kt[i * 8 + j] * e[i] * e[j]
        f[i] = s
    # e^T K_l e = D:eeee - c:ee, so D:eeee = e^T K_l e + c:ee
    for i in range(8):
        for j in range(8):
            quartic += (W[i * 8 + j] + c[i * 8 + j]) * e[i] * e[j]
    if with_tangent:
        # V_im = D_ijkm e_j e_k; D is symmetric under (ij)<->(kl), so D_ijkm = D_kmij.
        for i in range(8):
            for m in range(8):
                s = 0.0
                for k in range(8):
                    Dij = D + (k * 8 + m) * 64 + i * 8
                    ek = e[k]
                    for j in range(8):
                        s += Dij[j] * e[j] * ek
                K[i * 8 + m] = W[i * 8 + m] + Kt[i * 8 + m] + 2.0 * s
    return 0.25 * (quartic - 2.0 * quad + a_l) + 0.5 * bend


def assemble(const double[::1] q, const int[:, ::1] dofs, const int[::1] etype,
             const double[:, ::1] D, const double[:, ::1] c, const double[:, ::1] Kt,
             const double[::1] a_l, double[::1] force, double[::1] tangent_data,
             const int[:, ::1] positions, bint with_tangent):
    """Assemble the elastic force (and tangent) of all elements; return the elastic energy.

    Parameters
    ----------
    q : (n,) global coordinates.
    dofs : (n_el, 8) global index of each element coordinate.
    etype : (n_el,) row of ``D``, ``c``, ``Kt``, ``a_l`` holding the element's constants.
    D, c, Kt : (n_types, 4096), (n_types, 64), (n_types, 64) element tensors (see module doc).
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
            energy += element_berzeri(e, &D[t, 0], &c[t, 0], &Kt[t, 0], a_l[t], f, K,
                                      with_tangent)
            for i in range(8):
                force[dofs[el, i]] += f[i]
            if with_tangent:
                for i in range(64):
                    tangent_data[positions[el, i]] += K[i]
    return energy
