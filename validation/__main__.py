"""``python -m validation [names...] [--quick] [--out reports/] [--workers N]``: run cases, write the report.

Without names, every case marked ``default`` runs. Each case's outputs are written as soon
as it finishes (into a new folder renamed into place, so Ctrl-C keeps every finished case and
the previous results of the unfinished one) and the report is rebuilt after every case.
A case that raises is reported as an error with its traceback; the others still run.
Exit status: 0; 1 when a case raised, a check failed that is not a known deviation, or a known
deviation passed (see :class:`validation.case.Check`); 2 for bad arguments, 130 after Ctrl-C.

The cases whose verdicts rest on no wall time (``Case.timed`` false) run first, ``--jobs`` of
them at once, each in a process of its own (forked, so that it starts from this process's
state; in its own process group, so that a Ctrl-C reaches this process only, which then stops
them), the longest first (by the wall time of its last run of the same mode in the output
folder), so that the others fill the remaining processes beside it; a case that finishes is
written and the report rebuilt at once, and a process that dies leaves an error record. The
timed cases follow, one after the other in this process, alone (developer: The validation
layer); a timed case's part that measures no time (``Case.prepare``: scaling's instruction count
under valgrind, modal's untimed runs) runs in a process of its own beside the untimed cases,
and the timed cases start when every such part has ended. The untimed studies inside the cases
(:mod:`validation.parallel`: the runs of ``rod-slider``, the E sweep of ``rigid-limit``, the
untimed runs of ``modal``) go to a local
dask cluster of ``--jobs`` processes, started when the case first asks for one
(``--workers`` / ``--scheduler``: another cluster; ``--jobs 1``: serial); every value but a
wall time is the serial run's. A run of every default case records its wall time in ``<out>/run.json``
(shown in the report); into ``reports/``, also in the README (:func:`validation.report.update_readme`).
"""
from __future__ import annotations

import _thread
import argparse
import contextlib
import json
import math
import multiprocessing
import multiprocessing.connection
import os
import signal
import sys
import threading
import time
import traceback
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # cases draw into files only; never open a window

import matplotlib.pyplot as plt  # noqa: E402

from validation import case as case_module  # noqa: E402
from validation.parallel import engine  # noqa: E402
from validation.registry import Broken, discover  # noqa: E402
from validation.report import (REPO, discard_unfinished, fails_run, save_case, save_run,  # noqa: E402
                               update_readme, write_report)


class Progress:
    """A one-line status on a terminal (case i/n, elapsed time, the case's own message).

    Silent when stderr is not a terminal or ``CI`` is set: logs then get one line per case.
    """

    def __init__(self, total: int, stream=sys.stderr):
        self.stream = stream
        self.live = stream.isatty() and os.environ.get("CI", "").lower() not in ("1", "true", "yes")
        self.total = total
        self.index = 0
        self.name = ""
        self.message = ""
        self.start = time.monotonic()
        self._stop = threading.Event()
        self._thread = None

    def begin(self, index: int, name: str) -> None:
        self.index, self.name, self.message, self.start = index, name, "", time.monotonic()
        case_module._progress_hook = self.note
        if self.live and self._thread is None:
            self._thread = threading.Thread(target=self._tick, daemon=True)
            self._thread.start()

    def note(self, message: str) -> None:
        self.message = message

    def _line(self) -> str:
        elapsed = time.monotonic() - self.start
        text = f"[{self.index}/{self.total}] {self.name} {elapsed:6.0f} s  {self.message}"
        return text[:118]

    def _tick(self) -> None:
        while not self._stop.wait(0.5):
            self.stream.write("\r\033[K" + self._line())
            self.stream.flush()

    def end(self, status: str, seconds: float, name: str | None = None) -> None:
        """One line for a finished case (``name``: a case of the parallel phase, which
        finish in any order)."""
        case_module._progress_hook = None
        if self.live:
            self.stream.write("\r\033[K")
        self.stream.write(f"[{self.index}/{self.total}] {name or self.name}: {status} ({seconds:.1f} s)\n")
        self.stream.flush()

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        case_module._progress_hook = None


def parse(argv):
    parser = argparse.ArgumentParser(prog="python -m validation", description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="cases to run (default: every default case)")
    parser.add_argument("--quick", action="store_true", help="short versions (a minute or less each)")
    parser.add_argument("--out", default="reports", type=Path, help="output folder (default: reports/)")
    parser.add_argument("--list", action="store_true", help="list the cases and exit")
    parser.add_argument("--jobs", type=workers, metavar="N", default=default_jobs(),
                        help="untimed cases run N at once, each in a process of its own, before "
                             "the timed cases, which run alone, one after the other (default: "
                             "the cores available, here %(default)s; 1: every case in this "
                             "process, one after the other)")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--workers", type=workers, metavar="N",
                       help="run the untimed studies inside cases (the runs of rod-slider, the E "
                            "sweep of rigid-limit, the untimed runs of modal) on a local dask "
                            "cluster of N processes; timed runs (the DOF sweep of scaling, the "
                            "timings of modal, rrr, implicit-stiff, peers) stay serial and alone "
                            "in this process; the values are the serial run's (wall times aside). "
                            "Default: with --jobs above 1, a local cluster of --jobs processes, "
                            "started when a case first asks for one")
    where.add_argument("--scheduler", metavar="ADDRESS",
                       help="as --workers, on a running dask cluster (tcp://host:8786) whose "
                            "workers can import rancf and validation")
    return parser.parse_args(argv)


def default_jobs() -> int:
    """The cores this process may use."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def workers(text: str) -> int:
    """``--workers`` as an integer >= 1."""
    try:
        n = int(text)
    except ValueError:
        n = 0
    if n < 1:
        raise argparse.ArgumentTypeError(f"must be an integer >= 1, got {text!r}")
    return n


class CaseInterrupt:
    """Ctrl-C (SIGINT) stops the case running (a context around it, in the main thread).

    rancf turns a Ctrl-C into a Result of status "interrupted" (a sweep into rows not run), which
    a case would take for its results: it would run on to its next runs, or fail on a truncated
    reference, and its error record would replace its previous results. So after the first
    SIGINT, :attr:`hit` is set and a KeyboardInterrupt is raised in the main thread every
    :attr:`PERIOD` seconds until the context ends: each run it meets ends at its next check for
    Ctrl-C, and the first that meets the case's own code (or rancf's outside a compiled loop)
    ends the case. :func:`run_one` then writes nothing: the previous results stay.
    """

    PERIOD = 0.05  # s

    def __init__(self):
        self.hit = threading.Event()
        self._done = threading.Event()
        self._thread = None
        self._previous = None

    def __enter__(self):
        self._previous = signal.signal(signal.SIGINT, self._handler)
        return self

    def _handler(self, signum, frame):
        if self._done.is_set():
            return  # one of ours, still pending as the case ended
        if not self.hit.is_set():
            self.hit.set()
            self._thread = threading.Thread(target=self._repeat, daemon=True)
            self._thread.start()
        raise KeyboardInterrupt

    def _repeat(self):
        while not self._done.wait(self.PERIOD):
            _thread.interrupt_main()

    def __exit__(self, *exc):
        self._done.set()
        if self._thread is not None:
            self._thread.join()
        # signal.signal runs the handlers of pending signals first, with ours (which ignores
        # them now): none of the repeated interrupts outlives the context
        signal.signal(signal.SIGINT, self._previous)
        return False


def run_one(entry, quick: bool, out: Path, interrupt: CaseInterrupt | None = None,
            prepared: Prepared | None = None) -> dict:
    """Run one case (or report a broken module) and write its outputs; under ``interrupt``, a
    case a Ctrl-C reached is not written (KeyboardInterrupt). ``prepared``: its ``Case.prepare``
    started beside the untimed cases; without it, a case that has one prepares here first."""
    start, cpu = time.monotonic(), time.process_time()
    if isinstance(entry, Broken):
        return save_case(out, entry, None, seconds=0.0, quick=quick, error=entry.traceback)
    try:
        if entry.prepare is None:
            outcome = entry.run(quick)
        else:
            outcome = entry.run(quick, entry.prepare(quick) if prepared is None else prepared.result())
        error = None
    except KeyboardInterrupt:
        raise
    except Exception:  # reported in the report, the run goes on
        outcome, error = None, traceback.format_exc()
    if interrupt is not None and interrupt.hit.is_set():
        # what the case returned or raised after a Ctrl-C reached it is not its result
        raise KeyboardInterrupt
    try:
        return save_case(out, entry, outcome, seconds=time.monotonic() - start, quick=quick, error=error,
                         cpu_seconds=time.process_time() - cpu)
    finally:
        if outcome is not None:
            for fig in outcome.figures.values():
                plt.close(fig)


def _child(entry, quick: bool, out: Path, conn, studies: dict) -> None:
    """Run one case in a forked process and send ``("record", record)``, ``("interrupted",
    None)`` (the case raised KeyboardInterrupt: nothing written) or ``("raised", traceback)``
    (writing its results failed) back through ``conn``. ``studies``: the keywords of
    :func:`validation.parallel.engine` for the case's untimed studies."""
    os.setpgid(0, 0)  # a Ctrl-C at the terminal reaches the runner only, which stops us
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # the runner's handler is the runner's only
    case_module._progress_hook = None
    try:
        with engine(**studies):
            record = run_one(entry, quick, out)
        message = ("record", record)
    except KeyboardInterrupt:
        message = ("interrupted", None)
    except BaseException:
        message = ("raised", traceback.format_exc())
    conn.send(message)
    conn.close()


def _prepare_child(entry, quick: bool, conn, studies: dict) -> None:
    """Send ``("value", entry.prepare(quick))`` or ``("raised", traceback)`` through ``conn``;
    in a process group of its own, as :func:`_child`, its untimed studies under ``studies``
    (as :func:`_child`'s)."""
    os.setpgid(0, 0)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    case_module._progress_hook = None
    try:
        with engine(**studies):
            message = ("value", entry.prepare(quick))
    except BaseException:
        message = ("raised", traceback.format_exc())
    conn.send(message)
    conn.close()


class Prepared:
    """``entry.prepare(quick)`` (:class:`validation.case.Case`) running in a forked process of
    its own while the untimed cases run, its untimed studies under ``studies`` (the keywords of
    :func:`validation.parallel.engine`; default: serial); :meth:`wait` waits for it to end,
    :meth:`result` for its value."""

    def __init__(self, entry, quick: bool, studies: dict | None = None):
        context = multiprocessing.get_context("fork")
        self.name = entry.name
        self.reader, writer = context.Pipe(duplex=False)
        self.process = context.Process(target=_prepare_child, args=(entry, quick, writer, studies or {}),
                                       name=f"validation {entry.name} (prepare)")
        self.process.start()
        writer.close()
        self._message = None

    def wait(self) -> None:
        """Wait until ``prepare`` has ended (its value or its error is kept for :meth:`result`)."""
        if self._message is not None:
            return
        try:
            self._message = self.reader.recv()
        except EOFError:
            self.process.join()
            self._message = ("raised", f"its process ended with exit code {self.process.exitcode}")
        self.process.join()

    def result(self):
        """The value ``prepare`` returned; RuntimeError with its traceback when it raised or its
        process died."""
        self.wait()
        kind, payload = self._message
        if kind == "raised":
            raise RuntimeError(f"the untimed part of {self.name} (Case.prepare) failed:\n{payload}")
        return payload

    def close(self) -> None:
        """Stop the process (and what it started: its process group) if it still runs."""
        if self.process.is_alive():
            try:
                os.killpg(self.process.pid, signal.SIGTERM)
            except ProcessLookupError:  # not yet the leader of its group
                self.process.terminate()
            self.process.join()
        self.reader.close()


def run_parallel(entries: list, quick: bool, out: Path, jobs: int, studies: dict | None = None):
    """Run ``entries`` (untimed cases), ``jobs`` at once, each in a forked process, in their
    order; yield each stored record as its case ends. ``studies``: the keywords of
    :func:`validation.parallel.engine` each case's untimed studies run under (default: serial).

    A process that ends without a record (killed, out of memory) leaves an error record; when
    writing the results raised, the error is re-raised here. On any exception here (Ctrl-C),
    the processes still running are terminated, their half-written folders removed (the
    previous results stay) and the exception propagates.
    """
    context = multiprocessing.get_context("fork")
    pending, running = list(entries), {}
    try:
        while pending or running:
            while pending and len(running) < jobs:
                entry = pending.pop(0)
                reader, writer = context.Pipe(duplex=False)
                # not a daemon: a case may start processes of its own
                process = context.Process(target=_child, args=(entry, quick, out, writer, studies or {}),
                                          name=f"validation {entry.name}")
                process.start()
                writer.close()
                running[reader] = (process, entry, time.monotonic())
            for reader in multiprocessing.connection.wait(list(running)):
                process, entry, start = running.pop(reader)
                try:
                    kind, payload = reader.recv()
                except EOFError:
                    kind, payload = "died", None
                reader.close()
                process.join()
                if kind == "interrupted":
                    raise KeyboardInterrupt
                if kind == "raised":
                    raise RuntimeError(f"writing the results of {entry.name} failed:\n{payload}")
                if kind == "died":
                    discard_unfinished(out, entry.name)
                    payload = save_case(out, entry, None, seconds=time.monotonic() - start,
                                        quick=quick, error=f"the process running {entry.name} ended "
                                                           f"with exit code {process.exitcode} "
                                                           "before it wrote its results")
                yield payload
    finally:
        for process, entry, _ in running.values():
            # its process group: what the case started (a local cluster's workers) stops with it
            try:
                os.killpg(process.pid, signal.SIGTERM)
            except ProcessLookupError:  # not yet the leader of its group
                process.terminate()
        for reader, (process, entry, _) in running.items():
            process.join()
            reader.close()
            discard_unfinished(out, entry.name)


def longest_first(names: list, out: Path, quick: bool) -> list:
    """``names`` ordered by the wall time of each case's last run of the same mode (full or
    quick) stored in ``out``, longest first; cases without one keep their order, first (their
    length is not known)."""
    def last(name):
        try:
            record = json.loads((Path(out) / name / "result.json").read_text())
        except (OSError, ValueError):
            return math.inf
        return record.get("seconds", math.inf) if record.get("quick") == quick else math.inf

    return sorted(names, key=lambda name: -last(name))


def _exit_on_sigterm(signum, frame):
    """SIGTERM in the runner: ``SystemExit(128 + signum)``, so that :func:`main`'s cleanup runs
    (the case processes stop, with what they started) instead of the runner vanishing and
    leaving them running."""
    raise SystemExit(128 + signum)


def main(argv=None) -> int:
    args = parse(sys.argv[1:] if argv is None else argv)
    cases = discover()
    if args.list:
        width = max(map(len, cases), default=0)
        for name, entry in cases.items():
            flag = "" if entry.default else " (not default)"
            print(f"{name:{width}s}  {entry.title}{flag}")
        return 0
    unknown = [n for n in args.names if n not in cases]
    if unknown:
        print(f"unknown case(s) {', '.join(unknown)}; known: {', '.join(cases)}", file=sys.stderr)
        return 2
    names = args.names or [n for n, c in cases.items() if c.default]
    order = list(cases)
    # a broken module is no timed case: its error record is written at once
    untimed = [n for n in names if not getattr(cases[n], "timed", False)]
    serial = [n for n in names if n not in untimed] if args.jobs > 1 and len(untimed) > 1 else names
    progress = Progress(len(names))
    failed = []
    start = time.monotonic()

    def finished(record):
        if fails_run(record):
            failed.append(f"{record['name']} ({record['status']})")
        write_report(args.out, order)

    # the untimed studies inside cases (map_runs) go to a local cluster of --jobs processes,
    # started when a case first asks for one, unless --workers or --scheduler says otherwise
    on_demand = args.workers is None and args.scheduler is None and args.jobs > 1
    studies = {"workers": args.jobs if on_demand else args.workers, "scheduler": args.scheduler,
               "on_first_use": on_demand}
    # the untimed parts of the timed cases (Case.prepare) run beside the untimed cases
    prepared = {}
    on_main_thread = threading.current_thread() is threading.main_thread()
    previous_sigterm = signal.signal(signal.SIGTERM, _exit_on_sigterm) if on_main_thread else None
    try:
        if serial is not names:
            parallel_studies = {**studies, "on_first_use": studies["workers"] is not None}
            prepared = {n: Prepared(cases[n], args.quick, parallel_studies) for n in serial
                        if getattr(cases[n], "prepare", None) is not None}
            progress.begin(0, f"{len(untimed)} untimed cases, {args.jobs} at once")
            with contextlib.closing(run_parallel([cases[n] for n in longest_first(untimed, args.out, args.quick)],
                                                 args.quick, args.out, args.jobs, parallel_studies
                                                 )) as records:
                for i, record in enumerate(records, 1):
                    progress.index = i
                    progress.end(record["status"], record["seconds"], record["name"])
                    finished(record)
            # the timed cases run alone: after the untimed parts of every one of them
            progress.note("the timed cases' untimed parts")
            for job in prepared.values():
                job.wait()
        with engine(**studies):
            for i, name in enumerate(serial, len(names) - len(serial) + 1):
                progress.begin(i, name)
                with CaseInterrupt() as interrupt:
                    record = run_one(cases[name], args.quick, args.out, interrupt, prepared.get(name))
                progress.end(record["status"], record["seconds"])
                finished(record)
    except KeyboardInterrupt:
        progress.close()
        write_report(args.out, order)
        print(f"\ninterrupted: finished cases kept, report in {args.out}/index.html", file=sys.stderr)
        return 130
    finally:
        for job in prepared.values():
            job.close()
        progress.close()
        if on_main_thread:
            signal.signal(signal.SIGTERM, previous_sigterm)
    if not args.names:
        run = save_run(args.out, seconds=time.monotonic() - start, quick=args.quick, jobs=args.jobs,
                       cases=names)
        if not args.quick and Path(args.out).resolve() == (REPO / "reports").resolve():
            update_readme(REPO / "README.md", run)
    write_report(args.out, order)
    print(f"report: {args.out / 'index.html'} and {args.out / 'README.md'}", file=sys.stderr)
    if failed:
        print(f"failed: {', '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
