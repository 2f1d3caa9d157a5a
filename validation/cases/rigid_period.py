"""``rigid-period``: a bar pinned at one end, released horizontal, against the elliptic-integral period.

A uniform rigid bar of length L (thin rod: I_G = m L^2 / 12) pinned at one end and released at
rest in the horizontal swings through +-90 degrees with the period (CASES.md, "Mechanism cases")::

    T = 4 sqrt(I_O / (m g d)) K(1/2) = 4 sqrt(2 L / (3 g)) K(1/2),   I_O = m L^2 / 3, d = L / 2,

K the complete elliptic integral of the first kind at parameter m = 1/2 (amplitude pi/2:
m = sin^2(pi/4)); 1.933335, 2.117862, 2.734148 s for L = 1, 1.2, 2 m, recomputed here with
``scipy.special.ellipk``. The case runs the rigid body (rancf, recursive DOPRI5) and a very stiff
beam of the same mass and length (E = 2.1e13 Pa, rho = 7800 kg/m^3, 0.02 x 0.02 m, 4 elements,
implicit generalized-alpha) over two periods.

Period measurement: the times the bar's free end crosses x = 0 (the bar vertical), both
directions, by linear interpolation between outputs; they fall at T/4 + j T/2, so
``T = 2 (t_last - t_first) / (n - 1)``. Timing resolution: outputs every 1 ms (rigid) or every
step (beam), refined by the interpolation: at the vertical the bar's angular acceleration is
zero, so x'' = 0 there and the interpolation error is third order in the output step
(about theta'^2 dt^3 / 20, 1e-9 s at 1 ms).

Why the beam is not exactly rigid: its consistent mass matrix carries exactly the thin rod's
inertia (checked), so the mass distribution adds nothing (a real 0.02 m bar would swing slower
by s^2 / (8 L^2) = 5e-5 at L = 1 m for its section's rotary inertia, which neither the thin rod
nor the Euler-Bernoulli beam has); what remains is its flexibility (gravity and the swing's
inertia bend it, and the release excites its bending vibration), measured by a sweep in E, and
the integrator's time error.
"""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from scipy.special import ellipk

import rancf
from rancf.results import energies
from validation.case import Case, Check, Outcome, progress

G, RHO, SIDE, E_STIFF = 9.81, 7800.0, 0.02, 2.1e13  # m/s^2, kg/m^3, m, Pa
LENGTHS = (1.0, 1.2, 2.0)  # m
TABLE = {1.0: 1.933335, 1.2: 2.117862, 2.0: 2.734148}  # s, CASES.md
ELEMENTS = 4
RIGID_TOL = 1e-11  # DOPRI5 rtol = atol of the rigid body
RIGID_OUTPUT = 1e-3  # s
STEP = 1.25e-4  # s, the beam's step (full run)
STEPS = (1e-3, 5e-4, 2.5e-4, 1.25e-4)  # s, the beam's step study (full run)
MODULI = (2.1e10, 2.1e11, 2.1e12, 2.1e13)  # Pa, flexibility sweep at L = 2 m (full run)
NEWTON_TOL = 1e-13  # m, below the time error at the finest step


def elliptic_period(length: float) -> float:
    """T = 4 sqrt(2 L / (3 g)) K(m = 1/2) (s) of the bar released horizontal."""
    return float(4.0 * np.sqrt(2.0 * length / (3.0 * G)) * ellipk(0.5))


def crossings(t: np.ndarray, x: np.ndarray) -> np.ndarray:
    """Times (s) at which x changes sign, by linear interpolation between outputs."""
    k = np.flatnonzero(np.sign(x[:-1]) != np.sign(x[1:]))
    return t[k] - x[k] * (t[k + 1] - t[k]) / (x[k + 1] - x[k])


def period(t: np.ndarray, tip_x: np.ndarray) -> tuple[float, float]:
    """Period (s) from the crossings of the vertical (T/4 + j T/2) and the first crossing (s)."""
    c = crossings(t, tip_x)
    if len(c) < 2:
        raise RuntimeError(f"{len(c)} crossings of the vertical: the run is shorter than a period")
    return float(2.0 * (c[-1] - c[0]) / (len(c) - 1)), float(c[0])


def rigid_bar(length: float):
    """The uniform bar as a rigid body of the beam's mass, pinned at its left end."""
    mass = RHO * SIDE**2 * length
    m = rancf.Model(gravity=(0.0, -G))
    bar = m.add_rigid_body(mass, mass * length**2 / 12.0, position=(length / 2, 0.0))
    m.add_joint("revolute", m.ground.point(0.0, 0.0), bar.point(-length / 2, 0.0))
    return m, bar.point(length / 2, 0.0)


def stiff_beam(length: float, E: float = E_STIFF):
    m = rancf.Model(gravity=(0.0, -G))
    b = m.add_beam(length, ELEMENTS, E, RHO, SIDE**2, SIDE**4 / 12)
    m.add_joint("revolute", m.ground.point(0.0, 0.0), b.start)
    return m, b.end


def pivot_inertia(length: float) -> float:
    """Moment of inertia (kg m^2) about the pin of the beam's consistent mass: twice its kinetic
    energy in a rigid rotation at 1 rad/s about the pin (straight along +x: node velocities
    (0, x_i), slope rates (0, 1))."""
    m, _ = stiff_beam(length)
    A = m.build()
    nodes = A.x0.reshape(1, -1, A.node_size)
    velocities = np.zeros_like(nodes)
    velocities[0, :, 1] = nodes[0, :, 0]
    velocities[0, :, 3] = 1.0
    return float(2.0 * energies(A, nodes, velocities)[0, 0])


def run_rigid(length: float) -> tuple[float, float, np.ndarray, np.ndarray]:
    """Period (s), first crossing (s), output times (s) and free-end positions (n, 2) of the rigid bar."""
    m, tip = rigid_bar(length)
    T = elliptic_period(length)
    res = rancf.simulate(m, 2.0 * T, RIGID_OUTPUT, method="dopri5", rtol=RIGID_TOL, atol=RIGID_TOL, output_every=1)
    if res.status != "ok":
        raise RuntimeError(f"rigid bar L = {length:g} m: {res.status}: {res.message}")
    xy = res.position(tip)
    return (*period(res.t, xy[:, 0]), res.t, xy)


def run_beam(length: float, dt: float, E: float = E_STIFF) -> tuple[float, float, np.ndarray, np.ndarray]:
    """As :func:`run_rigid` for the beam at step dt (s) and modulus E (Pa)."""
    m, tip = stiff_beam(length, E)
    t_end = round(2.0 * elliptic_period(length) / dt) * dt
    res = rancf.simulate(m, t_end, dt, method="generalized-alpha", output_every=1, tol=NEWTON_TOL)
    if res.status != "ok":
        raise RuntimeError(f"beam L = {length:g} m, E = {E:g} Pa, h = {dt:g} s: {res.status}: {res.message}")
    xy = res.position(tip)
    return (*period(res.t, xy[:, 0]), res.t, xy)


def run(quick: bool) -> Outcome:
    step = 2 * STEP if quick else STEP
    steps = (step,) if quick else STEPS
    rows, shown = [], {}
    for length in LENGTHS:
        T = elliptic_period(length)
        mass = RHO * SIDE**2 * length
        progress(f"L = {length:g} m, rigid")
        T_rigid, first, *rigid = run_rigid(length)
        row = {"L (m)": length, "T elliptic (s)": T, "T CASES.md (s)": TABLE[length], "T rigid body (s)": T_rigid,
               "rigid: T / T_elliptic - 1": T_rigid / T - 1, "rigid: first crossing / (T/4) - 1": first / (T / 4) - 1,
               "beam I_O / (m L^2 / 3) - 1": pivot_inertia(length) / (mass * length**2 / 3) - 1}
        for dt in steps:
            progress(f"L = {length:g} m, beam, h = {dt:g} s")
            T_beam, _, *beam = run_beam(length, dt)
            row[f"beam h = {dt:g} s: T / T_elliptic - 1"] = T_beam / T - 1
        rows.append(row)
        shown[length] = (rigid, beam)
    periods = pd.DataFrame(rows)
    beam_dev = periods[f"beam h = {step:g} s: T / T_elliptic - 1"].to_numpy()
    rigid_dev = periods["rigid: T / T_elliptic - 1"].to_numpy()
    inertia_dev = periods["beam I_O / (m L^2 / 3) - 1"].to_numpy()
    table_dev = max(abs(elliptic_period(length) - TABLE[length]) for length in LENGTHS)

    sweep = None
    if not quick:
        sweep_rows = []
        for E in MODULI:
            progress(f"L = 2 m, beam, E = {E:.2g} Pa")
            T_beam = run_beam(2.0, step, E)[0]
            sweep_rows.append({"E (Pa)": E, "T / T_elliptic - 1": T_beam / elliptic_period(2.0) - 1})
        sweep = pd.DataFrame(sweep_rows)

    fig_a, axes = plt.subplots(len(LENGTHS), 1, figsize=(9, 8), sharex=True)
    for ax, length in zip(axes, LENGTHS):
        rigid, beam = shown[length]
        for (t, tip), style, label in ((rigid, "C0-", "rigid body"), (beam, "C1--", f"stiff beam, h = {step:g} s")):
            ax.plot(t, np.degrees(np.unwrap(np.arctan2(tip[:, 1], tip[:, 0]))), style, lw=1.2, label=label)
        T = elliptic_period(length)
        for j in range(4):
            ax.axvline(T / 4 + j * T / 2, color="k", lw=0.5, ls=":")
        ax.set(ylabel="bar angle (deg)", title=f"L = {length:g} m: T = {T:.6f} s (dotted: T/4 + j T/2)")
        ax.grid(alpha=0.3)
    axes[0].legend(fontsize=8)
    axes[-1].set_xlabel("t (s)")
    fig_a.tight_layout()

    fig_d, ax = plt.subplots(figsize=(8, 4.5))
    for length in LENGTHS:
        devs = [periods.loc[periods["L (m)"] == length, f"beam h = {dt:g} s: T / T_elliptic - 1"].iloc[0]
                for dt in steps]
        ax.loglog(steps, np.abs(devs), "o-", label=f"beam, L = {length:g} m")
    ax.set(xlabel="h (s)", ylabel="|T / T_elliptic - 1|",
           title=f"Stiff beam (E = {E_STIFF:.2g} Pa, {ELEMENTS} elements) against the rigid period")
    ax.grid(alpha=0.3, which="both")
    ax.legend(fontsize=8)
    figures = {"angle": fig_a, "beam_period": fig_d}
    if sweep is not None:
        fig_e, ax = plt.subplots(figsize=(7, 4.5))
        ax.loglog(sweep["E (Pa)"], np.abs(sweep["T / T_elliptic - 1"]), "o-")
        ax.set(xlabel="E (Pa)", ylabel="|T / T_elliptic - 1|", title=f"Beam of L = 2 m, h = {step:g} s")
        ax.grid(alpha=0.3, which="both")
        figures["flexibility"] = fig_e

    checks = [
        Check("CASES.md's periods", "CASES.md: T = 4 sqrt(2 L / (3 g)) K(1/2) = 1.933335, 2.117862, 2.734148 s "
              "(recomputed with scipy.special.ellipk)", value=table_dev, limit=5e-7, unit="s",
              source="independent reference: the table is printed to 6 decimals (rounding 5e-7 s)",
              detail=", ".join(f"L = {length:g} m: {elliptic_period(length):.9f} s" for length in LENGTHS)),
        Check("rigid body period", "a uniform rigid bar pinned at one end and released horizontal swings with "
              "T = 4 sqrt(I_O / (m g d)) K(1/2)", value=np.abs(rigid_dev).max(), limit=1e-9, unit="relative",
              source=f"rancf target: DOPRI5 at rtol = atol = {RIGID_TOL:g} and the crossings' interpolation "
                     "(third order at the vertical, ~1e-9 s at 1 ms) resolve T to ~1e-10; 1e-9",
              detail="max over L; " + ", ".join(f"L = {length:g} m: {d:.2g}" for length, d in zip(LENGTHS, rigid_dev))
                     + "; the first crossing falls at T/4 to "
                     + f"{periods['rigid: first crossing / (T/4) - 1'].abs().max():.2g} (relative)"),
        Check("beam carries the thin rod's inertia", "the consistent mass matrix of the ANCF beam gives the uniform "
              "thin rod's I_O = m L^2 / 3 for a rigid rotation (so mass distribution is no reason for a different "
              "period)", value=np.abs(inertia_dev).max(), limit=1e-13, unit="relative",
              source="rancf target: exact (cubic shape functions represent a rigid rotation of a straight beam); "
                     "1e-13 is round-off", detail="max over L of I_O(beam) / (m L^2 / 3) - 1"),
        Check("stiff beam approaches the rigid period", f"a very stiff beam (E = {E_STIFF:.2g} Pa, {ELEMENTS} "
              "elements) of the same mass and length swings with the rigid bar's period",
              value=np.abs(beam_dev).max(), limit=1e-6, unit="relative",
              source="rancf target: generalized-alpha's time error (second order, 3e-7 at h = 2.5e-4 s) plus the "
                     "flexibility (below 1e-7 at this modulus: the E sweep's 7e-6 at 2.1e11 Pa falls with E)",
              detail=f"max over L at h = {step:g} s; " + ", ".join(
                  f"L = {length:g} m: {d:.2g}" for length, d in zip(LENGTHS, beam_dev))),
    ]
    if sweep is not None:
        checks.append(Check(
            "flexibility: the period approaches the rigid one as E grows", "the beam's period deviation at L = 2 m "
            f"over E = {', '.join(f'{E:.2g}' for E in MODULI)} Pa (measured)",
            value=float(sweep["T / T_elliptic - 1"].iloc[1]), unit="relative", source="measured",
            detail="T / T_elliptic - 1 at " + ", ".join(f"{E:.2g} Pa: {d:.2g}" for E, d in
                                                        zip(sweep["E (Pa)"], sweep["T / T_elliptic - 1"]))
                   + f" (h = {step:g} s); not proportional to 1/E: the release excites the bending vibration, whose "
                     "coupling to the swing depends on the frequency ratio"))
    tables = {"periods": periods}
    if sweep is not None:
        tables["flexibility"] = sweep
    return Outcome(
        tables=tables, figures=figures, checks=checks,
        parameters={"g (m/s^2)": G, "rho (kg/m^3)": RHO, "section (m)": f"{SIDE:g} x {SIDE:g}",
                    "L (m)": ", ".join(f"{length:g}" for length in LENGTHS), "beam E (Pa)": E_STIFF,
                    "beam elements": ELEMENTS, "rigid body": f"recursive DOPRI5, rtol = atol = {RIGID_TOL:g}, "
                                                             f"outputs every {RIGID_OUTPUT:g} s",
                    "beam": f"generalized-alpha (rho_inf = 0.9), h = {', '.join(f'{s:g}' for s in steps)} s, "
                            f"Newton tol {NEWTON_TOL:g} m, outputs every step",
                    "run": "two periods"},
        assumptions=[
            "Thin rod: the rigid body's inertia is m L^2 / 12 about its centre, the formula's; the section's "
            "rotary inertia (m s^2 / 12) is left out, as the Euler-Bernoulli ANCF beam leaves it out.",
            "The period is measured from the crossings of the vertical by the bar's free end (module docstring); "
            "the release is at rest, horizontal, straight and unstressed (the beam starts to bend under gravity).",
        ] + (["Quick run: the beam at h = 2.5e-4 s only, no step study or E sweep."] if quick else []),
    )


CASE = Case(
    name="rigid-period",
    title="Pendulum period of a rigid bar and a very stiff beam against the elliptic integral",
    claim="A uniform bar pinned at one end and released horizontal swings with T = 4 sqrt(2L/(3g)) K(1/2); a very "
          "stiff beam of the same mass and length approaches that period.",
    run=run,
)
