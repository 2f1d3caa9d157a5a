"""The O(n) spatial recursion (rancf.formulations.spatial) against independent references: a
dense solve of the assembled relative-coordinate equations (B built here, in numpy, by stacking
the link maps; its bias by a complex step), central differences of the kinematics, a rigid-body
integration of Euler's equations with a quaternion, and conservation laws."""
import numpy as np
import pytest
from scipy.integrate import solve_ivp

from rancf.elements import spatial_beam
from rancf.formulations.spatial import Spatial
from rancf.integrators import explicit
from rancf.joints._codes import Motion
from validation.spatial_trees import (ALL, expm, linear_stiffness, loaded_tree, make_tree,
                                     random_link, random_tree, reference, skew)


def dense_accelerations(tree, q, qd, load_values, efforts, driven=None, wrenches=False):
    """qdd of ``B^T M B qdd = B^T (F - M cbar) + tau`` assembled densely: M = diag(m I, A J
    A^T), F gravity, gyroscopic moments and loads, cbar = (dB/dq qd) qd by a complex step.
    ``driven`` ({coordinate: qdd}): those columns of B move to the right-hand side,
    ``B_f^T M B_f qdd_f = B_f^T (F - M (cbar + B_d qdd_d)) + tau_f``. Returns qdd and the
    body velocities V (n, 6), and with ``wrenches`` the bodies' ``M V' - F`` (n, 6) and
    origins (n, 3)."""
    n = tree.n_bodies
    r, A, B = reference(tree, q)
    h = 1e-30
    cbar = (reference(tree, q + 1j * h * qd)[2].imag / h) @ qd
    V = (B @ qd).reshape(n, 6)
    M = np.zeros((6 * n, 6 * n))
    F = np.zeros((n, 6))
    for i in range(n):
        Ig = A[i] @ tree.inertia[i] @ A[i].T
        M[6 * i:6 * i + 3, 6 * i:6 * i + 3] = tree.mass[i] * np.eye(3)
        M[6 * i + 3:6 * i + 6, 6 * i + 3:6 * i + 6] = Ig
        F[i, :3] = tree.mass[i] * tree.gravity
        F[i, 3:] = -np.cross(V[i, 3:], Ig @ V[i, 3:])
    for (force, moment), b, o, fol in zip(load_values, tree.load_body, tree.load_offset,
                                          tree.load_follower):
        if fol:
            force, moment = A[b] @ force, A[b] @ moment
        F[b, :3] += force
        F[b, 3:] += moment + np.cross(A[b] @ o, force)
    # efforts: one coordinate: tau itself; spherical and free: a force and torque (parent
    # frame) between the two bodies at the joint point x, by their power tau . qd =
    # (A_p force) . (velocity of x on the child - on the parent) + (A_p torque) . (w_c - w_p)
    tau = np.zeros(tree.n_q)
    Bb = B.reshape(n, 6, -1)
    for j, e in efforts.items():
        b = tree.joint_body[j]
        p, s = tree.parent[b], slice(tree.q_offset[b], tree.q_offset[b + 1])
        if tree.motion[b] in (Motion.M_SPHERICAL, Motion.M_FREE):
            Ap = A[p] if p >= 0 else np.eye(3)
            force, torque = (np.zeros(3), e) if len(e) == 3 else (e[:3], e[3:])
            x = r[b] + A[b] @ tree.offset[b]
            point = Bb[b, :3] - skew(x - r[b]) @ Bb[b, 3:]
            rel_w = Bb[b, 3:]
            if p >= 0:
                point = point - (Bb[p, :3] - skew(x - r[p]) @ Bb[p, 3:])
                rel_w = rel_w - Bb[p, 3:]
            tau += point.T @ (Ap @ force) + rel_w.T @ (Ap @ torque)
        else:
            tau[s] += e
    # elements: their elastic and damping forces (rancf.elements.spatial_beam, tested there)
    for b in np.flatnonzero(tree.motion == Motion.M_ELEMENT):
        k, s = tree.element[b], slice(tree.q_offset[b], tree.q_offset[b + 1])
        tau[s] += spatial_beam.element_force(tree.anchor[b], tree.relative[b], q[s], qd[s],
                                             tree.length[k], tree.stiffness[k],
                                             tree.strain0[k], tree.damping[k])[0]
    driven = driven or {}
    d = np.array(sorted(driven), int)
    f = np.setdiff1d(np.arange(tree.n_q), d)
    known = cbar + B[:, d] @ np.array([driven[k] for k in d]) if len(d) else cbar
    lhs = B[:, f].T @ M @ B[:, f]
    rhs = B[:, f].T @ (F.ravel() - M @ known) + tau[f]
    qdd = np.linalg.solve(lhs, rhs)
    # what the bodies do: V' = B_f qdd + (cbar + B_d qdd_d), and their inertial wrenches M V' - F
    if wrenches:
        acc = B[:, f] @ qdd + known
        return qdd, V, (M @ acc - F.ravel()).reshape(n, 6), r
    return qdd, V


@pytest.mark.parametrize("seed", range(4))
def test_accelerations_equal_a_dense_solve(seed):
    rng, tree, values = loaded_tree(seed)
    joints = {int(j): tree.motion[b] for j, b in enumerate(tree.joint_body)}
    efforts = {}
    for j, m in joints.items():
        if m in (Motion.M_REVOLUTE, Motion.M_PRISMATIC):
            efforts[j] = rng.standard_normal()
        elif m == Motion.M_SPHERICAL:
            efforts[j] = rng.standard_normal(3)
        elif m in (Motion.M_FREE, Motion.M_CYLINDRICAL, Motion.M_UNIVERSAL):
            efforts[j] = rng.standard_normal(6 if m == Motion.M_FREE else 2)
    model = Spatial(tree, loads=values, efforts=efforts)
    q = rng.uniform(-1.5, 1.5, tree.n_q)
    qd = rng.uniform(-2, 2, tree.n_q)
    y = np.concatenate([q, qd])
    ydot = model.derivative(0.3, y)
    expected, V = dense_accelerations(tree, q, qd, values,
                                      {j: np.atleast_1d(e) for j, e in efforts.items()})
    assert np.array_equal(ydot[:tree.n_q], qd)
    scale = np.abs(expected).max()
    assert np.abs(ydot[tree.n_q:] - expected).max() <= 1e-10 * scale
    # the velocities and poses agree with the stacked map too
    r, A, Vk = model.kinematics(y)
    r_ref, A_ref, _ = reference(tree, q)
    assert np.abs(Vk - V).max() <= 1e-12 * np.abs(V).max()
    assert np.abs(r - r_ref).max() <= 1e-13 * np.abs(r_ref).max()
    assert np.abs(A - A_ref).max() <= 1e-14


def test_velocities_and_bias_equal_central_differences():
    """V is the derivative of the poses (v = r', w^ = A' A^T) and ``V' = X V_p' + H qdd + c``
    that of V, along q(t) = q + qd t + qdd t^2 / 2, by central differences."""
    rng = np.random.default_rng(7)
    tree = random_tree(rng, ALL)
    model = Spatial(tree)
    k = model.kernel
    n = tree.n_bodies
    q, qd, qdd = (rng.uniform(-1.5, 1.5, tree.n_q) for _ in range(3))
    state = lambda s: np.concatenate([q + qd * s + qdd * s * s / 2, qd + qdd * s])
    k.kinematics(state(0.0), qdd)
    V = k.arrays["V"][:6 * n].reshape(n, 6).copy()
    acc = k.arrays["acc"][:6 * n].reshape(n, 6).copy()
    h = 1e-5
    (rp, Ap, Vp), (rm, Am, Vm) = model.kinematics(state(h)), model.kinematics(state(-h))
    _, A0, _ = model.kinematics(state(0.0))
    v_fd = (rp - rm) / (2 * h)
    W = np.einsum("nij,nkj->nik", (Ap - Am) / (2 * h), A0)          # w^ = A' A^T
    w_fd = np.stack([W[:, 2, 1], W[:, 0, 2], W[:, 1, 0]], axis=1)
    acc_fd = (Vp - Vm) / (2 * h)
    assert np.abs(V[:, :3] - v_fd).max() <= 1e-8 * np.abs(V).max()
    assert np.abs(V[:, 3:] - w_fd).max() <= 1e-8 * np.abs(V).max()
    assert np.abs(acc - acc_fd).max() <= 1e-7 * np.abs(acc).max()


def pendulum_body(offset, inertia, mass, relative=np.eye(3)):
    return make_tree([dict(parent=-1, motion=Motion.M_SPHERICAL, mass=mass, inertia=inertia,
                           anchor=np.zeros(3), offset=offset, relative=relative)])


def quaternion_rotation(e):
    w, x, y, z = e / np.linalg.norm(e)
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                     [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                     [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])


def rigid_reference(mass, J, o, g, A0, w0, t_out):
    """The body's centre (pivot at 0, body point o the pivot) by Euler's equations about the
    pivot in the body frame, ``I_p w' + w x I_p w = (-o) x (A^T m g)``, ``I_p = J + m (|o|^2 I
    - o o^T)``, and the quaternion ``e' = e (0, w) / 2``."""
    Ip = J + mass * (o @ o * np.eye(3) - np.outer(o, o))

    def f(t, s):
        e, w = s[:4], s[4:]
        A = quaternion_rotation(e)
        torque = np.cross(-o, A.T @ (mass * g))
        wd = np.linalg.solve(Ip, torque - np.cross(w, Ip @ w))
        E = np.array([[-e[1], -e[2], -e[3]], [e[0], -e[3], e[2]], [e[3], e[0], -e[1]],
                      [-e[2], e[1], e[0]]])
        return np.concatenate([0.5 * E @ w, wd])

    # the quaternion of A0 (trace > 0 for the frames used here)
    w = np.sqrt(1 + np.trace(A0)) / 2
    e0 = np.array([w, (A0[2, 1] - A0[1, 2]) / (4 * w), (A0[0, 2] - A0[2, 0]) / (4 * w),
                   (A0[1, 0] - A0[0, 1]) / (4 * w)])
    sol = solve_ivp(f, (0, t_out[-1]), np.concatenate([e0, w0]), t_eval=t_out, rtol=1e-12,
                    atol=1e-12, method="DOP853")
    return np.array([-quaternion_rotation(e) @ o for e in sol.y[:4].T])


@pytest.mark.parametrize("method", ["rk4", "dopri5", "scipy:DOP853"])
def test_rigid_spherical_pendulum_follows_eulers_equations(method):
    rng = np.random.default_rng(3)
    J = np.diag([0.3, 0.5, 0.7])
    o = np.array([0.2, -0.1, 0.6])
    Q = expm(np.array([0.3, -0.2, 0.4]))
    tree = pendulum_body(o, J, 2.0, Q)
    model = Spatial(tree)
    w0 = rng.standard_normal(3)                     # body frame
    y0 = model.initial_state(qd=Q @ w0)             # J_l(0) = I: qd = w in the parent frame
    t_out = np.linspace(0, 1.5, 16)
    sol = explicit.integrate(model.kernel, y0, t_out, 1e-3, method, 1e-11, 1e-11, 1e3)
    assert sol.status == "ok"
    centre = sol.nodes.reshape(len(t_out), 1, 12)[:, 0, :3]
    expected = rigid_reference(2.0, J, o, tree.gravity, Q, w0, t_out)
    assert np.abs(centre - expected).max() <= 1e-8
    # the energies the formulation observes are conserved
    total = sol.extra["kinetic"] + sol.extra["gravity"]
    assert np.ptp(total) <= 1e-8 * np.abs(sol.extra["kinetic"]).max()


@pytest.mark.parametrize("method", ["rk4", "dopri5"])
def test_heavy_symmetric_top_conserves_energy_and_axial_momentum(method):
    """Spinning at 30 rad/s, its rotation vector passes |q| = pi five times a second: the
    compiled loop re-centres it (J_l is singular at 2 pi)."""
    I1, I3, m, l = 0.4, 0.2, 1.0, 0.5
    tilt = expm(np.array([0.5, 0.0, 0.0]))
    tree = pendulum_body(np.array([0, 0, -l]), np.diag([I1, I1, I3]), m, tilt)
    model = Spatial(tree)
    w0 = np.array([0.3, -0.2, 30.0])               # fast spin about the body's z axis
    y0 = model.initial_state(qd=tilt @ w0)
    t_out = np.linspace(0, 1.0, 41)
    sol = explicit.integrate(model.kernel, y0, t_out, 2e-4, method, 1e-12, 1e-12, 1e3)
    assert sol.status == "ok"
    assert np.linalg.norm(sol.joint_q, axis=1).max() <= np.pi
    nodes = sol.nodes.reshape(-1, 12)
    A = nodes[:, 3:].reshape(-1, 3, 3)
    w = sol.velocities.reshape(-1, 6)[:, 3:]
    axial = I3 * np.einsum("ni,ni->n", A[:, :, 2], w)          # I3 (w . e3)
    # about the vertical through the pivot: the momentum about the centre plus r x m v
    r, v = nodes[:, :3], sol.velocities.reshape(-1, 6)[:, :3]
    vertical = np.einsum("nij,jk,nlk,nl->ni", A, np.diag([I1, I1, I3]), A, w)[:, 2] \
        + m * np.cross(r, v)[:, 2]
    energy = sol.extra["kinetic"] + sol.extra["gravity"]
    assert np.ptp(energy) <= 1e-9 * energy[0]
    assert np.ptp(axial) <= 1e-9 * abs(axial[0])
    assert np.ptp(vertical) <= 1e-9 * abs(axial[0])
    assert np.ptp(r[:, 2]) > 1e-3                  # the top does nutate: not a trivial motion


def test_recentring_keeps_the_pose_and_the_velocities():
    rng = np.random.default_rng(4)
    tree = free_chain(rng)
    model = Spatial(tree)
    q, qd = rng.uniform(-1, 1, tree.n_q), rng.uniform(-1, 1, tree.n_q)
    q[3:6] *= 5.0 / np.linalg.norm(q[3:6])          # the free root's rotation: 5 rad
    q[tree.q_offset[3]:tree.q_offset[3] + 3] = [2.0, -3.0, 1.0]      # the spherical: 3.7 rad
    y = np.concatenate([q, qd])
    z = model.kernel.recentred(y)
    changed = np.flatnonzero(z != y)
    assert set(changed) == {3, 4, 5} | {tree.q_offset[3] + k for k in range(3)} | \
        {tree.n_q + tree.q_offset[3] + k for k in range(3)} | {tree.n_q + k for k in (3, 4, 5)}
    assert np.linalg.norm(z[3:6]) <= np.pi
    for before, after in zip(model.kinematics(y), model.kinematics(z)):
        assert np.abs(before - after).max() <= 1e-12 * max(1.0, np.abs(before).max())


def free_chain(rng, gravity=(0.0, 0.0, 0.0)):
    """A chain (each link the child of the one before) of a free root and every other joint
    kind: random links of small inertia and anchors and offsets within 0.5 m."""
    motions = [Motion.M_FREE, Motion.M_REVOLUTE, Motion.M_UNIVERSAL, Motion.M_SPHERICAL,
               Motion.M_CYLINDRICAL, Motion.M_ELEMENT, Motion.M_PRISMATIC]
    return make_tree([random_link(rng, m, i - 1, point=lambda rng: rng.uniform(-0.5, 0.5, 3),
                                  inertia_scale=0.1) for i, m in enumerate(motions)],
                     gravity=gravity)


def test_free_floating_chain_conserves_energy_and_momenta():
    rng = np.random.default_rng(11)
    tree = free_chain(rng)
    model = Spatial(tree)
    y0 = model.initial_state(q=rng.uniform(-0.5, 0.5, tree.n_q), qd=rng.uniform(-1, 1, tree.n_q))
    t_out = np.linspace(0, 1.0, 6)
    sol = explicit.integrate(model.kernel, y0, t_out, 1e-3, "dopri5", 1e-11, 1e-11, 1e3)
    assert sol.status == "ok"
    n = tree.n_bodies
    r = sol.nodes.reshape(-1, n, 12)[:, :, :3]
    A = sol.nodes.reshape(-1, n, 12)[:, :, 3:].reshape(-1, n, 3, 3)
    V = sol.velocities.reshape(-1, n, 6)
    p = np.einsum("b,tbi->ti", tree.mass, V[:, :, :3])
    L = (np.einsum("b,tbi->ti", tree.mass, np.cross(r, V[:, :, :3]))
         + np.einsum("tbij,bjk,tblk,tbl->ti", A, tree.inertia, A, V[:, :, 3:]))
    E = sol.extra["kinetic"]
    assert np.ptp(E) <= 1e-8 * E[0]
    assert np.abs(p - p[0]).max() <= 1e-8 * np.abs(p[0]).max()
    assert np.abs(L - L[0]).max() <= 1e-8 * np.abs(L[0]).max()


def test_heavy_chain_conserves_energy_under_rk4_at_fourth_order():
    rng = np.random.default_rng(5)
    tree = free_chain(rng, gravity=(0.0, -9.81, -3.0))
    model = Spatial(tree)
    y0 = model.initial_state(q=rng.uniform(-0.5, 0.5, tree.n_q), qd=rng.uniform(-1, 1, tree.n_q))
    t_out = np.array([0.0, 0.5])
    drift = []
    for dt in (4e-3, 2e-3):
        sol = explicit.integrate(model.kernel, y0, t_out, dt, "rk4", 0, 0, 1e3)
        E = sol.extra["kinetic"] + sol.extra["gravity"]
        drift.append(abs(E[-1] - E[0]))
    assert 2 ** 3.5 <= drift[0] / drift[1] <= 2 ** 5.5


def test_singular_link_is_reported():
    tree = make_tree([dict(parent=-1, motion=Motion.M_REVOLUTE, mass=1.0,
                           inertia=np.diag([1.0, 1.0, 0.0]), axes=(np.array([0.0, 0, 1]),))])
    with pytest.raises(ArithmeticError, match="body 0"):
        Spatial(tree).derivative(0.0, np.zeros(2))


def test_effort_functions_and_load_functions_are_evaluated():
    """A revolute joint with a spring-damper effort and a load growing in time: the kernel's
    qdd equals the dense solve with those values."""
    rng = np.random.default_rng(2)
    tree = random_tree(rng, [Motion.M_REVOLUTE, Motion.M_SPHERICAL], [(1, np.ones(3), False)])
    model = Spatial(tree, loads=[(lambda t: np.array([t, 2 * t, 0.0]), np.zeros(3))],
                    efforts={0: lambda t, q, qd: -3.0 * q - 0.5 * qd,
                             1: lambda t, q, qd: -2.0 * q})
    q, qd = rng.uniform(-1, 1, 4), rng.uniform(-1, 1, 4)
    ydot = model.derivative(0.7, np.concatenate([q, qd]))
    # the spherical joint's torque -2 q in the parent frame
    expected, _ = dense_accelerations(tree, q, qd, [(np.array([0.7, 1.4, 0.0]), np.zeros(3))],
                                      {0: np.array([-3.0 * q[0] - 0.5 * qd[0]]), 1: -2.0 * q[1:]})
    assert np.abs(ydot[4:] - expected).max() <= 1e-10 * np.abs(expected).max()


def beam(n, length=1.0, rho_a=1.0, EA=1e3, GA=1e3, GJ=1.0, EI=(1.0, 1.0), rho_i=(1e-4, 1e-4),
         damping=0.0, root=Motion.M_FIXED):
    """A straight beam along x of n elements, node 0 on the ground by ``root``: lumped node
    masses and rotary inertias (DESIGN section 7), elements from node to node."""
    h = length / n
    C = np.array([EA, GA, GA, GJ, EI[0], EI[1]])
    links = []
    for k in range(n + 1):
        w = h * ((k > 0) + (k < n)) / 2
        links.append(dict(parent=k - 1, motion=Motion.M_ELEMENT if k else root, mass=rho_a * w,
                          inertia=w * np.diag([rho_i[0] + rho_i[1], rho_i[0], rho_i[1]]),
                          anchor=np.array([h, 0.0, 0.0]) if k else np.zeros(3), C=C,
                          damping=damping))
    return links


def test_passive_elastic_chain_conserves_energy_at_fourth_order():
    """A beam on a spherical joint, released bent and twisted under gravity: kinetic +
    gravity + strain energy drifts as dt^4 under RK4."""
    tree = make_tree(beam(6, root=Motion.M_SPHERICAL, EI=(2.0, 1.0), rho_i=(2e-3, 1e-3)),
                     gravity=(0.0, 0.0, -9.81))
    model = Spatial(tree)
    rng = np.random.default_rng(8)
    q = rng.uniform(-0.01, 0.01, tree.n_q)
    q[:3] = [0.2, -0.3, 0.1]
    y0 = model.initial_state(q=q, qd=rng.uniform(-0.5, 0.5, tree.n_q))
    t_out = np.array([0.0, 0.2])
    drift = []
    for dt in (1e-4, 5e-5):
        sol = explicit.integrate(model.kernel, y0, t_out, dt, "rk4", 0, 0, 1e3)
        assert sol.status == "ok"
        E = sol.extra["kinetic"] + sol.extra["gravity"] + sol.extra["elastic"]
        drift.append(abs(E[-1] - E[0]) / sol.extra["elastic"][0])
    assert sol.extra["elastic"][0] > 0.1 * sol.extra["kinetic"][0]     # a real elastic motion
    assert drift[1] <= 1e-6
    # at least fourth order (an oscillator's energy under RK4 drifts as dt^5)
    assert 2 ** 3.5 <= drift[0] / drift[1] <= 2 ** 5.5


def test_element_damping_dissipates():
    tree = make_tree(beam(4, root=Motion.M_SPHERICAL, damping=1e-3), gravity=(0.0, 0.0, 0.0))
    model = Spatial(tree)
    rng = np.random.default_rng(9)
    y0 = model.initial_state(q=rng.uniform(-0.05, 0.05, tree.n_q))
    sol = explicit.integrate(model.kernel, y0, np.linspace(0, 0.1, 11), 1e-3, "dopri5", 1e-9,
                             1e-9, 1e3)
    E = sol.extra["kinetic"] + sol.extra["elastic"]
    assert np.all(np.diff(E) < 0.0)


def linear_frequencies(model):
    """omega (rad/s) of the motion linearised at rest in the reference configuration:
    ``qdd = -K q``, K by central differences of the accelerations in q."""
    return np.sort(np.sqrt(np.linalg.eigvals(linear_stiffness(model)).real))


def test_cantilever_bending_frequencies_converge_to_euler_bernoulli():
    """First bending frequencies in both planes (EI_z = 1, EI_y = 4) of a clamped slender beam
    (rotary inertia and shear flexibility about 1e-5 relative) against
    ``1.87510407^2 sqrt(EI / (rho A L^4))``, at second order in the element size."""
    analytic = 1.87510407 ** 2 * np.sqrt(np.array([1.0, 4.0]))
    errors = []
    for n in (8, 16):
        tree = make_tree(beam(n, EA=1e6, GA=1e6, GJ=1.0, EI=(4.0, 1.0), rho_i=(4e-6, 1e-6)),
                         gravity=(0.0, 0.0, 0.0))
        errors.append(linear_frequencies(Spatial(tree))[:2] / analytic - 1)
    errors = np.array(errors)
    assert np.all(np.abs(errors[1]) <= 1.2e-3)
    assert np.all((3.6 <= errors[0] / errors[1]) & (errors[0] / errors[1] <= 4.4))


def test_drives_leave_the_state_and_equal_a_dense_solve():
    """Two driven joints (a revolute by a function of t, a prismatic held): the state keeps the
    other coordinates and the accelerations equal the dense solve with the driven columns of B
    on the right-hand side."""
    rng = np.random.default_rng(12)
    tree = random_tree(rng, ALL + [Motion.M_PRISMATIC])
    joints = {tree.motion[b]: j for j, b in enumerate(tree.joint_body)}
    rev, pri = joints[Motion.M_REVOLUTE], joints[Motion.M_PRISMATIC]
    drive = lambda t: (np.sin(2 * t), 2 * np.cos(2 * t), -4 * np.sin(2 * t))
    model = Spatial(tree, drives={rev: drive, pri: 0.3})
    assert model.n_y == 2 * (tree.n_q - 2)
    qo = tree.q_offset
    cr, cp = qo[tree.joint_body[rev]], qo[tree.joint_body[pri]]
    q, qd = rng.uniform(-1.5, 1.5, tree.n_q), rng.uniform(-2, 2, tree.n_q)
    t = 0.4
    q[cr], qd[cr], qdd_r = drive(t)
    q[cp], qd[cp] = 0.3, 0.0
    free = np.setdiff1d(np.arange(tree.n_q), [cr, cp])
    ydot = model.derivative(t, np.concatenate([q[free], qd[free]]))
    expected, _ = dense_accelerations(tree, q, qd, [], {}, {cr: qdd_r, cp: 0.0})
    assert np.abs(ydot[len(free):] - expected).max() <= 1e-10 * np.abs(expected).max()
    # a run: the outputs' joint coordinates of the driven joints are the drives'
    y0 = model.initial_state()
    sol = explicit.integrate(model.kernel, y0, np.linspace(0, 0.2, 5), 1e-3, "rk4", 0, 0, 1e3)
    assert sol.status == "ok"
    columns = np.concatenate([np.arange(qo[b], qo[b + 1]) for b in tree.joint_body])
    at = lambda c: list(columns).index(c)
    assert np.allclose(sol.joint_q[:, at(cr)], np.sin(2 * sol.t), rtol=0, atol=1e-15)
    assert np.all(sol.joint_q[:, at(cp)] == 0.3)


def test_reactions_balance_the_subtrees():
    """A joint's reaction (force, moment about the joint point) is the sum of ``M V' - F`` over
    its child's subtree moved to that point (Newton-Euler), V' from the dense solve."""
    rng = np.random.default_rng(21)
    tree = random_tree(rng, ALL)
    model = Spatial(tree)
    q, qd = rng.uniform(-1.5, 1.5, tree.n_q), rng.uniform(-2, 2, tree.n_q)
    y = np.concatenate([q, qd])
    _, _, wrench, r = dense_accelerations(tree, q, qd, [], {}, wrenches=True)
    _, A, B = reference(tree, q)
    reaction = model.reactions(0.0, y)
    children = [np.flatnonzero(tree.parent == i) for i in range(tree.n_bodies)]
    for j, b in enumerate(tree.joint_body):
        subtree, stack = [], [b]
        while stack:
            k = stack.pop()
            subtree.append(k)
            stack.extend(children[k])
        x = r[b] + A[b] @ tree.offset[b]
        force = wrench[subtree, :3].sum(axis=0)
        moment = sum(wrench[k, 3:] + np.cross(r[k] - x, wrench[k, :3]) for k in subtree)
        scale = np.abs(wrench).max() * max(1.0, np.abs(r).max())
        assert np.abs(reaction[j] - np.concatenate([force, moment])).max() <= 1e-10 * scale


def test_highest_rate_estimates_the_dense_spectrum():
    """The power iteration's highest frequency and decay rate (an estimate for messages, to
    2 %) against the eigenvalues of the motion linearised by central differences of the
    accelerations (numpy's eig)."""
    tree = make_tree(beam(4, root=Motion.M_SPHERICAL, damping=1e-3), gravity=(0.0, 0.0, -9.81))
    model = Spatial(tree)
    y = model.initial_state(q=np.random.default_rng(3).uniform(-0.05, 0.05, tree.n_q))
    n, h = model.n_q, 1e-7
    K, C = np.empty((n, n)), np.empty((n, n))
    for j in range(2 * n):
        yp, ym = y.copy(), y.copy()
        yp[j] += h
        ym[j] -= h
        (K if j < n else C)[:, j % n] = \
            -(model.derivative(0.0, yp)[n:] - model.derivative(0.0, ym)[n:]) / (2 * h)
    omega = np.sqrt(np.abs(np.linalg.eigvals(K)).max())
    decay = np.abs(np.linalg.eigvals(C)).max()
    assert abs(model.highest_rate(y, "stiffness") / omega - 1) <= 2e-2
    assert abs(model.highest_rate(y, "damping") / decay - 1) <= 2e-2
    assert "rad/s" in model.kernel.stiffness(y)
