"""
A slider-crank with a flexible connecting rod
=============================================

A rigid crank of 0.15 m, spun up by a motor to 150 rpm in 0.2 s, drives a slider of 1 kg on a
horizontal rail through a flexible connecting rod of 0.5 m (steel, 8 mm x 8 mm, with 0.1 ms
of material damping). The smooth start matters: a crank started at full speed hits the
resting rod and slider with a velocity jump, and the shock rings through the rod. The rod's inertia and
the slider's mass bend the rod at the high accelerations near the dead centres. The crank
is a rigid body on a driven revolute joint, the slider a rigid body on a prismatic joint to
the ground; the loop closes at the slider, so the DAE formulation runs it.
"""

import matplotlib.pyplot as plt
import numpy as np

import rancf

r, L = 0.15, 0.5                       # crank radius and rod length (m)
w = 150 * 2 * np.pi / 60               # crank speed (rad/s)
x_slider = np.sqrt(L**2 - r**2)        # with the crank pointing up
T = 0.2                                # spin-up time (s)


def crank_angle(t):
    """Crank angle (rad), rate and acceleration: a smooth spin-up to w in T, then constant."""
    if t < T:
        c = T / (2 * np.pi)
        return (np.pi / 2 + w / T * (t**2 / 2 + c**2 * (np.cos(t / c) - 1)),
                w / T * (t - c * np.sin(t / c)), w / T * (1 - np.cos(t / c)))
    return np.pi / 2 + w * (t - T / 2), w, 0.0


m = rancf.Model(gravity=(0.0, -9.81), elastic_model="reissner")
crank = m.add_rigid_body(mass=0.5, inertia=0.5 * r**2 / 12, position=(0.0, r / 2),
                         angle=np.pi / 2)
side = 0.008
rod = m.add_beam(length=L, n_elements=8, E=2.1e11, rho=7800.0, A=side**2, I=side**4 / 12,
                 start=(0.0, r), angle=np.arctan2(-r, x_slider), damping=1e-4)
slider = m.add_rigid_body(mass=1.0, inertia=1e-3, position=(x_slider, 0.0))
motor = m.add_joint("revolute", m.ground.point(0.0, 0.0), crank.point(-r / 2, 0.0),
                    drive=crank_angle)
m.add_joint("revolute", crank.point(r / 2, 0.0), rod.start)
m.add_joint("revolute", rod.end, slider.centre)
rail = m.add_joint("prismatic", m.ground.point(x_slider, 0.0), slider.centre)
m.plot()

# %%
# The spin-up and two turns of the crank (0.9 s) with generalized-alpha at 0.2 ms.

res = rancf.simulate(m, t_end=0.9, dt=2e-4, method="generalized-alpha", output_every=10)
print(res, f"{res.wall_time:.2f} s")

# %%
# The slider's travel against the rigid slider-crank's, ``r cos(phi) + sqrt(L^2 - r^2
# sin(phi)^2)`` with ``phi`` the crank angle from the rail: the flexible rod adds a small
# oscillation.

phi = np.array([crank_angle(t)[0] for t in res.t])
rigid = r * np.cos(phi) + np.sqrt(L**2 - r**2 * np.sin(phi) ** 2)
fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 4), layout="constrained")
x = res.position(slider.centre)[:, 0]
ax1.plot(res.t, x, label="flexible rod")
ax1.plot(res.t, rigid, "--", label="rigid rod")
ax1.set(xlabel="t (s)", ylabel="slider position (m)")
ax1.legend()
ax2.plot(res.t, 1e3 * (x - rigid))
ax2.set(xlabel="t (s)", ylabel="flexible minus rigid (mm)")

# %%
# The rod's bending: its midpoint's distance from the chord between its ends, and the motor
# torque.

a, b, mid = res.position(rod.start), res.position(rod.end), res.position(rod.node(4))
chord = (b - a) / np.linalg.norm(b - a, axis=1)[:, None]
bend = (mid - a)[:, 0] * chord[:, 1] - (mid - a)[:, 1] * chord[:, 0]
fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 4), layout="constrained")
ax1.plot(res.t, 1e3 * bend)
ax1.set(xlabel="t (s)", ylabel="rod midpoint off its chord (mm)")
ax2.plot(res.t, res.reaction(motor, "torque"))
ax2.set(xlabel="t (s)", ylabel="motor torque (N m)")

# %%
res.plot(t=np.linspace(0.5, 0.9, 5), trace=crank.point(r / 2, 0.0))
