"""The noise interval of a timed value (validation/noise.py) and the verdict it can leave
undecided (validation/case.py's Check): one rule for every timed check of the report.

The rule's medians are computed here by hand from small sets of timings (order statistics and
means of pairs), independently of the code's search over subsets.
"""
import math

import numpy as np
import pytest

from validation.case import FAIL, PASS, UNDECIDED, Check, Outcome
from validation.noise import median_range, noise_interval
from validation.report import status_of


@pytest.mark.parametrize("value, noise, limit, comparison, verdict", [
    (1.20, (1.15, 1.27), 1.3, "<=", PASS),       # the whole hull below the limit
    (1.25, (1.20, 1.35), 1.3, "<=", UNDECIDED),  # the limit inside the interval
    (1.25, (1.31, 1.40), 1.3, "<=", UNDECIDED),  # between the value and the interval
    (1.40, (1.32, 1.50), 1.3, "<=", FAIL),
    (1.30, (1.30, 1.30), 1.3, "<=", UNDECIDED),  # on the limit: closed hull
    (0.99, (0.985, 0.995), 0.98, ">=", PASS),
    (0.99, (0.97, 0.995), 0.98, ">=", UNDECIDED),
    (2.5, (2.2, 2.8), (2.0, 3.0), "within", PASS),
    (2.5, (2.2, 3.1), (2.0, 3.0), "within", UNDECIDED),  # either edge of a 'within' limit
    (1.9, (1.5, 1.95), (2.0, 3.0), "within", FAIL),
    (1.20, (1.25, math.inf), 1.3, "<=", UNDECIDED),  # a resample that could not be computed
])
def test_a_verdict_the_noise_could_flip_is_undecided(value, noise, limit, comparison, verdict):
    c = Check("c", "claim", value=value, noise=noise, limit=limit, comparison=comparison, source="measured")
    assert c.verdict == verdict
    assert c.passed == {PASS: True, FAIL: False, UNDECIDED: None}[verdict]
    assert not c.fails_run or verdict == FAIL
    assert c.to_record()["noise"] == list(noise)


def test_undecided_neither_fails_the_case_nor_passes_it():
    undecided = Check("a", "claim", value=1.25, noise=(1.2, 1.35), limit=1.3, source="measured")
    passed = Check("b", "claim", value=1.0, noise=(0.9, 1.1), limit=1.3, source="measured")
    failed = Check("c", "claim", value=2.0, noise=(1.9, 2.1), limit=1.3, source="measured")
    assert status_of(Outcome(checks=[passed, undecided])) == "undecided"
    assert status_of(Outcome(checks=[passed, undecided, failed])) == "fail"
    assert status_of(Outcome(checks=[passed])) == "pass"
    # without a limit there is nothing to flip; with no_verdict neither
    assert Check("d", "claim", value=1.3, noise=(1.0, 2.0), source="measured").verdict == "-"
    with pytest.raises(ValueError, match="noise"):
        Check("e", "claim", value=1.0, noise=(2.0, 1.0), limit=1.3, source="measured")


def test_the_noise_interval_of_one_median_runs_from_its_second_to_its_fourth_timing():
    """The medians of any three of five sorted timings x1 <= ... <= x5 run from x2 (x1, x2 and
    one more kept) to x4 (x4, x5 and one more); of three timings, any one: x1 to x3."""
    rng = np.random.default_rng(1)
    for _ in range(20):
        times = rng.lognormal(0.0, 0.3, 5)
        x = np.sort(times)
        assert noise_interval([times], lambda m: m[0]) == pytest.approx((x[1], x[3]), rel=1e-15)
    assert noise_interval([np.array([3.0, 1.0, 2.0])], lambda m: m[0]) == (1.0, 3.0)
    # points vary independently: the difference of two points reaches x4 - y2 and x2 - y4
    a, b = np.array([1.0, 2.0, 3.0, 4.0, 5.0]), np.array([10.0, 20.0, 30.0, 40.0, 50.0])
    assert noise_interval([a, b], lambda m: m[1] - m[0]) == (20.0 - 4.0, 40.0 - 2.0)
    # a value that cannot be computed (a median <= 0 in a ratio) is +inf
    assert noise_interval([np.array([1.0, 1.0, -1.0])],
                          lambda m: 1.0 / m[0] if m[0] > 0 else math.nan) == (1.0, math.inf)


def test_median_range_of_known_timings_by_hand():
    """Five timings 0.31, 0.27, 0.45, 0.29, 0.30 s, sorted 0.27 0.29 0.30 0.31 0.45: a median of
    three kept runs from 0.29 (0.27, 0.29 and 0.30 kept) to 0.31 (0.30, 0.31 and 0.45 kept); the
    full median 0.30 lies inside. Seven timings 1 ... 7: any five kept, the third to the fifth
    smallest. Four: any two kept, the mean of the two least (1.5) to that of the two largest
    (3.5). Three or fewer: the least to the largest."""
    assert median_range([0.31, 0.27, 0.45, 0.29, 0.30]) == (0.29, 0.31)
    assert median_range([7.0, 1.0, 6.0, 2.0, 5.0, 3.0, 4.0]) == (3.0, 5.0)
    assert median_range([4.0, 1.0, 3.0, 2.0]) == (1.5, 3.5)
    assert median_range([3.0, 1.0, 2.0]) == (1.0, 3.0)
    assert median_range([2.0, 1.0]) == (1.0, 2.0)
    assert median_range([2.5]) == (2.5, 2.5)  # one timing: no interval, only the value


def test_the_noise_interval_of_a_ratio_of_two_medians():
    """A ratio of two medians of three timings each (implicit-stiff: implicit / RK4): each median
    may be any of its three, so the ratio runs from the least over the largest (2 / 40) to the
    largest over the least (4 / 10), around its value 3 / 20."""
    lo, hi = noise_interval([[3.0, 2.0, 4.0], [20.0, 40.0, 10.0]], lambda m: m[0] / m[1])
    assert (lo, hi) == pytest.approx((2.0 / 40.0, 4.0 / 10.0), rel=1e-15)
    assert lo < 3.0 / 20.0 < hi


@pytest.mark.parametrize("limit, verdict", [(30.0, UNDECIDED), (35.0, PASS), (26.0, FAIL)])
def test_a_time_per_step_judged_with_its_interval(limit, verdict):
    """Five repeats' times per step (us) 31.4, 25.8, 28.0, 33.0, 27.1 (sorted 25.8 27.1 28.0 31.4
    33.0): the value, their median, is 28.0 and its interval 27.1 - 31.4. A limit of 30 us lies
    inside (undecided: the peers case's 110-DOF step read 31.4 and 25.8 in two runs of one
    commit); 35 us lies above the whole hull (pass), 26 us below it (FAIL)."""
    times = [31.4, 25.8, 28.0, 33.0, 27.1]
    noise = median_range(times)
    assert noise == (27.1, 31.4)
    c = Check("step", "claim", value=float(np.median(times)), limit=limit, unit="us", noise=noise,
              source="rancf target: a test")
    assert c.value == 28.0 and c.verdict == verdict
    assert c.fails_run == (verdict == FAIL)
