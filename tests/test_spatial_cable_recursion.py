"""The spatial ANCF cable in the O(n) spatial recursion (rancf/formulations/_spatial.pyx, its
cable nodes; :func:`rancf.formulations.spatial.cable_layout`), each test against something
independent: the spatial DAE of the same model (absolute coordinates, constraint rows,
multipliers), Exudyn's static value, the Chrono pendulum's test-local reference (the cable's
kernels assembled in absolute coordinates, tests/test_cable_chrono.py), conservation of energy
and the schemes' orders."""
import numpy as np
import pytest

import rancf
from rancf.formulations.spatial import Spatial, model_inputs
from rancf.formulations.spatial_dae import SpatialDAE, _E, quaternion
from rancf.integrators.explicit import integrate

CABLE = dict(E=1e7, rho=1000.0, A=1e-4, I=1e-9, element="ancf-cable")


def absolute_state(rec, y):
    """The spatial DAE's ``(x, v)`` of the recursion's state y: every body's position and
    Euler parameters and their rates, every cable node's ``[r, r']`` and rates, from the
    recursion's kinematics."""
    rec.kernel.kinematics(y)
    r, A, V = rec.kinematics(y)
    e, ed = rec.cable_coordinates()
    p = quaternion(A)
    pd = 0.5 * np.einsum("nia,ni->na", _E(p), V[:, 3:])
    x = np.concatenate([np.concatenate([r, p], axis=1).ravel(), e.ravel()])
    v = np.concatenate([np.concatenate([V[:, :3], pd], axis=1).ravel(), ed.ravel()])
    return x, v


def ground_pendulum():
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -9.81))
    c = m.add_beam(1.0, 4, **CABLE)
    m.add_joint("spherical", m.ground.point(0, 0, 0), c.start)
    return m


def clamped(damping=2e-3):
    m = rancf.Model(dim=3, gravity=(0.0, -9.81, 0.0))
    c = m.add_beam(1.0, 3, **{**CABLE, "damping": damping})
    m.add_joint("fixed", m.ground.point(0, 0, 0), c.start)
    m.add_force(c.end, force=(0.5, 0.2, -1.0))
    return m


def on_a_hub_with_a_payload():
    """A cable clamped to a hub on a revolute joint, a rigid payload on its end (a point off
    the payload's centre), a load on an inner node, gravity."""
    m = rancf.Model(dim=3, gravity=(0.0, -3.0, -9.81))
    hub = m.add_rigid_body(1.0, np.diag([0.01, 0.02, 0.03]), position=(0, 0, 0))
    m.add_joint("revolute", m.ground.point(0, 0, 0), hub.centre, axis=(0, 0, 1))
    c = m.add_beam(1.0, 3, start=(0.2, 0, 0), **CABLE)
    m.add_joint("fixed", hub.point(0.2, 0, 0), c.start)
    r = m.add_rigid_body(0.2, np.diag([1e-4, 2e-4, 3e-4]), position=(1.3, 0.05, 0))
    m.add_joint("spherical", c.end, r.point(-0.1, -0.05, 0))
    m.add_force(c.node(1), force=(0.3, 0.2, -1.0))
    return m


def beam_and_cables():
    """An SE(3) beam on a spherical joint, a cable hung at its inner node 2 from the beam's
    tip (its elements run both ways from there), a second cable on the first one's end, a
    beam tip load."""
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -9.81))
    b = m.add_beam(0.5, 2, E=1e8, rho=1000.0, A=1e-4, I=(1e-9, 1e-9), J=2e-9, G=4e7)
    m.add_joint("spherical", m.ground.point(0, 0, 0), b.start)
    c = m.add_beam(1.0, 4, **CABLE)
    m.add_joint("spherical", b.end, c.node(2))
    d = m.add_beam(1.0, 2, start=(1.0, 0, 0), **{**CABLE, "damping": 1e-3})
    m.add_joint("spherical", c.end, d.start)
    m.add_force(b.end, force=(0.0, 1.0, -1.0))
    return m


def curved(damping=1e-3):
    """A quarter circle of cable (its reference is its rest state: curved cables) on a ground
    spherical joint, damped, under gravity across its plane and a tip load."""
    m = rancf.Model(dim=3, gravity=(0.0, -2.0, -9.81))
    a = np.linspace(0.0, np.pi / 2, 5)
    c = m.add_beam(n_elements=4, points=np.column_stack([np.sin(a), 1 - np.cos(a), 0 * a]),
                   tangents=np.column_stack([np.cos(a), np.sin(a), 0 * a]),
                   **{**CABLE, "damping": damping})
    m.add_joint("spherical", m.ground.point(0, 0, 0), c.start)
    m.add_force(c.end, force=(0.1, 0.0, -0.2))
    return m


@pytest.mark.parametrize("build", [ground_pendulum, clamped, on_a_hub_with_a_payload,
                                   beam_and_cables, curved])
@pytest.mark.parametrize("seed", range(2))
def test_accelerations_equal_the_spatial_daes(build, seed):
    """At a random state of the recursion (its coordinates 0.1 off the reference, random
    rates), mapped to absolute coordinates (which then satisfy the DAE's rows and their
    velocity rows to round-off), the DAE's accelerations of every body and cable node (its
    multipliers' solve) equal the recursion's to 1e-10 of their largest (DECISIONS 7)."""
    m = build()
    tree = m.build()
    rec, dae = Spatial(tree, *model_inputs(m)), SpatialDAE(tree, *model_inputs(m))
    assert rec.cables is not None
    rng = np.random.default_rng(seed)
    n = rec.n_free
    y = np.concatenate([0.1 * rng.standard_normal(n), rng.standard_normal(n)])
    t = 0.2
    rec.inputs.at_time(t)
    ydot = rec.derivative(t, y)
    x, v = absolute_state(rec, y)
    assert np.abs(dae.constraint(x, t)).max() <= 1e-14
    assert np.abs(dae.constraint_jacobian(x, t) @ v + dae.velocity_bias(x, t)).max() <= 1e-13
    rec.kernel.kinematics(y, ydot[n:])
    N = tree.n_bodies + tree.n_cable_nodes
    acc = rec.kernel.arrays["acc"][:6 * N].reshape(N, 6)
    a, _ = dae.multipliers(x, v, t)
    expected = np.concatenate([dae.accelerations(x, v, a).ravel(), a[dae._c0:]]).reshape(N, 6)
    assert np.abs(expected - acc).max() <= 1e-10 * np.abs(acc).max()


def test_reactions_equal_the_spatial_daes():
    """The reactions of the clamp on the hub (its force and the moment ``r' x F_{r'}``) and of
    the payload's spherical joint equal the DAE's (from its multipliers) to 1e-10 of their
    largest, at a random state."""
    m = on_a_hub_with_a_payload()
    tree = m.build()
    rec, dae = Spatial(tree, *model_inputs(m)), SpatialDAE(tree, *model_inputs(m))
    rng = np.random.default_rng(3)
    n = rec.n_free
    y = np.concatenate([0.1 * rng.standard_normal(n), rng.standard_normal(n)])
    W = rec.reactions(0.0, y)
    x, v = absolute_state(rec, y)
    _, lam = dae.multipliers(x, v, 0.0)
    expected = dae.reactions(x, lam, 0.0)
    assert np.abs(expected - W).max() <= 1e-10 * np.abs(W).max()


def test_cable_pendulum_conserves_energy_at_rk4s_order():
    """A cable released horizontally on a spherical joint, no damping, RK4 on the recursion: ``kinetic + elastic + gravity`` drifts at RK4's fourth order (the drift
    falls by 12 to 20 when dt halves), and at dt = 1e-4 s stays within 1e-9 of the energy
    exchanged."""
    drifts = []
    for dt in (4e-4, 2e-4, 1e-4):
        m = ground_pendulum()
        res = rancf.simulate(m, t_end=0.1, dt=dt, method="rk4")
        assert res.status == "ok" and res.formulation == "spatial", res.message
        e = res.energy()
        drifts.append(float(np.abs(e.total - e.total[0]).max()))
    assert 12.0 <= drifts[0] / drifts[1] <= 20.0
    assert drifts[2] <= 1e-9 * float(np.abs(e.gravity - e.gravity[0]).max())


def test_trajectories_converge_to_each_other_at_newmarks_order():
    """The payload pendulum on the recursion (RK4 at 1e-4 s: converged) and on the DAE
    (Newmark at 2 and 1 ms): the DAE's tip and payload positions approach the recursion's at
    second order (their distance falls by 3 to 5 as the step halves); the recursion's own
    Newmark steps (implicit loop) likewise, and its Newmark and the DAE's are the same
    scheme's: their distances to the converged motion agree to a factor of 2."""
    def model():
        m = rancf.Model(dim=3, gravity=(0.0, 0.0, -9.81))
        c = m.add_beam(1.0, 4, **CABLE)
        m.add_joint("spherical", m.ground.point(0, 0, 0), c.start)
        r = m.add_rigid_body(0.2, np.diag([1e-4, 2e-4, 2e-4]), position=(1.1, 0, 0))
        m.add_joint("spherical", c.end, r.point(-0.1, 0, 0))
        return m, c, r

    def ends(res, c, r):
        return np.concatenate([res.position(c.end), res.position(r.centre)], axis=1)

    m, c, r = model()
    ref = rancf.simulate(m, t_end=0.2, dt=1e-4, method="rk4", output_every=20)
    assert ref.formulation == "spatial"
    converged = ends(ref, c, r)
    gaps = {}
    for formulation in ("dae", "recursive"):
        for dt in (2e-3, 1e-3):
            m, c, r = model()
            res = rancf.simulate(m, t_end=0.2, dt=dt, method="newmark",
                                 formulation=formulation, output_every=round(2e-3 / dt))
            assert res.status == "ok", res.message
            gaps[formulation, dt] = float(np.abs(ends(res, c, r) - converged).max())
    for formulation in ("dae", "recursive"):
        assert 3.0 <= gaps[formulation, 2e-3] / gaps[formulation, 1e-3] <= 5.0
    assert 0.5 <= gaps["dae", 1e-3] / gaps["recursive", 1e-3] <= 2.0


def test_exudyn_3d_cable_cantilever_on_the_recursion():
    """Exudyn's ObjectANCFCable static test (tests/test_spatial_cable_model.py gives the
    model: L = 2 m, 32 elements, rho A = 78 kg/m, EA = 1e6 N, EI = 833.33 N m^2, gravity
    9.81 m/s^2, a clamp) through ``rancf.static`` on the recursion: the tip's x displacement
    is Exudyn's -0.5013058140308919 m to 1e-9 m, and the clamp carries the weight."""
    m = rancf.Model(dim=3, gravity=(0.0, -9.81, 0.0))
    c = m.add_beam(2.0, 32, E=1e6, rho=78.0, A=1.0, I=833.3333333333333e-6,
                   element="ancf-cable")
    clamp = m.add_joint("fixed", m.ground.point(0, 0, 0), c.start)
    res = rancf.static(m, load_steps=4, tol=1e-12)
    assert res.status == "ok", res.message
    assert res.formulation == "spatial"
    tip = res.position(c.end)[-1]
    assert abs((tip[0] - 2.0) - -0.5013058140308919) <= 1e-9
    weight = 78.0 * 2.0 * 9.81
    assert np.allclose(res.reaction(clamp)[-1, :3], [0.0, weight, 0.0], rtol=0, atol=1e-9 * weight)


def test_chrono_pendulum_through_the_recursion():
    """Chrono's cable pendulum (tests/test_cable_chrono.py: its nodes start at -4 x m/s along
    z, its slopes at rest) started in the recursion's coordinates (each element's ``z' =
    e_k' - e_{k-1}'``) and integrated by DOP853 at rtol = atol = 1e-11: at the file's times up
    to 0.1 s node 3's y and node 5's x and z equal the test-local converged RK4 solution
    (absolute coordinates, dense mass: 2.6e-9 m from its own half step) to 1e-8 m."""
    from test_cable_chrono import Pendulum, chrono_file
    from test_cable_chrono import integrate as reference_run
    p = Pendulum()
    m = rancf.Model(dim=3, gravity=(0.0, -9.8, 0.0))
    c = m.add_beam(1.0, 4, E=p.E, rho=p.rho, A=p.A, I=p.I, element="ancf-cable")
    m.add_joint("spherical", m.ground.point(0, 0, 0), c.start)
    rec = Spatial(m.build(), *model_inputs(m))
    qd = np.zeros(rec.n_free)
    qd[3 + 2::6] = -4.0 * p.l          # node k's z-velocity less node k-1's
    y0 = rec.initial_state(qd=qd)
    t = chrono_file()["t"]
    t = t[t <= 0.1 + 1e-12]
    sol = integrate(rec.kernel, y0, t, 1e-4, "scipy:DOP853", 1e-11, 1e-11, 100.0)
    assert sol.status == "ok", sol.message
    nodes = sol.nodes.reshape(len(t), -1, 12)          # the cable's nodes after the bodies
    mine = np.column_stack([nodes[:, 2, 1], nodes[:, 4, 0], nodes[:, 4, 2]])
    expected = reference_run(p, 5e-5, t[1:], "rk4")[:, 3:6]
    assert np.abs(mine[1:] - expected).max() <= 1e-8


def test_what_the_recursion_cannot_run_is_named():
    """Two joints on one cable (both ends pinned: a loop) and a body clamped to a cable point
    are refused by the recursion with the joint named and formulation 'dae' pointed to; 'auto'
    runs them on the DAE."""
    m = rancf.Model(dim=3)
    c = m.add_beam(1.0, 2, **CABLE)
    m.add_joint("spherical", m.ground.point(0, 0, 0), c.start)
    m.add_joint("spherical", m.ground.point(1, 0, 0), c.end)
    with pytest.raises(ValueError, match="joint 1 \\(spherical\\) is a second joint on a "
                                         "cable.*formulation 'dae' runs it"):
        rancf.simulate(m, t_end=0.01, dt=1e-3, formulation="recursive")
    assert rancf.simulate(m, t_end=0.01, dt=1e-3).formulation == "dae"


def test_a_recursive_runs_state_starts_the_spatial_dae_where_it_ended():
    """A recursive run keeps every cable node's ``[r, r']`` (``extra["cable_nodes"]``), so its
    ``Result.state`` continues on the spatial DAE (a State start of a cable model runs there):
    the continued run's first frame is the first run's last, and ``formulation="recursive"``
    refuses such a start by name."""
    m = ground_pendulum()
    first = rancf.simulate(m, 0.01, 1e-3, method="newmark")
    assert first.formulation == "spatial"
    state = first.state(-1)
    then = rancf.simulate(m, 0.01, 1e-3, method="newmark", state=state)
    assert then.formulation == "dae"
    assert np.abs(then.nodes[0] - first.nodes[-1]).max() <= 1e-12
    assert np.abs(then.extra["cable_nodes"][0] - first.extra["cable_nodes"][-1]).max() <= 1e-12
    with pytest.raises(ValueError, match="formulation 'recursive': a State start of a model "
                                         "with cables"):
        rancf.simulate(m, 0.01, 1e-3, method="newmark", state=state, formulation="recursive")


def test_outputs_the_recursion_does_not_give_for_cables_are_refused():
    """Point accelerations (from stored poses, which hold a cable node's tangent but not its
    slope's length) and vibration modes of a model with a cable say they are not available."""
    m = ground_pendulum()
    res = rancf.simulate(m, t_end=0.002, dt=1e-3)
    assert res.formulation == "spatial"
    with pytest.raises(ValueError, match="acceleration: not available for a model with an "
                                         "ANCF cable"):
        res.acceleration(m.beams[0].end)
    with pytest.raises(ValueError, match="modes: a model with an ANCF cable is not available"):
        rancf.modes(m, n=2)


@pytest.mark.parametrize("build", [ground_pendulum, lambda: clamped(damping=0.0),
                                   lambda: curved(damping=0.0)])
def test_implicit_newton_matrix_is_the_residuals_exact_jacobian(build):
    """On an undamped cable hung from the ground (spherical joint, or clamp under a tip load)
    the coordinates are linear in the nodes', so the implicit loop's Newton matrix ``S = c_m M
    + c_k K + c_c C``, factored by the O(n) elimination, is the exact derivative of the
    residual ``M a - F(q, v)`` along ``(dq, dv, da) = (c_k, c_c, c_m) z``: its solve of central
    differences of the residual (dense, step 1e-6) gives z back to 1e-6, at a random state."""
    from rancf.formulations.spatial import implicit_problem
    m = build()
    rec = Spatial(m.build(), *model_inputs(m))
    P = implicit_problem(rec)
    rng = np.random.default_rng(5)
    n = rec.n_free
    q, v, a = 0.01 * rng.standard_normal(n), rng.standard_normal(n), rng.standard_normal(n)
    c_m, c_k, c_c = 4e6, 1.0, 2e3          # Newmark's at a step of 1 ms
    z = rng.standard_normal(n)
    h = 1e-6
    Jz = (P.residual(q + h * c_k * z, v + h * c_c * z, 0.0, a + h * c_m * z)
          - P.residual(q - h * c_k * z, v - h * c_c * z, 0.0, a - h * c_m * z)) / (2 * h)
    x = P.newton_solve(q, v, 0.0, Jz, c_m, c_k, c_c)
    assert np.abs(x - z).max() <= 1e-6 * np.abs(z).max()
