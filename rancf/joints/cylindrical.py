"""The cylindrical joint (spatial only): the child slides along ``axis`` and turns about it.

Coordinates q = (slide (m), angle (rad)) from the reference configuration: ``t = q0 a0``,
``R = exp(q1 a0^)``, a0 the axis (a global unit vector of the reference configuration, stored in
the parent's frame).
"""
from ._codes import R_AXIS, T_AXIS
from .kind import JointKind, SpatialMotion


class Cylindrical(JointKind):
    """Slide along and turn about one axis (:class:`rancf.joints.kind.JointKind`)."""

    name = "cylindrical"
    planar = False
    style = dict(marker="h", markersize=8, markerfacecolor="white", markeredgecolor="k")
    spatial = SpatialMotion(T_AXIS, R_AXIS)
