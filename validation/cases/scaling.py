"""``scaling``: CPU time per step against the number of degrees of freedom, and the operation count.

RANCF paper, fig. 12: time per step grows linearly with the DOF (5 ... 40 bodies of 5
elements, 110 ... 880 DOF, MATLAB on an i7-5500U). Here: the same chains and far longer
ones (to about 100,000 DOF) for every formulation this checkout offers; each point is the
median of repeated timings taken in this one run; linear fit with R^2 for RANCF and
log-log slopes for all. RANCF paper eq. 57: the recursion costs fewer than 1472 n multiplications
per evaluation; counted here from the kernels' loops and by running them under valgrind.

Timing method (issue 24; chosen before its first result; item 8 changed after two full runs
disagreed, said there):

1. *Points*: every (formulation, chain) the case times, planar and spatial.
2. *Plan* (discarded): per formulation in order of size, one pair of runs per chain sizes its
   steps k and pairs of runs per sample (a sample costing about ``BUDGET``, set-up included) and
   stops a formulation's longer chains (``STOP_PER_STEP``). Its timings enter no statistic: they
   are taken in order of size, formulation by formulation.
3. *Rounds*: ``ROUNDS`` rounds; each round takes one sample (:func:`sample`) of every point, in an
   order shuffled afresh each round by a generator of fixed seed (``SEED``), over every
   formulation and the spatial chain together. A burst of load on the shared machine then hits a
   random few points of one round instead of one formulation's longest chains in all of its
   repeats, and each point's samples are spread over the whole case. Rows whose timings carry no
   verdict (:func:`carries_verdict`) take part in the first ``ROUNDS_NO_VERDICT`` rounds only: that, and
   a smaller budget per sample, pays for five rounds of every point with a verdict within the
   case's time before this method (168 s).
4. *Statistic per point*: the median over its rounds (min and max shown beside it). Each check's
   value is computed from the medians as before: the flatness is the largest over the smallest
   median time per step and DOF; R^2 and log-log slopes by least squares over the medians.
5. *Noise*: leave one round out: for each round r, every point's median is retaken without its
   round-r sample and the check's value recomputed from these medians; the noise interval runs
   from the least to the largest of these values. The verdict is decided
   only where no single round decides it. (Changed before any timing with the method was run: the
   first version, a bootstrap resampling each point's samples independently, treats a burst that
   hit one round as if it could recur in three samples of five; on a synthetic flat chain whose
   one round was slowed 1.6 times at 12 of 16 points it put the flatness at 1.09 - 1.14 with
   noise intervals reaching 1.80 - 1.85, undecided in 10 runs of 10, though the medians of
   five rounds are built to absorb that burst.)
6. *Verdict*: when a limit lies within the hull of the noise interval and the value (either end
   of a ``within`` limit), the row says "undecided: noise" instead of pass or FAIL (it does not
   fail the run, and the report lists it as undecided); otherwise pass or FAIL from the value.
   The limits are the issues' (1.3, 0.98, 1.15, 1.1, 5 us, 2 - 3), unchanged.
7. *Load*: the machine's load averages (as ``uptime`` prints them) at the start and the end of
   the timings are in the case's parameters.
8. *Noise, changed* (issue 24, after two full runs 30 minutes apart gave opposite verdicts at
   1e5 DOF, which item 5's interval did not hold): the noise interval is now the least to the
   largest value over the medians in which every point, independently of the others, takes the
   median of any ``n - 2`` of its ``n`` rounds (of five: anything from its second to its fourth
   smallest sample; :func:`validation.noise.noise_interval`, since then the rule of every timed
   check of the report). Why: the longest chains' spread is between samples
   (every run allocates its arrays afresh), not between rounds or processes, so a second run's
   median falls outside the one-round-left-out range more often than not; leaving out two
   samples still absorbs a round hit by a burst of load. A load shared by the whole run is in
   no interval: the load averages of item 7 say whether the machine was quiet. (The
   measurements behind this change are in the commit that made it.)
"""
from __future__ import annotations

import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from validation.case import Case, Check, Outcome, progress
from validation.noise import noise_interval
import rancf
from validation.pendulum import ASSUMPTIONS, FORMULATIONS, REFERENCE, Variant, dof, pendulum, probe, timed

E = 21e6  # Pa
DT = 1e-3  # s
REPO = Path(__file__).resolve().parents[2]
PAPER_BODIES = tuple(range(5, 45, 5))  # 110 ... 880 DOF
QUICK_BODIES = (5, 10, 20, 40)
DOF_PER_BODY = 4 * REFERENCE["elements_per_body"] + 2
#: Longest chains per formulation (bodies); the O(n) recursion goes to ~100k DOF.
#: The dense DAE stops at 80 bodies: each of its runs factorizes its first matrix (at 320 bodies
#: 19 s of CPU, at 160 3 s), which its time per step leaves out, so its longer chains cost most
#: of this case and judge nothing; the O(n^2) - O(n^3) claim is judged on DENSE_NEWTON.
#: RK4 stops at 500 bodies, issue 12's 11,000 DOF: its longer chains judge nothing the implicit
#: ones do not (its flat check ends there; its slope passes with or without them).
EXTENDED = {"recursive": (80, 160, 320, 500, 640, 1280, 2560, 4545), "recursive, rk4": (80, 160, 320, 500),
            "dae": (80, 160, 320, 640, 1280), "dae, dense": (80,), "reduced": (), "dae, factorized": (80,)}
#: s of runs per sample of a point (quick / full). The quick run's timings carry no verdict
#: (QUICK_NOTE): half a second per point keeps its 34 points within the 3 minutes of --quick.
#: Full: 0.25 s (0.4 before issue 24's method), so that five rounds of every point with a verdict
#: fit in the case's former time (the longest chains take one pair of runs, whatever the budget).
BUDGET = {True: 0.5 / 3, False: 0.25}
#: Rounds (quick / full): each times every point once, in a shuffled order (module docstring).
#: A median of five absorbs two samples hit by a burst of load, one of three only one.
ROUNDS = {True: 3, False: 5}
#: Rows whose timings carry no verdict (growth reported, not judged) take the first three rounds.
ROUNDS_NO_VERDICT = 3
#: Seed of the rounds' shuffled orders (the issue's number).
SEED = 24
#: Steps k + 1 ... 2 k from rest are timed on every chain (fewer only where they cost more than
#: a sample's budget, in a full run): the same steps, so the same Newton iterations and
#: factorizations per step.
WINDOW = 10
MAX_PAIRS = 400
STOP_PER_STEP = 0.5  # s: larger chains are skipped once one step is predicted to cost more
#: The adaptive modal method (rancf.reduce) on the chain of Berzeri beams, per beam: 8 of a body's
#: 16 interior modal coordinates kept at each step and all 16 of its interior equations sampled
#: (two nodes; the modal case keeps 100 of 636 and samples 308). With 8 sampled equations the
#: runs drift (rancf.reduce's drift check: energy gains of 0.07 to 4.9 of the energy scale within
#: 40 steps of 5 to 40 bodies); with 12 they gain energy, which backward Euler only removes (up to
#: 750 J in 100 steps of 10 bodies); with 16 none gains any in 100 steps.
REDUCED = Variant("adaptive modal (reduced, backward Euler)", {"method": "backward-euler"},
                  implicit=True)
REDUCTION = {"sparsity": 8, "n_samples": 16}
#: Implicit RANCF with a new factorization at every Newton iteration: its steps' cost is mostly
#: the O(n) block elimination, which the default (reuse) does not repeat in the steps timed.
FULL_NEWTON = Variant("RANCF implicit (generalized-alpha, full Newton)",
                      {"formulation": "recursive", "method": "generalized-alpha", "jacobian": "every-iteration"},
                      implicit=True)
#: The conventional method the RANCF paper compares against: the DAE with Newton's matrix
#: factorized (dense LU) at every iteration. The default (reuse) keeps the matrix of the first
#: step over the steps timed, so its times leave the factorization out.
DENSE_NEWTON = Variant("DAE dense (generalized-alpha, full Newton)",
                       {"formulation": "dae", "method": "generalized-alpha", "linear_solver": "dense",
                        "jacobian": "every-iteration"}, implicit=True)
#: RANCF paper, abstract: the DAE of ANCF 'leads to an O(n2) or O(n3) algorithm complexity',
#: read as the log-log slope of the time per step of DENSE_NEWTON over its chains (110 - 1760
#: DOF), stated before the run
DAE_CLAIM = ("RANCF paper, abstract: 'the mathematic model established by ANCF is always converted "
             "to differential algebraic equation (DAE) ..., which leads to an O(n2) or O(n3) "
             "algorithm complexity'")
DAE_SLOPE = (2.0, 3.0)
#: Issue 12: the cost per DOF of a step flat within 30 % (RANCF implicit 110 - 100,000 DOF,
#: RANCF explicit 110 - 11,000 DOF).
FLAT = {"RANCF implicit (generalized-alpha)": 100_000, FULL_NEWTON.label: 100_000,
        "RANCF explicit (RK4)": 11_000}
FLAT_LIMIT = 1.3


def sample(chain, kwargs, steps: int, pairs: int, checked: bool = False) -> dict:
    """One timing of a step: ``(sum T(2 k) - sum T(k)) / (pairs k)`` from ``pairs`` runs each of
    k and 2 k steps (T: the stepping time rancf reports), so that what a run does once (the
    first factorization, the start of the loop, the result) does not count, and the steps
    timed are steps k + 1 ... 2 k from the straight chain at rest. RK4's stability check
    (dt against the chain's highest frequency, outside the loop's time) runs on the first run
    only, as it depends on the chain and dt alone; ``checked``: it passed on this chain before,
    so no run here repeats it.

    Returns the time per step (s; zero or negative when the noise of the machine exceeds the
    cost of the k steps), the wall time of one pair of runs (s, set-up included) and,
    from the runs' counters, the Newton iterations and factorizations per timed step (the
    work a step does, which depends on how far the motion has gone: from rest 2 iterations and
    no new factorization; a 5-body chain swinging after 2 s, 3.9 and about one in two).
    """
    # RK4's stability check costs more than the steps timed on a long chain (1.0 s of CPU at
    # 4545 bodies against 0.11 s for a run of 2 steps without it), so it runs once per chain
    unchecked = {**kwargs, "check_stability": False} if kwargs.get("method") == "rk4" else kwargs
    if checked:
        kwargs = unchecked
    walls, stats, start = [0.0, 0.0], [], time.perf_counter()
    for _ in range(pairs):
        stats = []
        for i, k in enumerate((steps, 2 * steps)):
            res, wall = timed(chain, k * DT, DT, output_every=k, **kwargs)
            if res.status != "ok":
                raise RuntimeError(f"{kwargs}: {res.status}: {res.message}")
            kwargs = unchecked
            walls[i] += res.wall_time or wall
            stats.append(res.stats)
    work = {key: (stats[1].get(key, 0) - stats[0].get(key, 0)) / steps for key in ("newton_iterations", "nlu")}
    # not clamped: a difference <= 0 means the timing noise exceeded the steps' cost; it is kept
    # as measured and shown as noise (the median is what the case uses)
    return {"step": (walls[1] - walls[0]) / (pairs * steps),
            "pair": (time.perf_counter() - start) / pairs, **work}


def chain_of(variant, n, built=None):
    """The chain of ``n`` bodies a variant runs, and the full model it stands for.

    ``built``: a dict of the (Shabana) chains built so far by body count, shared by the
    formulations (a model's arrays are read-only and its cached kernels stateless, and the
    time per step leaves out what a run does once): building a chain costs O(n^2) in
    ``Model.build`` (3.8 s of CPU at 4545 bodies, 1.2 s at 2560), more than its timings."""
    if variant is REDUCED:
        full = pendulum(E, elastic_model="berzeri", n_bodies=n)
        return rancf.reduce(full, **REDUCTION), full
    built = {} if built is None else built
    if n not in built:
        built[n] = pendulum(E, n_bodies=n)
    return built[n], built[n]


def family(variant):
    """The key of :data:`EXTENDED` of a variant."""
    if variant.kwargs.get("method") == "rk4":
        return "recursive, rk4"
    if variant is DENSE_NEWTON:
        return "dae, factorized"
    if variant.kwargs.get("linear_solver") == "dense":
        return "dae, dense"
    return "reduced" if variant is REDUCED else variant.kwargs["formulation"]


#: A quick run is a smoke test that runs while the machine does other work (the test suite runs
#: it): timings taken at different sizes, not pair by pair, carry a verdict in the full run only.
QUICK_NOTE = {True: "; quick run: no verdict (timings are judged in the full run)", False: ""}


@dataclass
class Point:
    """One chain of one formulation, as the rounds time it (module docstring, method).

    ``size``: bodies (planar) or elements (spatial); ``chain``: the model timed, ``full``: the
    full model it stands for (the adaptive modal method's reduced model stands for its chain);
    ``k`` and ``pairs``: :func:`sample`'s steps and pairs of runs; ``rounds``: how many rounds
    sample it; ``samples``: :func:`sample`'s results, one a round."""

    label: str
    size: int
    chain: Any
    full: Any
    kwargs: dict
    implicit: bool
    k: int
    pairs: int
    rounds: int
    samples: list = field(default_factory=list)

    def times(self) -> list[float]:
        """Time per step (s) of each round's sample."""
        return [s["step"] for s in self.samples]


def carries_verdict(label: str) -> bool:
    """Does a check of the full run judge this formulation's timings? The RANCF rows (linear fit,
    O(n), flatness), the dense DAE with full Newton (O(n^2) to O(n^3)) and the spatial chain;
    the other DAE rows and the adaptive modal method report their growth without a verdict."""
    return "RANCF" in label or label in (DENSE_NEWTON.label, SPATIAL.label)


def rounds_of(variant, quick: bool) -> int:
    """Rounds of a formulation's points: :data:`ROUNDS`, or :data:`ROUNDS_NO_VERDICT` (at most)
    for a row whose timings carry no verdict (:func:`carries_verdict`)."""
    return ROUNDS[quick] if carries_verdict(variant.label) else min(ROUNDS[quick], ROUNDS_NO_VERDICT)


def plan(variant, bodies, quick: bool, skipped: list, built: dict | None = None) -> list[Point]:
    """The points of ``variant`` for the chain lengths ``bodies`` (the method's plan: discarded
    timings). In order of size, one pair of runs per chain (:func:`sample`, after the chain is
    built) gives its pair's wall time, set-up included, at the steps chosen for it, and so the
    pairs of runs that make a sample cost about ``BUDGET``; every chain is timed over the same
    steps (``WINDOW + 1 ... 2 WINDOW`` from rest, so every size does the same work per step;
    fewer only where ``3 WINDOW`` steps cost more than the budget, from the time per step
    extrapolated from the last two chains). Chains beyond the paper's 880 DOF predicted to cost
    more than ``STOP_PER_STEP`` per step are skipped (and listed in ``skipped``).

    What runs does not depend on the machine's speed where a result is judged: a quick run
    (a smoke test whose timings carry no verdict, run by CI) times every chain over steps
    ``WINDOW + 1 ... 2 WINDOW`` and skips none; in a full run, a chain timed over fewer steps
    is first run once over the ``2 WINDOW`` steps from rest, so that a run that fails there
    (the reduced chains once drifted within 20 steps) fails on every machine, not only where
    timing chose the longer window (the shorter runs are this run's first steps)."""
    share = BUDGET[quick]
    points, estimate, previous = [], None, None
    for n in bodies:
        if not quick and estimate is not None and estimate > STOP_PER_STEP and n not in PAPER_BODIES:
            skipped.append(f"{variant.label}: {n} bodies and more (predicted {estimate:.2g} s per step)")
            break
        progress(f"plan: {variant.label}: {n} bodies")
        chain, full = chain_of(variant, n, built)
        full.build()  # once (O(n^2) in the bodies), not in a pair's wall time
        if variant.kwargs.get("method") == "rk4":
            sample(chain, variant.kwargs, 2, 1)  # RK4's stability check: once per chain, not timed
        if estimate is None:
            probe = sample(chain, variant.kwargs, WINDOW, 1, checked=True)
            estimate = planning_step(probe, WINDOW)
        k = WINDOW if quick else int(np.clip(share / (3 * estimate), 2, WINDOW))
        if k != WINDOW:  # the steps any machine may time, run once (docstring)
            sample(chain, variant.kwargs, WINDOW, 1, checked=True)
        if points or k != WINDOW:  # the first chain's first probe may be over these steps already
            probe = sample(chain, variant.kwargs, k, 1, checked=True)
        pairs = int(np.clip(share / probe["pair"], 1, MAX_PAIRS))
        points.append(Point(variant.label, n, chain, full, variant.kwargs, variant.implicit, k, pairs,
                            rounds_of(variant, quick)))
        step = planning_step(probe, k)
        estimate = predict(previous, (n, step), bodies, n)
        previous = (n, step)
    return points


def run_rounds(points: list[Point], take=None, seed: int = SEED) -> None:
    """The method's rounds: round r takes one sample of every point with more than r rounds, in an
    order shuffled afresh each round by a generator seeded with ``seed``; the samples are
    appended to each point's ``samples``. ``take(point)`` takes a sample (default: :func:`sample`
    with the point's steps and pairs; RK4's stability check ran in the plan)."""
    if take is None:
        def take(p):
            return sample(p.chain, p.kwargs, p.k, p.pairs, checked=True)
    rng = np.random.default_rng(seed)
    for r in range(max((p.rounds for p in points), default=0)):
        active = [p for p in points if p.rounds > r]
        for i, j in enumerate(rng.permutation(len(active))):
            p = active[j]
            progress(f"round {r + 1}: {p.label}, {p.size} ({i + 1} of {len(active)})")
            p.samples.append(take(p))


def timing_rows(points: list[Point]) -> list[dict]:
    """The planar timings table: a row per point, its median over the rounds."""
    rows = []
    for p in points:
        times = p.times()
        rows.append({"formulation": p.label, "bodies": len(p.full.beams), "DOF": dof(p.full),
                     "steps timed": f"{p.k + 1}-{2 * p.k}", "runs per sample": 2 * p.pairs, "rounds": len(times),
                     "median time per step (s)": float(np.median(times)), "min (s)": min(times),
                     "max (s)": max(times), "rounds <= 0 (noise)": sum(x <= 0 for x in times),
                     "Newton iterations per step": p.samples[-1]["newton_iterations"] if p.implicit else None,
                     "factorizations per step": p.samples[-1]["nlu"] if p.implicit else None})
    return rows


def flatness(per_dof) -> float:
    """Largest over smallest cost per DOF; NaN with fewer than two or a cost <= 0 (timing noise:
    not a cost, so the ratio is not measured)."""
    per_dof = np.asarray(per_dof, float)
    return float(per_dof.max() / per_dof.min()) if len(per_dof) > 1 and (per_dof > 0).all() else math.nan


def planning_step(timing, k):
    """Time per step (s) to size the next runs by: the measured one, or where noise made it zero
    or negative (:func:`sample`), the wall time of a pair of runs over its 3 k steps (set-up
    included, so an upper bound). Used for planning only; the tables keep the measured value."""
    return timing["step"] if timing["step"] > 0 else timing["pair"] / (3 * k)


def predict(previous, current, bodies, n):
    """Time per step of the chain after ``n`` in ``bodies``, extrapolated with the log-log slope
    of the last two points (clipped to 1 ... 3, dense LU being cubic); None after the last."""
    if n == bodies[-1]:
        return None
    slope = 1.0
    if previous is not None:
        slope = np.clip(np.log(current[1] / previous[1]) / np.log(current[0] / previous[0]), 1.0, 3.0)
    following = bodies[bodies.index(n) + 1]
    return current[1] * (following / n) ** slope


def work(group) -> str:
    """The Newton iterations and factorizations per timed step of a formulation's chains (the
    same at every size when the steps timed are the same), for a check's detail."""
    if group["Newton iterations per step"].isna().all():
        return ""
    span = lambda col: f"{group[col].min():.3g} - {group[col].max():.3g}"
    return (f"; per timed step {span('Newton iterations per step')} Newton iterations and "
            f"{span('factorizations per step')} factorizations")


def linear_fit(dof, t):
    """Least-squares ``t = a n + b`` and its coefficient of determination R^2."""
    a, b = np.polyfit(dof, t, 1)
    residual = t - (a * dof + b)
    return a, b, 1.0 - residual @ residual / np.sum((t - t.mean()) ** 2)


def loglog_slope(dof, t):
    """Least-squares slope of log t against log DOF over the positive medians (a median <= 0 is
    timing noise, see :func:`sample`, and has no logarithm); NaN with fewer than two."""
    dof, t = np.asarray(dof, float), np.asarray(t, float)
    keep = t > 0
    if keep.sum() < 2:
        return float("nan")
    return float(np.polyfit(np.log(dof[keep]), np.log(t[keep]), 1)[0])


def _log_floor(timings):
    """Lower edge (ms) of a log time axis: 0.3 x the smallest positive median or minimum."""
    values = timings[["median time per step (s)", "min (s)"]].to_numpy().ravel()
    return 0.3e3 * values[values > 0].min()


def _spread(ax, group, color, floor=None):
    """Medians of ``group`` (a formulation's rows of the timings table) in ms with the min-max
    range of the rounds as bars. On a log axis (``floor``: its lower edge, ms) a range or median
    that reaches zero or below is timing noise: its bar runs dotted to the edge, where a
    triangle (a round <= 0) or a cross (the median <= 0) marks it."""
    dof = group["DOF"].to_numpy(float)
    t, lo, hi = (group[c].to_numpy() * 1e3 for c in ("median time per step (s)", "min (s)", "max (s)"))
    if floor is None:
        ax.vlines(dof, lo, hi, color=color, lw=1)
        return
    positive = lo > 0
    ax.vlines(dof[positive], lo[positive], hi[positive], color=color, lw=1)
    ax.vlines(dof[~positive], floor, np.maximum(hi[~positive], floor), color=color, lw=1, ls=":")
    # drawn over the axis edge (clip_on=False), only where there is something to mark: an empty
    # unclipped line would stretch the figure's tight bounding box to the origin
    for mask, marker, size in ((~positive, "v", 7), (t <= 0, "x", 9)):
        if mask.any():
            ax.plot(dof[mask], np.full(mask.sum(), floor), marker, color=color, ms=size, mew=2,
                    clip_on=False)


# ----------------------------------------------------------------------------- operation count
#: RANCF paper eq. 57: fewer than 92 x 64 multiplications per element and evaluation, i.e. 1472 n.
PAPER_PER_ELEMENT = 92 * 64
PAPER_PER_DOF = 1472
#: The paper's bound for the matrix processing alone (section 1.4: "< 10 x 8^3 Nbar").
PAPER_FACTOR_PER_ELEMENT = 10 * 8**3
INSTRUMENTED = {"rhs": "*_recursive_rhs", "factorize": "*_recursive_factorize"}
#: The compiled functions whose products are the factorization's (``factorize`` and the
#: elimination it calls); every other function run inside the collected calls is the evaluation's.
FACTORIZATION_FUNCTIONS = ("_recursive_factorize", "_recursive_eliminate")


def derived_multiplications(n_bodies: int, elements_per_body: int) -> dict:
    """Multiplications and divisions of one evaluation of the recursion, counted from the loops.

    For the reference chain (beams on revolute joints, Shabana model without damping, gravity,
    no loads, efforts or drives), as the kernels of ``rancf/formulations/_recursive.pyx``
    (``rhs``: ``kinematics``, then ``solve``; the factorization is constant and runs once),
    ``_forces.pyx`` (``applied_forces``, ``element_forces``) and ``rancf/elements/_beam.pyx``
    (``_shabana`` with ``K = NULL``) are written at the commit of this file. Per pass:

    * ``kinematics``: a first vertex ``_first_vertex`` (AT_POINT, TURN_FREE): ``rho``, ``ph``,
      ``om_p``, ``sig`` 10, ``nrow`` 2 (not at the root), ``V = bh qd + chi V_p + eps eta`` 4
      (1 + 16/4 + 2) = 28 (12 at the root); free nodes are copied.
    * gravity: one product per coordinate, ``4 n_v``.
    * element forces, per element: ``1/l`` 1, the chord 2, its unit vectors 2, ``gv``, ``hv`` 8;
      per Gauss point (3): shape-function derivatives 8, ``w`` 1, ``r'``, ``r''`` 16, and per strain
      (2) ``t.r``, ``n.r`` 4, ``S^T`` 8, the chord terms 4, the accumulation ``_strain`` 14
      (``w k`` 1, ``w sigma`` 2, energy 3, force 8): 85; 13 + 3 x 85 = 268 (the energy's 18
      included).
    * ``solve``: a free node 16 (leaves to root) + 32 (root to leaves); a first vertex 32 + 44
      (the root 0 + 28).

    The factorization (``factorize``, leaves to root; at every evaluation only when a joint makes
    the blocks state dependent): a free node at most 132 (``_inv4``, Gauss-Jordan, fewer when
    entries vanish) + 192; a first vertex 134 + 192 (the root 134).

    Returns a dict of counts per evaluation: ``kinematics``, ``gravity``, ``element forces``,
    ``sweeps``, ``evaluation`` (their sum) and ``factorization``.
    """
    N, m = n_bodies, elements_per_body
    elements, nodes = N * m, N * (m + 1)
    counts = {"kinematics": 22 + 40 * (N - 1), "gravity": 4 * nodes,
              "element forces": 268 * elements, "sweeps": 48 * elements + 28 + 76 * (N - 1)}
    counts["evaluation"] = sum(counts.values())
    counts["factorization"] = 328 * elements + 134 + 326 * (N - 1)
    return counts


def _mnemonic_products(mnemonic: str, operands: str) -> tuple[int, int]:
    """(multiplications, divisions) of one x86 floating-point instruction (per lane; FMA = 1)."""
    if not mnemonic.endswith(("sd", "ss", "pd", "ps")) or not any(
            k in mnemonic for k in ("mul", "div", "fmadd", "fmsub", "fnmadd", "fnmsub")):
        return 0, 0
    lanes = 1
    if mnemonic.endswith(("pd", "ps")):
        lanes = (4 if "ymm" in operands else 2) * (2 if mnemonic.endswith("ps") else 1)
    return (0, lanes) if "div" in mnemonic else (lanes, 0)


def _callgrind_costs(path: Path) -> dict:
    """Self cost (instructions executed) per (object file, address) of a callgrind output written
    with ``--dump-instr=yes`` (costs after a ``calls=`` line are a callee's and are skipped)."""
    costs, files, current, last, skip = {}, {}, None, 0, False
    for line in path.read_text().splitlines():
        head = line.split("=", 1)[0]
        if head in ("ob", "cob"):
            number, _, name = line.split("=", 1)[1].partition(" ")
            if name:
                files[number] = name
            if head == "ob":
                current = number
            continue
        if not line or not (line[0] in "+-*" or line.startswith("0x")):
            skip = skip or head in ("calls", "jump", "jcnd")
            continue
        fields = line.split()
        token = fields[0]
        last = int(token, 16) if token.startswith("0x") else last if token == "*" else last + int(token)
        if skip:
            skip = False
            continue
        if len(fields) > 2:
            key = (files.get(current), last)
            costs[key] = costs.get(key, 0) + int(fields[2])
    return costs


def _disassembly(library: str) -> tuple[dict, dict]:
    """``(instructions, starts)`` of a shared library from objdump: address -> (function,
    mnemonic, operands), and function -> its first address."""
    text = subprocess.run(["objdump", "-d", "--no-show-raw-insn", library], capture_output=True,
                          text=True, check=True).stdout
    table, starts, function = {}, {}, ""
    for line in text.splitlines():
        label = re.match(r"([0-9a-f]+) <(.+)>:$", line)
        if label:
            function = label.group(2)
            starts[function] = int(label.group(1), 16)
            continue
        insn = re.match(r"\s*([0-9a-f]+):\s+(\S+)\s*(.*)", line)
        if insn:
            table[int(insn.group(1), 16)] = (function, insn.group(2), insn.group(3))
    return table, starts


INSTRUMENT_SCRIPT = """
import sys
import numpy as np
import rancf
from rancf.formulations import recursive
from validation.pendulum import pendulum
bodies, calls, factorizations = (int(a) for a in sys.argv[1:4])
chain = pendulum(21e6, n_bodies=bodies)
x, v = np.load(sys.argv[4])  # the state instrumented_multiplications saved
formulation = recursive.of(chain.build())
y = formulation.initial_state(x, v)
ydot = np.zeros_like(y)
for _ in range(factorizations):
    formulation.kernel.factorize()
for _ in range(calls):
    formulation.kernel.rhs(0.0, y, ydot)
"""


def instrumented_multiplications(bodies=(5,), calls: int = 50, factorizations: int = 10):
    """Multiplications and divisions executed per evaluation and per factorization, counted by
    running the compiled kernels under valgrind (callgrind: every instruction's execution count,
    collected only inside ``rhs`` and ``factorize``) and reading each executed instruction's
    mnemonic from objdump (packed instructions count one per lane, an FMA one). The number of
    calls is the execution count of each function's first instruction.

    The kernels run at a bent, moving state of each chain, from the DAE (which calls none of the
    kernels counted), computed here, outside valgrind, and handed to it in a file; the chains
    of ``bodies`` run under valgrind at once (the counts are exact, whatever the load).

    Returns, per chain of ``bodies``, ``{"evaluation": (mul, div), "factorization": (mul,
    div)}`` per call, or None when valgrind or objdump is not installed.
    """
    if shutil.which("valgrind") is None or shutil.which("objdump") is None:
        return None
    with tempfile.TemporaryDirectory() as tmp:
        runs = []
        for n_bodies in bodies:
            state = rancf.simulate(pendulum(E, n_bodies=n_bodies), 0.05, 1e-3, output_every=50,
                                   formulation="dae", method="generalized-alpha").state(-1)
            np.save(Path(tmp) / f"state{n_bodies}.npy", np.array([state.x, state.v]))
            out = Path(tmp) / f"callgrind{n_bodies}.out"
            toggles = [f"--toggle-collect={pattern}" for pattern in INSTRUMENTED.values()]
            runs.append((out, subprocess.Popen(
                ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", "--collect-atstart=no",
                 "--dump-instr=yes", *toggles, sys.executable, "-c", INSTRUMENT_SCRIPT, str(n_bodies),
                 str(calls), str(factorizations), str(Path(tmp) / f"state{n_bodies}.npy")],
                cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)))
        try:
            costs = []
            for out, process in runs:
                _, err = process.communicate()
                if process.returncode:
                    raise subprocess.CalledProcessError(process.returncode, process.args, stderr=err)
                costs.append(_callgrind_costs(out))
        finally:
            for _, process in runs:
                if process.poll() is None:
                    process.kill()
                    process.wait()
    return [_products(c) for c in costs]


def _products(costs: dict) -> dict:
    """Multiplications and divisions per call of ``rhs`` and ``factorize`` from callgrind's
    costs (:func:`_callgrind_costs`), see :func:`instrumented_multiplications`."""
    products = {"evaluation": np.zeros(2), "factorization": np.zeros(2)}
    entries = {"evaluation": 0, "factorization": 0}
    tables = {}
    for (library, address), executed in costs.items():
        if library is None or library == "???":
            continue
        if library not in tables:
            tables[library] = _disassembly(library)
        instructions, starts = tables[library]
        function, mnemonic, operands = instructions.get(address, ("", "", ""))
        # factorize sums the element blocks and calls eliminate, the elimination; neither
        # calls anything else that multiplies (the 4 x 4 inverse is inlined; memset does not)
        which = "factorization" if function.endswith(FACTORIZATION_FUNCTIONS) else "evaluation"
        products[which] += executed * np.array(_mnemonic_products(mnemonic, operands))
        if function.endswith(("_recursive_factorize", "_recursive_rhs")) and address == starts[function]:
            entries[which] += executed
    return {k: tuple(products[k] / max(entries[k], 1)) for k in products}


def instruction_counts(quick: bool) -> dict:
    """The case's part that measures no time (``Case.prepare``: the runner runs it beside the
    untimed cases): :func:`instrumented_multiplications` for 5 bodies (and 10 in the full run),
    exact whatever the load. Returns ``{"bodies": ..., "counted": ...}``."""
    bodies = (5,) if quick else (5, 10)
    progress("operation count under valgrind, " + " and ".join(map(str, bodies)) + " bodies")
    return {"bodies": bodies, "counted": instrumented_multiplications(bodies)}


def operation_count(counts: dict):
    """The recursion's multiplications per evaluation: derived from the loops and instrumented
    (``counts``: :func:`instruction_counts`), against eq. 57. Returns (table, checks)."""
    m = REFERENCE["elements_per_body"]
    rows = []
    bodies, counted = counts["bodies"], counts["counted"]
    for i, n_bodies in enumerate(bodies):
        derived = derived_multiplications(n_bodies, m)
        measured = None if counted is None else counted[i]
        n = n_bodies * DOF_PER_BODY
        row = {"bodies": n_bodies, "elements": n_bodies * m, "DOF n": n,
               **{f"derived: {k}": v for k, v in derived.items()},
               "eq. 57 bound 1472 n": PAPER_PER_DOF * n,
               "eq. 57 bound 92 x 64 Nbar": PAPER_PER_ELEMENT * n_bodies * m}
        if measured is not None:
            row.update({"instrumented evaluation: multiplications": measured["evaluation"][0],
                        "instrumented evaluation: divisions": measured["evaluation"][1],
                        "instrumented factorization: multiplications": measured["factorization"][0],
                        "instrumented factorization: divisions": measured["factorization"][1]})
        rows.append(row)
    table = pd.DataFrame(rows)
    first = table.iloc[0]
    n, elements = first["DOF n"], first["elements"]
    claim = ("RANCF paper eq. 57: 'f(n) < (92 x 64) Nbar < 1472 n ~ O(n)' multiplications per evaluation "
             "(section 1.4; Nbar elements, n DOF)")
    checks = [Check("eq. 57, counted from the kernels' loops", claim,
                    value=first["derived: evaluation"] / n, limit=PAPER_PER_DOF,
                    unit="multiplications (and divisions) per DOF and evaluation", source="paper",
                    detail=f"{first['derived: evaluation']:.0f} for the 5 x 5 pendulum (n = {n}), "
                           "constant factorization not included")]
    instrumented = "instrumented evaluation: multiplications" in table
    if instrumented:
        executed = first["instrumented evaluation: multiplications"] + first["instrumented evaluation: divisions"]
        factor = (first["instrumented factorization: multiplications"]
                  + first["instrumented factorization: divisions"])
        checks += [
            Check("eq. 57, instrumented", claim, value=executed / n, limit=PAPER_PER_DOF,
                  unit="multiplications (and divisions) per DOF and evaluation", source="paper",
                  detail=f"{executed:.0f} executed per evaluation (valgrind callgrind, mulsd/mulpd/divsd/"
                         "divpd per lane)"),
            Check("matrix processing, instrumented", "RANCF paper section 1.4: 'matrix processing "
                  "< 10 x 8^3 Nbar' multiplications", value=factor / elements,
                  limit=PAPER_FACTOR_PER_ELEMENT, unit="multiplications (and divisions) per element",
                  source="paper", detail=f"{factor:.0f} per factorization of the 5 x 5 pendulum; with "
                                         "revolute joints it runs once per run, not per evaluation"),
            Check("derived count describes the compiled code",
                  "instrumented / derived multiplications per evaluation", value=executed / first["derived: evaluation"],
                  limit=(0.85, 1.05), comparison="within", unit="",
                  source="rancf target: the compiler may fold a few common subexpressions (fewer "
                         "executed), never add products; 15 % covers the folding of 1/l^2 and the "
                         "shared chord quotients"),
        ]
        if len(table) > 1:
            per_dof = (table["instrumented evaluation: multiplications"]
                       + table["instrumented evaluation: divisions"]) / table["DOF n"]
            checks.append(Check("count linear in n", "multiplications per DOF, 10 bodies over 5 bodies",
                                value=per_dof.iloc[1] / per_dof.iloc[0], limit=(0.98, 1.02),
                                comparison="within", unit="",
                                source="rancf target: every pass is a sum over elements and joints "
                                       "(the root joint differs, 2 % of 5 bodies)"))
    else:
        checks.append(Check("eq. 57, instrumented", claim, value=None, unit="per DOF and evaluation",
                            source="paper", detail="not measured: valgrind or objdump not installed"))
    return table, checks


# ----------------------------------------------------------------------------- spatial beams
#: Issue 22's spatial chain: one steel beam of 1 m elements (the reference pendulum's 0.03 m square
#: section, E = 210 GPa, G = E / 2.6, rho = 7800 kg/m^3) on a spherical joint at the origin, along +x,
#: released from rest under gravity along -z: the spatial counterpart of the reference chain pinned
#: at its end; 6 coordinates per element, 3 for the joint. Steel, not 21 MPa: a 21 MPa beam of 1 m
#: elements of this section cannot hold itself beyond a few hundred elements (its first element
#: turns by half a turn within 20 ms at 1,000 elements, and Newton fails at 10,000).
SPATIAL_E = 210e9  # Pa
SPATIAL_ELEMENTS = {True: (10, 100, 1000), False: (10, 30, 100, 300, 1000, 10_000)}
SPATIAL = Variant("spatial beam implicit (generalized-alpha)", {"method": "generalized-alpha"},
                  implicit=True)
#: The same section refined instead of lengthened: one beam of REFINED_LENGTH m in as many
#: elements as the chain's, so that the load on every cross-section is the same at every size
#: (the chain's root carries a beam as long as its element count). Timed beside the chain,
#: without a verdict: which of the two issue 22's flatness is about is the issue's to say.
REFINED_LENGTH = 10.0  # m
REFINED = Variant(f"spatial beam of {REFINED_LENGTH:g} m refined (generalized-alpha)",
                  {"method": "generalized-alpha"}, implicit=True)
#: Issue 22: the implicit step's cost per DOF flat within 30 % from 60 to 60,000 DOF with a log-log
#: slope of at most 1.1, and at most 5 us per element and step at 1,000 elements (6,000 DOF).
SPATIAL_SLOPE = 1.1
SPATIAL_PER_ELEMENT = 5e-6  # s per element and step
SPATIAL_AT = 1000  # elements


def spatial_chain(n_elements, length=None):
    """The spatial chain of ``n_elements`` (:data:`SPATIAL_ELEMENTS`), a ``rancf.Model(dim=3)``:
    1 m elements, or ``length`` m (float) in ``n_elements`` (:data:`REFINED`)."""
    side = REFERENCE["side"]
    inertia = side**4 / 12.0
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -9.81))
    length = float(n_elements) if length is None else length
    beam = m.add_beam(length, n_elements, E=SPATIAL_E, rho=REFERENCE["rho"], A=side**2,
                      I=(inertia, inertia), J=0.141 * side**4, G=SPATIAL_E / 2.6,
                      direction=(1.0, 0.0, 0.0), up=(0.0, 1.0, 0.0))
    m.add_joint("spherical", m.ground.point(0.0, 0.0, 0.0), beam.start)
    return m


def plan_spatial(quick: bool) -> list[Point]:
    """The points of :func:`spatial_chain` (:data:`SPATIAL`, then :data:`REFINED`) for the sizes
    of :data:`SPATIAL_ELEMENTS`, planned as :func:`plan` plans the planar chains: one pair of
    runs over steps ``WINDOW + 1 ... 2 WINDOW`` (on every size, so every size does the same
    steps) gives the pairs of runs per sample."""
    points = []
    for variant, length in ((SPATIAL, None), (REFINED, REFINED_LENGTH)):
        for n in SPATIAL_ELEMENTS[quick]:
            progress(f"plan: {variant.label}: {n} elements")
            chain = spatial_chain(n, length)
            chain.build()
            probe = sample(chain, variant.kwargs, WINDOW, 1)
            points.append(Point(variant.label, n, chain, chain, variant.kwargs, True, WINDOW,
                                int(np.clip(BUDGET[quick] / probe["pair"], 1, MAX_PAIRS)),
                                rounds_of(variant, quick)))
    return points


def spatial_rows(points: list[Point]) -> list[dict]:
    """The spatial timings table: a row per size, its median over the rounds."""
    rows = []
    for p in points:
        times = p.times()
        median = float(np.median(times))
        rows.append({"formulation": p.label, "elements": p.size, "DOF": 6 * p.size + 3,
                     "steps timed": f"{p.k + 1}-{2 * p.k}", "runs per sample": 2 * p.pairs,
                     "rounds": len(times), "median time per step (s)": median, "min (s)": min(times),
                     "max (s)": max(times), "rounds <= 0 (noise)": sum(x <= 0 for x in times),
                     "us per element and step": 1e6 * median / p.size,
                     "Newton iterations per step": p.samples[-1]["newton_iterations"],
                     "factorizations per step": p.samples[-1]["nlu"]})
    return rows


def spatial_checks(timings, points: list[Point], quick: bool) -> list[Check]:
    """Issue 22's three lines on the spatial timings (:func:`spatial_rows` of ``points``), each
    with its noise interval (:func:`noise_interval`)."""
    dof = timings["DOF"].to_numpy(float)
    t = timings["median time per step (s)"].to_numpy()
    per_dof = t / dof
    samples = [p.times() for p in points]
    span = f"{int(dof.min()):,} - {int(dof.max()):,} DOF ({timings['elements'].min()} - " \
           f"{timings['elements'].max():,} elements)"
    source = "measured" if quick else "rancf target: issue 22"
    at = timings[timings["elements"] == SPATIAL_AT]
    i_at = np.flatnonzero(timings["elements"].to_numpy() == SPATIAL_AT)
    return [
        Check(f"{SPATIAL.label}: cost per DOF flat, {span}",
              "issue 22: the implicit step's cost per DOF is flat within 30 % from 60 to 60,000 DOF",
              # a median <= 0 is noise, not a cost: the ratio is then not measured (NaN fails)
              value=flatness(per_dof), noise=noise_interval(samples, lambda m: flatness(m / dof)),
              limit=None if quick else FLAT_LIMIT, unit="largest / smallest time per step and DOF",
              source=source,
              detail="ns per DOF and step: " + ", ".join(
                  f"{1e9 * c:.0f} ({int(n)})" for c, n in zip(per_dof, dof)) + work(timings)
                     + QUICK_NOTE[quick]),
        Check(f"{SPATIAL.label}: O(n)", "issue 22: log-log slope of the implicit step's time "
              f"against the DOF at most {SPATIAL_SLOPE}", value=loglog_slope(dof, t),
              noise=noise_interval(samples, lambda m: loglog_slope(dof, m)),
              limit=None if quick else SPATIAL_SLOPE, unit="log-log slope", source=source,
              detail=f"over {span}" + QUICK_NOTE[quick]),
        Check(f"{SPATIAL.label}: step at {SPATIAL_AT:,} elements",
              f"issue 22: an implicit step of a {SPATIAL_AT:,}-element chain ({6 * SPATIAL_AT:,} DOF) "
              f"takes at most {SPATIAL_PER_ELEMENT * 1e6:g} us per element (Exudyn's sparse solver "
              "30-40 us on its 3D cable, measured when the issue was set; the peers3d case "
              "measures it again in every report)",
              value=float(at["us per element and step"].iloc[0]) if len(at) else None,
              noise=noise_interval([samples[i_at[0]]], lambda m: 1e6 * m[0] / SPATIAL_AT) if len(at) else None,
              limit=None if quick else SPATIAL_PER_ELEMENT * 1e6, unit="us per element and step",
              source=source,
              detail=(f"median of {int(at['rounds'].iloc[0])} rounds, min "
                      f"{1e6 * at['min (s)'].iloc[0] / SPATIAL_AT:.2f}, max "
                      f"{1e6 * at['max (s)'].iloc[0] / SPATIAL_AT:.2f} us" if len(at) else
                      "not measured") + work(at) + QUICK_NOTE[quick]),
    ]


def refined_checks(timings, points: list[Point]) -> list[Check]:
    """The refined beam's (:data:`REFINED`) flatness and slope, as :func:`spatial_checks` takes
    the chain's, with their noise intervals and without a verdict (the variant's comment)."""
    dof = timings["DOF"].to_numpy(float)
    t = timings["median time per step (s)"].to_numpy()
    samples = [p.times() for p in points]
    source = ("measured: issue 22's lines on a beam refined instead of lengthened, no verdict "
              "(which of the two the issue's flatness is about is its author's to say)")
    return [
        Check(f"{REFINED.label}: cost per DOF flat", "issue 22's flatness line, on the refined "
              "beam", value=flatness(t / dof), noise=noise_interval(samples, lambda m: flatness(m / dof)),
              limit=None, unit="largest / smallest time per step and DOF", source=source,
              detail="ns per DOF and step: " + ", ".join(
                  f"{1e9 * c:.0f} ({int(n)})" for c, n in zip(t / dof, dof)) + work(timings)),
        Check(f"{REFINED.label}: O(n)", "issue 22's log-log slope line, on the refined beam",
              value=loglog_slope(dof, t), noise=noise_interval(samples, lambda m: loglog_slope(dof, m)),
              limit=None, unit="log-log slope", source=source),
    ]


def spatial_figure(timings):
    """The spatial timings (:data:`SPATIAL`, :data:`REFINED`): time per step against DOF
    (log-log, with slope 1) and the time per element and step against the elements, with issue
    22's lines on the chain (30 % above its smallest, 5 us at 1,000 elements). Medians, bars
    min-max of the rounds."""
    fig, (ax, ax_per) = plt.subplots(1, 2, figsize=(13, 4.8))
    floor = _log_floor(timings)
    for i, (label, group) in enumerate(timings.groupby("formulation", sort=False)):
        color = f"C{i}"
        dof = group["DOF"].to_numpy(float)
        n = group["elements"].to_numpy(float)
        t = group["median time per step (s)"].to_numpy()
        ax.plot(dof[t > 0], t[t > 0] * 1e3, "o-", color=color, ms=4,
                label=f"{label} (slope {loglog_slope(dof, t):.2f})")
        _spread(ax, group, color, floor)
        per = group["us per element and step"].to_numpy()
        ax_per.plot(n, per, "o-", color=color, ms=4, label=label)
        ax_per.vlines(n, group["min (s)"].to_numpy() * 1e6 / n,
                      group["max (s)"].to_numpy() * 1e6 / n, color=color, lw=1)
        if label == SPATIAL.label and (per > 0).any():
            ax_per.axhline(FLAT_LIMIT * per[per > 0].min(), color="grey", ls="--", lw=1,
                           label="30 % above the chain's smallest median")
    t = timings["median time per step (s)"].to_numpy()
    dof = timings["DOF"].to_numpy(float)
    if (t > 0).any():
        ref = np.array([dof.min(), dof.max()])
        ax.plot(ref, t[t > 0].min() * 1e3 * ref / dof.min(), "k:", label="slope 1")
    ax.set(xscale="log", yscale="log", xlabel="degrees of freedom", ylabel="CPU time per step (ms)",
           title="Spatial beam: time per implicit step (medians, bars min-max)")
    ax.set_ylim(bottom=floor)
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3, which="both")
    ax_per.plot([SPATIAL_AT], [SPATIAL_PER_ELEMENT * 1e6], "r_", ms=20, mew=2,
                label=f"issue 22: {SPATIAL_PER_ELEMENT * 1e6:g} us at {SPATIAL_AT:,} elements")
    ax_per.set(xscale="log", xlabel="beam elements (6 DOF each)", ylabel="us per element and step",
               title="Cost per element of an implicit step")
    ax_per.set_ylim(bottom=0.0)
    ax_per.legend(fontsize=8)
    ax_per.grid(alpha=0.3, which="both")
    fig.tight_layout()
    return fig


def timing_figures(timings):
    """Fig. 12 of the RANCF paper from the timings table: (paper's range, whole range).

    The paper's range in two panels: the RANCF curves on linear axes (its claim is a straight
    line) and every formulation on a log time axis (the adaptive modal points lie two decades
    above); the whole range on log-log axes. Medians with the rounds' min-max as bars; rounds
    whose difference is zero or negative are timing noise, marked (:func:`_spread`), never clamped.
    """
    fig_lin, (ax, ax_all) = plt.subplots(1, 2, figsize=(13, 5))
    fig_log, ax2 = plt.subplots(figsize=(7.5, 4.8))
    floor = _log_floor(timings)
    floor_paper = _log_floor(timings[timings["DOF"] <= PAPER_BODIES[-1] * DOF_PER_BODY])
    for i, (label, group) in enumerate(timings.groupby("formulation", sort=False)):
        dof = group["DOF"].to_numpy(float)
        t = group["median time per step (s)"].to_numpy()
        paper = dof <= PAPER_BODIES[-1] * DOF_PER_BODY
        color = f"C{i}"
        ax_all.plot(dof[paper & (t > 0)], t[paper & (t > 0)] * 1e3, "o-", color=color, ms=4, label=label)
        _spread(ax_all, group[paper], color, floor_paper)
        if "RANCF" in label:
            a, b, r2 = linear_fit(dof[paper], t[paper])
            ax.plot(dof[paper], t[paper] * 1e3, "o", color=color, ms=4, label=label)
            _spread(ax, group[paper], color)
            ax.plot(dof[paper], (a * dof[paper] + b) * 1e3, "-", color=color, lw=1,
                    label=f"linear fit, R^2 = {r2:.4f}")
        ax2.plot(dof[t > 0], t[t > 0] * 1e3, "o-", color=color, ms=4,
                 label=f"{label} (slope {loglog_slope(dof, t):.2f})")
        _spread(ax2, group, color, floor)
    ax.set(xlabel="degrees of freedom", ylabel="CPU time per step (ms)",
           title="RANCF, paper's range (fig. 12): medians, bars min-max")
    ax.set_ylim(bottom=min(0.0, ax.get_ylim()[0]))
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    ax_all.set(xlabel="degrees of freedom", ylabel="CPU time per step (ms)", yscale="log",
               title="Every formulation, paper's range (log time axis)")
    ax_all.set_ylim(bottom=floor_paper)
    for axis in (ax_all, ax2):
        axis.plot([], [], "kv", label="a round <= 0 (timing noise, not clamped)")
        axis.plot([], [], "kx", mew=2, label="the median <= 0 (not on the curve)")
    ax_all.legend(fontsize=7)
    ax_all.grid(alpha=0.3, which="both")
    lo, hi = timings["DOF"].min(), timings["DOF"].max()
    ref = np.array([lo, hi], float)
    t0 = timings["median time per step (s)"][timings["median time per step (s)"] > 0].min() * 1e3
    ax2.loglog(ref, t0 * ref / lo, "k:", label="slope 1")
    ax2.set(xscale="log", yscale="log", xlabel="degrees of freedom", ylabel="CPU time per step (ms)",
            title="Time per step vs DOF (medians, bars: min-max of the rounds)")
    ax2.set_ylim(bottom=floor)
    ax2.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0))  # beside: the curves fill the axes
    ax2.grid(alpha=0.3, which="both")
    fig_lin.tight_layout()
    return fig_lin, fig_log


def run(quick: bool, counts: dict | None = None) -> Outcome:
    """The case; ``counts``: :func:`instruction_counts`'s result when the runner ran it beforehand."""
    ops, checks = operation_count(instruction_counts(quick) if counts is None else counts)
    variants = probe(FORMULATIONS)
    variants.insert(2, FULL_NEWTON)
    variants.insert(4, DENSE_NEWTON)
    variants.append(REDUCED)
    load = {"start": os.getloadavg()}
    planar, skipped, built = [], [], {}
    for v in variants:
        if not v.available:
            continue
        if quick:
            bodies = QUICK_BODIES + ((160,) if family(v).startswith("recursive") else ())
        else:
            bodies = PAPER_BODIES + EXTENDED[family(v)]
        planar += plan(v, bodies, quick, skipped, built)
    spatial_points = plan_spatial(quick)
    run_rounds(planar + spatial_points)
    load["end"] = os.getloadavg()
    timings = pd.DataFrame(timing_rows(planar))
    samples = {label: [p.times() for p in planar if p.label == label] for label in timings["formulation"].unique()}

    fits = []
    linear_source = ("rancf target: the paper gives no measure of fit; a linear law t = a n + b must "
                     "explain 98 % of the variance of the medians (timing noise was a few % on the "
                     "AMD EPYC VM where this limit was set, commit 5eac9ea; this run's noise is the "
                     "row's interval)")
    for label, group in timings.groupby("formulation", sort=False):
        dof = group["DOF"].to_numpy(float)
        t = group["median time per step (s)"].to_numpy()
        paper = dof <= PAPER_BODIES[-1] * DOF_PER_BODY
        row = {"formulation": label, "DOF range": f"{int(dof.min())} - {int(dof.max())}",
               "log-log slope (all)": loglog_slope(dof, t),
               "log-log slope (110-880 DOF)": loglog_slope(dof[paper], t[paper])}
        noisy = lambda statistic: noise_interval(samples[label], statistic)  # noqa: E731
        slope_noise = noisy(lambda m: loglog_slope(dof, m))
        if "RANCF" in label:
            a, b, r2 = linear_fit(dof[paper], t[paper])
            a_all, b_all, r2_all = linear_fit(dof, t)
            row.update({"slope a (s/DOF, 110-880)": a, "intercept b (s, 110-880)": b, "R^2 (110-880)": r2,
                        "slope a (s/DOF, all)": a_all, "R^2 (all)": r2_all})
            # the paper integrates its ODE explicitly (MATLAB); the implicit recursion is ours
            ours = "explicit" not in label
            checks.append(Check(
                f"{label}: linear in DOF, 110-880",
                ("claim of this project (the implicit recursion is not in the paper): " if ours else "")
                + "RANCF paper fig. 12: 'the DOF-CPU time curve of RANCF fits a linear relation' "
                "(110, 220, ..., 880 DOF)", value=r2, noise=noisy(lambda m: linear_fit(dof[paper], m[paper])[2]),
                limit=None if quick else 0.98, comparison=">=",
                unit="R^2", source="measured" if quick else
                linear_source if ours else "paper: fig. 12 'linear'; " + linear_source,
                detail=f"{a * 1e6:.3g} us per DOF + {b * 1e6:.3g} us" + QUICK_NOTE[quick]))
            checks.append(Check(f"{label}: O(n) far beyond the paper", "time per step grows no faster "
                                f"than the DOF up to about {FLAT[label]:,} DOF", value=row["log-log slope (all)"],
                                noise=slope_noise, limit=None if quick else 1.15, unit="log-log slope",
                                source="measured" if quick else
                                       "rancf target: O(n); 0.15 allows for cache effects at 1e5 DOF "
                                       "(below 1 where a fixed per-step cost dominates)",
                                detail=f"over {row['DOF range']} DOF; R^2 of the linear fit {r2_all:.4f}"
                                       + QUICK_NOTE[quick]))
        elif label == DENSE_NEWTON.label:
            checks.append(Check(f"{label}: O(n^2) to O(n^3)", DAE_CLAIM, value=row["log-log slope (all)"],
                                noise=slope_noise, limit=None if quick else DAE_SLOPE, comparison="within",
                                unit="log-log slope", source="measured" if quick else
                                "paper: 'O(n2) or O(n3)' read as a log-log slope of the time per "
                                "step from 2 to 3 over the chains run (110 - 1760 DOF)",
                                detail=f"over {row['DOF range']} DOF{work(group)}; Newton's matrix "
                                       "(dense LU) factorized at every iteration" + QUICK_NOTE[quick]))
        else:
            checks.append(Check(f"{label}: growth with DOF", "log-log slope of the time per step (the "
                                "baseline the paper compares against)", value=row["log-log slope (all)"],
                                noise=slope_noise, unit="log-log slope", source="measured",
                                detail=f"over {row['DOF range']} DOF{work(group)}"
                                       + ("; Newton's matrix of the first step kept over the steps "
                                          "timed: the factorization is not in these times (row "
                                          f"'{DENSE_NEWTON.label}' has it)" if "DAE dense" in label
                                          else "")))
        fits.append(row)
    fits = pd.DataFrame(fits)
    for label, largest in FLAT.items():
        mine = timings["formulation"] == label
        group = timings[mine & (timings["DOF"] <= largest)]
        dofs = group["DOF"].to_numpy(float)
        per_dof = group["median time per step (s)"].to_numpy() / dofs
        within = [x for x, keep in zip(samples.get(label, []), timings[mine]["DOF"] <= largest) if keep]
        checks.append(Check(
            f"{label}: cost per DOF flat, 110 - {largest:,} DOF",
            f"issue 12: the cost per DOF of a step is flat within 30 % from 110 to {largest:,} DOF",
            # a median <= 0 is noise, not a cost: the ratio is then not measured (NaN fails)
            value=flatness(per_dof), noise=noise_interval(within, lambda m: flatness(m / dofs)) if within else None,
            limit=None if quick else FLAT_LIMIT, unit="largest / smallest time per step and DOF",
            source="measured" if quick else "rancf target: issue 12",
            detail=f"over {int(group['DOF'].min())} - {int(group['DOF'].max())} DOF (the chains this run "
                   "has); ns per DOF and step: " + ", ".join(
                       f"{1e9 * c:.0f} ({int(n)})" for c, n in zip(per_dof, group["DOF"]))
                   + work(group) + QUICK_NOTE[quick]))
    missing = pd.DataFrame([{"formulation": v.label, "available": v.available, "reason": v.reason}
                            for v in variants])
    spatial_all = pd.DataFrame(spatial_rows(spatial_points))
    chain_rows = (spatial_all["formulation"] == SPATIAL.label).to_numpy()
    spatial = spatial_all[chain_rows].reset_index(drop=True)
    refined = spatial_all[~chain_rows].reset_index(drop=True)
    checks += spatial_checks(spatial, [p for p in spatial_points if p.label == SPATIAL.label], quick)
    checks += refined_checks(refined, [p for p in spatial_points if p.label == REFINED.label])
    spatial_per_iteration = ", ".join(
        f"{us / its:.2f}" for us, its in zip(spatial["us per element and step"],
                                             spatial["Newton iterations per step"])) + " us"
    spatial_span = f"{spatial['elements'].min():,} to {spatial['elements'].max():,}"

    fig_lin, fig_log = timing_figures(timings)

    return Outcome(
        tables={"timings": timings, "fits": fits, "operation_count": ops, "formulations": missing,
                "spatial_timings": spatial_all},
        figures={"time_per_step_paper_range": fig_lin, "time_per_step_loglog": fig_log,
                 "spatial_time_per_step": spatial_figure(spatial_all)},
        checks=checks,
        parameters={**{k: v for k, v in REFERENCE.items() if k != "n_bodies"}, "E (Pa)": E, "dt (s)": DT,
                    "bodies": "5, 10, 20, 40 (quick run)" if quick else
                              "5, 10, ..., 40 (110 ... 880 DOF) and up to 4545 (100,000 DOF) where the "
                              "formulation allows (RK4: up to 500, 11,000 DOF)",
                    "rounds (every point once a round, shuffled, seed {SEED})".format(SEED=SEED):
                        f"{ROUNDS[quick]}; {min(ROUNDS[quick], ROUNDS_NO_VERDICT)} for rows without a verdict",
                    "time of runs per sample (s)": BUDGET[quick],
                    "noise interval": "least - largest value with every point's median taken over any n - 2 of its "
                                      "n rounds, independently of the other points",
                    "load average at start of timings (1, 5, 15 min)": ", ".join(f"{x:.2f}" for x in load["start"]),
                    "load average at end of timings (1, 5, 15 min)": ", ".join(f"{x:.2f}" for x in load["end"]),
                    "steps timed": f"{WINDOW + 1}-{2 * WINDOW} from rest",
                    "spatial chain (elements)": ", ".join(map(str, SPATIAL_ELEMENTS[quick])),
                    "spatial chain E (Pa)": SPATIAL_E,
                    "refined beam length (m)": REFINED_LENGTH,
                    "formulations not available": ", ".join(v.label for v in variants if not v.available) or "none"},
        assumptions=ASSUMPTIONS[:1] + [
            "Longer chains repeat the 5 m, 5-element body; every body adds 22 DOF.",
            "Time per step = the difference of the stepping times rancf reports (Result.wall_time: the "
            "time-stepping loop, without building the model or checking the stability limit) of runs "
            "of 2 k and k steps, over k (summed over several pairs of runs on short chains), so that "
            "what a run does once does not count. Every chain is timed over the same steps, "
            f"k = {WINDOW} (steps {WINDOW + 1}-{2 * WINDOW} from the straight chain at rest; fewer only "
            "where they would cost more than a sample's budget in a full run: table timings, 'steps "
            "timed'; a quick run times every chain over these steps), so "
            "every size does the same work per step (the Newton iterations and factorizations per "
            "step are in the table). Timing each chain over as many steps as a fixed budget allows, "
            "as this case did before (until commit 0428c78), compared a short chain swinging after "
            "seconds (3.9 iterations and about one factorization in two per step) with long chains "
            "a few steps from rest (2 iterations, none). Timing method (module docstring of validation.cases.scaling, "
            "fixed before its first result): a plan, discarded, sizes each point; then rounds, each "
            "timing every point (planar and spatial) once in an order shuffled afresh (fixed seed), "
            "so that a burst of load hits a random few points of one round; the median over the "
            "rounds is each point's time (plotted, bars min-max). Each timed check carries a noise "
            "interval (the least and largest value when every point, independently of the others, "
            "takes the median of any three of its five rounds: the spread of the longest chains is "
            "between samples, so one round left out, the method's first interval, showed about half "
            "of what a second run finds: commit 2b78039, on an AMD EPYC VM); where a limit lies "
            "within it (or between it and the value) the check is "
            "'undecided: noise', not pass or FAIL. A load shared by the whole run is in no interval (at "
            "a load average of 5 - 9 on 2 cores the 1e5-DOF chains ran up to 7 times slower: "
            "commit e5c6756, on an AMD EPYC VM). Machines "
            "are shared and noisy: compare ratios "
            "measured in this one run; the load averages are in the parameters.",
            f"Beyond 880 DOF, points stop once one step is predicted to cost more than {STOP_PER_STEP:g} s "
            "(extrapolated from the last two points): " + ("; ".join(skipped) or "no point skipped") + ".",
            "Formulations this checkout does not offer are listed as not available (table formulations).",
            "The dense DAE runs twice: with Newton's matrix kept while Newton contracts (modified "
            "Newton, the default: the steps timed from rest reuse the first step's LU, so its times "
            "leave the factorization out) and factorized at every iteration (full Newton, two dense "
            "LU per step: the conventional method whose cost the RANCF paper calls O(n^2) or O(n^3)). "
            "Both stop at 80 bodies (1760 DOF): every run factorizes at least once, 3.2 s of CPU at "
            "160 bodies and 19 s at 320 (measured at commit d173243).",
            f"The adaptive modal method runs the same chains with Berzeri beams (the method needs its "
            f"pseudo-load split, developer: Choices of the modal method), reduced by rancf.reduce with sparsity "
            f"{REDUCTION['sparsity']} and {REDUCTION['n_samples']} sampled equations per beam (of a body's "
            f"16 interior ones), backward Euler; its DOF are the full chain's.",
            "Operation count (eq. 57): multiplications and divisions of one evaluation of the recursion "
            "(kinematics, gravity, element forces, the two sweeps of the solve), for the 5 x 5 pendulum "
            "(Shabana model, revolute joints). 'Derived': counted by hand from the loops of "
            "rancf/formulations/_recursive.pyx, _forces.pyx and rancf/elements/_beam.pyx "
            "(validation.cases.scaling.derived_multiplications lists them). 'Instrumented': the "
            "compiled kernels run under valgrind's callgrind, which counts every executed instruction "
            "inside rhs and factorize; objdump names each one, and every mulsd/mulpd/divsd/divpd is "
            "counted per lane. Divisions are counted with the multiplications. With revolute joints "
            "the block factorization (the paper's 'matrix processing') is constant and runs once; "
            "the paper's bound counts it per evaluation.",
            "What the long chains' steps execute (measured outside this case, stated at commit "
            "16c79b5, on the implicit loop's step alone, valgrind's callgrind with "
            "simulated caches of 48 kB and 32 MB, steps 11-20 from rest): the "
            "planar implicit recursion executes the same instructions per DOF and step at every "
            "size (1,179 at 880 DOF, 1,196 from 7,040 to 99,990 DOF) with 2 Newton iterations and no "
            "factorization a step; its last-level cache misses are 0 per DOF and step up to 28,160 "
            "DOF and 3.3 at 99,990 DOF (half of them the solve's factor blocks): beyond a few tens "
            "of thousands of DOF its working set outgrows a 32 MB cache and its steps wait on "
            "memory. That would explain a cost per DOF rising with the size beyond a few tens of "
            "thousands of DOF, not a chain costing more per DOF than a longer one (the flatness "
            "row's per-size times show whether this run has such a point). The spatial chain's cost per "
            "Newton iteration and element, from this run's table (median time per element and step "
            f"over the Newton iterations per step), is {spatial_per_iteration} from "
            f"{spatial_span} elements, while its iterations per step grow with the length (the "
            "table's counts). The growth is linear, not the curvature of the step equations: "
            "linearized at a step's solution (step 15, J by central "
            "differences of the step residual), Newton's iteration with the kept matrix B, G = I - "
            "B^-1 J, reproduces the increments (measured outside this case, commit 088af69, on an "
            "AMD EPYC VM). On the coordinates the swing moves, G's eigenvalues "
            "are all below 0.006, 0.011 and 0.035 at 100, 1,000 and 10,000 elements, but G is far "
            "from normal and the second increment's share of the first, |G s1| / |s1|, grows with "
            "the length (9e-5, 2e-4, 3e-3), so that at 10,000 elements the third increment (8e-10 m) "
            "stays above tol and a fourth iteration follows. Neither secant (Broyden) updates of B "
            "nor B with the turning of the link wrenches (the loads' configuration dependence, "
            "exact in statics) lowers the count (best 3.9 and 3.9 iterations a step at 10,000 "
            "elements; measured with Chung and Hulbert's form of generalized-alpha, commit 088af69). On the "
            "coordinates the planar swing leaves at zero, G is far larger (eigenvalues -1.0e5, +-37 "
            "and +-12 at 1,000 elements, on the links' spin about the beam's axis near the root); "
            "this swing never excites them, a swing out of its plane does (the loop then runs "
            "full Newton where the kept matrix's steps cost more).",
            "Whether the stopping rule makes the spatial chain's iterations grow (traced inside the "
            "loop outside this case, commit a927ae2 on an Intel Xeon VM, steps 11-20 at 100, 1,000 "
            "and 10,000 elements, the default options): it does not. "
            "Every extra iteration is asked by the position test (max|dq| <= tol = 1e-10); the "
            "velocity test never decides (its tolerance, 1e-3 of the step's velocity error, is "
            "1.2-2.0e-6 m/s; the velocity errors it estimates after the first iteration are at most "
            "5.2e-8 m/s). The step's own position error, the third difference max|q_n - 3 q_{n-1} + "
            "3 q_{n-2} - q_{n-3}|, is 1.1-1.5e-6 rad (the bending rotation psi_y of elements 5-23), "
            "and Newton's first increment, the start's miss, 1.0-1.7e-6 rad (at the root element): "
            "both the same at every length to three digits, as is the motion near the root in these "
            "20 ms, so that tol asks for about 1e-4 of the step's error at every length. What grows "
            "is the second increment, always within the first 20 elements and never at the far end: "
            "1.4e-11 - 1.2e-10 at 100 elements, up to 5.3e-10 on every other step at 1,000, "
            "7.6e-10 - 6.3e-9 at 10,000 (2.5e-10 - 1.1e-9 after the third): the kept matrix's "
            "contraction (above). The start cannot do much better: a_n is the least miss of the "
            "loop's starts (the repeated increment misses by 5-7e-6, the extrapolated accelerations, "
            "which alternate, by 1-3.3e-6), and the positions' quadratic extrapolation, tried as a "
            "fourth start under the same rule, lowered the first increment by a fifth and changed "
            "the counts by at most 0.1 (2.1, 2.5 and 3.9 iterations a step). A floor on the "
            "position test at 1e-3 of the positions' third difference (the velocity test's rule) "
            "gave 2.0, 2.1 and 3.0 iterations a step (from 2.2, 2.5 and 3.8), still a growth by "
            "1.5, and it breaks the loop's promise that a step ends within tol of its solution (a "
            "step of tests/test_newton_stop.py's 8-element steel chain ended 3.3e-10 from it) and "
            "makes a tighter tol impossible to ask for (the tol = 1e-15 references of "
            "tests/test_newton_matrix_renewal.py): nine tests of the Newton loop (in the six files "
            "run) fail with it, so the loop keeps its absolute position test. By "
            "instruction count (callgrind, commit f45d985 on an Intel Xeon VM, the same steps, the "
            "run of 20 steps less that of 10): "
            "3,799, 4,534 and 5,353 instructions per DOF and step at 100, 1,000 and 10,000 elements "
            "(1.41 times), 8,182, 7,776 and 7,647 per element and Newton iteration, a factorization "
            "counted as two (its factor_cost): the instructions grow with the iterations alone. The "
            "simulated last-level cache (that VM's 300 MB L3, which valgrind took over the 32 MB asked "
            "for; 0.04, 0.01 and 7.45 misses per DOF and "
            "step) misses at 10,000 elements mostly in the solve's sweeps (reading the factor "
            "blocks), the kinematics, the factorization and the copies of the state.",
            "Spatial chain (issue 22, table spatial_timings): one beam of 1 m elements (the reference "
            "section, E = 210 GPa, G = E / 2.6, J = 0.141 side^4) on a spherical joint at the origin, "
            "along +x, released from rest under gravity along -z; 6 n + 3 DOF for n elements (the "
            "issue's 60 to 60,000 DOF are its 10 to 10,000 elements). Generalized-alpha at 1 ms, the "
            "default options; timed as the planar chains (same pairs of runs, in the same rounds, medians "
            f"over the rounds), always over steps {WINDOW + 1}-{2 * WINDOW}. 21 MPa, the planar chains' "
            "modulus, is not used: this section of that modulus in 1 m elements cannot carry its "
            "own weight beyond a few hundred elements (the first element turns half a turn within "
            "20 ms at 1,000 elements, measured at commit 8aacedb). The work per step (Newton "
            "iterations, factorizations) is in "
            "the table: the longer beam's Newton iterations converge more slowly (the Newton matrix "
            "leaves out the configuration dependence of the gravity loads, DECISIONS 13).",
            f"Refined beam (rows '{REFINED.label}', no verdict): the same section and start, one "
            f"beam of {REFINED_LENGTH:g} m in as many elements as the chain has, so that every "
            "size carries the same load at its root and refines the same motion, where the chain "
            "grows a longer beam (its root carries a beam of n metres at n elements). Issue 22 "
            "does not say which of the two its flatness means; these rows show the refined one's "
            "cost and work per step beside the chain's, timed in the same rounds.",
        ],
    )


CASE = Case(
    name="scaling",
    title="CPU time per step vs degrees of freedom",
    claim="'The DOF-CPU time curve of RANCF fits a linear relation' (fig. 12, 110-880 DOF), and the "
          "recursion costs fewer than 1472 n multiplications per evaluation (eq. 57).",
    claim_by="RANCF paper (Hu & Wang 2016)",
    run=run, timed=True, prepare=instruction_counts,
)
