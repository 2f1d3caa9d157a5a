"""The DAE's reactions of held joints are computed from the stored frames when first read
(DECISIONS 32, issue 25: a stored frame holds the state): no saddle-point solve during the
run, one per frame at the first read, none after; their values are the state's, against a
dense saddle-point solve of each stored state."""
import numpy as np
import pytest

import rancf
from rancf.formulations.dae import DAE
from models import branched_tree


def dense_reactions(m, res):
    """The held joints' reactions at every stored state of ``res``: a dense LU of
    ``[[M, Phi_x^T], [Phi_x, 0]] [a; lambda] = [F; -gamma]`` (LAPACK, not the sparse solve the
    Result uses) and ``DAE.observe`` of its multipliers."""
    dae = DAE(m.build(), "dense")
    out = []
    for i, t in enumerate(res.t):
        state = res.state(i)
        x, v = state.x, state.v
        dae.accept(x, v, t)
        fac = dae.newton_matrix(x, np.zeros_like(x), np.zeros(dae.n_constraints), v, t, x, t,
                                1.0, 0.0, 0.0, 0.0, 1.0)
        lam = fac.solve(dae.force(x, v, t), -dae.acceleration_bias(x, v, t))[1]
        out.append(dae.observe(x, v, t, lam)["reactions"])
    return np.array(out)


@pytest.mark.parametrize("method", ["newmark", "generalized-alpha"])
def test_held_reactions_are_solved_when_first_read(monkeypatch, method):
    """Counted calls of DAE.multipliers: none in the run, one per stored frame at the first
    read of ``reactions``, none at the second (kept); the values those of a dense solve."""
    calls = []
    multipliers = DAE.multipliers

    def counted(self, q, v, t):
        calls.append(t)
        return multipliers(self, q, v, t)

    monkeypatch.setattr(DAE, "multipliers", counted)
    m = branched_tree(smooth=True)
    res = rancf.simulate(m, 0.02, 5e-4, method=method, formulation="dae", output_every=4)
    assert res.status == "ok" and len(res.t) == 11
    assert calls == []
    torque = res.reaction(m.joints[0], "torque")
    assert len(calls) == len(res.t)
    again = res.reactions
    assert len(calls) == len(res.t)
    np.testing.assert_array_equal(again[:, 0], torque)
    expected = dense_reactions(m, res)
    held = np.abs(expected).max(axis=0) > 0
    assert held.sum() == 5
    assert np.allclose(res.reactions[:, held], expected[:, held], rtol=1e-8, atol=0)
    assert not res.reactions[:, ~held].any()


def test_deferred_reactions_are_saved_and_loaded(tmp_path):
    """save reads the reactions (computing them): the file holds the values the Result gives."""
    m = branched_tree(smooth=True)
    res = rancf.simulate(m, 0.01, 5e-4, method="newmark", formulation="dae", output_every=5)
    path = tmp_path / "run.npz"
    res.save(path)
    back = rancf.load(path, model=m)
    np.testing.assert_array_equal(back.reactions, res.reactions)
    assert np.abs(back.reactions).max() > 0
