"""A state of a model: absolute coordinates and velocities of every vertex."""
from dataclasses import dataclass

import numpy as np

from .. import checks


@dataclass(frozen=True)
class State:
    """Absolute coordinates and velocities of a model: an initial state for a run.

    ``rancf.simulate(model, ..., state=State(x, v))`` starts from it; the coordinates must
    satisfy every joint and the velocities every joint's velocity condition.
    :meth:`rancf.Result.state` gives the state of an output (to continue a run, or to start
    two formulations from the same state).

    Parameters
    ----------
    x : array_like (n_x,)
        Coordinates in the layout of :class:`rancf.Result`'s ``nodes`` flattened: ``[x, y,
        x', y']`` of every beam node (beam by beam), then ``[x, y, u_x, u_y]`` of every rigid
        body (m; slopes and axes dimensionless). Spatial models (``rancf.Model(dim=3)``): the
        pose of every body of the tree, its origin (m) and its frame row-major (12 numbers a
        body, the bodies as ``Result.nodes`` holds them), then the coordinates ``[r, r']`` of
        every ANCF cable node (6 a node, cable by cable: position in m, slope ``dr/dx``
        dimensionless, whose length is the stretch ``1 + eps``), so ``n_x = 12 n_bodies +
        6 n_cable_nodes``.
    v : array_like (n_x,) or (n_v,)
        Their rates (m/s, 1/s). Spatial models: every body's velocity and angular velocity,
        global (m/s, rad/s; 6 numbers a body), then the rates of every cable node's r and r'
        (m/s, 1/s; 6 a node): ``n_v = 6 n_bodies + 6 n_cable_nodes``.

    Examples
    --------
    >>> m = rancf.pendulum(n_bodies=2, elements_per_body=2, body_length=1.0)
    >>> first = rancf.simulate(m, 0.1, 1e-3)
    >>> rest = rancf.simulate(m, 0.1, 1e-3, state=first.state(-1))   # t restarts at 0
    >>> bool(np.allclose(rest.nodes[0], first.nodes[-1]))
    True
    """

    x: np.ndarray
    v: np.ndarray

    def checked(self, n_x, n_v=None):
        """The state as checked float arrays.

        Parameters
        ----------
        n_x : int
            Number of coordinates the model has (``model.build().n_x``; a spatial model's
            ``12 n_bodies + 6 n_cable_nodes``).
        n_v : int, optional
            Number of velocities, if not n_x (a spatial model's ``6 n_bodies +
            6 n_cable_nodes``).

        Returns
        -------
        x : ndarray (n_x,)
        v : ndarray (n_v,)

        Raises
        ------
        TypeError
            Entries that are not numbers (the message names state.x or state.v).
        ValueError
            A wrong number of entries or a non-finite entry (the message names which).

        Examples
        --------
        >>> x, v = rancf.State(np.zeros(8), np.ones(8)).checked(8)
        >>> rancf.State(np.zeros(8), np.ones(4)).checked(8)
        Traceback (most recent call last):
        ...
        ValueError: state.v must have 8 components, got array([1., 1., 1., 1.])
        """
        return (checks.vector("state.x", self.x, n_x),
                checks.vector("state.v", self.v, n_x if n_v is None else n_v))
