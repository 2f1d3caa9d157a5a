"""The noise interval of a timed value: one rule for every judged wall time of the report.

A timed case judges values computed from medians of repeated wall times: a time per step (the
median of ``n`` runs' times), a ratio of two medians, the median of ``n`` per-repeat ratios, or a
statistic over many points' medians (a flatness, a log-log slope). On a machine shared with other
jobs such a median moves from run to run by more than the case can control, so each judged value
carries its *noise interval* (:class:`validation.case.Check`'s ``noise``), by this rule, fixed
before any run:

    every median may be, independently of the others, the median of any ``n - 2`` of its ``n``
    timings (:func:`median_range`): of five, anything from the second to the fourth smallest; of
    seven, the third to the fifth; of three or fewer, anything from the least to the largest. The
    noise interval runs from the least to the largest value computed from such medians
    (:func:`noise_interval`).

Why ``n - 2`` (issue 24, in ``scaling``): with one timing left out, the interval missed the
value of a second run of the case more often than not (two full runs 30 minutes apart gave
opposite verdicts at 1e5 DOF); leaving out two widens it to the spread between repeats and
still absorbs a burst of load that hit one repeat. Where a limit lies within the hull of the
value and its noise interval, the verdict is ``undecided: noise``, neither pass nor FAIL.

With three repeats the rule gives the whole spread of the repeats; a value timed once has no
interval (the case that times it says so). A load shared by the whole run moves every repeat
alike and is in no interval.
"""
from __future__ import annotations

import itertools
import math

import numpy as np


def median_range(times) -> tuple[float, float]:
    """The least and largest median of any ``n - 2`` of ``n`` timings (the module's rule): of five,
    the second and fourth smallest; of three, the least and largest; of fewer than three, the
    least and largest timing. ``times``: a sequence of n >= 1 values (s, or a ratio)."""
    times = np.asarray(times, float)
    if len(times) < 3:
        return float(times.min()), float(times.max())
    medians = [np.median(times[list(keep)]) for keep in itertools.combinations(range(len(times)), len(times) - 2)]
    return float(min(medians)), float(max(medians))


#: Values tried for each median by :func:`noise_interval`'s search, as fractions of the way from
#: the least to the largest of its medians (:func:`median_range`); its full median is tried too.
NOISE_GRID = (0.0, 0.25, 0.5, 0.75, 1.0)


def noise_interval(samples, statistic) -> tuple[float, float]:
    """The noise interval of a value computed from medians of timings (the module's rule).

    ``samples``: one sequence of timings per median; ``statistic(medians)`` the value from an array
    of the medians (in the order of ``samples``). Every median may take, independently of the
    others, any median of ``n - 2`` of its ``n`` timings (:func:`median_range`); the interval runs
    from the least to the largest statistic over these medians, and holds the value at the full
    medians. The extremes are searched median by median (coordinate search from the medians, from
    every median's least and from every median's largest, over :data:`NOISE_GRID` of each one's
    range, until no change of one median moves the statistic further): exact for a statistic
    monotone in each median (a ratio of two medians, a log-log slope), and at least the value and
    the extremes the search reaches otherwise. A statistic that cannot be computed (NaN: a median
    <= 0 in a ratio) counts as +inf, beyond any upper limit.
    """
    samples = [np.asarray(t, float) for t in samples]
    medians = np.array([np.median(t) for t in samples])
    ranges = np.array([median_range(t) for t in samples])
    candidates = [np.unique(np.r_[lo + (hi - lo) * np.array(NOISE_GRID), m])
                  for (lo, hi), m in zip(ranges, medians)]

    def value(m):
        v = float(statistic(m))
        return math.inf if math.isnan(v) else v

    extremes = []
    for sign in (1.0, -1.0):  # the largest, then the least
        best = -math.inf
        for start in (medians, ranges[:, 0], ranges[:, 1]):
            m = start.copy()
            current = sign * value(m)
            moved = True
            while moved:
                moved = False
                for i, values in enumerate(candidates):
                    kept = m[i]
                    for c in values:
                        m[i] = c
                        v = sign * value(m)
                        if v > current:
                            current, kept, moved = v, c, True
                    m[i] = kept
            best = max(best, current)
        extremes.append(sign * best)
    value_at_medians = value(medians)
    return min(extremes[1], value_at_medians), max(extremes[0], value_at_medians)
