# O(n) kernels of the recursive formulation on trees (see rancf/formulations/_recursive.pyx).

from rancf.formulations._forces cimport ModelData
from rancf.joints._codes cimport (FREE, FIRST_NODE, FIRST_BODY, AT_POINT, ON_SLIDE,
                                  AT_DRIVEN_SLIDE, TURN_FREE, HELD_AT_Q, HELD_AT_THETA0)
from rancf.formulations._problem cimport (ODEProblem, ODE_OK, ODE_NONFINITE, ODE_UNBOUNDED,
                                          ODE_SINGULAR, ODE_INPUT_RAISED, ODE_TURNED_OVER)

cdef struct Tree:
    ModelData* m
    int n_v, n_beta, n_x, constant, callbacks, effort_callbacks
    int need_q            # joint coordinates at every evaluation (the model has efforts)
    int has_drives
    int inverted          # first vertex + 1 of a held slope turned over at the last kinematics
    void* inputs          # the Python object that evaluates drives, loads and efforts
    const int* order      # vertices root to leaves
    const int* code       # FREE, FIRST_NODE or FIRST_BODY
    const int* place      # a first vertex's Place (AT_POINT, ON_SLIDE, AT_DRIVEN_SLIDE)
    const int* turn       # a first vertex's Turn (TURN_FREE, HELD_AT_Q, HELD_AT_THETA0)
    const int* pred       # beam predecessor of a free node
    const int* elem       # element between pred and a free node
    const int* parent     # parent vertex of a first vertex (-1: ground)
    const int* joint      # tree joint of a first vertex
    const int* boff       # offset of the vertex's rates in beta
    const int* nb         # number of rates
    const int* joff       # a first vertex's offset / NODE in eps, HE, EH, W and Dinv: its blocks
                          # there are NODE x nb (row stride nb), packed first vertex by first
                          # vertex, none for a free node
    const double* Mel     # element matrices factored (mass, or a Newton matrix): n_el x 64
    int fused             # eliminate() makes each element's matrix c_m M + c_k K + c_c C at
    double c_m, c_k, c_c  # (X, V) as it meets it, Mel unread (rancf.formulations._forces
                          # element_matrix), its diagonal node blocks not summed into H before
    const double* Mbody   # rigid-body matrix diagonals: 4 per vertex
    const double* E       # NULL, or Newton blocks of moments and efforts, 48 per vertex: the
                          # vertex's own (4 x 4), then for a first vertex whose joint has an
                          # effort its couplings to the parent vertex, child rows x parent
                          # columns and parent rows x child columns (rancf.formulations._forces
                          # load_tangents)
    double* X             # consistent coordinates (rebuilt from the parents), 4 per vertex
    double* V             # velocities
    double* A             # accelerations
    double* f             # generalized node forces, reduced in place by the backward sweep
    double* H             # articulated blocks (16 per vertex)
    double* Hinv
    double* G             # Hinv M21 (free nodes)
    double* L             # M12 Hinv (free nodes)
    double* chi           # joint maps (first vertices), 16 per vertex
    double* eps           # joint rate maps (NODE x nb a first vertex, at NODE joff)
    double* bh            # velocity term of a driven coordinate, 4 per vertex
    double* c             # bias accelerations, 4 per vertex
    double* HE            # H eps (NODE x nb)
    double* EH            # eps^T H (nb x NODE)
    double* Dinv          # (eps^T H eps)^-1 (nb x nb)
    double* T             # chi^T (I - H eps Dinv eps^T)
    double* W             # chi^T H eps Dinv (NODE x nb)
    double* chiTHa        # chi^T (H - H eps Dinv eps^T H)
    double* q             # joint coordinates
    double* qd
    double* qref          # branch of the unwrapped angles
    double* reaction      # generalized reaction of each joint (N m or N)
    const double* theta_in   # joint position coordinates to build X from (NULL: recover them)
    double* theta_out        # where the recovered ones go (NULL: nowhere)

cdef int rhs(Tree* d, double t, const double* y, double* ydot) noexcept nogil
cdef void track_joints(Tree* d) noexcept nogil
cdef void kinematics(Tree* d, const double* y, const double* beta) noexcept nogil
cdef int factorize(Tree* d) noexcept nogil
cdef int eliminate(Tree* d) noexcept nogil
cdef void solve(Tree* d, const double* g, bint bias, double* out) noexcept nogil
cdef void apply_B(Tree* d, const double* beta, double* V, bint bias,
                  double scale=*) noexcept nogil
cdef void apply_BT(Tree* d, double* F, double* out) noexcept nogil
cdef void mass_times(Tree* d, const double* a, double* V, double* f, double* out) noexcept nogil
cdef void newton_times(Tree* d, const double* beta, double* V, double* f,
                       double* out) noexcept nogil
cdef double drive_power(Tree* d) noexcept nogil
cdef void bind_factors(Tree* d, dict a) except *

cdef class RecursiveKernel(ODEProblem):
    cdef Tree data
    cdef ModelData model
    cdef readonly dict arrays
    cdef readonly int n_beta, n_x
    cdef readonly object inputs
    cdef public object owner
    cdef void _bind(self)
    cdef int rate(self, double t, const double* y, double* ydot) noexcept nogil
    cdef int check(self, const double* y, double bound) noexcept nogil
    cdef void accept(self) noexcept nogil
    cdef void keep_branch(self, double* out) noexcept nogil
