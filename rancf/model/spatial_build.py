"""The builder of a spatial model's :class:`~rancf.model.spatial_tree.SpatialTree` (theory:
Spatial trees).

Bodies: every beam node (its lumped mass and rotary inertia; theory: Lumped masses) and every
rigid body. Links: every joint (its kind's ``Motion``) and every element (``M_ELEMENT``). An
item hangs from the ground through the joint whose child it is; following joints from parent to
child reaches every item once. A joint that reaches an item a second time closes a loop: it is
kept as a loop-closing link between the two bodies it joins (the tree's ``loop_*`` arrays),
which the spatial DAE formulation runs and the recursion cannot; so is a joint at a point
between two nodes of a beam (``beam.at(s)``), and the item it would hang is then a free body of
the tree (the DAE holds it by the joint's rows). A beam jointed at node j is two chains
from that node: nodes j+1..n through the elements forward, nodes j-1..0 through them reversed
(the link from node k+1 to node k). Bodies are numbered item after item in the order the tree reaches them, and within a beam j,
j+1..n, j-1..0: a parent always comes first.
"""
import numpy as np
from scipy.spatial.transform import Rotation

from ..elements import spatial_beam
from ..elements.ancf_cable import REST_SIZE
from ..joints._codes import (CABLE_CLAMP, CABLE_SPHERICAL, CABLE_SPLICE, M_ELEMENT, M_FREE, P_ARC,
                             P_BODY, P_GROUND, P_NODE, motion_size)
from .spatial_items import SpatialCable
from .spatial_joints import check_undriven
from .spatial_tree import SpatialTree
from .topology import grounded, spanning_tree

#: The joint kinds a cable point takes, and the code of each in ``SpatialTree.cable_joint_kind``:
#: a spherical joint holds the position; ``fixed`` clamps it, the position and the slope's
#: direction (:mod:`rancf.formulations.spatial_dae`).
CABLE_JOINTS = {"spherical": CABLE_SPHERICAL, "fixed": CABLE_CLAMP}
LOOP_MESSAGE = ("a spatial closed loop needs the spatial DAE formulation: formulation 'dae' or "
                "'auto' (the recursion runs trees)")
ARC_MESSAGE = ("a joint at a point between two nodes of a beam (beam.at(s)) needs the spatial "
               "DAE formulation: formulation 'dae' or 'auto' (the recursion joints beams at "
               "their nodes)")


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
        ground); a drive whose q(0) is not 0.
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
    is_cable = [isinstance(b, SpatialCable) for b in beams]
    on_cable = lambda point: point.kind == P_NODE and is_cable[point.item.index]
    cable_joints = [j for j in joints if on_cable(j.parent) or on_cable(j.child)]

    beam_nodes = np.concatenate([[0], np.cumsum([b.n_nodes for b in beams])]).astype(np.int64)
    n = sum(b.n_nodes for b, c in zip(beams, is_cable) if not c) + len(bodies)
    node_body = np.full(beam_nodes[-1], -1, dtype=np.int64)
    # a cable's nodes are numbered after the bodies: the cable coordinates of the spatial DAE
    cable_first = n + np.concatenate([[0], np.cumsum([b.n_nodes * c for b, c in
                                                       zip(beams, is_cable)])]).astype(np.int64)
    for b, c in zip(beams, is_cable):
        if c:
            node_body[beam_nodes[b.index]:beam_nodes[b.index + 1]] = \
                cable_first[b.index] + np.arange(b.n_nodes)
    rigid_body = np.full(len(bodies), -1, dtype=np.int64)
    joint_body = np.full(len(joints), -1, dtype=np.int64)
    # the per-body rows, filled parent first (``filled`` bodies so far)
    parent, motion = np.full(n, -1, dtype=np.int64), np.full(n, M_ELEMENT, dtype=np.int64)
    n_q, element = np.full(n, 6, dtype=np.int64), np.full(n, -1, dtype=np.int64)
    mass, inertia = np.zeros(n), np.zeros((n, 3, 3))
    r0, A0, relative = np.zeros((n, 3)), np.zeros((n, 3, 3)), np.zeros((n, 3, 3))
    anchor, offset, axes = np.zeros((n, 3)), np.zeros((n, 3)), np.zeros((n, 2, 3))
    first_element = np.concatenate([[0], np.cumsum([b.n_elements * (not c) for b, c in
                                                     zip(beams, is_cable)])]).astype(int)
    n_elements = int(first_element[-1])
    reversed_ = np.zeros(n_elements, dtype=bool)
    length, strain0 = np.zeros(n_elements), np.zeros((n_elements, 6))
    stiffness, damping = np.zeros((n_elements, 6)), np.zeros(n_elements)

    body_of = lambda point: point_body(point, node_body, beam_nodes, rigid_body)
    filled = 0
    for item in order:
        j = joints[parent_joint[item]]
        if item < len(beams) and is_cable[item]:
            continue                        # a cable's nodes are not bodies of the tree
        # the item's first body: the joint's link
        c = filled
        filled += 1
        if on_cable(j.parent) or at_arc(j):
            # hung from a cable: a free body of the tree (the DAE holds it by the joint's
            # cable rows; the recursion relinks it to the cable node,
            # rancf.formulations.spatial.cable_layout); jointed at a point between two nodes
            # of a beam, likewise (the DAE holds it by the joint's rows, a loop link of the
            # tree; the recursion refuses it): a beam from its element's first node
            anchor[c] = point_position(j.child) if j.child.kind != P_ARC else \
                j.child.item.positions[j.child.node]
            motion[c], n_q[c] = M_FREE, motion_size(M_FREE)
            A_p = np.eye(3)
        else:
            joint_body[j.index] = c
            parent[c], anchor[c] = body_of(j.parent)
            A_p = np.eye(3) if parent[c] < 0 else A0[parent[c]]
            given = j.axes if j.axes is not None else ([j.axis] if j.axis is not None else [])
            for k, a in enumerate(given):
                axes[c, k] = A_p.T @ a
            motion[c], n_q[c] = j.type.spatial.code, j.type.spatial.n_coordinates
        if j.child.kind == P_BODY:
            r = j.child.item
            rigid_body[r.index] = c
            mass[c], inertia[c], r0[c], A0[c] = r.mass, r.inertia, r.position, r.orientation
            offset[c] = j.child.offset
            relative[c] = A_p.T @ r.orientation
            continue
        # a beam: its node ``root`` on the joint, then the two chains of elements from it
        b, root = j.child.item, j.child.node
        own = node_body[beam_nodes[b.index]:beam_nodes[b.index + 1]]    # a view
        own[root] = c
        node_mass, node_inertia = b.node_masses()
        mass[c], inertia[c] = node_mass[root], node_inertia[root]
        r0[c], A0[c] = b.positions[root], b.frames[root]
        relative[c] = A_p.T @ b.frames[root]
        C = b.stiffness()
        for reverse, nodes in ((False, np.arange(root + 1, b.n_nodes)),
                               (True, np.arange(root - 1, -1, -1))):
            if not nodes.size:
                continue
            s, Q, l, eps0 = b.reference_elements(reverse)
            e = nodes if reverse else nodes - 1      # element e joins nodes e and e + 1
            new = filled + np.arange(nodes.size)
            filled += nodes.size
            own[nodes] = new
            parent[new] = np.concatenate([[c], new[:-1]])
            element[new] = first_element[b.index] + e
            anchor[new], relative[new] = s[e], Q[e]
            mass[new], inertia[new] = node_mass[nodes], node_inertia[nodes]
            r0[new], A0[new] = b.positions[nodes], b.frames[nodes]
            g = first_element[b.index] + e
            reversed_[g], length[g], strain0[g] = reverse, l[e], eps0[e]
            stiffness[g], damping[g] = C[e], b.damping

    tree_joints = {k for k in parent_joint.values() if not at_arc(joints[k])}
    loop = _loop_links(joints, tree_joints | {j.index for j in cable_joints},
                       lambda p: arc_side(p, node_body, beam_nodes, body_of))
    cable = _cables(beams, is_cable, cable_joints, body_of, A0)
    load_body, load_offset, load_arc = _load_arrays(loads, body_of, node_body, beam_nodes)
    node_body_of = lambda p, k=0: int(node_body[beam_nodes[p.item.index] + p.node + k])
    springs = _spring_arrays(model, body_of, node_body_of, joint_body, tol)
    return SpatialTree(
        parent=parent, mass=mass, inertia=inertia, r0=r0, A0=A0, motion=motion,
        q_offset=np.concatenate([[0], np.cumsum(n_q)]).astype(np.int64), anchor=anchor,
        offset=offset, relative=relative, axes=axes, element=element,
        length=length, stiffness=stiffness, strain0=strain0, damping=damping,
        gravity=np.array(model.gravity, dtype=float), joint_body=joint_body,
        load_body=np.array(load_body, dtype=np.int64),
        load_offset=np.array(load_offset, dtype=float).reshape(-1, 3),
        load_follower=np.array([load.follower for load in loads], dtype=bool), size=size,
        load_arc=load_arc,
        node_body=node_body, beam_nodes=beam_nodes,
        rigid_body=rigid_body, element_reversed=reversed_, **loop, **cable, **springs)


def _load_arrays(loads, body_of, node_body, beam_nodes):
    """``load_body``, ``load_offset``, ``load_arc`` of :class:`SpatialTree`: a load at a point
    between two nodes (``beam.at(s)``) acts on its element's first node's body with the offset
    ``(xi, 0, 0)`` and names the second node's body in ``load_arc`` (-1 for every other
    load)."""
    body = np.full(len(loads), -1, dtype=np.int64)
    offset = np.zeros((len(loads), 3))
    arc = np.full(len(loads), -1, dtype=np.int64)
    for k, load in enumerate(loads):
        p = load.point
        if p.kind == P_ARC:
            first = beam_nodes[p.item.index] + p.node
            body[k], arc[k] = node_body[first], node_body[first + 1]
            offset[k, 0] = p.xi
        else:
            body[k], offset[k] = body_of(p)
    return body, offset, arc


def _cables(beams, is_cable, cable_joints, body_of, A0):
    """The ``cable_*`` arrays of :class:`SpatialTree`: the cables' nodes (numbered after the
    tree's bodies, ``body_of`` gives ``n_bodies + k`` for cable node k), elements and joints.

    A clamp (``fixed``) of a cable point to a body or the ground has for axes two unit vectors
    of that side's frame normal to the cable's reference tangent (the slope ``r'`` is held
    normal to both, its length free); between two points of one cable (a ring's end on its
    start) it is a splice (``CABLE_SPLICE``): positions and slopes equal, which needs equal
    reference slopes. Between two cables it is refused."""
    x0, frames, elements, lengths, props, rest = [], [], [], [], [], []
    for b, c in zip(beams, is_cable):
        if not c:
            continue
        first = sum(len(x) for x in x0)
        x0.append(np.column_stack([b.positions, b.tangents]))
        frames.append(b.frames)
        k = first + np.arange(b.n_elements)
        elements.append(np.column_stack([k, k + 1]))
        lengths.append(b.element_lengths())
        rest.append(b.rest_state())
        props.append(np.repeat([[b.E * b.A, b.E * b.I, b.rho * b.A, b.damping]], b.n_elements,
                               axis=0))
    n_joints = len(cable_joints)
    out = dict(
        cable_x0=np.concatenate(x0) if x0 else np.zeros((0, 6)),
        cable_frame0=np.concatenate(frames) if frames else np.zeros((0, 3, 3)),
        cable_element=(np.concatenate(elements) if elements else np.zeros((0, 2))).astype(
            np.int64),
        cable_length=np.concatenate(lengths) if lengths else np.zeros(0),
        cable_EA=np.zeros(0), cable_EI=np.zeros(0), cable_rhoA=np.zeros(0),
        cable_damping=np.zeros(0),
        cable_rest=np.concatenate(rest) if rest else np.zeros((0, REST_SIZE)),
        cable_joint=np.array([j.index for j in cable_joints], dtype=np.int64),
        cable_joint_kind=np.array([CABLE_JOINTS[j.kind] for j in cable_joints], dtype=np.int64),
        cable_joint_parent=np.full(n_joints, -1, dtype=np.int64),
        cable_joint_child=np.full(n_joints, -1, dtype=np.int64),
        cable_joint_anchor=np.zeros((n_joints, 3)), cable_joint_offset=np.zeros((n_joints, 3)),
        cable_joint_axes=np.zeros((n_joints, 2, 3)))
    if props:
        props = np.concatenate(props)
        for k, name in enumerate(("cable_EA", "cable_EI", "cable_rhoA", "cable_damping")):
            out[name] = props[:, k].copy()
    n_bodies = len(A0)
    for i, j in enumerate(cable_joints):
        (p, out["cable_joint_anchor"][i]), (c, out["cable_joint_offset"][i]) = \
            body_of(j.parent), body_of(j.child)
        out["cable_joint_parent"][i], out["cable_joint_child"][i] = p, c
        if j.kind != "fixed":
            continue
        if p >= n_bodies and c >= n_bodies and j.parent.item is not j.child.item:
            raise ValueError(f"joint {j.index} (fixed, {j.parent!r} -> {j.child!r}) clamps a "
                             "cable point to a cable point: a clamp holds a cable's slope to "
                             "the frame of a body or the ground; join two cable points by a "
                             "'spherical' joint")
        if p >= n_bodies and c >= n_bodies:
            # a ring's splice: the two points' positions and slopes equal (the cable
            # continues through it, as through a node), which their reference slopes must be
            gap = float(np.abs(out["cable_x0"][c - n_bodies, 3:]
                               - out["cable_x0"][p - n_bodies, 3:]).max())
            if gap > 1e-9:
                raise ValueError(f"joint {j.index} (fixed, {j.parent!r} -> {j.child!r}) clamps "
                                 "two points of one cable, a splice that holds their slopes r' "
                                 f"equal, but their reference slopes differ by {gap:.3g} (more "
                                 "than 1e-9); join the points by a 'spherical' joint, or give "
                                 "the cable the same tangent at both")
            out["cable_joint_kind"][i] = CABLE_SPLICE
            continue
        node, other = (c, p) if c >= n_bodies else (p, c)
        tangent = out["cable_x0"][node - n_bodies, 3:]
        A = np.eye(3) if other < 0 else A0[other]
        a = A.T @ tangent
        t = np.eye(3)[int(np.argmin(np.abs(a)))]
        b1 = np.cross(a, t)
        b1 /= np.linalg.norm(b1)
        out["cable_joint_axes"][i] = b1, np.cross(a, b1)
    return out


def check_cable_joint(joint):
    """Refuse a joint at a cable point that a cable cannot take (ValueError naming its kind
    and the accepted ones, or its effort)."""
    cable = [p for p in (joint.parent, joint.child)
             if p.kind == P_NODE and isinstance(p.item, SpatialCable)]
    if not cable:
        return
    if joint.kind not in CABLE_JOINTS:
        raise ValueError(f"joint kind {joint.kind!r} at the cable point {cable[0]!r}: a cable "
                         f"point takes the kinds {list(CABLE_JOINTS)} (a cable has no section "
                         "frame for the others to hold)")
    if joint.effort is not None:
        raise ValueError(f"effort at the cable point {cable[0]!r} (joint kind {joint.kind!r}): "
                         "a joint at a cable point takes no effort")


def _spring_arrays(model, body_of, node_body_of, joint_body, tol):
    """The ``spring_*`` and ``joint_spring_*`` arrays of :class:`SpatialTree`: each
    spring-damper's two bodies and offsets (``body_of``; a point between two nodes on its
    element's nodes, ``node_body_of(point, k)`` the body of its k-th) and its law, a rest
    length left None set to the points' reference distance (as the planar model does); each
    joint spring-damper's body and law, or, on a joint that closes a loop, its joint and law
    (``loop_spring_*``).

    Raises
    ------
    ValueError
        A spring-damper whose points coincide (within ``tol``) in the reference configuration
        (its line of action undefined).
    """
    springs, rotational = model.spring_dampers, model.rotational_spring_dampers
    body = np.full((len(springs), 2), -1, dtype=np.int64)
    arc = np.full((len(springs), 2), -1, dtype=np.int64)
    offset, law = np.zeros((len(springs), 2, 3)), np.zeros((len(springs), 3))
    for i, s in enumerate(springs):
        p1, p2 = s.points
        distance = float(np.linalg.norm(point_position(p2) - point_position(p1)))
        if distance <= tol:
            raise ValueError(f"spring-damper {s.index}: its points {p1!r} and {p2!r} coincide in "
                             f"the reference configuration ({distance:.3g} m apart, within "
                             f"{tol:.3g} m): its line of action is undefined")
        if s.rest_length is None:
            s.rest_length = distance
        for e, p in enumerate(s.points):
            if p.kind == P_ARC:
                # on its element's two nodes: the first's body, xi, the second's body
                body[i, e], arc[i, e] = node_body_of(p), node_body_of(p, 1)
                offset[i, e, 0] = p.xi
            else:
                body[i, e], offset[i, e] = body_of(p)
        law[i] = s.k, s.c, s.rest_length
    for s in rotational:
        # add_rotational_spring_damper checked it; a drive set on the joint since is not
        check_undriven(s.joint)
    # a spring-damper on a joint that closes a loop (no body of its own) is the spatial DAE's
    tree = [s for s in rotational if joint_body[s.joint.index] >= 0]
    loop = [s for s in rotational if joint_body[s.joint.index] < 0]
    return dict(spring_body=body, spring_offset=offset, spring_law=law, spring_arc=arc,
                joint_spring_body=np.array([joint_body[s.joint.index] for s in tree],
                                           dtype=np.int64),
                joint_spring_law=np.array([_law(s) for s in tree], dtype=float).reshape(-1, 3),
                joint_spring_rest=np.array([_rest(s) for s in tree],
                                           dtype=float).reshape(-1, 3),
                loop_spring_joint=np.array([s.joint.index for s in loop], dtype=np.int64),
                loop_spring_law=np.array([_law(s) for s in loop], dtype=float).reshape(-1, 3),
                loop_spring_rest=np.array([_rest(s) for s in loop], dtype=float).reshape(-1, 3))


def _law(spring):
    """A joint spring-damper's ``(k, c, q0)`` row; a spherical joint's q0 (a rotation vector)
    is in its :func:`_rest` row, 0 here."""
    rest = 0.0 if np.ndim(spring.rest_angle) else spring.rest_angle
    return spring.k, spring.c, rest


def _rest(spring):
    """A spherical joint spring-damper's rest rotation vector (3, rad), zeros for the others."""
    return spring.rest_angle if np.ndim(spring.rest_angle) else np.zeros(3)


def _loop_links(joints, tree_joints, body_of):
    """The ``loop_*`` arrays of :class:`SpatialTree` for the joints not in ``tree_joints``:
    each joint's parent and child bodies and their offsets, the second node's body and the
    place xi of a side between two nodes of a beam, and the side's reference frame
    (``body_of``: :func:`arc_side`), its motion, its reference relative orientation
    ``Q = A_p^T A_c`` of those frames and its axes in the parent's (as a tree link's). Drives
    and efforts on them run on the spatial DAE."""
    k = [j for j in joints if j.index not in tree_joints]
    n = len(k)
    out = dict(loop_joint=np.array([j.index for j in k], dtype=np.int64),
               loop_parent=np.full(n, -1, dtype=np.int64),
               loop_child=np.full(n, -1, dtype=np.int64),
               loop_motion=np.array([j.type.spatial.code for j in k], dtype=np.int64),
               loop_anchor=np.zeros((n, 3)), loop_offset=np.zeros((n, 3)),
               loop_relative=np.zeros((n, 3, 3)), loop_axes=np.zeros((n, 2, 3)))
    out["loop_arc"] = np.full((n, 2), -1, dtype=np.int64)
    out["loop_xi"] = np.zeros((n, 2))
    for i, j in enumerate(k):
        (p, out["loop_anchor"][i], out["loop_arc"][i, 0], out["loop_xi"][i, 0], A_p), \
            (c, out["loop_offset"][i], out["loop_arc"][i, 1], out["loop_xi"][i, 1], A_c) = \
            body_of(j.parent), body_of(j.child)
        out["loop_parent"][i], out["loop_child"][i] = p, c
        out["loop_relative"][i] = A_p.T @ A_c
        given = j.axes if j.axes is not None else ([j.axis] if j.axis is not None else [])
        for a, axis in enumerate(given):
            out["loop_axes"][i, a] = A_p.T @ np.asarray(axis, dtype=float)
    return out


def at_arc(joint):
    """True for a joint with a point between two nodes of a beam (``beam.at(s)``)."""
    return joint.parent.kind == P_ARC or joint.child.kind == P_ARC


def arc_side(point, node_body, beam_nodes, body_of):
    """A loop link's side: ``(body, offset, second body, xi, reference frame)``. A point
    between two nodes (``beam.at(s)``) is on its element's first node's body with offset
    zero, the element's second node's body and its place xi, its frame that of the element's
    constant-strain curve there, ``A_a exp(xi log(A_a^T A_b))`` (the frame
    ``Result.orientation(beam.at(s))`` follows); another point is on ``body_of``'s body
    (second body -1, xi 0) with that body's frame (the ground's: I)."""
    if point.kind == P_ARC:
        b, k = point.item, point.node
        first = int(beam_nodes[b.index] + k)
        Aa, Ab = b.frames[k], b.frames[k + 1]
        turn = Rotation.from_rotvec(point.xi * Rotation.from_matrix(Aa.T @ Ab).as_rotvec())
        return (int(node_body[first]), np.zeros(3), int(node_body[first + 1]), point.xi,
                Aa @ turn.as_matrix())
    body, offset = body_of(point)
    frame = np.eye(3) if point.kind == P_GROUND else \
        point.item.frames[point.node] if point.kind == P_NODE else point.item.orientation
    return body, offset, -1, 0.0, frame


def check_arc_joint(joint):
    """Refuse a joint at a point between two nodes of a beam (``beam.at(s)``) that the spatial
    DAE cannot run: driven, with an effort, or to a cable point (ValueError naming it)."""
    if not at_arc(joint):
        return
    arc = joint.parent if joint.parent.kind == P_ARC else joint.child
    if joint.drive is not None or joint.effort is not None:
        what = "drive" if joint.drive is not None else "effort"
        raise ValueError(f"{what} on joint {joint.index} ({joint.kind}) at {arc!r}, a point "
                         "between two nodes of a beam: a joint there takes no drive or effort "
                         "(put a load or a spring-damper at the point, or joint a node)")
    other = joint.child if arc is joint.parent else joint.parent
    if other.kind == P_NODE and isinstance(other.item, SpatialCable):
        raise ValueError(f"joint {joint.index} ({joint.kind}) joins {arc!r}, a point between "
                         f"two nodes of a beam, to the cable point {other!r}: a joint at a "
                         "cable point takes a beam node, a body point or the ground")


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
    if point.kind == P_ARC:
        b, k = point.item, point.node
        return spatial_beam.arc_point(b.positions[k], b.frames[k], b.positions[k + 1],
                                      b.frames[k + 1], point.xi)
    return point.item.position + point.item.orientation @ point.offset


def _size(model):
    """The model size (m): the largest extent along x, y or z of the reference positions (beam
    nodes, rigid bodies and their joint and load points, ground joint points), at least the
    longest beam; 1 m if zero. The scale of length tolerances, as the planar model's."""
    points = [b.positions for b in model.beams]
    points += [r.position[None] for r in model.rigid_bodies]
    points += [point_position(p)[None] for j in model.joints for p in (j.parent, j.child)]
    # a point between two nodes lies on its element, among the beam's nodes
    points += [point_position(load.point)[None] for load in model.loads
               if load.point.kind != P_ARC]
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
        through a joint written child first. The joints that close loops are those not in
        ``parent_joint``.
    """
    beams, bodies, joints = model.beams, model.rigid_bodies, model.joints
    n_beams = len(beams)
    item = lambda p: (-1 if p.kind == P_GROUND else
                      p.item.index if p.kind in (P_NODE, P_ARC) else n_beams + p.item.index)
    name = lambda k: repr(beams[k]) if k < n_beams else repr(bodies[k - n_beams])
    edges = [(item(j.parent), item(j.child)) for j in joints]
    n_items = n_beams + len(bodies)
    seen = grounded(edges)
    loose = [name(k) for k in range(n_items) if k not in seen]
    if loose:
        raise ValueError(f"{', '.join(loose)} not connected to the ground by any chain of joints; "
                         "every item must be (a floating body hangs from the ground by a 'free' "
                         "joint)")
    # parent to child from the ground, joints in the order added
    order, parent_joint, placed = spanning_tree(edges)
    if len(order) < n_items:
        k = next(k for k, (a, b) in enumerate(edges) if b in placed and a not in placed)
        j = joints[k]
        raise ValueError(f"joint {k} ({j.kind}, {j.parent!r} -> {j.child!r}) is written child "
                         f"first: {j.child!r} is nearer the ground than {j.parent!r}; write each "
                         "joint parent first (from the ground outwards)")
    return order, parent_joint
