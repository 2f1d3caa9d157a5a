"""``rancf.simulate``: time integration of a model, dispatched by formulation and method."""
import contextlib
import os
import time

import numpy as np
import scipy.integrate

from . import checks
from .formulations import recursive
from .formulations.dae import DAE
from .formulations.reduced import ReducedModel, Timer, TimedDAE, initial_state, timed_result
from .integrators import _explicit
from .integrators.explicit import SCHEMES
from .integrators.implicit import METHODS as IMPLICIT_METHODS
from .integrators.implicit import integrate
from .model.model import Model
from .model.state import State
from .progress import RunProgress
from .progress import check as check_progress
from .result import Result

try:
    from threadpoolctl import threadpool_limits
except ImportError:  # optional: without it BLAS keeps its default thread count
    threadpool_limits = None

SCIPY_METHODS = ("RK45", "DOP853", "Radau", "BDF", "LSODA")
FORMULATIONS = ("auto", "recursive", "dae")
_STATUS = {0: ("ok", ""), 1: ("diverged", "the state became non-finite"),
           2: ("diverged", "a node left the displacement bound"),
           3: ("failed", "the generalized mass became singular")}


def output_times(t_end, dt, output_every):
    """Output times ``0, dt*output_every, 2 dt*output_every, ...`` plus ``t_end`` (s)."""
    step = dt * output_every
    n = int(np.floor(t_end / step + 1e-9))
    t = step * np.arange(n + 1)
    if t[-1] < t_end - 1e-9 * step:
        t = np.append(t, t_end)
    return t


def available_memory():
    """Memory available to a new allocation (bytes): MemAvailable of /proc/meminfo where there is
    one, else the free physical pages."""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")


def check_memory(n_out, per_output, max_memory):
    """Refuse a run whose outputs (``n_out`` of ``per_output`` doubles each, kept twice while the
    Result is built) would not fit in ``max_memory`` bytes (default: the available memory)."""
    need = 2.0 * 8.0 * n_out * per_output
    if max_memory is None:
        limit, have = available_memory(), "only {:.3g} GiB are available"
    else:
        limit, have = checks.positive("max_memory", max_memory), "max_memory allows {:.3g} GiB"
    if need > limit:
        raise MemoryError(
            f"the outputs of this run need about {need / 2**30:.3g} GiB ({n_out:,} outputs of "
            f"{per_output:,} numbers, twice while the Result is built) and "
            f"{have.format(limit / 2**30)}: raise output_every, shorten t_end, or pass max_memory "
            "(bytes) to allow more")


def choose_formulation(assembly, method, formulation):
    """The formulation ``"auto"`` stands for: recursive for trees (and for the implicit methods
    only where the recursion's velocity map is constant), DAE otherwise."""
    checks.choice("formulation", formulation, FORMULATIONS)
    explicit = method in SCHEMES or (isinstance(method, str) and method.startswith("scipy:"))
    if formulation == "dae" and explicit:
        raise ValueError(f"method {method!r} is explicit and runs the recursive formulation; "
                         f"formulation 'dae' takes the implicit methods {sorted(IMPLICIT_METHODS)}")
    if formulation != "auto":
        return formulation
    if assembly.recursive_reason is not None:
        if explicit:
            raise ValueError(f"method {method!r} needs the recursive formulation, which cannot run "
                             f"this model ({assembly.recursive_reason}); use an implicit method "
                             f"{sorted(IMPLICIT_METHODS)}, which runs formulation 'dae'")
        return "dae"
    if explicit:
        return "recursive"
    tables = recursive.tree_tables(assembly)
    return "recursive" if tables["constant"] and not len(assembly.bodies) else "dae"


def simulate(model, t_end, dt, method="rk4", output_every=10, state=None, formulation="auto",
             rtol=1e-6, atol=1e-8, max_displacement=None, check_stability=True, max_memory=None,
             progress=False, **implicit_options):
    """Integrate the motion of ``model`` from ``state`` (default: its reference configuration at
    rest, but for the drives) to ``t_end``.

    Parameters
    ----------
    model : Model
    t_end : float
        Final time (s), > 0.
    dt : float
        Step (s) of a fixed-step method; initial step of an adaptive one. 0 < dt <= t_end.
    method : str
        Explicit (recursive formulation): ``"rk4"`` (fixed step, Cython, GIL released),
        ``"dopri5"`` (adaptive Dormand-Prince 5(4), ``rtol``/``atol``), ``"scipy:RK45" |
        "scipy:DOP853" | "scipy:Radau" | "scipy:BDF" | "scipy:LSODA"`` (SciPy's solvers on the
        same right-hand side). Implicit (:mod:`rancf.integrators.implicit`): ``"newmark" | "hht" |
        "generalized-alpha" | "generalized-alpha-s" | "backward-euler"`` (fixed step, Newton).
    output_every : int
        Results are kept every ``output_every * dt`` seconds (and at ``t_end``).
    state : State, optional
        Initial coordinates and velocities (e.g. ``result.state(-1)`` to continue a run).
    formulation : {"auto", "recursive", "dae"}
        ``"recursive"``: the O(n) recursive formulation (trees rooted at the ground, child beams
        jointed at their start); with an implicit method only trees of beams on revolute joints.
        ``"dae"``: absolute coordinates, every joint a constraint (any topology, implicit
        methods). ``"auto"``: recursive where it applies, DAE otherwise.
    rtol, atol : float
        Tolerances of the adaptive methods.
    max_displacement : float, optional
        Explicit methods: a vertex farther than this from the origin along x or y (m) counts
        as divergence; default 100 times the model size.
    check_stability : bool
        For ``"rk4"``, refuse a step beyond the stability limit: where the ray of the top
        eigenvalue of ``s^2 + d s + omega^2 = 0`` leaves the scheme's stability region
        (``2 sqrt(2) / omega`` undamped), with the highest natural frequency omega and the
        fastest decay rate d of the element damping (``c omega^2``) bounded from below by power
        iteration at the initial state.
    max_memory : float, optional
        Bytes the outputs may take; by default the memory available. A run whose outputs would
        not fit is refused before it starts (``MemoryError`` with the estimate).
    progress : bool or "always"
        A tqdm bar of the simulated time and the steps per second (scipy's methods: right-hand
        side evaluations per second), fed by the compiled loops every 0.1 s of wall time at
        their Ctrl-C checks, so it costs nothing inside a step. True shows it when stderr is a
        terminal, "always" also when it is not (a notebook, a log), False (default) never.
    **implicit_options
        ``projection`` (DAE: False, True / "euclidean", "mass"), ``linear_solver`` (DAE: "dense"
        | "sparse", default "sparse"), ``alpha`` ("hht", in [2/3, 1]), ``rho_inf``
        (generalized-alpha methods, in [0, 1]), ``tol`` (Newton tolerance on the position
        increment, m; default 1e-10), ``max_iter`` (Newton iterations per step), ``jacobian``
        ("every-iteration" or "reuse": Newton's matrix kept while the iteration contracts).

    Returns
    -------
    Result
        ``status`` is "ok"; or "diverged" (the state became non-finite or left its bound),
        "failed" (Newton did not converge, a singular matrix, the step size fell below its
        floor, a held slope turned over, an input function raised) or "interrupted" (Ctrl-C),
        with ``message`` saying what, when and what to change, and the results up to that
        time.

    Raises
    ------
    TypeError
        ``model`` or ``state`` of the wrong type; implicit options with an explicit method,
        ``max_displacement`` with an implicit one, ``projection`` or ``linear_solver`` with
        the recursive formulation.
    ValueError
        A parameter out of its range (named in the message); an unknown method; a
        formulation that cannot run the model (a closed loop in the recursive formulation,
        an explicit method on the DAE); an RK4 step beyond the stability limit; ``t_end / dt``
        not an integer for an implicit method; a model that does not assemble
        (:meth:`Model.build`).
    MemoryError
        The outputs would not fit in ``max_memory``.

    Notes
    -----
    A :class:`~rancf.formulations.reduced.ReducedModel` (:func:`rancf.reduce`) runs with
    method "backward-euler" (the adaptive modal method's BDF-1) on formulation "auto" or
    "dae", and takes one more option, ``blas_threads`` (default 1: BLAS threads during the
    run, by threadpoolctl; None leaves them as they are: the adaptive step does many small
    dense QR factorizations, which on a shared 2-core machine ran 40 times slower with
    OpenBLAS's default threads competing with other processes); its Result is described by
    :meth:`~rancf.formulations.reduced.ReducedModel.result`.
    The user guide's pages on formulations and integrators say which to choose.

    Examples
    --------
    The RANCF paper's pendulum (2 of its 5 bodies) with the default explicit RK4 on the
    recursive formulation, then the same model with an implicit method on the DAE:

    >>> m = rancf.pendulum(n_bodies=2, elements_per_body=5, body_length=5.0)
    >>> res = rancf.simulate(m, t_end=0.5, dt=1e-3)
    >>> res.formulation, res.method, res.status
    ('recursive', 'rk4', 'ok')
    >>> dae = rancf.simulate(m, 0.5, 1e-3, method="generalized-alpha", formulation="dae",
    ...                      rho_inf=0.9)
    >>> bool(np.abs(dae.tip() - res.tip()).max() < 1e-5)   # m, of a 10 m chain (2.4e-6 here)
    True

    A step beyond RK4's stability limit is refused before the run:

    >>> stiff = rancf.pendulum(n_bodies=2, elements_per_body=5, E=2.1e11)
    >>> rancf.simulate(stiff, 0.5, 1e-3)
    Traceback (most recent call last):
    ...
    ValueError: dt = 0.001 s exceeds the rk4 stability limit ...
    """
    if isinstance(model, ReducedModel):
        return _run_reduced(model, t_end, dt, method, output_every, state, formulation, progress,
                            **implicit_options)
    if not isinstance(model, Model):
        raise TypeError(f"model must be a rancf.Model, got {type(model).__name__}")
    t_end, dt = checks.positive("t_end", t_end), checks.positive("dt", dt)
    if dt > t_end:
        raise ValueError(f"dt must be in (0, t_end = {t_end:g}], got {dt!r}")
    output_every = checks.integer("output_every", output_every, 1, 10**9)
    rtol, atol = checks.positive("rtol", rtol), checks.positive("atol", atol)
    check_progress(progress)
    check_stability = checks.boolean("check_stability", check_stability)
    A = model.build()
    if state is not None and not isinstance(state, State):
        raise TypeError(f"state must be a rancf.State, got {type(state).__name__}")
    x0, v0 = state.checked(A.n_x) if state is not None else (None, None)
    known = sorted(SCHEMES) + [f"scipy:{m}" for m in SCIPY_METHODS] + sorted(IMPLICIT_METHODS)
    if method not in known:
        raise ValueError(f"method must be one of {known}, got {method!r}")
    formulation = choose_formulation(A, method, formulation)
    n_out = int(np.floor(t_end / (dt * output_every) + 1e-9)) + 2
    check_memory(n_out, 4 * A.n_x + 4 * A.n_joints + 8, max_memory)
    if method in IMPLICIT_METHODS:
        if max_displacement is not None:
            raise TypeError("max_displacement applies to the explicit methods; the implicit "
                            "methods stop when Newton fails or the state exceeds 1e8")
        return _run_implicit(model, A, t_end, dt, method, output_every, x0, v0, formulation,
                             progress, **implicit_options)
    if implicit_options:
        raise TypeError(f"options {sorted(implicit_options)} apply to the implicit methods "
                        f"{sorted(IMPLICIT_METHODS)} only")
    bound = 100.0 * A.size if max_displacement is None else \
        checks.positive("max_displacement", max_displacement)
    rec = recursive.of(A)
    y0 = rec.initial_state(x0, v0)
    t_out = output_times(t_end, dt, output_every)
    if method in SCHEMES:
        scheme = SCHEMES[method]
        if check_stability and not len(scheme.b_err):
            omega = rec.highest_frequency(y0)
            decay = rec.highest_decay_rate(y0) if A.element_damping.any() else 0.0
            limit = scheme.stable_step(top_eigenvalue(omega, decay))
            if dt > limit:
                raise ValueError(
                    f"dt = {dt:g} s exceeds the {method} stability limit {limit:.3g} s of this "
                    f"model ({_stiffness(omega, decay)} at the initial state); use dt <= "
                    f"{limit:.3g} s or an adaptive or implicit method")
        return _run_explicit(model, rec, scheme, method, y0, t_out, dt, rtol, atol, bound,
                             progress)
    return _run_scipy(model, rec, method, y0, t_out, dt, rtol, atol, bound, progress)


def top_eigenvalue(omega, decay):
    """The eigenvalue (1/s) of the linearised motion an explicit step must resolve, from the
    highest natural frequency omega and the fastest decay rate of the damping: the faster
    root of ``s^2 + decay s + omega^2 = 0`` (a mode with Kelvin-Voigt damping c has
    ``decay = c omega^2``), ``i omega`` undamped."""
    return -0.5 * decay - np.sqrt(complex(0.25 * decay * decay - omega * omega))


def _stiffness(omega, decay):
    """The rates an explicit step must resolve, in words."""
    words = f"highest natural frequency >= {omega:.4g} rad/s"
    if decay:
        words += (f", fastest decay of the element damping >= {decay:.4g} 1/s (c omega^2 for a "
                  "damping time c)")
    return words


def _recursive_result(model, rec, t, Y, Q, method, status, message, stats, wall):
    """A Result from recursive states Y (n_out, n_y) and the angle branches Q at the outputs
    (None: unwrap output to output)."""
    n = len(t)
    X, V = np.empty((n, rec.n_x)), np.empty((n, rec.n_x))
    nj = rec.assembly.n_joints
    q, qd, reaction = np.empty((n, nj)), np.empty((n, nj)), np.empty((n, nj))
    for i in range(n):
        X[i], V[i], q[i], qd[i], reaction[i] = rec.outputs(t[i], Y[i], None if Q is None else Q[i])
    beta = Y[:, rec.n_x:rec.n_x + rec.n_dof]
    return Result(model, t, X, V, q, qd, reaction, Y[:, -2], Y[:, -1], status=status,
                  message=message, method=method, formulation="recursive", stats=stats,
                  extra={"beta": beta}, wall_time=wall)


def _run_explicit(model, rec, scheme, method, y0, t_out, dt, rtol, atol, bound, progress):
    Y = np.empty((len(t_out), rec.n_y))
    Q = np.empty((len(t_out), max(rec.assembly.n_joints, 1)))
    report = RunProgress(progress, 0.0, t_out[-1], method)
    start = time.perf_counter()
    n_saved, code, t, nfev, n_acc, n_rej = _explicit.integrate(
        rec.kernel, y0, t_out, dt, scheme.A, scheme.b, scheme.c, scheme.b_err, scheme.fsal,
        scheme.error_order, rtol, atol, bound, Y, Q, report.callback)
    wall = time.perf_counter() - start
    report.close(t, n_acc)
    if code == 4:
        status = "failed"
        y = Y[n_saved - 1]
        message = (f"the step size fell below its floor (1e-14 s) at t = {t:.6g} s: the equations "
                   f"are too stiff for an explicit method ("
                   f"{_stiffness(rec.highest_frequency(y), rec.highest_decay_rate(y))} at the "
                   "last output); use an implicit method (e.g. 'generalized-alpha', which damps "
                   "what it cannot resolve)")
    elif code == 5:
        status, message = "failed", f"an input function raised at t = {t:.6g} s: {rec.inputs.failure()}"
    elif code == 6:
        status, message = "interrupted", f"interrupted (Ctrl-C) at t = {t:.6g} s"
    elif code == 7:
        status, message = "failed", rec.kernel.inverted_message(t)
    else:
        status, why = _STATUS[code]
        message = f"{why} at t = {t:.6g} s" if code else ""
    stats = {"nfev": nfev, "steps": n_acc, "rejected": n_rej}
    return _recursive_result(model, rec, t_out[:n_saved], Y[:n_saved], Q[:n_saved], method,
                             status, message, stats, wall)


def _run_scipy(model, rec, method, y0, t_out, dt, rtol, atol, bound, progress):
    """SciPy's solver of that name (the class ``solve_ivp`` would run), stepped here so that a
    failure, a divergence or Ctrl-C keeps the outputs so far; outputs from its dense output."""
    n_x = rec.n_x
    report = RunProgress(progress, 0.0, t_out[-1], method, unit="evaluations")
    reached = [0.0]
    turned = []

    def fun(t, y):
        reached[0] = max(reached[0], t)
        report.poll(reached[0])
        # Radau/BDF pass strided Jacobian columns
        try:
            return rec.derivative(t, np.ascontiguousarray(y, dtype=float))
        except recursive.TurnedOver as exc:
            # not defined there: NaN makes the solver reject the step (as DOPRI5's loop does)
            turned.append(str(exc))
            return np.full(len(y), np.nan)

    start = time.perf_counter()
    solver = getattr(scipy.integrate, method[6:])(fun, 0.0, y0, t_out[-1], rtol=rtol, atol=atol,
                                            first_step=dt)
    Y, steps = [y0.copy()], 0
    status, message = "ok", ""
    try:
        while solver.status == "running":
            t_old = solver.t
            why = solver.step()
            if solver.status == "failed":
                status, message = "failed", f"{why} at t = {solver.t:.6g} s"
                break
            steps += 1
            # a step that ends diverged keeps none of its outputs
            if not np.all(np.isfinite(solver.y)):
                status, message = "diverged", f"the state became non-finite after t = {t_old:.6g} s"
                break
            if not np.abs(solver.y[:n_x].reshape(-1, rec.assembly.node_size)[:, :2]).max() <= bound:
                status = "diverged"
                message = (f"a node left the displacement bound between t = {t_old:.6g} and "
                           f"{solver.t:.6g} s")
                break
            turned.clear()
            due = t_out[len(Y):][t_out[len(Y):] <= solver.t]
            if len(due):
                Y.extend(solver.dense_output()(due).T)
    except (ArithmeticError, RuntimeError, ValueError) as exc:
        # a singular mass, an input function, or the solver's own linear algebra meeting the
        # NaN of a turned-over state (Radau's LU of a differenced Jacobian)
        status, message = "failed", str(exc)
    except KeyboardInterrupt:
        status, message = "interrupted", f"interrupted (Ctrl-C) at t = {solver.t:.6g} s"
    if status in ("failed", "diverged") and turned:
        # the steps since the last accepted one met a held slope turned over
        status, message = "failed", turned[-1]
    wall = time.perf_counter() - start
    report.close(reached[0])
    stats = {"nfev": int(solver.nfev), "njev": int(solver.njev), "nlu": int(solver.nlu),
             "steps": steps}
    # SciPy keeps no branch of the angles: unwrap them output to output
    rec.kernel.arrays["qref"][:rec.assembly.n_joints] = rec.assembly.joint_q0
    return _recursive_result(model, rec, t_out[:len(Y)], np.array(Y), None, method, status,
                             message, stats, wall)


def _run_implicit(model, A, t_end, dt, method, output_every, x0, v0, formulation, progress,
                  projection=False, linear_solver="sparse", tol=1e-10, max_iter=25,
                  jacobian="reuse", **parameters):
    """The implicit methods on the DAE or the implicit recursive formulation."""
    steps = t_end / dt
    if abs(steps - round(steps)) > 1e-9 * steps:
        raise ValueError(f"t_end / dt must be an integer for the implicit methods, got {steps!r}")
    tol = checks.positive("tol", tol)
    max_iter = checks.integer("max_iter", max_iter, 1, 10**6)
    if formulation == "dae":
        dae = DAE(A, linear_solver, projection)
        q0, qd0 = dae.initial_state(x0, v0)
        problem, projection = dae.compiled, False     # the kernel projects
    else:
        if projection is not False or linear_solver != "sparse":
            raise TypeError("projection and linear_solver apply to formulation='dae' only")
        rec = recursive.of(A)
        y0 = rec.initial_state(x0, v0)
        problem = recursive.implicit_problem(A, y0)
        q0, qd0 = problem.theta(y0), y0[rec.n_x:rec.n_x + rec.n_dof].copy()
    sol = integrate(problem, q0, qd0, t_end, dt, method=method, output_every=output_every,
                    projection=projection, tol=tol, max_iter=max_iter, jacobian=jacobian,
                    progress=progress, **parameters)
    if formulation == "dae":
        nodes, vel = sol.q, sol.v
    else:
        nodes, vel = zip(*(problem.state_at(q, v, t) for t, q, v in zip(sol.t, sol.q, sol.v)))
    extra = {"constraint_violation": sol.violations, "newton_iterations": sol.newton_iterations,
             "lambda": sol.lam}
    if formulation == "recursive":
        extra["beta"] = sol.v
    return Result(model, sol.t, np.array(nodes), np.array(vel), sol.extra["joint_q"],
                  sol.extra["joint_qd"], sol.extra["reactions"], sol.work, sol.dissipated,
                  status=sol.status, message=sol.message, method=method, formulation=formulation,
                  stats=sol.stats, extra=extra, wall_time=sol.wall_time)


def _run_reduced(reduced, t_end, dt, method, output_every, state, formulation, progress,
                 blas_threads=1):
    """A reduced model (the adaptive modal method) in the implicit loop, its step solved by
    greedy Gauss-Newton on the sampled rows."""
    if method != "backward-euler":
        raise ValueError(f"method must be 'backward-euler' for a reduced model (the "
                         f"adaptive modal method's BDF-1), got {method!r}")
    checks.choice("formulation", formulation, ("auto", "dae"))
    t_end, dt = checks.positive("t_end", t_end), checks.positive("dt", dt)
    output_every = checks.integer("output_every", output_every, 1, 10**9)
    if blas_threads is not None:
        blas_threads = checks.integer("blas_threads", blas_threads, 1, 4096)
    problem, x0, v0, solver = reduced.equations(state)
    limit = (threadpool_limits(limits=blas_threads, user_api="blas")
             if blas_threads is not None and threadpool_limits is not None
             else contextlib.nullcontext())
    with limit:
        sol = integrate(problem, x0, v0, t_end, dt, method="backward-euler",
                        output_every=output_every, tol=reduced.tol, max_iter=reduced.max_iter,
                        solver=solver, progress=progress)
    return reduced.result(sol, dt, solver)


def simulate_timed(model, t_end, dt, output_every=10, state=None, tol=1e-10, max_iter=25):
    """The full model with backward Euler in the one stepping loop and its default Newton, its
    evaluations timed for the adaptive-modal paper's table 2
    (:class:`~rancf.formulations.reduced.timing.TimedDAE`).

    Parameters
    ----------
    model : Model
    t_end, dt : float
        Final time and step (s), as :func:`simulate` (method "backward-euler", formulation
        "dae").
    output_every : int
        Results every ``output_every`` steps.
    state : State, optional
        Initial state (default: the reference configuration, DECISIONS 2).
    tol : float
        Newton tolerance on the position increment (m).
    max_iter : int
        Newton iterations per step.

    Returns
    -------
    Result
        Its ``stats`` add ``time_update`` and ``time_matrix`` (s).
    """
    if not isinstance(model, Model):
        raise TypeError(f"model must be a rancf.Model, got {type(model).__name__}")
    t_end, dt = checks.positive("t_end", t_end), checks.positive("dt", dt)
    output_every = checks.integer("output_every", output_every, 1, 10**9)
    dae = TimedDAE(model.build(), Timer())
    x0, v0 = initial_state(dae, state)
    dae.timer = timer = Timer()  # the initial state is not a step
    sol = integrate(dae, x0, v0, t_end, dt, method="backward-euler", output_every=output_every,
                    tol=tol, max_iter=max_iter)
    return timed_result(model, sol, "dae", timer, {}, {})
