"""Functions given to a model (drives, efforts, load functions) that raise or return what is not
a number (issue 26, findings 6 and 7): one exception type, ``rancf.UserFunctionError``, with the
function's own exception chained unchanged; every run keeps its outputs up to the failure."""
import pickle

import numpy as np
import pytest

import rancf
from user_function_models import AREA, E, INERTIA, RHO, every_run, run

T_FAIL = 0.01005                # s: the functions below raise after it, mid-step


class TwoArgumentError(Exception):
    """A user's exception whose constructor takes two required arguments (re-creating it from
    a message, ``type(exc)(message)``, raises a TypeError that hides it)."""

    def __init__(self, code, detail):
        super().__init__(f"code {code}: {detail}")
        self.code, self.detail = code, detail


def failing(value):
    """A function of t (and of q, qd for an effort) returning ``value`` until T_FAIL, then
    raising TwoArgumentError."""
    def f(t, *state):
        if t > T_FAIL:
            raise TwoArgumentError(7, "sensor lost")
        return value
    return f


@every_run
def test_a_raising_function_fails_the_run_and_keeps_its_exception(where, method, formulation):
    """Explicit and implicit alike: status "failed", the outputs up to the failure, and
    ``res.error`` the UserFunctionError whose cause is the very exception raised."""
    res = run(where, failing, method, formulation)
    assert res.status == "failed"
    if method in ("dopri5", "scipy:RK45"):
        # outputs up to the last step accepted, of an adaptive size
        assert len(res.t) > 1 and res.t[-1] <= T_FAIL
    else:
        # outputs every 1 ms: the last before the failure in the step to 0.0101 s
        assert res.t[-1] == pytest.approx(0.01, rel=1e-12)
    assert np.all(np.isfinite(res.nodes))
    assert isinstance(res.error, rancf.UserFunctionError)
    assert isinstance(res.error, RuntimeError)
    cause = res.error.__cause__
    assert type(cause) is TwoArgumentError and (cause.code, cause.detail) == (7, "sensor lost")
    index = 0
    assert (res.error.function, res.error.index) == (where, index)
    assert res.error.t > T_FAIL
    owner = "joint" if where in ("drive", "effort") else "load"
    assert f"{where} of {owner} 0 raised TwoArgumentError" in res.message
    assert "code 7: sensor lost" in res.message


def test_a_raising_effort_fails_statics_and_keeps_the_last_equilibrium():
    """Statics evaluates an effort at Newton's iterates: a sensor that fails once, at its 201st
    call (about 55 calls per load step here), fails that load step and keeps the equilibrium of
    the steps before."""
    m = rancf.Model(gravity=(0.0, -9.81))
    b = m.add_beam(1.0, 2, 2e9, RHO, AREA, INERTIA)
    calls = []

    def spring(t, q, qd):
        calls.append(q)
        if len(calls) == 201:
            raise TwoArgumentError(3, "sensor lost")
        return -50.0 * q
    m.add_joint("revolute", m.ground.point(0, 0), b.start, effort=spring)
    res = rancf.static(m, load_steps=10)
    assert res.status == "failed" and "sensor lost" in res.message
    assert type(res.error.__cause__) is TwoArgumentError
    reached = res.extra["load_factor"][0]
    assert 0.0 < reached < 1.0
    # the equilibrium kept is the one at the load factor reached: the same model with every
    # applied force (gravity, the spring) scaled by that factor, solved alone
    ref = rancf.Model(gravity=(0.0, -9.81 * reached))
    rb = ref.add_beam(1.0, 2, 2e9, RHO, AREA, INERTIA)
    ref.add_joint("revolute", ref.ground.point(0, 0), rb.start,
                  effort=lambda t, q, qd: -50.0 * reached * q)
    expected = rancf.static(ref, load_steps=10)
    assert expected.status == "ok"
    np.testing.assert_allclose(res.nodes, expected.nodes, rtol=0, atol=1e-8)


def test_a_drive_raising_at_build_raises_the_chained_error():
    m = rancf.Model()
    b = m.add_beam(1.0, 2, E, RHO, AREA, INERTIA)

    def drive(t):
        raise TwoArgumentError(1, "no encoder")
    m.add_joint("revolute", m.ground.point(0, 0), b.start, drive=drive)
    with pytest.raises(rancf.UserFunctionError, match="drive of joint 0 raised TwoArgumentError "
                       "at t = 0 s: code 1: no encoder") as info:
        m.build()
    assert type(info.value.__cause__) is TwoArgumentError


def test_the_error_survives_pickling():
    """A sweep's worker sends what it raised back to the driver by pickle."""
    exc = rancf.UserFunctionError("effort of joint 2 raised KeyError at t = 0.5 s: 'x'",
                                  "effort", 2, 0.5)
    back = pickle.loads(pickle.dumps(exc))
    assert (type(back), str(back), back.function, back.index, back.t) == \
        (rancf.UserFunctionError, str(exc), "effort", 2, 0.5)


@pytest.mark.parametrize("where, value", [
    ("drive", ("0", "0", "0")), ("drive", (0.0, 0.0, 1j)), ("drive", True),
    ("effort", "1.5"), ("effort", True), ("effort", [1.0]), ("effort", None),
    ("force", ("0", "1")), ("force", (0.0, b"1")), ("moment", "2"), ("moment", np.str_("2")),
    ("moment", False)])
def test_a_function_must_return_real_numbers(where, value):
    """Numbers from user functions are real numbers: a numeric string, a bool, a complex or a
    list where one number is due is refused, naming the function (a ValueError at build or
    before the run; status "failed" during one)."""
    m = rancf.Model()
    b = m.add_beam(1.0, 2, E, RHO, AREA, INERTIA)
    function = lambda t, *state: value                          # noqa: E731
    if where in ("drive", "effort"):
        m.add_joint("revolute", m.ground.point(0, 0), b.start, **{where: function})
    else:
        m.add_joint("revolute", m.ground.point(0, 0), b.start)
        m.add_force(b.end, **{where: function})
    owner = "joint" if where in ("drive", "effort") else "load"
    words = f"{where} of {owner} 0 must return"
    try:
        res = rancf.simulate(m, 1e-3, 1e-4)
    except ValueError as exc:
        assert words in str(exc)
    else:
        assert res.status == "failed" and words in res.message
        assert isinstance(res.error, ValueError)


#: Every run that calls user functions, (kind, method, formulation): the planar recursion and
#: DAE, the spatial recursion and DAE, a reduced model and statics (planar and spatial).
EVERY_RUN = ([("planar", m, "recursive") for m in ("rk4", "dopri5", "scipy:RK45", "scipy:BDF",
                                                   "scipy:LSODA", "newmark", "hht",
                                                   "generalized-alpha", "generalized-alpha-s",
                                                   "backward-euler")]
             + [("planar", "auto", "auto")]
             + [("planar", m, "dae") for m in ("newmark", "hht", "generalized-alpha",
                                                "generalized-alpha-s", "backward-euler")]
             + [("spatial", m, "auto") for m in ("rk4", "dopri5", "generalized-alpha",
                                                  "generalized-alpha-s", "auto")]
             + [("spatial", m, "dae") for m in ("generalized-alpha", "generalized-alpha-s",
                                                 "backward-euler")]
             + [("reduced", "backward-euler", "dae"), ("static", None, None),
                ("spatial static", None, None)])


def raising_from(t_fail):
    """A function of t (and q, qd) returning 0 before ``t_fail`` (s), raising from it on."""
    def f(t, *state):
        if t >= t_fail:
            raise TwoArgumentError(5, "sensor lost")
        return 0.0
    return f


def run_of(kind, method, formulation, where, f):
    """The run ``kind`` of a pinned beam whose ``where`` ("effort", "force") function is f:
    steps of 50 us to 5 ms (within the spatial beam's RK4 limit, 90 us)."""
    spatial = kind.startswith("spatial")
    m = rancf.Model(dim=3 if spatial else 2, gravity=(0.0, 0.0, -9.81) if spatial else
                    (0.0, -9.81), **({"elastic_model": "berzeri"} if kind == "reduced" else {}))
    if spatial:
        b = m.add_beam(0.5, 2, E=2e8, rho=RHO, A=AREA, I=(8.3e-10, 1.7e-9), J=2e-9, G=2e8 / 2.6,
                       start=(0.0, 0.0, 0.0), direction=(1.0, 0.0, 0.0), up=(0.0, 0.6, 0.8))
        joint = dict(axis=(0.0, 1.0, 0.0))
        point = m.ground.point(0, 0, 0)
        force = lambda t: (0.0, 0.0, f(t))                              # noqa: E731
    else:
        b = m.add_beam(1.0, 2, E, RHO, AREA, INERTIA)
        joint, point = {}, m.ground.point(0, 0)
        force = lambda t: (0.0, f(t))                                   # noqa: E731
    m.add_joint("revolute", point, b.start, **joint, **({"effort": f} if where == "effort"
                                                        else {}))
    if where == "force":
        m.add_force(b.end, force=force)
    if kind.endswith("static"):
        return rancf.static(m)
    if kind == "reduced":
        return rancf.simulate(rancf.reduce(m, 4, 8), 0.005, 5e-5)
    return rancf.simulate(m, 0.005, 5e-5, method=method, formulation=formulation)


@pytest.mark.parametrize("where", ["effort", "force"])
@pytest.mark.parametrize("kind, method, formulation", EVERY_RUN,
                         ids=[" ".join(str(p) for p in run) for run in EVERY_RUN])
def test_one_rule_for_a_function_raising_at_the_start_or_later(kind, method, formulation,
                                                              where):
    """One rule, every method (rancf.UserFunctionError's docstring): a function raising at
    the start state (t = 0, where the set-up evaluates every function once) raises out of the
    run, which has no output yet; one raising later (t >= 1.5 ms) fails the run, which keeps
    the outputs before (statics evaluates at t = 0 only: its failure at a later Newton
    iterate is test_a_raising_effort_fails_statics_and_keeps_the_last_equilibrium)."""
    with pytest.raises(rancf.UserFunctionError, match=f"{where} of (joint|load) 0 raised "
                       "TwoArgumentError at t = 0 s") as info:
        run_of(kind, method, formulation, where, raising_from(0.0))
    assert type(info.value.__cause__) is TwoArgumentError
    if kind.endswith("static"):
        return
    res = run_of(kind, method, formulation, where, raising_from(1.5e-3))
    assert res.status == "failed" and isinstance(res.error, rancf.UserFunctionError)
    assert res.error.t >= 1.5e-3 and 1 < len(res.t) and res.t[-1] <= res.error.t
    assert type(res.error.__cause__) is TwoArgumentError
