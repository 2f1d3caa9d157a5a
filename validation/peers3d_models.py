"""The dynamic models of the ``peers3d`` case (issue 23) in rancf and in Exudyn, built alike.

- The cable pendulum: Exudyn's 3D cable test section (its ``ObjectANCFCable`` mini example: rho A
  = 78 kg/m, EA = 1e6 N, EI = 833.33 N m^2, L = 2 m) hung from the ground by a spherical joint at
  its start, straight along +x at rest, gravity 9.81 m/s^2 along -z, so that it swings down.
  rancf: ``add_beam(..., element="ancf-cable")`` (A = 1 m^2, so E = EA and rho = rho A, I = EI /
  EA) and a ``"spherical"`` joint; Exudyn: ``ObjectANCFCable`` on ``NodePointSlope1`` nodes (r
  and r', the same 6 coordinates a node), ``ObjectJointSpherical`` to the ground, gravity a
  ``LoadMassProportional`` on each element.
- The steel spherical four-bar of :mod:`validation.spherical_four_bar` (one beam element a
  link, or n equal ones): Exudyn's ``ObjectBeamGeometricallyExact`` on ``NodeRigidBodyEP`` nodes (its
  generalized-alpha takes Euler parameters, not its Lie-group nodes), each joint an
  ``ObjectJointGeneric`` with the rows of rancf's joint: the driven revolute at A all six rows,
  its rotation about u_A offset by the drive (a Python ``offsetUserFunction`` and its rate, as
  rancf's drive is a Python callable); the spherical joint at B three; the revolute at D five
  (rotation about u_D free); the universal joint at C four (position and
  ``t_y0 . t_z1 = 0`` with ``t_y0 = u_C`` on the coupler and ``t_z1`` the universal's second
  axis on the rocker: rancf's universal row). Section as rancf's beam: EA, k G A (k = 5/6, G =
  E / 2.6), G J (J = 2 I), E I; mass rho A and rotary inertia rho diag(2 I, I, I) per length.
"""
from __future__ import annotations

import numpy as np

import rancf
from validation.exudyn_solve import solve_dynamic
from validation.spherical_four_bar import SphericalFourBar

#: The cable (Exudyn's ObjectANCFCable mini example, issue 23's 3D cable data)
CABLE_LENGTH, CABLE_RHO_A, CABLE_EA, CABLE_EI, GRAVITY = 2.0, 78.0, 1e6, 833.3333333333333, 9.81
#: Exudyn's default Newton tolerance of its implicit solvers (relative, absolute): see the peers case
EXUDYN_TOLERANCE = (1e-8, 1e-10)


def rancf_cable_pendulum(n_elements):
    """rancf's cable pendulum: (model, cable)."""
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -GRAVITY))
    cable = m.add_beam(CABLE_LENGTH, n_elements, E=CABLE_EA, rho=CABLE_RHO_A, A=1.0,
                       I=CABLE_EI / CABLE_EA, element="ancf-cable")
    m.add_joint("spherical", m.ground.point(0.0, 0.0, 0.0), cable.start)
    return m, cable


def exudyn_cable(mbs, n_elements, length=CABLE_LENGTH, rho_A=CABLE_RHO_A, EA=CABLE_EA, EI=CABLE_EI,
                 gravity=(0.0, 0.0, -GRAVITY), velocities=None, pin="joint"):
    """Add to ``mbs`` a straight cable along +x from the origin (``n_elements`` ObjectANCFCable on
    NodePointSlope1 nodes; length m, rho_A kg/m, EA N, EI N m^2), gravity (m/s^2, a vector) a
    LoadMassProportional on each element, its first node held at the origin, the slope free:
    by an ObjectJointSpherical to the ground (``pin="joint"``) or by three
    ObjectConnectorCoordinate to a ground node (``pin="coordinates"``: the same constraint, the
    only kind Exudyn's explicit solvers take, as they eliminate ground coordinate constraints).
    ``velocities`` (n_elements + 1, 6): each node's initial [v, r'_t] (m/s, 1/s), else at rest.
    Returns the node numbers."""
    import exudyn as exu  # noqa: F401  (the item interface needs the module loaded)
    from exudyn.itemInterface import (LoadMassProportional, MarkerBodyMass, MarkerBodyPosition,
                                      MarkerNodeCoordinate, MarkerNodePosition, NodePointGround,
                                      NodePointSlope1, ObjectANCFCable, ObjectConnectorCoordinate,
                                      ObjectGround, ObjectJointSpherical)

    if pin not in ("joint", "coordinates"):
        raise ValueError(f"pin must be 'joint' or 'coordinates'; got {pin!r}")
    l = length / n_elements
    v0 = np.zeros((n_elements + 1, 6)) if velocities is None else np.asarray(velocities, float)
    if v0.shape != (n_elements + 1, 6):
        raise ValueError(f"velocities must have shape ({n_elements + 1}, 6); got {v0.shape}")
    nodes = [mbs.AddNode(NodePointSlope1(referenceCoordinates=[i * l, 0, 0, 1, 0, 0],
                                         initialVelocities=list(v0[i])))
             for i in range(n_elements + 1)]
    for i in range(n_elements):
        cable = mbs.AddObject(ObjectANCFCable(length=l, massPerLength=rho_A, bendingStiffness=EI,
                                              axialStiffness=EA, nodeNumbers=[nodes[i], nodes[i + 1]]))
        mbs.AddLoad(LoadMassProportional(markerNumber=mbs.AddMarker(MarkerBodyMass(bodyNumber=cable)),
                                         loadVector=list(gravity)))
    if pin == "coordinates":
        fixed = mbs.AddMarker(MarkerNodeCoordinate(nodeNumber=mbs.AddNode(NodePointGround()), coordinate=0))
        for k in range(3):
            mbs.AddObject(ObjectConnectorCoordinate(markerNumbers=[
                fixed, mbs.AddMarker(MarkerNodeCoordinate(nodeNumber=nodes[0], coordinate=k))]))
    else:
        ground = mbs.AddObject(ObjectGround())
        mbs.AddObject(ObjectJointSpherical(markerNumbers=[
            mbs.AddMarker(MarkerBodyPosition(bodyNumber=ground, localPosition=[0, 0, 0])),
            mbs.AddMarker(MarkerNodePosition(nodeNumber=nodes[0]))]))
    return nodes


def exudyn_cable_pendulum(n_elements, sensor=True):
    """Exudyn's cable pendulum (:func:`exudyn_cable` with the module's data), assembled: (mbs,
    its SystemContainer, the tip's position sensor or None). The container is returned because
    the system lives only as long as it does."""
    import exudyn as exu
    from exudyn.itemInterface import SensorNode

    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    nodes = exudyn_cable(mbs, n_elements)
    tip = None
    if sensor:
        tip = mbs.AddSensor(SensorNode(nodeNumber=nodes[-1], storeInternal=True, writeToFile=False,
                                       outputVariableType=exu.OutputVariableType.Position))
    mbs.Assemble()
    return mbs, SC, tip


def _link_frame(direction, up):
    """The link's node frame (columns): x along the link, y the part of ``up`` normal to it."""
    x = direction / np.linalg.norm(direction)
    y = up - (up @ x) * x
    y /= np.linalg.norm(y)
    return np.column_stack([x, y, np.cross(x, y)])


def _frame_with_z(u):
    """A right-handed frame (columns) whose z axis is the unit vector u."""
    u = u / np.linalg.norm(u)
    a = np.array([1.0, 0.0, 0.0]) if abs(u[0]) < 0.9 else np.array([0.0, 1.0, 0.0])
    x = a - (a @ u) * u
    x /= np.linalg.norm(x)
    return np.column_stack([x, np.cross(u, x), u])


def exudyn_four_bar(fb: SphericalFourBar, n_elements=1):
    """Exudyn's steel four-bar (the module docstring), ``n_elements`` equal elements a link (as
    ``fb.flexible(n_elements)``), assembled: (mbs, its SystemContainer, the sensor of the
    rocker's angle: the z component of the revolute joint's ``Rotation`` at D, rad, about
    u_D)."""
    import warnings

    import exudyn as exu
    from exudyn.itemInterface import (LoadMassProportional, MarkerBodyMass, MarkerBodyRigid,
                                      MarkerNodeRigid, NodeRigidBodyEP, ObjectBeamGeometricallyExact,
                                      ObjectGround, ObjectJointGeneric, SensorObject)
    from scipy.spatial.transform import Rotation

    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    P, E, rho, r = fb.P, fb.E, fb.rho, fb.r
    A, I = np.pi * r ** 2, np.pi * r ** 4 / 4
    G = E / 2.6
    section = exu.BeamSection()
    section.stiffnessMatrix = np.diag([E * A, 5 / 6 * G * A, 5 / 6 * G * A, G * 2 * I, E * I, E * I])
    section.massPerLength = rho * A
    section.inertia = rho * np.diag([2 * I, I, I])
    nodes, frames = {}, {}
    for link, (p, q, up) in {"crank": ("A", "B", fb.uA), "coupler": ("B", "C", fb.uB),
                             "rocker": ("D", "C", fb.uD)}.items():
        frame = _link_frame(P[q] - P[p], up)
        x, y, z, w = Rotation.from_matrix(frame).as_quat()
        ends = [mbs.AddNode(NodeRigidBodyEP(referenceCoordinates=list(P[p] + (P[q] - P[p]) * k / n_elements)
                                            + [w, x, y, z])) for k in range(n_elements + 1)]
        length = float(np.linalg.norm(P[q] - P[p])) / n_elements
        for k in range(n_elements):
            beam = mbs.AddObject(ObjectBeamGeometricallyExact(nodeNumbers=ends[k:k + 2], length=length,
                                                              sectionData=section))
            mbs.AddLoad(LoadMassProportional(markerNumber=mbs.AddMarker(MarkerBodyMass(bodyNumber=beam)),
                                             loadVector=[0, 0, -GRAVITY]))
        nodes[link], frames[link] = {p: ends[0], q: ends[-1]}, frame
    ground = mbs.AddObject(ObjectGround())

    def at_ground(k):
        return mbs.AddMarker(MarkerBodyRigid(bodyNumber=ground, localPosition=list(P[k])))

    def at(link, k):
        return mbs.AddMarker(MarkerNodeRigid(nodeNumber=nodes[link][k]))

    def drive(mbs, t, item, parameters):
        return [0, 0, 0, 0, 0, fb.drive(t)[0]]

    def drive_rate(mbs, t, item, parameters):
        return [0, 0, 0, 0, 0, fb.drive(t)[1]]

    normal = np.cross(fb.uC, fb.a_universal)
    normal /= np.linalg.norm(normal)
    universal0 = np.column_stack([normal, fb.uC, np.cross(normal, fb.uC)])
    with warnings.catch_warnings():
        # rotationMarker0/1 are deprecated in favour of markers' localHT; same rows either way
        warnings.simplefilter("ignore", DeprecationWarning)
        JA, JD = _frame_with_z(fb.uA), _frame_with_z(fb.uD)
        mbs.AddObject(ObjectJointGeneric(markerNumbers=[at_ground("A"), at("crank", "A")], constrainedAxes=[1] * 6,
                                         rotationMarker0=JA, rotationMarker1=frames["crank"].T @ JA,
                                         offsetUserFunction=drive, offsetUserFunction_t=drive_rate))
        mbs.AddObject(ObjectJointGeneric(markerNumbers=[at("crank", "B"), at("coupler", "B")],
                                         constrainedAxes=[1, 1, 1, 0, 0, 0]))
        output = mbs.AddObject(ObjectJointGeneric(markerNumbers=[at_ground("D"), at("rocker", "D")],
                                                  constrainedAxes=[1, 1, 1, 1, 1, 0], rotationMarker0=JD,
                                                  rotationMarker1=frames["rocker"].T @ JD))
        mbs.AddObject(ObjectJointGeneric(markerNumbers=[at("coupler", "C"), at("rocker", "C")],
                                         constrainedAxes=[1, 1, 1, 1, 0, 0],
                                         rotationMarker0=frames["coupler"].T @ universal0,
                                         rotationMarker1=frames["rocker"].T @ _frame_with_z(fb.a_universal)))
    sensor = mbs.AddSensor(SensorObject(objectNumber=output, storeInternal=True, writeToFile=False,
                                        outputVariableType=exu.OutputVariableType.Rotation))
    mbs.Assemble()
    return mbs, SC, sensor


def exudyn_dynamic(mbs, t_end, h, rho_inf, tolerance=EXUDYN_TOLERANCE, threads=1):
    """Exudyn's generalized-alpha at the fixed step h on ``threads`` threads, sensors stored
    every step (:func:`validation.exudyn_solve.solve_dynamic`): the wall time of
    ``SolveDynamic`` (s) and its Newton iterations and Jacobians over the run."""
    return solve_dynamic(mbs, t_end, h, rho_inf, tolerance, threads, h)


def on_grid(t, values, grid):
    """Each column of ``values`` (n, k) at the times ``t`` interpolated onto ``grid``."""
    values = np.asarray(values).reshape(len(t), -1)
    return np.column_stack([np.interp(grid, t, values[:, k]) for k in range(values.shape[1])])
