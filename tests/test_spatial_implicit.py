"""Implicit steps and statics of spatial trees (rancf/formulations/_spatial_implicit.pyx), each
against something independent: the explicit forward dynamics, a dense solve, an RK4 reference,
the energy of a conservative motion, analytic static solutions."""
import numpy as np
import pytest

import rancf
from rancf.formulations import spatial

INERTIA = np.diag([0.01, 0.02, 0.03])
E, NU = 2.1e11, 0.3
G = E / (2.0 * (1.0 + NU))


def spherical_pendulum():
    """A rigid body of 1 kg hanging from a spherical joint 0.5 m from its centre, started
    horizontally along x."""
    m = rancf.Model(dim=3)
    body = m.add_rigid_body(1.0, INERTIA, position=(0.5, 0.0, 0.0))
    pin = m.add_joint("spherical", m.ground.point(0, 0, 0), body.point(-0.5, 0, 0))
    return m, body, pin


def flexible_pendulum(n_elements=3, damping=0.0):
    """A soft beam of 1 m on a spherical joint with a rigid body at its end, released along x
    with an up vector that is not a principal direction of the motion."""
    m = rancf.Model(dim=3)
    b = m.add_beam(1.0, n_elements, E=2e7, rho=7800.0, A=1e-4, I=(8.3e-10, 1.7e-9), J=2e-9,
                   G=8e6, direction=(1.0, 0.0, 0.0), up=(0.0, 0.6, 0.8), damping=damping)
    m.add_joint("spherical", m.ground.point(0, 0, 0), b.start)
    return m, b


def cantilever(n, width=0.02, height=0.01, L=1.0, shear=True, gravity=(0.0, 0.0, 0.0)):
    """A steel cantilever along x clamped at the origin: section ``width`` along y, ``height``
    along z."""
    A = width * height
    Iy, Iz = width * height**3 / 12.0, height * width**3 / 12.0
    J = 0.0029 * width**4 if width == height else Iy + Iz
    m = rancf.Model(dim=3, gravity=gravity)
    b = m.add_beam(L, n, E=E, rho=7800.0, A=A, I=(Iy, Iz), J=J, G=G, direction=(1.0, 0.0, 0.0),
                   up=(0.0, 1.0, 0.0), shear=shear)
    m.add_joint("fixed", m.ground.point(0, 0, 0), b.start)
    return m, b, dict(A=A, Iy=Iy, Iz=Iz, J=J, L=L)


# --- the problem against the explicit recursion and a dense solve ---------------------------
def random_state(f, rng, scale=0.3):
    n = f.n_free
    return scale * rng.standard_normal(n), rng.standard_normal(n)


def test_residual_vanishes_at_the_forward_dynamics_accelerations():
    """The Newton-Euler residual ``M a - F`` is zero at the articulated-body recursion's
    accelerations (two different algorithms), and ``mass_action`` columns make a symmetric
    matrix."""
    m, b = flexible_pendulum(3, damping=1e-3)
    m.add_force(b.end, force=(0.1, 0.2, -0.3), moment=(0.01, 0.0, 0.02))
    f = spatial.of_model(m)
    p = spatial.implicit_problem(f)
    rng = np.random.default_rng(1)
    q, v = random_state(f, rng)
    qdd = f.derivative(0.0, np.concatenate([q, v]))[f.n_free:]
    F = p.residual(q, v, 0.0, np.zeros(f.n_free), 0.0, -1.0)
    assert np.abs(p.residual(q, v, 0.0, qdd)).max() < 1e-10 * np.abs(F).max()
    M = p.matrix(q, q, [], v, 0.0, q, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0)
    np.testing.assert_allclose(M, M.T, atol=1e-12 * np.abs(M).max())


@pytest.mark.parametrize("c_m, c_k, c_c", [(1.0, 0.0, 0.0), (1.0, 1e-4, 1e-2), (0.0, 1.0, 0.0)])
def test_newton_solve_equals_a_dense_solve(c_m, c_k, c_c):
    """The O(n) elimination solves the assembled Newton matrix ``S = c_m M + blockdiag(c_k K +
    c_c D)`` (mass columns by the Newton-Euler recursion, element blocks from the element
    kernel); statics (c_m = 0) on a cantilever, whose every link is an element. Judged by the
    normwise backward error ``|S x - r| / (|S| |x| + |r|)`` (infinity norms) below 1e-14, the
    bound ``n u rho`` of an LU elimination (n = 24, 27 unknowns, u = 1.1e-16, growth 3), not by the
    forward error: the mass matrix alone (c_k = c_c = 0) has condition number 1.2e7, so LAPACK's
    own solution is 2.5e-9 of max |x| from the exact one at worst, by how its kernels round."""
    if c_m:
        m, b = flexible_pendulum(4, damping=2e-3)
    else:
        m, b, _ = cantilever(4)
    f = spatial.of_model(m)
    p = spatial.implicit_problem(f)
    rng = np.random.default_rng(2)
    q, v = random_state(f, rng, 0.05)
    r = rng.standard_normal(f.n_free)
    S = p.matrix(q, q, [], v, 0.0, q, 0.0, c_m, 0.0, c_k, c_c, 1.0)
    x = p.newton_solve(q, v, 0.0, r, c_m, c_k, c_c)
    norm = np.abs(S).sum(axis=1).max() * np.abs(x).max() + np.abs(r).max()
    assert np.abs(S @ x - r).max() < 1e-14 * norm


def effort_rod(kind, effort):
    """A rigid rod of 1 kg on a joint at the origin, its centre 0.3 m along x, no gravity: its
    generalized force is the effort function's alone (the joint's coordinates q, qd)."""
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, 0.0))
    rod = m.add_rigid_body(1.0, np.diag([1e-4, 0.03, 0.03]), position=(0.3, 0.0, 0.0))
    axis = {"revolute": dict(axis=(0.0, 1.0, 0.0)), "prismatic": dict(axis=(0.0, 0.0, 1.0)),
            "spherical": {}}[kind]
    m.add_joint(kind, m.ground.point(0, 0, 0), rod.point(-0.3, 0, 0), effort=effort, **axis)
    return m


@pytest.mark.parametrize("kind, q0, v0", [("revolute", 0.3, 0.5), ("prismatic", -0.2, 0.4),
                                          ("spherical", 0.0, 0.0)])
def test_an_effort_functions_slopes_enter_the_newton_matrix(kind, q0, v0):
    """The stiffness and damping of an effort function ``-K sin(q) - c qd`` (a vector one on the
    spherical joint) in S: against ``c_k dR/dq + c_c dR/dv`` of the residual ``R = -F`` by central
    differences, where S is exact for it: one coordinate (the rod's mass matrix constant, no
    bias), and the spherical joint at q = v = 0 (the turning of ``J_l(q)^T`` and the
    gyroscopic terms, which S leaves out, vanish there). The difference quotients at h = 1e-6
    of forces of order 10 err by about 1e-9 relative; the bound is 1e-7 of the largest entry.
    Then the O(n) elimination solves that matrix (the dense solve, backward error below
    1e-14), also at a turned spherical joint."""
    K, c = 20.0, 0.7
    m = effort_rod(kind, lambda t, q, qd: -K * np.sin(q) - c * np.asarray(qd))
    f = spatial.of_model(m)
    p = spatial.implicit_problem(f)
    n = f.n_free
    q, v, zero = np.full(n, q0), np.full(n, v0), np.zeros(n)
    c_k, c_c = 0.7, 0.3
    S = p.matrix(q, q, [], v, 0.0, q, 0.0, 0.0, 0.0, c_k, c_c, 1.0)
    J = c_k * dense_tangent(lambda x: p.residual(x, v, 0.0, zero, 0.0, 1.0), q) + \
        c_c * dense_tangent(lambda x: p.residual(q, x, 0.0, zero, 0.0, 1.0), v)
    np.testing.assert_allclose(S, J, rtol=0, atol=1e-7 * np.abs(J).max())
    if kind == "spherical":
        q, v = np.array([0.3, -0.5, 0.4]), np.array([0.2, 0.1, -0.3])
    r = np.random.default_rng(4).standard_normal(n)
    S = p.matrix(q, q, [], v, 0.0, q, 0.0, 1.0, 0.0, c_k, c_c, 1.0)
    x = p.newton_solve(q, v, 0.0, r, 1.0, c_k, c_c)
    norm = np.abs(S).sum(axis=1).max() * np.abs(x).max() + np.abs(r).max()
    assert np.abs(S @ x - r).max() < 1e-14 * norm


def loaded_tree():
    """A steel beam clamped at the origin with a second one branching off its second node
    (fixed joint, along y): gravity, a fixed-direction force at the first's end, a follower
    force and moment at the second's; large enough to turn the loads' directions markedly."""
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -9.81))
    section = dict(E=2e9, rho=7800.0, A=1e-4, I=(8.3e-10, 1.7e-9), J=2e-9, G=8e8)
    a = m.add_beam(1.0, 3, direction=(1.0, 0.0, 0.0), up=(0.0, 0.6, 0.8), **section)
    b = m.add_beam(0.5, 2, start=(2.0 / 3.0, 0.0, 0.0), direction=(0.0, 1.0, 0.0), up=(0.0, 0.0, 1.0), **section)
    m.add_joint("fixed", m.ground.point(0, 0, 0), a.start)
    m.add_joint("fixed", a.node(2), b.start)
    m.add_force(a.end, force=(0.0, 10.0, 20.0))
    m.add_force(b.end, force=(5.0, 0.0, 10.0), moment=(0.0, 1.0, 2.0), follower=True)
    return m


def dense_tangent(R, x, h=1e-6):
    """The Jacobian (n x n) of R at x by central differences, column by column."""
    return np.column_stack([(R(x + h * e) - R(x - h * e)) / (2.0 * h) for e in np.eye(x.size)])


def test_krylov_newton_step_solves_the_full_tangent_of_statics():
    """In statics the Newton step (GMRES on the residual's derivative) equals the dense solve
    of the full tangent ``dR/dq`` assembled here by central differences (the loads' turning
    included), relative to its largest entry within ``1e-8 cond(J)``: the two difference
    quotients err by about 1e-9 relative, GMRES stops at 1e-8 of the right-hand side, and the
    condition number bounds how much either moves the solution. The approximate matrix alone
    (the elements' stiffness) misses the load stiffness by more."""
    m = loaded_tree()
    f = spatial.of_model(m)
    p = spatial.implicit_problem(f, static=True)
    # GMRES, as where the direct matrix would leave terms out (its own test:
    # tests/test_spatial_static_tangent.py)
    p.exact_static = False
    n = f.n_free
    zero = np.zeros(n)
    rng = np.random.default_rng(3)
    q = 0.05 * rng.standard_normal(n)
    R = lambda x: p.residual(x, zero, 0.0, zero, 0.0, 1.0)  # noqa: E731
    J = dense_tangent(R, q)
    r = rng.standard_normal(n)
    x = p.step_solve(q, zero, 0.0, zero, r, 0.0, 1.0, 0.0, 1.0, 0.0)
    expected = np.linalg.solve(J, r)
    bound = 1e-8 * np.linalg.cond(J) * np.abs(expected).max()
    assert p.krylov_iterations > 0
    np.testing.assert_allclose(x, expected, rtol=0, atol=bound)
    plain = p.newton_solve(q, zero, 0.0, r, 0.0, 1.0, 0.0)
    assert np.abs(plain - expected).max() > 10.0 * bound


def test_krylov_newton_step_solves_the_full_tangent_of_a_dynamic_step():
    """With the coefficients of a generalized-alpha step (unknown a: ``q = q_p + h^2 beta a``,
    ``v = v_p + h gamma a``, residual ``am M(q) a - af F(q, v)``) the Newton step solves the
    step residual's full derivative in a, assembled densely by central differences (mass
    turning, gyroscopic terms, loads' turning and damping included), within ``1e-8 cond(J)``
    as above; the approximate matrix alone misses it by more. (A large step, 0.2 s: with
    the beam's tiny rotary inertia a small one makes J ill-conditioned, cond 6e5 at 0.02 s.)"""
    m, b = flexible_pendulum(3, damping=2e-3)
    body = m.add_rigid_body(0.2, np.diag([1e-3, 2e-3, 3e-3]), position=(1.1, 0.0, 0.0))
    m.add_joint("fixed", b.end, body.point(-0.1, 0.0, 0.0))
    m.add_force(b.end, force=(0.0, 3.0, -2.0), moment=(0.1, 0.0, 0.05), follower=True)
    f = spatial.of_model(m)
    p = spatial.implicit_problem(f)
    p.krylov = True
    n = f.n_free
    rng = np.random.default_rng(4)
    q, v = random_state(f, rng, 0.2)
    a = rng.standard_normal(n)
    h, beta, gamma, am, af = 0.2, 0.3, 0.6, 0.4, 0.55
    hb, hg = h * h * beta, h * gamma
    R = lambda x: p.residual(q + hb * (x - a), v + hg * (x - a), 0.0, x, am, af)  # noqa: E731
    J = dense_tangent(R, a, 1e-4)
    r = rng.standard_normal(n)
    x = p.step_solve(q, v, 0.0, a, r, am, af, am, af * hb, af * hg)
    expected = np.linalg.solve(J, r)
    bound = 1e-8 * np.linalg.cond(J) * np.abs(expected).max()
    np.testing.assert_allclose(x, expected, rtol=0, atol=bound)
    plain = p.newton_solve(q, v, 0.0, r, am, af * hb, af * hg)
    assert np.abs(plain - expected).max() > 10.0 * bound


def test_recentring_keeps_the_rotation_and_the_angular_motion():
    """A spherical joint's rotation vector past pi is moved below pi; the frame, the angular
    velocity ``J_l(p) p'`` and acceleration ``J_l p'' + J_l' p'`` are unchanged (against
    central differences of the rotation along the path)."""
    from scipy.spatial.transform import Rotation
    m, body, pin = spherical_pendulum()
    p = spatial.implicit_problem(spatial.of_model(m))
    rng = np.random.default_rng(3)
    q0 = rng.standard_normal(3)
    q0 *= 4.0 / np.linalg.norm(q0)
    v0, a0 = rng.standard_normal(3), rng.standard_normal(3)
    q1, v1, a1 = p.recentred(q0, v0, a0)
    assert np.linalg.norm(q1) < np.pi

    def frames(q, v, a, h):
        return [Rotation.from_rotvec(q + s * h * v + 0.5 * (s * h)**2 * a).as_matrix()
                for s in (-1.0, 0.0, 1.0)]

    def angular(q, v, a, h=1e-4):
        Rm, R0, Rp = frames(q, v, a, h)
        W = (Rp - Rm) @ R0.T / (2 * h)
        Wd = (Rp @ R0.T - 2 * np.eye(3) + Rm @ R0.T) / h**2     # w'^ + w^ w^
        w = np.array([W[2, 1], W[0, 2], W[1, 0]])
        wx = np.array([[0, -w[2], w[1]], [w[2], 0, -w[0]], [-w[1], w[0], 0]])
        D = Wd - wx @ wx
        return R0, w, np.array([D[2, 1], D[0, 2], D[1, 0]])

    for before, after in zip(angular(q0, v0, a0), angular(q1, v1, a1)):
        np.testing.assert_allclose(after, before, atol=1e-5 * (1 + np.abs(before).max()))


# --- dynamics ---------------------------------------------------------------------------------
def test_implicit_trajectories_converge_to_rk4_at_the_schemes_order():
    """A flexible pendulum's tip over 0.1 s against an RK4 run at a step 50 times smaller:
    Newmark and generalized-alpha-S (rho_inf = 0.8) converge at second order (the error falls
    by about 4 per halved step); generalized-alpha and HHT, which weight the equilibrium
    between the steps (rancf.integrators.implicit), at a rate between first and second order
    where the mass depends on the configuration, as on planar recursive trees."""
    m = rancf.Model(dim=3)
    b = m.add_beam(1.0, 3, E=2e9, rho=7800.0, A=1e-4, I=(8.3e-10, 1.7e-9), J=2e-9, G=8e8,
                   direction=(1.0, 0.0, 0.0), up=(0.0, 0.6, 0.8))
    m.add_joint("spherical", m.ground.point(0, 0, 0), b.start)
    ref = rancf.simulate(m, 0.1, 1e-5, output_every=10000)
    assert ref.status == "ok", ref.message
    tip = ref.position(b.end)[-1]
    for method, options, low in (("newmark", {}, 1.8), ("generalized-alpha-s", dict(rho_inf=0.8), 1.8),
                                 ("generalized-alpha", dict(rho_inf=0.8), 0.9),
                                 ("hht", dict(alpha=0.9), 0.9)):
        errors = []
        for dt in (2e-3, 1e-3, 5e-4):
            res = rancf.simulate(m, 0.1, dt, method=method, output_every=10, **options)
            assert res.status == "ok", res.message
            errors.append(np.abs(res.position(b.end)[-1] - tip).max())
        rates = np.log2(np.array(errors[:-1]) / errors[1:])
        assert np.all(rates > low) and np.all(rates < 2.3), (method, errors, rates)


@pytest.mark.parametrize("joint", ["fixed", "spherical"])
def test_stiff_steel_beams_converge_within_four_iterations(joint):
    """DECISIONS 13's bound for the approximate Newton matrix: a steel cantilever and a steel
    pendulum (8 elements, 1 ms steps, generalized-alpha) take at most 4 full-Newton iterations
    a step."""
    m = rancf.Model(dim=3)
    b = m.add_beam(1.0, 8, E=E, rho=7800.0, A=1e-4, I=(8.3e-10, 1.7e-9), J=2e-9, G=G,
                   direction=(1.0, 0.0, 0.0), up=(0.0, 0.6, 0.8))
    m.add_joint(joint, m.ground.point(0, 0, 0), b.start)
    res = rancf.simulate(m, 0.2, 1e-3, method="generalized-alpha", output_every=1,
                         jacobian="every-iteration")
    assert res.status == "ok", res.message
    assert res.extra["newton_iterations"].max() <= 4


def test_newmark_keeps_the_energy_of_a_rigid_spatial_pendulum_bounded():
    """Newmark (beta = 1/4) on a passive rigid spatial pendulum: the energy oscillates without
    drift, by an amount falling at second order with the step (the trapezoidal rule's known
    behaviour for a nonlinear conservative system), and the run ends where RK4's does, within
    that order."""
    m, body, pin = spherical_pendulum()
    deviations = []
    for dt in (4e-3, 2e-3, 1e-3):
        res = rancf.simulate(m, 2.0, dt, method="newmark", output_every=1)
        assert res.status == "ok", res.message
        e = res.energy()
        total = (e.kinetic + e.gravity).to_numpy()
        dev = np.abs(total - total[0])
        deviations.append(dev.max())
        # no drift: the second half of the run strays no farther than the first
        half = len(dev) // 2
        assert dev[half:].max() < 2.0 * dev[:half].max() + 1e-12
    rates = np.log2(np.array(deviations[:-1]) / deviations[1:])
    assert np.all(rates > 1.7), (deviations, rates)


def test_backward_euler_dissipates_and_generalized_alpha_s_follows_newmark():
    """Backward Euler loses energy on the passive pendulum (its numerical damping), HHT keeps
    it to the order of Newmark's error, the -S variant runs it to the same end as Newmark
    within their second-order errors."""
    m, body, pin = spherical_pendulum()
    ends = {}
    for method, options in (("backward-euler", {}), ("hht", dict(alpha=0.8)),
                            ("generalized-alpha-s", dict(rho_inf=0.9)), ("newmark", {})):
        res = rancf.simulate(m, 1.0, 1e-3, method=method, output_every=100, **options)
        assert res.status == "ok", res.message
        e = res.energy()
        total = (e.kinetic + e.gravity).to_numpy()
        if method == "backward-euler":
            assert total[-1] < total[0] - 1e-3
        else:
            assert np.abs(total - total[0]).max() < 1e-4
        ends[method] = res.position(body.centre)[-1]
    assert np.abs(ends["generalized-alpha-s"] - ends["newmark"]).max() < 1e-3


# --- statics ----------------------------------------------------------------------------------
@pytest.mark.parametrize("axis", [1, 2])
def test_cantilever_tip_deflection_converges_at_second_order_to_timoshenko(axis):
    """A small tip force along the section's y (bending about z) or z: the tip deflection
    against ``P L^3 / (3 E I) + P L / (k G A)``, the error falling by about 4 per halved
    element."""
    errors = []
    for n in (2, 4, 8):
        m, b, s = cantilever(n)
        I = s["Iz"] if axis == 1 else s["Iy"]
        P = 1e-6 * E * I / s["L"]**2
        force = np.zeros(3)
        force[axis] = P
        m.add_force(b.end, force=force)
        res = rancf.static(m, load_steps=1)
        assert res.status == "ok", res.message
        exact = P * s["L"]**3 / (3 * E * I) + P * s["L"] / (5.0 / 6.0 * G * s["A"])
        errors.append(abs(res.position(b.end)[0, axis] / exact - 1.0))
    rates = np.log2(np.array(errors[:-1]) / errors[1:])
    assert np.all(rates > 1.8), (errors, rates)
    assert errors[-1] < 2e-2


def test_axial_stretch_and_pure_torsion_are_exact():
    """Constant strain is exact at any mesh: an axial force P stretches by ``P L / (E A)`` and
    a torque T twists the tip by ``T L / (G J)``."""
    m, b, s = cantilever(3)
    P = 1e-4 * E * s["A"]
    m.add_force(b.end, force=(P, 0.0, 0.0))
    res = rancf.static(m, load_steps=1)
    assert res.status == "ok", res.message
    np.testing.assert_allclose(res.position(b.end)[0], [s["L"] + P * s["L"] / (E * s["A"]), 0, 0],
                               rtol=0, atol=1e-12)
    m, b, s = cantilever(3)
    T = 0.3 * G * s["J"] / s["L"]
    m.add_force(b.end, moment=(T, 0.0, 0.0))
    res = rancf.static(m, load_steps=2)
    assert res.status == "ok", res.message
    angle = T * s["L"] / (G * s["J"])
    R = res.orientation(b.end)[0]
    np.testing.assert_allclose(R, [[1, 0, 0], [0, np.cos(angle), -np.sin(angle)],
                                   [0, np.sin(angle), np.cos(angle)]], rtol=0, atol=1e-11)


def test_quarter_and_full_roll_up_under_an_end_moment():
    """An end moment ``f 2 pi E I / L`` about z bends the cantilever into an arc of angle
    ``a = 2 pi f``: tip at ``(L sin(a)/a, L (1 - cos a)/a)`` (the SE(3) element gets the arc
    exact at any mesh), back at the clamp for the full circle."""
    for n, fraction, steps in ((4, 0.25, 2), (8, 1.0, 4)):
        m, b, s = cantilever(n)
        EI = E * s["Iz"]
        m.add_force(b.end, moment=(0.0, 0.0, fraction * 2.0 * np.pi * EI / s["L"]))
        res = rancf.static(m, load_steps=steps)
        assert res.status == "ok", res.message
        a = 2.0 * np.pi * fraction
        L = s["L"]
        np.testing.assert_allclose(res.position(b.end)[0], [L * np.sin(a) / a,
                                                            L * (1 - np.cos(a)) / a, 0.0],
                                   rtol=0, atol=1e-10)
        assert res.extra["iterations"].max() <= 8


def test_static_of_a_mechanism_fails_clearly():
    """A rigid body on a spherical joint under gravity and a constant moment about the
    vertical has no equilibrium at all (gravity holds its swing hanging, nothing its turn
    about the vertical, which the moment drives): the load steps and the damped steps after
    them (tests/test_static_mechanisms.py) fail, with a message naming the mechanism, the
    result at load factor 0. (Without the moment it hangs: test_static_mechanisms.py.)"""
    m, body, pin = spherical_pendulum()
    m.add_force(body.centre, moment=(0.0, 0.0, 1.0))
    res = rancf.static(m)
    assert res.status == "failed"
    assert "mechanism" in res.message and "load factor 0" in res.message
    np.testing.assert_allclose(res.position(body.centre)[0], [0.5, 0.0, 0.0], atol=1e-15)


def test_a_beam_under_large_tension_converges_to_second_order_theory_in_one_load_step():
    """A cantilever along a skew axis pulled along it by T with ``T L^2 / (E I) = 120`` (its
    tension stiffens it laterally far beyond its bending stiffness: the load stiffness the
    approximate matrix leaves out, whose plain iteration turns an element over here) and a
    small fixed-direction tip force F along its section's z axis, in one load step. The tip
    deflection converges at the element's second order to the second-order theory of a beam
    under tension, ``F (k L - tanh(k L)) / (k T)`` with ``k^2 = T / (E I)`` (Euler-Bernoulli:
    shear=False; a large A makes the stretch T / (E A) = 1e-6 negligible, F = 1e-6 T the
    rotations' second order)."""
    axis = np.array([-1.0, 0.5, 2.0]) / np.linalg.norm([-1.0, 0.5, 2.0])
    up = np.array([1.0, 0.0, 0.0])
    z = np.cross(axis, up - (up @ axis) * axis)
    z /= np.linalg.norm(z)
    start = np.array([0.1, -0.2, 0.3])
    width, height, L = 0.02, 0.01, 1.0
    Iy, Iz = width * height**3 / 12.0, height * width**3 / 12.0
    T = 120.0 * E * Iy / L**2
    F = 1e-6 * T
    k = np.sqrt(T / (E * Iy))
    exact = F * (k * L - np.tanh(k * L)) / (k * T)
    errors = []
    for n in (8, 16, 32):
        m = rancf.Model(dim=3, gravity=(0.0, 0.0, 0.0))
        b = m.add_beam(L, n, E=E, rho=7800.0, A=1e3 * width * height, I=(Iy, Iz), J=Iy + Iz,
                       G=G, start=start, direction=axis, up=up, shear=False)
        m.add_joint("fixed", m.ground.point(*start), b.start)
        m.add_force(b.end, force=T * axis + F * z)
        res = rancf.static(m, load_steps=1)
        assert res.status == "ok", res.message
        errors.append(abs((res.position(b.end)[-1] - start) @ z / exact - 1.0))
    rates = np.log2(np.array(errors[:-1]) / errors[1:])
    assert np.all((rates > 1.8) & (rates < 2.2)), (errors, rates)
    assert errors[-1] < 1e-3


def test_roll_up_and_cantilever_in_a_frame_turned_in_space():
    """The same statics in a frame turned arbitrarily: a beam along a skew direction with a
    skew up vector (section axes x, y = up made normal to x, z = x cross y), clamped at a point
    off the origin. The quarter roll-up about the section's z axis puts the tip at
    ``start + R (L sin(a)/a, L (1 - cos a)/a, 0)``; a small force along the section's z axis
    deflects it by the Timoshenko value of the unturned beam (to its discretization error of
    the aligned test, which rotation leaves unchanged: the two equal to round-off)."""
    x = np.array([1.0, 2.0, -0.5])
    x /= np.linalg.norm(x)
    up = np.array([0.3, -0.2, 1.0])
    y = up - (up @ x) * x
    y /= np.linalg.norm(y)
    R = np.column_stack([x, y, np.cross(x, y)])
    start = np.array([0.3, -1.0, 2.0])
    width, height, L = 0.02, 0.01, 1.0
    A, Iy, Iz = width * height, width * height**3 / 12.0, height * width**3 / 12.0

    def turned(turn):
        m = rancf.Model(dim=3, gravity=(0.0, 0.0, 0.0))
        b = m.add_beam(L, 4, E=E, rho=7800.0, A=A, I=(Iy, Iz), J=Iy + Iz, G=G,
                       start=tuple(start) if turn else (0.0, 0.0, 0.0),
                       direction=tuple(x) if turn else (1.0, 0.0, 0.0),
                       up=tuple(up) if turn else (0.0, 1.0, 0.0))
        m.add_joint("fixed", m.ground.point(*(start if turn else np.zeros(3))), b.start)
        return m, b

    m, b = turned(True)
    a = np.pi / 2
    m.add_force(b.end, moment=tuple(R @ [0.0, 0.0, a * E * Iz / L]))
    res = rancf.static(m, load_steps=2)
    assert res.status == "ok", res.message
    np.testing.assert_allclose(res.position(b.end)[0],
                               start + R @ [L * np.sin(a) / a, L * (1 - np.cos(a)) / a, 0.0],
                               rtol=0, atol=1e-10)
    P = 1e-6 * E * Iy / L**2
    tips = []
    for turn in (True, False):
        m, b = turned(turn)
        m.add_force(b.end, force=tuple((R if turn else np.eye(3)) @ [0.0, 0.0, P]))
        res = rancf.static(m, load_steps=1)
        assert res.status == "ok", res.message
        tips.append(res.position(b.end)[0] - (start if turn else 0.0))
    np.testing.assert_allclose(R.T @ tips[0], tips[1], rtol=0, atol=1e-13)
    exact = P * L**3 / (3 * E * Iy) + P * L / (5.0 / 6.0 * G * A)
    assert abs(tips[1][2] / exact - 1.0) < 2e-2
