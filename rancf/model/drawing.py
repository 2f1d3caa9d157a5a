"""Pictures of a model: its reference configuration (:meth:`rancf.Model.plot`) and the
mechanism that :mod:`rancf.results.plotting` draws again at a result's output times.

What is drawn. A beam is its centreline ``r(s) = S(xi) e`` through the element shape functions
(:func:`rancf.elements.beam.shape_functions`) at ``POINTS_PER_ELEMENT`` points per element, evenly
spaced in ``xi``, with its nodes marked. A rigid body is a marker at its centre of mass, its frame
(the axis ``u`` and, half as long, its normal) and lines from the centre to the points of it that
joints and loads attach to. Joints are markers at the child's point, one artist per kind, in the
kind's ``style`` (:class:`rancf.joints.kind.JointKind`): open circle (revolute), open diamond
(prismatic), filled square (fixed), red circle (driven, whatever the kind); a kind that holds
the child's point on a rail is drawn with a dashed rail along its axis; ground points are grey
triangles; forces are straight arrows from their point (the largest ``FORCE_ARROW`` times the
model size), moments curved arrows around it (counter-clockwise for a positive moment). Every
artist carries a ``gid`` naming what it shows (``"beam 0"``, ``"rigid body 0 frame"``,
``"rigid body 0 links"``, ``"joints revolute"``, ``"rails"``, ``"ground"``, ``"load 0"``), to
find it again. A spring-damper between points is a zigzag line between them (``"spring 0"``),
its ground points grey triangles; a joint's torsion spring-damper a coil about the joint's
point (:func:`coil`, ``"rotational spring 0"``), in the springs' style.

The model layer draws itself so that :meth:`rancf.Model.plot` imports nothing above it;
matplotlib is imported when this module is (on first use, not by ``import rancf``).
"""
import matplotlib.pyplot as plt
import numpy as np
from matplotlib.axes import Axes

from ..elements import planar
from ..joints import REGISTRY
from ..joints._codes import ON_RAIL
from .assembly import Assembly
from .items import BODY, GROUND

#: Points drawn per element along a beam's centreline (both ends included).
POINTS_PER_ELEMENT = 17
#: Length of a rigid body's frame axis, of the largest force arrow, half length of a prismatic
#: rail and radius of a moment arrow, as fractions of the model size (Assembly.size).
FRAME, FORCE_ARROW, RAIL, MOMENT_ARROW = 0.06, 0.2, 0.12, 0.05
#: Outer radius of a joint spring-damper's coil (:func:`coil`), as a fraction of the model
#: size: a little smaller than a moment arrow, so that both show at one joint.
COIL = 0.04
#: How a spring-damper is drawn (a zigzag between points, a coil at a joint).
SPRING_STYLE = dict(color="0.3", lw=1.0)
#: Gap between the axes and the colorbar of time (fraction of the axes' width; matplotlib's
#: default).
COLORBAR_PAD = 0.05
#: How a driven joint is marked, whatever its kind (the others: their kind's ``style``).
DRIVEN_STYLE = dict(marker="o", markersize=8, markerfacecolor="tab:red", markeredgecolor="k")
#: How a ground point is marked (a spatial drawing's triangles are a little smaller).
GROUND_STYLE = dict(linestyle="none", marker="^", markersize=14, color="0.6", zorder=2.5)


def _axes(ax):
    """``ax``, or the Axes of a new figure when it is None."""
    if ax is None:
        return plt.subplots()[1]
    if not isinstance(ax, Axes):
        raise TypeError(f"ax must be a matplotlib Axes or None, got {ax!r}")
    return ax


def _polyline(segments, dim=2):
    """(n, dim) points of line segments separated by NaN rows (one line for many pieces)."""
    if not segments:
        return np.zeros((0, dim))
    gap = np.full((1, dim), np.nan)
    return np.concatenate([piece for s in segments for piece in (np.asarray(s), gap)][:-1])


def _attached_points(A, body):
    """The points of a rigid body that joints and loads attach to (one per offset)."""
    points = ([p for j in A.joints for p in (j.parent, j.child)] + [load.point for load in A.loads]
              + [p for spring in A.springs for p in spring.points])
    unique = {}
    for p in points:
        if p.kind == BODY and p.item is body:
            unique.setdefault(tuple(p.offset), p)
    return list(unique.values())


def _joint_category(joint):
    return "driven" if joint.driven else joint.kind


def _joint_style(joint):
    return DRIVEN_STYLE if joint.driven else joint.type.style


def _joint_markers(ax, joints, legend, dim):
    """The joints grouped by what marks them (their kind, or driven) and one empty marker
    artist per group (``dim`` 2 or 3: the axes' dimension), kinds in the registry's order,
    driven last."""
    groups, styles = {}, {}
    for j in joints:
        groups.setdefault(_joint_category(j), []).append(j)
        styles[_joint_category(j)] = _joint_style(j)
    rank = {c: k for k, c in enumerate([*REGISTRY, "driven"])}
    artists = {c: ax.plot(*[[]] * dim, linestyle="none", zorder=3, gid=f"joints {c}",
                          label=f"{c} joint" if legend else "_nolegend_", **styles[c])[0]
               for c in sorted(groups, key=lambda c: rank.get(c, len(rank)))}
    return groups, artists


def _body_artists(ax, bodies, color, dim):
    """Empty artists of each rigid body, in lists of ``bodies``' order: its frame (a marker at
    the centre of mass) and its links (from the centre to its attached points); ``dim`` 2 or
    3, the axes' dimension."""
    empty = [[]] * dim
    frames = [ax.plot(*empty, color=color, lw=1.5, marker="o", markersize=6, markevery=[0],
                      gid=f"rigid body {r.index} frame")[0] for r in bodies]
    links = [ax.plot(*empty, color=color, lw=3, alpha=0.5, gid=f"rigid body {r.index} links")[0]
             for r in bodies]
    return frames, links


class _Mechanism:
    """The artists of one configuration of an assembly: created once, moved by ``update(x)``.

    Parameters
    ----------
    ax : Axes
    A : rancf.model.Assembly
    x : ndarray (n_x,)
        Coordinates to draw.
    color : matplotlib colour
        Of the beams and rigid bodies.
    legend : bool
        Label the joint artists for a legend.
    """

    def __init__(self, ax, A, x, color, legend=False):
        self.A = A
        p = POINTS_PER_ELEMENT
        # S(xi) of each beam's elements, (p, 2, 8): a beam's elements are all of one length
        self._shapes = [A.element_kind.shape_matrices(b.length / b.n_elements, p) for b in A.beams]
        self._elements = [A.element_vertices[A.element_beam == b.index] for b in A.beams]
        self.beams = [ax.plot([], [], color=color, lw=2, marker=".", markersize=5,
                              markevery=p - 1, gid=f"beam {b.index}")[0] for b in A.beams]
        self._links = [_attached_points(A, r) for r in A.bodies]
        self.frames, self.links = _body_artists(ax, A.bodies, color, 2)
        self._groups, self.joints = _joint_markers(ax, A.joints, legend, 2)
        self._rails = [j for j in A.joints if j.type.position == ON_RAIL]
        self.rails = ax.plot([], [], color="0.4", lw=1, linestyle="--", zorder=1.5,
                             gid="rails")[0] if self._rails else None
        self.update(x)

    def artists(self):
        lines = self.beams + self.frames + self.links + list(self.joints.values())
        return lines + ([self.rails] if self.rails is not None else [])

    def update(self, x):
        """Move the artists to the coordinates x (n_x,)."""
        A = self.A
        vertices = x.reshape(-1, A.node_size)
        for S, elements, line in zip(self._shapes, self._elements, self.beams):
            line.set_data(*centreline(S, A.element_kind.gather(x, elements)).T)
        for r, links, frame, link_line in zip(A.bodies, self._links, self.frames, self.links):
            c, u = vertices[A.body_vertex[r.index], :2], vertices[A.body_vertex[r.index], 2:]
            a = FRAME * A.size
            frame.set_data(*_polyline([[c, c + a * u], [c, c + 0.5 * a * np.array([-u[1], u[0]])]]).T)
            link_line.set_data(*_polyline([[c, A.point_position(p, x)] for p in links]).T)
        for category, line in self.joints.items():
            pts = np.array([A.point_position(j.child, x) for j in self._groups[category]])
            line.set_data(pts[:, 0], pts[:, 1])
        if self.rails is not None:
            segments = []
            for j in self._rails:
                p, d = A.point_position(j.parent, x), A.point_direction(j.parent, x)
                d = planar.rotation(j.axis or 0.0) @ d / np.hypot(*d)
                segments.append([p - RAIL * A.size * d, p + RAIL * A.size * d])
            self.rails.set_data(*_polyline(segments).T)

    def bounds(self):
        """(xmin, ymin, xmax, ymax) of what is drawn now (m)."""
        pts = np.concatenate([np.column_stack(line.get_data()) for line in self.artists()])
        return np.concatenate([np.nanmin(pts, axis=0), np.nanmax(pts, axis=0)])


def centreline(S, e):
    """Points of a beam's centreline, ``(n_elements (p - 1) + 1, 2)`` (m).

    ``S`` (p, 2, element_size) holds the shape-function matrices at p values of xi, ``e``
    (n_elements, element_size) the coordinates of the beam's elements in order (the element
    kind's ``gather``); element k's points are ``S(xi) e[k]``. The node shared by two elements
    appears once.
    """
    r = np.einsum("pij,ej->epi", S, e)
    return np.concatenate([r[:, :-1].reshape(-1, 2), r[-1, -1:]])


def _draw_ground(ax, A, legend=False):
    pts = np.array([j.parent.offset for j in A.joints if j.parent.kind == GROUND]).reshape(-1, 2)
    if len(pts):
        ax.plot(pts[:, 0], pts[:, 1], gid="ground", label="ground" if legend else "_nolegend_",
                **GROUND_STYLE)


def _draw_loads(ax, A, x):
    """One arrow per nonzero force and per nonzero moment of each load at t = 0, a cross for a
    load that is zero then; returns the arrows' end points (to include in the data limits)."""
    values = [load.values(0.0) for load in A.loads]
    largest = max((np.hypot(*f) for f, _ in values), default=0.0)
    ends = []
    for load, (force, moment) in zip(A.loads, values):
        p = A.point_position(load.point, x)
        gid = f"load {load.index}"
        style = dict(arrowstyle="-|>", color="tab:red", lw=1.5, shrinkA=0, shrinkB=0,
                     mutation_scale=12)
        if np.any(force != 0.0):
            head = p + FORCE_ARROW * A.size * force / largest
            ax.annotate("", xy=head, xytext=p, arrowprops=style, gid=gid)
            ends.append(head)
        if moment != 0.0:
            # an arc from below the point round to above it on the +x side: counter-clockwise
            # for a positive moment; the arrow runs the other way for a negative one
            r = MOMENT_ARROW * A.size * np.array([0.0, 1.0])
            tail, head = (p - r, p + r) if moment > 0 else (p + r, p - r)
            ax.annotate("", xy=head, xytext=tail, gid=gid,
                        arrowprops=dict(style, connectionstyle=f"arc3,rad={np.sign(moment):g}"))
            ends += [p + np.array([MOMENT_ARROW * A.size, 0.0]), tail, head]
        if not np.any(force != 0.0) and moment == 0.0:
            ax.plot(*p, marker="x", color="tab:red", markersize=8, gid=gid)
    return ends


def zigzag(a, b, across):
    """The points (15, 2 or 3) of a spring's zigzag line from ``a`` to ``b`` (m): six teeth,
    each reaching a twentieth of ``across`` to either side, straight at both ends; ``across``
    is perpendicular to ``b - a`` and as long (a tooth as wide as a tenth of the length).
    The planar and the spatial drawings' springs."""
    s = np.linspace(0.0, 1.0, 15)
    side = np.zeros_like(s)
    side[1:-1:2], side[2:-1:2] = 0.05, -0.05
    side[[1, -2]] = 0.0
    return a + np.outer(s, b - a) + np.outer(side, across)


def coil(centre, radius, u, v):
    """The points (33, 2 or 3) of a joint spring-damper's coil about ``centre`` (m): a spiral
    of one and a half turns in the plane of the orthonormal ``u``, ``v``, its distance from
    the centre growing evenly with the angle from ``0.3 radius`` to ``radius``: the usual
    symbol of a torsion spring, which a zigzag (a spring between two points) is not. The
    planar and the spatial drawings' joint springs."""
    phi = np.linspace(0.0, 3.0 * np.pi, 33)
    rho = radius * (0.3 + 0.7 * phi / phi[-1])
    return (np.asarray(centre, dtype=float) + np.outer(rho * np.cos(phi), u)
            + np.outer(rho * np.sin(phi), v))


def _draw_springs(ax, A, x):
    """A zigzag line between the two points of each spring-damper (:func:`zigzag`, across it
    in the plane), its ground points as the joints' ground; a coil (:func:`coil`) about the
    child's point of each joint with a torsion spring-damper."""
    for spring in A.springs:
        a, b = (A.point_position(p, x) for p in spring.points)
        pts = zigzag(a, b, np.array([a[1] - b[1], b[0] - a[0]]))
        ax.plot(pts[:, 0], pts[:, 1], gid=f"spring {spring.index}", **SPRING_STYLE)
        for p, r in zip(spring.points, (a, b)):
            if p.kind == GROUND:
                ax.plot(*r, **GROUND_STYLE)
    for torsion in A.torsions:
        pts = coil(A.point_position(torsion.joint.child, x), COIL * A.size, (1.0, 0.0),
                   (0.0, 1.0))
        ax.plot(pts[:, 0], pts[:, 1], gid=f"rotational spring {torsion.index}", **SPRING_STYLE)


def _finish(ax, extra_points=()):
    """Data limits from every line (and the given points), equal aspect, axis labels."""
    ax.relim()
    if len(extra_points):
        ax.update_datalim(np.asarray(extra_points).reshape(-1, 2))
    ax.autoscale_view()
    ax.set_aspect("equal", adjustable="datalim")
    ax.set_xlabel("x (m)")
    ax.set_ylabel("y (m)")
    return ax


def _set_line(line, points):
    """Move a line to the points (n, 2) (m)."""
    line.set_data(points[:, 0], points[:, 1])


def _fix_view(ax, A, low, high):
    """Fixed limits holding the box ``low``-``high`` (m; padded by 5 % of the larger of its
    extent and the model size), equal aspect, and the figure shaped like the scene: what an
    animation needs, whose frames must not rescale."""
    pad = 0.05 * max(np.max(high - low), A.size)
    low, high = low - pad, high + pad
    ax.set_xlim(low[0], high[0])
    ax.set_ylim(low[1], high[1])
    ax.set_aspect("equal", adjustable="box")
    # a figure shaped like the scene (an inch more for the title and labels), 6.4 in wide
    fig = ax.figure
    width = fig.get_figwidth()
    fig.set_size_inches(width, np.clip(width * (high[1] - low[1]) / (high[0] - low[0]) + 1.0,
                                       3.0, 1.5 * width))
    ax.set_xlabel("x (m)")
    ax.set_ylabel("y (m)")


def plot_model(model, ax=None):
    """:meth:`rancf.Model.plot`: the reference configuration, joints, ground, loads and
    spring-dampers."""
    # an unfrozen model is checked in a throw-away Assembly, so that plotting does not freeze it
    A = model.build() if model.frozen else Assembly(model)
    ax = _axes(ax)
    _draw_ground(ax, A, legend=True)
    _Mechanism(ax, A, A.x0, "tab:blue", legend=True)
    ends = _draw_loads(ax, A, A.x0)
    _draw_springs(ax, A, A.x0)
    if A.joints:
        ax.legend(loc="best", fontsize="small")
    return _finish(ax, ends)
