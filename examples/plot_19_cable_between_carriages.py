"""
A cable between two moving carriages
====================================

A rope of 2 m (10 mm across, E = 1 GPa, rho = 1150 kg/m^3: a synthetic fibre rope, 0.09 kg/m)
hangs between two carriages of 5 kg on ball joints. It starts taut and straight, at the static
equilibrium under its weight (``state="static"``). Then the right carriage runs 0.8 m towards
the left one along x while the left one runs 0.5 m sideways along y, each by the cycloidal
profile ``q(t) = Q (t / T - sin(2 pi t / T) / (2 pi))`` in T = 1 s, and both stop: the rope
drops into a sag and swings out of its vertical plane.

The rope is 8 spatial ANCF cable elements (nodes of a position and a slope, no torsion;
theory: The spatial ANCF cable), joined to the carriages by ``"spherical"`` joints; a model
with a cable runs on the spatial DAE (absolute coordinates, every joint a set of constraint
rows), here with Newmark's average acceleration at 5 ms.

Two checks independent of the run: the energy balance, in which the carriages' drives do work
(``energy().work``, from the drives' reaction forces and rates), and, after the motion, the
rope's sag against the inextensible catenary of a 2 m rope between its ends' final places.
"""

import matplotlib.pyplot as plt
import numpy as np
from scipy.optimize import brentq

import rancf

L, d = 2.0, 0.01                                 # m
E, rho = 1e9, 1150.0                             # Pa, kg/m^3
A, I = np.pi * d**2 / 4, np.pi * d**4 / 64
T = 1.0                                          # s


def cycloidal(Q):
    """Rest-to-rest motion by Q in T: the drive's (q, qd, qdd) at t."""
    def drive(t):
        if t >= T:
            return Q, 0.0, 0.0
        s = 2 * np.pi * t / T
        return (Q * (t / T - np.sin(s) / (2 * np.pi)), Q / T * (1 - np.cos(s)),
                Q * 2 * np.pi / T**2 * np.sin(s))
    return drive


model = rancf.Model(dim=3, gravity=(0.0, 0.0, -9.81))
rope = model.add_beam(L, 8, E=E, rho=rho, A=A, I=I, start=(0.0, 0.0, 0.0),
                      direction=(1.0, 0.0, 0.0), element="ancf-cable")
left = model.add_rigid_body(5.0, np.eye(3) * 0.01, position=(0.0, 0.0, 0.1))
right = model.add_rigid_body(5.0, np.eye(3) * 0.01, position=(L, 0.0, 0.1))
sideways = model.add_joint("prismatic", model.ground.point(0.0, 0.0, 0.1), left.centre,
                           axis=(0.0, 1.0, 0.0), drive=cycloidal(0.5))
inwards = model.add_joint("prismatic", model.ground.point(L, 0.0, 0.1), right.centre,
                          axis=(-1.0, 0.0, 0.0), drive=cycloidal(0.8))
model.add_joint("spherical", left.point(0.0, 0.0, -0.1), rope.start)
model.add_joint("spherical", right.point(0.0, 0.0, -0.1), rope.end)

res = rancf.simulate(model, t_end=2.5, dt=5e-3, method="newmark", output_every=4,
                     state="static")
print(f"{res.status}: {res.formulation}, {res.stats['steps']} steps in {res.wall_time:.1f} s")

# %%
# The rope every 0.25 s while the carriages move, seen in 3D, with the path of its midpoint.

nodes = [rope.node(i) for i in range(rope.n_elements + 1)]
path = np.stack([res.position(p) for p in nodes], axis=1)            # (n_out, nodes, 3)
fig, ax = plt.subplots(figsize=(7, 6), subplot_kw={"projection": "3d"})
colours = plt.cm.viridis(np.linspace(0.0, 0.9, 5))
for time, colour in zip(np.linspace(0.0, T, 5), colours):
    k = int(np.argmin(np.abs(res.t - time)))
    ax.plot(*path[k].T, "-", color=colour, label=f"t = {res.t[k]:.2f} s")
ax.plot(*res.position(rope.node(4)).T, ":", color="grey", lw=1, label="midpoint path")
ax.set(xlabel="x (m)", ylabel="y (m)", zlabel="z (m)")
ax.set_box_aspect(np.ptp(path.reshape(-1, 3), axis=0) + 0.05)
ax.legend(loc="upper left", fontsize=8)

# %%
# The drives' forces along their axes (``res.reaction(joint, "slide")``: what each carriage's
# motor pushes with, N) and the energies. The drives do the work the rope and carriages gain;
# Newmark's average acceleration keeps the balance ``kinetic + elastic + gravity - work``
# (``total``) to its second-order error, printed below. It also leaves the rope's stiff axial
# vibration undamped (the start jerks the rope along its length), which the forces carry as
# the ripple on their curves; generalized-alpha would damp it and lose the exact balance.

fig, (left_ax, right_ax) = plt.subplots(1, 2, figsize=(11, 4), layout="constrained")
left_ax.plot(res.t, res.reaction(sideways, "slide"), label="left carriage (along y)")
left_ax.plot(res.t, res.reaction(inwards, "slide"), label="right carriage (along -x)")
left_ax.axvline(T, color="grey", lw=0.5)
left_ax.set(xlabel="t (s)", ylabel="drive force (N)")
left_ax.legend()
e = res.energy()
for column in ("kinetic", "elastic", "gravity", "work"):
    right_ax.plot(e.t, e[column] - e[column][0], label=column)
right_ax.plot(e.t, e.total - e.total[0], "k--", label="total")
right_ax.set(xlabel="t (s)", ylabel="change of energy (J)")
right_ax.legend()
print(f"energy balance: total changes by {np.abs(e.total - e.total[0]).max():.2e} J "
      f"while the drives do {np.abs(e.work).max():.3g} J")

# %%
# The sag: after the motion the rope swings about its hanging shape, the catenary
# ``z = a (cosh(x / a) - cosh(D / (2 a)))`` of a rope of length 2 m between points D apart
# (D = 1.3 m: 1.2 m along x and 0.5 m along y; ``2 a sinh(D / (2 a)) = 2 m``; the rope stretches
# by micrometres under its weight, so the inextensible catenary is its limit). It swings as a
# whole about the line through its ends, so its midpoint's distance from that line, averaged
# over the last second, is set against the catenary's sag. They agree to a few percent, not
# better: the rope still swings and its sag still bounces after the motion (nothing damps
# them), and a second's average of that motion is not the rest shape.

D = np.hypot(1.2, 0.5)
a = brentq(lambda a: 2 * a * np.sinh(D / (2 * a)) - L, 0.05, 10.0)
sag = a * (np.cosh(D / (2 * a)) - 1.0)
late = res.t > res.t[-1] - 1.0
first, last, mid = path[late, 0], path[late, -1], res.position(rope.node(4))[late]
chord = (last - first) / np.linalg.norm(last - first, axis=1)[:, None]
off = (mid - first) - np.einsum("ni,ni->n", mid - first, chord)[:, None] * chord
depth = np.linalg.norm(off, axis=1).mean()
print(f"catenary sag {sag:.4f} m; the rope's midpoint {depth:.4f} m from the line through its "
      f"ends on average over the last second ({(depth - sag) / sag:+.2%})")
