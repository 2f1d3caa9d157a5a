"""A ring made of one spatial ANCF cable: a joint between its end and its start (spherical, or a
clamp, which between two cable points is a splice: positions and slopes equal) closes a loop
inside the cable, which the spatial DAE runs and the recursion refuses by name. Checked against
the rest state (a circle under its own rest curvature holds no force and stays put), and, for a
ring spinning free on a hub, the conservation of energy and angular momentum (computed here from
the element's Hermite mass, ``L = sum m_ab q_a x q_b'``) at Newmark's second order."""
import numpy as np
import pytest

import rancf
from rancf.elements import ancf_cable
from rancf.formulations import spatial
from rancf.formulations.spatial_dae import SpatialDAE

CABLE = dict(E=1e7, rho=1000.0, A=1e-4, I=1e-9, element="ancf-cable")
RHO_A = 1000.0 * 1e-4
R, N = 1.0, 16


def circle():
    """The ring's node positions and unit tangents (N + 1, 3): node N at node 0."""
    a = np.linspace(0.0, 2.0 * np.pi, N + 1)
    return (np.column_stack([R * np.cos(a), R * np.sin(a), 0.0 * a]),
            np.column_stack([-np.sin(a), np.cos(a), 0.0 * a]))


def ring(close, gravity=(0.0, 0.0, 0.0)):
    """The ring hung from the ground by a spherical joint at its start, its end joined to its
    start by ``close``."""
    m = rancf.Model(dim=3, gravity=gravity)
    P, T = circle()
    c = m.add_beam(n_elements=N, points=P, tangents=T, **CABLE)
    m.add_joint("spherical", m.ground.point(R, 0.0, 0.0), c.start)
    j = m.add_joint(close, c.end, c.start)
    return m, c, j


@pytest.mark.parametrize("close", ["spherical", "fixed"])
def test_a_joint_between_two_points_of_one_cable_is_a_ring_the_recursion_refuses(close):
    m, c, j = ring(close)
    tree = m.build()
    assert list(tree.cable_joint) == [0, 1] and list(tree.loop_joint) == []
    assert int(tree.cable_joint_kind[1]) == {"spherical": 0, "fixed": 2}[close]
    with pytest.raises(ValueError, match=rf"joint 1 \({close}\) joins two points of one cable "
                                         rf"\(cable nodes 0\.\.{N}\): a ring, a closed loop "
                                         r"inside the cable; formulation 'dae' runs it"):
        rancf.simulate(m, 0.01, 1e-3, formulation="recursive")
    res = rancf.simulate(m, 0.01, 1e-3, method="newmark")
    assert res.status == "ok" and res.formulation == "dae"


def test_joints_a_ring_cannot_take_are_refused():
    """One node to itself, two points of a rigid body; a clamp (a splice) closing a ring whose
    end and start tangents differ (a splice holds the slopes equal)."""
    m, c, _ = ring("spherical")
    with pytest.raises(ValueError, match="parent and child must belong to different items"):
        m.add_joint("spherical", c.node(3), c.node(3))
    body = m.add_rigid_body(1.0, np.eye(3) * 0.01, position=(0.0, 0.0, 2.0))
    with pytest.raises(ValueError, match="parent and child must belong to different items"):
        m.add_joint("spherical", body.point(0, 0, 0), body.point(0.1, 0, 0))
    P, T = circle()
    T[-1] = [-np.sin(0.2), np.cos(0.2), 0.0]              # the end's tangent turned by 0.2 rad
    m = rancf.Model(dim=3)
    c = m.add_beam(n_elements=N, points=P, tangents=T, **CABLE)
    m.add_joint("spherical", m.ground.point(R, 0.0, 0.0), c.start)
    m.add_joint("fixed", c.end, c.start)
    with pytest.raises(ValueError, match=r"joint 1 \(fixed.*clamps two points of one cable, a "
                                         r"splice that holds their slopes r' equal, but their "
                                         r"reference slopes differ by 0\.199"):
        m.build()


@pytest.mark.parametrize("close", ["spherical", "fixed"])
def test_a_ring_under_its_rest_curvature_is_in_equilibrium(close):
    """The circle is the ring's rest state (its elements' rest curvature 1/R): the DAE's force
    there is zero (against the 5e-3 N that a node moved by 1 mm out of the plane meets) with the
    joints held, so ``lambda = 0`` solves the static equations and the equilibrium is the
    reference itself: a run from rest stays there (displacement below 1e-12 m over 0.5 s).
    ``rancf.static`` cannot start from it (a plane curved cable has no first-order stiffness
    out of its plane) and says so."""
    m, c, j = ring(close)
    dae = SpatialDAE(m.build(), *spatial.model_inputs(m))
    x, v = dae.initial_state()
    moved = x.copy()
    moved[dae._c0 + 6 * 4 + 2] += 1e-3
    assert np.abs(dae.force(moved, v, 0.0)).max() > 1e-3
    assert np.abs(dae.force(x, v, 0.0)).max() <= 1e-12 * np.abs(dae.force(moved, v, 0.0)).max()
    assert np.abs(dae.constraint(x, 0.0)).max() <= 1e-15 * R
    res = rancf.simulate(m, 0.5, 5e-3, method="newmark", tol=1e-12)
    assert res.status == "ok"
    cables = res.extra["cable_nodes"]
    assert np.abs(cables - cables[0]).max() <= 1e-12
    with pytest.raises(ValueError, match="plane curved cable cable\\[0\\]"):
        rancf.static(m)


def spinning(close, w=3.0):
    """The ring free in space, spinning at w about its axis: a hub (a small rigid body on a
    free joint from the ground, so nothing holds the system) at the ring's start on a spherical
    joint, the end joined to the start by ``close``; its start, the rigid rotation (a State:
    poses and velocities, the cable nodes' ``[r, r']`` and their rates ``w x r``, ``w x r'``)."""
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, 0.0))
    P, T = circle()
    c = m.add_beam(n_elements=N, points=P, tangents=T, **CABLE)
    hub = m.add_rigid_body(0.05, np.eye(3) * 1e-5, position=(R, 0.0, 0.0))
    m.add_joint("free", m.ground.point(R, 0.0, 0.0), hub.centre)
    m.add_joint("spherical", hub.centre, c.start)
    m.add_joint(close, c.end, c.start)
    W = np.array([0.0, 0.0, w])
    x = np.concatenate([[R, 0.0, 0.0], np.eye(3).ravel(), np.column_stack([P, T]).ravel()])
    v = np.concatenate([np.cross(W, [R, 0.0, 0.0]), W,
                        np.column_stack([np.cross(W, P), np.cross(W, T)]).ravel()])
    return m, rancf.State(x, v)


def angular_momentum(res):
    """The hub's and the cable's angular momentum about the origin (n_out, 3): the cable's
    ``rho A int r x r' ds = sum_ab m_ab q_a x q_b'`` per element (q its nodes' r and r', m the
    scalar Hermite mass of :func:`rancf.elements.ancf_cable.mass_matrix`)."""
    n_out = len(res.t)
    mab = ancf_cable.mass_matrix(RHO_A, 1.0, 2.0 * np.pi * R / N)[::3, ::3]
    X = res.extra["cable_nodes"].reshape(n_out, -1, 2, 3)
    V = res.extra["cable_velocities"].reshape(n_out, -1, 2, 3)
    L = np.zeros((n_out, 3))
    for e in range(N):
        q = np.concatenate([X[:, e], X[:, e + 1]], axis=1)
        qd = np.concatenate([V[:, e], V[:, e + 1]], axis=1)
        L += np.einsum("ab,tabi->ti", mab, np.cross(q[:, :, None], qd[:, None]))
    nodes = np.asarray(res.nodes).reshape(n_out, -1)
    rates = np.asarray(res.velocities).reshape(n_out, -1)
    r, A, v, w = nodes[:, :3], nodes[:, 3:12].reshape(-1, 3, 3), rates[:, :3], rates[:, 3:6]
    return L + 0.05 * np.cross(r, v) + 1e-5 * np.einsum("tij,tkj,tk->ti", A, A, w)


@pytest.mark.parametrize("close", ["spherical", "fixed"])
def test_a_spinning_ring_conserves_energy_and_angular_momentum(close):
    """The spinning ring breathes (the spin stretches it: its elastic energy changes) and
    keeps its energy and angular momentum to Newmark's second order: the largest changes over
    0.5 s fall by about 4 when the step halves; its angular momentum at the start is the rigid
    ring's and hub's ``(2 pi R rho A + m_hub) R^2 w + J_hub w`` (the hub's mass at the ring's
    radius, its own inertia 1e-5 kg m^2 about the axis) to the discretization's 1e-3."""
    changes = []
    for dt in (2e-3, 1e-3):
        m, start = spinning(close)
        res = rancf.simulate(m, 0.5, dt, method="newmark", state=start, tol=1e-11,
                             output_every=int(round(0.01 / dt)))
        assert res.status == "ok" and res.formulation == "dae"
        e = res.energy()
        L = angular_momentum(res)
        rigid = (2.0 * np.pi * R * RHO_A + 0.05) * R ** 2 * 3.0 + 1e-5 * 3.0
        assert abs(L[0, 2] - rigid) <= 1e-3 * rigid and np.abs(L[0, :2]).max() <= 1e-14
        assert np.ptp(e.elastic) > 1e-3 * e.kinetic.iloc[0]
        changes.append((np.abs(e.total - e.total.iloc[0]).max() / e.kinetic.iloc[0],
                        np.abs(L - L[0]).max() / L[0, 2]))
    (e1, l1), (e2, l2) = changes
    assert e2 <= 2e-5 and l2 <= 1e-5, changes
    assert e1 / e2 >= 3.4 and l1 / l2 >= 3.4, changes
