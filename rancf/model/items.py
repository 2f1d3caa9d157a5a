"""The items of a mechanism and the points on them (DESIGN.md section 6).

Handles returned by :class:`rancf.Model`: :class:`Ground`, :class:`Beam`, :class:`RigidBody`,
and the :class:`Point` objects that joints and loads attach to. A handle belongs to one model;
a point of another model is refused where it is used.
"""
from dataclasses import dataclass, field

import numpy as np

from .. import checks

#: Point kinds, as the kernels number them.
GROUND, NODE, BODY = 0, 1, 2


@dataclass(frozen=True, eq=False)
class Point:
    """A point of the mechanism that joints and loads attach to.

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


class Ground:
    """The fixed frame. ``ground.point(x, y, angle=0.0)`` is a point of it."""

    index = -1

    def __init__(self, model):
        self.model = model

    def __repr__(self):
        return "ground"

    def point(self, x, y, angle=0.0):
        """The ground point (x, y) (m) with direction ``angle`` (rad from +x, DECISIONS 3)."""
        return Point(self, GROUND, offset=np.array([checks.real("x", x), checks.real("y", y)]),
                     angle=checks.real("angle", angle))


class Beam:
    """A straight, unstressed, uniform ANCF beam of equal elements (see :meth:`Model.add_beam`).

    Attributes
    ----------
    index : int
        Its number among the model's beams (in the order added).
    length, E, rho, A, I, damping, angle : float
        SI units (m, Pa, kg/m^3, m^2, m^4, s, rad).
    n_elements : int
    start_position : ndarray (2,)
        Where the beam starts (m).
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

    def __repr__(self):
        return f"beam[{self.index}]"

    @property
    def n_nodes(self):
        return self.n_elements + 1

    def node(self, i):
        """Node ``i`` (0 = start, ``n_elements`` = end; negative counts from the end)."""
        i = checks.integer("i", i, -self.n_nodes, self.n_elements)
        return Point(self, NODE, node=i % self.n_nodes)

    @property
    def start(self):
        """The first node."""
        return self.node(0)

    @property
    def end(self):
        """The last node."""
        return self.node(self.n_elements)

    def reference_nodes(self):
        """Node coordinates ``[x, y, x', y']`` (n_nodes, 4) of the straight unstressed beam."""
        u = np.array([np.cos(self.angle), np.sin(self.angle)])
        s = np.linspace(0.0, self.length, self.n_nodes)
        return np.hstack([self.start_position + s[:, None] * u, np.tile(u, (self.n_nodes, 1))])


class RigidBody:
    """A rigid body in natural coordinates (see :meth:`Model.add_rigid_body`).

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
    """

    def __init__(self, model, index, mass, inertia, position, angle):
        self.model = model
        self.index = index
        self.mass = checks.positive("mass", mass)
        self.inertia = checks.positive("inertia", inertia)
        self.position = checks.vector("position", position)
        self.angle = checks.real("angle", angle)

    def __repr__(self):
        return f"rigid_body[{self.index}]"

    def point(self, dx=0.0, dy=0.0):
        """The point (dx, dy) (m) of the body frame, from the centre of mass."""
        return Point(self, BODY, offset=np.array([checks.real("dx", dx), checks.real("dy", dy)]))

    @property
    def centre(self):
        """The centre of mass."""
        return self.point(0.0, 0.0)

    def reference_coordinates(self):
        """``[x, y, u_x, u_y]`` (4,) of the initial pose."""
        return np.concatenate([self.position, [np.cos(self.angle), np.sin(self.angle)]])
