# Ctrl-C for the compiled stepping loops (see rancf/integrators/_interrupt.pyx).

cdef struct Watch:
    double last          # monotonic time (s) of the last look at the signals

cdef void start_watch(Watch* w) noexcept nogil
cdef bint interrupted(Watch* w) noexcept nogil
