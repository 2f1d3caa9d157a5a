"""The stepping loop of the explicit Runge-Kutta schemes, written once (GIL released).

It takes the scheme's Butcher tableau; a scheme with an embedded error estimate is stepped
adaptively (Hairer's step-size controller), one without at the fixed step ``h``. Steps are
shortened to land on the output times exactly.

It runs any formulation through the ODE contract
(:class:`rancf.formulations._problem.ODEProblem`): the right-hand side, called with the stage
times so that drives and loads see t, the check of each accepted state, and the branch of the
joint angles, which follows every accepted step and is kept beside the state at every output so
that the angles are read on the right branch afterwards, and the problem's re-centring of an
accepted state (a rotation vector moved to its equivalent below pi).

Status codes: 0 finished, 1 non-finite state, 2 displacement bound exceeded (the contract's
check), 3 singular generalized mass, 5 an input function raised, 7 a held slope turned over (the
right-hand side's; an adaptive scheme rejects a step that meets 7 at a stage, and stops with it
at the step floor), 4 step size underflow (adaptive only), 6 interrupted (Ctrl-C; checked once
per step, :mod:`rancf.integrators._interrupt`, which also feeds a progress report).
"""
import numpy as np

from libc.math cimport fabs, sqrt, pow, fmax, fmin

from rancf.formulations._problem cimport (ODEProblem, ODE_OK, ODE_STEP_FLOOR, ODE_INTERRUPTED,
                                          ODE_TURNED_OVER)
from rancf.integrators._interrupt cimport Watch, start_watch, interrupted


cdef inline void _axpy(int n, double a, const double* x, double* y) noexcept nogil:
    """y (n) += a x."""
    cdef int m
    for m in range(n):
        y[m] += a * x[m]


def integrate(ODEProblem problem, const double[::1] y0, const double[::1] t_out,
              double h, const double[:, ::1] A, const double[::1] b, const double[::1] c,
              const double[::1] b_err, bint fsal, int order, double rtol, double atol,
              double bound, double[:, ::1] Y, double[:, ::1] Q, progress=None, kept=None):
    """Integrate y' = f(t, y) from t = 0 and store y at the times ``t_out`` into ``Y``.

    Parameters
    ----------
    problem : ODEProblem
        Right-hand side, checks and branch (module docstring).
    y0 : (n_y,)
        Initial state; ``t_out[0]`` must be 0.
    t_out : (n_out,)
        Increasing output times (s).
    h : float
        Fixed step (s), or the initial step of an adaptive scheme.
    A, b, c : Butcher tableau (n_stages x n_stages, n_stages, n_stages).
    b_err : (n_stages,) or empty
        ``b - b_hat`` of an embedded pair; empty for a fixed-step scheme.
    fsal : bool
        Last stage is f at the new point (reused as the next first stage).
    order : int
        Order of the error estimate's lower-order solution + 1 (the controller exponent).
    rtol, atol : float
        Tolerances of the adaptive controller.
    bound : float
        Largest admissible |x| or |y| of a node (m).
    Y : (n_out, n_y)
        Output, filled row by row.
    Q : (n_out, problem.n_branch)
        The branch of the joint angles at each output.
    progress : callable, optional
        ``progress(t, steps)``, called every 0.1 s of wall time (rancf.integrators._interrupt).
    kept : list, optional
        Where the values of the problem's input functions at each stored output go, one row
        an output (``problem.keep_inputs``; rancf.formulations.inputs.Recorded): taken from
        the evaluation the loop makes at the output's state anyway (the next step's first
        stage, or a first-same-as-last stage), so that an output costs a copy of them; the
        last output's evaluated once more. An output where that evaluation fails (an input
        function raises or returns no number, the mass is singular) is not stored: the run
        stops with that status, its outputs the ones before, each with its row (a run without
        input functions keeps that output). None: none kept.

    Returns
    -------
    n_saved, status, t, nfev, n_accepted, n_rejected
    """
    cdef int n_y = problem.n_y, n_stages = b.shape[0], n_out = t_out.shape[0]
    if (y0.shape[0] != n_y or Y.shape[0] != n_out or Y.shape[1] != n_y or Q.shape[0] != n_out
            or Q.shape[1] != problem.n_branch or A.shape[0] != n_stages or A.shape[1] != n_stages
            or c.shape[0] != n_stages or (b_err.shape[0] not in (0, n_stages)) or n_out < 1
            or n_stages < 1):
        raise ValueError("integrate: inconsistent array shapes")
    if not (h > 0.0 and t_out[0] == 0.0 and np.all(np.diff(t_out) > 0.0)
            and np.all(np.isfinite(y0))):
        raise ValueError("integrate: need h > 0, increasing output times from 0, a finite y0")
    cdef bint adaptive = b_err.shape[0] > 0
    # work arrays of at least one entry: a tree whose every coordinate is driven has no state,
    # and the loop still takes their addresses
    cdef int n_work = max(n_y, 1)
    cdef double[:, ::1] k = np.zeros((n_stages, n_work))
    cdef double[::1] y = np.zeros(n_work)
    cdef double[::1] ys = np.empty(n_work)
    cdef double[::1] yn = np.empty(n_work)
    cdef int n_saved = 1, status = ODE_OK, i, j, m, nfev = 0, n_acc = 0, n_rej = 0
    cdef bint have_k0 = False, hit
    cdef bint keeping = kept is not None
    # the stored output whose input values wait for the loop's evaluation at its state (-1: none)
    cdef int pending = 0 if keeping else -1
    cdef double t = 0.0, hh, err, sc, e, target, factor
    cdef Watch watch
    y[:n_y] = y0
    Y[0, :] = y0
    # a problem without branches (a spatial tree) has empty rows of Q: no address to take
    if problem.n_branch:
        problem.keep_branch(&Q[0, 0])
    start_watch(&watch, progress)
    with nogil:
        while n_saved < n_out:
            target = t_out[n_saved]
            hh = h
            hit = t + hh >= target - 1e-6 * hh
            if hit:
                hh = target - t
            if not have_k0:
                status = problem.rate(t, &y[0], &k[0, 0])
                nfev += 1
                if status:
                    if pending >= 0:
                        # at the pending output's state: its input values cannot be kept, so
                        # it is left out as the outputs after a failure are (``kept`` has a
                        # row for every stored output; the frames end at the last good one)
                        n_saved = pending
                    break
                if pending >= 0:
                    # the first stage is at the pending output's time and state
                    with gil:
                        status = problem.keep_inputs(kept, t, &y[0], True)
                    pending = -1
                    if status:
                        break
            # y + sum_j (h a_ij) k_j, term after term in j as written, each term a pass over
            # the state (a loop the compiler vectorizes; the sums keep their order, so their bits)
            for i in range(1, n_stages):
                for m in range(n_y):
                    ys[m] = y[m]
                for j in range(i):
                    _axpy(n_y, hh * A[i, j], &k[j, 0], &ys[0])
                nfev += 1
                status = problem.rate(t + c[i] * hh, &ys[0], &k[i, 0])
                if status:
                    break
            if status == ODE_TURNED_OVER and adaptive:
                # a stage's held slope turned over: the motion is not defined there, reject the
                # step as one whose error is too large (a slope that really turns over ends at
                # the step floor, with that status)
                n_rej += 1
                h = 0.2 * hh
                have_k0 = True
                if h < 1e-14 * fmax(1.0, t):
                    break
                status = ODE_OK
                continue
            if status:
                break
            for m in range(n_y):
                yn[m] = y[m]
            for j in range(n_stages):
                _axpy(n_y, hh * b[j], &k[j, 0], &yn[0])
            if adaptive:
                err = 0.0
                for m in range(n_y):
                    e = 0.0
                    for j in range(n_stages):
                        e += hh * b_err[j] * k[j, m]
                    sc = atol + rtol * fmax(fabs(y[m]), fabs(yn[m]))
                    err += (e / sc) * (e / sc)
                err = sqrt(err / n_y)
                factor = 5.0 if err == 0.0 else fmin(5.0, fmax(0.2, 0.9 * pow(err, -1.0 / order)))
                if not err <= 1.0:
                    n_rej += 1
                    h = hh * fmin(1.0, factor)
                    have_k0 = True
                    if h < 1e-14 * fmax(1.0, t):
                        status = ODE_STEP_FLOOR
                        break
                    continue
                h = fmax(h, hh * factor) if hit else hh * factor
            n_acc += 1
            t = target if hit else t + hh
            for m in range(n_y):
                y[m] = yn[m]
            if fsal:
                for m in range(n_y):
                    k[0, m] = k[n_stages - 1, m]
            have_k0 = fsal
            # the last evaluation (the last stage, at t + h) is within one step of the accepted
            # state: close enough to follow the branch of the joint angles
            problem.accept()
            if problem.recentre(&y[0]):
                have_k0 = False
            status = problem.check(&y[0], bound)
            if status:
                break
            if interrupted(&watch, t):
                status = ODE_INTERRUPTED
                break
            if hit:
                for m in range(n_y):
                    Y[n_saved, m] = y[m]
                if problem.n_branch:
                    problem.keep_branch(&Q[n_saved, 0])
                if keeping:
                    if have_k0:
                        # first-same-as-last: the last stage was at this state (its time
                        # within round-off of t), its values are the output's
                        with gil:
                            status = problem.keep_inputs(kept, t, &y[0], True)
                        if status:
                            n_saved += 1
                            break
                    else:
                        pending = n_saved
                n_saved += 1
    if pending >= 0 and pending < n_saved and status == ODE_OK:
        # the last output: one evaluation at its state (a run that stopped kept the values of
        # every output it stored, the one it stopped at left out)
        for m in range(n_y):
            y[m] = Y[pending, m]
        # an input function that fails there (a Ctrl-C inside it) ends the run so, that
        # output left out
        status = problem.keep_inputs(kept, t_out[pending], &y[0], False)
        if status:
            del kept[pending:]
            n_saved = pending
    return n_saved, status, t, nfev, n_acc, n_rej
