"""The planar two-node ANCF beam element of Shabana (DESIGN.md sections 1 and 6).

Node coordinates are ``[x, y, x', y']``: position (m) and slope ``dr/ds``
(dimensionless; unit length for an unstretched beam). Element coordinates are
``e = [r_A, r'_A, r_B, r'_B]`` (8,). With ``xi = s / l``, ``r(s) = S(xi) e`` and::

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

from .. import checks
from . import _beam

#: Elastic model names and their kernel codes.
MODELS = {"shabana": 0, "berzeri": 1, "reissner": 2}


def model_code(model):
    """Kernel code of an elastic model name; ``ValueError`` for an unknown name."""
    return MODELS[checks.choice("elastic_model", model, MODELS)]


def shape_functions(xi, l):
    """Shape-function matrix ``S(xi)`` (2, 8) of an element of length ``l`` (m), 0 <= xi <= 1."""
    l = checks.positive("l", l)
    xi = checks.real("xi", xi, 0.0, 1.0)
    s = (1 - 3 * xi**2 + 2 * xi**3, l * (xi - 2 * xi**2 + xi**3),
         3 * xi**2 - 2 * xi**3, l * (xi**3 - xi**2))
    return np.hstack([sk * np.eye(2) for sk in s])


def mass_matrix(rho, A, l):
    """Constant element mass matrix ``M_E = int rho A S^T S ds`` (8, 8), kg and kg m.

    Closed form of DESIGN.md section 1 with ``m = rho A l``.
    """
    rho, A, l = checks.positive("rho", rho), checks.positive("A", A), checks.positive("l", l)
    m = rho * A * l
    c = np.array([
        [13 / 35, 11 * l / 210, 9 / 70, -13 * l / 420],
        [11 * l / 210, l**2 / 105, 13 * l / 420, -l**2 / 140],
        [9 / 70, 13 * l / 420, 13 / 35, -11 * l / 210],
        [-13 * l / 420, -l**2 / 140, -11 * l / 210, l**2 / 105],
    ])
    return m * np.kron(c, np.eye(2))


def gravity_force(rho, A, l, gravity):
    """Generalized gravity force ``F_G = int S^T rho A g ds`` (8,), N and N m.

    ``gravity`` is the vector g (2,), m/s^2. The gravity potential is ``V = -F_G . e``.
    """
    rho, A, l = checks.positive("rho", rho), checks.positive("A", A), checks.positive("l", l)
    g = checks.vector("gravity", gravity)
    return rho * A * l * np.concatenate([g / 2, l * g / 12, g / 2, -l * g / 12])


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


def elastic_energy(e, l, E, A, I, model="shabana"):
    """Strain energy ``U(e)`` (J) of one element; ``E`` in Pa, ``A`` in m^2, ``I`` in m^4."""
    return _beam.force(*_element_args(e, l, E, A, I, model), np.empty(8))[0]


def elastic_force(e, l, E, A, I, model="shabana"):
    """Elastic force ``F_K = dU/de`` (8,) of one element, N and N m."""
    f = np.empty(8)
    _beam.force(*_element_args(e, l, E, A, I, model), f)
    return f


def internal_force(e, edot, l, E, A, I, damping, model="shabana"):
    """``F_K + F_D`` (8,) and the dissipated power ``F_D . edot`` (W) of one element.

    ``damping`` is the Kelvin-Voigt damping time c (s, >= 0).
    """
    f = np.empty(8)
    power = _beam.force(*_element_args(e, l, E, A, I, model, edot, damping), f)[1]
    return f, power


def tangent_stiffness(e, l, E, A, I, model="shabana", edot=None, damping=0.0):
    """Tangent stiffness ``K = d(F_K + F_D)/de`` (8, 8), exact to round-off (complex step)."""
    K, C = np.empty((8, 8)), np.empty((8, 8))
    _beam.tangent(*_element_args(e, l, E, A, I, model, edot, damping), K, C)
    return K


def damping_matrix(e, edot, l, E, A, I, damping, model="shabana"):
    """``C = dF_D/dedot`` (8, 8), N s/m: symmetric, positive semi-definite."""
    K, C = np.empty((8, 8)), np.empty((8, 8))
    _beam.tangent(*_element_args(e, l, E, A, I, model, edot, damping), K, C)
    return C
