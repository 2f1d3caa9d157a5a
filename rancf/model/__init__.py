"""The mechanism model (theory: The mechanism model): items, points, joints, loads; frozen when
built."""
from .assembly import Assembly
from .items import Beam, Ground, Point, RigidBody
from .joints import Joint, Load
from .model import Model, pendulum

__all__ = ["Assembly", "Beam", "Ground", "Joint", "Load", "Model", "Point", "RigidBody", "pendulum"]
