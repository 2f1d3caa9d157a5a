"""One right-hand-side evaluation of the recursive formulation vs DOF.

``f(y)`` = element forces + kinematic recursion + the two O(n) sweeps of the block
LDL^T (theory: The O(n) recursion), the call every explicit step makes. Issue 2's targets:
at most 10 us at 110 DOF, and a cost per DOF constant within +-20 % up to 1e5 DOF.
``Recursive.accelerations`` is the same evaluation behind the formulation's Python
method, which also checks the kernel's status and copies the node accelerations out.
"""
import numpy as np

from .common import DOFS, batch, memoized, reference_system, require


@memoized
def kernel_inputs(n_dof):
    """``(formulation, y, ydot)``: the pendulum's recursive formulation (constant LDL^T of
    Omega factored), the state vector of its wavy state and an output buffer. The buffer
    is reused: a fresh one per call would time the page faults of its first write."""
    of = require("rancf.formulations.recursive", "of")
    model, state = reference_system(n_dof)
    formulation = of(model.build())
    y = formulation.initial_state(state.x, state.v)
    return formulation, y, np.empty_like(y)


class RightHandSide:
    """``RecursiveKernel.rhs(t, y, ydot)`` at a stretched, bent, moving state."""

    params = DOFS
    param_names = ["n_dof"]
    timeout = 300

    def setup(self, n_dof):
        formulation, self.y, self.ydot = kernel_inputs(n_dof)
        self.kernel = formulation.kernel
        # Samples of about 20 ms (about 200 ns per DOF and call), so that a
        # microsecond call is not timed alone.
        batch(self, 100_000 // n_dof)

    def time_rhs(self, n_dof):
        rhs, y, ydot = self.kernel.rhs, self.y, self.ydot
        for _ in self.calls:
            rhs(0.0, y, ydot)


class Accelerations:
    """``Recursive.accelerations(t, y)``: the same evaluation, status check and copy included."""

    params = DOFS
    param_names = ["n_dof"]
    timeout = 300

    def setup(self, n_dof):
        self.formulation, self.y, _ = kernel_inputs(n_dof)
        batch(self, 10_000 // n_dof)

    def time_accelerations(self, n_dof):
        accelerations, y = self.formulation.accelerations, self.y
        for _ in self.calls:
            accelerations(0.0, y)
