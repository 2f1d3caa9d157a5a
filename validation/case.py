"""The contract between a reference case and the report.

A case is a module ``validation/cases/<name>.py`` that defines::

    CASE = Case(name="energy", title="...", claim="...", run=run)

    def run(quick: bool) -> Outcome: ...

``run`` does the work (``quick=True``: a short version of a minute or less, used by the
smoke test) and returns an :class:`Outcome`: its data as pandas DataFrames (written as
CSV beside the report), its figures (matplotlib, written as PNG), the checks against the
paper's claims, the parameters used and the assumptions made. Cases never write files
themselves: the report does, atomically.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Dict, List

import pandas as pd


@dataclass
class Check:
    """One criterion of a case: what the paper claims, what we measured, pass or fail.

    ``passed`` is None for a figure reported without a pass/fail criterion.
    """

    name: str
    claim: str
    measured: str
    passed: bool | None


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
    """A named reference case; ``run(quick)`` returns an :class:`Outcome`."""

    name: str
    title: str
    claim: str
    run: Callable[[bool], Outcome]
    default: bool = True  # part of ``python -m validation`` without names


_progress_hook: Callable[[str], None] | None = None


def progress(message: str) -> None:
    """Tell the runner what a long case is doing now (shown on a terminal, else ignored).

    Cases may call this between their runs, e.g. ``progress("E = 2.1e12 Pa")``; it costs
    nothing when no runner listens.
    """
    if _progress_hook is not None:
        _progress_hook(message)
