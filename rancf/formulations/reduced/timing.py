"""The time accounting of the adaptive-modal paper's tables 2 and 4, fed by the adaptive strategy
and by the full model's Newton solve in the one stepping loop.

Categories: ``"update"``, the paper's "Jacobian, stiffness and residual updates" (element forces
and tangents, constraints, residual and Newton matrix assembly), and ``"matrix"``, its "matrix
operations" (factorizations, solves, least squares, modal projections). The total is the loop's
wall time.

The full model's Newton iterations are the compiled loop's own and call the DAE kernel from C,
where nothing can be timed from outside. :class:`TimedDAE` runs the same DAE through the loop's
adapter for problems written in Python (developer: What stays public): the loop's Newton calls its
residual terms and its Newton matrix from Python, each timed, and the matrix is factored by SuperLU
(:class:`rancf.formulations.problem.NewtonFactor`) so that assembly and factorization are timed
apart. The callbacks make this run slower than the compiled one; the table says which is which.
"""
from __future__ import annotations

import time
from contextlib import contextmanager

from ..dae import DAE
from ..problem import NewtonFactor

#: the categories of :class:`Timer`
CATEGORIES = ("update", "matrix")


class Timer:
    """Accumulated wall time (s) per category; ``with timer("update"): ...``.

    ``seconds`` maps each of :data:`CATEGORIES` to its total.
    """

    def __init__(self):
        self.seconds = dict.fromkeys(CATEGORIES, 0.0)

    @contextmanager
    def __call__(self, category):
        start = time.perf_counter()
        try:
            yield
        finally:
            self.seconds[category] += time.perf_counter() - start

    def stats(self):
        """The totals as a run's counters: ``{"time_update": s, "time_matrix": s}``."""
        return {f"time_{category}": self.seconds[category] for category in CATEGORIES}


class _TimedFactor:
    """A :class:`NewtonFactor` whose solves are charged to "matrix"."""

    def __init__(self, factor, timer):
        self.factor, self.timer = factor, timer

    def solve(self, r_dyn, r_con):
        with self.timer("matrix"):
            return self.factor.solve(r_dyn, r_con)


def _charged(method):
    """``method`` with its time charged to "update"."""
    def timed(self, *args):
        with self.timer("update"):
            return method(self, *args)
    return timed


class TimedDAE(DAE):
    """The DAE of a model (:class:`rancf.formulations.dae.DAE`, sparse) with the evaluations of a
    Newton step timed by ``timer`` (module docstring): residual terms and the assembly of
    Newton's matrix as "update", its factorization and solves as "matrix". The loop adds the
    totals to its Solution's ``stats`` (:meth:`run_stats`). ``branch``: the DAE's (the joint
    angles its run starts on)."""

    def __init__(self, assembly, timer, branch=None):
        super().__init__(assembly, "sparse", branch=branch)
        self.timer = timer

    mass_action = _charged(DAE.mass_action)
    force = _charged(DAE.force)
    constraint = _charged(DAE.constraint)
    constraint_force = _charged(DAE.constraint_force)

    def newton_matrix(self, q_e, a_e, lam, v_e, t_e, q_new, t_new, c_m, c_mq, c_k, c_c, w,
                      factor=True):
        args = (q_e, a_e, lam, v_e, t_e, q_new, t_new, c_m, c_mq, c_k, c_c, w)
        with self.timer("update"):
            S = super().newton_matrix(*args, factor=False)
        if not factor:
            return S
        with self.timer("matrix"):
            return _TimedFactor(NewtonFactor(S, self.n_constraints, True), self.timer)

    def run_stats(self):
        """``time_update`` and ``time_matrix`` (s) of ``timer``, for the run's counters."""
        return self.timer.stats()
