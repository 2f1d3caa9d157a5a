"""The recursive formulation's public entry points (kernels in ``rancf/_recursive.pyx``).

``accelerations`` solves ``Omega beta' = gamma`` in O(n) (DESIGN.md section 3). The
Cython model of a chain (constants, workspace, and for revolute chains the constant block
LDL^T of Omega) is built once and cached on the chain.
"""
import numpy as np

from ._recursive import RecursiveModel


def model_of(chain):
    """The cached :class:`RecursiveModel` of ``chain``."""
    model = getattr(chain, "_recursive_model", None)
    if model is None:
        model = RecursiveModel(chain)
        chain._recursive_model = model
    return model


def state_vector(chain, state):
    """``y = [q, beta]`` (4 n_nodes + n_dof,) of a :class:`rancf.State`, validated."""
    state = chain.state(state.nodes, state.beta)
    return np.concatenate([state.nodes.ravel(), state.beta])


def derivative(chain, state):
    """``(node velocities (n_nodes, 4), beta' (n_dof,))`` at ``state``."""
    y = state_vector(chain, state)
    ydot = np.empty_like(y)
    model_of(chain).rhs(y, ydot)
    n = 4 * chain.n_nodes
    return ydot[:n].reshape(-1, 4), ydot[n:]


def accelerations(chain, state):
    """Generalized accelerations ``beta' = Omega^{-1} gamma`` (n_dof,) at ``state``.

    Units follow beta: m/s^2 for node positions and joint slides, 1/s^2 for slopes.
    """
    return derivative(chain, state)[1]


def node_velocities(chain, state):
    """Node velocities ``[x', y', dx'/dt, dy'/dt]`` (n_nodes, 4) of ``state``."""
    return derivative(chain, state)[0]


def highest_frequency(chain, state, iterations=40):
    """A lower bound of the highest natural frequency (rad/s) of the chain linearised at ``state``.

    Power iteration on ``Omega^{-1} K_beta`` (element tangents at ``state``); the Rayleigh
    quotient never exceeds the largest eigenvalue, so the bound is safe for rejecting a step
    that is certainly unstable.
    """
    model = model_of(chain)
    q = state.nodes.ravel().copy()
    K = model.tangents(q)
    x = np.random.default_rng(0).standard_normal(chain.n_dof)
    y = np.empty_like(x)
    best = 0.0
    for _ in range(iterations):
        best = max(best, model.stiffness_rayleigh(q, K, x, y))
        x = y / np.abs(y).max()
    return float(np.sqrt(max(best, 0.0)))
