"""rancf's validation layer: the papers' reference cases, rerun and reported.

Every case lives in ``validation/cases/<name>.py`` and exposes ``CASE``, a
:class:`validation.case.Case`. ``python -m validation`` runs them and writes the report.

BLAS and OpenMP run single-threaded here (unless the environment already says otherwise),
set before numpy loads: rancf computes on one core, so timings compare one core with one
core; and on a shared 2-core machine OpenBLAS threads made a 260 x 260 LU 100 times slower
(0.28 s instead of 2.4 ms, measured), which would bias the dense baselines.
"""
import os

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")
