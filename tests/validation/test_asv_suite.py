"""Every benchmark of the asv suite sets up and runs once on its smallest parameters.

asv runs the suite in CI only on a subset (``.ci/run``: ``--quick`` on the 110-DOF sizes and a
few others), and a full ``asv run`` takes half an hour, so a benchmark broken by a change
elsewhere (a renamed name, a table whose rows grew: the rod-slider case's 4-tuple schemes made
all 27 of its benchmarks fail in setup) went unseen. Here each benchmark class of
``asv_benchmarks/benchmarks`` is instantiated as asv does (one instance per parameter
combination), set up, and each of its benchmarks (``time_``, ``track_``, ``peakmem_``, ``mem_``)
called once: every value of a parameter that is not a number (a method, a scheme) with the
smallest of each numeric one (a size). In the working tree every feature exists, so a
``NotImplementedError`` from setup, which asv would report as a skip (``n/a``), is a failure here
(benchmarks/common.py: ``require``). The benchmarks whose call takes seconds even then run with
``-m slow``; their setup still runs by default.
"""
import importlib
import inspect
import itertools
import numbers
import pkgutil
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "asv_benchmarks"))
import benchmarks  # noqa: E402

#: Name prefixes of asv's benchmark types.
PREFIXES = ("time_", "track_", "peakmem_", "mem_", "timeraw_")

#: Benchmarks (``module.Class`` or a combination's id) whose call takes seconds at their
#: smallest parameters: called with ``-m slow`` only. Times measured on the shared 2-core
#: machine, set-up and call, lightly loaded to loaded by six other jobs.
SLOW_CALLS = {
    "accuracy.EnergyDrift": "the energy case's 4 s of RK4: 1.4-8 s",
    "accuracy.RigidLimit": "the rigid-limit case's 4 s at 210 GPa: 1.1-4.7 s",
    "cases.RodSliderCase": "10 s of the rod-slider: 0.3 s a combination, 27 combinations",
    "cases.ModalCase('adaptive modal')": "20 adaptive modal steps: 1.7-9.9 s",
    "cases.StiffPendulum": "4 s of the steel pendulum: 0.2-1.6 s each",
    "integrators.Progress": "1e5 RK4 steps: 1.1-5.5 s each",
    "memory.PeakMemory": "ten steps of a 1e5-DOF chain or of the dense DAE at its largest",
    "outputs.OutputCost": "five pairs of 4 s runs: 0.8-2.2 s each",
}
#: Set-ups that take seconds: with ``-m slow`` only.
SLOW_SETUPS = {
    "cases.ModalCase('adaptive modal')": "the reduction (rancf.reduce): seconds",
}


def axes(cls):
    """The parameter values of a benchmark class, one list per parameter, by asv's rule: a
    ``params`` whose first entry is a list or tuple holds one list per parameter, any other
    holds the values of the only one."""
    params = list(getattr(cls, "params", []))
    if params and not isinstance(params[0], (tuple, list)):
        return [params]
    return [list(values) for values in params]


def smallest(values):
    """All values of a parameter that is not numeric; the smallest of a numeric one."""
    if all(isinstance(v, numbers.Number) and not isinstance(v, bool) for v in values):
        return [min(values)]
    return values


def combinations():
    """``(id, class, parameters, names of its benchmarks)`` of every benchmark class."""
    found = []
    for info in pkgutil.iter_modules(benchmarks.__path__):
        module = importlib.import_module(f"benchmarks.{info.name}")
        for name, cls in vars(module).items():
            if not inspect.isclass(cls) or cls.__module__ != module.__name__:
                continue
            methods = sorted(m for m in dir(cls) if m.startswith(PREFIXES))
            if not methods:
                continue
            for combo in itertools.product(*(smallest(v) for v in axes(cls))):
                label = f"{info.name}.{name}" + (f"({', '.join(map(repr, combo))})" if combo
                                                 else "")
                found.append((label, f"{info.name}.{name}", cls, combo, methods))
    return found


COMBINATIONS = combinations()


def _reason(table, label, key):
    return table.get(label) or table.get(key)


def _params(slow, only=None):
    """pytest parameters of the combinations (of those in the table ``only`` if given), marked
    slow where one of the tables ``slow`` names them."""
    marked = []
    for label, key, cls, combo, methods in COMBINATIONS:
        if only is not None and not _reason(only, label, key):
            continue
        slow_here = any(_reason(table, label, key) for table in slow)
        marked.append(pytest.param(cls, combo, methods, id=label,
                                   marks=[pytest.mark.slow] if slow_here else []))
    return marked


def set_up(cls, combo):
    """A fresh instance set up for ``combo``, as asv does it."""
    bench = cls()
    if hasattr(bench, "setup"):
        try:
            bench.setup(*combo)
        except NotImplementedError as exc:
            pytest.fail(f"setup{combo} raised NotImplementedError (an asv skip) although the "
                        f"working tree has every feature: {exc}")
    return bench


@pytest.fixture(autouse=True)
def working_tree(monkeypatch):
    """As ``asv run --python=same``: no commit under test, every feature present."""
    monkeypatch.delenv("ASV_COMMIT", raising=False)


def test_the_suite_is_found():
    """The discovery above sees the suite's files and their benchmarks (a change of layout
    must not leave this test with nothing to check)."""
    keys = {key for _, key, *_ in COMBINATIONS}
    assert {"recursive.RightHandSide", "cases.RodSliderCase", "spatial.CableKernels",
            "accuracy.EnergyDrift", "memory.PeakMemory"} <= keys
    assert sum(key == "cases.RodSliderCase" for _, key, *_ in COMBINATIONS) == 27


@pytest.mark.parametrize("cls, combo, methods", _params([SLOW_CALLS, SLOW_SETUPS]))
def test_a_benchmark_sets_up_and_runs_once(cls, combo, methods):
    bench = set_up(cls, combo)
    for name in methods:
        value = getattr(bench, name)(*combo)
        if name.startswith("track_"):
            assert isinstance(value, numbers.Real), (name, value)


@pytest.mark.parametrize("cls, combo, methods", _params([SLOW_SETUPS], only=SLOW_CALLS))
def test_a_benchmark_whose_call_is_slow_sets_up(cls, combo, methods):
    """The set-up alone of the benchmarks the test above runs with ``-m slow`` only."""
    set_up(cls, combo)
