"""The Berzeri-Shabana planar ANCF beam element with the precomputed axial tensor.

Element coordinates ``e = [r_A, r'_A, r_B, r'_B]`` (8), length ``l`` (m), ``xi = x / l``,
``r(x) = S(xi) e`` with the Hermite shape functions of DESIGN.md section 1. The
Berzeri-Shabana continuum model (adaptive-modal paper eq. 8-16, DESIGN.md section 1 model 2):

    U   = 1/2 int_0^l [E A eps^2 + E I r''^T r''] dx,     eps = 1/2 (r'^T r' - 1),
    F_K = (K_l(e) + K_t) e,   K_t = E I int S''^T S'' dx  (constant, eq. 15),
    K_l(e)_ij = a (int S1_ij S1_kl dx) e_k e_l - a int S1_ij dx,   a = E A / 2, S1 = S'^T S'.

The fourth-order tensor ``D = a int S1 (x) S1 dx`` is the element block of the paper's
``K_lin`` (eq. 20-22); it is computed once per element type with 5-point Gauss quadrature
(its integrand is a polynomial of degree 8 in xi, so the quadrature is exact) and the
stiffness update inside a time step is a contraction (Cython, :mod:`rancf._berzeri`).
"""
from __future__ import annotations

import numpy as np

from rancf import _berzeri

#: Gauss-Legendre points on [0, 1]: exact for degree <= 9 (the axial tensor has degree 8).
_GAUSS_X, _GAUSS_W = np.polynomial.legendre.leggauss(5)
_GAUSS_X = 0.5 * (_GAUSS_X + 1.0)
_GAUSS_W = 0.5 * _GAUSS_W


def shape_derivatives(xi, l):
    """Shape function matrix and its first two derivatives in x at ``xi`` (scalar).

    Returns ``S, S', S''`` each of shape (2, 8); ``S' = dS/dx = (1/l) dS/dxi`` (1/m),
    ``S'' = d^2S/dx^2`` (1/m^2).
    """
    s = np.array([1 - 3 * xi**2 + 2 * xi**3, l * (xi - 2 * xi**2 + xi**3),
                  3 * xi**2 - 2 * xi**3, l * (xi**3 - xi**2)])
    ds = np.array([-6 * xi + 6 * xi**2, l * (1 - 4 * xi + 3 * xi**2),
                   6 * xi - 6 * xi**2, l * (3 * xi**2 - 2 * xi)]) / l
    dds = np.array([-6 + 12 * xi, l * (-4 + 6 * xi), 6 - 12 * xi, l * (6 * xi - 2)]) / l**2
    eye = np.eye(2)
    return tuple(np.hstack([v * eye for v in vec]) for vec in (s, ds, dds))


def element_matrices(l, E, A, I, rho):
    """Constant matrices of one element by exact Gauss quadrature.

    Returns a dict with ``mass`` (8, 8) ``rho A int S^T S dx`` (kg),
    ``gravity_shape`` (8, 2) ``rho A int S^T dx`` (kg; times the gravity vector gives the
    generalized gravity force), ``K_t`` (8, 8) (N/m), ``d`` (4, 4, 4, 4) and ``c`` (4, 4), the
    scalar factors of ``D = d (x) I2 (x) I2`` and ``a int S1 dx = c (x) I2`` (the shape
    functions act on x and y alike, so ``S1 = (s' s'^T) (x) I2`` with the scalar shape
    function derivatives ``s'`` (4,); both scaled by ``a = E A / 2``), and ``a_l = E A l / 2``
    (N m).
    """
    mass = np.zeros((8, 8))
    grav = np.zeros((8, 2))
    Kt = np.zeros((8, 8))
    d = np.zeros((4, 4, 4, 4))
    c = np.zeros((4, 4))
    for x, w in zip(_GAUSS_X, _GAUSS_W):
        S, dS, ddS = shape_derivatives(x, l)
        s1 = np.outer(dS[0, ::2], dS[0, ::2])  # S1 = s1 (x) I2
        wl = w * l
        mass += wl * rho * A * S.T @ S
        grav += wl * rho * A * S.T
        Kt += wl * E * I * ddS.T @ ddS
        d += wl * 0.5 * E * A * np.einsum("ij,kl->ijkl", s1, s1)
        c += wl * 0.5 * E * A * s1
    return {"mass": mass, "gravity_shape": grav, "K_t": Kt, "d": d, "c": c,
            "a_l": 0.5 * E * A * l}


def elastic_force(e, l, E, A, I, with_tangent=False):
    """Berzeri-Shabana elastic force of one element by the tensor contraction.

    Parameters
    ----------
    e : array_like (8,) element coordinates (m, and dimensionless slopes).
    l, E, A, I : length (m), Young's modulus (Pa), area (m^2), second moment (m^4).
    with_tangent : also return the tangent stiffness ``dF/de`` (8, 8).

    Returns
    -------
    force : (8,) N, energy : float J[, tangent : (8, 8) N/m]
    """
    e = np.ascontiguousarray(e, dtype=float)
    if e.shape != (8,):
        raise ValueError(f"e must have shape (8,), got {e.shape}")
    mats = element_matrices(l, E, A, I, 1.0)
    force = np.zeros(8)
    tangent = np.zeros(64)
    energy = _berzeri.assemble(
        e, np.arange(8, dtype=np.int32)[None, :], np.zeros(1, dtype=np.int32),
        mats["d"].reshape(1, 256), mats["c"].reshape(1, 16), mats["K_t"].reshape(1, 64),
        np.array([mats["a_l"]]), force, tangent, np.arange(64, dtype=np.int32)[None, :],
        with_tangent)
    if with_tangent:
        return force, energy, tangent.reshape(8, 8)
    return force, energy
