"""The universal joint (spatial only, a Cardan joint): the child turns about two orthogonal axes.

``axes=(a0, a1)``: global unit vectors of the reference configuration, orthogonal; a0 is fixed in
the parent, a1 turns with the first rotation (the cross of a Cardan joint). Coordinates q = the
two angles (rad) from the reference configuration: ``R = exp(q0 a0^) exp(q1 a1^)``, both axes
stored in the parent's frame.
"""
from ._codes import R_TWO_AXES, T_NONE
from .kind import JointKind, SpatialMotion


class Universal(JointKind):
    """Turn about two orthogonal axes (:class:`rancf.joints.kind.JointKind`)."""

    name = "universal"
    planar = False
    style = dict(marker="P", markersize=8, markerfacecolor="white", markeredgecolor="k")
    spatial = SpatialMotion(T_NONE, R_TWO_AXES)
