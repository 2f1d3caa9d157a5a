"""The contract between a reference case and the report.

A case is a module ``validation/cases/<name>.py`` that defines::

    CASE = Case(name="energy", title="...", claim="...", claim_by="RANCF paper (Hu & Wang 2016)",
                run=run)

    def run(quick: bool) -> Outcome: ...

``run`` does the work (``quick=True``: a short version of a minute or less, used by the
smoke test) and returns an :class:`Outcome`: its data as pandas DataFrames (written as
CSV beside the report), its figures (matplotlib, written as PNG), the checks, the parameters
used and the assumptions made. Cases never write files themselves: the report does, atomically.

A check is data (:class:`Check`): the value measured, the limit it is held to (fixed before the
run), the comparison, the unit and where the limit comes from; the verdict is computed here,
never given. A row that only informs (a figure true by construction, or a quick run too short
for the claim) carries no verdict and says why (``no_verdict``). A claim of a paper that does not hold in our runs is a *known deviation*: it shows
FAIL against the paper with its reason and does not fail the run, like pytest's xfail; if it
starts to hold, the run fails, so the reason is revisited. Every check of a timed case that
judges a wall time (a time per step, a ratio of wall times) carries its noise interval, by one
rule stated before the run for every case (:mod:`validation.noise`: every median of repeated
timings may be that of any n - 2 of its n repeats): where the noise could flip the verdict, the
row is *undecided* instead (:attr:`Check.undecided`). A wall time measured once (the adaptive
modal runs) has no interval, and its case says so.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Tuple, Union

import pandas as pd

#: How a value is held to its limit: at most, at least, or inside a closed interval (low, high).
COMPARISONS = ("<=", ">=", "within")

#: A verdict, as stored in result.json and shown in the report.
PASS, FAIL, DEVIATION, UNEXPECTED_PASS, MEASURED = ("pass", "FAIL", "FAIL (known deviation)",
                                                    "pass (known deviation no longer holds)", "-")
UNDECIDED = "undecided: noise"
#: ``no_verdict`` of a row judged on wall times, in a quick run: what a quick run (CI's) decides
#: must not depend on the machine's speed or load, so its timings are shown, not judged.
QUICK_TIMING = ("quick run: the wall times are judged in the full run (a quick run is a smoke test, "
                "and runs while the machine does other work)")


class Check:
    """One criterion of a case, with its verdict computed from value, comparison and limit.

    developer: The validation layer; keywords after the name and the claim::

        Check(name, claim, value=0.76, limit=0.6, unit="% of L", comparison="<=",
              source="paper", known_deviation="our section is not quite rigid at 210 GPa")

    Parameters
    ----------
    name : str
        Short name of the check.
    claim : str
        What is claimed, in the paper's words (quoted, with its equation, figure or table) when
        the claim is a paper's; otherwise the statement checked.
    value : float, optional
        What we measured, in ``unit``. NaN (or None) means it could not be measured: with a
        limit, that fails.
    limit : float or (float, float), optional
        The limit, fixed before the run; ``(low, high)`` for ``"within"``. None: a measured
        figure reported without a verdict.
    unit : str
        Unit of value and limit ("" for dimensionless).
    comparison : {"<=", ">=", "within"}
    source : str
        Where the limit comes from: ``"paper"`` (the claim quotes it; ``"paper: <how its words
        are read>"`` when they need reading, e.g. 'of order 0.1 J'), ``"independent reference:
        <which>"``, ``"rancf target: <why>"``, or ``"measured"`` for a figure without a limit.
        The report gathers the checks whose source starts with "paper" as the seed claims.
    known_deviation : str, optional
        Why the claim does not hold in our runs (a known FAIL, like pytest's xfail).
    no_verdict : str, optional
        Why this row informs only and carries no verdict, e.g. "true by construction: ..." or
        "quick run: ...". A limit given with it is shown (stated before the run) but not judged.
    detail : str
        What the row needs besides the numbers (where or when it was measured, the runs behind it).
    noise : (float, float), optional
        The interval the value moves within by the noise of its measurement: for a wall time,
        the rule of :mod:`validation.noise` (every median of repeated timings may be that of any
        n - 2 of its n repeats). Where a limit lies
        within the hull of this interval and the value (either end of a ``within`` limit), the
        noise could flip the verdict: it is ``undecided: noise``, neither pass nor FAIL, and
        does not fail the run.

    The verdict is never given: there is no ``passed`` argument (:attr:`passed` is computed).
    """

    def __init__(self, name: str, claim: str, *, value: float | None = None,
                 limit: Union[float, Tuple[float, float], None] = None, unit: str = "",
                 comparison: str = "<=", source: str | None = None,
                 known_deviation: str | None = None, no_verdict: str | None = None, detail: str = "",
                 noise: Tuple[float, float] | None = None):
        self.name, self.claim = str(name), str(claim)
        if comparison not in COMPARISONS:
            raise ValueError(f"check {name!r}: comparison must be one of {COMPARISONS}, got {comparison!r}")
        if not source:
            raise ValueError(f"check {name!r}: source must say where the limit comes from ('paper', "
                             "'independent reference: ...' or 'rancf target: ...')")
        if limit is not None:
            if comparison == "within":
                low, high = (float(x) for x in limit)
                if not low <= high:
                    raise ValueError(f"check {name!r}: limit (low, high) needs low <= high, got {limit!r}")
                limit = (low, high)
            else:
                limit = float(limit)
        if known_deviation is not None and limit is None:
            raise ValueError(f"check {name!r}: a known deviation needs a limit to deviate from")
        if no_verdict is not None and known_deviation is not None:
            raise ValueError(f"check {name!r}: a row without a verdict cannot be a known deviation")
        if no_verdict is not None and not str(no_verdict).strip():
            raise ValueError(f"check {name!r}: no_verdict must say why the row has no verdict, got {no_verdict!r}")
        self.value = math.nan if value is None else float(value)
        self.limit, self.unit, self.comparison = limit, str(unit), comparison
        self.source, self.known_deviation, self.detail = str(source), known_deviation, str(detail)
        self.no_verdict = None if no_verdict is None else str(no_verdict)
        if noise is not None:
            low, high = (float(x) for x in noise)
            if not low <= high:
                raise ValueError(f"check {name!r}: noise (low, high) needs low <= high, got {noise!r}")
            noise = (low, high)
        self.noise = noise

    @property
    def undecided(self) -> bool:
        """Could the noise flip the verdict? True when a limit lies within the hull of
        :attr:`noise` and the value (False without a limit, a noise interval or a value)."""
        if self.noise is None or self.limit is None or self.no_verdict is not None or math.isnan(self.value):
            return False
        low, high = min(self.noise[0], self.value), max(self.noise[1], self.value)
        edges = self.limit if self.comparison == "within" else (self.limit,)
        return any(low <= edge <= high for edge in edges)

    @property
    def passed(self) -> bool | None:
        """Does the value meet the limit? None without a limit (a measured figure), with
        ``no_verdict``, or when the noise could flip the answer (:attr:`undecided`)."""
        if self.limit is None or self.no_verdict is not None or self.undecided:
            return None
        v = self.value
        if math.isnan(v):
            return False
        if self.comparison == "<=":
            return v <= self.limit
        if self.comparison == ">=":
            return v >= self.limit
        return self.limit[0] <= v <= self.limit[1]

    @property
    def verdict(self) -> str:
        """``pass``, ``FAIL``, ``FAIL (known deviation)``, ``pass (known deviation no longer
        holds)``, ``undecided: noise`` or ``-`` (no verdict)."""
        if self.undecided:
            return UNDECIDED
        ok = self.passed
        if ok is None:
            return MEASURED
        if self.known_deviation:
            return UNEXPECTED_PASS if ok else DEVIATION
        return PASS if ok else FAIL

    @property
    def fails_run(self) -> bool:
        """A failed check that is not a known deviation, or a known deviation that passes."""
        return self.verdict in (FAIL, UNEXPECTED_PASS)

    def to_record(self) -> dict:
        """The check as stored in result.json (verdict included, for the report)."""
        return {"name": self.name, "claim": self.claim, "value": self.value, "limit": self.limit,
                "unit": self.unit, "comparison": self.comparison, "source": self.source,
                "known_deviation": self.known_deviation, "no_verdict": self.no_verdict,
                "detail": self.detail, "noise": None if self.noise is None else list(self.noise),
                "passed": self.passed, "verdict": self.verdict, "fails_run": self.fails_run}

    def __repr__(self) -> str:
        return (f"Check({self.name!r}, value={self.value!r} {self.comparison} {self.limit!r} "
                f"{self.unit}, {self.verdict})")


@dataclass
class Outcome:
    """What one run of a case returns (see the module docstring)."""

    tables: Dict[str, pd.DataFrame] = field(default_factory=dict)
    figures: Dict[str, object] = field(default_factory=dict)  # name -> matplotlib Figure
    checks: List[Check] = field(default_factory=list)
    parameters: Dict[str, object] = field(default_factory=dict)
    assumptions: List[str] = field(default_factory=list)
    skipped: str | None = None  # reason, when an optional dependency is missing


@dataclass
class Case:
    """A named reference case; ``run(quick)`` returns an :class:`Outcome`.

    ``claim_by`` names the paper whose claim ``claim`` is (the report heads it "Paper's
    claim"); None when the claim is this project's own (headed "Claim").

    ``timed``: a verdict of the case rests on a wall time it measures (a speed ratio, a time per
    step). ``python -m validation`` runs such cases alone, one after the other, after the untimed
    cases, which it runs several at once (``--jobs``); the wall times an untimed case merely
    tables are then taken beside other cases.

    ``prepare``: the part of a timed case that measures no time (an instruction count under
    valgrind, exact whatever the load), ``prepare(quick)``; its return value (picklable) reaches
    ``run(quick, prepared)``. ``python -m validation`` runs it in a process of its own beside
    the untimed cases, so that it does not lengthen the timed phase; without that phase (one
    case, ``--jobs 1``) just before ``run``.
    """

    name: str
    title: str
    claim: str
    run: Callable[..., Outcome]
    default: bool = True  # part of ``python -m validation`` without names
    claim_by: str | None = None
    timed: bool = False
    prepare: Callable[[bool], Any] | None = None


_progress_hook: Callable[[str], None] | None = None


def progress(message: str) -> None:
    """Tell the runner what a long case is doing now (shown on a terminal, else ignored).

    Cases may call this between their runs, e.g. ``progress("E = 2.1e12 Pa")``; it costs
    nothing when no runner listens.
    """
    if _progress_hook is not None:
        _progress_hook(message)
