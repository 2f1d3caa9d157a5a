"""A reduced run that drifts away from its model says so (issues 24, 26;
:mod:`rancf.formulations.reduced.drift`).

The model of the audit: a 1 m Berzeri beam of 8 elements, pinned, released from horizontal,
0.2 s at 1 ms. Too few modes or samples (8 of 32 modal coordinates, 16 sampled equations) make
the motion drift: the checks must flag it. Enough (16, 32; the gallery example's settings) must
not be flagged. The energies are recomputed here from the element strain energy of
:func:`rancf.elements.beam.elastic_energy`, the mass matrix and the gravity force, not from the
Result. The stretch check is given a run whose stretch is known in closed form: the same beam
spun without gravity, its free end's equations left out of the sample.
"""
import re

import numpy as np
import pytest

import rancf
from rancf.elements.beam import elastic_energy
from rancf.formulations.reduced.drift import ENERGY_GAIN, STRETCH

RHO, AREA, INERTIA, LENGTH, N_ELEMENTS, G = 7800.0, 1e-4, 1e-9, 1.0, 8, 9.81


def pendulum(E):
    m = rancf.Model(gravity=(0.0, -G), elastic_model="berzeri")
    b = m.add_beam(LENGTH, N_ELEMENTS, E=E, rho=RHO, A=AREA, I=INERTIA)
    m.add_joint("revolute", m.ground.point(0.0, 0.0), b.start)
    return m


def total_energy(model, E, res):
    """Kinetic + strain + gravity energy (J) at every output, from the full model's energy
    functions at the run's states (no work, no damping: the model is passive)."""
    A = model.build()
    x = res.nodes.reshape(len(res.t), -1)
    v = res.velocities.reshape(len(res.t), -1)
    M = A.mass_matrix()
    kinetic = 0.5 * np.einsum("ti,ti->t", v, (M @ v.T).T)
    l = LENGTH / N_ELEMENTS
    strain = np.array([sum(elastic_energy(xt[4 * i:4 * i + 8], l, E, AREA,
                                          INERTIA, model="berzeri")
                           for i in range(N_ELEMENTS)) for xt in x])
    return kinetic + strain - x @ A.gravity_force


def value_in(message, name):
    """The number after ``name`` in a message."""
    return float(re.search(re.escape(name) + r" ([-+0-9.e]+)", message).group(1))


@pytest.fixture(scope="module")
def runs():
    out = {}
    for E, s, n in ((2e11, 8, 16), (2e11, 16, 32)):
        m = pendulum(E)
        out[E, s, n] = m, rancf.simulate(rancf.reduce(m, s, n), 0.2, 1e-3)
    return out


# the energy scale m |g| L of a pendulum released at rest from the reference configuration
SCALE = RHO * AREA * LENGTH * G * LENGTH


def stop_time(message):
    """The time of the step that stopped a run, from its message (s)."""
    return value_in(message, "at t =")


def test_too_few_modes_gain_energy_and_are_flagged():
    """E = 2e11 with 8 modes, 16 samples: the passive pendulum gains energy (the full backward
    Euler run loses 0.0066 J). The check runs at every step: the run stops "diverged" at the
    first step whose gain passes the limit, keeping every output before it. With an output at
    every step, the gain recomputed here at the outputs stays within the limit (they all
    passed), the stopping step is the one after the last output, the message's gain is above
    the limit, and it names each beam's settings and sizes (32 interior coordinates)."""
    m = pendulum(2e11)
    res = rancf.simulate(rancf.reduce(m, 8, 16), 0.2, 1e-3, output_every=1)
    assert res.status == "diverged"
    assert 2 <= len(res.t) and res.t[-1] < 0.2
    assert stop_time(res.message) == pytest.approx(res.t[-1] + 1e-3, abs=1e-9)
    total = total_energy(m, 2e11, res)
    # the outputs' gain, recomputed: round-off of 1e3 terms of the scale at most
    assert np.max(total - total[0]) <= ENERGY_GAIN * SCALE * (1 + 1e-9)
    assert value_in(res.message, "energy gain") > ENERGY_GAIN * SCALE
    assert value_in(res.message, "elastic(0) =") == pytest.approx(SCALE, rel=1e-3)
    assert "beam 0: sparsity 8, n_samples 16 of its 32 interior coordinates" in res.message


def test_the_check_is_part_of_the_run():
    """The checks judge the Solution the implicit loop returns, before the one Result of the run
    is made: ``result_of`` receives status "diverged" and the message, every frame is kept, and
    the energies the check computed (which the Result keeps) are the full model's, recomputed
    here from the element strain energy, the mass matrix and the gravity force. Round-off of
    sums of about 1e3 terms of up to the energy scale bounds their difference: 1e-10 of it."""
    from rancf.formulations.reduced.drift import drift_checked
    from rancf.results import result_of
    m = pendulum(2e11)
    reduced = rancf.reduce(m, 8, 16)
    problem, x0, v0 = reduced.equations()
    problem.step_solver.watch = None    # the in-step checks off: the finished run's are judged
    sol = rancf.implicit.integrate(problem, x0, v0, 0.2, 1e-3, method="backward-euler",
                                   output_every=10, tol=reduced.tol, max_iter=reduced.max_iter)
    assert sol.status == "ok" and len(sol.t) == 21       # the loop alone does not judge
    checked = drift_checked(reduced, sol)
    assert checked.status == "diverged" and "energy gain" in checked.message
    res = result_of(m, checked)
    assert res.status == "diverged" and res.message == checked.message
    assert len(res.t) == 21 and res.t[-1] == pytest.approx(0.2)
    assert np.array_equal(res.nodes.reshape(len(res.t), -1), sol.nodes.reshape(len(sol.t), -1))
    total = total_energy(m, 2e11, res)
    assert np.abs(res.energy().total - total).max() < 1e-10 * SCALE
    assert value_in(res.message, "energy gain") == pytest.approx(np.max(total - total[0]),
                                                                 rel=1e-3)


#: the spun beam's angular velocity (rad/s)
OMEGA = 20.0


def test_a_beam_that_does_not_keep_its_length_is_flagged():
    """The pendulum's beam (E = 2e9) without gravity, spun about its pin at OMEGA, reduced with
    no mode (sparsity 0: the beam stays straight, ``x_a = Phi_c x_b``, its pin node's slope
    turning and scaling it) and one sampled interior node that is not the free end
    (``free_ends=False``). A uniform axial stress of a straight beam puts a force on its end
    nodes' positions only (at an interior node, and on any slope, the shape functions'
    derivatives integrate to zero), and the pin's reaction takes the force at the pinned end:
    no sampled row sees the stretch. Their exact solution is then free flight, ``x(t) = x0 +
    t v0`` (no force, no acceleration; backward Euler keeps uniform motion exactly): the point
    at s moves to ``s (1, OMEGA t)``, and every element's chord grows by ``sqrt(1 + (OMEGA
    t)^2)``, past twice its length (STRETCH = 1) from ``OMEGA t = sqrt 3``: the run stops
    "diverged" at the first step past it, t = 0.087 s (the check runs at every step), keeping
    the outputs before. The full model's free end holds the length (its centrifugal strain
    ``rho OMEGA^2 L^2 / (2 E)`` is 8e-4)."""
    m = rancf.Model(gravity=(0.0, 0.0), elastic_model="berzeri")
    b = m.add_beam(LENGTH, N_ELEMENTS, E=2e9, rho=RHO, A=AREA, I=INERTIA)
    m.add_joint("revolute", m.ground.point(0.0, 0.0), b.start)
    A = m.build()
    reduced = rancf.reduce(m, sparsity=0, n_samples=A.node_size, seed=0, free_ends=False)
    free_end = A.node_size * N_ELEMENTS + np.arange(A.node_size)
    assert not np.isin(free_end, reduced.rows).any(), "the premise: the seed's sample misses it"
    # the rigid turn's rates, OMEGA e_z x r of every node's position r and slope r'
    nodes = A.x0.reshape(-1, A.node_size)
    v0 = (OMEGA * np.stack([-nodes[:, 1], nodes[:, 0], -nodes[:, 3], nodes[:, 2]], axis=1)).ravel()
    # the elastic energy of the stretch trips the energy check first (at 6 ms): it is turned
    # off here, so that the stretch check is the one judged
    problem, x0, v0 = reduced.equations(rancf.State(A.x0, v0))
    problem.step_solver.watch.energy = False
    res = rancf.implicit.integrate(problem, x0, v0, 0.2, 1e-3, method="backward-euler",
                                   output_every=10, tol=reduced.tol, max_iter=reduced.max_iter)
    # each step's sampled rows are solved to tol = 1e-11 m, an error that two sums over the
    # 200 steps grow to at most 200^2 / 2 tol = 2e-7 m
    free = A.x0 + res.t[:, None] * v0
    assert np.abs(res.nodes.reshape(len(res.t), -1) - free).max() < 1e-6
    first = np.ceil(np.sqrt(3.0) / OMEGA / 1e-3) * 1e-3     # the first step past STRETCH
    stretch = np.sqrt(1.0 + (OMEGA * first)**2) - 1.0
    assert stretch > STRETCH
    assert res.status == "diverged"
    assert stop_time(res.message) == pytest.approx(first, abs=1e-9)
    assert len(res.t) == 9 and res.t[-1] == pytest.approx(0.08)
    # the message prints 4 digits
    assert value_in(res.message, "element stretch") == pytest.approx(stretch, rel=1e-3)
    assert "n_samples" in res.message


def test_enough_modes_are_not_flagged(runs):
    """E = 2e11 with 16 modes, 32 samples follows the full DAE backward Euler run (tip within
    2 mm) and loses energy like it: status "ok"."""
    m, res = runs[2e11, 16, 32]
    full = rancf.simulate(m, 0.2, 1e-3, method="backward-euler", formulation="dae")
    assert np.abs(res.tip() - full.tip()).max() < 2e-3
    total = total_energy(m, 2e11, res)
    assert np.max(total - total[0]) < ENERGY_GAIN * SCALE
    assert res.status == "ok"


def test_the_gallery_example_is_not_flagged():
    """examples/plot_09_adaptive_modal.py's settings (40 elements, 80 modes, 160 samples, 0.8 s)
    run "ok"."""
    model = rancf.Model(gravity=(0.0, -9.81), elastic_model="berzeri")
    beam = model.add_beam(length=1.0, n_elements=40, E=7e5, rho=7200.0, A=4e-4, I=1.333e-8)
    model.add_joint("revolute", model.ground.point(0.0, 0.0), beam.start)
    res = rancf.simulate(rancf.reduce(model, sparsity=80, n_samples=160, seed=0), t_end=0.8,
                         dt=1e-3, output_every=10)
    assert res.status == "ok", res.message


def test_a_soft_beam_with_16_modes_drifts_and_is_flagged():
    """E = 2e9 with 16 modes, 32 samples: the passive pendulum gains energy, more than the drift
    check's limit ENERGY_GAIN of the energy scale m |g| L (the scale of a pendulum at rest and
    unstressed): flagged. The gain is recomputed here from the model's energy functions, the
    independent evidence that the motion is wrong (a passive model under backward Euler only
    loses energy; the full DAE run loses some).

    The run is chaotic: given random initial rates of 1e-9 m/s (1e-12 m a step), 8 runs keep
    the tip within 5-24 mm of the full run's up to 0.05 s, then leave it by at most anywhere
    from 0.11 to 1.96 m: that departure is no premise a test can hold. Their energy gains are
    0.98 to 76 times the scale, at least 19 times the limit 0.05. The check at every step stops
    the run at the first step past the limit; every output before it is within the limit
    (recomputed here)."""
    m = pendulum(2e9)
    res = rancf.simulate(rancf.reduce(m, 16, 32), 0.2, 1e-3, output_every=1)
    total = total_energy(m, 2e9, res)
    assert np.max(total - total[0]) <= ENERGY_GAIN * SCALE * (1 + 1e-9)
    assert res.status == "diverged" and res.t[-1] < 0.2
    assert value_in(res.message, "energy gain") > ENERGY_GAIN * SCALE


def test_only_passive_models_have_their_energy_judged():
    """A drive, an effort or a load that changes in time feeds energy in: no energy verdict;
    constant loads, constant efforts (their work is a potential's) and springs keep a model
    passive."""
    from rancf.formulations.reduced.drift import passive
    m = pendulum(2e11)
    assert passive(m)
    m.add_force(m.beams[0].end, force=(0.0, -1.0))
    assert passive(m)
    timed = pendulum(2e11)
    timed.add_force(timed.beams[0].end, force=lambda t: (0.0, -t))
    assert not passive(timed)
    for kind, value, expected in (("drive", lambda t: (t, 1.0, 0.0), False),
                                  ("effort", lambda t, q, qd: 1.0, False),
                                  ("effort", 1.0, True)):
        driven = rancf.Model(gravity=(0.0, -G), elastic_model="berzeri")
        b = driven.add_beam(LENGTH, N_ELEMENTS, E=2e11, rho=RHO, A=AREA, I=INERTIA)
        driven.add_joint("revolute", driven.ground.point(0.0, 0.0), b.start, **{kind: value})
        assert passive(driven) is expected


def spun(torque):
    """The audit's beam without gravity, pinned at its start, turned by a constant torque (N m)
    at the pin from rest: no energy but the effort's work."""
    m = rancf.Model(gravity=(0.0, 0.0), elastic_model="berzeri")
    b = m.add_beam(LENGTH, N_ELEMENTS, E=7e7, rho=RHO, A=AREA, I=INERTIA)
    m.add_joint("revolute", m.ground.point(0.0, 0.0), b.start, effort=torque)
    return m


def test_a_run_turned_by_a_constant_effort_that_gains_energy_is_flagged():
    """0.5 N m on the spun beam, 16 of 32 modes: the reduced beam folds (chords to 0.73 of
    their length, shorter: no stretch) and its nodes reach 20 m/s within 0.15 s, where the
    full model's tip moves at centimetres per second (validation.reduced_error W11: 8.5 times
    the tip's travel off at 1 s, "ok" before constant efforts counted as passive). The
    balance with the effort's work (the loop's ``work``, checked here against tau times the
    full run's joint angle, its potential) is what flags it: "diverged" at the finished run
    (an effort's work needs the angle in turns, which a step does not have), every output
    kept, the gain far above the limit of the scale with the effort's term."""
    torque, t_end = 0.5, 0.3
    full = rancf.simulate(spun(torque), t_end, 1e-3, method="backward-euler",
                          formulation="recursive", tol=1e-12, output_every=5)
    full_dae = rancf.simulate(spun(torque), t_end, 1e-3, method="backward-euler",
                              formulation="dae", tol=1e-12, output_every=5)
    # the work is the effort's potential: tau times the recursion's joint angle, up to the
    # trapezoidal rule's start (power 0 at rest, then the first step's: an offset of about
    # tau |dtheta_1| / 2, measured 0.006 J), within 5 % of the work at the end
    work = torque * (np.asarray(full.joint_q)[:, 0] - full.joint_q[0][0])
    np.testing.assert_allclose(np.asarray(full_dae.work), work, rtol=0, atol=0.05 * work[-1])
    res = rancf.simulate(rancf.reduce(spun(torque), 16, 32, seed=0), t_end, 1e-3,
                         output_every=5)
    assert res.status == "diverged", res.message
    assert len(res.t) == len(full.t)
    scale = torque * max(1.0, float(np.max(np.abs(np.asarray(res.joint_q)[:, 0]))))
    assert value_in(res.message, "energy gain") > 10 * ENERGY_GAIN * scale


def test_a_run_turned_by_a_constant_effort_that_follows_is_not_flagged():
    """0.05 N m, 24 of 32 modes, 1 s (validation.reduced_error W9, measured 0.01 % of the
    tip's travel off): "ok", within 1 % of the full recursion's tip travel."""
    full = rancf.simulate(spun(0.05), 1.0, 1e-3, method="backward-euler",
                          formulation="recursive", tol=1e-12, output_every=5)
    res = rancf.simulate(rancf.reduce(spun(0.05), 24, 32, seed=0), 1.0, 1e-3, output_every=5)
    assert res.status == "ok", res.message
    tip = full.tip()
    travel = np.hypot(*(tip - tip[0]).T).max()
    assert np.hypot(*(res.tip() - tip).T).max() < 0.01 * travel


def test_a_loaded_run_is_stopped_at_the_step_that_gains_energy():
    """The soft pendulum of the test above with a constant 1 N downward force at its tip: a
    passive model whose force is the potential ``-F . r_tip`` (J), counted at every step, so
    the run stops at the first step past the limit (its message's "at t =" the step after
    the last output) instead of running to the end and being flagged there. Every output
    before it is within the limit, recomputed here from the energy functions, the tip's
    position and the scale ``(m |g| + |F|) L`` of the module docstring (at rest,
    unstressed)."""
    force = 1.0
    m = pendulum(2e9)
    m.add_force(m.beams[0].end, force=(0.0, -force))
    res = rancf.simulate(rancf.reduce(m, 16, 32), 0.2, 1e-3, output_every=1)
    assert res.status == "diverged" and res.t[-1] < 0.2
    assert stop_time(res.message) == pytest.approx(res.t[-1] + 1e-3, abs=1e-9)
    total = total_energy(m, 2e9, res) + force * res.tip()[:, 1]
    scale = SCALE + force * LENGTH
    assert np.max(total - total[0]) <= ENERGY_GAIN * scale * (1 + 1e-9)
    assert value_in(res.message, "energy gain") > ENERGY_GAIN * scale
