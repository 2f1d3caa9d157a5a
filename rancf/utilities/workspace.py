"""One buffer for a kernel's arrays.

The compiled kernels sweep their arrays once or more per Newton iteration. On a long chain
(100,000 DOF: 25,000 vertices) each array is a few MB or less, below the 4 MB from which numpy
asks the operating system for huge pages (``madvise``), so sweeps over separate arrays cross a
4 KB page every 512 doubles of each. Views of one buffer share its huge pages, which keeps the
cost of a step per degree of freedom nearly constant up to 100,000 DOF (fewer TLB misses).
"""
import numpy as np


#: The alignment of every view (bytes): a cache line.
LINE = 64


def _buffer(nbytes):
    """Views (uint8) of one zeroed buffer of the byte sizes ``nbytes`` (dict of str to int),
    each starting on a cache line (numpy aligns to 16 bytes only)."""
    offsets, total = {}, 0
    for name, n in nbytes.items():
        offsets[name] = total
        total += -(-max(n, 1) // LINE) * LINE
    buffer = np.zeros(total + LINE, dtype=np.uint8)
    start = -buffer.ctypes.data % LINE
    return {name: buffer[start + offsets[name]:start + offsets[name] + n]
            for name, n in nbytes.items()}


def pack(arrays):
    """Copies of ``arrays`` as views of one buffer, each starting on a 64-byte cache line.

    Parameters
    ----------
    arrays : dict of str to ndarray
        Any shapes and dtypes.

    Returns
    -------
    dict of str to ndarray
        C-contiguous copies, same names (in the order given), shapes and dtypes.
    """
    arrays = {name: np.ascontiguousarray(a) for name, a in arrays.items()}
    views = _buffer({name: a.nbytes for name, a in arrays.items()})
    out = {}
    for name, a in arrays.items():
        view = views[name].view(a.dtype).reshape(a.shape)
        view[...] = a
        out[name] = view
    return out


def arena(sizes):
    """Zeroed float64 arrays of the given sizes (>= 0), views of one buffer (:func:`pack`'s
    layout, without making and copying the zeros it would be handed).

    Examples
    --------
    >>> w = arena({"x": 3, "v": 5})
    >>> w["x"].shape, w["v"].shape, w["v"].base is w["x"].base
    ((3,), (5,), True)
    """
    width = np.dtype(np.float64).itemsize
    views = _buffer({name: width * int(size) for name, size in sizes.items()})
    return {name: view.view(np.float64) for name, view in views.items()}
