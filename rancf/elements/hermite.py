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

from ..utilities import checks


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


def mass_matrix(rho, A, l, dim):
    """Constant element mass matrix ``M_E = int rho A S^T S dx = rho A l (C x I)`` in a space of
    ``dim`` coordinates, C of :func:`mass_coefficients` (theory: The ANCF beam element).

    Parameters
    ----------
    rho, A, l : float
        Density (kg/m^3), section area (m^2) and element length (m), > 0.
    dim : int
        Coordinates of a point (2 for the planar beam, 3 for the spatial cable).

    Returns
    -------
    ndarray (4 dim, 4 dim)
        kg on the position rows and columns, kg m and kg m^2 where slopes enter.

    Raises
    ------
    ValueError
        A parameter that is not positive (naming it).

    Examples
    --------
    A rigid translation v moves the whole mass, ``v^T M v = rho A l |v|^2``:

    >>> from rancf.elements import hermite
    >>> M = hermite.mass_matrix(7800.0, 1e-4, 0.5, 1)
    >>> v = np.array([1.0, 0.0, 1.0, 0.0])
    >>> bool(np.isclose(v @ M @ v, 7800.0 * 1e-4 * 0.5))
    True
    """
    rho, A, l = checks.positive("rho", rho), checks.positive("A", A), checks.positive("l", l)
    return rho * A * l * np.kron(mass_coefficients(l), np.eye(dim))


def gravity_force(rho, A, l, gravity, dim):
    """Generalized gravity force ``F_G = int S^T rho A g dx = rho A l [g/2, l g/12, g/2,
    -l g/12]`` in a space of ``dim`` coordinates; the gravity potential is ``V = -F_G . e``.

    Parameters
    ----------
    rho, A, l : float
        Density (kg/m^3), section area (m^2) and element length (m), > 0.
    gravity : sequence of dim floats
        The gravity vector g (m/s^2).
    dim : int
        Coordinates of a point.

    Returns
    -------
    ndarray (4 dim,)
        N on the positions, N m on the slopes.

    Raises
    ------
    ValueError
        A parameter that is not positive, a gravity that is not dim finite numbers.

    Examples
    --------
    The position entries add up to the element's weight:

    >>> from rancf.elements import hermite
    >>> F = hermite.gravity_force(7800.0, 1e-4, 0.5, (-9.81,), 1)
    >>> bool(np.isclose(F[0] + F[2], -7800.0 * 1e-4 * 0.5 * 9.81))
    True
    """
    rho, A, l = checks.positive("rho", rho), checks.positive("A", A), checks.positive("l", l)
    g = checks.vector("gravity", gravity, dim)
    return rho * A * l * np.concatenate([g / 2, l * g / 12, g / 2, -l * g / 12])


def centreline_derivatives(e, xi, l, dim):
    """``r'``, ``r''`` and ``r'''`` (d/dx) at ``xi = x / l`` of elements of coordinates e.

    Parameters
    ----------
    e : array_like (..., 4 dim)
        Element coordinates ``[r_A, r'_A, r_B, r'_B]`` (m; slopes dimensionless).
    xi : array_like, broadcastable with ``e[..., 0]``
        Positions along the elements (unchecked: callers check).
    l : float
        Element length (m).
    dim : int
        Coordinates of a point.

    Returns
    -------
    r1, r2, r3 : ndarray (..., dim)
        Dimensionless, 1/m, 1/m^2.

    Examples
    --------
    A straight element has ``r' = e_x`` and ``r'' = 0`` all along:

    >>> from rancf.elements import hermite
    >>> e = np.array([0.0, 0.0, 1.0, 0.0, 0.5, 0.0, 1.0, 0.0])
    >>> r1, r2, r3 = hermite.centreline_derivatives(e, 0.3, 0.5, 2)
    >>> bool(np.allclose(r1, [1.0, 0.0])), bool(np.allclose(r2, 0.0))
    (True, True)
    """
    e = np.asarray(e, dtype=float)
    nodes = e.reshape(e.shape[:-1] + (4, dim))
    return tuple(np.einsum("...j,...jd->...d", d, nodes)
                 for d in shape_derivatives(np.asarray(xi, dtype=float), l))


class HermiteKind:
    """The element kinds on the two-node cubic Hermite element, in what they share: the planar
    ANCF beam (:class:`rancf.elements.beam.PlanarANCFBeam`) and the spatial ANCF cable
    (:class:`rancf.elements.ancf_cable.SpatialANCFCable`).

    A subclass states ``node_size`` (``2 dimension``: a node's r and r'), ``nodes_per_element``
    (2), ``element_size`` (``4 dimension``) and ``dimension``, and provides its strain energy,
    forces and tangents (their sign is the subclass's), with ``_tangent(e, edot, l, EA, EI,
    damping, K, C)`` its compiled kernel of K and C. This class gives the rest, the same for
    both: the consistent mass and gravity force, the tangents of many elements at rest, the
    drawn centreline, and the gather of an element's coordinates from a model's vector and the
    scatter of an element vector back into one.

    Examples
    --------
    The centreline of a straight element, and its coordinates gathered from a model's vector,
    in the plane and in space:

    >>> from rancf.elements import ancf_cable, beam
    >>> planar, spatial = beam.PlanarANCFBeam("reissner"), ancf_cable.SpatialANCFCable()
    >>> x = np.array([0.0, 0.0, 1.0, 0.0, 0.5, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0])
    >>> e = planar.gather(x, [1, 2])
    >>> planar.shape(e, 0.5, 3)[1]
    array([0.75, 0.  ])
    >>> planar.shape_matrices(0.5, 3).shape, spatial.shape_matrices(0.5, 3).shape
    ((3, 2, 8), (3, 3, 12))
    >>> planar.dofs([1, 2])
    array([ 4,  5,  6,  7,  8,  9, 10, 11])
    >>> planar.scatter(np.ones(8), [1, 2], np.zeros(12))
    array([0., 0., 0., 0., 1., 1., 1., 1., 1., 1., 1., 1.])
    >>> bool(np.isclose(spatial.mass(7800.0, 1e-4, 0.5)[0, 0], 13 / 35 * 7800.0 * 1e-4 * 0.5))
    True
    >>> F = spatial.gravity_force(7800.0, 1e-4, 0.5, (0.0, 0.0, -9.81))
    >>> bool(np.isclose(F[2], -7800.0 * 1e-4 * 0.5 * 9.81 / 2))     # half the weight a node
    True
    >>> K, C = planar.element_tangents(e[None], [0.5], [2e5], [2e3], [0.0])
    >>> K.shape, bool(np.allclose(K[0], K[0].T))
    ((1, 8, 8), True)
    """

    def mass(self, rho, A, l):
        """Element mass matrix: :func:`mass_matrix` in the kind's dimension.

        Parameters
        ----------
        rho, A, l : float
            Density (kg/m^3), section area (m^2) and element length (m).

        Returns
        -------
        ndarray (element_size, element_size)
            kg (kg m, kg m^2 where slopes enter).

        The class example shows it in use.
        """
        return mass_matrix(rho, A, l, self.dimension)

    def gravity_force(self, rho, A, l, gravity):
        """Generalized gravity force: :func:`gravity_force` in the kind's dimension.

        Parameters
        ----------
        rho, A, l : float
            Density (kg/m^3), section area (m^2) and element length (m).
        gravity : array_like (dimension,)
            m/s^2.

        Returns
        -------
        ndarray (element_size,)
            N (N m on the slopes).

        The class example shows it in use.
        """
        return gravity_force(rho, A, l, gravity, self.dimension)

    def element_tangents(self, coordinates, lengths, EA, EI, damping):
        """Tangent stiffness and damping matrices of many elements at rest, for formulations
        working on a model's checked arrays (no checks here: the assembly made them).

        Parameters
        ----------
        coordinates : ndarray (n_elements, element_size)
            Element coordinates (m; slopes dimensionless).
        lengths, EA, EI, damping : array_like (n_elements,)
            m, N, N m^2, s.

        Returns
        -------
        K, C : ndarray (n_elements, element_size, element_size)
            The derivatives of the kind's force by the coordinates (N/m) and by their rates
            (N s/m) at zero coordinate rates, with the sign of the kind's ``tangents``.

        The class example shows it in use.
        """
        n, es = len(lengths), self.element_size
        K, C = np.empty((n, es, es)), np.empty((n, es, es))
        zero = np.zeros(es)
        for s in range(n):
            self._tangent(np.ascontiguousarray(coordinates[s], dtype=float), zero,
                          float(lengths[s]), float(EA[s]), float(EI[s]), float(damping[s]),
                          K[s], C[s])
        return K, C

    def shape(self, e, l, n_points):
        """The element's centreline ``S(xi) e`` at n_points values of xi evenly in [0, 1]:
        the shape drawn for it.

        Parameters
        ----------
        e : array_like (element_size,)
            Element coordinates.
        l : float
            Element length (m), > 0.
        n_points : int
            Points, >= 2.

        Returns
        -------
        ndarray (n_points, dimension)
            m.

        The class example shows it in use.
        """
        return self.shape_matrices(l, n_points) @ np.asarray(e, dtype=float)

    def shape_matrices(self, l, n_points):
        """The shape-function matrices ``S(xi)`` (:func:`shape_matrix`) at n_points values of
        xi evenly in [0, 1]: what :meth:`shape` applies, kept by a drawing that moves the same
        elements many times.

        Parameters
        ----------
        l : float
            Element length (m), > 0.
        n_points : int
            Points, >= 2.

        Returns
        -------
        ndarray (n_points, dimension, element_size)

        The class example shows it in use.
        """
        if int(n_points) != n_points or n_points < 2:
            raise ValueError(f"n_points must be an integer >= 2, got {n_points!r}")
        return np.array([shape_matrix(xi, l, self.dimension)
                         for xi in np.linspace(0.0, 1.0, int(n_points))])

    def dofs(self, vertices):
        """Indices in a model's coordinate vector of the elements on ``vertices``.

        Parameters
        ----------
        vertices : array_like of int (..., nodes_per_element)
            The vertices of each element, in the order of its nodes.

        Returns
        -------
        ndarray of int (..., element_size)
            ``node_size * vertex + i`` for each node, ``i < node_size``.

        The class example shows it in use.
        """
        v = np.asarray(vertices, dtype=np.intp)
        idx = self.node_size * v[..., None] + np.arange(self.node_size)
        return idx.reshape(v.shape[:-1] + (self.element_size,))

    def gather(self, x, vertices):
        """Element coordinates from a model's coordinates: the nodes of the element on
        ``vertices`` one after the other.

        Parameters
        ----------
        x : array_like (..., n_x)
            A model's coordinates.
        vertices : array_like of int (nodes_per_element,)
            The element's vertices.

        Returns
        -------
        ndarray (..., element_size)

        The class example shows it in use.
        """
        return np.asarray(x)[..., self.dofs(vertices)]

    def scatter(self, f, vertices, out):
        """``out[dofs] += f``: an element vector added into a model's vector (the transpose of
        :meth:`gather`).

        Parameters
        ----------
        f : array_like (element_size,)
            The element vector.
        vertices : array_like of int (nodes_per_element,)
            The element's vertices.
        out : ndarray (n_x,)
            The model's vector, added to in place.

        Returns
        -------
        ndarray (n_x,)
            ``out``.

        The class example shows it in use.
        """
        np.add.at(out, self.dofs(vertices), f)
        return out
