"""
A flexible robot arm in space
=============================

A three-axis arm: a turret turning about the vertical (yaw), a shoulder and an elbow turning
about horizontal axes (pitch), two aluminium tubes of 1 m between them (60 mm across, 3 mm wall:
``A = 2 pi r t``, ``I = pi r^3 t``, ``J = 2 I``; E = 70 GPa, G = 26 GPa, rho = 2700 kg/m^3;
four SE(3) elements each, theory: Spatial beams) and a 2 kg payload at the tip. Three motors
move the arm from rest to rest in 1.2 s, each by the cycloidal profile
``q(t) = Q (t / T - sin(2 pi t / T) / (2 pi))`` (zero rate and acceleration at both ends): the
turret by 90 degrees, the shoulder up by 30, the elbow by 60. Gravity along -z.

The tubes are stiff (RK4 would need steps below 20 us for their shear modes), so
``method="auto"`` picks an implicit scheme, and ``rancf.simulate`` runs the O(n) implicit
recursion of spatial trees (theory: Implicit steps and statics of spatial trees) at 1 ms.

When the motors stop, the payload keeps vibrating on the tubes' bending. A check independent of
the run: the frequency of that vibration, counted from the payload's deflection, against the
frequencies of :func:`rancf.modes` of the same arm built in its final pose with fixed joints
(the motors hold them), which come from an eigenvalue problem about the static equilibrium there
and no time stepping.
"""

import matplotlib.pyplot as plt
import numpy as np
from scipy.spatial.transform import Rotation

import rancf

L, r, t_wall = 1.0, 0.03, 0.003                 # m
E, G, rho = 70e9, 26e9, 2700.0                  # Pa, Pa, kg/m^3
A, I = 2 * np.pi * r * t_wall, np.pi * r**3 * t_wall
T = 1.2                                         # s, length of each motion
deg = np.pi / 180


def cycloidal(Q):
    """Rest-to-rest motion by Q in T: the drive's (q, qd, qdd) at t."""
    def drive(t):
        if t >= T:
            return Q, 0.0, 0.0
        s = 2 * np.pi * t / T
        return (Q * (t / T - np.sin(s) / (2 * np.pi)), Q / T * (1 - np.cos(s)),
                Q * 2 * np.pi / T**2 * np.sin(s))
    return drive


def arm(yaw=0.0, pitch=0.0, bend=0.0, drives=None):
    """The arm with its joints at the angles given (rad): driven from there by ``drives``
    (three callables), or held there by fixed joints (None)."""
    turn = Rotation.from_rotvec([0.0, 0.0, yaw])
    upper_frame = turn * Rotation.from_rotvec([0.0, -pitch, 0.0])    # pitch about -y: up
    fore_frame = upper_frame * Rotation.from_rotvec([0.0, bend, 0.0])
    shoulder = np.array([0.0, 0.0, 0.4])
    elbow = shoulder + L * upper_frame.apply([1.0, 0.0, 0.0])
    tip = elbow + L * fore_frame.apply([1.0, 0.0, 0.0])
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -9.81))
    turret = m.add_rigid_body(8.0, np.diag([0.05, 0.05, 0.04]), position=(0.0, 0.0, 0.2),
                              orientation=turn.as_matrix())
    links = [m.add_beam(L, 4, E=E, G=G, rho=rho, A=A, I=(I, I), J=2 * I, start=start,
                        direction=frame.apply([1.0, 0.0, 0.0]), up=frame.apply([0.0, 0.0, 1.0]))
             for start, frame in ((shoulder, upper_frame), (elbow, fore_frame))]
    payload = m.add_rigid_body(2.0, np.diag([2e-3, 2e-3, 2e-3]), position=tip,
                               orientation=fore_frame.as_matrix())
    pairs = ((m.ground.point(0.0, 0.0, 0.0), turret.point(0.0, 0.0, -0.2), (0.0, 0.0, 1.0)),
             (turret.point(0.0, 0.0, 0.2), links[0].start, turn.apply([0.0, -1.0, 0.0])),
             (links[0].end, links[1].start, upper_frame.apply([0.0, 1.0, 0.0])))
    joints = [m.add_joint("revolute", parent, child, axis=axis, drive=drive) if drives else
              m.add_joint("fixed", parent, child) for (parent, child, axis), drive in
              zip(pairs, drives or (None,) * 3)]
    m.add_joint("fixed", links[1].end, payload.centre)
    return m, joints, links, payload


Q = np.array([90.0, 30.0, 60.0]) * deg
model, (yaw, shoulder, elbow), (upper, fore), payload = arm(drives=[cycloidal(q) for q in Q])
res = rancf.simulate(model, t_end=2.5, dt=1e-3, output_every=5, state="static")
print(f"{res.status}: {res.method} ({res.method_reason}); {res.stats['steps']} steps in "
      f"{res.wall_time:.1f} s")

# %%
# The arm every 0.3 s while it moves, and the payload's path. It starts from the static
# equilibrium under gravity (``state="static"``), already sagging a little.

fig, ax = plt.subplots(figsize=(7, 6), subplot_kw={"projection": "3d"})
line = [upper.node(i) for i in range(upper.n_nodes)] + [fore.node(i) for i in range(fore.n_nodes)]
path = np.stack([res.position(p) for p in line], axis=1)              # (n_out, nodes, 3)
colours = plt.cm.viridis(np.linspace(0.0, 0.9, 5))
for time, colour in zip(np.linspace(0.0, T, 5), colours):
    k = int(np.argmin(np.abs(res.t - time)))
    ax.plot(*path[k].T, "o-", color=colour, ms=3, label=f"t = {res.t[k]:.2f} s")
ax.plot(*res.position(payload.centre).T, ":", color="grey", lw=1, label="payload path")
ax.plot([0, 0], [0, 0], [0, 0.4], "k-", lw=3)
ax.set(xlabel="x (m)", ylabel="y (m)", zlabel="z (m)")
ax.set_box_aspect(np.ptp(path.reshape(-1, 3), axis=0) + 0.1)
ax.legend(loc="upper left", fontsize=8)

# %%
# The motor torques (the reaction moments of the drives about their axes, as the axes turn:
# ``res.reaction(joint, "torque")``) and the payload's deflection in the forearm's start frame:
# its rigid motion with the forearm taken out, along the section axes y (``up``, vertical
# bending: it starts at the static sag) and z (horizontal bending, driven by the turret's turn).
# Both ring on after the motors stop at 1.2 s.

fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4), layout="constrained")
for joint, name in ((yaw, "turret"), (shoulder, "shoulder"), (elbow, "elbow")):
    left.plot(res.t, res.reaction(joint, "torque"), label=name)
left.axvline(T, color="grey", lw=0.5)
left.set(xlabel="t (s)", ylabel="motor torque (N m)")
left.legend()
bend = 1e3 * res.deflection(payload.centre, fore)
right.plot(res.t, bend[:, 1], label="section y (up: vertical bending)")
right.plot(res.t, bend[:, 2], label="section z (horizontal bending)")
right.axvline(T, color="grey", lw=0.5)
right.set(xlabel="t (s)", ylabel="payload deflection on the forearm (mm)")
right.legend()

# %%
# The check: after the motion, the vibration's frequency in each bending plane, from the mean
# spacing of the deflection's crossings of its own mean, against the modes of the same arm
# built in its final pose with its joints fixed (the motors hold them), about its static
# equilibrium there. They agree to the counting's resolution (an output interval, 5 ms, in a
# period of about 0.1 s) and to the vibration's amplitude (the modes are linear), not to
# round-off.

modes = rancf.modes(arm(*Q)[0], n=4)
after = res.t > T + 0.1
for axis, name in ((1, "vertical"), (2, "horizontal")):
    x = bend[after, axis] - bend[after, axis].mean()
    crossings = res.t[after][1:][np.diff(np.sign(x)) != 0]
    f = 0.5 / np.diff(crossings).mean()
    nearest = modes.frequencies[np.argmin(np.abs(modes.frequencies - f))]
    print(f"{name}: {f:.2f} Hz from the run, nearest mode {nearest:.2f} Hz "
          f"({(f - nearest) / nearest:+.1%})")
print("first modes at the final pose (Hz):", np.round(modes.frequencies, 2))

# %%
# The arm moving (one frame every 0.05 s), with the payload's path.

animation = res.animate(fps=20, speed=1.0, trace=payload.centre)
