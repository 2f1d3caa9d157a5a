"""Implicit integrators for index-3 DAEs of multibody dynamics (generalized-alpha family).

The problem (Ding & Pan 2013, eq. 1; DESIGN.md section 4) is::

    M(q) q'' + Phi_q(q, t)^T lambda = F(q, q', t),        Phi(q, t) = 0            (m constraints)

where the constraints may depend on time (drives), so that the velocity and acceleration
constraints are ``Phi' = Phi_q q' + Phi_t = 0`` and ``Phi'' = Phi_q q'' + xi(q, q', t) = 0``
with ``xi = (Phi_q q')_q q' + 2 Phi_qt q' + Phi_tt``.

Every scheme of the family updates positions and velocities with Newmark's formulas
(paper eq. 3 and 5)::

    q_{n+1} = q_n + h v_n + h^2 (1/2 - beta) a_n + h^2 beta a_{n+1}
    v_{n+1} = v_n + h (1 - gamma) a_n + h gamma a_{n+1}

and differs in where the equilibrium is enforced. In the paper's convention (weights on the
*new* step, so ``alpha = 1`` is Newmark):

* ``intermediate = False`` (Newmark, HHT-I3, generalized-alpha; paper eq. 6, 9, 12)::

      (1 - am) M_n a_n + am M_{n+1} a_{n+1}
          + (1 - af) (Phi_q^T lambda - F)_n + af (Phi_q^T lambda - F)_{n+1} = 0

* ``intermediate = True`` (generalized-alpha-S, paper eq. 14): the equation of motion is
  evaluated once, at the intermediate state ``q_f = (1 - af) q_n + af q_{n+1}`` (same for
  v and t), with acceleration ``a_m = (1 - am) a_n + am a_{n+1}`` and the unknown multiplier
  taken as ``lambda`` at that point::

      M(q_f) a_m + Phi_q(q_f)^T lambda - F(q_f, v_f, t_f) = 0

and ``Phi(q_{n+1}, t_{n+1}) = 0`` in both. The unknowns ``a_{n+1}`` and ``lambda`` are found by Newton
iterations on the full system; the constraint row is divided by ``h^2 beta`` so the Newton
matrix stays O(1) as h -> 0::

    [ am M + cmq d(M a)/dq + af h^2 beta (K + d(Phi_q^T lambda)/dq) + af h gamma C   w Phi_q^T ] [da]   [-r ]
    [ Phi_q(q_{n+1})                                                                 0        ] [dl] = [-Phi / (h^2 beta)]

(``K = -dF/dq``, ``C = -dF/dv``; ``w = af`` without, ``w = 1`` with the intermediate point;
``cmq = am h^2 beta`` or ``af h^2 beta``).

With ``projection=True`` each converged step is followed by the projections of paper
eq. 15-17: q onto ``Phi = 0`` (Gauss-Newton iterations ``q <- q - Phi_q^T (Phi_q Phi_q^T)^-1 Phi``,
i.e. eq. 15 with Phi_q frozen at the current iterate), then v onto ``Phi_q v + Phi_t = 0`` and a
onto ``Phi_q a + xi = 0`` (both linear, exact). The projected q, v, a start the next step.
The paper's projections are orthogonal in the Euclidean metric of the coordinates
(``projection=True`` or ``"euclidean"``); that metric does not respect kinetic energy, and the
velocity projection can feed energy in every step (it does on the rod-slider with the rod's
centre as coordinates: 0.33 J/s, until the run diverges). ``projection="mass"`` projects v and
a orthogonally in the kinetic-energy metric instead,
``[M Phi_q^T; Phi_q 0] [v; nu] = [M v~; -Phi_t]`` and ``[M Phi_q^T; Phi_q 0] [a; w] = [M a~; -xi]``,
which never increases ``v^T M v`` and works with a singular M (only the saddle-point matrix must
be regular); q is projected as before.

Coefficients (paper section 1; the OCR of the HHT formulas is damaged, DESIGN.md gives them):

=====================  =====================  ====================  ================  =======================
scheme                 am                     af                    gamma             beta
=====================  =====================  ====================  ================  =======================
Newmark                1                      1                     1/2               1/4
HHT-I3 (alpha)         1                      alpha in [2/3, 1]     3/2 - alpha       (2 - alpha)^2 / 4
generalized-alpha(rho) (2 - rho)/(rho + 1)    1/(rho + 1)           1/2 + am - af     (1 + am - af)^2 / 4
=====================  =====================  ====================  ================  =======================

(generalized-alpha-S uses the generalized-alpha coefficients.) All are second-order accurate
in q and v (Arnold & Bruls 2007); tests check it on problems with known solutions.
``"backward-euler"`` (:class:`BackwardEuler`, BDF-1 as in the adaptive-modal paper, eq. 34) is
first order and shares the Newton loop with am = af = gamma = beta = 1 and its own predictor.

A problem that defines :meth:`IndexThreeDAE.power` has the work of its external forces and
drives and its dissipated energy integrated by the loop at every step (trapezoidal rule).
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Dict

import numpy as np

from ..formulations.problem import LINEAR_SOLVERS, IndexThreeDAE, NewtonFactor

# The ufunc reductions called directly: ndarray.max and .all go through a Python wrapper that
# costs as much as the reduction itself on the short vectors of small models.
_max, _all = np.maximum.reduce, np.logical_and.reduce

__all__ = [
    "IndexThreeDAE",
    "ImplicitIntegrator",
    "Newmark",
    "HHT",
    "GeneralizedAlpha",
    "GeneralizedAlphaS",
    "BackwardEuler",
    "METHODS",
    "ImplicitSolution",
    "NewtonSolver",
    "StepEquations",
    "StepFailure",
    "integrate",
]

@dataclass
class ImplicitSolution:
    """Output of :func:`integrate`: states at the output steps and per-step monitors.

    ``violations[k] = (|Phi|, |Phi'|, |Phi''|)`` (infinity norms) and ``newton_iterations[k]``
    are the maxima over the steps since the previous output (per step when output_every = 1).
    ``work`` and ``dissipated`` (J) are the trapezoidal integrals of :meth:`IndexThreeDAE.power`
    (zero when the problem does not define it); ``extra`` stacks what the problem's optional
    ``observe(q, v, t, lam) -> dict`` returns at every output. ``status`` is "ok", "failed"
    (Newton did not converge, or the problem raised), "diverged" (non-finite or unbounded
    state) or "interrupted" (Ctrl-C); the arrays then hold the steps before it.
    """

    t: np.ndarray
    q: np.ndarray
    v: np.ndarray
    a: np.ndarray
    lam: np.ndarray
    violations: np.ndarray
    newton_iterations: np.ndarray
    work: np.ndarray = None
    dissipated: np.ndarray = None
    status: str = "ok"
    message: str = ""
    stats: Dict[str, int] = field(default_factory=dict)
    wall_time: float = 0.0
    extra: Dict[str, np.ndarray] = field(default_factory=dict)


class StepEquations:
    """The nonlinear equations of one step of an :class:`ImplicitIntegrator`, in the unknowns
    ``(a_{n+1}, lambda)`` (module docstring): ``q_{n+1} = q_pred + hb a_{n+1}``,
    ``v_{n+1} = v_pred + hg a_{n+1}``, residual ``(r, Phi(q_{n+1}, t_{n+1}) / hb)``.

    A nonlinear solver (:class:`NewtonSolver`, or a formulation's own, such as the adaptive
    modal one) calls :meth:`residual` and :meth:`matrix`; they count the work in the
    integrator's counters.
    """

    def __init__(self, integ):
        self.problem = p = integ.problem
        self._integ = integ
        h = integ.h
        self.am, self.af = am, af = integ.alpha_m, integ.alpha_f
        qn, vn, an, lamn, tn = integ.q, integ.v, integ.a, integ.lam, integ.t
        self.t1 = tn + h
        self.q_pred, self.v_pred = integ._predictors(qn, vn, an)
        self.hb, self.hg = h * h * integ.beta, h * integ.gamma
        self.intermediate = integ.intermediate
        self.m = p.n_constraints
        if self.intermediate:
            self.t_e = tn + af * h
            self.w, self.c_mq = 1.0, af * self.hb
            # The old-step parts of the intermediate point, fixed during the step.
            self.q_old, self.v_old, self.a_old = (1.0 - af) * qn, (1.0 - af) * vn, (1.0 - am) * an
        else:
            self.t_e = self.t1
            self.w, self.c_mq = af, am * self.hb
            # The old-step part of the weighted equilibrium (zero for Newmark).
            r_old = 0.0
            if am != 1.0:
                r_old = r_old + (1.0 - am) * p.mass_action(qn, an)
            if af != 1.0:
                Fn = p.force(qn, vn, tn)
                integ.nfev += 1
                r_old = r_old + (1.0 - af) * (p.constraint_force(qn, lamn, tn) - Fn)
            self.r_old = r_old

    def point(self, a1):
        """``(q1, q_e, v_e, a_e)``: the new positions and where the equation of motion is taken."""
        q1 = self.q_pred + self.hb * a1
        v1 = self.v_pred + self.hg * a1
        if self.intermediate:
            af = self.af
            return q1, self.q_old + af * q1, self.v_old + af * v1, self.a_old + self.am * a1
        return q1, q1, v1, a1

    def residual(self, a1, lam):
        """``(r_dyn (n,), r_con (m,))`` at (a1, lam); StepFailure if not finite."""
        p, af, t1 = self.problem, self.af, self.t1
        q1, q_e, v_e, a_e = self.point(a1)
        if self.intermediate:
            r = p.mass_action(q_e, a_e) - p.force(q_e, v_e, self.t_e)
            if self.m:
                r += p.constraint_force(q_e, lam, self.t_e)
        else:
            r = self.am * p.mass_action(q1, a1) - af * p.force(q1, v_e, t1)
            if self.m:
                r += af * p.constraint_force(q1, lam, t1)
            r += self.r_old
        self._integ.nfev += 1
        r_con = p.constraint(q1, t1) / self.hb
        if not (_all(np.isfinite(r)) and _all(np.isfinite(r_con))):
            raise StepFailure("diverged", f"non-finite residual at t = {t1:.6g} s")
        return r, r_con

    def matrix(self, a1, lam, factor=True):
        """The Newton matrix at (a1, lam): factored (``solve(r_dyn, r_con)``), or assembled only
        (``factor=False``, for solvers that use its entries)."""
        q1, q_e, v_e, a_e = self.point(a1)
        af = self.af
        try:
            out = self.problem.newton_matrix(q_e, a_e, lam, v_e, self.t_e, q1, self.t1, self.am,
                                           self.c_mq, af * self.hb, af * self.hg, self.w,
                                           factor=factor)
        except (ArithmeticError, np.linalg.LinAlgError, RuntimeError) as exc:
            # singular or indefinite Newton matrix (SuperLU raises RuntimeError)
            raise StepFailure("failed", f"Newton matrix could not be factored at t = {self.t1:.6g} s: {exc}")
        self._integ.njev += 1
        return out


class NewtonSolver:
    """Newton's method on the step equations: the default nonlinear solver.

    Stops when the position increment ``max |dq| <= tol`` (``dq = hb da``; absolute, in the
    units of q) and fails after ``max_iter`` iterations.
    """

    def __init__(self, tol=1e-10, max_iter=25):
        if not (tol > 0):
            raise ValueError(f"tol must be > 0, got {tol!r}")
        if int(max_iter) < 1:
            raise ValueError(f"max_iter must be >= 1, got {max_iter!r}")
        self.tol, self.max_iter = float(tol), int(max_iter)

    def solve(self, eq, a1, lam):
        """``(a1, lam, iterations)`` solving the step equations from the guess (a1, lam)."""
        for it in range(1, self.max_iter + 1):
            r, r_con = eq.residual(a1, lam)
            try:
                da, dl = eq.matrix(a1, lam).solve(-r, -r_con)
            except (ArithmeticError, np.linalg.LinAlgError, RuntimeError) as exc:
                raise StepFailure("failed", f"Newton matrix could not be used at t = {eq.t1:.6g} s: {exc}")
            a1 += da
            lam += dl
            eq._integ.newton_iterations += 1
            dq = eq.hb * _max(np.abs(da), initial=0.0)
            if not np.isfinite(dq):
                raise StepFailure("diverged", f"non-finite Newton increment at t = {eq.t1:.6g} s")
            if dq <= self.tol:
                return a1, lam, it
        raise StepFailure(
            "failed",
            f"Newton did not converge at t = {eq.t1:.6g} s within {self.max_iter} iterations "
            f"(last |dq| = {dq:.3g}, tolerance {self.tol:.3g})",
        )


class ImplicitIntegrator:
    """Base of the generalized-alpha family: one stepping loop, coefficients from the subclass.

    A subclass sets the class attributes ``alpha_m, alpha_f, gamma, beta`` (paper convention,
    see the module docstring) and ``intermediate`` (True for the -S variant), or computes them
    from its parameter in :meth:`_set_parameters`. Work counters: ``nfev`` (force
    evaluations), ``njev`` (Newton matrices assembled and factored), ``newton_iterations``
    (total), ``steps``.

    Parameters
    ----------
    problem : IndexThreeDAE
    t0 : float
    q0, v0 : ndarray (n,)
        Initial state; must satisfy the position and velocity constraints (not checked here).
    dt : float
        Step size h > 0 (s).
    projection : bool or {"euclidean", "mass"}
        Project q, q', q'' onto the constraint manifolds after every step (paper eq. 15-17).
    tol : float
        Newton stops when the position increment ``max|dq| <= tol`` (dq = h^2 beta da), an
        absolute tolerance in the units of q (m for node coordinates), so that formulations
        with different coordinates (absolute nodes, relative minimal coordinates) stop alike.
    max_iter : int
        Newton iteration cap per step; reaching it stops the run with status "failed".
    solver : optional
        The nonlinear solver of a step (``solve(eq, a, lam) -> (a, lam, iterations)`` on a
        :class:`StepEquations`); default :class:`NewtonSolver` ``(tol, max_iter)``.
    """

    name = "base"
    alpha_m = 1.0
    alpha_f = 1.0
    gamma = 0.5
    beta = 0.25
    intermediate = False
    divergence_bound = 1e8

    def __init__(self, problem, t0, q0, v0, dt, projection=False, tol=1e-10, max_iter=25,
                 solver=None, **parameters):
        if not (np.isfinite(dt) and dt > 0):
            raise ValueError(f"dt must be a positive finite number, got {dt!r}")
        self.solver = NewtonSolver(tol, max_iter) if solver is None else solver
        self._set_parameters(**parameters)
        self.problem = problem
        self.h = float(dt)
        if projection not in (False, True, "euclidean", "mass"):
            raise ValueError(f"projection must be False, True, 'euclidean' or 'mass', got {projection!r}")
        self.projection = "euclidean" if projection is True else projection
        self.t = float(t0)
        self.q = np.array(q0, dtype=float)
        self.v = np.array(v0, dtype=float)
        n = problem.n_coordinates
        if self.q.shape != (n,) or self.v.shape != (n,):
            raise ValueError(f"q0 and v0 must have shape ({n},), got {self.q.shape} and {self.v.shape}")
        self.nfev = self.njev = self.newton_iterations = self.steps = 0
        self.a, self.lam = self._consistent_acceleration(self.q, self.v, self.t)

    def _set_parameters(self, **parameters):
        if parameters:
            raise TypeError(f"{self.name} takes no parameters, got {sorted(parameters)}")

    # --------------------------------------------------------------------------------
    def _consistent_acceleration(self, q, v, t):
        """Solve [M Phi_q^T; Phi_q 0] [a; lam] = [F; -xi] for the initial a and lambda."""
        p = self.problem
        F = p.force(q, v, t)
        self.nfev += 1
        fac = p.newton_matrix(q, np.zeros_like(q), np.zeros(p.n_constraints), v, t, q, t,
                              1.0, 0.0, 0.0, 0.0, 1.0)
        self.njev += 1
        return fac.solve(F, -p.acceleration_bias(q, v, t))

    def step(self):
        """Advance one step of size h. Returns the number of nonlinear iterations.

        Raises
        ------
        StepFailure
            When the step's nonlinear solve fails or the state leaves the finite range.
        """
        eq = StepEquations(self)
        a1, lam, it = self.solver.solve(eq, self.a.copy(), self.lam.copy())
        q1, v1 = eq.q_pred + eq.hb * a1, eq.v_pred + eq.hg * a1
        if self.projection and self.problem.n_constraints:
            q1, v1, a1 = self._project(q1, v1, a1, eq.t1)
        if not (_max(np.abs(q1)) < self.divergence_bound and _max(np.abs(v1)) < self.divergence_bound):
            raise StepFailure("diverged", f"state exceeded {self.divergence_bound:g} at t = {eq.t1:.6g} s")
        self.q, self.v, self.a, self.lam, self.t = q1, v1, a1, lam, eq.t1
        self.steps += 1
        return it

    def _predictors(self, qn, vn, an):
        """The parts of q_{n+1}, v_{n+1} known before the step (Newmark: eq. 3 and 5 at a = 0)."""
        h = self.h
        return qn + h * vn + h * h * (0.5 - self.beta) * an, vn + h * (1.0 - self.gamma) * an

    def _project(self, q, v, a, t):
        """Paper eq. 15-17: q onto Phi = 0, v onto Phi_q v + Phi_t = 0, a onto Phi_q a + xi = 0."""
        p = self.problem
        for _ in range(10):
            phi = p.constraint(q, t)
            J = p.constraint_jacobian(q, t)
            if _max(np.abs(phi)) <= 1e-15 * (1.0 + _max(np.abs(q))):
                break
            q = q - J.T @ p.gram_solver(J)(phi)
        if self.projection == "mass":
            m = p.n_constraints
            fac = p.newton_matrix(q, np.zeros_like(q), np.zeros(m), v, t, q, t, 1.0, 0.0, 0.0, 0.0, 1.0)
            v = fac.solve(p.mass_action(q, v), -p.velocity_bias(q, t))[0]
            a = fac.solve(p.mass_action(q, a), -p.acceleration_bias(q, v, t))[0]
            return q, v, a
        solve = p.gram_solver(J)
        v = v - J.T @ solve(J @ v + p.velocity_bias(q, t))
        a = a - J.T @ solve(J @ a + p.acceleration_bias(q, v, t))
        return q, v, a

    def violations(self):
        """(|Phi|, |Phi_q v + Phi_t|, |Phi_q a + xi|) at the current state, infinity norms."""
        p, t = self.problem, self.t
        if not p.n_constraints:
            return 0.0, 0.0, 0.0
        q = self.q
        return (
            float(_max(np.abs(p.constraint(q, t)))),
            float(_max(np.abs(p.constraint_rate(q, self.v, t) + p.velocity_bias(q, t)))),
            float(_max(np.abs(p.constraint_rate(q, self.a, t) + p.acceleration_bias(q, self.v, t)))),
        )

    def stats(self):
        return {"nfev": self.nfev, "njev": self.njev, "nlu": self.njev,
                "newton_iterations": self.newton_iterations, "steps": self.steps}


class StepFailure(Exception):
    def __init__(self, status, message):
        super().__init__(message)
        self.status = status
        self.message = message


class Newmark(ImplicitIntegrator):
    """Newmark's average-acceleration scheme (gamma = 1/2, beta = 1/4), paper eq. 3-6."""

    name = "newmark"


class HHT(ImplicitIntegrator):
    """HHT-I3 in the paper's convention (eq. 9): ``alpha`` in [2/3, 1], 1 is Newmark.

    alpha_m = 1, alpha_f = alpha, gamma = 3/2 - alpha, beta = (2 - alpha)^2 / 4
    (the classical HHT parameter is alpha - 1 in [-1/3, 0]).
    """

    name = "hht"

    def _set_parameters(self, alpha=0.9):
        alpha = float(alpha)
        if not (2.0 / 3.0 - 1e-12 <= alpha <= 1.0):
            raise ValueError(f"alpha must be in [2/3, 1] for method 'hht', got {alpha!r}")
        self.alpha_m, self.alpha_f = 1.0, alpha
        self.gamma, self.beta = 1.5 - alpha, (2.0 - alpha) ** 2 / 4.0


class GeneralizedAlpha(ImplicitIntegrator):
    """Generalized-alpha (paper eq. 12) with spectral radius at infinity ``rho_inf`` in [0, 1].

    1 - alpha_m = (2 rho - 1)/(rho + 1), 1 - alpha_f = rho/(rho + 1),
    gamma = 1/2 + alpha_m - alpha_f, beta = (1 + alpha_m - alpha_f)^2 / 4.
    """

    name = "generalized-alpha"

    def _set_parameters(self, rho_inf=0.9):
        rho = float(rho_inf)
        if not (0.0 <= rho <= 1.0):
            raise ValueError(f"rho_inf must be in [0, 1], got {rho_inf!r}")
        self.alpha_m = 1.0 - (2.0 * rho - 1.0) / (rho + 1.0)
        self.alpha_f = 1.0 - rho / (rho + 1.0)
        self.gamma = 0.5 + self.alpha_m - self.alpha_f
        self.beta = (1.0 + self.alpha_m - self.alpha_f) ** 2 / 4.0


class GeneralizedAlphaS(GeneralizedAlpha):
    """Generalized-alpha-S (paper eq. 14): equilibrium at the intermediate state, for M(q)."""

    name = "generalized-alpha-s"
    intermediate = True


class BackwardEuler(ImplicitIntegrator):
    """First-order BDF (backward Euler) on q and q', the adaptive-modal paper's eq. 34::

        v_{n+1} = v_n + h a_{n+1},   q_{n+1} = q_n + h v_{n+1} = q_n + h v_n + h^2 a_{n+1}

    with the equilibrium at the new step. Not a Newmark scheme (the weights of the
    accelerations in q sum to 1, not 1/2): first-order accurate and strongly dissipative.
    It is here so that other solvers using it (:mod:`rancf.modal.bdf`) can be compared with
    the same time discretization.
    """

    name = "backward-euler"
    gamma = 1.0
    beta = 1.0

    def _predictors(self, qn, vn, an):
        return qn + self.h * vn, vn


METHODS = {cls.name: cls for cls in (Newmark, HHT, GeneralizedAlpha, GeneralizedAlphaS,
                                     BackwardEuler)}


def integrate(problem, q0, v0, t_end, dt, method="generalized-alpha", t0=0.0, output_every=1,
              projection=False, tol=1e-10, max_iter=25, solver=None, **parameters):
    """Integrate an :class:`IndexThreeDAE` from t0 to t_end with fixed step dt.

    Parameters
    ----------
    method : {"newmark", "hht", "generalized-alpha", "generalized-alpha-s", "backward-euler"}
    output_every : int
        Store every k-th step (the first and the last state are always stored).
    solver : optional
        The nonlinear solver of a step (see :class:`ImplicitIntegrator`).
    parameters
        ``alpha`` for "hht", ``rho_inf`` for the generalized-alpha methods.

    Returns
    -------
    ImplicitSolution
        A run stopped by a Newton failure or a divergence keeps the steps before it, with
        ``status`` and ``message`` saying what happened.
    """
    if method not in METHODS:
        raise ValueError(f"method must be one of {sorted(METHODS)}, got {method!r}")
    if int(output_every) < 1:
        raise ValueError(f"output_every must be >= 1, got {output_every!r}")
    if not (t_end > t0):
        raise ValueError(f"t_end must be > t0 = {t0}, got {t_end!r}")
    output_every = int(output_every)
    start = time.perf_counter()
    integ = METHODS[method](problem, t0, q0, v0, dt, projection=projection, tol=tol,
                            max_iter=max_iter, solver=solver, **parameters)
    n_steps = int(round((t_end - t0) / dt))
    if n_steps < 1 or abs(n_steps * dt - (t_end - t0)) > 1e-9 * max(1.0, abs(t_end)):
        raise ValueError(f"(t_end - t0) / dt must be a positive integer, got {(t_end - t0) / dt!r}")
    observe = getattr(problem, "observe", None)

    def record(violation, iterations, energy):
        # one append per output, so that an interruption never leaves ragged lists
        seen = observe(integ.q, integ.v, integ.t, integ.lam) if observe else {}
        records.append((integ.t, integ.q, integ.v, integ.a, integ.lam, violation, iterations,
                        energy.copy(), seen))

    records = []
    power = problem.power(integ.q, integ.v, integ.t, integ.lam)
    energy = np.zeros(2)
    record(np.array(integ.violations()), 0, energy)
    status, message = "ok", ""
    worst_v, worst_it = np.zeros(3), 0
    for k in range(1, n_steps + 1):
        try:
            it = integ.step()
            if power is not None:
                new = problem.power(integ.q, integ.v, integ.t, integ.lam)
                energy += 0.5 * integ.h * (np.asarray(power) + np.asarray(new))
                power = new
            worst_v = np.maximum(worst_v, integ.violations())
            worst_it = max(worst_it, it)
            if k % output_every == 0 or k == n_steps:
                record(worst_v, worst_it, energy)
                worst_v, worst_it = np.zeros(3), 0
        except StepFailure as exc:
            status, message = exc.status, exc.message
            break
        except (ArithmeticError, ValueError, RuntimeError) as exc:
            # an input function of the problem raised: stop, keep the steps so far
            status, message = "failed", f"at t = {integ.t + integ.h:.6g} s: {exc}"
            break
        except KeyboardInterrupt:
            status, message = "interrupted", f"interrupted (Ctrl-C) at t = {integ.t:.6g} s"
            break
    ts, qs, vs, as_, ls, viol, iters, works, seen = (list(c) for c in zip(*records))
    works = np.array(works)
    return ImplicitSolution(
        t=np.array(ts), q=np.array(qs), v=np.array(vs), a=np.array(as_), lam=np.array(ls),
        violations=np.array(viol), newton_iterations=np.array(iters), work=works[:, 0],
        dissipated=works[:, 1], status=status, message=message, stats=integ.stats(),
        wall_time=time.perf_counter() - start,
        extra={k: np.array([s[k] for s in seen]) for k in (seen[0] if seen else ())},
    )
