"""The C-level contracts between a formulation and the compiled stepping loops:
:class:`StepProblem` for the implicit loop, :class:`ODEProblem` for the explicit one.

:class:`StepProblem` lists what the loop of :mod:`rancf.integrators.implicit` calls (the index-3
DAE ``M(q) q'' + Phi_q^T lambda = F(q, q', t)``, ``Phi(q, t) = 0`` of
:class:`rancf.formulations.problem.IndexThreeDAE`, at the level of pointers): a compiled
formulation implements these ``cdef`` methods in C, so a step runs without Python calls.
:class:`PythonProblem` adapts any :class:`~rancf.formulations.problem.IndexThreeDAE` written in
Python (the DAE formulation, the rod-slider of the validation layer): its methods call the
problem's, with the GIL, on NumPy views of the loop's buffers.

Every method returns 0 (``power`` returns 1 when the problem does not track work) or raises.
:func:`factor_cost` estimates what a factorization costs in Newton iterations.

The projection of paper eq. 15-17 (:meth:`StepProblem.project`) is written once, in the base
class, over the contract: a problem that projects provides the factorization and solve of the
saddle-point matrix ``[W Phi_q^T; Phi_q 0]`` (W = I or M) and its velocity bias; the compiled
DAE by its own LU, :class:`PythonProblem` by the Gram matrix ``Phi_q Phi_q^T`` of its problem
(:meth:`~rancf.formulations.problem.IndexThreeDAE.gram_solver`) and its Newton matrix. Its two
parts, Gauss-Newton on ``Phi = 0`` (:meth:`StepProblem.project_positions`) and the least change
onto the linear velocity or acceleration rows (:meth:`StepProblem.least_change`), are also the
projection of initial states (:meth:`StepProblem.consistent`, which
:meth:`~rancf.formulations.problem.IndexThreeDAE.consistent_state` runs on any problem through
:class:`PythonProblem`): the library projects in this one place.

:class:`ODEProblem` lists what the explicit Runge-Kutta loop of :mod:`rancf.integrators.explicit`
calls (``y' = f(t, y)``, the checks on a state and the branch of the joint angles), ``noexcept
nogil`` so that a step runs without the GIL, and the Python-level methods by which SciPy's
solvers run the same right-hand side and the integrators read the model-level arrays at the
outputs.
"""
import numpy as np

from libc.math cimport fabs, isfinite
from libc.string cimport memcpy

from rancf.formulations._forces import checked
from rancf.formulations.problem import IndexThreeDAE


cdef class StepProblem:
    """Base of the C-level problems: ``n`` coordinates, ``m`` constraints (see the module
    docstring). ``solve`` takes the right-hand side ``[r_dyn; r_con]`` (n + m) and leaves the
    solution ``[da; dlam]`` in place, with the matrix of the last ``factor``.

    ``factor_cost`` is the cost of one ``factor`` in Newton iterations (one residual and one
    solve), estimated by the formulation from its operation counts (10 when unknown); the loop
    weighs it against the iterations a stale matrix costs (rancf/integrators/_implicit.pyx).
    ``formulation`` names the formulation ("" here).
    """

    formulation = ""

    def __cinit__(self, *args, **kwargs):
        self.factor_cost = 10.0

    cdef int mass_action(self, const double* q, double t, const double* a, double* out) except -1:
        raise NotImplementedError

    cdef int force(self, const double* q, const double* v, double t, double* out) except -1:
        raise NotImplementedError

    cdef int dynamic_residual(self, const double* q, const double* v, double t, const double* a,
                              double c_m, double c_f, double* out) except -1:
        """out = c_m M(q) a - c_f F(q, v, t) (n): the loop's residual without the constraint
        terms. A term whose coefficient is zero is not evaluated. This default calls
        ``mass_action`` and ``force``; a formulation that shares work between the two (the
        recursion's kinematics and sweeps) evaluates them in one pass."""
        cdef int i, n = self.n
        cdef double[::1] work
        if c_m != 0.0:
            self.mass_action(q, t, a, out)
            for i in range(n):
                out[i] *= c_m
        else:
            for i in range(n):
                out[i] = 0.0
        if c_f != 0.0:
            if self._work is None:
                self._work = np.zeros(max(n, 1))
            work = self._work
            self.force(q, v, t, &work[0])
            for i in range(n):
                out[i] -= c_f * work[i]
        return 0

    cdef int constraint(self, const double* q, double t, double* out) except -1:
        raise NotImplementedError

    cdef int constraint_force(self, const double* q, const double* lam, double t,
                              double* out) except -1:
        raise NotImplementedError

    cdef int acceleration_bias(self, const double* q, const double* v, double t,
                               double* out) except -1:
        raise NotImplementedError

    cdef int velocity_bias(self, const double* q, double t, double* out) except -1:
        """out = Phi_t (m), so that ``Phi' = Phi_q v + Phi_t`` (for the projection)."""
        raise NotImplementedError

    cdef int factor(self, const double* q_e, const double* a_e, const double* lam,
                    const double* v_e, double t_e, const double* q_new, double t_new, double c_m,
                    double c_mq, double c_k, double c_c, double w) except -1:
        raise NotImplementedError

    cdef int solve(self, double* x) except -1:
        raise NotImplementedError

    cdef int power(self, const double* q, const double* v, const double* a, double t,
                   const double* lam, double* p) except -1:
        return 1

    cdef int violations(self, const double* q, const double* v, const double* a, double t,
                        double* out) except -1:
        out[0] = out[1] = out[2] = 0.0
        return 0

    cdef int project(self, double* q, double* v, double* a, double* lam, double t) except -1:
        """Paper eq. 15-17 after a step, when ``projection`` is "euclidean" or "mass": q onto
        Phi = 0 (:meth:`project_positions`, ``max |Phi| <= 1e-15 (1 + max |q|)``, at most 10
        steps, a state still off after them kept: the loop's monitors report it), then v onto
        ``Phi_q v + Phi_t = 0`` and a onto ``Phi_q a + xi = 0`` (:meth:`least_change`) in the
        metric W = I ("euclidean") or M ("mass", the kinetic-energy metric); then, unless lam
        is NULL, the multipliers (m) of the projected state: the least change of the equation
        of motion's residual in the same metric, ``[W Phi_q^T; Phi_q 0] [x; lam] = [F - M a;
        0]``, so that ``Phi_q^T lam`` is the part of ``F - M a`` along the constraints. Newton's
        lam belongs to the state before the projection, whose O(h) change of a would leave the
        reactions first order. q, v, a, lam are changed in place."""
        cdef bint mass = self.projection == "mass"
        cdef int i, n = self.n
        cdef double* w
        if not self.projection or not self.m:
            return 0
        self.project_positions(q, t, 1e-15, True, 10)
        self.saddle_factor(q, t, mass)
        self.least_change(q, v, v, t, False, mass)
        self.least_change(q, v, a, t, True, mass)
        if lam != NULL:
            w = self._projection_buffer()
            self.force(q, v, t, w)
            self.mass_action(q, t, a, w + n + self.m)
            for i in range(n):
                w[i] -= w[n + self.m + i]
            for i in range(self.m):
                w[n + i] = 0.0
            self.saddle_solve(w)
            memcpy(lam, w + n, self.m * sizeof(double))
        return 0

    cdef double* _projection_buffer(self):
        """The (n + m + n,) work array of the projection, made on first use: a saddle system's
        right-hand side and, behind it, M a for the multipliers (:meth:`project`)."""
        cdef double[::1] work
        if self._projection_work is None:
            self._projection_work = np.zeros(2 * self.n + self.m)
        work = self._projection_work
        return &work[0]

    cdef int project_positions(self, double* q, double t, double tol, bint relative,
                               int max_iter) except -1:
        """q (n) onto ``Phi(q, t) = 0`` in place by Gauss-Newton: each step the least Euclidean
        change of the constraints linearized at the iterate, ``[I Phi_q^T; Phi_q 0] [dq; mu] =
        [0; -Phi]``, i.e. ``dq = -Phi_q^+ Phi`` (the minimum-norm step; its limit is a point of
        the manifold within O(|Phi(q_0)|^2) of the nearest one). Stops before a step once
        ``max |Phi| <= tol (1 + max |q|)`` (relative) or ``<= tol`` (m); at most ``max_iter``
        steps. Returns 1 if the bound was met, 0 if not (q then holds the last iterate).

        The metric of the position steps is Euclidean for every projection kind: the steps go
        to round-off, where the metric moves the limit only at second order, and W = I needs no
        mass matrix at each iterate."""
        cdef int it, i, n = self.n, m = self.m
        cdef double worst, scale
        cdef double* x = self._projection_buffer()
        for it in range(max_iter + 1):
            self.constraint(q, t, x + n)
            worst, scale = 0.0, 1.0
            for i in range(m):
                worst = max(worst, fabs(x[n + i]))
            if relative:
                for i in range(n):
                    scale = max(scale, 1.0 + fabs(q[i]))
            if worst <= tol * scale:
                return 1
            if it == max_iter:
                return 0
            self.saddle_factor(q, t, False)
            for i in range(n):
                x[i] = 0.0
            for i in range(m):
                x[n + i] = -x[n + i]
            self.saddle_solve(x)
            for i in range(n):
                q[i] += x[i]
        return 0

    cdef int least_change(self, const double* q, const double* v, double* x, double t,
                          bint acceleration, bint mass) except -1:
        """x (n) in place onto the linear rows at q: ``Phi_q x + Phi_t = 0`` (velocities) or,
        if ``acceleration``, ``Phi_q x + xi(q, v) = 0`` (accelerations), as the least change in
        the metric W: ``[W Phi_q^T; Phi_q 0] [x'; mu] = [W x; -b]``, W = M if ``mass`` else I.
        Exact (the rows are linear in x); the caller has factored the saddle-point matrix at q
        with this W (:meth:`saddle_factor`). x may be v (a velocity projection in place)."""
        cdef int i, n = self.n, m = self.m
        cdef double* w = self._projection_buffer()
        if mass:
            self.mass_action(q, t, x, w)
        else:
            memcpy(w, x, n * sizeof(double))
        if acceleration:
            self.acceleration_bias(q, v, t, w + n)
        else:
            self.velocity_bias(q, t, w + n)
        for i in range(m):
            w[n + i] = -w[n + i]
        self.saddle_solve(w)
        memcpy(x, w, n * sizeof(double))
        return 0

    def projected(self, q, v, a, t):
        """Copies of (q, v, a) projected as after a step (see :meth:`project`)."""
        cdef double[::1] qq = checked("q", q, self.n).copy()
        cdef double[::1] vv = checked("v", v, self.n).copy()
        cdef double[::1] aa = checked("a", a, self.n).copy()
        self.project(&qq[0], &vv[0], &aa[0], NULL, t)
        return np.asarray(qq), np.asarray(vv), np.asarray(aa)

    def consistent(self, q, v, double t, double tol, int max_iter, positions=True,
                   mass=False):
        """The Python entry of the projection, for initial states: copies of q (n) onto
        ``Phi = 0`` by :meth:`project_positions` (``max |Phi| <= tol``, in m; skipped when
        ``positions`` is False) and of v (n) onto ``Phi_q v + Phi_t = 0`` by
        :meth:`least_change` in the metric M (``mass``) or I. Returns ``(q, v, converged)``;
        converged is False when the positions were still off after ``max_iter`` steps (v is
        then not projected)."""
        cdef double[::1] qq = checked("q", q, self.n).copy()
        cdef double[::1] vv = checked("v", v, self.n).copy()
        if max_iter < 0:
            raise ValueError(f"max_iter must be >= 0, got {max_iter}")
        if not self.m:
            return np.asarray(qq), np.asarray(vv), True
        if positions and not self.project_positions(&qq[0], t, tol, False, max_iter):
            return np.asarray(qq), np.asarray(vv), False
        self.saddle_factor(&qq[0], t, mass)
        self.least_change(&qq[0], &vv[0], &vv[0], t, False, mass)
        return np.asarray(qq), np.asarray(vv), True

    cdef int saddle_factor(self, const double* q, double t, bint mass) except -1:
        """Factor ``[W Phi_q(q, t)^T; Phi_q(q, t) 0]`` (W = M if mass, else I) for
        :meth:`saddle_solve`, keeping the Newton matrix's factors."""
        raise NotImplementedError

    cdef int saddle_solve(self, double* x) except -1:
        """x (n + m) <- the solution of the last :meth:`saddle_factor`'s system."""
        raise NotImplementedError

    cdef int accept(self, const double* q, const double* v, double t) except -1:
        """The loop accepted the state (q, v) at t (the start, then every step). A problem
        whose evaluations depend on the path (the branch of its joint angles, unwrapped from
        one accepted state to the next, theory: Joint coordinates) advances it here, never at
        Newton's iterates, which may turn a direction through half turns before they converge."""
        return 0

    cdef int recentre(self, double* q, double* v, double* a) except -1:
        """After each accepted step (before :meth:`accept`), the problem may move the state
        (q, v, a) (n) to another chart of the same configuration and motion (a rotation vector
        past pi to its equivalent below pi, with its rates mapped); returns 1 if it changed
        them, 0 otherwise (this base: never)."""
        return 0

    cdef void keep_branch(self, double* out) noexcept:
        """Copies what :meth:`observe_frames` needs of the path at an output (``n_branch``
        numbers: the branch of the joint angles after the last :meth:`accept`) into ``out``,
        which the loop keeps beside the output's state (this base: nothing)."""
        pass

    cdef void use_branch(self, const double* row) noexcept:
        """Makes a row of :meth:`keep_branch` the current branch (this base: nothing)."""
        pass

    def observe(self, q, v, a, t, lam):
        """What the problem keeps at an output beside q, v, a, lambda (dict of arrays): the
        model-level arrays (``nodes``, ``velocities``, ``joint_q``, ``joint_qd``,
        ``reactions``) of a formulation of a model, and whatever else it wants kept."""
        return {}

    def observe_frames(self, t, q, v, a, lam, branches):
        """:meth:`observe` of every stored output, as one dict of arrays stacked along a first
        axis (n_out, ...): the loop stores states only, and maps them once it has finished.
        ``t`` (n_out,), ``q``, ``v``, ``a`` (n_out, n), ``lam`` (n_out, m), ``branches``
        (n_out, n_branch) the rows of :meth:`keep_branch`. This base calls :meth:`observe`
        output by output, each on its branch; a formulation may map them all in one compiled
        loop."""
        cdef double[:, ::1] rows = np.ascontiguousarray(branches, dtype=float).reshape(
            len(t), self.n_branch)
        cdef double[::1] now = np.empty(max(self.n_branch, 1))
        records = []
        self.keep_branch(&now[0])
        try:
            for k in range(len(t)):
                if self.n_branch:
                    self.use_branch(&rows[k, 0])
                records.append(self.observe(q[k], v[k], a[k], t[k], lam[k]))
        finally:
            self.use_branch(&now[0])
        names = records[0].keys() if records else ()
        return {name: np.array([r[name] for r in records]) for name in names}

    def newton_advice(self):
        """What the user may change, beside the step and the iterations, when Newton's
        iterations do not converge on this problem ("" if nothing)."""
        return ""

    def chart_step(self, q0, q1):
        """The displacement (n,) of a step from ``q0`` to ``q1`` (n,) in ``q0``'s chart of the
        coordinates: ``q1 - q0`` here, where the coordinates have one chart (a formulation
        whose loop re-centres rotation vectors after a step overrides it)."""
        return np.asarray(q1, dtype=float) - np.asarray(q0, dtype=float)


#: Operation counts (flops) of one beam element's force and of its tangent matrices, the
#: element's share of a residual and of a Newton matrix (from rancf/elements/_beam.pyx: about
#: 300 for the force at three to five Gauss points, ten times that for the tangents).
ELEMENT_FORCE_FLOPS = 300.0
ELEMENT_TANGENT_FLOPS = 3000.0
#: Operations (flops) from which a compiled formulation runs a section of a step (a
#: factorization, a solve, the element forces) without the GIL, so that runs in other threads
#: go on meanwhile: releasing and taking it back costs about 25 ns, 1 % of the 5e3 flops of a
#: small band solve; a smaller section keeps it, as on a small model (a few elements, a step of
#: microseconds) the many short sections of a step would spend a tenth of it on the GIL.
NOGIL_FLOPS = 5e3


def factor_cost(int n_elements, double factor_flops, double solve_flops):
    """A factorization's cost in Newton iterations: ``(n_el T + LU) / (n_el F + S)`` with the
    element's force F and tangent T (:data:`ELEMENT_FORCE_FLOPS`, :data:`ELEMENT_TANGENT_FLOPS`)
    and the linear solver's factorization LU and solve S (flops). An order of magnitude is what
    the loop needs: on the 5 x 5 pendulum about 7 for the banded DAE and for the recursion
    (whose elimination is O(n) like its residual), about 20 for the dense DAE."""
    return ((n_elements * ELEMENT_TANGENT_FLOPS + factor_flops)
            / max(n_elements * ELEMENT_FORCE_FLOPS + solve_flops, 1.0))


cdef inline object _view(const double* p, int n):
    """A NumPy array viewing n doubles at p (no copy)."""
    if n == 0:
        return np.zeros(0)
    return np.asarray(<double[:n]> <double*> p)


cdef class PythonProblem(StepProblem):
    """An :class:`~rancf.formulations.problem.IndexThreeDAE` written in Python, for the loop.

    Parameters
    ----------
    problem : IndexThreeDAE
    projection : {False, "euclidean", "mass"}
        Project q, q', q'' after every step (paper eq. 15-17; see
        :mod:`rancf.integrators.implicit`).
    """

    cdef readonly object problem
    cdef object fac
    cdef object saddle, J, gram       # the projection's factors (mass) or J and its Gram solver

    def __init__(self, problem, projection=False):
        if not isinstance(problem, IndexThreeDAE):
            raise TypeError(f"problem must be an IndexThreeDAE, got {type(problem).__name__}")
        self.problem = problem
        self.n, self.m = problem.n_coordinates, problem.n_constraints
        self.projection = projection

    @property
    def formulation(self):
        return getattr(self.problem, "formulation", "")

    def observe(self, q, v, a, t, lam):
        observe = getattr(self.problem, "observe", None)
        return observe(q, v, t, lam) if observe is not None else {}

    def observe_frames(self, t, q, v, a, lam, branches):
        """The problem's own ``observe_frames(t, q, v, a, lam, branches)`` when it has one (a
        formulation that defers part of its outputs), else :meth:`observe` frame by frame."""
        frames = getattr(self.problem, "observe_frames", None)
        if frames is not None:
            return frames(t, q, v, a, lam, branches)
        return StepProblem.observe_frames(self, t, q, v, a, lam, branches)

    cdef int mass_action(self, const double* q, double t, const double* a, double* out) except -1:
        _view(out, self.n)[:] = self.problem.mass_action(_view(q, self.n), _view(a, self.n))
        return 0

    cdef int force(self, const double* q, const double* v, double t, double* out) except -1:
        _view(out, self.n)[:] = self.problem.force(_view(q, self.n), _view(v, self.n), t)
        return 0

    cdef int constraint(self, const double* q, double t, double* out) except -1:
        if self.m:
            _view(out, self.m)[:] = self.problem.constraint(_view(q, self.n), t)
        return 0

    cdef int constraint_force(self, const double* q, const double* lam, double t,
                              double* out) except -1:
        _view(out, self.n)[:] = self.problem.constraint_force(_view(q, self.n),
                                                              _view(lam, self.m), t)
        return 0

    cdef int acceleration_bias(self, const double* q, const double* v, double t,
                               double* out) except -1:
        if self.m:
            _view(out, self.m)[:] = self.problem.acceleration_bias(_view(q, self.n),
                                                                   _view(v, self.n), t)
        return 0

    cdef int velocity_bias(self, const double* q, double t, double* out) except -1:
        if self.m:
            _view(out, self.m)[:] = self.problem.velocity_bias(_view(q, self.n), t)
        return 0

    cdef int factor(self, const double* q_e, const double* a_e, const double* lam,
                    const double* v_e, double t_e, const double* q_new, double t_new, double c_m,
                    double c_mq, double c_k, double c_c, double w) except -1:
        cdef int n = self.n
        # the same array for q_e and q_new tells the problem that both sit at one point
        qe = _view(q_e, n)
        qn = qe if q_new == q_e else _view(q_new, n)
        self.fac = self.problem.newton_matrix(qe, _view(a_e, n), _view(lam, self.m),
                                              _view(v_e, n), t_e, qn, t_new, c_m, c_mq, c_k,
                                              c_c, w)
        return 0

    def matrix(self, q_e, a_e, lam, v_e, t_e, q_new, t_new, c_m, c_mq, c_k, c_c, w):
        """The assembled Newton matrix (for nonlinear solvers that use its entries)."""
        return self.problem.newton_matrix(q_e, a_e, lam, v_e, t_e, q_new, t_new, c_m, c_mq,
                                          c_k, c_c, w, factor=False)

    cdef int solve(self, double* x) except -1:
        cdef int n = self.n, m = self.m
        da, dl = self.fac.solve(_view(x, n).copy(), _view(x + n, m).copy())
        _view(x, n)[:] = da
        if m:
            _view(x + n, m)[:] = dl
        return 0

    cdef int power(self, const double* q, const double* v, const double* a, double t,
                   const double* lam, double* p) except -1:
        out = self.problem.power(_view(q, self.n), _view(v, self.n), t, _view(lam, self.m))
        if out is None:
            return 1
        p[0], p[1] = out
        return 0

    cdef int violations(self, const double* q, const double* v, const double* a, double t,
                        double* out) except -1:
        """(|Phi|, |Phi_q v + Phi_t|, |Phi_q a + xi|), infinity norms."""
        cdef int n = self.n
        if not self.m:
            out[0] = out[1] = out[2] = 0.0
            return 0
        p = self.problem
        qq, vv, aa = _view(q, n), _view(v, n), _view(a, n)
        out[0] = np.abs(p.constraint(qq, t)).max()
        out[1] = np.abs(p.constraint_rate(qq, vv, t) + p.velocity_bias(qq, t)).max()
        out[2] = np.abs(p.constraint_rate(qq, aa, t) + p.acceleration_bias(qq, vv, t)).max()
        return 0

    cdef int saddle_factor(self, const double* q, double t, bint mass) except -1:
        """W = M: the problem's Newton matrix with ``c_m = 1`` alone; W = I: Phi_q and the
        solver of its Gram matrix (:meth:`saddle_solve` eliminates the first block row)."""
        cdef int n = self.n
        qq = _view(q, n)
        if mass:
            zero = np.zeros(n)
            self.saddle = self.problem.newton_matrix(qq, zero, np.zeros(self.m), zero, t, qq, t,
                                                     1.0, 0.0, 0.0, 0.0, 1.0)
        else:
            self.saddle = None
            self.J = self.problem.constraint_jacobian(qq, t)
            self.gram = self.problem.gram_solver(self.J)
        return 0

    cdef int saddle_solve(self, double* x) except -1:
        """W = I: ``[I J^T; J 0] [y; mu] = [r; c]`` is ``mu = (J J^T)^-1 (J r - c)``,
        ``y = r - J^T mu``; W = M: the factored Newton matrix."""
        cdef int n = self.n, m = self.m
        r, c = _view(x, n), _view(x + n, m)
        if self.saddle is not None:
            y, mu = self.saddle.solve(r.copy(), c.copy())
        else:
            mu = self.gram(self.J @ r - c)
            y = r - self.J.T @ mu
        r[:] = y
        c[:] = mu
        return 0


class TurnedOver(ArithmeticError):
    """A held slope turned over (its polar length s <= 0) at the state evaluated: the motion
    is not defined there (the message says which joint)."""


cdef double[::1] state_buffer(object y, int n_y, bint finite=True):
    """A copy of the state y (n_y,), checked (its entries finite where ``finite``), in a
    buffer of one entry at least: a tree whose every coordinate is driven or held has no state, and
    the kernels take the buffer's address."""
    cdef double[::1] yy = np.zeros(max(n_y, 1))
    cdef double[::1] given = checked("y", y, n_y, finite=finite)
    yy[:n_y] = given
    return yy


cdef class ODEProblem:
    """Base of the C-level ODE problems ``y' = f(t, y)`` of ``n_y`` states.

    C level (the compiled loop, without the GIL):

    ``rate(t, y, ydot)``
        ``ydot = f(t, y)``; returns an :class:`ODEStatus` (``_problem.pxd``): ``ODE_OK``,
        ``ODE_SINGULAR`` (a singular mass), ``ODE_INPUT_RAISED`` (an input function raised) or
        ``ODE_TURNED_OVER`` (the state is outside the motion's domain: a held slope turned
        over; an adaptive loop rejects the step).
    ``check(y, bound)``
        ``ODE_OK`` for an admissible state, ``ODE_NONFINITE`` if one of its entries is not
        finite, ``ODE_UNBOUNDED`` if a node is farther than ``bound`` (m) from the origin
        along x or y.
    ``accept()``
        The loop accepted a step whose last evaluation was near its state: the branch of the
        joint angles (unwrapped from one accepted state to the next) follows that evaluation.
    ``recentre(y)``
        After ``accept``, the problem may move the accepted state y to another chart of the
        same configuration and motion (a rotation vector past pi to its equivalent of angle
        below pi); returns 1 if it changed y (the loop then drops a first-same-as-last stage),
        0 otherwise (this base: never).
    ``keep_branch(out)``
        Copies the branch (``n_branch`` numbers) into ``out``, kept beside each output so that
        :meth:`observe` reads the angles on the branch they had.

    The loop calls :meth:`observe` once, after the run, on all the outputs.

    Python level: :meth:`derivative` (raising on a failed evaluation, for SciPy's solvers),
    :meth:`check_state`, :meth:`branch`, :meth:`failure`, :meth:`stiffness` and
    :meth:`observe`. ``formulation`` names the formulation ("" here). This base has no
    equations: its ``rate`` fails (``ODE_SINGULAR``) and its ``observe`` raises.
    """

    formulation = ""

    cdef int rate(self, double t, const double* y, double* ydot) noexcept nogil:
        return ODE_SINGULAR

    cdef int check(self, const double* y, double bound) noexcept nogil:
        cdef int i
        for i in range(self.n_y):
            if not isfinite(y[i]):
                return ODE_NONFINITE
        return ODE_OK

    cdef void accept(self) noexcept nogil:
        pass

    cdef int recentre(self, double* y) noexcept nogil:
        return 0

    cdef void keep_branch(self, double* out) noexcept nogil:
        cdef int i
        for i in range(self.n_branch):
            out[i] = 0.0

    cdef int keep_inputs(self, object kept, double t, const double* y, bint fresh) noexcept:
        """Appends to the list ``kept`` the values the problem's input functions give at the
        output (t, y) (one :class:`~rancf.formulations.inputs.Recorded` row; the explicit loop
        calls it, with the GIL, and SciPy's runs through :meth:`keep_inputs_at`, where
        :attr:`keeps_inputs`): ``fresh`` says that its last
        :meth:`rate` was at (t, y), so that its arrays hold them (copied, no function called);
        otherwise it evaluates there. Returns an :class:`ODEStatus`. A problem with input
        functions has ``inputs`` (their :class:`~rancf.formulations.inputs.Inputs`, whose
        ``keep()`` gives the row) and says :attr:`keeps_inputs`."""
        cdef double[::1] work
        cdef int status
        if not self.keeps_inputs:
            return ODE_OK
        if not fresh:
            work = np.empty(max(self.n_y, 1))
            status = self.rate(t, y, &work[0])
            if status:
                return status
        inputs = self.inputs
        try:
            kept.append(inputs.keep())
        except BaseException as exc:
            inputs.error = exc
            return ODE_INPUT_RAISED
        return ODE_OK

    def keep_inputs_at(self, kept, double t, y):
        """:meth:`keep_inputs` at an output (t, y) (y (n_y,)) that no evaluation was at, from
        Python: SciPy's runs, whose outputs are their dense output's states, call it at each
        output as they produce it (one more evaluation an output, where
        :attr:`keeps_inputs`). Returns an :class:`ODEStatus`; on ``ODE_INPUT_RAISED`` the
        exception is in ``inputs.error``, and ``kept`` has no row for that output."""
        cdef double[::1] yy = state_buffer(y, self.n_y, False)
        return self.keep_inputs(kept, t, &yy[0], False)

    @property
    def keeps_inputs(self):
        """Whether the explicit loop keeps the input functions' values at its outputs
        (:meth:`keep_inputs`; this base: False, it has no inputs)."""
        return False

    def derivative(self, double t, y):
        """``y'`` (n_y,) at (t, y).

        Raises
        ------
        TurnedOver
            The state is outside the motion's domain (``ODE_TURNED_OVER``).
        ArithmeticError
            A singular mass (``ODE_SINGULAR``).
        rancf.UserFunctionError, ValueError
            An input function raised, or returned what is not a value (``ODE_INPUT_RAISED``:
            the exception the problem's ``inputs`` kept; a RuntimeError if it kept none).
        """
        cdef double[::1] yy = state_buffer(y, self.n_y, False)
        cdef double[::1] ydot = np.empty(max(self.n_y, 1))
        cdef int status
        with nogil:
            status = self.rate(t, &yy[0], &ydot[0])
        if status == ODE_TURNED_OVER:
            raise TurnedOver(self.failure(status, t))
        if status == ODE_SINGULAR:
            raise ArithmeticError(self.failure(status, t))
        if status == ODE_INPUT_RAISED:
            # the input function's own exception (a rancf.UserFunctionError naming it, or the
            # ValueError of a value it returned), as a call outside the kernel raises it
            error = getattr(getattr(self, "inputs", None), "error", None)
            if error is not None:
                raise error
        if status:
            raise RuntimeError(self.failure(status, t))
        return np.asarray(ydot)[:self.n_y]

    def check_state(self, y, double bound):
        """The :class:`ODEStatus` of a state y (n_y,): ``ODE_OK``, ``ODE_NONFINITE`` or
        ``ODE_UNBOUNDED`` (beyond ``bound``, m)."""
        cdef double[::1] yy = state_buffer(y, self.n_y, False)
        return self.check(&yy[0], bound)

    def branch(self):
        """A copy of the branch of the joint angles (``n_branch``,)."""
        cdef double[::1] out = np.empty(max(self.n_branch, 1))
        self.keep_branch(&out[0])
        return np.asarray(out)[:self.n_branch]

    def failure(self, int status, double t):
        """What a status of :meth:`rate` at time t (s) means, in words."""
        return {ODE_SINGULAR: f"the generalized mass became singular at t = {t:.6g} s",
                ODE_INPUT_RAISED: f"an input function raised at t = {t:.6g} s",
                ODE_TURNED_OVER: f"the state left the motion's domain at t = {t:.6g} s"}.get(
                    status, f"status {status} at t = {t:.6g} s")

    def stiffness(self, y):
        """The rates an explicit step must resolve at the state y, in words ("" if unknown)."""
        return ""

    def observe(self, t, Y, branches):
        """What the model makes of the states Y (n_out, n_y) at the times t (n_out,): a dict of
        model-level arrays with n_out rows (``nodes``, ``velocities``, ``joint_q``, ``joint_qd``,
        ``reactions``, ``work``, ``dissipated``) and formulation-specific ones.
        ``branches[i]`` (a row kept by the loop, or from :meth:`branch`) picks the branch of the
        joint angles at output i; None continues from output i - 1's."""
        raise NotImplementedError
