"""Points at an arc length of a beam (``beam.at(s)``, planar and spatial), each against
something independent: the nodes' own outputs at the ends of an element, the analytic deflection
of a cantilever under a tip load (Euler-Bernoulli: ``w(s) = F s^2 (3 L - s) / (6 E I)``) at the
element's order, central differences of the positions in time for the velocities."""
import numpy as np
import pytest
from scipy.spatial.transform import Rotation

import rancf
from rancf.model.items import ARC, ArcPoint

E, L, F = 2.07e11, 2.0, 1.0
WIDTH, HEIGHT = 0.02, 0.01
AREA = WIDTH * HEIGHT
IY, IZ = WIDTH * HEIGHT**3 / 12.0, HEIGHT * WIDTH**3 / 12.0


def euler_bernoulli(s, EI, force=F):
    return force * s**2 * (3.0 * L - s) / (6.0 * EI)


def planar_cantilever(n=4, force=0.01 * F):
    """At 0.4 rad, a tip force across it small enough (tip deflection 4e-5 L) that the
    geometric nonlinearity, of order (w / L)^2, is below 1e-8."""
    m = rancf.Model(gravity=(0.0, 0.0), elastic_model="reissner")
    b = m.add_beam(L, n, E=E, rho=7800.0, A=AREA, I=IY, angle=0.4)
    m.add_joint("fixed", m.ground.point(0.0, 0.0, angle=0.4), b.start)
    m.add_force(b.end, force=(force * np.sin(0.4), -force * np.cos(0.4)))
    return m, b


def spatial_cantilever(n, direction=(1.0, 0.0, 0.0), up=(0.0, 1.0, 0.0)):
    """Along ``direction``, the section's thin side (I_y) bending under a tip force along its
    z axis (``direction x up``)."""
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, 0.0))
    b = m.add_beam(L, n, E=E, rho=7800.0, A=AREA, I=(IY, IZ), J=IY + IZ, G=E / 2.6,
                   direction=direction, up=up, shear=False)
    m.add_joint("fixed", m.ground.point(0, 0, 0), b.start)
    m.add_force(b.end, force=tuple(-F * b.frames[0][:, 2]))
    return m, b


def test_at_a_node_is_the_node_and_the_interpolation_meets_the_nodes():
    """``at(s)`` on a node returns that node (every output then the node's); the element's
    interpolation at its ends (xi = 0 and 1, made directly) gives the nodes' positions,
    velocities and (spatial) frames: planar exactly, spatial to round-off."""
    m, b = planar_cantilever()
    assert b.at(0.5) is not None and b.at(0.5).kind != ARC and b.at(0.5).node == 1
    res = rancf.simulate(m, t_end=0.02, dt=1e-4, output_every=20)
    for xi, node in ((0.0, 1), (1.0, 2)):
        p = ArcPoint(b, ARC, node=1, offset=np.zeros(2), s=0.5 + xi * 0.5, xi=xi)
        np.testing.assert_array_equal(res.position(p), res.position(b.node(node)))
        np.testing.assert_array_equal(res.velocity(p), res.velocity(b.node(node)))
    m3, b3 = spatial_cantilever(4, direction=(0.6, 0.8, 0.0), up=(0.0, 0.0, 1.0))
    res3 = rancf.simulate(m3, t_end=0.01, dt=1e-4, output_every=20, method="generalized-alpha")
    assert b3.at(1.0).node == 2 and b3.at(1.0).kind != ARC
    for xi, node in ((0.0, 1), (1.0, 2)):
        p = ArcPoint(b3, ARC, node=1, offset=np.zeros(3), s=0.5 + xi * 0.5, xi=xi)
        scale = np.abs(res3.position(b3.end)).max()
        np.testing.assert_allclose(res3.position(p), res3.position(b3.node(node)), rtol=0,
                                   atol=1e-13 * scale)
        np.testing.assert_allclose(res3.orientation(p), res3.orientation(b3.node(node)),
                                   rtol=0, atol=1e-14)
        v = res3.velocity(b3.node(node))
        np.testing.assert_allclose(res3.velocity(p), v, rtol=0, atol=1e-8 * np.abs(v).max())


def test_planar_cantilever_between_nodes_is_euler_bernoulli():
    """Four Hermite elements hold the cubic deflection exactly: between nodes within 1e-6 of
    the analytic w(s) (the geometric nonlinearity of a 4e-5 L deflection is 1e-8), in
    position and in the deflection relative to the clamp's frame."""
    m, b = planar_cantilever()
    res = rancf.static(m)
    for s in (0.3, 0.77, 1.5):
        w = euler_bernoulli(s, E * IY, 0.01 * F)
        sag = res.deflection(b.at(s), b)[-1]
        assert abs(sag[1] / -w - 1.0) < 1e-6
        assert abs(sag[0]) < 1e-4 * w
        along = np.array([np.cos(0.4), np.sin(0.4)])
        across = np.array([np.sin(0.4), -np.cos(0.4)])
        r = res.position(b.at(s))[-1]
        assert abs(r @ along - s) < 1e-4 * w and abs(r @ across / w - 1.0) < 1e-6


def test_spatial_cantilever_between_nodes_converges_to_euler_bernoulli():
    """Between nodes, in a frame turned in space: the deflection at s = 0.3, 0.77, 1.5 m
    converges to the analytic one at the element's second order (error ratio 4 +- 0.5 from 8
    to 16 elements), its error there no more than twice the largest node error of the mesh
    (the interpolation adds nothing of a lower order)."""
    errors = []
    for n in (8, 16):
        m, b = spatial_cantilever(n, direction=(0.0, 0.6, 0.8), up=(1.0, 0.0, 0.0))
        res = rancf.static(m)
        between = [res.deflection(b.at(s), b)[-1][2] / -euler_bernoulli(s, E * IY) - 1.0
                   for s in (0.3, 0.77, 1.5)]
        nodes = [res.deflection(b.node(i), b)[-1][2] / -euler_bernoulli(i * L / n, E * IY) - 1.0
                 for i in range(1, n + 1)]
        assert max(map(abs, between)) <= 2.0 * max(map(abs, nodes))
        errors.append(np.abs(between))
    ratio = errors[0] / errors[1]
    assert np.all(np.abs(ratio - 4.0) < 0.5), ratio
    assert errors[1].max() < 5e-3


@pytest.mark.parametrize("dim", [2, 3])
def test_velocity_between_nodes_is_the_rate_of_the_position(dim):
    """A beam on a hub driven smoothly up to 15 rad/s^2 (``q = 50 (t - sin t)``: no jerk at
    the start, so that its high modes stay quiet), bending as it turns: the velocity of points
    between nodes against central differences of their positions over the outputs 0.2 ms apart
    (generalized-alpha at 0.1 ms; the nodes' own differ by 4e-7 to 8e-7 of the speed): within
    2e-5 of the speed; spatial, the section frame's angular velocity likewise against the
    frames' central differences."""
    def drive(t):
        return 50.0 * (t - np.sin(t)), 50.0 * (1.0 - np.cos(t)), 50.0 * np.sin(t)

    if dim == 2:
        m = rancf.Model(gravity=(0.0, 0.0), elastic_model="reissner")
        b = m.add_beam(1.0, 4, E=2e9, rho=2700.0, A=1e-4, I=1e-9)
        m.add_joint("revolute", m.ground.point(0.0, 0.0), b.start, drive=drive)
    else:
        m = rancf.Model(dim=3, gravity=(0.0, 0.0, 0.0))
        b = m.add_beam(1.0, 4, E=2e9, rho=2700.0, A=1e-4, I=(1e-9, 2e-9), J=2e-9, G=8e8,
                       up=(0.0, 1.0, 0.0))
        m.add_joint("revolute", m.ground.point(0, 0, 0), b.start, axis=(0.0, 0.0, 1.0),
                    drive=drive)
    res = rancf.simulate(m, t_end=0.3, dt=1e-4, output_every=2, method="generalized-alpha")
    assert res.status == "ok"
    dt = res.t[1] - res.t[0]
    for s in (0.1, 0.55, 0.9):
        x, v = res.position(b.at(s)), res.velocity(b.at(s))
        fd = (x[2:] - x[:-2]) / (2.0 * dt)
        assert np.abs(v[1:-1] - fd).max() < 2e-5 * np.abs(v).max()
        if dim == 3:
            # the section frame's angular velocity against the central difference of the
            # frames: log(A(t + dt) A(t - dt)^T) / (2 dt)
            A, w = res.orientation(b.at(s)), res.angular_velocity(b.at(s))
            turn = Rotation.from_matrix(A[2:] @ A[:-2].transpose(0, 2, 1)).as_rotvec()
            assert np.abs(w[1:-1] - turn / (2.0 * dt)).max() < 2e-5 * np.abs(w).max()


def test_arc_point_errors():
    m, b = planar_cantilever()
    with pytest.raises(ValueError, match=r"s must be an arc length in \[0, 2\] m"):
        b.at(2.5)
    with pytest.raises(TypeError, match="s must be a real number"):
        b.at("1")
    m3, b3 = spatial_cantilever(4)
    with pytest.raises(ValueError, match=r"s must be an arc length"):
        b3.at(-0.1)
    res = rancf.static(m3)
    m4, b4 = spatial_cantilever(4)
    m4.add_joint("spherical", b4.at(0.3), m4.add_rigid_body(1.0, np.eye(3),
                                                            position=(0.3, 0, 0)).centre)
    with pytest.raises(ValueError, match="between two nodes.*formulation 'dae'"):
        rancf.simulate(m4, t_end=0.01, dt=1e-3, method="generalized-alpha",
                       formulation="recursive")
    with pytest.raises(ValueError, match="between two nodes"):
        res.acceleration(b3.at(0.3))


def test_spatial_arc_points_of_a_curved_beam_lie_on_its_circle():
    """A quarter circle of radius 0.5 m in 4 elements: each element is a circular arc (constant
    curvature), so in the reference configuration a point at s lies at ``R (cos(s / R),
    sin(s / R), 0)`` and its frame's x axis is the circle's tangent, to round-off."""
    R = 0.5
    t = np.linspace(0.0, np.pi / 2, 5)
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, 0.0))
    arc = m.add_beam(n_elements=4, E=2e9, rho=7800.0, A=1e-4, I=(1e-9, 1e-9), J=2e-9, G=8e8,
                     points=np.column_stack([R * np.cos(t), R * np.sin(t), 0 * t]),
                     tangents=np.column_stack([-np.sin(t), np.cos(t), 0 * t]), up=(0, 0, 1))
    m.add_joint("fixed", m.ground.point(R, 0, 0), arc.start)
    res = rancf.simulate(m, t_end=1e-3, dt=1e-3, output_every=1, method="generalized-alpha")
    for s in (0.1, 0.33, 0.7):
        a = s / R
        np.testing.assert_allclose(res.position(arc.at(s))[0], [R * np.cos(a), R * np.sin(a), 0],
                                   rtol=0, atol=1e-15)
        np.testing.assert_allclose(res.orientation(arc.at(s))[0][:, 0],
                                   [-np.sin(a), np.cos(a), 0], rtol=0, atol=1e-15)
