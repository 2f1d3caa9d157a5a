# Kernels of the spatial beam element on the SE(3) strain (see rancf/elements/_spatial_beam.pyx;
# theory: Spatial beams). The element's coordinates are those of its second node
# relative to its first: e = (u, psi), the relative displacement (m) and rotation vector (rad).

# The sizes of this element kind, named once (rancf.elements.spatial_beam.SpatialBeam states the
# same numbers to Python): a node is a rigid body with six velocity coordinates (v, w), and an
# element has six coordinates (u, psi), the relative motion of its second node.
cdef extern from *:
    """
    #define RANCF_SPATIAL_NODE 6
    #define RANCF_SPATIAL_BLOCK 36
    """
    const long SPATIAL_NODE "RANCF_SPATIAL_NODE"     # coordinates of a node, and of an element
    const long SPATIAL_BLOCK "RANCF_SPATIAL_BLOCK"   # a 6 x 6 block, row-major

cdef int element_force(const double* s, const double* Q, const double* e, const double* ed,
                       double l, const double* C, const double* strain0, double c,
                       double* f, double* K, double* sigma, double* power) noexcept nogil
cdef double element_energy(const double* s, const double* Q, const double* e, double l,
                           const double* C, const double* strain0) noexcept nogil
cdef int element_damping(const double* s, const double* Q, const double* e, double l,
                         const double* C, double c, double* D) noexcept nogil
cdef double reference_strain(const double* s, const double* Q, double* strain0) noexcept nogil
