"""The adaptive-modal paper's two example systems, built as :class:`rancf.modal.system.System`.

* :func:`pendulum`: the free-falling flexible pendulum of section 3.1 (table 1): one beam pinned
  at the origin, straight along +x, at rest.
* :func:`three_rrr`: the planar 3-RRR parallel robot of section 3.2 (table 3). What the paper
  does not state and is chosen here (the validation report repeats it):

  - fixed stage and moving stage are equilateral triangles whose *side* is the table's length
    (0.400 m, 0.112 m; with the circumradius reading the circle of radius 0.1 m leaves the
    workspace); base joints at 90, 210, 330 degrees;
  - the robot moves in a horizontal plane (no gravity);
  - the driving links (natural coordinates, rigid) are driven: their angles follow the rigid
    inverse kinematics of the prescribed platform circle ``x = 0.1 cos(2 pi t)``,
    ``y = 0.1 sin(2 pi t)``, ``theta = 0`` (elbows on the same side in every leg), so the
    platform follows the circle exactly only if the passive links are rigid and its
    ``x, y, theta`` are the dynamic response compared between methods;
  - link sections: in-plane dimension = width W, so ``A = T W`` and ``I = T W^3 / 12``;
  - moving stage: an aluminium plate (rho = 2700) 0.01 m thick, mass ``rho t sqrt(3)/4 a^2``,
    inertia ``m a^2 / 12`` about its centre;
  - initial state: the rigid kinematics at t = 0 (straight, unstretched passive links) and its
    time derivative (the paper's printed initial platform velocity 0.1 pi m/s does not match its
    circle, whose speed is 0.2 pi m/s).
"""
from __future__ import annotations

import numpy as np

from rancf.modal.system import (FlexibleBeam, LinearConstraint, PlateAttachment, RigidBar,
                                RigidPlate, System)


def pendulum(length=1.0, n_elements=160, E=7e5, rho=7200.0, A=4e-4, I=1.333e-8, gravity=9.81):
    """The free-falling pendulum (paper table 1). Returns ``system, q0, v0``."""
    beam = FlexibleBeam(length, n_elements, E, A, I, rho)
    system = System([beam], gravity=gravity)
    system.add_constraint(LinearConstraint([[0], [1]], [[1.0], [1.0]]))  # pin at the origin
    q0 = beam.straight()
    return system, q0, np.zeros_like(q0)


class ThreeRRR:
    """Geometry and rigid kinematics of the 3-RRR robot (see the module docstring).

    Lengths in m: ``driving`` 0.245, ``passive`` 0.242, ``moving`` 0.112 (platform side),
    ``fixed`` 0.400 (base side); ``radius`` 0.1 m and ``omega`` 2 pi rad/s of the circle.
    """

    def __init__(self, driving=0.245, passive=0.242, moving=0.112, fixed=0.400, radius=0.1,
                 omega=2.0 * np.pi):
        self.L1, self.L2, self.radius, self.omega = driving, passive, radius, omega
        angles = np.deg2rad([90.0, 210.0, 330.0])
        self.base = fixed / np.sqrt(3.0) * np.column_stack([np.cos(angles), np.sin(angles)])
        self.platform_points = moving / np.sqrt(3.0) * np.column_stack([np.cos(angles),
                                                                        np.sin(angles)])

    def platform(self, t):
        """Prescribed platform pose ``(x, y, theta)`` at time t (s)."""
        return np.array([self.radius * np.cos(self.omega * t),
                         self.radius * np.sin(self.omega * t), 0.0])

    def joints(self, t):
        """Rigid inverse kinematics: platform joints P (3, 2), elbows E (3, 2)."""
        if getattr(self, "_cached", (None,))[0] == t:  # every constraint row asks per step
            return self._cached[1]
        self._cached = (t, self._joints(t))
        return self._cached[1]

    def _joints(self, t):
        x, y, th = self.platform(t)
        R = np.array([[np.cos(th), -np.sin(th)], [np.sin(th), np.cos(th)]])
        P = np.array([x, y]) + self.platform_points @ R.T
        d = P - self.base
        dist = np.linalg.norm(d, axis=1)
        if np.any(dist > self.L1 + self.L2) or np.any(dist < abs(self.L1 - self.L2)):
            raise ValueError("platform pose outside the workspace")
        a = (self.L1**2 - self.L2**2 + dist**2) / (2.0 * dist)
        h = np.sqrt(self.L1**2 - a**2)
        u = d / dist[:, None]
        n = np.column_stack([-u[:, 1], u[:, 0]])
        return P, self.base + a[:, None] * u + h[:, None] * n

    def driving_angles(self, t):
        """Angles (3,) rad of the driving links."""
        E = self.joints(t)[1] - self.base
        return np.arctan2(E[:, 1], E[:, 0])


def three_rrr(n_elements=100, driving=(2.01e11, 2700.0, 0.01, 0.03),
              passive=(7e8, 2700.0, 0.005, 0.01), plate_thickness=0.01, geometry=None):
    """The 3-RRR robot (paper table 3). ``driving``/``passive`` are ``(E, rho, T, W)``.

    Returns ``system, q0, v0, geometry`` (:class:`ThreeRRR`). Components: three driving bars,
    three passive beams, the plate (``4*3 + 3*4*(n+1) + 3`` coordinates, 1227 for n = 100).
    """
    geo = geometry if geometry is not None else ThreeRRR()
    E1, rho1, T1, W1 = driving
    E2, rho2, T2, W2 = passive
    side = np.linalg.norm(geo.platform_points[0] - geo.platform_points[1])
    m_plate = rho1 * plate_thickness * np.sqrt(3.0) / 4.0 * side**2
    bars = [RigidBar(geo.L1, rho1 * T1 * W1 * geo.L1) for _ in range(3)]
    beams = [FlexibleBeam(geo.L2, n_elements, E2, T2 * W2, T2 * W2**3 / 12.0, rho2)
             for _ in range(3)]
    plate = RigidPlate(m_plate, m_plate * side**2 / 12.0)
    system = System(bars + beams + [plate], gravity=0.0)
    plate_idx = system.index(6, [0, 1, 2])
    for i in range(3):
        A, B = system.index(i, [0, 1]), system.index(i, [2, 3])
        system.add_constraint(LinearConstraint(A[:, None], np.ones((2, 1)),
                                               rhs=lambda t, b=geo.base[i]: b))
        system.add_constraint(LinearConstraint(
            np.column_stack([B, A]), [[1.0, -1.0], [1.0, -1.0]],
            rhs=lambda t, i=i: geo.joints(t)[1][i] - geo.base[i]))  # = L1 (cos phi, sin phi)
        first = system.index(3 + i, beams[i].node(0))
        system.add_constraint(LinearConstraint(np.column_stack([first, B]),
                                               [[1.0, -1.0], [1.0, -1.0]]))
        last = system.index(3 + i, beams[i].node(-1))
        system.add_constraint(PlateAttachment(last, plate_idx, geo.platform_points[i]))

    def rigid_configuration(t):
        P, E = geo.joints(t)
        q = [np.concatenate([geo.base[i], E[i]]) for i in range(3)]
        for i in range(3):
            u = (P[i] - E[i]) / geo.L2
            q.append(beams[i].straight(E[i], np.arctan2(u[1], u[0])))
        q.append(geo.platform(t))
        return np.concatenate(q)

    delta = 1e-6
    q0 = rigid_configuration(0.0)
    v0 = (rigid_configuration(delta) - rigid_configuration(-delta)) / (2.0 * delta)
    return system, q0, v0, geo
