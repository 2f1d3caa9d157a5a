# Ctrl-C and progress reports for the compiled stepping loops (see rancf/integrators/_interrupt.pyx).

cdef struct Watch:
    double last          # monotonic time (s) of the last look at the signals
    long steps           # steps taken since start_watch
    void* progress       # a Python callable progress(t, steps), or NULL

cdef void start_watch(Watch* w, object progress) noexcept
cdef bint interrupted(Watch* w, double t) noexcept nogil
