"""A state of a model: absolute coordinates and velocities of every vertex."""
from dataclasses import dataclass

import numpy as np


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
        body (m; slopes and axes dimensionless).
    v : array_like (n_x,)
        Their rates (m/s, 1/s).

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

    def checked(self, n_x):
        """The state as checked float arrays.

        Parameters
        ----------
        n_x : int
            Number of coordinates the model has (``model.build().n_x``).

        Returns
        -------
        x, v : ndarray (n_x,)

        Raises
        ------
        ValueError
            A wrong number of entries or a non-finite entry (the message names which).

        Examples
        --------
        >>> x, v = rancf.State(np.zeros(8), np.ones(8)).checked(8)
        >>> rancf.State(np.zeros(8), np.ones(4)).checked(8)
        Traceback (most recent call last):
        ...
        ValueError: state.v must have 8 entries (4 per vertex), got 4
        """
        out = []
        for name, a in (("state.x", self.x), ("state.v", self.v)):
            a = np.array(a, dtype=float).reshape(-1)
            if a.shape != (n_x,):
                raise ValueError(f"{name} must have {n_x} entries (4 per vertex), got {a.size}")
            if not np.all(np.isfinite(a)):
                raise ValueError(f"{name} must be finite")
            out.append(a)
        return tuple(out)
