# Forces of a model in absolute coordinates, shared by every formulation (see _forces.pyx).

cdef extern from *:
    """
    #define RANCF_SPRING_BLOCK 4
    """
    # a spring-damper's Newton block K_s: 2 x 2, row-major (in the plane of its two points)
    const long SPRING_BLOCK "RANCF_SPRING_BLOCK"

cdef extern from *:
    """
    #define RANCF_KIND_MASS 4
    #define RANCF_KIND_WIDTH (RANCF_KIND_MASS + RANCF_BEAM_SHAPES * RANCF_BEAM_SHAPES)
    """
    # a row of ModelData.el_kinds: length, EA, EI, damping, then (from KIND_MASS) the element's
    # m of kron(m, I2) = el_mass (SHAPES x SHAPES, row-major); KIND_WIDTH numbers a row
    const long KIND_MASS "RANCF_KIND_MASS"
    const long KIND_WIDTH "RANCF_KIND_WIDTH"


from rancf.joints._codes cimport P_GROUND, P_NODE, P_BODY, P_ARC, ANGLE, SLIDE, DIRECTION_FREE

cdef struct ModelData:
    int n_v, n_el, n_joints, n_loads, model
    double load_factor         # scales gravity, loads and efforts (statics' load stepping)
    const int* el_vertices     # n_el x 2: left, right vertex
    const double* el_length    # m
    const double* el_EA        # N
    const double* el_EI        # N m^2
    const double* el_damping   # s
    const double* el_mass      # n_el x 8 x 8
    const int* el_kind         # n_el: the element's row of el_kinds
    const double* el_kinds     # the distinct rows (length, EA, EI, damping, m of el_mass =
                               # kron(m, I2)) of the elements, KIND_WIDTH each: the kernels run
                               # at every evaluation (element_forces, mass_times) read an
                               # element's constants there, one int an element in memory
                               # (a chain of equal elements has one row)
    const double* gravity      # n_x: assembled gravity force
    const double* body_mass    # 4 per vertex: diag(m, m, I, I) for a rigid body, else 0;
                               # NULL where the model has no rigid body
    const int* j_coordinate    # ANGLE | SLIDE (rancf.joints.kind)
    const int* j_direction     # DIRECTION_FREE | DIRECTION_HELD
    const int* j_driven
    const int* j_has_effort
    const int* p_kind          # parent point kind
    const int* p_vertex
    const double* p_offset     # n_joints x 2: ground position or body-frame point (m); at an
                               # arc length (P_ARC) (xi, element length l)
    const double* p_angle      # ground point angle (rad)
    const int* c_kind
    const int* c_vertex
    const double* c_offset
    const double* j_axis       # rail angle (rad) of prismatic joints
    const double* j_theta0     # initial relative angle (rad)
    const int* l_kind
    const int* l_vertex
    const double* l_offset
    double* drive              # n_joints x 3: q, qd, qdd of driven joints at the current time
    double* effort             # n_joints: effort values at the current time and state
    double* load_force         # n_loads x 2
    double* load_moment        # n_loads
    int n_springs              # spring-dampers between points
    const int* s_kind          # n_springs x 2: kinds of their two points
    const int* s_vertex        # n_springs x 2
    const double* s_offset     # n_springs x 2 x 2: ground position or body-frame point (m)
    const double* s_law        # n_springs x 3: k (N/m), c (N s/m), rest length (m)
    const double* t_law        # n_joints x 3: torsion spring-damper k (N m/rad), c (N m s/rad),
                               # rest angle (rad) of each joint (zeros: none)

cdef void attachment(const ModelData* d, int kind, int vertex, const double* offset, double angle,
                     const double* x, const double* v, double* r, double* p, double* vr,
                     double* vp) noexcept nogil
cdef void joint_coordinates(const ModelData* d, const double* x, const double* v,
                            const double* qref, double* q, double* qd) noexcept nogil
cdef double applied_forces(const ModelData* d, const double* x, const double* v,
                           const double* q, const double* qd, double* F,
                           bint assign=*) noexcept nogil
cdef double element_forces(const ModelData* d, const double* x, const double* v, double* F,
                           double* U) noexcept nogil
cdef double spring_forces(const ModelData* d, const double* x, const double* v, const double* q,
                          const double* qd, double* F) noexcept nogil
cdef void bind_model(ModelData* d, dict arrays) except *
cdef void element_matrix(const ModelData* d, int s, const double* x, const double* v, double c_m,
                         double c_k, double c_c, double* o) noexcept nogil
cdef void element_matrices(const ModelData* d, const double* x, const double* v, double c_m,
                           double c_k, double c_c, double* out) noexcept nogil
cdef void mass_times(const ModelData* d, const double* a, double* out) noexcept nogil
cdef void load_tangents(const ModelData* d, const double* x, const double* v,
                        const double* q, const double* qd, const double* tau_q,
                        const double* tau_qd, double c_k, double c_c, double* E) noexcept nogil
cdef bint two_ended(const ModelData* d, int k) noexcept nogil
cdef void spring_tangents(const ModelData* d, const double* x, const double* v, double c_k,
                          double c_c, double* K) noexcept nogil
cdef void spring_map_transposed(const ModelData* d, int k, const double* a,
                                double* F) noexcept nogil
cdef void powers(const ModelData* d, const double* x, const double* v, const double* qd,
                 double* scratch, double* p) noexcept nogil

cdef class ForceKernel:
    cdef ModelData data
    cdef readonly dict arrays
    cdef readonly int n_x
