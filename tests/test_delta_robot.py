"""The Delta-like robot of the gallery (examples/plot_20_delta_robot.py: three driven flexible
arms, forearms on universal joints at both ends, a platform that translates), built here at a
coarse setting, against values computed without the run: the closed-form forward kinematics of
the motors' angles (where the rigid robot puts the platform), a bound on the arms' deflection
from their cantilever compliance under the rigid move's loads, and the static sag of the
linear elastic arms under the rigid robot's statics. The example is a standalone script, so the
geometry is written again here."""
import numpy as np

import rancf

R_BASE, R_PLATFORM, L_ARM, L_FORE = 0.2, 0.05, 0.35, 0.8     # m
R_TUBE, WALL = 0.0125, 0.001                                  # m
E, G, RHO = 70e9, 26e9, 2700.0
A, I = 2 * np.pi * R_TUBE * WALL, np.pi * R_TUBE**3 * WALL
M_PLATFORM, M_FORE = 1.5, 0.2                                 # kg
T, LIFT, GRAVITY = 0.5, 12 * np.pi / 180, 9.81
K_SHEAR = 5 / 6                                               # the beam's default kappa
ANGLES = np.radians([0.0, 120.0, 240.0])
e = np.stack([np.cos(ANGLES), np.sin(ANGLES), np.zeros(3)], axis=1)
a = np.stack([-np.sin(ANGLES), np.cos(ANGLES), np.zeros(3)], axis=1)
ez = np.array([0.0, 0.0, 1.0])
PICK, PLACE = np.array([-0.2, -0.1, -0.75]), np.array([0.2, 0.1, -0.75])


def elbows(theta):
    return R_BASE * e + L_ARM * (np.cos(theta)[:, None] * e - np.sin(theta)[:, None] * ez)


def inverse_kinematics(p):
    """Leg i's loop closure ``|elbow_i(theta) - p - r e_i| = L_FORE`` in its plane:
    ``x cos(theta) - z sin(theta) = K``, the root with the elbow out."""
    v = p[None] - (R_BASE - R_PLATFORM) * e
    x, z = np.einsum("ij,ij->i", v, e), v[:, 2]
    K = (L_ARM**2 + np.einsum("ij,ij->i", v, v) - L_FORE**2) / (2 * L_ARM)
    return -np.arctan2(z, x) - np.arccos(K / np.hypot(x, z))


def forward_kinematics(theta):
    """The lower intersection of the three spheres of radius L_FORE about
    ``elbow_i - r e_i``."""
    S = elbows(theta) - R_PLATFORM * e
    M, c = 2 * (S[1:] - S[0]), np.sum(S[1:] ** 2, axis=1) - S[0] @ S[0]
    n = np.cross(S[1] - S[0], S[2] - S[0])
    n /= np.linalg.norm(n) * np.sign(n[2])
    d = np.linalg.lstsq(M, c, rcond=None)[0] - S[0]
    return S[0] + d - (d @ n + np.sqrt((d @ n) ** 2 - d @ d + L_FORE**2)) * n


THETA_PICK, THETA_PLACE = inverse_kinematics(PICK), inverse_kinematics(PLACE)
P, C = elbows(THETA_PICK), PICK + R_PLATFORM * e
F_DIR = (C - P) / L_FORE
B_AXIS = np.cross(a, F_DIR) / np.linalg.norm(np.cross(a, F_DIR), axis=1)[:, None]


def angle(Q, t):
    """The drive's angle: rest to rest by Q in T (cycloidal) less the lift ``sin(pi t/T)^4``."""
    t = np.minimum(t, T)
    s, c = np.sin(np.pi * t / T), np.cos(np.pi * t / T)
    return Q * (t / T - 2 * s * c / (2 * np.pi)) - LIFT * s**4


def move(Q):
    def drive(t):
        if t >= T:
            return Q, 0.0, 0.0
        s, c, w = np.sin(np.pi * t / T), np.cos(np.pi * t / T), np.pi / T
        return (angle(Q, t), Q / T * 2 * s**2 - LIFT * 4 * w * s**3 * c,
                Q / T * 4 * w * s * c - LIFT * 4 * w**2 * (3 * s**2 * c**2 - s**4))
    return drive


def robot(n_elements):
    model = rancf.Model(dim=3, gravity=(0.0, 0.0, -GRAVITY))
    platform = model.add_rigid_body(M_PLATFORM, np.diag([3e-3, 3e-3, 5e-3]), position=PICK)
    arms, motors, forearms = [], [], []
    for i in range(3):
        arms.append(model.add_beam(L_ARM, n_elements, E=E, G=G, rho=RHO, A=A, I=(I, I),
                                   J=2 * I, start=R_BASE * e[i],
                                   direction=(P[i] - R_BASE * e[i]) / L_ARM, up=a[i]))
        motors.append(model.add_joint("revolute", model.ground.point(*(R_BASE * e[i])),
                                      arms[i].start, axis=a[i],
                                      drive=move(THETA_PLACE[i] - THETA_PICK[i])))
    for i in range(3):
        f = F_DIR[i]
        rod = M_FORE * L_FORE**2 / 12 * (np.eye(3) - np.outer(f, f)) + 1e-5 * np.eye(3)
        forearms.append(model.add_rigid_body(M_FORE, rod, position=(P[i] + C[i]) / 2))
        model.add_joint("universal", arms[i].end, forearms[i].point(*(-f * L_FORE / 2)),
                        axes=[a[i], B_AXIS[i]])
    for i in range(3):
        model.add_joint("universal", forearms[i].point(*(F_DIR[i] * L_FORE / 2)),
                        platform.point(*(R_PLATFORM * e[i])), axes=[B_AXIS[i], a[i]])
    return model, arms, motors, platform


def leg_loads(f, n, c, load):
    """The rigid robot's statics at a pose (forearm directions f, held-moment axes n, platform
    joints c from its centre, all (3, 3)): the forearms' tensions t_i (N) and couples mu_i
    (N m) about n_i (their universal joints' one held moment) from the platform's force and
    moment balance ``sum t_i f_i = -load``, ``sum c_i x t_i f_i + mu_i n_i = 0``; ``load`` (3,)
    is ``m (g e_z + a)`` of the platform with the half forearms at its joints (N): minus the
    sum of their weight ``-m g e_z`` and d'Alembert force ``-m a``, what the legs must
    supply. A tension t_i > 0 pulls the platform towards the elbow (the force ``-t_i f_i``
    on it, f_i pointing from elbow to platform)."""
    statics = np.zeros((6, 6))
    statics[:3, :3], statics[3:, :3], statics[3:, 3:] = f.T, np.cross(c, f).T, n.T
    return np.split(np.linalg.solve(statics, -np.concatenate([load, np.zeros(3)])), 2)


def arm_end_motion(x, F, M, w):
    """A cantilever of length L_ARM along x, loaded by F (N) and M (N m) at its end and by w
    (N/m) along it: the end's displacement (m) and rotation (rad), Timoshenko, linear."""
    along = lambda v: (v @ x) * x
    move_ = ((F - along(F)) * (L_ARM**3 / (3 * E * I) + L_ARM / (K_SHEAR * G * A))
             + along(F) * L_ARM / (E * A) + L_ARM**2 / (2 * E * I) * np.cross(M, x)
             + (w - along(w)) * (L_ARM**4 / (8 * E * I) + L_ARM**2 / (2 * K_SHEAR * G * A))
             + along(w) * L_ARM**2 / (2 * E * A))
    turn = (L_ARM**2 / (2 * E * I) * np.cross(x, F) + (M - along(M)) * L_ARM / (E * I)
            + along(M) * L_ARM / (G * 2 * I) + L_ARM**3 / (6 * E * I) * np.cross(x, w))
    return move_, turn


def quasi_static_deflection(t):
    """The platform's displacement (m) from the rigid robot's place at time t of the move with
    linear elastic arms and rigid forearms under the loads of the rigid motion: gravity and the
    d'Alembert forces of the platform, the forearms (half at either end) and the arms (their
    mean acceleration, half the elbow's, spread along them), the accelerations by central
    differences of the closed forms. The legs keep the forearms' lengths and their one held
    rotation: ``f_i . (dp + dphi x c_i) = f_i . d_elbow_i``, ``n_i . dphi = n_i . dturn_i``."""
    theta = lambda s: THETA_PICK + angle(THETA_PLACE - THETA_PICK, s)
    h = 1e-4
    second = lambda fn: (fn(t + h) - 2 * fn(t) + fn(t - h)) / h**2
    p, elbow = forward_kinematics(theta(t)), elbows(theta(t))
    p_acc = second(lambda s: forward_kinematics(theta(s)))
    elbow_acc = second(lambda s: elbows(theta(s)))
    c = R_PLATFORM * e
    f = (p + c - elbow) / L_FORE
    b = np.cross(a, f) / np.linalg.norm(np.cross(a, f), axis=1)[:, None]
    n = np.cross(a, b)
    tension, couple = leg_loads(f, n, c, (M_PLATFORM + 1.5 * M_FORE) * (GRAVITY * ez + p_acc))
    moves, turns = zip(*(arm_end_motion(
        (elbow[i] - R_BASE * e[i]) / L_ARM,
        tension[i] * f[i] - M_FORE / 2 * (GRAVITY * ez + elbow_acc[i]), couple[i] * n[i],
        -RHO * A * (GRAVITY * ez + elbow_acc[i] / 2)) for i in range(3)))
    compatibility = np.block([[f, np.cross(c, f)], [np.zeros((3, 3)), n]])
    rhs = np.concatenate([np.einsum("ij,ij->i", f, moves), np.einsum("ij,ij->i", n, turns)])
    return np.linalg.solve(compatibility, rhs)[:3]


def test_inverse_and_forward_kinematics_agree():
    """The two closed forms are inverse to each other along the move (each solves the loop
    closure from the other side)."""
    for t in np.linspace(0.0, T, 7):
        theta = THETA_PICK + angle(THETA_PLACE - THETA_PICK, t)
        p = forward_kinematics(theta)
        assert np.allclose(np.linalg.norm(elbows(theta) - R_PLATFORM * e - p, axis=1), L_FORE,
                           rtol=0, atol=1e-12)
        assert np.abs(inverse_kinematics(p) - theta).max() <= 1e-9


def test_static_sag_converges_to_the_linear_elastic_arms():
    """The static equilibrium of the loop (spatial DAE statics) against the hand computation:
    the arms' SE(3) elements converge to the cantilever compliance at second order (the gap
    falls by about 4 from 2 to 4 elements) and, at 8 elements, within 1 % of the sag; what
    the hand computation leaves out, the change of the robot's geometry by the sag (0.5 mm on
    0.35 m arms and 0.8 m forearms), is about 1e-3 of it."""
    sag = quasi_static_deflection(0.0)     # the drives start with zero acceleration
    gaps = []
    for n in (2, 4, 8):
        model, _, _, platform = robot(n)
        eq = rancf.static(model)
        assert eq.status == "ok"
        gaps.append(np.linalg.norm(eq.position(platform.centre)[0] - PICK - sag))
    assert gaps[1] <= gaps[0] / 3, gaps
    assert gaps[2] <= 0.01 * np.linalg.norm(sag), (gaps, sag)


def test_coarse_robot_closes_its_loops_and_follows_the_rigid_kinematics():
    """One element an arm, 5 ms steps over the move: the loops stay closed to the Newton
    tolerance; the motors' angles (from the bodies' poses) are the drives'; the platform stays
    within the arms' deflection bound of where the rigid robot's forward kinematics of the
    drives' angles puts it, and starts near the static sag.

    The upper bound, fixed before the run: twice the largest quasi-static deflection under the
    rigid move's loads. What makes it hold is the move's smoothness: its loads (the
    cycloidal-with-lift profile has continuous accelerations) change over times much longer
    than the arms' first period (the accelerations rise and fall over about 0.25 s, the
    period is about 0.04 s), so the structure follows them quasi-statically and its dynamic
    overshoot is a fraction of the static deflection; the factor 2 leaves room for that
    fraction. (It is not a bound on every load history: a load reversed suddenly moves a
    spring-mass by up to 3 F/k.) One element an arm is stiffer than the arms, which only
    lowers the deflection.

    The lower check: the run starts in the one-element robot's static equilibrium
    (``state="static"``), so at t = 0 its distance from the rigid pose is that model's sag.
    The hand computation gives the arms' sag; the elements converge to it at second order,
    within 1 % at 8 elements (:func:`test_static_sag_converges_to_the_linear_elastic_arms`),
    which puts one element within 64 % of it: a distance at t = 0 of at least 0.36 of the
    hand computation's sag (rigid arms would give 0)."""
    sag = np.linalg.norm(quasi_static_deflection(0.0))
    bound = 2 * max(np.linalg.norm(quasi_static_deflection(t)) for t in np.linspace(0, T, 101))
    model, _, motors, platform = robot(1)
    res = rancf.simulate(model, t_end=T, dt=5e-3, output_every=4, state="static")
    assert res.status == "ok" and res.formulation == "dae"
    assert res.extra["constraint_violation"][:, 0].max() <= 1e-10
    theta = THETA_PICK + np.stack([res.joint(m)[0] for m in motors], axis=1)
    drives = THETA_PICK + np.stack([angle(THETA_PLACE[i] - THETA_PICK[i], res.t)
                                    for i in range(3)], axis=1)
    assert np.abs(theta - drives).max() <= 1e-9
    rigid = np.array([forward_kinematics(th) for th in drives])
    distance = np.linalg.norm(res.position(platform.centre) - rigid, axis=1)
    assert distance.max() <= bound, (distance.max(), bound)
    assert abs(distance[0] - sag) <= 0.64 * sag, (distance[0], sag)
