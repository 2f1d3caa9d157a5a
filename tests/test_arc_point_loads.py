"""Loads, spring-dampers and joints at a point between two nodes of a planar beam
(``beam.at(s)``), each against something independent: central differences of the virtual work
``f . r(x) + m theta(x)`` (the Hermite centreline written out here), the Euler-Bernoulli
cantilever under a point load at s, the node's own results at the ends of an element (xi = 0,
1, made directly), the energy balance with a spring-damper, the recursion against the DAE, and
a joint's loop closure and reaction in statics."""
import numpy as np
import pytest

import rancf
from rancf.formulations._forces import ForceKernel
from rancf.model.items import ARC, ArcPoint

E, L = 2.07e11, 2.0
WIDTH, HEIGHT = 0.02, 0.01
AREA, INERTIA = WIDTH * HEIGHT, WIDTH * HEIGHT**3 / 12.0


def hermite_point(x, v, l, xi):
    """Position and slope of the centreline at xi of the element whose node coordinates
    ``[r_k, r'_k, r_k+1, r'_k+1]`` start at x[v] (the planar ANCF beam's cubic Hermite
    interpolation, written out)."""
    S = (1 - 3 * xi**2 + 2 * xi**3, l * (xi - 2 * xi**2 + xi**3), 3 * xi**2 - 2 * xi**3,
         l * (xi**3 - xi**2))
    Sx = ((-6 * xi + 6 * xi**2) / l, 1 - 4 * xi + 3 * xi**2, (6 * xi - 6 * xi**2) / l,
          3 * xi**2 - 2 * xi)
    e = x[v:v + 8].reshape(4, 2)
    return sum(S[i] * e[i] for i in range(4)), sum(Sx[i] * e[i] for i in range(4))


def cantilever(n, rho=7800.0, angle=0.0):
    m = rancf.Model(gravity=(0.0, 0.0))
    b = m.add_beam(L, n, E=E, rho=rho, A=AREA, I=INERTIA, angle=angle)
    clamp = m.add_joint("fixed", m.ground.point(0.0, 0.0, angle=angle), b.start)
    return m, b, clamp


def end_of_element(b, k, xi):
    """The point at xi = 0 or 1 of element k, made directly (``at`` returns the node there)."""
    l = L / b.n_elements
    return ArcPoint(b, ARC, node=k, offset=np.zeros(2), s=(k + xi) * l, xi=xi)


def test_generalized_force_is_the_gradient_of_the_virtual_work():
    """At a deformed state, the generalized force of a force f and a moment m at s = 0.7 m is
    ``d/dx (f . r(x) + m theta(x))``, theta the angle of the centreline's slope there, to the
    central differences' error (step 1e-6: relative 1e-9)."""
    m, b, _ = cantilever(4)
    f, moment = np.array([3.0, -2.0]), 5.0
    point = b.at(0.7)
    assert point.kind == ARC and point.node == 1
    m.add_force(point, force=tuple(f), moment=moment)
    A = m.build()
    x = A.x0 + 0.05 * np.random.default_rng(1).standard_normal(A.n_x)
    F = np.zeros(A.n_x)
    ForceKernel(A).loads(x, np.zeros(A.n_x), np.zeros(1), F)
    v, l, xi = A.node_size * A.vertex_of(point), L / 4, point.xi

    def work(y):
        r, d = hermite_point(y, v, l, xi)
        return f @ r + moment * np.arctan2(d[1], d[0])

    h = 1e-6
    grad = np.array([(work(x + h * e) - work(x - h * e)) / (2 * h) for e in np.eye(A.n_x)])
    np.testing.assert_allclose(F, grad, rtol=0, atol=1e-8 * np.abs(grad).max())
    assert np.count_nonzero(F) == 8     # the two nodes of the element, nothing else


def test_cantilever_with_a_force_between_nodes_is_euler_bernoulli():
    """A force P across a cantilever at a = L/3 (never a node of 2, 4, 8 or 16 elements): the
    deflection at a is ``P a^3 / (3 EI)`` and at the tip ``P a^2 (3 L - a) / (6 EI)``
    (Euler-Bernoulli). The Hermite element's consistent load ``S(xi)^T f`` holds the nodal
    values of the piecewise cubic exactly in the linear theory, so at the tip within 1e-8
    (a deflection of 6e-6 L: its geometric nonlinearity is of order 1e-11) on every mesh; at
    a, inside an element whose exact deflection has a kink in its third derivative there, the
    interpolation error falls at the third order (ratio 8 +- 0.5 a halving of the elements:
    xi alternates between 2/3 and 1/3, where the error's shape takes the same value)."""
    P, a = 0.01, L / 3.0
    at_a = P * a**3 / (3 * E * INERTIA)
    tip = P * a**2 * (3 * L - a) / (6 * E * INERTIA)
    errors = []
    for n in (2, 4, 8, 16):
        m, b, _ = cantilever(n, angle=0.3)
        across = np.array([np.sin(0.3), -np.cos(0.3)])
        m.add_force(b.at(a), force=tuple(P * across))
        res = rancf.static(m)
        assert abs(res.position(b.end)[-1] @ across / tip - 1.0) < 1e-8
        errors.append(abs(res.position(b.at(a))[-1] @ across / at_a - 1.0))
    ratios = np.array(errors[:-1]) / np.array(errors[1:])
    assert np.all(np.abs(ratios - 8.0) < 0.5)


@pytest.mark.parametrize("method", ["rk4", "generalized-alpha"])
def test_a_load_at_the_end_of_an_element_is_the_nodes_load(method):
    """A force and a moment (functions of t) at xi = 1 of element 1 and at xi = 0 of element
    2 (of a soft cantilever under gravity) give node 2's trajectory to round-off, in the
    recursion (explicit and implicit)."""
    runs = []
    for make in (lambda b: b.node(2), lambda b: end_of_element(b, 1, 1.0),
                 lambda b: end_of_element(b, 2, 0.0)):
        m = rancf.Model(gravity=(0.0, -9.81))
        b = m.add_beam(1.0, 4, E=2e7, rho=1000.0, A=1e-3, I=1e-8)
        m.add_joint("fixed", m.ground.point(0.0, 0.0), b.start)
        m.add_force(make(b), force=lambda t: (0.0, -5.0 * np.sin(40 * t)),
                    moment=lambda t: 3.0 * t)
        runs.append(rancf.simulate(m, t_end=0.02, dt=1e-4, method=method,
                                   formulation="recursive").position(b.end))
    for other in runs[1:]:
        np.testing.assert_allclose(other, runs[0], rtol=0, atol=1e-12 * np.abs(runs[0]).max())


def test_a_load_at_the_end_of_an_element_is_the_nodes_load_in_statics():
    """The same in statics (the DAE, with its central-difference load Jacobians): a follower
    moment that rolls the cantilever up by about a radian, at xi = 1 of element 2 and at node
    3, equal to the Newton tolerance."""
    tips = []
    for make in (lambda b: b.node(3), lambda b: end_of_element(b, 2, 1.0)):
        m, b, _ = cantilever(4)
        m.add_force(make(b), moment=E * INERTIA / L)
        tips.append(rancf.static(m).position(b.end)[-1])
    np.testing.assert_allclose(tips[1], tips[0], rtol=0, atol=1e-9 * L)


def pendulum_with_spring(s, c=0.0, formulation="recursive"):
    """A beam hinged at the ground, under gravity, held by a spring-damper from a ground point
    above to the beam's point at s."""
    m = rancf.Model(gravity=(0.0, -9.81))
    b = m.add_beam(1.0, 4, E=2e7, rho=1000.0, A=1e-3, I=1e-8)
    m.add_joint("revolute", m.ground.point(0.0, 0.0), b.start)
    spring = m.add_spring_damper(m.ground.point(0.6, 0.5), b.at(s), k=400.0, c=c,
                                 rest_length=0.3)
    return m, b, spring


@pytest.mark.parametrize("c", [0.0, 2.0])
def test_spring_at_an_arc_point_keeps_the_energy_balance(c):
    """A spring-damper to the beam's point at s = 0.55 m (between nodes 2 and 3): with RK4 at
    a step 50 times below its stability limit the energy balance (kinetic + elastic, the
    spring's potential included, + gravity + dissipated) holds to 1e-6 of the kinetic
    energy; a generalized force that were not the gradient of the spring's potential at that
    point would break it at order one."""
    m, b, spring = pendulum_with_spring(0.55, c)
    res = rancf.simulate(m, t_end=0.3, dt=2e-5, method="rk4", output_every=50)
    e = res.energy()
    assert e.kinetic.max() > 0.1
    assert e.elastic.max() > 1.0      # the spring does work
    if c:
        assert e.dissipated.iloc[-1] > 1e-3 * e.kinetic.max()
    assert res.energy_drift() < 1e-6


def test_spring_at_an_arc_point_recursion_equals_dae():
    """The implicit recursion (the spring on its element's two nodes in the Woodbury term) and
    the DAE (central-difference Jacobian on both nodes) follow the same motion, generalized-
    alpha at one step, to 1e-6 of the beam's length."""
    tips = []
    for formulation in ("recursive", "dae"):
        m, b, _ = pendulum_with_spring(0.55, 1.0)
        res = rancf.simulate(m, t_end=0.1, dt=1e-3, method="generalized-alpha",
                             formulation=formulation)
        tips.append(res.position(b.end))
    np.testing.assert_allclose(tips[1], tips[0], rtol=0, atol=1e-6)


def hung_body(point_of, rho=7800.0, mass=2.0):
    """A cantilever with a rigid body hung on a revolute joint at a point of it, under
    gravity."""
    m = rancf.Model(gravity=(0.0, -9.81))
    b = m.add_beam(L, 4, E=E, rho=rho, A=AREA, I=INERTIA)
    m.add_joint("fixed", m.ground.point(0.0, 0.0), b.start)
    point = point_of(b)
    s = point.s if point.kind == ARC else point.node * L / 4
    body = m.add_rigid_body(mass, 0.01, position=(s, -0.2))
    pin = m.add_joint("revolute", point, body.point(0.0, 0.2))
    return m, b, body, pin


def test_joint_at_an_arc_point_holds_and_carries_the_weight():
    """Statics: a body of 2 g hung at s = 0.7 m. The joint's points coincide to the Newton
    tolerance, its reaction on the body is the body's weight (to the Newton tolerance), and
    the beam deflects as the
    Euler-Bernoulli cantilever under that force at a (tip ``P a^2 (3 L - a) / (6 EI)``,
    within 1e-6: a deflection of 1.2e-5 L, its geometric nonlinearity of order 1e-9; the
    beam's own weight is 1e-7 of the body's)."""
    mass = 0.002
    m, b, body, pin = hung_body(lambda b: b.at(0.7), rho=1e-9, mass=mass)
    res = rancf.static(m)
    assert res.formulation == "dae"
    gap = res.position(b.at(0.7))[-1] - res.position(body.point(0.0, 0.2))[-1]
    assert np.linalg.norm(gap) < 1e-10 * L
    P, a = mass * 9.81, 0.7
    # the Newton tolerance is relative to the beam's internal forces (EA = 4e7 N): the same
    # solve with the body at node 1 leaves 1e-6 P across the weight
    np.testing.assert_allclose(res.reaction(pin)[-1], [0.0, P, 0.0], rtol=0, atol=1e-5 * P)
    tip = P * a**2 * (3 * L - a) / (6 * E * INERTIA)
    assert abs(-res.position(b.end)[-1][1] / tip - 1.0) < 1e-6


def test_joint_at_an_arc_point_in_motion_and_at_a_node():
    """The body swinging on the joint at s = 0.7 m (the DAE, which formulation 'auto' picks):
    the points coincide at every output to the Newton tolerance, and the joint's coordinate is
    the body's turn less the centreline's slope there. The same joint at xi = 1 of element 1
    follows node 2's joint to round-off."""
    def swing(point_of, formulation="auto"):
        m, b, body, pin = hung_body(point_of)
        m.add_force(body.centre, force=lambda t: (20.0 * np.cos(30 * t), 0.0))
        res = rancf.simulate(m, t_end=0.05, dt=5e-4, method="generalized-alpha",
                             formulation=formulation)
        return res, b, body, pin

    res, b, body, pin = swing(lambda b: b.at(0.7))
    assert res.formulation == "dae"
    gap = res.position(b.at(0.7)) - res.position(body.point(0.0, 0.2))
    assert np.abs(gap).max() < 1e-9 * L
    assert np.ptp(res.position(body.centre)[:, 0]) > 1e-4
    # its coordinate: the body's axis angle less the centreline's slope angle at s (Hermite)
    A = res.model.build()
    v = A.node_size * A.vertex_of(b.at(0.7))
    X = res.nodes.reshape(len(res.t), -1)
    slope = np.array([hermite_point(x, v, L / 4, b.at(0.7).xi)[1] for x in X])
    u = res.nodes[:, A.body_vertex[0], 2:]
    turn = np.unwrap(np.arctan2(u[:, 1], u[:, 0]) - np.arctan2(slope[:, 1], slope[:, 0]))
    q = res.joint(pin)[0]
    np.testing.assert_allclose(q - q[0], turn - turn[0], rtol=0, atol=1e-9)
    assert np.ptp(q) > 1e-3
    # both on the DAE ("auto" runs the node's joint on the recursion)
    runs = [swing(lambda b: b.node(2), "dae"), swing(lambda b: end_of_element(b, 1, 1.0), "dae")]
    ref = runs[0][0].position(runs[0][2].centre)
    np.testing.assert_allclose(runs[1][0].position(runs[1][2].centre), ref, rtol=0,
                               atol=1e-10 * L)
    np.testing.assert_allclose(runs[1][0].reaction(runs[1][3]), runs[0][0].reaction(runs[0][3]),
                               rtol=0, atol=1e-7 * 2.0 * 9.81)


def test_recursion_refuses_a_joint_at_an_arc_point_naming_the_dae():
    m, b, body, pin = hung_body(lambda b: b.at(0.7))
    with pytest.raises(ValueError, match=r"between two nodes.*formulation='dae'"):
        rancf.simulate(m, t_end=0.01, dt=1e-3, formulation="recursive")
    m, b, body, pin = hung_body(lambda b: b.at(0.7))
    with pytest.raises(ValueError, match="formulation 'dae'"):
        rancf.simulate(m, t_end=0.01, dt=1e-3, method="rk4")



def test_driven_slide_on_a_point_between_nodes_is_refused():
    """A driven prismatic joint on a beam's tangent between nodes is refused, as on a node
    (the slide along a stretching tangent is no drive)."""
    m, b, _ = cantilever(4)
    body = m.add_rigid_body(1.0, 0.01, position=(0.7, 0.0))
    m.add_joint("prismatic", b.at(0.7), body.centre, drive=lambda t: (0.0, 0.0, 0.0))
    with pytest.raises(ValueError, match="needs a ground or rigid-body parent"):
        m.build()
