# The call from a compiled kernel to its Python inputs (rancf/formulations/inputs.py's Inputs,
# rancf/formulations/spatial.py's): one inline function, compiled into each kernel that cimports
# it, so that a time step without Python inputs never takes the GIL.

cdef inline int call_inputs(void* inputs, int which, double t) noexcept with gil:
    """Evaluate the Python inputs at time t (s): ``which`` 0 their functions of t
    (``inputs.at_time(t)``: drives and loads), 1 the efforts of (t, q, qd)
    (``inputs.efforts(t)``, after the kernel has left q and qd where the inputs read them).

    Returns 0, or 1 when a function raised: its exception is kept in ``inputs.error`` for the
    Result and the kernel returns ODE_INPUT_RAISED."""
    try:
        if which == 0:
            (<object>inputs).at_time(t)
        else:
            (<object>inputs).efforts(t)
        return 0
    except BaseException as exc:
        (<object>inputs).error = exc
        return 1
