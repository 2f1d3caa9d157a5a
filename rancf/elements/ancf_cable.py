"""The spatial gradient-deficient ANCF cable element (theory: The spatial ANCF cable).

Node coordinates are ``[x, y, z, x', y', z']``: position r (m) and slope ``r' = dr/dx``
(dimensionless; a unit vector along the cable where it is unstretched), x the arc length of
the straight reference. Element coordinates are ``e = [r_A, r'_A, r_B, r'_B]`` (12,). With
``xi = x / l``, ``r(x) = S(xi) e`` and the cubic Hermite functions of the planar beam
(:mod:`rancf.elements.hermite` states them for both)::

    S = [S1 I3, S2 I3, S3 I3, S4 I3],  S1 = 1 - 3 xi^2 + 2 xi^3,  S2 = l (xi - 2 xi^2 + xi^3),
                                       S3 = 3 xi^2 - 2 xi^3,      S4 = l (xi^3 - xi^2).

Strains and energy are those of Exudyn's ``ObjectANCFCable`` (CObjectANCFCable.cpp of
Exudyn 1.11): the axial strain ``eps = |r'| - 1`` and the material curvature vector
``kappa = (r' x r'') / |r'|^2``, with::

    U = 1/2 int_0^l (EA eps^2 + EI kappa . kappa) dx,

integrated by Gauss-Legendre rules of 5 points (axial) and 3 points (bending), as Exudyn does.
For a cable in a plane this is the planar beam's ``"reissner"`` model. A curved cable's
reference is its rest state (:func:`rest_state`): ``U = 1/2 int (EA (eps - eps0)^2 + EI
(|kappa| - k0)^2) dx`` with the reference's axial strain eps0 and curvature magnitude k0 at the
Gauss points (the magnitude, since the cable has no section frame to carry a rest curvature's
direction; theory: Curved cables). Material damping
(Kelvin-Voigt, damping time ``c`` in s) is the dissipation function
``D = c/2 int (EA epsdot^2 + EI kappadot . kappadot) dx``, on a curved cable with the rate of
the magnitude ``u . kappadot`` in place of ``kappadot`` (caveats below).

Forces follow the sign of :mod:`rancf.elements.spatial_beam`, the force the element exerts on
its nodes: ``f = -(dU/de + dD/dedot)``, tangents ``K = -df/de`` and ``C = -df/dedot`` (the
planar :mod:`rancf.elements.beam` returns ``+dU/de``).

Known caveats: the cable has no torsion (r and r' do not carry a section's rotation about
the axis), so it takes no moment about its own axis; the bending stiffness is isotropic (one
EI). On a straight cable the bending damping acts on the rate of the curvature vector, as
Exudyn's does, and a rigid rotation w turns that vector (``kappadot = w x kappa``): a
straight cable's rigid motion and a plane cable's rotation in its plane are not damped, but a
bent cable turning about another axis is (``2 D = c EI int |w x kappa|^2 dx``): the cable has
no section frame to measure the rate in, as the SE(3) beam has. A curved cable damps the rate
of the curvature's magnitude where it is curved at rest, ``D = c/2 int (EA epsdot^2 + EI (u .
kappadot)^2) dx`` with ``u = kappa / |kappa|``, the rate of the strain its energy measures: a
rigid rotation leaves ``|kappa|`` unchanged, so a curved cable in rigid motion dissipates
nothing. Like every ANCF element with cubic position interpolation, it locks under bending
when few elements are used; refine the mesh. A curved cable restores the magnitude of its
rest curvature only (its section turns freely): out of its plane it resists bending beyond
first order only, with a negative stiffness where it is bent less than at rest. A curved
cable lying in a plane therefore has no first-order out-of-plane stiffness anywhere along its
curved elements (a clamp holds its end's point and slope, not the rest: a clamped plane
curved cable is no cantilever out of its plane); near an inflection, where the rest curvature
k0 is small, bending against it costs only ``EI k0^2 / 2`` per length (``-kappa_0`` is
stress-free too), a free hinge; and its statics meets a singular tangent in the reference
unless straight elements or joints hold every curved element's nodes out of the plane, which
``rancf.static`` reports with a ValueError. Model a member that must carry out-of-plane
bending as an SE(3) beam.

The kernels are compiled (``_ancf_cable.pyx``, C interface in ``_ancf_cable.pxd``); the
functions here check their input and call them.
"""
import numpy as np

from ..utilities import checks
from . import _ancf_cable, hermite

#: Numbers of an element's rest state (the kernels' ``CABLE_REST``): the axial strain eps0 at
#: the 5 axial Gauss points, the curvature's magnitude k0 at the 3 bending points.
REST_SIZE = 8


def shape_functions(xi, l):
    """Shape-function matrix of an element: ``r(xi) = S(xi) e``
    (:func:`rancf.elements.hermite.shape_matrix` in space).

    Parameters
    ----------
    xi : float
        Position along the element, ``x / l`` in [0, 1].
    l : float
        Element length (m), > 0.

    Returns
    -------
    ndarray (3, 12)
        ``[S1 I3, S2 I3, S3 I3, S4 I3]`` (module docstring).

    Raises
    ------
    ValueError
        ``xi`` outside [0, 1] or ``l`` not positive.

    Examples
    --------
    The middle of a straight element lies halfway between its nodes:

    >>> from rancf.elements import ancf_cable
    >>> e = np.array([0.0, 0, 0, 0, 0, 1, 0, 0, 0.5, 0, 0, 1])   # 0.5 m along +z
    >>> ancf_cable.shape_functions(0.5, 0.5) @ e
    array([0.  , 0.  , 0.25])
    """
    return hermite.shape_matrix(xi, l, 3)


def mass_matrix(rho, A, l):
    """Constant element mass matrix ``M_E = int rho A S^T S dx``, in closed form.

    With ``m = rho A l``, ``M_E = m C x I3`` and C the 4 x 4 matrix of the planar beam,
    ``int_0^1 s s^T dxi`` of the Hermite functions
    (:func:`rancf.elements.hermite.mass_matrix` in space; theory: The ANCF beam element).

    Parameters
    ----------
    rho, A, l : float
        Density (kg/m^3), section area (m^2) and element length (m), > 0.

    Returns
    -------
    ndarray (12, 12)
        kg on the position rows and columns, kg m and kg m^2 where slopes enter.

    Raises
    ------
    ValueError
        A parameter that is not positive.

    Examples
    --------
    A rigid translation v moves the whole mass: ``v^T M v = m |v|^2``.

    >>> from rancf.elements import ancf_cable
    >>> M = ancf_cable.mass_matrix(7800.0, 1e-4, 0.5)
    >>> v = np.array([0.0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0])
    >>> bool(np.isclose(v @ M @ v, 7800.0 * 1e-4 * 0.5))
    True
    """
    return hermite.mass_matrix(rho, A, l, 3)


def gravity_force(rho, A, l, gravity):
    """Generalized gravity force ``F_G = int S^T rho A g dx``, whose potential is
    ``V = -F_G^T e`` (:func:`rancf.elements.hermite.gravity_force` in space).

    Parameters
    ----------
    rho, A, l : float
        Density (kg/m^3), section area (m^2) and element length (m), > 0.
    gravity : sequence of 3 floats
        The gravity vector g (m/s^2).

    Returns
    -------
    ndarray (12,)
        ``rho A l [g/2, l g/12, g/2, -l g/12]``: N on the positions, N m on the slopes.

    Raises
    ------
    ValueError
        A parameter that is not positive, a gravity that is not three finite numbers.

    Examples
    --------
    The position entries add up to the element's weight:

    >>> from rancf.elements import ancf_cable
    >>> F = ancf_cable.gravity_force(7800.0, 1e-4, 0.5, (0.0, 0.0, -9.81))
    >>> bool(np.isclose(F[2] + F[8], -7800.0 * 1e-4 * 0.5 * 9.81))
    True
    """
    return hermite.gravity_force(rho, A, l, gravity, 3)


def _element_args(e, l, E, A, I, edot=None, damping=0.0):
    arrays = []
    for name, x in (("e", e), ("edot", np.zeros(12) if edot is None else edot)):
        arrays.append(np.ascontiguousarray(checks.vector(name, x, 12)))
    l, E = checks.positive("l", l), checks.positive("E", E)
    A, I = checks.positive("A", A), checks.positive("I", I)
    return (arrays[0], arrays[1], l, E * A, E * I, checks.non_negative("damping", damping))


def _reference(rest, l):
    """The kernels' rest state (8,) of reference coordinates ``rest`` (12,) (None: None, the
    straight cable's)."""
    return None if rest is None else rest_state(rest, l)


def _tangents(e, l, E, A, I, edot, damping, rest=None):
    """``(K, C)`` of one element, checked, in one kernel call."""
    K, C = np.empty((12, 12)), np.empty((12, 12))
    _ancf_cable.tangent(*_element_args(e, l, E, A, I, edot, damping), K, C,
                        _reference(rest, l))
    return K, C


def elastic_energy(e, l, E, A, I, rest=None):
    """Strain energy ``U(e)`` of one element (module docstring).

    Parameters
    ----------
    e : array_like (12,)
        Element coordinates ``[r_A, r'_A, r_B, r'_B]`` (m; slopes dimensionless).
    l : float
        Element length (m).
    E, A, I : float
        Young's modulus (Pa), section area (m^2), second moment of area (m^4), > 0.
    rest : array_like (12,), optional
        The element's reference coordinates, for a curved cable (:func:`rest_state` of them is
        its rest state); default None, the straight cable.

    Returns
    -------
    float
        J.

    Raises
    ------
    ValueError
        ``e`` not 12 finite numbers, a parameter that is not positive.

    Examples
    --------
    A straight unstretched element stores no energy; stretched by 1e-3 it stores
    ``E A l eps^2 / 2``:

    >>> from rancf.elements import ancf_cable
    >>> e = np.array([0.0, 0, 0, 0, 1, 0, 0, 0.5, 0, 0, 1, 0])
    >>> bool(abs(ancf_cable.elastic_energy(e, 0.5, 2e9, 1e-4, 1e-9)) < 1e-20)
    True
    >>> u = ancf_cable.elastic_energy(1.001 * e, 0.5, 2e9, 1e-4, 1e-9)
    >>> bool(np.isclose(u, 2e9 * 1e-4 * 0.5 * 1e-3**2 / 2))
    True
    """
    return _ancf_cable.force(*_element_args(e, l, E, A, I), np.empty(12),
                             _reference(rest, l))[0]


def elastic_force(e, l, E, A, I, rest=None):
    """Elastic force on the nodes ``f = -dU/de`` of one element.

    Parameters
    ----------
    e : array_like (12,)
        Element coordinates (m; slopes dimensionless).
    l, E, A, I : float
        Element length (m), Young's modulus (Pa), section area (m^2), second moment of area
        (m^4).
    rest : array_like (12,), optional
        The element's reference coordinates, for a curved cable (:func:`rest_state` of them is
        its rest state); default None, the straight cable.

    Returns
    -------
    ndarray (12,)
        N on the positions, N m on the slopes.

    Raises
    ------
    ValueError
        As :func:`elastic_energy`.

    Examples
    --------
    Minus the gradient of :func:`elastic_energy`, checked by a central difference:

    >>> from rancf.elements import ancf_cable
    >>> e = np.array([0.0, 0, 0, 1, 0, 0, 0.5, 0.01, 0.02, 1, 0, 0])
    >>> args = (0.5, 2e9, 1e-4, 1e-9)
    >>> d = np.zeros(12); d[8] = 1e-7
    >>> fd = (ancf_cable.elastic_energy(e + d, *args)
    ...       - ancf_cable.elastic_energy(e - d, *args)) / 2e-7
    >>> bool(np.isclose(ancf_cable.elastic_force(e, *args)[8], -fd, rtol=1e-6))
    True
    """
    f = np.empty(12)
    _ancf_cable.force(*_element_args(e, l, E, A, I), f, _reference(rest, l))
    return f


def internal_force(e, edot, l, E, A, I, damping, rest=None):
    """Elastic plus damping force on the nodes, ``f = -(dU/de + dD/dedot)``, and the power
    the damping dissipates.

    Parameters
    ----------
    e, edot : array_like (12,)
        Element coordinates (m; slopes dimensionless) and their rates (m/s, 1/s).
    l, E, A, I : float
        Element length (m), Young's modulus (Pa), section area (m^2), second moment of area
        (m^4).
    damping : float
        Kelvin-Voigt damping time c (s, >= 0).
    rest : array_like (12,), optional
        The element's reference coordinates, for a curved cable (:func:`rest_state` of them is
        its rest state); default None, the straight cable.

    Returns
    -------
    force : ndarray (12,)
        N, N m.
    power : float
        Dissipated power ``2 D >= 0`` (W).

    Raises
    ------
    ValueError
        As :func:`elastic_energy`, or a negative damping.

    Examples
    --------
    >>> from rancf.elements import ancf_cable
    >>> e = np.array([0.0, 0, 0, 1, 0, 0, 0.5, 0.01, 0.02, 1, 0, 0])
    >>> f, power = ancf_cable.internal_force(e, np.ones(12), 0.5, 2e9, 1e-4, 1e-9, 1e-3)
    >>> bool(power > 0.0)
    True
    """
    f = np.empty(12)
    power = _ancf_cable.force(*_element_args(e, l, E, A, I, edot, damping), f,
                              _reference(rest, l))[1]
    return f, power


def tangent_stiffness(e, l, E, A, I, edot=None, damping=0.0, rest=None):
    """Tangent stiffness ``K = -df/de`` of one element, exact (written out in the kernel).

    Parameters
    ----------
    e : array_like (12,)
        Element coordinates (m; slopes dimensionless).
    l, E, A, I : float
        Element length (m), Young's modulus (Pa), section area (m^2), second moment of area
        (m^4).
    edot : array_like (12,), optional
        Coordinate rates (m/s, 1/s) for the damping force's part; default zero.
    damping : float
        Kelvin-Voigt damping time c (s, >= 0).
    rest : array_like (12,), optional
        The element's reference coordinates, for a curved cable (:func:`rest_state` of them is
        its rest state); default None, the straight cable.

    Returns
    -------
    ndarray (12, 12)
        N/m and its mixed units; without damping the Hessian of U, symmetric.

    Raises
    ------
    ValueError
        As :func:`internal_force`.

    Examples
    --------
    >>> from rancf.elements import ancf_cable
    >>> e = np.array([0.0, 0, 0, 1, 0, 0, 0.5, 0.01, 0.02, 1, 0, 0])
    >>> K = ancf_cable.tangent_stiffness(e, 0.5, 2e9, 1e-4, 1e-9)
    >>> bool(np.allclose(K, K.T))
    True
    """
    return _tangents(e, l, E, A, I, edot, damping, rest)[0]


def damping_matrix(e, edot, l, E, A, I, damping, rest=None):
    """Damping matrix ``C = -df/dedot`` of one element.

    Parameters
    ----------
    e, edot : array_like (12,)
        Element coordinates and their rates.
    l, E, A, I : float
        Element length (m), Young's modulus (Pa), section area (m^2), second moment of area
        (m^4).
    damping : float
        Kelvin-Voigt damping time c (s, >= 0).
    rest : array_like (12,), optional
        The element's reference coordinates, for a curved cable (:func:`rest_state` of them is
        its rest state); default None, the straight cable.

    Returns
    -------
    ndarray (12, 12)
        N s/m and its mixed units: symmetric, positive semi-definite.

    Raises
    ------
    ValueError
        As :func:`internal_force`.

    Examples
    --------
    >>> from rancf.elements import ancf_cable
    >>> e = np.array([0.0, 0, 0, 1, 0, 0, 0.5, 0.01, 0.02, 1, 0, 0])
    >>> C = ancf_cable.damping_matrix(e, np.zeros(12), 0.5, 2e9, 1e-4, 1e-9, 1e-3)
    >>> bool(np.linalg.eigvalsh(C).min() > -1e-9 * np.abs(C).max())
    True
    """
    return _tangents(e, l, E, A, I, edot, damping, rest)[1]


def rest_state(e0, l):
    """The rest state of an element: the strains of its reference coordinates, at the points
    where the energy is integrated (compiled, the kernels' own formulas).

    A curved cable is unstressed in its reference configuration: its energy is
    ``U = 1/2 int (EA (eps - eps0)^2 + EI (|kappa| - k0)^2) dx`` with ``eps0`` and ``k0``
    these numbers. The curvature enters by its magnitude: the cable has no section frame to
    carry a rest curvature's direction, and ``EI/2 (|kappa| - k0)^2`` is the bending energy
    ``EI/2 |kappa - kappa_0|^2`` of a rod whose section turns freely about its axis (no
    torsional stiffness) at its minimum over that turn.

    Parameters
    ----------
    e0 : array_like (12,)
        Reference element coordinates ``[r_A, r'_A, r_B, r'_B]`` (m; slopes dimensionless).
    l : float
        Element length (m), > 0.

    Returns
    -------
    ndarray (8,)
        ``eps0`` (dimensionless) at the 5 axial Gauss points, ``k0 = |r' x r''| / |r'|^2``
        (1/m) at the 3 bending ones; ``k0 = 0`` where ``k0 l <= 1e-9`` (a straight element's
        round-off, which the magnitude law would turn into a singular tangent).

    Raises
    ------
    ValueError
        ``e0`` not 12 finite numbers, ``l`` not positive, a node slope ``r'`` of norm below
        1e-3 (the strains divide by ``|r'|``; a reference slope is a unit tangent).

    Examples
    --------
    An element of a circle of radius 2 m (a quarter of it, its arc length) has a rest
    curvature near 1/2 1/m, to the element's order:

    >>> from rancf.elements import ancf_cable
    >>> a = np.pi / 2
    >>> e0 = [2.0, 0, 0, 0, 1, 0, 2 * np.cos(a), 2 * np.sin(a), 0, -np.sin(a), np.cos(a), 0]
    >>> k0 = ancf_cable.rest_state(e0, 2 * a)[5:]
    >>> bool(np.all(np.abs(k0 - 0.5) < 0.05))
    True
    """
    e0 = np.ascontiguousarray(checks.vector("e0", e0, 12))
    _check_slopes("e0", e0)
    return _ancf_cable.reference_state(e0, checks.positive("l", l))


def _check_slopes(name, e):
    """Refuse elements e (..., 12) with a node slope of norm below 1e-3 (where the strains,
    which divide by ``|r'|``, have no direction)."""
    nodes = e.reshape(e.shape[:-1] + (4, 3))
    norms = np.linalg.norm(nodes[..., 1::2, :], axis=-1)
    if not np.all(norms >= 1e-3):
        k = np.unravel_index(np.argmin(np.where(np.isnan(norms), -1.0, norms)), norms.shape)
        raise ValueError(f"{name}: the slope r' of node {k[-1]} of an element has the norm "
                         f"{norms[k]:.3g}; a slope must have |r'| >= 0.001 (1 where "
                         "unstretched)")


def element_lengths(positions, tangents, tol=1e-14, max_iter=100):
    """The element lengths of a curved cable through nodes with unit tangents: each element's
    arc length, that of its own cubic Hermite curve.

    The curve of an element depends on its length l (``r' = dr/dx`` at its nodes are the unit
    tangents, ``x = xi l``), so l is the fixed point of ``l = int_0^1 |dr/dxi| dxi``
    (Gauss-Legendre, 16 points), iterated from the chord; the map is a contraction (its
    slope is of order of the element's turn squared), a few iterations. Then the mean of
    ``|r'|`` over the element is 1: the reference axial strain averages to zero.

    Parameters
    ----------
    positions, tangents : array_like (n_nodes, 3)
        Node positions (m) and unit tangents (norm 1 within 1e-9), n_nodes >= 2, finite.
    tol : float
        The iteration ends when no length changes by more than ``tol`` times the largest
        length (a relative change), in (0, 1).
    max_iter : int
        The most fixed-point iterations, >= 1 (a few suffice: the contraction's rate is of
        order of the element's turn squared).

    Returns
    -------
    ndarray (n_nodes - 1,)
        m.

    Raises
    ------
    ValueError
        Arrays of other shapes, not finite, tangents not of unit norm, a parameter out of its
        range; the iteration did not settle (an element turning by nearly a half turn).

    Examples
    --------
    Four elements on a half circle of radius 1 m: about pi / 4 each (the cubic's arc is
    shorter than the circle's by 5e-4 of its length, the interpolation's error of fourth
    order):

    >>> from rancf.elements import ancf_cable
    >>> a = np.linspace(0.0, np.pi, 5)
    >>> P = np.column_stack([np.cos(a), np.sin(a), 0 * a])
    >>> T = np.column_stack([-np.sin(a), np.cos(a), 0 * a])
    >>> bool(np.allclose(ancf_cable.element_lengths(P, T), np.pi / 4, rtol=1e-3))
    True
    """
    P, T = np.asarray(positions, dtype=float), np.asarray(tangents, dtype=float)
    for name, arr in (("positions", P), ("tangents", T)):
        if arr.ndim != 2 or arr.shape[1] != 3 or len(arr) < 2:
            raise ValueError(f"{name} must have shape (n_nodes, 3) with n_nodes >= 2, got shape "
                             f"{arr.shape}")
        if not np.all(np.isfinite(arr)):
            raise ValueError(f"{name} must be finite, got a non-finite entry at row "
                             f"{int(np.flatnonzero(~np.all(np.isfinite(arr), axis=1))[0])}")
    if P.shape != T.shape:
        raise ValueError(f"positions and tangents must have the same shape (n_nodes, 3), got "
                         f"{P.shape} and {T.shape}")
    norms = np.linalg.norm(T, axis=1)
    bad = np.flatnonzero(np.abs(norms - 1.0) > 1e-9)
    if bad.size:
        raise ValueError(f"tangents must be unit vectors (norm 1 within 1e-9), got tangents"
                         f"[{bad[0]}] = {T[bad[0]].tolist()} of norm {norms[bad[0]]:.12g}")
    tol = checks.real("tol", tol, low=0.0, high=1.0, low_open=True, high_open=True)
    max_iter = checks.integer("max_iter", max_iter, 1)
    xi, w = np.polynomial.legendre.leggauss(16)
    xi, w = (xi + 1.0) / 2.0, w / 2.0
    # dS_k/dxi of the Hermite functions at the points (S2, S4 without their factor l)
    d = np.column_stack([6 * xi**2 - 6 * xi, 1 - 4 * xi + 3 * xi**2, 6 * xi - 6 * xi**2,
                         3 * xi**2 - 2 * xi])
    l = np.linalg.norm(np.diff(P, axis=0), axis=1)
    for _ in range(max_iter):
        dr = (d[:, None, 0, None] * P[None, :-1] + d[:, None, 2, None] * P[None, 1:]
              + l[None, :, None] * (d[:, None, 1, None] * T[None, :-1]
                                    + d[:, None, 3, None] * T[None, 1:]))
        new = w @ np.linalg.norm(dr, axis=2)
        done = np.abs(new - l).max() <= tol * new.max()
        l = new
        if done:
            return l
    raise ValueError(f"the curved cable's element lengths did not settle in {max_iter} "
                     "iterations: an element turns by nearly a half turn; use more elements")


def section_forces(e, xi, l, EA, EI, edot=None, damping=0.0, rest=None):
    """Normal force and bending moment at ``xi = x / l`` of elements: ``N = EA (eps - eps0 +
    c epsdot)`` and ``M = EI ((1 - k0 / |kappa|) kappa + c kappadot)`` with ``eps = |r'| - 1``
    and ``kappa = (r' x r'') / |r'|^2`` (the stresses of the element's energy and damping,
    module docstring; eps0 and k0 the rest state, zero for a straight cable). Where a curved
    cable is curved at rest (``k0 > 0``) the damping term is ``c (u . kappadot) u``,
    ``u = kappa / |kappa|``: the rate of the magnitude, as in the kernel.

    M is a global vector normal to the cable's tangent (the cable carries no torsion); it is
    the moment that the part of the cable beyond x exerts on the part before x. With cubic
    shape functions M is of lower order than r, and the axial strain of a bent element
    oscillates along it: both converge with the mesh, not within an element. A curved cable's
    rest state is known at the Gauss points only (:func:`rest_state`); elsewhere along an
    element eps0 and k0 are those of the reference coordinates at xi (``rest`` gives them).

    Parameters
    ----------
    e : array_like (..., 12)
        Element coordinates.
    xi : array_like, broadcastable with ``e[..., 0]``
        Positions along the elements, in [0, 1].
    l : float or array_like, broadcastable with ``e[..., 0]``
        Element lengths (m), > 0.
    EA, EI : float
        Axial (N) and bending (N m^2) stiffness.
    edot : array_like (..., 12), optional
        Coordinate rates (m/s, 1/s), for the damping's part; default zero.
    damping : float
        Kelvin-Voigt time c (s).
    rest : array_like (..., 12), optional
        The elements' reference coordinates, for a curved cable: eps0 and k0 at xi are theirs
        (broadcasting to the shape of ``e``; their slopes of norm >= 1e-3).

    Returns
    -------
    ndarray (..., 4)
        ``[N, M_x, M_y, M_z]`` (N, N m).

    Raises
    ------
    ValueError
        ``e`` (or ``edot``, ``rest``) whose last axis is not 12 long, ``rest`` not finite or
        with a slope of norm below 1e-3, ``edot`` or ``rest`` not broadcasting to the shape
        of ``e``, ``xi`` outside [0, 1], ``l`` not finite and positive, ``EA``, ``EI`` not
        positive, ``damping`` negative.

    Examples
    --------
    A straight element stretched by 1 % carries ``0.01 EA`` and no moment:

    >>> from rancf.elements import ancf_cable
    >>> e = 1.01 * np.array([0.0, 0, 0, 0, 1, 0, 0, 0.5, 0, 0, 1, 0])
    >>> np.round(ancf_cable.section_forces(e, 0.3, 0.5, 1e3, 10.0), 9) + 0.0   # no -0.0
    array([10.,  0.,  0.,  0.])
    """
    l = np.asarray(l, dtype=float)
    if not np.all(np.isfinite(l) & (l > 0.0)):
        raise ValueError(f"l must be finite and > 0, got {l!r}")
    e = _elements("e", e)
    xi = np.asarray(xi, dtype=float)
    if not np.all((xi >= 0.0) & (xi <= 1.0)):
        raise ValueError(f"xi must be in [0, 1], got {xi!r}")
    EA, EI = checks.positive("EA", EA), checks.positive("EI", EI)
    damping = checks.non_negative("damping", damping)
    if edot is not None:
        edot = _elements("edot", edot, e.shape)
    if rest is not None:
        rest = _elements("rest", rest, e.shape)
        if not np.all(np.isfinite(rest)):
            raise ValueError("rest must be finite (the reference coordinates)")
        _check_slopes("rest", rest)
    r1, r2 = _slopes(e, xi, l)
    q = np.einsum("...d,...d->...", r1, r1)
    n = np.sqrt(q)
    kappa = np.cross(r1, r2) / q[..., None]
    eps = n - 1.0
    bend = kappa
    curved = None
    if rest is not None:
        a, b = _slopes(rest, xi, l)
        qa = np.einsum("...d,...d->...", a, a)
        eps = eps - (np.sqrt(qa) - 1.0)
        k0 = np.linalg.norm(np.cross(a, b), axis=-1) / qa
        nk = np.linalg.norm(kappa, axis=-1)
        curved = (k0 > 0.0) & (nk > 0.0)
        ratio = np.divide(k0, nk, out=np.zeros_like(nk), where=curved)
        bend = (1.0 - ratio)[..., None] * kappa
    if edot is not None and damping:
        ad, bd = _slopes(edot, xi, l)
        p = np.einsum("...d,...d->...", r1, ad)
        eps = eps + damping * p / n
        rate = ((np.cross(ad, r2) + np.cross(r1, bd)) / q[..., None]
                - 2.0 * (p / q)[..., None] * kappa)
        if curved is not None:
            # a curved point damps the rate of |kappa| only (the kernel's law)
            u = np.divide(kappa, nk[..., None], out=np.zeros_like(kappa),
                          where=curved[..., None])
            s = np.einsum("...d,...d->...", u, rate)
            rate = np.where(curved[..., None], s[..., None] * u, rate)
        bend = bend + damping * rate
    return np.concatenate([(EA * eps)[..., None], EI * bend], axis=-1)


def _elements(name, value, shape=None):
    """``value`` as a float array of elements (..., 12), broadcasting to ``shape`` if
    given (not checked finite: a diverged run's coordinates give NaN forces, not an
    error)."""
    arr = np.asarray(value, dtype=float)
    if arr.ndim == 0 or arr.shape[-1] != 12:
        raise ValueError(f"{name} must have 12 coordinates an element on its last axis, got "
                         f"shape {arr.shape}")
    if shape is not None:
        try:
            fits = np.broadcast_shapes(arr.shape, shape) == shape
        except ValueError:
            fits = False
        if not fits:
            raise ValueError(f"{name} must broadcast to e's shape {shape}, got {arr.shape}")
    return arr


def _slopes(e, xi, l):
    """``r'`` and ``r''`` at xi of elements e (..., 12) of lengths l (broadcast)."""
    s1, s2 = hermite.shape_derivatives(*np.broadcast_arrays(xi, l))[:2]
    nodes = e.reshape(e.shape[:-1] + (4, 3))
    return (np.einsum("...j,...jd->...d", s1, nodes), np.einsum("...j,...jd->...d", s2, nodes))


class SpatialANCFCable(hermite.HermiteKind):
    """The spatial gradient-deficient ANCF cable as an element kind: what an assembly and a
    formulation need to know of it, in one place.

    The same contract as :class:`rancf.elements.beam.PlanarANCFBeam`: ``node_size`` (6:
    ``[r, r']``), ``nodes_per_element`` (2), ``element_size`` (12), ``dimension`` (3), and the
    element's mass, gravity force, forces, tangents, energy, section forces and centreline, the
    gather of an element's coordinates from a model's vector and the scatter back (those it
    shares with the planar beam are :class:`rancf.elements.hermite.HermiteKind`'s). The numbers
    are those the compiled kernels cimport from ``rancf/elements/_ancf_cable.pxd``. Forces are
    on the nodes, ``f = -(dU/de + dD/dedot)`` (module docstring), the opposite sign of the
    planar kind's.

    Examples
    --------
    The middle of a straight element, and its coordinates gathered from a model's vector:

    >>> from rancf.elements import ancf_cable
    >>> kind = ancf_cable.SpatialANCFCable()
    >>> kind.node_size, kind.element_size, kind.dimension
    (6, 12, 3)
    >>> x = np.array([0.0, 0, 0, 1, 0, 0, 0.5, 0, 0, 1, 0, 0, 1.0, 0, 0, 1, 0, 0])
    >>> e = kind.gather(x, [1, 2])
    >>> kind.shape(e, 0.5, 3)[1]
    array([0.75, 0.  , 0.  ])

    The tangents of many elements at once (here one, straight and unstressed):

    >>> K, C = kind.element_tangents(e[None], [0.5], [2e5], [2e3], [0.0])
    >>> K.shape, bool(np.allclose(K[0], K[0].T))
    ((1, 12, 12), True)
    """

    #: Coordinates of a node: position r (m) and slope r' (dimensionless).
    node_size = 6
    #: Nodes of an element.
    nodes_per_element = 2
    #: Coordinates of an element, ``nodes_per_element * node_size``.
    element_size = 12
    #: Coordinates of a point.
    dimension = 3

    def __repr__(self):
        return "SpatialANCFCable()"

    def forces(self, e, edot, l, E, A, I, damping=0.0, rest=None):
        """Force on the nodes and dissipated power ``(f, P)``: :func:`internal_force`."""
        return internal_force(e, edot, l, E, A, I, damping, rest)

    def tangents(self, e, l, E, A, I, edot=None, damping=0.0, rest=None):
        """``K = -df/de`` and ``C = -df/dedot`` (12, 12) in one kernel call
        (:func:`tangent_stiffness`, :func:`damping_matrix`)."""
        return _tangents(e, l, E, A, I, edot, damping, rest)

    def _tangent(self, e, edot, l, EA, EI, damping, K, C):
        """The kernel of K and C (:meth:`rancf.elements.hermite.HermiteKind.element_tangents`):
        unchecked arrays and numbers, the results written into K and C."""
        _ancf_cable.tangent(e, edot, l, EA, EI, damping, K, C)

    def energy(self, e, l, E, A, I, rest=None):
        """Strain energy (J): :func:`elastic_energy`."""
        return elastic_energy(e, l, E, A, I, rest)

    def energies(self, vertices, lengths, EA, EI, masses, nodes, velocities, reference=None):
        """Kinetic ``1/2 sum V_E^T M_E V_E`` and elastic ``sum U(e)`` energy (J) of elements at
        n_out instants, (n_out, 2), in one compiled pass.

        Parameters
        ----------
        vertices : ndarray of intc (n_elements, 2)
        lengths, EA, EI : ndarray (n_elements,)
            m, N, N m^2.
        masses : ndarray (n_elements, 12, 12)
            kg (and kg m, kg m^2 where slopes enter).
        nodes, velocities : ndarray (n_out, n_vertices, 6)
            Node coordinates and their rates.
        reference : ndarray (n_elements, 8), optional
            The elements' rest states (:func:`rest_state`; a curved cable's
            :meth:`rancf.model.spatial_items.SpatialCable.rest_state`); None: straight.

        Returns
        -------
        ndarray (n_out, 2)
            Kinetic and elastic energy (J).
        """
        return _ancf_cable.cable_energies(vertices, lengths, EA, EI, masses, nodes, velocities,
                                          reference)

    def section_forces(self, e, xi, l, EA, EI, edot=None, damping=0.0, rest=None):
        """``[N, M_x, M_y, M_z]`` at xi of elements e: :func:`section_forces`."""
        return section_forces(e, xi, l, EA, EI, edot, damping, rest)

