"""``python -m validation`` under SIGINT (issue 26, finding 2): the case running stops, its
previous results are kept (not replaced by an error record), the exit status is 130; under
SIGTERM the runner stops the processes running cases before it exits (143).

The runner runs in a subprocess whose registry holds one case (the runner's ``discover``
replaced) that behaves as the probe's did: a first run, then runs in a loop, compared with it or
not: a run cut short by Ctrl-C (rancf returns its Result with status "interrupted") raises a
broadcast ValueError in the comparison; without it, the loop would go on forever. A marker file
says when the case is in its loop (and holds the pid of the process running it); then the
test sends the signal."""
import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

SCRIPT = textwrap.dedent("""
    import os
    import sys
    from pathlib import Path

    import numpy as np
    import pandas as pd

    import rancf
    import validation.__main__ as runner
    from validation.case import Case, Check, Outcome

    out, mode = Path(sys.argv[1]), sys.argv[2]

    def fine(quick):
        return Outcome(tables={"t": pd.DataFrame({"x": [1.0]})},
                       checks=[Check("x", "claim", value=1.0, limit=2.0, unit="m",
                                     source="measured")])

    def endless(quick):
        m = rancf.pendulum(n_bodies=2, elements_per_body=5)
        reference = rancf.simulate(m, 20.0, 1e-4, output_every=1000).tip()
        (out / "looping").write_text(str(os.getpid()))
        while True:
            tip = rancf.simulate(m, 20.0, 1e-4, output_every=1000).tip()
            if mode == "compares":
                np.abs(tip - reference).max()  # a run cut short: a broadcast ValueError

    cases = {"case": Case("case", "Case", "claims", fine if mode == "fine" else endless)}
    if mode == "parallel":  # beside an untimed case that ends: the parallel phase, 2 at once
        cases["other"] = Case("other", "Other", "claims", fine)
    runner.discover = lambda: cases
    sys.exit(runner.main(["--out", str(out), "--jobs", "2"]))
""")


def first_record(out):
    """Runs the runner once with the fine case; its record."""
    first = runner(out, "fine")
    assert first.wait(timeout=300) == 0, first.stderr.read()
    return json.loads((out / "case" / "result.json").read_text())


def wait_until_looping(out, proc):
    """Waits until the endless case has written its marker (the runner may end first: then
    the assertion shows its error output)."""
    for _ in range(3000):
        if (out / "looping").exists() or proc.poll() is not None:
            break
        time.sleep(0.1)
    assert (out / "looping").exists(), proc.stderr.read()


def runner(out, mode):
    return subprocess.Popen([sys.executable, "-c", SCRIPT, str(out), mode], cwd=REPO,
                            env={**os.environ, "CI": "true"},
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


@pytest.mark.parametrize("mode", ["compares", "runs on", "parallel"])
def test_sigint_stops_the_case_keeps_its_previous_record_and_exits_130(tmp_path, mode):
    """"compares": the case fails on the run cut short (the probe's implicit-stiff); "runs on":
    it ignores the run's status and would run on forever (a study of many runs); "parallel":
    the case runs on in a process of the parallel phase, beside one that ends, which is kept."""
    before = first_record(tmp_path)
    assert before["status"] == "pass"

    second = runner(tmp_path, mode)
    try:
        wait_until_looping(tmp_path, second)
        time.sleep(1.5)                           # into the first run of the loop
        second.send_signal(signal.SIGINT)
        # without the runner's handling, the case loops forever: a hang, not a timing
        code = second.wait(timeout=120)
    finally:
        if second.poll() is None:
            second.kill()
            second.wait()
            pytest.fail("python -m validation did not stop after SIGINT")
    assert code == 130, second.stderr.read()
    after = json.loads((tmp_path / "case" / "result.json").read_text())
    assert after == before
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []
    if mode == "parallel":
        assert json.loads((tmp_path / "other" / "result.json").read_text())["status"] == "pass"
        assert "## other:" in (tmp_path / "README.md").read_text()


def test_sigterm_stops_the_case_processes_too(tmp_path):
    """SIGTERM to the runner in its parallel phase: the forked process running the endless case
    ends with it (before, the runner died alone and its case processes ran on), the exit
    status is 128 + 15 and the previous record of the case is kept."""
    before = first_record(tmp_path)
    second = runner(tmp_path, "parallel")
    try:
        wait_until_looping(tmp_path, second)
        time.sleep(0.5)                           # the pid is written with the file's creation
        case_pid = int((tmp_path / "looping").read_text())
        assert case_pid != second.pid
        second.send_signal(signal.SIGTERM)
        code = second.wait(timeout=120)
    finally:
        if second.poll() is None:
            second.kill()
            second.wait()
            pytest.fail("python -m validation did not stop after SIGTERM")
    # the runner joined its case processes before it exited: nothing left to wait for
    left = Path(f"/proc/{case_pid}").exists() and \
        Path(f"/proc/{case_pid}/stat").read_text().split()[2] != "Z"
    if left:  # the defect: an endless case orphaned; stop it so that it holds no pipe of ours
        os.kill(case_pid, signal.SIGKILL)
    assert not left
    assert code == 128 + signal.SIGTERM, second.stderr.read()
    assert json.loads((tmp_path / "case" / "result.json").read_text()) == before
