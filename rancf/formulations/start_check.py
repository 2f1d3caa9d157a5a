"""A run's given start state against its model's joints: how far a state that a run left may
be off them (and be moved onto them), the note saying it was, and the message that refuses
one further off, naming the joint (its number and kind) and, for a driven joint, its drive's
value at the start against the state's.

The formulations take a :class:`rancf.State` through this: the planar DAE
(:meth:`rancf.formulations.dae.DAE.initial_state`, rows of the constraints) and recursion
(:meth:`rancf.formulations.recursive.Recursive.initial_state`, vertices of the tree), the
spatial recursion (:meth:`rancf.formulations.spatial.Spatial.state_of`, bodies) and DAE
(:func:`rancf.starts.spatial_dae_start`, which moves any velocities onto the rows, a kick
given to an equilibrium, by the same least change of kinetic energy as the others'
corrections), so a restart off its drive reads the same in each.

Why a run's own state is off its joints at all: an implicit run on the DAE holds the position
rows to its Newton tolerance, and the velocity rows ``Phi_x v + Phi_t = 0`` only to its
scheme's error, as it does not impose them. Backward Euler's ``v = (x_n+1 - x_n) / h`` between
two states on the rows leaves ``Phi_x v = (h / 2) v^T Phi_xx v + O(h^2)``: a joint's
centripetal acceleration times h / 2, a fraction ``h omega / 2`` of the velocities (omega a
body's rate of turn); the second-order schemes leave ``O(h^2)``. A run that resolves its
motion turns a body by less than 0.1 rad a step, so the least change ``dv`` that puts its
velocities back on the rows is less than :data:`VELOCITY_DRIFT` = 0.05 of them. Velocities
further off are not a run's (another model's or time's, or a drive's rate not met): refused.

How "0.05 of them" is measured (:func:`velocity_verdict`): in the kinetic-energy metric, the
one norm in which a state's velocities (m/s of points, rad/s of axes, 1/s of ANCF slopes) add
up in one unit::

    dv^T M dv  <=  VELOCITY_DRIFT^2  v^T M v                                      (1)

(both sides twice a kinetic energy, J; M the formulation's mass matrix in its velocity
coordinates). ``h omega / 2`` is a relative size of the velocities that a body turning at
omega moves with, so it bounds (1)'s ratio as it bounds each body's, and (1) is the norm the
DAE's projection minimizes (:meth:`rancf.formulations.dae.DAE.initial_state`), so the verdict
is on the correction made. The recursions make the same least change: the joint rates beta
of ``min (E beta + V_d - v)^T M (E beta + V_d - v)`` (E the map from the rates to the
velocities, V_d the drives' part), by the normal equations ``E^T M E beta = E^T M (v -
V_d)``, whose matrix is their generalized mass, solved by their forward dynamics' O(n)
factorization (:meth:`rancf.formulations.recursive.Recursive._rates_of`,
:meth:`rancf.formulations._spatial.SpatialKernel.mass_solve`): a miss on a light body is taken
from it, not handed down the tree to the heavy bodies its joints carry. Drawn in other units of length (lengths, velocities and loads
times s, inertias times s^2) both sides scale by s^2: the verdict is the same and the
corrected velocities scale by s (tests/test_start_units.py).

Explicitly: a state at rest (``v^T M v = 0``) is accepted only as it is (``dv = 0``: no joint
driven at a nonzero rate at the start), any correction being the whole of its motion. A
direction of little mass (a body of small inertia; the builders refuse none) carries little
energy: a miss there is taken from it (the least-energy change moves the light direction,
the joints setting its velocity from the massive ones) and refuses a start only by its
energy, which is that direction's part in the motion. A driven or held joint is one more
row, its rate's miss measured like any other: a drive's rate not met by the state moves the
bodies it drives, by that energy (a state at rest under a drive turning at the start is
refused).
The part (vertex, body or cable node) a refusal names is found by
:func:`first_off`; what it says was judged, (1)'s two sides as kinetic energies (J), their
ratio against ``VELOCITY_DRIFT^2`` and the parameter to change (the state's velocities), by
:func:`velocity_miss`, the same words in the three formulations that refuse (the spatial DAE
moves any velocities, above).
"""
import numpy as np

from ..elements import planar
from ..joints._codes import ANGLE
from ._forces import ForceKernel

#: The largest change of a run's velocities that puts them on the joints, relative to them in
#: the kinetic-energy metric (module docstring, (1)): ``h omega / 2`` with a body turning at
#: most 0.1 rad a step.
VELOCITY_DRIFT = 0.05


def velocity_verdict(v, Mv, dv, Mdv, tol):
    """What a start does with its velocities v (n,), whose least change onto the joints is dv
    (n,), by (1) of the module docstring: ``"held"`` (``dv^T M dv <= tol^2 v^T M v``, v taken
    as it is: the rows hold to ``tol`` of the motion, rounding), ``"moved"`` (within
    ``VELOCITY_DRIFT^2 v^T M v``: take v + dv, and say so) or ``"refused"``. ``Mv``, ``Mdv``
    (n,): M v and M dv in the caller's mass matrix (kg m/s per m/s coordinate; a body's
    twist: its momentum and angular momentum). At rest (``v^T M v = 0``) only dv = 0 holds."""
    e_v, e_dv = float(np.dot(v, Mv)), float(np.dot(dv, Mdv))
    if e_dv <= tol * tol * e_v:
        return "held"
    return "moved" if e_dv <= VELOCITY_DRIFT ** 2 * e_v else "refused"


def velocity_miss(v, Mv, dv, Mdv):
    """What a refusal of velocities v (n,) says was judged, the same words in every
    formulation: the kinetic energies of their least change dv (n,) onto the joints and of v
    itself (J, half of (1)'s two sides, ``Mv``, ``Mdv`` (n,) as :func:`velocity_verdict`'s),
    their ratio against ``VELOCITY_DRIFT^2`` and the parameter to change, the state's
    velocities. A row's miss in its own unit (m/s, rad/s, 1/s) is not what (1) judges: a
    small miss on a heavy body outweighs a large one on a light body."""
    e_v, e_dv = 0.5 * float(np.dot(v, Mv)), 0.5 * float(np.dot(dv, Mdv))
    ratio = f"{e_dv / e_v:.4g}" if e_v > 0.0 else "infinite (the state is at rest)"
    return (f"the least change of the velocities that satisfies the joints has kinetic energy "
            f"dv^T M dv / 2 = {e_dv:.6g} J against the state's v^T M v / 2 = {e_v:.6g} J, a "
            f"ratio {ratio} above the {VELOCITY_DRIFT ** 2:g} (= {VELOCITY_DRIFT:g}^2) that a "
            "run's own state may be off by; change the state's velocities (State.v) to ones "
            "that satisfy every joint (Result.state of a run of this model has them)")


def first_off(shares, order, v, Mv):
    """The part a refused start names: the first, in ``order`` (root to leaves: a part's miss
    is inherited by its subtree), whose share of the correction's energy (``shares`` (n_parts,),
    ``dv . M dv`` summed over its coordinates) exceeds ``VELOCITY_DRIFT^2 v^T M v / n_parts``,
    its even share of what (1) allows; one does, as they add up to more than (1) allows."""
    shares = np.asarray(shares, dtype=float)
    bound = VELOCITY_DRIFT ** 2 * float(np.dot(v, Mv)) / max(len(shares), 1)
    for k in order:
        if shares[k] > bound:
            return int(k)
    return int(np.argmax(shares))


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
    (``level`` "poses": a spatial state's coordinates; velocities: :func:`velocity_miss`'s
    text, the joint the one :func:`first_off` names).

    A driven joint's adds its drive's value at the run's start t (s) and the state's
    (``given``, its joint coordinate or rate; None: not known), and how a continued run meets
    it: its times restart at 0, so a state taken at t0 > 0 of a driven run needs the drive's
    time origin moved there, which the drive's check against the reference configuration
    allows only in a model drawn where the state is."""
    head = f"state: the {level} do not satisfy the joints: joint {joint.index} ({joint.kind}) "
    head += (f"is off by {off:.3g}" if level != "velocities"
             else f"takes the largest share of their change: {off}")
    if not joint.driven:
        return head if level == "velocities" else (
            f"{head}; pass {level} that satisfy every joint (Result.state of a run of this "
            "model)")
    drive = joint.drive_values(t)
    if level != "velocities":
        wanted, name = drive[0], "q"
        if given is not None and unit == "rad":
            given = wanted + planar.wrap(given - wanted)
    else:
        wanted, name, unit = drive[1], "qd", f"{unit}/s"
    state = "" if given is None else f", and the state has {name} = {given:.6g} {unit}"
    head += ". Its" if level == "velocities" else ": its"
    return (f"{head} drive gives {name} = {wanted:.6g} {unit} at t = {t:g} s, where the "
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
        head = f"state: the {level} do not satisfy the joints: "
        if level == "velocities":
            return (f"{head}the rate of rigid body {body}'s axis (not normal to the axis) "
                    f"takes the largest share of their change: {off}")
        return (f"{head}the axis of rigid body {body} is not a unit vector (its row off by "
                f"{off:.3g}); pass a state of this model (Result.state of a run of it)")
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
