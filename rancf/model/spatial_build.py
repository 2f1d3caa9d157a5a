"""The builder of a spatial model's :class:`~rancf.model.spatial_tree.SpatialTree` (theory:
Spatial trees).

Bodies: every beam node (its lumped mass and rotary inertia, DESIGN section 7) and every rigid
body. Links: every joint (its kind's ``Motion``) and every element (``M_ELEMENT``). An item hangs
from the ground through the joint whose child it is; following joints from parent to child
reaches every item once (a tree: a joint that reaches an item a second time closes a loop, which
the recursion cannot run). A beam jointed at node j is two chains from that node: nodes j+1..n
through the elements forward, nodes j-1..0 through them reversed (the link from node k+1 to node
k). Bodies are numbered item after item in the order the tree reaches them, and within a beam j,
j+1..n, j-1..0: a parent always comes first.
"""
import numpy as np

from ..joints._codes import M_ELEMENT, P_BODY, P_GROUND, P_NODE
from .spatial_tree import SpatialTree

LOOP_MESSAGE = "a spatial closed loop needs the spatial DAE formulation, not yet available"


class _Bodies:
    """The per-body rows of the tree, appended parent first."""

    def __init__(self):
        self.rows = []

    def add(self, **row):
        self.rows.append(row)
        return len(self.rows) - 1

    def array(self, name, dtype=float):
        return np.array([row[name] for row in self.rows], dtype=dtype)


def build_tree(model):
    """Check a spatial model and return its tree (the arrays of :class:`SpatialTree`).

    Parameters
    ----------
    model : rancf.Model
        A spatial model (``dim=3``).

    Returns
    -------
    SpatialTree

    Raises
    ------
    ValueError
        A model without items; joint points apart (more than 1e-9 of the model size); an item
        not connected to the ground; a joint written child first (its child is nearer the
        ground); a joint that closes a loop; a drive whose q(0) is not 0.
    """
    beams, bodies, joints, loads = model.beams, model.rigid_bodies, model.joints, model.loads
    if not beams and not bodies:
        raise ValueError("the model has no beam and no rigid body")
    size = _size(model)
    tol = 1e-9 * size
    for j in joints:
        gap = float(np.linalg.norm(point_position(j.parent) - point_position(j.child)))
        if gap > tol:
            raise ValueError(f"joint {j.index} ({j.kind}): the parent point {j.parent!r} and the "
                             f"child point {j.child!r} are {gap:.6g} m apart in the reference "
                             f"configuration; joint points must coincide (within {tol:.3g} m)")
        if j.driven:
            j.drive_start(tol)
    order, parent_joint = _tree(model)

    rows = _Bodies()
    beam_nodes = np.concatenate([[0], np.cumsum([b.n_nodes for b in beams])]).astype(np.int64)
    node_body = np.full(beam_nodes[-1], -1, dtype=np.int64)
    rigid_body = np.full(len(bodies), -1, dtype=np.int64)
    joint_body = np.full(len(joints), -1, dtype=np.int64)
    first_element = np.concatenate([[0], np.cumsum([b.n_elements for b in beams])]).astype(int)
    n_elements = int(first_element[-1])
    reversed_ = np.zeros(n_elements, dtype=bool)
    length, strain0 = np.zeros(n_elements), np.zeros((n_elements, 6))
    stiffness, damping = np.zeros((n_elements, 6)), np.zeros(n_elements)

    body_of = lambda point: point_body(point, node_body, beam_nodes, rigid_body)
    frame = lambda body: np.eye(3) if body < 0 else rows.rows[body]["A0"]
    for item in order:
        j = joints[parent_joint[item]]
        p, anchor = body_of(j.parent)
        A_p = frame(p)
        axes = np.zeros((2, 3))
        given = j.axes if j.axes is not None else ([j.axis] if j.axis is not None else [])
        for k, a in enumerate(given):
            axes[k] = A_p.T @ a
        link = dict(parent=p, motion=int(j.type.spatial.motion),
                    n_q=j.type.spatial.n_coordinates, anchor=anchor, axes=axes, element=-1)
        if j.child.kind == P_BODY:
            r = j.child.item
            c = rows.add(**link, mass=r.mass, inertia=r.inertia, r0=r.position, A0=r.orientation,
                         offset=j.child.offset, relative=A_p.T @ r.orientation)
            rigid_body[r.index] = c
        else:
            b = j.child.item
            mass, inertia = b.node_masses()
            r0, A0 = b.positions, b.frames
            root = j.child.node
            c = rows.add(**link, mass=mass[root], inertia=inertia[root], r0=r0[root],
                         A0=A0[root], offset=np.zeros(3), relative=A_p.T @ A0[root])
            own = node_body[beam_nodes[b.index]:beam_nodes[b.index + 1]]    # a view
            own[root] = c
            C = b.stiffness()
            for reverse, nodes in ((False, range(root + 1, b.n_nodes)),
                                   (True, range(root - 1, -1, -1))):
                s, Q, l, eps0 = b.reference_elements(reverse)
                for k in nodes:
                    # element e joins nodes e and e + 1 of the beam
                    e = k if reverse else k - 1
                    g = first_element[b.index] + e
                    prev = k + 1 if reverse else k - 1
                    own[k] = rows.add(
                        parent=int(own[prev]), motion=int(M_ELEMENT), n_q=6,
                        anchor=s[e], axes=np.zeros((2, 3)), element=g, mass=mass[k],
                        inertia=inertia[k], r0=r0[k], A0=A0[k], offset=np.zeros(3),
                        relative=Q[e])
                    reversed_[g] = reverse
                    length[g], strain0[g] = l[e], eps0[e]
                    stiffness[g], damping[g] = C[e], b.damping
        joint_body[j.index] = c

    load_body, load_offset = [], []
    for load in loads:
        body, offset = body_of(load.point)
        load_body.append(body)
        load_offset.append(offset)
    n_q = rows.array("n_q", np.int64)
    return SpatialTree(
        parent=rows.array("parent", np.int64), mass=rows.array("mass"),
        inertia=rows.array("inertia").reshape(-1, 3, 3), r0=rows.array("r0").reshape(-1, 3),
        A0=rows.array("A0").reshape(-1, 3, 3), motion=rows.array("motion", np.int64),
        q_offset=np.concatenate([[0], np.cumsum(n_q)]).astype(np.int64),
        anchor=rows.array("anchor").reshape(-1, 3), offset=rows.array("offset").reshape(-1, 3),
        relative=rows.array("relative").reshape(-1, 3, 3),
        axes=rows.array("axes").reshape(-1, 2, 3), element=rows.array("element", np.int64),
        length=length, stiffness=stiffness, strain0=strain0, damping=damping,
        gravity=np.array(model.gravity, dtype=float), joint_body=joint_body,
        load_body=np.array(load_body, dtype=np.int64),
        load_offset=np.array(load_offset, dtype=float).reshape(-1, 3),
        load_follower=np.array([load.follower for load in loads], dtype=bool), size=size,
        node_body=node_body, beam_nodes=beam_nodes,
        rigid_body=rigid_body, element_reversed=reversed_)


def point_body(point, node_body, beam_nodes, rigid_body):
    """The body a point is on and its offset in that body's frame.

    Parameters
    ----------
    point : SpatialPoint
    node_body, beam_nodes, rigid_body : ndarray of int
        The tree's maps from items to bodies (:class:`SpatialTree`).

    Returns
    -------
    body : int
        -1 for a ground point.
    offset : ndarray (3,)
        m: a ground point's global position, a rigid-body point's offset from the centre of mass
        in the body frame, zero for a beam node.
    """
    if point.kind == P_GROUND:
        return -1, point.offset
    if point.kind == P_NODE:
        return int(node_body[beam_nodes[point.item.index] + point.node]), np.zeros(3)
    return int(rigid_body[point.item.index]), point.offset


def point_position(point):
    """Reference position (3,) of a point (m)."""
    if point.kind == P_GROUND:
        return point.offset
    if point.kind == P_NODE:
        return point.item.positions[point.node]
    return point.item.position + point.item.orientation @ point.offset


def _size(model):
    """The model size (m): the largest extent along x, y or z of the reference positions (beam
    nodes, rigid bodies and their joint and load points, ground joint points), at least the
    longest beam; 1 m if zero. The scale of length tolerances, as the planar model's."""
    points = [b.positions for b in model.beams]
    points += [r.position[None] for r in model.rigid_bodies]
    points += [point_position(p)[None] for j in model.joints for p in (j.parent, j.child)]
    points += [point_position(load.point)[None] for load in model.loads]
    extent = float(np.max(np.ptp(np.concatenate(points), axis=0)))
    extent = max(extent, max((b.length for b in model.beams), default=0.0))
    return extent if extent > 0.0 else 1.0


def _tree(model):
    """The items in the order the tree reaches them and the joint each hangs from.

    Items are numbered beams first, then rigid bodies (``item = beam.index`` or ``n_beams +
    body.index``). Joints are followed from parent to child, in the order added, from the
    ground.

    Returns
    -------
    order : list of int
        Items, each after the item of its joint's parent.
    parent_joint : dict
        Item -> index of its joint.

    Raises
    ------
    ValueError
        An item not connected to the ground by any chain of joints; an item reached only
        through a joint written child first; a joint that closes a loop (:data:`LOOP_MESSAGE`).
    """
    beams, bodies, joints = model.beams, model.rigid_bodies, model.joints
    n_beams = len(beams)
    item = lambda p: (-1 if p.kind == P_GROUND else
                      p.item.index if p.kind == P_NODE else n_beams + p.item.index)
    name = lambda k: repr(beams[k]) if k < n_beams else repr(bodies[k - n_beams])
    edges = [(item(j.parent), item(j.child)) for j in joints]
    n_items = n_beams + len(bodies)
    # undirected reachability from the ground
    seen, frontier = {-1}, [-1]
    while frontier:
        nxt = []
        for a, b in edges:
            for u, v in ((a, b), (b, a)):
                if u in frontier and v not in seen:
                    seen.add(v)
                    nxt.append(v)
        frontier = nxt
    loose = [name(k) for k in range(n_items) if k not in seen]
    if loose:
        raise ValueError(f"{', '.join(loose)} not connected to the ground by any chain of joints; "
                         "every item must be (a floating body hangs from the ground by a 'free' "
                         "joint)")
    # parent to child from the ground, joints in the order added
    placed, order, parent_joint = {-1}, [], {}
    changed = True
    while changed:
        changed = False
        for k, (a, b) in enumerate(edges):
            if a in placed and b not in placed:
                placed.add(b)
                parent_joint[b] = k
                order.append(b)
                changed = True
    if len(order) < n_items:
        k = next(k for k, (a, b) in enumerate(edges) if b in placed and a not in placed)
        j = joints[k]
        raise ValueError(f"joint {k} ({j.kind}, {j.parent!r} -> {j.child!r}) is written child "
                         f"first: {j.child!r} is nearer the ground than {j.parent!r}; write each "
                         "joint parent first (from the ground outwards)")
    tree = set(parent_joint.values())
    for k, j in enumerate(joints):
        if k not in tree:
            raise ValueError(f"joint {k} ({j.kind}, {j.parent!r} -> {j.child!r}) closes a loop: "
                             f"{LOOP_MESSAGE}")
    return order, parent_joint
