"""A sweep store's file is written whole or not at all (issue 26; README, Reliability): a write
that stops midway (Ctrl-C, a full disk) leaves the previous file as it was and no temporary."""
import os
import sys

import pytest

import rancf  # noqa: F401  (rancf.sweep the module, below)

store_module = sys.modules["rancf.sweep"]


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
