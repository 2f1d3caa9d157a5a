"""
Choosing a step size by watching the energy balance
===================================================

The exact motion of a model without damping, forces or drives conserves
``kinetic + elastic + gravity``; what a run adds or loses is integration error. The energy
balance (:meth:`rancf.Result.energy`, ``total``) is therefore a free error indicator: halve
the step until its drift, relative to the largest kinetic energy
(:meth:`~rancf.Result.energy_drift`), is small enough for the purpose. With loads, drives and
damping the same balance holds with their work and dissipation included.

The model is the RANCF paper's 5 x 5 pendulum (E = 21 MPa) over 2 s.
"""

import matplotlib.pyplot as plt
import numpy as np

import rancf

model = rancf.pendulum()

# %%
# Explicit RK4 has a stability limit, ``2 sqrt(2) / omega_max``; rancf estimates the
# highest natural frequency before the run and refuses a larger step:

try:
    rancf.simulate(model, t_end=2.0, dt=1e-2, method="rk4")
except ValueError as exc:
    print(exc)

# %%
# Within the limit, RK4's energy drift falls at least as the fourth power of the step
# (about the fifth here). The implicit methods have no stability limit; their drift falls
# as the square of the step. Generalized-alpha at rho_inf = 0.9 damps the highest
# frequencies, Newmark (rho_inf = 1) none; on this soft chain, whose energy sits in its low
# modes, both drift alike. RK4 reaches a given drift with far fewer evaluations here; the
# implicit methods win where a stiff model's stability limit forces RK4's step down (see
# the user guide's page on integrators).

steps = {"rk4": [2e-3, 1e-3, 5e-4, 2.5e-4],
         "generalized-alpha": [1e-2, 5e-3, 2.5e-3, 1.25e-3],
         "newmark": [1e-2, 5e-3, 2.5e-3, 1.25e-3]}
drift, runs = {}, {}
for method, dts in steps.items():
    drift[method] = []
    for dt in dts:
        res = rancf.simulate(model, t_end=2.0, dt=dt, method=method,
                             output_every=max(1, int(round(0.01 / dt))))
        drift[method].append(res.energy_drift())
        runs[method, dt] = res
        print(f"{method:18s} dt = {dt:8.2e} s: drift {drift[method][-1]:.2e}, "
              f"{res.wall_time:.2f} s, {res.status}")

# generalized-alpha and Newmark drift alike, so their curves lie on each other: one is drawn
# wide with open squares, the other dashed with crosses on top of it
style = {"rk4": dict(marker="o"),
         "generalized-alpha": dict(marker="s", markersize=10, markerfacecolor="none",
                                   linewidth=4, alpha=0.5),
         "newmark": dict(marker="x", markersize=8, linestyle="--")}
fig, ax = plt.subplots(layout="constrained")
for method, dts in steps.items():
    ax.loglog(dts, drift[method], label=method, **style[method])
h = np.array([2.5e-4, 2e-3])
ax.loglog(h, 2e-5 * (h / 1e-3) ** 4, "k:", label="slope 4")
h = np.array([1.25e-3, 1e-2])
ax.loglog(h, 1e-3 * (h / 1e-2) ** 2, "k--", label="slope 2")
ax.set(xlabel="step (s)", ylabel="energy drift / max kinetic energy")
ax.legend()

# %%
# The energy balance over time at the two largest steps of each method.

fig, axes = plt.subplots(1, 3, figsize=(12, 3.6), layout="constrained", sharey=False)
for ax, method in zip(axes, steps):
    for dt in steps[method][:2]:
        e = runs[method, dt].energy()
        ax.plot(e.t, (e.total - e.total[0]) / e.kinetic.max(), label=f"dt = {dt:g} s")
    ax.set(xlabel="t (s)", title=method)
    ax.legend(fontsize="small")
axes[0].set_ylabel("(total - total(0)) / max kinetic")

# %%
# Rule of thumb: pick the largest step whose drift is well below the accuracy you need of
# the energies, then check a result of interest (here the tip) at half that step.

a, b = runs["generalized-alpha", 2.5e-3], runs["generalized-alpha", 1.25e-3]
print(f"tip difference between dt = 2.5 ms and 1.25 ms: "
      f"{np.abs(a.tip() - b.tip()).max():.3f} m (of a 25 m chain)")
