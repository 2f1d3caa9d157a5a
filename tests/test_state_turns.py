"""Runs from a :class:`rancf.State` taken past half a turn (``State.joint_q``): a run in two
halves, the second from ``res.state(t1)`` of the first, against one uninterrupted run over the
whole time (independent of the restart), in every formulation; and the State saved and loaded
with its Result."""
import dataclasses
import os

import numpy as np
import pytest

import rancf
from rancf.simulate import simulate_timed


def planar_turning():
    """A rigid body pinned 0.3 m off its centre, no gravity, a torsion spring (k = 1 N m/rad)
    at the rest angle 4 rad: it swings from 0 through pi to about 8 rad and back."""
    m = rancf.Model(gravity=(0.0, 0.0))
    r = m.add_rigid_body(2.0, 0.1, position=(0.3, 0.0))
    pin = m.add_joint("revolute", m.ground.point(0.0, 0.0), r.point(-0.3, 0.0))
    m.add_rotational_spring_damper(pin, 1.0, 0.0, rest_angle=4.0)
    return m, pin


def spatial_turning(loop=False, by_effort=False):
    """A spatial body on a revolute joint about a skew axis, no gravity, its spring (or the
    effort function ``-k (q - q0)``) at the rest angle 4 rad, k = 7 N m/rad: it swings from 0
    through pi to about 8 rad; with ``loop`` a free joint to the ground closes a loop (the
    spatial DAE)."""
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, 0.0))
    b = m.add_rigid_body(1.5, np.diag([0.02, 0.05, 0.04]), position=(0.4, 0.1, -0.3))
    axis = np.array([0.3, 1.0, 0.2]) / np.linalg.norm([0.3, 1.0, 0.2])
    if loop:
        m.add_joint("free", m.ground.point(0.4, 0.1, -0.3), b.centre)
    effort = (lambda t, q, qd: -7.0 * (q - 4.0)) if by_effort else None
    j = m.add_joint("revolute", m.ground.point(0, 0, 0), b.point(-0.4, -0.1, 0.3), axis=axis,
                    effort=effort)
    if not by_effort:
        m.add_rotational_spring_damper(j, k=7.0, c=0.0, rest_angle=4.0)
    return m, j


def halves(m, t1, dt, every, **options):
    """One run over [0, 2 t1] and a run in two halves, the second from the first's last state;
    and the second half from that state without its joint coordinates (the coordinates
    alone: a State built from them)."""
    whole = rancf.simulate(m, 2 * t1, dt, output_every=every, **options)
    first = rancf.simulate(m, t1, dt, output_every=every, **options)
    state = first.state(-1)
    second = rancf.simulate(m, t1, dt, output_every=every, state=state, **options)
    plain = rancf.simulate(m, t1, dt, output_every=every,
                           state=rancf.State(state.x, state.v), **options)
    assert whole.status == first.status == second.status == plain.status == "ok"
    return whole, first, second, plain


def assert_second_half_continues(whole, second, plain, joint, bound):
    """The second half's joint angle and poses are the whole run's from the middle on, to
    ``bound``; the plain State's start a turn back (its angle read within (-pi, pi] of the
    reference 0), and its motion far from the whole run's (the spring pulling the other way)."""
    k = len(whole.t) - len(second.t)
    q = whole.joint(joint)[0][k:]
    assert q[0] > np.pi + 0.5                                     # the middle is past pi
    assert np.abs(second.joint(joint)[0] - q).max() <= bound
    assert np.abs(np.asarray(second.nodes) - np.asarray(whole.nodes)[k:]).max() <= bound
    assert plain.joint(joint)[0][0] == pytest.approx(q[0] - 2 * np.pi, abs=1e-9)
    assert np.abs(np.asarray(plain.nodes) - np.asarray(whole.nodes)[k:]).max() > 0.5


@pytest.mark.parametrize("method", ["rk4", "newmark"])
def test_planar_recursion_in_two_halves_is_one_run(method):
    """Planar recursion, explicit and implicit: the second half from ``state(t1)`` is the
    whole run's to round-off (the restart recomputes the generalized velocities from the node
    velocities: 1e-11 over 1 s measured under RK4, 1e-14 under Newmark, whose acceleration at
    a step is the state's; generalized-alpha carries an algorithmic acceleration that a State
    does not hold, 2e-8 rad apart after a restart)."""
    m, pin = planar_turning()
    whole, _, second, plain = halves(m, 1.0, 1e-3, 100, method=method, formulation="recursive")
    assert_second_half_continues(whole, second, plain, pin, 1e-9)


def test_planar_dae_in_two_halves_is_one_run():
    """Planar DAE (projected: its velocities satisfy the joints, which the restart checks):
    the second half is the whole run's to much less than the scheme's own error, the gap
    between the whole run and the recursion's at the same step (the restart recomputes the
    multipliers and accelerations of the state, which the index-3 loop carried as the scheme's:
    1.8e-7 against 4e-5 measured)."""
    m, pin = planar_turning()
    whole, _, second, plain = halves(m, 1.0, 1e-3, 100, method="newmark", formulation="dae",
                                     projection=True)
    rec = rancf.simulate(m, 2.0, 1e-3, method="newmark", formulation="recursive",
                         output_every=100)
    error = np.abs(rec.joint(pin)[0] - whole.joint(pin)[0]).max()
    assert error > 1e-6
    assert_second_half_continues(whole, second, plain, pin, 0.05 * error)


@pytest.mark.parametrize("method, by_effort", [("rk4", False), ("newmark", False),
                                               ("rk4", True)])
def test_spatial_recursion_in_two_halves_is_one_run(method, by_effort):
    """Spatial recursion (the angle is the state's link coordinate), the spring or an effort
    function of the angle: the second half is the whole run's to round-off (4e-15 measured)."""
    m, j = spatial_turning(by_effort=by_effort)
    options = {} if method == "rk4" else {"tol": 1e-12}
    whole, _, second, plain = halves(m, 0.5, 1e-3, 50, method=method, formulation="recursive",
                                     **options)
    assert_second_half_continues(whole, second, plain, j, 1e-10)


@pytest.mark.parametrize("loop, by_effort", [(False, False), (True, False), (True, True)])
def test_spatial_dae_in_two_halves_is_one_run(loop, by_effort):
    """Spatial DAE (the tree with formulation 'dae', or the revolute closing a loop beside a
    free joint): the spring's (or effort's) reference angle and the reported angle continue
    from the State's; the second half is the whole run's to much less than the scheme's
    error, the gap between the whole run and the recursion's of the tree at the same step (the
    restart projects the velocities and recomputes the state's multipliers: 1.8e-5 against
    4e-4 measured)."""
    m, j = spatial_turning(loop, by_effort)
    whole, _, second, plain = halves(m, 0.5, 1e-3, 50, method="newmark", formulation="dae",
                                     tol=1e-12)
    mt, jt = spatial_turning(False, by_effort)
    rec = rancf.simulate(mt, 1.0, 1e-3, method="newmark", formulation="recursive", tol=1e-12,
                         output_every=50)
    error = np.abs(rec.joint(jt)[0] - whole.joint(j)[0]).max()
    assert error > 1e-5
    assert_second_half_continues(whole, second, plain, j, 0.2 * error)


def test_a_scipy_rotation_vector_past_pi_restarts_on_its_branch():
    """A SciPy solver keeps a spherical joint's rotation vector past pi (no re-centring); its
    effort function ``-K (psi - q0)``, |q0| = 3.6 rad, sees the vector. A run from its State
    starts on the State's vector (the other one of the rotation than the poses' log), so the
    second half is the whole run's to the solver's tolerance (1.5e-10 measured, the step
    sequence restarting); from the coordinates alone it starts on log(R), where the effort
    differs by ``K 2 pi`` (1.9 m apart)."""
    axis = np.array([0.3, 1.0, 0.2]) / np.linalg.norm([0.3, 1.0, 0.2])
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, 0.0))
    b = m.add_rigid_body(1.5, np.diag([0.02, 0.05, 0.04]), position=(0.4, 0.1, -0.3))
    j = m.add_joint("spherical", m.ground.point(0, 0, 0), b.point(-0.4, -0.1, 0.3),
                    effort=lambda t, q, qd: -7.0 * (q - 3.6 * axis) - 0.15 * qd)
    options = dict(method="scipy:DOP853", rtol=1e-12, atol=1e-12)
    whole, first, second, plain = halves(m, 0.75, 1e-3, 50, **options)
    k = len(whole.t) - len(second.t)
    assert np.linalg.norm(whole.joint(j)[0][k]) > np.pi + 0.2
    assert np.abs(second.joint(j)[0] - whole.joint(j)[0][k:]).max() <= 1e-8
    assert np.abs(np.asarray(second.nodes) - np.asarray(whole.nodes)[k:]).max() <= 1e-8
    assert np.linalg.norm(plain.joint(j)[0][0]) < np.pi
    assert np.abs(np.asarray(plain.nodes) - np.asarray(whole.nodes)[k:]).max() > 0.1


@pytest.mark.parametrize("dim", [2, 3])
def test_a_saved_result_restarts_on_its_turns(tmp_path, dim):
    """``Result.save`` then ``rancf.load`` (with the model, and without it): the loaded
    Result's ``state(-1)`` holds the run's joint coordinates past pi, and the run from it is
    the run from the State before saving, bit for bit."""
    m, j = planar_turning() if dim == 2 else spatial_turning()
    first = rancf.simulate(m, 1.0 if dim == 2 else 0.5, 1e-3, method="rk4", output_every=50)
    path = os.path.join(tmp_path, "first.npz")
    first.save(path)
    direct = rancf.simulate(m, 0.2, 1e-3, method="rk4", state=first.state(-1))
    for model in (m, None):
        state = rancf.load(path, model=model).state(-1)
        assert np.array_equal(state.joint_q, first.state(-1).joint_q)
        assert np.max(np.abs(state.joint_q)) > np.pi + 0.5
        again = rancf.simulate(m, 0.2, 1e-3, method="rk4", state=state)
        assert np.array_equal(np.asarray(again.nodes), np.asarray(direct.nodes))


def test_joint_coordinates_of_another_model_are_left_and_non_finite_ones_refused():
    """A State built from coordinates has ``joint_q`` None (today's start: angles read within
    half a turn of the reference); joint coordinates of another count (a State of a model with
    other joints) are left: the run is the coordinates' alone, bit for bit; non-finite ones
    are refused naming state.joint_q."""
    m, pin = planar_turning()
    first = rancf.simulate(m, 1.0, 1e-3, method="rk4")
    state = first.state(-1)
    assert state.joint_q[0] > np.pi + 0.5
    plain = rancf.State(state.x, state.v)
    assert plain.joint_q is None
    alone = rancf.simulate(m, 0.1, 1e-3, method="rk4", state=plain)
    other = rancf.simulate(m, 0.1, 1e-3, method="rk4",
                           state=dataclasses.replace(state, joint_q=[state.joint_q[0], 0.0]))
    assert np.array_equal(np.asarray(other.nodes), np.asarray(alone.nodes))
    assert np.array_equal(other.joint_q, alone.joint_q)
    with pytest.raises(ValueError, match="state.joint_q"):
        rancf.simulate(m, 0.1, 1e-3, state=dataclasses.replace(state, joint_q=[np.nan]))
    ms, js = spatial_turning()
    res = rancf.simulate(ms, 0.1, 1e-3, method="rk4")
    with pytest.raises(ValueError, match="state.joint_q"):
        rancf.simulate(ms, 0.1, 1e-3, state=dataclasses.replace(res.state(-1),
                                                                 joint_q=[np.inf]))


def spatial_pinned_body(loop=False):
    """A spatial body on a revolute joint about a skew axis through a point 0.4 m off its
    centre line, no gravity, a torsion spring (k = 1 N m/rad, rest angle 2.5 rad) and a moment
    of 1.5 N m about the axis on the body: its equilibrium is 4 rad, past pi; with ``loop`` a
    free joint to the ground closes a loop (the spatial DAE)."""
    axis = np.array([0.3, 1.0, 0.2]) / np.linalg.norm([0.3, 1.0, 0.2])
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, 0.0))
    J = np.diag([0.02, 0.05, 0.04])
    b = m.add_rigid_body(1.5, J, position=(0.4, 0.1, -0.3))
    if loop:
        m.add_joint("free", m.ground.point(0.4, 0.1, -0.3), b.centre)
    j = m.add_joint("revolute", m.ground.point(0, 0, 0), b.point(-0.4, -0.1, 0.3), axis=axis)
    m.add_rotational_spring_damper(j, k=1.0, c=0.0, rest_angle=2.5)
    m.add_force(b.centre, moment=1.5 * axis)
    d = np.array([0.4, 0.1, -0.3])
    inertia = axis @ J @ axis + 1.5 * (d @ d - (d @ axis) ** 2)
    return m, j, inertia


@pytest.mark.parametrize("model", ["planar", "spatial", "spatial loop"])
def test_modes_at_an_equilibrium_past_pi_from_its_state(model):
    """``rancf.modes(model, state=rancf.static(model).state(0))`` at the torsion spring's
    equilibrium 4 rad: the State's joint coordinates put the spring's angle on its turn, so the
    state is an equilibrium and the one mode is the pendulum's ``sqrt(k / I) / (2 pi)`` (I
    about the pin; 1e-9). From the coordinates alone the spring's angle is 4 - 2 pi: not an
    equilibrium, refused (before State.joint_q, also from ``static(model).state(0)``, which
    the message of the refusal recommends)."""
    if model == "planar":
        m = rancf.Model(gravity=(0.0, 0.0))
        r = m.add_rigid_body(2.0, 0.1, position=(0.3, 0.0))
        j = m.add_joint("revolute", m.ground.point(0.0, 0.0), r.point(-0.3, 0.0))
        m.add_rotational_spring_damper(j, 1.0, 0.0, rest_angle=2.5)
        m.add_force(r.centre, moment=1.5)
        inertia = 0.1 + 2.0 * 0.3**2
    else:
        m, j, inertia = spatial_pinned_body(model == "spatial loop")
    eq = rancf.static(m, load_steps=20)
    assert eq.status == "ok" and float(np.ravel(eq.joint(j)[0])[0]) == pytest.approx(4.0,
                                                                                     abs=1e-8)
    state = eq.state(0)
    found = rancf.modes(m, state=state, n=1)
    # the spatial DAE's stiffness of the moment is central differences in the Euler
    # parameters, step 1e-7 (spatial_dae.py): round-off of order eps |M| / 1e-7 = 3e-9 of the
    # moment (1.5 N m) against the spring's k = 1 N m/rad; the recursion's and the planar
    # stiffness are analytic
    bound = 1e-8 if model == "spatial loop" else 1e-9
    assert found.frequencies[0] == pytest.approx(np.sqrt(1.0 / inertia) / (2 * np.pi),
                                                 rel=bound)
    # the DAE of the loop balances the state by multipliers whose stiffness comes out
    # unsymmetric there
    with pytest.raises(ValueError, match="not an equilibrium|not symmetric"):
        rancf.modes(m, state=rancf.State(state.x, state.v), n=1)


def test_a_reduced_model_starts_on_the_turns_of_its_state():
    """A reduced model (the adaptive modal method) started from a full DAE run's State past
    pi: its first output's joint angle is the State's (1e-9), and the spring's energy there the
    full run's (1e-9 of it; on the wrapped angle the spring would hold ``k (2 pi)^2 / 2``
    more or less); from the coordinates alone, the angle a turn back. The timed full DAE
    (``simulate_timed``) starts on the State's angle too."""
    m = rancf.Model(gravity=(0.0, 0.0), elastic_model="berzeri")
    b = m.add_beam(1.0, 6, E=7e5, rho=7200.0, A=4e-4, I=1.333e-8)
    pin = m.add_joint("revolute", m.ground.point(0.0, 0.0), b.start)
    m.add_rotational_spring_damper(pin, 2.0, 0.0, rest_angle=4.0)
    full = rancf.simulate(m, 1.0, 1e-3, method="backward-euler", formulation="dae",
                          output_every=100)
    state = full.state(-1)
    assert state.joint_q[0] > np.pi + 0.5
    reduced = rancf.reduce(m, sparsity=10, n_samples=20, seed=0)
    res = rancf.simulate(reduced, 0.01, 1e-3, method="backward-euler", state=state)
    plain = rancf.simulate(reduced, 0.01, 1e-3, method="backward-euler",
                           state=rancf.State(state.x, state.v))
    assert res.joint(pin)[0][0] == pytest.approx(state.joint_q[0], abs=1e-9)
    elastic = full.energy()["elastic"].to_numpy()[-1]
    assert res.energy()["elastic"].to_numpy()[0] == pytest.approx(elastic, rel=1e-9)
    assert plain.joint(pin)[0][0] == pytest.approx(state.joint_q[0] - 2 * np.pi, abs=1e-9)
    # the timed full DAE of the benchmarks likewise
    timed = simulate_timed(m, 0.01, 1e-3, state=state)
    assert timed.joint(pin)[0][0] == pytest.approx(state.joint_q[0], abs=1e-9)


@pytest.mark.parametrize("dim, options", [
    (2, dict(method="rk4")),
    (2, dict(method="newmark", formulation="dae", projection=True)),
    (3, dict(method="rk4")),
    (3, dict(method="newmark", formulation="dae", tol=1e-12)),
    (3, dict(method="newmark", loop=True, tol=1e-12))])
def test_joint_angles_of_another_model_are_not_taken_for_turns(dim, options):
    """A State whose ``joint_q`` has the model's count but an angle that is not the angle of
    its coordinates modulo 2 pi (a State of another model with as many joints: here the
    State's own angle plus 2 pi + 1 rad) starts as the coordinates alone do, bit for bit (the
    turns it would name are no turns of these coordinates); its own angle moved by a whole
    turn (the same rotation) is taken: the run's first angle is that one."""
    options = dict(options)
    loop = options.pop("loop", False)
    m, joint = planar_turning() if dim == 2 else spatial_turning(loop)
    first = rancf.simulate(m, 1.0 if dim == 2 else 0.5, 1e-3, output_every=100, **options)
    state = first.state(-1)
    col = len(state.joint_q) - 1          # the revolute joint's angle, last in joint_q
    assert state.joint_q[col] > np.pi + 0.5
    run = lambda jq: rancf.simulate(m, 0.1, 1e-3, output_every=20, **options,
                                    state=dataclasses.replace(state, joint_q=jq))
    alone = rancf.simulate(m, 0.1, 1e-3, output_every=20, **options,
                           state=rancf.State(state.x, state.v))
    other = state.joint_q.copy()
    other[col] += 2 * np.pi + 1.0
    unrelated = run(other)
    assert unrelated.status == alone.status == "ok"
    np.testing.assert_array_equal(np.asarray(unrelated.nodes), np.asarray(alone.nodes))
    np.testing.assert_array_equal(unrelated.joint_q, alone.joint_q)
    turned = state.joint_q.copy()
    turned[col] += 2 * np.pi
    # the first output's angle is the State's, read again from its coordinates: round-off
    assert run(turned).joint(joint)[0][0] == pytest.approx(turned[col], abs=1e-9)
