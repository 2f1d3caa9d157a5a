"""``energy``: the soft (E = 21 MPa) 5 x 5 pendulum: energies, tip, deformed shapes, joints.

RANCF paper section 2, fig. 9-11: the tip over 4 s at h = 1 ms (fig. 9), the chain at
t = 0.5, 1.0, ..., 4.0 s drawn with 11 points per element (fig. 10), and the kinetic, elastic,
gravity and total energy (fig. 11): "the total energy fluctuates in the order of 0.1 J, against
kinetic, elastic and potential energies in the order of 1e4 J: a relative error of 0.01 %". The
conclusion adds that RANCF, an ODE, has no constraint violation. All rerun here, with RK4 at the
paper's step (the paper integrates its ODE in MATLAB and does not name the scheme).
"""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from validation.case import Case, Check, Outcome, progress
from validation.pendulum import ASSUMPTIONS, INTEGRATORS, REFERENCE, beam_points, pendulum, probe, timed

E = 21e6  # Pa
DT = 1e-3  # s, the paper's step
MODELS = ("shabana", "berzeri", "reissner")
SNAPSHOTS = np.arange(1, 9) * 0.5  # s, fig. 10
T_CONVERGED = 3.5  # s: the chain is very sensitive beyond (CASES.md), trajectories compared up to here
REFERENCE_TOL = 1e-11  # DOPRI5 rtol = atol of the converged tip (developer: Tolerances of the cross-checks)
LARGE_ROTATION = 0.3  # rad
CLAIM_FIG11 = ("RANCF paper fig. 11: 'the total energy fluctuates in the order of 0.1 J, against kinetic, "
               "elastic and potential energies in the order of 1e4 J; its relative error is 0.01 %'")


def joint_gap(chain, nodes: np.ndarray) -> float:
    """Largest distance (m) between the duplicated joint nodes (a body's last node and the next
    body's first) and of the first node from the pin at the origin, over all outputs."""
    gaps = [np.abs(nodes[:, 0, :2]).max()]
    first = 0
    for k, beam in enumerate(chain.beams):
        if k:
            gaps.append(np.abs(nodes[:, first, :2] - nodes[:, first - 1, :2]).max())
        first += beam.n_elements + 1
    return float(max(gaps))


def largest_rotation(chain, nodes: np.ndarray) -> float:
    """Largest rotation (rad) of a body's end slope relative to its start slope, over all outputs:
    the bending of one 5 m body."""
    largest, first = 0.0, 0
    for beam in chain.beams:
        last = first + beam.n_elements
        a0 = np.arctan2(nodes[:, first, 3], nodes[:, first, 2])
        a1 = np.arctan2(nodes[:, last, 3], nodes[:, last, 2])
        largest = max(largest, float(np.abs(np.angle(np.exp(1j * (a1 - a0)))).max()))
        first = last + 1
    return largest


def run(quick: bool) -> Outcome:
    t_end = 4.0  # the paper's run; a few seconds, so the quick run is the full one
    t_cmp = min(T_CONVERGED, t_end)
    L = REFERENCE["n_bodies"] * REFERENCE["body_length"]
    chain = pendulum(E)
    progress("RANCF RK4, Shabana model")
    res, wall = timed(chain, t_end, DT, method="rk4", formulation="recursive", output_every=1)
    if res.status != "ok":
        raise RuntimeError(f"reference run {res.status}: {res.message}")
    energy = res.energy()
    drift = res.energy_drift()
    fluctuation = float((energy["total"] - energy["total"].iloc[0]).abs().max())
    progress(f"converged tip: DOPRI5 rtol = atol = {REFERENCE_TOL:g}")
    ref, ref_wall = timed(chain, t_cmp, DT, method="dopri5", formulation="recursive", output_every=1,
                          rtol=REFERENCE_TOL, atol=REFERENCE_TOL)
    if ref.status != "ok":
        raise RuntimeError(f"converged run {ref.status}: {ref.message}")
    n = len(ref.t)
    tip_error = np.linalg.norm(res.tip()[:n] - ref.tip(), axis=1)

    rows = [{"integrator": "RANCF RK4", "elastic model": "shabana", "dt (s)": DT,
             "relative drift": drift, "max |E_total - E_total(0)| (J)": fluctuation,
             "max kinetic (J)": energy["kinetic"].max(), "max joint gap (m)": joint_gap(chain, res.nodes),
             "status": res.status, "wall time (s)": round(wall, 2)}]
    runs = [(v, "shabana") for v in probe(INTEGRATORS)[1:]]
    runs += [(INTEGRATORS[0], m) for m in MODELS[1:]]
    dae_gap = 0.0
    for variant, model in runs:
        row = {"integrator": variant.label, "elastic model": model, "dt (s)": DT}
        progress(f"{variant.label}, {model}")
        other_chain = pendulum(E, elastic_model=model)
        other, wall = timed(other_chain, t_end, DT, output_every=1, **variant.kwargs)
        other_energy = other.energy()
        gap = joint_gap(other_chain, other.nodes)
        if variant.kwargs["formulation"] == "dae":
            dae_gap = max(dae_gap, gap)
        rows.append({**row, "relative drift": other.energy_drift(),
                     "max |E_total - E_total(0)| (J)": float((other_energy["total"]
                                                             - other_energy["total"].iloc[0]).abs().max()),
                     "max kinetic (J)": other_energy["kinetic"].max(), "max joint gap (m)": gap,
                     "status": other.status + (f": {other.message}" if other.message else ""),
                     "wall time (s)": round(wall, 2)})
    drifts = pd.DataFrame(rows)

    fig_e, axes = plt.subplots(2, 1, figsize=(8, 7), sharex=True, gridspec_kw={"height_ratios": [2, 1]})
    for column in ("kinetic", "elastic", "gravity", "total"):
        axes[0].plot(energy["t"], energy[column], label=column)
    axes[0].set(ylabel="energy (J)", title=f"Energies (fig. 11): 5 x 5 pendulum, E = 21 MPa, RK4 h = {DT:g} s")
    axes[0].legend()
    axes[1].plot(energy["t"], energy["total"] - energy["total"].iloc[0], "k")
    axes[1].set(xlabel="t (s)", ylabel="E_total(t) - E_total(0) (J)")
    for a in axes:
        a.grid(alpha=0.3)

    fig_t, axes = plt.subplots(2, 1, figsize=(8, 6), sharex=True)
    for i, c in enumerate("xy"):
        axes[i].plot(res.t, res.tip()[:, i], "C0-", label=f"RK4 h = {DT:g} s")
        axes[i].plot(ref.t, ref.tip()[:, i], "k--", lw=1, label=f"DOPRI5 tol {REFERENCE_TOL:g}")
        axes[i].set(ylabel=f"tip {c} (m)")
        axes[i].grid(alpha=0.3)
    axes[0].set_title("Tip of the 5 x 5 pendulum, E = 21 MPa (fig. 9)")
    axes[0].legend()
    axes[1].set_xlabel("t (s)")

    fig_s, ax = plt.subplots(figsize=(8, 7))
    shapes = []
    for ts in SNAPSHOTS[SNAPSHOTS <= res.t[-1] + 1e-9]:
        i = int(np.argmin(np.abs(res.t - ts)))
        pts = beam_points(chain, res.nodes[i], per_element=11)
        ax.plot(pts[:, 0], pts[:, 1], "-", lw=1.5, label=f"t = {res.t[i]:.1f} s")
        shapes.append(pd.DataFrame({"t (s)": res.t[i], "x (m)": pts[:, 0], "y (m)": pts[:, 1]}))
    ax.plot([0], [0], "k^", ms=10)
    ax.set(xlabel="x (m)", ylabel="y (m)", title="Deformed chain (fig. 10, 11 points per element)", aspect="equal")
    ax.legend(fontsize=8, loc="lower left")
    ax.grid(alpha=0.3)

    window = f"over 0 <= t <= {t_end:g} s"
    checks = [
        Check("fig. 11: relative energy error", CLAIM_FIG11, value=drift, limit=1e-4, unit="of max kinetic",
              source="paper", detail=f"max |E_total - E_total(0)| / max kinetic energy "
                                     f"({energy['kinetic'].max():.4g} J), {window}"),
        Check("fig. 11: energies of order 1e4 J", CLAIM_FIG11, value=energy["kinetic"].max(),
              limit=(10**3.5, 10**4.5), comparison="within", unit="J",
              source="paper: 'order of 1e4 J' read as within half a decade of 1e4 J",
              no_verdict="true by construction: the paper's parameter table is lost and our section and "
                         "density were chosen to give energies of this order (CASES.md), so the row shows "
                         "the scale the relative error is taken against and tests nothing",
              detail=f"max kinetic energy {window}; elastic up to {energy['elastic'].max():.4g} J, "
                     f"gravity down to {energy['gravity'].min():.4g} J"),
        Check("fig. 11: fluctuation of order 0.1 J", CLAIM_FIG11, value=fluctuation,
              limit=(10**-1.5, 10**-0.5), comparison="within", unit="J",
              source="paper: 'order of 0.1 J' read as within half a decade of 0.1 J",
              known_deviation="the size of the fluctuation depends on the integrator, which the paper does not "
                              "name (only h = 1 ms), and on its parameter table, which did not survive (ours is "
                              "reconstructed); relative to the energies it meets the paper's 0.01 % (first row)",
              detail=f"max |E_total - E_total(0)|, RK4 at h = 1 ms, {window}"),
        Check("fig. 9: tip converged at the paper's step", "the tip of fig. 9 (RK4, h = 1 ms) is the converged "
              f"motion: distance to DOPRI5 at rtol = atol = {REFERENCE_TOL:g}", value=tip_error.max() / L,
              limit=1e-4, unit="of L",
              source="rancf target: 1e-4 L (2.5 mm) is ten times finer than a plot of the 25 m chain resolves",
              detail=f"{tip_error.max() * 1e3:.3g} mm at t = {ref.t[tip_error.argmax()]:.3f} s, over "
                     f"t <= {t_cmp:g} s (sensitive beyond)"),
        Check("fig. 10: large deformation", "RANCF paper fig. 10: 'at E = 21 MPa the system shows significant "
              "large flexible deformation'", value=largest_rotation(chain, res.nodes), limit=LARGE_ROTATION,
              comparison=">=", unit="rad",
              source="rancf target: bending rotations beyond 0.3 rad are outside small-rotation (linear) "
                     "beam theory",
              detail=f"largest rotation of a body's end slope against its start slope, {window}"),
        Check("conclusion: no constraint violation", "RANCF paper section 3: 'the method solves an ODE and "
              "avoids the constraint violation of a DAE'", value=joint_gap(chain, res.nodes) / L,
              unit="of L", source="measured",
              no_verdict="true by construction: in relative coordinates a body's first node is computed "
                         "from its parent's joint point, so there is no joint equation to violate; shown "
                         "beside the DAE's gap for contrast",
              detail=f"largest gap of a joint (duplicated joint nodes, pin) in the RK4 run, {window}; the "
                     f"index-3 DAE runs of the table hold their joints to {dae_gap:.2g} m"),
    ]
    return Outcome(
        tables={"energy": energy, "drift_by_integrator": drifts, "snapshots": pd.concat(shapes),
                "tip": pd.DataFrame({"t (s)": res.t, "x (m)": res.tip()[:, 0], "y (m)": res.tip()[:, 1]})},
        figures={"energy": fig_e, "tip": fig_t, "snapshots": fig_s},
        checks=checks,
        parameters={**REFERENCE, "E (Pa)": E, "dt (s)": DT, "t_end (s)": t_end,
                    "elastic models": ", ".join(MODELS), "converged reference": f"DOPRI5 rtol = atol = "
                    f"{REFERENCE_TOL:g} over {t_cmp:g} s ({ref_wall:.1f} s wall)"},
        assumptions=ASSUMPTIONS + [
            "The paper does not name its integrator (MATLAB, h = 1 ms): the figures use RK4 at h = 1 ms; the "
            "table adds DOPRI5, Newmark and generalized-alpha in both formulations and the other element models.",
            "Energy error is max |E_total(t) - E_total(0)| / max kinetic energy, sampled every step (the "
            "total starts at 0, so a relative measure needs a scale).",
            "Gravity energy is zero in the initial horizontal configuration.",
        ],
    )


CASE = Case(
    name="energy",
    title="Energy, tip and deformed shapes of the soft 5 x 5 pendulum (E = 21 MPa)",
    claim="With E = 21 MPa the chain deforms strongly (fig. 9-10); 'the total energy fluctuates in the order "
          "of 0.1 J ... a relative error of 0.01 %' (fig. 11); as an ODE, RANCF has no constraint violation.",
    claim_by="RANCF paper (Hu & Wang 2016)",
    run=run,
)
