"""The planar two-node ANCF beam element of Shabana (theory: The ANCF beam element).

Node coordinates are ``[x, y, x', y']``: position (m) and slope ``dr/ds``
(dimensionless; unit length for an unstretched beam). Element coordinates are
``e = [r_A, r'_A, r_B, r'_B]`` (8,). With ``xi = s / l``, ``r(s) = S(xi) e`` and the cubic
Hermite functions (:mod:`rancf.elements.hermite`)::

    S = [S1 I2, S2 I2, S3 I2, S4 I2],  S1 = 1 - 3 xi^2 + 2 xi^3,  S2 = l (xi - 2 xi^2 + xi^3),
                                       S3 = 3 xi^2 - 2 xi^3,      S4 = l (xi^3 - xi^2).

Elastic models (``model``), all conservative, ``F_K = dU/de``:

``"shabana"``
    Local-frame model of the RANCF paper (eq. 5-7): axial strain ``t.r' - 1`` and
    curvature ``n.r''`` in the chord frame (t, n) of the element; 3 Gauss points.
``"berzeri"``
    Continuum model of Berzeri and Shabana (adaptive-modal paper eq. 8-16): Green strain
    ``(r'.r' - 1)/2`` and curvature approximated by ``|r''|``; 5 Gauss points. Rigid
    motions leave U and F_K zero only for a straight element.
``"reissner"``
    Axial strain ``|r'| - 1`` (5 Gauss points), bending strain
    ``(r' x r'') / |r'|^2`` (3 Gauss points): the model of Exudyn's ANCFCable2D.

Material damping (Kelvin-Voigt, damping time ``c`` in s): the dissipation function
``D = c/2 int (EA epsdot^2 + EI kappadot^2) ds`` of the model's strains; the damping force is
``F_D = dD/dedot`` and the dissipated power ``F_D . edot = 2 D >= 0``.

Known caveats: like every fully parameterised planar ANCF beam with cubic position
interpolation, thin elements lock under bending when few are used; refine the mesh.
"""
import numpy as np

from ..utilities import checks
from . import _beam, hermite

#: Elastic model names and their kernel codes.
MODELS = {m.name.lower(): int(m) for m in _beam.ElasticModel}


def model_code(model):
    """Kernel code of an elastic model name.

    Parameters
    ----------
    model : {"shabana", "berzeri", "reissner"}
        Elastic model name.

    Returns
    -------
    int
        0, 1 or 2, as the compiled kernels number the models.

    Raises
    ------
    ValueError
        An unknown name.

    Examples
    --------
    >>> from rancf.elements import beam
    >>> beam.model_code("reissner")
    2
    """
    return MODELS[checks.choice("elastic_model", model, MODELS)]


def shape_functions(xi, l):
    """Shape-function matrix of an element: ``r(xi) = S(xi) e``
    (:func:`rancf.elements.hermite.shape_matrix` in the plane).

    Parameters
    ----------
    xi : float
        Position along the element, ``s / l`` in [0, 1].
    l : float
        Element length (m), > 0.

    Returns
    -------
    ndarray (2, 8)
        ``[S1 I2, S2 I2, S3 I2, S4 I2]`` (module docstring).

    Raises
    ------
    ValueError
        ``xi`` outside [0, 1] or ``l`` not positive.

    Examples
    --------
    The middle of a straight element lies halfway between its nodes:

    >>> from rancf.elements import beam
    >>> e = np.array([0.0, 0.0, 1.0, 0.0, 0.5, 0.0, 1.0, 0.0])    # 0.5 m along +x
    >>> beam.shape_functions(0.5, 0.5) @ e
    array([0.25, 0.  ])
    """
    return hermite.shape_matrix(xi, l, 2)


def mass_matrix(rho, A, l):
    """Constant element mass matrix ``M_E = int rho A S^T S ds``: the closed form of
    :func:`rancf.elements.hermite.mass_matrix` in the plane.

    Parameters
    ----------
    rho, A, l : float
        Density (kg/m^3), section area (m^2) and element length (m), > 0.

    Returns
    -------
    ndarray (8, 8)
        kg on the position rows and columns, kg m and kg m^2 where slopes enter.

    Raises
    ------
    ValueError
        A parameter that is not positive.

    Examples
    --------
    A rigid translation v moves the whole mass: ``v^T M v = m |v|^2``.

    >>> from rancf.elements import beam
    >>> M = beam.mass_matrix(7800.0, 1e-4, 0.5)
    >>> v = np.array([1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0])
    >>> bool(np.isclose(v @ M @ v, 7800.0 * 1e-4 * 0.5))
    True
    """
    return hermite.mass_matrix(rho, A, l, 2)


def gravity_force(rho, A, l, gravity):
    """Generalized gravity force ``F_G = int S^T rho A g ds``
    (:func:`rancf.elements.hermite.gravity_force` in the plane).

    The gravity potential is ``V = -F_G . e``.

    Parameters
    ----------
    rho, A, l : float
        Density (kg/m^3), section area (m^2) and element length (m), > 0.
    gravity : sequence of 2 floats
        The gravity vector g (m/s^2).

    Returns
    -------
    ndarray (8,)
        N on the positions, N m on the slopes.

    Raises
    ------
    ValueError
        A parameter that is not positive, a gravity that is not two finite numbers.

    Examples
    --------
    The position entries add up to the element's weight:

    >>> from rancf.elements import beam
    >>> F = beam.gravity_force(7800.0, 1e-4, 0.5, (0.0, -9.81))
    >>> bool(np.isclose(F[1] + F[5], -7800.0 * 1e-4 * 0.5 * 9.81))
    True
    """
    return hermite.gravity_force(rho, A, l, gravity, 2)


def _element_args(e, l, E, A, I, model, edot=None, damping=0.0):
    arrays = []
    for name, x in (("e", e), ("edot", np.zeros(8) if edot is None else edot)):
        x = np.ascontiguousarray(x, dtype=float)
        if x.shape != (8,):
            raise ValueError(f"{name} must have shape (8,), got {x.shape}")
        if not np.all(np.isfinite(x)):
            raise ValueError(f"{name} must be finite")
        arrays.append(x)
    l, E = checks.positive("l", l), checks.positive("E", E)
    A, I = checks.positive("A", A), checks.positive("I", I)
    return (model_code(model), arrays[0], arrays[1], l, E * A, E * I,
            checks.non_negative("damping", damping))


def _tangents(e, l, E, A, I, model, edot, damping):
    """``(K, C)`` of one element, checked, in one kernel call."""
    K, C = np.empty((8, 8)), np.empty((8, 8))
    _beam.tangent(*_element_args(e, l, E, A, I, model, edot, damping), K, C)
    return K, C


def elastic_energy(e, l, E, A, I, model="shabana"):
    """Strain energy ``U(e)`` of one element.

    Parameters
    ----------
    e : array_like (8,)
        Element coordinates ``[r_A, r'_A, r_B, r'_B]`` (m; slopes dimensionless).
    l : float
        Element length (m).
    E, A, I : float
        Young's modulus (Pa), section area (m^2), second moment of area (m^4).
    model : {"shabana", "berzeri", "reissner"}
        Elastic model (module docstring).

    Returns
    -------
    float
        J.

    Raises
    ------
    ValueError
        ``e`` not (8,) or not finite, a parameter that is not positive, an unknown model.

    Examples
    --------
    A straight unstretched element stores no energy; stretched by 1e-3 it stores
    ``E A l eps^2 / 2``:

    >>> from rancf.elements import beam
    >>> e = np.array([0.0, 0.0, 1.0, 0.0, 0.5, 0.0, 1.0, 0.0])
    >>> bool(abs(beam.elastic_energy(e, 0.5, 2e9, 1e-4, 1e-9, "reissner")) < 1e-20)
    True
    >>> s = 1.001 * e
    >>> u = beam.elastic_energy(s, 0.5, 2e9, 1e-4, 1e-9, "reissner")
    >>> bool(np.isclose(u, 2e9 * 1e-4 * 0.5 * 1e-3**2 / 2))
    True
    """
    return _beam.force(*_element_args(e, l, E, A, I, model), np.empty(8))[0]


def elastic_force(e, l, E, A, I, model="shabana"):
    """Elastic force ``F_K = dU/de`` of one element.

    Parameters
    ----------
    e : array_like (8,)
        Element coordinates (m; slopes dimensionless).
    l, E, A, I : float
        Element length (m), Young's modulus (Pa), section area (m^2), second moment of area
        (m^4).
    model : {"shabana", "berzeri", "reissner"}
        Elastic model.

    Returns
    -------
    ndarray (8,)
        N on the positions, N m on the slopes.

    Raises
    ------
    ValueError
        As :func:`elastic_energy`.

    Examples
    --------
    The gradient of :func:`elastic_energy`, checked by a central difference:

    >>> from rancf.elements import beam
    >>> e = np.array([0.0, 0.0, 1.0, 0.0, 0.5, 0.01, 1.0, 0.0])
    >>> args = (0.5, 2e9, 1e-4, 1e-9, "reissner")
    >>> d = np.zeros(8); d[5] = 1e-7
    >>> fd = (beam.elastic_energy(e + d, *args) - beam.elastic_energy(e - d, *args)) / 2e-7
    >>> bool(np.isclose(beam.elastic_force(e, *args)[5], fd, rtol=1e-6))
    True
    """
    f = np.empty(8)
    _beam.force(*_element_args(e, l, E, A, I, model), f)
    return f


def internal_force(e, edot, l, E, A, I, damping, model="shabana"):
    """Elastic plus damping force of one element, and the power it dissipates.

    Parameters
    ----------
    e, edot : array_like (8,)
        Element coordinates (m; slopes dimensionless) and their rates (m/s, 1/s).
    l, E, A, I : float
        Element length (m), Young's modulus (Pa), section area (m^2), second moment of area
        (m^4).
    damping : float
        Kelvin-Voigt damping time c (s, >= 0).
    model : {"shabana", "berzeri", "reissner"}
        Elastic model.

    Returns
    -------
    force : ndarray (8,)
        ``F_K + F_D`` (N, N m).
    power : float
        Dissipated power ``F_D . edot = 2 D >= 0`` (W).

    Raises
    ------
    ValueError
        As :func:`elastic_energy`, or a negative damping.

    Examples
    --------
    >>> from rancf.elements import beam
    >>> e = np.array([0.0, 0.0, 1.0, 0.0, 0.5, 0.01, 1.0, 0.0])
    >>> f, power = beam.internal_force(e, np.ones(8), 0.5, 2e9, 1e-4, 1e-9, 1e-3, "reissner")
    >>> bool(power > 0.0)
    True
    """
    f = np.empty(8)
    power = _beam.force(*_element_args(e, l, E, A, I, model, edot, damping), f)[1]
    return f, power


def tangent_stiffness(e, l, E, A, I, model="shabana", edot=None, damping=0.0):
    """Tangent stiffness ``K = d(F_K + F_D)/de`` of one element, exact to round-off.

    Computed by complex-step differentiation of the force kernel.

    Parameters
    ----------
    e : array_like (8,)
        Element coordinates (m; slopes dimensionless).
    l, E, A, I : float
        Element length (m), Young's modulus (Pa), section area (m^2), second moment of area
        (m^4).
    model : {"shabana", "berzeri", "reissner"}
        Elastic model.
    edot : array_like (8,), optional
        Coordinate rates (m/s, 1/s) for the damping force's part; default zero.
    damping : float
        Kelvin-Voigt damping time c (s, >= 0).

    Returns
    -------
    ndarray (8, 8)
        N/m and its mixed units; symmetric without damping (the Hessian of U).

    Raises
    ------
    ValueError
        As :func:`internal_force`.

    Examples
    --------
    >>> from rancf.elements import beam
    >>> e = np.array([0.0, 0.0, 1.0, 0.0, 0.5, 0.01, 1.0, 0.0])
    >>> K = beam.tangent_stiffness(e, 0.5, 2e9, 1e-4, 1e-9, "reissner")
    >>> bool(np.allclose(K, K.T))
    True
    """
    return _tangents(e, l, E, A, I, model, edot, damping)[0]


def damping_matrix(e, edot, l, E, A, I, damping, model="shabana"):
    """Damping matrix ``C = dF_D/dedot`` of one element.

    Parameters
    ----------
    e, edot : array_like (8,)
        Element coordinates and their rates.
    l, E, A, I : float
        Element length (m), Young's modulus (Pa), section area (m^2), second moment of area
        (m^4).
    damping : float
        Kelvin-Voigt damping time c (s, >= 0).
    model : {"shabana", "berzeri", "reissner"}
        Elastic model.

    Returns
    -------
    ndarray (8, 8)
        N s/m and its mixed units: symmetric, positive semi-definite.

    Raises
    ------
    ValueError
        As :func:`internal_force`.

    Examples
    --------
    >>> from rancf.elements import beam
    >>> e = np.array([0.0, 0.0, 1.0, 0.0, 0.5, 0.01, 1.0, 0.0])
    >>> C = beam.damping_matrix(e, np.zeros(8), 0.5, 2e9, 1e-4, 1e-9, 1e-3, "reissner")
    >>> bool(np.linalg.eigvalsh(C).min() > -1e-9 * np.abs(C).max())
    True
    """
    return _tangents(e, l, E, A, I, model, edot, damping)[1]


def _cross(a, b):
    return a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0]


def _dot(a, b):
    return a[..., 0] * b[..., 0] + a[..., 1] * b[..., 1]


def _turned(a):
    """``J a``: the vectors a (..., 2) turned by +90 degrees."""
    return np.stack([-a[..., 1], a[..., 0]], axis=-1)


def section_forces(e, xi, l, EA, EI, model="shabana"):
    """Normal force, shear force and bending moment at ``xi = s / l`` of elements, from the
    elastic model's strain measures and constitutive law (the elastic stresses: material
    damping's part is left out).

    ``"reissner"``
        ``N = E A (|r'| - 1)``, ``M = E I kappa``, ``kappa = (r' x r'') / |r'|^2``.
    ``"shabana"``
        ``N = E A (t . r' - 1)``, ``M = E I n . r''`` in the element's chord frame (t, n).
    ``"berzeri"``
        ``N = E A |r'| (r' . r' - 1) / 2`` (the Green strain's conjugate times the stretch:
        the force in the deformed beam), ``M = E I |r''|`` with the sign of ``r' x r''`` (the
        model's curvature is ``|r''|``); its shear force from the derivative of ``E I n . r''``
        (n the unit normal), which is M where r'' is normal to r' and, unlike ``|r''|``, has
        a derivative where the curvature passes through zero.

    None of the three has a shear strain: the shear force is the one equilibrium gives,
    ``Q = -(dM/ds) / |r'|`` (moment balance of a slice without distributed moments), from the
    derivative of the element's M. With cubic shape functions M is of lower order than r and
    Q lower still: both converge with the mesh, not within an element, and the axial strain of
    a bent element oscillates along it (a few 1e-3 of a tip load at 4 elements per beam).

    Sign convention: the force and moment that the part of the beam beyond s (towards its
    end) exerts on the part before s; N along the tangent (tension positive), Q along the
    normal ``J t`` (the tangent turned by +90 degrees), M counter-clockwise positive (the sign
    of the curvature). A cantilever along +x under a downward tip load P has
    ``M(s) = -P (L - s)`` and ``Q = -P``.

    Parameters
    ----------
    e : array_like (..., 8)
        Element coordinates.
    xi : array_like, broadcastable with ``e[..., 0]``
        Positions along the elements, in [0, 1].
    l : float
        Element length (m), > 0.
    EA, EI : float
        Axial (N) and bending (N m^2) stiffness.
    model : {"shabana", "berzeri", "reissner"}

    Returns
    -------
    ndarray (..., 3)
        ``[N, Q, M]`` (N, N, N m).

    Examples
    --------
    An element stretched by 1 % along an arc of curvature 0.2 1/m (Reissner):

    >>> from rancf.elements import beam
    >>> k, l = 0.2, 0.5
    >>> e = 1.01 * np.array([0.0, 0.0, 1.0, 0.0, np.sin(k * l) / k, (1 - np.cos(k * l)) / k,
    ...                      np.cos(k * l), np.sin(k * l)])
    >>> N, Q, M = beam.section_forces(e, 0.5, l, 1e3, 10.0, "reissner")
    >>> round(float(N), 3), round(float(M), 2)      # the cubic arc is 5e-4 off the circle
    (10.0, 2.0)
    """
    checks.choice("model", model, MODELS)
    e = np.asarray(e, dtype=float)
    r1, r2, r3 = hermite.centreline_derivatives(e, xi, l, 2)
    stretch = np.sqrt(_dot(r1, r1))
    if model == "reissner":
        normal = EA * (stretch - 1.0)
        c12 = _cross(r1, r2)
        moment = EI * c12 / stretch**2
        dmoment = EI * (_cross(r1, r3) / stretch**2 - 2.0 * c12 * _dot(r1, r2) / stretch**4)
    elif model == "shabana":
        chord = e[..., 4:6] - e[..., 0:2]      # r_B - r_A
        t = chord / np.sqrt(_dot(chord, chord))[..., None]
        n = _turned(t)
        normal = EA * (_dot(t, r1) - 1.0)
        moment = EI * _dot(n, r2)
        dmoment = EI * _dot(n, r3)
    else:
        # the Green strain's conjugate is the force per unit stretch: E A eps |r'| is the
        # force in the deformed beam
        normal = EA * 0.5 * (stretch**2 - 1.0) * stretch
        sign = np.where(_cross(r1, r2) < 0.0, -1.0, 1.0)
        moment = EI * sign * np.sqrt(_dot(r2, r2))
        # |r''| has no derivative where r'' passes through zero (a free end): the derivative
        # of its normal part n . r'' (n = J r' / |r'|, |r''| where r'' is normal to r')
        n = _turned(r1) / stretch[..., None]
        n_rate = (_turned(r2) - n * (_dot(r1, r2) / stretch)[..., None]) / stretch[..., None]
        dmoment = EI * (_dot(n, r3) + _dot(n_rate, r2))
    shear = -dmoment / stretch
    return np.stack([normal, shear, moment], axis=-1)


class PlanarANCFBeam(hermite.HermiteKind):
    """The planar two-node ANCF beam as an element kind: what an assembly and a formulation need
    to know of it, in one place.

    An element kind states its node (``node_size`` coordinates each: here ``[x, y, x', y']``), its
    ``nodes_per_element`` and ``element_size`` (their product) and the ``dimension`` of the space
    it lives in, and provides the element's mass, gravity force, forces, tangents, energy and the
    centreline drawn for it, and the gather of an element's coordinates from a model's coordinate
    vector and the scatter of an element vector back into one. The numbers here are those the
    compiled kernels cimport from ``rancf/elements/_beam.pxd``; the methods delegate to the
    functions of this module, and those it shares with the spatial cable (``mass``,
    ``gravity_force``, ``element_tangents``, ``shape``, ``shape_matrices``, ``dofs``,
    ``gather``, ``scatter``) are :class:`rancf.elements.hermite.HermiteKind`'s.

    Parameters
    ----------
    elastic_model : {"shabana", "berzeri", "reissner"}
        Elastic model (module docstring).

    Raises
    ------
    ValueError
        An unknown elastic model.

    Examples
    --------
    The middle of a straight element, and its coordinates gathered from a model's vector:

    >>> from rancf.elements import beam
    >>> kind = beam.PlanarANCFBeam("reissner")
    >>> kind.node_size, kind.element_size
    (4, 8)
    >>> x = np.array([0.0, 0.0, 1.0, 0.0, 0.5, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0])
    >>> e = kind.gather(x, [1, 2])
    >>> kind.shape(e, 0.5, 3)[1]
    array([0.75, 0.  ])

    The tangents of many elements at once (here one, straight and unstressed: no axial
    stiffness term survives a unit slope's transverse direction):

    >>> K, C = kind.element_tangents(e[None], [0.5], [2e5], [2e3], [0.0])
    >>> K.shape, bool(np.allclose(K[0], K[0].T))
    ((1, 8, 8), True)
    """

    #: Coordinates of a node: position r (m) and slope r' (dimensionless).
    node_size = 4
    #: Nodes of an element.
    nodes_per_element = 2
    #: Coordinates of an element, ``nodes_per_element * node_size``.
    element_size = 8
    #: Coordinates of a point.
    dimension = 2

    def __init__(self, elastic_model="shabana"):
        self.code = model_code(elastic_model)
        self.elastic_model = elastic_model

    def __repr__(self):
        return f"PlanarANCFBeam({self.elastic_model!r})"

    def forces(self, e, edot, l, E, A, I, damping=0.0):
        """Elastic plus damping force and dissipated power: :func:`internal_force`.

        Parameters
        ----------
        e, edot : array_like (element_size,)
            Element coordinates and their rates.
        l : float
            Element length (m).
        E, A, I : float
            Young's modulus (Pa), area (m^2), second moment of area (m^4).
        damping : float
            Kelvin-Voigt damping time (s).

        Returns
        -------
        force : ndarray (element_size,)
            N (N m on the slopes).
        power : float
            Dissipated power (W).

        The class example shows it in use.
        """
        return internal_force(e, edot, l, E, A, I, damping, self.elastic_model)

    def tangents(self, e, l, E, A, I, edot=None, damping=0.0):
        """Tangent stiffness and damping matrix: :func:`tangent_stiffness` and
        :func:`damping_matrix` in one kernel call.

        Parameters
        ----------
        e : array_like (element_size,)
            Element coordinates.
        l, E, A, I : float
            Element length (m), Young's modulus (Pa), area (m^2), second moment of area (m^4).
        edot : array_like (element_size,), optional
            Coordinate rates (the damping force's stiffness needs them); default zero.
        damping : float
            Kelvin-Voigt damping time (s).

        Returns
        -------
        K, C : ndarray (element_size, element_size)
            ``dF/de`` (N/m) and ``dF/dedot`` (N s/m).

        The class example shows it in use.
        """
        return _tangents(e, l, E, A, I, self.elastic_model, edot, damping)

    def _tangent(self, e, edot, l, EA, EI, damping, K, C):
        """The kernel of K and C (:meth:`rancf.elements.hermite.HermiteKind.element_tangents`):
        unchecked arrays and numbers, the results written into K and C."""
        _beam.tangent(self.code, e, edot, l, EA, EI, damping, K, C)

    def energy(self, e, l, E, A, I):
        """Strain energy: :func:`elastic_energy`.

        Parameters
        ----------
        e : array_like (element_size,)
            Element coordinates.
        l, E, A, I : float
            Element length (m), Young's modulus (Pa), area (m^2), second moment of area (m^4).

        Returns
        -------
        float
            J.

        The class example shows it in use.
        """
        return elastic_energy(e, l, E, A, I, self.elastic_model)

    def energies(self, vertices, lengths, EA, EI, masses, nodes, velocities):
        """Kinetic ``1/2 sum V_E^T M_E V_E`` and elastic ``sum U(e)`` energy (J) of elements at
        n_out instants, (n_out, 2), in one compiled pass.

        Parameters
        ----------
        vertices : ndarray of intc (n_elements, nodes_per_element)
        lengths, EA, EI : ndarray (n_elements,)
            m, N, N m^2.
        masses : ndarray (n_elements, element_size, element_size)
            kg (and kg m, kg m^2 where slopes enter).
        nodes, velocities : ndarray (n_out, n_vertices, node_size)
            Node coordinates and their rates.

        Returns
        -------
        ndarray (n_out, 2)
            Kinetic and elastic energy (J).

        The class example shows it in use.
        """
        return _beam.beam_energies(self.code, vertices, lengths, EA, EI, masses, nodes, velocities)

    def section_forces(self, e, xi, l, EA, EI):
        """Normal force, shear force and bending moment at xi of elements e, from this kind's
        strains and law (:func:`section_forces`, which states them and the sign convention).

        Parameters
        ----------
        e : array_like (..., element_size)
            Element coordinates (m; slopes dimensionless).
        xi : array_like (...)
            Positions along the elements, s / l in [0, 1].
        l : float
            Element length (m).
        EA, EI : float
            Axial (N) and bending (N m^2) stiffness.

        Returns
        -------
        ndarray (..., 3)
            ``[N, Q, M]`` (N, N, N m).

        The class example shows it in use.
        """
        return section_forces(e, xi, l, EA, EI, self.elastic_model)

