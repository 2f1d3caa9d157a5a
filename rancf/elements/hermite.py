"""The two-node cubic Hermite element on which the planar ANCF beam (:mod:`rancf.elements.beam`)
and the spatial ANCF cable (:mod:`rancf.elements.ancf_cable`) interpolate their centreline
(theory: The ANCF beam element).

With ``xi = x / l`` (x the arc length of the reference, l the element length) the centreline is
``r(x) = S1 r_A + S2 r'_A + S3 r_B + S4 r'_B`` over the node positions and slopes, so in a space
of ``dim`` coordinates ``r = S e`` with ``S = [S1 I, S2 I, S3 I, S4 I]`` (dim, 4 dim) and::

    S1 = 1 - 3 xi^2 + 2 xi^3,  S2 = l (xi - 2 xi^2 + xi^3),
    S3 = 3 xi^2 - 2 xi^3,      S4 = l (xi^3 - xi^2).

The compiled kernels hold the same functions and their Gauss rules in
``rancf/elements/_hermite.pxd``.
"""
import numpy as np

from .. import checks


def shape_values(xi, l):
    """The four cubic Hermite functions ``S1, S2, S3, S4`` at xi (module docstring).

    Parameters
    ----------
    xi : float or ndarray
        Positions along the element, ``x / l`` (unchecked: callers check).
    l : float
        Element length (m).

    Returns
    -------
    tuple of 4 floats or ndarrays (the shape of xi)
        ``S1, S3`` dimensionless, ``S2, S4`` in m.

    Examples
    --------
    At a node the functions pick that node's position:

    >>> from rancf.elements import hermite
    >>> hermite.shape_values(1.0, 0.5)
    (0.0, 0.0, 1.0, 0.0)
    """
    return (1 - 3 * xi**2 + 2 * xi**3, l * (xi - 2 * xi**2 + xi**3),
            3 * xi**2 - 2 * xi**3, l * (xi**3 - xi**2))


def shape_matrix(xi, l, dim):
    """Shape-function matrix ``S(xi) = [S1 I, S2 I, S3 I, S4 I]`` of an element in a space of
    ``dim`` coordinates: ``r(xi) = S(xi) e``.

    Parameters
    ----------
    xi, l : float
        The position ``x / l`` along the element, in [0, 1], and the element length (m), > 0
        (a ValueError names the one outside its range).
    dim : int
        Coordinates of a point (2 for the planar beam, 3 for the spatial cable).

    Returns
    -------
    ndarray (dim, 4 dim)
        Dimensionless on the positions' columns, m on the slopes'.

    Examples
    --------
    >>> from rancf.elements import hermite
    >>> hermite.shape_matrix(0.5, 2.0, 1)
    array([[ 0.5 ,  0.25,  0.5 , -0.25]])
    """
    l = checks.positive("l", l)
    xi = checks.real("xi", xi, 0.0, 1.0)
    return np.hstack([sk * np.eye(dim) for sk in shape_values(xi, l)])


def shape_derivatives(xi, l):
    """``dS_k/dx``, ``d2S_k/dx2`` and ``d3S_k/dx3`` of the cubic Hermite functions at xi.

    Parameters
    ----------
    xi : ndarray (any shape)
        Positions along the element, ``x / l`` (unchecked: callers check).
    l : float
        Element length (m).

    Returns
    -------
    d1, d2, d3 : ndarray (xi.shape + (4,))
        The coefficients of the four node vectors ``r_A, r'_A, r_B, r'_B`` in ``r'``, ``r''``
        and ``r'''`` (1/m, 1/m^2, 1/m^3 on the positions; one power of 1/m less on the slopes).

    Examples
    --------
    A straight element along x (``r_A = 0``, ``r_B = l e_x``, unit slopes) has ``r' = e_x``
    and ``r'' = 0`` all along:

    >>> from rancf.elements import hermite
    >>> d1, d2, d3 = hermite.shape_derivatives(np.array([0.3]), 0.5)
    >>> x = np.array([0.0, 1.0, 0.5, 1.0])     # the x coordinates of r_A, r'_A, r_B, r'_B
    >>> bool(np.isclose(d1 @ x, 1.0)[0]), bool(np.isclose(d2 @ x, 0.0)[0])
    (True, True)
    """
    one = np.ones_like(xi)
    d1 = np.stack([(-6 * xi + 6 * xi**2) / l, 1 - 4 * xi + 3 * xi**2,
                   (6 * xi - 6 * xi**2) / l, 3 * xi**2 - 2 * xi], axis=-1)
    d2 = np.stack([(-6 + 12 * xi) / l**2, (-4 + 6 * xi) / l,
                   (6 - 12 * xi) / l**2, (6 * xi - 2) / l], axis=-1)
    d3 = np.stack([12 * one / l**3, 6 * one / l**2, -12 * one / l**3, 6 * one / l**2], axis=-1)
    return d1, d2, d3


def mass_coefficients(l):
    """``C = int_0^1 s s^T dxi`` for ``s = (S1, S2, S3, S4)``: the element mass matrix is
    ``M_E = rho A l (C x I)`` in a space of any dimension (theory: The ANCF beam element).

    Parameters
    ----------
    l : float
        Element length (m).

    Returns
    -------
    ndarray (4, 4)
        Dimensionless, m and m^2 where S2, S4 enter.

    Examples
    --------
    ``S1 + S3 = 1``: the position entries add up to the whole element:

    >>> from rancf.elements import hermite
    >>> C = hermite.mass_coefficients(0.5)
    >>> bool(np.isclose(C[0::2, 0::2].sum(), 1.0))
    True
    """
    return np.array([
        [13 / 35, 11 * l / 210, 9 / 70, -13 * l / 420],
        [11 * l / 210, l**2 / 105, 13 * l / 420, -l**2 / 140],
        [9 / 70, 13 * l / 420, 13 / 35, -11 * l / 210],
        [-13 * l / 420, -l**2 / 140, -11 * l / 210, l**2 / 105],
    ])
