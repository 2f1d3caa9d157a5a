"""Checks that a reduced run still follows its model (issues 24, 26: nothing silently wrong).

With too few modes (``sparsity``) or sampled equations (``n_samples``) the sampled step
equations no longer determine the motion: greedy Gauss-Newton then solves them (often at its
iteration cap) for states the full model would never reach, and the run would end "ok" with a
motion that gains energy or stretches its beams. Two checks, chosen so that a correct run cannot
fail them (the full model's energy function at the reconstructed states), turn such a run into
``status = "diverged"``, with a message naming the check, its value and limit and what to
change. They run at every step (:class:`StepWatch`: the run stops at the first step that fails,
keeping the outputs before it) and on the finished run (:func:`drift_checked`, on the Solution
the implicit loop returns, for what a step cannot judge), so the Result is made once, with its
final status.

1. **Energy gain** (passive models only: no drive, no effort given as a function, no
   time-dependent force or moment, so that nothing feeds energy in but through a potential).
   The balance ``total = kinetic + elastic + gravity - work + dissipated``
   (:meth:`rancf.Result.energy`; ``work`` that of the constant loads and joint efforts) is
   conserved by the exact motion, and backward Euler, the reduced model's scheme, only
   removes energy (its numerical damping). The gain ``max_t total(t) - total(0)`` is compared
   with the system's energy scale

       E_s = (m |g| + sum_i |F_i|) L + sum_j |tau_j| max(u_j, max_t |q_j(t) - q_j(0)|)
             + kinetic(0) + elastic(0)      (J),

   m the model's mass (kg), F_i its constant point forces (N), ``L`` its size (the largest
   distance between reference points, m): the potential energy that moving the mass and the
   loads' points across the model exchanges; tau_j joint j's constant effort (N m or N), q_j
   its coordinate in the run (rad or m, unwrapped) and u_j = 1 rad (a rotation error of a few
   hundredths of a radian is a position error of a few percent of L at a distance L) or L
   (a sliding joint, as a force): the work the effort has done, at least over that unit; plus
   the initial energy (a model at rest without gravity, forces or efforts has none and is not
   checked). The limit is
   ``ENERGY_GAIN = 0.05`` of it: a reduced solution within a few percent of L of the full one
   (the method's accuracy when it works) changes the potential by about that fraction of
   ``m |g| L``, and the full model's backward Euler loses energy.
2. **Stretch**: the largest relative stretch of an element's chord, ``max |r_2 - r_1| / l - 1``
   over elements and outputs (``r_1``, ``r_2`` its end positions, ``l`` its reference length).
   The limit ``STRETCH = 1`` (an element twice its length, the beam's length not kept) is far
   beyond the small strains the Berzeri-Shabana axial law, which the reduction needs, is a model
   of; the chord is shorter than the arc, so bending alone never raises it.

Both checks also run at every step (:class:`StepWatch`, called by the adaptive step on its
solution): a run that fails one stops there with status "diverged" and keeps the outputs so far,
instead of running on to states arbitrarily far from the model's (greedy Gauss-Newton meets
the sampled equations with any state that fits them).
At a step the energy check needs no integrated work: it runs on passive models without
torsion spring-dampers, load moments or joint efforts, where every force is a potential of the step's
coordinates (gravity ``-F_G . x``, a constant point force ``-F . r(x)``, ``r`` its point's
position, the point spring-dampers' ``1/2 k (l - l0)^2``; damping only lowers the total, so
the in-step check flags no run the finished-run check would pass). On a passive model with a
torsion spring-damper, a load moment or a joint effort only the stretch is checked at each
step, and the energy gain on the finished run: a moment's or effort's work and a torsion
spring's energy need the
rotation since the start counted in turns (the joint coordinates the loop tracks at its
outputs, :attr:`rancf.Result.joint_q`), which the step's coordinates alone do not give.

The fraction of greedy Gauss-Newton steps at the iteration cap (``stats["greedy_max_iter"]``)
is reported in a flagged run's message but is no verdict: it does not tell a drifting run from
a correct one (a pendulum whose energy grows by a fifth of its scale can end no step at the
cap).
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from ..problem import StepFailure
from ...utilities.errors import USER_FUNCTION_ERRORS
from .greedy_gauss_newton import STATUSES

#: energy gain limit, a fraction of the energy scale E_s (module docstring)
ENERGY_GAIN = 0.05
#: element stretch limit, dimensionless (module docstring)
STRETCH = 1.0

ADVICE = ("the reduced motion has left the model's: keep more modes (sparsity, or max_support "
          "to let a step's support grow) or sample more equations (n_samples) in rancf.reduce, "
          "e.g. twice as many, and compare the two runs")


def advice(reduced):
    """:data:`ADVICE` with each beam's settings against its sizes: a small model (tens of
    elements) needs most of its modes and equations, which only the numbers tell."""
    sizes = "; ".join(f"beam {k}: sparsity {reduced.sparsity[k]}, n_samples "
                      f"{reduced.n_samples[k]} of its {b.a.size} interior coordinates"
                      for k, b in enumerate(reduced.blocks))
    return f"{ADVICE} ({sizes})"


def passive(model):
    """Whether nothing feeds energy into ``model`` but through a potential: no joint drive, no
    effort, force or moment given as a function (constant loads and efforts, springs and
    dampers are passive: their work is the loop's ``work``, or a spring's energy)."""
    return (not any(j.drive is not None or callable(j.effort) for j in model.joints)
            and not any(callable(f.force) or callable(f.moment) for f in model.loads))


def efforts(model):
    """The joints with a constant non-zero effort: [(index, effort, unit)], unit 1 (rad) for a
    rotation, else None (a length: the model's size)."""
    return [(j.index, float(j.effort), 1.0 if j.type.unit == "rad" else None)
            for j in model.joints if j.effort is not None and not callable(j.effort)
            and float(j.effort) != 0.0]


def energy_scale(assembly, energy, joint_q=None):
    """E_s of the module docstring (J); ``assembly`` the model's frozen arrays, ``energy``
    (n_out, 3) its kinetic, elastic and gravity energy at the outputs
    (:meth:`rancf.model.Assembly.energies`), ``joint_q`` (n_out, n_joints) the joint
    coordinates there (rad or m; needed when a joint has a constant effort)."""
    A, model = assembly, assembly.model
    mass = sum(b.rho * b.A * b.length for b in model.beams) + \
        sum(r.mass for r in model.rigid_bodies)
    forces = sum(float(np.linalg.norm(f.force)) for f in model.loads if not callable(f.force))
    work = 0.0
    for k, tau, unit in efforts(model):
        q = np.asarray(joint_q, dtype=float)[:, k]
        work += abs(tau) * max(A.size if unit is None else unit, float(np.max(np.abs(q - q[0]))))
    return ((mass * float(np.linalg.norm(A.gravity)) + forces) * A.size + work
            + float(energy[0, 0]) + float(energy[0, 1]))


def load_potential(assembly, x):
    """``-sum F_i . r_i(x)`` (J) of the model's constant point forces at coordinates x
    (n_x,); r_i the position of load i's point (m)."""
    return -sum(float(f.force @ assembly.point_position(f.point, x))
                for f in assembly.model.loads if not callable(f.force))


def stretch(assembly, nodes):
    """The largest relative stretch of an element's chord, ``max |r_2 - r_1| / l - 1``.

    Parameters
    ----------
    assembly : rancf.model.Assembly
        The model's frozen arrays (element vertices and lengths).
    nodes : ndarray (n_out, n_vertices, node_size)
        The vertex coordinates at the outputs (a vertex's position is its first two).

    Returns
    -------
    float
        Dimensionless; -1 with no output.
    """
    if not len(nodes):
        return -1.0
    r = np.asarray(nodes, dtype=float)[:, :, :2]
    ev = np.asarray(assembly.element_vertices, dtype=np.int64)
    chord = np.linalg.norm(r[:, ev[:, 1]] - r[:, ev[:, 0]], axis=-1)
    return float(np.max(chord / assembly.element_length) - 1.0)


class StepWatch:
    """The checks of the module docstring at every step of a run (see its last paragraph).

    Parameters
    ----------
    reduced : ReducedModel
        The model that is run.
    x0, v0 : ndarray (n_x,)
        The run's initial coordinates and velocities (its energy and energy scale).

    Calling it with a step's time (s), coordinates q and velocities v (n_x,) and the step's
    residuals (m; the sampled and the full rows, for the message) raises
    :class:`~rancf.formulations.problem.StepFailure` ("diverged", with the failed check, its
    value and limit, the residuals and :func:`advice`) when a check fails.
    """

    def __init__(self, reduced, x0, v0):
        A, model = reduced.assembly, reduced.model
        self.reduced, self.assembly = reduced, A
        self.energy = (passive(model) and not model.rotational_spring_dampers
                       and all(f.moment == 0.0 for f in model.loads) and not efforts(model))
        if self.energy:
            e = self._energies(x0, v0)
            self.total0 = float(e.sum()) + load_potential(A, np.asarray(x0, dtype=float))
            self.scale = energy_scale(A, e)
            # scale 0: no gravity or force and at rest, nothing moves (module docstring)
            self.energy = self.scale > 0.0

    def _energies(self, q, v):
        shape = (1, -1, self.assembly.node_size)
        return self.assembly.energies(np.reshape(q, shape), np.reshape(v, shape))

    def __call__(self, t, q, v, sampled, full):
        failed = []
        if self.energy:
            gain = (float(self._energies(q, v).sum())
                    + load_potential(self.assembly, np.asarray(q, dtype=float)) - self.total0)
            if gain > ENERGY_GAIN * self.scale:
                failed.append(f"energy gain {gain:.4g} J > {ENERGY_GAIN:g} of the energy "
                              f"scale (m|g| + sum|F|) L + kinetic(0) + elastic(0) = "
                              f"{self.scale:.4g} J of a passive model")
        stretched = stretch(self.assembly, np.reshape(q, (1, -1, self.assembly.node_size)))
        if stretched > STRETCH:
            failed.append(f"element stretch {stretched:.4g} > {STRETCH:g} (an element's chord "
                          "against its length: the beam's length is not kept)")
        if failed:
            raise StepFailure("diverged", (
                f"at t = {t:.6g} s: {'; '.join(failed)}; the step's residual is {sampled:.3g} "
                f"m on the sampled equations and {full:.3g} m on all of them; "
                f"{advice(self.reduced)}"))


def drift_checked(reduced, solution):
    """The finished run ``solution`` with its status and message after the checks of the
    module docstring: part of the reduced model's run, so that the Result made of it
    (:func:`rancf.results.result_of`) has its final status from the start.

    Parameters
    ----------
    reduced : ReducedModel
        The model that was run.
    solution : rancf.integrators.solution.Solution
        Its run, as the implicit loop returned it (model-level arrays at the outputs).

    Returns
    -------
    Solution
        ``solution`` itself unless it is "ok" with two outputs or more, or "failed" or
        "diverged" by the loop for another reason than a function given to the model
        (:data:`~rancf.utilities.errors.USER_FUNCTION_ERRORS`; then a copy whose message adds
        that the reduction is the likelier cause, its residuals and :func:`advice`); else a
        copy (arrays shared) whose ``extra["energies"]`` holds the energies the check computed (the Result
        takes them, :func:`rancf.results.result.built`), and, when a check fails, status
        "diverged" and a message with each failed check's value and limit, the greedy steps at
        the iteration cap and what to change. Every output is kept.
    """
    s = solution
    if (s.status in ("failed", "diverged") and ADVICE not in s.message
            and not isinstance(s.error, USER_FUNCTION_ERRORS)):
        # the loop's own verdicts (a joint turned over, a non-finite residual, ...) advise on
        # the step and the model; in a reduced run the reduction is the likelier cause. A
        # function given to the model that raised (or returned no value) is the user's to fix
        # whatever the modes: its message stands alone
        return replace(s, message=(
            f"{s.message}; in a reduced run this usually means the reduced motion left the "
            f"model's (largest residual of all equations at a step "
            f"{s.stats.get('greedy_full_residual_max', float('nan')):.3g} m, of the sampled "
            f"ones {s.stats.get('greedy_residual_max', float('nan')):.3g} m): "
            f"{advice(reduced)}"))
    if s.status != "ok" or len(s.t) < 2:
        return s
    A = reduced.assembly
    n = len(s.t)
    nodes = np.asarray(s.nodes, dtype=float).reshape(n, -1, A.node_size)
    failed, extra = [], dict(s.extra)
    if passive(reduced.model):
        e = A.energies(nodes, np.asarray(s.velocities, dtype=float).reshape(nodes.shape),
                       s.joint_q)
        extra["energies"] = {"kinetic": e[:, 0], "elastic": e[:, 1], "gravity": e[:, 2]}
        total = e.sum(axis=1) - np.asarray(s.work, dtype=float) + \
            np.asarray(s.dissipated, dtype=float)
        gain = float(np.max(total - total[0]))
        scale = energy_scale(A, e, s.joint_q)
        # scale 0: no gravity and at rest, nothing moves and round-off is all a gain can be
        if scale > 0.0 and gain > ENERGY_GAIN * scale:
            failed.append(f"energy gain {gain:.4g} J > {ENERGY_GAIN:g} of the energy scale "
                          f"(m|g| + sum|F|) L + sum|tau| max(u, |dq|) + kinetic(0) + elastic(0) "
                          f"= {scale:.4g} J of a passive model")
    stretched = stretch(A, nodes)
    if stretched > STRETCH:
        failed.append(f"element stretch {stretched:.4g} > {STRETCH:g} (an element's chord "
                      "against its length: the beam's length is not kept)")
    if not failed:
        return replace(s, extra=extra)
    steps = int(sum(s.stats.get(f"greedy_{k}", 0) for k in STATUSES))
    capped = int(s.stats.get("greedy_max_iter", 0))
    message = (f"{'; '.join(failed)}; {capped} of {steps} greedy Gauss-Newton steps ended at "
               f"max_iter; {advice(reduced)}")
    return replace(s, status="diverged", message=message, extra=extra)
