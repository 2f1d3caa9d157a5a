"""``spatial``: the spatial beam (issue 22) and the ANCF cable (issue 23) against published and
analytic references.

| case | system | parameters | run | what it checks |
| --- | --- | --- | --- | --- |
| `spatial` | (1) Bathe and Bolourchi's 45-degree bend: an arc of radius 100 over 45 degrees in the x-y plane, clamped at the origin along +x, curving towards +y, tip force 600 along +z (:mod:`validation.bend45`); (2) a straight steel cantilever along x (1 m, 0.02 x 0.01 m) under an end moment about z; (3) the same section, 4 m long, free vibration; (4) a heavy symmetric top on a spherical joint; (5) Chrono's ANCF cable pendulum (its unit test's: a 1 m cable on a spherical joint to the ground, released straight along x with velocities -4 x along z) | bend: unit square, E = 1e7, nu = 0, shear 5/6, J = 1/6 and 0.141; cantilevers: E = 2.1e11, nu = 0.3, rho = 7800; top: m = 1 kg, I = diag(0.4, 0.4, 0.2), centre 0.5 m from the pivot, tilted 0.5 rad, spin 30 rad/s; cable: 4 elements, A = 2.5e-5 m^2, E = 1.6e6 Pa, rho = 320 kg/m^3, gravity 9.8 along -y; (6) cable statics (validation/cable_statics.py): a cable of 1 m between two spherical joints to the ground 1 m apart, 32 elements, rho A = 1 kg/m, EA = 1e3 N, EI = 1e-6 N m^2, gravity 9.81 along -y; a slack cable of 1.2 m drawn as a circular arc between pins 1 m apart, EA = 1e6 x its weight; Exudyn's 3D cable cantilever (L = 2 m, 32 elements, rho A = 78 kg/m, EA = 1e6 N, EI = 833.33 N m^2) | bend: statics at 8, 16, 32, 64 elements, 10 load steps; roll-ups: 4 to 32 elements; frequencies: 8, 16, 32 elements; top: 1 s, RK4, h = 2e-4 s; cable: 0.5 s on the spatial DAE, backward Euler at 1e-4 s, generalized-alpha at 1e-4 and 2e-4 s, and in Exudyn (ObjectANCFCable, validation/peers3d_models.py) generalized-alpha at 5e-5, 1e-4 and 2e-4 s; cable statics: rancf.static, 10 and 4 load steps | bend tip against DESIGN.md section 7 (prototype, Exudyn 1.13) and the papers; observed order; roll-up tip against the arc ``(L sin a / a, L (1 - cos a) / a)`` and the closed circle; first bending (both planes), torsion and axial frequencies against the analytic ones at second order; energy and axial angular momentum of the top; the cable against Chrono's reference file (validation/data/chrono_ancf_cable_pendulum.csv) and against Exudyn's converged cable, Exudyn's against the file; the hanging cable's sag and end tensions against Irvine's elastic catenary, the slack cable's sag, end tensions and shape against the inextensible catenary, the cantilever's tip against Exudyn's value |

The bend's equilibrium is rancf.static's (:func:`validation.bend45.solve`): Newton with the full
tangent, the load stiffness of the fixed-direction tip force included (GMRES on the residual's
derivative, preconditioned by the elements' stiffness: rancf/formulations/_spatial_implicit.pyx).

Limits are fixed here from theory and from the references, before any run.
"""
from __future__ import annotations

import time
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

import rancf
from rancf.formulations import spatial as spatial_formulation
from validation import bend45, cable_statics, peers3d_models
from validation.case import Case, Check, Outcome, progress
from validation.cases.peers import exudyn_version
from validation.exudyn_solve import solve_dynamic
from validation.spatial_trees import linear_stiffness

BEND_MESHES = (8, 16, 32, 64)
ORDER_BAND = (1.7, 2.3)  # observed order of a second-order element, from three meshes
CONVERGED_LIMIT = 1e-2  # issue 22: the converged tip within 1e-2 of the prototype's and Exudyn's
EXUDYN_LIMIT = 1e-3  # same discrete model; DESIGN.md rounds Exudyn's tips to 1e-3 (<= 8.7e-4 in norm)
# Steel cantilevers (roll-up and frequencies): section 0.02 (along y) x 0.01 (along z).
E_STEEL, NU, RHO = 2.1e11, 0.3, 7800.0
G_STEEL = E_STEEL / (2.0 * (1.0 + NU))
WIDTH, HEIGHT = 0.02, 0.01
AREA = WIDTH * HEIGHT
I_Y, I_Z = WIDTH * HEIGHT**3 / 12.0, HEIGHT * WIDTH**3 / 12.0
J_RECT = 0.229 * WIDTH * HEIGHT**3  # Saint-Venant, b/t = 2
ROLL_MESHES = (4, 8, 16, 32)
CIRCLE_MESHES = (8, 16, 32)
ROUND_OFF = 1e-10  # of L: the SE(3) strain is exact for constant curvature
FREQ_MESHES = (8, 16, 32)
FREQ_LENGTH = 4.0  # m: shear and rotary inertia shift the first bending frequency by ~1.5e-5
RATIO_BAND = (3.0, 5.0)  # error ratio per halved element of a second-order method
FREQ_LIMIT = 1e-3  # relative error at 32 elements: DESIGN.md's lumped-mass 0.12 % at 20 -> 0.05 % at 32, x2
TOP = {"mass": 1.0, "I1": 0.4, "I3": 0.2, "l": 0.5, "tilt": 0.5, "spin": 30.0, "t_end": 1.0, "dt": 2e-4}
# RK4: local error ~ (w h)^5 = (30 * 2e-4)^5 = 8e-12 a step, 5000 steps: 4e-8 at worst.
TOP_LIMIT = 1e-7
# Chrono's ANCF cable pendulum (issue 23): its reference file sampled (the header names the source)
CHRONO_FILE = Path(__file__).resolve().parents[1] / "data" / "chrono_ancf_cable_pendulum.csv"
CHRONO_LIMIT = 1e-3  # m, issue 23: Chrono's file and Exudyn agree to 1e-3 m
CHRONO_STEP = 1e-4  # s, Chrono's step (EULER_IMPLICIT_LINEARIZED: a linearized backward Euler)
CHRONO_E, CHRONO_RHO = 1.6e6, 320.0  # Pa, kg/m^3
# Exudyn's run of the same pendulum: its Newton (relative, absolute) 100 x tighter than its default
# (1e-8, 1e-10), so that its iteration error stays far below the time error the steps show.
EXUDYN_CHRONO_TOLERANCE = (1e-10, 1e-12)
EXUDYN_CHRONO_STEPS = (5e-5, 1e-4, 2e-4)  # s: three steps, halved, give the observed order
# rancf's converged motion against Exudyn's: the same element (|r'| - 1, |r' x r''| / |r'|^2), each
# converged to within a few 1e-6 m (the step halving's estimates, in the rows' details), so the two
# within 1e-5 m: 1 % of the issue's 1e-3 m, so that whoever is 1e-3 m away from the file is
# away from both codes.
CODES_LIMIT = 1e-5
# Cable statics (issue 23, validation/cable_statics.py). The catenary: the bending stiffness moves the
# equilibrium by about EI kappa / (H sag) = 5e-7 of it (kappa = w / H at mid-span), 32 cubic
# elements by about h^4 = 1e-6: 1e-5 of the sag and of the end tension.
CATENARY_LIMIT = 1e-5
# The slack cable (1.2 m drawn as an arc between pins 1 m apart, EA = 1e6 x its weight) against the
# inextensible catenary: its stretch deepens the sag by about 1.6e-6 of it, its bending by
# EI kappa / (H sag) = 1.6e-6, 32 cubic elements by about h^4 = 2e-6: 1e-5 of the sag (sag and
# shape) and of the end tension.
SLACK_LIMIT = 1e-5
# Exudyn's cantilever: the same discrete model; the issue quotes Exudyn's value to 1e-10 m, and
# Exudyn's own Newton stops at a relative residual of 1e-8 (tests/test_ancf_cable.py allows 1e-8).
EXUDYN_TIP_LIMIT = 1e-8


def bend_study(J):
    rows, shapes = [], {}
    for n in BEND_MESHES:
        progress(f"45-degree bend, J = {J:.4g}, {n} elements")
        r = bend45.solve(n, J)
        shapes[n] = r["nodes"]
        rows.append({"J": J, "elements": n, "tip dx": r["tip"][0], "tip dy": r["tip"][1],
                     "tip dz": r["tip"][2], "load factor reached": r["load_factor"],
                     "Newton iterations": sum(r["iterations"]),
                     "Newton iterations per load step": " ".join(map(str, r["iterations"])),
                     "wall time (s)": r["wall"]})
    return pd.DataFrame(rows), shapes


def observed_order(tips):
    """Orders ``log2(|t_h - t_h/2| / |t_h/2 - t_h/4|)`` of successive mesh triples (no reference
    needed) and the Richardson extrapolation ``t_h/2 + (t_h/2 - t_h) / 3`` of the last pair."""
    d = np.linalg.norm(np.diff(tips, axis=0), axis=1)
    return np.log2(d[:-1] / d[1:]), tips[-1] + (tips[-1] - tips[-2]) / 3.0


def cantilever(n, length):
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, 0.0))
    b = m.add_beam(length, n, E=E_STEEL, rho=RHO, A=AREA, I=(I_Y, I_Z), J=J_RECT, G=G_STEEL,
                   direction=(1.0, 0.0, 0.0), up=(0.0, 1.0, 0.0))
    m.add_joint("fixed", m.ground.point(0.0, 0.0, 0.0), b.start)
    return m, b


def roll_up(n, fraction, load_steps):
    """Tip error (of L) and the centreline under ``fraction * 2 pi E I_z / L`` about z."""
    L = 1.0
    m, b = cantilever(n, L)
    m.add_force(b.end, moment=(0.0, 0.0, fraction * 2.0 * np.pi * E_STEEL * I_Z / L))
    res = rancf.static(m, load_steps=load_steps)
    if res.status != "ok":
        raise RuntimeError(f"roll-up {fraction}, {n} elements: {res.message}")
    a = 2.0 * np.pi * fraction
    exact = np.array([L * np.sin(a) / a, L * (1.0 - np.cos(a)) / a, 0.0])
    nodes = np.array([res.position(b.node(i))[0] for i in range(n + 1)])
    return float(np.linalg.norm(nodes[-1] - exact) / L), nodes, int(res.extra["iterations"].sum())


def linearized(model):
    """``K`` with ``qdd = -K q`` at rest in the reference configuration, by central differences
    of the recursion's accelerations in q (n_free x n_free; :func:`validation.spatial_trees.
    linear_stiffness`)."""
    return linear_stiffness(spatial_formulation.of_model(model))


#: Coordinate families of a straight cantilever along x in element coordinates (u, psi):
#: they decouple at the reference configuration.
FAMILIES = {"bending in x-y (about z, E I_z)": (1, 5), "bending in x-z (about y, E I_y)": (2, 4),
            "torsion (G J)": (3,), "axial (E A)": (0,)}


def analytic_frequencies(L):
    """First frequencies (rad/s) of a clamped-free beam: Euler-Bernoulli bending
    ``1.87510407^2 sqrt(E I / (rho A L^4))``, torsion ``pi / (2 L) sqrt(G J / (rho I_p))``
    (I_p = I_y + I_z, the section's polar inertia the node masses carry), axial
    ``pi / (2 L) sqrt(E / rho)``."""
    beta = 1.87510407**2
    return {"bending in x-y (about z, E I_z)": beta * np.sqrt(E_STEEL * I_Z / (RHO * AREA * L**4)),
            "bending in x-z (about y, E I_y)": beta * np.sqrt(E_STEEL * I_Y / (RHO * AREA * L**4)),
            "torsion (G J)": np.pi / (2 * L) * np.sqrt(G_STEEL * J_RECT / (RHO * (I_Y + I_Z))),
            "axial (E A)": np.pi / (2 * L) * np.sqrt(E_STEEL / RHO)}


def frequency_study():
    rows = []
    exact = analytic_frequencies(FREQ_LENGTH)
    for n in FREQ_MESHES:
        progress(f"cantilever frequencies, {n} elements")
        K = linearized(cantilever(n, FREQ_LENGTH)[0])
        idx_all = np.arange(K.shape[0])
        for name, comps in FAMILIES.items():
            idx = idx_all[np.isin(idx_all % 6, comps)]
            rest = np.setdiff1d(idx_all, idx)
            coupling = np.abs(K[np.ix_(rest, idx)]).max() / np.abs(K[np.ix_(idx, idx)]).max()
            if coupling > 1e-6:
                raise RuntimeError(f"{name} couples to the other families ({coupling:.2g})")
            w = np.sqrt(np.sort(np.linalg.eigvals(K[np.ix_(idx, idx)]).real))[0]
            rows.append({"mode": name, "elements": n, "omega (rad/s)": w, "analytic (rad/s)": exact[name],
                         "relative error": w / exact[name] - 1.0, "family coupling": coupling})
    return pd.DataFrame(rows)


def timed(label, run):
    """``(run(), wall time (s))``, ``label`` told to the runner first; a RuntimeError naming
    ``label`` where the Result (what run returns, or its first item) did not end "ok"."""
    progress(label)
    start = time.perf_counter()
    out = run()
    wall = time.perf_counter() - start
    res = out[0] if isinstance(out, tuple) else out
    if res.status != "ok":
        raise RuntimeError(f"{label}: {res.status}: {res.message}")
    return out, wall


def top_run():
    p = TOP
    tilt = rotation_matrix(np.array([p["tilt"], 0.0, 0.0]))
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -9.81))
    body = m.add_rigid_body(p["mass"], np.diag([p["I1"], p["I1"], p["I3"]]),
                            position=tuple(tilt @ [0.0, 0.0, p["l"]]), orientation=tilt)
    m.add_joint("spherical", m.ground.point(0.0, 0.0, 0.0), body.point(0.0, 0.0, -p["l"]))
    w0 = tilt @ np.array([0.3, -0.2, p["spin"]])  # the body-frame rate in the ground frame
    centre = tilt @ [0.0, 0.0, p["l"]]
    state = rancf.State(np.r_[centre, tilt.ravel()], np.r_[np.cross(w0, centre), w0])
    n_out = 200
    res, wall = timed("heavy symmetric top", lambda: rancf.simulate(
        m, p["t_end"], p["dt"], method="rk4", state=state,
        output_every=round(p["t_end"] / p["dt"] / n_out)))
    A = res.orientation(body.centre)
    axial = p["I3"] * np.einsum("ni,ni->n", A[:, :, 2], res.angular_velocity(body.centre))
    e = res.energy()
    return pd.DataFrame({"t (s)": res.t, "energy (J)": (e.kinetic + e.gravity).to_numpy(),
                         "axial momentum (kg m^2/s)": axial,
                         "centre z (m)": res.position(body.centre)[:, 2]}), wall


def chrono_file():
    """Chrono's sampled reference: a DataFrame of the file's columns (t, D1x, D1y, D1z, y3, x5,
    z5; 51 rows)."""
    return pd.read_csv(CHRONO_FILE, comment="#")


def chrono_section():
    """The unit test's circular section: its area A = 2.5e-5 m^2 and I = pi/4 (d/2)^4 (m^4)."""
    d = np.sqrt(1e-6 / np.pi) * 2.0 * 5.0  # the unit test's diameter
    return np.pi * (d / 2) ** 2, np.pi / 4.0 * (d / 2) ** 4


def chrono_cable_run(method, dt):
    """Chrono's ANCF cable pendulum (the file's header) on the spatial DAE: 4 cable elements,
    a spherical joint to the ground at the start, the nodes' velocities (0, 0, -4 x) m/s, the
    slopes' rates zero, given to rancf.simulate as its initial State (the cable nodes' [r, r']
    and rates). Returns y3, x5, z5 (m) every 10 ms from 0 to 0.5 s, (51, 3)."""
    A, I = chrono_section()
    m = rancf.Model(dim=3, gravity=(0.0, -9.8, 0.0))  # ChLoaderGravity's default
    c = m.add_beam(1.0, 4, E=CHRONO_E, rho=CHRONO_RHO, A=A, I=I, element="ancf-cable")
    m.add_joint("spherical", m.ground.point(0.0, 0.0, 0.0), c.start)
    x0 = np.concatenate([[s, 0.0, 0.0, 1.0, 0.0, 0.0] for s in np.linspace(0.0, 1.0, 5)])
    v0 = np.zeros(30)
    v0[2::6] = -4.0 * x0[0::6]  # the cable's nodes are the only coordinates: [r, r'] each
    res = rancf.simulate(m, 0.5, dt, method=method, output_every=round(0.01 / dt),
                         state=rancf.State(x0, v0), tol=1e-12, max_iter=25, formulation="dae",
                         **({"rho_inf": 0.9} if method == "generalized-alpha" else {}))
    if res.status != "ok":
        raise RuntimeError(f"cable pendulum, {method}: {res.status}: {res.message}")
    return np.column_stack([res.position(c.node(2))[:, 1], res.position(c.node(4))[:, 0],
                            res.position(c.node(4))[:, 2]])


def exudyn_chrono_cable_run(dt):
    """The same pendulum in Exudyn (:func:`validation.peers3d_models.exudyn_cable`: 4
    ObjectANCFCable, an ObjectJointSpherical to the ground, the same initial velocities, gravity
    a LoadMassProportional) under its generalized-alpha (rho_inf 0.9) at the step dt (s), its
    Newton to EXUDYN_CHRONO_TOLERANCE. Returns y3, x5, z5 (m) every 10 ms from 0 to 0.5 s,
    (51, 3), as :func:`chrono_cable_run`."""
    import exudyn as exu
    from exudyn.itemInterface import SensorNode

    A, I = chrono_section()
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    velocities = np.zeros((5, 6))
    velocities[:, 2] = -4.0 * np.linspace(0.0, 1.0, 5)
    nodes = peers3d_models.exudyn_cable(mbs, 4, 1.0, CHRONO_RHO * A, CHRONO_E * A, CHRONO_E * I,
                                        (0.0, -9.8, 0.0), velocities)
    sensors = [mbs.AddSensor(SensorNode(nodeNumber=nodes[k], storeInternal=True, writeToFile=False,
                                        outputVariableType=exu.OutputVariableType.Position))
               for k in (2, 4)]
    mbs.Assemble()
    solve_dynamic(mbs, 0.5, dt, 0.9, EXUDYN_CHRONO_TOLERANCE, 1, 0.01)
    node3, node5 = (mbs.GetSensorStoredData(s) for s in sensors)
    grid = 0.01 * np.arange(51)
    return np.column_stack([np.interp(grid, node3[:, 0], node3[:, 2]),
                            np.interp(grid, node5[:, 0], node5[:, 1]),
                            np.interp(grid, node5[:, 0], node5[:, 3])])


def chrono_cable_study():
    """The cable pendulum against Chrono's file: Chrono's scheme (backward Euler at 1e-4 s)
    and generalized-alpha (rho_inf 0.9) at 1e-4 s and 2e-4 s (second order: their difference
    bounds the finer run's error), at the file's times after the first row (1e-4 s)."""
    ref = chrono_file().iloc[1:]
    runs = {}
    for label, method, dt in (("backward Euler 1e-4", "backward-euler", CHRONO_STEP),
                              ("generalized-alpha 1e-4", "generalized-alpha", CHRONO_STEP),
                              ("generalized-alpha 2e-4", "generalized-alpha", 2 * CHRONO_STEP)):
        progress(f"cable pendulum (Chrono's test), {label} s")
        runs[label] = chrono_cable_run(method, dt)[1:]
    table = ref[["t", "y3", "x5", "z5"]].rename(columns={"t": "t (s)", "y3": "Chrono y3 (m)",
                                                      "x5": "Chrono x5 (m)", "z5": "Chrono z5 (m)"})
    for label, run in runs.items():
        for k, name in enumerate(("y3", "x5", "z5")):
            table[f"{label}: {name} (m)"] = run[:, k]
    return table.reset_index(drop=True), ref[["y3", "x5", "z5"]].to_numpy(), runs


def exudyn_chrono_study():
    """Exudyn's runs of the pendulum (:func:`exudyn_chrono_cable_run`) at EXUDYN_CHRONO_STEPS,
    at the file's times after the first row: {step (s): (50, 3)}; None without Exudyn."""
    if exudyn_version() is None:
        return None
    runs = {}
    for dt in EXUDYN_CHRONO_STEPS:
        progress(f"cable pendulum (Chrono's test) in Exudyn, generalized-alpha {dt:g} s")
        runs[dt] = exudyn_chrono_cable_run(dt)[1:]
    return runs


def exudyn_chrono_checks(chrono, converged, coarse, exudyn_runs):
    """The rows comparing Exudyn's pendulum with Chrono's file and with rancf's converged run:
    ``chrono`` the file's y3, x5, z5 (50, 3), ``converged`` and ``coarse`` rancf's
    generalized-alpha at 1e-4 s and 2e-4 s, ``exudyn_runs`` :func:`exudyn_chrono_study`'s
    (None: rows without a verdict). Returns (the two Checks, a sentence on who differs from
    whom for the rancf row's known deviation)."""
    checks = []
    if exudyn_runs is None:
        codes = "Exudyn is not installed: the rows comparing it are not run"
    else:
        fine, mid, wide = (exudyn_runs[dt] for dt in EXUDYN_CHRONO_STEPS)
        exudyn_file = float(np.abs(fine - chrono).max())
        exudyn_rancf = float(np.abs(converged - fine).max())
        codes = (f"Exudyn's converged ObjectANCFCable is {exudyn_file:.2e} m from the file and "
                 f"{exudyn_rancf:.2e} m from this motion (the rows below): the file differs from both codes")
    exudyn_claim = ("issue 23: Chrono's reference file of its ANCF cable pendulum (the rows above) and "
                    "Exudyn agree to 1e-3 m over t <= 0.5 s: Exudyn's ObjectANCFCable pendulum (4 "
                    "elements, a spherical joint, the same data and initial velocities), converged in "
                    "its step (generalized-alpha, rho_inf 0.9), against the file")
    codes_claim = ("rancf's converged cable pendulum (generalized-alpha, 1e-4 s) and Exudyn's converged "
                   "one (5e-5 s) are the same motion: same element (|r'| - 1, |r' x r''| / |r'|^2), "
                   "each converged in its step to a few 1e-6 m")
    if exudyn_runs is None:
        for name, claim, limit in (("cable pendulum: Exudyn vs Chrono's file", exudyn_claim, CHRONO_LIMIT),
                                   ("cable pendulum: rancf vs Exudyn, converged", codes_claim, CODES_LIMIT)):
            checks.append(Check(name, claim, limit=limit, unit="m", source="independent reference: "
                                "Exudyn's ObjectANCFCable", no_verdict="Exudyn is not installed"))
    else:
        e_fine, e_mid = float(np.abs(fine - mid).max()), float(np.abs(mid - wide).max())
        steps = (f"Exudyn {EXUDYN_CHRONO_STEPS[0]:g} vs {EXUDYN_CHRONO_STEPS[1]:g} s: {e_fine:.2e} m, "
                 f"{EXUDYN_CHRONO_STEPS[1]:g} vs {EXUDYN_CHRONO_STEPS[2]:g} s: {e_mid:.2e} m (observed "
                 f"order {np.log2(e_mid / e_fine):.2f}: the {EXUDYN_CHRONO_STEPS[0]:g} s run's error "
                 f"about a third of {e_fine:.2e} m); Newton to (relative, absolute) "
                 f"{EXUDYN_CHRONO_TOLERANCE}; Exudyn {exudyn_version()}")
        checks.append(Check(
            "cable pendulum: Exudyn vs Chrono's file", exudyn_claim, value=exudyn_file,
            limit=CHRONO_LIMIT, unit="m",
            source="independent reference: Chrono's UT_ANCFBeam.txt and Exudyn's ObjectANCFCable; "
                   "limit: issue 23",
            known_deviation=f"the file carries Chrono's first-order time error (the rows above): "
                            f"Exudyn's converged motion is rancf's to {exudyn_rancf:.1e} m (the row "
                            "below), so the file is as far from Exudyn as from rancf",
            detail=f"node 3's y, node 5's x and z at t = 0.01 ... 0.5 s; {steps}"))
        checks.append(Check(
            "cable pendulum: rancf vs Exudyn, converged", codes_claim, value=exudyn_rancf,
            limit=CODES_LIMIT, unit="m",
            source="independent reference: Exudyn's ObjectANCFCable; limit: both runs' time errors "
                   "(a few 1e-6 m by step halving), rounded up to 1 % of issue 23's 1e-3 m",
            detail=f"rancf 1e-4 s vs 2e-4 s: {np.abs(converged - coarse).max():.2e} m; {steps}"))
    return checks, codes


def cable_statics_study():
    """The hanging cable against the elastic catenary and Exudyn's cantilever, both by
    rancf.static through the public API: a one-row-per-quantity DataFrame, the catenary's
    relative errors (sag, end tensions) and the cantilever's tip displacement."""
    p = cable_statics.CATENARY
    (res, c, pins), wall_catenary = timed("cable between two pins (elastic catenary)",
                                          cable_statics.hanging_cable)
    H, sag = cable_statics.elastic_catenary(p["length"], p["length"], p["rho_A"], p["g"], p["EA"])
    tension = np.hypot(H, p["rho_A"] * p["g"] * p["length"] / 2)
    sag_rancf = -res.position(c.node(p["n"] // 2))[0, 1]
    tensions = [float(np.linalg.norm(res.reaction(j)[0, :3])) for j in pins]
    (res_e, c_e, _), wall_exudyn = timed("Exudyn's cable cantilever",
                                         cable_statics.exudyn_cantilever)
    tip_dx = float(res_e.position(c_e.end)[-1, 0] - cable_statics.EXUDYN_CANTILEVER["length"])
    table = pd.DataFrame([
        {"quantity": "catenary: mid-span sag (m)", "rancf": sag_rancf, "reference": sag,
         "reference is": "Irvine's elastic catenary", "wall time (s)": wall_catenary},
        {"quantity": "catenary: tension at the start (N)", "rancf": tensions[0], "reference": tension,
         "reference is": "Irvine's elastic catenary", "wall time (s)": wall_catenary},
        {"quantity": "catenary: tension at the end (N)", "rancf": tensions[1], "reference": tension,
         "reference is": "Irvine's elastic catenary", "wall time (s)": wall_catenary},
        {"quantity": "Exudyn's cantilever: tip x displacement (m)", "rancf": tip_dx,
         "reference": cable_statics.EXUDYN_TIP_DX, "reference is": "Exudyn's ObjectANCFCable test",
         "wall time (s)": wall_exudyn}])
    table["relative difference"] = (table["rancf"] - table["reference"]) / table["reference"].abs()
    return table, H


def slack_cable_study():
    """The slack cable (:func:`validation.cable_statics.slack_cable`, 32 elements, 10 load
    steps) against the inextensible catenary of its length: a dict of the relative errors of
    the mid-span sag, of the two end tensions (the pins' reactions) and of the shape (node
    heights against the catenary at the nodes' x, over the sag), the values and the wall
    time."""
    m, c, pins = cable_statics.slack_cable()
    res, wall = timed("slack cable between two pins (inextensible catenary)",
                      lambda: rancf.static(m, load_steps=10, tol=1e-12))
    w, span = 9.81, 1.0
    a, sag, H = cable_statics.inextensible_catenary(c.length, span, w)
    tension = np.hypot(H, w * c.length / 2)
    X = np.array([res.position(c.node(i))[0] for i in range(c.n_nodes)])
    shape = a * np.cosh((X[:, 0] - span / 2) / a) - a * np.cosh(span / (2 * a))
    tensions = [float(np.linalg.norm(res.reaction(j)[0, :3])) for j in pins]
    sag_rancf = float(-X[c.n_nodes // 2, 1])
    return {"sag": sag_rancf, "sag reference": sag, "tensions": tensions,
            "tension reference": tension, "length": c.length, "wall": wall,
            "errors": {"sag": abs(sag_rancf - sag) / sag,
                       "tension": max(abs(t - tension) / tension for t in tensions),
                       "shape": float(np.abs(X[:, 1] - shape).max() / sag)}}


def rotation_matrix(p):
    """Rodrigues' rotation matrix of a rotation vector (written here, not rancf's)."""
    a = np.linalg.norm(p)
    k = p / a
    Kx = np.array([[0, -k[2], k[1]], [k[2], 0, -k[0]], [-k[1], k[0], 0]])
    return np.eye(3) + np.sin(a) * Kx + (1 - np.cos(a)) * Kx @ Kx


def run(quick: bool) -> Outcome:
    checks = []
    ref = bend45.EXTRAPOLATED
    # --- the bend, J = 1/6 -------------------------------------------------------------------
    bend, shapes = bend_study(bend45.J_POLAR)
    tips = bend[["tip dx", "tip dy", "tip dz"]].to_numpy()
    bend["|tip - DESIGN extrapolated|"] = np.linalg.norm(tips - ref, axis=1)
    exu = np.array([bend45.EXUDYN_1_13.get(n, (np.nan,) * 3) for n in BEND_MESHES])
    bend["|tip - Exudyn 1.13|"] = np.linalg.norm(tips - exu, axis=1)
    proto = np.array([bend45.PROTOTYPE.get(n, (np.nan,) * 3) for n in BEND_MESHES])
    bend["|tip - prototype|"] = np.linalg.norm(tips - proto, axis=1)
    orders, extrapolated = observed_order(tips)
    detail = "; ".join(f"{n}: ({t[0]:.4f}, {t[1]:.4f}, {t[2]:.4f})" for n, t in zip(BEND_MESHES, tips))
    checks.append(Check(
        "bend: observed order", "issue 22: the 45-degree bend converges at the element's order "
        "(second: DESIGN.md section 7)", value=float(orders.min()), limit=ORDER_BAND, comparison="within",
        unit="", source="independent reference: theory (second-order element); band for three "
        "meshes' self-convergence", detail=f"orders {', '.join(f'{o:.3f}' for o in orders)} "
        f"from 8-16-32 and 16-32-64; tips {detail}"))
    checks.append(Check(
        "bend: converged tip vs DESIGN.md's prototype", "issue 22: rancf's converged tip within 1e-2 of "
        "the prototype's extrapolated (-23.561, -13.604, 53.476)",
        value=float(np.linalg.norm(extrapolated - ref)), limit=CONVERGED_LIMIT, unit="(length)",
        source="independent reference: DESIGN.md section 7 (numpy prototype, Richardson of 16 and 32)",
        detail=f"rancf Richardson of 32 and 64: ({extrapolated[0]:.4f}, {extrapolated[1]:.4f}, "
               f"{extrapolated[2]:.4f})"))
    checks.append(Check(
        "bend: converged tip vs Exudyn 1.13 at 64 elements", "issue 22: rancf's converged tip within 1e-2 "
        "of Exudyn's geometrically exact beam (-23.559, -13.604, 53.473)",
        value=float(np.linalg.norm(extrapolated - exu[-1])), limit=CONVERGED_LIMIT, unit="(length)",
        source="independent reference: DESIGN.md section 7 (Exudyn 1.13, ObjectBeamGeometricallyExact)"))
    same = bend["|tip - Exudyn 1.13|"].max()
    checks.append(Check(
        "bend: rancf = Exudyn mesh by mesh", "rancf's SE(3) element and Exudyn's geometrically exact "
        "beam (two nodes, rotation interpolated on SE(3)) are the same discrete model: the tips at 8, "
        "16, 32, 64 elements agree to the 1e-3 DESIGN.md rounds Exudyn's to",
        value=float(same), limit=EXUDYN_LIMIT, unit="(length)",
        source="independent reference: DESIGN.md section 7 (Exudyn 1.13 at 8 to 64 elements)",
        detail=", ".join(f"{n}: {v:.2e}" for n, v in zip(BEND_MESHES, bend["|tip - Exudyn 1.13|"]))))
    e16 = float(bend.loc[bend["elements"] == 16, "|tip - DESIGN extrapolated|"].iloc[0])
    e8_proto = float(np.linalg.norm(np.array(bend45.PROTOTYPE[8]) - ref))
    checks.append(Check(
        "bend: error at 16 elements", "second order: at 16 elements the error is below half the "
        "prototype's error at 8 elements (a quarter expected; half leaves room for another element's "
        "constant)", value=e16, limit=0.5 * e8_proto, unit="(length)",
        source="independent reference: DESIGN.md section 7 (the prototype's 8-element tip)"))
    # --- the bend with the papers' torsion constant -------------------------------------------
    bend_sv, _ = bend_study(bend45.J_SAINT_VENANT)
    tips_sv = bend_sv[["tip dx", "tip dy", "tip dz"]].to_numpy()
    _, extrap_sv = observed_order(tips_sv)
    at8 = tips_sv[0]
    checks.append(Check(
        "bend, J = 0.141: rancf at 8 elements vs Simo and Vu-Quoc", "Simo and Vu-Quoc (1986), 8 elements, "
        "J = 0.141: tip displacement (-23.48, -13.50, 53.37)",
        value=float(np.linalg.norm(at8 - bend45.SIMO_VU_QUOC)), unit="(length)",
        source="measured", no_verdict="the paper's element interpolates differently, with its own mesh error at "
        f"8 elements (rancf's here: {np.linalg.norm(at8 - extrap_sv):.2g}, its 8-element tip to its converged "
        "one) and published values scatter by 0.1-0.2 (DESIGN.md section 7): "
        "a difference of that size says nothing about rancf",
        detail=f"rancf 8 elements ({at8[0]:.3f}, {at8[1]:.3f}, {at8[2]:.3f}); converged "
               f"({extrap_sv[0]:.3f}, {extrap_sv[1]:.3f}, {extrap_sv[2]:.3f}); converged J = 1/6 "
               f"({extrapolated[0]:.3f}, {extrapolated[1]:.3f}, {extrapolated[2]:.3f}); Bathe and "
               "Bolourchi as quoted in the later literature: tip (47.2, 15.9, 53.4), displacement "
               "(-23.5, -13.4, 53.4)"))
    bend = pd.concat([bend, bend_sv], ignore_index=True)
    worst = bend.loc[bend["load factor reached"].idxmin()]
    checks.append(Check(
        "bend: rancf.static reaches the full load", "issue 22: rancf.static solves the bend (load "
        "factor 1 reached at every mesh and both torsion constants, 10 load steps)",
        value=float(worst["load factor reached"]), limit=1.0, comparison=">=", unit="load factor",
        source="rancf target: issue 22 (statics through the same Newton loop)",
        detail=f"Newton iterations per load step at 64 elements, J = 1/6: "
               f"{bend['Newton iterations per load step'].iloc[len(BEND_MESHES) - 1]}"
               + (f"; not reached at {worst['elements']} elements, J = {worst['J']:.4g}"
                  if worst["load factor reached"] < 1.0 else "")))

    # --- roll-ups --------------------------------------------------------------------------------
    roll_rows, roll_shapes = [], {}
    for n in ROLL_MESHES:
        progress(f"quarter roll-up, {n} elements")
        err, nodes, its = roll_up(n, 0.25, 2)
        roll_rows.append({"fraction": 0.25, "elements": n, "tip error / L": err, "Newton iterations": its})
    for fraction in (0.25, 0.5, 0.75, 1.0):
        progress(f"roll-up {fraction}, 16 elements")
        err, nodes, its = roll_up(16, fraction, 8)
        roll_shapes[fraction] = nodes
        if fraction == 1.0:
            roll_rows.append({"fraction": 1.0, "elements": 16, "tip error / L": err, "Newton iterations": its})
    for n in (8, 32):
        progress(f"full roll-up, {n} elements")
        err, _, its = roll_up(n, 1.0, 8)
        roll_rows.append({"fraction": 1.0, "elements": n, "tip error / L": err, "Newton iterations": its})
    rolls = pd.DataFrame(roll_rows).sort_values(["fraction", "elements"], ignore_index=True)
    quarter = rolls[rolls["fraction"] == 0.25]
    full = rolls[rolls["fraction"] == 1.0]
    checks.append(Check(
        "quarter roll-up: tip on the arc", "issue 22: the quarter roll-up's tip at (L sin a / a, "
        "L (1 - cos a) / a), a = pi / 2, converging at the element's order",
        value=float(quarter["tip error / L"].max()), limit=ROUND_OFF, unit="of L",
        source="independent reference: the arc of constant curvature; limit: round-off, since the "
               "SE(3) strain is exact for constant curvature (DESIGN.md section 7)",
        detail=", ".join(f"{n}: {e:.1e}" for n, e in zip(quarter["elements"], quarter["tip error / L"]))))
    checks.append(Check(
        "quarter roll-up: order", "the element's order on the roll-up", value=None, unit="",
        source="measured", no_verdict="true by construction: the error is round-off at every mesh (the "
        "element reproduces constant curvature exactly), so no order can be observed; DESIGN.md's "
        "second-order errors (5.8e-3 L at 8 elements) were the seed's linear element's"))
    checks.append(Check(
        "full roll-up closes", "issue 22: under 2 pi E I / L the beam rolls into a full circle, the tip "
        "back at the clamp", value=float(full["tip error / L"].max()), limit=ROUND_OFF, unit="of L",
        source="independent reference: the closed circle; limit: round-off (exact element)",
        detail=", ".join(f"{n}: {e:.1e}" for n, e in zip(full["elements"], full["tip error / L"]))))

    # --- frequencies -----------------------------------------------------------------------------
    freqs = frequency_study()
    for name in FAMILIES:
        f = freqs[freqs["mode"] == name]
        err = np.abs(f["relative error"].to_numpy())
        ratios = err[:-1] / err[1:]
        checks.append(Check(
            f"frequency, {name}: order", f"issue 22: the cantilever's first {name.split(' (')[0]} "
            "frequency converges at the element's order (lumped masses: second)",
            value=float(ratios.min()), limit=RATIO_BAND, comparison="within", unit="error ratio per halving",
            source="independent reference: the analytic frequency; band: second order",
            detail=f"ratios {', '.join(f'{r:.3f}' for r in ratios)}; errors "
                   f"{', '.join(f'{e:.2e}' for e in err)} at {FREQ_MESHES}"))
        checks.append(Check(
            f"frequency, {name}: error at {FREQ_MESHES[-1]} elements", "relative error of the first "
            f"{name.split(' (')[0]} frequency", value=float(err[-1]), limit=FREQ_LIMIT, unit="",
            source="independent reference: analytic frequency; limit: DESIGN.md section 7's lumped-mass "
                   "0.12 % at 20 elements scaled to 32 (0.05 %), x2",
            detail=f"omega {f['omega (rad/s)'].iloc[-1]:.6g} rad/s, analytic "
                   f"{f['analytic (rad/s)'].iloc[-1]:.6g} rad/s"))

    # --- heavy symmetric top -----------------------------------------------------------------
    top, top_wall = top_run()
    e, h = top["energy (J)"].to_numpy(), top["axial momentum (kg m^2/s)"].to_numpy()
    checks.append(Check(
        "heavy top: energy", "issue 22: a heavy symmetric top (rigid body on a spherical joint) "
        "conserves energy", value=float(np.ptp(e) / abs(e[0])), limit=TOP_LIMIT, unit="relative",
        source="independent reference: conservation of energy; limit: RK4's local error (w h)^5 over "
               "5000 steps",
        detail=f"RK4, h = {TOP['dt']:g} s, {TOP['t_end']:g} s, {top_wall:.2f} s wall; centre height "
               f"varies by {np.ptp(top['centre z (m)']):.3g} m (it nutates)"))
    checks.append(Check(
        "heavy top: axial angular momentum", "the axial angular momentum I3 (w . e3) of a symmetric "
        "top is conserved", value=float(np.ptp(h) / abs(h[0])), limit=TOP_LIMIT, unit="relative",
        source="independent reference: conservation (symmetric top); limit as the energy's"))

    # --- Chrono's ANCF cable pendulum (issue 23) ------------------------------------------------
    cable, chrono, runs = chrono_cable_study()
    chrono_scheme = runs["backward Euler 1e-4"]
    converged, coarse = runs["generalized-alpha 1e-4"], runs["generalized-alpha 2e-4"]
    time_error = float(np.abs(chrono_scheme - converged).max())
    same_scheme = float(np.abs(chrono_scheme - chrono).max())
    checks.append(Check(
        "cable pendulum vs Chrono's file, Chrono's scheme", "issue 23: a cable pendulum against "
        "Chrono's reference file for its cable element (L = 1 m, 4 elements, A = 2.5e-5 m^2, E = 1.6e6 Pa, "
        "rho = 320 kg/m^3, gravity 9.8, initial velocity -4 x along z) over t <= 0.5 s, to 1e-3 m: here "
        "with Chrono's scheme and step (backward Euler, 1e-4 s)",
        value=same_scheme, limit=CHRONO_LIMIT, unit="m",
        source="independent reference: Chrono's UT_ANCFBeam.txt (projectchrono/chrono dec9176, sampled in "
               "validation/data/chrono_ancf_cable_pendulum.csv); limit: issue 23",
        detail="node 3's y, node 5's x and z at t = 0.01 ... 0.5 s; Chrono's EULER_IMPLICIT_LINEARIZED is "
               "one Newton step of backward Euler (rancf converges its Newton; the gap between the two is "
               "not measured here); the "
               "elements differ (Chrono: Green strain, curvature |r' x r''| / |r'|^3; rancf and Exudyn: "
               "|r'| - 1, |r' x r''| / |r'|^2)"))
    exudyn_runs = exudyn_chrono_study()
    exudyn_checks, codes = exudyn_chrono_checks(chrono, converged, coarse, exudyn_runs)
    if exudyn_runs is not None:
        for dt, values in exudyn_runs.items():
            for k, name in enumerate(("y3", "x5", "z5")):
                cable[f"Exudyn generalized-alpha {dt:g}: {name} (m)"] = values[:, k]
    checks.append(Check(
        "cable pendulum vs Chrono's file, converged", "issue 23: the same, rancf's converged motion "
        "(generalized-alpha, rho_inf 0.9, 1e-4 s) against the file, to 1e-3 m",
        value=float(np.abs(converged - chrono).max()), limit=CHRONO_LIMIT, unit="m",
        source="independent reference: Chrono's UT_ANCFBeam.txt; limit: issue 23",
        known_deviation=f"the file carries Chrono's first-order time error (backward Euler at 1e-4 s): "
                        f"rancf's backward Euler at that step is {time_error:.2e} m from the converged "
                        f"motion and {same_scheme:.2e} m from the file (the row above); {codes}; "
                        "tests/test_cable_chrono.py shows that error first order in the step",
        detail=f"generalized-alpha 1e-4 s vs 2e-4 s: {np.abs(converged - coarse).max():.2e} m (second "
               "order: the finer run's error is about a third of it)"))
    checks.extend(exudyn_checks)

    # --- cable statics (issue 23) ----------------------------------------------------------------
    statics, H = cable_statics_study()
    hanging = cable_statics.CATENARY
    cat = statics[statics["quantity"].str.startswith("catenary")]
    wall_cat = float(cat["wall time (s)"].iloc[0])
    checks.append(Check(
        "cable statics: catenary sag and end tension", "issue 23: cable statics against the analytic "
        "catenary: a cable between two spherical joints to the ground (add_beam(element=\"ancf-cable\"), "
        "rancf.static), its mid-span sag and end tensions against the elastic catenary (Irvine), whose "
        "EA -> oo limit is the inextensible catenary",
        value=float(cat["relative difference"].abs().max()), limit=CATENARY_LIMIT, unit="relative",
        source="independent reference: Irvine's elastic catenary (validation/cable_statics.py); limit: "
               "the bending stiffness's share EI kappa / (H sag) = 5e-7 and the mesh's h^4 = 1e-6, x10",
        detail=f"{hanging['n']} elements, L = {hanging['length']:g} m between pins "
               f"{hanging['length']:g} m apart, rho A = {hanging['rho_A']:g} kg/m, EA = "
               f"{hanging['EA']:g} N, EI = {hanging['EI']:g} N m^2: sag "
               f"{cat['rancf'].iloc[0]:.8f} m (catenary {cat['reference'].iloc[0]:.8f}), tensions "
               f"{cat['rancf'].iloc[1]:.6f}, {cat['rancf'].iloc[2]:.6f} N (catenary "
               f"{cat['reference'].iloc[1]:.6f}, H = {H:.6f} N); {wall_cat:.2f} s wall"))
    slack = slack_cable_study()
    errors = slack["errors"]
    checks.append(Check(
        "cable statics: slack cable vs the inextensible catenary", "issue 23: cable statics against "
        "the analytic catenary sag (inextensible limit): a cable with slack, drawn as a circular arc "
        "between two spherical joints to the ground (add_beam(points=, tangents=, "
        "element=\"ancf-cable\"), rancf.static), its sag, end tensions and shape against the "
        "inextensible catenary of its length",
        value=max(errors.values()), limit=SLACK_LIMIT, unit="relative",
        source="independent reference: the inextensible catenary 2 a sinh(D / 2a) = L "
               "(validation/cable_statics.py); limit: the stretch's 1.6e-6, the bending's 1.6e-6 "
               "and the mesh's h^4 = 2e-6 of the sag, rounded up",
        detail=f"32 elements, L = {slack['length']:.8f} m between pins 1 m apart, rho A = 1 kg/m, "
               f"EA = 1.18e7 N, EI = 1e-6 N m^2, 10 load steps: sag {slack['sag']:.8f} m "
               f"(catenary {slack['sag reference']:.8f}), tensions {slack['tensions'][0]:.6f}, "
               f"{slack['tensions'][1]:.6f} N (catenary {slack['tension reference']:.6f}); "
               f"relative errors: sag {errors['sag']:.2e}, tension {errors['tension']:.2e}, "
               f"shape {errors['shape']:.2e}; {slack['wall']:.2f} s wall"))
    exu = statics.iloc[-1]
    checks.append(Check(
        "cable statics: Exudyn's 3D cable cantilever", "issue 23: Exudyn's 3D cable test (L = 2 m, 32 "
        "elements, rho A = 78 kg/m, EA = 1e6 N, EI = 833.33 N m^2, gravity 9.81): tip x displacement "
        "-0.5013058140 m, through the model API (add_beam(element=\"ancf-cable\"), a fixed joint, "
        "rancf.static)", value=abs(float(exu["rancf"]) - cable_statics.EXUDYN_TIP_DX),
        limit=EXUDYN_TIP_LIMIT, unit="m",
        source="independent reference: Exudyn's ObjectANCFCable test value; limit: Exudyn's own Newton "
               "tolerance (relative residual 1e-8)",
        detail=f"rancf {float(exu['rancf']):.10f} m, 4 load steps, {float(exu['wall time (s)']):.2f} s wall"))

    # --- figures ----------------------------------------------------------------------------
    fig_cable, ax = plt.subplots(figsize=(6.5, 4.5))
    t_cable = cable["t (s)"].to_numpy()
    ax.semilogy(t_cable, np.abs(chrono_scheme - chrono).max(axis=1), "o-", ms=3,
                label="rancf, backward Euler, 1e-4 s (Chrono's scheme)")
    ax.semilogy(t_cable, np.abs(converged - chrono).max(axis=1), "s--", ms=3,
                label="rancf, generalized-alpha, 1e-4 s (converged)")
    if exudyn_runs is not None:
        ax.semilogy(t_cable, np.abs(exudyn_runs[EXUDYN_CHRONO_STEPS[0]] - chrono).max(axis=1), "x:", ms=5,
                    label=f"Exudyn, generalized-alpha, {EXUDYN_CHRONO_STEPS[0]:g} s (converged)")
    ax.axhline(CHRONO_LIMIT, color="k", lw=0.8, label="issue 23's 1e-3 m")
    ax.set(xlabel="t (s)", ylabel="max |y3, x5, z5 - Chrono's file| (m)",
           title="ANCF cable pendulum against Chrono's reference file")
    ax.grid(alpha=0.3, which="both")
    ax.legend(fontsize=8)
    fig_c, ax = plt.subplots(figsize=(6.5, 4.5))
    n = np.array(BEND_MESHES, float)
    ax.loglog(n, bend.loc[bend["J"] == bend45.J_POLAR, "|tip - DESIGN extrapolated|"], "o-",
              label="rancf, J = 1/6")
    ax.loglog(list(bend45.PROTOTYPE), [np.linalg.norm(np.array(v) - ref) for v in bend45.PROTOTYPE.values()],
              "s--", label="prototype (DESIGN.md)")
    ax.loglog(list(bend45.EXUDYN_1_13), [np.linalg.norm(np.array(v) - ref) for v in bend45.EXUDYN_1_13.values()],
              "x:", ms=9, label="Exudyn 1.13 (DESIGN.md)")
    ax.loglog(n, 0.2 * (8 / n) ** 2, "k-", lw=0.8, label="slope 2")
    ax.set(xlabel="elements", ylabel="|tip - (-23.561, -13.604, 53.476)|",
           title="45-degree bend: tip convergence")
    ax.grid(alpha=0.3, which="both")
    ax.legend(fontsize=8)

    fig_r = plt.figure(figsize=(11, 4.5))
    ax1 = fig_r.add_subplot(1, 2, 1)
    for fraction, nodes in roll_shapes.items():
        ax1.plot(nodes[:, 0], nodes[:, 1], "o-", ms=3, label=f"M = {fraction:g} x 2 pi E I / L")
    phi = np.linspace(0, 2 * np.pi, 200)
    ax1.plot(np.sin(phi) / (2 * np.pi), (1 - np.cos(phi)) / (2 * np.pi), "k:", lw=0.8, label="circle of L")
    ax1.set(xlabel="x (m)", ylabel="y (m)", title="roll-up under an end moment, 16 elements", aspect="equal")
    ax1.legend(fontsize=7)
    ax1.grid(alpha=0.3)
    ax2 = fig_r.add_subplot(1, 2, 2, projection="3d")
    P0, _ = bend45.arc(64)
    ax2.plot(*P0.T, "k:", label="undeformed")
    for k in (8, 64):
        ax2.plot(*shapes[k].T, "o-" if k == 8 else "-", ms=3, label=f"deformed, {k} elements")
    ax2.set(xlabel="x", ylabel="y", zlabel="z", title="45-degree bend, tip force 600 along z")
    ax2.set_box_aspect((np.ptp(P0[:, 0]) + 1, np.ptp(P0[:, 1]) + 1, 55))
    ax2.legend(fontsize=7)
    fig_r.tight_layout()

    return Outcome(
        tables={"bend": bend, "roll_up": rolls, "frequencies": freqs, "top": top, "cable_pendulum": cable,
                "cable_statics": statics},
        figures={"bend_convergence": fig_c, "shapes": fig_r, "cable_pendulum": fig_cable},
        checks=checks,
        parameters={"bend": "R = 100, 45 degrees, A = 1, I_y = I_z = 1/12, E = 1e7, G = E/2, shear 5/6, "
                            "F = 600 along z, 10 load steps, Newton tolerance 1e-10 x model size",
                    "bend meshes": BEND_MESHES, "cantilevers": f"E = {E_STEEL:g}, nu = {NU}, rho = {RHO}, "
                    f"{WIDTH} (y) x {HEIGHT} (z) m, J = {J_RECT:.3g} m^4",
                    "roll-up length (m)": 1.0, "frequency cantilever length (m)": FREQ_LENGTH, "top": TOP,
                    "cable pendulum": "Chrono's unit test (utest_FEA_ANCFCable): L = 1 m, 4 elements, "
                                      "A = 2.5e-5 m^2, E = 1.6e6 Pa, I = pi/4 (d/2)^4, rho = 320 kg/m^3, "
                                      "g = (0, -9.8, 0), v = (0, 0, -4 x) m/s, 0.5 s",
                    "hanging cable": cable_statics.CATENARY,
                    "Exudyn's cable cantilever": cable_statics.EXUDYN_CANTILEVER},
        assumptions=[
            "The bend's arc starts at the origin along +x and curves towards +y, the force along +z: "
            "the placement whose tip displacement has the signs of DESIGN.md section 7's values.",
            "The bend is solved by rancf.static: Newton with the full tangent (GMRES on the residual's "
            "derivative), the load stiffness of the fixed-direction force included.",
            "Published values: Simo and Vu-Quoc (1986) take J = 0.141 (Saint-Venant's unit square); "
            "DESIGN.md's reference takes J = 1/6 (I_y + I_z). Bathe and Bolourchi's value is the one "
            "quoted in the later literature, tip (47.2, 15.9, 53.4).",
            "Frequencies: linearised at rest by central differences of the recursion's accelerations; the "
            "four coordinate families of a straight cantilever (in-plane bending, out-of-plane bending, "
            "torsion, axial) decouple there (checked: coupling below 1e-6), each family's lowest "
            "eigenvalue is its first mode. Analytic bending frequencies are Euler-Bernoulli's; shear and "
            "rotary inertia shift them by about 1.5e-5 at L = 4 m.",
            "The top starts tilted 0.5 rad about x with body-frame angular velocity (0.3, -0.2, 30) rad/s.",
            "The cable pendulum is Chrono's unit test as its source states it (the data file's header): "
            "gravity ChLoaderGravity's default (0, -9.8, 0), the slopes' initial rates zero (not a rigid "
            "rotation), no damping: rancf.simulate starts from that state (rancf.State: the cable nodes' "
            "[r, r'] and their rates) on the spatial DAE (formulation=\"dae\").",
            "Cable statics: the issue asks for the inextensible catenary (span below the length). The "
            "public API builds a cable unstressed in its reference with its joint points coinciding, so "
            "a slack cable is a curved cable lying in a plane, whose stiffness is singular out of the "
            "plane where Newton starts (docs/theory.rst, Curved cables): rancf.static solves its first "
            "load step with the matrix shifted by mu M (mu falling with the residual) and returns the "
            "equilibrium if it is stable out of the plane. The slack row draws the cable as a circular "
            "arc (its length that of its Hermite elements, 3e-8 m below 1.2 m, used for the catenary); "
            "the elastic row keeps the pins a cable's length apart, where the sag comes from the "
            "stretch (Irvine's elastic catenary, whose EA -> oo limit is the inextensible one).",
        ])


CASE = Case(
    name="spatial",
    title="Spatial beams: the 45-degree bend, roll-ups, frequencies, a heavy top, cable pendulum and statics",
    claim="The spatial relative-coordinate beam converges at second order to DESIGN.md's bend reference "
          "(a prototype and Exudyn 1.13 agree on it to 1e-3), closes the roll-up exactly, has the "
          "cantilever's frequencies at second order, and conserves a heavy top's energy and axial "
          "angular momentum (issue 22); the spatial ANCF cable swings as Chrono's cable pendulum, "
          "hangs as the elastic catenary (and, drawn with slack, as the inextensible one) and bends as "
          "Exudyn's cable cantilever (issue 23).",
    run=run,
)
