"""Checks of user input at the Python boundary: every error names the parameter, its value and
the accepted range (``TypeError`` for a wrong type, ``ValueError`` for a wrong value)."""
import math
import numbers
import reprlib

import numpy as np


def real(name, value, low=None, high=None, low_open=False, high_open=False):
    """``value`` as a finite float within ``[low, high]`` (open ends if asked)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number, got {value!r}")
    given = value
    try:
        value = float(value)
    except OverflowError:           # an integer beyond the largest float: not finite either
        value = math.inf
    bad = not np.isfinite(value)
    if low is not None:
        bad |= value <= low if low_open else value < low
    if high is not None:
        bad |= value >= high if high_open else value > high
    if bad:
        lo = "-inf" if low is None else f"{low:g}"
        hi = "inf" if high is None else f"{high:g}"
        bounds = ("(" if low_open or low is None else "[") + f"{lo}, {hi}" + \
            (")" if high_open or high is None else "]")
        shown = repr(value) if np.isfinite(value) else reprlib.repr(given)
        raise ValueError(f"{name} must be finite and in {bounds}, got {shown}")
    return value


def positive(name, value):
    """``value`` as a finite float > 0."""
    return real(name, value, low=0.0, low_open=True)


def non_negative(name, value):
    """``value`` as a finite float >= 0."""
    return real(name, value, low=0.0)


def integer(name, value, low=None, high=None):
    """``value`` as an int within ``[low, high]``."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an integer, got {value!r}")
    value = int(value)
    if (low is not None and value < low) or (high is not None and value > high):
        lo = "-inf" if low is None else low
        hi = "inf" if high is None else high
        raise ValueError(f"{name} must be an integer in [{lo}, {hi}], got {value!r}")
    return value


def given(method, *pairs, note=""):
    """Refuse the first parameter of ``pairs`` ((name, value) each) left at None: a TypeError
    saying ``method`` misses it, as Python says of a missing argument (``note``: a phrase in
    parentheses after it). For a parameter that has a default of None only so that a call of
    another form (a curved beam's points, the other dimension's parameters) reaches its own
    check first."""
    for name, value in pairs:
        if value is None:
            raise TypeError(f"{method}() missing the parameter {name}"
                            + (f" ({note})" if note else ""))


def boolean(name, value):
    """``value`` if it is a bool (numpy's included), as a bool."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, got {value!r}")
    return bool(value)


def vector(name, value, size=2):
    """``value`` as a finite float array of shape (size,) (the message shows a shortened
    repr of it: a state's vector may have millions of entries). Text is refused, numeric text
    too: NumPy would convert ``("0", "1")``, where a number was meant and something else was
    passed."""
    try:
        raw = np.asarray(value)
        if raw.dtype.kind in "USV" or (raw.dtype.kind == "O" and any(
                isinstance(v, (str, bytes)) for v in raw.ravel())):
            raise TypeError
        arr = np.array(raw, dtype=float)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be a sequence of {size} real numbers, got "
                        f"{reprlib.repr(value)}") from None
    except OverflowError:           # an integer beyond the largest float
        raise ValueError(f"{name} must be finite, got {reprlib.repr(value)}") from None
    if arr.shape != (size,):
        raise ValueError(f"{name} must have {size} components, got {reprlib.repr(value)}")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must be finite, got {reprlib.repr(value)}")
    return arr


def choice(name, value, options):
    """``value`` if it is one of ``options``."""
    if not isinstance(value, str) or value not in options:
        raise ValueError(f"{name} must be one of {sorted(options)}, got {value!r}")
    return value


def seed(name, value):
    """``value`` if it seeds :func:`numpy.random.default_rng`: None (fresh entropy from the
    system), an integer >= 0 (as an int), or a ``numpy.random`` Generator, BitGenerator or
    SeedSequence (as given). NumPy's own refusal of another value names neither the parameter
    nor what it takes."""
    random = np.random
    if value is None or isinstance(value, (random.Generator, random.BitGenerator,
                                           random.SeedSequence)):
        return value
    accepted = "None, an integer >= 0 or a numpy.random.Generator"
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be {accepted}, got {value!r}")
    if value < 0:
        raise ValueError(f"{name} must be {accepted}, got {value!r}")
    return int(value)


#: The smallest and largest normal positive floats. A quantity computed from parameters (an
#: element's mass, its stiffness) must lie between them: below, it loses digits and then
#: becomes zero (a singular matrix); above, it is infinite.
NORMAL = (float(np.finfo(float).tiny), float(np.finfo(float).max))


def derived(what, value, **given):
    """``value``, the quantity ``what`` computed from the parameters ``given`` (name=value), if
    it is a normal positive float (:data:`NORMAL`); else a ValueError naming the parameters."""
    if not NORMAL[0] <= value <= NORMAL[1]:
        names = ", ".join(f"{k} = {v!r}" for k, v in given.items())
        raise ValueError(f"{names} give {what} = {value!r}: it must be a positive float in "
                         f"[{NORMAL[0]:.3g}, {NORMAL[1]:.3g}] (change {', '.join(given)})")
    return value


#: The smallest step a run takes, relative to its duration: ``t + dt`` differs from ``t`` up to
#: ``t_end`` in double precision (whose resolution is 2.2e-16 t), and a run has at most 1e15
#: steps (decades of computing even for the smallest model).
SMALLEST_STEP = 1e-15


def time_span(t_end, dt):
    """``(t_end, dt)`` (s) as floats with ``0 < t_end`` and ``SMALLEST_STEP t_end <= dt <=
    t_end``."""
    t_end, dt = positive("t_end", t_end), positive("dt", dt)
    if not SMALLEST_STEP * t_end <= dt <= t_end:
        raise ValueError(f"dt must be in [{SMALLEST_STEP:g} t_end, t_end] = "
                         f"[{SMALLEST_STEP * t_end:g}, {t_end:g}] s (a shorter step does not "
                         f"advance the clock at t_end in floating point), got {dt!r}")
    return t_end, dt


#: The largest tolerance of Newton's method on a position increment, relative to the model's
#: size: a larger one accepts steps wrong by more than 1 % of the model.
LARGEST_TOL = 0.01


def tolerance(name, value, size):
    """``value``, a tolerance on a position increment (m), as a float in
    ``(0, LARGEST_TOL size]`` (``size``: the model's, m)."""
    value = positive(name, value)
    if value > LARGEST_TOL * size:
        raise ValueError(f"{name} must be in (0, {LARGEST_TOL:g} x the model's size] = "
                         f"(0, {LARGEST_TOL * size:g}] m (a larger tolerance on the position "
                         f"increment accepts steps wrong by more than {LARGEST_TOL:.0%} of the "
                         f"model), got {value!r}")
    return value
