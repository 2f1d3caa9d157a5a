# O(n) dynamics of a spatial tree (see rancf/formulations/_spatial.pyx).

from rancf.elements._ancf_cable cimport CABLE_NODE, CABLE_REST, cable_moment
from rancf.elements._rotation cimport matvec
from rancf.formulations._problem cimport (ODEProblem, state_buffer, ODE_OK, ODE_NONFINITE,
                                          ODE_UNBOUNDED, ODE_SINGULAR, ODE_INPUT_RAISED,
                                          ODE_TURNED_OVER)

cdef struct SpatialData:
    int n, n_q, n_loads
    int n_free             # coordinates in the state (n_q less the driven ones)
    int callbacks, effort_callbacks
    int failed             # body + 1 whose D was not positive definite, or whose element
                           # rotation left its domain, at the last evaluation (0: none)
    double dissipation     # W: the power the elements' damping dissipates at the last forces()
    void* inputs           # the Python object that writes loads and efforts (spatial.Inputs)
    # the tree (rancf.model.spatial_tree.SpatialTree), per body
    const int* parent
    const int* motion
    const int* q_offset    # n + 1
    const int* element
    const double* mass
    const double* inertia  # 9: about the origin, body frame
    const double* anchor   # 3
    const double* offset   # 3
    const double* relative # 9: Q
    const double* axes     # 6: a0, a1
    const double* length   # per element
    const double* stiffness    # 6 per element
    const double* strain0      # 6 per element
    const double* damping      # per element
    const double* gravity      # 3
    const int* load_body
    const double* load_offset  # 3 per load
    const int* load_follower
    const int* load_arc        # per load: the element's second node body of a load at a point
                               # between nodes (its xi in load_offset[0]), else -1
    # inputs (written by Python between evaluations)
    const double* load_force   # 3 per load
    const double* load_moment  # 3 per load
    const double* effort       # n_q: generalized efforts; spherical and free links: force and
                               # torque vectors in the parent's frame
    const int* smap            # n_q: a coordinate's index in the state's q, -1 if driven
    const double* drive        # 3 per coordinate: a driven one's q, qd, qdd
    double* q                  # n_q: every link coordinate (the state's and the drives')
    double* qd
    double* qdd
    # workspace, per body
    double* r        # 3: origin
    double* A        # 9: frame
    double* V        # 6: (v, w), global, at the origin
    double* acc      # 6: V'
    double* c        # 6: bias acceleration
    double* d        # 3: r_c - r_p
    double* H        # 36: motion subspace, 6 x n_i, row stride 6
    double* Jr       # 18: the link's rotation Jacobian (3 x n_i, row stride 6), parent frame
    double* Ig       # 9: A J A^T
    double* f        # 6: applied wrench at the origin (gravity, gyroscopic, loads)
    double* IA       # 36: articulated inertia
    double* pA       # 6: articulated bias force (the link wrench in inverse_dynamics)
    double* W        # 36: D^-1 U^T (n_i x 6)
    double* U        # 36: I^A H (6 x n_i)
    double* L        # 36: the LDL^T factors of D (n_i x n_i)
    double* z        # 6: D^-1 u
    double* tau      # n_q: generalized link forces (efforts, element forces)
    # spring-dampers (rancf/formulations/_spatial.pyx ``spring_forces``)
    int n_springs                  # between points
    const int* s_body              # 2 per spring: the points' bodies (-1 ground)
    const double* s_offset         # 6 per spring: the points in their bodies' frames
    const int* s_arc               # 2 per spring: a point between two nodes' second node body
                                   # (its xi in s_offset[0]), else -1
    const double* s_law            # 3 per spring: k, c, rest length
    int n_joint_springs            # on one-coordinate links
    const int* js_body             # the link's body
    const double* js_law           # 3 per joint spring: k, c, rest coordinate
    const double* js_rest          # 3 per joint spring: a spherical link's rest rotation
    double spring_power            # W: the joint springs' power in tau at the last
                                   # spring_forces (a potential and a dissipation, not a work)
    double* body_blocks            # 36 per body added to c_m M in ``factor`` (NULL: none)
    double* tangent                # 72 per body: Z (6 x n_i, row stride 6) in place of H in
                                   # ``factor``'s U = I^A Z + u and in the sweeps' body
                                   # accelerations, then u (6 x n_i); NULL: the symmetric
                                   # elimination (``factor``)
    double* rows                   # 36 per body: R (n_i x 6, row stride 6) added to the row
                                   # side ``H^T I^A`` of ``factor`` with ``tangent`` (statics'
                                   # loads between two nodes); NULL: none
    double* element_K              # 36 per body: where not NULL, ``forces`` writes there
                                   # each element link's Hessian K of ``element_force`` (statics'
                                   # residual, whose point the Newton matrix is made at next:
                                   # rancf/formulations/_spatial_implicit.pyx, ``_state``)
    # spatial ANCF cables (the theory page's "The cable in the recursion"): their nodes are
    # the kernel's nodes nb .. n - 1 (tree body n_bodies + k is cable node k), visited with the
    # bodies in ``order`` (parents first); every per-body workspace above has n entries
    int nb                         # tree bodies (the nodes before the cable nodes)
    const int* order               # n: the nodes, each after its parent
    int n_cable_elements
    const int* c_element           # per node: the cable element whose second side it is, -1
    const int* c_nodes             # 2 per element: its nodes A, B (kernel numbering)
    const int* c_flip              # per element: 1 if its parent side is its node B
    const double* c_x0             # 6 per node: reference [r, r']
    const double* c_axis           # 3 per node: a clamp's direction in its parent's frame
    const double* c_mass           # 144 per element: consistent mass, parent side first
    const double* c_gravity        # 12 per element: F_G (A, B)
    const double* c_length
    const double* c_EA
    const double* c_EI
    const double* c_damping
    const double* c_rest           # 8 per element: its rest state (tree.cable_rest)
    const int* c_curved            # per element: 1 if its rest state is not zero (else the
                                   # kernels take NULL: the straight cable's, bitwise)
    double* ce                     # 6 per node: [r, r'] (the rates are in V, 6 per node)
    double* cs                     # 3 per node: a clamp's slope r' (its X's slope rows)
    double c_m                     # the mass coefficient of the last ``factor``
    double* c_blocks               # 144 per element: the element's matrix in factor (NULL:
                                   # c_m times its mass), in the parent-first node order

# cable node motions (SpatialData.motion of nodes nb .. n - 1; rancf.joints._codes codes the
# tree's links): an element's second node, z = e - e_p (6); a node on a spherical joint, r at
# the parent's point and r' = r'_0 + q (3); on a clamp, r' = (1 + q) A_p a (1)
cpdef enum CableMotion:
    C_NODE = 100
    C_SPHERICAL = 101
    C_CLAMP = 102

cdef inline void load_vectors(const SpatialData* d, int j, double* F, double* Mo,
                              double* g) noexcept nogil:
    """Load j's force F and moment Mo (global; a follower load's turned by its body's frame)
    and its point's offset from the body origin, g = A offset (global). On a cable node (its
    wrench acts on ``[r, r']``; no offset, no follower) Mo is the moment's generalized force
    on the slope, ``cable_moment`` of rancf/elements/_ancf_cable.pxd, and g is zero."""
    cdef const double* A = d.A + 9 * d.load_body[j]
    cdef int k
    if d.load_body[j] >= d.nb:
        for k in range(3):
            F[k] = d.load_force[3 * j + k]
            g[k] = 0.0
        cable_moment(d.ce + CABLE_NODE * d.load_body[j] + 3, d.load_moment + 3 * j, Mo)
        return
    if d.load_follower[j]:
        matvec(A, d.load_force + 3 * j, F)
        matvec(A, d.load_moment + 3 * j, Mo)
    else:
        for k in range(3):
            F[k] = d.load_force[3 * j + k]
            Mo[k] = d.load_moment[3 * j + k]
    matvec(A, d.load_offset + 3 * j, g)


cdef void arc_load(const SpatialData* d, int j, double* Wa, double* Wb) noexcept nogil
cdef void spring_velocity(const SpatialData* d, const double* V, int s, int e,
                          const double* o, double* u) noexcept nogil
cdef void spring_wrenches(const SpatialData* d, int s, int e, const double* o,
                          const double* F, double* W) noexcept nogil
cdef void spring_point(const SpatialData* d, int s, int e, double* x, double* o) noexcept nogil
cdef double spring_line(const SpatialData* d, int s, double* n, double* l,
                        double* ldot) noexcept nogil
cdef void spring_forces(SpatialData* d) noexcept nogil
cdef double spring_energy(const SpatialData* d) noexcept nogil
cdef double ball_spring(const double* q, const double* qd, const double* rest,
                        const double* law, double* g, double* P) noexcept nogil
cdef void ball_spring_block(const double* q, const double* rest, const double* law,
                            double c_k, double c_c, double* E) noexcept nogil
cdef int kinematics(SpatialData* d, const double* q, const double* qd) noexcept nogil
cdef int forces(SpatialData* d, const double* q, const double* qd) noexcept nogil
cdef void rotated_inertias(SpatialData* d) noexcept nogil
cdef int factor(SpatialData* d, double c_m, const double* E) noexcept nogil
cdef void sweeps(SpatialData* d, const double* tau, bint bias, double* qdd) noexcept nogil
cdef void inverse_dynamics(SpatialData* d, const double* qdd, double c_m, double c_f,
                           double* out) noexcept nogil
cdef int articulated(SpatialData* d, double* qdd) noexcept nogil
cdef void accelerations(SpatialData* d, const double* qdd) noexcept nogil
cdef int rhs(SpatialData* d, double t, const double* y, double* ydot) noexcept nogil

cdef class SpatialKernel(ODEProblem):
    cdef SpatialData data
    cdef readonly dict arrays
    cdef readonly int n_q, n_bodies, n_free
    cdef readonly object inputs
    cdef public object owner
    cdef int rate(self, double t, const double* y, double* ydot) noexcept nogil
    cdef int check(self, const double* y, double bound) noexcept nogil
    cdef int recentre(self, double* y) noexcept nogil


cdef inline const double* cable_rest(const SpatialData* d, int el) noexcept nogil:
    """Element el's rest state (8) for the cable kernels, NULL for a straight element's zeros
    (the straight cable's kernel, bitwise)."""
    return d.c_rest + CABLE_REST * el if d.c_curved[el] else NULL
