"""The kernels' arrays in one buffer: disjoint views, on cache lines, with the values given."""
import numpy as np

from rancf.utilities.workspace import arena, pack


def test_arena_arrays_are_disjoint_zeroed_and_cache_line_aligned():
    sizes = {"a": 3, "b": 0, "c": 8, "d": 17}
    w = arena(sizes)
    assert list(w) == list(sizes)
    for name, size in sizes.items():
        assert w[name].shape == (size,) and w[name].flags.c_contiguous and not w[name].any()
        if size:
            assert w[name].ctypes.data % 64 == 0
    for name in sizes:
        w[name][:] = 1.0
        assert all(not w[other].any() for other in sizes if other != name)
        w[name][:] = 0.0


def test_arena_is_one_buffer():
    """One allocation: numpy asks for huge pages from 4 MB on (rancf/workspace.py)."""
    w = arena({"x": 300_000, "v": 300_000})
    assert w["x"].base is w["v"].base and w["x"].base.nbytes >= 4_800_000


def test_pack_copies_arrays_of_any_dtype_and_shape():
    """Each view holds its array's values, dtype and shape (against the originals), is
    C-contiguous and 64-byte aligned, and writing it leaves the originals and the others alone."""
    rng = np.random.default_rng(0)
    given = {"i": np.arange(7, dtype=np.intc), "x": rng.standard_normal((3, 5)),
             "t": rng.standard_normal(10)[::2], "e": np.zeros(0)}
    originals = {name: a.copy() for name, a in given.items()}
    w = pack(given)
    for name, a in originals.items():
        assert w[name].dtype == a.dtype and w[name].shape == a.shape and np.array_equal(w[name], a)
        assert w[name].flags.c_contiguous
        if a.size:
            assert w[name].ctypes.data % 64 == 0
    w["x"][:] = 0.0
    w["i"][:] = -1
    assert np.array_equal(given["x"], originals["x"]) and np.array_equal(w["t"], originals["t"])
    assert np.array_equal(w["i"], np.full(7, -1, dtype=np.intc))
