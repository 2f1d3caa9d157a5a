"""Time steps of every integrator / formulation pair vs DOF.

Each call runs ``STEPS`` steps of ``rancf.simulate`` from the same deformed,
moving state, so the per-step cost is the reported time / 10 with the call's
fixed overhead (input checks, result assembly) spread over ten steps. Pairs
whose formulation is not in the commit, and sizes a solver is not meant for
(dense DAE above 880 DOF), are skipped.
"""
from .common import DOFS, DOFS_PAPER, pendulum, require, wavy_state

STEPS = 10
DT = 1e-3  # s: the reference step of the energy case (E = 21 MPa)

#: label -> (simulate keyword arguments, largest DOF it is benchmarked at)
SCHEMES = {
    "rancf-rk4": (dict(formulation="recursive", method="rk4"), DOFS[-1]),
    "rancf-dopri5": (dict(formulation="recursive", method="dopri5"), DOFS[-1]),
    "rancf-implicit": (dict(formulation="recursive", method="generalized-alpha"), DOFS[-1]),
    "dae-dense": (dict(formulation="dae", method="generalized-alpha", linear_solver="dense"),
                  DOFS_PAPER[-1]),
    "dae-sparse": (dict(formulation="dae", method="generalized-alpha", linear_solver="sparse"),
                   DOFS[-2]),
}


def scheme(label, n_dof):
    """The simulate keywords of ``label``; NotImplementedError when not runnable here."""
    options, largest = SCHEMES[label]
    if n_dof > largest:
        raise NotImplementedError(f"{label} is not benchmarked above {largest} DOF")
    if options["formulation"] == "dae":
        require("rancf.dae")
    return options


class Steps:
    """Ten steps of ``rancf.simulate(chain, 10 dt, dt, ...)`` for each scheme and size."""

    params = (list(SCHEMES), DOFS)
    param_names = ["scheme", "n_dof"]
    timeout = 300

    def setup(self, label, n_dof):
        self.simulate = require("rancf", "simulate")
        self.options = scheme(label, n_dof)
        self.chain = pendulum(n_dof)
        self.state = wavy_state(self.chain)
        self.run()  # one-off set-up (factorizations, symbolic analysis) outside the timing

    def run(self):
        result = self.simulate(self.chain, STEPS * DT, DT, state=self.state,
                               output_every=STEPS, **self.options)
        if result.status != "ok":
            raise RuntimeError(f"{self.options}: {result.status}: {result.message}")
        return result

    def time_10_steps(self, label, n_dof):
        self.run()
