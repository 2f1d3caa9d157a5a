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


def _parallelogram():
    """A four-bar of rigid bars (a closed loop: the DAE): crank and rocker of 1 kg, 0.5 m,
    hanging from ground pins 0.8 m apart, a 2 kg coupler of 0.8 m between their ends, released
    at 0.1 rad from hanging. Returns (model, coupler)."""
    l, d, th0 = 0.5, 0.8, 0.1
    s, c = np.sin(th0), np.cos(th0)
    m = rancf.Model(gravity=(0.0, -9.81))
    crank = m.add_rigid_body(1.0, l * l / 12, position=(l / 2 * s, -l / 2 * c),
                             angle=th0 - np.pi / 2)
    rocker = m.add_rigid_body(1.0, l * l / 12, position=(d + l / 2 * s, -l / 2 * c),
                              angle=th0 - np.pi / 2)
    coupler = m.add_rigid_body(2.0, 2.0 * d * d / 12, position=(d / 2 + l * s, -l * c))
    m.add_joint("revolute", m.ground.point(0.0, 0.0), crank.point(-l / 2, 0.0))
    m.add_joint("revolute", crank.point(l / 2, 0.0), coupler.point(-d / 2, 0.0))
    m.add_joint("revolute", coupler.point(d / 2, 0.0), rocker.point(l / 2, 0.0))
    m.add_joint("revolute", m.ground.point(d, 0.0), rocker.point(-l / 2, 0.0))
    return m, coupler


@pytest.mark.parametrize("method", ["auto", "newmark", "backward-euler"])
def test_a_closed_loop_run_continues_from_its_last_state(method):
    """results.rst, "To continue a run: rancf.simulate(m, t_more, dt, state=res.state(-1))":
    the state a run ended in must start the next one. A parallelogram run for 3 s (the
    default method: generalized-alpha on the DAE), then 0.1 s more from its last state, must
    run and end where the same 3.1 s run in one piece ends: within 1e-4 m (the restart drops
    the scheme's acceleration history, a first-step error of order h^2 |a| = 1e-6 m here;
    the period error of the runs is 2e-6 of a 1.4 s period)."""
    m, coupler = _parallelogram()
    first = rancf.simulate(m, 3.0, 1e-3, method=method)
    assert first.status == "ok", first.message
    more = rancf.simulate(m, 0.1, 1e-3, method=method, state=first.state(-1))
    whole = rancf.simulate(m, 3.1, 1e-3, method=method)
    assert more.status == "ok", more.message
    np.testing.assert_allclose(more.position(coupler.centre)[-1],
                               whole.position(coupler.centre)[-1], atol=1e-4)


@pytest.mark.parametrize("formulation", ["dae", "recursive"])
def test_restart_off_a_drive_names_the_drive(formulation):
    """A motor turning a body at 2 rad/s for 1 s, continued from its last state as the docs
    show (times restart at 0, so the drive's q(0) = 0 no longer matches the state's 2 rad).
    The refusal is right; it must say which joint's drive does not match (the project's rule
    for bad input: name the parameter, its value and what is accepted), as the model check
    does ("joint 0 (revolute): drive q(0) = ... does not match ...")."""
    m = rancf.Model(gravity=(0.0, -9.81))
    body = m.add_rigid_body(1.0, 0.01, position=(0.5, 0.0))
    m.add_joint("revolute", m.ground.point(0.0, 0.0), body.point(-0.5, 0.0),
                drive=lambda t: (2.0 * t, 2.0, 0.0))
    res = rancf.simulate(m, 1.0, 1e-3, method="generalized-alpha", formulation=formulation)
    with pytest.raises(ValueError) as err:
        rancf.simulate(m, 0.1, 1e-3, method="generalized-alpha", formulation=formulation,
                       state=res.state(-1))
    assert "joint 0" in str(err.value) and "drive" in str(err.value), str(err.value)


@pytest.mark.parametrize("method", ["rk4", "generalized-alpha"])
def test_tolerances_of_the_adaptive_methods_are_refused_by_fixed_step_ones(method):
    """``rtol, atol: Tolerances of the adaptive methods`` (simulate's docstring). Named with
    a fixed-step method they can have no effect; simulate's own rule for an option that does
    not apply ("max_displacement applies to the explicit methods", "options ['max_iter']
    apply to the implicit methods ... only") is a TypeError naming it."""
    m = rancf.Model(gravity=(0.0, -9.81))
    body = m.add_rigid_body(1.0, 0.01, position=(0.5, 0.0))
    m.add_joint("revolute", m.ground.point(0.0, 0.0), body.point(-0.5, 0.0))
    with pytest.raises(TypeError, match="rtol"):
        rancf.simulate(m, 0.01, 1e-3, method=method, rtol=1e-2)
