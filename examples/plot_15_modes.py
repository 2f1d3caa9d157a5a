"""
Vibration modes of a hanging flexible double pendulum
=====================================================

Two aluminium beams of 0.5 m, pinned to each other and to the ground, hang under gravity.
:func:`rancf.modes` finds the static equilibrium, linearizes the mechanism about it and
returns its lowest natural frequencies and shapes: two pendulum modes, held by gravity
through the pins' forces, then the bending modes of the beams. A free vibration run started
in the first shape checks the first frequency independently: its period, from the zero
crossings of the tip's sideways motion, against the eigenproblem's.
"""

import matplotlib.pyplot as plt
import numpy as np

import rancf

m = rancf.Model(gravity=(0.0, -9.81), elastic_model="reissner")
upper = m.add_beam(0.5, 6, E=7e10, rho=2700.0, A=1e-4, I=2e-10, angle=-np.pi / 2)
lower = m.add_beam(0.5, 6, E=7e10, rho=2700.0, A=1e-4, I=2e-10, start=(0.0, -0.5),
                   angle=-np.pi / 2)
m.add_joint("revolute", m.ground.point(0.0, 0.0), upper.start)
m.add_joint("revolute", upper.end, lower.start)

found = rancf.modes(m, n=4)
print(found)
for i, f in enumerate(found.frequencies):
    print(f"mode {i}: {f:8.4f} Hz")

# %%
# The shapes, each at its two extremes about the equilibrium (displaced by 10 % of the
# model's size), coloured by the time in the period:

fig, axes = plt.subplots(1, 4, figsize=(12, 4), layout="constrained")
for i, ax in enumerate(axes):
    found.plot(i, ax=ax)
    ax.set_title(f"mode {i}: {found.frequencies[i]:.3g} Hz", fontsize=10)

# %%
# A free vibration run from the equilibrium displaced along the first shape by 1 mm: the
# nonlinear equations, integrated by generalized-alpha at 2000 steps a period. The period
# between zero crossings of the lower tip's x matches the first mode's.

period = 1.0 / found.frequencies[0]
shape = found.shapes[0] / np.abs(found.shapes[0]).max()
x0 = found.equilibrium.x + 1e-3 * shape
res = rancf.simulate(m, 3 * period, period / 2000, method="generalized-alpha", output_every=1,
                     state=rancf.State(x0, np.zeros_like(x0)))
x = res.position(lower.end)[:, 0]
k = np.flatnonzero(np.sign(x[:-1]) != np.sign(x[1:]))
crossings = res.t[k] - x[k] * (res.t[k + 1] - res.t[k]) / (x[k + 1] - x[k])
measured = 2.0 * np.diff(crossings).mean()
print(f"period: modes {period:.6f} s, free vibration run {measured:.6f} s "
      f"(relative difference {measured / period - 1.0:.1e})")

fig, ax = plt.subplots(figsize=(8, 3.5), layout="constrained")
ax.plot(res.t, 1e3 * x, label="free vibration run")
ax.plot(res.t, 1e3 * x[0] * np.cos(2 * np.pi * res.t / period), "--",
        label=f"first mode, {found.frequencies[0]:.4f} Hz")
ax.set_xlabel("t (s)")
ax.set_ylabel("lower tip x (mm)")
ax.legend(loc="upper right")
plt.show()
