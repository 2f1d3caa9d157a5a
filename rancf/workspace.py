"""One buffer for a kernel's work arrays.

The compiled kernels sweep their work arrays once or more per Newton iteration. On a long chain
(100,000 DOF: 25,000 vertices) each array is a few MB, below the 4 MB from which numpy asks
the kernel for huge pages (``madvise``), and the sweeps' reads then miss the TLB every 4 KB
page, costly under a virtual machine's nested paging: there, an implicit RANCF step cost
about 1.5 times as much per DOF at 100,000 DOF as at 880. Views of one buffer share its huge
pages, and the same step then costs about what it costs at 880 DOF.
"""
import numpy as np


def arena(sizes):
    """Zeroed float64 arrays, views of one buffer, each starting on a 64-byte cache line.

    Parameters
    ----------
    sizes : dict of str to int
        Number of doubles of each array (>= 0).

    Returns
    -------
    dict of str to ndarray
        One C-contiguous 1-d array per name, in the order given.

    Examples
    --------
    >>> w = arena({"x": 3, "v": 5})
    >>> w["x"].shape, w["v"].shape, w["v"].base is w["x"].base
    ((3,), (5,), True)
    """
    offsets, total = {}, 0
    for name, size in sizes.items():
        offsets[name] = total
        total += -(-max(int(size), 1) // 8) * 8     # 8 doubles = 64 bytes
    buffer = np.zeros(total + 8)
    start = (-buffer.ctypes.data % 64) // 8     # numpy aligns to 16 bytes only
    return {name: buffer[start + offsets[name]:start + offsets[name] + int(size)]
            for name, size in sizes.items()}
