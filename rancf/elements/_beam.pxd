# Element kernels of the planar two-node ANCF beam (see rancf/elements/_beam.pyx).

# The sizes of this element kind, named once: the kernels that stride over nodes, gather an
# element's coordinates or hold its matrices cimport them, so the one place that says what a
# node is stays here (rancf.elements.beam.PlanarANCFBeam states the same numbers to Python;
# a rigid body's node [r_G, u] has the same size, rancf.elements.rigid.RigidBody).
# C sees int constants; Cython types them long, as it types integer literals, so the index
# temporaries over them are long, the pointers' width (a cdef enum, typed int, would make them
# int, widened again at every access).
cdef extern from *:
    """
    #define RANCF_BEAM_DIM 2
    #define RANCF_BEAM_NODE 4
    #define RANCF_BEAM_NODES 2
    #define RANCF_BEAM_ELEMENT (RANCF_BEAM_NODES * RANCF_BEAM_NODE)
    #define RANCF_BEAM_SHAPES 4
    #define RANCF_BEAM_NODE_BLOCK (RANCF_BEAM_NODE * RANCF_BEAM_NODE)
    #define RANCF_BEAM_ELEMENT_BLOCK (RANCF_BEAM_ELEMENT * RANCF_BEAM_ELEMENT)
    """
    const long DIM "RANCF_BEAM_DIM"                      # coordinates of a point: x, y
    const long NODE "RANCF_BEAM_NODE"                    # coordinates of a node: [r, r'] (m, 1)
    const long NODES "RANCF_BEAM_NODES"                  # nodes of an element
    const long ELEMENT "RANCF_BEAM_ELEMENT"              # coordinates of an element: NODES * NODE
    const long SHAPES "RANCF_BEAM_SHAPES"                # shape functions: S = [S1 I2, ..., S4 I2]
    const long NODE_BLOCK "RANCF_BEAM_NODE_BLOCK"        # a node-by-node block, row-major
    const long ELEMENT_BLOCK "RANCF_BEAM_ELEMENT_BLOCK"  # an element matrix, row-major

# The elastic models' codes, defined here once (mirrored to Python by _beam.pyx).
cpdef enum ElasticModel:
    SHABANA = 0
    BERZERI = 1
    REISSNER = 2

cdef double beam_force(int model, const double* e, const double* edot, double l, double EA,
                       double EI, double c, double* f, double* dissipation) noexcept nogil
cdef void beam_tangent(int model, const double* e, const double* edot, double l, double EA,
                       double EI, double c, double* K, double* C) noexcept nogil


cdef inline void gather(const double* x, const int* vertices, double* e) noexcept nogil:
    """e (ELEMENT) = the element's coordinates from a model's coordinates x: the NODE
    coordinates of each of its NODES vertices, node after node (the compiled
    PlanarANCFBeam.gather)."""
    cdef long k, i, a
    for k in range(NODES):
        a = NODE * vertices[k]
        for i in range(NODE):
            e[NODE * k + i] = x[a + i]
