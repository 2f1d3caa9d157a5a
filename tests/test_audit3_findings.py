"""Defects found by the third audit of the public API (the planar core: items, joints, drives,
efforts, springs and loops; ``rancf.simulate``'s methods, options and failure paths; Result;
the asv suite; the commands of README.md and docs/), each a failing test marked
``xfail(strict=True)`` with the defect named: the fix turns it into a pass and the strict mark
into a failure that asks to remove it. Each compares against something independent of the
code under test: a closed form, or the library's own documented promise checked by a second
route."""
import sys
from pathlib import Path

import numpy as np
import pytest

import rancf

ROOT = Path(__file__).resolve().parent.parent


def _bead_on_a_spinning_rod(dt, **options):
    """A 0.5 kg bead on a frictionless rod spun at a constant 2 rad/s by a motor, no
    gravity, released 0.2 m from the axis at rest relative to the rod: its slide obeys
    ``s'' = omega^2 s``, so ``s(t) = s0 cosh(omega t)`` (closed form). Returns the largest
    error of the joint coordinate over 1 s (m)."""
    w, s0 = 2.0, 0.2
    m = rancf.Model(gravity=(0.0, 0.0))
    rod = m.add_rigid_body(1.0, 0.1, position=(0.0, 0.0))
    m.add_joint("revolute", m.ground.point(0.0, 0.0), rod.centre,
                drive=lambda t: (w * t, w, 0.0))
    bead = m.add_rigid_body(0.5, 1e-3, position=(s0, 0.0))
    slide = m.add_joint("prismatic", rod.point(s0, 0.0), bead.centre)
    res = rancf.simulate(m, 1.0, dt, output_every=int(round(0.1 / dt)), **options)
    assert res.status == "ok", res.message
    q, _ = res.joint(slide)
    return np.abs(s0 + q - s0 * np.cosh(w * res.t)).max()


@pytest.mark.xfail(strict=True, reason="the implicit loop with its default kept Newton matrix "
                   "stops on the position increment h^2 beta |da| <= tol, which allows "
                   "acceleration errors of tol / (h^2 beta): refining the step of a DAE run "
                   "stops converging (3.6e-6, 2.0e-6, 1.3e-6 m at dt = 1e-3, 5e-4, 2.5e-4 s)")
def test_dae_generalized_alpha_converges_when_the_step_is_refined():
    """Generalized-alpha on the DAE (constant mass: second order, the implicit guide) checked
    the way the integrator guide asks ("step from accuracy; check by halving it"): from
    dt = 1e-3 to 2.5e-4 s the error against the closed form must fall by at least 8 (second
    order gives 16, first order 4; 8 is order 1.5). The Newton tolerance cannot be the floor:
    the default 1e-10 m on 4000 steps, grown by at most cosh(2) = 3.8, is 1.5e-6 m at the
    worst, and each step's iterate is within tol of its solution by the loop's own docstring,
    so the errors stay near the truncation error. With ``jacobian="every-iteration"`` the
    same runs fall by 16.0 (measured: 1.96e-6, 4.90e-7, 1.22e-7 m), as does the recursive
    formulation with the kept matrix."""
    coarse = _bead_on_a_spinning_rod(1e-3, method="generalized-alpha", formulation="dae")
    fine = _bead_on_a_spinning_rod(2.5e-4, method="generalized-alpha", formulation="dae")
    assert fine <= coarse / 8.0, (coarse, fine)


@pytest.mark.xfail(strict=True, reason="asv_benchmarks/benchmarks/cases.py RodSliderCase unpacks "
                   "validation.cases.rod_slider.SCHEMES as 3-tuples; the entries are 4-tuples "
                   "(name, method, parameters, ours) since the rod-slider rework: ValueError in "
                   "setup, so all 27 rod-slider benchmarks fail")
def test_asv_rod_slider_benchmark_sets_up():
    """The asv suite's ``cases.RodSliderCase`` benchmark (27 combinations of the rod-slider
    case's integrators and projections) must at least set up on the working tree (as
    ``python -m asv run --python=same`` does, docs/user_guide/validation.rst): its setup only
    looks the scheme up in the case's table."""
    sys.path.insert(0, str(ROOT / "asv_benchmarks"))
    try:
        from benchmarks.cases import ROD_SLIDER_SCHEMES, RodSliderCase
    finally:
        sys.path.remove(str(ROOT / "asv_benchmarks"))
    bench = RodSliderCase()
    bench.setup(ROD_SLIDER_SCHEMES[0], False)
    assert bench.method == "newmark"
