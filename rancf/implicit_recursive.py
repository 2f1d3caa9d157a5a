"""Implicit time integration of the recursive formulation (beyond the papers).

For a chain of revolute joints the node velocities are ``V = B beta`` with a constant B
(DESIGN.md section 2), so the node coordinates are ``nodes = nodes_0 + B q`` with
``q' = beta``: q are minimal coordinates (relative to the initial state), and the motion is
the ODE ``Omega q'' = gamma(nodes_0 + B q, q')`` with constant Omega (DESIGN.md section 3).
The generalized-alpha family of :mod:`rancf.implicit` applies unchanged (no constraints, so
no projection); its Newton matrix ``alpha_m Omega + alpha_f h^2 beta B^T diag(K_s) B`` is block
tridiagonal and is assembled, factored and solved in O(n) by the recursion's kernels
(``rancf/_implicit_recursive.pyx``). Every evaluation is O(n): element forces and tangents,
the tip-to-base force sweep and the two sweeps of the block LDL^T.

Since the map q -> nodes is linear, a step of this formulation is the same step as the one of
the classical DAE with the same scheme (:mod:`rancf.dae`, whose pin and revolute constraints are
linear): both give the same trajectory up to the Newton tolerance, a test checks it.

Prismatic joints make B depend on the state (the node coordinates are then no longer a
linear image of minimal coordinates); they are not supported here: use
``formulation="dae"`` or an explicit method.
"""
import numpy as np

from ._implicit_recursive import NewtonMatrix
from .dae import chain_result
from .implicit import IndexThreeDAE, integrate
from .recursive import model_of


class RecursiveImplicit(IndexThreeDAE):
    """A revolute chain in the minimal coordinates q (``nodes = nodes_0 + B q``), as an
    unconstrained second-order system for :mod:`rancf.implicit`.

    Parameters
    ----------
    chain : Chain
        Revolute joints only.
    nodes0 : ndarray (n_nodes, 4)
        The node coordinates at q = 0 (the initial state).
    """

    n_constraints = 0

    def __init__(self, chain, nodes0):
        if chain.has_prismatic:
            raise ValueError("formulation='recursive' with an implicit method needs a chain of "
                             "revolute joints (B is state-dependent with prismatic joints); "
                             "use formulation='dae' or an explicit method")
        self.chain = chain
        self.n_coordinates = chain.n_dof
        self.model = model_of(chain)
        self.newton = NewtonMatrix(self.model)
        self.nodes0 = np.ascontiguousarray(nodes0, dtype=float).ravel()
        self._work = np.empty(4 * chain.n_nodes)
        self._out = np.empty(chain.n_dof)

    def nodes(self, q):
        """Node coordinates nodes_0 + B q, flat (4 n_nodes,)."""
        return self.nodes0 + self.velocities(q)

    def velocities(self, beta):
        """Node velocities B beta, flat (4 n_nodes,)."""
        self.model.node_velocities(self.nodes0, np.ascontiguousarray(beta), self._work)
        return self._work.copy()

    def mass_action(self, q, a):
        self.newton.omega_times(self.nodes0, np.ascontiguousarray(a), self._out)
        return self._out.copy()

    def force(self, q, v, t):
        return self.model.generalized_forces(self.nodes(q), np.ascontiguousarray(v))

    def newton_matrix(self, q_e, a_e, lam, v_e, t_e, q_new, c_m, c_mq, c_k, c_c, w):
        """Factor ``c_m Omega + c_k B^T diag(K_s) B`` (Omega constant, F independent of v)."""
        if c_k:
            K = self.model.tangents(self.nodes(q_e))
        else:
            K = np.zeros((self.chain.n_elements, 8, 8))
        status = self.newton.factor(K, c_m, c_k)
        if status:
            raise ArithmeticError(f"Newton matrix not positive definite at element {status - 1}")
        return self

    def solve(self, r_dyn, r_con):
        x = np.empty(self.n_coordinates)
        self.newton.solve(np.ascontiguousarray(r_dyn), x)
        return x, np.zeros(0)


def simulate(chain, t_end, dt, method, output_every, state, tol=1e-10, max_iter=25, **parameters):
    """``rancf.simulate(..., formulation="recursive", method=<implicit>)``."""
    if "projection" in parameters or "linear_solver" in parameters:
        raise TypeError("projection and linear_solver apply to formulation='dae' only")
    problem = RecursiveImplicit(chain, state.nodes)
    sol = integrate(problem, np.zeros(chain.n_dof), state.beta.copy(), t_end, dt, method=method,
                    output_every=output_every, tol=tol, max_iter=max_iter, **parameters)
    return chain_result(chain, sol, method, "recursive",
                        lambda q, v: (problem.nodes(q).reshape(-1, 4),
                                      problem.velocities(v).reshape(-1, 4), v))
