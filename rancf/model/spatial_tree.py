"""The arrays of a spatial model that the spatial formulations read (theory: Spatial trees).

A spatial model is a tree of **bodies**, each a rigid body in space with a position ``r`` (m) and
a frame ``A`` (3 x 3 rotation, columns the body's axes in global coordinates): a rigid body's
frame at its centre of mass, or a beam node with its lumped mass (the node frame's columns are
the beam axis x and the section axes y, z). Every body hangs from its parent body (or from the
ground, parent -1) by one **link** whose motion (``rancf.joints._codes.Motion``) moves it:

    A_c = A_p R(q) Q,     r_c = r_p + A_p (anchor + t(q)) - A_c offset,

with ``q`` the link's coordinates, ``Q`` the reference relative orientation (so q = 0 is the
reference configuration), ``anchor`` the link's point in the parent's frame and ``offset`` the
same point in the child's frame (the ground's frame is the identity at the origin). A joint of
the model is a link; an element of a beam is an ``M_ELEMENT`` link from node k-1 to node k
(``anchor = s_k``, ``Q = C_k``, ``offset = 0``; theory: Nodes and element coordinates). Bodies
are numbered so that a parent comes before its children.

A joint that reaches a body the tree already reaches closes a loop: it is kept beside the tree
as a **loop-closing link** between two bodies (the ``loop_*`` arrays, the same fields as a tree
link's), which the spatial DAE formulation turns into constraint rows and the recursion cannot
run (:attr:`SpatialTree.loops`).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..elements.ancf_cable import REST_SIZE


@dataclass(frozen=True)
class SpatialTree:
    """The frozen arrays of a spatial tree; n bodies, e elements, ``q_offset[-1]`` coordinates.

    Every array is read-only.

    Attributes
    ----------
    parent : int64 (n,)
        Parent body of each body; -1 the ground. ``parent[i] < i``.
    mass : float (n,)
        kg, > 0.
    inertia : float (n, 3, 3)
        Inertia tensor about the body's origin (its centre of mass) in the body frame (kg m^2).
    r0 : float (n, 3)
        Reference position of the body's origin (m).
    A0 : float (n, 3, 3)
        Reference frame (rotation matrix, columns the body axes in global coordinates).
    motion : int64 (n,)
        The link's motion, a ``rancf.joints._codes.Motion`` code: the composition
        ``translation + MOTION_ROTATION rotation`` of its primitives
        (:class:`rancf.joints.kind.SpatialMotion`), ``MOTION_ELEMENT`` added for an element.
    q_offset : int64 (n + 1,)
        Coordinates of body i's link are ``q[q_offset[i]:q_offset[i + 1]]``.
    anchor : float (n, 3)
        The link's point in the parent's frame (m; global for the ground).
    offset : float (n, 3)
        The same point in the child's frame (m).
    relative : float (n, 3, 3)
        ``Q = A0_parent^T A0_child``, the reference relative orientation.
    axes : float (n, 2, 3)
        Unit axes of the link in the parent's frame (``a0``, ``a1``; zeros where unused).
    element : int64 (n,)
        Index of the element whose link this is (``M_ELEMENT``), else -1.
    length : float (e,)
        Element length l (m): the norm of the translation of the SE(3) logarithm of the
        reference relative pose (the chord for a straight element, the arc for a circular one).
    stiffness : float (e, 6)
        ``diag(EA, k_y G A, k_z G A, G J, E I_y, E I_z)`` (N, N, N, N m^2, N m^2, N m^2).
    strain0 : float (e, 6)
        Reference strains ``(gamma0, kappa0)`` (1, 1/m).
    damping : float (e,)
        Kelvin-Voigt time c (s): the section forces are ``C (eps - eps0 + c eps')``.
    gravity : float (3,)
        m/s^2.
    joint_body : int64 (j,)
        The body whose link is joint j of the model (in the order the joints were added); -1
        for a joint that closes a loop (``loop_joint``).
    load_body : int64 (l,)
        The body each load of the model acts on (in the order the loads were added); for a
        load at a point between two nodes of a beam (``beam.at(s)``), its element's first
        node's.
    load_offset : float (l, 3)
        The load's point in that body's frame (m); for a load between two nodes ``(xi, 0,
        0)``, its place in the element.
    load_follower : bool (l,)
        True: the load's force and moment are given in the body's frame (at a point between
        nodes, the element's frame there) and turn with it; False: in global coordinates.
    size : float
        Model size (m), the largest extent along x, y or z of the reference positions (at
        least the longest beam; for bounds and tolerances).
    load_arc : int64 (l,)
        The element's second node's body of a load between two nodes, -1 for every other
        load (optional: left out, all -1).
    node_body : int64 (N,)
        The body of each beam node, beam after beam in the order added, node after node
        (``node_body[beam_nodes[b] + i]`` is node i of beam b). Optional (empty) in a tree
        built by hand, as are the next three.
    beam_nodes : int64 (n_beams + 1,)
        Where each beam's nodes start in ``node_body``.
    rigid_body : int64 (n_rigid,)
        The body of each rigid body of the model, in the order added.
    element_reversed : bool (e,)
        Elements are numbered beam after beam, element k of a beam joining its nodes k and
        k + 1; True where the element's link runs from node k + 1 to node k (a beam jointed at
        an inner node: the chain towards its start). Its strains are then those of the forward
        element with the opposite sign (the SE(3) logarithm of the inverse pose), its energy
        the same.
    loop_joint : int64 (k,)
        The model's joints that close loops (their ``joint_body`` is -1), in the order added;
        empty for a tree. The next arrays give each one's link, as a tree link's fields:
    loop_parent, loop_child : int64 (k,)
        The bodies the joint joins (parent -1: the ground).
    loop_motion : int64 (k,)
        Its ``Motion`` code.
    loop_anchor, loop_offset : float (k, 3)
        The joint point in the parent's frame (global for the ground) and in the child's (m).
    loop_relative : float (k, 3, 3)
        ``Q = A0_parent^T A0_child``.
    loop_axes : float (k, 2, 3)
        Its unit axes in the parent's frame (zeros where unused).
    loop_arc : int64 (k, 2)
        For a side (parent, child) at a point between two nodes of a beam (``beam.at(s)``):
        its element's second node's body (``loop_parent`` or ``loop_child`` the first's, the
        anchor or offset zero, the side's frame that of the element's curve at the point);
        -1 for every other side. Such a joint is a loop link even where it hangs an item
        (the item then a free body of the tree: the recursion joints beams at nodes).
    loop_xi : float (k, 2)
        The place of such a side's point in its element, in (0, 1); 0 for every other side.
    cable_x0 : float (c, 6)
        The reference coordinates ``[r, r']`` of every spatial ANCF cable node (m, 1), cable
        after cable in the order added; cable node k is "body" ``n_bodies + k`` in
        ``node_body``, ``load_body`` and the ``cable_joint_*`` arrays (the spatial DAE's
        numbering: its cable coordinates follow the bodies'). Empty without cables, as are the
        next arrays.
    cable_frame0 : float (c, 3, 3)
        A reference frame per cable node, x its tangent (for drawing and outputs).
    cable_element : int64 (ce, 2)
        The two cable nodes of each cable element.
    cable_length, cable_EA, cable_EI, cable_rhoA, cable_damping : float (ce,)
        Element length (m), axial (N) and bending (N m^2) stiffness, mass per length (kg/m),
        Kelvin-Voigt time (s).
    cable_rest : float (ce, 8)
        Each cable element's rest state, the strains its reference configuration has
        (:func:`rancf.elements.ancf_cable.rest_state`): axial strain at the 5 axial Gauss
        points, curvature magnitude (1/m) at the 3 bending ones; zeros for a straight cable.
    cable_joint : int64 (cj,)
        The model's joints at a cable point (their ``joint_body`` is -1, they close no loop).
    cable_joint_kind : int64 (cj,)
        0 spherical (the two points coincide), 1 a clamp (``fixed``: they coincide and the
        cable's slope stays normal to the two ``cable_joint_axes`` of the other side's frame),
        2 a splice (``fixed`` between two points of one cable, a ring: their positions and
        slopes equal).
    cable_joint_parent, cable_joint_child : int64 (cj,)
        The joint's two sides: -1 the ground, a body, or ``n_bodies + k`` cable node k.
    cable_joint_anchor, cable_joint_offset : float (cj, 3)
        The joint point in the parent's and in the child's frame (ground: global; a cable
        node: zero).
    cable_joint_axes : float (cj, 2, 3)
        A clamp's two unit vectors, normal to the cable's reference tangent, in the frame of
        its side that is not the cable (zeros for a spherical joint).
    spring_body : int64 (s, 2)
        The bodies of the two points of each spring-damper between points (-1: the ground), in
        the order added.
    spring_offset : float (s, 2, 3)
        The points in their bodies' frames (m; a ground point's global position; ``(xi, 0,
        0)`` for a point between two nodes, on its element's first node's body).
    spring_arc : int64 (s, 2)
        The element's second node's body of a point between two nodes, -1 for every other
        point (optional: left out, all -1).
    spring_law : float (s, 3)
        ``(k, c, l0)``: stiffness (N/m), damping (N s/m), rest length (m).
    joint_spring_body : int64 (r,)
        The body whose link (revolute, prismatic or spherical joint) each joint
        spring-damper acts on.
    joint_spring_law : float (r, 3)
        ``(k, c, q0)``: stiffness (N m/rad or N/m), damping (N m s/rad or N s/m), rest
        coordinate (rad or m; 0 on a spherical joint, whose rest is ``joint_spring_rest``).
    joint_spring_rest : float (r, 3)
        A spherical joint spring-damper's rest rotation vector q0 (rad, parent's frame;
        :class:`rancf.model.spatial_joints.SpatialJointSpringDamper`), zeros for the others
        (optional: left out, all zeros).
    loop_spring_joint : int64 (rl,)
        The joint (revolute, prismatic or spherical, closing a loop: no body of its own) each
        joint spring-damper on a loop-closing joint acts on; the spatial DAE runs them.
    loop_spring_law, loop_spring_rest : float (rl, 3)
        Their ``(k, c, q0)`` and rest rotation vectors, as ``joint_spring_law`` and
        ``joint_spring_rest``.
    """

    parent: np.ndarray
    mass: np.ndarray
    inertia: np.ndarray
    r0: np.ndarray
    A0: np.ndarray
    motion: np.ndarray
    q_offset: np.ndarray
    anchor: np.ndarray
    offset: np.ndarray
    relative: np.ndarray
    axes: np.ndarray
    element: np.ndarray
    length: np.ndarray
    stiffness: np.ndarray
    strain0: np.ndarray
    damping: np.ndarray
    gravity: np.ndarray
    joint_body: np.ndarray
    load_body: np.ndarray
    load_offset: np.ndarray
    load_follower: np.ndarray
    size: float
    load_arc: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    node_body: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    beam_nodes: np.ndarray = field(default_factory=lambda: np.zeros(1, np.int64))
    rigid_body: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    element_reversed: np.ndarray = field(default_factory=lambda: np.zeros(0, bool))
    loop_joint: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    loop_parent: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    loop_child: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    loop_motion: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    loop_anchor: np.ndarray = field(default_factory=lambda: np.zeros((0, 3)))
    loop_offset: np.ndarray = field(default_factory=lambda: np.zeros((0, 3)))
    loop_relative: np.ndarray = field(default_factory=lambda: np.zeros((0, 3, 3)))
    loop_axes: np.ndarray = field(default_factory=lambda: np.zeros((0, 2, 3)))
    loop_arc: np.ndarray = field(default_factory=lambda: np.zeros((0, 2), np.int64))
    loop_xi: np.ndarray = field(default_factory=lambda: np.zeros((0, 2)))
    cable_x0: np.ndarray = field(default_factory=lambda: np.zeros((0, 6)))
    cable_frame0: np.ndarray = field(default_factory=lambda: np.zeros((0, 3, 3)))
    cable_element: np.ndarray = field(default_factory=lambda: np.zeros((0, 2), np.int64))
    cable_length: np.ndarray = field(default_factory=lambda: np.zeros(0))
    cable_EA: np.ndarray = field(default_factory=lambda: np.zeros(0))
    cable_EI: np.ndarray = field(default_factory=lambda: np.zeros(0))
    cable_rhoA: np.ndarray = field(default_factory=lambda: np.zeros(0))
    cable_damping: np.ndarray = field(default_factory=lambda: np.zeros(0))
    cable_rest: np.ndarray = field(default_factory=lambda: np.zeros((0, REST_SIZE)))
    cable_joint: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    cable_joint_kind: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    cable_joint_parent: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    cable_joint_child: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    cable_joint_anchor: np.ndarray = field(default_factory=lambda: np.zeros((0, 3)))
    cable_joint_offset: np.ndarray = field(default_factory=lambda: np.zeros((0, 3)))
    cable_joint_axes: np.ndarray = field(default_factory=lambda: np.zeros((0, 2, 3)))
    spring_body: np.ndarray = field(default_factory=lambda: np.zeros((0, 2), np.int64))
    spring_offset: np.ndarray = field(default_factory=lambda: np.zeros((0, 2, 3)))
    spring_arc: np.ndarray = field(default_factory=lambda: np.zeros((0, 2), np.int64))
    spring_law: np.ndarray = field(default_factory=lambda: np.zeros((0, 3)))
    joint_spring_body: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    joint_spring_law: np.ndarray = field(default_factory=lambda: np.zeros((0, 3)))
    loop_spring_joint: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    loop_spring_law: np.ndarray = field(default_factory=lambda: np.zeros((0, 3)))
    joint_spring_rest: np.ndarray = None
    loop_spring_rest: np.ndarray = None

    def __post_init__(self):
        if len(self.load_arc) != len(self.load_body):
            # left out (a tree made without loads between nodes): -1, every load on its body
            object.__setattr__(self, "load_arc", np.full(len(self.load_body), -1, np.int64))
        if len(self.loop_arc) != len(self.loop_joint):
            # left out (a tree made without joints between nodes): every side on its body
            object.__setattr__(self, "loop_arc", np.full((len(self.loop_joint), 2), -1,
                                                         np.int64))
            object.__setattr__(self, "loop_xi", np.zeros((len(self.loop_joint), 2)))
        for name, law in (("joint_spring_rest", self.joint_spring_law),
                          ("loop_spring_rest", self.loop_spring_law)):
            # left out (a tree made without spherical joint springs, or replaced with other
            # joint springs): zeros, every rest rotation the reference configuration
            n = len(np.reshape(law, (-1, 3)))
            if getattr(self, name) is None or len(getattr(self, name)) != n:
                object.__setattr__(self, name, np.zeros((n, 3)))
        if np.shape(self.spring_arc) != np.shape(self.spring_body):
            object.__setattr__(self, "spring_arc", np.full(np.shape(self.spring_body), -1,
                                                           np.int64))
        for name, value in vars(self).items():
            if isinstance(value, np.ndarray):
                value.setflags(write=False)

    @property
    def n_bodies(self):
        """Number of bodies (beam nodes and rigid bodies)."""
        return len(self.parent)

    @property
    def n_q(self):
        """Number of link coordinates (joints and elements)."""
        return int(self.q_offset[-1])

    @property
    def n_cable_nodes(self):
        """Number of spatial ANCF cable nodes (6 coordinates each, no rotation)."""
        return len(self.cable_x0)

    def reference_poses(self):
        """The reference pose of every body, then of every cable node (its position and
        reference frame), (n_bodies + n_cable_nodes, 12) in the layout of ``Result.nodes``."""
        return np.concatenate([np.concatenate([self.r0, self.A0.reshape(-1, 9)], axis=1),
                               np.concatenate([self.cable_x0[:, :3],
                                               self.cable_frame0.reshape(-1, 9)], axis=1)])

    @property
    def loops(self):
        """The loop-closing links as the tuples :class:`rancf.formulations.spatial_dae.
        SpatialDAE` takes: ``(parent, child, motion, anchor, offset, Q, a0, a1)`` each."""
        return [(int(self.loop_parent[k]), int(self.loop_child[k]), int(self.loop_motion[k]),
                 self.loop_anchor[k], self.loop_offset[k], self.loop_relative[k],
                 self.loop_axes[k, 0], self.loop_axes[k, 1]) for k in range(len(self.loop_joint))]
