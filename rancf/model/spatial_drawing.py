"""Pictures of a spatial model in 3D (matplotlib's mplot3d): its reference configuration
(:meth:`rancf.Model.plot` of a ``dim=3`` model) and the mechanism that
:mod:`rancf.results.plotting` draws again at a result's output times.

The spatial counterpart of :mod:`rancf.model.drawing`, with the same private names
(``_axes``, ``_draw_ground``, ``_Mechanism``, ``_finish``, ``_fix_view``, ``_set_line``), so that
:mod:`rancf.results.plotting` draws a result of either dimension with one piece of code; the
mechanism is given by the poses of the tree's bodies (``Result.nodes[i]``: origin r, then the
frame A row-major, :class:`rancf.model.spatial_tree.SpatialTree`).

What is drawn. A beam is the polyline through its node origins (nodes marked), with each node's
section y axis (the frame's second column) as a short tick of ``SECTION_TICK`` times the model
size. A rigid body is a marker at its centre of mass, its frame axes x, y, z (``FRAME``, 0.75
and 0.5 ``FRAME`` times the model size, so that they are told apart in one colour) and lines from
the centre to its joint and load points. Joints are markers at the child's point in their kind's
``style`` (a driven joint in red), and each joint axis a dashed grey line through the joint
(``AXIS`` times the model size each way): a0 turns with the parent, a universal joint's a1 with
the child. Ground points are grey triangles; forces are red arrows from their point (the largest
``FORCE_ARROW`` times the model size), moments purple arrows (the right-hand rule's axis), in
global coordinates (a follower load turned by its body's frame). The scene has equal scales on
its three axes: limits around what is drawn and a box of their proportions
(``set_box_aspect``). Every artist carries a ``gid``: ``"beam 0"``, ``"beam 0 sections"``,
``"rigid body 0 frame"``, ``"rigid body 0 links"``, ``"joints spherical"``, ``"joint axes"``,
``"ground"``, ``"load 0"``, ``"load 0 moment"``; in the reference configuration
(:func:`plot_model`) a spring-damper is a zigzag line between its points, ``"spring 0"``,
and a joint's spring-damper ``"rotational spring 0"``: a coil (:func:`~.drawing.coil`) about
the joint's point across a revolute joint's axis (a spherical joint's: across z), a zigzag
along a prismatic joint's axis (``AXIS`` times the model size each way).
"""
import matplotlib.pyplot as plt
import numpy as np
from matplotlib.ticker import MaxNLocator
from mpl_toolkits.mplot3d import Axes3D

from ..elements.spatial_beam import SpatialBeam
from .drawing import (COIL, GROUND_STYLE, SPRING_STYLE, _attached_points, _body_artists,
                      _joint_markers, _polyline, coil, zigzag)
from .spatial_build import build_tree, point_body

#: Length of a node's section tick, of a rigid body's x axis, of the largest force or moment
#: arrow and of a joint axis each way from the joint, as fractions of the model size.
SECTION_TICK, FRAME, FORCE_ARROW, AXIS = 0.04, 0.08, 0.2, 0.08
#: Lengths of a rigid body's frame axes x, y, z relative to FRAME.
FRAME_AXES = (1.0, 0.75, 0.5)
#: The smallest extent of the box on any axis, relative to the largest: a mechanism in a plane
#: keeps a box that can be turned and looked into.
THINNEST = 0.2
#: Padding around what is drawn, relative to its largest extent.
PAD = 0.05
#: Gap between the axes and the colorbar of time (fraction of the axes' width): room for the
#: z axis's labels.
COLORBAR_PAD = 0.15
#: Ticks on the longest axis; the others get fewer, in proportion to their extent.
TICKS = 6


class Layout:
    """What a spatial drawing reads from a model: the tree, its joints and loads, and where
    each point is on the tree's bodies.

    Parameters
    ----------
    model : rancf.Model
        A spatial model; an unfrozen one is checked in a throw-away tree, so that drawing does
        not freeze it.
    """

    def __init__(self, model):
        self.model = model
        self.tree = model.build() if model.frozen else build_tree(model)
        self.joints, self.loads = model.joints, model.loads
        self.springs = model.spring_dampers
        self.size = self.tree.size
        t = self.tree
        self.beam_bodies = [t.node_body[t.beam_nodes[b]:t.beam_nodes[b + 1]]
                            for b in range(len(model.beams))]

    def locate(self, point):
        """The body a point is on (-1: the ground) and its offset in its frame (m)."""
        t = self.tree
        return point_body(point, t.node_body, t.beam_nodes, t.rigid_body)

    def position(self, point, pose):
        """Position (3,) of a point when the bodies are at ``pose`` (n_bodies, 12) (m)."""
        body, offset = self.locate(point)
        if body < 0:
            return offset
        return pose[body, :3] + pose[body, 3:].reshape(3, 3) @ offset

    def frame(self, body, pose):
        """Frame (3, 3) of a body (the identity for the ground, -1)."""
        return np.eye(3) if body < 0 else pose[body, 3:].reshape(3, 3)


def _axes(ax):
    """``ax``, or the 3D Axes of a new figure when it is None."""
    if ax is None:
        # laid out to hold a legend or colorbar outside the axes
        return plt.figure(figsize=(8.0, 4.8), layout="constrained").add_subplot(projection="3d")
    if not isinstance(ax, Axes3D):
        raise TypeError(f"ax must be a matplotlib 3D Axes (fig.add_subplot(projection='3d')) "
                        f"or None for a spatial model, got {ax!r}")
    return ax


def _set_line(line, points):
    """Move a 3D line to the points (n, 3) (m)."""
    line.set_data_3d(points[:, 0], points[:, 1], points[:, 2])


def _segments(starts, vectors):
    """(3 n - 1, 3) points of the segments ``starts[k]`` to ``starts[k] + vectors[k]``, NaN
    between them (one line for many pieces)."""
    return _polyline([[p, p + v] for p, v in zip(starts, vectors)], 3)


def _joint_axes(L):
    """For each joint axis: the joint, the body it turns with and the axis in that body's frame.

    A link's axes are stored in the parent's frame (:class:`~rancf.model.spatial_tree.
    SpatialTree`); a0 stays there. A universal joint's a1 turns with the child: with
    ``A_c = A_p exp(q0 a0^) exp(q1 a1^) Q``, ``A_c Q^T a1 = A_p exp(q0 a0^) a1``, so a1 is
    ``Q^T a1`` in the child's frame.
    """
    t, out = L.tree, []
    loop = {int(j): k for k, j in enumerate(t.loop_joint)}
    for j in L.joints:
        c, n_axes = int(t.joint_body[j.index]), j.type.spatial.axes
        if not n_axes:
            continue            # (the joints at cable points among them: they have no axis)
        if c >= 0:
            parent, child, axes, Q = int(t.parent[c]), c, t.axes[c], t.relative[c]
        else:       # a joint that closes a loop: its link beside the tree
            k = loop[j.index]
            parent, child = int(t.loop_parent[k]), int(t.loop_child[k])
            axes, Q = t.loop_axes[k], t.loop_relative[k]
        if n_axes >= 1:
            out.append((j, parent, axes[0]))
        if n_axes == 2:
            out.append((j, child, Q.T @ axes[1]))
    return out


class _Mechanism:
    """The artists of one configuration of a spatial model: created once, moved by
    ``update(pose)``.

    Parameters
    ----------
    ax : Axes3D
    L : Layout
    pose : ndarray (n_bodies * 12,) or (n_bodies, 12)
        The bodies' origins and frames (row-major), as a row of ``Result.nodes``.
    color : matplotlib colour
        Of the beams and rigid bodies.
    legend : bool
        Label the joint artists for a legend.
    """

    def __init__(self, ax, L, pose, color, legend=False):
        self.L = L
        model = L.model
        empty = [[], [], []]
        self.beams = [ax.plot(*empty, color=color, lw=2, marker=".", markersize=5,
                              gid=f"beam {b.index}")[0] for b in model.beams]
        self.sections = [ax.plot(*empty, color=color, lw=1, gid=f"beam {b.index} sections")[0]
                         for b in model.beams]
        self._links = [_attached_points(L, r) for r in model.rigid_bodies]
        self.frames, self.links = _body_artists(ax, model.rigid_bodies, color, 3)
        self._groups, self.joints = _joint_markers(ax, L.joints, legend, 3)
        self._axes = _joint_axes(L)
        self.axes = ax.plot(*empty, color="0.4", lw=1, linestyle="--",
                            gid="joint axes")[0] if self._axes else None
        self.update(pose)

    def artists(self):
        lines = self.beams + self.sections + self.frames + self.links + list(self.joints.values())
        return lines + ([self.axes] if self.axes is not None else [])

    def update(self, pose):
        """Move the artists to the poses (n_bodies * 12,) or (n_bodies, 12)."""
        L = self.L
        pose = np.asarray(pose, dtype=float).reshape(-1, SpatialBeam.pose_size)
        frames = pose[:, 3:].reshape(-1, 3, 3)
        for bodies, line, ticks in zip(L.beam_bodies, self.beams, self.sections):
            r = pose[bodies, :3]
            _set_line(line, r)
            _set_line(ticks, _segments(r, SECTION_TICK * L.size * frames[bodies, :, 1]))
        for r, links, frame, link_line in zip(L.model.rigid_bodies, self._links, self.frames,
                                              self.links):
            body = int(L.tree.rigid_body[r.index])
            c = pose[body, :3]
            axes = FRAME * L.size * frames[body].T * np.array(FRAME_AXES)[:, None]
            _set_line(frame, _segments([c] * 3, axes))
            _set_line(link_line, _polyline([[c, L.position(p, pose)] for p in links], 3))
        for category, line in self.joints.items():
            _set_line(line, np.array([L.position(j.child, pose) for j in self._groups[category]]))
        if self.axes is not None:
            starts, vectors = [], []
            for j, body, a in self._axes:
                d = AXIS * L.size * (L.frame(body, pose) @ a)
                starts.append(L.position(j.child, pose) - d)
                vectors.append(2.0 * d)
            _set_line(self.axes, _segments(starts, vectors))

    def bounds(self):
        """(xmin, ymin, zmin, xmax, ymax, zmax) of what is drawn now (m)."""
        pts = np.concatenate([np.column_stack(line.get_data_3d()) for line in self.artists()])
        return np.concatenate([np.nanmin(pts, axis=0), np.nanmax(pts, axis=0)])


def _draw_ground(ax, L, legend=False):
    pts = np.array([j.parent.offset for j in L.joints if L.locate(j.parent)[0] < 0])
    if len(pts):
        ax.plot(pts[:, 0], pts[:, 1], pts[:, 2], gid="ground",
                label="ground" if legend else "_nolegend_", **dict(GROUND_STYLE, markersize=12))


def _draw_loads(ax, L, pose):
    """A red arrow per nonzero force and a purple one per nonzero moment of each load at
    t = 0 (global coordinates), a cross for a load that is zero then; returns the arrows'
    end points (to include in the limits)."""
    values = []
    for load in L.loads:
        frame = L.frame(L.locate(load.point)[0], pose) if load.follower else np.eye(3)
        force, moment = load.values(0.0)
        values.append((frame @ force, frame @ moment))
    largest = [max((np.linalg.norm(v[k]) for v in values), default=0.0) for k in (0, 1)]
    ends = []
    for load, vectors in zip(L.loads, values):
        p = L.position(load.point, pose)
        for v, scale, color, gid in zip(vectors, largest, ("tab:red", "tab:purple"),
                                        (f"load {load.index}", f"load {load.index} moment")):
            if np.any(v != 0.0):
                d = FORCE_ARROW * L.size * v / scale
                ax.quiver(*p, *d, color=color, lw=1.5, arrow_length_ratio=0.2, gid=gid)
                ends.append(p + d)
        if not any(np.any(v != 0.0) for v in vectors):
            ax.plot(*p[:, None], marker="x", color="tab:red", markersize=8,
                    gid=f"load {load.index}")
    return ends


def _draw_springs(ax, L, pose):
    """A zigzag line between the two points of each spring-damper (:func:`~.drawing.zigzag`,
    across it perpendicular to its line and the global axis least along it), its ground points
    as the joints' ground; each joint spring-damper at its joint's point: a coil across a
    revolute joint's axis (a spherical joint's: across z), a zigzag along a prismatic
    joint's."""
    for spring in L.springs:
        a, b = (L.position(p, pose) for p in spring.points)
        d = b - a
        pts = zigzag(a, b, _across(d))
        ax.plot(pts[:, 0], pts[:, 1], pts[:, 2], gid=f"spring {spring.index}", **SPRING_STYLE)
        for p, r in zip(spring.points, (a, b)):
            if L.locate(p)[0] < 0:
                ax.plot(*r[:, None], linestyle="none", marker="^", markersize=12, color="0.6",
                        zorder=2.5, gid="ground")
    axes = {j.index: (body, a) for j, body, a in reversed(_joint_axes(L))}     # the first
    for torsion in L.model.rotational_spring_dampers:
        j = torsion.joint
        centre = L.position(j.child, pose)
        body, a = axes.get(j.index, (-1, np.array([0.0, 0.0, 1.0])))
        a = L.frame(body, pose) @ a
        a = a / np.linalg.norm(a)
        if j.kind == "prismatic":
            d = AXIS * L.size * a
            pts = zigzag(centre - d, centre + d, _across(2.0 * d))
        else:
            u = _across(a)
            u /= np.linalg.norm(u)
            pts = coil(centre, COIL * L.size, u, np.cross(a, u))
        ax.plot(pts[:, 0], pts[:, 1], pts[:, 2], gid=f"rotational spring {torsion.index}",
                **SPRING_STYLE)


def _across(d):
    """A vector (3,) perpendicular to ``d`` (3,) and as long: across it, from the global axis
    least along it."""
    across = np.cross(d, np.eye(3)[int(np.argmin(np.abs(d)))])
    return across * np.linalg.norm(d) / max(np.linalg.norm(across), 1e-300)


def _equal_box(ax, low, high):
    """Limits holding ``low``-``high`` (m, padded) with one scale on the three axes: the box's
    proportions are the limits' extents (each at least ``THINNEST`` of the largest)."""
    extent = np.max(high - low)
    extent = extent if extent > 0.0 else 1.0
    span = np.maximum(high - low + 2.0 * PAD * extent, THINNEST * (1.0 + 2.0 * PAD) * extent)
    centre = 0.5 * (low + high)
    ax.set_xlim(centre[0] - span[0] / 2, centre[0] + span[0] / 2)
    ax.set_ylim(centre[1] - span[1] / 2, centre[1] + span[1] / 2)
    ax.set_zlim(centre[2] - span[2] / 2, centre[2] + span[2] / 2)
    ax.set_box_aspect(span)
    for axis, extent in zip((ax.xaxis, ax.yaxis, ax.zaxis), span):
        axis.set_major_locator(MaxNLocator(max(2, int(round(TICKS * extent / span.max())))))
    ax.set_xlabel("x (m)")
    ax.set_ylabel("y (m)")
    ax.set_zlabel("z (m)")


def _finish(ax, extra_points=()):
    """Limits around every line (and the given points) with equal scales, axis labels."""
    pts = [np.column_stack(line.get_data_3d()) for line in ax.lines]
    pts += [np.asarray(extra_points, dtype=float).reshape(-1, 3)]
    pts = np.concatenate(pts)
    _equal_box(ax, np.nanmin(pts, axis=0), np.nanmax(pts, axis=0))
    return ax


def _fix_view(ax, L, low, high):
    """Fixed limits holding the box ``low``-``high`` with equal scales (an animation's)."""
    _equal_box(ax, low, high)


def plot_model(model, ax=None):
    """:meth:`rancf.Model.plot` of a spatial model: the reference configuration, joints,
    ground and loads."""
    L = Layout(model)
    ax = _axes(ax)
    pose = L.tree.reference_poses()
    _draw_ground(ax, L, legend=True)
    _Mechanism(ax, L, pose, "tab:blue", legend=True)
    _draw_springs(ax, L, pose)
    ends = _draw_loads(ax, L, pose)
    if L.joints:
        # outside, on the right: a scene in 3D leaves no corner of its axes free
        ax.legend(loc="upper left", bbox_to_anchor=(1.05, 1.0), fontsize="small")
    return _finish(ax, ends)
