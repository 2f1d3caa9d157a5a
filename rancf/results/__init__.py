"""What a run gives: :class:`Result` (trajectories, joints, energies), made from an integrator's
Solution by :func:`result_of`, its file format (:mod:`~rancf.results.files`) and its pictures
(:mod:`~rancf.results.plotting`, imported on first use: it imports matplotlib)."""
from .files import load
from .result import Result, energies, result_of

__all__ = ["Result", "energies", "load", "result_of"]
