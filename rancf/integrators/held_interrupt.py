"""Ctrl-C held back while a finished run's outputs are mapped (developer: Ctrl-C and progress
in compiled loops).

The stepping loops keep states only and return them with a status; the formulation maps them
to the model-level arrays afterwards (``observe``, ``observe_frames``). A Ctrl-C in that
mapping would raise out of the integrator and lose a run whose steps are all done. Inside
:func:`held_interrupt` SIGINT only sets a flag; the integrator then returns its outputs with
status "interrupted" (the run's steps are all there; the message says when the Ctrl-C came).
Signal handlers belong to the main thread: elsewhere the block runs as it is (Ctrl-C reaches
the main thread only). A serial sweep notes a Ctrl-C the same way but passes it on
(``pass_on=True``), so that the row it stops is recorded "interrupted".
"""
import contextlib
import signal
import threading


class Caught:
    """Whether a SIGINT arrived in the block (``bool(caught)``)."""

    def __init__(self):
        self.signal = False

    def __bool__(self):
        return self.signal


@contextlib.contextmanager
def held_interrupt(pass_on=False):
    """A block in which a SIGINT sets ``caught``; the previous handler is restored on leaving
    it. Yields a :class:`Caught`.

    ``pass_on`` False: the SIGINT is held back (no KeyboardInterrupt), what a finished run's
    mapping needs. True: it is noted and then handled as before (the previous handler called:
    a sweep's row is interrupted and the sweep knows it even when the row's code swallows the
    KeyboardInterrupt); under a previous handler not Python's (``SIG_IGN``, ``SIG_DFL``, one
    installed from C) the block runs as it is and ``caught`` stays False. Outside the main
    thread the block runs as it is either way (signal handlers belong to the main thread)."""
    caught = Caught()
    previous = signal.getsignal(signal.SIGINT) \
        if threading.current_thread() is threading.main_thread() else None
    if previous is None or (pass_on and not callable(previous)):
        yield caught
        return

    def note(signum, frame):
        caught.signal = True
        if pass_on:
            previous(signum, frame)

    # installed inside the try: a KeyboardInterrupt raised as the installing call returns
    # (Python runs pending handlers there; a Ctrl-C from a timer, for one) then still restores
    # the previous handler, instead of leaving ``note`` installed for good
    try:
        signal.signal(signal.SIGINT, note)
        yield caught
    finally:
        signal.signal(signal.SIGINT, previous)


def after_steps(status, message, caught, t_end):
    """``(status, message)`` of a run whose outputs were mapped under ``caught``: an "ok" run
    that a Ctrl-C reached after its last step becomes "interrupted", with all its steps."""
    if caught and status == "ok":
        return "interrupted", (f"interrupted (Ctrl-C) after the last step (t = {t_end:.6g} s), "
                               "while the outputs were prepared: the run is complete")
    return status, message
