"""Peak memory (resident set size of the benchmark process) of the largest runs."""
from .common import DOFS, pendulum, require
from .integrators import DT, SCHEMES, STEPS, scheme

#: scheme -> the size its memory is measured at: RANCF at 1e5 DOF, the dense DAE
#: at the largest size it is benchmarked at.
SIZES = {"rancf-rk4": DOFS[-1], "dae-dense": SCHEMES["dae-dense"][1]}


class PeakMemory:
    """Ten steps with every step kept in the result (``output_every=1``)."""

    params = list(SIZES)
    param_names = ["scheme"]
    timeout = 300

    def setup(self, label):
        self.simulate = require("rancf", "simulate")
        require("rancf", "Model")  # the options of the mechanism model's simulate
        self.options = scheme(label, SIZES[label])

    def peakmem_10_steps(self, label):
        result = self.simulate(pendulum(SIZES[label]), STEPS * DT, DT, output_every=1,
                               **self.options)
        if result.status != "ok":
            raise RuntimeError(f"{label}: {result.status}: {result.message}")
