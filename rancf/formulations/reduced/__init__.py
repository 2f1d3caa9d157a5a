"""The adaptive modal reduction of a model (Liu et al. 2023; theory: Adaptive modal reduction), a
reductor of :class:`rancf.Model` run by the one implicit stepping loop.

Modules: :mod:`~rancf.formulations.reduced.reductor` (:func:`reduce`, :class:`ReducedModel`:
bases, sampling, ``reconstruct``, the equations and solution of a run, which
:func:`rancf.simulate` runs), :mod:`~rancf.formulations.reduced.craig_bampton`,
:mod:`~rancf.formulations.reduced.greedy_gauss_newton`,
:mod:`~rancf.formulations.reduced.adaptive` (the step's nonlinear solver, a strategy of
:func:`rancf.integrators.implicit.integrate`) and :mod:`~rancf.formulations.reduced.timing`
(the paper's table-2 time split). "Modal" is the user's word for it.
"""
from .adaptive import AdaptiveModalSolver
from .craig_bampton import CraigBampton
from .greedy_gauss_newton import greedy_gauss_newton
from .reductor import ReducedModel, initial_state, latin_hypercube_rows, reduce, timed_solution
from .timing import Timer, TimedDAE

__all__ = ["AdaptiveModalSolver", "CraigBampton", "ReducedModel", "Timer", "TimedDAE",
           "greedy_gauss_newton", "initial_state", "latin_hypercube_rows", "reduce",
           "timed_solution"]
