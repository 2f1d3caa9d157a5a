"""Outputs of a :class:`~rancf.results.result.Result` computed from its stored frames when
asked (a stored frame holds the state; developer: Results, files and sweeps): the joints' full
reactions, the accelerations of the nodes, the velocities and accelerations of points, the
internal forces of beams and the deflections of points relative to a body's rigid motion;
planar, and for spatial models the accelerations and deflections (:func:`spatial_accelerations`,
:func:`spatial_acceleration`, :func:`spatial_deflection`).

The reactions and accelerations come from one evaluation of the forward dynamics of the
formulation that ran, at each stored state (:func:`dynamics`): the recursive formulation's
articulated forces (:meth:`rancf.formulations.recursive.Recursive.motion`), or the DAE's
saddle-point solve for the accelerations and multipliers
(:meth:`rancf.formulations.dae.DAE.motion`; also for :func:`rancf.static`, and for the
reduced formulation, whose stored frames are the full model's reconstructed states). They
are computed once per Result and kept on it.
"""
import numpy as np

from ..elements import hermite
from ..elements.ancf_cable import SpatialANCFCable
from ..elements.spatial_beam import SpatialBeam
from ..joints._codes import ANGLE
from ..model.items import ARC, GROUND, Beam, RigidBody
from ..utilities.errors import USER_FUNCTION_ERRORS

#: A spatial body's entries in the outputs (its pose: origin, frame row-major; its twist and
#: its acceleration: v, w), a cable node's ([r, r']), a joint's reaction ([f, m], dual to a
#: twist): the element kinds' sizes.
FRAME, TWIST = SpatialBeam.pose_size, SpatialBeam.node_size
CABLE_NODE = SpatialANCFCable.node_size
WRENCH = TWIST


def dynamics(result):
    """Node accelerations ``(n_out, n_x)`` (m/s^2 and 1/s^2) and the joints' reactions on
    their children ``(n_out, n_joints, 3)`` (``[fx, fy, m]``: N, N, N m about the child's
    joint point, global coordinates) at the stored states of a planar Result, computed on the
    first call and kept on the Result.

    The model's input functions are not called where the run kept their values at the
    outputs: those are played back (:func:`played_inputs`).

    Cost per output: one evaluation of the recursive formulation's right-hand side (O(n), a
    compiled kernel, about one RK4 stage), or one LU of the DAE's saddle-point matrix and its
    constraint Jacobian (about a step of the implicit loop).
    """
    kept = getattr(result, "_dynamics", None)
    if kept is not None:
        return kept
    A = result._assembly("the reactions and accelerations")
    recorded = played_inputs(result, "the reactions and accelerations")
    n_out = len(result.t)
    acc = np.full((n_out, A.n_x), np.nan)
    wrench = np.full((n_out, A.n_joints, 3), np.nan)
    X = result.nodes.reshape(n_out, -1)
    V = result.velocities.reshape(n_out, -1)
    beta = result.extra.get("beta")
    # a run that diverged keeps its non-finite frames: NaN there
    finite = np.flatnonzero(np.isfinite(X).all(axis=1) & np.isfinite(V).all(axis=1))
    if result.formulation == "recursive" and beta is not None and A.recursive_reason is None:
        from ..formulations import recursive
        with recursive.checkout(A) as rec:
            # rates of another layout: the recursion's own, from the node velocities (at each
            # output's time: its drives' rates, the recorded inputs played back)
            fit = beta.shape[1:] != (rec.n_dof,)
            beta = np.zeros((n_out, rec.n_dof)) if fit else beta
            tail = np.zeros(2)
            rec.inputs.played = recorded
            try:
                if fit:
                    M = A.mass_matrix()
                    for i in finite:
                        beta[i] = rec._rates_of(result.t[i], X[i], V[i], M)
                for i in finite:
                    y = np.concatenate([X[i], beta[i], tail])
                    acc[i], wrench[i] = rec.motion(result.t[i], y, result.joint_q[i])
            finally:
                rec.inputs.played = None
            # the kernel is shared by the runs of this model: the next run starts from its
            # own reference branch (Recursive.initial_state), so nothing is left to reset
    else:
        from ..formulations.dae import DAE
        from ..formulations.turns import on_turns
        branch = A.joint_q0
        if A.n_joints and finite.size:
            # the frames follow each other's branch from the first's: a static frame, or a run
            # started from one, may hold an angle statics turned past pi (theory: Joint
            # coordinates), which the reference branch wraps by a turn (a spring pushing the
            # other way, the pin of an off-centre body reacting to that spurious torque)
            angle = np.array([j.type.coordinate == ANGLE for j in A.joints], dtype=bool)
            branch = np.where(angle, on_turns(A.joint_q0, result.joint_q[finite[0]]),
                              A.joint_q0)
        dae = DAE(A, branch=branch)
        dae.inputs.played = recorded
        factor = result.extra.get("load_factor")
        if factor is not None:
            # a static frame: the loads at the load factor reached
            dae.kernel.set_load_factor(float(np.ravel(factor)[-1]))
        for i in finite:
            dae.accept(X[i], V[i], result.t[i])
            acc[i], lam = dae.motion(X[i], V[i], result.t[i], compiled=True)
            wrench[i] = dae.joint_reactions(X[i], lam, result.t[i])
    result._dynamics = kept = (acc, wrench)
    return kept


def played_inputs(result, what):
    """The values of the model's input functions at the outputs that the outputs a Result
    computes from its stored frames play back in the functions' place (``Result._inputs``,
    the run's :class:`~rancf.formulations.inputs.Recorded`, or the one its file kept), or
    None where the model has none or the run kept none: the functions are called at the
    stored frames then. ``what``: the outputs asked for, which a refusal names.

    Raises
    ------
    RuntimeError
        The run kept none and an input function stopped it (:attr:`rancf.Result.error`):
        called again at the stored frames, it would fail again (one that fails on every call
        from then on) or give the value of another call than the run's; the message names it.
        Or the Result was read from a file that holds none (format 2, or a run that kept
        none) and its model has input functions: a Result read from a file never calls them
        (they may have changed since the run); the message names the file.
    """
    recorded = result.__dict__.get("_inputs")
    error = result.error
    read_from = result._read_from
    if (recorded is None and read_from is not None and result.model is not None
            and has_input_functions(result.model)):
        path, version = read_from
        why = (f"its format {version} keeps none" if version < 3 else
               "the run kept none")
        raise RuntimeError(
            f"{what}: {path} holds no values of the model's input functions at its outputs "
            f"({why}), and a Result read from a file does not call them (they may have "
            "changed since the run, and would give other values than the run's); its stored "
            "arrays (nodes, velocities, joint values, reactions, energies) are there; run the "
            "model again for these")
    if recorded is None and isinstance(error, USER_FUNCTION_ERRORS):
        raise RuntimeError(
            f"{what}: the run was stopped by an input function ({error}), and it kept no "
            "values of the model's input functions at its outputs to play back; computing "
            f"them would call the {error.function} function again, which failed; run it "
            "again with the function fixed")
    return recorded


def has_input_functions(model):
    """Whether ``model`` (planar or spatial) has input functions: a drive or an effort given as
    a function, a load of t."""
    return (any(callable(j.drive) or callable(j.effort) for j in model.joints)
            or any(load.time_dependent for load in model.loads))


def planar_position(assembly, point, x):
    """Position (..., 2) of a point of a planar model for coordinates x (..., n_x).

    A point at an arc length (``beam.at(s)``, :class:`~rancf.model.items.ArcPoint`) in the
    element of nodes k, k + 1 is its centreline there, ``S1 r_k + S2 r'_k + S3 r_k+1 + S4
    r'_k+1`` with the cubic Hermite functions at its xi (:func:`rancf.elements.hermite.
    shape_values`, element length ``l = length / n_elements``): linear in x, as every other
    point (the assembly's ``point_position``) is.
    """
    if point.kind != ARC:
        return assembly.point_position(point, x)
    beam = point.item
    ns = assembly.node_size
    v = ns * int(assembly.beam_first_vertex[beam.index] + point.node)
    S1, S2, S3, S4 = hermite.shape_values(point.xi, beam.length / beam.n_elements)
    # a node's coordinates are [x, y, x', y'] (rancf.elements.beam.PlanarANCFBeam)
    return (S1 * x[..., v:v + 2] + S2 * x[..., v + 2:v + 4] + S3 * x[..., v + ns:v + ns + 2]
            + S4 * x[..., v + ns + 2:v + ns + 4])


def _point_rows(assembly, point, coordinates):
    """A point's position rows applied to coordinate rates or accelerations (n_out, n_x): the
    point is linear in its vertex's coordinates (a node's r, a body's ``r_G + A(d) u``, a
    point at an arc length's Hermite interpolation), so its velocity and acceleration are the
    same map of the rates (zero for a ground point)."""
    n = len(coordinates)
    if point.kind == GROUND:
        return np.zeros((n, 2))
    return planar_position(assembly, point, coordinates)


def velocity(result, point):
    """Velocity of a point of a planar model at every output (n_out, 2), m/s."""
    A = result._point(point, "velocity()")
    return _point_rows(A, point, result.velocities.reshape(len(result.t), -1))


def acceleration(result, point):
    """Acceleration of a point of a planar model at every output (n_out, 2), m/s^2, from the
    forward dynamics at the stored states (:func:`dynamics`)."""
    A = result._point(point, "acceleration()")
    return _point_rows(A, point, dynamics(result)[0])


def reaction(result, index):
    """The full reaction ``[fx, fy, m]`` (n_out, 3) of joint ``index`` of a planar model."""
    return dynamics(result)[1][:, index].copy()


# --- internal forces of beams ----------------------------------------------------------------
def internal_forces(result, beam, s):
    """Normal force, shear force and bending moment ``[N, Q, M]`` (n_out, k, 3; N, N, N m) of
    a planar beam at the arc lengths s (k,) of the undeformed beam, at every output
    (:meth:`rancf.Result.internal_forces` calls it for planar models): the element kind's
    :meth:`~rancf.elements.beam.PlanarANCFBeam.section_forces` of the stored coordinates of
    the element each s falls in (the element after a node shared by two, the last at the
    beam's end). :func:`rancf.elements.beam.section_forces` states the strains and the law
    of each elastic model and the sign convention."""
    A = result._assembly("internal_forces()")
    if not isinstance(beam, Beam):
        raise TypeError(f"beam must be a beam of the model, got {beam!r}")
    if beam.model is not result.model:
        raise ValueError(f"beam {beam!r} belongs to another model")
    s = np.atleast_1d(np.asarray(s, dtype=float))
    if s.ndim != 1 or not np.all(np.isfinite(s)) or s.min() < 0.0 or s.max() > beam.length:
        raise ValueError(f"s must be arc lengths in [0, {beam.length:g}] m (the beam's length), "
                         f"got {s!r}")
    kind = A.element_kind
    l = beam.length / beam.n_elements
    element = np.minimum((s / l).astype(int), beam.n_elements - 1)
    first = int(A.beam_first_vertex[beam.index])
    vertices = first + element[:, None] + np.arange(kind.nodes_per_element)
    e = kind.gather(result.nodes.reshape(len(result.t), -1), vertices)    # (n_out, k, size)
    return kind.section_forces(e, s / l - element, l, beam.E * beam.A, beam.E * beam.I)


# --- deflections -----------------------------------------------------------------------------
def _frame(assembly, item, x):
    """The floating frame of a beam (its start node and start tangent) or of a rigid body (its
    centre of mass and axis u) for coordinates x (n, n_x): origin (n, 2), unit axis (n, 2)."""
    point = item.start if isinstance(item, Beam) else item.centre
    origin = assembly.point_position(point, x)
    axis = assembly.point_direction(point, x)
    return origin, axis / np.linalg.norm(axis, axis=-1, keepdims=True)


def deflection(result, point, body):
    """A point's displacement relative to a body's rigid motion, in the body's frame, at every
    output (n_out, 2), m (planar models; :meth:`rancf.Result.deflection`).

    The body's floating frame is its start node and start tangent (a beam: the frame a beam
    is clamped in) or its centre of mass and axis (a rigid body). With ``o`` its origin and
    ``R`` the rotation of its axis, the deflection is ``R(t)^T (p(t) - o(t)) - R_0^T (p_0 -
    o_0)``, the point's position in the body frame now minus in the model's reference
    configuration: zero under any rigid motion of the body with the point; a cantilever's tip
    under a transverse load P has ``[~0, -P L^3 / (3 E I)]`` whatever the clamp's angle.
    """
    A = result._point(point, "deflection()")
    if not isinstance(body, (Beam, RigidBody)):
        raise TypeError(f"body must be a beam or rigid body of the model, got {body!r}")
    if body.model is not result.model:
        raise ValueError(f"body {body!r} belongs to another model")
    x = np.concatenate([A.x0[None], result.nodes.reshape(len(result.t), -1)])
    origin, axis = _frame(A, body, x)
    rel = planar_position(A, point, x) - origin
    # R^T rel with R = [[a_x, -a_y], [a_y, a_x]]
    local = np.stack([axis[:, 0] * rel[:, 0] + axis[:, 1] * rel[:, 1],
                      axis[:, 0] * rel[:, 1] - axis[:, 1] * rel[:, 0]], axis=1)
    return local[1:] - local[0]


# --- spatial models --------------------------------------------------------------------------
def spatial_accelerations(result):
    """Every body's acceleration ``(a, alpha)`` (n_out, n_bodies, 6; m/s^2 of its origin,
    rad/s^2, global) at the stored states of a spatial Result, from the forward dynamics of
    the spatial recursion: computed on the first call and kept on the Result. A model with
    cables has its cable nodes' rows after the bodies' (:func:`_state_accelerations`,
    which also runs the spatial DAE where that ran); a model with a closed loop runs the
    spatial DAE (the recursion runs trees), and so does a spatial DAE run of a tree whose
    input functions' values it kept (they are the DAE's, played back on it).

    The stored poses and velocities give back the link coordinates and rates of every
    frame (:func:`link_states`, vectorized over the frames), and one evaluation of the
    recursion at each (:meth:`~rancf.formulations._spatial.SpatialKernel.evaluate`, O(n))
    leaves the body accelerations ``V' = X V_p' + H qdd + c``: no differencing of the stored
    velocities, so the output spacing does not enter. The poses give a joint's angle within
    (-pi, pi] (a rotation vector's angle at most pi); it is moved to the run's continuous
    angle (a SciPy run's rotation vector to its branch past pi, :func:`on_stored_turns`), so
    that a spring's rest angle or an effort of the angle past pi acts as in the run. Cost
    per output: about one right-hand side of the recursion (an RK4 step has four). A frame
    of :func:`rancf.static` is an equilibrium at rest: zeros (NaN where the solve failed); a
    non-finite frame of a diverged run gives NaN.
    """
    kept = getattr(result, "_spatial_accelerations", None)
    if kept is not None:
        return kept
    from ..formulations import spatial
    tree = result.model.build()
    n_out, n = len(result.t), tree.n_bodies
    acc = np.full((n_out, n + tree.n_cable_nodes, 6), np.nan)
    X = result.nodes.reshape(n_out, -1)
    V = result.velocities.reshape(n_out, -1)
    finite = np.flatnonzero(np.isfinite(X).all(axis=1) & np.isfinite(V).all(axis=1))
    if "load_factor" in result.extra:
        if result.status == "ok":
            acc[finite] = 0.0
    else:
        recorded = played_inputs(result, "the accelerations")
        # the values kept are those of the formulation that ran (its functions' numbering):
        # a spatial DAE run's played back on the spatial DAE, a tree's too
        if tree.n_cable_nodes or len(tree.loop_joint) or (recorded is not None and
                                                          result.formulation == "dae"):
            acc[finite] = _state_accelerations(result, finite, recorded)
            result._spatial_accelerations = acc
            return acc
        formulation = spatial.of_model(result.model)
        Y = on_stored_turns(result.model, formulation, np.asarray(result.joint_q)[finite],
                            link_states(formulation, X[finite], V[finite]))
        with formulation.inputs.playing(recorded):
            for i, y in zip(finite, Y):
                status, _ = formulation.kernel.evaluate(result.t[i], y)
                if not status:
                    acc[i] = formulation.kernel.arrays["acc"][:TWIST * n].reshape(n, TWIST)
    result._spatial_accelerations = acc
    return acc


def on_stored_turns(model, formulation, jq, Y):
    """The recursion's states Y (m, n_y) read from poses (a Result's frames, a
    :class:`rancf.State`'s), every free angle (a revolute joint's, a cylindrical joint's
    second coordinate, a universal joint's two) moved by the whole turns that take it
    nearest its continuous joint coordinate in jq (m, n_joint_q: rows of ``Result.joint_q``,
    theory: Joint coordinates; :func:`rancf.formulations.turns.on_turns`), and every rotation vector
    of a spherical or free link put on the branch of its vector in jq
    (:func:`_on_stored_branch`), in place; returns Y. An entry of jq that is not the
    coordinates' own modulo a turn (:func:`rancf.formulations.turns.on_agreeing_turns`: a State of
    another model) leaves its angle or vector as read. A driven angle is its drive's at t,
    continuous already."""
    from ..formulations.turns import agrees_on_branch, on_agreeing_turns
    from ..joints.kind import link_motion
    from ..formulations.spatial import _link_coordinates
    tree = formulation.tree
    start = np.cumsum([0] + [j.type.spatial.n_coordinates for j in model.joints])
    smap = formulation.kernel.arrays["smap"]
    n_free = formulation.n_y // 2
    jq = np.asarray(jq, dtype=float).reshape(len(Y), -1)
    for j, b in enumerate(np.asarray(tree.joint_body, dtype=int)):
        if not 0 <= b < tree.n_bodies:          # closing a loop, or at a cable node
            continue
        motion = link_motion(int(tree.motion[b]))
        for c in motion.angles:
            s = int(smap[int(tree.q_offset[b]) + c])
            if s >= 0:
                Y[:, s] = on_agreeing_turns(Y[:, s], jq[:, start[j] + c])
        if motion.vector >= 0:
            # never driven: the three coordinates are the state's
            c = motion.vector
            s = smap[int(tree.q_offset[b]) + c + np.arange(3)]
            vector = jq[:, start[j] + c:start[j] + c + 3]
            p, pd = _on_stored_branch(Y[:, s], Y[:, n_free + s], vector)
            same = agrees_on_branch(Y[:, s], vector)[:, None]
            Y[:, s], Y[:, n_free + s] = (np.where(same, p, Y[:, s]),
                                         np.where(same, pd, Y[:, n_free + s]))
    return Y


def _on_stored_branch(p, pd, stored):
    """Rotation vectors p (m, 3) read from poses (angles at most pi) and their rates pd
    (m, 3), returned (copies) each on the branch nearer the run's stored vector (``stored``,
    m, 3: ``joint_q``; :func:`rancf.formulations.turns.on_branch`: SciPy's solvers keep
    a vector past pi, the compiled loop re-centres it, ``SpatialKernel.recentre``). A spring
    or effort of the vector then acts as in the run."""
    from ..formulations.turns import on_branch
    p, pd = np.array(p, dtype=float), np.array(pd, dtype=float)
    for i in range(len(p)):
        p[i], pd[i] = on_branch(p[i], pd[i], stored[i])
    return p, pd


def _state_accelerations(result, frames, recorded=None):
    """:func:`spatial_accelerations` of a model with ANCF cables or closed loops (or of a
    spatial DAE run that kept its input values) at the finite frames (m, n_bodies +
    n_cable_nodes, 6), from the formulation that ran: the recursion (the link coordinates and rates of each frame's poses and cable coordinates,
    :meth:`~rancf.formulations.spatial.Spatial.state_of` unchecked, the angles on the run's
    turns, :func:`on_stored_turns`, and one evaluation of the O(n) recursion) or the
    spatial DAE (its saddle-point solve at each frame's absolute coordinates,
    :meth:`~rancf.formulations.spatial_dae.SpatialDAE.multipliers`, its reference angles
    on the run's, :meth:`~rancf.formulations.spatial_dae.SpatialDAE.accept_stored_angles`);
    ``recorded`` the run's values of the input functions at the outputs played back in their
    place (a :class:`~rancf.formulations.inputs.Recorded`; None: the functions).
    The stored poses hold a cable node's tangent, not its slope's length: the state is the
    run's ``extra["cable_nodes"]`` and ``extra["cable_velocities"]`` (``Result.state``). A
    cable node's row is ``(r_tt, alpha)``: its point's acceleration and the angular
    acceleration of its drawn frame (angular velocity ``t x t_t``), ``alpha = t x t_tt = (t x
    s_tt - 2 (t . s_t) (t x t_t)) / |s|`` with s = r' its slope, ``t = s / |s|``, ``t_t =
    (s_t - t (t . s_t)) / |s|`` (subscript t: time derivatives)."""
    import contextlib
    from ..formulations import spatial
    from ..formulations.spatial_dae import SpatialDAE, _functions_replaced

    model, tree = result.model, result.model.build()
    n, nc = tree.n_bodies, tree.n_cable_nodes
    states = [result.state(int(i)) for i in frames]
    out = np.empty((len(frames), n + nc, 6))
    if result.formulation == "dae":
        dae = SpatialDAE(tree, *spatial.model_inputs(model))
        jq = np.asarray(result.joint_q)
        with (contextlib.nullcontext() if recorded is None else
              _functions_replaced(dae, recorded.played)):
            for k, (i, state) in enumerate(zip(frames, states)):
                x, v = dae.state_of_poses(state.x, state.v, result.t[i], tol=np.inf)
                dae.accept_stored_angles(x, v, jq[i])
                a, _ = dae.multipliers(x, v, result.t[i])
                out[k, :n] = dae.accelerations(x, v, a)
                out[k, n:] = a[dae._c0:].reshape(nc, 6)
    else:
        formulation = spatial.of_model(model)
        N = n + nc
        with formulation.inputs.playing(recorded):
            Y = on_stored_turns(model, formulation, np.asarray(result.joint_q)[frames], np.array(
                [formulation.state_of(s.x, s.v, result.t[i], check=False)
                 for i, s in zip(frames, states)]).reshape(len(frames), formulation.n_y))
            for k, (i, y) in enumerate(zip(frames, Y)):
                status, _ = formulation.kernel.evaluate(result.t[i], y)
                out[k] = np.nan if status else \
                    formulation.kernel.arrays["acc"][:TWIST * N].reshape(N, TWIST)
    if not nc:
        return out
    # a cable node's row from the slope's second rate to its drawn frame's alpha
    e = np.array([s.x[FRAME * n:] for s in states]).reshape(-1, nc, CABLE_NODE)
    ed = np.array([s.v[TWIST * n:] for s in states]).reshape(-1, nc, CABLE_NODE)
    s, sd, sdd = e[..., 3:], ed[..., 3:], out[:, n:, 3:].copy()
    length = np.linalg.norm(s, axis=2)[..., None]
    t = s / length
    along = np.einsum("mki,mki->mk", t, sd)[..., None]
    td = (sd - t * along) / length
    out[:, n:, 3:] = (np.cross(t, sdd) - 2.0 * along * np.cross(t, td)) / length
    return out


def spatial_acceleration(result, point):
    """Acceleration of a point of a spatial model at every output (n_out, 3), m/s^2, global:
    ``a + alpha x o + w x (w x o)`` of its body (:func:`spatial_accelerations`) with ``o =
    A offset`` the point's offset from the body's origin (zero for a ground point)."""
    body, offset = result.model.body_of(point)
    n = len(result.t)
    if body < 0:
        return np.zeros((n, 3))
    acc = spatial_accelerations(result)[:, body]
    o = result.nodes[:, body, 3:].reshape(n, 3, 3) @ offset
    w = result.velocities[:, body, 3:]
    return acc[:, :3] + np.cross(acc[:, 3:], o) + np.cross(w, np.cross(w, o))


def spatial_deflection(result, point, body):
    """A point's displacement relative to a body's rigid motion, in the body's frame, at every
    output (n_out, 3), m (spatial models; :meth:`rancf.Result.deflection`).

    The same definition as the planar :func:`deflection`: the body's floating frame is a
    beam's start node (its position and frame: the frame a beam is clamped in; columns the
    beam axis and the section's y and z axes) or a rigid body's centre of mass and body
    frame. With ``o``, ``A`` its origin and frame, the deflection is ``A(t)^T (p(t) - o(t)) -
    A_0^T (p_0 - o_0)``, the point's position in the body frame now minus in the model's
    reference configuration: zero under any rigid motion of the body with the point; a
    cantilever's tip under a small tip force P along the section's y axis has ``[~0,
    P L^3 / (3 E I_z), ~0]``.
    """
    from ..model.spatial_items import SpatialBeam, SpatialCable, SpatialRigidBody
    if isinstance(body, SpatialCable):
        # a cable node's frame turns freely about the tangent (no torsion): its y and z
        # axes are not material, so there is no frame to take the rigid motion out in
        raise ValueError(f"body={body!r} is an ANCF cable, which has no section frame to "
                         "take the deflection in; body must be an SE(3) beam or a rigid body")
    if not isinstance(body, (SpatialBeam, SpatialRigidBody)):
        raise TypeError(f"body must be a beam or rigid body of the model, got {body!r}")
    if body.model is not result.model:
        raise ValueError(f"body {body!r} belongs to another model")
    tree = result.model.build()
    b, _ = result.model.body_of(body.start if isinstance(body, SpatialBeam) else body.centre)
    n = len(result.t)
    frame = result.nodes[:, b, 3:].reshape(n, 3, 3)
    local = np.einsum("nji,nj->ni", frame, result.position(point) - result.nodes[:, b, :3])
    if point.kind == ARC:
        reference = np.concatenate([tree.r0, tree.A0.reshape(-1, 9)], axis=1)[None]
        p0 = spatial_arc_motion(tree, point, reference)[0][0]
    else:
        p, offset = result.model.body_of(point)
        p0 = offset if p < 0 else tree.r0[p] + tree.A0[p] @ offset
    return local - tree.A0[b].T @ (p0 - tree.r0[b])


def spatial_axis_reaction(result, index, what="torque"):
    """The generalized reaction of a spatial revolute or prismatic joint's coordinate at every
    output (n_out,), N m or N (:meth:`rancf.Result.reaction` with ``what="torque"``).

    The joint's axis is fixed in the parent: at an output it is ``a(t) = A_p(t) A_p0^T a_0``,
    with ``A_p`` the frame of the parent's body (the identity for the ground) and ``a_0`` the
    axis given in the reference configuration. The reaction ``[f, m]`` the parent exerts on the
    child at the joint point is projected on it: ``a . m`` for a revolute joint (the motor
    torque of a drive, the torque holding the angle), ``a . f`` for a prismatic one. Its power on
    the child is ``reaction * qd``. A joint free about its axis transmits none (0 to round-off),
whatever its effort or spring-damper (applied forces, not part of the reaction).
    ``what``: the name the caller asked for (``"torque"``, ``"angle"``, ``"slide"``), which a
    refusal repeats.
    """
    joint = result.model.joints[index]
    if not joint.type.spatial.takes_drive:
        raise ValueError(f"what={what!r} needs a revolute or prismatic joint (one coordinate "
                         f"along an axis), got a {joint.kind} joint; its reaction is "
                         f"reaction(joint), (n_out, 6)")
    body, _ = result.model.body_of(joint.parent)
    n = len(result.t)
    if body < 0:
        axis = np.broadcast_to(joint.axis, (n, 3))
    else:
        tree = result.model.build()
        frame = result.nodes[:, body, 3:].reshape(n, 3, 3)
        axis = frame @ (tree.A0[body].T @ joint.axis)
    # the moment's about a turning axis, the force's along a sliding one
    column = 3 if joint.type.spatial.units == ("rad",) else 0
    return np.einsum("ni,ni->n", axis, result.reactions[:, WRENCH * index + column:
                                                         WRENCH * index + column + 3])


def _rotation_vectors(R):
    """log(R) (m, 3) of rotations R (m, 3, 3), angle at most pi."""
    from scipy.spatial.transform import Rotation
    return Rotation.from_matrix(R).as_rotvec() if len(R) else np.zeros((0, 3))


def _left_jacobian_inverse(p, w):
    """``J_l(p)^-1 w`` (m, 3) for rotation vectors p and angular velocities w (m, 3): the
    rotation vector's rate of ``exp(p^)`` turning at w (global). ``J_l^-1 = I - p^ / 2 +
    (1 / a^2 - (1 + cos a) / (2 a sin a)) p^ p^``, a = |p| (series below 1e-4)."""
    a = np.linalg.norm(p, axis=1)
    small = a < 1e-4
    safe = np.where(small, 1.0, a)
    c = np.where(small, 1.0 / 12.0 + a**2 / 720.0,
                 1.0 / safe**2 - (1.0 + np.cos(safe)) / (2.0 * safe * np.sin(safe)))
    pw = np.cross(p, w)
    return w - 0.5 * pw + c[:, None] * np.cross(p, pw)


def _left_jacobian(p, w):
    """``J_l(p) w`` (m, 3) for rotation vectors p (m, 3): ``w + b p x w + c p x (p x w)``,
    ``b = (1 - cos a) / a^2``, ``c = (a - sin a) / a^3``, a = |p|; below a = 1e-2 by their
    series to a^6 (the closed forms lose ``1e-16 / a^2`` to cancellation, the series' next
    terms are below 1e-20)."""
    a = np.linalg.norm(p, axis=1)
    small = a < 1e-2
    safe = np.where(small, 1.0, a)
    a2 = a**2
    b = np.where(small, 0.5 - a2 / 24.0 + a2**2 / 720.0 - a2**3 / 40320.0,
                 (1.0 - np.cos(safe)) / safe**2)
    c = np.where(small, 1.0 / 6.0 - a2 / 120.0 + a2**2 / 5040.0 - a2**3 / 362880.0,
                 (safe - np.sin(safe)) / safe**3)
    pw = np.cross(p, w)
    return w + b[:, None] * pw + c[:, None] * np.cross(p, pw)


def _arc_local(p, d, xi):
    """A point at xi in an element whose second node is at d (m, 3) in its first node's frame,
    turned by the rotation vector p (m, 3): ``J_l(xi p) xi J_l(p)^-1 d``, the translation of
    ``exp(xi log(g))`` for the element's relative pose g (its constant-strain curve)."""
    return _left_jacobian(xi * p, xi * _left_jacobian_inverse(p, d))


def spatial_arc_motion(tree, point, poses, rates=None):
    """Position, frame and velocity of a point at an arc length of a spatial beam
    (``beam.at(s)``) for the bodies' poses (and velocities) of m frames.

    The element joining nodes k and k + 1 has constant strain: its centreline and section
    frames are the SE(3) curve ``g(xi) = g_k exp(xi log(g_k^-1 g_k+1))`` (theory: Spatial beams;
    g a node's pose), ``xi`` the point's place in it. With ``p = log(A_k^T A_k+1)`` and ``d =
    A_k^T (r_k+1 - r_k)``: ``A(xi) = A_k exp(xi p^)`` and ``r(xi) = r_k + A_k J_l(xi p) xi
    J_l(p)^-1 d`` (:func:`_arc_local`), the nodes' own poses at xi = 0 and 1. Its velocity
    is ``v_k + w_k x (r - r_k) + A_k L'``, with L' the rate of ``_arc_local`` along the
    elements' rates ``p' = J_l(p)^-1 A_k^T (w_k+1 - w_k)`` and ``d' = A_k^T (v_k+1 - v_k -
    w_k x (r_k+1 - r_k))``, by a central difference of step ``1e-5 (1 + |p| + |d| / l) /
    (|p'| + |d'| / l)`` in time (relative error of order 1e-10, that step squared). The frame's
    angular velocity is ``w_k + A_k J_l(xi p) xi p'``, exactly.

    Parameters
    ----------
    tree : rancf.model.spatial_tree.SpatialTree
    point : rancf.model.items.ArcPoint
    poses : ndarray (m, n_bodies, 12)
        Origins and frames (row-major), as ``Result.nodes``.
    rates : ndarray (m, n_bodies, 6), optional
        Velocities and angular velocities, as ``Result.velocities``.

    Returns
    -------
    r : ndarray (m, 3)
        m.
    A : ndarray (m, 3, 3)
        The section frame there (columns: the curve's tangent, the section's y and z).
    v, w : ndarray (m, 3) or None
        Velocity (m/s) and the frame's angular velocity (rad/s); None without rates.
    """
    from scipy.spatial.transform import Rotation
    beam, xi = point.item, point.xi
    first = int(tree.beam_nodes[beam.index]) + point.node
    a, b = int(tree.node_body[first]), int(tree.node_body[first + 1])
    m = len(poses)
    ra, rb = poses[:, a, :3], poses[:, b, :3]
    Aa, Ab = poses[:, a, 3:].reshape(m, 3, 3), poses[:, b, 3:].reshape(m, 3, 3)
    back = Aa.transpose(0, 2, 1)
    p = _rotation_vectors(back @ Ab)
    d = np.einsum("mij,mj->mi", back, rb - ra)
    offset = np.einsum("mij,mj->mi", Aa, _arc_local(p, d, xi))
    frame = Aa @ Rotation.from_rotvec(xi * p).as_matrix() if m else np.zeros((0, 3, 3))
    if rates is None:
        return ra + offset, frame, None, None
    va, wa, vb, wb = rates[:, a, :3], rates[:, a, 3:], rates[:, b, :3], rates[:, b, 3:]
    pd = _left_jacobian_inverse(p, np.einsum("mij,mj->mi", back, wb - wa))
    dd = np.einsum("mij,mj->mi", back, vb - va - np.cross(wa, rb - ra))
    l = float(beam.element_lengths()[point.node])
    size = 1.0 + np.linalg.norm(p, axis=1) + np.linalg.norm(d, axis=1) / l
    speed = np.linalg.norm(pd, axis=1) + np.linalg.norm(dd, axis=1) / l
    h = np.where(speed > 0.0, 1e-5 * size / np.where(speed > 0.0, speed, 1.0), 0.0)[:, None]
    moving = h[:, 0] > 0.0
    rate = np.zeros((m, 3))
    hm = h[moving]
    rate[moving] = (_arc_local(p[moving] + hm * pd[moving], d[moving] + hm * dd[moving], xi)
                    - _arc_local(p[moving] - hm * pd[moving], d[moving] - hm * dd[moving], xi)
                    ) / (2.0 * hm)
    v = va + np.cross(wa, offset) + np.einsum("mij,mj->mi", Aa, rate)
    w = wa + np.einsum("mij,mj->mi", Aa, _left_jacobian(xi * p, xi * pd))
    return ra + offset, frame, v, w


def link_states(formulation, X, V):
    """The states ``y = (q, qd)`` (m, n_y) of the spatial formulation whose kinematics give the
    bodies' poses X (m, 12 n) and velocities V (m, 6 n): the inverse of
    :meth:`rancf.formulations.spatial.Spatial.kinematics`, as
    :meth:`~rancf.formulations.spatial.Spatial.state_of` (which checks the result and is
    per frame), vectorized over the frames, a loop over the bodies.

    Body i on its link from parent p: ``R(q) = A_p^T A_i Q^T``, ``t(q) = A_p^T (x - r_p) -
    anchor`` with ``x = r_i + A_i offset`` the link's point; its relative angular velocity
    in the parent's frame ``w_r = A_p^T (w_i - w_p) = Jr qd`` and the rate of t, ``A_p^T (v_i
    + w_i x o - v_p - w_p x (x - r_p)) = T qd``. Angles about the axes and slides along them,
    rotation vectors (angle at most pi) with rates ``J_l(q)^-1 w_r``; a universal link's
    rates are ``w_r`` along its two axes (orthogonal: ``a0`` and ``exp(q0 a0^) a1``).
    """
    from ..joints._codes import R_AXIS, R_TWO_AXES, R_VECTOR, T_AXIS, T_FREE
    from ..joints.kind import link_motion
    from ..formulations.spatial import _link_coordinates
    tree = formulation.tree
    m, n = len(X), tree.n_bodies
    X, V = X.reshape(m, n, FRAME), V.reshape(m, n, TWIST)
    r, A = X[..., :3], X[..., 3:].reshape(m, n, 3, 3)
    q, qd = np.zeros((m, tree.n_q)), np.zeros((m, tree.n_q))
    for i in range(n):
        p = tree.parent[i]
        if p >= 0:
            Ap, rp, vp, wp = A[:, p], r[:, p], V[:, p, :3], V[:, p, 3:]
        else:
            Ap = np.broadcast_to(np.eye(3), (m, 3, 3))
            rp = vp = wp = np.zeros((m, 3))
        o = A[:, i] @ tree.offset[i]
        x = r[:, i] + o
        back = Ap.transpose(0, 2, 1)
        R = back @ A[:, i] @ tree.relative[i].T
        # A_p^T applied to the joint's relative position, angular velocity and velocity
        t, w_r, t_rate = np.moveaxis(back @ np.stack(
            [x - rp, V[:, i, 3:] - wp,
             V[:, i, :3] + np.cross(V[:, i, 3:], o) - vp - np.cross(wp, x - rp)], axis=2), 2, 0)
        t = t - tree.anchor[i]
        k = slice(int(tree.q_offset[i]), int(tree.q_offset[i + 1]))
        a0, a1 = tree.axes[i]
        q[:, k] = _link_coordinates(int(tree.motion[i]), tree.axes[i], R, t)
        motion = link_motion(int(tree.motion[i]))
        # the translation's rates, then the rotation's from c
        c = k.start + motion.n_translation
        if motion.translation == T_AXIS:
            qd[:, k.start] = t_rate @ a0
        elif motion.translation == T_FREE:
            qd[:, k.start:c] = t_rate
        if motion.rotation == R_AXIS:
            qd[:, c] = w_r @ a0
        elif motion.rotation == R_TWO_AXES:
            q0 = q[:, c]
            b1 = np.cos(q0)[:, None] * a1 + np.sin(q0)[:, None] * np.cross(a0, a1)  # a0 _|_ a1
            qd[:, c:k.stop] = np.column_stack([w_r @ a0, np.einsum("mi,mi->m", w_r, b1)])
        elif motion.rotation == R_VECTOR:
            qd[:, c:k.stop] = _left_jacobian_inverse(q[:, c:k.stop], w_r)
    smap = formulation.kernel.arrays["smap"][:tree.n_q]
    free = smap >= 0
    Y = np.zeros((m, formulation.n_y))
    Y[:, smap[free]] = q[:, free]
    Y[:, formulation.n_free + smap[free]] = qd[:, free]
    return Y
