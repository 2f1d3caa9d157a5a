"""One convention for a joint's reaction in both dimensions and every formulation (planar
recursion and DAE, spatial recursion and DAE): the reaction is what the joint's constraint
transmits; the joint's effort and rotational spring-damper are applied forces, not part of it
(:meth:`rancf.Result.reaction`). References: the free-body balance of a rigid body on its
joint, its acceleration from the closed-form equation of motion about the joint at the stored
state (Newton-Euler, independent of both formulations); a revolute, spherical or free joint
transmits no moment about the directions it frees; statics, where the reaction is the weight;
and the other formulation at the same state."""
import warnings

import numpy as np
import pytest
from scipy.spatial.transform import Rotation

import rancf
from rancf.formulations import recursive, spatial
from rancf.formulations.dae import DAE
from rancf.formulations.spatial_dae import SpatialDAE
from rancf.joints._codes import R_AXIS, R_TWO_AXES, R_VECTOR, T_AXIS, T_FREE
from rancf.joints.kind import link_motion
from test_spatial_dae_forces import forced_tree

G = 9.81
MASS, K, C, EFFORT = 2.0, 10.0, 0.5, 3.0      # kg, N m/rad, N m s/rad, N m


def rotation(axis, angle):
    return Rotation.from_rotvec(np.outer(np.atleast_1d(angle), axis)).as_matrix()


# --- planar -----------------------------------------------------------------------------------
INERTIA, ARM = 0.05, 0.3      # kg m^2 about the centre, m from the pin to the centre


def planar_pendulum(drive=None):
    """A rigid body on a pin at the origin, its centre ARM along x, gravity -y, a torsion
    spring-damper (K, C, rest angle 0) and a constant effort EFFORT on the pin, or (``drive``)
    driven with the spring on it and no effort."""
    m = rancf.Model(gravity=(0.0, -G))
    body = m.add_rigid_body(MASS, INERTIA, position=(ARM, 0.0))
    pin = m.add_joint("revolute", m.ground.point(0.0, 0.0), body.point(-ARM, 0.0),
                      effort=None if drive else EFFORT, drive=drive)
    m.add_rotational_spring_damper(pin, K, C)
    return m, pin


def planar_free_body(q, qd, qdd):
    """The force [fx, fy] (n, 2) the pin exerts on the body: ``m a_G - m g`` with a_G of the
    body turning about the pin at (q, qd, qdd)."""
    e = np.stack([np.cos(q), np.sin(q)], axis=1)
    n = np.stack([-np.sin(q), np.cos(q)], axis=1)
    a = ARM * (qdd[:, None] * n - qd[:, None] ** 2 * e)
    return MASS * a - MASS * np.array([0.0, -G])


@pytest.mark.parametrize("formulation, method, bound", [("recursive", "rk4", 1e-11),
                                                        ("dae", "hht", 1e-8)])
def test_a_planar_pin_with_a_spring_and_an_effort_transmits_their_moment_not(
        formulation, method, bound):
    """The pin's reaction has no moment (the spring's and the effort's torques are applied)
    and its force is the body's weight and inertia, ``m a_G - m g``, a_G from
    ``I_O q'' = EFFORT - K q - C q' - m g l cos q`` at each stored state. Bounds stated before:
    round-off (1e-11 of the force) at the recursion's states; the DAE's states hold the pin
    to Newton's tolerance (1e-10 m), which moves a_G by about that much relative: 1e-8."""
    m, pin = planar_pendulum()
    res = rancf.simulate(m, t_end=0.3, dt=1e-3, method=method, formulation=formulation)
    assert res.status == "ok" and res.formulation == formulation
    q, qd = res.joint(pin)
    qdd = (EFFORT - K * q - C * qd - MASS * G * ARM * np.cos(q)) / (INERTIA + MASS * ARM ** 2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        reaction = res.reaction(pin)
    F = planar_free_body(q, qd, qdd)
    scale = np.abs(F).max()
    assert np.ptp(q) > 0.1 and scale > 10.0
    assert np.abs(reaction[:, 2]).max() <= 1e-12 * scale * ARM
    assert np.abs(reaction[:, :2] - F).max() <= bound * scale


def test_planar_recursion_and_dae_give_the_same_reaction_at_the_same_states():
    """At the states of a recursive run of the sprung pendulum with its effort, the recursion's
    articulated residual and the DAE's multipliers give the same reaction (1e-9 of the
    largest; both the exact dynamics of the state)."""
    m, pin = planar_pendulum()
    res = rancf.simulate(m, t_end=0.3, dt=1e-3, method="rk4", formulation="recursive")
    A = m.build()
    rec, dae = recursive.Recursive(A), DAE(A)
    for i in range(len(res.t)):
        x, v = res.nodes[i].ravel(), res.velocities[i].ravel()
        y = np.concatenate([x, res.extra["beta"][i], [0.0, 0.0]])
        wrench_r = rec.motion(res.t[i], y, res.joint_q[i])[1]
        dae.accept(x, v, res.t[i])
        wrench_d = dae.joint_reactions(x, dae.motion(x, v, res.t[i])[1], res.t[i])
        scale = np.abs(wrench_r).max()
        assert scale > 10.0 and np.abs(wrench_r - wrench_d).max() <= 1e-9 * scale


def test_a_planar_motor_supplies_its_spring_and_the_torque_is_the_motors():
    """A driven pin ``q = 2 t^2`` with the spring-damper on it: ``reaction(pin, "torque")`` is
    the motor's torque, which carries the spring as a load: ``I_O q'' + m g l cos q + K q +
    C q'``, at the recursion's states to round-off (1e-11), and the DAE's held torque
    ``-lambda |p| |c|`` at the same states (consistent ones: a DAE run's own states hold the
    velocity rows only to its scheme's order) within 1e-9."""
    m, pin = planar_pendulum(drive=lambda t: (2.0 * t * t, 4.0 * t, 4.0))
    res = rancf.simulate(m, t_end=0.3, dt=1e-3, method="rk4", formulation="recursive")
    assert res.status == "ok"
    q, qd = res.joint(pin)
    motor = (INERTIA + MASS * ARM ** 2) * 4.0 + MASS * G * ARM * np.cos(q) + K * q + C * qd
    torque = res.reaction(pin, "torque")
    scale = np.abs(motor).max()
    assert np.abs(torque - motor).max() <= 1e-11 * scale
    # the full reaction's moment is that torque: the drive is the constraint's
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        assert np.abs(res.reaction(pin)[:, 2] - torque).max() <= 1e-12 * scale
    dae = DAE(m.build())
    X, V = res.nodes.reshape(len(res.t), -1), res.velocities.reshape(len(res.t), -1)
    lam = np.array([dae.motion(x, v, t)[1] for x, v, t in zip(X, V, res.t)])
    held = dae.held_reactions(X, lam)[:, pin.index]
    assert np.abs(held - motor).max() <= 1e-9 * scale


def test_a_planar_statics_reaction_is_the_weight():
    """At the equilibrium of the sprung pin with its effort the pin holds the weight, (0, m g),
    and no moment (the spring and effort balance the weight's): within Newton's tolerance."""
    m, pin = planar_pendulum()
    eq = rancf.static(m)
    assert eq.status == "ok"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        reaction = eq.reaction(pin)[0]
    np.testing.assert_allclose(reaction, [0.0, MASS * G, 0.0], rtol=0, atol=1e-8 * MASS * G)


# --- spatial ----------------------------------------------------------------------------------
J_BODY = np.array([[0.02, 0.003, 0.0], [0.003, 0.05, 0.001], [0.0, 0.001, 0.04]])
CENTRE = np.array([0.3, 0.05, 0.1])          # from the joint point at the origin, m
AXIS = np.array([1.0, 2.0, 2.0]) / 3.0
GRAVITY = np.array([0.0, -G, 0.0])
TORQUE = np.array([0.4, -0.2, 0.3])          # N m, a spherical joint's effort
REST = 1.0                                   # rad, the revolute's spring's rest angle


def spatial_pendulum(kind):
    """A rigid body hung from the origin by a revolute (axis AXIS, the spring-damper K, C and
    the effort EFFORT, the spring's rest angle REST: it swings) or a spherical joint (the
    spring-damper K, C and the effort TORQUE), gravity -y."""
    m = rancf.Model(dim=3, gravity=tuple(GRAVITY))
    body = m.add_rigid_body(MASS, J_BODY, position=tuple(CENTRE))
    point = body.point(*(-CENTRE))
    if kind == "revolute":
        joint = m.add_joint("revolute", m.ground.point(0.0, 0.0, 0.0), point, axis=AXIS,
                            effort=EFFORT)
        m.add_rotational_spring_damper(joint, K, C, rest_angle=REST)
    else:
        joint = m.add_joint("spherical", m.ground.point(0.0, 0.0, 0.0), point,
                            effort=TORQUE)
        m.add_rotational_spring_damper(joint, K, C)
    return m, body, joint


def spatial_free_body(A, w, T):
    """Newton-Euler of the body turning about the fixed joint point (the origin), frames A
    (n, 3, 3) and angular velocities w (n, 3), under gravity and the applied torque T (n, 3;
    the joint's spring and effort): ``I_x w' + w x I_x w = rho x m g + T + M`` with M the
    joint's moment about the point, ``I_x = A J A^T + m (|rho|^2 I - rho rho^T)``. Returns
    ``(alpha_free, F, Ix, rho)``: the angular acceleration with M = 0, the force ``m a_G - m g``
    of it, the inertias and the centres rho (n, 3)."""
    rho = np.einsum("nij,j->ni", A, CENTRE)
    Ig = np.einsum("nij,jk,nlk->nil", A, J_BODY, A)
    Ix = Ig + MASS * (np.einsum("ni,ni->n", rho, rho)[:, None, None] * np.eye(3)
                      - np.einsum("ni,nj->nij", rho, rho))
    rhs = np.cross(rho, MASS * GRAVITY) + T - np.cross(w, np.einsum("nij,nj->ni", Ix, w))
    alpha = np.linalg.solve(Ix, rhs[..., None])[..., 0]
    aG = np.cross(alpha, rho) + np.cross(w, np.cross(w, rho))
    return alpha, MASS * aG - MASS * GRAVITY, Ix, rho


@pytest.mark.parametrize("formulation, method, bound", [("auto", "rk4", 1e-11),
                                                        ("dae", "hht", 1e-8)])
def test_a_spatial_revolute_with_a_spring_and_an_effort_holds_no_moment_about_its_axis(
        formulation, method, bound):
    """A body on a tilted revolute with a spring-damper and an effort: the reaction's moment
    about the axis is zero (round-off) and its force and moment are the body's free-body
    balance about the pin: the turn's ``q''`` from ``I_a q'' = tau + a . (rho x m g)``
    (``I_a = a . I_x a``, tau the spring's and effort's), ``F = m a_G - m g`` and
    ``M = I_x w' + w x I_x w - rho x m g - tau a``. Bounds as planar: round-off at the
    recursion's states (1e-11), the DAE's held to Newton's tolerance (1e-8)."""
    m, body, joint = spatial_pendulum("revolute")
    res = rancf.simulate(m, t_end=0.5, dt=1e-3, method=method, formulation=formulation)
    assert res.status == "ok"
    q, qd = (z.ravel() for z in res.joint(joint))
    A = rotation(AXIS, q)
    w = qd[:, None] * AXIS
    tau = EFFORT - K * (q - REST) - C * qd
    _, _, Ix, rho = spatial_free_body(A, w, 0.0 * w)
    Ia = np.einsum("i,nij,j->n", AXIS, Ix, AXIS)
    qdd = (tau + np.cross(rho, MASS * GRAVITY) @ AXIS) / Ia
    alpha = qdd[:, None] * AXIS
    F = MASS * (np.cross(alpha, rho) + np.cross(w, np.cross(w, rho))) - MASS * GRAVITY
    M = (np.einsum("nij,nj->ni", Ix, alpha) + np.cross(w, np.einsum("nij,nj->ni", Ix, w))
         - np.cross(rho, MASS * GRAVITY) - tau[:, None] * AXIS)
    reaction = res.reaction(joint)
    scale = np.abs(F).max()
    assert np.ptp(q) > 0.1 and scale > 10.0 and np.abs(M).max() > 0.1
    assert np.abs(reaction[:, 3:] @ AXIS).max() <= 1e-12 * scale
    assert np.abs(res.reaction(joint, "torque")).max() <= 1e-12 * scale
    assert np.abs(reaction[:, :3] - F).max() <= bound * scale
    assert np.abs(reaction[:, 3:] - M).max() <= bound * scale


@pytest.mark.parametrize("formulation, method, bound", [("auto", "rk4", 1e-11),
                                                        ("dae", "hht", 1e-8)])
def test_a_spatial_spherical_joint_with_a_spring_holds_no_moment(formulation, method, bound):
    """A body on a spherical joint with a spring-damper and a torque effort: the reaction's
    moment is zero (round-off of the force) and its force is ``m a_G - m g``, a_G from
    Euler's equations about the joint point at each stored frame, the spring's torque
    ``-K theta - C w`` (theta = log A: rest at the reference) and the effort's added."""
    m, body, joint = spatial_pendulum("spherical")
    res = rancf.simulate(m, t_end=0.3, dt=1e-3, method=method, formulation=formulation)
    assert res.status == "ok"
    A = res.orientation(body.centre)
    w = res.angular_velocity(body.centre)
    theta = Rotation.from_matrix(A).as_rotvec()
    _, F, _, _ = spatial_free_body(A, w, TORQUE - K * theta - C * w)
    reaction = res.reaction(joint)
    scale = np.abs(F).max()
    assert np.abs(theta).max() > 0.1 and scale > 10.0
    assert np.abs(reaction[:, 3:]).max() <= 1e-12 * scale
    assert np.abs(reaction[:, :3] - F).max() <= bound * scale


@pytest.mark.parametrize("kind", ["revolute", "spherical"])
def test_spatial_recursion_and_dae_give_the_same_reaction_at_the_same_states(kind):
    """At random states of the sprung pendulums with their efforts, the recursion's link wrench
    less the effort's and spring's and the DAE's multipliers give the same reaction (1e-9 of
    the largest; both the exact dynamics of the state)."""
    m, _, joint = spatial_pendulum(kind)
    rec = spatial.of_model(m)
    dae = SpatialDAE(m.build(), *spatial.model_inputs(m))
    rng = np.random.default_rng(5)
    for t in (0.0, 0.4, 1.1):
        y = np.concatenate([rng.uniform(-1.5, 1.5, rec.n_q), rng.uniform(-2.0, 2.0, rec.n_q)])
        wrench_r = rec.reactions(t, y)
        x, v = dae.state_of(y, t)
        wrench_d = dae.reactions(x, dae.multipliers(x, v, t)[1], t)
        scale = np.abs(wrench_r).max()
        assert scale > 10.0 and np.abs(wrench_r - wrench_d).max() <= 1e-9 * scale


@pytest.mark.parametrize("seed", range(3))
def test_a_spatial_reaction_does_no_work_on_its_joints_free_motion(seed):
    """A random tree of every joint kind with efforts on every joint that takes one and
    springs on its revolute, prismatic and spherical joints (``forced_tree``), at a random
    state: each joint's reaction (the recursion's, the DAE's the same by
    test_efforts_and_springs_give_the_recursions_accelerations) has no force along a sliding
    axis ``A_p a0`` and no moment about a turning axis (``A_p a0``, a universal joint's
    second axis ``A_c Q^T a1``), none at all at a spherical joint's moment or a free joint:
    a constraint does no work on the motion it frees (1e-12 of the largest reaction)."""
    rng, tree, efforts = forced_tree(seed)
    rec = spatial.Spatial(tree, efforts=efforts)
    y = np.concatenate([rng.uniform(-1.2, 1.2, tree.n_q), rng.uniform(-2, 2, tree.n_q)])
    reactions = rec.reactions(0.3, y)
    _, A, _ = rec.kinematics(y)
    scale = np.abs(reactions).max()
    checked = 0
    for j, b in enumerate(np.asarray(tree.joint_body, dtype=int)):
        kind = link_motion(int(tree.motion[b]))
        p = int(tree.parent[b])
        Ap = np.eye(3) if p < 0 else A[p]
        a0, a1 = tree.axes[b]
        F, M = reactions[j, :3], reactions[j, 3:]
        free = []
        if kind.translation == T_AXIS:
            free.append(F @ (Ap @ a0))
        elif kind.translation == T_FREE:
            free += list(F)
        if kind.rotation == R_AXIS:
            free.append(M @ (Ap @ a0))
        elif kind.rotation == R_VECTOR:
            free += list(M)
        elif kind.rotation == R_TWO_AXES:
            free += [M @ (Ap @ a0), M @ (A[b] @ tree.relative[b].T @ a1)]
        checked += len(free)
        assert np.abs(free).max(initial=0.0) <= 1e-12 * scale, (j, kind)
    assert checked >= 10 and scale > 0.1


def test_a_spatial_statics_reaction_is_the_weight():
    """At the equilibrium of the ball-jointed body held up by its spring (and effort) the
    joint holds the weight, (0, m g, 0), and no moment: within Newton's tolerance."""
    m, body, joint = spatial_pendulum("spherical")
    eq = rancf.static(m)
    assert eq.status == "ok"
    np.testing.assert_allclose(eq.reaction(joint)[0], [0.0, MASS * G, 0.0, 0.0, 0.0, 0.0],
                               rtol=0, atol=1e-8 * MASS * G)


# --- a drive's work against its joint's own spring-damper ---------------------------------------
def _trapezoid(t, p):
    """The integral of p over t (s) from t[0] to each t, by the trapezoidal rule."""
    return np.concatenate([[0.0], np.cumsum(0.5 * (p[1:] + p[:-1]) * np.diff(t))])


@pytest.mark.parametrize("formulation, method", [("recursive", "rk4"), ("dae", "hht")])
def test_a_planar_drive_s_work_against_its_spring_closes_the_energy_balance(formulation,
                                                                            method):
    """The driven sprung pin (``q = 2 t^2``, the spring-damper K, C on it): the drive's work is
    its torque (``reaction(pin, "torque")``, the constraint's) times its rate, integrated here
    by the trapezoidal rule over the outputs (error at most ``T h^2 max |P''| / 12``, P''
    from the outputs by second differences; the bound is twice that plus the run's own
    error, 1e-6 of the work); and the balance ``kinetic + elastic + gravity - work +
    dissipated`` holds to the scheme's error (RK4 at 1 ms: 1e-9 of the work, measured 6e-14;
    HHT's numerical dissipation, in no column: 1e-5, measured 1.2e-6). A spring's work
    counted in the drive's, or left out, would be off by its energy and dissipation, 0.23 J
    of 1.45."""
    m, pin = planar_pendulum(drive=lambda t: (2.0 * t * t, 4.0 * t, 4.0))
    res = rancf.simulate(m, t_end=0.3, dt=1e-3, method=method, formulation=formulation)
    assert res.status == "ok"
    e = res.energy()
    t, work = e.t.to_numpy(), e.work.to_numpy()
    power = res.reaction(pin, "torque") * res.joint(pin)[1]
    h = np.diff(t).max()
    curvature = np.abs(np.diff(power, 2)).max() / h ** 2
    bound = 2 * t[-1] * h * h * curvature / 12 + 1e-6 * np.abs(work).max()
    assert np.abs(_trapezoid(t, power) - work).max() <= bound
    drift = np.abs(e.total - e.total.iloc[0]).max()
    assert drift <= (1e-9 if method == "rk4" else 1e-5) * np.abs(work).max(), drift


def _driven_sprung_spatial(late):
    """A body on a spatial revolute about z driven at ``q = 1.5 sin 2t``, with a torsion
    spring-damper on it added after the drive (``late``: the drive assigned to the joint
    after the spring-damper). Returns the model."""
    drive = lambda t: (1.5 * np.sin(2 * t), 3 * np.cos(2 * t), -6 * np.sin(2 * t))  # noqa: E731
    m = rancf.Model(dim=3, gravity=(0.0, -G, 0.0))
    body = m.add_rigid_body(MASS, J_BODY, position=(0.5, 0.0, 0.0))
    pin = m.add_joint("revolute", m.ground.point(0, 0, 0), body.point(-0.5, 0, 0),
                      axis=(0, 0, 1), drive=None if late else drive)
    if late:
        m.add_rotational_spring_damper(pin, K, C)
        pin.drive = drive
    else:
        m.add_rotational_spring_damper(pin, K, C)
    return m


MESSAGE = (r"joint 0 \(revolute\) is driven: its coordinate is prescribed, so a spring-damper "
           r"on it would not act on the motion; put it on a joint that is not driven")


def test_a_spatial_spring_on_a_driven_joint_is_refused_naming_the_joint():
    """The spatial models refuse a joint spring-damper on a driven joint, naming the joint."""
    with pytest.raises(ValueError, match=MESSAGE):
        _driven_sprung_spatial(late=False)


@pytest.mark.parametrize("formulation", ["recursive", "dae"])
def test_a_drive_set_after_the_spring_is_refused_at_the_build(formulation):
    """A drive assigned to the joint after its spring-damper was added gets the same refusal
    when the model is built (the spatial recursion's work of the drives leaves out what a
    drive does against its own joint's spring: its balance was off by the spring's energy
    and dissipation)."""
    m = _driven_sprung_spatial(late=True)
    with pytest.raises(ValueError, match=MESSAGE):
        rancf.simulate(m, 0.01, 1e-3, method="generalized-alpha-s", formulation=formulation)
