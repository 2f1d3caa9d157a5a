"""The main simulation of each validation case, at reduced length.

Parameters are those of CASES.md; only the simulated time is cut, so that a
benchmark takes seconds instead of minutes.
"""
from .common import E_SOFT, E_STEEL, pendulum, require

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
        found = [(method, parameters) for name, method, parameters, _ours in schemes
                 if name == label]
        if not found or projection not in projections:
            raise NotImplementedError(f"the rod-slider case has no {label!r}, {projection!r}")
        self.method, self.parameters = found[0]

    def time_run_10s(self, label, projection):
        self.run_scheme(self.method, self.parameters, projection, 10.0)


class ModalCase:
    """``modal`` case: free-falling 1 m pendulum, 160 Berzeri elements (644 coordinates),
    h = 1 ms, 20 steps of its 1100, every way rancf runs it: the full model with backward Euler
    on the DAE (the paper's "conventional ANCF") and on implicit RANCF, rancf's default
    (generalized-alpha, implicit RANCF: the issue-12 comparison with Exudyn), and the adaptive
    modal method (``rancf.reduce``: Craig-Bampton, sparsity 100, 308 samples, tol 1e-11; the
    reduction is set up outside the timing)."""

    params = ["full DAE backward-euler", "full RANCF backward-euler",
              "full RANCF generalized-alpha", "adaptive modal"]
    param_names = ["method"]
    timeout = 900
    # A call takes seconds (the adaptive run's 20 steps: 1.6 s in all, 6 s on a loaded
    # 2-core machine; its set-up, the reduction, 4 s more): one call.
    rounds, repeat, warmup_time = 1, 1, 0.0

    def setup(self, method):
        self.simulate, self.reduce = require("rancf", "simulate", "reduce", feature="reduced")
        paper, settings = require("validation.cases.modal", "PAPER", "_settings",
                                  feature="reduced")
        pendulum = require("validation.mechanisms", "pendulum", feature="reduced")
        cfg = settings(False)
        self.h, self.model = paper["h"], pendulum(cfg["n_elements"])
        self.options = {
            "full DAE backward-euler": dict(method="backward-euler", formulation="dae",
                                            tol=paper["tol"]),
            "full RANCF backward-euler": dict(method="backward-euler", formulation="recursive",
                                              tol=paper["tol"]),
            "full RANCF generalized-alpha": dict(method="generalized-alpha"),
            "adaptive modal": dict(method="backward-euler"),
        }[method]
        if method == "adaptive modal":
            self.model = self.reduce(self.model, cfg["sparsity"], cfg["n_samples"], seed=0,
                                     tol=paper["tol"], max_iter=cfg["max_iter"])

    def time_20_steps(self, method):
        result = self.simulate(self.model, 20 * self.h, self.h, output_every=20, **self.options)
        if result.status != "ok":
            raise RuntimeError(f"{result.status}: {result.message}")


class StiffPendulum:
    """Issue 12's first target: the 5 x 5 pendulum with E = 210 GPa released from rest, 4 s at
    h = 1 ms with rancf's defaults (generalized-alpha, rho_inf 0.9, implicit RANCF; Exudyn
    1.13 took about 0.5 s on the reference machine, the ``peers`` case times both), and the
    DAE's sparse and dense solvers on the same run."""

    params = ["rancf-implicit", "dae-sparse", "dae-dense"]
    param_names = ["formulation"]
    timeout = 300
    repeat = (1, 5, 30.0)

    def setup(self, label):
        self.simulate = require("rancf", "simulate")
        self.chain = pendulum(REFERENCE_DOF, E=E_STEEL)
        self.options = {"rancf-implicit": {},
                        "dae-sparse": dict(formulation="dae", linear_solver="sparse"),
                        "dae-dense": dict(formulation="dae", linear_solver="dense")}[label]

    def time_4s(self, label):
        result = self.simulate(self.chain, 4.0, 1e-3, method="generalized-alpha",
                               output_every=100, **self.options)
        if result.status != "ok":
            raise RuntimeError(f"{result.status}: {result.message}")
