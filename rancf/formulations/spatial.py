"""The spatial formulation of a tree (O(n) articulated-body recursion; kernel ``_spatial.pyx``).

State ``y = (q, qd)``: the coordinates of every link (joints and beam elements, in the order of
``SpatialTree.q_offset``) but those of driven joints (whose q, qd, qdd are prescribed), and
their rates; ``n_y = 2 n_free``, ``y' = (qd, qdd)``. The kernel
(:class:`rancf.formulations._spatial.SpatialKernel`) is an
:class:`~rancf.formulations._problem.ODEProblem`, so the compiled explicit loop and SciPy's
solvers run it through :func:`rancf.integrators.explicit.integrate`.

Rotation vectors of spherical and free links are re-centred after every accepted step of the
compiled loop (``ODEProblem.recentre``): ``q <- q (1 - 2 pi / |q|)`` when ``|q| > pi``, the same
rotation, with ``qd`` mapped to keep the angular velocity, since ``J_l(q)`` is singular at
``|q| = 2 pi``. SciPy's solvers offer no such hook: there a link must stay below about a full
turn from its reference (their ``joint_q`` are the unwrapped vectors, the compiled loop's the
re-centred ones).
"""
import contextlib
import dataclasses
import functools

import numpy as np

from ..elements import _ancf_cable, ancf_cable
from ..joints._codes import (CABLE_CLAMP, CABLE_SPHERICAL, M_SPHERICAL, P_ARC, R_AXIS,
                             R_TWO_AXES, R_VECTOR, T_AXIS, T_FREE, motion_size)
from ..joints.kind import effort_wrenches, link_motion
from ..model.spatial_build import ARC_MESSAGE, LOOP_MESSAGE
from . import _spatial_dae, start_check
from ._spatial_dae import FRAME_SIZE, TWIST_SIZE, WRENCH_SIZE
from ._spatial import C_CLAMP, C_NODE, C_SPHERICAL, SpatialKernel
from ._spatial_energy import TrackedKernel
from ._spatial_implicit import SpatialProblem
from .inputs import Recorded, effort_slopes, failure_message
from .recursive import rates_in_words

#: A cable node's coordinates ``[r, r']`` and a cable element's (its two nodes'), the kind's.
#: A body's entries in the outputs' nodes and velocities (FRAME_SIZE, TWIST_SIZE) and a
#: joint's reaction (WRENCH_SIZE) are the spatial DAE kernels' layout, named there once.
CABLE_NODE = ancf_cable.SpatialANCFCable.node_size
CABLE_ELEMENT = ancf_cable.SpatialANCFCable.element_size


class Inputs:
    """Writes the loads, efforts and drives of a spatial tree into the kernel arrays.

    Parameters
    ----------
    tree : rancf.model.spatial_tree.SpatialTree
    arrays : dict of ndarray
        The kernel arrays (``load_force``, ``load_moment`` (3 l), ``effort`` (n_q), and
        ``q``, ``qd`` (n_q), where the kernel leaves the state before the effort functions).
    loads : sequence of (force, moment), optional
        One pair per load of the tree (``tree.load_body`` order): each a 3-vector (N, N m) or a
        callable of t (s) returning one; in global coordinates, or in the body's frame for a
        follower load.
    efforts : dict, optional
        ``{joint index: effort}``: a number for a one-coordinate joint (N m or N), a torque
        3-vector for a spherical joint, ``(force, torque)`` 6-vector for a free joint (in the
        parent's frame), or a callable ``effort(t, q, qd)`` returning that (q, qd numbers for a
        one-coordinate joint, arrays otherwise). Joints of two coordinates (cylindrical,
        universal) take a 2-vector of generalized forces.
    drives : dict, optional
        ``{joint index: drive}`` for one-coordinate joints (revolute, prismatic): a callable
        of t (s) returning ``(q, qd, qdd)`` (rad or m and their rates), or a number, the
        coordinate held there.
    """

    def __init__(self, tree, arrays, loads=None, efforts=None, drives=None):
        nl = len(tree.load_body)
        self.load_force = arrays["load_force"][:3 * nl].reshape(nl, 3)
        self.load_moment = arrays["load_moment"][:3 * nl].reshape(nl, 3)
        self.effort = arrays["effort"]
        self.q, self.qd = arrays["q"], arrays["qd"]
        loads = [] if loads is None else list(loads)
        if len(loads) not in (0, nl):
            raise ValueError(f"loads must give one (force, moment) pair per load of the tree "
                             f"({nl}), got {len(loads)}")
        self.timed = []
        for k, pair in enumerate(loads):
            if len(pair) != 2:
                raise ValueError(f"loads[{k}] must be a (force, moment) pair")
            for name, value, out in (("force", pair[0], self.load_force),
                                     ("moment", pair[1], self.load_moment)):
                if callable(value):
                    self.timed.append((out[k], value))
                else:
                    out[k] = _vector(f"loads[{k}] {name}", value, 3)
        self.effort_functions = []
        qo = np.asarray(tree.q_offset)
        for j, value in (efforts or {}).items():
            if not 0 <= j < len(tree.joint_body):
                raise ValueError(f"efforts: joint {j} is not a joint of the tree "
                                 f"(0..{len(tree.joint_body) - 1})")
            b = int(tree.joint_body[j])
            s = slice(int(qo[b]), int(qo[b + 1]))
            if callable(value):
                self.effort_functions.append((j, s, value))
            else:
                self.effort[s] = _vector(f"efforts[{j}]", value, s.stop - s.start)
        drive = arrays["drive"][:3 * tree.n_q].reshape(-1, 3)
        self.driven = []
        for j, value in (drives or {}).items():
            if not 0 <= j < len(tree.joint_body):
                raise ValueError(f"drives: joint {j} is not a joint of the tree "
                                 f"(0..{len(tree.joint_body) - 1})")
            b = int(tree.joint_body[j])
            if qo[b + 1] - qo[b] != 1:
                raise ValueError(f"drives: joint {j} has {qo[b + 1] - qo[b]} coordinates; only "
                                 "one-coordinate joints (revolute, prismatic) can be driven")
            if j in (efforts or {}):
                raise ValueError(f"joint {j} has both a drive and an effort; give one")
            if callable(value):
                self.timed.append((drive[qo[b]], value))
            else:
                drive[qo[b]] = (_vector(f"drives[{j}]", value, 1)[0], 0.0, 0.0)
            self.driven.append(int(qo[b]))
        self.time_dependent = bool(self.timed)
        self.effort_dependent = bool(self.effort_functions)
        self.error = None
        #: the time (s) whose values the arrays hold (NaN: none yet, or a function raised)
        self.t = np.nan
        #: a :class:`~rancf.formulations.inputs.Recorded` played back in place of the
        #: functions (:meth:`playing`), or None
        self.played = None

    def at_time(self, t):
        """Load functions at t (s) (played back: the values kept at that output)."""
        self.t = np.nan
        if self.played is not None:
            for n, (out, _) in enumerate(self.timed):
                out[:] = self.played.value(n, t)
        else:
            for out, f in self.timed:
                out[:] = f(t)
        self.t = t

    def efforts(self, t):
        """Effort functions at (t, q, qd) of their joints (played back: the values kept at
        the output of time t, whatever q and qd)."""
        if self.played is not None:
            if self.effort_functions:
                self.effort[:] = self.played.value("effort", t)
            return
        for j, s, f in self.effort_functions:
            q, qd = self.q[s], self.qd[s]
            if s.stop - s.start == 1:
                self.effort[s] = f(t, float(q[0]), float(qd[0]))
            else:
                self.effort[s] = f(t, q.copy(), qd.copy())

    def effort_slopes(self, t, q, qd):
        """The slopes ``(de/dq, de/dqd)`` (n_i x n_i each, n_i its joint's coordinates) of each
        effort function (``effort_functions`` order) at (t, q, qd) (n_q each: Newton's
        workspace's, not the arrays :meth:`efforts` reads), by
        :func:`~rancf.formulations.inputs.effort_slopes`: 4 n_i calls of each function. The values e
        are the function's own (a spherical joint's torque vector, not its generalized force).
        Played back, the values do not depend on q and qd: the slopes are zero."""
        found = []
        for _, s, f in self.effort_functions:
            n = s.stop - s.start
            if self.played is not None:
                found.append((np.zeros((n, n)), np.zeros((n, n))))
                continue
            found.append(effort_slopes(f, t, q[s], qd[s]))
        return found

    def effort_values(self, t, q, qd):
        """The values e of each effort function (``effort_functions`` order) at (t, q, qd)
        (n_q each: Newton's workspace's, as :meth:`effort_slopes`), arrays of the joint's
        coordinates' size; played back, the values kept at the output of time t."""
        if self.played is not None:
            kept = self.played.value("effort", t)
            return [np.atleast_1d(kept[s]) for _, s, _ in self.effort_functions]
        found = []
        for _, s, f in self.effort_functions:
            if s.stop - s.start == 1:
                e = f(t, float(q[s.start]), float(qd[s.start]))
            else:
                e = f(t, q[s].copy(), qd[s].copy())
            found.append(np.atleast_1d(np.asarray(e, dtype=float)))
        return found

    def failure(self):
        """The message of the exception a callable raised; the exception stays in ``error``,
        for the Result (as :meth:`rancf.formulations.inputs.Inputs.failure`)."""
        return failure_message(self.error)

    def keep(self):
        """The values the functions wrote into the arrays, copied: a
        :class:`~rancf.formulations.inputs.Recorded` row, ``{n: value}`` of the n-th function
        of t (``timed`` order) and ``{"effort": (n_q,)}`` with effort functions. A loop calls
        it at an output whose state and time its last evaluation was at (an output then costs
        these copies, no call)."""
        row = {n: out.copy() for n, (out, _) in enumerate(self.timed)}
        if self.effort_functions:
            row["effort"] = self.effort.copy()
        return row

    @contextlib.contextmanager
    def playing(self, recorded):
        """The recorded values (a :class:`~rancf.formulations.inputs.Recorded`; None: the
        functions) in place of the functions inside the block; the values the arrays hold
        cleared before and after (``t``)."""
        self.played, self.t = recorded, np.nan
        try:
            yield
        finally:
            self.played, self.t = None, np.nan


#: What the recursion does not run of a model with cables (the spatial DAE does)
CABLE_DAE = "formulation 'dae' runs it"


def cable_layout(tree):
    """The recursion's arrays of a tree with spatial ANCF cables (theory: The cable in the
    recursion): ``(tree, cables)``, the tree with every body hung from a cable point relinked
    to that cable node, and :class:`~rancf.formulations._spatial.SpatialKernel`'s ``cables``.

    A cable's nodes hang from its root node by its elements: node k's coordinates are
    ``z_k = e_k - e_p`` (6; e = [r, r'], p the node towards the root; minus their reference
    values, so that z = 0 is the reference), a linear map whose consistent element mass the
    elimination absorbs. The root is the node of the cable's one joint to the ground, a body or
    another cable's node: a spherical joint (r at the point, ``r' = r'_0 + q``: 3 coordinates)
    or a clamp (``r' = (1 + q) A_p a``, a the reference slope in the parent's frame: 1) (a
    model joins every cable to the rest by a joint). A body hung from a cable node by a
    spherical joint is that node's child (its rotation vector, 3 coordinates).

    Coordinates: the bodies' links (the tree's order), then the cable nodes', cable after
    cable, node after node.

    Raises
    ------
    ValueError
        A joint the recursion cannot run: a second joint on one cable or on a hung body (a
        closed loop), a body clamped (``fixed``) to a cable point, a cable whose joints only
        hang other items from it.
    """
    nb, nc = tree.n_bodies, tree.n_cable_nodes
    n = nb + nc
    # the cable of each cable node and its nodes
    elements = np.asarray(tree.cable_element, dtype=int).reshape(-1, 2)
    element_of = {(int(a), int(b)): e for e, (a, b) in enumerate(elements)}
    cable_of = np.zeros(nc, dtype=int)
    starts = [0]
    for k in range(1, nc):
        linked = (k - 1, k) in element_of
        cable_of[k] = cable_of[k - 1] + (0 if linked else 1)
        if not linked:
            starts.append(k)
    starts.append(nc)
    root = {}
    parent = np.concatenate([np.asarray(tree.parent), np.full(nc, -1)]).astype(np.int64)
    motion = np.concatenate([np.asarray(tree.motion), np.full(nc, C_NODE)]).astype(np.int64)
    sizes = np.concatenate([np.diff(tree.q_offset), np.full(nc, CABLE_NODE)]).astype(np.int64)
    anchor = np.concatenate([tree.anchor, np.zeros((nc, 3))])
    joint_body = np.array(tree.joint_body, dtype=np.int64)
    joint_node = {}
    axis = np.zeros((n, 3))
    for k, j in enumerate(tree.cable_joint):
        P, C, kind = (int(tree.cable_joint_parent[k]), int(tree.cable_joint_child[k]),
                      int(tree.cable_joint_kind[k]))
        what = f"joint {int(j)} ({'spherical' if kind == CABLE_SPHERICAL else 'fixed'})"
        if P >= nb and C >= nb and cable_of[P - nb] == cable_of[C - nb]:
            c = cable_of[C - nb]
            raise ValueError(f"{what} joins two points of one cable (cable nodes "
                             f"{starts[c]}..{starts[c + 1] - 1}): a ring, a closed loop inside "
                             f"the cable; {CABLE_DAE}")
        if C >= nb:
            node, other, point = C - nb, P, tree.cable_joint_anchor[k]
        elif P >= nb and C < 0:
            node, other, point = P - nb, C, tree.cable_joint_offset[k]
        else:
            # a body C hung from cable node P
            if kind:
                raise ValueError(f"{what} clamps a body to a cable point: the recursion runs a "
                                 f"body on a cable point by a spherical joint only; "
                                 f"{CABLE_DAE}")
            if C in joint_body or parent[C] >= 0:
                raise ValueError(f"{what} hangs body {C} from a cable point, but the body has "
                                 f"another joint: a closed loop; {CABLE_DAE}")
            parent[C], motion[C], sizes[C] = P, M_SPHERICAL, motion_size(M_SPHERICAL)
            anchor[C] = 0.0
            joint_body[int(j)] = C
            continue
        c = cable_of[node]
        if c in root:
            raise ValueError(f"{what} is a second joint on a cable (cable nodes "
                             f"{starts[c]}..{starts[c + 1] - 1}): a closed loop; {CABLE_DAE}")
        root[c] = node
        i = nb + node
        joint_node[int(j)] = i
        parent[i], anchor[i] = other, point
        motion[i], sizes[i] = (C_CLAMP, 1) if kind == CABLE_CLAMP else (C_SPHERICAL, 3)
        if kind:
            A = np.eye(3) if other < 0 else tree.A0[other]
            axis[i] = A.T @ tree.cable_x0[node, 3:]
    # each cable's elements from its root
    c_element = np.full(n, -1, dtype=np.int64)
    c_flip = np.zeros(len(elements), dtype=np.int64)
    for c in range(len(starts) - 1):
        lo, hi = starts[c], starts[c + 1]
        if c not in root:
            raise ValueError(f"the cable of nodes {lo}..{hi - 1} has no joint that holds it "
                             f"(its joints hang bodies or cables from it); {CABLE_DAE}")
        r = root[c]
        for k in range(r + 1, hi):
            parent[nb + k], c_element[nb + k] = nb + k - 1, element_of[k - 1, k]
        for k in range(r - 1, lo - 1, -1):
            parent[nb + k], c_element[nb + k] = nb + k + 1, element_of[k, k + 1]
            c_flip[element_of[k, k + 1]] = 1
    # a topological order, parents first
    depth = [-1] * n
    up = parent.tolist()
    for i in range(n):
        chain, seen = [], set()
        k = i
        while k >= 0 and depth[k] < 0:
            if k in seen:
                raise ValueError(f"the joints at cable points close a loop through node {k}; "
                                 f"{CABLE_DAE}")
            chain.append(k)
            seen.add(k)
            k = up[k]
        d = depth[k] if k >= 0 else -1
        for k in reversed(chain):
            d += 1
            depth[k] = d
    order = np.argsort(depth, kind="stable")
    # the elements' constant mass and weight, once per (length, rho A): a cable's are equal
    constants = {}
    mass, gravity = [], []
    for e in range(len(elements)):
        key = (float(tree.cable_length[e]), float(tree.cable_rhoA[e]), bool(c_flip[e]))
        if key not in constants:
            l, rhoA, flip = key
            M = ancf_cable.mass_matrix(rhoA, 1.0, l)
            if flip:
                M = np.roll(np.roll(M, CABLE_NODE, axis=0), CABLE_NODE, axis=1)
            constants[key] = (M, ancf_cable.gravity_force(rhoA, 1.0, l, tree.gravity))
        mass.append(constants[key][0])
        gravity.append(constants[key][1])
    q_offset = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
    body_sizes = sizes[:nb]
    relinked = dataclasses.replace(
        tree, parent=parent[:nb].copy(), motion=motion[:nb].copy(),
        q_offset=np.concatenate([[0], np.cumsum(body_sizes)]).astype(np.int64),
        anchor=anchor[:nb].copy(), joint_body=joint_body)
    cables = dict(
        parent=parent, motion=motion, q_offset=q_offset,
        element=np.concatenate([tree.element, np.full(nc, -1)]),
        mass=np.concatenate([tree.mass, np.zeros(nc)]),
        inertia=np.concatenate([tree.inertia, np.zeros((nc, 3, 3))]),
        anchor=anchor, offset=np.concatenate([tree.offset, np.zeros((nc, 3))]),
        relative=np.concatenate([tree.relative, np.tile(np.eye(3), (nc, 1, 1))]),
        axes=np.concatenate([tree.axes, np.zeros((nc, 2, 3))]),
        order=order, c_element=c_element, c_nodes=nb + elements, c_flip=c_flip,
        c_x0=np.concatenate([np.zeros((nb, CABLE_NODE)), tree.cable_x0]), c_axis=axis,
        c_mass=np.array(mass).reshape(-1, CABLE_ELEMENT ** 2),
        c_gravity=np.array(gravity).reshape(-1, CABLE_ELEMENT),
        c_length=tree.cable_length, c_EA=tree.cable_EA, c_EI=tree.cable_EI,
        c_damping=tree.cable_damping, c_rest=tree.cable_rest,
        c_curved=np.asarray(tree.cable_rest).any(axis=1), joint_node=joint_node)
    return relinked, cables


def cable_refusal(tree):
    """Why the recursion cannot run the cables of a tree (:func:`cable_layout`'s message), or
    "" when it can (or the tree has none). Kept on the tree once found: a run asks it four
    times before it steps, and the layout it tries costs milliseconds at hundreds of cable
    elements (the frozen tree's ``__dict__``, as ``functools.cached_property`` keeps its
    values)."""
    if not tree.n_cable_nodes:
        return ""
    refusal = tree.__dict__.get("_cable_refusal")
    if refusal is None:
        try:
            cable_layout(tree)
            refusal = ""
        except ValueError as error:
            refusal = str(error)
        tree.__dict__["_cable_refusal"] = refusal
    return refusal


def cable_frames(e, ed, frame0):
    """The cable nodes' poses (c, 12) and velocities (c, 6) in the layout of the bodies'
    (``Result.nodes``, ``Result.velocities``) from their coordinates e and rates ed (c, 6):
    the position r, a frame whose x is the unit tangent ``t = r' / |r'|`` (the frame
    ``frame0`` (c, 3, 3), the reference frame or a run's base, :func:`cable_bases`, turned by
    the smallest rotation that takes its x to t), the velocity r' and the tangent's angular
    velocity ``t x t'``; as the spatial DAE's ``cable_poses`` (compiled:
    :func:`rancf.elements._ancf_cable.node_frames`)."""
    n = len(e)
    poses, rates = np.empty((n, FRAME_SIZE)), np.empty((n, TWIST_SIZE))
    _ancf_cable.node_frames(np.ascontiguousarray(e, dtype=float),
                            np.ascontiguousarray(ed, dtype=float),
                            np.ascontiguousarray(frame0, dtype=float), poses, rates)
    return poses, rates


def cable_bases(t, e, frame0, previous=None):
    """The base frames (m, c, 3, 3) of the cable nodes at m successive outputs of a run, at
    the times t (m,; s) and coordinates e (m, c, 6), from which :func:`cable_frames` turns
    each node's frame to its tangent: the reference frame ``frame0`` (c, 3, 3) while the
    tangent stays within 120 degrees of its x, the frame of the output before where it turns
    further, so that a cable end swinging over through a half turn keeps a defined frame
    continuous in time (``frame0`` and ``previous`` (c, 3, 3): the bases and the frames of
    an output before the first, for a run observed output by output; compiled:
    :func:`rancf.elements._ancf_cable.cable_bases`, which says why)."""
    e = np.ascontiguousarray(e, dtype=float)
    out = np.empty(e.shape[:2] + (3, 3))
    _ancf_cable.cable_bases(np.ascontiguousarray(t, dtype=float).reshape(len(e)), e,
                            np.ascontiguousarray(frame0, dtype=float), out,
                            None if previous is None
                            else np.ascontiguousarray(previous, dtype=float))
    return out


def cable_spins(e, ed, frame0):
    """The angular velocities (c, 3; global, rad/s) of the cable frames of
    :func:`cable_frames` (``F = R frame0``, R the smallest rotation taking ``b = frame0 x`` to
    the unit tangent t), their spin about t included (``cable_frames``' velocities hold the
    tangent's ``t x t'`` only): ``t x t' - (k . t') / (1 + c) t``, ``k = b x t``, ``c = b . t``,
    ``t' = (I - t t^T) r'' / |r'|``, the frame's at a fixed ``frame0``; e, ed (c, 6) the
    coordinates ``[r, r']`` and their rates (compiled:
    :func:`rancf.elements._ancf_cable.node_frames`)."""
    n = len(e)
    spins = np.empty((n, 3))
    _ancf_cable.node_frames(np.ascontiguousarray(e, dtype=float),
                            np.ascontiguousarray(ed, dtype=float),
                            np.ascontiguousarray(frame0, dtype=float), np.empty((n, FRAME_SIZE)),
                            np.empty((n, TWIST_SIZE)), spins)
    return spins


def rotation_logs(R):
    """Rotation vectors (S, 3) of rotations R (S, 3, 3), angles at most pi (the kernels'
    ``logm``, one call for all)."""
    out = np.empty(R.shape[:1] + (3,))
    _spatial_dae.rotation_logs(np.ascontiguousarray(R, dtype=float), out)
    return out


def left_jacobian_inverse_times(p, w):
    """``J_l(p)^-1 w`` (S, 3) for rotation vectors p and vectors w (S, 3): ``w - p x w / 2 +
    c3 p x (p x w)``, ``c3 = 1/a^2 - cot(a/2) / (2 a)`` (a = |p| < 2 pi; below 0.25 its
    series to a^10, as the kernels' ``inverse_coefficients``)."""
    a = np.linalg.norm(p, axis=1)
    a2 = a * a
    small = a < 0.25
    safe = np.where(small, 1.0, a)
    c3 = np.where(small, 1.0 / 12.0 + a2 * (1.0 / 720.0 + a2 * (1.0 / 30240.0 + a2 * (
        1.0 / 1209600.0 + a2 * (1.0 / 47900160.0 + a2 * (691.0 / 1307674368000.0))))),
        1.0 / safe ** 2 - 1.0 / np.tan(0.5 * safe) / (2.0 * safe))
    pw = np.cross(p, w)
    return w - 0.5 * pw + c3[:, None] * np.cross(p, pw)


#: The smallest norm of a cable slope a State may give (the spatial DAE's ``state_of_poses``)
MIN_SLOPE = 1e-3


def _check_slopes(slopes):
    """ValueError naming the first cable node whose slope (c, 3) is not finite or of norm
    below :data:`MIN_SLOPE`: the strains ``|r'| - 1`` and ``r' x r'' / |r'|^2`` have no
    direction there and a run would fill with NaN (the recursion's state and the spatial DAE's
    ``state_of_poses`` check with it)."""
    norms = np.linalg.norm(slopes, axis=1)
    bad = np.flatnonzero(~(norms >= MIN_SLOPE))
    if len(bad):
        raise ValueError(
            f"state: cable node {bad[0]} (of the model's cable nodes, in order) has the slope "
            f"r' = {slopes[bad[0]].tolist()} of norm {norms[bad[0]]:.3g}; a cable slope must be "
            f"finite with |r'| >= {MIN_SLOPE:g} (1 where unstretched)")


def _check_frames(frames, tol):
    """ValueError naming the first body whose frame (n, 3, 3) is not a rotation to ``tol``
    (``max |A^T A - I| > tol``, or a reflection, ``det A < 0``), before the poses are checked
    against the joints: a frame that is not a rotation satisfies no joint, and saying so names
    what is wrong (the recursion's state and the spatial DAE's ``state_of_poses`` check it)."""
    off = np.abs(np.einsum("nki,nkj->nij", frames, frames) - np.eye(3)).max(axis=(1, 2),
                                                                          initial=0.0)
    bad = np.flatnonzero(~(off <= tol) | (np.linalg.det(frames) < 0.0))
    if len(bad):
        k = bad[0]
        what = (f"not orthogonal (max |A^T A - I| = {off[k]:.3g}, more than {tol:g})"
                if not off[k] <= tol else "a reflection (det A < 0)")
        raise ValueError(f"state: the frame of body {k} (its pose's entries 3 to 11) is "
                         f"{what}; a pose's frame must be a rotation matrix (Result.state of a "
                         "run of this model gives one)")


def _effort_rows(arrays, links):
    """The rows of the joints' efforts and spring-dampers in the recursion's reactions
    (:meth:`Spatial.joint_reactions`), one per coordinate of every joint link ``(joint,
    body)`` in ``links``, from the kernel's ``arrays`` (``parent``, ``motion``,
    ``q_offset``, ``axes``, ``relative``): ``joint``, ``index`` (its coordinate's in tau),
    ``parent``, ``child``, the directions ``f``, ``mp``, ``mc`` (n, 3 each;
    :meth:`rancf.joints.kind.SpatialMotion.effort_directions`); and of the links with a
    rotation vector their ``vector_body``, ``vector_at`` (the vector's first coordinate in
    tau) and ``vector_column`` (in the link)."""
    rows = {k: [] for k in ("joint", "index", "parent", "child", "f", "mp", "mc",
                            "vector_body", "vector_at", "vector_column")}
    parent, motion, qo = (np.asarray(arrays[k]) for k in ("parent", "motion", "q_offset"))
    for j, b in links:
        # (a tree without bodies has no links: its kernel arrays hold one entry)
        axes = np.asarray(arrays["axes"]).reshape(-1, 2, 3)
        relative = np.asarray(arrays["relative"]).reshape(-1, 3, 3)
        kind = link_motion(int(motion[b]))
        f, mp, mc = kind.effort_directions(axes[b, 0], axes[b, 1], relative[b])
        k = len(f)
        rows["joint"] += [j] * k
        rows["index"] += list(range(int(qo[b]), int(qo[b]) + k))
        rows["parent"] += [int(parent[b])] * k
        rows["child"] += [b] * k
        for name, value in (("f", f), ("mp", mp), ("mc", mc)):
            rows[name] += list(value)
        if kind.vector >= 0:
            rows["vector_body"].append(b)
            rows["vector_at"].append(int(qo[b]) + kind.vector)
            rows["vector_column"].append(kind.vector)
    return {k: (np.array(v, dtype=float).reshape(-1, 3) if k in ("f", "mp", "mc")
                else np.array(v, dtype=int)) for k, v in rows.items()}


def _vector(name, value, n):
    v = np.asarray(value, dtype=float).reshape(-1)
    if v.shape != (n,) or not np.all(np.isfinite(v)):
        raise ValueError(f"{name} must be {n} finite numbers, got {value!r}")
    return v


def _element_rates(cables, rates, n_bodies):
    """Each cable element's node rates in its mass matrix's order, (..., n_elements, 12), of
    the cable nodes' rates (..., c, 6) (or coordinates: any per-node six numbers): its two
    nodes' (``c_nodes``, numbered after the ``n_bodies`` bodies), swapped where the element is
    flipped (``c_flip``: drawn from its second node, its matrix in that order)."""
    pairs = cables["c_nodes"] - n_bodies
    Ed = rates[..., pairs, :].reshape(rates.shape[:-2] + (len(pairs), CABLE_ELEMENT))
    flip = cables["c_flip"].astype(bool)[:, None]
    return np.where(flip, np.roll(Ed, CABLE_NODE, axis=-1), Ed)


def _kinetic_and_gravity(tree, cables, r, A, V, e, ed):
    """The kinetic energy ``1/2 sum (m v.v + w.A J A^T w)`` plus the cables' ``1/2 ed^T M_e
    ed`` and the gravity potential ``-sum m g.r`` plus the cables' ``-F_G . e`` (J, (s,) each)
    of s states: the bodies' origins r (s, n, 3), frames A (s, n, 3, 3) and velocities V (s,
    n, 6), the cable nodes' coordinates e and rates ed (s, c, 6; ``cables`` None: none).
    ``v . M v`` of :meth:`Spatial._kinetic_action` in sums of the energy's own form (``w . A J
    A^T w = (A^T w) . J (A^T w)``)."""
    w = V[..., 3:]
    wb = np.einsum("snji,snj->sni", A, w)
    kinetic = 0.5 * (np.einsum("n,sni,sni->s", tree.mass, V[..., :3], V[..., :3])
                     + np.einsum("sni,nij,snj->s", wb, tree.inertia, wb))
    gravity = -np.einsum("n,sni,i->s", tree.mass, r, tree.gravity)
    if cables is not None:
        # the cables' ``ed^T M ed / 2`` and ``-F_G . e`` per element, F_G in the nodes' order
        n = tree.n_bodies
        pairs = cables["c_nodes"] - n
        E = e[:, pairs].reshape(len(e), -1, CABLE_ELEMENT)
        Ed = _element_rates(cables, ed, n)
        M = cables["c_mass"].reshape(-1, CABLE_ELEMENT, CABLE_ELEMENT)
        kinetic = kinetic + 0.5 * np.einsum("sej,sej->s", (Ed[:, :, None, :] @ M)[:, :, 0], Ed)
        gravity = gravity - np.einsum("ei,sei->s",
                                      cables["c_gravity"].reshape(-1, CABLE_ELEMENT), E)
    return kinetic, gravity


class Spatial:
    """A spatial tree in the O(n) formulation (see the module docstring).

    Parameters
    ----------
    tree : rancf.model.spatial_tree.SpatialTree
        With cables the recursion runs (:func:`cable_layout`) they are part of the
        formulation; with others (:func:`cable_refusal`) it runs the bodies alone, the cables
        left out (what the spatial DAE asks of it: its bodies' kinematics).
    loads, efforts, drives :
        The load values, joint efforts and drives (:class:`Inputs`).

    Attributes
    ----------
    tree, kernel (the :class:`~rancf.formulations._problem.ODEProblem`), inputs, n_q (link
    coordinates), n_free (those in the state), n_y.
    """

    def __init__(self, tree, loads=None, efforts=None, drives=None):
        #: the cables' arrays (:func:`cable_layout`), None without cables
        self.cables = None
        #: the cable frames' bases and frames (c, 3, 3 each) of a state before the first
        #: output, from which :meth:`observe` carries them on (:meth:`carry_cable_frames`);
        #: None: the reference frames
        self.cable_start = None
        #: the tree as built (the cables' arrays: ``cable_*``)
        self.model_tree = tree
        if tree.n_cable_nodes and not cable_refusal(tree):
            tree, self.cables = cable_layout(tree)
        self.tree = tree
        #: how :meth:`state_of` took a State's velocities ("" as given)
        self.start_note = ""
        self.kernel = SpatialKernel(tree, self.cables)
        self.inputs = Inputs(tree, self.kernel.arrays, loads, efforts, drives)
        self.kernel.set_inputs(self.inputs)
        self.kernel.set_drives(self.inputs.driven)
        self.kernel.owner = self
        self.n_q, self.n_free, self.n_y = self.kernel.n_q, self.kernel.n_free, self.kernel.n_y
        qo = np.asarray(tree.q_offset)
        self._joint_columns = np.concatenate(
            [np.arange(qo[b], qo[b + 1]) for b in tree.joint_body] or [np.zeros(0, int)]
        ).astype(int)
        self._efforts = _effort_rows(self.kernel.arrays, [
            (j, int(b)) for j, b in enumerate(tree.joint_body)
            if b >= 0 and j not in (self.cables["joint_node"] if self.cables else {})])

    @property
    def damped(self):
        """True if something damps the motion: Kelvin-Voigt damping of an element (of a beam
        or a cable), a spring-damper's c (between points or on a joint), or an effort
        function (of the joint rates, maybe). Then the explicit step's stability limit and
        method "auto" (rancf/simulate.py) take the fastest decay rate into account
        (:meth:`highest_rate`): a damper's decay rate, c / I at a joint, may lie far beyond
        the natural frequencies, and a step beyond RK4's limit on the real axis diverges."""
        tree = self.tree
        return bool(tree.damping.any() or np.any(tree.spring_law[:, 1])
                    or np.any(tree.joint_spring_law[:, 1]) or self.inputs.effort_functions
                    or (self.cables is not None and np.any(self.cables["c_damping"])))

    def initial_state(self, q=None, qd=None):
        """``y0 = (q, qd)`` (n_y,) of the free coordinates (n_free each); zeros (the
        reference configuration at rest) by default."""
        y = np.zeros(self.n_y)
        if q is not None:
            y[:self.n_free] = _vector("q", q, self.n_free)
        if qd is not None:
            y[self.n_free:] = _vector("qd", qd, self.n_free)
        return y

    def tracked(self):
        """The kernel with the energy balance in its state (:class:`~rancf.formulations.
        _spatial_energy.TrackedKernel`): ``y = (q, qd, W_ext, W_diss)``, ``n_y + 2`` entries,
        what the explicit methods integrate (the work and the dissipation at their order)."""
        return TrackedKernel(self.kernel)

    def link_coordinates(self, x):
        """Every link's coordinates (n_q,) read from the bodies' poses x, unchecked: each from
        its parent's pose and its body's (``R(q) = A_p^T A Q^T``, ``t(q) = A_p^T (r - r_p +
        A offset) - anchor``), an angle or a slide along the link's axes, a rotation vector
        (``log``, angle at most pi) for spherical, free and element links. A model with cables
        has its cable nodes' coordinates after the bodies' poses in x, and their links'
        coordinates after the bodies' (:meth:`_cable_link_coordinates`); a body hung from a
        cable node sees the node's frame as the identity at its point r (the kernel's
        ``cable_node``).

        Parameters
        ----------
        x : ndarray (12 n_bodies + 6 n_cable_nodes,)
            Per body its origin r (m) and frame A row-major (:attr:`rancf.Result.nodes`); then
            per cable node its position r (m) and slope r' (``Result.extra["cable_nodes"]``).
        """
        tree, n = self.tree, self.tree.n_bodies
        x = np.asarray(x, dtype=float)
        e = x[FRAME_SIZE * n:].reshape(-1, CABLE_NODE)
        x = x[:FRAME_SIZE * n].reshape(n, FRAME_SIZE)
        r, A = x[:, :3], x[:, 3:].reshape(n, 3, 3)
        qo = np.asarray(tree.q_offset)
        q = np.zeros(self.n_q)
        for i in range(n):
            p = tree.parent[i]
            Ap, rp = (A[p], r[p]) if 0 <= p < n else (np.eye(3), e[p - n, :3]) if p >= n \
                else (np.eye(3), np.zeros(3))
            R = Ap.T @ A[i] @ tree.relative[i].T
            tq = Ap.T @ (r[i] - rp + A[i] @ tree.offset[i]) - tree.anchor[i]
            q[qo[i]:qo[i + 1]] = _link_coordinates(int(tree.motion[i]), tree.axes[i], R, tq)
        if self.cables is not None:
            self._cable_link_coordinates(A, e, q)
        return q

    def _cable_link_coordinates(self, A, e, q):
        """The cable nodes' link coordinates written into q (:func:`cable_layout`, the inverse
        of the kernel's ``cable_node``), from the bodies' frames A (n, 3, 3) and the cable
        nodes' coordinates e (c, 6), unchecked: an element's ``z = e_k - e_p - (e0_k - e0_p)``
        (p its node towards the root); a root on a spherical joint ``q = r' - r'_0``, on a
        clamp the stretch of its slope along the clamp's axis ``b = A_p a``,
        ``q = r'.b / b.b - 1`` (its position and the slope's direction are what the joint
        holds: :meth:`state_of` checks them)."""
        c, n = self.cables, self.tree.n_bodies
        parent, motion, qo = c["parent"], c["motion"], c["q_offset"]
        x0 = c["c_x0"]
        for k in range(len(e)):
            i = n + k
            p, m, s = int(parent[i]), int(motion[i]), slice(int(qo[i]), int(qo[i + 1]))
            if m == C_NODE:
                q[s] = e[k] - e[p - n] - (x0[i] - x0[p])
            elif m == C_SPHERICAL:
                q[s] = e[k, 3:] - x0[i, 3:]
            else:
                b = (A[p] if 0 <= p < n else np.eye(3)) @ c["c_axis"][i]
                q[s] = e[k, 3:] @ b / (b @ b) - 1.0

    def state_of(self, x, v, t=0.0, tol=1e-8, check=True, joints=None, joint_q=None):
        """``y0 = (q, qd)`` (n_y,) of the bodies' poses x and velocities v (and a model's cable
        nodes' coordinates and rates after them), checked against the joints: the inverse of
        :meth:`kinematics`, as the planar
        :meth:`rancf.formulations.recursive.Recursive.initial_state`.

        Each link's coordinates follow from its parent's pose and its body's (``R(q) =
        A_p^T A Q^T``, ``t(q) = A_p^T (r - r_p + A offset) - anchor``): an angle or a slide
        along the link's axes, a rotation vector (``log``, angle at most pi) for spherical, free
        and element links; a driven link's are its drive's at t; a cable's as
        :meth:`_cable_link_coordinates` gives them. The free rates are those whose velocities
        ``B qd + V_d`` (V_d the drives' part; a cable node's V its rates ``(r', r'')``) are
        nearest v in the kinetic-energy metric, the least change of the whole motion as the
        DAE's projection makes it: ``B^T M B qd = B^T M (v - V_d)``, M per body ``diag(m I3,
        A J A^T)`` and the cables' element masses (:meth:`_kinetic_action`), solved by the
        forward dynamics' O(n) factorization
        (:meth:`~rancf.formulations._spatial.SpatialKernel.mass_solve`). The
        poses and velocities these coordinates give must equal x and v: the positions (a
        cable node's r too) to ``tol`` times the model size, the frames and the cable slopes
        to ``tol`` (times the slope's length); the velocities' change dv to ``tol`` of them in
        the kinetic-energy metric (``dv^T M dv <= tol^2 v^T M v``, :meth:`_kinetic_action`),
        or, for the state of a DAE run (its velocity rows held only to its step's error), to
        0.05 of them (:func:`~rancf.formulations.start_check.velocity_verdict`), which
        :attr:`start_note` then states ("" when none; :mod:`rancf.formulations.start_check`);
        further off is refused stating the energies judged
        (:func:`~rancf.formulations.start_check.velocity_miss`).

        Parameters
        ----------
        x : ndarray (12 n_bodies + 6 n_cable_nodes,)
            Per body its origin r (m) and frame A row-major (:attr:`rancf.Result.nodes`); then
            per cable node its position r (m) and slope r' (dimensionless).
        v : ndarray (6 n_bodies + 6 n_cable_nodes,)
            Per body its velocity and angular velocity (m/s, rad/s; :attr:`rancf.Result.
            velocities`); then per cable node the rates of r and r' (m/s, 1/s).
        t : float
            The time of the drives (s).
        check : bool
            False: the coordinates without the checks of the poses and velocities (a stored
            frame of a run, which holds the joints to its own tolerance).
        joints : list of rancf.Joint, optional
            The model's joints, for the message refusing a state off a driven joint (its
            drive's value at t against the state's, ``joint_q``: the state's joint
            coordinates, a row of ``Result.joint_q``; None: not known).

        Returns
        -------
        ndarray (n_y,)

        Raises
        ------
        ValueError
            A body's frame is not a rotation (not orthogonal to ``tol``, or a reflection: the
            body named); the poses or velocities do not satisfy the joints (the body, or the
            cable node and its joint, and the gap named), or a cable slope of norm below 1e-3
            or not finite (the spatial DAE's ``state_of_poses`` says why).
        """
        tree, n = self.tree, self.tree.n_bodies
        nc = self.model_tree.n_cable_nodes if self.cables is not None else 0
        x, v = np.asarray(x, dtype=float), np.asarray(v, dtype=float)
        e = x[FRAME_SIZE * n:].reshape(nc, CABLE_NODE)
        ed = v[TWIST_SIZE * n:].reshape(nc, CABLE_NODE)
        _check_slopes(e[:, 3:])
        X = x[:FRAME_SIZE * n].reshape(n, FRAME_SIZE)
        V = v[:TWIST_SIZE * n].reshape(n, TWIST_SIZE)
        r, A = X[:, :3], X[:, 3:].reshape(n, 3, 3)
        if check:
            _check_frames(A, tol)
        q = self.link_coordinates(x)
        self.inputs.at_time(t)
        smap = self.kernel.arrays["smap"][:self.n_q]
        free = smap >= 0
        y = np.zeros(self.n_y)
        y[smap[free]] = q[free]
        r1, A1, V_d = self.kinematics(y)
        if nc and check:
            self._check_cable_poses(e, tol)
        gap = np.maximum(np.abs(r1 - r).max(axis=1) / tree.size,
                         np.abs(A1 - A).reshape(n, 9).max(axis=1)) if n else np.zeros(0)
        bad = np.flatnonzero(check & (gap > tol))
        if bad.size:
            raise ValueError(self._start_refusal(int(bad[0]), "poses", gap[bad[0]], t, joints,
                                                 joint_q, " of the model size or in its frame"))
        # the rates of the least change of kinetic energy at these q: the normal equations'
        # O(n) solve with the miss of the velocities V1 of the rates so far (first the drives'
        # part, the kinematics above with the free rates zero), twice: one step of iterative
        # refinement takes the normal equations' rounding (their condition number times 1e-16)
        # back to the rates' own, so that a run's state gives back its velocities
        given, V1 = (np.concatenate([V, ed]) if nc else V), V_d
        for _ in range(2):
            V1 = np.concatenate([V1, self.cable_coordinates()[1]]) if nc else V1
            y[self.n_free:] += self.kernel.mass_solve(self._kinetic_action(A1,
                                                                           (given - V1).ravel()))
            V1 = self.kinematics(y)[2]
        if not check:
            return y
        V1 = np.concatenate([V1, self.cable_coordinates()[1]]) if nc else V1
        V = given
        dv = (V1 - V).ravel()
        gaps = np.abs(V1 - V).max(axis=1) if len(V) else np.zeros(0)
        self.start_note = ""
        Mv, Mdv = self._kinetic_action(A, V.ravel()), self._kinetic_action(A, dv)
        verdict = start_check.velocity_verdict(V.ravel(), Mv, dv, Mdv, tol)
        if verdict == "refused":
            # the first off in the tree's order, root first: its subtree inherits its miss
            shares = (dv * Mdv).reshape(len(V), -1).sum(axis=1)
            order = self.cables["order"] if nc else np.arange(n)
            body = start_check.first_off(shares, order, V.ravel(), Mv)
            raise ValueError(self._start_refusal(
                body, "velocities", start_check.velocity_miss(V.ravel(), Mv, dv, Mdv), t,
                joints))
        if verdict == "moved":
            self.start_note = start_check.correction_note(0.0, gaps.max(), 0.0, gaps.max())
        return y

    def _kinetic_action(self, A, v):
        """``M v`` (n_v,) of the velocities v (6 n_bodies + 6 n_cable_nodes,) of bodies whose
        frames are A (n_bodies, 3, 3): a body's ``(m v, A J A^T w)`` (its momentum and its
        angular momentum about its centre, the origin), a cable element's ``M_e`` on its two
        nodes' rates, so that ``v . M v`` is twice the kinetic energy (J) as
        :func:`_kinetic_and_gravity` computes it."""
        n = self.tree.n_bodies
        out = np.zeros_like(v)
        body = v[:TWIST_SIZE * n].reshape(n, TWIST_SIZE)
        own = out[:TWIST_SIZE * n].reshape(n, TWIST_SIZE)
        own[:, :3] = self.tree.mass[:, None] * body[:, :3]
        own[:, 3:] = np.einsum("nij,njk,nlk,nl->ni", A, self.tree.inertia, A, body[:, 3:])
        if self.cables is not None and v.size > TWIST_SIZE * n:
            c = self.cables
            rates = v[TWIST_SIZE * n:].reshape(-1, CABLE_NODE)
            acted = out[TWIST_SIZE * n:].reshape(-1, CABLE_NODE)
            M = c["c_mass"].reshape(-1, CABLE_ELEMENT, CABLE_ELEMENT)
            pairs = c["c_nodes"] - n
            f = np.einsum("eij,ej->ei", M, _element_rates(c, rates, n))
            # back to the nodes' order
            f = np.where(c["c_flip"].astype(bool)[:, None], np.roll(f, CABLE_NODE, axis=1), f)
            np.add.at(acted, pairs[:, 0], f[:, :CABLE_NODE])
            np.add.at(acted, pairs[:, 1], f[:, CABLE_NODE:])
        return out

    def _start_refusal(self, body, level, off, t, joints=None, joint_q=None, measure=""):
        """The message refusing a start whose ``level`` ("poses" or "velocities") is off at
        ``body`` (n_bodies + k: cable node k) by ``off`` (``measure``: in what; velocities:
        :func:`~rancf.formulations.start_check.velocity_miss`'s text): the joint
        that places the body, with its drive where ``joints`` (the model's) are given
        (:func:`rancf.formulations.start_check.refusal`; the state's coordinate from
        ``joint_q``, a row of ``Result.joint_q``)."""
        n = self.tree.n_bodies
        placing = np.flatnonzero(np.asarray(self.tree.joint_body) == body) if body < n else []
        if joints is None or not len(placing):
            where = f"body {body}" if body < n else f"cable node {body - n}"
            head = f"state: the {level} do not satisfy the joints at {where}"
            if level == "velocities":
                return f"{head}, which takes the largest share of their change: {off}"
            return (f"{head} (off by {off:.3g}{measure}); pass {level} that satisfy every "
                    "joint (Result.state of a run of this model)")
        j = joints[int(placing[0])]
        given = None
        if joint_q is not None and level == "poses" and j.driven:
            given = float(joint_q[sum(i.type.spatial.n_coordinates
                                      for i in joints[:j.index])])
        return start_check.refusal(j, level, off, j.type.spatial.units[0], given, t)

    def _check_cable_poses(self, e, tol):
        """ValueError unless the cable nodes' coordinates e (c, 6) are those of the last
        kinematics: a root node's position at its joint's point to ``tol`` times the model
        size and, on a clamp, its slope along the clamp's axis to ``tol`` times the slope's
        length (an element node is any; its coordinates are differences)."""
        e1, _ = self.cable_coordinates()
        size = self.tree.size
        position = np.linalg.norm(e1[:, :3] - e[:, :3], axis=1)
        slope = np.linalg.norm(e1[:, 3:] - e[:, 3:], axis=1) / np.linalg.norm(e[:, 3:], axis=1)
        bad = np.flatnonzero((position > tol * size) | (slope > tol))
        if not bad.size:
            return
        k = int(bad[0])
        joint = {i: j for j, i in self.cables["joint_node"].items()}.get(self.tree.n_bodies + k)
        kind = "fixed" if self.cables["motion"][self.tree.n_bodies + k] == C_CLAMP else \
            "spherical"
        what = f"joint {joint} ({kind})" if joint is not None else "its element"
        if position[k] > tol * size:
            gap = (f"a constraint off by {position[k]:.3g} m, more than {tol:g} of the model "
                   "size: its position r off the joint's point")
        else:
            gap = (f"a constraint off by {slope[k]:.3g} of |r'|, more than {tol:g}: its slope "
                   "r' turned off the clamp's axis")
        raise ValueError(f"state: the poses do not satisfy the joints ({gap}) at cable node {k} "
                         f"(of the model's cable nodes, in order) on {what}; pass poses that "
                         "satisfy every joint (Result.state of a run of this model)")

    def derivative(self, t, y):
        """``y' = (qd, qdd)`` (n_y,) at (t, y); raises as
        :meth:`rancf.formulations._problem.ODEProblem.derivative`."""
        return self.kernel.derivative(t, y)

    def kinematics(self, y):
        """Body origins (n, 3), frames (n, 3, 3) and velocities ``(v, w)`` (n, 6) at y."""
        self.kernel.kinematics(y)
        a, n = self.kernel.arrays, self.tree.n_bodies
        return (a["r"][:3 * n].reshape(n, 3).copy(), a["A"][:9 * n].reshape(n, 3, 3).copy(),
                a["V"][:TWIST_SIZE * n].reshape(n, TWIST_SIZE).copy())

    def energy(self, y):
        """``{"kinetic", "gravity", "elastic"}`` (J) at y: ``1/2 sum (m v.v + w.A J A^T w)``,
        the gravity potential ``-sum m g.r`` and the elastic energy of the elements and the
        spring-dampers (:meth:`~rancf.formulations._spatial.SpatialKernel.elastic_energy`)."""
        r, A, V = self.kinematics(y)
        # one state: the sums of many (Result.energy's), on a first axis of one
        cable = ([a[None] for a in self.cable_coordinates()] if self.cables is not None
                 else [None, None])
        kinetic, gravity = _kinetic_and_gravity(self.tree, self.cables, r[None], A[None],
                                                V[None], *cable)
        return {"kinetic": float(kinetic[0]), "gravity": float(gravity[0]),
                "elastic": float(self.kernel.elastic_energy(y))}

    def cable_coordinates(self):
        """The cable nodes' coordinates ``e = [r, r']`` and rates (c, 6 each) of the last
        kinematics."""
        a, nb = self.kernel.arrays, self.tree.n_bodies
        n = nb + self.model_tree.n_cable_nodes
        return (a["ce"][CABLE_NODE * nb:CABLE_NODE * n].reshape(-1, CABLE_NODE).copy(),
                a["V"][TWIST_SIZE * nb:TWIST_SIZE * n].reshape(-1, CABLE_NODE).copy())

    def reactions(self, t, y):
        """The reaction of every joint (n_joints, 6): ``[fx, fy, fz, mx, my, mz]``, the force
        and moment the parent exerts on the child through the joint, global, the moment about
        the joint point (N, N m; theory: Reactions of spatial joints). From the recursion at
        (t, y): the link wrench
        at the child's origin is ``W = I^A V' + p^A`` (the articulated inertia and bias force
        of the child's subtree), moved to the joint point ``x = r + A offset`` by
        ``M_x = M - (A offset) x F``, less the joint's effort and spring-damper
        (:meth:`joint_reactions`). NaN if the evaluation failed."""
        k, tree = self.kernel, self.tree
        n, joints = tree.n_bodies, np.asarray(tree.joint_body, dtype=int)
        status, _ = k.evaluate(t, y)
        if status:
            return np.full((len(joints), WRENCH_SIZE), np.nan)
        a = k.arrays
        N = k.n_bodies
        inertia = a["IA"][:TWIST_SIZE ** 2 * N].reshape(N, TWIST_SIZE, TWIST_SIZE)
        return self.joint_reactions(np.einsum("nik,nk->ni", inertia,
                                              a["acc"][:TWIST_SIZE * N].reshape(N, TWIST_SIZE))
                                    + a["pA"][:WRENCH_SIZE * N].reshape(N, WRENCH_SIZE))

    def joint_reactions(self, W):
        """The joints' reactions (n_joints, 6) of the link wrenches W (n_nodes, 6; at each
        child's origin, global) of the last evaluation of the forces: moved to the joint point
        by ``M_x = M - (A offset) x F``, less the wrench of the joint's own efforts and
        spring-dampers (:meth:`_applied_wrenches`: the link wrench holds ``H^T W = tau``, and
        the reaction is what the joint's constraint transmits, as the DAE's multipliers
        give it); at a cable node the force on r and the moment ``r' x F_{r'}`` of the
        link's generalized force on the slope (the spatial DAE's convention)."""
        tree, a, N = self.tree, self.kernel.arrays, self.kernel.n_bodies
        n, joints = tree.n_bodies, np.asarray(tree.joint_body, dtype=int)
        nodes = self.cables["joint_node"] if self.cables is not None else {}
        body = np.array([nodes.get(j, b) for j, b in enumerate(joints)], dtype=int)
        W = np.array(W, dtype=float)[body]
        cable = body >= n
        o = np.einsum("jik,jk->ji", a["A"][:9 * N].reshape(N, 3, 3)[body],
                      np.concatenate([tree.offset, np.zeros((N - n, 3))])[body])
        W[~cable, 3:] -= np.cross(o, W[:, :3])[~cable]
        slope = a["ce"][:CABLE_NODE * N].reshape(N, CABLE_NODE)[body[cable], 3:]
        W[cable, 3:] = np.cross(slope, W[cable, 3:])
        np.subtract.at(W, self._efforts["joint"], self._applied_wrenches())
        return W

    def _applied_wrenches(self):
        """The wrenches (one per row of the joints' efforts, :func:`_effort_rows`) that the
        joints' efforts and spring-dampers exert on their children at the last evaluation of
        the forces: the generalized forces tau of the joint links (their efforts and springs,
        in statics scaled as the run scaled them), a rotation vector's turned back into the
        torque in the parent's frame ``T = Jr^-T tau``, acting along the kinds' directions
        (:func:`rancf.joints.kind.effort_wrenches`)."""
        rows, a, N = self._efforts, self.kernel.arrays, self.kernel.n_bodies
        if not rows["joint"].size:
            return np.zeros((0, WRENCH_SIZE))
        g = a["tau"][:self.n_q].copy()
        vb, vi = rows["vector_body"], rows["vector_at"]
        if vb.size:
            Jr = a["Jr"][:3 * TWIST_SIZE * N].reshape(N, 3, TWIST_SIZE)
            # Jr[b, k, c]: the turn's component k per rate of the link's coordinate c
            J = Jr[vb[:, None, None], np.arange(3)[None, :, None],
                   rows["vector_column"][:, None, None] + np.arange(3)[None, None, :]]
            at = vi[:, None] + np.arange(3)
            g[at] = np.linalg.solve(J.transpose(0, 2, 1), g[at][..., None])[..., 0]
        frames = np.concatenate([a["A"][:9 * N].reshape(N, 3, 3), np.eye(3)[None]])
        parent = rows["parent"]
        return effort_wrenches(g[rows["index"]], frames[np.where(parent < 0, N, parent)],
                               frames[rows["child"]], rows["f"], rows["mp"], rows["mc"])

    def observe(self, t, Y, branches, deferred=False, deferred_energies=False, kept=None):
        """The model-level arrays of the states Y (n_out, n_y) at the times t
        (:meth:`rancf.formulations._problem.ODEProblem.observe`): ``nodes`` (n_out, 12 n: r
        then A row-major, per body), ``velocities`` (n_out, 6 n: v, w), ``joint_q``, ``joint_qd``
        (the joints' link coordinates, concatenated in joint order), ``reactions`` (n_out,
        6 n_joints: :meth:`reactions`, joint by joint), and the energies ``kinetic``,
        ``gravity``, ``elastic`` (n_out,); a model with cables has its cable nodes' drawn poses
        after the bodies' in ``nodes`` and ``velocities``, and their coordinates ``[r, r']`` and
        rates in ``cable_nodes`` and ``cable_velocities`` (n_out, 6 n_cable_nodes; as the spatial
        DAE's). ``branches`` is unused (no angle branch: the coordinates are the state). Y may
        be a callable returning the states, called once when they are first needed.

        A frame costs one kinematics pass, O(n), all frames in one compiled call
        (:meth:`~rancf.formulations._spatial.SpatialKernel.frames`; a call a frame, after the
        inputs at its t, when loads or drives are functions of t); the joints at cable points
        and the cable frames are computed for all frames at once (:meth:`_cable_joint_values`,
        closed form). With ``deferred`` and ``deferred_energies`` (a run's outputs;
        developer: Results, files and sweeps) nothing is computed here: ``nodes`` is a callable
        giving ``nodes``, ``velocities``,
        ``joint_q`` and ``joint_qd``, ``cable_nodes`` and ``cable_velocities`` are callables
        giving theirs (:class:`rancf.Result` calls them when one of them, or its ``extra``, is
        first read), ``energies`` a callable returning the three energies
        (:meth:`_energies_of`, called when :meth:`~rancf.Result.energy` is first asked for),
        and they share one kinematics pass of every frame; loads or drives that are functions
        of t have that pass made here, so that they are called during the run. With
        ``deferred`` ``reactions`` is such a callable (a kernel evaluation a frame), but for a
        model with drives, loads or efforts that are functions: computed here, so that the
        Result holds the inputs the run had, not those of the time it is read, unless the
        loop ``kept`` the functions' values at the outputs (one :meth:`Inputs.keep` row an
        output): then they are played back (a
        :class:`~rancf.formulations.inputs.Recorded`) when the outputs are first read, and
        the run's outputs cost a copy of the state and of those values. The
        deferred callables keep the states: Y itself when it is a fresh array (a
        non-contiguous Y, or a callable's), else a copy, so that the caller's later changes
        do not reach them and a run's output of a few MB a frame is not copied twice."""
        n, nq = self.tree.n_bodies, self.n_q
        nc = self.model_tree.n_cable_nodes
        m = len(t)
        N = n + nc
        times = np.array(t, dtype=float)
        done = {}
        has_functions = self.inputs.time_dependent or self.inputs.effort_dependent
        # the loop's values at the outputs, played back in place of the functions
        recorded = Recorded(times, kept) if kept is not None and has_functions else None
        playing = lambda: self.inputs.playing(recorded) if recorded is not None else \
            contextlib.nullcontext()
        if callable(Y):
            make = Y
        else:
            given = Y
            Y = np.ascontiguousarray(Y, dtype=float).reshape(m, self.n_y)
            kept = Y if not np.may_share_memory(Y, given) else Y.copy()
            make = lambda: kept

        def states():
            """The states (m, n_y), made once."""
            if "Y" not in done:
                done["Y"] = np.ascontiguousarray(make(), dtype=float).reshape(m, self.n_y)
            return done["Y"]

        def kinematics():
            """The kinematics pass of every frame (once): poses, velocities, link coordinates
            and rates, and the cable nodes' coordinates and rates (m, c, 6)."""
            if "nodes" in done:
                return done
            Y = states()
            nodes, vel = np.empty((m, N, FRAME_SIZE)), np.empty((m, N, TWIST_SIZE))
            q, qd = np.empty((m, nq)), np.empty((m, nq))
            if self.inputs.time_dependent:
                with playing():
                    for i in range(m):
                        self.inputs.at_time(times[i])
                        self.kernel.frames(Y[i:i + 1], q[i:i + 1], qd[i:i + 1],
                                           nodes[i:i + 1], vel[i:i + 1])
            elif m:
                self.kernel.frames(Y, q, qd, nodes, vel)
            done.update(cable_e=nodes[:, n:, :CABLE_NODE].copy(), cable_v=vel[:, n:].copy(),
                        nodes=nodes.reshape(m, -1), vel=vel.reshape(m, -1),
                        jq=q[:, self._joint_columns], jqd=qd[:, self._joint_columns])
            return done

        # the bases the outputs' cable frames move on from: this call's, not those a later
        # start (another run's, statics' load steps) leaves on the formulation
        start = self.cable_start or (self.model_tree.cable_frame0, None)

        def bases_of():
            """The cable frames' bases of every frame (m, c, 3, 3), made once."""
            if "bases" not in done:
                done["bases"] = cable_bases(times, kinematics()["cable_e"], *start)
            return done["bases"]

        def frames():
            """nodes, velocities, joint_q, joint_qd with the cables' drawn poses and joints."""
            k = kinematics()
            nodes, vel, jq, jqd = k["nodes"], k["vel"], k["jq"], k["jqd"]
            if not nc:
                return {"nodes": nodes, "velocities": vel, "joint_q": jq, "joint_qd": jqd}
            cable_e, cable_v = k["cable_e"], k["cable_v"]
            # the drawn poses of every frame's cable nodes at once, each from its base at
            # that output (the reference frame until the tangent turns far from it)
            bases = bases_of()
            poses, rates = cable_frames(cable_e.reshape(-1, CABLE_NODE),
                                        cable_v.reshape(-1, CABLE_NODE), bases.reshape(-1, 3, 3))
            nodes[:, FRAME_SIZE * n:] = poses.reshape(m, -1)
            vel[:, TWIST_SIZE * n:] = rates.reshape(m, -1)
            joints = self._with_cable_joints(jq, jqd, self._cable_joint_values(
                nodes, vel, cable_e, cable_v, bases))
            return {"nodes": nodes, "velocities": vel, "joint_q": joints[0],
                    "joint_qd": joints[1]}

        def energies():
            # they read the bodies' poses and the cable coordinates, not the drawn poses
            k = kinematics()
            with playing():
                return self._energies_of(times, states(), k["nodes"], k["vel"], k["cable_e"],
                                         k["cable_v"])

        lazy = deferred and deferred_energies
        if not lazy or (self.inputs.time_dependent and recorded is None):
            # inputs that are functions of t are called during the run, not when read
            kinematics()
        # a run's outputs wait for the Result to be asked for them (developer: Results, files
        # and sweeps): the
        # kinematics pass of every frame, the cables' coordinates, drawn poses and joints
        cables = {"cable_nodes": lambda: kinematics()["cable_e"].reshape(m, -1),
                  "cable_velocities": lambda: kinematics()["cable_v"].reshape(m, -1),
                  "cable_bases": lambda: bases_of().reshape(m, -1)} if nc else {}
        out = {"nodes": frames} if lazy else frames()
        out.update(cables if lazy else {k: f() for k, f in cables.items()})
        # efforts and drives, which the reactions read at t, are called during the run too
        def reactions():
            with playing():
                return self._reactions_of(times, states())

        out["reactions"] = reactions if deferred and (recorded is not None or
                                                     not has_functions) else reactions()
        if deferred_energies:
            out["energies"] = energies
        else:
            out.update(energies())
        if recorded is not None:
            # for the outputs the Result computes later (Solution.inputs)
            out["inputs"] = recorded
        return out

    def carry_cable_frames(self, q):
        """Moves the cable frames' bases (:attr:`cable_start`) on to the state of free
        coordinates q (n_free,) at rest, as a run's next output moves them
        (:func:`cable_bases`): statics calls it at every load step's equilibrium, so that its
        output's frames are carried from load step to load step as a run's from output to
        output, not turned from the reference where a tangent has turned past 120 degrees
        from it. One kinematics pass on the kernel's workspace: called between steps (the
        implicit loop's ``accept`` has dropped its point)."""
        if self.cables is None:
            return
        e = self._cable_coordinates(q)
        bases = cable_bases(np.zeros(1), e[None], *(self.cable_start or
                                                   (self.model_tree.cable_frame0, None)))[0]
        self._start_cable_frames_at(bases, e)

    def start_cable_frames(self, bases, q):
        """Starts the cable frames of the next run (:attr:`cable_start`) from ``bases`` (c, 3,
        3; a :class:`rancf.State`'s, the bases of an earlier run's output at that state; None:
        the reference frames) at the state of free coordinates q (n_free,), so that its
        outputs' frames go on as that run's would have (:func:`cable_bases`: the bases and
        the frames of an output before the first)."""
        if bases is None or self.cables is None:
            self.cable_start = None
            return
        self._start_cable_frames_at(np.ascontiguousarray(bases, dtype=float),
                                    self._cable_coordinates(q))

    def _start_cable_frames_at(self, bases, e):
        """:attr:`cable_start` of the bases (c, 3, 3) at the cable coordinates e (c, 6): the
        bases and the frames turned from them."""
        frames = cable_frames(e, np.zeros_like(e), bases)[0][:, 3:].reshape(-1, 3, 3)
        self.cable_start = (bases, frames)

    def _cable_coordinates(self, q):
        """The cable nodes' coordinates ``[r, r']`` (c, 6) at the free coordinates q
        (n_free,), at rest: one kinematics pass (:meth:`cable_coordinates`)."""
        y = np.zeros(self.n_y)
        y[:self.n_free] = q
        self.kernel.kinematics(y)
        return np.ascontiguousarray(self.cable_coordinates()[0])

    def _energies_of(self, t, Y, nodes, velocities, cable_e, cable_v):
        """``{"kinetic", "gravity", "elastic"}`` (n_out,) of the states Y (n_out, n_y) at the
        times t, as :meth:`energy` computes them at one state: the kinetic and gravity
        energies of the bodies and cables for all frames at once from what :meth:`observe`
        made of the states (poses ``nodes``, ``velocities``, cable coordinates and rates
        (n_out, c, 6)), the elastic energy a kernel pass a frame
        (:meth:`~rancf.formulations._spatial.SpatialKernel.elastic_energy`, at the drives'
        values at t)."""
        tree, m = self.tree, len(t)
        n = tree.n_bodies
        x = nodes.reshape(m, -1, FRAME_SIZE)[:, :n]
        V = velocities.reshape(m, -1, TWIST_SIZE)[:, :n]
        A = x[..., 3:].reshape(m, n, 3, 3)
        kinetic, gravity = _kinetic_and_gravity(tree, self.cables, x[..., :3], A, V, cable_e,
                                                cable_v)
        elastic = np.empty(m)
        for i in range(m):
            self.inputs.at_time(t[i])
            elastic[i] = self.kernel.elastic_energy(Y[i])
        return {"kinetic": kinetic, "gravity": gravity, "elastic": elastic}

    def _reactions_of(self, t, Y):
        """:meth:`reactions` of every state Y (n_out, n_y) at the times t: (n_out, 6 n_joints)."""
        out = np.empty((len(t), WRENCH_SIZE * len(self.tree.joint_body)))
        for i in range(len(t)):
            out[i] = self.reactions(t[i], Y[i]).ravel()
        return out

    def _cable_joints(self):
        """The model's spherical joints at a cable point: ``(joint, parent, child, Q)`` (the
        sides' poses in ``Result.nodes``' numbering; Q the reference relative orientation of
        their frames, a cable node's that of :func:`cable_frames`); a clamp at a cable node
        has no coordinates."""
        t = self.model_tree
        nb = t.n_bodies
        frames = lambda i: np.eye(3) if i < 0 else t.A0[i] if i < nb else t.cable_frame0[i - nb]
        return [(int(j), int(P), int(C), frames(int(P)).T @ frames(int(C)))
                for j, P, C, kind in zip(t.cable_joint, t.cable_joint_parent,
                                         t.cable_joint_child, t.cable_joint_kind)
                if kind == CABLE_SPHERICAL]

    def _cable_joint_values(self, nodes, velocities, cable_e, cable_v, bases):
        """The coordinates and rates (n_out, 3 each) of every joint of :meth:`_cable_joints` at
        the poses ``nodes`` (n_out, 12 N), velocities (n_out, 6 N), cable coordinates and
        rates (n_out, c, 6) and the cable frames' bases (n_out, c, 3, 3, :func:`cable_bases`)
        of :meth:`observe`, as the spatial DAE's ``joint_coordinates``: the
        rotation vector p of the relative rotation ``R = F_P^T F_C Q^T`` of the two sides'
        frames, and its rate in closed form, ``p' = J_l(p)^-1 F_P^T (w_C - w_P)`` (``R' R^T =
        (J_l(p) p')^``, ``F' = w^ F``), w a side's angular velocity: a body's, or a cable
        frame's (:func:`cable_spins`, its spin about the tangent included)."""
        joints = self._cable_joints()
        m = len(nodes)
        if not joints:
            return np.zeros((m, 0)), np.zeros((m, 0))
        n = self.tree.n_bodies
        poses = nodes.reshape(m, -1, FRAME_SIZE)

        def frame(i):
            """Side i's frames (m, 3, 3): its poses' columns 3 to 12 (one side's, not all)."""
            return poses[:, i, 3:].reshape(m, 3, 3)

        velocities = velocities.reshape(m, -1, TWIST_SIZE)

        def spin(i):
            """Side i's angular velocities (m, 3)."""
            if i < n:
                return velocities[:, i, 3:]
            return cable_spins(cable_e[:, i - n], cable_v[:, i - n], bases[:, i - n])

        values, rates = [], []
        for _, P, C, Q in joints:
            FP = np.broadcast_to(np.eye(3), (m, 3, 3)) if P < 0 else frame(P)
            w = spin(C) if P < 0 else spin(C) - spin(P)
            p = rotation_logs(np.swapaxes(FP, 1, 2) @ frame(C) @ Q.T)
            values.append(p)
            rates.append(left_jacobian_inverse_times(p, np.einsum("sji,sj->si", FP, w)))
        return np.concatenate(values, axis=1), np.concatenate(rates, axis=1)

    def _with_cable_joints(self, jq, jqd, cable_q):
        """The joints' columns in the model's order with those of :meth:`_cable_joints`
        (``cable_q``: their coordinates and rates, (n_out, 3 each joint))."""
        joints = self._cable_joints()
        if not joints:
            return jq, jqd
        qo = np.asarray(self.tree.q_offset)
        m = len(jq)
        cq = np.asarray(cable_q[0]).reshape(m, -1, 3)
        cqd = np.asarray(cable_q[1]).reshape(m, -1, 3)
        mine = {j: k for k, (j, *_) in enumerate(joints)}
        out_q, out_qd, first = [], [], 0
        for j, b in enumerate(self.tree.joint_body):
            count = 0 if b < 0 else int(qo[b + 1] - qo[b])
            if j in mine:
                out_q.append(cq[:, mine[j]])
                out_qd.append(cqd[:, mine[j]])
            else:
                out_q.append(jq[:, first:first + count])
                out_qd.append(jqd[:, first:first + count])
            first += count
        return np.concatenate(out_q, axis=1), np.concatenate(out_qd, axis=1)

    def stiffness(self, y):
        """The rates an explicit step must resolve at the state y, in words
        (:func:`rancf.formulations.recursive.rates_in_words` of :meth:`highest_rate`)."""
        return rates_in_words(self.highest_rate(y, "stiffness"), self.highest_rate(y, "damping"))

    def highest_rate(self, y, which, t=0.0, iterations=40):
        """An estimate of the highest natural frequency (rad/s, ``which="stiffness"``) or
        decay rate (1/s, ``"damping"``) of the motion linearised at (t, y): the square root of
        the dominant eigenvalue magnitude of ``d qdd / d q``, or that of ``-d qdd / d qd``,
        by power iteration on central differences (steps ``1e-7 max(1, |y|)``), two
        evaluations an iteration."""
        n = self.n_free
        if n == 0:
            return 0.0
        y = np.asarray(y, dtype=float)
        part = slice(0, n) if which == "stiffness" else slice(n, 2 * n)
        x = np.random.default_rng(0).standard_normal(n)
        h = 1e-7 * max(1.0, float(np.abs(y).max()))
        best = 0.0
        for _ in range(iterations):
            x /= np.linalg.norm(x)
            yp, ym = y.copy(), y.copy()
            yp[part] += h * x
            ym[part] -= h * x
            Jx = (self.derivative(t, yp)[n:] - self.derivative(t, ym)[n:]) / (2.0 * h)
            best = float(np.linalg.norm(Jx))
            if best == 0.0:
                break
            x = Jx
        return float(np.sqrt(best)) if which == "stiffness" else best


def _link_coordinates(motion, axes, R, t):
    """A link's coordinates of its relative rotation R (3, 3) and translation t (3,) in the
    parent's frame (the inverse of the kernel's ``link``; ``axes`` (2, 3) its unit axes):
    angles about and slides along the axes, rotation vectors (the kernels' ``logm``, angle at
    most pi). A universal link's ``R = exp(q0 a0^) exp(q1 a1^)`` gives ``R^T a0 = exp(-q1 a1^)
    a0`` and ``R a1 = exp(q0 a0^) a1`` (a0, a1 orthogonal); t may be None for a link without
    a translation. Of m frames at once, R (m, 3, 3) and t (m, 3), they are (m, n)
    (:func:`rancf.results.outputs.link_states`)."""
    one = np.ndim(R) == 2
    R = np.asarray(R, dtype=float).reshape(-1, 3, 3)
    t = None if t is None else np.asarray(t, dtype=float).reshape(-1, 3)
    a0, a1 = axes
    kind = link_motion(int(motion))
    out = []
    if kind.translation == T_AXIS:
        out.append((t @ a0)[:, None])
    elif kind.translation == T_FREE:
        out.append(t)
    if kind.rotation == R_AXIS:
        out.append((rotation_logs(R) @ a0)[:, None])
    elif kind.rotation == R_TWO_AXES:
        n = np.cross(a0, a1)
        b, c = np.einsum("mji,j->mi", R, a0), R @ a1
        out.append(np.column_stack([np.arctan2(c @ n, c @ a1), np.arctan2(b @ n, b @ a0)]))
    elif kind.rotation == R_VECTOR:
        out.append(rotation_logs(R))
    q = np.hstack(out) if out else np.zeros((len(R), 0))
    return q[0] if one else q


def implicit_problem(formulation, static=False):
    """The implicit loop's problem of a spatial formulation: a compiled
    :class:`rancf.formulations._spatial_implicit.SpatialProblem` on its kernel (the residual by
    the Newton-Euler recursion, the approximate Newton matrix by the articulated-body
    elimination, O(n); its docstring gives the terms left out), with n = ``n_free``
    coordinates, no constraints, ``(q0, v0)`` the halves of :meth:`Spatial.initial_state`.

    Parameters
    ----------
    formulation : Spatial
    static : bool
        For statics (:func:`rancf.static`): drives held, applied forces scaled by the problem's
        ``load_factor``.

    Raises
    ------
    ValueError
        A spring-damper between two bodies in a model with cables (the Newton matrix's
        correction for it does not run through cable nodes yet).
    """
    law = np.asarray(formulation.tree.spring_body)
    if formulation.cables is not None and len(law) and (law >= 0).all(axis=1).any():
        raise ValueError("a spring-damper between two points that are not the ground in a "
                         f"model with cables: the implicit methods' Newton matrix does not "
                         f"take it yet; use an explicit method, or {CABLE_DAE}")
    return SpatialProblem(formulation, static)


def of_model(model):
    """The spatial formulation of a spatial model (``rancf.Model(dim=3)``), built and frozen.

    Its loads' forces and moments (constants or functions of t; global, or in the body's frame
    for a follower load), the efforts of its joints and the drives of its one-coordinate joints
    become the formulation's inputs (:class:`Inputs`).

    Parameters
    ----------
    model : rancf.model.spatial_model.SpatialModel

    Returns
    -------
    Spatial
        A new formulation with its own kernel and workspace: runs in several threads each
        make their own.

    Raises
    ------
    ValueError
        The model has a closed loop (the recursion runs trees), or a joint at a cable point
        the recursion cannot run (:func:`cable_layout`).
    """
    tree = model.build()
    arc = arc_refusal(model, tree)
    if arc:
        raise ValueError(arc)
    if len(tree.loop_joint):
        j = model.joints[int(tree.loop_joint[0])]
        raise ValueError(f"joint {j.index} ({j.kind}) closes a loop: {LOOP_MESSAGE}")
    refusal = cable_refusal(tree)
    if refusal:
        raise ValueError(refusal)
    return Spatial(tree, *model_inputs(model))


def arc_refusal(model, tree):
    """Why the recursion cannot run a joint of the model at a point between two nodes of a
    beam (``beam.at(s)``: ``tree.loop_arc``), naming the first, or "" when it has none."""
    at = np.flatnonzero((np.asarray(tree.loop_arc).reshape(-1, 2) >= 0).any(axis=1))
    if not at.size:
        return ""
    j = model.joints[int(tree.loop_joint[at[0]])]
    point = j.parent if j.parent.kind == P_ARC else j.child
    return f"joint {j.index} ({j.kind}) attaches at {point!r}: {ARC_MESSAGE}"


def model_inputs(model):
    """``(loads, efforts, drives)`` of a spatial model, as :class:`Inputs` takes them: the
    model's checked calls (a function's exception becomes a :class:`rancf.UserFunctionError`
    naming it, and what it returns must be real numbers)."""
    loads = [tuple(functools.partial(load.value, name) if callable(getattr(load, name))
                   else getattr(load, name) for name in ("force", "moment"))
             for load in model.loads]
    efforts = {j.index: j.effort_value if callable(j.effort) else j.effort
               for j in model.joints if j.effort is not None}
    drives = {j.index: j.drive_values for j in model.joints if j.drive is not None}
    return loads, efforts, drives
