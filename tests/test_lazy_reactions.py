"""The DAE's reactions of held joints are computed from the stored frames when first read
(DECISIONS 32, issue 25: a stored frame holds the state): no saddle-point solve during the
run, one per frame at the first read, none after; their values are the state's, against a
dense saddle-point solve of each stored state."""
import warnings

import numpy as np
import pytest

import rancf
from rancf.formulations.dae import DAE
from rancf.results.outputs import played_inputs
from concurrent_runs import in_threads
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


@pytest.mark.parametrize("method", ["rk4", "generalized-alpha"])
def test_spatial_recursions_reactions_are_computed_when_first_read(monkeypatch, method):
    """A spatial recursive run (a cable pendulum with a payload hung from its end: explicit
    and implicit loops) evaluates no reaction while it stores its outputs; read afterwards, its
    reactions equal the spatial DAE's (an independent formulation: absolute coordinates and
    the state's own multipliers) at the stored states, to 1e-8 of their largest."""
    from rancf.formulations import spatial
    from rancf.formulations.spatial_dae import SpatialDAE
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -9.81))
    c = m.add_beam(1.0, 4, E=1e7, rho=1000.0, A=1e-4, I=1e-9, element="ancf-cable")
    m.add_joint("spherical", m.ground.point(0, 0, 0), c.start)
    body = m.add_rigid_body(0.2, np.diag([1e-4, 2e-4, 3e-4]), position=(1.1, 0.0, 0.0))
    m.add_joint("spherical", c.end, body.point(-0.1, 0.0, 0.0))
    calls = []
    original = spatial.Spatial.reactions

    def counted(self, t, y):
        calls.append(t)
        return original(self, t, y)

    monkeypatch.setattr(spatial.Spatial, "reactions", counted)
    res = rancf.simulate(m, 0.01, 1e-4 if method == "rk4" else 1e-3, method=method,
                         output_every=20 if method == "rk4" else 2)
    assert res.status == "ok" and res.formulation == "spatial", res.message
    assert callable(res._reactions) and not calls
    reactions = res.reactions
    assert len(calls) == len(res.t) and reactions.shape == (len(res.t), 6 * 2)
    dae = SpatialDAE(m.build(), *spatial.model_inputs(m))
    for k in (1, len(res.t) - 1):
        q, qd = dae.state_of_poses(res.state(k).x, res.state(k).v, res.t[k])
        seen = dae.observe(q, qd, res.t[k], np.zeros(dae.n_constraints))["reactions"]
        assert np.abs(reactions[k] - seen).max() <= 1e-8 * np.abs(seen).max()


def test_continued_angles_follow_the_sequential_rule():
    """The vectorized continuation of a run's angles (whole turns counted by a cumulative sum)
    against its definition applied output by output: each angle ``prev + wrap(angle - prev)``
    of the previous output's where the time advances, the first's of the last seen output,
    none where the time does not advance; steps of up to 6 rad between outputs."""
    from rancf.elements.planar import wrap
    from rancf.formulations.spatial_dae import _continued
    rng = np.random.default_rng(3)
    angles = np.array([0, 2, 3])
    for trial in range(20):
        S = 40
        JQ = wrap(np.cumsum(rng.uniform(-6.0, 6.0, (S, 5)), axis=0))
        t = np.cumsum(rng.choice([0.0, 1e-3], S, p=[0.1, 0.9]))
        last = None if trial % 2 else (t[0] - 1e-3 * (trial % 4 == 0), 10 * rng.normal(size=5))
        expected, seen = JQ.copy(), last
        for k in range(S):
            if seen is not None and t[k] > seen[0]:
                prev = seen[1][angles]
                expected[k, angles] = prev + wrap(expected[k, angles] - prev)
            seen = (t[k], expected[k])
        _continued(t, JQ, angles, last)
        np.testing.assert_allclose(JQ, expected, rtol=0, atol=1e-12)


def test_spatial_dae_outputs_are_computed_when_first_read(monkeypatch):
    """A spatial DAE run (the driven steel four-bar) computes no joint coordinates while it
    stores its outputs; read afterwards, its poses, joint coordinates and energies equal
    those of the formulation's observe at each stored state, one output after another in a
    fresh formulation (a state at a time, not the run's vectorized pass), to 1e-12."""
    from rancf.formulations import spatial
    from rancf.formulations.spatial_dae import SpatialDAE
    from validation.spherical_four_bar import SphericalFourBar
    m = SphericalFourBar().flexible(1)[0]
    calls = []
    many = SpatialDAE._joint_coordinates_many

    def counted(self, Q, V, *bases):
        calls.append(len(Q))
        return many(self, Q, V, *bases)

    monkeypatch.setattr(SpatialDAE, "_joint_coordinates_many", counted)
    res = rancf.simulate(m, 0.02, 1e-3, method="generalized-alpha", output_every=2)
    assert res.status == "ok" and res.formulation == "dae", res.message
    assert not calls and "joint_q" not in vars(res)
    jq, nodes, energy = res.joint_q, res.nodes, res.energy()
    assert calls == [len(res.t)]
    dae = SpatialDAE(m.build(), *spatial.model_inputs(m))
    for k in range(len(res.t)):
        state = res.state(k)
        q, qd = dae.state_of_poses(state.x, state.v, res.t[k])
        seen = dae.observe(q, qd, res.t[k], np.zeros(dae.n_constraints), reactions=False)
        np.testing.assert_allclose(jq[k], seen["joint_q"], rtol=0, atol=1e-12)
        np.testing.assert_allclose(nodes[k].ravel(), seen["nodes"], rtol=0, atol=1e-12)
        for name in ("kinetic", "gravity", "elastic"):
            assert abs(energy[name][k] - seen[name]) <= 1e-12 * max(1.0, abs(seen[name]))


def test_a_spatial_recursion_result_pickles_with_its_deferred_energies():
    """A spatial recursion's energies are deferred to ``Result.energy()`` (a callable on the
    run's kernel, which does not pickle): a pickled Result carries them computed, equal to the
    original's, and so does a second copy read in 4 threads at once."""
    import pickle
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -9.81))
    c = m.add_beam(1.0, 4, E=1e8, rho=1000.0, A=1e-4, I=(1e-9, 1e-9), J=2e-9, G=4e7)
    m.add_joint("spherical", m.ground.point(0, 0, 0), c.start)
    res = rancf.simulate(m, 0.02, 1e-3, method="generalized-alpha")
    twin = rancf.simulate(m, 0.02, 1e-3, method="generalized-alpha")
    back = pickle.loads(pickle.dumps(res))
    np.testing.assert_array_equal(back.energy().to_numpy(), res.energy().to_numpy())
    for f in in_threads(lambda: twin.energy().to_numpy()):
        np.testing.assert_array_equal(f, res.energy().to_numpy())


def constant_tree():
    """A tree with no input functions (a run's outputs are mapped when first read only then):
    beam b1 pinned at the origin, rigid r1 fixed at its end (a held joint: its reactions), beam
    b2 pinned to r1 with a constant force at its end; gravity."""
    m = rancf.Model(gravity=(0.3, -9.81))
    b1 = m.add_beam(1.0, 2, 2e9, 2700.0, 1e-4, 1e-9, angle=0.3)
    end = 1.0 * np.array([np.cos(0.3), np.sin(0.3)])
    r1 = m.add_rigid_body(1.5, 0.04, position=end + [0.1, 0.0])
    m.add_joint("revolute", m.ground.point(0.0, 0.0), b1.start)
    m.add_joint("fixed", b1.end, r1.point(-0.1, 0.0))
    b2 = m.add_beam(0.7, 2, 2e9, 2700.0, 1e-4, 1e-9, start=end + [0.1, 0.0], angle=-0.6)
    m.add_joint("revolute", r1.centre, b2.start)
    m.add_force(b2.end, force=(0.5, -1.0))
    return m


@pytest.mark.parametrize("method, formulation", [("rk4", "recursive"),
                                                 ("generalized-alpha", "recursive"),
                                                 ("generalized-alpha", "dae")])
def test_planar_outputs_are_mapped_when_first_read(monkeypatch, method, formulation):
    """A planar run of a model without input functions stores its states (DECISIONS 32):
    counted mappings of the stored frames (StoredFrames), none in the run, one at the first read of the nodes, none after (the
    recursion's reactions come from the same pass, the DAE's apart). The deferred mapping is
    independent of what the formulation did meanwhile: a run's outputs read after a longer run
    of the same model (whose kernel it leaves at other states and angles) equal bit for bit
    those of the same run read at once."""
    from rancf.formulations import recursive
    calls = []
    arrays = recursive.StoredFrames._arrays

    def counted(self):
        if self._out is None:
            calls.append(self)
        return arrays(self)

    monkeypatch.setattr(recursive.StoredFrames, "_arrays", counted)
    m = constant_tree()
    dt = 2e-5 if method == "rk4" else 5e-4
    options = dict(method=method, formulation=formulation, output_every=5)
    first = rancf.simulate(m, 0.01, dt, **options)
    assert first.status == "ok" and calls == []
    _ = first.nodes             # maps the frames: one call
    assert len(calls) == 1
    _ = first.reactions, first.joint_qd, first.energy()
    assert len(calls) == 1
    later = rancf.simulate(m, 0.01, dt, **options)
    other = rancf.simulate(m, 0.05, dt, **{**options, "output_every": 500})
    assert other.status == "ok" and len(calls) == 1
    assert np.abs(other.joint_q[-1] - first.joint_q[-1]).max() > 1e-3
    for name in ("nodes", "velocities", "joint_q", "joint_qd", "reactions"):
        np.testing.assert_array_equal(getattr(later, name), getattr(first, name))
    assert len(calls) == 3
    assert np.abs(first.reactions).max() > 0


@pytest.mark.parametrize("method, formulation", [("rk4", "recursive"),
                                                 ("generalized-alpha", "recursive"),
                                                 ("generalized-alpha", "dae")])
def test_planar_outputs_are_those_of_the_inputs_the_run_had(method, formulation):
    """A driven run's outputs are mapped during the run, not at the first read: read after the
    drive's parameter has changed (a closure over a variable, as a parameter study's loop
    makes), or when the drive would raise, the driven joint's angle is the drive's value at
    the run, ``q(t) = a t`` with a = 1 rad/s (analytic), and the first read calls no input
    function."""
    rate, calls = [1.0], []

    def drive(t):
        calls.append(t)
        if rate[0] is None:
            raise RuntimeError("the drive is gone")
        return rate[0] * t, rate[0], 0.0

    m = rancf.Model(gravity=(0.0, -9.81))
    beam = m.add_beam(length=1.0, n_elements=2, E=2e9, rho=2700.0, A=1e-4, I=1e-9)
    m.add_joint("revolute", m.ground.point(0.0, 0.0), beam.start, drive=drive)
    res = rancf.simulate(m, 0.05, 1e-4, method=method, formulation=formulation)
    assert res.status == "ok"
    rate[0], n_calls = 3.0, len(calls)
    # the DAE's angle is read from its coordinates, which hold the joint to Newton's
    # tolerance (1e-10 m on the 1 m beam); a changed rate would give 3 t
    np.testing.assert_allclose(res.joint_q[:, 0], res.t, rtol=0, atol=1e-9)
    assert len(calls) == n_calls
    rate[0] = None
    _ = res.nodes, res.velocities, res.joint_qd
    assert len(calls) == n_calls


@pytest.mark.parametrize("method", ["rk4", "generalized-alpha"])
def test_spatial_reactions_are_those_of_the_inputs_the_run_had(method):
    """The spatial recursion's reactions of a driven joint are computed in the run where the
    model has input functions: read after the drive's parameter has changed, they are those
    of the run's drive ``q = a t^2`` (a = 1 rad/s^2) on a rigid body (m = 2 kg, I_zz = 0.01
    kg m^2 about its centre, at r = 0.5 m from the axis): Newton-Euler about the joint,
    ``F = m (a_c - g)``, ``M_z = (I_zz + m r^2) q'' + r cos(q) m g`` (analytic)."""
    rate = [1.0]
    mass, izz, r, g = 2.0, 1e-2, 0.5, 9.81
    m = rancf.Model(dim=3, gravity=(0.0, -g, 0.0))
    hub = m.add_rigid_body(mass=mass, inertia=np.diag([5.4e-3, 5.4e-3, izz]), position=(r, 0, 0))
    m.add_joint("revolute", m.ground.point(0, 0, 0), hub.point(-r, 0, 0), axis=(0, 0, 1),
                drive=lambda t: (rate[0] * t**2, 2 * rate[0] * t, 2 * rate[0]))
    res = rancf.simulate(m, 0.1, 1e-3, method=method)
    assert res.status == "ok"
    rate[0] = 3.0
    t = res.t
    q, qd, qdd = t**2, 2 * t, 2.0
    tangent = np.stack([-np.sin(q), np.cos(q)], axis=1)
    radial = np.stack([np.cos(q), np.sin(q)], axis=1)
    a_c = r * qdd * tangent - r * (qd**2)[:, None] * radial
    force = mass * (a_c - [0.0, -g])
    moment = (izz + mass * r**2) * qdd + r * np.cos(q) * mass * g
    reactions = res.reactions
    np.testing.assert_allclose(reactions[:, :2], force, rtol=0, atol=1e-9 * mass * g)
    np.testing.assert_allclose(reactions[:, 5], moment, rtol=0, atol=1e-9 * mass * g * r)


def _driven_arm(dim, rate, loop=False):
    """A rigid arm on a revolute joint to the ground driven by ``q = rate[0] t^2`` (a closure
    over a list, as a parameter study's loop makes), a second item on a revolute joint at
    its tip held by the effort ``-rate[0] (5 q + 0.1 qd)``, and (planar) a load function of t
    scaled by the same rate: planar (dim 2) or spatial (dim 3), for the DAE."""
    drive = lambda t: (rate[0] * t**2, 2 * rate[0] * t, 2 * rate[0])     # noqa: E731
    effort = lambda t, q, qd: -rate[0] * (5.0 * q + 0.1 * qd)          # noqa: E731
    if dim == 2:
        m = rancf.Model(gravity=(0.0, -9.81))
        arm = m.add_rigid_body(2.0, 0.04, position=(0.5, 0.0))
        joint = m.add_joint("revolute", m.ground.point(0.0, 0.0), arm.point(-0.5, 0.0),
                            drive=drive)
        m.add_force(arm.point(0.5, 0.0), force=lambda t: (0.0, -rate[0] * t))
        beam = m.add_beam(0.6, 2, 2e9, 2700.0, 1e-4, 1e-9, start=(1.0, 0.0))
        m.add_joint("revolute", arm.point(0.5, 0.0), beam.start, effort=effort)
        return m, joint
    m = rancf.Model(dim=3, gravity=(0.0, -9.81, 0.0))
    inertia = np.diag([5.4e-3, 5.4e-3, 1e-2])
    arm = m.add_rigid_body(mass=2.0, inertia=inertia, position=(0.5, 0, 0))
    joint = m.add_joint("revolute", m.ground.point(0, 0, 0), arm.point(-0.5, 0, 0),
                        axis=(0, 0, 1), drive=drive)
    tip = m.add_rigid_body(mass=1.0, inertia=inertia, position=(1.5, 0, 0))
    m.add_joint("revolute", arm.point(0.5, 0, 0), tip.point(-0.5, 0, 0), axis=(0, 0, 1),
                effort=effort)
    if loop:
        # a free joint from the ground to the tip closes a loop: its effort function is the
        # spatial DAE's own (a loop's), not the recursion's inputs'
        m.add_joint("free", m.ground.point(1.5, 0, 0), tip.centre,
                    effort=lambda t, q, qd: -rate[0] * (np.asarray(q) + 0.1 * np.asarray(qd)))
    return m, joint


@pytest.mark.parametrize("dim, loop", [(2, False), (3, False), (3, True)])
def test_dae_reactions_are_those_of_the_inputs_the_run_had(dim, loop):
    """A DAE run's reactions read after its drive was replaced (``joint.drive = other``) and
    its closures' variable changed equal bit for bit those of the same run whose functions
    were never changed: the reactions use the values the input functions gave in the run
    (recorded at the outputs in the run and played back)."""
    rate_a, rate_b = [1.0], [1.0]
    m_a, joint_a = _driven_arm(dim, rate_a, loop)
    m_b, _ = _driven_arm(dim, rate_b, loop)
    options = dict(method="generalized-alpha", formulation="dae", output_every=5)
    a = rancf.simulate(m_a, 0.05, 1e-3, **options)
    b = rancf.simulate(m_b, 0.05, 1e-3, **options)
    assert a.status == b.status == "ok"
    rate_a[0] = 3.0
    joint_a.drive = lambda t: (5 * t**2, 10 * t, 10.0)
    reactions = a.reactions
    assert np.abs(reactions).max() > 0
    np.testing.assert_array_equal(reactions, b.reactions)


@pytest.mark.parametrize("method", ["generalized-alpha", "generalized-alpha-s"])
@pytest.mark.parametrize("every", [1, 5])
def test_planar_dae_reactions_are_those_of_the_functions_at_the_outputs(method, every):
    """A planar DAE run with a drive, a load of t and an effort of (t, q, qd) plays back the
    values its loop kept at each output; its reactions equal a dense saddle-point solve of
    each stored state with the functions called there (:func:`dense_reactions`, the model's
    own functions, unchanged), to 1e-8 of the largest (the two LUs' round-off, as
    test_held_reactions_are_solved_when_first_read). generalized-alpha-S takes its power at
    the intermediate point, so its loop calls the functions again at the outputs."""
    m, _ = _driven_arm(2, [1.0])
    res = rancf.simulate(m, 0.05, 1e-3, method=method, formulation="dae", output_every=every)
    assert res.status == "ok", res.message
    expected = dense_reactions(m, res)
    scale = np.abs(expected).max()
    assert scale > 0
    assert np.abs(res.reactions - expected).max() <= 1e-8 * scale


@pytest.mark.parametrize("method", ["generalized-alpha", "generalized-alpha-s"])
@pytest.mark.parametrize("loop", [False, True])
def test_spatial_dae_reactions_are_those_of_the_functions_at_the_outputs(method, loop):
    """A spatial DAE run with a drive and effort functions (one of a joint closing a loop)
    plays back the values its loop kept at each output; its reactions equal those a fresh
    formulation computes at each stored state (the run's coordinates and reference angles)
    with the model's functions called there, unchanged, to 1e-12 of the largest: the same
    solve of the same states, so any difference in the input values would show above
    round-off."""
    from rancf.formulations import spatial
    from rancf.formulations.spatial_dae import SpatialDAE
    m, _ = _driven_arm(3, [1.0], loop)
    res = rancf.simulate(m, 0.05, 1e-3, method=method, formulation="dae", output_every=2)
    assert res.status == "ok", res.message
    stored = res._reactions
    dae = SpatialDAE(m.build(), *spatial.model_inputs(m))
    expected = np.array([dae.reactions(x, dae.multipliers(x, v, t)[1], t).ravel()
                         for (x, v), t in zip(dae._on_branches(stored.X, stored.V,
                                                               stored.branches), res.t)])
    scale = np.abs(expected).max()
    assert scale > 0
    assert np.abs(res.reactions - expected).max() <= 1e-12 * scale


def _effort_calls(dim, every, **run):
    """The calls of the driven arm's effort function in a run (``run``: simulate's t_end, dt,
    method and formulation) with an output every ``every`` steps, checked unchanged when the
    reactions and joint coordinates are read afterwards."""
    calls = []

    def effort(t, q, qd):
        calls.append(t)
        return -(5.0 * q + 0.1 * qd)
    m, _ = _driven_arm(dim, [1.0])
    m.joints[-1].effort = effort
    res = rancf.simulate(m, output_every=every, **run)
    assert res.status == "ok", res.message
    n = len(calls)
    _ = res.reactions, res.joint_q
    assert len(calls) == n
    return n


@pytest.mark.parametrize("dim", [2, 3])
def test_outputs_call_no_input_function_beyond_the_steps(dim):
    """The loop keeps the input values its last evaluation at each output's converged state
    computed (generalized-alpha: its power there): a run with an output every step calls the
    effort function as often as one with an output every 10 steps, and reading the
    reactions calls it no more."""
    runs = [_effort_calls(dim, every, t_end=0.05, dt=1e-3, method="generalized-alpha",
                          formulation="dae") for every in (1, 10)]
    assert runs[0] == runs[1] > 0


def _driven_beam(rate, calls):
    """A spatial beam (4 elements) on a revolute joint to the ground driven by ``q = rate[0]
    t^2``, a rigid tip on a revolute joint held by the effort ``-rate[0] (0.02 q + 0.001 qd)``
    (soft beside the beam's EI / L = 0.4 N m) and a
    force of t at the beam's end scaled by the same rate (closures over a list, as a
    parameter study's loop makes); every call of a function appended to ``calls``."""
    def drive(t):
        calls.append(t)
        return rate[0] * t**2, 2 * rate[0] * t, 2 * rate[0]

    def effort(t, q, qd):
        calls.append(t)
        return -rate[0] * (0.02 * q + 0.001 * qd)

    def force(t):
        calls.append(t)
        return np.array([0.0, -rate[0] * t, 0.02 * rate[0] * np.sin(40 * t)])

    m = rancf.Model(dim=3, gravity=(0.0, -9.81, 0.0))
    c = m.add_beam(1.0, 4, E=1e8, rho=1000.0, A=1e-4, I=(1e-9, 1e-9), J=2e-9, G=4e7)
    m.add_joint("revolute", m.ground.point(0, 0, 0), c.start, axis=(0, 0, 1), drive=drive)
    tip = m.add_rigid_body(mass=0.02, inertia=np.diag([1e-5, 1e-5, 2e-5]), position=(1.1, 0, 0))
    m.add_joint("revolute", c.end, tip.point(-0.1, 0, 0), axis=(0, 0, 1), effort=effort)
    m.add_force(c.end, force=force)
    return m


SPATIAL_RECURSIONS = [("rk4", 2e-5), ("dopri5", 1e-4), ("generalized-alpha", 1e-3)]


@pytest.mark.parametrize("method, dt", SPATIAL_RECURSIONS)
@pytest.mark.parametrize("every", [1, 5])
def test_spatial_recursion_reactions_are_those_of_the_functions_at_the_outputs(
        monkeypatch, method, dt, every):
    """A spatial recursive run with a drive, an effort of (t, q, qd) and a force of t keeps
    the values its loop computed at each output (explicit: the next step's first stage;
    implicit: its power at the converged state) and computes the reactions when first read:
    they equal a fresh formulation's reactions at each stored state with the model's
    functions called there, to 1e-12 of the largest (the same recursion on the same states:
    a value of another time or state would show far above round-off; dopri5's last stage
    is at t + h, within round-off of the output time)."""
    from rancf.formulations import spatial
    seen = []
    observe = spatial.Spatial.observe

    def capture(self, t, Y, *args, **kwargs):
        seen.append(Y)
        return observe(self, t, Y, *args, **kwargs)

    monkeypatch.setattr(spatial.Spatial, "observe", capture)
    m = _driven_beam([1.0], [])
    res = rancf.simulate(m, 0.02, dt, method=method, output_every=every)
    assert res.status == "ok" and res.formulation == "spatial", res.message
    assert callable(res._reactions)
    Y = seen[0]() if callable(seen[0]) else seen[0]
    fresh = spatial.of_model(m)
    n = fresh.n_y
    expected = np.array([fresh.reactions(t, y[:n]).ravel() for t, y in zip(res.t, Y)])
    scale = np.abs(expected).max()
    assert scale > 0
    assert np.abs(res.reactions - expected).max() <= 1e-12 * scale


@pytest.mark.parametrize("method, dt", SPATIAL_RECURSIONS)
def test_spatial_recursion_outputs_are_those_of_the_inputs_the_run_had(method, dt):
    """A spatial recursive run's deferred outputs read after its closures' variable changed
    equal bit for bit those of the same run whose functions never changed, and reading
    them calls no function."""
    rate_a, rate_b, calls = [1.0], [1.0], []
    a = rancf.simulate(_driven_beam(rate_a, calls), 0.01, dt, method=method)
    b = rancf.simulate(_driven_beam(rate_b, []), 0.01, dt, method=method)
    assert a.status == b.status == "ok"
    rate_a[0], n = 3.0, len(calls)
    for name in ("reactions", "nodes", "velocities", "joint_q", "joint_qd"):
        np.testing.assert_array_equal(getattr(a, name), getattr(b, name))
    np.testing.assert_array_equal(a.energy().to_numpy(), b.energy().to_numpy())
    assert np.abs(a.reactions).max() > 0 and len(calls) == n


@pytest.mark.parametrize("method, dt", [SPATIAL_RECURSIONS[0], SPATIAL_RECURSIONS[2]])
def test_spatial_recursion_outputs_call_no_function_beyond_the_steps(method, dt):
    """An output every step calls the input functions as often as one every 10 steps (the
    values kept are those the steps computed; the last output's evaluated once more). Fixed
    steps only: an adaptive scheme's steps land on the output times, so their count
    depends on the outputs'."""
    runs = []
    for every in (1, 10):
        calls = []
        res = rancf.simulate(_driven_beam([1.0], calls), 0.01, dt, method=method,
                             output_every=every)
        assert res.status == "ok", res.message
        n = len(calls)
        _ = res.reactions, res.joint_q, res.energy()
        assert len(calls) == n
        runs.append(n)
    assert runs[0] == runs[1] > 0


PLANAR_RECURSIONS = [("rk4", 1e-5), ("generalized-alpha", 1e-3), ("generalized-alpha-s", 1e-3)]


@pytest.mark.parametrize("method, dt", PLANAR_RECURSIONS)
@pytest.mark.parametrize("every", [1, 5])
def test_planar_recursion_outputs_are_those_of_the_functions_at_the_outputs(method, dt, every):
    """A planar recursive run with a drive, a load of t and an effort of (t, q, qd) keeps the
    values its loop computed at each output and maps its stored frames when first read,
    playing them back: the reactions, joint coordinates and nodes equal the same mapping of
    the same stored states with the model's functions called there (played back nothing),
    to 1e-12 of the largest (a value of another time or state shows far above round-off)."""
    from rancf.formulations import recursive
    m, _ = _driven_arm(2, [1.0])
    res = rancf.simulate(m, 0.02, dt, method=method, formulation="recursive",
                         output_every=every)
    assert res.status == "ok", res.message
    stored = res._frames
    assert isinstance(stored, recursive.StoredFrames) and stored._out is None
    if method == "rk4":
        assembly, t, Y, branches, held, recorded = stored._args
        X, V, q, qd, reactions = recursive._kernel_frames(assembly, t, Y, branches, held)
    else:
        recorded, t, q_, v_, branches = stored._args
        X, V, q, qd, reactions = stored._compute.__self__.frames(t, q_, v_, branches)
    assert recorded is not None
    for got, expected in ((res.reactions, reactions), (res.joint_q, q), (res.joint_qd, qd),
                          (res.nodes, X.reshape(res.nodes.shape))):
        scale = np.abs(expected).max()
        assert scale > 0
        assert np.abs(got - expected).max() <= 1e-12 * scale


@pytest.mark.parametrize("method, dt", PLANAR_RECURSIONS)
def test_planar_recursion_outputs_are_those_of_the_inputs_the_run_had(method, dt):
    """A planar recursive run's outputs read after its closures' variable changed equal bit
    for bit those of the same run whose functions never changed."""
    rate_a, rate_b = [1.0], [1.0]
    m_a, _ = _driven_arm(2, rate_a)
    m_b, _ = _driven_arm(2, rate_b)
    a = rancf.simulate(m_a, 0.01, dt, method=method, formulation="recursive")
    b = rancf.simulate(m_b, 0.01, dt, method=method, formulation="recursive")
    assert a.status == b.status == "ok"
    rate_a[0] = 3.0
    for name in ("reactions", "nodes", "velocities", "joint_q", "joint_qd"):
        np.testing.assert_array_equal(getattr(a, name), getattr(b, name))
    assert np.abs(a.reactions).max() > 0


@pytest.mark.parametrize("method, dt", PLANAR_RECURSIONS[:2])
def test_planar_recursion_outputs_call_no_function_beyond_the_steps(method, dt):
    """An output every step calls the effort function as often as one every 10 steps, and
    reading the outputs calls it no more (generalized-alpha-S is left out: its power is at
    the intermediate point, so its loop calls the efforts again at each output)."""
    runs = [_effort_calls(2, every, t_end=0.01, dt=dt, method=method, formulation="recursive")
            for every in (1, 10)]
    assert runs[0] == runs[1] > 0


RUNS = [(2, False, "rk4", "auto", 2e-5), (2, False, "generalized-alpha", "recursive", 1e-3),
        (2, False, "generalized-alpha", "dae", 1e-3), (3, False, "rk4", "auto", 1e-4),
        (3, False, "generalized-alpha", "auto", 1e-3), (3, True, "generalized-alpha", "dae", 1e-3)]


@pytest.mark.parametrize("dim, loop, method, formulation, dt", RUNS)
def test_accelerations_and_full_reactions_play_back_the_inputs_the_run_had(
        dim, loop, method, formulation, dt):
    """The outputs a Result computes from the forward dynamics at its stored frames (the
    full reactions of every joint, planar; the accelerations) call no input function once
    the run is over: read when every function raises, they equal those of the same run read
    with the functions called at the stored frames (the run's Recorded values left out:
    ``_inputs`` None), to 1e-12 of the largest (the same solve at the same states: a value
    of another call would show far above round-off). Before, they called the functions
    again, and raised."""
    runs = []
    for _ in range(2):
        rate = [1.0]
        m, joint = _driven_arm(dim, rate, loop)
        res = rancf.simulate(m, 0.01, dt, method=method, formulation=formulation,
                             output_every=100 if dt < 1e-4 else 2)
        assert res.status == "ok", res.message
        runs.append((m, res, rate))
    (m_a, a, _), (m_b, b, rate_b) = runs
    a._inputs = None            # a: the functions called at its stored frames
    point_a, point_b = m_a.joints[-1].child, m_b.joints[-1].child
    with warnings.catch_warnings():
        # (planar: the warning that reaction(joint) is the full reaction now)
        warnings.simplefilter("ignore", FutureWarning)
        expected = [a.acceleration(point_a)] + [a.reaction(j) for j in range(len(m_a.joints))]
        rate_b[0] = None        # b: every function raises from now on (None * t)
        got = [b.acceleration(point_b)] + [b.reaction(j) for j in range(len(m_b.joints))]
    free = [False] + [j.kind == "free" for j in m_a.joints]
    for e, g, holds_nothing in zip(expected, got, free):
        scale = np.abs(e).max()
        if holds_nothing:
            # a free joint transmits nothing: its effort is an applied force, not a reaction
            assert not np.abs(e).any() and not np.abs(g).any()
            continue
        assert scale > 0 and np.abs(g - e).max() <= 1e-12 * scale


@pytest.mark.parametrize("dim", [2, 3])
def test_a_run_an_input_function_stopped_keeps_its_values_or_refuses(dim):
    """A run an effort stopped (it raises from t = 5 ms on, and at every call after its first
    failure): its Result plays the kept values back, calling nothing, whether the compiled
    loop or SciPy's ran (which records them at each output as it produces it: before, it
    mapped its frames at the run's end, calling the effort, and raised out of the run). The
    same Result with its record left out (``_inputs`` None, as a run that kept none) refuses
    the accelerations (:func:`~rancf.results.outputs.played_inputs`: RuntimeError naming the
    effort) rather than call the function that failed."""
    for method in ("rk4", "scipy:RK45"):
        failed, calls = [], []

        def effort(t, q, qd):
            calls.append(t)
            if failed or t > 5e-3:
                failed.append(t)
                raise KeyError("the table is closed")
            return -(5.0 * q + 0.1 * qd)
        m, _ = _driven_arm(dim, [1.0])
        m.joints[-1].effort = effort
        res = rancf.simulate(m, 0.01, 1e-4 if dim == 3 else 2e-5, method=method,
                             output_every=10)
        assert res.status == "failed" and isinstance(res.error, rancf.UserFunctionError)
        assert 1 < len(res.t) and res.t[-1] <= 5e-3 < res.error.t
        made = len(calls)
        point = m.joints[-1].child
        assert np.isfinite(res.acceleration(point)).all()
        res._inputs = None
        with pytest.raises(RuntimeError, match="call the effort function again"):
            played_inputs(res, "the accelerations")
        assert len(calls) == made
