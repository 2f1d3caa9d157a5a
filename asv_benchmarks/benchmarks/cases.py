"""The main simulation of each validation case, at reduced length.

Parameters are those of CASES.md; only the simulated time is cut, so that a
benchmark takes seconds instead of minutes.
"""
from .common import E_SOFT, pendulum, require

REFERENCE_DOF = 110  # 5 bodies x 5 elements


class EnergyCase:
    """``energy`` case: 5 x 5 pendulum, E = 21 MPa, RK4 at dt = 1e-3 s, 1 s of its 4 s."""

    timeout = 300

    def setup(self):
        self.simulate = require("rancf", "simulate")
        self.chain = pendulum(REFERENCE_DOF, E=E_SOFT)

    def time_run_1s(self):
        self.simulate(self.chain, 1.0, 1e-3, method="rk4", output_every=10)
