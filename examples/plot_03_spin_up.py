"""
The spin-up beam
================

Simo and Vu-Quoc's spin-up manoeuvre (1986): a beam of 10 m clamped to a hub whose angle is
prescribed, spun up smoothly from rest to 6 rad/s in 15 s and then turned at constant speed.
The beam lags behind the hub while it accelerates and swings back when the acceleration
ends. A beam on a driven revolute joint is clamped to the hub: its slope turns with the
prescribed angle.

EA = 2.8e7 N, EI = 1.4e4 N m^2, rho A = 1.2 kg/m, no gravity (a horizontal plane).
"""

import matplotlib.pyplot as plt
import numpy as np

import rancf

w, T = 6.0, 15.0            # final speed (rad/s), duration of the spin-up (s)


def hub(t):
    """Hub angle (rad), rate (rad/s) and acceleration (rad/s^2)."""
    if t < T:
        c = T / (2 * np.pi)
        return (w / T * (t**2 / 2 + c**2 * (np.cos(t / c) - 1)), w / T * (t - c * np.sin(t / c)),
                w / T * (1 - np.cos(t / c)))
    return w * (t - T / 2), w, 0.0


model = rancf.Model(gravity=(0.0, 0.0), elastic_model="reissner")
E = 2.8e7 / (1.2 / 7800.0)
beam = model.add_beam(length=10.0, n_elements=10, E=E, rho=7800.0, A=1.2 / 7800.0, I=1.4e4 / E)
motor = model.add_joint("revolute", model.ground.point(0.0, 0.0), beam.start, drive=hub)

result = rancf.simulate(model, t_end=20.0, dt=1e-3, method="generalized-alpha",
                        output_every=50)
print(result, f"{result.wall_time:.1f} s")

# %%
# Left, the tip's deflection across the beam, in the frame that turns with the hub (the
# classic figure of this case): about -0.57 m near t = 7 s, then a free vibration about zero
# (there is no damping, so it does not decay). Right, the motor torque that imposes the
# angle (the drive's reaction).

theta = np.array([hub(t)[0] for t in result.t])
tip = result.tip()
across = -tip[:, 0] * np.sin(theta) + tip[:, 1] * np.cos(theta)
fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 4), layout="constrained")
ax1.plot(result.t, across)
ax1.set(xlabel="t (s)", ylabel="tip deflection in the hub frame (m)")
ax2.plot(result.t, result.reaction(motor, "torque"))
ax2.set(xlabel="t (s)", ylabel="motor torque (N m)")
print(f"largest lag {across.min():.3f} m at t = {result.t[across.argmin()]:.2f} s")

# %%
# The work the motor does ends as the kinetic and elastic energy of the beam.

result.plot_energy()

# %%
# The beam seen from the ground, once per second during the spin-up.

result.plot(t=np.arange(0.0, 15.1, 1.0))

# %%
# The animation, five simulated seconds per second of video.

animation = result.animate(fps=8, speed=5.0, trace=beam.end)
