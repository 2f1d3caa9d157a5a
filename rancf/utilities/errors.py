"""The exceptions of a function given to a model: one that raised (one type for every drive,
effort and load function, the function's own exception chained to it unchanged), and one that
returned what is not a value."""


class UserFunctionError(RuntimeError):
    """A function given to a model raised: a joint's ``drive(t)`` or ``effort(t, q, qd)``, a
    load's ``force(t)`` or ``moment(t)``.

    Raised ``from`` the function's exception, which is its ``__cause__``, unchanged (type,
    arguments, attributes and traceback: it is not re-created, so an exception whose constructor
    takes other arguments than a message comes through as raised). The message names the
    function, its joint or load and the time.

    One rule, every method and formulation (``rancf.simulate``, ``rancf.static``): a run's
    set-up evaluates every function at the start state (t = 0 and the start's q, qd:
    :meth:`rancf.Model.build` the drives; the initial accelerations, statics' first residual,
    the explicit methods' :func:`~rancf.integrators.explicit.start_inputs` the efforts and
    loads). A function that raises there raises this error out of the call: nothing has been
    computed, there is no output to keep. One that raises later (at t > 0, or at a Newton
    iterate of statics) stops the run with status ``"failed"``, which keeps its outputs up to
    then and holds it in :attr:`rancf.Result.error`.

    A ``RuntimeError``: what failed is an evaluation of the model while it ran, not an argument
    of a call (those are ``ValueError`` or ``TypeError``, naming the parameter); a
    ``RuntimeError`` is what the stepping loops take as the failure of a run.

    Parameters
    ----------
    message : str
        What raised, where and when (the message).
    function, index, t
        The attributes below (None when not known).

    Attributes
    ----------
    function : {"drive", "effort", "force", "moment"}
        Which function raised.
    index : int
        The number of its joint (``drive``, ``effort``) or load (``force``, ``moment``).
    t : float
        The time of the call (s).

    Examples
    --------
    >>> m = rancf.Model()
    >>> b = m.add_beam(1.0, 2, E=2e9, rho=7800.0, A=1e-4, I=1e-9)
    >>> def effort(t, q, qd):
    ...     if t > 0.01:
    ...         raise KeyError("sensor 3")
    ...     return 0.0
    >>> j = m.add_joint("revolute", m.ground.point(0, 0), b.start, effort=effort)
    >>> res = rancf.simulate(m, 0.05, 1e-4)      # RK4, outputs every 1 ms
    >>> res.status, float(res.t[-1])             # the outputs before the failure are kept
    ('failed', 0.01)
    >>> res.error                                # at the midpoint stage of the step from 0.01 s
    UserFunctionError("effort of joint 0 raised KeyError at t = 0.01005 s: 'sensor 3'")
    >>> res.error.__cause__
    KeyError('sensor 3')
    """

    def __init__(self, message, function=None, index=None, t=None):
        super().__init__(message)
        self.function, self.index, self.t = function, index, t


class ReturnedValueError(ValueError):
    """A function given to a model returned what is not a value of its kind (not a number, the
    wrong number of them, not finite): a joint's ``drive(t)`` or ``effort(t, q, qd)``, a
    load's ``force(t)`` or ``moment(t)``. The message names the function, its joint or load,
    what it must return, what it returned and the time.

    A ``ValueError`` (what the function gave is not a value, as an argument out of range is),
    of its own type so that a run can tell it from what its own arithmetic raises: like a
    :class:`UserFunctionError`, it is the user's to fix, and no smaller step or load step
    helps (statics' load stepping stops at once, :func:`rancf.integrators.static.step_loads`).
    The same rule as :class:`UserFunctionError` otherwise: out of the call at the start, a
    run stopped with status ``"failed"`` later, held in :attr:`rancf.Result.error`.

    Parameters
    ----------
    message : str
        What the function returned, where and when (the message).
    function, index, t
        The attributes below (None when not known).

    Attributes
    ----------
    function, index, t
        As :class:`UserFunctionError`'s (which function, its joint or load, the time in s).

    Examples
    --------
    >>> m = rancf.Model()
    >>> b = m.add_beam(1.0, 2, E=2e9, rho=7800.0, A=1e-4, I=1e-9)
    >>> def effort(t, q, qd):
    ...     return float("nan") if t > 0.01 else 0.0
    >>> j = m.add_joint("revolute", m.ground.point(0, 0), b.start, effort=effort)
    >>> res = rancf.simulate(m, 0.05, 1e-4)      # RK4, outputs every 1 ms
    >>> res.status, float(res.t[-1])             # the outputs before the failure are kept
    ('failed', 0.01)
    >>> res.error
    ReturnedValueError('effort of joint 0 must return a finite number, got nan at t = 0.01005 s')
    """

    def __init__(self, message, function=None, index=None, t=None):
        super().__init__(message)
        self.function, self.index, self.t = function, index, t


#: The exceptions that say a function given to a model failed (raised, or returned no value):
#: the user's to fix, not the solver's reach.
USER_FUNCTION_ERRORS = (UserFunctionError, ReturnedValueError)


def raised(exc, function, owner, index, t):
    """The :class:`UserFunctionError` of ``exc``, raised by the ``function`` of ``owner``
    (``"joint"`` or ``"load"``) number ``index`` at time ``t`` (s); raise it ``from exc``."""
    return UserFunctionError(f"{function} of {owner} {index} raised {type(exc).__name__} at "
                             f"t = {t:g} s: {exc}", function, index, t)
