"""Pictures of a mechanism: a model's reference configuration, a result's deformed mechanism at
chosen times, animations, and time plots of the energies, a joint and a point.

Reached through :meth:`rancf.Model.plot` and the plotting methods of :class:`rancf.Result`, which
import this module on first use, so that ``import rancf`` does not import matplotlib.

What is drawn. A beam is its centreline ``r(s) = S(xi) e`` through the element shape functions
(:func:`rancf.elements.beam.shape_functions`) at ``POINTS_PER_ELEMENT`` points per element, evenly
spaced in ``xi``, with its nodes marked. A rigid body is a marker at its centre of mass, its frame
(the axis ``u`` and, half as long, its normal) and lines from the centre to the points of it that
joints and loads attach to. Joints are markers at the child's point, one artist per kind, in the
kind's ``style`` (:class:`rancf.joints.kind.JointKind`): open circle (revolute), open diamond
(prismatic), filled square (fixed), red circle (driven, whatever the kind); a kind that holds
the child's point on a rail is drawn with a dashed rail along its axis; ground points are grey triangles; forces are
straight arrows from their point (the largest ``FORCE_ARROW`` times the model size), moments curved
arrows around it (counter-clockwise for a positive moment). Every artist carries a ``gid`` naming
what it shows (``"beam 0"``, ``"rigid body 0 frame"``, ``"rigid body 0 links"``, ``"joints
revolute"``, ``"rails"``, ``"ground"``, ``"load 0"``, ``"trace 0"``), to find it again.
"""
import os
import tempfile

import matplotlib as mpl
import matplotlib.pyplot as plt
import numpy as np
from matplotlib import animation
from matplotlib.axes import Axes
from matplotlib.cm import ScalarMappable
from matplotlib.colors import Normalize

from .. import checks
from ..elements import planar
from ..joints import REGISTRY
from ..joints._codes import ON_RAIL
from ..model.assembly import Assembly
from ..model.items import BODY, GROUND, Point
from ..model.joints import Joint

#: Points drawn per element along a beam's centreline (both ends included).
POINTS_PER_ELEMENT = 17
#: Length of a rigid body's frame axis, of the largest force arrow, half length of a prismatic
#: rail and radius of a moment arrow, as fractions of the model size (Assembly.size).
FRAME, FORCE_ARROW, RAIL, MOMENT_ARROW = 0.06, 0.2, 0.12, 0.05
#: Most frames an animation may have (``T / speed * fps``).
MAX_FRAMES = 100_000
#: How a driven joint is marked, whatever its kind (the others: their kind's ``style``).
DRIVEN_STYLE = dict(marker="o", markersize=8, markerfacecolor="tab:red", markeredgecolor="k")
#: Video writers by file suffix.
WRITERS = {".gif": "pillow", ".mp4": "ffmpeg"}


# --- arguments -------------------------------------------------------------------------------
def _axes(ax):
    """``ax``, or the Axes of a new figure when it is None."""
    if ax is None:
        return plt.subplots()[1]
    if not isinstance(ax, Axes):
        raise TypeError(f"ax must be a matplotlib Axes or None, got {ax!r}")
    return ax


def _trace_points(trace):
    """``trace`` as a tuple of points (a single point is accepted)."""
    if isinstance(trace, Point):
        return (trace,)
    if isinstance(trace, (str, bytes)) or not hasattr(trace, "__iter__"):
        raise TypeError(f"trace must be a point or a sequence of points (b.end, "
                        f"r.point(dx, dy), ...), got {trace!r}")
    points = tuple(trace)
    for p in points:
        if not isinstance(p, Point):
            raise TypeError(f"trace must be a point or a sequence of points (b.end, "
                            f"r.point(dx, dy), ...), got {p!r} in it")
    return points


def _nearest(times, wanted):
    """Index of the output nearest to each wanted time (the earlier one on a tie)."""
    if len(times) == 1:
        return np.zeros(len(wanted), dtype=int)
    i = np.clip(np.searchsorted(times, wanted), 1, len(times) - 1)
    return np.where(wanted - times[i - 1] <= times[i] - wanted, i - 1, i)


def _output_indices(res, t):
    """Indices of the outputs to draw for ``t`` (None, a time or a sequence of times, s)."""
    if len(res.t) == 0:
        raise ValueError("the result has no outputs to draw")
    if t is None:
        return np.array([len(res.t) - 1])
    times = np.asarray(t)
    if times.dtype.kind not in "iuf" or times.ndim > 1:
        raise TypeError(f"t must be None, a time (s) or a sequence of times, got {t!r}")
    times = np.atleast_1d(times.astype(float))
    if times.size == 0:
        raise ValueError("t must name at least one time, got an empty sequence")
    lo, hi = res.t[0], res.t[-1]
    tol = 1e-9 * max(1.0, abs(lo), abs(hi))
    if not np.all(np.isfinite(times)) or times.min() < lo - tol or times.max() > hi + tol:
        raise ValueError(f"t must be within the output times [{lo:g}, {hi:g}] s, got {t!r}")
    return _nearest(res.t, times)


# --- the mechanism ---------------------------------------------------------------------------
def _polyline(segments):
    """(n, 2) points of line segments separated by NaN rows (one Line2D for many pieces)."""
    if not segments:
        return np.zeros((0, 2))
    gap = np.full((1, 2), np.nan)
    return np.concatenate([piece for s in segments for piece in (np.asarray(s), gap)][:-1])


def _attached_points(A, body):
    """The points of a rigid body that joints and loads attach to (one per offset)."""
    points = [p for j in A.joints for p in (j.parent, j.child)] + [load.point for load in A.loads]
    unique = {}
    for p in points:
        if p.kind == BODY and p.item is body:
            unique.setdefault(tuple(p.offset), p)
    return list(unique.values())


def _joint_category(joint):
    return "driven" if joint.driven else joint.kind


def _joint_style(joint):
    return DRIVEN_STYLE if joint.driven else joint.type.style


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
        self.frames = [ax.plot([], [], color=color, lw=1.5, marker="o", markersize=6,
                               markevery=[0], gid=f"rigid body {r.index} frame")[0]
                       for r in A.bodies]
        self.links = [ax.plot([], [], color=color, lw=3, alpha=0.5,
                              gid=f"rigid body {r.index} links")[0] for r in A.bodies]
        self._groups, styles = {}, {}
        for j in A.joints:
            self._groups.setdefault(_joint_category(j), []).append(j)
            styles[_joint_category(j)] = _joint_style(j)
        rank = {c: k for k, c in enumerate([*REGISTRY, "driven"])}   # the kinds, then driven
        self.joints = {c: ax.plot([], [], linestyle="none", zorder=3, gid=f"joints {c}",
                                  label=f"{c} joint" if legend else "_nolegend_",
                                  **styles[c])[0]
                       for c in sorted(self._groups, key=lambda c: rank.get(c, len(rank)))}
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
        ax.plot(pts[:, 0], pts[:, 1], linestyle="none", marker="^", markersize=14, color="0.6",
                zorder=2.5, gid="ground", label="ground" if legend else "_nolegend_")


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


# --- entry points ----------------------------------------------------------------------------
def plot_model(model, ax=None):
    """:meth:`rancf.Model.plot`: the reference configuration, joints, ground and loads."""
    # an unfrozen model is checked in a throw-away Assembly, so that plotting does not freeze it
    A = model.build() if model.frozen else Assembly(model)
    ax = _axes(ax)
    _draw_ground(ax, A, legend=True)
    _Mechanism(ax, A, A.x0, "tab:blue", legend=True)
    ends = _draw_loads(ax, A, A.x0)
    if A.joints:
        ax.legend(loc="best", fontsize="small")
    return _finish(ax, ends)


def plot_result(res, t=None, ax=None, trace=()):
    """:meth:`rancf.Result.plot`: the mechanism at one or several output times."""
    A = res._assembly("plot()")
    index = _output_indices(res, t)
    points = _trace_points(trace)
    paths = [res.position(p) for p in points]
    ax = _axes(ax)
    _draw_ground(ax, A)
    if len(index) == 1:
        colors = ["tab:blue"]
        ax.set_title(f"t = {res.t[index[0]]:.6g} s")
    else:
        cmap = mpl.colormaps["viridis"]
        norm = Normalize(res.t[index].min(), res.t[index].max())
        colors = cmap(norm(res.t[index]))
        ax.figure.colorbar(ScalarMappable(norm=norm, cmap=cmap), ax=ax, label="t (s)")
    for i, color in zip(index, colors):
        _Mechanism(ax, A, res.nodes[i].reshape(-1), color)
    for k, (p, path) in enumerate(zip(points, paths)):
        ax.plot(path[:, 0], path[:, 1], color=f"C{k + 1}", lw=1, linestyle="--",
                label=f"trace of {p!r}", gid=f"trace {k}")
    if points:
        ax.legend(loc="best", fontsize="small")
    return _finish(ax)


class MechanismAnimation(animation.FuncAnimation):
    """The :class:`~matplotlib.animation.FuncAnimation` that :meth:`rancf.Result.animate`
    returns: frame k shows the output nearest to the simulated time ``frame_times[k]``.

    Not constructed directly: :meth:`rancf.Result.animate` returns it. Show it with
    ``plt.show()``, save it with ``anim.save(path)`` or ``Result.animate(path=...)``, or
    show it in a notebook with ``anim.to_jshtml()``.

    Attributes
    ----------
    fps : float
        Frames per second of video.
    speed : float
        Simulated seconds per second of video.
    frame_times : ndarray (n_frames,)
        Simulated time of each frame (s): ``t[0] + k speed / fps``.
    output_index : ndarray of int (n_frames,)
        The output each frame shows.
    duration : float
        Length of the video (s): ``n_frames / fps``.
    axes : matplotlib.axes.Axes
        The axes drawn on (its figure is the animation's).

    Examples
    --------
    A run of 0.5 s at half speed and 20 frames per second is a video of 1 s:

    >>> m = rancf.pendulum(n_bodies=2, elements_per_body=2, body_length=1.0)
    >>> anim = rancf.simulate(m, t_end=0.5, dt=1e-3).animate(fps=20, speed=0.5)
    >>> len(anim.frame_times), anim.duration
    (21, 1.05)
    """

    def __init__(self, ax, draw, frame_times, output_index, fps, speed):
        self.axes, self.fps, self.speed = ax, fps, speed
        self.frame_times, self.output_index = frame_times, output_index
        self.duration = len(frame_times) / fps
        super().__init__(ax.figure, draw, frames=len(frame_times), interval=1000.0 / fps,
                         cache_frame_data=False)


def _writer(path):
    """The writer for a video file and the rc parameters it needs; an error naming the writer
    and how to get it when it is missing."""
    suffix = os.path.splitext(path)[1].lower()
    if suffix not in WRITERS:
        raise ValueError(f"path must end in .gif (written with Pillow) or .mp4 (written with "
                         f"ffmpeg), got {path!r}")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):   # refused before any frame is drawn
        raise FileNotFoundError(f"cannot write {path}: there is no folder {folder}")
    if WRITERS[suffix] == "pillow":
        return animation.PillowWriter, {}
    if animation.writers.is_available("ffmpeg"):
        return animation.FFMpegWriter, {}
    try:
        import imageio_ffmpeg
        return animation.FFMpegWriter, {"animation.ffmpeg_path": imageio_ffmpeg.get_ffmpeg_exe()}
    except (ImportError, RuntimeError):
        raise RuntimeError(f"writing {path!r} needs the ffmpeg writer, and no ffmpeg was found: "
                           "pip install imageio-ffmpeg (it ships an ffmpeg binary), or put an "
                           "ffmpeg executable on the PATH (e.g. apt install ffmpeg, conda install "
                           "ffmpeg); or write a .gif (Pillow) instead") from None


def _save(anim, path, writer, rc):
    """Write the animation to a temporary file in the target folder, then rename it."""
    suffix = os.path.splitext(path)[1]
    folder = os.path.dirname(os.path.abspath(path))
    try:
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".rancf-", suffix=suffix)
    except OSError as exc:
        raise OSError(f"cannot write {path}: {exc.strerror}") from exc
    os.close(fd)
    try:
        with mpl.rc_context(rc):
            anim.save(tmp, writer=writer(fps=anim.fps))
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def animate_result(res, path=None, fps=30, speed=1.0, trace=()):
    """:meth:`rancf.Result.animate`."""
    A = res._assembly("animate()")
    fps, speed = checks.positive("fps", fps), checks.positive("speed", speed)
    if path is not None:
        if not isinstance(path, (str, os.PathLike)):
            raise TypeError(f"path must be None or a file path ending in .gif or .mp4, got {path!r}")
        path = os.fspath(path)
        writer, rc = _writer(path)
    points = _trace_points(trace)
    if len(res.t) == 0:
        raise ValueError("the result has no outputs to animate")
    span = res.t[-1] - res.t[0]
    # frames at t[0] + k speed / fps up to the last output (developer: Results, files and sweeps);
    # the small allowance keeps the last frame when span / speed * fps is an integer up to
    # round-off
    n_frames = int(np.floor(span / speed * fps + 1e-9)) + 1
    if n_frames > MAX_FRAMES:
        raise ValueError(f"speed = {speed:g} and fps = {fps:g} give {n_frames} frames for a run "
                         f"of {span:g} s; at most {MAX_FRAMES}: speed must be >= "
                         f"{span * fps / (MAX_FRAMES - 1):g} s per second of video at this fps")
    frame_times = res.t[0] + np.arange(n_frames) * (speed / fps)
    output_index = _nearest(res.t, frame_times)
    paths = [res.position(p) for p in points]

    fig, ax = plt.subplots(layout="constrained")
    _draw_ground(ax, A)
    mechanism = _Mechanism(ax, A, res.nodes[0].reshape(-1), "tab:blue")
    # fixed limits that hold every frame: what is drawn at each output shown, and the traces
    bounds = []
    for i in np.unique(output_index):
        mechanism.update(res.nodes[i].reshape(-1))
        bounds.append(mechanism.bounds())
    for path_ in paths:
        bounds.append(np.concatenate([path_.min(axis=0), path_.max(axis=0)]))
    bounds = np.array(bounds)
    low, high = bounds[:, :2].min(axis=0), bounds[:, 2:].max(axis=0)
    pad = 0.05 * max(np.max(high - low), A.size)
    low, high = low - pad, high + pad
    ax.set_xlim(low[0], high[0])
    ax.set_ylim(low[1], high[1])
    ax.set_aspect("equal", adjustable="box")
    # a figure shaped like the scene (an inch more for the title and labels), 6.4 in wide
    width = fig.get_figwidth()
    fig.set_size_inches(width, np.clip(width * (high[1] - low[1]) / (high[0] - low[0]) + 1.0,
                                       3.0, 1.5 * width))
    ax.set_xlabel("x (m)")
    ax.set_ylabel("y (m)")
    traces = [ax.plot([], [], color=f"C{k + 1}", lw=1, linestyle="--", label=f"trace of {p!r}",
                      gid=f"trace {k}")[0] for k, p in enumerate(points)]
    if points:
        ax.legend(loc="upper right", fontsize="small")
    # enough decimals that consecutive frames read differently
    decimals = max(1, 1 - int(np.floor(np.log10(speed / fps))))

    def draw(k):
        i = output_index[k]
        mechanism.update(res.nodes[i].reshape(-1))
        for line, path_ in zip(traces, paths):
            line.set_data(path_[:i + 1, 0], path_[:i + 1, 1])
        ax.set_title(f"t = {res.t[i]:.{decimals}f} s")
        return mechanism.artists() + traces

    draw(0)
    # lay the figure out once: constrained layout at every frame took half of each frame's
    # drawing time, and a fixed layout keeps the axes from shifting as the title changes
    fig.draw_without_rendering()
    fig.set_layout_engine("none")
    anim = MechanismAnimation(ax, draw, frame_times, output_index, fps, speed)
    if path is not None:
        _save(anim, path, writer, rc)
    return anim


def plot_energy(res, ax=None):
    """:meth:`rancf.Result.plot_energy`."""
    ax = _axes(ax)
    e = res.energy()
    for name in ("kinetic", "elastic", "gravity", "work", "dissipated"):
        ax.plot(e.t, e[name], label=name, gid=name)
    ax.plot(e.t, e.total, color="k", linestyle="--",
            label="total = kinetic + elastic + gravity - work + dissipated", gid="total")
    ax.set_xlabel("t (s)")
    ax.set_ylabel("energy (J)")
    ax.legend(loc="best", fontsize="small")
    return ax


def plot_joint(res, joint, ax=None):
    """:meth:`rancf.Result.plot_joint`: q on ``ax``, qd on a twin axis sharing t."""
    q, qd = res.joint(joint)
    if isinstance(joint, Joint):
        kind, unit = joint.kind, joint.type.unit
    elif res.model is not None:
        j = res.model.joints[res._joint_index(joint)]
        kind, unit = j.kind, j.type.unit
    else:
        kind, unit = None, "rad or m"
    ax = _axes(ax)
    twin = ax.twinx()
    lines = ax.plot(res.t, q, color="C0", label=f"q ({unit})", gid="q")
    lines += twin.plot(res.t, qd, color="C1", label=f"qd ({unit}/s)", gid="qd")
    ax.set_xlabel("t (s)")
    ax.set_ylabel(f"q ({unit})", color="C0")
    twin.set_ylabel(f"qd ({unit}/s)", color="C1")
    ax.legend(lines, [line.get_label() for line in lines], loc="best", fontsize="small")
    ax.set_title(f"joint {res._joint_index(joint)}" + (f" ({kind})" if kind else ""))
    return ax


def plot_position(res, point, ax=None):
    """:meth:`rancf.Result.plot_position`."""
    xy = res.position(point)
    ax = _axes(ax)
    ax.plot(res.t, xy[:, 0], label="x", gid="x")
    ax.plot(res.t, xy[:, 1], label="y", gid="y")
    ax.set_xlabel("t (s)")
    ax.set_ylabel(f"position of {point!r} (m)")
    ax.legend(loc="best", fontsize="small")
    return ax
