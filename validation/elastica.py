"""The elastica of a cantilever under a tip force of fixed direction: the reference of the
``cantilever`` case.

Written from its own derivation with ``scipy.integrate.solve_bvp``, sharing no code with
``rancf``. A beam of length L, clamped at the origin along +x, carries at its free end a force
P straight down (-y), direction fixed. Arc length of the undeformed beam ``S = s L``, s in
[0, 1]; theta(s) the angle of the tangent (counter-clockwise from +x, so negative here).

Derivation
----------
The section force is the tip load ``n = (0, -P)`` everywhere (no distributed load). The tension
along the tangent is ``N = n . (cos theta, sin theta) = -P sin theta``, the axial strain
``eps = N / EA``, and ``r' = (1 + eps) (cos theta, sin theta)`` (per unit S). Moment balance
``dM/dS + r' x n = 0`` with ``M = EI dtheta/dS`` gives ``EI theta'' = P (1 + eps) cos theta``.
In s, with the load parameter ``k = P L^2 / EI`` and the stretch parameter
``lambda = EI / (EA L^2)`` (so ``eps = -k lambda sin theta``)::

    theta_ss = k (1 + eps) cos theta,     x_s = (1 + eps) cos theta,     y_s = (1 + eps) sin theta,
    theta(0) = 0,  theta_s(1) = 0 (no moment at the free end),  x(0) = y(0) = 0.

``lambda = 0`` is Euler's inextensible elastica (the table of CASES.md); ``lambda > 0`` is the
extensible elastica whose strain measures (axial ``|r'| - 1``, bending ``dtheta/dS``) are exactly
those of the Reissner beam model, so a converged Reissner beam must reach it. For small k the
linear cantilever gives ``u_y / L = k / 3`` and an end rotation ``k / 2``.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.integrate import solve_bvp


@dataclass(frozen=True)
class Elastica:
    """One solution: tip displacements over L, end rotation and the deformed centreline.

    Attributes
    ----------
    k : float
        Load parameter P L^2 / EI.
    stretch : float
        EI / (EA L^2); 0 for the inextensible elastica.
    shortening, deflection : float
        Tip displacement over L along -x and along -y (``u_x / L``, ``u_y / L``).
    rotation : float
        End rotation, clockwise, rad.
    s, x, y : (n,) arrays
        Points of the deformed centreline, in units of L, at reference arc lengths s.
    """

    k: float
    stretch: float
    shortening: float
    deflection: float
    rotation: float
    s: np.ndarray
    x: np.ndarray
    y: np.ndarray


def _solve(k: float, stretch: float, guess, tol: float):
    def rhs(s, z):
        theta, kappa = z[0], z[1]
        axial = 1.0 - k * stretch * np.sin(theta)
        return np.vstack([kappa, k * axial * np.cos(theta), axial * np.cos(theta), axial * np.sin(theta)])

    def bc(za, zb):
        return np.array([za[0], zb[1], za[2], za[3]])

    s, z = guess
    sol = solve_bvp(rhs, bc, s, z, tol=tol, max_nodes=200_000)
    if not sol.success:
        raise RuntimeError(f"solve_bvp did not converge for k = {k:g}, stretch = {stretch:g}: {sol.message}")
    return sol


def elastica(ks, stretch: float = 0.0, tol: float = 1e-10, points: int = 201) -> list[Elastica]:
    """Solve the elastica for each load parameter of ``ks``, continuing from one k to the next.

    Parameters
    ----------
    ks : sequence of float
        Load parameters ``k = P L^2 / EI`` (> 0), solved in increasing order, each from the last
        solution (the first from the linear cantilever at k = 0.1).
    stretch : float
        ``EI / (EA L^2)`` (>= 0); 0 for the inextensible elastica.
    tol : float
        ``solve_bvp``'s tolerance on the relative residual.
    points : int
        Points of the returned centrelines.

    Returns
    -------
    list of Elastica, in the order of ``ks``.
    """
    ks = np.asarray(ks, dtype=float)
    if ks.ndim != 1 or ks.size == 0 or np.any(~(ks > 0)):
        raise ValueError(f"ks must be a non-empty 1-D sequence of positive load parameters, got {ks!r}")
    if not stretch >= 0.0:
        raise ValueError(f"stretch must be >= 0 (EI / (EA L^2)), got {stretch!r}")
    s = np.linspace(0.0, 1.0, 41)
    k0 = 0.1
    theta = k0 * (s**2 / 2 - s)  # the linear cantilever at a small load
    guess = (s, np.vstack([theta, k0 * (s - 1.0), s, k0 * (s**3 / 6 - s**2 / 2)]))
    solved = {}
    for k in np.unique(ks):
        solved[k] = _solve(k, stretch, guess, tol)
        guess = (solved[k].x, solved[k].y)
    out = []
    fine = np.linspace(0.0, 1.0, points)
    for k in ks:
        theta, _, x, y = solved[k].sol(fine)
        out.append(Elastica(k=float(k), stretch=float(stretch), shortening=float(1.0 - x[-1]),
                            deflection=float(-y[-1]), rotation=float(-theta[-1]), s=fine, x=x, y=y))
    return out
