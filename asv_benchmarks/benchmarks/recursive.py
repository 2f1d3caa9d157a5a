"""One right-hand-side evaluation of the recursive formulation vs DOF.

``f(y)`` = element forces + kinematic recursion + the two O(n) sweeps of the block
LDL^T (DESIGN.md section 3), the call every explicit step makes. Issue 2's targets:
at most 10 us at 110 DOF, and a cost per DOF constant within +-20 % up to 1e5 DOF.
``rancf.accelerations`` is the same evaluation behind the public entry point, which
also checks its input state.
"""
import numpy as np

from .common import DOFS, memoized, reference_system, require


@memoized
def kernel_inputs(n_dof):
    """``(model, y, ydot)``: the chain's Cython model (constant LDL^T of Omega factored),
    state vector and output buffer. The buffer is reused: a fresh one per call would
    time the page faults of its first write."""
    model_of, state_vector = require("rancf.recursive", "model_of", "state_vector")
    chain, state = reference_system(n_dof)
    y = state_vector(chain, state)
    return model_of(chain), y, np.empty_like(y)


class RightHandSide:
    """``RecursiveModel.rhs(y, ydot)`` at a stretched, bent, moving state."""

    params = DOFS
    param_names = ["n_dof"]
    timeout = 300

    def setup(self, n_dof):
        self.model, self.y, self.ydot = kernel_inputs(n_dof)
        # Samples of about 20 ms (about 200 ns per DOF and call), so that a
        # microsecond call is not timed alone.
        self.number = max(1, 100_000 // n_dof)

    def time_rhs(self, n_dof):
        self.model.rhs(self.y, self.ydot)


class Accelerations:
    """``rancf.accelerations(chain, state)``: the same evaluation, input checks included."""

    params = DOFS
    param_names = ["n_dof"]
    timeout = 300

    def setup(self, n_dof):
        self.accelerations = require("rancf", "accelerations")
        self.chain, self.state = reference_system(n_dof)
        kernel_inputs(n_dof)  # the chain's model is built once, outside the timing
        self.number = max(1, 10_000 // n_dof)

    def time_accelerations(self, n_dof):
        self.accelerations(self.chain, self.state)
