"""What every integrator returns: one :class:`Solution` type for the explicit loop, SciPy's
methods, the implicit loop, statics and the reduced model's run.

A Solution holds two kinds of arrays at the output times: the integrator's own states (``y`` of
an ODE, or ``q, v, a, lam`` of the index-3 DAE) and the model-level arrays its formulation maps
them to (node coordinates and velocities, joint coordinates, rates and reactions), which the
integrator asks the formulation's contract for at each output. The results layer turns a
Solution and a model into a :class:`rancf.Result` (:func:`rancf.results.result_of`).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict

import numpy as np

#: The keys of a contract's ``observe`` that are model-level arrays (fields of a Solution);
#: any other key it returns goes to ``extra``.
MODEL_ARRAYS = ("nodes", "velocities", "joint_q", "joint_qd", "reactions", "work", "dissipated")

#: The fields of a Solution a contract's ``observe`` may return: the model-level arrays and
#: ``inputs``, the input functions' values it kept at the outputs.
MODEL_FIELDS = MODEL_ARRAYS + ("inputs",)


@dataclass
class Solution:
    """Output of an integrator: states at the output steps, what the model makes of them, and
    per-step monitors.

    Not constructed directly: the integrators return it. Arrays have the outputs along their
    first axis; an integrator that has no such quantity leaves it None.

    Attributes
    ----------
    t : ndarray (n_out,)
        Output times (s); for statics the load factor's frame (0).
    q, v, a, lam : ndarray (n_out, n), (n_out, m)
        The implicit loop's coordinates, their first two time derivatives and the multipliers.
    violations : ndarray (n_out, 3)
        ``(|Phi|, |Phi'|, |Phi''|)`` (infinity norms), the maxima over the steps since the
        previous output (implicit loop).
    newton_iterations : ndarray (n_out,)
        The most Newton iterations of a step since the previous output (implicit loop).
    y : ndarray (n_out, n_y)
        The states of an ODE (explicit methods).
    nodes, velocities : ndarray (n_out, n_x)
        The model's node coordinates and their rates (m, 1, m/s, 1/s), from the formulation;
        or ``nodes`` a callable giving ``nodes``, ``velocities``, ``joint_q`` and ``joint_qd``
        (a dict; ``velocities``, ``joint_q``, ``joint_qd`` then None), which the Result calls
        when one of them is first read (developer: Results, files and sweeps: the recursive
        formulation's runs, planar and with :class:`~rancf.formulations.recursive.StoredFrames`,
        and the spatial DAE's).
    joint_q, joint_qd, reactions : ndarray (n_out, n_joints)
        Joint coordinates (rad or m, unwrapped), rates, and the reactions of fixed and driven
        joints (N m or N), from the formulation; the DAE gives the reactions of its held joints
        as a callable returning that array (:class:`~rancf.formulations.dae.HeldReactions`),
        the recursive formulation all of them (:meth:`StoredFrames.reactions
        <rancf.formulations.recursive.StoredFrames.reactions>`), which the Result calls when
        they are first read.
    work, dissipated : ndarray (n_out,)
        Work of the applied forces and drives and the energy dissipated since the start (J):
        integrated by the implicit loop (zeros when the problem does not track them), or
        states of an ODE that the formulation reads out.
    status : {"ok", "diverged", "failed", "interrupted"}
        "failed": Newton did not converge, a singular matrix, the step fell below its floor,
        the problem raised; "diverged": non-finite or unbounded state; "interrupted": Ctrl-C.
        The arrays then hold the outputs before it; ``message`` says what happened.
    method, formulation : str
        The integrator's method and the formulation of the problem it ran ("" for a problem
        that names none).
    stats : dict
        Work counters (``steps``, ``nfev``, ``njev``, ``nlu``, ``newton_iterations``,
        ``rejected``, and whatever else the integrator counts).
    wall_time : float
        Wall-clock time of the integration (s).
    error : Exception or None
        The exception that stopped a run with status "failed", where one did (a
        :class:`rancf.UserFunctionError` for a function of the model, its own exception
        chained); None otherwise.
    extra : dict of ndarray
        What the problem's ``observe`` returned at every output besides the model-level arrays
        (stacked), and what a formulation adds (the reduced model's modal coordinates).
    inputs : rancf.formulations.inputs.Recorded or None
        The values the model's input functions (drives, loads of t, efforts) gave at each
        output's state in the run, which every output the Result computes later from a stored
        frame plays back in their place (:func:`rancf.results.outputs.played_inputs`): called
        then, a function would give another call's value, or fail again where it stopped the
        run (statics keeps the last equilibrium where one failed). None: the model has no
        input function, or the run did not keep their values (a file of format 2; one of
        format 3 keeps them, :func:`rancf.load`).

    Examples
    --------
    A free particle under gravity (no constraints), exact for Newmark's scheme:

    >>> class Fall(rancf.implicit.IndexThreeDAE):
    ...     n_coordinates = 1
    ...     def mass(self, q):
    ...         return np.eye(1)
    ...     def force(self, q, v, t):
    ...         return np.array([-9.81])
    >>> sol = rancf.implicit.integrate(Fall(), [0.0], [0.0], 1.0, 0.1, method="newmark")
    >>> sol.status, sol.q.shape, round(float(sol.q[-1, 0]), 6)       # -g t^2 / 2
    ('ok', (11, 1), -4.905)
    """

    t: np.ndarray
    q: np.ndarray = None
    v: np.ndarray = None
    a: np.ndarray = None
    lam: np.ndarray = None
    violations: np.ndarray = None
    newton_iterations: np.ndarray = None
    y: np.ndarray = None
    nodes: np.ndarray = None
    velocities: np.ndarray = None
    joint_q: np.ndarray = None
    joint_qd: np.ndarray = None
    reactions: np.ndarray = None
    work: np.ndarray = None
    dissipated: np.ndarray = None
    status: str = "ok"
    message: str = ""
    method: str = ""
    formulation: str = ""
    stats: Dict[str, int] = field(default_factory=dict)
    wall_time: float = 0.0
    error: BaseException = None
    extra: Dict[str, np.ndarray] = field(default_factory=dict)
    inputs: object = None


def split(arrays):
    """``(the Solution's fields, the others)`` of what a contract's ``observe`` returned
    (:data:`MODEL_FIELDS`: the stacked model-level arrays and the kept input values)."""
    arrays = dict(arrays)
    return {name: arrays.pop(name) for name in MODEL_FIELDS if name in arrays}, arrays
