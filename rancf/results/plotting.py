"""Pictures of a result: its deformed mechanism at chosen times, animations, and time plots of
the energies, a joint and a point.

Reached through the plotting methods of :class:`rancf.Result`, which import this module on first
use, so that ``import rancf`` does not import matplotlib.

What is drawn is the mechanism of :mod:`rancf.model.drawing` (planar) or
:mod:`rancf.model.spatial_drawing` (spatial, in 3D; beams, rigid bodies, joints, rails or joint
axes, ground; every artist with a ``gid`` naming what it shows), moved to each output's
coordinates, and a point's path as a line with ``gid`` ``"trace k"``. The two drawing modules
give the same private names (``_axes``, ``_draw_ground``, ``_Mechanism``, ``_finish``,
``_fix_view``, ``_set_line``), so that one piece of code here draws, colours by time and
animates a result of either dimension.
"""
import os

import matplotlib as mpl
import matplotlib.pyplot as plt
import numpy as np
from matplotlib import animation
from matplotlib.cm import ScalarMappable
from matplotlib.colors import Normalize

from ..utilities import checks
from ..model.drawing import _axes
from ..model.items import Point
from ..model.joints import Joint
from .files import atomic_write

#: Most frames an animation may have (``T / speed * fps``).
MAX_FRAMES = 100_000
#: Video writers by file suffix.
WRITERS = {".gif": "pillow", ".mp4": "ffmpeg"}


# --- arguments -------------------------------------------------------------------------------


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


def _drawing(res, what):
    """The drawing module of the result's dimension and what its functions draw from: the
    planar Assembly, or the spatial :class:`~rancf.model.spatial_drawing.Layout`."""
    A = res._assembly(what)
    if res.model.dim == 3:
        from ..model import spatial_drawing
        return spatial_drawing, spatial_drawing.Layout(res.model)
    from ..model import drawing
    return drawing, A


# --- entry points ----------------------------------------------------------------------------


def plot_result(res, t=None, ax=None, trace=()):
    """:meth:`rancf.Result.plot`: the mechanism at one or several output times."""
    drawing, A = _drawing(res, "plot()")
    index = _output_indices(res, t)
    points = _trace_points(trace)
    paths = [res.position(p) for p in points]
    ax = drawing._axes(ax)
    drawing._draw_ground(ax, A)
    if len(index) == 1:
        colors = ["tab:blue"]
        ax.set_title(f"t = {res.t[index[0]]:.6g} s")
    else:
        cmap = mpl.colormaps["viridis"]
        norm = Normalize(res.t[index].min(), res.t[index].max())
        colors = cmap(norm(res.t[index]))
        ax.figure.colorbar(ScalarMappable(norm=norm, cmap=cmap), ax=ax, label="t (s)",
                           pad=drawing.COLORBAR_PAD)
    for i, color in zip(index, colors):
        drawing._Mechanism(ax, A, res.nodes[i].reshape(-1), color)
    for k, (p, path) in enumerate(zip(points, paths)):
        ax.plot(*path.T, color=f"C{k + 1}", lw=1, linestyle="--", label=f"trace of {p!r}",
                gid=f"trace {k}")
    if points:
        ax.legend(loc="best", fontsize="small")
    return drawing._finish(ax)


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
    with atomic_write(path, os.path.splitext(path)[1]) as tmp, mpl.rc_context(rc):
        anim.save(tmp, writer=writer(fps=anim.fps))


def animate_result(res, path=None, fps=30, speed=1.0, trace=()):
    """:meth:`rancf.Result.animate`."""
    drawing, A = _drawing(res, "animate()")
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

    ax = drawing._axes(None)
    fig = ax.figure
    fig.set_layout_engine("constrained")
    drawing._draw_ground(ax, A)
    mechanism = drawing._Mechanism(ax, A, res.nodes[0].reshape(-1), "tab:blue")
    # fixed limits that hold every frame: what is drawn at each output shown, and the traces
    bounds = []
    for i in np.unique(output_index):
        mechanism.update(res.nodes[i].reshape(-1))
        bounds.append(mechanism.bounds())
    for path_ in paths:
        bounds.append(np.concatenate([path_.min(axis=0), path_.max(axis=0)]))
    bounds = np.array(bounds)
    dim = bounds.shape[1] // 2
    drawing._fix_view(ax, A, bounds[:, :dim].min(axis=0), bounds[:, dim:].max(axis=0))
    traces = [ax.plot(*[[]] * dim, color=f"C{k + 1}", lw=1, linestyle="--",
                      label=f"trace of {p!r}", gid=f"trace {k}")[0]
              for k, p in enumerate(points)]
    if points:
        ax.legend(loc="upper right", fontsize="small")
    # enough decimals that consecutive frames read differently
    decimals = max(1, 1 - int(np.floor(np.log10(speed / fps))))

    def draw(k):
        i = output_index[k]
        mechanism.update(res.nodes[i].reshape(-1))
        for line, path_ in zip(traces, paths):
            drawing._set_line(line, path_[:i + 1])
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
    # six curves that cross and coincide (work and kinetic energy of a driven run, zeros)
    # leave no corner free inside the axes: the legend goes outside, on the right, in a
    # figure laid out to hold it
    ax = plt.subplots(figsize=(8.0, 4.8), layout="constrained")[1] if ax is None else _axes(ax)
    e = res.energy()
    for name in ("kinetic", "elastic", "gravity"):
        ax.plot(e.t, e[name], label=name, gid=name)
    # the energy that flows in and out dotted, so that a stored energy equal to it shows
    # (the work of a drive becomes the kinetic energy of a rigid spin-up)
    for name in ("work", "dissipated"):
        ax.plot(e.t, e[name], linestyle=":", linewidth=2.0, label=name, gid=name)
    ax.plot(e.t, e.total, color="k", linestyle="--",
            label="total = kinetic\n+ elastic + gravity\n- work + dissipated", gid="total")
    ax.set_xlabel("t (s)")
    ax.set_ylabel("energy (J)")
    ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0, fontsize="small")
    return ax


def plot_joint(res, joint, ax=None):
    """:meth:`rancf.Result.plot_joint`: q on ``ax``, qd on a twin axis sharing t; a joint of
    several coordinates (spatial) one colour per coordinate, q solid and qd dashed."""
    q, qd = res.joint(joint)
    q, qd = q.reshape(len(res.t), -1), qd.reshape(len(res.t), -1)
    n = q.shape[1]
    if isinstance(joint, Joint):
        j = joint
    else:
        j = res.model.joints[res._joint_index(joint)] if res.model is not None else None
    if j is None:
        kind, units = None, ["rad or m"] * n
    else:
        kind = j.kind
        units = list(j.type.spatial.units) if res.model.dim == 3 else [j.type.unit]
    unit = ", ".join(sorted(set(units)))
    ax = _axes(ax)
    twin = ax.twinx()
    lines = []
    for k in range(n):
        name = "q" if n == 1 else f"q{k}"
        q_colour, qd_colour = ("C0", "C1") if n == 1 else (f"C{k}", f"C{k}")
        lines += ax.plot(res.t, q[:, k], color=q_colour, label=f"{name} ({units[k]})", gid=name)
        lines += twin.plot(res.t, qd[:, k], color=qd_colour, linestyle="-" if n == 1 else "--",
                           label=f"{name}d ({units[k]}/s)", gid=f"{name}d")
    ax.set_xlabel("t (s)")
    ax.set_ylabel(f"q ({unit})", color="C0" if n == 1 else "k")
    twin.set_ylabel(f"qd ({unit}/s)", color="C1" if n == 1 else "k")
    ax.legend(lines, [line.get_label() for line in lines], loc="best", fontsize="small")
    ax.set_title(f"joint {res._joint_index(joint)}" + (f" ({kind})" if kind else ""))
    return ax


def plot_position(res, point, ax=None):
    """:meth:`rancf.Result.plot_position`."""
    xyz = res.position(point)
    ax = _axes(ax)
    for k, name in enumerate("xyz"[:xyz.shape[1]]):
        ax.plot(res.t, xyz[:, k], label=name, gid=name)
    ax.set_xlabel("t (s)")
    ax.set_ylabel(f"position of {point!r} (m)")
    ax.legend(loc="best", fontsize="small")
    return ax
