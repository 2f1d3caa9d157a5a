"""Out-of-sample check of ``formulation="auto"`` running every planar tree on the recursion
under Newmark, HHT and generalized-alpha (rancf.simulate ``RECURSIVE_IMPLICIT``).

validation/auto_formulation.py decided that change on nine models of its own choosing. This
script applies its measurement and its rule unchanged (:func:`validation.auto_formulation.study`
and ``verdict``: accuracy e_R(h) <= 1.25 e_D(h) against a converged DOPRI5 reference or both
below 1e-9, order p_R >= min(p_D, 2) - 0.2, median CPU ratio R / D <= 0.9 over interleaved
pairs; the recursion's status at h and h/2 ``ok``) to planar trees that study did not use.

The pass line, fixed before the runs: the change stands if the recursion wins on all the
(model, method) pairs below but at most one, and loses none on accuracy (the error or the
order clause) or on status. A single loss on CPU alone is allowed; any loss on accuracy or
status, or two losses of any kind, fails the check.

Models (:func:`models`; every one a planar tree whose recursion's velocity map is not
constant, so ``auto`` sent it to the DAE before the change), each at a step its natural scale
asks for and over a span where it moves:

* ``hub-motor``: examples/plot_07_hub_motor_torque.py (a rigid hub on a PD-torque revolute
  joint, a 1.2 m aluminium arm of 6 elements clamped to its rim, no gravity); h = 1 ms (the
  example's), 1.5 s (the hub's 90 degree turn, its overshoot and the arm's first swings);
* ``spring-damper``: examples/plot_16_spring_damper.py (a 1 m arm of 6 elements on a pin with a
  torsion spring-damper, a 0.5 kg block fixed at its end tied to the ground by a linear
  spring-damper); h = 1 ms (the example's), 1 s (the example's drift span: the swing down);
* ``gallery-tree``: examples/plot_08_branched_tree.py (soft tubes, a sprung root, interior,
  fixed and fruit joints); h = 1 ms (the branches swing at about 1 Hz), 1 s;
* ``spin-up-coarse``: examples/plot_10_parameter_study.py's beam on its driven hub (5 elements
  of a 10 m beam, w = 6 rad/s, E = E_REF); h = 10 ms (the example's), 10 s (the example's span:
  the spin-up's first two thirds);
* ``rrr-leg``: one leg of validation/cases/rrr.py's robot as a tree: the rigid driving link on
  its driven revolute joint (the rigid kinematics' drive of leg 0) and its passive Berzeri beam
  (4 elements) on a revolute joint at the elbow, the platform end free; h = 1 ms (the case's),
  0.25 s (the case's adaptive window, a quarter circle of the drive: the reference's DOPRI5
  steps are 0.6 us, the stability limit of the beam's stiffest mode);
* ``crane``: a 40 kg trolley on a driven prismatic rail (a rest-to-rest move of 2 m in 3 s), a
  3 m steel rope (d = 1 cm, 6 elements) pinned to it, a 20 kg rigid hook pinned to the rope's
  end, under gravity; h = 1 ms (the rope's axial mode with the hook, 12 ms, over ten steps),
  4 s (the move and a swing after it);
* ``flexible-arm``: two 0.6 m aluminium beams (2 cm x 5 mm, 4 elements each, bending about the
  weak axis) on driven revolute joints (shoulder from the ground, elbow between them,
  rest-to-rest turns of 60 and 45 degrees in 1 s), a 1 kg rigid payload fixed at the end, under
  gravity; h = 1 ms (the first bending mode about 2 Hz, the second about 15 Hz), 1.5 s;
* ``chain-10``: ten rigid bars (0.15 m, 0.3 kg) pinned end to end, released straight along +x
  under gravity; h = 1 ms (the fall takes about 0.5 s), 1 s;
* ``beam-bodies``: a 1 m aluminium beam (2 cm x 5 mm, 6 elements) pinned at the ground with
  0.2 kg rigid bodies fixed at its nodes 2 and 4 and at its end, released along +x under
  gravity; h = 1 ms, 1 s.

Methods: newmark, hht, generalized-alpha (the three the change moved), default options.

Outside the rule and the pass line, :func:`supplement`: ``gallery-tree`` again at h = 0.5 ms
over 0.4 s. Added after its first run: over 1 s neither formulation's error falls towards the
reference between h and h/2 (0.5 to 0.9 of the tree's size, orders below 0): the soft tree's
swing amplifies a phase error tenfold every 0.2 s (both formulations, every step down to 0.125
ms), so its rule row says nothing on accuracy. Over 0.4 s at 0.5 ms both errors fall between h and
h/2 (orders 2.3 to 3.2, 3 % of the size at h) and agree within 6 %: the recursion wins under
all three methods there too.

Outside the rule, :func:`large`: the crane with a rope of ``LARGE_ELEMENTS`` elements, both
formulations under generalized-alpha at h = 1 ms over 2 s, CPU of interleaved pairs and the
largest vertex distance between the two (the O(n) recursion against the DAE's sparse solve).

The result (validation/data/auto_formulation_oos.csv, _supplement.csv, _large.csv): the
recursion wins 26 of the 27 pairs and loses one on CPU alone (rrr-leg under HHT, 0.91 against
the 0.9 bar, 0.89 in instructions counted by callgrind; 0.88 and 0.87 under the other two: a
small model whose Python drive takes a share of both runs), none on accuracy or status: the change stands. The DAE failed where the
recursion did not on gallery-tree (Newmark at h, generalized-alpha at h) and chain-10 (Newmark
at h). Where the errors are not at second order (hub-motor, rrr-leg and crane near order 1 or
0: stiff modes neither formulation resolves at h; gallery-tree: see above) the two formulations'
errors agree to three digits, so the accuracy clauses hold without testing an order. On the
crane the recursion's lead does not grow with size: CPU ratio 0.82, 0.83, 0.93 at 16, 64 and 256
rope elements (both cost O(n) per step: the residual, evaluated about 3.7 times a step, not the
Newton matrix's rare factorizations, is the cost; the DAE's sparse LU of a chain is O(n) too).

Run::

    python -m validation.auto_formulation_oos [--models NAME ...] [--repeats N] [--out FILE.csv]
        (FILE.csv: the table; FILE_large.csv: :func:`large`'s)
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
from validation import auto_formulation, mechanisms

METHODS = ("newmark", "hht", "generalized-alpha")
ACCURACY = ("error", "order")  # the rule's clauses on accuracy (``verdict``'s reasons)
ALUMINIUM = (7e10, 2700.0)  # Pa, kg/m^3
STRIP = (0.02 * 0.005, 0.02 * 0.005**3 / 12)  # m^2, m^4: 2 cm x 5 mm, bent about the weak axis
LARGE_ELEMENTS, LARGE_REPEATS = 64, 5


def _example(name):
    """An examples/ script imported by path (only the ones whose work sits under
    ``if __name__ == "__main__"``)."""
    path = pathlib.Path(__file__).resolve().parent.parent / "examples" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"rancf_example_{name}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def rest_to_rest(total, duration):
    """A cycloidal move of ``total`` in ``duration`` s then rest: ``t -> (q, q', q'')``, q(0) = 0,
    zero rate and acceleration at both ends."""
    def drive(t):
        if t >= duration:
            return total, 0.0, 0.0
        s = 2.0 * np.pi / duration
        return (total * (t / duration - np.sin(s * t) / (2.0 * np.pi)),
                total / duration * (1.0 - np.cos(s * t)), total / duration * s * np.sin(s * t))
    return drive


def hub_motor() -> rancf.Model:
    """examples/plot_07_hub_motor_torque.py's model (its script runs at import)."""
    radius, target, kp, kd = 0.1, np.pi / 2, 40.0, 6.0
    m = rancf.Model(gravity=(0.0, 0.0), elastic_model="reissner")
    hub = m.add_rigid_body(mass=2.0, inertia=0.5 * 2.0 * radius**2)
    arm = m.add_beam(length=1.2, n_elements=6, E=7e10, rho=2700.0, A=2e-4, I=2e-10,
                     start=(radius, 0.0))
    m.add_joint("revolute", m.ground.point(0.0, 0.0), hub.centre,
                effort=lambda t, q, qd: kp * (target - q) - kd * qd)
    m.add_joint("fixed", hub.point(radius, 0.0), arm.start)
    return m


def spring_damper() -> rancf.Model:
    """examples/plot_16_spring_damper.py's model (its script runs at import)."""
    m = rancf.Model(gravity=(0.0, -9.81), elastic_model="reissner")
    arm = m.add_beam(1.0, 6, E=7e10, rho=2700.0, A=2e-4, I=5e-10)
    block = m.add_rigid_body(0.5, 2e-3, position=(1.05, 0.0))
    pin = m.add_joint("revolute", m.ground.point(0.0, 0.0), arm.start)
    m.add_joint("fixed", arm.end, block.point(-0.05, 0.0))
    m.add_rotational_spring_damper(pin, k=8.0, c=0.2)
    m.add_spring_damper(m.ground.point(1.05, 0.8), block.point(0.0, 0.0), k=40.0, c=0.5)
    return m


def gallery_tree() -> rancf.Model:
    """examples/plot_08_branched_tree.py's model (its script runs at import)."""
    m = rancf.Model(gravity=(0.0, -9.81), elastic_model="reissner")
    props = dict(E=5e6, rho=1000.0, A=4e-4, I=5e-8)
    trunk = m.add_beam(length=1.0, n_elements=4, angle=np.pi / 2, **props)
    left = m.add_beam(length=0.6, n_elements=3, start=(0.0, 0.5), angle=np.radians(150), **props)
    right = m.add_beam(length=0.7, n_elements=3, start=(0.0, 1.0), angle=np.radians(30), **props)
    twig = m.add_beam(length=0.3, n_elements=1, start=left.reference_nodes()[2, :2],
                      angle=np.radians(100), **props)
    fruit = m.add_rigid_body(mass=0.2, inertia=1e-4, position=right.reference_nodes()[-1, :2])
    m.add_joint("revolute", m.ground.point(0.0, 0.0), trunk.start,
                effort=lambda t, q, qd: -40.0 * q - 0.2 * qd)
    m.add_joint("revolute", trunk.node(2), left.start)
    m.add_joint("revolute", trunk.end, right.start)
    m.add_joint("fixed", left.node(2), twig.start)
    m.add_joint("fixed", right.end, fruit.centre)
    return m


def spin_up_coarse(w=6.0) -> rancf.Model:
    """examples/plot_10_parameter_study.py's beam on its driven hub at E = E_REF."""
    ex = _example("plot_10_parameter_study")
    m = rancf.Model(gravity=(0.0, 0.0), elastic_model="reissner")
    beam = m.add_beam(length=ex.LENGTH, n_elements=5, E=ex.E_REF, rho=ex.RHO, A=ex.AREA,
                      I=ex.INERTIA)
    m.add_joint("revolute", m.ground.point(0.0, 0.0), beam.start,
                drive=lambda t: ex.hub_angle(t, w))
    return m


def rrr_leg(n_elements=4) -> rancf.Model:
    """Leg 0 of validation/mechanisms.py's 3-RRR (the ``rrr`` case's parameters): driving link
    on its driven revolute joint, passive beam pinned at the elbow, platform end free."""
    geo = mechanisms.ThreeRRR()
    rho1, T1, W1 = 2700.0, 0.01, 0.03  # three_rrr's driving link
    E2, rho2, T2, W2 = 7e8, 2700.0, 0.005, 0.01  # and passive link
    kin = geo.kinematics(0.0)
    e, g = kin["E"][0] - geo.base[0], kin["P"][0] - kin["E"][0]
    m_link = rho1 * T1 * W1 * geo.L1
    m = rancf.Model(gravity=(0.0, 0.0), elastic_model="berzeri")
    link = m.add_rigid_body(m_link, m_link * geo.L1**2 / 12.0, position=geo.base[0] + e / 2.0,
                            angle=np.arctan2(e[1], e[0]))
    beam = m.add_beam(geo.L2, n_elements, E=E2, rho=rho2, A=T2 * W2, I=T2 * W2**3 / 12.0,
                      start=kin["E"][0], angle=np.arctan2(g[1], g[0]))
    m.add_joint("revolute", m.ground.point(*geo.base[0]), link.point(-geo.L1 / 2.0, 0.0),
                drive=geo.drive(0))
    m.add_joint("revolute", link.point(geo.L1 / 2.0, 0.0), beam.start)
    return m


def crane(rope_elements=6) -> rancf.Model:
    """A driven trolley, a steel rope of ``rope_elements`` beams hanging from it, a rigid hook:
    see the module docstring."""
    d, length = 0.01, 3.0  # m
    m = rancf.Model(gravity=(0.0, -9.81))
    trolley = m.add_rigid_body(40.0, 1.0, position=(0.0, 0.0))
    m.add_joint("prismatic", m.ground.point(0.0, 0.0), trolley.centre,
                drive=rest_to_rest(2.0, 3.0))
    rope = m.add_beam(length, rope_elements, 2.1e11, 7800.0, np.pi * d**2 / 4,
                      np.pi * d**4 / 64, angle=-np.pi / 2)
    m.add_joint("revolute", trolley.centre, rope.start)
    hook = m.add_rigid_body(20.0, 0.1, position=(0.0, -length - 0.1))
    m.add_joint("revolute", rope.end, hook.point(0.0, 0.1))
    return m


def flexible_arm(elements=4) -> rancf.Model:
    """Two aluminium strips on driven revolute joints and a rigid payload: see the module
    docstring."""
    m = rancf.Model(gravity=(0.0, -9.81))
    upper = m.add_beam(0.6, elements, *ALUMINIUM, *STRIP)
    fore = m.add_beam(0.6, elements, *ALUMINIUM, *STRIP, start=(0.6, 0.0))
    m.add_joint("revolute", m.ground.point(0.0, 0.0), upper.start,
                drive=rest_to_rest(np.pi / 3, 1.0))
    m.add_joint("revolute", upper.end, fore.start, drive=rest_to_rest(np.pi / 4, 1.0))
    payload = m.add_rigid_body(1.0, 1e-3, position=(1.25, 0.0))
    m.add_joint("fixed", fore.end, payload.point(-0.05, 0.0))
    return m


def chain(n=10, length=0.15, mass=0.3) -> rancf.Model:
    """``n`` rigid bars pinned end to end, released straight along +x."""
    m = rancf.Model(gravity=(0.0, -9.81))
    parent = m.ground.point(0.0, 0.0)
    for i in range(n):
        bar = m.add_rigid_body(mass, mass * length**2 / 12, position=((i + 0.5) * length, 0.0))
        m.add_joint("revolute", parent, bar.point(-length / 2, 0.0))
        parent = bar.point(length / 2, 0.0)
    return m


def beam_bodies() -> rancf.Model:
    """A pinned aluminium strip with three rigid bodies fixed along it."""
    m = rancf.Model(gravity=(0.0, -9.81))
    beam = m.add_beam(1.0, 6, *ALUMINIUM, *STRIP)
    m.add_joint("revolute", m.ground.point(0.0, 0.0), beam.start)
    for k in (2, 4, 6):
        body = m.add_rigid_body(0.2, 2e-4, position=(k / 6, 0.0))
        m.add_joint("fixed", beam.node(k), body.centre)
    return m


def models() -> dict:
    """name: (model, step h (s), span (s), output interval (s)), as
    :func:`validation.auto_formulation.models`."""
    return {
        "hub-motor": (hub_motor(), 1e-3, 1.5, 1e-2),
        "spring-damper": (spring_damper(), 1e-3, 1.0, 1e-2),
        "gallery-tree": (gallery_tree(), 1e-3, 1.0, 1e-2),
        "spin-up-coarse": (spin_up_coarse(), 1e-2, 10.0, 1e-1),
        "rrr-leg": (rrr_leg(), 1e-3, 0.25, 1e-2),
        "crane": (crane(), 1e-3, 4.0, 2e-2),
        "flexible-arm": (flexible_arm(), 1e-3, 1.5, 1e-2),
        "chain-10": (chain(), 1e-3, 1.0, 1e-2),
        "beam-bodies": (beam_bodies(), 1e-3, 1.0, 1e-2),
    }


def supplement(repeats=auto_formulation.REPEATS) -> pd.DataFrame:
    """The rule's table of ``gallery-tree`` at h = 0.5 ms over 0.4 s (module docstring)."""
    return auto_formulation.study(None, repeats, {"gallery-tree 0.4 s": (gallery_tree(), 5e-4,
                                                                         0.4, 1e-2)}, METHODS)


def check(table) -> tuple[bool, str]:
    """The module docstring's pass line on ``study``'s table: (the change stands, the reason)."""
    losses = table[~table["R wins"]]
    on_accuracy = losses[losses["why"].str.contains("|".join(ACCURACY + ("recursion",)))]
    where = "; ".join(f"{r.model}/{r.method}: {r.why}" for r in losses.itertuples())
    if len(on_accuracy):
        return False, f"the recursion loses on accuracy or status: {where}"
    if len(losses) > 1:
        return False, f"the recursion loses {len(losses)} pairs: {where}"
    return True, f"the recursion wins {len(table) - len(losses)} of {len(table)}" + \
        (f" (loses {where})" if where else "")


def large(repeats=LARGE_REPEATS, elements=LARGE_ELEMENTS, t_end=2.0, h=1e-3) -> pd.DataFrame:
    """CPU seconds of the crane with ``elements`` rope elements under generalized-alpha on both
    formulations, ``repeats`` interleaved pairs, their median ratio, and the largest vertex
    distance (m) between the two runs."""
    model = crane(elements)
    cpu, res = {"recursive": [], "dae": []}, {}
    for _ in range(repeats):
        for formulation in cpu:
            start = time.process_time()
            res[formulation] = rancf.simulate(model, t_end, h, method="generalized-alpha",
                                              formulation=formulation, output_every=20)
            cpu[formulation].append(time.process_time() - start)
    R, D = res["recursive"], res["dae"]
    return pd.DataFrame([{
        "model": f"crane, {elements} rope elements", "coordinates": model.build().n_x,
        "h (s)": h, "T (s)": t_end, "pairs": repeats, "R status": R.status, "D status": D.status,
        "R cpu (s)": np.median(cpu["recursive"]), "D cpu (s)": np.median(cpu["dae"]),
        "R/D cpu": float(np.median([r / d for r, d in zip(cpu["recursive"], cpu["dae"])])),
        "R-D distance (m)": float(np.abs(R.nodes[:, :, :2] - D.nodes[:, :, :2]).max()),
    }])


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", nargs="*")
    parser.add_argument("--repeats", type=int, default=auto_formulation.REPEATS)
    parser.add_argument("--no-large", action="store_true")
    parser.add_argument("--supplement", action="store_true",
                        help="only run supplement() (to FILE_supplement.csv)")
    parser.add_argument("--out", default=None)
    args = parser.parse_args(argv)
    if args.supplement:
        extra = supplement(args.repeats)
        print(extra.to_string(index=False, float_format=lambda v: f"{v:.3g}"))
        if args.out:
            extra.to_csv(args.out.replace(".csv", "_supplement.csv"), index=False,
                         float_format="%.4g")
        return
    table = auto_formulation.study(args.models, args.repeats, models(), METHODS)
    with pd.option_context("display.width", 250, "display.max_columns", 30):
        print(table.drop(columns=["T (s)"]).to_string(index=False,
                                                      float_format=lambda v: f"{v:.3g}"))
    if args.out:
        table.to_csv(args.out, index=False, float_format="%.4g")
    stands, why = check(table)
    print("\nthe change", "stands:" if stands else "fails the check:", why)
    if not args.no_large:
        big = large()
        print(big.to_string(index=False, float_format=lambda v: f"{v:.3g}"))
        if args.out:
            big.to_csv(args.out.replace(".csv", "_large.csv"), index=False, float_format="%.4g")


if __name__ == "__main__":
    sys.exit(main())
