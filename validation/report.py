"""Write each case's outputs, then the report (``index.html`` and ``README.md``) from them.

Layout of the output folder::

    <out>/index.html                 the report, figures embedded (self-contained)
    <out>/README.md                  the same content in Markdown, figures linked beside it
    <out>/<case>/result.json         status, checks, parameters, assumptions, run time, traceback
    <out>/<case>/<table>.csv         one CSV per table of the case
    <out>/<case>/<figure>.png        one PNG per figure of the case

A case's folder is written as soon as that case finishes, and the report is rebuilt from
the folders present, so an interrupted run keeps what it finished, and running a subset of
cases updates those and keeps the others (each case records its own commit and date).
Every file is written atomically (temporary file in the same folder + ``os.replace``).
"""
from __future__ import annotations

import base64
import datetime as _dt
import html
import io
import json
import os
import platform
import shutil
import subprocess
import tempfile
from importlib import metadata
from pathlib import Path

import numpy as np
import pandas as pd

from validation.case import Outcome

REPO = Path(__file__).resolve().parent.parent
PACKAGES = ("rancf", "numpy", "scipy", "pandas", "matplotlib", "Cython", "exudyn")
RECONSTRUCTION_NOTE = (
    "The RANCF paper's parameter table did not survive in its text; the section, density and "
    "moduli of the pendulum cases are this project's reconstruction, chosen to match the scales "
    "the paper states (5 x 5 elements, L = 25 m, E = 210 GPa 'close to rigid', E = 21 MPa large "
    "deformation, energies of order 1e4 J). See CASES.md."
)
INLINE_ROWS = 40  # tables up to this size are shown in the report, longer ones only linked


def atomic_write(path: Path, data: bytes | str) -> None:
    """Write ``data`` to ``path`` via a temporary file in the same folder and ``os.replace``."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    raw = data.encode("utf-8") if isinstance(data, str) else data
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(raw)
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


def git_commit() -> str:
    """HEAD of the repository (with ``+dirty`` when sources outside reports/ are modified)."""
    try:
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=REPO, capture_output=True,
                              text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--", ".", ":!reports"], cwd=REPO,
                               capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown (not a git checkout)"
    return head + ("+dirty" if dirty else "")


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
    versions = {}
    for name in PACKAGES:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = "not installed"
    return versions


def status_of(outcome: Outcome) -> str:
    """``skipped``, ``fail`` (a check failed), ``pass`` (all checks passed) or ``reported``."""
    if outcome.skipped:
        return "skipped"
    verdicts = [c.passed for c in outcome.checks if c.passed is not None]
    if any(v is False for v in verdicts):
        return "fail"
    return "pass" if verdicts else "reported"


def save_case(out: Path, case, outcome: Outcome | None, *, seconds: float, quick: bool,
              error: str | None = None) -> dict:
    """Write one case's tables, figures and ``result.json`` into ``out/<name>/``.

    ``outcome`` is None and ``error`` holds the traceback when the case raised.
    Returns the stored record.
    """
    folder = Path(out) / case.name
    if folder.exists():  # drop files of an earlier run of this case (names may have changed)
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    record = {
        "name": case.name, "title": case.title, "claim": case.claim,
        "status": "error" if error is not None else status_of(outcome),
        "quick": quick, "seconds": round(seconds, 2),
        "finished": _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC"),
        "commit": git_commit(), "traceback": error, "checks": [], "parameters": {},
        "assumptions": [], "skipped": None, "tables": [], "figures": [],
    }
    if outcome is not None:
        record.update(checks=[vars(c) for c in outcome.checks], parameters=outcome.parameters,
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
    return record


def load_results(out: Path, order=()) -> list[dict]:
    """Every ``out/*/result.json``, the names in ``order`` first, then the rest by name."""
    records = {}
    for path in sorted(Path(out).glob("*/result.json")):
        try:
            records[path.parent.name] = json.loads(path.read_text())
        except (OSError, ValueError):
            continue  # a folder of a case killed while writing: its result.json never appeared
    first = [records.pop(name) for name in order if name in records]
    return first + [records[name] for name in sorted(records)]


# ----------------------------------------------------------------------------- rendering

BADGE = {"pass": "#1a7f37", "fail": "#cf222e", "error": "#8250df", "skipped": "#6e7781",
         "reported": "#0969da"}


def _fmt(value) -> str:
    if isinstance(value, float) and np.isnan(value):
        return ""  # a missing entry (e.g. a run that does not apply to this row)
    if isinstance(value, float):
        return f"{value:.6g}"
    return str(value)


def _verdict(passed) -> str:
    return {True: "pass", False: "FAIL", None: "-"}[passed]


def _md_table(header, rows) -> str:
    def cell(x):
        return _fmt(x).replace("|", "\\|").replace("\n", " ")
    lines = ["| " + " | ".join(cell(h) for h in header) + " |",
             "| " + " | ".join("---" for _ in header) + " |"]
    lines += ["| " + " | ".join(cell(x) for x in row) + " |" for row in rows]
    return "\n".join(lines)


def _html_table(header, rows) -> str:
    head = "".join(f"<th>{html.escape(_fmt(h))}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(_fmt(x))}</td>" for x in row) + "</tr>"
                   for row in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _frame_rows(path: Path):
    frame = pd.read_csv(path)
    return list(frame.columns), frame.itertuples(index=False, name=None)


def _summary_rows(records):
    for r in records:
        mode = "quick" if r["quick"] else "full"
        yield [r["name"], r["status"], f"{r['seconds']:.1f} s ({mode})", r["title"]]


def _case_blocks(r):
    """(kind, payload) pieces of one case section, shared by both renderers."""
    yield "h2", f"{r['name']}: {r['title']}"
    yield "p", f"Status: {r['status'].upper()}. Run time {r['seconds']:.1f} s "\
               f"({'quick' if r['quick'] else 'full'} mode), finished {r['finished']}, commit {r['commit']}."
    if r["claim"]:
        yield "p", f"Paper's claim: {r['claim']}"
    if r["skipped"]:
        yield "p", f"Skipped: {r['skipped']}"
    if r["traceback"]:
        yield "pre", r["traceback"]
    if r["checks"]:
        yield "h3", "Checks"
        yield "table", (["check", "paper / criterion", "measured", "verdict"],
                        [[c["name"], c["claim"], c["measured"], _verdict(c["passed"])]
                         for c in r["checks"]])
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


def _header():
    return {
        "generated": _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC"),
        "commit": git_commit(), "machine": machine_info(), "packages": package_versions(),
    }


def render_markdown(out: Path, records, info) -> str:
    parts = ["# rancf validation report", "",
             f"Generated {info['generated']} from commit `{info['commit']}` by "
             "`python -m validation`. Each case lists the paper's claim, what we measured and "
             "whether it meets the stated criterion.", "", RECONSTRUCTION_NOTE, "",
             "## Summary", "", _md_table(["case", "status", "run time", "title"],
                                         _summary_rows(records)), "",
             "## Machine and packages", "",
             _md_table(["item", "value"], list(info["machine"].items()) + list(info["packages"].items())), ""]
    for r in records:
        for kind, payload in _case_blocks(r):
            if kind == "h2":
                parts += [f"## {payload}", ""]
            elif kind == "h3":
                parts += [f"### {payload}", ""]
            elif kind == "p":
                parts += [payload, ""]
            elif kind == "pre":
                parts += ["```", payload.rstrip(), "```", ""]
            elif kind == "table":
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


CSS = """body{font-family:system-ui,sans-serif;max-width:70em;margin:2em auto;padding:0 1em;color:#1f2328}
table{border-collapse:collapse;margin:.5em 0 1em}td,th{border:1px solid #d0d7de;padding:.25em .6em;
text-align:left;vertical-align:top;font-size:.92em}th{background:#f6f8fa}pre{background:#f6f8fa;padding:1em;
overflow:auto}img{max-width:100%;border:1px solid #d0d7de;margin:.5em 0}.status{color:#fff;padding:.1em .5em;
border-radius:.3em;font-weight:600}h2{border-top:2px solid #d0d7de;padding-top:1em}"""


def render_html(out: Path, records, info) -> str:
    esc = html.escape

    def badge(status):
        return f'<span class="status" style="background:{BADGE.get(status, "#000")}">{esc(status.upper())}</span>'

    summary = "".join(
        f'<tr><td><a href="#{esc(r["name"])}">{esc(r["name"])}</a></td><td>{badge(r["status"])}</td>'
        f'<td>{r["seconds"]:.1f} s ({"quick" if r["quick"] else "full"})</td><td>{esc(r["title"])}</td></tr>'
        for r in records)
    parts = [f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>rancf validation report</title>"
             f"<style>{CSS}</style></head><body><h1>rancf validation report</h1>",
             f"<p>Generated {esc(info['generated'])} from commit <code>{esc(info['commit'])}</code> by "
             "<code>python -m validation</code>. Each case lists the paper's claim, what we measured "
             "and whether it meets the stated criterion.</p>",
             f"<p>{esc(RECONSTRUCTION_NOTE)}</p><h2>Summary</h2>",
             f"<table><thead><tr><th>case</th><th>status</th><th>run time</th><th>title</th></tr></thead>"
             f"<tbody>{summary}</tbody></table><h2>Machine and packages</h2>",
             _html_table(["item", "value"], list(info["machine"].items()) + list(info["packages"].items()))]
    for r in records:
        for kind, payload in _case_blocks(r):
            if kind == "h2":
                parts.append(f'<h2 id="{esc(r["name"])}">{esc(payload)} {badge(r["status"])}</h2>')
            elif kind == "h3":
                parts.append(f"<h3>{esc(payload)}</h3>")
            elif kind == "p":
                parts.append(f"<p>{esc(payload)}</p>")
            elif kind == "pre":
                parts.append(f"<pre>{esc(payload)}</pre>")
            elif kind == "table":
                parts.append(_html_table(*payload))
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
    parts.append("</body></html>")
    return "\n".join(parts)


def write_report(out: Path, order=()) -> list[dict]:
    """Rebuild ``index.html`` and ``README.md`` in ``out`` from the case folders present."""
    out = Path(out)
    records = load_results(out, order)
    info = _header()
    atomic_write(out / "README.md", render_markdown(out, records, info))
    atomic_write(out / "index.html", render_html(out, records, info))
    return records
