"""Implicit integrators for index-3 DAEs of multibody dynamics (generalized-alpha family).

The problem (Ding & Pan 2013, eq. 1; theory: The DAE formulation) is::

    M(q) q'' + Phi_q(q, t)^T lambda = F(q, q', t),        Phi(q, t) = 0            (m constraints)

where the constraints may depend on time (drives), so that the velocity and acceleration
constraints are ``Phi' = Phi_q q' + Phi_t = 0`` and ``Phi'' = Phi_q q'' + xi(q, q', t) = 0``
with ``xi = (Phi_q q')_q q' + 2 Phi_qt q' + Phi_tt``.

Every scheme of the family updates positions and velocities with Newmark's formulas
(paper eq. 3 and 5) in the scheme's accelerations ``a'``::

    q_{n+1} = q_n + h v_n + h^2 (1/2 - beta) a'_n + h^2 beta a'_{n+1}
    v_{n+1} = v_n + h (1 - gamma) a'_n + h gamma a'_{n+1}

and differs in where the equilibrium is enforced. In the paper's convention (weights on the
*new* step, so ``alpha = 1`` is Newmark):

* Newmark and backward Euler (``am = af = 1``): ``a' = a``, the equation of motion at the new
  step, ``M_{n+1} a_{n+1} + (Phi_q^T lambda - F)_{n+1} = 0``.

* HHT and generalized-alpha (``intermediate = False``), in Arnold and Bruls' form (Multibody
  Syst Dyn 18 (2007) 185-202; their alpha_m, alpha_f are 1 - ours): the equation
  of motion at the new step alone, with the true acceleration ``a_{n+1}``::

      M(q_{n+1}) a_{n+1} + Phi_q(q_{n+1})^T lambda_{n+1} - F(q_{n+1}, v_{n+1}, t_{n+1}) = 0

  and the weights carried by the pseudo-accelerations ``a'``, a state of the scheme::

      am a'_{n+1} + (1 - am) a'_n = af a_{n+1} + (1 - af) a_n

  A run's start sets ``a'_0 = a_0``, the consistent acceleration (so does a run started from a
  Result or a state: a restart), and so does a step after which a spatial rotation vector is
  re-centred (the old chart's a' means nothing in the new one). On a linear problem with
  constant coefficients this is Chung and Hulbert's scheme (paper eq. 9, 12: ``(1 - am) M_n
  a_n + am M_{n+1} a_{n+1} + (1 - af) (Phi_q^T lambda - F)_n + af (...)_{n+1} = 0``) with
  ``a'`` as its acceleration, the same positions; with a configuration-dependent M that form
  is first order (the rod-slider, a spatial tree), and on a spatial tree in relative
  coordinates the two configurations' projections of the link wrenches leave the links'
  twist rows a difference that grows step by step (tests/test_spatial_out_of_plane.py);
  Arnold and Bruls' form is second order in q and v there (measured on the rod-slider
  against its minimal coordinates: 2.00 for both, and on a spatial double pendulum) and runs
  the out-of-plane chain. The Solution's ``a`` is the true acceleration.

* generalized-alpha-S (``intermediate = True``, paper eq. 14): ``a' = a``; the equation of
  motion is evaluated once, at the intermediate state ``q_f = (1 - af) q_n + af q_{n+1}``
  (same for v and t), with acceleration ``a_m = (1 - am) a_n + am a_{n+1}`` and the unknown
  multiplier taken as ``lambda`` at that point::

      M(q_f) a_m + Phi_q(q_f)^T lambda - F(q_f, v_f, t_f) = 0

and ``Phi(q_{n+1}, t_{n+1}) = 0`` in all. The unknowns ``a'_{n+1}`` and ``lambda`` are found by
Newton iterations on the full system (Arnold and Bruls' residual scaled by af, so that its
derivative in a' is ``am M``); the constraint row is divided by ``h^2 beta`` so the Newton
matrix stays O(1) as h -> 0::

    [ am M + af h^2 beta (d(M a)/dq + K + d(Phi_q^T lambda)/dq) + af h gamma C   w Phi_q^T ] [da']   [-r ]
    [ Phi_q(q_{n+1})                                                             0        ] [dl ] = [-Phi / (h^2 beta)]

(``K = -dF/dq``, ``C = -dF/dv``, ``d(M a)/dq`` at the true acceleration; ``w = af`` at the new
step, ``w = 1`` at the intermediate point).

With ``projection=True`` each converged step is followed by the projections of paper
eq. 15-17: q onto ``Phi = 0`` (Gauss-Newton iterations ``q <- q - Phi_q^T (Phi_q Phi_q^T)^-1 Phi``,
i.e. eq. 15 with Phi_q frozen at the current iterate), then v onto ``Phi_q v + Phi_t = 0`` and a
onto ``Phi_q a + xi = 0`` (both linear, exact). The projected q, v, a start the next step.
The paper's projections are orthogonal in the Euclidean metric of the coordinates
(``projection=True`` or ``"euclidean"``); that metric does not respect kinetic energy, and the
velocity projection can feed energy in every step (it does on the rod-slider with the rod's
centre as coordinates: 0.33 J/s, until the run diverges). ``projection="mass"`` projects v and
a orthogonally in the kinetic-energy metric instead,
``[M Phi_q^T; Phi_q 0] [v; nu] = [M v~; -Phi_t]`` and ``[M Phi_q^T; Phi_q 0] [a; w] = [M a~; -xi]``,
which never increases ``v^T M v`` and works with a singular M (only the saddle-point matrix must
be regular); q is projected as before.

Coefficients (paper section 1; the OCR of the HHT formulas is damaged, theory: The
generalized-alpha family gives them):

=====================  =====================  ====================  ================  =======================
scheme                 am                     af                    gamma             beta
=====================  =====================  ====================  ================  =======================
Newmark                1                      1                     1/2               1/4
HHT-I3 (alpha)         1                      alpha in [2/3, 1]     3/2 - alpha       (2 - alpha)^2 / 4
generalized-alpha(rho) (2 - rho)/(rho + 1)    1/(rho + 1)           1/2 + am - af     (1 + am - af)^2 / 4
=====================  =====================  ====================  ================  =======================

(generalized-alpha-S uses the generalized-alpha coefficients.) All are second-order accurate
in q and v, also with a configuration-dependent mass and on the index-3 DAE (measured:
tests/test_arnold_bruls.py, tests/validation/test_rod_slider_integrators.py).
``"backward-euler"`` (:class:`BackwardEuler`, BDF-1 as in the adaptive-modal paper, eq. 34) is
first order and shares the Newton loop with am = af = gamma = beta = 1 and its own predictor.

The stepping loop is written once, compiled (``rancf/integrators/_implicit.pyx``), and runs
every formulation through the C-level contract of :mod:`rancf.formulations._problem`; a problem
written in Python (an :class:`IndexThreeDAE`) runs through it with callbacks. Newton's matrix is
kept while the iteration contracts (``jacobian="reuse"``, modified Newton, the default) or
refactored at every iteration (``jacobian="every-iteration"``; see the loop's docstring). A problem that
defines :meth:`IndexThreeDAE.power` has the work of its external forces and drives and its
dissipated energy integrated by the loop at every step (trapezoidal rule).
"""
from __future__ import annotations

import inspect
import time

import numpy as np

from ..utilities import checks
from ..formulations._problem import PythonProblem, StepProblem
from ..formulations.problem import IndexThreeDAE, projection_kind
from .progress import RunProgress
from ._implicit import StepEquations, StepFailure, Stepper
from .held_interrupt import after_steps, held_interrupt
from .solution import Solution, split

__all__ = [
    "IndexThreeDAE",
    "Scheme",
    "Newmark",
    "HHT",
    "GeneralizedAlpha",
    "GeneralizedAlphaS",
    "BackwardEuler",
    "Static",
    "METHODS",
    "JACOBIANS",
    "Solution",
    "StepEquations",
    "StepFailure",
    "integrate",
]

#: Newton's matrix at every iteration, or kept while the iteration contracts (modified Newton).
JACOBIANS = ("every-iteration", "reuse")


class Scheme:
    """Coefficients of a scheme of the generalized-alpha family (module docstring).

    A subclass sets the class attributes ``alpha_m, alpha_f, gamma, beta`` (paper convention)
    and ``intermediate`` (True for the -S variant), or computes them from its parameter in
    :meth:`_set_parameters`; ``bdf1`` selects backward Euler's predictor. :func:`integrate`
    makes the scheme from its ``method`` and parameters (``METHODS[method](**parameters)``).

    Parameters
    ----------
    **parameters
        The scheme's parameters (none for this base class).

    Raises
    ------
    TypeError
        A parameter the scheme does not take.

    Examples
    --------
    >>> s = rancf.implicit.GeneralizedAlpha(rho_inf=0.9)
    >>> round(s.gamma, 6), round(s.beta, 6)
    (0.552632, 0.277008)
    """

    name = "base"
    alpha_m = 1.0
    alpha_f = 1.0
    gamma = 0.5
    beta = 0.25
    intermediate = False
    bdf1 = False
    static = False

    def __init__(self, **parameters):
        own = [name for name in inspect.signature(self._set_parameters).parameters
               if name != "parameters"]
        unknown = [name for name in parameters if name not in own]
        if unknown:
            takes = ", ".join(own) if own else "no parameters of its own"
            raise TypeError(
                f"unknown option {unknown[0]} = {parameters[unknown[0]]!r} for method "
                f"{self.name!r}, which takes {takes}; every implicit method takes tol, "
                f"max_iter, jacobian and max_cuts, and formulation 'dae' projection and "
                f"linear_solver")
        self._set_parameters(**parameters)

    def _set_parameters(self):
        """Set the scheme's coefficients from its options (a subclass's keywords)."""

class Newmark(Scheme):
    """Newmark's average-acceleration scheme (gamma = 1/2, beta = 1/4), paper eq. 3-6.

    Parameters
    ----------
    **parameters
        None: the scheme takes no parameter.

    Examples
    --------
    >>> s = rancf.implicit.Newmark()
    >>> s.gamma, s.beta, s.alpha_m, s.alpha_f
    (0.5, 0.25, 1.0, 1.0)
    """

    name = "newmark"


class HHT(Scheme):
    """HHT-I3 in the paper's convention (eq. 9): ``alpha`` in [2/3, 1], 1 is Newmark; run in
    Arnold and Bruls' form (the module docstring: the equation at the new step, the weight on
    the pseudo-accelerations).

    alpha_m = 1, alpha_f = alpha, gamma = 3/2 - alpha, beta = (2 - alpha)^2 / 4
    (the classical HHT parameter is alpha - 1 in [-1/3, 0]).

    Parameters
    ----------
    **parameters
        ``alpha`` (default 0.9).

    Raises
    ------
    ValueError
        ``alpha`` outside [2/3, 1].

    Examples
    --------
    >>> s = rancf.implicit.HHT(alpha=0.9)
    >>> s.alpha_f, round(s.gamma, 6), round(s.beta, 6)
    (0.9, 0.6, 0.3025)
    """

    name = "hht"

    def _set_parameters(self, alpha=0.9):
        # 2/3 - 1e-12: the user's 2/3 rounded to a float is accepted
        alpha = checks.real("alpha", alpha, 2.0 / 3.0 - 1e-12, 1.0)
        self.alpha_m, self.alpha_f = 1.0, alpha
        self.gamma, self.beta = 1.5 - alpha, (2.0 - alpha) ** 2 / 4.0


class GeneralizedAlpha(Scheme):
    """Generalized-alpha (paper eq. 12) with spectral radius at infinity ``rho_inf`` in [0, 1],
    run in Arnold and Bruls' form (the module docstring).

    1 - alpha_m = (2 rho - 1)/(rho + 1), 1 - alpha_f = rho/(rho + 1),
    gamma = 1/2 + alpha_m - alpha_f, beta = (1 + alpha_m - alpha_f)^2 / 4.

    Parameters
    ----------
    **parameters
        ``rho_inf`` (default 0.9): 1 keeps every frequency (no numerical damping), 0
        annihilates the highest ones in one step.

    Raises
    ------
    ValueError
        ``rho_inf`` outside [0, 1].

    Examples
    --------
    >>> s = rancf.implicit.GeneralizedAlpha(rho_inf=1.0)      # Newmark's coefficients
    >>> s.alpha_m, s.alpha_f, s.gamma, s.beta
    (0.5, 0.5, 0.5, 0.25)
    """

    name = "generalized-alpha"

    def _set_parameters(self, rho_inf=0.9):
        rho = checks.real("rho_inf", rho_inf, 0.0, 1.0)
        self.alpha_m = 1.0 - (2.0 * rho - 1.0) / (rho + 1.0)
        self.alpha_f = 1.0 - rho / (rho + 1.0)
        self.gamma = 0.5 + self.alpha_m - self.alpha_f
        self.beta = (1.0 + self.alpha_m - self.alpha_f) ** 2 / 4.0


class GeneralizedAlphaS(GeneralizedAlpha):
    """Generalized-alpha-S (paper eq. 14): equilibrium at the intermediate state, for M(q).

    Parameters
    ----------
    **parameters
        ``rho_inf`` (default 0.9), as :class:`GeneralizedAlpha`.

    Raises
    ------
    ValueError
        ``rho_inf`` outside [0, 1].

    Examples
    --------
    >>> rancf.implicit.GeneralizedAlphaS(rho_inf=0.8).intermediate
    True
    """

    name = "generalized-alpha-s"
    intermediate = True


class BackwardEuler(Scheme):
    """First-order BDF (backward Euler) on q and q', the adaptive-modal paper's eq. 34.

    The update is::

        v_{n+1} = v_n + h a_{n+1},   q_{n+1} = q_n + h v_{n+1} = q_n + h v_n + h^2 a_{n+1}

    with the equilibrium at the new step. Not a Newmark scheme (the weights of the
    accelerations in q sum to 1, not 1/2): first-order accurate and strongly dissipative.
    It is the adaptive modal method's scheme.

    Parameters
    ----------
    **parameters
        None: the scheme takes no parameter.

    Examples
    --------
    >>> s = rancf.implicit.BackwardEuler()
    >>> s.gamma, s.beta, s.bdf1
    (1.0, 1.0, True)
    """

    name = "backward-euler"
    gamma = 1.0
    beta = 1.0
    bdf1 = True


class Static(Scheme):
    """Statics as a scheme of the loop: a load step is a step whose inertia and damping
    coefficients are zero (:func:`rancf.static` runs it, one step per load factor).

    With ``alpha_m = 0``, ``alpha_f = 1``, ``gamma = 0``, ``beta = 1``, backward Euler's
    predictor and a step ``h = 1`` (in the unknown only: time does not advance, drives stay
    at their t), a step from an equilibrium ``q_n`` at rest (``v_n = 0``, ``a_n = 0``) has::

        q_{n+1} = q_n + h v_n + h^2 beta a_{n+1} = q_n + a_{n+1}
        v_{n+1} = v_n + h gamma a_{n+1} = 0

    so the unknown ``a_{n+1}`` is the displacement ``q_{n+1} - q_n`` and a Newton increment
    of it is the increment of the coordinates (the loop's ``max |dq| = h^2 beta max |da|``
    test is ``max |dq| <= tol``). The equation of the step is the equilibrium
    (``c_m = c_mq = c_c = 0``, ``c_k = 1``, ``w = 1`` in the Newton matrix)::

        -F(q_{n+1}, 0, t) + Phi_q(q_{n+1}, t)^T lambda = 0,    Phi(q_{n+1}, t) = 0

    with the Newton matrix ``[[K + d(Phi_q^T lambda)/dq, Phi_q^T], [Phi_q, 0]]``. The loop,
    told ``static=True``, keeps t, sets the acceleration to zero after each step (each load
    step starts Newton at the last equilibrium) and words its failures for load steps. Not a
    method of :func:`integrate`.

    Parameters
    ----------
    **parameters
        None: the scheme takes no parameter.

    Examples
    --------
    >>> s = rancf.implicit.Static()
    >>> s.alpha_m, s.alpha_f, s.gamma, s.beta, s.bdf1, s.static
    (0.0, 1.0, 0.0, 1.0, True, True)
    """

    name = "static"
    alpha_m = 0.0
    alpha_f = 1.0
    gamma = 0.0
    beta = 1.0
    bdf1 = True
    static = True


METHODS = {cls.name: cls for cls in (Newmark, HHT, GeneralizedAlpha, GeneralizedAlphaS,
                                     BackwardEuler)}


def integrate(problem, q0, v0, t_end, dt, method="generalized-alpha", t0=0.0, output_every=1,
              projection=False, tol=1e-10, max_iter=25, solver=None, jacobian="reuse",
              progress=False, max_cuts=6, **parameters):
    """Integrate an index-3 DAE from t0 to t_end with fixed step dt.

    Parameters
    ----------
    problem : IndexThreeDAE or rancf.formulations._problem.StepProblem
        A problem written in Python, or a compiled one. Either may also supply the nonlinear
        solver of its steps as its ``step_solver`` attribute (the reduced model's greedy
        Gauss-Newton, :class:`~rancf.formulations.reduced.ReducedProblem`), and counters of
        its own by a ``run_stats()`` method returning a dict, added to the Solution's
        ``stats`` at the end of the run.
    q0, v0 : array_like (n,)
        Initial state; must satisfy the position and velocity constraints (not checked here).
    t_end : float
        Final time (s), > t0.
    dt : float
        Step (s); ``(t_end - t0) / dt`` must be an integer.
    method : {"newmark", "hht", "generalized-alpha", "generalized-alpha-s", "backward-euler"}
        The scheme (module docstring).
    t0 : float
        Initial time (s).
    output_every : int
        Store every k-th step (the first and the last state are always stored).
    projection : bool or {"euclidean", "mass"}
        Project q, q', q'' onto the constraint manifolds after every step (paper eq. 15-17).
    tol : float
        Newton stops when the position increment ``max|dq| <= tol`` (dq = h^2 beta da) and the
        velocity increment ``h gamma max|da|`` (its error estimated from the iteration's
        contraction; waived where the iteration no longer contracts by 1/2) is at most tol per
        second, or 1e-3 of the step's own velocity error, the third difference of the
        velocities ``max|v_n - 3 v_{n-1} + 3 v_{n-2} - v_{n-3}|``, where that is larger: an absolute tolerance in the units of q and v (m and m/s for node
        coordinates), so that formulations with different coordinates (absolute nodes, relative
        minimal coordinates) stop alike, and so that the errors Newton leaves in the
        accelerations do not grow as dt shrinks (the loop's module docstring,
        rancf/integrators/_implicit.pyx).
    max_iter : int
        Newton iteration cap per step; reaching it (after the step's cuts, ``max_cuts``) stops
        the run with status "failed".
    solver : optional
        A nonlinear solver written in Python replacing Newton's iterations:
        ``solve(equations, a, lam) -> (a, lam, iterations)`` on a :class:`StepEquations`
        (default: the problem's ``step_solver`` if it has one, else the loop's Newton).
    jacobian : {"reuse", "every-iteration"}
        Newton's matrix kept while the iteration contracts (modified Newton, the default: as
        accurate and faster, as it saves factorizations), or refactored at every
        iteration (full Newton).
    progress : bool or "always"
        A tqdm bar of the simulated time and the steps per second, fed by the loop every 0.1 s
        of wall time (:func:`rancf.integrators.progress.bar`: True shows it when stderr is a
        terminal, "always" also when it is not).
    max_cuts : int
        In [0, 30], default 6: a step on which Newton fails (after its retry with full Newton)
        is covered by two of half its size from the same start, each of which may be halved
        again, down to ``dt / 2**max_cuts`` (dt / 64, as statics' load steps); the outputs stay
        at the steps of dt, and the next steps start at the sub-step that worked and return to
        dt where they can (the loop's module docstring, rancf/integrators/_implicit.pyx). 0
        stops the run at the first failure: a study that must run at exactly dt. A step made
        by a ``solver`` written in Python is not cut: its failure ends the run. The
        Solution's ``stats`` count the cuts (``step_cuts``) and the smallest sub-step
        (``smallest_step``, s), and an "ok" run that cut its steps says so in its message.
    **parameters
        ``alpha`` for "hht", ``rho_inf`` for the generalized-alpha methods.

    Returns
    -------
    Solution
        ``t, q, v, a, lam, violations, newton_iterations`` at the outputs, ``work`` and
        ``dissipated`` (the trapezoidal integrals of :meth:`IndexThreeDAE.power`, zero when the
        problem does not define it), the model-level arrays of the problem's ``observe`` where
        the problem is a formulation of a model (a ``formulation`` name: ``nodes``,
        ``velocities``, ``joint_q``, ``joint_qd``, ``reactions``) and the rest of it, or all
        of it for a problem of your own, stacked in ``extra``. A run stopped by a Newton
        failure, a divergence or Ctrl-C keeps the steps before it, with ``status`` and
        ``message`` saying what happened.

    Raises
    ------
    ValueError
        An unknown method or jacobian, a parameter out of its range, ``(t_end - t0) / dt``
        not a positive integer, ``q0`` or ``v0`` of the wrong shape.
    TypeError
        Projection asked of a compiled problem with constraints, a parameter the scheme
        does not take.

    Examples
    --------
    A linear oscillator ``q'' = -q`` over a quarter period, Newmark against the exact
    ``cos t`` (second order: the error falls by 4 when the step halves):

    >>> class Oscillator(rancf.implicit.IndexThreeDAE):
    ...     n_coordinates = 1
    ...     def mass(self, q):
    ...         return np.eye(1)
    ...     def force(self, q, v, t):
    ...         return -q
    ...     def stiffness(self, q, v, t):
    ...         return np.eye(1)
    >>> def error(dt):
    ...     sol = rancf.implicit.integrate(Oscillator(), [1.0], [0.0], np.pi / 2, dt,
    ...                                    method="newmark")
    ...     return abs(sol.q[-1, 0] - np.cos(np.pi / 2))
    >>> h = np.pi / 2 / 50
    >>> round(float(error(h) / error(h / 2)), 2)
    4.0
    """
    if method not in METHODS:
        raise ValueError(f"method must be one of {sorted(METHODS)}, got {method!r}")
    if jacobian not in JACOBIANS:
        raise ValueError(f"jacobian must be one of {list(JACOBIANS)}, got {jacobian!r}")
    if int(output_every) < 1:
        raise ValueError(f"output_every must be >= 1, got {output_every!r}")
    if not (t_end > t0):
        raise ValueError(f"t_end must be > t0 = {t0}, got {t_end!r}")
    if not (np.isfinite(t_end - t0) and np.isfinite(dt)
            and checks.SMALLEST_STEP * (t_end - t0) <= dt):
        raise ValueError(f"dt must be finite and in [{checks.SMALLEST_STEP:g} (t_end - t0), "
                         f"t_end - t0] (a shorter step does not advance the clock in floating "
                         f"point), got {dt!r}")
    if not (tol > 0):
        raise ValueError(f"tol must be > 0, got {tol!r}")
    if int(max_iter) < 1:
        raise ValueError(f"max_iter must be >= 1, got {max_iter!r}")
    max_cuts = checks.integer("max_cuts", max_cuts, 0, 30)
    projection = projection_kind(projection)
    scheme = METHODS[method](**parameters)
    report = RunProgress(progress, t0, t_end, method)
    n_steps = int(round((t_end - t0) / dt))
    if n_steps < 1 or abs(n_steps * dt - (t_end - t0)) > 1e-9 * max(1.0, abs(t_end)):
        raise ValueError(f"(t_end - t0) / dt must be a positive integer, got {(t_end - t0) / dt!r}")
    if isinstance(problem, StepProblem):
        if projection and problem.m:
            raise TypeError("projection needs a problem written in Python (an IndexThreeDAE)")
        compiled = problem
    else:
        compiled = PythonProblem(problem, projection)
    if solver is None:
        solver = getattr(problem, "step_solver", None)
    q0, v0 = np.array(q0, dtype=float), np.array(v0, dtype=float)
    if q0.shape != (compiled.n,) or v0.shape != (compiled.n,):
        raise ValueError(f"q0 and v0 must have shape ({compiled.n},), got {q0.shape} and {v0.shape}")
    start = time.perf_counter()
    stepper = Stepper(compiled, scheme.alpha_m, scheme.alpha_f, scheme.gamma, scheme.beta,
                      scheme.intermediate, scheme.bdf1, float(dt), float(tol), int(max_iter),
                      jacobian == "reuse", solver, max_cuts=max_cuts)
    try:
        # Ctrl-C in the start (its factorization) raises KeyboardInterrupt: no step was taken
        stepper.start(float(t0), q0, v0)
        status, message = stepper.run(n_steps, int(output_every), report.callback, float(t_end))
    finally:
        report.close(stepper.t, stepper.steps)
    out = stepper.outputs()
    with held_interrupt() as caught:
        seen = compiled.observe_frames(out["t"], out["q"], out["v"], out["a"], out["lam"],
                                       out["branches"])
    status, message = after_steps(status, message, caught, stepper.t)
    # a formulation's observe gives the model-level arrays; a user's problem's goes to extra
    model, extra = split(seen) if compiled.formulation else ({}, seen)
    run_stats = getattr(problem, "run_stats", None)
    return Solution(
        t=out["t"], q=out["q"], v=out["v"], a=out["a"], lam=out["lam"],
        violations=out["violations"], newton_iterations=out["iterations"],
        work=out["energy"][:, 0], dissipated=out["energy"][:, 1], status=status,
        message=message, method=method, formulation=compiled.formulation,
        stats={**stepper.stats(), **(run_stats() if run_stats is not None else {})},
        wall_time=time.perf_counter() - start, error=stepper.error, extra=extra, **model,
    )
