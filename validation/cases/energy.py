"""``energy``: the soft (E = 21 MPa) 5 x 5 pendulum: energies, drift and deformed shapes.

RANCF paper, fig. 9-11: kinetic, elastic and gravity energy over 4 s at h = 1 ms, total
conserved to about 1e-5 relative (the text says 0.01 %), and snapshots of the chain.
"""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from validation.case import Case, Check, Outcome, progress
from validation.pendulum import ASSUMPTIONS, INTEGRATORS, REFERENCE, beam_points, pendulum, probe, timed

E = 21e6  # Pa
DT = 1e-3  # s
MODELS = ("shabana", "berzeri", "reissner")
SNAPSHOTS = np.arange(1, 9) * 0.5  # s
CRITERION = 1e-4  # the paper's 0.01 %


def run(quick: bool) -> Outcome:
    t_end = 1.0 if quick else 4.0
    chain = pendulum(E)
    progress("RANCF RK4, Shabana model")
    res, wall = timed(chain, t_end, DT, method="rk4", formulation="recursive", output_every=1)
    if res.status != "ok":
        raise RuntimeError(f"reference run {res.status}: {res.message}")
    energy = res.energy()
    main_drift = res.energy_drift()

    rows = [{"integrator": "RANCF RK4", "elastic model": "shabana", "dt (s)": DT,
             "relative drift": main_drift, "max kinetic (J)": energy["kinetic"].max(),
             "status": res.status, "wall time (s)": round(wall, 2)}]
    runs = [(v, "shabana") for v in probe(INTEGRATORS)[1:]]
    runs += [(INTEGRATORS[0], m) for m in MODELS[1:]]
    for variant, model in runs:
        row = {"integrator": variant.label, "elastic model": model, "dt (s)": DT}
        if not variant.available:
            rows.append({**row, "status": f"not available ({variant.reason})"})
            continue
        progress(f"{variant.label}, {model}")
        other, wall = timed(pendulum(E, elastic_model=model), t_end, DT, output_every=1, **variant.kwargs)
        other_energy = other.energy()
        rows.append({**row, "relative drift": other.energy_drift(),
                     "max kinetic (J)": other_energy["kinetic"].max(),
                     "status": other.status + (f": {other.message}" if other.message else ""),
                     "wall time (s)": round(wall, 2)})
    drifts = pd.DataFrame(rows)

    fig_e, axes = plt.subplots(2, 1, figsize=(8, 7), sharex=True, gridspec_kw={"height_ratios": [2, 1]})
    for column in ("kinetic", "elastic", "gravity", "total"):
        axes[0].plot(energy["t"], energy[column], label=column)
    axes[0].set(ylabel="energy (J)", title=f"5 x 5 pendulum, E = 21 MPa, RK4 h = {DT:g} s")
    axes[0].legend()
    axes[1].plot(energy["t"], energy["total"] - energy["total"].iloc[0], "k")
    axes[1].set(xlabel="t (s)", ylabel="E_total(t) - E_total(0) (J)")
    for a in axes:
        a.grid(alpha=0.3)

    fig_s, ax = plt.subplots(figsize=(8, 7))
    shapes = []
    for ts in SNAPSHOTS[SNAPSHOTS <= res.t[-1] + 1e-9]:
        i = int(np.argmin(np.abs(res.t - ts)))
        pts = beam_points(chain, res.nodes[i], per_element=11)
        ax.plot(pts[:, 0], pts[:, 1], "-", lw=1.5, label=f"t = {res.t[i]:.1f} s")
        shapes.append(pd.DataFrame({"t (s)": res.t[i], "x (m)": pts[:, 0], "y (m)": pts[:, 1]}))
    ax.plot([0], [0], "k^", ms=10)
    ax.set(xlabel="x (m)", ylabel="y (m)", title="Deformed chain (11 points per element)", aspect="equal")
    ax.legend(fontsize=8, loc="lower left")
    ax.grid(alpha=0.3)

    checks = [Check("total-energy drift (RANCF RK4, Shabana)",
                    f"paper: ~1e-5 relative (text: 0.01 %); criterion here: < {CRITERION:g}",
                    f"{main_drift:.3g} of max kinetic {energy['kinetic'].max():.4g} J over {t_end:g} s "
                    f"(max |dE| = {main_drift * energy['kinetic'].max():.3g} J)",
                    bool(main_drift < CRITERION))]
    return Outcome(
        tables={"energy": energy, "drift_by_integrator": drifts, "snapshots": pd.concat(shapes)},
        figures={"energy": fig_e, "snapshots": fig_s},
        checks=checks,
        parameters={**REFERENCE, "E (Pa)": E, "dt (s)": DT, "t_end (s)": t_end,
                    "elastic models": ", ".join(MODELS)},
        assumptions=ASSUMPTIONS + [
            "Drift is max |E_total(t) - E_total(0)| / max kinetic energy, sampled every step "
            "(the total starts at 0, so a relative measure needs a scale).",
            "Gravity energy is zero in the initial horizontal configuration.",
            "Integrators or formulations that this checkout does not offer are listed as not available.",
        ],
    )


CASE = Case(
    name="energy",
    title="Energy conservation of the soft 5 x 5 pendulum (E = 21 MPa)",
    claim="Total energy is conserved to about 1e-5 relative over 4 s at h = 1 ms (RANCF paper, fig. 9-11; "
          "the text quotes 0.01 %).",
    run=run,
)
