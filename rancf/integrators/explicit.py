"""Explicit Runge-Kutta schemes for the recursive formulation.

Each scheme is a small class holding its Butcher tableau (SciPy ``_ivp/rk.py`` style);
the stepping loop is written once, in Cython (``rancf/_explicit.pyx``), and runs without
the GIL. A scheme keeps this contract: ``A`` strictly lower triangular, ``A.sum(1) == c``,
``sum(b) == 1``; an adaptive one also gives ``b_err = b - b_hat`` and its ``error_order``.
"""
import numpy as np


class ExplicitRungeKutta:
    """Base class: Butcher tableau plus what the stepping loop needs to know."""

    A = np.zeros((0, 0))
    b = np.zeros(0)
    c = np.zeros(0)
    b_err = np.zeros(0)     # empty: fixed step
    error_order = 1
    fsal = False

    @classmethod
    def stable_step(cls, lam):
        """The largest step h (s) for which ``h' lam`` stays in the scheme's stability region
        for every ``0 < h' <= h``, for an eigenvalue lam (complex, 1/s) of the linearised
        motion; inf for lam = 0.

        The stability function of an explicit scheme is the polynomial
        ``R(z) = 1 + sum_k z^(k+1) b^T A^k 1``; along the ray of lam the first exit from
        ``|R| <= 1`` is found by a scan of ``|z|`` in [0, 10] (beyond the region of every
        explicit scheme) and bisection.
        """
        if lam == 0:
            return np.inf
        n = len(cls.b)
        coef = [1.0] + [cls.b @ np.linalg.matrix_power(cls.A, k) @ np.ones(n) for k in range(n)]
        direction = lam / abs(lam)
        unstable = lambda rho: abs(np.polyval(coef[::-1], rho * direction)) > 1.0 + 1e-12
        grid = np.linspace(0.0, 10.0, 2001)[1:]
        out = np.flatnonzero(unstable(grid))
        if not len(out):
            return np.inf
        lo, hi = (grid[out[0] - 1] if out[0] else 0.0), grid[out[0]]
        for _ in range(60):
            mid = 0.5 * (lo + hi)
            lo, hi = (lo, mid) if unstable(mid) else (mid, hi)
        return lo / abs(lam)


class RK4(ExplicitRungeKutta):
    """Classical fourth-order Runge-Kutta, fixed step; stable for |h omega| <= 2 sqrt(2) on the
    imaginary axis, for h lambda >= -2.785 on the real axis."""

    A = np.array([[0, 0, 0, 0], [0.5, 0, 0, 0], [0, 0.5, 0, 0], [0, 0, 1.0, 0]])
    b = np.array([1 / 6, 1 / 3, 1 / 3, 1 / 6])
    c = np.array([0, 0.5, 0.5, 1.0])


class DormandPrince54(ExplicitRungeKutta):
    """Dormand-Prince 5(4) with first-same-as-last stage, adaptive (Hairer's DOPRI5)."""

    A = np.array([
        [0, 0, 0, 0, 0, 0, 0],
        [1 / 5, 0, 0, 0, 0, 0, 0],
        [3 / 40, 9 / 40, 0, 0, 0, 0, 0],
        [44 / 45, -56 / 15, 32 / 9, 0, 0, 0, 0],
        [19372 / 6561, -25360 / 2187, 64448 / 6561, -212 / 729, 0, 0, 0],
        [9017 / 3168, -355 / 33, 46732 / 5247, 49 / 176, -5103 / 18656, 0, 0],
        [35 / 384, 0, 500 / 1113, 125 / 192, -2187 / 6784, 11 / 84, 0],
    ])
    b = np.array([35 / 384, 0, 500 / 1113, 125 / 192, -2187 / 6784, 11 / 84, 0])
    c = np.array([0, 1 / 5, 3 / 10, 4 / 5, 8 / 9, 1, 1])
    b_err = b - np.array([5179 / 57600, 0, 7571 / 16695, 393 / 640, -92097 / 339200,
                          187 / 2100, 1 / 40])
    error_order = 5
    fsal = True


#: Method names of ``rancf.simulate`` for the explicit schemes.
SCHEMES = {"rk4": RK4, "dopri5": DormandPrince54}
