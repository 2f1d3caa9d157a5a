"""Hostile Result files (issue 26, finding 5): ``rancf.load`` checks every member's header
against the others and against the sizes the archive records before it decompresses anything,
refuses what is not a regular file without opening it, checks the values, and says what is
wrong in its own words. The files are crafted here, byte by byte where numpy would not write
them (a zip bomb member is a few MB on disk)."""
import io
import json
import os
import signal
import socket
import stat
import struct
import subprocess
import sys
import threading
import tracemalloc
import zlib
from pathlib import Path

import numpy as np
import pytest

import rancf

MiB = 2**20


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    """A small run's file, its arrays (read back by numpy from the file rancf wrote) and
    its model."""
    m = rancf.pendulum(n_bodies=1, elements_per_body=2, body_length=1.0)
    path = tmp_path_factory.mktemp("files") / "good.npz"
    rancf.simulate(m, 0.01, 1e-3).save(path)
    with np.load(path, allow_pickle=False) as f:
        arrays = {k: f[k] for k in f.files}
    return path, arrays, m


def npy(array):
    buffer = io.BytesIO()
    np.lib.format.write_array(buffer, np.asarray(array), allow_pickle=True)
    return buffer.getvalue()


def deflated(data):
    c = zlib.compressobj(6, zlib.DEFLATED, -15)
    return c.compress(data) + c.flush()


def member(name, data):
    """A deflated member: (name, method, compressed bytes, size, crc)."""
    return name, 8, deflated(data), len(data), zlib.crc32(data)


def zeros_member(name, shape, crc=False):
    """A deflated member whose header declares float64 ``shape``, all zeros, written without
    ever holding its data: one deflate block of 1 MiB of zeros, ended by a full flush (so that
    it refers to nothing before it), repeated. Its CRC is left 0 unless ``crc``: a member that
    must never be read whole needs none."""
    header = io.BytesIO()
    np.lib.format.write_array_header_1_0(header, {"descr": "<f8", "fortran_order": False,
                                                  "shape": tuple(shape)})
    header = header.getvalue()
    n = int(np.prod(shape)) * 8
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    head = c.compress(header) + c.flush(zlib.Z_FULL_FLUSH)
    block = c.compress(bytes(MiB)) + c.flush(zlib.Z_FULL_FLUSH)
    tail = c.compress(bytes(n % MiB)) + c.flush(zlib.Z_FINISH)
    check = 0
    if crc:
        check = zlib.crc32(header)
        for _ in range(n // MiB):
            check = zlib.crc32(bytes(MiB), check)
        check = zlib.crc32(bytes(n % MiB), check)
    return name, 8, head + block * (n // MiB) + tail, len(header) + n, check


def write_zip(path, members, sizes=None):
    """A zip archive of ``members`` (name, method, data, size, crc), written by hand (no zip64:
    sizes below 4 GiB). ``sizes``: name -> uncompressed size recorded instead of the true one."""
    out, central = bytearray(), bytearray()
    for name, method, data, size, crc in members:
        size = (sizes or {}).get(name, size)
        raw = name.encode()
        offset = len(out)
        out += struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0, method, 0, 0, crc, len(data),
                           size, len(raw), 0) + raw + data
        central += struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 20, 20, 0, method, 0, 0, crc,
                               len(data), size, len(raw), 0, 0, 0, 0, 0, offset) + raw
    end = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, len(members), len(members), len(central),
                      len(out), 0)
    with open(path, "wb") as f:
        f.write(bytes(out + central + end))


def rewrite(path, arrays, **changed):
    """The Result file of ``arrays`` with some replaced (a member None: left out)."""
    arrays = {**arrays, **changed}
    write_zip(path, [member(f"{k}.npy", npy(v)) for k, v in arrays.items() if v is not None])


def refused(path, *words, model=None, error=ValueError):
    """load(path) raises ``error`` naming the path and saying ``words``, expanding no more
    than 64 MiB on the way (tracemalloc sees numpy's arrays and zipfile's buffers)."""
    tracemalloc.start()
    try:
        with pytest.raises(error) as info:
            rancf.load(path, model=model)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    message = str(info.value)
    assert str(path) in message and all(w in message for w in words), message
    assert peak < 64 * MiB, f"{peak / MiB:.0f} MiB expanded before refusing: {message}"
    return message


def test_the_hand_written_archive_is_a_valid_result(tmp_path, saved):
    """The writer of the crafted files is right: unchanged arrays load back equal."""
    path, arrays, m = saved
    copy = tmp_path / "copy.npz"
    rewrite(copy, arrays)
    back, good = rancf.load(copy, model=m), rancf.load(path, model=m)
    assert np.array_equal(back.nodes, good.nodes) and np.array_equal(back.t, good.t)


def test_a_zip_bomb_member_is_refused_before_it_is_expanded(tmp_path, saved):
    """The issue's bomb: a member that expands to 3 GiB of zeros (3 MB on disk) whose shape
    disagrees with the other arrays. numpy's loader expanded it (42 s, 4.2 GiB) before the
    shapes were compared; now its header is compared first."""
    _, arrays, _ = saved
    n = len(arrays["t"])
    path = tmp_path / "bomb.npz"
    members = [member(f"{k}.npy", npy(v)) for k, v in arrays.items() if k != "velocities"]
    members.append(zeros_member("velocities.npy", (n, 3 * 2**30 // (32 * n), 4)))
    write_zip(path, members)
    assert os.path.getsize(path) < 4 * MiB
    refused(path, "velocities")


def test_a_consistent_bomb_is_refused_by_its_values_before_its_bulk_is_expanded(tmp_path,
                                                                                   saved):
    """Every shape agrees (a million outputs of 100 vertices: 6.4 GB of coordinates from 6 MB
    on disk): the times are read first (8 MB), all zero, not increasing, and the file is
    refused before the coordinates are expanded (or, on a machine with less memory, by the
    memory check of the headers' total)."""
    _, arrays, _ = saved
    n, nv, nj = 10**6, 100, arrays["joint_q"].shape[1]
    path = tmp_path / "consistent-bomb.npz"
    members = [member("meta.npy", npy(arrays["meta"])), zeros_member("t.npy", (n,), crc=True),
               zeros_member("nodes.npy", (n, nv, 4)), zeros_member("velocities.npy", (n, nv, 4))]
    members += [zeros_member(f"{k}.npy", (n, nj)) for k in ("joint_q", "joint_qd", "reactions")]
    members += [zeros_member(f"{k}.npy", (n,)) for k in ("work", "dissipated", "kinetic",
                                                           "elastic", "gravity")]
    write_zip(path, members)
    assert os.path.getsize(path) < 8 * MiB
    try:
        refused(path, "increase strictly")
    except AssertionError:
        refused(path, "GiB", error=MemoryError)


@pytest.mark.parametrize("claim", ["deflate", "stored"])
def test_a_member_claiming_more_than_its_compression_can_give_is_refused(tmp_path, saved,
                                                                         claim):
    """Deflate expands at most 1032 times; a stored member holds what it has."""
    _, arrays, _ = saved
    path = tmp_path / "claims.npz"
    members = [member(f"{k}.npy", npy(v)) for k, v in arrays.items()]
    if claim == "stored":
        data = npy(arrays["nodes"])
        members = [m for m in members if m[0] != "nodes.npy"] + \
            [("nodes.npy", 0, data, len(data), zlib.crc32(data))]
    compressed = next(len(m[2]) for m in members if m[0] == "nodes.npy")
    write_zip(path, members, sizes={"nodes.npy": 1033 * compressed})
    refused(path, "nodes.npy claims")


def test_a_header_that_disagrees_with_the_recorded_size_is_refused(tmp_path, saved):
    """A header declaring a million rows over a member of a few hundred bytes."""
    _, arrays, _ = saved
    path = tmp_path / "header.npz"
    data = bytearray(npy(arrays["work"]))
    text = data[:128].decode("latin1")
    patched = text.replace(f"({len(arrays['work'])},)", "(1000000,)")
    patched = patched[:-1].ljust(127) + "\n"
    data[:128] = patched.encode("latin1")
    members = [member(f"{k}.npy", npy(v)) for k, v in arrays.items() if k != "work"]
    write_zip(path, members + [member("work.npy", bytes(data))])
    refused(path, "work.npy declares", "(1000000,)")


def test_a_fifo_is_refused_without_blocking(tmp_path):
    """Opening a FIFO for reading blocks until a writer comes: load stats it first. Run in a
    thread, so that a regression fails instead of hanging the suite."""
    path = tmp_path / "fifo.npz"
    os.mkfifo(path)
    outcome = []

    def load():
        try:
            rancf.load(path)
        except ValueError as exc:
            outcome.append(str(exc))
    worker = threading.Thread(target=load, daemon=True)
    worker.start()
    worker.join(60.0)
    if worker.is_alive():           # release it: a writer ends the blocking open
        with open(path, "wb"):
            pass
        worker.join(60.0)
        pytest.fail("load blocked on a FIFO")
    assert outcome and "a FIFO, not a regular file" in outcome[0]


def test_a_directory_is_refused_as_such(tmp_path):
    refused(tmp_path, "a directory, not a regular file")


def test_a_text_file_is_refused_in_rancfs_words(tmp_path):
    """numpy's own message for a text file is "contains pickled (object) data"."""
    path = tmp_path / "notes.npz"
    path.write_text("t, x\n0.0, 1.0\n")
    message = refused(path, "not a readable rancf Result file", "not a .npz archive")
    assert "pickle" not in message


def test_an_object_array_is_refused_without_unpickling(tmp_path, saved):
    """A pickled member (numpy writes one for an object array) is never loaded."""
    _, arrays, _ = saved

    class Boom:
        def __reduce__(self):
            return (os.abort, ())
    path = tmp_path / "pickle.npz"
    rewrite(path, arrays, extra__beta=np.array([Boom()] * len(arrays["t"]), dtype=object))
    refused(path, "extra__beta.npy holds object")


def test_an_unexpected_member_is_refused(tmp_path, saved):
    _, arrays, _ = saved
    path = tmp_path / "other.npz"
    rewrite(path, arrays, script=np.zeros(3))
    refused(path, "it holds 'script.npy'")


@pytest.mark.parametrize("name, where, value, words", [
    ("nodes", (-1, 0, 0), np.nan, "nodes must be finite"),
    ("velocities", (1, 2, 3), np.inf, "velocities must be finite"),
    ("kinetic", (1,), np.inf, "kinetic must be finite"),
    ("work", (0,), -np.inf, "work must be finite"),
    ("t", (1,), 0.0, "increase strictly"),
    ("t", (-1,), np.nan, "t must be finite")])
def test_values_no_run_writes_are_refused(tmp_path, saved, name, where, value, words):
    """The issue's findings: NaN coordinates under status "ok", infinite energies and equal
    times loaded silently."""
    _, arrays, _ = saved
    assert json.loads(str(arrays["meta"]))["status"] == "ok"
    changed = arrays[name].copy()
    changed[where] = value
    path = tmp_path / f"{name}.npz"
    rewrite(path, arrays, **{name: changed})
    refused(path, words)


def test_all_equal_times_are_refused(tmp_path, saved):
    _, arrays, _ = saved
    path = tmp_path / "equal.npz"
    rewrite(path, arrays, t=np.full_like(arrays["t"], 0.5))
    refused(path, "increase strictly")


@pytest.mark.parametrize("garbage", [
    {"items": 1, "joints": []}, {"items": [["beam", 2]], "joints": [["revolute", -1]]},
    {"items": [[1, 2]], "joints": []}, {"items": [["beam", "2"]], "joints": []}])
def test_a_garbage_layout_is_named_with_or_without_a_model(tmp_path, saved, garbage):
    """The layout of the meta record, checked whole: a garbage one gave "TypeError: object of
    type 'int' has no len()" when loaded with model=."""
    _, arrays, m = saved
    meta = json.loads(str(arrays["meta"]))
    meta["layout"] = garbage
    path = tmp_path / "layout.npz"
    rewrite(path, arrays, meta=np.array(json.dumps(meta)))
    for model in (None, m):
        refused(path, "model layout must hold lists of items", model=model)


# --- saving (finding 8) ------------------------------------------------------------------------
ROOT = Path(__file__).resolve().parent.parent

KILLED_SAVE = """
import os, signal, sys
import numpy as np
import rancf

res = rancf.simulate(rancf.pendulum(n_bodies=1, elements_per_body=2, body_length=1.0),
                     0.01, 1e-3)

def killed(f, **arrays):
    f.write(b"half an archive")
    f.flush()
    os.kill(os.getpid(), signal.SIGKILL)     # kill -9 in the middle of the write

np.savez_compressed = killed
res.save(sys.argv[1])
"""


def temporaries(folder):
    return sorted(n for n in os.listdir(folder) if n.startswith(".rancf-"))


def test_a_temporary_left_by_a_killed_save_is_removed_by_the_next_save(tmp_path, saved):
    """kill -9 during save left .rancf-*.npz temporaries forever. A save names its temporary
    after its host and process; the next save to the folder removes those whose process is
    gone, and leaves those of live processes (pid 1) and of other hosts."""
    _, _, m = saved
    target = tmp_path / "run.npz"
    child = subprocess.run([sys.executable, "-c", KILLED_SAVE, str(target)], cwd=ROOT,
                           capture_output=True, text=True, timeout=300)
    assert child.returncode == -signal.SIGKILL, child.stderr[-2000:]
    left = temporaries(tmp_path)
    assert len(left) == 1 and not target.exists()
    host = socket.gethostname()
    alive, elsewhere = f".rancf-{host}-1-0123abcd.npz", ".rancf-another-host-7-0123abcd.npz"
    for name in (alive, elsewhere):
        (tmp_path / name).write_bytes(b"")
    res = rancf.simulate(m, 0.01, 1e-3)
    res.save(target)
    assert temporaries(tmp_path) == sorted([alive, elsewhere])
    assert np.array_equal(rancf.load(target, model=m).nodes, res.nodes)


def test_save_syncs_its_temporary_before_the_rename(tmp_path, saved, monkeypatch):
    _, _, m = saved
    events = []
    fsync, replace = os.fsync, os.replace

    def synced(fd):
        events.append(("fsync", os.fstat(fd).st_ino))
        fsync(fd)

    def renamed(src, dst):
        events.append(("replace", os.stat(src).st_ino))
        replace(src, dst)
    monkeypatch.setattr(os, "fsync", synced)
    monkeypatch.setattr(os, "replace", renamed)
    rancf.simulate(m, 0.01, 1e-3).save(tmp_path / "run.npz")
    assert [e[0] for e in events] == ["fsync", "replace"] and events[0][1] == events[1][1]


def test_a_save_that_fails_while_writing_leaves_nothing(tmp_path, saved, monkeypatch):
    _, _, m = saved
    res = rancf.simulate(m, 0.01, 1e-3)

    def full(f, **arrays):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(np, "savez_compressed", full)
    with pytest.raises(OSError, match="cannot write .*run.npz: No space left"):
        res.save(tmp_path / "run.npz")
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("umask", [0o022, 0o002, 0o077])
def test_a_saved_file_has_the_users_umask(tmp_path, saved, umask):
    """Not mkstemp's 0600: the file is created with mode 0666 and the umask applies."""
    _, _, m = saved
    res = rancf.simulate(m, 0.01, 1e-3)
    old = os.umask(umask)
    try:
        res.save(tmp_path / "run.npz")
    finally:
        os.umask(old)
    assert stat.S_IMODE(os.stat(tmp_path / "run.npz").st_mode) == 0o666 & ~umask
