"""A state of a model: absolute coordinates and velocities of every vertex."""
from dataclasses import dataclass

import numpy as np

from .. import checks


@dataclass(frozen=True)
class State:
    """Coordinates x and velocities v, each (n_x,) in the layout of
    :class:`rancf.model.Assembly` (4 per beam node, then 4 per rigid body), SI units.

    ``rancf.simulate(model, ..., state=State(x, v))`` starts from it; the coordinates must
    satisfy every joint and the velocities every joint's velocity condition.
    ``Result.state(i)`` gives the state of output i.
    """

    x: np.ndarray
    v: np.ndarray

    def checked(self, n_x):
        """(x, v) as float arrays of shape (n_x,), finite; ``TypeError``/``ValueError`` naming
        what is wrong."""
        return (checks.vector("state.x", self.x, n_x), checks.vector("state.v", self.v, n_x))
