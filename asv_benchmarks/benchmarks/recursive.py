"""One right-hand-side evaluation of the recursive formulation vs DOF.

``rancf.accelerations`` = element forces + kinematic recursion + the two O(n)
sweeps of the block LDL^T (DESIGN.md section 3). The issue's targets: at most
10 us at 110 DOF, and a cost per DOF constant within +-20 % up to 1e5 DOF.
"""
from .common import DOFS, pendulum, require, wavy_state


class RightHandSide:
    """``rancf.accelerations(chain, state)`` at a stretched, bent, moving state."""

    params = DOFS
    param_names = ["n_dof"]
    timeout = 300

    def setup(self, n_dof):
        self.accelerations = require("rancf", "accelerations")
        self.chain = pendulum(n_dof)
        self.state = wavy_state(self.chain)
        self.accelerations(self.chain, self.state)  # one-off factorization outside the timing

    def time_accelerations(self, n_dof):
        self.accelerations(self.chain, self.state)
