"""A run's given start state against its model's joints: how far a state that a run left may
be off them (and be moved onto them), the note saying it was, and the message that refuses
one further off, naming the joint (its number and kind) and, for a driven joint, its drive's
value at the start against the state's.

The formulations take a :class:`rancf.State` through this: the planar DAE
(:meth:`rancf.formulations.dae.DAE.initial_state`, rows of the constraints) and recursion
(:meth:`rancf.formulations.recursive.Recursive.initial_state`, vertices of the tree), the
spatial recursion (:meth:`rancf.formulations.spatial.Spatial.state_of`, bodies) and DAE
(:func:`rancf.starts.spatial_dae_start`, which moves any velocities onto the rows, as it
always has: a kick given to an equilibrium), so a restart off its drive reads the same in
each.

Why a run's own state is off its joints at all: an implicit run on the DAE holds the position
rows to its Newton tolerance, and the velocity rows ``Phi_x v + Phi_t = 0`` only to its
scheme's error, as it does not impose them. Backward Euler's ``v = (x_n+1 - x_n) / h`` between
two states on the rows leaves ``Phi_x v = (h / 2) v^T Phi_xx v + O(h^2)``: a joint's
centripetal acceleration times h / 2, a fraction ``h omega / 2`` of the velocities (omega a
body's rate of turn); the second-order schemes leave ``O(h^2)``. A run that resolves its
motion turns a body by less than 0.1 rad a step, so its state's velocity rows are off by less
than :data:`VELOCITY_DRIFT` = 0.05 of its largest velocity. Velocities further off are not a
run's (another model's or time's, or a drive's rate not met): refused.
"""
import numpy as np

from ..elements import planar
from ..joints._codes import ANGLE
from ._forces import ForceKernel

#: The largest violation of the velocity rows a run's state may have, relative to its largest
#: velocity: ``h omega / 2`` with a body turning at most 0.1 rad a step (module docstring).
VELOCITY_DRIFT = 0.05


def velocity_bound(v, tol):
    """The largest violation of the velocity rows (m/s; 1/s for slopes and axes) a start with
    velocities v (n_x,) may have and be moved onto the joints: :data:`VELOCITY_DRIFT` of its
    largest velocity, plus ``tol`` (a state at rest holds its rows to rounding)."""
    return VELOCITY_DRIFT * float(np.abs(v).max(initial=0.0)) + tol


def read_joints(assembly, x, v):
    """The joint coordinates and rates (n_joints,) read from the coordinates x and velocities
    v (n_x,), angles nearest the reference configuration's (``assembly.joint_q0``)."""
    A = assembly
    nj = max(A.n_joints, 1)
    q, qd = np.zeros(nj), np.zeros(nj)
    ForceKernel(A).joint_coordinates(np.ascontiguousarray(x, dtype=float),
                                     np.ascontiguousarray(v, dtype=float),
                                     np.resize(A.joint_q0, nj).astype(float), q, qd)
    return q[:A.n_joints], qd[:A.n_joints]


def refusal(joint, level, off, unit, given=None, t=0.0):
    """The ValueError's message for a start state whose coordinates (``level``
    ``"coordinates"``) or velocities (``"velocities"``) are off ``joint`` (a planar or
    spatial :class:`rancf.Joint`; its coordinate's ``unit``, "rad" or "m") by ``off``
    (``level`` "poses": a spatial state's coordinates).

    A driven joint's adds its drive's value at the run's start t (s) and the state's
    (``given``, its joint coordinate or rate; None: not known), and how a continued run meets
    it: its times restart at 0, so a state taken at t0 > 0 of a driven run needs the drive's
    time origin moved there, which the drive's check against the reference configuration
    allows only in a model drawn where the state is."""
    head = (f"state: the {level} do not satisfy the joints: joint {joint.index} ({joint.kind}) "
            f"is off by {off:.3g}")
    if not joint.driven:
        return (f"{head}; pass {level} that satisfy every joint (Result.state of a run of "
                "this model)")
    drive = joint.drive_values(t)
    if level != "velocities":
        wanted, name = drive[0], "q"
        if given is not None and unit == "rad":
            given = wanted + planar.wrap(given - wanted)
    else:
        wanted, name, unit = drive[1], "qd", f"{unit}/s"
    state = "" if given is None else f", and the state has {name} = {given:.6g} {unit}"
    return (f"{head}: its drive gives {name} = {wanted:.6g} {unit} at t = {t:g} s, where the "
            f"run starts{state}. A run's times start at 0, a continued run's too "
            "(Result.state(-1) of a run that ended at t0), and the model's drive must meet its "
            "reference configuration at t = 0: continue a driven run in one piece (simulate "
            "to the later end), or build the model drawn where the state is, with the drive "
            "moved to that time origin, drive=lambda t: f(t + t0)")


def planar_refusal(assembly, joint, level, off, x, v, t=0.0, body=None):
    """:func:`refusal` of a planar state (x, v) (n_x,) off the joint numbered ``joint`` (None
    with ``body``: the number of a rigid body whose axis is not a unit vector), the state's
    joint coordinate and rate read from x and v."""
    if joint is None:
        return (f"state: the {level} do not satisfy the joints: the axis of rigid body {body} "
                f"is not a unit vector (its row off by {off:.3g}); pass a state of this model "
                "(Result.state of a run of it)")
    j = assembly.joints[joint]
    given = None
    if j.driven:
        x = np.asarray(x, dtype=float)
        q, qd = read_joints(assembly, x, np.zeros_like(x) if v is None else v)
        given = (q if level == "coordinates" else qd)[joint]
    return refusal(j, level, off, j.type.unit, given, t)


def correction_note(dx, dv, off_x, off_v):
    """The note a Result's message gets when its start was moved onto the joints: the largest
    changes dx of the coordinates and dv of the velocities, and how far the position and
    velocity rows were off (off_x, off_v); a part whose change is 0 is left out."""
    moved = [f"{what} by {d:.2g} at most (their rows off by {off:.2g})"
             for what, d, off in (("coordinates", dx, off_x), ("velocities", dv, off_v)) if d]
    return ("the start state was moved onto the joints (a run's state holds them to its "
            f"Newton tolerance and its step's error): {', '.join(moved)}")
