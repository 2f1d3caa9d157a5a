"""Spring-dampers of spatial models (``add_spring_damper``, ``add_rotational_spring_damper``;
rancf/formulations/_spatial.pyx ``spring_forces``, the Newton terms of
rancf/formulations/_spatial_implicit.pyx), each against something independent: the analytic
motion of a mass on a spring, the energy balance of a spring pendulum, central differences of
the residual, a dense solve, an analytic equilibrium."""
import numpy as np
import pytest

import rancf
from rancf.formulations import spatial

INERTIA = np.diag([0.01, 0.02, 0.03])


def mass_on_rail(k, c, joint_spring=False, gravity=(0.0, 0.0, 0.0), axis=(0.6, 0.0, 0.8)):
    """A 2 kg body on a prismatic joint along ``axis`` from the ground point where it starts,
    and a spring-damper (k, c) along the rail from a ground point 1 m behind it, of rest
    length 0.9 m (or the same on the joint's coordinate, rest -0.1 m): it oscillates about
    q = -0.1 m."""
    axis = np.asarray(axis, dtype=float)
    m = rancf.Model(dim=3, gravity=gravity)
    body = m.add_rigid_body(2.0, INERTIA, position=tuple(axis))
    rail = m.add_joint("prismatic", m.ground.point(*axis), body.centre, axis=tuple(axis))
    if joint_spring:
        m.add_rotational_spring_damper(rail, k, c, rest_angle=-0.1)
    else:
        m.add_spring_damper(m.ground.point(0, 0, 0), body.centre, k, c, rest_length=0.9)
    return m, rail


def damped_oscillation(t, k, c, mass=2.0, amplitude=0.1):
    """q(t) of ``m q'' + c q' + k (q + 0.1) = 0`` from q = 0 at rest (underdamped)."""
    w = np.sqrt(k / mass)
    zeta = c / (2.0 * np.sqrt(k * mass))
    wd = w * np.sqrt(1.0 - zeta**2)
    return -0.1 + amplitude * np.exp(-zeta * w * t) * (np.cos(wd * t) + zeta * w / wd
                                                       * np.sin(wd * t))


@pytest.mark.parametrize("joint_spring", [False, True])
@pytest.mark.parametrize("method, dt, tol", [("rk4", 1e-3, 1e-9),
                                             ("generalized-alpha", 1e-3, 2e-4)])
def test_mass_on_a_spring_follows_the_analytic_damped_motion(joint_spring, method, dt, tol):
    """k = 200 N/m, c = 2 N s/m, m = 2 kg (zeta = 0.05): the slide against the analytic
    solution over 2 s (RK4: its error 1e-12 per step at w dt = 0.01; generalized-alpha second
    order, (w dt)^2 / 12 of the phase a period), and the energy balance: the spring's
    potential in ``elastic``, its damping power in ``dissipated``, their sum with the kinetic
    energy constant."""
    k, c = 200.0, 2.0
    m, rail = mass_on_rail(k, c, joint_spring)
    res = rancf.simulate(m, t_end=2.0, dt=dt, method=method)
    assert res.status == "ok"
    q = res.joint(rail)[0].ravel()
    exact = damped_oscillation(res.t, k, c)
    assert np.abs(q - exact).max() < tol
    E = res.energy()
    np.testing.assert_allclose(E["elastic"], 0.5 * k * (q + 0.1)**2, rtol=1e-12, atol=1e-15)
    balance = E["kinetic"] + E["elastic"] + E["dissipated"] - E["work"]
    assert np.abs(balance - balance[0]).max() < (1e-9 if method == "rk4" else 1e-4) * 1.0
    assert E["dissipated"].iloc[-1] > 0.9 * (1.0 - np.exp(-2 * 0.05 * 10.0 * 2.0))


def spring_pendulum(c=0.0):
    """A 1 kg body on a free joint hanging from a spring-damper attached 0.1 m off its centre,
    released at rest 0.3 m aside and stretched: it swings, bounces and tumbles."""
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -9.81))
    body = m.add_rigid_body(1.0, INERTIA, position=(0.3, 0.1, -1.0))
    m.add_joint("free", m.ground.point(0.3, 0.1, -1.0), body.centre)
    m.add_spring_damper(m.ground.point(0, 0, 0), body.point(0.0, 0.1, 0.05), k=150.0, c=c,
                        rest_length=0.8)
    return m


@pytest.mark.parametrize("c", [0.0, 0.5])
def test_spring_pendulum_keeps_its_energy_balance(c):
    """RK4 at 0.5 ms over 2 s: kinetic + gravity + spring potential + dissipated stays constant
    within 1e-8 of the initial energy (its error, 1e-10 a step at these rates); undamped,
    nothing is dissipated."""
    res = rancf.simulate(spring_pendulum(c), t_end=2.0, dt=5e-4, method="rk4")
    assert res.status == "ok"
    E = res.energy()
    total = E["kinetic"] + E["gravity"] + E["elastic"] + E["dissipated"] - E["work"]
    scale = np.abs(E["gravity"]).max() + E["elastic"].max()
    assert np.abs(total - total.iloc[0]).max() < 1e-8 * scale
    assert E["kinetic"].max() > 0.1 * scale     # it moves: energy changes form
    if c == 0.0:
        assert np.abs(E["dissipated"]).max() == 0.0
    else:
        assert E["dissipated"].iloc[-1] > 0.0


def test_implicit_spring_pendulum_follows_rk4():
    """The implicit recursion (generalized-alpha, 0.5 ms) with the spring in its residual and
    Newton matrix follows RK4's converged motion within its second-order error."""
    ref = rancf.simulate(spring_pendulum(0.5), t_end=0.5, dt=2.5e-4, method="rk4")
    res = rancf.simulate(spring_pendulum(0.5), t_end=0.5, dt=5e-4, method="generalized-alpha")
    assert res.status == "ok"
    x_ref = ref.nodes[-1, :3]
    x = res.nodes[-1, :3]
    assert np.abs(x - x_ref).max() < 1e-3


def linear_tree():
    """Two bodies on free joints at their centres and a third on a prismatic joint from the
    ground, with spring-dampers at their centres (ground to body 0, body 0 to body 1, body 1 to
    body 2) and a spring-damper on the prismatic joint: every point's position is linear in the
    coordinates, so the springs' forces are the only part of the residual whose derivative is
    not zero at rest, and their exact Jacobian is Newton's matrix."""
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -9.81))
    a = m.add_rigid_body(1.0, INERTIA, position=(1.0, 0.0, 0.0))
    b = m.add_rigid_body(1.5, INERTIA, position=(1.0, 1.0, 0.5))
    c = m.add_rigid_body(0.5, INERTIA, position=(0.0, 1.0, 1.0))
    m.add_joint("free", m.ground.point(1.0, 0.0, 0.0), a.centre)
    m.add_joint("free", m.ground.point(1.0, 1.0, 0.5), b.centre)
    rail = m.add_joint("prismatic", m.ground.point(0.0, 1.0, 1.0), c.centre,
                       axis=(0.0, 0.6, 0.8))
    m.add_spring_damper(m.ground.point(0, 0, 0), a.centre, 300.0, 3.0, rest_length=0.7)
    m.add_spring_damper(a.centre, b.centre, 200.0, 5.0, rest_length=1.4)
    m.add_spring_damper(b.centre, c.centre, 100.0, 1.0)
    m.add_rotational_spring_damper(rail, 50.0, 0.7, rest_angle=0.05)
    return m


def test_newton_matrix_is_the_residual_s_derivative():
    """Newton's matrix of the linear tree at a stretched, turned state at rest against central
    differences of the residual: ``c_k`` in the coordinates and ``c_c`` in the rates (the
    springs' stiffness ``k n n^T + f / l (I - n n^T)`` and damping ``c n n^T`` through the
    body blocks, the Woodbury terms and the joint block) to 1e-7 of its largest entry (the
    differences' truncation, step 1e-6)."""
    f = spatial.of_model(linear_tree())
    p = spatial.implicit_problem(f)
    n = f.n_free
    q = 0.2 * np.random.default_rng(3).standard_normal(n)
    v = np.zeros(n)
    zero = np.zeros(n)
    h = 1e-6
    for c_k, c_c in ((1.0, 0.0), (0.0, 1.0)):
        S = p.matrix(q, q, [], v, 0.0, q, 0.0, 0.0, 0.0, c_k, c_c, 1.0)
        fd = np.zeros((n, n))
        for j in range(n):
            e = np.zeros(n)
            e[j] = h
            if c_k:
                fd[:, j] = (p.residual(q + e, v, 0.0, zero, 0.0, 1.0)
                            - p.residual(q - e, v, 0.0, zero, 0.0, 1.0)) / (2 * h)
            else:
                fd[:, j] = (p.residual(q, v + e, 0.0, zero, 0.0, 1.0)
                            - p.residual(q, v - e, 0.0, zero, 0.0, 1.0)) / (2 * h)
        assert np.abs(S - fd).max() < 1e-7 * np.abs(fd).max()


def beam_with_springs():
    """A soft beam on a spherical joint, a rigid body hinged to its end with a torsion spring,
    a spring-damper from a ground point to a point of the body off its centre (a body block)
    and one between two nodes of the beam (a Woodbury term)."""
    m = rancf.Model(dim=3)
    b = m.add_beam(1.0, 4, E=2e7, rho=7800.0, A=1e-4, I=(8.3e-10, 1.7e-9), J=2e-9, G=8e6,
                   direction=(1.0, 0.0, 0.0), up=(0.0, 0.6, 0.8), damping=1e-3)
    m.add_joint("spherical", m.ground.point(0, 0, 0), b.start)
    body = m.add_rigid_body(0.3, INERTIA, position=(1.2, 0.0, 0.0))
    hinge = m.add_joint("revolute", b.end, body.point(-0.2, 0, 0), axis=(0.0, 0.0, 1.0))
    m.add_rotational_spring_damper(hinge, 5.0, 0.1)
    m.add_spring_damper(m.ground.point(1.0, 0.5, 0.5), body.point(0.1, 0.05, 0.0), 40.0, 0.3)
    m.add_spring_damper(b.node(1), b.node(3), 80.0, 0.5, rest_length=0.4)
    return m, b


@pytest.mark.parametrize("c_m, c_k, c_c", [(1.0, 1e-4, 1e-2), (1.0, 0.0, 0.0), (1.0, 0.1, 0.0)])
def test_newton_solve_with_springs_equals_a_dense_solve(c_m, c_k, c_c):
    """The O(n) elimination with the springs' body blocks, joint block and Woodbury terms
    solves the assembled Newton matrix S (the springs' ``D^T K D`` with D column by column), at
    a random moving state: its solution's normwise backward error ``|S x - r| / (|S| |x| +
    |r|)`` (infinity norms) is below 1e-14, the bound ``n u rho`` of an LU elimination (n = 28
    unknowns, unit round-off u = 1.1e-16, a growth rho of 3). The forward error is no test
    here: with c_k = c_c = 0, S is the mass matrix, whose condition number 3.8e7 (the
    cross-sections' rotary inertia against the body's mass) puts even LAPACK's solution 1e-10
    of max |x| from the exact one, by how its kernels round."""
    m, b = beam_with_springs()
    f = spatial.of_model(m)
    p = spatial.implicit_problem(f)
    rng = np.random.default_rng(4)
    q, v = 0.05 * rng.standard_normal(f.n_free), rng.standard_normal(f.n_free)
    r = rng.standard_normal(f.n_free)
    S = p.matrix(q, q, [], v, 0.0, q, 0.0, c_m, 0.0, c_k, c_c, 1.0)
    x = p.newton_solve(q, v, 0.0, r, c_m, c_k, c_c)
    norm = np.abs(S).sum(axis=1).max() * np.abs(x).max() + np.abs(r).max()
    assert np.abs(S @ x - r).max() < 1e-14 * norm


def test_statics_of_a_mass_on_a_spring():
    """A 2 kg body on a rail along (0.6, 0, 0.8) under gravity, held by a spring along it
    (k = 200 N/m, rest 0.9 m): equilibrium at ``q = -0.1 - m g 0.8 / k`` (the spring's body
    block makes the rail's joint block regular in statics)."""
    m, rail = mass_on_rail(200.0, 0.0, gravity=(0.0, 0.0, -9.81))
    res = rancf.static(m)
    q = res.joint(rail)[0].ravel()[-1]
    assert abs(q - (-0.1 - 2.0 * 9.81 * 0.8 / 200.0)) < 1e-10


def test_spring_input_errors():
    m = rancf.Model(dim=3)
    body = m.add_rigid_body(1.0, INERTIA, position=(0.5, 0, 0))
    pin = m.add_joint("universal", m.ground.point(0, 0, 0), body.point(-0.5, 0, 0),
                      axes=((0, 0, 1), (0, 1, 0)))
    with pytest.raises(ValueError, match="both ground points"):
        m.add_spring_damper(m.ground.point(0, 0, 0), m.ground.point(1, 0, 0), 1.0)
    with pytest.raises(ValueError, match="k must"):
        m.add_spring_damper(m.ground.point(0, 0, 1), body.centre, -1.0)
    with pytest.raises(ValueError, match="revolute, prismatic or spherical"):
        m.add_rotational_spring_damper(pin, 1.0)
    with pytest.raises(TypeError, match="joint"):
        m.add_rotational_spring_damper("pin", 1.0)
    m.add_spring_damper(m.ground.point(0, 0, 0), body.point(-0.5, 0, 0), 1.0)
    with pytest.raises(ValueError, match="coincide"):
        m.build()


def test_driven_joint_refuses_springs():
    m = rancf.Model(dim=3)
    body = m.add_rigid_body(1.0, INERTIA, position=(0.5, 0, 0))
    hinge = m.add_joint("revolute", m.ground.point(0, 0, 0), body.point(-0.5, 0, 0),
                        axis=(0, 0, 1), drive=lambda t: (t, 1.0, 0.0))
    with pytest.raises(ValueError, match="driven"):
        m.add_rotational_spring_damper(hinge, 1.0)


def test_model_plot_draws_each_spring_between_its_points():
    """``Model.plot`` draws a zigzag ``"spring 0"`` from the spring's first point to its
    second (their reference positions)."""
    import matplotlib
    matplotlib.use("Agg")
    m = spring_pendulum()
    ax = m.plot()
    line = [l for l in ax.lines if l.get_gid() == "spring 0"][0]
    pts = np.column_stack(line.get_data_3d())
    np.testing.assert_allclose(pts[0], [0.0, 0.0, 0.0], atol=1e-15)
    np.testing.assert_allclose(pts[-1], [0.3, 0.2, -0.95], atol=1e-15)
    import matplotlib.pyplot as plt
    plt.close(ax.figure)


@pytest.mark.parametrize("joint_spring", [False, True])
def test_modes_of_a_mass_on_a_spring(joint_spring):
    """``rancf.modes`` linearizes the spring: one mode at ``sqrt(k / m) / (2 pi)`` Hz."""
    m, rail = mass_on_rail(200.0, 0.0, joint_spring)
    modes = rancf.modes(m, n=1)
    np.testing.assert_allclose(modes.frequencies, [np.sqrt(200.0 / 2.0) / (2 * np.pi)],
                               rtol=1e-6)


def test_statics_of_a_bar_on_a_torsion_spring():
    """A 1.5 kg bar with its centre 0.4 m from a horizontal hinge with a torsion spring k = 20
    N m/rad: equilibrium where ``k q = m g d cos(q)`` (the root by brentq), the spring alone
    holding the hinge's joint block regular in statics."""
    from scipy.optimize import brentq
    k, mass, d, g = 20.0, 1.5, 0.4, 9.81
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -g))
    bar = m.add_rigid_body(mass, INERTIA, position=(d, 0.0, 0.0))
    hinge = m.add_joint("revolute", m.ground.point(0, 0, 0), bar.point(-d, 0, 0),
                        axis=(0.0, 1.0, 0.0))
    m.add_rotational_spring_damper(hinge, k)
    q = rancf.static(m).joint(hinge)[0].ravel()[-1]
    expected = brentq(lambda a: k * a - mass * g * d * np.cos(a), 0.0, 1.0)
    assert abs(q - expected) < 1e-10


@pytest.mark.parametrize("kind", ["revolute", "spherical", "prismatic"])
def test_model_plot_draws_each_joint_spring_at_its_joint(kind):
    """A joint spring-damper is drawn (``"rotational spring 0"``) at its joint at (0.2, 0.1,
    0): a coil about it across the axis (0.6, 0, 0.8) of a revolute joint (every point in the
    plane through the joint normal to the axis, the angle about the axis sweeping more than a
    turn), across z for a spherical one; a zigzag along a prismatic joint's axis, centred on
    the joint."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    joint, axis = np.array([0.2, 0.1, 0.0]), np.array([0.6, 0.0, 0.8])
    m = rancf.Model(dim=3)
    body = m.add_rigid_body(1.0, INERTIA, position=tuple(joint + (0.0, 0.0, -0.5)))
    spatial = {} if kind == "spherical" else {"axis": tuple(axis)}
    j = m.add_joint(kind, m.ground.point(*joint), body.point(0.0, 0.0, 0.5), **spatial)
    m.add_rotational_spring_damper(j, 10.0)
    ax = m.plot()
    drawn = [line for line in ax.lines if line.get_gid() == "rotational spring 0"]
    assert len(drawn) == 1
    d = np.column_stack(drawn[0].get_data_3d()) - joint
    if kind == "prismatic":
        along = d @ axis
        np.testing.assert_allclose(along[0], -along[-1], atol=1e-15)
        assert along[0] < 0.0 and np.all(np.diff(along) > 0.0)
    else:
        normal = axis if kind == "revolute" else np.array([0.0, 0.0, 1.0])
        np.testing.assert_allclose(d @ normal, 0.0, atol=1e-15)
        u = np.cross(normal, [0.0, 1.0, 0.0])
        angle = np.unwrap(np.arctan2(d @ np.cross(normal, u), d @ u))
        assert abs(angle[-1] - angle[0]) > 2 * np.pi and np.linalg.norm(d, axis=1).min() > 0.0
    plt.close(ax.figure)
