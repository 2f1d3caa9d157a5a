"""Loads at a point between two nodes of a spatial beam (``beam.at(s)``), each against something
independent: the virtual power of the node wrenches against the velocity and angular velocity of
the output map (``Result.position(beam.at(s))``'s element curve, its rates by central
differences), the Euler-Bernoulli cantilever under a force at s, the node's load at the end of
an element, the DAE's accelerations against the recursion's, and the energy balance; the same
for spring-dampers there, in the recursion and in the spatial DAE (its tangents against
central differences of its force, its runs against the recursion's RK4)."""
import numpy as np
import pytest
from scipy.spatial.transform import Rotation

import rancf
from rancf.formulations import spatial
from rancf.formulations._spatial import arc_point_motion, arc_point_wrenches
from rancf.formulations.spatial import Spatial
from rancf.formulations.spatial_dae import SpatialDAE
from rancf.model.items import ARC, ArcPoint
from rancf.results.outputs import spatial_arc_motion
from validation.spatial_trees import recursion_accelerations

E, L = 2.07e11, 2.0
WIDTH, HEIGHT = 0.02, 0.01
AREA = WIDTH * HEIGHT
IY, IZ = WIDTH * HEIGHT**3 / 12.0, HEIGHT * WIDTH**3 / 12.0


def beam_model(n, direction=(1.0, 0.0, 0.0), up=(0.0, 1.0, 0.0), clamp=True, **kw):
    m = rancf.Model(dim=3, gravity=kw.pop("gravity", (0.0, 0.0, 0.0)))
    young = kw.pop("E", E)
    b = m.add_beam(L, n, E=young, rho=kw.pop("rho", 7800.0), A=AREA, I=(IY, IZ), J=IY + IZ,
                   G=young / 2.6, direction=direction, up=up, shear=False)
    m.add_joint("fixed" if clamp else "spherical", m.ground.point(0, 0, 0), b.start)
    return m, b


@pytest.mark.parametrize("follower", [False, True])
def test_node_wrenches_do_the_virtual_work_of_the_output_map(follower):
    """For an element bent and twisted (rotation 0.7 rad between its nodes, second node off
    its axis) and random node velocities, the wrenches' power ``Wa . Va + Wb . Vb`` equals
    ``f . v(xi) + m . w(xi)`` with v, w the velocity and angular velocity of the point that
    ``Result.position(beam.at(s))`` and ``orientation`` follow (the outputs' own map, its
    velocity by central differences in time, relative 1e-10), which the kernels' own position
    and velocity of the point (``arc_motion``, spring-dampers' ends) equal; the wrenches' sum
    about node a is f at the point and m."""
    m, b = beam_model(1)
    tree = m.build()
    rng = np.random.default_rng(3)
    xi = 0.37
    point = ArcPoint(b, ARC, node=0, offset=np.zeros(3), s=xi * L, xi=xi)
    Aa = Rotation.from_rotvec(rng.standard_normal(3)).as_matrix()
    Ab = Aa @ Rotation.from_rotvec([0.3, -0.4, 0.5]).as_matrix()
    ra, rb = rng.standard_normal(3), None
    rb = ra + Aa @ np.array([L, 0.2, -0.1])
    poses = np.zeros((1, 2, 12))
    poses[0, 0] = np.concatenate([ra, Aa.ravel()])
    poses[0, 1] = np.concatenate([rb, Ab.ravel()])
    rates = rng.standard_normal((1, 2, 6))
    f, mo = rng.standard_normal(3), rng.standard_normal(3)
    r, A, v, w = spatial_arc_motion(tree, point, poses, rates)
    # the kernels' own position and velocity of the point (spring-dampers' ends)
    motion = arc_point_motion(ra, Aa, rb, Ab, rates[0, 0], rates[0, 1], xi)
    np.testing.assert_allclose(motion[0], r[0], rtol=0, atol=1e-14 * L)
    np.testing.assert_allclose(motion[1], v[0], rtol=0, atol=1e-9 * np.abs(v).max())
    W = arc_point_wrenches(ra, Aa, rb, Ab, xi, f, mo, follower)
    F, M = (A[0] @ f, A[0] @ mo) if follower else (f, mo)
    power = float(np.einsum("ij,ij->", W, rates[0]))
    expected = F @ v[0] + M @ w[0]
    scale = np.abs(F).max() * np.abs(v).max() + np.abs(M).max() * np.abs(w).max()
    assert abs(power - expected) < 1e-9 * scale
    np.testing.assert_allclose(W[0, :3] + W[1, :3], F, rtol=0, atol=1e-14 * np.abs(F).max())
    about_a = W[0, 3:] + W[1, 3:] + np.cross(rb - ra, W[1, :3])
    np.testing.assert_allclose(about_a, M + np.cross(r[0] - ra, F), rtol=0,
                               atol=1e-12 * (np.abs(M).max() + L * np.abs(F).max()))


def test_cantilever_with_a_force_between_nodes_converges_to_euler_bernoulli():
    """A force P along the section's z axis at a = L/3 of a cantilever turned in space (never a
    node of 8, 16 or 32 elements): the deflections at a (``P a^3 / (3 EI)``) and at the tip
    (``P a^2 (3 L - a) / (6 EI)``) converge to the analytic ones at the element's second
    order (error ratios 4 +- 0.5 a halving of the elements: xi alternates between 2/3 and
    1/3, so the ratio wobbles about 4)."""
    P, a = 1.0, L / 3.0
    at_a, tip = P * a**3 / (3 * E * IY), P * a**2 * (3 * L - a) / (6 * E * IY)
    errors = []
    for n in (8, 16, 32):
        m, b = beam_model(n, direction=(0.0, 0.6, 0.8), up=(1.0, 0.0, 0.0))
        z = b.frames[0][:, 2]
        m.add_force(b.at(a), force=tuple(-P * z))
        res = rancf.static(m)
        errors.append([abs(res.deflection(b.at(a), b)[-1][2] / -at_a - 1.0),
                       abs(res.deflection(b.end, b)[-1][2] / -tip - 1.0)])
    errors = np.array(errors)
    ratios = errors[:-1] / errors[1:]
    assert np.all(np.abs(ratios - 4.0) < 0.5), ratios
    assert errors[-1].max() < 3e-3


@pytest.mark.parametrize("follower", [False, True])
def test_a_load_at_the_end_of_an_element_is_the_nodes_load(follower):
    """A force and a moment at xi = 1 of element 1 equal node 2's in statics (the recursion's
    Newton), a roll-up by a moment of about 0.5 rad and a force across it: the tips agree to
    1e-8 L (the wrenches' central difference in the element's rotation, 1e-10, and Newton's
    tolerance)."""
    tips = []
    for make in (lambda b: b.node(2), lambda b: ArcPoint(b, ARC, node=1, offset=np.zeros(3),
                                                          s=L / 2, xi=1.0)):
        m, b = beam_model(4, direction=(0.6, 0.8, 0.0), up=(0.0, 0.0, 1.0))
        m.add_force(make(b), force=(0.0, 0.0, -0.5), moment=(0.0, 0.0, 0.5 * E * IZ / L),
                    follower=follower)
        tips.append(rancf.static(m).position(b.end)[-1])
    np.testing.assert_allclose(tips[1], tips[0], rtol=0, atol=1e-8 * L)


def assert_dae_is_the_recursion(m):
    """At a random state of the recursion of ``m`` (t = 0.4 s) mapped to the DAE's absolute
    coordinates, the DAE's body accelerations and joint reactions equal the recursion's to 1e-9
    of their largest."""
    tree = m.build()
    inputs = spatial.model_inputs(m)
    rec, dae = Spatial(tree, *inputs), SpatialDAE(tree, *inputs)
    rng = np.random.default_rng(7)
    t = 0.4
    y = np.concatenate([0.3 * rng.standard_normal(tree.n_q), rng.standard_normal(tree.n_q)])
    acc, reactions = recursion_accelerations(rec, t, y)
    x, v = dae.state_of(y, t)
    a, lam = dae.multipliers(x, v, t)
    assert np.abs(dae.accelerations(x, v, a) - acc).max() <= 1e-9 * np.abs(acc).max()
    assert np.abs(dae.reactions(x, lam, t) - reactions).max() \
        <= 1e-9 * np.abs(reactions).max()


@pytest.mark.parametrize("follower", [False, True])
def test_dae_accelerations_equal_the_recursions(follower):
    """A flexible beam on a spherical joint with a force and a moment at s = 0.7 m (functions
    of t): at a random state of the recursion mapped to the DAE's absolute coordinates, the
    DAE's body accelerations and joint reactions equal the recursion's to 1e-9."""
    m, b = beam_model(4, clamp=False, E=2e8, gravity=(0.0, 0.0, -9.81))
    m.add_force(b.at(0.7), force=lambda t: (np.sin(t), 2.0, -1.0), moment=(0.3, -0.2, 0.1),
                follower=follower)
    assert_dae_is_the_recursion(m)


def test_energy_balance_with_a_load_between_nodes():
    """A flexible pendulum on a spherical joint pushed by a force and a moment at s = 0.7 m
    and a follower moment at s = 1.3 m: with RK4 the energy balance (the loads' work from the
    wrenches' power) closes at the scheme's fourth order, its error falling more than tenfold
    (16 in theory) a halving of the step; a power that did not match the forces would leave
    an error that does not fall."""
    drifts = []
    for dt in (2e-5, 1e-5):
        m, b = beam_model(4, clamp=False, E=2e8, rho=1000.0, gravity=(0.0, 0.0, -9.81))
        m.add_force(b.at(0.7), force=(0.0, 30.0, 10.0), moment=(0.0, 0.0, 2.0))
        m.add_force(b.at(1.3), moment=(0.5, 0.0, 0.0), follower=True)
        res = rancf.simulate(m, t_end=0.1, dt=dt, method="rk4", output_every=50)
        e = res.energy()
        assert abs(e.work.iloc[-1]) > 0.5 * e.kinetic.max() > 0.0
        drifts.append(res.energy_drift())
    assert drifts[0] / drifts[1] > 10.0 and drifts[1] < 1e-3, drifts


def spring_pendulum(s=0.7, c=0.0):
    """A flexible beam on a spherical joint under gravity, held by a spring-damper from a ground
    point beside it to its point at s (between nodes 1 and 2)."""
    m, b = beam_model(4, clamp=False, E=2e8, rho=1000.0, gravity=(0.0, 0.0, -9.81))
    spring = m.add_spring_damper(m.ground.point(0.7, 0.4, 0.3), b.at(s), k=300.0, c=c,
                                 rest_length=0.2)
    return m, b, spring


def test_spring_between_nodes_keeps_the_energy_balance():
    """A conservative spring-damper (c = 0) to the beam's point at s = 0.7 m: with RK4 the
    total energy (its potential included) is conserved to the scheme's fourth order, its error
    falling more than tenfold a halving of the step; a force that were not the gradient of its
    potential at that point would leave an error that does not fall."""
    drifts = []
    for dt in (2e-5, 1e-5):
        m, b, _ = spring_pendulum()
        res = rancf.simulate(m, t_end=0.1, dt=dt, method="rk4", output_every=50)
        e = res.energy()
        assert e.elastic.max() > 0.1 * e.kinetic.max() > 0.0
        drifts.append(res.energy_drift())
    assert drifts[0] / drifts[1] > 10.0 and drifts[1] < 1e-3, drifts


def test_spring_between_nodes_implicit_follows_rk4_and_dissipates():
    """A steel cantilever under gravity pulled by a spring-damper (prestressed to 150 N) at
    s = 0.7 m: generalized-alpha (the spring a Woodbury term of Newton's matrix on its
    element's two nodes) follows RK4 at the scheme's second order (the tips' distance falls
    fourfold +- 1 a halving of the step), and RK4's energy balance, the damper's dissipation
    included, closes at its fourth order (error falling more than eightfold a halving of the
    step: the spring between nodes excites the element's stiff modes, so it is 1e-6 of the
    kinetic energy at 5e-7 s)."""
    def model():
        m, b = beam_model(4, gravity=(0.0, 0.0, -9.81))
        m.add_spring_damper(m.ground.point(0.7, 0.4, 0.3), b.at(0.7), k=3000.0, c=3.0,
                            rest_length=0.45)
        return m, b

    drifts = []
    for dt in (1e-6, 5e-7):
        ref_m, ref_b = model()
        ref = rancf.simulate(ref_m, t_end=0.02, dt=dt, method="rk4", output_every=1000)
        drifts.append(ref.energy_drift())
    assert drifts[0] / drifts[1] > 8.0 and drifts[1] < 1e-5, drifts
    errors = []
    for dt in (4e-4, 2e-4):
        m, b = model()
        res = rancf.simulate(m, t_end=0.02, dt=dt, method="generalized-alpha")
        assert res.status == "ok"
        errors.append(np.linalg.norm(res.position(b.end)[-1] - ref.position(ref_b.end)[-1]))
    assert abs(errors[0] / errors[1] - 4.0) < 1.0, errors
    e = ref.energy()
    assert e.dissipated.iloc[-1] > 1e-2 * e.kinetic.max() > 0.0


def test_spring_between_nodes_in_statics_is_its_force():
    """A cantilever pulled across by a spring-damper to a ground point 1 m below its point at
    s = 0.7 m, prestretched: in equilibrium the point deflects by w, and the same cantilever
    under the force ``k (delta0 - w')`` there (w' the spring's stretch given back) deflects
    by the same w, to the Newton tolerance."""
    k, delta0, a = 2e3, 0.01, 0.7
    m, b = beam_model(4)
    m.add_spring_damper(m.ground.point(a, 0.0, -1.0), b.at(a), k=k, rest_length=1.0 - delta0)
    res = rancf.static(m)
    r = res.position(b.at(a))[-1]
    stretch = np.linalg.norm(r - np.array([a, 0.0, -1.0])) - (1.0 - delta0)
    direction = (np.array([a, 0.0, -1.0]) - r) / np.linalg.norm(r - np.array([a, 0.0, -1.0]))
    assert r[2] < -1e-4
    m2, b2 = beam_model(4)
    m2.add_force(b2.at(a), force=tuple(k * stretch * direction))
    np.testing.assert_allclose(rancf.static(m2).position(b2.at(a))[-1], r, rtol=0,
                               atol=1e-9 * abs(r[2]))


def test_spatial_recursion_refuses_joints_at_points_between_nodes():
    m, b = beam_model(4)
    body = m.add_rigid_body(1.0, np.eye(3) * 0.01, position=(0.3, 0.0, 0.0))
    m.add_joint("spherical", b.at(0.3), body.centre)
    with pytest.raises(ValueError, match="between two nodes.*formulation 'dae'"):
        spatial.of_model(m)


def test_dae_spring_between_nodes_accelerations_equal_the_recursions():
    """A spring-damper from a ground point to ``beam.at(0.7)`` and one between ``beam.at(0.3)``
    and ``beam.at(1.3)`` on a flexible pendulum: at a random state of the recursion mapped to
    the DAE's absolute coordinates, the DAE's body accelerations and joint reactions equal the
    recursion's (which runs such spring-dampers on its own arrays) to 1e-9."""
    m, b, _ = spring_pendulum(c=0.5)
    m.add_spring_damper(b.at(0.3), b.at(1.3), k=200.0, c=0.3, rest_length=0.9)
    assert_dae_is_the_recursion(m)


def test_dae_spring_between_nodes_tangents_are_the_force_s_derivatives():
    """The DAE's stiffness and damping matrices of such spring-dampers (central differences of
    their generalized forces, step 1e-7, in their columns) equal central differences of the
    DAE's force in x and v (step 1e-5): K to 1e-7 relative, the force being smooth to
    round-off (the arc map's dL/dp exact; its central differences, relative error 1e-11 but
    not smooth, made the step-1e-7 differences 2 % off); C, of a force linear in v, to the
    round-off of the DAE's step ``1e-7 max |v|`` on a force of 90 N (``eps |Q| / h``, 1e-6
    relative)."""
    m, b, _ = spring_pendulum(c=0.5)
    m.add_spring_damper(b.at(0.3), b.at(1.3), k=200.0, c=0.3, rest_length=0.9)
    dae = SpatialDAE(m.build(), *spatial.model_inputs(m))
    rng = np.random.default_rng(3)
    x0, _ = dae.initial_state()
    x, v = x0 + 0.01 * rng.standard_normal(x0.size), rng.standard_normal(x0.size)
    h = 1e-5
    kernel = dae._arc_springs
    force = lambda x, v: kernel.force(np.ascontiguousarray(x), np.ascontiguousarray(v))
    K = -np.array([(force(x + h * e, v) - force(x - h * e, v)) / (2 * h)
                   for e in np.eye(x.size)]).T
    C = -np.array([(force(x, v + h * e) - force(x, v - h * e)) / (2 * h)
                   for e in np.eye(x.size)]).T
    K_dae = dae._arc_spring_matrix(dae._arc_spring_tangents(x, v)[0]).toarray()
    C_dae = dae._arc_spring_matrix(dae._arc_spring_tangents(x, v)[1]).toarray()
    assert np.abs(K).max() > 10.0 and np.abs(C).max() > 0.1
    np.testing.assert_allclose(K_dae, K, rtol=0, atol=1e-7 * np.abs(K).max())
    np.testing.assert_allclose(C_dae, C, rtol=0, atol=1e-6 * np.abs(C).max())


def test_dae_spring_between_nodes_follows_rk4_and_balances_energy():
    """The steel cantilever pulled by a prestressed spring-damper at s = 0.7 m of
    :func:`test_spring_between_nodes_implicit_follows_rk4_and_dissipates` on the spatial DAE
    with generalized-alpha: the tip follows the recursion's RK4 at the scheme's second order
    (the distance falls fourfold +- 1 a halving of the step), the damper dissipates, and the
    energy balance (its dissipation and the scheme's own) closes at least at that order (its
    drift falls more than threefold a halving of the step)."""
    def model():
        m, b = beam_model(4, gravity=(0.0, 0.0, -9.81))
        m.add_spring_damper(m.ground.point(0.7, 0.4, 0.3), b.at(0.7), k=3000.0, c=3.0,
                            rest_length=0.45)
        return m, b

    ref_m, ref_b = model()
    ref = rancf.simulate(ref_m, t_end=0.02, dt=5e-7, method="rk4", output_every=1000)
    errors, drifts = [], []
    for dt in (4e-4, 2e-4):
        m, b = model()
        res = rancf.simulate(m, t_end=0.02, dt=dt, method="generalized-alpha",
                             formulation="dae")
        assert res.status == "ok" and res.formulation == "dae"
        errors.append(np.linalg.norm(res.position(b.end)[-1] - ref.position(ref_b.end)[-1]))
        drifts.append(res.energy_drift())
        assert res.energy().dissipated.iloc[-1] > 1e-3 * res.energy().kinetic.max() > 0.0
    assert abs(errors[0] / errors[1] - 4.0) < 1.0, errors
    assert drifts[0] / drifts[1] > 3.0, drifts


def test_newton_iterate_past_half_a_turn_says_what_to_do():
    """The soft pendulum (E I = 0.33 N m^2 an element) pulled by a 90 N spring at its second
    node: HHT on the recursion at 1 ms fails while the elements are turned by far less than pi
    (RK4's relative rotations stay below 1 rad), because Newton's iterate turns one by half a
    turn (at 0.5 ms HHT, generalized-alpha, Newmark and -S fail at 5 to 5.5 ms by Newton not
    converging); the message says so and names the spatial DAE, which then runs
    the model and follows the recursion's RK4 at the scheme's second order (the tips'
    distance falls fourfold +- 1 a halving of the step)."""
    m, b, _ = spring_pendulum(s=1.0)
    # at dt itself (max_cuts=0): the failure's message is the point
    res = rancf.simulate(m, t_end=0.02, dt=1e-3, method="hht", max_cuts=0)
    assert res.status == "failed" and res.formulation == "spatial"
    assert "Newton's iterate turned the element" in res.message
    assert 'formulation="dae"' in res.message and "take a shorter step (dt)" in res.message
    ref_m, ref_b, _ = spring_pendulum(s=1.0)
    ref = rancf.simulate(ref_m, t_end=0.02, dt=1e-5, method="rk4", output_every=2000)
    assert ref.status == "ok"
    errors = []
    for dt in (5e-4, 2.5e-4):
        m, b, _ = spring_pendulum(s=1.0)
        res = rancf.simulate(m, t_end=0.02, dt=dt, method="generalized-alpha", formulation="dae")
        assert res.status == "ok" and res.formulation == "dae"
        errors.append(np.linalg.norm(res.position(b.end)[-1] - ref.position(ref_b.end)[-1]))
    assert abs(errors[0] / errors[1] - 4.0) < 1.0, errors


def test_newton_iterate_past_half_a_turn_in_the_first_step():
    """The same pendulum pulled at s = 0.7 m, between nodes (the spring's moments on the light
    node rotations give them accelerations of order 1e6 rad/s^2 at rest): Newton's iterate
    turns an element by half a turn in the first step, from the reference configuration (0
    rad), and the message says that it is the iterate, not the motion."""
    m, b, _ = spring_pendulum(s=0.7)
    # at dt itself (max_cuts=0): the failure's message is the point
    res = rancf.simulate(m, t_end=0.01, dt=5e-4, method="generalized-alpha", max_cuts=0)
    assert res.status == "failed"
    assert "Newton's iterate turned the element" in res.message
    assert "from 0 rad at the last accepted state" in res.message


def test_dae_spring_between_nodes_force_is_the_gradient_of_its_energy():
    """The spatial DAE's force of spring-dampers between nodes (c = 0: one from a ground point
    to ``beam.at(0.7)``, one between ``beam.at(0.3)`` and ``beam.at(1.3)``) is minus the
    gradient of their energy (the kernel's own, of the point the outputs follow), by central
    differences (step 1e-6) in every coordinate at a random Newton iterate off the manifold:
    relative 1e-8 (measured 6e-11 to 2e-10, the differences' error). A force not the
    gradient of its energy would make the run's energy drift at any step."""
    m, b, _ = spring_pendulum()
    m.add_spring_damper(b.at(0.3), b.at(1.3), k=200.0, rest_length=0.9)
    dae = SpatialDAE(m.build(), *spatial.model_inputs(m))
    rng = np.random.default_rng(11)
    x0, _ = dae.initial_state()
    x = x0 + 0.05 * rng.standard_normal(x0.size)
    zero = np.zeros(x.size)
    kernel = dae._arc_springs
    energy = lambda z: kernel.terms(np.ascontiguousarray(z), zero)[0]
    h = 1e-6
    gradient = np.array([(energy(x + h * e) - energy(x - h * e)) / (2 * h)
                         for e in np.eye(x.size)])
    force = kernel.force(np.ascontiguousarray(x), zero)
    assert np.abs(force).max() > 10.0
    np.testing.assert_allclose(force, -gradient, rtol=0, atol=1e-8 * np.abs(force).max())


def test_newmark_lets_the_nodes_fast_rotations_grow_where_generalized_alpha_damps_them():
    """The soft pendulum (4 elements, E = 2e8, no gravity) pulled by a 9 N spring (k = 300
    N/m, 0.03 m stretched) at s = 0.7 m, between nodes, on the spatial DAE at 0.1 ms: the
    spring's moments drive the nodes' light rotations, whose modes the step does not resolve
    (omega h 8.8 or more, by the estimate of RK4's limit). Newmark keeps their energy, and the
    total energy, which the exact motion conserves (RK4 on the recursion: 1.2e-6), grows over
    converged steps (measured 0.135 to 18.6 J by 0.164 s) until Newton fails, the message
    naming the schemes that damp them; generalized-alpha (rho_inf = 0.9) runs with the energy
    within 2 % (measured 0.6 %), and Newmark with the same spring at a node of a 20-element
    beam within 1e-4 (measured 1.4e-5): the scheme's, not the spring's (its force is its
    energy's gradient, above)."""
    def run(n, method):
        m, b = beam_model(n, clamp=False, E=2e8, rho=1000.0)
        m.add_spring_damper(m.ground.point(0.7, 0.4, 0.3), b.at(0.7), k=300.0,
                            rest_length=0.47)
        res = rancf.simulate(m, t_end=0.2, dt=1e-4, method=method, formulation="dae",
                             output_every=20)
        e = res.energy()
        return res, (e.kinetic + e.gravity + e.elastic).to_numpy()

    res, total = run(4, "newmark")
    assert res.status == "failed" and total[0] == pytest.approx(0.135, rel=1e-12)
    assert total.max() > 10.0 * total[0]
    assert 'method="generalized-alpha"' in res.message and "damps no frequency" in res.message
    res, total = run(4, "generalized-alpha")
    assert res.status == "ok" and np.abs(total - total[0]).max() < 0.02 * total[0]
    res, total = run(20, "newmark")
    assert res.status == "ok" and np.abs(total - total[0]).max() < 1e-4 * total[0]
