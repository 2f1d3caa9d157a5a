"""Spatial models through the public API: ``rancf.simulate`` on ``rancf.Model(dim=3)`` and the
spatial side of :class:`rancf.Result`, each against something independent."""
import numpy as np
import pytest
from scipy.integrate import solve_ivp

import rancf
from concurrent_runs import in_threads

INERTIA = np.diag([0.01, 0.02, 0.03])


def spherical_pendulum():
    """A rigid body of 1 kg hanging from a spherical joint 0.5 m from its centre, started
    horizontally along x, turned about its axis so that the three principal axes matter."""
    m = rancf.Model(dim=3)
    body = m.add_rigid_body(1.0, INERTIA, position=(0.5, 0.0, 0.0))
    pin = m.add_joint("spherical", m.ground.point(0, 0, 0), body.point(-0.5, 0, 0))
    return m, body, pin


def test_rigid_pendulum_follows_an_independent_integration():
    """Centre, frame and reaction of a heavy rigid body on a spherical joint against Euler's
    equations integrated by SciPy in the body frame with a quaternion (written here, not
    through rancf): the constraint force F = m (a - g) that the reaction must equal follows
    from the reference's acceleration."""
    m, body, pin = spherical_pendulum()
    g = np.array([0.0, 0.0, -9.81])
    c = np.array([0.5, 0.0, 0.0])       # the centre from the pin, body frame

    def quat_matrix(q):
        w, x, y, z = q / np.linalg.norm(q)
        return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                         [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                         [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])

    J_pin = INERTIA + 1.0 * (c @ c * np.eye(3) - np.outer(c, c))   # about the pin

    def rhs(t, y):
        q, w = y[:4], y[4:]
        R = quat_matrix(q)
        torque = np.cross(c, R.T @ (1.0 * g))        # body frame
        wd = np.linalg.solve(J_pin, torque - np.cross(w, J_pin @ w))
        qw = np.concatenate([[0.0], w])
        qd = 0.5 * np.array([q[0] * qw[0] - q[1:] @ qw[1:], *(q[0] * qw[1:] + qw[0] * q[1:]
                                                            + np.cross(q[1:], qw[1:]))])
        return np.concatenate([qd, wd])

    res = rancf.simulate(m, 1.0, 1e-3, output_every=50)
    assert res.status == "ok", res.message
    ref = solve_ivp(rhs, (0.0, 1.0), np.array([1.0, 0, 0, 0, 0, 0, 0]), t_eval=res.t,
                    rtol=1e-12, atol=1e-12, method="DOP853")
    R = np.array([quat_matrix(q) for q in ref.y[:4].T])
    np.testing.assert_allclose(res.position(body.centre), R @ c, atol=1e-9)
    np.testing.assert_allclose(res.orientation(body.centre), R, atol=1e-9)
    w = np.einsum("nij,jn->ni", R, ref.y[4:])               # global angular velocity
    np.testing.assert_allclose(res.angular_velocity(body.centre), w, atol=1e-8)
    np.testing.assert_allclose(res.velocity(body.centre), np.cross(w, R @ c), atol=1e-8)
    np.testing.assert_allclose(res.velocity(body.point(-0.5, 0, 0)), 0.0, atol=1e-12)
    wd = np.array([R[k] @ rhs(0.0, ref.y[:, k])[4:] for k in range(len(res.t))])
    a = np.cross(wd, R @ c) + np.cross(w, np.cross(w, R @ c))
    reaction = res.reaction(pin)
    np.testing.assert_allclose(reaction[:, :3], 1.0 * (a - g), atol=1e-7)
    np.testing.assert_allclose(reaction[:, 3:], 0.0, atol=1e-9)    # a ball joint holds no moment
    q, qd = res.joint(pin)
    assert q.shape == qd.shape == (len(res.t), 3)


def test_very_stiff_beam_on_a_spherical_joint_follows_the_rigid_pendulum():
    """A beam of 1 m (4 elements, rho = 7800 kg/m^3, A = 1e-4 m^2, I = (5e-10, 1.2e-9) m^4)
    made very stiff (E = 2e15 Pa, 1e4 x steel) on a spherical joint at its start, started in a
    rigid rotation about the pin (w = (0.5, 1, 3) rad/s, every node's velocity w x r) under
    gravity, over 0.5 s at h = 0.5 ms (``method="auto"``), against Euler's equations of the
    rigid body integrated by SciPy (DOP853, 1e-12) with the beam's mass and inertia about the
    pin: the lumped node masses and rotary inertias that rancf.elements.spatial_beam's
    ``node_inertia`` documents (half of each adjacent element), summed here. Limit, from the
    beam's compliance: the nodes may leave the rigid line by twice (a load applied at once)
    the cantilever's end deflection ``q L^4 / (8 E I_y)`` under the largest transverse load
    per length ``q = rho A (|g| + w_max^2 L)`` (w_max from the reference), the frames' axes by
    twice its end slope ``q L^3 / (6 E I_y)``; the scheme's second-order error at this step
    (a rigid body's, E 100 times larger: 6e-7 m) is below both. The section's turn about the
    beam's axis is left out: its rotary inertia about the axis is 2e4 times below the others,
    so the gyroscopic moment twists the beam against its torsional compliance far more than it
    bends it."""
    L, n, rho, A, Iy, Iz, J, E = 1.0, 4, 7800.0, 1e-4, 5e-10, 1.2e-9, 1.2e-9, 2e15
    g = np.array([0.0, 0.0, -9.81])
    w0 = np.array([0.5, 1.0, 3.0])
    m = rancf.Model(dim=3, gravity=tuple(g))
    b = m.add_beam(L, n, E=E, rho=rho, A=A, I=(Iy, Iz), J=J, G=E / 2.6, direction=(1, 0, 0),
                   up=(0, 1, 0))
    m.add_joint("spherical", m.ground.point(0, 0, 0), b.start)
    xs = np.linspace(0.0, L, n + 1)
    x0 = np.concatenate([np.r_[xi, 0.0, 0.0, np.eye(3).ravel()] for xi in xs])
    v0 = np.concatenate([np.r_[np.cross(w0, [xi, 0.0, 0.0]), w0] for xi in xs])
    res = rancf.simulate(m, 0.5, 5e-4, output_every=100, state=rancf.State(x0, v0))
    assert res.status == "ok", res.message

    share = np.full(n + 1, L / n)
    share[[0, -1]] /= 2                                      # node i's length of beam
    mass = rho * A * share
    M = mass.sum()
    c = np.array([(mass * xs).sum() / M, 0.0, 0.0])
    J_pin = sum(mi * (xi ** 2 * np.eye(3) - np.outer([xi, 0, 0], [xi, 0, 0]))
                + rho * np.diag([Iy + Iz, Iy, Iz]) * li for mi, xi, li in zip(mass, xs, share))

    def quat_matrix(q):
        w, x, y, z = q / np.linalg.norm(q)
        return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                         [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                         [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])

    def rhs(t, y):
        q, w = y[:4], y[4:]
        torque = np.cross(c, quat_matrix(q).T @ (M * g))     # body frame
        wd = np.linalg.solve(J_pin, torque - np.cross(w, J_pin @ w))
        qd = 0.5 * np.r_[-q[1:] @ w, q[0] * w + np.cross(q[1:], w)]
        return np.concatenate([qd, wd])

    ref = solve_ivp(rhs, (0.0, 0.5), np.r_[1.0, 0.0, 0.0, 0.0, w0],
                    t_eval=np.clip(res.t, 0.0, 0.5), rtol=1e-12, atol=1e-12, method="DOP853")
    R = np.array([quat_matrix(q) for q in ref.y[:4].T])
    q_max = rho * A * (np.linalg.norm(g) + (np.linalg.norm(ref.y[4:], axis=0) ** 2).max() * L)
    deflection = 2 * q_max * L ** 4 / (8 * E * Iy)
    slope = 2 * q_max * L ** 3 / (6 * E * Iy)
    assert R[-1, 2, 0] < -0.5                                # it has swung down
    for k, xi in enumerate(xs):
        assert np.abs(res.position(b.node(k)) - R[:, :, 0] * xi).max() <= deflection
        assert np.abs(res.orientation(b.node(k))[:, :, 0] - R[:, :, 0]).max() <= slope


def flexible_pendulum(n_elements=4):
    """A steel-like but soft beam of 1 m on a spherical joint, released along x with an up
    vector that is not a principal direction of the motion."""
    m = rancf.Model(dim=3)
    b = m.add_beam(1.0, n_elements, E=2e8, rho=7800.0, A=1e-4, I=(8.3e-10, 1.7e-9), J=2e-9,
                   G=8e7, direction=(1.0, 0.0, 0.0), up=(0.0, 0.6, 0.8))
    m.add_joint("spherical", m.ground.point(0, 0, 0), b.start)
    return m, b


def test_flexible_pendulum_conserves_energy_at_rk4_order():
    """A passive flexible pendulum: the energy balance's drift over 0.2 s falls by about 2^4
    per halved step (RK4; the passive model's work and dissipation are zero). A step beyond
    RK4's stability limit is refused (the shear-rotation mode of the lumped section, about
    sqrt(k G A / (rho I_z)) = 3.2e4 rad/s, bounds it near 9e-5 s)."""
    m, b = flexible_pendulum()
    with pytest.raises(ValueError, match="stability limit"):
        rancf.simulate(m, 0.2, 4e-4, method="rk4")
    drifts = []
    for dt in (8e-5, 4e-5):
        res = rancf.simulate(m, 0.2, dt, method="rk4", output_every=10)
        assert res.status == "ok", res.message
        assert res.energy().kinetic.iloc[-1] > 0.1
        drifts.append(res.energy_drift())
    assert drifts[1] < drifts[0] / 10.0, drifts


def test_every_method_family_gives_the_same_motion():
    """rk4, dopri5 and SciPy's DOP853 on the flexible pendulum agree on the tip (each at a
    tolerance far below the difference a wrong right-hand side would make)."""
    m, b = flexible_pendulum(3)
    tight = dict(rtol=1e-10, atol=1e-12)    # the adaptive methods' (rk4 refuses them)
    tips = [rancf.simulate(m, 0.1, 5e-5, method=method, output_every=200,
                           **options).position(b.end)
            for method, options in (("rk4", {}), ("dopri5", tight), ("scipy:DOP853", tight))]
    np.testing.assert_allclose(tips[1], tips[0], atol=1e-8)
    np.testing.assert_allclose(tips[2], tips[0], atol=1e-8)


def test_one_spatial_model_in_four_threads_equals_a_serial_run():
    """Each run builds its own kernel and workspace: the same model run in 4 threads at once
    gives the serial run's nodes bit for bit."""
    m, b = flexible_pendulum(3)
    m.add_force(b.end, force=lambda t: (0.0, 0.5 * t, 0.0))
    serial = rancf.simulate(m, 0.05, 5e-5, output_every=100)
    for res in in_threads(lambda: rancf.simulate(m, 0.05, 5e-5, output_every=100)):
        np.testing.assert_array_equal(res.nodes, serial.nodes)


def test_a_constant_force_does_its_work_and_the_balance_closes():
    """A model with a constant load: its work, integrated with the motion, equals the force
    times the displacement of its point (exact for a constant force), and the balance closes
    to RK4's accuracy (measured 3.6e-12 J, 1.4e-8 of the work: a work left out would be all
    of it)."""
    m, b = flexible_pendulum(2)
    m.add_force(b.end, force=(0.0, 1.0, 0.0))
    res = rancf.simulate(m, 0.01, 5e-5)
    e = res.energy()
    displacement = res.position(b.end)[:, 1] - res.position(b.end)[0, 1]
    np.testing.assert_allclose(e.work, 1.0 * displacement, rtol=0, atol=1e-12)
    assert e.work.iloc[-1] > 1e-6
    assert np.abs(e.total - e.total.iloc[0]).max() < 1e-6 * e.work.iloc[-1]


@pytest.mark.parametrize("options, match", [
    (dict(method="euler"), "method must be one of"),
    (dict(formulation="dae", method="rk4"), "formulation 'dae' was named"),
    (dict(state=object()), "state"),
    (dict(jacobian="reuse"), "implicit methods"),
])
def test_what_spatial_models_do_not_run_yet_is_refused_clearly(options, match):
    m, _, _ = spherical_pendulum()
    with pytest.raises((ValueError, TypeError), match=match):
        rancf.simulate(m, 0.1, 1e-3, **options)


def test_spatial_accessors_refuse_a_planar_point():
    m = rancf.pendulum(n_bodies=1, elements_per_body=2, body_length=1.0)
    res = rancf.simulate(m, 0.01, 1e-3)
    # velocity(point) is planar too (the stored rates): tests/test_outputs.py
    for accessor in (res.orientation, res.angular_velocity):
        with pytest.raises(ValueError, match="spatial"):
            accessor(m.beams[0].end)


class TwoArgumentError(Exception):
    """An exception whose constructor takes two required arguments (not a message)."""

    def __init__(self, sensor, value):
        super().__init__(sensor, value)
        self.sensor, self.value = sensor, value


@pytest.mark.parametrize("where", ["force", "moment", "effort", "drive"])
def test_a_raising_user_function_stops_a_spatial_run_with_its_exception_chained(where):
    """The user's exception comes through unchanged as the cause of one UserFunctionError
    naming the function; the outputs before it are kept (status "failed")."""
    def function(t, *state):
        if t > 0.02:
            raise TwoArgumentError("sensor 3", t)
        if where == "drive":
            return (0.0, 0.0, 0.0)
        return 0.0 if where == "effort" else (0.0, 0.0, 0.1)

    m = rancf.Model(dim=3)
    body = m.add_rigid_body(1.0, INERTIA, position=(0.5, 0.0, 0.0))
    if where in ("effort", "drive"):
        m.add_joint("revolute", m.ground.point(0, 0, 0), body.point(-0.5, 0, 0),
                    axis=(0.0, 1.0, 0.0), **{where: function})
    else:
        m.add_joint("spherical", m.ground.point(0, 0, 0), body.point(-0.5, 0, 0))
        m.add_force(body.centre, **{where: function})
    res = rancf.simulate(m, 0.05, 1e-3, output_every=5)
    assert res.status == "failed"
    assert isinstance(res.error, rancf.UserFunctionError) and res.error.function == where
    assert isinstance(res.error.__cause__, TwoArgumentError)
    assert res.error.__cause__.sensor == "sensor 3"
    np.testing.assert_allclose(res.t, [0.0, 0.005, 0.01, 0.015, 0.02])


def test_a_spatial_load_function_must_return_real_numbers():
    """Numeric text is not a number: refused at the first evaluation, as a planar load's."""
    m, body, _ = spherical_pendulum()
    m.add_force(body.centre, force=lambda t: ("1", "0", "0"))
    with pytest.raises(ValueError, match="three finite numbers"):
        rancf.simulate(m, 0.01, 1e-3)


def test_a_spatial_result_saves_and_loads_whole(tmp_path):
    """save then load (with the model, and without it) gives back every array and the energy
    balance; a planar model of another layout is refused."""
    m, body, pin = spherical_pendulum()
    res = rancf.simulate(m, 0.05, 1e-3)
    res.save(tmp_path / "run.npz")
    for model in (m, None):
        back = rancf.load(tmp_path / "run.npz", model=model)
        for name in ("t", "nodes", "velocities", "joint_q", "joint_qd", "reactions"):
            np.testing.assert_array_equal(getattr(back, name), getattr(res, name))
        assert back.energy().equals(res.energy())
    np.testing.assert_array_equal(rancf.load(tmp_path / "run.npz", model=m).position(body.centre),
                                  res.position(body.centre))
    with pytest.raises(ValueError, match="another layout"):
        rancf.load(tmp_path / "run.npz", model=rancf.pendulum(n_bodies=1, elements_per_body=2))


def test_a_spatial_result_with_work_saves_and_loads(tmp_path):
    m, body, _ = spherical_pendulum()
    m.add_force(body.centre, force=(0.0, 1.0, 0.0))
    res = rancf.simulate(m, 0.02, 1e-3)
    res.save(tmp_path / "run.npz")
    back = rancf.load(tmp_path / "run.npz")
    assert res.work[-1] > 0.0           # the force along y pulls the centre along y
    np.testing.assert_array_equal(back.work, res.work)
    np.testing.assert_array_equal(back.nodes, res.nodes)


def test_auto_picks_rk4_within_its_limit_and_generalized_alpha_s_beyond():
    """The flexible pendulum's RK4 limit is set by the lumped section's shear-rotation mode,
    sqrt(k G A / (rho I_z)) = 3.2e4 rad/s, so about 2 sqrt(2) / 3.2e4 = 8.8e-5 s: auto picks
    rk4 at half of that and generalized-alpha-S at 2e-4 s, and says why."""
    m, b = flexible_pendulum(2)
    omega = np.sqrt(5.0 / 6.0 * 8e7 * 1e-4 / (7800.0 * 8.3e-10))
    limit = 2.0 * np.sqrt(2.0) / omega
    slow = rancf.simulate(m, 0.002, limit / 2.0)
    fast = rancf.simulate(m, 0.002, 2e-4)
    assert slow.method == "rk4" and "within" in slow.method_reason
    assert fast.method == "generalized-alpha-s" and "exceeds" in fast.method_reason
    assert slow.status == fast.status == "ok"


def test_the_implicit_schemes_keep_second_order_on_a_tumbling_body():
    # a rigid body on a spherical joint, spun fast about a tilted axis (its inertia tensor,
    # so its mass matrix in the link coordinates, turns with it): the error against an RK4
    # reference falls about 4 x per halving with -S, Newmark and generalized-alpha in Arnold
    # and Bruls' form (Chung and Hulbert's weighted equilibrium, which assumes a constant
    # mass matrix, fell 2 x)
    def model():
        m = rancf.Model(dim=3, gravity=(0.0, 0.0, -9.81))
        body = m.add_rigid_body(1.0, np.diag([0.02, 0.03, 0.05]), position=(0.1, 0.0, 0.2))
        m.add_joint("spherical", m.ground.point(0.0, 0.0, 0.0), body.point(-0.1, 0.0, -0.2))
        return m, body

    def tip(method, dt):
        m, body = model()
        spin = rancf.simulate(m, 1e-9, 1e-9, method="rk4").state(0)
        v = spin.v.copy()
        v[3:] = (3.0, 5.0, 14.0)
        v[:3] = np.cross(v[3:], spin.x[:3])
        res = rancf.simulate(m, 0.3, dt, method=method, output_every=int(round(0.3 / dt)),
                             state=rancf.State(spin.x, v))
        assert res.status == "ok", res.message
        return res.nodes[-1].ravel()

    reference = tip("rk4", 2.5e-5)
    for method, order in (("generalized-alpha-s", 2), ("newmark", 2), ("generalized-alpha", 2)):
        e1, e2 = (np.abs(tip(method, h) - reference).max() for h in (4e-3, 2e-3))
        assert 2**order * 0.75 < e1 / e2 < 2**order * 1.3, (method, e1, e2)
