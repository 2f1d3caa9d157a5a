"""The O(n) recursion against independent computations: the dense solve of
Omega = (Phi C)^T M (Phi C) assembled in numpy, and the classical formulation with all node
coordinates, constant M and joint constraints with Lagrange multipliers (dense solve)."""
import numpy as np
import pytest

import rancf
from rancf import element as el
from chains import element_map, mixed_chain, random_state, velocity_map

JOINT_SETS = [("revolute",) * 4, ("revolute", "prismatic", "revolute", "prismatic"),
              ("revolute", "prismatic", "prismatic")]


def element_forces(chain, nodes):
    """F_K,s - F_G,s for every element, (Nbar, 8)."""
    F = []
    for s, (a, b) in enumerate(chain.element_nodes):
        e = np.concatenate([nodes[a], nodes[b]])
        body = chain.bodies[chain.element_body[s]]
        F.append(el.elastic_force(e, chain.element_length[s], body.E, body.A, body.I,
                                  chain.elastic_model)
                 - el.gravity_force(body.rho, body.A, chain.element_length[s], chain.gravity))
    return np.array(F)


def bias_of(chain, state, h=1e-30):
    """dB/dt beta = (dB/dq . q') beta by the complex step along the motion (exact to round-off)."""
    q = state.nodes.ravel()
    qdot = velocity_map(chain, q) @ state.beta
    return (velocity_map(chain, q + 1j * h * qdot) @ state.beta).imag / h


def dense_accelerations(chain, state):
    B = velocity_map(chain, state.nodes)
    bias = bias_of(chain, state)
    M, F = chain.mass_matrices(), element_forces(chain, state.nodes)
    Omega = np.zeros((chain.n_dof, chain.n_dof))
    gamma = np.zeros(chain.n_dof)
    for s in range(chain.n_elements):
        Bs = element_map(chain, B, s)
        a = element_map(chain, bias[:, None], s)[:, 0]
        Omega += Bs.T @ M[s] @ Bs
        gamma -= Bs.T @ (M[s] @ a + F[s])
    return np.linalg.solve(Omega, gamma)


@pytest.mark.parametrize("joints", JOINT_SETS)
@pytest.mark.parametrize("model", sorted(el.MODELS))
def test_recursion_equals_dense_solve(joints, model):
    chain = mixed_chain(model, joints)
    rng = np.random.default_rng(4)
    for _ in range(3):
        state = random_state(chain, rng)
        expected = dense_accelerations(chain, state)
        got = rancf.accelerations(chain, state)
        assert np.abs(got - expected).max() <= 1e-10 * np.abs(expected).max()


@pytest.mark.parametrize("joints", JOINT_SETS)
def test_node_velocities_follow_the_kinematic_recursion(joints):
    chain = mixed_chain("shabana", joints)
    state = random_state(chain, np.random.default_rng(5))
    expected = (velocity_map(chain, state.nodes) @ state.beta).reshape(-1, 4)
    assert np.allclose(rancf.node_velocities(chain, state), expected, rtol=0, atol=1e-13 * np.abs(expected).max())


def constraints(chain, e):
    """Phi(e) of the classical formulation: pin, revolute and prismatic joint conditions."""
    q = e.reshape(-1, 4)
    out = [q[0, :2]]
    for k in range(1, chain.n_bodies):
        c = chain.body_first_node[k]
        p = c - 1
        if chain.bodies[k].joint == "revolute":
            out.append(q[c, :2] - q[p, :2])
        else:
            d, sp, sc = q[c, :2] - q[p, :2], q[p, 2:], q[c, 2:]
            out.append([d[0] * sp[1] - d[1] * sp[0], sc[0] * sp[1] - sc[1] * sp[0]])
    return np.concatenate([np.ravel(x) for x in out])


@pytest.mark.parametrize("joints", JOINT_SETS)
@pytest.mark.parametrize("model", ["shabana", "reissner"])
def test_recursion_equals_lagrange_multiplier_formulation(joints, model):
    chain = mixed_chain(model, joints)
    state = random_state(chain, np.random.default_rng(6))
    e = state.nodes.ravel()
    v = velocity_map(chain, e) @ state.beta
    n = e.size
    # Phi is quadratic in e: its Jacobian by central differences with unit steps is exact,
    # and so is the second difference giving v^T Phi_ee v.
    J = np.array([(constraints(chain, e + u) - constraints(chain, e - u)) / 2 for u in np.eye(n)]).T
    c2 = constraints(chain, e + v) - 2 * constraints(chain, e) + constraints(chain, e - v)
    M = np.zeros((n, n))
    F = np.zeros(n)
    for s, (a, b) in enumerate(chain.element_nodes):
        idx = np.r_[4 * a:4 * a + 4, 4 * b:4 * b + 4]
        M[np.ix_(idx, idx)] += chain.mass_matrices()[s]
        F[idx] -= element_forces(chain, state.nodes)[s]
    m = J.shape[0]
    K = np.block([[M, J.T], [J, np.zeros((m, m))]])
    edd = np.linalg.solve(K, np.concatenate([F, -c2]))[:n]
    # the recursion's node accelerations: B beta' + (dB/dt) beta
    got = velocity_map(chain, e) @ rancf.accelerations(chain, state) + bias_of(chain, state)
    assert np.abs(got - edd).max() <= 1e-9 * np.abs(edd).max()
