"""The frozen, checked arrays of a model that every formulation reads (theory: The mechanism
model).

Coordinates. Every beam node and every rigid body is a *vertex*, a node of its kind with
``node_size`` coordinates (the kinds state it: :class:`rancf.elements.beam.PlanarANCFBeam`,
:class:`rancf.elements.rigid.RigidBody`): ``[x, y, x', y']`` for a beam node (position, slope),
``[x, y, u_x, u_y]`` for a rigid body (centre of mass, unit axis). Beam nodes come first, beam by
beam in the order added, then the rigid bodies; each beam has its own nodes, so a joint between
two beams has a node on each. The coordinate vector of the whole model is ``x`` (``n_x =
node_size n_vertices``) in this order, the same for every formulation. The nodes of one kind
are one block of x (``node_kinds``), so a kind with nodes of another size adds its own block.

Joints as arrays (index j): the parent and child point kinds (``PointKind`` of
:mod:`rancf.joints._codes`), vertices and offsets, the primitives of the joint's kind that the
kernels run (its ``Coordinate`` and ``Direction``, :mod:`rancf.joints.kind`), whether it is
driven, its rail angle, its initial relative angle ``theta0`` (child orientation minus parent
orientation) and its initial coordinate ``q0`` (the drive's q(0) for a driven joint, theta0 for
an angle, 0 m for a slide).

Topology. Following joints from parent to child away from the ground gives a spanning tree
(joints taken in the order added); the joints it leaves out close loops. ``recursive_reason``
says why the recursive formulation cannot run the model (None when it can).
"""
import numpy as np
import scipy.sparse as sp

from ..elements import beam as beam_element
from ..elements import planar
from ..elements import rigid as rigid_element
from ..elements import hermite
from .items import ARC, GROUND, NODE
from .topology import grounded, spanning_tree


class NodeBlock:
    """The nodes of one kind in a model's coordinate vector.

    Attributes
    ----------
    kind : object
        The node kind (:class:`rancf.elements.beam.PlanarANCFBeam` for beam nodes,
        :class:`rancf.elements.rigid.RigidBody`); ``kind.node_size`` coordinates a node.
    vertices : slice
        Its vertices, consecutive.
    coordinates : slice
        Its coordinates in x, ``node_size * vertices``.
    """

    def __init__(self, kind, first, count, offset):
        self.kind = kind
        self.vertices = slice(first, first + count)
        self.coordinates = slice(offset, offset + kind.node_size * count)

    def __repr__(self):
        return f"NodeBlock({self.kind!r}, vertices={self.vertices}, coordinates={self.coordinates})"


class Assembly:
    """Arrays of a built :class:`rancf.Model` (read-only; see the module docstring).

    Attributes
    ----------
    model : Model
    element_kind : PlanarANCFBeam
        The beams' element kind (with the model's elastic model).
    body_kind : RigidBody
    node_kinds : list of NodeBlock
        The nodes of each kind present, in the order of x: beam nodes, then rigid bodies.
    node_size : int
        Coordinates per vertex, the kinds' (all kinds today have nodes of 4).
    n_vertices, n_x : int
    vertex_kind : ndarray of int (n_vertices,)
        0 beam node, 1 rigid body.
    beam_first_vertex : ndarray of int (n_beams,)
    body_vertex : ndarray of int (n_bodies,)
    element_vertices : ndarray of intc (n_elements, 2)
        Left and right vertex of each element.
    element_length, element_EA, element_EI, element_damping : ndarray (n_elements,)
        l (m), EA (N), EI (N m^2), Kelvin-Voigt damping time c (s).
    element_mass : ndarray (n_elements, element_size, element_size)
    body_mass, body_inertia : ndarray (n_bodies,)
    gravity_force : ndarray (n_x,)
        Assembled generalized gravity force (constant in absolute coordinates).
    body_coordinates : ndarray of int (n_bodies node_size,)
        The rigid bodies' coordinates in x, body after body.
    body_mass_diagonal : ndarray (n_x,)
        The rigid bodies' mass matrices, diagonal in natural coordinates (``diag(m, m, I_G,
        I_G)``, :func:`rancf.elements.rigid.mass_matrix`), on their coordinates; 0 on beam nodes.
    x0 : ndarray (n_x,)
        The reference configuration.
    size : float
        Largest distance between reference points (m; 1 m if zero): the scale of tolerances.
    """

    def __init__(self, model):
        self.model = model
        self.elastic_model = model.elastic_model
        self.model_code = beam_element.model_code(model.elastic_model)
        self.element_kind = beam_element.PlanarANCFBeam(model.elastic_model)
        self.body_kind = rigid_element.RigidBody()
        self.gravity = model.gravity.copy()
        beams, bodies = model.beams, model.rigid_bodies
        self.beams, self.bodies, self.joints, self.loads = beams, bodies, model.joints, model.loads
        if not beams and not bodies:
            raise ValueError("the model has no beam and no rigid body")

        counts = np.array([b.n_nodes for b in beams], dtype=int)
        self.beam_first_vertex = np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(int) \
            if beams else np.zeros(0, int)
        n_beam_vertices = int(counts.sum())
        self.n_beam_vertices = n_beam_vertices
        self.body_vertex = n_beam_vertices + np.arange(len(bodies))
        self.n_vertices = n_beam_vertices + len(bodies)
        self._node_layout(n_beam_vertices, len(bodies))
        self.vertex_kind = np.concatenate([np.zeros(n_beam_vertices, int),
                                           np.ones(len(bodies), int)])
        self.vertex_item = np.concatenate(
            [np.repeat(np.arange(len(beams)), counts), np.arange(len(bodies))]).astype(int)

        # elements
        rows = []
        for b, first in zip(beams, self.beam_first_vertex):
            for i in range(b.n_elements):
                rows.append((first + i, first + i + 1, b))
        self.n_elements = len(rows)
        self.element_vertices = np.array([(a, c) for a, c, _ in rows], dtype=np.intc).reshape(-1, 2)
        self.element_beam = np.array([b.index for _, _, b in rows], dtype=int)
        per = lambda f: np.array([f(b) for _, _, b in rows], dtype=float)
        self.element_length = per(lambda b: b.length / b.n_elements)
        self.element_EA = per(lambda b: b.E * b.A)
        self.element_EI = per(lambda b: b.E * b.I)
        self.element_rhoA = per(lambda b: b.rho * b.A)
        self.element_damping = per(lambda b: b.damping)
        kind, es = self.element_kind, self.element_kind.element_size
        per_beam_mass = [kind.mass(b.rho, b.A, b.length / b.n_elements) for b in beams]
        per_beam_gravity = [kind.gravity_force(b.rho, b.A, b.length / b.n_elements,
                                               self.gravity) for b in beams]
        self.element_mass = np.ascontiguousarray(
            np.array([per_beam_mass[b.index] for _, _, b in rows]).reshape(-1, es, es))
        self.element_gravity = np.array([per_beam_gravity[b.index] for _, _, b in rows]).reshape(-1, es)
        self.body_mass = np.array([r.mass for r in bodies], dtype=float)
        self.body_inertia = np.array([r.inertia for r in bodies], dtype=float)

        # assembled constants
        ns = self.node_size
        self.body_coordinates = (ns * self.body_vertex[:, None] + np.arange(ns)).reshape(-1)
        self.body_mass_diagonal = np.zeros(self.n_x)
        fg = np.zeros(self.n_x)
        kind.scatter(self.element_gravity, self.element_vertices, fg)
        for r, v in zip(bodies, self.body_vertex):
            self.body_mass_diagonal[ns * v:ns * v + ns] = np.diagonal(
                self.body_kind.mass(r.mass, r.inertia))
            fg[ns * v:ns * v + ns] += self.body_kind.gravity_force(r.mass, self.gravity)
        self.gravity_force = fg
        self.x0 = np.concatenate([b.reference_nodes().ravel() for b in beams]
                                 + [r.reference_coordinates() for r in bodies])
        pts = self.x0.reshape(-1, ns)[:, :2]
        extent = float(np.max(np.ptp(pts, axis=0))) if len(pts) > 1 else 0.0
        extent = max(extent, max((b.length for b in beams), default=0.0))
        self.size = extent if extent > 0.0 else 1.0

        self._joint_arrays()
        self._check_geometry()
        self._loads_arrays()
        self._spring_arrays(model)
        self._topology()
        self.has_callables = (any(j.driven or callable(j.effort) for j in self.joints)
                              or any(load.time_dependent for load in self.loads))
        for value in vars(self).values():
            if isinstance(value, np.ndarray):
                value.setflags(write=False)

    def _node_layout(self, n_beam_vertices, n_bodies):
        """node_kinds, node_size and n_x: one block of x per node kind present."""
        self.node_kinds, offset = [], 0
        for kind, first, count in ((self.element_kind, 0, n_beam_vertices),
                                   (self.body_kind, n_beam_vertices, n_bodies)):
            if count:
                self.node_kinds.append(NodeBlock(kind, first, count, offset))
                offset += kind.node_size * count
        sizes = {block.kind.node_size for block in self.node_kinds}
        if len(sizes) != 1:
            # the compiled kernels stride over vertices by one node size (rancf/elements/_beam.pxd)
            raise ValueError(f"node kinds of sizes {sorted(sizes)} in one model: the formulations "
                             "take one node size")
        self.node_size = sizes.pop()
        self.n_x = offset

    # --- the mass matrix ----------------------------------------------------------------------
    def mass_entries(self):
        """The global mass matrix M (n_x, n_x), entry by entry: the one assembly of it (theory:
        The DAE formulation), which the formulations and the reductor take.

        Every element's mass matrix on its coordinates (the element kind's ``dofs``), then each
        rigid body's diagonal (:attr:`body_mass_diagonal`). M is their sum; an entry on a node
        two elements share is summed from two terms, in either order the same number.

        Returns
        -------
        rows, cols : ndarray of int (n_entries,)
            Indices in x.
        values : ndarray (n_entries,)
            kg (kg m, kg m^2 where slopes and axes enter). The first ``n_elements
            element_size^2`` are the elements' matrices, element after element, row-major
            (``element_mass.ravel()``); the rest, ``body_mass_diagonal[body_coordinates]``.
        """
        es = self.element_kind.element_size
        dofs = self.element_kind.dofs(self.element_vertices)
        body = self.body_coordinates
        rows = np.concatenate([np.repeat(dofs, es, axis=1).reshape(-1), body])
        cols = np.concatenate([np.tile(dofs, (1, es)).reshape(-1), body])
        values = np.concatenate([self.element_mass.reshape(-1), self.body_mass_diagonal[body]])
        return rows, cols, values

    def mass_matrix(self):
        """The global mass matrix M (n_x, n_x), sparse (CSR): the sum of :meth:`mass_entries`.

        Examples
        --------
        A rigid translation v moves the whole mass: ``v^T M v = m |v|^2``.

        >>> m = rancf.Model()
        >>> b = m.add_beam(1.0, 4, E=2e9, rho=7800.0, A=1e-4, I=1e-9)
        >>> _ = m.add_joint("revolute", m.ground.point(0, 0), b.start)
        >>> A = m.build()
        >>> v = np.tile([1.0, 0.0, 0.0, 0.0], A.n_vertices)
        >>> bool(np.isclose(v @ A.mass_matrix() @ v, 7800.0 * 1e-4 * 1.0))
        True
        """
        rows, cols, values = self.mass_entries()
        return sp.csr_matrix((values, (rows, cols)), shape=(self.n_x, self.n_x))

    @property
    def mass_diagonal_blocks(self):
        """The mass matrix's block on each vertex, (n_vertices, node_size, node_size): the sum of
        the mass blocks there (the diagonal of the block mass matrix), from
        :meth:`mass_entries`."""
        rows, cols, values = self.mass_entries()
        ns = self.node_size
        own = rows // ns == cols // ns
        blocks = np.zeros((self.n_vertices, ns, ns))
        np.add.at(blocks, (rows[own] // ns, rows[own] % ns, cols[own] % ns), values[own])
        return blocks

    # --- points -----------------------------------------------------------------------------

    def vertex_of(self, point):
        """Vertex index of a point (-1 for the ground; a point at an arc length, its element's
        first node)."""
        if point.kind == GROUND:
            return -1
        if point.kind in (NODE, ARC):
            return int(self.beam_first_vertex[point.item.index] + point.node)
        return int(self.body_vertex[point.item.index])

    def point_coordinates(self, point):
        """The indices in x (int array) that a point's position and direction depend on: its
        vertex's, both nodes' of its element for a point at an arc length, none for the
        ground."""
        if point.kind == GROUND:
            return np.zeros(0, int)
        ns, v = self.node_size, self.vertex_of(point)
        return ns * v + np.arange(2 * ns if point.kind == ARC else ns)

    def kernel_offset(self, point):
        """The two numbers the compiled kernels read as a point's offset: a ground point's
        position, a body point's position in the body frame (m), zeros for a node; for a point
        at an arc length ``(xi, l)``, its place in its element and the element's length (m)
        (``P_ARC`` of :mod:`rancf.formulations._forces`)."""
        if point.kind == ARC:
            return np.array([point.xi, point.item.length / point.item.n_elements])
        return point.offset

    def point_position(self, point, x):
        """Position (..., 2) of ``point`` for coordinates x (..., n_x); at an arc length the
        element's centreline ``S(xi) e`` (:mod:`rancf.elements.hermite`)."""
        if point.kind == GROUND:
            return np.broadcast_to(point.offset, x.shape[:-1] + (2,)).copy()
        ns = self.node_size
        X = x[..., ns * self.vertex_of(point):ns * self.vertex_of(point) + ns]
        if point.kind == NODE:
            return X[..., :2].copy()
        if point.kind == ARC:
            v = ns * self.vertex_of(point)
            S = hermite.shape_values(point.xi, point.item.length / point.item.n_elements)
            return sum(Si * x[..., v + 2 * i:v + 2 * i + 2] for i, Si in enumerate(S))
        return planar.body_point(X, point.offset)

    def point_direction(self, point, x):
        """Direction vector (..., 2) at ``point``: a beam's slope (at an arc length the
        centreline's, ``dS/dx e``), a body's axis, a ground point's (cos a, sin a)."""
        if point.kind == GROUND:
            return np.broadcast_to(planar.direction(point.angle), x.shape[:-1] + (2,)).copy()
        v = self.vertex_of(point)
        if point.kind == ARC:
            l = point.item.length / point.item.n_elements
            S = hermite.shape_derivatives(np.array(point.xi), l)[0]
            return sum(Si * x[..., self.node_size * v + 2 * i:self.node_size * v + 2 * i + 2]
                       for i, Si in enumerate(S))
        return x[..., self.node_size * v + 2:self.node_size * (v + 1)].copy()

    # --- joints -----------------------------------------------------------------------------
    def _joint_arrays(self):
        joints = self.joints
        n = len(joints)
        self.n_joints = n
        self.joint_coordinate = np.array([j.type.coordinate for j in joints], dtype=np.intc)
        self.joint_direction = np.array([j.type.direction for j in joints], dtype=np.intc)
        self.joint_driven = np.array([j.driven for j in joints], dtype=np.intc)
        self.joint_axis = np.array([0.0 if j.axis is None else j.axis for j in joints])
        for side in ("parent", "child"):
            pts = [getattr(j, side) for j in joints]
            setattr(self, f"{side}_kind", np.array([p.kind for p in pts], dtype=np.intc))
            setattr(self, f"{side}_vertex", np.array([self.vertex_of(p) for p in pts], dtype=np.intc))
            setattr(self, f"{side}_offset", np.array([self.kernel_offset(p) for p in pts],
                                                     dtype=float).reshape(n, 2))
            setattr(self, f"{side}_angle", np.array([p.angle for p in pts], dtype=float))
        x0 = self.x0
        theta0 = np.zeros(n)
        for k, j in enumerate(joints):
            p = self.point_direction(j.parent, x0)
            c = self.point_direction(j.child, x0)
            theta0[k] = planar.joint_angle(p, c)
        self.joint_theta0 = theta0
        self.joint_q0 = np.array([j.type.q0(t0) for j, t0 in zip(joints, theta0)])

    def _check_geometry(self):
        """Joint points coincide; drives start at the initial geometry (theory: Assembly and the
        initial state)."""
        tol = 1e-9 * self.size
        for k, j in enumerate(self.joints):
            gap = np.linalg.norm(self.point_position(j.parent, self.x0)
                                 - self.point_position(j.child, self.x0))
            if gap > tol:
                raise ValueError(f"joint {k} ({j.kind}): the parent point {j.parent!r} and the child "
                                 f"point {j.child!r} are {gap:.6g} m apart in the initial "
                                 f"configuration; joint points must coincide (within {tol:.3g} m)")
            if not j.driven:
                continue
            q, _, _ = j.drive_values(0.0)
            self.joint_q0[k] = j.type.drive_start(k, j, q, self.joint_theta0[k], tol)

    def _loads_arrays(self):
        loads = self.loads
        self.load_kind = np.array([l.point.kind for l in loads], dtype=np.intc)
        self.load_vertex = np.array([self.vertex_of(l.point) for l in loads], dtype=np.intc)
        self.load_offset = np.array([self.kernel_offset(l.point) for l in loads],
                                    dtype=float).reshape(-1, 2)

    def _spring_arrays(self, model):
        """Spring-dampers between points (``spring_kind``, ``spring_vertex``, ``spring_offset``:
        (n, 2), (n, 2), (n, 2, 2) of their two points; ``spring_k``, ``spring_c``,
        ``spring_rest``: N/m, N s/m, m) and in revolute joints (``torsion_joint``,
        ``torsion_k``, ``torsion_c``, ``torsion_rest``: N m/rad, N m s/rad, rad), the default
        rest lengths and angles those of the reference configuration."""
        springs = self.springs = model.spring_dampers
        self.spring_kind = np.array([[p.kind for p in s.points] for s in springs],
                                    dtype=np.intc).reshape(-1, 2)
        self.spring_vertex = np.array([[self.vertex_of(p) for p in s.points] for s in springs],
                                      dtype=np.intc).reshape(-1, 2)
        self.spring_offset = np.array([[self.kernel_offset(p) for p in s.points] for s in springs],
                                      dtype=float).reshape(-1, 2, 2)
        self.spring_k = np.array([s.k for s in springs], dtype=float)
        self.spring_c = np.array([s.c for s in springs], dtype=float)
        rest = np.zeros(len(springs))
        for i, s in enumerate(springs):
            length = float(np.linalg.norm(self.point_position(s.points[1], self.x0)
                                          - self.point_position(s.points[0], self.x0)))
            if length <= 1e-9 * self.size:
                raise ValueError(f"spring-damper {i}: its points {s.points[0]!r} and "
                                 f"{s.points[1]!r} coincide in the reference configuration "
                                 f"({length:.3g} m apart): the line of its force is undefined; "
                                 "attach it to points apart")
            rest[i] = length if s.rest_length is None else s.rest_length
        self.spring_rest = rest
        torsions = self.torsions = model.rotational_spring_dampers
        self.torsion_joint = np.array([t.joint.index for t in torsions], dtype=np.intc)
        self.torsion_k = np.array([t.k for t in torsions], dtype=float)
        self.torsion_c = np.array([t.c for t in torsions], dtype=float)
        self.torsion_rest = np.array([self.joint_q0[t.joint.index] if t.rest_angle is None
                                      else t.rest_angle for t in torsions], dtype=float)

    def energies(self, nodes, velocities, joint_q=None):
        """Kinetic, elastic and gravity energy (J) at every output, (n_out, 3).

        Kinetic ``1/2 sum V_E^T M_E V_E + 1/2 sum (m |r'|^2 + I_G |u'|^2)``, elastic ``sum U(e)``
        plus the spring-dampers' potentials ``1/2 k (l - l0)^2`` and ``1/2 k (q - q0)^2`` (the
        latter on the joint coordinates ``joint_q`` (n_out, n_joints), needed when the model has
        torsion spring-dampers), gravity ``-F_G . x`` (a linear potential in absolute
        coordinates). ``nodes``, ``velocities`` (n_out, n_vertices, node_size): the coordinates and
        their rates at the outputs (m, 1, m/s, 1/s).
        """
        nodes = np.ascontiguousarray(nodes, dtype=float)
        velocities = np.ascontiguousarray(velocities, dtype=float)
        out = np.zeros((len(nodes), 3))
        if self.n_elements:
            out[:, :2] = self.element_kind.energies(
                self.element_vertices, self.element_length, self.element_EA, self.element_EI,
                self.element_mass, nodes, velocities)
        if len(self.bodies):
            out[:, 0] += self.body_kind.kinetic_energies(self.body_mass, self.body_inertia,
                                                         velocities[:, self.body_vertex, :])
        out[:, 2] = -nodes.reshape(len(nodes), -1) @ self.gravity_force
        if len(self.springs) or len(self.torsions):
            out[:, 1] += self.spring_energy(nodes.reshape(len(nodes), -1), joint_q)
        return out

    def spring_energy(self, x, joint_q):
        """Potential of the spring-dampers (J) at coordinates x (n_out, n_x) and joint
        coordinates joint_q (n_out, n_joints): ``sum 1/2 k (l - l0)^2 + sum 1/2 k (q - q0)^2``."""
        out = np.zeros(len(x))
        for i, s in enumerate(self.springs):
            d = self.point_position(s.points[1], x) - self.point_position(s.points[0], x)
            out += 0.5 * self.spring_k[i] * (np.linalg.norm(d, axis=-1) - self.spring_rest[i]) ** 2
        if len(self.torsions):
            q = np.asarray(joint_q).reshape(len(x), -1)[:, self.torsion_joint]
            out += (0.5 * self.torsion_k * (q - self.torsion_rest) ** 2).sum(axis=1)
        return out

    # --- topology ---------------------------------------------------------------------------
    def _topology(self):
        """Connectivity, the spanning tree from the ground, and whether recursion applies."""
        n_items = len(self.beams) + len(self.bodies)
        item = lambda p: (-1 if p.kind == GROUND else
                          p.item.index if p.kind in (NODE, ARC) else len(self.beams) + p.item.index)
        edges = [(item(j.parent), item(j.child)) for j in self.joints]
        seen = grounded(edges)
        loose = [k for k in range(n_items) if k not in seen]
        if loose:
            names = [repr(self.beams[k]) if k < len(self.beams) else
                     repr(self.bodies[k - len(self.beams)]) for k in loose]
            raise ValueError(f"{', '.join(names)} not connected to the ground by any chain of "
                             "joints; every item must be (no free-floating bodies)")
        # directed spanning tree, parent to child, joints in the order added
        order, reached, visited = spanning_tree(edges)
        parent_joint = np.full(n_items, -1, dtype=int)
        for b, k in reached.items():
            parent_joint[b] = k
        tree = set(parent_joint[parent_joint >= 0].tolist())
        self.loop_joints = [k for k in range(len(edges)) if k not in tree]
        self.item_parent_joint = parent_joint
        self.item_order = order
        reason = None
        if len(order) < n_items:
            missing = [k for k in range(n_items) if k not in visited]
            reason = (f"item {missing[0]} cannot be reached from the ground going from parent to "
                      "child points: write each joint parent first")
        elif self.loop_joints:
            reason = (f"joints {self.loop_joints} close loops (the recursive formulation takes "
                      "trees only): use formulation='dae'")
        else:
            for k in tree:
                j = self.joints[k]
                arc = [p for p in (j.parent, j.child) if p.kind == ARC]
                if arc:
                    reason = (f"joint {k} attaches to {arc[0]!r}, a point between two nodes of "
                              f"{arc[0].item!r}; the recursive formulation joints beams at "
                              "nodes only: use formulation='dae'")
                    break
                if j.child.kind == NODE and j.child.node != 0:
                    reason = (f"joint {k} attaches beam {j.child.item.index} at node "
                              f"{j.child.node}; the recursive formulation needs every child beam "
                              "jointed at its start: use formulation='dae'")
                    break
                if j.type.recursion(j.child.kind, j.driven) is None:
                    reason = (f"joint {k} ({j.kind}): {j.type.recursion_reason}; use "
                              "formulation='dae'")
                    break
        self.recursive_reason = reason

    @property
    def is_tree(self):
        """True when the joints form a tree rooted at the ground (no closed loop)."""
        return not self.loop_joints

    def tip_point(self):
        """The end of the last beam added (the tip of a chain)."""
        if not self.beams:
            raise ValueError("the model has no beam, so no tip")
        return self.beams[-1].end

