"""rancf: recursive absolute nodal coordinate formulation for planar flexible chains.

Quick start::

    import rancf
    chain = rancf.pendulum(n_bodies=5, elements_per_body=5, body_length=5.0, E=21e6)
    result = rancf.simulate(chain, t_end=4.0, dt=1e-3, method="rk4")
    result.tip(), result.energy()
"""
from . import element
from .chain import Body, Chain, State, pendulum
from .recursive import accelerations, node_velocities
from .result import Result, load
from .simulate import simulate

__all__ = ["Body", "Chain", "State", "pendulum", "accelerations", "node_velocities",
           "simulate", "Result", "load", "element"]
__version__ = "0.1.0"
