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


@pytest.fixture
def spatial_dae_builds(monkeypatch):
    """A list that gets one entry each time statics builds a spatial DAE (for its stability
    test): empty where the static tangent's pivots decided stability alone."""
    from rancf.integrators import static as static_module
    built = []
    original = static_module.SpatialDAE

    def counted(*args, **kwargs):
        built.append(1)
        return original(*args, **kwargs)
    monkeypatch.setattr(static_module, "SpatialDAE", counted)
    return built
