"""The cable frames a :class:`rancf.State` carries (issue 23): a run started from
``Result.state(i)`` or from statics draws the cable frames the uninterrupted run, or the
equilibrium, drew. References: the uninterrupted run (Newmark restarts exactly: its step
needs only q, v and the acceleration the equations of motion give), the equilibrium's own
output, and the same state without its bases (the reference frames, what a State gave
before it carried them)."""
import dataclasses
import zipfile

import numpy as np
import pytest

import rancf
from test_spatial_cable_outputs import spinning_cable
from test_static_cable_frames import bent_cantilever


def cable_orientations(res):
    """The drawn frames (n_out, c, 3, 3) of the cable nodes (the model's last nodes)."""
    nc = res.extra["cable_nodes"].shape[1] // 6
    return np.asarray(res.nodes)[:, -nc:, 3:].reshape(len(res.t), nc, 3, 3)


def tangents(res):
    """The unit tangents (n_out, c, 3) of the cable nodes."""
    e = res.extra["cable_nodes"].reshape(len(res.t), -1, 6)[..., 3:]
    return e / np.linalg.norm(e, axis=2)[..., None]


@pytest.mark.parametrize("formulation", ["recursive", "dae"])
def test_a_run_split_at_t1_draws_the_uninterrupted_runs_cable_frames(formulation):
    """The spinning cable (its tangents pass within 3 degrees of the reference's -x: by
    t1 = 0.6 s every node's base has moved on from its reference) run for 1.2 s at once and
    split at t1, the second part from ``state(-1)`` of the first: the cable frames, and
    ``orientation`` of the cable's end, equal the uninterrupted run's to within what its
    tangents differ by (Newmark restarts exactly: the recursion's tangents agree to 3e-14, the
    DAE's to 4e-10, measured, its Newton tolerance's), times 3 (a carried frame turns by at
    most ``1 + tan 60 deg < 2.8`` times its tangent: tests/test_spatial_cable_outputs.py), plus
    1e-14. Without the bases (the reference frames, as before the State held them) they
    differ by 0.17 (measured): a turn about the tangent."""
    m, state = spinning_cable()
    c = m.beams[0]
    run = dict(method="newmark", formulation=formulation, output_every=5)
    full = rancf.simulate(m, 1.2, 1e-3, state=state, **run)
    first = rancf.simulate(m, 0.6, 1e-3, state=state, **run)
    s = first.state(-1)
    assert s.cable_bases.shape == (c.n_nodes, 3, 3)
    frame0 = m.build().cable_frame0
    assert np.abs(s.cable_bases - frame0).max(axis=(1, 2)).min() > 1.0    # all moved on
    rest = rancf.simulate(m, 0.6, 1e-3, state=s, **run)
    assert full.status == first.status == rest.status == "ok"
    k = len(first.t) - 1
    assert np.isclose(full.t[k], 0.6) and len(rest.t) == len(full.t) - k
    turn = np.abs(tangents(full)[k:] - tangents(rest)).max()
    bound = 3.0 * turn + 1e-14
    assert turn <= {"recursive": 1e-13, "dae": 1e-9}[formulation]
    assert np.abs(cable_orientations(full)[k:] - cable_orientations(rest)).max() <= bound
    assert np.abs(full.orientation(c.end)[k:] - rest.orientation(c.end)).max() <= bound
    without = rancf.simulate(m, 0.6, 1e-3, state=dataclasses.replace(s, cable_bases=None),
                             **run)
    assert np.abs(cable_orientations(full)[k:] - cable_orientations(without)).max() > 0.1


def test_cable_bases_are_saved_and_an_old_file_without_them_loads(tmp_path):
    """A saved Result keeps the cable frames' bases: loaded without its model its State has
    the same bases, and a run from it draws the same frames as from the State before saving
    (bit for bit: the same numbers). A file of the format written before the bases were kept
    (the same file with ``extra__cable_bases`` taken out) still loads; its State has none, and
    a run from it starts from the reference frames (those of the State with its bases
    dropped)."""
    m, state = spinning_cable()
    run = dict(method="newmark", output_every=5)
    first = rancf.simulate(m, 0.6, 1e-3, state=state, **run)
    path = tmp_path / "run.npz"
    first.save(path)
    loaded = rancf.load(path)
    s, s_loaded = first.state(-1), loaded.state(-1)
    assert np.array_equal(s_loaded.cable_bases, s.cable_bases)
    a = rancf.simulate(m, 0.05, 1e-3, state=s, **run)
    b = rancf.simulate(m, 0.05, 1e-3, state=s_loaded, **run)
    assert np.array_equal(np.asarray(a.nodes), np.asarray(b.nodes))
    old = tmp_path / "old.npz"
    with zipfile.ZipFile(path) as src, zipfile.ZipFile(old, "w", zipfile.ZIP_DEFLATED) as dst:
        for item in src.infolist():
            if item.filename != "extra__cable_bases.npy":
                dst.writestr(item, src.read(item.filename))
        assert "extra__cable_bases.npy" in src.namelist()
    s_old = rancf.load(old).state(-1)
    assert s_old.cable_bases is None
    assert np.array_equal(s_old.x, s.x) and np.array_equal(s_old.v, s.v)
    c = rancf.simulate(m, 0.05, 1e-3, state=s_old, **run)
    d = rancf.simulate(m, 0.05, 1e-3, state=dataclasses.replace(s, cable_bases=None), **run)
    assert np.array_equal(np.asarray(c.nodes), np.asarray(d.nodes))
    assert np.abs(cable_orientations(c) - cable_orientations(a)).max() > 0.1


@pytest.mark.parametrize("formulation", ["recursive", "dae"])
def test_a_run_from_statics_starts_from_the_equilibriums_cable_frames(formulation):
    """The bent cantilever (its end tangent 150 degrees from x at equilibrium; statics'
    frames carried through its load steps): a run from ``state="static"`` and one from
    ``rancf.static(m).state(0)`` start (output 0) with the equilibrium's nodes, cable frames
    included, to 1e-12 (the same coordinates; the frames turned from the same bases). Before
    the bases were carried into the run its first frames were the reference's turned (the
    end's base flipped by a half turn: 2.0 off, measured), and the DAE's ``state="static"``
    started the cables at their reference (1.87 m off, measured)."""
    m, c = bent_cantilever()
    eq = rancf.static(m)
    assert eq.status == "ok"
    s = eq.state(0)
    assert s.cable_bases is not None
    run = dict(method="newmark", formulation=formulation, output_every=5)
    for start in ("static", s):
        res = rancf.simulate(m, 0.01, 1e-3, state=start, **run)
        assert res.status == "ok"
        np.testing.assert_allclose(np.asarray(res.nodes)[0], np.asarray(eq.nodes)[0], rtol=0,
                                   atol=1e-12)
        np.testing.assert_allclose(res.orientation(c.end)[0], eq.orientation(c.end)[0],
                                   rtol=0, atol=1e-12)
    without = rancf.simulate(m, 0.01, 1e-3, state=dataclasses.replace(s, cable_bases=None),
                             **run)
    assert np.abs(cable_orientations(without)[0] - cable_orientations(eq)[0]).max() > 1.0


def test_cable_bases_of_a_state_are_checked():
    """A State's cable bases: 9 numbers a cable node, each base a rotation (within 1e-9);
    the messages name ``state.cable_bases`` and the node."""
    m, state = spinning_cable()
    nc = m.beams[0].n_nodes
    bases = np.tile(np.eye(3), (nc, 1, 1))
    with pytest.raises(ValueError, match=r"state\.cable_bases must have"):
        rancf.simulate(m, 0.01, 1e-3, method="newmark",
                       state=dataclasses.replace(state, cable_bases=bases[:-1]))
    bad = bases.copy()
    bad[2] *= 1.01
    with pytest.raises(ValueError, match=r"state\.cable_bases: the base of cable node 2"):
        rancf.simulate(m, 0.01, 1e-3, method="newmark", formulation="dae",
                       state=dataclasses.replace(state, cable_bases=bad))
    with pytest.raises(TypeError, match=r"state\.cable_bases"):
        dataclasses.replace(state, cable_bases="eye").checked_cable_bases(nc)


def test_a_dae_runs_deferred_cable_frames_keep_the_runs_start():
    """The spatial DAE maps a run's outputs when the Result first reads them (its
    ``observe_frames``): the cable frames' bases they move on from are the run's start's,
    taken when the run ended, not those a later start leaves on the formulation (statics'
    load steps, a State's bases: ``start_cable_frames``). Reference: the spinning cable's
    DAE run from the reference frames, whose Result's nodes, joint coordinates and bases
    its outputs mapped at once must equal bit for bit (the same numbers); mapped after the
    formulation was restarted from the bases of the run's last state (all moved on from the
    reference) they differ, as a read made late did: by more than 1e-3, far above
    round-off (measured 0.086: a turn about the tangent)."""
    from rancf.formulations import spatial
    from rancf.formulations.spatial_dae import SpatialDAE
    m, state = spinning_cable()
    res = rancf.simulate(m, 0.6, 1e-3, state=state, method="newmark", formulation="dae",
                         output_every=5)
    assert res.status == "ok"
    dae = SpatialDAE(m.build(), *spatial.model_inputs(m))
    assert dae.n_coordinates == res.extra["cable_nodes"].shape[1]         # cables only
    Q, V = res.extra["cable_nodes"], res.extra["cable_velocities"]
    moved = res.state(-1).cable_bases
    args = (res.t, Q, V, np.zeros_like(Q), np.zeros((len(res.t), dae.n_constraints)),
            np.zeros((len(res.t), 0)))

    def read(seen):
        out = seen["nodes"]()
        return out["nodes"], out["joint_q"], seen["cable_bases"]()

    dae.start_cable_frames(None, Q[0])
    deferred = dae.observe_frames(*args)
    dae.start_cable_frames(moved, Q[-1])          # a later start changes the formulation's
    later = dae.observe_frames(*args)
    for kept, run in zip(read(deferred), (np.asarray(res.nodes).reshape(len(res.t), -1),
                                          res.joint_q, res.extra["cable_bases"])):
        assert np.array_equal(kept, np.asarray(run).reshape(kept.shape))
    assert np.abs(read(later)[0] - read(deferred)[0]).max() > 1e-3
