"""asv benchmarks of rancf (run asv from the folder above; see docs/user_guide/validation.rst).

BLAS and OpenMP run single-threaded in the benchmark processes (set before numpy loads,
unless the environment says otherwise), as in the validation layer: rancf computes on one
core, and multi-threaded OpenBLAS on a shared 2-core machine made the dense DAE's LU up to
100x slower (3 s per 10 steps at 220 DOF), which measured contention rather than the code.
"""
import os

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")
