# Element kernels of the planar two-node ANCF beam (see rancf/elements/_beam.pyx).

# The sizes of this element kind, named once: the kernels that stride over nodes, gather an
# element's coordinates or hold its matrices cimport them, so the one place that says what a
# node is stays here (rancf.elements.beam.PlanarANCFBeam states the same numbers to Python;
# a rigid body's node [r_G, u] has the same size, rancf.elements.rigid.RigidBody).
cdef enum:
    DIM = 2                           # coordinates of a point: x, y
    NODE = 4                          # coordinates of a node: [r, r'] (m, 1)
    NODES = 2                         # nodes of an element
    ELEMENT = NODES * NODE            # coordinates of an element: [r_A, r'_A, r_B, r'_B]
    SHAPES = 4                        # shape functions: S = [S1 I2, S2 I2, S3 I2, S4 I2]
    NODE_BLOCK = NODE * NODE          # a node-by-node matrix block, row-major
    ELEMENT_BLOCK = ELEMENT * ELEMENT # an element matrix (mass, stiffness, damping), row-major

cdef enum:
    SHABANA = 0
    BERZERI = 1
    REISSNER = 2

cdef double beam_force(int model, const double* e, const double* edot, double l, double EA,
                       double EI, double c, double* f, double* dissipation) noexcept nogil
cdef void beam_tangent(int model, const double* e, const double* edot, double l, double EA,
                       double EI, double c, double* K, double* C) noexcept nogil
