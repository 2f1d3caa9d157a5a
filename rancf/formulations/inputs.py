"""The time-dependent inputs of a model: drives, load functions and joint efforts.

The compiled kernels read drives, loads and efforts from arrays (``drive`` (n_joints, 3) of
q, qd, qdd; ``effort``; ``load_force``; ``load_moment``). Constant ones are written once; the
Python callables of a model are evaluated here, once per evaluation of the equations: drives
and load functions of t before the kinematics (:meth:`Inputs.at_time`), efforts of (t, q, qd)
after the joint coordinates are known (:meth:`Inputs.efforts`; their derivatives for Newton's
matrix by :meth:`Inputs.effort_slopes`). A callable that raises stops the
run: the kernel returns a status and the exception is kept in ``error`` (a
:class:`rancf.UserFunctionError`, the callable's own exception chained to it).
"""
import numpy as np

from ..utilities.errors import UserFunctionError


class Inputs:
    """Writes a model's time-dependent inputs into the kernel arrays.

    Parameters
    ----------
    assembly : rancf.model.Assembly
    arrays : dict of ndarray
        The kernel arrays (``drive``, ``effort``, ``load_force``, ``load_moment``).
    q, qd : ndarray (n_joints,)
        Where the kernel leaves the joint coordinates read by the efforts.
    """

    def __init__(self, assembly, arrays, q, qd):
        self.drive = arrays["drive"].reshape(-1, 3)
        self.effort = arrays["effort"]
        self.load_force = arrays["load_force"].reshape(-1, 2)
        self.load_moment = arrays["load_moment"]
        self.q, self.qd = q, qd
        self.driven = [(k, j) for k, j in enumerate(assembly.joints) if j.driven]
        self.timed = [(k, l) for k, l in enumerate(assembly.loads) if l.time_dependent]
        self.effort_joints = [(k, j) for k, j in enumerate(assembly.joints) if callable(j.effort)]
        self.time_dependent = bool(self.driven or self.timed)
        self.effort_dependent = bool(self.effort_joints)
        self.error = None
        self.effort_t = np.nan
        #: a :class:`Recorded` played back in place of the functions, or None
        self.played = None

    def at_time(self, t):
        """Drive values and load functions at t (s)."""
        if self.played is not None:
            return self.played.write(self, t, ("drive", "load_force", "load_moment"))
        for k, j in self.driven:
            self.drive[k] = j.drive_values(t)
        for k, load in self.timed:
            self.load_force[k], self.load_moment[k] = load.values(t)

    def efforts(self, t):
        """Effort functions at (t, q, qd) of their joints; ``effort_t`` the time of the values
        ``effort`` holds then, at ``q`` and ``qd`` (NaN while a call is under way)."""
        self.effort_t = np.nan
        if self.played is not None:
            self.played.write(self, t, ("effort",))
        else:
            for k, j in self.effort_joints:
                self.effort[k] = j.effort_value(t, float(self.q[k]), float(self.qd[k]))
        self.effort_t = t

    def keep(self):
        """The arrays the functions write (``drive``, ``load_force``, ``load_moment``,
        ``effort``: those of the kinds the model has), copied: a :class:`Recorded` row. A loop
        calls it at an output whose time and state its last evaluation was at (an output then
        costs these copies, no call)."""
        names = (("drive",) if self.driven else ()) + \
            (("load_force", "load_moment") if self.timed else ()) + \
            (("effort",) if self.effort_joints else ())
        return {name: getattr(self, name).copy() for name in names}

    def effort_slopes(self, t, tau_q, tau_qd):
        """The derivatives ``dtau/dq`` and ``dtau/dqd`` of the effort functions at (t, q, qd)
        of their joints, into ``tau_q``, ``tau_qd`` (n_joints; constant efforts' entries are
        left alone), by :func:`slopes` (exact for the affine spring-dampers ``-k q - c qd``):
        four calls of each function."""
        for k, j in self.effort_joints:
            q, qd = float(self.q[k]), float(self.qd[k])
            tau_q[k] = slopes(lambda x: j.effort_value(t, float(x[0]), qd), [q])[0, 0]
            tau_qd[k] = slopes(lambda x: j.effort_value(t, q, float(x[0])), [qd])[0, 0]

    def failure(self):
        """The message of the exception a callable raised (:func:`failure_message`). The
        exception stays in ``error``, for the Result; a run that cannot tell which of its
        failures an input caused (SciPy's) clears it at its start."""
        return failure_message(self.error)


class Recorded:
    """The values a model's input functions (drives, loads of t, efforts of (t, q, qd)) gave
    at a run's outputs, kept by the run's loop at each output's converged state and played back
    in their place when the Result's deferred outputs are computed (developer: Results, files
    and sweeps): called then, the functions would give the values of that time (a drive
    replaced since, a closure over a variable a parameter study's loop has changed), not the
    run's. One type for both dimensions: the planar DAE keeps the arrays its inputs write
    (:meth:`write`), the spatial DAE the value each function returned (:meth:`played`).

    The loop keeps them (``keep_inputs`` of the DAE problems, at each output) from its last
    evaluation at the converged state, so that recording calls no function where that
    evaluation was there (its power there); an output costs a copy of the values. Computing
    the deferred outputs in the run instead (a saddle-point LU an output for the reactions)
    would cost several times the run at an output a step.

    Parameters
    ----------
    t : ndarray (n_out,)
        The output times (s), distinct (a row is found by its time).
    rows : sequence of dict
        One per output: ``{key: value}``, the key an inputs array's name (planar: ``drive``,
        ``load_force``, ``load_moment``, ``effort``) or a function's number (spatial:
        :func:`rancf.formulations.spatial_dae._input_functions` order), the value copied.
    """

    def __init__(self, t, rows):
        if len(rows) != len(t):
            raise ValueError(f"rows must give the input values of each of the {len(t)} "
                             f"outputs, got {len(rows)} (the loop keeps one at each output)")
        self.row = {float(tk): k for k, tk in enumerate(t)}
        self.rows = list(rows)
        self.keys = set(self.rows[0]) if self.rows else set()

    def value(self, key, t):
        """The value ``key`` kept at the output at time t (s) (the kept object: copy it
        before writing to it)."""
        k = self.row.get(float(t))
        if k is None:
            raise RuntimeError(f"no input values were recorded at t = {t!r} s (only at the "
                               "run's output times)")
        return self.rows[k][key]

    def write(self, inputs, t, names):
        """Write the kept arrays ``names`` of the output at time t into inputs' arrays (those
        the run's functions did not write hold constants, left alone)."""
        for name in names:
            if name in self.keys:
                getattr(inputs, name)[...] = self.value(name, t)

    def played(self, n, f):
        """The function that plays back function n's values (f: the model's, unused): its
        value at the output of time t, whatever its other arguments (the deferred outputs
        ask for it at that output's state)."""
        def call(t, *args):
            value = self.value(n, t)
            # a copy: what the caller does with it cannot reach the record
            return value.copy() if isinstance(value, np.ndarray) else value
        return call


#: The relative step of :func:`slopes`: the error of a central difference is of order its
#: square times the third derivative, its rounding of order 1e-16 / 1e-6 = 1e-10 of the values.
SLOPE_STEP = 1e-6


def slopes(f, x):
    """The Jacobian ``df/dx`` (m x n) of an input function f of x (n,) returning m numbers (a
    number: m = 1), by central differences with steps ``SLOPE_STEP max(1, |x_k|)``: 2 n calls
    of f, exact for an affine f (an effort ``-k q - c qd``). Newton's matrices take an effort
    function's slopes so (the planar recursion's and the spatial recursion's)."""
    x = np.array(x, dtype=float)
    columns = []
    for k in range(x.size):
        h = SLOPE_STEP * max(1.0, abs(x[k]))
        up, down = x.copy(), x.copy()
        up[k] += h
        down[k] -= h
        columns.append((np.atleast_1d(f(up)) - np.atleast_1d(f(down))) / (2.0 * h))
    return np.column_stack(columns)


def effort_slopes(f, t, q, qd):
    """The slopes ``(de/dq, de/dqd)`` (n x n each) of a spatial joint's effort function
    ``e = f(t, q, qd)`` at its coordinates q, qd (n,) by :func:`slopes` (4 n calls); a joint of
    one coordinate (revolute, prismatic) is called with numbers, as its effort is."""
    q, qd = np.array(q, dtype=float), np.array(qd, dtype=float)
    if q.size == 1:
        def call(a, b):
            return f(t, float(a[0]), float(b[0]))
    else:
        def call(a, b):
            return f(t, a, b)
    return slopes(lambda a: call(a, qd), q), slopes(lambda b: call(q, b), qd)


def failure_message(exc):
    """The message of an exception an input function raised (a UserFunctionError's names the
    function and its exception already); ``exc`` None: an input function failed."""
    if exc is None:
        return "an input function failed"
    return str(exc) if isinstance(exc, UserFunctionError) else f"{type(exc).__name__}: {exc}"


def drive_history(assembly, t):
    """Prescribed (q, qd) (n_out, n_joints) of the driven joints at the times t; NaN elsewhere."""
    q = np.full((len(t), assembly.n_joints), np.nan)
    qd = np.full_like(q, np.nan)
    for k, j in enumerate(assembly.joints):
        if j.driven:
            values = np.array([j.drive_values(ti) for ti in t])
            q[:, k], qd[:, k] = values[:, 0], values[:, 1]
    return q, qd
