"""
A flexible spatial pendulum
===========================

A soft rod bent into a quarter circle (radius 0.6 m, so 0.94 m long; a 2 cm square section,
E = 20 MPa, G = E / 2.6, rho = 1100 kg/m^3) lies in the horizontal plane z = 0, hangs from a
ball joint at one end and is let go at rest. Its centre of mass is off the line of its first
tangent, so it does not swing in a plane: it falls, swings through under the joint and out of
the plane it started in, and bends and twists as it goes. Sixteen elements of the SE(3)
strain (see the theory page, Spatial beams), one spherical joint, RK4.

The model is passive (no loads, no damping), so kinetic + elastic + gravity energy is
conserved, and its change is the integrator's error.

The step of RK4 is limited by the shear-rotation mode of the beam's nodes,
``sqrt(k G A / (rho I))`` (theory: Spatial trees), here 1.32e4 rad/s for any mesh: ``rancf``
refuses a step above ``2 sqrt(2) / omega``, 2.1e-4 s.
"""

import matplotlib.pyplot as plt
import numpy as np

import rancf

R, n, h = 0.6, 16, 0.02                     # m, elements, m
E, rho = 2e7, 1100.0                        # Pa, kg/m^3
G = E / 2.6
a = np.linspace(0.0, np.pi / 2, n + 1)
points = np.column_stack([R * np.sin(a), R * (1 - np.cos(a)), 0 * a])
tangents = np.column_stack([np.cos(a), np.sin(a), 0 * a])

model = rancf.Model(dim=3, gravity=(0.0, 0.0, -9.81))
rod = model.add_beam(n_elements=n, points=points, tangents=tangents, up=(0.0, 0.0, 1.0),
                     E=E, G=G, rho=rho, A=h * h, I=(h**4 / 12, h**4 / 12), J=0.141 * h**4)
ball = model.add_joint("spherical", model.ground.point(0.0, 0.0, 0.0), rod.start)

omega = np.sqrt(5 / 6 * G * h * h / (rho * h**4 / 12))
print(f"length {rod.length:.4f} m; sqrt(k G A / (rho I)) = {omega:.4g} rad/s, "
      f"RK4 limit {2 * np.sqrt(2) / omega:.3g} s")
try:
    rancf.simulate(model, t_end=2.0, dt=3e-4, method="rk4")
except ValueError as err:
    print(err)

runs = {dt: rancf.simulate(model, t_end=2.0, dt=dt, output_every=round(3e-3 / dt))
        for dt in (2e-4, 1e-4)}
for dt, res in runs.items():
    print(f"dt = {dt:.3g} s: {res.status}, {res.stats['steps']} steps in {res.wall_time:.1f} s, "
          f"energy drift {res.energy_drift():.2e}")
res = runs[1e-4]

# %%
# The rod every 0.25 s over the first second, seen in 3D, with each node's section y axis as
# a tick (it starts vertical): the rod swings out of its plane and the ticks turn with its
# twist.

nodes = [rod.node(i) for i in range(rod.n_nodes)]
path = np.stack([res.position(p) for p in nodes], axis=1)          # (n_out, nodes, 3)
frames = np.stack([res.orientation(p) for p in nodes], axis=1)     # (n_out, nodes, 3, 3)
fig, ax = plt.subplots(figsize=(7, 6), subplot_kw={"projection": "3d"})
colours = plt.cm.viridis(np.linspace(0.0, 0.9, 5))
for t, colour in zip(np.arange(0.0, 1.01, 0.25), colours):
    k = int(np.argmin(np.abs(res.t - t)))
    ax.plot(*path[k].T, "o-", color=colour, ms=3, label=f"t = {res.t[k]:.2f} s")
    for p, y in zip(path[k], frames[k, :, :, 1]):
        ax.plot(*np.column_stack([p, p + 0.06 * y]), color=colour, lw=1)
ax.plot(*res.position(rod.end).T, ":", color="grey", lw=1, label="tip path")
ax.scatter([0], [0], [0], color="k", s=30)
ax.set(xlabel="x (m)", ylabel="y (m)", zlabel="z (m)")
ax.set_box_aspect(np.ptp(path.reshape(-1, 3), axis=0))
ax.legend(loc="upper left", fontsize=8)

# %%
# The tip's coordinates: it falls (z), swings through under the joint to the far side (x
# and y both change sign) and back, nearly to where it started, with the kinks of the rod's
# bending and twisting on the way.

tip = res.position(rod.end)
fig, ax = plt.subplots(figsize=(8, 4), layout="constrained")
for i, name in enumerate("xyz"):
    ax.plot(res.t, tip[:, i], label=name)
ax.set(xlabel="t (s)", ylabel="tip position (m)")
ax.legend()

# %%
# The energies, and the change of their sum at both steps. Both runs lose about 1e-10 J in
# the first hundredth of a second: the release excites the highest modes a little, and RK4
# damps a mode of frequency omega by ``1 - |R(i h omega)|^2 = (h omega)^6 / 72 - (h omega)^8 /
# 576`` of its energy per step, 60 % at 2e-4 s for the shear-rotation mode (h omega = 2.6),
# 6 % at 1e-4 s. After that the change is RK4's error on the swing, of fourth order: halving
# the step divides it by about 2^4 = 16 (printed below).

fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4), layout="constrained")
e = res.energy()
for column in ("kinetic", "elastic", "gravity"):
    left.plot(e.t, e[column], label=column)
left.set(xlabel="t (s)", ylabel="energy (J)")
left.legend()
for dt, run in runs.items():
    balance = run.energy()
    right.plot(balance.t, balance.total - balance.total[0], label=f"dt = {dt:.3g} s")
right.set(xlabel="t (s)", ylabel="change of kinetic + elastic + gravity (J)")
right.legend()
after = []
for dt, run in runs.items():
    total = run.energy().total.to_numpy()
    start = int(np.searchsorted(run.t, 0.01))
    after.append(np.abs(total[start:] - total[start]).max())
    print(f"dt = {dt:.3g} s: change {total[start] - total[0]:.2e} J in the first 0.01 s, "
          f"then {after[-1]:.2e} J at most")
print(f"ratio of the changes after 0.01 s: {after[0] / after[1]:.1f}")

