"""A SciPy run whose load function fails (raises, or returns NaN) from t > T1 on, and on every
call after its first failure (a sensor lost for good), returns a failed Result with the frames
before the failure, as the compiled and implicit loops do: the run records the function's
values at each output as it produces it, and the Result's outputs play them back instead of
calling the function again (which would fail: before, the frames were mapped after the run
and ``simulate`` raised the function's error)."""
import numpy as np
import pytest

import rancf
from rancf.simulate import TOLERANCES

T1 = 0.01               # s: the load function fails after it
T_END = 0.03            # s
OUTPUTS = 10            # steps an output


def lost_after(t1, value, mode):
    """A load function returning ``value`` until t1 (s); from its first call after t1 on,
    at every call whatever its t, it raises (``mode`` "raise") or returns NaN ("nan")."""
    lost = []

    def f(t):
        if t > t1 or lost:
            lost.append(t)
            if mode == "raise":
                raise RuntimeError("sensor lost")
            return tuple(np.nan for _ in value)
        return value
    return f


def pinned_beam(dim, force):
    """A beam pinned at its start, ``force`` (a tuple, or a function of t) at its end; and its
    end. Planar: 1 m, 2 elements, E = 5 MPa (soft: its highest frequency is low); spatial:
    0.5 m, 2 elements, its hinge axis y, stable for RK4 below 96 us."""
    m = rancf.Model(dim=dim)
    if dim == 3:
        b = m.add_beam(0.5, 2, E=2e8, rho=7800.0, A=1e-4, I=(8.3e-10, 1.7e-9), J=2e-9,
                       G=2e8 / 2.6, start=(0.0, 0.0, 0.0), direction=(1.0, 0.0, 0.0),
                       up=(0.0, 0.6, 0.8))
        m.add_joint("revolute", m.ground.point(0, 0, 0), b.start, axis=(0.0, 1.0, 0.0))
    else:
        b = m.add_beam(1.0, 2, 5e6, 7800.0, 1e-4, 1e-9)
        m.add_joint("revolute", m.ground.point(0, 0), b.start)
    m.add_force(b.end, force=force)
    return m, b.end


def run(dim, force, method):
    """The run of :func:`pinned_beam` to T_END (steps of 0.1 ms planar, 50 us spatial)."""
    m, end = pinned_beam(dim, force)
    dt = 1e-4 if dim == 2 else 5e-5
    return rancf.simulate(m, T_END, dt, method=method, output_every=OUTPUTS), end


METHODS = ["scipy:RK45", "scipy:DOP853", "scipy:Radau", "scipy:BDF", "scipy:LSODA"]


@pytest.mark.parametrize("mode", ["raise", "nan"])
@pytest.mark.parametrize("dim", [2, 3])
@pytest.mark.parametrize("method", METHODS)
def test_a_scipy_run_whose_load_fails_keeps_its_frames(method, dim, mode):
    value = (0.0, -1.0) if dim == 2 else (0.0, 0.0, -1.0)
    res, end = run(dim, lost_after(T1, value, mode), method)
    assert res.status == "failed"
    if mode == "raise":
        assert isinstance(res.error, rancf.UserFunctionError)
        assert type(res.error.__cause__) is RuntimeError
        assert "force of load 0 raised RuntimeError" in res.message
    else:
        assert isinstance(res.error, rancf.ReturnedValueError)
        assert "force of load 0 must return" in res.message
    # the message names the time of the failing call, after T1 and within a step of the end
    assert res.error.t > T1 and f"at t = {res.error.t:.6g} s" in res.message
    assert 1 < len(res.t) and res.t[-1] <= T1 < res.error.t
    assert res._inputs is not None
    # independent of the recording: the same method on the model whose force is the constant
    # the function gave before T1 (no function, nothing recorded or played) steps the same
    # way, so the frames and the accelerations (forward dynamics, the recorded force played
    # back) agree to the bit but for the order of sums: 1e-12 of their scale
    same, end_same = run(dim, value, method)
    n = len(res.t)
    assert np.array_equal(res.t, same.t[:n])
    assert np.allclose(res.nodes, same.nodes[:n], rtol=0.0, atol=1e-12)
    acc, acc_same = res.acceleration(end), same.acceleration(end_same)[:n]
    assert np.allclose(acc, acc_same, rtol=0.0, atol=1e-12 * np.abs(acc_same).max())
    # and the motion against RK4 of the constant force (fixed step, no failure): the adaptive
    # run's error is about its tolerances (rtol 1e-6 of coordinates up to 1 m, atol 1e-8)
    # times the few tens of steps to T1; RK4's, h^4 with h = 0.1 ms, is far below it: 1e-5 m
    assert TOLERANCES["rtol"] <= 1e-6
    rk4, _ = run(dim, value, "rk4")
    assert np.allclose(res.t, rk4.t[:n], rtol=0.0, atol=1e-15)
    assert np.abs(res.nodes - rk4.nodes[:n]).max() < 1e-5


@pytest.mark.parametrize("method", ["scipy:RK45", "scipy:BDF"])
def test_a_scipy_run_without_functions_records_nothing(method):
    """Without input functions nothing is recorded (no evaluation an output is added)."""
    res, _ = run(2, (0.0, -1.0), method)
    assert res.status == "ok" and res._inputs is None
