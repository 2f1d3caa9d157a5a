"""Joints and loads of a spatial mechanism (theory: Spatial trees).

A spatial joint moves its child relative to its parent by its kind's motion
(:class:`rancf.joints.kind.SpatialMotion`, a ``Motion`` code): ``A_c = A_p R(q) Q``,
``r_c = r_p + A_p (anchor + t(q)) - A_c offset`` (:mod:`rancf.model.spatial_tree`), with q = 0 in
the reference configuration. Axes are global unit vectors of the reference configuration.
"""
import numpy as np

from .. import checks
from ..joints import REGISTRY
from .dimension import refuse, refuse_shape
from .items import GROUND
from .joints import Joint, Load, _is_real, _numbers
from .spatial_items import UNIT_TOLERANCE, unit_vector, vector3


def spatial_kinds():
    """The registered kinds that have a spatial side, by name."""
    return {n: k for n, k in REGISTRY.items() if k.spatial is not None}


class SpatialJoint(Joint):
    """A joint of a spatial model.

    Not constructed directly: :meth:`rancf.Model.add_joint` of a spatial model returns it.
    Attributes as :class:`rancf.Joint`'s, with ``axis`` (3,) the axis of a one-axis kind and
    ``axes`` (2, 3) those of a two-axis kind (global unit vectors of the reference
    configuration; None where unused). ``type.spatial`` says its motion, its axes and its
    coordinates' units.

    Examples
    --------
    >>> m = rancf.Model(dim=3)
    >>> r = m.add_rigid_body(1.0, np.eye(3) * 0.01, position=(0.5, 0, 0))
    >>> m.add_joint("universal", m.ground.point(0, 0, 0), r.point(-0.5, 0, 0),
    ...             axes=((0, 0, 1), (0, 1, 0)))
    Joint(0: universal, ground.point(0, 0, 0) -> rigid_body[0].point(-0.5, 0, 0))
    """

    def __init__(self, index, kind, parent, child, axis, axes, drive, effort):
        self.index = index
        kinds = spatial_kinds()
        if isinstance(kind, str) and kind in REGISTRY and kind not in kinds:
            refuse(3, f"the joint kind {kind!r}")
        self.kind = checks.choice("kind", kind, kinds)
        self.type = REGISTRY[kind]
        motion = self.type.spatial
        self.parent, self.child = parent, child
        if axis is not None and _is_real(axis):
            refuse(3, f"axis={axis!r} (a rail angle)")
        self.axis = self.axes = None
        if motion.axes == 1:
            if axes is not None:
                raise ValueError(f"a {kind} joint takes one axis (axis=(ax, ay, az)), got axes="
                                 f"{axes!r}")
            if axis is None:
                raise ValueError(f"a {kind} joint needs axis=(ax, ay, az), a global unit vector")
            self.axis = unit_vector("axis", axis)
        elif motion.axes == 2:
            if axis is not None:
                raise ValueError(f"a {kind} joint takes two axes (axes=(a0, a1)), got axis="
                                 f"{axis!r}")
            if axes is None:
                raise ValueError(f"a {kind} joint needs axes=(a0, a1), two orthogonal global "
                                 "unit vectors")
            self.axes = two_axes(axes)
        else:
            for name, value in (("axis", axis), ("axes", axes)):
                if value is not None:
                    raise ValueError(f"a {kind} joint takes no {name}, got {name}={value!r}")
        if drive is not None and not callable(drive):
            raise TypeError(f"drive must be a callable drive(t) -> (q, qd, qdd), got {drive!r}")
        if effort is not None and not (callable(effort) or _is_real(effort)):
            raise TypeError(f"effort must be a real number or a callable effort(t, q, qd), "
                            f"got {effort!r}")
        if effort is not None and _is_real(effort):
            effort = checks.real("effort", effort)
        for name, value in (("drive", drive), ("effort", effort)):
            if value is not None and not motion.takes_drive:
                takers = sorted(n for n, k in kinds.items() if k.spatial.takes_drive)
                raise ValueError(f"a {kind} joint takes no {name} (drives and efforts act on "
                                 f"joints of one coordinate: {', '.join(takers)}), got {name}="
                                 f"{value!r}")
        if drive is not None and effort is not None:
            raise ValueError("a driven joint takes no effort (the drive prescribes its motion; "
                             "its reaction is in the result)")
        self.drive, self.effort = drive, effort
        if child.kind == GROUND:
            raise ValueError(f"child must be a point of a beam or rigid body, got {child!r} "
                             "(the ground can only be a parent)")
        if parent.item is child.item:
            raise ValueError(f"parent and child must belong to different items, got {parent!r} "
                             f"and {child!r}")

    def drive_start(self, tol):
        """Check the drive's q(0) against the reference configuration (q = 0).

        Parameters
        ----------
        tol : float
            Length tolerance (m) of a slide.

        Raises
        ------
        ValueError
            q(0) not 0 (a slide: within ``tol``; an angle: modulo 2 pi within 1e-8 rad).
        """
        q = self.drive_values(0.0)[0]
        unit = self.type.spatial.units[0]
        mismatch = abs(q) if unit == "m" else abs(np.remainder(q + np.pi, 2.0 * np.pi) - np.pi)
        if mismatch > (tol if unit == "m" else 1e-8):
            raise ValueError(f"joint {self.index} ({self.kind}): drive q(0) = {q:.6g} {unit}, "
                             "but a spatial joint's coordinate is 0 in the reference "
                             "configuration" + ("" if unit == "m" else " (modulo 2 pi)"))


def two_axes(axes):
    """Two orthogonal unit vectors (2, 3), each within :data:`UNIT_TOLERANCE` of unit norm and
    their dot product within it of 0."""
    try:
        pair = np.array(axes, dtype=float)
    except (TypeError, ValueError):
        raise TypeError(f"axes must be two vectors of 3 real numbers, got {axes!r}") from None
    if pair.shape != (2, 3):
        raise ValueError(f"axes must be two vectors of 3 components (shape (2, 3)), got shape "
                         f"{pair.shape}")
    a0, a1 = unit_vector("axes[0]", pair[0]), unit_vector("axes[1]", pair[1])
    dot = float(a0 @ a1)
    if abs(dot) > UNIT_TOLERANCE:
        what = "parallel" if abs(dot) > 1.0 - 1e-6 else "not orthogonal"
        raise ValueError(f"axes must be orthogonal (|a0 . a1| <= {UNIT_TOLERANCE:g}), got {what} "
                         f"axes {axes!r} (a0 . a1 = {dot:.6g})")
    return np.array([a0, a1])


class SpatialLoad(Load):
    """A point force and moment on a spatial model.

    Not constructed directly: :meth:`rancf.Model.add_force` of a spatial model returns it.

    Attributes
    ----------
    index : int
        Its number among the model's loads.
    point : SpatialPoint
        Where it acts.
    force, moment : ndarray (3,) or callable
        N and N m, or ``force(t)``, ``moment(t)``.
    follower : bool
        True: force and moment are given in the point's body frame and turn with it; False:
        global.

    Examples
    --------
    >>> m = rancf.Model(dim=3)
    >>> r = m.add_rigid_body(1.0, np.eye(3) * 0.01)
    >>> load = m.add_force(r.point(0.1, 0, 0), force=(0, 0, -1.0), follower=True)
    >>> load.point, load.force, load.moment, load.follower
    (rigid_body[0].point(0.1, 0, 0), array([ 0.,  0., -1.]), array([0., 0., 0.]), True)
    """

    def __init__(self, index, point, force, moment, follower):
        if point.kind == GROUND:
            raise ValueError(f"point must be a point of a beam or rigid body, got {point!r}")
        self.index, self.point = index, point
        self.force = force if callable(force) else vector3("force", force)
        refuse_shape(3, "moment", moment, ())
        self.moment = moment if callable(moment) else vector3("moment", moment)
        self.follower = checks.boolean("follower", follower)

    def __repr__(self):
        return f"Load({self.index}: {self.point!r}{', follower' if self.follower else ''})"

    def _checked_value(self, function, returned):
        """A spatial force or moment function must return three finite real numbers (in the
        point's body frame for a follower load)."""
        value = _numbers(returned)
        ok = value is not None and value.shape == (3,) and np.all(np.isfinite(value))
        return (value if ok else None), f"three finite numbers (the {function}'s x, y, z)"
