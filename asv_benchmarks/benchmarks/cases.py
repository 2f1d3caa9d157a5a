"""The main simulation of each validation case, at reduced length.

Parameters are those of CASES.md; only the simulated time is cut, so that a
benchmark takes seconds instead of minutes.
"""
from .common import E_SOFT, memoized, pendulum, require

REFERENCE_DOF = 110  # 5 bodies x 5 elements


class EnergyCase:
    """``energy`` case: 5 x 5 pendulum, E = 21 MPa, RK4 at dt = 1e-3 s, 1 s of its 4 s."""

    timeout = 300

    def setup(self):
        self.simulate = require("rancf", "simulate")
        self.chain = pendulum(REFERENCE_DOF, E=E_SOFT)

    def time_run_1s(self):
        self.simulate(self.chain, 1.0, 1e-3, method="rk4", output_every=10)


#: The integrators of the rod-slider case (generalized-alpha paper, table 1), by the labels
#: of ``validation.cases.rod_slider.SCHEMES``, which holds their methods and parameters.
ROD_SLIDER_SCHEMES = [
    "Newmark", "HHT-I3 alpha=1", "HHT-I3 alpha=0.9", "HHT-I3 alpha=2/3",
    "generalized-alpha rho=1", "generalized-alpha rho=0.9", "generalized-alpha rho=0",
    "generalized-alpha-S rho=1", "generalized-alpha-S rho=0.9",
]


class RodSliderCase:
    """``rod-slider`` case: one integrator, h = 0.01 s, 10 s of its 300 s (before Newmark's
    divergence near 15.5 s), without projection, with the paper's (Euclidean) projection
    and with the kinetic-energy-metric one."""

    params = (ROD_SLIDER_SCHEMES, [False, "euclidean", "mass"])
    param_names = ["scheme", "projection"]
    timeout = 300
    # Seconds per call in Python-level Newton iterations, 27 combinations: one call each.
    rounds, repeat, warmup_time = 1, 1, 0.0

    def setup(self, label, projection):
        self.run_scheme, schemes, projections = require(
            "validation.cases.rod_slider", "run_scheme", "SCHEMES", "PROJECTIONS",
            feature="rod-slider")
        found = [(method, parameters) for name, method, parameters in schemes if name == label]
        if not found or projection not in projections:
            raise NotImplementedError(f"the rod-slider case has no {label!r}, {projection!r}")
        self.method, self.parameters = found[0]

    def time_run_10s(self, label, projection):
        self.run_scheme(self.method, self.parameters, projection, 10.0)


@memoized
def modal_pendulum():
    """``(system, q0, v0, paper, settings)`` of the ``modal`` case's default (not quick) run."""
    paper, settings = require("validation.cases.modal", "PAPER", "_settings", feature="modal")
    pendulum = require("rancf.modal.mechanisms", "pendulum", feature="modal")
    cfg = settings(False)
    system, q0, v0 = pendulum(paper["length"], cfg["n_elements"], paper["E"], paper["rho"],
                              paper["A"], paper["I"])
    return system, q0, v0, paper, cfg


class ModalCase:
    """``modal`` case: free-falling 1 m pendulum, 160 Berzeri elements (644 coordinates),
    BDF-1 at h = 1 ms, 20 steps of its 1100: full ANCF (Newton) and adaptive modal
    (Craig-Bampton, sparsity 100, 308 samples, tol 1e-11), set-up included."""

    params = ["full ANCF", "adaptive modal"]
    param_names = ["method"]
    timeout = 900
    # The adaptive run takes about 100 s on a loaded 2-core machine: one call.
    rounds, repeat, warmup_time = 1, 1, 0.0

    def setup(self, method):
        self.integrate, newton = require("rancf.modal.bdf", "integrate", "NewtonStep",
                                         feature="modal")
        adaptive = require("rancf.modal.adaptive", "AdaptiveModalStep", feature="modal")
        self.system, self.q0, self.v0, paper, cfg = modal_pendulum()
        self.h = paper["h"]
        if method == "full ANCF":
            self.step = lambda: newton(paper["tol"])
        else:
            self.step = lambda: adaptive(cfg["sparsity"], cfg["n_samples"], paper["tol"], seed=0,
                                         max_iter=cfg["max_iter"])

    def time_20_steps(self, method):
        result = self.integrate(self.system, self.step(), self.q0, self.v0, 20 * self.h, self.h,
                                output_every=20)
        if result.status != "ok":
            raise RuntimeError(f"{result.status}: {result.message}")
