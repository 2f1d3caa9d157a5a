"""
A spherical four-bar: a closed loop in space
============================================

Four joint axes through one point O: the input axis ``u_A`` and the output axis ``u_D`` fixed
70 degrees apart, a crank carrying the axis ``u_B`` 25 degrees from ``u_A``, a rocker carrying
``u_C`` 55 degrees from ``u_D``, and a coupler keeping 60 degrees between ``u_B`` and ``u_C``
(Grashof: 25 + 70 <= 60 + 55, the crank the shortest arc, so the crank turns fully and the
rocker swings). A motor turns the crank through half a turn in a second from rest,
``theta = (pi / 2)(1 - cos(pi t))``; three slender rigid rods of 1 to 1.5 kg, gravity along -z.

The last joint closes a loop, so ``rancf.simulate`` runs the model on the spatial DAE (absolute
coordinates, every joint a set of constraint rows; theory: The spatial DAE formulation) with
generalized-alpha-S. Four revolute joints through one point would give three redundant rows (a
singular matrix); the coupler is jointed by a spherical joint at ``R u_B`` and a universal joint
at ``R u_C`` instead, which moves exactly as the four-bar (the user guide's "Closed loops").

The mechanism has one degree of freedom and the motor drives it, so its motion is kinematic: the
rocker's angle phi follows from the crank's theta by the four-bar's input-output relation.
Turning ``u_B`` about ``u_A`` by theta and ``u_C`` about ``u_D`` by phi (Rodrigues' formula),
the coupler's condition ``u_B . u_C = cos 60 deg`` becomes ``P cos(phi) + S sin(phi) = C`` with
``P = u_B . u_C0 - (u_D . u_B)(u_D . u_C0)``, ``S = u_B . (u_D x u_C0)``,
``C = cos 60 deg - (u_D . u_B)(u_D . u_C0)``: a closed form to check the run against.
"""

import matplotlib.pyplot as plt
import numpy as np

import rancf

deg = np.pi / 180
uA = np.array([0.0, 0.0, 1.0])
uD = np.array([np.sin(70 * deg), 0.0, np.cos(70 * deg)])
uB = np.array([np.sin(25 * deg) * np.cos(100 * deg), np.sin(25 * deg) * np.sin(100 * deg),
               np.cos(25 * deg)])
base = np.linalg.lstsq(np.array([uB, uD]), np.cos([60 * deg, 55 * deg]), rcond=None)[0]
normal = np.cross(uB, uD)
uC = base + np.sqrt(1 - base @ base) / np.linalg.norm(normal) * normal
A, B, C, D = 0.5 * uA, 0.5 * uB, 0.5 * uC, 0.5 * uD          # joint points on a 0.5 m sphere


def rotate(u, angle, v):
    """v turned about the unit vector u by angle (Rodrigues)."""
    return v * np.cos(angle) + np.cross(u, v) * np.sin(angle) + u * (u @ v) * (1 - np.cos(angle))


def closed_form(theta):
    """The rocker's angle for the crank's angles theta (in order), on the branch through 0."""
    out, previous = [], 0.0
    for th in theta:
        b = rotate(uA, th, uB)
        P = b @ uC - (uD @ b) * (uD @ uC)
        S = b @ np.cross(uD, uC)
        Cc = np.cos(60 * deg) - (uD @ b) * (uD @ uC)
        roots = np.arctan2(S, P) + np.array([1.0, -1.0]) * np.arccos(Cc / np.hypot(P, S))
        roots = previous + (roots - previous + np.pi) % (2 * np.pi) - np.pi
        previous = roots[np.argmin(np.abs(roots - previous))]
        out.append(previous)
    return np.array(out)


model = rancf.Model(dim=3, gravity=(0.0, 0.0, -9.81))


def rod(mass, p, q):
    """A slender rigid rod from p to q (its inertia about the centre, plus a little)."""
    e = (q - p) / np.linalg.norm(q - p)
    J = mass * np.sum((q - p) ** 2) / 12 * (np.eye(3) - np.outer(e, e)) + 1e-4 * np.eye(3)
    return model.add_rigid_body(mass, J, position=(p + q) / 2)


crank, coupler, rocker = rod(1.0, A, B), rod(1.5, B, C), rod(1.2, D, C)
at = lambda body, p: body.point(*(p - body.position))
motor = model.add_joint("revolute", model.ground.point(*A), at(crank, A), axis=uA,
                        drive=lambda t: (np.pi / 2 * (1 - np.cos(np.pi * t)),
                                         np.pi**2 / 2 * np.sin(np.pi * t),
                                         np.pi**3 / 2 * np.cos(np.pi * t)))
model.add_joint("spherical", at(crank, B), at(coupler, B))
output = model.add_joint("revolute", model.ground.point(*D), at(rocker, D), axis=uD)
a1 = np.cross(uC, C - B) / np.linalg.norm(np.cross(uC, C - B))
closing = model.add_joint("universal", at(coupler, C), at(rocker, C), axes=[uC, a1])
print(f"joints that close a loop: {model.build().loop_joint.tolist()}")

res = rancf.simulate(model, t_end=1.0, dt=1e-2, output_every=2)
print(res, res.method_reason, sep="\n")
theta, _ = res.joint(motor)
phi, _ = res.joint(output)
print(f"rocker angle against the closed form: largest difference "
      f"{np.abs(phi - closed_form(theta)).max():.1e} rad over a swing of {np.ptp(phi):.3f} rad")
print(f"loop closure: largest constraint residual "
      f"{res.extra['constraint_violation'][:, 0].max():.1e} m")
energy = res.energy()
print(f"energy balance: motor work {energy.work.iloc[-1]:.4f} J, kinetic + gravity - work "
      f"changes by {np.ptp(energy.total):.1e} J (generalized-alpha-S's error at this step)")

# %%
# The rocker's angle against the crank's (the closed form as a line), and the motor's torque:
# the component of the drive joint's reaction moment along its axis. Its power, integrated,
# is the work in the energy table; the gravity of the rods and their inertia load the motor.

torque = res.reaction(motor)[:, 3:] @ uA
fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 4), layout="constrained")
sweep = np.linspace(0.0, np.pi, 200)
ax1.plot(sweep / deg, closed_form(sweep) / deg, "-", color="0.6", label="closed form")
ax1.plot(theta / deg, phi / deg, "o", ms=4, label="rancf (spatial DAE)")
ax1.set(xlabel="crank angle theta (deg)", ylabel="rocker angle phi (deg)",
        title="Input-output relation")
ax1.legend()
ax2.plot(res.t, torque, "-")
ax2.set(xlabel="t (s)", ylabel="motor torque (N m)", title="Drive torque about u_A")

# %%
# The mechanism at five times (the rods as lines from their centres to their joint points,
# the joints by kind); the unit sphere's radius is 0.5 m, and every joint point stays on it.

ax = res.plot(t=[0.0, 0.25, 0.5, 0.75, 1.0])
ax.set_title("The spherical four-bar, t = 0 to 1 s")
radius = np.linalg.norm(res.position(at(coupler, C)), axis=1)
print(f"the coupler's end stays on the sphere: |r| in [{radius.min():.12f}, "
      f"{radius.max():.12f}] m")
