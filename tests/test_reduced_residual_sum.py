"""A reduced run whose sample misses part of the motion is flagged by the residual of its
unsampled equations (:mod:`rancf.formulations.reduced.drift`, check 3), not only by energy and
stretch.

The ``modal`` case's pendulum and settings (160 elements, sparsity 100, 308 samples, h = 1 ms;
:mod:`validation.cases.modal`, its parameters and seeds unchanged). Sampling "rows + free end"
at seed 1 draws single rows that leave the y-position equations of 17 neighbouring nodes near
the free end (124 to 140 of 160) unsampled: its tip leaves the full run's (0.3 m at 1.1 s)
while the energy drops (backward Euler removes energy, so a loss is no verdict) and the stretch
stays the full run's. The independent reference is the full model's implicit recursion
(RANCF, the same backward Euler and step), whose tip agrees with the full DAE's to round-off.

The accuracy criterion is the brief's: the tip within 5 % of the full run's tip travel (its
largest distance from where it starts) over the window. The check's own limit is RESIDUAL_SUM
of the model's size (1 m).
"""
import numpy as np
import pytest

import rancf
from rancf.formulations.reduced.drift import RESIDUAL_SUM
from validation.cases.modal import OURS, PAPER, SAMPLINGS, _model, _settings

BAD = "rows + free end", 1
#: the brief's accuracy criterion, a fraction of the full run's tip travel
TRAVEL = 0.05


def run(name, seed, t_end):
    cfg = _settings(False)
    reduced = rancf.reduce(_model(cfg), cfg["sparsity"], cfg["n_samples"], seed=seed,
                           tol=PAPER["tol"], max_iter=cfg["max_iter"], **SAMPLINGS[name])
    return rancf.simulate(reduced, t_end, PAPER["h"], method="backward-euler", output_every=5)


def full(t_end):
    return rancf.simulate(_model(_settings(False)), t_end, PAPER["h"], method="backward-euler",
                          formulation="recursive", output_every=5)


def off_by(res, reference):
    """Largest tip distance from the reference run over the run's outputs, as a fraction of the
    reference's tip travel (m / m)."""
    tip, ref = res.tip(), reference.tip()[:len(res.t)]
    travel = np.hypot(*(ref - ref[0]).T).max()
    return np.hypot(*(tip - ref).T).max() / travel


def test_a_sample_without_part_of_the_motion_is_flagged():
    """Over 0.6 s (the residual sum passes its limit at about 0.45 s): "diverged", every output
    kept, the message naming the check with a value above the limit; the sum is the stats'."""
    res = run(*BAD, 0.6)
    assert res.status == "diverged", res.message
    assert len(res.t) == 121 and res.t[-1] == pytest.approx(0.6)
    assert "residual of all equations summed over the steps" in res.message
    assert res.stats["greedy_full_residual_sum"] > RESIDUAL_SUM * 1.0
    assert "energy gain" not in res.message and "element stretch" not in res.message


def test_our_sampling_is_not_flagged():
    """Whole nodes with the free end kept, seed 1, over the same 0.6 s: "ok" and within 5 % of
    the full recursion's tip travel."""
    res = run(OURS, 1, 0.6)
    assert res.status == "ok", res.message
    assert off_by(res, full(0.6)) < TRAVEL


@pytest.mark.slow
def test_the_flag_is_right_over_the_case_window():
    """Over the case's 1.1 s: the flagged run is off the full recursion by more than 5 % of the
    tip travel (the flag is not a false alarm), and ours, for the case's seeds 0, 1, 2, is
    "ok" and within it."""
    reference = full(1.1)
    bad = run(*BAD, 1.1)
    assert bad.status == "diverged" and len(bad.t) == 221
    assert off_by(bad, reference) > TRAVEL
    for seed in (0, 1, 2):
        res = run(OURS, seed, 1.1)
        assert res.status == "ok", (seed, res.message)
        assert off_by(res, reference) < TRAVEL, seed
