"""A state of a model: absolute coordinates and velocities of every vertex, and the joint
coordinates it was taken with."""
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
    joint_q : array_like (n_joint_q,), optional
        The joint coordinates the state was taken with, in the layout of a row of
        :attr:`rancf.Result.joint_q` (rad or m; a spatial joint's coordinates in its kind's
        order, :meth:`rancf.Result.joint`), whatever formulation runs from the state (and
        :func:`rancf.modes` at the state: its springs balance on these turns). They
        name the branch, not the configuration (x does): a run starts every joint angle on the
        whole turns nearest its value here, and a spherical or free joint's rotation vector on
        the one of its rotation's two vectors nearer the value here, so that a joint turned
        past pi goes on past pi (its spring and effort see the angle the earlier run had, its
        reported angle continues). :meth:`rancf.Result.state` fills it. None (a State built
        from coordinates): the angles are read from x, each within half a turn of the
        reference configuration's (a joint at 3.5 rad starts at 3.5 - 2 pi, where a spring
        with its rest angle at 0 pulls the other way); so are those of a State passed to a
        model with other joints (its joint_q of another length: a pose built on one model
        given to another).

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
    joint_q: np.ndarray = None

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

    def checked_joint_q(self, n_joint_q):
        """The joint coordinates as a checked float array, or None where the State has none
        for this model: none at all, or a number of them other than the model's (the State of
        a model with other joints, whose coordinates do not name this model's turns).

        Parameters
        ----------
        n_joint_q : int
            Number of joint coordinates the model has (the columns of its runs'
            :attr:`rancf.Result.joint_q`).

        Returns
        -------
        ndarray (n_joint_q,) or None

        Raises
        ------
        TypeError
            Entries that are not numbers.
        ValueError
            A non-finite entry (the message names state.joint_q).

        Examples
        --------
        >>> rancf.State(np.zeros(8), np.zeros(8), joint_q=[3.5, 0.1]).checked_joint_q(2)
        array([3.5, 0.1])
        >>> rancf.State(np.zeros(8), np.zeros(8)).checked_joint_q(2) is None
        True
        >>> rancf.State(np.zeros(8), np.zeros(8), joint_q=[3.5]).checked_joint_q(2) is None
        True
        """
        if self.joint_q is None or np.size(self.joint_q) != n_joint_q:
            return None
        return checks.vector("state.joint_q", self.joint_q, n_joint_q)
