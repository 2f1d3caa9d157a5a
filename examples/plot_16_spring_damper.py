"""
A flexible arm on spring-dampers and its energy balance
=======================================================

An aluminium beam of 1 m hangs from a pin with a torsion spring-damper (the rest angle
horizontal) and carries a 0.5 kg rigid block at its end, which a linear spring-damper ties
to a point of the ground above. Released from rest, the arm swings down against both
springs and settles. The spring-dampers are force elements with their own energy: their
potentials ``1/2 k (l - l0)^2`` and ``1/2 k (q - q0)^2`` are in the ``elastic`` column of
:meth:`rancf.Result.energy`, their damping in ``dissipated``, and nothing is counted as work.
The balance ``total = kinetic + elastic + gravity - work + dissipated`` stays constant; its
drift falls at the integrator's order when the step shrinks.
"""

import matplotlib.pyplot as plt
import numpy as np

import rancf

m = rancf.Model(gravity=(0.0, -9.81), elastic_model="reissner")
arm = m.add_beam(1.0, 6, E=7e10, rho=2700.0, A=2e-4, I=5e-10)
block = m.add_rigid_body(0.5, 2e-3, position=(1.05, 0.0))
pin = m.add_joint("revolute", m.ground.point(0.0, 0.0), arm.start)
m.add_joint("fixed", arm.end, block.point(-0.05, 0.0))
torsion = m.add_rotational_spring_damper(pin, k=8.0, c=0.2)         # rest: horizontal
spring = m.add_spring_damper(m.ground.point(1.05, 0.8), block.point(0.0, 0.0), k=40.0, c=0.5)
print(torsion)
print(spring)

res = rancf.simulate(m, 4.0, 1e-3, method="generalized-alpha")
print(res)
e = res.energy()
print(f"dissipated after 4 s: {e['dissipated'].iloc[-1]:.4f} J, work: "
      f"{e['work'].abs().max():.1g} J")

# %%
# The arm's swing (the pin's angle) and the energies: the springs' potentials are part of
# ``elastic``; the damping of the pin, of the spring and nothing else fills ``dissipated``;
# ``total`` stays flat.

fig, (ax1, ax2) = plt.subplots(2, 1, figsize=(8, 6), layout="constrained", sharex=True)
ax1.plot(res.t, np.degrees(res.joint_q[:, pin.index]))
ax1.set_ylabel("pin angle (deg)")
res.plot_energy(ax=ax2)

# %%
# The drift of the balance, ``max |total(t) - total(0)|``, at three steps: generalized-alpha
# is second order, so halving the step divides it by about four.

steps = [2e-3, 1e-3, 5e-4]
drifts = []
for dt in steps:
    run = rancf.simulate(m, 1.0, dt, method="generalized-alpha", output_every=1)
    total = run.energy()["total"].to_numpy()
    drifts.append(np.abs(total - total[0]).max())
    print(f"dt = {dt:.0e} s: energy drift {drifts[-1]:.3e} J")
print("ratios:", [f"{a / b:.2f}" for a, b in zip(drifts, drifts[1:])])

fig, ax = plt.subplots(figsize=(5, 3.5), layout="constrained")
ax.loglog(steps, drifts, "o-", label="energy drift")
ax.loglog(steps, drifts[-1] * (np.array(steps) / steps[-1]) ** 2, "--", label="slope 2")
ax.set_xlabel("dt (s)")
ax.set_ylabel("max |total - total(0)| (J)")
ax.legend(loc="upper left")
plt.show()
