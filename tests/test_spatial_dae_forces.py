"""Efforts and spring-dampers in the spatial DAE (rancf.formulations.spatial_dae) against
independent references: the O(n) recursion of the same tree (accelerations at random states,
DECISIONS 7), central differences of the force (Newton's matrix terms), and on a closed loop the
energy balance with the efforts' work, the springs' potential and their dissipation."""
import dataclasses

import numpy as np
import pytest

import rancf
from rancf.formulations import spatial
from rancf.formulations.spatial import Spatial
from rancf.formulations.spatial_dae import SpatialDAE
from rancf.joints._codes import Motion
from test_spatial_dae import central
from validation.spatial_trees import ALL, random_tree, recursion_accelerations
from validation.spherical_four_bar import SphericalFourBar

#: an effort's size per joint kind (the recursion's generalized forces; fixed and element: none)
SIZES = {Motion.M_REVOLUTE: 1, Motion.M_PRISMATIC: 1, Motion.M_CYLINDRICAL: 2,
         Motion.M_UNIVERSAL: 2, Motion.M_SPHERICAL: 3, Motion.M_FREE: 6}


def forced_tree(seed):
    """A random tree of every joint kind with an effort on every joint that takes one (one of
    them a function of the joint's coordinates and rates), spring-dampers between random points
    (body to body and ground to body) and joint spring-dampers on its revolute, prismatic and
    spherical joints (these with random rest rotations)."""
    rng = np.random.default_rng(seed)
    tree = random_tree(rng, ALL)
    joints = [int(b) for b in tree.joint_body]
    efforts = {}
    for j, b in enumerate(joints):
        k = SIZES.get(Motion(int(tree.motion[b])), 0)
        if k:
            efforts[j] = rng.standard_normal(k) if k > 1 else float(rng.standard_normal())
    revolute = next(j for j, b in enumerate(joints) if tree.motion[b] == Motion.M_REVOLUTE)
    a, c = rng.standard_normal(2)
    efforts[revolute] = lambda t, q, qd: a * np.sin(q) + c * qd + t
    spherical = next(j for j, b in enumerate(joints) if tree.motion[b] == Motion.M_SPHERICAL)
    w = rng.standard_normal(3)
    efforts[spherical] = lambda t, q, qd: np.cross(w, q) - 0.3 * qd
    n = tree.n_bodies
    body = np.array([[-1, 2], [0, 5], [3, 8], [-1, n - 1]])
    offset = rng.standard_normal((len(body), 2, 3))
    law = np.column_stack([rng.uniform(5, 50, len(body)), rng.uniform(0.1, 2, len(body)),
                           rng.uniform(0.2, 1.5, len(body))])
    sprung = [b for b in joints if tree.motion[b] in (Motion.M_REVOLUTE, Motion.M_PRISMATIC,
                                                       Motion.M_SPHERICAL)]
    ball = np.array([tree.motion[b] == Motion.M_SPHERICAL for b in sprung])
    jlaw = np.column_stack([rng.uniform(5, 50, len(sprung)), rng.uniform(0.1, 2, len(sprung)),
                            np.where(ball, 0.0, rng.uniform(-0.5, 0.5, len(sprung)))])
    rest = np.where(ball[:, None], rng.uniform(-1.0, 1.0, (len(sprung), 3)), 0.0)
    assert ball.any()
    tree = dataclasses.replace(tree, spring_body=body, spring_offset=offset, spring_law=law,
                               joint_spring_body=np.array(sprung), joint_spring_law=jlaw,
                               joint_spring_rest=rest)
    return rng, tree, efforts


def every_kind_probed(seed):
    """A random tree of every joint kind, an effort function on every joint that takes an
    effort (each a function of its joint's coordinates and rates, ``K q + C qd`` with random
    K, C, plus t), the DAE and its recursion of it."""
    rng = np.random.default_rng(seed)
    tree = random_tree(rng, ALL)
    efforts = {}
    for j, b in enumerate(np.asarray(tree.joint_body, dtype=int)):
        k = SIZES.get(Motion(int(tree.motion[b])), 0)
        if k:
            K, C = rng.standard_normal((2, k, k))
            efforts[j] = (lambda t, q, qd, K=K, C=C: K @ q + C @ qd + t) if k > 1 else \
                (lambda t, q, qd, a=K[0, 0], c=C[0, 0]: a * q + c * qd + t)
    return rng, tree, efforts


@pytest.mark.parametrize("make", [forced_tree, every_kind_probed])
@pytest.mark.parametrize("seed", range(4))
def test_efforts_and_springs_give_the_recursions_accelerations(make, seed):
    """Constant efforts on every kind (a spherical joint's torque, a free joint's force and
    torque in the parent's frame, two-coordinate joints' generalized forces), effort functions
    of (t, q, qd), spring-dampers between points and on joints (``forced_tree``), or effort
    functions on every joint that takes an effort, spherical and free joints' of their rotation
    vectors and rates among them (``every_kind_probed``): at the recursion's state mapped to
    absolute coordinates the DAE's body accelerations and joint reactions equal the
    recursion's."""
    rng, tree, efforts = make(seed)
    rec, dae = Spatial(tree, efforts=efforts), SpatialDAE(tree, efforts=efforts)
    t = 0.3
    y = np.concatenate([rng.uniform(-1.2, 1.2, tree.n_q), rng.uniform(-2, 2, tree.n_q)])
    acc, reactions = recursion_accelerations(rec, t, y)
    x, v = dae.state_of(y, t)
    a, lam = dae.multipliers(x, v, t)
    assert np.abs(dae.accelerations(x, v, a) - acc).max() <= 1e-10 * np.abs(acc).max()
    assert np.abs(dae.reactions(x, lam, t) - reactions).max() \
        <= 1e-10 * np.abs(reactions).max()
    # and the energies: the springs' potential is the recursion's elastic energy
    rec.kinematics(y)
    e_rec, e_dae = rec.energy(y), dae.energy(x, v)
    for name in ("kinetic", "gravity", "elastic"):
        assert abs(e_dae[name] - e_rec[name]) <= 1e-12 * max(1.0, abs(e_rec[name]))


def test_force_tangents_equal_central_differences():
    """Newton's stiffness ``-dF/dx`` and damping ``-dF/dv`` with the efforts (values held:
    constants here) and spring-dampers, against central differences of the whole force."""
    rng, tree, efforts = forced_tree(7)
    joints = np.asarray(tree.joint_body)
    efforts = {j: (e if not callable(e) else
                   0.7 * np.ones(SIZES[Motion(int(tree.motion[joints[j]]))]))
               for j, e in efforts.items()}
    dae = SpatialDAE(tree, efforts=efforts)
    y = np.concatenate([rng.uniform(-1, 1, tree.n_q), rng.uniform(-1, 1, tree.n_q)])
    x, v = dae.state_of(y)
    t, h = 0.1, 1e-6
    pairs = ((dae.stiffness(x, v, t), -central(lambda z: dae.force(z, v, t), x, h)),
             (dae.damping(x, v, t), -central(lambda w: dae.force(x, w, t), v, h)))
    for matrix, expected in pairs:
        assert np.abs(matrix.toarray() - expected).max() <= 1e-7 * np.abs(expected).max()



@pytest.mark.parametrize("make", [forced_tree, every_kind_probed])
def test_newton_matrix_of_the_force_items_equals_central_differences(make):
    """The compiled Newton matrix's force part, ``c_k K + c_c C`` (the items' blocks by the
    compiled central differences in their bodies' states, and the effort functions' own
    slopes through their joints' coordinates: ``SpatialDAE._effort_tangents``), against
    central differences of the whole compiled force, the functions called (``sin q`` on a
    revolute, affine on every joint kind), in x and v (steps 1e-6); the Python reference
    (``stiffness``, ``damping``) likewise. Constant efforts and spring-dampers on every joint
    kind."""
    rng, tree, efforts = make(11)
    dae = SpatialDAE(tree, efforts=efforts)
    y = np.concatenate([rng.uniform(-1, 1, tree.n_q), rng.uniform(-1, 1, tree.n_q)])
    x, v = dae.state_of(y)
    t, h, n = 0.1, 1e-6, dae.n_coordinates
    zero = np.zeros(n)
    for c_k, c_c, moved, reference in ((1.0, 0.0, 0, dae.stiffness),
                                       (0.0, 1.0, 1, dae.damping)):
        S = dae.newton_matrix(x, zero, np.zeros(dae.n_constraints), v, t, x, t, 0.0, 0.0, c_k,
                              c_c, 0.0, factor=False).toarray()[:n, :n]
        f = (lambda z: dae.force(z, v, t)) if moved == 0 else (lambda w: dae.force(x, w, t))
        expected = -central(f, (x, v)[moved], h)
        for found in (S, reference(x, v, t).toarray()):
            assert np.abs(found - expected).max() <= 1e-6 * np.abs(expected).max()


# --- closed loops: the spherical four-bar -----------------------------------------------------
def four_bar(loop_at_rocker, effort=None, springs=True, gravity=(0.0, 0.0, -9.81),
             crank_effort=None):
    """The rigid spherical four-bar (validation/spherical_four_bar.py) without its drive: the
    crank's revolute A with a joint spring-damper, a spring-damper from the ground to the
    coupler, and ``effort`` on the rocker's revolute D, which closes the loop
    (``loop_at_rocker``: joints A, B, C, D) or is a joint of the tree (A, B, D, C: the universal
    C closes it); ``crank_effort`` on A. Returns the model and the joints A and D."""
    fb = SphericalFourBar()
    m = rancf.Model(dim=3, gravity=gravity)
    P = fb.P

    def rod(mass, p, q):
        L = np.linalg.norm(P[q] - P[p])
        e = (P[q] - P[p]) / L
        J = mass * L ** 2 / 12 * (np.eye(3) - np.outer(e, e)) + 1e-4 * np.eye(3)
        return m.add_rigid_body(mass, J, position=(P[p] + P[q]) / 2)

    crank, coupler, rocker = rod(1.0, "A", "B"), rod(1.5, "B", "C"), rod(1.2, "D", "C")
    at = lambda body, k: body.point(*(P[k] - body.position))
    a = m.add_joint("revolute", m.ground.point(*P["A"]), at(crank, "A"), axis=fb.uA,
                    effort=crank_effort)
    m.add_joint("spherical", at(crank, "B"), at(coupler, "B"))

    def rocker_joint():
        return m.add_joint("revolute", m.ground.point(*P["D"]), at(rocker, "D"), axis=fb.uD,
                           effort=effort)

    def universal():
        m.add_joint("universal", at(coupler, "C"), at(rocker, "C"), axes=[fb.uC, fb.a_universal])

    if loop_at_rocker:
        universal()
        d = rocker_joint()
    else:
        d = rocker_joint()
        universal()
    if springs:
        m.add_rotational_spring_damper(a, k=3.0, c=0.05, rest_angle=0.4)
        m.add_spring_damper(m.ground.point(0.3, -0.2, 0.6), coupler.centre, k=40.0, c=0.3,
                            rest_length=0.3)
    return m, a, d


def test_effort_on_a_loop_closing_joint_acts_as_on_a_tree_joint():
    """The same mechanism, forces and state, the rocker's revolute closing the loop or in the
    tree (another joint closing it): an effort function of the rocker's angle and rate there
    gives the same body accelerations (to 1e-10) and the same reaction of the rocker joint,
    which holds nothing about its axis: the effort is an applied force."""
    effort = lambda t, q, qd: 2.0 + 0.5 * np.sin(3 * q) - 0.3 * qd + t
    models = [four_bar(loop, effort) for loop in (False, True)]
    daes = [SpatialDAE(m.build(), *spatial.model_inputs(m)) for m, _, _ in models]
    tree_dae, loop_dae = daes
    assert len(models[1][0].build().loop_joint) == 1 \
        and models[1][0].build().loop_joint[0] == models[1][2].index
    rng = np.random.default_rng(3)
    x, v = tree_dae.initial_state()
    # a moving state off the reference: the rows restored by Gauss-Newton, the velocities
    # projected on them
    x, v = tree_dae.consistent_state(x + 0.02 * rng.standard_normal(x.size),
                                     rng.standard_normal(x.size), 0.2)
    assert np.abs(v).max() > 0.1
    # the state holds both models' rows
    assert np.abs(loop_dae.constraint(x, 0.2)).max() <= 1e-12
    assert np.abs(loop_dae.constraint_jacobian(x, 0.2) @ v).max() <= 1e-12
    out = [dae.multipliers(x, v, 0.2) for dae in daes]
    acc = [dae.accelerations(x, v, a) for dae, (a, _) in zip(daes, out)]
    assert np.abs(acc[0] - acc[1]).max() <= 1e-10 * np.abs(acc[0]).max()
    # the rocker joint's full reaction is the same in both; the effort on its angle is an
    # applied force, not part of it (Result.reaction): a revolute's rows hold no moment about
    # its axis, so the reaction has none there (round-off), though the effort is not zero
    fb = SphericalFourBar()
    R = [dae.reactions(x, lam, 0.2)[m[2].index] for dae, (_, lam), m in zip(daes, out, models)]
    scale = np.abs(R[0]).max()
    assert np.abs(R[1] - R[0]).max() <= 1e-10 * scale
    q, qd = loop_dae.joint_coordinates(x, v)
    jq = loop_dae._jq_start[models[1][2].index]
    assert abs(effort(0.2, q[jq], qd[jq])) > 1.0
    assert max(abs(r[3:] @ fb.uD) for r in R) <= 1e-12 * scale


def test_four_bar_with_efforts_and_springs_balances_energy():
    """The four-bar moved by an effort function on its loop-closing revolute, with a joint
    spring-damper and a spring-damper between points, from rest over 0.5 s: kinetic + gravity +
    the springs' potential - the effort's work + the damping's dissipation constant to
    Newmark's second order (its largest change falls by about 4 when the step halves), the loop
    held to the Newton tolerance."""
    m, a, d = four_bar(True, lambda t, q, qd: 8.0 * np.cos(2 * t) - 0.2 * q)
    drift = []
    for dt in (4e-3, 2e-3):
        res = rancf.simulate(m, 0.5, dt, method="newmark", output_every=int(round(0.02 / dt)),
                             tol=1e-11)
        assert res.status == "ok" and res.formulation == "dae"
        assert np.abs(res.extra["constraint_violation"][:, 0]).max() <= 1e-10
        e = res.energy()
        assert np.abs(e.work).max() > 1.0 and e.dissipated.iloc[-1] > 0.1 \
            and np.ptp(e.elastic) > 1.0
        scale = np.abs(e.work).max()
        drift.append(np.abs(e.total - e.total.iloc[0]).max() / scale)
    assert drift[1] <= 1e-3 and drift[0] / drift[1] >= 3.4, drift


def test_static_four_bar_balances_its_effort_by_the_closed_form_transmission():
    """Statics without gravity: a torque tau on the rocker's revolute D (closing the loop)
    against a torsion spring k on the crank's revolute A (rest angle 0). Virtual work with the
    crank angle theta as the coordinate: ``k theta = tau dphi/dtheta`` at the equilibrium, the
    transmission ``dphi/dtheta`` by central differences of the closed-form output phi(theta)
    (validation/spherical_four_bar.py), and the rocker's angle phi(theta) itself; the
    revolutes' reactions hold no moment about their axes (the effort and the spring are
    applied forces)."""
    fb = SphericalFourBar()
    tau, k = 0.8, 2.0
    m, a, d = four_bar(True, tau, springs=False, gravity=(0.0, 0.0, 0.0))
    m.add_rotational_spring_damper(a, k=k, rest_angle=0.0)
    eq = rancf.static(m)
    assert eq.status == "ok"
    theta, phi = float(eq.joint(a)[0][0]), float(eq.joint(d)[0][0])
    assert abs(theta) > 0.05                                   # the torque moved it
    assert abs(phi - fb.output([theta])[0]) <= 1e-9
    h = 1e-5
    slope = (fb.output([theta + h])[0] - fb.output([theta - h])[0]) / (2 * h)
    assert abs(k * theta - tau * slope) <= 1e-8 * abs(k * theta)
    # the effort on D and the spring on A are applied forces, not part of the joints'
    # reactions (Result.reaction): neither revolute holds a moment about its axis
    for joint in (d, a):
        scale = np.abs(eq.reaction(joint)).max()
        assert scale > 0.1 and abs(eq.reaction(joint, "torque")[0]) <= 1e-12 * scale


def test_a_spring_damper_at_a_cable_point_is_refused_by_the_dae():
    """The recursion runs it; the DAE names the spring-damper and what to do."""
    m = rancf.Model(dim=3)
    c = m.add_beam(1.0, 4, E=1e6, rho=100.0, A=1e-4, I=1e-9, element="ancf-cable",
                   direction=(1, 0, 0))
    m.add_joint("spherical", m.ground.point(0, 0, 0), c.start)
    m.add_spring_damper(m.ground.point(1, 0, 1), c.end, k=10.0)
    with pytest.raises(ValueError, match="spring-dampers at a cable point.*spring-damper 0"):
        rancf.simulate(m, 0.01, 1e-3, method="newmark", formulation="dae")


@pytest.mark.parametrize("joint_spring", [False, True])
def test_mass_on_a_spring_in_the_dae_follows_the_analytic_damped_motion(joint_spring):
    """The mass on a rail of tests/test_spatial_springs.py (k = 200 N/m, c = 2 N s/m, 2 kg) on
    the DAE: the slide against the analytic damped oscillation over 2 s to generalized-alpha's
    second-order error at 1 ms (the recursion's bound there), the springs' potential in
    ``elastic``."""
    from test_spatial_springs import damped_oscillation, mass_on_rail
    k, c = 200.0, 2.0
    m, rail = mass_on_rail(k, c, joint_spring)
    res = rancf.simulate(m, t_end=2.0, dt=1e-3, method="generalized-alpha", formulation="dae")
    assert res.status == "ok" and res.formulation == "dae"
    q = res.joint(rail)[0].ravel()
    assert np.abs(q - damped_oscillation(res.t, k, c)).max() < 2e-4
    E = res.energy()
    np.testing.assert_allclose(E["elastic"], 0.5 * k * (q + 0.1) ** 2, rtol=1e-9, atol=1e-12)
    balance = E["kinetic"] + E["elastic"] + E["dissipated"] - E["work"]
    assert np.abs(balance - balance[0]).max() < 1e-4


def test_a_driven_loop_closing_joint_acts_as_the_driven_tree_joint():
    """The rigid four-bar driven at its crank's revolute A (validation/spherical_four_bar.py)
    with A the loop's closing joint (joints D, C, B written from the rocker's side, then A):
    at a consistent moving state the drive's rheonomic rows give the body accelerations and the
    motor torque of the same four-bar with A in the tree (1e-10); a run follows the closed form
    (the rocker's angle to 1e-9 rad), and the motor's torque times the drive's rate integrates
    to the work of the drive's rows."""
    fb = SphericalFourBar()
    m_tree, a_tree, _, _ = fb.rigid()
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -9.81))
    P = fb.P

    def rod(mass, p, q):
        L = np.linalg.norm(P[q] - P[p])
        e = (P[q] - P[p]) / L
        J = mass * L ** 2 / 12 * (np.eye(3) - np.outer(e, e)) + 1e-4 * np.eye(3)
        return m.add_rigid_body(mass, J, position=(P[p] + P[q]) / 2)

    crank, coupler, rocker = rod(1.0, "A", "B"), rod(1.5, "B", "C"), rod(1.2, "D", "C")
    at = lambda body, k: body.point(*(P[k] - body.position))
    d = m.add_joint("revolute", m.ground.point(*P["D"]), at(rocker, "D"), axis=fb.uD)
    m.add_joint("universal", at(rocker, "C"), at(coupler, "C"), axes=[fb.uC, fb.a_universal])
    m.add_joint("spherical", at(coupler, "B"), at(crank, "B"))
    a = m.add_joint("revolute", m.ground.point(*P["A"]), at(crank, "A"), axis=fb.uA,
                    drive=fb.drive)
    assert list(m.build().loop_joint) == [a.index]
    daes = [SpatialDAE(model.build(), *spatial.model_inputs(model)) for model in (m_tree, m)]
    rng = np.random.default_rng(4)
    t = 0.37
    x0, v0 = daes[0].initial_state()
    x0, v0 = daes[0].consistent_state(x0 + 0.05 * rng.standard_normal(x0.size),
                                      rng.standard_normal(x0.size), t)
    # the second tree numbers its bodies in another order (rocker, coupler, crank)
    order = np.argsort(m.build().rigid_body)
    body = np.asarray(m_tree.build().rigid_body)[order]
    x, v = (z.reshape(-1, 7)[body].ravel() for z in (x0, v0))
    assert np.abs(daes[1].constraint(x, t)).max() <= 1e-12
    assert np.abs(daes[1].constraint_jacobian(x, t) @ v + daes[1].velocity_bias(x, t)).max() \
        <= 1e-12
    out = [daes[0].multipliers(x0, v0, t), daes[1].multipliers(x, v, t)]
    acc = [daes[0].accelerations(x0, v0, out[0][0])[body],
           daes[1].accelerations(x, v, out[1][0])]
    assert np.abs(acc[1] - acc[0]).max() <= 1e-10 * np.abs(acc[0]).max()
    torque = [dae.reactions(y, lam, t)[j.index, 3:] @ fb.uA
              for dae, y, (_, lam), j in zip(daes, (x0, x), out, (a_tree, a))]
    assert abs(torque[0]) > 1.0 and abs(torque[1] - torque[0]) <= 1e-10 * abs(torque[0])
    res = rancf.simulate(m, 1.0, 2e-2, method="newmark", output_every=1, tol=1e-11)
    assert res.status == "ok" and res.formulation == "dae"
    assert np.abs(res.extra["constraint_violation"][:, 0]).max() <= 1e-10
    theta, phi = res.joint(a)[0], res.joint(d)[0]
    assert np.abs(theta - fb.drive(res.t)[0]).max() <= 1e-9
    assert np.ptp(phi) > 0.8 and np.abs(phi - fb.output(theta)).max() <= 1e-9
    # the motor's work, its torque times the drive's rate (trapezoidal rule at the outputs),
    # is the work the loop integrated (lambda . Phi_t)
    work = np.trapezoid(res.reaction(a, "torque") * fb.drive(res.t)[1], res.t)
    assert work > 1.0 and abs(work - res.energy().work.iloc[-1]) <= 1e-3 * work


# --- effort functions on joints of several coordinates ----------------------------------------
@pytest.mark.parametrize("seed", range(3))
def test_joint_values_of_every_kind_are_the_recursions_coordinates(seed):
    """The compiled joint coordinates and rates an effort function gets (every kind) at the
    recursion's state mapped to absolute coordinates are that state's own joint coordinates
    and rates (the rotation vector's rate, not the angular velocity, for spherical and free
    joints); off the manifold (Newton's iterates, Euler parameters of any norm) they are
    :meth:`SpatialDAE.joint_coordinates`' map and its derivative along the velocity (its
    seven-point stencil) for the kinds whose rate is that derivative there."""
    rng, tree, efforts = every_kind_probed(seed)
    dae = SpatialDAE(tree, efforts=efforts)
    qo = np.asarray(tree.q_offset)
    y = np.concatenate([rng.uniform(-1.0, 1.0, tree.n_q), rng.uniform(-2, 2, tree.n_q)])
    x, v = dae.state_of(y, 0.2)
    d = dae._probe
    c, cd = dae._joint_values(*dae._item_states(x, v, d), d)
    joints = sorted(efforts)
    for r, j in enumerate(joints):
        b = int(tree.joint_body[j])
        s = slice(int(qo[b]), int(qo[b + 1]))
        k = s.stop - s.start
        assert np.abs(c[r, :k] - y[s]).max() <= 1e-12
        assert np.abs(cd[r, :k] - y[tree.n_q:][s]).max() <= 1e-11
    x = x + 0.1 * rng.standard_normal(x.size)
    v = rng.standard_normal(v.size)
    c, cd = dae._joint_values(*dae._item_states(x, v, d), d)
    jq, jqd = dae.joint_coordinates(x, v)
    exact = (Motion.M_PRISMATIC, Motion.M_UNIVERSAL, Motion.M_SPHERICAL, Motion.M_FREE)
    for r, j in enumerate(joints):
        m = Motion(int(d["motion"][r]))
        k = SIZES[m]
        at = slice(int(dae._jq_start[j]), int(dae._jq_start[j]) + k)
        assert np.abs(c[r, :k] - jq[at]).max() <= 1e-12
        if m in exact:
            assert np.abs(cd[r, :k] - jqd[at]).max() <= 1e-8 * max(1.0, np.abs(jqd[at]).max())


def spherical_free_pendulum():
    """Two bodies: a spherical joint to the ground and a free joint between them, each with
    an effort function of its joint's coordinates and rates (a rotational spring-damper with
    a timed torque; a six-coordinate spring-damper)."""
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -9.81))
    a = m.add_rigid_body(1.0, np.diag([0.02, 0.03, 0.04]), position=(0.0, 0.0, -0.5))
    b = m.add_rigid_body(0.5, np.diag([0.01, 0.012, 0.015]), position=(0.3, 0.0, -0.9))
    K = np.diag([3.0, 4.0, 5.0])
    Kf = np.diag([200.0, 250.0, 300.0, 2.0, 3.0, 4.0])
    m.add_joint("spherical", m.ground.point(0, 0, 0), a.point(0, 0, 0.5),
                effort=lambda t, q, qd: -K @ q - 0.05 * qd + [0.5 * np.sin(3 * t), 0.0, 0.2])
    m.add_joint("free", a.point(0.3, 0, -0.4), b.point(0, 0, 0),
                effort=lambda t, q, qd: -Kf @ q - 0.1 * qd)
    return m


def test_spherical_and_free_effort_functions_follow_the_recursion_at_second_order():
    """The same model run by the recursion and by the DAE (Newmark, trapezoidal: second order
    on both): the bodies' poses converge to each other at the scheme's order (the largest
    difference over 0.5 s falls by about 4 when the step halves)."""
    gaps = []
    for dt in (4e-3, 2e-3, 1e-3):
        runs = [rancf.simulate(spherical_free_pendulum(), 0.5, dt, method="newmark",
                               formulation=f, tol=1e-11, output_every=int(round(0.05 / dt)))
                for f in ("recursive", "dae")]
        assert all(r.status == "ok" for r in runs) and runs[1].formulation == "dae"
        gaps.append(np.abs(runs[0].nodes - runs[1].nodes).max())
    assert gaps[-1] <= 1e-6 and gaps[0] / gaps[1] >= 3.0 and gaps[1] / gaps[2] >= 3.5, gaps


# --- joint spring-dampers on joints that close loops ------------------------------------------
def test_spring_on_a_loop_closing_joint_acts_as_on_a_tree_joint():
    """A joint spring-damper on the four-bar's rocker revolute D, D closing the loop or in the
    tree (the universal C closing it): at a consistent moving state the same body
    accelerations (1e-10), the same reaction of D (none of it about D's axis: the spring is an
    applied force), and the same spring potential."""
    models = []
    for loop in (False, True):
        m, a, d = four_bar(loop, springs=False)
        m.add_rotational_spring_damper(d, k=6.0, c=0.4, rest_angle=0.3)
        models.append((m, d))
    assert list(models[1][0].build().loop_joint) == [models[1][1].index]
    assert list(models[1][0].build().loop_spring_joint) == [models[1][1].index]
    daes = [SpatialDAE(m.build(), *spatial.model_inputs(m)) for m, _ in models]
    rng = np.random.default_rng(8)
    x, v = daes[0].initial_state()
    x, v = daes[0].consistent_state(x + 0.05 * rng.standard_normal(x.size),
                                    rng.standard_normal(x.size), 0.1)
    assert np.abs(daes[1].constraint(x, 0.1)).max() <= 1e-12
    out = [dae.multipliers(x, v, 0.1) for dae in daes]
    acc = [dae.accelerations(x, v, a) for dae, (a, _) in zip(daes, out)]
    assert np.abs(acc[0] - acc[1]).max() <= 1e-10 * np.abs(acc[0]).max()
    # D's full reaction the same in both, none of it about D's axis: the spring is an applied
    # force (Result.reaction), and a revolute's rows hold no moment about its axis
    fb = SphericalFourBar()
    R = [dae.reactions(x, lam, 0.1)[d.index] for dae, (_, lam), (_, d) in zip(daes, out, models)]
    scale = np.abs(R[0]).max()
    assert np.abs(R[1] - R[0]).max() <= 1e-10 * scale
    assert max(abs(r[3:] @ fb.uD) for r in R) <= 1e-12 * scale
    q, qd = daes[1].joint_coordinates(x, v)
    at = daes[1]._jq_start[models[1][1].index]
    energies = [dae.energy(x, v)["elastic"] for dae in daes]
    assert abs(energies[1] - 0.5 * 6.0 * (q[at] - 0.3) ** 2) <= 1e-12 \
        and abs(energies[0] - energies[1]) <= 1e-12


def test_four_bar_swinging_on_a_loop_spring_balances_energy():
    """The four-bar released under gravity with a damped torsion spring on its loop-closing
    revolute D: kinetic + gravity + the spring's potential + its dissipation constant to
    Newmark's second order (the largest change falls by about 4 when the step halves)."""
    m, a, d = four_bar(True, springs=False)
    m.add_rotational_spring_damper(d, k=8.0, c=0.1, rest_angle=0.5)
    drift = []
    for dt in (4e-3, 2e-3):
        res = rancf.simulate(m, 0.5, dt, method="newmark", output_every=int(round(0.02 / dt)),
                             tol=1e-11)
        assert res.status == "ok" and res.formulation == "dae"
        e = res.energy()
        assert e.dissipated.iloc[-1] > 1e-3 and np.ptp(e.elastic) > 0.1
        scale = np.ptp(e.kinetic)
        drift.append(np.abs(e.total - e.total.iloc[0]).max() / scale)
    assert drift[1] <= 1e-3 and drift[0] / drift[1] >= 3.4, drift


def test_static_four_bar_holds_a_crank_torque_by_a_loop_spring():
    """Statics without gravity: a torque tau on the crank's revolute A (a tree joint) against
    a torsion spring k on the rocker's revolute D, which closes the loop: virtual work with the
    crank angle theta as the coordinate, ``tau = k phi dphi/dtheta`` at the equilibrium, phi
    the closed-form output phi(theta) (validation/spherical_four_bar.py) and its slope by
    central differences."""
    fb = SphericalFourBar()
    tau, k = 0.6, 3.0
    m, a, d = four_bar(True, springs=False, gravity=(0.0, 0.0, 0.0), crank_effort=tau)
    m.add_rotational_spring_damper(d, k=k, rest_angle=0.0)
    eq = rancf.static(m)
    assert eq.status == "ok"
    theta, phi = float(eq.joint(a)[0][0]), float(eq.joint(d)[0][0])
    assert abs(theta) > 0.05
    assert abs(phi - fb.output([theta])[0]) <= 1e-9
    h = 1e-5
    slope = (fb.output([theta + h])[0] - fb.output([theta - h])[0]) / (2 * h)
    assert abs(tau - k * phi * slope) <= 1e-8 * tau


def tree_and_loop_accelerations(tree_model, loop_model, y):
    """The body accelerations (n, 6) of ``tree_model`` by the recursion at its state y (t = 0)
    and of ``loop_model`` (the same bodies, one of the tree's joints closing a loop beside a
    free joint) by the spatial DAE at the same state; and that DAE with its state (x, v)."""
    acc, _ = recursion_accelerations(spatial.of_model(tree_model), 0.0, y)
    x, v = SpatialDAE(tree_model.build(), *spatial.model_inputs(tree_model)).state_of(y, 0.0)
    dae = SpatialDAE(loop_model.build(), *spatial.model_inputs(loop_model))
    a, _ = dae.multipliers(x, v, 0.0)
    return acc, dae.accelerations(x, v, a), (dae, x, v)


def spring_pendulum(loop):
    """A rigid pendulum on a revolute joint with a joint spring-damper under gravity; with
    ``loop`` the body also hangs from the ground by a free joint (no rows), so the revolute,
    with its spring, closes a loop that leaves the same motion."""
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -9.81))
    b = m.add_rigid_body(1.5, np.diag([0.02, 0.05, 0.04]), position=(0.4, 0.1, -0.3))
    axis = np.array([0.3, 1.0, 0.2]) / np.linalg.norm([0.3, 1.0, 0.2])
    if loop:
        m.add_joint("free", m.ground.point(0.4, 0.1, -0.3), b.centre)
    j = m.add_joint("revolute", m.ground.point(0, 0, 0), b.point(-0.4, -0.1, 0.3), axis=axis)
    m.add_rotational_spring_damper(j, k=7.0, c=0.3, rest_angle=0.4)
    return m, j


def test_spring_on_a_loop_closing_joint_follows_the_recursion():
    """The pendulum's revolute with its spring-damper in the tree (the recursion) or closing a
    loop beside a free joint (the DAE): the same body accelerations at a state (1e-10), and
    runs (Newmark) whose angles converge to each other at second order."""
    (mt, jt), (ml, jl) = spring_pendulum(False), spring_pendulum(True)
    tree = ml.build()
    assert list(tree.loop_joint) == [jl.index] and list(tree.loop_spring_joint) == [jl.index]
    acc, closed, _ = tree_and_loop_accelerations(mt, ml, np.array([0.9, -2.3]))
    assert np.abs(closed - acc).max() <= 1e-10 * np.abs(acc).max()
    gaps = []
    for dt in (2e-3, 1e-3):
        runs = [rancf.simulate(m, 1.0, dt, method="newmark", formulation=f, tol=1e-12,
                               output_every=int(round(0.02 / dt)))
                for m, f in ((mt, "recursive"), (ml, "dae"))]
        assert runs[1].formulation == "dae" and np.ptp(runs[0].joint(jt)[0]) > 0.5
        gaps.append(np.abs(runs[0].joint(jt)[0] - runs[1].joint(jl)[0]).max())
    assert gaps[1] <= 1e-5 and gaps[0] / gaps[1] >= 3.4, gaps


# --- angles past half a turn (DECISIONS 4: joint coordinates are continuous) ------------------
def turning_pendulum(loop, by_effort, rest_angle=4.0):
    """:func:`spring_pendulum` without gravity or damping, its spring at the rest angle 4 rad
    (past pi: the body swings from 0 through +-pi to about 8 rad), given as a rotational
    spring-damper or (``by_effort``) as the effort function ``-k (q - q0)`` of the angle."""
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, 0.0))
    b = m.add_rigid_body(1.5, np.diag([0.02, 0.05, 0.04]), position=(0.4, 0.1, -0.3))
    axis = np.array([0.3, 1.0, 0.2]) / np.linalg.norm([0.3, 1.0, 0.2])
    if loop:
        m.add_joint("free", m.ground.point(0.4, 0.1, -0.3), b.centre)
    effort = (lambda t, q, qd: -7.0 * (q - rest_angle)) if by_effort else None
    j = m.add_joint("revolute", m.ground.point(0, 0, 0), b.point(-0.4, -0.1, 0.3), axis=axis,
                    effort=effort)
    if not by_effort:
        m.add_rotational_spring_damper(j, k=7.0, c=0.0, rest_angle=rest_angle)
    return m, j


@pytest.mark.parametrize("loop, by_effort", [(False, False), (True, False), (False, True),
                                             (True, True)])
def test_a_spring_past_half_a_turn_follows_the_recursion(loop, by_effort):
    """The spring's angle passes +-pi: the DAE (the revolute in the tree, run with
    formulation='dae', or closing a loop beside a free joint) continues it from the last
    accepted step, as the recursion's coordinate is continuous. Newmark over 1 s: the angles
    converge to the recursion's at second order (the largest gap falls by about 4 when the
    step halves), the DAE's energy (kinetic + the spring's potential, or - the effort's work)
    is constant to second order, and, with the spring, the recursion's to round-off (a linear
    oscillator in its coordinate, which the trapezoidal rule keeps exactly; an effort's work
    is integrated at the outputs); the joint's reaction holds no moment about its axis at
    any output (the spring is an applied force)."""
    mt, jt = turning_pendulum(False, by_effort)
    md, jd = turning_pendulum(loop, by_effort)
    gaps, drift = [], []
    for dt in (2e-3, 1e-3):
        every = int(round(0.02 / dt))
        rec = rancf.simulate(mt, 1.0, dt, method="newmark", formulation="recursive",
                             tol=1e-12, output_every=every)
        dae = rancf.simulate(md, 1.0, dt, method="newmark", formulation="dae", tol=1e-12,
                             output_every=every)
        assert rec.status == dae.status == "ok" and dae.formulation == "dae"
        q = rec.joint(jt)[0]
        assert q.max() > 7.0
        gaps.append(np.abs(dae.joint(jd)[0] - q).max())
        # the spring (or effort) is an applied force, not part of the joint's reaction
        # (Result.reaction): the revolute holds no moment about its fixed axis, in both
        # formulations, though the spring's -k (q - q0) reaches k q0 = 28 N m
        axis = np.array([0.3, 1.0, 0.2]) / np.linalg.norm([0.3, 1.0, 0.2])
        for res, j in ((dae, jd), (rec, jt)):
            scale = max(np.abs(res.reaction(j)).max(), 7.0 * 4.0)
            assert np.abs(res.reaction(j)[:, 3:] @ axis).max() <= 1e-12 * scale
        e, er = dae.energy(), rec.energy()
        scale = np.ptp(e.kinetic)
        assert scale > 50.0
        if not by_effort:
            assert np.abs(er.total - er.total.iloc[0]).max() <= 1e-10 * scale
        drift.append(np.abs(e.total - e.total.iloc[0]).max() / scale)
    assert gaps[1] <= 1e-3 and 3.4 <= gaps[0] / gaps[1] <= 4.6, gaps
    assert drift[1] <= 1e-3 and 3.4 <= drift[0] / drift[1] <= 4.6, drift


@pytest.mark.parametrize("by_effort", [False, True])
def test_accelerations_after_a_run_past_half_a_turn_are_the_rates_of_its_velocities(by_effort):
    """``Result.acceleration`` of the recursion's run recomputes the forward dynamics at each
    stored frame, whose poses give the joint's angle within (-pi, pi]: it is evaluated at the
    run's continuous angle, so the spring (or effort) at the rest angle 4 rad acts as in the
    run where the angle has passed pi. Against central differences of the stored velocities
    (RK4, an output every step), to their error ``dt^2 / 6`` times the third derivative of
    the velocity (wrapped, the spring's force is off by ``k 2 pi`` there: tens of m/s^2)."""
    m, j = turning_pendulum(False, by_effort)
    body = j.child.item
    dt = 1e-4
    res = rancf.simulate(m, 0.6, dt, method="rk4", output_every=1)
    assert res.status == "ok" and res.formulation == "spatial"
    q = res.joint(j)[0]
    past = np.abs(q[1:-1]) > np.pi + 0.1
    assert past.sum() > 1000
    assert_accelerations_are_velocity_rates(res, body, dt, past)


def assert_accelerations_are_velocity_rates(res, body, dt, past):
    """``res.acceleration`` of the body's centre and of an offset point against central
    differences of the stored velocities (an output every dt), to their error ``dt^2 / 6``
    times the third derivative of the velocity; and large (> 10 m/s^2) at the interior outputs
    ``past`` (boolean), where an angle on the wrong branch would be off by tens of m/s^2."""
    for point in (body.centre, body.point(0.1, -0.2, 0.05)):
        v, a = res.velocity(point), res.acceleration(point)
        differences = (v[2:] - v[:-2]) / (2 * dt)
        jerk2 = np.abs(np.diff(a, 2, axis=0)).max() / dt**2
        error = np.abs(differences - a[1:-1]).max()
        assert error <= 2 * dt**2 / 6 * jerk2 + 1e-9 * np.abs(a).max(), (error, jerk2)
        assert np.abs(a[1:-1][past]).max() > 10.0


def vector_spring_pendulum(kind):
    """A body on a spherical (or free) joint to the ground without gravity, its effort
    function a damped spring of the rotation vector at rest 3.6 rad about a fixed axis (past
    pi: the vector swings to about 5 rad); a free joint's translation on a spring too."""
    axis = np.array([0.3, 1.0, 0.2]) / np.linalg.norm([0.3, 1.0, 0.2])
    q0 = 3.6 * axis
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, 0.0))
    b = m.add_rigid_body(1.5, np.diag([0.02, 0.05, 0.04]), position=(0.4, 0.1, -0.3))
    if kind == "spherical":
        def effort(t, q, qd):
            return -7.0 * (q - q0) - 0.15 * qd
    else:
        def effort(t, q, qd):
            return np.concatenate([-50.0 * q[:3], -7.0 * (q[3:] - q0)]) - 0.15 * qd
    j = m.add_joint(kind, m.ground.point(0, 0, 0), b.point(-0.4, -0.1, 0.3), effort=effort)
    return m, j


@pytest.mark.parametrize("kind", ["spherical", "free"])
def test_accelerations_of_a_scipy_run_past_pi_are_the_rates_of_its_velocities(kind):
    """A SciPy solver keeps a spherical or free joint's rotation vector past pi (no
    re-centring, unlike the compiled loop); ``Result.acceleration`` reads the vector from the
    poses (at most pi) and puts it on the run's branch, so the effort of the vector acts as
    in the run. Against central differences of the stored velocities (RK45 at 1e-10, an
    output every 1e-4 s), to their error ``dt^2 / 6`` times the third derivative of the
    velocity (on the other branch the spring's torque is off by ``7 * 2 pi`` N m: 68 and 3500
    m/s^2 off, measured)."""
    m, j = vector_spring_pendulum(kind)
    body = j.child.item
    dt = 1e-4
    res = rancf.simulate(m, 1.0, dt, method="scipy:RK45", output_every=1, rtol=1e-10,
                         atol=1e-10)
    assert res.status == "ok" and res.formulation == "spatial"
    angle = np.linalg.norm(res.joint(j)[0][:, -3:], axis=1)
    past = angle[1:-1] > np.pi + 0.1
    assert past.sum() > 1000
    assert_accelerations_are_velocity_rates(res, body, dt, past)


@pytest.mark.parametrize("loop, by_effort, cable, formulation", [
    (False, False, False, "dae"), (True, False, False, "dae"), (False, True, False, "dae"),
    (True, True, False, "dae"), (False, False, True, "dae"), (False, True, True, "recursive")])
def test_accelerations_after_a_run_past_half_a_turn_follow_the_recursion(loop, by_effort, cable,
                                                                          formulation):
    """``Result.acceleration`` where the angle has passed pi, of a DAE run (the revolute in
    the tree, or closing a loop beside a free joint: the DAE's own saddle-point solve at each
    stored state), and with a cable hanging beside the pendulum (a model with cables: the
    stored cable coordinates enter the state) of both formulations: at every output the
    recursion's accelerations of the pendulum alone at the run's continuous joint coordinate
    and rate (``Result.joint``), to 1e-9 of the largest."""
    md, jd = turning_pendulum(loop, by_effort)
    if cable:
        c = md.add_beam(0.5, 2, E=1e7, rho=1000.0, A=1e-4, I=1e-9, element="ancf-cable",
                        start=(2.0, 0.0, 0.0))
        md.add_joint("spherical", md.ground.point(2.0, 0.0, 0.0), c.start)
    mt, _ = turning_pendulum(False, by_effort)
    rec = spatial.of_model(mt)
    res = rancf.simulate(md, 1.0, 1e-3, method="newmark", formulation=formulation, tol=1e-12,
                         output_every=10)
    assert res.status == "ok" and res.formulation == {"recursive": "spatial"}.get(formulation,
                                                                               formulation)
    q, qd = res.joint(jd)
    assert (np.abs(q) > np.pi + 0.5).sum() > 20
    body = jd.child.item
    for point in (body.centre, body.point(0.1, -0.2, 0.05)):
        expected = []
        for t, y in zip(res.t, np.column_stack([q, qd])):
            acc, _ = recursion_accelerations(rec, t, y)
            _, A, V = rec.kinematics(y)
            o, w = A[0] @ point.offset, V[0, 3:]
            expected.append(acc[0, :3] + np.cross(acc[0, 3:], o) + np.cross(w, np.cross(w, o)))
        expected = np.array(expected)
        a = res.acceleration(point)
        assert np.abs(a - expected).max() <= 1e-9 * np.abs(expected).max()


def test_reference_angle_moves_only_at_accepted_states():
    """The spring's angle is continued from the last accepted state's: evaluations at other
    states (Newton's iterates, a retried step) leave that reference alone, so an angle 3.5 rad
    seen after an accepted 3.0 rad is 3.5 (force ``-k (q - q0)``, k = 7, q0 = 4), not its
    wrapped 3.5 - 2 pi, however many states were evaluated in between; the reference moves
    only when a state is accepted."""
    m, j = turning_pendulum(False, False)
    dae = SpatialDAE(m.build(), *spatial.model_inputs(m))
    d = dae._joint_springs

    def spring(angle):
        x, v = dae.state_of(np.array([angle, 1.0]), 0.0)
        return x, v, dae._joint_spring_values(*dae._item_states(x, v, d), d)

    x, v, _ = spring(3.0)
    dae._accept_angles(x, v)
    for angle in (3.5, -2.0, 2.0, 3.5):
        _, _, (q, qd, g) = spring(angle)
        assert abs(q[0] - (angle if angle > 0 else angle + 2 * np.pi)) <= 1e-12
        assert abs(g[0] + 7.0 * (q[0] - 4.0)) <= 1e-12 and abs(qd[0] - 1.0) <= 1e-12
    x, v, _ = spring(-2.5)        # accepted at 2 pi - 2.5 = 3.78 rad
    dae._accept_angles(x, v)
    assert abs(d["ref"][0] - (2 * np.pi - 2.5)) <= 1e-12
    _, _, (q, _, _) = spring(-0.5)
    assert abs(q[0] - (2 * np.pi - 0.5)) <= 1e-12


def test_a_run_started_past_half_a_turn_follows_the_recursion():
    """A run started from a State taken past pi (whose poses give its angle within
    (-pi, pi], to both formulations): the DAE's spring sees the recursion's angle from that
    start on, the angles converge to each other at second order."""
    mt, jt = turning_pendulum(False, False)
    first = rancf.simulate(mt, 0.5, 1e-3, method="newmark", tol=1e-12, output_every=50)
    assert first.joint(jt)[0][-1] > np.pi + 0.5
    state = first.state(-1)
    gaps = []
    for dt in (2e-3, 1e-3):
        runs = [rancf.simulate(mt, 0.4, dt, method="newmark", formulation=f, tol=1e-12,
                               state=state, output_every=int(round(0.02 / dt)))
                for f in ("recursive", "dae")]
        assert all(r.status == "ok" for r in runs) and np.ptp(runs[0].joint(jt)[0]) > 1.0
        gaps.append(np.abs(runs[0].joint(jt)[0] - runs[1].joint(jt)[0]).max())
    assert gaps[1] <= 1e-3 and 3.4 <= gaps[0] / gaps[1] <= 4.6, gaps


def spinning_ball(free):
    """A body on a spherical (or free, its translation held by a stiff spring) joint without
    gravity, an effort function pulling its rotation vector towards ``q0``, |q0| = 4 rad (past
    pi: the body turns through half turns, its rotation vector flipping), lightly damped."""
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, 0.0))
    a = m.add_rigid_body(1.0, np.diag([0.02, 0.03, 0.04]), position=(0.0, 0.0, -0.5))
    q0 = 4.0 * np.array([0.6, 0.0, 0.8])
    K = np.diag([0.5, 0.6, 0.7])
    turn = lambda psi, rate: -K @ (psi - q0) - 0.01 * rate
    effort = (lambda t, q, qd: np.concatenate([-200.0 * q[:3], turn(q[3:], qd[3:])])) if free \
        else (lambda t, q, qd: turn(q, qd))
    m.add_joint("free" if free else "spherical", m.ground.point(0, 0, 0), a.point(0, 0, 0.5),
                effort=effort)
    return m


@pytest.mark.parametrize("free", [False, True])
def test_a_rotation_vector_past_pi_follows_the_recursion(free):
    """The recursion's rotation vector continues past pi within a step and is re-centred to
    the other vector of its rotation, ``psi (1 - 2 pi / |psi|)``, after it; the DAE gives an
    effort function the same (its ``log(R)`` moved to that branch where it is nearer the last
    accepted step's, the rate mapped). The body turns through pi several times (its rotation
    vector flips between outputs), the effort ``-K (psi - q0)`` jumping at each flip, and the
    poses of both converge to each other at Newmark's second order (the largest gap falls by
    about 4 when the step halves)."""
    from scipy.spatial.transform import Rotation
    gaps = []
    for dt in (2e-3, 1e-3):
        runs = [rancf.simulate(spinning_ball(free), 1.0, dt, method="newmark", formulation=f,
                               tol=1e-11, output_every=int(round(0.02 / dt)))
                for f in ("recursive", "dae")]
        assert all(r.status == "ok" for r in runs) and runs[1].formulation == "dae"
        psi = Rotation.from_matrix(np.asarray(runs[0].nodes)[:, 0, 3:12].reshape(-1, 3, 3)
                                   ).as_rotvec()
        assert (np.einsum("ni,ni->n", psi[1:], psi[:-1]) < 0).sum() >= 3
        gaps.append(np.abs(runs[0].nodes - runs[1].nodes).max())
    assert gaps[1] <= 3e-3 and 3.4 <= gaps[0] / gaps[1] <= 4.6, gaps


def test_compiled_accept_moves_the_references_as_its_reference():
    """The compiled problem's ``accept`` (run by the implicit loop's start) moves the
    references as :meth:`SpatialDAE._accept_angles`, its Python reference, does, from the
    same earlier references: a revolute spring's and effort function's angle continued past
    pi (3.5 rad after 3.0, not 3.5 - 2 pi), a spherical joint's rotation vector to its
    ``log(R)``."""
    from rancf.integrators._implicit import Stepper
    from rancf.integrators.implicit import Static
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, 0.0))
    b = m.add_rigid_body(1.5, np.diag([0.02, 0.05, 0.04]), position=(0.4, 0.1, -0.3))
    c = m.add_rigid_body(1.0, np.diag([0.02, 0.03, 0.04]), position=(0.4, 0.1, -0.8))
    axis = np.array([0.3, 1.0, 0.2]) / np.linalg.norm([0.3, 1.0, 0.2])
    j = m.add_joint("revolute", m.ground.point(0, 0, 0), b.point(-0.4, -0.1, 0.3), axis=axis,
                    effort=lambda t, q, qd: -2.0 * q)
    m.add_rotational_spring_damper(j, k=7.0, c=0.0, rest_angle=4.0)
    m.add_joint("spherical", b.point(0.0, 0.0, -0.25), c.point(0.0, 0.0, 0.25),
                effort=lambda t, q, qd: -q)
    dae = SpatialDAE(m.build(), *spatial.model_inputs(m))
    psi = 2.0 * np.array([0.6, 0.0, 0.8])
    states = [dae.state_of(np.concatenate([[a], psi, np.zeros(4)]), 0.0)[0] for a in (3.0, 3.5)]
    zero = np.zeros(dae.n_coordinates)
    dae._accept_angles(states[0], zero)
    before = dae._angle_ref.copy()
    assert abs(dae._joint_springs["ref"][0] - 3.0) <= 1e-12
    dae._accept_angles(states[1], zero)
    expected = dae._angle_ref.copy()
    assert abs(dae._joint_springs["ref"][0] - 3.5) <= 1e-12
    assert np.abs(expected - before).max() > 0.4
    dae._angle_ref[:] = before
    scheme = Static()
    stepper = Stepper(dae.compiled, scheme.alpha_m, scheme.alpha_f, scheme.gamma, scheme.beta,
                      scheme.intermediate, scheme.bdf1, 1.0, 1e-10, 10, False,
                      static=scheme.static)
    stepper.start_at_rest(0.0, states[1], np.zeros(dae.n_constraints))
    assert np.abs(dae._angle_ref - expected).max() <= 1e-12
    ref = dae._probe_ref
    assert np.abs(ref[0, 0] - 3.5) <= 1e-12 and np.abs(ref[1, :3] - psi).max() <= 1e-12


def loaded_model():
    """Loads of every kind the DAE takes: a follower force and moment at an offset point of a
    rigid body on a free joint, on a beam (revolute to the ground) a global load function of t
    at a node and loads between two nodes (follower and global), a force and a moment (normal
    to it: it acts on the slope, through r') on a cable node."""
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -9.81))
    body = m.add_rigid_body(1.2, np.diag([0.02, 0.05, 0.04]), position=(0.3, -0.4, 0.2))
    m.add_joint("free", m.ground.point(0.3, -0.4, 0.2), body.centre)
    m.add_force(body.point(0.1, 0.2, -0.15), force=(1.0, 2.0, -3.0), moment=(0.3, -0.2, 0.5),
                follower=True)
    beam = m.add_beam(1.0, 4, E=2e9, G=8e8, rho=2700.0, A=1e-3, I=(1e-7, 2e-7), J=3e-7,
                      start=(0.0, 0.0, 0.0), direction=(0.6, 0.0, 0.8))
    m.add_joint("revolute", m.ground.point(0.0, 0.0, 0.0), beam.start, axis=(0.0, 1.0, 0.0))
    m.add_force(beam.node(2), force=lambda t: (np.sin(3.0 * t), 1.0, 0.5),
                moment=(0.1, 0.2, 0.3))
    m.add_force(beam.at(0.63), force=(0.5, -1.0, 2.0), moment=(0.2, 0.1, -0.3), follower=True)
    m.add_force(beam.at(0.3), force=(-0.7, 0.4, 1.1), moment=(0.0, -0.4, 0.2))
    cable = m.add_beam(0.5, 2, E=1e7, rho=1000.0, A=1e-4, I=1e-9, start=(0.0, 1.0, 0.0),
                       element="ancf-cable")
    m.add_joint("spherical", m.ground.point(0.0, 1.0, 0.0), cable.start)
    m.add_force(cable.end, force=(0.0, 1.0, -2.0), moment=(0.0, 0.3, -0.2))
    return m


def test_compiled_load_tangents_equal_central_differences_of_the_load_force():
    """The loads' part of Newton's matrix, compiled (``_body_tangents``: each load's
    ``lf dQ_b/dp_b`` on the Euler parameters of the bodies it acts on, the load factor lf
    applied), against central differences of the Python reference load force
    (``SpatialDAE._loads``, numpy) in one body's Euler parameters at a time, at a Newton
    iterate off the manifold (Euler parameters not of unit norm): every body, the two nodes
    of each load between nodes among them; a load on a cable node does not enter. The force
    of a load between nodes holds central differences itself (relative error about 1e-11),
    which bounds what any difference quotient of it resolves: about 1e-6 of the load at the
    reference's step 3e-5 (its quotients at 1e-5 and 1e-4 differ by that much)."""
    m = loaded_model()
    dae = SpatialDAE(m.build(), *spatial.model_inputs(m))
    assert dae.n_cable_nodes and np.asarray(dae.tree.load_arc).max() >= 0
    rng = np.random.default_rng(4)
    x0, _ = dae.initial_state()
    x = x0 + 0.05 * rng.standard_normal(x0.size)
    v = rng.standard_normal(x0.size)
    t, h, nb = 0.4, 3e-5, dae.n_bodies
    dae.inputs.at_time(t)
    expected = np.zeros((nb, 7, 4))
    for b in range(nb):
        for k in range(4):
            e = np.zeros(x.size)
            e[7 * b + 3 + k] = h
            expected[b, :, k] = (dae._X(dae._loads(x + e))[b]
                                 - dae._X(dae._loads(x - e))[b]) / (2 * h)
    assert np.abs(expected).max() > 1.0
    # the gyroscopic part does not depend on the load factor: what is left is the loads'
    dae.load_factor = 0.0
    gyroscopic = dae._body_tangents(x, v, t)
    dae.load_factor = 0.7
    D, C = dae._body_tangents(x, v, t)
    assert np.array_equal(C, gyroscopic[1])
    assert np.abs(D - gyroscopic[0] - 0.7 * expected).max() <= 1e-6 * np.abs(expected).max()


def test_newton_matrix_of_the_loads_equals_central_differences_of_the_load_force():
    """The loads' whole part of the compiled Newton matrix (``c_k = 1``: its matrices at load
    factors 0.7 and 0 differ by it alone, gravity's force being constant and the gyroscopic
    force at rest zero) against ``-0.7 dQ/dx``, central differences of the Python reference
    load force (``SpatialDAE._loads``) in every coordinate, at a Newton iterate off the
    manifold: a load between two nodes acts on both nodes, through both nodes' positions (the
    arm to its point) and Euler parameters, so its blocks between the two nodes are as large
    as its own; the Python reference stiffness (``stiffness``) holds them too. Bound: the
    reference's step 3e-5 resolves about 1e-6 of the load (as the test above)."""
    m = loaded_model()
    dae = SpatialDAE(m.build(), *spatial.model_inputs(m))
    rng = np.random.default_rng(5)
    x0, _ = dae.initial_state()
    x = x0 + 0.05 * rng.standard_normal(x0.size)
    t, h, n = 0.4, 3e-5, dae.n_coordinates
    dae.inputs.at_time(t)
    expected = -0.7 * central(dae._loads, x, h)
    zero = np.zeros(n)
    lam = np.zeros(dae.n_constraints)
    S = []
    for lf in (0.7, 0.0):
        dae.load_factor = lf
        S.append(dae.newton_matrix(x, zero, lam, zero, t, x, t, 0.0, 0.0, 1.0, 0.0, 0.0,
                                   factor=False).toarray()[:n, :n])
    arc = dae._arc_load_cols()
    assert len(arc) == 2
    # the blocks between the two nodes of each load between nodes are not small beside its
    # whole block (measured: 0.31 and 0.17 of it)
    for c in arc:
        own = np.abs(expected[np.ix_(c, c)]).max()
        assert min(np.abs(expected[np.ix_(c[:7], c[7:])]).max(),
                   np.abs(expected[np.ix_(c[7:], c[:7])]).max()) > 0.1 * own
    assert np.abs(S[0] - S[1] - expected).max() <= 1e-6 * np.abs(expected).max()
    dae.load_factor = 0.7
    K = dae.stiffness(x, zero, t).toarray()
    dae.load_factor = 0.0
    K0 = dae.stiffness(x, zero, t).toarray()
    assert np.abs(K - K0 - expected).max() <= 1e-6 * np.abs(expected).max()
