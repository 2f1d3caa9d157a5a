"""The spatial DAE formulation (rancf.formulations.spatial_dae) against independent references:
the O(n) recursion of the same tree (accelerations, body accelerations and joint reactions at a
consistent state), central differences of the constraints, and, for closed loops, the constraints
and the energy balance."""
import numpy as np
import pytest

import rancf
from rancf.formulations.spatial import Spatial, model_inputs
from rancf.formulations.spatial_dae import SpatialDAE, quaternion, qmul, rotation
from rancf.joints._codes import Motion
from rancf.starts import spatial_dae_start
from validation.spatial_trees import (ALL, dae_against_recursion, drive_tree, loaded_tree,
                                     make_tree, random_tree, recursion_and_dae,
                                     small_tree_reference)


def test_quaternion_maps_compose_like_rotations():
    rng = np.random.default_rng(1)
    a, b = (v / np.linalg.norm(v) for v in rng.standard_normal((2, 4)))
    assert np.abs(rotation(qmul(a, b)) - rotation(a) @ rotation(b)).max() <= 1e-15
    R = rotation(a)
    assert np.abs(R @ R.T - np.eye(3)).max() <= 1e-15
    assert np.abs(rotation(quaternion(R)) - R).max() <= 1e-15


@pytest.mark.parametrize("seed", range(4))
def test_accelerations_and_reactions_equal_the_recursion(seed):
    """Every joint kind, a branched random tree, elastic damped elements, rigid bodies, a fixed
    and a follower load, gravity: at the recursion's state mapped to absolute coordinates, the
    DAE's body accelerations and joint reactions (from its multipliers) equal the recursion's."""
    rec, dae, t, y = recursion_and_dae("loads", seed)
    d = dae_against_recursion(rec, dae, t, y)
    # the mapped state is consistent: positions and velocities on the constraints
    assert d["position"] <= 1e-14 * rec.tree.size * 10
    assert d["velocity"] <= 1e-13
    assert d["accelerations"] <= 1e-10
    assert d["reactions"] <= 1e-10


@pytest.mark.parametrize("seed", range(3))
def test_drives_equal_the_recursion(seed):
    """A driven revolute (angle, rate and acceleration all non-zero), a driven prismatic and a
    held revolute: rheonomic rows whose Phi_t and xi make the DAE's accelerations and reactions
    those of the recursion, where the drives are out of the unknowns."""
    rec, dae, t, y = recursion_and_dae("drives", seed)
    d = dae_against_recursion(rec, dae, t, y)
    assert d["position"] <= 1e-13
    assert d["velocity"] <= 1e-13
    assert d["accelerations"] <= 1e-10
    assert d["reactions"] <= 1e-10


def central(f, x, h):
    return np.array([(f(x + h * e) - f(x - h * e)) / (2 * h) for e in np.eye(x.size)]).T


@pytest.mark.parametrize("seed", range(2))
def test_constraint_jacobian_equals_central_differences(seed):
    """Off the manifold too (Newton's iterates): every joint kind, drives; and the velocity
    and acceleration biases equal central differences of Phi along (x + tau v, t + tau)."""
    rng, tree, drives = drive_tree(seed)
    tree2 = random_tree(rng, ALL)
    for tr, dr in ((tree, drives), (tree2, None)):
        dae = SpatialDAE(tr, drives=dr)
        t = 0.4
        x = rng.standard_normal(dae.n_coordinates)
        v = rng.standard_normal(dae.n_coordinates)
        J = dae.constraint_jacobian(x, t).toarray()
        Jf = central(lambda z: dae.constraint(z, t), x, 1e-6)
        assert np.abs(J - Jf).max() <= 1e-7 * np.abs(J).max()
        path = lambda tau: dae.constraint(x + tau * v, t + tau)
        h = 1e-4
        first = (path(h) - path(-h)) / (2 * h)
        second = (path(h) - 2 * path(0.0) + path(-h)) / h ** 2
        assert np.abs(J @ v + dae.velocity_bias(x, t) - first).max() <= 1e-6 * np.abs(first).max()
        assert np.abs(dae.acceleration_bias(x, v, t) - second).max() \
            <= 1e-5 * np.abs(second).max()


def test_newton_matrix_terms_equal_central_differences():
    """The terms of Newton's matrix against central differences of what they differentiate,
    over the whole coordinate vector: ``d(M a)/dx`` (analytic) of the mass action, the
    stiffness ``-dF/dx`` (per element and per body, assembled) and the damping ``-dF/dv``
    (the elements' ``B^T D B``, analytic) of the force, the curvature of ``Phi_x^T lambda``."""
    rng, tree, values = loaded_tree(5)
    dae = SpatialDAE(tree, loads=values)
    y = np.concatenate([rng.uniform(-1, 1, tree.n_q), rng.uniform(-1, 1, tree.n_q)])
    x, v = dae.state_of(y)
    t, h = 0.1, 1e-6
    a = rng.standard_normal(x.size)
    lam = rng.standard_normal(dae.n_constraints)
    pairs = [
        (dae.stiffness(x, v, t), -central(lambda z: dae.force(z, v, t), x, h)),
        (dae.damping(x, v, t), -central(lambda w: dae.force(x, w, t), v, h)),
        (dae.mass_derivative(x, a), central(lambda z: dae.mass_action(z, a), x, h)),
        (dae.constraint_curvature(x, lam, t),
         central(lambda z: dae.constraint_jacobian(z, t).T @ lam, x, h)),
    ]
    for matrix, expected in pairs:
        assert np.abs(matrix.toarray() - expected).max() <= 1e-7 * np.abs(expected).max()


def _cable_on_a_driven_slider(n_elements):
    """A body on a prismatic joint driven at 1 m/s^2 from rest, an ANCF cable hanging from it
    by a spherical joint: rows of a drive and rows at a cable point (the audit's tree,
    tests/test_audit_findings.py)."""
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -9.81))
    body = m.add_rigid_body(1.0, np.eye(3) * 1e-3)
    m.add_joint("prismatic", m.ground.point(0, 0, 0), body.centre, axis=(0, 1, 0),
                drive=lambda t: (0.5 * t**2, t, 1.0))
    cable = m.add_beam(1.0, n_elements, E=1e6, rho=100.0, A=1e-3, I=1e-9,
                       element="ancf-cable")
    m.add_joint("spherical", body.centre, cable.start)
    dae = SpatialDAE(m.build(), *model_inputs(m))
    return dae, spatial_dae_start(m, dae, None)


def test_biases_depend_on_the_state_alone_with_rows_at_a_cable_point():
    """``Phi_t`` and ``xi`` are functions of (x, v, t) alone, however many calls came before
    (the compiled problem keeps the last ``Phi_t`` and fills the violations' rows in one
    buffer): at two states off the constraints taken in turn, at 60 times, each equals central
    differences of Phi along ``(x + tau v, t + tau)`` (step 1e-4: truncation about 1e-8 of
    the rows' scale, 1, and round-off 1e-16 / 1e-8 in the second; bounds 1e-7 and 1e-5).
    A row left out of a bias's sum (the cable point's, before) kept its last value, scaled
    by 1/h = 2 at each call: 2^60 times its first rounding (1e-19 here) at the end."""
    dae, (x0, v0) = _cable_on_a_driven_slider(4)
    rng = np.random.default_rng(3)
    states = [(x0 + 1e-3 * rng.standard_normal(x0.size), rng.standard_normal(x0.size))
              for _ in range(2)]
    h = 1e-4
    for k, t in enumerate(np.linspace(0.01, 0.6, 60)):
        x, v = states[k % 2]
        path = lambda tau: dae.constraint(x + tau * v, t + tau)
        first = (path(h) - path(-h)) / (2 * h)
        second = (path(h) - 2 * path(0.0) + path(-h)) / h ** 2
        phi_t = (dae.constraint(x, t + h) - dae.constraint(x, t - h)) / (2 * h)
        assert np.abs(dae.velocity_bias(x, t) - phi_t).max() <= 1e-7
        J = dae.constraint_jacobian(x, t)
        assert np.abs(J @ v + dae.velocity_bias(x, t) - first).max() <= 1e-7
        assert np.abs(dae.acceleration_bias(x, v, t) - second).max() <= 1e-5


def test_run_reports_the_violations_of_its_states():
    """The loop's velocity and acceleration violations at each step (the compiled problem's,
    through its kept ``Phi_t`` and one buffer) against ``|Phi_x v + Phi_t|`` and
    ``|Phi_x a + xi|`` of the stored states, each evaluated alone: ``Phi_t`` by central
    differences in t of step 1e-3 (exact for the drive's quadratic target but for round-off,
    1e-15), ``xi`` by a fresh call. Index 3 holds positions only: the violations are small but
    not zero (up to 1e-14 m/s and 1e-10 m/s^2 in this run), so each must match to round-off
    of its terms: ``|Phi_x| |v|`` about 5 and ``|Phi_x| |a|`` about 500, times 1e-16 and a
    margin of 100: 1e-13 and 1e-11."""
    from rancf import implicit
    dae, (x0, v0) = _cable_on_a_driven_slider(8)
    sol = implicit.integrate(dae.compiled, x0, v0, 0.1, 1e-3, method="generalized-alpha-s",
                             output_every=1)
    assert sol.status == "ok"
    h = 1e-3
    for t, x, v, a, viol in zip(sol.t, sol.q, sol.v, sol.a, sol.violations):
        J = dae.constraint_jacobian(x, t)
        phi_t = (dae.constraint(x, t + h) - dae.constraint(x, t - h)) / (2 * h)
        assert abs(viol[1] - np.abs(J @ v + phi_t).max()) <= 1e-13
        assert abs(viol[2] - np.abs(J @ a + dae.acceleration_bias(x, v, t)).max()) <= 1e-11

# --- the implicit loop ------------------------------------------------------------------------
@pytest.mark.parametrize("method, parameters", [("newmark", {}), ("hht", {"alpha": 0.9}),
                                                ("generalized-alpha", {"rho_inf": 0.8}),
                                                ("generalized-alpha-s", {"rho_inf": 0.8})])
def test_implicit_runs_converge_to_the_recursion_at_second_order(method, parameters):
    """The DAE through the one implicit loop against the recursion integrated by RK4 at a
    step far below (its error under 1e-9 m): body positions at t = 0.2 s converge at the
    schemes' second order."""
    from rancf import implicit
    T = 0.2
    dae, x0, v0, r_ref = small_tree_reference(T)
    errors = []
    for dt in (4e-3, 2e-3):
        sol = implicit.integrate(dae, x0, v0, T, dt, method=method, tol=1e-11,
                                 output_every=10 ** 6, **parameters)
        assert sol.status == "ok"
        assert np.abs(sol.violations[:, 0]).max() <= 1e-10
        errors.append(np.abs(dae.poses(sol.q[-1])[0] - r_ref).max())
    assert errors[0] / errors[1] >= 3.4, errors


def test_projection_holds_the_constraints_and_converges():
    """Projection of q, q', q'' (paper eq. 15-17) after every step: the velocity and
    acceleration constraints held to round-off, the positions still at second order."""
    from rancf import implicit
    T = 0.1
    dae, x0, v0, r_ref = small_tree_reference(T)
    errors = []
    for dt in (4e-3, 2e-3):
        sol = implicit.integrate(dae, x0, v0, T, dt, method="generalized-alpha", rho_inf=0.8,
                                 projection=True, tol=1e-11, output_every=1)
        assert sol.status == "ok"
        assert np.abs(sol.violations[:, 1:]).max() <= 1e-9
        errors.append(np.abs(dae.poses(sol.q[-1])[0] - r_ref).max())
    assert errors[0] / errors[1] >= 3.4, errors


# --- closed loops ------------------------------------------------------------------------------
def rsur_four_bar():
    """A spatial RSUR four-bar (Gruebler: 18 - 17 = 1 degree of freedom): a crank on a
    revolute about z, a coupler on a spherical joint at its end, a rocker on a revolute about
    x, the loop closed by a universal joint between coupler and rocker; slender rods, gravity.
    Started at the reference configuration with the crank turning at 3 rad/s, the velocities
    of the other bodies the one-dimensional null space of the constraint Jacobian."""

    def rod(m, L):
        return m * L ** 2 / 12 * np.eye(3) + 1e-3 * np.eye(3)

    A, B, C, D = np.zeros(3), np.array([0.2, 0, 0]), np.array([0.6, 0.3, 0.4]), \
        np.array([0.6, 0.3, 0.0])
    gc, gk = (B + C) / 2, (C + D) / 2
    x, z = np.eye(3)[0], np.eye(3)[2]
    a0 = np.cross(C - B, x)
    a0 /= np.linalg.norm(a0)
    links = [dict(parent=-1, motion=Motion.M_REVOLUTE, mass=1.0, inertia=rod(1.0, 0.2),
                  anchor=A, offset=A - B / 2, axes=(z,)),
             dict(parent=0, motion=Motion.M_SPHERICAL, mass=2.0, inertia=rod(2.0, 0.64),
                  anchor=B - B / 2, offset=B - gc),
             dict(parent=-1, motion=Motion.M_REVOLUTE, mass=1.5, inertia=rod(1.5, 0.4),
                  anchor=D, offset=D - gk, axes=(x,))]
    tree = make_tree(links)
    dae = SpatialDAE(tree, loops=[(1, 2, Motion.M_UNIVERSAL, C - gc, C - gk, np.eye(3), a0, x)])
    x0 = np.concatenate([np.concatenate([r, [1.0, 0, 0, 0]]) for r in tree.r0])
    J = dae.constraint_jacobian(x0, 0.0).toarray()
    null = np.linalg.svd(J)[2][-1]
    v0 = null * 3.0 / dae.velocities(x0, null)[0, 5]
    return dae, x0, v0


def test_spatial_four_bar_holds_its_loop_and_conserves_energy():
    """The RSUR four-bar (passive, gravity only) under Newmark: one degree of freedom (the
    Jacobian's rank is its row count), the loop closed to the Newton tolerance at every output,
    and the energy kept within Newmark's second-order error: the largest relative change of
    kinetic plus potential energy falls by about 4 when the step halves."""
    from rancf import implicit
    dae, x0, v0 = rsur_four_bar()
    J = dae.constraint_jacobian(x0, 0.0).toarray()
    assert J.shape == (20, 21) and np.linalg.matrix_rank(J) == 20
    assert np.abs(dae.constraint(x0, 0.0)).max() == 0.0 and np.abs(J @ v0).max() <= 1e-14

    def energy(q, v):
        return sum(dae.energy(q, v).values())

    E0 = energy(x0, v0)
    drift = []
    for dt in (4e-3, 2e-3):
        sol = implicit.integrate(dae, x0, v0, 0.5, dt, method="newmark", tol=1e-11,
                                 output_every=int(round(0.05 / dt)))
        assert sol.status == "ok"
        assert np.abs(sol.violations[:, 0]).max() <= 1e-9
        drift.append(max(abs(energy(q, v) - E0) for q, v in zip(sol.q, sol.v)) / abs(E0))
    assert drift[1] <= 1e-4 and drift[0] / drift[1] >= 3.0, drift


def test_beam_pinned_at_both_ends_conserves_energy_and_balances_its_reactions():
    """A flexible closed loop: a steel bar of six elements whose first node hangs from the
    ground by a spherical joint and whose last node is joined to the ground by a second one
    (the loop), released straight under gravity. Newmark keeps the loop closed to the Newton
    tolerance and the energy (kinetic, gravity, elastic) within its second-order error; the
    two ground reactions (the loop's from its multipliers) balance the bodies' momentum rate,
    ``R_0 + R_loop = sum m r'' - sum m g``."""
    from rancf import implicit
    from rancf.elements import spatial_beam
    n, L = 6, 1.0
    h = L / n
    C = np.asarray(spatial_beam.section_stiffness(2e8, 8e7, 1e-4, 1e-9, 1e-9, 2e-9))
    m = 7800 * 1e-4 * h
    links = [dict(parent=-1, motion=Motion.M_SPHERICAL, mass=m / 2, inertia=np.eye(3) * 1e-6,
                  anchor=np.zeros(3), offset=np.zeros(3))]
    links += [dict(parent=k - 1, motion=Motion.M_ELEMENT, mass=m if k < n else m / 2,
                   inertia=np.eye(3) * 1e-6, anchor=np.array([h, 0, 0]), offset=np.zeros(3), C=C)
              for k in range(1, n + 1)]
    tree = make_tree(links)
    dae = SpatialDAE(tree, loops=[(-1, n, Motion.M_SPHERICAL, np.array([L, 0, 0]), np.zeros(3),
                                   np.eye(3), np.zeros(3), np.zeros(3))])
    x0 = np.concatenate([np.concatenate([r, [1.0, 0, 0, 0]]) for r in tree.r0])
    v0 = np.zeros_like(x0)

    def energy(q, v):
        return sum(dae.energy(q, v).values())

    drift, sags = [], []
    for dt in (2e-3, 1e-3):
        sol = implicit.integrate(dae, x0, v0, 0.2, dt, method="newmark", tol=1e-11,
                                 output_every=int(round(0.01 / dt)))
        assert sol.status == "ok"
        assert np.abs(sol.violations[:, 0]).max() <= 1e-10
        E = np.array([energy(q, v) for q, v in zip(sol.q, sol.v)])
        kinetic = max(dae.energy(q, v)["kinetic"] for q, v in zip(sol.q, sol.v))
        drift.append(np.abs(E - E[0]).max() / kinetic)
        sags.append(min(q[7 * 3 + 2] for q in sol.q))
    assert sags[1] < -0.02                       # it did sag (4 cm)
    assert drift[1] <= 1e-3 and drift[0] / drift[1] >= 3.0, drift
    a, lam = dae.multipliers(sol.q[-1], sol.v[-1], 0.2)
    R = dae.reactions(sol.q[-1], lam, 0.2)
    assert R.shape == (2, 6)
    balance = tree.mass @ a.reshape(-1, 7)[:, :3] - tree.mass.sum() * tree.gravity
    assert np.abs(R[0, :3] + R[1, :3] - balance).max() <= 1e-9 * np.abs(balance).max()


def test_driven_flexible_four_bar_balances_energy_with_the_drives_work():
    """The RSUR four-bar with its coupler an aluminium beam of three damped elements (a
    spherical joint at the crank, the loop closed by a universal joint at the rocker), the
    crank driven from rest, ``theta = 1.5 t^2``. Newmark holds the loop to the Newton
    tolerance, and the energy balance ``E(t) - E(0) = W_drive + W_loads - W_diss`` (the drive's
    work from its multipliers, ``lambda . Phi_t``, integrated by the loop) closes at second
    order in the step."""
    from rancf import implicit
    from rancf.elements import spatial_beam

    def rod(m, L):
        return m * L ** 2 / 12 * np.eye(3) + 1e-3 * np.eye(3)

    A, B, C, D = np.zeros(3), np.array([0.2, 0, 0]), np.array([0.6, 0.3, 0.4]), \
        np.array([0.6, 0.3, 0.0])
    gk = (C + D) / 2
    x, z = np.eye(3)[0], np.eye(3)[2]
    u = (C - B) / np.linalg.norm(C - B)
    a0 = np.cross(u, x)
    a0 /= np.linalg.norm(a0)
    Rm = np.column_stack([u, a0, np.cross(u, a0)])      # the beam's frame: x along B -> C
    n = 3
    h = np.linalg.norm(C - B) / n
    Cs = np.asarray(spatial_beam.section_stiffness(2e9, 8e8, 1e-4, 8e-10, 8e-10, 1.6e-9))
    mn = 2700 * 1e-4 * h
    Jn = np.diag([1.6e-9, 8e-10, 8e-10]) * 2700 * h + 1e-7 * np.eye(3)
    links = [dict(parent=-1, motion=Motion.M_REVOLUTE, mass=1.0, inertia=rod(1.0, 0.2),
                  anchor=A, offset=A - B / 2, axes=(z,)),
             dict(parent=0, motion=Motion.M_SPHERICAL, mass=mn / 2, inertia=Jn / 2,
                  anchor=B - B / 2, offset=np.zeros(3), relative=Rm)]
    links += [dict(parent=k, motion=Motion.M_ELEMENT, mass=mn if k < n else mn / 2,
                   inertia=Jn, anchor=np.array([h, 0, 0]), offset=np.zeros(3), C=Cs,
                   damping=1e-3) for k in range(1, n + 1)]
    links.append(dict(parent=-1, motion=Motion.M_REVOLUTE, mass=1.5, inertia=rod(1.5, 0.4),
                      anchor=D, offset=D - gk, axes=(x,)))
    tree = make_tree(links)
    assert np.abs(tree.r0[n + 1] - C).max() <= 1e-15
    dae = SpatialDAE(tree, drives={0: lambda t: (1.5 * t ** 2, 3 * t, 3.0)},
                     loops=[(n + 1, n + 2, Motion.M_UNIVERSAL, np.zeros(3), C - gk, Rm.T,
                             Rm.T @ a0, Rm.T @ x)])
    x0 = np.concatenate([np.concatenate([r, quaternion(R)]) for r, R in zip(tree.r0, tree.A0)])
    assert np.abs(dae.constraint(x0, 0.0)).max() <= 1e-15
    J = dae.constraint_jacobian(x0, 0.0).toarray()
    assert np.linalg.matrix_rank(J) == J.shape[0]

    def energy(q, v):
        return sum(dae.energy(q, v).values())

    errors = []
    for dt in (4e-3, 2e-3):
        sol = implicit.integrate(dae, x0, np.zeros_like(x0), 0.3, dt, method="newmark",
                                 tol=1e-11, output_every=int(round(0.05 / dt)))
        assert sol.status == "ok"
        assert np.abs(sol.violations[:, 0]).max() <= 1e-10
        E = np.array([energy(q, v) for q, v in zip(sol.q, sol.v)])
        assert abs(sol.work[-1]) > 1e-3 and sol.dissipated[-1] > 0.0
        errors.append(np.abs(E - E[0] - sol.work + sol.dissipated).max() / abs(sol.work[-1]))
    assert errors[1] <= 1e-3 and errors[0] / errors[1] >= 3.0, errors


def test_tumbling_bodies_turn_through_many_revolutions():
    """Euler parameters need no chart change: a free body with a second body on a spherical
    joint, tumbling at about 15 rad/s (two turns in 0.9 s) without gravity, against the
    recursion (RK4 at 1e-5 s, its rotation vectors re-centred past pi). Under
    generalized-alpha-S (the scheme for a mass matrix that turns with the body) the frames
    converge at second order and the Euler parameters stay unit to the Newton tolerance."""
    from rancf import implicit
    from rancf.integrators import explicit
    links = [dict(parent=-1, motion=Motion.M_FREE, mass=2.0, inertia=np.diag([0.02, 0.05, 0.08]),
                  anchor=np.zeros(3), offset=np.zeros(3)),
             dict(parent=0, motion=Motion.M_SPHERICAL, mass=0.5,
                  inertia=np.diag([0.004, 0.002, 0.003]), anchor=np.array([0.1, 0.05, 0.0]),
                  offset=np.array([-0.1, 0.0, 0.02]))]
    tree = make_tree(links, gravity=(0.0, 0.0, 0.0))
    rec, dae = Spatial(tree), SpatialDAE(tree)
    qd = np.array([0.1, 0.0, -0.2, 12.0, -8.0, 5.0, 3.0, -2.0, 1.0])
    y0 = rec.initial_state(qd=qd)
    T = 0.9
    ref = explicit.integrate(rec.kernel, y0, np.array([0.0, T]), 1e-5, "rk4", 1e-12, 1e-12, 1e3)
    _, A_ref, _ = rec.kinematics(ref.y[-1])
    x0, v0 = dae.state_of(y0)
    errors = []
    for dt in (4e-3, 2e-3):
        sol = implicit.integrate(dae, x0, v0, T, dt, method="generalized-alpha-s", rho_inf=0.9,
                                 tol=1e-12, output_every=10 ** 6)
        assert sol.status == "ok"
        p = sol.q[-1].reshape(-1, 7)[:, 3:]
        assert np.abs(np.einsum("ni,ni->n", p, p) - 1.0).max() <= 1e-10
        errors.append(np.abs(dae.poses(sol.q[-1])[1] - A_ref).max())
    assert errors[1] <= 2e-3 and errors[0] / errors[1] >= 3.6, errors


def test_one_blas_thread_holds_while_any_run_in_any_thread_is_inside(monkeypatch):
    """Two runs in two threads overlap (the first leaves while the second is inside): BLAS
    keeps one thread until the last leaves, then has its former count again. The library is a
    stand-in whose count is one number for the process, as a BLAS's is (the real libraries in
    a worker thread: tests/test_reliability_spatial.py)."""
    import threading

    from rancf.formulations import spatial_dae

    class Library:
        num_threads = 4

        def set_num_threads(self, n):
            Library.num_threads = n

    monkeypatch.setattr(spatial_dae, "_BLAS", [[Library()]])
    inside, first_left, seen = threading.Event(), threading.Event(), []

    def second():
        with spatial_dae.one_blas_thread():
            inside.set()
            first_left.wait(10.0)
            seen.append(Library.num_threads)

    with spatial_dae.one_blas_thread():
        thread = threading.Thread(target=second)
        thread.start()
        assert inside.wait(10.0)
        assert Library.num_threads == 1
    first_left.set()
    thread.join(10.0)
    assert seen == [1] and Library.num_threads == 4
