"""Per-step time of the implicit formulations against the number of DOF.

DAE with dense LU, DAE with SuperLU, and implicit RANCF (block LDL^T sweeps), all with
generalized-alpha (rho_inf = 0.9) at dt = 1e-3 on pendulums of 5, 10, 20, 40 bodies x 5
elements (110 ... 880 DOF, E = 21 MPa; sparse and RANCF also 80, 160, 320 bodies, up to
7040 DOF), from the straight state at rest. Reports the median
wall time per step over ``repeats`` runs of ``n_steps`` steps, and the log-log slope of each
formulation (1 = O(n)). Run::

    python -m validation.implicit_step_times [--quick]

The validation ``scaling`` case calls the same formulations through :func:`rancf.simulate`.

BLAS runs single-threaded (set by the ``validation`` package, see its docstring).
"""
import sys
import time

import numpy as np
import pandas as pd

import rancf
from validation.pendulum import dof

FORMULATIONS = {
    "DAE dense": dict(formulation="dae", linear_solver="dense"),
    "DAE sparse": dict(formulation="dae", linear_solver="sparse"),
    "implicit RANCF": dict(formulation="recursive"),
}


def step_times(bodies=(5, 10, 20, 40), n_steps=20, repeats=3, dt=1e-3, dense_max_dof=880):
    """DataFrame: formulation, bodies, dof, seconds per step (median), Newton iterations per step.

    The dense DAE is skipped above ``dense_max_dof`` (its LU is O(n^3)).
    """
    rows = []
    for nb in bodies:
        chain = rancf.pendulum(n_bodies=nb, elements_per_body=5)
        n_dof = dof(chain)
        for name, kw in FORMULATIONS.items():
            if name == "DAE dense" and n_dof > dense_max_dof:
                continue
            times = []
            for _ in range(repeats):
                start = time.perf_counter()
                res = rancf.simulate(chain, n_steps * dt, dt, method="generalized-alpha",
                                     rho_inf=0.9, output_every=n_steps, **kw)
                times.append((time.perf_counter() - start) / n_steps)
            rows.append({"formulation": name, "bodies": nb, "dof": n_dof,
                         "s per step": float(np.median(times)),
                         "Newton iterations per step": res.stats["newton_iterations"] / n_steps})
    return pd.DataFrame(rows)


def slopes(table, dof_range=(0, np.inf)):
    """Log-log slope of time per step against DOF, per formulation, over ``dof_range``."""
    out = {}
    for name, g in table.groupby("formulation"):
        g = g[(g.dof >= dof_range[0]) & (g.dof <= dof_range[1])]
        if len(g) >= 2:
            out[name] = float(np.polyfit(np.log(g.dof), np.log(g["s per step"]), 1)[0])
    return out


def main(argv=None):
    quick = "--quick" in (argv if argv is not None else sys.argv[1:])
    table = step_times(bodies=(5, 10, 20) if quick else (5, 10, 20, 40, 80, 160, 320),
                       n_steps=5 if quick else 20, repeats=1 if quick else 3)
    with pd.option_context("display.width", 200):
        print(table.to_string(index=False))
    for rng in ((110, 880), (880, np.inf)):
        for name, slope in slopes(table, rng).items():
            print(f"log-log slope {name}, {rng[0]}-{rng[1]} DOF: {slope:.2f}")


if __name__ == "__main__":
    main()
