"""Results of every formulation: trajectories at the output times, joints, energies; the one
place a :class:`Result` is made from an integrator's :class:`~rancf.integrators.solution.Solution`
(:func:`result_of`)."""
import threading
import warnings

import numpy as np

from ..formulations._spatial_dae import FRAME_SIZE, TWIST_SIZE
from ..integrators.held_interrupt import after_steps, held_interrupt
from ..joints._codes import DIRECTION_HELD
from ..model.items import ARC, Point
from ..model.joints import Joint
from ..model.state import State

#: Work counters every Result carries (0 where a method has none).
COUNTERS = ("steps", "nfev", "njev", "nlu", "newton_iterations", "rejected")
#: Values of Result.status.
STATUSES = ("ok", "diverged", "failed", "interrupted")
#: A spatial body's entries in ``Result.nodes`` (its origin r, then its frame A row-major) and
#: in ``Result.velocities`` (v, then the angular velocity w; global coordinates): the spatial
#: formulations' layout, named once in their kernels.
SPATIAL_POSE, SPATIAL_VELOCITY = FRAME_SIZE, TWIST_SIZE


def energies(assembly, nodes, velocities, joint_q=None):
    """Kinetic, elastic and gravity energy (J) at every output, (n_out, 3):
    :meth:`rancf.model.Assembly.energies` of ``assembly``."""
    return assembly.energies(nodes, velocities, joint_q)


_warned = []


def _warn_changed(joint):
    """Warn once that ``reaction(joint)`` of a held or driven planar joint (which returned its
    torque in earlier releases) now returns the full reaction."""
    if _warned or not (joint.driven or joint.type.direction == DIRECTION_HELD):
        return
    _warned.append(True)
    warnings.warn("Result.reaction(joint) of a planar joint now returns the full reaction "
                  "[fx, fy, m] (n_out, 3); the torque or force holding its coordinate, which it "
                  "returned before, is Result.reaction(joint, \"torque\")", FutureWarning,
                  stacklevel=3)


#: What a run can leave to be computed from its stored states when first read
_DEFERRED = ("nodes", "velocities", "joint_q", "joint_qd")


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
    nodes : ndarray (n_out, n_vertices, 4) or (n_out, n_bodies, 12)
        Planar: coordinates of every vertex: ``[x, y, x', y']`` of the beam nodes (beam by
        beam, each beam with its own nodes), then ``[x, y, u_x, u_y]`` of the rigid bodies (m).
        Spatial: the pose of every body of the tree (beam nodes and rigid bodies, numbered as
        :meth:`rancf.Model.body_of` says): its origin r (m), then its frame A row-major.
    velocities : ndarray (n_out, n_vertices, 4) or (n_out, n_bodies, 6)
        Planar: their rates (m/s, 1/s). Spatial: each body's velocity v (m/s) and angular
        velocity w (rad/s), global coordinates.
    joint_q, joint_qd : ndarray (n_out, n_joints)
        Joint coordinates (rad or m, unwrapped) and their rates. A spatial DAE run computes
        these, ``nodes``, ``velocities`` and the energies from its stored states when one of
        them is first read (all outputs at once), then keeps them; a planar recursive run
        (explicit or implicit) these, ``nodes``, ``velocities`` and the reactions, in one
        compiled pass (about a kinematics pass an output); a spatial recursive run with
        cables its cables' parts of them (their drawn poses and joints).
    reactions : ndarray (n_out, n_joints)
        The torque (N m) or force (N) that holds the coordinate of a fixed or driven joint (a
        drive's motor torque, a clamp's moment); 0 for free joints. The DAE computes them from
        the stored frames when first read (a saddle-point solve per output), then keeps them.
    work, dissipated : ndarray (n_out,)
        Work of the applied forces, moments, efforts and drives (not gravity, a potential) and
        the energy dissipated by damping since t = 0 (J), integrated during the run.
    status : {"ok", "diverged", "failed", "interrupted"}
        "diverged": the state became non-finite or left its bound; "failed": the solver could
        not continue (singular matrix, step below the floor, Newton failure, an input function
        raised). The arrays hold what was computed up to then; ``message`` says what happened
        (on a run that went well, why ``method="auto"`` chose its method: ``method_reason``).
    method, formulation : str
        The method and formulation that ran.
    method_reason : str
        Why that method ran when :func:`rancf.simulate` chose it (``method="auto"``, the
        default): the choice and the numbers it was made on, e.g. the step against RK4's
        stability limit; "" when the method was named.
    stats : dict
        Work counters ``steps, nfev, njev, nlu, newton_iterations, rejected``.
    extra : dict of ndarray
        Formulation-specific outputs with first axis n_out: ``constraint_violation`` (n_out, 3)
        of the implicit methods (``max |Phi|, |Phi'|, |Phi''|`` since the previous output),
        ``newton_iterations``, ``lambda`` (multipliers), ``beta`` (recursive generalized
        velocities), ``load_factor`` (static); of a spatial model with ANCF cables
        ``cable_nodes`` and ``cable_velocities`` (n_out, 6 n_cable_nodes): every cable node's
        ``[r, r']`` (m, dimensionless) and their rates (m/s, 1/s), the coordinates its drawn
        pose in ``nodes`` leaves out (the slope's length; a run computes them from its stored
        states when ``extra`` is first read).
    wall_time : float
        Wall-clock time of the integration (s).
    error : Exception or None
        The exception that stopped a run with status "failed", where one did: a
        :class:`rancf.UserFunctionError` when a function of the model raised (a drive, an
        effort, a load function; the function's own exception is its ``__cause__``), or the
        check of what such a function returned. None otherwise, and for a loaded Result (a
        file keeps the message only).
    inputs : rancf.formulations.inputs.Recorded or None
        The values the model's input functions gave at the outputs in the run
        (:attr:`rancf.integrators.solution.Solution.inputs`), played back in their place by
        the outputs computed from the stored frames when asked (:meth:`reaction`,
        :meth:`acceleration`); None: the model has none, or the run did not keep them. A
        file keeps them (:meth:`save`), so that a loaded Result plays them back too.

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

    #: A Result loaded without its model (:func:`rancf.load`): the number of coordinates of
    #: each joint (None where the file cannot tell), and what the file recorded of its model
    #: (joints' coordinates, parameters), which its :meth:`save` writes again.
    _joint_counts = None
    _stored_model = None
    #: A Result read by :func:`rancf.load`: (the file's path, its format), else None.
    _read_from = None

    def __init__(self, model, t, nodes, velocities, joint_q, joint_qd, reactions, work,
                 dissipated, status="ok", message="", method="", formulation="", stats=None,
                 extra=None, wall_time=0.0, energy_table=None, error=None, method_reason="",
                 inputs=None):
        self.model = model
        self._inputs = inputs
        self.t = np.asarray(t, dtype=float)
        n = len(self.t)
        # a file read without its model keeps the node sizes it was saved with
        if model is None:
            sizes = np.shape(nodes)[-1], np.shape(velocities)[-1]
        elif model.dim == 3:
            sizes = SPATIAL_POSE, SPATIAL_VELOCITY
        else:
            sizes = (model.build().node_size,) * 2
        # a callable ``nodes`` (the spatial DAE's stored states) gives nodes, velocities,
        # joint_q, joint_qd and the energies when one of them is first read (developer: Results,
        # files and sweeps)
        self._sizes, self._frames = sizes, (nodes if callable(nodes) else None)
        if self._frames is None:
            self._store_frames(nodes, velocities, joint_q, joint_qd)
        # a callable (a DAE run's held joints: their multipliers' solves) is evaluated when
        # the reactions are first read (developer: Results, files and sweeps)
        self._reactions = reactions if callable(reactions) else \
            np.asarray(reactions, dtype=float).reshape(n, -1)
        self.work = np.asarray(work, dtype=float).reshape(n)
        self.dissipated = np.asarray(dissipated, dtype=float).reshape(n)
        if status not in STATUSES:
            raise ValueError(f"status must be one of {STATUSES}, got {status!r}")
        self.status, self.message = status, message
        self.method, self.formulation = method, formulation
        self.method_reason = method_reason
        self.stats = {k: 0 for k in COUNTERS}
        self.stats.update({k: (int(v) if isinstance(v, (int, np.integer)) else v)
                           for k, v in (stats or {}).items()})
        # a callable entry (a run's cable coordinates, made from its stored states) is
        # evaluated when ``extra`` is first read (developer: Results, files and sweeps)
        extra = extra or {}
        if any(callable(v) for v in extra.values()):
            self._extra = extra
        else:
            self.extra = {k: np.asarray(v) for k, v in extra.items()}
        self.wall_time = float(wall_time)
        self.error = error
        if energy_table is None and model is None:
            raise ValueError("a Result needs its model or its energy table")
        # the energy table, computed from the outputs when first asked for (developer: Results,
        # files and sweeps)
        self._energy_table, self._energy = energy_table, None
        # the deferred outputs are computed on the run's formulation, whose scratch arrays two
        # threads reading one Result at once would share: one computes, the other waits
        self._lock = threading.RLock()

    def _store_frames(self, nodes, velocities, joint_q, joint_qd):
        n, sizes = len(self.t), self._sizes
        self.nodes = np.asarray(nodes, dtype=float).reshape(n, -1, sizes[0])
        self.velocities = np.asarray(velocities, dtype=float).reshape(n, -1, sizes[1])
        self.joint_q = np.asarray(joint_q, dtype=float).reshape(n, -1)
        self.joint_qd = np.asarray(joint_qd, dtype=float).reshape(n, -1)

    def _computed_frames(self):
        """Compute the deferred outputs from the stored states (their callable gives
        ``{nodes, velocities, joint_q, joint_qd}`` and, the spatial DAE's, ``kinetic, gravity,
        elastic``), once."""
        with self._lock:
            frames = self.__dict__.get("_frames")
            if frames is not None:
                out = frames()
                self._store_frames(out["nodes"], out["velocities"], out["joint_q"],
                                   out["joint_qd"])
                if "kinetic" in out:
                    # else the run gave its energies apart (the spatial recursion's callable)
                    self._energy_table = {k: out[k] for k in ("kinetic", "elastic", "gravity")}
                self._frames = None

    def _computed_extra(self):
        """Evaluate the deferred entries of ``extra`` (their callables), once."""
        with self._lock:
            extra = self.__dict__.get("_extra")
            if extra is not None:
                # ``_extra`` goes after ``extra`` is set: a thread reading ``extra`` meanwhile
                # finds one of them, and waits on the lock for the other
                self.extra = {k: np.asarray(v() if callable(v) else v) for k, v in extra.items()}
                del self._extra

    def __getattr__(self, name):
        # only for attributes not set yet: the deferred outputs
        if name in _DEFERRED and self.__dict__.get("_frames") is not None:
            self._computed_frames()
            return self.__dict__[name]
        if name == "extra" and "_extra" in self.__dict__:
            self._computed_extra()
            return self.__dict__[name]
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def __getstate__(self):
        # a pickled Result carries arrays, not the run's formulation: the deferred outputs,
        # energies and reactions computed first; a lock does not pickle, each copy has its own
        self._energy_frame()
        _ = self.reactions
        self._computed_extra()
        state = dict(self.__dict__)
        del state["_lock"]
        state["_energy_table"] = None       # the frame above holds it
        return state

    def __setstate__(self, state):
        self.__dict__.update(state)
        self._lock = threading.RLock()

    def _energy_frame(self):
        """The energy balance (a DataFrame, :meth:`energy`), computed on the first call from
        the outputs (:func:`energies`) unless the run gave its table, then kept."""
        self._computed_frames()
        with self._lock:
            if self._energy is None:
                table = self._energy_table
                if callable(table):
                    # the formulation's energies of the stored frames (developer: Results, files
                    # and sweeps)
                    table = table()
                if table is None:
                    e = energies(self.model.build(), self.nodes, self.velocities, self.joint_q)
                    table = {"kinetic": e[:, 0], "elastic": e[:, 1], "gravity": e[:, 2]}
                import pandas as pd     # here, not at the top: it takes a second of `import rancf`
                frame = pd.DataFrame({"t": self.t, **{k: np.asarray(table[k], dtype=float)
                                                      for k in ("kinetic", "elastic", "gravity")},
                                      "work": self.work, "dissipated": self.dissipated})
                frame["total"] = (frame.kinetic + frame.elastic + frame.gravity - frame.work
                                  + frame.dissipated)
                self._energy = frame
            return self._energy

    @property
    def inputs(self):
        """The input functions' values recorded at the outputs (the class docstring), read-only.

        The outputs computed from the stored frames (:meth:`acceleration`, :meth:`reaction`)
        play them back instead of calling the functions, which may have changed since the run
        or fail at the frames (a run stopped by one). :meth:`save` stores them and
        :func:`rancf.load` reads them back, so that a loaded Result gives the saved one's
        accelerations and reactions, bit for bit, without calling a function. A file of format
        2 (written before they were stored) has none: a Result read from it refuses those
        outputs, if its model has input functions, rather than call them.

        Examples
        --------
        A pendulum under a force that grows with time: the run keeps the force's values.

        >>> m = rancf.Model(gravity=(0.0, -9.81))
        >>> b = m.add_rigid_body(1.0, 0.1, position=(0.5, 0.0))
        >>> pin = m.add_joint("revolute", m.ground.point(0.0, 0.0), b.point(-0.5, 0.0))
        >>> load = m.add_force(b.centre, force=lambda t: (0.0, -t))
        >>> res = rancf.simulate(m, 0.01, 1e-3, method="generalized-alpha", formulation="dae")
        >>> res.inputs is not None
        True
        """
        return self._inputs

    @property
    def reactions(self):
        """ndarray (n_out, n_joints): the torque (N m) or force (N) that holds the coordinate of
        a fixed or driven joint (the class docstring); a DAE run computes them from its stored
        frames when first read, then keeps them. The class example shows it in use.
        """
        with self._lock:
            if callable(self._reactions):
                self._reactions = np.asarray(self._reactions(), dtype=float).reshape(
                    len(self.t), -1)
        return self._reactions

    @reactions.setter
    def reactions(self, value):
        self._reactions = np.asarray(value, dtype=float).reshape(len(self.t), -1)

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

    def _point(self, point, what):
        """Check a point of this Result's model; the model's assembly."""
        if not isinstance(point, Point):
            raise TypeError(f"point must be a point of the model, got {point!r}")
        A = self._assembly(what)
        if point.item.model is not self.model:
            raise ValueError(f"point {point!r} belongs to another model")
        return A

    def _arc_motion(self, point, rates):
        """A spatial point at an arc length's position, frame and (with ``rates``) velocity
        at every output (:func:`rancf.results.outputs.spatial_arc_motion`)."""
        from .outputs import spatial_arc_motion
        return spatial_arc_motion(self.model.build(), point, self.nodes,
                                  self.velocities if rates else None)

    def _body_motion(self, point, what):
        """A spatial point's body pose and velocity at every output: r (n_out, 3), frame
        (n_out, 3, 3), v, w (n_out, 3) of its body's origin, and its offset in the body frame
        (a ground point: its position, at rest)."""
        self._point(point, what)
        if self.model.dim != 3:
            raise ValueError(f"{what} is for spatial models (rancf.Model(dim=3)); a planar "
                             "point's position is position(point), its slope in nodes")
        if point.kind == ARC:
            raise ValueError(f"{what} of a point between two nodes ({point!r}) is not "
                             "available: such a point gives position(), velocity(), "
                             "orientation(), angular_velocity() and deflection(); a node's "
                             "(beam.node(i)) gives every output")
        body, offset = self.model.body_of(point)
        n = len(self.t)
        if body < 0:
            zero = np.zeros((n, 3))
            return zero, np.broadcast_to(np.eye(3), (n, 3, 3)).copy(), zero, zero, offset
        pose, rate = self.nodes[:, body], self.velocities[:, body]
        return (pose[:, :3], pose[:, 3:].reshape(n, 3, 3), rate[:, :3], rate[:, 3:], offset)

    def position(self, point):
        """Trajectory of a point of the model.

        Parameters
        ----------
        point : Point
            ``b.end``, ``b.node(i)``, ``r.point(dx, dy)`` (``r.point(dx, dy, dz)`` in a spatial
            model), ``r.centre``, ``b.at(s)`` (between nodes: the element's interpolation,
            :func:`rancf.results.outputs.planar_position`,
            :func:`rancf.results.outputs.spatial_arc_motion`), ...

        Returns
        -------
        ndarray (n_out, 2) or (n_out, 3)
            x, y (and z in a spatial model) at every output (m).

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
        A = self._point(point, "position()")
        if self.model.dim == 3:
            if point.kind == ARC:
                return self._arc_motion(point, False)[0]
            r, frame, _, _, offset = self._body_motion(point, "position()")
            return r + frame @ offset
        from .outputs import planar_position
        return planar_position(A, point, self.nodes.reshape(len(self.t), -1))

    def orientation(self, point):
        """The frame of the body a point is on, at every output (spatial models).

        Parameters
        ----------
        point : Point
            A point of a spatial model: a beam node's frame (columns: the beam axis x and the
            section axes y, z) or a rigid body's frame; the identity for a ground point.

        Returns
        -------
        ndarray (n_out, 3, 3)
            Rotation matrices, columns the body axes in global coordinates.

        Raises
        ------
        TypeError
            ``point`` is not a point.
        ValueError
            A planar model's point, a point of another model, or a Result loaded without its
            model.

        Examples
        --------
        >>> m = rancf.Model(dim=3)
        >>> r = m.add_rigid_body(1.0, np.diag([0.01, 0.02, 0.03]), position=(0.5, 0.0, 0.0))
        >>> pin = m.add_joint("spherical", m.ground.point(0, 0, 0), r.point(-0.5, 0, 0))
        >>> res = rancf.simulate(m, t_end=0.1, dt=1e-3)
        >>> frames = res.orientation(r.centre)
        >>> bool(np.allclose(frames @ frames.transpose(0, 2, 1), np.eye(3)))
        True
        """
        if isinstance(point, Point) and point.kind == ARC:
            self._point(point, "orientation()")
            if self.model.dim == 3:
                return self._arc_motion(point, False)[1]
        return self._body_motion(point, "orientation()")[1].copy()

    def velocity(self, point):
        """Velocity of a point at every output: the stored rates of its coordinates (planar: a
        node's ``r'``, a body point's ``r_G' + A(d) u'``, a point at an arc length's Hermite
        interpolation of the rates); spatial: ``v + w x (A offset)``, at an arc length the rate
        of the element's interpolation (:func:`rancf.results.outputs.spatial_arc_motion`).

        Parameters
        ----------
        point : Point
            A point of the model (zero velocity for a ground point).

        Returns
        -------
        ndarray (n_out, 2) or (n_out, 3)
            m/s, global coordinates.

        Raises
        ------
        TypeError
            ``point`` is not a point.
        ValueError
            A point of another model, or a Result loaded without its model.

        Examples
        --------
        >>> m = rancf.Model(dim=3)
        >>> r = m.add_rigid_body(1.0, np.diag([0.01, 0.02, 0.03]), position=(0.5, 0.0, 0.0))
        >>> pin = m.add_joint("spherical", m.ground.point(0, 0, 0), r.point(-0.5, 0, 0))
        >>> res = rancf.simulate(m, t_end=0.1, dt=1e-3)
        >>> bool(np.allclose(res.velocity(r.point(-0.5, 0, 0)), 0.0, atol=1e-12))  # the pin
        True
        """
        if self.model is not None and self.model.dim == 2:
            from .outputs import velocity
            return velocity(self, point)
        if isinstance(point, Point) and point.kind == ARC:
            self._point(point, "velocity()")
            return self._arc_motion(point, True)[2]
        _, frame, v, w, offset = self._body_motion(point, "velocity()")
        return v + np.cross(w, frame @ offset)

    def acceleration(self, point):
        """Acceleration of a point at every output, from the forward dynamics of the
        formulation that ran at each stored state (not by differencing the stored
        velocities): computed for every output on the first call and kept.

        Planar: one right-hand side of the recursive formulation, or one saddle-point solve of
        the DAE's, per output (:func:`rancf.results.outputs.dynamics`, shared with
        :meth:`reaction`). Spatial: the link coordinates and rates of each stored frame
        (:meth:`rancf.formulations.spatial.Spatial.state_of`; a joint's angle the run's
        continuous one, :meth:`joint`) and one evaluation of the O(n) recursion there give
        every body's acceleration ``(a, alpha)`` (a closed loop's, or a DAE run's with
        cables: the spatial DAE's saddle-point solve); the point's is ``a + alpha x o + w x
        (w x o)``, o its offset from the body's origin
        (:func:`rancf.results.outputs.spatial_accelerations`). A frame of
        :func:`rancf.static` is an equilibrium at rest: zero.

        Parameters
        ----------
        point : Point
            A point of the model (zero acceleration for a ground point).

        Returns
        -------
        ndarray (n_out, 2) or (n_out, 3)
            m/s^2, global coordinates (NaN at the non-finite frames of a diverged run).

        Raises
        ------
        TypeError
            ``point`` is not a point.
        ValueError
            A point of another model, or a Result loaded without its model.

        Examples
        --------
        A pendulum released at rest: its pin stays, its tip starts falling.

        >>> m = rancf.pendulum(n_bodies=1, elements_per_body=2, body_length=1.0)
        >>> res = rancf.simulate(m, t_end=0.1, dt=1e-3, output_every=50)
        >>> pin, tip = res.acceleration(m.beams[0].start), res.acceleration(m.beams[0].end)
        >>> tip.shape, bool(np.abs(pin).max() < 1e-12 and tip[0, 1] < 0.0)
        ((3, 2), True)

        A spatial body turned about z at 3 rad/s: its centre, 0.5 m from the axis, accelerates
        towards it by ``w^2 r = 4.5`` m/s^2.

        >>> m3 = rancf.Model(dim=3, gravity=(0.0, 0.0, 0.0))
        >>> r = m3.add_rigid_body(1.0, np.diag([0.01, 0.02, 0.03]), position=(0.5, 0.0, 0.0))
        >>> hub = m3.add_joint("revolute", m3.ground.point(0, 0, 0), r.point(-0.5, 0, 0),
        ...                    axis=(0, 0, 1), drive=lambda t: (3.0 * t, 3.0, 0.0))
        >>> res3 = rancf.simulate(m3, t_end=0.1, dt=1e-3, output_every=50)
        >>> a = res3.acceleration(r.centre)
        >>> np.round(np.linalg.norm(a, axis=1), 9)
        array([4.5, 4.5, 4.5])
        """
        self._point(point, "acceleration()")
        if self.model.dim == 3:
            if point.kind == ARC:
                self._body_motion(point, "acceleration()")      # refuses it
            from .outputs import spatial_acceleration
            return spatial_acceleration(self, point)
        from .outputs import acceleration
        return acceleration(self, point)

    def deflection(self, point, body):
        """A point's displacement relative to a body's rigid motion, in the body's frame, at
        every output.

        The body's floating frame is a beam's start node and start tangent (the frame it is
        clamped in; spatial: the start node's frame, columns the beam axis and the section's
        y and z axes) or a rigid body's centre of mass and axis (spatial: its body frame); the
        deflection is the point's position in that frame minus its position in it in the
        model's reference configuration (:func:`rancf.results.outputs.deflection`,
        :func:`rancf.results.outputs.spatial_deflection`): zero under any rigid motion of the
        body with the point.

        Parameters
        ----------
        point : Point
            A point of the model.
        body : Beam or RigidBody
            The body whose rigid motion is taken out.

        Returns
        -------
        ndarray (n_out, 2) or (n_out, 3)
            m: planar along the body's axis and across it; spatial along the body frame's
            axes x, y, z (a beam: its axis and section axes).

        Raises
        ------
        TypeError
            ``point`` is not a point, ``body`` not a beam or rigid body.
        ValueError
            A point or body of another model, or a Result loaded without its model; a
            spatial ANCF cable as ``body`` (its node frames turn freely about the tangent:
            no section frame to take the deflection in).

        Examples
        --------
        A cantilever clamped at 30 degrees under a tip load across it sags by
        ``P L^3 / (3 E I)`` in its own frame.

        >>> E, I, L, P = 2.07e11, 8.333e-6, 2.0, 100.0
        >>> m = rancf.Model(gravity=(0.0, 0.0), elastic_model="reissner")
        >>> b = m.add_beam(L, 4, E=E, rho=7800.0, A=0.01, I=I, angle=np.pi / 6)
        >>> clamp = m.add_joint("fixed", m.ground.point(0.0, 0.0, angle=np.pi / 6), b.start)
        >>> tip = m.add_force(b.end, force=(P * np.sin(np.pi / 6), -P * np.cos(np.pi / 6)))
        >>> sag = rancf.static(m).deflection(b.end, b)[0, 1]
        >>> bool(abs(sag / (-P * L**3 / (3 * E * I)) - 1) < 1e-6)
        True
        """
        self._point(point, "deflection()")
        if self.model.dim == 3:
            from .outputs import spatial_deflection
            return spatial_deflection(self, point, body)
        from .outputs import deflection
        return deflection(self, point, body)

    def angular_velocity(self, point):
        """Angular velocity of the body a point is on, at every output (spatial models).

        Parameters
        ----------
        point : Point
            A point of a spatial model (at an arc length, ``beam.at(s)``: the angular velocity
            of the section frame the element's interpolation gives there).

        Returns
        -------
        ndarray (n_out, 3)
            rad/s, global coordinates (zero for a ground point).

        Raises
        ------
        TypeError, ValueError
            As :meth:`orientation`.

        Examples
        --------
        >>> m = rancf.Model(dim=3)
        >>> r = m.add_rigid_body(1.0, np.diag([0.01, 0.02, 0.03]), position=(0.5, 0.0, 0.0))
        >>> pin = m.add_joint("spherical", m.ground.point(0, 0, 0), r.point(-0.5, 0, 0))
        >>> res = rancf.simulate(m, t_end=0.1, dt=1e-3)
        >>> res.angular_velocity(r.centre).shape
        (11, 3)
        """
        if isinstance(point, Point) and point.kind == ARC:
            self._point(point, "angular_velocity()")
            if self.model.dim == 3:
                return self._arc_motion(point, True)[3]
        return self._body_motion(point, "angular_velocity()")[3].copy()

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
        self._assembly("tip()")
        if not self.model.beams:
            raise ValueError("the model has no beam, so no tip")
        return self.position(self.model.beams[-1].end)

    @property
    def _spatial(self):
        return self._sizes[0] == SPATIAL_POSE

    def _joint_index(self, joint):
        if self.model is not None:
            n = len(self.model.joints)
        elif self._joint_counts is not None:
            n = len(self._joint_counts)
        else:   # a spatial joint's reaction has six entries
            n = self.reactions.shape[1] // 6 if self._spatial else self.joint_q.shape[1]
        if isinstance(joint, Joint):
            if self.model is not None and joint.child.item.model is not self.model:
                raise ValueError(f"joint {joint!r} belongs to another model")
            return joint.index
        # a negative index counts from the end, as state(i) and beam.node(i) do
        if isinstance(joint, (int, np.integer)) and not isinstance(joint, bool) and \
                -n <= joint < n:
            return int(joint) % n
        raise ValueError(f"joint must be a Joint of the model or an index in [{-n}, {n - 1}] "
                         f"(negative counts from the end), got {joint!r}")

    def _joint_columns(self, joint):
        """The columns of a joint's coordinates in joint_q: one per planar joint; a spatial
        joint's coordinates (its kind's ``spatial.n_coordinates``) follow those of the joints
        added before it."""
        k = self._joint_index(joint)
        if self.model is None:
            counts = self._joint_counts
            if counts is None:
                raise ValueError(
                    "this spatial Result was loaded without its model from a file that does "
                    "not record its joints' coordinates (an earlier version's, saved without "
                    "its model): joint() needs the model, rancf.load(path, model=...)")
        elif self.model.dim != 3:
            return k
        else:
            counts = [j.type.spatial.n_coordinates for j in self.model.joints]
        if not self._spatial:
            return k
        first = sum(counts[:k])
        return first if counts[k] == 1 else slice(first, first + counts[k])

    def joint(self, joint):
        """A joint's coordinate and rate over the run.

        Parameters
        ----------
        joint : Joint or int
            A joint of the model (from :meth:`Model.add_joint`) or its index (negative counts
            from the end).

        Returns
        -------
        q : ndarray (n_out,) or (n_out, k)
            Planar: the child's orientation minus the parent's (rad; revolute and fixed joints)
            or the slide (m; prismatic), continuous: turns are not wrapped to (-pi, pi].
            Spatial: the joint's k coordinates (rad or m, in the order and units of its kind's
            ``spatial.units``; a rotation vector for spherical and free joints), (n_out,) when
            k = 1.
        qd : ndarray, the shape of q
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
        k = self._joint_columns(joint)
        return self.joint_q[:, k].copy(), self.joint_qd[:, k].copy()

    def reaction(self, joint, what=None):
        """The reaction of a joint on its child: the force and moment (planar and spatial), or
        the torque or force that holds a fixed or driven joint's coordinate.

        One convention in both dimensions and every formulation: the reaction is what the
        joint's constraint transmits, the force and moment that hold what the joint does not
        free. Its effort and its rotational spring-damper act across the joint too, but they
        are applied forces, as loads and gravity are, and not part of it: a revolute joint's
        reaction has no moment about its axis, a spherical joint's no moment at all, a free
        joint's is zero, whatever spring or effort acts on them. A drive holds its
        coordinate: its torque or force is a reaction. The DAEs' joint multipliers are the
        constraint's alone; the planar recursion applies efforts and springs as node forces,
        which its articulated residual leaves out; the spatial recursion takes their wrench
        out of its link wrench (:meth:`rancf.joints.kind.SpatialMotion.effort_directions`: a
        revolute's moment about its axis, a prismatic's force along it, a spherical joint's
        torque). Each formulation gives the same reaction at a state.

        Parameters
        ----------
        joint : Joint or int
            A joint of the model or its index.
        what : {None, "torque", "angle", "slide"}, optional
            None: the full reaction. ``"torque"`` (or the name of the joint's coordinate:
            ``"angle"`` of a revolute or fixed joint, ``"slide"`` of a prismatic one): the
            generalized reaction of the held or driven coordinate; spatial: of a revolute or
            prismatic joint, the reaction's moment or force along the joint's axis as it turns
            with the parent (:func:`rancf.results.outputs.spatial_axis_reaction`).

        Returns
        -------
        ndarray (n_out, 3), (n_out, 6) or (n_out,)
            Planar, full: ``[fx, fy, m]``, the force (N) and the moment (N m, about the child's
            joint point) the parent exerts on the child through the joint's constraint, in
            global coordinates. Efforts, joint spring-dampers, loads and gravity are not
            part of it (they are applied forces). For a joint written with the ground as
            child (:attr:`rancf.Joint.reversed`), the child is the item. Computed from the
            stored frames on the first call and kept: by the formulation that ran (the
            recursive formulation's articulated forces, the DAE's multipliers of each
            stored state).
            Spatial: ``[fx, fy, fz, mx, my, mz]``, the force (N) and moment (N m) the parent
            exerts on the child through the constraint at the joint point, in global
            coordinates; the joint's effort and spring-damper are not part of it.
            ``"torque"``: N m (revolute, fixed) or N (prismatic), acting on the child; 0 for
            a joint free along its coordinate, whatever its effort or spring. For a drive,
            the motor torque (a spring on the driven joint is the motor's load, not part of
            it); its power is ``reaction * qd``.
            Spatial ``"torque"``: N m (revolute) or N (prismatic), likewise.

        Raises
        ------
        ValueError
            A joint of another model or an index out of range, an unknown ``what`` (spatial:
            ``"torque"`` of a joint other than revolute or prismatic), or the full planar
            reaction of a Result loaded without its model.

        Warns
        -----
        FutureWarning
            Once, for ``reaction(joint)`` of a planar fixed, driven or prismatic joint: before
            this release that call returned the held torque, now ``reaction(joint, "torque")``.

        Examples
        --------
        A beam clamped horizontally: the clamp holds its weight's moment, ``rho A g L^2 / 2``.

        >>> m = rancf.Model(gravity=(0.0, -9.81), elastic_model="reissner")
        >>> b = m.add_beam(1.0, 4, E=2.1e11, rho=7800.0, A=1e-4, I=1e-9)
        >>> clamp = m.add_joint("fixed", m.ground.point(0.0, 0.0), b.start)
        >>> res = rancf.static(m)
        >>> round(float(res.reaction(clamp, "torque")[0]), 2), round(7800.0 * 1e-4 * 9.81 / 2, 2)
        (3.83, 3.83)
        """
        k = self._joint_index(joint)
        if self._spatial:
            if what is None:
                return self.reactions[:, 6 * k:6 * k + 6].copy()
            self._assembly(f"reaction(joint, {what!r}) of a spatial joint (its axis)")
            one = self.model.joints[k].type.spatial.units
            names = ("torque", "slide" if one == ("m",) else "angle")
            if what not in names:
                raise ValueError(f"what must be None (the full reaction) or one of {names}, got "
                                 f"{what!r}")
            from .outputs import spatial_axis_reaction
            return spatial_axis_reaction(self, k, what)
        if what is None:
            if self.model is not None:
                _warn_changed(self.model.joints[k])
            from .outputs import reaction
            return reaction(self, k)
        names = ("torque",)
        if self.model is not None:
            names += ("slide" if self.model.joints[k].type.unit == "m" else "angle",)
        if what not in names:
            raise ValueError(f"what must be None (the full reaction) or one of {names}, got "
                             f"{what!r}")
        return self.reactions[:, k].copy()

    def internal_forces(self, beam, s=None):
        """Section forces of a beam at arc lengths s, at every output, computed from the stored
        frames when first asked.

        Planar: ``[N, Q, M]``, normal force (tension positive), shear force and bending moment
        that the part of the beam beyond s exerts on the part before it, from the element's
        strain measures and its elastic model's law (:func:`rancf.elements.beam.section_forces`
        says which for each model and the sign convention; the shear force is the moment's
        derivative: the planar elements have no shear strain).

        Spatial: normal force, two shear forces, torsion and two bending moments in the
        element's section frame (normal along its axis x, section axes y and z). Each
        element's strains are constant along it (the SE(3) strain; theory: Spatial beams), so
        its section forces ``C (eps - eps0)`` (plus the Kelvin-Voigt part ``c C eps'`` when the
        beam has damping) hold for its whole length, from the element coordinates
        ``u = A_{k-1}^T (r_k - r_{k-1}) - s_k``, ``psi = log(A_{k-1}^T A_k C_k^T)`` and their
        rates. In statics with a small deflection, an element's force is the section force at
        its midpoint (the balance of the nodes beyond it, exactly, for any mesh), its moment
        the moment about its midpoint; in general it is the average over the element of the
        section forces along its SE(3) curve, the midpoint's to second order in the element's
        length.

        Spatial ANCF cable (``add_beam(..., element="ancf-cable")``): ``[N, M_x, M_y, M_z]``,
        the normal force ``N = EA (eps - eps0)`` (N, tension positive) and the bending moment
        vector ``M = EI (1 - k0 / |kappa|) kappa`` (N m, global coordinates, normal to the
        cable: it carries no torsion or shear), each with its Kelvin-Voigt part where the cable
        has damping, that the part beyond s exerts on the part before it, at s itself (default
        the element midpoints), from the cable coordinates the run keeps (``extra``'s
        ``cable_nodes``, ``cable_velocities``) by
        :func:`rancf.elements.ancf_cable.section_forces` (eps0 and k0 the rest state of a
        curved cable, zero on a straight one). With cubic shape functions the moment is of
        lower order than the position and varies within an element: read it at the element
        midpoints, or refine the mesh.

        An s at a node between two elements takes the element that starts there; the beam's
        end takes the last element.

        Parameters
        ----------
        beam : Beam, SpatialBeam or SpatialCable (or a spatial beam's index)
            A beam of the model.
        s : float or array_like (k,), optional
            Arc lengths along the undeformed beam from its start (m), in ``[0, length]``.
            Default: the element midpoints.

        Returns
        -------
        ndarray (n_out, k, 3) planar, (n_out, k, 6) spatial, (n_out, k, 4) a cable
            N and N m; spatial: NaN where an element's relative rotation reached pi.

        Raises
        ------
        TypeError
            ``beam`` not a beam, an s that is not numbers.
        ValueError
            A beam of another model (or a spatial index out of range), s outside the beam, or
            a Result loaded without its model.

        Examples
        --------
        A planar cantilever under a tip load P: the moment at the clamp is ``-P L``.

        >>> m = rancf.Model(gravity=(0.0, 0.0), elastic_model="reissner")
        >>> b = m.add_beam(2.0, 8, E=2.1e11, rho=7800.0, A=1e-2, I=1e-5)
        >>> clamp = m.add_joint("fixed", m.ground.point(0.0, 0.0), b.start)
        >>> tip = m.add_force(b.end, force=(0.0, -100.0))
        >>> N, Q, M = rancf.static(m).internal_forces(b, [0.0, 1.0])[0].T
        >>> np.round(M, 3), np.round(Q, 3)
        (array([-200., -100.]), array([-100., -100.]))

        A spatial clamped bar pulled by 1 kN along its axis carries 1 kN in every element:

        >>> m = rancf.Model(dim=3, gravity=(0.0, 0.0, 0.0))
        >>> b = m.add_beam(1.0, 4, E=2e11, rho=7800.0, A=1e-4, I=(1e-9, 1e-9), J=2e-9, G=8e10)
        >>> clamp = m.add_joint("fixed", m.ground.point(0, 0, 0), b.start)
        >>> pull = m.add_force(b.end, force=(1e3, 0.0, 0.0))
        >>> sections = rancf.static(m).internal_forces(b)
        >>> sections.shape                  # outputs, elements, components
        (1, 4, 6)
        >>> np.round(sections[-1, :, 0], 6)
        array([1000., 1000., 1000., 1000.])
        """
        self._assembly("internal_forces()")
        if self.model.dim == 3:
            from .spatial_sections import internal_forces
            return internal_forces(self, beam, s)
        from .outputs import internal_forces
        if s is None and hasattr(beam, "n_elements"):
            s = (np.arange(beam.n_elements) + 0.5) * (beam.length / beam.n_elements)
        return internal_forces(self, beam, s)

    def state(self, i=-1):
        """The state of an output, to start another run from it.

        Parameters
        ----------
        i : int
            Output index (negative counts from the end; -1 is the last).

        Returns
        -------
        State
            Its node coordinates and velocities; of a spatial model, its bodies' poses and
            velocities (``nodes[i]``, ``velocities[i]`` flattened), then, where it has ANCF
            cables, their nodes' coordinates ``[r, r']`` and rates exactly as the run had them
            (``extra["cable_nodes"][i]``, ``extra["cable_velocities"][i]``: the poses drawn in
            ``nodes`` do not hold the slopes' lengths), the layout of :class:`rancf.State`;
            its joint coordinates (``joint_q[i]``), so that a run from it continues a
            joint turned past pi on its turn; and its cable frames' bases
            (``extra["cable_bases"][i]``, :class:`rancf.State`), so that a run from it draws
            the cable frames this run would have drawn (a file saved without them, an
            earlier version's, gives a State without them: the reference frames).

        Raises
        ------
        IndexError
            ``i`` out of ``[-n_out, n_out - 1]`` (the message gives the range).
        TypeError
            ``i`` not an int.

        Examples
        --------
        >>> m = rancf.pendulum(n_bodies=2, elements_per_body=2, body_length=1.0)
        >>> res = rancf.simulate(m, t_end=0.2, dt=1e-3)
        >>> dae = rancf.simulate(m, 0.1, 1e-3, method="generalized-alpha", formulation="dae",
        ...                      state=res.state(-1))
        >>> dae.status
        'ok'
        """
        n_out = len(self.t)
        if isinstance(i, bool) or not isinstance(i, (int, np.integer)):
            raise TypeError(f"i must be an output index (an int), got {i!r}")
        if not -n_out <= i < n_out:
            raise IndexError(f"i must be an output index in [{-n_out}, {n_out - 1}] (this "
                             f"Result has {n_out} outputs; negative counts from the end), "
                             f"got {i!r}")
        joint_q = self.joint_q[i].copy()
        if "cable_nodes" not in self.extra:
            return State(self.nodes[i].ravel().copy(), self.velocities[i].ravel().copy(),
                         joint_q)
        cables, rates = self.extra["cable_nodes"][i], self.extra["cable_velocities"][i]
        n = self.nodes.shape[1] - cables.size // 6        # the bodies, before the cable nodes
        bases = self.extra.get("cable_bases")
        return State(np.concatenate([self.nodes[i, :n].ravel(), cables.ravel()]),
                     np.concatenate([self.velocities[i, :n].ravel(), rates.ravel()]), joint_q,
                     None if bases is None else bases[i].reshape(-1, 3, 3).copy())

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
        return self._energy_frame().copy()

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
        e = self._energy_frame()
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
            ``vx, vy, vd1, vd2``; in a spatial model ``x, y, z`` of each body's origin (m), its
            velocity ``vx, vy, vz`` (m/s) and angular velocity ``wx, wy, wz`` (rad/s), with
            ``vertex`` the body's index (its frame is in ``nodes``).

        Examples
        --------
        >>> m = rancf.pendulum(n_bodies=1, elements_per_body=2, body_length=1.0)
        >>> frame = rancf.simulate(m, t_end=0.1, dt=1e-3, output_every=50).to_frame()
        >>> frame.shape                       # 3 outputs x 3 vertices, 10 columns
        (9, 10)
        """
        n_out, n_v, size = self.nodes.shape
        data = {"t": np.repeat(self.t, n_v), "vertex": np.tile(np.arange(n_v), n_out)}
        if size == SPATIAL_POSE:
            names = ("x", "y", "z"), ("vx", "vy", "vz", "wx", "wy", "wz")
        else:
            names = ("x", "y", "d1", "d2"), ("vx", "vy", "vd1", "vd2")
        for j, name in enumerate(names[0]):
            data[name] = self.nodes[:, :, j].ravel()
        for j, name in enumerate(names[1]):
            data[name] = self.velocities[:, :, j].ravel()
        import pandas as pd     # (see __init__)
        return pd.DataFrame(data)

    # --- pictures (rancf.results.plotting; matplotlib is imported on first use) ----------------
    def plot(self, t=None, ax=None, trace=()):
        """Draw the deformed mechanism at one output time or several, overlaid.

        Each beam is drawn through its element shape functions (17 points per element, nodes
        marked), each rigid body as its centre and frame with lines to its joint and load
        points, joints by kind and the ground points. Several times are told apart by colour,
        with a colorbar of t; one time is named in the title. A spatial result is drawn in 3D
        with equal scales (:meth:`rancf.Model.plot` of a spatial model says how): beams as the
        polylines through their nodes with each node's section y axis as a tick.

        Parameters
        ----------
        t : float or sequence of float, optional
            Time(s) to draw (s), within ``[t[0], t[-1]]``; a time that is not an output time
            takes the nearest output. Default: the last output.
        ax : matplotlib.axes.Axes, optional
            Where to draw (a 3D Axes for a spatial result); a new figure when None.
        trace : Point or sequence of Point
            Points whose paths over the whole run are drawn (dashed), e.g.
            ``(b.end, r.point(0.1, 0.0))``.

        Returns
        -------
        matplotlib.axes.Axes
            With equal aspect and axes in m (an ``Axes3D`` for a spatial result).

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
        """Animate the mechanism over the run, with the time in each frame.

        Frame k shows the output nearest to ``t[0] + k speed / fps``, so a run of duration T
        gives ``floor(T / speed * fps) + 1`` frames (a video of about ``T / speed`` s); the
        frames index the stored outputs, which are not copied.
        A spatial result is animated in 3D, as :meth:`plot` draws it.

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
        rancf.results.plotting.MechanismAnimation
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
            rad/s or m/s on its twin), t in s. A spatial joint of several coordinates
            (spherical, universal, cylindrical, free) has one colour per coordinate, ``q0``,
            ``q1``, ... solid and their rates ``q0d``, ... dashed.

        Examples
        --------
        >>> m = rancf.pendulum(n_bodies=2, elements_per_body=2, body_length=1.0)
        >>> ax = rancf.simulate(m, t_end=0.2, dt=1e-3).plot_joint(m.joints[1])
        """
        from .plotting import plot_joint
        return plot_joint(self, joint, ax)

    def plot_position(self, point, ax=None):
        """Plot the x and y (and z in a spatial model) of a point of the model against t.

        Parameters
        ----------
        point : Point
            ``b.end``, ``b.node(i)``, ``r.point(dx, dy)`` (``r.point(dx, dy, dz)``), ...
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
    def to_vtk(self, folder, name="result"):
        """Write a spatial result as VTK files for ParaView: one ``.vtu`` per output and a
        ``.pvd`` collection of them with their times (open the ``.pvd``).

        Each file holds the bodies at their origins as points: each beam a polyline (one VTK
        line cell per element), each rigid body a vertex. Point data: the body frame's axes
        ``x_axis``, ``y_axis``, ``z_axis`` (unit vectors in global coordinates; a beam node's
        tangent and section axes), ``velocity`` (m/s) and ``angular_velocity`` (rad/s); cell
        data ``beam`` and ``rigid_body`` (the item's index, -1 on the other kind's cells) and
        each element's section forces as six scalars, ``normal_force``, ``shear_force_y``,
        ``shear_force_z`` (N), ``torsion``, ``bending_moment_y``, ``bending_moment_z`` (N m):
        those of :meth:`internal_forces` at the element midpoints (NaN on a rigid body). An
        ANCF cable is a polyline through its nodes (points after the bodies') carrying its
        own: ``normal_force`` and the moment vector ``cable_bending_moment`` (N m, global;
        NaN on the other cells), its other components NaN (:mod:`rancf.results.vtk`).
        Written with meshio (``pip install rancf[vtk]``) into ``folder``, made with its
        missing parents when it does not exist, atomically: every frame goes to a temporary
        name in ``folder``, the frames are renamed when all are written, the collection last,
        so an interrupted write leaves no file under the final names (a folder it made stays).

        Parameters
        ----------
        folder : str or os.PathLike
            The folder of the files; made, with its missing parents, when it does not exist.
        name : str
            The files are ``<name>_00000.vtu``, ``<name>_00001.vtu``, ... and ``<name>.pvd``.

        Returns
        -------
        str
            The path of the ``.pvd`` file.

        Raises
        ------
        NotADirectoryError
            ``folder``, or one of its parents, is a file.
        OSError
            ``folder`` cannot be written (the message names the file).
        ValueError
            A planar result (to_vtk is for spatial results), a Result loaded without its
            model, a ``name`` with a folder in it.
        ImportError
            meshio is not installed.

        Examples
        --------
        >>> import os, tempfile
        >>> m = rancf.Model(dim=3)
        >>> r = m.add_rigid_body(1.0, np.diag([0.01, 0.02, 0.03]), position=(0.5, 0.0, 0.0))
        >>> pin = m.add_joint("spherical", m.ground.point(0, 0, 0), r.point(-0.5, 0, 0))
        >>> res = rancf.simulate(m, t_end=0.1, dt=1e-3, output_every=50)
        >>> path = res.to_vtk(tempfile.mkdtemp(), name="swing")
        >>> sorted(os.listdir(os.path.dirname(path)))
        ['swing.pvd', 'swing_00000.vtu', 'swing_00001.vtu', 'swing_00002.vtu']
        """
        from .vtk import to_vtk
        return to_vtk(self, folder, name)

    def save(self, path):
        """Write the result to a file, atomically, with its energies.

        The arrays, energies, status, message, counters and ``extra`` are stored, so that
        :func:`rancf.load` reads them back without the model (the model itself is not stored:
        drives and efforts are Python functions), and the model's layout
        (:func:`rancf.results.files.layout`), so that it loads only onto a model of the same
        items and joints. The values the input functions gave at the outputs
        (:attr:`inputs`) are stored too (format 3): the loaded Result's accelerations and
        reactions are this one's, computed without calling the model's functions.

        Parameters
        ----------
        path : str or os.PathLike
            File to write (NumPy ``.npz``, compressed). It is written to a temporary file in
            the same folder, synced to disk, then renamed: an interrupted save leaves any
            previous file whole, and a temporary left by a killed save is removed by the next
            save to that folder. The file gets the permissions the user's umask gives.

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
        from .files import save
        save(self, path)


def result_of(model, solution, method_reason=""):
    """The :class:`Result` of a run: what an integrator returned, for the model it ran.

    The one place a Result is made from a run (:func:`built` its constructor path, which
    :func:`rancf.load` takes too, with a file's arrays as a Solution). The Solution carries the
    model-level arrays at its outputs (node coordinates and velocities, joint coordinates, rates
    and reactions, work and dissipated energy), which its formulation
    mapped from the integrator's states; ``extra`` gains the implicit loop's monitors
    (``constraint_violation``, ``newton_iterations``, ``lambda``) where it kept them.

    Parameters
    ----------
    model : rancf.Model
        The model that was run (the energies are computed from it).
    solution : rancf.integrators.solution.Solution
    method_reason : str
        Why :func:`rancf.simulate`'s method "auto" chose the method ("" when it was named):
        :attr:`Result.method_reason`, and the message of a run that has nothing else to say
        (a failure's or a Ctrl-C's message is kept; developer: Results, files and sweeps).

    Returns
    -------
    Result
        Built with SIGINT held (:func:`~rancf.integrators.held_interrupt.held_interrupt`): a
        Ctrl-C while it is built does not lose the run, whose steps are all done; an "ok" run
        then comes back whole with status "interrupted".
    """
    with held_interrupt() as caught:
        result = built(model, solution, method_reason)
    result.status, result.message = after_steps(result.status, result.message, caught,
                                                result.t[-1] if len(result.t) else 0.0)
    return result


def built(model, solution, method_reason=""):
    """The Result of ``solution`` (:func:`result_of`, without its guard): the one path from
    what a run or a file (:func:`rancf.load`) holds to a :class:`Result`. A Solution whose
    ``extra["energies"]`` holds the energy table (a spatial run's, or the one a file stored)
    gives it to the Result in place of energies computed from ``model`` (None for a file
    read without its model). ``method_reason`` as :func:`result_of` takes it."""
    s = solution
    extra = {name: value for name, value in (("constraint_violation", s.violations),
                                             ("newton_iterations", s.newton_iterations),
                                             ("lambda", s.lam)) if value is not None}
    extra.update(s.extra)
    energy_table, work, dissipated = None, s.work, s.dissipated
    if "energies" in extra or (model.dim == 3 and not callable(s.nodes)):
        # the spatial formulation evaluates the energies with the states (its elastic energy
        # needs the element coordinates, which the poses in nodes hold only implicitly), or
        # gives a callable that does when the Result is first asked for them
        energy_table = extra.pop("energies") if "energies" in extra else \
            {name: extra.pop(name) for name in ("kinetic", "elastic", "gravity")}
    return Result(model, s.t, s.nodes, s.velocities, s.joint_q, s.joint_qd, s.reactions, work,
                  dissipated, status=s.status, message=s.message or method_reason, method=s.method,
                  formulation=s.formulation, stats=s.stats, extra=extra, wall_time=s.wall_time,
                  energy_table=energy_table, error=s.error, method_reason=method_reason,
                  inputs=s.inputs)
