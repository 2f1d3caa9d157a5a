# Element kernels of the planar two-node ANCF beam (see rancf/_element.pyx).

cdef enum:
    SHABANA = 0
    BERZERI = 1
    REISSNER = 2

cdef double element_force(int model, const double* e, double l, double EA, double EI,
                          double* f) noexcept nogil
cdef void element_tangent(int model, const double* e, double l, double EA, double EI,
                          double* K) noexcept nogil
