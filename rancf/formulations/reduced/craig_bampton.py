"""Craig-Bampton reductor of a linear flexible component (adaptive-modal paper eq. 24-28).

Coordinates are split into boundary ``b`` (joint nodes) and interior ``a``. With the
component's mass ``M`` and (bending) stiffness ``K``, the transform ``e = T p``,
``p = [e_b, xi]``,

    T = [[I, 0], [Phi_c, Phi_n]],   Phi_c = -K_aa^{-1} K_ab   (constraint modes, eq. 27),
    (K_aa - w_m^2 M_aa) Phi_n[:, m] = 0                         (fixed-interface modes, eq. 28),

keeps all ``n_a`` normal modes (mass-normalised, ``Phi_n^T M_aa Phi_n = I``), so ``T`` is square
and invertible and the modal coordinates are a change of basis that the adaptive method
sparsifies. Shaped like a pyMOR reductor: built from the full model, :meth:`reduce` returns a
model of the same kind (reduced mass and stiffness), :meth:`reconstruct` maps back.

Planar ANCF beams act on x and y alike, so ``M`` and ``K`` are ``m (x) I2`` in the interleaved
``[x, y, x', y']`` ordering and every eigenvalue is double. ``eigh`` would return an arbitrary
rotation of each two-dimensional eigenspace, so the sparsity pattern of the modal coordinates
would depend on round-off; when this structure is present (checked) the scalar eigenproblem is
solved once and each scalar mode gives an x-mode and a y-mode.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.linalg as sla
import scipy.sparse as sp


@dataclass
class ReducedLinearModel:
    """``mass`` and ``stiffness`` (r, r) projected on ``basis`` (n, r): ``T^T M T``, ``T^T K T``."""

    mass: np.ndarray
    stiffness: np.ndarray
    basis: np.ndarray


def _dense(a):
    return a.toarray() if sp.issparse(a) else np.asarray(a, dtype=float)


def _isotropic(M, K, boundary):
    """True when ``M``, ``K`` are ``m (x) I2`` and the boundary takes x and y together."""
    if M.shape[0] % 2:
        return False
    b = set(boundary.tolist())
    if any((i ^ 1) not in b for i in b):
        return False
    for A in (M, K):
        tol = 1e-12 * np.abs(A).max()
        if np.abs(A[0::2, 1::2]).max() > tol or np.abs(A[0::2, 0::2] - A[1::2, 1::2]).max() > tol:
            return False
    return True


class CraigBampton:
    """Craig-Bampton basis of one component.

    Parameters
    ----------
    mass, stiffness : (n, n) arrays or sparse matrices of the component (kg, N/m), symmetric;
        ``stiffness[a][:, a]`` must be positive definite (the boundary removes the rigid modes).
    boundary : int array, local indices of the boundary coordinates.

    Attributes
    ----------
    boundary, interior : index arrays; ``constraint_modes`` Phi_c (n_a, n_b);
    ``normal_modes`` Phi_n (n_a, n_a); ``frequencies`` (n_a,) rad/s, ascending;
    ``T`` (n, n) the transform with ``p = [e_b, xi]``.
    """

    def __init__(self, mass, stiffness, boundary):
        M, K = _dense(mass), _dense(stiffness)
        n = M.shape[0]
        if M.shape != (n, n) or K.shape != (n, n):
            raise ValueError(f"mass and stiffness must be square of the same shape, got "
                             f"{M.shape} and {K.shape}")
        b = np.unique(np.asarray(boundary, dtype=np.int64))
        if b.size == 0 or b[0] < 0 or b[-1] >= n:
            raise ValueError(f"boundary must be non-empty indices in [0, {n}), got {boundary}")
        a = np.setdiff1d(np.arange(n), b)
        Kaa, Kab, Maa = K[np.ix_(a, a)], K[np.ix_(a, b)], M[np.ix_(a, a)]
        self.boundary, self.interior = b, a
        self.constraint_modes = -sla.cho_solve(sla.cho_factor(Kaa), Kab)
        if _isotropic(M, K, b):
            ax = np.arange(0, a.size, 2)  # interior x-coordinates (a keeps the pairs together)
            w2, phi = sla.eigh(Kaa[np.ix_(ax, ax)], Maa[np.ix_(ax, ax)])
            modes = np.zeros((a.size, a.size))
            modes[0::2, 0::2] = phi
            modes[1::2, 1::2] = phi
            w2 = np.repeat(w2, 2)
        else:
            w2, modes = sla.eigh(Kaa, Maa)
        self.normal_modes = modes
        self.frequencies = np.sqrt(np.maximum(w2, 0.0))
        #: ``Phi_n^T M_aa`` (n_a, n_a): maps interior displacements to modal coordinates
        self.modal_projector = modes.T @ Maa
        self._M, self._K = M, K
        T = np.zeros((n, n))
        nb = b.size
        T[b, np.arange(nb)] = 1.0
        T[np.ix_(a, np.arange(nb))] = self.constraint_modes
        T[np.ix_(a, nb + np.arange(a.size))] = modes
        self.T = T

    def reduce(self, n_modes=None):
        """Reduced model keeping the boundary coordinates and the ``n_modes`` lowest modes."""
        na = self.interior.size
        n_modes = na if n_modes is None else int(n_modes)
        if not 0 <= n_modes <= na:
            raise ValueError(f"n_modes must be in [0, {na}], got {n_modes}")
        T = self.T[:, :self.boundary.size + n_modes]
        return ReducedLinearModel(T.T @ self._M @ T, T.T @ self._K @ T, T)

    def reconstruct(self, p):
        """Coordinates ``e = T p`` (n,) from ``p = [e_b, xi]`` (a prefix of the modes)."""
        p = np.asarray(p, dtype=float)
        return self.T[:, :p.shape[0]] @ p

    def project(self, e):
        """Exact inverse of :meth:`reconstruct` for all modes: ``p = [e_b, xi]`` with
        ``xi = Phi_n^T M_aa (e_a - Phi_c e_b)`` (mass orthonormality of the modes)."""
        e = np.asarray(e, dtype=float)
        eb = e[self.boundary]
        xi = self.modal_projector @ (e[self.interior] - self.constraint_modes @ eb)
        return np.concatenate([eb, xi])
