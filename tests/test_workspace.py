"""The work arrays' arena: disjoint views of one buffer, zeroed, on cache lines."""
import numpy as np

from rancf.workspace import arena


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
