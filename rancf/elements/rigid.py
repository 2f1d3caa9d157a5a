"""The planar rigid body in natural coordinates (theory: Rigid bodies).

Coordinates ``X = [x, y, u_x, u_y]``: the centre of mass r (m) and the unit body axis u
(dimensionless, ``u . u = 1``), so that the body's angle is ``atan2(u_y, u_x)``. A point d
given in the body frame (m, from the centre of mass) sits at ``r + A(d) u`` with
``A(d) = [[d_x, -d_y], [d_y, d_x]]``, linear in X (:func:`rancf.elements.planar.body_point`,
:func:`rancf.elements.planar.point_map`). With ``|u| = 1`` the kinetic energy
``1/2 m |r'|^2 + 1/2 I_G |u'|^2`` is ``1/2 m |r'|^2 + 1/2 I_G phi'^2``: the mass matrix is the
constant ``diag(m, m, I_G, I_G)``.
"""
import numpy as np


def mass_matrix(mass, inertia):
    """Mass matrix of a rigid body in natural coordinates.

    Parameters
    ----------
    mass : float
        kg.
    inertia : float
        Moment of inertia about the centre of mass (kg m^2).

    Returns
    -------
    ndarray (4, 4)
        ``diag(m, m, I_G, I_G)``.

    Examples
    --------
    >>> from rancf.elements import rigid
    >>> np.diag(rigid.mass_matrix(2.0, 0.1))
    array([2. , 2. , 0.1, 0.1])
    """
    return np.diag([mass, mass, inertia, inertia])


def gravity_force(mass, gravity):
    """Generalized gravity force of a rigid body; the potential is ``-F_G . X``.

    Parameters
    ----------
    mass : float
        kg.
    gravity : sequence of 2 floats
        The gravity vector (m/s^2).

    Returns
    -------
    ndarray (4,)
        ``[m g_x, m g_y, 0, 0]`` (N).

    Examples
    --------
    >>> from rancf.elements import rigid
    >>> rigid.gravity_force(2.0, (0.0, -9.81))
    array([  0.  , -19.62,   0.  ,   0.  ])
    """
    return np.concatenate([mass * np.asarray(gravity, dtype=float), [0.0, 0.0]])


class RigidBody:
    """The planar rigid body as a node kind: one node ``[x, y, u_x, u_y]`` (module docstring),
    mass and gravity force by the functions of this module.

    Examples
    --------
    >>> from rancf.elements import rigid
    >>> rigid.RigidBody.node_size
    4
    >>> float(rigid.RigidBody().mass(2.0, 0.1)[2, 2])     # diag(m, m, I, I): I, kg m^2
    0.1
    >>> v = np.array([[[1.0, 0.0, 0.0, 2.0]]])     # one instant, one body: r' = (1, 0), u' = (0, 2)
    >>> rigid.RigidBody().kinetic_energies(np.array([2.0]), np.array([0.1]), v)
    array([1.2])
    """

    #: Coordinates of the node: centre of mass r (m) and unit axis u.
    node_size = 4
    #: Coordinates of a point.
    dimension = 2

    def __repr__(self):
        return "RigidBody()"

    # the functions of this module, with their documentation: a body's mass and gravity force
    # take no state of the kind
    mass = staticmethod(mass_matrix)
    gravity_force = staticmethod(gravity_force)

    def kinetic_energies(self, masses, inertias, velocities):
        """Kinetic energy ``1/2 (m |r'|^2 + I |u'|^2)`` of bodies at many instants.

        Parameters
        ----------
        masses, inertias : ndarray (n_bodies,)
            kg, kg m^2.
        velocities : ndarray (n_out, n_bodies, node_size)
            Node rates ``[x', y', u_x', u_y']`` (m/s, 1/s).

        Returns
        -------
        ndarray (n_out,)
            J, summed over the bodies.

        The class example shows it in use.
        """
        v = np.asarray(velocities, dtype=float)
        return 0.5 * (masses * (v[..., :2]**2).sum(axis=-1)
                      + inertias * (v[..., 2:]**2).sum(axis=-1)).sum(axis=-1)
