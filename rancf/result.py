"""Results of every formulation: trajectories at the output times, joints, energies, files."""
import json
import os
import tempfile

import numpy as np
import pandas as pd

from .elements.beam import PlanarANCFBeam
from .model.items import Point
from .model.joints import Joint
from .model.model import Model
from .model.state import State

#: Work counters every Result carries (0 where a method has none).
COUNTERS = ("steps", "nfev", "njev", "nlu", "newton_iterations", "rejected")
#: Values of Result.status.
STATUSES = ("ok", "diverged", "failed", "interrupted")
FORMAT_VERSION = 2


def energies(assembly, nodes, velocities):
    """Kinetic, elastic and gravity energy (J) at every output, (n_out, 3).

    Kinetic ``1/2 sum V_E^T M_E V_E + 1/2 sum (m |r'|^2 + I_G |u'|^2)``, elastic ``sum U(e)``,
    gravity ``-F_G . x`` (a linear potential in absolute coordinates).
    """
    A = assembly
    nodes = np.ascontiguousarray(nodes, dtype=float)
    velocities = np.ascontiguousarray(velocities, dtype=float)
    out = np.zeros((len(nodes), 3))
    if A.n_elements:
        out[:, :2] = A.element_kind.energies(A.element_vertices, A.element_length, A.element_EA,
                                             A.element_EI, A.element_mass, nodes, velocities)
    if len(A.bodies):
        vb = velocities[:, A.body_vertex, :]
        out[:, 0] += 0.5 * (A.body_mass * (vb[:, :, 0]**2 + vb[:, :, 1]**2)).sum(axis=1)
        out[:, 0] += 0.5 * (A.body_inertia * (vb[:, :, 2]**2 + vb[:, :, 3]**2)).sum(axis=1)
    out[:, 2] = -nodes.reshape(len(nodes), -1) @ A.gravity_force
    return out


class Result:
    """The outcome of :func:`rancf.simulate` or :func:`rancf.static`, whatever the formulation.

    Not constructed directly: :func:`rancf.simulate`, :func:`rancf.static` and
    :func:`rancf.load` return it.

    Attributes
    ----------
    model : rancf.Model or None
        None for a Result loaded without its model (then only the stored arrays are there).
    t : ndarray (n_out,)
        Output times (s); for :func:`rancf.static` the load factor of each frame.
    nodes : ndarray (n_out, n_vertices, 4)
        Coordinates of every vertex: ``[x, y, x', y']`` of the beam nodes (beam by beam, each
        beam with its own nodes), then ``[x, y, u_x, u_y]`` of the rigid bodies (m).
    velocities : ndarray (n_out, n_vertices, 4)
        Their rates (m/s, 1/s).
    joint_q, joint_qd : ndarray (n_out, n_joints)
        Joint coordinates (rad or m, unwrapped) and their rates.
    reactions : ndarray (n_out, n_joints)
        The torque (N m) or force (N) that holds the coordinate of a fixed or driven joint (a
        drive's motor torque, a clamp's moment); 0 for free joints.
    work, dissipated : ndarray (n_out,)
        Work of the applied forces, moments, efforts and drives (not gravity, a potential) and
        the energy dissipated by damping since t = 0 (J), integrated during the run.
    status : {"ok", "diverged", "failed", "interrupted"}
        "diverged": the state became non-finite or left its bound; "failed": the solver could
        not continue (singular matrix, step below the floor, Newton failure, an input function
        raised). The arrays hold what was computed up to then; ``message`` says what happened.
    method, formulation : str
    stats : dict
        Work counters ``steps, nfev, njev, nlu, newton_iterations, rejected``.
    extra : dict of ndarray
        Formulation-specific outputs with first axis n_out: ``constraint_violation`` (n_out, 3)
        of the implicit methods (``max |Phi|, |Phi'|, |Phi''|`` since the previous output),
        ``newton_iterations``, ``lambda`` (multipliers), ``beta`` (recursive generalized
        velocities), ``load_factor`` (static).
    wall_time : float
        Wall-clock time of the integration (s).

    Examples
    --------
    >>> m = rancf.pendulum(n_bodies=2, elements_per_body=2, body_length=1.0)
    >>> res = rancf.simulate(m, t_end=0.2, dt=1e-3, output_every=50)
    >>> res
    Result(recursive/rk4, 5 outputs to t = 0.2 s, status='ok')
    >>> res.t
    array([0.  , 0.05, 0.1 , 0.15, 0.2 ])
    >>> res.nodes.shape                 # 2 beams of 3 nodes, 4 coordinates each
    (5, 6, 4)
    """

    def __init__(self, model, t, nodes, velocities, joint_q, joint_qd, reactions, work,
                 dissipated, status="ok", message="", method="", formulation="", stats=None,
                 extra=None, wall_time=0.0, energy_table=None):
        self.model = model
        self.t = np.asarray(t, dtype=float)
        n = len(self.t)
        # a file read without its model keeps the node size it was saved with
        ns = model.build().node_size if model is not None else np.shape(nodes)[-1]
        self.nodes = np.asarray(nodes, dtype=float).reshape(n, -1, ns)
        self.velocities = np.asarray(velocities, dtype=float).reshape(n, -1, ns)
        self.joint_q = np.asarray(joint_q, dtype=float).reshape(n, -1)
        self.joint_qd = np.asarray(joint_qd, dtype=float).reshape(n, -1)
        self.reactions = np.asarray(reactions, dtype=float).reshape(n, -1)
        self.work = np.asarray(work, dtype=float).reshape(n)
        self.dissipated = np.asarray(dissipated, dtype=float).reshape(n)
        if status not in STATUSES:
            raise ValueError(f"status must be one of {STATUSES}, got {status!r}")
        self.status, self.message = status, message
        self.method, self.formulation = method, formulation
        self.stats = {k: 0 for k in COUNTERS}
        self.stats.update({k: (int(v) if isinstance(v, (int, np.integer)) else v)
                           for k, v in (stats or {}).items()})
        self.extra = {k: np.asarray(v) for k, v in (extra or {}).items()}
        self.wall_time = float(wall_time)
        if energy_table is None:
            if model is None:
                raise ValueError("a Result needs its model or its energy table")
            e = energies(model.build(), self.nodes, self.velocities)
            energy_table = {"kinetic": e[:, 0], "elastic": e[:, 1], "gravity": e[:, 2]}
        self._energy = pd.DataFrame({"t": self.t, **{k: np.asarray(energy_table[k], dtype=float)
                                                      for k in ("kinetic", "elastic", "gravity")},
                                     "work": self.work, "dissipated": self.dissipated})
        self._energy["total"] = (self._energy.kinetic + self._energy.elastic + self._energy.gravity
                                 - self._energy.work + self._energy.dissipated)

    def __repr__(self):
        end = self.t[-1] if len(self.t) else 0.0
        return (f"Result({self.formulation}/{self.method}, {len(self.t)} outputs to "
                f"t = {end:g} s, status={self.status!r})")

    # --- reading -------------------------------------------------------------------------------
    def _assembly(self, what):
        if self.model is None:
            raise ValueError(f"{what} needs the model: this Result was loaded without it; use "
                             "rancf.load(path, model=...)")
        return self.model.build()

    def position(self, point):
        """Trajectory of a point of the model.

        Parameters
        ----------
        point : Point
            ``b.end``, ``b.node(i)``, ``r.point(dx, dy)``, ``r.centre``, ...

        Returns
        -------
        ndarray (n_out, 2)
            x and y at every output (m).

        Raises
        ------
        TypeError
            ``point`` is not a point.
        ValueError
            A point of another model, or a Result loaded without its model.

        Examples
        --------
        >>> m = rancf.pendulum(n_bodies=1, elements_per_body=4, body_length=1.0)
        >>> res = rancf.simulate(m, t_end=0.3, dt=1e-3, output_every=100)
        >>> res.position(m.beams[0].node(2)).shape
        (4, 2)
        """
        if not isinstance(point, Point):
            raise TypeError(f"point must be a point of the model, got {point!r}")
        A = self._assembly("position()")
        if point.item.model is not self.model:
            raise ValueError(f"point {point!r} belongs to another model")
        return A.point_position(point, self.nodes.reshape(len(self.t), -1))

    def tip(self):
        """Trajectory of the end of the last beam added (the tip of a chain).

        Returns
        -------
        ndarray (n_out, 2)
            m.

        Raises
        ------
        ValueError
            A Result loaded without its model, or a model without beams.

        Examples
        --------
        A pendulum released horizontally falls: its tip's y decreases.

        >>> m = rancf.pendulum(n_bodies=1, elements_per_body=4, body_length=1.0)
        >>> tip = rancf.simulate(m, t_end=0.3, dt=1e-3).tip()
        >>> bool(tip[-1, 1] < tip[0, 1] == 0.0)
        True
        """
        return self.position(self._assembly("tip()").tip_point())

    def _joint_index(self, joint):
        if isinstance(joint, Joint):
            if self.model is not None and joint.child.item.model is not self.model:
                raise ValueError(f"joint {joint!r} belongs to another model")
            return joint.index
        n = self.joint_q.shape[1]
        if isinstance(joint, (int, np.integer)) and not isinstance(joint, bool) and 0 <= joint < n:
            return int(joint)
        raise ValueError(f"joint must be a Joint of the model or an index in [0, {n - 1}], got {joint!r}")

    def joint(self, joint):
        """A joint's coordinate and rate over the run.

        Parameters
        ----------
        joint : Joint or int
            A joint of the model (from :meth:`Model.add_joint`) or its index.

        Returns
        -------
        q : ndarray (n_out,)
            The child's orientation minus the parent's (rad; revolute and fixed joints) or the
            slide (m; prismatic), continuous: turns are not wrapped to (-pi, pi].
        qd : ndarray (n_out,)
            Its rate (rad/s or m/s).

        Raises
        ------
        ValueError
            A joint of another model or an index out of range.

        Examples
        --------
        >>> m = rancf.pendulum(n_bodies=2, elements_per_body=2, body_length=1.0)
        >>> res = rancf.simulate(m, t_end=0.2, dt=1e-3)
        >>> q, qd = res.joint(m.joints[0])          # the pin's angle, falling from 0
        >>> bool(q[-1] < 0.0 and qd[-1] < 0.0)
        True
        """
        k = self._joint_index(joint)
        return self.joint_q[:, k].copy(), self.joint_qd[:, k].copy()

    def reaction(self, joint):
        """The torque or force that holds a fixed or driven joint's coordinate.

        Parameters
        ----------
        joint : Joint or int
            A joint of the model or its index.

        Returns
        -------
        ndarray (n_out,)
            N m (revolute, fixed) or N (prismatic), acting on the child; 0 for a free joint.
            For a drive, the motor torque; its power is ``reaction * qd``.

        Raises
        ------
        ValueError
            A joint of another model or an index out of range.

        Examples
        --------
        A beam clamped horizontally: the clamp holds its weight's moment, ``rho A g L^2 / 2``.

        >>> m = rancf.Model(gravity=(0.0, -9.81), elastic_model="reissner")
        >>> b = m.add_beam(1.0, 4, E=2.1e11, rho=7800.0, A=1e-4, I=1e-9)
        >>> clamp = m.add_joint("fixed", m.ground.point(0.0, 0.0), b.start)
        >>> res = rancf.static(m)
        >>> round(float(res.reaction(clamp)[0]), 2), round(7800.0 * 1e-4 * 9.81 / 2, 2)
        (3.83, 3.83)
        """
        return self.reactions[:, self._joint_index(joint)].copy()

    def state(self, i=-1):
        """The state of an output, to start another run from it.

        Parameters
        ----------
        i : int
            Output index (negative counts from the end; -1 is the last).

        Returns
        -------
        State

        Raises
        ------
        IndexError
            ``i`` out of range.

        Examples
        --------
        >>> m = rancf.pendulum(n_bodies=2, elements_per_body=2, body_length=1.0)
        >>> res = rancf.simulate(m, t_end=0.2, dt=1e-3)
        >>> dae = rancf.simulate(m, 0.1, 1e-3, method="generalized-alpha", formulation="dae",
        ...                      state=res.state(-1))
        >>> dae.status
        'ok'
        """
        return State(self.nodes[i].ravel().copy(), self.velocities[i].ravel().copy())

    def energy(self):
        """The energy balance at every output.

        Returns
        -------
        pandas.DataFrame
            Columns ``t`` (s) and, in J: ``kinetic``, ``elastic``, ``gravity`` (the potential
            ``-F_G . x``), ``work`` (of forces, moments, efforts and drives since t = 0),
            ``dissipated`` (by material damping since t = 0) and
            ``total = kinetic + elastic + gravity - work + dissipated``, which the exact motion
            conserves: its change measures the integration error.

        Examples
        --------
        >>> m = rancf.pendulum(n_bodies=2, elements_per_body=2, body_length=1.0)
        >>> e = rancf.simulate(m, t_end=0.2, dt=1e-3).energy()
        >>> list(e.columns)
        ['t', 'kinetic', 'elastic', 'gravity', 'work', 'dissipated', 'total']
        >>> bool(abs(e.total.iloc[-1] - e.total.iloc[0]) < 1e-6 * e.kinetic.max())
        True
        """
        return self._energy.copy()

    def energy_drift(self):
        """The largest change of the energy balance, relative to the largest kinetic energy.

        Returns
        -------
        float
            ``max |total(t) - total(0)| / max kinetic(t)`` over the outputs (dimensionless).

        Raises
        ------
        ValueError
            The kinetic energy is zero at every output (nothing to compare with).

        Examples
        --------
        >>> m = rancf.pendulum(n_bodies=2, elements_per_body=2, body_length=1.0)
        >>> drift = rancf.simulate(m, t_end=0.2, dt=1e-3).energy_drift()
        >>> bool(drift < 1e-8)                               # 6.3e-10 with RK4 at 1 ms
        True
        """
        e = self._energy
        scale = e.kinetic.max()
        if not scale > 0.0:
            raise ValueError("energy_drift needs a motion: the kinetic energy is zero throughout")
        return float(np.abs(e.total - e.total.iloc[0]).max() / scale)

    def to_frame(self):
        """The coordinates and velocities as a long table, one row per output and vertex.

        Returns
        -------
        pandas.DataFrame
            Columns ``t`` (s), ``vertex`` (index into ``nodes``' second axis), ``x, y`` (m),
            ``d1, d2`` (a beam node's slope or a rigid body's axis u), and their rates
            ``vx, vy, vd1, vd2``.

        Examples
        --------
        >>> m = rancf.pendulum(n_bodies=1, elements_per_body=2, body_length=1.0)
        >>> frame = rancf.simulate(m, t_end=0.1, dt=1e-3, output_every=50).to_frame()
        >>> frame.shape                       # 3 outputs x 3 vertices, 10 columns
        (9, 10)
        """
        n_out, n_v, _ = self.nodes.shape
        data = {"t": np.repeat(self.t, n_v), "vertex": np.tile(np.arange(n_v), n_out)}
        for j, name in enumerate(("x", "y", "d1", "d2")):
            data[name] = self.nodes[:, :, j].ravel()
        for j, name in enumerate(("vx", "vy", "vd1", "vd2")):
            data[name] = self.velocities[:, :, j].ravel()
        return pd.DataFrame(data)

    # --- pictures (rancf.plotting; matplotlib is imported on first use) ------------------------
    def plot(self, t=None, ax=None, trace=()):
        """Draw the deformed mechanism at one output time or several, overlaid.

        Each beam is drawn through its element shape functions (17 points per element, nodes
        marked), each rigid body as its centre and frame with lines to its joint and load
        points, joints by kind and the ground points. Several times are told apart by colour,
        with a colorbar of t; one time is named in the title.

        Parameters
        ----------
        t : float or sequence of float, optional
            Time(s) to draw (s), within ``[t[0], t[-1]]``; a time that is not an output time
            takes the nearest output. Default: the last output.
        ax : matplotlib.axes.Axes, optional
            Where to draw; a new figure when None.
        trace : Point or sequence of Point
            Points whose paths over the whole run are drawn (dashed), e.g.
            ``(b.end, r.point(0.1, 0.0))``.

        Returns
        -------
        matplotlib.axes.Axes
            With equal aspect and axes in m.

        Raises
        ------
        ValueError
            A time outside the run, or a Result loaded without its model (pass ``model=`` to
            :func:`rancf.load`).

        Examples
        --------
        >>> m = rancf.pendulum(n_bodies=2, elements_per_body=2, body_length=1.0)
        >>> res = rancf.simulate(m, t_end=0.2, dt=1e-3)
        >>> ax = res.plot(t=[0.0, 0.1, 0.2], trace=m.beams[-1].end)
        """
        from .plotting import plot_result
        return plot_result(self, t, ax, trace)

    def animate(self, path=None, fps=30, speed=1.0, trace=()):
        """Animate the mechanism over the run, with the time in each frame (DECISIONS 26).

        Frame k shows the output nearest to ``t[0] + k speed / fps``, so a run of duration T
        gives ``floor(T / speed * fps) + 1`` frames (a video of about ``T / speed`` s); the
        frames index the stored outputs, which are not copied.

        Parameters
        ----------
        path : str or os.PathLike, optional
            File to write: ``.gif`` (Pillow) or ``.mp4`` (ffmpeg: on the PATH, or the one that
            ``pip install imageio-ffmpeg`` ships), written atomically (a temporary file in the
            same folder, then a rename). None writes nothing.
        fps : float
            Frames per second of video, > 0.
        speed : float
            Simulated seconds per second of video, > 0 (0.5 is slow motion).
        trace : Point or sequence of Point
            Points whose paths are drawn, growing up to each frame's time.

        Returns
        -------
        rancf.plotting.MechanismAnimation
            A :class:`matplotlib.animation.FuncAnimation` with ``frame_times`` (s),
            ``output_index``, ``fps``, ``speed``, ``duration`` (s of video) and ``axes``.

        Raises
        ------
        RuntimeError
            ``.mp4`` asked for and no ffmpeg found (the message says how to get one).
        ValueError
            A path of another suffix, more than 100,000 frames, or a Result loaded without
            its model (pass ``model=`` to :func:`rancf.load`).

        Examples
        --------
        >>> m = rancf.pendulum(n_bodies=2, elements_per_body=2, body_length=1.0)
        >>> res = rancf.simulate(m, t_end=0.5, dt=1e-3)
        >>> anim = res.animate(fps=20, speed=0.5)
        >>> len(anim.frame_times)
        21
        """
        from .plotting import animate_result
        return animate_result(self, path, fps, speed, trace)

    def plot_energy(self, ax=None):
        """Plot the energies of :meth:`energy` against t: kinetic, elastic, gravity, work,
        dissipated and the balance ``total`` (conserved by the motion).

        Parameters
        ----------
        ax : matplotlib.axes.Axes, optional
            Where to draw; a new figure when None.

        Returns
        -------
        matplotlib.axes.Axes
            t in s, energies in J.

        Examples
        --------
        >>> m = rancf.pendulum(n_bodies=2, elements_per_body=2, body_length=1.0)
        >>> ax = rancf.simulate(m, t_end=0.2, dt=1e-3).plot_energy()
        """
        from .plotting import plot_energy
        return plot_energy(self, ax)

    def plot_joint(self, joint, ax=None):
        """Plot a joint's coordinate q (on ``ax``) and its rate qd (on a twin y axis) against t.

        Parameters
        ----------
        joint : Joint or int
            A joint of the model or its index.
        ax : matplotlib.axes.Axes, optional
            Where to draw; a new figure when None.

        Returns
        -------
        matplotlib.axes.Axes
            The axes of q (rad for a revolute or fixed joint, m for a prismatic one; qd in
            rad/s or m/s on its twin), t in s.

        Examples
        --------
        >>> m = rancf.pendulum(n_bodies=2, elements_per_body=2, body_length=1.0)
        >>> ax = rancf.simulate(m, t_end=0.2, dt=1e-3).plot_joint(m.joints[1])
        """
        from .plotting import plot_joint
        return plot_joint(self, joint, ax)

    def plot_position(self, point, ax=None):
        """Plot the x and y of a point of the model against t.

        Parameters
        ----------
        point : Point
            ``b.end``, ``b.node(i)``, ``r.point(dx, dy)``, ...
        ax : matplotlib.axes.Axes, optional
            Where to draw; a new figure when None.

        Returns
        -------
        matplotlib.axes.Axes
            Positions in m, t in s.

        Examples
        --------
        >>> m = rancf.pendulum(n_bodies=2, elements_per_body=2, body_length=1.0)
        >>> ax = rancf.simulate(m, t_end=0.2, dt=1e-3).plot_position(m.beams[-1].end)
        """
        from .plotting import plot_position
        return plot_position(self, point, ax)

    # --- files ---------------------------------------------------------------------------------
    def save(self, path):
        """Write the result to a file, atomically, with its energies.

        The arrays, energies, status, message, counters and ``extra`` are stored, so that
        :func:`rancf.load` reads them back without the model (the model itself is not stored:
        drives and efforts are Python functions), and the model's layout (:func:`layout`),
        so that it loads only onto a model of the same items and joints.

        Parameters
        ----------
        path : str or os.PathLike
            File to write (NumPy ``.npz``, compressed). It is written to a temporary file in
            the same folder, then renamed: an interrupted save leaves any previous file whole.

        Raises
        ------
        OSError
            The folder does not exist or cannot be written (the message names the path).

        Examples
        --------
        >>> import os, tempfile
        >>> m = rancf.pendulum(n_bodies=1, elements_per_body=2, body_length=1.0)
        >>> res = rancf.simulate(m, t_end=0.1, dt=1e-3)
        >>> path = os.path.join(tempfile.mkdtemp(), "run.npz")
        >>> res.save(path)
        >>> bool(np.array_equal(rancf.load(path).nodes, res.nodes))
        True
        """
        path = os.fspath(path)
        meta = {"format": FORMAT_VERSION, "status": self.status, "message": self.message,
                "method": self.method, "formulation": self.formulation,
                "stats": {k: (int(v) if isinstance(v, (int, np.integer)) else float(v))
                          for k, v in self.stats.items()},
                "wall_time": self.wall_time}
        if self.model is not None:
            meta["layout"] = layout(self.model.build())
        arrays = {"t": self.t, "nodes": self.nodes, "velocities": self.velocities,
                  "joint_q": self.joint_q, "joint_qd": self.joint_qd, "reactions": self.reactions,
                  "work": self.work, "dissipated": self.dissipated,
                  "kinetic": self._energy.kinetic.to_numpy(),
                  "elastic": self._energy.elastic.to_numpy(),
                  "gravity": self._energy.gravity.to_numpy(), "meta": np.array(json.dumps(meta))}
        arrays.update({"extra__" + k: v for k, v in self.extra.items()})
        folder = os.path.dirname(os.path.abspath(path))
        try:
            fd, tmp = tempfile.mkstemp(dir=folder, prefix=".rancf-", suffix=".npz")
        except OSError as exc:
            raise OSError(f"cannot write {path}: {exc.strerror}") from exc
        try:
            with os.fdopen(fd, "wb") as f:
                np.savez_compressed(f, **arrays)
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(tmp, 0o666 & ~umask)
            os.replace(tmp, path)
        except BaseException as exc:
            if os.path.exists(tmp):
                os.unlink(tmp)
            if isinstance(exc, OSError):
                raise OSError(f"cannot write {path}: {exc.strerror or exc}") from exc
            raise


def layout(assembly):
    """What a Result file must share with the model it is loaded onto, as JSON-ready lists:
    the items (``["beam", n_elements]``, ``["body", 0]``, in vertex order) and the joints
    (``[kind, parent vertex, child vertex]``, -1 for the ground)."""
    A = assembly
    return {"items": [["beam", b.n_elements] for b in A.beams] + [["body", 0] for _ in A.bodies],
            "joints": [[j.kind, int(p), int(c)]
                       for j, p, c in zip(A.joints, A.parent_vertex, A.child_vertex)]}


#: The arrays every Result file holds (besides ``meta`` and the ``extra__`` ones).
ARRAYS = ("t", "nodes", "velocities", "joint_q", "joint_qd", "reactions", "work", "dissipated",
          "kinetic", "elastic", "gravity")


def _is_real(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _check_meta(path, meta):
    """The meta record of a Result file: its format, status, texts, counters and wall time."""
    if not isinstance(meta, dict):
        raise ValueError(f"{path}: the meta record must be a JSON object, got "
                         f"{type(meta).__name__}")
    found = meta.get("format")
    if not (isinstance(found, int) and not isinstance(found, bool) and found == FORMAT_VERSION):
        raise ValueError(f"{path}: not a rancf Result of format {FORMAT_VERSION} "
                         f"(found {found!r})")
    missing = [k for k in ("status", "message", "method", "formulation", "stats", "wall_time")
               if k not in meta]
    if missing:
        raise ValueError(f"{path}: the meta record lacks {', '.join(missing)}")
    if meta["status"] not in STATUSES:
        raise ValueError(f"{path}: status must be one of {STATUSES}, got {meta['status']!r}")
    for k in ("message", "method", "formulation"):
        if not isinstance(meta[k], str):
            raise ValueError(f"{path}: {k} must be a string, got {meta[k]!r}")
    stats = meta["stats"]
    if not (isinstance(stats, dict) and all(_is_real(v) for v in stats.values())):
        raise ValueError(f"{path}: stats must map names to numbers, got {stats!r}")
    wall = meta["wall_time"]
    if not (_is_real(wall) and 0.0 <= wall < float("inf")):
        raise ValueError(f"{path}: wall_time must be a number of seconds >= 0, got {wall!r}")
    if "layout" in meta and not (isinstance(meta["layout"], dict)
                                 and set(meta["layout"]) == {"items", "joints"}):
        raise ValueError(f"{path}: the model layout must hold items and joints, got "
                         f"{meta['layout']!r}")


def _check_file(path, a):
    """The arrays of a Result file: real numbers (booleans too in ``extra``), shapes that
    agree, at least one output, finite increasing times."""
    missing = [k for k in ARRAYS if k not in a]
    if missing:
        raise ValueError(f"{path}: not a complete rancf Result (missing {', '.join(missing)})")
    for k, v in a.items():
        kinds = "biuf" if k.startswith("extra__") else "iuf"
        if v.dtype.kind not in kinds:
            raise ValueError(f"{path}: {k} must hold real numbers, got dtype {v.dtype}")
    n = a["t"].shape[0] if a["t"].ndim == 1 else -1
    ns = PlanarANCFBeam.node_size    # the planar kinds' nodes: the only ones a file holds yet
    if n < 1 or a["nodes"].ndim != 3 or a["nodes"].shape[0] != n or a["nodes"].shape[2] != ns:
        raise ValueError(f"{path}: t must be (n_out,) with n_out >= 1 and nodes "
                         f"(n_out, n_vertices, {ns}), got {a['t'].shape} and {a['nodes'].shape}")
    if a["velocities"].shape != a["nodes"].shape:
        raise ValueError(f"{path}: velocities {a['velocities'].shape} do not match nodes "
                         f"{a['nodes'].shape}")
    for k in ("joint_q", "joint_qd", "reactions"):
        if a[k].ndim != 2 or a[k].shape[0] != n or a[k].shape[1] != a["joint_q"].shape[1]:
            raise ValueError(f"{path}: {k} must be (n_out, n_joints), got {a[k].shape}")
    for k in ("work", "dissipated", "kinetic", "elastic", "gravity"):
        if a[k].shape != (n,):
            raise ValueError(f"{path}: {k} must be (n_out,) = ({n},), got {a[k].shape}")
    for k, v in a.items():
        if k.startswith("extra__") and (v.ndim < 1 or v.shape[0] != n):
            raise ValueError(f"{path}: {k} must have n_out = {n} rows, got shape {v.shape}")
    if not np.all(np.isfinite(a["t"])) or np.any(np.diff(a["t"]) < 0):
        raise ValueError(f"{path}: the output times must be finite and increasing")


def _difference(name, plural, theirs, ours):
    """The first difference of two lists of layout entries, in words (None if equal)."""
    if len(theirs) != len(ours):
        return f"{len(theirs)} {plural} in the file, {len(ours)} in the model"
    for k, (a, b) in enumerate(zip(theirs, ours)):
        if a != b:
            return f"{name} {k} is {a} in the file, {b} in the model"
    return None


def _check_model(path, model, meta, arrays):
    """The model a file is loaded onto has the file's layout (items and joints), or, for a
    file saved without it (a Result loaded without its model), its numbers of vertices and
    joints."""
    A = model.build()
    if "layout" in meta:
        ours = layout(A)
        theirs = meta["layout"]["items"], meta["layout"]["joints"]
        found = [_difference("item", "items", theirs[0], ours["items"]),
                 _difference("joint", "joints", theirs[1], ours["joints"])]
    else:
        found = [_difference("vertex", "vertices", [0] * arrays["nodes"].shape[1],
                             [0] * A.n_vertices),
                 _difference("joint", "joints", [0] * arrays["joint_q"].shape[1],
                             [0] * A.n_joints)]
    found = [f for f in found if f]
    if found:
        raise ValueError(f"{path}: saved from a model of another layout ({'; '.join(found)})")


def load(path, model=None):
    """Read a :class:`Result` written by :meth:`Result.save`.

    Parameters
    ----------
    path : str or os.PathLike
        The file.
    model : Model, optional
        The model that was run. Without it the arrays, energies, joints, reactions and status
        are there, but not what needs the model (positions of points, the tip, pictures);
        with it, the file must have been saved from a model of the same layout (items and
        joints, :func:`layout`; a file saved without a model: the same numbers of vertices
        and joints).

    Returns
    -------
    Result

    Raises
    ------
    TypeError
        ``path`` is not a path, or ``model`` not a Model.
    ValueError
        The file cannot be read, is not a rancf Result of this format, its meta record or
        arrays are damaged or disagree, or it does not match ``model``: the message names
        ``path`` and what is wrong (the whole file is checked).

    Examples
    --------
    >>> import os, tempfile
    >>> m = rancf.pendulum(n_bodies=1, elements_per_body=2, body_length=1.0)
    >>> path = os.path.join(tempfile.mkdtemp(), "run.npz")
    >>> rancf.simulate(m, t_end=0.1, dt=1e-3).save(path)
    >>> rancf.load(path).energy().shape
    (11, 7)
    >>> rancf.load(path, model=m).tip().shape
    (11, 2)
    """
    if not isinstance(path, (str, bytes, os.PathLike)):
        raise TypeError(f"path must be a str or os.PathLike, got {type(path).__name__}")
    path = os.fsdecode(path)
    if model is not None and not isinstance(model, Model):
        raise TypeError(f"model must be a rancf.Model or None, got {type(model).__name__}")
    try:
        f = np.load(path, allow_pickle=False)
        if not isinstance(f, np.lib.npyio.NpzFile):
            raise ValueError("a single array (.npy), not an archive of arrays")
        with f:
            arrays = {k: f[k] for k in f.files}
        meta = json.loads(str(arrays.pop("meta")))
    except Exception as exc:
        # a damaged file fails wherever numpy, zipfile or zlib meet the damage (a bad header,
        # checksum or compressed stream, a missing member, a size beyond memory): all are the
        # same for the user, a file that cannot be read
        raise ValueError(f"{path}: not a readable rancf Result file ({type(exc).__name__}: "
                         f"{exc})") from exc
    _check_meta(path, meta)
    _check_file(path, arrays)
    if model is not None:
        _check_model(path, model, meta, arrays)
    extra = {k[len("extra__"):]: v for k, v in arrays.items() if k.startswith("extra__")}
    return Result(model, arrays["t"], arrays["nodes"], arrays["velocities"], arrays["joint_q"],
                  arrays["joint_qd"], arrays["reactions"], arrays["work"], arrays["dissipated"],
                  status=meta["status"], message=meta["message"], method=meta["method"],
                  formulation=meta["formulation"], stats=meta["stats"], extra=extra,
                  wall_time=meta["wall_time"],
                  energy_table={k: arrays[k] for k in ("kinetic", "elastic", "gravity")})
