"""``rancf.sweep``: parameter studies, one simulation per parameter set, on dask.distributed.

A study is a function ``run(**row)`` that builds and simulates a model and returns a few scalars,
and a table of parameter sets. :func:`sweep` runs ``run`` once per row (on a local cluster of
processes, an existing dask cluster, or serially), records failures instead of stopping, shows a
progress bar, and stores finished rows so that an interrupted study resumes where it stopped
(developer: Results, files and sweeps). :func:`sample` draws quasi-random parameter sets within
bounds.

dask.distributed, tqdm and pyarrow are the optional dependencies of the ``sweep`` extra
(``pip install "rancf[sweep]"``); the serial scheduler needs none of them.
"""
import functools
import hashlib
import inspect
import io
import itertools
import math
import numbers
import os
import time
import warnings

import numpy as np

from ..integrators.held_interrupt import held_interrupt
from ..integrators.progress import bar as progress_bar
from ..integrators.progress import check as check_progress
from ..utilities import checks

#: Columns the sweep adds to every row; neither a parameter nor an output may take these names.
SWEEP_COLUMNS = ("status", "message", "wall_time")
#: The store's column that identifies a row by its parameter values.
KEY = "sweep_key"
RESERVED = SWEEP_COLUMNS + (KEY,)
SAMPLERS = ("sobol", "lhs")
STORE_SUFFIXES = (".parquet", ".csv")
#: A missing cell of the CSV store (a row without that output). No text but this and the empty
#: cell of stores written before it is missing: "NA", "nan" or "null" stay text; a text that is
#: empty or starts with a backslash is written with one more backslash in front (_csv_text).
CSV_MISSING = "\\N"
NOT_RUN = "not run: the sweep was interrupted; rerun with the same store to resume"

# pandas is imported by the functions that make or read tables, not with rancf: it takes a
# large part of a second (tests/test_package.py)


def _read_csv_options(pd):
    """The options with which ``pd.read_csv`` gives back the floats ``to_csv`` wrote (their repr)
    exactly: by default from pandas 3 on, which deprecates the option that earlier versions
    need; nullable dtypes (pandas >= 2) read a column of integers with empty cells as
    integers."""
    major = int(pd.__version__.split(".")[0])
    return ({} if major >= 3 else {"float_precision": "round_trip"}) | \
        ({"dtype_backend": "numpy_nullable"} if major >= 2 else {})


def _missing(extra, exc):
    return ImportError(f"{extra} is needed here and is not installed ({exc}); install the sweep "
                       "extra: pip install \"rancf[sweep]\"")


# ---------------------------------------------------------------------------------------------
# Parameter sets
# ---------------------------------------------------------------------------------------------
def sample(bounds, n, method="sobol", seed=None):
    """``n`` quasi-random parameter sets, uniform within ``bounds``, for :func:`sweep`.

    Draws points of the unit hypercube with :mod:`scipy.stats.qmc` and scales them to the bounds
    (``qmc.scale``). Also reachable as ``rancf.sweep.sample``::

        params = rancf.sweep.sample({"E": (1e6, 1e7), "length": (0.5, 1.5)}, 64, seed=1)
        table = rancf.sweep(run, params)

    Parameters
    ----------
    bounds : dict of str to (float, float)
        Parameter name -> (low, high), low < high, both finite (in the parameter's unit).
    n : int
        Number of parameter sets, >= 1. Sobol' points keep their balance properties only for a
        power of 2 (scipy warns otherwise).
    method : {"sobol", "lhs"}
        Scrambled Sobol' sequence (``qmc.Sobol``) or Latin hypercube (``qmc.LatinHypercube``).
    seed : int, optional
        Seed of the scrambling or of the hypercube; the same seed gives the same sample.

    Returns
    -------
    pandas.DataFrame
        ``n`` rows, one column per parameter in the order of ``bounds``.

    Raises
    ------
    TypeError
        ``bounds`` is not a non-empty dict with str keys.
    ValueError
        A pair that is not (low, high) with low < high, ``n`` < 1, an unknown method, a
        negative seed.

    Examples
    --------
    >>> params = rancf.sweep.sample({"E": (1e6, 1e7), "length": (0.5, 1.5)}, 8, seed=1)
    >>> params.shape
    (8, 2)
    >>> bool(params.E.between(1e6, 1e7).all())
    True
    """
    import pandas as pd
    from scipy.stats import qmc

    if not isinstance(bounds, dict) or not bounds:
        raise TypeError(f"bounds must be a non-empty dict of name -> (low, high), got {bounds!r}")
    low, high = [], []
    for name, pair in bounds.items():
        if not isinstance(name, str):
            raise TypeError(f"bounds keys must be parameter names (str), got {name!r}")
        lo, hi = checks.vector(f"bounds[{name!r}]", pair, size=2)
        if not lo < hi:
            raise ValueError(f"bounds[{name!r}] must be (low, high) with low < high, got {pair!r}")
        low.append(lo)
        high.append(hi)
    n = checks.integer("n", n, 1, 10**9)
    checks.choice("method", method, SAMPLERS)
    if seed is not None:
        seed = checks.integer("seed", seed, 0, None)
    engine = (qmc.Sobol if method == "sobol" else qmc.LatinHypercube)(d=len(bounds), seed=seed)
    return pd.DataFrame(qmc.scale(engine.random(n), low, high), columns=list(bounds))


def _grid(parameters):
    """The full grid of a dict of lists, the first key varying slowest (nested loops in the
    order given)."""
    import pandas as pd
    names, values = [], []
    for name, vals in parameters.items():
        if isinstance(vals, (str, bytes)) or not hasattr(vals, "__len__") or \
                (isinstance(vals, np.ndarray) and vals.ndim != 1):
            raise TypeError(f"parameters[{name!r}] must be a list of values (the grid's values of "
                            f"{name!r}), got {vals!r}; write [{vals!r}] for a single value")
        if len(vals) == 0:
            raise ValueError(f"parameters[{name!r}] must hold at least one value, got {vals!r}")
        names.append(name)
        values.append(list(vals))
    return pd.DataFrame(list(itertools.product(*values)), columns=names)


def _parameter_table(parameters):
    """``parameters`` as a checked DataFrame (its own index kept)."""
    import pandas as pd
    if isinstance(parameters, dict):
        if not parameters:
            raise ValueError("parameters must name at least one parameter, got an empty dict")
        table = _grid(parameters)
    elif isinstance(parameters, pd.DataFrame):
        table = parameters
    elif isinstance(parameters, np.ndarray):
        raise TypeError("parameters must be a DataFrame or a dict of lists: a bare array names no "
                        "parameters; use rancf.sweep.sample(bounds, n) or "
                        "pd.DataFrame(qmc.scale(points, low, high), columns=[...names])")
    else:
        raise TypeError("parameters must be a pandas DataFrame, a dict of lists (a full grid) or "
                        f"rancf.sweep.sample(bounds, n), got {type(parameters).__name__}")
    if table.shape[1] == 0 or len(table) == 0:
        raise ValueError(f"parameters must have at least one column and one row, got "
                         f"{len(table)} rows x {table.shape[1]} columns")
    names = list(table.columns)
    for name in names:
        if not isinstance(name, str) or not name.isidentifier():
            raise ValueError(f"parameter names must be Python identifiers (run is called as "
                             f"run(**row)), got {name!r}")
        if name in RESERVED:
            raise ValueError(f"parameter name {name!r} is taken by the sweep's own columns "
                             f"{list(RESERVED)}")
    if len(set(names)) != len(names):
        raise ValueError(f"parameter names must be unique, got {names}")
    return table


def _check_arguments(run, names):
    """Refuse, before any row runs, a table whose columns ``run(**row)`` cannot take: a name
    that is not a keyword argument of ``run`` (a misspelling would make every row an "error"),
    or an argument without default that no column gives. Skipped where ``run`` takes
    ``**kwargs`` (any name) or has no signature Python can read (some builtins)."""
    try:
        signature = inspect.signature(run)
    except (TypeError, ValueError):
        return
    params = signature.parameters.values()
    keyword = [p.name for p in params if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
    what = getattr(run, "__qualname__", type(run).__name__)
    if not any(p.kind == p.VAR_KEYWORD for p in params):
        unknown = [n for n in names if n not in keyword]
        if unknown:
            raise ValueError(f"parameter(s) {unknown} are not arguments of run ({what}), which "
                             f"is called as run(**row) and takes {keyword}")
    missing = [p.name for p in params if p.default is p.empty
               and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD) and p.name not in names]
    if missing:
        raise ValueError(f"run ({what}) needs argument(s) {missing}, which no parameter gives "
                         f"(the parameters are {list(names)}; run is called as run(**row))")


def _canonical(value, name, row):
    """A text that equal parameter values share whatever their Python or NumPy type and however
    their floats print: integers and integral floats as the integer, other floats exactly as
    ``float.hex``, strings quoted."""
    import pandas as pd
    if value is None or value is pd.NA or value is pd.NaT:
        return "nan"
    if isinstance(value, (bool, np.bool_)):
        return str(bool(value))
    if isinstance(value, numbers.Integral):
        return str(int(value))
    if isinstance(value, numbers.Real):
        x = float(value)
        if math.isnan(x):
            return "nan"
        return str(int(x)) if x.is_integer() and abs(x) < 2.0**53 else x.hex()
    if isinstance(value, str):
        return repr(value)
    raise TypeError(f"parameter {name!r} (row {row}) must be a number, a string, a bool or None, "
                    f"got {value!r}")


def _row_keys(records):
    """The key of every parameter set: a hash of its values by name; the k-th repeat of an equal
    set gets its own key, so a table with repeats resumes too."""
    keys, seen = [], {}
    for i, row in enumerate(records):
        text = "\x1f".join(f"{name}={_canonical(row[name], name, i)}" for name in sorted(row))
        seen[text] = seen.get(text, -1) + 1
        keys.append(hashlib.blake2b(f"{text}\x1e{seen[text]}".encode(), digest_size=16).hexdigest())
    return keys


# ---------------------------------------------------------------------------------------------
# One row
# ---------------------------------------------------------------------------------------------
def _scalar(value):
    """``value`` as a Python scalar (NumPy scalars and 0-d arrays unpacked), or TypeError."""
    if isinstance(value, np.ndarray) and value.ndim == 0 or isinstance(value, np.generic):
        value = value.item()
    if value is None or isinstance(value, (bool, numbers.Real, str)):
        return value
    raise TypeError(f"a {type(value).__name__}")


def _outputs(returned, parameters):
    """The outputs, status and message of what ``run`` returned, or TypeError saying what is
    wrong with it."""
    import pandas as pd
    if isinstance(returned, pd.DataFrame):
        if len(returned) != 1:
            raise TypeError(f"run returned a DataFrame of {len(returned)} rows; it must return a "
                            "dict of scalars or a DataFrame of one row")
        returned = returned.to_dict("records")[0]
    elif isinstance(returned, pd.Series):
        returned = returned.to_dict()
    if not isinstance(returned, dict):
        raise TypeError(f"run returned a {type(returned).__name__}; it must return a dict of "
                        "scalars or a DataFrame of one row")
    outputs = {}
    for name, value in returned.items():
        if not isinstance(name, str):
            raise TypeError(f"run returned an output named {name!r}; output names must be str")
        if name in parameters or name in ("wall_time", KEY):
            raise TypeError(f"run returned an output named {name!r}, which is taken by a "
                            "parameter or by the sweep's own columns")
        try:
            outputs[name] = _scalar(value)
        except TypeError as exc:
            raise TypeError(f"run returned output {name!r} as {exc}; outputs must be scalars "
                            "(numbers, strings, bools or None)") from None
    status = outputs.pop("status", "ok")
    message = outputs.pop("message", "")
    if not isinstance(status, str):
        raise TypeError(f"run returned status {status!r}; a status must be a str "
                        "(rancf's are 'ok', 'diverged', 'failed', 'interrupted')")
    return outputs, status, "" if message is None else str(message)


def _exit_message(exc):
    """The row message of a SystemExit raised by ``run``: the call and its code (``sys.exit()``
    has code None; ``sys.exit("text")`` a text, which Python would print)."""
    call = "sys.exit()" if exc.code is None else f"sys.exit({exc.code!r})"
    return (f"SystemExit: run called {call} (or raised SystemExit); the sweep records it as "
            "this row's error and goes on")


def _execute(run, row):
    """Call ``run(**row)``; a record (outputs, status, message, wall_time) whatever happens.

    An exception is the row's status "error" with the exception's message (developer: Results,
    files and sweeps); so is a SystemExit (``sys.exit`` in ``run``, or in a command-line tool's
    main called from it), which would otherwise end the serial sweep's process or a dask
    worker: every scheduler records it alike (:func:`_exit_message`). KeyboardInterrupt is
    "interrupted", which stops the sweep and is never stored. """
    start = time.perf_counter()
    try:
        returned = run(**row)
    except KeyboardInterrupt:
        wall = time.perf_counter() - start
        return {"outputs": {}, "status": "interrupted",
                "message": "interrupted (KeyboardInterrupt)", "wall_time": wall}
    except SystemExit as exc:
        return {"outputs": {}, "status": "error", "message": _exit_message(exc),
                "wall_time": time.perf_counter() - start}
    except Exception as exc:
        return {"outputs": {}, "status": "error", "message": f"{type(exc).__name__}: {exc}",
                "wall_time": time.perf_counter() - start}
    wall = time.perf_counter() - start
    try:
        outputs, status, message = _outputs(returned, row)
    except TypeError as exc:
        return {"outputs": {}, "status": "error", "message": f"TypeError: {exc}",
                "wall_time": wall}
    return {"outputs": outputs, "status": status, "message": message, "wall_time": wall}


@functools.lru_cache(maxsize=4)
def _load_run(payload):
    import cloudpickle

    return cloudpickle.loads(payload)


def _probe(payload):
    """On a worker: None if ``run`` loads there, else why not (a worker that cannot unpickle a
    task's function dies; a payload we unpickle ourselves fails as an exception instead)."""
    try:
        _load_run(payload)
    except Exception as exc:
        return f"{type(exc).__name__}: {exc}"
    return None


def _execute_payload(payload, row):
    """:func:`_execute` of the pickled ``run`` (the task dask runs)."""
    try:
        run = _load_run(payload)
    except Exception as exc:
        return {"outputs": {}, "status": "error", "message": f"{type(exc).__name__}: {exc}",
                "wall_time": 0.0}
    return _execute(run, row)


# ---------------------------------------------------------------------------------------------
# Stores
# ---------------------------------------------------------------------------------------------
def _atomic_write(path, data):
    """Write ``data`` (bytes) to ``path`` by :func:`rancf.results.files.atomic_write`: a
    temporary file in the same folder, synced, then renamed (a reader sees the old file or the
    whole new one, never a part); the file gets the user's umask, and a temporary that a
    killed write left in the folder is removed by the next."""
    from ..results.files import atomic_write
    with atomic_write(path, ".tmp") as tmp:
        with open(tmp, "wb") as f:
            f.write(data)


def _csv_texts(frame, escape):
    """``frame`` with the texts of its text columns as the CSV store writes them (``escape``)
    or as they were given (not ``escape``): one backslash in front of a text that is empty or
    starts with one, so that neither an empty cell nor :data:`CSV_MISSING` is ever a text."""
    import pandas as pd

    def text(value):
        if not isinstance(value, str):
            return value
        if escape:
            return "\\" + value if value == "" or value.startswith("\\") else value
        return value[1:] if value.startswith("\\") else value
    frame = frame.copy()
    for name in frame.columns:
        if not (pd.api.types.is_numeric_dtype(frame[name])
                or pd.api.types.is_bool_dtype(frame[name])):
            frame[name] = frame[name].map(text, na_action="ignore")
    return frame


def _column(values):
    """Values of one stored column (Python scalars, None where a row has none) as an array of
    one type that keeps them: integers stay integers beside missing values (nullable Int64, or
    a resumed table would read them back as floats); numbers and text mixed in one column are
    stored as text (a Parquet column has one type)."""
    import pandas as pd
    kinds = {type(v) for v in values if v is not None and not (type(v) is float and math.isnan(v))}
    if kinds == {int}:
        return pd.array(values, dtype="Int64")
    if kinds == {bool}:
        return pd.array(values, dtype="boolean")
    if kinds <= {int, float}:
        return np.array([math.nan if v is None else v for v in values], dtype=float)
    if kinds == {str}:
        return np.array(values, dtype=object)
    return np.array([None if v is None else str(v) for v in values], dtype=object)


def _record_frame(records):
    """Stored rows as a DataFrame: key, parameters, outputs, status, message, wall_time."""
    import pandas as pd
    rows = [{KEY: r["key"], **r["row"], **r["outputs"], "status": r["status"],
             "message": r["message"], "wall_time": r["wall_time"]} for r in records]
    names = list(dict.fromkeys(k for row in rows for k in row))
    return pd.DataFrame({k: _column([row.get(k) for row in rows]) for k in names})


class _Store:
    """Finished rows on disk, by key. ``.parquet``: a folder of chunk files, one per write
    (developer: Results, files and sweeps). ``.csv``: one file, rewritten whole at each write (a
    CSV has one header, and the outputs of later rows may add columns)."""

    def __init__(self, path):
        if not isinstance(path, (str, os.PathLike)):
            raise TypeError(f"store must be a path ending in .parquet or .csv, got {path!r}")
        self.path = os.fspath(path)
        self.kind = os.path.splitext(self.path)[1].lower()
        if self.kind not in STORE_SUFFIXES:
            raise ValueError(f"store must be a path ending in one of {list(STORE_SUFFIXES)}, "
                             f"got {self.path!r}")
        if self.kind == ".parquet":
            try:
                import pyarrow  # noqa: F401  (pandas' Parquet engine)
            except ImportError as exc:
                raise _missing("pyarrow", exc) from None
            if os.path.isfile(self.path):
                raise ValueError(f"store {self.path!r} is a file; a .parquet store is a folder of "
                                 "chunk files written by rancf.sweep: give a new path")
        elif os.path.isdir(self.path):
            raise ValueError(f"store {self.path!r} is a folder; a .csv store is one file")
        self.frame = self._read()
        self.count = 0

    def _chunks(self):
        if not os.path.isdir(self.path):
            return []
        return sorted(os.path.join(self.path, f) for f in os.listdir(self.path)
                      if f.endswith(".parquet") and not f.startswith("."))

    def _read(self):
        import pandas as pd
        if self.kind == ".parquet":
            paths = self._chunks()
            frames = [self._check(pd.read_parquet(p), p) for p in paths]
        elif os.path.exists(self.path):
            frame = pd.read_csv(self.path, dtype={KEY: str, "status": str, "message": str},
                                keep_default_na=False, na_values=["", CSV_MISSING],
                                **_read_csv_options(pd))
            frame = _csv_texts(frame, escape=False)
            # an empty message of a store written before CSV_MISSING reads as missing
            frame["message"] = frame["message"].fillna("")
            frames = [self._check(frame, self.path)]
        else:
            frames = []
        return pd.concat(frames, ignore_index=True) if frames else None

    @staticmethod
    def _check(frame, path):
        missing = [c for c in RESERVED if c not in frame.columns]
        if missing:
            raise ValueError(f"store file {path!r} is not a rancf.sweep store (no column(s) "
                             f"{missing})")
        return frame

    def stored(self, parameter_names):
        """Key -> record of every stored row; a later write of a key wins."""
        import pandas as pd
        if self.frame is None:
            return {}
        frame = self.frame.drop_duplicates(KEY, keep="last")
        outputs = [c for c in frame.columns if c not in RESERVED and c not in parameter_names]
        found = {}
        for values in frame[[KEY, *SWEEP_COLUMNS, *outputs]].to_dict("records"):
            # an empty cell is an output the row did not give (another row of the file did):
            # left out, so that columns of other studies in the same store do not come back
            key = values.pop(KEY)
            found[key] = {
                "status": values.pop("status"), "message": values.pop("message"),
                "wall_time": values.pop("wall_time"),
                "outputs": {k: _scalar(v) for k, v in values.items() if not pd.isna(v)}}
        return found

    def write(self, records):
        """Add finished rows (a list of dicts: key, row, outputs, status, message, wall_time)."""
        import pandas as pd
        if not records:
            return
        new = _record_frame(records)
        if self.kind == ".parquet":
            os.makedirs(self.path, exist_ok=True)
            # names sort in writing order, so that a later write of a key wins on reading
            name = f"chunk-{time.time_ns():020d}-{os.getpid()}-{self.count:06d}.parquet"
            buffer = io.BytesIO()
            new.to_parquet(buffer, index=False)
            _atomic_write(os.path.join(self.path, name), buffer.getvalue())
        else:
            # a row run again (retry_errors) replaces its stored version
            self.frame = new if self.frame is None else pd.concat(
                [self.frame, new], ignore_index=True).drop_duplicates(KEY, keep="last")
            text = _csv_texts(self.frame, escape=True)
            _atomic_write(self.path, text.to_csv(index=False, na_rep=CSV_MISSING).encode())
        self.count += 1


# ---------------------------------------------------------------------------------------------
# Progress
# ---------------------------------------------------------------------------------------------
class _Progress:
    """A tqdm bar of the rows: done (with the rate and the time left), failed (status not "ok")
    and left to run; rows read from the store count as done, and as failed if they are."""

    def __init__(self, progress, total, stored_failed, stored):
        self.failed = stored_failed
        self.bar = progress_bar(progress, hint='install the sweep extra: pip install "rancf[sweep]"',
                                total=total, initial=stored, unit="run", desc="sweep",
                                smoothing=0.1, postfix={"failed": stored_failed,
                                                        "left": total - stored})

    def update(self, status):
        if self.bar is None:
            return
        self.failed += status != "ok"
        self.bar.set_postfix(failed=self.failed, left=self.bar.total - self.bar.n - 1,
                             refresh=False)
        self.bar.update(1)

    def close(self):
        if self.bar is not None:
            self.bar.close()


# ---------------------------------------------------------------------------------------------
# Engines
# ---------------------------------------------------------------------------------------------
def _serial(run, jobs):
    """Yield (position, record) for every job, in order, in this process.

    A Ctrl-C during a row interrupts it even when it does not escape ``run``: rancf turns one
    into a Result of status "interrupted", which ``run`` may not return (its outputs would then
    be stored as finished). The row is "interrupted" whatever ``run`` returned."""
    with held_interrupt(pass_on=True) as seen:
        for i, row in jobs:
            record = _execute(run, row)
            if seen:
                record = {"outputs": {}, "status": "interrupted",
                          "message": "interrupted (Ctrl-C)", "wall_time": record["wall_time"]}
            yield i, record


def _check_scheduler(scheduler):
    accepted = ("scheduler must be None, 'serial', a scheduler address ('tcp://host:8786') or a "
                f"distributed.Client, got {scheduler!r}")
    if isinstance(scheduler, str):
        if scheduler != "serial" and ":" not in scheduler:
            raise ValueError(accepted)
    elif scheduler is not None:
        try:
            from distributed import Client
        except ImportError:
            raise TypeError(accepted) from None
        if not isinstance(scheduler, Client):
            raise TypeError(accepted)


def local_cluster(n_workers=None):
    """A dask ``LocalCluster`` for sweeps, as ``sweep(scheduler=None)`` starts one per sweep.

    ``n_workers`` processes of one thread each (the compiled loops are CPU-bound), no dashboard,
    and without the ``MALLOC_TRIM_THRESHOLD_=65536`` that dask's nanny puts in its workers'
    environment: with it glibc hands freed memory back to the system at once, and runs that
    allocate many short-lived arrays slow down (the adaptive modal method does). Also
    reachable as ``rancf.sweep.local_cluster``; to share one cluster among sweeps::

        with rancf.sweep.local_cluster(4) as cluster, distributed.Client(cluster) as client:
            first = rancf.sweep(run, parameters, scheduler=client)

    Parameters
    ----------
    n_workers : int, optional
        Worker processes, >= 1; default the cores this process may use.

    Returns
    -------
    distributed.LocalCluster
    """
    try:
        import dask
        from distributed import LocalCluster
    except ImportError as exc:
        raise _missing("dask.distributed (for scheduler != 'serial')", exc) from None
    if n_workers is None:
        n_workers = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else \
            (os.cpu_count() or 1)
    n_workers = checks.integer("n_workers", n_workers, 1, 4096)
    # None unsets a variable of the nannies' pre-spawn environment (distributed >= 2022.11)
    with dask.config.set({"distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_": None}):
        return LocalCluster(n_workers=n_workers, threads_per_worker=1, processes=True,
                            dashboard_address=None)


def _connect(scheduler, n_workers):
    """A dask Client (and the LocalCluster we started, or None) for ``scheduler``."""
    try:
        from distributed import Client
    except ImportError as exc:
        raise _missing("dask.distributed (for scheduler != 'serial')", exc) from None
    if scheduler is None:
        cluster = local_cluster(n_workers)
        return Client(cluster), cluster
    if isinstance(scheduler, Client):
        return scheduler, None
    return Client(scheduler), None


def _distributed(client, run, jobs):
    """Yield (position, record) for every job as it finishes on the cluster."""
    import cloudpickle
    from distributed import as_completed

    name = getattr(run, "__qualname__", repr(run))
    try:
        payload = cloudpickle.dumps(run)
    except Exception as exc:
        raise TypeError(f"run ({name}) must be picklable to run on dask workers: define it at "
                        f"module level ({type(exc).__name__}: {exc})") from None
    problem = client.submit(_probe, payload, pure=False).result()
    if problem is not None:
        raise TypeError(
            f"run ({getattr(run, '__module__', '?')}.{name}) cannot be loaded by the dask workers "
            f"({problem}): define it at module level in a module the workers can import (an "
            "installed package, or a file on their sys.path); functions of the script being run "
            "(__main__) are sent by value and work too. scheduler='serial' needs no pickling.")
    futures = client.map(_execute_payload, [payload] * len(jobs), [row for _, row in jobs],
                         pure=False)
    position = {f.key: i for f, (i, _) in zip(futures, jobs)}
    rows = dict(jobs)
    lost = []
    try:
        for future in as_completed(futures):
            try:
                record = future.result()
            except Exception:       # the engine's failure (a worker died), not run's
                lost.append(position.pop(future.key))
            else:
                yield position.pop(future.key), record
            future.release()
    finally:
        client.cancel([f for f in futures if f.key in position])
    # A worker that dies takes every row it holds with it, so a lost row may be a bystander of
    # another row's crash: each lost row runs again alone, and only a row that still loses its
    # worker is recorded as the one that crashes it.
    for i in lost:
        future = client.submit(_execute_payload, payload, rows[i], pure=False)
        try:
            record = future.result()
        except Exception as exc:
            record = {"outputs": {}, "status": "error", "wall_time": math.nan,
                      "message": f"this row crashed its worker process, also when run alone "
                                 f"(os._exit, a segmentation fault or memory exhausted?): "
                                 f"{rows[i]}; dask: {type(exc).__name__}: {exc}"}
        finally:
            future.release()
        yield i, record


# ---------------------------------------------------------------------------------------------
# The sweep
# ---------------------------------------------------------------------------------------------
def _table(parameters, records):
    """Parameters, outputs (columns in the order they first appear), status, message and
    wall_time, one row per parameter set; a row never run is "interrupted"."""
    import pandas as pd
    outputs, status, message, wall = [], [], [], []
    for r in records:
        r = r or {"outputs": {}, "status": "interrupted", "message": NOT_RUN,
                  "wall_time": math.nan}
        outputs.append(r["outputs"])
        status.append(r["status"])
        message.append(r["message"])
        wall.append(r["wall_time"])
    names = list(dict.fromkeys(k for o in outputs for k in o))
    table = parameters.copy()
    if names:
        table = pd.concat([table, pd.DataFrame(outputs, index=parameters.index, columns=names)],
                          axis=1)
    table["status"] = status
    table["message"] = message
    table["wall_time"] = np.asarray(wall, dtype=float)
    return table


def sweep(run, parameters, scheduler=None, progress=True, store=None, n_workers=None,
          write_every=10.0, retry_errors=False):
    """Run ``run(**row)`` for every parameter set; one row of results per set.

    Each row is independent: a run that raises is recorded (status "error" and the exception's
    message; a ``sys.exit`` in it too, on every scheduler), a run that reports a status
    (``"diverged"``, ``"failed"``, from its Result) keeps it; neither stops the sweep. Ctrl-C
    (or a run raising KeyboardInterrupt) stops it: the finished rows are stored and returned,
    the others have status "interrupted".

    On ``scheduler=None`` (a local cluster of processes) the calling script must start the sweep
    under ``if __name__ == "__main__":``: the workers are new processes that import the script.

    Parameters
    ----------
    run : callable
        ``run(**row) -> dict`` of scalar outputs (numbers, strings, bools, None), or a one-row
        DataFrame. The keys ``"status"`` and ``"message"`` (e.g. ``res.status``, ``res.message``)
        become the row's status (default "ok") and message (default ""). For a dask scheduler
        ``run`` is pickled: a function at module level of an importable module, or of the
        script being run.
    parameters : pandas.DataFrame or dict of lists
        One parameter set per row, its columns ``run``'s keyword arguments (values: numbers,
        strings, bools, None); or a dict of lists, the full grid in the order given (the first
        key varies slowest); or :func:`rancf.sweep.sample(bounds, n) <sample>` (quasi-random
        within bounds). Its names are checked against ``run``'s signature before any run.
    scheduler : None, "serial", str or distributed.Client
        None: a ``LocalCluster`` of ``n_workers`` processes with one thread each, started and
        closed by the sweep. ``"serial"``: this process, in order (debugging; no dask needed).
        An address (``"tcp://host:8786"``) or a ``distributed.Client``: an existing cluster
        (dask-jobqueue, Kubernetes, ``dask scheduler`` / ``dask worker``); the workers need
        rancf and the module of ``run``; a Client given stays open.
    progress : bool or "always"
        A tqdm bar (rows done, rate, time left, failed, left to run): True shows it when
        stderr is a terminal, "always" also when it is not, False never.
    store : str or os.PathLike, optional
        ``"study.parquet"``: a folder of Parquet files, one per write of finished rows (needs
        pyarrow); ``"study.csv"``: one CSV file, rewritten whole at each write. Files are written
        atomically (a temporary file, then renamed). Rows already in the store (found by their
        parameter values, not their position) are not run again: an interrupted study resumes
        and ends with the same table. Rows of the store that match no parameter set stay in the
        store and are not returned. One sweep at a time per store.
    n_workers : int, optional
        Processes of the local cluster (``scheduler=None`` only); default the cores this process
        may use.
    write_every : float
        Seconds (>= 0) between writes of the store: a finished row is written when the last
        write is this old, and all of them when the sweep ends or stops. 0 writes every row.
    retry_errors : bool
        Run again the stored rows whose status is "error" (e.g. after fixing ``run``).

    Returns
    -------
    pandas.DataFrame
        One row per parameter set, in the order and with the index of ``parameters``: the
        parameters, the outputs (NaN where a run gave none), ``status``, ``message`` and
        ``wall_time`` (s, the run's; NaN for a row never run).

    Raises
    ------
    TypeError
        ``run`` not callable (or not picklable for a dask scheduler), ``parameters`` of
        another type, a parameter value that is not a scalar, a ``store`` that is not a path.
    ValueError
        Empty parameters, a parameter name that is not an identifier or is taken by the
        sweep's columns or is not an argument of ``run`` (unless it takes ``**kwargs``), an
        argument of ``run`` without default that no parameter gives, a store of another
        suffix or kind, ``n_workers`` without the local cluster, an invalid ``progress``.
    ImportError
        dask.distributed (any scheduler but "serial"), tqdm (a progress bar) or pyarrow (a
        .parquet store) is not installed: ``pip install "rancf[sweep]"``.

    Examples
    --------
    The lowest point the tip of a two-body pendulum reaches in 0.2 s, on a 2 x 2 grid, run
    serially (a local cluster needs the call under ``if __name__ == "__main__":``). The
    stiffest, shortest pendulum is beyond RK4's stability limit at this step: its row records
    the error and the sweep goes on.

    >>> def run(E, length):
    ...     m = rancf.pendulum(n_bodies=2, elements_per_body=2, body_length=length, E=E)
    ...     res = rancf.simulate(m, 0.2, 1e-3, method="rk4")
    ...     return {"lowest_tip": res.tip()[:, 1].min(), "status": res.status,
    ...             "message": res.message}
    >>> table = rancf.sweep(run, {"E": [1e7, 1e8], "length": [0.5, 1.0]},
    ...                     scheduler="serial", progress=False)
    >>> list(table.columns)
    ['E', 'length', 'lowest_tip', 'status', 'message', 'wall_time']
    >>> table.status.tolist()
    ['ok', 'ok', 'error', 'ok']
    >>> table.message[2].startswith("ValueError: dt = 0.001 s exceeds the rk4 stability limit")
    True
    """
    if not callable(run):
        raise TypeError(f"run must be a callable run(**row) -> dict, got {run!r}")
    table = _parameter_table(parameters)
    _check_scheduler(scheduler)
    if n_workers is not None:
        if scheduler is not None:
            raise ValueError(f"n_workers applies to scheduler=None (the local cluster), got "
                             f"n_workers={n_workers!r} with scheduler={scheduler!r}")
        n_workers = checks.integer("n_workers", n_workers, 1, 4096)
    check_progress(progress)
    write_every = checks.non_negative("write_every", write_every)
    if not isinstance(retry_errors, bool):
        raise TypeError(f"retry_errors must be a bool, got {retry_errors!r}")

    rows = table.to_dict("records")          # Python scalars, each column its own type
    keys = _row_keys(rows)
    _check_arguments(run, list(table.columns))
    storage = None if store is None else _Store(store)
    stored = {} if storage is None else storage.stored(set(table.columns))
    records = [None] * len(rows)
    for i, key in enumerate(keys):
        if key in stored and not (retry_errors and stored[key]["status"] == "error"):
            records[i] = stored[key]
    jobs = [(i, rows[i]) for i in range(len(rows)) if records[i] is None]

    bar = _Progress(progress, len(rows), sum(r is not None and r["status"] != "ok"
                                             for r in records), len(rows) - len(jobs))
    pending, last_write = [], time.monotonic()
    client = cluster = None
    interrupted = False
    try:
        if jobs:
            if scheduler == "serial":
                results = _serial(run, jobs)
            else:
                client, cluster = _connect(scheduler, n_workers)
                results = _distributed(client, run, jobs)
            try:
                for i, record in results:
                    if record["status"] == "interrupted":
                        interrupted = True
                        records[i] = record
                        break
                    records[i] = record
                    bar.update(record["status"])
                    if storage is not None:
                        pending.append({"key": keys[i], "row": rows[i], **record})
                        if time.monotonic() - last_write >= write_every:
                            storage.write(pending)
                            pending, last_write = [], time.monotonic()
            except KeyboardInterrupt:
                interrupted = True
            finally:
                results.close()
    finally:
        bar.close()
        if storage is not None:
            storage.write(pending)
        if client is not None and client is not scheduler:
            client.close()
        if cluster is not None:
            cluster.close()
    if interrupted:
        done = sum(r is not None and r["status"] != "interrupted" for r in records)
        warnings.warn(f"the sweep was interrupted with {done} of {len(rows)} rows done"
                      + ("; rerun with the same store to resume" if storage else ""),
                      RuntimeWarning, stacklevel=2)
    return _table(table, records)


sweep.sample = sample
sweep.local_cluster = local_cluster
