"""Review 10's findings on the merges e563fa1..d974dd6 (statics' damped steps solving a step
misread by its chord, the clamp at a cable point refusing its slope turned over, the
elements' Hessians reused from the residual, the closed-form gradient of J_l), each against
something independent of the code under review.
"""
import numpy as np
import pytest

from rancf.formulations.problem import StepFailure
from rancf.integrators import static


class Singular:
    """A stand-in for statics' stepper whose every step fails as a Newton matrix that cannot
    be factored at any mu does (a DAE's rank-deficient constraint rows: ``[[K + mu M,
    Phi_x^T], [Phi_x, 0]]`` singular whatever mu): ``advance`` raises StepFailure from the
    factorization, before Newton's first iteration is counted (rancf/integrators/
    _implicit.pyx ``_newton``: ``newton_iterations`` rises after the first solve)."""

    def __init__(self, calls):
        self.calls, self.newton_iterations, self.am = calls, 0, 0.0

    def start_at_rest(self, t, x, lam):
        pass

    def advance(self):
        self.calls[0] += 1
        if self.calls[0] > 10000:
            raise KeyError("still stepping after 10000 failed steps")
        raise StepFailure("failed", "the Newton matrix is singular")


def test_the_damped_steps_stop_where_every_step_fails(monkeypatch):
    """``_damped_newton`` returns None (no equilibrium reached) within its budget, ``10
    max_iter`` steps, where every step fails before a Newton iteration is counted: each
    failure raises mu tenfold and tries again. Bound: at most ``10 max_iter`` tries (the
    budget before e563fa1..d974dd6 counted steps, one iteration each). Before the fix the
    budget counted the steppers' Newton iterations alone, which such failures leave at zero:
    mu overflowed to inf after 308 tries and the loop went on for ever (stopped here by the
    stand-in after 10000)."""
    calls = [0]
    monkeypatch.setattr(static, "_static_stepper",
                        lambda problem, tol, max_iter, inertia=0.0, made=None: Singular(calls))
    x, lam = np.zeros(2), np.zeros(0)

    def residual(x, lam):
        f = np.array([1.0, 0.0])
        return np.linalg.norm(f), f, np.zeros(0)
    max_iter = 20
    end = static._damped_newton(None, x, lam, residual, lambda x, d: d, 9.81, 1.0, 1e-10,
                                max_iter, [])
    assert end is None
    assert calls[0] <= 10 * max_iter
