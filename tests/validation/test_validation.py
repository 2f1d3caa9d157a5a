"""The validation framework: discovery, error isolation, atomic outputs, and a --quick smoke run."""
import json
import os
import subprocess
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from validation.__main__ import run_one  # noqa: E402
from validation.case import Case, Check, Outcome  # noqa: E402
from validation.registry import Broken, discover  # noqa: E402
from validation.report import atomic_write, write_report  # noqa: E402

REPO = Path(__file__).resolve().parents[2]


def fine_case(quick):
    fig, ax = plt.subplots()
    ax.plot([0, 1], [0, 1])
    return Outcome(tables={"series": pd.DataFrame({"t (s)": [0.0, 1.0], "x (m)": [1.0, 2.0]})},
                   figures={"plot": fig}, checks=[Check("c", "< 1", "0.5", True)],
                   parameters={"E (Pa)": 2.1e11}, assumptions=["reconstructed"])


def failing_case(quick):
    raise ZeroDivisionError("deliberate failure in a case")


def test_a_raising_case_is_reported_not_fatal(tmp_path):
    good = run_one(Case("good", "Good", "claims", fine_case), True, tmp_path)
    bad = run_one(Case("bad", "Bad", "claims", failing_case), True, tmp_path)
    assert good["status"] == "pass" and bad["status"] == "error"
    assert "ZeroDivisionError" in bad["traceback"]
    write_report(tmp_path, ["good", "bad"])
    readme = (tmp_path / "README.md").read_text()
    html = (tmp_path / "index.html").read_text()
    for text in (readme, html):
        assert "deliberate failure in a case" in text and "good" in text
    assert "data:image/png;base64," in html  # self-contained
    assert (tmp_path / "good" / "plot.png").stat().st_size > 1000
    assert pd.read_csv(tmp_path / "good" / "series.csv").shape == (2, 2)


def test_a_rerun_replaces_only_that_case(tmp_path):
    run_one(Case("good", "Good", "claims", fine_case), True, tmp_path)
    run_one(Case("bad", "Bad", "claims", failing_case), True, tmp_path)
    run_one(Case("bad", "Bad", "claims", fine_case), False, tmp_path)
    records = {r["name"]: r for r in write_report(tmp_path)}
    assert records["bad"]["status"] == "pass" and records["bad"]["quick"] is False
    assert records["good"]["quick"] is True


def test_ctrl_c_keeps_finished_cases_and_writes_the_report(tmp_path, monkeypatch):
    import validation.__main__ as runner

    def interrupted(quick):
        raise KeyboardInterrupt

    cases = {"first": Case("first", "First", "claims", fine_case),
             "second": Case("second", "Second", "claims", interrupted),
             "third": Case("third", "Third", "claims", fine_case)}
    monkeypatch.setenv("CI", "true")
    monkeypatch.setattr(runner, "discover", lambda: cases)
    assert runner.main(["--out", str(tmp_path)]) == 130
    assert (tmp_path / "first" / "result.json").exists()
    assert not (tmp_path / "second").exists() and not (tmp_path / "third").exists()
    assert "## first:" in (tmp_path / "README.md").read_text()


def test_atomic_write_leaves_no_temporary_files(tmp_path):
    atomic_write(tmp_path / "a" / "x.txt", "one")
    atomic_write(tmp_path / "a" / "x.txt", b"two")
    assert (tmp_path / "a" / "x.txt").read_text() == "two"
    assert os.listdir(tmp_path / "a") == ["x.txt"]


def test_discovery_finds_the_cases_of_this_issue():
    cases = discover()
    for name in ("rigid-limit", "energy", "scaling", "peers"):
        assert name in cases and not isinstance(cases[name], Broken), cases.get(name)


def test_quick_run_of_every_case_writes_all_files(tmp_path):
    """Smoke test: ``python -m validation --quick`` for every registered case."""
    names = list(discover())
    env = {**os.environ, "CI": "true", "MPLBACKEND": "Agg"}
    proc = subprocess.run([sys.executable, "-m", "validation", *names, "--quick", "--out", str(tmp_path)],
                          cwd=REPO, env=env, capture_output=True, text=True, timeout=900)
    assert proc.returncode in (0, 1), proc.stderr
    readme = (tmp_path / "README.md").read_text()
    html = (tmp_path / "index.html").read_text()
    for name in names:
        record = json.loads((tmp_path / name / "result.json").read_text())
        assert record["quick"] is True
        assert record["status"] != "error", f"{name} raised:\n{record['traceback']}"
        for item in record["tables"] + record["figures"]:
            assert (tmp_path / name / item["file"]).stat().st_size > 0, item
        if record["status"] != "skipped":
            assert record["figures"] and record["tables"], name
        assert f"## {name}:" in readme and f'id="{name}"' in html


def test_peers_reports_itself_skipped_without_exudyn(monkeypatch):
    from validation.cases import peers

    monkeypatch.setattr(peers, "exudyn_version", lambda: None)
    outcome = peers.CASE.run(True)
    assert outcome.skipped and "exudyn" in outcome.skipped and not outcome.checks


@pytest.mark.parametrize("model", ["shabana", "berzeri", "reissner"])
def test_element_frequency_bound_is_above_the_chains_highest_frequency(model):
    # The explicit step of the cases comes from an upper bound (element eigenvalue theorem);
    # rancf's power iteration gives a lower bound: the two must bracket the same frequency.
    from rancf.formulations import recursive
    from validation.pendulum import max_frequency, pendulum

    chain = pendulum(210e9, elastic_model=model)
    upper = max_frequency(chain)
    formulation = recursive.of(chain.build())
    lower = formulation.highest_frequency(formulation.initial_state(), iterations=200)
    assert lower <= upper * (1 + 1e-9)
    assert upper < 2.0 * lower  # tight enough not to waste RK4 steps
