"""The model: flexible bodies, joints and their numbering (DESIGN.md section 2).

A :class:`Chain` is immutable: topology, element constants and the layout of the state.
Body 1 is jointed to the ground at the origin by a revolute joint (a pin); body k+1's first
node is jointed to body k's last node. Elements are numbered base to tip, ``s = 0..Nbar-1``;
nodes body by body, each body with its own copy of its joint node, so
``n_nodes = Nbar + N`` and the generalized velocities number ``n_dof = 4 Nbar + 2 N``.

The prismatic joint is an unbounded rail along the parent's end tangent, with no stop: a
child under gravity can slide past the parent's end.
"""
from dataclasses import dataclass

import numpy as np

from . import element

#: Joint names and their kernel codes.
JOINTS = {"revolute": 0, "prismatic": 1}


@dataclass(frozen=True)
class Body:
    """A uniform flexible beam of ``n_elements`` equal ANCF elements.

    Parameters
    ----------
    length : float
        Undeformed length (m), > 0.
    n_elements : int
        Number of elements, >= 1.
    E : float
        Young's modulus (Pa), > 0.
    rho : float
        Density (kg/m^3), > 0.
    A : float
        Cross-section area (m^2), > 0.
    I : float
        Second moment of area (m^4), > 0.
    joint : {"revolute", "prismatic"}
        Joint to the previous body (to the ground for body 1, which must be revolute).
        Revolute: positions equal, slopes free. Prismatic: the first node slides along the
        parent's end tangent and keeps the parent's end slope direction.
    """

    length: float
    n_elements: int
    E: float
    rho: float
    A: float
    I: float
    joint: str = "revolute"

    def __post_init__(self):
        for name in ("length", "E", "rho", "A", "I"):
            object.__setattr__(self, name, element.check_positive(name, getattr(self, name)))
        n = self.n_elements
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
            raise TypeError(f"n_elements must be an integer >= 1, got {n!r}")
        if n < 1:
            raise ValueError(f"n_elements must be an integer >= 1, got {n!r}")
        object.__setattr__(self, "n_elements", int(n))
        if self.joint not in JOINTS:
            raise ValueError(f"joint must be one of {sorted(JOINTS)}, got {self.joint!r}")


@dataclass(frozen=True)
class State:
    """A state of a chain: node coordinates and generalized velocities.

    Attributes
    ----------
    nodes : ndarray (n_nodes, 4)
        ``[x, y, x', y']`` of every node, joint nodes duplicated (one copy per body); m.
    beta : ndarray (n_dof,)
        Generalized velocities of the recursion (DESIGN.md section 2): per element the
        right node's velocity (4, m/s and 1/s), preceded on the first element of a body by
        the joint rates eta (2): slope rates for a revolute joint, (gamma', lambda') (m/s,
        1/s) for a prismatic one.
    """

    nodes: np.ndarray
    beta: np.ndarray


class Chain:
    """A planar open chain of flexible bodies.

    Parameters
    ----------
    bodies : sequence of Body
        Base to tip; body 1 is pinned at the origin.
    gravity : float
        Gravitational acceleration along -y (m/s^2), >= 0.
    elastic_model : {"shabana", "berzeri", "reissner"}
        Elastic force model of every element (see :mod:`rancf.element`).

    Attributes
    ----------
    n_bodies, n_elements, n_nodes, n_dof : int
        N, Nbar, Nbar + N and 4 Nbar + 2 N.
    element_nodes : ndarray of int (Nbar, 2)
        Global node index of each element's left and right node.
    body_first_node : ndarray of int (N,)
        Node index of each body's first node.
    element_body : ndarray of int (Nbar,)
        Body index of each element.
    element_length, element_EA, element_EI, element_rhoA : ndarray (Nbar,)
        l (m), EA (N), EI (N m^2) and rho A (kg/m) of each element.
    beta_offset, beta_size : ndarray of int (Nbar,)
        Where each element's block of beta starts, and its size (6 on the first element of
        a body, 4 elsewhere).
    """

    def __init__(self, bodies, gravity=9.81, elastic_model="shabana"):
        bodies = tuple(bodies)
        if not bodies:
            raise ValueError("bodies must hold at least one Body")
        for k, b in enumerate(bodies):
            if not isinstance(b, Body):
                raise TypeError(f"bodies[{k}] must be a rancf.Body, got {type(b).__name__}")
        if bodies[0].joint != "revolute":
            raise ValueError("bodies[0].joint must be 'revolute' (body 1 is pinned to the "
                             f"ground), got {bodies[0].joint!r}")
        self.bodies = bodies
        self.elastic_model = elastic_model
        self.model_code = element.model_code(elastic_model)
        self.gravity = float(gravity)
        if not np.isfinite(self.gravity) or self.gravity < 0.0:
            raise ValueError(f"gravity must be finite and >= 0, got {gravity!r}")

        counts = np.array([b.n_elements for b in bodies])
        self.n_bodies = len(bodies)
        self.n_elements = int(counts.sum())
        self.n_nodes = self.n_elements + self.n_bodies
        self.n_dof = 4 * self.n_elements + 2 * self.n_bodies
        self.body_first_node = np.concatenate([[0], np.cumsum(counts + 1)[:-1]]).astype(np.intc)
        self.element_body = np.repeat(np.arange(self.n_bodies), counts).astype(np.intc)
        first = np.concatenate([[0], np.cumsum(counts)[:-1]])
        self.body_first_element = first.astype(np.intc)
        local = np.arange(self.n_elements) - first[self.element_body]
        left = self.body_first_node[self.element_body] + local
        self.element_nodes = np.stack([left, left + 1], axis=1).astype(np.intc)
        starts = np.zeros(self.n_elements, dtype=bool)
        starts[first] = True
        self.beta_size = np.where(starts, 6, 4).astype(np.intc)
        self.beta_offset = np.concatenate([[0], np.cumsum(self.beta_size)[:-1]]).astype(np.intc)
        # joint of each element's left node: -1 inside a body, else the JOINTS code
        self.element_joint = np.full(self.n_elements, -1, dtype=np.intc)
        self.element_joint[first] = [JOINTS[b.joint] for b in bodies]

        per_body = lambda f: np.array([f(b) for b in bodies])[self.element_body]
        self.element_length = per_body(lambda b: b.length / b.n_elements)
        self.element_EA = per_body(lambda b: b.E * b.A)
        self.element_EI = per_body(lambda b: b.E * b.I)
        self.element_rhoA = per_body(lambda b: b.rho * b.A)
        self.total_length = float(sum(b.length for b in bodies))
        self.has_prismatic = any(b.joint == "prismatic" for b in bodies)

    def __repr__(self):
        return (f"Chain({self.n_bodies} bodies, {self.n_elements} elements, "
                f"{self.n_dof} DOF, elastic_model={self.elastic_model!r})")

    def spec(self):
        """A JSON-serialisable description from which ``Chain.from_spec`` rebuilds the chain."""
        return {"bodies": [vars(b).copy() for b in self.bodies], "gravity": self.gravity,
                "elastic_model": self.elastic_model}

    @classmethod
    def from_spec(cls, spec):
        """Inverse of :meth:`spec`."""
        return cls([Body(**b) for b in spec["bodies"]], gravity=spec["gravity"],
                   elastic_model=spec["elastic_model"])

    def mass_matrices(self):
        """Constant element mass matrices (Nbar, 8, 8), kg and kg m."""
        # the elements of a body are equal: one matrix per body, repeated
        per_body = np.array([element.mass_matrix(b.rho, b.A, b.length / b.n_elements)
                             for b in self.bodies])
        return per_body[self.element_body]

    def gravity_forces(self):
        """Generalized gravity forces of the elements (Nbar, 8), N and N m."""
        per_body = np.array([element.gravity_force(b.rho, b.A, b.length / b.n_elements,
                                                   self.gravity) for b in self.bodies])
        return per_body[self.element_body]

    def straight_state(self):
        """The reference state: straight along +x from the origin, unit slopes, at rest."""
        nodes = np.zeros((self.n_nodes, 4))
        x = 0.0
        for k, b in enumerate(self.bodies):
            n = b.n_elements
            i0 = self.body_first_node[k]
            nodes[i0:i0 + n + 1, 0] = x + np.linspace(0.0, b.length, n + 1)
            x += b.length
        nodes[:, 2] = 1.0
        return State(nodes, np.zeros(self.n_dof))

    def state(self, nodes, beta=None, tol=1e-8):
        """Validate and return a :class:`State`.

        Parameters
        ----------
        nodes : array_like (n_nodes, 4)
            Node coordinates; joint nodes must satisfy their joints to ``tol`` times the
            chain length (pin at the origin, coincident revolute nodes, a prismatic child on
            the parent's end tangent with a parallel, same-sense slope).
        beta : array_like (n_dof,), optional
            Generalized velocities; zero (at rest) by default.
        """
        nodes = np.array(nodes, dtype=float)
        if nodes.shape != (self.n_nodes, 4):
            raise ValueError(f"nodes must have shape ({self.n_nodes}, 4), got {nodes.shape}")
        beta = np.zeros(self.n_dof) if beta is None else np.array(beta, dtype=float)
        if beta.shape != (self.n_dof,):
            raise ValueError(f"beta must have shape ({self.n_dof},), got {beta.shape}")
        if not (np.all(np.isfinite(nodes)) and np.all(np.isfinite(beta))):
            raise ValueError("nodes and beta must be finite")
        scale = tol * self.total_length
        if np.abs(nodes[0, :2]).max() > scale:
            raise ValueError(f"nodes[0] must be at the origin (the pin), got {nodes[0, :2]}")
        if np.any(np.hypot(nodes[:, 2], nodes[:, 3]) == 0.0):
            raise ValueError("every node slope r' must be non-zero")
        for k in range(1, self.n_bodies):
            c = self.body_first_node[k]
            p = c - 1
            if self.bodies[k].joint == "revolute":
                if np.abs(nodes[c, :2] - nodes[p, :2]).max() > scale:
                    raise ValueError(f"nodes[{c}] must coincide with nodes[{p}] (revolute joint "
                                     f"of body {k + 1})")
            else:
                t = nodes[p, 2:] / np.linalg.norm(nodes[p, 2:])
                d = nodes[c, :2] - nodes[p, :2]
                cross = nodes[c, 2] * nodes[p, 3] - nodes[c, 3] * nodes[p, 2]
                if (abs(d[0] * t[1] - d[1] * t[0]) > scale
                        or abs(cross) > tol * np.linalg.norm(nodes[p, 2:]) ** 2
                        or nodes[c, 2:] @ nodes[p, 2:] <= 0.0):
                    raise ValueError(f"nodes[{c}] must lie on the end tangent of nodes[{p}] with "
                                     f"a parallel slope (prismatic joint of body {k + 1})")
        return State(nodes, beta)


def pendulum(n_bodies=5, elements_per_body=5, body_length=5.0, E=21e6, rho=7800.0, side=0.03,
             joint="revolute", gravity=9.81, elastic_model="shabana"):
    """The reference chain of the RANCF paper: ``n_bodies`` equal beams of square section.

    ``side`` (m) gives ``A = side^2`` and ``I = side^4 / 12``; ``joint`` is the joint between
    consecutive bodies (body 1 is always pinned). Defaults: 5 x 5 elements of 1 m,
    E = 21 MPa, rho = 7800 kg/m^3, side 0.03 m (CASES.md reconstruction).
    """
    side = element.check_positive("side", side)
    if isinstance(n_bodies, bool) or not isinstance(n_bodies, (int, np.integer)) or n_bodies < 1:
        raise ValueError(f"n_bodies must be an integer >= 1, got {n_bodies!r}")
    bodies = [Body(body_length, elements_per_body, E, rho, side**2, side**4 / 12.0,
                   "revolute" if k == 0 else joint) for k in range(n_bodies)]
    return Chain(bodies, gravity=gravity, elastic_model=elastic_model)
