"""The revolute joint: the child's point on the parent's, the angle free (a pin).

Coordinate q: the child's orientation minus the parent's (rad), unwrapped; an effort is a
moment pair (N m, +tau on the child, -tau on the parent); a drive prescribes q(t) and holds the
angle there. In the recursion (theory: Joints in the recursion): a beam child's slope rates are its
eta (constant chi and eps), a rigid body's angle rate phi'; driven, the polar slope (no rate) of
the fixed joint.

Spatial: the child turns about ``axis`` (a global unit vector of the reference configuration)
through the joint point; q the angle (rad) from the reference configuration, ``R = exp(q a0^)``.
"""
from ._codes import ANGLE, COINCIDENT, DIRECTION_FREE, R_AXIS, T_NONE
from .kind import JointKind, SpatialMotion


class Revolute(JointKind):
    """Coincident points, free angle (:class:`rancf.joints.kind.JointKind`)."""

    name = "revolute"
    position = COINCIDENT
    direction = DIRECTION_FREE
    coordinate = ANGLE
    parameters = ("drive", "effort")
    style = dict(marker="o", markersize=7, markerfacecolor="white", markeredgecolor="k")
    spatial = SpatialMotion(T_NONE, R_AXIS)
