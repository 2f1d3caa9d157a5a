"""Progress bars (tqdm): of one long run (``rancf.simulate(..., progress=True)``) and of a sweep.

tqdm is needed only to show a bar (the ``sweep`` and ``test`` extras have it).
"""
import sys
import time

#: Wall time (s) between two reports of a loop written in Python (the compiled loops report at
#: their Ctrl-C checks, every 0.1 s: rancf.integrators._interrupt).
PERIOD = 0.1


def check(progress):
    """``progress`` if it is True, False or "always" (ValueError otherwise)."""
    if not (isinstance(progress, bool) or (isinstance(progress, str) and progress == "always")):
        raise ValueError(f"progress must be True, False or 'always', got {progress!r}")
    return progress


def bar(progress, hint="pip install tqdm", **options):
    """A tqdm bar on stderr, or None.

    Parameters
    ----------
    progress : bool or "always"
        True shows the bar when stderr is a terminal, "always" also when it is not (a log, a
        notebook, a captured stream), False never.
    hint : str
        How to install tqdm, for the error when it is missing.
    options
        tqdm's keyword arguments.
    """
    if check(progress) is False or (progress is True and not sys.stderr.isatty()):
        return None
    try:
        from tqdm import tqdm
    except ImportError as exc:
        raise ImportError(f"tqdm (for the progress bar; progress=False needs none) is needed "
                          f"here and is not installed ({exc}); {hint}") from None
    return tqdm(file=sys.stderr, **options)


class RunProgress:
    """The progress of one run: simulated time out of ``t_end`` and steps per second.

    The stepping loops call ``report(t, steps)`` (:attr:`callback`, None without a bar) every
    0.1 s of wall time; a loop written in Python calls :meth:`poll` at every step instead.

    Parameters
    ----------
    progress : bool or "always"
        See :func:`bar`.
    t0, t_end : float
        Simulated interval (s).
    desc : str
        The bar's label (the method).
    unit : str
        What ``steps`` counts ("steps", or "evaluations" for scipy's solvers).
    """

    def __init__(self, progress, t0, t_end, desc, unit="steps"):
        self.t0, self.unit, self.steps = t0, unit, 0
        self.bar = bar(progress, total=t_end - t0, desc=desc, unit="s",
                       bar_format="{desc}: {percentage:3.0f}%|{bar}| {n:.4g}/{total:.4g} s "
                                  "simulated [{elapsed}<{remaining}{postfix}]")
        self.start = self.last = time.perf_counter()

    @property
    def callback(self):
        """What the loops call, or None when no bar is shown (the loops then report nothing)."""
        return None if self.bar is None else self.report

    def report(self, t, steps):
        """The run is at simulated time t (s) after ``steps`` steps."""
        now = time.perf_counter()
        self.last, self.steps = now, steps
        self.bar.set_postfix_str(f"{steps / max(now - self.start, 1e-9):,.0f} {self.unit}/s",
                                 refresh=False)
        done = max(t - self.t0, 0.0)
        if abs(done - self.bar.total) <= 1e-9 * self.bar.total:
            done = self.bar.total       # t summed step by step: the last step lands on t_end
        self.bar.update(done - self.bar.n)

    def poll(self, t):
        """One more step at simulated time t, reported every :data:`PERIOD` s of wall time."""
        self.steps += 1
        if self.bar is not None and time.perf_counter() - self.last >= PERIOD:
            self.report(t, self.steps)

    def close(self, t, steps=None):
        """The run ended at t (s) after ``steps`` steps (default: those counted by poll)."""
        if self.bar is not None:
            self.report(t, self.steps if steps is None else steps)
            self.bar.close()
