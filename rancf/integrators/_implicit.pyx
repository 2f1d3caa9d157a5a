"""The stepping loop of the implicit schemes, written once and compiled.

One loop for every formulation and every scheme of :mod:`rancf.integrators.implicit` (the
module docstring there gives the equations): the predictor, the Newton iterations (residual,
Newton matrix, factorization, solve, update), the projection, the work integrals, the
constraint monitors, the outputs and the Ctrl-C watch. It calls the problem through the C-level
contract of :class:`rancf.formulations._problem.StepProblem`: for a compiled formulation no
Python runs inside a step (Python input functions of a model excepted, once per evaluation).

A step stops when the iteration just made moved its new positions by at most tol and left its
new velocities within ``tol_v``: ``h^2 beta max|da| <= tol`` and ``h gamma max|da| eta_k <=
tol_v``, where ``eta_k = theta_k / (1 - theta_k)`` estimates the error the iteration leaves from its
contraction ``theta_k`` (Hairer and Wanner, Solving ODEs II, IV.8, eq. 8.14), ``theta_k`` the
smaller of the ratios ``|dq_k| / |dq_{k-1}|`` and ``|dq_{k-1}| / |dq_{k-2}|`` of the step's last
three increments (``eta_k = 1`` at the first iteration); an iteration that no longer contracts
(``|dq_k| >= theta |dq_{k-1}|``) stops on the position test alone (``Stepper._converged``).
``tol_v`` is tol per second, or ``KAPPA`` times the step's own velocity error where that is
larger, estimated by the third difference of the velocities: every scheme here advances
``v_{n+1} = v_n + h ((1 - gamma) a_n + gamma a_{n+1})`` (a the scheme's accelerations, the
pseudo-accelerations in HHT and generalized-alpha, below), so that ``max|v_n - 3 v_{n-1} + 3 v_{n-2}
- v_{n-3}| = h max|gamma D2a_n + (1 - gamma) D2a_{n-1}|`` (``D2a_n = a_n - 2 a_{n-1} + a_{n-2}``),
which is ``h^3 v''' + O(h^4)``, the order of a second-order scheme's local error in v (its
leading term, ``C h^3 v'''``; Hairer, Norsett and Wanner, Solving ODEs I, II.3). The first three
steps after a start, which have no third difference, stop on the position test alone, so that a
run continued from a state steps as the uninterrupted run does (tests/test_cable_frames_state.py).
Why the velocities' difference and not the accelerations' own ``h max|D2a_n|`` (the same
``h^3 v'''`` where a is smooth): on an index-3 DAE an undamped scheme (Newmark) leaves the
accelerations and multipliers an alternating part ``(-1)^n e`` that the velocity update sums
out (at ``gamma = 1/2``, ``(a_n + a_{n+1}) / 2`` cancels it) but that ``D2a`` sees at ``4 e``: it
is no error of the velocities, and a tolerance loosened by it lets Newton errors through that
feed the undamped alternation, so that refining the step stops converging (the parallelogram
four-bar and the bead of tests/test_audit3_findings.py). Where an alternation does reach the
velocities (a damped scheme's ``gamma > 1/2`` passes ``2 gamma - 1`` of it, and an unresolved
stiff mode's) the third difference carries it at the size it has there.

Why the velocities: the unknown is the acceleration, and an error ``da`` left in it moves the new
positions by ``h^2 beta da`` but the new velocities by ``h gamma da``, ``gamma / (beta h)`` times
more, which every later step carries into the positions; with a kept matrix the error has the
same sign step after step. A test on the positions alone admits acceleration errors of ``tol /
(h^2 beta)``, growing as the step shrinks, so that refining the step stops converging (a bead on
a spinning rod against its closed form, tests/test_audit3_findings.py). One tol for both, in m
and m/s (rad and rad/s), is the scalar absolute tolerance of an ODE solver on the state (q, v).
Why ``KAPPA`` times the step's velocity error: Newton need not be more accurate than the step
(Hairer and Wanner's Newton tolerance, a fraction of the local error's), and where a model's
accelerations change fast from step to step (a long chain's unresolved stiff modes) its velocity
error is far above tol per second, so that asking tol per second there costs iterations and
buys no accuracy. The largest third difference over all coordinates sets it, so a stiff mode's
loosens the test for the smooth coordinates too. Why the smaller of two ratios: with an
approximate Newton matrix (the spatial formulation's) the ratios can alternate between a small
and a large value, and the last ratio alone then overestimates the error left; where the
contraction is geometric both ratios are the same. Why the position test alone where the
iteration no longer contracts: the velocity test asks for position increments ``beta h / gamma``
times tol, which the round-off of a long chain's solve may not reach (its increments are then
as likely to grow as to shrink), and no more iterations with that matrix can improve them; where
the matrix has gone stale the renewal rules below see the step's iterations. Statics has no
velocities (``gamma = 0``): its test is the position test.

Newton's matrix is kept across iterations and steps (``reuse=True``, modified Newton) while
the iteration contracts well: an increment larger than ``theta`` (0.5) times the previous one
asks for a new matrix at the current iterate, so the iteration kept contracts at a rate below
theta and the error left in the positions when their increment stops it is below ``tol theta /
(1 - theta) <= tol`` (Hairer and Wanner, IV.8); a step that does not converge with a kept
matrix is retried once from its start with a matrix refactored at every iteration (full
Newton), as stiff solvers do. The position test is on the increment, not on the error estimated
from the ratio ``theta_k``, which would save the last iteration where ``theta_k`` is small: with
a kept matrix the contraction is not geometric (the components of the max norm contract at
different rates, and an approximate matrix's ratios alternate), so the first two increments can
underestimate the error left and a step stopped so can end beyond tol from its solution
(tests/test_newton_stop.py checks every step against its equations solved to round-off); and
the renewal rules below, seeing two iterations a step, would no longer renew a matrix gone
stale. The velocity test takes the estimate: it is ``gamma / (beta h)`` times stricter than the
position test, so that an underestimate of the error by a factor far below that still leaves the
positions within tol, and without it most steps would take the iteration it saves; where it
underestimates, the velocities are no worse than a position test alone leaves them.

Newton starts at ``a_{n+1} = a_n`` while the last step shows the
accelerations resolved, else at the last positions ``q_{n+1} = q_n`` or at the last step's
increment repeated, ``q_{n+1} = 2 q_n - q_{n-1}``, whichever would have missed the last step's
solution by the least (the first step: the one whose first increment is the smaller;
``Stepper._start``; tests/test_newton_start.py): the accelerations of unresolved stiff modes
would put the first iterate far out in a turned configuration, and where they alternate from
step to step (an ANCF cable's root) the repeated increment misses by far less than the last
positions. A start outside the problem's domain (its residual raises ArithmeticError there) is
replaced by the last positions. A step that took k iterations starts the next one with a new
matrix made at its predictor when the iterations it would save, ``(k - k_fresh)`` over the
``HORIZON`` steps a new matrix serves, cost more than a factorization (the problem's
``factor_cost``, in iterations): a matrix kept across steps drifts as the configuration turns,
and finding that out within a step wastes iterations. ``k_fresh`` is what a new matrix achieves:
the iterations of the last step that started with one (``FRESH_ITERATIONS`` before any has),
not a constant, since where even a new matrix leaves more than the tolerance after one
iteration (a long spatial chain in relative coordinates, whose approximate matrix leaves a
transient in the iteration that grows with the chain's length), a new matrix saves nothing and
refactoring at every step would only add its cost (tests/test_newton_matrix_renewal.py). A
matrix that went stale within one step (the step after a new one took more iterations than it by
more than a factorization's cost, the last time one was kept) is renewed at every step.
Where the steps made with the kept matrix (since the last full Newton) cost more on average
than a step of full Newton, counted in iterations (``k + factor_cost l`` for a step's k
iterations and l factorizations, against ``(1 + factor_cost) k_full`` for the ``k_full``
iterations of the last step made with a new matrix at every iteration, ``FRESH_ITERATIONS``
before any), the next steps are made with full Newton (``Stepper._price``). The average, not
the last step: a renewal at a step's start pays off over the steps after it, so a single kept
step that renews twice within itself can cost more than full Newton where the kept steps
around it cost less. Where the configuration turns fast along a direction the matrix weighs
heavily (the spatial chain tilted out of its plane, whose links' twist about the beam axis has
a tiny inertia), a matrix made at a step's start leaves the iteration diverging from its second
or third use on, so that a kept step pays a diverging increment and two to four new matrices,
several times what a full-Newton step costs (validation/renewal_pay.py), and a new matrix at
the step's start, the one renewal the rule above prices, does not help. The kept matrix is tried again after a stretch of full-Newton steps
that doubles each time the try confirms full Newton (one step at first): a run of N steps tries
it about log2 N times, and a model whose motion calms returns to it within as many steps as it
has run with full Newton (tests/test_newton_matrix_renewal.py).
``reuse=False`` refactors at every iteration (full Newton).

HHT and generalized-alpha run in Arnold and Bruls' form (``pseudo``; the equations are in
rancf.integrators.implicit's docstring): the scheme's state ``a`` (and the Newton unknown
``a1``) are the pseudo-accelerations ``a'``, which q and v advance with, and ``at``, ``at1``
the true ones, ``at1 = (am a1 + (1 - am) a'_n - (1 - af) a_n) / af``, at which the equation of
motion holds at the step's end: its residual ``af (M a - F + Phi_q^T lambda)_{n+1}`` has the
derivative ``am M + af h^2 beta (K + d(M a)/dq) + af h gamma C`` in a1, so that the rest of
the loop (the start, the stop test, the kept matrix, the projection, a Python solver) is
Newmark's with the predictors of a'. The outputs, power and monitors take the true
accelerations. Newmark, backward Euler, -S and statics keep a = at (``_alias``). A start sets
``a' = a`` (a run continued from a state too), as does a re-centred rotation vector.

A nonlinear solver written in Python (the adaptive modal method) replaces the Newton
iterations of a step: it receives a :class:`StepEquations` whose ``residual`` and ``matrix``
are the loop's own.

A step on which Newton fails (it does not converge, after the retry with full Newton, or
diverges, or leads to a state the problem refuses, ``ArithmeticError``) is cut: the loop goes
back to the step's start and covers the step with two sub-steps of half the size, and where
one of those fails, with four, down to ``dt / 2**max_cuts`` (``max_cuts``, 6 from
:func:`rancf.implicit.integrate`: dt / 64, as statics' load steps, rancf.integrators.static
``CUTS``), where the run fails as it did without cuts (``max_cuts=0``), its message saying
what was tried, the state at the step's start. Not cut: a Newton matrix singular at the
predicted state itself (a model singular there, as statics), and a step made by a solver written
in Python (``Stepper._cut``). The sub-steps end on the grid
``t_n + j dt / 2**max_cuts`` and the last one at the step's own time, so that the outputs stay
on the steps of dt and the clock does not drift; the work integrals and the constraint
monitors are taken over every sub-step (``Stepper._account``). Why back to the step's start,
not to the failed sub-step's (a recursive bisection): sub-steps that Newton solved at a size
that does not resolve a stiff mode can leave that mode excited beyond what the smaller
sub-steps after them converge from (a stiff ball spring at a beam's root in relative
coordinates, tests/test_spatial_ball_spring.py: after one sub-step of dt / 16 and one of
dt / 32, the sub-steps of dt / 64 took 20 to 25 iterations and one failed, where a run at
dt / 64 from the start takes 6 to 7), and a step made at one size throughout is the scheme's
own step. Where a step was cut, the next steps are made at the sub-step that worked (a stiff
mode a step does not resolve fails it again at the next step, and a failed attempt costs
max_iter iterations or two) and the next coarser one is tried after ``GROW_AFTER`` (10, as
Exudyn's ``adaptiveStepRecoverySteps``) steps of dt; a try that fails, at its first step or
within ``GROW_AFTER`` steps of it, doubles the steps before the next (as the full-Newton
stretches above), so that a model that needs the small sub-step pays about log2 N failed tries
over N steps (the beam on a stiff ball spring at 0.5 ms held each try for one step and failed
the next: counted as held, 30 failed tries in 400 steps; as failed, 5), and
one whose hard part has passed returns to dt within a few steps. Every coefficient that
depends on the step follows the sub-step (``h^2 beta``, ``h gamma``, the predictors, the
velocity floor's ``h``), the kept Newton matrix is made again, and the history is taken as
after a start (the start rules and the third difference assume a uniform step). Arnold and
Bruls' pseudo-accelerations need no conversion: their recursion ``am a'_{n+1} + (1 - am) a'_n
= af a_{n+1} + (1 - af) a_n`` does not involve h (a' approximates ``a(t_n + (af - am) h)``,
so a change of h leaves an offset ``(af - am) (h - h') da/dt`` in it, ``af - am = -0.053`` at
rho_inf = 0.9, once per change). Why cut rather than fail: where a stiff mode the step does
not resolve takes Newton beyond its reach, a step that resolves it converges, and the user of
Exudyn (its implicit solvers' adaptive step) or of statics here expects the solver, not them,
to find it. Statics runs the loop with ``max_cuts=0``: it cuts its load steps itself.

Statics (:func:`rancf.static`) is this loop's Newton iteration with the inertia and damping
coefficients at zero (``static=True``, the coefficients of
:class:`rancf.integrators.implicit.Static`): a step is a load step, time stays where it
started (drives held), the unknown ``a_{n+1}`` is the displacement from the last equilibrium
``q_{n+1} - q_n`` (``h^2 beta = 1``, predictor ``q_n``, velocities zero) and the acceleration
kept between steps is zero, so that every load step starts Newton at the last equilibrium.
"""
import numpy as np

from libc.math cimport fabs, isfinite, ceil, log, ldexp, INFINITY
from libc.string cimport memcpy, memset
from cpython.exc cimport PyErr_CheckSignals

from rancf.formulations._forces import checked
from rancf.utilities.workspace import arena
from rancf.formulations._problem cimport StepProblem
from rancf.utilities.errors import UserFunctionError
from rancf.formulations.problem import StepFailure
from rancf.integrators._interrupt cimport Watch, start_watch, interrupted


#: Iterations a step takes with a Newton matrix made at its predictor until a step has shown
#: it (a matrix made near the solution converges quadratically: its second increment is
#: the one below tol), and the steps a new matrix serves before it is as stale as the old.
cdef int FRESH_ITERATIONS = 2
cdef int HORIZON = 3
#: Newton's velocity tolerance as a fraction of the step's own velocity error, estimated by
#: the third difference of the velocities (module docstring; ``Stepper._start``): small enough
#: that the bead on a spun rod keeps second order (tests/test_audit3_findings.py), large enough
#: that a long chain's unresolved modes do not ask Newton for iterations beyond the step's own
#: accuracy.
cdef double KAPPA = 1e-3
#: The most halvings of a step (``max_cuts``): a sub-step of dt / 2**30 (1e-9 dt) is far below
#: any a model needs, and the sub-steps' positions within a step are counted in a long.
cdef int MAX_CUTS = 30
#: Steps of dt made at a sub-step before the next coarser one is tried (module docstring, step
#: cuts): Exudyn's default (``adaptiveStepRecoverySteps``, 10). Fewer try the coarser sub-steps
#: more often, and a try Newton solves at a sub-step that does not resolve a stiff mode costs
#: accuracy (the beam on a stiff ball spring of tests/test_spatial_ball_spring.py).
cdef int GROW_AFTER = 10


cdef inline double _maxabs(const double* x, int n) noexcept nogil:
    cdef double m = 0.0
    cdef int i
    for i in range(n):
        if not fabs(x[i]) <= m:        # NaN propagates
            m = fabs(x[i])
    return m


cdef inline double _maxabs_added(const double* x, double* y, int n) noexcept nogil:
    """``max |x|`` (as :func:`_maxabs`: NaN propagates) and ``y += x`` in one pass: on a long chain
    the vectors outgrow the caches and each pass over them is a trip to memory."""
    cdef double m = 0.0
    cdef int i
    for i in range(n):
        if not fabs(x[i]) <= m:
            m = fabs(x[i])
        y[i] += x[i]
    return m


cdef class Stepper:
    """State, scheme and work arrays of the loop (see the module docstring).

    Parameters
    ----------
    problem : StepProblem
    am, af, gamma, beta : float
        Scheme coefficients in the paper's convention (rancf.integrators.implicit); ``am``
        may be set between steps (read by each step's start).
    intermediate : bool
        Equilibrium at the intermediate point (generalized-alpha-S); otherwise, unless ``am =
        af = 1`` or ``static``, Arnold and Bruls' form (``pseudo``, module docstring).
    bdf1 : bool
        Backward Euler's predictor ``q + h v, v`` instead of Newmark's.
    h, tol, max_iter
        Step (s), Newton tolerance on ``max |dq|`` and iteration cap.
    reuse : bool
        Keep Newton's matrix while the iteration contracts by ``theta`` (default 0.5), or make
        one at every iteration where a step costs less so (module docstring).
    strategy : optional
        A Python nonlinear solver, ``solve(equations, a, lam) -> (a, lam, iterations)``.
    static : bool
        Load steps of statics (module docstring): time does not advance, the acceleration
        after a step is zero, the failure messages speak of load steps.
    max_cuts : int
        How many times a step on which Newton fails may be halved, down to ``h / 2**max_cuts``
        in [0, 30]
        (module docstring, step cuts); 0 (the default, and statics', which cuts its load steps
        itself) stops the run at the first failure.
    """

    cdef StepProblem p
    # am settable between steps: the pseudo-time steps of statics' first load step
    # (rancf.integrators.static._pseudo_transient_first_step) change it from step to step
    cdef public double am
    cdef readonly double af, gamma, beta, h, tol, t, theta
    # the step of the run (dt) and the sub-steps it is cut into where Newton fails: h is the
    # sub-step being taken, dt / 2**level (module docstring, step cuts)
    cdef readonly double dt
    cdef readonly int max_cuts, level
    # the step's sub-steps in units of dt / 2**max_cuts: the step ends at unit `total`, the
    # sub-step being taken ends at `pos_end`; t_grid the time at the step's start
    cdef long pos_end, total
    cdef double t_grid
    # steps made at this level since it was entered, how many make a try at the next
    # coarser level, and whether the level was entered by such a try that has not yet held
    # for GROW_AFTER steps (_cut, step)
    cdef int successes, span
    cdef bint tried
    # cut events, the smallest sub-step taken and when the first cut happened
    cdef readonly long cuts
    cdef readonly double smallest, first_cut
    cdef str cut_note     # the cuts a failed run tried, for its message (run)
    # run()'s integrals and monitors, taken after every sub-step (_account): the power at the
    # last (sub-)step p_old (at the intermediate point t_node in -S), the work and dissipated
    # energy, their sum up to t_node (-S), the worst constraint violations since the last output
    cdef bint monitoring, tracked
    cdef double p_old[2]
    cdef double energy[2]
    cdef double through[2]
    cdef double worst[3]
    cdef double t_node
    # the step's start, where a failed step is retried from (_save, _restore)
    cdef double[::1] s_q, s_v, s_a, s_at, s_lam
    cdef double s_sums[10]
    cdef readonly bint intermediate, bdf1, reuse, static, pseudo
    cdef readonly int max_iter, n, m
    cdef double[::1] q, v, a, lam, q_pred, v_pred, q1, v1, a1, lam1, q_e, v_e, a_e
    cdef double[::1] q_old, v_old, a_old, r_old, f, x, viol, q_prev, q_prev2, a_prev, a_prev2
    cdef double[::1] a_prev3
    # the true accelerations of the state and of the iterate: Arnold and Bruls' schemes
    # (pseudo) keep the pseudo-accelerations in a, a1 and the true ones here; the others
    # alias a, a1 (_alias)
    cdef double[::1] at, at1
    cdef double[::1] a_probe
    cdef double[::1] x_probe
    # the accepted steps behind the state, up to 3: q_prev and a_prev hold the state before the
    # last one, q_prev2 and a_prev2 the positions and accelerations before that, a_prev3 the
    # accelerations before those (_start)
    cdef int history
    cdef bint probing       # the first iteration compares the two starts (_start)
    # step k after the start is at t_origin + k h, from the integer k (a sum of h's gathers a
    # rounding a step, and the outputs are labelled t0 + k dt), and step k_final at t_final
    cdef double t_origin, t_final
    cdef long k_origin, k_final
    cdef bint at_last       # the start is the last positions, q_{n+1} = q_n (_start)
    # the outputs of run(), filled row by row (n_kept rows so far)
    cdef double[::1] out_t
    cdef double[:, ::1] out_q, out_v, out_a, out_lam, out_viol, out_energy, out_branch
    cdef long[::1] out_iterations
    cdef long n_kept
    cdef public long nfev, njev, nlu, newton_iterations, steps
    cdef bint factored
    cdef int last_iterations, fresh_iterations, age, staleness
    cdef int full_iterations, full_left, full_span, kept_steps
    cdef double kept_cost
    cdef double hb, hg, t1, t_e, w, c_mq, _last_dq, _rate, _tol_v
    cdef object strategy
    cdef object equations
    cdef readonly object error     # what an input function of the problem raised, ending run()
    cdef object keep_inputs        # the problem's keep_inputs(k, t, q, v), or None (_record)

    def __init__(self, StepProblem problem, double am, double af, double gamma, double beta,
                 bint intermediate, bint bdf1, double h, double tol, int max_iter, bint reuse,
                 strategy=None, double theta=0.5, bint static=False, int max_cuts=0):
        self.p = problem
        self.static = static
        if max_cuts < 0 or max_cuts > MAX_CUTS or (static and max_cuts):
            raise ValueError(f"max_cuts must be in [0, {MAX_CUTS}] (0 in statics, which cuts "
                             f"its load steps itself), got {max_cuts}")
        self.max_cuts, self.total = max_cuts, (<long>1) << max_cuts
        self.dt = h
        self.level, self.successes, self.span, self.tried = 0, 0, GROW_AFTER, False
        self.cuts, self.smallest, self.first_cut, self.cut_note = 0, h, 0.0, ""
        self.monitoring = False
        self.n, self.m = problem.n, problem.m
        self.am, self.af, self.gamma, self.beta = am, af, gamma, beta
        self.intermediate, self.bdf1 = intermediate, bdf1
        self.h, self.tol, self.max_iter, self.reuse, self.theta = h, tol, max_iter, reuse, theta
        n, m = self.n, self.m
        # at least one entry each: a problem with no unknowns (every coordinate driven) still
        # takes their addresses, which a debug build checks; only the first n are used
        n1 = max(n, 1)
        w = arena(dict(q=n1, v=n1, a=n1, q_pred=n1, v_pred=n1, q1=n1, v1=n1, a1=n1, q_e=n1,
                       v_e=n1, a_e=n1, q_old=n1, v_old=n1, a_old=n1, r_old=n1, f=n1,
                       lam=max(m, 1), lam1=max(m, 1), x=max(n + m, 1), viol=3, q_prev=n1,
                       q_prev2=n1, a_prev=n1, a_prev2=n1, a_prev3=n1, a_probe=n1,
                       x_probe=max(n + m, 1), at=n1, at1=n1, s_q=n1, s_v=n1, s_a=n1,
                       s_at=n1, s_lam=max(m, 1)))
        self.q, self.v, self.a = w["q"], w["v"], w["a"]
        self.q_pred, self.v_pred = w["q_pred"], w["v_pred"]
        self.q1, self.v1, self.a1 = w["q1"], w["v1"], w["a1"]
        self.q_e, self.v_e, self.a_e = w["q_e"], w["v_e"], w["a_e"]
        self.s_q, self.s_v, self.s_a, self.s_at = w["s_q"], w["s_v"], w["s_a"], w["s_at"]
        self.s_lam = w["s_lam"]
        self.q_old, self.v_old, self.a_old = w["q_old"], w["v_old"], w["a_old"]
        self.r_old, self.f = w["r_old"], w["f"]
        self.q_prev, self.q_prev2, self.a_prev = w["q_prev"], w["q_prev2"], w["a_prev"]
        self.a_prev2, self.a_prev3 = w["a_prev2"], w["a_prev3"]
        # Arnold and Bruls' weighting: the dynamic schemes whose equation is not at the step's
        # end alone (Newmark's and backward Euler's coefficients are, and statics is a load step)
        self.pseudo = not (intermediate or static or (am == 1.0 and af == 1.0))
        self.at, self.at1 = w["at"], w["at1"]
        self._alias()
        self.history = 0
        self.a_probe, self.x_probe, self.probing = w["a_probe"], w["x_probe"], False
        self.at_last = False
        self.lam, self.lam1 = w["lam"], w["lam1"]
        self.x, self.viol = w["x"], w["viol"]
        self.strategy = strategy
        self.equations = StepEquations(self) if strategy is not None else None
        self.nfev = self.njev = self.nlu = self.newton_iterations = self.steps = 0
        self.factored = False
        self.last_iterations = 0
        # the iterations of the last step begun with a new matrix, the steps the matrix has
        # served, and the iterations the step after a new matrix took more than it, last time
        self.fresh_iterations = FRESH_ITERATIONS
        self.age = self.staleness = 0
        # the iterations of the last step made with full Newton, the steps left to make with
        # it, the steps the next such stretch will last, and the steps made with the kept
        # matrix since the last and their cost in iterations (_price)
        self.full_iterations = FRESH_ITERATIONS
        self.full_left, self.full_span = 0, 1
        self.kept_steps, self.kept_cost = 0, 0.0

    cdef void _alias(self) noexcept:
        """Outside Arnold and Bruls' schemes the accelerations of the scheme are the true ones:
        at, at1 are a, a1."""
        if not self.pseudo:
            self.at, self.at1 = self.a, self.a1

    # --- the step's equations -----------------------------------------------------------------
    cdef void _prepare(self):
        """Predictors and the old-step parts of the step from t to t + h."""
        cdef int i, n = self.n
        cdef double h = self.h, am = self.am, af = self.af
        if self.static:
            self.t1 = self.t
        elif self.pos_end < self.total:
            # a sub-step inside the step ends on the grid of dt / 2**max_cuts from its start
            # (exact multiples of a power of two of dt), so that they add up to no drift
            self.t1 = self.t_grid + self.pos_end * ldexp(self.dt, -self.max_cuts)
        elif self.steps + 1 == self.k_final:
            self.t1 = self.t_final
        else:
            self.t1 = self.t_origin + (self.steps + 1 - self.k_origin) * self.dt
        self.hb, self.hg = h * h * self.beta, h * self.gamma
        for i in range(n):
            if self.bdf1:
                self.q_pred[i] = self.q[i] + h * self.v[i]
                self.v_pred[i] = self.v[i]
            else:
                self.q_pred[i] = self.q[i] + h * self.v[i] + h * h * (0.5 - self.beta) * self.a[i]
                self.v_pred[i] = self.v[i] + h * (1.0 - self.gamma) * self.a[i]
        if self.intermediate:
            self.t_e = self.t + af * h
            self.w, self.c_mq = 1.0, af * self.hb
            for i in range(n):
                self.q_old[i] = (1.0 - af) * self.q[i]
                self.v_old[i] = (1.0 - af) * self.v[i]
                self.a_old[i] = (1.0 - am) * self.a[i]
        elif self.pseudo:
            # the true acceleration of an iterate is at1 = (am/af) a1 + a_old (_point)
            self.t_e = self.t1
            self.w, self.c_mq = af, af * self.hb
            for i in range(n):
                self.a_old[i] = ((1.0 - am) * self.a[i] - (1.0 - af) * self.at[i]) / af
        else:
            self.t_e = self.t1
            self.w, self.c_mq = af, am * self.hb

    cdef int _old_residual(self) except -1:
        """r_old = (1 - am) M(q_n) a_n + (1 - af) (Phi_q^T lam_n - F_n) (zero for Newmark, for
        statics: a_n = 0, af = 1, and for Arnold and Bruls' schemes, whose equation holds at
        the step's end)."""
        cdef int i, n = self.n
        if (self.intermediate or self.pseudo or (self.am == 1.0 and self.af == 1.0)
                or self.static):
            for i in range(n):
                self.r_old[i] = 0.0
            return 0
        self.p.dynamic_residual(&self.q[0], &self.v[0], self.t, &self.a[0], 1.0 - self.am,
                                1.0 - self.af, &self.r_old[0])
        if self.af != 1.0:
            self.nfev += 1
            if self.m:
                self.p.constraint_force(&self.q[0], &self.lam[0], self.t, &self.f[0])
                for i in range(n):
                    self.r_old[i] += (1.0 - self.af) * self.f[i]
        return 0

    cdef int _point(self, const double* a1) except -1:
        """q1, v1 of the iterate a1 and the point (q_e, v_e, a_e) of the equation of motion (in
        Arnold and Bruls' schemes the iterate's true acceleration at1)."""
        cdef int i
        cdef double af = self.af, am = self.am, c = self.am / self.af
        if self.pseudo:
            for i in range(self.n):
                self.q1[i] = self.q_pred[i] + self.hb * a1[i]
                self.v1[i] = self.v_pred[i] + self.hg * a1[i]
                self.at1[i] = c * a1[i] + self.a_old[i]
            return 0
        for i in range(self.n):
            self.q1[i] = self.q_pred[i] + self.hb * a1[i]
            self.v1[i] = self.v_pred[i] + self.hg * a1[i]
            if self.intermediate:
                self.q_e[i] = self.q_old[i] + af * self.q1[i]
                self.v_e[i] = self.v_old[i] + af * self.v1[i]
                self.a_e[i] = self.a_old[i] + am * a1[i]
        return 0

    cdef int residual(self, const double* a1, const double* lam, double* r,
                      bint negated=False) except -1:
        """r = [r_dyn (n); r_con (m)] at (a1, lam) (rancf.integrators.implicit's docstring), or
        ``-r`` where ``negated`` (Newton's right-hand side). Without constraints the old step's
        part, the finiteness check and the sign take one pass over r (a long chain's vectors
        outgrow the caches)."""
        cdef int i, n = self.n, m = self.m
        cdef double af = self.af, am = self.am, s
        self._point(a1)
        if self.intermediate:
            self.p.dynamic_residual(&self.q_e[0], &self.v_e[0], self.t_e, &self.a_e[0], 1.0, 1.0, r)
            if m:
                self.p.constraint_force(&self.q_e[0], lam, self.t_e, &self.f[0])
                for i in range(n):
                    r[i] += self.f[i]
        elif self.pseudo:
            # af (M a - F)_{n+1}, a the true acceleration: the equation at the step's end,
            # scaled so that its derivative in a1 is am M (the Newton matrix's, factor)
            self.p.dynamic_residual(&self.q1[0], &self.v1[0], self.t1, &self.at1[0], af, af, r)
            if m:
                self.p.constraint_force(&self.q1[0], lam, self.t1, &self.f[0])
                for i in range(n):
                    r[i] += af * self.f[i]
        else:
            self.p.dynamic_residual(&self.q1[0], &self.v1[0], self.t1, a1, am, af, r)
            if m:
                for i in range(n):
                    r[i] += self.r_old[i]
                self.p.constraint_force(&self.q1[0], lam, self.t1, &self.f[0])
                for i in range(n):
                    r[i] += af * self.f[i]
        self.nfev += 1
        if m:
            self.p.constraint(&self.q1[0], self.t1, r + n)
            for i in range(m):
                r[n + i] /= self.hb
        if not self.intermediate and not m:
            for i in range(n):
                s = r[i] + self.r_old[i]
                if not isfinite(s):
                    raise StepFailure("diverged", f"non-finite residual{self._where()}")
                r[i] = -s if negated else s
            return 0
        for i in range(n + m):
            if not isfinite(r[i]):
                raise StepFailure("diverged", f"non-finite residual{self._where()}")
            if negated:
                r[i] = -r[i]
        return 0

    cdef int factor(self, const double* a1, const double* lam) except -1:
        """Newton's matrix at the iterate (a1, lam), assembled and factored."""
        cdef double moved
        cdef const double* qe
        cdef const double* ve
        cdef const double* ae
        self._point(a1)
        if self.intermediate:
            qe, ve, ae = &self.q_e[0], &self.v_e[0], &self.a_e[0]
        elif self.pseudo:
            qe, ve, ae = &self.q1[0], &self.v1[0], &self.at1[0]
        else:
            qe, ve, ae = &self.q1[0], &self.v1[0], a1
        try:
            self.p.factor(qe, ae, lam, ve, self.t_e, &self.q1[0], self.t1, self.am, self.c_mq,
                          self.af * self.hb, self.af * self.hg, self.w)
        except UserFunctionError:
            raise       # an effort function raised while its slopes were taken: not the matrix
        except (ArithmeticError, np.linalg.LinAlgError, RuntimeError) as exc:
            # singular or indefinite Newton matrix (SuperLU raises RuntimeError); at the
            # step's start itself the model is singular there
            moved = self._moved(a1)
            raise StepFailure("failed", self._factor_failure(moved, exc),
                              reason="singular" if moved == 0.0 else None)
        self.njev += 1
        self.nlu += 1
        self.factored = True
        return 0

    # --- Newton -------------------------------------------------------------------------------
    cdef int _newton(self, bint full) except -2:
        """Newton iterations from the current (a1, lam1); the iteration count, or -1 when it does
        not converge within max_iter."""
        cdef int it, i, n = self.n, m = self.m
        cdef double dq = 0.0, dq_prev = 0.0, dq_prev2 = 0.0, dq_first = 0.0
        cdef double* x = &self.x[0]
        for it in range(1, self.max_iter + 1):
            if it == 1:
                self._start_residual(x)
            elif full:
                self.residual(&self.a1[0], &self.lam1[0], x, True)
            else:
                try:
                    self.residual(&self.a1[0], &self.lam1[0], x, True)
                except ArithmeticError:
                    # the kept matrix led the iterate out of the problem's domain: the step
                    # is retried with full Newton (step), where the error propagates
                    self._last_dq, self._rate = dq, INFINITY
                    return -1
            if full or not self.factored:
                self.factor(&self.a1[0], &self.lam1[0])
            self.p.solve(x)
            if it == 1 and self.probing:
                dq = self._probe(self.hb * _maxabs(x, n))
                for i in range(n):
                    self.a1[i] += x[i]
            else:
                dq = self.hb * _maxabs_added(x, &self.a1[0], n)
            for i in range(m):
                self.lam1[i] += x[n + i]
            self.newton_iterations += 1
            if not isfinite(dq):
                raise StepFailure("diverged", f"non-finite Newton increment{self._where()}")
            if self._converged(dq, dq_prev, dq_prev2, it):
                return it
            if dq > 1e8:
                # beyond the loop's state bound: the iterates diverge (left alone they went on
                # to 1e100 m before a Newton matrix could no longer be factored)
                self._last_dq, self._rate = dq, INFINITY
                return -1
            if not full and it >= 2 and dq > self.theta * dq_prev:
                self.factored = False       # slow contraction: a new matrix next iteration
            if it == 1:
                dq_first = dq
            dq_prev2 = dq_prev
            dq_prev = dq
            # Ctrl-C between iterations (a flag read; the handler runs if it is set): an
            # iteration of a large dense model takes seconds, and run() looks once a step
            PyErr_CheckSignals()
        self._last_dq = dq
        # the mean contraction per iteration of the whole attempt
        self._rate = (dq / dq_first) ** (1.0 / (self.max_iter - 1)) if self.max_iter > 1 else 1.0
        return -1

    cdef bint _converged(self, double dq, double dq_prev, double dq_prev2, int it) noexcept:
        """Newton's stop test (the module docstring gives the criterion and why) after the
        iteration ``it`` whose position increment is ``dq = h^2 beta max|da|`` (m), the last
        two before it ``dq_prev`` and ``dq_prev2`` (unset before the second and third
        iterations): ``dq`` at most tol, and the velocity increment ``h gamma max|da|`` times
        ``theta_k / (1 - theta_k)`` (``theta_k`` the smaller of ``dq / dq_prev`` and ``dq_prev /
        dq_prev2``; 1 at the first iteration) at most ``_tol_v`` (m/s: tol per second, or
        ``KAPPA`` times the step's own velocity error where that is larger; unbounded in a
        run's first three steps, :meth:`_start`),
        unless the iteration no longer contracts (``dq >= theta dq_prev``: round-off, or a
        matrix gone stale)."""
        cdef double dv, th
        if not dq <= self.tol:
            return False
        if self.hg <= self.hb:
            return True         # statics: no velocities
        dv = dq * (self.hg / self.hb)
        if it >= 2:
            if not dq < self.theta * dq_prev:
                return True
            th = dq / dq_prev
            if it >= 3 and dq_prev < th * dq_prev2:
                th = dq_prev / dq_prev2
            dv *= th / (1.0 - th)
        return dv <= self._tol_v

    cdef int _start_residual(self, double* x) except -1:
        """Newton's right-hand side ``-r`` in x at its start (:meth:`_start`). A start at which
        the problem cannot evaluate its residual (it raises ArithmeticError: a spatial element
        turned by half a turn, a planar element inverted) is replaced by the last positions,
        ``q_{n+1} = q_n``, which the problem evaluated when it accepted them; there the
        error propagates. Why: the start at ``a_n`` (or at the repeated increment) moves the
        positions by ``h^2 a_n / 2``, which is far out where ``a_n`` holds an unresolved stiff
        mode's acceleration (a stiff ball spring at a beam's root turns its first element by
        more than pi in one step, tests/test_spatial_ball_spring.py), and the first step has
        no history to choose another start by. An iterate of the kept matrix that
        leaves the domain ends that attempt (the step is retried with full Newton,
        :meth:`_newton`)."""
        cdef int i
        try:
            self.residual(&self.a1[0], &self.lam1[0], x, True)
            return 0
        except ArithmeticError:
            if self.at_last:
                raise
        self.probing, self.at_last = False, True
        for i in range(self.n):
            self.a1[i] = (self.q[i] - self.q_pred[i]) / self.hb
        self.residual(&self.a1[0], &self.lam1[0], x, True)
        return 0

    cdef str _where(self):
        """Where a failure happened, for its message: the time of the step (nothing in
        statics, whose caller names the load step)."""
        return "" if self.static else f" at t = {self.t1:.6g} s"

    cdef double _moved(self, const double* a1):
        """How far (the largest coordinate) Newton's iterate a1 has moved from the step's
        predicted positions."""
        cdef double moved = 0.0
        cdef int i
        for i in range(self.n):
            moved = max(moved, self.hb * fabs(a1[i] - self.a[i]))
        return moved

    cdef str _factor_failure(self, double moved, exc):
        """What a Newton matrix that cannot be factored tells the user: at an iterate that
        moved (``moved``) away from the predicted positions Newton is diverging; at the
        predicted state itself the model is singular there (in statics, at the last
        equilibrium: the stiffness matrix is singular, a mechanism)."""
        if self.static:
            return (f"the stiffness matrix could not be factored ({exc}) after Newton's iterate "
                    f"had moved {moved:.3g} from the last equilibrium: it is diverging, raise "
                    "load_steps"
                    if moved > 0.0 else
                    f"the stiffness matrix is singular ({exc}); is the model a mechanism?")
        why = (f"Newton's iterate had moved {moved:.3g} from the predicted positions: it is "
               "diverging, reduce dt" if moved > 0.0 else
               "at the predicted state: reduce dt, or the model may be a mechanism there")
        return f"Newton matrix could not be factored at t = {self.t1:.6g} s ({exc}); {why}"

    cdef str _newton_failure(self):
        """What a step whose Newton iterations did not converge tells the user to change: an
        iteration that contracted (by a mean rate of the attempt below 0.9 per iteration) asks
        for more iterations (how many it would take at that rate) or a smaller step, one that
        did not for a smaller step; the problem may add its own advice
        (``StepProblem.newton_advice``). In statics the step is a load step, made smaller by
        more load steps."""
        step, smaller = (("load step", "raise load_steps, or make sure the model is not a "
                          "mechanism (a free motion has no equilibrium to converge to)")
                         if self.static else ("step", "reduce dt"))
        if self._rate == INFINITY:
            within = "diverging"
            how = f"its increment exceeded 1e8: the {step} is too large for this model, {smaller}"
        elif self._rate < 0.9 and self._last_dq > 0.0:
            within = f"{self.max_iter} iterations"
            more = int(ceil(log(self.tol / self._last_dq) / log(self._rate)))
            how = (f"contracting by {self._rate:.2f} per iteration (about {more} more would "
                   f"reach the tolerance): raise max_iter, or {smaller}")
        else:
            within = f"{self.max_iter} iterations"
            how = (f"not contracting: the {step} is too large for this model's nonlinearity, "
                   f"{smaller}")
        extra = self.p.newton_advice()
        if not self.static and self.gamma == 0.5:
            # Newmark's coefficients (gamma = 1/2: HHT at alpha = 1, generalized-alpha at
            # rho_inf = 1) keep the energy of every mode; that of the modes a step does not
            # resolve can grow through the nonlinear terms until Newton fails (the user
            # guide's integrator advice has the measurements)
            extra = (extra + "; " if extra else "") + (
                "this scheme damps no frequency (gamma = 1/2): the fast modes a step does not "
                "resolve keep their energy, which the model's nonlinearity (turning masses, "
                "light node rotations driven between nodes) can make grow; "
                "method=\"generalized-alpha\" (rho_inf = 0.9) or \"hht\" damps them")
        return (f"Newton did not converge{self._where()} ({within}, last |dq| = "
                f"{self._last_dq:.3g}, tolerance {self.tol:.3g}): {how}"
                + (f"; {extra}" if extra else ""))

    cdef double _probe(self, double dq) except -1.0:
        """The first step's choice of start (:meth:`_start`): the first Newton increment from
        ``q_{n+1} = q_n`` with the matrix just factored at ``a_n``'s; where it is the smaller,
        Newton goes on from there (a1 and the increment in x replaced). Returns the increment
        kept, ``h^2 beta max|x|``."""
        cdef int i, n = self.n, m = self.m
        cdef double dq_q
        cdef double* xp = &self.x_probe[0]
        self.probing = False
        for i in range(n):
            self.a_probe[i] = (self.q[i] - self.q_pred[i]) / self.hb
        self.residual(&self.a_probe[0], &self.lam1[0], xp, True)
        self.p.solve(xp)
        dq_q = self.hb * _maxabs(xp, n)
        if not dq_q < dq:
            return dq
        memcpy(&self.a1[0], &self.a_probe[0], n * sizeof(double))
        memcpy(&self.x[0], xp, (n + m) * sizeof(double))
        return dq_q

    cdef void _start(self) noexcept:
        """Newton's first iterate: ``a_{n+1} = a_n``, the new positions at the last accepted
        ones, ``q_{n+1} = q_n``, or the last step's increment repeated, ``q_{n+1} = 2 q_n -
        q_{n-1}`` (a position start q0 is the iterate ``a_{n+1} = (q0 - q_pred) / (h^2 beta)``).

        ``a_n`` is the better start for a smooth motion (it misses the new positions by
        ``h^2 beta |a_{n+1} - a_n|``, O(h^3)), but it carries the unresolved stiff modes (a
        beam's axial and high bending modes at ``omega h >> 1``) at ``omega^2`` times their
        amplitude: it puts the positions ``h^2 a_n / 2`` away, ``(omega h)^2 / 2`` times that
        amplitude, into a turned configuration of the nonlinear elements from which Newton
        fails, or converges to another root of the step's equations (a node turned over).
        ``q_n`` misses them by the step's motion ``|q_{n+1} - q_n|``. The repeated increment
        misses a smooth motion by its second difference, ``h^2 |q''|`` (O(h^2), so more than
        ``a_n`` where the accelerations are smooth), and the stiff modes by their amplitude
        alone: it wins where the accelerations of a mode the step does not resolve change from
        step to step by more than ``|q''| / beta``, as the generalized-alpha family's do (they
        alternate in sign, the scheme's amplification at ``omega h -> infinity`` being
        ``-rho_inf``): the slope of an ANCF cable's root node on a spherical joint, whose
        acceleration flips sign from step to step. The accelerations are not extrapolated:
        their alternation would grow the miss (``2 a_n - a_{n-1}`` doubles it). Each step
        takes the start that would have missed the last step's solution by the least, ``h^2
        beta max|a_n - a_{n-1}|``, ``max|q_n - q_{n-1}|`` and ``max|q_n - 2 q_{n-1} +
        q_{n-2}|`` (the norm of Newton's test; the increment only when it is strictly the
        least). The first step has no history: it starts at ``a_n`` and its first iteration also takes the
        increment from ``q_n`` with the same matrix, going on from the start whose increment
        is the smaller (:meth:`_probe`; one residual and one solve more a run); the second has
        no increment to repeat. In statics ``q_pred = q_n`` and ``a_n = 0``: the first two
        starts are the last equilibrium, whose miss (zero) the increment never beats. A start
        at which the problem cannot evaluate its residual is replaced by ``q_n``
        (:meth:`_start_residual`)."""
        cdef int i
        cdef double by_a = 0.0, by_q = 0.0, by_increment = INFINITY, by_v3 = 0.0
        cdef double g = self.gamma
        self.at_last = False
        self._tol_v = INFINITY      # no third difference yet: the position test alone
        if not self.history:
            memcpy(&self.a1[0], &self.a[0], self.n * sizeof(double))
            self.probing = not self.static
            # in statics a_n = 0 and q_pred = q_n: this start is the last equilibrium
            self.at_last = self.static
            return
        if self.history >= 2:
            by_increment = 0.0
            for i in range(self.n):     # one pass: a long chain's vectors outgrow the caches
                by_a = max(by_a, fabs(self.a[i] - self.a_prev[i]))
                by_q = max(by_q, fabs(self.q[i] - self.q_prev[i]))
                by_increment = max(by_increment,
                                   fabs(self.q[i] - 2.0 * self.q_prev[i] + self.q_prev2[i]))
                if self.history == 3:
                    # the third difference of the velocities over h (module docstring)
                    by_v3 = max(by_v3, fabs(
                        g * (self.a[i] - 2.0 * self.a_prev[i] + self.a_prev2[i])
                        + (1.0 - g) * (self.a_prev[i] - 2.0 * self.a_prev2[i] + self.a_prev3[i])))
            if self.history == 3:
                self._tol_v = max(self.tol, KAPPA * self.h * by_v3)
        else:
            for i in range(self.n):
                by_a = max(by_a, fabs(self.a[i] - self.a_prev[i]))
                by_q = max(by_q, fabs(self.q[i] - self.q_prev[i]))
        if by_increment < by_q and by_increment < self.hb * by_a:
            for i in range(self.n):
                self.a1[i] = (2.0 * self.q[i] - self.q_prev[i] - self.q_pred[i]) / self.hb
            return
        if self.hb * by_a <= by_q:
            memcpy(&self.a1[0], &self.a[0], self.n * sizeof(double))
            self.at_last = self.static
            return
        self.at_last = True
        for i in range(self.n):
            self.a1[i] = (self.q[i] - self.q_pred[i]) / self.hb

    cdef int step(self) except -1:
        """One step from t to t + dt, in sub-steps where Newton fails on it (module docstring,
        step cuts); returns the most nonlinear iterations of a sub-step (raises StepFailure, or
        the ArithmeticError of a state the problem refused, where the step fails at the
        smallest sub-step, the state left at the step's start)."""
        cdef int it, most, accepted
        cdef long size
        self.t_grid = self.t
        if self.max_cuts:
            self._save()
        while True:
            size = (<long>1) << (self.max_cuts - self.level)
            self.pos_end, most, accepted = 0, 0, 0
            try:
                while self.pos_end < self.total:
                    self.pos_end += size
                    it = self._substep()
                    accepted += 1
                    if self.monitoring:
                        self._account()
                    most = max(most, it)
            except (StepFailure, ArithmeticError) as exc:
                if self.max_cuts and accepted:
                    self._restore()     # sub-steps of it were accepted
                if not self._cut(exc):
                    raise
                continue
            break
        self.steps += 1
        self.successes += 1
        if self.tried and self.successes >= GROW_AFTER:
            # the coarser level held as long as the finer one was kept before the try; a
            # failure sooner is the try's (_cut doubles the span)
            self.tried, self.span = False, GROW_AFTER
        if self.level and self.successes >= self.span:
            self._resize(self.level - 1)
            self.tried = True
        return most

    cdef bint _cut(self, exc) except -1:
        """After the step failed with ``exc``: halve its sub-steps and return True, or return
        False (the run fails), recording in ``cut_note`` the cuts tried, where they are already
        ``dt / 2**max_cuts`` or the failure is one no smaller step helps (a Newton matrix
        singular at the predicted state itself, as statics does not cut either), or where a
        solver written in Python made the step: its failure may be a check of the motion, not
        of its iteration (the reduced model's drift watch,
        :class:`~rancf.formulations.reduced.drift.StepWatch`, stops the run at the first step
        past its limit, which a smaller step would only find earlier)."""
        if (self.level >= self.max_cuts or self.strategy is not None
                or getattr(exc, "reason", None) == "singular"):
            if self.level:
                self.cut_note = (f"; the step was cut down to {self.h:.6g} s (dt / "
                                 f"{1 << self.level}) where the step failed, {self.cuts} times "
                                 f"since the start, and failed there too")
            return False
        if self.tried:
            # the try at this coarser level failed: try it after twice as many steps
            self.span *= 2
            self.tried = False
        if not self.cuts:
            self.first_cut = self.t
        self.cuts += 1
        self._resize(self.level + 1)
        return True

    cdef void _resize(self, int level) noexcept:
        """Sub-steps of ``dt / 2**level`` from here: a new Newton matrix (its coefficients
        ``h^2 beta``, ``h gamma`` change), and the history taken as after a start (the start
        rules and the third difference of the velocities assume a uniform step)."""
        self.level, self.successes = level, 0
        self.h = ldexp(self.dt, -level)
        self.smallest = min(self.smallest, self.h)
        self.factored = False
        self.history = 0

    cdef void _save(self) noexcept:
        """The state at the step's start (q, v, the scheme's and the true accelerations, the
        multipliers) and run()'s integrals there, for :meth:`_restore`."""
        cdef int n = self.n
        memcpy(&self.s_q[0], &self.q[0], n * sizeof(double))
        memcpy(&self.s_v[0], &self.v[0], n * sizeof(double))
        memcpy(&self.s_a[0], &self.a[0], n * sizeof(double))
        if self.pseudo:
            memcpy(&self.s_at[0], &self.at[0], n * sizeof(double))
        memcpy(&self.s_lam[0], &self.lam[0], max(self.m, 1) * sizeof(double))
        memcpy(self.s_sums, self.p_old, 2 * sizeof(double))
        memcpy(self.s_sums + 2, self.energy, 2 * sizeof(double))
        memcpy(self.s_sums + 4, self.through, 2 * sizeof(double))
        memcpy(self.s_sums + 6, self.worst, 3 * sizeof(double))
        self.s_sums[9] = self.t_node

    cdef int _restore(self) except -1:
        """Back to the step's start (:meth:`_save`), accepted again by the problem (its angle
        branches follow the accepted state) after sub-steps of it were."""
        cdef int n = self.n
        memcpy(&self.q[0], &self.s_q[0], n * sizeof(double))
        memcpy(&self.v[0], &self.s_v[0], n * sizeof(double))
        memcpy(&self.a[0], &self.s_a[0], n * sizeof(double))
        if self.pseudo:
            memcpy(&self.at[0], &self.s_at[0], n * sizeof(double))
        memcpy(&self.lam[0], &self.s_lam[0], max(self.m, 1) * sizeof(double))
        memcpy(self.p_old, self.s_sums, 2 * sizeof(double))
        memcpy(self.energy, self.s_sums + 2, 2 * sizeof(double))
        memcpy(self.through, self.s_sums + 4, 2 * sizeof(double))
        memcpy(self.worst, self.s_sums + 6, 3 * sizeof(double))
        self.t_node = self.s_sums[9]
        self.t = self.t_grid
        self.p.accept(&self.q[0], &self.v[0], self.t)
        return 0

    cdef int _substep(self) except -1:
        """One step from t to t + h; returns the nonlinear iterations (raises StepFailure)."""
        cdef int it, i, n = self.n, m = self.m
        cdef bint fresh, whole, rechart
        cdef long made, spent
        self._prepare()
        self._old_residual()
        memcpy(&self.lam1[0], &self.lam[0], max(m, 1) * sizeof(double))
        if self.strategy is not None:
            memcpy(&self.a1[0], &self.a[0], n * sizeof(double))
            a1, lam1, it = self.strategy.solve(self.equations, np.asarray(self.a1)[:n].copy(),
                                               np.asarray(self.lam1)[:m].copy())
            np.asarray(self.a1)[:n] = a1
            np.asarray(self.lam1)[:m] = lam1
        else:
            whole = not self.reuse or self.full_left > 0     # a new matrix at every iteration
            if not whole and ((self.last_iterations - self.fresh_iterations) * HORIZON
                              > self.p.factor_cost
                              or (self.age == 1 and self.staleness > self.p.factor_cost)):
                self.factored = False       # the kept matrix has grown stale: a new one now
            fresh = not self.factored
            made, spent = self.nlu, self.newton_iterations
            self._start()
            it = self._newton(whole)
            if it > 0 and self.nlu > made:
                self.age = 1
                if fresh and not whole:
                    self.fresh_iterations = it
            elif it > 0:
                if self.age == 1:
                    self.staleness = it - self.fresh_iterations
                self.age += 1
            if it < 0 and self.reuse and not whole:
                # retry once from the same start with full Newton
                self._start()
                memcpy(&self.lam1[0], &self.lam[0], max(m, 1) * sizeof(double))
                it = self._newton(True)
                if it > 0:
                    self.full_iterations = it
            if it < 0:
                raise StepFailure("failed", self._newton_failure())
            if self.reuse:
                self._price(whole, it, self.newton_iterations - spent, self.nlu - made)
        self._point(&self.a1[0])
        self.p.project(&self.q1[0], &self.v1[0], &self.at1[0], &self.lam1[0], self.t1)
        if not (_maxabs(&self.q1[0], n) < 1e8 and _maxabs(&self.v1[0], n) < 1e8):
            raise StepFailure("diverged", f"state exceeded 1e+08{self._where()}")
        rechart = self.p.recentre(&self.q1[0], &self.v1[0], &self.at1[0])
        if rechart and self.pseudo:
            # another chart of the rotations: the pseudo-accelerations, a state of the scheme
            # in the old one, restart at the true accelerations (as a run from a state does)
            memcpy(&self.a1[0], &self.at1[0], n * sizeof(double))
        self.p.accept(&self.q1[0], &self.v1[0], self.t1)
        # the history moves on by turning the buffers, not copying them (six passes over the
        # state a step, each a trip to memory on a long chain): q_prev2 <- q_prev <- q <- q1,
        # a_prev3 <- a_prev2 <- a_prev <- a <- a1, v <- v1; q1, v1 and a1 are rewritten before
        # they are next read (_point, _start)
        self.q_prev2, self.q_prev, self.q, self.q1 = self.q_prev, self.q, self.q1, self.q_prev2
        (self.a_prev3, self.a_prev2, self.a_prev, self.a,
         self.a1) = self.a_prev2, self.a_prev, self.a, self.a1, self.a_prev3
        self.v, self.v1 = self.v1, self.v
        if self.pseudo:
            self.at, self.at1 = self.at1, self.at
        else:
            self._alias()
        # the steps before a new chart are in the old one: no differences across it (the
        # predictor's and the velocity floor's), the next step starts as a run's first does
        self.history = 0 if rechart else min(self.history + 1, 3)
        if self.static:
            # a1 was the displacement; at an equilibrium the acceleration is zero
            memset(&self.a[0], 0, n * sizeof(double))
        memcpy(&self.lam[0], &self.lam1[0], max(m, 1) * sizeof(double))
        self.t = self.t1
        self.last_iterations = it
        return it

    cdef void _price(self, bint whole, int it, long spent, long made) noexcept:
        """Whether the next steps make a new Newton matrix at every iteration (module
        docstring), after a step that took ``spent`` iterations and ``made`` factorizations with
        the kept matrix (``whole`` false; a retry with full Newton included), or ``it``
        iterations with full Newton (``whole``). Full Newton for the next ``full_span`` steps
        where the kept steps since the last full Newton cost more on average than a full-Newton
        step, in iterations: ``kept_cost > (1 + factor_cost) full_iterations kept_steps``,
        ``kept_cost`` the sum of ``spent + factor_cost made``. The span doubles each time and
        is one again once the kept matrix has lasted as many steps as it."""
        cdef double c = self.p.factor_cost
        if whole:
            self.full_iterations = it
            if self.full_left > 0:
                self.full_left -= 1
            return
        self.kept_steps += 1
        self.kept_cost += spent + c * made
        if self.kept_cost > (1.0 + c) * self.full_iterations * self.kept_steps:
            self.full_left = self.full_span
            self.full_span *= 2
            self.kept_steps, self.kept_cost = 0, 0.0
        elif self.kept_steps >= self.full_span:
            self.full_span = 1

    # --- start and run ------------------------------------------------------------------------
    def start(self, double t0, q0, v0):
        """Set the state at t0 and its consistent acceleration and multipliers:
        ``[M Phi_q^T; Phi_q 0] [a; lam] = [F; -xi]``."""
        cdef int n = self.n, m = self.m
        self._origin(t0)
        np.asarray(self.q)[:n] = q0
        np.asarray(self.v)[:n] = v0
        self.p.accept(&self.q[0], &self.v[0], t0)
        self.p.force(&self.q[0], &self.v[0], t0, &self.x[0])
        self.nfev += 1
        if m:
            self.p.acceleration_bias(&self.q[0], &self.v[0], t0, &self.x[n])
            np.asarray(self.x)[n:n + m] *= -1.0
        np.asarray(self.lam1)[:] = 0.0
        np.asarray(self.a1)[:] = 0.0
        self.p.factor(&self.q[0], &self.a1[0], &self.lam1[0], &self.v[0], t0, &self.q[0], t0,
                      1.0, 0.0, 0.0, 0.0, 1.0)
        self.njev += 1
        self.nlu += 1
        self.p.solve(&self.x[0])
        np.asarray(self.a)[:n] = np.asarray(self.x)[:n]
        # Arnold and Bruls' pseudo-accelerations start at the true ones (a restart too)
        np.asarray(self.at)[:n] = np.asarray(self.x)[:n]
        np.asarray(self.lam)[:m] = np.asarray(self.x)[n:n + m]
        self.factored = False       # the mass matrix is not the step's Newton matrix
        self.history = 0

    def start_at_rest(self, double t0, q0, lam0):
        """Set the state at t0 to q0 at rest: zero velocities and accelerations, multipliers
        lam0 (m,) (the start of statics, where Newton finds the multipliers with the
        coordinates)."""
        self._origin(t0)
        np.asarray(self.q)[:self.n] = q0
        np.asarray(self.v)[:] = 0.0
        np.asarray(self.a)[:] = 0.0
        np.asarray(self.at)[:] = 0.0
        np.asarray(self.lam)[:self.m] = lam0
        self.p.accept(&self.q[0], &self.v[0], t0)
        self.factored = False
        self.history = 0

    cdef void _origin(self, double t0):
        """The state is at t0: the steps from here are at ``t0 + k h`` (:meth:`_prepare`)."""
        self.t = self.t_origin = t0
        self.k_origin, self.k_final = self.steps, -1
        self._resize(0)
        self.span, self.tried = GROW_AFTER, False

    def advance(self):
        """One step (a load step in statics) from Python; returns Newton's iterations, or
        raises :class:`~rancf.formulations.problem.StepFailure` leaving the state at the last
        accepted step."""
        return self.step()

    def state(self):
        """(t, q, v, a, lam) copies of the current state, a the true accelerations."""
        n = self.n
        return (self.t, np.asarray(self.q)[:n].copy(), np.asarray(self.v)[:n].copy(),
                np.asarray(self.at)[:n].copy(), np.asarray(self.lam)[:self.m].copy())

    def pseudo_acceleration(self):
        """A copy of the scheme's acceleration state (n,): Arnold and Bruls' pseudo-acceleration
        ``a'_n`` in their schemes (the unknown of :class:`StepEquations`), the accelerations of
        :meth:`state` in the others."""
        return np.asarray(self.a)[:self.n].copy()

    def run(self, long n_steps, long output_every, progress=None, t_end=None):
        """Take n_steps steps, keeping the state at the start, at every output step and at
        the last; ``progress(t, steps)`` is called every 0.1 s of wall time
        (rancf.integrators._interrupt). Returns ``(status, message)`` (an "ok" run's message
        says how its steps were cut, :meth:`cut_summary`; "" where none was); :meth:`outputs`
        gives the kept states, also after a failure or Ctrl-C. The steps are of dt, each in
        sub-steps where it was cut; the integrals and monitors are taken over the sub-steps.
        An output costs a copy of the state
        and, where the problem has a ``keep_inputs(k, t, q, v)`` (the DAEs, whose model has
        input functions), a copy of the values its input functions gave there: the problem
        maps the states to its outputs once, afterwards
        (:meth:`~rancf.formulations._problem.StepProblem.observe_frames`). ``t_end``: the time
        of the last step, exactly (``t0 + n_steps h`` can miss it by a rounding)."""
        cdef long k
        if t_end is not None:
            self.k_final, self.t_final = self.steps + n_steps, t_end
        cdef long n_out = 2 + n_steps // output_every
        self.out_t = np.empty(n_out)
        self.out_q, self.out_v, self.out_a = (np.empty((n_out, self.n)) for _ in range(3))
        self.out_lam = np.empty((n_out, self.m))
        self.out_viol = np.empty((n_out, 3))
        self.out_energy = np.empty((n_out, 2))
        self.out_branch = np.empty((n_out, self.p.n_branch))
        self.out_iterations = np.empty(n_out, dtype=np.int_)
        self.n_kept = 0
        self.keep_inputs = getattr(self.p, "keep_inputs", None)
        cdef int it, i, worst_it = 0
        cdef Watch watch
        self.energy[0] = self.energy[1] = self.through[0] = self.through[1] = 0.0
        self.worst[0] = self.worst[1] = self.worst[2] = 0.0
        self.tracked = self.p.power(&self.q[0], &self.v[0], &self.at[0], self.t, &self.lam[0],
                                    self.p_old) == 0
        self.t_node = self.t
        self._record(0, self.energy)
        start_watch(&watch, progress)
        self.monitoring = True
        try:
            for k in range(1, n_steps + 1):
                try:
                    it = self.step()
                    worst_it = max(worst_it, it)
                    if k % output_every == 0 or k == n_steps:
                        for i in range(3):
                            self.viol[i] = self.worst[i]
                        self._record(worst_it, self.energy)
                        self.worst[0] = self.worst[1] = self.worst[2] = 0.0
                        worst_it = 0
                except StepFailure as exc:
                    return exc.status, exc.message + self.cut_note
                except (ArithmeticError, ValueError, RuntimeError) as exc:
                    # an input function of the problem raised, or the problem refused the
                    # state Newton reached at the smallest sub-step: stop, keep the steps so far
                    self.error = exc
                    return "failed", f"at t = {self.t1:.6g} s: {exc}{self.cut_note}"
                except KeyboardInterrupt:
                    # t may be a sub-step of a cut step: the run got as far as the last whole
                    # step, the time an uncut step's interruption names too
                    return "interrupted", f"interrupted (Ctrl-C) at t = {self.t_grid:.6g} s"
                if interrupted(&watch, self.t):
                    return "interrupted", f"interrupted (Ctrl-C) at t = {self.t:.6g} s"
        finally:
            self.monitoring = False
        return "ok", self.cut_summary()

    def cut_summary(self):
        """What the cuts of the steps were, for an "ok" run's message ("" where none was
        cut)."""
        if not self.cuts:
            return ""
        return (f"steps cut {self.cuts} times where they failed (the first at t = "
                f"{self.first_cut:.6g} s), the smallest sub-step {self.smallest:.6g} s (dt / "
                f"{round(self.dt / self.smallest)})")

    cdef int _account(self) except -1:
        """The work integrals and the constraint monitors over the sub-step just accepted (from
        the state before it, whose power is p_old, to t): trapezoids of the power, the worst
        violations since the last output."""
        cdef int i
        cdef double slope
        cdef double p_new[2]
        if self.tracked and self.intermediate:
            # generalized-alpha-S: the equation of motion, and so its multipliers and
            # acceleration, hold at the intermediate point t_e, not at the step's end;
            # the power is taken there and integrated through those points
            # (trapezoids, then linearly on to t), second order
            self._point(&self.a[0])
            self.p.power(&self.q_e[0], &self.v_e[0], &self.a_e[0], self.t_e,
                         &self.lam[0], p_new)
            for i in range(2):
                slope = (p_new[i] - self.p_old[i]) / (self.t_e - self.t_node)
                self.through[i] += 0.5 * (self.t_e - self.t_node) * (self.p_old[i] + p_new[i])
                self.energy[i] = self.through[i] + (self.t - self.t_e) * (
                    p_new[i] + 0.5 * slope * (self.t - self.t_e))
                self.p_old[i] = p_new[i]
            self.t_node = self.t_e
        elif self.tracked:
            self.p.power(&self.q[0], &self.v[0], &self.at[0], self.t, &self.lam[0], p_new)
            for i in range(2):
                self.energy[i] += 0.5 * self.h * (self.p_old[i] + p_new[i])
                self.p_old[i] = p_new[i]
        if self.m:
            self.p.violations(&self.q[0], &self.v[0], &self.at[0], self.t, &self.viol[0])
            for i in range(3):
                self.worst[i] = max(self.worst[i], self.viol[i])
        return 0

    cdef int _record(self, int iterations, double* energy) except -1:
        """The current state into the next row of the outputs (the row counted last, so that
        an interruption never leaves a half-written row)."""
        cdef long k = self.n_kept
        if self.steps == 0 and self.m:
            self.p.violations(&self.q[0], &self.v[0], &self.at[0], self.t, &self.viol[0])
        self.out_t[k] = self.t
        if self.n:
            memcpy(&self.out_q[k, 0], &self.q[0], self.n * sizeof(double))
            memcpy(&self.out_v[k, 0], &self.v[0], self.n * sizeof(double))
            memcpy(&self.out_a[k, 0], &self.at[0], self.n * sizeof(double))
        if self.m:
            memcpy(&self.out_lam[k, 0], &self.lam[0], self.m * sizeof(double))
        memcpy(&self.out_viol[k, 0], &self.viol[0], 3 * sizeof(double))
        self.out_energy[k, 0], self.out_energy[k, 1] = energy[0], energy[1]
        if self.p.n_branch:
            self.p.keep_branch(&self.out_branch[k, 0])
        if self.keep_inputs is not None:
            # the values of the model's input functions at the output, those the loop's last
            # evaluation at this state computed (rancf.formulations.inputs.Recorded)
            self.keep_inputs(k, self.t, self.q, self.v)
        self.out_iterations[k] = iterations
        self.n_kept = k + 1
        return 0

    def outputs(self):
        """The states :meth:`run` kept: a dict of arrays with a first axis of outputs,
        ``t``, ``q``, ``v``, ``a`` (n_out, n), ``lam`` (n_out, m), ``violations`` (n_out, 3),
        ``iterations`` (the most Newton iterations of a step since the previous output),
        ``energy`` (n_out, 2: work, dissipated) and ``branches`` (n_out, n_branch)."""
        k = self.n_kept
        return {"t": np.asarray(self.out_t)[:k], "q": np.asarray(self.out_q)[:k],
                "v": np.asarray(self.out_v)[:k], "a": np.asarray(self.out_a)[:k],
                "lam": np.asarray(self.out_lam)[:k], "violations": np.asarray(self.out_viol)[:k],
                "iterations": np.asarray(self.out_iterations)[:k],
                "energy": np.asarray(self.out_energy)[:k],
                "branches": np.asarray(self.out_branch)[:k]}

    def stats(self):
        """The work counters, the steps of dt taken, and the cuts: ``step_cuts`` the halvings
        of a (sub-)step that failed (Newton, or a state the problem refused), ``smallest_step``
        the smallest sub-step taken (s; dt where none was cut)."""
        return {"nfev": self.nfev, "njev": self.njev, "nlu": self.nlu,
                "newton_iterations": self.newton_iterations, "steps": self.steps,
                "step_cuts": self.cuts, "smallest_step": self.smallest}


cdef class StepEquations:
    """The nonlinear equations of one step, for a nonlinear solver written in Python.

    Not constructed directly: the loop of :func:`rancf.implicit.integrate` passes it to the
    ``solve(equations, a, lam) -> (a, lam, iterations)`` method of the ``solver=`` object at
    every step. Unknowns ``(a_{n+1}, lambda)`` (in HHT and generalized-alpha ``a`` is Arnold
    and Bruls' pseudo-acceleration, rancf.integrators.implicit); ``q_{n+1} = q_pred + hb a``,
    ``v_{n+1} = v_pred + hg a``. :meth:`residual` and :meth:`matrix` are the loop's own, with
    its work counters.

    Examples
    --------
    Plain Newton written as a solver (the loop's own Newton does the same, compiled):

    >>> class PlainNewton:
    ...     def solve(self, eq, a, lam):
    ...         for k in range(1, 26):
    ...             r_dyn, r_con = eq.residual(a, lam)
    ...             da, dlam = eq.matrix(a, lam).solve(-r_dyn, -r_con)
    ...             a, lam = a + da, lam + dlam
    ...             eq.count_iteration()
    ...             if np.abs(eq.hb * da).max() <= 1e-12:      # the position increment, m
    ...                 return a, lam, k
    ...         raise rancf.implicit.StepFailure("failed", f"no convergence at t = {eq.t1} s")
    >>> m = rancf.pendulum(n_bodies=1, elements_per_body=2, body_length=1.0)
    >>> res = rancf.simulate(m, 0.05, 1e-3, method="newmark", formulation="dae")
    >>> from rancf.formulations.dae import DAE
    >>> dae = DAE(m.build(), "sparse")
    >>> q0, v0 = dae.initial_state()
    >>> sol = rancf.implicit.integrate(dae.compiled, q0, v0, 0.05, 1e-3, method="newmark",
    ...                                solver=PlainNewton())
    >>> bool(np.allclose(sol.q[-1], res.nodes[-1].ravel(), rtol=0, atol=1e-9))
    True
    """

    cdef Stepper s

    def __init__(self, Stepper stepper):
        self.s = stepper

    @property
    def t1(self):
        """Time of the new step (s).

        Returns
        -------
        float

        Notes
        -----
        The class example shows it in use.
        """
        return self.s.t1

    @property
    def hb(self):
        """``h^2 beta``: the weight of the new acceleration in the new coordinates.

        Returns
        -------
        float

        Notes
        -----
        The class example shows it in use.
        """
        return self.s.hb

    @property
    def hg(self):
        """``h gamma``: the weight of the new acceleration in the new velocities.

        Returns
        -------
        float

        Notes
        -----
        The class example shows it in use.
        """
        return self.s.hg

    @property
    def q_pred(self):
        """The coordinates' predictor: ``q_{n+1} = q_pred + hb a_{n+1}``.

        Returns
        -------
        ndarray (n,)
            A copy.

        Notes
        -----
        The class example shows it in use.
        """
        return np.asarray(self.s.q_pred).copy()

    @property
    def v_pred(self):
        """The velocities' predictor: ``v_{n+1} = v_pred + hg a_{n+1}``.

        Returns
        -------
        ndarray (n,)
            A copy.

        Notes
        -----
        The class example shows it in use.
        """
        return np.asarray(self.s.v_pred).copy()

    @property
    def problem(self):
        """The compiled problem of the loop.

        Returns
        -------
        rancf.formulations._problem.StepProblem

        Notes
        -----
        The class example shows it in use.
        """
        return self.s.p

    def residual(self, a, lam):
        """The step's residual at a trial acceleration and multipliers.

        Parameters
        ----------
        a : array_like (n,)
            Trial new accelerations.
        lam : array_like (m,)
            Trial multipliers.

        Returns
        -------
        r_dyn : ndarray (n,)
            The equation of motion's residual (the scheme's weighted equilibrium).
        r_con : ndarray (m,)
            ``Phi(q_{n+1}) / (h^2 beta)``.

        Notes
        -----
        The class example shows it in use.
        """
        cdef Stepper s = self.s
        cdef double[::1] aa = checked("a", a, s.n, finite=False)
        cdef double[::1] ll = np.zeros(max(s.m, 1))
        cdef double[::1] r = np.empty(s.n + s.m)
        np.asarray(ll)[:s.m] = checked("lam", lam, s.m, finite=False)
        s.residual(&aa[0], &ll[0], &r[0])
        out = np.asarray(r)
        return out[:s.n].copy(), out[s.n:].copy()

    def count_iteration(self):
        """Count one nonlinear iteration of the solver in the loop's statistics.

        Notes
        -----
        The class example shows it in use.
        """
        self.s.newton_iterations += 1

    def matrix(self, a, lam, factor=True):
        """Newton's matrix of the step at a trial acceleration and multipliers.

        Parameters
        ----------
        a : array_like (n,)
            Trial new accelerations.
        lam : array_like (m,)
            Trial multipliers.
        factor : bool
            Factor it (default) or return the assembled matrix.

        Returns
        -------
        object or ndarray or scipy.sparse matrix
            A factorization with ``solve(r_dyn, r_con) -> (da, dlam)``; with
            ``factor=False`` the matrix (n + m, n + m).

        Notes
        -----
        The class example shows it in use.
        """
        cdef Stepper s = self.s
        cdef double[::1] aa = checked("a", a, s.n, finite=False)
        cdef double[::1] ll = np.zeros(max(s.m, 1))
        np.asarray(ll)[:s.m] = checked("lam", lam, s.m, finite=False)
        if factor:
            s.factor(&aa[0], &ll[0])
            return _Factor(s)
        s._point(&aa[0])
        af = s.af
        qe = np.asarray(s.q_e if s.intermediate else s.q1).copy()
        ve = np.asarray(s.v_e if s.intermediate else s.v1).copy()
        ae = np.asarray(s.a_e if s.intermediate else s.at1 if s.pseudo else aa).copy()
        q1 = qe if not s.intermediate else np.asarray(s.q1).copy()
        s.njev += 1
        return s.p.matrix(qe, ae, np.asarray(ll)[:s.m].copy(), ve, s.t_e, q1, s.t1, s.am,
                          s.c_mq, af * s.hb, af * s.hg, s.w)


cdef class _Factor:
    """The loop's last factorization, seen from Python."""

    cdef Stepper s

    def __init__(self, Stepper stepper):
        self.s = stepper

    def solve(self, r_dyn, r_con):
        cdef Stepper s = self.s
        cdef double[::1] x = np.concatenate([checked("r_dyn", r_dyn, s.n, finite=False),
                                             checked("r_con", r_con, s.m, finite=False)])
        s.p.solve(&x[0])
        out = np.asarray(x)
        return out[:s.n].copy(), out[s.n:].copy()
