"""``rancf.simulate``: time integration of a chain, dispatched by formulation and method."""
import time

import numpy as np
from scipy.integrate import solve_ivp

from . import _explicit
from .explicit import SCHEMES
from .recursive import highest_frequency, model_of, state_vector
from .implicit import METHODS as IMPLICIT_METHODS
from .result import Result

SCIPY_METHODS = ("RK45", "DOP853", "Radau", "BDF", "LSODA")
_STATUS = {0: ("ok", ""), 1: ("diverged", "the state became non-finite"),
           2: ("diverged", "a node left the displacement bound"),
           3: ("failed", "the generalized mass became singular"),
           4: ("failed", "the step size underflowed")}


def output_times(t_end, dt, output_every):
    """Output times ``0, dt*output_every, 2 dt*output_every, ...`` plus ``t_end`` (s)."""
    step = dt * output_every
    n = int(np.floor(t_end / step + 1e-9))
    t = step * np.arange(n + 1)
    if t[-1] < t_end - 1e-9 * step:
        t = np.append(t, t_end)
    return t


def _check_arguments(chain, t_end, dt, output_every, rtol, atol):
    from .chain import Chain
    from .element import check_positive
    if not isinstance(chain, Chain):
        raise TypeError(f"chain must be a rancf.Chain, got {type(chain).__name__}")
    t_end, dt = check_positive("t_end", t_end), check_positive("dt", dt)
    if dt > t_end:
        raise ValueError(f"dt must be in (0, t_end = {t_end}], got {dt}")
    if isinstance(output_every, bool) or not isinstance(output_every, (int, np.integer)) \
            or output_every < 1:
        raise ValueError(f"output_every must be an integer >= 1, got {output_every!r}")
    check_positive("rtol", rtol), check_positive("atol", atol)
    return t_end, dt


def simulate(chain, t_end, dt, method="rk4", output_every=10, state=None,
             formulation="recursive", rtol=1e-6, atol=1e-8, max_displacement=None,
             check_stability=True, **implicit_options):
    """Integrate the motion of ``chain`` from ``state`` (default: straight, at rest) to ``t_end``.

    Parameters
    ----------
    chain : Chain
    t_end : float
        Final time (s), > 0.
    dt : float
        Step (s) of a fixed-step method; initial step of an adaptive one. 0 < dt <= t_end.
    method : str
        ``"rk4"`` (fixed step, Cython, GIL released), ``"dopri5"`` (adaptive Dormand-Prince
        5(4), Cython, ``rtol``/``atol``), or ``"scipy:RK45" | "scipy:DOP853" |
        "scipy:Radau" | "scipy:BDF" | "scipy:LSODA"`` (``scipy.integrate.solve_ivp`` on the
        same right-hand side), or an implicit method of :mod:`rancf.implicit`: ``"newmark" |
        "hht" | "generalized-alpha" | "generalized-alpha-s" | "backward-euler"`` (fixed step, Newton iterations;
        for ``formulation="recursive"``, revolute chains only, :mod:`rancf.implicit_recursive`).
    output_every : int
        Results are kept every ``output_every * dt`` seconds (and at ``t_end``).
    state : State, optional
        Initial state (:meth:`Chain.state`).
    formulation : {"recursive", "dae"}
        The O(n) recursive formulation, or the classical one (all node coordinates, joint
        constraints, Lagrange multipliers; :mod:`rancf.dae`), which takes the implicit
        methods only.
    rtol, atol : float
        Tolerances of the adaptive methods.
    max_displacement : float, optional
        A node farther than this from the origin along x or y (m) counts as divergence;
        default 100 times the chain length. Explicit methods only (an implicit run stops when
        Newton fails or the state exceeds 1e8; passing it there is an error).
    check_stability : bool
        For ``"rk4"``, reject a step beyond the stability limit ``2 sqrt(2) / omega_max``,
        with ``omega_max`` bounded from below by power iteration at the initial state.

    implicit_options
        For the implicit methods: ``projection`` ("dae" only: project q, q', q'' on the
        constraint manifolds every step; False, True / "euclidean" as the paper, or "mass"
        for the kinetic-energy metric), ``linear_solver`` ("dense" | "sparse", "dae"
        only), ``alpha`` ("hht", in [2/3, 1]), ``rho_inf`` (generalized-alpha methods, in
        [0, 1]), ``tol`` (Newton tolerance on the position increment, absolute, m; default 1e-10),
        ``max_iter`` (Newton iterations per step). ``Result.extra`` then holds
        ``constraint_violation`` and ``newton_iterations`` (:func:`rancf.dae.chain_result`).

    Returns
    -------
    Result
        ``status`` is "ok", or "diverged"/"failed" with the results up to that time.
    """
    t_end, dt = _check_arguments(chain, t_end, dt, output_every, rtol, atol)
    if formulation not in ("recursive", "dae"):
        raise ValueError(f"formulation must be one of ['dae', 'recursive'], got {formulation!r}")
    state = chain.straight_state() if state is None else state
    if formulation == "dae" or method in IMPLICIT_METHODS:
        if max_displacement is not None:
            raise TypeError("max_displacement applies to the explicit methods; the implicit "
                            "methods stop when Newton fails or the state exceeds 1e8")
        return _run_implicit(chain, t_end, dt, method, output_every,
                             chain.state(state.nodes, state.beta), formulation, **implicit_options)
    if implicit_options:
        raise TypeError(f"options {sorted(implicit_options)} apply to the implicit methods "
                        f"{sorted(IMPLICIT_METHODS)} only")
    y0 = state_vector(chain, state)
    bound = 100.0 * chain.total_length if max_displacement is None else \
        float(max_displacement)
    t_out = output_times(t_end, dt, output_every)
    if method in SCHEMES:
        scheme = SCHEMES[method]
        if check_stability and scheme.imaginary_stability is not None:
            omega = highest_frequency(chain, state)
            if dt * omega > scheme.imaginary_stability:
                limit = scheme.imaginary_stability / omega
                raise ValueError(
                    f"dt = {dt:g} s exceeds the {method} stability limit {limit:.3g} s of this "
                    f"chain (highest natural frequency >= {omega:.4g} rad/s at the initial "
                    f"state); use dt <= {limit:.3g} s or an adaptive or implicit method")
        return _run_explicit(chain, scheme, method, y0, t_out, dt, rtol, atol, bound)
    if isinstance(method, str) and method.startswith("scipy:") and \
            method[6:] in SCIPY_METHODS:
        return _run_scipy(chain, method, y0, t_out, dt, rtol, atol, bound)
    known = sorted(SCHEMES) + [f"scipy:{m}" for m in SCIPY_METHODS]
    raise ValueError(f"method must be one of {known}, got {method!r}")


def _result(chain, t, Y, method, status, message, stats, wall_time):
    model = model_of(chain)
    n = 4 * chain.n_nodes
    velocities = np.empty((len(t), n))
    for i in range(len(t)):
        model.node_velocities(Y[i, :n], Y[i, n:], velocities[i])
    return Result(chain, t, Y[:, :n].reshape(len(t), -1, 4), velocities.reshape(len(t), -1, 4),
                  beta=Y[:, n:], status=status, message=message, method=method,
                  formulation="recursive", stats=stats, wall_time=wall_time)


def _run_explicit(chain, scheme, method, y0, t_out, dt, rtol, atol, bound):
    model = model_of(chain)
    Y = np.empty((len(t_out), model.n_y))
    start = time.perf_counter()
    n_saved, code, t, nfev, n_acc, n_rej = _explicit.integrate(
        model, y0, t_out, dt, scheme.A, scheme.b, scheme.c, scheme.b_err, scheme.fsal,
        scheme.error_order, rtol, atol, bound, Y)
    wall = time.perf_counter() - start
    status, why = _STATUS[code]
    message = f"{why} at t = {t:.6g} s" if code else ""
    stats = {"nfev": nfev, "steps": n_acc, "rejected": n_rej}
    return _result(chain, t_out[:n_saved], Y[:n_saved], method, status, message, stats, wall)


def _run_scipy(chain, method, y0, t_out, dt, rtol, atol, bound):
    model = model_of(chain)
    n_nodes = chain.n_nodes

    def fun(t, y):
        y = np.ascontiguousarray(y, dtype=float)   # Radau/BDF pass strided Jacobian columns
        ydot = np.empty_like(y)
        model.rhs(y, ydot)
        return ydot

    def escaped(t, y):
        return bound - np.abs(y[:4 * n_nodes].reshape(-1, 4)[:, :2]).max()
    escaped.terminal = True

    start = time.perf_counter()
    try:
        sol = solve_ivp(fun, (0.0, t_out[-1]), y0, method=method[6:], t_eval=t_out,
                        rtol=rtol, atol=atol, first_step=dt, events=escaped)
        status, message = ("ok", "") if sol.status == 0 else ("failed", sol.message)
        if sol.status == 1:
            status, message = "diverged", f"a node left the displacement bound at t = {sol.t_events[0][0]:.6g} s"
        t, Y = sol.t, np.ascontiguousarray(sol.y.T)
        stats = {"nfev": sol.nfev, "njev": sol.njev, "nlu": sol.nlu}
    except ArithmeticError as exc:
        t, Y = t_out[:1], y0[None, :].copy()
        status, message, stats = "failed", str(exc), {}
    if not np.all(np.isfinite(Y)):
        good = np.all(np.isfinite(Y), axis=1)
        n = int(np.argmin(good)) if not good.all() else len(good)
        status, message = "diverged", f"the state became non-finite after t = {t[max(n - 1, 0)]:.6g} s"
        t, Y = t[:n], Y[:n]
    return _result(chain, t, Y, method, status, message, stats, time.perf_counter() - start)


def _run_implicit(chain, t_end, dt, method, output_every, state, formulation, **options):
    """The implicit methods: the classical DAE or the implicit recursive formulation."""
    if method not in IMPLICIT_METHODS:
        raise ValueError(f"method must be one of {sorted(IMPLICIT_METHODS)} for formulation "
                         f"{formulation!r}, got {method!r}")
    steps = t_end / dt
    if abs(steps - round(steps)) > 1e-9 * steps:
        raise ValueError(f"t_end / dt must be an integer for the implicit methods, got {steps!r}")
    if formulation == "dae":
        from .dae import simulate as run
    else:
        from .implicit_recursive import simulate as run
    return run(chain, t_end, dt, method, output_every, state, **options)
