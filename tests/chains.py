"""Test helpers: chains, random admissible states, and an independent numpy assembly of the
node-velocity map of DESIGN.md section 2 (``V = B(q) beta``), written from the formulas
without the Cython kernels."""
import numpy as np

import rancf


def mixed_chain(model="shabana", joints=("revolute", "prismatic", "revolute", "prismatic"),
                E=5e6):
    bodies = [rancf.Body(length=1.0 + 0.2 * k, n_elements=2 + k % 2, E=E, rho=2000.0,
                         A=4e-4, I=2e-8, joint=j) for k, j in enumerate(joints)]
    return rancf.Chain(bodies, gravity=9.81, elastic_model=model)


def random_state(chain, rng, amplitude=0.2):
    """A random state satisfying every joint: deformed bodies, random joint offsets and rates."""
    nodes = chain.straight_state().nodes + amplitude * rng.standard_normal((chain.n_nodes, 4))
    nodes[0, :2] = 0.0
    for k in range(1, chain.n_bodies):
        c = chain.body_first_node[k]
        shift = nodes[c - 1, :2] - nodes[c, :2]
        nodes[c:c + chain.bodies[k].n_elements + 1, :2] += shift   # body follows its joint
        if chain.bodies[k].joint == "prismatic":
            sp = nodes[c - 1, 2:]
            gamma, lam = rng.uniform(-0.3, 0.3), rng.uniform(0.8, 1.2)
            nodes[c:c + chain.bodies[k].n_elements + 1, :2] += gamma * sp / np.linalg.norm(sp)
            nodes[c, 2:] = lam * sp
    beta = rng.standard_normal(chain.n_dof)
    return chain.state(nodes, beta)


def velocity_map(chain, q):
    """B (4 n_nodes, n_dof) with node velocities = B beta at node coordinates q (n_nodes, 4).

    Works for complex q, so that the bias (dB/dt) beta can be taken by the complex step.
    """
    q = np.asarray(q).reshape(-1, 4)
    B = np.zeros((4 * chain.n_nodes, chain.n_dof), dtype=q.dtype)
    prev = None
    for s in range(chain.n_elements):
        off, nb = chain.beta_offset[s], chain.beta_size[s]
        left, right = chain.element_nodes[s]
        R = np.zeros((4, chain.n_dof), dtype=q.dtype)
        R[:, off + nb - 4:off + nb] = np.eye(4)
        if nb == 6:
            E = np.zeros((2, chain.n_dof))
            E[:, off:off + 2] = np.eye(2)
            if s == 0:                                    # pin
                Vl = np.vstack([np.zeros((2, chain.n_dof)), E])
            elif chain.element_joint[s] == 0:             # revolute
                Vl = np.diag([1.0, 1.0, 0.0, 0.0]) @ prev + np.vstack([np.zeros((2, chain.n_dof)), E])
            else:                                         # prismatic
                rp, sp = q[left - 1, :2], q[left - 1, 2:]
                ns = np.sqrt(sp @ sp)    # not norm(): stays analytic for complex steps
                p = sp / ns
                D = (np.eye(2) - np.outer(p, p)) / ns
                gamma = (q[left, :2] - rp) @ p
                lam = q[left, 2:] @ sp / ns**2
                chi = np.block([[np.eye(2), gamma * D], [np.zeros((2, 2)), lam * np.eye(2)]])
                eps = np.block([[p[:, None], np.zeros((2, 1))], [np.zeros((2, 1)), sp[:, None]]])
                Vl = chi @ prev + eps @ E
            B[4 * left:4 * left + 4] = Vl
        B[4 * right:4 * right + 4] = R
        prev = R
    return B


def element_map(chain, B, s):
    """Rows of B giving element s's velocity V_E{s} (8, n_dof)."""
    left, right = chain.element_nodes[s]
    return np.vstack([B[4 * left:4 * left + 4], B[4 * right:4 * right + 4]])
