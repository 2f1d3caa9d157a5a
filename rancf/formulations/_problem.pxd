# The C-level contract between a formulation and the implicit stepping loop (see _problem.pyx).

cdef class StepProblem:
    cdef readonly int n, m
    cdef readonly int n_branch          # numbers kept beside each output by keep_branch
    cdef public double factor_cost
    cdef object _work      # (n,) work array of dynamic_residual, made on first use
    cdef readonly object projection     # False, "euclidean" or "mass" (see project)
    cdef object _projection_work        # (2 n + m,) work array of project, made on first use
    cdef int mass_action(self, const double* q, double t, const double* a, double* out) except -1
    cdef int force(self, const double* q, const double* v, double t, double* out) except -1
    cdef int dynamic_residual(self, const double* q, const double* v, double t, const double* a,
                              double c_m, double c_f, double* out) except -1
    cdef int constraint(self, const double* q, double t, double* out) except -1
    cdef int constraint_force(self, const double* q, const double* lam, double t,
                              double* out) except -1
    cdef int acceleration_bias(self, const double* q, const double* v, double t,
                               double* out) except -1
    cdef int velocity_bias(self, const double* q, double t, double* out) except -1
    cdef int factor(self, const double* q_e, const double* a_e, const double* lam,
                    const double* v_e, double t_e, const double* q_new, double t_new, double c_m,
                    double c_mq, double c_k, double c_c, double w) except -1
    cdef int solve(self, double* x) except -1
    cdef int power(self, const double* q, const double* v, const double* a, double t,
                   const double* lam, double* p) except -1
    cdef int violations(self, const double* q, const double* v, const double* a, double t,
                        double* out) except -1
    cdef int project(self, double* q, double* v, double* a, double* lam, double t) except -1
    cdef double* _projection_buffer(self)
    cdef int project_positions(self, double* q, double t, double tol, bint relative,
                               int max_iter) except -1
    cdef int least_change(self, const double* q, const double* v, double* x, double t,
                          bint acceleration, bint mass) except -1
    cdef int saddle_factor(self, const double* q, double t, bint mass) except -1
    cdef int saddle_solve(self, double* x) except -1
    cdef int accept(self, const double* q, const double* v, double t) except -1
    cdef int recentre(self, double* q, double* v, double* a) except -1
    cdef void keep_branch(self, double* out) noexcept
    cdef void use_branch(self, const double* row) noexcept


# The C-level contract between a formulation and the explicit stepping loop (see _problem.pyx).

# What an evaluation of an ODE problem, a check of its state and the explicit loop report,
# defined here once (mirrored to Python by _problem.pyx as ODEStatus).
cpdef enum ODEStatus:
    ODE_OK = 0
    ODE_NONFINITE = 1        # a state entry is not finite
    ODE_UNBOUNDED = 2        # a node left the displacement bound
    ODE_SINGULAR = 3         # the generalized mass is singular
    ODE_STEP_FLOOR = 4       # the adaptive step fell below its floor
    ODE_INPUT_RAISED = 5     # an input function (drive, effort, load) raised
    ODE_INTERRUPTED = 6      # Ctrl-C
    ODE_TURNED_OVER = 7      # a held slope turned over: outside the motion's domain

cdef double[::1] state_buffer(object y, int n_y, bint finite=*)

cdef class ODEProblem:
    cdef readonly int n_y, n_branch
    cdef int rate(self, double t, const double* y, double* ydot) noexcept nogil
    cdef int check(self, const double* y, double bound) noexcept nogil
    cdef void accept(self) noexcept nogil
    cdef int recentre(self, double* y) noexcept nogil
    cdef void keep_branch(self, double* out) noexcept nogil
    cdef int keep_inputs(self, object kept, double t, const double* y, bint fresh) noexcept
