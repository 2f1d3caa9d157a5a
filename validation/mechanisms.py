"""The adaptive-modal paper's two example systems as :class:`rancf.Model` (validation cases
``modal`` and ``rrr``).

* :func:`pendulum`: the free-falling flexible pendulum of section 3.1 (table 1): one Berzeri beam
  pinned at the origin, straight along +x, at rest.
* :func:`three_rrr`: the planar 3-RRR parallel robot of section 3.2 (table 3): rigid driving
  links on driven revolute joints to the ground, flexible (Berzeri) passive links jointed to the
  driving links' ends and to the moving platform, a rigid platform: closed loops, so the DAE
  formulation. What the paper does not state and is chosen here (the validation report repeats
  it):

  - fixed stage and moving stage are equilateral triangles whose *side* is the table's length
    (0.400 m, 0.112 m; with the circumradius reading the circle of radius 0.1 m leaves the
    workspace); base joints at 90, 210, 330 degrees;
  - the robot moves in a horizontal plane (no gravity);
  - the driving links (rigid uniform bars: centre at mid-length, inertia m L^2 / 12) are driven:
    their angles follow the rigid inverse kinematics of the prescribed platform circle
    ``x = 0.1 cos(2 pi t)``, ``y = 0.1 sin(2 pi t)``, ``theta = 0`` (elbows on the same side in
    every leg), so the platform follows the circle exactly only if the passive links are rigid,
    and its ``x, y, theta`` are the dynamic response compared between methods;
  - link sections: in-plane dimension = width W, so ``A = T W`` and ``I = T W^3 / 12``;
  - moving stage: an aluminium plate (rho = 2700) 0.01 m thick, mass ``rho t sqrt(3)/4 a^2``,
    inertia ``m a^2 / 12`` about its centre;
  - initial state: the rigid kinematics at t = 0 (straight, unstretched passive links) and its
    time derivative (theory: Assembly and the initial state; the paper's printed initial platform
    velocity 0.1 pi m/s does not match its circle, whose speed is 0.2 pi m/s).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import rancf

#: the pendulum of the paper's table 1 (SI units)
PENDULUM = {"length": 1.0, "n_elements": 160, "E": 7e5, "rho": 7200.0, "A": 4e-4, "I": 1.333e-8}


def pendulum(n_elements=160, length=1.0, E=7e5, rho=7200.0, A=4e-4, I=1.333e-8, gravity=9.81):
    """The free-falling pendulum (paper table 1): a Berzeri beam pinned at the origin."""
    model = rancf.Model(gravity=(0.0, -gravity), elastic_model="berzeri")
    beam = model.add_beam(length, n_elements, E=E, rho=rho, A=A, I=I)
    model.add_joint("revolute", model.ground.point(0.0, 0.0), beam.start)
    return model


def _perp(v):
    """``J v``: v (..., 2) turned by +90 degrees."""
    return np.stack([-v[..., 1], v[..., 0]], axis=-1)


def _dot(u, v):
    return np.einsum("...i,...i->...", u, v)


class ThreeRRR:
    """Geometry and rigid inverse kinematics of the 3-RRR robot (module docstring).

    Lengths in m: ``driving`` 0.245, ``passive`` 0.242, ``moving`` 0.112 (platform side),
    ``fixed`` 0.400 (base side); ``radius`` 0.1 m and ``omega`` 2 pi rad/s of the circle.
    """

    def __init__(self, driving=0.245, passive=0.242, moving=0.112, fixed=0.400, radius=0.1,
                 omega=2.0 * np.pi):
        self.L1, self.L2, self.radius, self.omega = driving, passive, radius, omega
        self.moving = moving
        angles = np.deg2rad([90.0, 210.0, 330.0])
        directions = np.column_stack([np.cos(angles), np.sin(angles)])
        self.base = fixed / np.sqrt(3.0) * directions
        self.platform_points = moving / np.sqrt(3.0) * directions
        self._cache = (None, None)
        self._e0 = self.kinematics(0.0)["E"] - self.base

    def platform(self, t):
        """Prescribed platform pose ``(x, y, theta)`` (m, m, rad) and its first two time
        derivatives, each (3,)."""
        w, r = self.omega, self.radius
        c, s = np.cos(w * t), np.sin(w * t)
        return (np.array([r * c, r * s, 0.0]), np.array([-r * w * s, r * w * c, 0.0]),
                np.array([-r * w * w * c, -r * w * w * s, 0.0]))

    def kinematics(self, t):
        """Rigid inverse kinematics at t (s): platform joints ``P``, elbows ``E`` (3, 2) and
        their rates ``P_t``, ``E_t``; driving-link angle rates ``phi_t``, ``phi_tt`` (3,).

        With ``e = E - B`` (|e| = L1) and ``g = P - E`` (|g| = L2), differentiating
        ``g . g = L2^2`` twice with ``e' = phi' J e``, ``e'' = phi'' J e - phi'^2 e``:
        ``phi' = g . P' / (g . J e)``,
        ``phi'' = (|P' - e'|^2 + g . P'' + phi'^2 g . e) / (g . J e)`` (the platform only
        translates, theta = 0).
        """
        if self._cache[0] == t:  # the three drives ask at every evaluation
            return self._cache[1]
        pose, rate, accel = self.platform(t)
        if pose[2] != 0.0 or rate[2] != 0.0:
            raise ValueError("the kinematics assume a platform that only translates")
        P = pose[:2] + self.platform_points
        d = P - self.base
        dist = np.linalg.norm(d, axis=1)
        if np.any(dist > self.L1 + self.L2) or np.any(dist < abs(self.L1 - self.L2)):
            raise ValueError(f"platform pose at t = {t} s outside the workspace")
        a = (self.L1**2 - self.L2**2 + dist**2) / (2.0 * dist)
        u = d / dist[:, None]
        E = self.base + a[:, None] * u + np.sqrt(self.L1**2 - a**2)[:, None] * _perp(u)
        e, g = E - self.base, P - E
        denominator = _dot(g, _perp(e))
        P_t = np.tile(rate[:2], (3, 1))
        phi_t = _dot(g, P_t) / denominator
        E_t = phi_t[:, None] * _perp(e)
        phi_tt = (_dot(P_t - E_t, P_t - E_t) + _dot(g, np.tile(accel[:2], (3, 1)))
                  + phi_t**2 * _dot(g, e)) / denominator
        out = {"P": P, "E": E, "P_t": P_t, "E_t": E_t, "phi_t": phi_t, "phi_tt": phi_tt}
        self._cache = (t, out)
        return out

    def driving_angle(self, t, i):
        """Angle of driving link i (rad), continuous in t: its angle at t = 0 plus the turn
        from there (the links swing by less than pi)."""
        e = self.kinematics(t)["E"][i] - self.base[i]
        e0 = self._e0[i]
        return np.arctan2(e0[1], e0[0]) + np.arctan2(e0[0] * e[1] - e0[1] * e[0], e0 @ e)

    def drive(self, i):
        """The drive of link i's joint: ``t -> (q, q', q'')``."""
        def drive(t):
            k = self.kinematics(t)
            return self.driving_angle(t, i), k["phi_t"][i], k["phi_tt"][i]
        return drive


@dataclass
class RRR:
    """The 3-RRR model and its parts: ``driving`` (3 rigid bodies), ``passive`` (3 beams),
    ``platform`` (a rigid body), ``state`` (the rigid kinematics at t = 0 and its rate),
    ``geometry`` (:class:`ThreeRRR`)."""

    model: rancf.Model
    state: rancf.State
    geometry: ThreeRRR
    driving: list
    passive: list
    platform: object

    def platform_pose(self, result):
        """Platform ``x, y, theta`` (n_out, 3) of a Result (m, m, rad)."""
        X = result.nodes[:, -1]
        return np.column_stack([X[:, 0], X[:, 1], np.arctan2(X[:, 3], X[:, 2])])

    def deflection(self, result, k):
        """Max distance (m) of passive link k's nodes from its chord, per output (n_out,)."""
        first = sum(b.n_nodes for b in self.passive[:k])
        nodes = result.nodes[:, first:first + self.passive[k].n_nodes, :2]
        chord = nodes[:, -1] - nodes[:, 0]
        normal = _perp(chord) / np.linalg.norm(chord, axis=1)[:, None]
        return np.abs(_dot(nodes - nodes[:, :1], normal[:, None])).max(axis=1)


def three_rrr(n_elements=100, driving=(2.01e11, 2700.0, 0.01, 0.03),
              passive=(7e8, 2700.0, 0.005, 0.01), plate_thickness=0.01, geometry=None):
    """The 3-RRR robot (paper table 3). ``driving``/``passive`` are ``(E, rho, T, W)`` (Pa,
    kg/m^3, m, m); the driving links' E is not used (they are rigid).

    Coordinates: 3 passive beams of ``n_elements``, then 3 driving links and the platform
    (4 each): ``12 (n + 1) + 16``, 1228 for n = 100 (the paper's 1227 hold the platform as
    x, y, theta).
    """
    geo = geometry if geometry is not None else ThreeRRR()
    _, rho1, T1, W1 = driving
    E2, rho2, T2, W2 = passive
    m_plate = rho1 * plate_thickness * np.sqrt(3.0) / 4.0 * geo.moving**2
    m_link = rho1 * T1 * W1 * geo.L1
    kin = geo.kinematics(0.0)
    e, g = kin["E"] - geo.base, kin["P"] - kin["E"]
    model = rancf.Model(gravity=(0.0, 0.0), elastic_model="berzeri")
    beams = [model.add_beam(geo.L2, n_elements, E=E2, rho=rho2, A=T2 * W2, I=T2 * W2**3 / 12.0,
                            start=kin["E"][i], angle=np.arctan2(g[i, 1], g[i, 0]))
             for i in range(3)]
    links = [model.add_rigid_body(m_link, m_link * geo.L1**2 / 12.0,
                                  position=geo.base[i] + e[i] / 2.0,
                                  angle=np.arctan2(e[i, 1], e[i, 0])) for i in range(3)]
    pose = geo.platform(0.0)[0]
    plate = model.add_rigid_body(m_plate, m_plate * geo.moving**2 / 12.0, position=pose[:2],
                                 angle=pose[2])
    for i in range(3):
        model.add_joint("revolute", model.ground.point(*geo.base[i]),
                        links[i].point(-geo.L1 / 2.0, 0.0), drive=geo.drive(i))
        model.add_joint("revolute", links[i].point(geo.L1 / 2.0, 0.0), beams[i].start)
        model.add_joint("revolute", beams[i].end, plate.point(*geo.platform_points[i]))

    # the time derivative of the rigid configuration, vertex by vertex
    s = np.linspace(0.0, geo.L2, n_elements + 1)[:, None]
    v = []
    for i in range(3):
        slope_t = (kin["P_t"][i] - kin["E_t"][i]) / geo.L2
        v.append(np.hstack([kin["E_t"][i] + s * slope_t, np.tile(slope_t, (s.size, 1))]).ravel())
    for i in range(3):
        u_t = kin["phi_t"][i] * _perp(e[i]) / geo.L1
        v.append(np.concatenate([kin["E_t"][i] / 2.0, u_t]))
    v.append(np.concatenate([geo.platform(0.0)[1][:2], [0.0, 0.0]]))
    state = rancf.State(model.build().x0, np.concatenate(v))
    return RRR(model, state, geo, links, beams, plate)
