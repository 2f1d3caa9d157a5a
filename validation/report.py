"""Write each case's outputs, then the report (``index.html`` and ``README.md``) from them.

Layout of the output folder::

    <out>/index.html                 the report, figures embedded (self-contained)
    <out>/run.json                   wall time of the last run of every default case (full, quick)
    <out>/README.md                  the same content in Markdown, figures linked beside it
    <out>/<case>/result.json         status, checks, parameters, assumptions, run time, traceback
    <out>/<case>/<table>.csv         one CSV per table of the case
    <out>/<case>/<figure>.png        one PNG per figure of the case

A case's folder is written as soon as that case finishes, into a new folder renamed into place
when complete, so an interrupted run keeps every finished case and the previous results of the
unfinished one; the report is rebuilt from the folders present, so running a subset of cases
updates those and keeps the others. Each case records its commit; a section whose commit is
not the report's is marked stale (a marker in Markdown, red in HTML). Every file is written
atomically (temporary file in the same folder + ``os.replace``).

Checks are rendered as columns (value, comparison, limit, unit, source, verdict, and for a row
without a verdict the reason; see :class:`validation.case.Check`), and the claims whose limit is
a paper's are gathered in one table, "Seed claims in our runs".
"""
from __future__ import annotations

import base64
import datetime as _dt
import hashlib
import html
import io
import json
import os
import platform
import secrets
import shutil
import subprocess
import tempfile
from importlib import metadata
from pathlib import Path

import numpy as np
import pandas as pd

import rancf
from validation.case import DEVIATION, FAIL, MEASURED, PASS, UNDECIDED, UNEXPECTED_PASS, Outcome

REPO = Path(__file__).resolve().parent.parent
PACKAGES = ("rancf", "numpy", "scipy", "pandas", "matplotlib", "Cython", "exudyn")
RECONSTRUCTION_NOTE = (
    "The RANCF paper's parameter table did not survive in its text; the section, density and "
    "moduli of the pendulum cases are this project's reconstruction, chosen to match the scales "
    "the paper states (5 x 5 elements, L = 25 m, E = 210 GPa 'close to rigid', E = 21 MPa large "
    "deformation, energies of order 1e4 J). See CASES.md."
)
INLINE_ROWS = 40  # tables up to this size are shown in the report, longer ones only linked


def _created(parent: Path, prefix: str, suffix: str, make):
    """``make(path)`` of a new name ``parent/<prefix><random><suffix>`` (its result, path):
    mkstemp and mkdtemp's own unique names, without their modes 0600 and 0700, so that the
    report's files and folders get the user's umask like any other."""
    while True:
        path = parent / f"{prefix}{secrets.token_hex(4)}{suffix}"
        try:
            return make(path), path
        except FileExistsError:
            continue


def atomic_write(path: Path, data: bytes | str) -> None:
    """Write ``data`` to ``path`` via a temporary file in the same folder, synced, and
    ``os.replace``; the file gets the permissions of the user's umask."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    raw = data.encode("utf-8") if isinstance(data, str) else data
    fd, tmp = _created(path.parent, f".{path.name}.", ".tmp",
                       lambda p: os.open(p, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(raw)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def _jsonable(value):
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    return str(value)


#: What the results depend on: a change elsewhere (tests, docs, reports) does not make them stale.
SOURCES = ("rancf", "validation", "setup.py", "pyproject.toml")


def git_commit() -> str:
    """HEAD of the repository; ``+dirty.<hash>`` when the sources the results depend on
    (:data:`SOURCES`) differ from it.

    The hash covers their diff against HEAD and their untracked files (names and contents), so
    two runs on the same modified tree carry the same commit and a change in between shows.
    """
    def git(*args):
        return subprocess.run(["git", *args], cwd=REPO, capture_output=True, check=True).stdout

    try:
        head = git("rev-parse", "HEAD").decode().strip()
        status = git("status", "--porcelain", "--untracked-files=all", "--", *SOURCES)
        if not status.strip():
            return head
        digest = hashlib.sha1(git("diff", "HEAD", "--", *SOURCES))
        for line in status.decode().splitlines():
            if line.startswith("??"):
                path = REPO / line[3:]
                digest.update(line.encode())
                if path.is_file():
                    digest.update(path.read_bytes())
    except (OSError, subprocess.CalledProcessError):
        return "unknown (not a git checkout)"
    return f"{head}+dirty.{digest.hexdigest()[:10]}"


def machine_info() -> dict:
    """CPU, cores, memory, OS and Python of this machine."""
    cpu = platform.processor() or "unknown"
    memory = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal"):
                memory = f"{int(line.split()[1]) / 2**20:.1f} GiB"
                break
    except OSError:
        pass
    return {"cpu": cpu, "logical cores": os.cpu_count(), "memory": memory,
            "os": platform.platform(), "python": platform.python_version()}


def package_versions() -> dict:
    """Versions of the packages a report depends on: rancf's from the code that ran (an editable
    install's metadata keeps the version it was installed with), the others' from their
    installed metadata."""
    versions = {}
    for name in PACKAGES:
        try:
            versions[name] = rancf.__version__ if name == "rancf" else metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = "not installed"
    return versions


def status_of(outcome: Outcome) -> str:
    """``skipped``; ``fail`` (a check fails the run: see :attr:`Check.fails_run`); ``undecided``
    (the noise could flip a verdict, nothing failed); ``deviation`` (known deviations, nothing
    else failed or undecided); ``pass`` (every verdict passed); ``reported`` (no verdicts)."""
    if outcome.skipped:
        return "skipped"
    if any(c.fails_run for c in outcome.checks):
        return "fail"
    if any(c.verdict == UNDECIDED for c in outcome.checks):
        return "undecided"
    if any(c.verdict == DEVIATION for c in outcome.checks):
        return "deviation"
    return "pass" if any(c.passed is not None for c in outcome.checks) else "reported"


def fails_run(record: dict) -> bool:
    """Does this stored case make ``python -m validation`` fail (an error, or a check that fails
    the run)?"""
    return record["status"] in ("error", "fail")


def _restore(folder: Path) -> None:
    """Put back the previous results of a case whose replacement was interrupted between the two
    renames of :func:`save_case`."""
    if folder.exists():
        return
    for old in sorted(folder.parent.glob(f".{folder.name}.old-*")):
        if (old / "result.json").exists():
            old.rename(folder)
            return


def save_case(out: Path, case, outcome: Outcome | None, *, seconds: float, quick: bool,
              error: str | None = None, cpu_seconds: float | None = None) -> dict:
    """Write one case's tables, figures and ``result.json`` into ``out/<name>/``.

    ``seconds`` is the case's wall time, ``cpu_seconds`` the CPU time of the process that ran
    it (its own share of a loaded machine; a dask cluster's is not in it).

    Everything goes into a new hidden folder first, which replaces the case's folder only when
    complete: an interruption leaves the previous results in place. ``outcome`` is None and
    ``error`` holds the traceback when the case raised. Returns the stored record.
    """
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    final = out / case.name
    _restore(final)
    _, folder = _created(out, f".{case.name}.new-", "", lambda p: os.mkdir(p, 0o777))
    try:
        record = {
            "name": case.name, "title": case.title, "claim": case.claim,
            "claim_by": getattr(case, "claim_by", None),
            "status": "error" if error is not None else status_of(outcome),
            "quick": quick, "seconds": round(seconds, 2),
            "cpu seconds": None if cpu_seconds is None else round(cpu_seconds, 2),
            "finished": _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC"),
            "commit": git_commit(), "cpu": machine_info()["cpu"], "traceback": error, "checks": [],
            "parameters": {},
            "assumptions": [], "skipped": None, "tables": [], "figures": [],
        }
        if outcome is not None:
            record.update(checks=[c.to_record() for c in outcome.checks], parameters=outcome.parameters,
                          assumptions=list(outcome.assumptions), skipped=outcome.skipped)
            for name, frame in outcome.tables.items():
                buf = io.StringIO()
                frame.to_csv(buf, index=False, float_format="%.10g")  # 10 digits: beyond any measured accuracy
                atomic_write(folder / f"{name}.csv", buf.getvalue())
                record["tables"].append({"name": name, "file": f"{name}.csv", "rows": len(frame)})
            for name, fig in outcome.figures.items():
                buf = io.BytesIO()
                fig.savefig(buf, format="png", dpi=110, bbox_inches="tight")
                atomic_write(folder / f"{name}.png", buf.getvalue())
                record["figures"].append({"name": name, "file": f"{name}.png"})
        record = _jsonable(record)
        atomic_write(folder / "result.json", json.dumps(record, indent=1))
        old = None
        if final.exists():
            old = Path(tempfile.mkdtemp(dir=out, prefix=f".{case.name}.old-"))
            os.rmdir(old)
            final.rename(old)
        folder.rename(final)
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)
    return record


def discard_unfinished(out: Path, name: str) -> None:
    """Remove what a case stopped while writing left (its new folder) and put back its previous
    results if it was stopped between the renames of :func:`save_case`."""
    for folder in Path(out).glob(f".{name}.new-*"):
        shutil.rmtree(folder, ignore_errors=True)
    _restore(Path(out) / name)


RUN_FILE = "run.json"


def save_run(out: Path, *, seconds: float, quick: bool, jobs: int, cases: list) -> dict:
    """Record the wall time of a run of every default case in ``out/run.json`` (one entry per
    mode, "full" and "quick", the other kept) and return the entry."""
    path = Path(out) / RUN_FILE
    try:
        runs = json.loads(path.read_text())
    except (OSError, ValueError):
        runs = {}
    entry = {"seconds": round(seconds, 1), "jobs": jobs, "cases": list(cases),
             "cores": machine_info()["logical cores"], "cpu": machine_info()["cpu"], "commit": git_commit(),
             "finished": _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")}
    runs["quick" if quick else "full"] = entry
    atomic_write(path, json.dumps(runs, indent=1))
    return entry


def run_time_text(entry: dict | None, records=()) -> str:
    """The sentence that states a full run's wall time (README): from ``entry`` (run.json's
    "full"), or without one from the case ``records`` of a report written before runs recorded
    their time (the sum of their wall times: such reports ran their cases one after the other)."""
    if entry is None:
        full = [r for r in records if not r["quick"]]
        total = sum(r["seconds"] for r in full)
        commits = sorted({r["commit"][:12] for r in full})
        return (f"the full report took about {total / 60:.0f} minutes on 2 cores ({total:.0f} s: "
                f"the sum of the wall times its {len(full)} cases stored, run one after the other "
                f"at commit {', '.join(commits)}; the next full run writes its own time here)")
    return (f"the full report took {entry['seconds'] / 60:.1f} minutes ({entry['seconds']:.0f} s wall "
            f"time, {len(entry['cases'])} cases, {entry['jobs']} at once, on {entry['cores']} cores"
            f"{_of_cpu(entry)}; "
            f"measured by `python -m validation` itself, {entry['finished']}, commit "
            f"{entry['commit'][:12]})")


def _of_cpu(entry: dict) -> str:
    """The words ``of <cpu>`` for a run or case record that stored its machine's CPU (records
    written before they did have none: the empty string)."""
    return f" of {entry['cpu']}" if entry.get("cpu") else ""


README_MARKERS = ("<!-- run time: written by python -m validation -->", "<!-- end of run time -->")


def update_readme(readme: Path, entry: dict) -> None:
    """Replace the text between :data:`README_MARKERS` in ``readme`` by :func:`run_time_text`
    (nothing when the markers are absent)."""
    readme = Path(readme)
    text = readme.read_text()
    begin, end = README_MARKERS
    if begin not in text or end not in text:
        return
    head, rest = text.split(begin, 1)
    _, tail = rest.split(end, 1)
    atomic_write(readme, head + begin + run_time_text(entry) + end + tail)


def load_run(out: Path) -> dict:
    """``out/run.json`` (``{"full": entry, "quick": entry}``, either absent), or {}."""
    try:
        return json.loads((Path(out) / RUN_FILE).read_text())
    except (OSError, ValueError):
        return {}


def _run_lines(runs: dict) -> list[str]:
    return [f"Last {mode} run of every default case: {e['seconds']:.0f} s wall time "
            f"({e['seconds'] / 60:.1f} min; {len(e['cases'])} cases, untimed ones {e['jobs']} at "
            f"once, on {e['cores']} cores{_of_cpu(e)}), finished {e['finished']}, commit {e['commit'][:12]}."
            for mode, e in sorted(runs.items())]


def load_results(out: Path, order=()) -> list[dict]:
    """Every ``out/<case>/result.json``, the names in ``order`` first, then the rest by name."""
    records = {}
    out = Path(out)
    for old in sorted(out.glob(".*.old-*")):
        _restore(out / old.name[1:].rsplit(".old-", 1)[0])
    for folder in sorted(out.glob("*/")):
        if folder.name.startswith("."):
            continue  # a case being written, or the previous results being replaced
        try:
            records[folder.name] = json.loads((folder / "result.json").read_text())
        except (OSError, ValueError):
            continue
    first = [records.pop(name) for name in order if name in records]
    return first + [records[name] for name in sorted(records)]


# ----------------------------------------------------------------------------- rendering

BADGE = {"pass": "#1a7f37", "fail": "#cf222e", "error": "#8250df", "skipped": "#6e7781",
         "reported": "#0969da", "deviation": "#bc4c00", "undecided": "#9a6700"}
STATUS_TEXT = {"pass": "PASS", "fail": "FAIL", "error": "ERROR", "skipped": "SKIPPED",
               "reported": "REPORTED", "deviation": "PASS WITH KNOWN DEVIATIONS",
               "undecided": "UNDECIDED (NOISE)"}
CHECK_HEADER = ["check", "claim", "value", "comparison", "limit", "unit", "source", "verdict"]


def _fmt(value) -> str:
    if isinstance(value, float) and np.isnan(value):
        return ""  # a missing entry (e.g. a run that does not apply to this row)
    if isinstance(value, float):
        return f"{value:.6g}"
    return str(value)


def _num(value) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and np.isnan(value):
        return "not measured"
    return f"{value:.4g}" if isinstance(value, float) else str(value)


def _check_row(c: dict) -> list:
    """One check as the report's columns (a record stored before checks had values, by an older
    commit, shows its text in the value column; its section is marked stale)."""
    if "value" not in c:
        verdict = c.get("verdict") or {True: PASS, False: FAIL, None: MEASURED}[c["passed"]]
        return [c["name"], c["claim"], c["measured"], "", "", "", "(old form: criterion in the claim)",
                verdict]
    limit = c["limit"]
    if isinstance(limit, list):
        limit = f"[{_num(limit[0])}, {_num(limit[1])}]"
    noise = c.get("noise")  # absent from records stored before checks had noise intervals
    value = (_num(c["value"]) + (f" (noise: {_num(noise[0])} - {_num(noise[1])})" if noise else "")
             + (f" ({c['detail']})" if c["detail"] else ""))
    verdict = c["verdict"] + (f" (no verdict: {c['no_verdict']})" if c.get("no_verdict") else "")
    return [c["name"], c["claim"], value, c["comparison"] if limit is not None else "",
            _num(limit), c["unit"], c["source"], verdict]


def _md_table(header, rows) -> str:
    def cell(x):
        return _fmt(x).replace("|", "\\|").replace("\n", " ")
    lines = ["| " + " | ".join(cell(h) for h in header) + " |",
             "| " + " | ".join("---" for _ in header) + " |"]
    lines += ["| " + " | ".join(cell(x) for x in row) + " |" for row in rows]
    return "\n".join(lines)


def _html_table(header, rows, verdict_column=None) -> str:
    head = "".join(f"<th>{html.escape(_fmt(h))}</th>" for h in header)

    def cell(i, x):
        text = html.escape(_fmt(x))
        if i == verdict_column and x in (FAIL, UNEXPECTED_PASS):
            return f'<td class="bad">{text}</td>'
        if i == verdict_column and x in (DEVIATION, UNDECIDED):
            return f'<td class="known">{text}</td>'
        return f"<td>{text}</td>"
    body = "".join("<tr>" + "".join(cell(i, x) for i, x in enumerate(row)) + "</tr>" for row in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _frame_rows(path: Path):
    frame = pd.read_csv(path)
    return list(frame.columns), frame.itertuples(index=False, name=None)


def _stale(r, info) -> bool:
    return r["commit"] != info["commit"]


def _summary_rows(records, info):
    for r in records:
        mode = "quick" if r["quick"] else "full"
        commit = r["commit"][:12] + (" STALE" if _stale(r, info) else "")
        yield [r["name"], STATUS_TEXT.get(r["status"], r["status"]), f"{r['seconds']:.1f} s ({mode})",
               _cpu(r), commit, r["title"]]


def _cpu(record) -> str:
    """A case's CPU time (s), or "" for a record written before it was measured."""
    cpu = record.get("cpu seconds")
    return "" if cpu is None else f"{cpu:.1f} s"


def _seed_rows(records):
    """Every check whose limit is a paper's (source ``paper`` or ``paper: ...``), across the cases:
    does the claim hold in our runs?"""
    for r in records:
        for c in r["checks"]:
            # "paper", or "paper: <how its words are read>": the limit is the paper's; a row
            # without a verdict (no limit, or no_verdict) does not say whether the claim holds
            if "value" not in c or not str(c.get("source")).startswith("paper") \
                    or c["passed"] is None:
                continue
            holds = "holds" if c["passed"] else "does not hold"
            yield [r["name"], c["name"], c["claim"], holds, c["verdict"], c.get("known_deviation") or ""]


def _on_machine(r, info) -> str:
    """Where a case ran, when its record stored the CPU: its times are that machine's, and a
    section from another machine than the report's says so."""
    cpu = r.get("cpu")
    if not cpu:
        return ""
    here = info.get("machine", {}).get("cpu")
    return f", on {cpu}" + (" (not this report's machine: compare its times with care)" if cpu != here else "")


def _case_blocks(r, info):
    """(kind, payload) pieces of one case section, shared by both renderers."""
    yield "h2", f"{r['name']}: {r['title']}"
    if _stale(r, info):
        yield "stale", (f"STALE: this section was generated at commit {r['commit']}, the report at "
                        f"{info['commit']}; rerun `python -m validation {r['name']}`.")
    yield "p", f"Status: {STATUS_TEXT.get(r['status'], r['status'])}. Run time {r['seconds']:.1f} s "\
               f"({'quick' if r['quick'] else 'full'} mode), finished {r['finished']}, commit {r['commit']}"\
               f"{_on_machine(r, info)}."
    if r["claim"]:
        by = r.get("claim_by")
        yield "p", (f"Paper's claim ({by}): " if by else "Claim (this project's): ") + r["claim"]
    if r["skipped"]:
        yield "p", f"Skipped: {r['skipped']}"
    if r["traceback"]:
        yield "pre", r["traceback"]
    if r["checks"]:
        yield "h3", "Checks"
        yield "checks", (CHECK_HEADER, [_check_row(c) for c in r["checks"]])
        known = [c for c in r["checks"] if c.get("known_deviation")]
        if known:
            yield "h3", "Known deviations"
            yield "list", [f"{c['name']}: {c['known_deviation']} (verdict: {c['verdict']})" for c in known]
    for fig in r["figures"]:
        yield "figure", (r["name"], fig)
    if r["tables"]:
        yield "h3", "Tables"
    for tab in r["tables"]:
        yield "link", (r["name"], tab)
    if r["parameters"]:
        yield "h3", "Parameters"
        yield "table", (["parameter", "value"], [[k, v] for k, v in r["parameters"].items()])
    if r["assumptions"]:
        yield "h3", "Assumptions"
        yield "list", r["assumptions"]


def _header(out: Path):
    return {
        "generated": _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC"),
        "commit": git_commit(), "machine": machine_info(), "packages": package_versions(),
        "runs": _run_lines(load_run(out)),
    }


INTRO = ("Each case lists its checks: the value measured, the limit it is held to (fixed before the run), "
         "the unit, where the limit comes from (the paper, an independent reference, or a target of this "
         "project) and the verdict computed from them. A paper's claim that does not hold in our runs is a "
         "known deviation: FAIL against the paper, with its reason; it does not fail the run, unless it "
         "starts to hold. A value from repeated timings carries its noise interval, by one rule for every "
         "case: the value recomputed with every median of repeated timings taken over any n - 2 of its n "
         "repeats (validation/noise.py); where the noise could flip the verdict, the row is 'undecided: "
         "noise', neither pass nor FAIL. A value timed once (the adaptive modal runs of 'modal' and "
         "'rrr') has no interval, and its case says so. Timings are of the machine in 'Machine and "
         "packages' only: compare ratios within one report, not times across reports. The summary's CPU "
         "time is the case process's own: the work of the processes it starts (--workers, --jobs' "
         "dask cluster) is not in it, nor the time it waited for a core shared with other cases.")
SEED_HEADER = ["case", "check", "paper's claim", "in our runs", "verdict", "reason"]


def render_markdown(out: Path, records, info) -> str:
    stale = [r["name"] for r in records if _stale(r, info)]
    parts = ["# rancf validation report", "",
             f"Generated {info['generated']} from commit `{info['commit']}` by `python -m validation`. "
             + INTRO, "", RECONSTRUCTION_NOTE, ""] + [x for line in info["runs"] for x in (line, "")]
    if stale:
        parts += [f"**STALE sections (another commit than this report's): {', '.join(stale)}.**", ""]
    parts += ["## Summary", "", _md_table(["case", "status", "run time", "CPU time", "commit", "title"],
                                          _summary_rows(records, info)), "",
              "## Seed claims in our runs", "", _md_table(SEED_HEADER, _seed_rows(records)), "",
              "## Machine and packages", "",
              _md_table(["item", "value"], list(info["machine"].items()) + list(info["packages"].items())), ""]
    for r in records:
        for kind, payload in _case_blocks(r, info):
            if kind == "h2":
                parts += [f"## {payload}", ""]
            elif kind == "h3":
                parts += [f"### {payload}", ""]
            elif kind == "stale":
                parts += [f"> **{payload}**", ""]
            elif kind == "p":
                parts += [payload, ""]
            elif kind == "pre":
                parts += ["```", payload.rstrip(), "```", ""]
            elif kind in ("table", "checks"):
                parts += [_md_table(*payload), ""]
            elif kind == "list":
                parts += [f"- {a}" for a in payload] + [""]
            elif kind == "figure":
                name, fig = payload
                parts += [f"![{fig['name']}]({name}/{fig['file']})", ""]
            elif kind == "link":
                name, tab = payload
                parts += [f"**{tab['name']}** ([{tab['file']}]({name}/{tab['file']}), {tab['rows']} rows)", ""]
                if tab["rows"] <= INLINE_ROWS and (out / name / tab["file"]).exists():
                    parts += [_md_table(*_frame_rows(out / name / tab["file"])), ""]
    return "\n".join(parts)


CSS = """body{font-family:system-ui,sans-serif;max-width:80em;margin:2em auto;padding:0 1em;color:#1f2328}
table{border-collapse:collapse;margin:.5em 0 1em}td,th{border:1px solid #d0d7de;padding:.25em .6em;
text-align:left;vertical-align:top;font-size:.92em}th{background:#f6f8fa}pre{background:#f6f8fa;padding:1em;
overflow:auto}img{max-width:100%;border:1px solid #d0d7de;margin:.5em 0}.status{color:#fff;padding:.1em .5em;
border-radius:.3em;font-weight:600}h2{border-top:2px solid #d0d7de;padding-top:1em}
td.bad{color:#fff;background:#cf222e;font-weight:600}td.known{background:#fff1e5;color:#bc4c00;font-weight:600}
.stale{color:#fff;background:#cf222e;padding:.5em 1em;font-weight:600}section.stale-section{border-left:6px solid #cf222e;padding-left:1em}"""


def render_html(out: Path, records, info) -> str:
    esc = html.escape

    def badge(status):
        return (f'<span class="status" style="background:{BADGE.get(status, "#000")}">'
                f'{esc(STATUS_TEXT.get(status, status))}</span>')

    summary = "".join(
        f'<tr><td><a href="#{esc(r["name"])}">{esc(r["name"])}</a></td><td>{badge(r["status"])}</td>'
        f'<td>{r["seconds"]:.1f} s ({"quick" if r["quick"] else "full"})</td><td>{_cpu(r)}</td>'
        + (f'<td class="bad">{esc(r["commit"][:12])} STALE</td>' if _stale(r, info) else
           f'<td>{esc(r["commit"][:12])}</td>')
        + f'<td>{esc(r["title"])}</td></tr>'
        for r in records)
    parts = [f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>rancf validation report</title>"
             f"<style>{CSS}</style></head><body><h1>rancf validation report</h1>",
             f"<p>Generated {esc(info['generated'])} from commit <code>{esc(info['commit'])}</code> by "
             f"<code>python -m validation</code>. {esc(INTRO)}</p>",
             f"<p>{esc(RECONSTRUCTION_NOTE)}</p>",
             *(f"<p>{esc(line)}</p>" for line in info["runs"]), "<h2>Summary</h2>",
             f"<table><thead><tr><th>case</th><th>status</th><th>run time</th><th>CPU time</th><th>commit</th><th>title</th>"
             f"</tr></thead><tbody>{summary}</tbody></table><h2>Seed claims in our runs</h2>",
             _html_table(SEED_HEADER, _seed_rows(records), verdict_column=4),
             "<h2>Machine and packages</h2>",
             _html_table(["item", "value"], list(info["machine"].items()) + list(info["packages"].items()))]
    for r in records:
        parts.append(f'<section class="{"stale-section" if _stale(r, info) else "case"}">')
        for kind, payload in _case_blocks(r, info):
            if kind == "h2":
                parts.append(f'<h2 id="{esc(r["name"])}">{esc(payload)} {badge(r["status"])}</h2>')
            elif kind == "h3":
                parts.append(f"<h3>{esc(payload)}</h3>")
            elif kind == "stale":
                parts.append(f'<p class="stale">{esc(payload)}</p>')
            elif kind == "p":
                parts.append(f"<p>{esc(payload)}</p>")
            elif kind == "pre":
                parts.append(f"<pre>{esc(payload)}</pre>")
            elif kind == "table":
                parts.append(_html_table(*payload))
            elif kind == "checks":
                parts.append(_html_table(*payload, verdict_column=len(CHECK_HEADER) - 1))
            elif kind == "list":
                parts.append("<ul>" + "".join(f"<li>{esc(a)}</li>" for a in payload) + "</ul>")
            elif kind == "figure":
                name, fig = payload
                path = out / name / fig["file"]
                if path.exists():
                    data = base64.b64encode(path.read_bytes()).decode("ascii")
                    parts.append(f'<figure><img alt="{esc(fig["name"])}" src="data:image/png;base64,{data}">'
                                 f'<figcaption>{esc(fig["name"])} ({esc(name)}/{esc(fig["file"])})</figcaption></figure>')
            elif kind == "link":
                name, tab = payload
                parts.append(f'<p><b>{esc(tab["name"])}</b> (<a href="{esc(name)}/{esc(tab["file"])}">'
                             f'{esc(tab["file"])}</a>, {tab["rows"]} rows)</p>')
                if tab["rows"] <= INLINE_ROWS and (out / name / tab["file"]).exists():
                    parts.append(_html_table(*_frame_rows(out / name / tab["file"])))
        parts.append("</section>")
    parts.append("</body></html>")
    return "\n".join(parts)


def write_report(out: Path, order=()) -> list[dict]:
    """Rebuild ``index.html`` and ``README.md`` in ``out`` from the case folders present."""
    out = Path(out)
    records = load_results(out, order)
    info = _header(out)
    atomic_write(out / "README.md", render_markdown(out, records, info))
    atomic_write(out / "index.html", render_html(out, records, info))
    return records
