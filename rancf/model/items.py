"""The items of a mechanism and the points on them (theory: The mechanism model).

Handles returned by :class:`rancf.Model`: :class:`Ground`, :class:`Beam`, :class:`RigidBody`,
and the :class:`Point` objects that joints and loads attach to. A handle belongs to one model;
a point of another model is refused where it is used.
"""
from dataclasses import dataclass, field

import numpy as np

from ..utilities import checks
from ..elements import planar
from ..joints._codes import P_ARC as ARC, P_BODY as BODY, P_GROUND as GROUND, P_NODE as NODE


@dataclass(frozen=True, eq=False)
class Point:
    """A point of the mechanism that joints and loads attach to.

    Not constructed directly: ``m.ground.point(x, y)``, ``b.start``, ``b.end``, ``b.node(i)``,
    ``r.point(dx, dy)`` and ``r.centre`` return points. A point belongs to one model.

    Attributes
    ----------
    item : Ground, Beam or RigidBody
        What the point belongs to.
    kind : int
        0 a ground point, 1 a beam node, 2 a rigid-body point.
    node : int
        For a beam point, the node number within the beam (0 = start).
    offset : ndarray (2,)
        For a ground point its position (m); for a rigid-body point its position in the body
        frame from the centre of mass (m); zero for a beam node.
    angle : float
        For a ground point, the direction (rad from +x) that fixed, driven and prismatic
        joints to the ground use; 0 otherwise.

    Examples
    --------
    >>> m = rancf.Model()
    >>> b = m.add_beam(1.0, 4, E=2e9, rho=7800.0, A=1e-4, I=1e-9)
    >>> p = b.node(2)
    >>> p.node, p.item
    (2, beam[0])
    """

    item: object
    kind: int
    node: int = 0
    offset: np.ndarray = field(default_factory=lambda: np.zeros(2))
    angle: float = 0.0

    def __repr__(self):
        if self.kind == GROUND:
            return f"ground.point({self.offset[0]:g}, {self.offset[1]:g}, angle={self.angle:g})"
        if self.kind == NODE:
            return f"{self.item!r}.node({self.node})"
        return f"{self.item!r}.point({self.offset[0]:g}, {self.offset[1]:g})"


@dataclass(frozen=True, eq=False)
class ArcPoint(Point):
    """A point of a beam at an arc length between two nodes.

    Not constructed directly: ``beam.at(s)`` returns it (a node itself where s falls on one).
    ``Result.position``, ``velocity`` and ``deflection`` (and ``orientation``,
    ``angular_velocity`` in a spatial model) interpolate it by its element's own shape functions: planar, the cubic Hermite
    functions of the ANCF element (:mod:`rancf.elements.hermite`); spatial, the element's
    constant-strain SE(3) curve (:func:`rancf.results.outputs.spatial_arc_motion`).

    In a planar model loads, spring-dampers and joints take it, through the same map (theory:
    Loads): a force f there is the generalized force ``S(xi)^T f`` on its element's two nodes,
    a moment turns the centreline's slope ``S_x(xi) e`` there; a joint at it is a constraint
    on both nodes (the DAE formulation: the recursion joints beams at nodes). A spatial model
    takes it for loads and spring-dampers (the wrenches on its element's two nodes that do
    their virtual work along the element's curve, in both spatial formulations),
    joints (rows on the element's point and frame there, in the spatial DAE) and outputs.

    Attributes
    ----------
    item : Beam or SpatialBeam
    kind : int
        :data:`ARC`.
    node : int
        The element's first node k (the element joins nodes k and k + 1).
    s : float
        Arc length along the reference centreline from the beam's start (m).
    xi : float
        Its place in the element, ``(s - s_k) / l_k``, in (0, 1).

    Examples
    --------
    >>> b = rancf.Model().add_beam(1.0, 4, E=2e9, rho=7800.0, A=1e-4, I=1e-9)
    >>> p = b.at(0.3)
    >>> p, p.node, round(p.xi, 12)
    (beam[0].at(0.3), 1, 0.2)
    """

    s: float = 0.0
    xi: float = 0.0

    def __repr__(self):
        return f"{self.item!r}.at({self.s:g})"


def arc_point(beam, s, node_lengths):
    """``beam.at(s)``: the node at s (within 1e-12 of the beam's length), else an
    :class:`ArcPoint` in the element holding s.

    Parameters
    ----------
    beam : Beam or SpatialBeam
    s : float
        m, in ``[0, beam.length]``.
    node_lengths : ndarray (n_nodes,)
        Arc length of each node from the start (m), increasing.

    Raises
    ------
    TypeError
        s not a real number.
    ValueError
        s outside ``[0, beam.length]``.
    """
    if isinstance(s, (bool, np.bool_)) or not isinstance(s, (int, float, np.integer,
                                                            np.floating)):
        raise TypeError(f"s must be a real number (an arc length, m), got {s!r}")
    s = float(s)
    if not (np.isfinite(s) and 0.0 <= s <= beam.length):
        raise ValueError(f"s must be an arc length in [0, {beam.length:g}] m (along the beam's "
                         f"reference centreline from its start), got {s!r}")
    near = int(np.argmin(np.abs(node_lengths - s)))
    if abs(node_lengths[near] - s) <= 1e-12 * beam.length:
        return beam.node(near)
    k = min(int(np.searchsorted(node_lengths, s, side="right")) - 1, beam.n_elements - 1)
    xi = float((s - node_lengths[k]) / (node_lengths[k + 1] - node_lengths[k]))
    return ArcPoint(beam, ARC, node=k, offset=np.zeros(2 if beam.model.dim == 2 else 3), s=s,
                    xi=xi)


class Ground:
    """The fixed frame of a model, ``m.ground``.

    Not constructed directly: every :class:`rancf.Model` has one. Its points,
    ``m.ground.point(x, y, angle=0.0)``, can only be the parent of a joint.

    Examples
    --------
    >>> m = rancf.Model()
    >>> m.ground.point(1.0, 0.5, angle=np.pi / 2)
    ground.point(1, 0.5, angle=1.5708)
    """

    index = -1

    def __init__(self, model):
        self.model = model

    def __repr__(self):
        return "ground"

    def point(self, x, y, angle=0.0):
        """The ground point (x, y) with a direction.

        Parameters
        ----------
        x, y : float
            Position (m).
        angle : float
            Direction (rad from +x) that fixed, driven and prismatic joints to the ground use:
            a prismatic joint's rail runs along it, a fixed or driven joint's angle is measured
            from it.

        Returns
        -------
        Point

        Raises
        ------
        ValueError
            A coordinate or angle that is not a finite number.

        Examples
        --------
        A slider on a rail at 30 degrees:

        >>> m = rancf.Model()
        >>> r = m.add_rigid_body(1.0, 0.01)
        >>> rail = m.add_joint("prismatic", m.ground.point(0.0, 0.0, angle=np.pi / 6), r.centre)
        """
        return Point(self, GROUND, offset=np.array([checks.real("x", x), checks.real("y", y)]),
                     angle=checks.real("angle", angle))


class Beam:
    """A straight, unstressed, uniform ANCF beam of equal elements.

    Not constructed directly: :meth:`rancf.Model.add_beam` returns it. Besides each parameter
    in its range, the constants its elements are computed from (the element length
    ``l = length / n_elements``, mass ``rho A l``, slope inertia ``rho A l^3``, stiffnesses
    ``E A / l`` and ``E I / l^3``) must be normal floats, in [2.2e-308, 1.8e308]: a
    ``ValueError`` names the parameters otherwise (below that range a constant loses its digits
    and then is zero, a singular mass matrix; above it, infinite). No physical bound beyond
    that: scaled units and micro-scale beams are fine.

    Attributes
    ----------
    index : int
        Its number among the model's beams (in the order added).
    length, E, rho, A, I, damping, angle : float
        SI units (m, Pa, kg/m^3, m^2, m^4, s, rad).
    n_elements : int
        Number of elements.
    start_position : ndarray (2,)
        Where the beam starts (m).

    Examples
    --------
    >>> m = rancf.Model()
    >>> b = m.add_beam(2.0, 8, E=2.07e11, rho=7800.0, A=0.01, I=8.333e-6)
    >>> b, b.n_elements, b.length
    (beam[0], 8, 2.0)
    """

    def __init__(self, model, index, length, n_elements, E, rho, A, I, start, angle, damping):
        self.model = model
        self.index = index
        self.length = checks.positive("length", length)
        self.n_elements = checks.integer("n_elements", n_elements, 1, 10**6)
        self.E = checks.positive("E", E)
        self.rho = checks.positive("rho", rho)
        self.A = checks.positive("A", A)
        self.I = checks.positive("I", I)
        self.start_position = checks.vector("start", start)
        self.angle = checks.real("angle", angle)
        self.damping = checks.non_negative("damping", damping)
        # the constants of its elements must be computable, each a normal float
        n = dict(length=self.length, n_elements=self.n_elements)
        l = checks.derived("an element length l = length / n_elements (m)",
                           self.length / self.n_elements, **n)
        rho_a, e_a, e_i = (dict(rho=self.rho, A=self.A, **n), dict(E=self.E, A=self.A, **n),
                           dict(E=self.E, I=self.I, **n))
        for what, value, given in (
                ("an element mass rho A l (kg)", self.rho * self.A * l, rho_a),
                ("an element's slope inertia rho A l^3 (kg m^2)", self.rho * self.A * l * l * l,
                 rho_a),
                ("an axial stiffness E A / l (N/m)", self.E * self.A / l, e_a),
                ("a bending stiffness E I / l^3 (N/m)", self.E * self.I / l / l / l, e_i)):
            checks.derived(what, value, **given)

    def __repr__(self):
        return f"beam[{self.index}]"

    @property
    def n_nodes(self):
        """Number of nodes, ``n_elements + 1``.

        Returns
        -------
        int

        Examples
        --------
        >>> b = rancf.Model().add_beam(1.0, 4, E=2e9, rho=7800.0, A=1e-4, I=1e-9)
        >>> b.n_nodes
        5
        """
        return self.n_elements + 1

    def node(self, i):
        """Node ``i`` of the beam, a point for joints and loads.

        Parameters
        ----------
        i : int
            0 is the start, ``n_elements`` the end; negative numbers count from the end
            (-1 is the end).

        Returns
        -------
        Point

        Raises
        ------
        ValueError
            ``i`` outside ``[-n_nodes, n_elements]`` or not an integer.

        Examples
        --------
        >>> b = rancf.Model().add_beam(1.0, 4, E=2e9, rho=7800.0, A=1e-4, I=1e-9)
        >>> b.node(2), b.node(-1)
        (beam[0].node(2), beam[0].node(4))
        """
        i = checks.integer("i", i, -self.n_nodes, self.n_elements)
        return Point(self, NODE, node=i % self.n_nodes)

    def at(self, s):
        """The point at arc length s along the beam, for outputs, loads, spring-dampers and
        joints.

        A node where s falls on one (within 1e-12 of the length), else an :class:`ArcPoint`
        that ``Result.position``, ``velocity`` and ``deflection`` interpolate by the element's
        cubic Hermite functions of the node positions and slopes (exact for the element's own
        centreline), and that loads and spring-dampers act at through the same functions
        (``S(xi)^T f``). A joint at it runs in the DAE formulation (``formulation="auto"``
        picks it).

        Parameters
        ----------
        s : float
            Arc length from the start along the reference (straight) beam (m), in
            ``[0, length]``.

        Returns
        -------
        Point or ArcPoint

        Raises
        ------
        TypeError
            s not a real number.
        ValueError
            s outside ``[0, length]``.

        Examples
        --------
        >>> b = rancf.Model().add_beam(1.0, 4, E=2e9, rho=7800.0, A=1e-4, I=1e-9)
        >>> b.at(0.5), b.at(0.6)
        (beam[0].node(2), beam[0].at(0.6))

        A force between two nodes:

        >>> load = b.model.add_force(b.at(0.6), force=(0.0, -10.0))
        """
        return arc_point(self, s, np.linspace(0.0, self.length, self.n_nodes))

    @property
    def start(self):
        """The first node, ``node(0)``.

        Returns
        -------
        Point

        Examples
        --------
        >>> b = rancf.Model().add_beam(1.0, 4, E=2e9, rho=7800.0, A=1e-4, I=1e-9)
        >>> b.start
        beam[0].node(0)
        """
        return self.node(0)

    @property
    def end(self):
        """The last node, ``node(n_elements)``.

        Returns
        -------
        Point

        Examples
        --------
        >>> b = rancf.Model().add_beam(1.0, 4, E=2e9, rho=7800.0, A=1e-4, I=1e-9)
        >>> b.end
        beam[0].node(4)
        """
        return self.node(self.n_elements)

    def reference_nodes(self):
        """Node coordinates of the straight unstressed beam.

        Returns
        -------
        ndarray (n_nodes, 4)
            ``[x, y, x', y']`` of each node: position (m) and unit slope.

        Examples
        --------
        >>> b = rancf.Model().add_beam(1.0, 2, E=2e9, rho=7800.0, A=1e-4, I=1e-9, start=(0, 1))
        >>> b.reference_nodes()
        array([[0. , 1. , 1. , 0. ],
               [0.5, 1. , 1. , 0. ],
               [1. , 1. , 1. , 0. ]])
        """
        u = planar.direction(self.angle)
        s = np.linspace(0.0, self.length, self.n_nodes)
        return np.hstack([self.start_position + s[:, None] * u, np.tile(u, (self.n_nodes, 1))])


class RigidBody:
    """A rigid body in natural coordinates ``[x, y, u_x, u_y]`` (centre of mass, unit axis).

    Not constructed directly: :meth:`rancf.Model.add_rigid_body` returns it. ``mass`` and
    ``inertia`` must be normal floats (>= 2.2e-308), so that its mass matrix can be inverted.

    Attributes
    ----------
    index : int
        Its number among the model's rigid bodies.
    mass, inertia : float
        kg and kg m^2 (about the centre of mass).
    position : ndarray (2,)
        Initial centre of mass (m).
    angle : float
        Initial angle of the body frame (rad).

    Examples
    --------
    >>> r = rancf.Model().add_rigid_body(mass=2.0, inertia=0.1, position=(1.0, 0.0))
    >>> r, r.mass
    (rigid_body[0], 2.0)
    """

    def __init__(self, model, index, mass, inertia, position, angle):
        self.model = model
        self.index = index
        # positive normal floats: a mass matrix of them can be inverted
        self.mass = checks.real("mass", mass, low=checks.NORMAL[0])
        self.inertia = checks.real("inertia", inertia, low=checks.NORMAL[0])
        self.position = checks.vector("position", position)
        self.angle = checks.real("angle", angle)

    def __repr__(self):
        return f"rigid_body[{self.index}]"

    def point(self, dx=0.0, dy=0.0):
        """A point of the body, given in its frame.

        Parameters
        ----------
        dx, dy : float
            Position in the body frame from the centre of mass (m); dx along the body's
            axis (its ``angle``), dy normal to it.

        Returns
        -------
        Point

        Raises
        ------
        ValueError
            A coordinate that is not a finite number.

        Examples
        --------
        >>> r = rancf.Model().add_rigid_body(mass=2.0, inertia=0.1)
        >>> r.point(-0.25, 0.0)
        rigid_body[0].point(-0.25, 0)
        """
        return Point(self, BODY, offset=np.array([checks.real("dx", dx), checks.real("dy", dy)]))

    @property
    def centre(self):
        """The centre of mass, ``point(0, 0)``.

        Returns
        -------
        Point

        Examples
        --------
        >>> rancf.Model().add_rigid_body(mass=2.0, inertia=0.1).centre
        rigid_body[0].point(0, 0)
        """
        return self.point(0.0, 0.0)

    def reference_coordinates(self):
        """Natural coordinates of the initial pose.

        Returns
        -------
        ndarray (4,)
            ``[x, y, u_x, u_y]``: centre of mass (m) and unit axis.

        Examples
        --------
        >>> r = rancf.Model().add_rigid_body(1.0, 0.1, position=(1.0, 2.0), angle=np.pi / 2)
        >>> r.reference_coordinates().round(12)
        array([1., 2., 0., 1.])
        """
        return np.concatenate([self.position, planar.direction(self.angle)])
