"""Spring-dampers between points and in revolute joints (theory: Loads, The energy balance):
each against an analytic solution, a conservation law, a second formulation or differences."""
import numpy as np
import pytest

import rancf
from rancf.formulations import recursive
from rancf.formulations.dae import DAE
from rancf.formulations._forces import ForceKernel
from rancf.formulations.inputs import Inputs
from models import random_state


def sliding_mass(k, c, mass=2.0, stretch=0.01, length=1.0):
    """A rigid body on a prismatic joint along x, on a spring-damper to the ground at the origin
    stretched by ``stretch`` (m): the oscillator ``m s'' + c s' + k s = 0`` in the stretch s."""
    m = rancf.Model(gravity=(0.0, 0.0))
    body = m.add_rigid_body(mass, 0.1, position=(length, 0.0))
    rail = m.add_joint("prismatic", m.ground.point(length, 0.0), body.point(0.0, 0.0))
    m.add_spring_damper(m.ground.point(0.0, 0.0), body.point(0.0, 0.0), k, c,
                        rest_length=length - stretch)
    return m, rail


def damped_oscillator(t, k, c, mass, s0):
    """s(t) of ``m s'' + c s' + k s = 0`` from s(0) = s0, s'(0) = 0 (underdamped)."""
    w = np.sqrt(k / mass)
    zeta = c / (2.0 * np.sqrt(k * mass))
    wd = w * np.sqrt(1.0 - zeta ** 2)
    return s0 * np.exp(-zeta * w * t) * (np.cos(wd * t) + zeta / np.sqrt(1.0 - zeta ** 2)
                                         * np.sin(wd * t))


@pytest.mark.parametrize("method", ["rk4", "generalized-alpha"])
@pytest.mark.parametrize("c", [0.0, 2.0])
def test_mass_on_a_spring_is_the_analytic_oscillator(method, c):
    """The slide s = q - stretch against the analytic (damped) oscillator over two periods, at
    the integrator's accuracy (rk4: 1e-6 of the amplitude, generalized-alpha: 1e-3 at 400
    steps a period)."""
    k, mass, s0 = 200.0, 2.0, 0.01
    m, rail = sliding_mass(k, c, mass, stretch=s0)
    period = 2 * np.pi / np.sqrt(k / mass)
    res = rancf.simulate(m, 2 * period, period / 400, method=method, output_every=4)
    assert res.status == "ok"
    s = s0 + res.joint_q[:, rail.index]     # q = x - length, the stretch s = q + s0
    exact = damped_oscillator(res.t, k, c, mass, s0)
    tol = 1e-6 if method == "rk4" else 1e-3
    assert np.abs(s - exact).max() < tol * s0


@pytest.mark.parametrize("c", [0.0, 0.02])
def test_pendulum_on_a_torsion_spring_has_the_small_angle_frequency(c):
    """A rigid bar hinged at its end, 1 mrad off the vertical, on a torsion spring-damper whose
    rest is the vertical: ``theta(t)`` of ``I_O theta'' + c theta' + (k + m g d) theta = 0``
    (the sine's cubic term changes the frequency by 6e-8 at 1 mrad)."""
    k, mass, d, inertia, g, theta0 = 3.0, 1.5, 0.4, 0.02, 9.81, 1e-3
    m = rancf.Model(gravity=(0.0, -g))
    angle = -np.pi / 2 + theta0
    body = m.add_rigid_body(mass, inertia, position=(d * np.cos(angle), d * np.sin(angle)),
                            angle=angle)
    hinge = m.add_joint("revolute", m.ground.point(0.0, 0.0), body.point(-d, 0.0))
    m.add_rotational_spring_damper(hinge, k, c, rest_angle=-np.pi / 2)
    I_O = inertia + mass * d ** 2
    stiffness = k + mass * g * d
    period = 2 * np.pi / np.sqrt(stiffness / I_O)
    res = rancf.simulate(m, 2 * period, period / 400, method="rk4", output_every=4)
    theta = res.joint_q[:, 0] + np.pi / 2
    exact = damped_oscillator(res.t, stiffness, c, I_O, theta0)
    assert np.abs(theta - exact).max() < 1e-5 * theta0


def loaded_tree():
    """A flexible beam on a revolute joint with a torsion spring-damper, a rigid body hinged at
    its end with another, a spring-damper from the ground to a beam node and one from that
    beam's end to a body point, damping in the beam, gravity."""
    m = rancf.Model(gravity=(0.0, -9.81), elastic_model="reissner")
    b = m.add_beam(1.0, 3, E=2e8, rho=2700.0, A=1e-4, I=1e-9, damping=1e-4)
    hinge = m.add_joint("revolute", m.ground.point(0.0, 0.0), b.start)
    body = m.add_rigid_body(0.5, 0.01, position=(1.3, 0.0))
    elbow = m.add_joint("revolute", b.end, body.point(-0.3, 0.0))
    m.add_rotational_spring_damper(hinge, 40.0, 0.2, rest_angle=-0.3)
    m.add_rotational_spring_damper(elbow, 5.0, 0.05)
    m.add_spring_damper(m.ground.point(0.5, 0.6), b.node(2), 300.0, 0.5)
    m.add_spring_damper(b.end, body.point(0.3, 0.05), 100.0, 0.3, rest_length=0.5)
    return m


def test_recursive_accelerations_equal_the_dae_with_spring_dampers():
    """At random consistent states the recursion's accelerations are the DAE's dense
    saddle-point solution's to 1e-10."""
    m = loaded_tree()
    A = m.build()
    rec, dae = recursive.of(A), DAE(A, "dense")
    rng = np.random.default_rng(4)
    for t in (0.2, 0.9):
        y, x, v = random_state(m, rng, t)
        dae.accept(x, v, t)
        F = dae.force(x, v, t)
        fac = dae.newton_matrix(x, np.zeros_like(x), np.zeros(dae.n_constraints), v, t, x, t,
                                1.0, 0.0, 0.0, 0.0, 1.0)
        a = fac.solve(F, -dae.acceleration_bias(x, v, t))[0]
        assert np.abs(rec.accelerations(t, y) - a).max() <= 1e-10 * np.abs(a).max()


def test_spring_forces_are_minus_the_gradient_of_their_potential():
    """The generalized forces of the undamped spring-dampers at rest (v = 0) are minus the
    central differences of the potential the energy table uses, at a random consistent state
    (the torsions' q from the same state)."""
    m = rancf.Model(gravity=(0.0, 0.0))
    b = m.add_beam(1.0, 2, E=2e8, rho=2700.0, A=1e-4, I=1e-9)
    hinge = m.add_joint("revolute", m.ground.point(0.0, 0.0), b.start)
    body = m.add_rigid_body(0.5, 0.01, position=(1.3, 0.0))
    elbow = m.add_joint("revolute", b.end, body.point(-0.3, 0.0))
    m.add_rotational_spring_damper(hinge, 40.0, rest_angle=-0.3)
    m.add_rotational_spring_damper(elbow, 5.0)
    m.add_spring_damper(m.ground.point(0.5, 0.6), b.node(1), 300.0)
    m.add_spring_damper(b.end, body.point(0.3, 0.05), 100.0, rest_length=0.5)
    A = m.build()
    forces = ForceKernel(A)
    _, x, _ = random_state(m, np.random.default_rng(2), 0.0, amplitude=0.2)
    nj = A.n_joints
    qref = A.joint_q0.copy()

    def energy(x):
        q, qd = np.zeros(nj), np.zeros(nj)
        forces.joint_coordinates(x, np.zeros_like(x), qref, q, qd)
        return A.spring_energy(x[None], q[None])[0]

    q, qd = np.zeros(nj), np.zeros(nj)
    forces.joint_coordinates(x, np.zeros_like(x), qref, q, qd)
    F = np.zeros(A.n_x)
    forces.forces(x, np.zeros_like(x), qd, F, q)
    # gravity is zero: F is the elements' and the springs'; the elements' are their own
    shape = (1, A.n_vertices, A.node_size)
    U_el = lambda x: A.element_kind.energies(A.element_vertices, A.element_length, A.element_EA,
                                            A.element_EI, A.element_mass, x.reshape(shape),
                                            np.zeros(shape))[0, 1]
    h = 1e-6
    grad = np.array([(energy(x + h * e) + U_el(x + h * e) - energy(x - h * e) - U_el(x - h * e))
                     / (2 * h) for e in np.eye(A.n_x)])
    assert np.abs(F + grad).max() < 1e-6 * np.abs(grad).max()


def ground_springs():
    """A rigid body on a revolute joint with a torsion spring-damper and two spring-dampers to
    the ground, and a beam hinged to it with another torsion spring-damper."""
    m = rancf.Model(gravity=(0.0, -9.81))
    body = m.add_rigid_body(1.0, 0.05, position=(0.4, 0.0))
    hinge = m.add_joint("revolute", m.ground.point(0.0, 0.0), body.point(-0.4, 0.0))
    b = m.add_beam(1.0, 2, E=2e8, rho=2700.0, A=1e-4, I=1e-9, start=(0.8, 0.0))
    elbow = m.add_joint("revolute", body.point(0.4, 0.0), b.start)
    m.add_rotational_spring_damper(hinge, 20.0, 0.3)
    m.add_rotational_spring_damper(elbow, 4.0, 0.1, rest_angle=0.2)
    m.add_spring_damper(m.ground.point(0.3, 0.5), body.point(0.2, 0.03), 150.0, 0.4)
    m.add_spring_damper(m.ground.point(1.8, -0.2), b.end, 80.0, 0.2, rest_length=0.4)
    return m


def test_load_blocks_are_the_derivatives_of_the_spring_dampers():
    """Newton's blocks of torsion spring-dampers and spring-dampers to the ground (exact in the
    block layout) against central differences of the DAE's loads in x and v."""
    m = ground_springs()
    A = m.build()
    dae, forces = DAE(A, "dense"), ForceKernel(A)
    t, n, nj = 0.0, A.n_x, A.n_joints
    _, x, v = random_state(m, np.random.default_rng(5), t, amplitude=0.2)
    dae.accept(x, v, t)
    q, qd, qref = np.zeros(nj), np.zeros(nj), A.joint_q0.copy()
    forces.joint_coordinates(x, v, qref, q, qd)
    c_k, c_c = 0.7, 0.3
    N = forces.load_blocks(x, v, np.zeros(nj), np.zeros(nj), c_k, c_c, q, qd)
    h, expected = 1e-6, np.zeros((n, n))
    for k in range(n):
        e = np.zeros(n)
        e[k] = h
        expected[:, k] = -(c_k * (dae.loads(x + e, v, t) - dae.loads(x - e, v, t))
                           + c_c * (dae.loads(x, v + e, t) - dae.loads(x, v - e, t))) / (2 * h)
    assert np.abs(N - expected).max() < 1e-7 * np.abs(expected).max()


def drift(res):
    total = res.energy()["total"].to_numpy()
    return np.abs(total - total[0]).max()


@pytest.mark.parametrize("method,formulation,order,dt",
                         [("rk4", "recursive", 4, 1e-4),
                          ("generalized-alpha", "recursive", 2, 1e-3),
                          ("generalized-alpha", "dae", 2, 1e-3)])
def test_energy_balance_closes_at_the_integrator_s_order(method, formulation, order, dt):
    """kinetic + elastic (with the springs' potentials) + gravity + dissipated is constant: its
    drift falls at the method's order when dt halves (ratio within 30 % of 2^order), and the
    damping dissipated a good part of the energy."""
    runs = [rancf.simulate(ground_springs(), 0.5, h, method=method, formulation=formulation,
                           output_every=1) for h in (dt, dt / 2)]
    assert all(r.status == "ok" for r in runs)
    ratio = drift(runs[0]) / drift(runs[1])
    assert 0.7 * 2 ** order < ratio < 1.3 * 2 ** order
    e = runs[1].energy()
    assert e["dissipated"].iloc[-1] > 1e-2 * np.abs(e["kinetic"]).max()
    assert (e["work"] == 0.0).all()


def test_static_cantilever_tip_on_a_spring_has_the_parallel_stiffness():
    """A cantilever with a tip load P and a vertical spring k from its tip to the ground: the
    tip deflection is ``P / (3 E I / L^3 + k)`` (linear: P small)."""
    L, E, I, k, P = 1.0, 2e11, 1e-8, 5e3, -1.0
    m = rancf.Model(gravity=(0.0, 0.0), elastic_model="reissner")
    b = m.add_beam(L, 8, E=E, rho=7800.0, A=1e-4, I=I)
    m.add_joint("fixed", m.ground.point(0.0, 0.0), b.start)
    m.add_spring_damper(m.ground.point(L, -0.5), b.end, k, c=3.0)
    m.add_force(b.end, force=(0.0, P))
    res = rancf.static(m)
    deflection = res.nodes[-1, b.n_nodes - 1, 1]
    exact = P / (3 * E * I / L ** 3 + k)
    assert abs(deflection / exact - 1.0) < 1e-4


def test_modes_of_a_mass_on_a_spring():
    """rancf.modes takes the spring's stiffness through the DAE's Newton matrix: sqrt(k/m)."""
    k, mass = 200.0, 2.0
    m, _ = sliding_mass(k, 0.0, mass, stretch=0.0)
    found = rancf.modes(m, n=1)
    assert abs(found.frequencies[0] / (np.sqrt(k / mass) / (2 * np.pi)) - 1.0) < 1e-8


@pytest.mark.parametrize("kwargs,name", [({"k": -1.0}, "k"), ({"k": np.nan}, "k"),
                                         ({"k": 1.0, "c": -0.1}, "c"),
                                         ({"k": 1.0, "rest_length": 0.0}, "rest_length")])
def test_bad_spring_parameters_are_named(kwargs, name):
    m = rancf.Model()
    body = m.add_rigid_body(1.0, 0.1, position=(1.0, 0.0))
    with pytest.raises(ValueError, match=name):
        m.add_spring_damper(m.ground.point(0.0, 0.0), body.point(0.0, 0.0), **kwargs)


def test_bad_points_and_joints_are_refused():
    m = rancf.Model()
    body = m.add_rigid_body(1.0, 0.1, position=(1.0, 0.0))
    with pytest.raises(TypeError, match="p2"):
        m.add_spring_damper(m.ground.point(0.0, 0.0), (1.0, 0.0), 1.0)
    with pytest.raises(ValueError, match="both ground points"):
        m.add_spring_damper(m.ground.point(0.0, 0.0), m.ground.point(1.0, 0.0), 1.0)
    slide = m.add_joint("prismatic", m.ground.point(1.0, 0.0), body.point(0.0, 0.0))
    with pytest.raises(ValueError, match="revolute"):
        m.add_rotational_spring_damper(slide, 1.0)
    with pytest.raises(TypeError, match="joint"):
        m.add_rotational_spring_damper(0, 1.0)
    m.add_spring_damper(m.ground.point(1.0, 0.0), body.point(0.0, 0.0), 1.0)
    with pytest.raises(ValueError, match="coincide"):
        m.build()


def test_fixed_joint_is_refused():
    m = rancf.Model()
    body = m.add_rigid_body(1.0, 0.1, position=(1.0, 0.0))
    weld = m.add_joint("fixed", m.ground.point(1.0, 0.0), body.point(0.0, 0.0))
    with pytest.raises(ValueError, match="revolute"):
        m.add_rotational_spring_damper(weld, 1.0)


def test_spatial_spring_dampers_check_their_input():
    """Spatial models have spring-dampers now (tests/test_spatial_springs.py); their input is
    checked as the planar ones'."""
    m = rancf.Model(dim=3)
    with pytest.raises(ValueError, match="both ground points"):
        m.add_spring_damper(m.ground.point(0.0, 0.0, 0.0), m.ground.point(1.0, 0.0, 0.0), 1.0)
    with pytest.raises(TypeError, match="joint must be a joint of a spatial model"):
        m.add_rotational_spring_damper(None, 1.0)


def test_modes_of_a_pendulum_on_a_torsion_spring():
    """A rigid bar hanging from a pin with a torsion spring: rancf.modes gives
    ``sqrt((k + m g d) / I_O)`` (the spring's slope -k through the efforts' Newton blocks)."""
    k, mass, d, inertia, g = 3.0, 1.5, 0.4, 0.02, 9.81
    m = rancf.Model(gravity=(0.0, -g))
    body = m.add_rigid_body(mass, inertia, position=(0.0, -d), angle=-np.pi / 2)
    hinge = m.add_joint("revolute", m.ground.point(0.0, 0.0), body.point(-d, 0.0))
    m.add_rotational_spring_damper(hinge, k, 0.1)
    found = rancf.modes(m, n=1)
    exact = np.sqrt((k + mass * g * d) / (inertia + mass * d ** 2)) / (2 * np.pi)
    assert abs(found.frequencies[0] / exact - 1.0) < 1e-8


def test_model_plot_draws_each_spring_between_its_points():
    """The zigzag of a spring-damper starts and ends at its two points."""
    import matplotlib
    matplotlib.use("Agg")
    m, _ = sliding_mass(200.0, 1.0)
    ax = m.plot()
    line = next(a for a in ax.get_lines() if a.get_gid() == "spring 0")
    xy = np.column_stack(line.get_data())
    assert np.allclose(xy[0], (0.0, 0.0)) and np.allclose(xy[-1], (1.0, 0.0))


def test_explicit_step_limit_sees_the_springs():
    """The recursion's highest frequency of a mass on a spring (no element) is sqrt(k/m) and of
    a pendulum on a torsion spring (gravity off) sqrt(k / I_O): an RK4 step beyond
    2.785 / omega is refused."""
    k, mass = 2e4, 2.0
    m, _ = sliding_mass(k, 0.0, mass)
    rec = recursive.of(m.build())
    omega = rec.highest_frequency(rec.initial_state())
    assert abs(omega / np.sqrt(k / mass) - 1.0) < 1e-12
    with pytest.raises(ValueError, match="stability limit"):
        rancf.simulate(m, 0.1, 3.0 / omega, method="rk4")
    d, inertia = 0.4, 0.02
    p = rancf.Model(gravity=(0.0, 0.0))
    body = p.add_rigid_body(mass, inertia, position=(d, 0.0))
    hinge = p.add_joint("revolute", p.ground.point(0.0, 0.0), body.point(-d, 0.0))
    p.add_rotational_spring_damper(hinge, k)
    rec = recursive.of(p.build())
    omega = rec.highest_frequency(rec.initial_state())
    assert abs(omega / np.sqrt(k / (inertia + mass * d ** 2)) - 1.0) < 1e-12


@pytest.mark.parametrize("kind", ["prismatic", "revolute"])
def test_explicit_step_limit_sees_the_effort_functions(kind):
    """An effort function ``tau = -k q - c qd`` is a spring-damper on its joint's coordinate:
    the recursion's highest frequency is the analytic sqrt(k / m) of a mass on a slide and
    sqrt(k / I_O) of a body on a hinge (gravity off), its fastest decay rate c / m or c / I_O
    (the effort's slopes by differences: 1e-6). An RK4 step beyond RK4's limit on the negative
    real axis, 2.785 / (c / m), is refused, and method "auto" takes generalized-alpha there,
    where a step within it runs RK4 (without the damping seen, the frequency's limit was at
    least nine times longer)."""
    k, c, mass, inertia, d = 2e4, 2e3, 2.0, 0.02, 0.4
    m = rancf.Model(gravity=(0.0, 0.0))
    if kind == "prismatic":
        body = m.add_rigid_body(mass, inertia, position=(1.0, 0.0))
        m.add_joint("prismatic", m.ground.point(1.0, 0.0), body.point(0.0, 0.0),
                    effort=lambda t, q, qd: -k * q - c * qd)
        moment = mass
    else:
        body = m.add_rigid_body(mass, inertia, position=(d, 0.0))
        m.add_joint("revolute", m.ground.point(0.0, 0.0), body.point(-d, 0.0),
                    effort=lambda t, q, qd: -k * q - c * qd)
        moment = inertia + mass * d ** 2
    rec = recursive.of(m.build())
    y = rec.initial_state()
    assert abs(rec.highest_frequency(y) / np.sqrt(k / moment) - 1.0) < 1e-6
    decay = rec.highest_decay_rate(y)
    assert abs(decay / (c / moment) - 1.0) < 1e-6
    beyond, within = 3.0 / decay, 2.0 / decay
    assert beyond < 2.785 / np.sqrt(k / moment)
    with pytest.raises(ValueError, match="stability limit"):
        rancf.simulate(m, 0.1, beyond, method="rk4")
    assert rancf.simulate(m, 10 * beyond, beyond).method == "generalized-alpha"
    assert rancf.simulate(m, 10 * within, within).method == "rk4"


def test_model_plot_draws_each_torsion_spring_as_a_coil_at_its_joint():
    """A torsion spring-damper is drawn (``"rotational spring 0"``, in the zigzag's colour and
    width) as a coil about its hinge at (0.3, 0.2): every point near the hinge (within 5 cm,
    a twentieth of the 1 m bar) and none on it, its angle about the hinge sweeping more than
    a full turn."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    hinge = np.array([0.3, 0.2])
    m = rancf.Model(gravity=(0.0, -9.81))
    bar = m.add_rigid_body(1.0, 0.05, position=tuple(hinge + (0.5, 0.0)))
    pin = m.add_joint("revolute", m.ground.point(*hinge), bar.point(-0.5, 0.0))
    m.add_rotational_spring_damper(pin, 10.0)
    m.add_spring_damper(m.ground.point(1.0, 1.0), bar.point(0.5, 0.0), 5.0)
    ax = m.plot()
    coil = [a for a in ax.get_lines() if a.get_gid() == "rotational spring 0"]
    zigzag = next(a for a in ax.get_lines() if a.get_gid() == "spring 0")
    assert len(coil) == 1
    assert (coil[0].get_color(), coil[0].get_linewidth()) == (zigzag.get_color(),
                                                            zigzag.get_linewidth())
    d = np.column_stack(coil[0].get_data()) - hinge
    r = np.hypot(d[:, 0], d[:, 1])
    assert r.min() > 0.0 and r.max() <= 0.05
    assert abs(np.unwrap(np.arctan2(d[:, 1], d[:, 0]))[[0, -1]] @ [-1, 1]) > 2 * np.pi
    plt.close(ax.figure)
