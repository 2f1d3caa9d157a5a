"""Measurements behind the user guide's page on formulations (docs/user_guide/formulations.rst).

Run from the repository root: ``python docs/measure/formulations.py``. Wall time per step
(``Result.wall_time / steps``, median of 3 interleaved runs) of one model in each formulation,
against the number of coordinates: chains of the RANCF paper's pendulum (5 elements per body,
E = 21 MPa) of 5, 20 and 80 bodies, 100 steps of 1 ms; and the free-falling flexible pendulum
(Berzeri model) of 20 and 40 elements, full and adaptive modal, 50 steps of 1 ms.
"""
import statistics

import rancf

REPEATS = 3


def per_step(res):
    return res.wall_time / max(res.stats["steps"], 1)


def chains():
    print("| bodies | coordinates | recursive RK4 | recursive generalized-alpha | DAE generalized-alpha (sparse) | DAE generalized-alpha (dense) |")
    for n in (5, 20, 80):
        model = rancf.pendulum(n_bodies=n)
        runs = {"rk4": dict(method="rk4"),
                "rec-ga": dict(method="generalized-alpha", formulation="recursive"),
                "dae-sparse": dict(method="generalized-alpha", formulation="dae"),
                "dae-dense": dict(method="generalized-alpha", formulation="dae",
                                  linear_solver="dense")}
        if n > 20:
            runs.pop("dae-dense")
        times = {k: [] for k in runs}
        for _ in range(REPEATS):
            for k, kw in runs.items():
                times[k].append(per_step(rancf.simulate(model, 0.1, 1e-3, output_every=100, **kw)))
        cells = [f"{1e6 * statistics.median(times[k]):.0f} us" if k in times else "not run"
                 for k in ("rk4", "rec-ga", "dae-sparse", "dae-dense")]
        print(f"| {n} | {model.build().n_x} | " + " | ".join(cells) + " |")


def modal():
    print("| elements | coordinates | full (DAE, backward Euler) | adaptive modal (backward Euler) | sparsity / samples |")
    for n, s, ns in ((20, 40, 80), (40, 80, 160)):
        model = rancf.Model(gravity=(0.0, -9.81), elastic_model="berzeri")
        b = model.add_beam(1.0, n, E=7e5, rho=7200.0, A=4e-4, I=1.333e-8)
        model.add_joint("revolute", model.ground.point(0.0, 0.0), b.start)
        reduced = rancf.reduce(model, sparsity=s, n_samples=ns)
        full_t, red_t = [], []
        for _ in range(REPEATS):
            full_t.append(per_step(rancf.simulate(model, 0.05, 1e-3, method="backward-euler",
                                                  formulation="dae", output_every=100)))
            red_t.append(per_step(rancf.simulate(reduced, 0.05, 1e-3, method="backward-euler",
                                                 output_every=100)))
        print(f"| {n} | {model.build().n_x} | {1e6 * statistics.median(full_t):.0f} us | "
              f"{1e6 * statistics.median(red_t):.0f} us | {s} / {ns} |")


if __name__ == "__main__":
    chains()
    modal()
