"""Adaptive modal selection for large-deformation ANCF systems (Liu et al. 2023).

Modules: :mod:`~rancf.modal.berzeri` (element with the precomputed axial tensor),
:mod:`~rancf.modal.system` (components, constraints, assembly), :mod:`~rancf.modal.bdf`
(BDF-1 time stepping, full Newton step, table-2 time accounting),
:mod:`~rancf.modal.craig_bampton`, :mod:`~rancf.modal.greedy_gauss_newton`,
:mod:`~rancf.modal.adaptive` (the adaptive modal step) and :mod:`~rancf.modal.mechanisms`
(the paper's pendulum and 3-RRR robot). See DESIGN.md section 5.
"""
from .adaptive import AdaptiveModalStep
from .bdf import ModalResult, NewtonStep, integrate
from .craig_bampton import CraigBampton
from .greedy_gauss_newton import greedy_gauss_newton

__all__ = ["AdaptiveModalStep", "CraigBampton", "ModalResult", "NewtonStep", "greedy_gauss_newton",
           "integrate"]
