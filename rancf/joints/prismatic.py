"""The prismatic joint: the child's point on the parent's rail, the angle held.

The rail is the line through the parent's point along ``a = R(axis) p / |p|`` (p the parent's
direction; ``axis`` in rad, default 0: along p). Coordinate q: the slide ``(r_c - r_a) . a`` (m),
0 in the reference geometry; an effort is a force pair along the rail (N); a drive prescribes
q(t) (ground or rigid-body parents). The relative angle stays at its initial value. In the
recursion (theory: Joints in the recursion): eta = (gam', lam') for a beam child, gam' for a rigid
body (state-dependent maps).

Spatial: the child slides along ``axis`` (a global unit vector of the reference configuration)
and keeps its orientation relative to the parent; q the slide (m) from the reference
configuration, ``t = q a0``.
"""
from ._codes import DIRECTION_HELD, ON_RAIL, R_NONE, SLIDE, T_AXIS
from .kind import JointKind, SpatialMotion


class Prismatic(JointKind):
    """On the rail, held angle, the slide its coordinate (:class:`rancf.joints.kind.JointKind`)."""

    name = "prismatic"
    position = ON_RAIL
    direction = DIRECTION_HELD
    coordinate = SLIDE
    parameters = ("axis", "drive", "effort")
    style = dict(marker="D", markersize=6, markerfacecolor="white", markeredgecolor="k")
    spatial = SpatialMotion(T_AXIS, R_NONE)
