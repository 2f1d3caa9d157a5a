"""The stepping loop of the explicit Runge-Kutta schemes, written once (GIL released).

It takes the scheme's Butcher tableau; a scheme with an embedded error estimate is stepped
adaptively (Hairer's step-size controller), one without at the fixed step ``h``. Steps are
shortened to land on the output times exactly.

The right-hand side is the recursive formulation's (``rancf/formulations/_recursive.pyx``),
called with the stage times, so drives and loads see t. At every output the joint angles' branch
(``qref``) is kept beside the state, so the angles are read on the right branch afterwards.

Status codes: 0 finished, 1 non-finite state, 2 displacement bound exceeded, 3 singular
generalized mass, 4 step size underflow (adaptive only), 5 an input function raised,
6 interrupted (Ctrl-C; checked once per step, :mod:`rancf.integrators._interrupt`, which also
feeds a progress report), 7 a held slope turned over (the right-hand side's status; an adaptive
scheme rejects a step that meets it at a stage, and stops with it at the step floor).
"""
import numpy as np

from libc.math cimport fabs, sqrt, pow, isfinite, fmax, fmin

from libc.string cimport memcpy

from rancf.elements._beam cimport NODE
from rancf.formulations._recursive cimport Tree, RecursiveKernel, rhs, track_joints
from rancf.integrators._interrupt cimport Watch, start_watch, interrupted


cdef int _check(const double* y, int n_y, int n_vertices, double bound) noexcept nogil:
    cdef int i
    for i in range(n_y):
        if not isfinite(y[i]):
            return 1
    for i in range(n_vertices):
        if fabs(y[NODE * i]) > bound or fabs(y[NODE * i + 1]) > bound:
            return 2
    return 0


def integrate(RecursiveKernel model, const double[::1] y0, const double[::1] t_out,
              double h, const double[:, ::1] A, const double[::1] b, const double[::1] c,
              const double[::1] b_err, bint fsal, int order, double rtol, double atol,
              double bound, double[:, ::1] Y, double[:, ::1] Q, progress=None):
    """Integrate y' = f(t, y) from t = 0 and store y at the times ``t_out`` into ``Y``.

    Parameters
    ----------
    model : RecursiveKernel
        Right-hand side.
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
    Q : (n_out, max(n_joints, 1))
        The branch of the joint angles at each output.
    progress : callable, optional
        ``progress(t, steps)``, called every 0.1 s of wall time (rancf.integrators._interrupt).

    Returns
    -------
    n_saved, status, t, nfev, n_accepted, n_rejected
    """
    cdef Tree* d = &model.data
    cdef int n_y = model.n_y, n_stages = b.shape[0], n_out = t_out.shape[0]
    cdef int n_q = Q.shape[1]
    if (y0.shape[0] != n_y or Y.shape[0] != n_out or Y.shape[1] != n_y or Q.shape[0] != n_out
            or n_q != max(d.m.n_joints, 1) or A.shape[0] != n_stages or A.shape[1] != n_stages
            or c.shape[0] != n_stages or (b_err.shape[0] not in (0, n_stages)) or n_out < 1
            or n_stages < 1):
        raise ValueError("integrate: inconsistent array shapes")
    if not (h > 0.0 and t_out[0] == 0.0 and np.all(np.diff(t_out) > 0.0)
            and np.all(np.isfinite(y0))):
        raise ValueError("integrate: need h > 0, increasing output times from 0, a finite y0")
    cdef bint adaptive = b_err.shape[0] > 0
    cdef double[:, ::1] k = np.zeros((n_stages, n_y))
    cdef double[::1] y = np.array(y0)
    cdef double[::1] ys = np.empty(n_y)
    cdef double[::1] yn = np.empty(n_y)
    cdef int n_saved = 1, status = 0, i, j, m, nfev = 0, n_acc = 0, n_rej = 0
    cdef bint have_k0 = False, hit
    cdef double t = 0.0, hh, err, sc, e, target, factor
    cdef Watch watch
    Y[0, :] = y0
    memcpy(&Q[0, 0], d.qref, n_q * sizeof(double))
    start_watch(&watch, progress)
    with nogil:
        while n_saved < n_out:
            target = t_out[n_saved]
            hh = h
            hit = t + hh >= target - 1e-6 * hh
            if hit:
                hh = target - t
            if not have_k0:
                status = rhs(d, t, &y[0], &k[0, 0])
                nfev += 1
                if status:
                    break
            for i in range(1, n_stages):
                for m in range(n_y):
                    ys[m] = y[m]
                    for j in range(i):
                        ys[m] += hh * A[i, j] * k[j, m]
                nfev += 1
                status = rhs(d, t + c[i] * hh, &ys[0], &k[i, 0])
                if status:
                    break
            if status == 7 and adaptive:
                # a stage's held slope turned over: the motion is not defined there, reject the
                # step as one whose error is too large (a slope that really turns over ends at
                # the step floor, with status 7)
                n_rej += 1
                h = 0.2 * hh
                have_k0 = True
                if h < 1e-14 * fmax(1.0, t):
                    break
                status = 0
                continue
            if status:
                break
            for m in range(n_y):
                yn[m] = y[m]
                for j in range(n_stages):
                    yn[m] += hh * b[j] * k[j, m]
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
                        status = 4
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
            track_joints(d)
            status = _check(&y[0], n_y, d.n_v, bound)
            if status:
                break
            if interrupted(&watch, t):
                status = 6
                break
            if hit:
                for m in range(n_y):
                    Y[n_saved, m] = y[m]
                memcpy(&Q[n_saved, 0], d.qref, n_q * sizeof(double))
                n_saved += 1
    return n_saved, status, t, nfev, n_acc, n_rej
