"""What an output costs (issue 25): the 5 x 5 pendulum (110 DOF, Reissner, E = 21 MPa) over
1 s at 1 ms, storing every step against every 100th, under RK4, implicit RANCF
(generalized-alpha, rho_inf 0.9) and the sparse DAE. A stored output holds the state (the
loops keep states and the formulation maps them once, afterwards; energies are computed when
the Result is asked for them), so the two runs of a scheme should cost about the same: the goal
is every step within 20 % of every 100th (``asv compare`` of the two parameters).
"""
from .common import E_SOFT, pendulum, require

REFERENCE_DOF = 110  # 5 bodies x 5 elements
SCHEMES = {
    "rk4": {"method": "rk4"},
    "rancf-generalized-alpha": {"method": "generalized-alpha", "rho_inf": 0.9},
    "dae-generalized-alpha": {"method": "generalized-alpha", "rho_inf": 0.9,
                              "formulation": "dae", "linear_solver": "sparse"},
}


class Outputs:
    """One simulate call, the Result included, storing every ``every``-th step."""

    params = (list(SCHEMES), [1, 100])
    param_names = ["scheme", "every"]
    timeout = 300

    def setup(self, label, every):
        self.simulate = require("rancf", "simulate")
        self.chain = pendulum(REFERENCE_DOF, E=E_SOFT, elastic_model="reissner")
        self.options = SCHEMES[label]

    def time_run_1s(self, label, every):
        result = self.simulate(self.chain, 1.0, 1e-3, output_every=every, **self.options)
        if result.status != "ok":
            raise RuntimeError(f"{label}: {result.status}: {result.message}")
