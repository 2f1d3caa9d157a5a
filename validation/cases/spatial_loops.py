"""``spatial-loops``: the spherical four-bar on the spatial DAE, against its closed form and its
energy balance (issue 23).

The four-bar (:mod:`validation.spherical_four_bar`: arcs 70, 25, 60 and 55 degrees, a
crank-rocker on a sphere of radius 0.5 m, modelled R-S-U-R because four revolute joints through
one point give redundant rows) is driven through half a crank turn in 1 s from rest,
``theta = (pi / 2)(1 - cos(pi t))``. ``rancf.simulate`` with ``formulation="auto"`` runs it on
the spatial DAE (the model has a loop), Newmark, Newton tolerance 1e-11 m.

- Rigid links (three slender rods): the motion is kinematic, so the rocker's angle must follow
  the spherical Freudenstein relation to the constraint rows' residual (1e-9 rad), the loop
  close to the Newton tolerance, and the drive's work (integrated by the loop) equal the
  integral of its reaction moment times its rate (trapezoids at the outputs: 1e-3).
- Steel beams (one element a link, round section r = 1 cm), 0.2 s at 4 and 2 ms: kinetic +
  elastic + gravity - work constant to Newmark's second order (the largest change falls by
  about 4 when the step halves, and is below 1e-3 of the work at 2 ms), the rocker within the
  links' flexibility of the rigid closed form (a bound from the end slope of the longest link as
  a cantilever under its weight and inertia, fixed before the run).
"""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

import rancf
from validation.case import Case, Check, Outcome, progress
from validation.spherical_four_bar import SphericalFourBar

NEWTON_TOL = 1e-11  # m
RIGID_STEP = 2e-2   # s: the rigid motion is kinematic, the step does not enter its error
FLEX_END, FLEX_STEPS = 0.2, (4e-3, 2e-3)  # s


def rigid_run(fb):
    """The rigid four-bar over 1 s: (result, input joint, output joint, loop joint)."""
    m, j_in, j_out, loop = fb.rigid()
    res = rancf.simulate(m, 1.0, RIGID_STEP, method="newmark", output_every=1, tol=NEWTON_TOL)
    if res.status != "ok":
        raise RuntimeError(f"rigid four-bar: {res.status}: {res.message}")
    return res, j_in, j_out, loop


def flexible_runs(fb):
    """The steel four-bar over FLEX_END at each of FLEX_STEPS: [(dt, result)], its joints."""
    m, j_in, j_out, _ = fb.flexible()
    runs = []
    for dt in FLEX_STEPS:
        progress(f"steel four-bar, h = {dt:g} s")
        res = rancf.simulate(m, FLEX_END, dt, method="newmark",
                             output_every=int(round(0.02 / dt)), tol=NEWTON_TOL)
        if res.status != "ok":
            raise RuntimeError(f"steel four-bar, h = {dt:g} s: {res.status}: {res.message}")
        runs.append((dt, res))
    return runs, j_in, j_out


def flexibility_bound(fb):
    """rad: three times the end slope ``q L^3 / (6 E I)`` of the longest link as a cantilever
    under ``q = rho A (g + R (w^2 + w'))``, the crank's largest rate and acceleration."""
    A, I = np.pi * fb.r ** 2, np.pi * fb.r ** 4 / 4
    L = max(np.linalg.norm(fb.P[q] - fb.P[p]) for p, q in ("AB", "BC", "DC"))
    q = fb.rho * A * (9.81 + fb.R * ((np.pi ** 2 / 2) ** 2 + np.pi ** 3 / 2))
    return 3 * q * L ** 3 / (6 * fb.E * I)


def run(quick: bool) -> Outcome:
    fb = SphericalFourBar()
    progress("rigid four-bar")
    res, j_in, j_out, loop = rigid_run(fb)
    theta, phi = res.joint(j_in)[0], res.joint(j_out)[0]
    closed = fb.output(theta)
    rate = fb.drive(res.t)[1]
    power = (res.reaction(j_in)[:, 3:] @ fb.uA) * rate
    work_integral = float(np.trapezoid(power, res.t))
    work_loop = float(res.energy().work.iloc[-1])
    rigid_err = float(np.abs(phi - closed).max())
    closure = float(np.abs(res.extra["constraint_violation"][:, 0]).max())

    runs, f_in, f_out = flexible_runs(fb)
    bound = flexibility_bound(fb)
    rows = []
    for dt, r in runs:
        e = r.energy()
        th, ph = r.joint(f_in)[0], r.joint(f_out)[0]
        rows.append({"h (s)": dt, "steps": int(round(FLEX_END / dt)),
                     "drive work (J)": float(e.work.iloc[-1]),
                     "largest elastic energy (J)": float(e.elastic.max()),
                     "energy drift / work": float(np.abs(e.total - e.total.iloc[0]).max()
                                                  / e.work.iloc[-1]),
                     "output - closed form, max (rad)": float(np.abs(ph - fb.output(th)).max()),
                     "loop closure, max (m)": float(np.abs(
                         r.extra["constraint_violation"][:, 0]).max()),
                     "Newton iterations per step": float(r.stats["newton_iterations"]
                                                         / max(r.stats["steps"], 1)),
                     "wall time (s)": r.wall_time})
    flex = pd.DataFrame(rows)
    drift = flex["energy drift / work"].to_numpy()
    rigid_table = pd.DataFrame({"t (s)": res.t, "input (rad)": theta, "output (rad)": phi,
                                "closed form (rad)": closed, "output - closed form (rad)":
                                phi - closed})

    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    axes[0].plot(np.degrees(theta), np.degrees(closed), "k-", lw=2, label="closed form")
    axes[0].plot(np.degrees(theta), np.degrees(phi), "C1--", label="rancf, rigid links")
    for dt, r in runs[-1:]:
        axes[0].plot(np.degrees(r.joint(f_in)[0]), np.degrees(r.joint(f_out)[0]), "C2o", ms=4,
                     label=f"rancf, steel beams, h = {dt:g} s")
    axes[0].set(xlabel="crank angle (deg)", ylabel="rocker angle (deg)",
                title="Spherical four-bar: input-output")
    axes[0].legend(fontsize=8)
    for dt, r in runs:
        e = r.energy()
        axes[1].plot(e.t, (e.total - e.total.iloc[0]) / e.work.iloc[-1], label=f"h = {dt:g} s")
    axes[1].set(xlabel="t (s)", ylabel="(E - E(0)) / drive work",
                title="Steel four-bar: energy balance (Newmark)")
    axes[1].legend(fontsize=8)
    for ax in axes:
        ax.grid(alpha=0.3)
    fig.tight_layout()

    checks = [
        Check("rigid output follows the closed form",
              "The rigid spherical four-bar's rocker angle follows the spherical Freudenstein "
              "relation P cos phi + S sin phi = C (validation/spherical_four_bar.py) over half a "
              "crank turn", value=rigid_err, limit=1e-9, unit="rad",
              source="independent reference: the closed-form input-output relation"),
        Check("rigid loop closure", "The loop's constraint rows hold to the Newton tolerance "
              f"({NEWTON_TOL:g} m) at every output", value=closure, limit=1e-10, unit="m",
              source="rancf target: ten times the Newton tolerance"),
        Check("drive work", "The drive's work integrated by the loop (lambda . Phi_t, "
              "trapezoidal) equals the integral of its reaction moment times its rate over the "
              "outputs", value=abs(work_loop - work_integral) / work_integral, limit=1e-3,
              source="independent reference: the reaction moment along the axis times the "
              "prescribed rate, integrated (trapezoids at the 0.02 s outputs: 1e-3)"),
        Check("steel four-bar energy balance", "Kinetic + elastic + gravity - the drive's work "
              f"stays within 1e-3 of the work at h = {FLEX_STEPS[-1]:g} s (Newmark)",
              value=float(drift[-1]), limit=1e-3,
              source="rancf target: a conservation law, to the scheme's accuracy"),
        Check("steel four-bar energy order", "The largest energy change falls by about 4 when "
              "the step halves (Newmark is second order)", value=float(drift[0] / drift[1]),
              limit=3.4, comparison=">=", source="independent reference: the scheme's order"),
        Check("steel four-bar near the closed form", "The steel four-bar's rocker stays within "
              "the links' flexibility of the rigid closed form (a bound from the longest link's "
              "end slope as a cantilever, fixed before the run)",
              value=float(flex["output - closed form, max (rad)"].max()), limit=bound,
              unit="rad", source="independent reference: beam theory's end slope"),
    ]
    return Outcome(tables={"steel_four_bar": flex, "rigid_four_bar": rigid_table},
                   figures={"four_bar": fig}, checks=checks,
                   parameters={"arcs (deg)": "70, 25, 60, 55", "sphere radius (m)": fb.R,
                               "rigid step (s)": RIGID_STEP, "steel steps (s)": FLEX_STEPS,
                               "Newton tolerance (m)": NEWTON_TOL, "quick": quick},
                   assumptions=["R-S-U-R model of the spherical four-bar: four revolute joints "
                                "through one point have three redundant rows, which the DAE's "
                                "saddle-point matrix cannot take; the spherical and universal "
                                "joints at B and C give the same motion with 17 independent "
                                "rows.", "The quick run is the full run (under a minute)."])


CASE = Case(
    name="spatial-loops",
    title="Spherical four-bar on the spatial DAE",
    claim="A spatial closed loop runs on the absolute-coordinate DAE through rancf.simulate: "
          "the rigid four-bar follows its closed form, the loop holds, the drive's work and the "
          "energy balance close.",
    run=run,
)
