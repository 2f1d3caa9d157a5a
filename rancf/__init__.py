"""rancf: planar flexible multibody dynamics with the recursive absolute nodal coordinate
formulation (RANCF), the classical ANCF DAE formulation and implicit integrators.

Quick start::

    import rancf
    m = rancf.Model(gravity=(0.0, -9.81))
    b = m.add_beam(length=2.0, n_elements=8, E=2.07e11, rho=7800.0, A=0.01, I=8.333e-6)
    m.add_joint("revolute", m.ground.point(0.0, 0.0), b.start)
    result = rancf.simulate(m, t_end=1.0, dt=1e-4, method="rk4")
    result.position(b.end), result.energy()
"""
from . import elements
from .utilities.errors import ReturnedValueError, UserFunctionError
from .integrators import implicit
from .formulations.reduced import reduce
from .model import Model, pendulum
from .model.state import State
from .results import Result, load
from .simulate import simulate, static
from .studies.sweep import sweep
from .studies.vibration import Modes, modes

__all__ = ["Model", "pendulum", "State", "simulate", "static", "reduce", "Result", "load",
           "elements", "implicit", "sweep", "UserFunctionError", "ReturnedValueError", "modes",
           "Modes"]
__version__ = "0.2.0"
