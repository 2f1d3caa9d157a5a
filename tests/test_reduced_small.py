"""The adaptive modal method on small models (a review found them diverging): a 10-element
pendulum released from an angle and an 8-element cantilever under gravity.

Each reduced run is compared with the full model run by an independent formulation, the RANCF
recursion (relative coordinates, no multipliers; the same backward Euler at the same step).
Bounds, stated before the runs were compared:

- with every mode and every equation (sparsity = n_samples = the interior coordinates) the
  reduced step solves the full step's equations, so the run is the full one up to the solvers'
  tolerances: tip difference <= 1e-6 m (Newton's tol 1e-12 and greedy's 1e-11 on the scaled
  rows, carried over 300 to 500 steps with a margin of 1e3 for the step's conditioning);
- with fewer modes the method's accuracy when it works (the drift check's premise,
  :mod:`rancf.formulations.reduced.drift`): within 5 % of the tip's travel in the full run,
  and farther than the all-modes run (the truncation is what separates them).

``stats["error_estimate"]`` is the code's own indicator, not a bound: it is not used here.
Where the method cannot follow (the documented call's 10 of 40 modes and 20 of 40 equations),
the run must stop "diverged" early, keep the outputs so far and name the settings to change.
"""
import numpy as np
import pytest

import rancf

RHO, AREA, INERTIA, G, H = 7200.0, 4e-4, 1.333e-8, 9.81, 1e-3


def pendulum():
    """10 elements, 1 m, E = 7e5 (the paper's material), pinned, released at rest at -0.5 rad."""
    m = rancf.Model(gravity=(0.0, -G), elastic_model="berzeri")
    b = m.add_beam(1.0, 10, E=7e5, rho=RHO, A=AREA, I=INERTIA, angle=-0.5)
    m.add_joint("revolute", m.ground.point(0.0, 0.0), b.start)
    return m


def cantilever(E):
    """8 elements, 1 m, clamped at the origin, horizontal, at rest, under gravity."""
    m = rancf.Model(gravity=(0.0, -G), elastic_model="berzeri")
    b = m.add_beam(1.0, 8, E=E, rho=RHO, A=AREA, I=INERTIA)
    m.add_joint("fixed", m.ground.point(0.0, 0.0), b.start)
    return m


def full_run(model, t_end):
    res = rancf.simulate(model, t_end, H, method="backward-euler", formulation="recursive",
                         tol=1e-12)
    assert res.status == "ok", res.message
    return res


def tip_difference(res, full):
    n = len(res.t)
    assert np.allclose(res.t, full.t[:n])
    return np.abs(res.tip() - full.tip()[:n]).max()


def travel(full):
    """The largest distance of the full run's tip from its start (m)."""
    tip = full.tip()
    return np.abs(tip - tip[0]).max()


@pytest.mark.parametrize("make, t_end, interior, settings", [
    (pendulum, 0.5, 40, {"sparsity": 30, "n_samples": 40}),
    (lambda: cantilever(7e7), 0.3, 32, {"sparsity": 16, "n_samples": 32}),
    (lambda: cantilever(7e7), 0.3, 32, {"sparsity": 8, "n_samples": 32, "max_support": 24}),
], ids=["pendulum-30-of-40", "cantilever-16-of-32", "cantilever-8-grow-to-24"])
def test_enough_modes_follow_the_full_model(make, t_end, interior, settings):
    """Bounds of the module docstring: all modes the full run to the solvers' tolerance; the
    truncated run within 5 % of the tip's travel, and no closer than the exact limit."""
    model = make()
    full = full_run(model, t_end)
    every = rancf.simulate(rancf.reduce(model, interior, interior, seed=0), t_end, H)
    assert every.status == "ok", every.message
    exact = tip_difference(every, full)
    assert exact <= 1e-6
    res = rancf.simulate(rancf.reduce(model, seed=0, **settings), t_end, H)
    assert res.status == "ok", res.message
    assert res.t[-1] == pytest.approx(t_end)
    truncated = tip_difference(res, full)
    assert exact <= truncated <= 0.05 * travel(full)


def test_a_function_of_the_model_that_raises_gets_no_reduction_advice():
    """An effort that raises KeyError after 0.02 s stops the run "failed" with its own
    message: the user's to fix, whatever the modes."""
    m = rancf.Model(gravity=(0.0, -G), elastic_model="berzeri")
    b = m.add_beam(1.0, 8, E=7e7, rho=RHO, A=AREA, I=INERTIA, angle=-0.5)

    def effort(t, q, qd):
        if t > 0.02:
            raise KeyError("gain")
        return 0.0

    m.add_joint("revolute", m.ground.point(0.0, 0.0), b.start, effort=effort)
    res = rancf.simulate(rancf.reduce(m, 24, 32), 0.1, H)
    assert res.status == "failed"
    assert isinstance(res.error, rancf.UserFunctionError)
    assert "effort of joint 0" in res.message and "KeyError" in res.message
    assert "sparsity" not in res.message and "modes" not in res.message


@pytest.mark.parametrize("make, sizes", [
    (pendulum, "sparsity 10, n_samples 20 of its 40 interior coordinates"),
    (lambda: cantilever(7e5), "sparsity 10, n_samples 20 of its 32 interior coordinates"),
    (lambda: cantilever(7e7), "sparsity 10, n_samples 20 of its 32 interior coordinates"),
], ids=["pendulum", "soft-cantilever", "cantilever"])
def test_the_documented_call_on_a_small_model_stops_and_says_what_to_change(make, sizes):
    """``rancf.reduce(m, sparsity=10, n_samples=20)`` (the API docs' settings before this fix)
    ran these models on to states thousands of metres or joules away (or a turned-over joint
    blamed on the step). Now: "diverged" within the first 0.1 s of 0.5 s, the outputs before
    kept and following the full run within the error estimate, the message naming the check,
    the residual of the sampled and of all the equations, and the settings against the sizes.
    The reduction's counters are those of the accepted steps: the same as a run that ends at
    the last of them (the step that failed is not counted)."""
    model = make()
    reduced = rancf.reduce(model, sparsity=10, n_samples=20)
    res = rancf.simulate(reduced, 0.5, H)
    assert res.status == "diverged"
    assert 2 <= len(res.t) and res.t[-1] < 0.1
    assert "energy gain" in res.message or "element stretch" in res.message
    assert "on the sampled equations" in res.message and sizes in res.message
    steps = res.stats["steps"]
    upto = rancf.simulate(reduced, steps * H, H)
    assert upto.status == "ok" and upto.stats["steps"] == steps
    for key in ("greedy_converged", "greedy_no_descent", "greedy_max_iter",
                "greedy_full_residual_max", "greedy_residual_max", "error_estimate"):
        assert res.stats[key] == upto.stats[key], key
