"""The planar rigid body in natural coordinates (DESIGN.md section 6).

Coordinates ``X = [x, y, u_x, u_y]``: the centre of mass r (m) and the unit body axis u
(dimensionless, ``u . u = 1``), so that the body's angle is ``atan2(u_y, u_x)``. A point d
given in the body frame (m, from the centre of mass) sits at ``r + A(d) u`` with
``A(d) = [[d_x, -d_y], [d_y, d_x]]``, linear in X. With ``|u| = 1`` the kinetic energy
``1/2 m |r'|^2 + 1/2 I_G |u'|^2`` is ``1/2 m |r'|^2 + 1/2 I_G phi'^2``: the mass matrix is the
constant ``diag(m, m, I_G, I_G)``.
"""
import numpy as np


def point_map(d):
    """``A(d)`` (2, 2): the body point d (m, body frame) is at ``r + A(d) u``."""
    return np.array([[d[0], -d[1]], [d[1], d[0]]])


def mass_matrix(mass, inertia):
    """``diag(m, m, I_G, I_G)`` (4, 4): kg and kg m^2."""
    return np.diag([mass, mass, inertia, inertia])


def gravity_force(mass, gravity):
    """Generalized gravity force ``[m g, 0, 0]`` (4,), N; the potential is ``-F_G . X``."""
    return np.concatenate([mass * np.asarray(gravity, dtype=float), [0.0, 0.0]])
