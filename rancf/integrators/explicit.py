"""Explicit integrators of an ODE problem ``y' = f(t, y)``: Runge-Kutta schemes in the compiled
loop, and SciPy's solvers on the same right-hand side.

Each scheme is a small class holding its Butcher tableau (SciPy ``_ivp/rk.py`` style);
the stepping loop is written once, in Cython (``rancf/integrators/_explicit.pyx``), and runs
without the GIL. A scheme keeps this contract: ``A`` strictly lower triangular,
``A.sum(1) == c``, ``sum(b) == 1``; an adaptive one also gives ``b_err = b - b_hat`` and its
``error_order``.

:func:`integrate` runs any formulation's :class:`~rancf.formulations._problem.ODEProblem` (the
recursive formulation's is its kernel) and returns a
:class:`~rancf.integrators.solution.Solution` with the model-level arrays the problem maps its
states to at the outputs.
"""
import time

import numpy as np
import scipy.integrate

from ..utilities.errors import UserFunctionError
from ..formulations._problem import ODEStatus, TurnedOver
from .progress import RunProgress
from . import _explicit
from .held_interrupt import after_steps, held_interrupt
from .solution import Solution, split


class ExplicitRungeKutta:
    """Base class: Butcher tableau plus what the stepping loop needs to know."""

    A = np.zeros((0, 0))
    b = np.zeros(0)
    c = np.zeros(0)
    b_err = np.zeros(0)     # empty: fixed step
    error_order = 1
    fsal = False

    @classmethod
    def stable_step(cls, lam):
        """The largest step h (s) for which ``h' lam`` stays in the scheme's stability region
        for every ``0 < h' <= h``, for an eigenvalue lam (complex, 1/s) of the linearised
        motion; inf for lam = 0.

        The stability function of an explicit scheme is the polynomial
        ``R(z) = 1 + sum_k z^(k+1) b^T A^k 1``; along the ray of lam the first exit from
        ``|R| <= 1`` is found by a scan of ``|z|`` in [0, 10] (beyond the region of every
        explicit scheme) and bisection.
        """
        if lam == 0:
            return np.inf
        n = len(cls.b)
        coef = [1.0] + [cls.b @ np.linalg.matrix_power(cls.A, k) @ np.ones(n) for k in range(n)]
        direction = lam / abs(lam)
        unstable = lambda rho: abs(np.polyval(coef[::-1], rho * direction)) > 1.0 + 1e-12
        grid = np.linspace(0.0, 10.0, 2001)[1:]
        out = np.flatnonzero(unstable(grid))
        if not len(out):
            return np.inf
        lo, hi = (grid[out[0] - 1] if out[0] else 0.0), grid[out[0]]
        for _ in range(60):
            mid = 0.5 * (lo + hi)
            lo, hi = (lo, mid) if unstable(mid) else (mid, hi)
        return lo / abs(lam)


class RK4(ExplicitRungeKutta):
    """Classical fourth-order Runge-Kutta, fixed step; stable for |h omega| <= 2 sqrt(2) on the
    imaginary axis, for h lambda >= -2.785 on the real axis."""

    A = np.array([[0, 0, 0, 0], [0.5, 0, 0, 0], [0, 0.5, 0, 0], [0, 0, 1.0, 0]])
    b = np.array([1 / 6, 1 / 3, 1 / 3, 1 / 6])
    c = np.array([0, 0.5, 0.5, 1.0])


class DormandPrince54(ExplicitRungeKutta):
    """Dormand-Prince 5(4) with first-same-as-last stage, adaptive (Hairer's DOPRI5)."""

    A = np.array([
        [0, 0, 0, 0, 0, 0, 0],
        [1 / 5, 0, 0, 0, 0, 0, 0],
        [3 / 40, 9 / 40, 0, 0, 0, 0, 0],
        [44 / 45, -56 / 15, 32 / 9, 0, 0, 0, 0],
        [19372 / 6561, -25360 / 2187, 64448 / 6561, -212 / 729, 0, 0, 0],
        [9017 / 3168, -355 / 33, 46732 / 5247, 49 / 176, -5103 / 18656, 0, 0],
        [35 / 384, 0, 500 / 1113, 125 / 192, -2187 / 6784, 11 / 84, 0],
    ])
    b = np.array([35 / 384, 0, 500 / 1113, 125 / 192, -2187 / 6784, 11 / 84, 0])
    c = np.array([0, 1 / 5, 3 / 10, 4 / 5, 8 / 9, 1, 1])
    b_err = b - np.array([5179 / 57600, 0, 7571 / 16695, 393 / 640, -92097 / 339200,
                          187 / 2100, 1 / 40])
    error_order = 5
    fsal = True


#: Method names of ``rancf.simulate`` for the explicit schemes.
SCHEMES = {"rk4": RK4, "dopri5": DormandPrince54}

#: SciPy's solvers, as ``method="scipy:<name>"``.
SCIPY_METHODS = ("RK45", "DOP853", "Radau", "BDF", "LSODA")
#: The statuses of a state's check (the right-hand side's the problem words, ODEProblem.failure).
_STATUS = {ODEStatus.ODE_OK: ("ok", ""),
           ODEStatus.ODE_NONFINITE: ("diverged", "the state became non-finite"),
           ODEStatus.ODE_UNBOUNDED: ("diverged", "a node left the displacement bound")}


def integrate(problem, y0, t_out, dt, method, rtol, atol, bound, progress=False):
    """Integrate the ODE problem from ``y0`` at t = 0 to the output times.

    Parameters
    ----------
    problem : rancf.formulations._problem.ODEProblem
    y0 : ndarray (n_y,)
        Initial state.
    t_out : ndarray (n_out,)
        Increasing output times from 0 (s).
    dt : float
        Step (s) of a fixed-step scheme; the initial step of an adaptive one.
    method : str
        A scheme of :data:`SCHEMES` (the compiled loop) or ``"scipy:<name>"``,
        name in :data:`SCIPY_METHODS`.
    rtol, atol : float
        Tolerances of the adaptive methods.
    bound : float
        Largest admissible distance of a node from the origin along x or y (m).
    progress : bool or "always"
        A progress bar (:class:`rancf.integrators.progress.RunProgress`).

    Returns
    -------
    Solution
        ``y`` the states, the model-level arrays from ``problem.observe``; a run stopped by a
        divergence, a failure or Ctrl-C keeps the outputs before it.

    Raises
    ------
    rancf.UserFunctionError, ValueError
        An input function raised, or returned no valid number, at the start state (y0 at
        t = 0: :func:`start_inputs`): the run has no output yet.
    """
    start_inputs(problem, y0)
    run = _run_compiled if method in SCHEMES else _run_scipy
    # the input functions' values at the outputs, which both loops keep (one row an output, as
    # the output is produced) and the deferred outputs play back: mapped after the run instead,
    # the frames would call the functions again, and one that failed would fail there
    kept = [] if getattr(problem, "keeps_inputs", False) else None
    t, Y, branches, status, message, stats, wall, error = run(problem, method, y0, t_out, dt,
                                                              rtol, atol, bound, progress, kept)
    with held_interrupt() as caught:
        if kept is not None and len(kept) == len(t):
            seen = problem.observe(t, Y, branches, kept=kept)
        else:
            seen = problem.observe(t, Y, branches)
        model, extra = split(seen)
    status, message = after_steps(status, message, caught, t[-1] if len(t) else 0.0)
    return Solution(t=t, y=Y, status=status, message=message, method=method,
                    formulation=problem.formulation, stats=stats, wall_time=wall, error=error,
                    extra=extra, **model)


def start_inputs(problem, y0):
    """The set-up's evaluation of the input functions at the start state (y0 at t = 0), as
    the implicit methods' initial accelerations and statics' first residual make it: one that
    raises there (or returns no valid number) raises out of the run, which has no output yet
    (:class:`rancf.UserFunctionError`: one rule for every method; without this, the explicit
    loops met it in their first stage and failed the run instead). The value is not kept: the
    loops evaluate the start again (bitwise the same run). A singular mass or a turned-over
    state there is left to the loop, which reports it as it does at any step."""
    try:
        problem.derivative(0.0, y0)
    except (UserFunctionError, ValueError):
        raise
    except (ArithmeticError, RuntimeError):
        pass


def _failed(problem, code, t):
    """(status, message, error) of a run stopped by the problem's evaluation at time t (s)
    with ``code`` (ODE_SINGULAR, ODE_INPUT_RAISED, ODE_TURNED_OVER): "failed", in the problem's
    words, with the input function's exception; a Ctrl-C that arrived while an input function
    ran (the kernel caught it with the functions' own exceptions) interrupts the run instead."""
    error = problem.inputs.error if code == ODEStatus.ODE_INPUT_RAISED else None
    if isinstance(error, KeyboardInterrupt):
        problem.inputs.error = None
        return "interrupted", f"interrupted (Ctrl-C) at t = {t:.6g} s", None
    return "failed", problem.failure(code, t), error


def _run_compiled(problem, method, y0, t_out, dt, rtol, atol, bound, progress, kept=None):
    """The compiled loop with the scheme's tableau: (t, Y, branches, status, message, stats,
    wall, error), the branch of the joint angles at every output."""
    scheme = SCHEMES[method]
    Y = np.empty((len(t_out), problem.n_y))
    Q = np.empty((len(t_out), problem.n_branch))
    report = RunProgress(progress, 0.0, t_out[-1], method)
    start = time.perf_counter()
    n_saved, code, t, nfev, n_acc, n_rej = _explicit.integrate(
        problem, y0, t_out, dt, scheme.A, scheme.b, scheme.c, scheme.b_err, scheme.fsal,
        scheme.error_order, rtol, atol, bound, Y, Q, report.callback, kept)
    wall = time.perf_counter() - start
    report.close(t, n_acc)
    error = None
    if n_saved == 0:
        # the start's input values (kept) failed: only a function that fails at its second call
        # at t = 0 (start_inputs made the first) gets here; the run has no output, and raises
        # as start_inputs does (SciPy's runs alike)
        if code == ODEStatus.ODE_INPUT_RAISED and problem.inputs.error is not None:
            raise problem.inputs.error
        raise RuntimeError(problem.failure(code, 0.0))
    if code == ODEStatus.ODE_STEP_FLOOR:
        status = "failed"
        rates = problem.stiffness(Y[n_saved - 1])
        rates = f" ({rates} at the last output)" if rates else ""
        message = (f"the step size fell below its floor (1e-14 s) at t = {t:.6g} s: the equations "
                   f"are too stiff for an explicit method{rates}; use an implicit method (e.g. "
                   "'generalized-alpha', which damps what it cannot resolve)")
    elif code in (ODEStatus.ODE_SINGULAR, ODEStatus.ODE_INPUT_RAISED,
                  ODEStatus.ODE_TURNED_OVER):
        status, message, error = _failed(problem, code, t)
    elif code == ODEStatus.ODE_INTERRUPTED:
        status, message = "interrupted", f"interrupted (Ctrl-C) at t = {t:.6g} s"
    else:
        status, why = _STATUS[code]
        message = f"{why} at t = {t:.6g} s" if code else ""
    stats = {"nfev": nfev, "steps": n_acc, "rejected": n_rej}
    return t_out[:n_saved], Y[:n_saved], Q[:n_saved], status, message, stats, wall, error


def _run_scipy(problem, method, y0, t_out, dt, rtol, atol, bound, progress, kept=None):
    """SciPy's solver of that name (the class ``solve_ivp`` would run), stepped here so that a
    failure, a divergence or Ctrl-C keeps the outputs so far; outputs from its dense output.
    Returns (t, Y, branches, status, message, stats, wall, error), the branch of the joint
    angles given at the start only (None after it: SciPy keeps none, so they are unwrapped
    output to output).

    With ``kept`` (a list) each output, as it is produced, also appends the input functions'
    values at its state (``problem.keep_inputs_at``: one more evaluation of the equations an
    output; the dense output's state is at no evaluation of the solver); a function that fails
    there ends the run with that output left out, so ``kept`` has a row for every output."""
    report = RunProgress(progress, 0.0, t_out[-1], method, unit="evaluations")
    reached = [0.0]
    turned = []
    branch = problem.branch()

    def fun(t, y):
        reached[0] = max(reached[0], t)
        report.poll(reached[0])
        try:
            # a contiguous copy of Radau's and BDF's strided Jacobian columns is made there
            return problem.derivative(t, y)
        except TurnedOver as exc:
            # not defined there: NaN makes the solver reject the step (as DOPRI5's loop does)
            turned.append(str(exc))
            return np.full(len(y), np.nan)

    start = time.perf_counter()
    try:
        solver = getattr(scipy.integrate, method[6:])(fun, 0.0, y0, t_out[-1], rtol=rtol,
                                                atol=atol, first_step=dt)
    except BaseException:
        # Ctrl-C (or an input function's error) at the initial state: no step, no bar left open
        report.close(0.0)
        raise
    Y, steps = [y0.copy()], 0
    status, message, error = "ok", "", None
    inputs = getattr(problem, "inputs", None)
    if inputs is not None:
        inputs.error = None
    code = problem.keep_inputs_at(kept, 0.0, y0) if kept is not None else ODEStatus.ODE_OK
    if code:
        # the start state, which start_inputs and the solver's first call evaluated already:
        # only a function that fails at its third call at t = 0 gets here, and raises as there
        report.close(0.0)
        if code == ODEStatus.ODE_INPUT_RAISED and inputs.error is not None:
            raise inputs.error
        raise RuntimeError(problem.failure(code, 0.0))
    try:
        while solver.status == "running":
            t_old = solver.t
            why = solver.step()
            if solver.status == "failed":
                status, message = "failed", f"{why} at t = {solver.t:.6g} s"
                break
            steps += 1
            # a step that ends diverged keeps none of its outputs
            code = problem.check_state(solver.y, bound)
            if code == ODEStatus.ODE_NONFINITE:
                status, message = "diverged", f"the state became non-finite after t = {t_old:.6g} s"
                break
            if code == ODEStatus.ODE_UNBOUNDED:
                status = "diverged"
                message = (f"a node left the displacement bound between t = {t_old:.6g} and "
                           f"{solver.t:.6g} s")
                break
            turned.clear()
            due = t_out[len(Y):][t_out[len(Y):] <= solver.t]
            for t_k, y_k in zip(due, solver.dense_output()(due).T if len(due) else ()):
                code = problem.keep_inputs_at(kept, t_k, y_k) if kept is not None else 0
                if code:
                    status, message, error = _failed(problem, code, t_k)
                    break
                Y.append(y_k)
            if status != "ok":
                break
    except (ArithmeticError, RuntimeError, ValueError) as exc:
        # a singular mass, an input function, or the solver's own linear algebra meeting the
        # NaN of a turned-over state (Radau's LU of a differenced Jacobian); the input
        # function's own exception rather than the RuntimeError that reported it
        status, message = "failed", str(exc)
        error = inputs.error if inputs is not None and inputs.error is not None else exc
    except KeyboardInterrupt:
        status, message = "interrupted", f"interrupted (Ctrl-C) at t = {solver.t:.6g} s"
    if status in ("failed", "diverged") and turned:
        # the steps since the last accepted one met a held slope turned over
        status, message = "failed", turned[-1]
    wall = time.perf_counter() - start
    report.close(reached[0])
    stats = {"nfev": int(solver.nfev), "njev": int(solver.njev), "nlu": int(solver.nlu),
             "steps": steps}
    branches = [branch] + [None] * (len(Y) - 1)
    return t_out[:len(Y)], np.array(Y), branches, status, message, stats, wall, error
