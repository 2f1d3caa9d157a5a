"""The fixed joint (a clamp): the child's point on the parent's, the angle held.

Coordinate q: the relative angle (rad), held at its initial value; it takes neither a drive nor
an effort (a driven revolute joint is a clamp that moves). In the recursion (theory:
Drives as polar slopes) it is the polar slope of a driven joint with q = q0: a beam child keeps its
slope length s as its one rate, a rigid body is lumped into its parent.

Spatial: the child's pose relative to the parent held at the reference configuration (no
coordinate).
"""
from ._codes import ANGLE, COINCIDENT, DIRECTION_HELD, R_NONE, T_NONE
from .kind import JointKind, SpatialMotion


class Fixed(JointKind):
    """Coincident points, held angle (:class:`rancf.joints.kind.JointKind`)."""

    name = "fixed"
    position = COINCIDENT
    direction = DIRECTION_HELD
    coordinate = ANGLE
    parameters = ()
    style = dict(marker="s", markersize=6, markerfacecolor="k", markeredgecolor="k")
    spatial = SpatialMotion(T_NONE, R_NONE)

    def check(self, joint, registered):
        if joint.drive is not None or joint.effort is not None:
            raise ValueError("a fixed joint takes neither a drive nor an effort (it holds its "
                             "initial relative pose); use a driven revolute joint instead")
        super().check(joint, registered)
