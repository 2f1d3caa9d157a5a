"""Checks that a finished reduced run still follows its model (issues 24, 26: nothing silently
wrong).

With too few modes (``sparsity``) or sampled equations (``n_samples``) the sampled step
equations no longer determine the motion: greedy Gauss-Newton then solves them (often at its
iteration cap) for states the full model would never reach, and the run ends "ok" with a motion
that gains energy or stretches its beams. Two checks, chosen so that a correct run cannot fail
them and judged on the finished Result (computed from the full model's energy function at the
reconstructed states), turn such a run into ``status = "diverged"``, with a message naming the
check, its value and limit and what to change; the run keeps every output.

1. **Energy gain** (passive models only: no drive, no effort, no time-dependent force or
   moment, so that nothing feeds energy in). The balance ``total = kinetic + elastic + gravity -
   work + dissipated`` (:meth:`rancf.Result.energy`) is conserved by the exact motion, and
   backward Euler, the reduced model's scheme, only removes energy (its numerical damping). The
   gain ``max_t total(t) - total(0)`` is compared with the system's energy scale

       E_s = m |g| L + kinetic(0) + elastic(0)      (J),

   m the model's mass (kg), ``L`` its size (the largest distance between reference points,
   m): the potential energy that moving the mass across the model exchanges, plus the initial
   energy (a model at rest without gravity has none and is not checked). The limit is
   ``ENERGY_GAIN = 0.05`` of it: a reduced solution within a few percent of L of the full one
   (the method's accuracy when it works) changes the potential by about that fraction of
   ``m |g| L``, and the full model's backward Euler loses energy.
2. **Stretch**: the largest relative stretch of an element's chord, ``max |r_2 - r_1| / l - 1``
   over elements and outputs (``r_1``, ``r_2`` its end positions, ``l`` its reference length).
   The limit ``STRETCH = 1`` (an element twice its length, the beam's length not kept) is far
   beyond the small strains the Berzeri-Shabana axial law, which the reduction needs, is a model
   of; the chord is shorter than the arc, so bending alone never raises it.

The fraction of greedy Gauss-Newton steps at the iteration cap (``stats["greedy_max_iter"]``)
is reported in a flagged run's message but is no verdict: it does not tell a drifting run from
a correct one (a pendulum whose energy grows by a fifth of its scale can end no step at the
cap).
"""
from __future__ import annotations

import numpy as np

from .greedy_gauss_newton import STATUSES

#: energy gain limit, a fraction of the energy scale E_s (module docstring)
ENERGY_GAIN = 0.05
#: element stretch limit, dimensionless (module docstring)
STRETCH = 1.0

ADVICE = ("the reduced motion has left the model's: keep more modes (sparsity) or sample more "
          "equations (n_samples) in rancf.reduce, e.g. twice as many, and compare the two runs")


def passive(model):
    """Whether nothing feeds energy into ``model``: no joint drive or effort, no force or
    moment given as a function of time (constant loads, springs and dampers are passive)."""
    return (not any(j.drive is not None or j.effort is not None for j in model.joints)
            and not any(callable(f.force) or callable(f.moment) for f in model.loads))


def energy_scale(assembly, energy):
    """E_s = m |g| L + kinetic(0) + elastic(0) (J) of the module docstring; ``assembly`` the
    model's frozen arrays, ``energy`` the Result's :meth:`~rancf.Result.energy` table."""
    A, model = assembly, assembly.model
    mass = sum(b.rho * b.A * b.length for b in model.beams) + \
        sum(r.mass for r in model.rigid_bodies)
    return (mass * float(np.linalg.norm(A.gravity)) * A.size
            + float(energy.kinetic.iloc[0]) + float(energy.elastic.iloc[0]))


def stretch(assembly, nodes):
    """The largest relative stretch of an element's chord, ``max |r_2 - r_1| / l - 1``.

    Parameters
    ----------
    assembly : rancf.model.Assembly
        The model's frozen arrays (element vertices and lengths).
    nodes : ndarray (n_out, n_vertices, 4)
        The Result's vertex coordinates at the outputs (a vertex's position is its first two).

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


def drift_check(reduced, result):
    """The run's status and message after the checks of the module docstring.

    Parameters
    ----------
    reduced : ReducedModel
        The model that was run.
    result : rancf.Result
        Its finished run.

    Returns
    -------
    status, message : str
        ``result``'s own unless it is "ok" and a check fails: then "diverged" and a message
        with each failed check's value and limit, the greedy steps at the iteration cap and
        what to change.
    """
    if result.status != "ok" or len(result.t) < 2:
        return result.status, result.message
    failed = []
    if passive(reduced.model):
        e = result.energy()
        gain = float(np.max(e.total - e.total.iloc[0]))
        scale = energy_scale(reduced.assembly, e)
        # scale 0: no gravity and at rest, nothing moves and round-off is all a gain can be
        if scale > 0.0 and gain > ENERGY_GAIN * scale:
            failed.append(f"energy gain {gain:.4g} J > {ENERGY_GAIN:g} of the energy scale "
                          f"m|g|L + kinetic(0) + elastic(0) = {scale:.4g} J of a passive model")
    s = stretch(reduced.assembly, result.nodes)
    if s > STRETCH:
        failed.append(f"element stretch {s:.4g} > {STRETCH:g} (an element's chord against its "
                      "length: the beam's length is not kept)")
    if not failed:
        return result.status, result.message
    steps = int(sum(result.stats.get(f"greedy_{k}", 0) for k in STATUSES))
    capped = int(result.stats.get("greedy_max_iter", 0))
    message = (f"{'; '.join(failed)}; {capped} of {steps} greedy Gauss-Newton steps ended at "
               f"max_iter; {ADVICE}")
    return "diverged", message
