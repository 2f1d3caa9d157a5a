"""
A parameter study
=================

How stiff must a two-body pendulum be for its tip to swing like a rigid one? A parameter
study runs one simulation per parameter set with :func:`rancf.sweep`, records each run's
status instead of stopping at the first failure, and returns a table. Here a grid of
Young's modulus and damping, run serially in this process (``scheduler="serial"``); the
default starts a local cluster of processes (then call it under
``if __name__ == "__main__":``), and ``store="study.parquet"`` keeps finished rows so that an
interrupted study resumes.
"""

import matplotlib.pyplot as plt
import numpy as np

import rancf


def run(E, damping):
    """The lowest point of the tip and the energy dissipated in 1 s; E in Pa, damping in s."""
    m = rancf.Model(gravity=(0.0, -9.81), elastic_model="reissner")
    side = 0.02
    b1 = m.add_beam(0.5, 4, E=E, rho=7800.0, A=side**2, I=side**4 / 12, damping=damping)
    b2 = m.add_beam(0.5, 4, E=E, rho=7800.0, A=side**2, I=side**4 / 12, damping=damping,
                    start=(0.5, 0.0))
    m.add_joint("revolute", m.ground.point(0.0, 0.0), b1.start)
    m.add_joint("fixed", b1.end, b2.start)                # one beam of two parts, welded
    res = rancf.simulate(m, t_end=1.0, dt=1e-3, method="generalized-alpha", output_every=10)
    return {"lowest_tip": res.tip()[:, 1].min(), "dissipated": res.dissipated[-1],
            "status": res.status, "message": res.message}


grid = {"E": list(np.logspace(5, 8, 7)), "damping": [0.0, 1e-3]}
table = rancf.sweep(run, grid, scheduler="serial", progress=False)
table

# %%
# A rigid rod of 1 m pinned at one end and released horizontally falls to y = -1 m at the
# bottom of its swing; a soft one stretches and bends below that. Material damping (a
# Kelvin-Voigt time of 1 ms) takes energy out of the vibration.

fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 4), layout="constrained")
for damping, rows in table.groupby("damping"):
    ax1.semilogx(rows.E, rows.lowest_tip, "o-", label=f"damping {damping:g} s")
    ax2.loglog(rows.E, rows.dissipated.clip(lower=1e-12), "o-", label=f"damping {damping:g} s")
ax1.axhline(-1.0, color="k", linestyle=":", label="rigid")
ax1.set(xlabel="E (Pa)", ylabel="lowest tip y in 1 s (m)")
ax2.set(xlabel="E (Pa)", ylabel="energy dissipated in 1 s (J)")
ax1.legend()
ax2.legend()
print(f"{len(table)} runs, {table.wall_time.sum():.1f} s of simulation, statuses:",
      table.status.value_counts().to_dict())
