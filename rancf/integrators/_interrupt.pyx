"""Ctrl-C (SIGINT) and progress reports inside the compiled stepping loops (developer: Ctrl-C and
progress in compiled loops).

The loops run without the GIL (or without Python calls), so Python's signal handler cannot run
until they return. They call :c:func:`interrupted` once per step: it counts the step and reads
the monotonic clock (tens of nanoseconds, nothing next to a step), and at most every 0.1 s takes
the GIL to let Python handle pending signals. A KeyboardInterrupt found there is cleared and
reported as 1: the loop stops and the caller returns the results so far with status
"interrupted". Checking by wall time rather than by step count keeps the response under half a
second whatever a step costs.

At the same looks, a ``progress(t, steps)`` callable given to :c:func:`start_watch` receives the
simulated time and the steps taken (a progress bar: :mod:`rancf.integrators.progress`), so it
is fed every 0.1 s of wall time, whatever the size of the model, and costs nothing between looks. An
exception it raises (but a KeyboardInterrupt, which interrupts) is reported as a
RuntimeWarning and the reports stop; the run goes on.
"""
import warnings

from cpython.exc cimport PyErr_CheckSignals
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC

cdef double PERIOD = 0.1   # s between looks at the signals


cdef inline double _now() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + 1e-9 * ts.tv_nsec


cdef void start_watch(Watch* w, object progress) noexcept:
    """Start counting; ``progress`` (None or a callable) must outlive the loop."""
    w.last = _now()
    w.steps = 0
    w.progress = NULL if progress is None else <void*>progress


cdef bint _look(Watch* w, double t) noexcept with gil:
    try:
        PyErr_CheckSignals()
    except BaseException:   # KeyboardInterrupt, or any exception a handler raised
        return True
    if w.progress == NULL:
        return False
    try:
        (<object>w.progress)(t, w.steps)
    except KeyboardInterrupt:
        return True
    except BaseException as exc:
        w.progress = NULL
        warnings.warn(f"the progress report raised {exc!r}; the run goes on without it",
                      RuntimeWarning)
    return False


cdef bint interrupted(Watch* w, double t) noexcept nogil:
    """Count a step; True when a signal handler raised (Ctrl-C) since the last look (see the
    module docstring); at a look, report the progress at simulated time t."""
    cdef double now
    w.steps += 1
    now = _now()
    if now - w.last < PERIOD:
        return False
    w.last = now
    return _look(w, t)
