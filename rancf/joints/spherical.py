"""The spherical joint (spatial only, a ball joint): the child turns freely about the joint point.

Coordinates q: the rotation vector (rad) of the child's rotation from the reference
configuration, in the parent's frame: ``R = exp(q^)``.
"""
from ._codes import R_VECTOR, T_NONE
from .kind import JointKind, SpatialMotion


class Spherical(JointKind):
    """Coincident points, free rotation (:class:`rancf.joints.kind.JointKind`)."""

    name = "spherical"
    planar = False
    style = dict(marker="o", markersize=9, markerfacecolor="0.75", markeredgecolor="k")
    spatial = SpatialMotion(T_NONE, R_VECTOR)
