"""Measurements behind the user guide's table of integrators (docs/user_guide/integrators.rst).

Run from the repository root: ``python docs/measure/integrators.py``. For each model (the
5 x 5 pendulum of the RANCF paper at E = 21 MPa and at E = 210 GPa, 1 s) and each method and
step it prints: the tip error at t = 1 s against a reference (DOPRI5 at rtol = atol = 1e-11 on
the recursive formulation), the energy drift (``Result.energy_drift``), Newton iterations per
step, and the median wall time of 3 runs (``Result.wall_time``: the integration only), runs of
the methods interleaved. Wall times on a shared machine are noisy: compare within one run.
"""
import statistics
import sys

import numpy as np

import rancf

T_END = 1.0
RUNS = [("rk4", 1e-3, {}), ("rk4", 1e-4, {}), ("rk4", 2e-5, {}),
        ("dopri5", 1e-4, {"rtol": 1e-6, "atol": 1e-9}),
        ("newmark", 1e-3, {}), ("hht", 1e-3, {"alpha": 0.9}),
        ("generalized-alpha", 1e-3, {"rho_inf": 0.9}), ("generalized-alpha", 1e-3, {"rho_inf": 0.5}),
        ("generalized-alpha-s", 1e-3, {"rho_inf": 0.9}), ("backward-euler", 1e-3, {}),
        ("generalized-alpha", 1e-4, {"rho_inf": 0.9}),
        ("generalized-alpha", 1e-3, {"rho_inf": 0.9, "formulation": "dae"})]


def main(repeats=3):
    for E in (21e6, 2.1e11):
        model = rancf.pendulum(E=E)
        ref = rancf.simulate(model, T_END, 1e-4, method="dopri5", rtol=1e-11, atol=1e-11,
                             output_every=10**6).tip()[-1]
        print(f"\n5 x 5 pendulum, E = {E:g} Pa, {T_END:g} s; reference tip {ref}")
        times = {k: [] for k in range(len(RUNS))}
        results = {}
        for _ in range(repeats):
            for k, (method, dt, options) in enumerate(RUNS):
                try:
                    res = rancf.simulate(model, T_END, dt, method=method, output_every=10**6,
                                         **options)
                except ValueError as exc:
                    results[k] = str(exc).split(";")[0]
                    continue
                times[k].append(res.wall_time)
                results[k] = res
        print("| method | options | dt (s) | status | tip error (m) | energy drift | "
              "Newton its/step | wall time (s) |")
        for k, (method, dt, options) in enumerate(RUNS):
            res = results[k]
            if isinstance(res, str):
                print(f"| {method} | {options} | {dt:g} | refused: {res} | | | | |")
                continue
            err = np.linalg.norm(res.tip()[-1] - ref) if res.status == "ok" else float("nan")
            steps = max(res.stats["steps"], 1)
            its = res.stats["newton_iterations"] / steps
            print(f"| {method} | {options} | {dt:g} | {res.status} | {err:.1e} | "
                  f"{res.energy_drift():.1e} | {its:.2f} | {statistics.median(times[k]):.3f} |")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
