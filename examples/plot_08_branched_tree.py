"""
A branched tree
===============

A tree of flexible beams: a trunk pinned to the ground with a torsion spring, two branches
hinged to an interior node of the trunk and to its top, a twig on one branch and a rigid
mass at the tip of the other. Branches may start at any node of their parent, not only at
its end. The recursive formulation runs any tree rooted at the ground in O(n), eliminating
from the leaves to the root.
"""

import matplotlib.pyplot as plt
import numpy as np

import rancf

m = rancf.Model(gravity=(0.0, -9.81), elastic_model="reissner")
props = dict(E=5e6, rho=1000.0, A=4e-4, I=5e-8)   # soft tubes: EA 2 kN, EI 0.25 N m^2
trunk = m.add_beam(length=1.0, n_elements=4, angle=np.pi / 2, **props)
left = m.add_beam(length=0.6, n_elements=3, start=(0.0, 0.5), angle=np.radians(150), **props)
right = m.add_beam(length=0.7, n_elements=3, start=(0.0, 1.0), angle=np.radians(30), **props)
twig_start = left.reference_nodes()[2, :2]
twig = m.add_beam(length=0.3, n_elements=1, start=twig_start, angle=np.radians(100), **props)
tip_of_right = right.reference_nodes()[-1, :2]
fruit = m.add_rigid_body(mass=0.2, inertia=1e-4, position=tip_of_right)

m.add_joint("revolute", m.ground.point(0.0, 0.0), trunk.start,
            effort=lambda t, q, qd: -40.0 * q - 0.2 * qd)        # torsion spring-damper
m.add_joint("revolute", trunk.node(2), left.start)               # an interior node
m.add_joint("revolute", trunk.end, right.start)
m.add_joint("fixed", left.node(2), twig.start)                   # welded to the branch
m.add_joint("fixed", right.end, fruit.centre)
m.plot()

# %%
# Two seconds with DOPRI5 (adaptive explicit Runge-Kutta, relative tolerance 1e-6) on the
# recursive formulation.

res = rancf.simulate(m, t_end=2.0, dt=1e-4, method="dopri5", rtol=1e-6, atol=1e-8,
                     output_every=100)
print(res, f"{res.wall_time:.2f} s,", res.stats["steps"], "steps,",
      res.stats["rejected"], "rejected")

# %%
res.plot(t=np.linspace(0.0, 2.0, 5), trace=(fruit.centre, twig.end))

# %%
# The energy balance: the spring's energy is part of ``work`` (an effort's work), the
# damper's share of it is negative work; the total stays put to the solver's tolerance.

ax = res.plot_energy()
print(f"energy drift {res.energy_drift():.1e}")

# %%
fig, ax = plt.subplots(layout="constrained")
for j in m.joints[1:3]:
    ax.plot(res.t, np.degrees(res.joint(j)[0]), label=f"joint {j.index}")
ax.set(xlabel="t (s)", ylabel="branch angle relative to the trunk (deg)")
ax.legend()

# %%
animation = res.animate(fps=12, speed=0.75, trace=fruit.centre)
