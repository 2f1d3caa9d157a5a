"""``peers3d``: the 45-degree bend's statics in rancf and in Exudyn, side by side.

| case | system | parameters | run | what it checks |
| --- | --- | --- | --- | --- |
| `peers3d` | Bathe and Bolourchi's 45-degree bend (:mod:`validation.bend45`), 64 elements | R = 100, unit square, E = 1e7, nu = 0, shear 5/6, J = 1/6, tip force 600 along +z | statics, 10 equal load steps, Newton to max increment <= 1e-10 x rancf's model size in both codes; Exudyn's settings compared first, then 3 interleaved timed runs of each code, one thread each | tips within 1e-2 of each other; rancf's wall time <= 0.01 x Exudyn's (issue 22) |

Exudyn 1.13 (https://github.com/jgerstmayr/EXUDYN, PyPI ``exudyn``) models the bend with its
``ObjectBeamGeometricallyExact`` (two-node geometrically exact beam, stress-free in its nodes'
reference configuration) on ``NodeRigidBodyEP`` nodes (Euler parameters: its static solver
cannot solve for Lie-group rotation-vector nodes, a limitation its own rightAngleFrame test
states), the clamp as six ``CoordinateConstraint``s on the first node, the force as a ``Force``
on the last node, and ``SolveStatic``: its load factor in 10 equal steps (``adaptiveStep``
off, so the load steps are rancf's), Newton judged on its increment (``newton.residualMode =
1``: Euclidean norm of the increment <= the tolerance, which bounds the largest component as
rancf's criterion does; both the relative and the absolute tolerance set to it, as Exudyn
asks), one thread (``parallel.numberOfThreads = 1``; BLAS single-threaded by the validation
package). Its linear solver and Newton variant are those of the fastest converged run of a
short study in the case (``linearSolver.solverType`` EXUdense, its default, or EigenSparse;
full or modified Newton).

rancf: :func:`rancf.static`, the same load steps and criterion (Newton with the full tangent:
GMRES on its residual's derivative, preconditioned by the O(n) elimination of the elements'
stiffness; rancf/formulations/_spatial_implicit.pyx); its wall time is its own clock's, the load
steps without building the model.
"""
from __future__ import annotations

import time

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

import rancf
from validation import bend45
from validation.case import Case, Check, Outcome, progress
from validation.cases.peers import exudyn_version

N_ELEMENTS = 64
LOAD_STEPS = 10
TOL = 1e-10  # rancf.static's default: max |dq| <= TOL x model size
TIP_LIMIT = 1e-2  # issue 22
SPEED_LIMIT = 0.01  # issue 22: rancf <= 0.01 x Exudyn's wall time
REPEATS = 3


def exudyn_bend(n_elements, tolerance, solver="EigenSparse", modified=False):
    """Solve the bend in Exudyn; returns (converged, wall time of SolveStatic (s), tip
    displacement (3,))."""
    import exudyn as exu
    from exudyn.itemInterface import (CoordinateConstraint, Force, MarkerNodeCoordinate,
                                      MarkerNodeRigid, NodePointGround, NodeRigidBodyEP,
                                      ObjectBeamGeometricallyExact)
    from scipy.spatial.transform import Rotation

    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    points, tangents = bend45.arc(n_elements)
    up = np.array([0.0, 0.0, 1.0])
    nodes = []
    for p, t in zip(points, tangents):
        # node frame as rancf's: x the tangent, y = up, z = x cross y
        x, y, z, w = Rotation.from_matrix(np.column_stack([t, up, np.cross(t, up)])).as_quat()
        nodes.append(mbs.AddNode(NodeRigidBodyEP(referenceCoordinates=list(p) + [w, x, y, z])))
    section = exu.BeamSection()
    EA, GA = bend45.E * bend45.A, bend45.KAPPA * bend45.G * bend45.A
    GJ, EI = bend45.G * bend45.J_POLAR, bend45.E * bend45.I_SECTION
    section.stiffnessMatrix = np.diag([EA, GA, GA, GJ, EI, EI])
    section.massPerLength = bend45.RHO * bend45.A
    section.inertia = bend45.RHO * np.diag([2 * bend45.I_SECTION, bend45.I_SECTION, bend45.I_SECTION])
    length = bend45.R * bend45.ANGLE / n_elements
    for i in range(n_elements):
        mbs.AddObject(ObjectBeamGeometricallyExact(nodeNumbers=[nodes[i], nodes[i + 1]], length=length,
                                                   sectionData=section))
    ground = mbs.AddMarker(MarkerNodeCoordinate(nodeNumber=mbs.AddNode(NodePointGround()), coordinate=0))
    for c in (0, 1, 2, 4, 5, 6):  # displacements and the Euler parameters' vector part
        mbs.AddObject(CoordinateConstraint(markerNumbers=[ground, mbs.AddMarker(
            MarkerNodeCoordinate(nodeNumber=nodes[0], coordinate=c))]))
    mbs.AddLoad(Force(markerNumber=mbs.AddMarker(MarkerNodeRigid(nodeNumber=nodes[-1])),
                      loadVector=[0.0, 0.0, bend45.FORCE]))
    mbs.Assemble()
    s = exu.SimulationSettings()
    s.solution.file.write = False
    s.parallel.numberOfThreads = 1
    s.linearSolver.solverType = getattr(exu.LinearSolverType, solver)
    st = s.staticSolver
    st.numberOfLoadSteps = LOAD_STEPS
    st.adaptiveStep = False
    st.verboseMode = 0
    st.newton.residualMode = 1
    st.newton.relativeTolerance = tolerance
    st.newton.absoluteTolerance = tolerance
    st.newton.useModifiedNewton = modified
    st.newton.maxIterations = 50
    start = time.perf_counter()
    try:
        ok = mbs.SolveStatic(s)
    except exu.SolverError:
        ok = False
    wall = time.perf_counter() - start
    tip = np.asarray(mbs.GetNodeOutput(nodes[-1], exu.OutputVariableType.Position)) - bend45.TIP0
    return bool(ok), wall, tip


def rancf_bend(n_elements, tol):
    """rancf.static on the bend: (wall (s), tip (3,), Newton iterations, load factor reached)."""
    m, beam = bend45.model(n_elements)
    res = rancf.static(m, load_steps=LOAD_STEPS, tol=tol)
    tip = res.position(beam.end)[0] - bend45.TIP0
    return res.wall_time, tip, int(res.extra["iterations"].sum()), float(res.extra["load_factor"][0])


def run(quick: bool) -> Outcome:
    version = exudyn_version()
    if version is None:
        return Outcome(skipped="exudyn is not installed (pip install 'rancf[peers]' or pip install exudyn)",
                       assumptions=["The peers3d case needs the optional dependency exudyn."])
    size = bend45.model(N_ELEMENTS)[0].build().size
    tolerance = TOL * size
    # Exudyn's settings: where its time goes (one run each).
    settings = []
    for solver in ("EXUdense", "EigenSparse"):
        for modified in (False, True):
            progress(f"Exudyn settings: {solver}, {'modified' if modified else 'full'} Newton")
            ok, wall, tip = exudyn_bend(N_ELEMENTS, tolerance, solver, modified)
            settings.append({"linear solver": solver, "Newton": "modified" if modified else "full",
                             "converged": ok, "wall time (s)": wall, "tip dx": tip[0], "tip dy": tip[1],
                             "tip dz": tip[2]})
    settings = pd.DataFrame(settings)
    good = settings[settings["converged"]]
    if good.empty:
        raise RuntimeError("Exudyn did not converge on the bend with any setting")
    best = good.sort_values("wall time (s)").iloc[0]
    solver, modified = best["linear solver"], best["Newton"] == "modified"

    rows = []
    for r in range(REPEATS):
        progress(f"timed runs, repeat {r + 1} of {REPEATS}")
        ok, wall_e, tip_e = exudyn_bend(N_ELEMENTS, tolerance, solver, modified)
        if not ok:
            raise RuntimeError(f"Exudyn ({solver}) did not converge in repeat {r + 1}")
        wall_r, tip_r, its, reached = rancf_bend(N_ELEMENTS, TOL)
        rows.append({"repeat": r + 1, "Exudyn wall time (s)": wall_e, "rancf wall time (s)": wall_r,
                     "rancf load factor reached": reached, "rancf Newton iterations": its,
                     "ratio rancf / Exudyn": wall_r / wall_e,
                     **{f"Exudyn tip d{c}": v for c, v in zip("xyz", tip_e)},
                     **{f"rancf tip d{c}": v for c, v in zip("xyz", tip_r)}})
    timed = pd.DataFrame(rows)
    exu_tip = timed[[f"Exudyn tip d{c}" for c in "xyz"]].to_numpy()[-1]
    rancf_tip = timed[[f"rancf tip d{c}" for c in "xyz"]].to_numpy()[-1]
    ratio = float(timed["ratio rancf / Exudyn"].median())
    med_e, med_r = timed["Exudyn wall time (s)"].median(), timed["rancf wall time (s)"].median()

    checks = [
        Check("tips: rancf vs Exudyn at 64 elements", "issue 22: the tips within 1e-2 of each other",
              value=float(np.linalg.norm(rancf_tip - exu_tip)), limit=TIP_LIMIT, unit="(length)",
              source="independent reference: Exudyn 1.13 ObjectBeamGeometricallyExact",
              detail=f"rancf ({rancf_tip[0]:.5f}, {rancf_tip[1]:.5f}, {rancf_tip[2]:.5f}), Exudyn "
                     f"({exu_tip[0]:.5f}, {exu_tip[1]:.5f}, {exu_tip[2]:.5f}): the same discrete model"),
        Check("wall time: rancf / Exudyn", "issue 22: rancf <= 0.01 x Exudyn's wall time on the bend's "
              "statics (Exudyn took 328 s on a loaded machine)", value=ratio, limit=SPEED_LIMIT,
              unit="time ratio", source="rancf target: issue 22",
              known_deviation="the target was set against Exudyn's 328 s; with its sparse solver Exudyn "
                              "solves the bend in a few tenths of a second, and rancf.static's Newton "
                              "step is a GMRES whose products cost two residual evaluations each (about "
                              "9 products a Newton iteration: rancf/formulations/_spatial_implicit.pyx)",
              detail=f"medians of {REPEATS} interleaved runs: rancf {med_r:.3g} s, Exudyn {med_e:.3g} s "
                     f"({solver}, {'modified' if modified else 'full'} Newton)"),
        Check("rancf.static on the bend", "rancf.static reaches the full load at 64 elements, 10 load steps",
              value=float(timed["rancf load factor reached"].min()), limit=1.0, comparison=">=",
              unit="load factor", source="rancf target: issue 22"),
    ]
    for _, r in settings.iterrows():
        checks.append(Check(f"Exudyn, {r['linear solver']}, {r['Newton']} Newton", "Exudyn's wall time "
                            "with this linear solver and Newton variant", value=r["wall time (s)"], unit="s",
                            source="measured", detail="converged" if r["converged"] else "did not converge"))

    fig, ax = plt.subplots(figsize=(7.5, 4.5))
    labels = [f"Exudyn\n{r['linear solver']}, {r['Newton']}" for _, r in settings.iterrows()]
    values = list(settings["wall time (s)"])
    labels += ["rancf.static"]
    values += [med_r]
    ax.bar(range(len(values)), values, color=["C0"] * len(settings) + ["C1"])
    ax.set_xticks(range(len(values)))
    ax.set_xticklabels(labels, fontsize=7)
    ax.set(yscale="log", ylabel="wall time (s)", title="45-degree bend, 64 elements, 10 load steps")
    ax.grid(alpha=0.3, axis="y", which="both")
    fig.tight_layout()

    return Outcome(
        tables={"exudyn_settings": settings, "timed": timed},
        figures={"wall_times": fig},
        checks=checks,
        parameters={"elements": N_ELEMENTS, "load steps": LOAD_STEPS,
                    "Newton tolerance": f"max |dq| <= {TOL:g} x {size:.4g} = {tolerance:.3g} (rancf); "
                                        f"|dq|_2 <= {tolerance:.3g} (Exudyn, residualMode 1)",
                    "Exudyn version": version, "Exudyn linear solver": solver,
                    "Exudyn Newton": "modified" if modified else "full", "Exudyn nodes": "NodeRigidBodyEP",
                    "threads": "1 (Exudyn parallel.numberOfThreads = 1; rancf single-threaded; BLAS 1)",
                    "repeats": REPEATS},
        assumptions=[
            "Both codes solve the same discrete model (two-node beams whose strain is that of the SE(3) "
            "geometrically exact beam); their coordinates differ (Exudyn: absolute node displacements and "
            "Euler parameters; rancf: relative link coordinates), so one tolerance bounds different "
            "increments.",
            "Wall times cover the solve only (Exudyn's SolveStatic, rancf.static's load steps), not "
            "building the model; each code is run once per repeat, interleaved.",
        ])


CASE = Case(
    name="peers3d",
    title="Peers 3D: the 45-degree bend's statics in rancf and Exudyn",
    claim="rancf and Exudyn's geometrically exact beam give the same tip on the 45-degree bend at 64 "
          "elements, rancf in at most 1 % of Exudyn's wall time (issue 22).",
    run=run, timed=True,
)
