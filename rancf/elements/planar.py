"""Planar geometry, stated once (theory: Rigid bodies, Joint coordinates).

The formulas every layer above uses for points and angles in the plane: the rotation
``R(a)``, the direction of an angle, the point of a rigid body ``r_G + A(d) u`` and its
Jacobian ``A(d)``, the angle wrap and the joint angle ``atan2(p x c, p . c)``. The compiled
kernels use their counterparts in ``rancf/elements/_planar.pxd``, which compute the same
things with the same arithmetic in the same order (so Python and the kernels agree to the
last bit), but for the sum of the body point (its docstring).
"""
import numpy as np


def rotation(angle):
    """The rotation by ``angle``: ``R(a) = [[cos a, -sin a], [sin a, cos a]]``.

    Parameters
    ----------
    angle : float
        rad.

    Returns
    -------
    ndarray (2, 2)
        Orthogonal, ``R(a) R(b) = R(a + b)``.

    Examples
    --------
    >>> from rancf.elements import planar
    >>> (planar.rotation(np.pi / 2) @ [1.0, 0.0]).round(12)
    array([0., 1.])
    """
    c, s = np.cos(angle), np.sin(angle)
    return np.array([[c, -s], [s, c]])


def direction(angle):
    """The unit direction of an angle, ``(cos a, sin a) = R(a) e_x``: a ground point's
    direction, a straight beam's slope, a rigid body's axis (theory: Joint coordinates).

    Parameters
    ----------
    angle : float
        rad, from the x axis.

    Returns
    -------
    ndarray (2,)

    Examples
    --------
    >>> from rancf.elements import planar
    >>> planar.direction(np.pi).round(12)
    array([-1.,  0.])
    """
    return np.array([np.cos(angle), np.sin(angle)])


def point_map(d):
    """The map from a body's axis to a point of it, the Jacobian of the body point
    ``r_G + A(d) u`` with respect to u (theory: Rigid bodies).

    Parameters
    ----------
    d : sequence of 2 floats
        The point in the body frame, from the centre of mass (m).

    Returns
    -------
    ndarray (2, 2)
        ``A(d) = [[d_x, -d_y], [d_y, d_x]]`` (m); ``A(d) u = R(phi) d`` for ``u = (cos phi,
        sin phi)``.

    Examples
    --------
    A body turned by 90 degrees (u = (0, 1)) carries its point (1, 0) to (0, 1) from r:

    >>> from rancf.elements import planar
    >>> planar.point_map([1.0, 0.0]) @ np.array([0.0, 1.0])
    array([0., 1.])
    """
    return np.array([[d[0], -d[1]], [d[1], d[0]]])


def body_point(X, d):
    """The position of the point d of rigid bodies, ``r_G + A(d) u`` (theory: Rigid bodies).

    Parameters
    ----------
    X : ndarray (..., 4)
        Natural coordinates ``[r_G, u]``: centre of mass (m) and unit axis (any leading shape,
        for instance one body at many instants).
    d : sequence of 2 floats
        The point in the body frame, from the centre of mass (m).

    Returns
    -------
    ndarray (..., 2)
        m. Computed as ``r_G + (A(d) u)``, as the recursion's kinematics do; the force kernels'
        ``body_point`` (``_planar.pxd``) sums left to right, which may differ in the last bit.

    Examples
    --------
    A body at (1, 2) m whose axis points along y: its point 0.5 m along the axis.

    >>> from rancf.elements import planar
    >>> planar.body_point(np.array([1.0, 2.0, 0.0, 1.0]), (0.5, 0.0))
    array([1. , 2.5])
    """
    return X[..., :2] + np.stack([d[0] * X[..., 2] - d[1] * X[..., 3],
                                  d[1] * X[..., 2] + d[0] * X[..., 3]], axis=-1)


def whole_turns(angle):
    """The whole turns ``m = floor((a + pi) / (2 pi))`` that :func:`wrap` takes off an angle a
    (``wrap(a) = a - 2 pi m``); of an angle's step from one output to the next, the turns by
    which it passed +-pi.

    Parameters
    ----------
    angle : float or ndarray
        rad.

    Returns
    -------
    float or ndarray
        A whole number (as floats).

    Examples
    --------
    >>> from rancf.elements import planar
    >>> float(planar.whole_turns(3 * np.pi / 2)), float(planar.whole_turns(-0.5))
    (1.0, 0.0)
    """
    return np.floor((angle + np.pi) / (2.0 * np.pi))


def wrap(angle):
    """An angle wrapped into ``[-pi, pi)``: ``a - 2 pi floor((a + pi) / (2 pi))``.

    Parameters
    ----------
    angle : float or ndarray
        rad.

    Returns
    -------
    float or ndarray
        rad, differing from ``angle`` by a whole number of turns.

    Examples
    --------
    >>> from rancf.elements import planar
    >>> float(planar.wrap(3 * np.pi / 2))
    -1.5707963267948966
    """
    return angle - 2.0 * np.pi * whole_turns(angle)


def joint_angle(p, c):
    """The angle from a direction p to a direction c, ``atan2(p x c, p . c)`` (theory: Joint
    coordinates): the relative angle of a joint's child to its parent, in ``[-pi, pi]``.

    Parameters
    ----------
    p, c : ndarray (2,)
        The parent's and the child's direction vectors (any length, not zero).

    Returns
    -------
    float
        rad.

    Examples
    --------
    >>> from rancf.elements import planar
    >>> float(planar.joint_angle(np.array([0.0, 2.0]), np.array([-1.0, 0.0])))
    1.5707963267948966
    """
    return np.arctan2(p[0] * c[1] - p[1] * c[0], p @ c)
