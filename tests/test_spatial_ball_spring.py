"""Spring-dampers on spherical joints (``add_rotational_spring_damper`` of a spherical joint:
rancf/model/spatial_joints.py ``SpatialJointSpringDamper``; the recursion's ``ball_spring`` and
``ball_spring_block`` of rancf/formulations/_spatial.pyx, the spatial DAE's ``JS_BALL`` rows),
each against something independent: central differences of the potential and of the force,
analytic equilibria and small-oscillation frequencies, the energy balance. The recursion against
the DAE at random states with random rest rotations is in test_spatial_dae_forces.py
(``forced_tree``)."""
import numpy as np
import pytest
from scipy.optimize import brentq
from scipy.spatial.transform import Rotation

import rancf
from rancf.formulations import spatial
from rancf.formulations.spatial_dae import SpatialDAE
from rancf.starts import spatial_dae_start

INERTIA = np.diag([0.01, 0.02, 0.03])
K, MASS, L, G = 20.0, 1.5, 0.4, 9.81


def hung(k=K, c=0.0, rest=None, down=True, gravity=G, inertia=INERTIA, effort=False):
    """A body of MASS kg with its centre L m from a spherical joint at the ground's origin,
    straight below it (``down``) or beside it along x in the reference configuration, and a
    spring-damper (k, c) on the joint of rest rotation ``rest`` (or the same law as an effort
    function of the joint's rotation vector, ``effort``: only right at rest 0)."""
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -gravity))
    centre = np.array([0.0, 0.0, -L]) if down else np.array([L, 0.0, 0.0])
    body = m.add_rigid_body(MASS, inertia, position=tuple(centre))
    if effort:
        ball = m.add_joint("spherical", m.ground.point(0, 0, 0), body.point(*(-centre)),
                           effort=lambda t, q, qd: -k * q - c * qd)
    else:
        ball = m.add_joint("spherical", m.ground.point(0, 0, 0), body.point(*(-centre)))
        m.add_rotational_spring_damper(ball, k, c, rest_angle=rest)
    return m, ball


def potential(q, k, rest):
    """``k/2 |log(exp(q^) exp(rest^)^T)|^2`` by scipy's rotations (independent of rancf)."""
    R = Rotation.from_rotvec(q) * Rotation.from_rotvec(rest).inv()
    return 0.5 * k * float(np.sum(R.as_rotvec()**2))


REST = np.array([0.3, -0.5, 0.8])
#: Step of the central differences (rad, rad/s): their rounding is about 1e-16 of the force
#: over the step (1e-10 of k here), their truncation h^2 times its third derivative (1e-12).
H = 1e-6


def unloaded(k=K, c=0.0, rest=None):
    """The spatial recursion of the body on its spring-damper (k, c, ``rest``) without gravity,
    and its implicit problem, whose residual at rest and zero acceleration is minus the
    spring-damper's generalized force alone."""
    m, _ = hung(k=k, c=c, rest=rest, gravity=0.0)
    f = spatial.of_model(m)
    return f, spatial.implicit_problem(f)


def at_rest(p, q, qd=None):
    """The implicit problem p's residual (3,) at rotation vector q, rate qd (default 0), zero
    acceleration, t = 0: minus the generalized force (N m)."""
    return p.residual(q, np.zeros(3) if qd is None else qd, 0.0, np.zeros(3), 0.0, 1.0)


def test_force_is_minus_the_gradient_of_the_potential():
    """Without gravity and at rest the recursion's residual at zero acceleration is minus the
    generalized force, here the spring's alone: against central differences (step 1e-6, error
    about 1e-10 of k) of ``k/2 |log(R(q) R_0^T)|^2`` computed with scipy's rotations, at
    random rotation vectors up to 2.5 rad from a rest rotation of 1 rad; and the recursion's
    elastic energy is that potential (1e-12)."""
    f, p = unloaded(rest=REST)
    rng = np.random.default_rng(5)
    for _ in range(5):
        q = rng.uniform(-1.4, 1.4, 3)
        grad = np.array([(potential(q + H * e, K, REST) - potential(q - H * e, K, REST))
                         / (2 * H) for e in np.eye(3)])
        assert np.abs(at_rest(p, q) - grad).max() <= 1e-8 * K
        y = np.concatenate([q, np.zeros(3)])
        f.kinematics(y)
        assert abs(f.energy(y)["elastic"] - potential(q, K, REST)) <= 1e-12 * K


@pytest.mark.parametrize("rest", [None, REST])
def test_newton_block_is_the_derivative_of_the_force(rest):
    """Newton's matrix (``c_k`` and ``c_c`` alone) at random states at rest (where the
    inertial terms' derivatives vanish and gravity is off, so the residual is minus the
    spring-damper's force) against central differences of the residual, step 1e-6, to 1e-8
    of its largest entry (the differences' rounding, 1e-16 of the force over the step, and
    truncation, 1e-12): ``d^2 U / dq^2`` and ``c J_l^T J_l``, both exact; at rest 0 the
    stiffness is ``k I`` within |q| < pi."""
    _, p = unloaded(c=0.7, rest=rest)
    rng = np.random.default_rng(8)
    for _ in range(3):
        q = rng.uniform(-1.4, 1.4, 3)
        for c_k, c_c in ((1.0, 0.0), (0.0, 1.0)):
            S = p.matrix(q, q, [], np.zeros(3), 0.0, q, 0.0, 0.0, 0.0, c_k, c_c, 1.0)
            fd = np.zeros((3, 3))
            for j, e in enumerate(H * np.eye(3)):
                if c_k:
                    fd[:, j] = (at_rest(p, q + e) - at_rest(p, q - e)) / (2 * H)
                else:
                    fd[:, j] = (at_rest(p, q, e) - at_rest(p, q, -e)) / (2 * H)
            assert np.abs(S - fd).max() <= 1e-8 * np.abs(fd).max()
            if rest is None and c_k:
                assert np.abs(S - K * np.eye(3)).max() <= 1e-8 * K


def test_statics_of_a_bar_held_out_by_a_ball_spring():
    """Beside the joint at rest 0, the weight turns the body down about y until ``k theta =
    m g l cos(theta)`` (brentq); only the rotation about y, to 1e-10 rad."""
    m, ball = hung(down=False)
    q = rancf.static(m).joint(ball)[0][-1]
    expected = brentq(lambda a: K * a - MASS * G * L * np.cos(a), 0.0, 1.0)
    np.testing.assert_allclose(q, [0.0, expected, 0.0], rtol=0, atol=1e-10)


@pytest.mark.parametrize("heading", [0.0, 0.7])
def test_statics_of_a_pendulum_against_a_turned_rest(heading):
    """Hanging at the reference, its spring's rest turned by beta = pi/2 about the horizontal
    axis u = (cos a, sin a, 0): the body turns about u by theta where ``k (beta - theta) = m g
    l sin(theta)`` (brentq), in a frame where u is not a coordinate axis for a = 0.7; the
    rotation vector theta u to 1e-10 rad."""
    u = np.array([np.cos(heading), np.sin(heading), 0.0])
    beta = np.pi / 2
    m, ball = hung(rest=beta * u)
    q = rancf.static(m).joint(ball)[0][-1]
    theta = brentq(lambda a: K * (beta - a) - MASS * G * L * np.sin(a), 0.0, beta)
    np.testing.assert_allclose(q, theta * u, rtol=0, atol=1e-10)


def test_modes_of_a_pendulum_on_a_ball_spring():
    """Linearized about hanging at rest: swings about x and y at ``sqrt((k + m g l) / (I +
    m l^2))`` with I its centroidal inertia about that axis, the twist about z at ``sqrt(k /
    I_zz)`` (rad/s, over 2 pi in Hz); to 1e-6."""
    m, ball = hung()
    modes = rancf.modes(m, n=3)
    I = np.diag(INERTIA)
    w = [np.sqrt((K + MASS * G * L) / (I[0] + MASS * L**2)),
         np.sqrt((K + MASS * G * L) / (I[1] + MASS * L**2)), np.sqrt(K / I[2])]
    np.testing.assert_allclose(np.sort(modes.frequencies), np.sort(w) / (2 * np.pi), rtol=1e-6)


def turned(q, w):
    """The State of the hanging body (``hung()``) turned by the rotation vector q about the
    joint and spinning at w (3, rad/s, global) about it."""
    R = Rotation.from_rotvec(q).as_matrix()
    r = R @ np.array([0.0, 0.0, -L])
    return rancf.State(np.concatenate([r, R.ravel()]), np.concatenate([np.cross(w, r), w]))


def tumbling(angle):
    """The moving start of the runs: the hanging body turned by ``angle`` (rad) about
    (1, 1, 0) / sqrt 2 and spinning at (3, 2, -4) rad/s (:func:`turned`)."""
    return turned(angle * np.array([1.0, 1.0, 0.0]) / np.sqrt(2), (3.0, 2.0, -4.0))


def mechanical(E):
    """Kinetic + gravity + the spring's potential energy (J) at the outputs of a Result's
    ``energy()``."""
    return E["kinetic"] + E["gravity"] + E["elastic"]


@pytest.mark.parametrize("c", [0.0, 0.3])
def test_rk4_keeps_the_energy_balance(c):
    """RK4 at 0.2 ms over 1.5 s from a state turned 1.2 rad about (1, 1, 0) / sqrt 2 and
    moving: kinetic + gravity + the spring's potential + dissipated constant within 1e-8 of
    the energies exchanged (its error, about 1e-11 a step at these rates: omega up to about
    20 rad/s), the spring's potential ``k/2 |log(R R_0^T)|^2`` (scipy) at the outputs."""
    m, ball = hung(c=c, rest=REST)
    res = rancf.simulate(m, t_end=1.5, dt=2e-4, method="rk4", state=tumbling(1.2))
    assert res.status == "ok"
    E = res.energy()
    total = mechanical(E) + E["dissipated"]
    scale = E["kinetic"].max() + E["elastic"].max()
    assert np.abs(total - total.iloc[0]).max() <= 1e-8 * scale
    q = res.joint(ball)[0]
    U = [potential(row, K, REST) for row in q[::50]]
    np.testing.assert_allclose(E["elastic"].to_numpy()[::50], U, rtol=1e-10, atol=1e-12 * K)
    if c == 0.0:
        assert np.abs(E["dissipated"]).max() == 0.0
    else:
        assert E["dissipated"].iloc[-1] > 0.1 * scale


def test_rest_rotation_errors_name_the_parameter():
    """A spherical joint's rest_angle: a rotation vector of 3 finite numbers of norm at most
    pi; a cylindrical joint takes no spring-damper."""
    m, ball = hung()
    for bad, words in (((0.1, 0.2), "3 finite numbers"), (0.3, "3 finite numbers"),
                       ((0.0, np.nan, 0.0), "3 finite numbers"), ((0.0, 0.0, 3.5), "at most pi")):
        with pytest.raises(ValueError, match=f"rest_angle.*{words}"):
            m.add_rotational_spring_damper(ball, 1.0, rest_angle=bad)
    body = m.add_rigid_body(1.0, INERTIA, position=(2.0, 0.0, 0.0))
    sleeve = m.add_joint("cylindrical", m.ground.point(2, 0, 0), body.centre, axis=(1, 0, 0))
    with pytest.raises(ValueError, match="revolute, prismatic or spherical joint.*cylindrical"):
        m.add_rotational_spring_damper(sleeve, 1.0)


@pytest.mark.parametrize("formulation", ["recursive", "dae"])
@pytest.mark.parametrize("method, order", [("newmark", 2), ("generalized-alpha-s", 2),
                                           ("generalized-alpha", 2)])
def test_implicit_energy_drift_falls_at_the_documented_order(formulation, method, order):
    """The tumbling body of the RK4 test without damping, 0.5 s at 1 and 0.5 ms: the largest
    drift of kinetic + gravity + the spring's potential falls by 2^order when the step halves
    (docs/user_guide/integrators.rst, spatial.rst: Newmark, generalized-alpha-S and
    generalized-alpha in Arnold and Bruls' form second order also where the mass matrix
    turns), within
    15 % (the drift's higher-order terms at omega dt <= 0.03), in both formulations: the
    spring's force is its potential's gradient in each."""
    drift = []
    for dt in (1e-3, 5e-4):
        m, ball = hung(rest=REST)
        res = rancf.simulate(m, t_end=0.5, dt=dt, method=method, formulation=formulation,
                             state=tumbling(1.2))
        assert res.status == "ok"
        total = mechanical(res.energy())
        drift.append(float((total - total.iloc[0]).abs().max()))
    assert abs(drift[0] / drift[1] / 2**order - 1.0) <= 0.15


@pytest.mark.parametrize("formulation", ["recursive", "dae"])
def test_a_stiff_ball_spring_is_in_newton_s_matrix(formulation):
    """A stiff spring (k = 3e4 N m/rad: omega dt about 1 at 1 ms) as a spring-damper against
    the same law as an effort function ``-k q``: the same motion (to 1e-6 rad: both converge to
    1e-10). Both formulations' Newton matrices have both slopes (the effort's by differences
    of the function), so the same iterations a step within 10 % (measured: the recursion 5.74
    and 5.73, 5.7 against 12.8 before it took the effort's; the DAE 6.2 and 6.2, 6.2 against
    12.7 before)."""
    runs = []
    for effort in (False, True):
        m, ball = hung(k=3e4, effort=effort)
        res = rancf.simulate(m, t_end=0.1, dt=1e-3, method="generalized-alpha",
                             formulation=formulation, output_every=1,
                             state=tumbling(0.3))
        assert res.status == "ok"
        runs.append((res.joint(ball)[0], res.extra["newton_iterations"][1:].mean()))
    (q_spring, its_spring), (q_effort, its_effort) = runs
    assert np.abs(q_spring - q_effort).max() <= 1e-6
    assert abs(its_effort / its_spring - 1.0) <= 0.1


def looped(loop, k=K, c=0.7, rest=REST):
    """The body hung on its ball joint with a spring-damper (k, c, ``rest``), and with ``loop``
    also from the ground by a free joint (no rows), so that the spherical joint closes a
    loop."""
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -G))
    body = m.add_rigid_body(MASS, INERTIA, position=(0.0, 0.0, -L))
    if loop:
        m.add_joint("free", m.ground.point(0, 0, -L), body.centre)
    ball = m.add_joint("spherical", m.ground.point(0, 0, 0), body.point(0, 0, L))
    m.add_rotational_spring_damper(ball, k, c, rest_angle=rest)
    return m, ball


def equilibrium_pose(m, load_steps=10):
    """The pose (12: centre, frame row-major) of the body at the static equilibrium of
    ``rancf.static(m, load_steps)``, checked to be one at the full load."""
    res = rancf.static(m, load_steps=load_steps)
    assert res.status == "ok" and res.extra["load_factor"][0] == 1.0
    return np.asarray(res.nodes[-1]).ravel()[:12]


def assert_balanced(pose, k, rest):
    """The spring's torque ``k log(R R_0^T)`` balances the weight's moment about the joint,
    ``(R c) x m g`` with c the centre's reference offset, at ``pose`` (1e-8 N m: Newton's
    tolerance 1e-10 on the coordinates times stiffnesses of order 10 N m/rad, with margin)."""
    theta = (Rotation.from_matrix(pose[3:].reshape(3, 3))
             * Rotation.from_rotvec(rest).inv()).as_rotvec()
    moment = np.cross(pose[:3], (0.0, 0.0, -MASS * G))
    np.testing.assert_allclose(k * theta, moment, rtol=0, atol=1e-8)


def test_ball_spring_on_a_loop_closing_joint_acts_as_on_a_tree_joint():
    """The body on its sprung ball joint (rest rotation REST, damped) in the tree (the
    recursion), or also hung from the ground by a free joint so that the spherical joint, with
    its spring-damper, closes a loop (the DAE's loop spring rows): the same body accelerations
    at a moving state, to 1e-10 (the DAE's against the recursion's, as for a revolute's)."""
    from test_spatial_dae_forces import tree_and_loop_accelerations

    (mt, bt), (ml, bl) = looped(False), looped(True)
    tree = ml.build()
    assert list(tree.loop_joint) == [bl.index] and list(tree.loop_spring_joint) == [bl.index]
    y = np.array([0.4, -0.9, 1.3, 2.0, -1.5, 0.7])
    acc, closed, (dae, x, v) = tree_and_loop_accelerations(mt, ml, y)
    assert np.abs(closed - acc).max() <= 1e-10 * np.abs(acc).max()
    assert abs(dae.energy(x, v)["elastic"] - potential(y[:3], K, REST)) <= 1e-12 * K


def test_statics_against_a_rest_rotation_in_both_formulations():
    """Statics of the body on its ball spring of rest REST (the recursion's Newton loop) and
    with the joint closing a loop (the DAE's): the same pose (1e-8), where the spring's torque
    balances the weight's moment about the joint, ``k log(R R_0^T) = (R c) x m g`` with c the
    centre's reference offset (1e-8 N m)."""
    poses = [equilibrium_pose(looped(loop)[0]) for loop in (False, True)]
    assert np.abs(poses[0] - poses[1]).max() <= 1e-8
    assert_balanced(poses[0], K, REST)


def _skew(axis):
    return np.asarray(axis, dtype=float) / np.linalg.norm(axis)


@pytest.mark.parametrize("load_steps", [10, 40])
@pytest.mark.parametrize("k, rest", [(20.0, 3.0 * _skew([1.0, -2.0, 0.7])),
                                     (1.0, 3.0 * _skew([0.2, 1.0, 0.1])),
                                     (0.2, 3.0 * _skew([1.0, -2.0, 0.7])),
                                     (0.1, 3.0 * _skew([0.2, 1.0, 0.1]))])
def test_statics_steps_a_rest_rotation_turned_by_3_rad(k, rest, load_steps):
    """The body on its ball spring (no damper) of rest turned by 3 rad about a skew axis, in
    the tree (the recursion) and with the joint closing a loop (the DAE), their load steps
    ramping the rest rotation ``s r_0`` (rancf.integrators.static.ramp_rest): both reach the
    equilibrium ``k log(R R_0^T) = (R c) x m g`` (1e-8 N m, as above) at 10 and 40 load steps,
    the same pose (1e-8). Left whole, a load step failed (Newton not contracting): the DAE's
    first at 40 steps for the first spring and at 10 for the second; for the weak third
    spring both formulations' at 40 steps, for the fourth the recursion's at 10."""
    poses = [equilibrium_pose(looped(loop, k, 0.0, rest)[0], load_steps)
             for loop in (False, True)]
    for pose in poses:
        assert_balanced(pose, k, rest)
    assert np.abs(poses[0] - poses[1]).max() <= 1e-8


def rooted(k, c=0.0, rest=0.5):
    """A steel beam of 1 m in 4 elements (1.5 cm square section, E I = 880 N m^2) along x under
    gravity, on a spherical joint at its root with a spring-damper (k, c) of rest rotation
    ``rest`` (0.5) rad about y: at rest the spring's moment ``0.5 k`` acts on the root node's own rotary
    inertia (of order 1e-6 kg m^2), a stiff mode no step of 1 ms resolves."""
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -G))
    w, E = 0.015, 2.1e11
    b = m.add_beam(1.0, 4, E=E, rho=7800.0, A=w * w, I=(w**4 / 12, w**4 / 12), J=0.141 * w**4,
                   G=E / 2.6, direction=(1.0, 0.0, 0.0), up=(0.0, 0.6, 0.8))
    ball = m.add_joint("spherical", m.ground.point(0, 0, 0), b.start)
    m.add_rotational_spring_damper(ball, k, c, rest_angle=(0.0, rest, 0.0))
    return m, b


def test_the_first_step_s_start_past_half_a_turn_is_replaced():
    """At k = 300 N m/rad the consistent start's accelerations (``M a_0 = F``, above 1e7
    rad/s^2 at the root) put Newton's first start of a 1 ms step, ``a_1 = a_0`` (positions
    ``h^2 a_0 / 2`` on, rates ``h a_0``), where the first element is turned by more than pi:
    the recursion cannot evaluate its residual there. The step then starts from the last
    positions (rancf/integrators/_implicit.pyx ``_start_residual``), so generalized-alpha-S
    runs (below, against the DAE)."""
    m, _ = rooted(300.0)
    f = spatial.of_model(m)
    p = spatial.implicit_problem(f)
    n = f.n_free
    y = f.initial_state()
    q, v = y[:n], y[n:]
    force = -p.residual(q, v, 0.0, np.zeros(n), 0.0, 1.0)
    M = np.column_stack([p.residual(q, v, 0.0, e, 1.0, 0.0) for e in np.eye(n)])
    a0 = np.linalg.solve(M, force)
    h = 1e-3
    assert np.abs(a0).max() > 1e7
    with pytest.raises(ArithmeticError, match="half a turn"):
        p.residual(q + 0.5 * h * h * a0, v + h * a0, h, a0)
    res = rancf.simulate(m, t_end=0.01, dt=h, method="generalized-alpha-s")
    assert res.status == "ok", res.message


def test_a_failure_at_an_unresolved_root_mode_points_to_the_dae():
    """Where the recursion's first step fails at the stiff root mode (an OPEN case below), the
    failure's message names what runs there, and it does: the spatial DAE, absolute
    coordinates, at the same step (0.05 s of the run). The failure at dt itself
    (``max_cuts=0``): cut steps run it (test_a_stiff_ball_spring_at_a_beam_s_root_follows_the_dae),
    and the message is that of a run at a step the user fixed."""
    m, _ = rooted(300.0)
    res = rancf.simulate(m, t_end=0.05, dt=1e-3, method="generalized-alpha", max_cuts=0)
    assert res.status == "failed"
    assert "formulation 'dae'" in res.message
    m, _ = rooted(300.0)
    res = rancf.simulate(m, t_end=0.05, dt=1e-3, method="generalized-alpha", formulation="dae")
    assert res.status == "ok", res.message


#: Where the recursion's step equations are beyond Newton's reach at 1 and 0.5 ms (issue 22),
#: whatever its matrix: the stiff root mode, unresolved, swings the root node by 0.04 to
#: 0.2 rad a step, with accelerations (1e7 to 1e8 rad/s^2) that cancel between the ball joint
#: and the first element's relative rotation, and in the relative coordinates the step's
#: equations curve over that swing (the first element's relative translation, for one,
#: turns along a circle against its axial stiffness). Newton with their exact derivative (the
#: turning of the link wrenches and accelerations included) fails as with S from every start
#: the loop has, by the second step at the latest; the DAE, in absolute coordinates, has no
#: such curvature. The loop's step cuts (rancf/integrators/_implicit.pyx) now run the
#: recursion through at 1 and 0.5 ms (sub-steps down to dt / 64 at k = 3000), but not to the
#: DAE within the two runs' estimates at k = 3000 with -S (measured: the tips 0.27 m apart at
#: 0.5 ms against an estimate of 0.19 m, the recursion's 0.16 of it): the steps Newton solves
#: at a sub-step that does not resolve the root mode (a step at dt before the first failure,
#: and the tries of a coarser sub-step after ten steps) leave that mode
#: excited, which the later sub-steps keep (open).
OPEN = pytest.mark.xfail(strict=True, reason="the recursion's cut steps at an unresolved stiff "
                         "root mode: its steps at the coarser sub-steps (issue 22, open)")
#: At k = 3000 the DAE's generalized-alpha fails at 1 ms too, for a reason of its own: the energy
#: of the beam's unresolved node rotations grows from step to step (rho_inf = 0.9 damps it too
#: little there: at 0.95 it fails sooner, at 0.8 later, at 0.5 and with HHT not at all; -S, and
#: generalized-alpha at 0.5 ms, lose energy) until nodes turn by radians a step and Newton,
#: full Newton too, fails (open: why that scheme's damping does not hold it). Step cuts do not
#: help it: the energy is gained at steps Newton solves, and at 80 ms the step fails at dt / 64
#: too (measured); the recursion now runs at both steps.
OPEN_BOTH = pytest.mark.xfail(strict=True, reason="the recursion's step equations at an "
                              "unresolved stiff root mode, and the DAE's generalized-alpha gains "
                              "energy at 1 ms (issue 22, open)")


@pytest.mark.parametrize("k, method", [
    (30.0, "generalized-alpha"), (30.0, "generalized-alpha-s"), (300.0, "generalized-alpha-s"),
    # runs with step cuts, within the estimates by a margin of 5 % (measured: the tips 0.083 m
    # apart at 0.5 ms, estimates 0.083 (recursion) + 0.0035 (DAE) m): the recursion's estimate
    # is large because its cut runs at 1 and 0.5 ms differ (the recursion at dt / 32 throughout
    # is within 1e-4 m of the DAE at that step), the coarser sub-steps' share (OPEN's comment)
    (300.0, "generalized-alpha"),
    pytest.param(3000.0, "generalized-alpha", marks=OPEN_BOTH),
    pytest.param(3000.0, "generalized-alpha-s", marks=OPEN)])
def test_a_stiff_ball_spring_at_a_beam_s_root_follows_the_dae(k, method):
    """The beam of :func:`rooted` over 0.2 s (its tip travels 0.6 to 0.9 m) at 1 and 0.5 ms on
    the recursion and on the spatial DAE (absolute coordinates: no domain limit at pi, no
    turning of relative accelerations): the tips at 0.5 ms within the sum of the two runs'
    error estimates, ``max |x(h) - x(h/2)|`` each (both schemes second order: three times the
    error at h/2). The recursion's Newton fails within the first two steps at 300 and 3000 N
    m/rad for generalized-alpha and at 3000 for -S, at 1 and 0.5 ms, where the loop cuts the
    steps; open (the marks' comments): the cut runs' distance to the DAE at 3000 N m/rad with
    -S, and the DAE's generalized-alpha at 3000 N m/rad and 1 ms."""
    tips = {}
    for formulation in ("recursive", "dae"):
        for dt in (1e-3, 5e-4):
            m, b = rooted(k)
            res = rancf.simulate(m, t_end=0.2, dt=dt, method=method, formulation=formulation,
                                 output_every=round(0.01 / dt))
            assert res.status == "ok", res.message
            tips[formulation, dt] = res.position(b.end)
    estimate = sum(np.abs(tips[f, 1e-3] - tips[f, 5e-4]).max() for f in ("recursive", "dae"))
    assert np.abs(tips["recursive", 5e-4] - tips["dae", 5e-4]).max() <= estimate


#: The energy gained is not yet in the range where it falls as ``C h^p (1 + d h)`` at 1 to
#: 0.25 ms: the ratio of one halving grows as h halves instead of nearing 2^p, and at k = 30
#: generalized-alpha-S gains nothing at 0.25 ms (open: what the unresolved modes' share of it is).
PRE_ASYMPTOTIC = pytest.mark.xfail(strict=True, reason="the energy gained is pre-asymptotic "
                                   "at 1 to 0.25 ms (open)")


@PRE_ASYMPTOTIC
@pytest.mark.parametrize("k, method, order", [(30.0, "generalized-alpha", 2),
                                              (30.0, "generalized-alpha-s", 2),
                                              (300.0, "generalized-alpha-s", 2)])
def test_energy_gained_at_a_stiff_ball_spring_falls_at_the_scheme_s_order(k, method, order):
    """Without damping the beam of :func:`rooted` keeps kinetic + gravity + elastic energy (the
    spring's included); the schemes (rho_inf = 0.9) only take energy out of the modes a step
    does not resolve, so what a run gains, ``max (E - E_0)`` over 0.1 s, is its error, and it
    falls at the scheme's order p (second for both, as in
    test_implicit_energy_drift_falls_at_the_documented_order). At 1, 0.5 and 0.25 ms
    the ratios ``r_1 = g(1) / g(0.5)``, ``r_2 = g(0.5) / g(0.25)`` of ``g(h) = C h^p (1 + d h
    + ...)`` are ``r = 2^p (1 + d h / 2 + ...)``: their deviation from 2^p halves with h, so
    ``r_1 - r_2`` estimates ``r_2``'s, and the extrapolated ratio ``2 r_2 - r_1`` is 2^p within
    what the expansion's next term leaves, less than the correction ``|r_1 - r_2|`` itself.
    The DAE gains far less (0.18 J against the recursion's 9.4 J of 37.5 at k = 300, 1 ms)."""
    gained = []
    for dt in (1e-3, 5e-4, 2.5e-4):
        m, _ = rooted(k)
        res = rancf.simulate(m, t_end=0.1, dt=dt, method=method, output_every=1)
        assert res.status == "ok", res.message
        total = mechanical(res.energy())
        gained.append(float((total - total.iloc[0]).max()))
    assert gained[2] > 0.0
    r1, r2 = gained[0] / gained[1], gained[1] / gained[2]
    assert abs(2.0 * r2 - r1 - 2**order) <= abs(r1 - r2), (r1, r2)


def arnold_bruls(dae, q, v, h, steps, rho_inf):
    """Generalized-alpha in Arnold and Bruls' form (rancf/integrators/implicit.py's docstring)
    written again in numpy on the DAE's own equations in Python (``mass``, ``force``,
    ``constraint``, ``constraint_jacobian``), dense, full Newton on ``[a'; lambda]`` with a
    forward-difference Jacobian from the last positions: the energies ``dae.energy`` at the
    steps (steps + 1,)."""
    n = len(q)
    am, af = (2.0 - rho_inf) / (rho_inf + 1.0), 1.0 / (rho_inf + 1.0)
    g, b = 0.5 + am - af, (1.0 + am - af) ** 2 / 4.0
    dense = lambda A: A.toarray() if hasattr(A, "toarray") else np.asarray(A)
    M, J = dense(dae.mass(q)), dense(dae.constraint_jacobian(q, 0.0))
    m = len(J)
    x = np.linalg.solve(np.block([[M, J.T], [J, np.zeros((m, m))]]),
                        np.concatenate([dae.force(q, v, 0.0), -dae.acceleration_bias(q, v, 0.0)]))
    a, ap, lam = x[:n], x[:n].copy(), x[n:]
    energies = [sum(dae.energy(q, v).values())]
    for k in range(1, steps + 1):
        t = k * h
        qp, vp = q + h * v + h * h * (0.5 - b) * ap, v + h * (1.0 - g) * ap

        def residual(x):
            q1, v1 = qp + h * h * b * x[:n], vp + h * g * x[:n]
            a1 = (am * x[:n] + (1.0 - am) * ap - (1.0 - af) * a) / af
            return np.concatenate([dense(dae.mass(q1)) @ a1 - dae.force(q1, v1, t)
                                   + dense(dae.constraint_jacobian(q1, t)).T @ x[n:],
                                   dae.constraint(q1, t) / (h * h * b)])

        x = np.concatenate([(q - qp) / (h * h * b), lam])
        for _ in range(30):
            r = residual(x)
            e = 1e-7 * (1.0 + np.abs(x))
            D = np.column_stack([(residual(x + e[i] * u) - r) / e[i]
                                 for i, u in enumerate(np.eye(len(x)))])
            dx = np.linalg.solve(D, -r)
            x += dx
            if h * h * b * np.abs(dx[:n]).max() <= 1e-12:
                break
        else:
            raise AssertionError(f"numpy Newton failed at step {k}")
        q, v = qp + h * h * b * x[:n], vp + h * g * x[:n]
        a, ap, lam = (am * x[:n] + (1.0 - am) * ap - (1.0 - af) * a) / af, x[:n], x[n:]
        energies.append(sum(dae.energy(q, v).values()))
    return np.array(energies)


def test_generalized_alpha_gains_energy_at_a_large_unresolved_rotation_as_the_scheme_does():
    """Generalized-alpha (rho_inf 0.9, Arnold and Bruls' form) on the spatial DAE at 1 ms
    gains energy at :func:`rooted` (3000 N m/rad, no damping), where the root node's rotation
    (its own inertia, the spring and the first element: a mode no 1 ms step resolves) starts
    0.5 rad off its equilibrium; Newton fails at 0.062 s with the nodes spinning at 1000 to
    2000 rad/s. A property of the scheme, not of the loop:

    - the loop's energies over the first 10 steps are those of the same scheme written again
      in numpy on the DAE's equations (:func:`arnold_bruls`; both Newton iterations stop at
      1e-10 m or less, and the energy moves by about k theta dtheta = 3000 * 0.5 * 1e-10 J,
      so within 1e-6 J);
    - linear theory does not forbid the first gain (tests/test_arnold_bruls.py: from a
      displacement the unresolved mode's energy grows for some steps before it decays) but
      does the blow-up; the DAE has no chart change (Euler parameters, nothing re-centred);
    - it depends on the amplitude, as a nonlinear instability does: at 0.2 rad off (a sixth
      of the energy) the same run gains 2.7 J at most and ends 3.9 J below its start; a single
      rigid body shows the same on the Euler parameters where the rotation vector is linear
      (the next test);
    - HHT (alpha 0.9) runs the 0.5 rad case and loses energy; so do generalized-alpha at 0.5
      ms and generalized-alpha-S, which "auto" takes for spatial models.

    Generalized-alpha's unconditional stability is a linear one; no result gives it on
    nonlinear problems (OpenSees' GeneralizedAlpha page says so; Erlicher, Bonaventura and
    Bursi, Comput Mech 28 (2002) 83-104, analyse its loss there; Kuhl and Crisfield, Int J
    Numer Meth Eng 45 (1999) 569-599, compare it with energy-decaying schemes)."""
    m, _ = rooted(3000.0)
    dae = SpatialDAE(m.build(), *spatial.model_inputs(m))
    x0, v0 = spatial_dae_start(m, dae, None, 1e-10)
    steps, h = 10, 1e-3
    loop = rancf.simulate(m, steps * h, h, method="generalized-alpha", formulation="dae",
                          output_every=1)
    assert loop.status == "ok", loop.message
    numpy_run = arnold_bruls(dae, x0, v0, h, steps, 0.9)
    assert np.abs(mechanical(loop.energy()).values - numpy_run).max() <= 1e-6
    assert numpy_run[5] - numpy_run[0] > 1.0           # it gains (6.9 J by 5 ms)
    runs = {}
    for rest, method, dt in [(0.5, "generalized-alpha", 1e-3), (0.2, "generalized-alpha", 1e-3),
                             (0.5, "hht", 1e-3), (0.5, "generalized-alpha", 5e-4),
                             (0.5, "generalized-alpha-s", 1e-3)]:
        m, _ = rooted(3000.0, rest=rest)
        res = rancf.simulate(m, 0.2, dt, method=method, formulation="dae", output_every=1)
        total = mechanical(res.energy()).values
        runs[rest, method, dt] = res.status, total[-1] - total[0]
    status, gained = runs[0.5, "generalized-alpha", 1e-3]
    assert status == "failed" and gained > 375.0, runs     # more than the spring's start
    for case, (status, gained) in runs.items():
        if case != (0.5, "generalized-alpha", 1e-3):
            assert status == "ok" and gained < 0.0, (case, runs)


def test_a_turn_that_is_linear_in_the_recursion_blows_up_in_euler_parameters():
    """A rigid body (isotropic inertia I, no gravity) on a ball spring k = 3000 N m/rad started
    0.5 rad off its rest rotation about y turns about y alone: in the recursion's rotation
    vector that is the linear oscillator (``w = theta'``, moment ``-k (theta - rest)``), in
    the DAE's Euler parameters a point on a circle (``p = (cos theta/2, sin theta/2)`` about y)
    held by ``|p| = 1``, nonlinear. Generalized-alpha (rho_inf 0.9), 1 ms, omega h = 1:

    - recursion: the energy at every step is that of the amplification matrix's powers
      (tests/test_arnold_bruls.py's :func:`amplification`, from ``a'_0 = a_0``), to 1e-6 of
      the start's (Newton's tolerance 1e-10 rad against the 0.5 rad amplitude, over 200
      steps whose map does not amplify at omega h = 1);
    - DAE: the energy grows above ten times its start and Newton fails (measured 11 times,
      at 0.043 s; the same scheme in numpy on the circle alone, no rancf, does the same: a
      property of generalized-alpha on the Euler parameters' nonlinear coordinates at a step
      that resolves the turn coarsely, omega h 0.6 to 2, from about 0.5 rad; at 0.2 rad it
      decays);
    - HHT (alpha 0.9), which damps more at omega h = 1 (spectral radius 0.994 against
      0.9999; 0.962 against 0.9994 at 2), runs the DAE and ends below its start."""
    from test_arnold_bruls import amplification
    from rancf.integrators import implicit

    k, h, rest = 3000.0, 1e-3, 0.5
    inertia = k * h * h        # omega h = 1

    def model():
        m = rancf.Model(dim=3, gravity=(0.0, 0.0, 0.0))
        body = m.add_rigid_body(0.1, inertia * np.eye(3))
        ball = m.add_joint("spherical", m.ground.point(0, 0, 0), body.point(0, 0, 0))
        m.add_rotational_spring_damper(ball, k, 0.0, rest_angle=(0.0, rest, 0.0))
        return m

    res = rancf.simulate(model(), 0.2, h, method="generalized-alpha", formulation="recursive",
                         output_every=1)
    assert res.status == "ok", res.message
    A = amplification(implicit.METHODS["generalized-alpha"](rho_inf=0.9), 1.0)
    x, predicted = np.array([-rest, 0.0, rest]), []     # (theta - rest, h theta', h^2 a')
    for _ in range(201):
        predicted.append(0.5 * k * (x[0]**2 + x[1]**2))
        x = A @ x
    measured = mechanical(res.energy()).values
    assert np.abs(measured - np.array(predicted)).max() <= 1e-6 * predicted[0]
    # at this step throughout (max_cuts=0): the growth is the scheme's at omega h = 1, which
    # cut steps, resolving the turn finer once Newton fails, would leave
    dae = rancf.simulate(model(), 0.2, h, method="generalized-alpha", formulation="dae",
                         output_every=1, max_cuts=0)
    energy = mechanical(dae.energy()).values
    assert dae.status == "failed" and energy.max() > 10.0 * energy[0], dae.message
    hht = rancf.simulate(model(), 0.2, h, method="hht", formulation="dae", output_every=1)
    energy = mechanical(hht.energy()).values
    assert hht.status == "ok" and energy[-1] < energy[0], hht.message
