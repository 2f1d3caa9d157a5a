"""``scaling``: CPU time per step against the number of degrees of freedom.

RANCF paper, fig. 12: time per step grows linearly with the DOF (5 ... 40 bodies of 5
elements, 110 ... 880 DOF, MATLAB on an i7-5500U). Here: the same chains and far longer
ones (to about 100,000 DOF) for every formulation this checkout offers; each point is the
median of repeated timings taken in this one run; linear fit with R^2 for RANCF and
log-log slopes for all.
"""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from validation.case import Case, Check, Outcome, progress
from validation.pendulum import ASSUMPTIONS, FORMULATIONS, REFERENCE, dof, pendulum, probe, timed

E = 21e6  # Pa
DT = 1e-3  # s
PAPER_BODIES = tuple(range(5, 45, 5))  # 110 ... 880 DOF
QUICK_BODIES = (5, 10, 20, 40)
DOF_PER_BODY = 4 * REFERENCE["elements_per_body"] + 2
#: Longest chains per formulation (bodies); the O(n) recursion goes to ~100k DOF.
EXTENDED = {"recursive": (80, 160, 320, 640, 1280, 2560, 4545), "dae": (80, 160, 320, 640, 1280)}
BUDGET = {True: 1.0, False: 2.0}  # s of stepping per point (quick / full), before repeats
REPEATS = {True: 3, False: 5}
STOP_PER_STEP = 0.5  # s: larger chains are skipped once one step is predicted to cost more


def sample(chain, kwargs, steps: int) -> float:
    """One timing: the stepping time per step of a run of ``steps`` steps (s)."""
    res, wall = timed(chain, steps * DT, DT, output_every=steps, **kwargs)
    if res.status != "ok":
        raise RuntimeError(f"{kwargs}: {res.status}: {res.message}")
    return (res.wall_time or wall) / steps


def measure(variant, bodies, quick: bool, skipped: list) -> list[dict]:
    """Median time per step of ``variant`` for each chain length in ``bodies``.

    A first round, in order of size, sizes each run (``BUDGET / REPEATS`` seconds of stepping,
    from a warm-up run for the first chain, then from the prediction) and stops before a chain
    beyond the paper's 880 DOF predicted to cost more than ``STOP_PER_STEP`` per step. The
    further repeats go round-robin over the chains kept, so a burst of load on the shared
    machine hits all sizes alike.
    """
    chains, steps, samples = [], [], []
    estimate, previous = None, None
    for n in bodies:
        if estimate is not None and estimate > STOP_PER_STEP and n not in PAPER_BODIES:
            skipped.append(f"{variant.label}: {n} bodies and more (predicted {estimate:.2g} s per step)")
            break
        progress(f"{variant.label}: {n} bodies")
        chain = pendulum(E, n_bodies=n)
        if estimate is None:
            estimate = sample(chain, variant.kwargs, 2)
        chains.append(chain)
        steps.append(int(np.clip(BUDGET[quick] / REPEATS[quick] / max(estimate, 1e-9), 2, 2000)))
        samples.append([sample(chain, variant.kwargs, steps[-1])])
        estimate = predict(previous, (n, samples[-1][0]), bodies, n)
        previous = (n, samples[-1][0])
    for r in range(1, REPEATS[quick]):
        progress(f"{variant.label}: repeat {r + 1} of {REPEATS[quick]}")
        for chain, k, times in zip(chains, steps, samples):
            times.append(sample(chain, variant.kwargs, k))
    return [{"formulation": variant.label, "bodies": len(chain.beams), "DOF": dof(chain), "steps": k,
             "repeats": len(times), "median time per step (s)": float(np.median(times)),
             "min (s)": min(times), "max (s)": max(times)}
            for chain, k, times in zip(chains, steps, samples)]


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


def linear_fit(dof, t):
    """Least-squares ``t = a n + b`` and its coefficient of determination R^2."""
    a, b = np.polyfit(dof, t, 1)
    residual = t - (a * dof + b)
    return a, b, 1.0 - residual @ residual / np.sum((t - t.mean()) ** 2)


def loglog_slope(dof, t):
    return float(np.polyfit(np.log(dof), np.log(t), 1)[0])


def run(quick: bool) -> Outcome:
    variants = probe(FORMULATIONS)
    rows, skipped = [], []
    for v in variants:
        if not v.available:
            continue
        if quick:
            bodies = QUICK_BODIES + ((160,) if v.kwargs["formulation"] == "recursive" else ())
        else:
            bodies = PAPER_BODIES + EXTENDED[v.kwargs["formulation"]]
        rows += measure(v, bodies, quick, skipped)
    timings = pd.DataFrame(rows)

    fits, checks = [], []
    for label, group in timings.groupby("formulation", sort=False):
        dof = group["DOF"].to_numpy(float)
        t = group["median time per step (s)"].to_numpy()
        paper = dof <= PAPER_BODIES[-1] * DOF_PER_BODY
        row = {"formulation": label, "DOF range": f"{int(dof.min())} - {int(dof.max())}",
               "log-log slope (all)": loglog_slope(dof, t),
               "log-log slope (110-880 DOF)": loglog_slope(dof[paper], t[paper])}
        if "RANCF" in label:
            a, b, r2 = linear_fit(dof[paper], t[paper])
            a_all, b_all, r2_all = linear_fit(dof, t)
            row.update({"slope a (s/DOF, 110-880)": a, "intercept b (s, 110-880)": b, "R^2 (110-880)": r2,
                        "slope a (s/DOF, all)": a_all, "R^2 (all)": r2_all})
            checks.append(Check(f"{label}: linear in DOF", "paper: CPU time per step linear in DOF "
                                "(fig. 12); criterion: R^2 >= 0.98 on 110-880 DOF and on the full range",
                                f"R^2 = {r2:.4f} (110-880 DOF), {r2_all:.4f} ({row['DOF range']} DOF); "
                                f"{a * 1e6:.3g} us per DOF", bool(r2 >= 0.98 and r2_all >= 0.98)))
            checks.append(Check(f"{label}: O(n)", "criterion: log-log slope <= 1.15 over the full range "
                                "(no worse than linear; below 1 where a fixed per-step cost dominates)",
                                f"slope {row['log-log slope (all)']:.3f}", bool(row["log-log slope (all)"] <= 1.15)))
        fits.append(row)
    fits = pd.DataFrame(fits)
    missing = pd.DataFrame([{"formulation": v.label, "available": v.available, "reason": v.reason}
                            for v in variants])

    fig_lin, ax = plt.subplots(figsize=(7.5, 4.8))
    fig_log, ax2 = plt.subplots(figsize=(7.5, 4.8))
    for i, (label, group) in enumerate(timings.groupby("formulation", sort=False)):
        dof = group["DOF"].to_numpy(float)
        t = group["median time per step (s)"].to_numpy()
        paper = dof <= PAPER_BODIES[-1] * DOF_PER_BODY
        ax.plot(dof[paper], t[paper] * 1e3, "o", color=f"C{i}", label=label)
        if "RANCF" in label:
            a, b, r2 = linear_fit(dof[paper], t[paper])
            ax.plot(dof[paper], (a * dof[paper] + b) * 1e3, "-", color=f"C{i}", label=f"linear fit, R^2 = {r2:.4f}")
        ax2.errorbar(dof, t * 1e3, yerr=[(t - group["min (s)"]) * 1e3, (group["max (s)"] - t) * 1e3],
                     fmt="o-", color=f"C{i}", capsize=2,
                     label=f"{label} (slope {loglog_slope(dof, t):.2f})")
    ax.set(xlabel="degrees of freedom", ylabel="CPU time per step (ms)",
           title="Time per step, paper's range (fig. 12)")
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    lo, hi = timings["DOF"].min(), timings["DOF"].max()
    ref = np.array([lo, hi], float)
    t0 = timings["median time per step (s)"].min() * 1e3
    ax2.loglog(ref, t0 * ref / lo, "k:", label="slope 1")
    ax2.set(xscale="log", yscale="log", xlabel="degrees of freedom", ylabel="CPU time per step (ms)",
            title="Time per step vs DOF (medians, bars: min-max)")
    ax2.legend(fontsize=8)
    ax2.grid(alpha=0.3, which="both")

    return Outcome(
        tables={"timings": timings, "fits": fits, "formulations": missing},
        figures={"time_per_step_paper_range": fig_lin, "time_per_step_loglog": fig_log},
        checks=checks,
        parameters={**{k: v for k, v in REFERENCE.items() if k != "n_bodies"}, "E (Pa)": E, "dt (s)": DT,
                    "bodies": "5, 10, 20, 40 (quick run)" if quick else
                              "5, 10, ..., 40 (110 ... 880 DOF) and up to 4545 (100,000 DOF) where the "
                              "formulation allows",
                    "repeats per point": REPEATS[quick], "stepping time per point (s)": BUDGET[quick],
                    "formulations not available": ", ".join(v.label for v in variants if not v.available) or "none"},
        assumptions=ASSUMPTIONS[:1] + [
            "Longer chains repeat the 5 m, 5-element body; every body adds 22 DOF.",
            "Time per step = the stepping time rancf reports (Result.wall_time: the time-stepping loop, "
            "without building the model or checking the stability limit) over a fixed number of "
            "steps, divided by the steps; the median of the repeats is plotted. Repeats go "
            "round-robin over the chain lengths so that load bursts hit all sizes alike. Machines are shared and noisy: compare ratios measured in this one run.",
            f"Beyond 880 DOF, points stop once one step is predicted to cost more than {STOP_PER_STEP:g} s "
            "(extrapolated from the last two points): " + ("; ".join(skipped) or "no point skipped") + ".",
            "Formulations this checkout does not offer are listed as not available (table formulations).",
        ],
    )


CASE = Case(
    name="scaling",
    title="CPU time per step vs degrees of freedom",
    claim="RANCF's CPU time per step grows linearly with the number of DOF (RANCF paper, fig. 12, "
          "110-880 DOF).",
    run=run,
)
