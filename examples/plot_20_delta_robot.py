"""
A Delta-like parallel robot with flexible arms
==============================================

Three motors on a horizontal base, 120 degrees apart at 0.2 m from its centre, each turn an
upper arm about the base's tangent (the axis ``a_i``); each arm is an aluminium tube of
0.35 m (25 mm across, 1 mm wall: ``A = 2 pi r t``, ``I = pi r^3 t``, ``J = 2 I``; E = 70
GPa, G = 26 GPa, rho = 2700 kg/m^3) of two SE(3) beam elements (theory: Spatial beams). A
forearm, a rigid carbon rod of 0.8 m and 0.2 kg, joins each arm's end to a moving platform
(1.5 kg with its payload, its three joints 0.05 m from its centre). Gravity along -z.

The forearms' joints. The platform must only translate, its place set by the three motors:
with the drives the legs must take all six of its freedoms, two each, without a redundant
constraint row (the spatial DAE's matrix would be singular). A forearm on a spherical joint at
the elbow and a universal joint at the platform takes none: its leg has 1 + 3 + 2 = 6 joint
freedoms, as many as the platform, and the three driven legs leave the platform three (the
seven bodies' 42 coordinates less 3 x (5 + 3 + 4) joint rows and 3 drives): the forearms'
lengths fix where it is, not how it turns, and under gravity it tips over. The Delta's
parallelogram of two ball-jointed rods holds two rotations per leg, six rows for three
rotations, three of them redundant. Here each forearm has a universal joint at both ends (a
3-RUU, the Delta without its parallelograms): at the elbow the axes ``a_i`` (on the arm,
parallel to the motor's) and ``b_i = a_i x f_i / |a_i x f_i|`` (on the forearm, ``f_i`` its
direction), at the platform ``b_i`` (on the forearm) and ``a_i`` (on the platform). The leg
then turns the platform only about ``a_i`` and ``b_i``: it holds the rotation about ``a_i x
b_i`` (one row, nearly along the forearm), three independent rows for the three legs, and the
3 x (5 + 4 + 4) = 39 joint rows and 3 drives take the 42 coordinates exactly. The forearm
keeps the distance of its joint points, so the rigid platform is where the Delta's closed-form
kinematics puts it.

A pick-and-place move: the platform goes from (-0.2, -0.1, -0.75) m to (0.2, 0.1, -0.75) m in
T = 0.5 s. The arms' angles at both ends come from the Delta's closed-form inverse kinematics;
each motor runs from one to the other by the cycloidal profile ``Q (t / T - sin(2 pi t / T) /
(2 pi))`` while all three lift by ``sin(pi t / T)^4`` times 12 degrees (both with zero rate and
acceleration at the ends), which raises the platform over the move. The model has loops, so
``rancf.simulate`` runs it on the spatial DAE (theory: The spatial DAE formulation) with
generalized-alpha-S at 2 ms, from the static equilibrium under gravity (``state="static"``).

Checks independent of the run: the closed-form forward kinematics (three spheres' intersection)
of the motors' angles gives the rigid robot's platform at every output, and the platform's
distance from it is the arms' flexibility; at the start (the static equilibrium) it is set
against the sag computed by hand from the rigid robot's statics and the arms' cantilever
compliance. And the loop closure, the energy balance with the motors' work.
"""

import time

import matplotlib.pyplot as plt
import numpy as np

import rancf

R_base, r_platform, L_arm, L_fore = 0.2, 0.05, 0.35, 0.8    # m
r, wall = 0.0125, 0.001                                       # m, the arms' tube
E, G, rho = 70e9, 26e9, 2700.0                                # Pa, Pa, kg/m^3
A, I = 2 * np.pi * r * wall, np.pi * r**3 * wall
m_platform, m_fore = 1.5, 0.2                                 # kg
T, lift = 0.5, 12 * np.pi / 180                               # s, rad
g = 9.81
angles = np.radians([0.0, 120.0, 240.0])
e = np.stack([np.cos(angles), np.sin(angles), np.zeros(3)], axis=1)    # radial, (3, 3)
a = np.stack([-np.sin(angles), np.cos(angles), np.zeros(3)], axis=1)   # motor axes
ez = np.array([0.0, 0.0, 1.0])


def elbows(theta):
    """The arms' ends (3, 3) for the motors' angles theta (3,), rad, arms down for theta > 0."""
    return R_base * e + L_arm * (np.cos(theta)[:, None] * e - np.sin(theta)[:, None] * ez)


def inverse_kinematics(p):
    """The motors' angles (3,) that put the rigid platform's centre at p: in leg i's plane,
    with ``v = p + r_platform e_i - R_base e_i`` (components x along e_i, z along ez),
    ``|elbow - (p + r_platform e_i)| = L_fore`` is ``x cos(theta) - z sin(theta) = K``,
    ``K = (L_arm^2 + |v|^2 - L_fore^2) / (2 L_arm)``: the root with the elbow out."""
    v = p[None] - (R_base - r_platform) * e
    x, z = np.einsum("ij,ij->i", v, e), v[:, 2]
    K = (L_arm**2 + np.einsum("ij,ij->i", v, v) - L_fore**2) / (2 * L_arm)
    return -np.arctan2(z, x) - np.arccos(K / np.hypot(x, z))


def forward_kinematics(theta):
    """The rigid platform's centre (3,) for the motors' angles theta (3,): the lower
    intersection of the spheres of radius L_fore about ``elbow_i - r_platform e_i``."""
    S = elbows(theta) - r_platform * e
    # the differences of the spheres' equations: two planes; their line, then the quadratic
    M, c = 2 * (S[1:] - S[0]), np.sum(S[1:] ** 2, axis=1) - S[0] @ S[0]
    n = np.cross(S[1] - S[0], S[2] - S[0])
    n /= np.linalg.norm(n) * np.sign(n[2])                    # upwards
    d = np.linalg.lstsq(M, c, rcond=None)[0] - S[0]
    return S[0] + d - (d @ n + np.sqrt((d @ n) ** 2 - d @ d + L_fore**2)) * n


def move(Q):
    """Motor i's drive: rest to rest by Q (rad) in T, less the lift; (q, qd, qdd) at t."""
    def drive(t):
        if t >= T:
            return Q, 0.0, 0.0
        s, c = np.sin(np.pi * t / T), np.cos(np.pi * t / T)
        w = np.pi / T
        return (Q * (t / T - 2 * s * c / (2 * np.pi)) - lift * s**4,
                Q / T * 2 * s**2 - lift * 4 * w * s**3 * c,
                Q / T * 4 * w * s * c - lift * 4 * w**2 * (3 * s**2 * c**2 - s**4))
    return drive


pick, place = np.array([-0.2, -0.1, -0.75]), np.array([0.2, 0.1, -0.75])
theta_pick, theta_place = inverse_kinematics(pick), inverse_kinematics(place)
print(f"motor angles at the pick {np.degrees(theta_pick).round(2)} deg, at the place "
      f"{np.degrees(theta_place).round(2)} deg; forward kinematics of the pick's angles misses "
      f"it by {np.linalg.norm(forward_kinematics(theta_pick) - pick):.1e} m")

P, C = elbows(theta_pick), pick + r_platform * e          # elbows, platform joints
f = (C - P) / L_fore                                      # forearm directions
b = np.cross(a, f) / np.linalg.norm(np.cross(a, f), axis=1)[:, None]


def robot(n_elements):
    """The robot in the pick pose, straight arms of ``n_elements`` each: the model, its arms,
    motors and platform."""
    model = rancf.Model(dim=3, gravity=(0.0, 0.0, -g))
    platform = model.add_rigid_body(m_platform, np.diag([3e-3, 3e-3, 5e-3]), position=pick)
    arms, motors, forearms = [], [], []
    for i in range(3):
        arms.append(model.add_beam(L_arm, n_elements, E=E, G=G, rho=rho, A=A, I=(I, I),
                                   J=2 * I, start=R_base * e[i],
                                   direction=(P[i] - R_base * e[i]) / L_arm, up=a[i]))
        motors.append(model.add_joint("revolute", model.ground.point(*(R_base * e[i])),
                                      arms[i].start, axis=a[i],
                                      drive=move(theta_place[i] - theta_pick[i])))
    for i in range(3):
        rod = m_fore * L_fore**2 / 12 * (np.eye(3) - np.outer(f[i], f[i])) + 1e-5 * np.eye(3)
        forearms.append(model.add_rigid_body(m_fore, rod, position=(P[i] + C[i]) / 2))
        model.add_joint("universal", arms[i].end, forearms[i].point(*(-f[i] * L_fore / 2)),
                        axes=[a[i], b[i]])
    for i in range(3):     # the joints that close the two loops
        model.add_joint("universal", forearms[i].point(*(f[i] * L_fore / 2)),
                        platform.point(*(r_platform * e[i])), axes=[b[i], a[i]])
    return model, arms, motors, platform


model, arms, motors, platform = robot(2)
print(f"joints that close a loop: {model.build().loop_joint.tolist()}")

cpu = time.process_time()
res = rancf.simulate(model, t_end=0.8, dt=2e-3, output_every=2, state="static")
cpu = time.process_time() - cpu
print(res, res.method_reason, sep="\n")
print(f"{res.stats['steps']} steps, {res.stats['newton_iterations']} Newton iterations: "
      f"{res.wall_time:.1f} s of wall time, {cpu:.1f} s of CPU (static start included)")
print(f"loop closure: largest constraint residual "
      f"{res.extra['constraint_violation'][:, 0].max():.1e} m")

# %%
# The robot at five times of the move (the arms' nodes, the forearms from their centres to their
# joint points, the joints by kind), the platform's path, and the rigid robot's path: the
# forward kinematics of the motors' angles at each output (``res.joint(motor)`` gives each
# angle from the bodies' poses, counted from the pick pose).

theta = theta_pick + np.stack([res.joint(motor)[0] for motor in motors], axis=1)   # (n_out, 3)
rigid = np.array([forward_kinematics(angle) for angle in theta])
path = res.position(platform.centre)
ax = res.plot(t=[0.0, 0.125, 0.25, 0.375, 0.5])
ax.plot(*path.T, "-", color="tab:red", lw=1.5, label="platform")
ax.plot(*rigid.T, ":", color="k", lw=1, label="rigid robot (forward kinematics)")
ax.legend(loc="upper left", fontsize=8)
ax.set_title("The Delta-like robot, t = 0 to 0.5 s")
print(f"the platform rises {1e3 * (path[:, 2].max() - pick[2]):.0f} mm over the move")

# %%
# The arms' flexibility: the platform's deviation from the rigid robot's place (left) and the
# deflection of each arm's end on its own arm (``res.deflection(arm.end, arm)``: its place in
# the arm's start frame, the motor's, with the rigid turn taken out; section z is the arm's
# bending in the leg's vertical plane, section y sideways along the motor's axis). The arms
# sag under the platform's weight at the start; the acceleration and the deceleration of the
# move bend them further, and they ring at their first frequency after the stop at 0.5 s (the
# scheme's small numerical damping only).

deviation = 1e3 * (path - rigid)                                           # mm
fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4), layout="constrained")
for k, name in enumerate("xyz"):
    left.plot(res.t, deviation[:, k], label=name)
left.plot(res.t, np.linalg.norm(deviation, axis=1), "k--", label="distance")
left.axvline(T, color="grey", lw=0.5)
left.set(xlabel="t (s)", ylabel="platform - rigid robot (mm)")
left.legend()
for i, arm in enumerate(arms):
    bend = 1e3 * res.deflection(arm.end, arm)
    right.plot(res.t, bend[:, 2], color=f"C{i}", label=f"arm {i}, section z")
    right.plot(res.t, bend[:, 1], ":", color=f"C{i}", label=f"arm {i}, section y")
right.axvline(T, color="grey", lw=0.5)
right.set(xlabel="t (s)", ylabel="arm end's deflection (mm)")
right.legend(fontsize=8, ncol=2)
print(f"platform's largest distance from the rigid robot: "
      f"{np.linalg.norm(deviation, axis=1).max():.2f} mm")

# %%
# The check of the start: the static sag computed by hand. The rigid robot's statics gives what
# each forearm carries: a tension t_i along it, a couple mu_i about ``n_i = a_i x b_i`` (the
# one its universal joints hold) and half its weight at either end; the platform's force and
# moment balance, six equations, fix the six. Each arm is a cantilever from its motor, loaded
# at its end by ``F = t_i f_i - m_fore g ez / 2`` and ``M = mu_i n_i`` and along its length by
# its weight w: its end moves by ``F_perp (L^3 / (3 E I) + L / (k G A)) + F_axial L / (E A) +
# (L^2 / (2 E I)) M x x_arm`` and turns by ``(L^2 / (2 E I)) x_arm x F + M_perp L / (E I) +
# M_axial L / (G J)``, plus its weight's share (k = 5/6). The forearms keep their lengths and
# the legs their one held rotation: ``f_i . (dp + dphi x c_i) = f_i . d_elbow_i`` and ``n_i .
# dphi = n_i . dturn_i`` give the platform's displacement dp and rotation dphi. Against the
# run's nonlinear static equilibrium: two elements an arm are somewhat too stiff (the elements'
# discretization error, second order in their length), and the same robot with eight elements
# an arm (``rancf.static``) comes close to the hand computation; the line printed below gives
# both differences, relative to the hand computation's sag.

n = np.cross(a, b)
c = r_platform * e                                           # platform joints from its centre
statics = np.zeros((6, 6))                                   # columns: t_i, mu_i
statics[:3, :3], statics[3:, :3], statics[3:, 3:] = f.T, np.cross(c, f).T, n.T
# the half forearms' weights at the joints have no moment about the centre: sum c_i = 0
load = -np.concatenate([(m_platform + 1.5 * m_fore) * g * ez, np.zeros(3)])
tension, couple = np.split(np.linalg.solve(statics, load), 2)
k = 5 / 6
d_elbow, d_turn = np.zeros((3, 3)), np.zeros((3, 3))
weight = rho * A * g * -ez                                   # N/m
for i in range(3):
    x = (P[i] - R_base * e[i]) / L_arm
    F, M = tension[i] * f[i] - m_fore * g * ez / 2, couple[i] * n[i]
    axial = lambda v: (v @ x) * x
    d_elbow[i] = ((F - axial(F)) * (L_arm**3 / (3 * E * I) + L_arm / (k * G * A))
                  + axial(F) * L_arm / (E * A) + L_arm**2 / (2 * E * I) * np.cross(M, x)
                  + (weight - axial(weight)) * (L_arm**4 / (8 * E * I)
                                                + L_arm**2 / (2 * k * G * A))
                  + axial(weight) * L_arm**2 / (2 * E * A))
    d_turn[i] = (L_arm**2 / (2 * E * I) * np.cross(x, F) + (M - axial(M)) * L_arm / (E * I)
                 + axial(M) * L_arm / (G * 2 * I) + L_arm**3 / (6 * E * I) * np.cross(x, weight))
compatibility = np.block([[f, np.cross(c, f)], [np.zeros((3, 3)), n]])
sag = np.linalg.solve(compatibility, np.concatenate([np.einsum("ij,ij->i", f, d_elbow),
                                                      np.einsum("ij,ij->i", n, d_turn)]))[:3]
fine_model, _, _, fine_platform = robot(8)
fine = rancf.static(fine_model)
fine_sag = 1e3 * (fine.position(fine_platform.centre)[0] - pick)                  # mm
off = lambda d: np.linalg.norm(d - 1e3 * sag) / np.linalg.norm(1e3 * sag)
print(f"forearm tensions {tension.round(2)} N, couples {couple.round(3)} N m; static sag by "
      f"hand {(1e3 * sag).round(3)} mm; in the run (2 elements an arm) "
      f"{deviation[0].round(3)} mm ({100 * off(deviation[0]):.1f} % off), with 8 elements an "
      f"arm {fine_sag.round(3)} mm ({100 * off(fine_sag):.2f} % off)")

# %%
# The motor torques (``res.reaction(motor, "torque")``, the drives' reaction moments about
# their axes) and the energy balance: the motors' work against the kinetic, elastic and
# gravity energies; generalized-alpha-S's numerical damping takes the difference (``total``).

fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4), layout="constrained")
for i, motor in enumerate(motors):
    left.plot(res.t, res.reaction(motor, "torque"), label=f"motor {i}")
left.axvline(T, color="grey", lw=0.5)
left.set(xlabel="t (s)", ylabel="motor torque (N m)")
left.legend()
energy = res.energy()
for column in ("kinetic", "elastic", "gravity", "work"):
    right.plot(energy.t, energy[column] - energy[column][0], label=column)
right.plot(energy.t, energy.total - energy.total[0], "k--", label="total")
right.set(xlabel="t (s)", ylabel="change of energy (J)")
right.legend()
print(f"energy balance: the motors do at most {np.abs(energy.work).max():.3f} J, the total "
      f"changes by {np.ptp(energy.total):.1e} J")

# %%
# The robot moving, at half its speed, with the platform's path.

animation = res.animate(fps=20, speed=0.5, trace=platform.centre)
