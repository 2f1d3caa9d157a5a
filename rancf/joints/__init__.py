"""Joint kinds (theory: Joints in the recursion): one module per kind, registered here in one line
each.

A kind is a :class:`~rancf.joints.kind.JointKind` subclass (its docstring lists what a kind
provides); :meth:`rancf.Model.add_joint` looks its ``kind`` string up in :data:`REGISTRY`. To add a
kind, write its module and add ``register(MyKind)`` below (or, for a kind of your own outside
rancf, call :func:`register` before building models with it). One registry serves both
dimensions: a kind says what it is in each (:mod:`rancf.joints.kind`), and a model takes the kinds
of its dimension.
"""
from .cylindrical import Cylindrical
from .fixed import Fixed
from .free import Free
from ._codes import MOTION_ELEMENT, motion_primitives
from .kind import JointKind, SpatialMotion
from .prismatic import Prismatic
from .revolute import Revolute
from .spherical import Spherical
from .universal import Universal

#: The registered kinds by name (instances of their classes).
REGISTRY = {}


def register(kind, registry=None):
    """Register a joint kind under its ``name``.

    Parameters
    ----------
    kind : type
        A :class:`~rancf.joints.kind.JointKind` subclass with a ``name`` not yet registered.
    registry : dict, optional
        Where to register (default :data:`REGISTRY`).

    Returns
    -------
    JointKind
        The instance registered.

    Raises
    ------
    TypeError
        ``kind`` is not a JointKind subclass, or its ``spatial`` not a SpatialMotion.
    ValueError
        Its name is not a non-empty string, or is taken; a kind of neither dimension.
    """
    registry = REGISTRY if registry is None else registry
    if not (isinstance(kind, type) and issubclass(kind, JointKind)):
        raise TypeError(f"kind must be a JointKind subclass, got {kind!r}")
    if not isinstance(kind.name, str) or not kind.name:
        raise ValueError(f"kind.name must be a non-empty string, got {kind.name!r}")
    if kind.spatial is not None and not isinstance(kind.spatial, SpatialMotion):
        raise TypeError(f"kind.spatial must be a SpatialMotion or None, got {kind.spatial!r}")
    if not kind.planar and kind.spatial is None:
        raise ValueError(f"kind {kind.name!r} is neither planar nor spatial (planar = False, "
                         "spatial = None)")
    if kind.name in registry:
        raise ValueError(f"kind.name {kind.name!r} is registered already (registered: "
                         f"{sorted(registry)})")
    registry[kind.name] = kind()
    return registry[kind.name]


def unregister(name, registry=None):
    """Remove the kind registered as ``name`` (models built with it keep working)."""
    registry = REGISTRY if registry is None else registry
    if name not in registry:
        raise ValueError(f"name must be a registered kind {sorted(registry)}, got {name!r}")
    del registry[name]


def motion_words(code):
    """A spatial tree link's ``Motion`` code in words, for messages: ``"a beam element"`` (the
    element flag ``MOTION_ELEMENT`` added), ``"a <name> joint"`` for the registered kind of
    that composition, else its primitives' (``"a joint of T_AXIS, R_VECTOR"``). A cable
    node's code is the formulation's, not the tree's (``CableMotion`` of
    rancf/formulations/_spatial.pxd, above these; :func:`rancf.formulations.link_words`)."""
    code = int(code)
    if not 0 <= code < 2 * MOTION_ELEMENT:
        raise ValueError(f"code must be a Motion code, 0 to {2 * MOTION_ELEMENT - 1}, got "
                         f"{code}")
    if code >= MOTION_ELEMENT:
        return "a beam element"
    names = [n for n, k in REGISTRY.items() if k.spatial is not None and k.spatial.code == code]
    if names:
        return f"a {names[0]} joint"
    return "a joint of {}, {}".format(*(c.name for c in motion_primitives(code)))


register(Revolute)
register(Prismatic)
register(Fixed)
register(Cylindrical)
register(Universal)
register(Spherical)
register(Free)

__all__ = ["JointKind", "REGISTRY", "SpatialMotion", "motion_words", "register", "unregister"]
