"""``peers``: the 5 x 5 pendulum in Exudyn and in rancf, like with like.

Exudyn (https://github.com/jgerstmayr/EXUDYN, PyPI ``exudyn``, extra ``rancf[peers]``) models
the chain with its ``ObjectANCFCable2D`` elements (the Reissner / Euler-Bernoulli cable: axial
strain ``|r'| - 1``, curvature ``e3 . (r' x r'') / |r'|^2``, its documentation's "material
measure of curvature"; default Gauss orders 9 and 5), nodes ``NodePoint2DSlope1``,
``ObjectJointRevolute2D`` between the last node of a body and the first node of the next
(positions equal, slopes free: the revolute joint of the RANCF paper) and at the pin, gravity as
``LoadMassProportional``, and its implicit generalized-alpha solver with fixed step and the
sparse linear solver (``EigenSparse``).

rancf's ``reissner`` model is the same element model, so with it the tips should agree to
about a millimetre over 3.5 s; rancf's default ``shabana`` model is a different element
model and differs by metres at this mesh with E = 21 MPa: the case shows how that gap
shrinks with mesh refinement, to separate modelling from numerics.

Speed (issue 12) like with like: the same element model (rancf's ``reissner`` against Exudyn's
cable), the same scheme and step (generalized-alpha, spectral radius 0.9, h = 1 ms, against
Exudyn's; RK4 against Exudyn's explicit RK44 at h = 1 ms), one thread each, both codes'
Newton iterations per step, and each code's Newton tolerance expressed in one norm (the tip
distance between its run at its default tolerance and at a tight one). Exudyn's explicit solvers
take only constraints that fix a coordinate to the ground, so the explicit pair is one beam of
the chain's length and mesh pinned at the origin; rancf's Shabana (and, on the modal case's
pendulum, Berzeri) runs are timed beside them as rows that inform.
"""
from __future__ import annotations

import importlib.util
import time

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

import rancf
from validation.case import Case, Check, Outcome, progress
from validation.exudyn_solve import solve_dynamic
from validation.noise import median_range
from validation.pendulum import ASSUMPTIONS, FORMULATIONS, REFERENCE, pendulum, probe, rk4_step, timed

OUTPUT_DT = 1e-3  # s
H = 1e-3  # s, Exudyn's step
H_REF = 1e-5  # s, the converged Exudyn reference
T_COMPARE = 3.5  # s: the soft chain is chaotic beyond (step-size differences grow to decimetres)
RHO_INF = 1.0  # spectral radius of Exudyn's generalized-alpha: no numerical damping, as rancf's RK4
MESHES = (5, 10, 20)  # elements per body for the model-difference study
CRITERION_MM = 5.0  # mm: rancf reissner (RK4) vs converged Exudyn at E = 21 MPa over t <= 3.5 s
SAME_SCHEME_MM = 0.1  # mm: rancf implicit vs Exudyn, same element model, scheme and step
MESH_RATIO = 0.7  # largest ratio of the Shabana-Reissner gap per doubling of the mesh
#: Speed (issue 12, developer: Comparisons with other codes): rancf's defaults against Exudyn's
#: generalized-alpha with its default spectral radius 0.9, modified Newton and tolerances, sparse
#: solver, both at 1 ms.
SPEED_RHO_INF = 0.9
#: rancf / Exudyn wall time: half for the implicit pairs, a quarter for the explicit pair (issue 12)
SPEED_LIMITS = {"stiff": 0.5, "modal": 0.5, "soft": 0.5, "explicit": 0.25}
#: Exudyn's Newton tolerance (relative, absolute), its defaults: the step's Newton stops when the
#: Euclidean norm of the whole residual (dynamic equations in N, index-3 constraints in m,
#: unscaled, not divided by the number of coordinates) falls by the relative factor from its
#: value at the step's predictor, or below the absolute value (CSolverBase.cpp, Newton;
#: CSolverImplicitSecondOrder.cpp, ComputeNewtonResidual)
EXUDYN_TOLERANCE = (1e-8, 1e-10)
#: rancf's default Newton tolerance: it stops when max |dq| <= tol (m, the position increment) and
#: max |dv| <= tol (m/s, the velocity increment's error estimated from the iteration's contraction,
#: waived where it no longer contracts by 1/2, loosened to 1e-3 of the step's own velocity error
#: where that is larger; rancf.implicit.integrate)
RANCF_TOLERANCE = 1e-10
#: rancf's tight tolerances (m), tightest first: its run at the tightest one it converges with is the
#: reference both codes' default tolerances are measured against (tolerance_study)
RANCF_TIGHT = (1e-14, 1e-13, 1e-12)
EXUDYN_THREADS = 1  # Exudyn's default (parallel.numberOfThreads), set explicitly
T_EXPLICIT_REF = 1.0  # s: the explicit pair's accuracy window (Exudyn's reference at H_EXPLICIT_REF)
H_EXPLICIT_REF = 1e-4  # s
STEP_LIMIT_US = 30.0  # implicit step at 110 DOF, E = 210 GPa
ITERATION_LIMIT = 4.0  # Newton iterations per step on the stiff pendulum (developer: Newton matrix of implicit RANCF)
#: Repeats of the speed comparison (quick / full); the quick run's ratios carry no verdict
#: (speed_checks), so one pair per case is enough there.
SPEED_REPEATS = {True: 1, False: 5}
#: The like-for-like rows with outputs (issue 25): Exudyn's run with its tip sensor stored every
#: step, and the judged rancf runs' labels with an output every step.
EXUDYN_SENSOR = "Exudyn, tip sensor every step"
EVERY_STEP = ", an output every step"
#: What an output costs (issue 25: a stored frame costs about a copy of the state): rancf's soft
#: 5 x 5 pendulum (Reissner, E = 21 MPa, 4 s at 1 ms) with an output every step against one
#: every OUTPUT_COST_EVERY steps, under these schemes; the largest ratio of the two wall times,
#: and the interleaved pairs of runs (quick / full), fixed before the run.
OUTPUT_COST_SCHEMES = {"RK4": {"method": "rk4"},
                       "implicit generalized-alpha": {"method": "generalized-alpha",
                                                      "rho_inf": SPEED_RHO_INF}}
OUTPUT_COST_EVERY = 100
OUTPUT_COST_LIMIT = 1.2
OUTPUT_COST_REPEATS = {True: 3, False: 7}


def exudyn_version():
    """Exudyn's version, or None when it is not installed (a broken installation raises)."""
    if importlib.util.find_spec("exudyn") is None:
        return None
    import exudyn
    return exudyn.__version__


def _exudyn_beams(mbs, beams, rho_A, EA, EI, gravity, pin="joint"):
    """Exudyn cables (ObjectANCFCable2D, nodes NodePoint2DSlope1) along +x: ``beams`` is a list
    of (x0, length, elements); each beam's first node is pinned by an ObjectJointRevolute2D to
    the previous beam's last node (the first to the origin), gravity a LoadMassProportional.

    ``pin="coordinates"`` (one beam only) pins the first node to the origin by two
    ObjectConnectorCoordinate to a ground node instead (x = 0, y = 0, slopes free: the same
    revolute pin), the only constraint Exudyn's explicit solvers take (they eliminate ground
    coordinate constraints, ``CSolverExplicit.cpp``). Returns the last node."""
    import exudyn as exu  # noqa: F401  (the item interface needs the module loaded)
    from exudyn.itemInterface import (LoadMassProportional, MarkerBodyMass, MarkerBodyPosition,
                                      MarkerNodeCoordinate, MarkerNodePosition, NodePoint2DSlope1,
                                      NodePointGround, ObjectANCFCable2D, ObjectConnectorCoordinate,
                                      ObjectGround, ObjectJointRevolute2D)

    if pin not in ("joint", "coordinates") or (pin == "coordinates" and len(beams) != 1):
        raise ValueError(f"pin must be 'joint', or 'coordinates' for one beam; got {pin!r} for "
                         f"{len(beams)} beams")
    ground = mbs.AddObject(ObjectGround())
    previous = mbs.AddMarker(MarkerBodyPosition(bodyNumber=ground, localPosition=[0, 0, 0]))
    for x0, length, n_el in beams:
        l = length / n_el
        nodes = [mbs.AddNode(NodePoint2DSlope1(referenceCoordinates=[x0 + i * l, 0, 1, 0]))
                 for i in range(n_el + 1)]
        for i in range(n_el):
            cable = mbs.AddObject(ObjectANCFCable2D(length=l, massPerLength=rho_A, bendingStiffness=EI,
                                                    axialStiffness=EA, nodeNumbers=[nodes[i], nodes[i + 1]]))
            mass = mbs.AddMarker(MarkerBodyMass(bodyNumber=cable))
            mbs.AddLoad(LoadMassProportional(markerNumber=mass, loadVector=[0, -gravity, 0]))
        if pin == "coordinates":
            fixed = mbs.AddMarker(MarkerNodeCoordinate(nodeNumber=mbs.AddNode(NodePointGround()), coordinate=0))
            for k in (0, 1):
                mbs.AddObject(ObjectConnectorCoordinate(markerNumbers=[
                    fixed, mbs.AddMarker(MarkerNodeCoordinate(nodeNumber=nodes[0], coordinate=k))]))
            continue
        first = mbs.AddMarker(MarkerNodePosition(nodeNumber=nodes[0]))
        mbs.AddObject(ObjectJointRevolute2D(markerNumbers=[previous, first]))
        previous = mbs.AddMarker(MarkerNodePosition(nodeNumber=nodes[-1]))
    return nodes[-1]


def _exudyn_solve(mbs, t_end: float, h: float, rho_inf: float, solver: str = "generalized-alpha",
                  tolerance=EXUDYN_TOLERANCE):
    """Exudyn's generalized-alpha or RK4 on one thread, sensors every ``OUTPUT_DT``
    (:func:`validation.exudyn_solve.solve_dynamic`): its wall time (s) and counters."""
    return solve_dynamic(mbs, t_end, h, rho_inf, tolerance, EXUDYN_THREADS, OUTPUT_DT, solver)


def exudyn_tip(E: float, t_end: float, h: float, elements_per_body: int = 5, rho_inf: float = RHO_INF,
               tolerance=EXUDYN_TOLERANCE, beams=None, solver="generalized-alpha"):
    """Simulate the reference chain (or ``beams``, one beam pinned by coordinates: see
    :func:`_exudyn_beams`) in Exudyn; returns t (n,), tip (n, 2), the wall time (s) and the
    solver's counters (:func:`_exudyn_solve`)."""
    import exudyn as exu
    from exudyn.itemInterface import SensorNode

    p = REFERENCE
    A, I = p["side"] ** 2, p["side"] ** 4 / 12
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    chain = beams or [(b * p["body_length"], p["body_length"], elements_per_body) for b in range(p["n_bodies"])]
    tip = _exudyn_beams(mbs, chain, p["rho"] * A, E * A, E * I, p["gravity"],
                        pin="coordinates" if beams else "joint")
    sensor = mbs.AddSensor(SensorNode(nodeNumber=tip, storeInternal=True, writeToFile=False,
                                      outputVariableType=exu.OutputVariableType.Position))
    mbs.Assemble()
    wall, stats = _exudyn_solve(mbs, t_end, h, rho_inf, solver, tolerance)
    data = mbs.GetSensorStoredData(sensor)
    return data[:, 0], data[:, 1:3], wall, stats


def exudyn_wall_time(beams, rho_A, EA, EI, gravity, t_end, h=H, rho_inf=SPEED_RHO_INF, solver="generalized-alpha",
                     sensor=False):
    """Exudyn's wall time (s) and counters for a pendulum of cables (:func:`_exudyn_beams`; one
    beam is pinned by coordinates, so that the explicit solver takes it): no sensor, or with
    ``sensor`` the tip's position stored in memory every ``OUTPUT_DT`` (every step at h = 1 ms)."""
    import exudyn as exu
    from exudyn.itemInterface import SensorNode

    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    tip = _exudyn_beams(mbs, beams, rho_A, EA, EI, gravity, pin="coordinates" if solver == "rk4" else "joint")
    if sensor:
        mbs.AddSensor(SensorNode(nodeNumber=tip, storeInternal=True, writeToFile=False,
                                 outputVariableType=exu.OutputVariableType.Position))
    mbs.Assemble()
    return _exudyn_solve(mbs, t_end, h, rho_inf, solver)


def on_grid(t, tip, grid):
    """Tip positions interpolated onto the output grid (both codes sample every 1 ms)."""
    return np.column_stack([np.interp(grid, t, tip[:, 0]), np.interp(grid, t, tip[:, 1])])


def rancf_tip(E, model, t_end, variant, elements_per_body=5, tol=RANCF_TOLERANCE):
    """rancf's tip on the 1 ms grid, its wall time, step and Result (implicit runs: Newton
    tolerance ``tol``, m)."""
    chain = pendulum(E, elastic_model=model, elements_per_body=elements_per_body)
    dt = OUTPUT_DT if variant.implicit else rk4_step(chain, OUTPUT_DT)
    # Implicit rancf runs Exudyn's scheme: generalized-alpha with the same spectral radius and step.
    kwargs = {**variant.kwargs, "rho_inf": RHO_INF, "tol": tol} if variant.implicit else variant.kwargs
    res, wall = timed(chain, t_end, dt, output_every=int(round(OUTPUT_DT / dt)), **kwargs)
    if res.status != "ok":
        raise RuntimeError(f"rancf {variant.label} ({model}, E = {E:g}): {res.status}: {res.message}")
    return res.t, res.tip(), wall, dt, res


def single_beam(E, elastic_model="reissner"):
    """The explicit pair's pendulum: the 5 x 5 pendulum's length, section and 25 elements as one
    beam pinned at the origin (Exudyn's explicit solvers cannot hold the pins between bodies:
    they eliminate only coordinates fixed to the ground)."""
    p = REFERENCE
    n = p["n_bodies"] * p["elements_per_body"]
    model = rancf.Model(gravity=(0.0, -p["gravity"]), elastic_model=elastic_model)
    beam = model.add_beam(p["n_bodies"] * p["body_length"], n, E=E, rho=p["rho"], A=p["side"] ** 2,
                          I=p["side"] ** 4 / 12)
    model.add_joint("revolute", model.ground.point(0.0, 0.0), beam.start)
    return model, [(0.0, p["n_bodies"] * p["body_length"], n)]


def speed_cases():
    """Issue 12's speed cases, like with like: key -> (title, t_end (s), Exudyn's solver, Exudyn's
    cables, rancf runs). Each rancf run is (label, model, keywords, judged): the judged one is the
    same element model (Reissner, as Exudyn's cable), scheme (generalized-alpha rho_inf 0.9, or
    RK4) and step as Exudyn's; the others inform (another element model, the DAE, another scheme)."""
    from validation.mechanisms import PENDULUM

    p, m = REFERENCE, PENDULUM
    A, I = p["side"] ** 2, p["side"] ** 4 / 12
    chain = [(b * p["body_length"], p["body_length"], p["elements_per_body"]) for b in range(p["n_bodies"])]
    implicit = {"method": "generalized-alpha", "rho_inf": SPEED_RHO_INF}
    dae = {**implicit, "formulation": "dae", "linear_solver": "sparse"}

    def modal(elastic_model):
        model = rancf.Model(gravity=(0.0, -9.81), elastic_model=elastic_model)
        beam = model.add_beam(m["length"], m["n_elements"], E=m["E"], rho=m["rho"], A=m["A"], I=m["I"])
        model.add_joint("revolute", model.ground.point(0.0, 0.0), beam.start)
        return model

    beam, cables = single_beam(21e6)
    return {
        "stiff": ("5 x 5 pendulum, E = 210 GPa, 4 s", 4.0, "generalized-alpha",
                  (chain, p["rho"] * A, 210e9 * A, 210e9 * I, p["gravity"]),
                  [("RANCF implicit, Reissner", pendulum(210e9, "reissner"), implicit, True),
                   ("RANCF implicit, Shabana (rancf's default element)", pendulum(210e9), implicit, False),
                   ("DAE sparse, Reissner", pendulum(210e9, "reissner"), dae, False),
                   ("DAE dense, Reissner", pendulum(210e9, "reissner"),
                    {**dae, "linear_solver": "dense"}, False)]),
        "modal": ("modal case's pendulum, 160 elements (644 coordinates), 1.1 s", 1.1, "generalized-alpha",
                  ([(0.0, m["length"], m["n_elements"])], m["rho"] * m["A"], m["E"] * m["A"],
                   m["E"] * m["I"], 9.81),
                  [("RANCF implicit, Reissner", modal("reissner"), implicit, True),
                   ("RANCF implicit, Berzeri (the modal case's element)", modal("berzeri"), implicit, False),
                   ("DAE sparse, Reissner", modal("reissner"), dae, False)]),
        "soft": ("5 x 5 pendulum, E = 21 MPa, 4 s", 4.0, "generalized-alpha",
                 (chain, p["rho"] * A, 21e6 * A, 21e6 * I, p["gravity"]),
                 [("RANCF implicit, Reissner", pendulum(21e6, "reissner"), implicit, True),
                  ("RANCF explicit (RK4), Reissner: not Exudyn's scheme", pendulum(21e6, "reissner"),
                   {"method": "rk4"}, False)]),
        "explicit": ("one beam of 25 elements, E = 21 MPa, pinned, 4 s (RK4 in both)", 4.0, "rk4",
                     (cables, p["rho"] * A, 21e6 * A, 21e6 * I, p["gravity"]),
                     [("RANCF explicit (RK4), Reissner", beam, {"method": "rk4"}, True),
                      ("RANCF explicit (RK4), Shabana", single_beam(21e6, "shabana")[0], {"method": "rk4"},
                       False)]),
    }


def speed_comparison(repeats: int):
    """rancf and Exudyn side by side (developer: Comparisons with other codes), each run
    ``repeats`` times, interleaved (Exudyn, then every rancf run, per case and repeat), so that
    a burst of load on the shared machine hits both; BLAS held to one thread (threadpoolctl) and
    Exudyn to one thread, so both codes run on one core. Returns a table of medians (wall time
    and time per step; ratio = median of the per-repeat ratios to the Exudyn run of the same
    repeat) with each code's Newton iterations and Jacobians (rancf: factorizations) per step.

    Like for like with outputs (issue 25), in the same repeats: Exudyn with its tip sensor
    stored every step, and each judged rancf run with an output every step, timed over the
    whole ``simulate`` call (set-up, stepping, outputs mapped, Result built), its ratio taken
    to the Exudyn run with the sensor (column ``every step``)."""
    from threadpoolctl import threadpool_limits

    rows = []
    with threadpool_limits(limits=1, user_api="blas"):
        for key, (title, t_end, solver, cables, runs) in speed_cases().items():
            walls, stats = {"Exudyn": [], EXUDYN_SENSOR: []}, {}
            for r in range(repeats):
                progress(f"speed: {title}, repeat {r + 1} of {repeats}")
                wall, stats["Exudyn"] = exudyn_wall_time(*cables, t_end, solver=solver)
                walls["Exudyn"].append(wall)
                wall, stats[EXUDYN_SENSOR] = exudyn_wall_time(*cables, t_end, solver=solver, sensor=True)
                walls[EXUDYN_SENSOR].append(wall)
                for label, model, kwargs, judged_run in runs:
                    res = rancf.simulate(model, t_end, H, output_every=100, **kwargs)
                    if res.status != "ok":
                        raise RuntimeError(f"{title}, {label}: {res.status}: {res.message}")
                    walls.setdefault(label, []).append(res.wall_time)
                    stats[label] = {"newton_iterations": res.stats["newton_iterations"],
                                    "jacobians": res.stats["nlu"]}
                    if judged_run:
                        start = time.perf_counter()
                        res = rancf.simulate(model, t_end, H, output_every=1, **kwargs)
                        wall = time.perf_counter() - start
                        if res.status != "ok":
                            raise RuntimeError(f"{title}, {label}{EVERY_STEP}: {res.status}: {res.message}")
                        walls.setdefault(label + EVERY_STEP, []).append(wall)
                        stats[label + EVERY_STEP] = {"newton_iterations": res.stats["newton_iterations"],
                                                     "jacobians": res.stats["nlu"]}
            exu, exu_sensor = np.array(walls["Exudyn"]), np.array(walls[EXUDYN_SENSOR])
            steps = int(round(t_end / H))
            judged = {label: j for label, _, _, j in runs}
            scheme = ("RK44" if solver == "rk4" else f"generalized-alpha rho_inf {SPEED_RHO_INF:g}, sparse")
            for label, w in walls.items():
                w, st = np.array(w), stats[label]
                every = label.endswith(EVERY_STEP)
                exudyn = label in ("Exudyn", EXUDYN_SENSOR)
                rows.append({"case": key, "title": title, "code": "Exudyn" if exudyn else "rancf",
                             "formulation": (f"ANCFCable2D (Reissner), {scheme}"
                                             + (", tip sensor every step" if label == EXUDYN_SENSOR else ""))
                             if exudyn else label,
                             "judged": judged.get(label, False), "every step": every,
                             "outputs": {"Exudyn": "none", EXUDYN_SENSOR: "tip, every step"}.get(
                                 label, "every step" if every else "every 100 steps"),
                             **timing_columns(w, exu_sensor if every else exu, steps),
                             "Newton iterations per step": st["newton_iterations"] / steps,
                             "Jacobians (factorizations) per step": st["jacobians"] / steps,
                             "threads": "1 (parallel.numberOfThreads)" if label == "Exudyn"
                             else "1 (compiled loop; BLAS 1)"})
    return pd.DataFrame(rows)


def timing_columns(walls, reference, steps: int) -> dict:
    """The speed table's timing columns of one run's ``walls`` (s, one per repeat) against the
    Exudyn run's ``reference`` of the same repeats, over ``steps`` steps: the median wall time
    (min, max), the time per step (us) and the ratio to Exudyn (the median of the per-repeat
    ratios), each of the two with its noise interval (:func:`validation.noise.median_range`: the
    medians of any n - 2 of the n repeats)."""
    walls = np.asarray(walls, float)
    ratios = walls / np.asarray(reference, float)
    per_step = 1e6 * walls / steps
    (step_low, step_high), (ratio_low, ratio_high) = median_range(per_step), median_range(ratios)
    return {"repeats": len(walls), "median wall time (s)": float(np.median(walls)), "min (s)": walls.min(),
            "max (s)": walls.max(), "steps": steps, "time per step (us)": float(np.median(per_step)),
            "time per step (us), noise low": step_low, "time per step (us), noise high": step_high,
            "wall time / Exudyn": float(np.median(ratios)),
            "wall time / Exudyn, noise low": ratio_low, "wall time / Exudyn, noise high": ratio_high}


def output_cost(repeats: int):
    """The wall time of ``rancf.simulate`` (the whole call: set-up, steps, the Result) of the
    soft 5 x 5 pendulum (Reissner, E = 21 MPa, 4 s at 1 ms) with an output every step, against
    one every :data:`OUTPUT_COST_EVERY` steps, for each scheme of :data:`OUTPUT_COST_SCHEMES`:
    ``repeats`` pairs, the two runs of a pair one after the other (a burst of load on the shared
    machine hits both), BLAS held to one thread; the ratio is the median of the pairs' ratios.
    The mapping of the stored states to nodes, joint coordinates and reactions is deferred to
    their first read (DECISIONS 32); its time, read once after each run with an output every
    step, is a column of its own (not in the ratio)."""
    from threadpoolctl import threadpool_limits

    chain = pendulum(21e6, "reissner")
    t_end = 4.0
    rows = []
    with threadpool_limits(limits=1, user_api="blas"):
        for label, kwargs in OUTPUT_COST_SCHEMES.items():
            rancf.simulate(chain, 10 * H, H, **kwargs)      # the model built, its kernels cached
            walls, reads = {1: [], OUTPUT_COST_EVERY: []}, []
            for r in range(repeats):
                progress(f"output cost: {label}, pair {r + 1} of {repeats}")
                for every in walls:
                    start = time.perf_counter()
                    res = rancf.simulate(chain, t_end, H, output_every=every, **kwargs)
                    walls[every].append(time.perf_counter() - start)
                    if res.status != "ok":
                        raise RuntimeError(f"output cost, {label}: {res.status}: {res.message}")
                    if every == 1:
                        start = time.perf_counter()
                        _ = res.nodes, res.reactions
                        reads.append(time.perf_counter() - start)
                        n_out = len(res.t)
            every_step, sparse = np.array(walls[1]), np.array(walls[OUTPUT_COST_EVERY])
            ratios = every_step / sparse
            low, high = median_range(ratios)
            rows.append({"scheme": label, "pairs": repeats, "outputs (every step)": n_out,
                         "median wall time, every step (s)": np.median(every_step),
                         f"median wall time, every {OUTPUT_COST_EVERY}th (s)": np.median(sparse),
                         "ratio (median of pairs)": float(np.median(ratios)),
                         "ratio min": ratios.min(), "ratio max": ratios.max(),
                         "ratio, noise low": low, "ratio, noise high": high,
                         "first read of nodes and reactions (s)": np.median(reads),
                         "first read per output (us)": 1e6 * np.median(reads) / n_out})
    return pd.DataFrame(rows)


def output_cost_checks(cost, quick: bool):
    """Issue 25's limit on the output cost table (:func:`output_cost`), one row per scheme,
    judged in the full run only (as the speed rows: a quick run is a smoke test)."""
    checks = []
    for _, r in cost.iterrows():
        checks.append(Check(
            f"output cost: {r['scheme']}, an output every step / every {OUTPUT_COST_EVERY}th",
            "issue 25: a stored frame costs about a copy of the state; the 5 x 5 pendulum (110 DOF, "
            "Reissner, E = 21 MPa, 4 s at 1 ms) with an output every step within 20 % of the run "
            "without outputs (here: one every 100 steps)",
            value=r["ratio (median of pairs)"], limit=OUTPUT_COST_LIMIT, unit="time ratio",
            source="rancf target: issue 25", noise=(r["ratio, noise low"], r["ratio, noise high"]),
            no_verdict="quick run: the limit is judged in the full run (a quick run is a smoke "
                       "test, and runs while the machine does other work)" if quick else None,
            detail=f"the whole simulate call, medians {r['median wall time, every step (s)']:.3g} s "
                   f"and {r[f'median wall time, every {OUTPUT_COST_EVERY}th (s)']:.3g} s; median "
                   f"of {r['pairs']} interleaved pairs' ratios (min {r['ratio min']:.3g}, max "
                   f"{r['ratio max']:.3g}); the mapping deferred to the first read of nodes and "
                   f"reactions (DECISIONS 32) takes {r['first read of nodes and reactions (s)']:.3g} s "
                   f"({r['first read per output (us)']:.3g} us an output), not in the ratio"))
    return checks


def tolerance_study(t_end):
    """Each code's Newton tolerance in one norm: the largest tip distance (mm) between its run at
    its default tolerance and the same discrete equations (Reissner elements, generalized-alpha,
    h = 1 ms) solved to rancf's tightest converging tolerance (:data:`RANCF_TIGHT`), for
    E = 21 MPa and 210 GPa; and the Newton iterations per step of each. Exudyn's own tighter
    tolerances are no reference: below its defaults its Newton fails on the stiff chain (the
    residual's round-off, forces of EA = 1.9e8 N), or restarts until it takes 35 iterations a step.
    Exudyn's row also holds the two codes' remaining model differences (Gauss orders), so it
    bounds its tolerance's effect from above."""
    implicit = next(v for v in probe(FORMULATIONS) if v.kwargs["formulation"] == "recursive" and v.implicit)
    steps, rows = int(round(t_end / H)), []
    for E in (21e6, 210e9):
        progress(f"Newton tolerances, E = {E:.3g} Pa")
        _, tip, _, st = exudyn_tip(E, t_end, H)
        _, rtip, _, _, res = rancf_tip(E, "reissner", t_end, implicit)
        (tight, res_tight), _, rancf_tol = _tightest(
            lambda tol: (rancf_tip(E, "reissner", t_end, implicit, tol=tol)[1::3], None), RANCF_TIGHT)
        for code, default, a, n in (
                ("Exudyn", f"relative {EXUDYN_TOLERANCE[0]:g}, absolute {EXUDYN_TOLERANCE[1]:g} (||residual||_2)",
                 tip, st["newton_iterations"]),
                ("rancf", f"max |dq|, max |dv| <= {RANCF_TOLERANCE:g} m, m/s", rtip, res.stats["newton_iterations"])):
            n_out = min(len(a), len(tight))
            rows.append({"E (Pa)": E, "code": code, "default tolerance": default,
                         "reference": f"rancf, max |dq|, max |dv| <= {rancf_tol:g} m, m/s",
                         "max |tip(default) - tip(reference)| (mm)": 1e3 * np.max(np.linalg.norm(
                             a[:n_out] - tight[:n_out], axis=1)),
                         "Newton iterations per step": n / steps,
                         "Newton iterations per step (reference)":
                             res_tight.stats["newton_iterations"] / steps})
    return pd.DataFrame(rows)


def _tightest(run, tolerances):
    """``run(tol)`` for the first (tightest) tolerance with which it converges: (its two results,
    the tolerance); a run whose Newton fails raises RuntimeError (:func:`rancf_tip`)."""
    for tol in tolerances:
        try:
            first, second = run(tol)
        except RuntimeError:
            continue
        return first, second, tol
    raise RuntimeError(f"no Newton tolerance of {tolerances} converged")


def explicit_accuracy():
    """The explicit pair's pendulum (:func:`single_beam`) over T_EXPLICIT_REF: Exudyn's RK44 and
    rancf's RK4 at h = 1 ms against Exudyn's generalized-alpha at H_EXPLICIT_REF (the same pin,
    index 3, converged in time: its h and h/2 agree to 1e-4 mm). Returns {name: max tip
    distance (mm)}."""
    grid = np.round(np.arange(0, T_EXPLICIT_REF + 1e-12, OUTPUT_DT), 9)
    model, cables = single_beam(21e6)
    progress("explicit pair: Exudyn reference (generalized-alpha, h = 1e-4 s)")
    t, ref, _, _ = exudyn_tip(21e6, T_EXPLICIT_REF, H_EXPLICIT_REF, beams=cables)
    ref = on_grid(t, ref, grid)
    t, exu_rk4, _, _ = exudyn_tip(21e6, T_EXPLICIT_REF, H, beams=cables, solver="rk4")
    res = rancf.simulate(model, T_EXPLICIT_REF, H, method="rk4", output_every=1)
    distance = {"Exudyn RK44": on_grid(t, exu_rk4, grid), "rancf RK4": on_grid(res.t, res.tip(), grid)}
    return {k: 1e3 * np.max(np.linalg.norm(v - ref, axis=1)) for k, v in distance.items()}


def table_noise(row, column):
    """The noise interval of a speed-table row's ``column`` (``"wall time / Exudyn"`` or
    ``"time per step (us)"``, :func:`timing_columns`); None from one repeat (a quick run), which
    has none."""
    return (row[f"{column}, noise low"], row[f"{column}, noise high"]) if row["repeats"] > 1 else None


def speed_checks(speed, quick: bool):
    """The issue-12 targets on the speed table, like with like (limits fixed here, before any
    run). The ratios to Exudyn are measured pair by pair, so a common load on the shared machine
    cancels in part; the ratios and the absolute 30 us of a step are judged in the full run only
    (a quick run is a smoke test, and runs while the machine does other work)."""
    checks = []
    target = speed[speed["judged"]].set_index("case")
    source = ("rancf target: issue 12, against Exudyn 1.13 at 1 ms, the same element model, scheme, "
              "step and threads (developer: Comparisons with other codes)")
    for key, limit in SPEED_LIMITS.items():
        r = target.loc[key]
        exu = speed[(speed["case"] == key) & (speed["code"] == "Exudyn")].iloc[0]
        checks.append(Check(f"speed: {r['title']}, {r['formulation']} / Exudyn",
                            "issue 12: rancf at most " + ("a quarter" if limit == 0.25 else "half")
                            + " of Exudyn's wall time", value=r["wall time / Exudyn"], limit=limit,
                            unit="time ratio", source=source, noise=table_noise(r, "wall time / Exudyn"),
                            no_verdict="quick run: the targets are judged in the full run (a quick run is a "
                                       "smoke test, and runs while the machine does other work)" if quick else None,
                            detail=f"against {exu['formulation']}; medians: rancf {r['median wall time (s)']:.3g} s, "
                                   f"{r['time per step (us)']:.3g} us per step, Exudyn "
                                   f"{exu['time per step (us)']:.3g} us per step; Newton iterations per step "
                                   f"rancf {r['Newton iterations per step']:.2f}, Exudyn "
                                   f"{exu['Newton iterations per step']:.2f}; one thread each"))
    every = speed[speed["every step"]].set_index("case")
    for key, limit in SPEED_LIMITS.items():
        r = every.loc[key]
        exu = speed[(speed["case"] == key) & (speed["outputs"] == "tip, every step")].iloc[0]
        checks.append(Check(f"speed, an output every step: {r['title']}, {r['formulation']} / Exudyn",
                            "issue 12 and 25: rancf at most " + ("a quarter" if limit == 0.25 else "half")
                            + " of Exudyn's wall time with outputs every step in both",
                            value=r["wall time / Exudyn"], limit=limit, unit="time ratio", source=source,
                            noise=table_noise(r, "wall time / Exudyn"),
                            no_verdict="quick run: the targets are judged in the full run (a quick run is a "
                                       "smoke test, and runs while the machine does other work)" if quick else None,
                            detail=f"against {exu['formulation']}; rancf's whole simulate call (set-up, "
                                   f"stepping, every output mapped, the Result built), Exudyn's "
                                   f"SolveDynamic; medians: rancf {r['median wall time (s)']:.3g} s, "
                                   f"{r['time per step (us)']:.3g} us per step, Exudyn "
                                   f"{exu['time per step (us)']:.3g} us per step; one thread each"))
    for _, r in speed[(speed["code"] == "rancf") & ~speed["judged"] & ~speed["every step"]].iterrows():
        checks.append(Check(f"speed (informs): {r['title']}, {r['formulation']} / Exudyn",
                            "another element model, formulation or scheme than Exudyn's run beside it",
                            value=r["wall time / Exudyn"], unit="time ratio", source="measured",
                            noise=table_noise(r, "wall time / Exudyn"),
                            detail=f"{r['time per step (us)']:.3g} us per step, "
                                   f"{r['Newton iterations per step']:.2f} Newton iterations per step"))
    stiff = target.loc["stiff"]
    # the 30 us are rancf's own target, for its default element (Shabana), not a comparison
    default = speed[(speed["case"] == "stiff") & speed["formulation"].str.contains("Shabana")].iloc[0]
    checks.append(Check("implicit step at 110 DOF", "issue 12: an implicit step of the 5 x 5 pendulum "
                        "(110 DOF, E = 210 GPa, developer: Comparisons with other codes) takes at most 30 us",
                        value=default["time per step (us)"], limit=None if quick else STEP_LIMIT_US,
                        unit="us", source="measured" if quick else "rancf target: issue 12",
                        noise=table_noise(default, "time per step (us)"),
                        detail=f"rancf's default element (Shabana), median of the 4 s runs over 4000 steps, "
                               f"{default['Jacobians (factorizations) per step']:.2f} factorizations per step; "
                               f"with Reissner elements {stiff['time per step (us)']:.3g} us"
                               + ("; quick run: no verdict (the 30 us are judged in the full run)"
                                  if quick else "")))
    checks.append(Check("Newton iterations on the stiff pendulum", "developer: Newton matrix of implicit RANCF: the Newton matrix "
                        "is acceptable when it converges in at most 4 iterations per step on the "
                        "stiff pendulum", value=stiff["Newton iterations per step"],
                        limit=ITERATION_LIMIT, unit="iterations per step",
                        source="rancf target: developer: Newton matrix of implicit RANCF",
                        detail="modified Newton (the default), Reissner elements, mean over the 4000 steps; "
                               "Exudyn on the same pendulum "
                               f"{speed[(speed['case'] == 'stiff') & (speed['code'] == 'Exudyn')].iloc[0]['Newton iterations per step']:.2f}"))
    return checks


def speed_figure(speed):
    """Time per step of every code and formulation, per case (log scale), with the ratio to
    Exudyn's wall time over each bar; the rancf runs that are not Exudyn's like (another element
    model, formulation or scheme) hatched."""
    import textwrap

    fig, ax = plt.subplots(figsize=(13, 5.5))
    labels = list(dict.fromkeys(speed["formulation"]))
    colour = {label: f"C{i}" for i, label in enumerate(labels)}
    ticks, names, seen = [], [], set()
    x = 0.0
    for case, group in speed.groupby("case", sort=False):
        start = x
        for _, r in group.iterrows():
            label = ("Exudyn " if r["code"] == "Exudyn" else "rancf ") + r["formulation"]
            informs = r["code"] == "rancf" and not r["judged"] and not r["every step"]
            bar = ax.bar(x, r["time per step (us)"], 0.8, color=colour[r["formulation"]],
                         hatch="//" if informs else None, edgecolor="k" if informs else None,
                         label=None if label in seen else label + (" (informs)" if informs else ""))
            seen.add(label)
            ax.annotate(f"{r['wall time / Exudyn']:.2f}", (x, bar[0].get_height()), ha="center",
                        va="bottom", fontsize=7)
            x += 1.0
        ticks.append((start + x - 1.0) / 2)
        names.append(textwrap.fill(group["title"].iloc[0], 24))
        x += 1.0
    ax.set_xticks(ticks)
    ax.set_xticklabels(names, fontsize=8)
    ax.set(yscale="log", ylabel="wall time per step (us)",
           title="rancf and Exudyn at h = 1 ms, one thread each (over the bars: wall time / Exudyn's; "
                 "hatched: not Exudyn's element model or scheme)")
    ax.title.set_fontsize(9)
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    ax.grid(alpha=0.3, which="both", axis="y")
    fig.tight_layout()
    return fig


def run(quick: bool) -> Outcome:
    version = exudyn_version()
    if version is None:
        return Outcome(skipped="exudyn is not installed (pip install 'rancf[peers]' or pip install exudyn)",
                       assumptions=["The peers case needs the optional dependency exudyn."])
    t_end = 4.0  # the whole case takes about 20 s, so the quick run is the full one
    t_cmp = min(T_COMPARE, t_end)
    h_ref = H_REF
    grid = np.round(np.arange(0, t_end + 1e-12, OUTPUT_DT), 9)
    cmp = grid <= t_cmp + 1e-12
    # Dense and sparse DAE give the same trajectory; only the sparse one (Exudyn's choice) runs here.
    variants = [v for v in probe(FORMULATIONS) if "dense" not in v.kwargs.get("linear_solver", "")]

    rows, series = [], {}
    for E in (21e6, 210e9):
        progress(f"Exudyn E = {E:.3g} Pa, h = {H:g} s")
        t, tip, wall_exu, exu_stats = exudyn_tip(E, t_end, H)
        exu_tip = on_grid(t, tip, grid)
        ref_tip = None
        if E == 21e6:
            progress(f"Exudyn E = {E:.3g} Pa, h = {h_ref:g} s (reference)")
            t_r, tip_r, wall_ref, _ = exudyn_tip(E, t_cmp, h_ref)
            ref_tip = on_grid(t_r, tip_r, grid[cmp])
            rows.append({"E (Pa)": E, "code": "Exudyn", "method": f"generalized-alpha rho_inf={RHO_INF:g}, sparse",
                         "elastic model": "ANCFCable2D", "dt (s)": h_ref, "wall time (s)": wall_ref,
                         "max tip diff. to Exudyn h=1e-3 (mm)": 1e3 * np.max(np.linalg.norm(
                             exu_tip[cmp] - ref_tip, axis=1)),
                         "max tip diff. to Exudyn reference (mm)": 0.0, "wall time / Exudyn h=1e-3": wall_ref / wall_exu})
        rows.append({"E (Pa)": E, "code": "Exudyn", "method": f"generalized-alpha rho_inf={RHO_INF:g}, sparse",
                     "elastic model": "ANCFCable2D", "dt (s)": H, "wall time (s)": wall_exu,
                     "max tip diff. to Exudyn h=1e-3 (mm)": 0.0,
                     "max tip diff. to Exudyn reference (mm)": np.nan if ref_tip is None else
                     1e3 * np.max(np.linalg.norm(exu_tip[cmp] - ref_tip, axis=1)),
                     "wall time / Exudyn h=1e-3": 1.0,
                     "Newton iterations per step": exu_stats["newton_iterations"] / round(t_end / H)})
        series[(E, "Exudyn")] = exu_tip
        for v in variants:
            if not v.available:
                continue
            # The DAE baseline only in Exudyn's element model, to keep the run short.
            for model in ("reissner", "shabana") if v.kwargs["formulation"] == "recursive" else ("reissner",):
                progress(f"rancf {v.label} {model}, E = {E:.3g} Pa")
                t, tip, wall, dt, res = rancf_tip(E, model, t_end, v)
                tip = on_grid(t, tip, grid)
                series[(E, f"rancf {v.label} {model}")] = tip
                rows.append({"E (Pa)": E, "code": "rancf", "method": v.label, "elastic model": model, "dt (s)": dt,
                             "wall time (s)": wall,
                             "max tip diff. to Exudyn h=1e-3 (mm)": 1e3 * np.max(np.linalg.norm(
                                 tip[cmp] - exu_tip[cmp], axis=1)),
                             "max tip diff. to Exudyn reference (mm)": np.nan if ref_tip is None else
                             1e3 * np.max(np.linalg.norm(tip[cmp] - ref_tip, axis=1)),
                             "wall time / Exudyn h=1e-3": wall / wall_exu,
                             "Newton iterations per step": res.stats["newton_iterations"] / res.stats["steps"]})
    comparison = pd.DataFrame(rows)
    speed = speed_comparison(SPEED_REPEATS[quick])
    cost = output_cost(OUTPUT_COST_REPEATS[quick])
    tolerances = tolerance_study(t_cmp)
    explicit = explicit_accuracy()

    # Modelling vs numerics: Shabana against Reissner in rancf under mesh refinement.
    rk4 = variants[0]
    mesh_rows = []
    for n_el in MESHES:
        progress(f"mesh study: {n_el} elements per body")
        tips = {m: on_grid(*rancf_tip(21e6, m, t_cmp, rk4, n_el)[:2], grid[cmp]) for m in ("reissner", "shabana")}
        gap = np.linalg.norm(tips["shabana"] - tips["reissner"], axis=1)
        mesh_rows.append({"elements per body": n_el, "DOF": REFERENCE["n_bodies"] * (4 * n_el + 2),
                          "max |tip shabana - tip reissner| (m)": gap.max(), "at t (s)": grid[cmp][np.argmax(gap)]})
    mesh = pd.DataFrame(mesh_rows)

    # Runs of the same scheme on the same element model coincide (implicit RANCF and the DAE,
    # both generalized-alpha on Reissner beams): each curve is drawn narrower than the one before,
    # in its own dash, so that a curve lying on another stays visible inside it.
    styles = [("-", 4.0, 0.35), ("--", 2.2, 0.9), ("-", 3.0, 0.5), (":", 2.0, 1.0), ("--", 1.0, 1.0)]
    fig_d, axes = plt.subplots(2, 1, figsize=(8, 7), sharex=True)
    for ax, E in zip(axes, (21e6, 210e9)):
        base = series[(E, "Exudyn")]
        others = [(key, tip) for key, tip in series.items() if key[0] == E and key[1] != "Exudyn"]
        for i, (key, tip) in enumerate(others):
            ls, lw, alpha = styles[i % len(styles)]
            ax.semilogy(grid[cmp], 1e3 * np.linalg.norm(tip[cmp] - base[cmp], axis=1) + 1e-6, ls=ls, lw=lw,
                        alpha=alpha, color=f"C{i}", label=key[1])
        ax.set(ylabel="|tip rancf - tip Exudyn| (mm)",
               title=f"E = {E:.3g} Pa, against Exudyn h = {H:g} s (coinciding curves drawn inside each other)")
        ax.title.set_fontsize(10)
        ax.grid(alpha=0.3, which="both")
        ax.legend(fontsize=8)
    axes[-1].set_xlabel("t (s)")

    fig_t, ax = plt.subplots(figsize=(8, 4.5))
    for key, tip in series.items():
        if key[0] == 21e6:
            ax.plot(grid, tip[:, 1], label=key[1])
    ax.axvline(t_cmp, color="k", ls=":", lw=1)
    ax.set(xlabel="t (s)", ylabel="tip y (m)", title="Tip height, E = 21 MPa (dotted: end of comparison window)")
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)

    fig_m, ax = plt.subplots(figsize=(6.5, 4.5))
    ax.loglog(mesh["elements per body"], mesh["max |tip shabana - tip reissner| (m)"], "o-")
    ax.set(xlabel="elements per body", ylabel="max tip distance Shabana vs Reissner (m)",
           title=f"Element-model difference, E = 21 MPa, t <= {t_cmp:g} s")
    ax.grid(alpha=0.3, which="both")

    checks = []
    # Like with like: an implicit rancf run uses Exudyn's scheme and step, so it is compared with
    # Exudyn at h = 1e-3; RK4 (fourth order) is far more accurate at that step and is compared
    # with the converged Exudyn run.
    soft = comparison[(comparison["E (Pa)"] == 21e6) & (comparison["code"] == "rancf")
                      & (comparison["elastic model"] == "reissner") & comparison["dt (s)"].notna()]
    for _, r in soft.iterrows():
        explicit_run = "explicit" in r["method"]
        timing = (f"wall time {r['wall time (s)']:.2f} s = {r['wall time / Exudyn h=1e-3']:.3g} x Exudyn's "
                  f"(h = {H:g} s)")
        if explicit_run:
            checks.append(Check(
                f"rancf {r['method']} (reissner) vs converged Exudyn, E = 21 MPa",
                f"same element model (Exudyn's ANCFCable2D = rancf's 'reissner'): the converged tips agree over "
                f"t <= {t_cmp:g} s (Exudyn at h = {h_ref:g} s)",
                value=r["max tip diff. to Exudyn reference (mm)"], limit=CRITERION_MM, unit="mm",
                source="independent reference: Exudyn; limit: rancf target: the prototype in theory: The ANCF beam element matched "
                       "Exudyn to 0.8 mm, 5 mm (2e-4 L) leaves room for differing Gauss orders",
                detail=timing))
        else:
            checks.append(Check(
                f"rancf {r['method']} (reissner) vs Exudyn, same scheme and step, E = 21 MPa",
                f"same element model, scheme (generalized-alpha, rho_inf = {RHO_INF:g}) and step (h = {H:g} s): "
                f"the same discrete motion over t <= {t_cmp:g} s",
                value=r["max tip diff. to Exudyn h=1e-3 (mm)"], limit=SAME_SCHEME_MM, unit="mm",
                source="independent reference: Exudyn; limit: rancf target: the same discrete equations "
                       "differ only by the Newton tolerances; 0.1 mm = 4e-6 L",
                detail=f"{timing}; to the converged Exudyn run: "
                       f"{r['max tip diff. to Exudyn reference (mm)']:.3g} mm (the shared time error)"))
    gaps = mesh["max |tip shabana - tip reissner| (m)"].to_numpy()
    checks.append(Check(
        "Shabana vs Reissner gap shrinks with the mesh", "the element models differ by metres at 5 elements "
        "per body for E = 21 MPa and converge to each other under refinement",
        value=float(np.max(gaps[1:] / gaps[:-1])), limit=MESH_RATIO, unit="gap ratio per doubling",
        source="independent reference: the prototype in theory: The ANCF beam element (2.9, 1.2, 0.5 m at 5, 10, 20 elements: ratios "
               "0.41, 0.42); 0.7 leaves room for a slower start",
        detail=", ".join(f"{g:.3g} m ({n})" for n, g in zip(mesh["elements per body"], gaps))))
    stiff = comparison[(comparison["E (Pa)"] == 210e9) & (comparison["code"] == "rancf")]
    for _, r in stiff.iterrows():
        checks.append(Check(f"wall time, rancf {r['method']} ({r['elastic model']}), E = 210 GPa",
                            f"wall time against Exudyn's (generalized-alpha, h = {H:g} s, sparse)",
                            value=r["wall time / Exudyn h=1e-3"], unit="time ratio", source="measured",
                            detail=f"{r['wall time (s)']:.3g} s, dt = {r['dt (s)']:.3g} s; tip to Exudyn "
                                   f"{r['max tip diff. to Exudyn h=1e-3 (mm)']:.3g} mm"))
    for _, r in tolerances.iterrows():
        checks.append(Check(
            f"Newton tolerance in one norm: {r['code']}, E = {r['E (Pa)']:.3g} Pa",
            "each code's default Newton tolerance, expressed as the largest tip distance (mm) between its "
            "run and the same discrete equations (element model, scheme, step) solved to a tight tolerance",
            value=r["max |tip(default) - tip(reference)| (mm)"], unit="mm", source="measured",
            detail=f"default: {r['default tolerance']}; reference: {r['reference']}; Newton iterations "
                   f"per step {r['Newton iterations per step']:.2f} (reference "
                   f"{r['Newton iterations per step (reference)']:.2f}); generalized-alpha rho_inf = "
                   f"{RHO_INF:g}, h = {H:g} s, over t <= {t_cmp:g} s"))
    checks.append(Check(
        "explicit pair: rancf RK4 vs converged Exudyn, one beam",
        "same element model (Reissner) and pin: rancf's RK4 at h = 1 ms follows Exudyn's converged "
        f"generalized-alpha (h = {H_EXPLICIT_REF:g} s) over t <= {T_EXPLICIT_REF:g} s",
        value=explicit["rancf RK4"], limit=CRITERION_MM, unit="mm",
        source="independent reference: Exudyn; limit: the 5 mm of the chain's RK4 row",
        detail=f"the speed pair's pendulum (25 elements, E = 21 MPa); Exudyn's RK44 at the same step "
               f"{explicit['Exudyn RK44']:.3g} mm from the same reference (next row)"))
    checks.append(Check(
        "explicit pair: Exudyn RK44 vs converged Exudyn, one beam",
        "Exudyn's explicit RK44 at h = 1 ms against its own converged generalized-alpha "
        f"(h = {H_EXPLICIT_REF:g} s) over t <= {T_EXPLICIT_REF:g} s, the same pin",
        value=explicit["Exudyn RK44"], unit="mm", source="measured",
        no_verdict="not a claim of either code: Exudyn's explicit solver solves the unconstrained mass "
                   "matrix and then sets the pinned coordinates' accelerations to zero "
                   "(CSolverExplicit.cpp, EliminateCoordinateConstraints), which is the pinned motion "
                   "only when the mass matrix does not couple them with the free ones; the ANCF mass "
                   "matrix couples a node's position with its slope, so its RK44 integrates another "
                   "motion. The pair is like for like in element, scheme, step, coordinates and "
                   "threads, which is what its timing compares",
        detail=f"rancf's RK4 {explicit['rancf RK4']:.3g} mm (row above)"))
    checks += speed_checks(speed, quick)
    checks += output_cost_checks(cost, quick)
    return Outcome(
        tables={"comparison": comparison, "speed": speed, "output_cost": cost, "model_vs_mesh": mesh,
                "newton_tolerance": tolerances,
                "explicit_pair": pd.DataFrame([{"run (h = 1 ms)": k, "reference": f"Exudyn generalized-alpha, "
                                                f"h = {H_EXPLICIT_REF:g} s", "max tip distance (mm)": v,
                                                "window (s)": T_EXPLICIT_REF} for k, v in explicit.items()]),
                "formulations": pd.DataFrame([{"formulation": v.label, "available": v.available,
                                               "reason": v.reason} for v in variants]),
                "tips": pd.DataFrame({"t (s)": grid, **{f"{k[1]} E={k[0]:.3g} {c} (m)": tip[:, i]
                                                        for k, tip in series.items() for i, c in enumerate("xy")}})},
        figures={"tip_difference": fig_d, "tip_height": fig_t, "model_vs_mesh": fig_m,
                 "speed": speed_figure(speed)},
        checks=checks,
        parameters={**REFERENCE, "E (Pa)": "21e6, 210e9",
                    "rancf formulations not available": ", ".join(
                        v.label for v in variants if not v.available) or "none", "t_end (s)": t_end, "comparison window (s)": t_cmp,
                    "Exudyn version": version, "Exudyn step (s)": H, "Exudyn reference step (s)": h_ref,
                    "Exudyn spectral radius": RHO_INF, "Exudyn linear solver": "EigenSparse",
                    "output step (s)": OUTPUT_DT},
        assumptions=ASSUMPTIONS + [
            "Exudyn's ANCFCable2D uses the Reissner (Euler-Bernoulli) strain measures, integrated with its "
            "default full Gauss order; rancf's 'reissner' model is the same element model.",
            f"Exudyn's generalized-alpha with spectral radius {RHO_INF:g} (no numerical damping), fixed step, "
            "Newton with its default settings (modified Newton), index-3 constraints.",
            "Accuracy is compared over t <= 3.5 s: the E = 21 MPa chain is very sensitive after that "
            "(step-size differences grow to decimetres).",
            "Explicit RK4 at E = 210 GPa needs a step below its stability limit (bounded by the highest "
            "element frequency), hence its long run time there; this is a property of explicit "
            "integration of a stiff chain, not of the recursion.",
            "Wall times of both codes are measured in this run around the solver call only (model "
            "assembly excluded).",
            "Implicit rancf runs use Exudyn's scheme (generalized-alpha, same spectral radius, h = 1e-3) and "
            "are checked against Exudyn at that step; their distance to the converged run is the time "
            "discretisation error the two codes share. RK4 is checked against the converged run.",
            "The dense DAE is not run in the accuracy comparison: it follows the same trajectory as the "
            "sparse one (the speed table and the scaling case time both).",
            f"Speed (table speed, issue 12), like with like: rancf's Reissner element against Exudyn's "
            f"ANCFCable2D (the same strain measures), generalized-alpha with spectral radius "
            f"{SPEED_RHO_INF:g} in both (rancf's recursive formulation, Exudyn's index-3 DAE), or RK4 in both "
            f"(Exudyn's RK44, one pinned beam: its explicit solvers eliminate only coordinates fixed to "
            f"the ground, not the pins between bodies), both at h = {H:g} s, modified Newton in both (Exudyn "
            f"1.13's default), sparse solver for Exudyn; one thread each (Exudyn's "
            f"parallel.numberOfThreads = {EXUDYN_THREADS}; rancf's compiled loop has no parallel region "
            f"and BLAS is held to one thread by threadpoolctl); {SPEED_REPEATS[quick]} repeats each, "
            "interleaved; the wall times cover the stepping only (rancf's Result.wall_time, with an "
            "output every 100 steps; Exudyn's SolveDynamic without a sensor). Like for like with "
            "outputs (rows 'every step'): Exudyn with its tip sensor stored every step, rancf's judged "
            "runs with an output every step, timed over the whole simulate call, in the same repeats. "
            "rancf's Shabana element (and the modal case's Berzeri) and the DAE are timed "
            "as rows that inform. Timings on a machine shared with other jobs: the ratios are taken pair "
            "by pair, so a common load cancels, but they are noisy: each ratio (the median of the "
            "repeats' ratios) and each time per step (the median of the repeats') carries its noise "
            "interval, the least to the largest median of any n - 2 of its n repeats (validation.noise; "
            "of five, the second to the fourth smallest; one repeat, the quick run's, has none).",
            f"Newton tolerances (table newton_tolerance): Exudyn stops a step's Newton when the Euclidean "
            f"norm of the whole residual (dynamic equations in N and index-3 constraints in m, unscaled) "
            f"falls by relativeTolerance = {EXUDYN_TOLERANCE[0]:g} from its value at the step's predictor "
            f"or below absoluteTolerance = {EXUDYN_TOLERANCE[1]:g} (CSolverBase.cpp; "
            f"weightTolerancePerCoordinate = 0); rancf when max |dq| <= {RANCF_TOLERANCE:g} m (the position "
            f"increment) and max |dv| <= {RANCF_TOLERANCE:g} m/s (the velocity increment's error "
            "estimated from the iteration's contraction, waived where it no longer contracts by 1/2, loosened to 1e-3 of the step's own "
            "velocity error where that is larger). Expressed in one norm: the largest tip distance between each code's run at its "
            "default tolerance and the same discrete equations solved by rancf to the tightest tolerance it "
            "converges with (Exudyn fails below its defaults on the stiff chain).",
            f"Output cost (table output_cost, issue 25): rancf's whole simulate call of the soft "
            f"pendulum with an output every step against one every {OUTPUT_COST_EVERY} steps, "
            f"{OUTPUT_COST_REPEATS[quick]} interleaved pairs per scheme, the ratio the median of the "
            "pairs', its noise interval the least to the largest median of any n - 2 of them "
            "(validation.noise; of seven, the third to the fifth smallest); the nodes, joint "
            "coordinates and reactions are mapped from the stored states when first read "
            "(DECISIONS 32), timed apart.",
            "Newton iterations per step: Exudyn's from its solver statistics after the run "
            "(mbs.sys['dynamicSolver'].it.newtonStepsCount, newtonJacobiCount for the Jacobians), "
            "rancf's from Result.stats (newton_iterations, nlu).",
        ],
    )


CASE = Case(
    name="peers",
    title="Peers: the 5 x 5 pendulum in Exudyn vs rancf",
    claim="With the same element model rancf and Exudyn agree (tip within about a millimetre over 3.5 s); "
          "the Shabana model differs by metres at this mesh for E = 21 MPa, shrinking under refinement "
          "(the prototype in theory: The ANCF beam element; not a claim of the papers). Like with like "
          "(element model, scheme, step, threads), rancf takes at most half of Exudyn's wall time "
          "implicitly and a quarter explicitly (issue 12).",
    run=run, timed=True,
)
