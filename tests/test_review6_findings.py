"""Findings of the review of the changes merged on 2026-11-28 (db1f5b8..26ec75b), each a test
that failed because of the defect (a strict xfail until it was fixed).

A reduced run keeps no recorded input values (``Result.inputs is None``), so its file of
format 3 holds none, and the loaded Result refuses accelerations and reactions that the saved
Result gives (``Result.save``: "the loaded Result's accelerations and reactions are this
one's"). Before db1f5b8..26ec75b the loaded Result computed them; now the reduced run keeps
the values as every other run does.
"""
import numpy as np
import pytest

import rancf


def reduced_pendulum_with_effort():
    """A 1 m steel beam of 8 elements pinned at its start, under gravity, with an effort of
    (t, q, qd) at the pin (a function, so that the model has input functions); and its end."""
    m = rancf.Model(gravity=(0.0, -9.81), elastic_model="berzeri")
    b = m.add_beam(1.0, 8, E=2e11, rho=7800.0, A=1e-4, I=1e-9)
    m.add_joint("revolute", m.ground.point(0.0, 0.0), b.start,
                effort=lambda t, q, qd: 0.1 * np.sin(t))
    return m, b.end


def test_a_loaded_reduced_run_gives_the_saved_runs_accelerations(tmp_path):
    """The reference is the saved Result itself (in memory, where the effort, unchanged, is
    called at the frames): Result.save promises the loaded Result's accelerations and
    reactions are this one's."""
    m, end = reduced_pendulum_with_effort()
    res = rancf.simulate(rancf.reduce(m, 16, 32), 0.02, 1e-3, output_every=5)
    assert res.status == "ok", res.message
    acc, reaction = res.acceleration(end), res.reaction(m.joints[0])
    path = tmp_path / "reduced.npz"
    res.save(path)
    loaded = rancf.load(path, model=m)
    assert np.array_equal(loaded.acceleration(end), acc)
    assert np.array_equal(loaded.reaction(m.joints[0]), reaction)
    # what the run kept is the effort's value at each output (a function of t alone here)
    kept = np.array([res.inputs.value("effort", t)[0] for t in res.t])
    assert np.array_equal(kept, 0.1 * np.sin(res.t))
