"""Joints at a point between two nodes of a spatial beam (``beam.at(s)``) in the spatial DAE,
each against something independent: the point and frame the rows hold against the outputs'
own map (``Result.position`` and ``orientation`` of ``beam.at(s)``), the constraint Jacobian
against central differences of the rows, the joint at a point at the end of an element
against the same joint at the node, loop closure along runs, and the refusals."""
import numpy as np
import pytest
from scipy.spatial.transform import Rotation

import rancf
from rancf.formulations import _spatial_dae, spatial
from rancf.formulations.spatial_dae import SpatialDAE, rotation
from rancf.integrators.static import _spatial_dae_static
from rancf.results.result import result_of
from rancf.model.items import ARC, ArcPoint
from rancf.results.outputs import spatial_arc_motion

AXES = {"revolute": dict(axis=(0.0, 1.0, 0.0)), "prismatic": dict(axis=(1.0, 0.0, 0.0)),
        "cylindrical": dict(axis=(0.0, 0.0, 1.0)),
        "universal": dict(axes=[(0.0, 1.0, 0.0), (1.0, 0.0, 0.0)])}
KINDS = ["fixed", "revolute", "prismatic", "cylindrical", "universal", "spherical", "free"]


def beam(m, n=4, start=(0.0, 0.0, 0.0), direction=(1.0, 0.0, 0.0), up=(0.0, 0.0, 1.0)):
    return m.add_beam(1.0, n, E=2e9, rho=2000.0, A=1e-3, I=(1e-7, 1.2e-7), J=1.5e-7, G=8e8,
                      start=start, direction=direction, up=up)


def hung_body(kind="spherical", s=0.7, point=None):
    """A cantilever along x with a body hung 0.2 m below its point at s (or ``point``)."""
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -9.81))
    b = beam(m)
    m.add_joint("fixed", m.ground.point(0, 0, 0), b.start)
    p = b.at(s) if point is None else point(b)
    x = float(p.s) if p.kind == ARC else float(b.positions[p.node, 0])
    body = m.add_rigid_body(0.5, np.diag([1e-3, 2e-3, 2.5e-3]), position=(x, 0.0, -0.2))
    j = m.add_joint(kind, p, body.point(0, 0, 0.2), **AXES.get(kind, {}))
    return m, b, body, j


def dae_of(m):
    return SpatialDAE(m.build(), *spatial.model_inputs(m))


def off_state(dae, scale, seed):
    """The reference state moved at random (Euler parameters off the unit sphere too)."""
    x0, _ = dae.initial_state()
    return x0 + scale * np.random.default_rng(seed).standard_normal(x0.size)


def central_jacobian(dae, x, h=1e-6):
    return np.array([(dae.constraint(x + h * e, 0.0) - dae.constraint(x - h * e, 0.0)) / (2 * h)
                     for e in np.eye(x.size)]).T


def test_arc_pose_is_the_outputs_point_and_frame_and_its_jacobian_the_differences():
    """The pose the rows hold, ``(X, q)`` of ``arc_pose``, is the point and frame of the
    outputs' own map (``spatial_arc_motion``) for an element bent and twisted by 0.7 rad, the
    second node off the first's axis; its Jacobian equals central differences (off the unit
    sphere too, 1e-7 relative)."""
    m = rancf.Model(dim=3)
    b = beam(m, n=1)
    m.add_joint("fixed", m.ground.point(0, 0, 0), b.start)
    tree = m.build()
    rng = np.random.default_rng(5)
    Aa = Rotation.from_rotvec(rng.standard_normal(3)).as_matrix()
    Ab = Aa @ Rotation.from_rotvec([0.3, -0.4, 0.5]).as_matrix()
    ra = rng.standard_normal(3)
    rb = ra + Aa @ np.array([1.0, 0.2, -0.1])
    xi = 0.37
    poses = np.array([[np.concatenate([ra, Aa.ravel()]), np.concatenate([rb, Ab.ravel()])]])
    r, A, _, _ = spatial_arc_motion(tree, ArcPoint(b, ARC, node=0, offset=np.zeros(3), s=xi,
                                                   xi=xi), poses, np.zeros((1, 2, 6)))
    quat = lambda M: np.roll(Rotation.from_matrix(M).as_quat(), 1)
    xa, xb = np.concatenate([ra, 1.3 * quat(Aa)]), np.concatenate([rb, 0.8 * quat(Ab)])
    y, T = _spatial_dae.arc_poses(xa, xb, xi)
    np.testing.assert_allclose(y[:3], r[0], rtol=0, atol=1e-14)
    np.testing.assert_allclose(rotation(y[3:]) / (y[3:] @ y[3:]), A[0], rtol=0, atol=1e-14)
    z, h = np.concatenate([xa, xb]), 1e-6
    pose = lambda z: _spatial_dae.arc_poses(z[:7], z[7:], xi)[0]
    D = np.array([(pose(z + h * e) - pose(z - h * e)) / (2 * h) for e in np.eye(14)]).T
    np.testing.assert_allclose(T, D, rtol=0, atol=1e-7 * np.abs(D).max())


@pytest.mark.parametrize("angle", [1e-3, 0.2, 0.7, 2.0])
def test_arc_map_gradient_is_exact(angle):
    """``dL/dp`` of the arc map, ``L = J_l(xi p) xi J_l(p)^-1 d`` (exact, through the rates
    of J_l), against central differences of L (step 1e-5 (1 + |p|): truncation 1e-10) for a
    rotation p of several angles, below and above the series' range of the coefficients."""
    rng = np.random.default_rng(int(angle * 1000))
    axis = rng.standard_normal(3)
    p = angle * axis / np.linalg.norm(axis)
    d = np.array([1.0, 0.2, -0.1])
    for xi in (0.3, 0.8):
        L, G = _spatial_dae.arc_gradients(p, d, xi)
        h = 1e-5 * (1.0 + angle)
        D = np.array([(_spatial_dae.arc_gradients(p + h * e, d, xi)[0]
                       - _spatial_dae.arc_gradients(p - h * e, d, xi)[0]) / (2 * h)
                      for e in np.eye(3)]).T
        np.testing.assert_allclose(G, D, rtol=0, atol=1e-9 * np.abs(D).max())


@pytest.mark.parametrize("kind", KINDS)
def test_jacobian_equals_central_differences_of_the_rows(kind):
    """Every kind at ``beam.at(0.7)`` hanging a body, at a state moved at random off the
    constraints and the unit sphere: the compiled Jacobian equals central differences of the
    compiled rows (1e-7 of its largest entry)."""
    dae = dae_of(hung_body(kind)[0])
    x = off_state(dae, 0.05, 7)
    J = dae.constraint_jacobian(x, 0.0).toarray()
    np.testing.assert_allclose(J, central_jacobian(dae, x), rtol=0, atol=1e-7 * np.abs(J).max())


@pytest.mark.parametrize("kind", ["revolute", "spherical", "fixed"])
def test_jacobian_with_points_between_nodes_on_both_sides(kind):
    """A beam hung by its point at 0.3 from another's at 0.7, and a beam hung from a body by
    its point at 0.3 (the child side between nodes): Jacobian against central differences."""
    m = rancf.Model(dim=3)
    b1 = beam(m)
    m.add_joint("fixed", m.ground.point(0, 0, 0), b1.start)
    b2 = beam(m, start=(0.7, 0.0, -0.3), direction=(0.0, 0.0, 1.0), up=(1.0, 0.0, 0.0))
    m.add_joint(kind, b1.at(0.7), b2.at(0.3), **AXES.get(kind, {}))
    body = m.add_rigid_body(1.0, np.diag([1e-2, 2e-2, 3e-2]), position=(0.0, 1.0, 0.0))
    m.add_joint("spherical", m.ground.point(0, 1, 0), body.centre)
    b3 = beam(m, start=(0.0, 0.4, 0.0), direction=(0.0, 1.0, 0.0))
    m.add_joint(kind, body.point(0, -0.3, 0), b3.at(0.3), **AXES.get(kind, {}))
    dae = dae_of(m)
    x = off_state(dae, 0.05, 11)
    J = dae.constraint_jacobian(x, 0.0).toarray()
    np.testing.assert_allclose(J, central_jacobian(dae, x), rtol=0, atol=1e-7 * np.abs(J).max())


@pytest.mark.parametrize("kind", ["spherical", "revolute", "universal"])
def test_point_at_an_element_end_is_the_node(kind):
    """The joint at the point xi = 0 of element 2 (node 2 itself) has the node's joint's rows
    and Jacobian bitwise at any state, and at xi = 1 of element 1 (node 2 again) to round-off
    on the unit sphere; the runs of the three agree (bitwise; 1e-12 m)."""
    runs = []
    node, first, last = (hung_body(kind, point=lambda b: b.node(2)),
                         hung_body(kind, point=lambda b: ArcPoint(b, ARC, node=2, offset=np.zeros(
                             3), s=0.5, xi=0.0)),
                         hung_body(kind, point=lambda b: ArcPoint(b, ARC, node=1, offset=np.zeros(
                             3), s=0.5, xi=1.0)))
    d0, d1, d2 = dae_of(node[0]), dae_of(first[0]), dae_of(last[0])
    x = off_state(d0, 0.05, 3)
    np.testing.assert_array_equal(d1.constraint(x, 0.0), d0.constraint(x, 0.0))
    np.testing.assert_array_equal(d1.constraint_jacobian(x, 0.0).toarray(),
                                  d0.constraint_jacobian(x, 0.0).toarray())
    X = x[:7 * d0.n_bodies].reshape(-1, 7)
    X[:, 3:] /= np.linalg.norm(X[:, 3:], axis=1)[:, None]
    np.testing.assert_allclose(d2.constraint(x, 0.0), d0.constraint(x, 0.0), rtol=0, atol=1e-14)
    for m, b, body, j in (node, first, last):
        res = rancf.simulate(m, t_end=0.1, dt=2e-3, method="generalized-alpha", formulation="dae")
        runs.append((res.position(body.centre), res.orientation(body.centre)))
    np.testing.assert_array_equal(runs[1][0], runs[0][0])
    np.testing.assert_allclose(runs[2][0], runs[0][0], rtol=0, atol=1e-12)
    np.testing.assert_allclose(runs[2][1], runs[0][1], rtol=0, atol=1e-10)


@pytest.mark.parametrize("kind", ["spherical", "revolute"])
def test_loop_closure_of_a_body_hung_at_a_point_between_nodes(kind):
    """A body hung at ``beam.at(0.7)`` (between nodes 2 and 3 of a 4-element cantilever),
    swinging and shaking the beam: the body's joint point stays at the beam's point that
    ``Result.position(beam.at(0.7))`` follows (the outputs' own map) to the Newton tolerance
    along the run, a revolute's axis stays the beam's axis there (``Result.orientation``),
    while both move by centimetres; ``formulation="auto"`` ran the spatial DAE."""
    m, b, body, j = hung_body(kind)
    res = rancf.simulate(m, t_end=0.4, dt=1e-3, state=None)
    assert res.formulation == "dae", res.formulation
    at = res.position(b.at(0.7))
    gap = np.abs(res.position(body.point(0, 0, 0.2)) - at).max()
    assert np.abs(at - at[0]).max() > 5e-3
    assert gap < 1e-9, gap
    if kind == "revolute":
        Ab, Aa = res.orientation(body.centre), res.orientation(b.at(0.7))
        # the axis (global y at the reference) in the beam's frame there and in the body's
        a_beam = np.einsum("nij,j->ni", Aa, Aa[0].T @ np.array([0.0, 1.0, 0.0]))
        a_body = np.einsum("nij,j->ni", Ab, Ab[0].T @ np.array([0.0, 1.0, 0.0]))
        assert np.abs(a_beam - a_body).max() < 1e-9
        turn = np.einsum("nji,nj->n", Aa, Ab @ Ab[0].T @ Aa[0] @ np.array([1.0, 0.0, 0.0]))
        assert np.abs(np.arccos(np.clip(turn, -1, 1))).max() > 1e-2


def test_reaction_balances_the_hung_body_at_rest():
    """A body hung at ``beam.at(0.7)`` by a fixed joint, at the static equilibrium (statics on
    the spatial DAE; the beam's point there turned by its bending): the reaction on the body
    balances its weight G, force ``-G`` and moment ``-r x G`` about the joint point, r from
    the point (``Result.position(beam.at(0.7))``) to the centre of mass."""
    m, b, body, j = hung_body("fixed")
    res = rancf.static(m)
    R = res.reaction(j)[-1]
    G = np.array([0.0, 0.0, -0.5 * 9.81])
    r = res.position(body.centre)[-1] - res.position(b.at(0.7))[-1]
    assert abs(r[0]) > 1e-3                  # the body turned with the beam
    np.testing.assert_allclose(R[:3], -G, rtol=0, atol=1e-8)
    np.testing.assert_allclose(R[3:], -np.cross(r, G), rtol=0, atol=1e-8)


def test_refusals_name_the_formulation_and_the_joint():
    m, b, body, j = hung_body()
    with pytest.raises(ValueError, match=r"joint 1 \(spherical\) attaches at beam\[0\]\.at\(0\.7\)"
                                         r".*formulation 'dae'"):
        spatial.of_model(m)
    with pytest.raises(ValueError, match="formulation 'recursive'.*formulation 'dae'"):
        rancf.simulate(m, t_end=0.01, dt=1e-3, method="generalized-alpha",
                       formulation="recursive")
    with pytest.raises(ValueError, match="'rk4' is explicit.*attaches at beam\\[0\\]\\.at"):
        rancf.simulate(m, t_end=0.01, dt=1e-3, method="rk4")
    m = rancf.Model(dim=3)
    b = beam(m)
    m.add_joint("fixed", m.ground.point(0, 0, 0), b.start)
    body = m.add_rigid_body(0.5, np.eye(3) * 1e-3, position=(0.7, 0.0, -0.2))
    with pytest.raises(ValueError, match=r"drive on joint 1 \(revolute\) at beam\[0\]\.at"):
        m.add_joint("revolute", b.at(0.7), body.point(0, 0, 0.2), axis=(0, 1, 0),
                    drive=lambda t: (t, 1.0, 0.0))
    with pytest.raises(ValueError, match=r"effort on joint 1 \(revolute\)"):
        m.add_joint("revolute", b.at(0.7), body.point(0, 0, 0.2), axis=(0, 1, 0), effort=1.0)
    hinge = m.add_joint("revolute", b.at(0.7), body.point(0, 0, 0.2), axis=(0, 1, 0))
    m.add_rotational_spring_damper(hinge, k=1.0)
    with pytest.raises(ValueError, match="spring-damper on joint 1.*between two nodes"):
        rancf.simulate(m, t_end=0.01, dt=1e-3, method="generalized-alpha")
    m = rancf.Model(dim=3)
    b = beam(m)
    m.add_joint("fixed", m.ground.point(0, 0, 0), b.start)
    c = m.add_beam(1.0, 4, E=1e9, rho=1000.0, A=1e-4, I=1e-9, start=(0.7, 0, 0),
                   direction=(0, 0, -1), element="ancf-cable")
    with pytest.raises(ValueError, match="to the cable point cable"):
        m.add_joint("spherical", b.at(0.7), c.start)
    with pytest.raises(ValueError, match="on no single body"):
        m.body_of(b.at(0.7))


@pytest.mark.parametrize("point", [lambda b: b.at(0.7), lambda b: b.node(3)],
                         ids=["at(0.7)", "node(3)"])
def test_a_pendulum_hung_on_the_beam_finds_its_equilibrium_and_modes(point):
    """A free revolute pendulum (0.5 kg, centre 0.2 m below the pin, inertia 2e-3 kg m^2
    about the axis y) hung at ``beam.at(0.7)`` (or at a node, forced into the spatial DAE):
    the first Newton matrix of statics was singular at both (the least-squares multipliers put
    the body's weight on the beam's nodes, not through its joint, leaving its swing without
    stiffness). At the equilibrium the body hangs straight below its pin and the joint holds
    its weight; its first mode is the compound pendulum's, ``sqrt(m g d / (I + m d^2))``,
    lowered by the beam's flexibility by 4e-6 here."""
    m, b, body, j = hung_body("revolute", point=point)
    # rancf.static runs the DAE for the point at(0.7), the recursion (which refuses a free
    # joint in statics) for the node: the DAE's statics for both
    res = result_of(m, _spatial_dae_static(m, 10, 1e-10, 50))
    assert res.status == "ok", res.message
    r = res.position(body.centre)[-1] - res.position(point(b))[-1]
    np.testing.assert_allclose(r[:2], 0.0, atol=1e-9)
    G = np.array([0.0, 0.0, -0.5 * 9.81])
    np.testing.assert_allclose(res.reaction(j)[-1], np.r_[-G, 0.0, 0.0, 0.0], atol=1e-8)
    mass, g, d, inertia = 0.5, 9.81, 0.2, 2e-3
    f = np.sqrt(mass * g * d / (inertia + mass * d**2)) / (2 * np.pi)
    assert rancf.modes(m, n=2).frequencies[0] == pytest.approx(f, rel=1e-4)
