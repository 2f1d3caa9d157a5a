"""The planar two-node ANCF beam element of Shabana (DESIGN.md section 1).

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

Known caveats: like every fully parameterised planar ANCF beam with cubic position
interpolation, thin elements lock under bending when few are used; refine the mesh.
"""
import numpy as np

from . import _element

#: Elastic model names and their kernel codes.
MODELS = {"shabana": 0, "berzeri": 1, "reissner": 2}


def model_code(model):
    """Kernel code of an elastic model name; ``ValueError`` for an unknown name."""
    try:
        return MODELS[model]
    except (KeyError, TypeError):
        raise ValueError(
            f"elastic_model must be one of {sorted(MODELS)}, got {model!r}") from None


def check_positive(name, value):
    """Return ``value`` as float, or raise ``ValueError`` unless it is finite and > 0."""
    try:
        value = float(value)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be a real number, got {value!r}") from None
    if not np.isfinite(value) or value <= 0.0:
        raise ValueError(f"{name} must be finite and > 0, got {value!r}")
    return value


def shape_functions(xi, l):
    """Shape-function matrix ``S(xi)`` (2, 8) of an element of length ``l`` (m), 0 <= xi <= 1."""
    l = check_positive("l", l)
    xi = float(xi)
    if not 0.0 <= xi <= 1.0:
        raise ValueError(f"xi must be in [0, 1], got {xi!r}")
    s = (1 - 3 * xi**2 + 2 * xi**3, l * (xi - 2 * xi**2 + xi**3),
         3 * xi**2 - 2 * xi**3, l * (xi**3 - xi**2))
    return np.hstack([sk * np.eye(2) for sk in s])


def mass_matrix(rho, A, l):
    """Constant element mass matrix ``M_E = int rho A S^T S ds`` (8, 8), kg and kg m.

    Closed form of DESIGN.md section 1 with ``m = rho A l``.
    """
    rho, A, l = check_positive("rho", rho), check_positive("A", A), check_positive("l", l)
    m = rho * A * l
    c = np.array([
        [13 / 35, 11 * l / 210, 9 / 70, -13 * l / 420],
        [11 * l / 210, l**2 / 105, 13 * l / 420, -l**2 / 140],
        [9 / 70, 13 * l / 420, 13 / 35, -11 * l / 210],
        [-13 * l / 420, -l**2 / 140, -11 * l / 210, l**2 / 105],
    ])
    return m * np.kron(c, np.eye(2))


def gravity_force(rho, A, l, g):
    """Generalized gravity force ``F_G = int S^T rho A (0, -g) ds`` (8,), N and N m.

    ``g`` (m/s^2, >= 0) acts along -y. The gravity potential is ``V = -F_G . e``.
    """
    rho, A, l = check_positive("rho", rho), check_positive("A", A), check_positive("l", l)
    g = float(g)
    if not np.isfinite(g) or g < 0.0:
        raise ValueError(f"gravity must be finite and >= 0, got {g!r}")
    return -rho * A * l * g * np.array([0, 0.5, 0, l / 12, 0, 0.5, 0, -l / 12])


def _element_args(e, l, E, A, I, model):
    e = np.ascontiguousarray(e, dtype=float)
    if e.shape != (8,):
        raise ValueError(f"e must have shape (8,), got {e.shape}")
    if not np.all(np.isfinite(e)):
        raise ValueError("e must be finite")
    l, E = check_positive("l", l), check_positive("E", E)
    A, I = check_positive("A", A), check_positive("I", I)
    return model_code(model), e, l, E * A, E * I


def elastic_energy(e, l, E, A, I, model="shabana"):
    """Strain energy ``U(e)`` (J) of one element; ``E`` in Pa, ``A`` in m^2, ``I`` in m^4."""
    code, e, l, EA, EI = _element_args(e, l, E, A, I, model)
    return _element.force(code, e, l, EA, EI, np.empty(8))


def elastic_force(e, l, E, A, I, model="shabana"):
    """Elastic force ``F_K = dU/de`` (8,) of one element, N and N m."""
    code, e, l, EA, EI = _element_args(e, l, E, A, I, model)
    f = np.empty(8)
    _element.force(code, e, l, EA, EI, f)
    return f


def tangent_stiffness(e, l, E, A, I, model="shabana"):
    """Tangent stiffness ``K = dF_K/de`` (8, 8), exact to round-off (complex step)."""
    code, e, l, EA, EI = _element_args(e, l, E, A, I, model)
    K = np.empty((8, 8))
    _element.tangent(code, e, l, EA, EI, K)
    return K
