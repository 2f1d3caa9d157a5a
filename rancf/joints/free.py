"""The free joint (spatial only, a floating base): six coordinates, nothing held.

Coordinates q = (translation (m), rotation vector (rad)) of the child from the reference
configuration, both in the parent's frame: ``t = q[0:3]``, ``R = exp(q[3:6]^)``.
"""
from ._codes import R_VECTOR, T_FREE
from .kind import JointKind, SpatialMotion


class Free(JointKind):
    """Six free coordinates (:class:`rancf.joints.kind.JointKind`)."""

    name = "free"
    planar = False
    style = dict(marker="*", markersize=10, markerfacecolor="white", markeredgecolor="k")
    spatial = SpatialMotion(T_FREE, R_VECTOR)
