"""Joints and loads of a mechanism (theory: The mechanism model; developer: Conventions of the
model).

A joint connects a parent point to a child point. Its coordinate q is the child's orientation
minus the parent's (revolute, fixed; rad) or the slide of the child's point along the rail
(prismatic; m), where a beam's orientation at a node is the angle of its slope r' and a rigid
body's the angle of its axis u. Joint coordinates are continuous: they are unwrapped from their
initial value, so 12 turns read as 75 rad (theory: Joint coordinates).
"""
import math
import numbers
import reprlib

import numpy as np

from ..utilities import checks
from ..utilities.errors import ReturnedValueError, raised
from ..joints import REGISTRY
from ..joints._codes import COINCIDENT
from .dimension import refuse
from .items import GROUND


def _is_real(x):
    return isinstance(x, numbers.Real) and not isinstance(x, (bool, np.bool_))


def _numbers(value):
    """What a user function returned as a float array, or None unless it holds real numbers
    only (a numeric string such as ``"1.5"``, a bool, a complex or an object is not one)."""
    try:
        arr = np.asarray(value)
    except ValueError:              # a ragged sequence
        return None
    return arr.astype(float, copy=False) if arr.dtype.kind in "iuf" else None


def _number(value):
    """What a user function returned as a float if it is one real number (as :func:`_numbers`),
    else None."""
    if type(value) is float:        # the common case, without numpy's conversion
        return value
    arr = _numbers(value)
    return float(arr) if arr is not None and arr.shape == () else None


def _checked_drive(drive):
    """``drive`` if it is None or a callable, else a TypeError naming it."""
    if drive is not None and not callable(drive):
        raise TypeError(f"drive must be a callable drive(t) -> (q, qd, qdd), got {drive!r}")
    return drive


def _checked_effort(effort):
    """The effort of a joint of one coordinate: None or a callable as given, a real number as a
    finite float, else a TypeError naming it."""
    if effort is None or callable(effort):
        return effort
    if not _is_real(effort):
        raise TypeError(f"effort must be a real number or a callable effort(t, q, qd), "
                        f"got {effort!r}")
    return checks.real("effort", effort)


def _finite(value, shape):
    """What a user function returned as a float array of ``shape`` with finite entries (as
    :func:`_numbers`), else None. The same check of a drive's and a load's values is written out
    where they are read, at every evaluation of the equations: a Python call there costs time."""
    arr = _numbers(value)
    return arr if arr is not None and arr.shape == shape and np.all(np.isfinite(arr)) else None


class Joint:
    """A joint of the model.

    Not constructed directly: :meth:`rancf.Model.add_joint` returns it; pass it to
    :meth:`rancf.Result.joint`, :meth:`rancf.Result.reaction` and
    :meth:`rancf.Result.plot_joint`.

    Attributes
    ----------
    index : int
        Its number in the model (the order added).
    kind : str
        What it holds (:meth:`rancf.Model.add_joint`): a registered kind's name, "revolute",
        "prismatic" or "fixed" built in.
    type : rancf.joints.kind.JointKind
        That kind (its coordinate, checks, constraint rows, recursion maps, drawing).
    parent, child : Point
        The points it joins. The child is never a ground point: a joint written with the
        ground as child is reversed (see ``reversed``).
    reversed : bool
        True for a joint written with a ground point as child (``add_joint(kind, beam.start,
        m.ground.point(...))``): parent and child are swapped, so ``parent`` is the ground
        point and its coordinate q is the beam's or body's orientation minus the ground's,
        the negative of the order written (ground minus item); its drive prescribes, and its
        effort (on the item) acts on, that q. Only kinds whose points coincide (revolute,
        fixed) are reversed: the same joint either way round.
    axis : float or None
        Prismatic only: the rail's angle (rad) in the parent's frame; None is the parent's
        direction at the point (a beam's tangent, a body's axis, a ground point's angle).
    drive : callable or None
        ``drive(t) -> (q, qd, qdd)``: the prescribed joint coordinate and its first two time
        derivatives (rad or m, per s, per s^2).
    effort : callable, float or None
        The generalized force in the joint (N m for revolute, N for prismatic): a constant or
        ``effort(t, q, qd) -> float``.

    Examples
    --------
    >>> m = rancf.pendulum(n_bodies=2, elements_per_body=2, body_length=1.0)
    >>> m.joints[1]
    Joint(1: revolute, beam[0].node(2) -> beam[1].node(0))
    """

    # a spatial joint, which shares this class's methods, is never reversed
    reversed = False

    def __init__(self, index, kind, parent, child, axis, drive, effort):
        self.index = index
        planar = {n: k for n, k in REGISTRY.items() if k.planar}
        if isinstance(kind, str) and kind in REGISTRY and kind not in planar:
            refuse(2, f"kind must be one of {sorted(planar)} in a planar model; the joint kind "
                      f"{kind!r}")
        self.kind = checks.choice("kind", kind, planar)
        self.type = REGISTRY[kind]
        # a ground point written as the child: the same joint is the one with the ground as
        # parent where both points coincide (a rail belongs to its parent: a slide is not)
        self.reversed = child.kind == GROUND and parent.kind != GROUND
        if self.reversed and self.type.position != COINCIDENT:
            raise ValueError(f"child must be a point of a beam or rigid body for a {self.kind} "
                             f"joint, got {child!r} (its rail belongs to the parent: write the "
                             "ground point as the parent)")
        if self.reversed:
            parent, child = child, parent
        self.parent, self.child = parent, child
        self.axis = None if axis is None else checks.real("axis", axis)
        self.drive, self.effort = _checked_drive(drive), _checked_effort(effort)
        self.type.check(self, planar)
        if child.kind == GROUND:
            raise ValueError(f"parent and child must not both be ground points, got {parent!r} "
                             f"and {child!r}")
        if parent.item is child.item:
            raise ValueError(f"parent and child must belong to different items, got {parent!r} "
                             f"and {child!r}")

    @property
    def driven(self):
        """True for a joint with a drive (a prescribed coordinate).

        Returns
        -------
        bool

        Examples
        --------
        >>> m = rancf.Model()
        >>> b = m.add_beam(1.0, 2, E=2e9, rho=7800.0, A=1e-4, I=1e-9)
        >>> m.add_joint("revolute", m.ground.point(0, 0), b.start,
        ...             drive=lambda t: (t, 1.0, 0.0)).driven
        True
        """
        return self.drive is not None

    def __repr__(self):
        extra = (" driven" if self.driven else "") + (" reversed" if self.reversed else "")
        return f"Joint({self.index}: {self.kind}{extra}, {self.parent!r} -> {self.child!r})"

    def drive_values(self, t):
        """The drive's values at a time, checked.

        Parameters
        ----------
        t : float
            Time (s).

        Returns
        -------
        ndarray (3,)
            ``(q, qd, qdd)``: rad or m, per s, per s^2.

        Raises
        ------
        rancf.ReturnedValueError (a ValueError)
            The drive does not return three finite real numbers.
        rancf.UserFunctionError
            The drive raised (its exception chained), naming the joint and the time.

        Examples
        --------
        >>> m = rancf.Model()
        >>> b = m.add_beam(1.0, 2, E=2e9, rho=7800.0, A=1e-4, I=1e-9)
        >>> j = m.add_joint("revolute", m.ground.point(0, 0), b.start,
        ...                 drive=lambda t: (t**2, 2 * t, 2.0))
        >>> j.drive_values(0.5)
        array([0.25, 1.  , 2.  ])
        """
        try:
            returned = self.drive(t)
        except Exception as exc:
            raise raised(exc, "drive", "joint", self.index, t) from exc
        # the common return, a tuple of three finite floats, checked without numpy's
        # conversions (this runs once a step, and numpy's checks would be most of its cost)
        if type(returned) is tuple and len(returned) == 3:
            q, qd, qdd = returned
            if (isinstance(q, float) and isinstance(qd, float) and isinstance(qdd, float)
                    and math.isfinite(q) and math.isfinite(qd) and math.isfinite(qdd)):
                return np.array(returned)
        values = _numbers(returned)
        if values is None or values.shape != (3,) or not np.all(np.isfinite(values)):
            raise ReturnedValueError(
                f"drive of joint {self.index} must return three finite numbers (q, qd, qdd), "
                f"got {reprlib.repr(returned)} at t = {t:g} s", "drive", self.index, t)
        return values

    def effort_value(self, t, q, qd):
        """The effort at a time and joint state, checked.

        Parameters
        ----------
        t : float
            Time (s).
        q, qd : float
            Joint coordinate (rad or m) and its rate.

        Returns
        -------
        float
            N m (revolute) or N (prismatic).

        Raises
        ------
        rancf.ReturnedValueError (a ValueError)
            The effort is not a finite real number.
        ArithmeticError
            q or qd is not finite (the joint's coordinate is undefined at the state).
        rancf.UserFunctionError
            The effort function raised (its exception chained), naming the joint and the time.

        Examples
        --------
        >>> m = rancf.Model()
        >>> b = m.add_beam(1.0, 2, E=2e9, rho=7800.0, A=1e-4, I=1e-9)
        >>> j = m.add_joint("revolute", m.ground.point(0, 0), b.start,
        ...                 effort=lambda t, q, qd: -10.0 * q - 0.1 * qd)
        >>> j.effort_value(0.0, 0.5, 1.0)
        -5.1
        """
        if not callable(self.effort):
            return self.effort
        if not (np.isfinite(q) and np.isfinite(qd)):
            raise ArithmeticError(
                f"joint {self.index}'s coordinate is not defined at the state evaluated at "
                f"t = {t:g} s (q = {q!r}, qd = {qd!r}: a direction of zero length), nor its "
                "effort; in an implicit run Newton's iterate went there: reduce dt")
        try:
            returned = self.effort(t, q, qd)
        except Exception as exc:
            raise raised(exc, "effort", "joint", self.index, t) from exc
        value = _number(returned)
        if value is None or not math.isfinite(value):
            raise ReturnedValueError(f"effort of joint {self.index} must return a finite "
                                     f"number, got {reprlib.repr(returned)} at t = {t:g} s",
                                     "effort", self.index, t)
        return value


class Load:
    """A point force and moment.

    Not constructed directly: :meth:`rancf.Model.add_force` returns it.

    Attributes
    ----------
    index : int
        Its number among the model's loads.
    point : Point
        Where it acts.
    force : ndarray (2,) or callable
        N, fixed direction in space, or ``force(t)``.
    moment : float or callable
        N m, or ``moment(t)``.

    Examples
    --------
    >>> m = rancf.Model()
    >>> b = m.add_beam(1.0, 2, E=2e9, rho=7800.0, A=1e-4, I=1e-9)
    >>> load = m.add_force(b.end, force=(0.0, -10.0))
    >>> load
    Load(0: force=(0, -10) N, moment=0 N m at beam[0].node(2))
    >>> load.point, load.force
    (beam[0].node(2), array([  0., -10.]))
    """

    def __init__(self, index, point, force, moment):
        if point.kind == GROUND:
            raise ValueError(f"point must be a point of a beam or rigid body, got {point!r}")
        self.index, self.point = index, point
        if callable(force):
            self.force = force
        else:
            self.force = checks.vector("force", force)
        if callable(moment):
            self.moment = moment
        elif _is_real(moment):
            self.moment = checks.real("moment", moment)
        else:
            raise TypeError(f"moment must be a real number or a callable moment(t), got {moment!r}")

    def __repr__(self):
        force = "force(t)" if callable(self.force) else \
            f"force=({self.force[0]:g}, {self.force[1]:g}) N"
        moment = "moment(t)" if callable(self.moment) else f"moment={self.moment:g} N m"
        return f"Load({self.index}: {force}, {moment} at {self.point!r})"

    @property
    def time_dependent(self):
        """True when the force or the moment is a function of time.

        Returns
        -------
        bool

        Examples
        --------
        >>> m = rancf.Model()
        >>> b = m.add_beam(1.0, 2, E=2e9, rho=7800.0, A=1e-4, I=1e-9)
        >>> m.add_force(b.end, moment=np.sin).time_dependent
        True
        """
        return callable(self.force) or callable(self.moment)

    def values(self, t):
        """The force and moment at a time, checked.

        Parameters
        ----------
        t : float
            Time (s).

        Returns
        -------
        force : ndarray (2,) (planar) or (3,) (spatial)
            N.
        moment : float (planar) or ndarray (3,) (spatial)
            N m; a spatial follower load's force and moment are in the point's body frame.

        Raises
        ------
        rancf.ReturnedValueError (a ValueError)
            A force that is not two finite real numbers or a moment that is not a finite real
            number (spatial: three each; at a node of an ANCF cable a moment with a part about
            the cable's axis, :func:`rancf.model.spatial_joints.cable_moment_refusal`).
        rancf.UserFunctionError
            A load function raised (its exception chained), naming the load and the time.

        Examples
        --------
        >>> m = rancf.Model()
        >>> b = m.add_beam(1.0, 2, E=2e9, rho=7800.0, A=1e-4, I=1e-9)
        >>> load = m.add_force(b.end, force=lambda t: (0.0, -10.0 * t), moment=2.0)
        >>> load.values(0.5)
        (array([ 0., -5.]), 2.0)
        """
        return self.value("force", t), self.value("moment", t)

    def _checked_value(self, function, returned, t):
        """What a load function returned at t (s) as its value (None if it is not one) and
        what it must be: the force two finite numbers, the moment one (a spatial load: three
        each)."""
        if function == "force":
            value = _numbers(returned)
            ok = value is not None and value.shape == (2,) and np.all(np.isfinite(value))
            return (value if ok else None), "two finite numbers (fx, fy)"
        value = _number(returned)
        return (value if value is not None and math.isfinite(value) else None), \
            "a finite number"

    def value(self, function, t):
        """The load's force or moment at a time, checked: a constant as given, a function
        called (its exception chained to a :class:`rancf.UserFunctionError`) and its value
        checked.

        Parameters
        ----------
        function : {"force", "moment"}
        t : float
            Time (s).

        Returns
        -------
        ndarray (2,) or float (planar), ndarray (3,) (spatial)
            N or N m.

        Raises
        ------
        ValueError, rancf.UserFunctionError
            As :meth:`values`.

        Examples
        --------
        >>> m = rancf.Model()
        >>> b = m.add_beam(1.0, 2, E=2e9, rho=7800.0, A=1e-4, I=1e-9)
        >>> load = m.add_force(b.end, force=lambda t: (0.0, -10.0 * t), moment=2.0)
        >>> load.value("force", 0.5), load.value("moment", 0.5)
        (array([ 0., -5.]), 2.0)
        """
        if not callable(getattr(self, function)):
            return getattr(self, function)
        try:
            returned = getattr(self, function)(t)
        except Exception as exc:
            raise raised(exc, function, "load", self.index, t) from exc
        value, what = self._checked_value(function, returned, t)
        if value is None:
            raise ReturnedValueError(f"{function} of load {self.index} must return {what}, "
                                     f"got {reprlib.repr(returned)} at t = {t:g} s",
                                     function, self.index, t)
        return value


class SpringDamper:
    """A linear spring-damper between two points (theory: Loads).

    Not constructed directly: :meth:`rancf.Model.add_spring_damper` returns it.

    With ``d = r_2 - r_1``, its length ``l = |d|`` and the unit vector ``n = d / l``, it pulls
    point 1 by ``f n`` and point 2 by ``-f n``, ``f = k (l - l0) + c l'`` (N). Its potential
    ``1/2 k (l - l0)^2`` is elastic energy and ``c l'^2`` the power it dissipates (theory: The
    energy balance).

    Attributes
    ----------
    index : int
        Its number among the model's spring-dampers.
    points : tuple of Point
        The two points (ground, beam node or body point).
    k : float
        Stiffness (N/m), >= 0.
    c : float
        Damping coefficient (N s/m), >= 0.
    rest_length : float or None
        l0 (m), > 0; None: the distance of the points in the reference configuration (set when the
        model is built, :attr:`rest_length` then holds it).

    Examples
    --------
    >>> m = rancf.Model(gravity=(0.0, 0.0))
    >>> r = m.add_rigid_body(1.0, 0.1, position=(1.0, 0.0))
    >>> m.add_spring_damper(m.ground.point(0.0, 0.0), r.point(0.0, 0.0), k=100.0, c=1.0)
    SpringDamper(0: k=100 N/m, c=1 N s/m, ground.point(0, 0, angle=0) -- rigid_body[0].point(0, 0))
    """

    def __init__(self, index, p1, p2, k, c, rest_length):
        if p1.kind == GROUND and p2.kind == GROUND:
            raise ValueError(f"p1 and p2 are both ground points ({p1!r}, {p2!r}): a spring-damper "
                             "needs a point of a beam or rigid body")
        self.index, self.points = index, (p1, p2)
        self.k = checks.non_negative("k", k)
        self.c = checks.non_negative("c", c)
        # a zero length leaves the line of action undefined
        self.rest_length = None if rest_length is None else checks.positive("rest_length",
                                                                            rest_length)

    def __repr__(self):
        return (f"SpringDamper({self.index}: k={self.k:g} N/m, c={self.c:g} N s/m, "
                f"{self.points[0]!r} -- {self.points[1]!r})")


class RotationalSpringDamper:
    """A torsion spring-damper in a revolute joint (theory: Loads).

    Not constructed directly: :meth:`rancf.Model.add_rotational_spring_damper` returns it.

    The torque ``-k (q - q0) - c q'`` (N m) acts in the joint as an effort does, on its
    continuous (unwrapped) coordinate q; its potential ``1/2 k (q - q0)^2`` is elastic energy and
    ``c q'^2`` the power it dissipates.

    Attributes
    ----------
    index : int
        Its number among the model's rotational spring-dampers.
    joint : Joint
        The revolute joint.
    k : float
        Stiffness (N m/rad), >= 0.
    c : float
        Damping coefficient (N m s/rad), >= 0.
    rest_angle : float or None
        q0 (rad); None: the joint's initial coordinate.

    Examples
    --------
    >>> m = rancf.Model(gravity=(0.0, 0.0))
    >>> r = m.add_rigid_body(1.0, 0.1, position=(1.0, 0.0))
    >>> hinge = m.add_joint("revolute", m.ground.point(0.0, 0.0), r.point(-1.0, 0.0))
    >>> m.add_rotational_spring_damper(hinge, k=10.0, c=0.1)
    RotationalSpringDamper(0: k=10 N m/rad, c=0.1 N m s/rad, joint 0)
    """

    def __init__(self, index, joint, k, c, rest_angle):
        if not isinstance(joint, Joint):
            raise TypeError(f"joint must be a Joint (returned by add_joint), got {joint!r}")
        if joint.kind != "revolute":
            raise ValueError(f"joint must be a revolute joint, got joint {joint.index} of kind "
                             f"{joint.kind!r}: a rotational spring-damper acts on a free angle")
        self.index, self.joint = index, joint
        self.k = checks.non_negative("k", k)
        self.c = checks.non_negative("c", c)
        self.rest_angle = None if rest_angle is None else checks.real("rest_angle", rest_angle)

    def __repr__(self):
        return (f"RotationalSpringDamper({self.index}: k={self.k:g} N m/rad, "
                f"c={self.c:g} N m s/rad, joint {self.joint.index})")
