"""A run whose load function fails (raises, or returns NaN) at an output time, strictly between
two, or at the first evaluation of a step that starts at an output (RK4 evaluates there again
after the step that ended there: the output's state is stored before its input values are
kept), and on every call after (a sensor lost for good), returns a Result with status "failed",
the frames before the failing call and the function's values at them: the compiled loops
(RK4, DOPRI5) as the implicit one does. Before, a failure at the first evaluation of a step
from an output left that output without its input values, and mapping the frames called the
function again: ``simulate`` raised its error.

Everything is compared with an independent run: the same model, the same function but one
that does not fail, to the last output before the failing call (the same steps, so the same
bits), and the function itself at the output times."""
import numpy as np
import pytest

import rancf
from test_scipy_user_failure import pinned_beam

T_END = 0.02            # s
OUTPUTS = 10            # steps an output


def load(dim):
    """The load's value at t (s): a force growing in time along -y (planar) or -z (N)."""
    if dim == 2:
        return lambda t: (0.0, -1.0 - 50.0 * t)
    return lambda t: (0.0, 0.0, -1.0 - 50.0 * t)


def failing(dim, mode, trigger):
    """The load of :func:`load`, failing (``mode`` "raise" or "nan") at its first call where
    ``trigger(t, n)`` is true (n: how many calls at exactly that t so far, this one included),
    and at every call after; ``calls`` its arguments, ``failed`` the time of its first failure."""
    value = load(dim)
    calls, failed = [], []

    def f(t):
        calls.append(t)
        if failed or trigger(t, calls.count(t)):
            failed.append(t)
            if mode == "raise":
                raise RuntimeError("sensor lost")
            return (np.nan,) * dim
        return value(t)
    f.calls, f.failed = calls, failed
    return f


def run(dim, force, method, t_end=T_END):
    """The run of :func:`pinned_beam` (steps of 0.1 ms planar, 50 us spatial)."""
    m, end = pinned_beam(dim, force)
    dt = 1e-4 if dim == 2 else 5e-5
    return rancf.simulate(m, t_end, dt, method=method, output_every=OUTPUTS), end


def output_times(dim):
    """The output times of a run to T_END (a run of the load that does not fail)."""
    return run(dim, load(dim), "rk4")[0].t


#: Where the function starts failing, given the output times: at an output time (the first
#: call there), strictly between two outputs, at the second call at an output time (RK4's
#: first evaluation of the step from that output; DOPRI5's first-same-as-last stage; an
#: implicit step's Newton iteration), and at the second call at the last output (RK4's last
#: evaluation, the one that keeps the last output's values).
TRIGGERS = {
    "at-output": lambda t_out: lambda t, n: t >= t_out[len(t_out) // 2],
    "between": lambda t_out: lambda t, n: t >= 0.6 * t_out[len(t_out) // 2]
    + 0.4 * t_out[len(t_out) // 2 + 1],
    "step-from-output": lambda t_out: lambda t, n: t == t_out[len(t_out) // 2] and n >= 2,
    "last-output": lambda t_out: lambda t, n: t == t_out[-1] and n >= 2,
}


@pytest.mark.parametrize("trigger", list(TRIGGERS))
@pytest.mark.parametrize("mode", ["raise", "nan"])
@pytest.mark.parametrize("dim", [2, 3])
@pytest.mark.parametrize("method", ["rk4", "dopri5", "generalized-alpha"])
def test_a_run_whose_load_fails_keeps_its_frames_and_their_inputs(method, dim, mode, trigger):
    t_out = output_times(dim)
    f = failing(dim, mode, TRIGGERS[trigger](t_out))
    res, end = run(dim, f, method)
    if not f.failed:
        # the method never calls the function there a second time (DOPRI5 at the last
        # output): a run that went well, its every input value recorded
        assert res.status == "ok" and np.array_equal(res.t, t_out)
    else:
        assert res.status == "failed"
        if mode == "raise":
            assert isinstance(res.error, rancf.UserFunctionError)
            assert type(res.error.__cause__) is RuntimeError
        else:
            assert isinstance(res.error, rancf.ReturnedValueError)
        assert "force of load 0" in res.message
        # the frames: every output before the failing call (the loops land on the outputs)
        t_fail = f.failed[0]
        assert np.array_equal(res.t, t_out[t_out < t_fail])
    n = len(res.t)
    assert n >= 2
    # an independent run: the function that does not fail, to the last good output
    same, end_same = run(dim, load(dim), method, t_end=res.t[-1])
    assert np.array_equal(same.t, res.t)
    assert np.array_equal(res.nodes, same.nodes)
    assert np.array_equal(res.velocities, same.velocities)
    # the recorded values are the function's at the outputs; the accelerations they give,
    # those of the independent run
    assert res.inputs is not None and len(res.inputs.rows) == n
    value = load(dim)
    for k, t in enumerate(res.t):
        row = res.inputs.rows[k]
        kept = row["load_force"][0] if dim == 2 else row[0]
        assert np.array_equal(kept, np.array(value(t)))
    calls = len(f.calls)
    assert np.array_equal(res.acceleration(end), same.acceleration(end_same))
    assert len(f.calls) == calls        # played back, not called


@pytest.mark.parametrize("method", ["rk4", "dopri5"])
@pytest.mark.parametrize("dim", [2, 3])
def test_a_load_failing_at_its_second_call_at_the_start_raises(method, dim):
    """The set-up evaluates the start once (rancf.integrators.explicit.start_inputs), the
    loop's first stage again, keeping the start's values: a function failing there leaves no
    output, and raises out of the run as one failing at its first call does."""
    f = failing(dim, "raise", lambda t, n: t == 0.0 and n >= 2)
    with pytest.raises(rancf.UserFunctionError, match="force of load 0 raised RuntimeError"):
        run(dim, f, method)
    assert f.failed == [0.0]


def others(dim, kind, trigger):
    """A beam of :func:`pinned_beam` under the load of :func:`load` whose pin has an effort
    ``-0.5 q + 2 t`` (``kind`` "effort") or a drive ``q = t^2`` ("drive"), that one failing
    (raising) as :func:`failing` says; and the one function made to fail."""
    calls, failed = [], []
    if kind == "effort":
        def good(t, q, qd):
            return -0.5 * q + 2.0 * t
    else:
        def good(t):
            return (t * t, 2.0 * t, 2.0)

    def f(t, *args):
        calls.append(t)
        if failed or trigger(t, calls.count(t)):
            failed.append(t)
            raise RuntimeError("sensor lost")
        return good(t, *args)
    f.calls, f.failed, f.good = calls, failed, good
    m, end = pinned_beam(dim, load(dim))
    setattr(m.joints[0], kind, f)
    return m, end, f


def run_model(m, dim, method, t_end=T_END):
    dt = 1e-4 if dim == 2 else 5e-5
    return rancf.simulate(m, t_end, dt, method=method, output_every=OUTPUTS)


@pytest.mark.parametrize("trigger", ["at-output", "step-from-output"])
@pytest.mark.parametrize("kind", ["effort", "drive"])
@pytest.mark.parametrize("dim", [2, 3])
@pytest.mark.parametrize("method", ["rk4", "dopri5"])
def test_an_effort_or_drive_failing_keeps_the_frames(method, dim, kind, trigger):
    """The same with the function that fails an effort of (t, q, qd) or a drive."""
    t_out = output_times(dim)
    m, end, f = others(dim, kind, TRIGGERS[trigger](t_out))
    res = run_model(m, dim, method)
    assert res.status == "failed" and isinstance(res.error, rancf.UserFunctionError)
    assert f"{kind} of joint 0 raised RuntimeError" in res.message
    assert np.array_equal(res.t, t_out[t_out < f.failed[0]])
    good, end_good, g = others(dim, kind, lambda t, n: False)
    same = run_model(good, dim, method, t_end=res.t[-1])
    assert np.array_equal(res.nodes, same.nodes)
    assert res.inputs is not None and len(res.inputs.rows) == len(res.t)
    calls = len(f.calls)
    assert np.array_equal(res.acceleration(end), same.acceleration(end_good))
    assert len(f.calls) == calls
