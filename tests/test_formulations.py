"""The recursive and the DAE formulations of one model against each other: two independent
derivations (relative coordinates with the joint table of theory: Joints in the recursion,
eliminated in O(n); absolute coordinates with constraint rows and multipliers, solved densely)."""
import numpy as np
import pytest

import rancf
from rancf.formulations import recursive
from rancf.formulations.dae import DAE
from rancf.formulations._forces import ForceKernel
from rancf.formulations.inputs import Inputs
from models import branched_tree, four_bar, random_state, spring_tree, sprung_tree

MODELS = ["shabana", "berzeri", "reissner"]


def dae_accelerations(dae, x, v, t):
    """(a, lambda) of the index-3 DAE at a consistent state, by a dense saddle-point solve."""
    F = dae.force(x, v, t)
    fac = dae.newton_matrix(x, np.zeros_like(x), np.zeros(dae.n_constraints), v, t, x, t,
                            1.0, 0.0, 0.0, 0.0, 1.0)
    return fac.solve(F, -dae.acceleration_bias(x, v, t))


@pytest.mark.parametrize("elastic_model", MODELS)
def test_recursive_accelerations_equal_the_dae(elastic_model):
    """developer: Tolerances of the cross-checks: at random consistent states of a branched tree
    with rigid bodies, fixed, driven, actuated and prismatic joints, loads, damping and tilted
    gravity."""
    m = branched_tree(elastic_model)
    A = m.build()
    rec, dae = recursive.of(A), DAE(A, "dense")
    rng = np.random.default_rng(1)
    for t in (0.3, 1.7):
        y, x, v = random_state(m, rng, t)
        a = dae_accelerations(dae, x, v, t)[0]
        assert np.abs(rec.accelerations(t, y) - a).max() <= 1e-10 * np.abs(a).max()


def test_recursive_velocities_satisfy_the_velocity_constraints():
    """V = chi V_p + eps eta + bh q'(t) lies on Phi_x V + Phi_t = 0 (the drives' Phi_t included)
    and the rebuilt coordinates on Phi = 0: the joint table against the constraint rows."""
    m = branched_tree()
    A = m.build()
    dae = DAE(A, "dense")
    rng = np.random.default_rng(2)
    for t in (0.0, 0.8):
        _, x, v = random_state(m, rng, t, amplitude=0.2)
        assert np.abs(dae.constraint(x, t)).max() <= 1e-13
        assert np.abs(dae.constraint_jacobian(x, t) @ v + dae.velocity_bias(x, t)).max() \
            <= 1e-12 * np.abs(v).max()


def test_joint_coordinates_and_reactions_equal_the_dae():
    """Drive torques, clamp moments and the driven slide force: the recursion's
    ``bh^T (H A - f)`` against the DAE's ``-lambda |p| |c|`` and ``-lambda``."""
    m = branched_tree()
    A = m.build()
    rec, dae = recursive.of(A), DAE(A, "dense")
    y, x, v = random_state(m, np.random.default_rng(3))
    t = 0.3
    _, _, q, qd, reaction = rec.outputs(t, y)
    lam = dae_accelerations(dae, x, v, t)[1]
    seen = dae.observe(x, v, t, lam)
    assert np.allclose(seen["joint_q"], q, rtol=0, atol=1e-14)
    assert np.allclose(seen["joint_qd"], qd, rtol=0, atol=1e-12)
    held = [k for k, j in enumerate(A.joints) if j.kind == "fixed" or j.driven]
    assert len(held) == 5 and np.all(np.abs(reaction[held]) > 1e-3)
    assert np.allclose(seen["reactions"], reaction, rtol=1e-10, atol=1e-12)
    # without the multipliers, the DAE takes the state's own (its saddle-point solve)
    assert np.allclose(dae.observe(x, v, t)["reactions"], reaction, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("method", ["newmark", "generalized-alpha-s"])
def test_dae_reactions_are_those_of_the_state_whatever_the_scheme(method):
    """Newmark leaves the index-3 multipliers oscillating and generalized-alpha-S takes them at
    its intermediate point (on the driven slide below they were 37 % and 40 % off); the
    reactions at an output are the state's: the dense solve of the accelerations and
    multipliers at the last output's state."""
    m = branched_tree(smooth=True)
    res = rancf.simulate(m, 0.1, 2.5e-4, method=method, formulation="dae", output_every=200)
    assert res.status == "ok"
    dae = DAE(m.build(), "dense")
    state = res.state(-1)
    lam = dae_accelerations(dae, state.x, state.v, 0.1)[1]
    seen = dae.observe(state.x, state.v, 0.1, lam)["reactions"]
    held = np.abs(seen) > 0
    assert held.sum() == 5
    assert np.allclose(res.reactions[-1][held], seen[held], rtol=1e-8)


def test_trajectories_agree_as_converged_solutions():
    """developer: Tolerances of the cross-checks: recursive DOPRI5 at rtol = atol = 1e-11 against
    the DAE with generalized-alpha at h and h/2 from the same state, extrapolated (second order),
    over 0.5 s. The loads rise smoothly: a concentrated load applied at once excites stiff modes
    (about 1700 rad/s) that generalized-alpha resolves only for h below about 1e-5 s."""
    m = branched_tree(smooth=True)
    L = m.build().size
    ref = rancf.simulate(m, 0.5, 1e-3, method="dopri5", rtol=1e-11, atol=1e-11, output_every=100)
    runs = [rancf.simulate(m, 0.5, h, method="generalized-alpha", output_every=round(0.1 / h),
                           state=ref.state(0), tol=1e-12, formulation="dae").nodes[:, :, :2]
            for h in (2.5e-4, 1.25e-4)]
    errors = [np.abs(r - ref.nodes[:, :, :2]).max() / L for r in runs]
    assert np.log2(errors[0] / errors[1]) > 1.8
    extrapolated = (4.0 * runs[1] - runs[0]) / 3.0
    assert np.abs(extrapolated - ref.nodes[:, :, :2]).max() <= 1e-7 * L


@pytest.mark.parametrize("linear_solver", ["dense", "sparse"])
def test_dae_newton_matrix_is_the_jacobian_of_the_step_residual(linear_solver):
    """[[c_m M + c_k K + c_c C, w G^T], [G, 0]] against central differences of the DAE's force,
    constraint and constraint-force terms (loads, efforts and damping included)."""
    m = branched_tree()
    A = m.build()
    dae = DAE(A, linear_solver)
    _, x, v = random_state(m, np.random.default_rng(4))
    t, n = 0.3, A.n_x
    lam = np.random.default_rng(5).standard_normal(dae.n_constraints)
    c_m, c_k, c_c, w = 0.7, 0.2, 0.05, 0.9
    S = dae.newton_matrix(x, v, lam, v, t, x, t, c_m, 0.0, c_k, c_c, w, factor=False)
    S = S.toarray() if hasattr(S, "toarray") else S

    def residual(xx, vv):
        return -dae.force(xx, vv, t) + dae.constraint_jacobian(xx, t).T @ lam

    h = 1e-6
    K, C, G = np.zeros((n, n)), np.zeros((n, n)), np.zeros((dae.n_constraints, n))
    for k in range(n):
        e = np.zeros(n)
        e[k] = h
        K[:, k] = (residual(x + e, v) - residual(x - e, v)) / (2 * h)
        C[:, k] = (residual(x, v + e) - residual(x, v - e)) / (2 * h)
        G[:, k] = (dae.constraint(x + e, t) - dae.constraint(x - e, t)) / (2 * h)
    M = dae.M.toarray()
    expected = np.block([[c_m * M + c_k * K + c_c * C, w * G.T], [G, np.zeros((G.shape[0],) * 2)]])
    assert np.allclose(S, expected, rtol=1e-5, atol=1e-6 * np.abs(expected).max())


def test_constraint_time_derivatives_against_finite_differences():
    """Along a path x(s) = x + s v + s^2/2 a at time t + s: d Phi/ds = Phi_x v + Phi_t and
    d^2 Phi/ds^2 = Phi_x a + xi + 2 Phi_xt v + Phi_tt (the drives' rheonomic rows included)."""
    m = branched_tree()
    dae = DAE(m.build(), "dense")
    rng = np.random.default_rng(6)
    _, x, v = random_state(m, rng)
    a, t, h = rng.standard_normal(x.size), 0.4, 1e-4
    phi = lambda s: dae.constraint(x + s * v + 0.5 * s * s * a, t + s)
    first = (phi(h) - phi(-h)) / (2 * h)
    second = (phi(h) - 2 * phi(0.0) + phi(-h)) / h**2
    J = dae.constraint_jacobian(x, t)
    assert np.allclose(first, J @ v + dae.velocity_bias(x, t), rtol=0, atol=1e-7)
    assert np.allclose(second, J @ a + dae.acceleration_bias(x, v, t), rtol=0, atol=1e-5)


def test_closed_loop_stays_closed_and_conserves_energy():
    """A four-bar of beams (DAE: the loop closes by constraints) released under gravity from a
    tilted parallelogram: the loop stays closed to round-off at every output, and the energy
    error of generalized-alpha falls at second order with the step (a wrong force, constraint
    or multiplier term would leave an error that does not fall)."""
    m, (crank, coupler, rocker) = four_bar()
    A = m.build()
    assert A.recursive_reason is not None and "loop" in A.recursive_reason
    drifts = []
    for h in (1e-3, 5e-4):
        res = rancf.simulate(m, 0.5, h, method="generalized-alpha", rho_inf=0.9,
                             output_every=round(0.01 / h))
        assert res.formulation == "dae" and res.status == "ok"
        assert res.extra["constraint_violation"][:, 0].max() < 1e-12
        assert np.abs(res.position(rocker.end) - np.array([1.0, 0.0])).max() < 1e-12
        drifts.append(res.energy_drift())
    assert np.log2(drifts[0] / drifts[1]) > 1.8


def test_recursive_formulation_refuses_loops_and_auto_picks_dae():
    m, _ = four_bar()
    with pytest.raises(ValueError, match="close loops.*formulation='dae'"):
        rancf.simulate(m, 0.01, 1e-3, method="generalized-alpha", formulation="recursive")
    with pytest.raises(ValueError, match="needs the recursive formulation"):
        rancf.simulate(m, 0.01, 1e-3, method="rk4")


@pytest.mark.parametrize("method, what", [
    ("rk4", "is explicit"), ("scipy:RK45", "SciPy's solve_ivp"),
    ("scipy:Radau", "SciPy's solve_ivp"), ("scipy:BDF", "SciPy's solve_ivp")])
def test_formulation_dae_refuses_an_ode_method_and_says_what_it_is(method, what):
    """Radau and BDF are implicit: the refusal says what they are, SciPy's ODE solvers on the
    recursive formulation, not that they are explicit."""
    m = rancf.Model()
    b = m.add_beam(1.0, 2, E=2e9, rho=7800.0, A=1e-4, I=1e-9)
    m.add_joint("revolute", m.ground.point(0.0, 0.0), b.start)
    with pytest.raises(ValueError, match="formulation 'dae' takes the implicit methods") as info:
        rancf.simulate(m, 0.01, 1e-3, method=method, formulation="dae")
    assert what in str(info.value)
    assert method.startswith("rk") or "explicit" not in str(info.value)


@pytest.mark.parametrize("method,params", [("newmark", {}), ("generalized-alpha", {"rho_inf": 0.8}),
                                           ("backward-euler", {})])
def test_implicit_recursive_takes_the_same_steps_as_the_dae(method, params):
    """For a tree of beams on revolute joints the map q -> x is linear and constant, so a step of
    implicit RANCF is the DAE's step with the same scheme: equal to the Newton tolerance."""
    m = rancf.pendulum(n_bodies=3, elements_per_body=2, E=210e9)
    kw = dict(method=method, tol=1e-12, jacobian="every-iteration", **params)
    a = rancf.simulate(m, 0.2, 1e-3, formulation="recursive", **kw)
    b = rancf.simulate(m, 0.2, 1e-3, formulation="dae", **kw)
    assert a.formulation == "recursive" and b.formulation == "dae"
    assert np.abs(a.nodes - b.nodes).max() < 1e-9 * m.build().size
    assert a.stats["newton_iterations"] <= 2 * a.stats["steps"] + 1


@pytest.mark.parametrize("model", [sprung_tree, branched_tree])
def test_load_blocks_are_the_derivatives_of_the_moments_and_efforts(model):
    """The Newton blocks of the moments and joint efforts (every joint kind with a nonlinear
    effort of (q, qd)) against central differences of the DAE's loads in x and v, at a random
    state that satisfies the joints."""
    m = model()
    A = m.build()
    dae, forces = DAE(A, "dense"), ForceKernel(A)
    t, n, nj = 0.4, A.n_x, max(A.n_joints, 1)
    _, x, v = random_state(m, np.random.default_rng(7), t, amplitude=0.3)
    dae.accept(x, v, t)     # the joints' branches at this state (the efforts' q)
    q, qd, tau_q, tau_qd, qref = (np.zeros(nj) for _ in range(5))
    qref[:A.n_joints] = A.joint_q0
    inputs = Inputs(A, forces.arrays, q, qd)
    inputs.at_time(t)
    forces.joint_coordinates(x, v, qref, q, qd)
    inputs.efforts(t)
    inputs.effort_slopes(t, tau_q, tau_qd)
    c_k, c_c = 0.7, 0.3
    N = forces.load_blocks(x, v, tau_q, tau_qd, c_k, c_c)
    h, expected = 1e-6, np.zeros((n, n))
    for k in range(n):
        e = np.zeros(n)
        e[k] = h
        expected[:, k] = -(c_k * (dae.loads(x + e, v, t) - dae.loads(x - e, v, t))
                           + c_c * (dae.loads(x, v + e, t) - dae.loads(x, v - e, t))) / (2 * h)
    # central differences of O(1e2) loads at h = 1e-6: ~1e-9 relative
    assert np.abs(N - expected).max() < 1e-7 * np.abs(expected).max()


class FirstMatrix:
    """Plain Newton that keeps the step's Newton matrix at its first iterate, densely: its
    inverse's columns from the factorization (``inverse``), their inverse (``matrix``), the
    matrix as the problem assembles it (``assembled``), and central differences of the residual
    there (``jacobian``)."""

    def solve(self, eq, a, lam):
        if not hasattr(self, "matrix"):
            n = a.size
            fac = eq.matrix(a, lam)
            self.inverse = np.column_stack([fac.solve(col, np.zeros(0))[0] for col in np.eye(n)])
            self.matrix = np.linalg.inv(self.inverse)
            self.assembled = eq.matrix(a, lam, factor=False).toarray()
            self.jacobian = np.zeros((n, n))
            for k in range(n):
                e = np.zeros(n)
                e[k] = 1e-6 * max(1.0, abs(a[k]))
                self.jacobian[:, k] = ((eq.residual(a + e, lam)[0] - eq.residual(a - e, lam)[0])
                                       / (2 * e[k]))
        for k in range(1, 26):
            da = eq.matrix(a, lam).solve(-eq.residual(a, lam)[0], np.zeros(0))[0]
            a = a + da
            eq.count_iteration()
            if np.abs(eq.hb * da).max() <= 1e-12:      # m
                return a, lam, k
        raise rancf.implicit.StepFailure("failed", f"no convergence at t = {eq.t1} s")


@pytest.mark.parametrize("method", ["newmark", "generalized-alpha"])
def test_implicit_recursive_newton_matrix_has_the_efforts_and_moments(method):
    """For beams on revolute joints the recursion's Newton matrix (element tangents, damping and
    the blocks of the torsion springs' efforts and the moments) is the Jacobian of the step
    residual in the joint accelerations: against its central differences, from a random
    velocity."""
    A = spring_tree().build()
    y0 = recursive.of(A).initial_state()
    problem = recursive.implicit_problem(A, y0)
    q0 = problem.theta(y0)
    rng = np.random.default_rng(3)
    probe = FirstMatrix()
    sol = rancf.implicit.integrate(problem, q0, rng.standard_normal(q0.size), 1e-3, 1e-3,
                                   method=method, solver=probe)
    assert sol.status == "ok"
    J = probe.jacobian
    assert np.abs(probe.matrix - J).max() < 1e-7 * np.abs(J).max()
    assert np.abs(probe.assembled - J).max() < 1e-7 * np.abs(J).max()


@pytest.mark.parametrize("model", [spring_tree, sprung_tree, branched_tree])
def test_assembled_newton_matrix_is_the_one_the_elimination_solves(model):
    """The Newton matrix assembled column by column (the sparse LU fallback's, developer: Newton
    matrix of implicit RANCF) is the operator the block elimination inverts: times the block solves
    of the unit vectors it gives the identity, on trees with every joint kind, efforts and moments
    (their blocks, with the child-parent couplings, in both), under generalized-alpha from a random
    velocity."""
    A = model().build()
    y0 = recursive.of(A).initial_state()
    problem = recursive.implicit_problem(A, y0)
    q0 = problem.theta(y0)
    probe = FirstMatrix()
    sol = rancf.implicit.integrate(problem, q0, np.random.default_rng(5).standard_normal(q0.size),
                                   1e-3, 1e-3, method="generalized-alpha", solver=probe)
    assert sol.status == "ok"
    # 4e-14 measured (the matrices' condition numbers are 2e4 - 1e5): a 25x margin
    assert np.abs(probe.assembled @ probe.inverse - np.eye(q0.size)).max() < 1e-12


def test_torsion_springs_take_the_same_implicit_steps_in_both_formulations():
    """The spring tree under Newmark: RANCF's steps are the DAE's (constant linear map q -> x),
    within the Newton tolerance, in as many iterations as the DAE's exact matrix takes (the
    spring efforts' blocks in RANCF's: without them its Newton diverged at the first step)."""
    m = spring_tree()
    kw = dict(method="newmark", tol=1e-12, jacobian="every-iteration")
    a = rancf.simulate(m, 0.2, 1e-3, formulation="recursive", **kw)
    b = rancf.simulate(m, 0.2, 1e-3, formulation="dae", **kw)
    assert a.status == b.status == "ok"
    assert np.abs(a.nodes - b.nodes).max() < 1e-9 * m.build().size
    assert a.stats["newton_iterations"] <= 1.05 * b.stats["newton_iterations"]


def test_drive_work_of_implicit_recursive_is_the_dae_s_at_second_order():
    """A beam spun up by a driven hub (the spin-up case's profile, 2 s to 6 rad/s, no gravity)
    under generalized-alpha: RANCF takes the drive's reaction, and its work, from the state's
    true accelerations, so its reaction differs from the DAE's multiplier (both second order)
    by O(h^2), 4x less per halving of dt (from the loop's time-shifted accelerations: O(h),
    2x), and its energy balance is the DAE's."""
    w, T = 6.0, 2.0
    c = T / (2 * np.pi)

    def hub(t):
        if t < T:
            return (w / T * (t**2 / 2 + c**2 * (np.cos(t / c) - 1)), w / T * (t - c * np.sin(t / c)),
                    w / T * (1 - np.cos(t / c)))
        return w * (t - T / 2), w, 0.0

    m = rancf.Model(gravity=(0.0, 0.0), elastic_model="reissner")
    beam = m.add_beam(length=10.0, n_elements=4, E=2.8e7 * 6.5e3, rho=7800.0, A=1.2 / 7800.0,
                      I=1.4e4 / (2.8e7 * 6.5e3))
    motor = m.add_joint("revolute", m.ground.point(0.0, 0.0), beam.start, drive=hub)
    reaction = []
    for h in (0.01, 0.005):
        kw = dict(method="generalized-alpha", tol=1e-12, output_every=round(0.1 / h))
        r = rancf.simulate(m, 3.0, h, formulation="recursive", **kw)
        d = rancf.simulate(m, 3.0, h, formulation="dae", **kw)
        assert r.status == d.status == "ok"
        # the balances' errors are O(h^2) (2e-3 and 5e-4 of the kinetic energy)
        assert abs(r.energy_drift() - d.energy_drift()) < 1e-3 * d.energy_drift()
        reaction.append(np.abs(r.reaction(motor, "torque") - d.reaction(motor, "torque")).max()
                        / np.abs(d.reaction(motor, "torque")).max())
    assert abs(np.log2(reaction[0] / reaction[1]) - 2.0) < 0.3


@pytest.mark.parametrize("method,order", [("newmark", 2.0), ("generalized-alpha-s", 2.0),
                                          ("generalized-alpha", 2.0)])
def test_implicit_recursive_on_a_tree_with_every_joint_kind(method, order):
    """Implicit RANCF in the joints' position coordinates on the branched tree (rigid bodies,
    fixed, driven and prismatic joints: Omega depends on the configuration) against the
    recursive DOPRI5 solution from the same state: Newmark, generalized-alpha-S and
    generalized-alpha in Arnold and Bruls' form converge at second order (Chung and Hulbert's
    weighted equilibrium converged at first here, Ding & Pan's point); the reactions of the held
    joints are those of the state."""
    m = branched_tree(smooth=True)
    L = m.build().size
    ref = rancf.simulate(m, 0.3, 1e-3, method="dopri5", rtol=1e-11, atol=1e-11, output_every=100)
    errors = []
    for h in (2.5e-4, 1.25e-4):
        res = rancf.simulate(m, 0.3, h, method=method, formulation="recursive", tol=1e-11,
                             output_every=round(0.1 / h), state=ref.state(0), rho_inf=0.9) \
            if method != "newmark" else \
            rancf.simulate(m, 0.3, h, method=method, formulation="recursive", tol=1e-11,
                           output_every=round(0.1 / h), state=ref.state(0))
        assert res.status == "ok" and res.formulation == "recursive"
        errors.append(np.abs(res.nodes[:, :, :2] - ref.nodes[:, :, :2]).max() / L)
    assert abs(np.log2(errors[0] / errors[1]) - order) < 0.3
    # the reactions are those of the state (its true accelerations, whatever the scheme's):
    # the DAE's multipliers by a dense solve at the last output's state
    dae = DAE(m.build(), "dense")
    state = res.state(-1)
    lam = dae_accelerations(dae, state.x, state.v, 0.3)[1]
    seen = dae.observe(state.x, state.v, 0.3, lam)["reactions"]
    held = np.abs(seen) > 0
    assert np.allclose(res.reactions[-1][held], seen[held], rtol=1e-8)


@pytest.mark.parametrize("method, chosen", [("newmark", "recursive"), ("hht", "recursive"),
                                             ("generalized-alpha", "recursive"),
                                             ("generalized-alpha-s", "dae"),
                                             ("backward-euler", "dae")])
def test_auto_runs_state_dependent_trees_on_the_recursion_where_it_was_measured_better(method,
                                                                                        chosen):
    """A tree whose Omega depends on the configuration (prismatic joints): "auto" takes the
    recursion under Newmark, HHT and generalized-alpha, which validation/auto_formulation.py
    measured as accurate as the DAE and faster on nine such trees, and the DAE under
    generalized-alpha-S (3.2 times the DAE's error on one of them) and backward Euler (not
    measured); a named formulation is run as named."""
    m = rancf.pendulum(n_bodies=2, elements_per_body=2, joint="prismatic")
    assert rancf.simulate(m, 0.01, 1e-3, method=method).formulation == chosen
    other = {"recursive": "dae", "dae": "recursive"}[chosen]
    assert rancf.simulate(m, 0.01, 1e-3, method=method, formulation=other).formulation == other


def test_stiff_pendulum_at_large_steps_converges_to_rk4_at_second_order():
    """5 x 5, E = 210 GPa: implicit RANCF (generalized-alpha) at 1e-3 and 5e-4 s, 100 and 50
    times RK4's stable step, against RK4 at 1e-5 s over 0.2 s: the error falls at the scheme's
    second order, so the large step integrates the same motion."""
    chain = rancf.pendulum(E=210e9)
    ref = rancf.simulate(chain, 0.2, 1e-5, method="rk4", output_every=1000)
    errors = []
    for h in (1e-3, 5e-4):
        res = rancf.simulate(chain, 0.2, h, method="generalized-alpha", rho_inf=0.9,
                             output_every=round(0.01 / h))
        assert res.status == "ok" and res.formulation == "recursive"
        errors.append(np.abs(res.tip() - ref.tip()).max())
    assert np.log2(errors[0] / errors[1]) > 1.8


@pytest.mark.parametrize("projection", [True, "mass"])
def test_projection_brings_violations_to_round_off(projection):
    """The index-3 schemes hold Phi but leave Phi' and Phi'' violated; projection (paper eq.
    15-17, drives' Phi_t included) brings all three to round-off."""
    m = branched_tree(smooth=True)
    kw = dict(method="generalized-alpha", rho_inf=0.8, formulation="dae", output_every=1)
    free = rancf.simulate(m, 0.05, 1e-3, **kw)
    proj = rancf.simulate(m, 0.05, 1e-3, projection=projection, **kw)
    vf = free.extra["constraint_violation"].max(axis=0)
    vp = proj.extra["constraint_violation"].max(axis=0)
    assert vf[1] > 1e-8 and vf[2] > 1e-6
    assert vp[0] < 1e-13 and vp[1] < 1e-11 and vp[2] < 1e-9, vp


def test_newton_failure_is_reported_and_keeps_results():
    res = rancf.simulate(rancf.pendulum(n_bodies=2, elements_per_body=2), 0.1, 1e-2,
                         method="newmark", formulation="dae", max_iter=1, tol=1e-16)
    assert res.status == "failed" and "Newton did not converge" in res.message
    assert len(res.t) == 1


def test_a_newton_failure_says_what_to_change():
    """A contracting iteration cut short asks for more iterations or a smaller step; the
    implicit recursive formulation of a model with a fixed joint (its Newton matrix
    approximate, developer: Newton matrix of implicit RANCF) points to the DAE's exact one."""
    m = rancf.Model()
    b = m.add_beam(1.0, 2, 1e6, 1e3, 1e-4, 1e-9)
    m.add_joint("fixed", m.ground.point(0.0, 0.0), b.start)
    # at dt itself (max_cuts=0): the message of a failed step is the point, which smaller
    # steps would converge past
    res = rancf.simulate(m, 0.1, 1e-2, method="newmark", formulation="recursive", max_iter=3,
                         tol=1e-15, max_cuts=0)
    assert res.status == "failed" and "contracting" in res.message
    assert "raise max_iter" in res.message and "formulation='dae'" in res.message


@pytest.mark.parametrize("kwargs,name", [
    (dict(formulation="dae", method="newmark", linear_solver="cholmod"), "linear_solver"),
    (dict(formulation="dae", method="hht", alpha=0.2), "alpha"),
    (dict(formulation="dae", method="generalized-alpha", rho_inf=-1), "rho_inf"),
    (dict(method="newmark", tol=-1.0), "tol"), (dict(method="newmark", max_iter=0), "max_iter"),
    (dict(method="newmark", formulation="recursive", projection=True), "projection"),
])
def test_bad_implicit_options_are_named(kwargs, name):
    with pytest.raises((ValueError, TypeError), match=name):
        rancf.simulate(rancf.pendulum(n_bodies=2, elements_per_body=2), 0.1, 1e-2, **kwargs)


@pytest.mark.parametrize("formulation", ["recursive", "dae"])
def test_kept_and_refactored_newton_matrices_give_the_same_motion(formulation):
    """Modified Newton (the matrix kept while the iteration contracts) against full Newton: the
    same trajectory to the Newton tolerance, with far fewer factorizations."""
    m = rancf.pendulum(n_bodies=3, elements_per_body=3, E=210e9)
    kw = dict(method="generalized-alpha", formulation=formulation, tol=1e-11, output_every=50)
    full = rancf.simulate(m, 0.2, 1e-3, jacobian="every-iteration", **kw)
    kept = rancf.simulate(m, 0.2, 1e-3, jacobian="reuse", **kw)
    assert np.abs(kept.nodes - full.nodes).max() < 1e-8
    assert kept.stats["nlu"] < 0.2 * full.stats["nlu"]
    with pytest.raises(ValueError, match="jacobian must be one of"):
        rancf.simulate(m, 0.01, 1e-3, jacobian="sometimes", **{k: v for k, v in kw.items() if k != "tol"})


@pytest.mark.parametrize("formulation", ["recursive", "dae"])
@pytest.mark.parametrize("method,params,order", [
    ("newmark", {}, 2.0), ("hht", {"alpha": 0.9}, 2.0), ("generalized-alpha", {"rho_inf": 0.8}, 2.0),
    ("generalized-alpha-s", {"rho_inf": 0.8}, 2.0), ("backward-euler", {}, 1.0)])
def test_every_implicit_method_converges_at_its_order_in_the_compiled_loop(formulation, method,
                                                                          params, order):
    """Every scheme through the compiled loop and problems, against the recursive DOPRI5
    solution at rtol = atol = 1e-11 (an explicit integrator, independent of the Newton loop):
    halving h divides the tip error by 2^order (2 for the Newmark family: the mass matrix is
    constant in both formulations of a revolute chain; 1 for backward Euler): measured 2.06 to
    2.08 and 0.94 (both formulations alike), checked within 0.25."""
    m = rancf.pendulum(n_bodies=2, elements_per_body=2, body_length=1.0, E=2e8)
    ref = rancf.simulate(m, 0.1, 1e-4, method="dopri5", rtol=1e-11, atol=1e-11, output_every=100)
    errors = []
    for h in (1e-3, 5e-4):
        res = rancf.simulate(m, 0.1, h, method=method, formulation=formulation, tol=1e-12,
                             output_every=round(0.01 / h), **params)
        assert res.status == "ok" and res.formulation == formulation
        errors.append(np.abs(res.tip() - ref.tip()).max())
    assert abs(np.log2(errors[0] / errors[1]) - order) < 0.25, errors


def test_a_step_failure_crosses_a_process_boundary_whole():
    """A StepFailure pickles and unpickles with its status, message and reason (a sweep's
    worker sends it to the driver): ``Exception`` pickles its ``args``, which must be the
    constructor's."""
    import pickle
    exc = rancf.implicit.StepFailure("failed", "singular at t = 0 s", reason="singular")
    back = pickle.loads(pickle.dumps(exc))
    assert (type(back), back.status, str(back), back.reason) == \
        (type(exc), "failed", "singular at t = 0 s", "singular")
