"""The full model's equations as the reduced model's problem for the implicit loop.

The adaptive modal method samples the rows of the full model's backward-Euler step and solves
them in modal coordinates (:mod:`~rancf.formulations.reduced.adaptive`): the equations are the
full model's, the nonlinear solve of a step and the outputs are the reduced model's own.
:class:`FullEquations` is a :class:`~rancf.formulations._problem.StepProblem` whose every method
of the contract is the full problem's (the compiled DAE), so that the reduced model is a problem
of the implicit loop like any formulation, with the same arithmetic as the full problem; its
Python subclass :class:`~rancf.formulations.reduced.reductor.ReducedProblem` adds what the
reduction adds (its name, its step solver, its outputs and counters). Each call costs one more
C call than the full problem's.
"""
from rancf.formulations._problem cimport StepProblem


cdef class FullEquations(StepProblem):
    """A :class:`~rancf.formulations._problem.StepProblem` that is ``full``'s equations.

    Parameters
    ----------
    full : StepProblem
        The full model's compiled problem; ``n``, ``m``, ``factor_cost`` and ``projection`` are
        its own.
    """

    cdef readonly StepProblem full

    def __init__(self, StepProblem full):
        self.full = full
        self.n, self.m = full.n, full.m
        self.factor_cost = full.factor_cost
        self.projection = full.projection
        self.n_branch = full.n_branch

    cdef int mass_action(self, const double* q, double t, const double* a, double* out) except -1:
        return self.full.mass_action(q, t, a, out)

    cdef int force(self, const double* q, const double* v, double t, double* out) except -1:
        return self.full.force(q, v, t, out)

    cdef int dynamic_residual(self, const double* q, const double* v, double t, const double* a,
                              double c_m, double c_f, double* out) except -1:
        return self.full.dynamic_residual(q, v, t, a, c_m, c_f, out)

    cdef int constraint(self, const double* q, double t, double* out) except -1:
        return self.full.constraint(q, t, out)

    cdef int constraint_force(self, const double* q, const double* lam, double t,
                              double* out) except -1:
        return self.full.constraint_force(q, lam, t, out)

    cdef int acceleration_bias(self, const double* q, const double* v, double t,
                               double* out) except -1:
        return self.full.acceleration_bias(q, v, t, out)

    cdef int velocity_bias(self, const double* q, double t, double* out) except -1:
        return self.full.velocity_bias(q, t, out)

    cdef int factor(self, const double* q_e, const double* a_e, const double* lam,
                    const double* v_e, double t_e, const double* q_new, double t_new, double c_m,
                    double c_mq, double c_k, double c_c, double w) except -1:
        return self.full.factor(q_e, a_e, lam, v_e, t_e, q_new, t_new, c_m, c_mq, c_k, c_c, w)

    cdef int solve(self, double* x) except -1:
        return self.full.solve(x)

    cdef int power(self, const double* q, const double* v, const double* a, double t,
                   const double* lam, double* p) except -1:
        return self.full.power(q, v, a, t, lam, p)

    cdef int violations(self, const double* q, const double* v, const double* a, double t,
                        double* out) except -1:
        return self.full.violations(q, v, a, t, out)

    cdef int project(self, double* q, double* v, double* a, double* lam, double t) except -1:
        return self.full.project(q, v, a, lam, t)

    cdef int saddle_factor(self, const double* q, double t, bint mass) except -1:
        return self.full.saddle_factor(q, t, mass)

    cdef int saddle_solve(self, double* x) except -1:
        return self.full.saddle_solve(x)

    cdef int accept(self, const double* q, const double* v, double t) except -1:
        return self.full.accept(q, v, t)

    cdef int recentre(self, double* q, double* v, double* a) except -1:
        return self.full.recentre(q, v, a)

    cdef void keep_branch(self, double* out) noexcept:
        self.full.keep_branch(out)

    cdef void use_branch(self, const double* row) noexcept:
        self.full.use_branch(row)

    def matrix(self, q_e, a_e, lam, v_e, t_e, q_new, t_new, c_m, c_mq, c_k, c_c, w):
        """The full problem's assembled Newton matrix (what a step solver samples)."""
        return self.full.matrix(q_e, a_e, lam, v_e, t_e, q_new, t_new, c_m, c_mq, c_k, c_c, w)

    def observe(self, q, v, a, t, lam):
        """The full problem's outputs: the model-level arrays of the coordinates q."""
        return self.full.observe(q, v, a, t, lam)

    def keep_inputs(self, long k, double t, const double[::1] q, const double[::1] v):
        """The full problem's: keeps its input functions' values at the loop's output k."""
        self.full.keep_inputs(k, t, q, v)

    def recorded(self, t):
        """The full problem's record of the values :meth:`keep_inputs` kept at the outputs of
        times t (a :class:`~rancf.formulations.inputs.Recorded`, or None)."""
        return self.full.recorded(t)

    def newton_advice(self):
        return self.full.newton_advice()
