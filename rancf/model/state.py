"""A state of a model: absolute coordinates and velocities of every vertex, and the joint
coordinates it was taken with."""
from dataclasses import dataclass

import numpy as np

from ..utilities import checks


@dataclass(frozen=True)
class State:
    """Absolute coordinates and velocities of a model: an initial state for a run.

    ``rancf.simulate(model, ..., state=State(x, v))`` starts from it; the coordinates must
    satisfy every joint and the velocities every joint's velocity condition, to what a run
    leaves (its Newton tolerance, its step's error: the run moves such a state onto them and
    its message says so; rancf/formulations/start_check.py).
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
    cable_bases : array_like (n_cable_nodes, 3, 3), optional
        Spatial models with ANCF cables: the base frame of every cable node (rows as
        ``Result.nodes`` holds a frame, cable by cable), from which the node's drawn frame
        (``Result.orientation`` of a cable point) is turned by the smallest rotation taking
        the base's x to the node's tangent. A run carries the bases from output to output
        (the reference frames until a tangent turns past 120 degrees from them, then the
        frame of the output before: theory, The spatial ANCF cable), so the frames depend on
        the path, not on x alone; a run from a State that has them goes on from them, and its
        cable frames are those the earlier run would have drawn. :meth:`rancf.Result.state`
        fills them (statics too: the equilibrium's frames, carried through its load steps).
        None (a State built from coordinates, or an output of a file saved before they were
        kept): the reference frames, as a run from the reference configuration.

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
    cable_bases: np.ndarray = None

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

    def checked_cable_bases(self, n_cable_nodes):
        """The cable frames' bases as a checked float array (n_cable_nodes, 3, 3), or None
        where the State has none.

        Parameters
        ----------
        n_cable_nodes : int
            Number of ANCF cable nodes the model has.

        Returns
        -------
        ndarray (n_cable_nodes, 3, 3) or None

        Raises
        ------
        TypeError
            Entries that are not numbers.
        ValueError
            Another number of entries than ``9 n_cable_nodes``, a non-finite entry, or a
            base that is not a rotation (``B^T B = I`` and ``det B = 1`` within 1e-9; the
            message names the node).

        Examples
        --------
        >>> s = rancf.State(np.zeros(18), np.zeros(12), cable_bases=np.eye(3)[None])
        >>> s.checked_cable_bases(1).shape
        (1, 3, 3)
        >>> rancf.State(np.zeros(18), np.zeros(12)).checked_cable_bases(1) is None
        True
        """
        if self.cable_bases is None:
            return None
        B = checks.vector("state.cable_bases", np.ravel(self.cable_bases),
                          9 * n_cable_nodes).reshape(n_cable_nodes, 3, 3)
        off = np.abs(np.swapaxes(B, 1, 2) @ B - np.eye(3)).max(axis=(1, 2), initial=0.0)
        det = np.linalg.det(B) if len(B) else np.ones(0)
        bad = np.flatnonzero(~((off <= 1e-9) & (np.abs(det - 1.0) <= 1e-9)))
        if len(bad):
            raise ValueError(f"state.cable_bases: the base of cable node {bad[0]} is not a "
                             f"rotation (|B^T B - I| = {off[bad[0]]:.3g}, det B = "
                             f"{det[bad[0]]:.12g}; both within 1e-9 of a rotation's): pass "
                             "Result.state(i)'s, or None for the reference frames")
        return B
