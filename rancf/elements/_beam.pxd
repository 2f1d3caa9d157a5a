# Element kernels of the planar two-node ANCF beam (see rancf/elements/_beam.pyx).

cdef enum:
    SHABANA = 0
    BERZERI = 1
    REISSNER = 2

cdef double beam_force(int model, const double* e, const double* edot, double l, double EA,
                       double EI, double c, double* f, double* dissipation) noexcept nogil
cdef void beam_tangent(int model, const double* e, const double* edot, double l, double EA,
                       double EI, double c, double* K, double* C) noexcept nogil
