"""Shared fixtures of the validation tests."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def run_quick(tmp_path_factory):
    """``run_quick(names, timeout)``: ``python -m validation <names> --quick`` into a fresh folder;
    returns the process, ``{name: result.json}`` and the folder."""
    def run(names, timeout):
        out = tmp_path_factory.mktemp("quick")
        env = {**os.environ, "CI": "true", "MPLBACKEND": "Agg"}
        proc = subprocess.run([sys.executable, "-m", "validation", *names, "--quick", "--out", str(out)],
                              cwd=REPO, env=env, capture_output=True, text=True, timeout=timeout)
        records = {name: json.loads((out / name / "result.json").read_text()) for name in names}
        return proc, records, out
    return run
