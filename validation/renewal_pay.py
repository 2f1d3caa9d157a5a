"""When does the implicit loop's renewal of Newton's matrix pay (issue 22)?

The loop of rancf/integrators/_implicit.pyx keeps Newton's matrix over iterations and steps
(``jacobian="reuse"``) and renews it by a rule; ``jacobian="every-iteration"`` makes one at
every iteration (full Newton). This script compares the two on

- ``tilted``: the ``scaling`` case's spatial chain (validation/cases/scaling.py
  ``spatial_chain``) under gravity out of its plane, ``(0, 0.1, -9.81)``
  (tests/test_spatial_out_of_plane.py);
- ``chain``: the same chain in its plane;
- ``planar``: the scaling case's planar chain of n bodies of 5 elements (recursive);
- ``arm``: three flexible steel links on a universal, a revolute and a universal joint with a
  2 kg body, falling out of any one plane;
- ``joints``: tests/test_spatial_model.py's tree of every spatial joint kind;
- ``fourbar``: tests/models.py's planar four-bar, formulation "dae" (an index-3 DAE);

with generalized-alpha-S or Newmark at 1 ms; and, out of sample (models the rule's choice did
not see; ``python -m validation.renewal_pay counts oos``):

- ``spherical``: validation/spherical_four_bar.py's flexible spherical four-bar (spatial DAE);
- ``slider``: tests/test_newton_stop_refinement.py's rigid slider-crank (planar DAE);
- ``prismatic``: the ``prismatic-chain`` case's planar tree of beams and rigid bodies on two
  prismatic joints (recursive, 0.2 ms);
- ``cable``: a spatial ANCF cable of n elements released level on a spherical joint
  (tests/test_spatial_cable_model.py, DAE);
- ``ball``: tests/test_spatial_ball_spring.py's beam on a stiff ball spring, ``rooted(30)``;
- ``rrr``: the ``rrr`` case's 3-RRR mechanism of n elements a passive link (planar DAE, its
  start state and tolerance);
- ``peers``: the ``peers`` case's 5 x 5 pendulum (Reissner) at E = 210 GPa;

with the model's default implicit method (or its case's) and generalized-alpha, and the
tilted chain with generalized-alpha and HHT. Counts (deterministic): Newton iterations and
factorizations a step from the runs' stats, steps ``a..b`` as the difference of the runs of b
and a - 1 steps. Cost: instructions a step in the stepping loop alone (``Stepper.run``) under
callgrind, which is repeatable on a loaded machine::

    python -m validation.renewal_pay counts [CASE ...]     # the table of counts
    valgrind --tool=callgrind --collect-atstart=no \\
        --toggle-collect='*Stepper_12run' --callgrind-out-file=/tmp/cg.%p \\
        python -m validation.renewal_pay run CASE SIZE METHOD JACOBIAN STEPS

(``run``: one run of STEPS steps; callgrind's total is that run's loop.)
"""
import sys

import numpy as np

import rancf
from validation.cases.scaling import spatial_chain
from validation.pendulum import pendulum

DT = 1e-3
TILT = (0.0, 0.1, -9.81)
METHODS = {"gas": "generalized-alpha-s", "newmark": "newmark", "ga": "generalized-alpha",
           "hht": "hht", "be": "backward-euler"}


def tilted(n):
    """The scaling case's spatial chain of n elements under gravity out of its plane."""
    m = spatial_chain(n)
    m.gravity = TILT
    return m, "recursive"


def chain(n):
    """The scaling case's spatial chain of n elements, in its plane."""
    return spatial_chain(n), "recursive"


def planar(n):
    """The scaling case's planar chain of n bodies of 5 elements (E = 21 MPa)."""
    return pendulum(21e6, n_bodies=n), "recursive"


def arm(n):
    """Three steel links (1 m, n elements each, 2 cm square section) from the ground on a
    universal joint (axes z, y), a revolute elbow (axis (0, 0.6, 0.8)) and a universal wrist
    carrying a 2 kg body, stretched along x, y and x and falling under gravity."""
    w, E = 0.02, 2.1e11
    beam = dict(E=E, rho=7800.0, A=w * w, I=(w**4 / 12, w**4 / 12), J=0.141 * w**4, G=E / 2.6)
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -9.81))
    b1 = m.add_beam(1.0, n, direction=(1.0, 0.0, 0.0), up=(0.0, 0.0, 1.0), **beam)
    m.add_joint("universal", m.ground.point(0, 0, 0), b1.start, axes=((0, 0, 1), (0, 1, 0)))
    b2 = m.add_beam(1.0, n, start=(1.0, 0.0, 0.0), direction=(0.0, 1.0, 0.0),
                    up=(0.0, 0.0, 1.0), **beam)
    m.add_joint("revolute", b1.end, b2.start, axis=(0.0, 0.6, 0.8))
    b3 = m.add_beam(1.0, n, start=(1.0, 1.0, 0.0), direction=(1.0, 0.0, 0.0),
                    up=(0.0, 0.0, 1.0), **beam)
    m.add_joint("universal", b2.end, b3.start, axes=((0, 1, 0), (0, 0, 1)))
    tip = m.add_rigid_body(2.0, np.diag([2e-3, 2e-3, 2e-3]), position=(2.1, 1.0, 0.0))
    m.add_joint("fixed", b3.end, tip.point(-0.1, 0.0, 0.0))
    return m, "recursive"


def joints(_n):
    """tests/test_spatial_model.py's tree of every spatial joint kind."""
    sys.path.insert(0, "tests")
    from test_spatial_model import every_joint_model
    return every_joint_model()[0], "recursive"


def fourbar(n):
    """tests/models.py's four-bar of n elements a bar, as an index-3 DAE."""
    sys.path.insert(0, "tests")
    from models import four_bar
    return four_bar(n)[0], "dae"


def spherical(_n):
    """validation/spherical_four_bar.py's four-bar of steel beams, driven (spatial DAE)."""
    from validation.spherical_four_bar import SphericalFourBar
    return SphericalFourBar().flexible()[0], "dae"


def slider(_n):
    """tests/test_newton_stop_refinement.py's rigid slider-crank, released (planar DAE)."""
    sys.path.insert(0, "tests")
    from test_newton_stop_refinement import slider_crank
    return slider_crank()[0], "dae"


def prismatic(_n):
    """The ``prismatic-chain`` case's tree, at its implicit runs' step of 0.2 ms."""
    from validation.cases.prismatic_chain import IMPLICIT_STEPS, chain
    return chain()[0], "recursive", {"dt": IMPLICIT_STEPS[0]}


def cable(n):
    """A spatial ANCF cable of 1 m in n elements (tests/test_spatial_cable_model.py's CABLE)
    released level on a spherical joint to the ground (DAE)."""
    sys.path.insert(0, "tests")
    from test_spatial_cable_model import CABLE
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -9.81))
    c = m.add_beam(1.0, n, **CABLE)
    m.add_joint("spherical", m.ground.point(0, 0, 0), c.start)
    return m, "dae"


def ball(k):
    """tests/test_spatial_ball_spring.py's beam on a ball spring of k N m/rad at its root."""
    sys.path.insert(0, "tests")
    from test_spatial_ball_spring import rooted
    return rooted(float(k))[0], "recursive"


def rrr(n):
    """The ``rrr`` case's mechanism of n elements a passive link, from its start state, at the
    case's tolerance (planar DAE)."""
    from validation.cases.rrr import TOL
    from validation.mechanisms import three_rrr
    mechanism = three_rrr(n)
    return mechanism.model, "dae", {"state": mechanism.state, "tol": TOL}


def peers(_n):
    """The ``peers`` case's 5 x 5 pendulum (Reissner) at E = 210 GPa."""
    return pendulum(210e9, elastic_model="reissner"), "recursive"


CASES = {"tilted": tilted, "chain": chain, "planar": planar, "arm": arm, "joints": joints,
         "fourbar": fourbar, "spherical": spherical, "slider": slider, "prismatic": prismatic,
         "cable": cable, "ball": ball, "rrr": rrr, "peers": peers}


def run(case, size, method, jacobian, steps):
    """One run of ``steps`` steps at DT (or the case's step and options)."""
    model, formulation, *options = CASES[case](size)
    options = dict(options[0]) if options else {}
    dt = options.pop("dt", DT)
    return rancf.simulate(model, steps * dt, dt, method=METHODS[method],
                          formulation=formulation, output_every=steps, jacobian=jacobian,
                          **options)


def per_step(case, size, method, jacobian, first, last):
    """Newton iterations and factorizations a step over steps first..last (None: a failed
    run, with its message)."""
    stats = []
    for steps in (first - 1, last):
        if steps == 0:
            stats.append({"newton_iterations": 0, "nlu": 0})
            continue
        res = run(case, size, method, jacobian, steps)
        if res.status != "ok":
            return None, res.message
        stats.append(res.stats)
    k = last - first + 1
    return tuple((stats[1][key] - stats[0][key]) / k for key in ("newton_iterations", "nlu")), ""


#: (case, sizes, methods, window): the spatial chains over steps 11-20 (the tilted chain's
#: twist has grown by then), the rest over steps 101-200.
PLAN = [("tilted", (100, 1000, 10_000), ("gas", "newmark"), (11, 20)),
        ("chain", (10, 100, 1000, 10_000), ("gas", "newmark"), (11, 20)),
        ("planar", (5, 40, 400), ("gas", "newmark"), (101, 200)),
        ("arm", (4,), ("gas", "newmark"), (101, 200)),
        ("joints", (0,), ("gas", "newmark"), (101, 200)),
        ("fourbar", (3,), ("gas", "newmark"), (101, 200))]

#: The out-of-sample plan (``counts oos``): steps 1-200 (the rule's first tries included), the
#: tilted chain 1-20 and the rrr mechanism 1-100.
OOS = [("spherical", (0,), ("gas", "ga"), (1, 200)),
       ("slider", (0,), ("ga", "newmark"), (1, 200)),
       ("prismatic", (0,), ("newmark", "ga"), (1, 200)),
       ("cable", (4,), ("gas", "ga"), (1, 200)),
       ("ball", (30,), ("gas", "ga"), (1, 200)),
       ("tilted", (1000,), ("ga", "hht"), (1, 20)),
       ("rrr", (100,), ("be", "ga"), (1, 100)),
       ("peers", (0,), ("ga", "newmark"), (1, 200))]


def counts(plan):
    """Rows (case, size, method, steps; iterations and factorizations a step, kept matrix and
    full Newton)."""
    print("case       size method   steps      kept it/lu   full it/lu")
    for case, sizes, methods, (first, last) in plan:
        for size in sizes:
            for method in methods:
                row = [f"{case:9s} {size:6d} {method:7s} {first:3d}-{last:<4d}"]
                for jacobian in ("reuse", "every-iteration"):
                    numbers, message = per_step(case, size, method, jacobian, first, last)
                    row.append(f"{numbers[0]:5.2f} {numbers[1]:5.2f}" if numbers else
                               f"failed at {message.split('at t = ')[-1][:8]:>5s}")
                print("  ".join(row), flush=True)


if __name__ == "__main__":
    if sys.argv[1:2] == ["run"]:
        case, size, method, jacobian, steps = sys.argv[2], int(sys.argv[3]), *sys.argv[4:6], \
            int(sys.argv[6])
        res = run(case, size, method, jacobian, steps)
        print(case, size, method, jacobian, steps, res.status, res.stats["newton_iterations"],
              res.stats["nlu"])
    else:
        only = set(sys.argv[2:])
        counts(OOS if only == {"oos"} else [p for p in PLAN + OOS if not only or p[0] in only])
