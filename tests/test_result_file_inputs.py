"""A Result saved and loaded keeps the values its model's input functions gave at the outputs
(``Result.inputs``): the loaded Result's accelerations and reactions are the saved one's, bit
for bit, and computing them calls no function (before, the file kept none: a loaded Result
called the model's functions again, which may have changed since the run, or fail). A file of
the earlier format, which has none, still loads, and says what it cannot compute instead of
calling the functions; a file whose recorded values disagree with its meta record is refused."""
import json

import numpy as np
import pytest

import rancf
from rancf.results.files import FORMAT_VERSION
from test_scipy_user_failure import lost_after, pinned_beam

T_END = 0.003           # s


class Counted:
    """A function that counts its calls (``calls``) and may be told to raise (``broken``)."""

    def __init__(self, f):
        self.f, self.calls, self.broken = f, 0, False

    def __call__(self, *args):
        self.calls += 1
        if self.broken:
            raise RuntimeError("changed since the run")
        return self.f(*args)


def model(dim, force=None):
    """:func:`pinned_beam` with a load of t (growing, -y planar, -z spatial) and an effort of
    (t, q, qd) at its pin (a spring-damper with a time term), both counted."""
    if force is None:
        force = Counted((lambda t: (0.0, -1.0 - 50.0 * t)) if dim == 2 else
                        (lambda t: (0.0, 0.0, -1.0 - 50.0 * t)))
    effort = Counted(lambda t, q, qd: -0.5 * q - 0.01 * qd + 2.0 * t)
    m, end = pinned_beam(dim, force)
    m.joints[0].effort = effort
    return m, end, (force, effort)


#: (method, formulation): the recursion's explicit and implicit runs, the DAE's.
RUNS = [("rk4", "recursive"), ("generalized-alpha", "recursive"),
        ("generalized-alpha", "dae")]


def run(m, dim, method, formulation):
    dt = 1e-4 if dim == 2 else 5e-5
    return rancf.simulate(m, T_END, dt, method=method, formulation=formulation,
                          output_every=10)


def calls(functions):
    return sum(f.calls for f in functions if isinstance(f, Counted))


@pytest.mark.parametrize("dim", [2, 3])
@pytest.mark.parametrize("method, formulation", RUNS)
def test_a_loaded_result_plays_back_the_saved_inputs(tmp_path, dim, method, formulation):
    m, end, functions = model(dim)
    res = run(m, dim, method, formulation)
    assert res.status == "ok" and res.inputs is not None
    joint = m.joints[0]
    acc, reaction = res.acceleration(end), res.reaction(joint)
    path = tmp_path / "run.npz"
    res.save(path)
    # the functions changed since the run: called, they would raise
    before = calls(functions)
    for f in functions:
        f.broken = True
    loaded = rancf.load(path, model=m)
    assert np.array_equal(loaded.acceleration(end), acc)
    assert np.array_equal(loaded.reaction(joint), reaction)
    assert calls(functions) == before
    # the values themselves: the load function's at the output times (computed here, not by
    # the run), the same keys and bits as the run's record
    rows = loaded.inputs.rows
    assert len(rows) == len(res.t) and loaded.inputs.keys == res.inputs.keys
    for k, t in enumerate(res.t):
        for key in res.inputs.keys:
            assert np.array_equal(rows[k][key], res.inputs.rows[k][key])
    force = functions[0].f
    kept = [rows[k]["load_force"][0] if dim == 2 and formulation == "recursive" else None
            for k in range(len(res.t))]
    if kept[0] is not None:
        assert all(np.array_equal(v, force(t)) for v, t in zip(kept, res.t))
    # loaded without its model and saved again: the same values
    again = tmp_path / "again.npz"
    rancf.load(path).save(again)
    assert np.array_equal(rancf.load(again, model=m).acceleration(end), acc)
    assert calls(functions) == before


@pytest.mark.parametrize("dim", [2, 3])
def test_a_loaded_failed_run_computes_its_frames_without_the_failed_function(tmp_path, dim):
    """A run stopped by a load function lost for good: the file keeps the values before it,
    and the loaded Result's accelerations are the run's without calling the function (which
    fails at every call now)."""
    value = (0.0, -1.0) if dim == 2 else (0.0, 0.0, -1.0)
    f = lost_after(0.0015, value, "raise")
    m, end, _ = model(dim, force=f)
    res = run(m, dim, "rk4", "recursive")
    assert res.status == "failed" and len(res.t) > 1
    acc = res.acceleration(end)
    path = tmp_path / "failed.npz"
    res.save(path)
    loaded = rancf.load(path, model=m)
    assert loaded.status == "failed" and loaded.error is None
    assert np.array_equal(loaded.acceleration(end), acc)


def rewritten(path, out, change):
    """The file ``path`` written again to ``out`` with numpy after ``change(arrays, meta)``."""
    with np.load(path, allow_pickle=False) as f:
        arrays = {k: f[k] for k in f.files}
    meta = json.loads(str(arrays.pop("meta")))
    change(arrays, meta)
    np.savez_compressed(out, meta=np.array(json.dumps(meta)), **arrays)
    return out


def as_format_2(arrays, meta):
    """A file of format 2: no recorded inputs."""
    for k in [k for k in arrays if k.startswith("inputs__")]:
        del arrays[k]
    del meta["inputs"]
    meta["format"] = 2


@pytest.mark.parametrize("dim", [2, 3])
def test_a_file_of_format_2_loads_and_says_what_it_cannot_compute(tmp_path, dim):
    assert FORMAT_VERSION == 3
    m, end, functions = model(dim)
    res = run(m, dim, "rk4", "recursive")
    res.save(tmp_path / "new.npz")
    old = rewritten(tmp_path / "new.npz", tmp_path / "old.npz", as_format_2)
    before = calls(functions)
    loaded = rancf.load(old, model=m)
    assert loaded.inputs is None
    # what the file stores is there
    for name in ("nodes", "velocities", "joint_q", "reactions"):
        assert np.array_equal(getattr(loaded, name), getattr(res, name))
    # what needs the functions is refused, naming the file and its format
    with pytest.raises(RuntimeError, match="old.npz holds no values of the model's input "
                       r"functions at its outputs \(its format 2 keeps none\)"):
        loaded.acceleration(end)
    if dim == 2:
        # the torque holding the pin is stored: there
        assert np.array_equal(loaded.reaction(m.joints[0], "torque"),
                              res.reaction(m.joints[0], "torque"))
    assert calls(functions) == before


def test_a_file_of_format_2_without_input_functions_computes_all(tmp_path):
    m, end = pinned_beam(2, (0.0, -1.0))
    res = rancf.simulate(m, T_END, 1e-4, method="rk4", output_every=10)
    assert res.inputs is None
    res.save(tmp_path / "new.npz")
    old = rewritten(tmp_path / "new.npz", tmp_path / "old.npz", as_format_2)
    assert np.array_equal(rancf.load(old, model=m).acceleration(end), res.acceleration(end))


def unlisted(arrays, meta):
    meta["inputs"] = meta["inputs"][1:]


def missing(arrays, meta):
    del arrays["inputs__" + str(meta["inputs"][0])]


def not_finite(arrays, meta):
    arrays["inputs__" + str(meta["inputs"][0])][-1] = np.nan


def short(arrays, meta):
    key = "inputs__" + str(meta["inputs"][0])
    arrays[key] = arrays[key][:-1]


def not_a_key(arrays, meta):
    meta["inputs"] = [1.5]


@pytest.mark.parametrize("change, words", [
    (unlisted, "do not match the keys its meta record lists"),
    (missing, "do not match the keys its meta record lists"),
    (not_finite, "must be finite"),
    (short, "must have n_out = "),
    (not_a_key, "inputs must be null or a list"),
])
def test_recorded_inputs_that_disagree_with_the_file_are_refused(tmp_path, change, words):
    m, end, _ = model(2)
    run(m, 2, "rk4", "recursive").save(tmp_path / "good.npz")
    bad = rewritten(tmp_path / "good.npz", tmp_path / "bad.npz", change)
    with pytest.raises(ValueError, match=words):
        rancf.load(bad, model=m)
