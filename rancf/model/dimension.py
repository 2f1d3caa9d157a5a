"""A model has one dimension, 2 (planar) or 3 (spatial): what belongs to the other is refused where
it enters, with a ``ValueError`` that names both dimensions (a planar beam's ``angle`` in a spatial
model, a spatial joint kind in a planar one, a moment vector on a planar load...)."""
import numpy as np

#: The word for each dimension in messages.
NAMES = {2: "planar", 3: "spatial"}


def other(dim):
    """The other dimension (2 for 3, 3 for 2)."""
    return 5 - dim


def refuse(dim, what):
    """Raise the ValueError for ``what`` (a phrase: "angle=0.3", "the joint kind 'spherical'"),
    which belongs to the other dimension."""
    raise ValueError(f"{what} belongs to a {NAMES[other(dim)]} model (rancf.Model(dim="
                     f"{other(dim)})); this model is {NAMES[dim]} (dim={dim})")


def refuse_parameters(dim, method, given, other_names):
    """Refuse the keyword parameters ``given`` (a dict) that ``method`` does not take.

    Raises
    ------
    ValueError
        A parameter of the other dimension's ``method`` (one of ``other_names``).
    TypeError
        Any other (as Python says of an unexpected keyword argument).
    """
    for name, value in given.items():
        if name in other_names:
            refuse(dim, f"{method}'s parameter {name}={value!r}")
        raise TypeError(f"{method}() got an unexpected keyword argument {name!r}")


def refuse_shape(dim, name, value, shape):
    """Refuse ``value`` when it has ``shape``, the other dimension's form of parameter ``name``
    (anything else is left to the parameter's own check)."""
    try:
        found = None if callable(value) else np.shape(value)
    except ValueError:      # a ragged sequence: its own check names it
        return
    if found == shape:
        refuse(dim, f"{name}={value!r} (shape {shape})")
