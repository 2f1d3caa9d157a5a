"""``python -m validation`` under SIGINT (issue 26, finding 2): the case running stops, its
previous results are kept (not replaced by an error record), the exit status is 130.

The runner runs in a subprocess whose registry holds one case (the runner's ``discover``
replaced) that behaves as the probe's did: a first run, then runs in a loop, compared with it or
not: a run cut short by Ctrl-C (rancf returns its Result with status "interrupted") raises a
broadcast ValueError in the comparison; without it, the loop would go on forever. A marker file
says when the case is in its loop; then the test sends SIGINT."""
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
        (out / "looping").write_text("")
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


def runner(out, mode):
    return subprocess.Popen([sys.executable, "-c", SCRIPT, str(out), mode], cwd=REPO,
                            env={**os.environ, "CI": "true"},
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


@pytest.mark.parametrize("mode", ["compares", "runs on", "parallel"])
def test_sigint_stops_the_case_keeps_its_previous_record_and_exits_130(tmp_path, mode):
    """"compares": the case fails on the run cut short (the probe's implicit-stiff); "runs on":
    it ignores the run's status and would run on forever (a study of many runs); "parallel":
    the case runs on in a process of the parallel phase, beside one that ends, which is kept."""
    first = runner(tmp_path, "fine")
    assert first.wait(timeout=300) == 0, first.stderr.read()
    before = json.loads((tmp_path / "case" / "result.json").read_text())
    assert before["status"] == "pass"

    second = runner(tmp_path, mode)
    try:
        for _ in range(3000):
            if (tmp_path / "looping").exists() or second.poll() is not None:
                break
            time.sleep(0.1)
        assert (tmp_path / "looping").exists(), second.stderr.read()
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
