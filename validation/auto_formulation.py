"""Which formulation should ``formulation="auto"`` give a planar tree whose recursion's velocity
map is not constant (rigid bodies, prismatic, fixed or driven joints) under the implicit
methods? A measurement of the recursion against the DAE on such trees.

``rancf.simulate(..., formulation="auto")`` (rancf/simulate.py ``choose_formulation``) runs such
a tree on the DAE under the implicit methods. The reason recorded was that HHT and
generalized-alpha were first order on the recursion where the mass Omega(theta) turns; since
Arnold and Bruls' form they are second order there. The recursion's Newton matrix leaves out
the state dependence of B and of the bias (rancf/formulations/_implicit_recursive.pyx): its
residual is exact, so only its Newton iterations can suffer.

Models (every one a tree the recursion runs whose velocity map is not constant: ``auto`` sent
them all to the DAE under the implicit methods when this study was written), each at the step
and over a span of its case or test (:func:`models`):

* ``prismatic-chain``: validation/cases/prismatic_chain.py (beams and rigid bodies, two
  prismatic joints with springs), h = 2e-4 s, 0.5 s;
* ``rigid-bar``: validation/cases/rigid_period.py's rigid bar pendulum (L = 2 m), h = 1e-3 s;
* ``spin-up``: validation/cases/spin_up.py's beam on its driven hub (8 elements), h = 1e-3 s;
* ``branched-tree``, ``sprung-tree``: tests/models.py (every planar joint kind, efforts,
  springs), h = 2.5e-4 s and 1e-3 s;
* ``prismatic-pendulum``: ``rancf.pendulum(n_bodies=2, elements_per_body=2,
  joint="prismatic")`` of tests/test_formulations.py, h = 1e-3 s;
* and three of this study: ``tip-body`` (a steel beam pinned at the ground with a rigid body
  fixed at its end), ``slider-beam`` (a rigid slider on a sprung prismatic joint to the ground
  carrying a beam on a revolute joint), ``rigid-chain`` (three rigid bodies on revolute joints).

(validation/cases/rigid_limit.py's chain is beams on revolute joints: its velocity map is
constant and ``auto`` already runs it on the recursion; it is not in the set.)

Measured, for each model and each of newmark, hht, generalized-alpha, generalized-alpha-s
(default options: the ones ``auto`` runs), on each formulation:

* status at h and h/2;
* error e(h): the largest distance of any vertex from a converged reference, over the outputs,
  divided by the model size L. The reference is the recursion with DOPRI5 at rtol = atol =
  1e-11 (explicit, no Newton matrix, converged far below both formulations' time errors); the
  DAE's errors falling at second order against it is its check by a second formulation;
* order log2(e(h) / e(h/2));
* Newton iterations per step at h;
* CPU seconds (``time.process_time``) of the run at h, ``REPEATS`` runs, recursion and DAE
  interleaved, ratio recursion / DAE pair by pair, its median (the machine is shared:
  CPU time rather than wall time, and pairs rather than separate medians).

The rule, fixed before the runs: the recursion wins a (model, method) pair when its run at h and
at h/2 is ``ok`` and either the DAE's is not, or all of

* as accurate: e_R(h) <= 1.25 e_D(h) (a step 12 % shorter makes up a factor 1.25 at
  second order), or both below 1e-9 (the Newton tolerance's level, not the step's);
* its order is the DAE's: p_R >= min(p_D, 2) - 0.2;
* faster: median CPU ratio R / D <= 0.9 (a margin over the noise of a shared machine).

A method goes to the recursion under ``auto`` only if the recursion wins on every model for it;
otherwise the default stays, and the table says where and why the recursion loses.

Outside the rule, :func:`large_steps`: status and Newton iterations of both formulations at the
coarse steps 16, 32 and 64 ms, where the recursion's approximate Newton matrix is furthest from
the exact one.

The result (validation/data/auto_formulation.csv and auto_formulation_large_steps.csv): the
recursion won on all nine models under Newmark, HHT and generalized-alpha, which
``choose_formulation`` now runs on it (rancf.simulate.RECURSIVE_IMPLICIT); under
generalized-alpha-S it lost on the spin-up beam (3.2 times the DAE's error over 3 s).

Run::

    python -m validation.auto_formulation [--quick] [--models NAME ...] [--out FILE.csv]
        (FILE.csv: the study's table; FILE_large_steps.csv: :func:`large_steps`'s)
    python -m validation.auto_formulation --one MODEL METHOD FORMULATION [--times N]

``--quick``: the first three models, one timing pair. ``--one``: one run, N times, for a
whole-process timer or ``valgrind --tool=callgrind`` (the comparison of two such commands).
"""
from __future__ import annotations

import argparse
import importlib.util
import pathlib
import sys
import time

import numpy as np
import pandas as pd

import rancf
from rancf.formulations import recursive
from rancf.simulate import choose_method
from validation.cases import prismatic_chain, rigid_period, spin_up

METHODS = ("newmark", "hht", "generalized-alpha", "generalized-alpha-s")
REF_TOL = 1e-11  # DOPRI5 rtol = atol of the reference
REPEATS = 9  # timing pairs at h
ACCURATE, FLOOR, ORDER_SLACK, FASTER = 1.25, 1e-9, 0.2, 0.9  # the rule of the docstring


def _test_models():
    """tests/models.py (the tests' models: imported by path, tests/ is not a package)."""
    path = pathlib.Path(__file__).resolve().parent.parent / "tests" / "models.py"
    spec = importlib.util.spec_from_file_location("rancf_test_models", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


STEEL, SIDE = (2.1e10, 7800.0), 0.02  # Pa, kg/m^3; m, square section of the study's beams


def tip_body() -> rancf.Model:
    """A 1 m beam (4 elements) pinned at the ground, a 1 kg rigid body fixed at its end, under
    gravity, released straight along +x."""
    m = rancf.Model(gravity=(0.0, -9.81))
    b = m.add_beam(1.0, 4, *STEEL, SIDE**2, SIDE**4 / 12)
    m.add_joint("revolute", m.ground.point(0.0, 0.0), b.start)
    tip = m.add_rigid_body(1.0, 0.01, position=(1.1, 0.0))
    m.add_joint("fixed", b.end, tip.point(-0.1, 0.0))
    return m


def slider_beam() -> rancf.Model:
    """A 2 kg slider on a horizontal prismatic joint to the ground (spring 200 N/m, a push of
    5 N), carrying a 1 m beam (4 elements) on a revolute joint, released at 0.5 rad below +x."""
    m = rancf.Model(gravity=(0.0, -9.81))
    s = m.add_rigid_body(2.0, 0.02, position=(0.0, 0.0))
    m.add_joint("prismatic", m.ground.point(0.0, 0.0), s.centre,
                effort=lambda t, q, qd: -200.0 * q + 5.0)
    b = m.add_beam(1.0, 4, *STEEL, SIDE**2, SIDE**4 / 12, angle=-0.5)
    m.add_joint("revolute", s.centre, b.start)
    return m


def rigid_chain() -> rancf.Model:
    """Three rigid bars (0.5 m, 1 kg, pinned end to end) released straight along +x."""
    m = rancf.Model(gravity=(0.0, -9.81))
    parent = m.ground.point(0.0, 0.0)
    for i in range(3):
        bar = m.add_rigid_body(1.0, 0.5**2 / 12, position=(0.25 + 0.5 * i, 0.0))
        m.add_joint("revolute", parent, bar.point(-0.25, 0.0))
        parent = bar.point(0.25, 0.0)
    return m


def models() -> dict:
    """name: (model, step h (s), span (s), output interval (s))."""
    tm = _test_models()
    return {
        "prismatic-chain": (prismatic_chain.chain()[0], 2e-4, prismatic_chain.T_COMPARE, 1e-2),
        "rigid-bar": (rigid_period.rigid_bar(2.0)[0], 1e-3, 2.0, 1e-2),
        "spin-up": (spin_up.spin_up_beam(spin_up.ELEMENTS), spin_up.H, 3.0, 2e-2),
        "branched-tree": (tm.branched_tree(smooth=True), 2.5e-4, 0.3, 1e-2),
        "sprung-tree": (tm.sprung_tree(), 1e-3, 0.5, 1e-2),
        "prismatic-pendulum": (rancf.pendulum(n_bodies=2, elements_per_body=2, joint="prismatic"),
                               1e-3, 0.5, 1e-2),
        "tip-body": (tip_body(), 1e-3, 0.5, 1e-2),
        "slider-beam": (slider_beam(), 1e-3, 1.0, 1e-2),
        "rigid-chain": (rigid_chain(), 1e-3, 1.0, 1e-2),
    }


def run(model, t_end, h, method, formulation, out, state):
    """(Result, CPU seconds)."""
    start = time.process_time()
    res = rancf.simulate(model, t_end, h, method=method, formulation=formulation, state=state,
                         output_every=round(out / h))
    return res, time.process_time() - start


def error(res, ref, size) -> float:
    if res.status != "ok":
        return float("nan")
    return float(np.abs(res.nodes[:, :, :2] - ref.nodes[:, :, :2]).max() / size)


def study(names=None, repeats=REPEATS, catalogue=None, methods=METHODS) -> pd.DataFrame:
    """The docstring's measurement and rule on every model of ``catalogue`` (name: (model, h,
    span, output interval), :func:`models`'s by default) and every method of ``methods``."""
    rows = []
    for name, (model, h, t_end, out) in (catalogue or models()).items():
        if names is not None and name not in names:
            continue
        A = model.build()
        assert A.recursive_reason is None and not (recursive.tree_tables(A)["constant"]
                                                   and not len(A.bodies)), name
        ref = rancf.simulate(model, t_end, out, method="dopri5", rtol=REF_TOL, atol=REF_TOL,
                             output_every=1, formulation="recursive")
        if ref.status != "ok":
            raise RuntimeError(f"{name}: reference {ref.status}: {ref.message}")
        state = ref.state(0)
        for method in methods:
            row = {"model": name, "method": method, "h (s)": h, "T (s)": t_end}
            cpu = {"recursive": [], "dae": []}
            for k in range(repeats):
                for formulation in ("recursive", "dae"):
                    res, seconds = run(model, t_end, h, method, formulation, out, state)
                    cpu[formulation].append(seconds)
                    if k == 0:
                        f = formulation[0].upper()
                        half, _ = run(model, t_end, h / 2, method, formulation, out, state)
                        row[f"{f} status"] = res.status if res.status == half.status else \
                            f"{res.status}/{half.status}"
                        e, e2 = error(res, ref, A.size), error(half, ref, A.size)
                        row[f"{f} e(h)"], row[f"{f} order"] = e, np.log2(e / e2)
                        row[f"{f} newton/step"] = res.stats["newton_iterations"] / max(res.stats["steps"], 1)
                        if res.status != "ok":
                            break
            ratios = [r / d for r, d in zip(cpu["recursive"], cpu["dae"])]
            row["R cpu (s)"], row["D cpu (s)"] = np.median(cpu["recursive"]), np.median(cpu["dae"])
            row["R/D cpu"] = float(np.median(ratios)) if ratios else float("nan")
            row["R wins"], row["why"] = verdict(row)
            rows.append(row)
            print(pd.Series(row).to_string(), "\n", flush=True)
    return pd.DataFrame(rows)


LARGE_STEPS = (0.016, 0.032, 0.064)  # s
LARGE_SPAN = 2.0  # s


def large_steps(names=None) -> pd.DataFrame:
    """Outside the rule: status and Newton iterations per step of every model and method on
    both formulations at the coarse steps ``LARGE_STEPS`` over ``LARGE_SPAN`` (where the
    recursion's approximate Newton matrix is furthest from the exact one), and the method
    ``method="auto"`` picks there."""
    rows = []
    for name, (model, _, _, _) in models().items():
        if names is not None and name not in names:
            continue
        for H in LARGE_STEPS:
            row0 = {"model": name, "h (s)": H, "auto picks": choose_method(model, H)[0]}
            for method in METHODS:
                row = dict(row0, method=method)
                for formulation in ("recursive", "dae"):
                    res = rancf.simulate(model, round(LARGE_SPAN / H) * H, H, method=method,
                                         formulation=formulation, output_every=1)
                    f = formulation[0].upper()
                    row[f"{f} status"], row[f"{f} reached (s)"] = res.status, res.t[-1]
                    row[f"{f} newton/step"] = res.stats["newton_iterations"] / max(res.stats["steps"], 1)
                rows.append(row)
                print(pd.Series(row).to_string(), "\n", flush=True)
    return pd.DataFrame(rows)


def verdict(row) -> tuple[bool, str]:
    """The docstring's rule on one (model, method) row: (recursion wins, the reason)."""
    if row["R status"] != "ok":
        return False, f"recursion {row['R status']}"
    if row["D status"] != "ok":
        return True, f"DAE {row['D status']}"
    why = []
    eR, eD = row["R e(h)"], row["D e(h)"]
    if not (eR <= ACCURATE * eD or max(eR, eD) <= FLOOR):
        why.append(f"error {eR / eD:.3g} x the DAE's")
    if not row["R order"] >= min(row["D order"], 2.0) - ORDER_SLACK:
        why.append(f"order {row['R order']:.2f} < {row['D order']:.2f}")
    if not row["R/D cpu"] <= FASTER:
        why.append(f"CPU {row['R/D cpu']:.2f} x the DAE's")
    return not why, "; ".join(why) or "as accurate, same order, faster"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--models", nargs="*")
    parser.add_argument("--out", default=None)
    parser.add_argument("--one", nargs=3, metavar=("MODEL", "METHOD", "FORMULATION"),
                        help="only run MODEL with METHOD on FORMULATION at its h (for a "
                             "whole-process timer or callgrind), --times times")
    parser.add_argument("--times", type=int, default=1)
    args = parser.parse_args(argv)
    if args.one:
        name, method, formulation = args.one
        model, h, t_end, out = models()[name]
        for _ in range(args.times):
            res, _ = run(model, t_end, h, method, formulation, out, None)
        return 0 if res.status == "ok" else 1
    names = args.models or (list(models())[:3] if args.quick else None)
    table = study(names, 1 if args.quick else REPEATS)
    coarse = large_steps(names)
    with pd.option_context("display.width", 250, "display.max_columns", 30):
        print(table.drop(columns=["T (s)"]).to_string(index=False, float_format=lambda v: f"{v:.3g}"))
        print(coarse.to_string(index=False, float_format=lambda v: f"{v:.3g}"))
    if args.out:
        table.to_csv(args.out, index=False, float_format="%.4g")
        coarse.to_csv(args.out.replace(".csv", "_large_steps.csv"), index=False, float_format="%.4g")
    wins = table.groupby("method")["R wins"].all()
    print("\nrecursion wins on every model:", wins.to_dict())


if __name__ == "__main__":
    sys.exit(main())
