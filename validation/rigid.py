"""An independent rigid N-link pendulum: the reference of the ``rigid-limit`` case.

Written from its own derivation, sharing no code with ``rancf``: a planar chain of uniform
thin rods, link 1 pinned at the origin, link k pinned to the free end of link k-1, gravity
``g`` along -y. Generalized coordinates are the *absolute* link angles ``theta_k``, measured
from +x counter-clockwise (all zero = straight along +x).

Derivation
----------
Joint positions ``p_k = sum_{j<k} L_j u_j`` with ``u_j = (cos theta_j, sin theta_j)``; the
centre of link i is ``c_i = p_i + L_i/2 u_i``, so ``c_i' = sum_k a_ik L_k theta_k' n_k`` with
``n_k = (-sin theta_k, cos theta_k)``, ``a_ik = 1`` (k < i), ``1/2`` (k = i), ``0`` (k > i).
With link inertia ``m_i L_i^2 / 12`` about the centre, the kinetic energy is

    T = 1/2 sum_jk M_jk theta_j' theta_k',   M_jk = mu_jk L_j L_k cos(theta_j - theta_k),

    mu_jk = sum_i m_i a_ij a_ik + delta_jk m_j / 12
          = m_k / 3 + sum_{i>k} m_i            (j = k)
          = m_k / 2 + sum_{i>k} m_i            (j < k, symmetric).

The potential is ``V = g sum_i m_i c_i,y = g sum_k L_k sin theta_k (m_k/2 + sum_{i>k} m_i)``.
Lagrange's equations give

    sum_k M_jk theta_k'' + sum_k mu_jk L_j L_k sin(theta_j - theta_k) theta_k'^2
        + g L_j cos theta_j (m_j / 2 + sum_{i>j} m_i) = 0,

solved for ``theta''`` with a dense solve of the (N, N) mass matrix and integrated with
``scipy.integrate.solve_ivp`` (DOP853, rtol = atol = 1e-12 by default).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.integrate import solve_ivp


@dataclass(frozen=True)
class RigidChain:
    """A planar chain of uniform thin rods pinned at the origin.

    Parameters
    ----------
    lengths : array_like, shape (N,)
        Link lengths L_k in m (> 0).
    masses : array_like, shape (N,)
        Link masses m_k in kg (> 0).
    gravity : float
        Gravitational acceleration g in m/s^2 (along -y), >= 0.
    """

    lengths: np.ndarray
    masses: np.ndarray
    gravity: float = 9.81

    def __post_init__(self):
        lengths = np.atleast_1d(np.asarray(self.lengths, dtype=float))
        masses = np.atleast_1d(np.asarray(self.masses, dtype=float))
        if lengths.ndim != 1 or lengths.size == 0 or np.any(~(lengths > 0)):
            raise ValueError("lengths must be a non-empty 1-D array of positive values (m)")
        if masses.shape != lengths.shape or np.any(~(masses > 0)):
            raise ValueError(f"masses must have shape {lengths.shape} and positive values (kg)")
        if not np.isfinite(self.gravity) or self.gravity < 0:
            raise ValueError("gravity must be a finite value >= 0 (m/s^2)")
        object.__setattr__(self, "lengths", lengths)
        object.__setattr__(self, "masses", masses)

    @property
    def n_links(self) -> int:
        return self.lengths.size

    @property
    def _outboard(self) -> np.ndarray:
        """sum_{i>k} m_i for every k, shape (N,)."""
        return np.concatenate([np.cumsum(self.masses[::-1])[::-1][1:], [0.0]])

    @property
    def _mu(self) -> np.ndarray:
        """The constant coefficients mu_jk of the mass matrix, shape (N, N)."""
        k = np.arange(self.n_links)
        later = np.maximum.outer(k, k)  # the later link of each pair decides mu
        mu = self.masses[later] / 2 + self._outboard[later]
        mu[k, k] = self.masses / 3 + self._outboard
        return mu

    def mass_matrix(self, theta: np.ndarray) -> np.ndarray:
        """M(theta), shape (N, N), in kg m^2."""
        LL = np.outer(self.lengths, self.lengths)
        return self._mu * LL * np.cos(np.subtract.outer(theta, theta))

    def accelerations(self, theta: np.ndarray, omega: np.ndarray) -> np.ndarray:
        """theta'' in rad/s^2 from Lagrange's equations (module docstring)."""
        LL = np.outer(self.lengths, self.lengths)
        diff = np.subtract.outer(theta, theta)
        M = self._mu * LL * np.cos(diff)
        centripetal = (self._mu * LL * np.sin(diff)) @ (omega**2)
        grav = self.gravity * self.lengths * np.cos(theta) * (self.masses / 2 + self._outboard)
        return np.linalg.solve(M, -(centripetal + grav))

    def energy(self, theta: np.ndarray, omega: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Kinetic and gravity energy (J) for states of shape (..., N)."""
        theta = np.atleast_2d(theta)
        omega = np.atleast_2d(omega)
        LL = np.outer(self.lengths, self.lengths)
        diff = theta[:, :, None] - theta[:, None, :]
        kinetic = 0.5 * np.einsum("tj,tjk,tk->t", omega, self._mu * LL * np.cos(diff), omega)
        gravity = self.gravity * np.sin(theta) @ (self.lengths * (self.masses / 2 + self._outboard))
        return kinetic, gravity

    def joint_positions(self, theta: np.ndarray) -> np.ndarray:
        """Positions of the N+1 link ends (pin first, tip last), shape (..., N+1, 2), in m."""
        theta = np.asarray(theta, dtype=float)
        steps = np.stack([np.cos(theta), np.sin(theta)], axis=-1) * self.lengths[:, None]
        ends = np.cumsum(steps, axis=-2)
        zero = np.zeros(ends.shape[:-2] + (1, 2))
        return np.concatenate([zero, ends], axis=-2)

    def tip(self, theta: np.ndarray) -> np.ndarray:
        """Free-end position, shape (..., 2), in m."""
        return self.joint_positions(theta)[..., -1, :]


@dataclass
class RigidSolution:
    """Samples of a rigid-chain motion: ``t`` (n,), ``theta`` and ``omega`` (n, N); ``events``:
    the event times found by ``solve_ivp`` (one array per event function)."""

    chain: RigidChain
    t: np.ndarray
    theta: np.ndarray
    omega: np.ndarray
    nfev: int
    events: list | None = None

    def tip(self) -> np.ndarray:
        """Free-end position, shape (n, 2), in m."""
        return self.chain.tip(self.theta)

    def energy(self) -> np.ndarray:
        """Total energy (kinetic + gravity) in J, shape (n,)."""
        kinetic, gravity = self.chain.energy(self.theta, self.omega)
        return kinetic + gravity


def simulate_rigid(chain: RigidChain, t_end: float, t_eval=None, theta0=None, omega0=None,
                   rtol: float = 1e-12, atol: float = 1e-12, events=None) -> RigidSolution:
    """Integrate the rigid chain with DOP853.

    Parameters
    ----------
    chain : RigidChain
    t_end : float
        End time in s (> 0).
    t_eval : array_like, optional
        Output times in s, within [0, t_end]; default: the solver's own steps.
    theta0, omega0 : array_like, shape (N,), optional
        Initial absolute angles (rad) and rates (rad/s); default: straight along +x, at rest.
    rtol, atol : float
        Tolerances passed to ``solve_ivp``.
    events : callable or list, optional
        Passed to ``solve_ivp`` (signature ``event(t, y)``, y = [theta, omega]).

    Returns
    -------
    RigidSolution
    """
    if not (np.isfinite(t_end) and t_end > 0):
        raise ValueError("t_end must be a finite value > 0 (s)")
    n = chain.n_links
    theta0 = np.zeros(n) if theta0 is None else np.asarray(theta0, dtype=float)
    omega0 = np.zeros(n) if omega0 is None else np.asarray(omega0, dtype=float)
    if theta0.shape != (n,) or omega0.shape != (n,):
        raise ValueError(f"theta0 and omega0 must have shape ({n},)")

    def rhs(_t, y):
        return np.concatenate([y[n:], chain.accelerations(y[:n], y[n:])])

    sol = solve_ivp(rhs, (0.0, float(t_end)), np.concatenate([theta0, omega0]), method="DOP853",
                    t_eval=t_eval, rtol=rtol, atol=atol, events=events)
    if sol.status < 0:
        raise RuntimeError(f"rigid chain integration failed: {sol.message}")
    return RigidSolution(chain, sol.t, sol.y[:n].T, sol.y[n:].T, sol.nfev, sol.t_events)
