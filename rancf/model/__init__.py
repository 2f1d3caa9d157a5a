"""The mechanism model (theory: The mechanism model): items, points, joints, loads; frozen when
built. Planar by default; ``Model(dim=3)`` is spatial (theory: Spatial trees)."""
from .assembly import Assembly
from .items import Beam, Ground, Point, RigidBody
from .joints import Joint, Load
from .model import Model, pendulum
from .spatial_model import SpatialModel
from .spatial_tree import SpatialTree

__all__ = ["Assembly", "Beam", "Ground", "Joint", "Load", "Model", "Point", "RigidBody",
           "SpatialModel", "SpatialTree", "pendulum"]
