"""The initial state of a run from ``simulate``'s ``state``: None (the reference configuration
at rest but for the drives), ``"static"`` (the static equilibrium of :func:`rancf.static` at
t = 0, at rest but for the drives) or a :class:`~rancf.model.state.State` (checked against the
model, its joint angles on the turns of its joint coordinates where it has them), for each
formulation: the planar ones (:func:`static_start`; a State the formulations take as it is),
the spatial recursion (:func:`spatial_start`) and the spatial DAE (:func:`spatial_dae_start`).
A ``"static"`` start runs statics on the formulation statics picks (the spatial DAE for a loop
or for plane cables drawn bent) and carries its joint angles and cable frames into the run."""
import numpy as np

from .elements.ancf_cable import SpatialANCFCable
from .elements.spatial_beam import SpatialBeam
from .formulations import start_check
from .formulations.dae import branch_of
from .integrators import static as statics
from .model.state import State
from .results.outputs import on_stored_turns

#: What ``simulate(state=...)`` takes besides a State: the start it names.
STARTS = ("static",)


def static_start(model):
    """The coordinates x (n_x,) of ``state="static"``: the static equilibrium of
    :func:`rancf.static` (its default load steps and tolerance) at t = 0, drives at q(0); and the
    branch (n_joints,) its run starts on: the reference configuration's joint angles moved by
    the whole turns that take each nearest the equilibrium's continuous angle (the load
    steps continue them; theory: Joint coordinates), so that springs and efforts see an angle
    that statics turned past pi as statics did, not wrapped by a turn; where none turned past
    pi, the reference configuration's angles, bit for bit
    (:func:`~rancf.formulations.dae.branch_of`).

    Raises
    ------
    ValueError
        The equilibrium was not found (static's message, and how to pass a start found with
        other load steps).
    KeyboardInterrupt
        Ctrl-C while it was sought (static's message).
    """
    eq, A = _equilibrium(model), model.build()
    return eq.nodes[0].ravel().copy(), branch_of(A, eq.joint_q[0])


def _equilibrium(model, dae=None):
    """The :class:`~rancf.integrators.solution.Solution` of :func:`rancf.static` with its defaults,
    the start of ``state="static"`` (on the run's spatial DAE ``dae`` where statics runs one);
    ValueError with static's message if it was not found, KeyboardInterrupt if Ctrl-C stopped
    it (before the run's first step: no Result to return, the run is not made)."""
    eq = statics.static(model, 10, 1e-10, 50, "sparse", spatial_dae=dae)
    if eq.status == "interrupted":
        raise KeyboardInterrupt(eq.message)
    if eq.status != "ok":
        factor = np.asarray(eq.extra.get("load_factor", [np.nan]))
        # a first load step that fails is most often a mechanism that gravity alone holds only
        # hanging (a free joint drawn horizontal): its equilibrium, a quarter turn away, is out
        # of Newton's reach from the reference configuration (user guide: Statics)
        first = bool(factor.size and factor[-1] == 0.0)
        hint = (" If a free joint holds a link that the loads hold only hanging, draw it "
                "hanging (along gravity) or start from the reference configuration (state "
                "unset, the default).") if first else ""
        raise ValueError(f"state='static': the static equilibrium was not found ({eq.message}); "
                         "find it with rancf.static(model, load_steps=...) and pass its "
                         f"state(0).{hint}")
    return eq


def _spatial_poses(state, n, n_cable=0):
    """The poses x (12 n, then 6 n_cable) and velocities v (6 n, then 6 n_cable) of a
    :class:`State` of a spatial model of n bodies and n_cable cable nodes, checked (ValueError
    naming the sizes)."""
    x, v = np.asarray(state.x), np.asarray(state.v)
    frame, twist, node = SpatialBeam.pose_size, SpatialBeam.node_size, SpatialANCFCable.node_size
    n_x, n_v = frame * n + node * n_cable, twist * n + node * n_cable
    if x.shape != (n_x,) or v.shape != (n_v,):
        cables = (f", then the coordinates [r, r'] of its {n_cable} cable nodes (6 a node) "
                  "and their rates") if n_cable else ""
        raise ValueError(f"state: a state of this spatial model has the poses of its {n} bodies "
                         f"in x (12 numbers a body) and their velocities in v (6 a "
                         f"body){cables}: {n_x} and {n_v} numbers, got {x.size} and {v.size}; "
                         "pass a state of this model (Result.state(i) of a run of it)")
    return state.checked(n_x, n_v)


def spatial_dae_start(model, dae, state, newton_tol=0.0):
    """The spatial DAE's initial ``(x0, v0)`` of ``state``: None (the reference configuration
    at rest but for the drives), ``"static"`` (the static equilibrium of :func:`rancf.static`, at
    rest but for the drives) or a :class:`State` of the bodies' poses and velocities and the
    cable nodes' coordinates and rates (its positions checked against every joint; its
    reference angles and first output's angles on the turns of its joint coordinates, where
    it has them: :meth:`~rancf.formulations.spatial_dae.SpatialDAE.start_on_stored`), moved onto
    the constraints (:meth:`~rancf.formulations.spatial_dae.SpatialDAE.consistent_state`: the
    loops' of a start from the tree's coordinates, the velocity rows of a State, which an
    index-3 run holds only to its step's error).

    A State's positions are taken within ``newton_tol`` (the run's Newton tolerance, m) of
    the rows (what a run leaves: :mod:`rancf.formulations.start_check`), further off refused
    naming the joint, and a driven joint's drive; its velocities, whatever they are, are
    moved onto the velocity rows by their least change of kinetic energy (a State may be a
    run's, or an equilibrium given a kick that the rows then shape: the joints' impulses
    ``M (v0 - v) = -Phi_x^T mu`` give exactly that change, in any units; the Euclidean least
    change in the coordinates weighed m/s against quaternion rates), and ``dae.start_note``
    states how far either was moved."""
    dae.start_note = ""
    if isinstance(state, State):
        stored = state.checked_joint_q(_n_joint_q(model))
        x, v = dae.state_of_poses(*_spatial_poses(state, dae.n_bodies, dae.n_cable_nodes),
                                  newton_tol=newton_tol, joints=model.joints, joint_q=stored)
        off_v = float(np.abs(dae.constraint_jacobian(x, 0.0) @ v
                             + dae.velocity_bias(x, 0.0)).max(initial=0.0))
        x0, v0 = dae.consistent_state(x, v, metric="mass")
        M = dae.mass(x0)
        held = start_check.velocity_verdict(v, M @ v, v0 - v, M @ (v0 - v), 1e-8) == "held"
        if held and np.array_equal(x0, x):
            v0 = v          # on the rows to rounding: as given, not re-solved
        dx, dv = np.abs(x0 - x).max(initial=0.0), np.abs(v0 - v).max(initial=0.0)
        # a run's state moved by more than rounding (1e-8 of the model size, of the motion in
        # the kinetic-energy metric): say so in its Result
        if dx > 1e-8 * dae.tree.size or not held:
            off_x = float(np.abs(dae.constraint(x, 0.0)).max(initial=0.0))
            dae.start_note = start_check.correction_note(dx, dv, off_x, off_v)
        if stored is not None:
            dae.start_on_stored(x0, v0, stored)
        dae.start_cable_frames(state.checked_cable_bases(dae.n_cable_nodes), x0)
        return x0, v0
    if state is None:
        return dae.consistent_state(*dae.initial_state())
    eq = _equilibrium(model, dae)
    if eq.formulation == "dae":
        # statics ran this formulation (a loop, a joint at a cable point, plane cables drawn
        # off their straight rest shape: :func:`rancf.integrators.static.static`), on the
        # run's own (one set-up, not two; the reference angles its load steps continued
        # kept): its coordinates are the start's
        x0, v0 = eq.q[-1], np.zeros(dae.n_coordinates)
        dae.restart()
        return dae.consistent_state(x0, v0)
    # statics of a tree ran the recursion, whose joint angles its load steps continue: the
    # DAE's reference angles start on them (from a new DAE's zeros an angle that statics
    # turned past pi wraps by a turn, and the run starts off its equilibrium)
    x0, v0 = dae.consistent_state(*dae.state_of(dae.recursion.initial_state(q=eq.q[-1])))
    dae.accept_stored_angles(x0, v0, eq.joint_q[-1])
    # the cable frames go on from the equilibrium's, carried through its load steps
    dae.start_cable_frames(_cable_bases_of(eq, -1), x0)
    return x0, v0


def spatial_start(model, formulation, state):
    """The spatial formulation's initial state y0 (n_y,) of ``state``: None (the reference
    configuration at rest but for the drives), ``"static"`` (the free link coordinates of
    :func:`rancf.static`'s equilibrium, at rest but for the drives) or a :class:`State` of the
    bodies' poses and velocities and the cable nodes' coordinates and rates (its angles and
    rotation vectors on the turns of its joint coordinates, where it has them:
    :func:`~rancf.results.outputs.on_stored_turns`)."""
    if state is None:
        return formulation.initial_state()
    if isinstance(state, str):
        eq = _equilibrium(model)
        if eq.formulation == "dae":
            # statics ran the spatial DAE on this tree (:func:`~rancf.integrators.static.
            # static`: plane cables drawn off their straight rest shape): its equilibrium's
            # poses and cable coordinates, at rest
            n, nc = formulation.tree.n_bodies, formulation.model_tree.n_cable_nodes
            x = np.concatenate([eq.nodes[-1].ravel()[:SpatialBeam.pose_size * n],
                                eq.q[-1][eq.q.shape[1] - SpatialANCFCable.node_size * nc:]])
            y = formulation.state_of(x, np.zeros(SpatialBeam.node_size * n
                                                 + SpatialANCFCable.node_size * nc))
        else:
            y = formulation.initial_state(q=eq.q[-1])
        # the cable frames go on from the equilibrium's, carried through its load steps
        formulation.start_cable_frames(_cable_bases_of(eq, -1), y[:formulation.n_free])
        return y
    nc = formulation.model_tree.n_cable_nodes
    stored = state.checked_joint_q(_n_joint_q(model))
    y = formulation.state_of(*_spatial_poses(state, formulation.tree.n_bodies, nc),
                             joints=model.joints, joint_q=stored)
    if stored is not None:
        on_stored_turns(model, formulation, stored[None], y[None])
    formulation.start_cable_frames(state.checked_cable_bases(nc), y[:formulation.n_free])
    return y


def _cable_bases_of(solution, i):
    """The cable frames' bases (c, 3, 3) at output i of a Solution (``extra["cable_bases"]``),
    or None where it has none (a model without cables)."""
    bases = solution.extra.get("cable_bases")
    return None if bases is None else np.asarray(bases[i], dtype=float).reshape(-1, 3, 3)


def _n_joint_q(model):
    """The number of joint coordinates of a spatial model (the columns of its runs'
    ``Result.joint_q``: each joint's kind's)."""
    return sum(j.type.spatial.n_coordinates for j in model.joints)
