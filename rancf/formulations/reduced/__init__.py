"""The adaptive modal reduction of a model (Liu et al. 2023; theory: Adaptive modal reduction), a
reductor of :class:`rancf.Model` run by the one implicit stepping loop.

Modules: :mod:`~rancf.formulations.reduced.reductor` (:func:`reduce`, :class:`ReducedModel`:
bases, sampling, ``reconstruct``; :class:`ReducedProblem`, the reduced model as a problem of
the implicit loop, which :func:`rancf.simulate` runs like any formulation's),
:mod:`~rancf.formulations.reduced._full_equations` (the full model's compiled equations as
that problem's), :mod:`~rancf.formulations.reduced.craig_bampton`,
:mod:`~rancf.formulations.reduced.greedy_gauss_newton`,
:mod:`~rancf.formulations.reduced.adaptive` (the step's nonlinear solver, a strategy of
:func:`rancf.integrators.implicit.integrate`), :mod:`~rancf.formulations.reduced.drift` (the
checks that a finished run still follows its model) and :mod:`~rancf.formulations.reduced.timing`
(the paper's table-2 time split). "Modal" is the user's word for it.
"""
from .adaptive import AdaptiveModalSolver
from .craig_bampton import CraigBampton
from .greedy_gauss_newton import greedy_gauss_newton
from .reductor import (ReducedModel, ReducedProblem, initial_state, latin_hypercube_rows,
                       reduce)
from .timing import Timer, TimedDAE

__all__ = ["AdaptiveModalSolver", "CraigBampton", "ReducedModel", "ReducedProblem", "Timer",
           "TimedDAE", "greedy_gauss_newton", "initial_state", "latin_hypercube_rows", "reduce"]
