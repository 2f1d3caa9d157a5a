"""Time steps of every integrator / formulation pair vs DOF.

Each call runs ``rancf.simulate`` over ``STEPS`` steps of ``DT`` from the same
deformed, moving state, so the per-step cost is the reported time / 10, with the
call's fixed overhead (input checks, result assembly) spread over ten steps; the
adaptive DOPRI5 (rtol 1e-6) covers the same 10 ms with the steps it chooses. Sizes a
solver is not meant for (dense DAE above 880 DOF) are skipped, and so is every pair on a
commit older than the mechanism model (:func:`common.require`).
"""
import inspect

from .common import DOFS, DOFS_PAPER, reference_system, require

STEPS = 10
DT = 1e-3  # s: the reference step of the energy case (E = 21 MPa)

#: label -> (simulate keyword arguments, largest DOF it is benchmarked at)
SCHEMES = {
    # dt = 1e-3 s is inside RK4's stability limit for E = 21 MPa; the check (power
    # iteration, about as costly as the ten steps) is skipped so the steps are timed.
    "rancf-rk4": (dict(formulation="recursive", method="rk4", check_stability=False), DOFS[-1]),
    "rancf-dopri5": (dict(formulation="recursive", method="dopri5"), DOFS[-1]),
    "rancf-implicit": (dict(formulation="recursive", method="generalized-alpha"), DOFS[-1]),
    "dae-dense": (dict(formulation="dae", method="generalized-alpha", linear_solver="dense"),
                  DOFS_PAPER[-1]),
    "dae-sparse": (dict(formulation="dae", method="generalized-alpha", linear_solver="sparse"),
                   DOFS[-2]),
}


def scheme(label, n_dof):
    """The simulate keywords of ``label``; NotImplementedError (asv: skipped) above the
    largest size it is benchmarked at."""
    options, largest = SCHEMES[label]
    if n_dof > largest:
        raise NotImplementedError(f"{label} is not benchmarked above {largest} DOF")
    return options


class Steps:
    """Ten steps of ``rancf.simulate(chain, 10 dt, dt, ...)`` for each scheme and size."""

    params = (list(SCHEMES), DOFS)
    param_names = ["scheme", "n_dof"]
    timeout = 300
    repeat = (1, 5, 10.0)  # a 1e5-DOF or dense 880-DOF call takes seconds

    def setup(self, label, n_dof):
        self.simulate = require("rancf", "simulate")
        self.options = scheme(label, n_dof)
        self.chain, self.state = reference_system(n_dof)
        if not hasattr(self, "warm"):
            self.run()  # one-off set-up (model, factorizations) outside the timing
            self.warm = True

    def run(self):
        result = self.simulate(self.chain, STEPS * DT, DT, state=self.state,
                               output_every=STEPS, **self.options)
        if result.status != "ok":
            raise RuntimeError(f"{self.options}: {result.status}: {result.message}")
        return result

    def time_10_steps(self, label, n_dof):
        self.run()


class Progress:
    """1e5 RK4 steps (100 s) of the 5 x 5 pendulum, E = 21 MPa, dt = 1 ms, with and without
    the progress bar (``progress="always"``: drawn on stderr, which asv does not show as a
    terminal). Issue 15: the bar, fed by the compiled loop at its 0.1 s Ctrl-C checks, may not
    slow the run by more than 2 %: compare the two parameters."""

    params = [False, "always"]
    param_names = ["progress"]
    timeout = 300
    number, repeat = 1, (3, 10, 60.0)

    def setup(self, progress):
        self.simulate = require("rancf", "simulate")
        if "progress" not in inspect.signature(self.simulate).parameters:
            raise NotImplementedError("rancf.simulate takes no progress before this commit")
        self.chain, self.state = reference_system(DOFS[0])

    def time_1e5_rk4_steps(self, progress):
        result = self.simulate(self.chain, 100.0, DT, state=self.state, method="rk4",
                               check_stability=False, output_every=1000, progress=progress)
        if result.status != "ok":
            raise RuntimeError(f"{result.status}: {result.message}")
