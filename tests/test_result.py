"""The one Result: the same fields from every formulation, files written atomically and read
back with or without the model."""
import json
import os
import stat

import numpy as np
import pytest

import rancf
from models import branched_tree


@pytest.fixture(scope="module")
def tree_runs():
    m = branched_tree()
    return m, {f: rancf.simulate(m, 0.05, 1e-3 if f == "dae" else 1e-4, method=meth,
                                 output_every=10 if f == "dae" else 100, formulation=f)
               for f, meth in (("recursive", "rk4"), ("dae", "generalized-alpha"))}


def test_every_formulation_fills_the_same_fields(tree_runs):
    m, runs = tree_runs
    A = m.build()
    for res in runs.values():
        n = len(res.t)
        assert res.nodes.shape == res.velocities.shape == (n, A.n_vertices, 4)
        assert res.joint_q.shape == res.joint_qd.shape == res.reactions.shape == (n, A.n_joints)
        assert res.work.shape == res.dissipated.shape == (n,)
        assert set(res.stats) >= {"steps", "nfev", "njev", "nlu", "newton_iterations", "rejected"}
        assert list(res.energy().columns) == ["t", "kinetic", "elastic", "gravity", "work",
                                              "dissipated", "total"]
    assert "constraint_violation" in runs["dae"].extra and "beta" in runs["recursive"].extra


def test_positions_of_points_follow_the_coordinates(tree_runs):
    """A rigid-body point is r + R(phi) d; a beam node is its coordinates; the tip is the last
    beam's end."""
    m, runs = tree_runs
    res = runs["recursive"]
    r1 = m.rigid_bodies[0]
    d = np.array([0.05, -0.02])
    X = res.nodes[:, m.build().body_vertex[0]]
    phi = np.arctan2(X[:, 3], X[:, 2])
    expected = X[:, :2] + np.column_stack([np.cos(phi) * d[0] - np.sin(phi) * d[1],
                                           np.sin(phi) * d[0] + np.cos(phi) * d[1]])
    np.testing.assert_allclose(res.position(r1.point(*d)), expected, atol=1e-14)
    np.testing.assert_array_equal(res.tip(), res.position(m.beams[-1].end))
    with pytest.raises(ValueError, match="another model"):
        res.position(branched_tree().beams[0].end)
    with pytest.raises(ValueError, match="joint must be a Joint"):
        res.joint(99)


def test_save_load_roundtrip(tmp_path, tree_runs):
    m, runs = tree_runs
    res = runs["dae"]
    path = tmp_path / "run.npz"
    res.save(path)
    assert os.listdir(tmp_path) == ["run.npz"]      # no temporary file left behind
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o666 & ~umask
    for back in (rancf.load(path), rancf.load(path, model=m)):
        for name in ("t", "nodes", "velocities", "joint_q", "joint_qd", "reactions", "work",
                     "dissipated"):
            np.testing.assert_array_equal(getattr(back, name), getattr(res, name))
        assert back.status == res.status and back.stats == res.stats
        np.testing.assert_array_equal(back.extra["constraint_violation"],
                                      res.extra["constraint_violation"])
        np.testing.assert_allclose(back.energy().to_numpy(), res.energy().to_numpy(), rtol=0, atol=0)
    assert np.array_equal(rancf.load(path, model=m).tip(), res.tip())
    with pytest.raises(ValueError, match="loaded without"):
        rancf.load(path).tip()
    with pytest.raises(ValueError, match="another layout .10 items in the file, 5 in the model"):
        rancf.load(path, model=rancf.pendulum())
    # a file saved from a Result loaded without its model keeps the layout: it decides
    rancf.load(path).save(tmp_path / "again.npz")
    assert rancf.load(tmp_path / "again.npz", model=m).tip().shape == res.tip().shape
    with pytest.raises(ValueError, match="another layout .10 items in the file, 5 in the model"):
        rancf.load(tmp_path / "again.npz", model=rancf.pendulum())
    # a file without a layout (one of an earlier version re-saved): the counts decide
    with np.load(path, allow_pickle=False) as f:
        arrays = {k: f[k] for k in f.files}
    meta = json.loads(str(arrays["meta"]))
    del meta["layout"]
    np.savez(tmp_path / "counts.npz", **dict(arrays, meta=np.array(json.dumps(meta))))
    assert rancf.load(tmp_path / "counts.npz", model=m).tip().shape == res.tip().shape
    other = rancf.pendulum()
    counts = f"{m.build().n_vertices} vertices in the file, {other.build().n_vertices} in the model"
    with pytest.raises(ValueError, match=counts):
        rancf.load(tmp_path / "counts.npz", model=other)


def _resaved_spatial():
    """A spatial run with a spherical joint (three joint coordinates) and a revolute one."""
    m = rancf.Model(dim=3)
    b = m.add_beam(0.5, 2, E=2e9, rho=7800.0, A=1e-4, I=(1e-9, 1e-9), J=2e-9, G=1e9,
                   direction=(1.0, 0.0, 0.0), up=(0.0, 1.0, 0.0))
    r = m.add_rigid_body(0.2, np.eye(3) * 1e-3, position=(0.5, 0.0, -0.1))
    m.add_joint("spherical", m.ground.point(0, 0, 0), b.start)
    m.add_joint("revolute", b.end, r.point(0.0, 0.0, 0.1), axis=(0, 1, 0))
    return m, rancf.simulate(m, 0.004, 1e-3)


def _resaved_planar():
    m = rancf.pendulum(n_bodies=2, elements_per_body=2)
    return m, rancf.static(m, load_steps=2)


@pytest.mark.parametrize("make", [_resaved_planar, _resaved_spatial])
def test_a_result_loaded_without_its_model_saves_the_same_file(tmp_path, make):
    """load -> save -> load keeps every array and the whole meta record bit for bit (the
    layout was once dropped), and the Results read from both files are equal; the second
    file still checks a model by its layout."""
    m, res = make()
    first, second = tmp_path / "first.npz", tmp_path / "second.npz"
    res.save(first)
    rancf.load(first).save(second)
    with np.load(first, allow_pickle=False) as f, np.load(second, allow_pickle=False) as g:
        assert sorted(f.files) == sorted(g.files)
        for k in f.files:
            assert f[k].dtype == g[k].dtype and f[k].shape == g[k].shape, k
            assert f[k].tobytes() == g[k].tobytes(), k
        assert "layout" in json.loads(str(g["meta"]))
    a, b = rancf.load(first), rancf.load(second)
    for name in ("status", "message", "method", "method_reason", "formulation", "stats",
                 "wall_time"):
        assert getattr(a, name) == getattr(b, name), name
    assert sorted(a.extra) == sorted(b.extra)
    assert rancf.load(second, model=m).nodes.tobytes() == res.nodes.tobytes()


@pytest.mark.parametrize("method, formulation", [
    *[(m, "auto") for m in ("rk4", "dopri5", "scipy:RK45", "scipy:DOP853", "scipy:Radau",
                            "scipy:BDF", "scipy:LSODA")],
    *[(m, f) for m in ("newmark", "hht", "generalized-alpha", "generalized-alpha-s",
                       "backward-euler") for f in ("auto", "dae")]])
def test_every_method_saves_and_loads(tmp_path, method, formulation):
    """Results of every method round-trip (SciPy's LSODA counts in int32, once not
    JSON-serialisable)."""
    m = rancf.pendulum(1, 2)
    res = rancf.simulate(m, 0.004, 1e-3, method=method, formulation=formulation, output_every=1)
    res.save(tmp_path / "run.npz")
    back = rancf.load(tmp_path / "run.npz", model=m)
    for name in ("t", "nodes", "velocities", "joint_q", "joint_qd", "reactions", "work",
                 "dissipated"):
        np.testing.assert_array_equal(getattr(back, name), getattr(res, name))
    assert back.stats == res.stats and back.status == res.status == "ok"
    assert back.method == method and back.formulation == res.formulation
    assert sorted(back.extra) == sorted(res.extra)


def test_a_state_from_a_result_continues_the_run():
    """Two half runs from the state at the middle equal one run (RK4, same steps)."""
    m = rancf.pendulum(n_bodies=2, elements_per_body=2)
    whole = rancf.simulate(m, 0.2, 1e-3, output_every=100)
    first = rancf.simulate(m, 0.1, 1e-3, output_every=100)
    second = rancf.simulate(m, 0.1, 1e-3, output_every=100, state=first.state(-1))
    np.testing.assert_allclose(second.nodes[-1], whole.nodes[-1], rtol=0, atol=1e-12)


def test_damaged_files_are_refused_with_the_path(tmp_path, tree_runs):
    """load validates the whole file: a damaged archive, a missing array or arrays that
    disagree get an error naming the file, never a wrong Result."""
    _, runs = tree_runs
    good = tmp_path / "good.npz"
    runs["recursive"].save(good)
    garbage = tmp_path / "garbage.npz"
    garbage.write_bytes(b"not a zip archive")
    with pytest.raises(ValueError, match="garbage.npz: not a readable rancf Result"):
        rancf.load(garbage)
    with np.load(good) as f:
        arrays = {k: f[k] for k in f.files}
    for name, change in (("velocities", lambda a: a[:, :-1]), ("work", lambda a: a[:-1]),
                         ("t", lambda a: a[::-1])):
        bad = dict(arrays, **{name: change(arrays[name])})
        path = tmp_path / f"bad_{name}.npz"
        np.savez(path, **bad)
        with pytest.raises(ValueError, match=f"bad_{name}.npz"):
            rancf.load(path)
    del arrays["joint_q"]
    np.savez(tmp_path / "missing.npz", **arrays)
    with pytest.raises(ValueError, match="missing joint_q"):
        rancf.load(tmp_path / "missing.npz")


def test_a_save_that_fails_names_the_path_and_leaves_nothing(tmp_path, tree_runs):
    _, runs = tree_runs
    with pytest.raises(OSError, match="cannot write .*nowhere/run.npz"):
        runs["dae"].save(tmp_path / "nowhere" / "run.npz")
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("formulation", ["auto", "dae"])
def test_a_spatial_file_loads_every_field_as_saved(tmp_path, formulation):
    """A spatial run's file (the recursion's, the DAE's) loads with and without its model to
    the saved arrays, texts, counters, extras in their order and energy table, bit for bit:
    the energies are the run's, not recomputed."""
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -9.81))
    b = m.add_beam(0.5, 3, E=2e8, rho=7800.0, A=1e-4, I=(8.3e-10, 1.7e-9), J=2e-9,
                   G=2e8 / 2.6, start=(0, 0, 0), direction=(1, 0, 0), up=(0, 0.6, 0.8))
    m.add_joint("spherical", m.ground.point(0, 0, 0), b.start)
    res = rancf.simulate(m, 0.01, 1e-3, output_every=2, formulation=formulation)
    assert res.status == "ok", res.message
    res.save(tmp_path / "run.npz")
    for back in (rancf.load(tmp_path / "run.npz"), rancf.load(tmp_path / "run.npz", model=m)):
        for name in ("t", "nodes", "velocities", "joint_q", "joint_qd", "reactions", "work",
                     "dissipated"):
            np.testing.assert_array_equal(getattr(back, name), getattr(res, name))
        assert (back.status, back.message, back.method, back.method_reason, back.formulation,
                back.stats) == (res.status, res.message, res.method, res.method_reason,
                                res.formulation, res.stats)
        assert list(back.extra) == list(res.extra)
        for key in res.extra:
            np.testing.assert_array_equal(back.extra[key], res.extra[key])
        np.testing.assert_array_equal(back.energy().to_numpy(), res.energy().to_numpy())
