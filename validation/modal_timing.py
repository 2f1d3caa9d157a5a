"""The time-accounting table of the adaptive-modal paper (tables 2 and 4), ours beside the paper's."""
import numpy as np
import pandas as pd

from rancf.formulations.reduced.greedy_gauss_newton import STATUSES
# the cases' context of one BLAS thread: rancf's, which holds across threads (its docstring)
from rancf.formulations.spatial_dae import one_blas_thread  # noqa: F401

#: BLAS threads of every timed run of the adaptive-modal cases (``modal``, ``rrr``, inside
#: :func:`one_blas_thread`): the full model's sparse and dense DAE and the adaptive step run
#: alike, whatever the environment says (:mod:`validation` sets one where it says nothing); two
#: threads waiting for each other at every BLAS call of a dense solve on cores shared with other
#: processes time the load, not the method.
BLAS_THREADS = 1


#: our full step, the compiled sparse DAE's, as :func:`adaptive_cost` describes it
SPARSE_STEP = ("Our full step is the compiled loop's modified Newton on the sparse banded "
               "saddle-point matrix (O(n), the matrix kept while Newton contracts).")


def dense_step(result, unknowns):
    """The dense DAE's step (the paper's conventional method) with its measured work, for
    :func:`adaptive_cost` (``result``: its Result; ``unknowns``: coordinates and multipliers,
    the saddle-point matrix's size): a solve of O(n^2) per Newton iteration and an LU of
    O(n^3) whenever modified Newton renews the matrix."""
    steps = max(result.stats["steps"], 1)
    return (f"The dense DAE's step solves with a dense LU of its {unknowns} x {unknowns} "
            f"saddle-point matrix {result.stats['newton_iterations'] / steps:.1f} times (O(n^2) "
            f"each) and factorizes it anew (O(n^3)) once every "
            f"{steps / max(result.stats['nlu'], 1):.1f} steps (modified Newton: the matrix kept "
            "while the iteration contracts).")


def adaptive_cost(result, full_step=SPARSE_STEP):
    """Why the adaptive step costs more than the full one, with the run's measured work per step
    (``result``: the adaptive run's Result; see the timing table); ``full_step``: the full
    step it is held to, described (:data:`SPARSE_STEP` or :func:`dense_step`)."""
    steps = max(result.stats["steps"], 1)
    return (f"{full_step} The adaptive step "
            f"evaluates the full model's residual and Jacobian {result.stats['njev'] / steps:.1f} "
            "times per step (greedy Gauss-Newton iterations), and at each builds a dense QR of "
            "the sampled Jacobian on the support and projects every candidate mode on it "
            f"(eq. 37); its steps ended {outcomes(result)}.")


#: how the full model's time split is measured
FULL_TIMING = ("Time split of the full model: the same loop and Newton iterations with the DAE "
               "called from Python (rancf.formulations.reduced.TimedDAE), so that residual terms "
               "and matrix assembly ('updates') are timed apart from SuperLU's factorizations and "
               "solves ('matrix'); the row 'compiled' is the ordinary run (rancf.simulate, "
               "formulation 'dae'), whose evaluations run in C and are not split.")


def timing_table(runs, paper_times, paper_steps):
    """One row per method: our time split (s) and per-step cost beside the paper's MATLAB times.

    Parameters
    ----------
    runs : sequence of (name, Result, paper name or None)
        A timed Result has ``stats["time_matrix"]`` and ``stats["time_update"]`` (s) and
        ``stats["time_setup"]`` for a reduced model; the total is ``wall_time``.
    paper_times : dict
        paper name -> (matrix operations, Jacobian/stiffness/residual updates, total) in s.
    paper_steps : int
        Steps of the paper's run (its per-step cost is total / paper_steps).
    """
    rows = []
    for name, res, paper in runs:
        mat, upd, tot = paper_times[paper] if paper is not None else (np.nan,) * 3
        steps = res.stats["steps"]
        rows.append({"method": name, "simulated (s)": res.t[-1], "steps": steps,
                     "matrix operations (s)": res.stats.get("time_matrix", np.nan),
                     "Jacobian/stiffness/residual updates (s)": res.stats.get("time_update", np.nan),
                     "total (s)": res.wall_time, "setup (s)": res.stats.get("time_setup", 0.0),
                     "total per step (ms)": 1e3 * res.wall_time / max(steps, 1),
                     "paper matrix (s)": mat, "paper updates (s)": upd, "paper total (s)": tot,
                     "paper per step (ms)": 1e3 * tot / paper_steps})
    return pd.DataFrame(rows)


def outcomes(result):
    """Steps per greedy Gauss-Newton outcome of an adaptive run, e.g. {'converged': 3, ...}."""
    return {k: result.stats[f"greedy_{k}"] for k in STATUSES if result.stats[f"greedy_{k}"]}
