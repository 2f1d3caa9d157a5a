# Kernels of the spatial gradient-deficient ANCF cable element (see
# rancf/elements/_ancf_cable.pyx; theory: The spatial ANCF cable).

# The sizes of this element kind, named once (rancf.elements.ancf_cable.SpatialANCFCable states
# the same numbers to Python): a node is [r, r'] (position, m, and slope dr/dx, dimensionless),
# an element joins two nodes.
cdef extern from *:
    """
    #define RANCF_CABLE_DIM 3
    #define RANCF_CABLE_NODE 6
    #define RANCF_CABLE_NODES 2
    #define RANCF_CABLE_ELEMENT (RANCF_CABLE_NODES * RANCF_CABLE_NODE)
    #define RANCF_CABLE_ELEMENT_BLOCK (RANCF_CABLE_ELEMENT * RANCF_CABLE_ELEMENT)
    #define RANCF_CABLE_REST 8
    """
    const long CABLE_DIM "RANCF_CABLE_DIM"                      # coordinates of a point
    const long CABLE_NODE "RANCF_CABLE_NODE"                    # coordinates of a node: [r, r']
    const long CABLE_NODES "RANCF_CABLE_NODES"                  # nodes of an element
    const long CABLE_ELEMENT "RANCF_CABLE_ELEMENT"              # coordinates of an element: 12
    const long CABLE_ELEMENT_BLOCK "RANCF_CABLE_ELEMENT_BLOCK"  # an element matrix, row-major
    const long CABLE_REST "RANCF_CABLE_REST"                    # a rest state: eps0 at the 5
                                                                # axial points, k0 at the 3
                                                                # bending points

cdef double cable_force(const double* e, const double* edot, double l, double EA, double EI,
                        double c, double* f, double* dissipation) noexcept nogil
cdef void cable_tangent(const double* e, const double* edot, double l, double EA, double EI,
                        double c, double* K, double* C) noexcept nogil
cdef double cable_force_tangent(const double* e, const double* edot, double l, double EA,
                                double EI, double c, double* f, double* K, double* C,
                                double* dissipation) noexcept nogil
# relative to a rest state (8 numbers: eps0 at the 5 axial points, |kappa_0| at the 3 bending
# points, cable_reference's), for a curved cable; K and C may be NULL
cdef double cable_force_rest(const double* e, const double* edot, double l, double EA,
                             double EI, double c, const double* reference, double* f, double* K,
                             double* C, double* dissipation) noexcept nogil
# K undamped and C at damping time c (C may be NULL) in one pass, rates not read
cdef void cable_stiffness_damping(const double* e, double l, double EA, double EI, double c,
                                  const double* reference, double* K, double* C) noexcept nogil
cdef void cable_reference(const double* e0, double l, double* reference) noexcept nogil


cdef inline void cable_gather(const double* x, const int* vertices, double* e) noexcept nogil:
    """e (CABLE_ELEMENT) = the element's coordinates from a model's coordinates x: the
    CABLE_NODE coordinates of each of its two vertices, node after node
    (the compiled SpatialANCFCable.gather)."""
    cdef long k, i, a
    for k in range(CABLE_NODES):
        a = CABLE_NODE * vertices[k]
        for i in range(CABLE_NODE):
            e[CABLE_NODE * k + i] = x[a + i]

# a cable node's frame turned from its base frame (3 x 3, row-major) to the tangent of its slope
# s by the smallest rotation; with the slope's rate sd (or NULL), the tangent's angular velocity
# w and, returned, the frame's spin about the tangent
cdef double cable_frame(const double* base, const double* s, const double* sd, double* F,
                        double* w) noexcept nogil


cdef inline void cable_moment(const double* s, const double* M, double* Q) noexcept nogil:
    """Q (3) = ``(M x s) / (s . s)``: the generalized force on a node's slope s = r' of a moment
    M (N m, global) at the node (nothing on r). The cable's tangent d = s / |s| turns by
    ``dtheta = (s x ds) / |s|^2`` (its turn about the axis is not a coordinate), so
    ``M . dtheta = ds . (M x s) / |s|^2``: only M's part normal to s does work, the axial part
    none (the cable has no torsion)."""
    cdef double ss = s[0] * s[0] + s[1] * s[1] + s[2] * s[2]
    Q[0] = (M[1] * s[2] - M[2] * s[1]) / ss
    Q[1] = (M[2] * s[0] - M[0] * s[2]) / ss
    Q[2] = (M[0] * s[1] - M[1] * s[0]) / ss


cdef inline void cable_moment_tangent(const double* s, const double* M, double* T) noexcept nogil:
    """T (3 x 3, row-major) = dQ/ds of :c:func:`cable_moment`'s ``Q = (M x s) / (s . s)``, M
    held: ``[M x] / (s . s) - 2 (M x s) s^T / (s . s)^2`` ([M x] the cross-product matrix)."""
    cdef double ss = s[0] * s[0] + s[1] * s[1] + s[2] * s[2]
    cdef double Q[3]
    cdef int i, j
    cable_moment(s, M, Q)
    for i in range(3):
        for j in range(3):
            T[3 * i + j] = -2.0 * Q[i] * s[j] / ss
    T[1] += -M[2] / ss
    T[2] += M[1] / ss
    T[3] += M[2] / ss
    T[5] += -M[0] / ss
    T[6] += -M[1] / ss
    T[7] += M[0] / ss
