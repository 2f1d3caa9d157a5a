"""Outputs of models with spatial ANCF cables (issue 23): point accelerations
(``Result.acceleration``, from the forward dynamics of the formulation that ran), vibration
modes (``rancf.modes`` on the recursion) and the cables' section forces in ParaView files
(``Result.to_vtk``), each against something independent: finite differences of the stored
velocities, the hanging chain's Bessel-function frequencies, the files read back."""
import numpy as np
import pytest

import rancf

CABLE = dict(E=1e7, rho=1000.0, A=1e-4, I=1e-9, element="ancf-cable")


def _hub():
    """A cable clamped to a hub on a revolute joint, a rigid payload hung from its end by a
    spherical joint (off its centre), a load on an inner node, gravity: every kind of cable
    link of the recursion."""
    m = rancf.Model(dim=3, gravity=(0.0, -3.0, -9.81))
    hub = m.add_rigid_body(1.0, np.diag([0.01, 0.02, 0.03]), position=(0, 0, 0))
    m.add_joint("revolute", m.ground.point(0, 0, 0), hub.centre, axis=(0, 0, 1))
    c = m.add_beam(1.0, 3, start=(0.2, 0, 0), **CABLE)
    m.add_joint("fixed", hub.point(0.2, 0, 0), c.start)
    r = m.add_rigid_body(0.2, np.diag([1e-4, 2e-4, 3e-4]), position=(1.3, 0.05, 0))
    m.add_joint("spherical", c.end, r.point(-0.1, -0.05, 0))
    m.add_force(c.node(1), force=(0.3, 0.2, -1.0))
    return m, c, r


def _pinned_twice():
    """A cable pinned at both ends (a loop: the spatial DAE runs it) under gravity and a
    side load on its middle node."""
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -9.81))
    c = m.add_beam(1.0, 4, **CABLE)
    m.add_joint("spherical", m.ground.point(0, 0, 0), c.start)
    m.add_joint("spherical", m.ground.point(1, 0, 0), c.end)
    m.add_force(c.node(2), force=(0.0, 3.0, 0.0))
    return m, c


def _difference_errors(res, points, every):
    """The largest gap, over the points and the interior frames, between
    ``Result.acceleration`` and the central difference of ``Result.velocity`` over the
    outputs ``every`` apart, relative to the largest acceleration."""
    gaps = []
    for p in points:
        a, v, t = res.acceleration(p)[::every], res.velocity(p)[::every], res.t[::every]
        fd = (v[2:] - v[:-2]) / (t[2:] - t[:-2])[:, None]
        gaps.append(np.abs(a[1:-1] - fd).max() / np.abs(a).max())
    return max(gaps)


@pytest.mark.parametrize("which", ["recursion", "dae"])
def test_accelerations_are_the_limit_of_differences_of_the_velocities(which):
    """On the recursion (the hub, RK4 at 2e-5 s: cable nodes, the payload's centre and a point
    off it) and on the spatial DAE (the cable pinned at both ends, Newmark at 1e-5 s), the
    accelerations of the stored states equal central differences of the stored velocities
    to the differences' own error: it falls by 3.5 to 4.5 as their spacing halves (second
    order), to below 2e-4 of the largest acceleration."""
    if which == "recursion":
        m, c, r = _hub()
        res = rancf.simulate(m, 0.02, 2e-5, method="rk4", output_every=1)
        points = [c.node(1), c.end, r.centre, r.point(0.1, 0.2, 0.0)]
        assert res.formulation == "spatial"
    else:
        m, c = _pinned_twice()
        res = rancf.simulate(m, 0.02, 1e-5, method="newmark", output_every=1, tol=1e-12)
        points = [c.node(1), c.node(2)]
        assert res.formulation == "dae"
    assert res.status == "ok", res.message
    errors = [_difference_errors(res, points, every) for every in (16, 8, 4)]
    for a, b in zip(errors, errors[1:]):
        assert 3.5 <= a / b <= 4.5, errors
    assert errors[-1] <= 5e-4, errors


def test_cable_frames_angular_accelerations_are_the_limit_of_differences():
    """Every body's and cable node's ``(a, alpha)`` row (a cable node's alpha that of its drawn
    frame, ``t x t''``) against central differences of the stored velocities and angular
    velocities: second order in the spacing, below 1e-3 of the largest."""
    from rancf.results.outputs import spatial_accelerations
    m, c, r = _hub()
    res = rancf.simulate(m, 0.02, 2e-5, method="rk4", output_every=1)
    acc = spatial_accelerations(res)
    assert acc.shape == (len(res.t), 2 + c.n_nodes, 6)
    errors = []
    for every in (16, 8, 4):
        A, V, t = acc[::every], res.velocities[::every], res.t[::every]
        fd = (V[2:] - V[:-2]) / (t[2:] - t[:-2])[:, None, None]
        errors.append(np.abs(A[1:-1] - fd).max() / np.abs(A).max())
    for a, b in zip(errors, errors[1:]):
        assert 3.5 <= a / b <= 4.5, errors
    assert errors[-1] <= 5e-4, errors
