"""Ctrl-C (SIGINT) inside the compiled stepping loops (DECISIONS.md 15).

The loops run without the GIL, so Python's signal handler cannot run until they return. They
call :c:func:`interrupted` once per step: it reads the monotonic clock (tens of nanoseconds,
nothing next to a step), and at most every 0.1 s takes the GIL to let Python handle pending
signals. A KeyboardInterrupt found there is cleared and reported as 1: the loop stops and the
caller returns the results so far with status "interrupted". Checking by wall time rather than
by step count keeps the response under half a second whatever a step costs.
"""
from cpython.exc cimport PyErr_CheckSignals
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC

cdef double PERIOD = 0.1   # s between looks at the signals


cdef inline double _now() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + 1e-9 * ts.tv_nsec


cdef void start_watch(Watch* w) noexcept nogil:
    w.last = _now()


cdef bint _signals() noexcept with gil:
    try:
        PyErr_CheckSignals()
    except BaseException:   # KeyboardInterrupt, or any exception a handler raised
        return True
    return False


cdef bint interrupted(Watch* w) noexcept nogil:
    """True when a signal handler raised (Ctrl-C) since the last look (see module docstring)."""
    cdef double now = _now()
    if now - w.last < PERIOD:
        return False
    w.last = now
    return _signals()
