"""Assembly kernels of the classical ANCF formulation (all node coordinates, DESIGN.md section 4).

Global coordinates ``q = nodes.ravel()``: node ``i`` owns ``q[4i:4i+4] = [x, y, x', y']``;
element ``s`` couples the 8 coordinates of its left and right nodes. The kernels loop over
elements once and scatter element quantities into the global arrays:

``elastic_forces``
    ``F_K(q) = sum_s A_s^T F_K,s(e_s)`` (N, N m), returns the strain energy U (J).
``newton_blocks_dense``, ``newton_blocks_sparse``
    add ``c_m M_s + c_k K_s(e_s)`` (``K_s = dF_K,s/de_s``) of every element into a dense
    matrix, or into the data array of a sparse matrix at precomputed positions.
"""
from libc.string cimport memcpy

from rancf._element cimport element_force, element_tangent


cdef inline void _gather(const double[::1] q, int a, int b, double* e) noexcept nogil:
    memcpy(e, &q[4 * a], 4 * sizeof(double))
    memcpy(e + 4, &q[4 * b], 4 * sizeof(double))


def elastic_forces(int model, const int[:, ::1] element_nodes, const double[::1] length,
                   const double[::1] EA, const double[::1] EI, const double[::1] q,
                   double[::1] out):
    """out = F_K(q) (4 n_nodes,), assembled; returns the strain energy (J)."""
    cdef double e[8]
    cdef double f[8]
    cdef double U = 0.0
    cdef int s, i, a, b
    with nogil:
        out[:] = 0.0
        for s in range(element_nodes.shape[0]):
            a = element_nodes[s, 0]
            b = element_nodes[s, 1]
            _gather(q, a, b, e)
            U += element_force(model, e, length[s], EA[s], EI[s], f)
            for i in range(4):
                out[4 * a + i] += f[i]
                out[4 * b + i] += f[4 + i]
    return U


cdef inline void _block(int model, const double[::1] q, int a, int b, double l, double EA,
                        double EI, const double* M, double c_m, double c_k,
                        double* blk) noexcept nogil:
    """blk = c_m M + c_k K(e) for one element (row-major 8 x 8)."""
    cdef double e[8]
    cdef int i
    _gather(q, a, b, e)
    if c_k != 0.0:
        element_tangent(model, e, l, EA, EI, blk)
        for i in range(64):
            blk[i] = c_m * M[i] + c_k * blk[i]
    else:
        for i in range(64):
            blk[i] = c_m * M[i]


def newton_blocks_dense(int model, const int[:, ::1] element_nodes, const double[::1] length,
                        const double[::1] EA, const double[::1] EI,
                        const double[:, :, ::1] mass, const double[::1] q, double c_m,
                        double c_k, double[:, ::1] S):
    """S[dofs_s, dofs_s] += c_m M_s + c_k K_s(e_s) for every element s (S is not cleared)."""
    cdef double blk[64]
    cdef int dof[8]
    cdef int s, i, j, a, b
    with nogil:
        for s in range(element_nodes.shape[0]):
            a = element_nodes[s, 0]
            b = element_nodes[s, 1]
            _block(model, q, a, b, length[s], EA[s], EI[s], &mass[s, 0, 0], c_m, c_k, blk)
            for i in range(4):
                dof[i] = 4 * a + i
                dof[4 + i] = 4 * b + i
            for i in range(8):
                for j in range(8):
                    S[dof[i], dof[j]] += blk[8 * i + j]


def newton_blocks_sparse(int model, const int[:, ::1] element_nodes, const double[::1] length,
                         const double[::1] EA, const double[::1] EI,
                         const double[:, :, ::1] mass, const double[::1] q, double c_m,
                         double c_k, const int[:, ::1] position, double[::1] data):
    """data[position[s, 8 i + j]] += (c_m M_s + c_k K_s)[i, j] (data is not cleared)."""
    cdef double blk[64]
    cdef int s, k
    with nogil:
        for s in range(element_nodes.shape[0]):
            _block(model, q, element_nodes[s, 0], element_nodes[s, 1], length[s], EA[s],
                   EI[s], &mass[s, 0, 0], c_m, c_k, blk)
            for k in range(64):
                data[position[s, k]] += blk[k]
