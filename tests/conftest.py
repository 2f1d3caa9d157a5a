"""Fixtures of the whole test suite."""
import signal

import pytest


@pytest.fixture(autouse=True, scope="session")
def ctrl_c_raises():
    """Ctrl-C raises KeyboardInterrupt, however pytest was started.

    The interrupt tests send SIGINT and expect Python's handler. A shell without job control
    (a script, CI) starts a command run in the background (``&``) with SIGINT ignored, and
    Python then leaves it ignored: the runs came back "ok" instead of "interrupted". Installing
    the handler here also gives the processes the tests start the default action (an ignored
    signal stays ignored across exec, a handled one does not)."""
    previous = signal.getsignal(signal.SIGINT)
    if previous == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    if previous == signal.SIG_IGN:
        signal.signal(signal.SIGINT, previous)
