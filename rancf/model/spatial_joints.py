"""Joints and loads of a spatial mechanism (theory: Spatial trees).

A spatial joint moves its child relative to its parent by its kind's motion
(:class:`rancf.joints.kind.SpatialMotion`, a translation and a rotation primitive):
``A_c = A_p R(q) Q``, ``r_c = r_p + A_p (anchor + t(q)) - A_c offset``
(:mod:`rancf.model.spatial_tree`), with q = 0 in the reference configuration. Axes are global
unit vectors of the reference configuration.
"""
import math
import reprlib

import numpy as np

from ..utilities import checks
from ..elements.planar import wrap
from ..utilities.errors import ReturnedValueError, raised
from ..joints import REGISTRY
from ..joints._codes import P_NODE, R_VECTOR
from .dimension import refuse, refuse_shape
from .items import GROUND
from .joints import (Joint, Load, RotationalSpringDamper, _checked_drive, _checked_effort,
                     _finite, _is_real, _numbers)
from .spatial_items import UNIT_TOLERANCE, SpatialCable, unit_vector, vector3


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
        drive = _checked_drive(drive)
        size = motion.effort_size
        if drive is not None and not motion.takes_drive:
            takers = sorted(n for n, k in kinds.items() if k.spatial.takes_drive)
            raise ValueError(f"a {kind} joint takes no drive (drives act on joints of one "
                             f"coordinate: {', '.join(takers)}), got drive={drive!r}")
        if effort is not None and size == 0:
            takers = sorted(n for n, k in kinds.items() if k.spatial.effort_size)
            raise ValueError(f"a {kind} joint takes no effort (efforts act on {', '.join(takers)}"
                             f" joints), got effort={effort!r}")
        if effort is not None and not callable(effort):
            if size == 1:
                effort = _checked_effort(effort)
            else:
                vector = _finite(effort, (size,))
                if vector is None:
                    raise ValueError(f"effort of a {kind} joint must be {size} finite numbers "
                                     f"({motion.effort_words}) or a callable effort(t, q, qd), "
                                     f"got {reprlib.repr(effort)}")
                effort = vector
        if drive is not None and effort is not None:
            raise ValueError("a driven joint takes no effort (the drive prescribes its motion; "
                             "its reaction is in the result)")
        self.drive, self.effort = drive, effort
        if child.kind == GROUND:
            raise ValueError(f"child must be a point of a beam or rigid body, got {child!r} "
                             "(the ground can only be a parent)")
        # two points of one cable close a loop inside it (a ring), which the spatial DAE runs
        ring = isinstance(child.item, SpatialCable) and parent.node != child.node
        if parent.item is child.item and not ring:
            raise ValueError(f"parent and child must belong to different items (or be two nodes "
                             f"of one ANCF cable), got {parent!r} and {child!r}")

    def effort_value(self, t, q, qd):
        """The effort at a time and joint state, checked.

        Parameters
        ----------
        t : float
            Time (s).
        q, qd : float or ndarray
            The joint's coordinates and their rates, in the order of its kind's
            ``spatial.units``: one number each for a joint of one coordinate (rad or m); for a
            spherical joint the rotation vector q (3, rad) of the child's frame relative to the
            parent's (``R(q) = exp(q^)``, re-centred below pi by the compiled methods) and its
            time derivative qd (3, rad/s), not the angular velocity (that is ``J_l(q) qd``, in
            the parent's frame); for a free joint the translation of the child's point in the
            parent's frame (3, m) and the rotation vector (3, rad), then their rates.

        Returns
        -------
        float or ndarray
            One coordinate: N m or N. Spherical: a torque (3,) (N m), free: a force (N) and
            a torque (N m) (6,), the force at the child's point; vectors in the parent's frame,
            acting on the child (the parent takes the opposite). Their generalized force on q
            is ``J_l(q)^T`` times the torque (and the force itself on the translation): the
            transpose of the joint's motion subspace.

        Raises
        ------
        rancf.ReturnedValueError (a ValueError)
            The effort is not a finite real number, or not 3 (spherical) or 6 (free) of them.
        rancf.UserFunctionError
            The effort function raised (its exception chained), naming the joint and the time.

        Examples
        --------
        A rotational spring on a ball joint:

        >>> m = rancf.Model(dim=3)
        >>> r = m.add_rigid_body(1.0, np.eye(3) * 0.01, position=(0.0, 0.0, -0.5))
        >>> ball = m.add_joint("spherical", m.ground.point(0, 0, 0), r.point(0, 0, 0.5),
        ...                    effort=lambda t, q, qd: -2.0 * q - 0.1 * qd)
        >>> ball.effort_value(0.0, np.array([0.1, 0.3, 0.2]), np.ones(3))
        array([-0.3, -0.7, -0.5])
        """
        size = self.type.spatial.effort_size
        if size == 1:
            return Joint.effort_value(self, t, q, qd)
        if not callable(self.effort):
            return self.effort
        try:
            returned = self.effort(t, q, qd)
        except Exception as exc:
            raise raised(exc, "effort", "joint", self.index, t) from exc
        value = _finite(returned, (size,))
        if value is None:
            raise ReturnedValueError(
                f"effort of joint {self.index} ({self.kind}) must return {size} finite numbers "
                f"({self.type.spatial.effort_words}), got {reprlib.repr(returned)} at "
                f"t = {t:g} s", "effort", self.index, t)
        return value

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
        mismatch = abs(q) if unit == "m" else abs(wrap(q))
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
    cable_tangent : tuple of 3 floats or None
        At a node of an ANCF cable its reference unit tangent, the axis the moment must be
        normal to (:func:`cable_moment_refusal`): a function's value is held to it at every
        call (:meth:`~rancf.Load.value`); None elsewhere.

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
        cable = point.kind == P_NODE and isinstance(point.item, SpatialCable)
        self.cable_tangent = tuple(point.item.tangents[point.node].tolist()) if cable else None

    def __repr__(self):
        return f"Load({self.index}: {self.point!r}{', follower' if self.follower else ''})"

    def _checked_value(self, function, returned, t):
        """A spatial force or moment function must return three finite real numbers (in the
        point's body frame for a follower load); at a cable node a moment function's value
        must also meet the rule a constant one met when it was added (no part along the
        node's reference tangent, :func:`cable_moment_refusal`), a ValueError naming the
        load's point, the time, the value, its axial part and the tangent otherwise: raised
        here, where the runs call the function (:meth:`rancf.Load.value`, at every
        evaluation), it stops a run with status "failed" as a value that is not finite does.
        A load elsewhere pays one test of ``cable_tangent`` for it."""
        value = _numbers(returned)
        ok = value is not None and value.shape == (3,) and np.all(np.isfinite(value))
        if ok and self.cable_tangent is not None and function == "moment":
            refusal = cable_moment_refusal(value, self.cable_tangent, self.point, self.index, t)
            if refusal:
                raise ReturnedValueError(refusal, function, self.index, t)
        return (value if ok else None), f"three finite numbers (the {function}'s x, y, z)"


#: A moment at a cable node is refused when its part along the node's reference tangent
#: exceeds this fraction of its size (round-off in a moment computed normal to the tangent).
CABLE_AXIAL_TOLERANCE = 1e-9


def cable_moment_refusal(moment, tangent, point, index=None, t=None):
    """Why a moment may not act at a cable node, or "" when it may: the rule for a constant
    moment (checked by :meth:`rancf.Model.add_force`) and for each value of a moment function
    (at every call, :meth:`rancf.Load.value`).

    A cable has no torsion: a moment M bends it through the node's slope r', its generalized
    force ``(M x r') / |r'|^2`` (``cable_moment`` of rancf/elements/_ancf_cable.pxd), which
    drops the part along the current tangent, so that part does no work. M is refused when its
    part along the node's reference tangent t exceeds :data:`CABLE_AXIAL_TOLERANCE` of it,
    ``|M . t| > 1e-9 |M|``: judged against the reference, known when the model is built, the
    rule does not depend on the motion.

    Parameters
    ----------
    moment : ndarray (3,)
        N m, finite, global.
    tangent : tuple of 3 floats
        The node's reference unit tangent (:attr:`SpatialLoad.cable_tangent`).
    point : SpatialPoint
        The cable node, for the message.
    index : int, optional
        The load's number, for the message of a function's value.
    t : float, optional
        s: the time of a function's value (None: a constant moment).

    Returns
    -------
    str
        The message (the moment, its axial part, the tangent and what to do), "" for a moment
        normal to the tangent.
    """
    # in Python floats: a run pays this at every call of the function, and NumPy's dot of
    # two 3-vectors alone costs more than the whole test
    a, b, c = moment.tolist()
    x, y, z = tangent
    axial = a * x + b * y + c * z
    if abs(axial) <= CABLE_AXIAL_TOLERANCE * math.hypot(a, b, c):
        return ""
    what = (f"moment={[a, b, c]}" if t is None else
            f"the value {[a, b, c]} of moment(t) of load {index} at t = {t:g} s")
    return (f"{what} at the cable point {point!r} has a part {axial:.6g} N m about the cable's "
            f"axis (its reference tangent {list(tangent)} there; more than "
            f"{CABLE_AXIAL_TOLERANCE:g} of the moment): a cable has no torsion, so that part "
            "does no work; give the moment normal to the cable (it bends it), or join a rigid "
            "body or an SE(3) beam to carry a twist")


def check_undriven(joint):
    """ValueError naming ``joint`` (a :class:`SpatialJoint`) where it is driven, for a joint
    spring-damper on it: its coordinate is prescribed, so the spring would not act on the
    motion. Checked when the spring-damper is added and again when the model is built (a
    drive assigned to ``joint.drive`` after it), as the spatial recursion's work of the
    drives leaves out what a drive does against its own joint's spring."""
    if joint.drive is not None:
        raise ValueError(f"joint {joint.index} ({joint.kind}) is driven: its coordinate is "
                         "prescribed, so a spring-damper on it would not act on the motion; "
                         "put it on a joint that is not driven")


class SpatialJointSpringDamper(RotationalSpringDamper):
    """A spring-damper on a revolute, prismatic or spherical joint of a spatial model.

    Not constructed directly: :meth:`rancf.Model.add_rotational_spring_damper` of a spatial
    model returns it.

    On a revolute or prismatic joint the generalized force ``-k (q - q0) - c q'`` acts on the
    joint's coordinate q (an angle, rad, or a slide, m) as an effort does: a torque about a
    revolute joint's axis, a force along a prismatic joint's. Its potential
    ``1/2 k (q - q0)^2`` is elastic energy and ``c q'^2`` the power it dissipates.

    On a spherical joint it is isotropic: with ``R = A_p^T A_c Q^T`` the child's rotation
    relative to the parent's from the reference configuration (``exp(q^)`` of the joint's
    rotation vector q, in the parent's frame) and ``R_0 = exp(q0^)`` the rest rotation, the
    potential is ``U = 1/2 k |theta|^2`` (J) with ``theta = log(R R_0^T)`` (3, rad, in the
    parent's frame, ``|theta| <= pi``: the angle of the rotation from rest to R about its axis,
    the same in every frame, since ``R_0^T R`` has the same angle), and the torque on the
    child (the parent takes the opposite), in the parent's frame, is ::

        M = -k theta - c w,    w = J_l(q) q'   (N m)

    w the child's angular velocity relative to the parent (rad/s, parent's frame), so the
    spring pulls back along the shortest turn to the rest rotation and the damper dissipates
    ``c |w|^2`` (W). The recursion's generalized force is ``J_l(q)^T M`` (``-dU/dq`` for the
    spring: ``J_l(q)^T theta = q`` at ``q0 = 0``), the spatial DAE applies M between the
    bodies' frames: the same force. A joint kind whose rotation vector follows a translation
    (a free joint, a plug-in's slide and rotation vector) takes it on its rotation alike, the
    translation's coordinates left free.

    Universal and cylindrical joints take none: their coordinates are two angles about
    different axes (or an angle and a slide), where one isotropic k is not what one means;
    an effort function does it.

    Attributes
    ----------
    index : int
        Its number among the model's joint spring-dampers.
    joint : SpatialJoint
        A revolute, prismatic or spherical joint (or another of a rotation vector), not
        driven.
    k : float
        N m/rad (revolute, spherical) or N/m (prismatic), >= 0.
    c : float
        N m s/rad or N s/m, >= 0.
    rest_angle : float or ndarray (3,)
        q0 (rad or m); a spherical joint's rest rotation vector (3, rad, parent's frame,
        ``|q0| <= pi``); default 0, the reference configuration.

    Examples
    --------
    >>> m = rancf.Model(dim=3, gravity=(0, 0, 0))
    >>> r = m.add_rigid_body(2.0, np.eye(3) * 0.01)
    >>> rail = m.add_joint("prismatic", m.ground.point(0, 0, 0), r.centre, axis=(1, 0, 0))
    >>> m.add_rotational_spring_damper(rail, k=50.0, c=0.2)
    JointSpringDamper(0: k=50 N/m, c=0.2 N s/m, joint 0 (prismatic))
    """

    def __init__(self, index, joint, k, c, rest_angle):
        if not isinstance(joint, SpatialJoint):
            raise TypeError(f"joint must be a joint of a spatial model (returned by add_joint), "
                            f"got {joint!r}")
        motion = joint.type.spatial
        # on a rotation vector (spherical; any translation's coordinates before it), or on
        # one coordinate (revolute, prismatic)
        ball = motion.rotation == R_VECTOR
        if not (ball or motion.n_coordinates == 1):
            raise ValueError(f"joint must be a revolute, prismatic or spherical joint, got joint "
                             f"{joint.index} of kind {joint.kind!r}: a joint spring-damper acts "
                             "on a joint's one coordinate or on its rotation vector")
        check_undriven(joint)
        self.index, self.joint = index, joint
        self.k = checks.non_negative("k", k)
        self.c = checks.non_negative("c", c)
        if ball:
            self.rest_angle = rest_rotation(rest_angle)
        else:
            self.rest_angle = 0.0 if rest_angle is None else checks.real("rest_angle",
                                                                         rest_angle)

    def __repr__(self):
        slide = self.joint.type.spatial.units == ("m",)
        unit = "N/m" if slide else "N m/rad"
        damping = "N s/m" if slide else "N m s/rad"
        return (f"JointSpringDamper({self.index}: k={self.k:g} {unit}, c={self.c:g} {damping}, "
                f"joint {self.joint.index} ({self.joint.kind}))")


def rest_rotation(rest_angle):
    """A spherical joint spring's rest rotation vector (3,) (rad): zeros for None, else three
    finite numbers of norm at most pi (each rotation has one such vector, but at pi)."""
    if rest_angle is None:
        return np.zeros(3)
    value = _finite(rest_angle, (3,))
    if value is None:
        raise ValueError(f"rest_angle of a spring-damper on a spherical joint must be a rotation "
                         f"vector of 3 finite numbers (rad, parent's frame), got "
                         f"{reprlib.repr(rest_angle)}")
    if np.linalg.norm(value) > np.pi * (1.0 + 1e-12):
        raise ValueError(f"rest_angle of a spring-damper on a spherical joint must have a norm "
                         f"(its angle) at most pi, got {reprlib.repr(rest_angle)} of norm "
                         f"{np.linalg.norm(value):.6g} rad")
    return value
