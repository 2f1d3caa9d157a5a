"""
Adaptive modal reduction against the full model
===============================================

The adaptive modal method of Liu et al. (2023): each beam's interior coordinates are
replaced by its Craig-Bampton modes (fixed-interface normal modes plus constraint modes),
and at every step a greedy Gauss-Newton solver picks the few modes that matter (at most
``sparsity``) from a sample of the equations (``n_samples`` interior equations, drawn by
Latin hypercube). :func:`rancf.reduce` builds the reduced model; ``rancf.simulate`` runs it
with the method's backward Euler.

The case is the free-falling flexible pendulum of the paper, with 40 elements instead of
160 (164 coordinates, 160 of them interior) and 0.8 s instead of 1.1 s, to stay within the
gallery's time budget.

What to expect here: the reduced model follows the full one to millimetres when enough
modes and samples are kept, but on this machine it runs far *slower* than the full model,
whose Newton iteration is compiled while the greedy solver is Python; the paper's speed-up
(MATLAB against MATLAB) is not reproduced (the validation report's ``modal`` case measures
it on the paper's mesh). Too few modes or samples and the reduced solution drifts away: the Result then says so
(``status == "diverged"``, its message naming the check that failed).
"""

import matplotlib.pyplot as plt
import numpy as np

import rancf

model = rancf.Model(gravity=(0.0, -9.81), elastic_model="berzeri")
beam = model.add_beam(length=1.0, n_elements=40, E=7e5, rho=7200.0, A=4e-4, I=1.333e-8)
model.add_joint("revolute", model.ground.point(0.0, 0.0), beam.start)

full = rancf.simulate(model, t_end=0.8, dt=1e-3, method="backward-euler", formulation="dae",
                      output_every=10)
reduced_model = rancf.reduce(model, sparsity=80, n_samples=160, seed=0)
print(reduced_model)
reduced = rancf.simulate(reduced_model, t_end=0.8, dt=1e-3, method="backward-euler",
                         output_every=10)
for res in (full, reduced):
    print(f"{res.formulation:8s}: {res.status}, {res.wall_time:.2f} s")
gap = np.linalg.norm(reduced.tip() - full.tip(), axis=1)
print(f"largest tip distance between them: {1e3 * gap.max():.2f} mm")

# %%
# The tip's height in both models, and their distance.

fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 4), layout="constrained")
ax1.plot(full.t, full.tip()[:, 1], label="full ANCF")
ax1.plot(reduced.t, reduced.tip()[:, 1], "--", label="adaptive modal")
ax1.set(xlabel="t (s)", ylabel="tip y (m)")
ax1.legend()
ax2.semilogy(full.t[1:], 1e3 * gap[1:])
ax2.set(xlabel="t (s)", ylabel="tip distance (mm)")

# %%
# Which modes the greedy solver kept at each output step (dark: kept). The modal
# coordinates are numbered beam by beam, four per interior node; the selection changes
# as the beam bends.

fig, ax = plt.subplots(figsize=(8, 4), layout="constrained")
ax.imshow(reduced.extra["selected"].T, aspect="auto", cmap="Greys", interpolation="nearest",
          extent=(reduced.t[0], reduced.t[-1], reduced.extra["selected"].shape[1], 0))
ax.set(xlabel="t (s)", ylabel="modal coordinate")

# %%
# Both beams at 0.2 s intervals, the reduced one reconstructed from its modes.

fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4.5), layout="constrained")
times = [0.0, 0.2, 0.4, 0.6, 0.8]
full.plot(t=times, ax=ax1)
reduced.plot(t=times, ax=ax2)
ax1.set_title("full ANCF")
ax2.set_title("adaptive modal")
