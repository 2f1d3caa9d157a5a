# The energy balance of a spatial tree: the powers of loads, efforts, drives and element damping
# (see _spatial_energy.pyx).

from rancf.formulations._problem cimport ODEProblem
from rancf.formulations._spatial cimport SpatialData, SpatialKernel, arc_load, load_vectors

cdef double applied_power(SpatialData* d) noexcept nogil
cdef double drive_power(SpatialData* d, bint articulated) noexcept nogil

cdef class TrackedKernel(ODEProblem):
    cdef readonly SpatialKernel kernel
    cdef readonly object inputs, owner
    cdef int rate(self, double t, const double* y, double* ydot) noexcept nogil
    cdef int check(self, const double* y, double bound) noexcept nogil
    cdef int recentre(self, double* y) noexcept nogil
