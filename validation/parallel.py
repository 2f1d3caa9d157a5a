"""Where a case's untimed runs go: :func:`map_runs` maps a function over parameter sets.

A case hands the runs of a study that measures no time (the moduli of an E sweep, the seeds of
a sampling study) to :func:`map_runs`; ``python -m validation`` decides where they run (see
:func:`engine`): in its own process, in order (the default), or on a dask cluster
(``--workers N``: a local cluster of N processes; ``--scheduler ADDRESS``: an existing one).
Either way they go through :func:`rancf.sweep`, the engine users get, and give the same values.
A run whose wall time is a result stays out of here, in the case's process, alone (developer: The
validation layer).

rancf.sweep keeps scalar outputs; a case needs arrays, so each run's return value travels
pickled in one text output and comes back as it was returned.
"""
from __future__ import annotations

import base64
import contextlib
import functools
import pickle
import warnings

import pandas as pd

import rancf

#: Where :func:`map_runs` sends its runs: "serial" or a ``distributed.Client`` (set by :func:`engine`).
_scheduler = "serial"


class _OnFirstUse:
    """A local cluster of ``workers`` processes started when :func:`map_runs` first needs it
    (most cases never call it), closed by the :func:`engine` that made it."""

    def __init__(self, workers: int, stack: contextlib.ExitStack):
        self.workers, self.stack = workers, stack

    def client(self):
        from distributed import Client

        cluster = self.stack.enter_context(rancf.sweep.local_cluster(self.workers))
        return self.stack.enter_context(Client(cluster))


@contextlib.contextmanager
def engine(workers: int | None = None, scheduler: str | None = None, on_first_use: bool = False):
    """Send the runs of :func:`map_runs` to a dask cluster while the block runs.

    Parameters
    ----------
    workers : int, optional
        Start a local cluster of this many processes (>= 1), one thread each
        (``rancf.sweep.local_cluster``).
    scheduler : str, optional
        Address of a running dask scheduler (``"tcp://host:8786"``); its workers need rancf and
        this ``validation`` package importable.
    on_first_use : bool
        With ``workers``: start the cluster only when :func:`map_runs` is first called (what
        ``python -m validation`` does for its timed cases, whose untimed studies are few).

    Neither: the runs stay serial in this process. The cluster started is closed at the end.
    """
    global _scheduler
    if workers is not None and scheduler is not None:
        raise ValueError(f"give workers or scheduler, not both (got workers={workers!r}, "
                         f"scheduler={scheduler!r})")
    if workers is None and scheduler is None:
        yield
        return
    from distributed import Client

    with contextlib.ExitStack() as stack:
        if workers is not None:
            if not isinstance(workers, int) or workers < 1:
                raise ValueError(f"workers must be an integer >= 1, got {workers!r}")
        if workers is not None and on_first_use:
            client = _OnFirstUse(workers, stack)
        else:
            if workers is not None:
                scheduler = stack.enter_context(rancf.sweep.local_cluster(workers))
            client = stack.enter_context(Client(scheduler))
        previous, _scheduler = _scheduler, client
        try:
            yield
        finally:
            _scheduler = previous


def _pickled(function, **parameters):
    """``function(**parameters)``, pickled into one text output of rancf.sweep."""
    value = pickle.dumps(function(**parameters), protocol=pickle.HIGHEST_PROTOCOL)
    return {"value": base64.b64encode(value).decode("ascii")}


def map_runs(function, parameter_sets: list[dict]) -> list:
    """``[function(**p) for p in parameter_sets]``, run where the runner says (:func:`engine`).

    Parameters
    ----------
    function : callable
        At module level of a module of ``validation`` (the workers import it by name); fixed
        arguments bound with :func:`functools.partial`. Returns any picklable value (arrays,
        tuples, dicts; not a rancf Result, which holds compiled kernels).
    parameter_sets : list of dict
        The keyword arguments of each run: numbers, strings or bools (rancf.sweep's parameters).

    Returns
    -------
    list
        What ``function`` returned for each parameter set, in their order.

    Raises
    ------
    TypeError
        When ``function`` does not pickle, serial runs too, so that a case that runs serially
        also runs on workers (a model that has been simulated holds its compiled kernels and
        does not pickle: bind a fresh one).
    RuntimeError
        When a run raised: its parameter set and the exception's type and message.
    KeyboardInterrupt
        After Ctrl-C, as a serial loop would.
    """
    name = getattr(getattr(function, "func", function), "__qualname__", function)
    try:
        pickle.dumps(function)
    except Exception as exc:
        raise TypeError(f"map_runs needs a function that pickles (workers receive it so): "
                        f"{name} with its bound arguments does not ({type(exc).__name__}: "
                        f"{exc})") from None
    global _scheduler
    if isinstance(_scheduler, _OnFirstUse):
        _scheduler = _scheduler.client()
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "the sweep was interrupted", RuntimeWarning)
        table = rancf.sweep(functools.partial(_pickled, function), pd.DataFrame(parameter_sets),
                            scheduler=_scheduler, progress=False)
    if (table["status"] == "interrupted").any():
        raise KeyboardInterrupt
    for parameters, status, message in zip(parameter_sets, table["status"], table["message"]):
        if status != "ok":
            raise RuntimeError(f"{name}(**{parameters}): {message}")
    return [pickle.loads(base64.b64decode(value)) for value in table["value"]]
