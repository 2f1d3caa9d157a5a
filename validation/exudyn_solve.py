"""Exudyn's dynamic solver as the peer cases run it (``peers``, ``peers3d``): one function, so
both cases time Exudyn under the same settings."""
from __future__ import annotations

import time


def solve_dynamic(mbs, t_end: float, h: float, rho_inf: float, tolerance, threads: int,
                  write_period: float, solver: str = "generalized-alpha"):
    """Exudyn's generalized-alpha (spectral radius rho_inf) or explicit RK4 (``solver="rk4"``,
    its RK44) at the fixed step h (s) to t_end (s), with its default modified Newton and the
    (relative, absolute) Newton ``tolerance``, the sparse solver (EigenSparse), ``threads``
    threads, sensors stored every ``write_period`` (s), no solution file.

    Returns the wall time of ``SolveDynamic`` (s; assembly excluded, as rancf's wall times
    exclude building the model) and the solver's counters over the run: Newton iterations and
    Jacobians (``mbs.sys['dynamicSolver'].it``: ``newtonStepsCount``, ``newtonJacobiCount``).

    Raises
    ------
    RuntimeError
        Exudyn reports that the run did not converge.
    """
    import exudyn as exu

    s = exu.SimulationSettings()
    s.timeIntegration.endTime = t_end
    s.timeIntegration.numberOfSteps = int(round(t_end / h))
    s.timeIntegration.automaticStepSize = False
    s.timeIntegration.generalizedAlpha.spectralRadius = rho_inf
    s.timeIntegration.newton.relativeTolerance, s.timeIntegration.newton.absoluteTolerance = tolerance
    s.timeIntegration.verboseMode = 0
    s.parallel.numberOfThreads = threads
    s.solution.sensors.writePeriod = write_period
    s.solution.file.write = False
    s.linearSolver.solverType = exu.LinearSolverType.EigenSparse
    kind = {"generalized-alpha": exu.DynamicSolverType.GeneralizedAlpha,
            "rk4": exu.DynamicSolverType.RK44}
    start = time.perf_counter()
    ok = mbs.SolveDynamic(s, solverType=kind[solver])
    wall = time.perf_counter() - start
    if not ok:
        raise RuntimeError(f"Exudyn did not converge (h = {h:g} s)")
    it = mbs.sys["dynamicSolver"].it
    return wall, {"newton_iterations": it.newtonStepsCount, "jacobians": it.newtonJacobiCount}
