"""Checks of user input at the Python boundary: every error names the parameter, its value and
the accepted range (``TypeError`` for a wrong type, ``ValueError`` for a wrong value)."""
import numbers
import reprlib

import numpy as np


def real(name, value, low=None, high=None, low_open=False, high_open=False):
    """``value`` as a finite float within ``[low, high]`` (open ends if asked)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number, got {value!r}")
    value = float(value)
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
        raise ValueError(f"{name} must be finite and in {bounds}, got {value!r}")
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
