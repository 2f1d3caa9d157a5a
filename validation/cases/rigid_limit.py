"""``rigid-limit``: the stiff 5 x 5 pendulum against an independent rigid 5-link pendulum.

RANCF paper, fig. 7-8: with E = 210 GPa the flexible chain should move like the rigid one
(MSC.ADAMS in the paper), normalised tip errors ``delta_X = dX / L``, ``delta_Y = dY / L``
(eq. 58, L = 25 m) within 0.6 %. Our reconstructed section is not quite rigid at 210 GPa (the
paper's table 1 did not survive), so the claim fails here; the case runs E = 2.1e12 and 2.1e13 Pa
too and checks that the error falls as 1/E, i.e. that what remains is the chain's elasticity.
"""
from __future__ import annotations

from functools import partial

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from validation.case import Case, Check, Outcome, progress
from validation.parallel import map_runs
from validation.pendulum import ASSUMPTIONS, FORMULATIONS, REFERENCE, pendulum, probe, rk4_step, timed
from validation.rigid import RigidChain, simulate_rigid

MODULI = (210e9, 2.1e12, 2.1e13)  # Pa
OUTPUT_DT = 1e-3  # s
#: Step of the implicit runs: a quarter of the output step, so that the scheme's own error (second
#: order, 1.5e-5 L at 1 ms on this chain) is 16 times below the elastic deviation at 2.1e13 Pa.
STEP = 2.5e-4  # s
PAPER_LIMIT = 0.6  # % of L, fig. 8


def rigid_reference() -> RigidChain:
    """Uniform thin rods with the flexible bodies' lengths and masses."""
    p = REFERENCE
    mass = p["rho"] * p["side"] ** 2 * p["body_length"]
    return RigidChain(lengths=[p["body_length"]] * p["n_bodies"], masses=[mass] * p["n_bodies"],
                      gravity=p["gravity"])


def integrate(chain, t_end, implicit, notes):
    """Implicit RANCF at the output step where offered, else (or if it fails) explicit RK4 below
    its stability limit. Returns the result, wall time (s), step (s) and a description."""
    if implicit.available:
        res, wall = timed(chain, t_end, STEP, output_every=int(round(OUTPUT_DT / STEP)), **implicit.kwargs)
        if res.status == "ok":
            return res, wall, STEP, implicit.label
        notes.append(f"{implicit.label} {res.status} for E = {chain.beams[0].E:.3g} Pa ({res.message}); "
                     "explicit RK4 used instead.")
    dt = rk4_step(chain, OUTPUT_DT)
    res, wall = timed(chain, t_end, dt, output_every=int(round(OUTPUT_DT / dt)), formulation="recursive",
                      method="rk4")
    if res.status != "ok":
        raise RuntimeError(f"E = {chain.beams[0].E:g} Pa: RK4 {res.status}: {res.message}")
    return res, wall, dt, "RANCF explicit RK4, step below 80 % of its stability limit"


def flexible(implicit, t_end, E):
    """The chain with modulus ``E`` (Pa) by :func:`integrate`: output times (s), tip (m), wall
    time (s), step (s), method and notes; one run of the E sweep (validation.parallel)."""
    progress(f"E = {E:.3g} Pa")
    notes = []
    res, wall, dt, how = integrate(pendulum(E), t_end, implicit, notes)
    return res.t, res.tip(), wall, dt, how, notes


def run(quick: bool) -> Outcome:
    t_end = 4.0  # the paper's run; a few seconds, so the quick run is the full one
    total_length = REFERENCE["n_bodies"] * REFERENCE["body_length"]
    implicit = probe([FORMULATIONS[1]])[0]
    rigid = None
    rows, series, notes = [], {}, []
    runs = map_runs(partial(flexible, implicit, t_end), [{"E": E} for E in MODULI])
    for E, (t, tip, wall, dt, how, run_notes) in zip(MODULI, runs):
        notes += run_notes
        if rigid is None:
            rigid = simulate_rigid(rigid_reference(), float(t[-1]), t_eval=t)
            rigid_tip = rigid.tip()
        delta = (tip - rigid_tip) / total_length * 100.0  # percent of L
        dist = np.hypot(delta[:, 0], delta[:, 1])
        series[E] = (t, tip, delta)
        k = int(np.argmax(dist))
        rows.append({"E (Pa)": E, "method": how, "dt (s)": dt, "steps": int(round(t_end / dt)),
                     "wall time (s)": round(wall, 2), "max |dX| (% of L)": np.abs(delta[:, 0]).max(),
                     "max |dY| (% of L)": np.abs(delta[:, 1]).max(), "max distance (% of L)": dist[k],
                     "at t (s)": t[k]})
    summary = pd.DataFrame(rows)

    t, tip, delta = series[MODULI[0]]
    table = pd.DataFrame({"t (s)": t, "rigid x (m)": rigid_tip[:, 0], "rigid y (m)": rigid_tip[:, 1],
                          "flexible x (m)": tip[:, 0], "flexible y (m)": tip[:, 1]})
    for E, (_, _, d) in series.items():
        table[f"dX E={E:.3g} (% of L)"] = d[:, 0]
        table[f"dY E={E:.3g} (% of L)"] = d[:, 1]

    fig_tip, ax = plt.subplots(figsize=(8, 4.5))
    ax.plot(t, rigid_tip[:, 0], "k-", label="rigid x")
    ax.plot(t, tip[:, 0], "C0--", label="RANCF x (E = 210 GPa)")
    ax.plot(t, rigid_tip[:, 1], "k-.", label="rigid y")
    ax.plot(t, tip[:, 1], "C1--", label="RANCF y (E = 210 GPa)")
    ax.set(xlabel="t (s)", ylabel="tip position (m)", title="Tip of the 5 x 5 pendulum: flexible vs rigid (fig. 7)")
    ax.legend()
    ax.grid(alpha=0.3)

    fig_err, axes = plt.subplots(2, 1, figsize=(8, 6), sharex=True)
    for E, (tt, _, d) in series.items():
        axes[0].plot(tt, d[:, 0], label=f"E = {E:.3g} Pa")
        axes[1].plot(tt, d[:, 1], label=f"E = {E:.3g} Pa")
    axes[0].set(ylabel="delta_X (% of L)", title="Normalised tip error (flexible - rigid) / L x 100 % (fig. 8)")
    axes[1].set(xlabel="t (s)", ylabel="delta_Y (% of L)")
    for a in axes:
        a.grid(alpha=0.3)
        a.legend()

    Es = summary["E (Pa)"].to_numpy()
    err = summary["max distance (% of L)"].to_numpy()
    paper_err = summary[["max |dX| (% of L)", "max |dY| (% of L)"]].max(axis=1).to_numpy()
    fig_e, ax = plt.subplots(figsize=(6.5, 4.5))
    ax.loglog(Es, paper_err, "o-", label="max(|delta_X|, |delta_Y|) (eq. 58)")
    ax.loglog(Es, err, "s--", label="max tip distance / L")
    ax.loglog(Es, paper_err[0] * Es[0] / Es, "k:", label="~ 1/E")
    ax.axhline(PAPER_LIMIT, color="C3", lw=1, label="paper: 0.6 % (fig. 8)")
    ax.set(xlabel="Young's modulus E (Pa)", ylabel="max normalised tip error (% of L)",
           title="Approach to the rigid limit")
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3, which="both")

    slope = float(np.polyfit(np.log10(Es), np.log10(paper_err), 1)[0])
    window = f"over 0 <= t <= {t_end:g} s"
    checks = [
        Check("fig. 8: tip error at E = 210 GPa", "RANCF paper fig. 8: 'the normalised error of RANCF is within "
              "0.6 %' (delta_X = dX / L, delta_Y = dY / L, eq. 58, L = 25 m; reference MSC.ADAMS, rigid)",
              value=paper_err[0], limit=PAPER_LIMIT, unit="% of L", source="paper",
              known_deviation="our reconstructed section (0.03 m square; the paper's table 1 did not survive) "
                              "is not quite rigid at 210 GPa: the chain's own elastic deformation puts the tip "
                              f"{paper_err[0]:.2g} % of L off the rigid chain; the next row shows it is "
                              "elasticity (1/E)",
              detail=f"max(|delta_X|, |delta_Y|) {window}: delta_X {summary['max |dX| (% of L)'][0]:.3g} %, "
                     f"delta_Y {summary['max |dY| (% of L)'][0]:.3g} %; Euclidean tip distance {err[0]:.3g} % at "
                     f"t = {summary['at t (s)'][0]:.3f} s"),
        Check("rigid limit: error falls as 1/E", "the remaining error is the elastic deformation, which falls "
              "as 1/E: log-log slope of max(|delta_X|, |delta_Y|) over E = 2.1e11, 2.1e12, 2.1e13 Pa",
              value=slope, limit=(-1.1, -0.9), comparison="within", unit="log-log slope",
              source="rancf target: static deflection under the chain's inertial and gravity loads is "
                     "proportional to 1/E (slope -1); 0.1 allows for the dynamic, O(1/E^2) part",
              detail="errors " + ", ".join(f"{e:.3g} %" for e in paper_err) + f" {window}"),
    ]
    return Outcome(
        tables={"errors_vs_E": summary, "tip_series": table},
        figures={"tip_position": fig_tip, "tip_error": fig_err, "error_vs_E": fig_e},
        checks=checks,
        parameters={**REFERENCE, "E (Pa)": ", ".join(f"{E:.3g}" for E in MODULI), "t_end (s)": t_end,
                    "elastic model": "shabana", "output step (s)": OUTPUT_DT,
                    "rigid solver": "validation.rigid, DOP853, rtol = atol = 1e-12",
                    "RANCF implicit available": implicit.available},
        assumptions=ASSUMPTIONS + [
            "The rigid reference is a chain of uniform thin rods (inertia m L^2 / 12 about the centre) "
            "with the flexible bodies' lengths and masses; the flexible beams have the same mass "
            "distribution plus the small rotary inertia of the ANCF section, which ANCF ignores too.",
            "Errors are normalised by the total length L = 25 m as in the paper's eq. 58; the paper's "
            "claim is checked on max(|delta_X|, |delta_Y|); the Euclidean tip distance is in the table.",
            "With this section the chain is not rigid at 210 GPa (CASES.md: an independent converged "
            "flexible solution deviates from the rigid one by about 0.75 % of L near t = 2.1 s; this "
            f"run's tip distance is {err[0]:.3g} % of L at t = {summary['at t (s)'][0]:.2f} s), hence "
            "the sweep over E.",
            f"Implicit RANCF (generalized-alpha, rho_inf = 0.9) at h = {STEP:g} s, outputs every "
            f"{OUTPUT_DT:g} s.",
        ] + notes + ([] if implicit.available else
             [f"Implicit RANCF not available ({implicit.reason}); explicit RK4 used with a step below "
              "80 % of its stability limit, bounded by the highest element frequency."]),
    )


CASE = Case(
    name="rigid-limit",
    title="Rigid limit: stiff 5 x 5 pendulum vs an independent rigid 5-link pendulum",
    claim="With E = 210 GPa the chain is close to rigid: the tip follows the rigid chain (MSC.ADAMS) with a "
          "normalised error within 0.6 % of L (fig. 7-8, eq. 58).",
    claim_by="RANCF paper (Hu & Wang 2016)",
    run=run,
)
