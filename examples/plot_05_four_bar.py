"""
A flexible four-bar linkage
===========================

A crank-rocker: a crank of 0.3 m turned by a motor at 2 rad/s, a coupler of 1 m and a rocker
of 0.8 m pinned to the ground 1 m from the crank (Grashof: the crank turns fully, the rocker
swings), all flexible aluminium strips 20 mm x 5 mm (E = 70 GPa, with 0.1 ms of material
damping), with a mass welded to the
middle of the coupler and a varying force on the rocker. The loop closes at the rocker's
ground pin, so the recursive formulation (trees only) cannot run it: the DAE formulation
holds every joint as a constraint, with an implicit integrator.

(A parallelogram linkage, crank and rocker of equal length, would pass through a
configuration where all links are collinear and the motion is not determined; Newton fails
there.)
"""

import matplotlib.pyplot as plt
import numpy as np

import rancf

crank_length, coupler_length, rocker_length, ground_length = 0.3, 1.0, 0.8, 1.0
# where coupler and rocker meet, with the crank pointing up: the upper intersection of the
# circles of radius 1.0 about the crank's end (0, 0.3) and 0.8 about the rocker pin (1, 0)
a, b = np.array([0.0, crank_length]), np.array([ground_length, 0.0])
d = np.linalg.norm(b - a)
u = (b - a) / d
along = (coupler_length**2 - rocker_length**2 + d**2) / (2 * d)
p = a + along * u + np.sqrt(coupler_length**2 - along**2) * np.array([-u[1], u[0]])
coupler_angle = np.arctan2(*(p - a)[::-1])
rocker_angle = np.arctan2(*(b - p)[::-1])

m = rancf.Model(gravity=(0.0, -9.81), elastic_model="reissner")
props = dict(E=7e10, rho=2700.0, A=1e-4, I=0.02 * 0.005**3 / 12, damping=1e-4)
crank = m.add_beam(length=crank_length, n_elements=3, angle=np.pi / 2, **props)
coupler = m.add_beam(length=coupler_length, n_elements=8, start=a, angle=coupler_angle, **props)
rocker = m.add_beam(length=rocker_length, n_elements=6, start=p, angle=rocker_angle, **props)
motor = m.add_joint("revolute", m.ground.point(0.0, 0.0), crank.start,
                    drive=lambda t: (np.pi / 2 + 2.0 * t, 2.0, 0.0))
m.add_joint("revolute", crank.end, coupler.start)
m.add_joint("revolute", coupler.end, rocker.start)
m.add_joint("revolute", m.ground.point(*b), rocker.end)      # closes the loop
mass = m.add_rigid_body(mass=0.5, inertia=1e-3, position=(a + p) / 2)
m.add_joint("fixed", coupler.node(4), mass.centre)
m.add_force(rocker.node(3), force=lambda t: (0.0, -5.0 * np.sin(t)))
m.plot()

# %%
# A little more than one turn of the crank (pi s) with generalized-alpha at 1 ms.

res = rancf.simulate(m, t_end=3.2, dt=1e-3, method="generalized-alpha", output_every=10)
print(res, f"{res.wall_time:.2f} s")
print("largest constraint violation |Phi|:", res.extra["constraint_violation"][:, 0].max())

# %%
# The linkage at six times and the path of the welded mass.

res.plot(t=np.linspace(0.0, 3.2, 7), trace=mass.centre)

# %%
# The motor torque that keeps the crank at 2 rad/s, and the coupler's bending: the distance
# of its midpoint from the chord between its ends.

fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 4), layout="constrained")
ax1.plot(res.t, res.reaction(motor, "torque"))
ax1.set(xlabel="t (s)", ylabel="motor torque (N m)")
a, b, mid = res.position(coupler.start), res.position(coupler.end), res.position(coupler.node(4))
chord = (b - a) / np.linalg.norm(b - a, axis=1)[:, None]
bend = (mid - a)[:, 0] * chord[:, 1] - (mid - a)[:, 1] * chord[:, 0]
ax2.plot(res.t, 1e3 * bend)
ax2.set(xlabel="t (s)", ylabel="coupler midpoint off its chord (mm)")

# %%
# The energy balance closes: the motor's and the force's work go into the linkage.

res.plot_energy()

# %%
animation = res.animate(fps=10, speed=1.0, trace=mass.centre)
