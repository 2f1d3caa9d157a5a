"""A sweep store's file is written whole or not at all (issue 26; README, Reliability): a write
that stops midway (Ctrl-C, a full disk) leaves the previous file as it was and no temporary."""
import os
import signal
import subprocess
import sys

import pytest

import rancf  # noqa: F401  (rancf.studies.sweep the module, below)

store_module = sys.modules["rancf.studies.sweep"]


@pytest.mark.parametrize("stop", [KeyboardInterrupt, OSError])
def test_a_store_write_stopped_midway_leaves_the_previous_file(tmp_path, monkeypatch, stop):
    """The write stops at the sync of its temporary (its bytes written, not yet renamed): the
    file keeps its previous bytes, and the folder holds nothing else."""
    path = tmp_path / "study.csv"
    store_module._atomic_write(str(path), b"E,status\n1.0,ok\n")

    def stopped(fd):
        raise stop("stopped")
    monkeypatch.setattr(os, "fsync", stopped)
    with pytest.raises(stop):
        store_module._atomic_write(str(path), b"E,status\n1.0,ok\n2.0,ok\n")
    assert path.read_bytes() == b"E,status\n1.0,ok\n"
    assert os.listdir(tmp_path) == ["study.csv"]


KILLED_WRITE = """
import os, signal, sys
import rancf  # noqa: F401
store_module = sys.modules["rancf.studies.sweep"]
store_module._atomic_write(sys.argv[1], b"E,status\\n1.0,ok\\n")
os.fsync = lambda fd: os.kill(os.getpid(), signal.SIGKILL)   # kill -9 before the rename
store_module._atomic_write(sys.argv[1], b"E,status\\n1.0,ok\\n2.0,ok\\n")
"""


@pytest.mark.skipif(os.name != "posix", reason="kill -9 and a process's liveness: POSIX")
def test_a_temporary_left_by_a_killed_store_write_is_removed_by_the_next_write(tmp_path):
    """kill -9 of a sweep between the sync and the rename of a store write leaves its
    temporary; the next write to the store's folder (a resume) removes it (its process is
    gone), as the next ``save`` does (rancf.results.files.atomic_write), and the file holds
    the previous bytes, then the new."""
    path = tmp_path / "study.csv"
    child = subprocess.run([sys.executable, "-c", KILLED_WRITE, str(path)],
                           capture_output=True, text=True, timeout=300,
                           cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    assert child.returncode == -signal.SIGKILL, child.stderr[-2000:]
    assert path.read_bytes() == b"E,status\n1.0,ok\n"
    assert len(os.listdir(tmp_path)) == 2                # the file and the temporary
    store_module._atomic_write(str(path), b"E,status\n1.0,ok\n2.0,ok\n")
    assert os.listdir(tmp_path) == ["study.csv"]
    assert path.read_bytes() == b"E,status\n1.0,ok\n2.0,ok\n"
