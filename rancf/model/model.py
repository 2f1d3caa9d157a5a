"""``rancf.Model``: the one description of a mechanism that every formulation runs.

``rancf.Model()`` is planar (``dim=2``, this module); ``rancf.Model(dim=3)`` makes a spatial
model (:class:`rancf.model.spatial_model.SpatialModel`, a subclass with its own items, joints,
loads and builder). Parameters, joint kinds and load forms of the other dimension are refused
with a ``ValueError`` naming it (:mod:`rancf.model.dimension`).

A model is built by adding items (beams, rigid bodies), joints and loads; it is frozen the
first time it is used (:meth:`Model.build`, called by ``rancf.simulate`` and ``rancf.static``)
and cannot change afterwards. Everything a user gives is checked where it enters, with an
error naming the parameter; the whole model is checked when it is built (joint points
coincide, drives start where the geometry is, every item is connected to the ground).
"""
import inspect

from ..utilities import checks
from ..elements import beam as beam_element
from .assembly import Assembly
from .dimension import refuse_parameters, refuse_shape
from .items import Beam, Ground, Point, RigidBody
from .joints import Joint, Load, RotationalSpringDamper, SpringDamper


#: The parameters of the spatial model's methods that a planar model refuses naming the dimension.
SPATIAL_PARAMETERS = {
    "add_beam": ("J", "G", "direction", "up", "shear", "kappa", "points", "tangents", "rest"),
    "add_rigid_body": ("orientation",),
    "add_joint": ("axes",),
    "add_force": ("follower",),
}


class Model:
    """A planar mechanism of ANCF beams and rigid bodies, in SI units (or, with ``dim=3``, a
    spatial one: :class:`rancf.model.spatial_model.SpatialModel`).

    Parameters
    ----------
    gravity : sequence of 2 floats
        Gravitational acceleration vector (m/s^2), default ``(0, -9.81)``.
    elastic_model : {"shabana", "berzeri", "reissner"}
        Elastic model of every beam (:mod:`rancf.elements.beam`): ``"shabana"`` the RANCF
        paper's local-frame model, ``"berzeri"`` the Berzeri-Shabana continuum model (the
        adaptive modal method needs it), ``"reissner"`` the geometrically exact strains
        (converges to the elastica at large deflection).
    dim : {2, 3}
        2 (planar, this class); 3 makes a spatial model
        (:class:`~rancf.model.spatial_model.SpatialModel`, gravity default ``(0, 0, -9.81)``).

    Raises
    ------
    ValueError
        A gravity that is not two finite numbers (three: a spatial model's), an unknown
        elastic model, a dim other than 2 or 3.

    Examples
    --------
    >>> m = rancf.Model(gravity=(0.0, -9.81))
    >>> b = m.add_beam(length=2.0, n_elements=8, E=2.07e11, rho=7800.0, A=0.01, I=8.333e-6)
    >>> j = m.add_joint("revolute", m.ground.point(0.0, 0.0), b.start)
    >>> load = m.add_force(b.end, force=(0.0, -1e3))
    >>> m
    Model(1 beams, 0 rigid bodies, 1 joints, 1 loads)
    """

    dim = 2

    def __new__(cls, *args, dim=None, **kwargs):
        # the one place where the dimension chooses the class (None: the class's own, as
        # pickle and copy make it)
        dim = checks.integer("dim", cls.dim if dim is None else dim, 2, 3)
        if cls is Model and dim == 3:
            from .spatial_model import SpatialModel    # a subclass: imported when used
            cls = SpatialModel
        elif dim != cls.dim:
            raise ValueError(f"dim must be {cls.dim} for {cls.__name__}, got {dim!r}")
        return super().__new__(cls)

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls.__signature__ = constructor_signature(cls)

    def __init__(self, gravity=(0.0, -9.81), elastic_model="shabana", *, dim=2):
        refuse_shape(2, "gravity", gravity, (3,))
        self.gravity = checks.vector("gravity", gravity)
        beam_element.model_code(elastic_model)
        self.elastic_model = elastic_model
        self.ground = Ground(self)
        self._beams, self._bodies, self._joints, self._loads = [], [], [], []
        self._springs, self._rotational_springs = [], []
        self._assembly = None

    def __repr__(self):
        return (f"Model({len(self._beams)} beams, {len(self._bodies)} rigid bodies, "
                f"{len(self._joints)} joints, {len(self._loads)} loads"
                f"{', frozen' if self.frozen else ''})")

    # --- building -------------------------------------------------------------------------
    @property
    def frozen(self):
        """True once the model has been built (it can no longer change).

        Returns
        -------
        bool

        Examples
        --------
        >>> m = rancf.pendulum(n_bodies=1, elements_per_body=2, body_length=1.0)
        >>> m.frozen
        False
        >>> _ = rancf.static(m)
        >>> m.frozen
        True
        """
        return self._assembly is not None

    def _check_open(self):
        if self.frozen:
            raise RuntimeError("this model is frozen: it was built when it was first simulated "
                               "or solved; build a new rancf.Model to change it")

    #: How the points a joint or load takes are made (for the error naming a wrong one).
    _POINTS = "ground.point(x, y), beam.start/.end/.node(i)/.at(s), body.point(dx, dy)"

    def _check_point(self, name, point):
        if not isinstance(point, Point):
            raise TypeError(f"{name} must be a point ({self._POINTS}), got {point!r}")
        if point.item.model is not self:
            raise ValueError(f"{name} {point!r} belongs to another model")
        return point

    def add_beam(self, length=None, n_elements=None, E=None, rho=None, A=None, I=None,
                 start=(0.0, 0.0), angle=0.0, damping=0.0, **spatial):
        """Add a straight, unstressed, uniform beam of ``n_elements`` equal elements.

        Parameters
        ----------
        length : float
            m, > 0.
        n_elements : int
            >= 1.
        E, rho, A, I : float
            Young's modulus (Pa), density (kg/m^3), section area (m^2), second moment of
            area (m^4); all > 0.
        start : sequence of 2 floats
            Position of the first node (m).
        angle : float
            Direction of the beam (rad from +x).
        damping : float
            Kelvin-Voigt damping time c (s, >= 0): the stresses are ``E (eps + c epsdot)``;
            0 keeps the beam conservative.
        **spatial
            A spatial beam's parameters (``J``, ``G``, ``up``, ...): refused, naming the
            dimension.

        Returns
        -------
        Beam
            With points ``start``, ``end`` and ``node(i)``.

        Raises
        ------
        ValueError
            A parameter out of its range (the message names it); a spatial beam's parameter
            (or a 3-vector ``start``, a pair ``I``), named with the dimension.
        TypeError
            A missing parameter (length, n_elements, E, rho, A and I have no value of their
            own: their default None lets a spatial beam's call, whose curved form gives no
            length, be refused naming the dimension first).
        RuntimeError
            The model is frozen (it has been simulated or solved).

        Examples
        --------
        A steel beam of 2 m, 0.1 m square, along +y from the origin, with 1 ms of material
        damping:

        >>> m = rancf.Model()
        >>> b = m.add_beam(length=2.0, n_elements=8, E=2.07e11, rho=7800.0, A=0.01,
        ...                I=0.1**4 / 12, angle=np.pi / 2, damping=1e-3)
        >>> b.end
        beam[0].node(8)
        """
        self._check_open()
        refuse_parameters(2, "add_beam", spatial, SPATIAL_PARAMETERS["add_beam"])
        # every parameter defaults to None so that a spatial call (a curved beam gives no
        # length) is refused above, naming the dimension, before one is missed here
        checks.given("add_beam", ("length", length), ("n_elements", n_elements), ("E", E),
                     ("rho", rho), ("A", A), ("I", I))
        refuse_shape(2, "start", start, (3,))
        refuse_shape(2, "I", I, (2,))
        b = Beam(self, len(self._beams), length, n_elements, E, rho, A, I, start, angle, damping)
        self._beams.append(b)
        return b

    def add_rigid_body(self, mass, inertia, position=(0.0, 0.0), angle=0.0, **spatial):
        """Add a rigid body, described in its centre-of-mass frame.

        Parameters
        ----------
        mass : float
            kg, > 0.
        inertia : float
            Moment of inertia about the centre of mass (kg m^2), > 0.
        position : sequence of 2 floats
            Initial position of the centre of mass (m).
        angle : float
            Initial angle of the body frame (rad from +x).
        **spatial
            A spatial body's ``orientation``: refused, naming the dimension.

        Returns
        -------
        RigidBody
            Whose ``point(dx, dy)`` are points of its frame (m, from the centre of mass) and
            ``centre`` its centre of mass.

        Raises
        ------
        ValueError
            A parameter out of its range; a spatial body's parameter (``orientation``, a
            3-vector ``position``, a 3 x 3 ``inertia``), named with the dimension.
        RuntimeError
            The model is frozen.

        Examples
        --------
        A uniform bar of 1 kg and 0.5 m, hanging from a pin at its top end:

        >>> m = rancf.Model()
        >>> bar = m.add_rigid_body(mass=1.0, inertia=1.0 * 0.5**2 / 12, position=(0.0, -0.25),
        ...                        angle=-np.pi / 2)
        >>> pin = m.add_joint("revolute", m.ground.point(0.0, 0.0), bar.point(-0.25, 0.0))
        """
        self._check_open()
        refuse_parameters(2, "add_rigid_body", spatial, SPATIAL_PARAMETERS["add_rigid_body"])
        refuse_shape(2, "position", position, (3,))
        refuse_shape(2, "inertia", inertia, (3, 3))
        r = RigidBody(self, len(self._bodies), mass, inertia, position, angle)
        self._bodies.append(r)
        return r

    def add_joint(self, kind, parent, child, axis=None, drive=None, effort=None, **spatial):
        """Add a joint between a parent point and a child point (they must coincide).

        Parameters
        ----------
        kind : {"revolute", "prismatic", "fixed"} or another registered kind
            Revolute: positions equal, relative angle free. Fixed: relative angle and position
            held at their initial values (a clamp or weld). Prismatic: the child's point slides
            along the rail through the parent's point, and the relative angle is held. The kinds
            are those of :data:`rancf.joints.REGISTRY` (one module each, :mod:`rancf.joints`).
        parent, child : Point
            The child must be a point of a beam or rigid body; a point between two nodes of a
            beam (``beam.at(s)``) makes its constraint act on both nodes of its element and
            runs in the DAE formulation only. A revolute or fixed joint
            written with a ground point as the child (a loop closed onto the ground,
            ``add_joint("revolute", beam.end, m.ground.point(...))``) is reversed: stored with
            the ground point as parent (:attr:`Joint.reversed`), so that its coordinate q is
            the item's orientation minus the ground's, the negative of the order written; a
            drive or effort given applies to that q.
        axis : float, optional
            Prismatic only: rail angle (rad) in the parent's frame; default along the
            parent's direction at the point (a beam's tangent, a body's axis, a ground point's
            angle).
        drive : callable, optional
            ``drive(t) -> (q, qd, qdd)`` prescribes the joint coordinate (a motor with perfect
            speed control; its reaction is in the result). ``q(0)`` must match the initial
            geometry (modulo 2 pi for angles).
        effort : float or callable, optional
            Generalized force in the joint: N m (revolute) or N (prismatic), a constant or
            ``effort(t, q, qd)``; e.g. a spring-damper ``lambda t, q, qd: -k * q - c * qd``.
        **spatial
            A spatial joint's ``axes``: refused, naming the dimension.

        Returns
        -------
        Joint
            Pass it to :meth:`Result.joint` and :meth:`Result.reaction`.

        Raises
        ------
        TypeError
            A parent or child that is not a point, a drive that is not callable, an effort
            that is neither a number nor a callable.
        ValueError
            An unknown kind (a spatial-only kind is named with the dimension); a point of
            another model; ``axis`` on a joint that is not prismatic (a vector: a spatial
            joint's); a drive or effort on a fixed joint; both a drive and an effort; a ground
            point as the child of a prismatic joint (its rail belongs to the parent), or as
            both points; parent and child on the same item. Points that do not
            coincide are refused when the model is built.
        RuntimeError
            The model is frozen.

        Examples
        --------
        A beam clamped to a hub that a motor turns at 2 rad/s, and a second beam hinged to
        its end with a torsion spring-damper:

        >>> m = rancf.Model(gravity=(0.0, 0.0))
        >>> b1 = m.add_beam(1.0, 4, E=2e9, rho=7800.0, A=1e-4, I=1e-9)
        >>> b2 = m.add_beam(1.0, 4, E=2e9, rho=7800.0, A=1e-4, I=1e-9, start=(1.0, 0.0))
        >>> motor = m.add_joint("revolute", m.ground.point(0.0, 0.0), b1.start,
        ...                     drive=lambda t: (2.0 * t, 2.0, 0.0))
        >>> elbow = m.add_joint("revolute", b1.end, b2.start,
        ...                     effort=lambda t, q, qd: -50.0 * q - 0.5 * qd)
        >>> motor
        Joint(0: revolute driven, ground.point(0, 0, angle=0) -> beam[0].node(0))
        """
        self._check_open()
        refuse_parameters(2, "add_joint", spatial, SPATIAL_PARAMETERS["add_joint"])
        refuse_shape(2, "axis", axis, (3,))
        self._check_point("parent", parent)
        self._check_point("child", child)
        j = Joint(len(self._joints), kind, parent, child, axis, drive, effort)
        self._joints.append(j)
        return j

    def add_force(self, point, force=(0.0, 0.0), moment=0.0, **spatial):
        """Add a point force and a moment at a point of a beam or rigid body.

        Parameters
        ----------
        point : Point
            ``b.end``, ``b.node(i)``, ``r.point(dx, dy)``, ... (not a ground point); between
            two nodes ``b.at(s)``: the force's generalized force is ``S(xi)^T f`` on its
            element's nodes, the virtual work through the beam's shape functions, and the
            moment turns the centreline's slope there.
        force : sequence of 2 floats or callable
            N, fixed direction in space; or ``force(t) -> (fx, fy)`` with t in s.
        moment : float or callable
            N m, counter-clockwise positive; or ``moment(t) -> float``.
        **spatial
            A spatial load's ``follower``: refused, naming the dimension.

        Returns
        -------
        Load

        Raises
        ------
        TypeError
            ``point`` is not a point, or ``moment`` neither a number nor a callable.
        ValueError
            A ground point, a point of another model, a force that is not two finite numbers;
            a spatial load's form (``follower``, a 3-vector force or moment), named with the
            dimension.
        RuntimeError
            The model is frozen.

        Examples
        --------
        >>> m = rancf.Model(gravity=(0.0, 0.0))
        >>> b = m.add_beam(2.0, 8, E=2.07e11, rho=7800.0, A=0.01, I=8.333e-6)
        >>> clamp = m.add_joint("fixed", m.ground.point(0.0, 0.0), b.start)
        >>> tip = m.add_force(b.end, force=(0.0, -1e3), moment=lambda t: 10.0 * np.sin(t))
        """
        self._check_open()
        refuse_parameters(2, "add_force", spatial, SPATIAL_PARAMETERS["add_force"])
        refuse_shape(2, "force", force, (3,))
        refuse_shape(2, "moment", moment, (3,))
        self._check_point("point", point)
        load = Load(len(self._loads), point, force, moment)
        self._loads.append(load)
        return load

    def add_spring_damper(self, p1, p2, k, c=0.0, rest_length=None):
        """Add a linear spring-damper between two points (theory: Loads).

        Point 1 is pulled by ``f n`` and point 2 by ``-f n``, ``f = k (l - l0) + c l'`` (N),
        with ``l`` the distance of the points and ``n`` the unit vector from point 1 to point 2.
        Its potential ``1/2 k (l - l0)^2`` is in the ``elastic`` column of
        :meth:`Result.energy` and its damping power ``c l'^2`` in ``dissipated``.

        Parameters
        ----------
        p1, p2 : Point
            Ground points, beam nodes, points between nodes (``beam.at(s)``) or body points
            (not both on the ground); they must not
            coincide in the reference configuration (the line of action would be undefined).
        k : float
            Stiffness (N/m), >= 0.
        c : float
            Damping coefficient (N s/m), >= 0.
        rest_length : float, optional
            l0 (m), > 0; default the distance of the points in the reference configuration.

        Returns
        -------
        SpringDamper

        Raises
        ------
        TypeError
            A point that is not a point.
        ValueError
            A negative or non-finite k or c, a rest length that is not > 0, a point of another
            model, two ground points; points that coincide in the reference configuration are
            refused when the model is built.
        RuntimeError
            The model is frozen.

        Examples
        --------
        A mass on a spring-damper to the ground (it oscillates at sqrt(k/m) rad/s):

        >>> m = rancf.Model(gravity=(0.0, 0.0))
        >>> mass = m.add_rigid_body(2.0, 0.1, position=(1.0, 0.0))
        >>> spring = m.add_spring_damper(m.ground.point(0.0, 0.0), mass.point(0.0, 0.0),
        ...                              k=200.0, c=0.5, rest_length=0.9)
        """
        self._check_open()
        self._check_point("p1", p1)
        self._check_point("p2", p2)
        s = SpringDamper(len(self._springs), p1, p2, k, c, rest_length)
        self._springs.append(s)
        return s

    def add_rotational_spring_damper(self, joint, k, c=0.0, rest_angle=None):
        """Add a torsion spring-damper to a revolute joint (theory: Loads).

        The torque ``-k (q - q0) - c q'`` (N m) acts on the joint's continuous (unwrapped)
        coordinate q as an effort does. Its potential ``1/2 k (q - q0)^2`` is in the
        ``elastic`` column of :meth:`Result.energy` and its damping power ``c q'^2`` in
        ``dissipated``.

        Parameters
        ----------
        joint : Joint
            A revolute joint of this model.
        k : float
            Stiffness (N m/rad), >= 0.
        c : float
            Damping coefficient (N m s/rad), >= 0.
        rest_angle : float, optional
            q0 (rad); default the joint's initial coordinate.

        Returns
        -------
        RotationalSpringDamper

        Raises
        ------
        TypeError
            ``joint`` is not a Joint.
        ValueError
            A joint of another model or of another kind than revolute (a prismatic or fixed
            joint), a negative or non-finite k or c, a non-finite rest angle.
        RuntimeError
            The model is frozen.

        Examples
        --------
        >>> m = rancf.Model()
        >>> bar = m.add_rigid_body(1.0, 0.08, position=(0.5, 0.0))
        >>> hinge = m.add_joint("revolute", m.ground.point(0.0, 0.0), bar.point(-0.5, 0.0))
        >>> torsion = m.add_rotational_spring_damper(hinge, k=20.0, c=0.1)
        """
        self._check_open()
        if isinstance(joint, Joint) and joint.parent.item.model is not self:
            raise ValueError(f"joint {joint!r} belongs to another model")
        s = RotationalSpringDamper(len(self._rotational_springs), joint, k, c, rest_angle)
        self._rotational_springs.append(s)
        return s

    # --- reading ------------------------------------------------------------------------------
    @property
    def beams(self):
        """The beams, in the order added.

        Returns
        -------
        tuple of Beam

        Examples
        --------
        >>> m = rancf.pendulum(n_bodies=3, elements_per_body=2, body_length=1.0)
        >>> len(m.beams)
        3
        """
        return tuple(self._beams)

    @property
    def rigid_bodies(self):
        """The rigid bodies, in the order added.

        Returns
        -------
        tuple of RigidBody

        Examples
        --------
        >>> m = rancf.pendulum(n_bodies=3, elements_per_body=2, body_length=1.0)
        >>> len(m.rigid_bodies)
        0
        """
        return tuple(self._bodies)

    @property
    def joints(self):
        """The joints, in the order added.

        Returns
        -------
        tuple of Joint

        Examples
        --------
        >>> m = rancf.pendulum(n_bodies=3, elements_per_body=2, body_length=1.0)
        >>> len(m.joints)
        3
        """
        return tuple(self._joints)

    @property
    def loads(self):
        """The loads (point forces and moments), in the order added.

        Returns
        -------
        tuple of Load

        Examples
        --------
        >>> m = rancf.pendulum(n_bodies=3, elements_per_body=2, body_length=1.0)
        >>> len(m.loads)
        0
        """
        return tuple(self._loads)

    @property
    def spring_dampers(self):
        """The spring-dampers between points, in the order added.

        Returns
        -------
        tuple of SpringDamper

        Examples
        --------
        >>> m = rancf.Model(gravity=(0.0, 0.0))
        >>> body = m.add_rigid_body(1.0, 0.01, position=(1.0, 0.0))
        >>> spring = m.add_spring_damper(m.ground.point(0.0, 0.0), body.centre, k=100.0, c=0.5)
        >>> m.spring_dampers == (spring,)
        True
        """
        return tuple(self._springs)

    @property
    def rotational_spring_dampers(self):
        """The torsion spring-dampers of revolute joints, in the order added.

        Returns
        -------
        tuple of RotationalSpringDamper

        Examples
        --------
        >>> m = rancf.pendulum(n_bodies=1, elements_per_body=2, body_length=1.0)
        >>> torsion = m.add_rotational_spring_damper(m.joints[0], k=5.0)
        >>> m.rotational_spring_dampers == (torsion,)
        True
        """
        return tuple(self._rotational_springs)

    def build(self):
        """Check the whole model, freeze it and return its assembly (cached).

        :func:`rancf.simulate` and :func:`rancf.static` call it; call it yourself to check a
        model before a run.

        Returns
        -------
        rancf.model.Assembly
            The frozen arrays the formulations read: ``n_x`` coordinates (4 per vertex),
            ``n_vertices``, ``n_joints``, ``size`` (m) among others.

        Raises
        ------
        ValueError
            Joint points that do not coincide (within 1e-9 of the model's size), a drive whose
            q(0) does not match the geometry, an item not connected to the ground, a model
            without items.

        Examples
        --------
        >>> m = rancf.pendulum(n_bodies=2, elements_per_body=3, body_length=1.0)
        >>> m.build().n_x
        32
        """
        if self._assembly is None:
            self._assembly = Assembly(self)
        return self._assembly

    def plot(self, ax=None):
        """Draw the reference configuration: the check to do before a long run.

        Beams are drawn as their centrelines through the element shape functions (nodes
        marked), rigid bodies as their centre and frame with lines to their joint and load
        points, joints by kind (revolute, prismatic with its rail, fixed, driven), ground
        points, spring-dampers as zigzag lines (a joint's as a coil at the joint), and forces
        and moments as arrows (callable loads at t = 0; the longest force arrow is a fifth of
        the model size). The model is checked as when it is built (joint points must
        coincide) but not frozen. Imports matplotlib.

        Parameters
        ----------
        ax : matplotlib.axes.Axes, optional
            Where to draw; a new figure when None.

        Returns
        -------
        matplotlib.axes.Axes
            With equal aspect and axes in m.

        Raises
        ------
        TypeError
            ``ax`` is not a matplotlib Axes.
        ValueError
            The model does not assemble (joint points apart, ...), as in :meth:`build`.

        Examples
        --------
        >>> m = rancf.Model(gravity=(0.0, -9.81))
        >>> b = m.add_beam(length=2.0, n_elements=8, E=2.07e11, rho=7800.0, A=0.01, I=8.333e-6)
        >>> j = m.add_joint("revolute", m.ground.point(0.0, 0.0), b.start)
        >>> load = m.add_force(b.end, force=(0.0, -1e3))
        >>> ax = m.plot()
        """
        from .drawing import plot_model    # imports matplotlib: only when a plot is asked for
        return plot_model(self, ax)


def constructor_signature(cls):
    """The signature of ``cls(...)``: its ``__init__``'s without ``self`` (``Model.__new__``
    takes ``*args, **kwargs`` to choose the class, which is not what a user passes)."""
    init = inspect.signature(cls.__init__)
    return init.replace(parameters=tuple(init.parameters.values())[1:])


Model.__signature__ = constructor_signature(Model)


def pendulum(n_bodies=5, elements_per_body=5, body_length=5.0, E=21e6, rho=7800.0, side=0.03,
             joint="revolute", gravity=9.81, elastic_model="shabana"):
    """The reference chain of the RANCF paper: ``n_bodies`` equal beams of square section.

    Body 1 is pinned at the origin; consecutive bodies are joined by ``joint`` (the child's
    start on the parent's end); all start straight along +x at rest. The defaults are the
    paper's 5 x 5 pendulum (110 degrees of freedom): 5 bodies of 5 m in 5 elements each,
    E = 21 MPa, rho = 7800 kg/m^3, side 0.03 m (the project's reconstruction of the paper's
    data).

    Parameters
    ----------
    n_bodies : int
        Number of beams, >= 1.
    elements_per_body : int
        Elements of each beam, >= 1.
    body_length : float
        Length of each beam (m), > 0.
    E : float
        Young's modulus (Pa), > 0.
    rho : float
        Density (kg/m^3), > 0.
    side : float
        Side of the square section (m), > 0: ``A = side^2``, ``I = side^4 / 12``.
    joint : {"revolute", "prismatic"}
        The joint between consecutive bodies (the first is always pinned to the ground).
    gravity : float
        Gravitational acceleration along -y (m/s^2), >= 0.
    elastic_model : {"shabana", "berzeri", "reissner"}
        As in :class:`Model`.

    Returns
    -------
    Model
        Not yet frozen: more items, joints and loads can be added.

    Raises
    ------
    ValueError
        A parameter out of its range.

    Examples
    --------
    >>> m = rancf.pendulum()
    >>> m.build().n_x, len(m.beams)
    (120, 5)
    >>> res = rancf.simulate(rancf.pendulum(n_bodies=2, elements_per_body=2), 0.1, 1e-3)
    >>> res.status
    'ok'
    """
    n_bodies = checks.integer("n_bodies", n_bodies, 1, 10**5)
    elements_per_body = checks.integer("elements_per_body", elements_per_body, 1, 10**6)
    body_length = checks.positive("body_length", body_length)
    side = checks.positive("side", side)
    checks.choice("joint", joint, ("revolute", "prismatic"))
    model = Model(gravity=(0.0, -checks.non_negative("gravity", gravity)),
                  elastic_model=elastic_model)
    parent = model.ground.point(0.0, 0.0)
    for k in range(n_bodies):
        b = model.add_beam(body_length, elements_per_body, E, rho, side**2, side**4 / 12.0,
                           start=(k * body_length, 0.0))
        model.add_joint("revolute" if k == 0 else joint, parent, b.start)
        parent = b.end
    return model
