"""``spin-up``: Simo and Vu-Quoc's spin-up beam, a driven hub spinning a clamped beam.

A beam of L = 10 m (EA = 2.8e7 N, EI = 1.4e4 N m^2, rho A = 1.2 kg/m; no gravity) is clamped
to a hub at the origin whose angle is prescribed (CASES.md, "Mechanism cases")::

    theta(t) = (w / T) (t^2 / 2 + (T / 2 pi)^2 (cos(2 pi t / T) - 1))   for t < T,
    theta(t) = w (t - T / 2)                                           after,   w = 6 rad/s, T = 15 s.

The beam lags behind the accelerating hub, bends, and after the spin-up swings back to a
small free vibration about the straight, centrifugally stretched beam. Measured: the tip
deflection across the arm in the frame turning with the hub, 0-20 s, with the DAE
(generalized-alpha) and the recursive formulation (explicit RK4 below its stability limit in the
full run, implicit generalized-alpha in the quick one) from the same initial state (the drive
starts at rest: theta'(0) = 0, theory: Assembly and the initial state), mesh and step convergence,
the steady stretch ``rho A w^2 L^3 / (3 EA)`` (linear theory of the rotating bar), the frequency of
the free vibration (the first lead-lag mode of the spinning beam, by Ritz) and the energy balance
``kinetic + elastic - work of the drive``. Simo and Vu-Quoc's figure (1986) is not quoted: no
number from it could be cited, so the peak is reported without a paper's verdict.
"""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from scipy.integrate import simpson
from scipy.linalg import eigh
from scipy.optimize import brentq

import rancf
from validation.case import Case, Check, Outcome, progress
from validation.pendulum import rk4_step

L, EA, EI, RHO_A = 10.0, 2.8e7, 1.4e4, 1.2  # m, N, N m^2, kg/m
RHO = 7800.0  # kg/m^3: any density; A = rho A / rho, E = EA / A, I = EI / E
W, T_SPIN = 6.0, 15.0  # rad/s, s
T_END = 20.0  # s
H = 1e-3  # s, the case's step
OUTPUT_DT = 2e-2  # s, a multiple of every step used
ELEMENTS = 8  # the mesh of the side-by-side runs
#: Newton's tolerance of the full run (m on the position increment, m/s on the velocity increment
#: or its estimated error), below the time error at h / 8 (the quick run, whose finest step is h,
#: keeps the default 1e-10)
NEWTON_TOL = 1e-12
SETTLED = 16.0  # s: the steady state is measured from 1 s after the spin-up ends
STRETCH = RHO_A * W**2 * L**3 / (3 * EA)  # m, 5.14e-4
LAG_MODES = 8  # clamped-free modes of the Ritz reference (4.5126 rad/s, converged to 1e-5)
OMEGA_0 = 1.8751040687119611**2 * np.sqrt(EI / (RHO_A * L**4))  # rad/s, first bending mode at rest


def clamped_free_modes(n_modes: int, s: np.ndarray):
    """Wavenumbers b_i (cos b cosh b = -1) and modes phi_i(s), dphi_i/ds (s = x / L) of a
    clamped-free beam, (n_modes,), (n_modes, len(s)) twice; written with 1 - sigma computed without
    cancellation, so that high modes keep their digits."""
    bs = np.array([brentq(lambda b: np.cos(b) * np.cosh(b) + 1.0, (i + 0.5) * np.pi - 1.0,
                          (i + 0.5) * np.pi + 1.0) for i in range(n_modes)])
    phi, dphi = [], []
    for b in bs:
        one_minus = (np.sin(b) - np.cos(b) - np.exp(-b)) / (np.sinh(b) + np.sin(b))  # 1 - sigma
        sigma = 1.0 - one_minus  # (cosh b + cos b) / (sinh b + sin b)
        grow, decay = np.exp(b * s), np.exp(-b * s)
        # cosh - sigma sinh and sinh - sigma cosh of b s, as exponentials
        phi.append((one_minus * grow + (1 + sigma) * decay) / 2 - np.cos(b * s) + sigma * np.sin(b * s))
        dphi.append(b * ((one_minus * grow - (1 + sigma) * decay) / 2 + np.sin(b * s) + sigma * np.cos(b * s)))
    return bs, np.array(phi), np.array(dphi)


def lead_lag_frequency(n_modes: int = LAG_MODES) -> float:
    """First in-plane (lead-lag) natural frequency (rad/s) of the beam spinning steadily at W.

    Linear theory in the frame turning with the hub, deflection v(x) across the arm::

        EI v'''' - (N v')' - rho A W^2 v = rho A omega^2 v,    N = rho A W^2 (L^2 - x^2) / 2,

    clamped at the hub, free at the tip; ``-rho A W^2 v`` is the in-plane centrifugal softening,
    the Coriolis coupling to the stiff axial motion is left out. Ritz with ``n_modes``
    clamped-free modes; one mode is Southwell's estimate ``omega_0^2 + (1.193 - 1) W^2``
    (4.624 rad/s, 2.5 % high), eight give 4.5126 rad/s.
    """
    s = np.linspace(0.0, 1.0, 4001)
    bs, phi, dphi = clamped_free_modes(n_modes, s)
    mass = RHO_A * L * simpson(phi[:, None] * phi[None], x=s)
    bending = EI / L**3 * np.diag(bs**4 * simpson(phi**2, x=s))  # the modes are orthogonal
    tension = RHO_A * W**2 * L * simpson((1 - s**2) / 2 * dphi[:, None] * dphi[None], x=s)
    return float(np.sqrt(eigh(bending + tension - W**2 * mass, mass, eigvals_only=True)[0]))


def hub(t: float) -> tuple[float, float, float]:
    """Hub angle (rad), rate (rad/s) and acceleration (rad/s^2) at time t (s)."""
    if t < T_SPIN:
        c = T_SPIN / (2 * np.pi)
        return (W / T_SPIN * (t**2 / 2 + c**2 * (np.cos(t / c) - 1)), W / T_SPIN * (t - c * np.sin(t / c)),
                W / T_SPIN * (1 - np.cos(t / c)))
    return W * (t - T_SPIN / 2), W, 0.0


def spin_up_beam(n_elements: int) -> rancf.Model:
    """The beam clamped to the driven hub (a beam on a driven revolute joint turns with q(t))."""
    m = rancf.Model(gravity=(0.0, 0.0), elastic_model="reissner")
    A = RHO_A / RHO
    E = EA / A
    beam = m.add_beam(L, n_elements, E, RHO, A, EI / E)
    m.add_joint("revolute", m.ground.point(0.0, 0.0), beam.start, drive=hub)
    return m


def hub_frame(res) -> tuple[np.ndarray, np.ndarray]:
    """Tip deflection across the arm and tip radius minus L (m), in the frame turning with the hub."""
    theta = np.array([hub(t)[0] for t in res.t])
    tip = res.tip()
    c, s = np.cos(theta), np.sin(theta)
    return -tip[:, 0] * s + tip[:, 1] * c, tip[:, 0] * c + tip[:, 1] * s - L


def simulate(n_elements: int, dt: float, **kwargs):
    res = rancf.simulate(spin_up_beam(n_elements), T_END, dt, output_every=int(round(OUTPUT_DT / dt)), **kwargs)
    if res.status != "ok":
        raise RuntimeError(f"{n_elements} elements, dt = {dt:g} s, {kwargs}: {res.status}: {res.message}")
    return res


def dae(n_elements: int, dt: float, tol: float):
    """The DAE formulation, generalized-alpha (rho_inf = 0.9), at step dt, Newton tolerance tol (m)."""
    return simulate(n_elements, dt, method="generalized-alpha", formulation="dae", tol=tol)


def lag_frequency(t: np.ndarray, across: np.ndarray) -> float:
    """Angular frequency (rad/s) of the free vibration from its upward zero crossings about its
    mean (linear interpolation between outputs)."""
    a = across - across.mean()
    k = np.flatnonzero((a[:-1] < 0) & (a[1:] >= 0))
    crossings = t[k] - a[k] * (t[k + 1] - t[k]) / (a[k + 1] - a[k])
    return float(2 * np.pi * (len(crossings) - 1) / (crossings[-1] - crossings[0]))


def balance_rate(res) -> float:
    """Mean rate (J/s) of the energy balance kinetic + elastic - work once the hub turns steadily."""
    e = res.energy()
    late = e["t"] >= SETTLED - 1e-9
    return float(np.polyfit(e["t"][late], e["total"][late], 1)[0])


def summary(label: str, res) -> dict:
    across, radial = hub_frame(res)
    late = res.t >= SETTLED - 1e-9
    i = int(np.argmin(across))
    return {"run": label, "status": res.status, "peak deflection (m)": across[i], "at t (s)": res.t[i],
            f"mean stretch, t >= {SETTLED:g} s (m)": radial[late].mean(),
            f"max |deflection|, t >= {SETTLED:g} s (m)": np.abs(across[late]).max(),
            "energy drift": res.energy_drift(), "steps": res.stats["steps"], "wall time (s)": res.wall_time}


def run(quick: bool) -> Outcome:
    meshes = (4, 8, 16) if quick else (4, 8, 16, 32)
    steps = (4 * H, 2 * H, H) if quick else (H, H / 2, H / 4, H / 8)
    tol = 1e-10 if quick else NEWTON_TOL
    by_step = {}
    for dt in steps:
        progress(f"DAE, {ELEMENTS} elements, h = {dt:g} s")
        by_step[dt] = dae(ELEMENTS, dt, tol)
    main = by_step[H]
    by_mesh = {}
    for n in meshes:
        progress(f"DAE, {n} elements, h = {H:g} s")
        by_mesh[n] = main if n == ELEMENTS else dae(n, H, tol)
    progress("recursive, implicit generalized-alpha")
    rec_implicit = simulate(ELEMENTS, H, method="generalized-alpha", formulation="recursive")
    if quick:
        rec, rec_label = rec_implicit, f"recursive generalized-alpha h = {H:g} s"
    else:
        dt_rk4 = rk4_step(spin_up_beam(ELEMENTS), OUTPUT_DT)
        progress(f"recursive RK4, h = {dt_rk4:.3g} s")
        rec, rec_label = simulate(ELEMENTS, dt_rk4, method="rk4", formulation="recursive"), \
            f"recursive RK4 h = {dt_rk4:.3g} s"

    t = main.t
    across = {dt: hub_frame(r)[0] for dt, r in by_step.items()}
    across_mesh = {n: hub_frame(r)[0] for n, r in by_mesh.items()}
    a_main, radial = hub_frame(main)
    a_rec, radial_rec = hub_frame(rec)
    a_rec_implicit = hub_frame(rec_implicit)[0]
    late = t >= SETTLED - 1e-9
    peak = float(a_main.min())

    step_diff = [np.abs(across[a] - across[b]).max() for a, b in zip(steps[:-1], steps[1:])]
    step_order = float(np.log2(step_diff[-2] / step_diff[-1]))
    mesh_diff = [np.abs(across_mesh[a] - across_mesh[b]).max() for a, b in zip(meshes[:-1], meshes[1:])]
    mesh_order = float(np.log2(mesh_diff[-2] / mesh_diff[-1]))
    # DAE time error at h by Richardson from the two finest steps (second order)
    finest = across[steps[-1]] + (across[steps[-1]] - across[steps[-2]]) / 3.0
    dae_error = np.abs(a_main - finest).max()
    gap_same_scheme = np.abs(a_rec_implicit - a_main).max()
    start_gap = max(np.abs(main.velocities[0]).max(), np.abs(rec.velocities[0]).max(),
                    np.abs(main.nodes[0] - rec.nodes[0]).max())
    stretch = float(radial[late].mean())
    residual = float(np.abs(a_main[late]).max())
    free = a_main[late] - a_main[late].mean()
    half = len(free) // 2
    decay = float(np.abs(free[half:]).max() / np.abs(free[:half]).max())
    omega = lag_frequency(t[late], a_main[late])
    omega_ref, omega_southwell = lead_lag_frequency(), lead_lag_frequency(1)
    drifts = [by_step[dt].energy_drift() for dt in steps]
    energy = main.energy()
    energy_rec = rec.energy()

    runs = pd.DataFrame([summary(f"DAE generalized-alpha, {ELEMENTS} elements, h = {dt:g} s", r)
                         for dt, r in by_step.items()]
                        + [summary(f"DAE generalized-alpha, {n} elements, h = {H:g} s", r)
                           for n, r in by_mesh.items() if n != ELEMENTS]
                        + [summary(f"recursive generalized-alpha, {ELEMENTS} elements, h = {H:g} s", rec_implicit)]
                        + ([] if quick else [summary(f"{rec_label}, {ELEMENTS} elements", rec)]))
    convergence = pd.DataFrame(
        [{"study": "step", "from": f"h = {a:g} s", "to": f"h = {b:g} s", "max |delta deflection| (m)": d}
         for a, b, d in zip(steps[:-1], steps[1:], step_diff)]
        + [{"study": "mesh", "from": f"{a} elements", "to": f"{b} elements", "max |delta deflection| (m)": d}
           for a, b, d in zip(meshes[:-1], meshes[1:], mesh_diff)])
    history = pd.DataFrame({"t (s)": t, "hub angle (rad)": [hub(x)[0] for x in t],
                            f"deflection DAE h = {H:g} (m)": a_main, f"deflection {rec_label} (m)": a_rec,
                            "stretch DAE (m)": radial, f"stretch {rec_label} (m)": radial_rec,
                            **{f"deflection DAE {n} elements (m)": a for n, a in across_mesh.items() if n != ELEMENTS}})

    fig_d, axes = plt.subplots(2, 1, figsize=(9, 7), sharex=True, gridspec_kw={"height_ratios": [2, 1]})
    axes[0].plot(t, a_main, "C0-", lw=2, label=f"DAE generalized-alpha, h = {H:g} s")
    axes[0].plot(t, a_rec, "C1--", lw=1.2, label=rec_label)
    axes[0].plot(t, across_mesh[meshes[0]], "C2:", lw=1, label=f"DAE, {meshes[0]} elements")
    axes[0].set(ylabel="tip deflection across the arm (m)",
                title=f"Spin-up beam, {ELEMENTS} elements, Reissner model, hub frame")
    axes[0].legend(fontsize=8)
    axes[1].semilogy(t, np.abs(a_rec - a_main) + 1e-12, "C1-", lw=1, label=f"|{rec_label} - DAE|")
    axes[1].semilogy(t, np.abs(a_main - finest) + 1e-12, "k-", lw=0.8, label="DAE time error (Richardson)")
    axes[1].set(xlabel="t (s)", ylabel="difference (m)")
    axes[1].legend(fontsize=8)
    for ax in axes:
        ax.grid(alpha=0.3)

    fig_s, axes = plt.subplots(1, 2, figsize=(12, 4))
    axes[0].plot(t, 1e3 * radial, "C0-", lw=1, label="DAE")
    axes[0].axhline(1e3 * STRETCH, color="k", ls="--", lw=0.8, label="rho A w^2 L^3 / (3 EA)")
    axes[0].set(xlabel="t (s)", ylabel="tip radius - L (mm)", title="Axial stretch")
    axes[0].legend(fontsize=8)
    axes[1].plot(t[late], 1e3 * a_main[late], "C0-", lw=1)
    axes[1].set(xlabel="t (s)", ylabel="deflection (mm)",
                title=f"Free vibration after the spin-up: {omega:.4f} rad/s (linear theory {omega_ref:.4f})")
    for ax in axes:
        ax.grid(alpha=0.3)
    fig_s.tight_layout()

    fig_c, axes = plt.subplots(1, 2, figsize=(12, 4))
    axes[0].loglog(steps[1:], step_diff, "o-")
    axes[0].set(xlabel="h (s)", ylabel="max |a_h - a_2h| (m)", title="Step convergence (DAE)")
    axes[1].loglog(meshes[1:], mesh_diff, "o-")
    axes[1].set(xlabel="elements", ylabel="max |a_n - a_n/2| (m)", title=f"Mesh convergence (h = {H:g} s)")
    for ax in axes:
        ax.grid(alpha=0.3, which="both")
    fig_c.tight_layout()

    fig_e, axes = plt.subplots(3, 1, figsize=(9, 8), sharex=True)
    axes[0].plot(energy["t"], energy["kinetic"], "C0-", label="kinetic")
    axes[0].plot(energy["t"], energy["work"], "C2--", label="work of the drive")
    axes[1].plot(energy["t"], energy["elastic"], "C1-", label="elastic")
    axes[2].plot(energy["t"], energy["total"] - energy["total"].iloc[0], "k-", lw=1, label=f"DAE, h = {H:g} s")
    axes[2].plot(energy_rec["t"], energy_rec["total"] - energy_rec["total"].iloc[0], "C3--", lw=1, label=rec_label)
    axes[0].set(ylabel="energy (J)", title="Energy balance (work: the drive's)")
    axes[1].set(ylabel="energy (J)")
    axes[2].set(xlabel="t (s)", ylabel="kinetic + elastic - work (J)")
    for ax in axes:
        ax.legend(fontsize=8)
        ax.grid(alpha=0.3)

    settled = f"t >= {SETTLED:g} s"
    checks = [
        Check("same initial state", "the drive starts at rest (theta'(0) = 0), so the recursive and the DAE "
              "formulations start from the same state: the straight beam at rest (theory: Assembly and the initial state)", value=start_gap,
              limit=0.0, unit="m or m/s", source="rancf target: theory: Assembly and the initial state, exactly (no drive rate at t = 0)",
              detail="max of |v(0)| of both runs and |x_DAE(0) - x_recursive(0)|"),
        Check("recursive vs DAE, same scheme and step", "the recursive and the DAE formulations, both with "
              f"generalized-alpha at h = {H:g} s, give the same tip deflection", value=gap_same_scheme / L, limit=1e-6,
              unit="of L", source="rancf target: two second-order discretizations of one motion differ by at most "
                                  "their time errors (the DAE's is 8.9e-7 L at this step, step study)",
              detail=f"max over 0-{T_END:g} s, {ELEMENTS} elements; the DAE's own time error at h (Richardson from "
                     f"h = {steps[-2]:g}, {steps[-1]:g} s) is {dae_error:.2g} m"),
        Check("step convergence", "the DAE with generalized-alpha converges at second order in h (constant mass "
              "matrix)", value=step_order, limit=1.8, comparison=">=", unit="order",
              source="rancf target: second order; 1.8 allows for the pre-asymptotic range",
              detail="max over t of the deflection change per halving: " + ", ".join(f"{d:.3g}" for d in step_diff)
                     + " m"),
        Check("mesh convergence", "the deflection history converges with the mesh", value=mesh_order, limit=3.0,
              comparison=">=", unit="order",
              source="rancf target: cubic Hermite elements (fourth order in statics, cantilever case); 3 allows "
                     "for the time error common to the meshes",
              detail="max over t of the deflection change per mesh doubling: "
                     + ", ".join(f"{a}->{b}: {d:.3g} m" for a, b, d in zip(meshes[:-1], meshes[1:], mesh_diff))),
        Check("steady axial stretch", "CASES.md: 'after spin-up the axial stretch approaches rho A w^2 L^3 / (3 EA) "
              "= 5.14e-4 m'", value=stretch / STRETCH - 1.0, limit=(-0.005, 0.005), comparison="within",
              unit="relative", source="independent reference: the linear theory of the spinning bar, exact to terms "
                                      "of order of the strain (5e-5); 0.5 % allows for the axial vibration's mean "
                                      "over a finite window",
              detail=f"mean tip radius - L over {settled}: {stretch:.5g} m against {STRETCH:.5g} m"),
        Check("deflection returns close to zero", "CASES.md: 'the deflection returns close to zero, leaving a "
              "small free vibration'", value=residual / abs(peak), limit=0.05, unit="of the peak",
              source="rancf target: 'close to zero' read as within 5 % of the peak deflection",
              detail=f"max |deflection| over {settled}: {residual * 1e3:.3g} mm, peak {peak:.4g} m, mean "
                     f"{a_main[late].mean() * 1e3:.3g} mm"),
        Check("free vibration does not decay", "CASES.md: 'undamped, so it does not decay'", value=decay,
              limit=0.95, comparison=">=", unit="amplitude ratio",
              source="rancf target: no material damping; generalized-alpha's numerical damping at omega h = 0.005 "
                     "is negligible over 4 s",
              detail=f"max |deflection - mean| over the second half of {settled} over that of the first half"),
        Check("free vibration frequency", "the free vibration is the first lead-lag mode of the beam spinning at "
              "w (linear theory: centrifugal stiffening and in-plane softening)", value=omega / omega_ref - 1.0,
              limit=(-0.003, 0.003), comparison="within", unit="relative",
              source=f"independent reference: Ritz with {LAG_MODES} clamped-free modes (lead_lag_frequency); 0.3 % "
                     "allows for the higher modes' share in the zero crossings counted over 4 s",
              detail=f"{omega:.4f} rad/s from zero crossings over {settled} against {omega_ref:.4f} rad/s "
                     f"(omega_0 = {OMEGA_0:.4f} rad/s at rest; Southwell's one-mode estimate {omega_southwell:.4f})"),
        Check("energy balance, DAE", "kinetic + elastic - work of the drive is conserved; generalized-alpha's "
              "error falls at second order: drift at h over drift at h/2", value=drifts[0] / drifts[1], limit=3.5,
              comparison=">=", unit="ratio per halving",
              source="rancf target: second order gives 4; 3.5 allows for the pre-asymptotic range",
              detail="max |balance - balance(0)| / max kinetic energy: " + ", ".join(
                  f"{d:.3g} at h = {dt:g} s" for d, dt in zip(drifts, steps))
                     + f"; max kinetic {energy['kinetic'].max():.4g} J, drive's work {energy['work'].iloc[-1]:.4g} J"),
        Check("energy balance, implicit recursion", "kinetic + elastic - work of the drive with the recursive "
              f"formulation, generalized-alpha at h = {H:g} s (measured beside the DAE's)",
              value=rec_implicit.energy_drift(), unit="of max kinetic", source="measured",
              detail=f"the balance's drift rate over {settled}: implicit recursion {balance_rate(rec_implicit):.3g} "
                     f"J/s, DAE {balance_rate(main):.3g} J/s, at positions within {gap_same_scheme:.2g} m of each "
                     "other"),
        Check("peak deflection", "the tip lags behind the hub during the spin-up (Simo and Vu-Quoc 1986 plot it; no "
              "number from their figure is quoted here)", value=peak, unit="m", source="measured",
              detail=f"at t = {t[int(np.argmin(a_main))]:.2f} s, DAE, {ELEMENTS} elements, h = {H:g} s; "
                     + ", ".join(f"{n} elements: {a.min():.5f} m" for n, a in across_mesh.items())),
    ]
    if not quick:
        converged_gap = np.abs(a_rec - finest).max()
        checks.append(Check(
            "recursive vs DAE, converged", f"the explicit recursion ({rec_label}) and the DAE converged in time "
            f"(Richardson from h = {steps[-2]:g}, {steps[-1]:g} s) give the same motion", value=converged_gap / L,
            limit=1e-9, unit="of L", source="rancf target: a hundredth of the 1e-7 L (developer: Tolerances of the cross-checks) for converged "
                                            "trajectories: RK4's error at its step is far below, and Richardson "
                                            "leaves the DAE a third-order error",
            detail=f"max over 0-{T_END:g} s of the tip deflection, {ELEMENTS} elements; against the DAE at "
                   f"h = {H:g} s alone {np.abs(a_rec - a_main).max():.2g} m (its time error)"))
        checks.append(Check(
            "energy balance, recursive RK4", "kinetic + elastic - work of the drive is conserved by the explicit "
            "recursion below its stability limit", value=rec.energy_drift(), limit=1e-10, unit="of max kinetic",
            source="rancf target: the axial mode's stability limit puts RK4's step 3e4 times below the bending "
                   "periods, where its energy error is near round-off; 1e-10 leaves room for the trapezoidal "
                   "rule's error in the drive's work",
            detail=f"max |balance - balance(0)| / max kinetic over 0-{T_END:g} s"))
    return Outcome(
        tables={"history": history, "runs": runs, "convergence": convergence, "energy": energy},
        figures={"deflection": fig_d, "stretch_and_vibration": fig_s, "convergence": fig_c, "energy": fig_e},
        checks=checks,
        parameters={"L (m)": L, "EA (N)": EA, "EI (N m^2)": EI, "rho A (kg/m)": RHO_A, "w (rad/s)": W,
                    "T (s)": T_SPIN, "t_end (s)": T_END, "h (s)": H, "output step (s)": OUTPUT_DT,
                    "elements": f"{ELEMENTS} (meshes {', '.join(map(str, meshes))})",
                    "steps (s)": ", ".join(f"{s:g}" for s in steps), "elastic model": "reissner",
                    "DAE": "generalized-alpha, rho_inf = 0.9, sparse", "recursive": rec_label,
                    "expected stretch (m)": STRETCH, "lead-lag frequency, linear theory (rad/s)": omega_ref},
        assumptions=[
            "The beam is built from E, A, I with rho = 7800 kg/m^3 so that EA, EI and rho A are the paper's; the "
            "Reissner elastic model (axial strain |r'| - 1, bending strain dtheta/dS), the exact strain measures "
            "for large rotations.",
            "The hub is the drive of a revolute joint: the beam's first slope turns with theta(t) (a clamp on a "
            "hub without inertia); theta'(0) = 0, so both formulations start at rest.",
            "Tip deflection and stretch are the tip position in the frame turning with theta(t).",
            "No number from Simo and Vu-Quoc's figure is quoted (none could be cited), so the checks are "
            "convergence, agreement of the formulations, the steady stretch, the free vibration and the energy "
            "balance.",
        ] + ([] if not quick else ["Quick run: meshes up to 16 elements, the step study at 4h, 2h, h, and the "
                                   "implicit recursion in place of RK4 (which takes about half a minute)."]),
    )


CASE = Case(
    name="spin-up",
    title="Spin-up beam (Simo and Vu-Quoc): driven hub, recursive and DAE",
    claim="A beam clamped to a driven hub spun up to 6 rad/s in 15 s lags, swings back and settles to a small free "
          "vibration about the centrifugally stretched straight beam; the recursive and DAE formulations agree and "
          "converge in mesh and step.",
    run=run,
)
