"""Statics' Newton matrix of the spatial recursion (the module docstring of
rancf/formulations/_spatial_implicit.pyx, "Statics"): with the turning of the link wrenches
and the loads' own turning it is the static residual's whole derivative, against central
differences of that residual, for every joint kind, gravity, follower and fixed-direction
forces and moments, at nodes and at points between two nodes, and spring-dampers between
such points; and the solve it makes direct (no GMRES) reaches the same equilibria."""
import numpy as np
import pytest

import rancf
from rancf.formulations import spatial
from validation import bend45
from models import static_jacobian

#: the load factor the matrices are compared at (the loads scaled, the elements' forces not)
LOAD_FACTOR = 0.7
#: the bend's length (m): ``beam.at`` takes the arc length
BEND = bend45.R * bend45.ANGLE


def every_joint_kind_at_rest():
    """:func:`joint_kinds`' model."""
    return joint_kinds()[0]


def joint_kinds():
    """The model of :func:`every_joint_kind_at_rest`, its beam and its rigid bodies: a soft beam
    of 4 elements on a spherical joint (with a rotational spring) from the ground, below its
    end rigid bodies on a universal, a driven revolute, a prismatic (with a
    spring), a revolute and a free joint, under gravity; a fixed-direction force and moment
    at an offset point of the free body and a follower force and moment at an offset point
    of the universal joint's body and on a beam node. Every coordinate has stiffness: the
    elements', the springs', gravity's and the loads' turning (the pendulums), and the free
    joint's translation an effort function's, of unsymmetric slope (T is the identity there:
    statics' matrix takes the slope whole), and the free joint's rotation and the spherical
    root effort torques, not zero at any configuration (the turning of their map
    ``J_l(q)^T e``). No cylindrical joint: nothing but a
    spring-damper between points holds its sliding under
    loads of fixed size, so its statics matrix is singular; the dynamics' turning test
    (tests/test_spatial_turning.py) has it."""
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -9.81))
    b = m.add_beam(0.8, 4, E=5e5, rho=1000.0, A=1e-3, I=(2e-8, 3e-8), J=4e-8, G=2e5,
                   direction=(1.0, 0.0, -1.0), up=(0.0, 1.0, 0.0))
    root = m.add_joint("spherical", m.ground.point(0, 0, 0), b.start,
                       effort=lambda t, q, qd: np.array([0.4, -0.3, 0.2]) - 3.0 * q)
    m.add_rotational_spring_damper(root, 5.0)
    parent, below = b.end, b.positions[-1]
    axis = (0.0, 0.6, 0.8)
    joints = [("universal", dict(axes=((1, 0, 0), (0, 1, 0)))),
              ("revolute", dict(axis=axis, drive=lambda t: (0.0, 0.0, 0.0))),
              ("prismatic", dict(axis=axis)), ("revolute", dict(axis=(1.0, 0.0, 0.0))),
              ("free", dict(effort=lambda t, q, qd: np.concatenate(
                  [-np.array([[30.0, 8.0, 0.0], [-5.0, 30.0, 0.0], [0.0, 0.0, 30.0]]) @ q[:3],
                   np.array([0.02, -0.01, 0.03]) - 0.5 * q[3:]])))]
    bodies = []
    for kind, options in joints:
        body = m.add_rigid_body(0.3, np.diag([1e-3, 2e-3, 3e-3]), position=below - (0, 0, 0.1))
        joint = m.add_joint(kind, parent, body.point(0.0, 0.0, 0.1), **options)
        if kind == "prismatic":
            m.add_rotational_spring_damper(joint, 40.0)
        bodies.append(body)
        parent, below = body.point(0.0, 0.0, -0.1), below - (0, 0, 0.2)
    m.add_force(bodies[-1].point(0.05, 0.02, -0.03), force=(1.0, -2.0, 0.5),
                moment=(0.1, 0.2, -0.1))
    m.add_force(bodies[0].point(0.04, -0.03, 0.0), force=(0.5, 1.0, -1.5),
                moment=(-0.05, 0.1, 0.02), follower=True)
    m.add_force(b.node(2), force=(0.0, 0.3, 0.2), moment=(0.01, 0.0, 0.02), follower=True)
    return m, b, bodies


def bend_with_loads():
    """Bathe and Bolourchi's bend (8 elements, :mod:`validation.bend45`) with gravity along -y,
    its tip force (fixed direction) and a follower force and moment at an offset point of
    node 4: no effort functions, spring-dampers or cables, so statics takes the direct
    solve by itself (``exact_static``)."""
    return loaded_bend()[0]


def loaded_bend():
    """:func:`bend_with_loads` and its beam."""
    m, beam = bend45.model(8)
    m.gravity = (0.0, -2.0, 0.0)
    m.add_force(beam.node(4), force=(0.0, 0.0, -200.0), moment=(30.0, -20.0, 10.0),
                follower=True)
    return m, beam


def bend_with_springs():
    """:func:`bend_with_loads` with a spring-damper from a ground point to an offset point of a
    rigid body on a revolute joint at node 6, and a second cantilever (3 elements, another
    branch from the ground) whose tip a spring-damper ties to an offset point of node 3: each
    spring's force turns with neither body (its change with the points' positions is S's
    spring term), the second couples two branches (Woodbury)."""
    m, beam = loaded_bend()
    node = bend45.arc(8)[0][6]
    body = m.add_rigid_body(5.0, np.diag([2.0, 3.0, 4.0]), position=node + (2.0, -1.0, 5.0))
    m.add_joint("revolute", beam.node(6), body.point(-2.0, 1.0, -5.0), axis=(0.0, 0.6, 0.8))
    m.add_spring_damper(m.ground.point(80.0, 40.0, 40.0), body.point(1.0, -2.0, 3.0), k=30.0,
                        c=1.0, rest_length=20.0)
    other = m.add_beam(30.0, 3, start=(0.0, 40.0, 0.0), direction=(1.0, 0.0, 0.0),
                       up=(0.0, 0.0, 1.0), E=1e7, rho=1.0, A=1.0, I=(1.0 / 12, 1.0 / 12),
                       J=1.0 / 6, G=5e6)
    m.add_joint("fixed", m.ground.point(0.0, 40.0, 0.0), other.start)
    m.add_spring_damper(other.end, beam.node(3), k=50.0, rest_length=20.0)
    return m


def every_joint_kind_between_nodes():
    """:func:`every_joint_kind_at_rest` with a fixed-direction force and moment at xi = 0.25 of
    the beam's last element (of 4, 0.2 m each) and a follower force and moment at the middle
    of its first, and a spring-damper from xi = 0.25 of its third element to the free body:
    loads and a spring point that move with two nodes' coordinates, beside links of every
    kind."""
    m, beam, bodies = joint_kinds()
    free = bodies[-1]
    m.add_force(beam.at(0.65), force=(0.3, -0.4, 0.8), moment=(0.02, 0.01, -0.03))
    m.add_force(beam.at(0.1), force=(-0.2, 0.5, 0.3), moment=(0.01, -0.02, 0.01),
                follower=True)
    m.add_spring_damper(beam.at(0.45), free.point(0.03, 0.0, 0.05), k=20.0, rest_length=0.3)
    return m


def bend_between_nodes():
    """Bathe and Bolourchi's bend (8 elements) with gravity along -y, a force and moment of
    fixed direction at xi = 0.44 of its last element and a follower force and moment at xi
    = 0.44 of its fourth: loads whose point moves with both nodes of an element."""
    m, beam = bend45.model(8)
    m.gravity = (0.0, -2.0, 0.0)
    m.add_force(beam.at(0.93 * BEND), force=(20.0, -40.0, 100.0), moment=(30.0, -20.0, 10.0))
    m.add_force(beam.at(0.43 * BEND), force=(0.0, 0.0, -200.0), moment=(30.0, -20.0, 10.0),
                follower=True)
    return m


def clamped_at_its_end():
    """A beam of 5 elements (1 m) clamped at its end (the tree runs from its last node to its
    first: an element's first node is the child of its second), under gravity, a force and
    moment of fixed direction at xi = 0.65 of its first element and a follower force and
    moment at xi = 0.75 of its third."""
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -9.81))
    b = m.add_beam(1.0, 5, E=2e6, rho=1000.0, A=1e-3, I=(2e-8, 3e-8), J=4e-8, G=8e5,
                   direction=(1.0, 0.0, 0.0), up=(0.0, 0.0, 1.0))
    m.add_joint("fixed", m.ground.point(1.0, 0.0, 0.0), b.end)
    m.add_force(b.at(0.13), force=(0.0, 0.02, -0.05), moment=(0.001, 0.0, 0.002))
    m.add_force(b.at(0.55), force=(0.01, 0.0, -0.03), moment=(0.0, 0.002, 0.0),
                follower=True)
    return m


def bend_with_springs_between_nodes():
    """The bend (8 elements, its tip force) with spring-dampers from xi = 0.4 of a second
    cantilever's last element (another branch) to xi = 0.96 of the bend's third, from a
    ground point to xi = 0.2 of the bend's last element, and between xi = 0.8 of its fifth and
    xi = 0.6 of its second: each spring's force at a point between two nodes turns with
    neither node."""
    m, beam = bend45.model(8)
    other = m.add_beam(30.0, 3, start=(0.0, 40.0, 0.0), direction=(1.0, 0.0, 0.0),
                       up=(0.0, 0.0, 1.0), E=1e7, rho=1.0, A=1.0, I=(1.0 / 12, 1.0 / 12),
                       J=1.0 / 6, G=5e6)
    m.add_joint("fixed", m.ground.point(0.0, 40.0, 0.0), other.start)
    m.add_spring_damper(other.at(0.8 * 30.0), beam.at(0.37 * BEND), k=50.0, rest_length=20.0)
    m.add_spring_damper(m.ground.point(60.0, 40.0, 20.0), beam.at(0.9 * BEND), k=20.0,
                        rest_length=30.0)
    m.add_spring_damper(beam.at(0.6 * BEND), beam.at(0.2 * BEND), k=30.0, rest_length=10.0)
    return m


def matrices(m, exact, seed, scale, load_factor=LOAD_FACTOR):
    """At a random configuration (coordinates ``scale`` times standard normal) at rest: the
    static residual's Jacobian J at ``load_factor`` and J_0 at load factor 0 (the elements'
    and springs' part alone: ``J - J_0`` is the loads' part, gravity's and the applied
    loads' turning) by central differences, and Newton's matrix at ``load_factor`` (dense,
    the inverse of the loop's solve applied to the unit vectors; ``exact``: statics' direct
    matrix forced on, None: the problem's own choice, which must be it)."""
    f = spatial.of_model(m)
    p = spatial.implicit_problem(f, static=True)
    if exact is None:
        assert p.exact_static
    else:
        p.exact_static = exact
    n = f.n_free
    q = scale * np.random.default_rng(seed).standard_normal(n)
    z = np.zeros(n)

    def jacobian(s):
        p.load_factor = s
        return static_jacobian(p, q)

    J0, J = jacobian(0.0), jacobian(load_factor)
    krylov = p.krylov_iterations
    S = np.linalg.inv(np.column_stack([p.step_solve(q, z, 0.0, z, e, 0.0, 1.0, 0.0, 1.0, 0.0)
                                       for e in np.eye(n)]))
    assert p.krylov_iterations == krylov        # the direct solve: no GMRES product
    return J, J0, S


@pytest.mark.parametrize("model, exact, scale", [(every_joint_kind_at_rest, None, 0.2),
                                                 (bend_with_loads, None, 0.05),
                                                 (bend_with_springs, None, 0.05),
                                                 (every_joint_kind_between_nodes, None, 0.2),
                                                 (bend_between_nodes, None, 0.05),
                                                 (clamped_at_its_end, None, 0.05),
                                                 (bend_with_springs_between_nodes, None, 0.05)])
@pytest.mark.parametrize("load_factor", [LOAD_FACTOR, 0.2])
def test_static_newton_matrix_is_the_residual_s_derivative(model, exact, scale, load_factor):
    """Bound, stated before the run: ``|S - J| <= 1e-6 max |J|`` and ``<= 1e-4`` of the loads'
    part of J (``J - J_0``: the turning of the link wrenches, gravity's and the loads' own,
    which the plain S leaves out): the central differences' error at a step of 1e-6
    (truncation ~1e-12 relative, round-off of the residual's ~1e-16 over the step ~1e-10 of
    |J|) and the effort slopes' own differences, with a wide margin. At two load factors:
    the load blocks and link wrenches scale as the residual's loads do."""
    J, J0, S = matrices(model(), exact, seed=5, scale=scale, load_factor=load_factor)
    loads = np.abs(J - J0).max()
    assert loads > 1e-4 * np.abs(J).max()     # the loads' part is not negligible here
    assert np.abs(S - J).max() <= min(1e-6 * np.abs(J).max(), 1e-4 * loads)


def test_a_spring_to_the_ground_is_solved_directly():
    """A spring-damper between points is in the direct matrix (no GMRES product): statics
    reaches the equilibrium of the same tip force applied as a fixed-direction load in place
    of the spring (the spring's force at the converged state: the balance of the tip does not
    depend on which of the two held it), to the Newton tolerance."""
    m, beam = bend45.model(8)
    anchor = np.array([60.0, 40.0, 20.0])
    m.add_spring_damper(m.ground.point(*anchor), beam.end, k=20.0, rest_length=30.0)
    p = spatial.implicit_problem(spatial.of_model(m), static=True)
    assert p.exact_static
    res = rancf.static(m, load_steps=10)
    assert res.status == "ok", res.message
    tip = res.position(beam.end)[-1]
    d = anchor - tip
    pull = 20.0 * (np.linalg.norm(d) - 30.0) * d / np.linalg.norm(d)
    m2, beam2 = bend45.model(8)
    m2.add_force(beam2.end, force=tuple(pull))
    res2 = rancf.static(m2, load_steps=10)
    np.testing.assert_allclose(res2.position(beam2.end)[-1], tip, rtol=0,
                               atol=1e-8 * np.abs(tip).max())


def test_direct_statics_converges_quadratically_on_the_bend():
    """The bend at 16 elements by rancf.static (its tip against an independent full Newton:
    tests/test_spatial_bend.py): at most 4 Newton iterations a load step, the number an exact
    tangent needs (a miss of about 1e-1 of the load step's motion after the predictor falls
    to 1e-2, 1e-4, 1e-8 and 1e-16 of it, under the tolerance 1e-10 of the size at the
    fourth), where the plain S, which leaves out the load's turning, diverges at any number
    of load steps (the module docstring)."""
    m, beam = bend45.model(16)
    res = rancf.static(m, load_steps=10)
    assert res.status == "ok", res.message
    assert res.extra["iterations"].max() <= 4


@pytest.mark.parametrize("between", [False, True])
def test_a_stable_equilibrium_is_decided_by_the_pivots(monkeypatch, between):
    """The bend's equilibrium (8 elements, a force of fixed direction: a potential; on the tip
    node, or ``between`` at the middle of the last element, whose terms of the matrix are not
    congruences but still the potential's Hessian) is decided stable by the direct matrix's
    pivots, without the spatial DAE's test (made to fail here if it ran); independently, the
    static residual's Jacobian there by central differences is symmetric (to 1e-6 of its
    largest entry: the differences' error) and positive definite, as the pivots said."""
    from rancf.integrators import static as static_module

    def refused(*args, **kwargs):
        raise AssertionError("the spatial DAE's stability test ran")
    monkeypatch.setattr(static_module, "SpatialDAE", refused)
    m, beam = bend45.model(8, force=0.0 if between else bend45.FORCE)
    if between:
        m.add_force(beam.at((1.0 - 0.5 / 8) * BEND), force=(0.0, 0.0, bend45.FORCE))
    res = static_module.static(m, load_steps=10)     # the Solution: its link coordinates
    assert res.status == "ok", res.message
    f = spatial.of_model(m)
    p = spatial.implicit_problem(f, static=True)
    J = static_jacobian(p, res.q[-1][:f.n_free])
    assert np.abs(J - J.T).max() <= 1e-6 * np.abs(J).max()
    assert np.linalg.eigvalsh(0.5 * (J + J.T)).min() > 0.0


def test_loads_without_a_potential_keep_the_dae_s_stability_test(spatial_dae_builds):
    """A follower force and a moment fixed in space have no potential, on a node or between
    two: the pivots decide nothing there, and the spatial DAE is built for the stability test
    as before."""
    built = spatial_dae_builds
    for follower, moment, s in ((True, (0.0, 0.0, 0.0), None), (False, (0.0, 50.0, 0.0), None),
                                (True, (0.0, 0.0, 0.0), 0.45), (False, (0.0, 50.0, 0.0), 0.45)):
        m, beam = bend45.model(8)
        point = beam.node(4) if s is None else beam.at(s * BEND)
        m.add_force(point, force=(0.0, 0.0, -100.0), moment=moment, follower=follower)
        built.clear()
        assert rancf.static(m, load_steps=10).status == "ok"
        assert built


def _statics(m, direct, monkeypatch):
    """rancf.static of m (10 load steps) with statics' direct matrix (``direct``) or, forced
    off, GMRES on the residual's Jacobian preconditioned by it: the result and the GMRES
    products made."""
    from rancf.integrators import static as static_module
    made = []
    build = spatial.implicit_problem

    def problem(*args, **kwargs):
        p = build(*args, **kwargs)
        assert p.exact_static
        p.exact_static = direct
        made.append(p)
        return p
    with monkeypatch.context() as patch:
        patch.setattr(spatial, "implicit_problem", problem)
        res = static_module.static(m, load_steps=10)    # the Solution: link coordinates
    assert res.status == "ok", res.message
    return res, sum(p.krylov_iterations for p in made)


@pytest.mark.parametrize("model", [bend_between_nodes, clamped_at_its_end,
                                   bend_with_springs_between_nodes])
def test_loads_between_nodes_are_solved_directly_to_gmres_s_equilibrium(model, monkeypatch):
    """Loads and spring-dampers at points between two nodes are in the direct matrix: statics
    solves without a GMRES product and reaches the equilibrium GMRES on the residual's own
    Jacobian (central differences of the residual: independent of the matrix's terms)
    reaches, every link coordinate within 1e-8 of the largest (both stop at the Newton
    tolerance, 1e-10 of the model's size, and GMRES at 1e-8 of its right-hand side)."""
    direct, products = _statics(model(), True, monkeypatch)
    assert products == 0
    krylov, products = _statics(model(), False, monkeypatch)
    assert products > 0
    q, q_k = direct.q[-1], krylov.q[-1]
    np.testing.assert_allclose(q, q_k, rtol=0, atol=1e-8 * np.abs(q_k).max())


def test_bend_with_its_force_between_nodes_converges_quadratically():
    """The bend (16 elements) with its tip force at the middle of its last element, by
    rancf.static: at most 4 Newton iterations a load step, as with the force at the tip
    (:func:`test_direct_statics_converges_quadratically_on_the_bend`): the matrix is the
    residual's derivative (its differences in the element's point err by 1e-13 of it)."""
    m, beam = bend45.model(16, force=0.0)
    m.add_force(beam.at((1.0 - 0.5 / 16) * BEND), force=(0.0, 0.0, bend45.FORCE))
    p = spatial.implicit_problem(spatial.of_model(m), static=True)
    assert p.exact_static
    res = rancf.static(m, load_steps=10)
    assert res.status == "ok", res.message
    assert res.extra["iterations"].max() <= 4
