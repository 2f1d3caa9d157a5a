"""The spherical four-bar of the spatial closed-loop checks (tests/test_spatial_loops.py and the
``spatial-loops`` case): its rigid and flexible rancf models and its closed-form input-output
relation (the class docstring derives it)."""
import numpy as np

import rancf

DEG = np.pi / 180


def rotation(u, a):
    """The rotation by angle a about the unit vector u (Rodrigues)."""
    K = np.array([[0, -u[2], u[1]], [u[2], 0, -u[0]], [-u[1], u[0], 0]])
    return np.eye(3) + np.sin(a) * K + (1 - np.cos(a)) * K @ K


class SphericalFourBar:
    """A spherical four-bar: four joint axes through the origin O, the unit vectors ``u_A``,
    ``u_D`` fixed (the frame, arc ``a1`` between them), ``u_B`` on the crank (arc ``a2`` from
    ``u_A``), ``u_C`` on the rocker (arc ``a4`` from ``u_D``), the coupler keeping the arc ``a3``
    between ``u_B`` and ``u_C``. Arcs 70, 25, 60 and 55 degrees: Grashof (25 + 70 <= 60 + 55)
    with the crank shortest, a crank-rocker.

    Input-output relation (derived here; the spherical form of Freudenstein's equation, as in
    Chiang, *Kinematics of Spherical Mechanisms*, ch. 6). The crank turns ``u_B`` about ``u_A``
    by the input angle theta, the rocker turns ``u_C`` about ``u_D`` by the output angle phi:
    ``u_B = R(u_A, theta) u_B0``, ``u_C = R(u_D, phi) u_C0`` with Rodrigues'
    ``R(u, phi) v = v cos phi + (u x v) sin phi + u (u . v)(1 - cos phi)``. The coupler's
    condition ``u_B . u_C = cos a3`` is then ``P cos phi + S sin phi = C``::

        P = u_B . u_C0 - (u_D . u_B)(u_D . u_C0),   S = u_B . (u_D x u_C0),
        C = cos a3 - (u_D . u_B)(u_D . u_C0),

    so ``phi = atan2(S, P) +- arccos(C / sqrt(P^2 + S^2))``, the branch the one through
    phi = 0 at theta = 0, followed by continuity.

    The model. Four revolute joints through one point give three redundant constraint rows
    (Gruebler counts -2 degrees of freedom for a mechanism of one), which a DAE's saddle-point
    matrix cannot take; the joints at B and C are a spherical and a universal joint instead (an
    RSUR linkage: 5 + 3 + 4 + 5 = 17 independent rows, one degree of freedom), at the points
    ``R u_B`` and ``R u_C`` of the sphere of radius R. Its motion is the spherical four-bar's:
    two points of the coupler at ``R u_B`` and ``R u_C`` keep their distance
    ``2 R sin(a3 / 2)`` exactly when ``u_B . u_C = cos a3``, and the universal joint's first axis
    is ``u_C`` (fixed in coupler and rocker alike in the four-bar's motion), its second normal
    to ``u_C`` and to the coupler, so that its one rotation row holds the coupler's spin about
    the line BC.
    """

    a1, a2, a3, a4 = 70 * DEG, 25 * DEG, 60 * DEG, 55 * DEG
    R = 0.5

    def __init__(self):
        self.uA = np.array([0.0, 0.0, 1.0])
        self.uD = np.array([np.sin(self.a1), 0.0, np.cos(self.a1)])
        th0 = 100 * DEG
        self.uB = np.array([np.sin(self.a2) * np.cos(th0), np.sin(self.a2) * np.sin(th0),
                            np.cos(self.a2)])
        # u_C on the cones of half-angles a3 about u_B and a4 about u_D
        base = np.linalg.lstsq(np.array([self.uB, self.uD]),
                               [np.cos(self.a3), np.cos(self.a4)], rcond=None)[0]
        n = np.cross(self.uB, self.uD)
        self.uC = base + np.sqrt(1 - base @ base) / np.linalg.norm(n) * n
        self.P = {k: self.R * getattr(self, "u" + k) for k in "ABCD"}
        a = np.cross(self.uC, self.P["C"] - self.P["B"])
        self.a_universal = a / np.linalg.norm(a)

    @staticmethod
    def drive(t):
        """The crank's angle, from rest: ``(pi / 2)(1 - cos(pi t))``, half a turn in 1 s."""
        return (np.pi / 2 * (1 - np.cos(np.pi * t)), np.pi ** 2 / 2 * np.sin(np.pi * t),
                np.pi ** 3 / 2 * np.cos(np.pi * t))

    def output(self, theta):
        """The closed-form output angles (rad) of the input angles theta (in order)."""
        out, prev = [], 0.0
        for th in theta:
            b = rotation(self.uA, th) @ self.uB
            P = b @ self.uC - (self.uD @ b) * (self.uD @ self.uC)
            S = b @ np.cross(self.uD, self.uC)
            C = np.cos(self.a3) - (self.uD @ b) * (self.uD @ self.uC)
            roots = np.arctan2(S, P) + np.array([1, -1]) * np.arccos(C / np.hypot(P, S))
            roots = prev + (roots - prev + np.pi) % (2 * np.pi) - np.pi
            prev = roots[np.argmin(np.abs(roots - prev))]
            out.append(prev)
        return np.array(out)

    def joints(self, m, crank, coupler, rocker, at):
        """The four joints between the links (points by ``at(link, point)``); the universal
        joint closes the loop. Returns the input and output joints and the universal."""
        P = self.P
        j_in = m.add_joint("revolute", m.ground.point(*P["A"]), at(crank, "A"), axis=self.uA,
                           drive=self.drive)
        m.add_joint("spherical", at(crank, "B"), at(coupler, "B"))
        j_out = m.add_joint("revolute", m.ground.point(*P["D"]), at(rocker, "D"), axis=self.uD)
        loop = m.add_joint("universal", at(coupler, "C"), at(rocker, "C"),
                           axes=[self.uC, self.a_universal])
        return j_in, j_out, loop

    def rigid(self):
        """The four-bar of three slender rigid rods (steel-like masses), gravity along -z."""
        m = rancf.Model(dim=3, gravity=(0.0, 0.0, -9.81))
        P = self.P

        def rod(mass, p, q):
            L = np.linalg.norm(P[q] - P[p])
            e = (P[q] - P[p]) / L
            J = mass * L ** 2 / 12 * (np.eye(3) - np.outer(e, e)) + 1e-4 * np.eye(3)
            return m.add_rigid_body(mass, J, position=(P[p] + P[q]) / 2)

        links = rod(1.0, "A", "B"), rod(1.5, "B", "C"), rod(1.2, "D", "C")
        return (m,) + self.joints(m, *links, lambda body, k: body.point(*(P[k] - body.position)))

    E, rho, r = 2.1e11, 7800.0, 0.01

    def flexible(self, n_elements=1):
        """The four-bar of three steel beams (``n_elements`` elements each, round section of
        radius r), gravity along -z."""
        m = rancf.Model(dim=3, gravity=(0.0, 0.0, -9.81))
        P, E = self.P, self.E
        A, I = np.pi * self.r ** 2, np.pi * self.r ** 4 / 4

        ends = {}

        def beam(p, q, up):
            L = np.linalg.norm(P[q] - P[p])
            b = m.add_beam(L, n_elements, E=E, rho=self.rho, A=A, I=(I, I), J=2 * I, G=E / 2.6,
                           start=P[p], direction=(P[q] - P[p]) / L, up=up)
            ends[b.index] = {p: b.start, q: b.end}
            return b

        links = beam("A", "B", self.uA), beam("B", "C", self.uB), beam("D", "C", self.uD)
        return (m,) + self.joints(m, *links, lambda b, k: ends[b.index][k])
