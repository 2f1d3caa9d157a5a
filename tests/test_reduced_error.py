"""Reduced runs that are far off the full model must not end "ok", and a good one run long must
not be flagged (issues 24, 26; :mod:`rancf.formulations.reduced.drift`).

Each run is compared with the full model run by the RANCF recursion (relative coordinates, no
multipliers; the same backward Euler at the same 1 ms step, Newton tol 1e-12). Accuracy rule
(fixed with the study :mod:`validation.reduced_error`, before its runs): the largest tip
distance from the full run over the run's outputs, against the full tip's travel (its largest
distance from where it starts): above 5 % must be flagged (status not "ok"), below 1 % must not.

The misses are known defects (strict xfail): the energy and stretch checks do not see them, and
no estimator of the reduction's error is merged yet (the reverted residual sum grew with the
run's length; the window estimators of the study missed or were not validated). The
precondition (the run is that far off) is asserted outside the xfail: only the missing flag
(:class:`NotFlagged`) is the expected failure.

All are slow (the modal case's 160 elements; seconds of simulated time): ``pytest -m slow``.
"""
import os
import sys

import numpy as np
import pytest

import rancf

H = 1e-3
EVERY = 5
#: the accuracy rule of the module docstring (fractions of the full tip's travel)
MUST_FLAG, MUST_NOT_FLAG = 0.05, 0.01


class NotFlagged(AssertionError):
    """A run off by more than MUST_FLAG ended "ok" (the known defect)."""


def off_by(res, reference):
    """Largest tip distance from the reference over the run's outputs / the reference's tip
    travel (m / m)."""
    tip, ref = res.tip(), reference.tip()[:len(res.t)]
    travel = np.hypot(*(ref - ref[0]).T).max()
    return np.hypot(*(tip - ref).T).max() / travel


def full(model, t_end):
    res = rancf.simulate(model, t_end, H, method="backward-euler", formulation="recursive",
                         tol=1e-12, output_every=EVERY)
    assert res.status == "ok", res.message
    return res


def modal_run(name, seed, t_end):
    sys.path.insert(0, os.path.dirname(os.path.dirname(__file__)))
    from validation.cases.modal import PAPER, SAMPLINGS, _model, _settings
    cfg = _settings(False)
    model = _model(cfg)
    reduced = rancf.reduce(model, cfg["sparsity"], cfg["n_samples"], seed=seed, tol=PAPER["tol"],
                           max_iter=cfg["max_iter"], **SAMPLINGS[name])
    res = rancf.simulate(reduced, t_end, H, method="backward-euler", output_every=EVERY)
    return res, full(_model(cfg), t_end)


def cantilever(E):
    """8 elements, 1 m, clamped at the origin, horizontal, at rest, under gravity (the model of
    tests/test_reduced_small.py)."""
    m = rancf.Model(gravity=(0.0, -9.81), elastic_model="berzeri")
    b = m.add_beam(1.0, 8, E=E, rho=7200.0, A=4e-4, I=1.333e-8)
    m.add_joint("fixed", m.ground.point(0.0, 0.0), b.start)
    return m


def must_flag(res, reference):
    off = off_by(res, reference)
    assert off > MUST_FLAG, off  # the precondition: the run is that far off
    if res.status == "ok":
        raise NotFlagged(f"{off:.1%} of the tip's travel off the full run, status 'ok'")


@pytest.mark.slow
@pytest.mark.xfail(strict=True, raises=NotFlagged, reason="issue 26: the modal case's 'rows + "
                   "free end' seed 1 leaves the y rows of 17 nodes near the free end unsampled; "
                   "its energy drops (no gain) and its stretch is the full run's")
def test_rows_with_free_end_seed_1_is_flagged():
    """The modal case over its 1.1 s: measured 0.332 m off, 16.2 % of the full tip's travel
    (2.04 m; validation.reduced_error R1)."""
    must_flag(*modal_run("rows + free end", 1, 1.1))


@pytest.mark.slow
@pytest.mark.xfail(strict=True, raises=NotFlagged, reason="issue 26: 16 of 32 modes of a stiff "
                   "cantilever drift off slowly; energy and stretch stay within their limits")
def test_a_cantilever_with_half_its_modes_is_flagged_over_4_s():
    """8 elements, E = 7e8, sparsity 16 of 32, 32 samples, seed 0, 4 s: measured 12.4 % of
    the travel off (validation.reduced_error R3; review5 measured 12.7 %); 9.5 % at 2.5 s
    (V5)."""
    model = cantilever(7e8)
    res = rancf.simulate(rancf.reduce(model, 16, 32, seed=0), 4.0, H, output_every=EVERY)
    must_flag(res, full(cantilever(7e8), 4.0))


@pytest.mark.slow
def test_the_modal_cases_sampling_run_long_is_not_flagged():
    """The review5 false alarm of the reverted residual sum: whole nodes + free end, seed 0,
    2.5 s, measured 1.9 % of the travel off. The rule leaves 1-5 % to either verdict, so the
    run must be within 5 % and, being so, is required "ok" only when within 1 %; the stricter
    statement kept here is review5's: within 5 % and "ok" (no check may fail it for its
    length)."""
    res, reference = modal_run("nodes + free end", 0, 2.5)
    assert off_by(res, reference) < MUST_FLAG
    assert res.status == "ok", res.message
